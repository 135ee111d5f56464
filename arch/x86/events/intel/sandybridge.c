// SPDX-License-Identifier: GPL-2.0
/*
 * The Sandy Bridge and Ivy Bridge core PMUs (architectural perfmon
 * version 3, four general counters and three fixed ones, full-width
 * writes).
 *
 * Event codes from the Intel SDM vol. 3B, "Performance Monitoring Events
 * for 2nd and 3rd Generation Intel Core Processors", checked against
 * what Linux 6.1 programs for the same generic events and which raw
 * events it keeps to some counters, on the emulated models of the
 * harness (PMU=sandybridge, PMU=ivybridge; harness/models.sh).
 *
 * The last-level cache events count offcore responses, as on Skylake
 * (skylake.c); 6.1 has no node events here, nor last-level misses.
 */
#include <linux/perf_event.h>
#include <linux/string.h>
#include <asm/msr-index.h>

#include "model.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/* OFFCORE_RESPONSE_0 */
#define SNB_OFFCORE_RESPONSE	0x01b7

/* Cycles in which the event does not happen at all. */
#define SNB_STALL(code)	((code) | ARCH_PERFMON_EVENTSEL_INV |		\
			 (1ULL << 24))

/*
 * Stalls: no micro-op issued (UOPS_ISSUED.ANY), none dispatched
 * (UOPS_DISPATCHED.THREAD; Ivy Bridge has no such event in 6.1).
 */
static const struct intel_event_code snb_events[] = {
	{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,	SNB_STALL(0x010e) },
	{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND,		SNB_STALL(0x01b1) },
};

static const struct intel_event_code ivb_events[] = {
	{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,	SNB_STALL(0x010e) },
};

/*
 * [cache][operation][access, miss], as in skylake.c; Ivy Bridge differs
 * only in its DTLB load misses, so the two share all but that entry.
 */
static const x86_cache_map_t snb_cache_map = {
	[C(L1D)] = {
		/*
		 * MEM_UOPS_RETIRED, all loads and all stores;
		 * L1D.REPLACEMENT, L1D.ALL_M_REPLACEMENT
		 */
		[C(OP_READ)]		= { 0xf1d0, 0x0151 },
		[C(OP_WRITE)]		= { 0xf2d0, 0x0851 },
		/* HW_PRE_REQ.DL1_MISS */
		[C(OP_PREFETCH)]	= { 0, 0x024e },
	},
	[C(L1I)] = {
		/* ICACHE.MISSES */
		[C(OP_READ)]		= { 0, 0x0280 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(LL)] = {
		[C(OP_READ)]		= { SNB_OFFCORE_RESPONSE, NONE },
		[C(OP_WRITE)]		= { SNB_OFFCORE_RESPONSE, NONE },
		[C(OP_PREFETCH)]	= { SNB_OFFCORE_RESPONSE, NONE },
	},
	[C(DTLB)] = {
		/*
		 * MEM_UOPS_RETIRED.ALL_LOADS and .ALL_STORES;
		 * DTLB_LOAD_MISSES and DTLB_STORE_MISSES.MISS_CAUSES_A_WALK
		 */
		[C(OP_READ)]		= { 0x81d0, 0x0108 },
		[C(OP_WRITE)]		= { 0x82d0, 0x0149 },
	},
	[C(ITLB)] = {
		/* ITLB_MISSES.STLB_HIT, ITLB_MISSES.MISS_CAUSES_A_WALK */
		[C(OP_READ)]		= { 0x1085, 0x0185 },
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
		[C(OP_READ)]		= { NONE, NONE },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
};

static x86_cache_map_t ivb_cache_map __ro_after_init;

/* Ivy Bridge: DTLB_LOAD_MISSES.DEMAND_LD_MISS_CAUSES_A_WALK. */
static void ivb_init(void)
{
	memcpy(ivb_cache_map, snb_cache_map, sizeof(ivb_cache_map));
	ivb_cache_map[C(DTLB)][C(OP_READ)][C(RESULT_MISS)] = 0x8108;
}

#undef NONE

static const struct intel_constraint snb_constraints[] = {
	INTEL_EVENT_ON(0x0048, BIT(2)),	/* L1D_PEND_MISS */
	INTEL_UMASK_ON(0x02a3, BIT(2)),	/* CYCLE_ACTIVITY */
	INTEL_UMASK_ON(0x06a3, BIT(2)),
	INTEL_UMASK_ON(0x01c0, BIT(1)),	/* INST_RETIRED.PREC_DIST */
	INTEL_EVENT_ON(0x00cd, BIT(3)),	/* MEM_TRANS_RETIRED */
};

static const struct intel_constraint ivb_constraints[] = {
	INTEL_UMASK_ON(0x0148, BIT(2)),	/* L1D_PEND_MISS.PENDING */
	INTEL_UMASK_ON(0x08a3, BIT(2)),	/* CYCLE_ACTIVITY */
	INTEL_UMASK_ON(0x0ca3, BIT(2)),
	INTEL_UMASK_ON(0x01c0, BIT(1)),	/* INST_RETIRED.PREC_DIST */
};

/*
 * MSR_OFFCORE_RSP_0 and _1's request types (Intel SDM vol. 3B,
 * "Off-core Response Performance Monitoring"): demand loads and RFOs,
 * the L2 prefetcher's, and the prefetches into the last level.  6.1
 * counts only the last level's accesses: any response to a request.
 */
#define SNB_DMND_DATA_RD	BIT_ULL(0)
#define SNB_DMND_RFO		BIT_ULL(1)
#define SNB_PF_DATA_RD		BIT_ULL(4)
#define SNB_PF_RFO		BIT_ULL(5)
#define SNB_PF_LLC_DATA_RD	BIT_ULL(7)
#define SNB_PF_LLC_RFO		BIT_ULL(8)

static const x86_cache_map_t snb_cache_extra = {
	[C(LL)] = {
		[C(OP_READ)]		= { SNB_DMND_DATA_RD |
					    SNB_PF_LLC_DATA_RD |
					    RSP_ANY_RESPONSE },
		[C(OP_WRITE)]		= { SNB_DMND_RFO | SNB_PF_LLC_RFO |
					    RSP_ANY_RESPONSE },
		[C(OP_PREFETCH)]	= { SNB_PF_DATA_RD | SNB_PF_RFO |
					    RSP_ANY_RESPONSE },
	},
};

/*
 * OFFCORE_RESPONSE_0 and _1, and MEM_TRANS_RETIRED.LOAD_LATENCY with
 * its threshold.
 */
static const struct intel_extra_msr snb_extra_msrs[] = {
	{ SNB_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	SNB_RSP_VALID },
	{ 0x01bb,		MSR_OFFCORE_RSP_1,	SNB_RSP_VALID },
	{ 0x01cd,		MSR_PEBS_LD_LAT_THRESHOLD, INTEL_LDLAT_VALID },
};

/*
 * The top-down method's events (Intel's optimization manual), as on
 * Skylake (skylake.c) but for the recovery cycles, which count
 * INT_MISC.RECOVERY_CYCLES of both threads of the core (unit mask 3).
 */
X86_EVENT_STR_ATTR(snb_td_total, "topdown-total-slots",
		   "event=0x3c,umask=0x0");
X86_EVENT_STR_ATTR(snb_td_total_scale, "topdown-total-slots.scale", "4");
X86_EVENT_STR_ATTR(snb_td_issued, "topdown-slots-issued",
		   "event=0xe,umask=0x1");
X86_EVENT_STR_ATTR(snb_td_retired, "topdown-slots-retired",
		   "event=0xc2,umask=0x2");
X86_EVENT_STR_ATTR(snb_td_fetch, "topdown-fetch-bubbles",
		   "event=0x9c,umask=0x1");
X86_EVENT_STR_ATTR(snb_td_recovery, "topdown-recovery-bubbles",
		   "event=0xd,umask=0x3,cmask=1");
X86_EVENT_STR_ATTR(snb_td_recovery_scale, "topdown-recovery-bubbles.scale",
		   "4");

struct attribute *intel_snb_topdown_events[] = {
	&snb_td_total.attr.attr,
	&snb_td_total_scale.attr.attr,
	&snb_td_issued.attr.attr,
	&snb_td_retired.attr.attr,
	&snb_td_fetch.attr.attr,
	&snb_td_recovery.attr.attr,
	&snb_td_recovery_scale.attr.attr,
	NULL,
};

const struct intel_model intel_sandybridge = {
	.name		= "SandyBridge events",
	.pmu_name	= "sandybridge",
	.events		= snb_events,
	.n_events	= ARRAY_SIZE(snb_events),
	.cache_map	= &snb_cache_map,
	.cache_extra	= &snb_cache_extra,
	.constraints	= snb_constraints,
	.n_constraints	= ARRAY_SIZE(snb_constraints),
	.extra_msrs	= snb_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(snb_extra_msrs),
	.format_attrs	= intel_ldlat_format,
	.event_attrs	= intel_snb_topdown_events,
	.lbr		= &intel_lbr_snb,
};

const struct intel_model intel_ivybridge = {
	.name		= "IvyBridge events",
	.pmu_name	= "ivybridge",
	.init		= ivb_init,
	.events		= ivb_events,
	.n_events	= ARRAY_SIZE(ivb_events),
	.cache_map	= &ivb_cache_map,
	.cache_extra	= &snb_cache_extra,
	.constraints	= ivb_constraints,
	.n_constraints	= ARRAY_SIZE(ivb_constraints),
	.extra_msrs	= snb_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(snb_extra_msrs),
	.format_attrs	= intel_ldlat_format,
	.event_attrs	= intel_snb_topdown_events,
	.lbr		= &intel_lbr_snb,
};

#undef C
