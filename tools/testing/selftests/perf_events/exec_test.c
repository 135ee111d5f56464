// SPDX-License-Identifier: GPL-2.0
/*
 * attr.enable_on_exec and attr.remove_on_exec.
 *
 * The target is a forked child held at a gate while the counters are
 * opened on it; once released it touches some fresh pages, then executes
 * this program again with WORKLOAD_ARG, which touches more pages and exits.
 *
 * An event opened disabled with enable_on_exec stays off (count and
 * time_enabled 0) until the exec, then counts the new program only.
 * Without enable_on_exec a disabled event stays off across the exec.  An
 * event with remove_on_exec counts up to the exec and keeps that count,
 * readable after the child has gone, but nothing of the new program.
 * remove_on_exec with enable_on_exec, and sigtrap without remove_on_exec,
 * are EINVAL.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

#define WORKLOAD_ARG	"--exec-test-workload"

/*
 * Faults the exec'd program may take besides its workload: loading and
 * starting a static binary, about 30.
 */
#define EXEC_SLACK	(2 * FAULT_SLACK)

/* The exec'd program: "exec_test --exec-test-workload N" touches N pages. */
static void __attribute__((constructor)) workload(int argc, char **argv)
{
	if (argc != 3 || strcmp(argv[1], WORKLOAD_ARG))
		return;
	if (fault_fresh_pages(atol(argv[2])))
		_exit(3);
	_exit(0);
}

/*
 * Fork a child that, once released, touches @before fresh pages, then
 * executes the workload touching @after.  Returns its pid or -1.
 */
static pid_t fork_exec_child(struct gated_child *c, size_t before,
			     size_t after)
{
	char arg[32];
	pid_t pid;

	pid = fork_gated(c, NULL);
	if (pid)
		return pid;

	if (fault_fresh_pages(before))
		_exit(4);
	snprintf(arg, sizeof(arg), "%zu", after);
	execl("/proc/self/exe", "exec_test", WORKLOAD_ARG, arg, (char *)NULL);
	_exit(5);
}

/* Release the child and check it ran the workload to the end. */
static void run_exec_child(struct __test_metadata *_metadata,
			   struct gated_child *c)
{
	int status;

	ASSERT_EQ(0, gate_release(c));
	status = gated_wait(c);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

static int open_on(pid_t pid, __u64 config, bool disabled,
		   bool enable_on_exec, bool remove_on_exec)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, config);
	attr.read_format = RF_TIMES;
	attr.disabled = disabled;
	attr.enable_on_exec = enable_on_exec;
	attr.remove_on_exec = remove_on_exec;
	return sys_perf_event_open(&attr, pid, -1, -1, 0);
}

FIXTURE(child) {
	struct gated_child c;
};

FIXTURE_SETUP(child)
{
	self->c.pid = -1;
	self->c.gate = -1;
}

FIXTURE_TEARDOWN(child)
{
	if (self->c.pid > 0)
		gated_wait(&self->c);
}

/* Off until the exec, then counting the new program only. */
TEST_F(child, enable_on_exec)
{
	struct value_times pf, clk;
	int fd_pf, fd_clk;

	ASSERT_LT(0, fork_exec_child(&self->c, 3 * TOUCH_PAGES, TOUCH_PAGES));
	fd_pf = open_on(self->c.pid, PERF_COUNT_SW_PAGE_FAULTS,
			true, true, false);
	ASSERT_LE(0, fd_pf);
	fd_clk = open_on(self->c.pid, PERF_COUNT_SW_TASK_CLOCK,
			 true, true, false);
	ASSERT_LE(0, fd_clk);

	ASSERT_EQ(0, read_value_times(fd_pf, &pf));
	EXPECT_EQ(0, pf.value);
	EXPECT_EQ(0, pf.enabled);
	EXPECT_EQ(0, pf.running);
	ASSERT_EQ(0, read_value_times(fd_clk, &clk));
	EXPECT_EQ(0, clk.value);
	EXPECT_EQ(0, clk.enabled);
	EXPECT_EQ(0, clk.running);

	run_exec_child(_metadata, &self->c);

	/* The 3 * TOUCH_PAGES faults before the exec are not counted. */
	ASSERT_EQ(0, read_value_times(fd_pf, &pf));
	EXPECT_LE(TOUCH_PAGES, pf.value);
	EXPECT_GT(TOUCH_PAGES + EXEC_SLACK, pf.value);
	EXPECT_LT(0, pf.enabled);
	EXPECT_LT(0, pf.running);
	ASSERT_EQ(0, read_value_times(fd_clk, &clk));
	EXPECT_LT(0, clk.value);
	EXPECT_LT(0, clk.enabled);
	EXPECT_LT(0, clk.running);

	close(fd_pf);
	close(fd_clk);
}

/* Disabled without enable_on_exec: still off after the exec. */
TEST_F(child, disabled_stays_off)
{
	struct value_times pf;
	int fd;

	ASSERT_LT(0, fork_exec_child(&self->c, TOUCH_PAGES, TOUCH_PAGES));
	fd = open_on(self->c.pid, PERF_COUNT_SW_PAGE_FAULTS,
		     true, false, false);
	ASSERT_LE(0, fd);

	run_exec_child(_metadata, &self->c);

	ASSERT_EQ(0, read_value_times(fd, &pf));
	EXPECT_EQ(0, pf.value);
	EXPECT_EQ(0, pf.enabled);
	EXPECT_EQ(0, pf.running);
	close(fd);
}

/*
 * remove_on_exec: the faults before the exec are counted and kept, the
 * 3 * TOUCH_PAGES of the new program are not.  A plain event beside it
 * sees both.
 */
TEST_F(child, remove_on_exec)
{
	struct value_times removed, kept;
	int fd_removed, fd_kept;

	ASSERT_LT(0, fork_exec_child(&self->c, TOUCH_PAGES, 3 * TOUCH_PAGES));
	fd_removed = open_on(self->c.pid, PERF_COUNT_SW_PAGE_FAULTS,
			     false, false, true);
	ASSERT_LE(0, fd_removed);
	fd_kept = open_on(self->c.pid, PERF_COUNT_SW_PAGE_FAULTS,
			  false, false, false);
	ASSERT_LE(0, fd_kept);

	run_exec_child(_metadata, &self->c);

	ASSERT_EQ(0, read_value_times(fd_removed, &removed));
	EXPECT_LE(TOUCH_PAGES, removed.value);
	EXPECT_GT(TOUCH_PAGES + FAULT_SLACK, removed.value);
	EXPECT_LT(0, removed.enabled);
	ASSERT_EQ(0, read_value_times(fd_kept, &kept));
	EXPECT_LE(4 * TOUCH_PAGES, kept.value);

	/* The count is final: reading again gives the same. */
	ASSERT_EQ(0, read_value_times(fd_removed, &kept));
	EXPECT_EQ(removed.value, kept.value);
	EXPECT_EQ(removed.enabled, kept.enabled);

	close(fd_removed);
	close(fd_kept);
}

/* Open an event on the caller with the given flags; 0 or errno. */
static int open_self_err(bool enable_on_exec, bool remove_on_exec,
			 bool sigtrap)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = enable_on_exec;
	attr.enable_on_exec = enable_on_exec;
	attr.remove_on_exec = remove_on_exec;
	attr.sigtrap = sigtrap;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

TEST(flag_combinations)
{
	/* Each flag alone, and sigtrap with remove_on_exec, is fine ... */
	EXPECT_EQ(0, open_self_err(true, false, false));
	EXPECT_EQ(0, open_self_err(false, true, false));
	EXPECT_EQ(0, open_self_err(false, true, true));
	/* ... removing what exec is to enable is not ... */
	EXPECT_EQ(EINVAL, open_self_err(true, true, false));
	/* ... nor a signal that could outlive the handler (exec resets it). */
	EXPECT_EQ(EINVAL, open_self_err(false, false, true));
	EXPECT_EQ(EINVAL, open_self_err(true, false, true));
}

TEST_HARNESS_MAIN
