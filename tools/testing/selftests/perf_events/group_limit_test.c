// SPDX-License-Identifier: GPL-2.0
/*
 * A group may not grow so big that a PERF_FORMAT_GROUP read of it would
 * pass 16 KiB: the member that would cross the line gets E2BIG.  With
 * time_enabled, time_running, id and lost a read is 24 bytes plus 24 per
 * member, so 681 members fit and the 682nd does not.
 */
#define _GNU_SOURCE
#include <sys/resource.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

#define FMT	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST | \
		 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define FITS	681

TEST(group_read_size_limit)
{
	struct rlimit rl = { FITS + 64, FITS + 64 };
	struct perf_event_attr attr;
	int fds[FITS + 1], i, fd;

	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	sw_attr_init(&attr, PERF_COUNT_SW_DUMMY);
	attr.read_format = FMT;
	attr.exclude_kernel = 1;

	fds[0] = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fds[0]);
	for (i = 1; i < FITS; i++) {
		fds[i] = sys_perf_event_open(&attr, 0, -1, fds[0], 0);
		ASSERT_LE(0, fds[i]) TH_LOG("member %d: %s", i, strerror(errno));
	}

	fd = sys_perf_event_open(&attr, 0, -1, fds[0], 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(E2BIG, errno);

	/* A member without GROUP in its own format is still limited. */
	attr.read_format = 0;
	fd = sys_perf_event_open(&attr, 0, -1, fds[0], 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(E2BIG, errno);

	/* One fewer, and there is room again. */
	close(fds[FITS - 1]);
	fd = sys_perf_event_open(&attr, 0, -1, fds[0], 0);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);

	for (i = 0; i < FITS - 1; i++)
		close(fds[i]);
}

TEST_HARNESS_MAIN
