// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cgroup events: perf_event_open() with PERF_FLAG_PID_CGROUP, where
 * pid is a descriptor of a cgroup directory and cpu a CPU.
 *
 * Such an event is CPU-wide but counts only while a task of the cgroup,
 * or of a cgroup below it, runs on that CPU; its time_enabled and
 * time_running advance only then too.  A task moved into or out of the
 * cgroup while it runs starts or stops counting at once.  The events of
 * a group watch one cgroup.  The errors are 6.1's: EINVAL without a CPU
 * or with pid -1, EBADF for a descriptor that is not a cgroup directory,
 * ENOENT for a removed cgroup, EACCES without the right to watch a CPU.
 * The software event cgroup-switches counts the switches between tasks
 * of different cgroups.
 *
 * The tests use cgroup v2 (cgroup_util.h), mounting it under /tmp if
 * /sys/fs/cgroup is not a cgroup2 mount, and make cgroups of their own.
 * The workloads are children pinned to the CPU of the events that move
 * themselves into the cgroup, or stay in the test's own cgroup, and
 * spin, sleep or fault pages there.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "cgroup_util.h"
#include "../kselftest_harness.h"

#define CPU		0
#define OTHER_CPU	1
#define MNT		"/tmp/perf_cgroup_test"
#define SPIN_MS		50
#define OPEN_TIMEOUT_MS	5000

FIXTURE(cg) {
	const char *skip;	/* why the tests cannot run, or NULL */
	struct cg_root cg;
	char *root;		/* the root of the cgroup2 hierarchy */
	char own[PATH_MAX];	/* the test's own cgroup */
	char dir[256];		/* the watched cgroup */
	char sub[PATH_MAX];	/* a cgroup below it */
	char other[256];	/* a sibling of it */
	int rootfd, fd, subfd, otherfd;
	pid_t child;		/* a background child, or 0 */
};

/* Make the cgroup at @path and open its directory: the descriptor. */
static int make_cgroup(struct __test_metadata *_metadata, const char *path)
{
	int fd;

	ASSERT_EQ(0, mkdir(path, 0755));
	fd = open(path, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	return fd;
}

FIXTURE_SETUP(cg)
{
	self->rootfd = -1;
	self->fd = -1;
	self->subfd = -1;
	self->otherfd = -1;
	if (cg_root_init(&self->cg, MNT)) {
		self->skip = "cannot mount cgroup2";
		return;
	}
	self->root = self->cg.root;
	ASSERT_EQ(0, cg_own(self->root, self->own, sizeof(self->own)));
	snprintf(self->dir, sizeof(self->dir), "%s/perf_cg.%d", self->root,
		 getpid());
	snprintf(self->sub, sizeof(self->sub), "%s/sub", self->dir);
	snprintf(self->other, sizeof(self->other), "%s/perf_cg_other.%d",
		 self->root, getpid());
	self->fd = make_cgroup(_metadata, self->dir);
	self->subfd = make_cgroup(_metadata, self->sub);
	self->otherfd = make_cgroup(_metadata, self->other);
	self->rootfd = open(self->root, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, self->rootfd);
	if (cg_perf_ready(&self->cg, self->fd)) {
		/* perf_event is on a v1 hierarchy and v2 has no events. */
		ASSERT_EQ(ENOENT, errno);
		self->skip = "no perf_event controller on cgroup2";
	}
}

FIXTURE_TEARDOWN(cg)
{
	int fds[] = { self->rootfd, self->fd, self->subfd, self->otherfd };
	size_t i;

	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	for (i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (self->root) {
		cg_remove(self->sub);
		cg_remove(self->dir);
		cg_remove(self->other);
	}
	cg_root_fini(&self->cg);
}

static int cg_event_open_group(__u64 config, __u64 read_format, bool disabled,
			       int cgfd, int cpu, int group_fd)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, config);
	attr.read_format = read_format;
	attr.disabled = disabled;
	return sys_perf_event_open(&attr, cgfd, cpu, group_fd,
				   PERF_FLAG_PID_CGROUP);
}

static int cg_event_open(__u64 config, int cgfd, int cpu)
{
	return cg_event_open_group(config, RF_TIMES, false, cgfd, cpu, -1);
}

/* cg_event_open(), which must succeed. */
static int cg_counter(struct __test_metadata *_metadata, __u64 config,
		      int cgfd, int cpu)
{
	int fd = cg_event_open(config, cgfd, cpu);

	ASSERT_LE(0, fd);
	return fd;
}

/* The workloads a child runs. */
enum work { SPIN, SWITCH, FAULT, SPIN_SLEEP_SPIN };

static void do_work(enum work work, long arg)
{
	switch (work) {
	case SPIN:
		spin_cpu_ns(arg * NSEC_PER_MSEC);
		break;
	case SWITCH:
		switch_out(arg);
		break;
	case FAULT:
		if (fault_fresh_pages(arg))
			_exit(3);
		break;
	case SPIN_SLEEP_SPIN:
		spin_cpu_ns(arg * NSEC_PER_MSEC);
		sleep_ms(100);
		spin_cpu_ns(arg * NSEC_PER_MSEC);
		break;
	}
}

/*
 * Run @work in a child pinned to @cpu that first moves itself into the
 * cgroup at @dir; wait for it.  Returns its exit status (0 on success).
 * Reaped, the child may still have to leave the CPU for the last time:
 * give it a moment, so that its last switch is not counted in the next
 * run.
 */
static int run_child(const char *dir, int cpu, enum work work, long arg)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		if (pin_to_cpu(cpu))
			_exit(1);
		if (cg_move(dir, 0))
			_exit(2);
		do_work(work, arg);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	sleep_ms(20);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* @b minus @a, field by field. */
static struct value_times vt_sub(struct value_times b, struct value_times a)
{
	struct value_times d = {
		.value = b.value - a.value,
		.enabled = b.enabled - a.enabled,
		.running = b.running - a.running,
	};

	return d;
}

/* What @fd counted while the child ran @work in the cgroup at @dir. */
static struct value_times counted(struct __test_metadata *_metadata, int fd,
				  const char *dir, int cpu, enum work work,
				  long arg)
{
	struct value_times a = {}, b = {};

	EXPECT_EQ(0, read_value_times(fd, &a));
	EXPECT_EQ(0, run_child(dir, cpu, work, arg));
	EXPECT_EQ(0, read_value_times(fd, &b));
	return vt_sub(b, a);
}

/* What @fd counted while we slept @ms. */
static struct value_times slept(struct __test_metadata *_metadata, int fd,
				unsigned int ms)
{
	struct value_times a, b;

	ASSERT_EQ(0, read_value_times(fd, &a));
	sleep_ms(ms);
	ASSERT_EQ(0, read_value_times(fd, &b));
	return vt_sub(b, a);
}

static void expect_nothing(struct __test_metadata *_metadata,
			   struct value_times d)
{
	EXPECT_EQ(0, d.value);
	EXPECT_EQ(0, d.enabled);
	EXPECT_EQ(0, d.running);
}

/* What two reads of a clock and the times may disagree by, beside 5%. */
#define CLOCK_SLACK_NS	(5 * NSEC_PER_MSEC)

/* A task-clock that counted about @ms, all of the time it was enabled. */
static void expect_clock(struct __test_metadata *_metadata,
			 struct value_times d, __u64 ms)
{
	__u64 want = ms * NSEC_PER_MSEC;

	EXPECT_GE(d.value, want * 9 / 10);
	EXPECT_GE(d.enabled, want * 9 / 10);
	EXPECT_EQ(d.enabled, d.running);
	/*
	 * The clock runs exactly while the event is enabled and active; each
	 * read takes the count and the times one after the other, and a vCPU
	 * the host takes away between them (a host time slice, 4 ms on a
	 * loaded host: 55.7 ms counted in 51.7 enabled, once) is in one and
	 * not in the other.
	 */
	EXPECT_LE(d.value, d.enabled + d.enabled / 20 + CLOCK_SLACK_NS);
	EXPECT_GE(d.value + d.value / 20 + CLOCK_SLACK_NS, d.enabled);
}

/* A task of the cgroup spinning on the CPU: counted, with its times. */
TEST_F(cg, task_clock_inside)
{
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = cg_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, self->fd, CPU);
	expect_clock(_metadata,
		     counted(_metadata, fd, self->dir, CPU, SPIN, SPIN_MS),
		     SPIN_MS);
	close(fd);
}

/* A task of another cgroup on the CPU: nothing counted, times still. */
TEST_F(cg, task_clock_outside)
{
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = cg_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, self->fd, CPU);
	expect_nothing(_metadata,
		       counted(_metadata, fd, self->own, CPU, SPIN, SPIN_MS));
	expect_nothing(_metadata,
		       counted(_metadata, fd, self->other, CPU, SPIN, SPIN_MS));
	close(fd);
}

/* A task of the cgroup on another CPU: not this CPU's event's business. */
TEST_F(cg, task_clock_other_cpu)
{
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	fd = cg_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, self->fd, CPU);
	expect_nothing(_metadata, counted(_metadata, fd, self->dir, OTHER_CPU,
					  SPIN, SPIN_MS));
	close(fd);
}

/* While the cgroup's only task sleeps, the event's times stand still. */
TEST_F(cg, times_follow_the_cgroup)
{
	struct value_times d;
	__u64 start, wall;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = cg_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, self->fd, CPU);
	/*
	 * 2 x 20 ms of spinning around 100 ms of sleep: enabled for the
	 * spinning, not for the sleep.  The child's run, minus the 20 ms
	 * run_child() waits after it, is the bound: under TCG a busy host
	 * can stretch what the guest sees of the spinning and of the
	 * child's exit, never shrink the sleep.
	 */
	start = clock_ns(CLOCK_MONOTONIC);
	d = counted(_metadata, fd, self->dir, CPU, SPIN_SLEEP_SPIN, 20);
	wall = clock_ns(CLOCK_MONOTONIC) - start - 20 * NSEC_PER_MSEC;
	expect_clock(_metadata, d, 40);
	EXPECT_LE(d.enabled + 95 * NSEC_PER_MSEC, wall) {
		TH_LOG("enabled %llu ns of a run of %llu ns",
		       (unsigned long long)d.enabled,
		       (unsigned long long)wall);
	}
	close(fd);
}

/* A task of a cgroup below counts for the cgroup above, not beside. */
TEST_F(cg, descendants)
{
	struct value_times a[3], b[3];
	int fds[3], cgfds[3] = { self->fd, self->subfd, self->otherfd };
	int i;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	for (i = 0; i < 3; i++) {
		fds[i] = cg_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK,
				    cgfds[i], CPU);
		ASSERT_EQ(0, read_value_times(fds[i], &a[i]));
	}
	ASSERT_EQ(0, run_child(self->sub, CPU, SPIN, SPIN_MS));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, read_value_times(fds[i], &b[i]));
	expect_clock(_metadata, vt_sub(b[0], a[0]), SPIN_MS);
	expect_clock(_metadata, vt_sub(b[1], a[1]), SPIN_MS);
	expect_nothing(_metadata, vt_sub(b[2], a[2]));
	for (i = 0; i < 3; i++)
		close(fds[i]);
}

/* The root cgroup holds every task, the idle task too. */
TEST_F(cg, root_cgroup)
{
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = cg_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, self->rootfd, CPU);
	expect_clock(_metadata, slept(_metadata, fd, SPIN_MS), SPIN_MS);
	close(fd);
}

TEST_F(cg, context_switches)
{
	struct value_times d;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = cg_counter(_metadata, PERF_COUNT_SW_CONTEXT_SWITCHES, self->fd,
			CPU);
	d = counted(_metadata, fd, self->dir, CPU, SWITCH, 20);
	EXPECT_GE(d.value, 20);
	EXPECT_GT(d.enabled, 0);
	EXPECT_EQ(d.enabled, d.running);
	expect_nothing(_metadata,
		       counted(_metadata, fd, self->own, CPU, SWITCH, 20));
	close(fd);
}

TEST_F(cg, page_faults)
{
	struct value_times d;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = cg_counter(_metadata, PERF_COUNT_SW_PAGE_FAULTS, self->fd, CPU);
	d = counted(_metadata, fd, self->dir, CPU, FAULT, TOUCH_PAGES);
	EXPECT_GE(d.value, TOUCH_PAGES);
	EXPECT_GT(d.enabled, 0);
	expect_nothing(_metadata,
		       counted(_metadata, fd, self->own, CPU, FAULT, TOUCH_PAGES));
	close(fd);
}

/* Opened disabled, it counts from ioctl(ENABLE) on, and stops again. */
TEST_F(cg, enable_disable)
{
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = cg_event_open_group(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, true,
				 self->fd, CPU, -1);
	ASSERT_LE(0, fd);
	expect_nothing(_metadata,
		       counted(_metadata, fd, self->dir, CPU, SPIN, 20));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	expect_clock(_metadata,
		     counted(_metadata, fd, self->dir, CPU, SPIN, 20), 20);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	expect_nothing(_metadata,
		       counted(_metadata, fd, self->dir, CPU, SPIN, 20));
	close(fd);
}

#define GROUP_RF	(PERF_FORMAT_GROUP | RF_TIMES)

/* A group of one cgroup: on together while the cgroup runs. */
TEST_F(cg, group)
{
	struct group_reading a, b, c;
	int leader, member;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	leader = cg_event_open_group(PERF_COUNT_SW_TASK_CLOCK, GROUP_RF, false,
				     self->fd, CPU, -1);
	ASSERT_LE(0, leader);
	member = cg_event_open_group(PERF_COUNT_SW_CONTEXT_SWITCHES, GROUP_RF,
				     false, self->fd, CPU, leader);
	ASSERT_LE(0, member);

	ASSERT_EQ(0, read_group(leader, GROUP_RF, &a));
	ASSERT_EQ(0, run_child(self->dir, CPU, SWITCH, 10));
	ASSERT_EQ(0, run_child(self->dir, CPU, SPIN, 20));
	ASSERT_EQ(0, read_group(member, GROUP_RF, &b));
	ASSERT_EQ(2, b.nr);
	EXPECT_GE(b.member[0].value - a.member[0].value, 18 * NSEC_PER_MSEC);
	EXPECT_GE(b.member[1].value - a.member[1].value, 10);
	EXPECT_GE(b.enabled - a.enabled, 18 * NSEC_PER_MSEC);
	EXPECT_EQ(b.enabled - a.enabled, b.running - a.running);

	ASSERT_EQ(0, run_child(self->own, CPU, SWITCH, 10));
	ASSERT_EQ(0, run_child(self->own, CPU, SPIN, 20));
	ASSERT_EQ(0, read_group(leader, GROUP_RF, &c));
	EXPECT_EQ(b.member[0].value, c.member[0].value);
	EXPECT_EQ(b.member[1].value, c.member[1].value);
	EXPECT_EQ(b.enabled, c.enabled);
	EXPECT_EQ(b.running, c.running);
	close(member);
	close(leader);
}

/*
 * A CPU-wide event without a cgroup may join a cgroup group: it is on
 * only with its leader.  A cgroup event may join only a group of its own
 * cgroup.
 */
TEST_F(cg, group_mixed)
{
	struct group_reading a, b, c;
	int leader, member, fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	leader = cg_event_open_group(PERF_COUNT_SW_TASK_CLOCK, GROUP_RF, false,
				     self->fd, CPU, -1);
	ASSERT_LE(0, leader);
	member = sw_event_open_group(PERF_COUNT_SW_CONTEXT_SWITCHES, GROUP_RF,
				     false, -1, CPU, leader);
	ASSERT_LE(0, member);

	ASSERT_EQ(0, read_group(leader, GROUP_RF, &a));
	ASSERT_EQ(0, run_child(self->dir, CPU, SWITCH, 10));
	ASSERT_EQ(0, read_group(leader, GROUP_RF, &b));
	EXPECT_GE(b.member[1].value - a.member[1].value, 10);
	ASSERT_EQ(0, run_child(self->own, CPU, SWITCH, 10));
	ASSERT_EQ(0, read_group(leader, GROUP_RF, &c));
	EXPECT_EQ(b.member[1].value, c.member[1].value);

	/* Another cgroup's event, or one without a cgroup: EINVAL. */
	fd = cg_event_open_group(PERF_COUNT_SW_PAGE_FAULTS, 0, false,
				 self->otherfd, CPU, leader);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	close(member);
	close(leader);

	leader = sw_event_open(PERF_COUNT_SW_CPU_CLOCK, 0, false, -1, CPU);
	ASSERT_LE(0, leader);
	fd = cg_event_open_group(PERF_COUNT_SW_PAGE_FAULTS, 0, false,
				 self->fd, CPU, leader);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	close(leader);
}

/* A running task moved in starts counting at once, moved out stops. */
TEST_F(cg, move_running_task)
{
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, pin_to_cpu(CPU));
	fd = cg_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, self->fd,
			OTHER_CPU);

	/* A spinner alone on the other CPU: it is never switched out. */
	self->child = fork();
	if (self->child == 0) {
		if (pin_to_cpu(OTHER_CPU))
			_exit(1);
		for (;;)
			;
	}
	ASSERT_LT(0, self->child);
	sleep_ms(20);
	expect_nothing(_metadata, slept(_metadata, fd, SPIN_MS));

	ASSERT_EQ(0, cg_move(self->dir, self->child));
	/* Most of the wait: the CPU is the spinner's. */
	expect_clock(_metadata, slept(_metadata, fd, SPIN_MS), SPIN_MS / 2);

	ASSERT_EQ(0, cg_move(self->own, self->child));
	expect_nothing(_metadata, slept(_metadata, fd, SPIN_MS));
	close(fd);
}

/* One event per online CPU, as perf stat -a -G does: they add up. */
TEST_F(cg, every_cpu)
{
	int cpus[8], fds[8], n, i;
	struct value_times a[8], b[8];
	__u64 sum = 0;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	n = allowed_cpus(cpus, 8);
	ASSERT_LT(0, n);
	for (i = 0; i < n; i++) {
		fds[i] = cg_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK,
				    self->fd, cpus[i]);
		ASSERT_EQ(0, read_value_times(fds[i], &a[i]));
	}
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, run_child(self->dir, cpus[i], SPIN, 20));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, read_value_times(fds[i], &b[i]));
		expect_clock(_metadata, vt_sub(b[i], a[i]), 20);
		sum += b[i].value - a[i].value;
		close(fds[i]);
	}
	EXPECT_GE(sum, n * 18 * NSEC_PER_MSEC);
}

static int expect_open_errno(int cgfd, int cpu, unsigned long flags)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	fd = sys_perf_event_open(&attr, cgfd, cpu, -1, flags);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

TEST_F(cg, errors)
{
	char path[PATH_MAX];
	int fd, closed;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	/* A cgroup event needs a CPU, and a descriptor. */
	EXPECT_EQ(EINVAL, expect_open_errno(self->fd, -1, PERF_FLAG_PID_CGROUP));
	EXPECT_EQ(EINVAL, expect_open_errno(-1, CPU, PERF_FLAG_PID_CGROUP));
	EXPECT_EQ(EINVAL, expect_open_errno(-1, -1, PERF_FLAG_PID_CGROUP));
	EXPECT_EQ(EINVAL, expect_open_errno(self->fd, 4096,
					    PERF_FLAG_PID_CGROUP));

	/* Not an open descriptor. */
	closed = dup(self->fd);
	ASSERT_LE(0, closed);
	close(closed);
	EXPECT_EQ(EBADF, expect_open_errno(closed, CPU, PERF_FLAG_PID_CGROUP));
	EXPECT_EQ(EBADF, expect_open_errno(-2, CPU, PERF_FLAG_PID_CGROUP));

	/* Not a cgroup directory: a plain file, another directory, ... */
	fd = open("/proc/self/stat", O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(EBADF, expect_open_errno(fd, CPU, PERF_FLAG_PID_CGROUP));
	close(fd);
	fd = open("/", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(EBADF, expect_open_errno(fd, CPU, PERF_FLAG_PID_CGROUP));
	close(fd);
	/* ... or a file of a cgroup. */
	snprintf(path, sizeof(path), "%s/cgroup.procs", self->dir);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(EBADF, expect_open_errno(fd, CPU, PERF_FLAG_PID_CGROUP));
	close(fd);

	/* The flag also changes what pid means: a cgroup, not a task. */
	EXPECT_EQ(EBADF, expect_open_errno(getpid() + 1000, CPU,
					   PERF_FLAG_PID_CGROUP));
}

/* A cgroup removed while its directory is open has no events. */
TEST_F(cg, removed_cgroup)
{
	char path[PATH_MAX];
	int cgfd, fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	snprintf(path, sizeof(path), "%s/gone", self->dir);
	cgfd = make_cgroup(_metadata, path);
	ASSERT_EQ(0, rmdir(path));
	fd = cg_event_open(PERF_COUNT_SW_TASK_CLOCK, cgfd, CPU);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENOENT, errno);
	close(cgfd);
}

/* An event opened before its cgroup goes away keeps its count. */
TEST_F(cg, cgroup_removed_later)
{
	char path[PATH_MAX];
	struct value_times a;
	int cgfd, fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	snprintf(path, sizeof(path), "%s/later", self->dir);
	cgfd = make_cgroup(_metadata, path);
	fd = cg_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, cgfd, CPU);
	close(cgfd);
	ASSERT_EQ(0, run_child(path, CPU, SPIN, 20));
	cg_remove(path);
	ASSERT_EQ(0, read_value_times(fd, &a));
	EXPECT_GE(a.value, 18 * NSEC_PER_MSEC);
	expect_nothing(_metadata, slept(_metadata, fd, 20));
	close(fd);
}

/* Watching a cgroup is watching a CPU: not for the unprivileged. */
TEST_F(cg, unprivileged)
{
	struct perf_event_attr attr;
	int paranoid, fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_EQ(0, read_int_file("/proc/sys/kernel/perf_event_paranoid",
				   &paranoid));
	if (paranoid < 1)
		SKIP(return, "perf_event_paranoid lets anyone watch CPUs");
	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.exclude_kernel = 1;
	fd = perf_event_open_helper(&attr, self->fd, CPU, -1,
				    PERF_FLAG_PID_CGROUP, OPEN_TIMEOUT_MS,
				    become_nobody);
	EXPECT_EQ(-EACCES, fd);
	if (fd >= 0)
		close(fd);
}

/*
 * cgroup-switches counts the switches between tasks of different
 * cgroups: a ping-pong across a cgroup boundary makes two per round, one
 * inside a cgroup none.
 */
#define ROUNDS	50

static int ping_pong(const char *dir)
{
	int to[2], from[2], i, status;
	char ch = 0;
	pid_t pid;

	if (pipe(to) || pipe(from))
		return -1;
	pid = fork();
	if (pid == 0) {
		if (pin_to_cpu(CPU) || cg_move(dir, 0))
			_exit(1);
		for (i = 0; i < ROUNDS; i++) {
			if (read(to[0], &ch, 1) != 1 ||
			    write(from[1], &ch, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	if (pid < 0)
		return -1;
	/* The child has moved once it answers the first round. */
	for (i = 0; i < ROUNDS; i++) {
		if (write(to[1], &ch, 1) != 1 || read(from[0], &ch, 1) != 1)
			break;
	}
	close(to[0]);
	close(to[1]);
	close(from[0]);
	close(from[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return i == ROUNDS ? WEXITSTATUS(status) : -1;
}

TEST_F(cg, cgroup_switches)
{
	__u64 a, b;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_EQ(0, pin_to_cpu(CPU));
	fd = sw_event_open(PERF_COUNT_SW_CGROUP_SWITCHES, 0, false, -1, CPU);
	ASSERT_LE(0, fd);

	ASSERT_EQ(0, read_value(fd, &a));
	ASSERT_EQ(0, ping_pong(self->dir));
	ASSERT_EQ(0, read_value(fd, &b));
	EXPECT_GE(b - a, 2 * (ROUNDS - 1));

	ASSERT_EQ(0, read_value(fd, &a));
	ASSERT_EQ(0, ping_pong(self->own));
	ASSERT_EQ(0, read_value(fd, &b));
	EXPECT_LT(b - a, ROUNDS / 2);
	close(fd);
}

/*
 * The perf_event controller mounted on a cgroup v1 hierarchy: its cgroups
 * take events there.  Unmounted without cgroups, the hierarchy gives the
 * controller back to cgroup2.
 */
#define V1_MNT	"/tmp/perf_cgroup_test_v1"

TEST(cgroup_v1)
{
	char dir[PATH_MAX] = V1_MNT "/perf_cg";
	int cgfd, fd, tries, nr = -1;

	mkdir(V1_MNT, 0755);
	if (mount("none", V1_MNT, "cgroup", 0, "perf_event")) {
		rmdir(V1_MNT);
		SKIP(return, "cannot mount a v1 perf_event hierarchy: %s",
		     strerror(errno));
	}
	cgfd = make_cgroup(_metadata, dir);
	fd = cg_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, cgfd, CPU);
	expect_clock(_metadata, counted(_metadata, fd, dir, CPU, SPIN, 20), 20);
	expect_nothing(_metadata,
		       counted(_metadata, fd, V1_MNT, CPU, SPIN, 20));
	close(fd);
	close(cgfd);
	cg_remove(dir);
	/*
	 * The removed cgroup is freed asynchronously, and the hierarchy
	 * goes away (giving perf_event back) only if it has none left.
	 */
	for (tries = 0; tries < 1000; tries++) {
		if (perf_event_hierarchy_nr(&nr) <= 0 || nr <= 1)
			break;
		sleep_ms(10);
	}
	EXPECT_EQ(1, nr);
	EXPECT_EQ(0, umount(V1_MNT));
	rmdir(V1_MNT);
	EXPECT_TRUE(perf_event_on_v2(10000));
}

TEST_HARNESS_MAIN
