// SPDX-License-Identifier: GPL-2.0
/*
 * read() of an event with buffers of every wrong size, for each of the 32
 * read_format combinations, on a lone event and on the leader and a
 * member of a group of three, as Linux 6.1 answers:
 *
 *  - a count below the size of the read (0, 1, 7, one byte short, one
 *    u64 short) is ENOSPC, and the buffer is left alone;
 *  - a count of the size or more returns exactly the size, writing no
 *    byte past it, even when the buffer ends right there at an unmapped
 *    page;
 *  - a buffer that cannot be written (NULL, read-only, one byte short of
 *    room before an unmapped page) is EFAULT;
 * and the other file operations: write() is EINVAL, lseek() and pread()
 * ESPIPE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

#define POISON		0xa5
#define NR_FORMATS	32	/* every combination of the 5 bits of 6.1 */
#define GROUP_SIZE	3

FIXTURE(rf) {
	long psz;
	char *page;	/* writable, right before ... */
	char *hole;	/* ... an inaccessible page */
	char *ro;	/* a read-only page */
};

FIXTURE_SETUP(rf)
{
	self->psz = getpagesize();
	self->page = mmap(NULL, 3 * self->psz, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->page);
	self->hole = self->page + self->psz;
	self->ro = self->page + 2 * self->psz;
	ASSERT_EQ(0, mprotect(self->hole, self->psz, PROT_NONE));
	ASSERT_EQ(0, mprotect(self->ro, self->psz, PROT_READ));
}

FIXTURE_TEARDOWN(rf)
{
	munmap(self->page, 3 * self->psz);
}

/* The bytes a read() of an event with @rf returns in a group of @nr. */
static size_t read_bytes(__u64 rf, size_t nr)
{
	if (rf & PERF_FORMAT_GROUP)
		return group_read_words(rf, nr) * sizeof(__u64);
	return read_format_words(rf) * sizeof(__u64);
}

static bool all_poison(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)buf[i] != POISON)
			return false;
	return true;
}

/* Every wrong size of read() on @fd, whose reads are @size bytes. */
static void check_sizes(struct __test_metadata *_metadata,
			FIXTURE_DATA(rf) *self, int fd, size_t size,
			__u64 rf)
{
	const size_t shorts[] = { 0, 1, 7, size - 1, size - 8 };
	char *buf = self->page;		/* a page of room */
	unsigned int i;

	ASSERT_GT(self->psz, size + 64);
	for (i = 0; i < ARRAY_SIZE(shorts); i++) {
		memset(buf, POISON, self->psz);
		errno = 0;
		EXPECT_EQ(-1, read(fd, buf, shorts[i]))
			TH_LOG("rf %#llx count %zu", (unsigned long long)rf,
			       shorts[i]);
		EXPECT_EQ(ENOSPC, errno);
		EXPECT_TRUE(all_poison(buf, self->psz));
	}

	/* Enough room or more: the size, nothing written after it. */
	memset(buf, POISON, self->psz);
	EXPECT_EQ(size, read(fd, buf, size)) TH_LOG("rf %#llx", rf);
	EXPECT_TRUE(all_poison(buf + size, self->psz - size));
	EXPECT_EQ(size, read(fd, buf, size + 1));
	EXPECT_TRUE(all_poison(buf + size, self->psz - size));
	EXPECT_EQ(size, read(fd, buf, 1 << 20));
	EXPECT_TRUE(all_poison(buf + size, self->psz - size));

	/* Right up to the hole, even when the count says more. */
	EXPECT_EQ(size, read(fd, self->hole - size, size));
	EXPECT_EQ(size, read(fd, self->hole - size, size + 64));

	/* Bad buffers. */
	errno = 0;
	EXPECT_EQ(-1, read(fd, self->hole - size + 1, size));
	EXPECT_EQ(EFAULT, errno) TH_LOG("rf %#llx", rf);
	errno = 0;
	EXPECT_EQ(-1, read(fd, NULL, size));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, read(fd, self->ro, size));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, read(fd, self->hole, size));
	EXPECT_EQ(EFAULT, errno);
	/* A short and bad buffer: too small comes first. */
	errno = 0;
	EXPECT_EQ(-1, read(fd, NULL, size - 1));
	EXPECT_EQ(ENOSPC, errno);
}

TEST_F(rf, single)
{
	__u64 rf;
	int fd;

	for (rf = 0; rf < NR_FORMATS; rf++) {
		fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, rf, false, 0, -1);
		ASSERT_LE(0, fd) TH_LOG("rf %#llx", (unsigned long long)rf);
		check_sizes(_metadata, self, fd, read_bytes(rf, 1), rf);
		close(fd);
	}
}

TEST_F(rf, group)
{
	int fds[GROUP_SIZE], i;
	__u64 rf;

	for (rf = 0; rf < NR_FORMATS; rf++) {
		for (i = 0; i < GROUP_SIZE; i++) {
			fds[i] = sw_event_open_group(PERF_COUNT_SW_TASK_CLOCK,
						     rf, false, 0, -1,
						     i ? fds[0] : -1);
			ASSERT_LE(0, fds[i]) TH_LOG("rf %#llx", rf);
		}
		check_sizes(_metadata, self, fds[0],
			    read_bytes(rf, GROUP_SIZE), rf);
		check_sizes(_metadata, self, fds[GROUP_SIZE - 1],
			    read_bytes(rf, GROUP_SIZE), rf);
		/* The leader gone, each member is a group of one. */
		close(fds[0]);
		check_sizes(_metadata, self, fds[1], read_bytes(rf, 1), rf);
		for (i = 1; i < GROUP_SIZE; i++)
			close(fds[i]);
	}
}

/* Members with read_formats of their own: each reads in its own. */
TEST_F(rf, mixed_group)
{
	__u64 rf_member = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			  PERF_FORMAT_LOST;
	int leader, member, single;

	leader = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, 0, -1);
	ASSERT_LE(0, leader);
	member = sw_event_open_group(PERF_COUNT_SW_TASK_CLOCK, rf_member,
				     false, 0, -1, leader);
	ASSERT_LE(0, member);
	single = sw_event_open_group(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES_ID,
				     false, 0, -1, leader);
	ASSERT_LE(0, single);
	check_sizes(_metadata, self, leader, read_bytes(0, 3), 0);
	check_sizes(_metadata, self, member, read_bytes(rf_member, 3),
		    rf_member);
	check_sizes(_metadata, self, single, read_bytes(RF_TIMES_ID, 3),
		    RF_TIMES_ID);
	close(single);
	close(member);
	close(leader);
}

TEST(other_file_operations)
{
	__u64 v = 0;
	int fd;

	fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, 0, -1);
	ASSERT_LE(0, fd);
	errno = 0;
	EXPECT_EQ(-1, write(fd, &v, sizeof(v)));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, lseek(fd, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);
	errno = 0;
	EXPECT_EQ(-1, pread(fd, &v, sizeof(v), 0));
	EXPECT_EQ(ESPIPE, errno);
	close(fd);
}

TEST_HARNESS_MAIN
