// SPDX-License-Identifier: GPL-2.0
/*
 * The "msr" PMU: free-running counters the CPU keeps in model-specific
 * registers (the time stamp counter, APERF/MPERF, ...), offered as
 * counting events of a dynamic type.
 *
 * attr.config picks the counter; the numbers are the ABI user space
 * knows from events/<name> ("event=0x..").  A counter is listed, and can
 * be opened, only when the boot CPU says it has it and reading it does
 * not fault.  The counters cannot interrupt and count in every mode, so
 * there is no sampling and no exclude_* bit.
 *
 * An event's count is the sum of the counter's increments while the
 * event was active: start() takes the counter's value in
 * hw.prev_count, each update adds what it moved on since.  Updates run
 * on the event's CPU, from the scheduler with interrupts off or from a
 * read there; prev_count is swapped with a cmpxchg so that an update
 * interrupted by another one adds each increment once.
 */
#include <linux/perf_event.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/nospec.h>
#include <linux/sysfs.h>
#include <linux/cpufeature.h>
#include <asm/msr.h>
#include <linux/processor.h>

/* attr.config of each counter: user-visible, do not renumber. */
enum msr_counter_id {
	MSR_CTR_TSC,
	MSR_CTR_APERF,
	MSR_CTR_MPERF,
	MSR_CTR_PPERF,
	MSR_CTR_SMI,
	MSR_CTR_PTSC,
	MSR_CTR_IRPERF,
	MSR_CTR_NR,
};

/**
 * struct msr_counter - one counter of the msr PMU
 * @msr: the register it is read from (the TSC is read with rdtsc)
 * @bits: how many low bits of the register count
 * @present: whether this CPU has it; set once at boot
 * @attr: its events/ file
 */
struct msr_counter {
	u32			msr;
	u8			bits;
	bool			present;
	struct device_attribute	attr;
};

static ssize_t msr_event_show(struct device *dev,
			      struct device_attribute *attr, char *page);

#define MSR_COUNTER(_id, _name, _msr, _bits)				\
	[_id] = {							\
		.msr	= _msr,						\
		.bits	= _bits,					\
		.attr	= __ATTR(_name, 0444, msr_event_show, NULL),	\
	}

static struct msr_counter msr_counters[MSR_CTR_NR] = {
	MSR_COUNTER(MSR_CTR_TSC, tsc, 0, 64),
	MSR_COUNTER(MSR_CTR_APERF, aperf, MSR_IA32_APERF, 64),
	MSR_COUNTER(MSR_CTR_MPERF, mperf, MSR_IA32_MPERF, 64),
	MSR_COUNTER(MSR_CTR_PPERF, pperf, MSR_PPERF, 64),
	MSR_COUNTER(MSR_CTR_SMI, smi, MSR_SMI_COUNT, 32),
	MSR_COUNTER(MSR_CTR_PTSC, ptsc, MSR_F15H_PTSC, 64),
	MSR_COUNTER(MSR_CTR_IRPERF, irperf, MSR_F17H_IRPERF, 64),
};

static ssize_t msr_event_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	struct msr_counter *ctr = container_of(attr, struct msr_counter, attr);

	return sysfs_emit(page, "event=0x%02x\n", (int)(ctr - msr_counters));
}

static struct attribute *msr_event_attrs[MSR_CTR_NR + 1] = {
	&msr_counters[MSR_CTR_TSC].attr.attr,
	&msr_counters[MSR_CTR_APERF].attr.attr,
	&msr_counters[MSR_CTR_MPERF].attr.attr,
	&msr_counters[MSR_CTR_PPERF].attr.attr,
	&msr_counters[MSR_CTR_SMI].attr.attr,
	&msr_counters[MSR_CTR_PTSC].attr.attr,
	&msr_counters[MSR_CTR_IRPERF].attr.attr,
	NULL,
};

/* Only the counters this CPU has get a file. */
static umode_t msr_event_visible(struct kobject *kobj, struct attribute *attr,
				 int i)
{
	return msr_counters[i].present ? attr->mode : 0;
}

static const struct attribute_group msr_events_group = {
	.name		= "events",
	.attrs		= msr_event_attrs,
	.is_visible	= msr_event_visible,
};

static ssize_t event_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	return sysfs_emit(page, "config:0-63\n");
}
static DEVICE_ATTR_RO(event);

static struct attribute *msr_format_attrs[] = {
	&dev_attr_event.attr,
	NULL,
};

static const struct attribute_group msr_format_group = {
	.name	= "format",
	.attrs	= msr_format_attrs,
};

static const struct attribute_group *msr_attr_groups[] = {
	&msr_events_group,
	&msr_format_group,
	NULL,
};

static u64 msr_counter_read(unsigned int id)
{
	u64 val;

	if (id == MSR_CTR_TSC)
		return rdtsc_ordered();
	rdmsrl(msr_counters[id].msr, val);
	return val;
}

static struct pmu msr_pmu;

static int msr_event_init(struct perf_event *event)
{
	u64 id = event->attr.config;

	if (event->attr.type != msr_pmu.type)
		return -ENOENT;
	/*
	 * The counters never interrupt: nothing to sample with.  This PMU
	 * says so with -EINVAL, as 6.1's does, before the core's general
	 * -EOPNOTSUPP for PERF_PMU_CAP_NO_INTERRUPT.
	 */
	if (is_sampling_event(event))
		return -EINVAL;
	if (id >= MSR_CTR_NR)
		return -EINVAL;
	id = array_index_nospec(id, MSR_CTR_NR);
	if (!msr_counters[id].present)
		return -EINVAL;

	event->event_caps |= PERF_EV_CAP_SOFTWARE;
	return 0;
}

/* Add what the counter moved on since the last update to the count. */
static void msr_event_update(struct perf_event *event)
{
	struct msr_counter *ctr = &msr_counters[event->attr.config];
	unsigned int shift = 64 - ctr->bits;
	u64 prev, now;

	do {
		prev = local64_read(&event->hw.prev_count);
		now = msr_counter_read(event->attr.config);
	} while (local64_cmpxchg(&event->hw.prev_count, prev, now) != prev);

	/* A narrow counter wraps at its width: keep the low bits only. */
	local64_add(((now << shift) - (prev << shift)) >> shift, &event->count);
}

static void msr_event_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count,
		    msr_counter_read(event->attr.config));
	event->hw.state = 0;
}

static void msr_event_stop(struct perf_event *event, int flags)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		msr_event_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int msr_event_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		msr_event_start(event, flags);
	return 0;
}

static void msr_event_del(struct perf_event *event, int flags)
{
	msr_event_stop(event, PERF_EF_UPDATE);
}

static void msr_event_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		msr_event_update(event);
}

static struct pmu msr_pmu = {
	.attr_groups	= msr_attr_groups,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE |
			  PERF_PMU_CAP_UNLIMITED,
	.event_init	= msr_event_init,
	.add		= msr_event_add,
	.del		= msr_event_del,
	.start		= msr_event_start,
	.stop		= msr_event_stop,
	.read		= msr_event_read,
};

/* Whether the boot CPU has counter @id: its feature bit, and a safe read. */
static bool __init msr_counter_probe(unsigned int id)
{
	struct cpuinfo_x86 *c = &boot_cpu_data;
	u64 val;

	switch (id) {
	case MSR_CTR_TSC:
		return boot_cpu_has(X86_FEATURE_TSC);
	case MSR_CTR_APERF:
	case MSR_CTR_MPERF:
		if (!boot_cpu_has(X86_FEATURE_APERFMPERF))
			return false;
		break;
	case MSR_CTR_PTSC:
		if (!boot_cpu_has(X86_FEATURE_PTSC))
			return false;
		break;
	case MSR_CTR_IRPERF:
		if (!boot_cpu_has(X86_FEATURE_IRPERF))
			return false;
		break;
	default:
		/* PPERF and the SMI count have no CPUID bit: Intel only. */
		if (c->x86_vendor != X86_VENDOR_INTEL || c->x86 != 6)
			return false;
		break;
	}
	return !rdmsrl_safe(msr_counters[id].msr, &val);
}

static int __init msr_pmu_init(void)
{
	unsigned int id;

	for (id = 0; id < MSR_CTR_NR; id++)
		msr_counters[id].present = msr_counter_probe(id);
	if (!msr_counters[MSR_CTR_TSC].present)
		return -ENODEV;
	return perf_pmu_register(&msr_pmu, "msr", -1);
}
device_initcall(msr_pmu_init);
