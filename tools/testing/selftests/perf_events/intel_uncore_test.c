// SPDX-License-Identifier: GPL-2.0
/*
 * The uncore PMUs of Intel's client parts from Sandy Bridge to Comet
 * Lake (/sys/bus/event_source/devices/uncore_cbox_<n>, uncore_arb,
 * uncore_imc): the counters of the last-level cache's slices (C-Boxes),
 * of the arbitration between cores and memory, the uncore clock, and
 * the memory controller's free-running counts of 64-byte requests.
 *
 * What 6.1 does, and ours must, on such a part without the hypervisor
 * bit: one C-Box PMU a core (at most 4 before Skylake, 8 from it), the
 * first with events/clockticks; a cpumask of one CPU per package; the
 * memory controller's events with a scale to MiB; CPU-wide counting
 * events only (task events, a CPU of -1, sampling and exclude_* bits
 * EINVAL); the clock only on the first C-Box; a group only as big as a
 * box's counters (and its clock), the arbitration box's occupancy on
 * its counter 0 only.  An event opened on any CPU counts on the
 * cpumask's, and on the next CPU of the package when that one goes off
 * line.
 *
 * The counts are the emulation's (harness/qemu/0045): the caches'
 * lookups of the L3 and misses there, and the lines read from memory,
 * for every vCPU.  So a walk of an array twice the L3's size reads from
 * memory every line but those the caches keep.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <dirent.h>
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "../kselftest_harness.h"
#include "hw_cache_util.h"

#define ARB	"uncore_arb"
/* C-Box event 0x34, every state (M, E, S, I) of any request: lookups. */
#define LOOKUPS		0x8f34
#define MISSES		0x8834	/* state I: the line was not there */
#define ARB_REQUESTS	0x0181
#define IMC	"uncore_imc"
#define PASSES	2

/* Intel's client models with this uncore, and the first with Skylake's. */
static const unsigned char client_models[] = {
	0x2a, 0x3a, 0x3c, 0x45, 0x46, 0x3d, 0x47,
	0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6,
};

/* Whether this is a client part 6.1 drives the uncore of; its model. */
static bool client_part(unsigned int *model)
{
	unsigned int a, b, c, d, i;

	__cpuid(0, a, b, c, d);
	if (b != 0x756e6547)	/* "Genu"ineIntel */
		return false;
	__cpuid(1, a, b, c, d);
	if (c & (1u << 31))	/* a hypervisor */
		return false;
	if (((a >> 8) & 0xf) != 6)
		return false;
	*model = ((a >> 4) & 0xf) | ((a >> 12) & 0xf0);
	for (i = 0; i < ARRAY_SIZE(client_models); i++) {
		if (client_models[i] == *model)
			return true;
	}
	return false;
}

/* The cores a package has: CPUID leaf 4's EAX[31:26], plus one. */
static unsigned int package_cores(void)
{
	unsigned int a, b, c, d;

	__cpuid_count(4, 0, a, b, c, d);
	return (a >> 26) + 1;
}

/* The client parts' host bridges, whose MCHBAR has the IMC's counters. */
static const unsigned short imc_bridges[] = {
	0x0100, 0x0150, 0x0154, 0x0a04, 0x0c00, 0x1604, 0x1900, 0x1904,
	0x190c, 0x190f, 0x1910, 0x1918, 0x191f, 0x5904, 0x590c, 0x590d,
	0x590f, 0x5910, 0x5914, 0x5918, 0x591f, 0x3e0f, 0x3e10, 0x3e18,
	0x3e1f, 0x3e30, 0x3e31, 0x3e32, 0x3e33, 0x3e34, 0x3e35, 0x3ec2,
	0x3ec4, 0x3ec6, 0x3eca, 0x3ecc, 0x3ed0, 0x9b33, 0x9b43, 0x9b44,
	0x9b51, 0x9b53, 0x9b54, 0x9b61, 0x9b63, 0x9b64, 0x9b71, 0x9b73,
};

/* Whether the machine has one of those host bridges (an Intel device). */
static bool has_imc_bridge(void)
{
	DIR *dir = opendir("/sys/bus/pci/devices");
	char path[300], buf[32];
	struct dirent *d;
	bool found = false;
	unsigned int i;

	while (dir && !found && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor",
			 d->d_name);
		if (read_small_file(path, buf, sizeof(buf)) ||
		    strtoul(buf, NULL, 16) != 0x8086)
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device",
			 d->d_name);
		if (read_small_file(path, buf, sizeof(buf)))
			continue;
		for (i = 0; i < ARRAY_SIZE(imc_bridges); i++)
			found |= strtoul(buf, NULL, 16) == imc_bridges[i];
	}
	if (dir)
		closedir(dir);
	return found;
}

/* The number of PMUs whose names start with @prefix. */
static int count_pmus(const char *prefix)
{
	DIR *dir = opendir(PMU_SYSFS_DIR);
	struct dirent *d;
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n += !strncmp(d->d_name, prefix, strlen(prefix));
	closedir(dir);
	return n;
}

/* The number of packages: distinct physical_package_id files. */
static int packages(void)
{
	char path[128], buf[32], seen[64][32];
	int cpu, n = 0, i;

	for (cpu = 0; cpu < 64; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
			 cpu);
		if (read_small_file(path, buf, sizeof(buf)))
			continue;
		for (i = 0; i < n && strcmp(seen[i], buf); i++)
			;
		if (i == n)
			strcpy(seen[n++], buf);
	}
	return n;
}

FIXTURE(uncore) {
	unsigned int model, cboxes;
	int cbox0, arb, imc;
	char cbox0_name[32];
	const char *skip;
};

FIXTURE_SETUP(uncore)
{
	if (!client_part(&self->model)) {
		self->skip = "not an Intel client part (Sandy Bridge to Comet Lake) on bare metal";
		return;
	}
	self->cboxes = count_pmus("uncore_cbox");
	ASSERT_LE(1, self->cboxes);
	strcpy(self->cbox0_name, self->cboxes == 1 ? "uncore_cbox" :
						      "uncore_cbox_0");
	self->cbox0 = pmu_sysfs_type(self->cbox0_name);
	self->arb = pmu_sysfs_type(ARB);
	self->imc = pmu_sysfs_type(IMC);
	ASSERT_LE(0, self->cbox0);
	ASSERT_LE(0, self->arb);
	/* The memory controller's PMU wherever its host bridge is. */
	if (has_imc_bridge())
		ASSERT_LE(0, self->imc);
}

FIXTURE_TEARDOWN(uncore)
{
}

/* The C-Boxes' format and clock, the memory controller's events. */
TEST_F(uncore, sysfs)
{
	static const char * const imc_events[] = {
		"data_reads", "data_writes", "gt_requests", "ia_requests",
		"io_requests",
	};
	static const char * const fields[][2] = {
		{ "event", "config:0-7\n" }, { "umask", "config:8-15\n" },
		{ "edge", "config:18\n" }, { "inv", "config:23\n" },
		{ "cmask", "config:24-28\n" },
	};
	char buf[64], file[64];
	unsigned int i;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	/* One C-Box a core, up to 4 (8 from Skylake). */
	EXPECT_EQ(package_cores() < (self->model >= 0x4e ? 8 : 4) ?
		  package_cores() : (self->model >= 0x4e ? 8 : 4),
		  self->cboxes);
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		snprintf(file, sizeof(file), "format/%s", fields[i][0]);
		ASSERT_EQ(0, pmu_sysfs_string(self->cbox0_name, file, buf,
					      sizeof(buf)));
		EXPECT_STREQ(fields[i][1], buf);
		ASSERT_EQ(0, pmu_sysfs_string(ARB, file, buf, sizeof(buf)));
		EXPECT_STREQ(fields[i][1], buf);
	}
	ASSERT_EQ(0, pmu_sysfs_string(self->cbox0_name, "events/clockticks",
				      buf, sizeof(buf)));
	/* 6.1's uncore writes its events files without a newline. */
	EXPECT_STREQ("event=0xff,umask=0x00", buf);
	EXPECT_NE(0, pmu_sysfs_string(ARB, "events/clockticks", buf,
				      sizeof(buf)));
	EXPECT_EQ(packages(), pmu_sysfs_cpus(self->cbox0_name));
	EXPECT_EQ(packages(), pmu_sysfs_cpus(ARB));

	if (self->imc < 0)
		SKIP(return, "no memory controller's counters (host bridge)");
	EXPECT_EQ(packages(), pmu_sysfs_cpus(IMC));
	ASSERT_EQ(0, pmu_sysfs_string(IMC, "format/event", buf, sizeof(buf)));
	EXPECT_STREQ("config:0-7\n", buf);
	EXPECT_NE(0, pmu_sysfs_string(IMC, "format/umask", buf, sizeof(buf)));
	for (i = 0; i < ARRAY_SIZE(imc_events); i++) {
		snprintf(file, sizeof(file), "events/%s", imc_events[i]);
		ASSERT_EQ(0, pmu_sysfs_string(IMC, file, buf, sizeof(buf)));
		snprintf(file, sizeof(file), "event=0x%02x", i + 1);
		EXPECT_STREQ(file, buf);
		snprintf(file, sizeof(file), "events/%s.scale", imc_events[i]);
		ASSERT_EQ(0, pmu_sysfs_string(IMC, file, buf, sizeof(buf)));
		EXPECT_STREQ("6.103515625e-5", buf);
		snprintf(file, sizeof(file), "events/%s.unit", imc_events[i]);
		ASSERT_EQ(0, pmu_sysfs_string(IMC, file, buf, sizeof(buf)));
		EXPECT_STREQ("MiB", buf);
	}
}

/* CPU-wide counting events only, the clock on the first C-Box only. */
TEST_F(uncore, refused)
{
	const int types[] = { self->cbox0, self->arb, self->imc };
	struct perf_event_attr a;
	char name[32];
	unsigned int i;
	int type;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		if (types[i] < 0)
			continue;
		pmu_attr_init(&a, types[i], 1);
		EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, -1));
		EXPECT_CPU_COUNTER_REFUSALS(&a);
		a.exclude_hv = 1;
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	}

	pmu_attr_init(&a, self->cbox0, 0xff);
	EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
	pmu_attr_init(&a, self->arb, 0xff);
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	/* Event 0xff with a unit mask from 0x10: a free-running counter. */
	pmu_attr_init(&a, self->cbox0, 0x10ff);
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	pmu_attr_init(&a, self->cbox0, ~0ULL);
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	pmu_attr_init(&a, self->cbox0, 0x0fff);
	EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
	if (self->cboxes > 1) {
		snprintf(name, sizeof(name), "uncore_cbox_%u", self->cboxes - 1);
		type = pmu_sysfs_type(name);
		ASSERT_LE(0, type);
		pmu_attr_init(&a, type, 0xff);
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		/* Bits of no field are dropped, not refused. */
		pmu_attr_init(&a, type, 0x34 | 1ull << 40);
		EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
	}

	if (self->imc < 0)
		return;
	pmu_attr_init(&a, self->imc, 0);
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	pmu_attr_init(&a, self->imc, 6);
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	pmu_attr_init(&a, self->imc, 0x101);
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	pmu_attr_init(&a, self->imc, 5);
	EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
}

/* Opens @n events of @type and @config in @lead's group; the last fd. */
static int open_members(int type, __u64 config, int lead, int n, int *fds)
{
	struct perf_event_attr a;
	int i;

	pmu_attr_init(&a, type, config);
	for (i = 0; i < n; i++) {
		fds[i] = sys_perf_event_open(&a, -1, 0, lead, 0);
		if (fds[i] < 0)
			return -1;
	}
	return 0;
}

/*
 * A C-Box's group: its counters (two before Skylake, four from it) and
 * the clock, no more.  The arbitration box's: two counters, one event
 * of its occupancy (0x80), which counts on counter 0 only.  The memory
 * controller's counters run free: a group of it has no limit.
 */
TEST_F(uncore, groups)
{
	unsigned int nr = self->model >= 0x4e ? 4 : 2;
	struct perf_event_attr a;
	int lead, fds[16];

	if (self->skip)
		SKIP(return, "%s", self->skip);
	memset(fds, -1, sizeof(fds));
	pmu_attr_init(&a, self->cbox0, 0xff);
	lead = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, lead);
	ASSERT_EQ(0, open_members(self->cbox0, 0x34, lead, nr, fds));
	EXPECT_EQ(-1, open_members(self->cbox0, 0x34, lead, 1, fds + nr));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_members(self->cbox0, 0xff, lead, 1, fds + nr));
	EXPECT_EQ(EINVAL, errno);
	close_fds(fds, ARRAY_SIZE(fds));
	close(lead);

	memset(fds, -1, sizeof(fds));
	pmu_attr_init(&a, self->arb, 0x0180);
	lead = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, lead);
	EXPECT_EQ(-1, open_members(self->arb, 0x0180, lead, 1, fds));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, open_members(self->arb, 0x0181, lead, 1, fds + 1));
	EXPECT_EQ(-1, open_members(self->arb, 0x0181, lead, 1, fds + 2));
	EXPECT_EQ(EINVAL, errno);
	close_fds(fds, ARRAY_SIZE(fds));
	close(lead);

	if (self->imc < 0)
		return;
	memset(fds, -1, sizeof(fds));
	pmu_attr_init(&a, self->imc, 1);
	lead = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, lead);
	EXPECT_EQ(0, open_members(self->imc, 1, lead, 4, fds));
	EXPECT_EQ(0, open_members(self->imc, 2, lead, 4, fds + 4));
	close_fds(fds, ARRAY_SIZE(fds));
	close(lead);
}

/* The lines of @w that the L3 and L2 do not keep from walk to walk. */
static __u64 lines_missed(const struct walk *w)
{
	long kept = walk_lines_kept(w, 3), kept2 = walk_lines_kept(w, 2);

	if (kept < 0 || kept2 < 0)
		return w->size / LINE - w->size / LINE / 16;
	return w->size / LINE - kept - kept2;
}

/*
 * The memory controller's reads: every line of a walk twice the L3's
 * size that the caches do not keep is read from memory, and is a
 * request of the cores.  Other CPUs' reads count too: the counts are
 * at least the walk's, and not many more.
 */
TEST_F(uncore, imc_counts)
{
	struct perf_event_attr a;
	int reads, ia;
	struct walk w;
	__u64 lines, n;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	if (self->imc < 0)
		SKIP(return, "no memory controller's counters (host bridge)");
	ASSERT_NE(0, cache_size(3));
	ASSERT_EQ(0, pin_to_cpu(0));
	pmu_attr_init(&a, self->imc, 1);
	reads = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, reads);
	pmu_attr_init(&a, self->imc, 4);
	ia = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, ia);

	ASSERT_EQ(0, walk_init(&w, 2 * cache_size(3), false));
	cache_walk(1, w.array, w.size, w.stride);
	lines = PASSES * lines_missed(&w);
	ASSERT_EQ(0, walk_count(reads, &w, PASSES, &n));
	EXPECT_LE(lines, n);
	EXPECT_GE(2 * lines + 100000, n);
	ASSERT_EQ(0, walk_count(ia, &w, PASSES, &n));
	EXPECT_LE(lines, n);
	EXPECT_GE(2 * lines + 100000, n);
	walk_fini(&w);
	close(ia);
	close(reads);
}

/*
 * The slices' lookups and misses and the arbitration box's requests: a
 * walk of twice the L2's size looks every line up in the L3, where it
 * hits once the first walk has brought it there; each line of one twice
 * the L3's size that the caches do not keep misses, and is a request
 * to memory.  The slices share the lines between them: their sum counts.
 */
TEST_F(uncore, cbox_arb_counts)
{
	int lookups[8], misses[8], arb, i, nr = self->cboxes;
	struct perf_event_attr a;
	char name[32];
	__u64 lines, n, sum, before[8], after[8];
	struct walk w;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_GE(8, nr);
	ASSERT_EQ(0, pin_to_cpu(0));
	for (i = 0; i < nr; i++) {
		if (nr == 1)
			strcpy(name, "uncore_cbox");
		else
			snprintf(name, sizeof(name), "uncore_cbox_%d", i);
		pmu_attr_init(&a, pmu_sysfs_type(name), LOOKUPS);
		lookups[i] = sys_perf_event_open(&a, -1, 0, -1, 0);
		ASSERT_LE(0, lookups[i]);
		a.config = MISSES;
		misses[i] = sys_perf_event_open(&a, -1, 0, -1, 0);
		ASSERT_LE(0, misses[i]);
	}
	pmu_attr_init(&a, self->arb, ARB_REQUESTS);
	arb = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, arb);

	ASSERT_EQ(0, walk_init(&w, 2 * cache_size(2), false));
	cache_walk(1, w.array, w.size, w.stride);
	lines = PASSES * w.size / LINE;
	for (i = 0; i < nr; i++)
		ASSERT_EQ(0, read_value(lookups[i], &before[i]));
	cache_walk(PASSES, w.array, w.size, w.stride);
	for (i = 0, sum = 0; i < nr; i++) {
		ASSERT_EQ(0, read_value(lookups[i], &after[i]));
		sum += after[i] - before[i];
		/* Each slice has its share of the lines. */
		EXPECT_LE(lines / nr / 2, after[i] - before[i]);
	}
	EXPECT_LE(lines, sum);
	EXPECT_GE(2 * lines + 100000, sum);
	walk_fini(&w);

	ASSERT_EQ(0, walk_init(&w, 2 * cache_size(3), false));
	cache_walk(1, w.array, w.size, w.stride);
	lines = PASSES * lines_missed(&w);
	for (i = 0; i < nr; i++)
		ASSERT_EQ(0, read_value(misses[i], &before[i]));
	ASSERT_EQ(0, walk_count(arb, &w, PASSES, &n));
	for (i = 0, sum = 0; i < nr; i++) {
		ASSERT_EQ(0, read_value(misses[i], &after[i]));
		sum += after[i] - before[i];
	}
	EXPECT_LE(lines, n);
	EXPECT_GE(2 * lines + 100000, n);
	/* The misses of the walk's ARB requests, and of the reads after. */
	EXPECT_LE(lines, sum);
	EXPECT_GE(2 * lines + 100000, sum);
	walk_fini(&w);
	for (i = 0; i < nr; i++) {
		close(lookups[i]);
		close(misses[i]);
	}
	close(arb);
}

/*
 * @fd, a slice's lookups, counts its share of a walk of twice the L2's
 * size, each line of which is looked up in the L3.
 */
static void expect_slice_lookups(struct __test_metadata *_metadata, int fd,
				 unsigned int cboxes)
{
	struct walk w;
	__u64 n;

	ASSERT_EQ(0, walk_init(&w, 2 * cache_size(2), false));
	cache_walk(1, w.array, w.size, w.stride);
	ASSERT_EQ(0, walk_count(fd, &w, PASSES, &n));
	EXPECT_LE(PASSES * w.size / LINE / 4 / cboxes, n);
	walk_fini(&w);
}

/*
 * An event opened on a CPU other than the cpumask's counts there: it
 * joins a group of its box led there.
 */
TEST_F(uncore, counts_on_the_reader)
{
	int reader = pmu_sysfs_reader(ARB), other, fd, lead;
	struct perf_event_attr a;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU");
	ASSERT_LE(0, reader);
	other = reader ? 0 : 1;
	pmu_attr_init(&a, self->cbox0, 0xff);
	lead = sys_perf_event_open(&a, -1, reader, -1, 0);
	ASSERT_LE(0, lead);
	pmu_attr_init(&a, self->cbox0, LOOKUPS);
	fd = sys_perf_event_open(&a, -1, other, lead, 0);
	EXPECT_LE(0, fd) TH_LOG("a member on CPU %d: %s", other,
				strerror(errno));
	if (fd >= 0) {
		/* It counts: its slice's lookups of a walk of twice the L2. */
		expect_slice_lookups(_metadata, fd, self->cboxes);
		close(fd);
	}
	/* A box's events make a group; two boxes' cannot (6.1 neither). */
	pmu_attr_init(&a, self->arb, 0x0181);
	EXPECT_EQ(-1, sys_perf_event_open(&a, -1, reader, lead, 0));
	EXPECT_EQ(EINVAL, errno);
	close(lead);
}

/*
 * A read from another CPU of the die runs there, with no IPI to the
 * reader (both kernels: PERF_EV_CAP_READ_ACTIVE_PKG): 200 reads of the
 * clock, of the memory controller's reads and of a group of the clock
 * and a slice's lookups cost the reader fewer than 100 function-call
 * interrupts each, and go on as they do there.  Such a read pulls the
 * counts from the box: the lookups of a walk there are counted at once
 * (the reader's timer folds them in only once a minute).
 */
TEST_F(uncore, read_from_the_die_sends_no_ipi)
{
	struct {
		int type;
		__u64 config;
		const char *what;
	} alone[] = {
		{ self->cbox0, 0xff, "the clock" },
		{ self->imc, 1, "the memory's reads" },
	};
	int reader, other, lead, fd, i;
	struct perf_event_attr a;
	struct die_reads r;
	const char *why;
	__u64 buf[5];
	pid_t spin;
	long ipis;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	why = die_read_cpus(ARB, &reader, &other);
	if (why)
		SKIP(return, "%s", why);

	for (i = 0; i < ARRAY_SIZE(alone); i++) {
		if (alone[i].type < 0)
			continue;
		pmu_attr_init(&a, alone[i].type, alone[i].config);
		a.read_format = RF_TIMES;
		fd = sys_perf_event_open(&a, -1, reader, -1, 0);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, die_reads(fd, reader, other, 200, &r));
		EXPECT_GT(100, r.interrupts) TH_LOG("%s", alone[i].what);
		EXPECT_EQ(0, r.backwards);
		EXPECT_EQ(r.last.enabled, r.last.running);
		close(fd);
	}

	pmu_attr_init(&a, self->cbox0, 0xff);
	a.read_format = PERF_FORMAT_GROUP | RF_TIMES;
	lead = sys_perf_event_open(&a, -1, reader, -1, 0);
	ASSERT_LE(0, lead);
	pmu_attr_init(&a, self->cbox0, LOOKUPS);
	fd = sys_perf_event_open(&a, -1, reader, lead, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pin_to_cpu(other));
	spin = spin_on(reader);
	ASSERT_LE(0, spin);
	ipis = cpu_call_interrupts(reader);
	for (i = 0; i < 200; i++)
		if (read(lead, buf, sizeof(buf)) != sizeof(buf))
			break;
	ipis = cpu_call_interrupts(reader) - ipis;
	spin_stop(spin);
	EXPECT_EQ(200, i);
	EXPECT_GT(100, ipis) TH_LOG("a group");
	EXPECT_EQ(2, buf[0]);
	EXPECT_EQ(buf[1], buf[2]);

	expect_slice_lookups(_metadata, fd, self->cboxes);
	close(fd);
	close(lead);
}

/*
 * The clock counts while the machine runs: it moves across a sleep,
 * opened on the last CPU (which need not be the reader).
 */
TEST_F(uncore, clockticks)
{
	struct perf_event_attr a;
	__u64 before, after;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	pmu_attr_init(&a, self->cbox0, 0xff);
	fd = sys_perf_event_open(&a, -1, sysconf(_SC_NPROCESSORS_ONLN) - 1,
				 -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, read_value(fd, &before));
	usleep(100000);
	ASSERT_EQ(0, read_value(fd, &after));
	EXPECT_LT(before, after);
	close(fd);
}

/*
 * When the reader goes off line its events move to the next CPU of the
 * package, which the cpumask names from then on, and go on counting.
 */
TEST_F(uncore, moves_with_the_reader)
{
	int reader = pmu_sysfs_reader(ARB), fd;
	struct perf_event_attr a;
	__u64 before, after, moved;
	char online[64];

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_LE(0, reader);
	cpu_online_path(reader, online, sizeof(online));
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || access(online, W_OK))
		SKIP(return, "CPU %d cannot go off line", reader);
	pmu_attr_init(&a, self->cbox0, 0xff);
	fd = sys_perf_event_open(&a, -1, reader, -1, 0);
	ASSERT_LE(0, fd);
	usleep(10000);
	ASSERT_EQ(0, read_value(fd, &before));
	ASSERT_LT(0, before);
	ASSERT_EQ(0, cpu_set_online(reader, 0));
	EXPECT_NE(reader, pmu_sysfs_reader(ARB));
	EXPECT_NE(reader, pmu_sysfs_reader(self->cbox0_name));
	if (self->imc >= 0)
		EXPECT_NE(reader, pmu_sysfs_reader(IMC));
	usleep(10000);
	ASSERT_EQ(0, read_value(fd, &moved));
	EXPECT_LT(before, moved);
	EXPECT_EQ(0, cpu_set_online(reader, 1));
	usleep(10000);
	ASSERT_EQ(0, read_value(fd, &after));
	EXPECT_LT(moved, after);
	close(fd);
}

TEST_HARNESS_MAIN
