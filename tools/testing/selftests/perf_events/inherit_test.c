// SPDX-License-Identifier: GPL-2.0
/*
 * attr.inherit: events follow the tasks the monitored task creates after
 * the open, and a read of the original event sums them up; live children
 * count as well as exited ones.  inherit_thread limits that to threads.
 * Also the combinations perf_event_open(2) refuses with inheritance.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

/* A counter on this task with RF_TIMES; it must open. */
static int open_inherit(struct __test_metadata *_metadata, __u64 config,
			bool inherit, bool inherit_thread)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr_init(&attr, config);
	attr.inherit = inherit;
	attr.inherit_thread = inherit_thread;
	attr.read_format = RF_TIMES;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	return fd;
}

/* A child that touches fresh pages, then exits. */
static pid_t fork_toucher(void)
{
	pid_t pid = fork();

	if (!pid) {
		touch_pages(map_fresh_pages(TOUCH_PAGES), TOUCH_PAGES);
		_exit(0);
	}
	return pid;
}

/* Read @fd before and after a fork_toucher() child has run and exited. */
static void around_child(struct __test_metadata *_metadata, int fd,
			 struct value_times *before, struct value_times *after)
{
	ASSERT_EQ(0, read_value_times(fd, before));
	ASSERT_EQ(0, reap_status(fork_toucher()));
	ASSERT_EQ(0, read_value_times(fd, after));
}

/* An exited child's page faults are added to the parent's count. */
TEST(exited_child_counts)
{
	struct value_times before, after;
	int fd;

	fd = open_inherit(_metadata, PERF_COUNT_SW_PAGE_FAULTS, true, false);
	around_child(_metadata, fd, &before, &after);
	EXPECT_LE(before.value + TOUCH_PAGES, after.value);
	EXPECT_LT(before.enabled, after.enabled);
	close(fd);
}

/* Without inherit, the child is not counted at all. */
TEST(no_inherit_no_child)
{
	struct value_times before, after;
	int fd;

	fd = open_inherit(_metadata, PERF_COUNT_SW_PAGE_FAULTS, false, false);
	around_child(_metadata, fd, &before, &after);
	EXPECT_GT(before.value + TOUCH_PAGES / 2, after.value);
	close(fd);
}

/* A child that is still alive is counted too, and so is a grandchild. */
TEST(live_child_and_grandchild_count)
{
	int ready[2], go[2], fd;
	struct value_times before, mid;
	pid_t pid;
	char c;

	fd = open_inherit(_metadata, PERF_COUNT_SW_PAGE_FAULTS, true, false);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, read_value_times(fd, &before));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		pid_t grandchild = fork_toucher();
		int status;

		waitpid(grandchild, &status, 0);
		touch_pages(map_fresh_pages(TOUCH_PAGES), TOUCH_PAGES);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}

	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, read_value_times(fd, &mid));
	EXPECT_LE(before.value + 2 * TOUCH_PAGES, mid.value);

	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(0, reap_status(pid));
	close(fd);
}

static void *thread_touch(void *arg)
{
	touch_pages(map_fresh_pages(TOUCH_PAGES), TOUCH_PAGES);
	return NULL;
}

/* inherit_thread: new threads are counted, new processes are not. */
TEST(inherit_thread_only_threads)
{
	struct value_times base, after_thread, after_fork;
	pthread_t thread;
	int fd;

	fd = open_inherit(_metadata, PERF_COUNT_SW_PAGE_FAULTS, true, true);
	ASSERT_EQ(0, read_value_times(fd, &base));
	ASSERT_EQ(0, pthread_create(&thread, NULL, thread_touch, NULL));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	around_child(_metadata, fd, &after_thread, &after_fork);
	EXPECT_LE(base.value + TOUCH_PAGES, after_thread.value);
	EXPECT_GT(after_thread.value + TOUCH_PAGES / 2, after_fork.value);
	close(fd);
}

/* Closing the original while a child still runs leaves the child unharmed. */
TEST(close_parent_event_with_live_child)
{
	int go[2], fd;
	pid_t pid;
	char c;

	fd = open_inherit(_metadata, PERF_COUNT_SW_TASK_CLOCK, true, false);
	ASSERT_EQ(0, pipe(go));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		spin_cpu_ns(10 * NSEC_PER_MSEC);
		_exit(0);
	}

	close(fd);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(0, reap_status(pid));
}

/* Group members must agree with their leader on inheritance. */
TEST(group_inherit_mismatch)
{
	struct perf_event_attr attr;
	int leader, member;

	leader = open_inherit(_metadata, PERF_COUNT_SW_TASK_CLOCK, true, false);

	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	member = sys_perf_event_open(&attr, 0, -1, leader, 0);
	EXPECT_EQ(-1, member);
	EXPECT_EQ(EINVAL, errno);

	attr.inherit = 1;
	member = sys_perf_event_open(&attr, 0, -1, leader, 0);
	EXPECT_LE(0, member);
	if (member >= 0)
		close(member);
	close(leader);
}

/* A sample cannot carry a value summed over children. */
TEST(inherit_with_sample_read)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.sample_period = 100000;
	attr.sample_type = PERF_SAMPLE_READ;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
