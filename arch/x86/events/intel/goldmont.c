// SPDX-License-Identifier: GPL-2.0
/*
 * The Goldmont and Goldmont Plus core PMUs (Atom, architectural perfmon
 * version 4, four general counters and three fixed ones).
 *
 * Event codes from Intel's event lists for the Goldmont and Goldmont
 * Plus microarchitectures, checked against what Linux 6.1 programs for
 * the same generic events on the emulated models of the harness
 * (PMU=goldmont, PMU=goldmontplus; harness/models.sh).  No event is kept
 * to some counters.
 */
#include <linux/perf_event.h>
#include <linux/string.h>
#include <asm/msr-index.h>

#include "model.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/* OFFCORE_RESPONSE_0; _1 is umask 2 */
#define GLM_OFFCORE_RESPONSE	0x01b7

/* [cache][operation][access, miss], as in skylake.c. */
static const x86_cache_map_t glm_cache_map = {
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
		[C(OP_READ)]		= { GLM_OFFCORE_RESPONSE,
					    GLM_OFFCORE_RESPONSE },
		[C(OP_WRITE)]		= { GLM_OFFCORE_RESPONSE,
					    GLM_OFFCORE_RESPONSE },
		[C(OP_PREFETCH)]	= { GLM_OFFCORE_RESPONSE,
					    GLM_OFFCORE_RESPONSE },
	},
	[C(DTLB)] = {
		[C(OP_READ)]		= { 0x81d0, 0 },
		[C(OP_WRITE)]		= { 0x82d0, 0 },
	},
	[C(ITLB)] = {
		/* INST_RETIRED.ANY_P, ITLB.MISS */
		[C(OP_READ)]		= { 0x00c0, 0x0481 },
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

static x86_cache_map_t glp_cache_map __ro_after_init;

/*
 * Goldmont Plus: no offcore responses for prefetches, and the DTLB
 * misses are DTLB_LOAD_MISSES and DTLB_STORE_MISSES.WALK_COMPLETED.
 */
static void glp_init(void)
{
	memcpy(glp_cache_map, glm_cache_map, sizeof(glp_cache_map));
	glp_cache_map[C(LL)][C(OP_PREFETCH)][C(RESULT_ACCESS)] = 0;
	glp_cache_map[C(LL)][C(OP_PREFETCH)][C(RESULT_MISS)] = 0;
	glp_cache_map[C(DTLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0e08;
	glp_cache_map[C(DTLB)][C(OP_WRITE)][C(RESULT_MISS)] = 0x0e49;
}

#undef NONE
#undef C

static const struct intel_extra_msr glm_extra_msrs[] = {
	{ GLM_OFFCORE_RESPONSE,	MSR_OFFCORE_RSP_0,	GLM_RSP_0_VALID },
	{ 0x02b7,		MSR_OFFCORE_RSP_1,	GLM_RSP_1_VALID },
};

/*
 * The top-down method on Goldmont: three issue slots a cycle (Goldmont
 * Plus: four); UOPS_ISSUED.ANY, UOPS_RETIRED.ANY, the front end's
 * empty slots (event 0x9c) and the slots lost recovering
 * (ISSUE_SLOTS_NOT_CONSUMED.RECOVERY).
 */
X86_EVENT_STR_ATTR(glm_td_total, "topdown-total-slots", "event=0x3c");
X86_EVENT_STR_ATTR(glm_td_total_scale, "topdown-total-slots.scale", "3");
X86_EVENT_STR_ATTR(glp_td_total_scale, "topdown-total-slots.scale", "4");
X86_EVENT_STR_ATTR(glm_td_issued, "topdown-slots-issued", "event=0x0e");
X86_EVENT_STR_ATTR(glm_td_retired, "topdown-slots-retired", "event=0xc2");
X86_EVENT_STR_ATTR(glm_td_fetch, "topdown-fetch-bubbles", "event=0x9c");
X86_EVENT_STR_ATTR(glm_td_recovery, "topdown-recovery-bubbles",
		   "event=0xca,umask=0x02");

static struct attribute *glm_event_attrs[] = {
	&glm_td_total.attr.attr,
	&glm_td_total_scale.attr.attr,
	&glm_td_issued.attr.attr,
	&glm_td_retired.attr.attr,
	&glm_td_fetch.attr.attr,
	&glm_td_recovery.attr.attr,
	NULL,
};

static struct attribute *glp_event_attrs[] = {
	&glm_td_total.attr.attr,
	&glp_td_total_scale.attr.attr,
	&glm_td_issued.attr.attr,
	&glm_td_retired.attr.attr,
	&glm_td_fetch.attr.attr,
	&glm_td_recovery.attr.attr,
	NULL,
};

const struct intel_model intel_goldmont = {
	.name		= "Goldmont events",
	.pmu_name	= "goldmont",
	.cache_map	= &glm_cache_map,
	.extra_msrs	= glm_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(glm_extra_msrs),
	.format_attrs	= intel_offcore_format,
	.event_attrs	= glm_event_attrs,
	.lbr		= &intel_lbr_skl,
};

const struct intel_model intel_goldmont_plus = {
	.name		= "Goldmont plus events",
	.pmu_name	= "goldmont_plus",
	.init		= glp_init,
	.cache_map	= &glp_cache_map,
	.extra_msrs	= glm_extra_msrs,
	.n_extra_msrs	= ARRAY_SIZE(glm_extra_msrs),
	.format_attrs	= intel_offcore_format,
	.event_attrs	= glp_event_attrs,
	.lbr		= &intel_lbr_skl,
};
