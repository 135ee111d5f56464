/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading and writing the files of /sys/bus/event_source/devices/<pmu>/
 * from the perf_events selftests.
 */
#ifndef PMU_SYSFS_H
#define PMU_SYSFS_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define PMU_SYSFS_DIR	"/sys/bus/event_source/devices/"

/* Read an integer from a PMU's file; returns 0, or -1 with errno set. */
static inline int pmu_sysfs_read(const char *pmu, const char *file, int *value)
{
	char path[256], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), PMU_SYSFS_DIR "%s/%s", pmu, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	*value = atoi(buf);
	return 0;
}

/* Write an integer to a PMU's file; returns 0, or -1 with errno set. */
static inline int pmu_sysfs_write(const char *pmu, const char *file, int value)
{
	char path[256], buf[32];
	int fd, len, ret;

	snprintf(path, sizeof(path), PMU_SYSFS_DIR "%s/%s", pmu, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	len = snprintf(buf, sizeof(buf), "%d\n", value);
	ret = write(fd, buf, len) == len ? 0 : -1;
	close(fd);
	return ret;
}

#endif /* PMU_SYSFS_H */
