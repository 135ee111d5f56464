// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of multiplexing (rotate.c) on the perf_test PMU, which has
 * two counters per CPU: the order in which flexible groups take turns is
 * creation order, round robin, and pinned groups never give up their
 * counter.  The rotation step is called directly, on the test's CPU,
 * instead of waiting for the timer.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <linux/sched.h>

#include "internal.h"

#define NR_EVENTS	4

static struct perf_event *rotate_test_open(struct kunit *test, int cpu,
					   bool pinned)
{
	struct perf_event_attr attr = {
		.size	= sizeof(attr),
		.type	= perf_test_pmu_get()->type,
		.pinned	= pinned,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	KUNIT_EXPECT_FALSE(test, IS_ERR(event));
	return IS_ERR(event) ? NULL : event;
}

/* Which of the events are on a counter now, as a bit mask. */
static unsigned int rotate_test_active(struct perf_event **events)
{
	unsigned int mask = 0;
	int i;

	for (i = 0; i < NR_EVENTS; i++) {
		if (events[i] &&
		    READ_ONCE(events[i]->state) == PERF_EVENT_STATE_ACTIVE)
			mask |= BIT(i);
	}
	return mask;
}

static void rotate_test_step(void)
{
	local_irq_disable();
	perf_rotate_pmu(perf_test_pmu_get());
	local_irq_enable();
}

/*
 * The rotation timer must not rotate behind the test's back: stretch
 * its interval while a test runs, before any group waits.
 */
static int rotate_test_init(struct kunit *test)
{
	struct pmu *pmu = perf_test_pmu_get();

	test->priv = (void *)(long)pmu->hrtimer_interval_ms;
	perf_mux_set_interval(pmu, 100000);
	return 0;
}

static void rotate_test_exit(struct kunit *test)
{
	perf_mux_set_interval(perf_test_pmu_get(), (long)test->priv);
}

static void rotate_test_release(struct perf_event **events)
{
	int i;

	for (i = 0; i < NR_EVENTS; i++) {
		if (events[i])
			perf_event_release_kernel(events[i]);
	}
}

/*
 * Open NR_EVENTS groups on this CPU, the first @nr_pinned of them pinned,
 * and check which are on a counter at the start and after each rotation.
 */
static void rotate_expect(struct kunit *test, int nr_pinned,
			  const unsigned int *expect, int steps)
{
	struct perf_event *events[NR_EVENTS];
	int cpu, i;

	migrate_disable();
	cpu = smp_processor_id();
	for (i = 0; i < NR_EVENTS; i++)
		events[i] = rotate_test_open(test, cpu, i < nr_pinned);

	KUNIT_EXPECT_EQ(test, rotate_test_active(events), expect[0]);
	for (i = 1; i < steps; i++) {
		rotate_test_step();
		KUNIT_EXPECT_EQ_MSG(test, rotate_test_active(events),
				    expect[i], "after %d rotations", i);
	}

	rotate_test_release(events);
	migrate_enable();
}

/* Four flexible groups, two counters: 0+1, then 1+2, 2+3, 3+0, 0+1. */
static void rotate_round_robin(struct kunit *test)
{
	static const unsigned int expect[] = { 0x3, 0x6, 0xc, 0x9, 0x3 };

	rotate_expect(test, 0, expect, ARRAY_SIZE(expect));
}

/* A pinned group stays; the three flexible ones share one counter. */
static void rotate_pinned_stays(struct kunit *test)
{
	static const unsigned int expect[] = { 0x3, 0x5, 0x9, 0x3 };

	rotate_expect(test, 1, expect, ARRAY_SIZE(expect));
}

/* Nothing waits: a rotation changes nothing and asks for no more. */
static void rotate_nothing_waits(struct kunit *test)
{
	struct perf_event *events[NR_EVENTS] = { };
	int cpu;

	migrate_disable();
	cpu = smp_processor_id();
	events[0] = rotate_test_open(test, cpu, false);
	events[1] = rotate_test_open(test, cpu, false);

	local_irq_disable();
	KUNIT_EXPECT_FALSE(test, perf_rotate_pmu(perf_test_pmu_get()));
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, rotate_test_active(events), 0x3u);

	rotate_test_release(events);
	migrate_enable();
}

static struct kunit_case perf_rotate_cases[] = {
	KUNIT_CASE(rotate_round_robin),
	KUNIT_CASE(rotate_pinned_stays),
	KUNIT_CASE(rotate_nothing_waits),
	{}
};

static struct kunit_suite perf_rotate_suite = {
	.name = "perf_rotate",
	.init = rotate_test_init,
	.exit = rotate_test_exit,
	.test_cases = perf_rotate_cases,
};

kunit_test_suites(&perf_rotate_suite);
