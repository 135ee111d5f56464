// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the breakpoint slot accounting (bp_slots.c).
 *
 * reserve_bp_slot() looks only at an event's task and CPU, so the tests
 * make up breakpoint events that are never installed, for made-up tasks
 * whose addresses are all the accounting compares.  A CPU needs a slot
 * for each of its CPU-wide breakpoints plus the most breakpoints any one
 * task may bring to it; what does not fit gets -ENOSPC.
 *
 * The accounting is global: the suite is skipped if any breakpoint
 * exists, and each test releases what it reserved.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/hw_breakpoint.h>
#include <linux/sched.h>

#include "internal.h"

#define SLOTS		hw_breakpoint_slots(TYPE_DATA)
#define NR_TEST_BPS	32
#define NR_TEST_TASKS	3

struct bp_slots_test {
	struct perf_event	*bps[NR_TEST_BPS];
	bool			reserved[NR_TEST_BPS];
	unsigned int		nr;
	struct task_struct	*task[NR_TEST_TASKS];
};

/*
 * Reserve a slot for a new breakpoint of @task (NULL: CPU-wide) on @cpu
 * (-1: any).  Return the errno; *@id gets the breakpoint's index.
 */
static int bp_reserve(struct kunit *test, struct task_struct *task, int cpu,
		      int *id)
{
	struct bp_slots_test *t = test->priv;
	struct perf_event *bp;
	int ret;

	if (t->nr >= NR_TEST_BPS) {
		KUNIT_FAIL(test, "too many breakpoints for the test");
		return -ENOMEM;
	}
	bp = kunit_kzalloc(test, sizeof(*bp), GFP_KERNEL);
	if (!bp) {
		KUNIT_FAIL(test, "out of memory");
		return -ENOMEM;
	}
	bp->attr.type = PERF_TYPE_BREAKPOINT;
	bp->attr.bp_type = HW_BREAKPOINT_W;
	bp->cpu = cpu;
	bp->hw.target = task;

	ret = reserve_bp_slot(bp);
	if (id)
		*id = t->nr;
	t->reserved[t->nr] = !ret;
	t->bps[t->nr++] = bp;
	return ret;
}

/* Reserve @nr breakpoints that must all fit. */
static void bp_reserve_ok(struct kunit *test, struct task_struct *task,
			  int cpu, int nr)
{
	while (nr--)
		KUNIT_EXPECT_EQ(test, bp_reserve(test, task, cpu, NULL), 0);
}

static void bp_release(struct kunit *test, int id)
{
	struct bp_slots_test *t = test->priv;

	if (!t->reserved[id]) {
		KUNIT_FAIL(test, "breakpoint %d holds no slot", id);
		return;
	}
	release_bp_slot(t->bps[id]);
	t->reserved[id] = false;
}

static int bp_slots_test_init(struct kunit *test)
{
	struct bp_slots_test *t;
	int i;

	if (hw_breakpoint_is_used())
		kunit_skip(test, "breakpoints exist already");

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	for (i = 0; i < NR_TEST_TASKS; i++) {
		t->task[i] = kunit_kzalloc(test, sizeof(*t->task[i]),
					   GFP_KERNEL);
		if (!t->task[i])
			return -ENOMEM;
	}
	test->priv = t;
	return 0;
}

static void bp_slots_test_exit(struct kunit *test)
{
	struct bp_slots_test *t = test->priv;
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->nr; i++) {
		if (t->reserved[i])
			release_bp_slot(t->bps[i]);
	}
	KUNIT_EXPECT_FALSE(test, hw_breakpoint_is_used());
}

static void bp_need_cpus(struct kunit *test, unsigned int nr)
{
	if (num_possible_cpus() < nr)
		kunit_skip(test, "needs %u possible CPUs", nr);
}

/* A task has as many breakpoints as slots; tasks do not add up. */
static void bp_slots_per_task(struct kunit *test)
{
	struct bp_slots_test *t = test->priv;
	int id;

	bp_reserve_ok(test, t->task[0], -1, SLOTS - 1);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], -1, &id), 0);
	KUNIT_EXPECT_TRUE(test, hw_breakpoint_is_used());
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], -1, NULL), -ENOSPC);

	/* Another task has its own. */
	bp_reserve_ok(test, t->task[1], -1, SLOTS);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[1], -1, NULL), -ENOSPC);

	/* A slot given back can be taken again, once. */
	bp_release(test, id);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], -1, NULL), 0);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], -1, NULL), -ENOSPC);
}

/* CPU-wide breakpoints fill their CPU only. */
static void bp_slots_per_cpu(struct kunit *test)
{
	struct bp_slots_test *t = test->priv;

	bp_need_cpus(test, 2);
	bp_reserve_ok(test, NULL, 0, SLOTS);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 1, NULL), 0);

	/* A task breakpoint that may run on CPU 0 does not fit ... */
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], -1, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], 0, NULL), -ENOSPC);
	/* ... one bound to CPU 1 does, next to its CPU-wide one. */
	bp_reserve_ok(test, t->task[0], 1, SLOTS - 1);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], 1, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 1, NULL), -ENOSPC);
}

/* A CPU-wide breakpoint and the task breakpoints share the slots. */
static void bp_slots_cpu_and_task(struct kunit *test)
{
	struct bp_slots_test *t = test->priv;
	int id;

	bp_reserve_ok(test, t->task[0], -1, SLOTS - 1);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, &id), 0);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], -1, NULL), -ENOSPC);
	/* Every task may bring as many, but not more. */
	bp_reserve_ok(test, t->task[1], -1, SLOTS - 1);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[1], -1, NULL), -ENOSPC);

	/* Without the CPU-wide one, each task has its last slot back. */
	bp_release(test, id);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], -1, NULL), 0);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[1], -1, NULL), 0);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, NULL), -ENOSPC);
}

/* What the CPU must keep free is the largest task's, not the sum. */
static void bp_slots_max_over_tasks(struct kunit *test)
{
	struct bp_slots_test *t = test->priv;
	int first, big[2];

	bp_reserve_ok(test, t->task[0], -1, SLOTS / 2);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[1], -1, &big[0]), 0);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[1], -1, &big[1]), 0);
	bp_reserve_ok(test, t->task[1], -1, SLOTS / 2 - 1);
	bp_reserve_ok(test, t->task[2], -1, 1);

	/* task[1] has SLOTS / 2 + 1: one slot left for the CPU. */
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, &first), 0);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, NULL), -ENOSPC);

	/* Down to SLOTS / 2, like task[0]: one more. */
	bp_release(test, big[0]);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, NULL), -ENOSPC);
	bp_release(test, big[1]);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, NULL), -ENOSPC);
}

/* Task breakpoints bound to a CPU count there only. */
static void bp_slots_task_bound(struct kunit *test)
{
	struct bp_slots_test *t = test->priv;
	int bound[2];

	bp_need_cpus(test, 2);
	bp_reserve_ok(test, t->task[0], -1, SLOTS / 2);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], 0, &bound[0]), 0);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], 0, &bound[1]), 0);
	bp_reserve_ok(test, t->task[0], 0, SLOTS / 2 - 2);

	/* CPU 0 is full for task[0]; CPU 1 has room for SLOTS / 2. */
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], 0, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], -1, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, NULL), -ENOSPC);
	bp_reserve_ok(test, NULL, 1, SLOTS / 2);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 1, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[0], 1, NULL), -ENOSPC);

	/* Another task with a bound breakpoint of its own on CPU 0. */
	KUNIT_EXPECT_EQ(test, bp_reserve(test, t->task[1], 0, NULL), 0);

	/* Without its bound ones, task[0] leaves two slots of CPU 0. */
	bp_release(test, bound[0]);
	bp_release(test, bound[1]);
	bp_reserve_ok(test, NULL, 0, SLOTS / 2);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, NULL), -ENOSPC);
}

/* The debugger's variants share the accounting. */
static void bp_slots_dbg(struct kunit *test)
{
	struct bp_slots_test *t = test->priv;
	int id, extra;

	bp_reserve_ok(test, NULL, 0, SLOTS - 1);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, &id), 0);
	KUNIT_EXPECT_EQ(test, bp_reserve(test, NULL, 0, &extra), -ENOSPC);

	KUNIT_EXPECT_EQ(test, dbg_release_bp_slot(t->bps[id]), 0);
	KUNIT_EXPECT_EQ(test, dbg_reserve_bp_slot(t->bps[extra]), 0);
	KUNIT_EXPECT_EQ(test, dbg_reserve_bp_slot(t->bps[id]), -ENOSPC);
	/* Let the exit function release the one that holds the slot now. */
	t->reserved[id] = false;
	t->reserved[extra] = true;
}

static struct kunit_case bp_slots_cases[] = {
	KUNIT_CASE(bp_slots_per_task),
	KUNIT_CASE(bp_slots_per_cpu),
	KUNIT_CASE(bp_slots_cpu_and_task),
	KUNIT_CASE(bp_slots_max_over_tasks),
	KUNIT_CASE(bp_slots_task_bound),
	KUNIT_CASE(bp_slots_dbg),
	{}
};

static struct kunit_suite bp_slots_suite = {
	.name = "perf_bp_slots",
	.init = bp_slots_test_init,
	.exit = bp_slots_test_exit,
	.test_cases = bp_slots_cases,
};

kunit_test_suites(&bp_slots_suite);
