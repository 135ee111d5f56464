// SPDX-License-Identifier: GPL-2.0
/*
 * Events on a task that exits.
 *
 * An event on a child that exits keeps its final count: read() works
 * after the child is gone, and keeps returning the same value.  poll()
 * reports POLLHUP once the child has exited, waking a poller that was
 * already waiting.  While the child lives, an event with a ring buffer
 * reports nothing, one without reports POLLHUP (as 6.1 does).  A task
 * that has exited but is not yet reaped (a zombie) can no longer be the
 * target of an event: ESRCH.  And opening an event on a task that once
 * had events of its own, all closed, works (and does not hang).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

/* How long poll() waits for POLLHUP, and how soon it must come. */
#define POLL_TIMEOUT_MS		5000
#define HUP_MAX_NS		(2000 * NSEC_PER_MSEC)
/* How long the child lives after its release: poll() is asleep by then. */
#define CHILD_DELAY_MS		200
/* How long an open may take before it counts as hung. */
#define OPEN_TIMEOUT_MS		5000

/* The child's work once released: TOUCH_PAGES faults, then exit. */
static void fault_and_exit(unsigned int delay_ms)
{
	sleep_ms(delay_ms);
	if (fault_fresh_pages(TOUCH_PAGES))
		_exit(3);
	_exit(0);
}

FIXTURE(child) {
	struct gated_child c;
};

FIXTURE_SETUP(child)
{
	ASSERT_LE(0, fork_gated(&self->c, NULL));
	if (self->c.pid == 0)
		fault_and_exit(CHILD_DELAY_MS);
}

FIXTURE_TEARDOWN(child)
{
	if (self->c.pid > 0)
		gated_wait(&self->c);
}

/* The count survives the task: read() after it is reaped. */
TEST_F(child, read_after_exit)
{
	struct value_times a, b;
	struct perf_event_attr attr;
	int fd;

	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = RF_TIMES;
	fd = sys_perf_event_open(&attr, self->c.pid, -1, -1, 0);
	ASSERT_LE(0, fd);

	/* Released and reaped: it must have done its work. */
	ASSERT_EQ(0, gated_run(&self->c));

	ASSERT_EQ(0, read_value_times(fd, &a));
	EXPECT_TOUCH_FAULTS(a.value, FAULT_SLACK);
	EXPECT_LT(0, a.enabled);
	EXPECT_LT(0, a.running);

	/* Final: nothing moves any more, not even the times. */
	sleep_ms(20);
	ASSERT_EQ(0, read_value_times(fd, &b));
	EXPECT_EQ(a.value, b.value);
	EXPECT_EQ(a.enabled, b.enabled);
	EXPECT_EQ(a.running, b.running);
	close(fd);
}

/* Poll @fd for up to @timeout_ms; returns revents, or -1 if poll() failed. */
static int poll_revents(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, timeout_ms) < 0 ? -1 : pfd.revents;
}

/*
 * Release the child and poll @fd: POLLHUP must come, within HUP_MAX_NS
 * (the child exits CHILD_DELAY_MS after its release), and stay once the
 * child is reaped.
 */
static void check_hup_on_exit(struct __test_metadata *_metadata,
			      struct gated_child *c, int fd)
{
	__u64 start, elapsed;
	int revents;

	start = clock_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, gate_release(c));
	revents = poll_revents(fd, POLL_TIMEOUT_MS);
	elapsed = clock_ns(CLOCK_MONOTONIC) - start;
	EXPECT_EQ(POLLHUP, revents);
	EXPECT_GT(HUP_MAX_NS, elapsed) {
		TH_LOG("POLLHUP after %llu ms", elapsed / NSEC_PER_MSEC);
	}

	ASSERT_LE(0, gated_wait(c));
	EXPECT_EQ(POLLHUP, poll_revents(fd, 0));
}

/* POLLHUP, promptly, when the task exits. */
TEST_F(child, poll_hup)
{
	int fd;

	fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, self->c.pid, -1);
	ASSERT_LE(0, fd);
	check_hup_on_exit(_metadata, &self->c, fd);
	close(fd);
}

/*
 * Without a ring buffer poll() has nothing to wait for: 6.1 reports
 * POLLHUP at once, even while the task lives (perf_poll() starts from
 * EPOLLHUP, and only a ring buffer replaces it).
 */
TEST_F(child, poll_without_buffer)
{
	int fd;

	fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, self->c.pid, -1);
	ASSERT_LE(0, fd);
	EXPECT_EQ(POLLHUP, poll_revents(fd, 0));
	close(fd);
}

/*
 * With a ring buffer (only the control page: a counting event writes
 * nothing to it), poll() reports nothing while the task lives, then wakes
 * up with POLLHUP when it exits.
 */
TEST_F(child, poll_buffer_hup)
{
	size_t len = getpagesize();
	void *page;
	int fd;

	fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, self->c.pid, -1);
	ASSERT_LE(0, fd);
	page = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED && errno == ENODEV) {
		close(fd);
		SKIP(return, "no ring buffers: mmap() of the event is ENODEV");
	}
	ASSERT_NE(MAP_FAILED, page);

	EXPECT_EQ(0, poll_revents(fd, 0));
	check_hup_on_exit(_metadata, &self->c, fd);
	munmap(page, len);
	close(fd);
}

/* Open an event on the caller and close it again; 0 or -1. */
static int open_close_own_event(void)
{
	int fd;

	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, 0, -1);
	if (fd < 0)
		return -1;
	return close(fd);
}

/*
 * The task had an event of its own, now closed, and has since been
 * scheduled out: an event opened on it from outside installs promptly
 * and counts.
 */
TEST(open_after_own_event_closed)
{
	struct perf_event_attr attr;
	struct gated_child c;
	__u64 value;
	int fd;

	ASSERT_LE(0, fork_gated(&c, open_close_own_event));
	if (c.pid == 0)
		fault_and_exit(0);

	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	fd = perf_event_open_timeout(&attr, c.pid, -1, -1, 0, OPEN_TIMEOUT_MS);
	if (fd < 0) {
		kill(c.pid, SIGKILL);
		gated_wait(&c);
	}
	ASSERT_LE(0, fd) {
		TH_LOG("open: %s", fd == -ETIMEDOUT ? "hung" : strerror(-fd));
	}

	ASSERT_EQ(0, gated_run(&c));

	ASSERT_EQ(0, read_value(fd, &value));
	EXPECT_TOUCH_FAULTS(value, FAULT_SLACK);
	close(fd);
}

/* Wait until @pid has exited, without reaping it. */
static int wait_zombie(pid_t pid)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	if (waitid(P_PID, pid, &info, WEXITED | WNOWAIT))
		return -1;
	return info.si_pid == pid && info.si_code == CLD_EXITED ? 0 : -1;
}

/* Open a task-clock on @pid; 0 or errno. */
static int open_err(pid_t pid, int cpu)
{
	int fd;

	fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, pid, cpu);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* A zombie that never had events. */
TEST(open_on_zombie)
{
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(0);
	ASSERT_EQ(0, wait_zombie(pid));

	/* Not reaped: the pid still names the task ... */
	EXPECT_EQ(0, kill(pid, 0));
	/* ... but it can no longer be monitored. */
	EXPECT_EQ(ESRCH, open_err(pid, -1));
	EXPECT_EQ(ESRCH, open_err(pid, 0));

	ASSERT_EQ(0, reap_status(pid));
	EXPECT_EQ(ESRCH, open_err(pid, -1));
}

/* A zombie whose events are still open: no new ones, the old ones read. */
TEST_F(child, open_on_zombie_with_events)
{
	__u64 a, b;
	int fd;

	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false,
			   self->c.pid, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, gate_release(&self->c));
	ASSERT_EQ(0, wait_zombie(self->c.pid));

	ASSERT_EQ(0, read_value(fd, &a));
	EXPECT_LE(TOUCH_PAGES, a);
	EXPECT_EQ(ESRCH, open_err(self->c.pid, -1));
	ASSERT_EQ(0, read_value(fd, &b));
	EXPECT_EQ(a, b);
	close(fd);
}

TEST_HARNESS_MAIN
