// SPDX-License-Identifier: GPL-2.0
/*
 * Topdown slots and metrics, from Ice Lake (Intel SDM vol. 3B, "Performance
 * Metrics"; tools/perf/Documentation/topdown.txt for what user space does
 * with them).
 *
 * Fixed counter 3 counts TOPDOWN.SLOTS, the issue slots of the core, as
 * the pseudo-event 0x0400 ("slots").  IA32_PERF_METRICS divides the slots
 * it counted among the categories of the topdown method: one byte each,
 * the share in 255ths; four categories (retiring, bad speculation,
 * frontend bound, backend bound) and, on Sapphire Rapids, four of the
 * level below them.  Each category is an event, pseudo-event 0x80nn
 * (umask 0x80 + its byte), that runs on a pseudo-counter of its own, bit
 * X86_PMC_METRIC + byte of the counter sets, and counts its share of the
 * slots: slots times byte over 255.
 *
 * The shares mean something only for slots counted from zero, so while
 * a slots event leads metrics on this CPU its counter counts from zero
 * (cpuc->topdown has it): every read folds the slots and each running
 * metric's share into the events and sets the counter and
 * IA32_PERF_METRICS back to zero, which keeps the 8-bit shares precise.
 * A metric is a counting member of a group whose leader is a counting
 * slots event, so it is always on this CPU with its leader, and the
 * leader is on fixed counter 3.  The metrics count while
 * IA32_PERF_GLOBAL_CTRL bit 48 is set, which stands for all of them.
 *
 * A read in the NMI (a sample that reads the group) may interrupt a fold
 * in progress; it then leaves the counts as they are, a fold behind.
 */
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <asm/msr.h>

#include "model.h"

/* The pseudo-events: slots, and the first metric's. */
#define TOPDOWN_SLOTS		0x0400
#define TOPDOWN_METRIC		0x8000

/* IA32_PERF_CAPABILITIES: IA32_PERF_METRICS is there. */
#define CAP_PERF_METRICS	BIT_ULL(15)

/* The whole of the slots, in a share's units. */
#define SHARE_WHOLE		0xff

/* A fold in progress on this CPU, outside the NMI. */
static DEFINE_PER_CPU(bool, topdown_folding);

/* The event select and unit mask of a config. */
static u64 topdown_code(u64 config)
{
	return config & (ARCH_PERFMON_EVENTSEL_EVENT |
			 ARCH_PERFMON_EVENTSEL_UMASK);
}

/* Every metric pseudo-counter there may be. */
#define TOPDOWN_ALL_METRICS	GENMASK_ULL(X86_PMC_METRIC + \
					    INTEL_TD_METRIC_NUM - 1, \
					    X86_PMC_METRIC)

/**
 * intel_is_metric - whether @config is a topdown metric of a CPU type
 * @type: the CPU type
 * @config: an event select
 *
 * Return: true for pseudo-events 0x8000 up to the type's last metric.
 */
bool intel_is_metric(const struct x86_cpu_type *type, u64 config)
{
	u64 code = topdown_code(config);
	unsigned int n = hweight64(type->metrics);

	return code >= TOPDOWN_METRIC && code < TOPDOWN_METRIC + (n << 8) &&
	       !(code & 0xff);
}

/**
 * intel_metric_counter - the pseudo-counter of a metric
 * @config: the event select of a metric (intel_is_metric())
 *
 * Return: the counter set with the one counter of the metric.
 */
u64 intel_metric_counter(u64 config)
{
	return BIT_ULL(X86_PMC_METRIC +
		       ((topdown_code(config) - TOPDOWN_METRIC) >> 8));
}

/* Whether @event is a slots event of this PMU. */
static bool topdown_is_slots(struct perf_event *event,
			     struct perf_event *member)
{
	return event->pmu == member->pmu &&
	       topdown_code(event->hw.config) == TOPDOWN_SLOTS;
}

/**
 * intel_topdown_check - the rules of a metric event
 * @event: a new event whose config is a metric (intel_is_metric())
 *
 * Return: 0, or -EINVAL for a metric that samples or whose group is not
 * led by a counting slots event.
 */
int intel_topdown_check(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	if (is_sampling_event(event))
		return perf_refuse(-EINVAL, "sample_period: a topdown metric only counts",
				   event->attr.sample_period);
	if (!leader || leader == event || !topdown_is_slots(leader, event))
		return perf_refuse(-EINVAL, "group_fd: a topdown metric needs a slots leader",
				   event->attr.config);
	if (is_sampling_event(leader))
		return perf_refuse(-EINVAL, "group_fd: the slots leader samples",
				   leader->attr.sample_period);
	return 0;
}

/**
 * intel_global_bits - the IA32_PERF_GLOBAL_CTRL bits of a set of counters
 * @counters: counters, metric pseudo-counters among them
 *
 * Return: the counters, with one bit, 48, for all the metrics.
 */
u64 intel_global_bits(u64 counters)
{
	u64 bits = counters & ~TOPDOWN_ALL_METRICS;

	if (counters & TOPDOWN_ALL_METRICS)
		bits |= BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS);
	return bits;
}

/* Both registers back to zero: a new share of new slots. */
static void topdown_zero(struct perf_event *slots)
{
	wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + X86_PMC_SLOTS - X86_PMC_FIXED, 0);
	wrmsrl(MSR_PERF_METRICS, 0);
	if (slots) {
		local64_set(&slots->hw.prev_count, 0);
		perf_event_update_userpage(slots);
	}
}

/*
 * Fold what fixed counter 3 and IA32_PERF_METRICS counted into the slots
 * event and the running metrics (and @also, a metric being stopped or
 * read), then start both registers from zero.
 */
static void topdown_fold(struct x86_pmu_cpu *cpuc, struct perf_event *also)
{
	struct perf_event *slots = cpuc->on[X86_PMC_SLOTS], *metric;
	unsigned long bits = cpuc->running & TOPDOWN_ALL_METRICS;
	u64 count, shares, mask = GENMASK_ULL(x86_pmu.width - 1, 0);
	int idx;

	if (in_nmi() && this_cpu_read(topdown_folding))
		return;
	/* Metrics without their slots: no share means anything. */
	if (!slots) {
		topdown_zero(NULL);
		return;
	}
	this_cpu_write(topdown_folding, true);
	barrier();

	if (also && !(also->hw.state & PERF_HES_UPTODATE))
		bits |= BIT_ULL(also->hw.idx);
	rdmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + X86_PMC_SLOTS - X86_PMC_FIXED,
	       count);
	rdmsrl(MSR_PERF_METRICS, shares);
	count = (count - local64_read(&slots->hw.prev_count)) & mask;
	for_each_set_bit(idx, &bits, X86_PMC_MAX) {
		metric = cpuc->on[idx];
		if (!metric)
			continue;
		local64_add(mul_u64_u32_div(count,
					    (shares >> (8 * (idx - X86_PMC_METRIC))) &
					    0xff, SHARE_WHOLE),
			    &metric->count);
	}
	local64_add(count, &slots->count);
	topdown_zero(slots);

	barrier();
	this_cpu_write(topdown_folding, false);
}

/*
 * x86_event_update() of a topdown event: the slots event while it leads
 * metrics here, or a metric.
 */
static void topdown_update(struct perf_event *event)
{
	topdown_fold(this_cpu_ptr(&x86_pmu_cpu),
		     event->hw.idx >= X86_PMC_METRIC ? event : NULL);
}

/*
 * x86_event_set_period() of a topdown event: what ran so far is folded
 * into the events that ran, and slots and shares start from zero.  A
 * metric that starts makes the slots counter count for the metrics,
 * from now.
 */
static void topdown_set_period(struct perf_event *event)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	struct perf_event *slots = cpuc->on[X86_PMC_SLOTS];

	if (!(cpuc->topdown & BIT_ULL(X86_PMC_SLOTS))) {
		/* Until now the slots counted as any fixed counter. */
		if (slots)
			x86_event_update(slots);
		cpuc->topdown |= BIT_ULL(X86_PMC_SLOTS);
	}
	topdown_fold(cpuc, NULL);
	if (event != slots)
		perf_event_update_userpage(event);
}

/**
 * intel_topdown_reset - clear IA32_PERF_METRICS, where it is
 * @type: this CPU's type
 */
void intel_topdown_reset(const struct x86_cpu_type *type)
{
	if (type->metrics)
		wrmsrl(MSR_PERF_METRICS, 0);
}

X86_EVENT_STR_ATTR(topdown_slots, "slots", "event=0x00,umask=0x4");
X86_EVENT_STR_ATTR(topdown_retiring, "topdown-retiring",
		   "event=0x00,umask=0x80");
X86_EVENT_STR_ATTR(topdown_bad_spec, "topdown-bad-spec",
		   "event=0x00,umask=0x81");
X86_EVENT_STR_ATTR(topdown_fe_bound, "topdown-fe-bound",
		   "event=0x00,umask=0x82");
X86_EVENT_STR_ATTR(topdown_be_bound, "topdown-be-bound",
		   "event=0x00,umask=0x83");
X86_EVENT_STR_ATTR(topdown_heavy_ops, "topdown-heavy-ops",
		   "event=0x00,umask=0x84");
X86_EVENT_STR_ATTR(topdown_br_mispredict, "topdown-br-mispredict",
		   "event=0x00,umask=0x85");
X86_EVENT_STR_ATTR(topdown_fetch_lat, "topdown-fetch-lat",
		   "event=0x00,umask=0x86");
X86_EVENT_STR_ATTR(topdown_mem_bound, "topdown-mem-bound",
		   "event=0x00,umask=0x87");

/* slots, then the metrics in the order of their bytes; cut after them. */
static struct attribute *topdown_events[] = {
	&topdown_slots.attr.attr,
	&topdown_retiring.attr.attr,
	&topdown_bad_spec.attr.attr,
	&topdown_fe_bound.attr.attr,
	&topdown_be_bound.attr.attr,
	&topdown_heavy_ops.attr.attr,
	&topdown_br_mispredict.attr.attr,
	&topdown_fetch_lat.attr.attr,
	&topdown_mem_bound.attr.attr,
	NULL,
};

/**
 * intel_topdown_init - the metrics of a CPU type, if it has them
 * @type: the type
 * @metrics: the categories IA32_PERF_METRICS has on its model (4 or 8),
 *	0 for none
 * @caps: IA32_PERF_CAPABILITIES
 *
 * They need fixed counter 3 and the capability.  Called once at boot
 * for each type; one type of a machine at most has metrics (a hybrid's
 * big cores), as the events/ files are one list.
 */
void __init intel_topdown_init(struct x86_cpu_type *type,
			       unsigned int metrics, u64 caps)
{
	if (!metrics || !(caps & CAP_PERF_METRICS) ||
	    !(type->fixed & BIT_ULL(X86_PMC_SLOTS)) ||
	    WARN_ON_ONCE(x86_pmu.topdown_update))
		return;
	metrics = min_t(unsigned int, metrics, ARRAY_SIZE(topdown_events) - 2);
	type->metrics = GENMASK_ULL(X86_PMC_METRIC + metrics - 1,
				    X86_PMC_METRIC);
	topdown_events[1 + metrics] = NULL;
	type->topdown_events = topdown_events;
	x86_pmu.topdown_update = topdown_update;
	x86_pmu.topdown_set_period = topdown_set_period;
}
