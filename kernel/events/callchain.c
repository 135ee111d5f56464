// SPDX-License-Identifier: GPL-2.0
/*
 * Call chains (PERF_SAMPLE_CALLCHAIN): the limits on their depth, and
 * the per-CPU buffers samples collect them in.
 *
 * perf_event_max_stack and perf_event_max_contexts_per_stack bound every
 * chain.  An event may ask for less (attr.sample_max_stack), never more;
 * and the limits cannot change while an event that samples call chains
 * exists, since its buffers are sized by them.
 */
#include <linux/perf_event.h>
#include <linux/mutex.h>
#include <linux/sysctl.h>
#include <linux/slab.h>
#include <linux/sched/task_stack.h>

#include "internal.h"

/*
 * Events that sample call chains, and the buffers: one per CPU and
 * interrupt level (a sample never interrupts one of its own level on its
 * CPU), sized for the limits when the first user came.  The buffers stay
 * once allocated; they are sized again when the limits change, which
 * they can only while there are no users.  All under perf_callchain_mutex;
 * samples read perf_callchain_bufs under RCU.
 */
static DEFINE_MUTEX(perf_callchain_mutex);
static int perf_callchain_users;

struct perf_callchain_bufs {
	struct rcu_head			rcu_head;
	unsigned int			entries;
	struct perf_callchain_entry	*cpu[][PERF_NR_CONTEXTS];
};

static struct perf_callchain_bufs __rcu *perf_callchain_bufs;

/*
 * Which of this CPU's buffers are being filled, one flag per interrupt
 * level: a walk that a kprobe (and its BPF program) interrupts at the
 * same level must not have its buffer taken from under it.
 */
static DEFINE_PER_CPU(bool, perf_callchain_busy[PERF_NR_CONTEXTS]);

static void perf_callchain_bufs_free(struct perf_callchain_bufs *bufs)
{
	int cpu, level;

	if (!bufs)
		return;
	for_each_possible_cpu(cpu)
		for (level = 0; level < PERF_NR_CONTEXTS; level++)
			kfree(bufs->cpu[cpu][level]);
	kfree(bufs);
}

static void perf_callchain_bufs_free_rcu(struct rcu_head *head)
{
	perf_callchain_bufs_free(container_of(head, struct perf_callchain_bufs,
					      rcu_head));
}

/* (Re)allocate the buffers for the current limits; under the mutex. */
static int perf_callchain_bufs_alloc(void)
{
	struct perf_callchain_bufs *bufs, *old;
	unsigned int entries;
	size_t size;
	int cpu, level;

	old = rcu_dereference_protected(perf_callchain_bufs,
					lockdep_is_held(&perf_callchain_mutex));
	entries = sysctl_perf_event_max_stack +
		  sysctl_perf_event_max_contexts_per_stack;
	if (old && old->entries == entries)
		return 0;

	bufs = kzalloc(struct_size(bufs, cpu, nr_cpu_ids), GFP_KERNEL);
	if (!bufs)
		return perf_refuse(-ENOMEM, "callchain: out of memory", 0);
	bufs->entries = entries;
	size = struct_size((struct perf_callchain_entry *)NULL, ip, entries);
	for_each_possible_cpu(cpu) {
		for (level = 0; level < PERF_NR_CONTEXTS; level++) {
			bufs->cpu[cpu][level] = kmalloc_node(size, GFP_KERNEL,
							     cpu_to_node(cpu));
			if (!bufs->cpu[cpu][level]) {
				perf_callchain_bufs_free(bufs);
				return perf_refuse(-ENOMEM,
						   "callchain: out of memory", 0);
			}
		}
	}
	rcu_assign_pointer(perf_callchain_bufs, bufs);
	if (old)
		call_rcu(&old->rcu_head, perf_callchain_bufs_free_rcu);
	return 0;
}

/**
 * perf_callchain_get - a new event will sample call chains
 * @max_stack: the depth it asks for
 *
 * Return: 0, or -EOVERFLOW if @max_stack is above perf_event_max_stack.
 */
int perf_callchain_get(u32 max_stack)
{
	int ret = 0;

	mutex_lock(&perf_callchain_mutex);
	if (max_stack > READ_ONCE(sysctl_perf_event_max_stack))
		ret = perf_refuse(-EOVERFLOW,
				  "sample_max_stack: above perf_event_max_stack",
				  max_stack);
	else if (!perf_callchain_users)
		ret = perf_callchain_bufs_alloc();
	if (!ret)
		perf_callchain_users++;
	mutex_unlock(&perf_callchain_mutex);
	return ret;
}

/**
 * perf_callchain_put - an event that sampled call chains is gone
 */
void perf_callchain_put(void)
{
	mutex_lock(&perf_callchain_mutex);
	perf_callchain_users--;
	mutex_unlock(&perf_callchain_mutex);
}

/**
 * perf_event_max_stack_handler - write perf_event_max_stack and
 * perf_event_max_contexts_per_stack
 * @table: the sysctl entry
 * @write: whether this is a write
 * @buffer: the data
 * @lenp: its length
 * @ppos: the file position
 *
 * Return: 0; -EBUSY while an event samples call chains; another errno
 * for a value out of the table's bounds.
 */
int perf_event_max_stack_handler(struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	int *value = table->data, new = *value, ret;
	struct ctl_table copy = *table;

	copy.data = &new;
	ret = proc_dointvec_minmax(&copy, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;

	mutex_lock(&perf_callchain_mutex);
	if (perf_callchain_users)
		ret = -EBUSY;
	else
		WRITE_ONCE(*value, new);
	mutex_unlock(&perf_callchain_mutex);
	return ret;
}

/* Store one entry; 1 if the chain is full. */
static int perf_callchain_add(struct perf_callchain_entry_ctx *ctx, u64 ip,
			      unsigned int max)
{
	if (ctx->nr >= max)
		return 1;
	ctx->entry->ip[ctx->entry->nr++] = ip;
	ctx->nr++;
	return 0;
}

/**
 * perf_callchain_store - add a return address to a call chain
 * @ctx: the chain being collected
 * @ip: the address
 *
 * For the architecture's perf_callchain_kernel() and _user().
 *
 * Return: 0, or 1 once the chain has reached its maximum depth.
 */
int perf_callchain_store(struct perf_callchain_entry_ctx *ctx, u64 ip)
{
	return perf_callchain_add(ctx, ip, ctx->max_stack);
}

/* A PERF_CONTEXT_* marker: limited by perf_event_max_contexts_per_stack. */
static void perf_callchain_mark(struct perf_callchain_entry_ctx *ctx,
				u64 context)
{
	if (ctx->contexts >= sysctl_perf_event_max_contexts_per_stack)
		return;
	ctx->entry->ip[ctx->entry->nr++] = context;
	ctx->contexts++;
}

/*
 * Take this CPU's buffer of the current interrupt level, preemption off:
 * NULL (and preemption as it was) if there are no buffers or it is in
 * use.  Its level goes to *@level for perf_callchain_release().
 */
static struct perf_callchain_entry *perf_callchain_take(int *level)
{
	struct perf_callchain_bufs *bufs;
	bool *busy;

	preempt_disable();
	*level = interrupt_context_level();
	busy = this_cpu_ptr(&perf_callchain_busy[*level]);
	bufs = rcu_dereference_sched(perf_callchain_bufs);
	if (!bufs || READ_ONCE(*busy)) {
		preempt_enable();
		return NULL;
	}
	WRITE_ONCE(*busy, true);
	barrier();
	return bufs->cpu[smp_processor_id()][*level];
}

static void perf_callchain_release(int level)
{
	barrier();
	this_cpu_write(perf_callchain_busy[level], false);
	preempt_enable();
}

/* The deepest chain a buffer of the current size holds. */
static unsigned int perf_callchain_room(void)
{
	struct perf_callchain_bufs *bufs;

	bufs = rcu_dereference_sched(perf_callchain_bufs);
	return bufs->entries - sysctl_perf_event_max_contexts_per_stack;
}

/**
 * get_callchain_buffers - BPF needs the call chain buffers
 * @max_stack: the depth it will ask for
 *
 * For the stack map and bpf_get_stack() (kernel/bpf/), like an event
 * that samples call chains; undone with put_callchain_buffers().
 *
 * Return: 0, -EOVERFLOW if @max_stack is above perf_event_max_stack, or
 * -ENOMEM.
 */
int get_callchain_buffers(int max_stack)
{
	if (max_stack < 0)
		return -EINVAL;
	return perf_callchain_get(max_stack);
}

/**
 * put_callchain_buffers - undo get_callchain_buffers()
 */
void put_callchain_buffers(void)
{
	perf_callchain_put();
}

/**
 * get_callchain_entry - take this CPU's call chain buffer of this level
 * @rctx: where the level goes, for put_callchain_entry()
 *
 * Only while get_callchain_buffers() holds the buffers.  Preemption is
 * off until put_callchain_entry(); the buffer holds up to
 * perf_event_max_stack addresses and stays valid until the next user at
 * the same interrupt level on this CPU.
 *
 * Return: the buffer, or NULL if it is in use here (recursion) or there
 * are none.
 */
struct perf_callchain_entry *get_callchain_entry(int *rctx)
{
	return perf_callchain_take(rctx);
}

/**
 * put_callchain_entry - done filling a buffer of get_callchain_entry()
 * @rctx: what get_callchain_entry() stored
 */
void put_callchain_entry(int rctx)
{
	perf_callchain_release(rctx);
}

/**
 * get_perf_callchain - collect a call chain for BPF
 * @regs: the registers to start from
 * @init_nr: entries to leave free at the start of the chain
 * @kernel: walk the kernel stack (if @regs are the kernel's)
 * @user: walk the user stack (of the current task)
 * @max_stack: the most addresses it may hold, @init_nr included
 * @crosstask: @regs are another task's: no user stack
 * @add_mark: put PERF_CONTEXT_KERNEL/_USER markers in front of each part
 *
 * The architecture's unwinders, as for PERF_SAMPLE_CALLCHAIN.  Any
 * context.
 *
 * Return: the chain (its @nr counts @init_nr), valid until the next
 * user of this CPU's buffer of the same level; or NULL.
 */
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, u32 init_nr, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark)
{
	struct perf_callchain_entry_ctx ctx = { };
	int level;

	ctx.entry = perf_callchain_take(&level);
	if (!ctx.entry)
		return NULL;
	ctx.max_stack = min(max_stack, perf_callchain_room());
	ctx.entry->nr = min(init_nr, ctx.max_stack);
	ctx.nr = ctx.entry->nr;

	if (kernel && !user_mode(regs)) {
		if (add_mark)
			perf_callchain_mark(&ctx, PERF_CONTEXT_KERNEL);
		perf_callchain_kernel(&ctx, regs);
	}
	if (user && !crosstask) {
		if (!user_mode(regs))
			regs = current->mm && !(current->flags & PF_KTHREAD) ?
			       task_pt_regs(current) : NULL;
		if (regs) {
			if (add_mark)
				perf_callchain_mark(&ctx, PERF_CONTEXT_USER);
			perf_callchain_user(&ctx, regs);
		}
	}
	perf_callchain_release(level);
	return ctx.entry;
}

/**
 * perf_sample_save_callchain - put the call chain of other registers in
 *	a sample
 * @data: the sample
 * @event: the event it is of
 * @regs: where to walk the chain from: the registers the interrupt
 *	found, where the sample's own are those of an instruction that
 *	the hardware recorded (a PEBS record's)
 *
 * For a PMU's overflow handler; does nothing unless the event samples
 * PERF_SAMPLE_CALLCHAIN.
 */
void perf_sample_save_callchain(struct perf_sample_data *data,
				struct perf_event *event,
				struct pt_regs *regs)
{
	if (!(event->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		return;
	data->callchain = perf_callchain(event, regs);
	data->sample_flags |= PERF_SAMPLE_CALLCHAIN;
}

/**
 * perf_callchain - collect the call chain of a sample
 * @event: the sampling event
 * @regs: the registers at the overflow
 *
 * The kernel part (if @regs are the kernel's and the event wants it)
 * then the user part, each behind its PERF_CONTEXT_* marker, no more
 * than attr.sample_max_stack addresses in all.  Any context; the chain
 * lives in a per-CPU buffer until the next sample at the same interrupt
 * level on this CPU.
 *
 * Return: the chain, or NULL if there are no buffers.
 */
struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs)
{
	struct perf_callchain_entry_ctx ctx = { };
	int level;

	ctx.entry = perf_callchain_take(&level);
	if (!ctx.entry)
		return NULL;
	ctx.entry->nr = 0;
	ctx.max_stack = min_t(unsigned int, event->attr.sample_max_stack,
			      perf_callchain_room());

	if (!event->attr.exclude_callchain_kernel && !user_mode(regs)) {
		perf_callchain_mark(&ctx, PERF_CONTEXT_KERNEL);
		perf_callchain_kernel(&ctx, regs);
	}

	/* The user marker goes in even when no room is left after it. */
	if (event->attr.exclude_callchain_user)
		goto out;
	if (!user_mode(regs)) {
		/* A kernel thread has no user part. */
		if (!current->mm || (current->flags & PF_KTHREAD))
			goto out;
		regs = task_pt_regs(current);
	}
	perf_callchain_mark(&ctx, PERF_CONTEXT_USER);
	perf_callchain_user(&ctx, regs);
out:
	perf_callchain_release(level);
	return ctx.entry;
}
