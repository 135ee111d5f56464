// SPDX-License-Identifier: GPL-2.0
/*
 * The Ice Lake and Sapphire Rapids core PMUs: Ice Lake client and server,
 * Tiger Lake and Rocket Lake; Sapphire Rapids and Emerald Rapids, and
 * the big cores of the Alder Lake and Raptor Lake hybrids
 * (architectural perfmon version 5, eight general counters, fixed
 * counter 3 for the issue slots and the topdown metrics of topdown.c).
 *
 * Event codes from Intel's event lists for the two microarchitectures,
 * checked against what Linux 6.1 programs for the same generic events
 * and which raw events it keeps to some counters, on the emulated models
 * of the harness (PMU=icelake, PMU=sapphirerapids; harness/models.sh).
 * The last-level cache and node events count offcore responses, as on
 * Skylake (skylake.c); Sapphire Rapids' with OCR, whose register values
 * for them this driver does not know yet: refused where the registers
 * are there (EOPNOTSUPP).
 */
#include <linux/perf_event.h>
#include <asm/msr-index.h>

#include "model.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/* OFFCORE_RESPONSE_0; Sapphire Rapids: OCR, event 0x2a */
#define ICL_OFFCORE_RESPONSE	0x01b7
#define SPR_OCR			0x012a

/* [cache][operation][access, miss], as in skylake.c. */
static const x86_cache_map_t icl_cache_map = {
	[C(L1D)] = {
		/*
		 * MEM_INST_RETIRED.ALL_LOADS, L1D.REPLACEMENT;
		 * MEM_INST_RETIRED.ALL_STORES
		 */
		[C(OP_READ)]		= { 0x81d0, 0x0151 },
		[C(OP_WRITE)]		= { 0x82d0, 0 },
	},
	[C(L1I)] = {
		/* ICACHE_64B.IFTAG_MISS */
		[C(OP_READ)]		= { 0, 0x0283 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(LL)] = {
		[C(OP_READ)]		= { ICL_OFFCORE_RESPONSE,
					    ICL_OFFCORE_RESPONSE },
		[C(OP_WRITE)]		= { ICL_OFFCORE_RESPONSE,
					    ICL_OFFCORE_RESPONSE },
	},
	[C(DTLB)] = {
		/* DTLB_LOAD_MISSES and DTLB_STORE_MISSES.WALK_COMPLETED */
		[C(OP_READ)]		= { 0x81d0, 0x0e08 },
		[C(OP_WRITE)]		= { 0x82d0, 0x0e49 },
	},
	[C(ITLB)] = {
		/* ITLB_MISSES.WALK_COMPLETED */
		[C(OP_READ)]		= { NONE, 0x0e85 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(BPU)] = {
		/* BR_INST_RETIRED.ALL_BRANCHES, BR_MISP_RETIRED.ALL_BRANCHES */
		[C(OP_READ)]		= { 0x00c4, 0x00c5 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(NODE)] = {
		[C(OP_READ)]		= { ICL_OFFCORE_RESPONSE,
					    ICL_OFFCORE_RESPONSE },
		[C(OP_WRITE)]		= { ICL_OFFCORE_RESPONSE,
					    ICL_OFFCORE_RESPONSE },
	},
};

static const x86_cache_map_t spr_cache_map = {
	[C(L1D)] = {
		/* L2_RQSTS.ALL_DEMAND_DATA_RD counts the L1D's misses */
		[C(OP_READ)]		= { 0x81d0, 0xe124 },
		[C(OP_WRITE)]		= { 0x82d0, 0 },
	},
	[C(L1I)] = {
		/* L2_RQSTS.ALL_CODE_RD */
		[C(OP_READ)]		= { 0, 0xe424 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(LL)] = {
		[C(OP_READ)]		= { SPR_OCR,
					    SPR_OCR },
		[C(OP_WRITE)]		= { SPR_OCR,
					    SPR_OCR },
	},
	[C(DTLB)] = {
		/* DTLB_LOAD_MISSES and DTLB_STORE_MISSES.WALK_COMPLETED */
		[C(OP_READ)]		= { 0x81d0, 0x0e12 },
		[C(OP_WRITE)]		= { 0x82d0, 0x0e13 },
	},
	[C(ITLB)] = {
		/* ITLB_MISSES.WALK_COMPLETED */
		[C(OP_READ)]		= { NONE, 0x0e11 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(BPU)] = {
		/* BR_INST_RETIRED and BR_MISP_RETIRED, unit mask 4 */
		[C(OP_READ)]		= { 0x04c4, 0x04c5 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(NODE)] = {
		[C(OP_READ)]		= { SPR_OCR,
					    SPR_OCR },
	},
};

#undef NONE
#undef C

/*
 * Most events count on the first four general counters only.  First the
 * exceptions: CYCLE_ACTIVITY's stall counts on any counter,
 * INST_RETIRED.PREC_DIST also on fixed counter 0 (its pseudo-event
 * 0x0100 only there); then the slots, fixed counter 3's alone, and
 * the topdown metrics, refused here: where IA32_PERF_METRICS is, they
 * are topdown.c's.
 */
static const struct intel_constraint icl_constraints[] = {
	INTEL_UMASK_ON(0x04a3, 0xff),
	INTEL_UMASK_ON(0x10a3, 0xff),
	INTEL_UMASK_ON(0x14a3, 0xff),
	INTEL_UMASK_ON(0x01c0, 0xff | INTEL_FIXED(0)),
	INTEL_UMASK_ON(0x0100, INTEL_FIXED(0)),
	INTEL_UMASK_ON(0x0400, INTEL_FIXED(3)),
	INTEL_UMASK_ON(0x8000, 0),
	INTEL_UMASK_ON(0x8100, 0),
	INTEL_UMASK_ON(0x8200, 0),
	INTEL_UMASK_ON(0x8300, 0),
	INTEL_RANGE_ON(0x03, 0x0a, 0xf),
	INTEL_RANGE_ON(0x1f, 0x28, 0xf),
	INTEL_EVENT_ON(0x0032, 0xf),
	INTEL_RANGE_ON(0x48, 0x56, 0xf),
	INTEL_RANGE_ON(0x60, 0x8b, 0xf),
	INTEL_EVENT_ON(0x00a3, 0xf),
	INTEL_RANGE_ON(0xa8, 0xb0, 0xf),
	INTEL_RANGE_ON(0xb7, 0xbd, 0xf),
	INTEL_RANGE_ON(0xd0, 0xe6, 0xf),
	INTEL_RANGE_ON(0xef, 0xf4, 0xf),
};

/*
 * Sapphire Rapids: most events on the first four general counters too,
 * a few on the first alone; eight topdown metrics, two levels.
 */
static const struct intel_constraint spr_constraints[] = {
	INTEL_UMASK_ON(0x0100, INTEL_FIXED(0)),
	INTEL_UMASK_ON(0x0400, INTEL_FIXED(3)),
	INTEL_UMASK_ON(0x8000, 0),
	INTEL_UMASK_ON(0x8100, 0),
	INTEL_UMASK_ON(0x8200, 0),
	INTEL_UMASK_ON(0x8300, 0),
	INTEL_UMASK_ON(0x8400, 0),
	INTEL_UMASK_ON(0x8500, 0),
	INTEL_UMASK_ON(0x8600, 0),
	INTEL_UMASK_ON(0x8700, 0),
	INTEL_RANGE_ON(0x01, 0x2d, 0xf),
	INTEL_RANGE_ON(0x2f, 0x3b, 0xf),
	INTEL_RANGE_ON(0x3d, 0x8f, 0xf),
	INTEL_UMASK_ON(0x01a3, 0xf),	/* CYCLE_ACTIVITY */
	INTEL_UMASK_ON(0x02a3, 0xf),
	INTEL_UMASK_ON(0x08a3, 0xf),
	INTEL_UMASK_ON(0x04a4, BIT(0)),	/* TOPDOWN */
	INTEL_UMASK_ON(0x08a4, BIT(0)),
	INTEL_UMASK_ON(0x02cd, BIT(0)),	/* MEM_TRANS_RETIRED.STORE_SAMPLE */
	INTEL_EVENT_ON(0x00ce, BIT(0)),	/* AMX_OPS_RETIRED */
	INTEL_RANGE_ON(0xd0, 0xdf, 0xf),
};

/*
 * OFFCORE_RESPONSE_0 and _1, FRONTEND_RETIRED and
 * MEM_TRANS_RETIRED.LOAD_LATENCY.
 */
static const struct intel_extra_msr icl_extra_msrs[] = {
	{ ICL_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	ICL_RSP_VALID },
	{ 0x01bb,		MSR_OFFCORE_RSP_1,	ICL_RSP_VALID },
	{ 0x01c6,		MSR_PEBS_FRONTEND,	SKL_FRONTEND_VALID },
	{ 0x01cd,		MSR_PEBS_LD_LAT_THRESHOLD, INTEL_LDLAT_VALID },
};

/*
 * Sapphire Rapids: OCR (the offcore responses, events 0x2a and 0x2b),
 * FRONTEND_RETIRED and the events that share its MSR, and
 * MEM_TRANS_RETIRED.LOAD_LATENCY.
 */
static const struct intel_extra_msr spr_extra_msrs[] = {
	{ SPR_OCR,		MSR_OFFCORE_RSP_0,	SPR_RSP_VALID },
	{ 0x012b,		MSR_OFFCORE_RSP_1,	SPR_RSP_VALID },
	{ 0x01c6,		MSR_PEBS_FRONTEND,	SPR_FRONTEND_VALID },
	{ 0x40ad,		MSR_PEBS_FRONTEND,	SPR_FE_LATENCY_VALID },
	{ 0x04c2,		MSR_PEBS_FRONTEND,	SPR_FE_SLOTS_VALID },
	{ 0x01cd,		MSR_PEBS_LD_LAT_THRESHOLD, INTEL_LDLAT_VALID },
};

/*
 * Ice Lake's adaptive PEBS: every counter writes records, the fixed
 * ones too; INST_RETIRED.PREC_DIST on fixed counter 0 only, the slots on
 * fixed counter 3, the load latency event on any general counter, the
 * memory events as on Skylake.
 */
static const struct intel_pebs_event icl_pebs_events[] = {
	{ INTEL_UMASK_ON(0x01c0, INTEL_FIXED(0)), INTEL_PEBS_PLAIN },
	{ INTEL_UMASK_ON(0x0100, INTEL_FIXED(0)), INTEL_PEBS_PLAIN },
	{ INTEL_UMASK_ON(0x0400, INTEL_FIXED(3)), INTEL_PEBS_PLAIN },
	{ INTEL_UMASK_ON(0x01cd, 0xff),		INTEL_PEBS_LDLAT },
	{ INTEL_UMASK_ON(0x11d0, 0xf),		INTEL_PEBS_LOAD },
	{ INTEL_UMASK_ON(0x21d0, 0xf),		INTEL_PEBS_LOAD },
	{ INTEL_UMASK_ON(0x41d0, 0xf),		INTEL_PEBS_LOAD },
	{ INTEL_UMASK_ON(0x81d0, 0xf),		INTEL_PEBS_LOAD },
	{ INTEL_UMASK_ON(0x12d0, 0xf),		INTEL_PEBS_STORE },
	{ INTEL_UMASK_ON(0x42d0, 0xf),		INTEL_PEBS_STORE },
	{ INTEL_UMASK_ON(0x82d0, 0xf),		INTEL_PEBS_STORE },
	{ INTEL_RANGE_ON(0xd1, 0xd4, 0xf),	INTEL_PEBS_LOAD },
};

const struct intel_pebs intel_pebs_icl = {
	.events		= icl_pebs_events,
	.n_events	= ARRAY_SIZE(icl_pebs_events),
	.prec_dist	= true,
	.mem_events	= intel_mem_events,
};

const struct intel_model intel_icelake = {
	.name		= "Icelake events",
	.pmu_name	= "icelake",
	.cache_map	= &icl_cache_map,
	.cache_extra	= &intel_skl_cache_extra,
	.constraints	= icl_constraints,
	.n_constraints	= ARRAY_SIZE(icl_constraints),
	.extra_msrs	= icl_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(icl_extra_msrs),
	.format_attrs	= intel_frontend_format,
	.metrics	= 4,
	.lbr		= &intel_lbr_skl,
	.pebs		= &intel_pebs_icl,
};

/* Golden Cove's tables: Sapphire Rapids', and Alder Lake's big cores'. */
#define GLC_TABLES							\
	.cache_map	= &spr_cache_map,				\
	.constraints	= spr_constraints,				\
	.n_constraints	= ARRAY_SIZE(spr_constraints),			\
	.extra_msrs	= spr_extra_msrs,				\
	.n_extra_msrs	= ARRAY_SIZE(spr_extra_msrs),			\
	.format_attrs	= intel_frontend_format,			\
	.metrics	= 8

const struct intel_model intel_sapphirerapids = {
	.name		= "Sapphire Rapids events",
	.pmu_name	= "sapphire_rapids",
	GLC_TABLES,
};

/*
 * Alder Lake's and Raptor Lake's big cores (Golden Cove, Raptor Cove)
 * have Sapphire Rapids' core PMU and two general counters and the slots
 * counter more than CPUID 0xA says; the hybrid shows its memory events
 * (MEM_TRANS_RETIRED.LOAD_LATENCY, MEM_INST_RETIRED.ALL_STORES, and
 * mem-loads-aux, which perf opens with mem-loads) on both kinds of core.
 */
X86_EVENT_STR_ATTR(adl_mem_loads, "mem-loads",
		   "event=0xcd,umask=0x1,ldlat=3");
X86_EVENT_STR_ATTR(adl_mem_loads_aux, "mem-loads-aux",
		   "event=0x03,umask=0x82");
X86_EVENT_STR_ATTR(adl_mem_stores, "mem-stores", "event=0xcd,umask=0x2");

static struct attribute *adl_event_attrs[] = {
	&adl_mem_loads.attr.attr,
	&adl_mem_loads_aux.attr.attr,
	&adl_mem_stores.attr.attr,
	NULL,
};

const struct intel_model intel_alderlake = {
	.name		= "Alderlake Hybrid events",
	.pmu_name	= "alderlake_hybrid",
	GLC_TABLES,
	.event_attrs	= adl_event_attrs,
	.atom		= &intel_alderlake_atom,
	.more_gp	= 2,
	.more_fixed	= 1,
};
