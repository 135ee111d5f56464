// SPDX-License-Identifier: GPL-2.0
/*
 * perf-bench: times the perf paths the guide asks to be fast, in the
 * guest: open+close of a counter, read(), context switches and page
 * faults while counters run.  Each line is "name ns-per-operation".  Run
 * it on both kernels under QEMU with -icount (HARNESS_ICOUNT=1), where
 * the guest clock follows executed instructions, and compare:
 *
 *   HARNESS_ICOUNT=1 make run CMD=perf-bench
 *   HARNESS_ICOUNT=1 make run KERNEL=upstream CMD=perf-bench
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int open_sw(unsigned long long config)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

static void report(const char *name, unsigned long long t0, long n)
{
	printf("%-28s %8llu ns/op\n", name, (now_ns() - t0) / n);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Round trips over two pipes between two tasks on one CPU. */
static void ping_pong(long n)
{
	int ab[2], ba[2];
	char c = 0;
	pid_t pid;
	long i;

	if (pipe(ab) || pipe(ba))
		exit(1);
	pid = fork();
	if (!pid) {
		for (i = 0; i < n; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			exit(1);
	waitpid(pid, NULL, 0);
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
}

static void touch(long pages)
{
	long page = sysconf(_SC_PAGESIZE), i;
	char *p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(1);
	for (i = 0; i < pages; i++)
		p[i * page] = 1;
	munmap(p, pages * page);
}

int main(void)
{
	unsigned long long t0, buf[3];
	const long n_open = 2000, n_read = 20000, n_switch = 5000;
	const long n_fault = 20000;
	int fd[3], i;
	long k;

	pin(0);

	t0 = now_ns();
	for (k = 0; k < n_open; k++)
		close(open_sw(PERF_COUNT_SW_TASK_CLOCK));
	report("open+close task-clock", t0, n_open);

	fd[0] = open_sw(PERF_COUNT_SW_TASK_CLOCK);
	t0 = now_ns();
	for (k = 0; k < n_read; k++)
		if (read(fd[0], buf, sizeof(buf)) != sizeof(buf))
			return 1;
	report("read task-clock", t0, n_read);
	close(fd[0]);

	t0 = now_ns();
	ping_pong(n_switch);
	report("pipe round trip, no events", t0, n_switch);

	fd[0] = open_sw(PERF_COUNT_SW_TASK_CLOCK);
	fd[1] = open_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	fd[2] = open_sw(PERF_COUNT_SW_PAGE_FAULTS);
	t0 = now_ns();
	ping_pong(n_switch);
	report("pipe round trip, 3 events", t0, n_switch);

	t0 = now_ns();
	touch(n_fault);
	report("page fault, 3 events", t0, n_fault);
	for (i = 0; i < 3; i++)
		close(fd[i]);

	t0 = now_ns();
	touch(n_fault);
	report("page fault, no events", t0, n_fault);
	return 0;
}
