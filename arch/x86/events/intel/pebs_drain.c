// SPDX-License-Identifier: GPL-2.0
/*
 * PEBS records into samples (Intel SDM vol. 3B, "Processor Event Based
 * Sampling (PEBS)": the record formats, and "Load Latency Performance
 * Monitoring Facility": the data source encodings).
 *
 * A record names the counters that wrote it in its status; each of
 * their events gets a sample from it.  One pass over the buffer counts
 * the records of each counter, which brings the counts of the
 * auto-reloading events up to date; a second makes the samples, the last
 * record of each event through perf_event_overflow() (whose throttling
 * and signals are per interrupt) and the others through
 * perf_event_output().
 *
 * A record's registers are those the instruction left, the sample's
 * kernel registers and, of a user instruction, its user registers too
 * (6.1 gives user registers only from the interrupt: zeros where a
 * drain is not the PMI's; an extension of ours); the IP is the
 * eventing IP (the instruction that overflowed the counter, marked
 * exact) where there is one and precise_ip asks for it, else the IP
 * after it.  The call chain is walked from the interrupted registers,
 * where the records are drained at the interrupt.
 *
 * NMI context, or the counters stopped with interrupts off: nothing
 * here locks or allocates.
 */
#include <linux/bitfield.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <asm/tsc.h>
#include <asm/timer.h>

#include "pebs.h"

/* The general registers of a record: 16, in one order or another. */
#define INTEL_PEBS_GPRS		16

/* A record of formats 1 to 3: each field 8 bytes, in this order. */
struct intel_pebs_fixed {
	u64	flags, ip;
	u64	gprs[INTEL_PEBS_GPRS];	/* intel_pebs_fixed_order */
	u64	status, dla, dse, lat;		/* format 1 */
	u64	real_ip, tsx_tuning;		/* format 2 */
	u64	tsc;				/* format 3 */
};

/* An adaptive record's groups (format 4). */
struct intel_pebs_basic {
	u64	format_size;	/* the groups (cfg bits), size from bit 48 */
	u64	ip, status, tsc;
};

struct intel_pebs_mem {
	u64	dla, dse, lat, tsx_tuning;
};

struct intel_pebs_gprs {
	u64	flags, ip;
	u64	gprs[INTEL_PEBS_GPRS];	/* intel_pebs_adaptive_order */
};

/* Where each of a record's registers is in struct pt_regs. */
#define REG(name)	(offsetof(struct pt_regs, name) / sizeof(unsigned long))

static const u8 intel_pebs_fixed_order[INTEL_PEBS_GPRS] = {
	REG(ax), REG(bx), REG(cx), REG(dx), REG(si), REG(di), REG(bp), REG(sp),
	REG(r8), REG(r9), REG(r10), REG(r11), REG(r12), REG(r13), REG(r14),
	REG(r15),
};

/* The adaptive record's: as the instructions encode them. */
static const u8 intel_pebs_adaptive_order[INTEL_PEBS_GPRS] = {
	REG(ax), REG(cx), REG(dx), REG(bx), REG(sp), REG(bp), REG(si), REG(di),
	REG(r8), REG(r9), REG(r10), REG(r11), REG(r12), REG(r13), REG(r14),
	REG(r15),
};

#define INTEL_PEBS_SIZE_SHIFT	48

/**
 * struct intel_pebs_rec - a record of any format, taken apart
 * @status: the counters it is of
 * @ip: the eventing IP, or 0 where the format has none
 * @next_ip: the IP after the instruction, or 0 where the record has none
 * @flags: the RFLAGS the instruction left, where @gprs
 * @gprs: the general registers it left, or NULL
 * @order: where each of @gprs goes in struct pt_regs
 * @mem: its data address, data source and latency, or NULL
 * @xmm: XMM0 to XMM15 (low and high halves), or NULL
 * @lbr: the newest entries of the LBR stack (FROM, TO, INFO each), or
 *	NULL
 * @lbr_nr: @lbr's entries
 * @tsc: the TSC as it was written, 0 where there is none
 */
struct intel_pebs_rec {
	u64			status;
	u64			ip;
	u64			next_ip;
	u64			flags;
	const u64		*gprs;
	const u8		*order;
	struct intel_pebs_mem	mem_buf;
	struct intel_pebs_mem	*mem;
	u64			*xmm;
	const u64		*lbr;
	unsigned int		lbr_nr;
	u64			tsc;
};

/* The registers of a drain that is not the PMI's: nothing interrupted. */
static struct pt_regs intel_pebs_no_regs;

/* The size of the record at @p. */
static unsigned int intel_pebs_size(const void *p)
{
	if (intel_pebs_hw.adaptive)
		return ((const struct intel_pebs_basic *)p)->format_size >>
		       INTEL_PEBS_SIZE_SHIFT;
	return intel_pebs_hw.size;
}

/* The counters of the record at @p. */
static u64 intel_pebs_status(const void *p)
{
	if (intel_pebs_hw.adaptive)
		return ((const struct intel_pebs_basic *)p)->status;
	return ((const struct intel_pebs_fixed *)p)->status;
}

static void intel_pebs_parse_fixed(struct intel_pebs_rec *r, const void *p)
{
	const struct intel_pebs_fixed *f = p;

	r->status = f->status;
	r->next_ip = f->ip;
	r->ip = intel_pebs_hw.format >= 2 ? f->real_ip : 0;
	r->tsc = intel_pebs_hw.format >= 3 ? f->tsc : 0;
	r->flags = f->flags;
	r->gprs = f->gprs;
	r->order = intel_pebs_fixed_order;
	r->mem_buf.dla = f->dla;
	r->mem_buf.dse = f->dse;
	r->mem_buf.lat = f->lat;
	r->mem_buf.tsx_tuning = intel_pebs_hw.format >= 2 ? f->tsx_tuning : 0;
	r->mem = &r->mem_buf;
	r->xmm = NULL;
	r->lbr = NULL;
}

static void intel_pebs_parse_adaptive(struct intel_pebs_rec *r, void *p)
{
	const struct intel_pebs_basic *b = p;
	const struct intel_pebs_gprs *g;
	u64 groups = b->format_size;

	r->status = b->status;
	r->ip = b->ip;
	r->next_ip = 0;
	r->tsc = b->tsc;
	r->gprs = NULL;
	r->mem = NULL;
	r->xmm = NULL;
	r->lbr = NULL;
	p += sizeof(*b);
	if (groups & INTEL_PEBS_CFG_MEM) {
		r->mem = p;
		p += sizeof(*r->mem);
	}
	if (groups & INTEL_PEBS_CFG_GPRS) {
		g = p;
		r->next_ip = g->ip;
		r->flags = g->flags;
		r->gprs = g->gprs;
		r->order = intel_pebs_adaptive_order;
		p += sizeof(*g);
	}
	if (groups & INTEL_PEBS_CFG_XMMS) {
		r->xmm = p;
		p += INTEL_PEBS_XMMS * sizeof(u64);
	}
	if (groups & INTEL_PEBS_CFG_LBRS) {
		r->lbr = p;
		r->lbr_nr = FIELD_GET(INTEL_PEBS_CFG_LBR_NR, groups) + 1;
	}
}

/*
 * The record's general registers into @regs: all of them, or only the
 * stack and frame pointers (for the call chain and the user stack).
 */
static void intel_pebs_set_gprs(struct pt_regs *regs,
				const struct intel_pebs_rec *r, bool all)
{
	unsigned long *to = (unsigned long *)regs;
	unsigned int i, at;

	for (i = 0; i < INTEL_PEBS_GPRS; i++) {
		at = r->order[i];
		if (all || at == REG(sp) || at == REG(bp))
			to[at] = r->gprs[i];
	}
}

/* Point the sample's registers at @ip, in the mode it is in. */
static void intel_pebs_set_ip(struct pt_regs *regs, u64 ip, bool exact)
{
	regs->ip = ip;
	regs->cs = (s64)ip < 0 ? __KERNEL_CS : __USER_CS;
	if (exact)
		regs->flags |= PERF_EFLAGS_EXACT;
	else
		regs->flags &= ~PERF_EFLAGS_EXACT;
}

/*
 * A record's TSC as perf's clock, where the event samples in perf's
 * clock and that clock is the TSC's.
 */
static void intel_pebs_time(struct perf_event *event,
			    struct perf_sample_data *data, u64 tsc)
{
	if (!tsc || !(event->attr.sample_type & PERF_SAMPLE_TIME) ||
	    event->attr.use_clockid || !using_native_sched_clock() ||
	    !sched_clock_stable())
		return;
	data->time = native_sched_clock_from_tsc(tsc) + __sched_clock_offset;
	data->sample_flags |= PERF_SAMPLE_TIME;
}

/* What a record says of a load or store, as the event's kind has it. */
static void intel_pebs_mem_fields(struct perf_event *event,
				  struct perf_sample_data *data,
				  const struct intel_pebs_mem *mem)
{
	enum intel_pebs_kind kind = event->hw.x86_flags >>
				    X86_EVENT_VENDOR_SHIFT;
	u64 type = event->attr.sample_type;

	if (!mem)
		return;
	/* Before adaptive PEBS, only the memory events have an address. */
	if ((type & PERF_SAMPLE_ADDR) &&
	    (intel_pebs_hw.adaptive || kind != INTEL_PEBS_PLAIN)) {
		data->addr = mem->dla;
		data->sample_flags |= PERF_SAMPLE_ADDR;
	}
	if (type & PERF_SAMPLE_WEIGHT_TYPE) {
		data->weight.full = 0;
		if (intel_pebs_hw.adaptive || kind == INTEL_PEBS_LDLAT)
			data->weight.full = mem->lat;
		/* Else the cycles of an aborted transaction, if any. */
		if (!data->weight.full && intel_pebs_hw.format >= 2)
			data->weight.full = (u32)mem->tsx_tuning;
		data->sample_flags |= PERF_SAMPLE_WEIGHT_TYPE;
	}
	if (type & PERF_SAMPLE_DATA_SRC) {
		data->data_src.val = intel_pebs_data_src(kind, mem->dse);
		data->sample_flags |= PERF_SAMPLE_DATA_SRC;
	}
}

/* Make @event's sample of the record @r. */
static void intel_pebs_sample(struct perf_event *event,
			      const struct intel_pebs_rec *r,
			      struct pt_regs *iregs,
			      struct perf_sample_data *data,
			      struct x86_perf_regs *pregs)
{
	struct pt_regs *regs = &pregs->regs;
	u64 type = event->attr.sample_type;
	bool exact;
	u64 ip;

	perf_sample_data_init(data, 0, event->hw.last_period);
	*regs = *iregs;
	pregs->xmm_regs = NULL;
	if (r->gprs) {
		regs->flags = r->flags;
		intel_pebs_set_gprs(regs, r, type & (PERF_SAMPLE_REGS_INTR |
						     PERF_SAMPLE_REGS_USER));
	}
	/* The instruction itself where asked and known, else the next. */
	exact = r->ip && (event->attr.precise_ip >= 2 || !r->next_ip);
	ip = exact ? r->ip : r->next_ip;
	intel_pebs_set_ip(regs, ip, exact);
	if (r->xmm && (type & PERF_SAMPLE_REGS_INTR))
		pregs->xmm_regs = r->xmm;

	intel_pebs_mem_fields(event, data, r->mem);
	intel_pebs_time(event, data, r->tsc);
	if (iregs != &intel_pebs_no_regs)
		perf_sample_save_callchain(data, event, iregs);
	if (has_branch_stack(event))
		perf_sample_save_brstack(data, event, r->lbr ?
			intel_lbr_record_sample(event, r->lbr, r->lbr_nr) :
			x86_pmu.branch_sample(event));
}

/*
 * Fold into an auto-reloading event what its counter counted, @n
 * records of it since the last time: each reloaded it to minus its
 * period as it overflowed.
 */
static void intel_pebs_reload_update(struct perf_event *event, unsigned int n)
{
	struct hw_perf_event *hwc = &event->hw;
	int shift = 64 - x86_pmu.width;
	s64 prev, now, period;

	/* The reset value is minus the period, as wide as the counter. */
	period = -((s64)(*intel_pebs_reset_slot(hwc->idx) << shift) >> shift);
	prev = (s64)(local64_read(&hwc->prev_count) << shift) >> shift;
	now = native_read_pmc(x86_pmu.rdpmc_index(hwc->idx));
	local64_set(&hwc->prev_count, now);
	now = (s64)((u64)now << shift) >> shift;
	local64_add(now - prev + n * period, &event->count);
	/* What is left before the next record: the counter counts up to 0. */
	local64_set(&hwc->period_left, now < 0 ? -now : 1);
}

/*
 * Bring @event's count up to date for @n records of it, before its
 * samples: true if they are due (a counter that does not reload itself
 * may have overflowed before its period ran out).
 */
static bool intel_pebs_count(struct perf_event *event, unsigned int n)
{
	if (event->hw.x86_flags & X86_EVENT_AUTO_RELOAD) {
		intel_pebs_reload_update(event, n);
		return true;
	}
	x86_event_update(event);
	if (local64_read(&event->hw.period_left) > 0) {
		x86_event_set_period(event);
		return false;
	}
	x86_event_set_period(event);
	return true;
}

/**
 * intel_pebs_drain - turn the records in this CPU's buffer into samples
 * @iregs: the registers the PMI interrupted; NULL elsewhere (a task
 *	switch, a read, an event leaving its counter), with the counters
 *	stopped
 *
 * Return: how many events had records.
 */
int intel_pebs_drain(struct pt_regs *iregs)
{
	struct intel_pebs_cpu *pc = this_cpu_ptr(&intel_pebs_cpu);
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	struct debug_store *ds = intel_ds_area();
	unsigned int left[X86_PMC_MAX] = {};
	struct x86_perf_regs pregs;
	struct perf_sample_data data;
	struct intel_pebs_rec r;
	unsigned long bits, due = 0;
	struct perf_event *event;
	void *base, *top, *p;
	int idx, events = 0;
	unsigned int size;

	if (READ_ONCE(pc->draining) || !ds->pebs_buffer_base)
		return 0;
	base = (void *)(unsigned long)ds->pebs_buffer_base;
	top = (void *)(unsigned long)ds->pebs_index;
	if (top <= base)
		return 0;
	/* Before the records are read: an NMI now leaves them to us. */
	WRITE_ONCE(pc->draining, true);
	barrier();
	if (!iregs)
		iregs = &intel_pebs_no_regs;

	for (p = base; p < top; p += size) {
		size = intel_pebs_size(p);
		if (WARN_ON_ONCE(size < sizeof(struct intel_pebs_basic)))
			goto out;
		bits = intel_pebs_status(p) & READ_ONCE(cpuc->precise);
		for_each_set_bit(idx, &bits, X86_PMC_MAX)
			left[idx]++;
	}
	for (idx = 0; idx < X86_PMC_MAX; idx++) {
		if (!left[idx] || !cpuc->on[idx])
			continue;
		events++;
		if (intel_pebs_count(cpuc->on[idx], left[idx]))
			due |= BIT_ULL(idx);
	}

	for (p = base; p < top && due; p += intel_pebs_size(p)) {
		bits = intel_pebs_status(p) & due;
		if (!bits)
			continue;
		if (intel_pebs_hw.adaptive)
			intel_pebs_parse_adaptive(&r, p);
		else
			intel_pebs_parse_fixed(&r, p);
		for_each_set_bit(idx, &bits, X86_PMC_MAX) {
			event = cpuc->on[idx];
			intel_pebs_sample(event, &r, iregs, &data, &pregs);
			if (--left[idx]) {
				perf_event_output(event, &data, &pregs.regs);
				continue;
			}
			due &= ~BIT_ULL(idx);
			if (perf_event_overflow(event, &data, &pregs.regs))
				x86_pmu_stop(event, 0);
		}
	}
out:
	ds->pebs_index = ds->pebs_buffer_base;
	barrier();
	WRITE_ONCE(pc->draining, false);
	return events;
}

/*
 * perf's data source fields (include/uapi/linux/perf_event.h: union
 * perf_mem_data_src): a level, whether it hit, the snoop, the TLB.
 */
#define SRC(field, value)	PERF_MEM_S(field, value)
#define SRC_LOAD_AT(lvl, num)						\
	(SRC(OP, LOAD) | SRC(LVL, lvl) | SRC(LVL, HIT) | SRC(LVLNUM, num))

/*
 * Where a load found its data, by the load latency facility's data
 * source (bits 3:0): a level of the core's caches, of the L3 with what
 * the snoop of the other cores found, or beyond the L3.
 */
static const u64 intel_ldlat_src[16] = {
	[0x0] = SRC(OP, LOAD) | SRC(LVL, L3) | SRC(LVL, MISS) |
		SRC(LVLNUM, L3) | SRC(SNOOP, NA),
	[0x1] = SRC_LOAD_AT(L1, L1) | SRC(SNOOP, NONE),
	[0x2] = SRC_LOAD_AT(LFB, LFB) | SRC(SNOOP, NONE),
	[0x3] = SRC_LOAD_AT(L2, L2) | SRC(SNOOP, NONE),
	[0x4] = SRC_LOAD_AT(L3, L3) | SRC(SNOOP, NONE),
	[0x5] = SRC_LOAD_AT(L3, L3) | SRC(SNOOP, MISS),
	[0x6] = SRC_LOAD_AT(L3, L3) | SRC(SNOOP, HIT),
	[0x7] = SRC_LOAD_AT(L3, L3) | SRC(SNOOP, HITM),
	[0x8] = SRC_LOAD_AT(REM_CCE1, ANY_CACHE) | SRC(SNOOP, HIT) |
		SRC(REMOTE, REMOTE),
	[0x9] = SRC_LOAD_AT(LOC_RAM, RAM) | SRC(SNOOP, HIT),
	[0xa] = SRC_LOAD_AT(LOC_RAM, RAM) | SRC(SNOOP, HIT),
	[0xb] = SRC_LOAD_AT(REM_RAM1, RAM) | SRC(SNOOP, HIT) |
		SRC(REMOTE, REMOTE),
	[0xc] = SRC(OP, LOAD) | SRC(LVL, IO) | SRC(LVL, HIT) |
		SRC(LVLNUM, IO) | SRC(SNOOP, NONE),
	[0xd] = SRC_LOAD_AT(REM_CCE1, ANY_CACHE) | SRC(SNOOP, HITM) |
		SRC(REMOTE, REMOTE),
	[0xe] = SRC(OP, LOAD) | SRC(LVL, IO) | SRC(LVL, HIT) |
		SRC(LVLNUM, IO) | SRC(SNOOP, NONE),
	[0xf] = SRC(OP, LOAD) | SRC(LVL, UNC) | SRC(LVL, HIT) |
		SRC(LVLNUM, NA) | SRC(SNOOP, NONE),
};

/* The load latency record's data source: bit 4 an STLB miss, 5 locked. */
#define INTEL_DSE_SRC		GENMASK_ULL(3, 0)
#define INTEL_DSE_STLB_MISS	BIT_ULL(4)
#define INTEL_DSE_LOCKED	BIT_ULL(5)
/* A store's (MEM_INST_RETIRED's stores): it hit L1. */
#define INTEL_DSE_STORE_L1_HIT	BIT_ULL(0)

/**
 * intel_pebs_data_src - a record's data source as perf's
 * @kind: the kind of event the record is of
 * @dse: the record's data source field
 *
 * Return: the PERF_SAMPLE_DATA_SRC value: PERF_MEM_NA for an event that
 * is not a load or store; the operation alone for a load whose source
 * the event does not see.
 */
u64 intel_pebs_data_src(enum intel_pebs_kind kind, u64 dse)
{
	union perf_mem_data_src src = { .val = PERF_MEM_NA };

	switch (kind) {
	case INTEL_PEBS_LDLAT:
		src.val = intel_ldlat_src[dse & INTEL_DSE_SRC] |
			  SRC(BLK, NA);
		if (dse & INTEL_DSE_STLB_MISS)
			src.val |= SRC(TLB, L2) | SRC(TLB, MISS);
		else
			src.val |= SRC(TLB, L1) | SRC(TLB, L2) | SRC(TLB, HIT);
		if (dse & INTEL_DSE_LOCKED)
			src.val |= SRC(LOCK, LOCKED);
		break;
	case INTEL_PEBS_LOAD:
		src.mem_op = PERF_MEM_OP_LOAD;
		break;
	case INTEL_PEBS_STORE:
		src.mem_op = PERF_MEM_OP_STORE;
		src.mem_lvl = PERF_MEM_LVL_L1 |
			      (dse & INTEL_DSE_STORE_L1_HIT ? PERF_MEM_LVL_HIT :
							      PERF_MEM_LVL_MISS);
		break;
	default:
		break;
	}
	return src.val;
}
