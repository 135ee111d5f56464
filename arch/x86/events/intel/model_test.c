// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Intel model tables (model.h): every table is well
 * formed, so that a typo in one (a constraint that can never match, a
 * counter no model has, an event select with bits an event select does
 * not have) is caught on any machine, not only on the model's silicon.
 * What each table says is checked against 6.1 by harness/models.sh.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <asm/msr-index.h>

#include "model.h"

static const struct intel_model * const models[] = {
	&intel_core, &intel_core2, &intel_nehalem, &intel_westmere,
	&intel_sandybridge, &intel_ivybridge, &intel_haswell,
	&intel_broadwell, &intel_skylake, &intel_icelake,
	&intel_sapphirerapids, &intel_knl, &intel_bonnell, &intel_silvermont,
	&intel_goldmont, &intel_goldmont_plus, &intel_tremont,
	&intel_gracemont, &intel_alderlake, &intel_alderlake_atom,
};

/* Eight general counters and four fixed ones at most, today. */
#define ANY_COUNTER	(GENMASK_ULL(7, 0) | INTEL_FIXED(0) |		\
			 INTEL_FIXED(1) | INTEL_FIXED(2) | INTEL_FIXED(3))

/* Whether @code is something an event select can hold. */
static bool is_event_select(u64 code)
{
	return code && !(code & ~X86_RAW_EVENT_MASK);
}

static void model_names(struct kunit *test)
{
	int i, j;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		KUNIT_EXPECT_NOT_NULL(test, models[i]->name);
		KUNIT_EXPECT_NOT_NULL(test, models[i]->pmu_name);
		KUNIT_EXPECT_NOT_NULL(test, models[i]->cache_map);
		/*
		 * caps/pmu_name tells models apart: no two share one, but
		 * the two kinds of core of one hybrid.
		 */
		for (j = 0; j < i; j++) {
			if (models[j]->atom == models[i])
				continue;
			KUNIT_EXPECT_STRNEQ(test, models[i]->pmu_name,
					    models[j]->pmu_name);
		}
	}
}

static void model_events(struct kunit *test)
{
	const struct intel_event_code *e;
	int i, j;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		for (j = 0; j < models[i]->n_events; j++) {
			e = &models[i]->events[j];
			KUNIT_EXPECT_LT_MSG(test, e->id, PERF_COUNT_HW_MAX,
					    "%s", models[i]->name);
			KUNIT_EXPECT_TRUE_MSG(test, is_event_select(e->code),
					      "%s: %#llx", models[i]->name,
					      e->code);
		}
	}
}

/* A cache map entry: none (0), refused (X86_EVENT_INVALID), or an event. */
static bool is_cache_entry(u64 v)
{
	return !v || v == X86_EVENT_INVALID || is_event_select(v);
}

static void model_cache_maps(struct kunit *test)
{
	const u64 *entry;
	int i, k;

	/*
	 * A table made at boot from another (init) is empty unless this is
	 * its model: the one it is made from is checked all the same.
	 * Entry k is [k / 6][k / 2 % 3][k % 2].
	 */
	for (i = 0; i < ARRAY_SIZE(models); i++) {
		entry = &(*models[i]->cache_map)[0][0][0];
		for (k = 0; k < sizeof(x86_cache_map_t) / sizeof(u64); k++)
			KUNIT_EXPECT_TRUE_MSG(test, is_cache_entry(entry[k]),
					      "%s: entry %d", models[i]->name,
					      k);
	}
}

static void model_constraints(struct kunit *test)
{
	const struct intel_constraint *k;
	int i, j;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		for (j = 0; j < models[i]->n_constraints; j++) {
			k = &models[i]->constraints[j];
			KUNIT_EXPECT_EQ_MSG(test, k->counters & ~ANY_COUNTER,
					    0, "%s: %#x", models[i]->name,
					    k->code);
			if (k->last) {
				/* A range: event selects only, in order. */
				KUNIT_EXPECT_LE_MSG(test, k->code,
						    (u32)k->last, "%s",
						    models[i]->name);
				continue;
			}
			/* Bits of the code the match ignores never match. */
			KUNIT_EXPECT_EQ_MSG(test, k->code & ~k->match, 0,
					    "%s: %#x", models[i]->name,
					    k->code);
		}
	}
}

static void model_extra_msrs(struct kunit *test)
{
	const struct intel_extra_msr *x;
	int i, j, k;
	u64 bit0;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		/* intel/core.c keeps which are present in one long. */
		KUNIT_EXPECT_LE(test, models[i]->n_extra_msrs, BITS_PER_LONG);
		for (j = 0; j < models[i]->n_extra_msrs; j++) {
			x = &models[i]->extra_msrs[j];
			KUNIT_EXPECT_TRUE_MSG(test, x->msr == MSR_OFFCORE_RSP_0 ||
					      x->msr == MSR_OFFCORE_RSP_1 ||
					      x->msr == MSR_PEBS_LD_LAT_THRESHOLD ||
					      x->msr == MSR_PEBS_FRONTEND,
					      "%s: %#x", models[i]->name, x->msr);
			KUNIT_EXPECT_TRUE(test, is_event_select(x->code));
			KUNIT_EXPECT_NE(test, x->valid, 0ULL);
			/*
			 * Bit 0 is how intel/core.c finds the register:
			 * an event of it may set it.
			 */
			for (bit0 = 0, k = 0; k < models[i]->n_extra_msrs; k++)
				if (models[i]->extra_msrs[k].msr == x->msr)
					bit0 |= models[i]->extra_msrs[k].valid & 1;
			KUNIT_EXPECT_TRUE_MSG(test, bit0, "%s: %#x",
					      models[i]->name, x->msr);
			for (k = 0; k < j; k++)
				KUNIT_EXPECT_NE_MSG(test, x->code,
						    models[i]->extra_msrs[k].code,
						    "%s", models[i]->name);
		}
	}
}

/* The entry of a model's extra MSRs for event select @code, or NULL. */
static const struct intel_extra_msr *extra_of(const struct intel_model *m,
					      u64 code)
{
	int j;

	for (j = 0; j < m->n_extra_msrs; j++) {
		if (m->extra_msrs[j].code == (code & INTEL_MATCH_UMASK))
			return &m->extra_msrs[j];
	}
	return NULL;
}

/*
 * A cache event's extra register value is there only for an event that
 * has an extra register, and is one the register takes.
 */
static void model_cache_extra(struct kunit *test)
{
	const struct intel_extra_msr *x;
	const u64 *entry, *extra;
	int i, k;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		if (!models[i]->cache_extra)
			continue;
		entry = &(*models[i]->cache_map)[0][0][0];
		extra = &(*models[i]->cache_extra)[0][0][0];
		for (k = 0; k < sizeof(x86_cache_map_t) / sizeof(u64); k++) {
			if (!extra[k])
				continue;
			x = extra_of(models[i], entry[k]);
			if (!x) {
				/* A table made at boot (init) may be empty. */
				KUNIT_EXPECT_EQ_MSG(test, entry[k], 0ULL,
						    "%s: entry %d",
						    models[i]->name, k);
				continue;
			}
			KUNIT_EXPECT_EQ_MSG(test, extra[k] & ~x->valid, 0ULL,
					    "%s: entry %d", models[i]->name, k);
		}
	}
}

/*
 * A hybrid's two tables: the Atom cores' is among the models, is no
 * hybrid itself and has no metrics; the big cores have a few counters
 * more than CPUID 0xA says, never fewer.
 */
static void model_hybrids(struct kunit *test)
{
	const struct intel_model *atom;
	int i, j, found;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		atom = models[i]->atom;
		if (!atom) {
			KUNIT_EXPECT_EQ(test, models[i]->more_gp, 0);
			KUNIT_EXPECT_EQ(test, models[i]->more_fixed, 0);
			continue;
		}
		for (found = 0, j = 0; j < ARRAY_SIZE(models); j++)
			found |= models[j] == atom;
		KUNIT_EXPECT_TRUE_MSG(test, found, "%s", models[i]->name);
		KUNIT_EXPECT_NULL(test, atom->atom);
		KUNIT_EXPECT_EQ(test, atom->metrics, 0U);
		KUNIT_EXPECT_STREQ(test, atom->pmu_name, models[i]->pmu_name);
		KUNIT_EXPECT_LE(test, models[i]->more_gp, 4);
		KUNIT_EXPECT_LE(test, models[i]->more_fixed, 1);
	}
}

/*
 * The topdown metrics of the first CPU type, the only one that may have
 * them (a hybrid's big cores; topdown.c): none of the pseudo-events
 * is a metric without them; with them, each of the model's is, on a
 * pseudo-counter of its own, which the global control shows as bit 48,
 * and the one after the last is an ordinary event.
 */
static void model_topdown(struct kunit *test)
{
	const struct x86_cpu_type *type = &x86_cpu_types[0];
	unsigned int n = hweight64(type->metrics), i;
	u64 all = 0, config;

	for (i = 0; i < ARRAY_SIZE(models); i++)
		KUNIT_EXPECT_TRUE_MSG(test, !models[i]->metrics ||
				      models[i]->metrics == 4 ||
				      models[i]->metrics == 8,
				      "%s", models[i]->name);
	KUNIT_EXPECT_EQ(test, intel_global_bits(0xfULL), 0xfULL);
	for (i = 0; i <= INTEL_TD_METRIC_NUM; i++) {
		config = 0x8000 + (i << 8);
		KUNIT_EXPECT_EQ_MSG(test, intel_is_metric(type, config), i < n,
				    "%#llx", config);
		/* A qualifier or an event select byte: not a metric. */
		KUNIT_EXPECT_FALSE(test, intel_is_metric(type, config | 0x3c));
		if (i < n)
			all |= intel_metric_counter(config | 0x130000);
	}
	KUNIT_EXPECT_EQ(test, all, type->metrics);
	/* No other type has metrics. */
	KUNIT_EXPECT_EQ(test, x86_cpu_types[1].metrics, 0ULL);
	if (!n)
		return;
	KUNIT_EXPECT_EQ(test, intel_metric_counter(0x8000),
			BIT_ULL(X86_PMC_METRIC));
	KUNIT_EXPECT_EQ(test, intel_global_bits(type->metrics | 0xfULL),
			BIT_ULL(X86_PMC_METRIC) | 0xfULL);
}

static struct kunit_case intel_model_cases[] = {
	KUNIT_CASE(model_names),
	KUNIT_CASE(model_events),
	KUNIT_CASE(model_cache_maps),
	KUNIT_CASE(model_constraints),
	KUNIT_CASE(model_extra_msrs),
	KUNIT_CASE(model_cache_extra),
	KUNIT_CASE(model_hybrids),
	KUNIT_CASE(model_topdown),
	{}
};

static struct kunit_suite intel_model_suite = {
	.name = "perf_x86_intel_models",
	.test_cases = intel_model_cases,
};

kunit_test_suites(&intel_model_suite);
