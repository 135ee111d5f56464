// SPDX-License-Identifier: GPL-2.0
/*
 * attr.exclude_host and attr.exclude_guest on the x86 hardware PMU, on
 * a machine that runs no guest (the man page: exclude_host "do not
 * measure time in the host", exclude_guest "do not measure time in
 * guests"; KVM's counters for its guests are events that exclude the
 * host):
 *
 *  - an event that excludes guests counts the host's work, exactly: the
 *    perf tool sets exclude_guest with every modifier (instructions:u);
 *  - one that excludes the host counts nothing here: on Intel its
 *    counter is left out of IA32_PERF_GLOBAL_CTRL outside a guest, on
 *    AMD it is a Guest-Only counter;
 *  - one that excludes both counts nothing, one that excludes neither
 *    counts everything.
 *
 * The same on 6.1.  Skipped where there is no hardware PMU.
 */
#define _GNU_SOURCE
#include "perf_test_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

#define N1	10000UL
#define N2	110000UL

FIXTURE(guest) {
	int fd;
};

FIXTURE_VARIANT(guest) {
	bool exclude_host;
	bool exclude_guest;
	bool counts;
};

FIXTURE_VARIANT_ADD(guest, neither) {
	.counts = true,
};

FIXTURE_VARIANT_ADD(guest, exclude_guest) {
	.exclude_guest = true,
	.counts = true,
};

FIXTURE_VARIANT_ADD(guest, exclude_host) {
	.exclude_host = true,
	.counts = false,
};

FIXTURE_VARIANT_ADD(guest, exclude_both) {
	.exclude_host = true,
	.exclude_guest = true,
	.counts = false,
};

FIXTURE_SETUP(guest)
{
	struct perf_event_attr attr;

	self->fd = -1;
	HW_SKIP_WITHOUT_PMU();
	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_host = variant->exclude_host;
	attr.exclude_guest = variant->exclude_guest;
	self->fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(self->fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
}

FIXTURE_TEARDOWN(guest)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The loop's instructions, by the difference method, or none at all. */
TEST_F(guest, instructions)
{
	__u64 c1, c2;

	HW_SKIP_WITHOUT_PMU();
	ASSERT_EQ(0, hw_count_loop(self->fd, N1, &c1));
	ASSERT_EQ(0, hw_count_loop(self->fd, N1, &c1));
	ASSERT_EQ(0, hw_count_loop(self->fd, N2, &c2));
	if (variant->counts) {
		EXPECT_EQ((N2 - N1) * HW_LOOP_INSNS, c2 - c1)
			TH_LOG("counts %llu and %llu", c1, c2);
	} else {
		EXPECT_EQ(0, c1);
		EXPECT_EQ(0, c2);
	}
}

/* The same when its counter is the only one, in a group of one leader. */
TEST_F(guest, time_running)
{
	struct { __u64 value, enabled, running; } r;
	struct perf_event_attr attr;
	int fd;

	HW_SKIP_WITHOUT_PMU();
	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_host = variant->exclude_host;
	attr.exclude_guest = variant->exclude_guest;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	hw_loop(N2);
	ASSERT_EQ(sizeof(r), read(fd, &r, sizeof(r)));
	/* It has its counter all along: excluding is not multiplexing. */
	EXPECT_EQ(r.enabled, r.running);
	EXPECT_GT(r.running, 0);
	if (variant->counts) {
		EXPECT_GE(r.value, N2 * HW_LOOP_INSNS);
	} else {
		EXPECT_EQ(0, r.value);
	}
	close(fd);
}

TEST_HARNESS_MAIN
