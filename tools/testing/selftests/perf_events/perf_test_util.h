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
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/perf_event.h>

#define NSEC_PER_MSEC		1000000ULL

/*
 * The fault tests touch this many fresh anonymous pages and accept at most
 * FAULT_SLACK extra faults from whatever else the task does meanwhile.
 */
#define TOUCH_PAGES		100
#define FAULT_SLACK		50

/*
 * For a test (it expands after ../kselftest_harness.h): @faults counts
 * the TOUCH_PAGES faults and fewer than @slack others.
 */
#define EXPECT_TOUCH_FAULTS(faults, slack) do {				\
	__u64 __faults = (faults);					\
									\
	EXPECT_LE(TOUCH_PAGES, __faults) TH_LOG("%s", #faults);		\
	EXPECT_GT(TOUCH_PAGES + (slack), __faults) TH_LOG("%s", #faults);	\
} while (0)

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

/* The errno of opening @attr on @pid, @cpu (closed if it opened), or 0. */
static inline int perf_open_errno(struct perf_event_attr *attr, pid_t pid,
				  int cpu)
{
	int fd = sys_perf_event_open(attr, pid, cpu, -1, 0);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

/*
 * What a PMU of CPU-wide counters (RAPL's energy, the C-state
 * residencies) refuses with EINVAL of @attr, an event it opens on CPU 0:
 * the event on this task (with a CPU or without), sampling, and
 * excluding the kernel or user space.
 */
#define EXPECT_CPU_COUNTER_REFUSALS(attr) do {				\
	const struct perf_event_attr __good = *(attr);			\
	struct perf_event_attr __a = __good;				\
									\
	EXPECT_EQ(EINVAL, perf_open_errno(&__a, 0, -1));		\
	EXPECT_EQ(EINVAL, perf_open_errno(&__a, 0, 0));			\
	__a.sample_period = 1000;					\
	EXPECT_EQ(EINVAL, perf_open_errno(&__a, -1, 0));		\
	__a = __good;							\
	__a.exclude_kernel = 1;						\
	EXPECT_EQ(EINVAL, perf_open_errno(&__a, -1, 0));		\
	__a = __good;							\
	__a.exclude_user = 1;						\
	EXPECT_EQ(EINVAL, perf_open_errno(&__a, -1, 0));		\
} while (0)

/*
 * Are we on our kernel rather than the 6.1 reference, for the few checks
 * of documented extensions?  Our test kernels have the perf_test PMU.
 */
static inline bool ours_kernel(void)
{
	return !access("/sys/bus/event_source/devices/perf_test", F_OK);
}

/* Close the @n descriptors of @fds that are open (not negative). */
static inline void close_fds(const int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* A counting event of PMU @type and @config, enabled at open. */
static inline void pmu_attr_init(struct perf_event_attr *attr, int type,
				 __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
}

/* A counting (non-sampling) PERF_TYPE_SOFTWARE event, enabled at open. */
static inline void sw_attr_init(struct perf_event_attr *attr, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = config;
}

/* ... joining the group led by @group_fd (-1: none). */
static inline int sw_event_open_group(__u64 config, __u64 read_format,
				      bool disabled, pid_t pid, int cpu,
				      int group_fd)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, config);
	attr.read_format = read_format;
	attr.disabled = disabled;
	return sys_perf_event_open(&attr, pid, cpu, group_fd, 0);
}

static inline int sw_event_open(__u64 config, __u64 read_format,
				bool disabled, pid_t pid, int cpu)
{
	return sw_event_open_group(config, read_format, disabled, pid, cpu,
				   -1);
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

/* Context switches of the calling thread so far, or -1. */
static inline long thread_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -1;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * Sleep until this thread has been switched out @nr times: a short sleep
 * does not always switch, as its timer may expire before the thread gets
 * to schedule().  Gives up after 100 sleeps.
 */
static inline void switch_out(long nr)
{
	long start = thread_switches();
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (thread_switches() - start >= nr)
			return;
		sleep_ms(1);
	}
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

/* Map @nr fresh pages and fault each of them in once; 0 or -1. */
static inline int fault_fresh_pages(size_t nr)
{
	char *p = map_fresh_pages(nr);

	if (!p)
		return -1;
	touch_pages(p, nr);
	return 0;
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
 * Release the child and reap it.  Returns its wait status, which is 0
 * just when it exited with status 0, or -1 if it could not be released
 * (it is reaped all the same) or reaped.
 */
static inline int gated_run(struct gated_child *c)
{
	int released = gate_release(c), status = gated_wait(c);

	return released ? -1 : status;
}

/* Reap @pid: its wait status (0: it exited with status 0), or -1. */
static inline int reap_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/*
 * perf_event_open() made by a helper process, whose descriptor is then
 * copied with pidfd_getfd() (the guest has no sockets to pass it over):
 * for a call that might never return, or one made with other credentials.
 * The helper runs @prepare first (if not NULL), for instance to drop its
 * privileges, and gives up with -ECANCELED if that fails.  Returns the
 * descriptor, -errno if the open failed, or -ETIMEDOUT if it did not
 * return within @timeout_ms.  A helper stuck in the kernel is left behind:
 * it may be unkillable, and waiting for it would hang the test.  The
 * event's owner is the helper, which has exited by the time this returns.
 */
static inline int perf_event_open_helper(struct perf_event_attr *attr,
					 pid_t pid, int cpu, int group_fd,
					 unsigned long flags, int timeout_ms,
					 int (*prepare)(void))
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
		if (prepare && prepare())
			fd = -ECANCELED;
		else
			fd = sys_perf_event_open(attr, pid, cpu, group_fd,
						 flags);
		if (fd == -1)
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

static inline int perf_event_open_timeout(struct perf_event_attr *attr,
					  pid_t pid, int cpu, int group_fd,
					  unsigned long flags, int timeout_ms)
{
	return perf_event_open_helper(attr, pid, cpu, group_fd, flags,
				      timeout_ms, NULL);
}

/*
 * A PERF_FORMAT_GROUP read(), split up: nr, the group's times (left at 0
 * unless read_format asks for them), then one entry per member, leader
 * first, in the order the members joined.
 */
#define GROUP_MAX_MEMBERS	16

struct group_entry {
	__u64 value;
	__u64 id;	/* 0 unless PERF_FORMAT_ID */
	__u64 lost;	/* 0 unless PERF_FORMAT_LOST */
};

struct group_reading {
	__u64 nr;
	__u64 enabled;
	__u64 running;
	struct group_entry member[GROUP_MAX_MEMBERS];
};

/* Number of u64 words a group read() of @nr members returns. */
static inline size_t group_read_words(__u64 read_format, size_t nr)
{
	size_t entry = 1 + !!(read_format & PERF_FORMAT_ID) +
		       !!(read_format & PERF_FORMAT_LOST);

	return 1 + !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	       !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) + nr * entry;
}

/*
 * Split the @bytes a group read() returned into @g, for the @read_format
 * of the descriptor read.  Returns 0, or -1 if @bytes does not match the
 * layout for the nr the read starts with (or nr is out of range).
 */
static inline int group_split(const __u64 *buf, ssize_t bytes,
			      __u64 read_format, struct group_reading *g)
{
	size_t i = 0, m;

	memset(g, 0, sizeof(*g));
	if (bytes < (ssize_t)sizeof(__u64))
		return -1;
	g->nr = buf[i++];
	if (!g->nr || g->nr > GROUP_MAX_MEMBERS ||
	    (size_t)bytes != group_read_words(read_format, g->nr) *
			     sizeof(__u64))
		return -1;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		g->enabled = buf[i++];
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		g->running = buf[i++];
	for (m = 0; m < g->nr; m++) {
		g->member[m].value = buf[i++];
		if (read_format & PERF_FORMAT_ID)
			g->member[m].id = buf[i++];
		if (read_format & PERF_FORMAT_LOST)
			g->member[m].lost = buf[i++];
	}
	return 0;
}

/* read() a group on @fd (opened with @read_format) into @g; 0 or -1. */
static inline int read_group(int fd, __u64 read_format,
			     struct group_reading *g)
{
	__u64 buf[3 + 3 * GROUP_MAX_MEMBERS];
	ssize_t n;

	n = read(fd, buf, sizeof(buf));
	return n < 0 ? -1 : group_split(buf, n, read_format, g);
}

/*
 * The offset in its file of @addr, in the mapping of this process that
 * holds it (/proc/self/maps): what a uprobe on it is given; -1 if none.
 */
static inline long maps_file_offset(const void *addr)
{
	unsigned long start, end, off, a = (unsigned long)addr;
	char line[512];
	long offset = -1;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &off) == 3 &&
		    a >= start && a < end) {
			offset = a - start + off;
			break;
		}
	}
	fclose(f);
	return offset;
}

/* A small file's contents (at most @size - 1 bytes), NUL terminated; 0 or -1. */
static inline int read_small_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/*
 * Files holding one integer, such as sysctls in /proc/sys and CPU states
 * in /sys: 0, or -1 with errno set (EINVAL if the file holds no number).
 */
static inline int read_int_file(const char *path, int *value)
{
	char buf[32], *end;
	long v;

	if (read_small_file(path, buf, sizeof(buf)))
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || errno || v < INT32_MIN || v > INT32_MAX) {
		errno = EINVAL;
		return -1;
	}
	*value = v;
	return 0;
}

/* Write @str in a single write() from offset 0; 0 or -1 with errno. */
static inline int write_str_file(const char *path, const char *str)
{
	ssize_t len = strlen(str), n;
	int fd, err;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, str, len);
	err = errno;
	close(fd);
	if (n == len)
		return 0;
	errno = n < 0 ? err : EIO;
	return -1;
}

static inline int write_int_file(const char *path, int value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d\n", value);
	return write_str_file(path, buf);
}

/*
 * Whether the running kernel was built with CONFIG_@option=y (or =m), as
 * /boot/config-<release> says; false when that file is absent.
 */
static inline bool kernel_config_has(const char *option)
{
	char path[128 + sizeof(((struct utsname *)0)->release)], line[256];
	struct utsname u;
	size_t len = strlen(option);
	bool found = false;
	FILE *f;

	if (uname(&u))
		return false;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "CONFIG_", 7) &&
			!strncmp(line + 7, option, len) &&
			line[7 + len] == '=' &&
			(line[8 + len] == 'y' || line[8 + len] == 'm');
	fclose(f);
	return found;
}

#define PARANOID_PATH	"/proc/sys/kernel/perf_event_paranoid"

/*
 * perf_event_paranoid at boot: 2, or 3 where Debian's
 * CONFIG_SECURITY_PERF_EVENTS_RESTRICT is set (as in Debian's own kernel
 * configuration; the guest's leaves it out).
 */
static inline int paranoid_default(void)
{
	return kernel_config_has("SECURITY_PERF_EVENTS_RESTRICT") ? 3 : 2;
}

static int paranoid_saved = 2;

static inline void paranoid_restore(void)
{
	write_int_file(PARANOID_PATH, paranoid_saved);
}

/*
 * For tests written for level 2 and below: lower perf_event_paranoid to 2
 * if it is higher (Debian's level 3 refuses every unprivileged open) and
 * put it back at exit.  Call it from a constructor.
 */
static inline void paranoid_at_most_2(void)
{
	if (read_int_file(PARANOID_PATH, &paranoid_saved) || paranoid_saved <= 2)
		return;
	if (!write_int_file(PARANOID_PATH, 2))
		atexit(paranoid_restore);
}

/* The unprivileged user the permission tests become. */
#define NOBODY		65534

/*
 * Become uid and gid @id, with no supplementary groups: a root caller
 * loses all its capabilities (and, as the credentials change, its
 * dumpability: see fs.suid_dumpable).  0 or -1.
 */
static inline int drop_privileges(uid_t id)
{
	if (setgroups(0, NULL) || setresgid(id, id, id) ||
	    setresuid(id, id, id))
		return -1;
	return geteuid() == id && getegid() == id ? 0 : -1;
}

/* drop_privileges(NOBODY), as a @prepare for perf_event_open_helper(). */
static inline int become_nobody(void)
{
	return drop_privileges(NOBODY);
}

/*
 * Give up capability @cap (effective, permitted and inheritable), staying
 * root otherwise; 0 or -1.
 */
static inline int drop_capability(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	__u32 bit = 1U << (cap % 32);
	int i = cap / 32;

	if (syscall(__NR_capget, &hdr, data))
		return -1;
	data[i].effective &= ~bit;
	data[i].permitted &= ~bit;
	data[i].inheritable &= ~bit;
	return syscall(__NR_capset, &hdr, data);
}

#endif /* PERF_TEST_UTIL_H */
