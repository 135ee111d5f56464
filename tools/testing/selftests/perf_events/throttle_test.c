// SPDX-License-Identifier: GPL-2.0
/*
 * A throttled event must not stay throttled.  With
 * perf_event_max_sample_rate at 250 (one sample per tick at HZ=250, at
 * most a few at other HZ), a sampler with a short period is throttled
 * soon after each tick and unthrottled at the next, or, as in Linux 6.1,
 * when it goes on a CPU again: after its task slept, or after it was
 * disabled and enabled.  In each phase of running the event must
 * sample again, and the ring shows PERF_RECORD_THROTTLE and
 * PERF_RECORD_UNTHROTTLE records.  For task-clock and, when the CPU has
 * a PMU, retired instructions.
 *
 * And an event must not be throttled before it reaches the limit: the
 * limit is per tick, so a sampler that overflows less often than that
 * is never throttled, however long it runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

#define MAX_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"
#define PHASES		4
#define RUN_NS		(40 * NSEC_PER_MSEC)
#define PAUSE_MS	40

FIXTURE(throttle) {
	int saved;
	int fd;
	struct ring r;
};

FIXTURE_VARIANT(throttle) {
	bool hardware;
	bool disable;	/* disable and enable between phases, or sleep */
};

FIXTURE_VARIANT_ADD(throttle, task_clock_sleeps) {
	.hardware = false, .disable = false,
};

FIXTURE_VARIANT_ADD(throttle, task_clock_disabled) {
	.hardware = false, .disable = true,
};

FIXTURE_VARIANT_ADD(throttle, instructions_sleeps) {
	.hardware = true, .disable = false,
};

FIXTURE_VARIANT_ADD(throttle, instructions_disabled) {
	.hardware = true, .disable = true,
};

FIXTURE_SETUP(throttle)
{
	struct perf_event_attr attr;

	self->fd = -1;
	self->r.map = NULL;
	ASSERT_EQ(0, read_int_file(MAX_RATE, &self->saved));
	if (variant->hardware && !hw_pmu_present())
		SKIP(return, NO_HW_PMU);
	ASSERT_EQ(0, write_int_file(MAX_RATE, 250));

	if (variant->hardware) {
		hw_attr_init(&attr, PERF_TYPE_HARDWARE,
			     PERF_COUNT_HW_INSTRUCTIONS);
		attr.sample_period = 10000;
	} else {
		sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
		attr.sample_period = 10000;	/* ns: the shortest */
		attr.disabled = 1;
	}
	attr.sample_type = PERF_SAMPLE_IP;
	self->fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ring_map(&self->r, self->fd, 64));
	ring_prefault(&self->r);
}

FIXTURE_TEARDOWN(throttle)
{
	ring_unmap(&self->r);
	if (self->fd >= 0)
		close(self->fd);
	write_int_file(MAX_RATE, self->saved);
}

/* Keep the CPU busy in user space for @ns. */
static void run_for(bool hardware, __u64 ns)
{
	__u64 end = clock_ns(CLOCK_MONOTONIC) + ns;

	while (clock_ns(CLOCK_MONOTONIC) < end) {
		if (hardware)
			hw_loop(10000);
		else
			spin_cpu_ns(NSEC_PER_MSEC);
	}
}

TEST_F(throttle, samples_again)
{
	struct record_counts total = { 0 }, c;
	int phase, i;

	/* The harness runs the test even when its setup skipped. */
	if (variant->hardware && !hw_pmu_present())
		SKIP(return, NO_HW_PMU);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	for (phase = 0; phase < PHASES; phase++) {
		memset(&c, 0, sizeof(c));
		run_for(variant->hardware, RUN_NS);
		if (variant->disable)
			ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
		EXPECT_LE(0, ring_drain(&self->r, count_record, &c));
		EXPECT_LT(0, c.type[PERF_RECORD_SAMPLE])
			TH_LOG("phase %d: no sample", phase);
		for (i = 0; i < 32; i++)
			total.type[i] += c.type[i];
		sleep_ms(PAUSE_MS);
		if (variant->disable)
			ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	}
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	/* The limit was reached, and lifted. */
	EXPECT_LT(0, total.type[PERF_RECORD_THROTTLE]);
	EXPECT_LT(0, total.type[PERF_RECORD_UNTHROTTLE]);
}

/*
 * A task-clock sampling every 10 ms, which is never twice in a tick at
 * any HZ, under a limit of 2000 samples a second: two a tick at HZ=1000,
 * more at lower HZ.  (With one a tick, 6.1 throttles every overflow.)
 * It runs until SLOW_SAMPLES samples are in, 300 ms unloaded; a loaded
 * host, which holds the vCPU back while the guest's clock runs on, has
 * its hrtimer fire once for several periods, and may take up to
 * SLOW_MAX_NS.
 */
#define SLOW_PERIOD_NS	(10 * NSEC_PER_MSEC)
#define SLOW_SAMPLES	30
#define SLOW_MAX_NS	(5000 * NSEC_PER_MSEC)
#define SLOW_RATE	2000
/* A sample of PERF_SAMPLE_IP alone: its header and the IP. */
#define SLOW_RECORD	(sizeof(struct perf_event_header) + sizeof(__u64))

FIXTURE(slow) {
	struct saved_rate_limits limits;
};

FIXTURE_SETUP(slow)
{
	ASSERT_EQ(0, sample_rate_lift(&self->limits, SLOW_RATE));
}

FIXTURE_TEARDOWN(slow)
{
	sample_rate_restore(&self->limits);
}

TEST_F(slow, never_throttled)
{
	struct perf_event_attr attr;
	struct record_counts c = { 0 };
	__u64 spun;
	struct ring r;
	int fd;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = SLOW_PERIOD_NS;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 16));
	ring_prefault(&r);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (spun = 0; spun < SLOW_MAX_NS &&
	     ring_head(&r) < SLOW_SAMPLES * SLOW_RECORD; spun += SLOW_PERIOD_NS)
		spin_cpu_ns(SLOW_PERIOD_NS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_LE(0, ring_drain(&r, count_record, &c));
	EXPECT_LE(SLOW_SAMPLES, c.type[PERF_RECORD_SAMPLE]);
	EXPECT_EQ(0, c.type[PERF_RECORD_THROTTLE]);
	ring_unmap(&r);
	close(fd);
}

TEST_HARNESS_MAIN
