/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the files of the perf core (kernel/events/).
 *
 * Where things live:
 *   attr.c        copying and checking struct perf_event_attr
 *   event.c       creating, initialising and freeing events
 *   pmu.c         the PMU registry
 *   sysfs.c       /sys/bus/event_source/devices/<pmu>/
 *   rotate.c      multiplexing: rotating groups that do not all fit
 *   test_pmu.c    a PMU with few counters, for testing multiplexing
 *   context.c     task and CPU contexts, scheduling, enable/disable
 *   task.c        fork, exit, exec and the other task hooks; prctl
 *   inherit.c     copying events into forked tasks and summing them up
 *   syscall.c     perf_event_open(2) and the event file
 *   read.c        read(2) and ioctl(2) on an event
 *   software.c    the software PMU and perf_sw_event()
 *   tracepoint.c  the tracepoint PMU and the trace event entry points
 *   probe_pmu.c   the kprobe and uprobe PMUs
 *   bpf.c         BPF programs on events; records of BPF programs
 *   hw_breakpoint.c  the breakpoint PMU and the hw_breakpoint API
 *   bp_slots.c    sharing the debug registers between breakpoints
 *   sysctl.c      /proc/sys/kernel/perf_* and their derived limits
 *   callchain.c   call chain depth limits
 *   overflow.c    what happens when a sampling event overflows: throttling,
 *                 refresh limits, sigtrap, the work left for irq_work
 *   ring_buffer.c the mmap()ed buffer and writing records into it
 *   mmap.c        mmap() of an event, memory accounting, output redirection
 *   sample.c      PERF_RECORD_SAMPLE and the sample_id of other records
 *   records.c     side-band records (COMM, FORK, EXIT, SWITCH, ...) and
 *                 finding the events that want them
 *   records_mmap.c  PERF_RECORD_MMAP and MMAP2
 *   cgroup.c      per-cgroup events and the perf_event cgroup controller
 *   guest.c       what a hypervisor tells perf about the guest it runs
 *   *_test.c      KUnit tests of the file they are named after
 *   core.c        bringing it all up at boot; defines the trace events
 *                 of include/trace/events/perf.h
 */
#ifndef _KERNEL_EVENTS_INTERNAL_H
#define _KERNEL_EVENTS_INTERNAL_H

#include <linux/perf_event.h>
#include <linux/topology.h>
#include <trace/events/perf.h>

/* attr.c */
int perf_copy_attr(struct perf_event_attr __user *uattr,
		   struct perf_event_attr *attr);
int perf_check_attr(const struct perf_event_attr *attr);
int perf_check_attr_period(const struct perf_event_attr *attr);
int perf_check_attr_inherit(const struct perf_event_attr *attr);
int perf_check_open_flags(unsigned long flags);

/* event.c */
struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent, int cgroup_fd,
				    perf_overflow_handler_t handler,
				    void *handler_context);
void perf_event_free(struct perf_event *event);
void perf_event_get_ref(struct perf_event *event);
void perf_event_put(struct perf_event *event);
int perf_event_check_group(struct perf_event *leader,
			   struct perf_event *event,
			   struct perf_event_context *ctx);
bool perf_group_pmus_fit(struct perf_event *leader, struct perf_event *event);

/* pmu.c, sysfs.c */
void perf_pmus_sysfs_start(void);
int perf_pmu_sysfs_add(struct pmu *pmu);
void perf_pmu_sysfs_del(struct pmu *pmu);

/* sched_cb.c */
void perf_sched_cb_switch(struct perf_event_context *ctx, bool sched_in);
bool perf_sched_cb_wanted(void);

/* callchain.c */
int perf_callchain_get(u32 max_stack);
void perf_callchain_put(void);

/* rotate.c */
int perf_mux_init(struct pmu *pmu);
void perf_mux_free(struct pmu *pmu);
void perf_mux_set_interval(struct pmu *pmu, int ms);
void perf_mux_request(struct pmu *pmu);
bool perf_mux_group_may_go(struct perf_event *leader);
void perf_mux_group_on(struct perf_event *leader, bool on);
bool perf_rotate_pmu(struct pmu *pmu);

/* test_pmu.c */
struct pmu *perf_test_pmu_get(void);

/* pmu.c */
int perf_pmu_init_event(struct perf_event *event);
void perf_pmu_nop_flags(struct perf_event *event, int flags);
void perf_pmu_nop_read(struct perf_event *event);
int perf_pmu_add_unsupported(struct perf_event *event, int flags);

/* context.c */
int perf_ctx_task_data(struct perf_event_context *ctx,
		       struct perf_event *event);
struct perf_event_context *perf_find_get_context(struct task_struct *task,
						 int cpu);
void perf_get_context(struct perf_event_context *ctx);
void perf_put_context(struct perf_event_context *ctx);
u64 perf_clock(void);
void perf_install_in_context(struct perf_event_context *ctx,
			     struct perf_event *event);
void perf_remove_from_context(struct perf_event *event);
void perf_event_enable_nogroup(struct perf_event *event);
void perf_event_disable_nogroup(struct perf_event *event);

/*
 * May this CPU pull @event's count from its PMU?  On the CPU it is active
 * on; an event whose counters are its die's (PERF_EV_CAP_READ_ACTIVE_PKG)
 * on any CPU of that CPU's die too.  Its context's lock held.
 */
static inline bool perf_event_readable_here(struct perf_event *event)
{
	int cpu = smp_processor_id();

	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return false;
	if (event->oncpu == cpu)
		return true;
	return (event->event_caps & PERF_EV_CAP_READ_ACTIVE_PKG) &&
	       cpumask_test_cpu(cpu, topology_die_cpumask(event->oncpu));
}

/* The perf_clock() a context's time was last brought up to; its lock held. */
static inline u64 perf_ctx_stamp(struct perf_event_context *ctx)
{
	return ctx->time - ctx->time_offset;
}

/* An event's count and times, or the sum of several events'. */
struct perf_event_values {
	u64	count;
	u64	enabled;
	u64	running;
};

void perf_event_add_values(struct perf_event *event,
			   struct perf_event_values *sum);

struct perf_event_context *perf_event_ctx_lock(struct perf_event *event);
void perf_ctx_sync_group(struct perf_event *leader,
			 struct perf_event_context *ctx, void *data);
void perf_ctx_sync_event(struct perf_event *event,
			 struct perf_event_context *ctx, void *data);
void perf_task_ctx_exit(struct task_struct *task);
struct perf_event_context *perf_ctx_alloc_task(struct task_struct *task);
void perf_ctx_add_unscheduled(struct perf_event_context *ctx,
			      struct perf_event *event);
void perf_ctx_del_unscheduled(struct perf_event *event);
void perf_task_ctx_exec(void);
struct perf_event_context *perf_ctx_pin_task(struct task_struct *task);
void perf_ctx_unpin(struct perf_event_context *ctx);
u64 perf_ctx_clone_tag(struct perf_event_context *ctx);
void perf_ctx_set_clone(struct perf_event_context *ctx,
			struct perf_event_context *copy, u64 tag);
void perf_contexts_init(void);
struct perf_event_context *perf_cpu_ctx_this(void);

typedef void (*perf_event_fn)(struct perf_event *event,
			      struct perf_event_context *ctx, void *data);
void perf_event_call(struct perf_event *event, perf_event_fn func,
		     void *data);
void perf_event_call_read(struct perf_event *event, bool group,
			  perf_event_fn func, void *data);

/* inherit.c */

int perf_inherit_task(struct task_struct *child, u64 clone_flags);
void perf_inherit_free_task(struct task_struct *child);
bool perf_inherit_fold(struct perf_event *child);
void perf_inherit_release_children(struct perf_event *event);
void perf_inherit_sum(struct perf_event *event, struct perf_event_values *sum);
/* An operation on one event, applied to groups, copies or owned events. */
typedef void (*perf_event_op_t)(struct perf_event *event);

void perf_event_apply_to_copies(struct perf_event *event, perf_event_op_t fn);

/* read.c */
ssize_t perf_read(struct file *file, char __user *buf, size_t count,
		  loff_t *ppos);
long perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
u64 perf_event_total_count(struct perf_event *event);
bool perf_group_read_fits(struct perf_event *leader, struct perf_event *event);

/* syscall.c */
extern const struct file_operations perf_fops;
struct perf_event *perf_event_from_file(struct file *file);

/* task.c */
void perf_event_add_to_owner(struct perf_event *event);
void perf_event_remove_from_owner(struct perf_event *event);

/* software.c */
void perf_swevent_init(void);
void perf_sw_event_sched(u32 event_id);
void perf_swevent_hit(struct perf_event *event, u64 nr,
		      struct perf_sample_data *data, struct pt_regs *regs);

/* sysctl.c */
extern unsigned int perf_max_samples_per_tick;
void perf_sample_budget_reset(void);

/* tracepoint.c: the PMUs built on trace events; probe_pmu.c */
#ifdef CONFIG_EVENT_TRACING
void perf_tp_register(void);
int perf_event_set_filter(struct perf_event *event, void __user *arg);
bool perf_tp_is_tracing(struct perf_event *event);
int perf_tp_add(struct perf_event *event, int flags);
void perf_tp_del(struct perf_event *event, int flags);
void perf_tp_start(struct perf_event *event, int flags);
void perf_tp_stop(struct perf_event *event, int flags);
void perf_tp_free_filter(struct perf_event *event);
int perf_tp_init_copy(struct perf_event *event);
#else
static inline void perf_tp_register(void) { }
static inline int perf_event_set_filter(struct perf_event *event,
					void __user *arg)
{
	return perf_refuse(-EINVAL, "IOC_SET_FILTER: not a trace event",
			   event->attr.type);
}
#endif

#if defined(CONFIG_KPROBE_EVENTS) || defined(CONFIG_UPROBE_EVENTS)
void perf_probe_pmus_register(void);
bool perf_probe_pmu_owns(struct perf_event *event);
#else
static inline void perf_probe_pmus_register(void) { }
static inline bool perf_probe_pmu_owns(struct perf_event *event)
{
	return false;
}
#endif

/*
 * struct perf_buffer - a ring buffer (ring_buffer.c)
 *
 * @head, @nest, @events, @wakeup and @lost are written only by the CPU
 * its writers run on (local_t); @event_list and the mmap fields change
 * under perf_mmap_mutex, and @event_list is walked under RCU.
 */
struct perf_buffer {
	refcount_t			refcount;
	struct rcu_head			rcu_head;

	local_t				head;	/* where the next record goes */
	local_t				nest;	/* writers inside, nested */
	local_t				events;	/* samples toward wakeup_events */
	local_t				wakeup;	/* wakeups due, a sequence */
	local_t				lost;	/* records dropped, not yet told */
	unsigned long			watermark;
	unsigned long			data_size;
	unsigned long			nr_pages;
	bool				overwrite;
	bool				paused;
	atomic_t			poll;	/* EPOLLIN for the next poll() */

	struct perf_event_mmap_page	*user_page;
	void				*data;

	struct list_head		event_list;

	/* Mappings, and the memory they were charged for. */
	atomic_t			mmap_count;
	struct user_struct		*mmap_user;
	struct mm_struct		*mmap_mm;
	unsigned long			mmap_user_pages;
	unsigned long			mmap_pinned_pages;
};

/* A record being written: from perf_output_begin() to perf_output_end(). */
struct perf_output_handle {
	struct perf_event		*event;
	struct perf_buffer		*rb;
	unsigned long			wakeup;
	unsigned long			offset;
	unsigned long			size;
	/* perf_output_begin() took the RCU read lock (it was preemptible) */
	bool				rcu_locked;
};

/*
 * An event's count with what its exited inherited copies handed back,
 * as the user page and PERF_SAMPLE_READ give it; lockless.
 */
static inline u64 perf_event_count_all(struct perf_event *event)
{
	return local64_read(&event->count) +
	       atomic64_read(&event->child_count);
}

/* ring_buffer.c */
struct perf_buffer *perf_buffer_alloc(unsigned long nr_pages,
				      unsigned long watermark, bool writable);
struct perf_buffer *perf_buffer_get(struct perf_event *event);
struct page *perf_buffer_page(struct perf_buffer *rb, unsigned long pgoff);
void perf_buffer_put(struct perf_buffer *rb);
void perf_buffer_attach(struct perf_event *event, struct perf_buffer *rb);
void perf_buffer_wakeup(struct perf_buffer *rb);
__poll_t perf_buffer_poll(struct perf_buffer *rb);
void perf_buffer_set_paused(struct perf_buffer *rb, bool paused);
int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data, struct perf_event *event,
		      unsigned int size);
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len);
void perf_output_skip(struct perf_output_handle *handle, unsigned int len);
unsigned long perf_output_copy_user(struct perf_output_handle *handle,
				    const void __user *src, unsigned long len);
unsigned long perf_output_copy_frag(struct perf_output_handle *handle,
				    const struct perf_raw_frag *frag);
void perf_output_end(struct perf_output_handle *handle);
void perf_output_sample_done(struct perf_output_handle *handle);

#define perf_output_put(handle, x) perf_output_copy((handle), &(x), sizeof(x))

/* mmap.c */
extern struct mutex perf_mmap_mutex;
int perf_mmap(struct file *file, struct vm_area_struct *vma);
int perf_event_set_output(struct perf_event *event,
			  struct perf_event *output);
void perf_event_release_output(struct perf_event *event);
void perf_event_sync_userpage(struct perf_event *event);

/* sample.c */
void perf_sample_id_prepare(struct perf_sample_data *data,
			    struct perf_event *event);
unsigned int perf_sample_id_size(struct perf_event *event);
void perf_output_sample_id(struct perf_output_handle *handle,
			   struct perf_event *event,
			   struct perf_sample_data *data);
u64 perf_event_time_clock(struct perf_event *event);
unsigned int perf_sample_read_size(struct perf_event *event);
u32 perf_record_pid(struct perf_event *event, struct task_struct *task,
		    enum pid_type type);
void perf_output_read(struct perf_output_handle *handle,
		      struct perf_event *event);

/* records.c, records_mmap.c: side-band records */
enum perf_sb_kind {
	PERF_SB_MMAP_EXEC,	/* mmap, mmap2: executable mappings */
	PERF_SB_MMAP_DATA,	/* mmap_data: the other mappings */
	PERF_SB_BUILD_ID,	/* build_id: MMAP2 wants build ids */
	PERF_SB_COMM,		/* comm */
	PERF_SB_TASK,		/* FORK, EXIT: task, comm, the mmap bits */
	PERF_SB_SWITCH,		/* context_switch */
	PERF_SB_NAMESPACES,	/* namespaces */
	PERF_SB_KSYMBOL,	/* ksymbol */
	PERF_SB_TEXT_POKE,	/* text_poke */
	PERF_SB_CGROUP,		/* cgroup: new cgroups (cgroup.c) */
	PERF_SB_BPF_EVENT,	/* bpf_event: BPF programs (bpf.c) */
	PERF_SB_NR
};

extern atomic_t perf_sb_nr[PERF_SB_NR];

typedef void (*perf_sb_fn)(struct perf_event *event, void *data);

void perf_sb_account(struct perf_event *event, bool add);
void perf_sb_ctx_add(struct perf_event_context *ctx, struct perf_event *event);
void perf_sb_ctx_del(struct perf_event_context *ctx, struct perf_event *event);
void perf_sb_deliver(struct perf_event_context *task_ctx, bool task,
		     bool cpu, perf_sb_fn fn, void *data);
void perf_sb_output(struct perf_event *event, struct perf_event_header *header,
		    const void *body, unsigned int size, const void *tail,
		    unsigned int tail_size);
void perf_record_exit(struct task_struct *task,
		      struct perf_event_context *ctx);
void perf_record_switch(struct task_struct *task, struct task_struct *other,
			bool in);
void perf_record_read(struct perf_event *event, struct task_struct *task);
void perf_mmap_prot_flags(unsigned long vm_flags, bool hugetlb, u32 *prot,
			  u32 *flags);
const char *perf_mmap_anon_name(struct vm_area_struct *vma);

/* Is a switch record wanted?  The scheduler hooks' test. */
static inline bool perf_sb_switch_wanted(void)
{
	return atomic_read(&perf_sb_nr[PERF_SB_SWITCH]);
}

/* callchain.c */
struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs);

/* context.c */
void perf_event_times_now(struct perf_event *event, u64 *enabled,
			  u64 *running);
void perf_event_disable_inatomic(struct perf_event *event);
bool perf_pmus_filter_match(struct perf_event *event);

/* cgroup.c: the cgroup id PERF_SAMPLE_CGROUP carries */
#ifdef CONFIG_CGROUP_PERF
u64 perf_cgroup_sample_id(void);
#else
static inline u64 perf_cgroup_sample_id(void)
{
	return 0;
}
#endif

/* overflow.c */
#define PERF_PENDING_WAKEUP	0	/* wake readers, send SIGIO */
#define PERF_PENDING_DISABLE	1	/* disable the event (refresh ran out) */
#define PERF_PENDING_SIGTRAP	2	/* send the overflow's SIGTRAP */

int __perf_event_overflow(struct perf_event *event, bool may_throttle,
			  struct perf_sample_data *data, struct pt_regs *regs);
void perf_event_pending(struct perf_event *event, int what);
void perf_event_init_pending(struct perf_event *event);
void perf_overflow_adjust_freq(struct perf_event *event, u64 done, u64 now);
void perf_event_sync_pending(struct perf_event *event);
void perf_overflow_sched_in(struct perf_event *event);
bool perf_overflow_tick_start(void);
bool perf_overflow_tick_needed(bool unthrottle);
void perf_overflow_tick(struct perf_event_context *ctx, bool unthrottle);
void perf_event_set_period(struct perf_event *event, u64 value);
int perf_event_refresh_locked(struct perf_event *event, int refresh);

/* hw_breakpoint.c */
#ifdef CONFIG_HAVE_HW_BREAKPOINT
int perf_bp_modify_attr(struct perf_event *bp, struct perf_event_attr *attr);
#else
static inline int perf_bp_modify_attr(struct perf_event *bp,
				      struct perf_event_attr *attr)
{
	return -EOPNOTSUPP;
}
#endif

/* cgroup.c */
#ifdef CONFIG_CGROUP_PERF
/*
 * A cgroup's clock on one CPU: advances while the cgroup is active there.
 * @offset is @time less the perf_clock() it was last brought up to, the
 * same while the clock runs: it is then perf_clock() + @offset, one
 * word, which an NMI reads whole.
 */
struct perf_cgroup_clock {
	u64	time;
	u64	offset;
};

/* The perf_event controller's state of a cgroup. */
struct perf_cgroup {
	struct cgroup_subsys_state		css;
	struct perf_cgroup_clock __percpu	*clock;
};

/* A CPU's cgroup events and the cgroup of its task; see cgroup.c. */
struct perf_cgroup_cpu {
	struct perf_cgroup	*cur;
	int			nr_events;
};

DECLARE_STATIC_KEY_FALSE(perf_cgroup_events);

/* Is @event a cgroup event?  A patched-out branch while there are none. */
static inline bool perf_is_cgroup_event(struct perf_event *event)
{
	return static_branch_unlikely(&perf_cgroup_events) && event->cgrp;
}

static inline bool perf_cgroup_enabled(void)
{
	return static_branch_unlikely(&perf_cgroup_events);
}

u64 perf_cgroup_id(struct task_struct *task);
int perf_cgroup_connect(struct perf_event *event, int fd);
void perf_cgroup_detach(struct perf_event *event);
bool perf_cgroup_valid_group(struct perf_event *leader,
			     struct perf_event *event);
bool perf_cgroup_match(struct perf_event *event);
u64 perf_cgroup_event_time(struct perf_event *event);
u64 perf_cgroup_event_time_now(struct perf_event *event);
void perf_cgroup_ctx_update_time(struct perf_event_context *ctx, u64 now);
void perf_cgroup_ctx_sched_in(struct perf_event_context *ctx);
bool perf_cgroup_ctx_switching(struct perf_event_context *ctx,
			       struct task_struct *next);
bool perf_cgroup_ctx_switch(struct perf_event_context *ctx,
			    struct task_struct *next);
void perf_cgroup_ctx_add(struct perf_event_context *ctx,
			 struct perf_event *event);
void perf_cgroup_ctx_del(struct perf_event_context *ctx,
			 struct perf_event *event);
void perf_cgroup_sched_out(struct task_struct *prev, struct task_struct *next);
void perf_cgroup_cpu_advance(struct perf_cgroup_cpu *pcc, int cpu, u64 now);
void perf_cgroup_cpu_set(struct perf_cgroup_cpu *pcc, int cpu,
			 struct perf_cgroup *cgrp, u64 now);
bool perf_cgroup_cpu_covers(struct perf_cgroup_cpu *pcc,
			    struct perf_cgroup *cgrp);
/* context.c: the CPU's cgroup groups follow a change of cgroup. */
void perf_cpu_ctx_cgroup_switch(struct task_struct *next);
#else
static inline bool perf_is_cgroup_event(struct perf_event *event)
{
	return false;
}

static inline bool perf_cgroup_enabled(void)
{
	return false;
}

static inline int perf_cgroup_connect(struct perf_event *event, int fd)
{
	return -EINVAL;
}

static inline void perf_cgroup_detach(struct perf_event *event) { }
static inline bool perf_cgroup_valid_group(struct perf_event *leader,
					   struct perf_event *event)
{
	return true;
}

static inline bool perf_cgroup_match(struct perf_event *event)
{
	return true;
}

static inline u64 perf_cgroup_event_time(struct perf_event *event)
{
	return 0;
}

static inline u64 perf_cgroup_event_time_now(struct perf_event *event)
{
	return 0;
}

static inline void perf_cgroup_ctx_update_time(struct perf_event_context *ctx,
					       u64 now) { }
static inline void perf_cgroup_ctx_sched_in(struct perf_event_context *ctx) { }
static inline bool perf_cgroup_ctx_switch(struct perf_event_context *ctx,
					  struct task_struct *next)
{
	return false;
}

static inline void perf_cgroup_ctx_add(struct perf_event_context *ctx,
				       struct perf_event *event) { }
static inline void perf_cgroup_ctx_del(struct perf_event_context *ctx,
				       struct perf_event *event) { }
static inline void perf_cgroup_sched_out(struct task_struct *prev,
					 struct task_struct *next) { }
static inline void perf_cpu_ctx_cgroup_switch(struct task_struct *next) { }
#endif /* CONFIG_CGROUP_PERF */

/* bpf.c */
#ifdef CONFIG_BPF_SYSCALL
void perf_bpf_inherit(struct perf_event *event, struct perf_event *parent);
bool perf_bpf_overflow(struct perf_event *event,
		       struct perf_sample_data *data, struct pt_regs *regs);
int perf_bpf_ioctl(struct perf_event *event, unsigned int cmd,
		   unsigned long arg);
void perf_event_free_bpf_prog(struct perf_event *event);

/* The event is being freed: its program goes. */
static inline void perf_bpf_free(struct perf_event *event)
{
	perf_event_free_bpf_prog(event);
}

/*
 * Is the sample of this overflow to be written?  Not if the event's
 * perf-event program says no.  A pointer test while it has none.
 */
static inline bool perf_bpf_sample_wanted(struct perf_event *event,
					  struct perf_sample_data *data,
					  struct pt_regs *regs)
{
	if (likely(!READ_ONCE(event->prog)))
		return true;
	return perf_bpf_overflow(event, data, regs);
}
#else
static inline void perf_bpf_inherit(struct perf_event *event,
				    struct perf_event *parent) { }
static inline bool perf_bpf_sample_wanted(struct perf_event *event,
					  struct perf_sample_data *data,
					  struct pt_regs *regs)
{
	return true;
}

static inline int perf_bpf_ioctl(struct perf_event *event, unsigned int cmd,
				 unsigned long arg)
{
	if (cmd == PERF_EVENT_IOC_QUERY_BPF)
		return perf_refuse(-EOPNOTSUPP, "IOC_QUERY_BPF: no BPF here",
				   arg);
	return perf_refuse(-EOPNOTSUPP, "IOC_SET_BPF: no BPF here", arg);
}

static inline void perf_bpf_free(struct perf_event *event) { }
#endif

/* The event id counter: ids are unique over the life of the system. */
u64 perf_next_event_id(void);

#endif /* _KERNEL_EVENTS_INTERNAL_H */
