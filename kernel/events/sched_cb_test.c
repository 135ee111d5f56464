// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the PMUs that hear of context switches (sched_cb.c):
 * a PMU is called at this CPU's switches while it has asked more times
 * than it stopped asking, with the context it is given, and disabled
 * around the call; two PMUs are both called; a PMU that stopped asking
 * is not.
 */
#include <kunit/test.h>
#include <linux/irqflags.h>
#include <linux/perf_event.h>

#include "internal.h"

struct cb_pmu {
	struct pmu			pmu;
	int				calls;
	int				in_calls;
	bool				disabled;
	bool				disabled_in_call;
	struct perf_event_context	*ctx;
};

static struct cb_pmu cb_pmus[2];

static struct cb_pmu *to_cb_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct cb_pmu, pmu);
}

static int cb_event_init(struct perf_event *event)
{
	return -ENOENT;
}

static void cb_pmu_enable(struct pmu *pmu)
{
	to_cb_pmu(pmu)->disabled = false;
}

static void cb_pmu_disable(struct pmu *pmu)
{
	to_cb_pmu(pmu)->disabled = true;
}

static int cb_add(struct perf_event *event, int flags)
{
	return 0;
}

static void cb_nop(struct perf_event *event, int flags)
{
}

static void cb_read(struct perf_event *event)
{
}

static void cb_called(struct cb_pmu *p, struct perf_event_context *ctx,
		      bool sched_in)
{
	p->calls++;
	p->in_calls += sched_in;
	p->disabled_in_call = p->disabled;
	p->ctx = ctx;
}

static void cb_sched_task0(struct perf_event_context *ctx, bool sched_in)
{
	cb_called(&cb_pmus[0], ctx, sched_in);
}

static void cb_sched_task1(struct perf_event_context *ctx, bool sched_in)
{
	cb_called(&cb_pmus[1], ctx, sched_in);
}

static int sched_cb_test_init(struct kunit *test)
{
	int i, ret;

	memset(cb_pmus, 0, sizeof(cb_pmus));
	for (i = 0; i < ARRAY_SIZE(cb_pmus); i++) {
		struct pmu *pmu = &cb_pmus[i].pmu;

		pmu->event_init = cb_event_init;
		pmu->pmu_enable = cb_pmu_enable;
		pmu->pmu_disable = cb_pmu_disable;
		pmu->add = cb_add;
		pmu->del = cb_nop;
		pmu->start = cb_nop;
		pmu->stop = cb_nop;
		pmu->read = cb_read;
		pmu->sched_task = i ? cb_sched_task1 : cb_sched_task0;
		pmu->task_ctx_nr = perf_invalid_context;
		ret = perf_pmu_register(pmu, i ? "sched_cb_test1" :
						 "sched_cb_test0", -1);
		if (ret) {
			while (i--)
				perf_pmu_unregister(&cb_pmus[i].pmu);
			return ret;
		}
	}
	return 0;
}

static void sched_cb_test_exit(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(cb_pmus); i++)
		perf_pmu_unregister(&cb_pmus[i].pmu);
}

/* Called while asked, once a switch half, with its context, disabled. */
static void sched_cb_called_while_asked(struct kunit *test)
{
	struct perf_event_context *ctx = (void *)test;
	struct cb_pmu *p = &cb_pmus[0];
	bool wanted_before, wanted_after;

	local_irq_disable();
	wanted_before = perf_sched_cb_wanted();
	perf_sched_cb_inc(&p->pmu);
	perf_sched_cb_inc(&p->pmu);
	perf_sched_cb_switch(ctx, false);
	perf_sched_cb_dec(&p->pmu);
	perf_sched_cb_switch(NULL, true);
	perf_sched_cb_dec(&p->pmu);
	perf_sched_cb_switch(ctx, true);
	wanted_after = perf_sched_cb_wanted();
	local_irq_enable();

	KUNIT_EXPECT_FALSE(test, wanted_before);
	KUNIT_EXPECT_FALSE(test, wanted_after);
	KUNIT_EXPECT_EQ(test, 2, p->calls);
	KUNIT_EXPECT_EQ(test, 1, p->in_calls);
	KUNIT_EXPECT_PTR_EQ(test, NULL, p->ctx);
	KUNIT_EXPECT_TRUE(test, p->disabled_in_call);
	KUNIT_EXPECT_FALSE(test, p->disabled);
	KUNIT_EXPECT_EQ(test, 0, cb_pmus[1].calls);
}

/* Two PMUs asking: each is called; the one that stops is no more. */
static void sched_cb_two_pmus(struct kunit *test)
{
	struct perf_event_context *ctx = (void *)test;
	bool wanted;

	local_irq_disable();
	perf_sched_cb_inc(&cb_pmus[0].pmu);
	perf_sched_cb_inc(&cb_pmus[1].pmu);
	perf_sched_cb_switch(ctx, true);
	perf_sched_cb_dec(&cb_pmus[0].pmu);
	perf_sched_cb_switch(ctx, false);
	wanted = perf_sched_cb_wanted();
	perf_sched_cb_dec(&cb_pmus[1].pmu);
	local_irq_enable();

	KUNIT_EXPECT_TRUE(test, wanted);
	KUNIT_EXPECT_EQ(test, 1, cb_pmus[0].calls);
	KUNIT_EXPECT_EQ(test, 2, cb_pmus[1].calls);
	KUNIT_EXPECT_EQ(test, 1, cb_pmus[1].in_calls);
	KUNIT_EXPECT_PTR_EQ(test, ctx, cb_pmus[1].ctx);
	KUNIT_EXPECT_TRUE(test, cb_pmus[1].disabled_in_call);
}

static struct kunit_case sched_cb_cases[] = {
	KUNIT_CASE(sched_cb_called_while_asked),
	KUNIT_CASE(sched_cb_two_pmus),
	{}
};

static struct kunit_suite sched_cb_suite = {
	.name = "perf_sched_cb",
	.init = sched_cb_test_init,
	.exit = sched_cb_test_exit,
	.test_cases = sched_cb_cases,
};

kunit_test_suite(sched_cb_suite);
