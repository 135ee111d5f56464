// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open() argument checking: each bad input gets the errno
 * documented in perf_event_open(2), as Linux 6.1 returns it.
 *
 *  - attr.size: 0 means PERF_ATTR_SIZE_VER0; every published size is
 *    accepted and only that many bytes are read; below VER0, above the page
 *    size, or above the kernel's struct with a non-zero byte in the excess
 *    is E2BIG and the kernel writes its own struct size (128 on 6.1) back
 *    into attr.size; an all-zero excess up to the page size is accepted.
 *  - EINVAL for reserved attr bits (the flag bits after attr.sigtrap,
 *    __reserved_2, __reserved_3), unknown read_format and sample_type bits,
 *    unknown perf_event_open() flags, pid == -1 with cpu == -1, and a CPU
 *    number that cannot exist; ENODEV for a possible but offline CPU.
 *  - ENOENT for a type no PMU has and for unknown software configs.
 *  - EFAULT for an attr pointer that cannot be read.
 *  - EBADF for a group_fd that is not open or is not a perf event.
 *  - ESRCH for a pid that no longer exists.
 *  - EINVAL for attr.sigtrap on a CPU-wide event.
 *  - With more than one error, 6.1's order of the checks (order_* tests).
 * A few positive controls make sure the failures are not for other reasons.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

/*
 * Raw attr offsets of the 6.1 ABI, so the reserved fields can be poked
 * whatever names a newer header gives them.
 */
#define FLAGS_OFFSET		40	/* u64 holding disabled ... sigtrap */
#define FIRST_RESERVED_FLAG	38	/* first bit after sigtrap */
#define RESERVED_2_OFFSET	110	/* u16 after sample_max_stack */
#define RESERVED_3_OFFSET	116	/* u32 after aux_sample_size */

static_assert(offsetof(struct perf_event_attr, read_format) == 32,
	      "read_format offset");
static_assert(offsetof(struct perf_event_attr, wakeup_events) == 48,
	      "flags are the u64 before wakeup_events");
static_assert(offsetof(struct perf_event_attr, sample_max_stack) == 108,
	      "sample_max_stack offset");
static_assert(offsetof(struct perf_event_attr, aux_sample_size) == 112,
	      "aux_sample_size offset");
static_assert(offsetof(struct perf_event_attr, sig_data) == 120,
	      "sig_data offset");

/* sizeof(struct perf_event_attr) in Linux 6.1 */
#define ATTR_SIZE_6_1		PERF_ATTR_SIZE_VER7

/* An attr followed by room for oversized attr.size values. */
#define RAW_SIZE		(2 * 65536)

union raw_attr {
	struct perf_event_attr attr;
	unsigned char bytes[RAW_SIZE];
};

static union raw_attr raw;

/* A valid task-clock counting attr of @size bytes, rest of raw zeroed. */
static struct perf_event_attr *raw_init(__u32 size)
{
	memset(&raw, 0, sizeof(raw));
	raw.attr.type = PERF_TYPE_SOFTWARE;
	raw.attr.config = PERF_COUNT_SW_TASK_CLOCK;
	raw.attr.size = size;
	return &raw.attr;
}

/*
 * Try to open; return 0 on success (closing the event) or the errno.
 */
static int open_err(void *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	int fd;

	errno = 0;
	fd = sys_perf_event_open(attr, pid, cpu, group_fd, flags);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

static int open_attr_err(void *attr)
{
	return open_err(attr, 0, -1, -1, 0);
}

static bool kernel_is_6_1(void)
{
	struct utsname u;
	int major, minor;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return false;
	return major == 6 && minor == 1;
}

/*
 * Ask the kernel for its struct size: a page-sized attr with a non-zero
 * last byte is E2BIG and gets the size written back.
 */
static __u32 kernel_attr_size(void)
{
	long psz = getpagesize();
	struct perf_event_attr *attr = raw_init(psz);

	raw.bytes[psz - 1] = 1;
	if (open_attr_err(attr) != E2BIG)
		return 0;
	return attr->size;
}

TEST(size_written_back_on_e2big)
{
	__u32 ksize = kernel_attr_size();

	if (kernel_is_6_1())
		ASSERT_EQ(ATTR_SIZE_6_1, ksize);
	/* Otherwise a later published size. */
	ASSERT_LE(ATTR_SIZE_6_1, ksize);
	ASSERT_EQ(0, ksize % 8);
	ASSERT_GT(getpagesize(), ksize);
}

/* Each published size works, and bytes after attr.size are not read. */
TEST(size_published_versions)
{
	static const __u32 sizes[] = {
		PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
		PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
	};
	struct perf_event_attr *attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		attr = raw_init(sizes[i]);
		memset(raw.bytes + sizes[i], 0xff, RAW_SIZE - sizes[i]);
		EXPECT_EQ(0, open_attr_err(attr)) {
			TH_LOG("attr.size %u", sizes[i]);
		}
	}
}

/* attr.size 0 is PERF_ATTR_SIZE_VER0: the bytes after it are not read. */
TEST(size_zero_is_ver0)
{
	struct perf_event_attr *attr = raw_init(0);

	memset(raw.bytes + PERF_ATTR_SIZE_VER0, 0xff,
	       RAW_SIZE - PERF_ATTR_SIZE_VER0);
	EXPECT_EQ(0, open_attr_err(attr));
}

TEST(size_below_ver0)
{
	static const __u32 sizes[] = { 1, 4, 8, 32, PERF_ATTR_SIZE_VER0 - 1 };
	__u32 ksize = kernel_attr_size();
	struct perf_event_attr *attr;
	unsigned int i;

	ASSERT_NE(0, ksize);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		attr = raw_init(sizes[i]);
		EXPECT_EQ(E2BIG, open_attr_err(attr)) {
			TH_LOG("attr.size %u", sizes[i]);
		}
		EXPECT_EQ(ksize, attr->size);
	}
}

/* Larger than the kernel's struct: the excess must be all zero. */
TEST(size_larger_nonzero_tail)
{
	__u32 ksize = kernel_attr_size();
	long psz = getpagesize();
	struct perf_event_attr *attr;

	ASSERT_NE(0, ksize);

	/* First byte past the kernel's struct. */
	attr = raw_init(ksize + 8);
	raw.bytes[ksize] = 1;
	EXPECT_EQ(E2BIG, open_attr_err(attr));
	EXPECT_EQ(ksize, attr->size);

	/* Last byte of the excess. */
	attr = raw_init(ksize + 8);
	raw.bytes[ksize + 7] = 0x80;
	EXPECT_EQ(E2BIG, open_attr_err(attr));
	EXPECT_EQ(ksize, attr->size);

	/* Somewhere in the middle of a page-sized attr. */
	attr = raw_init(psz);
	raw.bytes[psz / 2] = 1;
	EXPECT_EQ(E2BIG, open_attr_err(attr));
	EXPECT_EQ(ksize, attr->size);
}

TEST(size_larger_zero_tail)
{
	__u32 ksize = kernel_attr_size();
	long psz = getpagesize();

	ASSERT_NE(0, ksize);
	EXPECT_EQ(0, open_attr_err(raw_init(ksize + 8)));
	EXPECT_EQ(0, open_attr_err(raw_init(ksize + 64)));
	EXPECT_EQ(0, open_attr_err(raw_init(psz)));
}

/* Above the page size is E2BIG even when the excess is zero. */
TEST(size_above_page)
{
	__u32 ksize = kernel_attr_size();
	long psz = getpagesize();
	struct perf_event_attr *attr;
	char *map;

	ASSERT_NE(0, ksize);
	attr = raw_init(psz + 8);
	EXPECT_EQ(E2BIG, open_attr_err(attr));
	EXPECT_EQ(ksize, attr->size);

	attr = raw_init(RAW_SIZE);
	EXPECT_EQ(E2BIG, open_attr_err(attr));
	EXPECT_EQ(ksize, attr->size);

	/* Rejected on the size alone: the unreadable rest is not looked at. */
	map = mmap(NULL, 2 * psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, mprotect(map + psz, psz, PROT_NONE));
	attr = (struct perf_event_attr *)map;
	memcpy(attr, raw_init(2 * psz), sizeof(*attr));
	EXPECT_EQ(E2BIG, open_attr_err(attr));
	EXPECT_EQ(ksize, attr->size);
	munmap(map, 2 * psz);
}

/*
 * An attr that ends right before an inaccessible page works if attr.size
 * stays inside the readable part, and faults if it reaches past it.
 */
TEST(size_bounds_the_read)
{
	long psz = getpagesize();
	struct perf_event_attr *attr;
	char *map;

	map = mmap(NULL, 2 * psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, mprotect(map + psz, psz, PROT_NONE));
	attr = (struct perf_event_attr *)(map + psz - PERF_ATTR_SIZE_VER0);

	memcpy(attr, raw_init(PERF_ATTR_SIZE_VER0), PERF_ATTR_SIZE_VER0);
	EXPECT_EQ(0, open_attr_err(attr));
	attr->size = 0;
	EXPECT_EQ(0, open_attr_err(attr));
	attr->size = PERF_ATTR_SIZE_VER1;
	EXPECT_EQ(EFAULT, open_attr_err(attr));
	attr->size = PERF_ATTR_SIZE_VER7;
	EXPECT_EQ(EFAULT, open_attr_err(attr));
	munmap(map, 2 * psz);
}

TEST(bad_attr_pointer)
{
	long psz = getpagesize();
	char *map;

	EXPECT_EQ(EFAULT, open_attr_err(NULL));
	EXPECT_EQ(EFAULT, open_attr_err((void *)1));

	map = mmap(NULL, psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(EFAULT, open_attr_err(map));
	ASSERT_EQ(0, munmap(map, psz));
	EXPECT_EQ(EFAULT, open_attr_err(map));
}

/* Every bit above the last flag bitfield of 6.1 is reserved. */
TEST(reserved_flag_bits)
{
	struct perf_event_attr *attr;
	__u64 flags;
	int bit;

	EXPECT_EQ(0, open_attr_err(raw_init(sizeof(*attr))));
	for (bit = FIRST_RESERVED_FLAG; bit < 64; bit++) {
		attr = raw_init(sizeof(*attr));
		flags = 1ULL << bit;
		memcpy(raw.bytes + FLAGS_OFFSET, &flags, sizeof(flags));
		EXPECT_EQ(EINVAL, open_attr_err(attr)) {
			TH_LOG("attr flag bit %d", bit);
		}
	}
}

TEST(reserved_2)
{
	static const __u16 vals[] = { 1, 0x8000 };
	struct perf_event_attr *attr;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		attr = raw_init(ATTR_SIZE_6_1);
		memcpy(raw.bytes + RESERVED_2_OFFSET, &vals[i],
		       sizeof(vals[i]));
		EXPECT_EQ(EINVAL, open_attr_err(attr)) {
			TH_LOG("__reserved_2 = %#x", vals[i]);
		}
	}
}

TEST(reserved_3)
{
	__u32 val = 0x80000000;
	struct perf_event_attr *attr;

	attr = raw_init(ATTR_SIZE_6_1);
	memcpy(raw.bytes + RESERVED_3_OFFSET, &val, sizeof(val));
	EXPECT_EQ(EINVAL, open_attr_err(attr));
}

TEST(read_format_bits)
{
	struct perf_event_attr *attr;
	int bit;

	for (bit = 5; bit < 64; bit++) {
		attr = raw_init(sizeof(*attr));
		attr->read_format = 1ULL << bit;
		EXPECT_EQ(EINVAL, open_attr_err(attr)) {
			TH_LOG("read_format bit %d", bit);
		}
	}
	/* PERF_FORMAT_LOST is 1 << 4 and valid, as are all five together. */
	attr = raw_init(sizeof(*attr));
	attr->read_format = PERF_FORMAT_LOST;
	EXPECT_EQ(0, open_attr_err(attr));
	attr = raw_init(sizeof(*attr));
	attr->read_format = RF_TIMES_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST;
	EXPECT_EQ(0, open_attr_err(attr));
}

/* 6.1 knows sample_type bits 0 to 24 (PERF_SAMPLE_CODE_PAGE_SIZE). */
TEST(sample_type_bits)
{
	struct perf_event_attr *attr;
	int bit;

	for (bit = 25; bit < 64; bit++) {
		attr = raw_init(sizeof(*attr));
		attr->sample_type = 1ULL << bit;
		EXPECT_EQ(EINVAL, open_attr_err(attr)) {
			TH_LOG("sample_type bit %d", bit);
		}
	}
}

/* PERF_FLAG_FD_NO_GROUP ... PERF_FLAG_FD_CLOEXEC are bits 0 to 3. */
TEST(open_flags)
{
	struct perf_event_attr attr;
	int bit, fd;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	for (bit = 4; bit < 64; bit++)
		EXPECT_EQ(EINVAL, open_err(&attr, 0, -1, -1, 1UL << bit)) {
			TH_LOG("flag bit %d", bit);
		}

	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

/* No PMU registers this type; dynamic types are handed out from 6 up. */
TEST(unknown_type)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, 0);
	attr.type = 0x7fff0000;
	EXPECT_EQ(ENOENT, open_attr_err(&attr));
}

TEST(unknown_software_config)
{
	static const __u64 configs[] = {
		PERF_COUNT_SW_MAX, PERF_COUNT_SW_MAX + 1, 0xffff,
		1ULL << 32, ~0ULL,
	};
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		sw_attr_init(&attr, configs[i]);
		EXPECT_EQ(ENOENT, open_attr_err(&attr)) {
			TH_LOG("config %#llx", (unsigned long long)configs[i]);
		}
	}
}

/* Positive control for the group_fd cases. */
TEST(group_fd_valid)
{
	struct perf_event_attr attr;
	int leader;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, leader);
	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	EXPECT_EQ(0, open_err(&attr, 0, -1, leader, 0));
	close(leader);
}

TEST(group_fd_not_open)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	fd = dup(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	EXPECT_EQ(EBADF, open_err(&attr, 0, -1, fd, 0));
	EXPECT_EQ(EBADF, open_err(&attr, 0, -1, 1 << 20, 0));
	EXPECT_EQ(EBADF, open_err(&attr, 0, -1, -2, 0));
}

TEST(group_fd_not_perf)
{
	struct perf_event_attr attr;
	int p[2], dir;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(EBADF, open_err(&attr, 0, -1, p[0], 0));
	EXPECT_EQ(EBADF, open_err(&attr, 0, -1, p[1], 0));
	dir = open("/", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dir);
	EXPECT_EQ(EBADF, open_err(&attr, 0, -1, dir, 0));
	close(dir);
	close(p[0]);
	close(p[1]);
}

/* The pid of a process that has exited and been reaped; -1 on error. */
static pid_t reaped_pid(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return pid;
}

TEST(pid_gone)
{
	struct perf_event_attr attr;
	pid_t pid = reaped_pid();

	ASSERT_LT(0, pid);
	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_EQ(ESRCH, open_err(&attr, pid, -1, -1, 0));
	/* Above PID_MAX_LIMIT: can never exist. */
	EXPECT_EQ(ESRCH, open_err(&attr, INT_MAX, -1, -1, 0));
}

TEST(no_pid_no_cpu)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_EQ(EINVAL, open_err(&attr, -1, -1, -1, 0));
}

/*
 * Parse a sysfs CPU list ("0-3,5") into @set; returns the highest CPU or
 * -1 on error.
 */
static int read_cpu_list(const char *path, cpu_set_t *set)
{
	char buf[4096], *s, *end;
	long a, b, last = -1;
	FILE *f;

	CPU_ZERO(set);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	for (s = strtok(buf, ",\n"); s; s = strtok(NULL, ",\n")) {
		a = strtol(s, &end, 10);
		if (end == s)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s)
				return -1;
		}
		for (; a <= b && a < CPU_SETSIZE; a++)
			CPU_SET(a, set);
		if (b > last)
			last = b;
	}
	return last;
}

/* CPU numbers from nr_cpu_ids (= last possible CPU + 1) up do not exist. */
TEST(cpu_does_not_exist)
{
	struct perf_event_attr attr;
	cpu_set_t possible;
	int nr_cpu_ids;

	nr_cpu_ids = read_cpu_list("/sys/devices/system/cpu/possible",
				   &possible) + 1;
	ASSERT_LT(0, nr_cpu_ids);

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_EQ(EINVAL, open_err(&attr, 0, nr_cpu_ids, -1, 0));
	EXPECT_EQ(EINVAL, open_err(&attr, -1, nr_cpu_ids, -1, 0));
	EXPECT_EQ(EINVAL, open_err(&attr, 0, INT_MAX, -1, 0));
	EXPECT_EQ(EINVAL, open_err(&attr, -1, INT_MAX, -1, 0));
	EXPECT_EQ(EINVAL, open_err(&attr, 0, -2, -1, 0));
	EXPECT_EQ(EINVAL, open_err(&attr, -1, -2, -1, 0));
	/* Control: the last possible CPU number itself is not rejected. */
	EXPECT_EQ(0, open_err(&attr, 0, nr_cpu_ids - 1, -1, 0));
}

/*
 * A CPU-wide event on a possible but offline CPU.  This needs a machine
 * with such a CPU (e.g. QEMU -smp 2,maxcpus=4); we do not offline one.
 */
TEST(cpu_offline)
{
	cpu_set_t possible, online;
	struct perf_event_attr attr;
	int cpu, last;

	last = read_cpu_list("/sys/devices/system/cpu/possible", &possible);
	ASSERT_LE(0, last);
	ASSERT_LE(0, read_cpu_list("/sys/devices/system/cpu/online", &online));
	for (cpu = 0; cpu <= last && cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &possible) && !CPU_ISSET(cpu, &online))
			break;
	if (cpu > last || cpu >= CPU_SETSIZE)
		SKIP(return, "no possible CPU is offline");

	sw_attr_init(&attr, PERF_COUNT_SW_CPU_CLOCK);
	EXPECT_EQ(ENODEV, open_err(&attr, -1, cpu, -1, 0)) {
		TH_LOG("offline cpu %d", cpu);
	}
}

/* attr.sigtrap is for a task's events: not for a CPU-wide one. */
TEST(sigtrap_needs_task)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.sample_period = 1000000;
	attr.disabled = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	EXPECT_EQ(EINVAL, open_err(&attr, -1, 0, -1, 0));
	/* Control: the same on the caller. */
	EXPECT_EQ(0, open_err(&attr, 0, -1, -1, 0));
}

/*
 * When more than one thing is wrong, the errno says which was checked
 * first; user space sees the order, and it is 6.1's.  The target (CPU
 * number, pid -1 with cpu -1, the inherit flags of a task's group,
 * inherit with PERF_SAMPLE_READ) comes before the PMU looks at the event.
 */
TEST(order_target_before_pmu)
{
	struct perf_event_attr attr;
	int leader;

	sw_attr_init(&attr, 0);
	attr.type = 0x7fff0000;
	EXPECT_EQ(EINVAL, open_err(&attr, 0, INT_MAX, -1, 0));
	EXPECT_EQ(EINVAL, open_err(&attr, -1, -1, -1, 0));
	attr.inherit = 1;
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_READ;
	EXPECT_EQ(EINVAL, open_err(&attr, 0, -1, -1, 0));

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, leader);
	sw_attr_init(&attr, 0);
	attr.type = 0x7fff0000;
	EXPECT_EQ(EINVAL, open_err(&attr, 0, -1, leader, 0));
	/* Control: the unknown type alone. */
	attr.inherit = 1;
	EXPECT_EQ(ENOENT, open_err(&attr, 0, -1, leader, 0));
	close(leader);
}

/* ... but after the group_fd and the pid. */
TEST(order_group_and_pid_first)
{
	struct perf_event_attr attr;
	pid_t pid = reaped_pid();
	int fd;

	ASSERT_LT(0, pid);
	fd = dup(0);
	ASSERT_LE(0, fd);
	close(fd);

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_READ;
	EXPECT_EQ(ESRCH, open_err(&attr, pid, -1, -1, 0));
	EXPECT_EQ(EBADF, open_err(&attr, 0, -1, fd, 0));
	EXPECT_EQ(EBADF, open_err(&attr, 0, INT_MAX, fd, 0));
}

/*
 * The clock is checked after the PMU has taken the event and after its
 * call chain buffers, which come after attr.aux_output.
 */
TEST(order_clock_last)
{
	struct perf_event_attr attr;
	pid_t pid = reaped_pid();
	int max_stack;

	ASSERT_EQ(0, read_int_file("/proc/sys/kernel/perf_event_max_stack",
				   &max_stack));
	ASSERT_LT(0, pid);

	sw_attr_init(&attr, PERF_COUNT_SW_MAX);
	attr.use_clockid = 1;
	attr.clockid = CLOCK_THREAD_CPUTIME_ID;
	EXPECT_EQ(ENOENT, open_attr_err(&attr));
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	EXPECT_EQ(ESRCH, open_err(&attr, pid, -1, -1, 0));
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	attr.sample_max_stack = max_stack + 1;
	EXPECT_EQ(EOVERFLOW, open_attr_err(&attr));
	/* Control: the clock alone. */
	attr.sample_max_stack = 0;
	EXPECT_EQ(EINVAL, open_attr_err(&attr));

	/* No PMU here writes to an AUX area: before the call chains. */
	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.aux_output = 1;
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	attr.sample_max_stack = max_stack + 1;
	EXPECT_EQ(EOPNOTSUPP, open_attr_err(&attr));
	EXPECT_EQ(EINVAL, open_err(&attr, 0, INT_MAX, -1, 0));
}

/* The software PMU refuses a branch stack before it looks at the config. */
TEST(order_software_branch_stack)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, PERF_COUNT_SW_MAX);
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	EXPECT_EQ(EOPNOTSUPP, open_attr_err(&attr));
}

/* A failed open gives back the descriptor it reserved. */
TEST(failed_open_keeps_no_fd)
{
	struct perf_event_attr attr;
	int before, after;

	before = dup(0);
	ASSERT_LE(0, before);
	close(before);

	sw_attr_init(&attr, PERF_COUNT_SW_MAX);
	EXPECT_EQ(ENOENT, open_attr_err(&attr));
	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_EQ(EINVAL, open_err(&attr, -1, -1, -1, 0));
	EXPECT_EQ(EBADF, open_err(&attr, 0, -1, before, 0));
	EXPECT_EQ(EINVAL, open_err(&attr, 0, -1, -1, 1UL << 10));

	after = dup(0);
	EXPECT_EQ(before, after);
	close(after);
}

TEST_HARNESS_MAIN
