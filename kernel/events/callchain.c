// SPDX-License-Identifier: GPL-2.0
/*
 * Call chains (PERF_SAMPLE_CALLCHAIN): the limits on their depth.
 *
 * perf_event_max_stack and perf_event_max_contexts_per_stack bound every
 * chain.  An event may ask for less (attr.sample_max_stack), never more;
 * and the limits cannot change while an event that samples call chains
 * exists, since its buffers are sized by them.
 */
#include <linux/perf_event.h>
#include <linux/mutex.h>
#include <linux/sysctl.h>

#include "internal.h"

/* Events that sample call chains; both under perf_callchain_mutex. */
static DEFINE_MUTEX(perf_callchain_mutex);
static int perf_callchain_users;

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
		ret = -EOVERFLOW;
	else
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
