// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint PMU (PERF_TYPE_TRACEPOINT) and the entry points the
 * trace event code calls when a tracepoint with perf users fires.
 *
 * Tracepoint events are not available yet: opening one fails with
 * EOPNOTSUPP, so no trace event ever has perf users, and the entry
 * points below only have to give back what the trace code took.
 */
#include <linux/perf_event.h>
#include <linux/trace_events.h>

#include "internal.h"

/**
 * perf_tp_event - deliver a fired tracepoint to its perf events
 * @event_type: the trace event's id
 * @count: how many times it counts
 * @record: the raw record
 * @entry_size: its size
 * @regs: the registers at the tracepoint
 * @head: the per-CPU list of events attached to the tracepoint
 * @rctx: the recursion context taken by perf_trace_buf_alloc()
 * @task: the task to deliver to, or NULL for the current one
 *
 * Releases @rctx.
 */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task)
{
	perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

/**
 * perf_trace_run_bpf_submit - submit a trace event record to perf
 * @raw_data: the record
 * @size: its size
 * @rctx: the recursion context taken by perf_trace_buf_alloc()
 * @call: the trace event
 * @count: how many times it counts
 * @regs: the registers at the tracepoint
 * @head: the per-CPU list of events attached to the tracepoint
 * @task: the task to deliver to, or NULL
 *
 * Called by the code every TRACE_EVENT() expands to.
 */
void perf_trace_run_bpf_submit(void *raw_data, int size, int rctx,
			       struct trace_event_call *call, u64 count,
			       struct pt_regs *regs, struct hlist_head *head,
			       struct task_struct *task)
{
	perf_tp_event(call->event.type, count, raw_data, size, regs, head,
		      rctx, task);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);

static int perf_tp_event_init(struct perf_event *event)
{
	if (event->attr.type != PERF_TYPE_TRACEPOINT)
		return -ENOENT;
	return -EOPNOTSUPP;
}

static struct pmu perf_tracepoint_pmu = {
	.capabilities	= PERF_PMU_CAP_UNLIMITED,
	.event_init	= perf_tp_event_init,
	.add		= perf_pmu_add_unsupported,
	.del		= perf_pmu_nop_flags,
	.start		= perf_pmu_nop_flags,
	.stop		= perf_pmu_nop_flags,
	.read		= perf_pmu_nop_read,
};

/**
 * perf_tp_register - register the tracepoint PMU
 */
void perf_tp_register(void)
{
	perf_pmu_register(&perf_tracepoint_pmu, "tracepoint",
			  PERF_TYPE_TRACEPOINT);
}
