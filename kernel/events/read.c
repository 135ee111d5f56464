// SPDX-License-Identifier: GPL-2.0
/*
 * read(2) and ioctl(2) on an event's file descriptor.
 *
 * read() returns the value in the layout attr.read_format selects:
 *
 *   without PERF_FORMAT_GROUP:  value, [time_enabled], [time_running],
 *                               [id], [lost]
 *   with PERF_FORMAT_GROUP:     nr, [time_enabled], [time_running],
 *                               then per member: value, [id], [lost]
 *
 * The counts and times come from one visit to the CPU the event's
 * context runs on, so the members of a group are read together.
 */
#include <linux/perf_event.h>
#include <linux/file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

/* The bytes read() returns for @fmt, in a group of @nr_members events. */
static size_t perf_read_size_fmt(u64 fmt, unsigned int nr_members)
{
	unsigned int per_member = 1 + !!(fmt & PERF_FORMAT_ID) +
				  !!(fmt & PERF_FORMAT_LOST);
	unsigned int times = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			     !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (!(fmt & PERF_FORMAT_GROUP))
		nr_members = 1;
	return (!!(fmt & PERF_FORMAT_GROUP) + times + nr_members * per_member) *
	       sizeof(u64);
}

static size_t perf_read_size(struct perf_event *event)
{
	return perf_read_size_fmt(event->attr.read_format,
				  1 + event->group_leader->nr_siblings);
}

/* No group may grow so big that one of its members' reads exceeds this. */
#define PERF_READ_SIZE_MAX	(16 * 1024)

/**
 * perf_group_read_fits - may @event join @leader's group?
 * @leader: the group leader; its context's mutex is held
 * @event: the new member
 *
 * Return: false if a group read by any member would then pass 16 KiB.
 */
bool perf_group_read_fits(struct perf_event *leader, struct perf_event *event)
{
	unsigned int nr = leader->nr_siblings + 2;
	struct perf_event *sibling;

	if (perf_read_size_fmt(event->attr.read_format, nr) > PERF_READ_SIZE_MAX ||
	    perf_read_size_fmt(leader->attr.read_format, nr) > PERF_READ_SIZE_MAX)
		return false;
	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry) {
		if (perf_read_size_fmt(sibling->attr.read_format, nr) >
		    PERF_READ_SIZE_MAX)
			return false;
	}
	return true;
}

/*
 * The helpers below run once per value of a group read, for each of up
 * to hundreds of members: they are kept inline so that a member costs
 * loads and stores, not calls.
 */
static __always_inline u64 perf_read_count(struct perf_event *event)
{
	return local64_read(&event->count);
}

/**
 * perf_event_total_count - the value of an event for read()
 * @event: the event, its count already synchronised
 *
 * Return: its own count, without its inherited copies'.
 */
u64 perf_event_total_count(struct perf_event *event)
{
	return perf_read_count(event);
}

struct perf_read_buf {
	u64	*pos;
	u64	*end;
};

static __always_inline void perf_read_put(struct perf_read_buf *buf, u64 value)
{
	if (buf->pos < buf->end)
		*buf->pos++ = value;
}

static __always_inline void perf_read_times(struct perf_read_buf *buf,
					    struct perf_event *event, u64 fmt)
{
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		perf_read_put(buf, event->total_time_enabled);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		perf_read_put(buf, event->total_time_running);
}

/* What follows a value: its id and its count of lost samples. */
static __always_inline void perf_read_tail(struct perf_read_buf *buf,
					   struct perf_event *event, u64 fmt)
{
	if (fmt & PERF_FORMAT_ID)
		perf_read_put(buf, event->id);
	if (fmt & PERF_FORMAT_LOST)
		perf_read_put(buf, atomic64_read(&event->lost_samples));
}

/*
 * Fill the buffer with ctx->lock held, on the context's CPU or on a CPU
 * of its die (perf_event_call_read()).
 */
static void perf_read_fill(struct perf_event *event,
			   struct perf_event_context *ctx, void *data)
{
	struct perf_event *leader = event->group_leader, *sibling;
	struct perf_read_buf *buf = data;
	u64 fmt = event->attr.read_format;

	if (!(fmt & PERF_FORMAT_GROUP)) {
		perf_ctx_sync_group(event, ctx, NULL);
		perf_read_put(buf, perf_read_count(event));
		perf_read_times(buf, event, fmt);
		perf_read_tail(buf, event, fmt);
		return;
	}

	/*
	 * Only the leader's times are reported, so only they are brought up
	 * to date: a member's times catch up from its own timestamp at its
	 * next change of state or read of its own.  Each member's count is
	 * pulled from its PMU as it is stored.
	 */
	perf_ctx_sync_event(leader, ctx, NULL);
	perf_read_put(buf, 1 + leader->nr_siblings);
	perf_read_times(buf, leader, fmt);
	perf_read_put(buf, perf_read_count(leader));
	perf_read_tail(buf, leader, fmt);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry) {
		if (perf_event_readable_here(sibling))
			sibling->pmu->read(sibling);
		perf_read_put(buf, perf_read_count(sibling));
		perf_read_tail(buf, sibling, fmt);
	}
}

/* Add what the inherited copies of the events read count to the values. */
static void perf_read_add_children(struct perf_event *event, u64 *values)
{
	u64 fmt = event->attr.read_format;
	struct perf_event *leader = event->group_leader, *member;
	unsigned int stride = 1, pos = 0;
	struct perf_event_values sum;

	if (!event->attr.inherit)
		return;

	if (fmt & PERF_FORMAT_GROUP) {
		event = leader;
		pos++;
	}
	perf_inherit_sum(event, &sum);
	if (!(fmt & PERF_FORMAT_GROUP))
		values[pos++] += sum.count;
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		values[pos++] += sum.enabled;
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		values[pos++] += sum.running;
	if (!(fmt & PERF_FORMAT_GROUP))
		return;

	stride += !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	values[pos] += sum.count;
	list_for_each_entry(member, &leader->sibling_list, sibling_entry) {
		pos += stride;
		perf_inherit_sum(member, &sum);
		values[pos] += sum.count;
	}
}

/**
 * perf_read - read(2) on an event
 * @file: the event's file
 * @ubuf: the user's buffer
 * @count: its size
 * @ppos: unused
 *
 * Return: the bytes read; 0 for a pinned event in the error state;
 * -ENOSPC if @count is too small; -EFAULT; what a security module
 * refuses.
 */
ssize_t perf_read(struct file *file, char __user *ubuf, size_t count,
		  loff_t *ppos)
{
	struct perf_event *event = file->private_data;
	ssize_t ret = security_perf_event_read(event);
	struct perf_event_context *ctx;
	u64 one[5], *values = one;
	struct perf_read_buf buf;
	size_t size;

	/* An LSM may refuse reading the event: its errno. */
	if (ret)
		return ret;
	ctx = perf_event_ctx_lock(event);
	/* A pinned event goes into error at a switch, under ctx->lock only. */
	if (READ_ONCE(event->state) == PERF_EVENT_STATE_ERROR) {
		ret = 0;
		goto out;
	}

	size = perf_read_size(event);
	if (count < size) {
		ret = perf_refuse(-ENOSPC, "read: buffer too small", size);
		goto out;
	}

	/*
	 * Only a group read can be longer than five values; its buffer stays
	 * with the event for the next read (perf stat reads a group every
	 * interval).  The fill stores every value; what it might leave is
	 * cleared below, so the buffer need not be cleared first.
	 */
	if (size > sizeof(one)) {
		if (event->read_buf_size < size) {
			values = kmalloc(size, GFP_KERNEL);
			if (!values) {
				ret = perf_refuse(-ENOMEM, "read: out of memory",
						  size);
				goto out;
			}
			kfree(event->read_buf);
			event->read_buf = values;
			event->read_buf_size = size;
		}
		values = event->read_buf;
	}
	buf.pos = values;
	buf.end = values + size / sizeof(u64);
	perf_event_call_read(event, event->attr.read_format & PERF_FORMAT_GROUP,
			     perf_read_fill, &buf);
	if (buf.pos < buf.end)
		memset(buf.pos, 0, (buf.end - buf.pos) * sizeof(u64));
	perf_read_add_children(event, values);

	ret = size;
	if (copy_to_user(ubuf, values, size))
		ret = perf_refuse(-EFAULT, "read: buffer not writable",
				  (unsigned long)ubuf);
out:
	mutex_unlock(&ctx->mutex);
	return ret;
}

/**
 * perf_event_read_local - read an event's count where it runs, now
 * @event: the event
 * @value: where its count goes
 * @enabled: where its time enabled goes, or NULL
 * @running: where its time running goes, or NULL
 *
 * For bpf_perf_event_read() and friends: any context, NMI included, with
 * no lock and no IPI, so only for an event that is readable from here:
 * a task's event of the current task, or a CPU-wide event of this CPU.
 * The counts of inherited copies are not summed up.
 *
 * Return: 0; -EOPNOTSUPP for an inherited event (attr.inherit); -EINVAL
 * for another task's event or another CPU's; -EBUSY for a pinned event
 * that is not on this CPU now.
 */
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running)
{
	int cpu, ret = 0;
	unsigned long flags;
	u64 en, run;

	local_irq_save(flags);
	cpu = smp_processor_id();
	if (event->attr.inherit)
		ret = -EOPNOTSUPP;
	else if (event->attach_state & PERF_ATTACH_TASK ?
		 event->hw.target != current : event->cpu != cpu)
		ret = -EINVAL;
	else if (event->attr.pinned && READ_ONCE(event->oncpu) != cpu)
		ret = -EBUSY;
	if (ret)
		goto out;

	if (READ_ONCE(event->oncpu) == cpu)
		event->pmu->read(event);
	*value = local64_read(&event->count);
	if (enabled || running) {
		perf_event_times_now(event, &en, &run);
		if (enabled)
			*enabled = en;
		if (running)
			*running = run;
	}
out:
	local_irq_restore(flags);
	return ret;
}

static void perf_reset_one(struct perf_event *event,
			   struct perf_event_context *ctx, void *unused)
{
	perf_ctx_sync_group(event, ctx, NULL);
	local64_set(&event->count, 0);
	perf_event_update_userpage(event);
}

static void perf_ioctl_reset(struct perf_event *event)
{
	perf_event_call(event, perf_reset_one, NULL);
}

/* Apply @fn to @event, or with PERF_IOC_FLAG_GROUP to its whole group. */
static void perf_ioctl_apply(struct perf_event *event, perf_event_op_t fn,
			     unsigned long flags)
{
	struct perf_event *leader = event->group_leader, *sibling;

	if (!(flags & PERF_IOC_FLAG_GROUP)) {
		perf_event_apply_to_copies(event, fn);
		return;
	}

	perf_event_apply_to_copies(leader, fn);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry)
		perf_event_apply_to_copies(sibling, fn);
}

/* Give an event (or a copy) the period its original now has. */
static void perf_period_apply(struct perf_event *event)
{
	struct perf_event *orig = event->parent ?: event;

	perf_event_set_period(event, orig->attr.freq ?
				     orig->attr.sample_freq :
				     orig->attr.sample_period);
}

/*
 * A new period or frequency for an event; its context's mutex held.
 * Overflows on other CPUs read both (is_sampling_event()) without it.
 */
static int perf_event_period_locked(struct perf_event *event, u64 period)
{
	if (!is_sampling_event(event))
		return perf_refuse(-EINVAL, "IOC_PERIOD: event does not sample",
				   period);
	if (!period)
		return perf_refuse(-EINVAL, "IOC_PERIOD: zero", period);
	/* An event whose task exited keeps its period, as on 6.1. */
	if (READ_ONCE(event->ctx->task) == TASK_TOMBSTONE)
		return 0;
	if (event->attr.freq) {
		if (period > READ_ONCE(sysctl_perf_event_sample_rate))
			return perf_refuse(-EINVAL,
					   "IOC_PERIOD: above perf_event_max_sample_rate",
					   period);
		WRITE_ONCE(event->attr.sample_freq, period);
	} else {
		if (period & BIT_ULL(63))
			return perf_refuse(-EINVAL, "IOC_PERIOD: top bit set",
					   period);
		if (event->pmu->check_period &&
		    event->pmu->check_period(event, period))
			return perf_refuse(-EINVAL,
					   "IOC_PERIOD: shorter than the PMU takes",
					   period);
		WRITE_ONCE(event->attr.sample_period, period);
	}
	perf_event_apply_to_copies(event, perf_period_apply);
	return 0;
}

static int perf_ioctl_period(struct perf_event *event, u64 __user *uperiod)
{
	u64 period;

	/* The value is read first: a bad pointer is -EFAULT on any event. */
	if (copy_from_user(&period, uperiod, sizeof(period)))
		return perf_refuse(-EFAULT, "IOC_PERIOD: not readable",
				   (unsigned long)uperiod);
	return perf_event_period_locked(event, period);
}

/**
 * perf_event_period - give a sampling event a new period, from the kernel
 * @event: the event
 * @value: its new period, or its frequency if it has attr.freq
 *
 * What PERF_EVENT_IOC_PERIOD does, for kernel users (KVM loads a virtual
 * counter this way): the period in progress starts again with the new
 * length, where the event runs.
 *
 * Return: 0, or -EINVAL if the event does not sample, @value is 0, has
 * its top bit set, is a frequency above perf_event_max_sample_rate, or
 * a period shorter than the PMU takes (&pmu->check_period).
 */
int perf_event_period(struct perf_event *event, u64 value)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	int ret;

	ret = perf_event_period_locked(event, value);
	mutex_unlock(&ctx->mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(perf_event_period);

/**
 * perf_event_read_value - read an event and its inherited copies
 * @event: the event
 * @enabled: where the time it was enabled goes
 * @running: where the time it counted goes
 *
 * For kernel users: the count and times read() gives for the event
 * alone, its copies' (live and exited) added.  May sleep: an active
 * event is read where it runs.
 *
 * Return: the count.
 */
u64 perf_event_read_value(struct perf_event *event, u64 *enabled,
			  u64 *running)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	struct perf_event_values sum;

	perf_inherit_sum(event, &sum);
	perf_event_add_values(event, &sum);
	mutex_unlock(&ctx->mutex);

	*enabled = sum.enabled;
	*running = sum.running;
	return sum.count;
}
EXPORT_SYMBOL_GPL(perf_event_read_value);

/* @arg: a descriptor, or -1 as an unsigned long (not as an int) */
static int perf_ioctl_set_output(struct perf_event *event, unsigned long arg)
{
	struct perf_event *output;
	struct fd f;
	int ret;

	if (arg == -1UL)
		return perf_event_set_output(event, NULL);

	f = fdget(arg);
	if (!f.file)
		return perf_refuse(-EBADF, "IOC_SET_OUTPUT: not open", arg);
	output = perf_event_from_file(f.file);
	if (output)
		ret = perf_event_set_output(event, output);
	else
		ret = perf_refuse(-EBADF, "IOC_SET_OUTPUT: not a perf event",
				  arg);
	fdput(f);
	return ret;
}

static int perf_ioctl_pause_output(struct perf_event *event,
				   unsigned long paused)
{
	struct perf_buffer *rb;
	int ret = 0;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb && rb->nr_pages)
		perf_buffer_set_paused(rb, paused);
	else
		ret = perf_refuse(-EINVAL, "IOC_PAUSE_OUTPUT: no data pages",
				  paused);
	rcu_read_unlock();
	return ret;
}

static int perf_ioctl_modify_attributes(struct perf_event *event,
					struct perf_event_attr __user *uattr)
{
	struct perf_event_attr attr;
	int ret;

	ret = perf_copy_attr(uattr, &attr);
	if (ret)
		return ret;
	if (attr.type != event->attr.type)
		return perf_refuse(-EINVAL, "IOC_MODIFY_ATTRIBUTES: type differs",
				   attr.type);
	/* Only breakpoints can be changed in place. */
	if (event->attr.type != PERF_TYPE_BREAKPOINT)
		return perf_refuse(-EOPNOTSUPP,
				   "IOC_MODIFY_ATTRIBUTES: not a breakpoint",
				   attr.type);
	return perf_bp_modify_attr(event, &attr);
}

static long perf_ioctl_locked(struct perf_event *event, unsigned int cmd,
			      unsigned long arg)
{
	switch (cmd) {
	case PERF_EVENT_IOC_ENABLE:
		perf_ioctl_apply(event, perf_event_enable_nogroup, arg);
		return 0;
	case PERF_EVENT_IOC_DISABLE:
		perf_ioctl_apply(event, perf_event_disable_nogroup, arg);
		return 0;
	case PERF_EVENT_IOC_RESET:
		perf_ioctl_apply(event, perf_ioctl_reset, arg);
		return 0;
	case PERF_EVENT_IOC_REFRESH:
		return perf_event_refresh_locked(event, arg);
	case PERF_EVENT_IOC_PERIOD:
		return perf_ioctl_period(event, (u64 __user *)arg);
	case PERF_EVENT_IOC_ID:
		if (put_user(event->id, (u64 __user *)arg))
			return perf_refuse(-EFAULT, "IOC_ID: not writable", arg);
		return 0;
	case PERF_EVENT_IOC_SET_OUTPUT:
		return perf_ioctl_set_output(event, arg);
	case PERF_EVENT_IOC_SET_BPF:
	case PERF_EVENT_IOC_QUERY_BPF:
		return perf_bpf_ioctl(event, cmd, arg);
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		return perf_ioctl_pause_output(event, arg);
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return perf_ioctl_modify_attributes(event,
				(struct perf_event_attr __user *)arg);
	default:
		return perf_refuse(-ENOTTY, "ioctl: unknown command", cmd);
	}
}

/**
 * perf_ioctl - ioctl(2) on an event
 * @file: the event's file
 * @cmd: PERF_EVENT_IOC_*
 * @arg: the argument of @cmd
 *
 * Return: 0 or a negative errno; -ENOTTY for an unknown @cmd.
 */
long perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct perf_event *event = file->private_data;
	long ret = security_perf_event_write(event);
	struct perf_event_context *ctx;

	/* Every command changes the event, as an LSM sees it. */
	if (ret)
		return ret;

	/* The trace event code's locks nest outside the context's mutex. */
	if (cmd == PERF_EVENT_IOC_SET_FILTER)
		return perf_event_set_filter(event, (void __user *)arg);

	ctx = perf_event_ctx_lock(event);
	ret = perf_ioctl_locked(event, cmd, arg);
	mutex_unlock(&ctx->mutex);
	return ret;
}
