// SPDX-License-Identifier: GPL-2.0
/*
 * Slot accounting for hardware breakpoints.
 *
 * A CPU has hw_breakpoint_slots() debug address registers (four on x86,
 * shared by instruction and data breakpoints).  Every breakpoint event
 * holds a slot on each CPU it may run on from its creation to its
 * release, disabled or not, so that putting it on the CPU never fails.
 *
 * Two kinds of breakpoints share a CPU's slots: CPU-wide ones, on the CPU
 * whenever they are enabled, and per-task ones, on a CPU only while their
 * task runs there (on any CPU if the event's cpu is -1, only on that CPU
 * otherwise).  One task runs on a CPU at a time, so a CPU needs slots for
 * its CPU-wide breakpoints plus the most that any one task brings:
 *
 *	cpu_bps(c) + max over tasks t of task_bps(t, c) <= slots
 *
 * for every CPU c, where task_bps(t, c) counts the breakpoints of t that
 * may run on c.  A new breakpoint is accepted only if that still holds on
 * each CPU it may run on; otherwise reserve_bp_slot() fails with -ENOSPC.
 *
 * What is kept:
 *  - per CPU, the number of CPU-wide breakpoints;
 *  - the per-task breakpoints in a hash table by task, so that the
 *    breakpoints of one task are found in one bucket;
 *  - the maximum over tasks, as histograms of tasks by count: bp_any_hist
 *    counts the tasks by their number of breakpoints with cpu -1, and
 *    each CPU's hist counts the tasks that have breakpoints bound to that
 *    CPU by their task_bps() there.  The highest non-empty count of the
 *    two is the maximum: a task with breakpoints bound to c is in c's
 *    histogram with at least its cpu -1 count; one without brings just
 *    its cpu -1 count to c.
 *
 * Locking: bp_slots_mutex protects everything here.  The debugger's
 * variants (dbg_reserve_bp_slot(), dbg_release_bp_slot()) run with the
 * other CPUs stopped and may not sleep: they fail if the mutex is held,
 * and otherwise go ahead without taking it.
 */
#include <linux/hashtable.h>
#include <linux/hw_breakpoint.h>
#include <linux/mutex.h>
#include <linux/percpu.h>

#include "internal.h"

/* One pool of slots for every kind of breakpoint (x86 mixes them). */
#define BP_SLOTS	hw_breakpoint_slots(TYPE_DATA)

struct bp_cpu_slots {
	/* CPU-wide breakpoints on this CPU. */
	unsigned int	cpu_bps;
	/* Tasks with breakpoints bound here, by their task_bps() here. */
	unsigned int	hist[BP_SLOTS + 1];
};

static DEFINE_MUTEX(bp_slots_mutex);
static DEFINE_PER_CPU(struct bp_cpu_slots, bp_cpu_slots);
/* Tasks by their number of breakpoints that may run on any CPU. */
static unsigned int bp_any_hist[BP_SLOTS + 1];
/* Per-task breakpoints, hashed by task. */
static DEFINE_HASHTABLE(bp_task_hash, 7);
/* Every breakpoint holding slots, for hw_breakpoint_is_used(). */
static unsigned int bp_nr_reserved;

/* The breakpoints of @task bound to @cpu (-1: those that may run anywhere). */
static unsigned int task_bps_bound(struct task_struct *task, int cpu)
{
	struct perf_event *bp;
	unsigned int nr = 0;

	hash_for_each_possible(bp_task_hash, bp, hw.bp_node,
			       (unsigned long)task) {
		if (bp->hw.target == task && bp->cpu == cpu)
			nr++;
	}
	return nr;
}

/* Is @bp the first of its task's breakpoints bound to its CPU? */
static bool task_bp_first_on_cpu(struct perf_event *bp)
{
	struct task_struct *task = bp->hw.target;
	struct perf_event *other;

	hash_for_each_possible(bp_task_hash, other, hw.bp_node,
			       (unsigned long)task) {
		if (other->hw.target == task && other->cpu == bp->cpu)
			return other == bp;
	}
	return false;
}

static unsigned int bp_hist_index(unsigned int nr)
{
	/* The reservation checks keep every count within the slots. */
	return min_t(unsigned int, nr, BP_SLOTS);
}

/*
 * Add (@sign 1) or take away (@sign -1) what @task's breakpoints, as the
 * hash table has them now, contribute to the histograms.
 */
static void task_bps_account(struct task_struct *task, int sign)
{
	unsigned int any = task_bps_bound(task, -1);
	struct perf_event *bp;
	unsigned int nr;

	if (any)
		bp_any_hist[bp_hist_index(any)] += sign;

	hash_for_each_possible(bp_task_hash, bp, hw.bp_node,
			       (unsigned long)task) {
		if (bp->hw.target != task || bp->cpu < 0 ||
		    !task_bp_first_on_cpu(bp))
			continue;
		nr = any + task_bps_bound(task, bp->cpu);
		per_cpu(bp_cpu_slots, bp->cpu).hist[bp_hist_index(nr)] += sign;
	}
}

/* The most breakpoints any one task may bring to @cpu. */
static unsigned int task_bps_max(int cpu)
{
	struct bp_cpu_slots *slots = per_cpu_ptr(&bp_cpu_slots, cpu);
	unsigned int nr;

	for (nr = BP_SLOTS; nr > 0; nr--) {
		if (bp_any_hist[nr] || slots->hist[nr])
			break;
	}
	return nr;
}

/* Is there a slot for @bp, not counted yet, on every CPU it may run on? */
static bool bp_fits(struct perf_event *bp)
{
	struct task_struct *task = bp->hw.target;
	unsigned int any;
	int cpu;

	if (!task)
		return per_cpu(bp_cpu_slots, bp->cpu).cpu_bps +
		       task_bps_max(bp->cpu) < BP_SLOTS;

	any = task_bps_bound(task, -1);
	for_each_possible_cpu(cpu) {
		if (bp->cpu >= 0 && cpu != bp->cpu)
			continue;
		if (per_cpu(bp_cpu_slots, cpu).cpu_bps + any +
		    task_bps_bound(task, cpu) >= BP_SLOTS)
			return false;
	}
	return true;
}

static int __reserve_bp_slot(struct perf_event *bp)
{
	struct task_struct *task = bp->hw.target;

	if (!bp_fits(bp))
		return -ENOSPC;

	if (task) {
		task_bps_account(task, -1);
		hash_add(bp_task_hash, &bp->hw.bp_node, (unsigned long)task);
		task_bps_account(task, 1);
	} else {
		per_cpu(bp_cpu_slots, bp->cpu).cpu_bps++;
	}
	bp_nr_reserved++;
	return 0;
}

static void __release_bp_slot(struct perf_event *bp)
{
	struct task_struct *task = bp->hw.target;

	if (task) {
		task_bps_account(task, -1);
		hash_del(&bp->hw.bp_node);
		task_bps_account(task, 1);
	} else {
		per_cpu(bp_cpu_slots, bp->cpu).cpu_bps--;
	}
	bp_nr_reserved--;
}

/**
 * reserve_bp_slot - take a debug register slot for a new breakpoint
 * @bp: the breakpoint event: hw.target (NULL for a CPU-wide one) and cpu
 *	(a possible CPU, or -1 for a per-task one) say where it may run
 *
 * Return: 0, or -ENOSPC if some CPU @bp may run on has no slot left for
 * it.  Release the slot with release_bp_slot().
 */
int reserve_bp_slot(struct perf_event *bp)
{
	int ret;

	mutex_lock(&bp_slots_mutex);
	ret = __reserve_bp_slot(bp);
	mutex_unlock(&bp_slots_mutex);
	return ret;
}

/**
 * release_bp_slot - give back the slot of a breakpoint
 * @bp: a breakpoint reserve_bp_slot() accepted
 */
void release_bp_slot(struct perf_event *bp)
{
	mutex_lock(&bp_slots_mutex);
	__release_bp_slot(bp);
	mutex_unlock(&bp_slots_mutex);
}

/**
 * dbg_reserve_bp_slot - reserve_bp_slot() for the kernel debugger
 * @bp: the breakpoint
 *
 * For a caller that may not sleep, with the other CPUs stopped.
 *
 * Return: 0; -EBUSY if the accounting is being changed right now;
 * -ENOSPC.
 */
int dbg_reserve_bp_slot(struct perf_event *bp)
{
	if (mutex_is_locked(&bp_slots_mutex))
		return -EBUSY;
	return __reserve_bp_slot(bp);
}

/**
 * dbg_release_bp_slot - release_bp_slot() for the kernel debugger
 * @bp: the breakpoint
 *
 * Return: 0, or -EBUSY if the accounting is being changed right now.
 */
int dbg_release_bp_slot(struct perf_event *bp)
{
	if (mutex_is_locked(&bp_slots_mutex))
		return -EBUSY;
	__release_bp_slot(bp);
	return 0;
}

/**
 * hw_breakpoint_is_used - does any breakpoint hold a debug register slot?
 *
 * Return: true while any breakpoint event exists.
 */
bool hw_breakpoint_is_used(void)
{
	return READ_ONCE(bp_nr_reserved) != 0;
}
