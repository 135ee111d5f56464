// SPDX-License-Identifier: GPL-2.0
/*
 * The Knights Landing and Knights Mill core PMU (Xeon Phi; architectural
 * perfmon version 3, two general counters and three fixed ones).
 *
 * Event codes from Intel's event list for Knights Landing, checked
 * against what Linux 6.1 programs for the same generic events on the
 * emulated model of the harness (PMU=knl; harness/models.sh).  No event
 * is kept to one counter.
 */
#include <linux/perf_event.h>
#include <asm/msr-index.h>

#include "model.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/* OFFCORE_RESPONSE_0; _1 is umask 2 */
#define KNL_OFFCORE_RESPONSE	0x01b7

/* [cache][operation][access, miss], as in skylake.c. */
static const x86_cache_map_t knl_cache_map = {
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
		[C(OP_READ)]		= { KNL_OFFCORE_RESPONSE, 0 },
		[C(OP_WRITE)]		= { KNL_OFFCORE_RESPONSE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
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

static const struct intel_extra_msr knl_extra_msrs[] = {
	{ KNL_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	KNL_RSP_0_VALID },
	{ 0x02b7,		MSR_OFFCORE_RSP_1,	KNL_RSP_1_VALID },
};

const struct intel_model intel_knl = {
	.name		= "Knights Landing/Mill events",
	.pmu_name	= "knights-landing",
	.cache_map	= &knl_cache_map,
	.extra_msrs	= knl_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(knl_extra_msrs),
	.format_attrs	= intel_offcore_format,
	.lbr		= &intel_lbr_knl,
};
