// SPDX-License-Identifier: GPL-2.0
/*
 * The Core and Core 2 PMUs: Core Solo and Duo (Yonah, architectural
 * perfmon version 1, two general counters) and Core 2 (Merom, Penryn,
 * Dunnington: version 2, two general counters and three fixed ones).
 *
 * Event codes from the Intel SDM vol. 3B, "Performance Monitoring Events
 * for Intel Core Solo and Intel Core Duo Processors" and "... for
 * Processors Based on Intel Core Microarchitecture", checked against
 * what Linux 6.1 programs for the same generic events and which raw
 * events it keeps to one counter, on the emulated models of the harness
 * (PMU=core, PMU=core2; harness/models.sh).
 */
#include <linux/perf_event.h>

#include "model.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/*
 * Core Solo and Duo: no cache events; floating point and divider events
 * count on one counter only.
 */
static const struct intel_constraint core_constraints[] = {
	INTEL_EVENT_ON(0x0011, BIT(1)),	/* FP_ASSIST */
	INTEL_EVENT_ON(0x0012, BIT(1)),	/* MUL */
	INTEL_EVENT_ON(0x0013, BIT(1)),	/* DIV */
	INTEL_EVENT_ON(0x0014, BIT(0)),	/* CYCLES_DIV_BUSY */
	INTEL_EVENT_ON(0x0019, BIT(1)),	/* DELAYED_BYPASS */
	INTEL_EVENT_ON(0x00c1, BIT(0)),	/* FP_COMP_INSTR_RET */
};

static const x86_cache_map_t core_cache_map;

const struct intel_model intel_core = {
	.name		= "Core events",
	.pmu_name	= "core",
	.cache_map	= &core_cache_map,
	.constraints	= core_constraints,
	.n_constraints	= ARRAY_SIZE(core_constraints),
};

/* [cache][operation][access, miss], as in skylake.c. */
static const x86_cache_map_t core2_cache_map = {
	[C(L1D)] = {
		/* L1D_CACHE_LD.MESI, .I_STATE */
		[C(OP_READ)]		= { 0x0f40, 0x0140 },
		/* L1D_CACHE_ST.MESI, .I_STATE */
		[C(OP_WRITE)]		= { 0x0f41, 0x0141 },
		/* L1D_PREFETCH.REQUESTS */
		[C(OP_PREFETCH)]	= { 0x104e, 0 },
	},
	[C(L1I)] = {
		/* L1I_READS, L1I_MISSES */
		[C(OP_READ)]		= { 0x0080, 0x0081 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(LL)] = {
		/* L2_LD and L2_ST: all states, invalid (missing) */
		[C(OP_READ)]		= { 0x4f29, 0x4129 },
		[C(OP_WRITE)]		= { 0x4f2a, 0x412a },
	},
	[C(DTLB)] = {
		/* the L1D accesses, DTLB_MISSES.MISS_LD and .MISS_ST */
		[C(OP_READ)]		= { 0x0f40, 0x0208 },
		[C(OP_WRITE)]		= { 0x0f41, 0x0808 },
	},
	[C(ITLB)] = {
		/* INST_RETIRED.ANY_P, ITLB.MISSES */
		[C(OP_READ)]		= { 0x00c0, 0x1282 },
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

static const struct intel_constraint core2_constraints[] = {
	INTEL_EVENT_ON(0x0010, BIT(0)),	/* FP_COMP_OPS_EXE */
	INTEL_EVENT_ON(0x0011, BIT(1)),	/* FP_ASSIST */
	INTEL_EVENT_ON(0x0012, BIT(1)),	/* MUL */
	INTEL_EVENT_ON(0x0013, BIT(1)),	/* DIV */
	INTEL_EVENT_ON(0x0014, BIT(0)),	/* CYCLES_DIV_BUSY */
	INTEL_EVENT_ON(0x0018, BIT(0)),	/* IDLE_DURING_DIV */
	INTEL_EVENT_ON(0x0019, BIT(1)),	/* DELAYED_BYPASS */
	INTEL_EVENT_ON(0x00a1, BIT(0)),	/* RS_UOPS_DISPATCHED_CYCLES */
	INTEL_EVENT_ON(0x00c9, BIT(0)),	/* ITLB_MISS_RETIRED */
	INTEL_EVENT_ON(0x00cb, BIT(0)),	/* MEM_LOAD_RETIRED */
};

const struct intel_model intel_core2 = {
	.name		= "Core2 events",
	.pmu_name	= "core2",
	.cache_map	= &core2_cache_map,
	.constraints	= core2_constraints,
	.n_constraints	= ARRAY_SIZE(core2_constraints),
	.lbr		= &intel_lbr_core2,
};
