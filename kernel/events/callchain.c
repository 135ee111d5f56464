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
	struct perf_callchain_bufs *bufs;
	unsigned int max;

	bufs = rcu_dereference_sched(perf_callchain_bufs);
	if (!bufs)
		return NULL;
	ctx.entry = bufs->cpu[smp_processor_id()][interrupt_context_level()];
	ctx.entry->nr = 0;
	max = min_t(unsigned int, event->attr.sample_max_stack,
		    bufs->entries - sysctl_perf_event_max_contexts_per_stack);
	ctx.max_stack = max;

	if (!event->attr.exclude_callchain_kernel && !user_mode(regs)) {
		perf_callchain_mark(&ctx, PERF_CONTEXT_KERNEL);
		perf_callchain_kernel(&ctx, regs);
	}

	/* The user marker goes in even when no room is left after it. */
	if (event->attr.exclude_callchain_user)
		return ctx.entry;
	if (!user_mode(regs)) {
		/* A kernel thread has no user part. */
		if (!current->mm || (current->flags & PF_KTHREAD))
			return ctx.entry;
		regs = task_pt_regs(current);
	}
	perf_callchain_mark(&ctx, PERF_CONTEXT_USER);
	perf_callchain_user(&ctx, regs);
	return ctx.entry;
}
