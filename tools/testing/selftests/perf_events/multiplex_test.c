// SPDX-License-Identifier: GPL-2.0
/*
 * Multiplexing, on "perf_test": a PMU with two counters per CPU whose
 * event counts time while it holds a counter.  It exists only in our
 * test builds (CONFIG_PERF_EVENTS_TEST_PMU), a documented extension, so
 * these tests skip where it is absent, as on the upstream reference.
 *
 * With more flexible groups than counters, the groups take turns: each
 * runs part of the time, time_running < time_enabled, and the counters
 * are busy all the time.  Pinned groups keep their counters; a pinned
 * group that cannot have one goes to the error state and reads 0 bytes.
 * A group larger than the PMU never runs.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "../kselftest_harness.h"

#define COUNTERS	2
#define SPIN_NS		(300 * NSEC_PER_MSEC)

static int test_pmu_type(void)
{
	int type;

	return pmu_sysfs_read("perf_test", "type", &type) ? -1 : type;
}

static void test_attr_init(struct perf_event_attr *attr, int type)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->read_format = RF_TIMES;
}

static int open_test_event(int type, bool pinned, int group_fd)
{
	struct perf_event_attr attr;

	test_attr_init(&attr, type);
	attr.pinned = pinned;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

/* The harness runs a test even when its setup skipped: each checks. */
#define NO_TEST_PMU	"no perf_test PMU (a test-build extension)"

FIXTURE(mux) {
	int type;
	int fd[6];
	int nr;
};

FIXTURE_SETUP(mux)
{
	self->nr = 0;
	self->type = test_pmu_type();
	if (self->type < 0)
		return;
	/* Both CPUs would halve the contention: stay on one. */
	ASSERT_EQ(0, pin_to_cpu(0));
}

FIXTURE_TEARDOWN(mux)
{
	while (self->nr)
		close(self->fd[--self->nr]);
}

/* Keep @fd, which must be an event, for the teardown to close. */
static void keep(struct __test_metadata *_metadata, FIXTURE_DATA(mux) *self,
		 int fd)
{
	ASSERT_LE(0, fd);
	self->fd[self->nr++] = fd;
}

/* @n groups of one, the first @nr_pinned of them pinned. */
static void open_n(struct __test_metadata *_metadata, FIXTURE_DATA(mux) *self,
		   int n, int nr_pinned)
{
	int i;

	for (i = 0; i < n; i++)
		keep(_metadata, self, open_test_event(self->type, i < nr_pinned,
						      -1));
}

/* The times of event @i, which has run, and waited if @waited. */
static struct value_times ran_times(struct __test_metadata *_metadata,
				    FIXTURE_DATA(mux) *self, int i,
				    bool waited)
{
	struct value_times vt;

	ASSERT_EQ(0, read_value_times(self->fd[i], &vt));
	EXPECT_LT(0, vt.running) TH_LOG("event %d never ran", i);
	if (waited) {
		EXPECT_GT(vt.enabled, vt.running)
			TH_LOG("event %d never waited", i);
	} else {
		EXPECT_EQ(vt.enabled, vt.running) TH_LOG("event %d waited", i);
	}
	return vt;
}

/* As many groups as counters: no multiplexing at all. */
TEST_F(mux, fits)
{
	int i;

	if (self->type < 0)
		SKIP(return, NO_TEST_PMU);
	open_n(_metadata, self, COUNTERS, 0);
	spin_cpu_ns(SPIN_NS / 3);
	for (i = 0; i < self->nr; i++)
		ran_times(_metadata, self, i, false);
}

/* Four groups on two counters take turns and keep both counters busy. */
TEST_F(mux, four_groups_take_turns)
{
	__u64 enabled = 0, running = 0;
	struct value_times vt;
	int i;

	if (self->type < 0)
		SKIP(return, NO_TEST_PMU);
	open_n(_metadata, self, 4, 0);
	spin_cpu_ns(SPIN_NS);
	for (i = 0; i < self->nr; i++) {
		vt = ran_times(_metadata, self, i, true);
		/* The event counts its own time on a counter. */
		EXPECT_GE(vt.running + vt.running / 2 + NSEC_PER_MSEC, vt.value);
		EXPECT_LE(vt.running / 2, vt.value);
		enabled += vt.enabled;
		running += vt.running;
	}
	/* Two of four run at any time: running is half of enabled. */
	EXPECT_LE(running, enabled * 6 / 10);
	EXPECT_GE(running, enabled * 4 / 10);
}

/*
 * A pinned group keeps its counter; the flexible ones share the other:
 * together they run no longer than they are enabled (give or take the
 * rotations' own time), however the rotations fall.
 */
TEST_F(mux, pinned_keeps_counter)
{
	struct value_times vt;
	__u64 running = 0, enabled = 0;
	int i;

	if (self->type < 0)
		SKIP(return, NO_TEST_PMU);
	open_n(_metadata, self, 4, 1);
	spin_cpu_ns(SPIN_NS);
	ran_times(_metadata, self, 0, false);
	for (i = 1; i < self->nr; i++) {
		vt = ran_times(_metadata, self, i, true);
		running += vt.running;
		enabled = vt.enabled > enabled ? vt.enabled : enabled;
	}
	EXPECT_GE(enabled * 11 / 10, running);
}

/* More pinned groups than counters: the one left over is in error. */
TEST_F(mux, pinned_overflow_reads_zero)
{
	struct value_times vt;

	if (self->type < 0)
		SKIP(return, NO_TEST_PMU);
	open_n(_metadata, self, COUNTERS + 1, COUNTERS + 1);
	spin_cpu_ns(SPIN_NS / 10);
	EXPECT_EQ(sizeof(vt), read(self->fd[0], &vt, sizeof(vt)));
	EXPECT_EQ(0, read(self->fd[COUNTERS], &vt, sizeof(vt)));
}

/* A group needing more counters than there are never runs. */
TEST_F(mux, group_too_big_never_runs)
{
	struct value_times vt, before;
	int i;

	if (self->type < 0)
		SKIP(return, NO_TEST_PMU);
	/* The leader is enabled once the whole group is there. */
	keep(_metadata, self, open_test_event(self->type, false, -1));
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_DISABLE, 0));
	for (i = 1; i <= COUNTERS; i++)
		keep(_metadata, self,
		     open_test_event(self->type, false, self->fd[0]));
	ASSERT_EQ(0, read_value_times(self->fd[0], &before));
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	spin_cpu_ns(SPIN_NS / 10);
	/* Since the group is whole, nothing ran and nothing was counted. */
	ASSERT_EQ(0, read_value_times(self->fd[0], &vt));
	EXPECT_EQ(before.running, vt.running);
	EXPECT_EQ(before.value, vt.value);
	EXPECT_LT(before.enabled, vt.enabled);
	for (i = 1; i < self->nr; i++) {
		ASSERT_EQ(0, read_value_times(self->fd[i], &vt));
		EXPECT_EQ(0, vt.running);
		EXPECT_EQ(0, vt.value);
	}
}

/* An exclusive group runs alone: the others wait while it is on. */
TEST_F(mux, exclusive_runs_alone)
{
	struct perf_event_attr attr;
	struct value_times vt;

	if (self->type < 0)
		SKIP(return, NO_TEST_PMU);
	test_attr_init(&attr, self->type);
	attr.pinned = 1;
	attr.exclusive = 1;
	keep(_metadata, self, sys_perf_event_open(&attr, 0, -1, -1, 0));
	keep(_metadata, self, open_test_event(self->type, false, -1));

	spin_cpu_ns(SPIN_NS / 3);
	ran_times(_metadata, self, 0, false);
	/* A counter is free, but the exclusive group keeps it unused. */
	ASSERT_EQ(0, read_value_times(self->fd[1], &vt));
	EXPECT_EQ(0, vt.running);
	EXPECT_LT(0, vt.enabled);

	/* Gone, it lets the other group on. */
	close(self->fd[0]);
	self->fd[0] = self->fd[1];
	self->nr--;
	spin_cpu_ns(SPIN_NS / 10);
	ASSERT_EQ(0, read_value_times(self->fd[0], &vt));
	EXPECT_LT(0, vt.running);
}

/*
 * A task's pinned group gets a counter before the CPU's flexible groups,
 * which were there first: they make room and share what is left.
 */
TEST_F(mux, task_pinned_before_cpu_flexible)
{
	struct perf_event_attr attr;
	int i;

	if (self->type < 0)
		SKIP(return, NO_TEST_PMU);
	test_attr_init(&attr, self->type);
	for (i = 0; i < COUNTERS; i++)
		keep(_metadata, self, sys_perf_event_open(&attr, -1, 0, -1, 0));
	keep(_metadata, self, open_test_event(self->type, true, -1));

	spin_cpu_ns(SPIN_NS);
	ran_times(_metadata, self, COUNTERS, false);
	for (i = 0; i < COUNTERS; i++)
		ran_times(_metadata, self, i, true);
}

TEST_HARNESS_MAIN
