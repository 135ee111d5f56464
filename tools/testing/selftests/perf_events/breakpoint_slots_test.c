// SPDX-License-Identifier: GPL-2.0
/*
 * Breakpoints share the four debug registers of x86 CPUs.
 *
 * Every breakpoint event holds a register from open to close, enabled
 * or not.  A task may have four; tasks do not share theirs, since only
 * one runs on a CPU at a time.  A CPU-wide breakpoint on a CPU takes a
 * register from every task that may run there: on each CPU, its
 * CPU-wide breakpoints plus the most breakpoints any one task may bring
 * must not exceed four.  The breakpoint that does not fit is refused
 * with ENOSPC when it is opened; that is checked before the rest of its
 * settings, save a bp_type of nothing at all.
 *
 * The tasks are the test itself and children waiting at a gate.
 */
#define _GNU_SOURCE
#include "perf_test_util.h"
#include "breakpoint.h"
#include "../kselftest_harness.h"

#define SLOTS		4
#define MAX_FDS		32

static struct bp_word words[SLOTS + 1];

/* The breakpoints a test opened, closed at its end. */
struct bp_fds {
	int fd[MAX_FDS];
	int nr;
};

FIXTURE(slots) {
	struct bp_fds fds;
	struct gated_child child[2];
	int cpus[2];
	int nr_cpus;
};

FIXTURE_SETUP(slots)
{
	int i;

	self->fds.nr = 0;
	self->nr_cpus = allowed_cpus(self->cpus, 2);
	ASSERT_LE(1, self->nr_cpus);
	for (i = 0; i < 2; i++) {
		ASSERT_LE(0, fork_gated(&self->child[i], NULL));
		if (self->child[i].pid == 0)
			_exit(0);
	}
}

FIXTURE_TEARDOWN(slots)
{
	int i;

	for (i = 0; i < self->fds.nr; i++) {
		if (self->fds.fd[i] >= 0)
			close(self->fds.fd[i]);
	}
	/* Each child holds the other's gate open: release them. */
	for (i = 0; i < 2; i++) {
		gate_release(&self->child[i]);
		gated_wait(&self->child[i]);
	}
}

/* Keep @fd open until the end of the test; its index, or -1. */
static int keep_fd(struct bp_fds *fds, int fd)
{
	if (fds->nr == MAX_FDS) {
		close(fd);
		return -1;
	}
	fds->fd[fds->nr] = fd;
	return fds->nr++;
}

/*
 * Open a write breakpoint on word @n for @pid on @cpu, and keep it:
 * returns 0 or the errno (-1 if the test keeps too many), and the
 * descriptor's index in *@id.
 */
static int open_bp(struct bp_fds *fds, pid_t pid, int cpu, int n, int *id)
{
	int fd, kept;

	fd = bp_open(&words[n], 8, HW_BREAKPOINT_W, pid, cpu);
	if (fd < 0)
		return errno;
	kept = keep_fd(fds, fd);
	if (id)
		*id = kept;
	return kept < 0 ? -1 : 0;
}

static void close_bp(struct bp_fds *fds, int id)
{
	close(fds->fd[id]);
	fds->fd[id] = -1;
}

/* Open @nr breakpoints that must fit. */
#define OPEN_OK(pid, cpu, nr) do {					\
	int __i, __nr = (nr);						\
	for (__i = 0; __i < __nr; __i++) {				\
		ASSERT_EQ(0, open_bp(&self->fds, pid, cpu, __i, NULL))	\
			TH_LOG("breakpoint %d of %d", __i + 1, __nr);	\
	}								\
} while (0)

#define OPEN_ERR(err, pid, cpu) \
	EXPECT_EQ(err, open_bp(&self->fds, pid, cpu, SLOTS, NULL))

#define A	(self->child[0].pid)
#define B	(self->child[1].pid)
#define CPU0	(self->cpus[0])
#define CPU1	(self->cpus[1])

TEST_F(slots, per_task)
{
	int last;

	OPEN_OK(0, -1, SLOTS - 1);
	ASSERT_EQ(0, open_bp(&self->fds, 0, -1, SLOTS - 1, &last));
	OPEN_ERR(ENOSPC, 0, -1);
	OPEN_ERR(ENOSPC, 0, CPU0);

	/* Closed, its register is free again, once. */
	close_bp(&self->fds, last);
	OPEN_ERR(0, 0, -1);
	OPEN_ERR(ENOSPC, 0, -1);
}

/* Disabled breakpoints hold their registers too. */
TEST_F(slots, disabled)
{
	struct perf_event_attr attr;
	int i, fd;

	for (i = 0; i < SLOTS; i++) {
		bp_attr_init(&attr, &words[i], 8, HW_BREAKPOINT_RW);
		attr.disabled = 1;
		fd = sys_perf_event_open(&attr, A, -1, -1, 0);
		ASSERT_LE(0, keep_fd(&self->fds, fd));
	}
	OPEN_ERR(ENOSPC, A, -1);
}

/* Every task has all four. */
TEST_F(slots, tasks_apart)
{
	OPEN_OK(A, -1, SLOTS);
	OPEN_OK(B, -1, SLOTS);
	OPEN_OK(0, -1, SLOTS);
	OPEN_ERR(ENOSPC, A, -1);
	OPEN_ERR(ENOSPC, B, -1);
}

/* A CPU-wide breakpoint takes a register from every task. */
TEST_F(slots, cpu_and_task)
{
	int wide;

	OPEN_OK(A, -1, SLOTS - 1);
	ASSERT_EQ(0, open_bp(&self->fds, -1, CPU0, 0, &wide));
	OPEN_ERR(ENOSPC, -1, CPU0);
	OPEN_ERR(ENOSPC, A, -1);
	OPEN_OK(B, -1, SLOTS - 1);
	OPEN_ERR(ENOSPC, B, -1);

	close_bp(&self->fds, wide);
	OPEN_ERR(0, A, -1);
	OPEN_ERR(ENOSPC, -1, CPU0);
}

/* The CPU keeps room for the biggest task, not for all of them. */
TEST_F(slots, biggest_task)
{
	OPEN_OK(A, -1, SLOTS / 2);
	OPEN_OK(B, -1, SLOTS / 2);
	OPEN_OK(-1, CPU0, SLOTS / 2);
	OPEN_ERR(ENOSPC, -1, CPU0);
}

/* CPU-wide breakpoints fill their CPU. */
TEST_F(slots, cpu_full)
{
	OPEN_OK(-1, CPU0, SLOTS);
	OPEN_ERR(ENOSPC, -1, CPU0);
	OPEN_ERR(ENOSPC, 0, -1);
	OPEN_ERR(ENOSPC, A, CPU0);
	if (self->nr_cpus < 2)
		return;
	/* Not the others. */
	OPEN_OK(A, CPU1, SLOTS);
	OPEN_ERR(ENOSPC, A, CPU1);
}

/* A task's breakpoints bound to one CPU count on that CPU only. */
TEST_F(slots, task_bound_to_cpu)
{
	if (self->nr_cpus < 2)
		SKIP(return, "needs two CPUs");

	OPEN_OK(A, CPU1, SLOTS);
	OPEN_ERR(ENOSPC, A, CPU1);
	OPEN_ERR(ENOSPC, A, -1);
	OPEN_ERR(ENOSPC, -1, CPU1);
	OPEN_OK(-1, CPU0, SLOTS);
	OPEN_ERR(ENOSPC, -1, CPU0);
}

/* No room is checked before the other settings, save an empty type. */
TEST_F(slots, enospc_first)
{
	struct perf_event_attr attr;

	OPEN_OK(0, -1, SLOTS);
	bp_attr_init(&attr, &words[0], 3, HW_BREAKPOINT_W);
	EXPECT_EQ(ENOSPC, bp_open_errno(&attr, 0, -1));
	bp_attr_init(&attr, (char *)&words[0] + 4, 8, HW_BREAKPOINT_W);
	EXPECT_EQ(ENOSPC, bp_open_errno(&attr, 0, -1));
	bp_attr_init(&attr, &words[0], 8, HW_BREAKPOINT_R);
	EXPECT_EQ(ENOSPC, bp_open_errno(&attr, 0, -1));
	bp_attr_init(&attr, NULL, 8, HW_BREAKPOINT_W);
	attr.bp_addr = KERNEL_ADDR;
	EXPECT_EQ(ENOSPC, bp_open_errno(&attr, 0, -1));
	bp_attr_init(&attr, &words[0], 8, HW_BREAKPOINT_EMPTY);
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
	bp_attr_init(&attr, &words[0], 8, HW_BREAKPOINT_INVALID);
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
}

/* A task with all four forks: the child has its own four. */
TEST_F(slots, inherit)
{
	struct perf_event_attr attr;
	int i, fd, status;
	pid_t pid;

	for (i = 0; i < SLOTS; i++) {
		bp_attr_init(&attr, &words[i], 8, HW_BREAKPOINT_W);
		attr.inherit = 1;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, keep_fd(&self->fds, fd));
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		for (i = 0; i < SLOTS; i++)
			bp_write(&words[i], i + 1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (i = 0; i < SLOTS; i++)
		EXPECT_EQ(i + 1, bp_count(self->fds.fd[i]));
}

TEST_HARNESS_MAIN
