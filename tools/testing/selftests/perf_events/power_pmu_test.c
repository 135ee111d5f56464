// SPDX-License-Identifier: GPL-2.0
/*
 * The power PMU (/sys/bus/event_source/devices/power): RAPL's energy
 * counters.  A dynamic type, format/event "config:0-7", a cpumask with
 * one CPU per die, and for each domain the part has an events/ file
 * (energy-cores 0x01, energy-pkg 0x02, energy-ram 0x03, energy-gpu 0x04,
 * energy-psys 0x05) with a scale of 2^-32 and the unit Joules.  Events
 * are CPU-wide counting events: no task events, no sampling, no
 * exclude_* bit, no config outside the domains (EINVAL, as 6.1).  The
 * package's energy grows; its cores' grows faster while a CPU spins
 * than while all sleep; an event opened on any CPU of the die counts on
 * its reader, and goes on counting on another CPU when the reader goes
 * off line.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "../kselftest_harness.h"

#define POWER_DIR	PMU_SYSFS_DIR "power/"
#define ENERGY_CORES	1
#define ENERGY_PKG	2
/* 2^-32 J a unit of count */
#define NJ(count)	((double)(count) * 1e9 / 4294967296.0)

static int power_type(void)
{
	int type;

	if (pmu_sysfs_read("power", "type", &type))
		return -1;
	return type;
}

static void power_attr(struct perf_event_attr *attr, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = power_type();
	attr->config = config;
	attr->read_format = RF_TIMES;
}

static int power_open(__u64 config, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	power_attr(&attr, config);
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/* The first CPU the cpumask file lists, or -1. */
static int power_reader(void)
{
	return pmu_sysfs_reader("power");
}

static bool have_event(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), POWER_DIR "events/%s", name);
	return !access(path, F_OK);
}

FIXTURE(power) {
	int type;
	const char *skip;	/* why the tests cannot run here */
};

FIXTURE_SETUP(power)
{
	self->type = power_type();
	if (self->type < 0)
		self->skip = "no power PMU";
	else if (!have_event("energy-pkg"))
		self->skip = "no energy-pkg";
}

FIXTURE_TEARDOWN(power)
{
}

/* The type, format, cpumask and each event's files. */
TEST_F(power, sysfs)
{
	static const char * const names[] = {
		"energy-cores", "energy-pkg", "energy-ram", "energy-gpu",
		"energy-psys",
	};
	char buf[128], path[128], want[32];
	unsigned int i;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	EXPECT_GE(self->type, PERF_TYPE_MAX);
	ASSERT_EQ(0, read_small_file(POWER_DIR "format/event", buf,
				     sizeof(buf)));
	EXPECT_STREQ("config:0-7\n", buf);
	/* Any CPU of the die: after a CPU went off line, not always CPU 0. */
	EXPECT_LE(0, power_reader());
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!have_event(names[i]))
			continue;
		snprintf(path, sizeof(path), POWER_DIR "events/%s", names[i]);
		ASSERT_EQ(0, read_small_file(path, buf, sizeof(buf)));
		snprintf(want, sizeof(want), "event=0x%02x\n", i + 1);
		EXPECT_STREQ(want, buf);
		snprintf(path, sizeof(path), POWER_DIR "events/%s.scale",
			 names[i]);
		ASSERT_EQ(0, read_small_file(path, buf, sizeof(buf)));
		EXPECT_STREQ("2.3283064365386962890625e-10\n", buf);
		snprintf(path, sizeof(path), POWER_DIR "events/%s.unit",
			 names[i]);
		ASSERT_EQ(0, read_small_file(path, buf, sizeof(buf)));
		EXPECT_STREQ("Joules\n", buf);
	}
}

/* Task events, sampling, exclude_* bits and unknown configs: EINVAL. */
TEST_F(power, refused)
{
	static const __u64 bad[] = { 0, 6, 0x100, 1ULL << 32, ~0ULL };
	struct perf_event_attr attr;
	unsigned int i;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	power_attr(&attr, ENERGY_PKG);
	ASSERT_EQ(0, perf_open_errno(&attr, -1, 0));
	EXPECT_CPU_COUNTER_REFUSALS(&attr);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		attr.config = bad[i];
		EXPECT_EQ(EINVAL, perf_open_errno(&attr, -1, 0))
			TH_LOG("config %#llx", (unsigned long long)bad[i]);
	}
	/* A domain is openable exactly when it is listed. */
	attr.config = 3;
	EXPECT_EQ(have_event("energy-ram") ? 0 : EINVAL,
		  perf_open_errno(&attr, -1, 0));
}

/* The energy of the cores over @ms of sleep or of spinning, in nJ. */
static double cores_nj(struct __test_metadata *_metadata, int fd,
		       unsigned int ms, bool spin)
{
	struct value_times a, b;

	EXPECT_EQ(0, read_value_times(fd, &a));
	if (spin)
		spin_cpu_ns(ms * NSEC_PER_MSEC);
	else
		sleep_ms(ms);
	EXPECT_EQ(0, read_value_times(fd, &b));
	EXPECT_GT(b.enabled, a.enabled);
	EXPECT_EQ(b.enabled, b.running);
	return NJ(b.value - a.value);
}

/*
 * The package's energy grows; the cores' grows faster while this CPU
 * spins than while every CPU sleeps (by the least of three sleeps, so
 * that a busy moment of another task does not decide).
 */
TEST_F(power, energy_grows)
{
	double sleeping = 1e30, spinning, pkg;
	struct value_times v;
	int fd, i;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = power_open(ENERGY_PKG, -1, 0);
	ASSERT_GE(fd, 0);
	sleep_ms(100);
	ASSERT_EQ(0, read_value_times(fd, &v));
	pkg = NJ(v.value);
	EXPECT_GT(pkg, 0);
	close(fd);

	if (!have_event("energy-cores"))
		SKIP(return, "no energy-cores");
	fd = power_open(ENERGY_CORES, -1, 0);
	ASSERT_GE(fd, 0);
	for (i = 0; i < 3; i++) {
		double nj = cores_nj(_metadata, fd, 100, false);

		if (nj < sleeping)
			sleeping = nj;
	}
	spinning = cores_nj(_metadata, fd, 100, true);
	EXPECT_GT(spinning, 2 * sleeping) {
		TH_LOG("cores: %.0f nJ spinning 100 ms, %.0f sleeping",
		       spinning, sleeping);
	}
	close(fd);
}

/* Whichever CPU of the die it is opened on, the event counts. */
TEST_F(power, any_cpu_of_the_die)
{
	struct value_times v;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU");
	fd = power_open(ENERGY_PKG, -1, 1);
	ASSERT_GE(fd, 0);
	sleep_ms(50);
	ASSERT_EQ(0, read_value_times(fd, &v));
	EXPECT_GT(v.value, 0);
	EXPECT_GT(v.enabled, 0);
	close(fd);
}

/* Open @attr on CPU 0 in the group of @group_fd: its fd, or -errno. */
static int open_in(struct perf_event_attr *attr, int group_fd)
{
	int fd = sys_perf_event_open(attr, -1, 0, group_fd, 0);

	return fd < 0 ? -errno : fd;
}

/*
 * A group holds the power PMU's events with software ones and
 * breakpoints only (6.1 gives a PMU that counts per CPU only a context
 * of its own, which a group cannot span): with a hardware leader or
 * member, EINVAL; a software group takes a power event.
 */
TEST_F(power, groups)
{
	struct perf_event_attr pkg, hw, sw;
	int leader, fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	power_attr(&pkg, ENERGY_PKG);
	memset(&hw, 0, sizeof(hw));
	hw.size = sizeof(hw);
	hw.type = PERF_TYPE_HARDWARE;
	hw.config = PERF_COUNT_HW_INSTRUCTIONS;
	sw = hw;
	sw.type = PERF_TYPE_SOFTWARE;
	sw.config = PERF_COUNT_SW_CPU_CLOCK;

	/* A power leader: more power events and software ones, no other. */
	leader = open_in(&pkg, -1);
	ASSERT_LE(0, leader);
	fd = open_in(&pkg, leader);
	EXPECT_LE(0, fd);
	close(fd);
	fd = open_in(&sw, leader);
	EXPECT_LE(0, fd);
	close(fd);
	fd = open_in(&hw, -1);
	if (fd >= 0) {
		close(fd);
		EXPECT_EQ(-EINVAL, open_in(&hw, leader));
	}
	close(leader);

	/* A hardware leader takes no power event. */
	leader = open_in(&hw, -1);
	if (leader >= 0) {
		EXPECT_EQ(-EINVAL, open_in(&pkg, leader));
		close(leader);
	}

	/* A software group takes one, and then no hardware event. */
	leader = open_in(&sw, -1);
	ASSERT_LE(0, leader);
	fd = open_in(&pkg, leader);
	EXPECT_LE(0, fd);
	if (open_in(&hw, -1) >= 0)
		EXPECT_EQ(-EINVAL, open_in(&hw, leader));
	close(fd);
	close(leader);
}

/*
 * Read from each CPU in turn, the event on CPU 0's die: the count and
 * the times never go back, and the times go on (6.1 reads a die's
 * counter on the CPU the reading task runs on when it is of the die,
 * with that CPU's clock).
 */
TEST_F(power, read_from_each_cpu)
{
	int cpus[8], n, i, round, fd;
	struct value_times prev = {}, v;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	n = allowed_cpus(cpus, ARRAY_SIZE(cpus));
	ASSERT_LT(0, n);
	fd = power_open(ENERGY_PKG, -1, 0);
	ASSERT_GE(fd, 0);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < n; i++) {
			ASSERT_EQ(0, pin_to_cpu(cpus[i]));
			sleep_ms(5);
			ASSERT_EQ(0, read_value_times(fd, &v));
			EXPECT_LE(prev.value, v.value);
			EXPECT_LT(prev.enabled, v.enabled)
				TH_LOG("CPU %d, round %d", cpus[i], round);
			EXPECT_EQ(v.enabled, v.running);
			prev = v;
		}
	}
	EXPECT_LT(0, prev.value);
	close(fd);
}

/*
 * A read from another CPU of the die runs there: 200 reads from it of
 * an event on the reader cost the reader fewer than 100 function-call
 * interrupts (a read an IPI would be 200), and the count and times go
 * on as they do there (both kernels: PERF_EV_CAP_READ_ACTIVE_PKG).
 */
TEST_F(power, read_from_the_die_sends_no_ipi)
{
	const char *why;
	int fd, reader, other;
	struct die_reads r;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	why = die_read_cpus("power", &reader, &other);
	if (why)
		SKIP(return, "%s", why);
	fd = power_open(ENERGY_PKG, -1, reader);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, die_reads(fd, reader, other, 200, &r));
	EXPECT_GT(100, r.interrupts);
	EXPECT_EQ(0, r.backwards);
	EXPECT_LT(0, r.last.enabled);
	EXPECT_EQ(r.last.enabled, r.last.running);
	close(fd);
}

/*
 * Taking the reader off line moves its events to another CPU of the
 * die: the cpumask names it, and the event keeps its count and goes on
 * counting (an event left on the CPU that went would stand still).
 * The reader is CPU 0 here, which goes off line only in a kernel built
 * with CONFIG_BOOTPARAM_HOTPLUG_CPU0 (as our guests are).
 */
TEST_F(power, reader_goes_offline)
{
	struct value_times a, b, c;
	char online[64];
	int fd, reader;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	reader = power_reader();
	ASSERT_LE(0, reader);
	cpu_online_path(reader, online, sizeof(online));
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || access(online, W_OK))
		SKIP(return, "CPU %d cannot go off line", reader);
	fd = power_open(ENERGY_PKG, -1, reader);
	ASSERT_GE(fd, 0);
	sleep_ms(50);
	ASSERT_EQ(0, read_value_times(fd, &a));
	ASSERT_EQ(0, cpu_set_online(reader, 0));
	EXPECT_NE(reader, power_reader());
	/* Counting on the new reader: it goes on between two reads. */
	ASSERT_EQ(0, read_value_times(fd, &b));
	sleep_ms(50);
	ASSERT_EQ(0, read_value_times(fd, &c));
	EXPECT_EQ(0, cpu_set_online(reader, 1));
	EXPECT_GE(b.value, a.value);
	EXPECT_GT(c.value, b.value);
	EXPECT_GT(c.enabled, b.enabled);
	EXPECT_EQ(c.enabled, c.running);
	close(fd);
}

TEST_HARNESS_MAIN
