// SPDX-License-Identifier: GPL-2.0
/*
 * The Haswell and Broadwell core PMUs (architectural perfmon version 3,
 * four general counters and three fixed ones, full-width writes).
 *
 * Event codes from Intel's event lists for 4th and 5th generation Core
 * processors, checked against what Linux 6.1 programs for the same
 * generic events and which raw events it keeps to some counters, on the
 * emulated models of the harness (PMU=haswell, PMU=broadwell;
 * harness/models.sh): the two differ only in the events they keep to
 * some counters.  The last-level cache and node events count offcore
 * responses, as on Skylake (skylake.c).
 *
 * As 6.1 has it (hw_min_period_test): Haswell's counters take no sample
 * period shorter than 32, and on both none of INST_RETIRED.PREC_DIST
 * shorter than 128.
 */
#include <linux/perf_event.h>
#include <asm/msr-index.h>

#include "model.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/* OFFCORE_RESPONSE_0 */
#define HSW_OFFCORE_RESPONSE	0x01b7

/* [cache][operation][access, miss], as in skylake.c. */
static const x86_cache_map_t hsw_cache_map = {
	[C(L1D)] = {
		/*
		 * MEM_UOPS_RETIRED.ALL_LOADS, L1D.REPLACEMENT;
		 * MEM_UOPS_RETIRED.ALL_STORES
		 */
		[C(OP_READ)]		= { 0x81d0, 0x0151 },
		[C(OP_WRITE)]		= { 0x82d0, 0 },
	},
	[C(L1I)] = {
		/* ICACHE.MISSES */
		[C(OP_READ)]		= { 0, 0x0280 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(LL)] = {
		[C(OP_READ)]		= { HSW_OFFCORE_RESPONSE,
					    HSW_OFFCORE_RESPONSE },
		[C(OP_WRITE)]		= { HSW_OFFCORE_RESPONSE,
					    HSW_OFFCORE_RESPONSE },
	},
	[C(DTLB)] = {
		/* DTLB_LOAD_MISSES and DTLB_STORE_MISSES.MISS_CAUSES_A_WALK */
		[C(OP_READ)]		= { 0x81d0, 0x0108 },
		[C(OP_WRITE)]		= { 0x82d0, 0x0149 },
	},
	[C(ITLB)] = {
		/* ITLB_MISSES.STLB_HIT, ITLB_MISSES.MISS_CAUSES_A_WALK */
		[C(OP_READ)]		= { 0x6085, 0x0185 },
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
		[C(OP_READ)]		= { HSW_OFFCORE_RESPONSE,
					    HSW_OFFCORE_RESPONSE },
		[C(OP_WRITE)]		= { HSW_OFFCORE_RESPONSE,
					    HSW_OFFCORE_RESPONSE },
	},
};

#undef NONE

static const struct intel_constraint hsw_constraints[] = {
	INTEL_UMASK_ON(0x0148, BIT(2)),	/* L1D_PEND_MISS.PENDING */
	INTEL_UMASK_ON(0x08a3, BIT(2)),	/* CYCLE_ACTIVITY */
	INTEL_UMASK_ON(0x0ca3, BIT(2)),
	INTEL_UMASK_ON(0x01c0, BIT(1)),	/* INST_RETIRED.PREC_DIST */
	INTEL_EVENT_ON(0x00cd, BIT(3)),	/* MEM_TRANS_RETIRED */
};

/*
 * Broadwell: L1D_PEND_MISS.PENDING, and the CYCLE_ACTIVITY events that
 * count L1D misses pending (unit mask bit 3), on IA32_PMC2.
 */
static const struct intel_constraint bdw_constraints[] = {
	INTEL_UMASK_ON(0x0148, BIT(2)),
	{ 0x08a3, INTEL_MATCH_EVENT | 0x0800, 0, BIT(2) },
};

/*
 * OFFCORE_RESPONSE_0 and _1, and MEM_TRANS_RETIRED.LOAD_LATENCY with
 * its threshold.
 */
/*
 * What OFFCORE_RESPONSE counts for the LL and NODE events (as on
 * Skylake, skylake.c, less what Haswell's register does not have): a
 * last-level miss is a load or store served by DRAM, local or remote
 * (on Haswell also by what is not DRAM; Broadwell's local DRAM has
 * another bit).
 */
#define HSW_LL_ACCESS		RSP_ANY_RESPONSE
#define HSW_LL_MISS		(HSW_RSP_LOCAL_DRAM | RSP_REMOTE_DRAM |	\
				 RSP_SNOOP_DRAM | RSP_SNOOP_NON_DRAM)
#define HSW_NODE_ACCESS		(HSW_RSP_LOCAL_DRAM | RSP_SNOOP_DRAM)
#define BDW_LL_MISS		(BDW_RSP_LOCAL_DRAM | RSP_REMOTE_DRAM |	\
				 RSP_SNOOP_DRAM)
#define BDW_NODE_ACCESS		(BDW_RSP_LOCAL_DRAM | RSP_SNOOP_DRAM)
#define HSW_NODE_MISS		(RSP_REMOTE_DRAM | RSP_SNOOP_DRAM)

static const x86_cache_map_t hsw_cache_extra = {
	[C(LL)] = {
		[C(OP_READ)]	= { RSP_DMND_DATA_RD | HSW_LL_ACCESS,
				    RSP_DMND_DATA_RD | HSW_LL_MISS },
		[C(OP_WRITE)]	= { RSP_DMND_RFO | HSW_LL_ACCESS,
				    RSP_DMND_RFO | HSW_LL_MISS },
	},
	[C(NODE)] = {
		[C(OP_READ)]	= { RSP_DMND_DATA_RD | HSW_NODE_ACCESS,
				    RSP_DMND_DATA_RD | HSW_NODE_MISS },
		[C(OP_WRITE)]	= { RSP_DMND_RFO | HSW_NODE_ACCESS,
				    RSP_DMND_RFO | HSW_NODE_MISS },
	},
};

static const x86_cache_map_t bdw_cache_extra = {
	[C(LL)] = {
		[C(OP_READ)]	= { RSP_DMND_DATA_RD | HSW_LL_ACCESS,
				    RSP_DMND_DATA_RD | BDW_LL_MISS },
		[C(OP_WRITE)]	= { RSP_DMND_RFO | HSW_LL_ACCESS,
				    RSP_DMND_RFO | BDW_LL_MISS },
	},
	[C(NODE)] = {
		[C(OP_READ)]	= { RSP_DMND_DATA_RD | BDW_NODE_ACCESS,
				    RSP_DMND_DATA_RD | HSW_NODE_MISS },
		[C(OP_WRITE)]	= { RSP_DMND_RFO | BDW_NODE_ACCESS,
				    RSP_DMND_RFO | HSW_NODE_MISS },
	},
};

static const struct intel_extra_msr hsw_extra_msrs[] = {
	{ HSW_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	HSW_RSP_VALID },
	{ 0x01bb,		MSR_OFFCORE_RSP_1,	HSW_RSP_VALID },
	{ 0x01cd,		MSR_PEBS_LD_LAT_THRESHOLD, INTEL_LDLAT_VALID },
};

const struct intel_model intel_haswell = {
	.name		= "Haswell events",
	.pmu_name	= "haswell",
	.cache_map	= &hsw_cache_map,
	.cache_extra	= &hsw_cache_extra,
	.constraints	= hsw_constraints,
	.n_constraints	= ARRAY_SIZE(hsw_constraints),
	.extra_msrs	= hsw_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(hsw_extra_msrs),
	.format_attrs	= intel_ldlat_format,
	.event_attrs	= intel_snb_topdown_events,
	.min_period	= 32,
	.prec_dist_period = 128,
	.lbr		= &intel_lbr_hsw,
};

const struct intel_model intel_broadwell = {
	.name		= "Broadwell events",
	.pmu_name	= "broadwell",
	.cache_map	= &hsw_cache_map,
	.cache_extra	= &bdw_cache_extra,
	.constraints	= bdw_constraints,
	.n_constraints	= ARRAY_SIZE(bdw_constraints),
	.extra_msrs	= hsw_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(hsw_extra_msrs),
	.format_attrs	= intel_ldlat_format,
	.event_attrs	= intel_snb_topdown_events,
	.prec_dist_period = 128,
	.lbr		= &intel_lbr_hsw,
};

#undef C
