// SPDX-License-Identifier: GPL-2.0
/*
 * perf-demo: what `make run` shows.  Says which kernel's perf_event it
 * runs on and which PMU it found, then counts a workload through
 * perf_event_open(2): the task-clock, page faults and context switches,
 * and with a hardware PMU the instructions, cycles and branches, and
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
	unsigned int type;
	unsigned long long config;
} counters[] = {
	{ "task-clock (ns)", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
};

#define NR_COUNTERS (sizeof(counters) / sizeof(counters[0]))

/* Where the hardware PMU's driver shows itself. */
#define CPU_PMU "/sys/bus/event_source/devices/cpu"

static int open_counter(unsigned int type, unsigned long long config,
			pid_t pid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return syscall(__NR_perf_event_open, &attr, pid, -1, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* The first line of @path without its newline into @buf, or "". */
static const char *first_line(const char *path, char *buf, int len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f) {
		if (fgets(buf, len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	return buf;
}

/* The value of the first "@key : value" line of /proc/cpuinfo. */
static const char *cpuinfo(const char *key, char *buf, int len)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	buf[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon && !strncmp(line, key, strlen(key))) {
			snprintf(buf, len, "%s", colon + 2);
			buf[strcspn(buf, "\n")] = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	return buf;
}

/* Which kernel and PMU this is, for a reader who just typed make run. */
static int describe(void)
{
	char kind[64], release[128], vendor[64], gp[16], fixed[16];
	int have_pmu = access(CPU_PMU, F_OK) == 0;

	first_line("/etc/harness-kernel", kind, sizeof(kind));
	first_line("/proc/sys/kernel/osrelease", release, sizeof(release));
	if (!strcmp(kind, "ours"))
		printf("perf-demo: kernel %s with this repository's perf_event (make run KERNEL=upstream: Linux 6.1's own)\n",
		       release);
	else if (!strcmp(kind, "upstream"))
		printf("perf-demo: kernel %s with Linux 6.1's own perf_event, the reference (make run: ours)\n",
		       release);
	else
		printf("perf-demo: kernel %s\n", release);

	cpuinfo("vendor_id", vendor, sizeof(vendor));
	if (!have_pmu) {
		printf("perf-demo: no hardware PMU on this %s CPU: software events only (PMU=intel or PMU=amd for QEMU's emulated one)\n",
		       vendor);
		return 0;
	}
	/* caps/gp_counters and caps/fixed_counters are ours only. */
	first_line(CPU_PMU "/caps/gp_counters", gp, sizeof(gp));
	first_line(CPU_PMU "/caps/fixed_counters", fixed, sizeof(fixed));
	if (gp[0])
		printf("perf-demo: hardware PMU: %s, %s general and %s fixed counters\n",
		       vendor, gp, fixed[0] ? fixed : "0");
	else
		printf("perf-demo: hardware PMU: %s\n", vendor);
	return 1;
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
	int fd[NR_COUNTERS], go[2], status, have_pmu;
	pid_t child = 0;
	unsigned int i;

	have_pmu = describe();

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
		fd[i] = -1;
		if (counters[i].type == PERF_TYPE_HARDWARE && !have_pmu)
			continue;
		fd[i] = open_counter(counters[i].type, counters[i].config,
				     child);
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

	printf("perf-demo: counts for %s\n",
	       child ? argv[1] :
	       "the built-in workload (touch 256 pages, sleep 10 x 10 ms, spin 50 ms)");
	for (i = 0; i < NR_COUNTERS; i++) {
		uint64_t v[3];

		if (fd[i] < 0)
			continue;
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
