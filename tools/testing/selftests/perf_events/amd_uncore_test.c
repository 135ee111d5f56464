// SPDX-License-Identifier: GPL-2.0
/*
 * AMD's uncore PMUs (/sys/bus/event_source/devices/amd_l3 and amd_df):
 * the counters of the L3 cache a complex of cores shares and of the
 * data fabric, on a CPU whose CPUID offers them (Fn8000_0001 ECX: 22
 * topology extensions, 24 PerfCtrExtDF, 28 PerfCtrExtLLC).
 *
 * What 6.1 does, and ours must: a dynamic type each, a cpumask with one
 * CPU per L3 (per die), format files by family (family 17h's L3 filters
 * by slice and thread masks, 19h's by ids; PerfMonV2's fabric has a
 * 14-bit event and a 12-bit unit mask); CPU-wide counting events only
 * (task events and a CPU of -1 are EINVAL, exclude_* bits EINVAL,
 * sampling EOPNOTSUPP, a CPU off line ENODEV); a group only as big as
 * the counters (six of the L3, the fabric's four or what CPUID
 * Fn8000_0022 EBX[15:10] says).  An event opened on any CPU counts on
 * the cpumask's (so it joins a group led there), and on the next CPU of
 * the domain when that one goes off line (where it can: not CPU 0 of
 * an AMD part).
 *
 * The counts are the emulation's (harness/qemu/0044): its caches'
 * accesses to the L3 and misses there, and the lines read from memory
 * on the fabric, for every vCPU.  So a walk of an array twice the L2's
 * size finds every line in the L3, one twice the L3's in memory.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "../kselftest_harness.h"
#include "hw_cache_util.h"

#define L3	"amd_l3"
#define DF	"amd_df"
#define PASSES	2

static unsigned int cpu_family(void)
{
	unsigned int a, b, c, d, fam;

	__cpuid(1, a, b, c, d);
	fam = (a >> 8) & 0xf;
	return fam == 0xf ? fam + ((a >> 20) & 0xff) : fam;
}

static bool amd_cpu(void)
{
	unsigned int a, b, c, d;

	__cpuid(0, a, b, c, d);
	return b == 0x68747541;	/* "Auth"enticAMD */
}

/* CPUID Fn8000_0001 ECX, 0 where there is no such leaf. */
static unsigned int ext_ecx(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000001, &a, &b, &c, &d))
		return 0;
	return c;
}

/* Whether the CPU has PerfMonV2 (CPUID Fn8000_0022 EAX[0]). */
static bool perfmon_v2(unsigned int *ebx)
{
	unsigned int a, b, c, d;

	if (__get_cpuid_max(0x80000000, NULL) < 0x80000022)
		return false;
	__cpuid(0x80000022, a, b, c, d);
	*ebx = b;
	return a & 1;
}

/* The fabric's config of @event and @umask, 14 and 12 bits with v2. */
static __u64 df_config(unsigned int event, unsigned int umask)
{
	return (event & 0xff) | (__u64)(event >> 8) << 32 |
	       (umask & 0xff) << 8 | (__u64)(umask >> 8) << 24;
}

static __u64 l3_config(unsigned int event, unsigned int umask)
{
	return event | umask << 8;
}

/* The number of distinct lines among the CPUs' files @fmt names. */
static int distinct_cpu_files(const char *fmt)
{
	char seen[64][64], path[128], buf[64];
	int cpu, n = 0, i;

	for (cpu = 0; cpu < 64; cpu++) {
		snprintf(path, sizeof(path), fmt, cpu);
		if (read_small_file(path, buf, sizeof(buf)))
			continue;
		for (i = 0; i < n && strcmp(seen[i], buf); i++)
			;
		if (i == n)
			strcpy(seen[n++], buf);
	}
	return n;
}

static int read_format_file(const char *pmu, const char *field, char *buf,
			    size_t size)
{
	char file[64];

	snprintf(file, sizeof(file), "format/%s", field);
	return pmu_sysfs_string(pmu, file, buf, size);
}

FIXTURE(uncore) {
	unsigned int family, df_counters;
	bool v2;
	int l3, df;
	const char *skip;
};

FIXTURE_SETUP(uncore)
{
	unsigned int ecx = ext_ecx(), ebx = 0;

	self->l3 = pmu_sysfs_type(L3);
	self->df = pmu_sysfs_type(DF);
	if (!amd_cpu() || cpu_family() < 0x17 || !(ecx & (1u << 22))) {
		self->skip = "not an AMD family 17h or later with topology extensions";
		return;
	}
	if (!(ecx & (1u << 24)) || !(ecx & (1u << 28))) {
		/* Neither kernel may offer what the CPU does not have. */
		ASSERT_EQ(!!(ecx & (1u << 28)), self->l3 >= 0);
		ASSERT_EQ(!!(ecx & (1u << 24)), self->df >= 0);
		self->skip = "the CPU has no L3 or no data fabric counters";
		return;
	}
	ASSERT_LE(0, self->l3);
	ASSERT_LE(0, self->df);
	self->family = cpu_family();
	self->v2 = perfmon_v2(&ebx);
	self->df_counters = self->v2 ? (ebx >> 10) & 0x3f : 4;
}

FIXTURE_TEARDOWN(uncore)
{
}

/* Format files by family, and a cpumask with one CPU per domain. */
TEST_F(uncore, sysfs)
{
	char buf[64];

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_EQ(0, read_format_file(L3, "event", buf, sizeof(buf)));
	EXPECT_STREQ("config:0-7\n", buf);
	ASSERT_EQ(0, read_format_file(L3, "umask", buf, sizeof(buf)));
	EXPECT_STREQ("config:8-15\n", buf);
	ASSERT_EQ(0, read_format_file(L3, "threadmask", buf, sizeof(buf)));
	if (self->family >= 0x19) {
		EXPECT_STREQ("config:56-57\n", buf);
		ASSERT_EQ(0, read_format_file(L3, "coreid", buf, sizeof(buf)));
		EXPECT_STREQ("config:42-44\n", buf);
		ASSERT_EQ(0, read_format_file(L3, "sliceid", buf, sizeof(buf)));
		EXPECT_STREQ("config:48-50\n", buf);
		ASSERT_EQ(0, read_format_file(L3, "enallcores", buf,
					      sizeof(buf)));
		EXPECT_STREQ("config:47\n", buf);
		ASSERT_EQ(0, read_format_file(L3, "enallslices", buf,
					      sizeof(buf)));
		EXPECT_STREQ("config:46\n", buf);
		EXPECT_NE(0, read_format_file(L3, "slicemask", buf,
					      sizeof(buf)));
	} else {
		EXPECT_STREQ("config:56-63\n", buf);
		ASSERT_EQ(0, read_format_file(L3, "slicemask", buf,
					      sizeof(buf)));
		EXPECT_STREQ("config:48-51\n", buf);
		EXPECT_NE(0, read_format_file(L3, "coreid", buf, sizeof(buf)));
	}

	ASSERT_EQ(0, read_format_file(DF, "event", buf, sizeof(buf)));
	EXPECT_STREQ(self->v2 ? "config:0-7,32-37\n" :
		     "config:0-7,32-35,59-60\n", buf);
	ASSERT_EQ(0, read_format_file(DF, "umask", buf, sizeof(buf)));
	EXPECT_STREQ(self->v2 ? "config:8-15,24-27\n" : "config:8-15\n", buf);

	EXPECT_EQ(distinct_cpu_files("/sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list"),
		  pmu_sysfs_cpus(L3));
	EXPECT_EQ(distinct_cpu_files("/sys/devices/system/cpu/cpu%d/topology/die_id"),
		  pmu_sysfs_cpus(DF));
}

/* CPU-wide counting events only. */
TEST_F(uncore, refused)
{
	const int types[] = { self->l3, self->df };
	struct perf_event_attr a;
	unsigned int i;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		pmu_attr_init(&a, types[i], 0);
		EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
		EXPECT_EQ(EINVAL, perf_open_errno(&a, 0, -1));
		EXPECT_EQ(EINVAL, perf_open_errno(&a, 0, 0));
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, -1));
		a.exclude_kernel = 1;
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		a.exclude_kernel = 0;
		a.exclude_hv = 1;
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		a.exclude_hv = 0;
		a.sample_period = 100000;
		EXPECT_EQ(EOPNOTSUPP, perf_open_errno(&a, -1, 0));
	}
}

/* Not on a CPU off line, even one whose domain has a reader. */
TEST_F(uncore, cpu_off_line)
{
	struct perf_event_attr a;
	char online[64];

	if (self->skip)
		SKIP(return, "%s", self->skip);
	cpu_online_path(1, online, sizeof(online));
	if (access(online, W_OK))
		SKIP(return, "CPU 1 cannot go off line");
	ASSERT_EQ(0, cpu_set_online(1, 0));
	pmu_attr_init(&a, self->l3, 0);
	EXPECT_EQ(ENODEV, perf_open_errno(&a, -1, 1));
	pmu_attr_init(&a, self->df, 0);
	EXPECT_EQ(ENODEV, perf_open_errno(&a, -1, 1));
	ASSERT_EQ(0, cpu_set_online(1, 1));
	EXPECT_EQ(0, perf_open_errno(&a, -1, 1));
}

/* A group of @type as big as its @nr counters, and no bigger. */
static void group_limit(struct __test_metadata *_metadata, int type,
			unsigned int nr)
{
	struct perf_event_attr a;
	int fds[64], lead;
	unsigned int i;

	ASSERT_GT(ARRAY_SIZE(fds), nr);
	pmu_attr_init(&a, type, 0);
	lead = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, lead);
	for (i = 1; i < nr; i++) {
		fds[i] = sys_perf_event_open(&a, -1, 0, lead, 0);
		ASSERT_LE(0, fds[i]);
	}
	fds[0] = sys_perf_event_open(&a, -1, 0, lead, 0);
	EXPECT_EQ(-1, fds[0]);
	EXPECT_EQ(EINVAL, errno);
	if (fds[0] >= 0)
		close(fds[0]);
	for (i = 1; i < nr; i++)
		close(fds[i]);
	close(lead);
}

TEST_F(uncore, groups)
{
	if (self->skip)
		SKIP(return, "%s", self->skip);
	group_limit(_metadata, self->l3, 6);
	if (self->df_counters)
		group_limit(_metadata, self->df, self->df_counters);
}

/*
 * The L3's accesses and misses, and the fabric's lines from memory:
 * every line of a walk twice the L2's size is an access to the L3, a
 * hit once the first walk has brought it there; every line of one
 * twice the L3's size a miss, read from memory.  Other CPUs' accesses
 * count too: the counts are at least the walk's, and not many more.
 */
TEST_F(uncore, counts)
{
	unsigned int access_ev = self->family >= 0x19 ? 0x04 : 0x01;
	unsigned int access_um = self->family >= 0x19 ? 0xff : 0x80;
	unsigned int miss_ev = self->family >= 0x19 ? 0x04 : 0x06;
	unsigned int miss_um = 0x01;
	__u64 dram = self->family >= 0x19 ? df_config(0x1f, 0x7fe) :
					    df_config(0x07, 0x38);
	size_t l2 = cache_size(2), l3 = cache_size(3);
	struct perf_event_attr a;
	int acc, miss, mem;
	struct walk w;
	__u64 lines, n;
	long kept, kept2;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_NE(0, l2);
	ASSERT_NE(0, l3);
	/*
	 * On one CPU: after a move, the lines in the other CPU's L2 are
	 * found there by a snoop, and are no misses of the L3.
	 */
	ASSERT_EQ(0, pin_to_cpu(0));
	pmu_attr_init(&a, self->l3, l3_config(access_ev, access_um));
	acc = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, acc);
	pmu_attr_init(&a, self->l3, l3_config(miss_ev, miss_um));
	miss = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, miss);
	pmu_attr_init(&a, self->df, dram);
	mem = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, mem);

	/* Twice the L2: in the L3 after the first walk. */
	ASSERT_EQ(0, walk_init(&w, 2 * l2, false));
	cache_walk(1, w.array, w.size, w.stride);
	lines = PASSES * w.size / LINE;
	ASSERT_EQ(0, walk_count(acc, &w, PASSES, &n));
	EXPECT_LE(lines, n);
	EXPECT_GE(2 * lines + 100000, n);
	ASSERT_EQ(0, walk_count(miss, &w, PASSES, &n));
	EXPECT_GE(lines / 4, n);
	walk_fini(&w);

	/*
	 * Twice the L3: a miss, from memory, each line but those of the
	 * sets of the L3 or the L2 that few enough of them share
	 * (walk_lines_kept()).
	 */
	ASSERT_EQ(0, walk_init(&w, 2 * l3, false));
	cache_walk(1, w.array, w.size, w.stride);
	kept = walk_lines_kept(&w, 3);
	kept2 = walk_lines_kept(&w, 2);
	if (kept < 0 || kept2 < 0)
		kept = w.size / LINE / 16;
	else
		kept += kept2;
	lines = PASSES * (w.size / LINE - kept);
	ASSERT_EQ(0, walk_count(miss, &w, PASSES, &n));
	EXPECT_LE(lines, n);
	EXPECT_GE(2 * lines + 100000, n);
	ASSERT_EQ(0, walk_count(mem, &w, PASSES, &n));
	EXPECT_LE(lines, n);
	EXPECT_GE(2 * lines + 100000, n);
	walk_fini(&w);
	close(mem);
	close(miss);
	close(acc);
}

/* The L3 accesses of @fd over a walk of @w (0 if it cannot be read). */
static __u64 walk_accesses(int fd, struct walk *w)
{
	__u64 n;

	cache_walk(1, w->array, w->size, w->stride);
	return walk_count(fd, w, PASSES, &n) ? 0 : n;
}

/* An event of the L3 (@type) of @family counting accesses on @cpu. */
static int open_accesses(int type, unsigned int family, int cpu)
{
	struct perf_event_attr a;

	pmu_attr_init(&a, type, l3_config(family >= 0x19 ? 0x04 : 0x01,
					  family >= 0x19 ? 0xff : 0x80));
	return sys_perf_event_open(&a, -1, cpu, -1, 0);
}

/*
 * An event opened on a CPU other than the cpumask's counts there: it
 * joins a group led there, and counts a walk on the reader's CPU.
 */
TEST_F(uncore, counts_on_the_reader)
{
	int reader = pmu_sysfs_reader(L3), other, fd, lead;
	struct perf_event_attr a;
	struct walk w;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_LE(0, reader);
	other = reader ? 0 : 1;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU");
	fd = open_accesses(self->l3, self->family, other);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, walk_init(&w, 2 * cache_size(2), false));
	ASSERT_EQ(0, pin_to_cpu(reader));
	EXPECT_LE(PASSES * w.size / LINE, walk_accesses(fd, &w));
	walk_fini(&w);
	close(fd);

	lead = open_accesses(self->l3, self->family, reader);
	ASSERT_LE(0, lead);
	pmu_attr_init(&a, self->l3, 0);
	fd = sys_perf_event_open(&a, -1, other, lead, 0);
	EXPECT_LE(0, fd) TH_LOG("a member on CPU %d: %s", other,
				strerror(errno));
	if (fd >= 0)
		close(fd);
	close(lead);
}

/*
 * When the reader goes off line its events move to the next CPU of the
 * domain, which the cpumask names from then on, and go on counting.
 * Only where the reader can go off line: 6.1 lets CPU 0 go only on
 * Intel's parts, so not on an AMD machine of two CPUs.
 */
TEST_F(uncore, moves_with_the_reader)
{
	int reader = pmu_sysfs_reader(L3), fd;
	char online[64];
	struct walk w;
	__u64 lines;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_LE(0, reader);
	cpu_online_path(reader, online, sizeof(online));
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || access(online, W_OK))
		SKIP(return, "CPU %d cannot go off line", reader);
	fd = open_accesses(self->l3, self->family, reader);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, walk_init(&w, 2 * cache_size(2), false));
	lines = PASSES * w.size / LINE;
	EXPECT_LE(lines, walk_accesses(fd, &w));
	ASSERT_EQ(0, cpu_set_online(reader, 0));
	EXPECT_NE(reader, pmu_sysfs_reader(L3));
	EXPECT_LE(lines, walk_accesses(fd, &w));
	EXPECT_EQ(0, cpu_set_online(reader, 1));
	EXPECT_LE(lines, walk_accesses(fd, &w));
	walk_fini(&w);
	close(fd);
}

TEST_HARNESS_MAIN
