// SPDX-License-Identifier: GPL-2.0
/*
 * The ibs_fetch and ibs_op PMUs: AMD's Instruction-Based Sampling (AMD
 * APM vol. 2, "Instruction-Based Sampling"; MSRs C001_1030 to C001_103D
 * in the family 10h to 19h BKDGs and PPRs).
 *
 * Every so many instruction fetches (or ops), the CPU tags one, follows
 * it to its end, leaves what became of it in a set of MSRs and raises
 * the interrupt of an extended LVT entry of the local APIC: the entry
 * that IBSCTL (MSR C001_103A) names, which firmware chose and which
 * each CPU's entry is pointed at the NMI here.  A sample is exact: its
 * IP is the tagged instruction's (PERF_RECORD_MISC_EXACT_IP), and an
 * op's sample has the data address, physical address, data source and
 * miss latency of its load or store (ibs_mem.c).
 *
 * Each PMU has one sampler a CPU: events are CPU-wide (per-task events
 * are refused, as on 6.1), sampling only, and count every privilege
 * level.  attr.config holds the control register's fields the user may
 * set: the maximum count (the period, over 16) where no sample period
 * is given, and ibs_op's cnt_ctl (count dispatched ops, not cycles),
 * ibs_fetch's rand_en, and on Zen 4 l3missonly.  The period is a
 * multiple of 16 (rounded down; 16 at least); a longer one than the
 * counter holds is counted out in pieces.  With PERF_SAMPLE_RAW a
 * sample carries the capabilities (CPUID Fn8000_001B EAX) and the
 * registers as they were, in the order of the MSRs, which perf's tool
 * decodes.
 *
 * AMD's precise cycles (cycles:p and :pp, raw event 0x76 with a
 * precise_ip) are ibs_op's: the core counters' hw_config passes them on
 * (forward_event_to_ibs()).
 *
 * Per CPU state (struct ibs_cpu) is only touched on its CPU: by the
 * PMU's callbacks, with interrupts off, and by the NMI.  The callbacks
 * order their steps so that the NMI never arms a sampler that is being
 * stopped: stop() marks the event stopped before it turns the sampler
 * off, and the NMI re-arms only an event not so marked.  The NMI of a
 * sample that stop() found pending, or that came while it stopped the
 * sampler, is claimed as IBS's, not reported as unknown.
 */
#define pr_fmt(fmt) "perf: " fmt

#include <linux/cpuhotplug.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/kprobes.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/syscore_ops.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>
#include <trace/events/perf.h>

#include "ibs.h"

/* Registers a raw sample may carry: an op's seven, BR_TARGET, OP_DATA4. */
#define IBS_MAX_REGS		(IBS_OP_NR_REGS + 2)
#define IBS_MIN_PERIOD		0x10

/* The maximum count fields: the period over 16, 16 (+7 for ops) bits. */
#define IBS_CNT_LOW		GENMASK_ULL(15, 0)
#define IBS_OP_CNT_HIGH		GENMASK_ULL(26, 20)
#define IBS_OP_CUR_COUNT(ctl)	(((ctl) >> 32) & GENMASK_ULL(26, 0))
#define IBS_FETCH_COUNT(ctl)	((((ctl) >> 16) & 0xffff) << 4)

/* How long after a stop an NMI without a sample may still be its. */
#define IBS_LATE_NS		NSEC_PER_MSEC

/**
 * struct ibs_cpu - one CPU's sampler of one IBS PMU
 * @event: the event on it, or NULL
 * @stopping: ibs_stop() is turning the sampler off: an NMI now is its
 * @late: when a stop found a sample pending, whose NMI may come after
 *	(sched_clock()), or 0; an NMI with no sample up to IBS_LATE_NS
 *	after is taken as that one
 */
struct ibs_cpu {
	struct perf_event	*event;
	bool			stopping;
	u64			late;
};

/**
 * struct ibs_pmu - ibs_fetch or ibs_op
 * @pmu: the PMU
 * @ctl: its control MSR; its other registers follow it
 * @enable: the control register's enable bit
 * @valid: ... and its valid bit, set with a sample
 * @config_mask: the bits of attr.config one may set
 * @max_period: the longest period the counter takes
 * @nr_regs: the registers of a raw sample, from @ctl on
 * @cpu: the per CPU samplers
 */
struct ibs_pmu {
	struct pmu		pmu;
	u32			ctl;
	u64			enable;
	u64			valid;
	u64			config_mask;
	u64			max_period;
	unsigned int		nr_regs;
	struct ibs_cpu __percpu	*cpu;
};

static u32 ibs_caps;
/* How this CPU's IBS_OP_DATA2 and DATA3 are read: ibs_mem_quirks(). */
static unsigned int ibs_mem_read;
static unsigned int ibs_lvt_offset;
static DEFINE_PER_CPU(struct ibs_cpu, ibs_fetch_cpu);
static DEFINE_PER_CPU(struct ibs_cpu, ibs_op_cpu);

static struct ibs_pmu ibs_fetch, ibs_op;

static struct ibs_pmu *to_ibs(struct pmu *pmu)
{
	return container_of(pmu, struct ibs_pmu, pmu);
}

static bool ibs_is_op(const struct ibs_pmu *ibs)
{
	return ibs == &ibs_op;
}

/**
 * get_ibs_caps - what the CPUs' IBS can do (the boot CPU's word)
 *
 * Return: CPUID Fn8000_001B EAX with IBS_CAPS_AVAIL (bit 0) set where
 * the IBS PMUs are registered; 0 where there is no IBS.
 */
u32 get_ibs_caps(void)
{
	return ibs_caps;
}
EXPORT_SYMBOL(get_ibs_caps);

/**
 * forward_event_to_ibs - pass AMD's precise cycles on to ibs_op
 * @event: an event of the core counters' PMU with a precise_ip
 *
 * For the core counters' hw_config: they have no precise mode of their
 * own.  The event becomes an ibs_op event of the same period, taken by
 * the core from the type set here.
 *
 * Return: -ENOENT (with attr.type now ibs_op's for cycles; for another
 * event, nobody's), or -EOPNOTSUPP for a precise_ip above 2.
 */
int forward_event_to_ibs(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	bool cycles;

	if (attr->precise_ip > 2)
		return perf_refuse(-EOPNOTSUPP, "precise_ip: IBS takes 1 and 2",
				   attr->precise_ip);
	cycles = (attr->type == PERF_TYPE_HARDWARE &&
		  (attr->config & PERF_HW_EVENT_MASK) == PERF_COUNT_HW_CPU_CYCLES) ||
		 (attr->type == PERF_TYPE_RAW && attr->config == 0x76);
	if (!cycles || !(ibs_caps & IBS_CAPS_OPSAM))
		return -ENOENT;
	attr->type = ibs_op.pmu.type;
	attr->config = 0;
	return -ENOENT;
}

/* The maximum count of a config given in place of a sample period. */
static u64 ibs_config_period(const struct ibs_pmu *ibs, u64 config)
{
	u64 cnt = config & IBS_CNT_LOW;

	if (ibs_is_op(ibs))
		cnt |= ((config & IBS_OP_CNT_HIGH) >> 20) << 16;
	return cnt << 4;
}

/* The control register's maximum count fields for @period. */
static u64 ibs_period_config(const struct ibs_pmu *ibs, u64 period)
{
	u64 cnt = period >> 4;

	if (!ibs_is_op(ibs))
		return cnt & IBS_CNT_LOW;
	return (cnt & IBS_CNT_LOW) | ((cnt >> 16) << 20 & IBS_OP_CNT_HIGH);
}

static int ibs_event_init(struct perf_event *event)
{
	struct ibs_pmu *ibs = to_ibs(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 config = event->attr.config;
	u64 cnt = IBS_CNT_LOW | (ibs_is_op(ibs) ? IBS_OP_CNT_HIGH : 0);

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (config & ~ibs->config_mask)
		return perf_refuse(-EINVAL, "config: bits IBS does not have",
				   config & ~ibs->config_mask);

	if (event->attr.sample_period) {
		/* A period (or frequency), or a maximum count: not both. */
		if (config & cnt)
			return perf_refuse(-EINVAL,
					   "config: a maximum count beside a sample period",
					   config & cnt);
		if (event->attr.freq) {
			hwc->sample_period = IBS_MIN_PERIOD;
		} else {
			hwc->sample_period &= ~0xfULL;
			if (!hwc->sample_period)
				hwc->sample_period = IBS_MIN_PERIOD;
		}
	} else {
		hwc->sample_period = ibs_config_period(ibs, config);
		if (!hwc->sample_period)
			return perf_refuse(-EINVAL,
					   "sample_period: IBS only samples", 0);
		event->attr.sample_period = hwc->sample_period;
	}
	hwc->config = config & ~cnt;
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);
	return 0;
}

/*
 * Account @now, the sampler's count since the event was created: what
 * it had counted when last armed (hw.config_base) and what it has
 * counted since.  A read may be interrupted by the NMI, and the NMI
 * arm the sampler afresh: whoever moves prev_count forward accounts
 * the difference, and a reader late with an older count accounts
 * nothing.
 */
static void ibs_update(struct perf_event *event, u64 now)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, was;

	prev = local64_read(&hwc->prev_count);
	do {
		if (now <= prev)
			return;
		was = prev;
		prev = local64_cmpxchg(&hwc->prev_count, was, now);
	} while (prev != was);
	local64_add(now - prev, &event->count);
	local64_sub(now - prev, &hwc->period_left);
}

/* The length to arm the sampler with: what is left of the period. */
static u64 ibs_next_period(struct ibs_pmu *ibs, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	/* IOC_PERIOD and the frequency's estimate may go below 16. */
	s64 period = max_t(u64, hwc->sample_period, IBS_MIN_PERIOD);

	if (left <= 0) {
		left = left <= -period ? period : left + period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
	}
	if (left > ibs->max_period)
		left = ibs->max_period;
	return max_t(u64, left & ~0xfULL, IBS_MIN_PERIOD);
}

/*
 * Arm @event's sampler afresh, from a count of 0: hw.event_base keeps
 * the length it is armed with, hw.config_base the event's count then.
 */
static void ibs_arm(struct ibs_pmu *ibs, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period = ibs_next_period(ibs, event);

	hwc->event_base = period;
	WRITE_ONCE(hwc->config_base, local64_read(&hwc->prev_count));
	wrmsrl(ibs->ctl, hwc->config | ibs_period_config(ibs, period) |
	       ibs->enable);
}

/*
 * The event's count, from its sampler's control register @ctl, read
 * after @base, the count it was armed at.
 */
static u64 ibs_counted(struct ibs_pmu *ibs, struct perf_event *event,
		       u64 base, u64 ctl)
{
	if (ctl & ibs->valid)
		return base + event->hw.event_base;
	if (ibs_is_op(ibs))
		return base + IBS_OP_CUR_COUNT(ctl);
	return base + IBS_FETCH_COUNT(ctl);
}

static void ibs_start(struct perf_event *event, int flags)
{
	struct ibs_pmu *ibs = to_ibs(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	hwc->state = 0;
	/* Running before armed: the NMI must see it so. */
	barrier();
	ibs_arm(ibs, event);
	perf_event_update_userpage(event);
}

static void ibs_stop(struct perf_event *event, int flags)
{
	struct ibs_pmu *ibs = to_ibs(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 base, ctl;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		struct ibs_cpu *pc = this_cpu_ptr(ibs->cpu);

		/*
		 * Stopped before disarmed: the NMI will not arm it again,
		 * and takes a sample's NMI that comes meanwhile as its own.
		 */
		WRITE_ONCE(pc->stopping, true);
		barrier();
		hwc->state |= PERF_HES_STOPPED;
		barrier();
		base = READ_ONCE(hwc->config_base);
		rdmsrl(ibs->ctl, ctl);
		wrmsrl(ibs->ctl, 0);
		if (ctl & ibs->valid)
			WRITE_ONCE(pc->late, sched_clock() ?: 1);
		barrier();
		WRITE_ONCE(pc->stopping, false);
		ibs_update(event, ibs_counted(ibs, event, base, ctl));
	}
	hwc->state |= PERF_HES_UPTODATE;
}

static int ibs_add(struct perf_event *event, int flags)
{
	struct ibs_pmu *ibs = to_ibs(event->pmu);
	struct ibs_cpu *pc = this_cpu_ptr(ibs->cpu);

	/* One sampler: the others wait for their turn. */
	if (pc->event)
		return -EBUSY;
	/* Stopped before the NMI can find it. */
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	barrier();
	WRITE_ONCE(pc->event, event);
	if (flags & PERF_EF_START)
		ibs_start(event, PERF_EF_RELOAD);
	return 0;
}

static void ibs_del(struct perf_event *event, int flags)
{
	struct ibs_pmu *ibs = to_ibs(event->pmu);

	ibs_stop(event, PERF_EF_UPDATE);
	WRITE_ONCE(this_cpu_ptr(ibs->cpu)->event, NULL);
	perf_event_update_userpage(event);
}

/* The count so far, unless a sample waits for the NMI, which counts it. */
static void ibs_read(struct perf_event *event)
{
	struct ibs_pmu *ibs = to_ibs(event->pmu);
	u64 base, ctl;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	base = READ_ONCE(event->hw.config_base);
	barrier();
	rdmsrl(ibs->ctl, ctl);
	if (!(ctl & ibs->valid))
		ibs_update(event, ibs_counted(ibs, event, base, ctl));
}

/* The sample of @event's tagged fetch or op. */
static void ibs_sample(struct ibs_pmu *ibs, struct perf_event *event,
		       u64 ctl, struct pt_regs *iregs)
{
	struct {
		u32 size;	/* not written: the raw sample starts at caps */
		u32 caps;
		u64 regs[IBS_MAX_REGS];
	} raw_buf;
	struct perf_raw_record raw;
	struct perf_sample_data data;
	u64 type = event->attr.sample_type, *regs = raw_buf.regs;
	unsigned int i, base, nr = 2;
	struct pt_regs pregs;

	/* An op's memory fields need all its seven; the raw sample more. */
	if (type & PERF_SAMPLE_RAW)
		nr = ibs->nr_regs;
	else if (ibs_is_op(ibs) &&
		 (type & (PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR |
			  PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT_TYPE |
			  PERF_SAMPLE_DATA_PAGE_SIZE)))
		nr = IBS_OP_NR_REGS;
	else if (ibs_is_op(ibs) && (ibs_caps & IBS_CAPS_RIPINVALIDCHK))
		nr = IBS_OP_REG_DATA + 1;
	regs[0] = ctl;
	base = ibs_is_op(ibs) ? IBS_OP_NR_REGS : MSR_AMD64_IBSFETCH_REG_COUNT;
	for (i = 1; i < nr && i < base; i++)
		rdmsrl(ibs->ctl + i, regs[i]);
	/* The registers apart from the others, where the CPU has them. */
	if (nr > base && ibs_is_op(ibs)) {
		if (ibs_caps & IBS_CAPS_BRNTRGT)
			rdmsrl(MSR_AMD64_IBSBRTARGET, regs[i++]);
		if (ibs_caps & IBS_CAPS_OPDATA4)
			rdmsrl(MSR_AMD64_IBSOPDATA4, regs[i++]);
	} else if (nr > base) {
		rdmsrl(MSR_AMD64_ICIBSEXTDCTL, regs[i++]);
	}

	/* An op whose address the CPU could not give: no sample. */
	if (ibs_is_op(ibs) && (ibs_caps & IBS_CAPS_RIPINVALIDCHK) &&
	    (regs[IBS_OP_REG_DATA] & IBS_RIP_INVALID))
		return;

	perf_sample_data_init(&data, 0, event->hw.last_period);
	pregs = *iregs;
	/* ibs_fetch's second register is the fetch's linear address. */
	pregs.ip = regs[1];
	pregs.cs = (s64)pregs.ip < 0 ? __KERNEL_CS : __USER_CS;
	pregs.flags |= PERF_EFLAGS_EXACT;

	if (type & PERF_SAMPLE_RAW) {
		raw_buf.caps = ibs_caps;
		raw.frag.data = &raw_buf.caps;
		raw.frag.size = sizeof(u32) + i * sizeof(u64);
		raw.frag.next = NULL;
		raw.frag.copy = NULL;
		data.raw = &raw;
		data.sample_flags |= PERF_SAMPLE_RAW;
	}
	if (ibs_is_op(ibs) && nr >= IBS_OP_NR_REGS) {
		u64 data3 = regs[IBS_OP_REG_DATA3];

		data.addr = data3 & IBS_OP_DATA3_LIN_VALID ?
			    regs[IBS_OP_REG_DC_LINADDR] : 0;
		data.phys_addr = data3 & IBS_OP_DATA3_PHYS_VALID ?
				 regs[IBS_OP_REG_DC_PHYSADDR] : 0;
		data.sample_flags |= PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR;
		if (type & PERF_SAMPLE_DATA_SRC) {
			data.data_src.val =
				ibs_op_data_src(regs, ibs_mem_read);
			data.sample_flags |= PERF_SAMPLE_DATA_SRC;
		}
		if (type & PERF_SAMPLE_WEIGHT_TYPE) {
			data.weight.full =
				ibs_op_weight(regs, type & PERF_SAMPLE_WEIGHT_STRUCT);
			data.sample_flags |= PERF_SAMPLE_WEIGHT_TYPE;
		}
	}
	/* The call chain is the interrupted one's, not the tagged op's. */
	if (type & PERF_SAMPLE_CALLCHAIN)
		perf_sample_save_callchain(&data, event, iregs);

	/* Throttled: stopped (disarmed already) until the core starts it. */
	if (perf_event_overflow(event, &data, &pregs))
		event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/* Serve @ibs's sampler on this CPU: 1 if it had a sample, else 0. */
static int ibs_handle(struct ibs_pmu *ibs, struct pt_regs *iregs)
{
	struct ibs_cpu *pc = this_cpu_ptr(ibs->cpu);
	struct perf_event *event = READ_ONCE(pc->event);
	struct hw_perf_event *hwc;
	u64 ctl;

	if (!event || (event->hw.state & PERF_HES_STOPPED))
		return 0;
	hwc = &event->hw;
	rdmsrl(ibs->ctl, ctl);
	if (!(ctl & ibs->valid))
		return 0;
	/*
	 * Disarmed first: a stop from within the sample (the frequency's
	 * restart) then finds no sample pending.
	 */
	wrmsrl(ibs->ctl, 0);
	ibs_update(event, ibs_counted(ibs, event, hwc->config_base, ctl));
	/* A period longer than the counter: not over yet. */
	if (local64_read(&hwc->period_left) <= 0)
		ibs_sample(ibs, event, ctl, iregs);
	if (!(hwc->state & PERF_HES_STOPPED))
		ibs_arm(ibs, event);
	return 1;
}

/*
 * An NMI without a sample: IBS's if one of its samplers is being
 * stopped, or was stopped with a sample pending a moment ago.
 */
static int ibs_claim_late(struct ibs_pmu *ibs, u64 now)
{
	struct ibs_cpu *pc = this_cpu_ptr(ibs->cpu);
	u64 late = READ_ONCE(pc->late);

	if (READ_ONCE(pc->stopping))
		return 1;
	if (!late)
		return 0;
	WRITE_ONCE(pc->late, 0);
	return now - late < IBS_LATE_NS;
}

static int ibs_nmi(unsigned int cmd, struct pt_regs *regs)
{
	u64 start = sched_clock();
	int handled;

	handled = ibs_handle(&ibs_fetch, regs) + ibs_handle(&ibs_op, regs);
	if (handled) {
		perf_sample_event_took(sched_clock() - start);
		return handled;
	}
	if (ibs_claim_late(&ibs_fetch, start) || ibs_claim_late(&ibs_op, start))
		return 1;
	return NMI_DONE;
}

NOKPROBE_SYMBOL(ibs_nmi);

/* sysfs: format/ as the caps allow, and caps/ */

PMU_FORMAT_ATTR(rand_en, "config:57");
PMU_FORMAT_ATTR(cnt_ctl, "config:19");

static ssize_t l3missonly_show(struct device *dev,
			       struct device_attribute *attr, char *page)
{
	struct ibs_pmu *ibs = to_ibs(dev_get_drvdata(dev));

	return sysfs_emit(page, "config:%d\n", ibs_is_op(ibs) ? 16 : 59);
}

static struct device_attribute format_attr_l3missonly = __ATTR_RO(l3missonly);

static ssize_t zen4_ibs_extensions_show(struct device *dev,
					struct device_attribute *attr,
					char *page)
{
	return sysfs_emit(page, "1\n");
}
static DEVICE_ATTR_RO(zen4_ibs_extensions);

static struct attribute *ibs_fetch_format_attrs[] = {
	&format_attr_rand_en.attr,
	&format_attr_l3missonly.attr,
	NULL,
};

static struct attribute *ibs_op_format_attrs[] = {
	&format_attr_cnt_ctl.attr,
	&format_attr_l3missonly.attr,
	NULL,
};

static struct attribute *ibs_caps_attrs[] = {
	&dev_attr_zen4_ibs_extensions.attr,
	NULL,
};

static umode_t ibs_attr_visible(struct kobject *kobj, struct attribute *attr,
				int i)
{
	if (attr == &format_attr_cnt_ctl.attr)
		return ibs_caps & IBS_CAPS_OPCNT ? attr->mode : 0;
	if (attr == &format_attr_l3missonly.attr ||
	    attr == &dev_attr_zen4_ibs_extensions.attr)
		return ibs_caps & IBS_CAPS_ZEN4 ? attr->mode : 0;
	return attr->mode;
}

static const struct attribute_group ibs_fetch_format_group = {
	.name		= "format",
	.attrs		= ibs_fetch_format_attrs,
	.is_visible	= ibs_attr_visible,
};

static const struct attribute_group ibs_op_format_group = {
	.name		= "format",
	.attrs		= ibs_op_format_attrs,
	.is_visible	= ibs_attr_visible,
};

/* Empty but for Zen 4's: user space looks for the directory. */
static const struct attribute_group ibs_caps_group = {
	.name		= "caps",
	.attrs		= ibs_caps_attrs,
	.is_visible	= ibs_attr_visible,
};

static const struct attribute_group *ibs_fetch_groups[] = {
	&ibs_fetch_format_group,
	&ibs_caps_group,
	NULL,
};

static const struct attribute_group *ibs_op_groups[] = {
	&ibs_op_format_group,
	&ibs_caps_group,
	NULL,
};

#define IBS_PMU(_groups)						\
	.pmu = {							\
		.task_ctx_nr	= perf_invalid_context,			\
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,		\
		.attr_groups	= _groups,				\
		.event_init	= ibs_event_init,			\
		.add		= ibs_add,				\
		.del		= ibs_del,				\
		.start		= ibs_start,				\
		.stop		= ibs_stop,				\
		.read		= ibs_read,				\
	}

static struct ibs_pmu ibs_fetch = {
	IBS_PMU(ibs_fetch_groups),
	.ctl		= MSR_AMD64_IBSFETCHCTL,
	.enable		= IBS_FETCH_ENABLE,
	.valid		= IBS_FETCH_VAL,
	.max_period	= IBS_FETCH_MAX_CNT << 4,
	.nr_regs	= MSR_AMD64_IBSFETCH_REG_COUNT,
	.cpu		= &ibs_fetch_cpu,
};

static struct ibs_pmu ibs_op = {
	IBS_PMU(ibs_op_groups),
	.ctl		= MSR_AMD64_IBSOPCTL,
	.enable		= IBS_OP_ENABLE,
	.valid		= IBS_OP_VAL,
	.max_period	= IBS_OP_MAX_CNT << 4,
	.nr_regs	= IBS_OP_NR_REGS,
	.cpu		= &ibs_op_cpu,
};

/* Each CPU's extended LVT entry of IBS: the NMI, or masked. */

static int ibs_lvt_set(bool on)
{
	return setup_APIC_eilvt(ibs_lvt_offset, 0, APIC_EILVT_MSG_NMI,
				on ? 0 : 1);
}

/* This CPU's samplers off, and nothing pending: as after a reset. */
static void ibs_cpu_quiet(void)
{
	wrmsrl(MSR_AMD64_IBSFETCHCTL, 0);
	wrmsrl(MSR_AMD64_IBSOPCTL, 0);
	this_cpu_write(ibs_fetch_cpu.late, 0);
	this_cpu_write(ibs_op_cpu.late, 0);
}

static int ibs_cpu_starting(unsigned int cpu)
{
	/* A sampler left running (by a kexec'd kernel) would NMI unasked. */
	ibs_cpu_quiet();
	if (ibs_lvt_set(true))
		pr_warn("IBS: CPU %u: LVT offset %u not usable\n", cpu,
			ibs_lvt_offset);
	return 0;
}

static int ibs_cpu_dying(unsigned int cpu)
{
	ibs_lvt_set(false);
	ibs_cpu_quiet();
	return 0;
}

static void ibs_resume(void)
{
	ibs_lvt_set(true);
}

static struct syscore_ops ibs_syscore_ops = {
	.resume		= ibs_resume,
};

/* The capabilities, from CPUID where the CPU lists them. */
static u32 __init ibs_read_caps(void)
{
	u32 caps = IBS_CAPS_DEFAULT;

	if (boot_cpu_data.extended_cpuid_level >= IBS_CPUID_FEATURES)
		caps = cpuid_eax(IBS_CPUID_FEATURES);
	return caps & IBS_CAPS_AVAIL ? caps : 0;
}

/* The LVT offset firmware gave IBS (family 10h's NB register aside). */
static int __init ibs_read_lvt_offset(void)
{
	u64 ctl;

	if (rdmsrl_safe(MSR_AMD64_IBSCTL, &ctl) ||
	    !(ctl & IBSCTL_LVT_OFFSET_VALID)) {
		pr_err(FW_BUG "IBS: no valid LVT offset in IBSCTL\n");
		return -ENODEV;
	}
	ibs_lvt_offset = ctl & IBSCTL_LVT_OFFSET_MASK;
	if (ibs_lvt_offset >= APIC_EILVT_NR_MAX) {
		pr_err(FW_BUG "IBS: LVT offset %u out of range\n",
		       ibs_lvt_offset);
		return -ENODEV;
	}
	return 0;
}

static int __init ibs_register(struct ibs_pmu *ibs, const char *name)
{
	int ret = perf_pmu_register(&ibs->pmu, name, -1);

	if (ret)
		pr_warn("IBS: %s not registered: %d\n", name, ret);
	return ret;
}

static int __init amd_ibs_init(void)
{
	u32 caps;
	int ret;

	if (!boot_cpu_has(X86_FEATURE_IBS) || !boot_cpu_has(X86_FEATURE_APIC) ||
	    !boot_cpu_has(X86_FEATURE_EXTAPIC))
		return 0;
	caps = ibs_read_caps();
	if (!caps || boot_cpu_data.x86 < 0x10)
		return 0;
	if (ibs_read_lvt_offset())
		return 0;

	if (caps & IBS_CAPS_OPCNT)
		ibs_op.config_mask |= IBS_OP_CNT_CTL;
	if (caps & IBS_CAPS_OPCNTEXT) {
		ibs_op.config_mask |= IBS_OP_CNT_HIGH;
		ibs_op.max_period = IBS_OP_MAX_CNT_EXT << 4;
	}
	ibs_op.config_mask |= IBS_CNT_LOW;
	ibs_fetch.config_mask |= IBS_CNT_LOW | IBS_FETCH_RAND_EN;
	if (caps & IBS_CAPS_ZEN4) {
		ibs_op.config_mask |= IBS_OP_L3MISSONLY;
		ibs_fetch.config_mask |= IBS_FETCH_L3MISSONLY;
	}
	/* Beyond the seven: BR_TARGET and OP_DATA4 where the CPU has them. */
	ibs_op.nr_regs += !!(caps & IBS_CAPS_BRNTRGT) +
			  !!(caps & IBS_CAPS_OPDATA4);
	ibs_fetch.nr_regs += !!(caps & IBS_CAPS_FETCHCTLEXTD);
	ibs_caps = caps;
	ibs_mem_read = ibs_mem_quirks(caps, boot_cpu_data.x86,
				      boot_cpu_data.x86_model);

	/* The NMI handler first: the LVT entries open as CPUs come up. */
	ret = register_nmi_handler(NMI_LOCAL, ibs_nmi, 0, "perf_ibs");
	if (ret)
		goto fail;
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_AMD_IBS_STARTING,
				"perf/x86/amd/ibs:starting", ibs_cpu_starting,
				ibs_cpu_dying);
	if (ret)
		goto fail_nmi;
	register_syscore_ops(&ibs_syscore_ops);
	/* Without ibs_fetch, ibs_op alone; without either, nothing. */
	if ((caps & IBS_CAPS_FETCHSAM) && ibs_register(&ibs_fetch, "ibs_fetch"))
		ibs_caps &= ~IBS_CAPS_FETCHSAM;
	if ((caps & IBS_CAPS_OPSAM) && ibs_register(&ibs_op, "ibs_op"))
		ibs_caps &= ~IBS_CAPS_OPSAM;
	if (!(ibs_caps & (IBS_CAPS_FETCHSAM | IBS_CAPS_OPSAM))) {
		ret = -ENODEV;
		goto fail_hp;
	}
	pr_info("AMD IBS detected (0x%08x)\n", caps);
	return 0;

fail_hp:
	unregister_syscore_ops(&ibs_syscore_ops);
	cpuhp_remove_state(CPUHP_AP_PERF_X86_AMD_IBS_STARTING);
fail_nmi:
	unregister_nmi_handler(NMI_LOCAL, "perf_ibs");
fail:
	ibs_caps = 0;
	return ret;
}
device_initcall(amd_ibs_init);
