// SPDX-License-Identifier: GPL-2.0
/*
 * Self-monitoring with rdpmc: the first page of a hardware event's
 * mapping (struct perf_event_mmap_page) tells a task which counter its
 * active event is on (index, 0 for none), how wide it is (pmc_width) and
 * the count to add to the counter's value (offset), under a sequence
 * lock; with cap_user_rdpmc (sysfs cpu/rdpmc 1, the default) the task
 * may read the counter itself.  perf_event_open(2), "Reading results",
 * describes the protocol; an index with bit 30 set is a fixed counter.
 *
 *  - instructions:u, alone and as a group leader with branches:u: the
 *    page says cap_user_rdpmc, index != 0 and pmc_width 48 (Intel and
 *    AMD counters alike);
 *  - the count read with rdpmc grows and trails read() right after by
 *    no more than the few instructions in between;
 *  - a disabled event has index 0;
 *  - groups opened, enabled and read afresh again and again, as PAPI
 *    measures, read right with rdpmc and the page's times (a member's
 *    running time once lagged its enabled time, and the reader's scaling
 *    made of 20000 branches a million).
 *
 * Skipped where there is no hardware PMU.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <x86intrin.h>

#include "perf_test_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

#define PMC_WIDTH	48
/* Most user instructions between an rdpmc read and read()'s. */
#define READ_SLACK	2000

static __u64 rdpmc(unsigned int counter)
{
	unsigned int lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return lo | (__u64)hi << 32;
}

/* The compiler reads the page anew after this: the kernel changes it. */
static inline void barrier(void)
{
	asm volatile("" : : : "memory");
}

/*
 * The event's count, read from its user page @pc as the man page says;
 * 0 and the count in @count, or -1 if the event has no counter now.
 */
static int user_read(struct perf_event_mmap_page *pc, __u64 *count)
{
	__u32 seq, idx, width;
	__u64 pmc, offset;
	bool rdpmc_ok;

	do {
		seq = pc->lock;
		barrier();
		idx = pc->index;
		offset = pc->offset;
		width = pc->pmc_width;
		rdpmc_ok = pc->cap_user_rdpmc && idx;
		if (rdpmc_ok) {
			pmc = rdpmc(idx - 1);
			/* Sign-extend the counter's width. */
			pmc <<= 64 - width;
			offset += (__s64)pmc >> (64 - width);
		}
		barrier();
	} while (pc->lock != seq);
	*count = offset;
	return rdpmc_ok ? 0 : -1;
}

FIXTURE(rdpmc) {
	int fd[2];
	struct perf_event_mmap_page *pc[2];
	size_t len;
};

/* instructions:u, leading branches:u, each with its user page mapped. */
FIXTURE_SETUP(rdpmc)
{
	static const __u64 config[] = {
		PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	};
	void *p;
	int i;

	self->fd[0] = -1;
	self->fd[1] = -1;
	self->pc[0] = NULL;
	self->pc[1] = NULL;
	self->len = getpagesize();
	/* The harness runs each test even when this skips: they check. */
	if (!hw_pmu_present())
		return;
	for (i = 0; i < 2; i++) {
		self->fd[i] = hw_open_group(PERF_TYPE_HARDWARE, config[i], 0,
					    i ? self->fd[0] : -1);
		ASSERT_LE(0, self->fd[i]) TH_LOG("%d: %s", i, strerror(errno));
		p = mmap(NULL, self->len, PROT_READ, MAP_SHARED, self->fd[i], 0);
		ASSERT_NE(MAP_FAILED, p) TH_LOG("%d: %s", i, strerror(errno));
		self->pc[i] = p;
	}
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
}

FIXTURE_TEARDOWN(rdpmc)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (self->pc[i])
			munmap(self->pc[i], self->len);
		if (self->fd[i] >= 0)
			close(self->fd[i]);
	}
}

/* What the user page of an active event says. */
TEST_F(rdpmc, user_page)
{
	struct perf_event_mmap_page *pc;
	char buf[16];
	int i;

	HW_SKIP_WITHOUT_PMU();
	ASSERT_EQ(0, hw_pmu_file("rdpmc", buf, sizeof(buf)));
	ASSERT_STREQ("1", buf);
	hw_loop(1000);
	for (i = 0; i < 2; i++) {
		pc = self->pc[i];
		EXPECT_TRUE(!!pc->cap_user_rdpmc) TH_LOG("event %d", i);
		EXPECT_NE(0, pc->index) TH_LOG("event %d", i);
		EXPECT_EQ(PMC_WIDTH, pc->pmc_width) TH_LOG("event %d", i);
		EXPECT_TRUE(!!pc->cap_bit0_is_deprecated) TH_LOG("event %d", i);
	}
	/* Two events at once: two counters. */
	EXPECT_NE(self->pc[0]->index, self->pc[1]->index);
}

/*
 * rdpmc reads grow, by at least the loop's instructions and branches in
 * between, and read() right after a rdpmc read is at most a few
 * instructions ahead of it.
 */
TEST_F(rdpmc, agrees_with_read)
{
	static const __u64 per_iter[] = { HW_LOOP_INSNS, HW_LOOP_BRANCHES };
	__u64 a, b, r;
	int i;

	HW_SKIP_WITHOUT_PMU();
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, user_read(self->pc[i], &a)) TH_LOG("event %d", i);
		hw_loop(10000);
		ASSERT_EQ(0, user_read(self->pc[i], &b)) TH_LOG("event %d", i);
		ASSERT_EQ(0, read_value(self->fd[i], &r));
		EXPECT_LE(a + 10000 * per_iter[i], b) TH_LOG("event %d", i);
		EXPECT_LE(b, r) TH_LOG("event %d", i);
		EXPECT_GT(b + READ_SLACK, r) {
			TH_LOG("event %d: rdpmc %llu, read() %llu", i, b, r);
		}
	}
}

/* Many reads in a row never go back, across interrupts and switches. */
TEST_F(rdpmc, monotonic)
{
	__u64 prev = 0, now;
	int i;

	HW_SKIP_WITHOUT_PMU();
	for (i = 0; i < 20000; i++) {
		ASSERT_EQ(0, user_read(self->pc[0], &now));
		ASSERT_LE(prev, now) TH_LOG("read %d", i);
		prev = now;
		if (i % 1000 == 0)
			sched_yield();
	}
}

/* A disabled event is on no counter: index 0. */
TEST_F(rdpmc, disabled_has_no_index)
{
	__u64 count;

	HW_SKIP_WITHOUT_PMU();
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, self->pc[0]->index);
	EXPECT_EQ(-1, user_read(self->pc[0], &count));
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_NE(0, self->pc[0]->index);
}

/*
 * The whole protocol of the man page, times too: the count, and the
 * enabled and running times brought up to the moment of the read with
 * the TSC (cap_user_time), as PAPI reads its counters.  -1 if the event
 * has no counter now.
 */
static int user_read_times(struct perf_event_mmap_page *pc, __u64 *count,
			   __u64 *enabled, __u64 *running)
{
	__u64 cyc = 0, offset, en, ru, delta = 0, quot, rem, pmc;
	__u32 seq, idx, width, mult = 0, shift = 0;
	__u64 time_offset = 0;

	do {
		seq = pc->lock;
		barrier();
		en = pc->time_enabled;
		ru = pc->time_running;
		if (pc->cap_user_time && en != ru) {
			cyc = __rdtsc();
			mult = pc->time_mult;
			shift = pc->time_shift;
			time_offset = pc->time_offset;
		}
		idx = pc->index;
		offset = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			width = pc->pmc_width;
			pmc = rdpmc(idx - 1) << (64 - width);
			offset += (__s64)pmc >> (64 - width);
		}
		barrier();
	} while (pc->lock != seq);
	if (en != ru && mult) {
		quot = cyc >> shift;
		rem = cyc & ((1ULL << shift) - 1);
		delta = time_offset + quot * mult + ((rem * mult) >> shift);
	}
	*enabled = en + delta;
	*running = ru + (idx ? delta : 0);
	*count = offset;
	return idx ? 0 : -1;
}

/*
 * A group opened, reset and enabled afresh, again and again, as PAPI
 * does for each measurement (the leader disabled, the member enabled
 * with it): the member's rdpmc read, scaled by its times as a reader
 * must when they differ, is its count, within what ran after it.
 */
TEST(fresh_groups_read_right)
{
	__u64 count, en, ru, scaled, r;
	struct perf_event_mmap_page *pc;
	long page = getpagesize();
	int fd[2], i, round;

	HW_SKIP_WITHOUT_PMU();
	for (round = 0; round < 200; round++) {
		fd[0] = hw_open_group(PERF_TYPE_HARDWARE,
				      PERF_COUNT_HW_INSTRUCTIONS, 0, -1);
		ASSERT_LE(0, fd[0]);
		fd[1] = hw_open_group(PERF_TYPE_HARDWARE,
				      PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, fd[0]);
		ASSERT_LE(0, fd[1]);
		pc = mmap(NULL, page, PROT_READ, MAP_SHARED, fd[1], 0);
		ASSERT_NE(MAP_FAILED, pc);
		for (i = 0; i < 2; i++)
			ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_RESET, 0));
		ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
		hw_loop(20000);
		if (user_read_times(pc, &count, &en, &ru)) {
			/* Not on a counter just now: nothing to check. */
			count = 0;
			en = 1;
			ru = 1;
		}
		ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, read_value(fd[1], &r));
		scaled = ru ? count * (double)en / ru : count;
		EXPECT_GE(r, scaled) {
			TH_LOG("round %d: rdpmc %llu enabled %llu running %llu, read() %llu",
			       round, count, en, ru, r);
			TH_LOG("page: enabled %llu running %llu offset %lld index %u",
			       pc->time_enabled, pc->time_running,
			       (long long)pc->offset, pc->index);
		}
		munmap(pc, page);
		close(fd[1]);
		close(fd[0]);
		if (scaled > r)
			break;
	}
}

TEST_HARNESS_MAIN
