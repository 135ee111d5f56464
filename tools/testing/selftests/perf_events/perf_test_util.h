/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the perf_events ABI selftests: a raw perf_event_open()
 * wrapper (and one for calls that might hang), an initialiser for software
 * counting events, a few small workloads (touching fresh pages, burning CPU
 * time, moving between CPUs) whose effect on the software counters is
 * predictable, and a forked child that waits at a gate until released.
 *
 * Include this after the C library headers and before
 * "../kselftest_harness.h"; the including file defines _GNU_SOURCE.
 */
#ifndef PERF_TEST_UTIL_H
#define PERF_TEST_UTIL_H

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
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

/* A non-group read() with PERF_FORMAT_TOTAL_TIME_ENABLED | _RUNNING. */
#define RF_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)

struct value_times {
	__u64 value;
	__u64 enabled;
	__u64 running;
};

/* Read a counter opened with read_format RF_TIMES; 0 or -1. */
static inline int read_value_times(int fd, struct value_times *vt)
{
	return read(fd, vt, sizeof(*vt)) == sizeof(*vt) ? 0 : -1;
}

/*
 * A forked child held at a gate, so that events can be opened on it
 * before it does anything: fork_gated() returns 0 in the child once the
 * parent has called gate_release(), and the child's pid in the parent
 * once the child is waiting at the gate (-1 on error).  If @prepare is
 * not NULL, the child runs it first and exits with status 2 if it fails.
 * A child whose gate is closed without being released exits with status 1.
 */
struct gated_child {
	pid_t pid;
	int gate;	/* write end of the gate pipe */
};

static inline pid_t fork_gated(struct gated_child *c, int (*prepare)(void))
{
	int gate[2], ready[2];
	char ch = 0;

	c->pid = -1;
	c->gate = -1;
	if (pipe(gate))
		return -1;
	if (pipe(ready)) {
		close(gate[0]);
		close(gate[1]);
		return -1;
	}
	c->pid = fork();
	if (c->pid == 0) {
		close(gate[1]);
		close(ready[0]);
		if (prepare && prepare())
			_exit(2);
		if (write(ready[1], &ch, 1) != 1)
			_exit(1);
		close(ready[1]);
		if (read(gate[0], &ch, 1) != 1)
			_exit(1);
		close(gate[0]);
		return 0;
	}
	close(gate[0]);
	close(ready[1]);
	if (c->pid > 0 && read(ready[0], &ch, 1) == 1)
		c->gate = gate[1];
	else
		close(gate[1]);
	close(ready[0]);
	return c->gate >= 0 ? c->pid : -1;
}

/* Let the child past its gate; 0 or -1. */
static inline int gate_release(struct gated_child *c)
{
	char ch = 0;
	int ret;

	ret = write(c->gate, &ch, 1) == 1 ? 0 : -1;
	close(c->gate);
	c->gate = -1;
	return ret;
}

/*
 * Reap the child (releasing it first if it is still at the gate, which
 * makes it exit with status 1).  Returns its wait status, or -1.
 */
static inline int gated_wait(struct gated_child *c)
{
	int status;

	if (c->gate >= 0) {
		close(c->gate);
		c->gate = -1;
	}
	if (c->pid <= 0 || waitpid(c->pid, &status, 0) != c->pid)
		return -1;
	c->pid = -1;
	return status;
}

/*
 * perf_event_open() for a call that might never return: the call is made
 * by a helper process, whose descriptor is then copied with pidfd_getfd()
 * (the guest has no sockets to pass it over).  Returns the descriptor,
 * -errno if the open failed, or -ETIMEDOUT if it did not return within
 * @timeout_ms.  A helper stuck in the kernel is left behind: it may be
 * unkillable, and waiting for it would hang the test.
 */
static inline int perf_event_open_timeout(struct perf_event_attr *attr,
					  pid_t pid, int cpu, int group_fd,
					  unsigned long flags, int timeout_ms)
{
	int res[2], hold[2], pidfd, fd;
	struct pollfd pfd;
	pid_t helper;
	char ch;

	if (pipe(res))
		return -errno;
	if (pipe(hold)) {
		fd = -errno;
		close(res[0]);
		close(res[1]);
		return fd;
	}
	helper = fork();
	if (helper == 0) {
		close(res[0]);
		close(hold[1]);
		fd = sys_perf_event_open(attr, pid, cpu, group_fd, flags);
		if (fd < 0)
			fd = -errno;
		if (write(res[1], &fd, sizeof(fd)) != sizeof(fd))
			_exit(1);
		/* Keep the descriptor open until the caller has its copy. */
		_exit(read(hold[0], &ch, 1) == 0 ? 0 : 1);
	}
	close(res[1]);
	close(hold[0]);

	pfd.fd = res[0];
	pfd.events = POLLIN;
	if (helper < 0) {
		fd = -errno;
	} else if (poll(&pfd, 1, timeout_ms) != 1) {
		kill(helper, SIGKILL);
		helper = -1;
		fd = -ETIMEDOUT;
	} else if (read(res[0], &fd, sizeof(fd)) != sizeof(fd)) {
		fd = -EIO;
	} else if (fd >= 0) {
		pidfd = syscall(__NR_pidfd_open, helper, 0);
		if (pidfd >= 0)
			fd = syscall(__NR_pidfd_getfd, pidfd, fd, 0);
		if (pidfd < 0 || fd < 0)
			fd = -errno;
		if (pidfd >= 0)
			close(pidfd);
	}
	close(res[0]);
	close(hold[1]);
	if (helper > 0)
		waitpid(helper, NULL, 0);
	return fd;
}

#endif /* PERF_TEST_UTIL_H */
