// SPDX-License-Identifier: GPL-2.0
/*
 * The events of AMD's families 17h and later (Zen 1 to 4) and of Hygon's
 * 18h, from AMD's Processor Programming Reference of family 17h, checked
 * against what Linux 6.1 programs for the same generic events on the
 * emulated families of the harness (PMU=zen1, PMU=zen4;
 * harness/models.sh): 6.1 does not tell Zen generations apart here.
 *
 * The large-increment event 0x003 takes a pair of counters (core.c).
 */
#include <linux/perf_event.h>

#include "model.h"

static const struct amd_event_code zen_events[] = {
	{ PERF_COUNT_HW_CPU_CYCLES,		0x0076 },	/* not halted */
	{ PERF_COUNT_HW_INSTRUCTIONS,		0x00c0 },	/* retired */
	/* L2 cache requests, all; those that missed */
	{ PERF_COUNT_HW_CACHE_REFERENCES,	0xff60 },
	{ PERF_COUNT_HW_CACHE_MISSES,		0x0964 },
	{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS,	0x00c2 },	/* retired */
	{ PERF_COUNT_HW_BRANCH_MISSES,		0x00c3 },
	/* instruction fetch stalls: the queue empty; back pressure */
	{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 0x0287 },
	{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND,	0x0187 },
};

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/* [cache][operation][access, miss], as in k8.c. */
static const x86_cache_map_t zen_cache_map = {
	[C(L1D)] = {
		/* data cache accesses; the L2 requests its misses make */
		[C(OP_READ)]		= { 0x0040, 0xc860 },
		[C(OP_PREFETCH)]	= { 0xff5a, 0 },
	},
	[C(L1I)] = {
		/* instruction fetches (32 bytes), those that missed */
		[C(OP_READ)]		= { 0x0080, 0x0081 },
		[C(OP_WRITE)]		= { NONE, NONE },
	},
	[C(DTLB)] = {
		/* L1 DTLB misses; L2 DTLB misses */
		[C(OP_READ)]		= { 0xff45, 0xf045 },
	},
	[C(ITLB)] = {
		/* L1 ITLB misses that hit the L2 ITLB; that miss it */
		[C(OP_READ)]		= { 0x0084, 0xff85 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(BPU)] = {
		/* retired branches, retired mispredicted branches */
		[C(OP_READ)]		= { 0x00c2, 0x00c3 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(NODE)] = {
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
};

#undef NONE
#undef C

const struct amd_model amd_zen = {
	.events		= zen_events,
	.n_events	= ARRAY_SIZE(zen_events),
	.cache_map	= &zen_cache_map,
};
