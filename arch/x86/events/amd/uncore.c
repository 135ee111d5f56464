// SPDX-License-Identifier: GPL-2.0
/*
 * The counters AMD's parts keep outside their cores: those of the data
 * fabric (the northbridge before family 17h) and of the last-level
 * cache (the L3 a complex of cores shares from family 17h, the L2 a
 * compute unit shares before it), as the PMUs amd_df and amd_l3
 * (amd_nb and amd_l2).  CPUID Fn8000_0001 ECX offers them: PerfCtrExtNB
 * (bit 24) the fabric's, PerfCtrExtLLC (bit 28) the cache's; the
 * topology extensions (bit 22) say which CPUs share them.
 *
 * Each counter is a PERF_CTL / PERF_CTR pair of MSRs (the fabric's from
 * 0xc0010240, the cache's from 0xc0010230), read with RDPMC (the
 * fabric's first four at 6 to 9, the cache's at 10 to 15, further
 * fabric counters from 16).  The fabric has four, or with PerfMonV2 as
 * many as CPUID Fn8000_0022 EBX[15:10] says; the L3 has six, the L2
 * four.  They count 48 bits and never interrupt.
 *
 * Every CPU of a die (of a cache) sees the same counters, counting for
 * all of them.  So the events are CPU-wide counting events (no task
 * events, no sampling, no exclude_* bit), and whatever CPU of the
 * domain one is opened on, it counts on the domain's reader, the CPU
 * its cpumask file lists; when the reader goes off line, another CPU of
 * the domain takes over and the events move there with their counts
 * (perf_pmu_migrate_context()).  A domain's counters are handed out by
 * its reader's slots, which only the reader touches, with interrupts
 * off: no lock is needed.
 *
 * attr.config is PERF_CTL's event and unit mask as the format files
 * place them; the L3 of family 17h and later also filters by core and
 * thread (and slice), and a filter left at 0 counts every one.
 */
#define pr_fmt(fmt) "amd_uncore: " fmt

#include <linux/perf_event.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#define UNCORE_DF_COUNTERS	4
#define UNCORE_L2_COUNTERS	4
#define UNCORE_L3_COUNTERS	6
#define UNCORE_DF_RDPMC		6	/* the fabric's first four */
#define UNCORE_DF_RDPMC_MORE	16	/* its fifth and later */
#define UNCORE_LLC_RDPMC	10
#define UNCORE_WIDTH		48

/**
 * struct amd_uncore - the counters of one kind of domain
 * @pmu: the PMU
 * @name: its name in sysfs
 * @ctl: the first counter's PERF_CTL; its PERF_CTR is the next MSR, the
 *	next counter's PERF_CTL the one after
 * @nr: counters a domain has
 * @domain: the id of the domain of a CPU; the same for the CPUs that
 *	share the counters
 * @config: the PERF_CTL bits of attr.config
 * @readers: one CPU on line per domain: the CPUs its events count on,
 *	and the cpumask file
 * @format: the format directory, its files chosen by family at init
 * @groups: the PMU's sysfs groups: the cpumask file and @format
 * @slots: per CPU, @nr events; a reader's say which counter each of its
 *	events has.  Only the reader reads or writes its own, with
 *	interrupts off (the pmu callbacks).
 */
struct amd_uncore {
	struct pmu		pmu;
	const char		*name;
	u32			ctl;
	unsigned int		nr;
	int			(*domain)(unsigned int cpu);
	u64			(*config)(u64 config);
	cpumask_t		readers;
	struct attribute_group	format;
	const struct attribute_group *groups[3];
	struct perf_event	* __percpu *slots;
};

enum { UNCORE_DF, UNCORE_LLC, UNCORE_KINDS };

static struct amd_uncore amd_uncores[UNCORE_KINDS];

static struct amd_uncore *to_amd_uncore(struct pmu *pmu)
{
	return container_of(pmu, struct amd_uncore, pmu);
}

/* sysfs */

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *page)
{
	struct amd_uncore *u = to_amd_uncore(dev_get_drvdata(dev));

	return cpumap_print_to_pagebuf(true, page, &u->readers);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *uncore_pmu_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

static const struct attribute_group uncore_pmu_group = {
	.attrs	= uncore_pmu_attrs,
};

/* A format file named @_file: its field is attr.config's bits @_bits. */
#define UNCORE_FORMAT(_var, _file, _bits)				\
static ssize_t _var##_show(struct device *dev,				\
			   struct device_attribute *attr, char *page)	\
{									\
	return sysfs_emit(page, "config:%s\n", _bits);		\
}									\
static struct device_attribute format_##_var =				\
	__ATTR(_file, 0444, _var##_show, NULL)

/* The event: 12 bits until family 17h, 14 with PerfMonV2's fabric. */
UNCORE_FORMAT(event12, event, "0-7,32-35");
UNCORE_FORMAT(event_df, event, "0-7,32-35,59-60");
UNCORE_FORMAT(event_df2, event, "0-7,32-37");
UNCORE_FORMAT(event8, event, "0-7");
UNCORE_FORMAT(umask8, umask, "8-15");
UNCORE_FORMAT(umask_df2, umask, "8-15,24-27");
/* The L3's filters: family 17h's masks, 19h's ids. */
UNCORE_FORMAT(slicemask, slicemask, "48-51");
UNCORE_FORMAT(threadmask8, threadmask, "56-63");
UNCORE_FORMAT(threadmask2, threadmask, "56-57");
UNCORE_FORMAT(coreid, coreid, "42-44");
UNCORE_FORMAT(enallslices, enallslices, "46");
UNCORE_FORMAT(enallcores, enallcores, "47");
UNCORE_FORMAT(sliceid, sliceid, "48-50");

/*
 * Filled at init by family, NULL-terminated: event and umask, and the
 * L3's filters (five on family 19h).
 */
static struct attribute *uncore_df_format_attrs[2 + 1];
static struct attribute *uncore_llc_format_attrs[2 + 5 + 1];

/* Counting, on the reader with interrupts off */

/* The fabric's counters beyond the fourth sit after the cache's. */
static unsigned int uncore_rdpmc(struct amd_uncore *u, unsigned int idx)
{
	if (u != &amd_uncores[UNCORE_DF])
		return UNCORE_LLC_RDPMC + idx;
	if (idx < UNCORE_DF_COUNTERS)
		return UNCORE_DF_RDPMC + idx;
	return UNCORE_DF_RDPMC_MORE + idx - UNCORE_DF_COUNTERS;
}

/* hw.event_base: the counter's RDPMC index (not an MSR, here). */
static u64 uncore_read_counter(struct perf_event *event)
{
	u64 val;

	rdpmcl(event->hw.event_base, val);
	return val;
}

static void uncore_event_update(struct perf_event *event)
{
	u64 now = uncore_read_counter(event);
	u64 delta = now - local64_read(&event->hw.prev_count);

	local64_add(delta & GENMASK_ULL(UNCORE_WIDTH - 1, 0), &event->count);
	local64_set(&event->hw.prev_count, now);
}

static void uncore_event_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	local64_set(&hwc->prev_count, uncore_read_counter(event));
	wrmsrl(hwc->config_base, hwc->config | ARCH_PERFMON_EVENTSEL_ENABLE);
	hwc->state = 0;
	perf_event_update_userpage(event);
}

static void uncore_event_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	wrmsrl(hwc->config_base, hwc->config);
	uncore_event_update(event);
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int uncore_event_add(struct perf_event *event, int flags)
{
	struct amd_uncore *u = to_amd_uncore(event->pmu);
	struct perf_event **slots = this_cpu_ptr(u->slots);
	struct hw_perf_event *hwc = &event->hw;
	unsigned int i;

	/*
	 * Only the reader drives its domain's counters.  Events left on a
	 * CPU that went off line with the rest of its domain, and came back
	 * after another CPU of it, wait there: the counters are the
	 * reader's.
	 */
	if (!cpumask_test_cpu(smp_processor_id(), &u->readers))
		return -EBUSY;
	for (i = 0; i < u->nr && slots[i]; i++)
		;
	if (i == u->nr)
		return -EBUSY;
	slots[i] = event;
	hwc->idx = i;
	hwc->config_base = u->ctl + 2 * i;
	hwc->event_base = uncore_rdpmc(u, i);
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		uncore_event_start(event, flags);
	return 0;
}

static void uncore_event_del(struct perf_event *event, int flags)
{
	struct amd_uncore *u = to_amd_uncore(event->pmu);
	struct perf_event **slots = this_cpu_ptr(u->slots);

	uncore_event_stop(event, PERF_EF_UPDATE);
	slots[event->hw.idx] = NULL;
	event->hw.idx = -1;
}

static void uncore_event_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		uncore_event_update(event);
}

/* Whether a group with @event in it still fits the domain's counters. */
static bool uncore_group_fits(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	struct perf_event_context *ctx;
	unsigned long flags;
	unsigned int n = 1;

	if (leader == event)
		return true;
	if (leader->pmu == event->pmu)
		n++;
	ctx = perf_group_lock(event, &flags);
	for_each_sibling_event(sibling, leader) {
		if (sibling->pmu == event->pmu &&
		    READ_ONCE(sibling->state) > PERF_EVENT_STATE_OFF)
			n++;
	}
	perf_group_unlock(ctx, flags);
	return n <= to_amd_uncore(event->pmu)->nr;
}

static int uncore_event_init(struct perf_event *event)
{
	struct amd_uncore *u = to_amd_uncore(event->pmu);
	unsigned int reader;
	int domain;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->cpu < 0)
		return -EINVAL;
	/* The core checks the reader's; 6.1 refuses a CPU off line too. */
	if (!cpu_online(event->cpu))
		return -ENODEV;
	if (!uncore_group_fits(event))
		return -EINVAL;

	/* Whichever CPU of the domain it was opened on, the reader. */
	domain = u->domain(event->cpu);
	for_each_cpu(reader, &u->readers) {
		if (u->domain(reader) == domain)
			break;
	}
	if (reader >= nr_cpu_ids)
		return -ENODEV;
	event->cpu = reader;
	event->hw.config = u->config(event->attr.config);
	event->hw.idx = -1;
	return 0;
}

/* What attr.config gives PERF_CTL */

static u64 uncore_df_config(u64 config)
{
	return config & AMD64_RAW_EVENT_MASK_NB;
}

static u64 uncore_df2_config(u64 config)
{
	return config & AMD64_PERFMON_V2_RAW_EVENT_MASK_NB;
}

/* Family 17h's L3: a slice or thread mask left at 0 asks for all. */
static u64 uncore_l3_17h_config(u64 config)
{
	u64 val = config & AMD64_RAW_EVENT_MASK_NB;

	val |= (config & AMD64_L3_SLICE_MASK) ?: AMD64_L3_SLICE_MASK;
	val |= (config & AMD64_L3_THREAD_MASK) ?: AMD64_L3_THREAD_MASK;
	return val;
}

/*
 * Family 19h's L3: the ids as given, but without a thread mask every
 * thread of every core, in every slice.
 */
static u64 uncore_l3_19h_config(u64 config)
{
	u64 val = config & AMD64_RAW_EVENT_MASK_NB;

	if (!(config & AMD64_L3_F19H_THREAD_MASK))
		return val | AMD64_L3_F19H_THREAD_MASK |
		       AMD64_L3_EN_ALL_SLICES | AMD64_L3_EN_ALL_CORES;
	return val | (config & (AMD64_L3_F19H_THREAD_MASK |
				AMD64_L3_SLICEID_MASK |
				AMD64_L3_EN_ALL_CORES |
				AMD64_L3_EN_ALL_SLICES |
				AMD64_L3_COREID_MASK));
}

/* The domains: the fabric's is the die (the node), the cache's its id. */

static int uncore_die(unsigned int cpu)
{
	return topology_die_id(cpu);
}

static int uncore_llc(unsigned int cpu)
{
	return get_llc_id(cpu);
}

/* CPU hotplug: each domain with a CPU on line has a reader. */

/* The reader of @cpu's domain other than @cpu, or nr_cpu_ids. */
static unsigned int uncore_other_cpu(struct amd_uncore *u, unsigned int cpu)
{
	int domain = u->domain(cpu);
	unsigned int other;

	for_each_online_cpu(other) {
		if (other != cpu && u->domain(other) == domain)
			return other;
	}
	return nr_cpu_ids;
}

static int uncore_cpu_online(unsigned int cpu)
{
	unsigned int i, r;

	for (i = 0; i < UNCORE_KINDS; i++) {
		struct amd_uncore *u = &amd_uncores[i];

		if (!u->slots)
			continue;
		for_each_cpu(r, &u->readers) {
			if (u->domain(r) == u->domain(cpu))
				break;
		}
		if (r >= nr_cpu_ids)
			cpumask_set_cpu(cpu, &u->readers);
	}
	return 0;
}

static int uncore_cpu_offline(unsigned int cpu)
{
	unsigned int i, next;

	for (i = 0; i < UNCORE_KINDS; i++) {
		struct amd_uncore *u = &amd_uncores[i];

		if (!u->slots || !cpumask_test_cpu(cpu, &u->readers))
			continue;
		/* The next reader first: an open never finds the domain without. */
		next = uncore_other_cpu(u, cpu);
		if (next < nr_cpu_ids)
			cpumask_set_cpu(next, &u->readers);
		cpumask_clear_cpu(cpu, &u->readers);
		if (next < nr_cpu_ids)
			perf_pmu_migrate_context(&u->pmu, cpu, next);
	}
	return 0;
}

/* What the machine has */

static const struct pmu uncore_pmu_ops __initconst = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE,
	.event_init	= uncore_event_init,
	.add		= uncore_event_add,
	.del		= uncore_event_del,
	.start		= uncore_event_start,
	.stop		= uncore_event_stop,
	.read		= uncore_event_read,
};

/* The fabric's (northbridge's) counters, where CPUID offers them. */
static void __init uncore_df_probe(void)
{
	struct amd_uncore *u = &amd_uncores[UNCORE_DF];
	struct attribute **attrs = uncore_df_format_attrs;
	union cpuid_0x80000022_ebx ebx;
	bool zen = boot_cpu_data.x86 >= 0x17;

	if (!boot_cpu_has(X86_FEATURE_PERFCTR_NB))
		return;
	u->name = zen ? "amd_df" : "amd_nb";
	u->ctl = MSR_F15H_NB_PERF_CTL;
	u->nr = UNCORE_DF_COUNTERS;
	u->domain = uncore_die;
	u->config = uncore_df_config;
	u->format.attrs = attrs;
	if (boot_cpu_has(X86_FEATURE_PERFMON_V2)) {
		ebx.full = cpuid_ebx(EXT_PERFMON_DEBUG_FEATURES);
		u->nr = ebx.split.num_df_pmc;
		u->config = uncore_df2_config;
		*attrs++ = &format_event_df2.attr;
		*attrs++ = &format_umask_df2.attr;
		return;
	}
	*attrs++ = zen ? &format_event_df.attr : &format_event12.attr;
	*attrs++ = &format_umask8.attr;
}

/* The last-level cache's counters, where CPUID offers them. */
static void __init uncore_llc_probe(void)
{
	struct amd_uncore *u = &amd_uncores[UNCORE_LLC];
	struct attribute **attrs = uncore_llc_format_attrs;
	unsigned int family = boot_cpu_data.x86;

	if (!boot_cpu_has(X86_FEATURE_PERFCTR_LLC))
		return;
	u->ctl = MSR_F16H_L2I_PERF_CTL;
	u->domain = uncore_llc;
	u->format.attrs = attrs;
	if (family < 0x17) {
		u->name = "amd_l2";
		u->nr = UNCORE_L2_COUNTERS;
		u->config = uncore_df_config;
		*attrs++ = &format_event12.attr;
		*attrs++ = &format_umask8.attr;
		return;
	}
	u->name = "amd_l3";
	u->nr = UNCORE_L3_COUNTERS;
	*attrs++ = &format_event8.attr;
	*attrs++ = &format_umask8.attr;
	if (family < 0x19) {
		u->config = uncore_l3_17h_config;
		*attrs++ = &format_threadmask8.attr;
		*attrs++ = &format_slicemask.attr;
		return;
	}
	u->config = uncore_l3_19h_config;
	*attrs++ = &format_threadmask2.attr;
	*attrs++ = &format_coreid.attr;
	*attrs++ = &format_enallslices.attr;
	*attrs++ = &format_enallcores.attr;
	*attrs++ = &format_sliceid.attr;
}

/* Unregister the PMUs registered, and free their slots. */
static void uncore_unregister(void)
{
	unsigned int i;

	for (i = 0; i < UNCORE_KINDS; i++) {
		struct amd_uncore *u = &amd_uncores[i];

		if (!u->slots)
			continue;
		perf_pmu_unregister(&u->pmu);
		free_percpu(u->slots);
		u->slots = NULL;
	}
}

static int __init uncore_register(struct amd_uncore *u)
{
	const char *vendor = "";
	int ret;

	u->slots = __alloc_percpu(max(u->nr, 1U) * sizeof(struct perf_event *),
				  sizeof(struct perf_event *));
	if (!u->slots)
		return -ENOMEM;
	u->format.name = "format";
	u->groups[0] = &uncore_pmu_group;
	u->groups[1] = &u->format;
	u->pmu = uncore_pmu_ops;
	u->pmu.attr_groups = u->groups;
	ret = perf_pmu_register(&u->pmu, u->name, -1);
	if (!ret) {
		if (boot_cpu_data.x86_vendor == X86_VENDOR_HYGON)
			vendor = "HYGON";
		/* 6.1's line, its two spaces on AMD's parts too. */
		pr_info("%u %s %s counters detected\n", u->nr, vendor, u->name);
		return 0;
	}
	free_percpu(u->slots);
	u->slots = NULL;
	return ret;
}

static int __init amd_uncore_init(void)
{
	unsigned int i;
	int ret;

	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		/* Which CPUs share counters: the topology extensions say. */
		if (boot_cpu_has(X86_FEATURE_TOPOEXT))
			break;
		fallthrough;
	default:
		return -ENODEV;
	}
	uncore_df_probe();
	uncore_llc_probe();

	for (i = 0; i < UNCORE_KINDS; i++) {
		if (!amd_uncores[i].name)
			continue;
		ret = uncore_register(&amd_uncores[i]);
		if (ret)
			goto fail;
	}
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_AMD_UNCORE_ONLINE,
				"perf/x86/amd/uncore:online",
				uncore_cpu_online, uncore_cpu_offline);
	if (ret < 0)
		goto fail;
	return 0;

fail:
	uncore_unregister();
	return ret;
}
module_init(amd_uncore_init);

static void __exit amd_uncore_exit(void)
{
	cpuhp_remove_state_nocalls(CPUHP_AP_PERF_X86_AMD_UNCORE_ONLINE);
	uncore_unregister();
}
module_exit(amd_uncore_exit);

MODULE_DESCRIPTION("AMD's data fabric and last-level cache counters as the amd_df and amd_l3 PMUs");
MODULE_LICENSE("GPL");
