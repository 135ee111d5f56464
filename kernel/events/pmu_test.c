// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the PMUs of the perf core:
 *
 *  - perf_pmu: the registry (pmu.c).  Test PMUs are registered and
 *    unregistered; perf_pmu_init_event() must send an event to the PMU
 *    its attr.type names, offer the generic hardware types to every PMU
 *    and report -ENOENT when nobody takes an event.
 *  - perf_swevent: the software PMU (software.c) through the kernel
 *    counter API, counting on the test's own thread and on its CPU.
 *
 * Every test undoes what it did: PMUs are unregistered in the suite's
 * exit function and counters released before the test returns.  No
 * KUNIT_ASSERT is used once something is registered or created, as an
 * aborted test case would skip that cleanup.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "internal.h"

/* A type no PMU has: far above the dynamic types handed out at boot. */
#define UNUSED_TYPE	0x7ffffff0u

/*
 * A config no real PMU knows, for the generic hardware types: the lower
 * half only, as the upper half names a PMU (PERF_PMU_TYPE_SHIFT).
 */
#define TEST_HW_CONFIG	0x7e57c0f1ULL

struct test_pmu {
	struct pmu	pmu;
	bool		registered;
	int		ret;		/* what event_init returns */
	bool		generic;	/* take PERF_TYPE_HARDWARE/HW_CACHE */
	u32		pass_to;	/* pass its events on to this type */
	int		init_calls;
	int		destroy_calls;
	int		enable_calls;
	int		disable_calls;
};

#define NR_TEST_PMUS	3

struct pmu_test_ctx {
	struct test_pmu	pmus[NR_TEST_PMUS];
};

static struct test_pmu *to_test_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct test_pmu, pmu);
}

static void test_pmu_destroy(struct perf_event *event)
{
	to_test_pmu(event->pmu)->destroy_calls++;
}

static int test_pmu_event_init(struct perf_event *event)
{
	struct test_pmu *tp = to_test_pmu(event->pmu);

	tp->init_calls++;
	if (event->attr.type == PERF_TYPE_HARDWARE ||
	    event->attr.type == PERF_TYPE_HW_CACHE) {
		if (!tp->generic || event->attr.config != TEST_HW_CONFIG)
			return -ENOENT;
	} else if (event->attr.type != tp->pmu.type) {
		return -ENOENT;
	}
	if (tp->pass_to) {
		event->attr.type = tp->pass_to;
		return -ENOENT;
	}
	if (tp->ret)
		return tp->ret;
	event->destroy = test_pmu_destroy;
	return 0;
}

static void test_pmu_pmu_enable(struct pmu *pmu)
{
	to_test_pmu(pmu)->enable_calls++;
}

static void test_pmu_pmu_disable(struct pmu *pmu)
{
	to_test_pmu(pmu)->disable_calls++;
}

/* No test event is ever scheduled: these only make the PMU complete. */
static int test_pmu_add(struct perf_event *event, int flags)
{
	return 0;
}

static void test_pmu_del(struct perf_event *event, int flags)
{
}

static void test_pmu_start(struct perf_event *event, int flags)
{
}

static void test_pmu_stop(struct perf_event *event, int flags)
{
}

static void test_pmu_read(struct perf_event *event)
{
}

static int pmu_test_init(struct kunit *test)
{
	struct pmu_test_ctx *ctx;
	int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;

	for (i = 0; i < NR_TEST_PMUS; i++) {
		struct pmu *pmu = &ctx->pmus[i].pmu;

		pmu->event_init = test_pmu_event_init;
		pmu->pmu_enable = test_pmu_pmu_enable;
		pmu->pmu_disable = test_pmu_pmu_disable;
		pmu->add = test_pmu_add;
		pmu->del = test_pmu_del;
		pmu->start = test_pmu_start;
		pmu->stop = test_pmu_stop;
		pmu->read = test_pmu_read;
	}
	test->priv = ctx;
	return 0;
}

static void pmu_test_exit(struct kunit *test)
{
	struct pmu_test_ctx *ctx = test->priv;
	int i;

	for (i = 0; i < NR_TEST_PMUS; i++) {
		if (ctx->pmus[i].registered)
			perf_pmu_unregister(&ctx->pmus[i].pmu);
		ctx->pmus[i].registered = false;
	}
}

static struct test_pmu *get_test_pmu(struct kunit *test, int i)
{
	struct pmu_test_ctx *ctx = test->priv;

	return &ctx->pmus[i];
}

static int test_pmu_register(struct test_pmu *tp, const char *name, int type)
{
	int ret = perf_pmu_register(&tp->pmu, name, type);

	if (!ret)
		tp->registered = true;
	return ret;
}

/* Register @tp, expecting success: true if it is registered. */
static bool test_pmu_register_ok(struct kunit *test, struct test_pmu *tp,
				 const char *name, int type)
{
	int ret = test_pmu_register(tp, name, type);

	KUNIT_EXPECT_EQ(test, ret, 0);
	return !ret;
}

static void test_pmu_unregister(struct test_pmu *tp)
{
	perf_pmu_unregister(&tp->pmu);
	tp->registered = false;
}

static struct perf_event *test_event(struct kunit *test, u32 type, u64 config)
{
	struct perf_event *event;

	event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);
	if (event) {
		event->attr.size = sizeof(event->attr);
		event->attr.type = type;
		event->attr.config = config;
	}
	return event;
}

/* Undo a successful perf_pmu_init_event(), as freeing an event would. */
static void test_event_fini(struct perf_event *event)
{
	if (event->destroy)
		event->destroy(event);
	event->destroy = NULL;
	event->pmu = NULL;
}

static void perf_pmu_register_dynamic(struct kunit *test)
{
	struct test_pmu *a = get_test_pmu(test, 0);
	struct test_pmu *b = get_test_pmu(test, 1);

	if (!test_pmu_register_ok(test, a, "kunit_a", -1))
		return;
	KUNIT_EXPECT_GE(test, a->pmu.type, PERF_TYPE_MAX);
	KUNIT_EXPECT_STREQ(test, a->pmu.name, "kunit_a");
	KUNIT_EXPECT_NOT_NULL(test, a->pmu.pmu_disable_count);
	/* A PMU that leaves the multiplexing interval alone gets one. */
	KUNIT_EXPECT_GT(test, a->pmu.hrtimer_interval_ms, 0);

	b->pmu.hrtimer_interval_ms = 17;
	if (!test_pmu_register_ok(test, b, "kunit_b", -1))
		return;
	KUNIT_EXPECT_GE(test, b->pmu.type, PERF_TYPE_MAX);
	KUNIT_EXPECT_NE(test, a->pmu.type, b->pmu.type);
	KUNIT_EXPECT_EQ(test, b->pmu.hrtimer_interval_ms, 17);
}

/*
 * perf_pmu_init_event() must give @event to @pmu; the event is then
 * destroyed again.
 */
static void expect_init_by(struct kunit *test, struct perf_event *event,
			   struct pmu *pmu)
{
	int ret = perf_pmu_init_event(event);

	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_PTR_EQ(test, event->pmu, pmu);
	if (!ret)
		test_event_fini(event);
}

/*
 * Register the test PMUs kunit_a and kunit_b (as *@a and *@b) and make
 * an event: the event, or NULL if something failed.
 */
static struct perf_event *two_pmus_and_event(struct kunit *test,
					     struct test_pmu **a,
					     struct test_pmu **b)
{
	struct perf_event *event;

	*a = get_test_pmu(test, 0);
	*b = get_test_pmu(test, 1);
	event = test_event(test, 0, 0);
	KUNIT_EXPECT_NOT_NULL(test, event);
	if (!event || !test_pmu_register_ok(test, *a, "kunit_a", -1) ||
	    !test_pmu_register_ok(test, *b, "kunit_b", -1))
		return NULL;
	return event;
}

static void perf_pmu_init_event_by_type(struct kunit *test)
{
	struct test_pmu *a, *b;
	struct perf_event *event;

	event = two_pmus_and_event(test, &a, &b);
	if (!event)
		return;

	event->attr.type = a->pmu.type;
	expect_init_by(test, event, &a->pmu);
	KUNIT_EXPECT_EQ(test, a->init_calls, 1);
	KUNIT_EXPECT_EQ(test, b->init_calls, 0);
	KUNIT_EXPECT_EQ(test, a->destroy_calls, 1);

	event->attr.type = b->pmu.type;
	expect_init_by(test, event, &b->pmu);
	KUNIT_EXPECT_EQ(test, a->init_calls, 1);
	KUNIT_EXPECT_EQ(test, b->init_calls, 1);
}

/* The PMU a type names is the only one asked, whatever it answers. */
static void perf_pmu_init_event_errors(struct kunit *test)
{
	struct test_pmu *a = get_test_pmu(test, 0);
	struct perf_event *event;

	event = test_event(test, 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, event);

	if (!test_pmu_register_ok(test, a, "kunit_a", -1))
		return;
	event->attr.type = a->pmu.type;

	a->ret = -ENOENT;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	KUNIT_EXPECT_EQ(test, a->init_calls, 1);
	KUNIT_EXPECT_NULL(test, event->pmu);

	a->ret = -EOPNOTSUPP;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, a->init_calls, 2);
	KUNIT_EXPECT_NULL(test, event->pmu);

	a->ret = -EINVAL;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->init_calls, 3);
	KUNIT_EXPECT_NULL(test, event->pmu);
	KUNIT_EXPECT_EQ(test, a->destroy_calls, 0);

	a->ret = 0;
	expect_init_by(test, event, &a->pmu);
	KUNIT_EXPECT_EQ(test, a->init_calls, 4);
}

static void perf_pmu_init_event_unknown(struct kunit *test)
{
	struct test_pmu *a = get_test_pmu(test, 0);
	struct perf_event *event;

	event = test_event(test, UNUSED_TYPE, 0);
	KUNIT_ASSERT_NOT_NULL(test, event);

	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	KUNIT_EXPECT_NULL(test, event->pmu);

	/* A registered PMU is not asked about a type that is not its own. */
	if (!test_pmu_register_ok(test, a, "kunit_a", -1))
		return;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	KUNIT_EXPECT_EQ(test, a->init_calls, 0);
	KUNIT_EXPECT_NULL(test, event->pmu);

	event->attr.type = a->pmu.type + 1;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	KUNIT_EXPECT_EQ(test, a->init_calls, 0);
}

static void perf_pmu_register_busy(struct kunit *test)
{
	struct test_pmu *a = get_test_pmu(test, 0);
	struct test_pmu *b = get_test_pmu(test, 1);
	struct perf_event *event;
	int type;

	event = test_event(test, 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, event);

	if (!test_pmu_register_ok(test, a, "kunit_a", -1))
		return;
	type = a->pmu.type;

	/* Taken by @a, and by the software PMU. */
	KUNIT_EXPECT_EQ(test, test_pmu_register(b, "kunit_b", type), -EBUSY);
	KUNIT_EXPECT_FALSE(test, b->registered);
	KUNIT_EXPECT_EQ(test, test_pmu_register(b, "kunit_b",
						PERF_TYPE_SOFTWARE), -EBUSY);
	KUNIT_EXPECT_FALSE(test, b->registered);

	/* The failures changed nothing: the type still leads to @a. */
	event->attr.type = type;
	expect_init_by(test, event, &a->pmu);
	KUNIT_EXPECT_EQ(test, b->init_calls, 0);

	/* Once @a is gone, its type is free for a fixed registration. */
	test_pmu_unregister(a);
	if (!test_pmu_register_ok(test, b, "kunit_b", type))
		return;
	KUNIT_EXPECT_EQ(test, b->pmu.type, type);

	expect_init_by(test, event, &b->pmu);
	KUNIT_EXPECT_EQ(test, a->init_calls, 1);
	KUNIT_EXPECT_EQ(test, b->init_calls, 1);
}

/*
 * Whether a hardware PMU holds PERF_TYPE_RAW (the x86 cpu PMU on a CPU
 * with counters): it is asked about the generic types before any PMU
 * a test registers, and answers for them.
 */
static bool test_hw_pmu_present(struct kunit *test)
{
	struct perf_event *event = test_event(test, PERF_TYPE_RAW, 0);

	if (!event || perf_pmu_init_event(event))
		return false;
	test_event_fini(event);
	return true;
}

static void perf_pmu_unregister_forgets(struct kunit *test)
{
	struct test_pmu *a = get_test_pmu(test, 0);
	struct perf_event *event;
	int ret;

	event = test_event(test, 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, event);

	if (!test_pmu_register_ok(test, a, "kunit_a", -1))
		return;
	event->attr.type = a->pmu.type;
	expect_init_by(test, event, &a->pmu);

	test_pmu_unregister(a);
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	KUNIT_EXPECT_EQ(test, a->init_calls, 1);
	KUNIT_EXPECT_NULL(test, event->pmu);

	/* Nor is it offered the generic types any more. */
	a->generic = true;
	event->attr.type = PERF_TYPE_HARDWARE;
	event->attr.config = TEST_HW_CONFIG;
	ret = perf_pmu_init_event(event);
	if (!test_hw_pmu_present(test))
		KUNIT_EXPECT_EQ(test, ret, -ENOENT);
	else if (!ret)
		test_event_fini(event);
	KUNIT_EXPECT_EQ(test, a->init_calls, 1);

	/* The same structure can be registered again. */
	if (!test_pmu_register_ok(test, a, "kunit_a", -1))
		return;
	event->attr.type = a->pmu.type;
	event->attr.config = 0;
	expect_init_by(test, event, &a->pmu);
	KUNIT_EXPECT_EQ(test, a->init_calls, 2);
}

/*
 * A PMU passes an event on by naming another PMU's type and saying
 * -ENOENT: the other PMU's answer is final, and there is no second pass.
 */
static void perf_pmu_init_event_passed(struct kunit *test)
{
	struct test_pmu *a, *b;
	struct perf_event *event;

	event = two_pmus_and_event(test, &a, &b);
	if (!event)
		return;

	a->pass_to = b->pmu.type;
	event->attr.type = a->pmu.type;
	expect_init_by(test, event, &b->pmu);
	KUNIT_EXPECT_EQ(test, event->attr.type, b->pmu.type);
	KUNIT_EXPECT_EQ(test, a->init_calls, 1);
	KUNIT_EXPECT_EQ(test, b->init_calls, 1);
	KUNIT_EXPECT_EQ(test, a->destroy_calls, 0);

	/* What the other PMU refuses stays refused. */
	b->ret = -EINVAL;
	event->attr.type = a->pmu.type;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -EINVAL);
	KUNIT_EXPECT_NULL(test, event->pmu);
	KUNIT_EXPECT_EQ(test, b->init_calls, 2);

	/* Passed back: not asked again. */
	b->ret = 0;
	b->pass_to = a->pmu.type;
	event->attr.type = a->pmu.type;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	KUNIT_EXPECT_EQ(test, a->init_calls, 3);
	KUNIT_EXPECT_EQ(test, b->init_calls, 3);

	/* Passed to a type nobody has, or to itself. */
	a->pass_to = UNUSED_TYPE;
	event->attr.type = a->pmu.type;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	a->pass_to = a->pmu.type;
	event->attr.type = a->pmu.type;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	KUNIT_EXPECT_EQ(test, a->init_calls, 5);
	KUNIT_EXPECT_EQ(test, b->init_calls, 3);
}

/*
 * PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE go to every PMU in turn until
 * one takes the event; a PMU that does not know a config says -ENOENT.
 */
static void perf_pmu_init_event_generic(struct kunit *test)
{
	struct test_pmu *a = get_test_pmu(test, 0);
	struct test_pmu *b = get_test_pmu(test, 1);
	struct test_pmu *c = get_test_pmu(test, 2);
	struct perf_event *event;
	int ret;

	/* make check runs this on a CPU without counters too (PMU=none). */
	if (test_hw_pmu_present(test))
		kunit_skip(test, "the hardware PMU answers the generic types");

	event = test_event(test, PERF_TYPE_HARDWARE, TEST_HW_CONFIG);
	KUNIT_ASSERT_NOT_NULL(test, event);

	/* @a declines, @b takes the event, @c comes after and is not asked. */
	b->generic = true;
	c->generic = true;
	ret = test_pmu_register(a, "kunit_a", -1);
	if (!ret)
		ret = test_pmu_register(b, "kunit_b", -1);
	if (!ret)
		ret = test_pmu_register(c, "kunit_c", -1);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (ret)
		return;

	expect_init_by(test, event, &b->pmu);
	KUNIT_EXPECT_EQ(test, a->init_calls, 1);
	KUNIT_EXPECT_EQ(test, b->init_calls, 1);
	KUNIT_EXPECT_EQ(test, c->init_calls, 0);

	event->attr.type = PERF_TYPE_HW_CACHE;
	expect_init_by(test, event, &b->pmu);

	/* An error other than -ENOENT ends the search. */
	b->ret = -EOPNOTSUPP;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -EOPNOTSUPP);
	KUNIT_EXPECT_NULL(test, event->pmu);
	KUNIT_EXPECT_EQ(test, c->init_calls, 0);

	/* Nobody knows this config. */
	event->attr.config = TEST_HW_CONFIG + 1;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	KUNIT_EXPECT_NULL(test, event->pmu);
	KUNIT_EXPECT_EQ(test, c->init_calls, 1);

	/*
	 * Other fixed types are not searched for: PERF_TYPE_RAW goes to the
	 * hardware PMU that holds the type, if there is one, and to no other.
	 */
	event->attr.type = PERF_TYPE_RAW;
	event->attr.config = TEST_HW_CONFIG;
	b->ret = 0;
	ret = perf_pmu_init_event(event);
	if (ret)
		KUNIT_EXPECT_EQ(test, ret, -ENOENT);
	else
		test_event_fini(event);
	KUNIT_EXPECT_EQ(test, b->init_calls, 4);
}

/*
 * A generic event whose config names a PMU in its upper half goes to that
 * PMU alone if it takes such events, with the upper half cleared; naming
 * a PMU that does not take them is -ENOENT; naming no PMU at all (or the
 * software PMU) is as if the upper half were clear.
 */
static void perf_pmu_init_event_extended(struct kunit *test)
{
	struct test_pmu *a = get_test_pmu(test, 0);
	struct test_pmu *b = get_test_pmu(test, 1);
	struct perf_event *event;
	int ret;

	event = test_event(test, PERF_TYPE_HARDWARE, 0);
	KUNIT_ASSERT_NOT_NULL(test, event);
	a->generic = true;
	b->generic = true;
	b->pmu.capabilities = PERF_PMU_CAP_EXTENDED_HW_TYPE;
	ret = test_pmu_register(a, "kunit_a", -1);
	if (!ret)
		ret = test_pmu_register(b, "kunit_b", -1);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (ret)
		return;

	event->attr.config = (u64)b->pmu.type << PERF_PMU_TYPE_SHIFT |
			     TEST_HW_CONFIG;
	expect_init_by(test, event, &b->pmu);
	KUNIT_EXPECT_EQ(test, event->attr.config, TEST_HW_CONFIG);
	KUNIT_EXPECT_EQ(test, a->init_calls, 0);

	/* @b refuses it: nobody else is asked. */
	event->attr.type = PERF_TYPE_HW_CACHE;
	event->attr.config = (u64)b->pmu.type << PERF_PMU_TYPE_SHIFT |
			     (TEST_HW_CONFIG + 1);
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	KUNIT_EXPECT_NULL(test, event->pmu);
	KUNIT_EXPECT_EQ(test, b->init_calls, 2);
	KUNIT_EXPECT_EQ(test, a->init_calls, 0);

	/* @a takes generic events, but not named in the config. */
	event->attr.config = (u64)a->pmu.type << PERF_PMU_TYPE_SHIFT |
			     TEST_HW_CONFIG;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -ENOENT);
	KUNIT_EXPECT_EQ(test, a->init_calls, 0);

	/* A type nobody has: the search of every PMU, @a first. */
	if (test_hw_pmu_present(test))
		return;
	event->attr.config = (u64)UNUSED_TYPE << PERF_PMU_TYPE_SHIFT |
			     TEST_HW_CONFIG;
	expect_init_by(test, event, &a->pmu);
	KUNIT_EXPECT_EQ(test, event->attr.config, TEST_HW_CONFIG);

	/* The software PMU's type, as 6.1 has it, names no PMU either. */
	event->attr.config = (u64)PERF_TYPE_SOFTWARE << PERF_PMU_TYPE_SHIFT |
			     TEST_HW_CONFIG;
	expect_init_by(test, event, &a->pmu);
}

/*
 * A PMU that cannot exclude anything refuses events with exclude_* set,
 * after its event_init: the event is destroyed again.
 */
static void perf_pmu_no_exclude(struct kunit *test)
{
	struct test_pmu *a = get_test_pmu(test, 0);
	struct perf_event *event;

	event = test_event(test, 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, event);

	a->pmu.capabilities = PERF_PMU_CAP_NO_EXCLUDE;
	if (!test_pmu_register_ok(test, a, "kunit_a", -1))
		return;
	event->attr.type = a->pmu.type;

	expect_init_by(test, event, &a->pmu);
	KUNIT_EXPECT_EQ(test, a->destroy_calls, 1);

	event->attr.exclude_kernel = 1;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->init_calls, 2);
	KUNIT_EXPECT_EQ(test, a->destroy_calls, 2);
	KUNIT_EXPECT_NULL(test, event->pmu);
	KUNIT_EXPECT_NULL(test, event->destroy);

	event->attr.exclude_kernel = 0;
	event->attr.exclude_guest = 1;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->destroy_calls, 3);
	KUNIT_EXPECT_NULL(test, event->pmu);
}

/*
 * A PMU whose counters cannot interrupt refuses sampling events after
 * its event_init, with -EOPNOTSUPP; counting events are its own.
 */
static void perf_pmu_no_interrupt(struct kunit *test)
{
	struct test_pmu *a = get_test_pmu(test, 0);
	struct perf_event *event;

	event = test_event(test, 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, event);

	a->pmu.capabilities = PERF_PMU_CAP_NO_INTERRUPT;
	if (!test_pmu_register_ok(test, a, "kunit_a", -1))
		return;
	event->attr.type = a->pmu.type;

	expect_init_by(test, event, &a->pmu);

	event->attr.sample_period = 1000;
	KUNIT_EXPECT_EQ(test, perf_pmu_init_event(event), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, a->init_calls, 2);
	KUNIT_EXPECT_EQ(test, a->destroy_calls, 2);
	KUNIT_EXPECT_NULL(test, event->pmu);
}

/* perf_pmu_disable() nests; the PMU hears of the outermost pair only. */
static void perf_pmu_disable_nests(struct kunit *test)
{
	struct test_pmu *a = get_test_pmu(test, 0);
	int disables, enables;
	unsigned long flags;

	if (!test_pmu_register_ok(test, a, "kunit_a", -1))
		return;

	local_irq_save(flags);
	perf_pmu_disable(&a->pmu);
	perf_pmu_disable(&a->pmu);
	perf_pmu_disable(&a->pmu);
	disables = a->disable_calls;
	perf_pmu_enable(&a->pmu);
	perf_pmu_enable(&a->pmu);
	enables = a->enable_calls;
	perf_pmu_enable(&a->pmu);
	local_irq_restore(flags);

	KUNIT_EXPECT_EQ(test, disables, 1);
	KUNIT_EXPECT_EQ(test, enables, 0);
	KUNIT_EXPECT_EQ(test, a->disable_calls, 1);
	KUNIT_EXPECT_EQ(test, a->enable_calls, 1);

	/* And again, from a count back at zero. */
	local_irq_save(flags);
	perf_pmu_disable(&a->pmu);
	perf_pmu_enable(&a->pmu);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, a->disable_calls, 2);
	KUNIT_EXPECT_EQ(test, a->enable_calls, 2);
}

static struct kunit_case perf_pmu_cases[] = {
	KUNIT_CASE(perf_pmu_register_dynamic),
	KUNIT_CASE(perf_pmu_init_event_by_type),
	KUNIT_CASE(perf_pmu_init_event_errors),
	KUNIT_CASE(perf_pmu_init_event_passed),
	KUNIT_CASE(perf_pmu_init_event_unknown),
	KUNIT_CASE(perf_pmu_register_busy),
	KUNIT_CASE(perf_pmu_unregister_forgets),
	KUNIT_CASE(perf_pmu_init_event_generic),
	KUNIT_CASE(perf_pmu_init_event_extended),
	KUNIT_CASE(perf_pmu_no_exclude),
	KUNIT_CASE(perf_pmu_no_interrupt),
	KUNIT_CASE(perf_pmu_disable_nests),
	{}
};

static struct kunit_suite perf_pmu_suite = {
	.name = "perf_pmu",
	.init = pmu_test_init,
	.exit = pmu_test_exit,
	.test_cases = perf_pmu_cases,
};

/*
 * The software PMU.  KUnit runs each case in a kernel thread of its own,
 * which is the task the per-task counters below follow; its context goes
 * away when the thread exits after the case.
 */

static void sw_attr(struct perf_event_attr *attr, u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = config;
}

static u64 sw_count(struct perf_event *event)
{
	struct perf_event_values value = {};

	perf_event_add_values(event, &value);
	return value.count;
}

static void perf_swevent_task_counts(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *event;

	KUNIT_EXPECT_TRUE(test, current->flags & PF_KTHREAD);

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "error %ld", PTR_ERR(event));

	KUNIT_EXPECT_PTR_EQ(test, event->ctx->task, current);
	KUNIT_EXPECT_EQ(test, event->attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	KUNIT_EXPECT_TRUE(test, event->event_caps & PERF_EV_CAP_SOFTWARE);
	KUNIT_EXPECT_TRUE(test, __perf_sw_enabled(PERF_COUNT_SW_PAGE_FAULTS));

	/* While we run, our context is in and the event counts here. */
	preempt_disable();
	KUNIT_EXPECT_EQ(test, event->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, event->oncpu, smp_processor_id());
	preempt_enable();

	KUNIT_EXPECT_EQ(test, sw_count(event), 0);
	perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 3, NULL, 0);
	KUNIT_EXPECT_EQ(test, sw_count(event), 3);

	/* Other kinds of software event do not reach it. */
	perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS_MIN, 5, NULL, 0);
	perf_sw_event(PERF_COUNT_SW_ALIGNMENT_FAULTS, 5, NULL, 0);
	KUNIT_EXPECT_EQ(test, sw_count(event), 3);

	perf_event_disable(event);
	KUNIT_EXPECT_EQ(test, event->state, PERF_EVENT_STATE_OFF);
	perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 4, NULL, 0);
	KUNIT_EXPECT_EQ(test, sw_count(event), 3);

	perf_event_enable(event);
	perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 2, NULL, 0);
	KUNIT_EXPECT_EQ(test, sw_count(event), 5);

	perf_event_release_kernel(event);
	KUNIT_EXPECT_FALSE(test, __perf_sw_enabled(PERF_COUNT_SW_PAGE_FAULTS));
}

/* Sleeping moves the context out and in again; counting goes on. */
static void perf_swevent_task_sleeps(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *event;
	int i;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "error %ld", PTR_ERR(event));

	for (i = 0; i < 5; i++) {
		perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 1, NULL, 0);
		usleep_range(1000, 2000);
	}
	KUNIT_EXPECT_EQ(test, sw_count(event), 5);

	perf_event_release_kernel(event);
}

/* The context follows the task from CPU to CPU. */
static void perf_swevent_task_migrates(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *event;
	int cpu, n = 0, moves = 0;
	int ret;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "error %ld", PTR_ERR(event));

	for_each_online_cpu(cpu) {
		ret = set_cpus_allowed_ptr(current, cpumask_of(cpu));
		if (ret)
			continue;
		moves++;
		KUNIT_EXPECT_EQ(test, raw_smp_processor_id(), cpu);
		perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 1, NULL, 0);
		n++;
		KUNIT_EXPECT_EQ(test, sw_count(event), n);
	}
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	KUNIT_EXPECT_GE(test, moves, 2);

	perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, sw_count(event), n + 1);

	perf_event_release_kernel(event);
}

static void perf_swevent_starts_disabled(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *event;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 1;
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "error %ld", PTR_ERR(event));

	KUNIT_EXPECT_EQ(test, event->state, PERF_EVENT_STATE_OFF);
	perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 7, NULL, 0);
	KUNIT_EXPECT_EQ(test, sw_count(event), 0);

	perf_event_enable(event);
	KUNIT_EXPECT_GE(test, event->state, PERF_EVENT_STATE_INACTIVE);
	perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, sw_count(event), 1);

	perf_event_release_kernel(event);
}

/* exclude_user and exclude_kernel look at the mode of the registers. */
static void perf_swevent_exclude(struct kunit *test)
{
	struct perf_event *user_only, *kernel_only;
	struct perf_event_attr attr;
	struct pt_regs *kregs, *uregs;

	kregs = kunit_kzalloc(test, sizeof(*kregs), GFP_KERNEL);
	uregs = kunit_kzalloc(test, sizeof(*uregs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kregs);
	KUNIT_ASSERT_NOT_NULL(test, uregs);
	kregs->cs = __KERNEL_CS;
	uregs->cs = __USER_CS;

	sw_attr(&attr, PERF_COUNT_SW_EMULATION_FAULTS);
	attr.exclude_kernel = 1;
	user_only = perf_event_create_kernel_counter(&attr, -1, current,
						     NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(user_only), "error %ld",
			       PTR_ERR(user_only));

	sw_attr(&attr, PERF_COUNT_SW_EMULATION_FAULTS);
	attr.exclude_user = 1;
	kernel_only = perf_event_create_kernel_counter(&attr, -1, current,
						       NULL, NULL);
	if (IS_ERR(kernel_only)) {
		KUNIT_FAIL(test, "error %ld", PTR_ERR(kernel_only));
		perf_event_release_kernel(user_only);
		return;
	}

	perf_sw_event(PERF_COUNT_SW_EMULATION_FAULTS, 1, kregs, 0);
	perf_sw_event(PERF_COUNT_SW_EMULATION_FAULTS, 10, uregs, 0);
	/* Without registers the mode is unknown: nothing is excluded. */
	perf_sw_event(PERF_COUNT_SW_EMULATION_FAULTS, 100, NULL, 0);

	KUNIT_EXPECT_EQ(test, sw_count(user_only), 110);
	KUNIT_EXPECT_EQ(test, sw_count(kernel_only), 101);

	perf_event_release_kernel(kernel_only);
	perf_event_release_kernel(user_only);
}

/*
 * Busy-wait until the clock the software clocks use has moved on by @ms:
 * under emulation it may advance a tick at a time, so a fixed delay can
 * pass without it moving at all.
 */
static void spin_local_clock_ms(unsigned int ms)
{
	u64 end = local_clock() + ms * NSEC_PER_MSEC;

	while (local_clock() < end)
		cpu_relax();
}

/* task-clock counts nanoseconds while the task runs with it enabled. */
static void perf_swevent_task_clock(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *event;
	u64 count, later;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "error %ld", PTR_ERR(event));

	spin_local_clock_ms(2);
	count = sw_count(event);
	KUNIT_EXPECT_GT(test, count, 0);
	KUNIT_EXPECT_GE(test, event->total_time_enabled,
			event->total_time_running);
	KUNIT_EXPECT_GT(test, event->total_time_running, 0);

	spin_local_clock_ms(1);
	later = sw_count(event);
	KUNIT_EXPECT_GT(test, later, count);

	perf_event_disable(event);
	count = sw_count(event);
	spin_local_clock_ms(1);
	KUNIT_EXPECT_EQ(test, sw_count(event), count);

	perf_event_release_kernel(event);
}

/* A CPU-wide counter sees the events raised on its CPU. */
static void perf_swevent_cpu_counts(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *event;
	int cpu;

	migrate_disable();
	cpu = smp_processor_id();

	sw_attr(&attr, PERF_COUNT_SW_ALIGNMENT_FAULTS);
	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(event)) {
		migrate_enable();
		KUNIT_FAIL(test, "error %ld", PTR_ERR(event));
		return;
	}
	KUNIT_EXPECT_NULL(test, event->ctx->task);
	KUNIT_EXPECT_EQ(test, event->ctx->cpu, cpu);
	KUNIT_EXPECT_EQ(test, event->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, event->oncpu, cpu);

	perf_sw_event(PERF_COUNT_SW_ALIGNMENT_FAULTS, 2, NULL, 0);
	KUNIT_EXPECT_EQ(test, sw_count(event), 2);

	perf_event_disable(event);
	perf_sw_event(PERF_COUNT_SW_ALIGNMENT_FAULTS, 2, NULL, 0);
	KUNIT_EXPECT_EQ(test, sw_count(event), 2);

	perf_event_release_kernel(event);
	migrate_enable();
}

static void perf_swevent_bad_counters(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *event;

	/* Neither a task nor a CPU. */
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	event = perf_event_create_kernel_counter(&attr, -1, NULL, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(event), -EINVAL);

	event = perf_event_create_kernel_counter(&attr, nr_cpu_ids, NULL,
						 NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(event), -EINVAL);

	/* An attribute perf_check_attr() refuses. */
	attr.__reserved_2 = 1;
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(event), -EINVAL);

	/* A config the software PMU does not have. */
	sw_attr(&attr, PERF_COUNT_SW_MAX);
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(event), -ENOENT);

	/* A type nobody has. */
	sw_attr(&attr, 0);
	attr.type = UNUSED_TYPE;
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(event), -ENOENT);

	KUNIT_EXPECT_FALSE(test, __perf_sw_enabled(PERF_COUNT_SW_PAGE_FAULTS));
}

/* One entry into the software event path per CPU and interrupt level. */
static void perf_swevent_recursion(struct kunit *test)
{
	int first, second, third;

	preempt_disable();
	first = perf_swevent_get_recursion_context();
	second = perf_swevent_get_recursion_context();
	if (first >= 0)
		perf_swevent_put_recursion_context(first);
	third = perf_swevent_get_recursion_context();
	if (third >= 0)
		perf_swevent_put_recursion_context(third);
	preempt_enable();

	KUNIT_EXPECT_EQ(test, first, 0);
	KUNIT_EXPECT_EQ(test, second, -1);
	KUNIT_EXPECT_EQ(test, third, first);
}

static struct kunit_case perf_swevent_cases[] = {
	KUNIT_CASE(perf_swevent_task_counts),
	KUNIT_CASE(perf_swevent_task_sleeps),
	KUNIT_CASE(perf_swevent_task_migrates),
	KUNIT_CASE(perf_swevent_starts_disabled),
	KUNIT_CASE(perf_swevent_exclude),
	KUNIT_CASE(perf_swevent_task_clock),
	KUNIT_CASE(perf_swevent_cpu_counts),
	KUNIT_CASE(perf_swevent_bad_counters),
	KUNIT_CASE(perf_swevent_recursion),
	{}
};

static struct kunit_suite perf_swevent_suite = {
	.name = "perf_swevent",
	.test_cases = perf_swevent_cases,
};

kunit_test_suites(&perf_pmu_suite, &perf_swevent_suite);
