// SPDX-License-Identifier: GPL-2.0
/*
 * Counting with the x86 hardware PMU ("cpu"): PERF_TYPE_HARDWARE and
 * PERF_TYPE_RAW events of the calling thread in user mode, measured by
 * the difference method of hw_test_util.h on a loop of four
 * instructions and one branch per iteration.
 *
 *  - instructions:u and branches:u count the loop exactly, and so does
 *    the raw event 0xc0 (retired instructions on Intel, architectural
 *    event, and on AMD alike);
 *  - cycles:u grow with the loop, at least one cycle an iteration (its
 *    decrement is a dependency chain), without an exact value: cycles
 *    are the microarchitecture's;
 *  - a kernel-only count (exclude_user) does not see the loop;
 *  - a group {instructions, branches, cycles} is read whole with
 *    PERF_FORMAT_GROUP, a group of as many general-counter events as
 *    the CPU has counters counts, one more is refused at open (EINVAL,
 *    as 6.1 does), but members already in, if disabled, are left out of
 *    that check;
 *  - two instructions:u counters enabled together agree exactly (on
 *    Intel one is on the fixed counter, the other on a general one);
 *  - a PERF_TYPE_HW_CACHE config out of range is EINVAL, a valid one
 *    opens, or is ENOENT where the CPU model has no such event.
 *
 * Skipped where there is no hardware PMU.
 */
#define _GNU_SOURCE
#include <sys/prctl.h>

#include "perf_test_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

/* The two iteration counts measured, and their difference. */
#define N1		10000UL
#define N2		110000UL
#define DN		(N2 - N1)

/* Retired instructions, on Intel (architectural) and AMD alike. */
#define RAW_INSTRUCTIONS	0xc0

/*
 * The counts of @fd for N1 and N2 iterations, after a first run that
 * faults in whatever the measurement touches.
 */
static void count_n1_n2(struct __test_metadata *_metadata, int fd,
			__u64 *c1, __u64 *c2)
{
	ASSERT_EQ(0, hw_count_loop(fd, N1, c1));
	ASSERT_EQ(0, hw_count_loop(fd, N1, c1));
	ASSERT_EQ(0, hw_count_loop(fd, N2, c2));
}

/* @fd counts exactly @per_iter events an iteration of the loop. */
static void expect_exact(struct __test_metadata *_metadata, int fd,
			 __u64 per_iter, const char *what)
{
	__u64 c1, c2, again;

	count_n1_n2(_metadata, fd, &c1, &c2);
	EXPECT_LE(N1 * per_iter, c1) TH_LOG("%s", what);
	EXPECT_EQ(DN * per_iter, c2 - c1) {
		TH_LOG("%s: %llu for %lu iterations, %llu for %lu",
		       what, c1, N1, c2, N2);
	}
	/* The same code counts the same again. */
	ASSERT_EQ(0, hw_count_loop(fd, N1, &again));
	EXPECT_EQ(c1, again) TH_LOG("%s", what);
}

/* Generic event @config counts @per_iter an iteration, exactly. */
static void expect_exact_event(struct __test_metadata *_metadata,
			       __u64 config, __u64 per_iter, const char *what)
{
	int fd = hw_open(config);

	ASSERT_LE(0, fd) TH_LOG("%s: %s", what, strerror(errno));
	expect_exact(_metadata, fd, per_iter, what);
	close(fd);
}

TEST(instructions_exact)
{
	HW_SKIP_WITHOUT_PMU();
	expect_exact_event(_metadata, PERF_COUNT_HW_INSTRUCTIONS,
			   HW_LOOP_INSNS, "instructions:u");
}

TEST(branches_exact)
{
	HW_SKIP_WITHOUT_PMU();
	expect_exact_event(_metadata, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
			   HW_LOOP_BRANCHES, "branches:u");
}

TEST(raw_instructions_exact)
{
	int fd;

	HW_SKIP_WITHOUT_PMU();
	if (hw_vendor() == HW_VENDOR_OTHER)
		SKIP(return, "raw event codes of an unknown CPU vendor");
	fd = hw_open_group(PERF_TYPE_RAW, RAW_INSTRUCTIONS, 0, -1);
	ASSERT_LE(0, fd) TH_LOG("raw 0x%x: %s", RAW_INSTRUCTIONS,
				strerror(errno));
	expect_exact(_metadata, fd, HW_LOOP_INSNS, "raw instructions");
	close(fd);
}

/*
 * At least one cycle an iteration, the decrement depending on the one
 * before; at most a generous 50, so that a counter of something else
 * (the kernel's cycles, or the time stamp counter) stands out.
 */
TEST(cycles_grow)
{
	__u64 c1, c2;
	int fd;

	HW_SKIP_WITHOUT_PMU();
	fd = hw_open(PERF_COUNT_HW_CPU_CYCLES);
	ASSERT_LE(0, fd) TH_LOG("cycles:u: %s", strerror(errno));
	count_n1_n2(_metadata, fd, &c1, &c2);
	EXPECT_LT(0, c1);
	EXPECT_LE(c1 + DN, c2) TH_LOG("%llu then %llu", c1, c2);
	EXPECT_GT(c1 + 50 * DN, c2) TH_LOG("%llu then %llu", c1, c2);
	close(fd);
}

/*
 * The fewest events @fd counts over KERNEL_TRIES runs of @n iterations:
 * a run that no interrupt came into, most likely.
 */
#define KERNEL_TRIES	5

static __u64 fewest(struct __test_metadata *_metadata, int fd,
		    unsigned long n)
{
	__u64 min = ~0ULL, value;
	int i;

	for (i = 0; i < KERNEL_TRIES; i++) {
		EXPECT_EQ(0, hw_count_loop(fd, n, &value));
		if (value < min)
			min = value;
	}
	return min;
}

/*
 * Kernel-only instructions: the loop adds none of its own.  Interrupts
 * that come while it runs do (a timer tick of a debug kernel can be
 * more than the loop's own instructions): the fewest of a few runs are
 * compared, and must differ by far less than the loop's instructions.
 */
TEST(kernel_only_misses_loop)
{
	struct perf_event_attr attr;
	__u64 k1, k2;
	int fd;

	HW_SKIP_WITHOUT_PMU();
	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 0;
	attr.exclude_user = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("instructions:k: %s", strerror(errno));
	k1 = fewest(_metadata, fd, N1);
	k2 = fewest(_metadata, fd, N2);
	/* The ioctl() that disables the counter runs in the kernel. */
	EXPECT_LT(0, k1);
	EXPECT_GT(k1 + DN * HW_LOOP_INSNS / 10, k2) {
		TH_LOG("%llu for %lu iterations, %llu for %lu",
		       k1, N1, k2, N2);
	}
	close(fd);
}

#define GROUP_RF	(PERF_FORMAT_GROUP | PERF_FORMAT_ID)

/* A group's members, and what each counts an iteration (0: unknown). */
static const struct {
	__u64 config;
	__u64 per_iter;
} group_events[] = {
	{ PERF_COUNT_HW_INSTRUCTIONS, HW_LOOP_INSNS },
	{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS, HW_LOOP_BRANCHES },
	{ PERF_COUNT_HW_CPU_CYCLES, 0 },
};

#define NR_GROUP	ARRAY_SIZE(group_events)

static void group_count(struct __test_metadata *_metadata, int leader,
			unsigned long n, struct group_reading *g)
{
	ASSERT_EQ(0, hw_run_loop(leader, n, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, read_group(leader, GROUP_RF, g));
	ASSERT_EQ(NR_GROUP, g->nr);
}

TEST(group_read)
{
	struct group_reading g1, g2;
	int fd[NR_GROUP];
	__u64 id, c1, c2;
	unsigned int i;

	HW_SKIP_WITHOUT_PMU();
	for (i = 0; i < NR_GROUP; i++) {
		fd[i] = hw_open_group(PERF_TYPE_HARDWARE,
				      group_events[i].config, GROUP_RF,
				      i ? fd[0] : -1);
		ASSERT_LE(0, fd[i]) TH_LOG("member %u: %s", i,
					   strerror(errno));
	}
	group_count(_metadata, fd[0], N1, &g1);
	group_count(_metadata, fd[0], N1, &g1);
	group_count(_metadata, fd[0], N2, &g2);
	for (i = 0; i < NR_GROUP; i++) {
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_ID, &id));
		EXPECT_EQ(id, g2.member[i].id) TH_LOG("member %u", i);
		c1 = g1.member[i].value;
		c2 = g2.member[i].value;
		if (group_events[i].per_iter) {
			EXPECT_EQ(DN * group_events[i].per_iter, c2 - c1) {
				TH_LOG("member %u: %llu then %llu", i, c1, c2);
			}
		} else {
			EXPECT_LE(c1 + DN, c2) TH_LOG("member %u", i);
		}
	}
	for (i = 0; i < NR_GROUP; i++)
		close(fd[i]);
}

/*
 * Branches go on general counters only: a group of as many as there are
 * general counters counts (each member the loop's branches), one more
 * can never be scheduled and is refused when it joins.
 */
TEST(group_too_big_refused)
{
	unsigned int i, nr = hw_gp_counters();
	struct group_reading g1, g2;
	int fd[GROUP_MAX_MEMBERS + 1];
	int extra;

	HW_SKIP_WITHOUT_PMU();
	if (!nr)
		SKIP(return, "the number of counters of an unknown CPU");
	ASSERT_GE(GROUP_MAX_MEMBERS, nr);
	for (i = 0; i < nr; i++) {
		fd[i] = hw_open_group(PERF_TYPE_HARDWARE,
				      PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
				      PERF_FORMAT_GROUP, i ? fd[0] : -1);
		ASSERT_LE(0, fd[i]) TH_LOG("member %u of %u: %s", i, nr,
					   strerror(errno));
	}
	extra = hw_open_group(PERF_TYPE_HARDWARE,
			      PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
			      PERF_FORMAT_GROUP, fd[0]);
	EXPECT_EQ(-1, extra) TH_LOG("member %u of %u counters joined", nr, nr);
	EXPECT_EQ(EINVAL, errno);
	if (extra >= 0)
		close(extra);

	ASSERT_EQ(0, hw_run_loop(fd[0], N1, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, hw_run_loop(fd[0], N1, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, read_group(fd[0], PERF_FORMAT_GROUP, &g1));
	ASSERT_EQ(0, hw_run_loop(fd[0], N2, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, read_group(fd[0], PERF_FORMAT_GROUP, &g2));
	ASSERT_EQ(nr, g2.nr);
	for (i = 0; i < nr; i++) {
		EXPECT_EQ(DN * HW_LOOP_BRANCHES,
			  g2.member[i].value - g1.member[i].value) {
			TH_LOG("member %u: %llu then %llu", i,
			       g1.member[i].value, g2.member[i].value);
		}
	}
	for (i = 0; i < nr; i++)
		close(fd[i]);
}

#define GROUP_TIMES_RF	(PERF_FORMAT_GROUP | \
			 PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)

/* Enable the leader @fd alone, run the loop @n times, disable, read. */
static void run_leader(struct __test_metadata *_metadata, int fd,
		       unsigned long n, struct group_reading *g)
{
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	hw_loop(n);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_group(fd, GROUP_TIMES_RF, g));
}

/* The two disabled members of a group for @nr general counters. */
#define OFF1(nr)	((nr) - 1)
#define OFF2(nr)	(nr)

/*
 * Members that are disabled are left out when a group's fit is checked
 * at open, as 6.1 leaves them out; the leader and the member joining
 * count, disabled or not.  A group of branch events, one fewer than the
 * general counters, takes two disabled members and one more enabled,
 * and then no more, even disabled.  The leader, enabled alone, runs with
 * its enabled members, which count the loop, while the disabled ones
 * count nothing.  Once one of those is enabled too, the group can never
 * be on the counters: it stays enabled but does not run, and no member
 * counts.
 */
TEST(group_disabled_members_left_out)
{
	unsigned int i, nr = hw_gp_counters(), total = nr + 2;
	struct group_reading a, b, c, d;
	struct perf_event_attr attr;
	int fd[GROUP_MAX_MEMBERS], extra;

	HW_SKIP_WITHOUT_PMU();
	if (nr < 2)
		SKIP(return, "%u general counters", nr);
	ASSERT_GE(GROUP_MAX_MEMBERS, total);
	hw_attr_init(&attr, PERF_TYPE_HARDWARE,
		     PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	attr.read_format = GROUP_TIMES_RF;
	for (i = 0; i < total; i++) {
		attr.disabled = !i || i == OFF1(nr) || i == OFF2(nr);
		fd[i] = sys_perf_event_open(&attr, 0, -1, i ? fd[0] : -1, 0);
		ASSERT_LE(0, fd[i]) TH_LOG("member %u of %u (%u counters): %s",
					   i, total, nr, strerror(errno));
	}
	attr.disabled = 1;
	extra = sys_perf_event_open(&attr, 0, -1, fd[0], 0);
	EXPECT_EQ(-1, extra) TH_LOG("a member joined a full group");
	EXPECT_EQ(EINVAL, errno);
	if (extra >= 0)
		close(extra);

	/* Each run counts its iterations plus what is around the loop. */
	run_leader(_metadata, fd[0], N1, &a);
	run_leader(_metadata, fd[0], N1, &b);
	run_leader(_metadata, fd[0], N2, &c);
	ASSERT_EQ(total, c.nr);
	EXPECT_LT(b.running, c.running);
	for (i = 0; i < total; i++) {
		__u64 want = i == OFF1(nr) || i == OFF2(nr) ?
			     0 : DN * HW_LOOP_BRANCHES;

		EXPECT_EQ(want, (c.member[i].value - b.member[i].value) -
				(b.member[i].value - a.member[i].value)) {
			TH_LOG("member %u: %llu, %llu, %llu", i,
			       a.member[i].value, b.member[i].value,
			       c.member[i].value);
		}
	}

	/* One counter too many enabled: the group no longer runs. */
	ASSERT_EQ(0, ioctl(fd[OFF1(nr)], PERF_EVENT_IOC_ENABLE, 0));
	run_leader(_metadata, fd[0], N2, &d);
	EXPECT_LT(c.enabled, d.enabled);
	EXPECT_EQ(c.running, d.running);
	for (i = 0; i < total; i++)
		EXPECT_EQ(c.member[i].value, d.member[i].value)
			TH_LOG("member %u", i);
	for (i = 0; i < total; i++)
		close(fd[i]);
}

/*
 * Two instructions:u counters of their own, enabled and disabled
 * together by prctl() (in the kernel, where they do not count), see the
 * same user instructions.
 */
TEST(two_counters_agree)
{
	__u64 a, b;
	int fa, fb;

	HW_SKIP_WITHOUT_PMU();
	fa = hw_open(PERF_COUNT_HW_INSTRUCTIONS);
	ASSERT_LE(0, fa) TH_LOG("%s", strerror(errno));
	fb = hw_open(PERF_COUNT_HW_INSTRUCTIONS);
	ASSERT_LE(0, fb) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	hw_loop(N2);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, read_value(fa, &a));
	ASSERT_EQ(0, read_value(fb, &b));
	EXPECT_LE(N2 * HW_LOOP_INSNS, a);
	EXPECT_EQ(a, b);
	close(fa);
	close(fb);
}

/* PERF_TYPE_HW_CACHE config: cache id, op << 8, result << 16. */
static __u64 hw_cache_config(__u64 cache, __u64 op, __u64 result)
{
	return cache | op << 8 | result << 16;
}

/*
 * A cache event names a cache, an operation and a result each within
 * its range, or it is invalid (EINVAL).  A valid one opens where the
 * CPU model has such an event, and is ENOENT where it has none.
 */
TEST(cache_config)
{
	__u64 value, l1d_loads, bad;
	int fd;

	HW_SKIP_WITHOUT_PMU();
	bad = hw_cache_config(PERF_COUNT_HW_CACHE_MAX, 0, 0);
	EXPECT_EQ(EINVAL, hw_open_errno(PERF_TYPE_HW_CACHE, bad));
	bad = hw_cache_config(0, PERF_COUNT_HW_CACHE_OP_MAX, 0);
	EXPECT_EQ(EINVAL, hw_open_errno(PERF_TYPE_HW_CACHE, bad));
	bad = hw_cache_config(0, 0, PERF_COUNT_HW_CACHE_RESULT_MAX);
	EXPECT_EQ(EINVAL, hw_open_errno(PERF_TYPE_HW_CACHE, bad));

	l1d_loads = hw_cache_config(PERF_COUNT_HW_CACHE_L1D,
				    PERF_COUNT_HW_CACHE_OP_READ,
				    PERF_COUNT_HW_CACHE_RESULT_ACCESS);
	fd = hw_open_group(PERF_TYPE_HW_CACHE, l1d_loads, 0, -1);
	if (fd < 0) {
		EXPECT_EQ(ENOENT, errno) TH_LOG("L1-dcache-loads: %s",
						strerror(errno));
		return;
	}
	EXPECT_EQ(0, hw_count_loop(fd, N1, &value));
	close(fd);
}

TEST_HARNESS_MAIN
