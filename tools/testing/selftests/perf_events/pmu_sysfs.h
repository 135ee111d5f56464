/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading and writing the files of /sys/bus/event_source/devices/<pmu>/
 * from the perf_events selftests, through the integer file helpers of
 * perf_test_util.h (include that first).
 */
#ifndef PMU_SYSFS_H
#define PMU_SYSFS_H

#include <stdio.h>

#include "perf_test_util.h"

#define PMU_SYSFS_DIR	"/sys/bus/event_source/devices/"

/* Read an integer from a PMU's file; returns 0, or -1 with errno set. */
static inline int pmu_sysfs_read(const char *pmu, const char *file, int *value)
{
	char path[256];

	snprintf(path, sizeof(path), PMU_SYSFS_DIR "%s/%s", pmu, file);
	return read_int_file(path, value);
}

/* Write an integer to a PMU's file; returns 0, or -1 with errno set. */
static inline int pmu_sysfs_write(const char *pmu, const char *file, int value)
{
	char path[256];

	snprintf(path, sizeof(path), PMU_SYSFS_DIR "%s/%s", pmu, file);
	return write_int_file(path, value);
}

#endif /* PMU_SYSFS_H */
