// SPDX-License-Identifier: GPL-2.0
/*
 * Events and CPU hotplug, through /sys/devices/system/cpu/cpu1/online.
 *
 * A CPU-wide cpu-clock on CPU 1 counts while the CPU is online.  When the
 * CPU goes offline, 6.1 takes its events out of the CPU's context for
 * good (perf_event_exit_cpu() -> __perf_event_exit_context() removes them
 * with their groups broken up, leaving them OFF): from then on count,
 * time_enabled and time_running stand still, and stay so when the CPU
 * comes back.  The events stay readable and can be closed.  A CPU-wide
 * event cannot be opened on an offline CPU (ENODEV), a task's event
 * bound to it can, and counts once the CPU is back and the task runs on
 * it.  A task's event bound to CPU 1 is not touched by the CPU going away
 * and coming back; a task's event bound to no CPU follows its task off
 * the dying CPU.
 *
 * The tests run on CPU 0 and skip without a second CPU or a writable
 * online file; the teardown brings CPU 1 back online whatever happened.
 * The kernel must not complain (the harness fails the run on a splat).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

#define CPU		1
#define ONLINE		"/sys/devices/system/cpu/cpu1/online"
/* How long the tests wait for a CPU-wide clock to move, or not. */
#define WAIT_MS		50
/* Offlining and onlining a CPU of an emulated guest can be slow. */
#define TIMEOUT_S	120

static int cpu_online_state(void)
{
	int online;

	return read_int_file(ONLINE, &online) ? -1 : online;
}

static int set_online(int online)
{
	if (write_int_file(ONLINE, online))
		return -1;
	return cpu_online_state() == online ? 0 : -1;
}

FIXTURE(hotplug) {
	const char *skip;	/* why the tests cannot run, or NULL */
	struct gated_child c;	/* a child some tests run, or pid 0 */
};

FIXTURE_SETUP(hotplug)
{
	if (sysconf(_SC_NPROCESSORS_CONF) < 2 || access(ONLINE, W_OK)) {
		self->skip = "no CPU 1, or it cannot be offlined";
		return;
	}
	/* Left offline by an earlier run that did not finish? */
	if (cpu_online_state() != 1 && set_online(1)) {
		self->skip = "CPU 1 is offline and cannot be onlined";
		return;
	}
	/* Stay off the CPU that goes away. */
	ASSERT_EQ(0, pin_to_cpu(0));
}

FIXTURE_TEARDOWN(hotplug)
{
	if (self->c.pid > 0) {
		kill(self->c.pid, SIGKILL);
		gated_wait(&self->c);
	}
	if (self->skip)
		return;
	EXPECT_EQ(0, set_online(1));
	EXPECT_EQ(1, cpu_online_state());
}

static int cpu_clock_open(int cpu)
{
	return sw_event_open(PERF_COUNT_SW_CPU_CLOCK, RF_TIMES, false, -1,
			     cpu);
}

/* Read @fd twice, WAIT_MS apart. */
static void read_across_wait(struct __test_metadata *_metadata, int fd,
			     struct value_times *a, struct value_times *b)
{
	ASSERT_EQ(0, read_value_times(fd, a));
	sleep_ms(WAIT_MS);
	ASSERT_EQ(0, read_value_times(fd, b));
}

static void expect_moving(struct __test_metadata *_metadata,
			  const struct value_times *a,
			  const struct value_times *b)
{
	EXPECT_LT(a->value, b->value);
	EXPECT_LT(a->enabled, b->enabled);
	EXPECT_LT(a->running, b->running);
	EXPECT_LE(b->running, b->enabled);
}

static void expect_still(struct __test_metadata *_metadata,
			 const struct value_times *a,
			 const struct value_times *b)
{
	EXPECT_EQ(a->value, b->value);
	EXPECT_EQ(a->enabled, b->enabled);
	EXPECT_EQ(a->running, b->running);
}

/*
 * A cpu-clock on CPU 1 runs while the CPU is online and stops with it.
 * When the CPU comes back, 6.1 leaves it off; ours resumes it.
 */
TEST_F_TIMEOUT(hotplug, cpu_wide_clock, TIMEOUT_S)
{
	struct value_times a, b, c, d;
	int fd, closed_offline;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = cpu_clock_open(CPU);
	ASSERT_LE(0, fd);
	closed_offline = cpu_clock_open(CPU);
	ASSERT_LE(0, closed_offline);

	read_across_wait(_metadata, fd, &a, &b);
	expect_moving(_metadata, &a, &b);

	ASSERT_EQ(0, set_online(0));
	read_across_wait(_metadata, fd, &c, &d);
	expect_still(_metadata, &c, &d);
	/* What it counted before the CPU went is kept. */
	EXPECT_LE(b.value, c.value);
	EXPECT_LE(b.enabled, c.enabled);
	EXPECT_LE(b.running, c.running);
	ASSERT_EQ(0, close(closed_offline));

	ASSERT_EQ(0, set_online(1));
	read_across_wait(_metadata, fd, &a, &b);
	/*
	 * 6.1 leaves the event off for good.  Our kernel starts it again
	 * where it stopped (a documented extension: events come back with
	 * their CPU).  Either way nothing counted is lost.
	 */
	EXPECT_LE(d.value, a.value);
	EXPECT_LE(d.enabled, a.enabled);
	if (a.value == d.value && a.enabled == d.enabled)
		expect_still(_metadata, &a, &b);
	else
		expect_moving(_metadata, &a, &b);

	/* Disabling it is harmless, and it stands still afterwards. */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	read_across_wait(_metadata, fd, &c, &d);
	expect_still(_metadata, &c, &d);
	EXPECT_LE(b.value, c.value);
	ASSERT_EQ(0, close(fd));

	/* A new event counts on the CPU that came back. */
	fd = cpu_clock_open(CPU);
	ASSERT_LE(0, fd);
	read_across_wait(_metadata, fd, &a, &b);
	expect_moving(_metadata, &a, &b);
	ASSERT_EQ(0, close(fd));
}

/* A CPU-wide group on CPU 1: the same, and reads keep working. */
TEST_F_TIMEOUT(hotplug, cpu_wide_group, TIMEOUT_S)
{
	__u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	struct group_reading a, b;
	int lead, member;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	lead = sw_event_open_group(PERF_COUNT_SW_CPU_CLOCK, fmt, false, -1,
				   CPU, -1);
	ASSERT_LE(0, lead);
	member = sw_event_open_group(PERF_COUNT_SW_CPU_CLOCK, fmt, false, -1,
				     CPU, lead);
	ASSERT_LE(0, member);

	ASSERT_EQ(0, read_group(lead, fmt, &a));
	ASSERT_EQ(2, a.nr);
	sleep_ms(WAIT_MS);
	ASSERT_EQ(0, set_online(0));
	/* The leader's count, first in any group read, stands still. */
	ASSERT_EQ(0, read_group(lead, fmt, &a));
	sleep_ms(WAIT_MS);
	ASSERT_EQ(0, read_group(lead, fmt, &b));
	EXPECT_LT(0, a.member[0].value);
	EXPECT_EQ(a.member[0].value, b.member[0].value);
	ASSERT_EQ(0, read_group(member, fmt, &b));

	ASSERT_EQ(0, set_online(1));
	ASSERT_EQ(0, read_group(lead, fmt, &b));
	ASSERT_EQ(0, read_group(member, fmt, &b));
	ASSERT_EQ(0, close(member));
	ASSERT_EQ(0, close(lead));
}

/* No CPU-wide event on an offline CPU; a task's event bound to it is. */
TEST_F_TIMEOUT(hotplug, open_on_offline_cpu, TIMEOUT_S)
{
	struct value_times a, b;
	int fd, task_fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_EQ(0, set_online(0));

	errno = 0;
	fd = cpu_clock_open(CPU);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENODEV, errno);
	if (fd >= 0)
		close(fd);

	task_fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, false, 0,
				CPU);
	ASSERT_LE(0, task_fd);
	spin_cpu_ns(5 * NSEC_PER_MSEC);
	ASSERT_EQ(0, read_value_times(task_fd, &a));
	EXPECT_EQ(0, a.value);
	EXPECT_EQ(0, a.running);

	ASSERT_EQ(0, set_online(1));
	ASSERT_EQ(0, pin_to_cpu(CPU));
	spin_cpu_ns(5 * NSEC_PER_MSEC);
	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_EQ(0, read_value_times(task_fd, &b));
	EXPECT_LE(NSEC_PER_MSEC, b.value);
	EXPECT_LT(0, b.running);
	ASSERT_EQ(0, close(task_fd));

	fd = cpu_clock_open(CPU);
	ASSERT_LE(0, fd);
	read_across_wait(_metadata, fd, &a, &b);
	expect_moving(_metadata, &a, &b);
	ASSERT_EQ(0, close(fd));
}

/*
 * Our task-clock bound to CPU 1 counts only while we run there; the CPU
 * going offline and back does not disturb it.
 */
TEST_F_TIMEOUT(hotplug, task_event_on_cpu, TIMEOUT_S)
{
	struct value_times a, b, c;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, false, 0, CPU);
	ASSERT_LE(0, fd);

	ASSERT_EQ(0, pin_to_cpu(CPU));
	spin_cpu_ns(5 * NSEC_PER_MSEC);
	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_EQ(0, read_value_times(fd, &a));
	EXPECT_LE(NSEC_PER_MSEC, a.value);

	ASSERT_EQ(0, set_online(0));
	spin_cpu_ns(5 * NSEC_PER_MSEC);
	ASSERT_EQ(0, read_value_times(fd, &b));
	EXPECT_EQ(a.value, b.value);
	EXPECT_EQ(a.running, b.running);
	/* Enabled all along, but not running: not on CPU 1. */
	EXPECT_LT(a.enabled, b.enabled);

	ASSERT_EQ(0, set_online(1));
	ASSERT_EQ(0, read_value_times(fd, &c));
	EXPECT_EQ(a.value, c.value);
	ASSERT_EQ(0, pin_to_cpu(CPU));
	spin_cpu_ns(5 * NSEC_PER_MSEC);
	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_EQ(0, read_value_times(fd, &c));
	EXPECT_LE(b.value + NSEC_PER_MSEC, c.value);
	EXPECT_LT(b.running, c.running);
	EXPECT_LT(b.enabled, c.enabled);
	ASSERT_EQ(0, close(fd));
}

static int pin_to_test_cpu(void)
{
	return pin_to_cpu(CPU);
}

/*
 * A task running on CPU 1 when it goes offline moves to another CPU, and
 * its event, bound to no CPU, follows it and goes on counting.
 */
TEST_F_TIMEOUT(hotplug, task_moved_off_dying_cpu, TIMEOUT_S)
{
	struct value_times a, b, c;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_LE(0, fork_gated(&self->c, pin_to_test_cpu));
	if (self->c.pid == 0)
		for (;;)
			spin_cpu_ns(NSEC_PER_MSEC);

	fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, false,
			   self->c.pid, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, gate_release(&self->c));
	read_across_wait(_metadata, fd, &a, &b);
	expect_moving(_metadata, &a, &b);

	ASSERT_EQ(0, set_online(0));
	read_across_wait(_metadata, fd, &a, &c);
	EXPECT_LE(b.value, a.value);
	expect_moving(_metadata, &a, &c);

	ASSERT_EQ(0, set_online(1));
	read_across_wait(_metadata, fd, &a, &b);
	EXPECT_LE(c.value, a.value);
	expect_moving(_metadata, &a, &b);
	ASSERT_EQ(0, close(fd));
}

/* Several rounds with events of both kinds on the CPU. */
TEST_F_TIMEOUT(hotplug, repeated, TIMEOUT_S)
{
	int cpu_fd, task_fd, round;
	struct value_times v;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	task_fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, false, 0,
				CPU);
	ASSERT_LE(0, task_fd);
	for (round = 0; round < 3; round++) {
		cpu_fd = cpu_clock_open(CPU);
		ASSERT_LE(0, cpu_fd);
		ASSERT_EQ(0, pin_to_cpu(CPU));
		spin_cpu_ns(NSEC_PER_MSEC);
		ASSERT_EQ(0, pin_to_cpu(0));
		ASSERT_EQ(0, set_online(0));
		ASSERT_EQ(0, read_value_times(cpu_fd, &v));
		ASSERT_EQ(0, read_value_times(task_fd, &v));
		ASSERT_EQ(0, set_online(1));
		ASSERT_EQ(0, read_value_times(cpu_fd, &v));
		ASSERT_EQ(0, close(cpu_fd));
	}
	ASSERT_EQ(0, read_value_times(task_fd, &v));
	EXPECT_LE(3 * NSEC_PER_MSEC, v.value);
	ASSERT_EQ(0, close(task_fd));
}

TEST_HARNESS_MAIN
