// SPDX-License-Identifier: GPL-2.0
/*
 * The Skylake core PMU: Skylake client and server, Kaby Lake, Coffee
 * Lake and Comet Lake (the models intel/core.c matches to it).
 *
 * Event codes from Intel's event list for 6th generation Core
 * processors (event select and unit mask; the name is Intel's), checked
 * against what Linux 6.1 programs for the same generic events on the
 * emulated Skylake of the harness (PMU=skylake).  The generic hardware
 * events are the architectural ones.
 *
 * Four events need a register besides the event select (the
 * offcore-response, front-end and load-latency MSRs; extra_regs.c), and
 * the cache events built on OFFCORE_RESPONSE (LL and NODE) have the
 * model's value in it, whatever attr.config1 says, as on 6.1.
 */
#include <linux/perf_event.h>
#include <asm/msr-index.h>

#include "model.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/* OFFCORE_RESPONSE: what it counts is in MSR_OFFCORE_RSP_0. */
#define SKL_OFFCORE_RESPONSE	0x01b7

/*
 * [cache][operation][access, miss]: 0 is an event the CPU does not
 * count (ENOENT), NONE one that cannot exist (EINVAL).
 */
static const x86_cache_map_t skl_cache_map = {
	[C(L1D)] = {
		/* MEM_INST_RETIRED.ALL_LOADS, L1D.REPLACEMENT */
		[C(OP_READ)]		= { 0x81d0, 0x0151 },
		/* MEM_INST_RETIRED.ALL_STORES */
		[C(OP_WRITE)]		= { 0x82d0, 0 },
	},
	[C(L1I)] = {
		/* ICACHE_64B.IFTAG_MISS */
		[C(OP_READ)]		= { 0, 0x0283 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(LL)] = {
		[C(OP_READ)]		= { SKL_OFFCORE_RESPONSE,
					    SKL_OFFCORE_RESPONSE },
		[C(OP_WRITE)]		= { SKL_OFFCORE_RESPONSE,
					    SKL_OFFCORE_RESPONSE },
	},
	[C(DTLB)] = {
		/* all loads, DTLB_LOAD_MISSES.WALK_COMPLETED */
		[C(OP_READ)]		= { 0x81d0, 0x0e08 },
		/* all stores, DTLB_STORE_MISSES.WALK_COMPLETED */
		[C(OP_WRITE)]		= { 0x82d0, 0x0e49 },
	},
	[C(ITLB)] = {
		/* ITLB_MISSES.STLB_HIT, ITLB_MISSES.WALK_COMPLETED */
		[C(OP_READ)]		= { 0x2085, 0x0e85 },
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
		[C(OP_READ)]		= { SKL_OFFCORE_RESPONSE,
					    SKL_OFFCORE_RESPONSE },
		[C(OP_WRITE)]		= { SKL_OFFCORE_RESPONSE,
					    SKL_OFFCORE_RESPONSE },
	},
};

#undef NONE

/* INST_RETIRED.PREC_DIST counts on IA32_PMC1 only. */
/*
 * What OFFCORE_RESPONSE counts for the LL and NODE events: loads and
 * stores that reach the last level (any response), that miss it (no
 * supplier, or DRAM's, local or remote), and those DRAM serves, the
 * local node's and the others'.
 */
#define SKL_SNOOP		(SKL_RSP_SPL_HIT | RSP_SNOOP_DRAM)
#define SKL_LL_ACCESS		(RSP_ANY_RESPONSE | SKL_SNOOP |		\
				 RSP_SNOOP_NON_DRAM)
#define SKL_LL_MISS		(RSP_SUPPLIER_NONE | BDW_RSP_LOCAL_DRAM |	\
				 RSP_REMOTE_DRAM | SKL_SNOOP |		\
				 RSP_SNOOP_NON_DRAM)
#define SKL_NODE_ACCESS		(BDW_RSP_LOCAL_DRAM | SKL_SNOOP)
#define SKL_NODE_MISS		(RSP_REMOTE_DRAM | SKL_SNOOP)

const x86_cache_map_t intel_skl_cache_extra = {
	[C(LL)] = {
		[C(OP_READ)]	= { RSP_DMND_DATA_RD | SKL_LL_ACCESS,
				    RSP_DMND_DATA_RD | SKL_LL_MISS },
		[C(OP_WRITE)]	= { RSP_DMND_RFO | SKL_LL_ACCESS,
				    RSP_DMND_RFO | SKL_LL_MISS },
	},
	[C(NODE)] = {
		[C(OP_READ)]	= { RSP_DMND_DATA_RD | SKL_NODE_ACCESS,
				    RSP_DMND_DATA_RD | SKL_NODE_MISS },
		[C(OP_WRITE)]	= { RSP_DMND_RFO | SKL_NODE_ACCESS,
				    RSP_DMND_RFO | SKL_NODE_MISS },
	},
};

static const struct intel_constraint skl_constraints[] = {
	INTEL_UMASK_ON(0x01c0, BIT(1)),
};

/*
 * OFFCORE_RESPONSE_0 and _1, FRONTEND_RETIRED and
 * MEM_TRANS_RETIRED.LOAD_LATENCY.
 */
static const struct intel_extra_msr skl_extra_msrs[] = {
	{ SKL_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	HSW_RSP_VALID },
	{ 0x01bb,		MSR_OFFCORE_RSP_1,	HSW_RSP_VALID },
	{ 0x01c6,		MSR_PEBS_FRONTEND,	SKL_FRONTEND_VALID },
	{ 0x01cd,		MSR_PEBS_LD_LAT_THRESHOLD, INTEL_LDLAT_VALID },
};

/*
 * The top-down method's events (Intel's optimization manual): four
 * issue slots per core cycle; slots issued (UOPS_ISSUED.ANY), retired
 * (UOPS_RETIRED.RETIRE_SLOTS), left empty by the front end
 * (IDQ_UOPS_NOT_DELIVERED.CORE), and lost recovering from a
 * misprediction (INT_MISC.RECOVERY_CYCLES, four slots a cycle).
 */
X86_EVENT_STR_ATTR(skl_td_total, "topdown-total-slots",
		   "event=0x3c,umask=0x0");
X86_EVENT_STR_ATTR(skl_td_total_scale, "topdown-total-slots.scale", "4");
X86_EVENT_STR_ATTR(skl_td_issued, "topdown-slots-issued",
		   "event=0xe,umask=0x1");
X86_EVENT_STR_ATTR(skl_td_retired, "topdown-slots-retired",
		   "event=0xc2,umask=0x2");
X86_EVENT_STR_ATTR(skl_td_fetch, "topdown-fetch-bubbles",
		   "event=0x9c,umask=0x1");
X86_EVENT_STR_ATTR(skl_td_recovery, "topdown-recovery-bubbles",
		   "event=0xd,umask=0x1,cmask=1");
X86_EVENT_STR_ATTR(skl_td_recovery_scale, "topdown-recovery-bubbles.scale",
		   "4");

static struct attribute *skl_event_attrs[] = {
	&skl_td_total.attr.attr,
	&skl_td_total_scale.attr.attr,
	&skl_td_issued.attr.attr,
	&skl_td_retired.attr.attr,
	&skl_td_fetch.attr.attr,
	&skl_td_recovery.attr.attr,
	&skl_td_recovery_scale.attr.attr,
	NULL,
};

/*
 * Precise sampling: INST_RETIRED.PREC_DIST on counter 1 only; the load
 * latency event; MEM_INST_RETIRED's loads and stores (unit masks: bit 0
 * loads, bit 1 stores; with 0x10 an STLB miss, 0x20 locked, 0x40 split,
 * 0x80 all), and the MEM_LOAD_*_RETIRED events, with the data address;
 * every event on the first four counters.
 */
static const struct intel_pebs_event skl_pebs_events[] = {
	{ INTEL_UMASK_ON(0x01c0, BIT(1)),	INTEL_PEBS_PLAIN },
	{ INTEL_UMASK_ON(0x01cd, 0xf),		INTEL_PEBS_LDLAT },
	{ INTEL_UMASK_ON(0x11d0, 0xf),		INTEL_PEBS_LOAD },
	{ INTEL_UMASK_ON(0x21d0, 0xf),		INTEL_PEBS_LOAD },
	{ INTEL_UMASK_ON(0x41d0, 0xf),		INTEL_PEBS_LOAD },
	{ INTEL_UMASK_ON(0x81d0, 0xf),		INTEL_PEBS_LOAD },
	{ INTEL_UMASK_ON(0x12d0, 0xf),		INTEL_PEBS_STORE },
	{ INTEL_UMASK_ON(0x22d0, 0xf),		INTEL_PEBS_STORE },
	{ INTEL_UMASK_ON(0x42d0, 0xf),		INTEL_PEBS_STORE },
	{ INTEL_UMASK_ON(0x82d0, 0xf),		INTEL_PEBS_STORE },
	{ INTEL_RANGE_ON(0xd1, 0xd3, 0xf),	INTEL_PEBS_LOAD },
};

/* perf mem's events: loads slower than 3 cycles, and all stores. */
X86_EVENT_STR_ATTR(intel_mem_loads, "mem-loads", "event=0xcd,umask=0x1,ldlat=3");
X86_EVENT_STR_ATTR(intel_mem_stores, "mem-stores", "event=0xd0,umask=0x82");

struct attribute *intel_mem_events[] = {
	&intel_mem_loads.attr.attr,
	&intel_mem_stores.attr.attr,
	NULL,
};

const struct intel_pebs intel_pebs_skl = {
	.events		= skl_pebs_events,
	.n_events	= ARRAY_SIZE(skl_pebs_events),
	.others		= 0xf,
	.prec_dist	= true,
	.cycles_alias	= true,
	.mem_events	= intel_mem_events,
};

const struct intel_model intel_skylake = {
	.name		= "Skylake events",
	.pmu_name	= "skylake",
	.cache_map	= &skl_cache_map,
	.cache_extra	= &intel_skl_cache_extra,
	.constraints	= skl_constraints,
	.n_constraints	= ARRAY_SIZE(skl_constraints),
	.extra_msrs	= skl_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(skl_extra_msrs),
	.format_attrs	= intel_frontend_format,
	.event_attrs	= skl_event_attrs,
	.lbr		= &intel_lbr_skl,
	.pebs		= &intel_pebs_skl,
};

#undef C
