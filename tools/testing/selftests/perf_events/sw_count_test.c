// SPDX-License-Identifier: GPL-2.0
/*
 * Counting with PERF_TYPE_SOFTWARE events.
 *
 * Every generic software counter (cpu-clock, task-clock, page-faults,
 * minor-faults, major-faults, context-switches, cpu-migrations, dummy) can be
 * opened and read.  Counts are checked against workloads with a known
 * effect: touching fresh anonymous pages (one fault each, none of them
 * major), burning CPU time versus sleeping (the clocks advance only while the
 * task runs), sleeping (context switches) and moving between CPUs with
 * sched_setaffinity() (migrations).  Targets are the calling task (pid 0),
 * another task of the same user (a forked child blocked on a pipe), any CPU
 * (cpu -1) and one CPU (cpu N, counting only while the task is on CPU N).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

/* CPU time burnt by the spinning workloads and the least the clocks show. */
#define SPIN_NS		(50 * NSEC_PER_MSEC)
#define SPIN_MIN_NS	(20 * NSEC_PER_MSEC)
/* Most a clock may advance for a task that sleeps 100ms between reads. */
#define IDLE_MAX_NS	(10 * NSEC_PER_MSEC)
#define IDLE_TRIES	3
/* Voluntary sleeps taken, and how many context switches they must show. */
#define NR_SLEEPS	5
#define MIN_SWITCHES	3

static const struct {
	__u64 config;
	const char *name;
} sw_events[] = {
	{ PERF_COUNT_SW_CPU_CLOCK,		"cpu-clock" },
	{ PERF_COUNT_SW_TASK_CLOCK,		"task-clock" },
	{ PERF_COUNT_SW_PAGE_FAULTS,		"page-faults" },
	{ PERF_COUNT_SW_PAGE_FAULTS_MIN,	"minor-faults" },
	{ PERF_COUNT_SW_PAGE_FAULTS_MAJ,	"major-faults" },
	{ PERF_COUNT_SW_CONTEXT_SWITCHES,	"context-switches" },
	{ PERF_COUNT_SW_CPU_MIGRATIONS,		"cpu-migrations" },
	{ PERF_COUNT_SW_DUMMY,			"dummy" },
};

/* Open every generic software event on (pid, cpu), read each once. */
static void open_and_read_all(struct __test_metadata *_metadata,
			      pid_t pid, int cpu)
{
	unsigned int i;
	__u64 value;
	int fd;

	for (i = 0; i < ARRAY_SIZE(sw_events); i++) {
		fd = sw_event_open(sw_events[i].config, 0, false, pid, cpu);
		ASSERT_LE(0, fd) {
			TH_LOG("open %s (pid %d, cpu %d): %s", sw_events[i].name,
			       pid, cpu, strerror(errno));
		}
		EXPECT_EQ(0, read_value(fd, &value)) {
			TH_LOG("read %s: %s", sw_events[i].name,
			       strerror(errno));
		}
		EXPECT_EQ(0, close(fd));
	}
}

/*
 * A few counters on one target, opened in the order of config[] and read
 * together before and after a workload: delta[i] is what counter i
 * counted in between.  A test copies one of the sets below.
 */
struct counter_set {
	unsigned int nr;
	__u64 config[3];
	int fd[3];
	__u64 start[3];
	__u64 delta[3];
};

enum { PF, PF_MIN, PF_MAJ };
static const struct counter_set fault_set = { .nr = 3, .config = {
	[PF] = PERF_COUNT_SW_PAGE_FAULTS,
	[PF_MIN] = PERF_COUNT_SW_PAGE_FAULTS_MIN,
	[PF_MAJ] = PERF_COUNT_SW_PAGE_FAULTS_MAJ,
} };

enum { TASK_CLK, CPU_CLK };
static const struct counter_set clock_set = { .nr = 2, .config = {
	[TASK_CLK] = PERF_COUNT_SW_TASK_CLOCK,
	[CPU_CLK] = PERF_COUNT_SW_CPU_CLOCK,
} };

enum { FT_PF, FT_CLK };
static const struct counter_set fault_time_set = { .nr = 2, .config = {
	[FT_PF] = PERF_COUNT_SW_PAGE_FAULTS,
	[FT_CLK] = PERF_COUNT_SW_TASK_CLOCK,
} };

/* Open the set's counters on (@pid, @cpu). */
static void set_open(struct __test_metadata *_metadata, struct counter_set *s,
		     pid_t pid, int cpu)
{
	for (unsigned int i = 0; i < s->nr; i++) {
		s->fd[i] = sw_event_open(s->config[i], 0, false, pid, cpu);
		ASSERT_LE(0, s->fd[i]);
	}
}

/* Read every counter: the start of what set_stop() measures. */
static void set_start(struct __test_metadata *_metadata,
		      struct counter_set *s)
{
	for (unsigned int i = 0; i < s->nr; i++)
		ASSERT_EQ(0, read_value(s->fd[i], &s->start[i]));
}

/* Read every counter again: what each counted since set_start(). */
static void set_stop(struct __test_metadata *_metadata, struct counter_set *s)
{
	__u64 now;

	for (unsigned int i = 0; i < s->nr; i++) {
		ASSERT_EQ(0, read_value(s->fd[i], &now));
		s->delta[i] = now - s->start[i];
	}
}

static void set_close(struct counter_set *s)
{
	for (unsigned int i = 0; i < s->nr; i++)
		close(s->fd[i]);
}

/* A fault_set around touching TOUCH_PAGES fresh pages: none of them major. */
static void check_fault_set(struct __test_metadata *_metadata,
			    const struct counter_set *s)
{
	EXPECT_TOUCH_FAULTS(s->delta[PF], FAULT_SLACK);
	EXPECT_TOUCH_FAULTS(s->delta[PF_MIN], FAULT_SLACK);
	EXPECT_EQ(0, s->delta[PF_MAJ]);
}

/*
 * Touch the TOUCH_PAGES fresh pages at @buf and spin: the fault_time_set
 * @s counts both.
 */
static void check_fault_and_spin(struct __test_metadata *_metadata,
				 struct counter_set *s, char *buf)
{
	set_start(_metadata, s);
	touch_pages(buf, TOUCH_PAGES);
	spin_cpu_ns(SPIN_NS);
	set_stop(_metadata, s);
	EXPECT_TOUCH_FAULTS(s->delta[FT_PF], FAULT_SLACK);
	EXPECT_LE(SPIN_MIN_NS, s->delta[FT_CLK]);
}

TEST(open_read_self_any_cpu)
{
	open_and_read_all(_metadata, 0, -1);
}

TEST(open_read_self_one_cpu)
{
	int cpu;

	ASSERT_EQ(1, allowed_cpus(&cpu, 1));
	ASSERT_EQ(0, pin_to_cpu(cpu));
	open_and_read_all(_metadata, 0, cpu);
}

/* Touching fresh anonymous pages: one minor fault per page, no major. */
TEST(page_faults_self)
{
	struct counter_set f = fault_set;
	char *buf;

	buf = map_fresh_pages(TOUCH_PAGES);
	ASSERT_NE(NULL, buf);
	set_open(_metadata, &f, 0, -1);
	set_start(_metadata, &f);
	touch_pages(buf, TOUCH_PAGES);
	set_stop(_metadata, &f);
	check_fault_set(_metadata, &f);
	set_close(&f);
	munmap(buf, TOUCH_PAGES * getpagesize());
}

/*
 * A sleeping task accumulates neither task-clock nor (task) cpu-clock.
 * Without -icount the guest's clock is the host's: a vCPU thread the host
 * preempts between the reads and the sleep lends the task that time.  The
 * least of IDLE_TRIES sleeps is judged; a clock that ran during the sleep
 * shows at least 100ms in every one of them.
 */
TEST(clocks_stand_still_while_sleeping)
{
	struct counter_set c = clock_set;
	__u64 least[2] = { ~0ULL, ~0ULL };

	set_open(_metadata, &c, 0, -1);
	for (int try = 0; try < IDLE_TRIES; try++) {
		set_start(_metadata, &c);
		sleep_ms(100);
		set_stop(_metadata, &c);
		if (c.delta[TASK_CLK] < least[TASK_CLK])
			least[TASK_CLK] = c.delta[TASK_CLK];
		if (c.delta[CPU_CLK] < least[CPU_CLK])
			least[CPU_CLK] = c.delta[CPU_CLK];
	}
	EXPECT_GT(IDLE_MAX_NS, least[TASK_CLK]);
	EXPECT_GT(IDLE_MAX_NS, least[CPU_CLK]);
	set_close(&c);
}

/* Both clocks advance, in nanoseconds, while the task burns CPU. */
TEST(clocks_advance_while_spinning)
{
	struct counter_set c = clock_set;
	__u64 wall;

	set_open(_metadata, &c, 0, -1);
	wall = clock_ns(CLOCK_MONOTONIC);
	set_start(_metadata, &c);
	spin_cpu_ns(SPIN_NS);
	set_stop(_metadata, &c);
	wall = clock_ns(CLOCK_MONOTONIC) - wall;

	EXPECT_LE(SPIN_MIN_NS, c.delta[TASK_CLK]);
	EXPECT_LE(SPIN_MIN_NS, c.delta[CPU_CLK]);
	/* Not in microseconds or some other unit: bounded by wall time. */
	EXPECT_GT(2 * wall + 100 * NSEC_PER_MSEC, c.delta[TASK_CLK]);
	EXPECT_GT(2 * wall + 100 * NSEC_PER_MSEC, c.delta[CPU_CLK]);
	set_close(&c);
}

/* Voluntary sleeps switch the task out. */
TEST(context_switches_on_sleep)
{
	__u64 cs[2];
	int fd, i;

	fd = sw_event_open(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, false, 0, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, read_value(fd, &cs[0]));
	for (i = 0; i < NR_SLEEPS; i++)
		sleep_ms(10);
	ASSERT_EQ(0, read_value(fd, &cs[1]));
	EXPECT_LE(MIN_SWITCHES, cs[1] - cs[0]);
	close(fd);
}

/* Each sched_setaffinity() onto the other CPU is one migration. */
TEST(cpu_migrations_forced)
{
	__u64 mig[2];
	int cpus[2], fd, i;

	if (allowed_cpus(cpus, 2) < 2)
		SKIP(return, "needs two CPUs");
	fd = sw_event_open(PERF_COUNT_SW_CPU_MIGRATIONS, 0, false, 0, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));
	ASSERT_EQ(0, read_value(fd, &mig[0]));
	for (i = 1; i <= 4; i++) {
		ASSERT_EQ(0, pin_to_cpu(cpus[i % 2]));
		ASSERT_EQ(cpus[i % 2], sched_getcpu());
	}
	ASSERT_EQ(0, read_value(fd, &mig[1]));
	EXPECT_LE(4, mig[1] - mig[0]);
	close(fd);
}

/* The dummy event opens but never counts anything. */
TEST(dummy_counts_nothing)
{
	__u64 value;
	char *buf;
	int fd;

	buf = map_fresh_pages(TOUCH_PAGES);
	ASSERT_NE(NULL, buf);
	fd = sw_event_open(PERF_COUNT_SW_DUMMY, 0, false, 0, -1);
	ASSERT_LE(0, fd);
	touch_pages(buf, TOUCH_PAGES);
	spin_cpu_ns(5 * NSEC_PER_MSEC);
	sleep_ms(10);
	ASSERT_EQ(0, read_value(fd, &value));
	EXPECT_EQ(0, value);
	close(fd);
	munmap(buf, TOUCH_PAGES * getpagesize());
}

/* pid 0, cpu N: counts while the task runs on CPU N. */
TEST(one_cpu_counts_there)
{
	struct counter_set c = fault_time_set;
	char *buf;
	int cpu;

	ASSERT_EQ(1, allowed_cpus(&cpu, 1));
	ASSERT_EQ(0, pin_to_cpu(cpu));
	buf = map_fresh_pages(TOUCH_PAGES);
	ASSERT_NE(NULL, buf);
	set_open(_metadata, &c, 0, cpu);
	check_fault_and_spin(_metadata, &c, buf);
	set_close(&c);
	munmap(buf, TOUCH_PAGES * getpagesize());
}

/*
 * Two CPUs we may run on, the task pinned to the first, and twice
 * TOUCH_PAGES fresh pages to fault on.
 */
FIXTURE(two_cpus) {
	int cpus[2];
	char *buf;
};

FIXTURE_SETUP(two_cpus)
{
	self->buf = NULL;
	if (allowed_cpus(self->cpus, 2) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, pin_to_cpu(self->cpus[0]));
	self->buf = map_fresh_pages(2 * TOUCH_PAGES);
	ASSERT_NE(NULL, self->buf);
}

FIXTURE_TEARDOWN(two_cpus)
{
	if (self->buf)
		munmap(self->buf, 2 * TOUCH_PAGES * getpagesize());
}

/*
 * pid 0, cpu M: nothing is counted while the task is kept on another CPU,
 * and counting starts once the task moves onto CPU M.
 */
TEST_F(two_cpus, one_cpu_ignores_other_cpus)
{
	struct counter_set c = fault_time_set;
	int *cpus = self->cpus;
	char *buf = self->buf;

	set_open(_metadata, &c, 0, cpus[1]);

	/* On cpus[0]: the cpus[1] counters stay at zero. */
	touch_pages(buf, TOUCH_PAGES);
	spin_cpu_ns(SPIN_NS);
	set_start(_metadata, &c);
	EXPECT_EQ(0, c.start[FT_PF]);
	EXPECT_EQ(0, c.start[FT_CLK]);

	/* Now on cpus[1]: they count. */
	ASSERT_EQ(0, pin_to_cpu(cpus[1]));
	check_fault_and_spin(_metadata, &c, buf + TOUCH_PAGES * getpagesize());

	set_close(&c);
}

/* pid -1, cpu N: a CPU-wide counter sees our faults taken on CPU N. */
TEST(cpu_wide_counts_faults)
{
	__u64 pf[2];
	int cpu, fd;
	char *buf;

	ASSERT_EQ(1, allowed_cpus(&cpu, 1));
	ASSERT_EQ(0, pin_to_cpu(cpu));
	buf = map_fresh_pages(TOUCH_PAGES);
	ASSERT_NE(NULL, buf);
	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, -1, cpu);
	ASSERT_LE(0, fd) {
		TH_LOG("open cpu-wide page-faults: %s", strerror(errno));
	}
	ASSERT_EQ(0, read_value(fd, &pf[0]));
	touch_pages(buf, TOUCH_PAGES);
	ASSERT_EQ(0, read_value(fd, &pf[1]));
	/* Other tasks on the CPU may fault too: no upper bound. */
	EXPECT_LE(TOUCH_PAGES, pf[1] - pf[0]);
	close(fd);
	munmap(buf, TOUCH_PAGES * getpagesize());
}

/*
 * pid -1, cpu M, opened disabled from another CPU: it has counted nothing
 * and been enabled for no time; enabled, it counts our faults on CPU M.
 * A second such event, closed while still off, takes nothing with it.
 * (Ours adds and removes such events without interrupting CPU M.)
 */
TEST_F(two_cpus, cpu_wide_opened_off_elsewhere)
{
	int *cpus = self->cpus, fd, other;
	char *buf = self->buf;
	struct value_times vt;

	other = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, RF_TIMES, true, -1,
			      cpus[1]);
	ASSERT_LE(0, other);
	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, RF_TIMES, true, -1,
			   cpus[1]);
	ASSERT_LE(0, fd);
	close(other);

	ASSERT_EQ(0, pin_to_cpu(cpus[1]));
	touch_pages(buf, TOUCH_PAGES);
	ASSERT_EQ(0, read_value_times(fd, &vt));
	EXPECT_EQ(0, vt.value);
	EXPECT_EQ(0, vt.enabled);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(buf + TOUCH_PAGES * getpagesize(), TOUCH_PAGES);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));
	ASSERT_EQ(0, read_value_times(fd, &vt));
	EXPECT_LE(TOUCH_PAGES, vt.value);
	EXPECT_LT(0, vt.enabled);
	EXPECT_EQ(vt.enabled, vt.running);
	close(fd);
}

/*
 * Another task of the same user: a forked child that blocks on a pipe and
 * runs one workload per command byte, acknowledging each on a second pipe.
 */
enum {
	CMD_NOP = 'n',		/* just acknowledge */
	CMD_FAULT = 'f',	/* touch TOUCH_PAGES fresh pages */
	CMD_SPIN = 's',		/* burn SPIN_NS of CPU time */
	CMD_SLEEP = 'z',	/* NR_SLEEPS sleeps of 10ms */
	CMD_EXIT = 'q',
};

static void child_loop(int cmd_fd, int ack_fd)
{
	char *buf;
	char c;
	int i;

	while (read(cmd_fd, &c, 1) == 1) {
		switch (c) {
		case CMD_FAULT:
			buf = map_fresh_pages(TOUCH_PAGES);
			if (!buf)
				_exit(1);
			touch_pages(buf, TOUCH_PAGES);
			munmap(buf, TOUCH_PAGES * getpagesize());
			break;
		case CMD_SPIN:
			spin_cpu_ns(SPIN_NS);
			break;
		case CMD_SLEEP:
			for (i = 0; i < NR_SLEEPS; i++)
				sleep_ms(10);
			break;
		case CMD_EXIT:
			_exit(0);
		}
		if (write(ack_fd, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

struct worker {
	pid_t pid;
	int cmd_fd;		/* commands to the child */
	int ack_fd;		/* the child echoes each command when done */
};

/* Run one workload in the child and wait until it is done. */
static int worker_run(struct worker *w, char cmd)
{
	char c;

	if (write(w->cmd_fd, &cmd, 1) != 1)
		return -1;
	if (read(w->ack_fd, &c, 1) != 1 || c != cmd)
		return -1;
	return 0;
}

FIXTURE(child) {
	struct worker w;
};

FIXTURE_SETUP(child)
{
	int cmd[2], ack[2];

	ASSERT_EQ(0, pipe(cmd));
	ASSERT_EQ(0, pipe(ack));
	self->w.pid = fork();
	ASSERT_LE(0, self->w.pid);
	if (self->w.pid == 0) {
		close(cmd[1]);
		close(ack[0]);
		child_loop(cmd[0], ack[1]);
	}
	close(cmd[0]);
	close(ack[1]);
	self->w.cmd_fd = cmd[1];
	self->w.ack_fd = ack[0];
	/*
	 * One round trip so that the child has finished starting up (and
	 * taken its copy-on-write faults) and waits in read() when the
	 * test begins.
	 */
	ASSERT_EQ(0, worker_run(&self->w, CMD_NOP));
}

FIXTURE_TEARDOWN(child)
{
	char c = CMD_EXIT;
	int status;

	if (write(self->w.cmd_fd, &c, 1) != 1)
		kill(self->w.pid, SIGKILL);
	close(self->w.cmd_fd);
	close(self->w.ack_fd);
	waitpid(self->w.pid, &status, 0);
}

TEST_F(child, open_read_any_cpu)
{
	open_and_read_all(_metadata, self->w.pid, -1);
}

TEST_F(child, page_faults)
{
	struct counter_set f = fault_set;
	__u64 pf[2];
	char *buf;

	set_open(_metadata, &f, self->w.pid, -1);

	/* Our own faults are not the child's. */
	buf = map_fresh_pages(TOUCH_PAGES);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, read_value(f.fd[PF], &pf[0]));
	touch_pages(buf, TOUCH_PAGES);
	ASSERT_EQ(0, read_value(f.fd[PF], &pf[1]));
	EXPECT_GT(10, pf[1] - pf[0]);
	munmap(buf, TOUCH_PAGES * getpagesize());

	/* The child's are. */
	set_start(_metadata, &f);
	ASSERT_EQ(0, worker_run(&self->w, CMD_FAULT));
	set_stop(_metadata, &f);
	check_fault_set(_metadata, &f);
	set_close(&f);
}

TEST_F(child, clocks)
{
	struct counter_set c = clock_set;

	set_open(_metadata, &c, self->w.pid, -1);

	/* Blocked on the pipe while we sleep and spin: no time. */
	set_start(_metadata, &c);
	sleep_ms(100);
	spin_cpu_ns(SPIN_NS);
	set_stop(_metadata, &c);
	EXPECT_GT(IDLE_MAX_NS, c.delta[TASK_CLK]);
	EXPECT_GT(IDLE_MAX_NS, c.delta[CPU_CLK]);

	/* Spinning: time. */
	set_start(_metadata, &c);
	ASSERT_EQ(0, worker_run(&self->w, CMD_SPIN));
	set_stop(_metadata, &c);
	EXPECT_LE(SPIN_MIN_NS, c.delta[TASK_CLK]);
	EXPECT_LE(SPIN_MIN_NS, c.delta[CPU_CLK]);
	set_close(&c);
}

TEST_F(child, context_switches)
{
	__u64 cs[2];
	int fd;

	fd = sw_event_open(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, false,
			   self->w.pid, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, read_value(fd, &cs[0]));
	ASSERT_EQ(0, worker_run(&self->w, CMD_SLEEP));
	ASSERT_EQ(0, read_value(fd, &cs[1]));
	EXPECT_LE(MIN_SWITCHES, cs[1] - cs[0]);
	close(fd);
}

TEST_HARNESS_MAIN
