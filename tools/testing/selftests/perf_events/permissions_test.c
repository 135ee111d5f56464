// SPDX-License-Identifier: GPL-2.0
/*
 * Who may open an event on another task.
 *
 * Without CAP_PERFMON (or CAP_SYS_ADMIN), 6.1 asks ptrace_may_access()
 * with PTRACE_MODE_READ_REALCREDS: the target must have the caller's uid
 * and gid (real, effective and saved) and be dumpable, otherwise the open
 * fails with EACCES.  A task that has just dropped its privileges is not
 * dumpable (fs.suid_dumpable is 0), and neither are its children until
 * one of them says otherwise with prctl(PR_SET_DUMPABLE, 1); so a task of
 * the same uid may be monitored only once it is dumpable.  The check is
 * made at open only, and after the others of the target and the group.
 * With CAP_PERFMON or CAP_SYS_ADMIN any task may be monitored, without
 * CAP_SYS_PTRACE too (perf_check_permission()).
 *
 * The unprivileged openers are helper processes that drop to uid and gid
 * NOBODY; they ask for user-space counting only (exclude_kernel), which
 * perf_event_paranoid 2 allows.  The targets are forked children held at
 * a gate, siblings of the helpers, that touch TOUCH_PAGES fresh pages
 * once released: an event that opened must count them.
 */
#define _GNU_SOURCE
#include <sys/prctl.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

/* Written for levels up to 2: Debian's 3 would refuse every open below. */
static void __attribute__((constructor)) paranoid_lowered(void)
{
	paranoid_at_most_2();
}

#define OPEN_TIMEOUT_MS	5000

/* Stay root, but without CAP_SYS_PTRACE. */
static int drop_cap_sys_ptrace(void)
{
	return drop_capability(CAP_SYS_PTRACE);
}

/* The targets' preparations, run before their gates. */
static int root_undumpable(void)
{
	return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/* Left undumpable by the change of credentials. */
static int nobody_undumpable(void)
{
	if (become_nobody())
		return -1;
	return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : -1;
}

static int nobody_dumpable(void)
{
	if (nobody_undumpable())
		return -1;
	return prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* Made dumpable, then undumpable again. */
static int nobody_prctl_undumpable(void)
{
	if (nobody_dumpable())
		return -1;
	return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

static void exclude_kernel_attr(struct perf_event_attr *attr)
{
	sw_attr_init(attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/*
 * Open the event on @pid from a helper prepared by @opener (NULL: from
 * this root process).  Returns the fd or -errno.
 */
static int open_as(int (*opener)(void), pid_t pid)
{
	struct perf_event_attr attr;
	int fd;

	exclude_kernel_attr(&attr);
	if (opener)
		return perf_event_open_helper(&attr, pid, -1, -1, 0,
					      OPEN_TIMEOUT_MS, opener);
	fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
	return fd < 0 ? -errno : fd;
}

/* The target's work once released: fault pages in, then exit. */
static void target_work(bool undump)
{
	if (undump && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		_exit(3);
	if (fault_fresh_pages(TOUCH_PAGES))
		_exit(4);
	_exit(0);
}

FIXTURE(target) {
	struct gated_child t;
};

FIXTURE_VARIANT(target) {
	int (*target)(void);	/* the target's preparation */
	int (*opener)(void);	/* the helper's, NULL for ourselves */
	int err;		/* the errno of the open, or 0 */
	bool undump;		/* the target goes undumpable after the open */
};

FIXTURE_VARIANT_ADD(target, nobody_on_root) {
	.target = NULL,
	.opener = become_nobody,
	.err = EACCES,
};

FIXTURE_VARIANT_ADD(target, nobody_on_undumpable_root) {
	.target = root_undumpable,
	.opener = become_nobody,
	.err = EACCES,
};

FIXTURE_VARIANT_ADD(target, nobody_on_dumpable_nobody) {
	.target = nobody_dumpable,
	.opener = become_nobody,
	.err = 0,
};

FIXTURE_VARIANT_ADD(target, nobody_on_nobody_after_setuid) {
	.target = nobody_undumpable,
	.opener = become_nobody,
	.err = EACCES,
};

FIXTURE_VARIANT_ADD(target, nobody_on_prctl_undumpable_nobody) {
	.target = nobody_prctl_undumpable,
	.opener = become_nobody,
	.err = EACCES,
};

/* Checked at open only: going undumpable later changes nothing. */
FIXTURE_VARIANT_ADD(target, nobody_on_nobody_undumped_later) {
	.target = nobody_dumpable,
	.opener = become_nobody,
	.err = 0,
	.undump = true,
};

FIXTURE_VARIANT_ADD(target, root_on_undumpable_nobody) {
	.target = nobody_undumpable,
	.opener = NULL,
	.err = 0,
};

FIXTURE_VARIANT_ADD(target, root_on_undumpable_root) {
	.target = root_undumpable,
	.opener = NULL,
	.err = 0,
};

FIXTURE_VARIANT_ADD(target, noptrace_root_on_undumpable_nobody) {
	.target = nobody_undumpable,
	.opener = drop_cap_sys_ptrace,
	.err = 0,
};

FIXTURE_VARIANT_ADD(target, noptrace_root_on_undumpable_root) {
	.target = root_undumpable,
	.opener = drop_cap_sys_ptrace,
	.err = 0,
};

FIXTURE_SETUP(target)
{
	ASSERT_LE(0, fork_gated(&self->t, variant->target));
	if (self->t.pid == 0)
		target_work(variant->undump);
}

FIXTURE_TEARDOWN(target)
{
	if (self->t.pid > 0)
		gated_wait(&self->t);
}

TEST_F(target, open)
{
	__u64 value;
	int fd, status;

	fd = open_as(variant->opener, self->t.pid);
	ASSERT_NE(-ECANCELED, fd) {
		TH_LOG("the opener could not drop its privileges");
	}
	ASSERT_NE(-ETIMEDOUT, fd);
	if (variant->err) {
		EXPECT_EQ(-variant->err, fd);
		if (fd >= 0)
			close(fd);
		return;
	}
	ASSERT_LE(0, fd) {
		TH_LOG("open: %s", strerror(-fd));
	}

	ASSERT_EQ(0, gate_release(&self->t));
	status = gated_wait(&self->t);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, read_value(fd, &value));
	EXPECT_LE(TOUCH_PAGES, value);
	close(fd);
}

/*
 * The helper, unprivileged, on its parent (this root process), on init,
 * and on itself.
 */
TEST(nobody_on_parent_and_self)
{
	int fd;

	EXPECT_EQ(-EACCES, open_as(become_nobody, getpid()));
	EXPECT_EQ(-EACCES, open_as(become_nobody, 1));

	fd = open_as(become_nobody, 0);
	ASSERT_LE(0, fd) {
		TH_LOG("open: %s", strerror(-fd));
	}
	close(fd);
}

/*
 * The right to watch the task is checked last: a task that has exited
 * is ESRCH before, and a group_fd that leads no group is EINVAL before.
 */
TEST(checked_after_target_and_group)
{
	struct perf_event_attr attr;
	siginfo_t info;
	int status, err;
	pid_t zombie, pid;

	zombie = fork();
	ASSERT_LE(0, zombie);
	if (zombie == 0)
		_exit(0);
	/* Wait for it to exit, but leave it unreaped. */
	ASSERT_EQ(0, waitid(P_PID, zombie, &info, WEXITED | WNOWAIT));
	EXPECT_EQ(-ESRCH, open_as(become_nobody, zombie));
	ASSERT_EQ(zombie, waitpid(zombie, &status, 0));

	/* As nobody: a group on itself, then a member's fd on us. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int leader, member;

		if (become_nobody())
			_exit(100);
		exclude_kernel_attr(&attr);
		leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
		member = sys_perf_event_open(&attr, 0, -1, leader, 0);
		if (leader < 0 || member < 0)
			_exit(101);
		err = sys_perf_event_open(&attr, getppid(), -1, member, 0);
		_exit(err >= 0 ? 0 : errno);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(EINVAL, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
