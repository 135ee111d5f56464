// SPDX-License-Identifier: GPL-2.0
/*
 * The "power" PMU: the energy counters of RAPL (running average power
 * limit), offered as counting events of a dynamic type.
 *
 * A die's RAPL counts the energy some of its domains used since
 * power-up, each in a 32-bit energy-status MSR that wraps, in units of
 * 2^-ESU joules where ESU is bits 12:8 of the power-unit MSR (Intel SDM
 * vol. 3B, "RAPL Interfaces"; AMD's from family 17h: package only here,
 * announced by X86_FEATURE_RAPL).  attr.config picks the domain, with
 * the numbers user space knows from events/<name>:
 *
 *	1 energy-cores	PP0, the cores
 *	2 energy-pkg	the package
 *	3 energy-ram	DRAM
 *	4 energy-gpu	PP1, the graphics
 *	5 energy-psys	the platform
 *
 * Which domains a part has is a fact of its model (below); a domain is
 * offered if its MSR also reads without a fault and not zero.  Counts
 * are in 2^-32 J whatever the hardware's unit: events/<name>.scale turns
 * them into joules.  Some parts count a domain in a unit of their own
 * whatever the power-unit MSR says: the DRAM of the servers from
 * Haswell-EP and of Xeon Phi in 2^-16 J, Sapphire Rapids' platform in
 * joules.
 *
 * The counters are per die and never interrupt: events are CPU-wide
 * (no task events, no sampling, no exclude_* bit), and whatever CPU of
 * a die they are opened on, they count on the die's reader, the CPU
 * that cpumask lists for it.  When the reader goes off line another CPU
 * of the die takes over, and its events move there with their counts
 * (perf_pmu_migrate_context()).  While a die has events, an hrtimer on
 * its reader folds each counter into its events' counts well before the
 * counter can wrap.  Every CPU of the die reads the same counters, so a
 * read() there needs no IPI to the reader (PERF_EV_CAP_READ_ACTIVE_PKG):
 * the update then runs on two CPUs at once, and claims each step of the
 * counter with a cmpxchg of the value last read, an atomic one.
 */
#define pr_fmt(fmt) "RAPL PMU: " fmt

#include <linux/perf_event.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>

/* attr.config of each domain: user-visible, do not renumber. */
enum rapl_domain {
	RAPL_CORES = 1,
	RAPL_PKG,
	RAPL_RAM,
	RAPL_GPU,
	RAPL_PSYS,
	RAPL_NR,
};

#define RAPL_CONFIG_MASK	0xffULL
/* Counts are in 2^-RAPL_COUNT_UNIT J. */
#define RAPL_COUNT_UNIT		32

/**
 * struct rapl_counter - one domain's energy-status MSR
 * @msr: the MSR
 * @esu: its unit is 2^-@esu J
 * @present: whether this machine has it; set once at init
 * @label: the domain's name in the boot log
 * @name: its events/ file
 * @scale: its events/<name>.scale file
 * @unit: its events/<name>.unit file
 */
struct rapl_counter {
	u32			msr;
	u8			esu;
	bool			present;
	const char		*label;
	struct device_attribute	name;
	struct device_attribute	scale;
	struct device_attribute	unit;
};

/**
 * struct rapl_die - the RAPL of one die
 * @cpu: its reader, the CPU its events count on; -1 while none is on line
 * @lock: protects @active and the timer's state; taken with interrupts
 *	off, on the reader, by add/del and the timer
 * @active: the events active on the reader
 * @timer: folds the counters into @active's counts while there are any
 */
struct rapl_die {
	int			cpu;
	raw_spinlock_t		lock;
	struct list_head	active;
	struct hrtimer		timer;
};

static struct rapl_counter rapl_counters[RAPL_NR];
static struct rapl_die **rapl_dies;
static unsigned int rapl_nr_dies;
static ktime_t rapl_timer_period;
/* The readers, one per die with a CPU on line: the cpumask file. */
static cpumask_t rapl_readers;
static struct pmu rapl_pmu;

static struct rapl_die *rapl_die_of(int cpu)
{
	unsigned int id = topology_logical_die_id(cpu);

	return id < rapl_nr_dies ? rapl_dies[id] : NULL;
}

/* sysfs */

static ssize_t rapl_event_show(struct device *dev,
			       struct device_attribute *attr, char *page)
{
	struct rapl_counter *c = container_of(attr, struct rapl_counter, name);

	return sysfs_emit(page, "event=0x%02x\n", (int)(c - rapl_counters));
}

static ssize_t rapl_scale_show(struct device *dev,
			       struct device_attribute *attr, char *page)
{
	/* 2^-32 exactly, as perf parses it. */
	return sysfs_emit(page, "2.3283064365386962890625e-10\n");
}

static ssize_t rapl_unit_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "Joules\n");
}

#define RAPL_ATTR(_name, _show)						\
	{ .attr = { .name = _name, .mode = 0444 }, .show = _show }

static struct rapl_counter rapl_counters[RAPL_NR] = {
	[RAPL_CORES] = {
		.label	= "pp0-core",
		.name	= RAPL_ATTR("energy-cores", rapl_event_show),
		.scale	= RAPL_ATTR("energy-cores.scale", rapl_scale_show),
		.unit	= RAPL_ATTR("energy-cores.unit", rapl_unit_show),
	},
	[RAPL_PKG] = {
		.label	= "package",
		.name	= RAPL_ATTR("energy-pkg", rapl_event_show),
		.scale	= RAPL_ATTR("energy-pkg.scale", rapl_scale_show),
		.unit	= RAPL_ATTR("energy-pkg.unit", rapl_unit_show),
	},
	[RAPL_RAM] = {
		.label	= "dram",
		.name	= RAPL_ATTR("energy-ram", rapl_event_show),
		.scale	= RAPL_ATTR("energy-ram.scale", rapl_scale_show),
		.unit	= RAPL_ATTR("energy-ram.unit", rapl_unit_show),
	},
	[RAPL_GPU] = {
		.label	= "pp1-gpu",
		.name	= RAPL_ATTR("energy-gpu", rapl_event_show),
		.scale	= RAPL_ATTR("energy-gpu.scale", rapl_scale_show),
		.unit	= RAPL_ATTR("energy-gpu.unit", rapl_unit_show),
	},
	[RAPL_PSYS] = {
		.label	= "psys",
		.name	= RAPL_ATTR("energy-psys", rapl_event_show),
		.scale	= RAPL_ATTR("energy-psys.scale", rapl_scale_show),
		.unit	= RAPL_ATTR("energy-psys.unit", rapl_unit_show),
	},
};

/* Three files a domain, in the order of rapl_counters[]. */
static struct attribute *rapl_event_attrs[3 * (RAPL_NR - 1) + 1];

static umode_t rapl_event_visible(struct kobject *kobj, struct attribute *attr,
				  int i)
{
	return rapl_counters[i / 3 + 1].present ? attr->mode : 0;
}

static const struct attribute_group rapl_events_group = {
	.name		= "events",
	.attrs		= rapl_event_attrs,
	.is_visible	= rapl_event_visible,
};

static ssize_t event_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	return sysfs_emit(page, "config:0-7\n");
}
static DEVICE_ATTR_RO(event);

static struct attribute *rapl_format_attrs[] = {
	&dev_attr_event.attr,
	NULL,
};

static const struct attribute_group rapl_format_group = {
	.name	= "format",
	.attrs	= rapl_format_attrs,
};

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *page)
{
	return cpumap_print_to_pagebuf(true, page, &rapl_readers);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *rapl_pmu_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

static const struct attribute_group rapl_pmu_group = {
	.attrs	= rapl_pmu_attrs,
};

static const struct attribute_group *rapl_attr_groups[] = {
	&rapl_pmu_group,
	&rapl_events_group,
	&rapl_format_group,
	NULL,
};

/* Counting */

static u64 rapl_counter_read(struct rapl_counter *c)
{
	u64 val;

	rdmsrl(c->msr, val);
	return val;
}

static u64 rapl_event_counter(struct perf_event *event)
{
	return rapl_counter_read(&rapl_counters[event->hw.idx]);
}

/*
 * Add what the counter moved on since the last update to the count, in
 * 2^-32 J.  On the reader, with interrupts off, or on another CPU of the
 * die from its read: perf_event_claim_step() adds no step twice.
 */
static void rapl_event_update(struct perf_event *event)
{
	struct rapl_counter *c = &rapl_counters[event->hw.idx];
	/* The counter is 32 bits wide: keep the low ones of the step. */
	u64 delta = (u32)perf_event_claim_step(event, rapl_event_counter);

	atomic64_add(delta << (RAPL_COUNT_UNIT - c->esu),
		     &event->count_shared);
}

static enum hrtimer_restart rapl_timer_fn(struct hrtimer *timer)
{
	struct rapl_die *die = container_of(timer, struct rapl_die, timer);
	struct perf_event *event;
	unsigned long flags;

	raw_spin_lock_irqsave(&die->lock, flags);
	if (list_empty(&die->active)) {
		raw_spin_unlock_irqrestore(&die->lock, flags);
		return HRTIMER_NORESTART;
	}
	list_for_each_entry(event, &die->active, active_entry)
		rapl_event_update(event);
	raw_spin_unlock_irqrestore(&die->lock, flags);

	hrtimer_forward_now(timer, rapl_timer_period);
	return HRTIMER_RESTART;
}

static void rapl_event_start(struct perf_event *event, int flags)
{
	struct rapl_die *die = event->pmu_private;
	unsigned long irqflags;

	if (!(event->hw.state & PERF_HES_STOPPED))
		return;
	atomic64_set(&event->hw.prev_shared,
		     rapl_counter_read(&rapl_counters[event->hw.idx]));
	event->hw.state = 0;

	raw_spin_lock_irqsave(&die->lock, irqflags);
	if (list_empty(&die->active))
		hrtimer_start(&die->timer, rapl_timer_period,
			      HRTIMER_MODE_REL_PINNED_HARD);
	list_add_tail(&event->active_entry, &die->active);
	raw_spin_unlock_irqrestore(&die->lock, irqflags);
}

static void rapl_event_stop(struct perf_event *event, int flags)
{
	struct rapl_die *die = event->pmu_private;
	unsigned long irqflags;

	if (event->hw.state & PERF_HES_STOPPED)
		return;

	raw_spin_lock_irqsave(&die->lock, irqflags);
	list_del(&event->active_entry);
	/* The last one: the timer finds the list empty if it runs now. */
	if (list_empty(&die->active))
		hrtimer_try_to_cancel(&die->timer);
	raw_spin_unlock_irqrestore(&die->lock, irqflags);

	rapl_event_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int rapl_event_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		rapl_event_start(event, flags);
	return 0;
}

static void rapl_event_del(struct perf_event *event, int flags)
{
	rapl_event_stop(event, PERF_EF_UPDATE);
}

static void rapl_event_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		rapl_event_update(event);
}

static int rapl_event_init(struct perf_event *event)
{
	u64 config = event->attr.config;
	struct rapl_die *die;
	int reader;

	if (event->attr.type != rapl_pmu.type)
		return -ENOENT;
	if (config & ~RAPL_CONFIG_MASK)
		return -EINVAL;
	if (event->cpu < 0)
		return -EINVAL;
	if (config < RAPL_CORES || config >= RAPL_NR)
		return -EINVAL;
	config = array_index_nospec(config, RAPL_NR);
	if (!rapl_counters[config].present)
		return -EINVAL;
	/* The counters never interrupt: nothing to sample with. */
	if (is_sampling_event(event))
		return -EINVAL;

	die = rapl_die_of(event->cpu);
	if (!die)
		return -EINVAL;
	/*
	 * Whichever CPU of the die it was opened on, the reader counts it.
	 * Hotplug may change the reader meanwhile: read it once.
	 */
	reader = READ_ONCE(die->cpu);
	if (reader < 0)
		return -EINVAL;
	event->cpu = reader;
	event->pmu_private = die;
	event->hw.idx = config;
	event->event_caps |= PERF_EV_CAP_READ_ACTIVE_PKG;
	return 0;
}

static struct pmu rapl_pmu = {
	.module		= THIS_MODULE,
	.attr_groups	= rapl_attr_groups,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE,
	.event_init	= rapl_event_init,
	.add		= rapl_event_add,
	.del		= rapl_event_del,
	.start		= rapl_event_start,
	.stop		= rapl_event_stop,
	.read		= rapl_event_read,
};

/* CPU hotplug: each die with a CPU on line has a reader. */

static int rapl_cpu_online(unsigned int cpu)
{
	struct rapl_die *die = rapl_die_of(cpu);

	if (!die)
		return 0;
	if (die->cpu < 0) {
		WRITE_ONCE(die->cpu, cpu);
		cpumask_set_cpu(cpu, &rapl_readers);
	}
	return 0;
}

static int rapl_cpu_offline(unsigned int cpu)
{
	struct rapl_die *die = rapl_die_of(cpu);
	unsigned int next;

	if (!die || die->cpu != cpu)
		return 0;
	cpumask_clear_cpu(cpu, &rapl_readers);
	next = cpumask_any_but(topology_die_cpumask(cpu), cpu);
	WRITE_ONCE(die->cpu, next < nr_cpu_ids ? (int)next : -1);
	if (die->cpu >= 0) {
		cpumask_set_cpu(next, &rapl_readers);
		perf_pmu_migrate_context(&rapl_pmu, cpu, next);
	}
	return 0;
}

/* What the machine has */

/**
 * struct rapl_part - the RAPL of a kind of part
 * @domains: the domains it has, a mask of BIT(enum rapl_domain)
 * @ram_esu: the unit of its DRAM domain, if not the power-unit MSR's
 * @psys_esu: the unit of its platform domain, if not the MSR's
 * @amd: AMD's MSRs
 */
struct rapl_part {
	u8	domains;
	s8	ram_esu;
	s8	psys_esu;
	bool	amd;
};

#define RAPL_MSR_ESU	-1

#define RAPL_CLIENT	(BIT(RAPL_CORES) | BIT(RAPL_PKG) | BIT(RAPL_GPU))
#define RAPL_SERVER	(BIT(RAPL_CORES) | BIT(RAPL_PKG) | BIT(RAPL_RAM))

/* The kinds of part, by the domains they have and their units. */
enum rapl_kind {
	RAPL_SNB,	/* Sandy and Ivy Bridge clients */
	RAPL_SNB_EP,	/* their servers */
	RAPL_HSW,	/* Haswell and Broadwell clients, Goldmont */
	RAPL_HSW_EP,	/* the servers from Haswell-EP to Ice Lake-SP */
	RAPL_PHI,	/* Xeon Phi */
	RAPL_SKL,	/* the clients from Skylake on */
	RAPL_SPR,	/* Sapphire and Emerald Rapids */
	RAPL_AMD,	/* AMD's from family 17h, Hygon's */
};

static const struct rapl_part rapl_kinds[] __initconst = {
	[RAPL_SNB]	= { RAPL_CLIENT, RAPL_MSR_ESU, RAPL_MSR_ESU },
	[RAPL_SNB_EP]	= { RAPL_SERVER, RAPL_MSR_ESU, RAPL_MSR_ESU },
	[RAPL_HSW]	= { RAPL_CLIENT | BIT(RAPL_RAM), RAPL_MSR_ESU,
			    RAPL_MSR_ESU },
	[RAPL_HSW_EP]	= { RAPL_SERVER, 16, RAPL_MSR_ESU },
	[RAPL_PHI]	= { BIT(RAPL_PKG) | BIT(RAPL_RAM), 16, RAPL_MSR_ESU },
	[RAPL_SKL]	= { RAPL_CLIENT | BIT(RAPL_RAM) | BIT(RAPL_PSYS),
			    RAPL_MSR_ESU, RAPL_MSR_ESU },
	[RAPL_SPR]	= { RAPL_SERVER | BIT(RAPL_PSYS), RAPL_MSR_ESU, 0 },
	[RAPL_AMD]	= { BIT(RAPL_PKG), RAPL_MSR_ESU, RAPL_MSR_ESU, true },
};

/*
 * The models with RAPL and their kind (Intel SDM vol. 4, the MSRs of
 * each model), and AMD's and Hygon's parts that announce it; the table
 * also loads the module where it is one.
 */
#define RAPL_MODEL(m, kind)	X86_MATCH_INTEL_FAM6_MODEL(m, kind)

static const struct x86_cpu_id rapl_models[] __initconst = {
	RAPL_MODEL(SANDYBRIDGE,		RAPL_SNB),	/* 0x2a */
	RAPL_MODEL(SANDYBRIDGE_X,	RAPL_SNB_EP),	/* 0x2d */
	RAPL_MODEL(IVYBRIDGE,		RAPL_SNB),	/* 0x3a */
	RAPL_MODEL(HASWELL,		RAPL_HSW),	/* 0x3c */
	RAPL_MODEL(BROADWELL,		RAPL_HSW),	/* 0x3d */
	RAPL_MODEL(IVYBRIDGE_X,		RAPL_SNB_EP),	/* 0x3e */
	RAPL_MODEL(HASWELL_X,		RAPL_HSW_EP),	/* 0x3f */
	RAPL_MODEL(HASWELL_L,		RAPL_HSW),	/* 0x45 */
	RAPL_MODEL(HASWELL_G,		RAPL_HSW),	/* 0x46 */
	RAPL_MODEL(BROADWELL_G,		RAPL_HSW),	/* 0x47 */
	RAPL_MODEL(SKYLAKE_L,		RAPL_SKL),	/* 0x4e */
	RAPL_MODEL(BROADWELL_X,		RAPL_HSW_EP),	/* 0x4f */
	RAPL_MODEL(SKYLAKE_X,		RAPL_HSW_EP),	/* 0x55 */
	RAPL_MODEL(BROADWELL_D,		RAPL_HSW_EP),	/* 0x56 */
	RAPL_MODEL(XEON_PHI_KNL,	RAPL_PHI),	/* 0x57 */
	RAPL_MODEL(ATOM_GOLDMONT,	RAPL_HSW),	/* 0x5c */
	RAPL_MODEL(SKYLAKE,		RAPL_SKL),	/* 0x5e */
	RAPL_MODEL(ATOM_GOLDMONT_D,	RAPL_HSW),	/* 0x5f */
	RAPL_MODEL(CANNONLAKE_L,	RAPL_SKL),	/* 0x66 */
	RAPL_MODEL(ICELAKE_X,		RAPL_HSW_EP),	/* 0x6a */
	RAPL_MODEL(ICELAKE_D,		RAPL_HSW_EP),	/* 0x6c */
	RAPL_MODEL(ATOM_GOLDMONT_PLUS,	RAPL_HSW),	/* 0x7a */
	RAPL_MODEL(ICELAKE,		RAPL_SKL),	/* 0x7d */
	RAPL_MODEL(ICELAKE_L,		RAPL_SKL),	/* 0x7e */
	RAPL_MODEL(XEON_PHI_KNM,	RAPL_PHI),	/* 0x85 */
	RAPL_MODEL(TIGERLAKE_L,		RAPL_SKL),	/* 0x8c */
	RAPL_MODEL(TIGERLAKE,		RAPL_SKL),	/* 0x8d */
	RAPL_MODEL(KABYLAKE_L,		RAPL_SKL),	/* 0x8e */
	RAPL_MODEL(SAPPHIRERAPIDS_X,	RAPL_SPR),	/* 0x8f */
	RAPL_MODEL(ALDERLAKE,		RAPL_SKL),	/* 0x97 */
	RAPL_MODEL(ALDERLAKE_L,		RAPL_SKL),	/* 0x9a */
	RAPL_MODEL(KABYLAKE,		RAPL_SKL),	/* 0x9e */
	RAPL_MODEL(COMETLAKE,		RAPL_SKL),	/* 0xa5 */
	RAPL_MODEL(COMETLAKE_L,		RAPL_SKL),	/* 0xa6 */
	RAPL_MODEL(METEORLAKE_L,	RAPL_SKL),	/* 0xaa */
	RAPL_MODEL(METEORLAKE,		RAPL_SKL),	/* 0xac */
	RAPL_MODEL(RAPTORLAKE,		RAPL_SKL),	/* 0xb7 */
	RAPL_MODEL(RAPTORLAKE_P,	RAPL_SKL),	/* 0xba */
	RAPL_MODEL(ALDERLAKE_N,		RAPL_SKL),	/* 0xbe */
	RAPL_MODEL(RAPTORLAKE_S,	RAPL_SKL),	/* 0xbf */
	RAPL_MODEL(EMERALDRAPIDS_X,	RAPL_SPR),	/* 0xcf */
	X86_MATCH_VENDOR_FEATURE(AMD, X86_FEATURE_RAPL, RAPL_AMD),
	X86_MATCH_VENDOR_FEATURE(HYGON, X86_FEATURE_RAPL, RAPL_AMD),
	{}
};
MODULE_DEVICE_TABLE(x86cpu, rapl_models);

static bool __init rapl_part(struct rapl_part *p)
{
	const struct x86_cpu_id *id = x86_match_cpu(rapl_models);

	if (!id)
		return false;
	*p = rapl_kinds[id->driver_data];
	return true;
}

static const u32 rapl_intel_msrs[RAPL_NR] = {
	[RAPL_CORES]	= MSR_PP0_ENERGY_STATUS,
	[RAPL_PKG]	= MSR_PKG_ENERGY_STATUS,
	[RAPL_RAM]	= MSR_DRAM_ENERGY_STATUS,
	[RAPL_GPU]	= MSR_PP1_ENERGY_STATUS,
	[RAPL_PSYS]	= MSR_PLATFORM_ENERGY_STATUS,
};

/* Find the domains the part has and can read; their number. */
static int __init rapl_probe(const struct rapl_part *p, unsigned int esu)
{
	int id, nr = 0;
	u64 val;

	for (id = RAPL_CORES; id < RAPL_NR; id++) {
		struct rapl_counter *c = &rapl_counters[id];

		if (!(p->domains & BIT(id)))
			continue;
		c->msr = p->amd ? MSR_AMD_PKG_ENERGY_STATUS :
				  rapl_intel_msrs[id];
		c->esu = esu;
		if (id == RAPL_RAM && p->ram_esu != RAPL_MSR_ESU)
			c->esu = p->ram_esu;
		if (id == RAPL_PSYS && p->psys_esu != RAPL_MSR_ESU)
			c->esu = p->psys_esu;
		/* A domain the firmware left off reads zero. */
		c->present = !rdmsrl_safe(c->msr, &val) && (u32)val;
		nr += c->present;
	}
	return nr;
}

static void rapl_free_dies(void)
{
	unsigned int i;

	for (i = 0; i < rapl_nr_dies; i++)
		kfree(rapl_dies[i]);
	kfree(rapl_dies);
	rapl_dies = NULL;
}

static int __init rapl_alloc_dies(void)
{
	unsigned int i;

	rapl_nr_dies = topology_max_packages() * topology_max_die_per_package();
	rapl_dies = kcalloc(rapl_nr_dies, sizeof(*rapl_dies), GFP_KERNEL);
	if (!rapl_dies)
		return -ENOMEM;
	for (i = 0; i < rapl_nr_dies; i++) {
		struct rapl_die *die = kzalloc(sizeof(*die), GFP_KERNEL);

		if (!die) {
			rapl_free_dies();
			return -ENOMEM;
		}
		die->cpu = -1;
		raw_spin_lock_init(&die->lock);
		INIT_LIST_HEAD(&die->active);
		hrtimer_init(&die->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		die->timer.function = rapl_timer_fn;
		rapl_dies[i] = die;
	}
	return 0;
}

/*
 * The timer: half the time the counters take to wrap at 200 W, in the
 * package's unit (2^(32 - ESU) J a wrap).
 */
static unsigned int __init rapl_timer_ms(unsigned int esu)
{
	return 5 * (1U << (RAPL_COUNT_UNIT - esu - 1));
}

static int __init rapl_pmu_init(void)
{
	struct rapl_part part;
	unsigned int esu, ms;
	int i, nr, ret;
	u64 units;

	if (!rapl_part(&part))
		return -ENODEV;
	if (rdmsrl_safe(part.amd ? MSR_AMD_RAPL_POWER_UNIT :
				   MSR_RAPL_POWER_UNIT, &units))
		return -ENODEV;
	esu = (units >> 8) & 0x1f;
	nr = rapl_probe(&part, esu);
	if (!nr)
		return -ENODEV;
	for (i = 0; i < 3 * (RAPL_NR - 1); i++) {
		struct rapl_counter *c = &rapl_counters[i / 3 + 1];
		struct device_attribute *a[] = { &c->name, &c->scale, &c->unit };

		rapl_event_attrs[i] = &a[i % 3]->attr;
	}
	ms = rapl_timer_ms(esu);
	rapl_timer_period = ms_to_ktime(ms);

	ret = rapl_alloc_dies();
	if (ret)
		return ret;
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_RAPL_ONLINE,
				"perf/x86/rapl:online", rapl_cpu_online,
				rapl_cpu_offline);
	if (ret)
		goto free;
	ret = perf_pmu_register(&rapl_pmu, "power", -1);
	if (ret)
		goto hotplug;

	pr_info("API unit is 2^-%d Joules, %d fixed counters, %u ms ovfl timer\n",
		RAPL_COUNT_UNIT, nr, ms);
	for (i = RAPL_CORES; i < RAPL_NR; i++) {
		if (rapl_counters[i].present)
			pr_info("hw unit of domain %s 2^-%d Joules\n",
				rapl_counters[i].label,
				rapl_counters[i].esu);
	}
	return 0;

hotplug:
	cpuhp_remove_state(CPUHP_AP_PERF_X86_RAPL_ONLINE);
free:
	rapl_free_dies();
	return ret;
}
module_init(rapl_pmu_init);

static void __exit rapl_pmu_exit(void)
{
	cpuhp_remove_state_nocalls(CPUHP_AP_PERF_X86_RAPL_ONLINE);
	perf_pmu_unregister(&rapl_pmu);
	rapl_free_dies();
}
module_exit(rapl_pmu_exit);

MODULE_DESCRIPTION("RAPL energy counters as the power PMU");
MODULE_LICENSE("GPL");
