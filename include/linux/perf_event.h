/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event: the in-kernel interface of the performance events subsystem.
 *
 * The rest of the kernel calls into perf through this header: the
 * scheduler (context switch, migration, tick), fork/exit/exec, the page
 * fault handlers (software events), trace events and ftrace, hardware
 * breakpoints and ptrace, and the x86 architecture code.  PMU drivers
 * describe themselves with struct pmu and are called back by the core.
 *
 * Documentation/core-api/perf_event_contract.rst lists every entry point
 * other subsystems use and what it promises.
 */
#ifndef _LINUX_PERF_EVENT_H
#define _LINUX_PERF_EVENT_H

#include <uapi/linux/perf_event.h>
#include <uapi/linux/bpf_perf_event.h>

/* Architecture bits: caller-register capture, x86 capability structures. */
#ifdef CONFIG_PERF_EVENTS
# include <asm/perf_event.h>
# include <asm/local64.h>
#endif

#define PERF_GUEST_ACTIVE	0x01
#define PERF_GUEST_USER		0x02

struct perf_guest_info_callbacks {
	unsigned int			(*state)(void);
	unsigned long			(*get_ip)(void);
	unsigned int			(*handle_intel_pt_intr)(void);
};

#ifdef CONFIG_HAVE_HW_BREAKPOINT
#include <asm/hw_breakpoint.h>
#endif

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/hrtimer.h>
#include <linux/fs.h>
#include <linux/pid_namespace.h>
#include <linux/workqueue.h>
#include <linux/ftrace.h>
#include <linux/cpu.h>
#include <linux/irq_work.h>
#include <linux/static_key.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/atomic.h>
#include <linux/sysfs.h>
#include <linux/perf_regs.h>
#include <linux/cgroup.h>
#include <linux/refcount.h>
#include <linux/security.h>
#include <linux/static_call.h>
#include <asm/local.h>

struct perf_callchain_entry {
	__u64				nr;
	__u64				ip[]; /* /proc/sys/kernel/perf_event_max_stack */
};

struct perf_callchain_entry_ctx {
	struct perf_callchain_entry	*entry;
	u32				max_stack;
	u32				nr;
	short				contexts;
	bool				contexts_maxed;
};

typedef unsigned long (*perf_copy_f)(void *dst, const void *src,
				     unsigned long off, unsigned long len);

struct perf_raw_frag {
	union {
		struct perf_raw_frag	*next;
		unsigned long		pad;
	};
	perf_copy_f			copy;
	void				*data;
	u32				size;
} __packed;

struct perf_raw_record {
	struct perf_raw_frag		frag;
	u32				size;
};

struct perf_branch_stack {
	__u64				nr;
	__u64				hw_idx;
	struct perf_branch_entry	entries[];
};

struct task_struct;
struct bpf_prog;
struct perf_event;
struct perf_event_context;
struct perf_cpu_context;
struct perf_sample_data;
struct perf_output_handle;
struct perf_buffer;
struct pmu;

/**
 * struct hw_perf_event - the PMU-private state of one event
 *
 * Owned by the event's PMU driver, except @state, which the core reads,
 * and @target, which the core sets for per-task events.
 */
struct hw_perf_event {
#ifdef CONFIG_PERF_EVENTS
	union {
		struct { /* hardware counters */
			u64		config;
			u64		last_tag;
			unsigned long	config_base;
			unsigned long	event_base;
			int		event_base_rdpmc;
			int		idx;
			int		last_cpu;
			int		flags;
		};
		struct { /* software: hrtimer based clocks */
			struct hrtimer	hrtimer;
		};
		struct { /* tracepoints */
			struct list_head	tp_list;
		};
#ifdef CONFIG_HAVE_HW_BREAKPOINT
		struct { /* breakpoints */
			struct arch_hw_breakpoint	info;
			struct rhlist_head		bp_list;
		};
#endif
	};
	/* The task a per-task event follows; NULL for CPU-wide events. */
	struct task_struct		*target;

	/* PMU private data, e.g. a trace_uprobe filter. */
	void				*addr_filters;

	/* PERF_HES_* bits. */
	int				state;

	/* The counter value at the last update, for computing deltas. */
	local64_t			prev_count;

	/* Sampling (PERF_SAMPLE_*): the period and what is left of it. */
	u64				sample_period;
	union {
		u64			last_period;
		u64			freq_time_stamp;
	};
	local64_t			period_left;
	u64				interrupts_seq;
	u64				interrupts;
	u64				freq_count_stamp;
#endif
};

/* hw_perf_event::state */
#define PERF_HES_STOPPED	0x01 /* the counter is stopped */
#define PERF_HES_UPTODATE	0x02 /* event->count is up to date */
#define PERF_HES_ARCH		0x04

/* Flags for pmu::add(), pmu::start() and pmu::stop(). */
#define PERF_EF_START	0x01 /* start the counter when adding it */
#define PERF_EF_RELOAD	0x02 /* reload the counter when starting it */
#define PERF_EF_UPDATE	0x04 /* update the counter when stopping it */

/* pmu::capabilities */
#define PERF_PMU_CAP_NO_INTERRUPT		0x0001
#define PERF_PMU_CAP_NO_NMI			0x0002
#define PERF_PMU_CAP_AUX_NO_SG			0x0004
#define PERF_PMU_CAP_EXTENDED_REGS		0x0008
#define PERF_PMU_CAP_EXCLUSIVE			0x0010
#define PERF_PMU_CAP_ITRACE			0x0020
#define PERF_PMU_CAP_HETEROGENEOUS_CPUS		0x0040
#define PERF_PMU_CAP_NO_EXCLUDE			0x0080
#define PERF_PMU_CAP_AUX_OUTPUT			0x0100
#define PERF_PMU_CAP_EXTENDED_HW_TYPE		0x0200

/* pmu::task_ctx_nr: which kind of context the PMU's task events use. */
enum perf_event_task_context_kind {
	perf_invalid_context_kind = -1,
	perf_hw_context_kind = 0,
	perf_sw_context_kind,
};

/**
 * struct pmu - a performance monitoring unit, as the core sees it
 *
 * A driver fills in the callbacks and registers with perf_pmu_register().
 * The core calls event_init() when an event is opened, add()/del() with
 * interrupts disabled on the CPU the event counts on when it schedules
 * the event in and out, start()/stop() to pause it without giving up the
 * counter, and read() to bring event->count up to date.
 */
struct pmu {
	struct list_head		entry;

	struct module			*module;
	struct device			*dev;
	const struct attribute_group	**attr_groups;
	const struct attribute_group	**attr_update;
	const char			*name;
	int				type;

	int				capabilities;

	int __percpu			*pmu_disable_count;
	struct perf_cpu_context __percpu *pmu_cpu_context;
	atomic_t			exclusive_cnt;
	int				task_ctx_nr;
	int				hrtimer_interval_ms;

	unsigned int			nr_addr_filters;

	void (*pmu_enable)(struct pmu *pmu);
	void (*pmu_disable)(struct pmu *pmu);

	int (*event_init)(struct perf_event *event);
	void (*event_mapped)(struct perf_event *event, struct mm_struct *mm);
	void (*event_unmapped)(struct perf_event *event, struct mm_struct *mm);

	int  (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);
	void (*read)(struct perf_event *event);

	void (*start_txn)(struct pmu *pmu, unsigned int txn_flags);
	int  (*commit_txn)(struct pmu *pmu);
	void (*cancel_txn)(struct pmu *pmu);

	int (*event_idx)(struct perf_event *event);
	void (*sched_task)(struct perf_event_context *ctx, bool sched_in);
	struct kmem_cache		*task_ctx_cache;
	void (*swap_task_ctx)(struct perf_event_context *prev,
			      struct perf_event_context *next);

	void *(*setup_aux)(struct perf_event *event, void **pages,
			   int nr_pages, bool overwrite);
	void (*free_aux)(void *aux);
	long (*snapshot_aux)(struct perf_event *event,
			     struct perf_output_handle *handle,
			     unsigned long size);

	int (*addr_filters_validate)(struct list_head *filters);
	void (*addr_filters_sync)(struct perf_event *event);
	int (*aux_output_match)(struct perf_event *event);
	int (*filter_match)(struct perf_event *event);
	int (*check_period)(struct perf_event *event, u64 value);
};

#define PERF_PMU_TXN_ADD	0x1
#define PERF_PMU_TXN_READ	0x2

enum perf_addr_filter_action_t {
	PERF_ADDR_FILTER_ACTION_STOP = 0,
	PERF_ADDR_FILTER_ACTION_START,
	PERF_ADDR_FILTER_ACTION_FILTER,
};

/**
 * enum perf_event_state - where an event is in its life
 * @PERF_EVENT_STATE_DEAD: freed or being freed
 * @PERF_EVENT_STATE_EXIT: its task exited; the final count stays readable
 * @PERF_EVENT_STATE_ERROR: a pinned group that could not be scheduled
 * @PERF_EVENT_STATE_OFF: disabled
 * @PERF_EVENT_STATE_INACTIVE: enabled, not on the PMU at the moment
 * @PERF_EVENT_STATE_ACTIVE: enabled and counting on the PMU
 */
enum perf_event_state {
	PERF_EVENT_STATE_DEAD		= -4,
	PERF_EVENT_STATE_EXIT		= -3,
	PERF_EVENT_STATE_ERROR		= -2,
	PERF_EVENT_STATE_OFF		= -1,
	PERF_EVENT_STATE_INACTIVE	=  0,
	PERF_EVENT_STATE_ACTIVE		=  1,
};

typedef void (*perf_overflow_handler_t)(struct perf_event *,
					struct perf_sample_data *,
					struct pt_regs *regs);

/* perf_event::attach_state */
#define PERF_ATTACH_CONTEXT	0x01
#define PERF_ATTACH_GROUP	0x02
#define PERF_ATTACH_TASK	0x04
#define PERF_ATTACH_TASK_DATA	0x08
#define PERF_ATTACH_ITRACE	0x10
#define PERF_ATTACH_SCHED_CB	0x20
#define PERF_ATTACH_CHILD	0x40

/* perf_event::group_caps */
#define PERF_EV_CAP_SOFTWARE		BIT(0)
#define PERF_EV_CAP_READ_ACTIVE_PKG	BIT(1)
#define PERF_EV_CAP_SIBLING		BIT(2)

/**
 * struct perf_event - one performance event
 *
 * Created by perf_event_open() or perf_event_create_kernel_counter(),
 * owned by a file (or a kernel user) and attached to one context.
 * Locking: the lists an event is on and its @state change only under
 * its context's @lock; the context's @mutex additionally serialises the
 * changes that may sleep (open, close, exit).  @count is updated on the
 * CPU the event is active on and may be read from anywhere.
 */
struct perf_event {
#ifdef CONFIG_PERF_EVENTS
	/* Context membership: all events, and the group structure. */
	struct list_head		event_entry;
	struct list_head		group_entry;
	struct list_head		sibling_list;
	struct list_head		sibling_entry;
	struct list_head		active_entry;
	int				nr_siblings;
	int				group_caps;
	struct perf_event		*group_leader;

	/* Software and tracepoint events sit on a per-CPU hash list. */
	struct hlist_node		hlist_entry;

	struct pmu			*pmu;
	void				*pmu_private;

	enum perf_event_state		state;
	unsigned int			attach_state;
	local64_t			count;
	atomic64_t			child_count;

	/* Time this event was enabled and on the PMU, and a stamp. */
	u64				total_time_enabled;
	u64				total_time_running;
	u64				tstamp;

	struct perf_event_attr		attr;
	u16				header_size;
	u16				id_header_size;
	u16				read_size;
	struct hw_perf_event		hw;

	struct perf_event_context	*ctx;
	atomic_long_t			refcount;

	/* The file behind the event's fd, if user space opened it. */
	struct file			*filp;

	/* The task that created the event, for prctl(). */
	struct task_struct		*owner;
	struct list_head		owner_entry;

	/* Where the event runs: the CPU it is on now, the one it wants. */
	int				oncpu;
	int				cpu;

	u64				id;
	u64				(*clock)(void);
	perf_overflow_handler_t		overflow_handler;
	void				*overflow_handler_context;

	struct perf_event		*parent;
	struct pid_namespace		*ns;

	void (*destroy)(struct perf_event *event);
	struct rcu_head			rcu_head;

#ifdef CONFIG_EVENT_TRACING
	struct trace_event_call		*tp_event;
	struct event_filter		*filter;
#endif
#endif /* CONFIG_PERF_EVENTS */
};

/**
 * struct perf_event_context - a set of events scheduled together
 *
 * Each CPU has one context for its CPU-wide events; each task that is
 * monitored has one (task_struct::perf_event_ctxp[0]) for all PMUs.
 *
 * Locking: @lock (raw, taken with interrupts off, nests inside the
 * runqueue lock because the scheduler hooks take it) protects the lists,
 * every event's state and times, @is_active and the clock.  @mutex is
 * held around changes that may sleep and is what open, close and exit
 * take first; list changes hold both.  A task context is only scheduled
 * on the CPU its task runs on; other CPUs change it through IPIs.
 */
struct perf_event_context {
	raw_spinlock_t			lock;
	struct mutex			mutex;

	struct list_head		event_list;
	struct list_head		pinned_groups;
	struct list_head		flexible_groups;
	int				nr_events;
	int				nr_active;

	/* Set while the context is scheduled in on a CPU. */
	int				is_active;
	/* The task, NULL for a CPU context, TASK_TOMBSTONE once it exited. */
	struct task_struct		*task;
	int				cpu;

	/* Context time: advances while the context is scheduled in. */
	u64				time;
	u64				timestamp;

	refcount_t			refcount;
	struct rcu_head			rcu_head;
};

#define TASK_TOMBSTONE ((void *)-1L)

/**
 * struct perf_cpu_context - per-CPU state of the core
 * @ctx: the CPU's context for CPU-wide events
 * @task_ctx: the task context scheduled in on this CPU, if any
 * @online: whether events may run here
 */
struct perf_cpu_context {
	struct perf_event_context	ctx;
	struct perf_event_context	*task_ctx;
	int				online;
};

struct perf_output_handle {
	struct perf_event		*event;
	struct perf_buffer		*rb;
	unsigned long			wakeup;
	unsigned long			size;
	u64				aux_flags;
	union {
		void			*addr;
		unsigned long		head;
	};
	int				page;
};

struct bpf_perf_event_data_kern {
	bpf_user_pt_regs_t		*regs;
	struct perf_sample_data		*data;
	struct perf_event		*event;
};

/**
 * struct perf_sample_data - what an overflow reports
 *
 * Filled by perf_sample_data_init() and the overflowing PMU; the first
 * fields are the ones every sample needs.
 */
struct perf_sample_data {
	u64				addr;
	struct perf_raw_record		*raw;
	u64				period;
	u64				type;
	u64				ip;
	struct {
		u32	pid;
		u32	tid;
	}				tid_entry;
	u64				time;
	u64				id;
	u64				stream_id;
	struct {
		u32	cpu;
		u32	reserved;
	}				cpu_entry;
	struct perf_callchain_entry	*callchain;
	u64				phys_addr;
	u64				cgroup;
	u64				data_page_size;
	u64				code_page_size;
	union perf_sample_weight	weight;
	union perf_mem_data_src		data_src;
	u64				txn;
	struct perf_branch_stack	*br_stack;
} ____cacheline_aligned;

/* Recursion contexts of the software event path: task, softirq, irq, NMI. */
#define PERF_NR_CONTEXTS	4

static inline void perf_sample_data_init(struct perf_sample_data *data,
					 u64 addr, u64 period)
{
	data->addr = addr;
	data->raw = NULL;
	data->period = period;
	data->type = 0;
}

#ifdef CONFIG_PERF_EVENTS

extern int perf_pmu_register(struct pmu *pmu, const char *name, int type);
extern void perf_pmu_unregister(struct pmu *pmu);

extern void __perf_event_task_sched_in(struct task_struct *prev,
				       struct task_struct *task);
extern void __perf_event_task_sched_out(struct task_struct *prev,
					struct task_struct *next);
extern int perf_event_init_task(struct task_struct *child, u64 clone_flags);
extern void perf_event_exit_task(struct task_struct *child);
extern void perf_event_free_task(struct task_struct *task);
extern void perf_event_delayed_put(struct task_struct *task);
extern struct file *perf_event_get(unsigned int fd);
extern const struct perf_event *perf_get_event(struct file *file);
extern const struct perf_event_attr *perf_event_attrs(struct perf_event *event);
extern void perf_event_print_debug(void);
extern void perf_pmu_disable(struct pmu *pmu);
extern void perf_pmu_enable(struct pmu *pmu);
extern void perf_sched_cb_dec(struct pmu *pmu);
extern void perf_sched_cb_inc(struct pmu *pmu);
extern int perf_event_task_disable(void);
extern int perf_event_task_enable(void);

extern void perf_pmu_resched(struct pmu *pmu);

extern int perf_event_refresh(struct perf_event *event, int refresh);
extern void perf_event_update_userpage(struct perf_event *event);
extern int perf_event_release_kernel(struct perf_event *event);
extern struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr,
				 int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t callback,
				 void *context);
extern void perf_pmu_migrate_context(struct pmu *pmu,
				     int src_cpu, int dst_cpu);
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running);
extern u64 perf_event_read_value(struct perf_event *event,
				 u64 *enabled, u64 *running);

extern int perf_event_overflow(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs);

static inline bool is_sampling_event(struct perf_event *event)
{
	return event->attr.sample_period != 0;
}

/* Whether the event is counted by software, not a PMU with counters. */
static inline int is_software_event(struct perf_event *event)
{
	return event->group_caps & PERF_EV_CAP_SOFTWARE;
}

extern struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX];

extern void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs,
			     u64 addr);
extern void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs,
			    u64 addr);

#ifndef perf_arch_fetch_caller_regs
static inline void perf_arch_fetch_caller_regs(struct pt_regs *regs,
					       unsigned long ip) { }
#endif

/**
 * perf_fetch_caller_regs - capture the registers of our caller
 * @regs: where to store them
 *
 * For software events raised from kernel code that has no interrupt
 * frame: enough to report the instruction pointer and the kernel mode.
 */
static inline void perf_fetch_caller_regs(struct pt_regs *regs)
{
	perf_arch_fetch_caller_regs(regs, CALLER_ADDR0);
}

/**
 * perf_sw_event - count a software event
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many occurrences
 * @regs: the registers at the event, or NULL
 * @addr: the address the event concerns (the faulting address), or 0
 *
 * Costs one patched-out branch while no event of this kind exists.
 */
static __always_inline void
perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	if (static_key_false(&perf_swevent_enabled[event_id]))
		__perf_sw_event(event_id, nr, regs, addr);
}

DECLARE_PER_CPU(struct pt_regs, __perf_regs[PERF_NR_CONTEXTS]);

/* A software event raised from the scheduler, which has no regs. */
static __always_inline void perf_sw_event_sched(u32 event_id, u64 nr, u64 addr)
{
	struct pt_regs *regs = this_cpu_ptr(&__perf_regs[0]);

	perf_fetch_caller_regs(regs);
	___perf_sw_event(event_id, nr, regs, addr);
}

extern struct static_key_false perf_sched_events;

static __always_inline bool __perf_sw_enabled(int swevt)
{
	return static_key_false(&perf_swevent_enabled[swevt]);
}

/**
 * perf_event_task_migrate - note that a task moved to another CPU
 * @task: the task
 *
 * Called by the scheduler's set_task_cpu(); the migration is counted
 * when the task next runs, on the CPU it moved to.
 */
static inline void perf_event_task_migrate(struct task_struct *task)
{
	if (__perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS))
		task->sched_migrated = 1;
}

/**
 * perf_event_task_sched_in - the scheduler switched to @task
 * @prev: the task that ran before
 * @task: the task now running
 *
 * Called with the runqueue lock held and interrupts disabled.
 */
static inline void perf_event_task_sched_in(struct task_struct *prev,
					    struct task_struct *task)
{
	if (static_branch_unlikely(&perf_sched_events))
		__perf_event_task_sched_in(prev, task);

	if (__perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS) &&
	    task->sched_migrated) {
		perf_sw_event_sched(PERF_COUNT_SW_CPU_MIGRATIONS, 1, 0);
		task->sched_migrated = 0;
	}
}

/**
 * perf_event_task_sched_out - the scheduler is switching away from @prev
 * @prev: the task leaving the CPU
 * @next: the task that will run
 *
 * Called with the runqueue lock held and interrupts disabled.  Counts
 * the context switch against @prev's events before they stop.
 */
static inline void perf_event_task_sched_out(struct task_struct *prev,
					     struct task_struct *next)
{
	if (__perf_sw_enabled(PERF_COUNT_SW_CONTEXT_SWITCHES))
		perf_sw_event_sched(PERF_COUNT_SW_CONTEXT_SWITCHES, 1, 0);

	if (static_branch_unlikely(&perf_sched_events))
		__perf_event_task_sched_out(prev, next);
}

extern void perf_event_mmap(struct vm_area_struct *vma);

extern void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len,
			       bool unregister, const char *sym);
extern void perf_event_bpf_event(struct bpf_prog *prog,
				 enum perf_bpf_event_type type,
				 u16 flags);

extern struct perf_guest_info_callbacks __rcu *perf_guest_cbs;
extern void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs);
extern void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs);

static inline unsigned int perf_guest_state(void)
{
	return 0;
}

static inline unsigned long perf_guest_get_ip(void)
{
	return 0;
}

static inline unsigned int perf_guest_handle_intel_pt_intr(void)
{
	return 0;
}

extern void perf_event_exec(void);
extern void perf_event_comm(struct task_struct *tsk, bool exec);
extern void perf_event_namespaces(struct task_struct *tsk);
extern void perf_event_fork(struct task_struct *tsk);
extern void perf_event_text_poke(const void *addr,
				 const void *old_bytes, size_t old_len,
				 const void *new_bytes, size_t new_len);

/* Call chains (filled in by the architecture's unwinders). */
DECLARE_PER_CPU(struct perf_callchain_entry, perf_callchain_entry);

extern void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
				struct pt_regs *regs);
extern void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
				  struct pt_regs *regs);
extern struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, u32 init_nr, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark);
extern struct perf_callchain_entry *perf_callchain(struct perf_event *event,
						   struct pt_regs *regs);
extern int get_callchain_buffers(int max_stack);
extern void put_callchain_buffers(void);
extern struct perf_callchain_entry *get_callchain_entry(int *rctx);
extern void put_callchain_entry(int rctx);

extern int sysctl_perf_event_max_stack;
extern int sysctl_perf_event_max_contexts_per_stack;

/**
 * perf_callchain_store - append one address to a call chain
 * @ctx: the chain being built
 * @ip: the address
 *
 * Return: 0, or -1 once the chain is full.
 */
static inline int perf_callchain_store(struct perf_callchain_entry_ctx *ctx,
				       u64 ip)
{
	if (ctx->nr < ctx->max_stack && !ctx->contexts_maxed) {
		ctx->entry->ip[ctx->entry->nr++] = ip;
		++ctx->nr;
		return 0;
	}
	return -1;
}

extern int sysctl_perf_event_paranoid;
extern int sysctl_perf_event_mlock;
extern int sysctl_perf_event_sample_rate;
extern int sysctl_perf_cpu_time_max_percent;

extern void perf_sample_event_took(u64 sample_len_ns);

int perf_proc_update_handler(struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos);
int perf_cpu_time_max_percent_handler(struct ctl_table *table, int write,
				      void *buffer, size_t *lenp, loff_t *ppos);
int perf_event_max_stack_handler(struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos);

/* Access to perf_event_open(2) and to the events' data. */
#define PERF_SECURITY_OPEN		0
#define PERF_SECURITY_CPU		1
#define PERF_SECURITY_KERNEL		2
#define PERF_SECURITY_TRACEPOINT	3

static inline int perf_is_paranoid(void)
{
	return sysctl_perf_event_paranoid > -1;
}

/**
 * perf_allow_kernel - may the caller observe the kernel?
 * @attr: the attributes being opened
 *
 * Return: 0 or -EACCES, as perf_event_paranoid and CAP_PERFMON decide.
 */
static inline int perf_allow_kernel(struct perf_event_attr *attr)
{
	if (sysctl_perf_event_paranoid > 1 && !perfmon_capable())
		return -EACCES;

	return security_perf_event_open(attr, PERF_SECURITY_KERNEL);
}

/**
 * perf_allow_cpu - may the caller monitor a whole CPU?
 * @attr: the attributes being opened
 *
 * Return: 0 or -EACCES.
 */
static inline int perf_allow_cpu(struct perf_event_attr *attr)
{
	if (sysctl_perf_event_paranoid > 0 && !perfmon_capable())
		return -EACCES;

	return security_perf_event_open(attr, PERF_SECURITY_CPU);
}

/**
 * perf_allow_tracepoint - may the caller read raw tracepoint data?
 * @attr: the attributes being opened
 *
 * Return: 0 or -EPERM.
 */
static inline int perf_allow_tracepoint(struct perf_event_attr *attr)
{
	if (sysctl_perf_event_paranoid > -1 && !perfmon_capable())
		return -EPERM;

	return security_perf_event_open(attr, PERF_SECURITY_TRACEPOINT);
}

extern void perf_event_init(void);
extern void perf_tp_event(u16 event_type, u64 count, void *record,
			  int entry_size, struct pt_regs *regs,
			  struct hlist_head *head, int rctx,
			  struct task_struct *task);
extern void perf_bp_event(struct perf_event *event, void *data);

#ifndef perf_misc_flags
# define perf_misc_flags(regs) \
		(user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL)
# define perf_instruction_pointer(regs)	instruction_pointer(regs)
#endif
#ifndef perf_arch_bpf_user_pt_regs
# define perf_arch_bpf_user_pt_regs(regs) regs
#endif

extern int perf_swevent_get_recursion_context(void);
extern void perf_swevent_put_recursion_context(int rctx);
extern u64 perf_swevent_set_period(struct perf_event *event);
extern void perf_event_enable(struct perf_event *event);
extern void perf_event_disable(struct perf_event *event);
extern void perf_event_disable_local(struct perf_event *event);
extern void perf_event_disable_inatomic(struct perf_event *event);
extern void perf_event_task_tick(void);
extern int perf_event_account_interrupt(struct perf_event *event);
extern int perf_event_period(struct perf_event *event, u64 value);
extern u64 perf_event_pause(struct perf_event *event, bool reset);

#else /* !CONFIG_PERF_EVENTS: */

static inline void
perf_event_task_migrate(struct task_struct *task)			{ }
static inline void
perf_event_task_sched_in(struct task_struct *prev,
			 struct task_struct *task)			{ }
static inline void
perf_event_task_sched_out(struct task_struct *prev,
			  struct task_struct *next)			{ }
static inline int perf_event_init_task(struct task_struct *child,
				       u64 clone_flags)			{ return 0; }
static inline void perf_event_exit_task(struct task_struct *child)	{ }
static inline void perf_event_free_task(struct task_struct *task)	{ }
static inline void perf_event_delayed_put(struct task_struct *task)	{ }
static inline struct file *perf_event_get(unsigned int fd)
{
	return ERR_PTR(-EINVAL);
}
static inline const struct perf_event *perf_get_event(struct file *file)
{
	return ERR_PTR(-EINVAL);
}
static inline const struct perf_event_attr *
perf_event_attrs(struct perf_event *event)
{
	return ERR_PTR(-EINVAL);
}
static inline int perf_event_read_local(struct perf_event *event, u64 *value,
					u64 *enabled, u64 *running)
{
	return -EINVAL;
}
static inline void perf_event_print_debug(void)				{ }
static inline int perf_event_task_disable(void)				{ return -EINVAL; }
static inline int perf_event_task_enable(void)				{ return -EINVAL; }
static inline int perf_event_refresh(struct perf_event *event, int refresh)
{
	return -EINVAL;
}
static inline void
perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)	{ }
static inline void
perf_bp_event(struct perf_event *event, void *data)			{ }
static inline void perf_event_mmap(struct vm_area_struct *vma)		{ }
static inline void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len,
				      bool unregister, const char *sym)	{ }
static inline void perf_event_bpf_event(struct bpf_prog *prog,
					enum perf_bpf_event_type type,
					u16 flags)			{ }
static inline void perf_event_exec(void)				{ }
static inline void perf_event_comm(struct task_struct *tsk, bool exec)	{ }
static inline void perf_event_namespaces(struct task_struct *tsk)	{ }
static inline void perf_event_fork(struct task_struct *tsk)		{ }
static inline void perf_event_text_poke(const void *addr,
					const void *old_bytes,
					size_t old_len,
					const void *new_bytes,
					size_t new_len)			{ }
static inline void perf_event_init(void)				{ }
static inline int  perf_swevent_get_recursion_context(void)		{ return -1; }
static inline void perf_swevent_put_recursion_context(int rctx)		{ }
static inline u64 perf_swevent_set_period(struct perf_event *event)	{ return 0; }
static inline void perf_event_enable(struct perf_event *event)		{ }
static inline void perf_event_disable(struct perf_event *event)		{ }
static inline int __perf_event_disable(void *info)			{ return -1; }
static inline void perf_event_task_tick(void)				{ }
static inline int perf_event_release_kernel(struct perf_event *event)	{ return 0; }
static inline int perf_event_period(struct perf_event *event, u64 value)
{
	return -EINVAL;
}
static inline u64 perf_event_pause(struct perf_event *event, bool reset)
{
	return 0;
}
#endif

#if defined(CONFIG_PERF_EVENTS) && defined(CONFIG_CPU_SUP_INTEL)
extern void perf_restore_debug_store(void);
#else
static inline void perf_restore_debug_store(void)			{ }
#endif

#define perf_output_put(handle, x) perf_output_copy((handle), &(x), sizeof(x))

struct perf_pmu_events_attr {
	struct device_attribute attr;
	u64 id;
	const char *event_str;
};

struct perf_pmu_events_ht_attr {
	struct device_attribute			attr;
	u64					id;
	const char				*event_str_ht;
	const char				*event_str_noht;
};

struct perf_pmu_events_hybrid_attr {
	struct device_attribute			attr;
	u64					id;
	const char				*event_str;
	u64					pmu_type;
};

struct perf_pmu_format_hybrid_attr {
	struct device_attribute			attr;
	u64					pmu_type;
};

ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr,
			      char *page);

#define PMU_EVENT_ATTR(_name, _var, _id, _show)				\
static struct perf_pmu_events_attr _var = {				\
	.attr = __ATTR(_name, 0444, _show, NULL),			\
	.id   =  _id,							\
}

#define PMU_EVENT_ATTR_STRING(_name, _var, _str)			    \
static struct perf_pmu_events_attr _var = {				    \
	.attr		= __ATTR(_name, 0444, perf_event_sysfs_show, NULL), \
	.id		= 0,						    \
	.event_str	= _str,						    \
}

#define PMU_FORMAT_ATTR(_name, _format)					\
static ssize_t								\
_name##_show(struct device *dev,					\
			       struct device_attribute *attr,		\
			       char *page)				\
{									\
	BUILD_BUG_ON(sizeof(_format) >= PAGE_SIZE);			\
	return sprintf(page, _format "\n");				\
}									\
									\
static struct device_attribute format_attr_##_name = __ATTR_RO(_name)

/* CPU hotplug: perf's states in the cpuhp table (kernel/cpu.c). */
#ifdef CONFIG_PERF_EVENTS
int perf_event_init_cpu(unsigned int cpu);
int perf_event_exit_cpu(unsigned int cpu);
#else
#define perf_event_init_cpu	NULL
#define perf_event_exit_cpu	NULL
#endif

#ifndef PERF_NEEDS_LOPWR_CB
/* Entering or leaving a low-power state; only AMD's BRS needs to know. */
static inline void perf_lopwr_cb(bool lopwr_in)
{
}
#endif

extern void arch_perf_update_userpage(struct perf_event *event,
				      struct perf_event_mmap_page *userpg,
				      u64 now);

#endif /* _LINUX_PERF_EVENT_H */
