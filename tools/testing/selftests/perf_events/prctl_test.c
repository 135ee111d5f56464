// SPDX-License-Identifier: GPL-2.0
/*
 * prctl(PR_TASK_PERF_EVENTS_DISABLE) and prctl(PR_TASK_PERF_EVENTS_ENABLE).
 *
 * They act on the events the calling task created, whatever task they
 * follow: an event on itself and one on a child are both stopped, and
 * started again, as are the copies an inherited event made in children;
 * ENABLE also starts events that were opened disabled.  They leave alone
 * the events other processes created: a child's event on itself goes on
 * counting when its parent disables, and the parent's event on the child
 * when the child does.
 */
#define _GNU_SOURCE
#include <sys/prctl.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

/* How long the spinning child runs between two reads. */
#define RUN_MS		30

static int events_disable(void)
{
	return prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
}

static int events_enable(void)
{
	return prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
}

/* Burn CPU until killed. */
static void spin_forever(void)
{
	for (;;)
		spin_cpu_ns(NSEC_PER_MSEC);
}

/* A child burning CPU from its release until the teardown kills it. */
FIXTURE(spinner) {
	struct gated_child c;
};

FIXTURE_SETUP(spinner)
{
	ASSERT_LE(0, fork_gated(&self->c, NULL));
	if (self->c.pid == 0)
		spin_forever();
}

FIXTURE_TEARDOWN(spinner)
{
	if (self->c.pid > 0) {
		kill(self->c.pid, SIGKILL);
		gated_wait(&self->c);
	}
}

/*
 * Read the @n events of @fds into @before; spin for @spin_ns, then sleep
 * while the spinning child runs; read them into @after.
 */
static void read_around(struct __test_metadata *_metadata, const int *fds,
			int n, __u64 spin_ns, struct value_times *before,
			struct value_times *after)
{
	int i;

	for (i = 0; i < n; i++)
		ASSERT_EQ(0, read_value_times(fds[i], &before[i]));
	spin_cpu_ns(spin_ns);
	sleep_ms(RUN_MS);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, read_value_times(fds[i], &after[i]));
}

/* An event on ourselves and one on the child: both stop, both start. */
TEST_F(spinner, self_and_child)
{
	struct value_times a[2], b[2];
	int fds[2];	/* on ourselves, on the child */

	fds[0] = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, false,
			       0, -1);
	ASSERT_LE(0, fds[0]);
	fds[1] = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, false,
			       self->c.pid, -1);
	ASSERT_LE(0, fds[1]);
	ASSERT_EQ(0, gate_release(&self->c));

	read_around(_metadata, fds, 2, 2 * NSEC_PER_MSEC, a, b);
	EXPECT_LT(a[0].value, b[0].value);
	EXPECT_LT(a[1].value, b[1].value);

	ASSERT_EQ(0, events_disable());
	read_around(_metadata, fds, 2, 2 * NSEC_PER_MSEC, a, b);
	EXPECT_EQ(a[0].value, b[0].value);
	EXPECT_EQ(a[0].enabled, b[0].enabled);
	EXPECT_EQ(a[1].value, b[1].value);
	EXPECT_EQ(a[1].enabled, b[1].enabled);

	/* Disabling again changes nothing. */
	ASSERT_EQ(0, events_disable());

	ASSERT_EQ(0, events_enable());
	read_around(_metadata, fds, 2, 2 * NSEC_PER_MSEC, a, b);
	EXPECT_LT(a[0].value, b[0].value);
	EXPECT_LT(a[0].enabled, b[0].enabled);
	EXPECT_LT(a[1].value + NSEC_PER_MSEC, b[1].value);
	EXPECT_LT(a[1].enabled, b[1].enabled);

	close(fds[1]);
	close(fds[0]);
}

/* ENABLE starts an event opened disabled; DISABLE stops it again. */
TEST(enable_starts_disabled_event)
{
	char *pages;
	__u64 v0, v1;
	int fd;

	pages = map_fresh_pages(3 * TOUCH_PAGES);
	ASSERT_NE(NULL, pages);
	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, true, 0, -1);
	ASSERT_LE(0, fd);

	touch_pages(pages, TOUCH_PAGES);
	ASSERT_EQ(0, read_value(fd, &v0));
	EXPECT_EQ(0, v0);

	ASSERT_EQ(0, events_enable());
	touch_pages(pages + TOUCH_PAGES * getpagesize(), TOUCH_PAGES);
	ASSERT_EQ(0, read_value(fd, &v0));
	EXPECT_LE(TOUCH_PAGES, v0);
	EXPECT_GT(TOUCH_PAGES + FAULT_SLACK, v0);

	ASSERT_EQ(0, events_disable());
	touch_pages(pages + 2 * TOUCH_PAGES * getpagesize(), TOUCH_PAGES);
	ASSERT_EQ(0, read_value(fd, &v1));
	EXPECT_EQ(v0, v1);

	close(fd);
	munmap(pages, 3 * TOUCH_PAGES * getpagesize());
}

/* The copies of an inherited event in a child stop and start too. */
TEST(inherited_copies)
{
	struct perf_event_attr attr;
	struct value_times a, b;
	int fd, status;
	pid_t pid;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.read_format = RF_TIMES;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		spin_forever();

	/* The child counts into our event while we sleep. */
	read_around(_metadata, &fd, 1, 0, &a, &b);
	EXPECT_LT(a.value + NSEC_PER_MSEC, b.value);

	ASSERT_EQ(0, events_disable());
	read_around(_metadata, &fd, 1, 0, &a, &b);
	EXPECT_EQ(a.value, b.value);
	EXPECT_EQ(a.enabled, b.enabled);

	ASSERT_EQ(0, events_enable());
	read_around(_metadata, &fd, 1, 0, &a, &b);
	EXPECT_LT(a.value + NSEC_PER_MSEC, b.value);

	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(fd);
}

/*
 * The child's own event, opened by the child before its gate, and the
 * child's exit status: 0 if the event counted the faults the child made
 * after its release, 10 if it did not.
 */
static int own_fd = -1;

static int open_own_event(void)
{
	own_fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, 0, -1);
	return own_fd < 0 ? -1 : 0;
}

static void fault_and_check_own(bool disable)
{
	__u64 before, after;
	char *pages;

	if (disable && events_disable())
		_exit(3);
	pages = map_fresh_pages(TOUCH_PAGES);
	if (!pages || read_value(own_fd, &before))
		_exit(4);
	touch_pages(pages, TOUCH_PAGES);
	if (read_value(own_fd, &after))
		_exit(5);
	if (disable)
		_exit(after == before ? 0 : 11);
	_exit(after >= before + TOUCH_PAGES ? 0 : 10);
}

/*
 * Fork a gated child that runs fault_and_check_own(@disable) once
 * released, and open our page-fault event on it: the event's fd.
 */
static int fork_watched(struct __test_metadata *_metadata,
			struct gated_child *c, bool disable)
{
	int fd;

	ASSERT_LE(0, fork_gated(c, open_own_event));
	if (c->pid == 0)
		fault_and_check_own(disable);

	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, c->pid, -1);
	ASSERT_LE(0, fd);
	return fd;
}

static void reap(struct __test_metadata *_metadata, struct gated_child *c)
{
	int status;

	status = gated_wait(c);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * Our DISABLE stops our event on the child, not the child's own event on
 * itself.
 */
TEST(other_process_events_left_alone)
{
	struct gated_child c;
	__u64 before, after;
	int fd;

	fd = fork_watched(_metadata, &c, false);
	ASSERT_EQ(0, events_disable());
	ASSERT_EQ(0, read_value(fd, &before));

	ASSERT_EQ(0, gate_release(&c));
	reap(_metadata, &c);

	ASSERT_EQ(0, read_value(fd, &after));
	EXPECT_EQ(before, after);
	ASSERT_EQ(0, events_enable());
	close(fd);
}

/*
 * The child's DISABLE stops its own event, not ours on the child: the
 * faults the child makes next count in ours only.
 */
TEST(child_disable_leaves_ours)
{
	struct gated_child c;
	__u64 before, after;
	int fd;

	fd = fork_watched(_metadata, &c, true);
	ASSERT_EQ(0, read_value(fd, &before));

	ASSERT_EQ(0, gate_release(&c));
	reap(_metadata, &c);

	ASSERT_EQ(0, read_value(fd, &after));
	EXPECT_LE(before + TOUCH_PAGES, after);
	close(fd);
}

TEST_HARNESS_MAIN
