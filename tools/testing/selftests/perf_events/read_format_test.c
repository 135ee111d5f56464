// SPDX-License-Identifier: GPL-2.0
/*
 * read() of a single (non-group) counter and attr.read_format.
 *
 * For every combination of PERF_FORMAT_TOTAL_TIME_ENABLED, _RUNNING and _ID
 * the read returns exactly { value, time_enabled?, time_running?, id? } in
 * that order and nothing more; a buffer smaller than that fails with ENOSPC
 * and is left alone; the id matches PERF_EVENT_IOC_ID; an enabled event has
 * time_enabled >= time_running > 0; an event opened with attr.disabled = 1
 * reads zero value and zero times until it is enabled.  Last, an event that
 * is enabled but cannot run (bound to a CPU the task never visits) shows
 * time_enabled growing while time_running stays 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

#define POISON		0xa5a5a5a5a5a5a5a5ULL
/* Any enabled event runs at least this long around the workload. */
#define MIN_TIME_NS	(1 * NSEC_PER_MSEC)

/* One read() split into its fields; absent fields are left at POISON. */
struct reading {
	__u64 value;
	__u64 enabled;
	__u64 running;
	__u64 id;
};

static void split_reading(const __u64 *buf, __u64 read_format,
			  struct reading *r)
{
	int i = 0;

	r->value = buf[i++];
	r->enabled = POISON;
	r->running = POISON;
	r->id = POISON;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		r->enabled = buf[i++];
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		r->running = buf[i++];
	if (read_format & PERF_FORMAT_ID)
		r->id = buf[i++];
}

FIXTURE(read_format) {
	char *pages;
	__u64 rf;		/* the variant's read_format */
	size_t size;		/* bytes a read() must return */
	int fd;			/* from open_faults() */
	__u64 id;		/* its PERF_EVENT_IOC_ID */
};

FIXTURE_VARIANT(read_format) {
	__u64 read_format;
};

FIXTURE_VARIANT_ADD(read_format, value) {
	.read_format = 0,
};

FIXTURE_VARIANT_ADD(read_format, enabled) {
	.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED,
};

FIXTURE_VARIANT_ADD(read_format, running) {
	.read_format = PERF_FORMAT_TOTAL_TIME_RUNNING,
};

FIXTURE_VARIANT_ADD(read_format, id) {
	.read_format = PERF_FORMAT_ID,
};

FIXTURE_VARIANT_ADD(read_format, enabled_running) {
	.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
		       PERF_FORMAT_TOTAL_TIME_RUNNING,
};

FIXTURE_VARIANT_ADD(read_format, enabled_id) {
	.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID,
};

FIXTURE_VARIANT_ADD(read_format, running_id) {
	.read_format = PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID,
};

FIXTURE_VARIANT_ADD(read_format, enabled_running_id) {
	.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
		       PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID,
};

FIXTURE_SETUP(read_format)
{
	self->fd = -1;
	self->rf = variant->read_format;
	self->size = read_format_words(self->rf) * sizeof(__u64);
	self->pages = map_fresh_pages(2 * TOUCH_PAGES);
	ASSERT_NE(NULL, self->pages);
}

FIXTURE_TEARDOWN(read_format)
{
	if (self->fd >= 0)
		close(self->fd);
	munmap(self->pages, 2 * TOUCH_PAGES * getpagesize());
}

/*
 * Read into a poisoned buffer larger than needed: exactly the record size
 * comes back and the rest of the buffer is untouched.
 */
static void read_exact(struct __test_metadata *_metadata, int fd,
		       __u64 read_format, struct reading *r)
{
	size_t words = read_format_words(read_format);
	__u64 buf[16];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(buf); i++)
		buf[i] = POISON;
	ASSERT_EQ(words * sizeof(__u64), read(fd, buf, sizeof(buf)));
	for (i = words; i < ARRAY_SIZE(buf); i++)
		ASSERT_EQ(POISON, buf[i]);
	split_reading(buf, read_format, r);
}

/* Open the fixture's page-fault counter, with its read_format, on us. */
static void open_faults(struct __test_metadata *_metadata,
			FIXTURE_DATA(read_format) *self, bool disabled)
{
	self->fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, self->rf, disabled,
				 0, -1);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ID, &self->id));
}

/* Fault in batch @batch (0 or 1) of the pages, run a while, read_exact(). */
static void fault_and_read(struct __test_metadata *_metadata,
			   FIXTURE_DATA(read_format) *self, int batch,
			   struct reading *r)
{
	touch_pages(self->pages + batch * TOUCH_PAGES * getpagesize(),
		    TOUCH_PAGES);
	spin_cpu_ns(5 * MIN_TIME_NS);
	read_exact(_metadata, self->fd, self->rf, r);
}

/*
 * fault_and_read() with the counter enabled all along.  A page-fault
 * counter makes every field recognisable: the value is about TOUCH_PAGES,
 * the times are at least milliseconds in ns, and the id is whatever
 * PERF_EVENT_IOC_ID says.
 */
static void check_counted(struct __test_metadata *_metadata,
			  FIXTURE_DATA(read_format) *self, int batch)
{
	__u64 rf = self->rf;
	struct reading r;

	fault_and_read(_metadata, self, batch, &r);
	EXPECT_TOUCH_FAULTS(r.value, FAULT_SLACK);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		EXPECT_LE(MIN_TIME_NS, r.enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		EXPECT_LE(MIN_TIME_NS, r.running);
	if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
	    (rf & PERF_FORMAT_TOTAL_TIME_RUNNING))
		EXPECT_LE(r.running, r.enabled);
	if (rf & PERF_FORMAT_ID)
		EXPECT_EQ(self->id, r.id);
}

/* Each field in its place, with a recognisable value. */
TEST_F(read_format, layout)
{
	open_faults(_metadata, self, false);
	check_counted(_metadata, self, 0);
}

/* Every buffer size below the record size fails and writes nothing. */
TEST_F(read_format, short_buffer)
{
	__u64 buf[8];
	size_t len;

	open_faults(_metadata, self, false);
	for (len = 1; len < self->size; len++) {
		memset(buf, 0x5a, sizeof(buf));
		errno = 0;
		ASSERT_EQ(-1, read(self->fd, buf, len)) {
			TH_LOG("read of %zu bytes (need %zu)", len,
			       self->size);
		}
		ASSERT_EQ(ENOSPC, errno);
		ASSERT_EQ(0x5a5a5a5a5a5a5a5aULL, buf[0]);
	}
	ASSERT_EQ(self->size, read(self->fd, buf, self->size));
}

/* attr.disabled = 1: all zero until PERF_EVENT_IOC_ENABLE. */
TEST_F(read_format, disabled_until_enabled)
{
	struct reading r;

	open_faults(_metadata, self, true);
	fault_and_read(_metadata, self, 0, &r);
	EXPECT_EQ(0, r.value);
	if (self->rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		EXPECT_EQ(0, r.enabled);
	if (self->rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		EXPECT_EQ(0, r.running);
	if (self->rf & PERF_FORMAT_ID)
		EXPECT_EQ(self->id, r.id);

	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	check_counted(_metadata, self, 1);
}

/*
 * pid 0, cpu M while the task stays on another CPU: the event is enabled
 * (time_enabled grows while the task runs) but never scheduled
 * (time_running and the count stay 0).
 */
TEST(enabled_but_not_running)
{
	__u64 rf = PERF_FORMAT_TOTAL_TIME_ENABLED |
		   PERF_FORMAT_TOTAL_TIME_RUNNING;
	__u64 buf[3];
	int cpus[2];
	int fd;

	if (allowed_cpus(cpus, 2) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));
	fd = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, rf, false, 0, cpus[1]);
	ASSERT_LE(0, fd);

	spin_cpu_ns(20 * NSEC_PER_MSEC);
	ASSERT_EQ(sizeof(buf), read(fd, buf, sizeof(buf)));
	EXPECT_EQ(0, buf[0]);
	EXPECT_LE(5 * NSEC_PER_MSEC, buf[1]);
	EXPECT_EQ(0, buf[2]);

	close(fd);
}

TEST_HARNESS_MAIN
