// SPDX-License-Identifier: GPL-2.0
/*
 * perf-hw-map: what the kernel's x86 PMU driver programs for each
 * generic event, seen from outside: for every PERF_TYPE_HARDWARE config
 * and every PERF_TYPE_HW_CACHE (cache, op, result), the errno of the
 * open, or the event select it put on a counter (read from the MSRs
 * through /dev/cpu/0/msr while the event counts on CPU 0), and how many
 * copies of it fit in one group; then the raw event codes whose group
 * fit differs from a plain general-purpose event's (the model's counter
 * constraints).  For diffing two kernels on the same emulated CPU:
 *
 *   make run CMD='perf-hw-map' KERNEL=upstream PMU=skylake
 *   make run CMD='perf-hw-map -r 0' ...   also scan the raw event codes
 *   make run CMD='perf-hw-map -r 0x1000000' ...   ... with cmask 1
 *   make run CMD='perf-hw-map -p cpu_atom' PMU=alderlake
 *		one PMU of a hybrid (its type named in the generic events'
 *		config, on its first CPU; each line names the PMU), with
 *		as many general counters as copies of raw event 0xc4 fit
 *		in a group (CPUID 0xA says what all kinds have; no
 *		hybrid's model keeps branch instructions to some
 *		counters), or -g N of them
 *
 * Each line reads "MAP <what>: <result>", where a result is an errno
 * name, or "pmc<N>=<event select>" / "fixed<N>=<field>" with the
 * offcore-response MSRs if the event set them, and "fit=<N>".
 * Intel's architectural MSRs, or on AMD the core counters' (four
 * legacy ones, or six with PerfCtrExtCore).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

typedef unsigned int u32;
typedef unsigned long long u64;

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define MSR_EVTSEL0		0x186
#define MSR_K7_EVNTSEL0		0xc0010000
#define MSR_F15H_PERF_CTL0	0xc0010200
#define MSR_FIXED_CTR_CTRL	0x38d
#define MSR_OFFCORE_RSP_0	0x1a6
#define MSR_OFFCORE_RSP_1	0x1a7
#define EVTSEL_EN		0x400000ULL	/* bit 22 */
#define MAX_GP			8
#define MAX_FIT			12

static int msr_fd = -1;
static int n_gp;
static int amd;
static u32 pmu_type;	/* -p: the PMU's type, or 0 for the cpu PMU */
static int pmu_cpu;	/* the CPU events are opened on */
static char prefix[64];	/* -p: "<pmu> ", before what each line is about */

static void cpuid(unsigned int leaf, unsigned int *eax, unsigned int *ebx,
		  unsigned int *ecx, unsigned int *edx)
{
	asm volatile("cpuid" : "=a"(*eax), "=b"(*ebx), "=c"(*ecx), "=d"(*edx)
		     : "a"(leaf), "c"(0));
}

/* The event select of general counter @i. */
static u32 evtsel_msr(int i)
{
	if (!amd)
		return MSR_EVTSEL0 + i;
	return n_gp > 4 ? MSR_F15H_PERF_CTL0 + 2 * i : MSR_K7_EVNTSEL0 + i;
}

static int rdmsr(u32 msr, u64 *val)
{
	return pread(msr_fd, val, sizeof(*val), msr) == sizeof(*val) ? 0 : -1;
}

static int sys_open(struct perf_event_attr *a, int pid, int cpu, int gfd)
{
	return syscall(__NR_perf_event_open, a, pid, cpu, gfd, 0);
}

static void attr_init(struct perf_event_attr *a, u32 type,
		      u64 config, u64 config1)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->config1 = config1;
	if (!pmu_type)
		return;
	if (type == PERF_TYPE_RAW)
		a->type = pmu_type;
	else
		a->config |= (u64)pmu_type << 32;
}

static const char *ename(int err)
{
	static char buf[16];

	switch (err) {
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENODEV: return "ENODEV";
	case ENXIO: return "ENXIO";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	}
	snprintf(buf, sizeof(buf), "errno%d", err);
	return buf;
}

/*
 * How many copies of the event open in one group (the leader disabled,
 * the members enabled), up to MAX_FIT: more would never fit.
 */
static int group_fit(u32 type, u64 config, u64 config1)
{
	struct perf_event_attr a;
	int fd[MAX_FIT], n, i;

	for (n = 0; n < MAX_FIT; n++) {
		attr_init(&a, type, config, config1);
		a.disabled = !n;
		fd[n] = sys_open(&a, 0, -1, n ? fd[0] : -1);
		if (fd[n] < 0)
			break;
	}
	for (i = 0; i < n; i++)
		close(fd[i]);
	return n;
}

/* Open the event on the CPU, counting, and say where it went. */
static void show(const char *what, u32 type, u64 config)
{
	struct perf_event_attr a;
	u64 v, rsp0 = 0, rsp1 = 0;
	int fd, i, seen = 0;

	attr_init(&a, type, config, 0);
	a.pinned = 1;
	fd = sys_open(&a, -1, pmu_cpu, -1);
	printf("MAP %s%s:", prefix, what);
	if (fd < 0) {
		printf(" %s\n", ename(errno));
		return;
	}
	for (i = 0; i < n_gp; i++) {
		if (rdmsr(evtsel_msr(i), &v) || !(v & EVTSEL_EN))
			continue;
		printf(" pmc%d=%#llx", i, (unsigned long long)v);
		seen++;
	}
	if (!amd && !rdmsr(MSR_FIXED_CTR_CTRL, &v)) {
		for (i = 0; i < 16 && v; i++, v >>= 4) {
			if (v & 0xf) {
				printf(" fixed%d=%#llx", i,
				       (unsigned long long)(v & 0xf));
				seen++;
			}
		}
	}
	if (!amd && !rdmsr(MSR_OFFCORE_RSP_0, &rsp0) && rsp0)
		printf(" rsp0=%#llx", (unsigned long long)rsp0);
	if (!amd && !rdmsr(MSR_OFFCORE_RSP_1, &rsp1) && rsp1)
		printf(" rsp1=%#llx", (unsigned long long)rsp1);
	if (!seen)
		printf(" nowhere");
	close(fd);
	printf(" fit=%d\n", group_fit(type, config, 0));
}

static const char * const hw_names[] = {
	"cpu-cycles", "instructions", "cache-references", "cache-misses",
	"branch-instructions", "branch-misses", "bus-cycles",
	"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};

static const char * const cache_names[] = {
	"L1D", "L1I", "LL", "DTLB", "ITLB", "BPU", "NODE",
};

static const char * const op_names[] = { "read", "write", "prefetch" };
static const char * const result_names[] = { "access", "miss" };

/*
 * Raw event codes (every event select and unit mask, with @bits, such as
 * a cmask, set too) whose group fit is not the number of general
 * counters: constrained to fewer, or also on a fixed counter.
 */
static void raw_scan(u64 bits)
{
	char what[64];
	u64 code;

	for (code = 0; code <= 0xffff; code++) {
		if (group_fit(PERF_TYPE_RAW, code | bits, 0) == n_gp)
			continue;
		snprintf(what, sizeof(what), "raw %#llx",
			 (unsigned long long)(code | bits));
		show(what, PERF_TYPE_RAW, code | bits);
	}
}

/* The first number in sysfs file @path: the PMU's type, its first CPU. */
static int sysfs_number(const char *pmu, const char *file)
{
	char path[256];
	FILE *f;
	int n = -1;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/%s",
		 pmu, file);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &n) != 1) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	char what[64], path[64];
	unsigned int c, op, r;
	int i, gp = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-p")) {
			pmu_type = sysfs_number(argv[i + 1], "type");
			pmu_cpu = sysfs_number(argv[i + 1], "cpus");
			snprintf(prefix, sizeof(prefix), "%s ", argv[i + 1]);
		} else if (!strcmp(argv[i], "-g")) {
			gp = atoi(argv[i + 1]);
		}
	}
	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", pmu_cpu);
	msr_fd = open(path, O_RDONLY);
	if (msr_fd < 0) {
		perror(path);
		return 1;
	}
	/*
	 * Intel: CPUID 0xA EAX[15:8], the general counters.  AMD ("Auth"
	 * in CPUID 0 EBX): six with PerfCtrExtCore (CPUID 0x80000001 ECX
	 * bit 23), else four.
	 */
	{
		unsigned int eax, ebx, ecx, edx;

		cpuid(0, &eax, &ebx, &ecx, &edx);
		amd = ebx == 0x68747541;
		if (amd) {
			cpuid(0x80000001, &eax, &ebx, &ecx, &edx);
			n_gp = ecx & (1u << 23) ? 6 : 4;
		} else {
			cpuid(0xa, &eax, &ebx, &ecx, &edx);
			n_gp = (eax >> 8) & 0xff;
		}
		if (gp)
			n_gp = gp;
		else if (pmu_type)
			n_gp = group_fit(PERF_TYPE_RAW, 0xc4, 0);
		if (n_gp > MAX_GP)
			n_gp = MAX_GP;
	}
	printf("MAP %sgeneral counters: %d\n", prefix, n_gp);
	for (c = 0; c < ARRAY_SIZE(hw_names); c++) {
		snprintf(what, sizeof(what), "hw %u %s", c, hw_names[c]);
		show(what, PERF_TYPE_HARDWARE, c);
	}
	for (c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++)
			for (r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				snprintf(what, sizeof(what), "cache %s-%s-%s",
					 cache_names[c], op_names[op],
					 result_names[r]);
				show(what, PERF_TYPE_HW_CACHE,
				     c | op << 8 | r << 16);
			}
	for (i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "-r"))
			raw_scan(strtoull(argv[i + 1], NULL, 0));
	return 0;
}
