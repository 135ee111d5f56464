// SPDX-License-Identifier: GPL-2.0
/*
 * perf-bench: times the perf paths the guide asks to be fast, in the
 * guest: open+close of a counter, read(), context switches and page
 * faults while counters run, and sampling: page faults that each
 * overflow a period-1 event into a ring buffer, and samples per second
 * through the buffer.  Each line is "name value unit".  Run it on both
 * kernels under QEMU with -icount, where the guest clock follows
 * executed instructions; `make bench` does that and prints the ratios.
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

static unsigned long long report(const char *name, unsigned long long t0,
				 long n)
{
	unsigned long long per_op = (now_ns() - t0) / n;

	printf("%-36s %10llu ns/op\n", name, per_op);
	return per_op;
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

/*
 * A period-1 page-fault event sampling IP, TID, TIME and PERIOD into a
 * read-only (overwriting) buffer of 64 pages.  Return the fd, the
 * mapping in *map.
 */
static int open_sampling(void **map, size_t *len)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr.exclude_kernel = 1;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		exit(1);
	*len = 65 * sysconf(_SC_PAGESIZE);
	*map = mmap(NULL, *len, PROT_READ, MAP_SHARED, fd, 0);
	if (*map == MAP_FAILED)
		exit(1);
	return fd;
}

static void bench_sampling(long n_fault, unsigned long long no_events)
{
	struct perf_event_mmap_page *up;
	unsigned long long t0, per_fault, bytes;
	size_t len;
	void *map;
	int fd;

	fd = open_sampling(&map, &len);
	up = map;
	t0 = now_ns();
	touch(n_fault);
	per_fault = report("page fault, sampled (period 1)", t0, n_fault);
	bytes = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
	/* header 8 + ip 8 + pid/tid 8 + time 8 + period 8 */
	printf("%-36s %10llu records\n", "samples written", bytes / 40);
	printf("%-36s %10llu ns/op\n", "software-event overflow cost",
	       per_fault > no_events ? per_fault - no_events : 0);
	printf("%-36s %10llu samples/s\n", "samples through the buffer",
	       per_fault ? 1000000000ULL / per_fault : 0);
	munmap(map, len);
	close(fd);
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
	bench_sampling(n_fault, report("page fault, no events", t0, n_fault));
	return 0;
}
