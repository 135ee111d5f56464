// SPDX-License-Identifier: GPL-2.0
/*
 * Intel architectural performance monitoring (Intel SDM vol. 3B, "Performance
 * Monitoring", and CPUID leaf 0xA).
 *
 * What the CPU has comes from CPUID 0xA: the version, the general
 * counters (IA32_PERFEVTSELx / IA32_PMCx) and their width, the
 * architectural events it lacks (EBX), the fixed counters and their
 * width (EDX; from version 5 also the bitmap in ECX).  Version 2 adds
 * IA32_PERF_GLOBAL_CTRL, _STATUS and _OVF_CTRL, through which all
 * counters start, stop and report overflows at once; version 1 has none
 * of them and is driven counter by counter.  When IA32_PERF_CAPABILITIES
 * says so, counters are written full width through IA32_A_PMCx; legacy
 * writes set only 32 bits (sign-extended), which limits the period.
 *
 * What a model adds (its name, generic and cache events, counter
 * constraints, sysfs files) is data, a struct intel_model (model.h),
 * matched by family and model in intel_models[]; a model without one
 * runs as the generic architectural PMU, with the architectural events
 * only.
 *
 * A hybrid (Alder Lake, Raptor Lake) has big
 * cores and Atom cores, each with its own model table and counters: a
 * CPU type each (cpu_type.c), cpu_core and cpu_atom.  CPUID 0xA says
 * what all cores have; the big cores have more (struct intel_model's
 * more_gp and more_fixed).  CPUID 0x1A says which kind a CPU is.
 */
#include <linux/cpu.h>
#include <linux/cpufeature.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/perf_event.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>

#include "pebs.h"

/* IA32_PERF_CAPABILITIES: counters may be written full width. */
#define INTEL_CAP_FULL_WIDTH	BIT_ULL(13)

/* The fields of a fixed counter in IA32_FIXED_CTR_CTRL. */
#define INTEL_FIXED_OS		BIT_ULL(0)
#define INTEL_FIXED_USR		BIT_ULL(1)
#define INTEL_FIXED_ANY		BIT_ULL(2)
#define INTEL_FIXED_PMI		BIT_ULL(3)
#define INTEL_FIXED_FIELD(n)	(0xfULL << (4 * (n)))

/* What a fixed counter may not be given: any qualifier of the event. */
#define INTEL_FIXED_REFUSES	(ARCH_PERFMON_EVENTSEL_EDGE |		\
				 ARCH_PERFMON_EVENTSEL_PIN_CONTROL |	\
				 ARCH_PERFMON_EVENTSEL_INV |		\
				 ARCH_PERFMON_EVENTSEL_CMASK)

/* The reference-cycles fixed counter has no general-counter event. */
#define INTEL_REF_CYCLES	0x0300

/* The topdown slots, fixed counter 3's pseudo-event (topdown.c). */
#define INTEL_SLOTS		0x0400

/* The event each fixed counter counts, by number. */
static const u64 intel_fixed_events[] = {
	0x00c0, 0x003c, INTEL_REF_CYCLES, INTEL_SLOTS,
};

/* The architectural events, by their bit in CPUID 0xA EBX. */
static const struct intel_event_code intel_arch_events[] = {
	{ PERF_COUNT_HW_CPU_CYCLES,		0x003c },
	{ PERF_COUNT_HW_INSTRUCTIONS,		0x00c0 },
	{ PERF_COUNT_HW_BUS_CYCLES,		0x013c },
	{ PERF_COUNT_HW_CACHE_REFERENCES,	0x4f2e },
	{ PERF_COUNT_HW_CACHE_MISSES,		0x412e },
	{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS,	0x00c4 },
	{ PERF_COUNT_HW_BRANCH_MISSES,		0x00c5 },
};

/*
 * The models with a table, by family and model: the models Linux 6.1
 * gives each family of tables (other models run as the generic
 * architectural PMU, as there).
 */
#define MODEL(m, table)	X86_MATCH_INTEL_FAM6_MODEL(m, &intel_##table)
static const struct x86_cpu_id intel_models[] __initconst = {
	MODEL(CORE_YONAH,		core),
	MODEL(CORE2_MEROM,		core2),
	MODEL(CORE2_MEROM_L,		core2),
	MODEL(CORE2_PENRYN,		core2),
	MODEL(CORE2_DUNNINGTON,		core2),
	MODEL(NEHALEM,			nehalem),
	MODEL(NEHALEM_EP,		nehalem),
	MODEL(NEHALEM_EX,		nehalem),
	MODEL(WESTMERE,			westmere),
	MODEL(WESTMERE_EP,		westmere),
	MODEL(WESTMERE_EX,		westmere),
	MODEL(SANDYBRIDGE,		sandybridge),
	MODEL(SANDYBRIDGE_X,		sandybridge),
	MODEL(IVYBRIDGE,		ivybridge),
	MODEL(IVYBRIDGE_X,		ivybridge),
	MODEL(HASWELL,			haswell),
	MODEL(HASWELL_X,		haswell),
	MODEL(HASWELL_L,		haswell),
	MODEL(HASWELL_G,		haswell),
	MODEL(BROADWELL,		broadwell),
	MODEL(BROADWELL_D,		broadwell),
	MODEL(BROADWELL_G,		broadwell),
	MODEL(BROADWELL_X,		broadwell),
	MODEL(SKYLAKE_L,		skylake),
	MODEL(SKYLAKE,			skylake),
	MODEL(SKYLAKE_X,		skylake),
	MODEL(KABYLAKE_L,		skylake),
	MODEL(KABYLAKE,			skylake),
	MODEL(COMETLAKE_L,		skylake),
	MODEL(COMETLAKE,		skylake),
	MODEL(ICELAKE_X,		icelake),
	MODEL(ICELAKE_D,		icelake),
	MODEL(ICELAKE_L,		icelake),
	MODEL(ICELAKE,			icelake),
	MODEL(TIGERLAKE_L,		icelake),
	MODEL(TIGERLAKE,		icelake),
	MODEL(ROCKETLAKE,		icelake),
	MODEL(SAPPHIRERAPIDS_X,		sapphirerapids),
	MODEL(EMERALDRAPIDS_X,		sapphirerapids),
	MODEL(XEON_PHI_KNL,		knl),
	MODEL(XEON_PHI_KNM,		knl),
	MODEL(ATOM_BONNELL,		bonnell),
	MODEL(ATOM_BONNELL_MID,		bonnell),
	MODEL(ATOM_SALTWELL,		bonnell),
	MODEL(ATOM_SALTWELL_MID,	bonnell),
	MODEL(ATOM_SALTWELL_TABLET,	bonnell),
	MODEL(ATOM_SILVERMONT,		silvermont),
	MODEL(ATOM_SILVERMONT_D,	silvermont),
	MODEL(ATOM_SILVERMONT_MID,	silvermont),
	MODEL(ATOM_AIRMONT,		silvermont),
	MODEL(ATOM_AIRMONT_MID,		silvermont),
	MODEL(ATOM_GOLDMONT,		goldmont),
	MODEL(ATOM_GOLDMONT_D,		goldmont),
	MODEL(ATOM_GOLDMONT_PLUS,	goldmont_plus),
	MODEL(ATOM_TREMONT_D,		tremont),
	MODEL(ATOM_TREMONT,		tremont),
	MODEL(ATOM_TREMONT_L,		tremont),
	MODEL(ALDERLAKE_N,		gracemont),
	MODEL(ALDERLAKE,		alderlake),
	MODEL(ALDERLAKE_L,		alderlake),
	MODEL(RAPTORLAKE,		alderlake),
	MODEL(RAPTORLAKE_P,		alderlake),
	MODEL(RAPTORLAKE_S,		alderlake),
	{}
};

#undef MODEL

/* This CPU's IA32_FIXED_CTR_CTRL, so it is never read back. */
static DEFINE_PER_CPU(u64, intel_fixed_ctrl);

/*
 * The overflow NMI may stop a fixed counter (a throttle) in the middle
 * of a change made with interrupts off: the copy changes in one step,
 * and the register is written again until it holds what the copy does.
 */
static void intel_fixed_ctrl_write(u64 field, u64 bits)
{
	u64 old, ctrl;

	do {
		old = this_cpu_read(intel_fixed_ctrl);
		ctrl = (old & ~field) | bits;
	} while (this_cpu_cmpxchg(intel_fixed_ctrl, old, ctrl) != old);
	x86_wrmsr_copy(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, &intel_fixed_ctrl);
}

/**
 * struct intel_guest_cpu - one CPU's counters as host and guest see them
 * @excl_host: counters whose events exclude the host (attr.exclude_host:
 *	KVM's counters for its guests): off in IA32_PERF_GLOBAL_CTRL while
 *	the host runs
 * @excl_guest: counters whose events exclude guests: off while one runs
 * @msrs: what perf_guest_get_msrs() returns
 *
 * KVM switches IA32_PERF_GLOBAL_CTRL at VM entry and exit.  Changed on
 * its CPU with interrupts off, as the counters are programmed.
 */
struct intel_guest_cpu {
	u64				excl_host;
	u64				excl_guest;
	struct perf_guest_switch_msr	msrs[2];
};

static DEFINE_PER_CPU(struct intel_guest_cpu, intel_guest_cpu);

static void intel_guest_note(struct perf_event *event, bool on)
{
	struct intel_guest_cpu *g = this_cpu_ptr(&intel_guest_cpu);
	u64 bit = BIT_ULL(event->hw.idx);

	g->excl_host &= ~bit;
	g->excl_guest &= ~bit;
	if (on && event->attr.exclude_host)
		g->excl_host |= bit;
	if (on && event->attr.exclude_guest)
		g->excl_guest |= bit;
}

static struct perf_guest_switch_msr *intel_guest_msrs(int *nr, void *data)
{
	struct intel_guest_cpu *g = this_cpu_ptr(&intel_guest_cpu);
	u64 running = intel_global_bits(this_cpu_ptr(&x86_pmu_cpu)->running);

	g->msrs[0].msr = MSR_CORE_PERF_GLOBAL_CTRL;
	g->msrs[0].host = running & ~g->excl_host;
	g->msrs[0].guest = running & ~g->excl_guest;
	*nr = 1;
	if (intel_pebs_hw.model)
		intel_pebs_guest_msr(&g->msrs[(*nr)++]);
	return g->msrs;
}

/* Load the extra register an event has, as its counter starts. */
static void intel_extra_write(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	wrmsrl(x86_event_type(event)->extra[hwc->extra_idx].msr,
	       hwc->extra_config);
}

static void intel_enable(struct perf_event *event)
{
	u64 config = event->hw.config, bits = INTEL_FIXED_PMI, field;
	int n = event->hw.idx - X86_PMC_FIXED;

	/* A metric has no control but the global one. */
	if (event->hw.idx >= X86_PMC_METRIC)
		return;
	intel_guest_note(event, true);
	/* A precise counter's PMI is the buffer's, not its own. */
	if (event->hw.x86_flags & X86_EVENT_PRECISE) {
		intel_pebs_enable(event);
		config &= ~ARCH_PERFMON_EVENTSEL_INT;
		bits = 0;
		if (intel_pebs_hw.adaptive) {
			config |= INTEL_EVTSEL_ADAPTIVE;
			bits |= INTEL_FIXED_ADAPTIVE;
		}
	}
	if (n < 0) {
		/*
		 * Without a global control, a counter that excludes the host
		 * cannot be left to the guest: it does not count at all.
		 */
		if (!event->attr.exclude_host || x86_pmu.version >= 2)
			config |= ARCH_PERFMON_EVENTSEL_ENABLE;
		if (event->hw.extra_regs)
			intel_extra_write(event);
		wrmsrl(x86_evtsel_msr(event->hw.idx), config);
		return;
	}
	if (config & ARCH_PERFMON_EVENTSEL_OS)
		bits |= INTEL_FIXED_OS;
	if (config & ARCH_PERFMON_EVENTSEL_USR)
		bits |= INTEL_FIXED_USR;
	if (config & ARCH_PERFMON_EVENTSEL_ANY)
		bits |= INTEL_FIXED_ANY;
	field = INTEL_FIXED_FIELD(n);
	if (intel_pebs_hw.adaptive)
		field |= INTEL_FIXED_ADAPTIVE << (4 * n);
	intel_fixed_ctrl_write(field, bits << (4 * n));
}

static void intel_disable(struct perf_event *event)
{
	int n = event->hw.idx - X86_PMC_FIXED;

	if (event->hw.idx >= X86_PMC_METRIC)
		return;
	intel_guest_note(event, false);
	if (n < 0)
		wrmsrl(x86_evtsel_msr(event->hw.idx), event->hw.config);
	else if (intel_pebs_hw.adaptive)
		intel_fixed_ctrl_write(INTEL_FIXED_FIELD(n) |
				       INTEL_FIXED_ADAPTIVE << (4 * n), 0);
	else
		intel_fixed_ctrl_write(INTEL_FIXED_FIELD(n), 0);
	if (event->hw.x86_flags & X86_EVENT_PRECISE)
		intel_pebs_disable(event);
}

static void intel_enable_all(u64 running)
{
	if (this_cpu_read(x86_pmu_cpu.branch_users))
		intel_lbr_enable();
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, intel_global_bits(running) &
	       ~this_cpu_read(intel_guest_cpu.excl_host));
}

static void intel_disable_all(u64 running)
{
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	if (this_cpu_read(x86_pmu_cpu.branch_users))
		intel_lbr_disable();
}

/* The IA32_PERF_GLOBAL_STATUS bits of a CPU type's counters. */
static u64 intel_status_bits(const struct x86_cpu_type *type)
{
	return intel_global_bits(x86_type_counters(type) | type->metrics) |
	       INTEL_STATUS_LBR_FRZ | INTEL_STATUS_OVF_BUF |
	       INTEL_STATUS_COND_CHGD;
}

static u64 intel_status(u64 running)
{
	u64 status;

	rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, status);
	return status & intel_status_bits(x86_this_cpu_type());
}

static void intel_ack(u64 status)
{
	wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, status);
}

static bool intel_freeze_on_smi = true;
static DEFINE_MUTEX(intel_freeze_mutex);

static void intel_set_freeze_on_smi(void *unused)
{
	u64 debugctl;

	rdmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
	if (READ_ONCE(intel_freeze_on_smi))
		debugctl |= DEBUGCTLMSR_FREEZE_IN_SMM;
	else
		debugctl &= ~DEBUGCTLMSR_FREEZE_IN_SMM;
	wrmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
}

static void intel_reset(void)
{
	const struct x86_cpu_type *type = x86_this_cpu_type();
	unsigned long gp = type->gp, fixed = type->fixed >> X86_PMC_FIXED;
	int idx;

	if (x86_pmu.version >= 2)
		wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	for_each_set_bit(idx, &gp, X86_PMC_FIXED) {
		wrmsrl(x86_evtsel_msr(idx), 0);
		wrmsrl(x86_ctr_msr(idx), 0);
	}
	if (fixed) {
		this_cpu_write(intel_fixed_ctrl, 0);
		wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, 0);
		for_each_set_bit(idx, &fixed, INTEL_PMC_MAX_FIXED)
			wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + idx, 0);
	}
	if (x86_pmu.version >= 2) {
		wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, intel_status_bits(type));
		intel_set_freeze_on_smi(NULL);
		intel_topdown_reset(type);
	}
	intel_lbr_reset_cpu();
	intel_pebs_reset_cpu();
}

static u32 intel_rdpmc_index(int idx)
{
	if (idx >= X86_PMC_METRIC)
		return INTEL_PMC_FIXED_RDPMC_METRICS;
	if (idx >= X86_PMC_FIXED)
		return INTEL_PMC_FIXED_RDPMC_BASE | (idx - X86_PMC_FIXED);
	return idx;
}

/* Whether @config names the event of constraint @c. */
bool intel_constraint_match(const struct intel_constraint *c, u64 config)
{
	u8 event = config & ARCH_PERFMON_EVENTSEL_EVENT;

	if (c->last)
		return event >= (c->code & ARCH_PERFMON_EVENTSEL_EVENT) &&
		       event <= c->last;
	return (config & c->match) == c->code;
}

/*
 * The counters the model lets an event with this config use: those of
 * its first constraint that matches, or every general counter.
 */
static u64 intel_model_counters(const struct x86_cpu_type *type, u64 config)
{
	const struct intel_model *model = type->model;
	const struct intel_constraint *c;
	unsigned int i;

	if (!model)
		return type->gp;
	for (i = 0; i < model->n_constraints; i++) {
		c = &model->constraints[i];
		if (intel_constraint_match(c, config))
			return c->counters & x86_type_counters(type);
	}
	return type->gp;
}

static u64 intel_counters_for(const struct x86_cpu_type *type, u64 config)
{
	u64 code = config & (ARCH_PERFMON_EVENTSEL_EVENT |
			     ARCH_PERFMON_EVENTSEL_UMASK);
	u64 counters;
	int n;

	if (intel_is_metric(type, config))
		return intel_metric_counter(config);
	counters = intel_model_counters(type, config);
	for (n = 0; n < ARRAY_SIZE(intel_fixed_events); n++) {
		if (code != intel_fixed_events[n] ||
		    !(type->fixed & BIT_ULL(X86_PMC_FIXED + n)))
			continue;
		counters |= BIT_ULL(X86_PMC_FIXED + n);
	}
	/* A fixed counter takes no qualifier. */
	if (config & INTEL_FIXED_REFUSES)
		counters &= ~type->fixed;
	/* Reference cycles are the fixed counter's alone. */
	else if (code == INTEL_REF_CYCLES)
		counters &= ~type->gp;
	return counters;
}

/*
 * The place in struct x86_cpu_type's @extra of each extra MSR: the two
 * offcore response registers first, which an event may swap.
 */
static int intel_extra_place(u32 msr)
{
	switch (msr) {
	case MSR_OFFCORE_RSP_0:
		return 0;
	case MSR_OFFCORE_RSP_1:
		return 1;
	case MSR_PEBS_LD_LAT_THRESHOLD:
		return 2;
	default:
		return 3;	/* MSR_PEBS_FRONTEND */
	}
}

/* The entry of a CPU type's model for the extra MSR @msr, or -1. */
static int intel_extra_entry(const struct x86_cpu_type *type, u32 msr)
{
	unsigned int i;

	for (i = 0; i < type->model->n_extra_msrs; i++) {
		if (type->model->extra_msrs[i].msr == msr)
			return i;
	}
	return -1;
}

/*
 * What the extra register of a cache event must hold: the model's
 * value, or 0 where this driver does not know it.
 */
static u64 intel_cache_extra(const struct intel_model *model, u64 config)
{
	u64 value;

	if (!model->cache_extra ||
	    x86_cache_lookup(model->cache_extra, config, &value))
		return 0;
	return value;
}

/*
 * An event that needs a register besides its event select: what the
 * register must hold (a raw event's attr.config1, bits the model's
 * register does not have refused with EINVAL; a cache event's, the
 * model's), and the registers it may have: its own, and the other
 * offcore response register if the CPU has that and it takes the
 * value (extra_regs.c).  Refused with ENXIO where the CPU does not have
 * the register (a hypervisor may leave it out).  A generic hardware
 * event names none of these.
 */
static int intel_extra_config(struct perf_event *event)
{
	const struct x86_cpu_type *type = x86_event_type(event);
	const struct intel_model *model = type->model;
	u64 config1 = event->attr.config1;
	const struct intel_extra_msr *x;
	int i, place, alt;

	if (!model || event->attr.type == PERF_TYPE_HARDWARE)
		return 0;
	for (i = 0; i < model->n_extra_msrs; i++) {
		x = &model->extra_msrs[i];
		if ((event->hw.config & INTEL_MATCH_UMASK) == x->code)
			break;
	}
	if (i == model->n_extra_msrs)
		return 0;
	if (event->attr.type == PERF_TYPE_HW_CACHE)
		config1 = intel_cache_extra(model, event->attr.config);
	else if (config1 & ~x->valid)
		return perf_refuse(-EINVAL, "config1: bits the event's extra MSR does not have",
				   config1 & ~x->valid);
	if (!test_bit(i, &type->extra_present))
		return perf_refuse(-ENXIO, "config: the event's extra MSR is not there",
				   x->msr);
	if (!config1 && event->attr.type == PERF_TYPE_HW_CACHE)
		return perf_refuse(-EOPNOTSUPP,
				   "config: the model's offcore response for this cache event is not known",
				   event->attr.config);

	place = intel_extra_place(x->msr);
	event->hw.extra_config = config1;
	event->hw.extra_regs = BIT(place);
	event->hw.extra_idx = place;
	if (x->msr != MSR_OFFCORE_RSP_0 && x->msr != MSR_OFFCORE_RSP_1)
		return 0;
	alt = intel_extra_entry(type, x->msr == MSR_OFFCORE_RSP_0 ?
				MSR_OFFCORE_RSP_1 : MSR_OFFCORE_RSP_0);
	if (alt >= 0 && test_bit(alt, &type->extra_present) &&
	    !(config1 & ~model->extra_msrs[alt].valid))
		event->hw.extra_regs |= BIT(place ^ 1);
	return 0;
}

/*
 * The extra registers of a CPU type, from its model's table: where each
 * is, and, for the offcore response registers, the event select an
 * event that has one is programmed with.
 */
static void __init intel_extra_init(struct x86_cpu_type *type)
{
	const struct intel_extra_msr *x;
	int i, place;

	for (i = 0; i < type->model->n_extra_msrs; i++) {
		x = &type->model->extra_msrs[i];
		place = intel_extra_place(x->msr);
		type->extra[place].msr = x->msr;
		if (place <= 1)
			type->extra[place].code = x->code;
	}
}

/* INST_RETIRED.PREC_DIST: event 0xc0, unit mask 1. */
#define INTEL_PREC_DIST		0x01c0

/*
 * x86_pmu.limit_period where a model has a shortest period (struct
 * intel_model's @min_period and @prec_dist_period).
 */
static u64 intel_limit_period(struct perf_event *event, u64 left)
{
	const struct intel_model *model = x86_event_type(event)->model;

	if (!model)
		return left;
	if (model->prec_dist_period &&
	    (event->hw.config & INTEL_MATCH_UMASK) == INTEL_PREC_DIST)
		return max_t(u64, left, model->prec_dist_period);
	return max_t(u64, left, model->min_period);
}

static int intel_hw_config(struct perf_event *event)
{
	struct x86_cpu_type *type = x86_event_type(event);
	struct perf_event_attr *attr = &event->attr;
	int ret;

	ret = x86_hw_config(event);
	if (ret)
		return ret;
	ret = intel_extra_config(event);
	if (ret)
		return ret;
	if (intel_is_metric(type, event->hw.config)) {
		ret = intel_topdown_check(event);
		if (ret)
			return ret;
	}
	ret = intel_lbr_config(event);
	if (ret)
		return ret;
	ret = intel_pebs_config(event);
	if (ret)
		return ret;
	/*
	 * Version 1 has no AnyThread bit, and 6.1's core driver lets a raw
	 * event set it, to no effect (the raw mask leaves it out).
	 */
	if (attr->type == PERF_TYPE_HARDWARE ||
	    attr->type == PERF_TYPE_HW_CACHE || x86_pmu.version < 2 ||
	    !(attr->config & ARCH_PERFMON_EVENTSEL_ANY))
		return 0;

	/* Counting for the other thread of the core too. */
	if (x86_pmu.version < 3)
		return perf_refuse(-EINVAL, "config: AnyThread needs perfmon v3",
				   x86_pmu.version);
	ret = perf_allow_cpu(attr);
	if (ret)
		return ret;
	event->hw.config |= ARCH_PERFMON_EVENTSEL_ANY;
	return 0;
}

static ssize_t freeze_on_smi_show(struct device *dev,
				  struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "%d\n", READ_ONCE(intel_freeze_on_smi));
}

static ssize_t freeze_on_smi_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	unsigned long val;
	int ret;

	ret = kstrtoul(buf, 0, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;

	mutex_lock(&intel_freeze_mutex);
	if (val != READ_ONCE(intel_freeze_on_smi)) {
		WRITE_ONCE(intel_freeze_on_smi, val);
		cpus_read_lock();
		on_each_cpu(intel_set_freeze_on_smi, NULL, 1);
		cpus_read_unlock();
	}
	mutex_unlock(&intel_freeze_mutex);
	return count;
}
static DEVICE_ATTR_RW(freeze_on_smi);

static struct attribute *intel_extra_attrs[] = {
	&dev_attr_freeze_on_smi.attr,
	NULL,
};

X86_FORMAT_ATTR(intel_event, event, "config:0-7");
X86_FORMAT_ATTR(intel_pc, pc, "config:19");
X86_FORMAT_ATTR(intel_any, any, "config:21");

/*
 * Intel's own event select fields (sysfs.c adds the shared ones).
 * AnyThread is last: without it (before version 2, or deprecated) the
 * list ends before it.
 */
static struct attribute *intel_format[] = {
	&intel_event.attr.attr,
	&intel_pc.attr.attr,
	&intel_any.attr.attr,
	NULL,
};

/*
 * The fields of the extra registers, for the models that have them
 * (model.h): the offcore-response MSRs, the load-latency threshold and
 * the front-end event selection.
 */
X86_FORMAT_ATTR(intel_offcore_rsp, offcore_rsp, "config1:0-63");
X86_FORMAT_ATTR(intel_ldlat, ldlat, "config1:0-15");
X86_FORMAT_ATTR(intel_frontend, frontend, "config1:0-23");

struct attribute *intel_offcore_format[] = {
	&intel_offcore_rsp.attr.attr,
	NULL,
};

struct attribute *intel_ldlat_format[] = {
	&intel_offcore_rsp.attr.attr,
	&intel_ldlat.attr.attr,
	NULL,
};

struct attribute *intel_frontend_format[] = {
	&intel_offcore_rsp.attr.attr,
	&intel_ldlat.attr.attr,
	&intel_frontend.attr.attr,
	NULL,
};

/*
 * Whether the counters are really there: a hypervisor may advertise
 * them and fault on the MSRs, or drop the writes.  A counter the BIOS
 * left running is worth a warning, not a refusal.
 */
static int __init intel_check_hardware(void)
{
	u64 val, back;
	int idx;

	for (idx = 0; idx < hweight64(x86_pmu.gp); idx++) {
		if (rdmsrl_safe(x86_evtsel_msr(idx), &val))
			goto broken;
		if (val & ARCH_PERFMON_EVENTSEL_ENABLE) {
			pr_err(FW_BUG "the BIOS has corrupted hw-PMU resources (MSR %x is %llx)\n",
			       x86_evtsel_msr(idx), val);
			pr_err("Broken BIOS detected, complain to your hardware vendor.\n");
		}
	}
	val = 0xabcd;
	if (wrmsrl_safe(x86_ctr_msr(0), val) ||
	    rdmsrl_safe(x86_ctr_msr(0), &back) || back != val)
		goto broken;
	wrmsrl_safe(x86_ctr_msr(0), 0);
	return 0;

broken:
	if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
		pr_info("Performance Events: PMU not available due to virtualization, using software events only.\n");
	else
		pr_err("Performance Events: Broken PMU hardware detected, using software events only.\n");
	return -ENODEV;
}

/*
 * Whether the register is there: a hypervisor may leave it out, and
 * fault on it or drop writes.  Bit 0 is a field of every extra MSR.
 * Asked on a CPU of the kind that would have it.
 */
static bool intel_msr_holds(u32 msr)
{
	u64 val, back;

	if (rdmsrl_safe(msr, &val) || wrmsrl_safe(msr, val ^ 1))
		return false;
	if (rdmsrl_safe(msr, &back))
		back = ~(val ^ 1);
	wrmsrl_safe(msr, val);
	return back == (val ^ 1);
}

/* CPUID 0x1A EAX[31:24]: the kind of core of a hybrid's CPU. */
#define INTEL_CORE_TYPE_ATOM	0x20
#define INTEL_CORE_TYPE_CORE	0x40

/*
 * The kind of this CPU of a hybrid.  A CPU that says no kind (a hybrid
 * model without CPUID 0x1A's core type, as a hypervisor may show it) is
 * a big core, as on 6.1; intel_type_check_counters() drops the big
 * cores' counters the first one lacks.
 */
static struct x86_cpu_type *intel_cpu_type(void)
{
	u8 core_type = 0;

	if (boot_cpu_data.cpuid_level >= 0x1a)
		core_type = cpuid_eax(0x1a) >> 24;
	if (core_type == x86_cpu_types[1].core_type)
		return &x86_cpu_types[1];
	if (core_type && core_type != x86_cpu_types[0].core_type)
		pr_warn_once("Performance Events: CPU %d has core type %#x, counted as %s\n",
			     smp_processor_id(), core_type,
			     x86_cpu_types[0].name);
	return &x86_cpu_types[0];
}

/*
 * The counters a hybrid's kind has beyond CPUID 0xA's are the model's
 * say: those whose counter register faults are not there after all (a
 * hypervisor may leave them out), nor, without fixed counter 3, the
 * metrics.
 */
static void intel_type_check_counters(struct x86_cpu_type *type)
{
	unsigned long more;
	u64 val;
	int idx;

	more = type->gp & ~x86_pmu.gp;
	for_each_set_bit(idx, &more, X86_PMC_FIXED) {
		if (rdmsrl_safe(x86_ctr_msr(idx), &val))
			type->gp &= ~BIT_ULL(idx);
	}
	more = (type->fixed & ~x86_pmu.fixed) >> X86_PMC_FIXED;
	for_each_set_bit(idx, &more, INTEL_PMC_MAX_FIXED) {
		if (rdmsrl_safe(MSR_ARCH_PERFMON_FIXED_CTR0 + idx, &val))
			type->fixed &= ~BIT_ULL(X86_PMC_FIXED + idx);
	}
	if (!(type->fixed & BIT_ULL(X86_PMC_SLOTS)))
		type->metrics = 0;
}

/*
 * Which extra MSRs of its model a CPU type has, asked on a CPU of the
 * type.
 */
static void intel_extra_probe(struct x86_cpu_type *type)
{
	const struct intel_model *model = type->model;
	unsigned int i;

	for (i = 0; model && i < model->n_extra_msrs; i++)
		if (intel_msr_holds(model->extra_msrs[i].msr))
			__set_bit(i, &type->extra_present);
}

/*
 * The first CPU of a hybrid's kind comes up: what the kind has of its
 * counters and extra MSRs, and its counters in the log (6.1's lines).
 * Events of the kind opened before (there are none at boot) may have
 * been refused an extra MSR.
 */
static void intel_type_starting(struct x86_cpu_type *type)
{
	intel_type_check_counters(type);
	intel_extra_probe(type);
	/* As 6.1 writes it, with its file's prefix (less a trailing blank). */
	pr_info("core: %s PMU driver:\n", type->name);
	x86_pmu_announce(type);
}

/*
 * A CPU type's generic events and tables: the architectural events the
 * CPU has (CPUID 0xA EBX, @missing), then what its model table, if any,
 * says.
 */
static void __init intel_type_init(struct x86_cpu_type *type,
				   const struct intel_model *model,
				   unsigned int missing, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(intel_arch_events); i++) {
		if (i < len && (missing & BIT(i)))
			continue;
		type->event_map[intel_arch_events[i].id] =
			intel_arch_events[i].code;
	}
	/*
	 * Only fixed counter 2 counts reference cycles: without it the
	 * generic event is not supported (6.1 programs the pseudo-event on
	 * a general counter there, which counts nothing of the kind).
	 */
	if (type->fixed & BIT_ULL(X86_PMC_FIXED + 2))
		type->event_map[PERF_COUNT_HW_REF_CPU_CYCLES] = INTEL_REF_CYCLES;
	if (!model)
		return;
	type->model = model;
	intel_extra_init(type);
	type->cache_map = model->cache_map;
	type->extra_format = model->format_attrs;
	type->extra_events = model->event_attrs;
	for (i = 0; i < model->n_events; i++)
		type->event_map[model->events[i].id] = model->events[i].code;
}

/*
 * A hybrid (the model has Atom cores beside its own; as on 6.1, whether
 * or not the CPU says it is one, X86_FEATURE_HYBRID_CPU): a kind for the
 * big cores, with the counters they have beyond CPUID 0xA's, which are
 * what all cores have, and one for the Atom cores.
 */
static bool __init intel_hybrid_init(const struct intel_model *model,
				     unsigned int missing, unsigned int len)
{
	struct x86_cpu_type *core = &x86_cpu_types[0];
	struct x86_cpu_type *atom = &x86_cpu_types[1];
	unsigned int fixed_n = fls64(x86_pmu.fixed >> X86_PMC_FIXED);

	if (!model || !model->atom)
		return false;
	x86_pmu.n_types = 2;
	x86_pmu.cpu_type = intel_cpu_type;
	x86_pmu.type_starting = intel_type_starting;

	core->name = "cpu_core";
	core->core_type = INTEL_CORE_TYPE_CORE;
	core->gp = GENMASK_ULL(min_t(unsigned int,
				     hweight64(x86_pmu.gp) + model->more_gp,
				     INTEL_PMC_MAX_GENERIC) - 1, 0);
	core->fixed = x86_pmu.fixed;
	if (model->more_fixed)
		core->fixed |= GENMASK_ULL(X86_PMC_FIXED + fixed_n +
					   model->more_fixed - 1,
					   X86_PMC_FIXED + fixed_n);
	core->fixed &= GENMASK_ULL(X86_PMC_FIXED +
				   ARRAY_SIZE(intel_fixed_events) - 1,
				   X86_PMC_FIXED);
	intel_type_init(core, model, missing, len);

	atom->name = "cpu_atom";
	atom->core_type = INTEL_CORE_TYPE_ATOM;
	atom->gp = x86_pmu.gp;
	atom->fixed = x86_pmu.fixed;
	intel_type_init(atom, model->atom, missing, len);
	return true;
}

/**
 * intel_pmu_probe - fill in x86_pmu from CPUID leaf 0xA
 *
 * Return: 0, -ENODEV when the CPU has no architectural PMU, or -EIO
 * when it has one that does not work (and the log says so).
 */
int __init intel_pmu_probe(void)
{
	const struct x86_cpu_id *id = x86_match_cpu(intel_models);
	const struct intel_model *model = NULL;
	union cpuid10_eax eax;
	union cpuid10_ebx ebx;
	union cpuid10_edx edx;
	unsigned int ecx, fixed_n, i;
	const char *lbr, *arch_lbr, *pebs = "";
	u64 caps = 0;

	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    !boot_cpu_has(X86_FEATURE_ARCH_PERFMON) ||
	    boot_cpu_data.cpuid_level < 0xa)
		return -ENODEV;

	cpuid(0xa, &eax.full, &ebx.full, &ecx, &edx.full);
	if (!eax.split.version_id || !eax.split.num_counters)
		return -ENODEV;

	x86_pmu.driver = "Intel";
	x86_pmu.name = "generic architected perfmon";
	x86_pmu.version = eax.split.version_id;
	x86_pmu.width = eax.split.bit_width;
	x86_pmu.events_mask = ebx.full;
	x86_pmu.events_mask_len = eax.split.mask_length;
	x86_pmu.gp = GENMASK_ULL(min_t(unsigned int, eax.split.num_counters,
				       INTEL_PMC_MAX_GENERIC) - 1, 0);
	x86_pmu.evtsel = MSR_ARCH_PERFMON_EVENTSEL0;
	x86_pmu.ctr = MSR_ARCH_PERFMON_PERFCTR0;
	x86_pmu.stride = 1;
	x86_pmu.max_period = U32_MAX >> 1;
	x86_pmu.raw_mask = X86_RAW_EVENT_MASK;
	x86_pmu.hw_config = intel_hw_config;
	x86_pmu.counters_for = intel_counters_for;
	x86_pmu.enable = intel_enable;
	x86_pmu.disable = intel_disable;
	x86_pmu.reset = intel_reset;
	x86_pmu.rdpmc_index = intel_rdpmc_index;
	x86_pmu.extra_attrs = intel_extra_attrs;
	if (x86_pmu.version >= 2) {
		/*
		 * As on 6.1: aux_output is Intel's to take (to a PT leader,
		 * which this machine has not), so it is refused with EINVAL,
		 * not EOPNOTSUPP; 6.1's driver of version 1 does not take
		 * it, and the core refuses it with EOPNOTSUPP.
		 */
		x86_cpu_pmu.capabilities |= PERF_PMU_CAP_AUX_OUTPUT;
		fixed_n = edx.split.num_counters_fixed;
		if (x86_pmu.version >= 5)
			x86_pmu.fixed = (u64)ecx << X86_PMC_FIXED;
		x86_pmu.fixed |= GENMASK_ULL(X86_PMC_FIXED + fixed_n - 1,
					     X86_PMC_FIXED) * !!fixed_n;
		/* Only the fixed events we know of. */
		x86_pmu.fixed &= GENMASK_ULL(X86_PMC_FIXED +
					     ARRAY_SIZE(intel_fixed_events) - 1,
					     X86_PMC_FIXED);
		x86_pmu.pmu_name = x86_pmu.version >= 5 ? "generic_arch_v5+" :
							 "generic_arch_v2+";
		x86_pmu.enable_all = intel_enable_all;
		x86_pmu.disable_all = intel_disable_all;
		x86_pmu.status = intel_status;
		x86_pmu.ack = intel_ack;
		x86_pmu.guest_msrs = intel_guest_msrs;
	} else {
		/*
		 * No global control: each counter's enable bit does it all.
		 * 6.1 names this driver "core".
		 */
		x86_pmu.driver = "core";
		intel_freeze_on_smi = false;
		x86_pmu.name = "generic architected perfmon v1";
		x86_pmu.pmu_name = "generic_arch_v1";
		x86_pmu.enable_all = x86_enable_each;
		x86_pmu.disable_all = x86_disable_each;
		x86_pmu.status = x86_status_by_sign;
		x86_pmu.ack = x86_ack_nothing;
	}
	/*
	 * 6.1 shows the AnyThread field from version 2, though only version
	 * 3 takes it (intel_hw_config()).
	 */
	if (x86_pmu.version < 2 || edx.split.anythread_deprecated)
		intel_format[ARRAY_SIZE(intel_format) - 2] = NULL;
	x86_pmu.format = intel_format;

	if (id) {
		model = (const struct intel_model *)id->driver_data;
		if (model->init)
			model->init();
		x86_pmu.name = model->name;
		x86_pmu.pmu_name = model->pmu_name;
	}
	if (!intel_hybrid_init(model, ebx.full, eax.split.mask_length)) {
		x86_cpu_types[0].gp = x86_pmu.gp;
		x86_cpu_types[0].fixed = x86_pmu.fixed;
		intel_type_init(&x86_cpu_types[0], model, ebx.full,
				eax.split.mask_length);
		intel_extra_probe(&x86_cpu_types[0]);
	}

	if (intel_check_hardware())
		return -EIO;

	if (boot_cpu_has(X86_FEATURE_PDCM))
		rdmsrl_safe(MSR_IA32_PERF_CAPABILITIES, &caps);
	if (caps & INTEL_CAP_FULL_WIDTH) {
		x86_pmu.ctr = MSR_IA32_PMC0;
		x86_pmu.max_period = GENMASK_ULL(x86_pmu.width - 2, 0);
	}
	for (i = 0; i < X86_MAX_CPU_TYPES; i++) {
		model = x86_cpu_types[i].model;
		if (!model)
			continue;
		intel_topdown_init(&x86_cpu_types[i], model->metrics, caps);
		if (model->min_period || model->prec_dist_period)
			x86_pmu.limit_period = intel_limit_period;
	}
	lbr = intel_lbr_init(x86_cpu_types[0].model, caps, &arch_lbr);
	if (x86_pmu.n_types < 2 && x86_pmu.version >= 2)
		pebs = intel_pebs_init(&x86_cpu_types[0], caps);
	pr_info("Performance Events: %s%s%s, %s%s%s%s PMU driver.\n",
		arch_lbr, pebs, x86_pmu.name,
		x86_pmu.version >= 5 && edx.split.anythread_deprecated ?
		"AnyThread deprecated, " : "", lbr,
		caps & INTEL_CAP_FULL_WIDTH ? "full-width counters, " : "",
		x86_pmu.driver);
	return 0;
}
