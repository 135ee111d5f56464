// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of precise sampling's tables: the data sources of PEBS
 * records as perf's (pebs_drain.c), and each model's precise events
 * (model.h's struct intel_pebs) well formed.  What the records hold on
 * the silicon, and what 6.1 makes of them, is for the kselftests
 * (hw_pebs_test, hw_mem_test) on the emulated PMU.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

#include "pebs.h"

static union perf_mem_data_src src(enum intel_pebs_kind kind, u64 dse)
{
	return (union perf_mem_data_src){
		.val = intel_pebs_data_src(kind, dse),
	};
}

/* A store hit L1 where bit 0 says so, else missed it. */
static void pebs_store_source(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, (u32)src(INTEL_PEBS_STORE, 1).mem_op,
			PERF_MEM_OP_STORE);
	KUNIT_EXPECT_EQ(test, (u32)src(INTEL_PEBS_STORE, 1).mem_lvl,
			PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u32)src(INTEL_PEBS_STORE, 0).mem_lvl,
			PERF_MEM_LVL_L1 | PERF_MEM_LVL_MISS);
	KUNIT_EXPECT_EQ(test, (u32)src(INTEL_PEBS_STORE, 0).mem_snoop,
			PERF_MEM_SNOOP_NA);
}

/* Events that are not the load latency event say little or nothing. */
static void pebs_other_sources(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, intel_pebs_data_src(INTEL_PEBS_PLAIN, 0x1f),
			(u64)PERF_MEM_NA);
	KUNIT_EXPECT_EQ(test, (u32)src(INTEL_PEBS_LOAD, 1).mem_op,
			PERF_MEM_OP_LOAD);
	KUNIT_EXPECT_EQ(test, (u32)src(INTEL_PEBS_LOAD, 1).mem_lvl,
			PERF_MEM_LVL_NA);
}

/* The load latency facility's levels, snoops, TLB and lock bits. */
static void pebs_load_latency_source(struct kunit *test)
{
	static const struct {
		u64 dse;
		u32 lvl;
		u32 snoop;
	} cases[] = {
		{ 0x1, PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT, PERF_MEM_SNOOP_NONE },
		{ 0x3, PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT, PERF_MEM_SNOOP_NONE },
		{ 0x4, PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, PERF_MEM_SNOOP_NONE },
		{ 0x7, PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, PERF_MEM_SNOOP_HITM },
	};
	union perf_mem_data_src s;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		s = src(INTEL_PEBS_LDLAT, cases[i].dse);
		KUNIT_EXPECT_EQ(test, (u32)s.mem_op, PERF_MEM_OP_LOAD);
		KUNIT_EXPECT_EQ(test, (u32)s.mem_lvl, cases[i].lvl);
		KUNIT_EXPECT_EQ(test, (u32)s.mem_snoop, cases[i].snoop);
		KUNIT_EXPECT_EQ(test, (u32)s.mem_dtlb,
				PERF_MEM_TLB_L1 | PERF_MEM_TLB_L2 |
				PERF_MEM_TLB_HIT);
		KUNIT_EXPECT_EQ(test, (u32)s.mem_lock, 0);
	}
	s = src(INTEL_PEBS_LDLAT, 0x31);
	KUNIT_EXPECT_EQ(test, (u32)s.mem_lvl, PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u32)s.mem_dtlb, PERF_MEM_TLB_L2 | PERF_MEM_TLB_MISS);
	KUNIT_EXPECT_EQ(test, (u32)s.mem_lock, PERF_MEM_LOCK_LOCKED);
	/* Every source is a load's, and says whether it hit. */
	for (i = 0; i < 16; i++) {
		s = src(INTEL_PEBS_LDLAT, i);
		KUNIT_EXPECT_EQ(test, (u32)s.mem_op, PERF_MEM_OP_LOAD);
		KUNIT_EXPECT_TRUE(test, (u32)s.mem_lvl &
				  (PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS));
	}
}

/* Each model's precise events name real counters and event selects. */
static void pebs_model_tables(struct kunit *test)
{
	static const struct intel_pebs * const tables[] = {
		&intel_pebs_skl, &intel_pebs_icl,
	};
	const struct intel_pebs_event *e;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		KUNIT_EXPECT_NOT_NULL(test, tables[i]->mem_events);
		for (j = 0; j < tables[i]->n_events; j++) {
			e = &tables[i]->events[j];
			KUNIT_EXPECT_NE(test, e->on.counters, 0ULL);
			KUNIT_EXPECT_TRUE(test, e->kind <= INTEL_PEBS_STORE);
			KUNIT_EXPECT_EQ(test, e->on.code & ~X86_RAW_EVENT_MASK,
					0U);
			/* It matches itself. */
			KUNIT_EXPECT_TRUE(test, intel_constraint_match(&e->on,
								       e->on.code));
		}
	}
}

static struct kunit_case intel_pebs_cases[] = {
	KUNIT_CASE(pebs_store_source),
	KUNIT_CASE(pebs_other_sources),
	KUNIT_CASE(pebs_load_latency_source),
	KUNIT_CASE(pebs_model_tables),
	{}
};

static struct kunit_suite intel_pebs_suite = {
	.name = "perf_x86_intel_pebs",
	.test_cases = intel_pebs_cases,
};

kunit_test_suites(&intel_pebs_suite);
