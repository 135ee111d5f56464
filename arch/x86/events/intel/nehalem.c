// SPDX-License-Identifier: GPL-2.0
/*
 * The Nehalem and Westmere core PMUs (architectural perfmon version 3,
 * four general counters and three fixed ones).
 *
 * Event codes from the Intel SDM vol. 3B, "Performance Monitoring Events
 * for Processors Based on Intel Microarchitecture Code Name Nehalem" and
 * "... Westmere", checked against what Linux 6.1 programs for the same
 * generic events and which raw events it keeps to some counters, on the
 * emulated models of the harness (PMU=nehalem, PMU=westmere;
 * harness/models.sh).
 *
 * The last-level cache and node events count offcore responses, whose
 * kind is in MSR_OFFCORE_RSP_0, as on Skylake (skylake.c).
 *
 * Nehalem's counters (not Westmere's) take no sample period shorter
 * than 32, as 6.1 has it (hw_min_period_test).
 */
#include <linux/perf_event.h>
#include <linux/string.h>
#include <asm/msr-index.h>

#include "model.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/* OFFCORE_RESPONSE_0 */
#define NHM_OFFCORE_RESPONSE	0x01b7

/*
 * Stalls: cycles in which no micro-op is issued (UOPS_ISSUED.ANY,
 * inverted, counter mask 1), and in which none is executed on any port
 * (UOPS_EXECUTED, all ports, the same).
 */
#define NHM_STALL(code)	((code) | ARCH_PERFMON_EVENTSEL_INV |		\
			 (1ULL << 24))

static const struct intel_event_code nhm_events[] = {
	{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,	NHM_STALL(0x010e) },
	{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND,		NHM_STALL(0x3fb1) },
};

/*
 * [cache][operation][access, miss], as in skylake.c; Westmere's differs
 * in its TLB entries only, and is made from it at boot.
 */
static const x86_cache_map_t nhm_cache_map = {
	[C(L1D)] = {
		/* MEM_INST_RETIRED.LOADS, L1D.REPL */
		[C(OP_READ)]		= { 0x010b, 0x0151 },
		/* MEM_INST_RETIRED.STORES, L1D.M_REPL */
		[C(OP_WRITE)]		= { 0x020b, 0x0251 },
		/* L1D_PREFETCH.REQUESTS, .MISS */
		[C(OP_PREFETCH)]	= { 0x014e, 0x024e },
	},
	[C(L1I)] = {
		/* L1I.READS, L1I.MISSES */
		[C(OP_READ)]		= { 0x0380, 0x0280 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(LL)] = {
		[C(OP_READ)]		= { NHM_OFFCORE_RESPONSE,
					    NHM_OFFCORE_RESPONSE },
		[C(OP_WRITE)]		= { NHM_OFFCORE_RESPONSE,
					    NHM_OFFCORE_RESPONSE },
		[C(OP_PREFETCH)]	= { NHM_OFFCORE_RESPONSE,
					    NHM_OFFCORE_RESPONSE },
	},
	[C(DTLB)] = {
		/* L1D_CACHE_LD.MESI, DTLB_LOAD_MISSES.ANY */
		[C(OP_READ)]		= { 0x0f40, 0x0108 },
		/* L1D_CACHE_ST.MESI, MEM_STORE_RETIRED.DTLB_MISS */
		[C(OP_WRITE)]		= { 0x0f41, 0x010c },
	},
	[C(ITLB)] = {
		/* INST_RETIRED.ANY_P, ITLB_MISS_RETIRED */
		[C(OP_READ)]		= { 0x01c0, 0x20c8 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(BPU)] = {
		/* BR_INST_RETIRED.ALL_BRANCHES, BPU_CLEARS.ANY */
		[C(OP_READ)]		= { 0x00c4, 0x03e8 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(NODE)] = {
		[C(OP_READ)]		= { NHM_OFFCORE_RESPONSE,
					    NHM_OFFCORE_RESPONSE },
		[C(OP_WRITE)]		= { NHM_OFFCORE_RESPONSE,
					    NHM_OFFCORE_RESPONSE },
		[C(OP_PREFETCH)]	= { NHM_OFFCORE_RESPONSE,
					    NHM_OFFCORE_RESPONSE },
	},
};

static x86_cache_map_t wsm_cache_map __ro_after_init;

/*
 * Westmere: the DTLB accesses are MEM_INST_RETIRED.LOADS and .STORES,
 * the ITLB misses ITLB_MISSES.ANY.
 */
static void wsm_init(void)
{
	memcpy(wsm_cache_map, nhm_cache_map, sizeof(wsm_cache_map));
	wsm_cache_map[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x010b;
	wsm_cache_map[C(DTLB)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x020b;
	wsm_cache_map[C(ITLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0185;
}

#undef NONE

/*
 * MSR_OFFCORE_RSP_0's fields (Intel SDM vol. 3B, "Off-core Response
 * Performance Monitoring ... Nehalem"): request types in the low byte,
 * who answered in the high one.
 */
#define NHM_DMND_DATA_RD	BIT_ULL(0)
#define NHM_DMND_RFO		BIT_ULL(1)
#define NHM_WB			BIT_ULL(3)
#define NHM_PF_DATA_RD		BIT_ULL(4)
#define NHM_PF_RFO		BIT_ULL(5)
#define NHM_UNCORE_HIT		BIT_ULL(8)
#define NHM_OTHER_CORE_HIT_SNP	BIT_ULL(9)
#define NHM_OTHER_CORE_HITM	BIT_ULL(10)
#define NHM_REMOTE_CACHE_FWD	BIT_ULL(12)
#define NHM_REMOTE_DRAM		BIT_ULL(13)
#define NHM_LOCAL_DRAM		BIT_ULL(14)
#define NHM_NON_DRAM		BIT_ULL(15)

/*
 * What OFFCORE_RESPONSE counts for the LL and NODE events: reads,
 * writes (RFOs and write-backs) and prefetches that the last level
 * answers (hits in L3, or another core's cache) or does not (memory,
 * or another socket); and those any node's memory answers (or another
 * socket's cache), and a remote node's.
 */
#define NHM_READ		NHM_DMND_DATA_RD
#define NHM_WRITE		(NHM_DMND_RFO | NHM_WB)
#define NHM_PREFETCH		(NHM_PF_DATA_RD | NHM_PF_RFO)
#define NHM_LL_HIT		(NHM_UNCORE_HIT | NHM_OTHER_CORE_HIT_SNP | \
				 NHM_OTHER_CORE_HITM)
#define NHM_LL_MISS		(NHM_REMOTE_CACHE_FWD | NHM_REMOTE_DRAM | \
				 NHM_LOCAL_DRAM | NHM_NON_DRAM)
#define NHM_NODE_ACCESS		(NHM_REMOTE_CACHE_FWD | NHM_REMOTE_DRAM | \
				 NHM_LOCAL_DRAM)
#define NHM_NODE_MISS		NHM_REMOTE_DRAM

#define NHM_LL_ACCESS		(NHM_LL_HIT | NHM_LL_MISS)

static const x86_cache_map_t nhm_cache_extra = {
	[C(LL)] = {
		[C(OP_READ)]		= { NHM_READ | NHM_LL_ACCESS,
					    NHM_READ | NHM_LL_MISS },
		[C(OP_WRITE)]		= { NHM_WRITE | NHM_LL_ACCESS,
					    NHM_WRITE | NHM_LL_MISS },
		[C(OP_PREFETCH)]	= { NHM_PREFETCH | NHM_LL_ACCESS,
					    NHM_PREFETCH | NHM_LL_MISS },
	},
	[C(NODE)] = {
		[C(OP_READ)]		= { NHM_READ | NHM_NODE_ACCESS,
					    NHM_READ | NHM_NODE_MISS },
		[C(OP_WRITE)]		= { NHM_WRITE | NHM_NODE_ACCESS,
					    NHM_WRITE | NHM_NODE_MISS },
		[C(OP_PREFETCH)]	= { NHM_PREFETCH | NHM_NODE_ACCESS,
					    NHM_PREFETCH | NHM_NODE_MISS },
	},
};

/* The L1D events count on IA32_PMC0 and IA32_PMC1 only. */
static const struct intel_constraint nhm_constraints[] = {
	INTEL_EVENT_ON(0x0040, 0x3),	/* L1D_CACHE_LD */
	INTEL_EVENT_ON(0x0041, 0x3),	/* L1D_CACHE_ST */
	INTEL_EVENT_ON(0x0042, 0x3),	/* L1D_CACHE_LOCK */
	INTEL_EVENT_ON(0x0043, 0x3),	/* L1D_ALL_REF */
	INTEL_EVENT_ON(0x0048, 0x3),	/* L1D_PEND_MISS */
	INTEL_EVENT_ON(0x004e, 0x3),	/* L1D_PREFETCH */
	INTEL_EVENT_ON(0x0051, 0x3),	/* L1D */
	INTEL_EVENT_ON(0x0063, 0x3),	/* CACHE_LOCK_CYCLES */
};

static const struct intel_constraint wsm_constraints[] = {
	INTEL_EVENT_ON(0x0051, 0x3),	/* L1D */
	INTEL_EVENT_ON(0x0060, BIT(0)),	/* OFFCORE_REQUESTS_OUTSTANDING */
	INTEL_EVENT_ON(0x0063, 0x3),	/* CACHE_LOCK_CYCLES */
	INTEL_EVENT_ON(0x00b3, BIT(0)),	/* SNOOPQ_REQUESTS_OUTSTANDING */
};

/*
 * OFFCORE_RESPONSE_0 (Westmere: and _1), and
 * MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD.
 */
static const struct intel_extra_msr nhm_extra_msrs[] = {
	{ NHM_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	NHM_RSP_VALID },
	{ 0x100b,		MSR_PEBS_LD_LAT_THRESHOLD, INTEL_LDLAT_VALID },
};

static const struct intel_extra_msr wsm_extra_msrs[] = {
	{ NHM_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	NHM_RSP_VALID },
	{ 0x01bb,		MSR_OFFCORE_RSP_1,	NHM_RSP_VALID },
	{ 0x100b,		MSR_PEBS_LD_LAT_THRESHOLD, INTEL_LDLAT_VALID },
};

const struct intel_model intel_nehalem = {
	.name		= "Nehalem events",
	.pmu_name	= "nehalem",
	.events		= nhm_events,
	.n_events	= ARRAY_SIZE(nhm_events),
	.cache_map	= &nhm_cache_map,
	.cache_extra	= &nhm_cache_extra,
	.constraints	= nhm_constraints,
	.n_constraints	= ARRAY_SIZE(nhm_constraints),
	.extra_msrs	= nhm_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(nhm_extra_msrs),
	.format_attrs	= intel_ldlat_format,
	.min_period	= 32,
	.lbr		= &intel_lbr_nhm,
};

const struct intel_model intel_westmere = {
	.name		= "Westmere events",
	.pmu_name	= "westmere",
	.init		= wsm_init,
	.events		= nhm_events,
	.n_events	= ARRAY_SIZE(nhm_events),
	.cache_map	= &wsm_cache_map,
	.cache_extra	= &nhm_cache_extra,
	.constraints	= wsm_constraints,
	.n_constraints	= ARRAY_SIZE(wsm_constraints),
	.extra_msrs	= wsm_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(wsm_extra_msrs),
	.format_attrs	= intel_ldlat_format,
	.lbr		= &intel_lbr_nhm,
};

#undef C
