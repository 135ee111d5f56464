// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint PMU (PERF_TYPE_TRACEPOINT) and the entry points the
 * trace event code calls when a tracepoint with perf users fires.
 *
 * attr.config is a trace event's id (tracefs events/<system>/<name>/id).
 * The trace event side, kernel/trace/trace_event_perf.c, keeps the books:
 * perf_trace_init() finds the trace event, checks the permissions and
 * attaches the trace event's perf probe to the tracepoint;
 * perf_trace_add() and perf_trace_del() put the event on and take it off
 * the trace event's per-CPU list (trace_event_call::perf_events) as the
 * event goes on and off a CPU.  When the tracepoint fires, its probe
 * builds the record in a per-CPU buffer and hands it with that CPU's list
 * to perf_trace_run_bpf_submit(), which comes to perf_tp_event() here.
 *
 * Each CPU's list changes only on that CPU with interrupts off, and is
 * walked under RCU; an event is freed after a grace period (event.c).
 *
 * A tracepoint may name a task other than the current one (the task a
 * wakeup wakes, with __perf_task() in TRACE_EVENT()): the events that
 * task's context holds for this CPU count it too, as in Linux 6.1.
 *
 * Events that user space opened may have a filter (PERF_EVENT_IOC_SET_FILTER,
 * ftrace's syntax), set once: records it rejects are not counted.
 */
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#include "internal.h"

/*
 * Does @event want this record?  6.1's rules: not while stopped; not a
 * record from kernel code if it excludes the kernel (a tracepoint's
 * registers are always the kernel's, a uprobe's are the user's); and only
 * if its filter, if any, accepts it.
 */
static bool perf_tp_match(struct perf_event *event, struct pt_regs *regs,
			  void *record)
{
	struct event_filter *filter = READ_ONCE(event->filter);

	/* Stopped and started on its own CPU, maybe not this one: marked. */
	if (READ_ONCE(event->hw.state) & PERF_HES_STOPPED)
		return false;
	if (event->attr.exclude_kernel && regs && !user_mode(regs))
		return false;
	return !filter || filter_match_preds(filter, record);
}

/*
 * Count the record in @event; a sampling event also gets a sample if it
 * is running here (not one of a sleeping task's, see below), as in 6.1.
 */
static void perf_tp_count(struct perf_event *event, u64 count,
			  struct perf_raw_record *raw, struct pt_regs *regs)
{
	struct perf_sample_data data;

	if (!perf_tp_match(event, regs, raw->frag.data))
		return;
	if (!is_sampling_event(event) ||
	    READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE) {
		local64_add(count, &event->count);
		return;
	}
	/* Fresh for each event: the output fills in what its event asks. */
	perf_sample_data_init(&data, 0, 0);
	data.raw = raw;
	data.sample_flags |= PERF_SAMPLE_RAW;
	perf_swevent_hit(event, count, &data, regs);
}

/*
 * The record concerns @task, which is not running here: count it in the
 * tracepoint events of @task's context that are bound to this CPU.  They
 * are not on this CPU's list, since @task does not run, and they take no
 * samples, as they are not active.  The context's
 * lock keeps its list still; a tracepoint that names a task fires under
 * the scheduler's locks at most, inside which that lock nests.  Events
 * that send a synchronous signal are left out: it would hit the wrong
 * task.
 */
static void perf_tp_event_task(u16 type, u64 count,
			       struct perf_raw_record *raw,
			       struct pt_regs *regs, struct task_struct *task)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	unsigned long flags;
	int cpu = smp_processor_id();

	rcu_read_lock();
	ctx = READ_ONCE(task->perf_event_ctxp[0]);
	if (!ctx)
		goto out;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->attr.type != PERF_TYPE_TRACEPOINT ||
		    event->attr.config != type || event->cpu != cpu ||
		    event->attr.sigtrap ||
		    event->state < PERF_EVENT_STATE_INACTIVE)
			continue;
		perf_tp_count(event, count, raw, regs);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
out:
	rcu_read_unlock();
}

/**
 * perf_tp_event - deliver a fired tracepoint to its perf events
 * @event_type: the trace event's id
 * @count: how many times it counts (__perf_count(), usually 1)
 * @record: the record, its common fields not filled in yet
 * @entry_size: its size; with the u32 size word of a PERF_SAMPLE_RAW
 *	field in front, a multiple of 8
 * @regs: the registers at the tracepoint
 * @head: this CPU's list of events attached to the trace event
 * @rctx: the recursion context taken by perf_trace_buf_alloc()
 * @task: the task the record concerns (__perf_task()), or NULL for the
 *	current one
 *
 * Fills in the record's common fields, counts it in every event of @head
 * (and of @task's context, see above) that wants it, and samples those
 * that sample.  Called with preemption off.  Releases @rctx.
 */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task)
{
	struct perf_raw_record raw = {
		.frag = {
			.size	= entry_size,
			.data	= record,
		},
	};
	struct perf_event *event;

	perf_trace_buf_update(record, event_type);

	rcu_read_lock();
	hlist_for_each_entry_rcu(event, head, hlist_entry)
		perf_tp_count(event, count, &raw, regs);
	rcu_read_unlock();

	/* No tracepoint that names a task fires in NMI; the lock could not. */
	if (task && task != current && !in_nmi())
		perf_tp_event_task(event_type, count, &raw, regs, task);

	perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

/* Does one of the trace event's BPF programs want the record? */
static bool perf_tp_bpf_wants(struct trace_event_call *call, void *record,
			      struct pt_regs *regs)
{
	/* They find the registers in the record's first word. */
	memcpy(record, &regs, sizeof(regs));
	return trace_call_bpf(call, record);
}

/**
 * perf_trace_run_bpf_submit - submit a trace event record to perf
 * @raw_data: the record
 * @size: its size
 * @rctx: the recursion context taken by perf_trace_buf_alloc()
 * @call: the trace event
 * @count: how many times it counts
 * @regs: the registers at the tracepoint
 * @head: this CPU's list of events attached to the trace event
 * @task: the task the record concerns, or NULL
 *
 * Called by the code every TRACE_EVENT() expands to.  The trace event's
 * BPF programs (attached to any of its perf events, kernel/events/bpf.c)
 * run first, on the record, whose first word is made to point to @regs
 * for them, as BPF_PROG_TYPE_TRACEPOINT programs expect; if none of
 * them returns nonzero, or no perf event takes records on this CPU, the
 * record goes no further.  Otherwise this is perf_tp_event().
 */
void perf_trace_run_bpf_submit(void *raw_data, int size, int rctx,
			       struct trace_event_call *call, u64 count,
			       struct pt_regs *regs, struct hlist_head *head,
			       struct task_struct *task)
{
	if (bpf_prog_array_valid(call) &&
	    (!perf_tp_bpf_wants(call, raw_data, regs) || hlist_empty(head))) {
		perf_swevent_put_recursion_context(rctx);
		return;
	}
	perf_tp_event(call->event.type, count, raw_data, size, regs, head,
		      rctx, task);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);

/**
 * perf_tp_add - pmu::add of the trace event based PMUs
 * @event: the event
 * @flags: PERF_EF_*
 *
 * Return: 0, or what perf_trace_add() says.
 */
int perf_tp_add(struct perf_event *event, int flags)
{
	WRITE_ONCE(event->hw.state,
		   flags & PERF_EF_START ? 0 : PERF_HES_STOPPED);
	return perf_trace_add(event, flags);
}

/**
 * perf_tp_del - pmu::del of the trace event based PMUs
 * @event: the event
 * @flags: PERF_EF_*
 *
 * The event stays unstopped: records for its task from other CPUs keep
 * counting while the task sleeps (perf_tp_event_task()).
 */
void perf_tp_del(struct perf_event *event, int flags)
{
	perf_trace_del(event, flags);
}

/**
 * perf_tp_start - pmu::start of the trace event based PMUs
 * @event: the event
 * @flags: PERF_EF_*
 */
void perf_tp_start(struct perf_event *event, int flags)
{
	WRITE_ONCE(event->hw.state, 0);
}

/**
 * perf_tp_stop - pmu::stop of the trace event based PMUs
 * @event: the event
 * @flags: PERF_EF_*
 */
void perf_tp_stop(struct perf_event *event, int flags)
{
	WRITE_ONCE(event->hw.state, PERF_HES_STOPPED | PERF_HES_UPTODATE);
}

/**
 * perf_tp_free_filter - drop an event's filter as the event goes away
 * @event: the event, off every list
 *
 * A CPU may still be applying the filter to a record: free it after a
 * grace period.  Sleeps; only events with a filter pay for it.
 */
void perf_tp_free_filter(struct perf_event *event)
{
	if (!event->filter)
		return;
	synchronize_rcu();
	ftrace_profile_free_filter(event);
}

/**
 * perf_tp_is_tracing - is the event one of the trace event based PMUs'?
 * @event: the event
 *
 * Return: true for tracepoint, kprobe and uprobe events.
 */
bool perf_tp_is_tracing(struct perf_event *event)
{
	return event->attr.type == PERF_TYPE_TRACEPOINT ||
	       perf_probe_pmu_owns(event);
}

/**
 * perf_event_set_filter - PERF_EVENT_IOC_SET_FILTER
 * @event: the event
 * @arg: the filter, a string in user memory
 *
 * Trace event based events take ftrace's filter syntax, once.  Called
 * without the context's mutex: the trace event code takes its
 * event_mutex, which nests outside it.
 *
 * ftrace's parser fails some malformed filters with codes of its own
 * (-1, -2, -3), which Linux 6.1 passes on as EPERM, ENOENT and ESRCH;
 * here every filter that cannot be had is EINVAL (an extension).
 *
 * Return: 0; -EINVAL for a filter ftrace rejects or an event of another
 * PMU; -EEXIST if the event has a filter already; -EFAULT; -ENOMEM.
 */
int perf_event_set_filter(struct perf_event *event, void __user *arg)
{
	char *filter = strndup_user(arg, PAGE_SIZE);
	int ret;

	if (IS_ERR(filter))
		return perf_refuse(PTR_ERR(filter),
				   "IOC_SET_FILTER: not readable, or too long",
				   (unsigned long)arg);
	if (!perf_tp_is_tracing(event)) {
		kfree(filter);
		return perf_refuse(-EINVAL, "IOC_SET_FILTER: not a trace event",
				   event->attr.type);
	}
	ret = ftrace_profile_set_filter(event, event->attr.config, filter);
	kfree(filter);
	if (ret == -EEXIST)
		return perf_refuse(ret, "IOC_SET_FILTER: has a filter already", 0);
	if (ret == -ENOMEM)
		return perf_refuse(ret, "IOC_SET_FILTER: out of memory", 0);
	if (ret)
		return perf_refuse(-EINVAL, "IOC_SET_FILTER: ftrace refused it",
				   -ret);
	return 0;
}

static void perf_tp_destroy_copy(struct perf_event *event)
{
	struct trace_event_call *call = event->tp_event;

	call->class->reg(call, TRACE_REG_PERF_CLOSE, event);
}

/**
 * perf_tp_init_copy - set up an inherited copy of a trace event based event
 * @event: the copy, made at fork; event->parent is the event user space
 *	opened
 *
 * The copy uses the trace event its parent is attached to (its probe, for
 * the kprobe and uprobe PMUs), which the parent keeps attached until the
 * last copy is gone: copies hold a reference on it.  The trace event only
 * learns of the copy (a uprobe keeps a list of the tasks it is for, under
 * a lock of its own).  The copy's permission was the parent's, as in 6.1.
 * Nothing here takes event_mutex: forks copy events under the parent
 * context's mutex, and event_mutex is taken before the CPU hotplug lock,
 * which is taken before contexts' mutexes.
 *
 * Return: 0, or what the trace event says.
 */
int perf_tp_init_copy(struct perf_event *event)
{
	struct trace_event_call *call = event->parent->tp_event;
	int ret;

	ret = call->class->reg(call, TRACE_REG_PERF_OPEN, event);
	if (ret)
		return ret;
	event->tp_event = call;
	event->destroy = perf_tp_destroy_copy;
	event->event_caps |= PERF_EV_CAP_SOFTWARE;
	return 0;
}

static void perf_tp_event_destroy(struct perf_event *event)
{
	perf_trace_destroy(event);
	perf_tp_free_filter(event);
}

/*
 * Why the trace event code refused @event, going by what perf_trace_init()
 * returns: -EINVAL for an id that names no trace event, or an event the
 * function tracer's rules refuse; -EPERM for raw records without the
 * privilege.
 */
static int perf_tp_refuse(struct perf_event *event, int err)
{
	u64 config = event->attr.config;

	switch (err) {
	case -EINVAL:
		return perf_refuse(err, "config: no such trace event, or not for perf",
				   config);
	case -EPERM:
	case -EACCES:
		return perf_refuse(err, "sample_type: RAW needs privilege",
				   sysctl_perf_event_paranoid);
	default:
		return perf_refuse(err, "config: the trace event refused", config);
	}
}

static int perf_tp_event_init(struct perf_event *event)
{
	int ret;

	if (event->attr.type != PERF_TYPE_TRACEPOINT)
		return -ENOENT;
	if (event->parent)
		return perf_tp_init_copy(event);
	if (event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
		return perf_refuse(-EOPNOTSUPP,
				   "sample_type: BRANCH_STACK of a trace event",
				   event->attr.sample_type);

	/* Finds the trace event, or -EINVAL; checks the permissions. */
	ret = perf_trace_init(event);
	if (ret)
		return perf_tp_refuse(event, ret);
	event->destroy = perf_tp_event_destroy;
	event->event_caps |= PERF_EV_CAP_SOFTWARE;
	return 0;
}

static struct pmu perf_tracepoint_pmu = {
	.capabilities	= PERF_PMU_CAP_UNLIMITED,
	.event_init	= perf_tp_event_init,
	.add		= perf_tp_add,
	.del		= perf_tp_del,
	.start		= perf_tp_start,
	.stop		= perf_tp_stop,
	.read		= perf_pmu_nop_read,
};

/**
 * perf_tp_register - register the tracepoint, kprobe and uprobe PMUs
 */
void perf_tp_register(void)
{
	perf_pmu_register(&perf_tracepoint_pmu, "tracepoint",
			  PERF_TYPE_TRACEPOINT);
	perf_probe_pmus_register();
}
