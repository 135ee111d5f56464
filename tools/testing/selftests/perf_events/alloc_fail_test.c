// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures: with the fault injection of
 * /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION, with FAILSLAB and
 * FAIL_PAGE_ALLOC; make fuzz's kernel has them, the normal guest does
 * not and the tests skip), fail the 1st, 2nd, 3rd... allocation of a
 * call until the call runs through without reaching the failure.  At
 * every step the call either fails with ENOMEM or succeeds (a failure
 * it recovers from), and it leaves nothing behind: no descriptor, no
 * pinned pages (VmPin), no kprobe in the kprobes list, no uprobe
 * breakpoint in the text, no breakpoint slot, no group member, no
 * perf_event_mlock_kb charge.
 *
 * The calls: perf_event_open() of a software, tracepoint, kprobe,
 * kretprobe, uprobe, breakpoint, cgroup, inherited, grouped and hardware
 * event (plain, precise with its PEBS buffers, and with an LBR call stack
 * and its task data), mmap() of a ring buffer, PERF_EVENT_IOC_SET_OUTPUT,
 * and fork() of a task whose events are inherited.
 *
 * fail-nth counts the allocations of the calling thread; the knobs in
 * debugfs make it fail sleeping and order-0 allocations too and keep it
 * quiet (they are put back afterwards).  Its file is opened before the
 * walk, as opening it allocates.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "event_kinds.h"
#include "cgroup_util.h"
#include "pmu_sysfs.h"
#include "../kselftest_harness.h"

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define DEBUGFS		"/sys/kernel/debug"
#define KPROBE_LIST	DEBUGFS "/kprobes/list"
#define KFUNC		"__x64_sys_getppid"
#define MLOCK_KB	SYSCTL_PATH("perf_event_mlock_kb")
/* A call making more allocations than this never ends, as far as we care. */
#define MAX_STEPS	5000
#define DATA_PAGES	8

/* The debugfs knobs the walk sets, and what they were. */
static const struct knob {
	const char *path;
	const char *value;
} knobs[] = {
	{ DEBUGFS "/failslab/ignore-gfp-wait", "N" },
	{ DEBUGFS "/failslab/verbose", "0" },
	{ DEBUGFS "/fail_page_alloc/ignore-gfp-wait", "N" },
	{ DEBUGFS "/fail_page_alloc/ignore-gfp-highmem", "N" },
	{ DEBUGFS "/fail_page_alloc/min-order", "0" },
	{ DEBUGFS "/fail_page_alloc/verbose", "0" },
};

static char knob_was[ARRAY_SIZE(knobs)][32];

/* What a step may leave behind. */
struct traces {
	int fds;
	long vm_pin;
	int kprobes;
	unsigned char text;
};

/* One walk: the call, undoing it, and what it must leave alone. */
struct walk {
	const char *what;
	/* The call: >= 0 if it worked, -errno if not. */
	int (*call)(struct walk *w);
	/* Undo a call that worked (@ret is what it returned). */
	void (*undo)(struct walk *w, int ret);
	/* Anything else a failed step must not have changed; 0 if all is well. */
	int (*check)(struct walk *w);
	struct perf_event_attr attr;
	pid_t pid;
	int cpu;
	int group_fd;
	unsigned long flags;
	int fd, fd2;
	void *map;
	/*
	 * An errno a failed step may give instead of ENOMEM (0: none), where
	 * 6.1 reports the failure as something else.
	 */
	int other_errno;
	/* The results. */
	int steps, failed, recovered;
	char why[256];
};

static int nth_fd = -1;

static int open_fail_nth(void)
{
	nth_fd = open(FAIL_NTH, O_RDWR);
	return nth_fd;
}

/* Set up debugfs; false if there is no fail-nth to use. */
static bool inject_init(void)
{
	unsigned int i;

	if (access(FAIL_NTH, F_OK))
		return false;
	if (access(DEBUGFS "/failslab", F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		knob_was[i][0] = '\0';
		if (read_small_file(knobs[i].path, knob_was[i],
				    sizeof(knob_was[i])))
			return false;
		if (write_str_file(knobs[i].path, knobs[i].value))
			return false;
	}
	return open_fail_nth() >= 0;
}

static void inject_fini(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		if (knob_was[i][0])
			write_str_file(knobs[i].path, knob_was[i]);
	if (nth_fd >= 0)
		close(nth_fd);
	nth_fd = -1;
}

/*
 * Run @w's call with its @n-th allocation failing.  The call's result;
 * *@left is what was left of the count afterwards (0: the failure was
 * injected, more: the call made fewer than @n allocations).
 */
static int inject_call(struct walk *w, unsigned int n, int *left)
{
	char buf[16];
	int len, ret;
	ssize_t got;

	len = snprintf(buf, sizeof(buf), "%u", n);
	if (pwrite(nth_fd, buf, len, 0) != len)
		return -EIO;
	ret = w->call(w);
	got = pread(nth_fd, buf, sizeof(buf) - 1, 0);
	pwrite(nth_fd, "0", 1, 0);
	buf[got > 0 ? got : 0] = '\0';
	*left = atoi(buf);
	return ret;
}

static int count_fds(void)
{
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n++;
	closedir(dir);
	return n;
}

static long status_kb(const char *field)
{
	char line[256];
	size_t len = strlen(field);
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':')
			kb = atol(line + len + 1);
	fclose(f);
	return kb;
}

static int count_lines(const char *path)
{
	char line[512];
	int n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

/* The function the uprobe probes (never called). */
int probed_target(int x)
{
	return x * 3 + 1;
}

static unsigned char target_byte(void)
{
	return __atomic_load_n((unsigned char *)probed_target,
			       __ATOMIC_RELAXED);
}

static void traces(struct traces *t)
{
	memset(t, 0, sizeof(*t));	/* padding: compared whole */
	t->fds = count_fds();
	t->vm_pin = status_kb("VmPin");
	t->kprobes = count_lines(KPROBE_LIST);
	t->text = target_byte();
}

/*
 * Walk N = 1, 2, 3... over @w's call; 0 when the call ran through, or -1
 * with w->why saying what went wrong.
 */
static int walk(struct walk *w)
{
	struct traces before, after;
	int n, ret, left;

	for (n = 1; n <= MAX_STEPS; n++) {
		traces(&before);
		ret = inject_call(w, n, &left);
		if (ret >= 0 && w->undo)
			w->undo(w, ret);
		traces(&after);
		w->steps = n;
		if (ret < 0 && ret != -ENOMEM && ret != -w->other_errno) {
			snprintf(w->why, sizeof(w->why),
				 "%s: allocation %d failed: errno %d, not ENOMEM",
				 w->what, n, -ret);
			return -1;
		}
		if (ret < 0 && left) {
			snprintf(w->why, sizeof(w->why),
				 "%s: ENOMEM with no failure injected (%d)",
				 w->what, n);
			return -1;
		}
		if (memcmp(&before, &after, sizeof(before))) {
			snprintf(w->why, sizeof(w->why),
				 "%s: allocation %d failing (%s) left fds %d->%d, VmPin %ld->%ld kB, kprobes %d->%d, text byte %#x->%#x",
				 w->what, n, ret < 0 ? "ENOMEM" : "recovered",
				 before.fds, after.fds, before.vm_pin,
				 after.vm_pin, before.kprobes, after.kprobes,
				 before.text, after.text);
			return -1;
		}
		if (w->check && w->check(w)) {
			snprintf(w->why + strlen(w->why),
				 sizeof(w->why) - strlen(w->why),
				 " (%s, allocation %d)", w->what, n);
			return -1;
		}
		if (ret < 0)
			w->failed++;
		else if (!left)
			w->recovered++;
		else
			return 0;
	}
	snprintf(w->why, sizeof(w->why), "%s: still allocating after %d",
		 w->what, MAX_STEPS);
	return -1;
}

/*
 * A disabled page-fault sampler of the caller, inherited by its children
 * if @inherit (then it cannot be mapped: inherit with cpu -1).
 */
static int open_user_sampler(bool inherit)
{
	struct perf_event_attr attr;

	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	attr.disabled = 1;
	attr.inherit = inherit;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return sample_open(&attr);
}

static int open_call(struct walk *w)
{
	int fd = sys_perf_event_open(&w->attr, w->pid, w->cpu, w->group_fd,
				     w->flags);

	return fd < 0 ? -errno : fd;
}

static void close_undo(struct walk *w, int fd)
{
	close(fd);
}

static void walk_init(struct walk *w, const char *what)
{
	memset(w, 0, sizeof(*w));
	w->what = what;
	w->call = open_call;
	w->undo = close_undo;
	w->cpu = -1;
	w->group_fd = -1;
	w->fd = -1;
	w->fd2 = -1;
}

FIXTURE(alloc) {
	bool ready;
};

FIXTURE_SETUP(alloc)
{
	self->ready = inject_init();
	if (!self->ready) {
		inject_fini();
		/* The harness still runs each test: they return. */
		SKIP(return, "no " FAIL_NTH " (CONFIG_FAULT_INJECTION; make fuzz)");
	}
}

FIXTURE_TEARDOWN(alloc)
{
	inject_fini();
}

/* Walk @w and say how it went. */
static void walk_all(struct __test_metadata *_metadata, struct walk *w)
{
	int ret = walk(w);

	TH_LOG("%s: %d steps, %d ENOMEM, %d recovered", w->what, w->steps,
	       w->failed, w->recovered);
	ASSERT_EQ(0, ret) TH_LOG("%s", w->why);
}

TEST_F(alloc, software)
{
	struct walk w;

	if (!self->ready)
		return;
	walk_init(&w, "software event");
	kind_attr(SOFTWARE, &w.attr);
	walk_all(_metadata, &w);
}

TEST_F(alloc, software_sampling_cpu_wide)
{
	struct walk w;

	if (!self->ready)
		return;
	walk_init(&w, "sampling software event on CPU 0");
	sample_attr_init(&w.attr, PERF_COUNT_SW_CPU_CLOCK, 100000,
			 PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	w.pid = -1;
	w.cpu = 0;
	walk_all(_metadata, &w);
}

TEST_F(alloc, tracepoint)
{
	struct walk w;

	if (!self->ready)
		return;
	walk_init(&w, "tracepoint event");
	if (kind_attr(TRACEPOINT, &w.attr))
		SKIP(return, "no syscalls:sys_enter_getpid");
	w.attr.sample_type = PERF_SAMPLE_RAW;
	w.attr.sample_period = 1;
	walk_all(_metadata, &w);
}

/* A kprobe (@retprobe: kretprobe) event on KFUNC. */
static void kprobe_walk(struct __test_metadata *_metadata, bool retprobe)
{
	struct walk w;
	int type;

	walk_init(&w, retprobe ? "kretprobe event" : "kprobe event");
	type = pmu_sysfs_type("kprobe");
	if (type < 0)
		SKIP(return, "no kprobe PMU");
	w.attr.size = sizeof(w.attr);
	w.attr.type = type;
	w.attr.config = retprobe;
	w.attr.kprobe_func = (__u64)(unsigned long)KFUNC;
	walk_all(_metadata, &w);
}

TEST_F(alloc, kprobe)
{
	if (!self->ready)
		return;
	kprobe_walk(_metadata, false);
}

TEST_F(alloc, kretprobe)
{
	if (!self->ready)
		return;
	kprobe_walk(_metadata, true);
}

TEST_F(alloc, uprobe)
{
	static char exe[PATH_MAX];
	struct walk w;
	long off;
	int type;
	ssize_t len;

	if (!self->ready)
		return;
	walk_init(&w, "uprobe event");
	type = pmu_sysfs_type("uprobe");
	if (type < 0)
		SKIP(return, "no uprobe PMU");
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	off = maps_file_offset(probed_target);
	ASSERT_LT(0, len);
	ASSERT_LE(0, off);
	exe[len] = '\0';
	w.attr.size = sizeof(w.attr);
	w.attr.type = type;
	w.attr.uprobe_path = (__u64)(unsigned long)exe;
	w.attr.probe_offset = off;
	w.pid = 0;
	walk_all(_metadata, &w);
	EXPECT_NE(0xcc, target_byte());
}

/* All the debug registers are free again: 0 if they are. */
static int breakpoint_slots_free(struct walk *w)
{
	struct perf_event_attr attr;
	int fds[4], i, ret = 0;

	kind_attr(BREAKPOINT, &attr);
	for (i = 0; i < 4; i++) {
		attr.bp_addr = (unsigned long)&kind_watched[i];
		fds[i] = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fds[i] < 0 && !ret) {
			snprintf(w->why, sizeof(w->why),
				 "breakpoint %d of 4 no longer fits: errno %d",
				 i + 1, errno);
			ret = -1;
		}
	}
	for (i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return ret;
}

TEST_F(alloc, breakpoint)
{
	struct walk w;

	if (!self->ready)
		return;
	walk_init(&w, "breakpoint event");
	kind_attr(BREAKPOINT, &w.attr);
	w.check = breakpoint_slots_free;
	walk_all(_metadata, &w);
}

TEST_F(alloc, cgroup)
{
	struct cg_root cg;
	char dir[PATH_MAX];
	struct walk w;
	int dirfd;

	if (!self->ready)
		return;
	if (cg_root_init(&cg, "/tmp/alloc_fail_cg"))
		SKIP(return, "no cgroup2");
	snprintf(dir, sizeof(dir), "%s/alloc_fail", cg.root);
	mkdir(dir, 0755);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dirfd < 0 || cg_perf_ready(&cg, dirfd)) {
		if (dirfd >= 0)
			close(dirfd);
		cg_remove(dir);
		cg_root_fini(&cg);
		SKIP(return, "no perf_event on cgroup2");
	}
	walk_init(&w, "cgroup event");
	sw_attr_init(&w.attr, PERF_COUNT_SW_TASK_CLOCK);
	w.pid = dirfd;
	w.cpu = 0;
	w.flags = PERF_FLAG_PID_CGROUP;
	walk_all(_metadata, &w);
	close(dirfd);
	/* Nothing holds the cgroup: it goes. */
	cg_remove(dir);
	EXPECT_NE(0, access(dir, F_OK));
	cg_root_fini(&cg);
}

TEST_F(alloc, inherited)
{
	struct walk w;

	if (!self->ready)
		return;
	walk_init(&w, "inherited event");
	kind_attr(SOFTWARE, &w.attr);
	w.attr.inherit = 1;
	w.attr.read_format = PERF_FORMAT_ID;
	walk_all(_metadata, &w);
}

/* The group of w->fd has its leader alone; 0 if so. */
static int group_alone(struct walk *w)
{
	__u64 buf[16];
	ssize_t got = read(w->fd, buf, sizeof(buf));

	if (got != 3 * sizeof(__u64) || buf[0] != 1) {
		snprintf(w->why, sizeof(w->why),
			 "the group read %zd bytes, %llu members", got,
			 (unsigned long long)buf[0]);
		return -1;
	}
	return 0;
}

TEST_F(alloc, grouped)
{
	struct walk w;

	if (!self->ready)
		return;
	walk_init(&w, "group member");
	sw_attr_init(&w.attr, PERF_COUNT_SW_TASK_CLOCK);
	w.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	w.fd = sys_perf_event_open(&w.attr, 0, -1, -1, 0);
	ASSERT_LE(0, w.fd);
	w.group_fd = w.fd;
	w.attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	w.check = group_alone;
	walk_all(_metadata, &w);
	close(w.fd);
}

/*
 * A hardware event's attr for @w if the PMU opens it on this task, as
 * @precise (PEBS) and with @branch_type (LBR) where asked; false if not.
 */
static bool hardware_walk_init(struct walk *w, const char *what, int precise,
			       __u64 branch_type)
{
	int fd;

	walk_init(w, what);
	kind_attr(HARDWARE, &w->attr);
	w->attr.sample_period = 100000;
	w->attr.sample_type = PERF_SAMPLE_IP;
	w->attr.precise_ip = precise;
	if (branch_type) {
		w->attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		w->attr.branch_sample_type = branch_type;
	}
	fd = sys_perf_event_open(&w->attr, 0, -1, -1, 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

TEST_F(alloc, hardware)
{
	struct walk w;

	if (!self->ready)
		return;
	if (!hardware_walk_init(&w, "hardware event", 0, 0))
		SKIP(return, "no hardware events (errno %d)", errno);
	walk_all(_metadata, &w);
}

/*
 * The first precise event allocates every CPU's PEBS buffer (and maps
 * it into the CPU entry area); a failure leaves none behind, and the
 * next event tries again.  6.1 then goes on without PEBS until its last
 * hardware event closes, and refuses the precise event with EOPNOTSUPP;
 * ours says ENOMEM.
 */
TEST_F(alloc, hardware_precise)
{
	struct walk w;

	if (!self->ready)
		return;
	if (!hardware_walk_init(&w, "precise hardware event", 2, 0))
		SKIP(return, "no precise events (errno %d)", errno);
	w.other_errno = EOPNOTSUPP;
	walk_all(_metadata, &w);
}

/*
 * The LBR call stack of a task: its context gets the PMU's task data
 * (pmu::task_ctx_size), where the stack is kept across switches.
 */
TEST_F(alloc, branch_call_stack)
{
	struct walk w;

	if (!self->ready)
		return;
	if (!hardware_walk_init(&w, "LBR call-stack event", 0,
				PERF_SAMPLE_BRANCH_USER |
				PERF_SAMPLE_BRANCH_CALL_STACK))
		SKIP(return, "no LBR call stack (errno %d)", errno);
	walk_all(_metadata, &w);
}

static int map_call(struct walk *w)
{
	void *map = mmap(NULL, (1 + DATA_PAGES) * page_size(),
			 PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, 0);

	if (map == MAP_FAILED)
		return -errno;
	w->map = map;
	return 0;
}

static void map_undo(struct walk *w, int ret)
{
	munmap(w->map, (1 + DATA_PAGES) * page_size());
}

/*
 * The mmap() walk, as "nobody" with no RLIMIT_MEMLOCK and a
 * perf_event_mlock_kb budget that holds one buffer but not two: a charge
 * a failed step left behind would make the last mapping fail with EPERM.
 * The exit status: 0, or 1 with the reason on standard error.
 */
static int map_walk_child(void)
{
	struct rlimit rl = { 0, 0 };
	struct walk w;
	int ret;

	if (open_fail_nth() < 0 || setrlimit(RLIMIT_MEMLOCK, &rl) ||
	    drop_privileges(NOBODY))
		return 2;
	walk_init(&w, "mmap of a ring buffer");
	w.call = map_call;
	w.undo = map_undo;
	w.fd = open_user_sampler(false);
	if (w.fd < 0)
		return 3;
	if (walk(&w)) {
		fprintf(stderr, "# %s\n", w.why);
		return 1;
	}
	ret = map_call(&w);
	if (ret) {
		fprintf(stderr, "# mmap after the walk: errno %d\n", -ret);
		return 1;
	}
	fprintf(stderr, "# %s: %d steps, %d ENOMEM, %d recovered\n",
		w.what, w.steps, w.failed, w.recovered);
	return 0;
}

TEST_F(alloc, mmap)
{
	int mlock_kb, cpus, pages = 1 + DATA_PAGES;
	pid_t pid;

	if (!self->ready)
		return;
	ASSERT_EQ(0, read_int_file(MLOCK_KB, &mlock_kb));
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	/* Room for one buffer, not two: whole pages per online CPU. */
	ASSERT_EQ(0, write_int_file(MLOCK_KB, (pages + cpus - 1) / cpus *
				    (page_size() / 1024)));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(map_walk_child());
	EXPECT_EQ(0, reap_status(pid));
	write_int_file(MLOCK_KB, mlock_kb);
}

static int set_output_call(struct walk *w)
{
	return ioctl(w->fd2, PERF_EVENT_IOC_SET_OUTPUT, w->fd) ? -errno : 0;
}

static void set_output_undo(struct walk *w, int ret)
{
	ioctl(w->fd2, PERF_EVENT_IOC_SET_OUTPUT, -1);
}

TEST_F(alloc, set_output)
{
	struct walk w;

	if (!self->ready)
		return;
	walk_init(&w, "PERF_EVENT_IOC_SET_OUTPUT");
	w.call = set_output_call;
	w.undo = set_output_undo;
	w.fd = open_user_sampler(false);
	w.fd2 = open_user_sampler(false);
	ASSERT_LE(0, w.fd);
	ASSERT_LE(0, w.fd2);
	ASSERT_EQ(0, map_call(&w));
	walk_all(_metadata, &w);
	map_undo(&w, 0);
	close(w.fd2);
	close(w.fd);
}

static int fork_call(struct walk *w)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	return pid < 0 ? -errno : pid;
}

static void fork_undo(struct walk *w, int pid)
{
	waitpid(pid, NULL, 0);
}

TEST_F(alloc, fork_monitored)
{
	struct walk w;
	__u64 count;

	if (!self->ready)
		return;
	walk_init(&w, "fork of a task with inherited events");
	w.call = fork_call;
	w.undo = fork_undo;
	w.fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, 0, -1);
	ASSERT_LE(0, w.fd);
	w.fd2 = open_user_sampler(true);
	ASSERT_LE(0, w.fd2);
	walk_all(_metadata, &w);
	ASSERT_EQ(0, read_value(w.fd, &count));
	EXPECT_LT(0, count);
	close(w.fd2);
	close(w.fd);
}

TEST_HARNESS_MAIN
