// SPDX-License-Identifier: GPL-2.0
/*
 * The perf sysctls in /proc/sys/kernel/ (the table is in kernel/sysctl.c)
 * and the limits derived from them.
 *
 * perf_event_paranoid: who may use perf_event_open(2)
 *   -1  everything is allowed
 *    0  CPU-wide events allowed, raw tracepoint data not
 *    1  no CPU-wide events without CAP_PERFMON
 *    2  no kernel profiling without CAP_PERFMON (the default)
 *    3  no use at all without CAP_PERFMON (Debian's restriction)
 */
#include <linux/perf_event.h>
#include <linux/sysctl.h>

#include "internal.h"

#ifdef CONFIG_SECURITY_PERF_EVENTS_RESTRICT
int sysctl_perf_event_paranoid __read_mostly = 3;
#else
int sysctl_perf_event_paranoid __read_mostly = 2;
#endif

/* Memory a user may lock in ring buffers without CAP_IPC_LOCK: 512 KiB + the user page. */
int sysctl_perf_event_mlock __read_mostly = 512 + (PAGE_SIZE / 1024);

#define PERF_DEFAULT_MAX_SAMPLE_RATE	100000
#define PERF_DEFAULT_CPU_TIME_PERCENT	25

int sysctl_perf_event_sample_rate __read_mostly = PERF_DEFAULT_MAX_SAMPLE_RATE;
int sysctl_perf_cpu_time_max_percent __read_mostly = PERF_DEFAULT_CPU_TIME_PERCENT;

int sysctl_perf_event_max_stack __read_mostly = PERF_MAX_STACK_DEPTH;
int sysctl_perf_event_max_contexts_per_stack __read_mostly =
	PERF_MAX_CONTEXTS_PER_STACK;

/**
 * perf_proc_update_handler - write perf_event_max_sample_rate
 * @table: the sysctl entry
 * @write: whether this is a write
 * @buffer: the data
 * @lenp: its length
 * @ppos: the file position
 *
 * The rate cannot be changed while throttling is off
 * (perf_cpu_time_max_percent 0 or 100).
 *
 * Return: 0 or a negative errno.
 */
int perf_proc_update_handler(struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos)
{
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);

	if (write && (percent == 100 || percent == 0))
		return -EINVAL;

	return proc_dointvec_minmax(table, write, buffer, lenp, ppos);
}

/**
 * perf_cpu_time_max_percent_handler - write perf_cpu_time_max_percent
 * @table: the sysctl entry
 * @write: whether this is a write
 * @buffer: the data
 * @lenp: its length
 * @ppos: the file position
 *
 * Return: 0 or a negative errno.
 */
int perf_cpu_time_max_percent_handler(struct ctl_table *table, int write,
				      void *buffer, size_t *lenp,
				      loff_t *ppos)
{
	return proc_dointvec_minmax(table, write, buffer, lenp, ppos);
}
