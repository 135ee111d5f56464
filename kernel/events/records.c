// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records: what happened to tasks, memory maps and kernel
 * text, written into the ring buffers of the events that asked for it
 * (attr.comm, task, context_switch, namespaces, ksymbol, text_poke; in
 * records_mmap.c, mmap, mmap2 and mmap_data; in cgroup.c, cgroup).  Also the records about
 * one event: PERF_RECORD_READ of an inherited copy (inherit_stat) and
 * PERF_RECORD_LOST_SAMPLES from PMU drivers.
 *
 * Who gets a record: the events that are enabled and may count on this
 * CPU, in the context of this CPU (CPU-wide events) and in the context of
 * the current task, which is the task the record is about or the one
 * that caused it.  So a CPU-wide event hears of what happens on its CPU,
 * and a per-task event (inherited copies included, which write into the
 * buffer of the event user space opened) of what its task does.
 *
 * Finding them costs nothing while no event wants a kind of record: each
 * hook first tests a count of the events that want its kind, or is
 * reached only through the scheduler hooks' static key.  The events
 * themselves are found on each context's sb_list, walked under RCU (see
 * struct perf_event_context).
 *
 * Records are built in two steps: what may sleep (file names, build ids,
 * namespace inodes) is looked up once per occurrence, before the walk;
 * the walk, with preemption off, writes one record per event, with the
 * pids of the event's namespace and its own sample_id trailer.
 */
#include <linux/perf_event.h>
#include <linux/kallsyms.h>
#include <linux/kdev_t.h>
#include <linux/mount.h>
#include <linux/proc_ns.h>
#include <linux/sched/signal.h>
#include <linux/smp.h>

#include "internal.h"

/* How many events want each kind of record: the hooks' first test. */
atomic_t perf_sb_nr[PERF_SB_NR];

/* The kinds of record an event's attributes ask for: PERF_SB_* bits. */
static unsigned int perf_sb_kinds(const struct perf_event_attr *attr)
{
	unsigned int kinds = 0;

	if (attr->mmap || attr->mmap2)
		kinds |= BIT(PERF_SB_MMAP_EXEC);
	if (attr->mmap_data)
		kinds |= BIT(PERF_SB_MMAP_DATA);
	if (attr->build_id)
		kinds |= BIT(PERF_SB_BUILD_ID);
	if (attr->comm)
		kinds |= BIT(PERF_SB_COMM);
	/* FORK and EXIT also go to those that track names or maps. */
	if (attr->task || attr->comm || attr->mmap || attr->mmap2 ||
	    attr->mmap_data)
		kinds |= BIT(PERF_SB_TASK);
	if (attr->context_switch)
		kinds |= BIT(PERF_SB_SWITCH);
	if (attr->namespaces)
		kinds |= BIT(PERF_SB_NAMESPACES);
	if (attr->ksymbol)
		kinds |= BIT(PERF_SB_KSYMBOL);
	if (attr->text_poke)
		kinds |= BIT(PERF_SB_TEXT_POKE);
	if (attr->cgroup)
		kinds |= BIT(PERF_SB_CGROUP);
	if (attr->bpf_event)
		kinds |= BIT(PERF_SB_BPF_EVENT);
	return kinds;
}

/**
 * perf_sb_account - count a new or departing event in perf_sb_nr[]
 * @event: the event, from perf_event_alloc() or in perf_event_free()
 * @add: true for a new event, false for one being freed
 *
 * Context switch records come from the scheduler hooks, which run only
 * while perf_sched_events is on: such an event holds it on, unless it is
 * an inherited copy, whose parent does.  May sleep.
 */
void perf_sb_account(struct perf_event *event, bool add)
{
	unsigned long kinds = perf_sb_kinds(&event->attr);
	int kind;

	for_each_set_bit(kind, &kinds, PERF_SB_NR) {
		if (add)
			atomic_inc(&perf_sb_nr[kind]);
		else
			atomic_dec(&perf_sb_nr[kind]);
	}
	if (!event->attr.context_switch || event->parent)
		return;
	if (add)
		static_branch_inc(&perf_sched_events.key);
	else
		static_branch_slow_dec_deferred(&perf_sched_events);
}

/**
 * perf_sb_ctx_add - put an event joining a context on its sb_list
 * @ctx: the context, locked
 * @event: the event
 *
 * Events that want no side-band record stay off the list.
 */
void perf_sb_ctx_add(struct perf_event_context *ctx, struct perf_event *event)
{
	lockdep_assert_held(&ctx->lock);
	if (perf_sb_kinds(&event->attr))
		list_add_tail_rcu(&event->sb_entry, &ctx->sb_list);
}

/**
 * perf_sb_ctx_del - take an event leaving its context off the sb_list
 * @ctx: the context, locked
 * @event: the event, which perf_sb_ctx_add() saw join @ctx
 *
 * Walkers may still see it until a grace period has passed; events are
 * freed after one.
 */
void perf_sb_ctx_del(struct perf_event_context *ctx, struct perf_event *event)
{
	lockdep_assert_held(&ctx->lock);
	if (perf_sb_kinds(&event->attr))
		list_del_rcu(&event->sb_entry);
}

/*
 * Can @event take a record here and now?  Not where its group could
 * not run (a hybrid's other kind of CPU).
 */
static bool perf_sb_event_ready(struct perf_event *event)
{
	unsigned long flags;
	bool ready;

	if (READ_ONCE(event->state) < PERF_EVENT_STATE_INACTIVE)
		return false;
	if (event->cpu != -1 && event->cpu != smp_processor_id())
		return false;
	if (!READ_ONCE(event->nr_siblings))
		return !event->pmu->filter_match ||
		       event->pmu->filter_match(event);
	local_irq_save(flags);
	ready = perf_pmus_filter_match(event);
	local_irq_restore(flags);
	return ready;
}

static void perf_sb_walk(struct perf_event_context *ctx, perf_sb_fn fn,
			 void *data)
{
	struct perf_event *event;

	list_for_each_entry_rcu(event, &ctx->sb_list, sb_entry) {
		if (perf_sb_event_ready(event))
			fn(event, data);
	}
}

/**
 * perf_sb_deliver - offer a record to the events that may want it
 * @task_ctx: the task context to offer it in, or NULL for the current
 *	task's; ignored without @task
 * @task: offer it in a task context
 * @cpu: offer it in this CPU's context
 * @fn: called for each enabled event that may count on this CPU; it
 *	checks what the event asked for and writes the record
 * @data: passed to @fn
 *
 * Any context but NMI.
 */
void perf_sb_deliver(struct perf_event_context *task_ctx, bool task,
		     bool cpu, perf_sb_fn fn, void *data)
{
	struct perf_event_context *ctx;

	preempt_disable();
	rcu_read_lock();
	if (cpu)
		perf_sb_walk(perf_cpu_ctx_this(), fn, data);
	if (task) {
		ctx = task_ctx ?: READ_ONCE(current->perf_event_ctxp[0]);
		if (ctx)
			perf_sb_walk(ctx, fn, data);
	}
	rcu_read_unlock();
	preempt_enable();
}

/**
 * perf_sb_output - write one side-band record
 * @event: the event it goes to (an inherited copy writes into its
 *	parent's buffer)
 * @header: the record's type and misc; its size is filled in
 * @body: what follows the header
 * @size: bytes at @body
 * @tail: more bytes after @body, or NULL
 * @tail_size: bytes at @tail, with @size a multiple of 8 in all
 *
 * The sample_id trailer follows, describing the current task.
 */
void perf_sb_output(struct perf_event *event, struct perf_event_header *header,
		    const void *body, unsigned int size, const void *tail,
		    unsigned int tail_size)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;

	header->size = sizeof(*header) + size + tail_size +
		       perf_sample_id_size(event);
	perf_sample_id_prepare(&data, event);
	if (perf_output_begin(&handle, &data, event, header->size))
		return;
	perf_output_put(&handle, *header);
	if (size)
		perf_output_copy(&handle, body, size);
	if (tail_size)
		perf_output_copy(&handle, tail, tail_size);
	perf_output_sample_id(&handle, event, &data);
	perf_output_end(&handle);
}

/* COMM */

struct perf_comm_sb {
	struct task_struct	*task;
	u16			misc;
	unsigned int		size;		/* of comm, padded */
	char			comm[ALIGN(TASK_COMM_LEN, sizeof(u64))];
};

static void perf_comm_output(struct perf_event *event, void *data)
{
	struct perf_comm_sb *c = data;
	struct perf_event_header header = {
		.type = PERF_RECORD_COMM,
		.misc = c->misc,
	};
	struct {
		u32	pid;
		u32	tid;
	} ids;

	if (!event->attr.comm)
		return;
	ids.pid = perf_record_pid(event, c->task, PIDTYPE_TGID);
	ids.tid = perf_record_pid(event, c->task, PIDTYPE_PID);
	perf_sb_output(event, &header, &ids, sizeof(ids), c->comm, c->size);
}

/**
 * perf_event_comm - a task changed its name
 * @task: the task
 * @exec: whether the change comes from exec
 *
 * PERF_RECORD_COMM for the events of the current task (which may be
 * renaming another thread of its process) and of this CPU, with
 * PERF_RECORD_MISC_COMM_EXEC when @exec.
 */
void perf_event_comm(struct task_struct *task, bool exec)
{
	struct perf_comm_sb c = {
		.task = task,
		.misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
	};

	if (!atomic_read(&perf_sb_nr[PERF_SB_COMM]))
		return;
	get_task_comm(c.comm, task);
	c.size = ALIGN(strlen(c.comm) + 1, sizeof(u64));
	perf_sb_deliver(NULL, true, true, perf_comm_output, &c);
}

/* FORK and EXIT */

struct perf_task_sb {
	struct task_struct	*task;
	u32			type;
};

static void perf_task_output(struct perf_event *event, void *data)
{
	struct perf_task_sb *t = data;
	struct perf_event_header header = { .type = t->type };
	struct task_struct *parent;
	struct {
		u32	pid;
		u32	ppid;
		u32	tid;
		u32	ptid;
		u64	time;
	} rec;

	if (!event->attr.task && !event->attr.comm && !event->attr.mmap &&
	    !event->attr.mmap2 && !event->attr.mmap_data)
		return;
	rec.pid = perf_record_pid(event, t->task, PIDTYPE_TGID);
	rec.tid = perf_record_pid(event, t->task, PIDTYPE_PID);
	if (t->type == PERF_RECORD_FORK) {
		/* The parent is the task forking. */
		rec.ppid = perf_record_pid(event, current, PIDTYPE_TGID);
		rec.ptid = perf_record_pid(event, current, PIDTYPE_PID);
	} else {
		/* Both name the process of the real parent, as 6.1 does. */
		parent = rcu_dereference(t->task->real_parent);
		rec.ppid = perf_record_pid(event, parent, PIDTYPE_TGID);
		rec.ptid = rec.ppid;
	}
	rec.time = perf_event_time_clock(event);
	perf_sb_output(event, &header, &rec, sizeof(rec), NULL, 0);
}

/**
 * perf_event_fork - a new task is about to run
 * @task: the child, fully set up
 *
 * From the parent: PERF_RECORD_FORK and PERF_RECORD_NAMESPACES for the
 * parent's events and this CPU's.  The child's inherited events see
 * nothing of its birth.
 */
void perf_event_fork(struct task_struct *task)
{
	struct perf_task_sb t = { .task = task, .type = PERF_RECORD_FORK };

	if (atomic_read(&perf_sb_nr[PERF_SB_TASK]))
		perf_sb_deliver(NULL, true, true, perf_task_output, &t);
	perf_event_namespaces(task);
}

/**
 * perf_record_exit - PERF_RECORD_EXIT for a task that stops being watched
 * @task: the current task, exiting (or executing a setuid program)
 * @ctx: its context, scheduled out but with its events still as they
 *	were, locked; or NULL for the events of this CPU
 *
 * perf_event_exit_task() calls this twice: for the task's own events,
 * once they can take no more samples, and for the CPU's.
 */
void perf_record_exit(struct task_struct *task, struct perf_event_context *ctx)
{
	struct perf_task_sb t = { .task = task, .type = PERF_RECORD_EXIT };

	if (!atomic_read(&perf_sb_nr[PERF_SB_TASK]))
		return;
	if (ctx)
		perf_sb_deliver(ctx, true, false, perf_task_output, &t);
	else
		perf_sb_deliver(NULL, false, true, perf_task_output, &t);
}

/* NAMESPACES */

/* Each namespace this kernel has, at its index in the record. */
static const struct proc_ns_operations *const perf_ns_ops[NR_NAMESPACES] = {
#ifdef CONFIG_NET_NS
	[NET_NS_INDEX]		= &netns_operations,
#endif
#ifdef CONFIG_UTS_NS
	[UTS_NS_INDEX]		= &utsns_operations,
#endif
#ifdef CONFIG_IPC_NS
	[IPC_NS_INDEX]		= &ipcns_operations,
#endif
#ifdef CONFIG_PID_NS
	[PID_NS_INDEX]		= &pidns_for_children_operations,
#endif
#ifdef CONFIG_USER_NS
	[USER_NS_INDEX]		= &userns_operations,
#endif
	[MNT_NS_INDEX]		= &mntns_operations,
#ifdef CONFIG_CGROUPS
	[CGROUP_NS_INDEX]	= &cgroupns_operations,
#endif
};

struct perf_ns_sb {
	struct task_struct	*task;
	u64			nr;
	struct perf_ns_link_info link[NR_NAMESPACES];
};

static void perf_ns_output(struct perf_event *event, void *data)
{
	struct perf_ns_sb *n = data;
	struct perf_event_header header = { .type = PERF_RECORD_NAMESPACES };
	struct {
		u32	pid;
		u32	tid;
		u64	nr;
	} rec;

	if (!event->attr.namespaces)
		return;
	rec.pid = perf_record_pid(event, n->task, PIDTYPE_TGID);
	rec.tid = perf_record_pid(event, n->task, PIDTYPE_PID);
	rec.nr = n->nr;
	perf_sb_output(event, &header, &rec, sizeof(rec), n->link,
		       sizeof(n->link));
}

/**
 * perf_event_namespaces - a task has new namespaces
 * @task: the task: a new one (from perf_event_fork()), or the current
 *	one after unshare() or setns()
 *
 * PERF_RECORD_NAMESPACES for the current task's events and this CPU's:
 * the device and inode of each of @task's namespaces, as its nsfs files
 * (/proc/<pid>/ns/) have them; zero for those this kernel lacks.  May
 * sleep.
 */
void perf_event_namespaces(struct task_struct *task)
{
	struct perf_ns_sb n = { .task = task, .nr = NR_NAMESPACES };
	struct inode *inode;
	struct path path;
	int i;

	if (!atomic_read(&perf_sb_nr[PERF_SB_NAMESPACES]))
		return;
	for (i = 0; i < NR_NAMESPACES; i++) {
		if (!perf_ns_ops[i] || ns_get_path(&path, task, perf_ns_ops[i]))
			continue;
		inode = d_inode(path.dentry);
		n.link[i].dev = new_encode_dev(inode->i_sb->s_dev);
		n.link[i].ino = inode->i_ino;
		path_put(&path);
	}
	perf_sb_deliver(NULL, true, true, perf_ns_output, &n);
}

/* SWITCH and SWITCH_CPU_WIDE */

struct perf_switch_sb {
	struct task_struct	*other;	/* the next task out, previous in */
	u16			misc;
};

static void perf_switch_output(struct perf_event *event, void *data)
{
	struct perf_switch_sb *s = data;
	struct perf_event_header header = { .misc = s->misc };
	struct {
		u32	pid;
		u32	tid;
	} other;

	if (!event->attr.context_switch)
		return;
	/* A per-task event knows the task: the record is the header. */
	if (READ_ONCE(event->ctx->task)) {
		header.type = PERF_RECORD_SWITCH;
		perf_sb_output(event, &header, NULL, 0, NULL, 0);
		return;
	}
	header.type = PERF_RECORD_SWITCH_CPU_WIDE;
	other.pid = perf_record_pid(event, s->other, PIDTYPE_TGID);
	other.tid = perf_record_pid(event, s->other, PIDTYPE_PID);
	perf_sb_output(event, &header, &other, sizeof(other), NULL, 0);
}

/**
 * perf_record_switch - the current task is switched out or in
 * @task: the current task
 * @other: the task that follows it (out) or preceded it (in)
 * @in: true when switching in
 *
 * From the scheduler hooks, interrupts off.  A task switched out while
 * still runnable was preempted.
 */
void perf_record_switch(struct task_struct *task, struct task_struct *other,
			bool in)
{
	struct perf_switch_sb s = { .other = other };

	if (!in) {
		s.misc = PERF_RECORD_MISC_SWITCH_OUT;
		if (READ_ONCE(task->on_rq))
			s.misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	}
	perf_sb_deliver(NULL, true, true, perf_switch_output, &s);
}

/* KSYMBOL */

struct perf_ksymbol_sb {
	struct {
		u64	addr;
		u32	len;
		u16	ksym_type;
		u16	flags;
	} rec;
	unsigned int	size;		/* of name, padded */
	char		*name;
};

static void perf_ksymbol_output(struct perf_event *event, void *data)
{
	struct perf_ksymbol_sb *k = data;
	struct perf_event_header header = { .type = PERF_RECORD_KSYMBOL };

	if (event->attr.ksymbol)
		perf_sb_output(event, &header, &k->rec, sizeof(k->rec),
			       k->name, k->size);
}

/**
 * perf_event_ksymbol - a kernel symbol was added or removed
 * @ksym_type: PERF_RECORD_KSYMBOL_TYPE_BPF or _OOL
 * @addr: its address
 * @len: its length
 * @unregister: true if it goes away
 * @sym: its name
 *
 * PERF_RECORD_KSYMBOL for the events of the current task and of this
 * CPU.  Any context but NMI; takes no locks.  A type it does not know is
 * ignored.
 */
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *sym)
{
	char name[KSYM_NAME_LEN];
	struct perf_ksymbol_sb k = {
		.rec = {
			.addr = addr,
			.len = len,
			.ksym_type = ksym_type,
			.flags = unregister ?
				 PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0,
		},
		.name = name,
	};
	ssize_t n;

	if (!atomic_read(&perf_sb_nr[PERF_SB_KSYMBOL]))
		return;
	if (ksym_type == PERF_RECORD_KSYMBOL_TYPE_UNKNOWN ||
	    ksym_type >= PERF_RECORD_KSYMBOL_TYPE_MAX)
		return;
	/* The name, NUL-padded to 8 bytes (KSYM_NAME_LEN is a multiple). */
	n = strscpy_pad(name, sym, sizeof(name));
	if (n < 0)
		n = sizeof(name) - 1;
	k.size = ALIGN(n + 1, sizeof(u64));
	perf_sb_deliver(NULL, true, true, perf_ksymbol_output, &k);
}

/* TEXT_POKE */

struct perf_text_poke_sb {
	u64		addr;
	const void	*old_bytes;
	const void	*new_bytes;
	u16		old_len;
	u16		new_len;
};

static void perf_text_poke_output(struct perf_event *event, void *data)
{
	struct perf_text_poke_sb *t = data;
	struct perf_event_header header = { .type = PERF_RECORD_TEXT_POKE };
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	unsigned int size, pad;
	u64 zero = 0;

	if (!event->attr.text_poke)
		return;
	size = sizeof(t->addr) + sizeof(t->old_len) + sizeof(t->new_len) +
	       t->old_len + t->new_len;
	pad = ALIGN(size, sizeof(u64)) - size;
	header.size = sizeof(header) + size + pad + perf_sample_id_size(event);
	perf_sample_id_prepare(&sample, event);
	if (perf_output_begin(&handle, &sample, event, header.size))
		return;
	perf_output_put(&handle, header);
	perf_output_put(&handle, t->addr);
	perf_output_put(&handle, t->old_len);
	perf_output_put(&handle, t->new_len);
	if (t->old_len)
		perf_output_copy(&handle, t->old_bytes, t->old_len);
	if (t->new_len)
		perf_output_copy(&handle, t->new_bytes, t->new_len);
	if (pad)
		perf_output_copy(&handle, &zero, pad);
	perf_output_sample_id(&handle, event, &sample);
	perf_output_end(&handle);
}

/**
 * perf_event_text_poke - kernel text was changed
 * @addr: where
 * @old_bytes: the old text
 * @old_len: its length
 * @new_bytes: the new text
 * @new_len: its length
 *
 * PERF_RECORD_TEXT_POKE for the events of the current task and of this
 * CPU.  Called from the text patching code: takes no locks, and costs
 * one counter test while no event wants these records.
 */
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes,
			  size_t new_len)
{
	struct perf_text_poke_sb t = {
		.addr = (unsigned long)addr,
		.old_bytes = old_bytes,
		.new_bytes = new_bytes,
		.old_len = old_len,
		.new_len = new_len,
	};

	if (!atomic_read(&perf_sb_nr[PERF_SB_TEXT_POKE]))
		return;
	/* A record is at most 64 KiB. */
	if (old_len > U16_MAX / 4 || new_len > U16_MAX / 4)
		return;
	perf_sb_deliver(NULL, true, true, perf_text_poke_output, &t);
}

/* READ */

struct perf_read_sb {
	struct perf_event		*event;
	struct task_struct		*task;
	struct perf_sample_data		data;	/* the trailer, prepared */
};

static void perf_read_output(void *arg)
{
	struct perf_read_sb *r = arg;
	struct perf_event *event = r->event;
	struct perf_event_header header = { .type = PERF_RECORD_READ };
	struct perf_output_handle handle;
	struct {
		u32	pid;
		u32	tid;
	} ids;

	ids.pid = perf_record_pid(event, r->task, PIDTYPE_TGID);
	ids.tid = perf_record_pid(event, r->task, PIDTYPE_PID);
	header.size = sizeof(header) + sizeof(ids) +
		      perf_sample_read_size(event) +
		      perf_sample_id_size(event);
	if (perf_output_begin(&handle, &r->data, event, header.size))
		return;
	perf_output_put(&handle, header);
	perf_output_put(&handle, ids);
	perf_output_read(&handle, event);
	perf_output_sample_id(&handle, event, &r->data);
	perf_output_end(&handle);
}

/**
 * perf_record_read - the last values of an inherited copy (inherit_stat)
 * @event: the copy, stopped for good
 * @task: its task, exiting; the current task
 *
 * PERF_RECORD_READ with the copy's own values, into its parent's buffer.
 * A copy bound to another CPU writes there, as that buffer's writers
 * all run on it.  May sleep.
 */
void perf_record_read(struct perf_event *event, struct task_struct *task)
{
	struct perf_read_sb *r;
	int cpu;

	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return;
	r->event = event;
	r->task = task;
	perf_sample_id_prepare(&r->data, event);

	cpu = get_cpu();
	if (event->cpu == -1 || event->cpu == cpu ||
	    smp_call_function_single(event->cpu, perf_read_output, r, 1))
		perf_read_output(r);
	put_cpu();
	kfree(r);
}

/* LOST_SAMPLES */

/**
 * perf_log_lost_samples - tell user space that samples were dropped
 * @event: the event whose samples the PMU could not deliver
 * @lost: how many
 *
 * For PMU drivers, on the event's CPU, in any context.  Writes a
 * PERF_RECORD_LOST_SAMPLES into the event's buffer.
 */
void perf_log_lost_samples(struct perf_event *event, u64 lost)
{
	struct perf_event_header header = {
		.type = PERF_RECORD_LOST_SAMPLES,
	};

	perf_sb_output(event, &header, &lost, sizeof(lost), NULL, 0);
}
EXPORT_SYMBOL_GPL(perf_log_lost_samples);
