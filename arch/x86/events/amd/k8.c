// SPDX-License-Identifier: GPL-2.0
/*
 * The events of AMD's families before 17h: K8 (0Fh), 10h, Bulldozer and
 * its successors (15h), 16h, as the AMD BIOS and Kernel Developer's
 * Guides of those families name them, and as Linux 6.1 programs them on
 * the emulated families of the harness (PMU=amd, PMU=fam15h;
 * harness/models.sh).
 */
#include <linux/perf_event.h>

#include "model.h"

static const struct amd_event_code k8_events[] = {
	{ PERF_COUNT_HW_INSTRUCTIONS,		0x00c0 },	/* retired */
	{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS,	0x00c2 },
	{ PERF_COUNT_HW_BRANCH_MISSES,		0x00c3 },
	{ PERF_COUNT_HW_CPU_CYCLES,		0x0076 },	/* not halted */
	{ PERF_COUNT_HW_CACHE_REFERENCES,	0x077d },	/* L2 requests */
	{ PERF_COUNT_HW_CACHE_MISSES,		0x077e },	/* L2 misses */
	{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 0x00d0 },
	{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND,	0x00d1 },
};

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define NONE	X86_EVENT_INVALID

/*
 * [cache][operation][access, miss]: 0 is an event the CPU does not
 * count (ENOENT), NONE one that cannot exist (EINVAL).
 */
static const x86_cache_map_t k8_cache_map = {
	[C(L1D)] = {
		[C(OP_READ)]		= { 0x0040, 0x0141 },
		[C(OP_PREFETCH)]	= { 0x0267, 0x0167 },
	},
	[C(L1I)] = {
		[C(OP_READ)]		= { 0x0080, 0x0081 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { 0x014b, 0 },
	},
	[C(LL)] = {
		[C(OP_READ)]		= { 0x037d, 0x037e },
		[C(OP_WRITE)]		= { 0x017f, 0 },
	},
	[C(DTLB)] = {
		[C(OP_READ)]		= { 0x0040, 0x0746 },
	},
	[C(ITLB)] = {
		[C(OP_READ)]		= { 0x0080, 0x0385 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(BPU)] = {
		[C(OP_READ)]		= { 0x00c2, 0x00c3 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
	[C(NODE)] = {
		[C(OP_READ)]		= { 0xb8e9, 0x98e9 },
		[C(OP_WRITE)]		= { NONE, NONE },
		[C(OP_PREFETCH)]	= { NONE, NONE },
	},
};

#undef NONE
#undef C

const struct amd_model amd_k8 = {
	.events		= k8_events,
	.n_events	= ARRAY_SIZE(k8_events),
	.cache_map	= &k8_cache_map,
};
