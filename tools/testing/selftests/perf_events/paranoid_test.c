// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/sys/kernel/perf_event_paranoid: what a user without capabilities
 * may open at each level.
 *
 *   -1  anything
 *    0  CPU-wide events too (raw tracepoint data aside, not tested here)
 *    1  no CPU-wide events, but counting the kernel in its own tasks
 *    2  only user-space counting of its own tasks (the default)
 *    3  nothing (Debian's addition: CONFIG_SECURITY_PERF_EVENTS_RESTRICT
 *       makes it the default)
 *
 * Physical addresses in samples (PERF_SAMPLE_PHYS_ADDR) and branch stacks
 * of the kernel or the hypervisor need what counting the kernel needs; a
 * branch stack that names no privilege level takes the event's.  That
 * check comes before the one of the period.
 *
 * The probes run in a forked child that has dropped to uid/gid 65534,
 * losing its capabilities; root may open everything at every level.  The
 * sysctl is a plain integer (proc_dointvec) without bounds, so no value
 * is refused.  Each test restores the value it found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/* The events probed, each on the caller (pid 0) or on CPU 0 (pid -1). */
enum probe {
	SELF_USER,	/* task-clock on itself, exclude_kernel */
	SELF_KERNEL,	/* task-clock on itself, kernel included */
	CPU_USER,	/* cpu-clock on CPU 0, exclude_kernel */
	CPU_KERNEL,	/* cpu-clock on CPU 0, kernel included */
	NR_PROBES
};

static const char * const probe_names[NR_PROBES] = {
	"self, exclude_kernel", "self, with kernel",
	"CPU-wide, exclude_kernel", "CPU-wide, with kernel",
};

/* Open the probe's event; 0 or the errno of the failure. */
static int probe_open(enum probe probe)
{
	struct perf_event_attr attr;
	bool cpu_wide = probe == CPU_USER || probe == CPU_KERNEL;
	int fd;

	sw_attr_init(&attr, cpu_wide ? PERF_COUNT_SW_CPU_CLOCK :
		     PERF_COUNT_SW_TASK_CLOCK);
	attr.exclude_kernel = probe == SELF_USER || probe == CPU_USER;
	fd = sys_perf_event_open(&attr, cpu_wide ? -1 : 0, cpu_wide ? 0 : -1,
				 -1, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * Run the probe in a child that first drops to uid and gid @id (if not 0).
 * Returns 0 or the errno of the open, or -1 if the child did not get to
 * the open.
 */
static int probe_as(uid_t id, enum probe probe)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (id && drop_privileges(id))
			_exit(255);
		_exit(probe_open(probe));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == 255)
		return -1;
	return WEXITSTATUS(status);
}

/*
 * What the kernel starts with: 2, or 3 with Debian's
 * CONFIG_SECURITY_PERF_EVENTS_RESTRICT, which Debian's own configuration
 * sets and the guest's (tinyconfig + perf_guest.config + perf_debug.config)
 * leaves out.
 */
TEST(default_level)
{
	int level;

	ASSERT_EQ(0, read_int_file(PARANOID, &level));
	EXPECT_EQ(paranoid_default(), level);
}

FIXTURE(paranoid) {
	int saved;
};

/* The expected errno of each probe for an unprivileged user. */
FIXTURE_VARIANT(paranoid) {
	int level;
	int err[NR_PROBES];
};

FIXTURE_VARIANT_ADD(paranoid, level_minus_1) {
	.level = -1,
	.err = { 0, 0, 0, 0 },
};

FIXTURE_VARIANT_ADD(paranoid, level_0) {
	.level = 0,
	.err = { 0, 0, 0, 0 },
};

FIXTURE_VARIANT_ADD(paranoid, level_1) {
	.level = 1,
	.err = { 0, 0, EACCES, EACCES },
};

FIXTURE_VARIANT_ADD(paranoid, level_2) {
	.level = 2,
	.err = { 0, EACCES, EACCES, EACCES },
};

FIXTURE_VARIANT_ADD(paranoid, level_3) {
	.level = 3,
	.err = { EACCES, EACCES, EACCES, EACCES },
};

/*
 * Only save the level here: the harness skips the teardown when the setup
 * fails, so the level is changed by the tests (set_level()).
 */
FIXTURE_SETUP(paranoid)
{
	ASSERT_EQ(0, read_int_file(PARANOID, &self->saved));
}

FIXTURE_TEARDOWN(paranoid)
{
	int level;

	EXPECT_EQ(0, write_int_file(PARANOID, self->saved));
	EXPECT_EQ(0, read_int_file(PARANOID, &level));
	EXPECT_EQ(self->saved, level);
}

static void set_level(struct __test_metadata *_metadata, int level)
{
	int now;

	ASSERT_EQ(0, write_int_file(PARANOID, level));
	ASSERT_EQ(0, read_int_file(PARANOID, &now));
	ASSERT_EQ(level, now);
}

TEST_F(paranoid, unprivileged)
{
	int probe;

	set_level(_metadata, variant->level);
	for (probe = 0; probe < NR_PROBES; probe++) {
		EXPECT_EQ(variant->err[probe], probe_as(NOBODY, probe)) {
			TH_LOG("level %d, %s", variant->level,
			       probe_names[probe]);
		}
	}
}

TEST_F(paranoid, root)
{
	int probe;

	set_level(_metadata, variant->level);
	for (probe = 0; probe < NR_PROBES; probe++) {
		EXPECT_EQ(0, probe_as(0, probe)) {
			TH_LOG("level %d, %s", variant->level,
			       probe_names[probe]);
		}
	}
}

/*
 * Open a cpu-clock sampler with @sample_type on itself, as nobody and
 * without counting the kernel; 0 or the errno.
 */
static int sampler_as_nobody(__u64 sample_type, __u64 branch_sample_type,
			     bool exclude_hv, __u64 period)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr_init(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = exclude_hv;
	attr.sample_period = period;
	attr.sample_type = sample_type;
	attr.branch_sample_type = branch_sample_type;
	fd = perf_event_open_helper(&attr, 0, -1, -1, 0, 5000, become_nobody);
	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
}

/* Physical addresses need what counting the kernel needs. */
TEST_F(paranoid, phys_addr)
{
	set_level(_metadata, variant->level);
	EXPECT_EQ(variant->err[SELF_KERNEL],
		  sampler_as_nobody(PERF_SAMPLE_PHYS_ADDR, 0, true, 1000000));
	/* Control: the same sampler without them. */
	EXPECT_EQ(variant->err[SELF_USER],
		  sampler_as_nobody(PERF_SAMPLE_IP, 0, true, 1000000));
}

/*
 * So do branch stacks of the kernel or the hypervisor, named or (when
 * branch_sample_type names no privilege level) implied by exclude_kernel
 * and exclude_hv.  Once allowed, the software PMU refuses branch stacks.
 */
TEST_F(paranoid, branch_stack)
{
	int kernel_err = variant->err[SELF_KERNEL] ?: EOPNOTSUPP;
	int user_err = variant->err[SELF_USER] ?: EOPNOTSUPP;
	__u64 st = PERF_SAMPLE_BRANCH_STACK, any = PERF_SAMPLE_BRANCH_ANY;

	set_level(_metadata, variant->level);
	EXPECT_EQ(kernel_err, sampler_as_nobody(st, any |
						PERF_SAMPLE_BRANCH_KERNEL,
						true, 1000000));
	EXPECT_EQ(kernel_err, sampler_as_nobody(st, any |
						PERF_SAMPLE_BRANCH_HV,
						true, 1000000));
	EXPECT_EQ(kernel_err, sampler_as_nobody(st, any, false, 1000000));
	EXPECT_EQ(user_err, sampler_as_nobody(st, any, true, 1000000));
	EXPECT_EQ(user_err, sampler_as_nobody(st, any |
					      PERF_SAMPLE_BRANCH_USER,
					      false, 1000000));
}

/* A refused privilege comes before a period with the top bit set. */
TEST_F(paranoid, privilege_before_period)
{
	struct perf_event_attr attr;
	int fd, err;

	set_level(_metadata, variant->level);
	sw_attr_init(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.disabled = 1;
	attr.sample_period = 1ULL << 63;
	fd = perf_event_open_helper(&attr, 0, -1, -1, 0, 5000, become_nobody);
	err = fd < 0 ? -fd : 0;
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(variant->err[SELF_KERNEL] ?: EINVAL, err);
}

TEST_HARNESS_MAIN
