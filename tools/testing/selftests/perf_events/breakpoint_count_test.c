// SPDX-License-Identifier: GPL-2.0
/*
 * Breakpoint events count hits.
 *
 *  - HW_BREAKPOINT_W counts the writes to the watched bytes, not the
 *    reads; HW_BREAKPOINT_RW counts both; HW_BREAKPOINT_X counts the
 *    times the watched instruction runs;
 *  - bp_len bytes are watched from bp_addr, no more;
 *  - exclude_user and exclude_kernel choose whose accesses count: the
 *    kernel writing to a watched user address (read(2) into it) counts
 *    only with exclude_kernel clear;
 *  - a per-task breakpoint counts its task's accesses, a CPU-wide one
 *    the accesses made on its CPU; inherited copies count in the
 *    children and add up in the parent;
 *  - PERF_EVENT_IOC_DISABLE/ENABLE stop and restart counting;
 *  - PERF_EVENT_IOC_MODIFY_ATTRIBUTES moves a breakpoint, or changes its
 *    type, length or attr.disabled, without closing it (and its inherited
 *    copies with it); any other change of the attributes is EINVAL, as
 *    is a setting open would refuse, and leaves the breakpoint as it was;
 *    events of other types cannot be modified (EOPNOTSUPP).
 */
#define _GNU_SOURCE
#include "perf_test_util.h"
#include "breakpoint.h"
#include "../kselftest_harness.h"

static struct bp_word words[3];

TEST(write_hits)
{
	int fd = bp_open(&words[0], 8, HW_BREAKPOINT_W, 0, -1);

	ASSERT_LE(0, fd);
	bp_write(&words[0], 10);
	bp_read(&words[0], 5);
	bp_write(&words[1], 5);
	EXPECT_EQ(10, bp_count(fd));
	close(fd);
}

TEST(read_write_hits)
{
	int fd = bp_open(&words[0], 8, HW_BREAKPOINT_RW, 0, -1);

	ASSERT_LE(0, fd);
	bp_write(&words[0], 6);
	bp_read(&words[0], 4);
	bp_read(&words[1], 4);
	EXPECT_EQ(10, bp_count(fd));
	close(fd);
}

TEST(execute_hits)
{
	int fd = bp_open(bp_code, sizeof(long), HW_BREAKPOINT_X, 0, -1);

	ASSERT_LE(0, fd);
	bp_run(7);
	EXPECT_EQ(7, bp_count(fd));
	/* Reading the code is not running it. */
	EXPECT_NE(0, __atomic_load_n((unsigned char *)bp_code,
				     __ATOMIC_RELAXED));
	EXPECT_EQ(7, bp_count(fd));
	close(fd);
}

/*
 * Only the bp_len bytes at bp_addr are watched.  (One access at a time
 * to one breakpoint's bytes: QEMU's emulated CPU reports only one of the
 * debug registers an access matches.)
 */
TEST(lengths)
{
	char *b = (char *)&words[0].v;
	int fd1, fd2, fd4;

	fd1 = bp_open(b + 1, 1, HW_BREAKPOINT_W, 0, -1);
	fd2 = bp_open(b + 2, 2, HW_BREAKPOINT_W, 0, -1);
	fd4 = bp_open(b + 4, 4, HW_BREAKPOINT_W, 0, -1);
	ASSERT_LE(0, fd1);
	ASSERT_LE(0, fd2);
	ASSERT_LE(0, fd4);

	bp_write8(b);		/* none */
	bp_write8(b + 1);	/* fd1 */
	bp_write8(b + 2);	/* fd2 */
	bp_write8(b + 3);	/* fd2 */
	bp_write8(b + 4);	/* fd4 */
	bp_write8(b + 7);	/* fd4 */
	bp_write16(b + 6);	/* fd4 */
	bp_write8(b + 8);	/* none */
	EXPECT_EQ(1, bp_count(fd1));
	EXPECT_EQ(2, bp_count(fd2));
	EXPECT_EQ(3, bp_count(fd4));
	close(fd1);
	close(fd2);
	close(fd4);
}

/* Write into @word from the kernel: read(2) from a pipe. */
static int kernel_write(struct bp_word *word)
{
	__u64 value = 42;
	int p[2], ret = -1;

	if (pipe(p))
		return -1;
	if (write(p[1], &value, sizeof(value)) == sizeof(value) &&
	    read(p[0], (void *)&word->v, sizeof(value)) == sizeof(value))
		ret = 0;
	close(p[0]);
	close(p[1]);
	return ret;
}

/* Open a write breakpoint on words[2] with the exclude bits given. */
static int open_excluding(bool user, bool kernel)
{
	struct perf_event_attr attr;

	bp_attr_init(&attr, &words[2], 8, HW_BREAKPOINT_W);
	attr.exclude_user = user;
	attr.exclude_kernel = kernel;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

TEST(exclude)
{
	int fd;

	/* User space only; the kernel's copy may write more than once. */
	fd = open_excluding(false, true);
	ASSERT_LE(0, fd);
	bp_write(&words[2], 3);
	ASSERT_EQ(0, kernel_write(&words[2]));
	EXPECT_EQ(42, words[2].v);
	EXPECT_EQ(3, bp_count(fd));
	close(fd);

	/* Both. */
	fd = open_excluding(false, false);
	ASSERT_LE(0, fd);
	bp_write(&words[2], 3);
	ASSERT_EQ(0, kernel_write(&words[2]));
	EXPECT_LE(4, bp_count(fd));
	close(fd);

	/* The kernel only. */
	fd = open_excluding(true, false);
	ASSERT_LE(0, fd);
	bp_write(&words[2], 3);
	EXPECT_EQ(0, bp_count(fd));
	ASSERT_EQ(0, kernel_write(&words[2]));
	EXPECT_LE(1, bp_count(fd));
	close(fd);
}

TEST(enable_disable)
{
	struct perf_event_attr attr;
	int fd;

	bp_attr_init(&attr, &words[0], 8, HW_BREAKPOINT_W);
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	bp_write(&words[0], 2);
	EXPECT_EQ(0, bp_count(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	bp_write(&words[0], 3);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	bp_write(&words[0], 4);
	EXPECT_EQ(3, bp_count(fd));
	close(fd);
}

/* A task's breakpoint counts that task only. */
TEST(other_task)
{
	struct gated_child child;
	int fd, status;

	ASSERT_LE(0, fork_gated(&child, NULL));
	if (child.pid == 0) {
		bp_write(&words[0], 5);
		_exit(0);
	}
	fd = bp_open(&words[0], 8, HW_BREAKPOINT_W, child.pid, -1);
	ASSERT_LE(0, fd);
	bp_write(&words[0], 2);
	ASSERT_EQ(0, gate_release(&child));
	status = gated_wait(&child);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(5, bp_count(fd));
	close(fd);
}

/* A CPU-wide breakpoint counts what runs on its CPU. */
TEST(cpu_wide)
{
	int cpus[2], nr, here, there = -1;
	char *page;

	nr = allowed_cpus(cpus, 2);
	ASSERT_LE(1, nr);
	/* A fresh page: nothing else in the system uses this address. */
	page = map_fresh_pages(1);
	ASSERT_NE(NULL, page);
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));

	here = bp_open(page, 8, HW_BREAKPOINT_W, -1, cpus[0]);
	ASSERT_LE(0, here);
	if (nr > 1) {
		there = bp_open(page, 8, HW_BREAKPOINT_W, -1, cpus[1]);
		ASSERT_LE(0, there);
	}
	bp_write((struct bp_word *)page, 4);
	EXPECT_EQ(4, bp_count(here));
	if (there >= 0) {
		EXPECT_EQ(0, bp_count(there));
		close(there);
	}
	close(here);
	munmap(page, getpagesize());
}

/* Inherited copies count in the children; the parent reads the sum. */
TEST(inherit)
{
	struct perf_event_attr attr;
	int fd, i, status;
	pid_t pid;

	bp_attr_init(&attr, &words[1], 8, HW_BREAKPOINT_W);
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	for (i = 1; i <= 3; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			bp_write(&words[1], i);
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	bp_write(&words[1], 4);
	EXPECT_EQ(1 + 2 + 3 + 4, bp_count(fd));
	close(fd);
}

static int modify(int fd, struct perf_event_attr *attr)
{
	return ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, attr) ? errno : 0;
}

/* A watchpoint moves without being closed; its count goes on. */
TEST(modify_moves)
{
	struct perf_event_attr attr;
	int fd;

	bp_attr_init(&attr, &words[0], 8, HW_BREAKPOINT_W);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	bp_write(&words[0], 3);
	EXPECT_EQ(3, bp_count(fd));

	attr.bp_addr = (unsigned long)&words[1];
	ASSERT_EQ(0, modify(fd, &attr));
	bp_write(&words[0], 2);
	bp_write(&words[1], 4);
	EXPECT_EQ(7, bp_count(fd));

	/* Now reads too, and only the first byte. */
	attr.bp_type = HW_BREAKPOINT_RW;
	attr.bp_len = 1;
	ASSERT_EQ(0, modify(fd, &attr));
	bp_read(&words[1], 2);
	bp_write8((char *)&words[1].v + 1);
	EXPECT_EQ(9, bp_count(fd));

	/* An execute breakpoint now. */
	attr.bp_addr = (unsigned long)bp_code;
	attr.bp_type = HW_BREAKPOINT_X;
	attr.bp_len = sizeof(long);
	ASSERT_EQ(0, modify(fd, &attr));
	bp_run(3);
	bp_write(&words[1], 1);
	EXPECT_EQ(12, bp_count(fd));
	close(fd);
}

/* attr.disabled of the new attributes decides whether it counts. */
TEST(modify_disabled)
{
	struct perf_event_attr attr;
	int fd;

	bp_attr_init(&attr, &words[0], 8, HW_BREAKPOINT_W);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);

	attr.disabled = 1;
	ASSERT_EQ(0, modify(fd, &attr));
	bp_write(&words[0], 3);
	EXPECT_EQ(0, bp_count(fd));

	attr.disabled = 0;
	ASSERT_EQ(0, modify(fd, &attr));
	bp_write(&words[0], 2);
	EXPECT_EQ(2, bp_count(fd));

	/* Disabled by ioctl: a modification with disabled clear enables. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	bp_write(&words[0], 1);
	EXPECT_EQ(2, bp_count(fd));
	ASSERT_EQ(0, modify(fd, &attr));
	bp_write(&words[0], 1);
	EXPECT_EQ(3, bp_count(fd));
	close(fd);
}

/* The inherited copies move with the event user space opened. */
TEST(modify_inherited)
{
	struct perf_event_attr attr;
	struct gated_child child;
	int fd, status;

	bp_attr_init(&attr, &words[0], 8, HW_BREAKPOINT_W);
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);

	ASSERT_LE(0, fork_gated(&child, NULL));
	if (child.pid == 0) {
		bp_write(&words[0], 5);
		bp_write(&words[1], 2);
		_exit(0);
	}
	attr.bp_addr = (unsigned long)&words[1];
	ASSERT_EQ(0, modify(fd, &attr));
	ASSERT_EQ(0, gate_release(&child));
	status = gated_wait(&child);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(2, bp_count(fd));
	close(fd);
}

/* Refused modifications leave the breakpoint as it was. */
TEST(modify_errors)
{
	struct perf_event_attr attr, bad;
	int fd, sw;

	bp_attr_init(&attr, &words[0], 8, HW_BREAKPOINT_W);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);

	bad = attr;
	bad.bp_addr = (unsigned long)&words[1];
	bad.exclude_user = 1;
	EXPECT_EQ(EINVAL, modify(fd, &bad));
	bad = attr;
	bad.bp_addr = (unsigned long)&words[1];
	bad.sample_period = 1;
	EXPECT_EQ(EINVAL, modify(fd, &bad));
	bad = attr;
	bad.type = PERF_TYPE_SOFTWARE;
	EXPECT_EQ(EINVAL, modify(fd, &bad));
	bad = attr;
	bad.bp_addr = (unsigned long)&words[1];
	bad.bp_len = 3;
	EXPECT_EQ(EINVAL, modify(fd, &bad));
	bad.bp_len = 8;
	bad.bp_type = HW_BREAKPOINT_R;
	EXPECT_EQ(EINVAL, modify(fd, &bad));
	bad.bp_type = HW_BREAKPOINT_EMPTY;
	EXPECT_EQ(EINVAL, modify(fd, &bad));
	bad.bp_type = HW_BREAKPOINT_W;
	bad.bp_addr = (unsigned long)&words[1] + 4;
	EXPECT_EQ(EINVAL, modify(fd, &bad));
	bad.bp_addr = KERNEL_ADDR;
	EXPECT_EQ(EINVAL, modify(fd, &bad));
	bad = attr;
	bad.size = getpagesize() + 8;
	EXPECT_EQ(E2BIG, modify(fd, &bad));

	/* Still watching words[0] for writes, still enabled. */
	bp_write(&words[1], 2);
	bp_write(&words[0], 3);
	EXPECT_EQ(3, bp_count(fd));

	/* Only breakpoints can be modified. */
	sw = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, 0, -1);
	ASSERT_LE(0, sw);
	sw_attr_init(&bad, PERF_COUNT_SW_PAGE_FAULTS);
	EXPECT_EQ(EOPNOTSUPP, modify(sw, &bad));
	EXPECT_EQ(EINVAL, modify(sw, &attr));
	close(sw);
	close(fd);
}

TEST_HARNESS_MAIN
