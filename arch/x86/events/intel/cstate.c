// SPDX-License-Identifier: GPL-2.0
/*
 * The cstate_core and cstate_pkg PMUs: how long each core and each
 * package has been in each of its idle states (C-states), from the
 * residency MSRs of Intel's parts since Nehalem (Intel SDM vol. 4, the
 * MSRs of each model).  Each is a 64-bit count of TSC ticks, read only,
 * never interrupting; turbostat reads the same MSRs.
 *
 * attr.config picks the state, in the numbers user space knows from
 * events/c<N>-residency:
 *
 *	cstate_core	0 C1, 1 C3, 2 C6, 3 C7
 *	cstate_pkg	0 C2, 1 C3, 2 C6, 3 C7, 4 C8, 5 C9, 6 C10
 *
 * Which states a part counts is a fact of its model (the table below);
 * a counter is offered if its MSR also reads without a fault.  Under a
 * hypervisor the MSRs cannot be trusted to be there, or to mean what
 * they mean on silicon, and neither PMU is registered.  On parts with
 * more than one die in a package, the package PMU counts per die and is
 * called cstate_die.
 *
 * Events are CPU-wide counting events (no task events, no sampling, no
 * exclude_* bit).  Whatever CPU of a core (or die) one is opened on, it
 * counts on the core's (die's) reader, the CPU the cpumask file lists
 * for it; when the reader goes off line, another CPU of the core (die)
 * takes over and the events move there with their counts
 * (perf_pmu_migrate_context()).  A count is updated on the reader, with
 * interrupts off; a package's (die's) counters read the same from each
 * of its CPUs, so a read() there needs no IPI to the reader
 * (PERF_EV_CAP_READ_ACTIVE_PKG, which 6.1 does not give the C-states):
 * the update then claims its step with an atomic cmpxchg of the value
 * last read, against the reader's own reads at the same time.
 */
#define pr_fmt(fmt) "cstate: " fmt

#include <linux/perf_event.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>

/**
 * struct cstate_counter - one residency MSR
 * @msr: the MSR; a model may move it
 * @state: its C-state's number
 * @present: whether this machine counts it; set once at init
 * @attr: its events/ file, "c<@state>-residency"
 * @name: the file's name
 */
struct cstate_counter {
	u32			msr;
	u8			state;
	bool			present;
	struct device_attribute	attr;
	char			name[16];
};

/**
 * struct cstate_pmu - the residency counters of one scope
 * @pmu: the PMU
 * @name: its name in sysfs (the package's may become cstate_die)
 * @scope: the CPUs that share the counters with a CPU
 * @counters: the counters, by attr.config
 * @nr: how many
 * @readers: one CPU on line per core (package, die) with any: the CPUs
 *	its events count on, and the cpumask file
 */
struct cstate_pmu {
	struct pmu			pmu;
	const char			*name;
	const struct cpumask		*(*scope)(int cpu);
	struct cstate_counter		*counters;
	unsigned int			nr;
	cpumask_t			readers;
};

#define CSTATE_COUNTER(_msr, _state)	{ .msr = _msr, .state = _state }

static struct cstate_counter cstate_core_counters[] = {
	CSTATE_COUNTER(MSR_CORE_C1_RES, 1),
	CSTATE_COUNTER(MSR_CORE_C3_RESIDENCY, 3),
	CSTATE_COUNTER(MSR_CORE_C6_RESIDENCY, 6),
	CSTATE_COUNTER(MSR_CORE_C7_RESIDENCY, 7),
};

static struct cstate_counter cstate_pkg_counters[] = {
	CSTATE_COUNTER(MSR_PKG_C2_RESIDENCY, 2),
	CSTATE_COUNTER(MSR_PKG_C3_RESIDENCY, 3),
	CSTATE_COUNTER(MSR_PKG_C6_RESIDENCY, 6),
	CSTATE_COUNTER(MSR_PKG_C7_RESIDENCY, 7),
	CSTATE_COUNTER(MSR_PKG_C8_RESIDENCY, 8),
	CSTATE_COUNTER(MSR_PKG_C9_RESIDENCY, 9),
	CSTATE_COUNTER(MSR_PKG_C10_RESIDENCY, 10),
};

static struct cstate_pmu *to_cstate_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct cstate_pmu, pmu);
}

/* sysfs */

static struct cstate_counter *to_counter(struct device_attribute *attr)
{
	return container_of(attr, struct cstate_counter, attr);
}

static ssize_t cstate_event_show(struct device *dev,
				 struct device_attribute *attr, char *page)
{
	struct cstate_pmu *cp = to_cstate_pmu(dev_get_drvdata(dev));

	return sysfs_emit(page, "event=0x%02x\n",
			  (int)(to_counter(attr) - cp->counters));
}

static umode_t cstate_event_visible(struct kobject *kobj,
				    struct attribute *attr, int i)
{
	struct device_attribute *da;

	da = container_of(attr, struct device_attribute, attr);
	return to_counter(da)->present ? attr->mode : 0;
}

static ssize_t event_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	return sysfs_emit(page, "config:0-63\n");
}
static DEVICE_ATTR_RO(event);

static struct attribute *cstate_format_attrs[] = {
	&dev_attr_event.attr,
	NULL,
};

static const struct attribute_group cstate_format_group = {
	.name	= "format",
	.attrs	= cstate_format_attrs,
};

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *page)
{
	struct cstate_pmu *cp = to_cstate_pmu(dev_get_drvdata(dev));

	return cpumap_print_to_pagebuf(true, page, &cp->readers);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *cstate_pmu_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

static const struct attribute_group cstate_pmu_group = {
	.attrs	= cstate_pmu_attrs,
};

/* One events/ file a counter, in the order of its counters[]. */
static struct attribute *cstate_core_event_attrs[ARRAY_SIZE(cstate_core_counters) + 1];
static struct attribute *cstate_pkg_event_attrs[ARRAY_SIZE(cstate_pkg_counters) + 1];

static const struct attribute_group cstate_core_events_group = {
	.name		= "events",
	.attrs		= cstate_core_event_attrs,
	.is_visible	= cstate_event_visible,
};

static const struct attribute_group cstate_pkg_events_group = {
	.name		= "events",
	.attrs		= cstate_pkg_event_attrs,
	.is_visible	= cstate_event_visible,
};

static const struct attribute_group *cstate_core_groups[] = {
	&cstate_pmu_group,
	&cstate_core_events_group,
	&cstate_format_group,
	NULL,
};

static const struct attribute_group *cstate_pkg_groups[] = {
	&cstate_pmu_group,
	&cstate_pkg_events_group,
	&cstate_format_group,
	NULL,
};

/* Whose counters a PMU's are: a core's, or a die's */

static const struct cpumask *cstate_core_scope(int cpu)
{
	return topology_sibling_cpumask(cpu);
}

static const struct cpumask *cstate_die_scope(int cpu)
{
	return topology_die_cpumask(cpu);
}

/* Counting */

static u64 cstate_read_msr(struct perf_event *event)
{
	u64 val;

	rdmsrl(event->hw.event_base, val);
	return val;
}

/* On the reader, with interrupts off, or on another CPU of a die's. */
static void cstate_event_update(struct perf_event *event)
{
	atomic64_add(perf_event_claim_step(event, cstate_read_msr),
		     &event->count_shared);
}

static void cstate_event_start(struct perf_event *event, int flags)
{
	atomic64_set(&event->hw.prev_shared, cstate_read_msr(event));
	event->hw.state = 0;
}

static void cstate_event_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	cstate_event_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int cstate_event_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		cstate_event_start(event, flags);
	return 0;
}

static void cstate_event_del(struct perf_event *event, int flags)
{
	cstate_event_stop(event, PERF_EF_UPDATE);
}

static void cstate_event_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		cstate_event_update(event);
}

static int cstate_event_init(struct perf_event *event)
{
	struct cstate_pmu *cp = to_cstate_pmu(event->pmu);
	u64 config = event->attr.config;
	unsigned int reader;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* The counters never interrupt: nothing to sample with. */
	if (event->attr.sample_period)
		return -EINVAL;
	if (event->cpu < 0)
		return -EINVAL;
	if (config >= cp->nr)
		return -EINVAL;
	config = array_index_nospec(config, cp->nr);
	if (!cp->counters[config].present)
		return -EINVAL;

	/* Whichever CPU of the core (die) it was opened on, the reader. */
	reader = cpumask_any_and(&cp->readers, cp->scope(event->cpu));
	if (reader >= nr_cpu_ids)
		return -ENODEV;
	event->cpu = reader;
	if (cp->scope == cstate_die_scope)
		event->event_caps |= PERF_EV_CAP_READ_ACTIVE_PKG;
	event->hw.event_base = cp->counters[config].msr;
	event->hw.config = config;
	event->hw.idx = -1;
	return 0;
}

/* What both PMUs do; each has its own sysfs groups. */
static const struct pmu cstate_pmu_ops __initconst = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE,
	.event_init	= cstate_event_init,
	.add		= cstate_event_add,
	.del		= cstate_event_del,
	.start		= cstate_event_start,
	.stop		= cstate_event_stop,
	.read		= cstate_event_read,
};

static struct cstate_pmu cstate_pmus[] = {
	{
		.pmu.attr_groups = cstate_core_groups,
		.name		= "cstate_core",
		.scope		= cstate_core_scope,
		.counters	= cstate_core_counters,
		.nr		= ARRAY_SIZE(cstate_core_counters),
	},
	{
		.pmu.attr_groups = cstate_pkg_groups,
		.name		= "cstate_pkg",
		.scope		= cstate_die_scope,
		.counters	= cstate_pkg_counters,
		.nr		= ARRAY_SIZE(cstate_pkg_counters),
	},
};

/* Whether @cp counts anything here, and so is registered. */
static bool cstate_pmu_used(struct cstate_pmu *cp)
{
	unsigned int i;

	for (i = 0; i < cp->nr; i++) {
		if (cp->counters[i].present)
			return true;
	}
	return false;
}

/* CPU hotplug: each core (die) with a CPU on line has a reader. */

static int cstate_cpu_online(unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cstate_pmus); i++) {
		struct cstate_pmu *cp = &cstate_pmus[i];

		if (cpumask_intersects(&cp->readers, cp->scope(cpu)))
			continue;
		cpumask_set_cpu(cpu, &cp->readers);
	}
	return 0;
}

static int cstate_cpu_offline(unsigned int cpu)
{
	unsigned int i, next;

	for (i = 0; i < ARRAY_SIZE(cstate_pmus); i++) {
		struct cstate_pmu *cp = &cstate_pmus[i];

		if (!cpumask_test_and_clear_cpu(cpu, &cp->readers))
			continue;
		next = cpumask_any_but(cp->scope(cpu), cpu);
		if (next >= nr_cpu_ids)
			continue;
		cpumask_set_cpu(next, &cp->readers);
		if (cstate_pmu_used(cp))
			perf_pmu_migrate_context(&cp->pmu, cpu, next);
	}
	return 0;
}

/* What the machine has */

/*
 * A model's counters, as a mask: BIT(n) for its core's Cn, BIT(16 + n)
 * for its package's; and where it keeps one at another MSR.
 */
#define CORE(n)			BIT(n)
#define PKG(n)			BIT(16 + (n))
#define CSTATE_CORE_C6_KNL	BIT(30)	/* core C6 at MSR_KNL_CORE_C6_RESIDENCY */
#define CSTATE_PKG_C6_SLM	BIT(31)	/* package C6 at the C7 MSR */

#define CSTATE_NEHALEM	(CORE(3) | CORE(6) | PKG(3) | PKG(6) | PKG(7))
#define CSTATE_SANDY	(CORE(3) | CORE(6) | CORE(7) | \
			 PKG(2) | PKG(3) | PKG(6) | PKG(7))
#define CSTATE_DEEP_PKG	(PKG(2) | PKG(3) | PKG(6) | PKG(7) | \
			 PKG(8) | PKG(9) | PKG(10))
#define CSTATE_ULT	(CORE(3) | CORE(6) | CORE(7) | CSTATE_DEEP_PKG)
#define CSTATE_CANNON	(CORE(1) | CSTATE_ULT)
#define CSTATE_ICE	(CORE(6) | CORE(7) | CSTATE_DEEP_PKG)
#define CSTATE_ICE_SRV	(CORE(1) | CORE(6) | PKG(2) | PKG(6))
#define CSTATE_ALDER	(CORE(1) | CORE(6) | CORE(7) | \
			 PKG(2) | PKG(3) | PKG(6) | PKG(8) | PKG(10))
#define CSTATE_SILVER	(CORE(1) | CORE(6) | PKG(6) | CSTATE_PKG_C6_SLM)
#define CSTATE_PHI	(CORE(6) | PKG(2) | PKG(3) | PKG(6) | \
			 CSTATE_CORE_C6_KNL)
#define CSTATE_GOLD	(CORE(1) | CORE(3) | CORE(6) | \
			 PKG(2) | PKG(3) | PKG(6) | PKG(10))

#define CSTATE_MODEL(m, counters)	X86_MATCH_INTEL_FAM6_MODEL(m, counters)

/* Family 6's models with residency counters, in model order. */
static const struct x86_cpu_id cstate_models[] __initconst = {
	CSTATE_MODEL(NEHALEM_EP,	CSTATE_NEHALEM),	/* 0x1a */
	CSTATE_MODEL(NEHALEM,		CSTATE_NEHALEM),	/* 0x1e */
	CSTATE_MODEL(WESTMERE,		CSTATE_NEHALEM),	/* 0x25 */
	CSTATE_MODEL(SANDYBRIDGE,	CSTATE_SANDY),		/* 0x2a */
	CSTATE_MODEL(WESTMERE_EP,	CSTATE_NEHALEM),	/* 0x2c */
	CSTATE_MODEL(SANDYBRIDGE_X,	CSTATE_SANDY),		/* 0x2d */
	CSTATE_MODEL(NEHALEM_EX,	CSTATE_NEHALEM),	/* 0x2e */
	CSTATE_MODEL(WESTMERE_EX,	CSTATE_NEHALEM),	/* 0x2f */
	CSTATE_MODEL(ATOM_SILVERMONT,	CSTATE_SILVER),		/* 0x37 */
	CSTATE_MODEL(IVYBRIDGE,		CSTATE_SANDY),		/* 0x3a */
	CSTATE_MODEL(HASWELL,		CSTATE_SANDY),		/* 0x3c */
	CSTATE_MODEL(BROADWELL,		CSTATE_SANDY),		/* 0x3d */
	CSTATE_MODEL(IVYBRIDGE_X,	CSTATE_SANDY),		/* 0x3e */
	CSTATE_MODEL(HASWELL_X,		CSTATE_SANDY),		/* 0x3f */
	CSTATE_MODEL(HASWELL_L,		CSTATE_ULT),		/* 0x45 */
	CSTATE_MODEL(HASWELL_G,		CSTATE_SANDY),		/* 0x46 */
	CSTATE_MODEL(BROADWELL_G,	CSTATE_SANDY),		/* 0x47 */
	CSTATE_MODEL(ATOM_AIRMONT,	CSTATE_SILVER),		/* 0x4c */
	CSTATE_MODEL(ATOM_SILVERMONT_D,	CSTATE_SILVER),		/* 0x4d */
	CSTATE_MODEL(SKYLAKE_L,		CSTATE_SANDY),		/* 0x4e */
	CSTATE_MODEL(BROADWELL_X,	CSTATE_SANDY),		/* 0x4f */
	CSTATE_MODEL(SKYLAKE_X,		CSTATE_SANDY),		/* 0x55 */
	CSTATE_MODEL(BROADWELL_D,	CSTATE_SANDY),		/* 0x56 */
	CSTATE_MODEL(XEON_PHI_KNL,	CSTATE_PHI),		/* 0x57 */
	CSTATE_MODEL(ATOM_GOLDMONT,	CSTATE_GOLD),		/* 0x5c */
	CSTATE_MODEL(SKYLAKE,		CSTATE_SANDY),		/* 0x5e */
	CSTATE_MODEL(ATOM_GOLDMONT_D,	CSTATE_GOLD),		/* 0x5f */
	CSTATE_MODEL(CANNONLAKE_L,	CSTATE_CANNON),		/* 0x66 */
	CSTATE_MODEL(ICELAKE_X,		CSTATE_ICE_SRV),	/* 0x6a */
	CSTATE_MODEL(ICELAKE_D,		CSTATE_ICE_SRV),	/* 0x6c */
	CSTATE_MODEL(ATOM_GOLDMONT_PLUS, CSTATE_GOLD),		/* 0x7a */
	CSTATE_MODEL(ICELAKE,		CSTATE_ICE),		/* 0x7d */
	CSTATE_MODEL(ICELAKE_L,		CSTATE_ICE),		/* 0x7e */
	CSTATE_MODEL(XEON_PHI_KNM,	CSTATE_PHI),		/* 0x85 */
	CSTATE_MODEL(ATOM_TREMONT_D,	CSTATE_GOLD),		/* 0x86 */
	CSTATE_MODEL(TIGERLAKE_L,	CSTATE_ICE),		/* 0x8c */
	CSTATE_MODEL(TIGERLAKE,		CSTATE_ICE),		/* 0x8d */
	CSTATE_MODEL(KABYLAKE_L,	CSTATE_ULT),		/* 0x8e */
	CSTATE_MODEL(SAPPHIRERAPIDS_X,	CSTATE_ICE_SRV),	/* 0x8f */
	CSTATE_MODEL(ATOM_TREMONT,	CSTATE_GOLD),		/* 0x96 */
	CSTATE_MODEL(ALDERLAKE,		CSTATE_ALDER),		/* 0x97 */
	CSTATE_MODEL(ALDERLAKE_L,	CSTATE_ALDER),		/* 0x9a */
	CSTATE_MODEL(ATOM_TREMONT_L,	CSTATE_GOLD),		/* 0x9c */
	CSTATE_MODEL(KABYLAKE,		CSTATE_ULT),		/* 0x9e */
	CSTATE_MODEL(COMETLAKE,		CSTATE_ULT),		/* 0xa5 */
	CSTATE_MODEL(COMETLAKE_L,	CSTATE_ULT),		/* 0xa6 */
	CSTATE_MODEL(ROCKETLAKE,	CSTATE_ICE),		/* 0xa7 */
	CSTATE_MODEL(METEORLAKE_L,	CSTATE_ALDER),		/* 0xaa */
	CSTATE_MODEL(METEORLAKE,	CSTATE_ALDER),		/* 0xac */
	CSTATE_MODEL(RAPTORLAKE,	CSTATE_ALDER),		/* 0xb7 */
	CSTATE_MODEL(RAPTORLAKE_P,	CSTATE_ALDER),		/* 0xba */
	CSTATE_MODEL(ALDERLAKE_N,	CSTATE_ALDER),		/* 0xbe */
	CSTATE_MODEL(RAPTORLAKE_S,	CSTATE_ALDER),		/* 0xbf */
	CSTATE_MODEL(EMERALDRAPIDS_X,	CSTATE_ICE_SRV),	/* 0xcf */
	{}
};
MODULE_DEVICE_TABLE(x86cpu, cstate_models);

/*
 * Mark the counters of @cp that the model counts (BIT(@shift + state)
 * in @model) and the machine can read; make its events/ files.
 */
static void __init cstate_probe(struct cstate_pmu *cp,
				struct attribute **attrs,
				unsigned long model, unsigned int shift)
{
	unsigned int i;
	u64 val;

	for (i = 0; i < cp->nr; i++) {
		struct cstate_counter *c = &cp->counters[i];

		snprintf(c->name, sizeof(c->name), "c%u-residency", c->state);
		sysfs_attr_init(&c->attr.attr);
		c->attr.attr.name = c->name;
		c->attr.attr.mode = 0444;
		c->attr.show = cstate_event_show;
		attrs[i] = &c->attr.attr;
		c->present = model & BIT(shift + c->state) &&
			     !rdmsrl_safe(c->msr, &val);
	}
}

/* Unregister those in use of the first @n cstate PMUs. */
static void cstate_unregister(unsigned int n)
{
	while (n--) {
		if (cstate_pmu_used(&cstate_pmus[n]))
			perf_pmu_unregister(&cstate_pmus[n].pmu);
	}
}

static int __init cstate_pmu_init(void)
{
	struct cstate_pmu *core = &cstate_pmus[0], *pkg = &cstate_pmus[1];
	const struct attribute_group **groups;
	const struct x86_cpu_id *id;
	unsigned long model;
	unsigned int i;
	int ret;

	if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
		return -ENODEV;
	id = x86_match_cpu(cstate_models);
	if (!id)
		return -ENODEV;
	model = id->driver_data;
	if (model & CSTATE_CORE_C6_KNL)
		cstate_core_counters[2].msr = MSR_KNL_CORE_C6_RESIDENCY;
	if (model & CSTATE_PKG_C6_SLM)
		cstate_pkg_counters[2].msr = MSR_PKG_C7_RESIDENCY;
	cstate_probe(core, cstate_core_event_attrs, model, 0);
	cstate_probe(pkg, cstate_pkg_event_attrs, model, 16);
	if (!cstate_pmu_used(core) && !cstate_pmu_used(pkg))
		return -ENODEV;
	if (topology_max_die_per_package() > 1)
		pkg->name = "cstate_die";

	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_CSTATE_ONLINE,
				"perf/x86/cstate:online", cstate_cpu_online,
				cstate_cpu_offline);
	if (ret < 0)
		return ret;
	for (i = 0; i < ARRAY_SIZE(cstate_pmus); i++) {
		struct cstate_pmu *cp = &cstate_pmus[i];

		if (!cstate_pmu_used(cp))
			continue;
		groups = cp->pmu.attr_groups;
		cp->pmu = cstate_pmu_ops;
		cp->pmu.attr_groups = groups;
		ret = perf_pmu_register(&cp->pmu, cp->name, -1);
		if (ret) {
			pr_info("cannot register %s: %d\n", cp->name, ret);
			cstate_unregister(i);
			cpuhp_remove_state(CPUHP_AP_PERF_X86_CSTATE_ONLINE);
			return ret;
		}
	}
	return 0;
}
module_init(cstate_pmu_init);

static void __exit cstate_pmu_exit(void)
{
	cpuhp_remove_state_nocalls(CPUHP_AP_PERF_X86_CSTATE_ONLINE);
	cstate_unregister(ARRAY_SIZE(cstate_pmus));
}
module_exit(cstate_pmu_exit);

MODULE_DESCRIPTION("Intel's C-state residency counters as the cstate PMUs");
MODULE_LICENSE("GPL");
