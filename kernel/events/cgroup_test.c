// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the cgroup clocks and matching (cgroup.c), on a made-up
 * hierarchy driven through one CPU's perf_cgroup_cpu:
 *
 *	root
 *	 +-- a
 *	 |   +-- a1
 *	 +-- b
 *
 * Only the current cgroup and its ancestors are active: their clocks
 * advance, the others' stand still.
 */
#include <kunit/test.h>
#include <linux/cgroup.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>

#include "internal.h"

enum { ROOT, A, A1, B, NR_CGROUPS };

static const int cgroup_test_parent[NR_CGROUPS] = {
	[ROOT] = -1, [A] = ROOT, [A1] = A, [B] = ROOT,
};

struct cgroup_test {
	struct perf_cgroup	cgrp[NR_CGROUPS];
	struct perf_cgroup_cpu	pcc;
	int			cpu;
};

static int cgroup_test_init(struct kunit *test)
{
	struct cgroup_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < NR_CGROUPS; i++) {
		t->cgrp[i].clock = alloc_percpu(struct perf_cgroup_clock);
		KUNIT_ASSERT_NOT_NULL(test, t->cgrp[i].clock);
		if (cgroup_test_parent[i] >= 0)
			t->cgrp[i].css.parent =
				&t->cgrp[cgroup_test_parent[i]].css;
	}
	t->cpu = raw_smp_processor_id();
	test->priv = t;
	return 0;
}

static void cgroup_test_exit(struct kunit *test)
{
	struct cgroup_test *t = test->priv;
	int i;

	for (i = 0; i < NR_CGROUPS; i++)
		free_percpu(t->cgrp[i].clock);
}

static u64 cgroup_test_time(struct cgroup_test *t, int i)
{
	return per_cpu_ptr(t->cgrp[i].clock, t->cpu)->time;
}

/* Expect the clocks of root, a, a1 and b. */
static void cgroup_test_expect(struct kunit *test, u64 root, u64 a, u64 a1,
			       u64 b)
{
	struct cgroup_test *t = test->priv;

	KUNIT_EXPECT_EQ(test, cgroup_test_time(t, ROOT), root);
	KUNIT_EXPECT_EQ(test, cgroup_test_time(t, A), a);
	KUNIT_EXPECT_EQ(test, cgroup_test_time(t, A1), a1);
	KUNIT_EXPECT_EQ(test, cgroup_test_time(t, B), b);
}

/* The current cgroup changes at @now, as on a context switch. */
static void cgroup_test_switch(struct cgroup_test *t, int to, u64 now)
{
	perf_cgroup_cpu_advance(&t->pcc, t->cpu, now);
	perf_cgroup_cpu_set(&t->pcc, t->cpu, to < 0 ? NULL : &t->cgrp[to],
			    now);
}

/* A task of a1 runs: a1 and its ancestors advance, b does not. */
static void cgroup_test_clock_line(struct kunit *test)
{
	struct cgroup_test *t = test->priv;

	cgroup_test_switch(t, A1, 100);
	perf_cgroup_cpu_advance(&t->pcc, t->cpu, 150);
	cgroup_test_expect(test, 50, 50, 50, 0);
	perf_cgroup_cpu_advance(&t->pcc, t->cpu, 170);
	cgroup_test_expect(test, 70, 70, 70, 0);
}

/*
 * From a1 to b and on to a: a cgroup's clock stops when it stops being
 * an ancestor of the current one and picks up where it stood; the root's
 * never stops.
 */
static void cgroup_test_clock_switch(struct kunit *test)
{
	struct cgroup_test *t = test->priv;

	cgroup_test_switch(t, A1, 100);
	cgroup_test_switch(t, B, 200);
	cgroup_test_expect(test, 100, 100, 100, 0);
	perf_cgroup_cpu_advance(&t->pcc, t->cpu, 300);
	cgroup_test_expect(test, 200, 100, 100, 100);
	/* a was frozen from 200 to 400: that time is not a's. */
	cgroup_test_switch(t, A, 400);
	cgroup_test_expect(test, 300, 100, 100, 200);
	perf_cgroup_cpu_advance(&t->pcc, t->cpu, 450);
	cgroup_test_expect(test, 350, 150, 100, 200);
}

/*
 * While a clock runs, its time is the time now plus its offset, which
 * its updates leave as it is: an NMI that interrupts one reads the
 * offset and gets the right time.  A clock that stopped takes a new
 * offset when it starts again.
 */
static void cgroup_test_clock_offset(struct kunit *test)
{
	struct cgroup_test *t = test->priv;
	struct perf_cgroup_clock *a1 = per_cpu_ptr(t->cgrp[A1].clock, t->cpu);
	struct perf_cgroup_clock *b = per_cpu_ptr(t->cgrp[B].clock, t->cpu);
	u64 offset;

	cgroup_test_switch(t, B, 100);
	cgroup_test_switch(t, A1, 130);
	offset = a1->offset;
	KUNIT_EXPECT_EQ(test, 130 + offset, 0ULL);
	perf_cgroup_cpu_advance(&t->pcc, t->cpu, 150);
	KUNIT_EXPECT_EQ(test, a1->offset, offset);
	KUNIT_EXPECT_EQ(test, 150 + a1->offset, a1->time);
	/* b stopped at 130 with 30; on again at 200, it runs from there. */
	cgroup_test_switch(t, B, 200);
	KUNIT_EXPECT_EQ(test, 250 + b->offset, 80ULL);
	perf_cgroup_cpu_advance(&t->pcc, t->cpu, 250);
	KUNIT_EXPECT_EQ(test, b->time, 80ULL);
}

/* No current cgroup (the CPU has no cgroup events): no clock moves. */
static void cgroup_test_clock_none(struct kunit *test)
{
	struct cgroup_test *t = test->priv;

	cgroup_test_switch(t, B, 100);
	cgroup_test_switch(t, -1, 200);
	perf_cgroup_cpu_advance(&t->pcc, t->cpu, 900);
	cgroup_test_expect(test, 100, 0, 0, 100);
}

/* A clock that seems to go backwards adds nothing. */
static void cgroup_test_clock_monotonic(struct kunit *test)
{
	struct cgroup_test *t = test->priv;

	cgroup_test_switch(t, A, 1000);
	perf_cgroup_cpu_advance(&t->pcc, t->cpu, 900);
	cgroup_test_expect(test, 0, 0, 0, 0);
	perf_cgroup_cpu_advance(&t->pcc, t->cpu, 950);
	cgroup_test_expect(test, 50, 50, 0, 0);
}

/* An event of a cgroup counts for its tasks and those of its subtree. */
static void cgroup_test_covers(struct kunit *test)
{
	static const bool want[NR_CGROUPS][NR_CGROUPS] = {
		/* current:  covers root, a, a1, b */
		[ROOT]	= { true,  false, false, false },
		[A]	= { true,  true,  false, false },
		[A1]	= { true,  true,  true,  false },
		[B]	= { true,  false, false, true  },
	};
	struct cgroup_test *t = test->priv;
	int cur, i;

	for (cur = 0; cur < NR_CGROUPS; cur++) {
		cgroup_test_switch(t, cur, 0);
		for (i = 0; i < NR_CGROUPS; i++)
			KUNIT_EXPECT_EQ_MSG(test, want[cur][i],
					    perf_cgroup_cpu_covers(&t->pcc,
								   &t->cgrp[i]),
					    "current %d, cgroup %d", cur, i);
	}
	cgroup_test_switch(t, -1, 0);
	for (i = 0; i < NR_CGROUPS; i++)
		KUNIT_EXPECT_FALSE(test, perf_cgroup_cpu_covers(&t->pcc,
								&t->cgrp[i]));
}

/* The id samples will carry: the task's cgroup on the default hierarchy. */
static void cgroup_test_id(struct kunit *test)
{
	u64 id;

	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(current));
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, perf_cgroup_id(current), id);
}

static struct kunit_case perf_cgroup_cases[] = {
	KUNIT_CASE(cgroup_test_clock_line),
	KUNIT_CASE(cgroup_test_clock_switch),
	KUNIT_CASE(cgroup_test_clock_none),
	KUNIT_CASE(cgroup_test_clock_monotonic),
	KUNIT_CASE(cgroup_test_clock_offset),
	KUNIT_CASE(cgroup_test_covers),
	KUNIT_CASE(cgroup_test_id),
	{}
};

static struct kunit_suite perf_cgroup_suite = {
	.name		= "perf_cgroup",
	.init		= cgroup_test_init,
	.exit		= cgroup_test_exit,
	.test_cases	= perf_cgroup_cases,
};

kunit_test_suites(&perf_cgroup_suite);
