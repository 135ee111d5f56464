// SPDX-License-Identifier: GPL-2.0
/*
 * The C-state residency PMUs (/sys/bus/event_source/devices/cstate_core
 * and cstate_pkg): how long each core and each package spent in each of
 * its idle states, in TSC ticks.  Dynamic types, format/event
 * "config:0-63", a cpumask with one CPU per core or package, and an
 * events/ file for each state the part counts (core: c1-residency 0x00,
 * c3 0x01, c6 0x02, c7 0x03; package: c2 0x00, c3 0x01, c6 0x02,
 * c7 0x03, c8 0x04, c9 0x05, c10 0x06).  Events are CPU-wide counting
 * events: no task events, no sampling, no exclude_* bit, no config
 * outside the states listed (EINVAL, as 6.1).  A core's residency grows
 * while it idles and not while it spins; a package's grows while all
 * its CPUs idle; a package event goes on counting on another CPU when
 * its reader goes off line.
 *
 * Only on bare metal (6.1 registers neither PMU under a hypervisor): in
 * our harness, the goldmontplus flavour.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "../kselftest_harness.h"

#define CORE	"cstate_core"
#define PKG	"cstate_pkg"

/* The states of each PMU's events, by attr.config. */
static const int core_states[] = { 1, 3, 6, 7 };
static const int pkg_states[] = { 2, 3, 6, 7, 8, 9, 10 };

struct cstate_pmu {
	const char *name;
	const int *states;
	unsigned int nr;
};

static const struct cstate_pmu pmus[] = {
	{ CORE, core_states, ARRAY_SIZE(core_states) },
	{ PKG, pkg_states, ARRAY_SIZE(pkg_states) },
};

static int pmu_type(const char *pmu)
{
	int type;

	if (pmu_sysfs_read(pmu, "type", &type))
		return -1;
	return type;
}

static bool have_state(const char *pmu, int state)
{
	char path[128];

	snprintf(path, sizeof(path), PMU_SYSFS_DIR "%s/events/c%d-residency",
		 pmu, state);
	return !access(path, F_OK);
}

static void cstate_attr(struct perf_event_attr *attr, const char *pmu,
			__u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = pmu_type(pmu);
	attr->config = config;
	attr->read_format = RF_TIMES;
}

/* The events of @p's listed states on @cpu, in @fds; how many. */
static int open_all(struct __test_metadata *_metadata,
		    const struct cstate_pmu *p, int cpu, int *fds)
{
	struct perf_event_attr attr;
	unsigned int i;
	int n = 0;

	for (i = 0; i < p->nr; i++) {
		if (!have_state(p->name, p->states[i]))
			continue;
		cstate_attr(&attr, p->name, i);
		fds[n] = sys_perf_event_open(&attr, -1, cpu, -1, 0);
		ASSERT_LE(0, fds[n]) TH_LOG("%s c%d: %s", p->name,
					    p->states[i], strerror(errno));
		n++;
	}
	return n;
}

/* The sum of the counts of @fds. */
static __u64 sum_all(struct __test_metadata *_metadata, const int *fds, int n)
{
	struct value_times v;
	__u64 sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, read_value_times(fds[i], &v));
		EXPECT_EQ(v.enabled, v.running);
		sum += v.value;
	}
	return sum;
}

static void close_all(const int *fds, int n)
{
	while (n--)
		close(fds[n]);
}

FIXTURE(cstate) {
	bool core, pkg;
};

FIXTURE_SETUP(cstate)
{
	self->core = pmu_type(CORE) >= 0;
	self->pkg = pmu_type(PKG) >= 0;
}

FIXTURE_TEARDOWN(cstate)
{
}

/* The type, format, cpumask and each event's file. */
TEST_F(cstate, sysfs)
{
	char buf[128], path[160], want[32];
	unsigned int i, j, listed = 0;

	if (!self->core && !self->pkg)
		SKIP(return, "no cstate PMU");
	for (i = 0; i < ARRAY_SIZE(pmus); i++) {
		const struct cstate_pmu *p = &pmus[i];

		if (pmu_type(p->name) < 0)
			continue;
		EXPECT_GE(pmu_type(p->name), PERF_TYPE_MAX);
		snprintf(path, sizeof(path), PMU_SYSFS_DIR "%s/format/event",
			 p->name);
		ASSERT_EQ(0, read_small_file(path, buf, sizeof(buf)));
		EXPECT_STREQ("config:0-63\n", buf);
		EXPECT_LE(0, pmu_sysfs_reader(p->name));
		for (j = 0; j < p->nr; j++) {
			if (!have_state(p->name, p->states[j]))
				continue;
			snprintf(path, sizeof(path),
				 PMU_SYSFS_DIR "%s/events/c%d-residency",
				 p->name, p->states[j]);
			ASSERT_EQ(0, read_small_file(path, buf, sizeof(buf)));
			snprintf(want, sizeof(want), "event=0x%02x\n", j);
			EXPECT_STREQ(want, buf);
			listed++;
		}
	}
	EXPECT_LT(0U, listed);
}

/*
 * Task events, sampling, exclude_* bits and configs of states not
 * listed: EINVAL.  A listed state opens on any CPU.
 */
TEST_F(cstate, refused)
{
	static const __u64 bad[] = { 0x100, 1ULL << 32, ~0ULL };
	struct perf_event_attr attr;
	unsigned int i, j;

	if (!self->core && !self->pkg)
		SKIP(return, "no cstate PMU");
	for (i = 0; i < ARRAY_SIZE(pmus); i++) {
		const struct cstate_pmu *p = &pmus[i];
		int first = -1;

		if (pmu_type(p->name) < 0)
			continue;
		for (j = 0; j < p->nr; j++) {
			bool listed = have_state(p->name, p->states[j]);

			cstate_attr(&attr, p->name, j);
			EXPECT_EQ(listed ? 0 : EINVAL, perf_open_errno(&attr, -1, 0))
				TH_LOG("%s config %u", p->name, j);
			if (listed && first < 0)
				first = j;
		}
		cstate_attr(&attr, p->name, p->nr);
		EXPECT_EQ(EINVAL, perf_open_errno(&attr, -1, 0));
		for (j = 0; j < ARRAY_SIZE(bad); j++) {
			attr.config = bad[j];
			EXPECT_EQ(EINVAL, perf_open_errno(&attr, -1, 0))
				TH_LOG("%s config %#llx", p->name,
				       (unsigned long long)bad[j]);
		}
		ASSERT_LE(0, first);

		cstate_attr(&attr, p->name, first);
		EXPECT_CPU_COUNTER_REFUSALS(&attr);
		if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
			EXPECT_EQ(0, perf_open_errno(&attr, -1, 1));
		attr.exclude_idle = 1;
		EXPECT_EQ(EINVAL, perf_open_errno(&attr, -1, 0));
	}
}

/*
 * The residency of CPU 0's core over 200 ms, in all its states: it grows
 * while the CPU sleeps (by the most of three sleeps, so that a busy
 * moment of another task does not decide), and grows by less than a
 * quarter of that while this task spins on it.
 */
TEST_F(cstate, core_idles_not_spinning)
{
	__u64 idle = 0, spin, a, b;
	int fds[4], n, i;

	if (!self->core)
		SKIP(return, "no cstate_core PMU");
	ASSERT_EQ(0, pin_to_cpu(0));
	n = open_all(_metadata, &pmus[0], 0, fds);
	ASSERT_LT(0, n);
	for (i = 0; i < 3; i++) {
		a = sum_all(_metadata, fds, n);
		sleep_ms(200);
		b = sum_all(_metadata, fds, n);
		if (b - a > idle)
			idle = b - a;
	}
	a = sum_all(_metadata, fds, n);
	spin_cpu_ns(200 * NSEC_PER_MSEC);
	b = sum_all(_metadata, fds, n);
	spin = b - a;
	EXPECT_LT(0ULL, idle);
	EXPECT_LT(spin, idle / 4) {
		TH_LOG("core residency: %llu sleeping 200 ms, %llu spinning",
		       (unsigned long long)idle, (unsigned long long)spin);
	}
	close_all(fds, n);
}

/* The package's residency grows while every CPU sleeps. */
TEST_F(cstate, package_idles)
{
	__u64 idle = 0, a, b;
	int fds[7], n, i;

	if (!self->pkg)
		SKIP(return, "no cstate_pkg PMU");
	n = open_all(_metadata, &pmus[1], 0, fds);
	ASSERT_LT(0, n);
	for (i = 0; i < 3 && !idle; i++) {
		a = sum_all(_metadata, fds, n);
		sleep_ms(200);
		b = sum_all(_metadata, fds, n);
		idle = b - a;
	}
	EXPECT_LT(0ULL, idle);
	close_all(fds, n);
}

/* Another CPU of @cpu's package on line, or -1. */
static int package_sibling(int cpu)
{
	char path[96];
	int id, other, i, n = sysconf(_SC_NPROCESSORS_CONF);

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 cpu);
	if (read_int_file(path, &id))
		return -1;
	for (i = 0; i < n; i++) {
		if (i == cpu)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
			 i);
		if (!read_int_file(path, &other) && other == id)
			return i;
	}
	return -1;
}

/* The event of @p's first listed state on @cpu, or -1. */
static int open_first(const struct cstate_pmu *p, int cpu)
{
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < p->nr; i++) {
		if (!have_state(p->name, p->states[i]))
			continue;
		cstate_attr(&attr, p->name, i);
		return sys_perf_event_open(&attr, -1, cpu, -1, 0);
	}
	return -1;
}

/*
 * A read of a package's residency from another CPU of the package runs
 * there: 200 reads cost the reader fewer than 100 function-call
 * interrupts, and the count and times go on.  An extension of ours: 6.1
 * reads RAPL's and the uncore's counters so, and sends the C-states'
 * reads to the reader (the test skips there).  A core's residency is its
 * core's: read from another CPU, a read is an IPI to the reader, on both
 * kernels (at least 150 of 200: a call queued while the reader handles
 * another's takes no interrupt of its own).
 */
TEST_F(cstate, read_from_the_package_sends_no_ipi)
{
	int reader, other, fd;
	struct die_reads r;
	const char *why;

	if (!self->pkg || !self->core)
		SKIP(return, "no cstate_pkg or cstate_core PMU");
	/* The first core's reader counts its events: read them elsewhere. */
	why = die_read_cpus(CORE, &reader, &other);
	if (why)
		SKIP(return, "%s", why);
	fd = open_first(&pmus[0], reader);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, die_reads(fd, reader, other, 200, &r));
	EXPECT_LE(150, r.interrupts) TH_LOG("a core's residency");
	EXPECT_EQ(0, r.backwards);
	close(fd);

	if (!ours_kernel())
		SKIP(return, "6.1 reads the package's residency on its reader");
	ASSERT_EQ(NULL, die_read_cpus(PKG, &reader, &other));
	fd = open_first(&pmus[1], reader);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, die_reads(fd, reader, other, 200, &r));
	EXPECT_GT(100, r.interrupts) TH_LOG("the package's residency");
	EXPECT_EQ(0, r.backwards);
	EXPECT_LT(0, r.last.enabled);
	EXPECT_EQ(r.last.enabled, r.last.running);
	close(fd);
}

/*
 * Taking the package's reader off line moves its events to another CPU
 * of the package: the cpumask names it, and the events keep their counts
 * and go on counting while the package idles (in whichever of its
 * states).  The reader is CPU 0 here, which goes off line only in a
 * kernel built with CONFIG_BOOTPARAM_HOTPLUG_CPU0 (as our guests are).
 */
TEST_F(cstate, reader_goes_offline)
{
	__u64 a, b, c = 0;
	char online[64];
	int fds[7], n, reader, i;

	if (!self->pkg)
		SKIP(return, "no cstate_pkg PMU");
	reader = pmu_sysfs_reader(PKG);
	ASSERT_LE(0, reader);
	cpu_online_path(reader, online, sizeof(online));
	if (package_sibling(reader) < 0 || access(online, W_OK))
		SKIP(return, "CPU %d cannot hand its package over", reader);
	n = open_all(_metadata, &pmus[1], reader, fds);
	ASSERT_LT(0, n);
	sleep_ms(50);
	a = sum_all(_metadata, fds, n);
	ASSERT_EQ(0, cpu_set_online(reader, 0));
	EXPECT_NE(reader, pmu_sysfs_reader(PKG));
	b = sum_all(_metadata, fds, n);
	for (i = 0; i < 3 && c <= b; i++) {
		sleep_ms(200);
		c = sum_all(_metadata, fds, n);
	}
	EXPECT_EQ(0, cpu_set_online(reader, 1));
	EXPECT_GE(b, a);
	EXPECT_GT(c, b) {
		TH_LOG("package residency: %llu, %llu after going off line, %llu",
		       (unsigned long long)a, (unsigned long long)b,
		       (unsigned long long)c);
	}
	close_all(fds, n);
}

TEST_HARNESS_MAIN
