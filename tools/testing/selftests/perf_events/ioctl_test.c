// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl()s on a single counter, and close().
 *
 * PERF_EVENT_IOC_DISABLE stops the count and the enabled time;
 * PERF_EVENT_IOC_ENABLE starts them again, including for an event opened
 * with attr.disabled = 1; PERF_EVENT_IOC_RESET sets the count back to zero
 * but leaves the times alone; PERF_EVENT_IOC_ID stores one u64, the same for
 * every call on an event and different between events; an unknown request
 * fails with ENOTTY; close() of a counter succeeds and releases the fd.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

#define POISON_ID	0xa5a5a5a5a5a5a5a5ULL

/* Batches of TOUCH_PAGES fresh pages, faulted in one batch at a time. */
#define NR_BATCHES	4

struct batches {
	char *buf;
	int next;	/* index of the next untouched batch */
};

/* Fault in TOUCH_PAGES pages never touched before. */
static void fault_batch(struct batches *b)
{
	size_t off = (size_t)b->next * TOUCH_PAGES * getpagesize();

	if (b->next >= NR_BATCHES)
		return;
	touch_pages(b->buf + off, TOUCH_PAGES);
	b->next++;
}

/* A counter on this task, on any CPU; it must open. */
static int open_counter(struct __test_metadata *_metadata, __u64 config,
			__u64 read_format, bool disabled)
{
	int fd = sw_event_open(config, read_format, disabled, 0, -1);

	ASSERT_LE(0, fd);
	return fd;
}

/* Fault in the next batch, run for @spin_ns more, then read @fd. */
static void fault_read(struct __test_metadata *_metadata, struct batches *b,
		       int fd, __u64 spin_ns, struct value_times *t)
{
	fault_batch(b);
	spin_cpu_ns(spin_ns);
	ASSERT_EQ(0, read_value_times(fd, t));
}

FIXTURE(pages) {
	struct batches b;
};

FIXTURE_SETUP(pages)
{
	self->b.buf = map_fresh_pages(NR_BATCHES * TOUCH_PAGES);
	ASSERT_NE(NULL, self->b.buf);
}

FIXTURE_TEARDOWN(pages)
{
	munmap(self->b.buf, NR_BATCHES * TOUCH_PAGES * getpagesize());
}

/* Opened disabled: nothing counted until PERF_EVENT_IOC_ENABLE. */
TEST_F(pages, disabled_then_enable)
{
	struct value_times t;
	int fd;

	fd = open_counter(_metadata, PERF_COUNT_SW_PAGE_FAULTS, RF_TIMES, true);

	fault_read(_metadata, &self->b, fd, 0, &t);
	EXPECT_EQ(0, t.value);
	EXPECT_EQ(0, t.enabled);
	EXPECT_EQ(0, t.running);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	fault_read(_metadata, &self->b, fd, NSEC_PER_MSEC, &t);
	EXPECT_TOUCH_FAULTS(t.value, FAULT_SLACK);
	EXPECT_LT(0, t.enabled);
	EXPECT_LT(0, t.running);

	close(fd);
}

/* DISABLE freezes count and times; ENABLE resumes from where it stopped. */
TEST_F(pages, disable_stops_enable_resumes)
{
	struct value_times a, b;
	int fd;

	fd = open_counter(_metadata, PERF_COUNT_SW_PAGE_FAULTS, RF_TIMES, false);

	fault_batch(&self->b);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_value_times(fd, &a));
	EXPECT_LE(TOUCH_PAGES, a.value);

	fault_read(_metadata, &self->b, fd, 5 * NSEC_PER_MSEC, &b);
	EXPECT_EQ(a.value, b.value);
	EXPECT_EQ(a.enabled, b.enabled);
	EXPECT_EQ(a.running, b.running);

	/* Disabling twice is harmless. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/* ... and so is enabling twice. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	fault_read(_metadata, &self->b, fd, 5 * NSEC_PER_MSEC, &b);
	EXPECT_LE(a.value + TOUCH_PAGES, b.value);
	EXPECT_GT(a.value + TOUCH_PAGES + FAULT_SLACK, b.value);
	EXPECT_LT(a.enabled, b.enabled);
	EXPECT_LT(a.running, b.running);

	close(fd);
}

/* A disabled task-clock stops too. */
TEST(disable_stops_task_clock)
{
	__u64 a, b;
	int fd;

	fd = open_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, 0, false);
	spin_cpu_ns(5 * NSEC_PER_MSEC);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_value(fd, &a));
	EXPECT_LT(0, a);
	spin_cpu_ns(20 * NSEC_PER_MSEC);
	ASSERT_EQ(0, read_value(fd, &b));
	EXPECT_EQ(a, b);
	close(fd);
}

/* RESET zeroes the count only; counting carries on from zero. */
TEST_F(pages, reset)
{
	struct value_times a, b;
	int fd;

	fd = open_counter(_metadata, PERF_COUNT_SW_PAGE_FAULTS, RF_TIMES, false);

	fault_read(_metadata, &self->b, fd, 5 * NSEC_PER_MSEC, &a);
	EXPECT_LE(TOUCH_PAGES, a.value);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, read_value_times(fd, &b));
	EXPECT_GT(10, b.value);
	EXPECT_LE(a.enabled, b.enabled);
	EXPECT_LE(a.running, b.running);

	fault_read(_metadata, &self->b, fd, 0, &b);
	EXPECT_TOUCH_FAULTS(b.value, FAULT_SLACK);

	/* A disabled event can be reset too, and stays disabled. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	fault_read(_metadata, &self->b, fd, 0, &b);
	EXPECT_EQ(0, b.value);

	close(fd);
}

/* RESET of a running task-clock: back near zero, time_enabled kept. */
TEST(reset_task_clock)
{
	struct value_times a, b;
	int fd;

	fd = open_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, false);
	spin_cpu_ns(50 * NSEC_PER_MSEC);
	ASSERT_EQ(0, read_value_times(fd, &a));
	EXPECT_LE(20 * NSEC_PER_MSEC, a.value);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, read_value_times(fd, &b));
	EXPECT_GT(10 * NSEC_PER_MSEC, b.value);
	EXPECT_LE(a.enabled, b.enabled);
	EXPECT_LE(20 * NSEC_PER_MSEC, b.enabled);
	close(fd);
}

/* PERF_EVENT_IOC_ID writes one u64: stable per event, unique across. */
TEST(id)
{
	__u64 ids[3], again[2];
	int fds[3], i, j;

	for (i = 0; i < 3; i++)
		fds[i] = open_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, 0,
				      false);
	for (i = 0; i < 3; i++) {
		again[0] = POISON_ID;
		again[1] = POISON_ID;
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_ID, &again[0]));
		EXPECT_EQ(POISON_ID, again[1]);
		ids[i] = again[0];
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_ID, &again[1]));
		EXPECT_EQ(ids[i], again[1]);
	}
	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++)
			EXPECT_NE(ids[i], ids[j]);

	/* Still unique against an event opened after the others closed. */
	for (i = 0; i < 3; i++)
		close(fds[i]);
	fds[0] = open_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, 0, false);
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ID, &again[0]));
	for (i = 0; i < 3; i++)
		EXPECT_NE(ids[i], again[0]);
	close(fds[0]);
}

/* PERF_EVENT_IOC_ID into memory we cannot write. */
TEST(id_bad_pointer)
{
	void *ro;
	int fd;

	ro = mmap(NULL, getpagesize(), PROT_READ,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	fd = open_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, 0, false);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_ID, ro));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_ID, NULL));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
	munmap(ro, getpagesize());
}

/* A request number perf does not know. */
TEST(unknown_request)
{
	int fd;

	fd = open_counter(_metadata, PERF_COUNT_SW_TASK_CLOCK, 0, false);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IO('$', 0xf0), 0));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
}

/* close() succeeds, the fd is gone, other counters are unaffected. */
TEST_F(pages, close_counter)
{
	__u64 value;
	int fd, other;

	fd = open_counter(_metadata, PERF_COUNT_SW_PAGE_FAULTS, 0, false);
	other = open_counter(_metadata, PERF_COUNT_SW_PAGE_FAULTS, 0, false);

	fault_batch(&self->b);
	ASSERT_EQ(0, close(fd));
	errno = 0;
	EXPECT_EQ(-1, fcntl(fd, F_GETFD));
	EXPECT_EQ(EBADF, errno);
	errno = 0;
	EXPECT_EQ(-1, close(fd));
	EXPECT_EQ(EBADF, errno);

	fault_batch(&self->b);
	ASSERT_EQ(0, read_value(other, &value));
	EXPECT_LE(2 * TOUCH_PAGES, value);
	EXPECT_GT(2 * TOUCH_PAGES + FAULT_SLACK, value);
	ASSERT_EQ(0, close(other));
}

TEST_HARNESS_MAIN
