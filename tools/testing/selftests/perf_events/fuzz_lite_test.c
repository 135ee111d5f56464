// SPDX-License-Identifier: GPL-2.0
/*
 * A small, deterministic fuzzer of the perf ABI: random attrs (software,
 * tracepoint, breakpoint on our own memory, hardware and raw events with
 * random flags, sample types, read formats, register masks and sizes),
 * opened on the caller or CPU-wide, sometimes into the group of an event
 * still open; then random ioctls, reads, mmaps and SET_OUTPUTs among the
 * open events, some work for them to count, and closing in random order.
 *
 * Every call must succeed or fail with one of the errnos perf_event_open(2)
 * and the calls on its descriptors document; nothing may hang, and the
 * kernel must not complain (the harness fails a run whose console shows
 * a splat).  The seed is fixed, so a failure repeats; FUZZ_SEED in the
 * environment picks another, FUZZ_ROUNDS another number of rounds.
 * FUZZ_SECONDS (0 or unset: no limit) is a time after which no new round
 * starts, for make fuzz, which runs the test over and over beside trinity
 * with new seeds, where how many rounds fit in the harness's 30 s depends
 * on how loaded the host is; a run cut short repeats only as far as it
 * went.
 *
 * open_only opens 2000 random attrs with perf_event_max_sample_rate held
 * fixed and prints each one's answer, so that the results.log lines
 * "opens NNNN: ..." of two kernels can be diffed (on 2026-11-25 ours and
 * 6.1 gave the same 2000 answers).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

#define ROUNDS		1500
#define MAX_OPEN	8
#define TRACEFS		"/sys/kernel/tracing"
#define MAX_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"
#define MAX_PERCENT	"/proc/sys/kernel/perf_cpu_time_max_percent"

static __u64 watched[16];
static __u64 rng;

static __u64 rnd(void)
{
	/* xorshift64 */
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static __u64 pick(__u64 n)
{
	return rnd() % n;
}

/* A random value, biased towards the edges fuzzers like. */
static __u64 edgy(void)
{
	static const __u64 edges[] = { 0, 1, 2, 7, 8, 63, 64, 127, 128, 4095,
				       4096, 65535, 65536, 1ULL << 31,
				       1ULL << 32, 1ULL << 63, ~0ULL };

	return pick(3) ? edges[pick(ARRAY_SIZE(edges))] : rnd();
}

static int tp_ids[3];

static int tp_id_of(const char *sys, const char *name)
{
	char path[256];
	int id;

	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/id", sys, name);
	return read_int_file(path, &id) ? -1 : id;
}

/* Seed the generator and find the trace events the attrs use. */
static void fuzz_setup(__u64 seed)
{
	rng = seed;
	if (access(TRACEFS "/events", F_OK))
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	tp_ids[0] = tp_id_of("sched", "sched_switch");
	tp_ids[1] = tp_id_of("syscalls", "sys_enter_getpid");
	tp_ids[2] = tp_id_of("syscalls", "sys_exit_getpid");
}

/* A random but mostly plausible attr. */
static void random_attr(struct perf_event_attr *attr)
{
	static const __u32 sizes[] = { 0, PERF_ATTR_SIZE_VER0,
				       PERF_ATTR_SIZE_VER5, 120, 128, 136 };
	__u64 flags;
	int bit;

	memset(attr, 0, sizeof(*attr));
	switch (pick(6)) {
	case 0:
	case 1:
		attr->type = PERF_TYPE_SOFTWARE;
		attr->config = pick(PERF_COUNT_SW_MAX + 1);
		break;
	case 2:
		attr->type = PERF_TYPE_TRACEPOINT;
		attr->config = tp_ids[pick(ARRAY_SIZE(tp_ids))];
		break;
	case 3:
		attr->type = PERF_TYPE_BREAKPOINT;
		attr->bp_type = pick(8);
		attr->bp_len = 1ULL << pick(5);
		attr->bp_addr = (unsigned long)&watched[pick(8)] + pick(3);
		break;
	case 4:
		attr->type = PERF_TYPE_HARDWARE;
		attr->config = pick(PERF_COUNT_HW_MAX + 1);
		break;
	default:
		attr->type = pick(2) ? PERF_TYPE_RAW : PERF_TYPE_HW_CACHE;
		attr->config = pick(2) ? pick(0x10000) : edgy();
		break;
	}
	attr->size = sizes[pick(ARRAY_SIZE(sizes))];
	if (pick(2)) {
		attr->sample_period = pick(3) ? 1 + pick(100000) : edgy();
		attr->sample_type = rnd() & ((PERF_SAMPLE_MAX - 1) |
					     (pick(8) ? 0 : ~0ULL));
		if (pick(2))
			attr->sample_type &= PERF_SAMPLE_IP |
					     PERF_SAMPLE_TID |
					     PERF_SAMPLE_TIME |
					     PERF_SAMPLE_CALLCHAIN |
					     PERF_SAMPLE_READ |
					     PERF_SAMPLE_STACK_USER;
		attr->sample_regs_user = pick(2) ? 0xff0fffULL : edgy();
		attr->sample_regs_intr = pick(2) ? 0xff0fffULL : edgy();
		attr->sample_stack_user = pick(2) ? 8 * pick(1024) : edgy();
		attr->sample_max_stack = pick(200);
		attr->branch_sample_type = edgy();
		attr->wakeup_events = pick(4);
	}
	attr->read_format = pick(8) ? pick(32) : edgy();
	/*
	 * Flag bits: disabled to sigtrap, but never sigtrap (it would kill
	 * us), enable_on_exec (no exec here) nor pinned/exclusive groups
	 * starving the rest.
	 */
	for (flags = 0, bit = 0; bit < 38; bit++)
		if (!pick(10))
			flags |= 1ULL << bit;
	memcpy((char *)attr + 40, &flags, sizeof(flags));
	attr->sigtrap = 0;
	attr->exclusive = 0;
	if (!pick(4))
		attr->exclude_kernel = 1;
	if (attr->freq)
		attr->sample_freq = pick(2000);
	attr->clockid = pick(16);
	attr->aux_watermark = pick(8) ? 0 : rnd();
	attr->sample_max_stack = pick(200);
}

static bool open_errno_ok(int err)
{
	switch (err) {
	case EINVAL: case E2BIG: case ENOENT: case EOPNOTSUPP:
	case EACCES: case EPERM: case EFAULT: case ENODEV:
	case EOVERFLOW: case ESRCH: case EBADF: case EBUSY:
	case ENOSPC: case EMFILE: case ENOMEM:
	case ENXIO:	/* an x86 extra register the CPU lacks, as 6.1 */
		return true;
	}
	return false;
}

static bool call_errno_ok(int err)
{
	switch (err) {
	case EINVAL: case EFAULT: case ENOTTY: case EOPNOTSUPP:
	case EBADF: case ENOSPC: case E2BIG: case EPERM: case EACCES:
	case ENOMEM: case EBUSY: case ENOENT: case ESRCH:
	case EEXIST:	/* ftrace's answer to some bad filters */
		return true;
	}
	return false;
}

struct slot {
	int fd;
	void *map;
	size_t len;
};

static void random_call(struct __test_metadata *_metadata,
			struct slot *s, struct slot *all, __u64 round)
{
	static __u64 buf[512];
	struct perf_event_attr attr;
	long psz = getpagesize();
	unsigned long arg;
	int ret = 0, what = pick(12);
	size_t pages;

	switch (what) {
	case 0:
		ret = read(s->fd, buf, pick(2) ? sizeof(buf) : pick(64));
		ret = ret < 0 ? -1 : 0;
		break;
	case 1:
		ret = ioctl(s->fd, PERF_EVENT_IOC_ENABLE, pick(2));
		break;
	case 2:
		ret = ioctl(s->fd, PERF_EVENT_IOC_DISABLE, pick(2));
		break;
	case 3:
		ret = ioctl(s->fd, PERF_EVENT_IOC_RESET, pick(2));
		break;
	case 4:
		buf[0] = edgy();
		ret = ioctl(s->fd, PERF_EVENT_IOC_PERIOD, pick(8) ? buf : NULL);
		break;
	case 5:
		ret = ioctl(s->fd, PERF_EVENT_IOC_REFRESH, (int)pick(4) - 1);
		break;
	case 6:
		arg = pick(4) ? (unsigned long)all[pick(MAX_OPEN)].fd : -1UL;
		ret = ioctl(s->fd, PERF_EVENT_IOC_SET_OUTPUT, arg);
		break;
	case 7:
		ret = ioctl(s->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pick(2));
		break;
	case 8:
		strcpy((char *)buf, pick(2) ? "common_pid != 0" : "x ==");
		ret = ioctl(s->fd, PERF_EVENT_IOC_SET_FILTER, buf);
		break;
	case 9:
		random_attr(&attr);
		ret = ioctl(s->fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr);
		break;
	case 10:
		if (s->map) {
			munmap(s->map, s->len);
			s->map = NULL;
			break;
		}
		pages = pick(4) ? 1 + (1UL << pick(4)) : 1 + pick(10);
		s->len = pages * psz;
		s->map = mmap(NULL, s->len, pick(4) ? PROT_READ | PROT_WRITE :
			      PROT_READ, MAP_SHARED, s->fd,
			      pick(8) ? 0 : pick(20) * psz);
		if (s->map == MAP_FAILED) {
			s->map = NULL;
			ret = -1;
		}
		break;
	default:
		ret = ioctl(s->fd, PERF_EVENT_IOC_ID, pick(8) ? buf : NULL);
		break;
	}
	if (ret < 0)
		EXPECT_TRUE(call_errno_ok(errno))
			TH_LOG("round %llu call %d: errno %d",
			       (unsigned long long)round, what, errno);
}

/* Something for the events to count and sample. */
static void some_work(void)
{
	int i;

	fault_fresh_pages(2);
	for (i = 0; i < 4; i++) {
		__atomic_store_n(&watched[i], i, __ATOMIC_RELAXED);
		syscall(__NR_getpid);
	}
	sched_yield();
}

static time_t monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

TEST(fuzz)
{
	struct slot slots[MAX_OPEN];
	struct perf_event_attr attr;
	const char *seed = getenv("FUZZ_SEED"), *nr = getenv("FUZZ_ROUNDS");
	const char *secs = getenv("FUZZ_SECONDS");
	__u64 round, rounds = nr ? strtoull(nr, NULL, 0) : ROUNDS;
	unsigned long limit = secs ? strtoul(secs, NULL, 0) : 0;
	time_t stop = limit ? monotonic_seconds() + limit : 0;
	int opened = 0, i, fd, group;
	unsigned long flags;

	fuzz_setup(seed ? strtoull(seed, NULL, 0) : 0x5eed1234abcdULL);
	for (i = 0; i < MAX_OPEN; i++) {
		slots[i].fd = -1;
		slots[i].map = NULL;
	}

	for (round = 0; round < rounds; round++) {
		struct slot *s = &slots[pick(MAX_OPEN)];

		if (stop && !(round % 16) && monotonic_seconds() >= stop)
			break;
		if (s->fd < 0) {
			random_attr(&attr);
			group = pick(3) ? -1 : slots[pick(MAX_OPEN)].fd;
			flags = pick(4) ? 0 : pick(16) &
				~(unsigned long)PERF_FLAG_PID_CGROUP;
			fd = sys_perf_event_open(&attr, pick(4) ? 0 : -1,
						 pick(2) ? -1 : 0, group, flags);
			if (fd < 0) {
				EXPECT_TRUE(open_errno_ok(errno))
					TH_LOG("round %llu: errno %d",
					       (unsigned long long)round, errno);
				continue;
			}
			opened++;
			s->fd = fd;
			continue;
		}
		if (pick(6)) {
			random_call(_metadata, s, slots, round);
			if (!pick(4))
				some_work();
			continue;
		}
		if (s->map)
			munmap(s->map, s->len);
		s->map = NULL;
		close(s->fd);
		s->fd = -1;
	}
	for (i = 0; i < MAX_OPEN; i++) {
		if (slots[i].map)
			munmap(slots[i].map, slots[i].len);
		if (slots[i].fd >= 0)
			close(slots[i].fd);
	}
	TH_LOG("%d events opened in %llu rounds", opened,
	       (unsigned long long)round);
	EXPECT_LT(round / 30, opened);
}

/*
 * Random attrs opened and closed at once, the open's result of each
 * printed (a letter per round: '.' opened, else 'a' + errno, wrapping),
 * so that two kernels' answers can be compared line by line.
 */
#define OPEN_ROUNDS	2000
#define LINE_ROUNDS	100
/*
 * No new round after this many seconds, well within the kselftest
 * harness's 30: on a KCSAN kernel with four vCPUs on a loaded host the
 * 2000 rounds took longer, and a run killed half-way leaves the sysctls
 * changed.
 */
#define OPEN_SECONDS	20

TEST(open_only)
{
	struct perf_event_attr attr;
	int round, fd, opened = 0, rate, percent;
	char line[LINE_ROUNDS + 1];
	time_t stop = monotonic_seconds() + OPEN_SECONDS;

	/*
	 * make fuzz runs the fuzz case over and over (FUZZ_ROUNDS set);
	 * this one, which changes sysctls, would be killed half-way by the
	 * harness's timeout there and leave them changed.
	 */
	if (getenv("FUZZ_ROUNDS"))
		SKIP(return, "FUZZ_ROUNDS is set: the fuzz case alone");
	/*
	 * A fixed perf_event_max_sample_rate, which the kernel would
	 * otherwise lower as slow interrupts come (sample_freq is checked
	 * against it): the answers depend on the attrs alone.
	 */
	ASSERT_EQ(0, read_int_file(MAX_RATE, &rate));
	ASSERT_EQ(0, read_int_file(MAX_PERCENT, &percent));
	/* (With the percentage at 0, the rate can no longer be written.) */
	ASSERT_EQ(0, write_int_file(MAX_RATE, 100000));
	ASSERT_EQ(0, write_int_file(MAX_PERCENT, 0));
	fuzz_setup(0x0badc0ffee15ULL);
	for (round = 0; round < OPEN_ROUNDS; round++) {
		if (!(round % LINE_ROUNDS) && monotonic_seconds() >= stop)
			break;
		random_attr(&attr);
		fd = sys_perf_event_open(&attr, pick(4) ? 0 : -1,
					 pick(2) ? -1 : 0, -1, 0);
		if (fd >= 0) {
			opened++;
			close(fd);
			line[round % LINE_ROUNDS] = '.';
		} else {
			EXPECT_TRUE(open_errno_ok(errno))
				TH_LOG("round %d: errno %d", round, errno);
			line[round % LINE_ROUNDS] = 'a' + errno % 26;
		}
		if (round % LINE_ROUNDS == LINE_ROUNDS - 1) {
			line[LINE_ROUNDS] = '\0';
			TH_LOG("opens %04d: %s", round - LINE_ROUNDS + 1, line);
		}
	}
	if (round < OPEN_ROUNDS)
		TH_LOG("stopped after %d rounds: %d s", round, OPEN_SECONDS);
	EXPECT_LT(round / 30, opened);
	EXPECT_EQ(0, write_int_file(MAX_PERCENT, percent));
	EXPECT_EQ(0, write_int_file(MAX_RATE, rate));
}

TEST_HARNESS_MAIN
