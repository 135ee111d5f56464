// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs on perf events, and the records perf writes about BPF
 * programs.
 *
 * A program is attached to an event with PERF_EVENT_IOC_SET_BPF or with a
 * BPF link (BPF_LINK_CREATE, kernel/bpf/syscall.c); both come to
 * perf_event_set_bpf_prog().  What it does depends on the event:
 *
 *  - an event of a trace event based PMU (tracepoint, kprobe, uprobe)
 *    takes a program of the trace event's kind: BPF_PROG_TYPE_TRACEPOINT
 *    for tracepoints and syscalls:*, BPF_PROG_TYPE_KPROBE for kprobes and
 *    uprobes.  kernel/trace/bpf_trace.c adds it to the trace event's
 *    program array, so it runs every time the trace event fires, on any
 *    CPU, while the event exists, enabled or not; up to 64 programs of
 *    different events share one trace event.  A tracepoint record is
 *    sampled only if one of them returns nonzero
 *    (perf_trace_run_bpf_submit(), tracepoint.c).
 *  - any other event takes a BPF_PROG_TYPE_PERF_EVENT program, which runs
 *    on each overflow, after the throttling, refresh and sigtrap steps,
 *    with the sample and the registers of the overflow (NMI included); the
 *    sample is written only if the program returns nonzero.  Inherited
 *    copies made after it was attached run it too.
 *
 * One program per event: a second attach is -EEXIST.  It stays until the
 * link is released or the event freed.  Kernel users' events (those with
 * an overflow handler of their own) take none.
 *
 * Program load and unload (kernel/bpf/syscall.c) come to
 * perf_event_bpf_event(): PERF_RECORD_KSYMBOL for each JITed function of
 * the program, then PERF_RECORD_BPF_EVENT, to the events that asked for
 * them (attr.ksymbol, attr.bpf_event) of the current task and this CPU.
 *
 * Locking: the program of an event that is not trace event based changes
 * under perf_bpf_mutex (a leaf: taken inside the context's mutex, never
 * around it); the overflow path reads it under RCU, and a program is freed
 * after a grace period.  A trace event's program array is bpf_trace.c's,
 * under its bpf_event_mutex.
 */
#include <linux/perf_event.h>
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/syscalls.h>
#include <linux/trace_events.h>

#include "internal.h"

static DEFINE_MUTEX(perf_bpf_mutex);

DEFINE_STATIC_CALL_RET0(perf_snapshot_branch_stack,
			perf_snapshot_branch_stack_t);

/* Is @event's program one of a trace event's program array? */
static bool perf_bpf_is_tracing(struct perf_event *event)
{
#ifdef CONFIG_EVENT_TRACING
	return perf_tp_is_tracing(event);
#else
	return false;
#endif
}

/* A perf-event program on an event of any other PMU. */
static int perf_bpf_set_handler(struct perf_event *event,
				struct bpf_prog *prog, u64 bpf_cookie)
{
	int ret = 0;

	if (prog->type != BPF_PROG_TYPE_PERF_EVENT)
		return perf_refuse(-EINVAL, "IOC_SET_BPF: not a perf_event program",
				   prog->type);
	if (event->overflow_handler)
		return perf_refuse(-EINVAL, "IOC_SET_BPF: a kernel user's event", 0);

	mutex_lock(&perf_bpf_mutex);
	if (event->prog) {
		ret = perf_refuse(-EEXIST, "IOC_SET_BPF: has a program already", 0);
	} else {
		event->bpf_cookie = bpf_cookie;
		/* The cookie is there before the program can run. */
		smp_store_release(&event->prog, prog);
	}
	mutex_unlock(&perf_bpf_mutex);
	return ret;
}

#ifdef CONFIG_BPF_EVENTS
/* A program on a tracepoint, kprobe or uprobe event. */
static int perf_bpf_attach_trace(struct perf_event *event,
				 struct bpf_prog *prog, u64 bpf_cookie)
{
	struct trace_event_call *call = event->tp_event;
	bool probe = call->flags & TRACE_EVENT_FL_UKPROBE;
	bool uprobe = call->flags & TRACE_EVENT_FL_UPROBE;
	bool tp = (call->flags & TRACE_EVENT_FL_TRACEPOINT) ||
		  is_syscall_trace_event(call);
	int ret;

	if (!probe && !tp)
		return perf_refuse(-EINVAL, "IOC_SET_BPF: trace event takes none",
				   event->attr.config);
	if ((probe && prog->type != BPF_PROG_TYPE_KPROBE) ||
	    (tp && prog->type != BPF_PROG_TYPE_TRACEPOINT))
		return perf_refuse(-EINVAL, "IOC_SET_BPF: program of another kind",
				   prog->type);
	if (prog->type == BPF_PROG_TYPE_KPROBE && prog->aux->sleepable &&
	    !uprobe)
		return perf_refuse(-EINVAL, "IOC_SET_BPF: sleepable on a kprobe",
				   prog->type);
	/* A tracepoint program may read no further than the record goes. */
	if (tp && prog->aux->max_ctx_offset > trace_event_get_offsets(call))
		return perf_refuse(-EACCES, "IOC_SET_BPF: reads past the record",
				   prog->aux->max_ctx_offset);
	ret = perf_event_attach_bpf_prog(event, prog, bpf_cookie);
	if (ret)
		perf_refuse(ret, "IOC_SET_BPF: the trace event refused it", ret);
	return ret;
}
#else
static int perf_bpf_attach_trace(struct perf_event *event,
				 struct bpf_prog *prog, u64 bpf_cookie)
{
	return perf_refuse(-EOPNOTSUPP, "IOC_SET_BPF: no BPF events", 0);
}
#endif

/**
 * perf_event_set_bpf_prog - attach a BPF program to an event
 * @event: the event
 * @prog: the program; on success the event owns the caller's reference
 * @bpf_cookie: what bpf_get_attach_cookie() gives the program
 *
 * For PERF_EVENT_IOC_SET_BPF and BPF perf links (kernel/bpf/syscall.c).
 * Process context; may sleep.
 *
 * Return: 0; -EEXIST if the event has a program; -EINVAL for a program of
 * the wrong kind for the event, or an event of a kernel user; -EACCES
 * for a tracepoint program that reads past the record; -E2BIG if the
 * trace event has 64 programs already.
 */
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog,
			    u64 bpf_cookie)
{
	if (perf_bpf_is_tracing(event))
		return perf_bpf_attach_trace(event, prog, bpf_cookie);
	return perf_bpf_set_handler(event, prog, bpf_cookie);
}

/**
 * perf_event_free_bpf_prog - detach an event's BPF program, if any
 * @event: the event
 *
 * For BPF perf links, and when the event is freed.  Process context;
 * may sleep.
 */
void perf_event_free_bpf_prog(struct perf_event *event)
{
	struct bpf_prog *prog;

#ifdef CONFIG_BPF_EVENTS
	if (perf_bpf_is_tracing(event)) {
		perf_event_detach_bpf_prog(event);
		return;
	}
#endif
	/*
	 * Nothing to detach, the usual case when an event is freed: nobody
	 * can attach a program to an event whose last reference is gone.
	 */
	if (!READ_ONCE(event->prog))
		return;
	mutex_lock(&perf_bpf_mutex);
	prog = event->prog;
	WRITE_ONCE(event->prog, NULL);
	mutex_unlock(&perf_bpf_mutex);
	/* Overflows still running it hold the RCU read lock. */
	if (prog)
		bpf_prog_put(prog);
}

/**
 * perf_bpf_inherit - give a new inherited copy its parent's program
 * @event: the copy, not yet on any context
 * @parent: the event user space opened
 */
void perf_bpf_inherit(struct perf_event *event, struct perf_event *parent)
{
	if (perf_bpf_is_tracing(parent) || !READ_ONCE(parent->prog))
		return;
	mutex_lock(&perf_bpf_mutex);
	if (parent->prog) {
		bpf_prog_inc(parent->prog);
		event->bpf_cookie = parent->bpf_cookie;
		event->prog = parent->prog;
	}
	mutex_unlock(&perf_bpf_mutex);
}

/*
 * Run a perf-event program on @ctx.  One that calls the stack helpers
 * reads the sample's call chain, if the event samples one: it is
 * collected first, and the sample then writes the same.
 */
static bool perf_bpf_run(struct bpf_prog *prog,
			 struct bpf_perf_event_data_kern *ctx)
{
	struct perf_sample_data *data = ctx->data;
	struct perf_event *event = ctx->event;

	if (prog->call_get_stack &&
	    event->attr.sample_type & ~data->sample_flags &
	    PERF_SAMPLE_CALLCHAIN) {
		data->callchain = perf_callchain(event, ctx->regs);
		data->sample_flags |= PERF_SAMPLE_CALLCHAIN;
	}
	return bpf_prog_run(prog, ctx);
}

/**
 * perf_bpf_overflow - run an event's perf-event program on an overflow
 * @event: the event
 * @data: the sample
 * @regs: the registers at the overflow
 *
 * Any context, NMI included.  The program gets the call chain in @data
 * if the event samples one and the program asks for stacks.  It does not
 * run while another BPF program runs on this CPU (the overflow
 * interrupted it): the sample is then dropped, as in 6.1.
 *
 * Return: true if the sample is to be written.
 */
bool perf_bpf_overflow(struct perf_event *event,
		       struct perf_sample_data *data, struct pt_regs *regs)
{
	struct bpf_perf_event_data_kern ctx = {
		.data	= data,
		.regs	= perf_arch_bpf_user_pt_regs(regs),
		.event	= event,
	};
	struct bpf_prog *prog;
	bool keep = false;

	/* Such an event's program runs when its trace event fires. */
	if (perf_bpf_is_tracing(event))
		return true;
	/* Nested in another program on this CPU: dropped. */
	if (__this_cpu_inc_return(bpf_prog_active) == 1) {
		rcu_read_lock();
		/* Pairs with perf_bpf_set_handler(): the cookie is set. */
		prog = smp_load_acquire(&event->prog);
		keep = !prog || perf_bpf_run(prog, &ctx);
		rcu_read_unlock();
	}
	__this_cpu_dec(bpf_prog_active);
	return keep;
}

/**
 * perf_bpf_ioctl - PERF_EVENT_IOC_SET_BPF and PERF_EVENT_IOC_QUERY_BPF
 * @event: the event
 * @cmd: the command
 * @arg: SET_BPF: a BPF program's descriptor; QUERY_BPF: a struct
 *	perf_event_query_bpf in user memory
 *
 * With the context's mutex held.
 *
 * Return: 0, or the errors of perf_event_set_bpf_prog() and bpf_prog_get()
 * (-EBADF, -EINVAL); for QUERY_BPF, those of perf_event_query_prog_array():
 * -EPERM without CAP_PERFMON, -EINVAL for an event that is not of the
 * tracepoint PMU, -E2BIG for ids_len above 64, -ENOSPC (with prog_cnt
 * written) if the ids do not fit, -EFAULT.
 */
int perf_bpf_ioctl(struct perf_event *event, unsigned int cmd,
		   unsigned long arg)
{
	struct bpf_prog *prog;
	int ret;

	if (cmd == PERF_EVENT_IOC_QUERY_BPF) {
#ifdef CONFIG_BPF_EVENTS
		ret = perf_event_query_prog_array(event, (void __user *)arg);
		return ret ? perf_refuse(ret, "IOC_QUERY_BPF: refused", ret) : 0;
#else
		return perf_refuse(-EOPNOTSUPP, "IOC_QUERY_BPF: no BPF events",
				   arg);
#endif
	}

	prog = bpf_prog_get(arg);
	if (IS_ERR(prog))
		return perf_refuse(PTR_ERR(prog), "IOC_SET_BPF: not a BPF program",
				   arg);
	ret = perf_event_set_bpf_prog(event, prog, 0);
	if (ret)
		bpf_prog_put(prog);
	return ret;
}

/* BPF_EVENT */

struct perf_bpf_event_sb {
	struct {
		u16	type;
		u16	flags;
		u32	id;
		u8	tag[BPF_TAG_SIZE];
	} rec;
};

static void perf_bpf_event_output(struct perf_event *event, void *data)
{
	struct perf_bpf_event_sb *b = data;
	struct perf_event_header header = { .type = PERF_RECORD_BPF_EVENT };

	if (event->attr.bpf_event)
		perf_sb_output(event, &header, &b->rec, sizeof(b->rec), NULL, 0);
}

static void perf_bpf_ksymbols(struct bpf_prog *prog, bool unregister)
{
	struct bpf_prog *fn;
	u32 i, n = prog->aux->func_cnt;

	for (i = 0; i < max(n, 1U); i++) {
		fn = n ? prog->aux->func[i] : prog;
		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
				   (unsigned long)fn->bpf_func, fn->jited_len,
				   unregister, fn->aux->ksym.name);
	}
}

/**
 * perf_event_bpf_event - a BPF program was loaded or is being unloaded
 * @prog: the program
 * @type: PERF_BPF_EVENT_PROG_LOAD or PERF_BPF_EVENT_PROG_UNLOAD
 * @flags: the record's flags (none are defined)
 *
 * From kernel/bpf/syscall.c, process context.  Writes PERF_RECORD_KSYMBOL
 * for the program's functions (one for each subprogram, or one for the
 * whole), then PERF_RECORD_BPF_EVENT with its id and tag.  Another @type
 * is ignored.
 */
void perf_event_bpf_event(struct bpf_prog *prog,
			  enum perf_bpf_event_type type, u16 flags)
{
	struct perf_bpf_event_sb b = {
		.rec = {
			.type	= type,
			.flags	= flags,
			.id	= prog->aux->id,
		},
	};

	if (type != PERF_BPF_EVENT_PROG_LOAD &&
	    type != PERF_BPF_EVENT_PROG_UNLOAD)
		return;
	perf_bpf_ksymbols(prog, type == PERF_BPF_EVENT_PROG_UNLOAD);
	if (!atomic_read(&perf_sb_nr[PERF_SB_BPF_EVENT]))
		return;
	BUILD_BUG_ON(sizeof(b.rec.tag) != sizeof(prog->tag));
	memcpy(b.rec.tag, prog->tag, sizeof(b.rec.tag));
	perf_sb_deliver(NULL, true, true, perf_bpf_event_output, &b);
}
