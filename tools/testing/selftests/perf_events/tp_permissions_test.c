// SPDX-License-Identifier: GPL-2.0
/*
 * Who may open tracepoint events, as in Linux 6.1:
 *  - the general rules first: counting in the kernel needs
 *    perf_event_paranoid <= 1 (so an unprivileged user at level 2 must
 *    set exclude_kernel, which still counts syscall tracepoints: their
 *    registers are the user's), a CPU-wide event level <= 0;
 *  - raw records (PERF_SAMPLE_RAW) need level -1 or CAP_PERFMON, except
 *    for trace events any user may read (the syscall tracepoints) on a
 *    task; other samples only follow the general rules;
 *  - some trace events refuse sampling outright (irq_vectors:irq_work_exit);
 *  - copies of an event made at fork are not checked again: a root's raw
 *    event follows an unprivileged task's children.
 * The unprivileged openers are children that drop to uid and gid NOBODY
 * and open events on themselves or on a CPU.
 */
#define _GNU_SOURCE
#include "perf_test_util.h"
#include "tp_test_util.h"
#include "../kselftest_harness.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define NR_CALLS	50
#define BIG_PERIOD	1000000000ULL

enum tp_target { SELF, CPU_WIDE };

struct tp_open_case {
	const char *sys, *name;
	bool raw;		/* sample with PERF_SAMPLE_RAW */
	bool sample_ip;		/* sample with PERF_SAMPLE_IP only */
	bool exclude_kernel;
	enum tp_target target;
};

/*
 * Open the event of @c as uid @uid (0: stay root); if it opens on the
 * opener and counts, check that it counts the opener's getpid() calls.
 * Returns 0, the errno of the open, or 255 on another failure.
 */
static int open_as(uid_t uid, const struct tp_open_case *c)
{
	struct perf_event_attr attr;
	int id, status, fd;
	__u64 value;
	pid_t pid;

	id = tp_id(c->sys, c->name);
	if (id < 0)
		return 255;
	tp_attr_init(&attr, id);
	attr.exclude_kernel = c->exclude_kernel;
	if (c->raw || c->sample_ip) {
		attr.sample_period = BIG_PERIOD;
		attr.sample_type = c->raw ? PERF_SAMPLE_RAW : PERF_SAMPLE_IP;
	}

	pid = fork();
	if (pid < 0)
		return 255;
	if (pid == 0) {
		if (uid && drop_privileges(uid))
			_exit(255);
		if (c->target == SELF)
			fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		else
			fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
		if (fd < 0)
			_exit(errno);
		if (c->target == SELF) {
			do_getpid(NR_CALLS);
			if (read_value(fd, &value) ||
			    (!strcmp(c->name, "sys_enter_getpid") &&
			     value != NR_CALLS))
				_exit(255);
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

FIXTURE(tp_perm) {
	int saved;
};

FIXTURE_VARIANT(tp_perm) {
	int level;
	uid_t uid;
	struct tp_open_case c;
	int err;
};

FIXTURE_VARIANT_ADD(tp_perm, kernel_counting_at_2) {
	.level = 2, .uid = NOBODY,
	.c = { "syscalls", "sys_enter_getpid", .target = SELF },
	.err = EACCES,
};

FIXTURE_VARIANT_ADD(tp_perm, user_counting_at_2) {
	.level = 2, .uid = NOBODY,
	.c = { "syscalls", "sys_enter_getpid", .exclude_kernel = true,
	       .target = SELF },
	.err = 0,
};

FIXTURE_VARIANT_ADD(tp_perm, kernel_counting_at_1) {
	.level = 1, .uid = NOBODY,
	.c = { "syscalls", "sys_enter_getpid", .target = SELF },
	.err = 0,
};

FIXTURE_VARIANT_ADD(tp_perm, cpu_counting_at_1) {
	.level = 1, .uid = NOBODY,
	.c = { "syscalls", "sys_enter_getpid", .target = CPU_WIDE },
	.err = EACCES,
};

FIXTURE_VARIANT_ADD(tp_perm, cpu_counting_at_0) {
	.level = 0, .uid = NOBODY,
	.c = { "syscalls", "sys_enter_getpid", .target = CPU_WIDE },
	.err = 0,
};

FIXTURE_VARIANT_ADD(tp_perm, raw_sched_at_1) {
	.level = 1, .uid = NOBODY,
	.c = { "sched", "sched_switch", .raw = true, .target = SELF },
	.err = EPERM,
};

FIXTURE_VARIANT_ADD(tp_perm, raw_sched_at_0) {
	.level = 0, .uid = NOBODY,
	.c = { "sched", "sched_switch", .raw = true, .target = SELF },
	.err = EPERM,
};

FIXTURE_VARIANT_ADD(tp_perm, ip_samples_sched_at_1) {
	.level = 1, .uid = NOBODY,
	.c = { "sched", "sched_switch", .sample_ip = true, .target = SELF },
	.err = 0,
};

FIXTURE_VARIANT_ADD(tp_perm, raw_syscall_task_at_1) {
	.level = 1, .uid = NOBODY,
	.c = { "syscalls", "sys_enter_getpid", .raw = true, .target = SELF },
	.err = 0,
};

FIXTURE_VARIANT_ADD(tp_perm, raw_syscall_cpu_at_0) {
	.level = 0, .uid = NOBODY,
	.c = { "syscalls", "sys_enter_getpid", .raw = true,
	       .target = CPU_WIDE },
	.err = EPERM,
};

FIXTURE_VARIANT_ADD(tp_perm, raw_sched_at_minus_1) {
	.level = -1, .uid = NOBODY,
	.c = { "sched", "sched_switch", .raw = true, .target = SELF },
	.err = 0,
};

FIXTURE_VARIANT_ADD(tp_perm, raw_sched_cpu_at_minus_1) {
	.level = -1, .uid = NOBODY,
	.c = { "sched", "sched_switch", .raw = true, .target = CPU_WIDE },
	.err = 0,
};

FIXTURE_VARIANT_ADD(tp_perm, root_raw_sched_cpu_at_2) {
	.level = 2, .uid = 0,
	.c = { "sched", "sched_switch", .raw = true, .target = CPU_WIDE },
	.err = 0,
};

FIXTURE_VARIANT_ADD(tp_perm, root_samples_irq_work_exit) {
	.level = 2, .uid = 0,
	.c = { "irq_vectors", "irq_work_exit", .sample_ip = true,
	       .target = SELF },
	.err = EPERM,
};

FIXTURE_VARIANT_ADD(tp_perm, root_counts_irq_work_exit) {
	.level = 2, .uid = 0,
	.c = { "irq_vectors", "irq_work_exit", .target = SELF },
	.err = 0,
};

/* Only save the level: the harness skips the teardown after a failed setup. */
FIXTURE_SETUP(tp_perm)
{
	ASSERT_EQ(0, read_int_file(PARANOID, &self->saved));
}

FIXTURE_TEARDOWN(tp_perm)
{
	EXPECT_EQ(0, write_int_file(PARANOID, self->saved));
}

TEST_F(tp_perm, open)
{
	ASSERT_LE(0, tp_id(variant->c.sys, variant->c.name));
	ASSERT_EQ(0, write_int_file(PARANOID, variant->level));
	EXPECT_EQ(variant->err, open_as(variant->uid, &variant->c)) {
		TH_LOG("%s:%s at level %d", variant->c.sys, variant->c.name,
		       variant->level);
	}
}

/*
 * Root samples raw sched_switch records of an unprivileged task, with
 * inherit: the task's forks get copies without a check of their own, so
 * they succeed, and their switches count.
 */
TEST(raw_event_follows_unprivileged_forks)
{
	struct perf_event_attr attr;
	struct gated_child c;
	int fd, status, saved;
	__u64 value;

	ASSERT_EQ(0, read_int_file(PARANOID, &saved));
	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	tp_attr_init(&attr, tp_id("sched", "sched_switch"));
	attr.sample_period = BIG_PERIOD;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.inherit = 1;
	ASSERT_LE(0, fork_gated(&c, become_nobody));
	if (c.pid == 0) {
		int i;

		for (i = 0; i < 3; i++) {
			pid_t pid = fork();

			if (pid < 0)
				_exit(10 + errno);
			if (!pid) {
				switch_out(2);
				_exit(0);
			}
			waitpid(pid, NULL, 0);
		}
		_exit(0);
	}
	fd = sys_perf_event_open(&attr, c.pid, -1, -1, 0);
	EXPECT_LE(0, fd);
	ASSERT_EQ(0, gate_release(&c));
	status = gated_wait(&c);
	write_int_file(PARANOID, saved);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, read_value(fd, &value));
	EXPECT_LE(6, value);
	close(fd);
}

TEST_HARNESS_MAIN
