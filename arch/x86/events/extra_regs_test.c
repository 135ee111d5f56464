// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the extra registers' sharing (extra_regs.c), with a
 * made-up CPU type: two offcore response registers an event may swap,
 * each with an event select of its own, and a load-latency register.
 */
#include <kunit/test.h>

#include "pmu.h"

#define RSP_0	0
#define RSP_1	1
#define LDLAT	2

static struct x86_cpu_type test_type = {
	.extra = {
		[RSP_0] = { .msr = 0x1a6, .code = 0x01b7 },
		[RSP_1] = { .msr = 0x1a7, .code = 0x01bb },
		[LDLAT] = { .msr = 0x3f6 },
	},
};

/*
 * An event of @test_type whose event select names register @idx, that
 * may have @regs, holding @value.
 */
static struct perf_event *make_event(struct kunit *test, int idx, u8 regs,
				     u64 value)
{
	struct perf_event *event = kunit_kzalloc(test, sizeof(*event),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, event);
	event->pmu = &test_type.pmu;
	event->hw.config = test_type.extra[idx].code ?: 0x01cd;
	event->hw.config |= ARCH_PERFMON_EVENTSEL_INT | 0x1000000;
	event->hw.extra_idx = idx;
	event->hw.extra_regs = regs;
	event->hw.extra_config = value;
	return event;
}

/* Events that want one value share a register; another value is kept out. */
static void extra_share(struct kunit *test)
{
	struct x86_extra_use use = {};
	struct perf_event *a, *b, *c;

	a = make_event(test, LDLAT, BIT(LDLAT), 3);
	b = make_event(test, LDLAT, BIT(LDLAT), 3);
	c = make_event(test, LDLAT, BIT(LDLAT), 4);
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, a), LDLAT);
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, b), LDLAT);
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, c), -1);
	KUNIT_EXPECT_EQ(test, use.users[LDLAT], 2U);
	KUNIT_EXPECT_EQ(test, use.value[LDLAT], 3ULL);

	/* Free again once both are gone, for any value. */
	x86_extra_put(&use, LDLAT);
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, c), -1);
	x86_extra_put(&use, LDLAT);
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, c), LDLAT);
	KUNIT_EXPECT_EQ(test, use.value[LDLAT], 4ULL);
}

/*
 * A second value goes to the other offcore register, and its event
 * becomes that register's event; a third has no place.
 */
static void extra_swap(struct kunit *test)
{
	u8 both = BIT(RSP_0) | BIT(RSP_1);
	struct x86_extra_use use = {};
	struct perf_event *a, *b, *c, *d;
	int idx;

	a = make_event(test, RSP_0, both, 0x10001);
	b = make_event(test, RSP_0, both, 0x10002);
	c = make_event(test, RSP_0, both, 0x10004);
	d = make_event(test, RSP_1, both, 0x10001);
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, a), RSP_0);
	x86_extra_take(a, RSP_0);
	KUNIT_EXPECT_EQ(test, a->hw.config, 0x10001b7ULL | ARCH_PERFMON_EVENTSEL_INT);

	idx = x86_extra_get(&use, b);
	KUNIT_EXPECT_EQ(test, idx, RSP_1);
	x86_extra_take(b, idx);
	KUNIT_EXPECT_EQ(test, b->hw.extra_idx, RSP_1);
	/* Event and unit mask change; the rest of the event select stays. */
	KUNIT_EXPECT_EQ(test, b->hw.config, 0x10001bbULL | ARCH_PERFMON_EVENTSEL_INT);

	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, c), -1);
	/* An RSP_1 event with RSP_0's value shares RSP_0. */
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, d), RSP_0);
	KUNIT_EXPECT_EQ(test, use.users[RSP_0], 2U);

	/* Swapped once, an event tries its new register first. */
	x86_extra_put(&use, RSP_0);
	x86_extra_put(&use, RSP_0);
	x86_extra_put(&use, RSP_1);
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, b), RSP_1);
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, c), RSP_0);
}

/* An event that may not have the other register does not swap. */
static void extra_no_alternative(struct kunit *test)
{
	struct x86_extra_use use = {};
	struct perf_event *a, *b;

	a = make_event(test, RSP_0, BIT(RSP_0) | BIT(RSP_1), 1);
	b = make_event(test, RSP_0, BIT(RSP_0), 2);
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, a), RSP_0);
	KUNIT_EXPECT_EQ(test, x86_extra_get(&use, b), -1);
	KUNIT_EXPECT_EQ(test, use.users[RSP_1], 0U);
}

static struct kunit_case x86_extra_cases[] = {
	KUNIT_CASE(extra_share),
	KUNIT_CASE(extra_swap),
	KUNIT_CASE(extra_no_alternative),
	{}
};

static struct kunit_suite x86_extra_suite = {
	.name = "perf_x86_extra_regs",
	.test_cases = x86_extra_cases,
};

kunit_test_suites(&x86_extra_suite);
