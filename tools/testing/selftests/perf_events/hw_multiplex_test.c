// SPDX-License-Identifier: GPL-2.0
/*
 * Multiplexing the hardware counters: with more instructions:u events
 * (each a group of its own) than counters an instructions event can go
 * on (the general ones, and fixed counter 0 on Intel), the events take
 * turns.  Over a steady workload each runs part of the time
 * (time_running < time_enabled for some), and each count scaled by
 * time_enabled / time_running estimates the same total: they agree
 * within 10%.  With as many events as counters, none waits.
 *
 * Skipped where there is no hardware PMU.
 */
#define _GNU_SOURCE

#include "perf_test_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

#define MAX_EVENTS	32
/* CPU time of the workload: many rotations of the events. */
#define WORK_NS		(2000 * NSEC_PER_MSEC)

/* The same work all along: the loop, a clock read now and then. */
static void steady_work(__u64 ns)
{
	__u64 end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		hw_loop(20000);
}

FIXTURE(hw_mux) {
	int fd[MAX_EVENTS];
	int nr;
	unsigned int counters;
};

FIXTURE_SETUP(hw_mux)
{
	self->nr = 0;
	self->counters = hw_instructions_counters();
	/* The harness runs each test even when this skips: they check. */
	if (!hw_pmu_present() || !self->counters)
		return;
	/* The events follow the task; one CPU keeps things simple. */
	ASSERT_EQ(0, pin_to_cpu(0));
}

FIXTURE_TEARDOWN(hw_mux)
{
	while (self->nr)
		close(self->fd[--self->nr]);
}

#define SKIP_UNLESS_PMU()						\
	do {								\
		if (!hw_pmu_present())					\
			SKIP(return, NO_HW_PMU);			\
		if (!self->counters)					\
			SKIP(return, "the counters of an unknown CPU");	\
	} while (0)

/* Open @n instructions:u events, each alone, enable all, run the work. */
static void open_and_work(struct __test_metadata *_metadata,
			  FIXTURE_DATA(hw_mux) *self, int n)
{
	struct perf_event_attr attr;
	int i;

	ASSERT_GE(MAX_EVENTS, n);
	for (i = 0; i < n; i++) {
		hw_attr_init(&attr, PERF_TYPE_HARDWARE,
			     PERF_COUNT_HW_INSTRUCTIONS);
		attr.read_format = RF_TIMES;
		self->fd[i] = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, self->fd[i]) TH_LOG("event %d: %s", i,
						 strerror(errno));
		self->nr++;
	}
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, ioctl(self->fd[i], PERF_EVENT_IOC_ENABLE, 0));
	steady_work(WORK_NS);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, ioctl(self->fd[i], PERF_EVENT_IOC_DISABLE, 0));
}

/* As many events as counters: each runs all the time it is enabled. */
TEST_F(hw_mux, fits)
{
	struct value_times vt;
	unsigned int i;

	SKIP_UNLESS_PMU();
	open_and_work(_metadata, self, self->counters);
	for (i = 0; i < self->counters; i++) {
		ASSERT_EQ(0, read_value_times(self->fd[i], &vt));
		EXPECT_LT(0, vt.value) TH_LOG("event %u", i);
		EXPECT_EQ(vt.enabled, vt.running) TH_LOG("event %u", i);
	}
}

/*
 * Two more events than counters: they take turns, and the estimates
 * agree.  Each rotation (every perf_event_mux_interval_ms, 4 ms at HZ
 * 250) swaps one event for another: an event runs a stretch of
 * `counters' rotations in every n, and how many of those stretches
 * fall in the work is known to one, so an estimate is off by about
 * n / (rotations during the work): some 1.5% here.  Where the speed
 * of the CPU changes during the work, the estimates differ more: an
 * emulated CPU on a busy host loses whole stretches of guest time with
 * nothing executed, charged to the events on the counters then.  With
 * the host's two cores fully loaded, 8 events on the 6 counters of the
 * emulated AMD PMU spread over 12% under both kernels (2026-11-25):
 * 20% leaves room for that and still catches an event whose time or
 * count is wrong by a rotation's worth in every few.  A host loaded
 * past that now and then spreads one run further (26% seen, both
 * kernels): up to three runs are made, and the first that agrees
 * passes; wrong scaling fails them all.
 */
#define AGREE_RUNS	3

TEST_F(hw_mux, scaled_counts_agree)
{
	unsigned int i, n = self->counters + 2, waited, run;
	double scaled[MAX_EVENTS], lo = 0, hi = 0;
	struct value_times vt;

	SKIP_UNLESS_PMU();
	for (run = 1; run <= AGREE_RUNS; run++) {
		while (self->nr)
			close(self->fd[--self->nr]);
		open_and_work(_metadata, self, n);
		waited = 0;
		for (i = 0; i < n; i++) {
			ASSERT_EQ(0, read_value_times(self->fd[i], &vt));
			ASSERT_LT(0, vt.running) TH_LOG("event %u never ran", i);
			ASSERT_LT(0, vt.value) TH_LOG("event %u", i);
			EXPECT_GE(vt.enabled, vt.running) TH_LOG("event %u", i);
			waited += vt.running < vt.enabled;
			scaled[i] = (double)vt.value * vt.enabled / vt.running;
			if (!i || scaled[i] < lo)
				lo = scaled[i];
			if (!i || scaled[i] > hi)
				hi = scaled[i];
		}
		/* Some had to wait: not all can be on a counter at once. */
		EXPECT_LE(n - self->counters, waited);
		TH_LOG("run %u: %u events, %u waited, scaled from %.0f to %.0f",
		       run, n, waited, lo, hi);
		if (lo * 1.2 >= hi)
			break;
		for (i = 0; i < n; i++)
			TH_LOG("run %u, event %u: scaled %.0f", run, i, scaled[i]);
	}
	EXPECT_GE(lo * 1.2, hi) TH_LOG("no run of %d agreed", AGREE_RUNS);
}

TEST_HARNESS_MAIN
