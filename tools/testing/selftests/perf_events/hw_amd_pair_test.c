// SPDX-License-Identifier: GPL-2.0
/*
 * AMD's large-increment events from family 17h (Zen): event 0x003 (the
 * floating-point operations retired, which may count more than 15 in a
 * cycle) counts on an even counter with the odd one above it merged in,
 * the odd counter set to the Merge event 0xFFF (the PPR of family 17h,
 * "Large Increment per Cycle Events").  As Linux 6.1 runs them:
 *
 *  - the event's counter is even, and while it counts the odd counter
 *    above it holds the Merge event, enabled (read through
 *    /dev/cpu/0/msr while the event counts on CPU 0), and, with
 *    PerfMonV2, is enabled in the global control too;
 *  - so only half as many of them as there are counters fit in a
 *    group: one more is refused at open (EINVAL);
 *  - with the other events of a group they share the counters: two
 *    pairs and two single events fill six counters, one more single
 *    event does not fit.
 *
 * Skipped where there is no hardware PMU, on other CPUs, and without
 * the core counter extension's six counters.
 */
#define _GNU_SOURCE
#include <fcntl.h>

#include "perf_test_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

#define MSR_F15H_PERF_CTL	0xc0010200	/* CTL n at + 2n */
#define MSR_GLOBAL_CTL		0xc0000301	/* PerfMonV2 */
#define EVTSEL_EN		(1ULL << 22)
#define EVTSEL_EVENT		0xf000000ffULL
#define MERGE_EVENT		(0xf000000ffULL | EVTSEL_EN)

#define PAIR_EVENT		0x0003
/* Retired instructions: any counter. */
#define SINGLE_EVENT		0x00c0

static int msr_fd = -1;

static int rdmsr(__u32 msr, __u64 *val)
{
	return pread(msr_fd, val, sizeof(*val), msr) == sizeof(*val) ? 0 : -1;
}

/* What is missing for these tests, or NULL. */
static const char *missing(void)
{
	unsigned int eax, ebx, ecx, edx, family;

	if (!hw_pmu_present())
		return NO_HW_PMU;
	if (hw_vendor() != HW_VENDOR_AMD)
		return "not an AMD CPU";
	__cpuid(1, eax, ebx, ecx, edx);
	family = (eax >> 8) & 0xf;
	if (family == 0xf)
		family += (eax >> 20) & 0xff;
	if (family < 0x17)
		return "an AMD family before 17h: no large-increment events";
	if (hw_gp_counters() < 6)
		return "fewer than six core counters";
	return NULL;
}

#define NEED_PAIRS() do {						\
	const char *why = missing();					\
									\
	if (why)							\
		SKIP(return, "%s", why);				\
} while (0)

/* Open raw @config on the calling thread, in @group_fd's group or alone. */
static int open_raw(__u64 config, int group_fd)
{
	return hw_open_group(PERF_TYPE_RAW, config, 0, group_fd);
}

TEST(merge_on_odd_counter)
{
	struct perf_event_attr attr;
	unsigned int i, n;
	int fd, where = -1;
	__u64 v, merge = 0, global = 0;
	bool v2;

	NEED_PAIRS();
	msr_fd = open("/dev/cpu/0/msr", O_RDONLY);
	if (msr_fd < 0)
		SKIP(return, "no /dev/cpu/0/msr (CONFIG_X86_MSR)");
	v2 = !rdmsr(MSR_GLOBAL_CTL, &v);
	n = hw_gp_counters();

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_RAW;
	attr.config = PAIR_EVENT;
	attr.pinned = 1;
	fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("raw %#x on CPU 0: %s", PAIR_EVENT,
				strerror(errno));
	for (i = 0; i < n && where < 0; i++) {
		if (!rdmsr(MSR_F15H_PERF_CTL + 2 * i, &v) &&
		    (v & EVTSEL_EN) && (v & EVTSEL_EVENT) == PAIR_EVENT)
			where = i;
	}
	if (where >= 0 && where + 1 < (int)n)
		rdmsr(MSR_F15H_PERF_CTL + 2 * (where + 1), &merge);
	if (v2)
		rdmsr(MSR_GLOBAL_CTL, &global);
	close(fd);
	close(msr_fd);
	msr_fd = -1;

	ASSERT_LE(0, where) TH_LOG("the event is on no counter");
	EXPECT_EQ(0, where % 2) TH_LOG("on counter %d", where);
	EXPECT_EQ(MERGE_EVENT, merge) {
		TH_LOG("counter %d's select is %#llx", where + 1, merge);
	}
	if (v2 && where >= 0) {
		EXPECT_EQ(3ULL << where, global & (3ULL << where)) {
			TH_LOG("global control %#llx", global);
		}
	}
}

/*
 * Open a group of @n_pair large-increment events and @n_single others:
 * the number of members that opened (the leader first), all closed;
 * the errno of the one refused in *@err, or 0.
 */
static int group_opens(int n_pair, int n_single, int *err)
{
	int fd[16], i, n = 0;

	*err = 0;
	for (i = 0; i < n_pair + n_single && i < 16; i++) {
		fd[n] = open_raw(i < n_pair ? PAIR_EVENT : SINGLE_EVENT,
				 n ? fd[0] : -1);
		if (fd[n] < 0) {
			*err = errno;
			break;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		close(fd[i]);
	return n;
}

TEST(half_as_many_fit)
{
	int half, err;

	NEED_PAIRS();
	half = hw_gp_counters() / 2;
	EXPECT_EQ(half, group_opens(half, 0, &err));
	EXPECT_EQ(0, err);
	EXPECT_EQ(half, group_opens(half + 1, 0, &err));
	EXPECT_EQ(EINVAL, err);
}

TEST(pairs_share_with_singles)
{
	int err;

	NEED_PAIRS();
	if (hw_gp_counters() != 6)
		SKIP(return, "a count for six counters");
	EXPECT_EQ(4, group_opens(2, 2, &err));
	EXPECT_EQ(0, err);
	EXPECT_EQ(4, group_opens(2, 3, &err));
	EXPECT_EQ(EINVAL, err);
	EXPECT_EQ(6, group_opens(0, 6, &err));
	EXPECT_EQ(0, err);
}

TEST_HARNESS_MAIN
