// SPDX-License-Identifier: GPL-2.0
/*
 * The first two Atom core PMUs: Bonnell and Saltwell, and Silvermont and
 * Airmont (architectural perfmon version 3, two general counters and
 * three fixed ones).
 *
 * Event codes from the Intel SDM vol. 3B, "Performance Monitoring Events
 * for Intel Atom Processors" and "... Based on the Silvermont
 * Microarchitecture", checked against what Linux 6.1 programs for the
 * same generic events on the emulated models of the harness
 * (PMU=bonnell, PMU=silvermont; harness/models.sh).  Neither keeps an
 * event to one counter.
 */
#include <linux/perf_event.h>
#include <asm/msr-index.h>

#include "model.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/* [cache][operation][access, miss], as in skylake.c. */
static const x86_cache_map_t bnl_cache_map = {
	[C(L1D)] = {
		/* L1D_CACHE.LD, L1D_CACHE.ST */
		[C(OP_READ)]		= { 0x2140, 0 },
		[C(OP_WRITE)]		= { 0x2240, 0 },
	},
	[C(L1I)] = {
		/* ICACHE.ACCESSES, ICACHE.MISSES */
		[C(OP_READ)]		= { 0x0380, 0x0280 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(LL)] = {
		/* L2_LD and L2_ST: all states, invalid (missing) */
		[C(OP_READ)]		= { 0x4f29, 0x4129 },
		[C(OP_WRITE)]		= { 0x4f2a, 0x412a },
	},
	[C(DTLB)] = {
		/* the L1D accesses, DATA_TLB_MISSES.DTLB_MISS_LD and _ST */
		[C(OP_READ)]		= { 0x2140, 0x0508 },
		[C(OP_WRITE)]		= { 0x2240, 0x0608 },
	},
	[C(ITLB)] = {
		/* INST_RETIRED.ANY_P, ITLB.MISSES */
		[C(OP_READ)]		= { 0x00c0, 0x0282 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(BPU)] = {
		/* BR_INST_RETIRED.ANY, BR_INST_RETIRED.MISPRED */
		[C(OP_READ)]		= { 0x00c4, 0x00c5 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
};

const struct intel_model intel_bonnell = {
	.name		= "Atom events",
	.pmu_name	= "bonnell",
	.cache_map	= &bnl_cache_map,
	.lbr		= &intel_lbr_atom,
};

/* OFFCORE_RESPONSE_0; _1 is umask 2 */
#define SLM_OFFCORE_RESPONSE	0x01b7

static const x86_cache_map_t slm_cache_map = {
	[C(L1D)] = {
		/* MEM_UOPS_RETIRED.L1_MISS_LOADS */
		[C(OP_READ)]		= { 0, 0x0104 },
	},
	[C(L1I)] = {
		/* ICACHE.ACCESSES, ICACHE.MISSES */
		[C(OP_READ)]		= { 0x0380, 0x0280 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(LL)] = {
		[C(OP_READ)]		= { SLM_OFFCORE_RESPONSE, 0 },
		[C(OP_WRITE)]		= { SLM_OFFCORE_RESPONSE,
					    SLM_OFFCORE_RESPONSE },
		[C(OP_PREFETCH)]	= { SLM_OFFCORE_RESPONSE,
					    SLM_OFFCORE_RESPONSE },
	},
	[C(DTLB)] = {
		/* MEM_UOPS_RETIRED.DTLB_MISS_LOADS */
		[C(OP_READ)]		= { 0, 0x0804 },
	},
	[C(ITLB)] = {
		/* INST_RETIRED.ANY_P, PAGE_WALKS.I_SIDE_WALKS (edges) */
		[C(OP_READ)]		= { 0x00c0,
					    0x0205 | ARCH_PERFMON_EVENTSEL_EDGE },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(BPU)] = {
		/* BR_INST_RETIRED.ANY, BR_MISP_RETIRED.ALL_BRANCHES */
		[C(OP_READ)]		= { 0x00c4, 0x00c5 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
};

#undef NONE
#undef C

static const struct intel_extra_msr slm_extra_msrs[] = {
	{ SLM_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	SLM_RSP_0_VALID },
	{ 0x02b7,		MSR_OFFCORE_RSP_1,	SLM_RSP_1_VALID },
};

/*
 * The top-down method on Silvermont: two issue slots a cycle; slots
 * issued and retired both count UOPS_RETIRED.ALL, the front end's empty
 * slots NO_ALLOC_CYCLES.NOT_DELIVERED (two a cycle).
 */
X86_EVENT_STR_ATTR(slm_td_total, "topdown-total-slots", "event=0x3c");
X86_EVENT_STR_ATTR(slm_td_total_scale, "topdown-total-slots.scale", "2");
X86_EVENT_STR_ATTR(slm_td_issued, "topdown-slots-issued",
		   "event=0xc2,umask=0x10");
X86_EVENT_STR_ATTR(slm_td_retired, "topdown-slots-retired",
		   "event=0xc2,umask=0x10");
X86_EVENT_STR_ATTR(slm_td_fetch, "topdown-fetch-bubbles",
		   "event=0xca,umask=0x50");
X86_EVENT_STR_ATTR(slm_td_fetch_scale, "topdown-fetch-bubbles.scale", "2");

static struct attribute *slm_event_attrs[] = {
	&slm_td_total.attr.attr,
	&slm_td_total_scale.attr.attr,
	&slm_td_issued.attr.attr,
	&slm_td_retired.attr.attr,
	&slm_td_fetch.attr.attr,
	&slm_td_fetch_scale.attr.attr,
	NULL,
};

const struct intel_model intel_silvermont = {
	.name		= "Silvermont events",
	.pmu_name	= "silvermont",
	.cache_map	= &slm_cache_map,
	.extra_msrs	= slm_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(slm_extra_msrs),
	.format_attrs	= intel_offcore_format,
	.event_attrs	= slm_event_attrs,
	.lbr		= &intel_lbr_slm,
};
