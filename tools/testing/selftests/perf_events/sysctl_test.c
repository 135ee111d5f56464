// SPDX-License-Identifier: GPL-2.0
/*
 * The perf sysctls in /proc/sys/kernel: their defaults and their bounds,
 * as kernel/sysctl.c of 6.1 declares them.
 *
 *   perf_event_paranoid                2 (3 with Debian's
 *                                      CONFIG_SECURITY_PERF_EVENTS_RESTRICT),
 *                                      any int
 *   perf_event_mlock_kb                512 + PAGE_SIZE / 1024, any int
 *   perf_event_max_sample_rate         100000, at least 1; not writable
 *                                      while perf_cpu_time_max_percent is
 *                                      0 or 100 (throttling off): EINVAL
 *   perf_cpu_time_max_percent          25, 0 to 100
 *   perf_event_max_stack               127, 0 to 640 * 1024
 *   perf_event_max_contexts_per_stack  8, 0 to 1000
 *
 * The default sample rate is lowered at run time when samples take too
 * long (perf_sample_event_took()), so only its range is checked.  Every
 * file is mode 0644.  Out-of-range writes fail with EINVAL and leave the
 * value alone.  While an event records callchains, the two stack limits
 * cannot change (EBUSY); an event asking for more frames than
 * perf_event_max_stack (attr.sample_max_stack) fails with EOVERFLOW.  The
 * fixture restores what it changed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/stat.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

#define SYSCTL(name)	"/proc/sys/kernel/" name

#define PARANOID	SYSCTL("perf_event_paranoid")
#define MLOCK_KB	SYSCTL("perf_event_mlock_kb")
#define SAMPLE_RATE	SYSCTL("perf_event_max_sample_rate")
#define CPU_PERCENT	SYSCTL("perf_cpu_time_max_percent")
#define MAX_STACK	SYSCTL("perf_event_max_stack")
#define MAX_CONTEXTS	SYSCTL("perf_event_max_contexts_per_stack")

#define DEFAULT_SAMPLE_RATE	100000
#define MAX_STACK_LIMIT		(640 * 1024)
#define MAX_CONTEXTS_LIMIT	1000

static const char * const files[] = {
	PARANOID, MLOCK_KB, SAMPLE_RATE, CPU_PERCENT, MAX_STACK, MAX_CONTEXTS,
};

TEST(files_and_modes)
{
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		ASSERT_EQ(0, stat(files[i], &st)) {
			TH_LOG("%s: %s", files[i], strerror(errno));
		}
		EXPECT_TRUE(S_ISREG(st.st_mode));
		EXPECT_EQ(0644, st.st_mode & 07777) {
			TH_LOG("%s", files[i]);
		}
	}
}

static int value_of(struct __test_metadata *_metadata, const char *path)
{
	int value = -1;

	EXPECT_EQ(0, read_int_file(path, &value)) {
		TH_LOG("%s: %s", path, strerror(errno));
	}
	return value;
}

TEST(defaults)
{
	int rate;

	EXPECT_EQ(paranoid_default(), value_of(_metadata, PARANOID));
	EXPECT_EQ(512 + getpagesize() / 1024, value_of(_metadata, MLOCK_KB));
	EXPECT_EQ(25, value_of(_metadata, CPU_PERCENT));
	EXPECT_EQ(127, value_of(_metadata, MAX_STACK));
	EXPECT_EQ(8, value_of(_metadata, MAX_CONTEXTS));

	rate = value_of(_metadata, SAMPLE_RATE);
	EXPECT_LE(1, rate);
	EXPECT_GE(DEFAULT_SAMPLE_RATE, rate);
}

/* The values the tests below may change, and restore (in this order). */
enum { S_MLOCK, S_RATE, S_PERCENT, S_STACK, S_CONTEXTS, NR_CHANGED };

static const char * const changed[NR_CHANGED] = {
	[S_MLOCK] = MLOCK_KB,
	[S_RATE] = SAMPLE_RATE,
	[S_PERCENT] = CPU_PERCENT,
	[S_STACK] = MAX_STACK,
	[S_CONTEXTS] = MAX_CONTEXTS,
};

FIXTURE(sysctl) {
	int saved[NR_CHANGED];
	int fd;		/* an event that uses callchains, or -1 */
};

FIXTURE_SETUP(sysctl)
{
	size_t i;

	self->fd = -1;
	for (i = 0; i < NR_CHANGED; i++)
		ASSERT_EQ(0, read_int_file(changed[i], &self->saved[i]));
}

FIXTURE_TEARDOWN(sysctl)
{
	int percent = self->saved[S_PERCENT];
	size_t i;

	/* The stack limits cannot change while it is open. */
	if (self->fd >= 0)
		close(self->fd);

	/* The sample rate is only writable while throttling is on. */
	if (percent == 0 || percent == 100)
		percent = 25;
	EXPECT_EQ(0, write_int_file(CPU_PERCENT, percent));
	for (i = 0; i < NR_CHANGED; i++) {
		int now = -1;

		EXPECT_EQ(0, write_int_file(changed[i], self->saved[i])) {
			TH_LOG("%s: %s", changed[i], strerror(errno));
		}
		EXPECT_EQ(0, read_int_file(changed[i], &now));
		EXPECT_EQ(self->saved[i], now) {
			TH_LOG("%s", changed[i]);
		}
	}
}

/* Write @value to @path: 0, or the errno of the failure. */
static int write_err(const char *path, const char *value)
{
	return write_str_file(path, value) ? errno : 0;
}

/* A write of @value fails with EINVAL, and leaves @path as it was. */
static void refused(struct __test_metadata *_metadata, const char *path,
		    const char *value)
{
	int before = value_of(_metadata, path);

	EXPECT_EQ(EINVAL, write_err(path, value)) {
		TH_LOG("%s <- %s", path, value);
	}
	EXPECT_EQ(before, value_of(_metadata, path));
}

/* A write of @value works and reads back. */
static void accepted(struct __test_metadata *_metadata, const char *path,
		     int value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d\n", value);
	EXPECT_EQ(0, write_err(path, buf)) {
		TH_LOG("%s <- %d", path, value);
	}
	EXPECT_EQ(value, value_of(_metadata, path));
}

/* @path takes 0 to @max, not -1 or @max + 1. */
static void bounded(struct __test_metadata *_metadata, const char *path,
		    int max)
{
	char buf[32];

	accepted(_metadata, path, 0);
	accepted(_metadata, path, max);
	snprintf(buf, sizeof(buf), "%d\n", max + 1);
	refused(_metadata, path, buf);
	refused(_metadata, path, "-1\n");
}

TEST_F(sysctl, max_sample_rate)
{
	accepted(_metadata, SAMPLE_RATE, 1);
	accepted(_metadata, SAMPLE_RATE, 50000);
	/* No upper bound. */
	accepted(_metadata, SAMPLE_RATE, 2 * DEFAULT_SAMPLE_RATE);
	refused(_metadata, SAMPLE_RATE, "0\n");
	refused(_metadata, SAMPLE_RATE, "-1\n");
	refused(_metadata, SAMPLE_RATE, "rate\n");
}

TEST_F(sysctl, cpu_time_max_percent)
{
	bounded(_metadata, CPU_PERCENT, 100);
	accepted(_metadata, CPU_PERCENT, 50);
}

/* Throttling off (0 or 100 percent): the sample rate cannot be changed. */
TEST_F(sysctl, sample_rate_needs_throttling)
{
	accepted(_metadata, CPU_PERCENT, 0);
	refused(_metadata, SAMPLE_RATE, "50000\n");
	accepted(_metadata, CPU_PERCENT, 100);
	refused(_metadata, SAMPLE_RATE, "50000\n");
	accepted(_metadata, CPU_PERCENT, 99);
	accepted(_metadata, SAMPLE_RATE, 50000);
	accepted(_metadata, CPU_PERCENT, 1);
	accepted(_metadata, SAMPLE_RATE, 40000);
}

TEST_F(sysctl, max_stack)
{
	bounded(_metadata, MAX_STACK, MAX_STACK_LIMIT);
}

TEST_F(sysctl, max_contexts_per_stack)
{
	bounded(_metadata, MAX_CONTEXTS, MAX_CONTEXTS_LIMIT);
}

/*
 * A sampling event (that never runs) recording callchains of at most
 * @max_stack frames (0: perf_event_max_stack).  Returns the fd, or -errno.
 */
static int callchain_event_open(__u16 max_stack)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 1;
	attr.sample_period = 1000 * NSEC_PER_MSEC;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.sample_max_stack = max_stack;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	return fd < 0 ? -errno : fd;
}

/*
 * perf_event_max_stack caps attr.sample_max_stack (EOVERFLOW above it),
 * and neither limit can change while an event uses callchains (EBUSY).
 */
TEST_F(sysctl, stack_limits_and_callchains)
{
	accepted(_metadata, MAX_STACK, 10);
	self->fd = callchain_event_open(11);
	EXPECT_EQ(-EOVERFLOW, self->fd);
	if (self->fd >= 0)
		close(self->fd);
	self->fd = callchain_event_open(10);
	ASSERT_LE(0, self->fd) {
		TH_LOG("open: %s", strerror(-self->fd));
	}

	EXPECT_EQ(EBUSY, write_err(MAX_STACK, "20\n"));
	EXPECT_EQ(10, value_of(_metadata, MAX_STACK));
	EXPECT_EQ(EBUSY, write_err(MAX_CONTEXTS, "20\n"));
	EXPECT_EQ(self->saved[S_CONTEXTS], value_of(_metadata, MAX_CONTEXTS));
	/* Out of range is still EINVAL. */
	refused(_metadata, MAX_STACK, "-1\n");

	ASSERT_EQ(0, close(self->fd));
	self->fd = callchain_event_open(0);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(EBUSY, write_err(MAX_STACK, "20\n"));
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;

	accepted(_metadata, MAX_STACK, 20);
	accepted(_metadata, MAX_CONTEXTS, 20);
}

/* A plain integer: anything goes. */
TEST_F(sysctl, mlock_kb)
{
	accepted(_metadata, MLOCK_KB, 0);
	accepted(_metadata, MLOCK_KB, 1024);
}

TEST_HARNESS_MAIN
