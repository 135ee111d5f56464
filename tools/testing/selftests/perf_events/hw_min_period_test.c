// SPDX-License-Identifier: GPL-2.0
/*
 * The shortest sample period a model's counters take, as 6.1 enforces
 * it (an erratum workaround on some models): a shorter one is refused
 * with EINVAL, at perf_event_open() and at PERF_EVENT_IOC_PERIOD, and
 * the counter is never loaded with less, so a period that is accepted
 * is what the samples come at.
 *
 *  - Nehalem (not Westmere) and Haswell: 32, for every event;
 *  - Haswell and Broadwell: INST_RETIRED.PREC_DIST (event 0xc0, unit mask
 *    1) at least 128, and a longer period is taken as it is (191 samples
 *    every 191 instructions);
 *  - elsewhere, a period of 1 is taken.
 *
 * A frequency is not a period: IOC_PERIOD of a frequency event is not
 * held to the minimum.
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

#define PREC_DIST		0x01c0
#define RUN_N			100000UL
#define RING_PAGES		16

/* Haswell's and Broadwell's models. */
static const unsigned char prec_dist_models[] = {
	0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56,
};

struct rule {
	__u64 min;		/* every event */
	__u64 prec_dist;	/* INST_RETIRED.PREC_DIST, 0 if as the others */
};

static struct rule cpu_rule(void)
{
	struct rule r = { hw_min_period(), 0 };
	unsigned int family, model;

	hw_cpu_family_model(&family, &model);
	if (hw_vendor() == HW_VENDOR_INTEL && family == 6 &&
	    hw_model_listed(prec_dist_models, sizeof(prec_dist_models), model))
		r.prec_dist = 128;
	return r;
}

static int open_period(__u32 type, __u64 config, __u64 period, bool freq)
{
	struct perf_event_attr attr;

	hw_attr_init(&attr, type, config);
	attr.freq = freq;
	attr.sample_period = period;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

static const struct {
	__u32 type;
	__u64 config;
	const char *name;
} events[] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions" },
	{ PERF_TYPE_RAW, 0x3c, "raw 0x3c" },
	{ PERF_TYPE_RAW, PREC_DIST, "INST_RETIRED.PREC_DIST" },
};

static __u64 event_min(const struct rule *r, int i)
{
	if (events[i].type == PERF_TYPE_RAW && events[i].config == PREC_DIST &&
	    r->prec_dist)
		return r->prec_dist;
	return r->min;
}

/* Open: the minimum is taken, one less refused with EINVAL. */
TEST(shortest_period_at_open)
{
	struct rule r = cpu_rule();
	int i, fd;

	HW_SKIP_WITHOUT_PMU();
	for (i = 0; i < (int)ARRAY_SIZE(events); i++) {
		__u64 min = event_min(&r, i);

		fd = open_period(events[i].type, events[i].config, min, false);
		EXPECT_LE(0, fd) TH_LOG("%s, period %llu: %s", events[i].name,
					min, strerror(errno));
		if (fd >= 0)
			close(fd);
		if (min < 2)
			continue;
		fd = open_period(events[i].type, events[i].config, min - 1,
				 false);
		EXPECT_EQ(-1, fd) TH_LOG("%s, period %llu", events[i].name,
					 min - 1);
		EXPECT_EQ(EINVAL, errno);
		if (fd >= 0)
			close(fd);
	}
}

/* IOC_PERIOD: the same for a new period; a frequency is not held to it. */
TEST(shortest_period_at_ioc_period)
{
	struct saved_rate_limits limits = {};
	struct rule r = cpu_rule();
	__u64 v;
	int i, fd;

	HW_SKIP_WITHOUT_PMU();
	/*
	 * The frequency events below ask 1000 Hz; an earlier test's long
	 * interrupts may have left the sample rate limit under that.
	 */
	if (sample_rate_lift(&limits, 100000))
		SKIP(return, "cannot set perf_event_max_sample_rate");
	for (i = 0; i < (int)ARRAY_SIZE(events); i++) {
		__u64 min = event_min(&r, i);

		fd = open_period(events[i].type, events[i].config, 1000, false);
		EXPECT_LE(0, fd) TH_LOG("%s: %s", events[i].name,
					strerror(errno));
		if (fd < 0)
			continue;
		v = min;
		EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v))
			TH_LOG("%s, period %llu", events[i].name, min);
		if (min > 1) {
			v = min - 1;
			EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v))
				TH_LOG("%s, period %llu", events[i].name, v);
			EXPECT_EQ(EINVAL, errno);
		}
		close(fd);

		fd = open_period(events[i].type, events[i].config, 1000, true);
		EXPECT_LE(0, fd) TH_LOG("%s, 1000 Hz: %s", events[i].name,
					strerror(errno));
		if (fd < 0)
			continue;
		v = 1;
		EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v))
			TH_LOG("%s, frequency 1: %s", events[i].name,
			       strerror(errno));
		close(fd);
	}
	sample_rate_restore(&limits);
}

/*
 * PREC_DIST sampled every @period instructions over RUN_N loops: how
 * many samples.
 */
static int samples_at(struct __test_metadata *_metadata, __u64 period)
{
	struct saved_rate_limits limits = {};
	struct record_counts counts = {};
	struct ring r;
	__u64 count;
	int fd;

	if (sample_rate_lift(&limits, 1000000))
		return -1;
	fd = open_period(PERF_TYPE_RAW, PREC_DIST, period, false);
	if (fd < 0 || ring_map(&r, fd, RING_PAGES))
		return -1;
	ring_prefault(&r);
	if (hw_count_loop(fd, RUN_N, &count) ||
	    ring_drain(&r, count_record, &counts) < 0)
		return -1;
	sample_rate_restore(&limits);
	ring_unmap(&r);
	close(fd);
	TH_LOG("period %llu: %d samples, %llu instructions", period,
	       counts.type[PERF_RECORD_SAMPLE], count);
	return counts.type[PERF_RECORD_SAMPLE];
}

/* PREC_DIST samples at its period: the shortest, and a longer odd one. */
TEST(prec_dist_samples_at_its_period)
{
	struct rule r = cpu_rule();
	__u64 insns = RUN_N * HW_LOOP_INSNS;
	int n;

	HW_SKIP_WITHOUT_PMU();
	if (!r.prec_dist)
		SKIP(return, "INST_RETIRED.PREC_DIST has no rule here");
	n = samples_at(_metadata, 128);
	ASSERT_LE(0, n);
	EXPECT_LE((int)(insns / 128) - 2, n);
	EXPECT_GE((int)(insns / 128) + 4, n);
	n = samples_at(_metadata, 191);
	ASSERT_LE(0, n);
	EXPECT_LE((int)(insns / 191) - 2, n);
	EXPECT_GE((int)(insns / 191) + 4, n);
}

TEST_HARNESS_MAIN
