// SPDX-License-Identifier: GPL-2.0
/*
 * The perf ABI from a 32-bit process (built with -m32, run on the 64-bit
 * kernel through IA32 emulation): perf_event_open() with the same
 * attribute structure, read() formats, and the ioctls whose commands
 * encode the size of a pointer (4 here), which the kernel must take for
 * its own.  Skips where the kernel runs no 32-bit processes.
 */
#define _GNU_SOURCE
#include "perf_test_util.h"
#include <sys/ioctl.h>

#include "../kselftest_harness.h"

/* A 32-bit process: the pointer-carrying commands differ from 64-bit's. */
_Static_assert(sizeof(void *) == 4, "build this test with -m32");

static int open_counter(__u64 read_format)
{
	return sw_event_open(PERF_COUNT_SW_TASK_CLOCK, read_format, false, 0,
			     -1);
}

TEST(attr_and_read)
{
	struct { __u64 value, enabled, running, id; } r;
	int fd = open_counter(RF_TIMES_ID);

	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(r), read(fd, &r, sizeof(r)));
	EXPECT_LT(0, r.value);
	EXPECT_LT(0, r.enabled);
	EXPECT_EQ(r.enabled, r.running);
	EXPECT_NE(0, r.id);
	close(fd);
}

TEST(ioc_id_pointer)
{
	struct { __u64 value, id; } r;
	__u64 id = 0;
	int fd = open_counter(PERF_FORMAT_ID);

	ASSERT_LE(0, fd);
	/* _IOR('$', 7, __u64 *): size 4 in this process. */
	ASSERT_EQ(4, _IOC_SIZE(PERF_EVENT_IOC_ID));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(sizeof(r), read(fd, &r, sizeof(r)));
	EXPECT_EQ(r.id, id);
	close(fd);
}

TEST(pointer_commands_known)
{
	struct perf_event_attr attr;
	int fd = open_counter(0);

	ASSERT_LE(0, fd);
	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	/* Refused for a software event, but recognised: not ENOTTY. */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "x"));
	EXPECT_NE(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_NE(ENOTTY, errno);
	close(fd);
}

TEST(enable_disable_reset)
{
	__u64 a, b;
	int fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, true, 0, -1);

	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(a), read(fd, &a, sizeof(a)));
	EXPECT_EQ(0, a);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	spin_cpu_ns(2 * NSEC_PER_MSEC);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(a), read(fd, &a, sizeof(a)));
	EXPECT_LT(0, a);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(sizeof(b), read(fd, &b, sizeof(b)));
	EXPECT_EQ(0, b);
	close(fd);
}

TEST(mmap_user_page)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *up;
	int fd = open_counter(0);

	ASSERT_LE(0, fd);
	up = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(up != MAP_FAILED);
	EXPECT_EQ(page, up->data_offset);
	EXPECT_EQ(page, up->data_size);
	munmap(up, 2 * page);
	close(fd);
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && errno == ENOSYS) {
		printf("1..0 # SKIP no 32-bit perf_event_open here\n");
		return KSFT_SKIP;
	}
	if (fd >= 0)
		close(fd);
	return test_harness_run(argc, argv);
}
