// SPDX-License-Identifier: GPL-2.0
/*
 * perf-abi-diff: print what perf_event_open(2) and the calls on its
 * descriptor answer to a few thousand variations of their arguments, one
 * line per case, so that the output of two kernels can be diffed.
 *
 *   harness/abi-diff.sh [ARGS]     boot both kernels, run it, diff:
 *                                  build/abi-{ours,upstream}.txt, build/abi.diff
 *   make run CMD='perf-abi-diff [-s SEED] [-c N[-M]] [-v] [-r] [-f hw]' KERNEL=...
 *
 * The cases come from a fixed seed (-s changes it), so both kernels see
 * the same ones; -c runs only case N (or N to M), -v prints the full
 * attribute block of each case run, -r the raw errno of refused filters,
 * -f hw only the families of hardware events (hw*: the cpu PMU's
 * types, event selects, attr bits, user page and groups; run them with
 * PMU=intel and PMU=amd), -f hwextra only the events with an extra
 * register (part of -f hw), -f hwlbr only the branch stacks' filters
 * (part of -f hw: every branch_sample_type bit alone, with another, and
 * with call-stack mode, and what LBR_SELECT or IA32_LBR_CTL holds while
 * the event runs on CPU 0, read through /dev/cpu/0/msr where there is
 * one), -f hwpebs only precise sampling (part of -f hw: precise_ip with
 * each sample_type bit, perf mem's and perf c2c's sample types, the
 * memory events with each load latency).
 * Each line reads
 *   ABI <case> <family> <what>: <results>
 * where a result is "ok", a value or an errno name; nothing that varies
 * from run to run (counts, times, ids, descriptor numbers, pids) is
 * printed.  <what> names the base kind of event and what differs from
 * it.  Each case runs in a fresh child process, which opens its group
 * leader and helper events itself, drops the privileges the case asks
 * for and then makes the calls.  The "order" family pairs defects to
 * show which check comes first.  Not part of `make check`: a tool for
 * finding where our ABI differs from the 6.1 reference (a kernel version
 * or configuration change makes case numbers move: compare runs of one
 * build of this program).
 *
 * Known differences (not bugs): refused filters (see -r).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

typedef unsigned long long u64;
typedef unsigned int u32;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PAGE		4096
#define NOBODY		65534
#define SYSCTL		"/proc/sys/kernel/"

/* ------------------------------------------------------------------ */
/* Output: the case child appends to a buffer it shares with us. */

#define RES_SIZE	16384
static char *res;
static int raw_filters;		/* -r */

static void say(const char *fmt, ...)
{
	size_t len = strlen(res);
	va_list ap;

	if (len >= RES_SIZE - 64)
		return;
	va_start(ap, fmt);
	vsnprintf(res + len, RES_SIZE - len, fmt, ap);
	va_end(ap);
}

static const char *ename(int e)
{
	static char buf[16];
	const char *n = strerrorname_np(e);

	if (n)
		return n;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

/* " what=ok" (or the value, if @show) or " what=ERRNO". */
static void sayret(const char *what, long ret, int show)
{
	if (ret < 0)
		say(" %s=%s", what, ename(errno));
	else if (show)
		say(" %s=%ld", what, ret);
	else
		say(" %s=ok", what);
}

/* ------------------------------------------------------------------ */
/* A reproducible pseudo-random sequence (splitmix64). */

static u64 rng_state;

static u64 rnd(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int chance(int percent)
{
	return (int)(rnd() % 100) < percent;
}

/* An index into an array of @n entries. */
static unsigned int pick(size_t n)
{
	return rnd() % n;
}

/* ------------------------------------------------------------------ */
/* What the guest has: PMUs, trace events, targets. */

struct pmu_info {
	char name[64];
	u32 type;
};

static struct pmu_info pmus[32];
static int nr_pmus;
static int type_kprobe = -1, type_uprobe = -1;

static long tp_getppid_enter = -1, tp_getppid_exit = -1, tp_ftrace = -1;
static char kfunc[64];
static u64 uprobe_offset;
static int max_rate;

static pid_t pid_child, pid_nobody, pid_zombie, pid_gone;
static int cgroup_fd = -1, tmpdir_fd = -1, file_fd = -1;

/* Breakpoint targets and a uprobe target. */
static u64 bp_var[4];

int uprobe_target(int x)
{
	asm volatile("" : "+r" (x));
	return x + 1;
}

static const char *type_name(u32 type)
{
	static char buf[24];
	int i;

	if (type <= PERF_TYPE_BREAKPOINT) {
		snprintf(buf, sizeof(buf), "%u", type);
		return buf;
	}
	for (i = 0; i < nr_pmus; i++)
		if (pmus[i].type == type)
			return pmus[i].name;
	snprintf(buf, sizeof(buf), "%u", type);
	return buf;
}

static long read_long(const char *path)
{
	char buf[64] = "";
	long v = -1;
	int fd = open(path, O_RDONLY);

	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf) - 1) > 0)
			v = strtol(buf, NULL, 0);
		close(fd);
	}
	return v;
}

static int write_long(const char *path, long v)
{
	char buf[32];
	int fd = open(path, O_WRONLY), ret = -1;

	if (fd < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%ld\n", v);
	if (write(fd, buf, strlen(buf)) == (ssize_t)strlen(buf))
		ret = 0;
	close(fd);
	return ret;
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct pmu_info *)a)->name,
		      ((const struct pmu_info *)b)->name);
}

static void find_pmus(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	char path[300];
	int i;

	while (d && (e = readdir(d)) && nr_pmus < (int)ARRAY_SIZE(pmus)) {
		long t;

		if (e->d_name[0] == '.')
			continue;
		/* Our test PMU: a documented extension, not in 6.1. */
		if (!strcmp(e->d_name, "perf_test"))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/type", e->d_name);
		t = read_long(path);
		if (t < 0)
			continue;
		snprintf(pmus[nr_pmus].name, sizeof(pmus[0].name), "%.60s",
			 e->d_name);
		pmus[nr_pmus++].type = t;
	}
	if (d)
		closedir(d);
	qsort(pmus, nr_pmus, sizeof(pmus[0]), cmp_pmu);
	for (i = 0; i < nr_pmus; i++) {
		if (!strcmp(pmus[i].name, "kprobe"))
			type_kprobe = pmus[i].type;
		if (!strcmp(pmus[i].name, "uprobe"))
			type_uprobe = pmus[i].type;
	}
}

static int ksym_exists(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256], sym[200];
	int found = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %199s", sym) == 1 &&
		    !strcmp(sym, name)) {
			found = 1;
			break;
		}
	}
	if (f)
		fclose(f);
	return found;
}

static void find_uprobe_offset(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long start, end, off, addr = (unsigned long)uprobe_target;
	char line[512];

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &off) == 3 &&
		    addr >= start && addr < end) {
			uprobe_offset = addr - start + off;
			break;
		}
	}
	if (f)
		fclose(f);
}

static void on_trap(int sig)
{
	(void)sig;
}

static pid_t spawn_sleeper(int nobody)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	signal(SIGTRAP, on_trap);
	signal(SIGIO, on_trap);
	if (nobody) {
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(1);
		prctl(PR_SET_DUMPABLE, 1);
	}
	for (;;)
		pause();
}

static int alive(pid_t pid)
{
	return waitpid(pid, NULL, WNOHANG) == 0;
}

/* CPU 0's MSRs, opened while root: -1 where they cannot be read. */
static int msr_fd = -1;

static void setup(void)
{
	static const char * const kfuncs[] = {
		"__x64_sys_getppid", "ksys_read", "do_sys_open", "schedule",
	};
	unsigned int i;
	pid_t p;

	msr_fd = open("/dev/cpu/0/msr", O_RDONLY);
	find_pmus();
	tp_getppid_enter = read_long("/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id");
	tp_getppid_exit = read_long("/sys/kernel/tracing/events/syscalls/sys_exit_getppid/id");
	tp_ftrace = read_long("/sys/kernel/tracing/events/ftrace/function/id");
	for (i = 0; i < ARRAY_SIZE(kfuncs); i++) {
		if (ksym_exists(kfuncs[i])) {
			snprintf(kfunc, sizeof(kfunc), "%s", kfuncs[i]);
			break;
		}
	}
	find_uprobe_offset();

	/* Nothing should move the sample rate while we run. */
	write_long(SYSCTL "perf_cpu_time_max_percent", 0);
	write_long(SYSCTL "perf_event_max_sample_rate", 100000);
	max_rate = read_long(SYSCTL "perf_event_max_sample_rate");

	pid_child = spawn_sleeper(0);
	pid_nobody = spawn_sleeper(1);
	pid_zombie = fork();
	if (!pid_zombie)
		_exit(0);
	p = fork();
	if (!p)
		_exit(0);
	waitpid(p, NULL, 0);
	pid_gone = p;

	mkdir("/sys/fs/cgroup", 0755);
	mount("none", "/sys/fs/cgroup", "cgroup2", 0, NULL);
	mkdir("/sys/fs/cgroup/abi", 0755);
	cgroup_fd = open("/sys/fs/cgroup/abi", O_RDONLY | O_DIRECTORY);
	tmpdir_fd = open("/tmp", O_RDONLY | O_DIRECTORY);
	file_fd = open("/proc/self/exe", O_RDONLY);
	usleep(20000);	/* let the zombie die */
}

/* ------------------------------------------------------------------ */
/* The cases. */

/* Base event kinds. */
enum {
	K_SW_COUNT, K_SW_SAMPLE, K_SW_FREQ, K_TP, K_BP, K_DUMMY, K_KPROBE,
	K_UPROBE, K_HW, K_CACHE, K_RAW, K_TASKCLOCK, K_NR
};

static const char * const kind_names[] = {
	"sw", "sw-sample", "sw-freq", "tp", "bp", "dummy", "kprobe",
	"uprobe", "hw", "cache", "raw", "task-clock",
};

/* Targets (the pid argument). */
enum {
	P_SELF, P_ANY, P_GETPID, P_CHILD, P_NOBODY, P_ZOMBIE, P_GONE, P_NEG,
	P_INIT, P_CGDIR, P_TMPDIR, P_FILE, P_BADFD, P_OWNKID, P_NR
};

static const char * const pid_names[] = {
	"0", "-1", "getpid", "child", "nobody-child", "zombie", "gone", "-2",
	"1", "cgroup-dir", "tmp-dir", "file", "bad-fd", "own-kid",
};

static pid_t own_kid;

/* The group_fd argument. */
enum {
	G_NONE, G_LEADER, G_MEMBER, G_PIPE, G_CLOSED, G_NEG, G_BIG, G_NR
};

static const char * const group_names[] = {
	"-1", "leader", "member", "pipe", "closed", "-2", "100000",
};

/* Who makes the calls. */
enum {
	PRIV_ROOT, PRIV_NOBODY, PRIV_NOBODY_PERFMON, PRIV_NOBODY_ADMIN,
	PRIV_ROOT_NOADMIN, PRIV_NOBODY_IPCLOCK, PRIV_NR
};

static const char * const priv_names[] = {
	"root", "nobody", "nobody+perfmon", "nobody+sys_admin",
	"root-sys_admin-perfmon", "nobody+ipc_lock",
};

/* Symbolic values of config1 (bp_addr, kprobe_func, uprobe_path). */
enum {
	A_RAW, A_VAR, A_VAR1, A_VAR3, A_VAR2, A_FUNC, A_KERNEL, A_TOP,
	A_KFUNC, A_NOSYM, A_BADPTR, A_EMPTY, A_EXE, A_NOPATH, A_NR
};

static const char * const a1_names[] = {
	"raw", "&var", "&var+1", "&var+3", "&var[2]", "&func", "kernel",
	"top", "kfunc", "nosym", "badptr", "\"\"", "exe", "nopath",
};

/* What to do on the descriptor once it is open. */
enum {
	FU_READ = 1 << 0, FU_ID = 1 << 1, FU_PERIOD = 1 << 2,
	FU_CTL = 1 << 3, FU_FILTER = 1 << 4, FU_OUTPUT = 1 << 5,
	FU_MODIFY = 1 << 6, FU_PAUSE = 1 << 7, FU_BPF = 1 << 8,
	FU_UNKNOWN = 1 << 9, FU_FILE = 1 << 10, FU_MMAP = 1 << 11,
	FU_MMAP2 = 1 << 12, FU_GROUPMAX = 1 << 13, FU_FILTER1 = 1 << 14,
	FU_EXIT = 1 << 15, FU_ALL = (1 << 16) - 1, FU_HWPAGE = 1 << 16,
	FU_LBRSEL = 1 << 17
};

static const char * const fu_names[] = {
	"read", "id", "period", "ctl", "filter", "output", "modify", "pause",
	"bpf", "unknown", "file", "mmap", "mmap2", "groupmax", "filter1",
	"exit", "hwpage", "lbrsel",
};

struct leader {
	int kind;
	int pid;
	int cpu;
	u64 flags;		/* XORed into the flags word */
	u64 read_format;
	int members;		/* extra members opened before the case */
};

struct spec {
	const char *family;
	char note[80];
	int kind;
	struct perf_event_attr attr;
	int a1;			/* A_*: symbolic config1 */
	int size;		/* attr.size; -1: sizeof */
	int tail;		/* 1: a non-zero byte past sizeof; 2: at the end */
	int where;		/* 1: NULL, 2: bad, 3: ends at an unmapped page */
	int pid;
	int cpu;
	int group;
	struct leader ld;
	unsigned long flags;
	int priv;
	int paranoid;
	unsigned int fu;
	int absent;		/* a PMU this kernel does not have */
};

/* The flags word of the attribute block. */
#define FLAGS_OFF	(offsetof(struct perf_event_attr, read_format) + 8)

static u64 get_flags(const struct perf_event_attr *a)
{
	u64 f;

	memcpy(&f, (const char *)a + FLAGS_OFF, 8);
	return f;
}

static void set_flags(struct perf_event_attr *a, u64 f)
{
	memcpy((char *)a + FLAGS_OFF, &f, 8);
}

static const char * const flag_names[64] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user",
	"exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm", "freq",
	"inherit_stat", "enable_on_exec", "task", "watermark", "precise_ip0",
	"precise_ip1", "mmap_data", "sample_id_all", "exclude_host",
	"exclude_guest", "exclude_callchain_kernel", "exclude_callchain_user",
	"mmap2", "comm_exec", "use_clockid", "context_switch",
	"write_backward", "namespaces", "ksymbol", "bpf_event", "aux_output",
	"cgroup", "text_poke", "build_id", "inherit_thread", "remove_on_exec",
	"sigtrap",
};

static const char *flag_name(int bit)
{
	static char buf[16];

	if (bit < 64 && flag_names[bit])
		return flag_names[bit];
	snprintf(buf, sizeof(buf), "bit%d", bit);
	return buf;
}

#define F(name)		(1ULL << fbit(name))
static int fbit(const char *name)
{
	int i;

	for (i = 0; i < 64; i++)
		if (flag_names[i] && !strcmp(flag_names[i], name))
			return i;
	abort();
}

static void base_attr(struct perf_event_attr *a, int kind)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->disabled = 1;
	switch (kind) {
	case K_SW_COUNT:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_PAGE_FAULTS;
		break;
	case K_SW_SAMPLE:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		a->sample_period = 1000000;
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
		break;
	case K_SW_FREQ:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		a->freq = 1;
		a->sample_freq = 1000;
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
		break;
	case K_TP:
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = tp_getppid_enter;
		a->sample_period = 1;
		a->sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TID;
		break;
	case K_BP:
		a->type = PERF_TYPE_BREAKPOINT;
		a->bp_type = HW_BREAKPOINT_W;
		a->bp_addr = (unsigned long)&bp_var[0];
		a->bp_len = HW_BREAKPOINT_LEN_4;
		a->sample_period = 1;
		break;
	case K_DUMMY:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_DUMMY;
		break;
	case K_KPROBE:
		a->type = type_kprobe;
		a->kprobe_func = (unsigned long)kfunc;
		break;
	case K_UPROBE:
		a->type = type_uprobe;
		a->uprobe_path = (unsigned long)"/bin/perf-abi-diff";
		a->probe_offset = uprobe_offset;
		break;
	case K_HW:
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_INSTRUCTIONS;
		break;
	case K_CACHE:
		a->type = PERF_TYPE_HW_CACHE;
		break;
	case K_RAW:
		a->type = PERF_TYPE_RAW;
		a->config = 0xc0;
		break;
	case K_TASKCLOCK:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_TASK_CLOCK;
		break;
	}
}

static int base_a1(int kind)
{
	switch (kind) {
	case K_BP: return A_VAR;
	case K_KPROBE: return A_KFUNC;
	case K_UPROBE: return A_EXE;
	}
	return A_RAW;
}

static void spec_init(struct spec *s, const char *family, int kind)
{
	memset(s, 0, sizeof(*s));
	s->family = family;
	s->kind = kind;
	base_attr(&s->attr, kind);
	s->a1 = base_a1(kind);
	s->size = -1;
	s->pid = P_SELF;
	s->cpu = -1;
	s->group = G_NONE;
	s->ld.kind = K_SW_COUNT;
	s->ld.cpu = -1;
	s->paranoid = 2;
	s->fu = FU_READ | FU_FILE;
}

static u64 a1_value(int a1, u64 raw)
{
	switch (a1) {
	case A_VAR: return (unsigned long)&bp_var[0];
	case A_VAR1: return (unsigned long)&bp_var[0] + 1;
	case A_VAR3: return (unsigned long)&bp_var[0] + 3;
	case A_VAR2: return (unsigned long)&bp_var[2];
	case A_FUNC: return (unsigned long)uprobe_target;
	case A_KERNEL: return 0xffffffff81000000ULL;
	case A_TOP: return 0x7ffffffff000ULL;
	case A_KFUNC: return (unsigned long)kfunc;
	case A_NOSYM: return (unsigned long)"no_such_function_xyz";
	case A_BADPTR: return 8;
	case A_EMPTY: return (unsigned long)"";
	case A_EXE: return (unsigned long)"/bin/perf-abi-diff";
	case A_NOPATH: return (unsigned long)"/no/such/file";
	}
	return raw;
}

/* The fields of the attribute block, for describing a case. */
struct field {
	const char *name;
	size_t off, len;
};

#define FLD(n, m, l)	{ n, offsetof(struct perf_event_attr, m), l }
static const struct field fields[] = {
	FLD("type", type, 4), FLD("size", size, 4), FLD("config", config, 8),
	FLD("period", sample_period, 8), FLD("st", sample_type, 8),
	FLD("rf", read_format, 8), { "flags", FLAGS_OFF, 8 },
	FLD("wakeup", wakeup_events, 4), FLD("bp_type", bp_type, 4),
	FLD("config1", config1, 8), FLD("config2", config2, 8),
	FLD("branch", branch_sample_type, 8),
	FLD("regs_user", sample_regs_user, 8),
	FLD("stack_user", sample_stack_user, 4), FLD("clockid", clockid, 4),
	FLD("regs_intr", sample_regs_intr, 8),
	FLD("aux_wm", aux_watermark, 4), FLD("max_stack", sample_max_stack, 2),
	FLD("res2", __reserved_2, 2), FLD("aux_ss", aux_sample_size, 4),
	FLD("res3", __reserved_3, 4), FLD("sig_data", sig_data, 8),
};

static u64 field_get(const struct perf_event_attr *a, const struct field *f)
{
	u64 v = 0;

	memcpy(&v, (const char *)a + f->off, f->len);
	return v;
}

/* One line: what differs from the base attributes of the kind, and how. */
static void describe(const struct spec *s, char *buf, size_t len)
{
	struct perf_event_attr base;
	size_t n = 0;
	unsigned int i;

#define PUT(...) (n += snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
	base_attr(&base, s->kind);
	PUT("%s", kind_names[s->kind]);
	if (s->note[0])
		PUT(" [%s]", s->note);
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		const struct field *f = &fields[i];
		u64 v = field_get(&s->attr, f), b = field_get(&base, f);

		if (!strcmp(f->name, "size"))
			continue;
		if (!strcmp(f->name, "config1")) {
			if (s->a1 != base_a1(s->kind))
				PUT(" config1=%s", a1_names[s->a1]);
			if (s->a1 != A_RAW)
				continue;
			if (base_a1(s->kind) != A_RAW)
				b = 0;
		}
		if (v == b)
			continue;
		if (!strcmp(f->name, "type")) {
			PUT(" type=%s", type_name(v));
		} else if (!strcmp(f->name, "config") &&
			   s->attr.type == PERF_TYPE_TRACEPOINT &&
			   (long)v == tp_getppid_exit) {
			PUT(" config=tp:getppid_exit");
		} else if (!strcmp(f->name, "config") &&
			   s->attr.type == PERF_TYPE_TRACEPOINT &&
			   (long)v == tp_ftrace) {
			PUT(" config=tp:ftrace_function");
		} else if (!strcmp(f->name, "config") &&
			   s->attr.type == PERF_TYPE_TRACEPOINT &&
			   (long)v == tp_getppid_enter) {
			PUT(" config=tp:getppid_enter");
		} else if (!strcmp(f->name, "flags")) {
			u64 on = v & ~b, off = b & ~v;
			int bit;

			for (bit = 0; bit < 64; bit++) {
				if (on & (1ULL << bit))
					PUT(" +%s", flag_name(bit));
				if (off & (1ULL << bit))
					PUT(" -%s", flag_name(bit));
			}
		} else {
			PUT(" %s=%#llx", f->name, v);
		}
	}
	if (s->size != -1)
		PUT(" size=%d", s->size);
	if (s->tail)
		PUT(" tail=%d", s->tail);
	if (s->where)
		PUT(" where=%s", s->where == 1 ? "NULL" : s->where == 2 ?
		    "bad" : "page-end");
	if (s->pid != P_SELF)
		PUT(" pid=%s", pid_names[s->pid]);
	if (s->cpu != -1)
		PUT(" cpu=%d", s->cpu);
	if (s->group != G_NONE) {
		PUT(" group=%s", group_names[s->group]);
		if (s->group == G_LEADER || s->group == G_MEMBER) {
			PUT("(%s", kind_names[s->ld.kind]);
			if (s->ld.pid != P_SELF)
				PUT(" pid=%s", pid_names[s->ld.pid]);
			if (s->ld.cpu != -1)
				PUT(" cpu=%d", s->ld.cpu);
			if (s->ld.flags)
				PUT(" flags=%#llx", s->ld.flags);
			if (s->ld.read_format)
				PUT(" rf=%#llx", s->ld.read_format);
			if (s->ld.members)
				PUT(" members=%d", s->ld.members);
			PUT(")");
		}
	}
	if (s->flags)
		PUT(" fl=%#lx", s->flags);
	if (s->priv)
		PUT(" as=%s", priv_names[s->priv]);
	if (s->paranoid != 2)
		PUT(" paranoid=%d", s->paranoid);
	if (s->absent)
		snprintf(buf, len, "[%s] config=%#llx", s->note,
			 s->attr.config);
#undef PUT
}

/* ------------------------------------------------------------------ */
/* Running a case in the child. */

static pid_t pid_value(int p)
{
	switch (p) {
	case P_SELF: return 0;
	case P_ANY: return -1;
	case P_GETPID: return getpid();
	case P_CHILD: return pid_child;
	case P_NOBODY: return pid_nobody;
	case P_ZOMBIE: return pid_zombie;
	case P_GONE: return pid_gone;
	case P_NEG: return -2;
	case P_INIT: return 1;
	case P_CGDIR: return cgroup_fd;
	case P_TMPDIR: return tmpdir_fd;
	case P_FILE: return file_fd;
	case P_BADFD: return 1000;
	case P_OWNKID: return own_kid;
	}
	return 0;
}

static int sys_open(struct perf_event_attr *a, pid_t pid, int cpu, int gfd,
		    unsigned long flags)
{
	return syscall(__NR_perf_event_open, a, pid, cpu, gfd, flags);
}

static int capset_keep(u64 keep)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	data[0].effective = keep;
	data[0].permitted = keep;
	data[1].effective = keep >> 32;
	data[1].permitted = keep >> 32;
	return syscall(__NR_capset, &hdr, data);
}

static int become(int priv)
{
	u64 all = (1ULL << (CAP_LAST_CAP + 1)) - 1, keep = 0;
	int uid = NOBODY;

	switch (priv) {
	case PRIV_ROOT:
		return 0;
	case PRIV_NOBODY_PERFMON:
		keep = 1ULL << CAP_PERFMON;
		break;
	case PRIV_NOBODY_ADMIN:
		keep = 1ULL << CAP_SYS_ADMIN;
		break;
	case PRIV_NOBODY_IPCLOCK:
		keep = 1ULL << CAP_IPC_LOCK;
		break;
	case PRIV_ROOT_NOADMIN:
		uid = 0;
		keep = all & ~(1ULL << CAP_SYS_ADMIN) & ~(1ULL << CAP_PERFMON);
		break;
	}
	prctl(PR_SET_KEEPCAPS, 1);
	if (uid && (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
		    setresuid(uid, uid, uid)))
		return -1;
	if (capset_keep(keep))
		return -1;
	prctl(PR_SET_DUMPABLE, 1);
	return 0;
}

static int case_priv;

/* A helper or leader event; without root's privilege, of user space. */
static int open_kind(int kind, pid_t pid, int cpu, int gfd, u64 flags,
		     u64 rf)
{
	struct perf_event_attr a;

	base_attr(&a, kind);
	a.exclude_kernel = case_priv != PRIV_ROOT;
	set_flags(&a, get_flags(&a) ^ flags);
	a.read_format = rf;
	return sys_open(&a, pid, cpu, gfd, 0);
}

static int pipe_fd(void)
{
	int p[2];

	if (pipe(p))
		return -1;
	return p[0];
}

/* read() with several buffer sizes. */
static void fu_read(int fd)
{
	static const size_t sizes[] = { 4096, 0, 7, 8, 16, 24, 32, 40 };
	char buf[4096];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		char what[16];

		snprintf(what, sizeof(what), "read%zu", sizes[i]);
		sayret(what, read(fd, buf, sizes[i]), 1);
	}
}

static void fu_id(int fd)
{
	u64 id = 0;

	sayret("id", ioctl(fd, PERF_EVENT_IOC_ID, &id), 1);
	say("%s", id ? "" : "(zero)");
	sayret("id-null", ioctl(fd, PERF_EVENT_IOC_ID, NULL), 1);
	sayret("id-bad", ioctl(fd, PERF_EVENT_IOC_ID, 8), 1);
}

static void fu_period(int fd)
{
	static const u64 vals[] = {
		1000, 0, 1, 1ULL << 63, ~0ULL, 100000, 100001, 1ULL << 62,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		char what[32];
		u64 v = vals[i];

		snprintf(what, sizeof(what), "period(%#llx)", v);
		sayret(what, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), 1);
	}
	sayret("period-null", ioctl(fd, PERF_EVENT_IOC_PERIOD, NULL), 1);
}

static void fu_ctl(int fd)
{
	static const struct { unsigned long cmd; const char *name; long arg; }
	calls[] = {
		{ PERF_EVENT_IOC_ENABLE, "enable", 0 },
		{ PERF_EVENT_IOC_DISABLE, "disable", 0 },
		{ PERF_EVENT_IOC_ENABLE, "enable", PERF_IOC_FLAG_GROUP },
		{ PERF_EVENT_IOC_DISABLE, "disable", PERF_IOC_FLAG_GROUP },
		{ PERF_EVENT_IOC_ENABLE, "enable", 2 },
		{ PERF_EVENT_IOC_DISABLE, "disable", 3 },
		{ PERF_EVENT_IOC_RESET, "reset", 0 },
		{ PERF_EVENT_IOC_RESET, "reset", PERF_IOC_FLAG_GROUP },
		{ PERF_EVENT_IOC_RESET, "reset", 4 },
		{ PERF_EVENT_IOC_REFRESH, "refresh", 0 },
		{ PERF_EVENT_IOC_REFRESH, "refresh", -1 },
		{ PERF_EVENT_IOC_REFRESH, "refresh", 1 },
		{ PERF_EVENT_IOC_DISABLE, "disable", 0 },
		{ PERF_EVENT_IOC_REFRESH, "refresh", 1L << 31 },
		{ PERF_EVENT_IOC_DISABLE, "disable", 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		char what[32];

		snprintf(what, sizeof(what), "%s(%#lx)", calls[i].name,
			 calls[i].arg);
		sayret(what, ioctl(fd, calls[i].cmd, calls[i].arg), 1);
	}
}

/*
 * A filter the trace event code refuses: 6.1 passes on the codes of its
 * parser (EPERM, ENOENT, ESRCH for some), ours says EINVAL, a documented
 * extension; both are "refused" unless -r asks for the errno.
 */
static void say_filter(const char *what, long ret)
{
	if (ret < 0 && !raw_filters &&
	    (errno == EINVAL || errno == EPERM || errno == ENOENT ||
	     errno == ESRCH))
		say(" %s=refused", what);
	else
		sayret(what, ret, 1);
}

static void fu_filter(int fd)
{
	static char big[PAGE + 16];
	/* The refused ones first: once a filter is set, others are not. */
	static const char * const filters[] = {
		"(", "", "nonsense == 1", "common_pid ~ \"x\"", "filter",
		"start 0x1000/0x100", "0x1000/0x100@/bin/sh", "common_pid ==",
		"common_pid != 1 && common_pid != 2", "common_pid != 1",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(filters); i++) {
		char what[64];

		snprintf(what, sizeof(what), "filter(%s)", filters[i]);
		say_filter(what, ioctl(fd, PERF_EVENT_IOC_SET_FILTER,
				       filters[i]));
	}
	sayret("filter-null", ioctl(fd, PERF_EVENT_IOC_SET_FILTER, NULL), 1);
	sayret("filter-bad", ioctl(fd, PERF_EVENT_IOC_SET_FILTER, 8), 1);
	memset(big, ' ', sizeof(big));
	big[sizeof(big) - 1] = 0;
	sayret("filter-big", ioctl(fd, PERF_EVENT_IOC_SET_FILTER, big), 1);
}

/* Filters one at a time, each on a fresh descriptor like @fd's. */
static void fu_filter1(int fd, const struct spec *s)
{
	static const char * const filters[] = {
		"(", "", "nonsense == 1", "common_pid ~ \"x\"", "filter",
		"common_pid ==", "common_pid == 1 ||", "(common_pid == 1",
		"common_pid == 1)", "common_pid == \"x\"", "common_pid & 1",
		"common_pid < 1 && common_pid > 2 || common_pid == 3",
		"start 0x1000/0x100", "filter 0x1000/0x100@/bin/sh",
	};
	unsigned int i;

	(void)fd;
	for (i = 0; i < ARRAY_SIZE(filters); i++) {
		struct perf_event_attr a = s->attr;
		char what[80];
		int f;

		a.config1 = a1_value(s->a1, s->attr.config1);
		a.size = sizeof(a);
		f = sys_open(&a, 0, -1, -1, 0);
		snprintf(what, sizeof(what), "filter(%s)", filters[i]);
		if (f < 0) {
			sayret(what, -1, 0);
			continue;
		}
		say_filter(what, ioctl(f, PERF_EVENT_IOC_SET_FILTER, filters[i]));
		close(f);
	}
}

static void fu_output(int fd, const struct spec *s)
{
	int other = open_kind(K_SW_COUNT, 0, -1, -1, 0, 0);
	int sample = open_kind(K_SW_SAMPLE, 0, -1, -1, 0, 0);
	int cpu0 = open_kind(K_SW_COUNT, -1, 0, -1, 0, 0);
	int clock = -1;
	void *buf = MAP_FAILED;
	struct perf_event_attr a;

	base_attr(&a, K_SW_SAMPLE);
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC_RAW;
	clock = sys_open(&a, 0, -1, -1, 0);
	if (sample >= 0)
		buf = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
			   sample, 0);
	say(" helpers:%s%s%s%s", other < 0 ? "-other" : "",
	    sample < 0 ? "-sample" : "", cpu0 < 0 ? "-cpu0" : "",
	    buf == MAP_FAILED ? "-buf" : "");
	sayret("out(-1)", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1), 1);
	sayret("out(self)", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, fd), 1);
	sayret("out(pipe)", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, pipe_fd()), 1);
	sayret("out(1000)", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, 1000), 1);
	sayret("out(cpu0)", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, cpu0), 1);
	sayret("out(clock)", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, clock), 1);
	sayret("out(other)", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, other), 1);
	sayret("out(buf)", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, sample), 1);
	sayret("mmap-redirected",
	       mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    0) == MAP_FAILED ? -1 : 0, 0);
	sayret("out(buf-again)", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, sample),
	       1);
	sayret("out(-1)again", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1), 1);
	sayret("buf->fd", ioctl(sample, PERF_EVENT_IOC_SET_OUTPUT, fd), 1);
	(void)s;
}

static void fu_modify(int fd, const struct spec *s)
{
	struct perf_event_attr a;
	char big[256];

	sayret("mod-null", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, NULL),
	       1);
	sayret("mod-bad", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, 8), 1);
	a = s->attr;
	a.size = sizeof(a);
	a.config1 = a1_value(s->a1, s->attr.config1);
	sayret("mod-same", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), 1);
	a.bp_addr = (unsigned long)&bp_var[2];
	sayret("mod-addr", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), 1);
	a.bp_addr = (unsigned long)&bp_var[0] + 1;
	sayret("mod-misaligned", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
				       &a), 1);
	a.bp_addr = 0xffffffff81000000ULL;
	sayret("mod-kernel", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a),
	       1);
	a.bp_addr = (unsigned long)&bp_var[0];
	a.bp_type = HW_BREAKPOINT_RW;
	sayret("mod-rw", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), 1);
	a.bp_type = HW_BREAKPOINT_X;
	a.bp_len = sizeof(long);
	a.bp_addr = (unsigned long)uprobe_target;
	sayret("mod-x", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), 1);
	a = s->attr;
	a.size = sizeof(a);
	a.config1 = a1_value(s->a1, s->attr.config1);
	a.bp_len = HW_BREAKPOINT_LEN_8;
	sayret("mod-len8", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), 1);
	a.bp_len = 3;
	sayret("mod-len3", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), 1);
	a.bp_len = HW_BREAKPOINT_LEN_4;
	a.sample_period = 7;
	sayret("mod-period", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a),
	       1);
	a.sample_period = s->attr.sample_period;
	a.exclude_user = 1;
	sayret("mod-excl", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), 1);
	a.exclude_user = s->attr.exclude_user;
	a.type = PERF_TYPE_SOFTWARE;
	sayret("mod-type", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), 1);
	a.type = s->attr.type;
	a.size = 0;
	sayret("mod-size0", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a),
	       1);
	a.size = 3;
	sayret("mod-size3", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a),
	       1);
	say("(size=%u)", a.size);
	a.size = PERF_ATTR_SIZE_VER0;
	sayret("mod-ver0", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), 1);
	memset(big, 0, sizeof(big));
	a.size = sizeof(big);
	memcpy(big, &a, sizeof(a));
	big[200] = 1;
	sayret("mod-bigtail", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, big),
	       1);
	memcpy(&a, big, sizeof(a));
	say("(size=%u)", a.size);
	a.size = sizeof(a);
	a.sample_type = 1ULL << 40;
	sayret("mod-badst", ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), 1);
}

static void fu_pause(int fd)
{
	void *p;

	sayret("pause(1)", ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), 1);
	sayret("pause(0)", ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0), 1);
	sayret("pause(2)", ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 2), 1);
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	sayret("mmap", p == MAP_FAILED ? -1 : 0, 0);
	sayret("pause(1)", ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), 1);
	sayret("pause(1)", ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), 1);
	sayret("pause(0)", ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0), 1);
	sayret("pause(-1)", ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, -1L), 1);
}

static void fu_bpf(int fd)
{
	struct { u32 ids_len, prog_cnt, ids[4]; } q = { 4, 0, { 0 } };

	sayret("bpf(-1)", ioctl(fd, PERF_EVENT_IOC_SET_BPF, -1), 1);
	sayret("bpf(pipe)", ioctl(fd, PERF_EVENT_IOC_SET_BPF, pipe_fd()), 1);
	sayret("bpf(1000)", ioctl(fd, PERF_EVENT_IOC_SET_BPF, 1000), 1);
	sayret("qbpf-null", ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, NULL), 1);
	sayret("qbpf", ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, &q), 1);
}

static void fu_unknown(int fd)
{
	static const struct { unsigned long cmd; const char *name; } cmds[] = {
		{ _IO('$', 12), "$12" }, { _IO('$', 0x7f), "$7f" },
		{ _IOW('$', 4, u32), "period-u32" },
		{ _IOR('$', 7, u32), "id-u32" },
		{ _IO('$', 4), "period-nosize" },
		{ _IOW('$', 0, u64), "enable-sized" },
		{ _IO('!', 0), "!0" }, { 0, "0" }, { 0x5401, "TCGETS" },
		{ FIONREAD, "FIONREAD" }, { FIOCLEX, "FIOCLEX" },
		{ FIONCLEX, "FIONCLEX" },
	};
	unsigned int i;
	int on = 1, off = 0;
	u64 v = 1000;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		int arg = 0;

		sayret(cmds[i].name, ioctl(fd, cmds[i].cmd, &arg), 1);
	}
	sayret("period-u32(1000)", ioctl(fd, _IOW('$', 4, u32), &v), 1);
	sayret("FIONBIO", ioctl(fd, FIONBIO, &on), 1);
	sayret("FIOASYNC", ioctl(fd, FIOASYNC, &on), 1);
	sayret("FIOASYNC0", ioctl(fd, FIOASYNC, &off), 1);
}

static void fu_file(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLOUT | POLLPRI };
	char path[64], link[64] = "";
	struct stat st;
	ssize_t n;

	say(" fd=%#x fl=%#x", fcntl(fd, F_GETFD), fcntl(fd, F_GETFL));
	sayret("lseek", lseek(fd, 0, SEEK_SET), 1);
	sayret("write", write(fd, "x", 1), 1);
	sayret("poll", poll(&pfd, 1, 0), 1);
	say("(%#x)", pfd.revents);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	say(" link=%s", n > 0 ? link : ename(errno));
	if (!fstat(fd, &st))
		say(" mode=%#o", st.st_mode);
	sayret("fsync", fsync(fd), 1);
	sayret("fcntl-setfl", fcntl(fd, F_SETFL, O_NONBLOCK | O_APPEND), 1);
	say(" fl=%#x", fcntl(fd, F_GETFL));
}

static int cur_enabled;

/*
 * What the first page of a buffer says that does not change by itself
 * (data_head does for an enabled event: it is left out then).
 */
static void say_user_page(struct perf_event_mmap_page *pg)
{
	u64 caps;

	memcpy(&caps, &pg->capabilities, sizeof(caps));
	/*
	 * Without a counter to read (index 0), cap_user_rdpmc says nothing
	 * (6.1 sets it for some software events, from a union it shares).
	 */
	if (!pg->index)
		caps &= ~4ULL;
	say("{v=%u cv=%u caps=%#llx idx=%u w=%u do=%llu ds=%llu dh=%lld dt=%llu ao=%llu as=%llu}",
	    pg->version, pg->compat_version, caps, pg->index, pg->pmc_width,
	    pg->data_offset, pg->data_size,
	    cur_enabled ? -1LL : (long long)pg->data_head, pg->data_tail,
	    pg->aux_offset, pg->aux_size);
}

static void fu_mmap(int fd)
{
	static const struct {
		size_t len;
		off_t off;
		int prot, flags;
		const char *name;
	} v[] = {
		{ PAGE, 0, PROT_READ | PROT_WRITE, MAP_SHARED, "1" },
		{ 2 * PAGE, 0, PROT_READ | PROT_WRITE, MAP_SHARED, "2" },
		{ 3 * PAGE, 0, PROT_READ | PROT_WRITE, MAP_SHARED, "3" },
		{ 5 * PAGE, 0, PROT_READ | PROT_WRITE, MAP_SHARED, "5" },
		{ 9 * PAGE, 0, PROT_READ, MAP_SHARED, "9r" },
		{ 17 * PAGE, 0, PROT_READ | PROT_WRITE, MAP_SHARED, "17" },
		{ 129 * PAGE, 0, PROT_READ | PROT_WRITE, MAP_SHARED, "129" },
		{ 2 * PAGE, 0, PROT_READ | PROT_WRITE, MAP_PRIVATE, "2p" },
		{ 2 * PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, "2@1" },
		{ 2 * PAGE, 0, PROT_WRITE, MAP_SHARED, "2w" },
		{ 2 * PAGE, 0, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED,
		  "2x" },
		{ 100, 0, PROT_READ | PROT_WRITE, MAP_SHARED, "100B" },
		{ PAGE + 100, 0, PROT_READ | PROT_WRITE, MAP_SHARED, "1p100B" },
		{ 0, 0, PROT_READ | PROT_WRITE, MAP_SHARED, "0" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		void *p = mmap(NULL, v[i].len, v[i].prot, v[i].flags, fd,
			       v[i].off);
		char what[16];

		snprintf(what, sizeof(what), "mmap%s", v[i].name);
		sayret(what, p == MAP_FAILED ? -1 : 0, 0);
		if (p == MAP_FAILED)
			continue;
		if (v[i].prot & PROT_READ)
			say_user_page(p);
		munmap(p, v[i].len);
	}
}

/* A buffer, a second mapping of it, the AUX area, an mremap. */
static void fu_mmap2(int fd)
{
	struct perf_event_mmap_page *pg;
	void *p2, *aux;

	pg = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	sayret("mmap3", pg == MAP_FAILED ? -1 : 0, 0);
	if (pg == MAP_FAILED)
		return;
	p2 = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	sayret("again3", p2 == MAP_FAILED ? -1 : 0, 0);
	if (p2 != MAP_FAILED)
		munmap(p2, 3 * PAGE);
	p2 = mmap(NULL, 5 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	sayret("again5", p2 == MAP_FAILED ? -1 : 0, 0);
	if (p2 != MAP_FAILED)
		munmap(p2, 5 * PAGE);
	aux = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   3 * PAGE);
	sayret("aux-unset", aux == MAP_FAILED ? -1 : 0, 0);
	pg->aux_offset = 3 * PAGE;
	pg->aux_size = PAGE;
	aux = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   3 * PAGE);
	sayret("aux", aux == MAP_FAILED ? -1 : 0, 0);
	pg->aux_offset = PAGE;
	aux = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, PAGE);
	sayret("aux-overlap", aux == MAP_FAILED ? -1 : 0, 0);
	p2 = mremap(pg, 3 * PAGE, 5 * PAGE, MREMAP_MAYMOVE);
	sayret("mremap", p2 == MAP_FAILED ? -1 : 0, 0);
	if (p2 != MAP_FAILED)
		pg = p2;
	sayret("mprotect", mprotect(pg, PAGE, PROT_READ | PROT_EXEC), 0);
	sayret("madvise-dontfork", madvise(pg, PAGE, MADV_DONTFORK), 0);
	sayret("munmap-part", munmap((char *)pg + PAGE, PAGE), 0);
}

/* Members until the group refuses one. */
static void fu_groupmax(int fd, const struct spec *s)
{
	struct rlimit rl = { 4096, 4096 };
	int n, m = -1;

	setrlimit(RLIMIT_NOFILE, &rl);
	for (n = 0; n < 3000; n++) {
		m = open_kind(K_SW_COUNT, 0, -1, fd, 0, s->attr.read_format);
		if (m < 0)
			break;
	}
	say(" members=%d", n);
	if (m < 0)
		say("(%s)", ename(errno));
}

/* Fill in the attribute block the syscall gets. */
static struct perf_event_attr *place_attr(const struct spec *s)
{
	static char *area;
	struct perf_event_attr a = s->attr;
	u32 size = s->size == -1 ? sizeof(a) : (u32)s->size;
	char *p;

	if (s->where == 1)
		return NULL;
	if (s->where == 2)
		return (void *)16;
	if (!area) {
		area = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		munmap(area + 3 * PAGE, PAGE);
	}
	memset(area, 0, 3 * PAGE);
	a.size = size;
	a.config1 = a1_value(s->a1, s->attr.config1);
	/* where 3: the first 64 bytes are the last of the mapping. */
	p = s->where == 3 ? area + 3 * PAGE - PERF_ATTR_SIZE_VER0 : area;
	memcpy(p, &a, s->where == 3 ? PERF_ATTR_SIZE_VER0 : sizeof(a));
	if (s->tail == 1 && size > sizeof(a) && s->where != 3)
		p[sizeof(a)] = 1;
	if (s->tail == 2 && size > sizeof(a) && size <= 3 * PAGE &&
	    s->where != 3)
		p[size - 1] = 1;
	return (struct perf_event_attr *)p;
}

static void fu_hwpage(int fd);
static void fu_lbrsel(int fd);
static void do_hwgroup(void);
static int hwg_n;

static void do_case(const struct spec *s)
{
	struct perf_event_attr *ua;
	int gfd = -1, lfd = -1, fd, i;
	u32 size_before;

	if (s->absent) {
		say(" no such pmu");
		return;
	}
	signal(SIGTRAP, on_trap);
	signal(SIGIO, on_trap);
	case_priv = s->priv;
	cur_enabled = !s->attr.disabled;
	if (become(s->priv)) {
		say(" become=%s", ename(errno));
		return;
	}
	if (hwg_n) {
		do_hwgroup();
		return;
	}
	if (s->pid == P_OWNKID || s->ld.pid == P_OWNKID) {
		own_kid = fork();
		if (!own_kid) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				pause();
		}
	}
	if (s->group == G_LEADER || s->group == G_MEMBER) {
		lfd = open_kind(s->ld.kind, pid_value(s->ld.pid), s->ld.cpu,
				-1, s->ld.flags, s->ld.read_format);
		if (lfd < 0) {
			say(" leader=%s", ename(errno));
			return;
		}
		gfd = lfd;
		for (i = 0; i < s->ld.members; i++) {
			int m = open_kind(K_SW_COUNT, pid_value(s->ld.pid),
					  s->ld.cpu, lfd, 0,
					  s->ld.read_format);
			if (m < 0) {
				say(" member=%s", ename(errno));
				return;
			}
			if (s->group == G_MEMBER)
				gfd = m;
		}
	} else if (s->group == G_PIPE) {
		gfd = pipe_fd();
	} else if (s->group == G_CLOSED) {
		gfd = pipe_fd();
		close(gfd);
	} else if (s->group == G_NEG) {
		gfd = -2;
	} else if (s->group == G_BIG) {
		gfd = 100000;
	}

	ua = place_attr(s);
	size_before = ua && s->where != 2 ? ua->size : 0;
	fd = sys_open(ua, pid_value(s->pid), s->cpu, gfd, s->flags);
	if (fd < 0) {
		say(" open=%s", ename(errno));
		if (ua && s->where != 2 && ua->size != size_before)
			say("(size=%u)", ua->size);
		return;
	}
	say(" open=ok");
	if (ua && s->where != 2 && ua->size != size_before)
		say("(size=%u)", ua->size);
	if (s->fu & FU_EXIT && own_kid > 0) {
		kill(own_kid, SIGKILL);
		waitpid(own_kid, NULL, 0);
		say(" kid-exited");
	}
	if (s->fu & FU_READ)
		fu_read(fd);
	if (s->fu & FU_FILE)
		fu_file(fd);
	if (s->fu & FU_ID)
		fu_id(fd);
	if (s->fu & FU_PERIOD)
		fu_period(fd);
	if (s->fu & FU_CTL)
		fu_ctl(fd);
	if (s->fu & FU_FILTER)
		fu_filter(fd);
	if (s->fu & FU_FILTER1)
		fu_filter1(fd, s);
	if (s->fu & FU_OUTPUT)
		fu_output(fd, s);
	if (s->fu & FU_MODIFY)
		fu_modify(fd, s);
	if (s->fu & FU_PAUSE)
		fu_pause(fd);
	if (s->fu & FU_BPF)
		fu_bpf(fd);
	if (s->fu & FU_UNKNOWN)
		fu_unknown(fd);
	if (s->fu & FU_MMAP)
		fu_mmap(fd);
	if (s->fu & FU_MMAP2)
		fu_mmap2(fd);
	if (s->fu & FU_GROUPMAX)
		fu_groupmax(fd, s);
	if (s->fu & FU_HWPAGE)
		fu_hwpage(fd);
	if (s->fu & FU_LBRSEL)
		fu_lbrsel(fd);
	if (s->fu & FU_READ)
		fu_read(fd);
}

/* ------------------------------------------------------------------ */
/* The driver. */

static int case_nr, first = 1, last = 1 << 30, verbose;
static int cur_paranoid = -100;

static void dump_attr(const struct spec *s)
{
	const unsigned char *p = (const unsigned char *)&s->attr;
	unsigned int i;

	printf("ABI-V %05d attr:", case_nr);
	for (i = 0; i < sizeof(s->attr); i++)
		printf("%s%02x", i % 8 ? "" : " ", p[i]);
	printf(" a1=%s pid=%d cpu=%d\n", a1_names[s->a1],
	       (int)pid_value(s->pid), s->cpu);
}

static void run(struct spec *s)
{
	char desc[1024];
	int status;
	pid_t pid;

	case_nr++;
	if (case_nr < first || case_nr > last)
		return;
	if (!alive(pid_child))
		pid_child = spawn_sleeper(0);
	if (!alive(pid_nobody))
		pid_nobody = spawn_sleeper(1);
	if (s->paranoid != cur_paranoid) {
		write_long(SYSCTL "perf_event_paranoid", s->paranoid);
		cur_paranoid = s->paranoid;
	}
	describe(s, desc, sizeof(desc));
	if (verbose)
		dump_attr(s);
	res[0] = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(20);
		do_case(s);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		say(" fork/wait failed");
	else if (WIFSIGNALED(status))
		say(" KILLED(%s)", sigabbrev_np(WTERMSIG(status)) ?: "?");
	printf("ABI %05d %s %s:%s\n", case_nr, s->family, desc, res);
	fflush(stdout);
}

/* Family: every type with valid and invalid configs. */
static void fam_types(void)
{
	static const u64 sw_cfg[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x100, 1ULL << 32,
		1ULL << 63, ~0ULL,
	};
	static const u64 hw_cfg[] = {
		0, 1, 9, 10, 11, 0xff, 1ULL << 32, (4ULL << 32) | 1,
		(1000ULL << 32), ~0ULL,
	};
	static const u64 cache_cfg[] = {
		0, 0x10000, 0x7, 0x300, 0x20000, 0x10106, ~0ULL,
	};
	static const u64 raw_cfg[] = { 0, 0xc0, 0x3c, ~0ULL };
	static const u32 bad_types[] = {
		PERF_TYPE_MAX + 20, 100, 1000, 0x7fffffff, 0x80000000,
		0xffffffff,
	};
	static const char * const pmu_names[] = {
		"breakpoint", "cpu", "cstate_core", "cstate_pkg", "kprobe",
		"msr", "power", "software", "tracepoint", "uprobe",
	};
	struct spec s;
	unsigned int i;
	int p, j;

	for (i = 0; i < ARRAY_SIZE(sw_cfg); i++) {
		spec_init(&s, "types", K_SW_COUNT);
		s.attr.config = sw_cfg[i];
		s.fu |= FU_ID;
		run(&s);
		s.pid = P_ANY;
		s.cpu = 0;
		run(&s);
	}
	for (i = 0; i < ARRAY_SIZE(hw_cfg); i++) {
		spec_init(&s, "types", K_HW);
		s.attr.config = hw_cfg[i];
		run(&s);
	}
	for (i = 0; i < ARRAY_SIZE(cache_cfg); i++) {
		spec_init(&s, "types", K_CACHE);
		s.attr.config = cache_cfg[i];
		run(&s);
	}
	for (i = 0; i < ARRAY_SIZE(raw_cfg); i++) {
		spec_init(&s, "types", K_RAW);
		s.attr.config = raw_cfg[i];
		run(&s);
	}
	{
		static const u64 tp_cfg[] = { 0, 1, 0xffff, 0x7fffffff,
					      1ULL << 32, ~0ULL };

		spec_init(&s, "types", K_TP);
		s.fu |= FU_ID | FU_FILTER;
		run(&s);
		s.attr.config = tp_getppid_exit;
		run(&s);
		s.attr.config = tp_ftrace;
		run(&s);
		for (i = 0; i < ARRAY_SIZE(tp_cfg); i++) {
			spec_init(&s, "types", K_TP);
			s.attr.config = tp_cfg[i];
			run(&s);
		}
	}
	for (i = 0; i < 4; i++) {
		spec_init(&s, "types", K_BP);
		s.attr.config = i == 3 ? ~0ULL : i;
		run(&s);
	}
	for (i = 0; i < ARRAY_SIZE(bad_types); i++) {
		spec_init(&s, "types", K_SW_COUNT);
		s.attr.type = bad_types[i];
		run(&s);
	}
	/* The PMUs a 6.1 guest may have, by the number sysfs gives. */
	for (p = 0; p < (int)ARRAY_SIZE(pmu_names); p++) {
		for (i = 0; i < 3; i++) {
			spec_init(&s, "types", K_SW_COUNT);
			s.attr.config = i;
			snprintf(s.note, sizeof(s.note), "pmu %s",
				 pmu_names[p]);
			s.absent = 1;
			for (j = 0; j < nr_pmus; j++) {
				if (!strcmp(pmus[j].name, pmu_names[p])) {
					s.attr.type = pmus[j].type;
					s.absent = 0;
				}
			}
			run(&s);
		}
	}
	/* The probe PMUs. */
	if (type_kprobe >= 0) {
		static const int a1s[] = { A_KFUNC, A_NOSYM, A_BADPTR, A_EMPTY,
					   A_RAW };

		for (i = 0; i < ARRAY_SIZE(a1s); i++) {
			spec_init(&s, "types", K_KPROBE);
			s.a1 = a1s[i];
			s.fu |= FU_ID | FU_FILTER;
			run(&s);
			s.attr.config = 1;	/* retprobe */
			run(&s);
			s.attr.config = 2;
			run(&s);
			s.attr.config = 0;
			s.attr.probe_offset = 1;
			run(&s);
		}
		spec_init(&s, "types", K_KPROBE);
		s.a1 = A_RAW;
		s.attr.kprobe_addr = 0xffffffff81000000ULL;
		run(&s);
	}
	if (type_uprobe >= 0) {
		static const int a1s[] = { A_EXE, A_NOPATH, A_BADPTR, A_EMPTY,
					   A_RAW };

		for (i = 0; i < ARRAY_SIZE(a1s); i++) {
			spec_init(&s, "types", K_UPROBE);
			s.a1 = a1s[i];
			s.fu |= FU_ID;
			run(&s);
			s.attr.config = 1;
			run(&s);
			s.attr.probe_offset = 1ULL << 40;
			run(&s);
		}
	}
}

/* Family: attr.size and where the block lies. */
static void fam_sizes(void)
{
	static const int sizes[] = {
		0, 1, 8, 63, 64, 65, 71, 72, 80, 88, 96, 100, 104, 112, 120,
		127, 128, 129, 136, 144, 256, 4095, 4096, 4097, 8192, 12288,
		0x7fffffff, -2,
	};
	static const int kinds[] = { K_SW_COUNT, K_BP, K_SW_SAMPLE };
	struct spec s;
	unsigned int i, k;
	int t;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			for (t = 0; t < 3; t++) {
				if (t && sizes[i] <= 128)
					continue;
				spec_init(&s, "sizes", kinds[k]);
				s.size = sizes[i];
				s.tail = t;
				run(&s);
			}
		}
	}
	/* Fields past a small size are not read. */
	for (i = 0; i < 6; i++) {
		static const int small[] = { 64, 72, 80, 96, 104, 112 };

		spec_init(&s, "sizes", K_SW_SAMPLE);
		s.size = small[i];
		s.attr.sample_type |= PERF_SAMPLE_REGS_USER |
				      PERF_SAMPLE_STACK_USER |
				      PERF_SAMPLE_REGS_INTR |
				      PERF_SAMPLE_BRANCH_STACK;
		s.attr.sample_regs_user = 1;
		s.attr.sample_stack_user = 8;
		s.attr.sample_regs_intr = 1;
		s.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
		run(&s);
		spec_init(&s, "sizes", K_BP);
		s.size = small[i];
		run(&s);
		spec_init(&s, "sizes", K_SW_COUNT);
		s.size = small[i];
		s.attr.use_clockid = 1;
		s.attr.clockid = 99;
		s.attr.sigtrap = 1;
		s.attr.remove_on_exec = 1;
		s.attr.sig_data = 5;
		run(&s);
	}
	for (i = 1; i <= 3; i++) {
		spec_init(&s, "sizes", K_SW_COUNT);
		s.where = i;
		run(&s);
		s.size = 64;
		run(&s);
		s.size = 0;
		run(&s);
		s.size = 65;
		run(&s);
	}
}

/* Family: each bit of the flags word on several kinds. */
static void fam_flags(void)
{
	static const int kinds[] = {
		K_SW_COUNT, K_SW_SAMPLE, K_TP, K_BP, K_DUMMY, K_TASKCLOCK,
	};
	struct spec s;
	unsigned int k;
	int bit;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (bit = 0; bit < 64; bit++) {
			spec_init(&s, "flags", kinds[k]);
			set_flags(&s.attr, get_flags(&s.attr) ^ (1ULL << bit));
			s.fu |= FU_ID | FU_CTL;
			run(&s);
		}
	}
	/* ... on a CPU, as nobody with paranoid -1. */
	for (bit = 0; bit < 40; bit++) {
		spec_init(&s, "flags", K_SW_SAMPLE);
		set_flags(&s.attr, get_flags(&s.attr) ^ (1ULL << bit));
		s.pid = P_ANY;
		s.cpu = 0;
		run(&s);
		s.priv = PRIV_NOBODY;
		s.paranoid = -1;
		run(&s);
		s.pid = P_SELF;
		s.cpu = -1;
		s.paranoid = 1;
		run(&s);
	}
}

/* Family: sample_type and read_format bits. */
static void fam_bits(void)
{
	static const int kinds[] = { K_SW_SAMPLE, K_SW_COUNT, K_TP, K_BP };
	struct spec s;
	unsigned int k;
	int bit;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (bit = 0; bit < 64; bit++) {
			spec_init(&s, "sample_type", kinds[k]);
			s.attr.sample_type ^= 1ULL << bit;
			s.fu |= FU_MMAP;
			run(&s);
		}
	}
	for (bit = 0; bit < 64; bit++) {
		spec_init(&s, "read_format", K_SW_COUNT);
		s.attr.read_format = 1ULL << bit;
		s.fu |= FU_READ;
		run(&s);
		s.group = G_LEADER;
		run(&s);
		s.ld.members = 2;
		run(&s);
		s.group = G_MEMBER;
		run(&s);
		s.ld.read_format = PERF_FORMAT_GROUP;
		run(&s);
		s.ld.read_format = 1ULL << bit;
		s.group = G_LEADER;
		s.attr.read_format = 0;
		run(&s);
		spec_init(&s, "read_format", K_SW_SAMPLE);
		s.attr.read_format = 1ULL << bit;
		s.attr.sample_type |= PERF_SAMPLE_READ;
		run(&s);
		s.attr.inherit = 1;
		run(&s);
	}
	/* Combinations that have rules. */
	{
		static const struct { u64 st; u64 extra; const char *what; }
		combos[] = {
			{ PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, 0, "" },
			{ PERF_SAMPLE_BRANCH_STACK, 0, "branch=0" },
			{ PERF_SAMPLE_BRANCH_STACK, PERF_SAMPLE_BRANCH_ANY, "" },
			{ PERF_SAMPLE_BRANCH_STACK, PERF_SAMPLE_BRANCH_USER, "" },
			{ PERF_SAMPLE_BRANCH_STACK, PERF_SAMPLE_BRANCH_KERNEL |
			  PERF_SAMPLE_BRANCH_ANY, "" },
			{ PERF_SAMPLE_BRANCH_STACK, 1ULL << 19, "" },
			{ PERF_SAMPLE_BRANCH_STACK, 1ULL << 40, "" },
			{ PERF_SAMPLE_BRANCH_STACK, PERF_SAMPLE_BRANCH_HV |
			  PERF_SAMPLE_BRANCH_ANY, "" },
			{ 0, PERF_SAMPLE_BRANCH_ANY, "branch w/o stack" },
		};
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(combos); i++) {
			spec_init(&s, "sample_combo", K_SW_SAMPLE);
			s.attr.sample_type |= combos[i].st;
			s.attr.branch_sample_type = combos[i].extra;
			run(&s);
			s.priv = PRIV_NOBODY;
			s.paranoid = 1;
			s.attr.exclude_kernel = 1;
			run(&s);
		}
	}
	/* The privilege levels of a branch stack, given or implied. */
	for (bit = 0; bit < 64; bit++) {
		static const u64 plm[] = {
			0, PERF_SAMPLE_BRANCH_USER, PERF_SAMPLE_BRANCH_KERNEL,
			PERF_SAMPLE_BRANCH_HV,
		};
		static const int privs[] = {
			PRIV_ROOT, PRIV_NOBODY, PRIV_NOBODY, PRIV_NOBODY_PERFMON,
		};

		spec_init(&s, "branch_priv", K_SW_SAMPLE);
		s.attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		s.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
					    plm[bit & 3];
		s.attr.exclude_user = !!(bit & 4);
		s.attr.exclude_kernel = !!(bit & 8);
		s.attr.exclude_hv = !!(bit & 16);
		s.priv = privs[bit >> 5 ? 2 + (bit & 1) : 1];
		s.paranoid = bit & 32 ? 1 : 2;
		run(&s);
	}
	{
		static const u64 regs[] = {
			0, 1, 0xff, 0xffff, 0xffffff, 0x1ffffff, 1ULL << 12,
			1ULL << 16, 1ULL << 23, 1ULL << 24, 1ULL << 32,
			1ULL << 63, ~0ULL, 0xff0fff,
		};
		static const u32 stacks[] = {
			0, 1, 8, 100, 4096, 65528, 65535, 65536, 0x100000,
			0xffffffff,
		};
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(regs); i++) {
			spec_init(&s, "sample_combo", K_SW_SAMPLE);
			s.attr.sample_type |= PERF_SAMPLE_REGS_USER;
			s.attr.sample_regs_user = regs[i];
			run(&s);
			spec_init(&s, "sample_combo", K_SW_SAMPLE);
			s.attr.sample_type |= PERF_SAMPLE_REGS_INTR;
			s.attr.sample_regs_intr = regs[i];
			run(&s);
			s.priv = PRIV_NOBODY;
			s.paranoid = 1;
			s.attr.exclude_kernel = 1;
			run(&s);
			spec_init(&s, "sample_combo", K_SW_SAMPLE);
			s.attr.sample_regs_user = regs[i];
			s.attr.sample_regs_intr = regs[i];
			run(&s);
		}
		for (i = 0; i < ARRAY_SIZE(stacks); i++) {
			spec_init(&s, "sample_combo", K_SW_SAMPLE);
			s.attr.sample_type |= PERF_SAMPLE_STACK_USER;
			s.attr.sample_stack_user = stacks[i];
			run(&s);
			s.attr.sample_type &= ~PERF_SAMPLE_STACK_USER;
			run(&s);
		}
	}
	{
		static const u32 stacks[] = { 0, 1, 126, 127, 128, 1000,
					      65535 };
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(stacks); i++) {
			spec_init(&s, "sample_combo", K_SW_SAMPLE);
			s.attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
			s.attr.sample_max_stack = stacks[i];
			run(&s);
			s.priv = PRIV_NOBODY;
			s.paranoid = 1;
			s.attr.exclude_kernel = 1;
			run(&s);
			s.attr.sample_type &= ~PERF_SAMPLE_CALLCHAIN;
			run(&s);
		}
	}
}

/* Family: pid, cpu, group_fd and flags. */
static void fam_target(void)
{
	static const int pids[] = {
		P_SELF, P_ANY, P_GETPID, P_CHILD, P_NOBODY, P_ZOMBIE, P_GONE,
		P_NEG, P_INIT,
	};
	static const int cpus[] = { -1, 0, 1, 2, 3, 8, -2, 1000 };
	static const unsigned long flags[] = {
		0, PERF_FLAG_FD_CLOEXEC, PERF_FLAG_FD_NO_GROUP,
		PERF_FLAG_FD_OUTPUT, PERF_FLAG_PID_CGROUP, 0x10,
		1UL << 63,
	};
	static const int cg_pids[] = {
		P_CGDIR, P_TMPDIR, P_FILE, P_BADFD, P_ANY, P_SELF, P_NEG,
	};
	struct spec s;
	unsigned int p, c, f, g;

	for (p = 0; p < ARRAY_SIZE(pids); p++) {
		for (c = 0; c < ARRAY_SIZE(cpus); c++) {
			for (f = 0; f < ARRAY_SIZE(flags); f++) {
				spec_init(&s, "target", K_SW_COUNT);
				s.pid = pids[p];
				s.cpu = cpus[c];
				s.flags = flags[f];
				run(&s);
			}
		}
	}
	for (p = 0; p < ARRAY_SIZE(cg_pids); p++) {
		for (c = 0; c < 4; c++) {
			spec_init(&s, "cgroup", K_SW_COUNT);
			s.pid = cg_pids[p];
			s.cpu = cpus[c];
			s.flags = PERF_FLAG_PID_CGROUP;
			s.fu |= FU_ID | FU_CTL;
			run(&s);
			s.priv = PRIV_NOBODY;
			s.paranoid = -1;
			run(&s);
		}
		spec_init(&s, "cgroup", K_SW_COUNT);
		s.pid = cg_pids[p];
		s.cpu = 0;
		s.flags = PERF_FLAG_PID_CGROUP;
		s.attr.inherit = 1;
		run(&s);
		s.attr.inherit = 0;
		s.group = G_LEADER;
		s.ld.pid = P_ANY;
		s.ld.cpu = 0;
		run(&s);
	}
	for (g = 0; g < G_NR; g++) {
		for (f = 0; f < ARRAY_SIZE(flags); f++) {
			spec_init(&s, "groupfd", K_SW_COUNT);
			s.group = g;
			s.flags = flags[f];
			s.cpu = flags[f] == PERF_FLAG_PID_CGROUP ? 0 : -1;
			if (flags[f] == PERF_FLAG_PID_CGROUP)
				s.pid = P_CGDIR;
			run(&s);
			s.ld.members = 1;
			run(&s);
		}
	}
}

/* Family: group leaders and members of different kinds. */
static void fam_groups(void)
{
	static const struct leader leaders[] = {
		{ K_SW_COUNT, P_SELF, -1, 0, 0, 0 },
		{ K_SW_COUNT, P_SELF, -1, 1, 0, 0 },	/* enabled */
		{ K_SW_SAMPLE, P_SELF, -1, 0, 0, 0 },
		{ K_TP, P_SELF, -1, 0, 0, 0 },
		{ K_BP, P_SELF, -1, 0, 0, 0 },
		{ K_DUMMY, P_SELF, -1, 0, 0, 0 },
		{ K_SW_COUNT, P_ANY, 0, 0, 0, 0 },
		{ K_SW_COUNT, P_ANY, 1, 0, 0, 0 },
		{ K_SW_COUNT, P_SELF, 0, 0, 0, 0 },
		{ K_SW_COUNT, P_CHILD, -1, 0, 0, 0 },
		{ K_SW_COUNT, P_SELF, -1, 1 << 2, 0, 0 },	/* pinned */
		{ K_SW_COUNT, P_SELF, -1, 1 << 3, 0, 0 },	/* exclusive */
		{ K_SW_COUNT, P_SELF, -1, 1 << 1, 0, 0 },	/* inherit */
		{ K_SW_COUNT, P_SELF, -1, 0, PERF_FORMAT_GROUP, 0 },
		{ K_SW_COUNT, P_SELF, -1, 0, 0, 2 },
		{ K_TASKCLOCK, P_SELF, -1, 0, 0, 0 },
		{ K_KPROBE, P_SELF, -1, 0, 0, 0 },
		{ K_SW_FREQ, P_SELF, -1, 0, 0, 0 },
	};
	static const struct { int kind; int pid; int cpu; u64 flags; } mem[] = {
		{ K_SW_COUNT, P_SELF, -1, 0 },
		{ K_SW_COUNT, P_CHILD, -1, 0 },
		{ K_SW_COUNT, P_ANY, 0, 0 },
		{ K_SW_COUNT, P_SELF, 0, 0 },
		{ K_SW_COUNT, P_SELF, 1, 0 },
		{ K_SW_SAMPLE, P_SELF, -1, 0 },
		{ K_TP, P_SELF, -1, 0 },
		{ K_BP, P_SELF, -1, 0 },
		{ K_DUMMY, P_SELF, -1, 0 },
		{ K_HW, P_SELF, -1, 0 },
		{ K_SW_COUNT, P_SELF, -1, 1 << 1 },	/* inherit */
		{ K_SW_COUNT, P_SELF, -1, 1 << 2 },	/* pinned */
		{ K_SW_COUNT, P_SELF, -1, 1 << 3 },	/* exclusive */
		{ K_SW_COUNT, P_SELF, -1, 1 << 12 },	/* enable_on_exec */
		{ K_SW_COUNT, P_SELF, -1, 1 << 0 },	/* enabled */
		{ K_TASKCLOCK, P_SELF, -1, 0 },
		{ K_SW_FREQ, P_SELF, -1, 0 },
	};
	static const unsigned long flags[] = {
		0, PERF_FLAG_FD_NO_GROUP, PERF_FLAG_FD_OUTPUT,
		PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT,
	};
	struct spec s;
	unsigned int l, m, f;

	for (l = 0; l < ARRAY_SIZE(leaders); l++) {
		for (m = 0; m < ARRAY_SIZE(mem); m++) {
			spec_init(&s, "groups", mem[m].kind);
			s.group = G_LEADER;
			s.ld = leaders[l];
			s.pid = mem[m].pid;
			s.cpu = mem[m].cpu;
			set_flags(&s.attr, get_flags(&s.attr) ^ mem[m].flags);
			s.fu |= FU_CTL;
			run(&s);
		}
		for (f = 1; f < ARRAY_SIZE(flags); f++) {
			spec_init(&s, "groups", K_SW_SAMPLE);
			s.group = G_LEADER;
			s.ld = leaders[l];
			s.flags = flags[f];
			s.fu |= FU_MMAP2;
			run(&s);
		}
		spec_init(&s, "groups", K_SW_COUNT);
		s.group = G_MEMBER;
		s.ld = leaders[l];
		s.ld.members = 1;
		run(&s);
	}
	/* How big may a group get? */
	{
		static const u64 rfs[] = {
			0, PERF_FORMAT_GROUP,
			PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING,
		};
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(rfs); i++) {
			spec_init(&s, "groupmax", K_SW_COUNT);
			s.attr.read_format = rfs[i];
			s.fu = FU_GROUPMAX;
			run(&s);
		}
	}
}

/* Family: privilege levels. */
static void fam_paranoid(void)
{
	static const int levels[] = { -1, 0, 1, 2, 3 };
	static const int privs[] = {
		PRIV_NOBODY, PRIV_NOBODY_PERFMON, PRIV_NOBODY_ADMIN,
		PRIV_ROOT_NOADMIN,
	};
	struct spec s;
	unsigned int l, p;
	int v;

	for (l = 0; l < ARRAY_SIZE(levels); l++) {
		for (p = 0; p < ARRAY_SIZE(privs); p++) {
			for (v = 0; v < 26; v++) {
				spec_init(&s, "paranoid", K_SW_COUNT);
				s.priv = privs[p];
				s.paranoid = levels[l];
				s.attr.exclude_kernel = 1;
				s.attr.exclude_hv = 1;
				switch (v) {
				case 0:
					break;
				case 1:
					s.attr.exclude_kernel = 0;
					break;
				case 2:
					s.attr.exclude_hv = 0;
					break;
				case 3:
					s.attr.exclude_user = 1;
					break;
				case 4:
					s.pid = P_ANY;
					s.cpu = 0;
					break;
				case 5:
					s.pid = P_NOBODY;
					break;
				case 6:
					s.pid = P_CHILD;
					break;
				case 7:
					s.pid = P_INIT;
					break;
				case 8:
					spec_init(&s, "paranoid", K_TP);
					break;
				case 9:
					spec_init(&s, "paranoid", K_BP);
					s.attr.exclude_kernel = 1;
					break;
				case 10:
					spec_init(&s, "paranoid", K_BP);
					s.a1 = A_KERNEL;
					s.attr.exclude_kernel = 1;
					break;
				case 11:
					spec_init(&s, "paranoid", K_KPROBE);
					break;
				case 12:
					spec_init(&s, "paranoid", K_UPROBE);
					break;
				case 13:
					s.attr.sample_type =
						PERF_SAMPLE_CALLCHAIN;
					s.attr.sample_period = 1000;
					break;
				case 14:
					s.attr.sample_type =
						PERF_SAMPLE_REGS_INTR;
					s.attr.sample_regs_intr = 1;
					s.attr.sample_period = 1000;
					break;
				case 15:
					s.attr.sample_type =
						PERF_SAMPLE_BRANCH_STACK;
					s.attr.branch_sample_type =
						PERF_SAMPLE_BRANCH_ANY |
						PERF_SAMPLE_BRANCH_KERNEL;
					s.attr.sample_period = 1000;
					break;
				case 16:
					s.attr.namespaces = 1;
					break;
				case 17:
					s.attr.text_poke = 1;
					break;
				case 18:
					s.attr.ksymbol = 1;
					break;
				case 19:
					s.attr.bpf_event = 1;
					break;
				case 20:
					s.attr.cgroup = 1;
					break;
				case 21:
					s.pid = P_CGDIR;
					s.cpu = 0;
					s.flags = PERF_FLAG_PID_CGROUP;
					break;
				case 22:
					s.attr.freq = 1;
					s.attr.sample_freq = max_rate + 1;
					break;
				case 23:
					s.attr.sample_type =
						PERF_SAMPLE_PHYS_ADDR;
					s.attr.sample_period = 1000;
					break;
				case 24:
					s.attr.exclude_idle = 1;
					s.attr.exclude_kernel = 0;
					break;
				case 25:
					spec_init(&s, "paranoid",
						  K_SW_SAMPLE);
					s.attr.exclude_kernel = 1;
					s.fu |= FU_MMAP;
					break;
				}
				s.priv = privs[p];
				s.paranoid = levels[l];
				run(&s);
			}
		}
	}
	/* The mlock limit. */
	for (l = 0; l < 2; l++) {
		spec_init(&s, "mlock", K_SW_SAMPLE);
		s.attr.exclude_kernel = 1;
		s.priv = l ? PRIV_NOBODY_IPCLOCK : PRIV_NOBODY;
		s.paranoid = 1;
		s.fu |= FU_MMAP;
		run(&s);
	}
}

/* Family: frequency and period against the maximum rate. */
static void fam_freq(void)
{
	u64 freqs[] = {
		0, 1, 1000, max_rate - 1, max_rate, max_rate + 1, 1ULL << 31,
		1ULL << 32, 1ULL << 63, ~0ULL,
	};
	static const u64 periods[] = {
		0, 1, 2, 1000, 1ULL << 31, 1ULL << 62, (1ULL << 63) - 1,
		1ULL << 63, ~0ULL,
	};
	static const int kinds[] = { K_SW_SAMPLE, K_TP, K_BP, K_SW_COUNT };
	struct spec s;
	unsigned int i, k;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (i = 0; i < ARRAY_SIZE(freqs); i++) {
			spec_init(&s, "freq", kinds[k]);
			s.attr.freq = 1;
			s.attr.sample_freq = freqs[i];
			s.fu |= FU_PERIOD;
			run(&s);
			if (k)
				continue;
			s.priv = PRIV_NOBODY;
			s.paranoid = 1;
			s.attr.exclude_kernel = 1;
			run(&s);
		}
		for (i = 0; i < ARRAY_SIZE(periods); i++) {
			spec_init(&s, "period", kinds[k]);
			s.attr.sample_period = periods[i];
			s.fu |= FU_PERIOD;
			run(&s);
		}
	}
}

/* Family: precise_ip, clockid, breakpoint fields. */
static void fam_misc(void)
{
	static const int kinds[] = {
		K_SW_COUNT, K_SW_SAMPLE, K_TP, K_BP, K_DUMMY, K_HW, K_KPROBE,
	};
	static const int clocks[] = {
		-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 100,
		0x7fffffff, INT_MIN,
	};
	static const u32 bp_types[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 0x10, 0xffffffff,
	};
	static const u64 bp_lens[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 1ULL << 32,
	};
	static const int addrs[] = {
		A_VAR, A_VAR1, A_VAR3, A_VAR2, A_FUNC, A_KERNEL, A_TOP, A_RAW,
	};
	struct spec s;
	unsigned int i, k, j;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (i = 0; i < 4; i++) {
			spec_init(&s, "precise", kinds[k]);
			s.attr.precise_ip = i;
			run(&s);
		}
	}
	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		spec_init(&s, "clockid", K_SW_SAMPLE);
		s.attr.use_clockid = 1;
		s.attr.clockid = clocks[i];
		s.fu |= FU_MMAP;
		run(&s);
		s.fu &= ~FU_MMAP;
		s.attr.use_clockid = 0;
		run(&s);
		spec_init(&s, "clockid", K_SW_COUNT);
		s.attr.use_clockid = 1;
		s.attr.clockid = clocks[i];
		run(&s);
	}
	for (i = 0; i < ARRAY_SIZE(bp_types); i++) {
		for (j = 0; j < ARRAY_SIZE(bp_lens); j++) {
			spec_init(&s, "bp", K_BP);
			s.attr.bp_type = bp_types[i];
			s.attr.bp_len = bp_lens[j];
			if (bp_types[i] == HW_BREAKPOINT_X)
				s.a1 = A_FUNC;
			run(&s);
		}
	}
	for (i = 0; i < ARRAY_SIZE(addrs); i++) {
		static const u32 types[] = {
			HW_BREAKPOINT_W, HW_BREAKPOINT_RW, HW_BREAKPOINT_X,
		};
		static const u64 lens[] = { 1, 2, 4, 8 };

		for (k = 0; k < ARRAY_SIZE(types); k++) {
			for (j = 0; j < ARRAY_SIZE(lens); j++) {
				spec_init(&s, "bp", K_BP);
				s.a1 = addrs[i];
				s.attr.bp_type = types[k];
				s.attr.bp_len = lens[j];
				run(&s);
			}
		}
		spec_init(&s, "bp", K_BP);
		s.a1 = addrs[i];
		s.attr.exclude_kernel = 1;
		s.priv = PRIV_NOBODY;
		s.paranoid = 1;
		run(&s);
		s.pid = P_ANY;
		s.cpu = 0;
		s.priv = PRIV_ROOT;
		s.paranoid = 2;
		run(&s);
	}
	/* Breakpoints with every ioctl; more than the slots. */
	spec_init(&s, "bp", K_BP);
	s.fu = FU_ALL & ~FU_GROUPMAX;
	run(&s);
	spec_init(&s, "bp", K_BP);
	s.attr.inherit = 1;
	s.fu |= FU_MODIFY;
	run(&s);
	spec_init(&s, "bp", K_BP);
	s.group = G_LEADER;
	s.ld.kind = K_BP;
	s.ld.members = 0;
	s.fu |= FU_MODIFY;
	run(&s);
	for (i = 0; i < 4; i++) {
		spec_init(&s, "bp-slots", K_BP);
		s.group = G_LEADER;
		s.ld.kind = K_BP;
		s.ld.flags = 1;		/* an enabled leader */
		s.attr.disabled = 0;
		s.ld.members = 0;
		s.fu = FU_GROUPMAX;
		s.attr.bp_type = i & 1 ? HW_BREAKPOINT_X : HW_BREAKPOINT_W;
		if (i & 1) {
			s.a1 = A_FUNC;
			s.attr.bp_len = sizeof(long);
		}
		s.pid = i & 2 ? P_ANY : P_SELF;
		s.cpu = i & 2 ? 0 : -1;
		run(&s);
	}
}

/* Family: flag combinations with rules, wakeups, aux. */
static void fam_rules(void)
{
	static const char * const names[] = {
		"inherit", "inherit_thread", "remove_on_exec", "sigtrap",
		"enable_on_exec", "aux_output", "inherit_stat",
	};
	struct spec s;
	unsigned int m, i;

	for (m = 0; m < 256; m++) {
		spec_init(&s, "rules", K_SW_SAMPLE);
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (m & (1 << i))
				set_flags(&s.attr, get_flags(&s.attr) |
					  F(names[i]));
		if (m & 128)
			s.attr.sample_type |= PERF_SAMPLE_READ;
		run(&s);
	}
	for (m = 0; m < 16; m++) {
		spec_init(&s, "rules", K_SW_SAMPLE);
		s.attr.sigtrap = !!(m & 1);
		s.attr.remove_on_exec = 1;
		s.attr.sig_data = m & 2 ? 0x1234 : 0;
		s.attr.inherit = !!(m & 4);
		s.attr.inherit_thread = !!(m & 4);
		s.pid = m & 8 ? P_ANY : P_SELF;
		s.cpu = m & 8 ? 0 : -1;
		run(&s);
	}
	for (m = 0; m < 12; m++) {
		static const u32 aux[] = { 0, 1, 4096, 0xffffffff };

		spec_init(&s, "aux", K_SW_SAMPLE);
		if (m < 4) {
			s.attr.aux_watermark = aux[m];
		} else if (m < 8) {
			s.attr.aux_sample_size = aux[m - 4];
		} else {
			s.attr.aux_sample_size = aux[m - 8];
			s.attr.sample_type |= PERF_SAMPLE_AUX;
		}
		run(&s);
	}
	for (m = 0; m < 4; m++) {
		spec_init(&s, "reserved", K_SW_COUNT);
		if (m == 0)
			s.attr.__reserved_2 = 1;
		else if (m == 1)
			s.attr.__reserved_3 = 1;
		else if (m == 2)
			s.attr.__reserved_1 = 1;
		else
			s.attr.__reserved_1 = 1ULL << 25;
		run(&s);
	}
	for (m = 0; m < 8; m++) {
		static const u32 wake[] = { 0, 1, 2, 4096, 8192, 12288,
					    1 << 20, 0xffffffff };

		spec_init(&s, "wakeup", K_SW_SAMPLE);
		s.attr.wakeup_events = wake[m];
		s.fu |= FU_MMAP;
		run(&s);
		s.attr.watermark = 1;
		run(&s);
	}
	/* Inherited events on other tasks and CPUs. */
	for (m = 0; m < 4; m++) {
		spec_init(&s, "inherit", K_SW_COUNT);
		s.attr.inherit = 1;
		s.pid = m & 1 ? P_ANY : P_CHILD;
		s.cpu = m & 2 ? 0 : -1;
		s.fu |= FU_MMAP | FU_OUTPUT;
		run(&s);
	}
}

/* Family: the calls on a descriptor, for each kind of event. */
static void fam_ioctl(void)
{
	static const struct ev {
		int kind, pid, cpu, group;
		u64 flags;
	} ev[] = {
		{ K_SW_COUNT, P_SELF, -1, G_NONE, 0 },
		{ K_SW_SAMPLE, P_SELF, -1, G_NONE, 0 },
		{ K_SW_FREQ, P_SELF, -1, G_NONE, 0 },
		{ K_TP, P_SELF, -1, G_NONE, 0 },
		{ K_BP, P_SELF, -1, G_NONE, 0 },
		{ K_DUMMY, P_SELF, -1, G_NONE, 0 },
		{ K_KPROBE, P_SELF, -1, G_NONE, 0 },
		{ K_UPROBE, P_SELF, -1, G_NONE, 0 },
		{ K_SW_COUNT, P_SELF, -1, G_LEADER, 0 },
		{ K_SW_SAMPLE, P_SELF, -1, G_LEADER, 0 },
		{ K_SW_SAMPLE, P_SELF, -1, G_NONE, 1 << 1 },	/* inherit */
		{ K_SW_SAMPLE, P_CHILD, -1, G_NONE, 0 },
		{ K_SW_SAMPLE, P_ANY, 0, G_NONE, 0 },
		{ K_SW_SAMPLE, P_ANY, 1, G_NONE, 0 },
		{ K_SW_SAMPLE, P_SELF, -1, G_NONE, 1 << 0 },	/* enabled */
		{ K_SW_SAMPLE, P_SELF, -1, G_NONE, 1ULL << 27 },	/* backward */
		{ K_TASKCLOCK, P_SELF, -1, G_NONE, 0 },
		{ K_SW_SAMPLE, P_CGDIR, 0, G_NONE, 0 },
		{ K_SW_SAMPLE, P_OWNKID, -1, G_NONE, 0 },
		{ K_SW_COUNT, P_OWNKID, -1, G_NONE, 1 << 1 },	/* inherit */
		{ K_TP, P_OWNKID, -1, G_NONE, 0 },
		{ K_BP, P_OWNKID, -1, G_NONE, 0 },
	};
	static const unsigned int fus[] = {
		FU_ID, FU_PERIOD, FU_CTL, FU_FILTER, FU_OUTPUT, FU_MODIFY,
		FU_PAUSE, FU_BPF, FU_UNKNOWN, FU_FILE, FU_MMAP, FU_MMAP2,
		FU_FILTER1, FU_READ,
	};
	struct spec s;
	unsigned int e, f;

	for (e = 0; e < ARRAY_SIZE(ev); e++) {
		for (f = 0; f < ARRAY_SIZE(fus); f++) {
			spec_init(&s, "ioctl", ev[e].kind);
			s.pid = ev[e].pid;
			s.cpu = ev[e].cpu;
			s.group = ev[e].group;
			if (s.pid == P_CGDIR)
				s.flags = PERF_FLAG_PID_CGROUP;
			set_flags(&s.attr, get_flags(&s.attr) ^ ev[e].flags);
			s.fu = fus[f];
			if (s.pid == P_OWNKID)
				s.fu |= FU_EXIT;
			snprintf(s.note, sizeof(s.note), "%s",
				 fu_names[__builtin_ctz(fus[f])]);
			run(&s);
			if (e == 0 || e == 1 || e == 3) {
				s.priv = PRIV_NOBODY;
				s.paranoid = -1;
				run(&s);
			}
		}
	}
}

/*
 * Family: which error wins.  Each defect alone makes the open fail in one
 * way; every pair of defects that touch different arguments is tried, so
 * the order of the checks shows.
 */
enum {
	S_TYPE = 1, S_PID = 2, S_CPU = 4, S_GROUP = 8, S_WHERE = 16,
	S_FLAGS = 32, S_SIZE = 64, S_CLOCK = 128, S_PERIOD = 256,
	S_ST = 512, S_PRIV = 1024, S_KERNEL = 2048,
};

struct defect {
	const char *name;
	unsigned int slots;
	void (*apply)(struct spec *s);
};

static void d_flags(struct spec *s)
{
	s->flags = 0x10;
}

static void d_e2big(struct spec *s)
{
	s->size = 136;
	s->tail = 1;
}

static void d_size1(struct spec *s)
{
	s->size = 1;
}

static void d_fault(struct spec *s)
{
	s->where = 2;
}

static void d_resflag(struct spec *s)
{
	set_flags(&s->attr, get_flags(&s->attr) | 1ULL << 40);
}

static void d_res2(struct spec *s)
{
	s->attr.__reserved_2 = 1;
}

static void d_stbit(struct spec *s)
{
	s->attr.sample_type |= 1ULL << 40;
}

static void d_rfbit(struct spec *s)
{
	s->attr.read_format |= 1ULL << 10;
}

static void d_clock(struct spec *s)
{
	s->attr.use_clockid = 1;
	s->attr.clockid = 9;
}

static void d_period63(struct spec *s)
{
	s->attr.sample_period = 1ULL << 63;
}

static void d_freqmax(struct spec *s)
{
	s->attr.freq = 1;
	s->attr.sample_freq = max_rate + 1;
}

static void d_kernel(struct spec *s)
{
	s->priv = PRIV_NOBODY;
	s->attr.exclude_kernel = 0;
}

static void d_para3(struct spec *s)
{
	s->priv = PRIV_NOBODY;
	s->paranoid = 3;
}

static void d_ns(struct spec *s)
{
	s->priv = PRIV_NOBODY;
	s->attr.namespaces = 1;
}

static void d_textpoke(struct spec *s)
{
	s->priv = PRIV_NOBODY;
	s->attr.text_poke = 1;
}

static void d_phys(struct spec *s)
{
	s->priv = PRIV_NOBODY;
	s->attr.sample_type |= PERF_SAMPLE_PHYS_ADDR;
}

static void d_brkernel(struct spec *s)
{
	s->priv = PRIV_NOBODY;
	s->attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	s->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
		PERF_SAMPLE_BRANCH_KERNEL;
}

static void d_regsintr(struct spec *s)
{
	s->priv = PRIV_NOBODY;
	s->attr.sample_type |= PERF_SAMPLE_REGS_INTR;
	s->attr.sample_regs_intr = 1;
}

static void d_callchain(struct spec *s)
{
	s->priv = PRIV_NOBODY;
	s->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
}

static void d_kprobe(struct spec *s)
{
	s->priv = PRIV_NOBODY;
	s->paranoid = -1;
	s->attr.type = type_kprobe;
	s->attr.config = 0;
	s->a1 = A_KFUNC;
}

static void d_badtype(struct spec *s)
{
	s->attr.type = 1000;
}

static void d_badcfg(struct spec *s)
{
	s->attr.config = 100;
}

static void d_hw(struct spec *s)
{
	s->attr.type = PERF_TYPE_HARDWARE;
	s->attr.config = 0;
}

static void d_precise(struct spec *s)
{
	s->attr.precise_ip = 3;
}

static void d_auxout(struct spec *s)
{
	s->attr.aux_output = 1;
}

static void d_auxss(struct spec *s)
{
	s->attr.aux_sample_size = 4096;
}

static void d_branch(struct spec *s)
{
	s->attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	s->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
}

static void d_brbad(struct spec *s)
{
	s->attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	s->attr.branch_sample_type = 1ULL << 40;
}

static void d_weight(struct spec *s)
{
	s->attr.sample_type |= PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
}

static void d_stack(struct spec *s)
{
	s->attr.sample_type |= PERF_SAMPLE_STACK_USER;
	s->attr.sample_stack_user = 12;
}

static void d_regs(struct spec *s)
{
	s->attr.sample_type |= PERF_SAMPLE_REGS_USER;
	s->attr.sample_regs_user = 1ULL << 40;
}

static void d_maxstack(struct spec *s)
{
	s->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	s->attr.sample_max_stack = 1000;
}

static void d_sigtrap(struct spec *s)
{
	s->attr.sigtrap = 1;
}

static void d_inhread(struct spec *s)
{
	s->attr.inherit = 1;
	s->attr.sample_type |= PERF_SAMPLE_READ;
}

static void d_inhthread(struct spec *s)
{
	s->attr.inherit_thread = 1;
}

static void d_rmexec(struct spec *s)
{
	s->attr.remove_on_exec = 1;
	s->attr.enable_on_exec = 1;
}

static void d_gone(struct spec *s)
{
	s->pid = P_GONE;
}

static void d_zombie(struct spec *s)
{
	s->pid = P_ZOMBIE;
}

static void d_ptrace(struct spec *s)
{
	s->pid = P_CHILD;
	s->priv = PRIV_NOBODY;
}

static void d_anyany(struct spec *s)
{
	s->pid = P_ANY;
}

static void d_cpu100(struct spec *s)
{
	s->cpu = 100;
}

static void d_cpuneg(struct spec *s)
{
	s->cpu = -2;
}

static void d_offline(struct spec *s)
{
	s->cpu = 2;
}

static void d_cpuwide(struct spec *s)
{
	s->priv = PRIV_NOBODY;
	s->pid = P_ANY;
	s->cpu = 0;
}

static void d_gclosed(struct spec *s)
{
	s->group = G_CLOSED;
}

static void d_gpipe(struct spec *s)
{
	s->group = G_PIPE;
}

static void d_ginherit(struct spec *s)
{
	s->group = G_LEADER;
	s->ld.flags = F("inherit");
}

static void d_gcpu(struct spec *s)
{
	s->group = G_LEADER;
	s->ld.pid = P_ANY;
	s->ld.cpu = 0;
}

static void d_gtask(struct spec *s)
{
	s->group = G_LEADER;
	s->ld.pid = P_CHILD;
}

static void d_gexcl(struct spec *s)
{
	s->group = G_LEADER;
	s->ld.flags = F("exclusive");
	s->attr.exclusive = 1;
}

static void d_gmember(struct spec *s)
{
	s->group = G_MEMBER;
	s->ld.members = 1;
}

static void d_cgnone(struct spec *s)
{
	s->flags = PERF_FLAG_PID_CGROUP;
	s->cpu = 0;
	s->pid = P_ANY;
}

static void d_cgtmp(struct spec *s)
{
	s->flags = PERF_FLAG_PID_CGROUP;
	s->cpu = 0;
	s->pid = P_TMPDIR;
}

static void d_cgcpu(struct spec *s)
{
	s->flags = PERF_FLAG_PID_CGROUP;
	s->pid = P_CGDIR;
}

static void d_bpaddr(struct spec *s)
{
	s->kind = K_BP;
	base_attr(&s->attr, K_BP);
	s->a1 = A_VAR1;
}

static void d_tpbad(struct spec *s)
{
	s->kind = K_TP;
	base_attr(&s->attr, K_TP);
	s->attr.config = 0xffff;
}

#define D(n, sl)	{ #n, sl, d_##n }
static const struct defect defects[] = {
	D(flags, S_FLAGS), D(e2big, S_SIZE), D(size1, S_SIZE),
	D(fault, S_WHERE | S_SIZE), D(resflag, 0), D(res2, 0), D(stbit, S_ST),
	D(rfbit, 0), D(clock, S_CLOCK), D(period63, S_PERIOD),
	D(freqmax, S_PERIOD), D(kernel, S_PRIV | S_KERNEL), D(para3, S_PRIV),
	D(ns, S_PRIV), D(textpoke, S_PRIV), D(phys, S_PRIV | S_ST),
	D(brkernel, S_PRIV | S_ST), D(regsintr, S_PRIV | S_ST),
	D(callchain, S_PRIV | S_ST), D(kprobe, S_TYPE | S_PRIV),
	D(badtype, S_TYPE), D(badcfg, S_TYPE), D(hw, S_TYPE), D(precise, 0),
	D(auxout, 0), D(auxss, 0), D(branch, S_ST), D(brbad, S_ST),
	D(weight, S_ST), D(stack, S_ST), D(regs, S_ST), D(maxstack, S_ST),
	D(sigtrap, 0), D(inhread, S_ST), D(inhthread, 0), D(rmexec, 0),
	D(gone, S_PID), D(zombie, S_PID), D(ptrace, S_PID | S_PRIV),
	D(anyany, S_PID | S_CPU), D(cpu100, S_CPU), D(cpuneg, S_CPU),
	D(offline, S_CPU), D(cpuwide, S_PID | S_CPU | S_PRIV),
	D(gclosed, S_GROUP), D(gpipe, S_GROUP), D(ginherit, S_GROUP),
	D(gcpu, S_GROUP), D(gtask, S_GROUP), D(gexcl, S_GROUP),
	D(gmember, S_GROUP), D(cgnone, S_PID | S_FLAGS),
	D(cgtmp, S_PID | S_CPU | S_FLAGS), D(cgcpu, S_PID | S_CPU | S_FLAGS),
	D(bpaddr, S_TYPE), D(tpbad, S_TYPE),
};

static void fam_order(void)
{
	unsigned int i, j;
	struct spec s;

	for (i = 0; i < ARRAY_SIZE(defects); i++) {
		for (j = i; j < ARRAY_SIZE(defects); j++) {
			const struct defect *a = &defects[i], *b = &defects[j];

			if (i != j && a->slots & b->slots &
			    ~(S_PRIV | S_ST | S_KERNEL))
				continue;
			spec_init(&s, "order", K_SW_SAMPLE);
			s.attr.exclude_kernel = 1;
			s.fu = 0;
			/* Type changes first: they reset the attributes. */
			if (b->slots & S_TYPE) {
				b->apply(&s);
				a->apply(&s);
			} else {
				a->apply(&s);
				b->apply(&s);
			}
			s.attr.exclude_kernel = !(a->slots & S_KERNEL ||
						  b->slots & S_KERNEL);
			snprintf(s.note, sizeof(s.note), "%s+%s", a->name,
				 b->name);
			run(&s);
		}
	}
}

/* Family: random combinations of everything. */
static void fam_random(int n)
{
	static const int kinds[] = {
		K_SW_COUNT, K_SW_SAMPLE, K_SW_FREQ, K_TP, K_BP, K_DUMMY,
		K_KPROBE, K_UPROBE, K_HW, K_TASKCLOCK,
	};
	static const u64 periods[] = {
		0, 1, 100, 1000000, 1ULL << 62, 1ULL << 63, ~0ULL,
	};
	static const u32 sizes[] = { 64, 72, 80, 96, 104, 112, 120, 136, 65,
				     4097 };
	static const int pids[] = {
		P_SELF, P_SELF, P_SELF, P_ANY, P_GETPID, P_CHILD, P_NOBODY,
		P_ZOMBIE, P_GONE, P_NEG,
	};
	static const int cpus[] = { -1, -1, -1, 0, 1, 2, -2, 100 };
	static const int groups[] = {
		G_NONE, G_NONE, G_NONE, G_LEADER, G_LEADER, G_MEMBER, G_PIPE,
		G_CLOSED,
	};
	static const unsigned long flags[] = {
		0, 0, 0, 0, PERF_FLAG_FD_CLOEXEC, PERF_FLAG_FD_NO_GROUP,
		PERF_FLAG_FD_OUTPUT, PERF_FLAG_PID_CGROUP, 0x10,
	};
	static const int paranoid[] = { -1, 0, 1, 2, 3 };
	static const u64 regs[] = { 1, 0xff, 0xffffff, 1ULL << 40 };
	struct spec s;
	int i, bit;

	for (i = 0; i < n; i++) {
		u64 f;

		spec_init(&s, "random", kinds[pick(ARRAY_SIZE(kinds))]);
		if (chance(20))
			s.attr.sample_period = periods[pick(ARRAY_SIZE(periods))];
		if (chance(10)) {
			s.attr.freq = 1;
			s.attr.sample_freq = chance(50) ? 1000 : max_rate + 1;
		}
		if (chance(30)) {
			for (bit = 0; bit < 26; bit++)
				if (chance(12))
					s.attr.sample_type ^= 1ULL << bit;
			if (chance(5))
				s.attr.sample_type |= 1ULL << (26 + rnd() % 38);
		}
		if (chance(30)) {
			s.attr.read_format = rnd() & 0x1f;
			if (chance(5))
				s.attr.read_format |= 1ULL << (5 + rnd() % 59);
		}
		if (chance(60)) {
			f = get_flags(&s.attr);
			for (bit = 0; bit < 38; bit++)
				if (chance(6))
					f ^= 1ULL << bit;
			if (chance(3))
				f |= 1ULL << (38 + rnd() % 26);
			set_flags(&s.attr, f);
		}
		if (s.attr.use_clockid)
			s.attr.clockid = chance(70) ? 1 : 9;
		if (s.attr.sample_type & PERF_SAMPLE_REGS_USER)
			s.attr.sample_regs_user = regs[pick(ARRAY_SIZE(regs))];
		if (s.attr.sample_type & PERF_SAMPLE_REGS_INTR)
			s.attr.sample_regs_intr = regs[pick(ARRAY_SIZE(regs))];
		if (s.attr.sample_type & PERF_SAMPLE_STACK_USER)
			s.attr.sample_stack_user = chance(70) ? 64 : 63;
		if (s.attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
			s.attr.branch_sample_type = chance(70) ?
				PERF_SAMPLE_BRANCH_ANY : 0;
		if (chance(10))
			s.attr.wakeup_events = rnd() % 3;
		if (chance(5))
			s.size = sizes[pick(ARRAY_SIZE(sizes))];
		if (chance(25))
			s.pid = pids[pick(ARRAY_SIZE(pids))];
		if (chance(20))
			s.cpu = cpus[pick(ARRAY_SIZE(cpus))];
		if (chance(20)) {
			s.group = groups[pick(ARRAY_SIZE(groups))];
			s.ld.kind = kinds[pick(ARRAY_SIZE(kinds))];
			s.ld.members = rnd() % 2;
			if (chance(30)) {
				s.ld.pid = P_ANY;
				s.ld.cpu = 0;
			}
		}
		if (chance(20))
			s.flags = flags[pick(ARRAY_SIZE(flags))];
		if (s.flags & PERF_FLAG_PID_CGROUP && chance(80)) {
			s.pid = P_CGDIR;
			s.cpu = 0;
		}
		if (chance(15)) {
			s.priv = PRIV_NOBODY;
			s.paranoid = paranoid[pick(ARRAY_SIZE(paranoid))];
		}
		s.fu = rnd() & (FU_ALL & ~FU_GROUPMAX);
		run(&s);
	}
}

/* ------------------------------------------------------------------ */
/* Hardware events: the cpu PMU's types, event selects and attr bits. */

/*
 * The user page of an enabled event: the capability bits, the counter
 * width and whether (not which) a counter is there to rdpmc, before,
 * while and after the event counts.
 */
static const char *idx_class(u32 idx)
{
	if (!idx)
		return "0";
	return (idx - 1) & (1U << 30) ? "fixed" : "gp";
}

static void say_hwpage(const char *when, struct perf_event_mmap_page *pg)
{
	u64 caps;

	memcpy(&caps, &pg->capabilities, sizeof(caps));
	say(" %s{caps=%#llx w=%u idx=%s}", when, caps & 0x3f, pg->pmc_width,
	    idx_class(pg->index));
}

/* Some user-space work for a counter to count. */
static void spin(int n)
{
	int i;

	for (i = 0; i < n; i++)
		asm volatile("" ::: "memory");
}

/* An MSR of CPU 0, or "-" where it cannot be read. */
static void say_msr(const char *name, unsigned int msr)
{
	u64 val;

	if (msr_fd < 0 || pread(msr_fd, &val, sizeof(val), msr) != sizeof(val))
		say(" %s=-", name);
	else
		say(" %s=%#llx", name, (unsigned long long)val);
}

/*
 * The branch recorder's filter as the kernel programs it for the event:
 * enabled on CPU 0, which then runs a loop.
 */
static void fu_lbrsel(int fd)
{
	volatile unsigned int i;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		say(" pin=%s", ename(errno));
		return;
	}
	sayret("enable", ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 0; i < 100000; i++)
		;
	say_msr("lbr_select", 0x1c8);
	say_msr("lbr_ctl", 0x14ce);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

static void fu_hwpage(int fd)
{
	struct perf_event_mmap_page *pg;

	pg = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	sayret("mmap1", pg == MAP_FAILED ? -1 : 0, 0);
	if (pg == MAP_FAILED)
		return;
	say_hwpage("off", pg);
	sayret("enable", ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1);
	spin(10000);
	say_hwpage("on", pg);
	sayret("disable", ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1);
	say_hwpage("after", pg);
	munmap(pg, PAGE);
}

/* A group of hardware events: what each open answers, whether it runs. */
struct hwev {
	u32 type;
	u64 config;
	u64 flags;		/* XORed into the flags word */
	u64 config1;
};

#define HWG_MAX	10
static struct hwev hwg[HWG_MAX];
static int hwg_n;

static void do_hwgroup(void)
{
	u64 v[3 + 2 * HWG_MAX];
	int fd[HWG_MAX], i, lfd = -1;

	for (i = 0; i < hwg_n; i++) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = hwg[i].type;
		a.config = hwg[i].config;
		a.config1 = hwg[i].config1;
		a.disabled = !i;
		a.read_format = PERF_FORMAT_GROUP |
				PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		set_flags(&a, get_flags(&a) ^ hwg[i].flags);
		fd[i] = sys_open(&a, 0, -1, lfd, 0);
		say(" m%d=%s", i, fd[i] < 0 ? ename(errno) : "ok");
		if (!i && fd[i] < 0)
			return;
		if (!i)
			lfd = fd[0];
	}
	sayret("enable", ioctl(lfd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin(100000);
	sayret("disable", ioctl(lfd, PERF_EVENT_IOC_DISABLE, 0), 0);
	memset(v, 0, sizeof(v));
	sayret("read", read(lfd, v, sizeof(v)), 1);
	say(" ran=%s", v[2] ? "yes" : "no");
}

static void run_hwgroup(const char *note, const struct hwev *ev, int n)
{
	struct spec s;

	spec_init(&s, "hwgroup", K_HW);
	snprintf(s.note, sizeof(s.note), "%s", note);
	s.fu = 0;
	memcpy(hwg, ev, n * sizeof(*ev));
	hwg_n = n;
	run(&s);
	hwg_n = 0;
}

#define HWE(c)		{ PERF_TYPE_HARDWARE, c, 0 }
#define RAWE(c)		{ PERF_TYPE_RAW, c, 0 }
#define SWE(c)		{ PERF_TYPE_SOFTWARE, c, 0 }

static void fam_hwgroups(void)
{
	struct hwev ev[HWG_MAX];
	char note[64];
	int n, i;

	/* n general-purpose events (retired branches as raw selects). */
	for (n = 1; n <= 8; n++) {
		for (i = 0; i < n; i++)
			ev[i] = (struct hwev)RAWE(0xc4);
		snprintf(note, sizeof(note), "%d raw 0xc4", n);
		run_hwgroup(note, ev, n);
		ev[0] = (struct hwev)HWE(PERF_COUNT_HW_INSTRUCTIONS);
		snprintf(note, sizeof(note), "instructions + %d raw 0xc4",
			 n - 1);
		run_hwgroup(note, ev, n);
		ev[0] = (struct hwev)SWE(PERF_COUNT_SW_TASK_CLOCK);
		snprintf(note, sizeof(note), "task-clock + %d raw 0xc4", n - 1);
		run_hwgroup(note, ev, n);
		for (i = 0; i < n; i++)
			ev[i] = (struct hwev)HWE(PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
		snprintf(note, sizeof(note), "%d branches", n);
		run_hwgroup(note, ev, n);
	}
	{
		static const struct { const char *note; int n;
				      struct hwev ev[HWG_MAX]; } g[] = {
			{ "2 ref-cycles", 2, { HWE(9), HWE(9) } },
			{ "cycles+ref-cycles", 2, { HWE(0), HWE(9) } },
			{ "2 cycles", 2, { HWE(0), HWE(0) } },
			{ "2 instructions", 2, { HWE(1), HWE(1) } },
			{ "3 instructions", 3, { HWE(1), HWE(1), HWE(1) } },
			{ "fixed3+4gp", 7, { HWE(0), HWE(1), HWE(9), RAWE(0xc4),
					     RAWE(0xc4), RAWE(0xc4),
					     RAWE(0xc4) } },
			{ "fixed3+5gp", 8, { HWE(0), HWE(1), HWE(9), RAWE(0xc4),
					     RAWE(0xc4), RAWE(0xc4),
					     RAWE(0xc4), RAWE(0xc4) } },
			{ "sw leader + hw + sw", 3, { SWE(0), HWE(1), SWE(2) } },
			{ "hw + sw", 2, { HWE(1), SWE(2) } },
			{ "pinned hw + 3", 4, { { 0, 1, 1 << 2 }, HWE(4),
						HWE(5), RAWE(0xc0) } },
			{ "exclusive hw + 1", 2, { { 0, 1, 1 << 3 }, HWE(4) } },
			{ "hw + bad hw", 2, { HWE(1), HWE(10) } },
			{ "hw + cache", 2, { HWE(1), { 3, 0, 0 } } },
			{ "raw cmask+inv + 1", 2, { RAWE(0x1c300c4),
						    RAWE(0xc0) } },
			{ "member excl_user differs", 2,
			  { HWE(1), { 0, 4, 1 << 4 } } },
		};
		unsigned int j;

		for (j = 0; j < ARRAY_SIZE(g); j++)
			run_hwgroup(g[j].note, g[j].ev, g[j].n);
	}
}

/*
 * Raw events that need a register beside the event select (Intel's
 * offcore response, load latency and front-end MSRs, by the codes the
 * models give them), with values of attr.config1 each register takes or
 * not; the cache events built on them, whose config1 is ignored; and
 * groups whose members ask the same or other values of the registers.
 */
#define RAW1(c, v)	{ PERF_TYPE_RAW, c, 0, v }
#define LL_READ		PERF_COUNT_HW_CACHE_LL
#define LL_READ_MISS	(LL_READ | PERF_COUNT_HW_CACHE_RESULT_MISS << 16)
#define LLC1(v)		{ PERF_TYPE_HW_CACHE, LL_READ_MISS, 0, v }

static void fam_hwextra(void)
{
	static const u64 codes[] = {
		0x01b7, 0x01bb, 0x02b7, 0x01cd, 0x100b, 0x01c6, 0x40ad,
		0x04c2, 0x012a, 0x012b, 0x05d0,
	};
	static const u64 c1[] = {
		0, 1, 8, 0x10001, 0xff01, 0xffff, 1ULL << 16, 1ULL << 23,
		1ULL << 37, 1ULL << 38, 1ULL << 63, ~0ULL,
	};
	static const u64 cache[] = {
		LL_READ, LL_READ_MISS, PERF_COUNT_HW_CACHE_NODE,
		PERF_COUNT_HW_CACHE_NODE | PERF_COUNT_HW_CACHE_OP_WRITE << 8,
	};
	static const struct { const char *note; int n;
			      struct hwev ev[HWG_MAX]; } g[] = {
		{ "rsp 2 values", 2, { RAW1(0x1b7, 0x10001),
				       RAW1(0x1b7, 0x10002) } },
		{ "rsp 3 values", 3, { RAW1(0x1b7, 0x10001),
				       RAW1(0x1b7, 0x10002),
				       RAW1(0x1b7, 0x10004) } },
		{ "rsp shared", 3, { RAW1(0x1b7, 0x10001),
				     RAW1(0x1b7, 0x10001),
				     RAW1(0x1bb, 0x10001) } },
		{ "rsp back to 0", 3, { RAW1(0x1b7, 0x10001),
					RAW1(0x1b7, 0x10002),
					RAW1(0x1bb, 0x10001) } },
		{ "rsp_1 3 values", 3, { RAW1(0x1bb, 0x10001),
					 RAW1(0x1bb, 0x10002),
					 RAW1(0x1bb, 0x10004) } },
		{ "atom rsp 2 values", 2, { RAW1(0x2b7, 1), RAW1(0x1b7, 2) } },
		{ "nehalem rsp 2 values", 2, { RAW1(0x1b7, 0x101),
					       RAW1(0x1b7, 0x102) } },
		{ "ldlat 2 values", 2, { RAW1(0x1cd, 3), RAW1(0x1cd, 4) } },
		{ "ldlat shared", 2, { RAW1(0x1cd, 3), RAW1(0x1cd, 3) } },
		{ "llc + rsp 2 values", 3, { LLC1(0), RAW1(0x1b7, 0x10001),
					     RAW1(0x1b7, 0x10002) } },
		{ "llc miss + llc", 2, { LLC1(~0ULL),
					 { PERF_TYPE_HW_CACHE, LL_READ, 0, 0 } } },
		{ "llc miss + llc + llc", 3, {
			LLC1(0), { PERF_TYPE_HW_CACHE, LL_READ, 0, 0 },
			{ PERF_TYPE_HW_CACHE, LL_READ, 0, 0 } } },
		{ "node miss + llc + rsp", 3, {
			{ PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_NODE |
			  PERF_COUNT_HW_CACHE_RESULT_MISS << 16, 0, 0 },
			{ PERF_TYPE_HW_CACHE, LL_READ, 0, 0 },
			RAW1(0x1b7, 0x10001) } },
	};
	struct spec s;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		for (j = 0; j < ARRAY_SIZE(c1); j++) {
			spec_init(&s, "hwextra", K_RAW);
			s.attr.config = codes[i];
			s.attr.config1 = c1[j];
			run(&s);
		}
	}
	for (i = 0; i < ARRAY_SIZE(cache); i++) {
		spec_init(&s, "hwextra", K_CACHE);
		s.attr.config = cache[i];
		s.attr.config1 = ~0ULL;
		run(&s);
	}
	for (i = 0; i < ARRAY_SIZE(g); i++) {
		spec_init(&s, "hwextra", K_HW);
		snprintf(s.note, sizeof(s.note), "%s", g[i].note);
		s.fu = 0;
		memcpy(hwg, g[i].ev, g[i].n * sizeof(g[i].ev[0]));
		hwg_n = g[i].n;
		run(&s);
		hwg_n = 0;
	}
}

/*
 * The branch stacks' filters: each bit of branch_sample_type with user
 * space's branches, with every kind too, with the kernel's too; each
 * two kinds; call-stack mode with each.
 */
static void fam_hwlbr(void)
{
	const u64 user = PERF_SAMPLE_BRANCH_USER;
	const u64 any = PERF_SAMPLE_BRANCH_ANY;
	const u64 stack = PERF_SAMPLE_BRANCH_CALL_STACK;
	const u64 both = user | PERF_SAMPLE_BRANCH_KERNEL;
	const u64 bst[] = { 0, user, any | user, both | any };
	struct spec s;
	unsigned int i, b, c;

	for (b = 0; b < 20; b++) {
		for (i = 0; i < ARRAY_SIZE(bst); i++) {
			spec_init(&s, "hwlbr", K_HW);
			s.attr.config = PERF_COUNT_HW_INSTRUCTIONS;
			s.attr.sample_period = 100000;
			s.attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
			s.attr.branch_sample_type = (1ULL << b) | bst[i];
			s.attr.exclude_kernel = !(bst[i] & PERF_SAMPLE_BRANCH_KERNEL);
			s.attr.disabled = 1;
			s.fu = FU_LBRSEL;
			run(&s);
		}
		spec_init(&s, "hwlbr", K_HW);
		s.attr.config = PERF_COUNT_HW_INSTRUCTIONS;
		s.attr.sample_period = 100000;
		s.attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
		s.attr.branch_sample_type = (1ULL << b) | stack | user;
		s.attr.exclude_kernel = 1;
		s.attr.disabled = 1;
		s.fu = FU_LBRSEL;
		run(&s);
	}
	for (b = 3; b < 14; b++) {
		for (c = b + 1; c < 14; c++) {
			spec_init(&s, "hwlbr", K_HW);
			s.attr.config = PERF_COUNT_HW_INSTRUCTIONS;
			s.attr.sample_period = 100000;
			s.attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
			s.attr.branch_sample_type = (1ULL << b) | (1ULL << c) |
						    user;
			s.attr.exclude_kernel = 1;
			s.attr.disabled = 1;
			s.fu = FU_LBRSEL;
			run(&s);
		}
	}
}

/*
 * Sample every 100000 events with sample_type bit @bit alone, and what
 * that bit needs besides.
 */
static void set_sample_bit(struct perf_event_attr *attr, unsigned int bit)
{
	attr->sample_period = 100000;
	attr->sample_type = 1ULL << bit;
	switch (1ULL << bit) {
	case PERF_SAMPLE_BRANCH_STACK:
		attr->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
		break;
	case PERF_SAMPLE_REGS_USER:
		attr->sample_regs_user = 0xff;
		break;
	case PERF_SAMPLE_STACK_USER:
		attr->sample_stack_user = 64;
		break;
	case PERF_SAMPLE_REGS_INTR:
		attr->sample_regs_intr = 0xff;
		break;
	}
}

/*
 * Precise sampling: precise_ip 1 to 3 on each kind with each sample_type
 * bit alone (PEBS supplies IP, ADDR, WEIGHT, DATA_SRC, PHYS_ADDR, TIME,
 * REGS_INTR and the page sizes from its records); the sample types of
 * perf mem and perf c2c, at a period (large PEBS where 6.1 takes it) and
 * at a frequency; the memory events with their load latency; XMM
 * registers.
 */
static void fam_hwpebs(void)
{
	static const int kinds[] = { K_HW, K_CACHE, K_RAW };
	const u64 mem_st = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
			   PERF_SAMPLE_PHYS_ADDR;
	const u64 st[] = {
		mem_st | PERF_SAMPLE_WEIGHT,
		mem_st | PERF_SAMPLE_WEIGHT_STRUCT,
		mem_st | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT,
		mem_st | PERF_SAMPLE_DATA_PAGE_SIZE |
			PERF_SAMPLE_CODE_PAGE_SIZE,
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_CALLCHAIN,
		PERF_SAMPLE_IP | PERF_SAMPLE_READ,
		PERF_SAMPLE_IP | PERF_SAMPLE_REGS_INTR |
			PERF_SAMPLE_REGS_USER,
	};
	static const u64 mem_ev[] = { 0x1cd, 0x82d0, 0x81d0, 0x1c0, 0x3c };
	static const u64 ldlat[] = { 0, 1, 3, 30, 0xffff, 0x10000 };
	struct spec s;
	unsigned int p, k, bit, i, j;

	for (p = 1; p <= 3; p++) {
		for (k = 0; k < ARRAY_SIZE(kinds); k++) {
			for (bit = 0; bit < 26; bit++) {
				spec_init(&s, "hwpebs", kinds[k]);
				if (kinds[k] == K_CACHE)
					s.attr.config = 0x10000;
				s.attr.precise_ip = p;
				set_sample_bit(&s.attr, bit);
				run(&s);
			}
		}
		for (i = 0; i < ARRAY_SIZE(st); i++) {
			spec_init(&s, "hwpebs", K_RAW);
			s.attr.config = 0x1cd;
			s.attr.config1 = 30;
			s.attr.precise_ip = p;
			s.attr.sample_period = 100000;
			s.attr.sample_type = st[i];
			s.attr.sample_regs_intr = 0xff;
			s.attr.sample_regs_user = 0xff;
			s.attr.exclude_kernel = 1;
			run(&s);
			s.attr.freq = 1;
			s.attr.sample_freq = 4000;
			run(&s);
			s.attr.freq = 0;
			s.attr.sample_period = 100000;
			s.attr.config = 0x82d0;
			s.attr.config1 = 0;
			run(&s);
		}
		spec_init(&s, "hwpebs", K_HW);
		s.attr.precise_ip = p;
		s.attr.sample_period = 100000;
		s.attr.sample_type = PERF_SAMPLE_REGS_INTR;
		s.attr.sample_regs_intr = 0xffffULL << 32;	/* XMM0-7 */
		run(&s);
	}
	for (i = 0; i < ARRAY_SIZE(mem_ev); i++) {
		for (j = 0; j < ARRAY_SIZE(ldlat); j++) {
			for (p = 0; p <= 3; p++) {
				spec_init(&s, "hwpebs", K_RAW);
				s.attr.config = mem_ev[i];
				s.attr.config1 = ldlat[j];
				s.attr.precise_ip = p;
				s.attr.sample_period = 100000;
				s.attr.sample_type = PERF_SAMPLE_IP |
						     PERF_SAMPLE_ADDR |
						     PERF_SAMPLE_WEIGHT |
						     PERF_SAMPLE_DATA_SRC;
				s.attr.exclude_kernel = 1;
				run(&s);
			}
		}
	}
}

static void fam_hw(void)
{
	static const u64 hw_cfg[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0xff,
		4ULL << 32, 1ULL << 32, 0x7e57ULL << 32, (1ULL << 32) | 1,
		(0x7e57ULL << 32) | 1, 1ULL << 63,
	};
	static const u64 raw_bits[] = {
		0, 1ULL << 16, 1ULL << 17, 1ULL << 18, 1ULL << 19, 1ULL << 20,
		1ULL << 21, 1ULL << 22, 1ULL << 23, 1ULL << 24, 0xffULL << 24,
		(1ULL << 24) | (1ULL << 23), 0x100, 0xff00, 0xf00000000ULL,
		0x30000000000ULL, 0xf0000000000ULL,
	};
	static const u64 raw_sel[] = {
		0, 0x3c, 0xc4, 0x13c, 0x300, 0xff, 0x1ff, 0xfff, 0xffff,
		0xffffffff, ~0ULL,
	};
	const u64 fl[] = {
		F("exclude_user"), F("exclude_kernel"), F("exclude_hv"),
		F("exclude_idle"), F("exclude_host"), F("exclude_guest"),
		F("exclude_user") | F("exclude_kernel"),
		F("exclude_user") | F("exclude_kernel") | F("exclude_hv"),
		F("exclude_host") | F("exclude_guest"), F("precise_ip0"),
		F("precise_ip1"), F("precise_ip0") | F("precise_ip1"),
		F("precise_ip0") | F("exclude_kernel"), F("pinned"), F("exclusive"),
		F("inherit"), F("pinned") | F("exclusive"), F("inherit") | F("pinned"),
		F("enable_on_exec"), F("sample_id_all"), F("mmap") | F("comm"),
		F("exclude_callchain_kernel"), F("exclude_callchain_user"),
		F("inherit_stat") | F("inherit"), F("inherit_thread") | F("inherit"),
		F("remove_on_exec"), F("sigtrap") | F("remove_on_exec"),
	};
	static const int kinds[] = { K_HW, K_CACHE, K_RAW };
	struct spec s;
	unsigned int i, k, j;
	int t, op, r, bit;

	/* Every generic hardware event, with upper bits, with its page. */
	for (i = 0; i < ARRAY_SIZE(hw_cfg); i++) {
		spec_init(&s, "hw", K_HW);
		s.attr.config = hw_cfg[i];
		s.fu |= FU_HWPAGE | FU_CTL;
		run(&s);
		s.fu = FU_READ;
		s.attr.exclude_kernel = 1;
		s.priv = PRIV_NOBODY;
		run(&s);
		s.pid = P_ANY;
		s.cpu = 0;
		s.priv = PRIV_ROOT;
		s.attr.exclude_kernel = 0;
		run(&s);
	}
	/* Every cache type, op and result, and the ones past them. */
	for (t = 0; t <= 8; t++)
		for (op = 0; op <= 3; op++)
			for (r = 0; r <= 2; r++) {
				spec_init(&s, "hwcache", K_CACHE);
				s.attr.config = t | op << 8 | r << 16;
				run(&s);
			}
	{
		static const u64 cc[] = {
			0xff, 0xff00, 0xff0000, 1ULL << 24, 1ULL << 32,
			1ULL << 63, 0x10000 | 1ULL << 32, ~0ULL, 0xffffff,
		};

		for (i = 0; i < ARRAY_SIZE(cc); i++) {
			spec_init(&s, "hwcache", K_CACHE);
			s.attr.config = cc[i];
			run(&s);
		}
		spec_init(&s, "hwcache", K_CACHE);
		s.attr.config = 0x10000;
		s.fu |= FU_HWPAGE;
		run(&s);
	}
	/* Raw event selects and each bit of the select register. */
	for (i = 0; i < ARRAY_SIZE(raw_sel); i++) {
		spec_init(&s, "raw", K_RAW);
		s.attr.config = raw_sel[i];
		run(&s);
	}
	for (i = 0; i < ARRAY_SIZE(raw_bits); i++) {
		spec_init(&s, "raw", K_RAW);
		s.attr.config = 0xc4 | raw_bits[i];
		s.fu |= FU_HWPAGE;
		run(&s);
		s.fu = FU_READ;
		s.attr.exclude_kernel = 1;
		s.priv = PRIV_NOBODY;
		run(&s);
		s.paranoid = 0;
		run(&s);
		s.paranoid = -1;
		s.attr.exclude_kernel = 0;
		run(&s);
	}
	for (bit = 32; bit < 64; bit++) {
		spec_init(&s, "raw", K_RAW);
		s.attr.config = 0xc4 | 1ULL << bit;
		run(&s);
	}
	/* The attr bits that matter to a counter, on each type. */
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (j = 0; j < ARRAY_SIZE(fl); j++) {
			spec_init(&s, "hwattr", kinds[k]);
			if (kinds[k] == K_CACHE)
				s.attr.config = 0x10000;
			set_flags(&s.attr, get_flags(&s.attr) ^ fl[j]);
			if (s.attr.sigtrap) {
				s.attr.sample_period = 1000000;
				s.attr.sig_data = 1;
			}
			s.fu |= FU_CTL;
			run(&s);
			if (!(fl[j] & (F("precise_ip0") | F("precise_ip1"))))
				continue;
			s.attr.sample_period = 100000;
			s.attr.sample_type = PERF_SAMPLE_IP;
			run(&s);
			s.attr.exclude_guest = 1;
			run(&s);
		}
		for (bit = 0; bit < 64; bit++) {
			spec_init(&s, "hwflags", kinds[k]);
			if (kinds[k] == K_CACHE)
				s.attr.config = 0x10000;
			set_flags(&s.attr, get_flags(&s.attr) ^ (1ULL << bit));
			run(&s);
		}
		for (i = 0; i < 4; i++) {
			static const u64 v[] = { 1, 0xff, 1ULL << 63, ~0ULL };

			spec_init(&s, "hwattr", kinds[k]);
			if (kinds[k] == K_CACHE)
				s.attr.config = 0x10000;
			s.attr.config1 = v[i];
			run(&s);
			s.attr.config1 = 0;
			s.attr.config2 = v[i];
			run(&s);
		}
		for (i = 0; i < 64; i++) {
			spec_init(&s, "hwrf", kinds[k]);
			if (kinds[k] == K_CACHE)
				s.attr.config = 0x10000;
			s.attr.read_format = i < 32 ? i : 1ULL << (i - 27);
			if (i >= 32 + 27)
				break;
			s.fu = FU_READ;
			run(&s);
		}
	}
	/* Sampling: periods, frequencies, sample_type bits, registers. */
	{
		static const u64 periods[] = {
			1, 2, 100, 100000, 1ULL << 31, 1ULL << 47, 1ULL << 48,
			1ULL << 62, 1ULL << 63, ~0ULL,
		};
		u64 freqs[] = { 1, 1000, max_rate, max_rate + 1, 1ULL << 40 };

		for (i = 0; i < ARRAY_SIZE(periods); i++) {
			spec_init(&s, "hwsample", K_HW);
			s.attr.sample_period = periods[i];
			s.attr.sample_type = PERF_SAMPLE_IP;
			s.fu |= FU_PERIOD | FU_HWPAGE;
			run(&s);
		}
		for (i = 0; i < ARRAY_SIZE(freqs); i++) {
			spec_init(&s, "hwsample", K_HW);
			s.attr.freq = 1;
			s.attr.sample_freq = freqs[i];
			s.attr.sample_type = PERF_SAMPLE_IP;
			s.fu |= FU_PERIOD;
			run(&s);
			s.attr.config = PERF_COUNT_HW_REF_CPU_CYCLES;
			run(&s);
		}
		for (k = 0; k < ARRAY_SIZE(kinds); k++) {
			for (bit = 0; bit < 26; bit++) {
				spec_init(&s, "hwst", kinds[k]);
				if (kinds[k] == K_CACHE)
					s.attr.config = 0x10000;
				set_sample_bit(&s.attr, bit);
				run(&s);
			}
		}
		{
			static const u64 br[] = {
				0, PERF_SAMPLE_BRANCH_ANY,
				PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY,
				PERF_SAMPLE_BRANCH_CALL_STACK,
				PERF_SAMPLE_BRANCH_ANY_CALL,
				PERF_SAMPLE_BRANCH_NO_CYCLES,
				PERF_SAMPLE_BRANCH_HW_INDEX |
				PERF_SAMPLE_BRANCH_ANY,
				PERF_SAMPLE_BRANCH_KERNEL,
				1ULL << 40,
			};
			static const u64 regs[] = {
				1, 0xff, 0xffffff, 1ULL << 24, 1ULL << 32,
				0xffffULL << 32, 0xffffffffULL << 32, ~0ULL,
				(1ULL << 32) | 1,
			};

			for (i = 0; i < ARRAY_SIZE(br); i++) {
				spec_init(&s, "hwbranch", K_HW);
				s.attr.sample_period = 100000;
				s.attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
				s.attr.branch_sample_type = br[i];
				run(&s);
				s.attr.exclude_kernel = 1;
				s.priv = PRIV_NOBODY;
				run(&s);
				s.attr.precise_ip = 1;
				run(&s);
			}
			for (i = 0; i < ARRAY_SIZE(regs); i++) {
				spec_init(&s, "hwregs", K_HW);
				s.attr.sample_period = 100000;
				s.attr.sample_type = PERF_SAMPLE_REGS_INTR;
				s.attr.sample_regs_intr = regs[i];
				run(&s);
				s.attr.precise_ip = 1;
				run(&s);
				spec_init(&s, "hwregs", K_HW);
				s.attr.sample_period = 100000;
				s.attr.sample_type = PERF_SAMPLE_REGS_USER;
				s.attr.sample_regs_user = regs[i];
				run(&s);
				spec_init(&s, "hwregs", K_SW_SAMPLE);
				s.attr.sample_type |= PERF_SAMPLE_REGS_INTR;
				s.attr.sample_regs_intr = regs[i];
				run(&s);
			}
		}
	}
	/* mmap of a hardware event, and of a sampling one. */
	spec_init(&s, "hwmmap", K_HW);
	s.fu = FU_MMAP | FU_MMAP2;
	run(&s);
	spec_init(&s, "hwmmap", K_HW);
	s.attr.sample_period = 100000;
	s.attr.sample_type = PERF_SAMPLE_IP;
	s.fu = FU_MMAP | FU_HWPAGE | FU_PAUSE | FU_ID | FU_MODIFY;
	run(&s);
	spec_init(&s, "hwmmap", K_RAW);
	s.attr.exclude_kernel = 1;
	s.priv = PRIV_NOBODY;
	s.fu = FU_HWPAGE;
	run(&s);
	/* Counting on a CPU, on a child, inherited. */
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		static const int pids[] = { P_CHILD, P_NOBODY, P_ANY };

		for (i = 0; i < ARRAY_SIZE(pids); i++) {
			spec_init(&s, "hwtarget", kinds[k]);
			if (kinds[k] == K_CACHE)
				s.attr.config = 0x10000;
			s.pid = pids[i];
			s.cpu = pids[i] == P_ANY ? 1 : -1;
			s.fu |= FU_CTL;
			run(&s);
			s.priv = PRIV_NOBODY;
			s.attr.exclude_kernel = 1;
			run(&s);
		}
	}
	fam_hwgroups();
	fam_hwextra();
	fam_hwlbr();
	fam_hwpebs();
}

/*
 * The PMUs of a package, die or core (RAPL's power, the C-state
 * residency PMUs, AMD's L3 and data fabric, Intel's client uncore):
 * each config up to past the last and the uncore's clock, on CPU 0 and CPU 1
 * (which counts on its die's reader), as task events, sampling, each
 * exclude_* bit, the flags a counting event may have, in a hardware and
 * a software leader's group, as nobody, and the ioctls and mmap on one
 * that opened.
 */
static void pkg_spec(struct spec *s, const char *pmu, u64 config)
{
	int j;

	spec_init(s, "pkg", K_SW_COUNT);
	s->attr.config = config;
	s->pid = P_ANY;
	s->cpu = 0;
	snprintf(s->note, sizeof(s->note), "pmu %s", pmu);
	s->absent = 1;
	for (j = 0; j < nr_pmus; j++) {
		if (!strcmp(pmus[j].name, pmu)) {
			s->attr.type = pmus[j].type;
			s->absent = 0;
		}
	}
}

/* @base with each exclude_* bit set in turn. */
static void run_excludes(const struct spec *base)
{
	struct spec s;
	int i;

	for (i = 0; i < 6; i++) {
		s = *base;
		switch (i) {
		case 0: s.attr.exclude_user = 1; break;
		case 1: s.attr.exclude_kernel = 1; break;
		case 2: s.attr.exclude_hv = 1; break;
		case 3: s.attr.exclude_idle = 1; break;
		case 4: s.attr.exclude_host = 1; break;
		case 5: s.attr.exclude_guest = 1; break;
		}
		run(&s);
	}
}

/*
 * @base as a member of a hardware leader's group and of a software
 * one's (on CPU 0), then opened by nobody at paranoid 2, 0 and -1.
 */
static void run_groups_nobody(const struct spec *base)
{
	struct spec s;
	int i;

	for (i = 0; i < 2; i++) {
		s = *base;
		s.group = G_LEADER;
		s.ld.kind = i ? K_SW_COUNT : K_HW;
		s.ld.pid = P_ANY;
		s.ld.cpu = 0;
		run(&s);
	}
	s = *base;
	s.priv = PRIV_NOBODY;
	run(&s);
	s.paranoid = 0;
	run(&s);
	s.paranoid = -1;
	run(&s);
}

static void fam_pkg(void)
{
	static const char * const names[] = {
		"power", "cstate_core", "cstate_pkg", "amd_l3", "amd_df",
		"uncore_cbox_0", "uncore_cbox_1", "uncore_arb", "uncore_imc",
	};
	static const u64 bad[] = { 0xff, 0x100, 1ULL << 32, ~0ULL };
	struct spec s;
	unsigned int p, i;

	for (p = 0; p < ARRAY_SIZE(names); p++) {
		/* A config each PMU has where it exists here: its C6, pkg. */
		const u64 good = 2;

		for (i = 0; i < 9; i++) {
			pkg_spec(&s, names[p], i);
			run(&s);
		}
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			pkg_spec(&s, names[p], bad[i]);
			run(&s);
		}
		pkg_spec(&s, names[p], good);
		s.fu |= FU_CTL | FU_PERIOD | FU_MMAP | FU_ID;
		run(&s);
		s.cpu = 1;
		run(&s);
		s.pid = P_SELF;
		s.cpu = -1;
		run(&s);
		s.cpu = 0;
		run(&s);
		pkg_spec(&s, names[p], good);
		s.attr.sample_period = 1000;
		run(&s);
		s.attr.sample_type = PERF_SAMPLE_IP;
		run(&s);
		pkg_spec(&s, names[p], good);
		s.attr.freq = 1;
		s.attr.sample_freq = 100;
		run(&s);
		s.attr.sample_freq = 0;
		run(&s);
		pkg_spec(&s, names[p], good);
		run_excludes(&s);
		for (i = 0; i < 5; i++) {
			pkg_spec(&s, names[p], good);
			switch (i) {
			case 0: s.attr.inherit = 1; break;
			case 1: s.attr.pinned = 1; break;
			case 2: s.attr.exclusive = 1; break;
			case 3: s.attr.enable_on_exec = 1; break;
			case 4: s.attr.read_format = 0xf; break;
			}
			run(&s);
		}
		pkg_spec(&s, names[p], good);
		run_groups_nobody(&s);
	}
}

/*
 * AMD's IBS PMUs, ibs_op and ibs_fetch, and the precise cycles the core
 * counters pass on to ibs_op: periods, configs, each exclude_* bit and
 * flag, sample types, frequencies, task events, groups, nobody, and the
 * ioctls and mmap on one that opened.
 */
static void ibs_spec(struct spec *s, const char *pmu, u64 config, u64 period)
{
	pkg_spec(s, pmu, config);
	s->family = "ibs";
	s->attr.sample_period = period;
}

static void fam_ibs(void)
{
	static const char * const names[] = { "ibs_op", "ibs_fetch" };
	static const u64 periods[] = {
		0, 8, 0x10, 0x11, 0xfff0, 0x10000, 0x7ffff0, 0x800000,
		1ULL << 32, 1ULL << 63,
	};
	static const u64 configs[] = {
		1, 0xffff, 1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20,
		0x7f << 20, 1ULL << 27, 1ULL << 32, 1ULL << 48, 1ULL << 49,
		1ULL << 57, 1ULL << 59, 1ULL << 63,
	};
	const u64 good = 0x10000;
	struct spec s;
	unsigned int p, i;

	for (p = 0; p < ARRAY_SIZE(names); p++) {
		for (i = 0; i < ARRAY_SIZE(periods); i++) {
			ibs_spec(&s, names[p], 0, periods[i]);
			run(&s);
		}
		for (i = 0; i < ARRAY_SIZE(configs); i++) {
			ibs_spec(&s, names[p], configs[i], 0);
			run(&s);
			ibs_spec(&s, names[p], configs[i], good);
			run(&s);
		}
		ibs_spec(&s, names[p], 0, good);
		s.fu |= FU_CTL | FU_PERIOD | FU_MMAP | FU_ID;
		run(&s);
		s.cpu = 1;
		run(&s);
		s.pid = P_SELF;
		s.cpu = -1;
		run(&s);
		s.cpu = 0;
		run(&s);
		for (i = 0; i < 25; i++) {
			ibs_spec(&s, names[p], 0, good);
			s.attr.sample_type = 1ULL << i;
			run(&s);
		}
		for (i = 0; i < 3; i++) {
			ibs_spec(&s, names[p], 0, 0);
			s.attr.freq = 1;
			s.attr.sample_freq = i == 0 ? 100 : i == 1 ? 1000 : 0;
			run(&s);
		}
		ibs_spec(&s, names[p], 0, good);
		run_excludes(&s);
		for (i = 6; i < 14; i++) {
			ibs_spec(&s, names[p], 0, good);
			switch (i) {
			case 6: s.attr.inherit = 1; break;
			case 7: s.attr.pinned = 1; break;
			case 8: s.attr.exclusive = 1; break;
			case 9: s.attr.precise_ip = 2; break;
			case 10: s.attr.precise_ip = 3; break;
			case 11: s.attr.config1 = 1; break;
			case 12: s.attr.config2 = 1; break;
			case 13: s.attr.read_format = 0xf; break;
			}
			run(&s);
		}
		ibs_spec(&s, names[p], 0, good);
		run_groups_nobody(&s);
	}
	/* The core counters' precise events: cycles go to ibs_op. */
	for (p = 0; p <= 3; p++) {
		for (i = 0; i < 6; i++) {
			spec_init(&s, "ibs", K_HW);
			s.attr.config = PERF_COUNT_HW_CPU_CYCLES;
			s.attr.precise_ip = p;
			s.attr.sample_period = good;
			s.pid = P_ANY;
			s.cpu = 0;
			switch (i) {
			case 1: s.pid = P_SELF; s.cpu = -1; break;
			case 2: s.attr.sample_period = 0; break;
			case 3: s.attr.exclude_kernel = 1; break;
			case 4: s.attr.config = PERF_COUNT_HW_INSTRUCTIONS; break;
			case 5:
				s.attr.type = PERF_TYPE_RAW;
				s.attr.config = 0x76;
				break;
			}
			run(&s);
		}
	}
}

static const char *only;	/* -f hw: only the hardware families */

int main(int argc, char **argv)
{
	u64 seed = 0x5eed;
	int opt, i;

	while ((opt = getopt(argc, argv, "s:c:vrf:")) != -1) {
		switch (opt) {
		case 'f':
			only = optarg;
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'c':
			if (sscanf(optarg, "%d-%d", &first, &last) == 1)
				last = first;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'r':
			raw_filters = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-s seed] [-c N[-M]] [-v] [-r] [-f hw|pkg|ibs|...]\n",
				argv[0]);
			return 2;
		}
	}
	rng_state = seed;
	res = mmap(NULL, RES_SIZE, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup();
	printf("ABI 00000 setup pmus:");
	for (i = 0; i < nr_pmus; i++)
		printf(" %s", pmus[i].name);
	printf(" tp:%s%s%s kfunc=%s uprobe=%s max_rate=%d\n",
	       tp_getppid_enter > 0 ? "enter" : "-",
	       tp_getppid_exit > 0 ? ",exit" : "-",
	       tp_ftrace > 0 ? ",ftrace" : "-", kfunc,
	       uprobe_offset ? "ok" : "-", max_rate);

	if (!only) {
		fam_types();
		fam_sizes();
		fam_flags();
		fam_bits();
		fam_target();
		fam_groups();
		fam_paranoid();
		fam_freq();
		fam_misc();
		fam_rules();
		fam_ioctl();
		fam_order();
		fam_random(1500);
	}
	/* The cpu PMU's (after the others: their case numbers stay). */
	if (!only || !strcmp(only, "hw"))
		fam_hw();
	else if (!strcmp(only, "hwextra"))
		fam_hwextra();
	else if (!strcmp(only, "hwlbr"))
		fam_hwlbr();
	else if (!strcmp(only, "hwpebs"))
		fam_hwpebs();
	/* The package's PMUs (after the cpu PMU's: their numbers stay). */
	if (!only || !strcmp(only, "pkg"))
		fam_pkg();
	/* AMD's IBS (after the package's). */
	if (!only || !strcmp(only, "ibs"))
		fam_ibs();

	write_long(SYSCTL "perf_event_paranoid", 2);
	kill(pid_child, SIGKILL);
	kill(pid_nobody, SIGKILL);
	printf("ABI 99999 done cases=%d\n", case_nr);
	return 0;
}
