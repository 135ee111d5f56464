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
 * @event: the event that overflowed; its overflow_handler_context is the
 *	user's own
 * @data: the sample, as far as the event's sample_type asks
 * @regs: the registers at the overflow
 *
 * Called instead of writing a sample to a ring buffer, wherever the
 * overflow is handled, which may be NMI context.  Installed with
 * perf_event_create_kernel_counter(): ptrace and the breakpoint users
 * install one.
 */
typedef void (*perf_overflow_handler_t)(struct perf_event *event,
					struct perf_sample_data *data,
					struct pt_regs *regs);

/**
 * struct hw_perf_event - an event's state that belongs to its PMU driver
 *
 * The core reads @state and sets @target; the rest is the driver's.
 * Set up as the event is created (by the core, then the PMU's
 * event_init); after that, unless a member says otherwise, they change
 * with interrupts off: on the CPU the event is active on (in the PMU's
 * callbacks, its overflow interrupt and the tick), or under the
 * context's lock while the event is active nowhere.
 */
struct hw_perf_event {
#ifdef CONFIG_PERF_EVENTS
	/**
	 * @target: the task a per-task event follows, with a reference held
	 * until the event is freed; NULL for a CPU-wide event.
	 */
	struct task_struct		*target;

	/** @state: PERF_HES_* bits, kept by the PMU's add(), start(), stop() */
	int				state;

	/**
	 * @prev_count: the counter's value when it was last added to the
	 * event's count: each update adds what it moved on since.
	 * @prev_shared: the same, for a PMU whose read runs on several CPUs
	 * at once (PERF_EV_CAP_READ_ACTIVE_PKG), where local64_t's
	 * operations, atomic against this CPU only, will not do.
	 */
	union {
		local64_t		prev_count;
		atomic64_t		prev_shared;
	};

	/**
	 * @sample_period: events per sample: attr.sample_period, or a
	 * frequency event's current estimate; a counting event's is the PMU's
	 * own choice (on x86 the longest period, to see the counter wrap).
	 */
	u64				sample_period;
	/**
	 * @last_period: the length of the period in progress, set as it
	 * starts; the sample that ends it reports it as its period.
	 */
	u64				last_period;
	/**
	 * @period_left: what is left of the period in progress (the software
	 * event path counts it up from minus the period to 0 instead).
	 */
	local64_t			period_left;

	/**
	 * @interrupts_seq: the tick of its CPU (a per-CPU sequence number,
	 * kernel/events/overflow.c) in which @interrupts were counted.
	 */
	u64				interrupts_seq;
	/**
	 * @interrupts: overflows in that tick; PERF_HW_THROTTLED once the
	 * event was throttled, until a tick or its next scheduling in.
	 */
	u64				interrupts;

	/**
	 * @freq_time_stamp: a frequency event's perf_clock() at its last
	 * overflow, to estimate its rate from the next one.
	 */
	u64				freq_time_stamp;
	/**
	 * @freq_count_stamp: a frequency event's count at the last tick; the
	 * tick shortens a period that would not complete within one tick.
	 */
	u64				freq_count_stamp;

	union {
		/**
		 * @tp_list: a uprobe event that follows a task: its entry on
		 * the uprobe's filter list, under that filter's rwlock
		 * (kernel/trace/trace_uprobe.c).
		 */
		struct list_head	tp_list;
		/**
		 * @hrtimer: a sampling cpu-clock or task-clock event: the
		 * timer it samples from, in hard interrupt context.
		 */
		struct hrtimer		hrtimer;
		/*
		 * Counter events: x86's core PMU (arch/x86/events/) and
		 * the device PMUs of drivers (i915, amdgpu, IDXD, ...).
		 */
		struct {
			/**
			 * @config: the event select value, less the enable
			 * bit (a fixed counter's control bits follow from it);
			 * a device PMU's own encoding of the event.
			 */
			u64			config;
			/**
			 * @config_base: where a device PMU programs the
			 * event: its control register's address or offset,
			 * or the driver's own number for it.
			 */
			unsigned long		config_base;
			/**
			 * @event_base: where a device PMU reads the count:
			 * its counter register's address or offset.
			 */
			unsigned long		event_base;
			/** @counters: bitmask of the counters it may use */
			u64			counters;
			/**
			 * @idx: the counter it has: general ones from 0, fixed
			 * ones from X86_PMC_FIXED; -1: none.
			 */
			int			idx;
			/** @x86_flags: X86_EVENT_* (arch/x86/events/pmu.h) */
			unsigned int		x86_flags;
			/**
			 * @extra_config: x86: what the register the event
			 * needs beside its event select must hold (Intel's
			 * offcore response, load latency or front-end MSR:
			 * attr.config1, or the model's for a cache event).
			 */
			u64			extra_config;
			/**
			 * @extra_regs: x86: the extra registers of its CPU
			 * type it may have, a bit each (struct
			 * x86_extra_reg); 0 if it needs none.
			 */
			u8			extra_regs;
			/**
			 * @extra_idx: x86: the extra register its event
			 * select names: the one it has on its CPU while it is
			 * added there.
			 */
			s8			extra_idx;
			/**
			 * @branch_select: x86: what the branch recorder's
			 * filter register must hold for the event's
			 * branch_sample_type (Intel's LBR_SELECT or
			 * IA32_LBR_CTL); the events recording branches on
			 * a CPU share it.
			 */
			u64			branch_select;
			/**
			 * @branch_kinds: x86: the kinds of branch its
			 * samples keep, of those the hardware recorded (the
			 * driver's software filter).
			 */
			u32			branch_kinds;
		};
#ifdef CONFIG_HAVE_HW_BREAKPOINT
		/* Breakpoint events */
		struct {
			/**
			 * @info: the debug register setting the arch code
			 * made of attr.bp_* (arch/x86/kernel/hw_breakpoint.c);
			 * changed in place only while the event is off its CPU.
			 */
			struct arch_hw_breakpoint info;
			/**
			 * @bp_node: a per-task breakpoint: its entry in the
			 * slot accounting's table of task breakpoints, under
			 * bp_slots_mutex (kernel/events/bp_slots.c).
			 */
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
#define PERF_HES_ARCH		0x04	/* the driver's own; the core ignores it */

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
/*
 * Takes PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE events whose config
 * names it in its upper half (PERF_PMU_TYPE_SHIFT): one of the PMUs of
 * a machine with more than one kind of CPU.
 */
#define PERF_PMU_CAP_EXTENDED_HW_TYPE	0x0200
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
 *	this PMU's (having set attr.type to another PMU's type: passed on
 *	to that PMU), another error if it is but cannot be had
 * @add: put an event on the PMU of this CPU (interrupts off)
 * @del: take it off again
 * @start: resume counting without giving the counter up
 * @stop: pause counting
 * @read: bring event->count up to date (on the event's CPU)
 * @pmu_enable: resume the whole PMU after perf_pmu_disable()
 * @pmu_disable: hold the whole PMU while it is being reprogrammed
 * @filter_match: whether an event may run on this CPU now (optional;
 *	asked of a group's leader and of each member, and the group runs
 *	only where all agree)
 * @event_mapped: an event's buffer was mapped into an mm (optional;
 *	with the mm's mmap_lock held)
 * @event_unmapped: a mapping of it went away (optional)
 * @event_idx: what the control page's index field says while the event
 *	is active on this CPU: a user-space read instruction's counter
 *	number plus one, 0 for none (optional: 0)
 * @check_period: whether the PMU takes a sample period (not a
 *	frequency) that PERF_EVENT_IOC_PERIOD or perf_event_period() sets:
 *	0, or -EINVAL (optional: every period is taken)
 * @attr_update: more sysfs groups, added once the PMU's device exists;
 *	their is_visible() may look at the registered PMU (optional)
 * @sched_task: a context switch on a CPU where the PMU asked to hear of
 *	them (perf_sched_cb_inc()): as a task leaves, @sched_in false,
 *	before its events go off; as the next one runs, @sched_in true,
 *	once its events are on.  @ctx is that task's context, or NULL if
 *	it has none.  With the PMU disabled and interrupts off (optional)
 * @task_ctx_size: the size of what the PMU keeps of a task while it does
 *	not run (perf_event_context::task_ctx_data), allocated for a task
 *	context that gets an event its event_init gave
 *	PERF_ATTACH_TASK_DATA (optional)
 * @task_ctx_nr: perf_invalid_context for a PMU that counts per CPU only
 *	and refuses per-task events (-EINVAL, before its event_init is
 *	asked); any other value lets it count tasks.
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
	const struct attribute_group	**attr_update;
	int				capabilities;
	int				task_ctx_nr;
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
	int (*event_idx)(struct perf_event *event);
	int (*check_period)(struct perf_event *event, u64 value);
	void (*sched_task)(struct perf_event_context *ctx, bool sched_in);
	size_t task_ctx_size;
};

/*
 * pmu::task_ctx_nr takes the values of enum perf_event_task_context
 * (<linux/sched.h>).  The core keeps one context per task for all PMUs
 * (task_struct::perf_event_ctxp[0]): only perf_invalid_context, a
 * CPU-only PMU, changes anything.
 */

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
#define PERF_ATTACH_SCHED	0x10	/* holds perf_sched_events on */
#define PERF_ATTACH_TASK_DATA	0x20	/* its task context has data of its PMU */
/*
 * Set by the PMU's event_init: its pmu::sched_task is to hear of the
 * context switches where the event counts, even as a CPU's event (the
 * x86 PEBS records it gathers belong to the task that ran).
 */
#define PERF_ATTACH_SCHED_CB	0x40

/* perf_event::event_caps */
#define PERF_EV_CAP_SOFTWARE	BIT(0)	/* counted by the kernel itself */
/*
 * PERF_EV_CAP_READ_ACTIVE_PKG: a CPU's event whose counters are its die's,
 * and read the same from each CPU of the die.  A read() from another CPU
 * of the die runs there, with the event's context locked, without
 * interrupting the event's CPU: the PMU's read then runs on two CPUs at
 * once (the event's own may read it from a timer or perf_event_read_local()
 * meanwhile), and updates @prev_shared and @count_shared atomically.
 */
#define PERF_EV_CAP_READ_ACTIVE_PKG	BIT(1)

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
 *
 * Inheritance: a child task's copy points to the event that user space
 * opened (@parent), which keeps its live copies on @child_list, under
 * @child_mutex, and sums up those that exited in @child_count and the
 * child times.
 *
 * Output (kernel/events/ring_buffer.c, mmap.c): @rb and @rb_entry change
 * under perf_mmap_mutex only; writers read @rb under RCU.
 *
 * Work an overflow asks for but cannot do where it happens (NMI, under
 * the runqueue lock) is left in @pending and done by @pending_irq on the
 * same CPU.
 */
struct perf_event {
#ifdef CONFIG_PERF_EVENTS
	/**
	 * @attr: the attributes it was opened with; only IOC_PERIOD (period
	 * or frequency), a breakpoint's modification (bp_*, disabled) and
	 * exec (enable_on_exec, cleared) change them later.
	 */
	struct perf_event_attr		attr;
	/** @hw: its PMU's state of it */
	struct hw_perf_event		hw;
	/**
	 * @pmu: the PMU whose event_init took it; the event holds a reference
	 * on the PMU's module until it is freed.
	 */
	struct pmu			*pmu;
	/**
	 * @pmu_private: for the PMU: event_init() may point it at what the
	 * event counts with (an uncore box, a die's RAPL).
	 */
	void				*pmu_private;
	/**
	 * @active_entry: for the PMU: on a list of its own of the events
	 * active on a counter block that a timer reads, under its lock.
	 */
	struct list_head		active_entry;
	/**
	 * @ctx: the context it is in, on which it holds a reference until it
	 * is freed; set once, before it is installed.
	 */
	struct perf_event_context	*ctx;

	/**
	 * @state: where it is in its life; changed under the context's lock
	 * with WRITE_ONCE(), read without it with READ_ONCE().
	 */
	enum perf_event_state		state;
	/**
	 * @attach_state: PERF_ATTACH_* bits: TASK, CALLCHAIN, SCHED and
	 * TASK_DATA set at creation, CONTEXT and GROUP under the context's
	 * lock.
	 */
	unsigned int			attach_state;
	/**
	 * @event_caps: PERF_EV_CAP_* bits its PMU's event_init sets
	 * (PERF_EV_CAP_SOFTWARE: is_software_event()).
	 */
	int				event_caps;
	/** @cpu: the CPU it must run on (-1: any) */
	int				cpu;
	/**
	 * @oncpu: the CPU it is active on, -1 while it is not; set under the
	 * context's lock with WRITE_ONCE(), compared with smp_processor_id()
	 * without it (READ_ONCE() where another CPU may be changing it).
	 */
	int				oncpu;
	/**
	 * @id: its own id, never reused (perf_next_event_id()); a copy's
	 * records give its @parent's as the ID, its own only as STREAM_ID.
	 */
	u64				id;

	/**
	 * @count: what it counted, less what exited copies handed back; added
	 * to by its PMU on the CPU it is active on.
	 * @count_shared: the same, added to with atomic64_add() by a PMU
	 * whose read runs on any CPU of a die (PERF_EV_CAP_READ_ACTIVE_PKG).
	 */
	union {
		local64_t		count;
		atomic64_t		count_shared;
	};
	/**
	 * @child_count: counts handed back by inherited copies that exited,
	 * added under @child_mutex.
	 */
	atomic64_t			child_count;
	/**
	 * @total_time_enabled: context time while enabled, up to the clock
	 * value the times were last brought up to, their stamp (a cgroup
	 * event's clock: its cgroup's time on its CPU).  The two times and
	 * the two offsets are changed under the context's lock with
	 * WRITE_ONCE() and read without it by perf_event_times_now().
	 */
	u64				total_time_enabled;
	/** @total_time_running: the same while active on its PMU */
	u64				total_time_running;
	/**
	 * @enabled_offset: @total_time_enabled less the stamp, which stays
	 * the same while the event is enabled: its time enabled is then its
	 * clock + this, one word, whole even to an NMI that interrupted an
	 * update of the others.  The stamp is not kept: it is the time less
	 * the offset.
	 */
	u64				enabled_offset;
	/** @running_offset: the same for the time running, while active */
	u64				running_offset;
#ifdef CONFIG_CGROUP_PERF
	/**
	 * @cgrp: a cgroup event's cgroup (PERF_FLAG_PID_CGROUP), whose css it
	 * holds a reference on; NULL for other events.
	 */
	struct perf_cgroup		*cgrp;
#endif

	/** @event_entry: on its context's event_list */
	struct list_head		event_entry;
	/**
	 * @group_entry: a group leader's entry on its context's pinned_groups
	 * or flexible_groups (by attr.pinned); empty for a group member.
	 */
	struct list_head		group_entry;
	/**
	 * @group_leader: the leader of its group, itself for a leader or a
	 * lone event; the members of a leader that leaves lead themselves.
	 */
	struct perf_event		*group_leader;
	/** @sibling_list: a leader's members, in the order they joined */
	struct list_head		sibling_list;
	/** @sibling_entry: a member's entry on its leader's @sibling_list */
	struct list_head		sibling_entry;
	/** @nr_siblings: how many members a leader has on @sibling_list */
	int				nr_siblings;

	/**
	 * @hlist_entry: while it is active on a CPU, on that CPU's list of the
	 * software event path (kernel/events/software.c) or of its trace event
	 * (kernel/trace/trace_event_perf.c): changed by that CPU only, with
	 * interrupts off, and walked under RCU.
	 */
	struct hlist_node		hlist_entry;
	/**
	 * @sb_entry: on its context's sb_list, if it wants side-band records
	 * (kernel/events/records.c).
	 */
	struct list_head		sb_entry;

	/**
	 * @refcount: references: its owner's (its file or kernel user; for a
	 * copy, whoever takes it off @parent's @child_list) and one held by
	 * each inherited copy of it; the last perf_event_put() frees it.
	 */
	atomic_long_t			refcount;
	/**
	 * @waitq: poll() waits here; woken by its buffer's wakeups, by the
	 * overflows of an event without a buffer, and once its task and all
	 * its copies have exited.
	 */
	wait_queue_head_t		waitq;
	/**
	 * @owner: the task that opened it, for prctl(PR_TASK_PERF_EVENTS_*),
	 * with a reference held; NULL for copies and kernel users' events.
	 */
	struct task_struct		*owner;
	/**
	 * @owner_entry: on @owner's perf_event_list, under its
	 * perf_event_mutex; as a copy has no owner, the release of @parent
	 * borrows a copy's to list the copies it frees.
	 */
	struct list_head		owner_entry;
	/**
	 * @parent: for an inherited copy, the event user space opened (even
	 * for a copy of a copy), on which it holds a reference; else NULL.
	 */
	struct perf_event		*parent;
	/**
	 * @child_mutex: guards @child_list, the copies' @child_entry and the
	 * child times; taken inside a context's mutex.
	 */
	struct mutex			child_mutex;
	/** @child_list: the live inherited copies of this event */
	struct list_head		child_list;
	/**
	 * @child_entry: a copy's entry on @parent's @child_list; whoever takes
	 * it off (the copy's exit or @parent's release) frees the copy.
	 */
	struct list_head		child_entry;
	/** @child_total_time_enabled: time enabled of copies that exited */
	u64				child_total_time_enabled;
	/** @child_total_time_running: time running of copies that exited */
	u64				child_total_time_running;
	/**
	 * @read_buf: where read() of a group gathers its values, kept for the
	 * next read; @read_buf_size bytes.  Used and changed under the
	 * context's mutex, which read() holds.
	 */
	u64				*read_buf;
	/** @read_buf_size: the size of @read_buf */
	size_t				read_buf_size;
	/**
	 * @ns: the pid namespace of the task that opened it (a reference): its
	 * records give pids and tids as seen there; copies use their parent's.
	 */
	struct pid_namespace		*ns;

	/**
	 * @overflow_handler: a kernel user's handler, run at each overflow
	 * instead of writing a sample; NULL for events opened from user space.
	 * Copies get their parent's.
	 */
	perf_overflow_handler_t		overflow_handler;
	/**
	 * @overflow_handler_context: the kernel user's own pointer for its
	 * handler (perf_event_create_kernel_counter()'s @context).
	 */
	void				*overflow_handler_context;

	/**
	 * @rb: the buffer its samples and records go to: its own, or the one
	 * it was redirected to (PERF_EVENT_IOC_SET_OUTPUT).  NULL for an
	 * inherited copy, which writes to its @parent's.
	 */
	struct perf_buffer __rcu	*rb;
	/**
	 * @rb_entry: on @rb's list of writers (under perf_mmap_mutex, as
	 * @rb), which wakeups walk under RCU.
	 */
	struct list_head		rb_entry;
	/**
	 * @rb_left: when it last left a buffer's list, as an RCU grace-period
	 * cookie (get_state_synchronize_rcu()): joining a list waits until a
	 * wakeup walking the old one cannot be at this event any more.
	 * Under perf_mmap_mutex.
	 */
	unsigned long			rb_left;
	/**
	 * @lost_samples: records it and its inherited copies could not write
	 * (PERF_FORMAT_LOST).
	 */
	atomic64_t			lost_samples;
	/**
	 * @clock: the timestamp clock of its records (attr.use_clockid);
	 * NULL: perf_clock().
	 */
	u64				(*clock)(void);

	/**
	 * @pending_irq: does the work left in @pending, on the CPU of the
	 * overflow, once interrupts are enabled again.
	 */
	struct irq_work			pending_irq;
	/** @pending: PERF_PENDING_* bits (kernel/events/internal.h) */
	unsigned long			pending;
	/**
	 * @pending_kill: the code of the O_ASYNC signal an overflow left for
	 * @pending_irq to send: POLL_IN, or POLL_HUP once the refresh limit
	 * ran out; 0 when none is due.  Set where the event overflows (in NMI
	 * too), and taken with xchg() by @pending_irq, which may run on
	 * another CPU (an inherited copy's output wakes its parent's).
	 */
	int				pending_kill;
	/**
	 * @pending_addr: the address for the SIGTRAP of attr.sigtrap: the
	 * sample's PERF_SAMPLE_ADDR, or 0.
	 */
	u64				pending_addr;
	/**
	 * @fasync: where O_ASYNC signals go (fasync_helper() on its file); a
	 * copy signals through its parent's.
	 */
	struct fasync_struct		*fasync;
	/**
	 * @event_limit: overflows left before the event disables itself
	 * (IOC_REFRESH); 0: no limit.
	 */
	atomic_t			event_limit;
	/**
	 * @mmap_count: the mappings made through this event that are still
	 * there; changed under perf_mmap_mutex.
	 */
	atomic_t			mmap_count;
	/**
	 * @destroy: undoes what its PMU's event_init did, as the event is
	 * freed; NULL if there is nothing to undo.
	 */
	void				(*destroy)(struct perf_event *event);
	/**
	 * @rcu_head: the event is freed after a grace period, for the lists
	 * walked under RCU (@hlist_entry, @sb_entry, @rb_entry).
	 */
	struct rcu_head			rcu_head;

#ifdef CONFIG_EVENT_TRACING
	/**
	 * @tp_event: a tracepoint, kprobe or uprobe event's trace event: set
	 * by perf_trace_init(), for a copy by perf_tp_init_copy().
	 */
	struct trace_event_call		*tp_event;
	/**
	 * @filter: its ftrace filter (PERF_EVENT_IOC_SET_FILTER): set once,
	 * under event_mutex, read without a lock as records come; freed after
	 * a grace period.
	 */
	struct event_filter		*filter;
#endif
#ifdef CONFIG_SECURITY
	/**
	 * @security: the LSMs' blob, from security_perf_event_alloc() as the
	 * event is created until security_perf_event_free() as it is freed.
	 */
	void				*security;
#endif
#ifdef CONFIG_FUNCTION_TRACER
	/**
	 * @ftrace_ops: the ftrace:function event's callback, registered and
	 * filtered by kernel/trace/trace_event_perf.c, which finds the event
	 * from it with container_of().
	 */
	struct ftrace_ops		ftrace_ops;
#endif
#ifdef CONFIG_BPF_SYSCALL
	/**
	 * @prog: the BPF program attached to the event (kernel/events/bpf.c).
	 * A trace event based event's program runs from its trace event's
	 * program array (kernel/trace/bpf_trace.c, under its
	 * bpf_event_mutex); any other event's runs on each overflow, read
	 * under RCU, and changes under perf_bpf_mutex.
	 */
	struct bpf_prog			*prog;
	/** @bpf_cookie: what bpf_get_attach_cookie() gives @prog */
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

/**
 * struct perf_branch_stack - a sample's taken branches
 * @nr: how many there are in @entries
 * @hw_idx: where the newest of them is in the hardware's stack (the
 *	LBR's top of stack; 0 where the newest entry is always the
 *	first), or -1ULL if that is not known; written when the event
 *	asks for PERF_SAMPLE_BRANCH_HW_INDEX
 * @entries: the branches, newest first
 *
 * The PERF_SAMPLE_BRANCH_STACK field of a sample, filled in by a PMU
 * that records branches (the x86 LBR) and read by the core and by
 * bpf_read_branch_records().
 */
struct perf_branch_stack {
	__u64				nr;
	__u64				hw_idx;
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
 * Each member names the PERF_SAMPLE_* bit it is for, less the prefix.
 */
struct perf_sample_data {
	/** @sample_flags: PERF_SAMPLE_* bits of the fields filled in already */
	u64				sample_flags;
	/** @period: how many events the sample stands for (PERIOD) */
	u64				period;
	/**
	 * @addr: the address it concerns (ADDR), e.g. a page fault's or a
	 * breakpoint's; 0 if none.
	 */
	u64				addr;
	/** @raw: the RAW field, e.g. a trace event's record; NULL: empty */
	struct perf_raw_record		*raw;
	/**
	 * @br_stack: the BRANCH_STACK field, valid where @sample_flags has
	 * PERF_SAMPLE_BRANCH_STACK (perf_sample_save_brstack()); else the
	 * field is empty (bpf_read_branch_records() reads it).
	 */
	struct perf_branch_stack	*br_stack;
	/**
	 * @callchain: the CALLCHAIN field, collected by the core
	 * (perf_callchain()) unless the PMU set it; NULL: empty.
	 */
	struct perf_callchain_entry	*callchain;
	/** @phys_addr: the physical address of @addr (PHYS_ADDR), or 0 */
	u64				phys_addr;
	/**
	 * @data_page_size: the size of the page @addr is in, or 0
	 * (DATA_PAGE_SIZE).
	 */
	u64				data_page_size;
	/**
	 * @code_page_size: the size of the page @ip is in, or 0
	 * (CODE_PAGE_SIZE).
	 */
	u64				code_page_size;
	/**
	 * @weight: the WEIGHT or WEIGHT_STRUCT field (a load's latency, say),
	 *	valid where @sample_flags has PERF_SAMPLE_WEIGHT_TYPE; else 0
	 */
	union perf_sample_weight	weight;
	/**
	 * @data_src: where the data of a load or store came from (DATA_SRC),
	 *	valid where @sample_flags has PERF_SAMPLE_DATA_SRC; else
	 *	PERF_MEM_NA
	 */
	union perf_mem_data_src		data_src;
	/**
	 * @txn: the TRANSACTION field, valid where @sample_flags has
	 *	PERF_SAMPLE_TRANSACTION; else 0
	 */
	u64				txn;

	/* Filled in by the core. */
	/** @type: a copy of attr.sample_type (perf_sample_id_prepare()) */
	u64				type;
	/** @ip: the instruction pointer of the registers sampled (IP) */
	u64				ip;
	/**
	 * @time: the record's time stamp, from the event's clock (TIME); a
	 *	PMU that knows when the event happened (a PEBS record's TSC)
	 *	sets it and PERF_SAMPLE_TIME in @sample_flags
	 */
	u64				time;
	/**
	 * @id: the id user space knows the event by, its parent's for an
	 * inherited copy (ID, IDENTIFIER).
	 */
	u64				id;
	/** @stream_id: the event's own id (STREAM_ID) */
	u64				stream_id;
	/**
	 * @tid_entry: process and thread id of the current task, in the
	 * event's pid namespace (TID).
	 */
	struct perf_sample_tid		tid_entry;
	/** @cpu_entry: the CPU the sample was taken on (CPU) */
	struct perf_sample_cpu		cpu_entry;
	/**
	 * @regs_user: the task's user registers, for REGS_USER and the stack
	 * dump of STACK_USER.
	 */
	struct perf_regs		regs_user;
	/** @regs_intr: the registers at the overflow (REGS_INTR) */
	struct perf_regs		regs_intr;
	/**
	 * @stack_user_size: bytes of user stack to dump (STACK_USER): at most
	 * attr.sample_stack_user, a multiple of 8, and what keeps the record
	 * within 64 KiB.
	 */
	u64				stack_user_size;
	/** @cgroup: the current task's cgroup id (CGROUP) */
	u64				cgroup;
	/**
	 * @dyn_size: unused: the size of the stack actually dumped is written
	 * as it is copied (kernel/events/sample.c).
	 */
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
 * scheduled in on changes it; others get there with an IPI.  The one
 * exception: an event of a CPU's context that is off, alone in its group
 * and not a cgroup event is added to the lists and taken off them from
 * any CPU, under both locks, since nothing of it is on the CPU.
 *
 * A task's context may change hands: at a switch between two tasks whose
 * contexts are copies of each other (same nonzero @clone_tag), the
 * scheduler hook gives the running context to the next task and the next
 * task's to the previous one, with both locks held (kernel/events/
 * context.c, ctx_swap()).  So @task and task_struct::perf_event_ctxp[0]
 * are stable only under @lock, or while @pin_count is raised.
 */
struct perf_event_context {
	/** @lock: taken with interrupts off; see Locking above */
	raw_spinlock_t			lock;
	/** @mutex: see Locking above; taken before @lock */
	struct mutex			mutex;

	/** @event_list: every event in the context, leaders and members */
	struct list_head		event_list;
	/** @pinned_groups: the leaders of pinned groups, scheduled in first */
	struct list_head		pinned_groups;
	/**
	 * @flexible_groups: the leaders of the other groups, in the order they
	 * get counters; multiplexing moves the first to the end.
	 */
	struct list_head		flexible_groups;
	/**
	 * @nr_events: events on @event_list; a task's context is scheduled in
	 * only while it has some.
	 */
	int				nr_events;
	/** @nr_active: events on a PMU right now (PERF_EVENT_STATE_ACTIVE) */
	int				nr_active;

	/**
	 * @sb_list: the events that want side-band records
	 * (kernel/events/records.c), a subset of @event_list: changed under
	 * @lock with the _rcu list operations, walked under RCU from any CPU,
	 * with no lock.
	 */
	struct list_head		sb_list;

	/**
	 * @is_active: nonzero while scheduled in on a CPU; changed by that CPU
	 * under @lock with WRITE_ONCE(), read without it with READ_ONCE().
	 */
	int				is_active;
	/**
	 * @task: the task; NULL for a CPU's context; TASK_TOMBSTONE once
	 * exited.  The context holds a reference on it until then.
	 */
	struct task_struct		*task;
	/** @cpu: the CPU of a CPU's context; -1 for a task's */
	int				cpu;

	/**
	 * @time: the context clock: the nanoseconds it has spent scheduled in;
	 * the events' times add up differences of it.
	 */
	u64				time;
	/**
	 * @time_offset: @time less the perf_clock() it was last brought up
	 * to (its stamp, perf_ctx_stamp()), so that while the context is
	 * active its clock is perf_clock() + @time_offset: one word, which
	 * perf_event_times_now() reads without the lock, even in an NMI that
	 * interrupted an update.  Both are changed under @lock with
	 * WRITE_ONCE().
	 */
	u64				time_offset;

	/**
	 * @clone_tag: nonzero when the context holds copies of the same
	 * events as the other contexts with this tag, in the same order and
	 * states; any change to the events clears it.  Changed under @lock.
	 */
	u64				clone_tag;
	/**
	 * @pin_count: while raised, the context stays with its task (raised
	 * under @lock, or by the task itself with interrupts off; dropped
	 * anywhere).
	 */
	atomic_t			pin_count;
	/** @nr_stat: its events with attr.inherit_stat (see ctx_swap()) */
	int				nr_stat;
	/** @nr_own: its events that are not copies (see ctx_swap()) */
	int				nr_own;
	/**
	 * @task_ctx_data: a task context's: what a PMU keeps of the task
	 * while it does not run (pmu::task_ctx_size bytes, for events with
	 * PERF_ATTACH_TASK_DATA), or NULL.  Set once, under @lock; moves
	 * with the task when ctx_swap() hands the context to another, and
	 * freed with the context.  Read by the PMU's sched_task().
	 */
	void				*task_ctx_data;

	/**
	 * @refcount: references: its task's, one per event in it, and one for
	 * each perf_ctx_pin_task() until the caller's perf_put_context(); a
	 * CPU's context never drops to zero.
	 */
	refcount_t			refcount;
	/**
	 * @rcu_head: a task's context is freed after a grace period: its task's
	 * perf_event_ctxp[0] is followed to it under RCU.
	 */
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
void perf_sched_cb_inc(struct pmu *pmu);
void perf_sched_cb_dec(struct pmu *pmu);
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
u64 perf_event_read_value(struct perf_event *event, u64 *enabled,
			  u64 *running);
u64 perf_event_pause(struct perf_event *event, bool reset);
int perf_event_period(struct perf_event *event, u64 value);
int perf_event_refresh(struct perf_event *event, int refresh);

/* CPU-wide PMUs whose events move when their CPU goes (uncore and such) */
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu);

/* A PMU's event_init walking the group its new event joins */
struct perf_event_context *perf_group_lock(struct perf_event *event,
					   unsigned long *flags);
void perf_group_unlock(struct perf_event_context *ctx, unsigned long flags);

/* The architecture: sysrq's 'p' dumps this CPU's PMU */
void perf_event_print_debug(void);

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
	/*
	 * PERF_EVENT_IOC_PERIOD changes the period (or the frequency,
	 * which shares the word) while overflows read it; never to 0.
	 */
	return READ_ONCE(event->attr.sample_period) != 0;
}

/**
 * is_software_event - is the event counted by the kernel, not a PMU?
 * @event: the event
 *
 * Return: true for software, tracepoint and probe events, whose PMUs
 * set PERF_EV_CAP_SOFTWARE; a hardware group may take them as members.
 */
static inline bool is_software_event(struct perf_event *event)
{
	return event->event_caps & PERF_EV_CAP_SOFTWARE;
}

/**
 * has_branch_stack - does the event sample taken branches?
 * @event: the event
 *
 * Return: true if its samples carry PERF_SAMPLE_BRANCH_STACK.
 */
static inline bool has_branch_stack(struct perf_event *event)
{
	return event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK;
}

/**
 * branch_sample_hw_index - does the event's branch stack carry hw_idx?
 * @event: the event
 *
 * Return: true if its samples' PERF_SAMPLE_BRANCH_STACK field has the
 * hardware index word (PERF_SAMPLE_BRANCH_HW_INDEX).
 */
static inline bool branch_sample_hw_index(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX;
}

/**
 * perf_sample_save_brstack - put a branch stack in a sample
 * @data: the sample
 * @event: the event it is of
 * @brs: the branches, which stay where they are until the sample is
 *	written
 *
 * For a PMU's overflow handler; only where the event asked for
 * PERF_SAMPLE_BRANCH_STACK.
 */
static inline void perf_sample_save_brstack(struct perf_sample_data *data,
					    struct perf_event *event,
					    struct perf_branch_stack *brs)
{
	if (!has_branch_stack(event))
		return;
	data->br_stack = brs;
	data->sample_flags |= PERF_SAMPLE_BRANCH_STACK;
}

void perf_sample_save_callchain(struct perf_sample_data *data,
				struct perf_event *event,
				struct pt_regs *regs);

/**
 * perf_event_claim_step - claim what a counter moved on since the last claim
 * @event: an event whose PMU's read may run on two CPUs at once
 *	(PERF_EV_CAP_READ_ACTIVE_PKG); its hw.prev_shared holds the last
 *	value claimed
 * @read: reads the counter, the same from every CPU that may call this
 *
 * The counter is read after the last claim is loaded (RDMSR does not wait
 * for a load before it: a fence), and again after each failed claim, so
 * no step is claimed twice, by an interrupt or by another CPU.
 *
 * Return: the counter's value less the previous claim, for the caller to
 * keep the bits of its width and add to @event's count_shared.
 */
static __always_inline u64
perf_event_claim_step(struct perf_event *event,
		      u64 (*read)(struct perf_event *event))
{
	s64 prev = atomic64_read(&event->hw.prev_shared);
	u64 now;

	do {
		/* The counter's read after the load of the last claim. */
		rmb();
		now = read(event);
	} while (!atomic64_try_cmpxchg(&event->hw.prev_shared, &prev, now));
	return now - (u64)prev;
}

/**
 * for_each_sibling_event - walk the members of a group
 * @sibling: the cursor, a struct perf_event *
 * @event: the group's leader; a member has none to walk
 *
 * For a PMU's callbacks, which run with the context's lock held, and
 * for its event_init between perf_group_lock() and perf_group_unlock():
 * event_init runs before perf_event_open() takes any context's mutex, so
 * other threads may add members to the group or close them meanwhile.
 */
#define for_each_sibling_event(sibling, event)				\
	list_for_each_entry((sibling), &(event)->sibling_list, sibling_entry)

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
 * kind that are not inherited copies (a copy's original holds the key on
 * for it), so that perf_sw_event() is a patched-out branch while there
 * are none.  __perf_regs[] holds the registers of events raised where
 * there is no interrupt frame, one set per interrupt level.
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
static inline u64 perf_event_read_value(struct perf_event *event,
					u64 *enabled, u64 *running)
{
	return 0;
}

static inline u64 perf_event_pause(struct perf_event *event, bool reset)
{
	return 0;
}

static inline int perf_event_period(struct perf_event *event, u64 value)
{
	return -EINVAL;
}

static inline int perf_event_refresh(struct perf_event *event, int refresh)
{
	return -EINVAL;
}

static inline void perf_event_print_debug(void) { }
#define perf_event_init_cpu	NULL
#define perf_event_exit_cpu	NULL

#endif /* CONFIG_PERF_EVENTS */

/**
 * struct perf_pmu_events_attr - an events/ file of a PMU's sysfs directory
 * @attr: the file; its show() is perf_event_sysfs_show() or the driver's
 * @id: the driver's number for the event, for its own show()
 * @event_str: the file's text (the event's config terms), or NULL
 */
struct perf_pmu_events_attr {
	struct device_attribute	attr;
	u64			id;
	const char		*event_str;
};

ssize_t perf_event_sysfs_show(struct device *dev,
			      struct device_attribute *attr, char *page);

/* A struct perf_pmu_events_attr's initialiser: file @_name, @_show(). */
#define PMU_EVENTS_ATTR_INIT(_name, _show, _id, _str)			\
	{								\
		.attr = __ATTR(_name, 0444, _show, NULL),		\
		.id = (_id),						\
		.event_str = (_str),					\
	}

/* An events/ file @_name in static @_var, shown by @_show from @_id. */
#define PMU_EVENT_ATTR(_name, _var, _id, _show)				\
	static struct perf_pmu_events_attr _var =			\
		PMU_EVENTS_ATTR_INIT(_name, _show, _id, NULL)

/* An events/ file @_name in static @_var that reads @_str. */
#define PMU_EVENT_ATTR_STRING(_name, _var, _str)			\
	static struct perf_pmu_events_attr _var =			\
		PMU_EVENTS_ATTR_INIT(_name, perf_event_sysfs_show, 0, _str)

/*
 * An events/ file @_name shown by @_show from @_id, as the struct
 * attribute pointer an attribute array holds (the storage is anonymous).
 */
#define PMU_EVENT_ATTR_ID(_name, _show, _id)				\
	(&((struct perf_pmu_events_attr[]) {				\
		PMU_EVENTS_ATTR_INIT(_name, _show, _id, NULL)		\
	})[0].attr.attr)

/* The show() of a format/ file @_name that reads @_format. */
#define PMU_FORMAT_ATTR_SHOW(_name, _format)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *page)	\
{									\
	BUILD_BUG_ON(sizeof(_format) >= PAGE_SIZE);			\
	return sysfs_emit(page, "%s\n", _format);			\
}

/*
 * A format/ file @_name that reads @_format ("config:0-7"), as the
 * static device attribute format_attr_@_name.
 */
#define PMU_FORMAT_ATTR(_name, _format)					\
	PMU_FORMAT_ATTR_SHOW(_name, _format)				\
	static struct device_attribute format_attr_##_name = __ATTR_RO(_name)

/* perf_guest_info_callbacks::state() */
#define PERF_GUEST_ACTIVE	0x01	/* this CPU is running a guest */
#define PERF_GUEST_USER		0x02	/* ... in the guest's user mode */

/**
 * struct perf_guest_info_callbacks - what a hypervisor tells perf
 * @state: PERF_GUEST_* of the guest this CPU is running, 0 for none;
 *	asked in the overflow interrupt, to attribute a sample to it
 * @get_ip: the guest's instruction pointer, when state() says it runs
 * @handle_intel_pt_intr: an Intel PT interrupt that belongs to the
 *	guest: hand it on and return nonzero (optional)
 *
 * KVM and Xen register theirs; one set is registered at a time.
 */
struct perf_guest_info_callbacks {
	unsigned int	(*state)(void);
	unsigned long	(*get_ip)(void);
	unsigned int	(*handle_intel_pt_intr)(void);
};

#ifdef CONFIG_GUEST_PERF_EVENTS
/*
 * The registered callbacks are called through static calls
 * (kernel/events/guest.c): a direct call, which returns 0 while none is
 * registered.
 */
typedef unsigned int perf_guest_u32_fn(void);
typedef unsigned long perf_guest_ulong_fn(void);
DECLARE_STATIC_CALL(perf_guest_state_call, perf_guest_u32_fn);
DECLARE_STATIC_CALL(perf_guest_ip_call, perf_guest_ulong_fn);
DECLARE_STATIC_CALL(perf_guest_pt_call, perf_guest_u32_fn);
#define perf_guest_call(what)	static_call(perf_guest_##what##_call)()

void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs);
void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs);
#else
/* Without a hypervisor that can register, the CPU never runs a guest. */
#define perf_guest_call(what)	0
#endif

/* PERF_GUEST_* of what this CPU runs now (interrupts off). */
static inline unsigned int perf_guest_state(void)
{
	return perf_guest_call(state);
}

/* The guest's instruction pointer, once perf_guest_state() said it runs. */
static inline unsigned long perf_guest_get_ip(void)
{
	return perf_guest_call(ip);
}

/* Give an Intel PT interrupt to the guest: nonzero if it took it. */
static inline unsigned int perf_guest_handle_intel_pt_intr(void)
{
	return perf_guest_call(pt);
}

/*
 * After resume, x86 gives each CPU back its IA32_DS_AREA, which the
 * Intel driver's precise sampling writes its records through
 * (arch/x86/events/intel/debug_store.c).
 */
#if defined(CONFIG_PERF_EVENTS) && defined(CONFIG_CPU_SUP_INTEL)
void perf_restore_debug_store(void);
#else
static inline void perf_restore_debug_store(void) { }
#endif

#endif /* _LINUX_PERF_EVENT_H */
