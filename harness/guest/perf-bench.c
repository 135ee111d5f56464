// SPDX-License-Identifier: GPL-2.0
/*
 * perf-bench: times the perf paths the guide asks to be fast, in the
 * guest: open+close of a counter, read(), context switches and page
 * faults while counters run, what 1, 4, 16 and 64 inherited counters add
 * to a switch between two threads and between a parent and its child
 * (both carrying copies of them) and as many counters of the parent
 * alone, and sampling: page faults that each
 * overflow a period-1 event into a ring buffer, and samples per second
 * through the buffer; with a hardware PMU, the same for hardware events,
 * the cost of one overflow NMI written to a ring buffer, and a
 * self-monitoring rdpmc read through the control page.  And how costs
 * grow: read() of a group of 1 to 64 counters, fork+exit of a process
 * carrying 0 to 16 inherited counters, what `perf stat` adds to a
 * program of 2 to 16 threads, and open+close of a task's counter and
 * of a `perf record -a` set of one sampling event per CPU on as many
 * CPUs as the guest has.  Each line is "name value unit".  Run it on
 * both kernels under QEMU with -icount, where the guest clock follows
 * executed instructions; `make bench` does that and prints the ratios.
 *
 *   perf-bench [quick]         everything (quick: fewer rows, shorter)
 *   perf-bench cpus            only the rows that grow with the CPUs
 *   perf-bench open N          only N opens and closes, for a profile
 *   perf-bench group           only read() of a counter and of groups
 *   perf-bench precise         PEBS and LBR: a sample of one record a
 *                              PMI, of large PEBS, with a 32-entry
 *                              branch stack, and a switch between tasks
 *                              with LBR call-stack events (skylake)
 *   perf-bench profile         group reads and fork+exit, smallest and
 *                              largest, in windows for make profile
 *   perf-bench threads N K     N threads yielding K times each; prints
 *                              the ns per yield (what perf stat wraps)
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* "perf-bench quick": fewer rows and iterations, for the inner loop. */
static bool quick;
/* "perf-bench profile": only windows the scaling rows' profile needs. */
static bool profile;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A counting event of @type and @config that reads its times. */
static void count_attr(struct perf_event_attr *attr, unsigned int type,
		       unsigned long long config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
}

static int open_sw(unsigned long long config)
{
	struct perf_event_attr attr;

	count_attr(&attr, PERF_TYPE_SOFTWARE, config);
	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

/* A hardware event of this task, counting user and kernel, or -1. */
static int open_hw(unsigned long long config, unsigned long long period)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = config;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr.exclude_kernel = !!period;
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

/* What a measurement begun at @t0 adds to @base per operation. */
static void report_extra(const char *name, unsigned long long t0, long n,
			 unsigned long long base)
{
	unsigned long long per_op = (now_ns() - t0) / n;

	printf("%-36s %10llu ns/op\n", name, per_op > base ? per_op - base : 0);
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

/* The other end of a ping-pong between two threads. */
struct pong {
	int ab[2], ba[2];
	long n;
};

static void *pong_thread(void *arg)
{
	struct pong *p = arg;
	char c = 0;
	long i;

	for (i = 0; i < p->n; i++)
		if (read(p->ab[0], &c, 1) != 1 || write(p->ba[1], &c, 1) != 1)
			exit(1);
	return NULL;
}

/* Round trips over two pipes between two threads of this process. */
static void ping_pong_threads(long n)
{
	struct pong p = { .n = n };
	pthread_t thread;
	char c = 0;
	long i;

	if (pipe(p.ab) || pipe(p.ba) ||
	    pthread_create(&thread, NULL, pong_thread, &p))
		exit(1);
	for (i = 0; i < n; i++)
		if (write(p.ab[1], &c, 1) != 1 || read(p.ba[0], &c, 1) != 1)
			exit(1);
	pthread_join(thread, NULL);
	close(p.ab[0]);
	close(p.ab[1]);
	close(p.ba[0]);
	close(p.ba[1]);
}

/* One "switch extra" row: @play's round trips less @base, each. */
static void switch_extra(int nr, const char *who, void (*play)(long), long n,
			 unsigned long long base)
{
	unsigned long long t0 = now_ns(), per_op;
	char name[64];

	play(n);
	per_op = (now_ns() - t0) / n;
	snprintf(name, sizeof(name), "switch extra, %d %s", nr, who);
	printf("%-36s %10llu ns/op\n", name, per_op > base ? per_op - base : 0);
}

/*
 * Open @nr software counters of this task, inherited or not, into @fd:
 * task-clock, context-switches, cpu-migrations, page-faults, over and
 * over, as perf stat opens them.  The first is the group leader of the
 * others if @group.
 */
static void open_sw_set(int *fd, int nr, bool inherit, bool group)
{
	static const unsigned long long sw[] = {
		PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
		PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_PAGE_FAULTS,
	};
	struct perf_event_attr attr;
	int i;

	for (i = 0; i < nr; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = sw[i % 4];
		attr.inherit = inherit;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		if (group)
			attr.read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		fd[i] = syscall(__NR_perf_event_open, &attr, 0, -1,
				group && i ? fd[0] : -1, 0);
		if (fd[i] < 0)
			exit(1);
	}
}

static void close_all(int *fd, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		close(fd[i]);
}

/*
 * What @nr software counters (open_sw_set()) add to a round trip: the
 * round trip's cost minus @threads_base, @procs_base without counters.
 * Inherited, between two threads and between a parent and its child,
 * which both carry copies of them; not inherited, between a parent that
 * has them and a child that has none.
 */
static void bench_switch(int nr, bool inherit, long n,
			 unsigned long long threads_base,
			 unsigned long long procs_base)
{
	int fd[64];

	open_sw_set(fd, nr, inherit, false);
	if (inherit) {
		switch_extra(nr, "inherited, threads", ping_pong_threads, n,
			     threads_base);
		switch_extra(nr, "inherited, procs", ping_pong, n, procs_base);
	} else {
		switch_extra(nr, "own, parent only", ping_pong, n, procs_base);
	}
	close_all(fd, nr);
}

/*
 * The start or the end of a measured window: "xchg %bx,%bx" does
 * nothing, and the instruction profiler of harness/profile.sh takes it
 * as a mark.  prof_window() names the window just closed and its number
 * of operations, by which the profile is divided.
 */
#define PROF_MARK() __asm__ __volatile__("xchg %%bx, %%bx" : : : "memory")

static void prof_window(const char *name, unsigned long long ops)
{
	static int windows;

	printf("prof window %d: %llu ops: %s\n", ++windows, ops, name);
}

/* read() of a group of @nr software counters, the leader's fd. */
static void bench_group_read(int nr, long n)
{
	unsigned long long buf[3 + 2 * 64], t0;
	size_t len = (3 + 2 * nr) * sizeof(buf[0]);
	char name[64];
	int fd[64];
	long k;

	open_sw_set(fd, nr, false, true);
	snprintf(name, sizeof(name), "read group of %d event%s", nr,
		 nr > 1 ? "s" : "");
	t0 = now_ns();
	if (profile)
		PROF_MARK();
	for (k = 0; k < n; k++)
		if (read(fd[0], buf, len) != (ssize_t)len)
			exit(1);
	if (profile)
		PROF_MARK();
	report(name, t0, n);
	if (profile)
		prof_window(name, n);
	close_all(fd, nr);
}

/*
 * fork() of a child that exits at once, and the wait for it, with @nr
 * inherited counters (open_sw_set()) that the child gets copies of and
 * gives its counts back from at exit.  Returns the ns per fork.
 */
static unsigned long long fork_cost(int nr, long n)
{
	unsigned long long t0, per_op;
	char name[64];
	int fd[64];
	pid_t pid;
	long k;

	open_sw_set(fd, nr, true, false);
	t0 = now_ns();
	if (profile)
		PROF_MARK();
	for (k = 0; k < n; k++) {
		pid = fork();
		if (!pid)
			_exit(0);
		if (pid < 0 || waitpid(pid, NULL, 0) != pid)
			exit(1);
	}
	if (profile)
		PROF_MARK();
	per_op = (now_ns() - t0) / n;
	if (profile) {
		snprintf(name, sizeof(name), "fork+exit, %d inherited", nr);
		prof_window(name, n);
	}
	close_all(fd, nr);
	return per_op;
}

#define FORK_ROUNDS	5

/*
 * fork+exit with no counter, then what each of @nr[0..@count) inherited
 * counters adds to it, @n forks each.  A fork's cost moves with what the
 * kernel left to do from before (freeing, RCU callbacks), and an extra is
 * the difference of two such costs: so the forks go in FORK_ROUNDS rounds
 * that take every count in turn, and each count keeps its cheapest round.
 */
static void bench_fork(const int *nr, int count, long n)
{
	unsigned long long best[8], cost;
	char name[64];
	int r, i;

	for (i = 0; i <= count; i++)
		best[i] = ~0ULL;
	for (r = 0; r < FORK_ROUNDS; r++) {
		for (i = 0; i <= count; i++) {
			cost = fork_cost(i ? nr[i - 1] : 0, n / FORK_ROUNDS);
			if (cost < best[i])
				best[i] = cost;
		}
	}
	printf("%-36s %10llu ns/op\n", "fork+exit, no events", best[0]);
	for (i = 1; i <= count; i++) {
		snprintf(name, sizeof(name), "fork+exit extra, %d inherited",
			 nr[i - 1]);
		printf("%-36s %10llu ns/op\n", name,
		       best[i] > best[0] ? best[i] - best[0] : 0);
	}
}

/* A user-space loop of @n iterations, a few instructions each. */
static void __attribute__((noinline)) spin(long n)
{
	long i;

	for (i = 0; i < n; i++)
		__asm__ __volatile__("" : : "r"(i) : "memory");
}

/* "perf-bench threads": each thread spins and yields the CPU K times. */
static void *yield_thread(void *arg)
{
	long k, n = (long)arg;

	for (k = 0; k < n; k++) {
		spin(1000);
		sched_yield();
	}
	return NULL;
}

/* Start @nr threads yielding @n times each; print the ns per yield. */
static int run_threads(int nr, long n)
{
	unsigned long long t0 = now_ns();
	pthread_t thread[64];
	int i;

	if (nr < 1 || nr > 64)
		return 1;
	for (i = 0; i < nr; i++)
		if (pthread_create(&thread[i], NULL, yield_thread, (void *)n))
			return 1;
	for (i = 0; i < nr; i++)
		pthread_join(thread[i], NULL);
	printf("%llu\n", (now_ns() - t0) / (nr * n));
	return 0;
}

/* The first number @cmd prints, or 0 if it fails. */
static unsigned long long run_cmd(const char *cmd)
{
	unsigned long long v = 0;
	FILE *f = popen(cmd, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	if (pclose(f))
		v = 0;
	return v;
}

/*
 * A program of @nr threads (run_threads()) alone and under Debian's
 * perf stat with its default events (software and hardware, inherited
 * by every thread): the cost per yield of each, and what perf stat adds.
 * Nothing is printed without perf in the guest.
 */
static void bench_perf_stat(int nr, long n)
{
	unsigned long long plain, stat;
	char cmd[128], name[64];
	const char *s = nr > 1 ? "s" : "";

	if (access("/usr/bin/perf", X_OK))
		return;
	snprintf(cmd, sizeof(cmd), "perf-bench threads %d %ld", nr, n);
	plain = run_cmd(cmd);
	snprintf(cmd, sizeof(cmd),
		 "perf stat -o /dev/null perf-bench threads %d %ld", nr, n);
	stat = run_cmd(cmd);
	if (!plain || !stat)
		exit(1);
	snprintf(name, sizeof(name), "%d thread%s, no perf stat", nr, s);
	printf("%-36s %10llu ns/op\n", name, plain);
	snprintf(name, sizeof(name), "perf stat extra, %d thread%s", nr, s);
	printf("%-36s %10llu ns/op\n", name, stat > plain ? stat - plain : 0);
}

/*
 * The events perf record -a opens, one per CPU: sampling cycles
 * (cpu-clock without a PMU) at 4000 Hz, each with a ring buffer of 8
 * pages; @nr of them opened and mapped, enabled, disabled, drained (perf
 * record reads data_head in each control page before it unmaps it; here
 * nothing was written), unmapped and closed,
 * @n times.  Returns the ns per set.
 */
static unsigned long long system_wide(int nr, long n)
{
	size_t len = 9 * sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	unsigned long long t0;
	void *map[64];
	int fd[64], c;
	long k;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.freq = 1;
	attr.sample_freq = 4000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD;
	attr.disabled = 1;
	attr.mmap = 1;
	attr.comm = 1;
	attr.task = 1;
	fd[0] = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	if (fd[0] < 0) {
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_CPU_CLOCK;
	} else {
		close(fd[0]);
	}
	t0 = now_ns();
	if (profile)
		PROF_MARK();
	for (k = 0; k < n; k++) {
		for (c = 0; c < nr; c++) {
			fd[c] = syscall(__NR_perf_event_open, &attr, -1, c,
					-1, 0);
			if (fd[c] < 0)
				exit(1);
			map[c] = mmap(NULL, len, PROT_READ | PROT_WRITE,
				      MAP_SHARED, fd[c], 0);
			if (map[c] == MAP_FAILED)
				exit(1);
		}
		for (c = 0; c < nr; c++)
			ioctl(fd[c], PERF_EVENT_IOC_ENABLE, 0);
		for (c = 0; c < nr; c++)
			ioctl(fd[c], PERF_EVENT_IOC_DISABLE, 0);
		for (c = 0; c < nr; c++) {
			(void)((volatile struct perf_event_mmap_page *)
			       map[c])->data_head;
			munmap(map[c], len);
			close(fd[c]);
		}
	}
	if (profile) {
		PROF_MARK();
		prof_window("system-wide open+close", n);
	}
	return (now_ns() - t0) / n;
}

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f)
		return false;
	ok = fputs(text, f) >= 0;
	return !fclose(f) && ok;
}

/* @n opens and closes of a task-clock counter; the ns per pair. */
static unsigned long long open_close(long n)
{
	unsigned long long t0 = now_ns();
	long k;

	for (k = 0; k < n; k++)
		close(open_sw(PERF_COUNT_SW_TASK_CLOCK));
	return (now_ns() - t0) / n;
}

/*
 * What may grow with the CPUs: open+close of a task's counter, and a
 * perf record -a set of events (system_wide()), on every CPU the guest
 * has.  Under -icount (@per_cpu false: one vCPU) once each; on a guest
 * of several vCPUs, which run on the host's clock, the best of five,
 * with the number of vCPUs in the names.
 */
static void bench_cpus(long n_open, long n_wide, bool per_cpu)
{
	int nr = sysconf(_SC_NPROCESSORS_ONLN), i, reps = per_cpu ? 5 : 1;
	unsigned long long open_ns = ~0ULL, wide_ns = ~0ULL, ns;
	char suffix[32] = "", name[64];

	if (nr > 64)
		nr = 64;
	/*
	 * On the host's clock an overflow NMI takes long enough for the
	 * kernel to lower the highest sample rate below 4000 Hz, and then
	 * to refuse the events: keep it where it is.
	 */
	if (per_cpu && !write_file("/proc/sys/kernel/perf_cpu_time_max_percent",
				   "0"))
		exit(1);
	if (per_cpu)
		snprintf(suffix, sizeof(suffix), ", %d vCPU%s", nr,
			 nr > 1 ? "s" : "");
	for (i = 0; i < reps; i++) {
		ns = open_close(n_open);
		open_ns = ns < open_ns ? ns : open_ns;
		ns = system_wide(nr, n_wide);
		wide_ns = ns < wide_ns ? ns : wide_ns;
	}
	snprintf(name, sizeof(name), "open+close task-clock%s", suffix);
	printf("%-36s %10llu ns/op\n", name, open_ns);
	snprintf(name, sizeof(name), "system-wide open+close%s", suffix);
	printf("%-36s %10llu ns/op\n", name, wide_ns);
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

/* The count of a mapped event read with rdpmc, as the man page says. */
static unsigned long long rdpmc_read(struct perf_event_mmap_page *up)
{
	unsigned long long count, pmc;
	unsigned int seq, idx, lo, hi;
	int shift;

	do {
		seq = __atomic_load_n(&up->lock, __ATOMIC_ACQUIRE);
		count = up->offset;
		idx = up->index;
		if (up->cap_user_rdpmc && idx) {
			__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi)
					     : "c"(idx - 1));
			pmc = (unsigned long long)hi << 32 | lo;
			shift = 64 - up->pmc_width;
			count += (long long)(pmc << shift) >> shift;
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&up->lock, __ATOMIC_RELAXED) != seq);
	return count;
}

/* Keeps the rdpmc reads from being optimised away. */
static volatile unsigned long long bench_sink;

/* The hardware-event paths; nothing is printed without a PMU. */
static void bench_hardware(long n_open, long n_read, long n_switch,
			   unsigned long long round_trip)
{
	const long n_spin = 2000000, period = 20011;
	unsigned long long t0, buf[3], plain, sampled, samples, sum = 0;
	struct perf_event_mmap_page *up;
	size_t len = 65 * sysconf(_SC_PAGESIZE);
	void *map;
	int fd[3], i;
	long k;

	fd[0] = open_hw(PERF_COUNT_HW_INSTRUCTIONS, 0);
	if (fd[0] < 0)
		return;
	close(fd[0]);

	t0 = now_ns();
	for (k = 0; k < n_open; k++)
		close(open_hw(PERF_COUNT_HW_INSTRUCTIONS, 0));
	report("open+close instructions", t0, n_open);

	fd[0] = open_hw(PERF_COUNT_HW_INSTRUCTIONS, 0);
	t0 = now_ns();
	for (k = 0; k < n_read; k++)
		if (read(fd[0], buf, sizeof(buf)) != sizeof(buf))
			exit(1);
	report("read instructions", t0, n_read);

	map = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
		   fd[0], 0);
	if (map == MAP_FAILED)
		exit(1);
	up = map;
	t0 = now_ns();
	PROF_MARK();
	for (k = 0; k < n_read; k++)
		sum += rdpmc_read(up);
	PROF_MARK();
	report("rdpmc read instructions", t0, n_read);
	prof_window("rdpmc read instructions", n_read);
	munmap(map, sysconf(_SC_PAGESIZE));
	close(fd[0]);

	fd[0] = open_hw(PERF_COUNT_HW_INSTRUCTIONS, 0);
	fd[1] = open_hw(PERF_COUNT_HW_CPU_CYCLES, 0);
	fd[2] = open_hw(PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0);
	t0 = now_ns();
	PROF_MARK();
	ping_pong(n_switch);
	PROF_MARK();
	report_extra("pipe round trip extra, 3 hw events", t0, n_switch,
		     round_trip);
	prof_window("pipe round trip, 3 hw events", n_switch);
	for (i = 0; i < 3; i++)
		close(fd[i]);

	/* One overflow NMI per period of user instructions, into a buffer. */
	t0 = now_ns();
	PROF_MARK();
	spin(n_spin);
	PROF_MARK();
	plain = now_ns() - t0;
	prof_window("spin, no event", 1);
	fd[0] = open_hw(PERF_COUNT_HW_INSTRUCTIONS, period);
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd[0], 0);
	if (fd[0] < 0 || map == MAP_FAILED)
		exit(1);
	up = map;
	t0 = now_ns();
	PROF_MARK();
	spin(n_spin);
	PROF_MARK();
	sampled = now_ns() - t0;
	samples = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE) / 40;
	prof_window("spin with hw overflows, per sample", samples);
	printf("%-36s %10llu records\n", "hw samples written", samples);
	printf("%-36s %10llu ns/op\n", "hardware-event overflow cost",
	       samples && sampled > plain ? (sampled - plain) / samples : 0);
	munmap(map, len);
	close(fd[0]);
	bench_sink = sum;
}

/*
 * "perf-bench precise", on a flavour with PEBS and LBR (skylake): the
 * paths of precise sampling and branch stacks, each as what it adds to
 * a user loop per sample, or per round trip.
 */
#define PRECISE_PERIOD	2003
#define PRECISE_PAGES	257

/* What a ring's records were: samples, and LOST records' lost counts. */
static void ring_count(struct perf_event_mmap_page *up,
		       unsigned long long *samples, unsigned long long *lost)
{
	unsigned long long head, pos = 0;
	size_t size = (PRECISE_PAGES - 1) * sysconf(_SC_PAGESIZE);
	char *data = (char *)up + up->data_offset;

	head = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
	*samples = 0;
	*lost = 0;
	while (pos < head) {
		struct perf_event_header *h = (void *)(data + pos % size);

		if (h->type == PERF_RECORD_SAMPLE)
			(*samples)++;
		else if (h->type == PERF_RECORD_LOST)
			*lost += ((unsigned long long *)(h + 1))[1];
		if (!h->size)
			break;
		pos += h->size;
	}
}

/*
 * Spin with @attr's event sampling user instructions; print what each
 * sample added to a loop of @plain ns as "@name" (and, for @rate, the
 * samples a second that makes), and the samples lost.  0, or -1 if the
 * event does not open here.
 */
static int precise_row_on(struct perf_event_attr *attr, const char *name,
			  long n_spin, unsigned long long plain, bool rate,
			  int pid, int cpu)
{
	size_t len = PRECISE_PAGES * sysconf(_SC_PAGESIZE);
	unsigned long long t0, took, samples, lost, per;
	char lost_name[64];
	void *map;
	int fd;

	fd = syscall(__NR_perf_event_open, attr, pid, cpu, -1, 0);
	if (fd < 0)
		return -1;
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		exit(1);
	/* The data pages are the kernel's to write: read them in. */
	for (t0 = sysconf(_SC_PAGESIZE); t0 < len; t0 += sysconf(_SC_PAGESIZE))
		bench_sink += ((volatile char *)map)[t0];
	t0 = now_ns();
	PROF_MARK();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(n_spin);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	PROF_MARK();
	took = now_ns() - t0;
	ring_count(map, &samples, &lost);
	prof_window(name, samples);
	per = samples && took > plain ? (took - plain) / samples : 0;
	printf("%-36s %10llu ns/op\n", name, per);
	if (rate)
		printf("%-36s %10llu samples/s\n", "large PEBS through the buffer",
		       per ? 1000000000ULL / per : 0);
	snprintf(lost_name, sizeof(lost_name), "%s, lost", name);
	printf("%-36s %10llu records\n", lost_name, lost);
	munmap(map, len);
	close(fd);
	return 0;
}

/* The same, for an event of this task. */
static int precise_row(struct perf_event_attr *attr, const char *name,
		       long n_spin, unsigned long long plain, bool rate)
{
	return precise_row_on(attr, name, n_spin, plain, rate, 0, -1);
}

static void precise_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_HARDWARE;
	attr->config = PERF_COUNT_HW_INSTRUCTIONS;
	attr->sample_period = PRECISE_PERIOD;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr->exclude_kernel = 1;
	attr->disabled = 1;
}

/* The type of PMU @name from sysfs, or -1. */
static int pmu_type(const char *name)
{
	char path[128];
	FILE *f;
	int type;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	return type;
}

/*
 * read() of a counter of the package, RAPL's energy-pkg, on this CPU
 * (its die's reader): where the flavour has RAPL.
 */
static void bench_package_read(long n_read)
{
	struct perf_event_attr attr;
	unsigned long long t0, buf[3];
	int fd, type = pmu_type("power");
	long k;

	if (type < 0)
		return;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = 2;	/* energy-pkg */
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	if (fd < 0)
		return;
	t0 = now_ns();
	for (k = 0; k < n_read; k++)
		if (read(fd, buf, sizeof(buf)) != sizeof(buf))
			exit(1);
	report("read power/energy-pkg/", t0, n_read);
	close(fd);
}

/*
 * read() of a counter of the package, opened on CPU 0, from CPU @from:
 * the best of five rounds of @n_read reads, or 0 if it cannot be opened.
 * From another CPU of the die both kernels read the package's counter
 * where the reader runs, with no IPI to CPU 0.
 */
static unsigned long long package_read_from(int type, unsigned long long config,
					    int from, long n_read)
{
	struct perf_event_attr attr;
	unsigned long long t0, ns, best = 0, buf[3];
	int fd, round;
	long k;

	count_attr(&attr, type, config);
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	if (fd < 0)
		return 0;
	pin(from);
	for (round = 0; round < 5; round++) {
		t0 = now_ns();
		for (k = 0; k < n_read; k++)
			if (read(fd, buf, sizeof(buf)) != sizeof(buf))
				exit(1);
		ns = (now_ns() - t0) / n_read;
		if (!best || ns < best)
			best = ns;
	}
	pin(0);
	close(fd);
	return best;
}

/*
 * "perf-bench package" (the kabylake flavour, two vCPUs, the host's
 * clock): RAPL's energy-pkg and the memory controller's data_reads, read
 * on their CPU and from the other CPU of the die.
 */
static void bench_package(long n_read)
{
	static const struct {
		const char *pmu, *name;
		unsigned long long config;
	} counters[] = {
		{ "power", "power/energy-pkg/", 2 },
		{ "uncore_imc", "uncore_imc/data_reads/", 1 },
	};
	unsigned long long ns;
	char name[80];
	unsigned int i;
	int from, type;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		type = pmu_type(counters[i].pmu);
		if (type < 0)
			continue;
		for (from = 0; from < 2; from++) {
			ns = package_read_from(type, counters[i].config, from,
					       n_read);
			if (!ns)
				continue;
			snprintf(name, sizeof(name), "read %s %s",
				 counters[i].name,
				 from ? "from CPU 1" : "on its CPU");
			printf("%-36s %10llu ns/op\n", name, ns);
		}
	}
}

/* Every sample, none throttled, on both kernels. */
static void unthrottle(void)
{
	/* The rate is refused while the time limit is 0. */
	if (!write_file("/proc/sys/kernel/perf_event_max_sample_rate",
			"1000000") ||
	    !write_file("/proc/sys/kernel/perf_cpu_time_max_percent", "0"))
		exit(1);
}

/*
 * AMD's IBS (the zen flavour): what a sample of ibs_op adds to a loop on
 * this CPU (0, the only one), plain and with its raw registers and
 * memory fields.  The event is CPU-wide, as IBS's are.
 */
static void bench_ibs(void)
{
	const long n_spin = 4000000;
	struct perf_event_attr attr;
	unsigned long long t0, plain;
	int type = pmu_type("ibs_op");

	if (type < 0)
		return;
	unthrottle();
	t0 = now_ns();
	spin(n_spin);
	plain = now_ns() - t0;

	precise_attr(&attr);
	attr.type = type;
	attr.config = 0;
	attr.exclude_kernel = 0;
	attr.sample_period = PRECISE_PERIOD & ~0xfULL;
	precise_row_on(&attr, "IBS op sample", n_spin, plain, false, -1, 0);
	attr.sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_ADDR |
			    PERF_SAMPLE_DATA_SRC;
	precise_row_on(&attr, "IBS op sample, raw and memory", n_spin, plain,
		       false, -1, 0);
}

static void bench_precise(long n_switch)
{
	const long n_spin = 4000000;
	struct perf_event_attr attr;
	unsigned long long t0, plain, base;
	int fd;

	unthrottle();

	t0 = now_ns();
	spin(n_spin);
	plain = now_ns() - t0;

	/*
	 * A record a PMI: the user's CS is no field of a record, so 6.1
	 * and ours drain each record at its own PMI.
	 */
	precise_attr(&attr);
	attr.precise_ip = 1;
	attr.sample_type |= PERF_SAMPLE_REGS_USER;
	attr.sample_regs_user = 1ULL << 8 | 1ULL << 10;	/* IP, CS */
	precise_row(&attr, "PEBS sample, a record a PMI", n_spin, plain,
		    false);

	/* Large PEBS: the buffer drained when full, and at the disable. */
	precise_attr(&attr);
	attr.precise_ip = 1;
	precise_row(&attr, "PEBS sample, large", n_spin, plain, true);

	/* 32 branches of the loop with each sample, from the LBR. */
	precise_attr(&attr);
	attr.sample_period = 10 * PRECISE_PERIOD + 1;
	attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER;
	if (precise_row(&attr, "sample with a branch stack", n_spin, plain,
			false))
		return;

	/* Both tasks of a ping-pong with an LBR call-stack event. */
	t0 = now_ns();
	ping_pong(n_switch);
	base = report("pipe round trip, no events (skylake)", t0, n_switch);
	precise_attr(&attr);
	attr.sample_period = 1ULL << 40;
	attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK |
				  PERF_SAMPLE_BRANCH_USER;
	attr.disabled = 0;
	attr.inherit = 1;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return;
	t0 = now_ns();
	PROF_MARK();
	ping_pong(n_switch);
	PROF_MARK();
	report_extra("pipe round trip extra, LBR call stack", t0, n_switch,
		     base);
	prof_window("pipe round trip, LBR call stack", n_switch);
	close(fd);
}

int main(int argc, char **argv)
{
	unsigned long long t0, buf[3];
	long n_open = 2000, n_read = 20000, n_switch = 5000;
	long n_fault = 20000, n_fork = 1000, n_wide = 200;
	static const int nr_switch[] = { 1, 4, 16, 64 };
	static const int nr_group[] = { 1, 8, 32, 64 };
	static const int nr_fork[] = { 1, 4, 16 };
	/*
	 * From two threads: a lone thread's yield switches to nothing, and
	 * what perf stat adds to it is noise around zero on either kernel.
	 */
	static const int nr_threads[] = { 2, 4, 16 };
	unsigned long long threads_base, procs_base, fault_base;
	int fd[3], i, upto;
	long k;

	pin(0);

	/* "perf-bench open N": only N opens and closes, for a profile. */
	if (argc == 3 && !strcmp(argv[1], "open")) {
		for (k = atol(argv[2]); k > 0; k--)
			close(open_sw(PERF_COUNT_SW_TASK_CLOCK));
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "threads"))
		return run_threads(atoi(argv[2]), atol(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "cpus")) {
		bench_cpus(n_open, n_wide, true);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "package")) {
		bench_package(n_read);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "ibs")) {
		bench_ibs();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "precise")) {
		bench_package_read(n_read);
		bench_precise(n_switch);
		return 0;
	}
	/* "perf-bench group": only the read() rows. */
	if (argc == 2 && !strcmp(argv[1], "group")) {
		for (i = 0; i < 4; i++)
			bench_group_read(nr_group[i], n_read);
		return 0;
	}
	/*
	 * Windows for make profile (PROFILE_CMD='perf-bench profile'): the
	 * smallest and the largest group read and fork+exit, fork+exit with
	 * one inherited counter, and the system-wide open+close set.  Only these
	 * name their windows (the first four lines' marks are theirs).
	 */
	if (argc == 2 && !strcmp(argv[1], "profile")) {
		profile = true;
		bench_group_read(1, n_read / 10);
		bench_group_read(64, n_read / 10);
		fork_cost(0, n_fork / 10);
		fork_cost(1, n_fork / 10);
		fork_cost(16, n_fork / 10);
		system_wide(1, n_wide / 5);
		return 0;
	}
	/* A fifth of the work, without the largest sizes. */
	quick = argc == 2 && !strcmp(argv[1], "quick");
	if (quick) {
		n_open /= 5;
		n_read /= 5;
		n_switch /= 5;
		n_fault /= 5;
		n_fork /= 5;
		n_wide /= 5;
	}
	upto = quick ? 3 : 4;

	bench_cpus(n_open, n_wide, false);

	fd[0] = open_sw(PERF_COUNT_SW_TASK_CLOCK);
	t0 = now_ns();
	for (k = 0; k < n_read; k++)
		if (read(fd[0], buf, sizeof(buf)) != sizeof(buf))
			return 1;
	report("read task-clock", t0, n_read);
	close(fd[0]);
	for (i = 0; i < upto; i++)
		bench_group_read(nr_group[i], n_read);

	t0 = now_ns();
	ping_pong(n_switch);
	procs_base = report("pipe round trip, no events", t0, n_switch);
	t0 = now_ns();
	ping_pong_threads(n_switch);
	threads_base = report("pipe round trip threads, no events", t0,
			      n_switch);
	for (i = 0; i < upto; i++)
		bench_switch(nr_switch[i], true, n_switch, threads_base,
			     procs_base);
	for (i = 0; i < upto; i++)
		bench_switch(nr_switch[i], false, n_switch, threads_base,
			     procs_base);

	bench_fork(nr_fork, 3, n_fork);
	for (i = quick ? 2 : 0; i < 3; i++)
		bench_perf_stat(nr_threads[i], 2000 / nr_threads[i]);

	t0 = now_ns();
	touch(n_fault);
	fault_base = report("page fault, no events", t0, n_fault);

	fd[0] = open_sw(PERF_COUNT_SW_TASK_CLOCK);
	fd[1] = open_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	fd[2] = open_sw(PERF_COUNT_SW_PAGE_FAULTS);
	t0 = now_ns();
	ping_pong(n_switch);
	report_extra("pipe round trip extra, 3 events", t0, n_switch,
		     procs_base);
	t0 = now_ns();
	touch(n_fault);
	report_extra("page fault extra, 3 events", t0, n_fault, fault_base);
	for (i = 0; i < 3; i++)
		close(fd[i]);

	bench_sampling(n_fault, fault_base);

	bench_hardware(n_open, n_read, n_switch, procs_base);
	return 0;
}
