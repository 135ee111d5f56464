// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the sample-time budget (sysctl.c): samples that take
 * longer than perf_cpu_time_max_percent allows lower
 * perf_event_max_sample_rate until they fit; the check is off at 0 and
 * 100 percent.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>

#include "internal.h"

struct budget_saved {
	int	rate;
	int	percent;
};

static void budget_set(struct budget_saved *saved, int rate, int percent)
{
	if (saved) {
		saved->rate = sysctl_perf_event_sample_rate;
		saved->percent = sysctl_perf_cpu_time_max_percent;
	}
	WRITE_ONCE(sysctl_perf_event_sample_rate, rate);
	WRITE_ONCE(sysctl_perf_cpu_time_max_percent, percent);
	perf_sample_budget_reset();
}

/* Feed @n samples of @ns each on this CPU. */
static void budget_feed(int n, u64 ns)
{
	preempt_disable();
	while (n--)
		perf_sample_event_took(ns);
	preempt_enable();
}

static void budget_within(struct kunit *test)
{
	struct budget_saved saved;

	/* 100000/s at 25%: 2500 ns a sample. */
	budget_set(&saved, 100000, 25);
	budget_feed(100, 2000);
	KUNIT_EXPECT_EQ(test, sysctl_perf_event_sample_rate, 100000);
	budget_set(NULL, saved.rate, saved.percent);
}

static void budget_lowers_rate(struct kunit *test)
{
	struct budget_saved saved;
	int rate;

	budget_set(&saved, 100000, 25);
	budget_feed(1000, 10000);
	rate = sysctl_perf_event_sample_rate;
	/*
	 * 10 us samples fit 25% of the time at 25000/s; with the quarter
	 * of headroom the rate ends about there, and no lower than what
	 * 12.5 us samples would fit.
	 */
	KUNIT_EXPECT_LE(test, rate, 25100);
	KUNIT_EXPECT_GE(test, rate, 20000 - HZ);
	KUNIT_EXPECT_EQ(test, rate % HZ, 0);
	/* Once it fits, it stays. */
	budget_feed(100, 10000);
	KUNIT_EXPECT_EQ(test, sysctl_perf_event_sample_rate, rate);
	budget_set(NULL, saved.rate, saved.percent);
}

/* A slowly growing sample length lowers the rate in a few steps. */
static void budget_creeping(struct kunit *test)
{
	struct budget_saved saved;
	int rate, changes = 0;
	u64 ns;

	budget_set(&saved, 100000, 25);
	rate = sysctl_perf_event_sample_rate;
	for (ns = 2000; ns <= 10000; ns++) {
		budget_feed(1, ns);
		if (sysctl_perf_event_sample_rate != rate) {
			rate = sysctl_perf_event_sample_rate;
			changes++;
		}
	}
	/* From 100000/s to about 20000/s by a fifth or more each time. */
	KUNIT_EXPECT_GT(test, changes, 0);
	KUNIT_EXPECT_LE(test, changes, 8);
	KUNIT_EXPECT_LE(test, rate, 26000);
	budget_set(NULL, saved.rate, saved.percent);
}

/*
 * One sample 600 times too long among samples within the budget: the
 * average is over more than a hundred samples, so the rate comes down
 * by less than a factor of ten (a tenth of the samples, 20000/s, still
 * fits), not to a few per tick.
 */
static void budget_one_outlier(struct kunit *test)
{
	struct budget_saved saved;

	budget_set(&saved, 100000, 25);
	budget_feed(1000, 1000);
	budget_feed(1, 1500000);
	budget_feed(10, 1000);
	KUNIT_EXPECT_GE(test, sysctl_perf_event_sample_rate, 10000);
	KUNIT_EXPECT_LT(test, sysctl_perf_event_sample_rate, 100000);
	budget_set(NULL, saved.rate, saved.percent);
}

/* However long samples take, the rate stays at HZ or above. */
static void budget_floor(struct kunit *test)
{
	struct budget_saved saved;

	budget_set(&saved, 100000, 25);
	budget_feed(100, NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, sysctl_perf_event_sample_rate, HZ);
	budget_set(NULL, saved.rate, saved.percent);
}

static void budget_off(struct kunit *test)
{
	struct budget_saved saved;

	budget_set(&saved, 100000, 100);
	budget_feed(100, 1000000);
	KUNIT_EXPECT_EQ(test, sysctl_perf_event_sample_rate, 100000);
	budget_set(NULL, 100000, 0);
	budget_feed(100, 1000000);
	KUNIT_EXPECT_EQ(test, sysctl_perf_event_sample_rate, 100000);
	budget_set(NULL, saved.rate, saved.percent);
}

static struct kunit_case perf_sample_budget_cases[] = {
	KUNIT_CASE(budget_within),
	KUNIT_CASE(budget_lowers_rate),
	KUNIT_CASE(budget_creeping),
	KUNIT_CASE(budget_one_outlier),
	KUNIT_CASE(budget_floor),
	KUNIT_CASE(budget_off),
	{}
};

static struct kunit_suite perf_sample_budget_suite = {
	.name = "perf_sample_budget",
	.test_cases = perf_sample_budget_cases,
};

kunit_test_suite(perf_sample_budget_suite);
