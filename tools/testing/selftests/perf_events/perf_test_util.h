/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the perf_events ABI selftests: a raw perf_event_open()
 * wrapper, an initialiser for software counting events, and a few small
 * workloads (touching fresh pages, burning CPU time, moving between CPUs)
 * whose effect on the software counters is predictable.
 *
 * Include this after the C library headers and before
 * "../kselftest_harness.h"; the including file defines _GNU_SOURCE.
 */
#ifndef PERF_TEST_UTIL_H
#define PERF_TEST_UTIL_H

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#define NSEC_PER_MSEC		1000000ULL

/*
 * The fault tests touch this many fresh anonymous pages and accept at most
 * FAULT_SLACK extra faults from whatever else the task does meanwhile.
 */
#define TOUCH_PAGES		100
#define FAULT_SLACK		50

/* The read_format bits a non-group read can carry, in read() order. */
#define RF_TIMES_ID	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING | \
			 PERF_FORMAT_ID)

static inline int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				      int cpu, int group_fd,
				      unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* A counting (non-sampling) PERF_TYPE_SOFTWARE event, enabled at open. */
static inline void sw_attr_init(struct perf_event_attr *attr, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = config;
}

static inline int sw_event_open(__u64 config, __u64 read_format,
				bool disabled, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, config);
	attr.read_format = read_format;
	attr.disabled = disabled;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/*
 * Read a counter whose read_format has no optional fields.  Returns 0 and
 * stores the value, or -1 if read() did not return exactly one u64.
 */
static inline int read_value(int fd, __u64 *value)
{
	return read(fd, value, sizeof(*value)) == sizeof(*value) ? 0 : -1;
}

/* Number of u64 words a non-group read() returns for @read_format. */
static inline size_t read_format_words(__u64 read_format)
{
	return 1 + __builtin_popcountll(read_format & (RF_TIMES_ID |
						       PERF_FORMAT_LOST));
}

static inline __u64 clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Burn @ns of this thread's CPU time.  Measuring the thread's own CPU clock
 * rather than wall time keeps the amount of work fixed however slowly the
 * (possibly emulated) CPU runs or however often we are preempted.
 */
static inline void spin_cpu_ns(__u64 ns)
{
	__u64 end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

static inline void sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (ms % 1000) * NSEC_PER_MSEC,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Map @nr pages of anonymous memory without touching them.  Huge pages are
 * refused for the range so that each page costs exactly one fault.
 */
static inline char *map_fresh_pages(size_t nr)
{
	size_t len = nr * getpagesize();
	char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* May fail without THP support; then there is nothing to refuse. */
	madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

/* Write one byte to each of the @nr pages starting at @p. */
static inline void touch_pages(char *p, size_t nr)
{
	size_t psz = getpagesize();
	size_t i;

	for (i = 0; i < nr; i++) {
		p[i * psz] = 1;
		/* Keep the compiler from merging or dropping the stores. */
		asm volatile("" : : "r" (p) : "memory");
	}
}

static inline int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Fill @cpus with up to @max CPUs this task may run on (in ascending order)
 * and return how many were found.
 */
static inline int allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int cpu, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[n++] = cpu;
	return n;
}

#endif /* PERF_TEST_UTIL_H */
