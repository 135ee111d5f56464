// SPDX-License-Identifier: GPL-2.0
/*
 * perf_test: a PMU with only PERF_TEST_PMU_COUNTERS counters per CPU, in
 * test builds only (CONFIG_PERF_EVENTS_TEST_PMU), so that multiplexing
 * can be seen without hardware: open more groups than it has counters
 * and they take turns.  Its one event (config 0) counts nanoseconds
 * while it holds a counter, like a clock.
 *
 * It registers under /sys/bus/event_source/devices/perf_test/ with a
 * dynamic type; the multiplexing kselftests look it up there.
 */
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/percpu.h>

#include "internal.h"

#define PERF_TEST_PMU_COUNTERS	2

/* Counters in use on each CPU; changed only on that CPU, irqs off. */
static DEFINE_PER_CPU(int, perf_test_pmu_used);

static struct pmu perf_test_pmu;

static void perf_test_pmu_update(struct perf_event *event)
{
	u64 now = local_clock();
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - prev, &event->count);
}

static void perf_test_pmu_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, local_clock());
	event->hw.state = 0;
}

static void perf_test_pmu_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	perf_test_pmu_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int perf_test_pmu_add(struct perf_event *event, int flags)
{
	int *used = this_cpu_ptr(&perf_test_pmu_used);

	if (*used >= PERF_TEST_PMU_COUNTERS)
		return -EAGAIN;
	(*used)++;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		perf_test_pmu_start(event, flags);
	return 0;
}

static void perf_test_pmu_del(struct perf_event *event, int flags)
{
	perf_test_pmu_stop(event, PERF_EF_UPDATE);
	this_cpu_dec(perf_test_pmu_used);
}

static void perf_test_pmu_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		perf_test_pmu_update(event);
}

static int perf_test_pmu_event_init(struct perf_event *event)
{
	if (event->attr.type != perf_test_pmu.type)
		return -ENOENT;
	/* Sampling events: refused by the core (PERF_PMU_CAP_NO_INTERRUPT). */
	return event->attr.config ? -ENOENT : 0;
}

static struct pmu perf_test_pmu = {
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.event_init	= perf_test_pmu_event_init,
	.add		= perf_test_pmu_add,
	.del		= perf_test_pmu_del,
	.start		= perf_test_pmu_start,
	.stop		= perf_test_pmu_stop,
	.read		= perf_test_pmu_read,
};

/**
 * perf_test_pmu_get - the test PMU, for the KUnit tests
 *
 * Return: the PMU.
 */
struct pmu *perf_test_pmu_get(void)
{
	return &perf_test_pmu;
}

static int __init perf_test_pmu_init(void)
{
	return perf_pmu_register(&perf_test_pmu, "perf_test", -1);
}
device_initcall(perf_test_pmu_init);
