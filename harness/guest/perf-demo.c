// SPDX-License-Identifier: GPL-2.0
/*
 * perf-demo: what `make run` shows.  Counts the task-clock, page faults
 * and context switches of a workload through perf_event_open(2) and
 * prints them.  Without arguments the workload is built in (touch pages,
 * sleep, spin); with arguments it is that command, run in a child.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const struct {
	const char *name;
	unsigned long long config;
} counters[] = {
	{ "task-clock (ns)", PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
};

#define NR_COUNTERS (sizeof(counters) / sizeof(counters[0]))

static int open_counter(unsigned long long config, pid_t pid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	attr.disabled = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return syscall(__NR_perf_event_open, &attr, pid, -1, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

static void builtin_workload(void)
{
	size_t page = sysconf(_SC_PAGESIZE), i;
	struct timespec nap = { 0, 10 * 1000 * 1000 }, t0, t;
	char *buf = mmap(NULL, 256 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buf == MAP_FAILED)
		exit(1);
	for (i = 0; i < 256; i++)
		buf[i * page] = 1;
	for (i = 0; i < 10; i++)
		nanosleep(&nap, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec <
	       50000000L);
	munmap(buf, 256 * page);
}

int main(int argc, char **argv)
{
	int fd[NR_COUNTERS], go[2], status;
	pid_t child = 0;
	unsigned int i;

	if (argc > 1) {
		if (pipe(go))
			return 1;
		child = fork();
		if (child == 0) {
			char c;

			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(127);
			execvp(argv[1], argv + 1);
			perror(argv[1]);
			_exit(127);
		}
		close(go[0]);
	}

	for (i = 0; i < NR_COUNTERS; i++) {
		fd[i] = open_counter(counters[i].config, child);
		if (fd[i] < 0) {
			perror("perf_event_open");
			return 1;
		}
		ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
	}

	if (child) {
		if (write(go[1], "x", 1) != 1)
			return 1;
		waitpid(child, &status, 0);
	} else {
		builtin_workload();
	}

	printf("perf-demo: counts for %s\n", child ? argv[1] : "the built-in workload");
	for (i = 0; i < NR_COUNTERS; i++) {
		uint64_t v[3];

		ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd[i], v, sizeof(v)) != sizeof(v)) {
			perror("read");
			return 1;
		}
		printf("  %-18s %14llu   (enabled %llu ns, running %llu ns)\n",
		       counters[i].name, (unsigned long long)v[0],
		       (unsigned long long)v[1], (unsigned long long)v[2]);
		close(fd[i]);
	}
	return 0;
}
