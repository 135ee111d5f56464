// SPDX-License-Identifier: GPL-2.0
/*
 * The power PMU of AMD's family 15h (/sys/bus/event_source/devices/power
 * with events/power-pkg): the average power of a compute unit, from its
 * power accumulator, where CPUID Fn8000_0007 EDX[12] offers one.
 *
 * What 6.1 does, and ours must: events/power-pkg "event=0x01" in
 * mWatts, scale 1.000000e-3; format event config:0-7; CPU-wide counting
 * events of config 1 (bits above the format ignored) only: task events,
 * a CPU of -1, sampling, exclude_* bits and other configs EINVAL.  One
 * read after a while gives the average power since the event started,
 * in microwatts.  On the emulation (harness/qemu/0048) a core draws 4 W
 * while it runs and 0.25 W halted, and a compute unit is a core.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <time.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "../kselftest_harness.h"
#include "hw_emulated.h"

#define PMU	"power"

/* Whether CPUID offers the power accumulator on an AMD family 15h. */
static bool acc_power(void)
{
	unsigned int a, b, c, d;

	__cpuid(0, a, b, c, d);
	if (b != 0x68747541)	/* "Auth"enticAMD */
		return false;
	__cpuid(1, a, b, c, d);
	if (((a >> 8) & 0xf) + ((a >> 20) & 0xff) != 0x15)
		return false;
	if (__get_cpuid_max(0x80000000, NULL) < 0x80000007)
		return false;
	__cpuid(0x80000007, a, b, c, d);
	return d & (1u << 12);
}

FIXTURE(power) {
	int type;
	const char *skip;
};

FIXTURE_SETUP(power)
{
	self->type = pmu_sysfs_type(PMU);
	if (!acc_power()) {
		self->skip = "no power accumulator (AMD family 15h)";
		return;
	}
	ASSERT_LE(0, self->type);
}

FIXTURE_TEARDOWN(power)
{
}

TEST_F(power, sysfs)
{
	char buf[64];

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_EQ(0, pmu_sysfs_string(PMU, "events/power-pkg", buf,
				      sizeof(buf)));
	EXPECT_STREQ("event=0x01\n", buf);
	ASSERT_EQ(0, pmu_sysfs_string(PMU, "events/power-pkg.unit", buf,
				      sizeof(buf)));
	EXPECT_STREQ("mWatts\n", buf);
	ASSERT_EQ(0, pmu_sysfs_string(PMU, "events/power-pkg.scale", buf,
				      sizeof(buf)));
	EXPECT_STREQ("1.000000e-3\n", buf);
	ASSERT_EQ(0, pmu_sysfs_string(PMU, "format/event", buf, sizeof(buf)));
	EXPECT_STREQ("config:0-7\n", buf);
	EXPECT_LE(1, pmu_sysfs_cpus(PMU));
}

TEST_F(power, refused)
{
	struct perf_event_attr a;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	pmu_attr_init(&a, self->type, 1);
	EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, -1));
	EXPECT_CPU_COUNTER_REFUSALS(&a);
	pmu_attr_init(&a, self->type, 2);
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	pmu_attr_init(&a, self->type, 0);
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	pmu_attr_init(&a, self->type, 0x101);
	EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
}

/* The average of CPU 0's compute unit over @spin or sleep of 0.5 s. */
static __u64 average(struct __test_metadata *_metadata, int type, bool spin)
{
	struct perf_event_attr a;
	struct timespec t0, t;
	__u64 uw;
	int fd;

	ASSERT_EQ(0, pin_to_cpu(0));
	pmu_attr_init(&a, type, 1);
	fd = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, fd);
	if (spin) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do
			clock_gettime(CLOCK_MONOTONIC, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000000000L +
		       t.tv_nsec - t0.tv_nsec < 500000000L);
	} else {
		usleep(500000);
	}
	ASSERT_EQ(0, read_value(fd, &uw));
	close(fd);
	return uw;
}

/*
 * The average grows with the work: a spinning core draws more than a
 * sleeping one; on the emulation, the model's 4 W and (mostly) 0.25 W.
 */
TEST_F(power, average)
{
	__u64 idle, busy;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	idle = average(_metadata, self->type, false);
	busy = average(_metadata, self->type, true);
	EXPECT_LT(idle, busy);
	if (!hw_emulated_pmu())
		return;
	EXPECT_LE(3600000, busy);
	EXPECT_GE(4100000, busy);
	EXPECT_LE(200000, idle);
	EXPECT_GE(1500000, idle);
}

TEST_HARNESS_MAIN
