// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/bus/event_source/devices/<pmu>/: the built-in PMUs are there with
 * their fixed type numbers, an event opened with the type read from
 * sysfs reaches that PMU, and perf_event_mux_interval_ms can be read and
 * set to any positive number of milliseconds (and nothing else).
 */
#define _GNU_SOURCE
#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "../kselftest_harness.h"

TEST(builtin_types)
{
	int type;

	ASSERT_EQ(0, pmu_sysfs_read("software", "type", &type));
	EXPECT_EQ(PERF_TYPE_SOFTWARE, type);
	ASSERT_EQ(0, pmu_sysfs_read("tracepoint", "type", &type));
	EXPECT_EQ(PERF_TYPE_TRACEPOINT, type);
	ASSERT_EQ(0, pmu_sysfs_read("breakpoint", "type", &type));
	EXPECT_EQ(PERF_TYPE_BREAKPOINT, type);
}

/* The type from sysfs is what attr.type takes. */
TEST(type_opens_event)
{
	struct perf_event_attr attr;
	__u64 value;
	int type, fd;

	ASSERT_EQ(0, pmu_sysfs_read("software", "type", &type));
	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.type = type;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	touch_pages(map_fresh_pages(TOUCH_PAGES), TOUCH_PAGES);
	ASSERT_EQ(0, read_value(fd, &value));
	EXPECT_LE(TOUCH_PAGES, value);
	close(fd);
}

FIXTURE(mux_interval) {
	int saved;
};

FIXTURE_SETUP(mux_interval)
{
	ASSERT_EQ(0, pmu_sysfs_read("software", "perf_event_mux_interval_ms",
				    &self->saved));
}

FIXTURE_TEARDOWN(mux_interval)
{
	pmu_sysfs_write("software", "perf_event_mux_interval_ms", self->saved);
}

TEST_F(mux_interval, positive)
{
	int value;

	/* 0 on PMUs that never multiplex, as the software one on 6.1. */
	EXPECT_LE(0, self->saved);
	ASSERT_EQ(0, pmu_sysfs_write("software", "perf_event_mux_interval_ms",
				     self->saved + 3));
	ASSERT_EQ(0, pmu_sysfs_read("software", "perf_event_mux_interval_ms",
				    &value));
	EXPECT_EQ(self->saved + 3, value);
}

TEST_F(mux_interval, refuses_zero_and_negative)
{
	int value;

	EXPECT_EQ(-1, pmu_sysfs_write("software", "perf_event_mux_interval_ms", 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, pmu_sysfs_write("software", "perf_event_mux_interval_ms", -5));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, pmu_sysfs_read("software", "perf_event_mux_interval_ms",
				    &value));
	EXPECT_EQ(self->saved, value);
}

TEST_HARNESS_MAIN
