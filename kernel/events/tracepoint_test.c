// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of perf_tp_event() (tracepoint.c), on events of its own
 * that sit on a list of the test's, as a trace event's per-CPU list would:
 * a record counts in each event of the list that is not stopped and does
 * not exclude the kernel while the registers are the kernel's; the
 * record's common fields are filled in; the recursion context is given
 * back.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/trace_events.h>

#include "internal.h"

enum { TP_PLAIN, TP_STOPPED, TP_NO_KERNEL, TP_NR };

struct tp_test {
	struct hlist_head	head;
	struct perf_event	*events[TP_NR];
	struct pt_regs		regs;
	struct {
		struct trace_entry	ent;
		u32			payload;
	} record;
};

static int tp_test_init(struct kunit *test)
{
	struct tp_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	INIT_HLIST_HEAD(&t->head);
	for (i = 0; i < TP_NR; i++) {
		struct perf_event *event;

		event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, event);
		event->attr.type = PERF_TYPE_TRACEPOINT;
		hlist_add_head_rcu(&event->hlist_entry, &t->head);
		t->events[i] = event;
	}
	t->events[TP_STOPPED]->hw.state = PERF_HES_STOPPED;
	t->events[TP_NO_KERNEL]->attr.exclude_kernel = 1;
	perf_fetch_caller_regs(&t->regs);
	test->priv = t;
	return 0;
}

/* Fire a record of type @type counting 3 on the test's list. */
static void tp_test_fire(struct kunit *test, u16 type)
{
	struct tp_test *t = test->priv;
	int rctx;

	preempt_disable();
	rctx = perf_swevent_get_recursion_context();
	KUNIT_ASSERT_GE(test, rctx, 0);
	perf_tp_event(type, 3, &t->record, sizeof(t->record), &t->regs,
		      &t->head, rctx, NULL);
	preempt_enable();
}

static u64 tp_test_count(struct kunit *test, int which)
{
	struct tp_test *t = test->priv;

	return local64_read(&t->events[which]->count);
}

static void tp_counts_running_events(struct kunit *test)
{
	tp_test_fire(test, 42);
	KUNIT_EXPECT_EQ(test, tp_test_count(test, TP_PLAIN), 3);
	KUNIT_EXPECT_EQ(test, tp_test_count(test, TP_STOPPED), 0);
	KUNIT_EXPECT_EQ(test, tp_test_count(test, TP_NO_KERNEL), 0);
}

/* User registers (a uprobe, a system call) count where the kernel is excluded. */
static void tp_user_regs(struct kunit *test)
{
	struct tp_test *t = test->priv;

	t->regs.cs = __USER_CS;
	KUNIT_ASSERT_TRUE(test, user_mode(&t->regs));
	tp_test_fire(test, 42);
	KUNIT_EXPECT_EQ(test, tp_test_count(test, TP_PLAIN), 3);
	KUNIT_EXPECT_EQ(test, tp_test_count(test, TP_STOPPED), 0);
	KUNIT_EXPECT_EQ(test, tp_test_count(test, TP_NO_KERNEL), 3);
}

static void tp_fills_common_fields(struct kunit *test)
{
	struct tp_test *t = test->priv;

	t->record.payload = 0x5a5a5a5a;
	tp_test_fire(test, 1234);
	KUNIT_EXPECT_EQ(test, t->record.ent.type, 1234);
	KUNIT_EXPECT_EQ(test, t->record.ent.pid, current->pid);
	KUNIT_EXPECT_EQ(test, t->record.payload, 0x5a5a5a5a);
}

static void tp_releases_recursion_context(struct kunit *test)
{
	int rctx;

	tp_test_fire(test, 42);
	tp_test_fire(test, 42);
	KUNIT_EXPECT_EQ(test, tp_test_count(test, TP_PLAIN), 6);
	preempt_disable();
	rctx = perf_swevent_get_recursion_context();
	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
	preempt_enable();
	KUNIT_EXPECT_GE(test, rctx, 0);
}

static struct kunit_case perf_tp_cases[] = {
	KUNIT_CASE(tp_counts_running_events),
	KUNIT_CASE(tp_user_regs),
	KUNIT_CASE(tp_fills_common_fields),
	KUNIT_CASE(tp_releases_recursion_context),
	{}
};

static struct kunit_suite perf_tp_suite = {
	.name		= "perf_tracepoint",
	.init		= tp_test_init,
	.test_cases	= perf_tp_cases,
};

kunit_test_suites(&perf_tp_suite);
