// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of a frequency event's period (overflow.c): each overflow
 * measures the rate over the period it completed and moves the period
 * half way to what attr.sample_freq needs at that rate.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "internal.h"

#define FREQ		4000
/* Well inside the two ticks an estimate may span. */
#define ELAPSED_NS	(2 * NSEC_PER_MSEC)

static struct perf_event *freq_event(struct kunit *test, u64 period)
{
	struct perf_event *event;

	event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	event->attr.freq = 1;
	event->attr.sample_freq = FREQ;
	event->hw.sample_period = period;
	event->hw.last_period = period;
	return event;
}

/*
 * 500000 events in 2 ms is 250 million a second: 62500 a sample at
 * 4000 Hz, half way from 100000 is 81250.  The driver already started
 * the next period, 300000 long: the estimate must not take that one for
 * the events that were counted (it would say 75000 and move to 87500).
 * The time between the stamp and the call only lowers the estimate.
 */
static void adjust_from_completed_period(struct kunit *test)
{
	struct perf_event *event = freq_event(test, 100000);

	event->hw.last_period = 300000;
	event->hw.freq_time_stamp = perf_clock() - ELAPSED_NS;
	perf_overflow_adjust_freq(event, 500000);
	KUNIT_EXPECT_LE(test, event->hw.sample_period, 81250);
	KUNIT_EXPECT_GT(test, event->hw.sample_period, 70000);
}

/* A rate above the period's moves it up, half way. */
static void adjust_up(struct kunit *test)
{
	struct perf_event *event = freq_event(test, 10000);

	event->hw.freq_time_stamp = perf_clock() - ELAPSED_NS;
	perf_overflow_adjust_freq(event, 500000);
	KUNIT_EXPECT_LE(test, event->hw.sample_period, (10000 + 62500) / 2);
	KUNIT_EXPECT_GT(test, event->hw.sample_period, 30000);
	KUNIT_EXPECT_LE(test, perf_clock() - event->hw.freq_time_stamp,
			(u64)ELAPSED_NS);
}

/* No overflow in the last two ticks: nothing to estimate from. */
static void adjust_needs_recent_overflow(struct kunit *test)
{
	struct perf_event *event = freq_event(test, 124999);

	event->hw.freq_time_stamp = 0;
	perf_overflow_adjust_freq(event, 124999);
	KUNIT_EXPECT_EQ(test, event->hw.sample_period, 124999);
	/* The next overflow measures from this one. */
	KUNIT_EXPECT_NE(test, event->hw.freq_time_stamp, 0);
	perf_overflow_adjust_freq(event, 124999);
	KUNIT_EXPECT_NE(test, event->hw.sample_period, 124999);
}

/* However fast the rate falls, the period stays at least 1. */
static void adjust_floor(struct kunit *test)
{
	struct perf_event *event = freq_event(test, 1);

	event->hw.freq_time_stamp = perf_clock() - ELAPSED_NS;
	perf_overflow_adjust_freq(event, 1);
	KUNIT_EXPECT_EQ(test, event->hw.sample_period, 1);
}

static struct kunit_case perf_freq_cases[] = {
	KUNIT_CASE(adjust_from_completed_period),
	KUNIT_CASE(adjust_up),
	KUNIT_CASE(adjust_needs_recent_overflow),
	KUNIT_CASE(adjust_floor),
	{}
};

static struct kunit_suite perf_freq_suite = {
	.name = "perf_freq_period",
	.test_cases = perf_freq_cases,
};

kunit_test_suite(perf_freq_suite);
