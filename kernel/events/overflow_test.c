// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of overflow.c:
 *  - a frequency event's period: each overflow measures the rate over
 *    the period it completed and moves the period half way to what
 *    attr.sample_freq needs at that rate;
 *  - throttling: the perf_max_samples_per_tick-th overflow of a tick is
 *    delivered and stops the event, those after it are not delivered
 *    until the event is unthrottled, and every tick starts the count
 *    again.
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

/* Overflows delivered to throttle_event()'s handler. */
static int throttle_delivered;
/* perf_max_samples_per_tick before the test changed it. */
static unsigned int throttle_saved_limit;

static void throttle_count(struct perf_event *event,
			   struct perf_sample_data *data, struct pt_regs *regs)
{
	throttle_delivered++;
}

/*
 * A sampling event whose overflows go to throttle_count(), under a
 * limit of @limit overflows a tick.
 */
static struct perf_event *throttle_event(struct kunit *test,
					 unsigned int limit)
{
	struct perf_event *event;

	event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	event->attr.sample_period = 1;
	event->hw.sample_period = 1;
	event->overflow_handler = throttle_count;
	throttle_delivered = 0;
	WRITE_ONCE(perf_max_samples_per_tick, limit);
	return event;
}

/*
 * @n overflows that may throttle, with no tick in between: how many
 * told the PMU to stop.
 */
static int throttle_overflows(struct perf_event *event, int n)
{
	struct perf_sample_data data;
	struct pt_regs regs = {};
	unsigned long flags;
	int stops = 0;

	local_irq_save(flags);
	while (n--) {
		perf_sample_data_init(&data, 0, 1);
		stops += __perf_event_overflow(event, true, &data, &regs);
	}
	local_irq_restore(flags);
	return stops;
}

/*
 * With three a tick, the third overflow throttles the event and is
 * delivered all the same; the fourth and fifth are not.  Going on a CPU
 * again unthrottles it.
 */
static void throttle_delivers_the_last_allowed(struct kunit *test)
{
	struct perf_event *event = throttle_event(test, 3);

	KUNIT_EXPECT_EQ(test, throttle_overflows(event, 5), 3);
	KUNIT_EXPECT_EQ(test, throttle_delivered, 3);
	KUNIT_EXPECT_EQ(test, event->hw.interrupts, PERF_HW_THROTTLED);

	perf_overflow_sched_in(event);
	KUNIT_EXPECT_EQ(test, throttle_overflows(event, 1), 0);
	KUNIT_EXPECT_EQ(test, throttle_delivered, 4);
}

/*
 * With one a tick, every overflow throttles the event, the first too.
 * The later ones are not delivered: 6.1's software path returns before
 * its overflow while the event is throttled, and its other PMUs stop a
 * throttled event, as here.
 */
static void throttle_one_a_tick(struct kunit *test)
{
	struct perf_event *event = throttle_event(test, 1);

	KUNIT_EXPECT_EQ(test, throttle_overflows(event, 3), 3);
	KUNIT_EXPECT_EQ(test, throttle_delivered, 1);
}

/*
 * The limit is per tick, also on a tick with nothing to unthrottle and
 * no frequency to adjust: two overflows in each of two ticks are four
 * under a limit of three, and none is throttled.
 */
static void throttle_counts_per_tick(struct kunit *test)
{
	struct perf_event *event = throttle_event(test, 3);
	int stops;

	/* All on one CPU: the interval is per CPU. */
	local_irq_disable();
	stops = throttle_overflows(event, 2);
	perf_event_task_tick();
	stops += throttle_overflows(event, 2);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, stops, 0);
	KUNIT_EXPECT_EQ(test, throttle_delivered, 4);
}

static int throttle_init(struct kunit *test)
{
	throttle_saved_limit = READ_ONCE(perf_max_samples_per_tick);
	return 0;
}

static void throttle_exit(struct kunit *test)
{
	WRITE_ONCE(perf_max_samples_per_tick, throttle_saved_limit);
}

static struct kunit_case perf_throttle_cases[] = {
	KUNIT_CASE(throttle_delivers_the_last_allowed),
	KUNIT_CASE(throttle_one_a_tick),
	KUNIT_CASE(throttle_counts_per_tick),
	{}
};

static struct kunit_suite perf_throttle_suite = {
	.name = "perf_throttle",
	.init = throttle_init,
	.exit = throttle_exit,
	.test_cases = perf_throttle_cases,
};

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

kunit_test_suites(&perf_freq_suite, &perf_throttle_suite);
