// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 msr PMU (/sys/bus/event_source/devices/msr): a dynamic type,
 * format/event "config:0-63", an events/ file per counter the CPU has,
 * the time stamp counter (event=0x00) always among them.  Its events
 * count what the counter moved on while they were active, CPU-wide or
 * for a task; they cannot sample, nor take an exclude_* bit, and a
 * config naming no counter is refused.  Errors are 6.1's.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/ioctl.h>
#include <x86intrin.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "../kselftest_harness.h"

#define MSR_DIR		PMU_SYSFS_DIR "msr/"
#define SPIN_NS		(20 * NSEC_PER_MSEC)

static int msr_type(void)
{
	int type;

	if (pmu_sysfs_read("msr", "type", &type))
		return -1;
	return type;
}

static int msr_open(__u64 config, pid_t pid, int cpu,
		    struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = msr_type();
	attr->config = config;
	attr->read_format = RF_TIMES;
	return sys_perf_event_open(attr, pid, cpu, -1, 0);
}

static int msr_open_errno(struct perf_event_attr *attr)
{
	int fd = sys_perf_event_open(attr, -1, 0, -1, 0);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

FIXTURE(msr) {
	int type;
};

FIXTURE_SETUP(msr)
{
	self->type = msr_type();
	if (self->type < 0 && access(MSR_DIR, F_OK))
		SKIP(return, "no msr PMU");
	ASSERT_EQ(0, pin_to_cpu(0));
}

FIXTURE_TEARDOWN(msr)
{
}

/* A dynamic type, the format and the tsc event in sysfs. */
TEST_F(msr, sysfs)
{
	char buf[64];

	EXPECT_GE(self->type, PERF_TYPE_MAX);
	ASSERT_EQ(0, read_small_file(MSR_DIR "format/event", buf, sizeof(buf)));
	EXPECT_STREQ("config:0-63\n", buf);
	ASSERT_EQ(0, read_small_file(MSR_DIR "events/tsc", buf, sizeof(buf)));
	EXPECT_STREQ("event=0x00\n", buf);
}

/*
 * A CPU-wide tsc event on our CPU counts at least the TSC cycles between
 * its opening and the read and no more than from before the opening to
 * after the read; enabled and running times are equal and grow.
 */
TEST_F(msr, tsc_cpu)
{
	struct perf_event_attr attr;
	struct value_times a, b;
	__u64 t0, t1, t2, t3;
	int fd;

	t0 = __rdtsc();
	fd = msr_open(0, -1, 0, &attr);
	t1 = __rdtsc();
	ASSERT_GE(fd, 0);
	spin_cpu_ns(SPIN_NS);
	t2 = __rdtsc();
	ASSERT_EQ(0, read_value_times(fd, &a));
	t3 = __rdtsc();
	EXPECT_GE(a.value, t2 - t1);
	EXPECT_LE(a.value, t3 - t0);
	EXPECT_GT(a.enabled, 0);
	EXPECT_EQ(a.enabled, a.running);

	spin_cpu_ns(SPIN_NS);
	ASSERT_EQ(0, read_value_times(fd, &b));
	EXPECT_GT(b.value, a.value);
	EXPECT_GT(b.enabled, a.enabled);
	EXPECT_EQ(b.enabled, b.running);
	close(fd);
}

/*
 * A tsc event on this task counts while it runs: no more than the TSC
 * moved on meanwhile, at least a part of it (we spin; be lenient).
 * It stops while disabled.
 */
TEST_F(msr, tsc_task)
{
	struct perf_event_attr attr;
	struct value_times a, b;
	__u64 t0, t1;
	int fd;

	t0 = __rdtsc();
	fd = msr_open(0, 0, -1, &attr);
	ASSERT_GE(fd, 0);
	spin_cpu_ns(SPIN_NS);
	ASSERT_EQ(0, read_value_times(fd, &a));
	t1 = __rdtsc();
	EXPECT_LE(a.value, t1 - t0);
	EXPECT_GE(a.value, (t1 - t0) / 4);
	EXPECT_GT(a.enabled, 0);
	EXPECT_GT(a.running, 0);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_value_times(fd, &a));
	spin_cpu_ns(SPIN_NS);
	ASSERT_EQ(0, read_value_times(fd, &b));
	EXPECT_EQ(a.value, b.value);
	EXPECT_EQ(a.enabled, b.enabled);
	close(fd);
}

/* No sampling, no exclude_* bits: EINVAL. */
TEST_F(msr, refused_modes)
{
	struct perf_event_attr attr;
	int fd;

	fd = msr_open(0, -1, 0, &attr);
	ASSERT_GE(fd, 0);
	close(fd);

	attr.sample_period = 1000;
	EXPECT_EQ(EINVAL, msr_open_errno(&attr));
	attr.freq = 1;
	attr.sample_freq = 100;
	EXPECT_EQ(EINVAL, msr_open_errno(&attr));
	attr.freq = 0;
	attr.sample_period = 0;

	attr.exclude_kernel = 1;
	EXPECT_EQ(EINVAL, msr_open_errno(&attr));
	attr.exclude_kernel = 0;
	attr.exclude_user = 1;
	EXPECT_EQ(EINVAL, msr_open_errno(&attr));
}

/* A config naming no counter of this CPU: EINVAL. */
TEST_F(msr, unknown_config)
{
	static const __u64 bad[] = { 0x40, 0x100, 1ULL << 32, ~0ULL };
	struct perf_event_attr attr;
	char path[128];
	unsigned int i;
	int fd;

	fd = msr_open(0, -1, 0, &attr);
	ASSERT_GE(fd, 0);
	close(fd);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		attr.config = bad[i];
		EXPECT_EQ(EINVAL, msr_open_errno(&attr));
	}
	/* aperf is event 0x01: openable exactly when listed. */
	attr.config = 1;
	snprintf(path, sizeof(path), MSR_DIR "events/aperf");
	EXPECT_EQ(access(path, F_OK) ? EINVAL : 0, msr_open_errno(&attr));
}

TEST_HARNESS_MAIN
