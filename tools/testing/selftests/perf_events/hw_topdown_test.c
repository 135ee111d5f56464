// SPDX-License-Identifier: GPL-2.0
/*
 * Topdown slots and metrics (Intel from Ice Lake): fixed counter 3
 * counts the issue slots, pseudo-event 0x0400 ("slots"); the register
 * IA32_PERF_METRICS gives the share of those slots each category took,
 * in 255ths, read through the pseudo-events 0x8000 to 0x8300 (level 1:
 * retiring, bad speculation, frontend bound, backend bound) and, on
 * Sapphire Rapids, 0x8400 to 0x8700 (level 2: heavy operations, branch
 * mispredicts, fetch latency, memory bound).  As tools/perf's
 * Documentation/topdown.txt describes it for the user and Linux 6.1
 * behaves:
 *
 *  - sysfs names the pseudo-events (events/slots, events/topdown-*);
 *  - a metric event is a counting member of a group led by a slots
 *    event: alone, under another leader or sampling it is refused with
 *    EINVAL, and so is a metric the CPU does not have;
 *  - a metric's count is its share of the group's slots, so the level-1
 *    metrics add up to the slots (less what each read rounds down), and
 *    each level-2 metric is at most its level-1 parent;
 *  - counts only grow, though the kernel resets the hardware at each
 *    read;
 *  - user space reads the metrics register with rdpmc: the metric
 *    event's page gives index (1 << 29) + 1, the slots event's the
 *    fixed counter's (1 << 30) + 3 + 1;
 *  - a sampling member's samples read the metrics too, growing;
 *  - two topdown groups share the one slots counter by multiplexing.
 *
 * On the emulated PMU (harness/qemu patch 8) a core retires one
 * instruction a slot and the remaining slots are backend bound; the
 * test only asks that of the emulation where it says so.
 *
 * Skipped where the CPU has no PERF_METRICS (IA32_PERF_CAPABILITIES bit
 * 15, read through /dev/cpu/0/msr); where it has them, the PMU must
 * offer the events.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>

#include "perf_test_util.h"
#include "hw_test_util.h"
#include "perf_sample_util.h"
#include "../kselftest_harness.h"

#define MSR_PERF_CAPABILITIES	0x345
#define CAP_PERF_METRICS	(1ULL << 15)

#define SLOTS			0x0400ULL
#define METRIC(n)		(0x8000ULL + ((__u64)(n) << 8))
#define MAX_METRICS		8

#define RDPMC_FIXED		(1U << 30)
#define RDPMC_METRICS		(1U << 29)

#define N1			10000UL
#define N2			210000UL

#define GROUP_FORMAT		(PERF_FORMAT_GROUP |			\
				 PERF_FORMAT_TOTAL_TIME_ENABLED |	\
				 PERF_FORMAT_TOTAL_TIME_RUNNING)

static const char * const metric_names[MAX_METRICS] = {
	"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound",
	"topdown-be-bound", "topdown-heavy-ops", "topdown-br-mispredict",
	"topdown-fetch-lat", "topdown-mem-bound",
};

/* IA32_PERF_CAPABILITIES, or 0 where it cannot be read. */
static __u64 perf_capabilities(void)
{
	unsigned int eax, ebx, ecx, edx;
	__u64 caps = 0;
	int fd;

	if (hw_vendor() != HW_VENDOR_INTEL ||
	    !__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1U << 15)))
		return 0;
	fd = open("/dev/cpu/0/msr", O_RDONLY);
	if (fd < 0)
		return 0;
	if (pread(fd, &caps, sizeof(caps), MSR_PERF_CAPABILITIES) !=
	    sizeof(caps))
		caps = 0;
	close(fd);
	return caps;
}

/* How many metric events the PMU offers in sysfs (0 to 8). */
static int sysfs_metrics(void)
{
	char path[64], buf[64];
	int n;

	for (n = 0; n < MAX_METRICS; n++) {
		snprintf(path, sizeof(path), "events/%s", metric_names[n]);
		if (hw_pmu_file(path, buf, sizeof(buf)))
			break;
	}
	return n;
}

/*
 * Skip where the CPU has no topdown metrics; fail where it has and the
 * PMU does not offer them.  Evaluates to the number of metrics.
 */
#define TOPDOWN_METRICS() ({						\
	char _buf[64];							\
	HW_SKIP_WITHOUT_PMU();						\
	if (hw_pmu_file("events/slots", _buf, sizeof(_buf))) {		\
		if (perf_capabilities() & CAP_PERF_METRICS)		\
			ASSERT_TRUE(0) TH_LOG("PERF_METRICS but no events/slots"); \
		SKIP(return, "no topdown metrics (IA32_PERF_CAPABILITIES[15])"); \
	}								\
	sysfs_metrics();						\
})

static int open_event(__u64 config, int group_fd, __u64 read_format,
		      __u64 period)
{
	struct perf_event_attr attr;

	hw_attr_init(&attr, PERF_TYPE_RAW, config);
	attr.disabled = group_fd < 0;
	attr.read_format = read_format;
	attr.sample_period = period;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

/* errno of opening @config in @group_fd's group (0 if it opened). */
static int open_errno(__u64 config, int group_fd, __u64 read_format,
		      __u64 period)
{
	int fd = open_event(config, group_fd, read_format, period);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* A slots leader and its @n metrics; fds[0] is the leader. */
static int open_topdown(int *fds, int n)
{
	int i;

	fds[0] = open_event(SLOTS, -1, GROUP_FORMAT, 0);
	if (fds[0] < 0)
		return -1;
	for (i = 1; i <= n; i++) {
		fds[i] = open_event(METRIC(i - 1), fds[0], GROUP_FORMAT, 0);
		if (fds[i] < 0)
			return -1;
	}
	return 0;
}

TEST(sysfs_events)
{
	char path[64], buf[64], want[64];
	int n = TOPDOWN_METRICS(), i;

	ASSERT_EQ(0, hw_pmu_file("events/slots", buf, sizeof(buf)));
	EXPECT_STREQ("event=0x00,umask=0x4", buf);
	EXPECT_TRUE(n == 4 || n == 8) TH_LOG("%d metrics", n);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "events/%s", metric_names[i]);
		ASSERT_EQ(0, hw_pmu_file(path, buf, sizeof(buf)));
		snprintf(want, sizeof(want), "event=0x00,umask=0x8%d", i);
		EXPECT_STREQ(want, buf) TH_LOG("%s", path);
	}
}

TEST(slots_alone_counts)
{
	__u64 s1, s2, c1, c2, d;
	int fd, cyc;

	TOPDOWN_METRICS();
	fd = open_event(SLOTS, -1, 0, 0);
	ASSERT_LE(0, fd) TH_LOG("slots: %s", strerror(errno));
	cyc = hw_open(PERF_COUNT_HW_CPU_CYCLES);
	ASSERT_LE(0, cyc);
	ASSERT_EQ(0, hw_count_loop(fd, N1, &s1));
	ASSERT_EQ(0, hw_count_loop(fd, N2, &s2));
	ASSERT_EQ(0, hw_count_loop(cyc, N1, &c1));
	ASSERT_EQ(0, hw_count_loop(cyc, N2, &c2));
	ASSERT_LT(s1, s2);
	ASSERT_LT(c1, c2);
	/* Between four and eight slots a cycle, on every core so far. */
	d = (s2 - s1) * 100 / (c2 - c1);
	EXPECT_LE(4 * 99, d) TH_LOG("%llu slots in %llu cycles",
				    s2 - s1, c2 - c1);
	EXPECT_GE(8 * 101, d) TH_LOG("%llu slots in %llu cycles",
				     s2 - s1, c2 - c1);
	close(cyc);
	close(fd);
}

TEST(metric_needs_slots_leader)
{
	int cyc, slots;

	TOPDOWN_METRICS();
	EXPECT_EQ(EINVAL, open_errno(METRIC(0), -1, 0, 0));
	EXPECT_EQ(EINVAL, open_errno(METRIC(0), -1, GROUP_FORMAT, 0));

	cyc = open_event(0x3c, -1, GROUP_FORMAT, 0);
	ASSERT_LE(0, cyc);
	EXPECT_EQ(EINVAL, open_errno(METRIC(0), cyc, GROUP_FORMAT, 0));
	/* A slots event that is not the leader does not make it right. */
	slots = open_event(SLOTS, cyc, GROUP_FORMAT, 0);
	ASSERT_LE(0, slots) TH_LOG("slots under cycles: %s", strerror(errno));
	EXPECT_EQ(EINVAL, open_errno(METRIC(1), cyc, GROUP_FORMAT, 0));
	close(slots);
	close(cyc);
}

TEST(metric_does_not_sample)
{
	int slots;

	TOPDOWN_METRICS();
	slots = open_event(SLOTS, -1, GROUP_FORMAT, 0);
	ASSERT_LE(0, slots);
	EXPECT_EQ(EINVAL, open_errno(METRIC(0), slots, GROUP_FORMAT, 100000));
	EXPECT_EQ(0, open_errno(METRIC(0), slots, GROUP_FORMAT, 0));
	close(slots);
}

TEST(slots_leader_sampling)
{
	int slots;

	TOPDOWN_METRICS();
	slots = open_event(SLOTS, -1, GROUP_FORMAT, 100000);
	ASSERT_LE(0, slots) TH_LOG("sampling slots: %s", strerror(errno));
	EXPECT_EQ(EINVAL, open_errno(METRIC(0), slots, GROUP_FORMAT, 0));
	close(slots);
}

/*
 * A metric the CPU does not have (umask 0x84 on Ice Lake, 0x88 on any)
 * is not a metric: it is an ordinary raw event, event select 0 with
 * that unit mask, and opens as a member of any group, as on 6.1.
 */
TEST(metric_beyond_the_cpus)
{
	int n = TOPDOWN_METRICS(), slots;

	slots = open_event(SLOTS, -1, GROUP_FORMAT, 0);
	ASSERT_LE(0, slots);
	if (n < MAX_METRICS)
		EXPECT_EQ(0, open_errno(METRIC(n), slots, GROUP_FORMAT, 0));
	EXPECT_EQ(0, open_errno(METRIC(MAX_METRICS), slots, GROUP_FORMAT, 0));
	EXPECT_EQ(0, open_errno(METRIC(MAX_METRICS), -1, 0, 0));
	close(slots);
}

/* Each metric once a group: the second of a kind never fits. */
TEST(same_metric_twice)
{
	int slots, a;

	TOPDOWN_METRICS();
	slots = open_event(SLOTS, -1, GROUP_FORMAT, 0);
	ASSERT_LE(0, slots);
	a = open_event(METRIC(0), slots, GROUP_FORMAT, 0);
	ASSERT_LE(0, a);
	EXPECT_EQ(EINVAL, open_errno(METRIC(0), slots, GROUP_FORMAT, 0));
	EXPECT_EQ(0, open_errno(METRIC(1), slots, GROUP_FORMAT, 0));
	close(a);
	close(slots);
}

/*
 * A metric read on its own (without PERF_FORMAT_GROUP) gives its share
 * of the slots too; tools/perf's documentation asks for group reads,
 * but 6.1 does not refuse the other.
 */
TEST(metric_read_alone)
{
	int slots, ret;
	__u64 s, r;

	TOPDOWN_METRICS();
	slots = open_event(SLOTS, -1, 0, 0);
	ASSERT_LE(0, slots);
	ret = open_event(METRIC(0), slots, 0, 0);
	ASSERT_LE(0, ret) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, hw_run_loop(slots, N2, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, read_value(ret, &r));
	ASSERT_EQ(0, read_value(slots, &s));
	TH_LOG("slots %llu retiring %llu", s, r);
	EXPECT_LT(0, r);
	EXPECT_GE(s, r);
	close(ret);
	close(slots);
}

/*
 * A sampling member under a slots leader, the group read in its samples:
 * what perf record -e '{slots,cycles,topdown-retiring}:S' opens.  Each
 * sample's metric is its share of the slots so far, and grows.
 */
TEST(sampling_member)
{
	struct perf_event_attr attr;
	struct group_reading g;
	struct samples *ss;
	__u64 slots_prev = 0, ret_prev = 0;
	int slots, cyc, ret, i, r;
	struct ring ring;

	TOPDOWN_METRICS();
	slots = open_event(SLOTS, -1, GROUP_FORMAT, 0);
	ASSERT_LE(0, slots);
	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.disabled = 0;
	attr.sample_period = 200000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_READ;
	attr.read_format = GROUP_FORMAT;
	cyc = sys_perf_event_open(&attr, 0, -1, slots, 0);
	ASSERT_LE(0, cyc) TH_LOG("%s", strerror(errno));
	ret = open_event(METRIC(0), slots, GROUP_FORMAT, 0);
	ASSERT_LE(0, ret) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ring_map(&ring, cyc, 16));

	ASSERT_EQ(0, ioctl(slots, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	for (r = 0; r < 4; r++)
		hw_loop(N2);
	ASSERT_EQ(0, ioctl(slots, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));

	ss = malloc(sizeof(*ss));
	ASSERT_NE(NULL, ss);
	samples_init(ss, &attr, 3);
	ASSERT_EQ(0, ring_collect(&ring, ss));
	EXPECT_EQ(0, ss->bad);
	ASSERT_LT(2, ss->kept) TH_LOG("%d samples", ss->kept);
	for (i = 0; i < ss->kept; i++) {
		ASSERT_EQ(0, group_split(ss->s[i].read,
					 ss->s[i].read_words * sizeof(__u64),
					 GROUP_FORMAT, &g));
		ASSERT_EQ(3, g.nr);
		/* slots, cycles, retiring */
		EXPECT_LE(slots_prev, g.member[0].value) TH_LOG("sample %d", i);
		EXPECT_LE(ret_prev, g.member[2].value) TH_LOG("sample %d", i);
		EXPECT_GE(g.member[0].value + 1, g.member[2].value)
			TH_LOG("sample %d", i);
		slots_prev = g.member[0].value;
		ret_prev = g.member[2].value;
	}
	EXPECT_LT(0, ret_prev);
	/* And read() after them agrees, its counts at least theirs. */
	ASSERT_EQ(0, read_group(slots, GROUP_FORMAT, &g));
	EXPECT_LE(slots_prev, g.member[0].value);
	EXPECT_LE(ret_prev, g.member[2].value);

	samples_free(ss);
	free(ss);
	ring_unmap(&ring);
	close(ret);
	close(cyc);
	close(slots);
}

/* Run the loop under the group of @fds[0] and read it into @g. */
static int group_loop(int leader, unsigned long n, struct group_reading *g)
{
	if (hw_run_loop(leader, n, PERF_IOC_FLAG_GROUP))
		return -1;
	return read_group(leader, GROUP_FORMAT, g);
}

TEST(metrics_add_up)
{
	int n = TOPDOWN_METRICS(), fds[1 + MAX_METRICS], i;
	struct group_reading g;
	__u64 sum = 0;

	memset(fds, -1, sizeof(fds));
	ASSERT_EQ(0, open_topdown(fds, n)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, group_loop(fds[0], N2, &g));
	ASSERT_EQ((__u64)n + 1, g.nr);
	EXPECT_EQ(g.enabled, g.running);
	ASSERT_LT(0, g.member[0].value);
	for (i = 1; i <= 4; i++)
		sum += g.member[i].value;
	/* Each of the four rounds down, once a read. */
	EXPECT_GE(g.member[0].value, sum);
	EXPECT_LE(g.member[0].value, sum + 4)
		TH_LOG("slots %llu, metrics %llu %llu %llu %llu",
		       g.member[0].value, g.member[1].value, g.member[2].value,
		       g.member[3].value, g.member[4].value);
	/* Level 2: a part of its level-1 category. */
	for (i = 5; i <= n; i++)
		EXPECT_GE(g.member[i - 4].value + 1, g.member[i].value)
			TH_LOG("%s", metric_names[i - 1]);
	close_fds(fds, n + 1);
}

TEST(counts_only_grow)
{
	int n = TOPDOWN_METRICS(), fds[1 + MAX_METRICS], i, r;
	struct group_reading g, prev;

	memset(fds, -1, sizeof(fds));
	ASSERT_EQ(0, open_topdown(fds, n));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, read_group(fds[0], GROUP_FORMAT, &prev));
	for (r = 0; r < 4; r++) {
		hw_loop(N2);
		ASSERT_EQ(0, read_group(fds[0], GROUP_FORMAT, &g));
		EXPECT_LT(prev.member[0].value, g.member[0].value);
		for (i = 1; i <= n; i++)
			EXPECT_LE(prev.member[i].value, g.member[i].value)
				TH_LOG("%s, read %d", metric_names[i - 1], r);
		/* The first metric, retiring, grows with every loop. */
		EXPECT_LT(prev.member[1].value, g.member[1].value);
		prev = g;
	}
	/* A reset zeroes them all; disabled they stay. */
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	hw_loop(N1);
	ASSERT_EQ(0, read_group(fds[0], GROUP_FORMAT, &g));
	for (i = 0; i <= n; i++)
		EXPECT_EQ(0, g.member[i].value) TH_LOG("member %d", i);
	close_fds(fds, n + 1);
}

/*
 * On the emulated PMU every instruction takes one slot and retires:
 * the retiring share of the loop's slots is its instructions, within
 * the rounding of each read.
 */
TEST(emulated_retiring_is_instructions)
{
	int n = TOPDOWN_METRICS(), fds[1 + MAX_METRICS];
	struct group_reading g1, g2;
	__u64 want, got;

	if (!hw_emulated_pmu())
		SKIP(return, "the emulation's model only");
	memset(fds, -1, sizeof(fds));
	ASSERT_EQ(0, open_topdown(fds, n));
	ASSERT_EQ(0, group_loop(fds[0], N1, &g1));
	ASSERT_EQ(0, group_loop(fds[0], N1, &g1));
	ASSERT_EQ(0, group_loop(fds[0], N2, &g2));
	want = (N2 - N1) * HW_LOOP_INSNS;
	got = g2.member[1].value - g1.member[1].value;
	/* A share in 255ths of the slots: within 1/255 of them. */
	EXPECT_GE(want + g2.member[0].value / 255 + 1, got)
		TH_LOG("retiring %llu for %llu instructions", got, want);
	EXPECT_LE(want, got + g2.member[0].value / 255 + 1)
		TH_LOG("retiring %llu for %llu instructions", got, want);
	close_fds(fds, n + 1);
}

static __u64 rdpmc(unsigned int counter)
{
	unsigned int lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return lo | (__u64)hi << 32;
}

TEST(rdpmc_index)
{
	int n = TOPDOWN_METRICS(), fds[1 + MAX_METRICS], i;
	struct perf_event_mmap_page *pc[2];
	long page = sysconf(_SC_PAGESIZE);
	__u64 metrics, sum = 0;

	memset(fds, -1, sizeof(fds));
	ASSERT_EQ(0, open_topdown(fds, n));
	for (i = 0; i < 2; i++) {
		pc[i] = mmap(NULL, page, PROT_READ, MAP_SHARED, fds[i], 0);
		ASSERT_NE(MAP_FAILED, pc[i]);
	}
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	hw_loop(N2);
	EXPECT_TRUE(!!pc[0]->cap_user_rdpmc);
	EXPECT_TRUE(!!pc[1]->cap_user_rdpmc);
	EXPECT_EQ(RDPMC_FIXED + 3 + 1, pc[0]->index);
	EXPECT_EQ(RDPMC_METRICS + 1, pc[1]->index);
	if (pc[1]->index == RDPMC_METRICS + 1) {
		metrics = rdpmc(RDPMC_METRICS);
		for (i = 0; i < 4; i++)
			sum += (metrics >> (8 * i)) & 0xff;
		/* The level-1 fields share the whole, 0xff, within rounding. */
		EXPECT_LE(0xfc, sum) TH_LOG("metrics %#llx", metrics);
		EXPECT_GE(0xff, sum) TH_LOG("metrics %#llx", metrics);
	}
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	for (i = 0; i < 2; i++)
		munmap(pc[i], page);
	close_fds(fds, n + 1);
}

TEST(two_groups_multiplex)
{
	int n = TOPDOWN_METRICS(), a[2], b[2];
	struct group_reading ga, gb;
	int r;

	ASSERT_EQ(0, open_topdown(a, 1));
	ASSERT_EQ(0, open_topdown(b, 1));
	ASSERT_EQ(0, ioctl(a[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, ioctl(b[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	/* Long enough for several rotations of the multiplexing timer. */
	for (r = 0; r < 50; r++)
		hw_loop(N2);
	ASSERT_EQ(0, read_group(a[0], GROUP_FORMAT, &ga));
	ASSERT_EQ(0, read_group(b[0], GROUP_FORMAT, &gb));
	EXPECT_LT(0, ga.running);
	EXPECT_LT(0, gb.running);
	EXPECT_GT(ga.enabled, ga.running);
	EXPECT_GT(gb.enabled, gb.running);
	EXPECT_LT(0, ga.member[1].value);
	EXPECT_LT(0, gb.member[1].value);
	EXPECT_GE(ga.member[0].value + 1, ga.member[1].value);
	EXPECT_GE(gb.member[0].value + 1, gb.member[1].value);
	close_fds(a, 2);
	close_fds(b, 2);
	(void)n;
}

TEST_HARNESS_MAIN
