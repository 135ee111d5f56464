// SPDX-License-Identifier: GPL-2.0
/*
 * Every refusal says why: each case below makes perf_event_open(), an
 * ioctl, read(), mmap() or munmap() fail in one known way and checks
 *
 *  - the errno, which is Linux 6.1's (checked on both kernels), and
 *  - the reason the perf:perf_refused trace event records for it, read
 *    back through tracefs: a record with exactly this reason and errno,
 *    and the errno returned in the last record of the call.
 *
 * perf:perf_refused is an extension of this implementation (see
 * Documentation/trace/events-perf.rst); Linux 6.1 has no such trace event,
 * so there the reason part of each case is skipped, after the errno was
 * checked.  Cases that need something the machine may lack (the msr and
 * perf_test PMUs, the kprobe PMU, a hardware PMU) are skipped without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "tp_test_util.h"
#include "../kselftest_harness.h"

#define REFUSED		TRACEFS "/events/perf/perf_refused"
/* A case's prerequisite is missing: skip it. */
#define NOT_HERE	INT_MIN

/* Raw offsets of the 6.1 attr, to reach the reserved fields. */
#define FLAGS_OFFSET		40
#define FIRST_RESERVED_FLAG	38
#define RESERVED_2_OFFSET	110
#define RESERVED_3_OFFSET	116

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

static size_t psz(void)
{
	return getpagesize();
}

/* A counting task-clock attr that any caller may open on itself. */
static struct perf_event_attr base(void)
{
	struct perf_event_attr a;

	sw_attr_init(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

/* A result: the fd, closed, as 0; or -errno. */
static int result(int fd)
{
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int open_on(struct perf_event_attr *a, pid_t pid, int cpu,
		   int group_fd, unsigned long flags)
{
	return result(sys_perf_event_open(a, pid, cpu, group_fd, flags));
}

static int open_self(struct perf_event_attr *a)
{
	return open_on(a, 0, -1, -1, 0);
}

/* A task-clock event on this task that must open: the fd, or -1. */
static int must_open(struct perf_event_attr *a, int cpu, int group_fd)
{
	return sys_perf_event_open(a, 0, cpu, group_fd, 0);
}

/* The type of the PMU named @name, or -1. */
static int pmu_type(const char *name)
{
	char path[128];
	int type;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 name);
	return read_int_file(path, &type) ? -1 : type;
}

/* Open @a on @pid, @cpu as nobody, with perf_event_paranoid @level. */
static int open_as_nobody(struct perf_event_attr *a, pid_t pid, int cpu,
			  int level)
{
	int old, fd;

	if (read_int_file(PARANOID, &old) || write_int_file(PARANOID, level))
		return NOT_HERE;
	fd = perf_event_open_helper(a, pid, cpu, -1, 0, 5000, become_nobody);
	write_int_file(PARANOID, old);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return fd;
}

/* A descriptor number that is not open, and that no open() will take. */
static int closed_fd(void)
{
	int fd = open("/dev/null", O_RDONLY), high;

	high = fcntl(fd, F_DUPFD, 500);
	close(fd);
	close(high);
	return high;
}

/* The attr as raw bytes, for the size and reserved field cases. */
static union {
	struct perf_event_attr attr;
	unsigned char bytes[2 * 4096];
} raw;

static struct perf_event_attr *raw_attr(__u32 size)
{
	memset(&raw, 0, sizeof(raw));
	raw.attr = base();
	raw.attr.size = size;
	return &raw.attr;
}

/* --- the attribute structure --- */

static int flags_unknown(void)
{
	struct perf_event_attr a = base();

	return open_on(&a, 0, -1, -1, 1UL << 20);
}

static int attr_unreadable(void)
{
	return open_self((struct perf_event_attr *)8);
}

static int size_below_ver0(void)
{
	return open_self(raw_attr(PERF_ATTR_SIZE_VER0 - 8));
}

static int size_above_page(void)
{
	return open_self(raw_attr(2 * 4096));
}

static int size_tail_not_zero(void)
{
	struct perf_event_attr *a = raw_attr(256);

	raw.bytes[200] = 1;
	return open_self(a);
}

static int reserved_flag(void)
{
	struct perf_event_attr *a = raw_attr(sizeof(*a));
	__u64 flags;

	memcpy(&flags, raw.bytes + FLAGS_OFFSET, sizeof(flags));
	flags |= 1ULL << FIRST_RESERVED_FLAG;
	memcpy(raw.bytes + FLAGS_OFFSET, &flags, sizeof(flags));
	return open_self(a);
}

static int reserved_2(void)
{
	struct perf_event_attr *a = raw_attr(sizeof(*a));

	raw.bytes[RESERVED_2_OFFSET] = 1;
	return open_self(a);
}

static int reserved_3(void)
{
	struct perf_event_attr *a = raw_attr(sizeof(*a));

	raw.bytes[RESERVED_3_OFFSET] = 1;
	return open_self(a);
}

static int sample_type_unknown(void)
{
	struct perf_event_attr a = base();

	a.sample_type = 1ULL << 63;
	return open_self(&a);
}

static int read_format_unknown(void)
{
	struct perf_event_attr a = base();

	a.read_format = 1ULL << 63;
	return open_self(&a);
}

static int branch_unknown(void)
{
	struct perf_event_attr a = base();

	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | 1ULL << 63;
	return open_self(&a);
}

static int branch_no_type(void)
{
	struct perf_event_attr a = base();

	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_USER;
	return open_self(&a);
}

static int weight_both(void)
{
	struct perf_event_attr a = base();

	a.sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	return open_self(&a);
}

static int regs_user_mask(void)
{
	struct perf_event_attr a = base();

	a.sample_type = PERF_SAMPLE_REGS_USER;
	a.sample_regs_user = 0;
	return open_self(&a);
}

static int regs_intr_mask(void)
{
	struct perf_event_attr a = base();

	a.sample_type = PERF_SAMPLE_REGS_INTR;
	a.sample_regs_intr = 0;
	return open_self(&a);
}

static int stack_user_big(void)
{
	struct perf_event_attr a = base();

	a.sample_type = PERF_SAMPLE_STACK_USER;
	a.sample_stack_user = 65536;
	return open_self(&a);
}

static int stack_user_unaligned(void)
{
	struct perf_event_attr a = base();

	a.sample_type = PERF_SAMPLE_STACK_USER;
	a.sample_stack_user = 12;
	return open_self(&a);
}

static int inherit_thread_alone(void)
{
	struct perf_event_attr a = base();

	a.inherit_thread = 1;
	return open_self(&a);
}

static int remove_and_enable_on_exec(void)
{
	struct perf_event_attr a = base();

	a.remove_on_exec = 1;
	a.enable_on_exec = 1;
	return open_self(&a);
}

static int sigtrap_alone(void)
{
	struct perf_event_attr a = base();

	a.sigtrap = 1;
	return open_self(&a);
}

/* --- the period, the target, the group_fd --- */

static int freq_too_high(void)
{
	struct perf_event_attr a = base();

	a.freq = 1;
	a.sample_freq = 1ULL << 40;
	return open_self(&a);
}

static int period_top_bit(void)
{
	struct perf_event_attr a = base();

	a.sample_period = 1ULL << 63;
	return open_self(&a);
}

static int cgroup_pid_minus_1(void)
{
	struct perf_event_attr a = base();

	return open_on(&a, -1, 0, -1, PERF_FLAG_PID_CGROUP);
}

static int cgroup_cpu_minus_1(void)
{
	struct perf_event_attr a = base();

	return open_on(&a, 0, -1, -1, PERF_FLAG_PID_CGROUP);
}

static int cgroup_not_a_directory(void)
{
	struct perf_event_attr a = base();
	int fd = open("/dev/null", O_RDONLY), ret;

	ret = open_on(&a, fd, 0, -1, PERF_FLAG_PID_CGROUP);
	close(fd);
	return ret;
}

static int group_fd_closed(void)
{
	struct perf_event_attr a = base();

	return open_on(&a, 0, -1, closed_fd(), 0);
}

static int group_fd_not_perf(void)
{
	struct perf_event_attr a = base();
	int fd = open("/dev/null", O_RDONLY), ret;

	ret = open_on(&a, 0, -1, fd, 0);
	close(fd);
	return ret;
}

static int pid_gone(void)
{
	struct perf_event_attr a = base();
	pid_t child = fork();

	if (!child)
		_exit(0);
	waitpid(child, NULL, 0);
	return open_on(&a, child, -1, -1, 0);
}

static int cpu_out_of_range(void)
{
	struct perf_event_attr a = base();

	return open_on(&a, 0, 100000, -1, 0);
}

static int pid_and_cpu_minus_1(void)
{
	struct perf_event_attr a = base();

	return open_on(&a, -1, -1, -1, 0);
}

static int sigtrap_cpu_wide(void)
{
	struct perf_event_attr a = base();

	a.sigtrap = 1;
	a.remove_on_exec = 1;
	return open_on(&a, -1, 0, -1, 0);
}

static int inherit_sample_read(void)
{
	struct perf_event_attr a = base();

	a.inherit = 1;
	a.sample_type = PERF_SAMPLE_READ;
	return open_self(&a);
}

/* Open @a in the group of a leader made of @lead, on @cpu. */
static int open_in_group(struct perf_event_attr *lead, int lead_cpu,
			 struct perf_event_attr *a, int cpu)
{
	int leader = must_open(lead, lead_cpu, -1), ret;

	if (leader < 0)
		return NOT_HERE;
	ret = result(must_open(a, cpu, leader));
	close(leader);
	return ret;
}

static int inherit_differs(void)
{
	struct perf_event_attr lead = base(), a = base();

	lead.inherit = 1;
	return open_in_group(&lead, -1, &a, -1);
}

/* --- the PMU --- */

static int type_unknown(void)
{
	struct perf_event_attr a = base();

	a.type = 1000;
	return open_self(&a);
}

static int sw_config_unknown(void)
{
	struct perf_event_attr a = base();

	a.config = 1000;
	return open_self(&a);
}

static int sw_branch_stack(void)
{
	struct perf_event_attr a = base();

	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
			       PERF_SAMPLE_BRANCH_USER;
	return open_self(&a);
}

static int msr_sampling(void)
{
	struct perf_event_attr a = base();

	a.type = pmu_type("msr");
	if ((int)a.type < 0)
		return NOT_HERE;
	a.config = 0;
	a.sample_period = 1000;
	return open_self(&a);
}

static int msr_exclude(void)
{
	struct perf_event_attr a = base();

	a.type = pmu_type("msr");
	if ((int)a.type < 0)
		return NOT_HERE;
	a.config = 0;
	a.exclude_user = 1;
	return open_self(&a);
}

static int test_pmu_sampling(void)
{
	struct perf_event_attr a = base();

	a.type = pmu_type("perf_test");
	if ((int)a.type < 0)
		return NOT_HERE;
	a.config = 0;
	a.exclude_kernel = 0;
	a.exclude_hv = 0;
	a.sample_period = 1000;
	return open_self(&a);
}

static int extended_regs(void)
{
	struct perf_event_attr a = base();

	a.sample_type = PERF_SAMPLE_REGS_USER;
	a.sample_regs_user = 1ULL << 32 | 1;
	return open_self(&a);
}

static int aux_output(void)
{
	struct perf_event_attr a = base();

	a.aux_output = 1;
	return open_self(&a);
}

static int max_stack(void)
{
	struct perf_event_attr a = base();

	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_CALLCHAIN;
	a.sample_max_stack = 60000;
	return open_self(&a);
}

static int clockid_unknown(void)
{
	struct perf_event_attr a = base();

	a.use_clockid = 1;
	a.clockid = 1000;
	return open_self(&a);
}

static int tp_unknown_id(void)
{
	struct perf_event_attr a = base();

	a.type = PERF_TYPE_TRACEPOINT;
	a.config = 1 << 30;
	return open_self(&a);
}

/* --- the x86 hardware PMU (skipped without one) --- */

/* A counting hardware event of this task, user space only. */
static bool hw_attr(struct perf_event_attr *a, __u32 type, __u64 config)
{
	if (pmu_type("cpu") < 0)
		return false;
	*a = base();
	a->type = type;
	a->config = config;
	return true;
}

static int hw_generic_unknown(void)
{
	struct perf_event_attr a;

	if (!hw_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX))
		return NOT_HERE;
	return open_self(&a);
}

static int hw_cache_unknown(void)
{
	struct perf_event_attr a;

	if (!hw_attr(&a, PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_MAX))
		return NOT_HERE;
	return open_self(&a);
}

/*
 * Precise sampling where the PMU has none: where it has, caps/max_precise
 * says to what level, and it opens.
 */
static int hw_precise_ip(void)
{
	struct perf_event_attr a;
	int max = 0;

	read_int_file("/sys/bus/event_source/devices/cpu/caps/max_precise",
		      &max);
	/* With IBS, AMD's precise events are its (ENOENT but cycles). */
	if (!hw_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS) ||
	    max > 0 || pmu_type("ibs_op") >= 0)
		return NOT_HERE;
	a.sample_period = 100003;
	a.precise_ip = 1;
	return open_self(&a);
}

/* --- AMD's IBS (skipped without it) --- */

static bool ibs_attr(struct perf_event_attr *a, __u64 config, __u64 period)
{
	if (pmu_type("ibs_op") < 0)
		return false;
	*a = base();
	a->type = pmu_type("ibs_op");
	a->config = config;
	a->sample_period = period;
	return true;
}

/* precise_ip 3: IBS has 1 and 2. */
static int ibs_precise_3(void)
{
	struct perf_event_attr a;

	if (!ibs_attr(&a, 0, 0))
		return NOT_HERE;
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.sample_period = 100003;
	a.precise_ip = 3;
	return open_self(&a);
}

static int ibs_config_bits(void)
{
	struct perf_event_attr a;

	if (!ibs_attr(&a, 1ULL << 63, 0x10000))
		return NOT_HERE;
	return open_self(&a);
}

static int ibs_count_and_period(void)
{
	struct perf_event_attr a;

	if (!ibs_attr(&a, 0x1000, 0x10000))
		return NOT_HERE;
	return open_self(&a);
}

static int ibs_counting(void)
{
	struct perf_event_attr a;

	if (!ibs_attr(&a, 0, 0))
		return NOT_HERE;
	return open_self(&a);
}

static int hw_xmm_regs(void)
{
	struct perf_event_attr a;

	if (!hw_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS))
		return NOT_HERE;
	a.sample_period = 100003;
	a.sample_type = PERF_SAMPLE_REGS_USER;
	a.sample_regs_user = 1ULL << 32 | 1;
	return open_self(&a);
}

/*
 * Branch stacks where the PMU keeps no branch records: where it does,
 * it says how many in caps/branches, and opens them.
 */
static int hw_branch_stack(void)
{
	struct perf_event_attr a;

	if (!hw_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS) ||
	    access("/sys/bus/event_source/devices/cpu/caps/branches", F_OK) == 0)
		return NOT_HERE;
	a.sample_period = 100003;
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	return open_self(&a);
}

/* Branch-instruction events added to a group until one does not fit. */
static int hw_group_never_fits(void)
{
	struct perf_event_attr a;
	int fd[17], n, ret = 0;

	if (!hw_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS))
		return NOT_HERE;
	for (n = 0; n < 17; n++) {
		/* Members enabled: 6.1 leaves disabled ones out of the fit. */
		a.disabled = !n;
		fd[n] = must_open(&a, -1, n ? fd[0] : -1);
		if (fd[n] < 0) {
			ret = -errno;
			break;
		}
	}
	while (n--)
		close(fd[n]);
	return ret;
}

/* --- groups --- */

static int not_a_leader(void)
{
	struct perf_event_attr a = base();
	int leader = must_open(&a, -1, -1), member, ret;

	if (leader < 0)
		return NOT_HERE;
	member = must_open(&a, -1, leader);
	if (member < 0) {
		close(leader);
		return NOT_HERE;
	}
	ret = result(must_open(&a, -1, member));
	close(member);
	close(leader);
	return ret;
}

static int pinned_member(void)
{
	struct perf_event_attr lead = base(), a = base();

	a.pinned = 1;
	return open_in_group(&lead, -1, &a, -1);
}

static int exclusive_member(void)
{
	struct perf_event_attr lead = base(), a = base();

	a.exclusive = 1;
	return open_in_group(&lead, -1, &a, -1);
}

static int leader_other_cpu(void)
{
	struct perf_event_attr lead = base(), a = base();

	return open_in_group(&lead, -1, &a, 0);
}

static int leader_other_context(void)
{
	struct perf_event_attr lead = base(), a = base();
	int leader = sys_perf_event_open(&lead, -1, 0, -1, 0), ret;

	if (leader < 0)
		return NOT_HERE;
	ret = result(must_open(&a, 0, leader));
	close(leader);
	return ret;
}

static int clock_differs(void)
{
	struct perf_event_attr lead = base(), a = base();

	lead.use_clockid = 1;
	lead.clockid = CLOCK_MONOTONIC;
	return open_in_group(&lead, -1, &a, -1);
}

static int aux_sample_size(void)
{
	struct perf_event_attr a = base();

	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_AUX;
	a.aux_sample_size = 4096;
	return open_self(&a);
}

/* --- output redirection --- */

/* An event with a ring buffer of one data page: the fd, or -1. */
static int open_mapped(struct perf_event_attr *a, int cpu, void **map)
{
	int fd = must_open(a, cpu, -1);

	if (fd < 0)
		return -1;
	*map = mmap(NULL, 2 * psz(), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    0);
	if (*map == MAP_FAILED) {
		close(fd);
		return -1;
	}
	return fd;
}

static int output_to(int fd, int target)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target) ? -errno : 0;
}

static int output_self(void)
{
	struct perf_event_attr a = base();
	int fd = must_open(&a, -1, -1), ret;

	if (fd < 0)
		return NOT_HERE;
	ret = output_to(fd, fd);
	close(fd);
	return ret;
}

static int output_no_buffer(void)
{
	struct perf_event_attr a = base();
	int fd = must_open(&a, -1, -1), target = must_open(&a, -1, -1), ret;

	ret = fd < 0 || target < 0 ? NOT_HERE : output_to(fd, target);
	close(fd);
	close(target);
	return ret;
}

static int output_other_cpu(void)
{
	struct perf_event_attr a = base();
	int fd = must_open(&a, -1, -1), target = must_open(&a, 0, -1), ret;

	ret = fd < 0 || target < 0 ? NOT_HERE : output_to(fd, target);
	close(fd);
	close(target);
	return ret;
}

static int output_backward_differs(void)
{
	struct perf_event_attr a = base(), back = base();
	void *map;
	int target = open_mapped(&a, -1, &map), ret;

	if (target < 0)
		return NOT_HERE;
	back.write_backward = 1;
	ret = open_on(&back, 0, -1, target,
		      PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP);
	munmap(map, 2 * psz());
	close(target);
	return ret;
}

static int output_mapped(void)
{
	struct perf_event_attr a = base();
	void *map, *other;
	int fd = open_mapped(&a, -1, &map), target, ret = NOT_HERE;

	if (fd < 0)
		return NOT_HERE;
	target = open_mapped(&a, -1, &other);
	if (target >= 0) {
		ret = output_to(fd, target);
		munmap(other, 2 * psz());
		close(target);
	}
	munmap(map, 2 * psz());
	close(fd);
	return ret;
}

/* --- ioctls, read --- */

/* ioctl(@cmd, @arg) on a fresh event of @a: 0, -errno or NOT_HERE. */
static int ioctl_on(struct perf_event_attr *a, unsigned long cmd,
		    unsigned long arg)
{
	int fd = must_open(a, -1, -1), ret;

	if (fd < 0)
		return NOT_HERE;
	ret = ioctl(fd, cmd, arg) ? -errno : 0;
	close(fd);
	return ret;
}

static int set_output_closed(void)
{
	struct perf_event_attr a = base();

	return ioctl_on(&a, PERF_EVENT_IOC_SET_OUTPUT, closed_fd());
}

static int set_output_not_perf(void)
{
	struct perf_event_attr a = base();
	int fd = open("/dev/null", O_RDONLY), ret;

	ret = ioctl_on(&a, PERF_EVENT_IOC_SET_OUTPUT, fd);
	close(fd);
	return ret;
}

static int period_not_sampling(void)
{
	struct perf_event_attr a = base();
	__u64 period = 1000;

	return ioctl_on(&a, PERF_EVENT_IOC_PERIOD, (unsigned long)&period);
}

static int period_zero(void)
{
	struct perf_event_attr a = base();
	__u64 period = 0;

	a.sample_period = 100000;
	return ioctl_on(&a, PERF_EVENT_IOC_PERIOD, (unsigned long)&period);
}

static int period_unreadable(void)
{
	struct perf_event_attr a = base();

	a.sample_period = 100000;
	return ioctl_on(&a, PERF_EVENT_IOC_PERIOD, 8);
}

static int ioc_period_top_bit(void)
{
	struct perf_event_attr a = base();
	__u64 period = 1ULL << 63;

	a.sample_period = 100000;
	return ioctl_on(&a, PERF_EVENT_IOC_PERIOD, (unsigned long)&period);
}

static int refresh_not_sampling(void)
{
	struct perf_event_attr a = base();

	return ioctl_on(&a, PERF_EVENT_IOC_REFRESH, 1);
}

static int refresh_inherited(void)
{
	struct perf_event_attr a = base();

	a.inherit = 1;
	a.sample_period = 100000;
	return ioctl_on(&a, PERF_EVENT_IOC_REFRESH, 1);
}

static int pause_no_buffer(void)
{
	struct perf_event_attr a = base();

	return ioctl_on(&a, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
}

static int modify_not_breakpoint(void)
{
	struct perf_event_attr a = base(), b = base();

	return ioctl_on(&a, PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
			(unsigned long)&b);
}

static int modify_type_differs(void)
{
	struct perf_event_attr a = base(), b = base();

	b.type = PERF_TYPE_BREAKPOINT;
	return ioctl_on(&a, PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
			(unsigned long)&b);
}

static int filter_not_trace_event(void)
{
	struct perf_event_attr a = base();

	return ioctl_on(&a, PERF_EVENT_IOC_SET_FILTER,
			(unsigned long)"common_pid == 1");
}

static int id_unwritable(void)
{
	struct perf_event_attr a = base();

	return ioctl_on(&a, PERF_EVENT_IOC_ID, 8);
}

static int ioctl_unknown(void)
{
	struct perf_event_attr a = base();

	return ioctl_on(&a, _IO('$', 0x7f), 0);
}

static int read_too_small(void)
{
	struct perf_event_attr a = base();
	int fd, ret;
	__u64 v[2];

	a.read_format = PERF_FORMAT_ID;
	fd = must_open(&a, -1, -1);
	if (fd < 0)
		return NOT_HERE;
	ret = read(fd, v, sizeof(v[0])) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

/* --- mmap --- */

/* mmap(@pages pages, @flags, at page @pgoff) of a fresh event of @a. */
static int map_on(struct perf_event_attr *a, int cpu, size_t pages,
		  int flags, off_t pgoff)
{
	int fd = must_open(a, cpu, -1), ret = 0;
	void *p;

	if (fd < 0)
		return NOT_HERE;
	p = mmap(NULL, pages * psz(), PROT_READ | PROT_WRITE, flags, fd,
		 pgoff * psz());
	if (p == MAP_FAILED)
		ret = -errno;
	else
		munmap(p, pages * psz());
	close(fd);
	return ret;
}

static int mmap_private(void)
{
	struct perf_event_attr a = base();

	return map_on(&a, -1, 2, MAP_PRIVATE, 0);
}

static int mmap_pages(void)
{
	struct perf_event_attr a = base();

	return map_on(&a, -1, 4, MAP_SHARED, 0);
}

static int mmap_aux_no_buffer(void)
{
	struct perf_event_attr a = base();

	return map_on(&a, -1, 1, MAP_SHARED, 2);
}

static int mmap_inherit_any_cpu(void)
{
	struct perf_event_attr a = base();

	a.inherit = 1;
	return map_on(&a, -1, 2, MAP_SHARED, 0);
}

/* A second mmap() of a mapped event: its result. */
static int map_again(size_t pages, off_t pgoff)
{
	struct perf_event_attr a = base();
	void *map, *p;
	int fd = open_mapped(&a, -1, &map), ret = 0;

	if (fd < 0)
		return NOT_HERE;
	p = mmap(NULL, pages * psz(), PROT_READ, MAP_SHARED, fd,
		 pgoff * psz());
	if (p == MAP_FAILED)
		ret = -errno;
	else
		munmap(p, pages * psz());
	munmap(map, 2 * psz());
	close(fd);
	return ret;
}

static int mmap_size_differs(void)
{
	return map_again(3, 0);
}

static int mmap_aux_misplaced(void)
{
	return map_again(1, 2);
}

static int munmap_part(void)
{
	struct perf_event_attr a = base();
	int fd = must_open(&a, -1, -1), ret;
	char *p;

	if (fd < 0)
		return NOT_HERE;
	p = mmap(NULL, 3 * psz(), PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return NOT_HERE;
	}
	ret = munmap(p + 2 * psz(), psz()) ? -errno : 0;
	munmap(p, 3 * psz());
	close(fd);
	return ret;
}

/* --- breakpoints --- */

static struct perf_event_attr bp(__u32 type, __u64 addr, __u64 len)
{
	struct perf_event_attr a = base();

	a.type = PERF_TYPE_BREAKPOINT;
	a.config = 0;
	a.bp_type = type;
	a.bp_addr = addr;
	a.bp_len = len;
	return a;
}

static long watched;

static int bp_type_empty(void)
{
	struct perf_event_attr a = bp(HW_BREAKPOINT_EMPTY,
				      (unsigned long)&watched, 8);

	return open_self(&a);
}

static int bp_len_bad(void)
{
	struct perf_event_attr a = bp(HW_BREAKPOINT_W,
				      (unsigned long)&watched, 3);

	return open_self(&a);
}

/* An address in the kernel's text, aligned for any length. */
#define KERNEL_ADDR	0xffffffff81000000ULL

static int bp_kernel_excluded(void)
{
	struct perf_event_attr a = bp(HW_BREAKPOINT_W, KERNEL_ADDR, 8);

	return open_self(&a);
}

/* --- privileges, as nobody --- */

static int kernel_needs_privilege(void)
{
	struct perf_event_attr a = base();

	a.exclude_kernel = 0;
	return open_as_nobody(&a, 0, -1, 2);
}

static int cpu_wide_needs_privilege(void)
{
	struct perf_event_attr a = base();

	return open_as_nobody(&a, -1, 0, 2);
}

static int namespaces_need_privilege(void)
{
	struct perf_event_attr a = base();

	a.namespaces = 1;
	return open_as_nobody(&a, 0, -1, 2);
}

static int paranoid_3(void)
{
	struct perf_event_attr a = base();

	return open_as_nobody(&a, 0, -1, 3);
}

static int ptrace_denied(void)
{
	struct perf_event_attr a = base();

	return open_as_nobody(&a, 1, -1, 2);
}

static int phys_addr_needs_privilege(void)
{
	struct perf_event_attr a = base();

	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_PHYS_ADDR;
	return open_as_nobody(&a, 0, -1, 2);
}

static int bp_kernel_needs_privilege(void)
{
	struct perf_event_attr a = bp(HW_BREAKPOINT_W, KERNEL_ADDR, 8);

	a.exclude_kernel = 0;
	return open_as_nobody(&a, 0, -1, 1);
}

static int kprobe_needs_privilege(void)
{
	struct perf_event_attr a = base();

	a.type = pmu_type("kprobe");
	if ((int)a.type < 0)
		return NOT_HERE;
	a.config = 0;
	return open_as_nobody(&a, 0, -1, 2);
}

/* --- reading perf:perf_refused back --- */

/* The trace buffer's contents, NUL terminated, in @buf; 0 or -1. */
static int trace_read(char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd = open(TRACEFS "/trace", O_RDONLY);

	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return 0;
}

static int trace_clear(void)
{
	int fd = open(TRACEFS "/trace", O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

struct refusal {
	int	err;
	char	reason[128];
};

/*
 * The perf_refused records in @trace, in order, into @r (at most @max):
 * "... perf_refused: err=-22 value=0x100000 reason=flags: unknown bits",
 * the reason running to the end of the line.  Their number.
 */
static int refusals(const char *trace, struct refusal *r, int max)
{
	const char *p = trace, *q;
	int nr = 0;
	size_t len;

	while (nr < max && (p = strstr(p, "perf_refused: err="))) {
		p += strlen("perf_refused: ");
		if (sscanf(p, "err=%d", &r[nr].err) != 1)
			continue;
		p = strstr(p, " reason=");
		if (!p)
			break;
		p += strlen(" reason=");
		q = strchrnul(p, '\n');
		len = q - p < 127 ? q - p : 127;
		memcpy(r[nr].reason, p, len);
		r[nr].reason[len] = '\0';
		nr++;
	}
	return nr;
}

FIXTURE(refused) {
	bool traced;	/* perf:perf_refused exists and is on */
};

FIXTURE_VARIANT(refused) {
	int		(*provoke)(void);
	int		err;		/* errno, as in Linux 6.1 */
	const char	*reason;	/* what perf:perf_refused says */
};

FIXTURE_SETUP(refused)
{
	self->traced = false;
	if (tracefs_ready() || access(REFUSED "/enable", W_OK))
		return;
	ASSERT_EQ(0, write_str_file(REFUSED "/enable", "1"));
	ASSERT_EQ(0, write_str_file(TRACEFS "/tracing_on", "1"));
	ASSERT_EQ(0, trace_clear());
	self->traced = true;
}

FIXTURE_TEARDOWN(refused)
{
	if (self->traced) {
		write_str_file(REFUSED "/enable", "0");
		trace_clear();
	}
}

FIXTURE_VARIANT_ADD(refused, flags_unknown) {
	.provoke = flags_unknown,
	.err = EINVAL,
	.reason = "flags: unknown bits",
};

FIXTURE_VARIANT_ADD(refused, attr_unreadable) {
	.provoke = attr_unreadable,
	.err = EFAULT,
	.reason = "attr: not readable",
};

FIXTURE_VARIANT_ADD(refused, size_below_ver0) {
	.provoke = size_below_ver0,
	.err = E2BIG,
	.reason = "size: below PERF_ATTR_SIZE_VER0",
};

FIXTURE_VARIANT_ADD(refused, size_above_page) {
	.provoke = size_above_page,
	.err = E2BIG,
	.reason = "size: above the page size",
};

FIXTURE_VARIANT_ADD(refused, size_tail_not_zero) {
	.provoke = size_tail_not_zero,
	.err = E2BIG,
	.reason = "size: unknown fields not zero",
};

FIXTURE_VARIANT_ADD(refused, reserved_flag) {
	.provoke = reserved_flag,
	.err = EINVAL,
	.reason = "flags: bits after sigtrap set",
};

FIXTURE_VARIANT_ADD(refused, reserved_2) {
	.provoke = reserved_2,
	.err = EINVAL,
	.reason = "__reserved_2: not zero",
};

FIXTURE_VARIANT_ADD(refused, reserved_3) {
	.provoke = reserved_3,
	.err = EINVAL,
	.reason = "__reserved_3: not zero",
};

FIXTURE_VARIANT_ADD(refused, sample_type_unknown) {
	.provoke = sample_type_unknown,
	.err = EINVAL,
	.reason = "sample_type: unknown bits",
};

FIXTURE_VARIANT_ADD(refused, read_format_unknown) {
	.provoke = read_format_unknown,
	.err = EINVAL,
	.reason = "read_format: unknown bits",
};

FIXTURE_VARIANT_ADD(refused, branch_unknown) {
	.provoke = branch_unknown,
	.err = EINVAL,
	.reason = "branch_sample_type: unknown bits",
};

FIXTURE_VARIANT_ADD(refused, branch_no_type) {
	.provoke = branch_no_type,
	.err = EINVAL,
	.reason = "branch_sample_type: no branch type",
};

FIXTURE_VARIANT_ADD(refused, weight_both) {
	.provoke = weight_both,
	.err = EINVAL,
	.reason = "sample_type: WEIGHT with WEIGHT_STRUCT",
};

FIXTURE_VARIANT_ADD(refused, regs_user_mask) {
	.provoke = regs_user_mask,
	.err = EINVAL,
	.reason = "sample_regs_user: invalid mask",
};

FIXTURE_VARIANT_ADD(refused, regs_intr_mask) {
	.provoke = regs_intr_mask,
	.err = EINVAL,
	.reason = "sample_regs_intr: invalid mask",
};

FIXTURE_VARIANT_ADD(refused, stack_user_big) {
	.provoke = stack_user_big,
	.err = EINVAL,
	.reason = "sample_stack_user: above 65535",
};

FIXTURE_VARIANT_ADD(refused, stack_user_unaligned) {
	.provoke = stack_user_unaligned,
	.err = EINVAL,
	.reason = "sample_stack_user: not a multiple of 8",
};

FIXTURE_VARIANT_ADD(refused, inherit_thread_alone) {
	.provoke = inherit_thread_alone,
	.err = EINVAL,
	.reason = "inherit_thread: without inherit",
};

FIXTURE_VARIANT_ADD(refused, remove_and_enable_on_exec) {
	.provoke = remove_and_enable_on_exec,
	.err = EINVAL,
	.reason = "remove_on_exec: with enable_on_exec",
};

FIXTURE_VARIANT_ADD(refused, sigtrap_alone) {
	.provoke = sigtrap_alone,
	.err = EINVAL,
	.reason = "sigtrap: without remove_on_exec",
};

FIXTURE_VARIANT_ADD(refused, freq_too_high) {
	.provoke = freq_too_high,
	.err = EINVAL,
	.reason = "sample_freq: above perf_event_max_sample_rate",
};

FIXTURE_VARIANT_ADD(refused, period_top_bit) {
	.provoke = period_top_bit,
	.err = EINVAL,
	.reason = "sample_period: top bit set",
};

FIXTURE_VARIANT_ADD(refused, cgroup_pid_minus_1) {
	.provoke = cgroup_pid_minus_1,
	.err = EINVAL,
	.reason = "pid: -1 with PID_CGROUP",
};

FIXTURE_VARIANT_ADD(refused, cgroup_cpu_minus_1) {
	.provoke = cgroup_cpu_minus_1,
	.err = EINVAL,
	.reason = "cpu: -1 with PID_CGROUP",
};

FIXTURE_VARIANT_ADD(refused, cgroup_not_a_directory) {
	.provoke = cgroup_not_a_directory,
	.err = EBADF,
	.reason = "pid: not a cgroup directory",
};

FIXTURE_VARIANT_ADD(refused, group_fd_closed) {
	.provoke = group_fd_closed,
	.err = EBADF,
	.reason = "group_fd: not open",
};

FIXTURE_VARIANT_ADD(refused, group_fd_not_perf) {
	.provoke = group_fd_not_perf,
	.err = EBADF,
	.reason = "group_fd: not a perf event",
};

FIXTURE_VARIANT_ADD(refused, pid_gone) {
	.provoke = pid_gone,
	.err = ESRCH,
	.reason = "pid: no such task",
};

FIXTURE_VARIANT_ADD(refused, cpu_out_of_range) {
	.provoke = cpu_out_of_range,
	.err = EINVAL,
	.reason = "cpu: no such CPU",
};

FIXTURE_VARIANT_ADD(refused, pid_and_cpu_minus_1) {
	.provoke = pid_and_cpu_minus_1,
	.err = EINVAL,
	.reason = "cpu: -1 with pid -1",
};

FIXTURE_VARIANT_ADD(refused, sigtrap_cpu_wide) {
	.provoke = sigtrap_cpu_wide,
	.err = EINVAL,
	.reason = "sigtrap: on a CPU-wide event",
};

FIXTURE_VARIANT_ADD(refused, inherit_sample_read) {
	.provoke = inherit_sample_read,
	.err = EINVAL,
	.reason = "inherit: with sample_type READ",
};

FIXTURE_VARIANT_ADD(refused, inherit_differs) {
	.provoke = inherit_differs,
	.err = EINVAL,
	.reason = "inherit: differs from the leader's",
};

FIXTURE_VARIANT_ADD(refused, type_unknown) {
	.provoke = type_unknown,
	.err = ENOENT,
	.reason = "type: no such PMU",
};

FIXTURE_VARIANT_ADD(refused, sw_config_unknown) {
	.provoke = sw_config_unknown,
	.err = ENOENT,
	.reason = "config: no such event",
};

FIXTURE_VARIANT_ADD(refused, sw_branch_stack) {
	.provoke = sw_branch_stack,
	.err = EOPNOTSUPP,
	.reason = "sample_type: BRANCH_STACK of a software event",
};

FIXTURE_VARIANT_ADD(refused, msr_sampling) {
	.provoke = msr_sampling,
	.err = EINVAL,
	.reason = "pmu: event_init refused the event",
};

FIXTURE_VARIANT_ADD(refused, msr_exclude) {
	.provoke = msr_exclude,
	.err = EINVAL,
	.reason = "exclude_*: PMU cannot exclude",
};

FIXTURE_VARIANT_ADD(refused, test_pmu_sampling) {
	.provoke = test_pmu_sampling,
	.err = EOPNOTSUPP,
	.reason = "sample_period: PMU cannot sample",
};

FIXTURE_VARIANT_ADD(refused, extended_regs) {
	.provoke = extended_regs,
	.err = EOPNOTSUPP,
	.reason = "sample_regs_*: PMU has no extended registers",
};

FIXTURE_VARIANT_ADD(refused, aux_output) {
	.provoke = aux_output,
	.err = EOPNOTSUPP,
	.reason = "aux_output: no AUX leader",
};

FIXTURE_VARIANT_ADD(refused, max_stack) {
	.provoke = max_stack,
	.err = EOVERFLOW,
	.reason = "sample_max_stack: above perf_event_max_stack",
};

FIXTURE_VARIANT_ADD(refused, clockid_unknown) {
	.provoke = clockid_unknown,
	.err = EINVAL,
	.reason = "clockid: unknown clock",
};

FIXTURE_VARIANT_ADD(refused, tp_unknown_id) {
	.provoke = tp_unknown_id,
	.err = EINVAL,
	.reason = "config: no such trace event, or not for perf",
};

FIXTURE_VARIANT_ADD(refused, hw_generic_unknown) {
	.provoke = hw_generic_unknown,
	.err = EINVAL,
	.reason = "config: no such generic hardware event",
};

FIXTURE_VARIANT_ADD(refused, hw_cache_unknown) {
	.provoke = hw_cache_unknown,
	.err = EINVAL,
	.reason = "config: no such cache, op or result",
};

FIXTURE_VARIANT_ADD(refused, hw_precise_ip) {
	.provoke = hw_precise_ip,
	.err = EOPNOTSUPP,
	.reason = "precise_ip: above caps/max_precise",
};

FIXTURE_VARIANT_ADD(refused, ibs_precise_3) {
	.provoke = ibs_precise_3,
	.err = EOPNOTSUPP,
	.reason = "precise_ip: IBS takes 1 and 2",
};

FIXTURE_VARIANT_ADD(refused, ibs_config_bits) {
	.provoke = ibs_config_bits,
	.err = EINVAL,
	.reason = "config: bits IBS does not have",
};

FIXTURE_VARIANT_ADD(refused, ibs_count_and_period) {
	.provoke = ibs_count_and_period,
	.err = EINVAL,
	.reason = "config: a maximum count beside a sample period",
};

FIXTURE_VARIANT_ADD(refused, ibs_counting) {
	.provoke = ibs_counting,
	.err = EINVAL,
	.reason = "sample_period: IBS only samples",
};

FIXTURE_VARIANT_ADD(refused, hw_xmm_regs) {
	.provoke = hw_xmm_regs,
	.err = EINVAL,
	.reason = "sample_regs_user: XMM registers",
};

FIXTURE_VARIANT_ADD(refused, hw_branch_stack) {
	.provoke = hw_branch_stack,
	.err = EOPNOTSUPP,
	.reason = "sample_type: no branch records here",
};

FIXTURE_VARIANT_ADD(refused, hw_group_never_fits) {
	.provoke = hw_group_never_fits,
	.err = EINVAL,
	.reason = "group: never fits on the counters",
};

FIXTURE_VARIANT_ADD(refused, not_a_leader) {
	.provoke = not_a_leader,
	.err = EINVAL,
	.reason = "group_fd: not a group leader",
};

FIXTURE_VARIANT_ADD(refused, pinned_member) {
	.provoke = pinned_member,
	.err = EINVAL,
	.reason = "pinned: only for a group leader",
};

FIXTURE_VARIANT_ADD(refused, exclusive_member) {
	.provoke = exclusive_member,
	.err = EINVAL,
	.reason = "exclusive: only for a group leader",
};

FIXTURE_VARIANT_ADD(refused, leader_other_cpu) {
	.provoke = leader_other_cpu,
	.err = EINVAL,
	.reason = "group_fd: leader on another CPU",
};

FIXTURE_VARIANT_ADD(refused, leader_other_context) {
	.provoke = leader_other_context,
	.err = EINVAL,
	.reason = "group_fd: leader in another context",
};

FIXTURE_VARIANT_ADD(refused, clock_differs) {
	.provoke = clock_differs,
	.err = EINVAL,
	.reason = "clockid: differs from the leader's",
};

FIXTURE_VARIANT_ADD(refused, aux_sample_size) {
	.provoke = aux_sample_size,
	.err = EINVAL,
	.reason = "aux_sample_size: no AUX leader",
};

FIXTURE_VARIANT_ADD(refused, output_self) {
	.provoke = output_self,
	.err = EINVAL,
	.reason = "output: the event itself",
};

FIXTURE_VARIANT_ADD(refused, output_no_buffer) {
	.provoke = output_no_buffer,
	.err = EINVAL,
	.reason = "output: target has no buffer",
};

FIXTURE_VARIANT_ADD(refused, output_other_cpu) {
	.provoke = output_other_cpu,
	.err = EINVAL,
	.reason = "output: on another CPU",
};

FIXTURE_VARIANT_ADD(refused, output_backward_differs) {
	.provoke = output_backward_differs,
	.err = EINVAL,
	.reason = "output: write_backward differs",
};

FIXTURE_VARIANT_ADD(refused, output_mapped) {
	.provoke = output_mapped,
	.err = EINVAL,
	.reason = "output: the event is mmapped",
};

FIXTURE_VARIANT_ADD(refused, set_output_closed) {
	.provoke = set_output_closed,
	.err = EBADF,
	.reason = "IOC_SET_OUTPUT: not open",
};

FIXTURE_VARIANT_ADD(refused, set_output_not_perf) {
	.provoke = set_output_not_perf,
	.err = EBADF,
	.reason = "IOC_SET_OUTPUT: not a perf event",
};

FIXTURE_VARIANT_ADD(refused, period_not_sampling) {
	.provoke = period_not_sampling,
	.err = EINVAL,
	.reason = "IOC_PERIOD: event does not sample",
};

FIXTURE_VARIANT_ADD(refused, period_zero) {
	.provoke = period_zero,
	.err = EINVAL,
	.reason = "IOC_PERIOD: zero",
};

FIXTURE_VARIANT_ADD(refused, period_unreadable) {
	.provoke = period_unreadable,
	.err = EFAULT,
	.reason = "IOC_PERIOD: not readable",
};

FIXTURE_VARIANT_ADD(refused, ioc_period_top_bit) {
	.provoke = ioc_period_top_bit,
	.err = EINVAL,
	.reason = "IOC_PERIOD: top bit set",
};

FIXTURE_VARIANT_ADD(refused, refresh_not_sampling) {
	.provoke = refresh_not_sampling,
	.err = EINVAL,
	.reason = "IOC_REFRESH: event does not sample",
};

FIXTURE_VARIANT_ADD(refused, refresh_inherited) {
	.provoke = refresh_inherited,
	.err = EINVAL,
	.reason = "IOC_REFRESH: inherited event",
};

FIXTURE_VARIANT_ADD(refused, pause_no_buffer) {
	.provoke = pause_no_buffer,
	.err = EINVAL,
	.reason = "IOC_PAUSE_OUTPUT: no data pages",
};

FIXTURE_VARIANT_ADD(refused, modify_not_breakpoint) {
	.provoke = modify_not_breakpoint,
	.err = EOPNOTSUPP,
	.reason = "IOC_MODIFY_ATTRIBUTES: not a breakpoint",
};

FIXTURE_VARIANT_ADD(refused, modify_type_differs) {
	.provoke = modify_type_differs,
	.err = EINVAL,
	.reason = "IOC_MODIFY_ATTRIBUTES: type differs",
};

FIXTURE_VARIANT_ADD(refused, filter_not_trace_event) {
	.provoke = filter_not_trace_event,
	.err = EINVAL,
	.reason = "IOC_SET_FILTER: not a trace event",
};

FIXTURE_VARIANT_ADD(refused, id_unwritable) {
	.provoke = id_unwritable,
	.err = EFAULT,
	.reason = "IOC_ID: not writable",
};

FIXTURE_VARIANT_ADD(refused, ioctl_unknown) {
	.provoke = ioctl_unknown,
	.err = ENOTTY,
	.reason = "ioctl: unknown command",
};

FIXTURE_VARIANT_ADD(refused, read_too_small) {
	.provoke = read_too_small,
	.err = ENOSPC,
	.reason = "read: buffer too small",
};

FIXTURE_VARIANT_ADD(refused, mmap_private) {
	.provoke = mmap_private,
	.err = EINVAL,
	.reason = "mmap: not MAP_SHARED",
};

FIXTURE_VARIANT_ADD(refused, mmap_pages) {
	.provoke = mmap_pages,
	.err = EINVAL,
	.reason = "mmap: data pages not a power of 2",
};

FIXTURE_VARIANT_ADD(refused, mmap_aux_no_buffer) {
	.provoke = mmap_aux_no_buffer,
	.err = EINVAL,
	.reason = "mmap: AUX area without a buffer",
};

FIXTURE_VARIANT_ADD(refused, mmap_inherit_any_cpu) {
	.provoke = mmap_inherit_any_cpu,
	.err = EINVAL,
	.reason = "mmap: inherit with cpu -1",
};

FIXTURE_VARIANT_ADD(refused, mmap_size_differs) {
	.provoke = mmap_size_differs,
	.err = EINVAL,
	.reason = "mmap: size differs from the buffer's",
};

FIXTURE_VARIANT_ADD(refused, mmap_aux_misplaced) {
	.provoke = mmap_aux_misplaced,
	.err = EINVAL,
	.reason = "mmap: AUX area not where aux_offset says",
};

FIXTURE_VARIANT_ADD(refused, munmap_part) {
	.provoke = munmap_part,
	.err = EINVAL,
	.reason = "munmap: part of a buffer",
};

FIXTURE_VARIANT_ADD(refused, bp_type_empty) {
	.provoke = bp_type_empty,
	.err = EINVAL,
	.reason = "bp_type: empty or invalid",
};

FIXTURE_VARIANT_ADD(refused, bp_len_bad) {
	.provoke = bp_len_bad,
	.err = EINVAL,
	.reason = "bp_*: the CPU cannot watch that",
};

FIXTURE_VARIANT_ADD(refused, bp_kernel_excluded) {
	.provoke = bp_kernel_excluded,
	.err = EINVAL,
	.reason = "bp_addr: kernel, with exclude_kernel",
};

FIXTURE_VARIANT_ADD(refused, kernel_needs_privilege) {
	.provoke = kernel_needs_privilege,
	.err = EACCES,
	.reason = "exclude_kernel: 0 needs privilege",
};

FIXTURE_VARIANT_ADD(refused, cpu_wide_needs_privilege) {
	.provoke = cpu_wide_needs_privilege,
	.err = EACCES,
	.reason = "pid: -1 (CPU-wide) needs privilege",
};

FIXTURE_VARIANT_ADD(refused, namespaces_need_privilege) {
	.provoke = namespaces_need_privilege,
	.err = EACCES,
	.reason = "namespaces: needs CAP_PERFMON",
};

FIXTURE_VARIANT_ADD(refused, paranoid_3) {
	.provoke = paranoid_3,
	.err = EACCES,
	.reason = "perf_event_paranoid: 3 needs CAP_SYS_ADMIN",
};

FIXTURE_VARIANT_ADD(refused, ptrace_denied) {
	.provoke = ptrace_denied,
	.err = EACCES,
	.reason = "pid: may not ptrace the task",
};

FIXTURE_VARIANT_ADD(refused, phys_addr_needs_privilege) {
	.provoke = phys_addr_needs_privilege,
	.err = EACCES,
	.reason = "sample_type: PHYS_ADDR needs privilege",
};

FIXTURE_VARIANT_ADD(refused, bp_kernel_needs_privilege) {
	.provoke = bp_kernel_needs_privilege,
	.err = EPERM,
	.reason = "bp_addr: kernel needs CAP_SYS_ADMIN",
};

FIXTURE_VARIANT_ADD(refused, kprobe_needs_privilege) {
	.provoke = kprobe_needs_privilege,
	.err = EACCES,
	.reason = "type: kprobe needs CAP_PERFMON",
};

#define MAX_REFUSALS	16
#define TRACE_SIZE	(64 * 1024)

TEST_F(refused, says_why)
{
	static char trace[TRACE_SIZE];
	struct refusal r[MAX_REFUSALS];
	int ret, nr, i, found = -1;

	ret = variant->provoke();
	if (ret == NOT_HERE)
		SKIP(return, "what this case needs is not here");
	ASSERT_EQ(-variant->err, ret) {
		TH_LOG("wanted %s, got %s", strerror(variant->err),
		       ret ? strerror(-ret) : "success");
	}

	if (!self->traced)
		SKIP(return,
		     "no perf:perf_refused trace event: it is an extension of our implementation, Linux 6.1 has none");

	ASSERT_EQ(0, trace_read(trace, sizeof(trace)));
	nr = refusals(trace, r, MAX_REFUSALS);
	ASSERT_LT(0, nr) TH_LOG("no perf_refused record");
	for (i = 0; i < nr; i++) {
		if (!strcmp(r[i].reason, variant->reason) &&
		    r[i].err == -variant->err)
			found = i;
	}
	EXPECT_LE(0, found) {
		for (i = 0; i < nr; i++)
			TH_LOG("recorded: err=%d reason=%s", r[i].err, r[i].reason);
	}
	/* The call's last record carries the errno it returned. */
	EXPECT_EQ(-variant->err, r[nr - 1].err);
}

TEST_HARNESS_MAIN
