/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event: the in-kernel interface of the performance events subsystem.
 *
 * The rest of the kernel calls into perf through this header: the
 * scheduler (context switch, migration, tick), fork/exit/exec, the page
 * fault handlers (software events), trace events, hardware breakpoints
 * and ptrace, and the x86 architecture code.  PMU drivers describe
 * themselves with struct pmu and are called back by the core.
 *
 * Documentation/core-api/perf_event_contract.rst lists the entry points
 * other subsystems use and what each promises.
 */
#ifndef _LINUX_PERF_EVENT_H
#define _LINUX_PERF_EVENT_H

#include <uapi/linux/perf_event.h>
#include <uapi/linux/bpf_perf_event.h>

#ifdef CONFIG_PERF_EVENTS
#include <asm/local64.h>
#include <asm/perf_event.h>
#endif
#ifdef CONFIG_HAVE_HW_BREAKPOINT
#include <asm/hw_breakpoint.h>
#endif
#include <asm/local.h>

/*
 * Many users reach the headers below through this one; keep them here so
 * that including <linux/perf_event.h> stays enough for them.
 */
#include <linux/atomic.h>
#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/perf_regs.h>
#include <linux/pid_namespace.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/security.h>
#include <linux/spinlock.h>
#include <linux/static_call.h>
#include <linux/static_key.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

struct bpf_prog;
struct perf_cgroup;
struct perf_mux_cpu;
struct perf_event;
struct perf_buffer;
struct perf_event_context;
struct perf_sample_data;
struct pmu;
struct task_struct;
struct vm_area_struct;

/**
 * typedef perf_overflow_handler_t - what a kernel user runs on overflow
 *
 * Called with the event, the sample, and the registers at the overflow;
 * ptrace and the breakpoint users install one.
 */
typedef void (*perf_overflow_handler_t)(struct perf_event *,
					struct perf_sample_data *,
					struct pt_regs *regs);

/**
 * struct hw_perf_event - an event's state that belongs to its PMU driver
 *
 * The core reads @state and sets @target; the rest is the driver's.
 */
struct hw_perf_event {
#ifdef CONFIG_PERF_EVENTS
	/* The task a per-task event follows; NULL for a CPU-wide event. */
	struct task_struct		*target;

	/* PERF_HES_* */
	int				state;

	/* Counter value at the last update, to compute what was added. */
	local64_t			prev_count;

	/* Sampling: the period, the last one used, and what is left. */
	u64				sample_period;
	u64				last_period;
	local64_t			period_left;

	/*
	 * Throttling: overflows in the current tick, and the tick they were
	 * counted in; PERF_HW_THROTTLED once the event was throttled.
	 */
	u64				interrupts_seq;
	u64				interrupts;

	/* Frequency mode: the count and time of the last adjustment. */
	u64				freq_time_stamp;
	u64				freq_count_stamp;

	union {
		/* Tracepoint events: their entry on the trace event's list. */
		struct list_head	tp_list;
		/* Software clock events: the timer they sample from. */
		struct hrtimer		hrtimer;
		/*
		 * x86 counter events (arch/x86/events/): the event select
		 * value (less the enable bit), the counters it may use, the
		 * one it has (-1: none) and X86_EVENT_* flags.
		 */
		struct {
			u64			config;
			u64			counters;
			int			idx;
			unsigned int		x86_flags;
		};
#ifdef CONFIG_HAVE_HW_BREAKPOINT
		/*
		 * Breakpoint events: the debug register setting, and for a
		 * per-task one its entry among its task's breakpoints in the
		 * slot accounting (kernel/events/bp_slots.c).
		 */
		struct {
			struct arch_hw_breakpoint info;
			struct hlist_node	bp_node;
		};
#endif
	};
#endif
};

/* hw_perf_event::interrupts of an event throttled until the next tick */
#define PERF_HW_THROTTLED	(~0ULL)

/* hw_perf_event::state */
#define PERF_HES_STOPPED	0x01	/* not counting */
#define PERF_HES_UPTODATE	0x02	/* event->count includes everything */

/* Flags to pmu::add(), pmu::start() and pmu::stop(). */
#define PERF_EF_START		0x01	/* add() also starts the counter */
#define PERF_EF_RELOAD		0x02	/* start() reloads the period */
#define PERF_EF_UPDATE		0x04	/* stop() updates event->count */

/* pmu::capabilities */
#define PERF_PMU_CAP_NO_INTERRUPT	0x0001	/* cannot sample */
#define PERF_PMU_CAP_NO_NMI		0x0002	/* overflows are not NMIs */
#define PERF_PMU_CAP_EXTENDED_REGS	0x0008	/* samples PERF_REG_EXTENDED_MASK */
#define PERF_PMU_CAP_NO_EXCLUDE		0x0080	/* refuses exclude_* bits */
#define PERF_PMU_CAP_AUX_OUTPUT		0x0100	/* may write to an AUX leader */
#define PERF_PMU_CAP_UNLIMITED		0x8000	/* never out of counters */

/**
 * struct pmu - a performance monitoring unit, as the core sees it
 * @entry: on the core's list of PMUs
 * @name: its name under /sys/bus/event_source/devices/
 * @type: the number attr.type names it by
 * @module: the module providing it, if any
 * @dev: its device under /sys/bus/event_source/devices/
 * @attr_groups: the driver's sysfs attributes (format/, events/, ...)
 * @capabilities: PERF_PMU_CAP_*
 * @pmu_disable_count: per-CPU nesting of perf_pmu_disable()
 * @hrtimer_interval_ms: how often its events are rotated when multiplexed
 * @mux: per-CPU rotation timers (kernel/events/rotate.c)
 * @event_init: claim and set up a new event: 0, -ENOENT if it is not
 *	this PMU's, another error if it is but cannot be had
 * @add: put an event on the PMU of this CPU (interrupts off)
 * @del: take it off again
 * @start: resume counting without giving the counter up
 * @stop: pause counting
 * @read: bring event->count up to date (on the event's CPU)
 * @pmu_enable: resume the whole PMU after perf_pmu_disable()
 * @pmu_disable: hold the whole PMU while it is being reprogrammed
 * @filter_match: whether an event may run on this CPU now (optional)
 * @event_mapped: an event's buffer was mapped into an mm (optional;
 *	with the mm's mmap_lock held)
 * @event_unmapped: a mapping of it went away (optional)
 *
 * A driver fills in the callbacks and calls perf_pmu_register().
 */
struct pmu {
	struct list_head		entry;
	const char			*name;
	int				type;
	struct module			*module;
	struct device			*dev;
	const struct attribute_group	**attr_groups;
	int				capabilities;
	int __percpu			*pmu_disable_count;
	int				hrtimer_interval_ms;
	struct perf_mux_cpu __percpu	*mux;

	int (*event_init)(struct perf_event *event);
	int (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);
	void (*read)(struct perf_event *event);
	void (*pmu_enable)(struct pmu *pmu);
	void (*pmu_disable)(struct pmu *pmu);
	int (*filter_match)(struct perf_event *event);
	void (*event_mapped)(struct perf_event *event, struct mm_struct *mm);
	void (*event_unmapped)(struct perf_event *event, struct mm_struct *mm);
};

/*
 * enum perf_event_state - where an event is in its life.  The order
 * matters: everything at or above INACTIVE is enabled.
 */
enum perf_event_state {
	PERF_EVENT_STATE_DEAD = -4,	/* being freed */
	PERF_EVENT_STATE_EXIT,		/* its task exited; count readable */
	PERF_EVENT_STATE_ERROR,		/* pinned, but could not be scheduled */
	PERF_EVENT_STATE_OFF,		/* disabled */
	PERF_EVENT_STATE_INACTIVE,	/* enabled, not on its PMU now */
	PERF_EVENT_STATE_ACTIVE,	/* enabled and counting */
};

/* perf_event::attach_state */
#define PERF_ATTACH_CONTEXT	0x01	/* on its context's lists */
#define PERF_ATTACH_GROUP	0x02	/* a sibling in a group */
#define PERF_ATTACH_TASK	0x04	/* follows a task */
#define PERF_ATTACH_CALLCHAIN	0x08	/* counted in callchain users */

/* perf_event::group_caps */
#define PERF_EV_CAP_SOFTWARE	BIT(0)	/* counted by the kernel itself */

/**
 * struct perf_event - one performance event
 *
 * Created by perf_event_open() or perf_event_create_kernel_counter(),
 * owned by its file (or a kernel user) and attached to one context.
 *
 * Locking: the context lists, @state and the times change only under the
 * context's lock, on the CPU the context runs on; changes that may sleep
 * (open, close, exit) also hold the context's mutex.  @count is added to
 * on the CPU the event is active on and may be read from anywhere.
 */
struct perf_event {
#ifdef CONFIG_PERF_EVENTS
	struct perf_event_attr		attr;
	struct hw_perf_event		hw;
	struct pmu			*pmu;
	struct perf_event_context	*ctx;

	enum perf_event_state		state;
	unsigned int			attach_state;
	int				group_caps;
	/* The CPU it must run on (-1: any) and the one it is active on. */
	int				cpu;
	int				oncpu;
	u64				id;

	local64_t			count;
	/* Counts handed back by inherited children that exited. */
	atomic64_t			child_count;
	/* Context time while enabled and while active, and when updated. */
	u64				total_time_enabled;
	u64				total_time_running;
	u64				tstamp;
#ifdef CONFIG_CGROUP_PERF
	/* A cgroup event's cgroup (PERF_FLAG_PID_CGROUP), or NULL. */
	struct perf_cgroup		*cgrp;
#endif

	/* All events of the context; groups; members of this group. */
	struct list_head		event_entry;
	struct list_head		group_entry;
	struct perf_event		*group_leader;
	struct list_head		sibling_list;
	struct list_head		sibling_entry;
	int				nr_siblings;

	/* On a per-CPU list of the software or tracepoint path. */
	struct hlist_node		hlist_entry;
	/* On its context's sb_list, if it wants side-band records. */
	struct list_head		sb_entry;

	atomic_long_t			refcount;
	/* poll() waits here; woken when the event's task exits. */
	wait_queue_head_t		waitq;
	/* The task that created it, for prctl(); on its perf_event_list. */
	struct task_struct		*owner;
	struct list_head		owner_entry;
	/*
	 * Inheritance: a child task's copy points to the event that user
	 * space opened (@parent), which keeps its live copies on
	 * @child_list, under @child_mutex, and sums up those that exited
	 * in @child_count and the child times.
	 */
	struct perf_event		*parent;
	struct mutex			child_mutex;	/* guards child_list */
	struct list_head		child_list;
	struct list_head		child_entry;
	u64				child_total_time_enabled;
	u64				child_total_time_running;
	struct pid_namespace		*ns;

	perf_overflow_handler_t		overflow_handler;
	void				*overflow_handler_context;

	/*
	 * Output (kernel/events/ring_buffer.c, mmap.c): the buffer samples
	 * and records go to, this event's own or the one it was redirected
	 * to, and the entry on that buffer's list of writers.  Both change
	 * under perf_mmap_mutex only; writers read @rb under RCU.
	 * @mmap_count counts the mappings made through this event.
	 */
	struct perf_buffer __rcu	*rb;
	struct list_head		rb_entry;
	atomic_t			mmap_count;
	/* Records this event could not write (PERF_FORMAT_LOST). */
	atomic64_t			lost_samples;
	/* The timestamp clock of records (attr.use_clockid). */
	u64				(*clock)(void);

	/*
	 * Work an overflow asks for but cannot do where it happens (NMI,
	 * under the runqueue lock): done by @pending_irq on the same CPU.
	 * PERF_PENDING_* bits in @pending, the signal for SIGIO in
	 * @pending_kill, the address for sigtrap in @pending_addr.
	 */
	struct irq_work			pending_irq;
	unsigned long			pending;
	int				pending_kill;
	u64				pending_addr;
	struct fasync_struct		*fasync;
	/* Overflows left before the event disables itself (IOC_REFRESH). */
	atomic_t			event_limit;
	void				(*destroy)(struct perf_event *event);
	struct rcu_head			rcu_head;

#ifdef CONFIG_EVENT_TRACING
	struct trace_event_call		*tp_event;
	struct event_filter		*filter;
#endif
#ifdef CONFIG_BPF_SYSCALL
	/*
	 * The BPF program attached to the event (kernel/events/bpf.c) and
	 * the cookie bpf_get_attach_cookie() gives it.  A trace event based
	 * event's program runs from its trace event's program array
	 * (kernel/trace/bpf_trace.c, under its bpf_event_mutex); any other
	 * event's runs on each overflow, read under RCU, and changes under
	 * perf_bpf_mutex.
	 */
	struct bpf_prog			*prog;
	u64				bpf_cookie;
#endif
#endif /* CONFIG_PERF_EVENTS */
};

/*
 * PERF_SAMPLE_RAW data may come in pieces: @data and @size of each, with
 * @next the piece after it (NULL after the last; @pad is the same word).
 * A piece whose @copy is set is copied by it: @copy(dst, @data, offset,
 * length) returns what it could not copy.  BPF output brings up to two
 * (the program's data and a packet); bpf_trace.c initialises the union
 * without naming it, so it stays the first member.
 */
struct perf_raw_frag {
	union {
		/* NULL after the last piece */
		struct perf_raw_frag	*next;
		unsigned long		pad;
	};
	void				*data;
	u32				size;
	/* NULL: copied with memcpy() */
	unsigned long			(*copy)(void *to, const void *from,
						unsigned long skip,
						unsigned long n);
};

/*
 * The opaque data of a sample (PERF_SAMPLE_RAW): a trace event's entry,
 * or what a BPF program outputs.  The core adds up the pieces into
 * @size, and pads them so that the size word and the data end on 8
 * bytes.
 */
struct perf_raw_record {
	u32				size;
	struct perf_raw_frag		frag;
};

/*
 * A sample's taken branches (PERF_SAMPLE_BRANCH_STACK), @nr of them.  No
 * PMU here records branches: perf_sample_data::br_stack stays NULL and
 * bpf_read_branch_records() finds none.
 */
struct perf_branch_stack {
	__u64				nr;
	struct perf_branch_entry	entries[];
};

/**
 * struct perf_callchain_entry - a call chain as the sample carries it
 * @nr: entries in @ip, PERF_CONTEXT_* markers included
 * @ip: return addresses, innermost first
 */
struct perf_callchain_entry {
	u64				nr;
	u64				ip[];
};

/**
 * struct perf_callchain_entry_ctx - a call chain being collected
 * @entry: where it goes
 * @max_stack: how many addresses it may hold
 * @nr: addresses stored so far
 * @contexts: PERF_CONTEXT_* markers stored so far
 */
struct perf_callchain_entry_ctx {
	struct perf_callchain_entry	*entry;
	u32				max_stack;
	u32				nr;
	u16				contexts;
};

int perf_callchain_store(struct perf_callchain_entry_ctx *ctx, u64 ip);
/* Call chains for BPF's stack helpers (kernel/bpf/stackmap.c). */
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, u32 init_nr, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark);
int get_callchain_buffers(int max_stack);
void put_callchain_buffers(void);
struct perf_callchain_entry *get_callchain_entry(int *rctx);
void put_callchain_entry(int rctx);
/* The architecture's part of an event's mmap()ed control page. */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *up, u64 now);
/* The architecture walks the stacks: kernel and user (frame pointers). */
void perf_callchain_kernel(struct perf_callchain_entry_ctx *ctx,
			   struct pt_regs *regs);
void perf_callchain_user(struct perf_callchain_entry_ctx *ctx,
			 struct pt_regs *regs);

/* PERF_SAMPLE_TID, one u64 of a record: process id, then thread id. */
struct perf_sample_tid {
	u32				pid;
	u32				tid;
};

/* PERF_SAMPLE_CPU, one u64 of a record: the CPU and a zero. */
struct perf_sample_cpu {
	u32				cpu;
	u32				reserved;
};

/* PERF_SAMPLE_DATA_SRC when the PMU cannot tell: every part unknown. */
#define PERF_MEM_NA	(PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | \
			 PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) | \
			 PERF_MEM_S(TLB, NA))

/**
 * struct perf_sample_data - what one sample is made of
 *
 * The PMU fills in what it knows (perf_sample_data_init(): @addr and
 * @period; tracepoints @raw) and sets the matching bits of
 * @sample_flags; the core fills in the rest of attr.sample_type when
 * it writes the record, and never overwrites a field whose bit is set.
 */
struct perf_sample_data {
	u64				sample_flags;
	u64				period;
	u64				addr;
	struct perf_raw_record		*raw;
	struct perf_branch_stack	*br_stack;
	struct perf_callchain_entry	*callchain;
	u64				phys_addr;
	u64				data_page_size;
	u64				code_page_size;

	/* Filled in by the core. */
	u64				type;
	u64				ip;
	u64				time;
	u64				id;
	u64				stream_id;
	struct perf_sample_tid		tid_entry;
	struct perf_sample_cpu		cpu_entry;
	struct perf_regs		regs_user;
	struct perf_regs		regs_intr;
	u64				stack_user_size;
	u64				cgroup;
	u16				dyn_size;
} ____cacheline_aligned;

/**
 * perf_sample_data_init - start a sample
 * @data: the sample
 * @addr: the address it concerns (PERF_SAMPLE_ADDR), or 0
 * @period: how many events it stands for
 */
static inline void perf_sample_data_init(struct perf_sample_data *data,
					 u64 addr, u64 period)
{
	data->sample_flags = PERF_SAMPLE_PERIOD;
	data->period = period;
	data->addr = addr;
	if (addr)
		data->sample_flags |= PERF_SAMPLE_ADDR;
	data->raw = NULL;
}

/*
 * Take a snapshot of the CPU's last branch records into @entries (at most
 * @cnt) and return how many there were: for bpf_get_branch_snapshot().
 * A driver with branch records would update the static call; none here
 * has them, so it returns 0.
 */
typedef int (perf_snapshot_branch_stack_t)(struct perf_branch_entry *entries,
					   unsigned int cnt);
DECLARE_STATIC_CALL(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

/**
 * struct bpf_perf_event_data_kern - what a BPF_PROG_TYPE_PERF_EVENT
 *	program runs on
 * @regs: the registers at the overflow
 * @data: the sample (its period and addr are readable from the program)
 * @event: the event that overflowed
 */
struct bpf_perf_event_data_kern {
	bpf_user_pt_regs_t		*regs;
	struct perf_sample_data		*data;
	struct perf_event		*event;
};

/* The registers a perf-event program sees, from those of an overflow. */
#ifndef perf_arch_bpf_user_pt_regs
#define perf_arch_bpf_user_pt_regs(regs) (regs)
#endif

/**
 * struct perf_event_context - the events scheduled together on a CPU
 *
 * Each CPU has one for its CPU-wide events; each monitored task has one
 * (task_struct::perf_event_ctxp[0]) for its events on every PMU.
 *
 * Locking: @lock is a raw spinlock taken with interrupts off; it nests
 * inside the runqueue lock, because the scheduler hooks take it, so
 * nothing may wake a task or take a runqueue lock while holding it.  It
 * protects the lists, each event's state and times, @is_active and the
 * clock.  @mutex serialises open, close, read, ioctl and exit, which
 * take it first; list changes hold both.  Only the CPU a context is
 * scheduled in on changes it; others get there with an IPI.
 *
 * A task's context may change hands: at a switch between two tasks whose
 * contexts are copies of each other (same nonzero @clone_tag), the
 * scheduler hook gives the running context to the next task and the next
 * task's to the previous one, with both locks held (kernel/events/
 * context.c, ctx_swap()).  So @task and task_struct::perf_event_ctxp[0]
 * are stable only under @lock, or while @pin_count is raised.
 */
struct perf_event_context {
	raw_spinlock_t			lock;
	struct mutex			mutex;	/* see above */

	struct list_head		event_list;
	struct list_head		pinned_groups;
	struct list_head		flexible_groups;
	int				nr_events;
	int				nr_active;

	/*
	 * The events that want side-band records (kernel/events/records.c),
	 * a subset of event_list: changed under @lock with the _rcu list
	 * operations, walked under RCU from any CPU, with no lock.
	 */
	struct list_head		sb_list;

	/* Scheduled in on a CPU right now. */
	int				is_active;
	/* The task; NULL for a CPU's context; TASK_TOMBSTONE once exited. */
	struct task_struct		*task;
	int				cpu;

	/* The context clock: advances only while scheduled in. */
	u64				time;
	u64				timestamp;

	/*
	 * Swapping, under @lock.  Contexts with the same nonzero @clone_tag
	 * hold copies of the same events, in the same order and states; any
	 * change to the events clears it.  While @pin_count is raised the
	 * context stays with its task (raised under @lock, or by the task
	 * itself with interrupts off; dropped anywhere).  @nr_stat counts
	 * the inherit_stat events, @nr_own the events that are not copies.
	 */
	u64				clone_tag;
	atomic_t			pin_count;
	int				nr_stat;
	int				nr_own;

	refcount_t			refcount;
	struct rcu_head			rcu_head;
};

/* perf_event_context::task of a task that exited. */
#define TASK_TOMBSTONE ((void *)-1L)

/**
 * struct perf_cpu_context - the core's state on one CPU
 * @ctx: the context of the CPU-wide events
 * @task_ctx: the task context scheduled in on this CPU, or NULL
 */
struct perf_cpu_context {
	struct perf_event_context	ctx;
	struct perf_event_context	*task_ctx;
};

/* Interrupt levels of the software event path: task, softirq, irq, NMI. */
#define PERF_NR_CONTEXTS	4

/* Access checks, named for security_perf_event_open(). */
#define PERF_SECURITY_OPEN		0
#define PERF_SECURITY_CPU		1
#define PERF_SECURITY_KERNEL		2
#define PERF_SECURITY_TRACEPOINT	3

#ifndef PERF_NEEDS_LOPWR_CB
/* Entering or leaving a low-power state; only AMD's BRS needs to know. */
static inline void perf_lopwr_cb(bool lopwr_in)
{
}
#endif

#ifdef CONFIG_PERF_EVENTS

/* PMU drivers */
int perf_pmu_register(struct pmu *pmu, const char *name, int type);
void perf_pmu_unregister(struct pmu *pmu);
void perf_pmu_disable(struct pmu *pmu);
void perf_pmu_enable(struct pmu *pmu);
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs);
void perf_sample_event_took(u64 sample_len_ns);
int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs);
void perf_event_update_userpage(struct perf_event *event);
void perf_log_lost_samples(struct perf_event *event, u64 lost);

/* Kernel users of events */
struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t callback,
				 void *context);
int perf_event_release_kernel(struct perf_event *event);
void perf_event_enable(struct perf_event *event);
void perf_event_disable(struct perf_event *event);
struct file *perf_event_get(unsigned int fd);
const struct perf_event *perf_get_event(struct file *file);
const struct perf_event_attr *perf_event_attrs(struct perf_event *event);
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running);

/* BPF (kernel/events/bpf.c); the rest is in <linux/trace_events.h>. */
void perf_event_bpf_event(struct bpf_prog *prog,
			  enum perf_bpf_event_type type, u16 flags);

/* The scheduler */
void __perf_event_task_sched_in(struct task_struct *prev,
				struct task_struct *task);
void __perf_event_task_sched_out(struct task_struct *prev,
				 struct task_struct *next);
void perf_event_task_tick(void);

/* Tasks */
int perf_event_init_task(struct task_struct *child, u64 clone_flags);
void perf_event_free_task(struct task_struct *task);
void perf_event_fork(struct task_struct *task);
void perf_event_exit_task(struct task_struct *task);
void perf_event_delayed_put(struct task_struct *task);
void perf_event_exec(void);
void perf_event_comm(struct task_struct *task, bool exec);
void perf_event_namespaces(struct task_struct *task);
int perf_event_task_enable(void);
int perf_event_task_disable(void);

/* Memory and kernel text */
void perf_event_mmap(struct vm_area_struct *vma);
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes,
			  size_t new_len);
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *sym);

/* Tracepoints and breakpoints */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task);
void perf_bp_event(struct perf_event *event, void *data);
u64 perf_swevent_set_period(struct perf_event *event);

/* Boot and CPU hotplug (the cpuhp table in kernel/cpu.c) */
void perf_event_init(void);
int perf_event_init_cpu(unsigned int cpu);
int perf_event_exit_cpu(unsigned int cpu);

/* Sysctls: /proc/sys/kernel/perf_* (the table is in kernel/sysctl.c) */
extern int sysctl_perf_event_paranoid;
extern int sysctl_perf_event_mlock;
extern int sysctl_perf_event_sample_rate;
extern int sysctl_perf_cpu_time_max_percent;
extern int sysctl_perf_event_max_stack;
extern int sysctl_perf_event_max_contexts_per_stack;
int perf_proc_update_handler(struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos);
int perf_cpu_time_max_percent_handler(struct ctl_table *table, int write,
				      void *buffer, size_t *lenp,
				      loff_t *ppos);
int perf_event_max_stack_handler(struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos);

/**
 * is_sampling_event - does the event take samples, or only count?
 * @event: the event
 *
 * Return: true if it has a sample period (or frequency).
 */
static inline bool is_sampling_event(struct perf_event *event)
{
	return event->attr.sample_period != 0;
}

/**
 * perf_is_paranoid - is perf_event_paranoid restricting anything?
 *
 * Return: true unless the sysctl is -1.
 */
static inline bool perf_is_paranoid(void)
{
	return sysctl_perf_event_paranoid > -1;
}

/*
 * One access check: refused with @err if perf_event_paranoid is above
 * @level and the caller lacks CAP_PERFMON; otherwise the security
 * module decides about @what (PERF_SECURITY_*).
 */
static inline int perf_access_check(struct perf_event_attr *attr, int level,
				    int err, int what)
{
	if (sysctl_perf_event_paranoid > level && !perfmon_capable())
		return err;
	return security_perf_event_open(attr, what);
}

/* May the caller count or sample in the kernel?  0 or -EACCES. */
static inline int perf_allow_kernel(struct perf_event_attr *attr)
{
	return perf_access_check(attr, 1, -EACCES, PERF_SECURITY_KERNEL);
}

/* May the caller monitor every task on a CPU?  0 or -EACCES. */
static inline int perf_allow_cpu(struct perf_event_attr *attr)
{
	return perf_access_check(attr, 0, -EACCES, PERF_SECURITY_CPU);
}

/* May the caller read raw tracepoint records?  0 or -EPERM. */
static inline int perf_allow_tracepoint(struct perf_event_attr *attr)
{
	return perf_access_check(attr, -1, -EPERM, PERF_SECURITY_TRACEPOINT);
}

/*
 * Software events.  perf_swevent_enabled[id] counts the events of each
 * kind, so that perf_sw_event() is a patched-out branch while there are
 * none.  __perf_regs[] holds the registers of events raised where there
 * is no interrupt frame, one set per interrupt level.
 */
extern struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX];
DECLARE_PER_CPU(struct pt_regs, __perf_regs[PERF_NR_CONTEXTS]);

void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr);
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr);
int perf_swevent_get_recursion_context(void);
void perf_swevent_put_recursion_context(int rctx);

static __always_inline bool __perf_sw_enabled(int event_id)
{
	return static_key_false(&perf_swevent_enabled[event_id]);
}

/**
 * perf_sw_event - count a software event
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many occurrences
 * @regs: the registers where it happened, or NULL
 * @addr: the address it concerns (a faulting address), or 0
 */
static __always_inline void
perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	if (__perf_sw_enabled(event_id))
		__perf_sw_event(event_id, nr, regs, addr);
}

/**
 * perf_fetch_caller_regs - registers describing our caller
 * @regs: filled with the caller's instruction pointer, stack and mode
 */
static inline void perf_fetch_caller_regs(struct pt_regs *regs)
{
	perf_arch_fetch_caller_regs(regs, CALLER_ADDR0);
}

/*
 * On while any per-task event exists (and for a while after the last
 * goes, kernel/events/context.c): the scheduler calls in.
 */
extern struct static_key_false_deferred perf_sched_events;

/**
 * perf_event_task_migrate - a task was moved to another CPU
 * @task: the task
 *
 * From set_task_cpu().  The migration is counted when the task next runs,
 * on its new CPU.
 */
static inline void perf_event_task_migrate(struct task_struct *task)
{
	if (__perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS))
		task->sched_migrated = 1;
}

/**
 * perf_event_task_sched_in - @task now runs on this CPU
 * @prev: the task that ran before
 * @task: the task now running
 *
 * From finish_task_switch(), runqueue locked, interrupts off.  Costs two
 * patched-out branches while nobody monitors tasks or migrations.
 */
static inline void perf_event_task_sched_in(struct task_struct *prev,
					    struct task_struct *task)
{
	if (static_branch_unlikely(&perf_sched_events.key) ||
	    __perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS))
		__perf_event_task_sched_in(prev, task);
}

/**
 * perf_event_task_sched_out - @prev is leaving this CPU for @next
 * @prev: the task leaving
 * @next: the task coming
 *
 * From prepare_task_switch(), runqueue locked, interrupts off.  Costs
 * patched-out branches while nobody monitors tasks, cgroups or switches.
 */
static inline void perf_event_task_sched_out(struct task_struct *prev,
					     struct task_struct *next)
{
	if (static_branch_unlikely(&perf_sched_events.key) ||
	    __perf_sw_enabled(PERF_COUNT_SW_CONTEXT_SWITCHES) ||
	    (IS_ENABLED(CONFIG_CGROUP_PERF) &&
	     __perf_sw_enabled(PERF_COUNT_SW_CGROUP_SWITCHES)))
		__perf_event_task_sched_out(prev, next);
}

#else /* !CONFIG_PERF_EVENTS */

static inline void perf_event_task_migrate(struct task_struct *task) { }
static inline void perf_event_task_sched_in(struct task_struct *prev,
					    struct task_struct *task) { }
static inline void perf_event_task_sched_out(struct task_struct *prev,
					     struct task_struct *next) { }
static inline void perf_event_task_tick(void) { }
static inline int perf_event_init_task(struct task_struct *child,
				       u64 clone_flags) { return 0; }
static inline void perf_event_free_task(struct task_struct *task) { }
static inline void perf_event_fork(struct task_struct *task) { }
static inline void perf_event_exit_task(struct task_struct *task) { }
static inline void perf_event_delayed_put(struct task_struct *task) { }
static inline void perf_event_exec(void) { }
static inline void perf_event_comm(struct task_struct *task, bool exec) { }
static inline void perf_event_namespaces(struct task_struct *task) { }
static inline int perf_event_task_enable(void) { return -EINVAL; }
static inline int perf_event_task_disable(void) { return -EINVAL; }
static inline void perf_event_mmap(struct vm_area_struct *vma) { }
static inline void perf_event_text_poke(const void *addr,
					const void *old_bytes, size_t old_len,
					const void *new_bytes,
					size_t new_len) { }
static inline void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len,
				      bool unregister, const char *sym) { }
static inline void perf_event_bpf_event(struct bpf_prog *prog,
					enum perf_bpf_event_type type,
					u16 flags) { }
static inline int perf_event_read_local(struct perf_event *event, u64 *value,
					u64 *enabled, u64 *running)
{
	return -EINVAL;
}

static inline void perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs,
				 u64 addr) { }
static inline void perf_bp_event(struct perf_event *event, void *data) { }
static inline void perf_event_init(void) { }
static inline int perf_swevent_get_recursion_context(void) { return -1; }
static inline void perf_swevent_put_recursion_context(int rctx) { }
static inline int perf_event_release_kernel(struct perf_event *event)
{
	return 0;
}

static inline void perf_event_enable(struct perf_event *event) { }
static inline void perf_event_disable(struct perf_event *event) { }
#define perf_event_init_cpu	NULL
#define perf_event_exit_cpu	NULL

#endif /* CONFIG_PERF_EVENTS */

#endif /* _LINUX_PERF_EVENT_H */
