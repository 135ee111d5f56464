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
#include <linux/irq_work.h>

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

/*
 * The time budget of a sample: perf_cpu_time_max_percent of the interval
 * between two samples at perf_event_max_sample_rate, in nanoseconds; 0
 * when the check is off (percent 0 or 100).  Recomputed whenever either
 * sysctl changes, by a write or by perf_sample_event_took().
 */
static u64 perf_sample_budget_ns __read_mostly =
	NSEC_PER_SEC / PERF_DEFAULT_MAX_SAMPLE_RATE *
	PERF_DEFAULT_CPU_TIME_PERCENT / 100;

/*
 * Overflows an event may take in one tick before it is throttled: the
 * sample rate spread over HZ ticks, kept with the budget so that the
 * overflow path does not divide.
 */
unsigned int perf_max_samples_per_tick __read_mostly =
	DIV_ROUND_UP(PERF_DEFAULT_MAX_SAMPLE_RATE, HZ);

/*
 * The time samples took on each CPU, as a moving average over about the
 * last 1 << PERF_SAMPLE_AVG_SHIFT (128) of them, kept as that many times
 * the average so that short samples do not round away.  The span is long enough that
 * one outlier (the first NMI through code a JIT or an emulator has yet
 * to warm up, say) does not lower the rate for everyone by much.
 */
#define PERF_SAMPLE_AVG_SHIFT	7
static DEFINE_PER_CPU(u64, perf_sample_span_ns);

static void perf_sample_budget_update(void)
{
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	int rate = READ_ONCE(sysctl_perf_event_sample_rate);
	u64 budget = 0;

	if (percent > 0 && percent < 100 && rate > 0)
		budget = div_u64(NSEC_PER_SEC, rate) * percent / 100;
	WRITE_ONCE(perf_sample_budget_ns, budget);
	WRITE_ONCE(perf_max_samples_per_tick, DIV_ROUND_UP(rate, HZ));
}

/* What the last lowering was about, for the notice. */
static u64 perf_lowered_avg_ns, perf_lowered_budget_ns;
static int perf_lowered_rate;

static void perf_rate_lowered_notice(struct irq_work *work)
{
	pr_info("perf: interrupt took too long (%llu > %llu ns), lowering kernel.perf_event_max_sample_rate to %d\n",
		READ_ONCE(perf_lowered_avg_ns), READ_ONCE(perf_lowered_budget_ns),
		READ_ONCE(perf_lowered_rate));
}

static DEFINE_IRQ_WORK(perf_rate_lowered_work, perf_rate_lowered_notice);

/**
 * perf_sample_event_took - account the time handling one sample took
 * @ns: nanoseconds spent in the overflow handler
 *
 * From the interrupt (or NMI) that took a sample.  When the running
 * average on this CPU exceeds the budget perf_cpu_time_max_percent
 * allows, perf_event_max_sample_rate is lowered so that samples a
 * quarter longer would fit (to a multiple of HZ, and no lower than HZ),
 * which throttles every event sooner, and a notice is logged.
 */
void perf_sample_event_took(u64 ns)
{
	u64 budget = READ_ONCE(perf_sample_budget_ns), span, avg;
	int percent, rate;

	if (!budget)
		return;
	span = __this_cpu_read(perf_sample_span_ns);
	span += ns - (span >> PERF_SAMPLE_AVG_SHIFT);
	__this_cpu_write(perf_sample_span_ns, span);
	avg = span >> PERF_SAMPLE_AVG_SHIFT;
	if (avg <= budget)
		return;

	/*
	 * The rate at which samples a quarter longer than the average take
	 * percent of the time.  Without that headroom an average creeping
	 * up a nanosecond at a time would lower the rate, and log it, at
	 * nearly every sample; with it, each lowering is by a fifth at
	 * least.
	 */
	percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	rate = div64_u64((u64)NSEC_PER_SEC * percent, (avg + avg / 4) * 100);
	/*
	 * Whole samples per tick, and never fewer than one: the rate is a
	 * multiple of HZ and at least HZ, as in 6.1, where a sample_freq
	 * up to HZ is always accepted.
	 */
	rate = max_t(int, rate - rate % HZ, HZ);
	if (rate >= READ_ONCE(sysctl_perf_event_sample_rate))
		return;
	WRITE_ONCE(sysctl_perf_event_sample_rate, rate);
	perf_sample_budget_update();
	WRITE_ONCE(perf_lowered_avg_ns, avg);
	WRITE_ONCE(perf_lowered_budget_ns, budget);
	WRITE_ONCE(perf_lowered_rate, rate);
	irq_work_queue(&perf_rate_lowered_work);
}

/**
 * perf_sample_budget_reset - forget this CPU's running average
 *
 * For the KUnit tests, which feed perf_sample_event_took() made-up
 * lengths.
 */
void perf_sample_budget_reset(void)
{
	this_cpu_write(perf_sample_span_ns, 0);
	perf_sample_budget_update();
}

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

	int ret;

	if (write && (percent == 100 || percent == 0))
		return -EINVAL;

	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (!ret && write)
		perf_sample_budget_update();
	return ret;
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
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (!ret && write)
		perf_sample_budget_update();
	return ret;
}
