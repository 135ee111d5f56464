// SPDX-License-Identifier: GPL-2.0
/*
 * The Tremont and Gracemont core PMUs (Atom, architectural perfmon
 * version 5; Tremont has four general counters, Gracemont, the E-core
 * of Alder Lake and the Alder Lake-N parts, six; both three fixed), and
 * the Atom cores of the Alder Lake and Raptor Lake hybrids.
 *
 * Event codes from Intel's event lists for the two microarchitectures,
 * checked against what Linux 6.1 programs for the same generic events
 * on the emulated models of the harness (PMU=tremont, PMU=gracemont;
 * harness/models.sh).  No event is kept to some counters.
 */
#include <linux/perf_event.h>
#include <asm/msr-index.h>

#include "model.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/* OFFCORE_RESPONSE_0; _1 is umask 2 */
#define TNT_OFFCORE_RESPONSE	0x01b7

/* [cache][operation][access, miss], as in skylake.c. */
static const x86_cache_map_t tnt_cache_map = {
	[C(L1D)] = {
		/* MEM_UOPS_RETIRED.ALL_LOADS, .ALL_STORES */
		[C(OP_READ)]		= { 0x81d0, 0 },
		[C(OP_WRITE)]		= { 0x82d0, 0 },
	},
	[C(L1I)] = {
		/* ICACHE.ACCESSES, ICACHE.MISSES */
		[C(OP_READ)]		= { 0x0380, 0x0280 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(LL)] = {
		[C(OP_READ)]		= { TNT_OFFCORE_RESPONSE,
					    TNT_OFFCORE_RESPONSE },
		[C(OP_WRITE)]		= { TNT_OFFCORE_RESPONSE,
					    TNT_OFFCORE_RESPONSE },
	},
	[C(DTLB)] = {
		/* DTLB_LOAD_MISSES and DTLB_STORE_MISSES.WALK_COMPLETED */
		[C(OP_READ)]		= { 0x81d0, 0x0e08 },
		[C(OP_WRITE)]		= { 0x82d0, 0x0e49 },
	},
	[C(ITLB)] = {
		/* ITLB.MISS */
		[C(OP_READ)]		= { NONE, 0x0481 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(BPU)] = {
		/* BR_INST_RETIRED.ALL_BRANCHES, BR_MISP_RETIRED.ALL_BRANCHES */
		[C(OP_READ)]		= { 0x00c4, 0x00c5 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
};

#undef NONE
#undef C

static const struct intel_extra_msr tnt_extra_msrs[] = {
	{ TNT_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	TNT_RSP_0_VALID },
	{ 0x02b7,		MSR_OFFCORE_RSP_1,	TNT_RSP_1_VALID },
};

/* Gracemont adds MEM_UOPS_RETIRED.LOAD_LATENCY. */
static const struct intel_extra_msr grt_extra_msrs[] = {
	{ TNT_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	SPR_RSP_VALID },
	{ 0x02b7,		MSR_OFFCORE_RSP_1,	SPR_RSP_VALID },
	{ 0x05d0,		MSR_PEBS_LD_LAT_THRESHOLD, INTEL_LDLAT_VALID },
};

/*
 * The top-down method's first level on Tremont and Gracemont, counted
 * directly: TOPDOWN_RETIRING, _BAD_SPECULATION (all), _FE_BOUND and
 * _BE_BOUND.
 */
X86_EVENT_STR_ATTR(tnt_td_retiring, "topdown-retiring",
		   "event=0xc2,umask=0x0");
X86_EVENT_STR_ATTR(tnt_td_bad_spec, "topdown-bad-spec",
		   "event=0x73,umask=0x6");
X86_EVENT_STR_ATTR(tnt_td_fe_bound, "topdown-fe-bound",
		   "event=0x71,umask=0x0");
X86_EVENT_STR_ATTR(tnt_td_be_bound, "topdown-be-bound",
		   "event=0x74,umask=0x0");

static struct attribute *tnt_event_attrs[] = {
	&tnt_td_retiring.attr.attr,
	&tnt_td_bad_spec.attr.attr,
	&tnt_td_fe_bound.attr.attr,
	&tnt_td_be_bound.attr.attr,
	NULL,
};

const struct intel_model intel_tremont = {
	.name		= "Tremont events",
	.pmu_name	= "Tremont",
	.cache_map	= &tnt_cache_map,
	.extra_msrs	= tnt_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(tnt_extra_msrs),
	.format_attrs	= intel_offcore_format,
	.event_attrs	= tnt_event_attrs,
	.lbr		= &intel_lbr_skl,
};

const struct intel_model intel_gracemont = {
	.name		= "Gracemont events",
	.pmu_name	= "gracemont",
	.cache_map	= &tnt_cache_map,
	.extra_msrs	= grt_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(grt_extra_msrs),
	.format_attrs	= intel_ldlat_format,
	.event_attrs	= tnt_event_attrs,
};

/*
 * The Atom cores (Gracemont) of Alder Lake's and Raptor Lake's hybrids:
 * as Gracemont alone, but with all of TOPDOWN_BAD_SPECULATION (unit
 * mask 0) and the memory events of MEM_UOPS_RETIRED, as 6.1 shows them
 * on the hybrid.
 */
X86_EVENT_STR_ATTR(adl_atom_td_bad_spec, "topdown-bad-spec",
		   "event=0x73,umask=0x0");
X86_EVENT_STR_ATTR(adl_atom_mem_loads, "mem-loads",
		   "event=0xd0,umask=0x5,ldlat=3");
X86_EVENT_STR_ATTR(adl_atom_mem_stores, "mem-stores",
		   "event=0xd0,umask=0x6");

static struct attribute *adl_atom_event_attrs[] = {
	&tnt_td_retiring.attr.attr,
	&adl_atom_td_bad_spec.attr.attr,
	&tnt_td_fe_bound.attr.attr,
	&tnt_td_be_bound.attr.attr,
	&adl_atom_mem_loads.attr.attr,
	&adl_atom_mem_stores.attr.attr,
	NULL,
};

const struct intel_model intel_alderlake_atom = {
	.name		= "Gracemont events",
	.pmu_name	= "alderlake_hybrid",
	.cache_map	= &tnt_cache_map,
	.extra_msrs	= grt_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(grt_extra_msrs),
	.format_attrs	= intel_ldlat_format,
	.event_attrs	= adl_atom_event_attrs,
};
