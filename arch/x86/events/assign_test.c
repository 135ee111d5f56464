// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of x86_assign_counters(), with made-up constraint sets.
 */
#include <kunit/test.h>

#include "pmu.h"

#define GP(n)		GENMASK_ULL((n) - 1, 0)
#define FIXED(n)	BIT_ULL(X86_PMC_FIXED + (n))
/* AMD's large-increment events: an even counter and the odd one above. */
#define PAIR6		(BIT_ULL(0) | BIT_ULL(2) | BIT_ULL(4) | X86_COUNTERS_PAIR)

/* Every event got a counter it may use, and no counter is shared. */
static void expect_valid(struct kunit *test, const u64 *allowed, int n,
			 const int *assign)
{
	u64 used = 0;
	int i;

	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_GE(test, assign[i], 0);
		KUNIT_ASSERT_LT(test, assign[i], X86_PMC_MAX - 1);
		KUNIT_EXPECT_TRUE(test, allowed[i] & BIT_ULL(assign[i]));
		KUNIT_EXPECT_FALSE(test, used & BIT_ULL(assign[i]));
		used |= BIT_ULL(assign[i]);
		if (!(allowed[i] & X86_COUNTERS_PAIR))
			continue;
		KUNIT_EXPECT_FALSE(test, used & BIT_ULL(assign[i] + 1));
		used |= BIT_ULL(assign[i] + 1);
	}
}

static void assign_unconstrained(struct kunit *test)
{
	u64 allowed[4] = { GP(4), GP(4), GP(4), GP(4) };
	int assign[4] = { -1, -1, -1, -1 };

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 4, assign));
	expect_valid(test, allowed, 4, assign);
	/* Lowest counters first: deterministic. */
	KUNIT_EXPECT_EQ(test, assign[0], 0);
	KUNIT_EXPECT_EQ(test, assign[3], 3);
}

static void assign_too_many(struct kunit *test)
{
	u64 allowed[5] = { GP(4), GP(4), GP(4), GP(4), GP(4) };
	int assign[5] = { -1, -1, -1, -1, -1 };

	KUNIT_EXPECT_FALSE(test, x86_assign_counters(allowed, 5, assign));
}

/* A fixed-counter event goes on its fixed counter while it is free. */
static void assign_prefers_fixed(struct kunit *test)
{
	u64 allowed[3] = { GP(4) | FIXED(0), GP(4) | FIXED(0), GP(4) };
	int assign[3] = { -1, -1, -1 };

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 3, assign));
	expect_valid(test, allowed, 3, assign);
	KUNIT_EXPECT_EQ(test, assign[0], X86_PMC_FIXED);
	KUNIT_EXPECT_EQ(test, assign[1], 0);
	KUNIT_EXPECT_EQ(test, assign[2], 1);
}

/* Two events that only one fixed counter can take never fit. */
static void assign_fixed_only_conflict(struct kunit *test)
{
	u64 allowed[2] = { FIXED(2), FIXED(2) };
	int assign[2] = { -1, -1 };

	KUNIT_EXPECT_FALSE(test, x86_assign_counters(allowed, 2, assign));
}

/*
 * Overlapping constraints that a first-come pass gets wrong: A may use
 * 0 or 1, B 1 or 2, C only 0.  A and B, taken first, sit on 0 and 1;
 * C must push A to 1 and A push B to 2.
 */
static void assign_augmenting_path(struct kunit *test)
{
	u64 allowed[3] = { BIT_ULL(0) | BIT_ULL(1), BIT_ULL(1) | BIT_ULL(2),
			   BIT_ULL(0) };
	int assign[3] = { -1, -1, -1 };

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 3, assign));
	expect_valid(test, allowed, 3, assign);
	KUNIT_EXPECT_EQ(test, assign[0], 1);
	KUNIT_EXPECT_EQ(test, assign[1], 2);
	KUNIT_EXPECT_EQ(test, assign[2], 0);
}

/* Events already on counters stay there when the new one fits around. */
static void assign_keeps_current(struct kunit *test)
{
	u64 allowed[3] = { GP(4), GP(4), GP(4) };
	int assign[3] = { 3, 1, -1 };

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 3, assign));
	expect_valid(test, allowed, 3, assign);
	KUNIT_EXPECT_EQ(test, assign[0], 3);
	KUNIT_EXPECT_EQ(test, assign[1], 1);
	KUNIT_EXPECT_EQ(test, assign[2], 0);
}

/* ... and move when the new one needs their counter. */
static void assign_moves_current(struct kunit *test)
{
	u64 allowed[2] = { GP(2), BIT_ULL(0) };
	int assign[2] = { 0, -1 };

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 2, assign));
	KUNIT_EXPECT_EQ(test, assign[0], 1);
	KUNIT_EXPECT_EQ(test, assign[1], 0);
}

/* A current counter the event may not use, or that is taken, is dropped. */
static void assign_ignores_bad_current(struct kunit *test)
{
	u64 allowed[3] = { BIT_ULL(1), GP(2), GP(4) };
	int assign[3] = { 0, 0, 40 };

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 3, assign));
	expect_valid(test, allowed, 3, assign);
	KUNIT_EXPECT_EQ(test, assign[0], 1);
	KUNIT_EXPECT_EQ(test, assign[1], 0);
}

/* An event no counter can take, and the empty set. */
static void assign_edges(struct kunit *test)
{
	u64 allowed[1] = { 0 };
	int assign[1] = { -1 };

	KUNIT_EXPECT_FALSE(test, x86_assign_counters(allowed, 1, assign));
	KUNIT_EXPECT_TRUE(test, x86_assign_counters(allowed, 0, assign));
}

/* The largest PMU there is: every counter in use, in a chain of moves. */
static void assign_full_chain(struct kunit *test)
{
	u64 allowed[X86_PMU_MAX_EVENTS];
	int assign[X86_PMU_MAX_EVENTS];
	int i, n = INTEL_PMC_MAX_GENERIC;

	/* Event i may use counters i and i + 1; the last only counter 0. */
	for (i = 0; i < n - 1; i++)
		allowed[i] = BIT_ULL(i) | BIT_ULL(i + 1);
	allowed[n - 1] = BIT_ULL(0);
	for (i = 0; i < n; i++)
		assign[i] = -1;

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, n, assign));
	expect_valid(test, allowed, n, assign);
	KUNIT_EXPECT_EQ(test, assign[n - 1], 0);
}

/* Three pairs fill six counters; a fourth, or one more event, does not fit. */
static void assign_pairs_fill(struct kunit *test)
{
	u64 allowed[4] = { PAIR6, GP(6), PAIR6, GP(6) };
	int assign[4] = { -1, -1, -1, -1 };

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 4, assign));
	expect_valid(test, allowed, 4, assign);
	KUNIT_EXPECT_EQ(test, assign[0], 0);
	KUNIT_EXPECT_EQ(test, assign[2], 2);

	allowed[3] = PAIR6;
	memset(assign, -1, sizeof(assign));
	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 3, assign));
	expect_valid(test, allowed, 3, assign);
	KUNIT_EXPECT_FALSE(test, x86_assign_counters(allowed, 4, assign));

	allowed[3] = GP(6);
	allowed[1] = PAIR6;
	memset(assign, -1, sizeof(assign));
	KUNIT_EXPECT_FALSE(test, x86_assign_counters(allowed, 4, assign));
}

/*
 * A single event on counter 1 splits the lowest pair: the paired event
 * goes above it, and keeps its pair when another event comes.
 */
static void assign_pairs_around(struct kunit *test)
{
	u64 allowed[3] = { PAIR6, BIT_ULL(1), GP(6) };
	int assign[3] = { -1, -1, -1 };

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 2, assign));
	expect_valid(test, allowed, 2, assign);
	KUNIT_EXPECT_EQ(test, assign[0], 2);
	KUNIT_EXPECT_EQ(test, assign[1], 1);

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 3, assign));
	expect_valid(test, allowed, 3, assign);
	KUNIT_EXPECT_EQ(test, assign[0], 2);
	KUNIT_EXPECT_EQ(test, assign[2], 0);
}

/* A paired event moves off its pair when a later one needs it whole. */
static void assign_pairs_move(struct kunit *test)
{
	u64 allowed[4] = { PAIR6, BIT_ULL(0), BIT_ULL(1), GP(6) };
	int assign[4] = { 0, -1, -1, -1 };

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 4, assign));
	expect_valid(test, allowed, 4, assign);
	KUNIT_EXPECT_EQ(test, assign[1], 0);
	KUNIT_EXPECT_EQ(test, assign[2], 1);
	KUNIT_EXPECT_NE(test, assign[0], 0);
}

/* A new paired event goes where it moves no event already counting. */
static void assign_pairs_keep_others(struct kunit *test)
{
	u64 allowed[3] = { GP(6), GP(6), PAIR6 };
	int assign[3] = { 1, 2, -1 };

	KUNIT_ASSERT_TRUE(test, x86_assign_counters(allowed, 3, assign));
	expect_valid(test, allowed, 3, assign);
	KUNIT_EXPECT_EQ(test, assign[0], 1);
	KUNIT_EXPECT_EQ(test, assign[1], 2);
	KUNIT_EXPECT_EQ(test, assign[2], 4);
}

static struct kunit_case x86_assign_cases[] = {
	KUNIT_CASE(assign_unconstrained),
	KUNIT_CASE(assign_too_many),
	KUNIT_CASE(assign_prefers_fixed),
	KUNIT_CASE(assign_fixed_only_conflict),
	KUNIT_CASE(assign_augmenting_path),
	KUNIT_CASE(assign_keeps_current),
	KUNIT_CASE(assign_moves_current),
	KUNIT_CASE(assign_ignores_bad_current),
	KUNIT_CASE(assign_edges),
	KUNIT_CASE(assign_full_chain),
	KUNIT_CASE(assign_pairs_fill),
	KUNIT_CASE(assign_pairs_around),
	KUNIT_CASE(assign_pairs_move),
	KUNIT_CASE(assign_pairs_keep_others),
	{}
};

static struct kunit_suite x86_assign_suite = {
	.name = "perf_x86_assign",
	.test_cases = x86_assign_cases,
};

kunit_test_suites(&x86_assign_suite);
