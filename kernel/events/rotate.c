// SPDX-License-Identifier: GPL-2.0
/*
 * Multiplexing: when the flexible groups of a context do not all fit on a
 * PMU of a CPU, a per-CPU, per-PMU hrtimer rotates them so that each gets
 * its turn.  Pinned groups are never rotated out.
 *
 * The order is deterministic: flexible groups are kept in creation order,
 * and each rotation moves the first group of the PMU to the end of the
 * list (round robin), CPU-wide groups before the task's.  Users scale a
 * count by time_enabled / time_running.
 *
 * The interval is /sys/bus/event_source/devices/<pmu>/
 * perf_event_mux_interval_ms (default: one tick; 0 for the PMUs that are
 * never out of counters, like the software one, which never rotate).  The timer runs only
 * while something on its CPU is waiting for a counter.
 */
#include <linux/perf_event.h>
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include "internal.h"

/**
 * struct perf_mux_cpu - a PMU's scheduling state on one CPU
 * @timer: fires every interval while groups wait for a counter
 * @pmu: the PMU
 * @active: the timer is running
 * @nr_groups: groups of the PMU on this CPU now
 * @exclusive: one of them is exclusive (attr.exclusive): it is alone
 *
 * Only this CPU changes it, with interrupts off.
 */
struct perf_mux_cpu {
	struct hrtimer		timer;
	struct pmu		*pmu;
	bool			active;
	bool			exclusive;
	int			nr_groups;
};

static enum hrtimer_restart perf_mux_timer_fn(struct hrtimer *timer)
{
	struct perf_mux_cpu *mux = container_of(timer, struct perf_mux_cpu,
						timer);
	struct pmu *pmu = mux->pmu;

	if (perf_rotate_pmu(pmu)) {
		hrtimer_forward_now(timer,
				    ms_to_ktime(READ_ONCE(pmu->hrtimer_interval_ms)));
		return HRTIMER_RESTART;
	}
	mux->active = false;
	return HRTIMER_NORESTART;
}

/**
 * perf_mux_init - set up a new PMU's rotation timers
 * @pmu: the PMU being registered
 *
 * Return: 0 or -ENOMEM.
 */
int perf_mux_init(struct pmu *pmu)
{
	int cpu;

	/* No default interval where every event always has a counter. */
	if (!pmu->hrtimer_interval_ms &&
	    !(pmu->capabilities & PERF_PMU_CAP_UNLIMITED))
		pmu->hrtimer_interval_ms = max(1000 / HZ, 1);

	pmu->mux = alloc_percpu(struct perf_mux_cpu);
	if (!pmu->mux)
		return -ENOMEM;

	for_each_possible_cpu(cpu) {
		struct perf_mux_cpu *mux = per_cpu_ptr(pmu->mux, cpu);

		hrtimer_init(&mux->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		mux->timer.function = perf_mux_timer_fn;
		mux->pmu = pmu;
	}
	return 0;
}

/**
 * perf_mux_free - stop and free a PMU's rotation timers
 * @pmu: the PMU being unregistered, with no events left
 */
void perf_mux_free(struct pmu *pmu)
{
	int cpu;

	if (!pmu->mux)
		return;
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(pmu->mux, cpu)->timer);
	free_percpu(pmu->mux);
	pmu->mux = NULL;
}

static void perf_mux_restart(void *info)
{
	struct pmu *pmu = info;
	struct perf_mux_cpu *mux = this_cpu_ptr(pmu->mux);

	if (mux->active)
		hrtimer_start(&mux->timer,
			      ms_to_ktime(READ_ONCE(pmu->hrtimer_interval_ms)),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

/**
 * perf_mux_set_interval - change how often a PMU's groups rotate
 * @pmu: the PMU
 * @ms: the new interval, at least 1
 *
 * Running timers start over with the new interval, each on its CPU.
 */
void perf_mux_set_interval(struct pmu *pmu, int ms)
{
	int cpu;

	WRITE_ONCE(pmu->hrtimer_interval_ms, ms);
	cpus_read_lock();
	for_each_online_cpu(cpu)
		smp_call_function_single(cpu, perf_mux_restart, pmu, 1);
	cpus_read_unlock();
}

/**
 * perf_mux_group_may_go - may a group go on its PMU on this CPU?
 * @leader: the group's leader
 *
 * An exclusive group runs alone on its PMU: it goes on only when no other
 * group is there, and keeps every other group off.  Interrupts off.
 *
 * Return: true if nothing exclusive stands in the way.
 */
bool perf_mux_group_may_go(struct perf_event *leader)
{
	struct perf_mux_cpu *mux = this_cpu_ptr(leader->pmu->mux);

	if (mux->exclusive)
		return false;
	return !leader->attr.exclusive || !mux->nr_groups;
}

/**
 * perf_mux_group_on - note a group going on or off its PMU on this CPU
 * @leader: the group's leader
 * @on: true when it went on, false when it came off
 */
void perf_mux_group_on(struct perf_event *leader, bool on)
{
	struct perf_mux_cpu *mux = this_cpu_ptr(leader->pmu->mux);

	mux->nr_groups += on ? 1 : -1;
	if (leader->attr.exclusive)
		mux->exclusive = on;
}

/**
 * perf_mux_request - a group of @pmu did not fit on this CPU
 * @pmu: the PMU
 *
 * Starts rotation on this CPU if it is not running.  Interrupts off.
 */
void perf_mux_request(struct pmu *pmu)
{
	struct perf_mux_cpu *mux = this_cpu_ptr(pmu->mux);

	if (mux->active || !pmu->hrtimer_interval_ms)
		return;
	mux->active = true;
	hrtimer_start(&mux->timer,
		      ms_to_ktime(READ_ONCE(pmu->hrtimer_interval_ms)),
		      HRTIMER_MODE_REL_PINNED_HARD);
}
