// SPDX-License-Identifier: GPL-2.0
/*
 * PMUs that hear of context switches.  Some hardware keeps state that
 * belongs to the task running, not to any event: the x86 LBR holds the
 * branches the last task took, which the next must not see in its
 * samples, and in call-stack mode the calls a task is inside, which
 * must come back when it runs again.  A PMU with such state asks, per
 * CPU, to be called at every context switch there (perf_sched_cb_inc()
 * as its first event of that kind goes on, perf_sched_cb_dec() as the
 * last goes off), and its pmu::sched_task() is called as a task leaves
 * and as the next one runs.
 *
 * The scheduler hooks run only while perf_sched_events is on: a
 * CPU-wide event with a branch stack holds it on like a task's event
 * (PERF_ATTACH_SCHED).
 */
#include <linux/perf_event.h>
#include <linux/percpu.h>

#include "internal.h"

/* PMUs one CPU may have asking at once: the x86 hybrids have two. */
#define PERF_SCHED_CB_PMUS	4

/*
 * struct perf_sched_cb - the PMUs to call at a context switch on a CPU
 * @pmu: the PMUs, @n of them, from the first
 * @users: how many times each asked (perf_sched_cb_inc())
 * @n: how many there are
 *
 * Locking: changed and read only on its own CPU, with interrupts off
 * (from a PMU's add and del, and the scheduler's hooks).
 */
struct perf_sched_cb {
	struct pmu	*pmu[PERF_SCHED_CB_PMUS];
	unsigned int	users[PERF_SCHED_CB_PMUS];
	unsigned int	n;
};

static DEFINE_PER_CPU(struct perf_sched_cb, perf_sched_cb);

/**
 * perf_sched_cb_inc - call a PMU's sched_task at this CPU's switches
 * @pmu: the PMU, which has a sched_task
 *
 * From the PMU's add() (on this CPU, interrupts off), for each event
 * that needs it; undone by perf_sched_cb_dec().
 */
void perf_sched_cb_inc(struct pmu *pmu)
{
	struct perf_sched_cb *cb = this_cpu_ptr(&perf_sched_cb);
	unsigned int i;

	lockdep_assert_irqs_disabled();
	for (i = 0; i < cb->n; i++) {
		if (cb->pmu[i] == pmu) {
			cb->users[i]++;
			return;
		}
	}
	if (WARN_ON_ONCE(cb->n == PERF_SCHED_CB_PMUS || !pmu->sched_task))
		return;
	cb->pmu[cb->n] = pmu;
	cb->users[cb->n++] = 1;
}

/**
 * perf_sched_cb_dec - one user of perf_sched_cb_inc() less
 * @pmu: the PMU
 *
 * From the PMU's del(), on this CPU with interrupts off.
 */
void perf_sched_cb_dec(struct pmu *pmu)
{
	struct perf_sched_cb *cb = this_cpu_ptr(&perf_sched_cb);
	unsigned int i;

	lockdep_assert_irqs_disabled();
	for (i = 0; i < cb->n; i++) {
		if (cb->pmu[i] != pmu)
			continue;
		if (--cb->users[i])
			return;
		cb->n--;
		cb->pmu[i] = cb->pmu[cb->n];
		cb->users[i] = cb->users[cb->n];
		return;
	}
	WARN_ON_ONCE(1);
}

/**
 * perf_sched_cb_switch - tell the PMUs that asked of a context switch
 * @ctx: the context of the task leaving (@sched_in false) or of the
 *	task now running (true), or NULL if it has none
 * @sched_in: which of the two
 *
 * From the scheduler's hooks, interrupts off.
 */
void perf_sched_cb_switch(struct perf_event_context *ctx, bool sched_in)
{
	struct perf_sched_cb *cb = this_cpu_ptr(&perf_sched_cb);
	unsigned int i;

	for (i = 0; i < cb->n; i++) {
		struct pmu *pmu = cb->pmu[i];

		perf_pmu_disable(pmu);
		pmu->sched_task(ctx, sched_in);
		perf_pmu_enable(pmu);
	}
}

/**
 * perf_sched_cb_wanted - does any PMU of this CPU want its switches?
 *
 * Return: true if perf_sched_cb_switch() has someone to call.
 */
bool perf_sched_cb_wanted(void)
{
	return __this_cpu_read(perf_sched_cb.n);
}
