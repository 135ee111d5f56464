// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of a frequency event's period (overflow.c): each overflow
 * measures the rate over the period it completed and moves the period
 * half way to what attr.sample_freq needs at that rate.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/tick.h>

#include "internal.h"

#define FREQ		4000
/* The last overflow's time stamp; the tests pass "now" relative to it. */
#define STAMP		(10 * NSEC_PER_SEC)
/* Well inside the two ticks an estimate may span, whatever HZ is. */
#define ELAPSED_NS	(TICK_NSEC / 2)

static struct perf_event *freq_event(struct kunit *test, u64 period)
{
	struct perf_event *event;

	event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	event->attr.freq = 1;
	event->attr.sample_freq = FREQ;
	event->hw.sample_period = period;
	event->hw.last_period = period;
	event->hw.freq_time_stamp = STAMP;
	return event;
}

/* The period that @done events in ELAPSED_NS ask for at FREQ. */
static u64 wanted(u64 done)
{
	return div64_u64(done * NSEC_PER_SEC, (u64)ELAPSED_NS * FREQ);
}

/*
 * The driver already started the next period, with another length, when
 * the overflow comes: the estimate must count the events of the period
 * that completed, not hw.last_period.
 */
static void adjust_from_completed_period(struct kunit *test)
{
	struct perf_event *event = freq_event(test, 100000);

	event->hw.last_period = 5000;
	perf_overflow_adjust_freq(event, 50000, STAMP + ELAPSED_NS);
	KUNIT_EXPECT_EQ(test, event->hw.sample_period,
			(100000 + wanted(50000)) / 2);
	KUNIT_EXPECT_EQ(test, event->hw.freq_time_stamp,
			(u64)STAMP + ELAPSED_NS);
}

/* Up or down, the period moves half way to the estimate. */
static void adjust_half_way(struct kunit *test)
{
	struct perf_event *event = freq_event(test, 10);

	perf_overflow_adjust_freq(event, 1000000, STAMP + ELAPSED_NS);
	KUNIT_EXPECT_EQ(test, event->hw.sample_period,
			(10 + wanted(1000000)) / 2);

	event = freq_event(test, 1000000);
	perf_overflow_adjust_freq(event, 10, STAMP + ELAPSED_NS);
	KUNIT_EXPECT_EQ(test, event->hw.sample_period,
			(1000000 + wanted(10)) / 2);
}

/*
 * No overflow in the last two ticks: nothing to estimate from, but the
 * next overflow measures from this one.
 */
static void adjust_needs_recent_overflow(struct kunit *test)
{
	struct perf_event *event = freq_event(test, 124999);
	u64 late = STAMP + 2 * TICK_NSEC + 1;

	perf_overflow_adjust_freq(event, 124999, late);
	KUNIT_EXPECT_EQ(test, event->hw.sample_period, 124999);
	KUNIT_EXPECT_EQ(test, event->hw.freq_time_stamp, late);
	perf_overflow_adjust_freq(event, 124999, late + ELAPSED_NS);
	KUNIT_EXPECT_EQ(test, event->hw.sample_period,
			(124999 + wanted(124999)) / 2);
}

/* However far the rate falls, the period stays at least 1. */
static void adjust_floor(struct kunit *test)
{
	struct perf_event *event = freq_event(test, 1);

	perf_overflow_adjust_freq(event, 1, STAMP + ELAPSED_NS);
	KUNIT_EXPECT_EQ(test, event->hw.sample_period, 1);
}

static struct kunit_case perf_freq_cases[] = {
	KUNIT_CASE(adjust_from_completed_period),
	KUNIT_CASE(adjust_half_way),
	KUNIT_CASE(adjust_needs_recent_overflow),
	KUNIT_CASE(adjust_floor),
	{}
};

static struct kunit_suite perf_freq_suite = {
	.name = "perf_freq_period",
	.test_cases = perf_freq_cases,
};

kunit_test_suite(perf_freq_suite);
