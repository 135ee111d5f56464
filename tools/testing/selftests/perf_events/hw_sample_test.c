// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling with the x86 hardware PMU: instructions:u events with a
 * prime sample_period, whose counter overflows every period user
 * instructions and takes a sample (an NMI on x86) of where the task was.
 *
 *  - Two functions of the same loop, the second called for three times
 *    the iterations of the first, get a quarter and three quarters of
 *    the samples' IPs, within a few percent.
 *  - A loop of L instructions gives L / period samples, within 2, and
 *    the event counts the loop; with a period of 1, a sample every other
 *    instruction.
 *  - Two events of a group, with the same period, overflow at the same
 *    instructions: each delivers as many samples, at the same IPs.
 *  - Every sample is marked PERF_RECORD_MISC_USER, and nothing is lost
 *    or throttled.
 *  - A frequency event starts at a period estimated for its frequency,
 *    not at 1: no sample in the first few thousand instructions, and
 *    none of a longer loop with a short period; of an event far slower
 *    than that estimate, the tick's shorter period starts at once.
 *
 * A sample every 10007 instructions is tens of thousands a second or
 * more, which the kernel may throttle, the more readily where its NMIs
 * take long (as under emulation): the tests raise
 * perf_event_max_sample_rate and turn the dynamic limit off
 * (perf_cpu_time_max_percent 0) while they run.
 *
 * Skipped where there is no hardware PMU.
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

/* A prime, so that the samples do not fall in step with the loops. */
#define PERIOD		10007
#define RING_PAGES	16

/*
 * The two functions: the same loop of HW_LOOP_INSNS instructions an
 * iteration, each function in its own address range, ending at its
 * _end label.
 */
asm(".pushsection .text\n"
	".globl hw_work_a\n"
	".type hw_work_a, @function\n"
	"hw_work_a:\n"
	"1:	add $3, %rax\n"
	"	nop\n"
	"	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".globl hw_work_a_end\n"
	"hw_work_a_end:\n"
	".size hw_work_a, . - hw_work_a\n"
	".globl hw_work_b\n"
	".type hw_work_b, @function\n"
	"hw_work_b:\n"
	"1:	add $3, %rax\n"
	"	nop\n"
	"	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".globl hw_work_b_end\n"
	"hw_work_b_end:\n"
	".size hw_work_b, . - hw_work_b\n"
	".popsection\n");

void hw_work_a(unsigned long n);
void hw_work_b(unsigned long n);
extern const char hw_work_a_end[], hw_work_b_end[];

/* Iterations of hw_work_a() a round; hw_work_b() does three times as many. */
#define WORK_N		1000UL
#define ROUNDS		500

static __attribute__((noinline)) void two_functions(int fd)
{
	int i;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < ROUNDS; i++) {
		hw_work_a(WORK_N);
		hw_work_b(3 * WORK_N);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

#define MAX_RATE	SYSCTL_PATH("perf_event_max_sample_rate")
#define CPU_PERCENT	SYSCTL_PATH("perf_cpu_time_max_percent")
/* Samples a second the tests may take, far above what they take. */
#define TEST_RATE	1000000

FIXTURE(hw_sample) {
	struct saved_rate_limits limits;
};

FIXTURE_SETUP(hw_sample)
{
	/* The harness runs each test even when this skips: they check. */
	if (!hw_pmu_present())
		return;
	ASSERT_EQ(0, sample_rate_lift(&self->limits, TEST_RATE));
}

FIXTURE_TEARDOWN(hw_sample)
{
	sample_rate_restore(&self->limits);
}

/* An instructions:u event sampling IP every PERIOD, its ring mapped. */
static int open_sampling(struct perf_event_attr *attr, int group_fd,
			 struct ring *r)
{
	int fd;

	hw_attr_init(attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr->sample_period = PERIOD;
	attr->sample_type = PERF_SAMPLE_IP;
	attr->disabled = group_fd < 0;
	fd = sys_perf_event_open(attr, 0, -1, group_fd, 0);
	if (fd < 0)
		return -1;
	if (ring_map(r, fd, RING_PAGES)) {
		close(fd);
		return -1;
	}
	ring_prefault(r);
	return fd;
}

/* Where the samples of a ring fell. */
struct ip_hits {
	int samples;
	int in_a;
	int in_b;
	int not_user;	/* samples without PERF_RECORD_MISC_USER */
	struct record_counts counts;
};

static bool in_range(__u64 ip, const void *start, const void *end)
{
	return ip >= (uintptr_t)start && ip < (uintptr_t)end;
}

static int count_hit(struct perf_event_header *h, void *arg)
{
	struct ip_hits *hits = arg;
	__u64 ip;

	count_record(h, &hits->counts);
	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	hits->samples++;
	if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		hits->not_user++;
	ip = *(__u64 *)(h + 1);
	if (in_range(ip, hw_work_a, hw_work_a_end))
		hits->in_a++;
	else if (in_range(ip, hw_work_b, hw_work_b_end))
		hits->in_b++;
	return 0;
}

/*
 * No sample lost, none throttled, every one in user mode: the PMI of
 * an instructions:u counter comes right after the user instruction that
 * overflowed it, before an interrupt that was pending then.
 */
static void expect_clean(struct __test_metadata *_metadata,
			 struct ip_hits *hits)
{
	EXPECT_EQ(0, hits->counts.type[PERF_RECORD_LOST]);
	EXPECT_EQ(0, hits->counts.type[PERF_RECORD_THROTTLE]);
	EXPECT_EQ(0, hits->not_user);
}

/* Run hw_loop(@n) with @fd enabled; its count and where its samples fell. */
static int run_and_collect(int fd, struct ring *r, unsigned long n,
			   __u64 *count, struct ip_hits *hits)
{
	if (hw_run_loop(fd, n, 0) || read_value(fd, count))
		return -1;
	return ring_drain(r, count_hit, hits) < 0 ? -1 : 0;
}

/* The share of @part in @whole, in tenths of a percent. */
static int permille(int part, int whole)
{
	return whole ? part * 1000 / whole : 0;
}

TEST_F(hw_sample, ip_share_follows_work)
{
	struct perf_event_attr attr;
	struct ip_hits hits = { 0 };
	struct ring r;
	int fd;

	HW_SKIP_WITHOUT_PMU();
	fd = open_sampling(&attr, -1, &r);
	ASSERT_LE(0, fd) TH_LOG("instructions:u: %s", strerror(errno));
	two_functions(fd);
	ASSERT_LE(0, ring_drain(&r, count_hit, &hits));
	expect_clean(_metadata, &hits);

	/* 16 * WORK_N * ROUNDS instructions: some 800 samples. */
	EXPECT_LE(16 * WORK_N * ROUNDS / PERIOD - 2, hits.samples);
	EXPECT_GE(16 * WORK_N * ROUNDS / PERIOD + 2, hits.samples);
	/* A quarter and three quarters, within 3%. */
	EXPECT_LE(220, permille(hits.in_a, hits.samples));
	EXPECT_GE(280, permille(hits.in_a, hits.samples));
	EXPECT_LE(720, permille(hits.in_b, hits.samples));
	EXPECT_GE(780, permille(hits.in_b, hits.samples));
	TH_LOG("%d samples: %d in a, %d in b", hits.samples, hits.in_a,
	       hits.in_b);
	ring_unmap(&r);
	close(fd);
}

#define LOOP_N		250000UL
#define LOOP_INSNS	(LOOP_N * HW_LOOP_INSNS)

/* One sample every PERIOD instructions of a known loop. */
TEST_F(hw_sample, samples_per_period)
{
	struct perf_event_attr attr;
	struct ip_hits hits = { 0 };
	struct ring r;
	__u64 count;
	int fd;

	HW_SKIP_WITHOUT_PMU();
	fd = open_sampling(&attr, -1, &r);
	ASSERT_LE(0, fd) TH_LOG("instructions:u: %s", strerror(errno));
	ASSERT_EQ(0, run_and_collect(fd, &r, LOOP_N, &count, &hits));
	expect_clean(_metadata, &hits);
	EXPECT_LE(LOOP_INSNS, count);
	EXPECT_GT(LOOP_INSNS + 1000, count);
	EXPECT_LE(LOOP_INSNS / PERIOD - 2, hits.samples);
	EXPECT_GE(LOOP_INSNS / PERIOD + 2, hits.samples);
	TH_LOG("%d samples, %llu instructions", hits.samples, count);
	ring_unmap(&r);
	close(fd);
}

/*
 * A period of 1 overflows every other instruction, as on 6.1, whose x86
 * driver never loads a counter one short of overflowing: count / 2
 * samples, some of them in the kernel (a user instruction entering it,
 * a syscall, overflows its counter there).
 */
TEST_F(hw_sample, period_one_every_other)
{
	struct perf_event_attr attr;
	struct ip_hits hits = { 0 };
	struct ring r;
	__u64 count;
	int fd;

	HW_SKIP_WITHOUT_PMU();
	if (hw_min_period() > 1)
		SKIP(return, "this model takes no period under %llu",
		     hw_min_period());
	fd = open_sampling(&attr, -1, &r);
	ASSERT_LE(0, fd) TH_LOG("instructions:u: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &(__u64){ 1 }));
	/* Some 4000 instructions: 2000 samples of 16 bytes. */
	ASSERT_EQ(0, run_and_collect(fd, &r, 1000, &count, &hits));
	EXPECT_EQ(0, hits.counts.type[PERF_RECORD_LOST]);
	EXPECT_EQ(0, hits.counts.type[PERF_RECORD_THROTTLE]);
	EXPECT_EQ(count / 2, hits.samples);
	TH_LOG("%d samples, %llu instructions", hits.samples, count);
	ring_unmap(&r);
	close(fd);
}

/*
 * Two events of one group, with the same period, start together and
 * overflow together: each gets all its samples, at the same places.
 */
TEST_F(hw_sample, two_events_overflow_together)
{
	struct perf_event_attr attr[2];
	struct samples *ss[2];
	struct ring r[2];
	int fd[2], i, n;

	HW_SKIP_WITHOUT_PMU();
	fd[0] = open_sampling(&attr[0], -1, &r[0]);
	ASSERT_LE(0, fd[0]) TH_LOG("leader: %s", strerror(errno));
	fd[1] = open_sampling(&attr[1], fd[0], &r[1]);
	ASSERT_LE(0, fd[1]) TH_LOG("member: %s", strerror(errno));
	ASSERT_EQ(0, hw_run_loop(fd[0], LOOP_N, PERF_IOC_FLAG_GROUP));
	for (i = 0; i < 2; i++) {
		ss[i] = malloc(sizeof(*ss[i]));
		ASSERT_NE(NULL, ss[i]);
		samples_init(ss[i], &attr[i], 1);
		ASSERT_EQ(0, ring_collect(&r[i], ss[i]));
		EXPECT_EQ(0, ss[i]->bad);
		EXPECT_EQ(0, ss[i]->counts.type[PERF_RECORD_LOST]);
		EXPECT_EQ(0, ss[i]->counts.type[PERF_RECORD_THROTTLE]);
		EXPECT_LE(LOOP_INSNS / PERIOD - 2, ss[i]->nr) TH_LOG("%d", i);
		EXPECT_GE(LOOP_INSNS / PERIOD + 2, ss[i]->nr) TH_LOG("%d", i);
	}
	EXPECT_EQ(ss[0]->nr, ss[1]->nr);
	n = ss[0]->kept < ss[1]->kept ? ss[0]->kept : ss[1]->kept;
	for (i = 0; i < n; i++) {
		EXPECT_EQ(ss[0]->s[i].ip, ss[1]->s[i].ip) TH_LOG("sample %d", i);
		EXPECT_EQ(PERF_RECORD_MISC_USER,
			  ss[0]->misc[i] & PERF_RECORD_MISC_CPUMODE_MASK);
		EXPECT_EQ(PERF_RECORD_MISC_USER,
			  ss[1]->misc[i] & PERF_RECORD_MISC_CPUMODE_MASK);
	}
	for (i = 0; i < 2; i++) {
		samples_free(ss[i]);
		free(ss[i]);
		ring_unmap(&r[i]);
		close(fd[i]);
	}
}

#define THROTTLE_RATE	1000		/* samples/s: 4 a tick at HZ 250 */
#define THROTTLE_PERIOD	1009
#define THROTTLE_LOOP_N	5000000UL
#define THROTTLE_ROUNDS	40

/*
 * Past perf_event_max_sample_rate / HZ samples in a tick the event is
 * throttled (a THROTTLE record; its counter stops), and the next tick
 * lets it go on (UNTHROTTLE): it samples again, more than one tick's
 * worth in all.  The loop runs again, the event still enabled, until
 * the ring has the UNTHROTTLE: the guest's ticks follow the host's
 * clock, and on a busy host one loop can end before the next tick.
 */
TEST_F(hw_sample, throttled_and_back)
{
	struct perf_event_attr attr;
	struct ip_hits hits = { 0 };
	struct ring r;
	__u64 count;
	int fd, rounds;

	HW_SKIP_WITHOUT_PMU();
	/* The rate can only be set while the CPU-time limit is on. */
	ASSERT_EQ(0, write_int_file(CPU_PERCENT, 25));
	ASSERT_EQ(0, write_int_file(MAX_RATE, THROTTLE_RATE));
	ASSERT_EQ(0, write_int_file(CPU_PERCENT, 0));
	fd = open_sampling(&attr, -1, &r);
	ASSERT_LE(0, fd) TH_LOG("instructions:u: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD,
			   &(__u64){ THROTTLE_PERIOD }));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (rounds = 1; rounds < THROTTLE_ROUNDS; rounds++) {
		hw_loop(THROTTLE_LOOP_N);
		ASSERT_LE(0, ring_drain(&r, count_hit, &hits));
		if (hits.counts.type[PERF_RECORD_UNTHROTTLE])
			break;
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_value(fd, &count));
	ASSERT_LE(0, ring_drain(&r, count_hit, &hits));
	EXPECT_EQ(0, hits.counts.type[PERF_RECORD_LOST]);
	EXPECT_LE(1, hits.counts.type[PERF_RECORD_THROTTLE]);
	EXPECT_LE(1, hits.counts.type[PERF_RECORD_UNTHROTTLE]);
	EXPECT_LT(THROTTLE_RATE / 250, hits.samples);
	/* Throttled stretches count nothing; the rest counts. */
	EXPECT_LT(0, count);
	EXPECT_GE(rounds * THROTTLE_LOOP_N * HW_LOOP_INSNS + 1000, count);
	TH_LOG("%d samples, %d throttled, %d unthrottled, %llu instructions in %d loops",
	       hits.samples, hits.counts.type[PERF_RECORD_THROTTLE],
	       hits.counts.type[PERF_RECORD_UNTHROTTLE], count, rounds);
	ring_unmap(&r);
	close(fd);
}

/*
 * A frequency event has no rate to go by when it is enabled: it starts
 * at the period a counter going at 500 MHz would need, 124999 events at
 * 4000 Hz.  A loop of 20000 instructions ends before the first overflow,
 * and the first sample of a longer loop has a period an estimate made,
 * well above the few events of one climbing from a period of 1 (the
 * later ones may be shorter: a tick that came soon after the enable
 * can shorten the period a lot, on both kernels).  6.1 does so
 * on Intel, but starts AMD's counters at 1: there this is an extension
 * of ours (Documentation/core-api/perf_event_design.rst), skipped on 6.1.
 */
#define FREQ		4000
#define SHORT_N		(20000 / HW_LOOP_INSNS)
#define LONG_N		(10000000 / HW_LOOP_INSNS)
#define MIN_PERIOD	1000

TEST_F(hw_sample, freq_first_period)
{
	struct perf_event_attr attr;
	struct samples *ss;
	struct ring r;
	int fd;

	HW_SKIP_WITHOUT_PMU();
	if (hw_vendor() == HW_VENDOR_AMD && !ours_kernel())
		SKIP(return, "6.1 starts AMD's frequency events at period 1");
	ss = malloc(sizeof(*ss));
	ASSERT_NE(NULL, ss);
	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.freq = 1;
	attr.sample_freq = FREQ;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("instructions:u: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, RING_PAGES));
	ring_prefault(&r);

	ASSERT_EQ(0, hw_run_loop(fd, SHORT_N, 0));
	samples_init(ss, &attr, 1);
	ASSERT_EQ(0, ring_collect(&r, ss));
	EXPECT_EQ(0, ss->nr) TH_LOG("first sample's period %llu",
				    ss->kept ? ss->s[0].period : 0ULL);
	samples_free(ss);
	ring_unmap(&r);
	close(fd);

	/*
	 * A new event for the long loop: a tick in the short one (which a
	 * loaded host can stretch over one) has measured its rate and set
	 * its period from that.
	 */
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, RING_PAGES));
	ring_prefault(&r);
	ASSERT_EQ(0, hw_run_loop(fd, LONG_N, 0));
	samples_init(ss, &attr, 1);
	ASSERT_EQ(0, ring_collect(&r, ss));
	ASSERT_LT(0, ss->kept);
	EXPECT_EQ(0, ss->bad);
	EXPECT_LE(MIN_PERIOD, ss->s[0].period);
	TH_LOG("%d samples, first period %llu", ss->nr,
	       ss->kept ? ss->s[0].period : 0ULL);
	samples_free(ss);
	free(ss);
	ring_unmap(&r);
	close(fd);
}

/*
 * The first guess is for a fast event.  A frequency event whose events
 * come far slower (the user instructions of a task that spends its time
 * in the kernel, reading /dev/zero) must not wait out the guess: the
 * tick measures the rate, and the shorter period starts then, not after
 * the first one (a run whose whole count is under the first period took
 * no sample on ours before, where 6.1's perf c2c took hundreds).
 */
#define FIRST_PERIOD	(500000000 / FREQ - 1)
#define SLOW_MS		300
#define SLOW_BUF	(256 << 10)

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

TEST_F(hw_sample, freq_slow_event_samples)
{
	struct perf_event_attr attr;
	struct samples *ss;
	struct timespec t0;
	struct ring r;
	__u64 count;
	int fd, zero;
	char *buf;

	HW_SKIP_WITHOUT_PMU();
	ss = malloc(sizeof(*ss));
	buf = malloc(SLOW_BUF);
	ASSERT_NE(NULL, ss);
	ASSERT_NE(NULL, buf);
	zero = open("/dev/zero", O_RDONLY);
	ASSERT_LE(0, zero);
	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.freq = 1;
	attr.sample_freq = FREQ;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("instructions:u: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, RING_PAGES));
	ring_prefault(&r);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	do {
		if (read(zero, buf, SLOW_BUF) != SLOW_BUF)
			break;
	} while (ms_since(&t0) < SLOW_MS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_value(fd, &count));
	samples_init(ss, &attr, 1);
	ASSERT_EQ(0, ring_collect(&r, ss));
	TH_LOG("%llu instructions in %d ms, %d samples, first period %llu",
	       count, SLOW_MS, ss->nr, ss->kept ? ss->s[0].period : 0ULL);
	if (count < FIRST_PERIOD) {
		EXPECT_LE(5, ss->nr);
		EXPECT_EQ(0, ss->bad);
	}
	samples_free(ss);
	free(ss);
	free(buf);
	ring_unmap(&r);
	close(fd);
	close(zero);
	if (count >= FIRST_PERIOD)
		SKIP(return, "%llu user instructions: too fast a loop to tell",
		     count);
}

TEST_HARNESS_MAIN
