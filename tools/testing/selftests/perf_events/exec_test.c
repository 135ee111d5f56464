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

/* The attr bits exec_attr() sets. */
enum {
	EV_DISABLED		= 0x1,
	EV_ENABLE_ON_EXEC	= 0x2,	/* and disabled until then */
	EV_REMOVE_ON_EXEC	= 0x4,
	EV_SIGTRAP		= 0x8,
};

static void exec_attr(struct perf_event_attr *attr, __u64 config,
		      unsigned int flags)
{
	sw_attr_init(attr, config);
	attr->disabled = !!(flags & (EV_DISABLED | EV_ENABLE_ON_EXEC));
	attr->enable_on_exec = !!(flags & EV_ENABLE_ON_EXEC);
	attr->remove_on_exec = !!(flags & EV_REMOVE_ON_EXEC);
	attr->sigtrap = !!(flags & EV_SIGTRAP);
}

/* Open a counter with RF_TIMES and @flags on @pid; it must open. */
static int open_on(struct __test_metadata *_metadata, pid_t pid,
		   __u64 config, unsigned int flags)
{
	struct perf_event_attr attr;
	int fd;

	exec_attr(&attr, config, flags);
	attr.read_format = RF_TIMES;
	fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
	ASSERT_LE(0, fd);
	return fd;
}

/* The counter has counted nothing and has never been enabled. */
static void check_off(struct __test_metadata *_metadata, int fd)
{
	struct value_times t;

	ASSERT_EQ(0, read_value_times(fd, &t));
	EXPECT_EQ(0, t.value);
	EXPECT_EQ(0, t.enabled);
	EXPECT_EQ(0, t.running);
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
	fd_pf = open_on(_metadata, self->c.pid, PERF_COUNT_SW_PAGE_FAULTS,
			EV_ENABLE_ON_EXEC);
	fd_clk = open_on(_metadata, self->c.pid, PERF_COUNT_SW_TASK_CLOCK,
			 EV_ENABLE_ON_EXEC);
	check_off(_metadata, fd_pf);
	check_off(_metadata, fd_clk);

	ASSERT_EQ(0, gated_run(&self->c));

	/* The 3 * TOUCH_PAGES faults before the exec are not counted. */
	ASSERT_EQ(0, read_value_times(fd_pf, &pf));
	EXPECT_TOUCH_FAULTS(pf.value, EXEC_SLACK);
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
	int fd;

	ASSERT_LT(0, fork_exec_child(&self->c, TOUCH_PAGES, TOUCH_PAGES));
	fd = open_on(_metadata, self->c.pid, PERF_COUNT_SW_PAGE_FAULTS,
		     EV_DISABLED);
	ASSERT_EQ(0, gated_run(&self->c));
	check_off(_metadata, fd);
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
	fd_removed = open_on(_metadata, self->c.pid, PERF_COUNT_SW_PAGE_FAULTS,
			     EV_REMOVE_ON_EXEC);
	fd_kept = open_on(_metadata, self->c.pid, PERF_COUNT_SW_PAGE_FAULTS, 0);

	ASSERT_EQ(0, gated_run(&self->c));

	ASSERT_EQ(0, read_value_times(fd_removed, &removed));
	EXPECT_TOUCH_FAULTS(removed.value, FAULT_SLACK);
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

/* Open a task-clock with @flags on the caller; 0 or errno. */
static int open_self_err(unsigned int flags)
{
	struct perf_event_attr attr;
	int fd;

	exec_attr(&attr, PERF_COUNT_SW_TASK_CLOCK, flags);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

TEST(flag_combinations)
{
	/* Each flag alone, and sigtrap with remove_on_exec, is fine ... */
	EXPECT_EQ(0, open_self_err(EV_ENABLE_ON_EXEC));
	EXPECT_EQ(0, open_self_err(EV_REMOVE_ON_EXEC));
	EXPECT_EQ(0, open_self_err(EV_REMOVE_ON_EXEC | EV_SIGTRAP));
	/* ... removing what exec is to enable is not ... */
	EXPECT_EQ(EINVAL,
		  open_self_err(EV_ENABLE_ON_EXEC | EV_REMOVE_ON_EXEC));
	/* ... nor a signal that could outlive the handler (exec resets it). */
	EXPECT_EQ(EINVAL, open_self_err(EV_SIGTRAP));
	EXPECT_EQ(EINVAL, open_self_err(EV_ENABLE_ON_EXEC | EV_SIGTRAP));
}

TEST_HARNESS_MAIN
