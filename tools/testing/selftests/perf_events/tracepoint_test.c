// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_TYPE_TRACEPOINT events count what they should: attr.config is the
 * id from tracefs (events/<system>/<name>/id); a syscall tracepoint counts
 * exactly the calls made while the event is enabled, by the task it
 * follows (and, with inherit, by its children); sched:sched_switch counts
 * the task's context switches, or a CPU's.  As in Linux 6.1, an event
 * that excludes the kernel still counts syscall tracepoints, whose
 * registers are the user's, but no scheduler tracepoint; and a record
 * about another task (a wakeup) counts in that task's events bound to
 * the CPU where it happens.  An id that names no trace event is EINVAL.
 */
#define _GNU_SOURCE
#include "perf_test_util.h"
#include "tp_test_util.h"
#include "../kselftest_harness.h"

#define NR_CALLS	100

/* An event on syscalls:sys_enter_getpid for this task; it must open. */
static int getpid_event(struct __test_metadata *_metadata, bool disabled)
{
	int fd = tp_open("syscalls", "sys_enter_getpid", 0, -1, disabled);

	ASSERT_LE(0, fd);
	return fd;
}

/* Enable @fd, run @nr getpid() calls, disable it and return its count. */
static __u64 count_getpid(int fd, int nr)
{
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	do_getpid(nr);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return count_of(fd);
}

TEST(sys_enter_counts_each_call)
{
	int fd = getpid_event(_metadata, true);

	EXPECT_EQ(NR_CALLS, count_getpid(fd, NR_CALLS));
	EXPECT_EQ(3 * NR_CALLS, count_getpid(fd, 3 * NR_CALLS));
	close(fd);
}

TEST(sys_exit_counts_each_call)
{
	int fd = tp_open("syscalls", "sys_exit_getpid", 0, -1, true);

	ASSERT_LE(0, fd);
	EXPECT_EQ(NR_CALLS, count_getpid(fd, NR_CALLS));
	close(fd);
}

/* Other system calls are not getpid(). */
TEST(other_syscalls_not_counted)
{
	int fd = getpid_event(_metadata, false);

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	do_getppid(NR_CALLS);
	EXPECT_EQ(0, count_of(fd));
	close(fd);
}

TEST(disabled_counts_nothing)
{
	int fd = getpid_event(_metadata, true);

	do_getpid(NR_CALLS);
	EXPECT_EQ(0, count_of(fd));
	close(fd);
}

/* Two events on one tracepoint both count; so does one opened after. */
TEST(several_events_one_tracepoint)
{
	int a, b, c;

	a = getpid_event(_metadata, false);
	b = getpid_event(_metadata, false);
	do_getpid(NR_CALLS);
	close(a);
	c = getpid_event(_metadata, false);
	do_getpid(NR_CALLS);
	EXPECT_EQ(2 * NR_CALLS, count_of(b));
	EXPECT_EQ(NR_CALLS, count_of(c));
	close(b);
	close(c);

	/* Everything closed: a new event starts the tracepoint again. */
	a = getpid_event(_metadata, false);
	do_getpid(NR_CALLS);
	EXPECT_EQ(NR_CALLS, count_of(a));
	close(a);
}

/* Every switch away from the task is one sched_switch record. */
TEST(sched_switch_counts_task_switches)
{
	int fd = tp_open("sched", "sched_switch", 0, -1, false);
	long before, after;
	__u64 value;

	ASSERT_LE(0, fd);
	before = thread_switches();
	switch_out(20);
	after = thread_switches();
	ASSERT_EQ(0, read_value(fd, &value));
	EXPECT_LE(20, after - before);
	EXPECT_LE(after - before, value);
	EXPECT_GE(after - before + 2, value);
	close(fd);
}

TEST(sched_switch_counts_cpu)
{
	int cpus[1], fd;
	__u64 value;

	ASSERT_EQ(1, allowed_cpus(cpus, 1));
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));
	fd = tp_open("sched", "sched_switch", -1, cpus[0], false);
	ASSERT_LE(0, fd);
	switch_out(10);
	ASSERT_EQ(0, read_value(fd, &value));
	EXPECT_LE(10, value);
	close(fd);
}

/*
 * exclude_kernel drops records made with kernel registers: a syscall
 * tracepoint has the user's registers and still counts; sched_switch
 * does not.
 */
TEST(exclude_kernel)
{
	struct perf_event_attr attr;
	int sys, sched;

	tp_attr_init(&attr, tp_id("syscalls", "sys_enter_getpid"));
	attr.exclude_kernel = 1;
	sys = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, sys);
	attr.config = tp_id("sched", "sched_switch");
	sched = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, sched);

	do_getpid(NR_CALLS);
	switch_out(5);
	EXPECT_EQ(NR_CALLS, count_of(sys));
	EXPECT_EQ(0, count_of(sched));
	close(sys);
	close(sched);
}

TEST(unknown_id_einval)
{
	static const __u64 bad[] = { 65535, ~0ULL, 1ULL << 32, };
	struct perf_event_attr attr;
	int id = tp_id("syscalls", "sys_enter_getpid");
	unsigned int i;

	ASSERT_LE(0, id);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		tp_attr_init(&attr, bad[i]);
		EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
		EXPECT_EQ(EINVAL, errno);
	}
	/* The id is compared whole, not its low bits. */
	tp_attr_init(&attr, (1ULL << 32) | id);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

static int child_work(void)
{
	int i;

	do_getpid(10);
	for (i = 0; i < 3; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid) {
			do_getpid(10);
			_exit(0);
		}
		if (waitpid(pid, NULL, 0) != pid)
			return 1;
	}
	return 0;
}

/* With inherit, the calls of the task's children count too. */
TEST(inherit_counts_children)
{
	struct perf_event_attr attr;
	struct gated_child c;
	int fd, status;

	tp_attr_init(&attr, tp_id("syscalls", "sys_enter_getpid"));
	attr.inherit = 1;
	ASSERT_LE(0, fork_gated(&c, NULL));
	if (c.pid == 0)
		_exit(child_work());
	fd = sys_perf_event_open(&attr, c.pid, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, gate_release(&c));
	status = gated_wait(&c);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(40, count_of(fd));
	close(fd);
}

/*
 * A wakeup names the task woken.  The task's events bound to the CPU of
 * the waker count it there, though the task does not run; an event for
 * any CPU counts only what happens while the task runs (the wakeups it
 * makes).  Parent and child take turns on one CPU; the parent wakes the
 * child NR_CALLS + 1 times, always once the child sleeps.
 */
TEST(wakeup_counts_in_woken_task)
{
	int cpus[1], on_cpu, any_cpu;
	__u64 v_cpu, v_any;
	struct wakee w;

	ASSERT_EQ(1, allowed_cpus(cpus, 1));
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));
	ASSERT_EQ(0, wakee_start(&w));
	on_cpu = tp_open("sched", "sched_waking", w.pid, cpus[0], false);
	any_cpu = tp_open("sched", "sched_waking", w.pid, -1, false);
	ASSERT_LE(0, on_cpu);
	ASSERT_LE(0, any_cpu);
	ASSERT_EQ(0, wakee_wake(&w, NR_CALLS));
	ASSERT_EQ(0, read_value(on_cpu, &v_cpu));
	ASSERT_EQ(0, read_value(any_cpu, &v_any));
	TH_LOG("bound to the CPU: %llu, any CPU: %llu", v_cpu, v_any);
	/* The child woke the parent at most once a turn. */
	EXPECT_GE(NR_CALLS, v_any);
	/* The parent woke the child every turn. */
	EXPECT_LE(v_any + NR_CALLS + 1, v_cpu);
	EXPECT_GE(v_any + NR_CALLS + 3, v_cpu);
	close(on_cpu);
	close(any_cpu);
}

TEST_HARNESS_MAIN
