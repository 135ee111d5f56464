// SPDX-License-Identifier: GPL-2.0
/*
 * The breakpoint PMU (PERF_TYPE_BREAKPOINT) and the hw_breakpoint API
 * that ptrace and kernel users build on (include/linux/hw_breakpoint.h).
 *
 * Breakpoint events are not available yet: opening one fails with
 * EOPNOTSUPP, and so does every way of registering a breakpoint, which
 * ptrace reports to its caller.  Unregistering accepts NULL, which is
 * what exec and exit pass for a task without ptrace breakpoints.
 */
#include <linux/perf_event.h>
#include <linux/hw_breakpoint.h>
#include <linux/percpu.h>

#include "internal.h"

/**
 * register_user_hw_breakpoint - set a breakpoint on a task
 * @attr: the breakpoint
 * @triggered: called when it hits
 * @context: passed to @triggered
 * @tsk: the task
 *
 * Return: the breakpoint event, or an ERR_PTR.
 */
struct perf_event *
register_user_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered,
			    void *context, struct task_struct *tsk)
{
	return perf_event_create_kernel_counter(attr, -1, tsk, triggered,
						context);
}
EXPORT_SYMBOL_GPL(register_user_hw_breakpoint);

/**
 * modify_user_hw_breakpoint - move or change a task's breakpoint
 * @bp: the breakpoint
 * @attr: its new attributes
 *
 * Return: 0 or a negative errno.
 */
int modify_user_hw_breakpoint(struct perf_event *bp,
			      struct perf_event_attr *attr)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(modify_user_hw_breakpoint);

/**
 * modify_user_hw_breakpoint_check - change a breakpoint, with checks
 * @bp: the breakpoint
 * @attr: its new attributes
 * @check: whether to check the fields that may not change
 *
 * Return: 0 or a negative errno.
 */
int modify_user_hw_breakpoint_check(struct perf_event *bp,
				    struct perf_event_attr *attr, bool check)
{
	return -EOPNOTSUPP;
}

/**
 * unregister_hw_breakpoint - remove a breakpoint
 * @bp: the breakpoint, or NULL
 */
void unregister_hw_breakpoint(struct perf_event *bp)
{
	if (bp)
		perf_event_release_kernel(bp);
}
EXPORT_SYMBOL_GPL(unregister_hw_breakpoint);

/**
 * register_wide_hw_breakpoint_cpu - set a kernel breakpoint on one CPU
 * @attr: the breakpoint
 * @triggered: called when it hits
 * @context: passed to @triggered
 * @cpu: the CPU
 *
 * Return: the breakpoint event, or an ERR_PTR.
 */
struct perf_event *
register_wide_hw_breakpoint_cpu(struct perf_event_attr *attr,
				perf_overflow_handler_t triggered,
				void *context, int cpu)
{
	return perf_event_create_kernel_counter(attr, cpu, NULL, triggered,
						context);
}

/**
 * register_wide_hw_breakpoint - set a kernel breakpoint on every CPU
 * @attr: the breakpoint
 * @triggered: called when it hits
 * @context: passed to @triggered
 *
 * Return: the per-CPU breakpoint events, or an ERR_PTR.
 */
struct perf_event * __percpu *
register_wide_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context)
{
	struct perf_event * __percpu *events;
	struct perf_event *bp;
	int cpu, ret = 0;

	events = alloc_percpu(typeof(*events));
	if (!events)
		return ERR_PTR(-ENOMEM);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		bp = perf_event_create_kernel_counter(attr, cpu, NULL,
						      triggered, context);
		if (IS_ERR(bp)) {
			ret = PTR_ERR(bp);
			break;
		}
		per_cpu(*events, cpu) = bp;
	}
	cpus_read_unlock();

	if (ret) {
		unregister_wide_hw_breakpoint(events);
		return (void __percpu __force *)ERR_PTR(ret);
	}
	return events;
}
EXPORT_SYMBOL_GPL(register_wide_hw_breakpoint);

/**
 * unregister_wide_hw_breakpoint - remove a breakpoint from every CPU
 * @cpu_events: what register_wide_hw_breakpoint() returned
 */
void unregister_wide_hw_breakpoint(struct perf_event * __percpu *cpu_events)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct perf_event *bp = per_cpu(*cpu_events, cpu);

		/* CPUs that were offline at registration have none. */
		if (bp)
			perf_event_release_kernel(bp);
	}
	free_percpu(cpu_events);
}
EXPORT_SYMBOL_GPL(unregister_wide_hw_breakpoint);

/**
 * register_perf_hw_breakpoint - check and reserve a new breakpoint event
 * @bp: the event
 *
 * Return: 0 or a negative errno.
 */
int register_perf_hw_breakpoint(struct perf_event *bp)
{
	return -EOPNOTSUPP;
}

/**
 * hw_breakpoint_is_used - does any breakpoint hold a debug register?
 *
 * Return: false while breakpoints cannot be created.
 */
bool hw_breakpoint_is_used(void)
{
	return false;
}

/**
 * perf_bp_event - a breakpoint hit
 * @bp: the breakpoint event
 * @data: the registers at the hit
 */
void perf_bp_event(struct perf_event *bp, void *data)
{
}

static int perf_bp_event_init(struct perf_event *event)
{
	if (event->attr.type != PERF_TYPE_BREAKPOINT)
		return -ENOENT;
	return -EOPNOTSUPP;
}

static struct pmu perf_breakpoint_pmu = {
	.capabilities	= PERF_PMU_CAP_UNLIMITED,
	.event_init	= perf_bp_event_init,
	.add		= perf_pmu_add_unsupported,
	.del		= perf_pmu_nop_flags,
	.start		= perf_pmu_nop_flags,
	.stop		= perf_pmu_nop_flags,
	.read		= perf_pmu_nop_read,
};

/**
 * init_hw_breakpoint - register the breakpoint PMU
 *
 * Return: 0 or a negative errno.
 */
int __init init_hw_breakpoint(void)
{
	return perf_pmu_register(&perf_breakpoint_pmu, "breakpoint",
				 PERF_TYPE_BREAKPOINT);
}
