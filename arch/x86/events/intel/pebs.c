// SPDX-License-Identifier: GPL-2.0
/*
 * Precise event-based sampling (Intel SDM vol. 3B, "Processor Event
 * Based Sampling (PEBS)"): an event with attr.precise_ip has its
 * counter armed in IA32_PEBS_ENABLE, and as the counter overflows the
 * processor writes a record of the instruction that overflowed it (its
 * address, the registers it left, the data address of a load or store
 * and where the data came from) into the buffer of the debug store
 * (debug_store.c), reloads the counter from the save area, and raises
 * the PMI once the buffer reaches its threshold.  The PMI (or a task
 * switch, a read, the event leaving its counter) turns the records into
 * samples: pebs_drain.c.
 *
 * precise_ip 1 takes the record's registers (the IP after the
 * instruction); 2 its eventing IP (from format 2; adaptive records have
 * no other), the instruction itself; 3 also counts on the counter whose
 * records are distributed most evenly (INST_RETIRED.PREC_DIST), where
 * the model has one.
 *
 * An event whose period is fixed lets the counter reload itself
 * (X86_EVENT_AUTO_RELOAD); one whose samples could all be made later
 * from their records alone lets many records gather before an interrupt
 * (X86_EVENT_LARGE): the buffer's threshold is then near its end while
 * every precise event on the CPU is such an event, else at one record.
 */
#include <linux/bitfield.h>
#include <linux/perf_event.h>

#include "pebs.h"

struct intel_pebs_hw intel_pebs_hw __read_mostly;
DEFINE_PER_CPU(struct intel_pebs_cpu, intel_pebs_cpu);

/* The cycles event, and what a model with @cycles_alias samples instead. */
#define INTEL_CYCLES_EVENT	0x003cULL
#define INTEL_CYCLES_AS_INST	0x108000c0ULL	/* INST_RETIRED, inv, cmask 16 */
#define INTEL_CYCLES_AS_PREC	0x108001c0ULL	/* INST_RETIRED.PREC_DIST, ... */

/* The sample fields a record gives, wherever it is drained. */
#define INTEL_PEBS_LATE_FIELDS						\
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |		\
	 PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID |	\
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER |			\
	 PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |		\
	 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_REGS_USER |		\
	 PERF_SAMPLE_WEIGHT_TYPE | PERF_SAMPLE_DATA_SRC)

/* The registers a record has: the general ones, the IP and the flags. */
#define INTEL_PEBS_REGS							\
	(GENMASK_ULL(PERF_REG_X86_R15, PERF_REG_X86_R8) |		\
	 GENMASK_ULL(PERF_REG_X86_FLAGS, PERF_REG_X86_AX))

static const struct intel_pebs_event *
intel_pebs_event(const struct intel_pebs *pebs, u64 config)
{
	unsigned int i;

	for (i = 0; i < pebs->n_events; i++) {
		if (intel_constraint_match(&pebs->events[i].on, config))
			return &pebs->events[i];
	}
	return NULL;
}

/*
 * The sample fields that do not hold an event's records back until an
 * interrupt: the user registers only where a record has no other, a
 * record's TSC only as perf's own clock.
 */
static u64 intel_pebs_late_fields(const struct perf_event_attr *attr)
{
	u64 fields = INTEL_PEBS_LATE_FIELDS;

	if (intel_pebs_hw.format >= 3 && !attr->use_clockid)
		fields |= PERF_SAMPLE_TIME;
	if (!attr->exclude_kernel)
		fields &= ~PERF_SAMPLE_REGS_USER;
	if ((attr->sample_regs_user | attr->sample_regs_intr) &
	    ~(INTEL_PEBS_REGS | PERF_REG_EXTENDED_MASK))
		fields &= ~(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR);
	return fields;
}

static void intel_pebs_destroy(struct perf_event *event)
{
	intel_ds_release();
}

/**
 * intel_pebs_config - check a precise event and choose how it samples
 * @event: a new event of a PMU with precise sampling, past x86_hw_config()
 *
 * Return: 0, or -ENOMEM where the buffers could not be had.
 */
int intel_pebs_config(struct perf_event *event)
{
	const struct intel_pebs *pebs = intel_pebs_hw.model;
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	const struct intel_pebs_event *pe;
	unsigned int flags = X86_EVENT_PRECISE;
	int ret;

	if (!attr->precise_ip || !pebs)
		return 0;
	if (pebs->cycles_alias &&
	    (hwc->config & X86_RAW_EVENT_MASK) == INTEL_CYCLES_EVENT)
		hwc->config = (hwc->config & ~X86_RAW_EVENT_MASK) |
			      (attr->precise_ip >= 3 ? INTEL_CYCLES_AS_PREC :
						       INTEL_CYCLES_AS_INST);
	pe = intel_pebs_event(pebs, hwc->config);
	if (pe)
		flags |= pe->kind << X86_EVENT_VENDOR_SHIFT;
	/*
	 * A fixed period reloads itself; but an event that must wake its
	 * reader every so many samples needs them as they come.
	 */
	if (!attr->freq && !(attr->wakeup_events && !attr->watermark)) {
		flags |= X86_EVENT_AUTO_RELOAD;
		if (!(attr->sample_type & ~intel_pebs_late_fields(attr))) {
			flags |= X86_EVENT_LARGE;
			event->attach_state |= PERF_ATTACH_SCHED_CB;
		}
	}
	ret = intel_ds_reserve();
	if (ret)
		return ret;
	event->destroy = intel_pebs_destroy;
	hwc->x86_flags |= flags;
	return 0;
}

/* x86_pmu.precise_counters */
static u64 intel_pebs_counters(struct perf_event *event)
{
	const struct intel_pebs *pebs = intel_pebs_hw.model;
	const struct intel_pebs_event *pe;

	pe = intel_pebs_event(pebs, event->hw.config);
	return (pe ? pe->on.counters : pebs->others) & intel_pebs_hw.counters;
}

/*
 * Take the records in the buffer now, the counters stopped (they may
 * be counting: outside perf_pmu_disable()); not inside a drain, whose
 * samples stop an event (the drain takes the rest, with the counters
 * stopped until the PMI ends).
 */
static void intel_pebs_flush(struct x86_pmu_cpu *cpuc)
{
	if (this_cpu_read(intel_pebs_cpu.draining))
		return;
	if (cpuc->enabled)
		wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	intel_pebs_drain(NULL);
	if (cpuc->enabled)
		x86_pmu.enable_all(cpuc->running);
}

/* What an event wants in its adaptive records. */
static u64 intel_pebs_data_cfg(const struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;
	u64 type = attr->sample_type, cfg = 0;
	unsigned int depth;

	if (type & (PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT_TYPE |
		    PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
		    PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE))
		cfg |= INTEL_PEBS_CFG_MEM;
	/*
	 * The IP after the instruction is in the registers' group; so are
	 * the user registers of a user instruction (pebs_drain.c).
	 */
	if (attr->precise_ip < 2 ||
	    ((type & PERF_SAMPLE_REGS_INTR) &&
	     (attr->sample_regs_intr & INTEL_PEBS_REGS)) ||
	    ((type & PERF_SAMPLE_REGS_USER) &&
	     (attr->sample_regs_user & INTEL_PEBS_REGS)))
		cfg |= INTEL_PEBS_CFG_GPRS;
	if ((type & PERF_SAMPLE_REGS_INTR) &&
	    (attr->sample_regs_intr & PERF_REG_EXTENDED_MASK))
		cfg |= INTEL_PEBS_CFG_XMMS;
	/* The branch stack as the instruction left it, the whole of it. */
	depth = intel_lbr_record_depth();
	if ((type & PERF_SAMPLE_BRANCH_STACK) && depth)
		cfg |= INTEL_PEBS_CFG_LBRS |
		       FIELD_PREP(INTEL_PEBS_CFG_LBR_NR, depth - 1);
	return cfg;
}

/* The size of an adaptive record of the groups @cfg: 8-byte words. */
static unsigned int intel_pebs_adaptive_size(u64 cfg)
{
	unsigned int words = 4;

	if (cfg & INTEL_PEBS_CFG_MEM)
		words += 4;
	if (cfg & INTEL_PEBS_CFG_GPRS)
		words += 18;
	if (cfg & INTEL_PEBS_CFG_XMMS)
		words += INTEL_PEBS_XMMS;
	if (cfg & INTEL_PEBS_CFG_LBRS)
		words += 3 * (FIELD_GET(INTEL_PEBS_CFG_LBR_NR, cfg) + 1);
	return words * sizeof(u64);
}

/*
 * The records this CPU's events want, and the buffer's threshold for
 * them: after one record, or, while every precise event on the CPU
 * takes many, with room left for one of each counter.  A buffer that
 * holds records of another size or threshold is drained first.
 */
static void intel_pebs_set_size(struct intel_pebs_cpu *pc,
				struct x86_pmu_cpu *cpuc)
{
	unsigned long bits = READ_ONCE(cpuc->precise);
	unsigned int size = intel_pebs_hw.size, records = 1;
	struct debug_store *ds = intel_ds_area();
	u64 cfg = 0;
	int idx;

	if (intel_pebs_hw.adaptive) {
		for_each_set_bit(idx, &bits, X86_PMC_MAX)
			cfg |= intel_pebs_data_cfg(cpuc->on[idx]);
		size = intel_pebs_adaptive_size(cfg);
	}
	if (bits && READ_ONCE(pc->large) == bits)
		records = PEBS_BUFFER_SIZE / size -
			  hweight64(intel_pebs_hw.counters);
	if (ds->pebs_index != ds->pebs_buffer_base &&
	    (size != pc->size || cfg != pc->data_cfg ||
	     ds->pebs_interrupt_threshold !=
	     ds->pebs_buffer_base + (u64)records * size))
		intel_pebs_flush(cpuc);
	if (cfg != pc->data_cfg) {
		wrmsrl(MSR_PEBS_DATA_CFG, cfg);
		pc->data_cfg = cfg;
	}
	pc->size = size;
	intel_ds_set_threshold(size, records);
}

/* The same, again if the NMI handler changed them meanwhile. */
static void intel_pebs_resize(struct intel_pebs_cpu *pc,
			      struct x86_pmu_cpu *cpuc)
{
	unsigned int gen;

	do {
		gen = this_cpu_inc_return(intel_pebs_cpu.gen);
		intel_pebs_set_size(pc, cpuc);
	} while (this_cpu_read(intel_pebs_cpu.gen) != gen);
}

/**
 * intel_pebs_reset_slot - where this CPU's save area has the value a
 *	counter reloads as it writes a record
 * @idx: the counter
 *
 * Return: the slot.
 */
u64 *intel_pebs_reset_slot(int idx)
{
	if (idx >= X86_PMC_FIXED)
		idx = INTEL_PEBS_FIXED_RESET + idx - X86_PMC_FIXED;
	return &intel_ds_area()->pebs_event_reset[idx];
}

/*
 * The value an auto-reloading counter reloads: minus the period, as
 * long as the model's counters take.
 */
static u64 intel_pebs_reset_value(struct perf_event *event)
{
	u64 period = event->hw.sample_period;

	if (!(event->hw.x86_flags & X86_EVENT_AUTO_RELOAD))
		return 0;
	if (x86_pmu.limit_period)
		period = x86_pmu.limit_period(event, period);
	period = clamp_t(u64, period, 2, x86_pmu.max_period);
	return -period & GENMASK_ULL(x86_pmu.width - 1, 0);
}

/**
 * intel_pebs_enable - arm a precise event's counter, before it starts
 * @event: the event, on its counter
 */
void intel_pebs_enable(struct perf_event *event)
{
	struct intel_pebs_cpu *pc = this_cpu_ptr(&intel_pebs_cpu);
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	struct hw_perf_event *hwc = &event->hw;
	int idx = hwc->idx;
	u64 bit = BIT_ULL(idx);

	*intel_pebs_reset_slot(idx) = intel_pebs_reset_value(event);
	this_cpu_or(x86_pmu_cpu.precise, bit);
	if (hwc->x86_flags & X86_EVENT_LARGE)
		this_cpu_or(intel_pebs_cpu.large, bit);
	else
		this_cpu_and(intel_pebs_cpu.large, ~bit);
	intel_pebs_resize(pc, cpuc);
	/* Before adaptive PEBS, the load latency event has an enable too. */
	if (!intel_pebs_hw.adaptive && idx < X86_PMC_FIXED &&
	    (hwc->x86_flags >> X86_EVENT_VENDOR_SHIFT) == INTEL_PEBS_LDLAT)
		bit |= bit << 32;
	this_cpu_or(intel_pebs_cpu.enable, bit);
	x86_wrmsr_copy(MSR_IA32_PEBS_ENABLE, &intel_pebs_cpu.enable);
}

/**
 * intel_pebs_disable - disarm a precise event's counter, stopped
 * @event: the event, still on its counter: its records become samples
 */
void intel_pebs_disable(struct perf_event *event)
{
	struct intel_pebs_cpu *pc = this_cpu_ptr(&intel_pebs_cpu);
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	struct debug_store *ds = intel_ds_area();
	int idx = event->hw.idx;
	u64 bit = BIT_ULL(idx);

	this_cpu_and(intel_pebs_cpu.enable,
		     idx < X86_PMC_FIXED ? ~(bit | bit << 32) : ~bit);
	x86_wrmsr_copy(MSR_IA32_PEBS_ENABLE, &intel_pebs_cpu.enable);
	if (ds->pebs_index != ds->pebs_buffer_base)
		intel_pebs_flush(cpuc);
	this_cpu_and(x86_pmu_cpu.precise, ~bit);
	this_cpu_and(intel_pebs_cpu.large, ~bit);
	intel_pebs_resize(pc, cpuc);
}

/**
 * intel_pebs_guest_msr - what IA32_PEBS_ENABLE holds for the host and
 *	while a guest runs (none of the host's records may be written
 *	through a guest's page tables)
 * @msr: filled in
 */
void intel_pebs_guest_msr(struct perf_guest_switch_msr *msr)
{
	msr->msr = MSR_IA32_PEBS_ENABLE;
	msr->host = this_cpu_read(intel_pebs_cpu.enable);
	msr->guest = 0;
}

/**
 * intel_pebs_reset_cpu - this CPU's PEBS in its boot state, its save area
 *	in IA32_DS_AREA
 */
void intel_pebs_reset_cpu(void)
{
	struct intel_pebs_cpu *pc = this_cpu_ptr(&intel_pebs_cpu);

	if (!intel_pebs_hw.model)
		return;
	pc->enable = 0;
	pc->large = 0;
	pc->size = 0;
	wrmsrl(MSR_IA32_PEBS_ENABLE, 0);
	if (intel_pebs_hw.adaptive) {
		pc->data_cfg = 0;
		wrmsrl(MSR_PEBS_DATA_CFG, 0);
	}
	intel_ds_cpu_start();
}

/*
 * The precise_ip a machine takes: 1 with PEBS; 2 with the eventing IP
 * in the records; 3 where the model has a counter that samples
 * instructions evenly (INST_RETIRED.PREC_DIST).
 */
static unsigned int intel_pebs_max_precise(const struct intel_pebs *pebs)
{
	return 1 + (intel_pebs_hw.format >= 2) + pebs->prec_dist;
}

/**
 * intel_pebs_init - precise sampling, where the model and the CPU have it
 * @type: the machine's one kind of CPU
 * @caps: IA32_PERF_CAPABILITIES
 *
 * Return: the boot message's piece for it ("PEBS fmt3+, "), or "".
 */
const char *intel_pebs_init(struct x86_cpu_type *type, u64 caps)
{
	static char line[32];
	const struct intel_pebs *pebs = type->model ? type->model->pebs : NULL;
	unsigned int format = FIELD_GET(INTEL_CAP_PEBS_FORMAT, caps);
	bool adaptive = format >= 4 && (caps & INTEL_CAP_PEBS_BASELINE);
	u64 misc;

	if (!pebs || !boot_cpu_has(X86_FEATURE_DS) ||
	    !boot_cpu_has(X86_FEATURE_DTES64))
		return "";
	rdmsrl(MSR_IA32_MISC_ENABLE, misc);
	if (misc & MSR_IA32_MISC_ENABLE_PEBS_UNAVAIL)
		return "";
	/* Format 0 has no status to tell the counters apart. */
	if (format < 1 || (format > 3 && !adaptive))
		return "";

	intel_pebs_hw.format = format;
	intel_pebs_hw.adaptive = adaptive;
	intel_pebs_hw.size = (format == 1 ? 22 : format == 2 ? 24 : 25) *
			     sizeof(u64);
	intel_pebs_hw.counters = type->gp;
	if (adaptive) {
		intel_pebs_hw.counters |= type->fixed;
		x86_cpu_pmu.capabilities |= PERF_PMU_CAP_EXTENDED_REGS;
	}
	intel_pebs_hw.model = pebs;
	type->precise_events = pebs->mem_events;
	x86_pmu.max_precise = intel_pebs_max_precise(pebs);
	x86_pmu.precise_counters = intel_pebs_counters;
	x86_pmu.drain = intel_pebs_drain;
	x86_pmu.drain_status = INTEL_STATUS_OVF_BUF;
	snprintf(line, sizeof(line), "PEBS fmt%u%c%s, ", format,
		 caps & INTEL_CAP_PEBS_TRAP ? '+' : '-',
		 adaptive ? "-baseline" : "");
	return line;
}
