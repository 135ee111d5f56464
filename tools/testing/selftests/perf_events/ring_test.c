// SPDX-License-Identifier: GPL-2.0
/*
 * How records go into the ring buffer.
 *
 *  - A writable mapping gives user space data_tail: the kernel never
 *    overwrites what was not consumed, and never fills the buffer to the
 *    last byte (it holds data_size - 1 bytes).  A record that does not fit is
 *    lost: counted in PERF_FORMAT_LOST, and reported by one
 *    PERF_RECORD_LOST (id, count, then the sample_id trailer) before the
 *    next record that fits once data_tail has moved.
 *  - A read-only mapping is overwritten: data_head keeps moving and
 *    nothing is lost.
 *  - attr.write_backward: data_head moves down from 0, each record is
 *    written below the previous one, so reading up from data_head gives
 *    the newest first.
 *  - Records straddling the end of the data area are split across it
 *    and read back whole.
 *  - PERF_EVENT_IOC_PAUSE_OUTPUT drops records and counts them as lost;
 *    it needs a buffer with data pages (EINVAL otherwise).
 *  - A record larger than the whole buffer is lost.
 *
 * The samples come from a page-fault event with period 1 on the test's
 * own fresh pages, so each touched page is exactly one sample.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "../kselftest_harness.h"

#define LOST_FMT	(PERF_FORMAT_ID | PERF_FORMAT_LOST)

struct lost_read {
	__u64 value;
	__u64 id;
	__u64 lost;
};

static int read_lost(int fd, struct lost_read *lr)
{
	return read(fd, lr, sizeof(*lr)) == sizeof(*lr) ? 0 : -1;
}

/* A disabled page-fault sampler, period 1. */
static void pf_attr(struct perf_event_attr *attr, __u64 sample_type)
{
	sample_attr_init(attr, PERF_COUNT_SW_PAGE_FAULTS, 1, sample_type);
	attr->read_format = LOST_FMT;
	attr->disabled = 1;
}

FIXTURE(ring) {
	struct perf_event_attr attr;
	struct ring r;
	int fd;
	__u64 id;
	char *pages;
	size_t nr_pages;
};

FIXTURE_SETUP(ring)
{
	self->fd = -1;
	self->r.map = NULL;
	self->pages = NULL;
}

FIXTURE_TEARDOWN(ring)
{
	ring_unmap(&self->r);
	if (self->fd >= 0)
		close(self->fd);
	if (self->pages)
		munmap(self->pages, self->nr_pages * page_size());
}

/*
 * Open the event of self->attr (see pf_attr()), its id in self->id, and
 * map one data page of its buffer with @prot.  Every page of the mapping
 * is read, so that faulting it in samples nothing.
 */
static void ring_open(struct __test_metadata *_metadata,
		      FIXTURE_DATA(ring) *self, int prot)
{
	self->fd = sample_open(&self->attr);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ID, &self->id));
	ASSERT_EQ(0, ring_map_prot(&self->r, self->fd, 1, prot));
	ring_prefault(&self->r);
}

/* Touch @nr pages from @p with the event on. */
static void touch_enabled(struct __test_metadata *_metadata,
			  FIXTURE_DATA(ring) *self, char *p, size_t nr)
{
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(p, nr);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
}

/* Map @nr fresh pages (self->pages), untouched. */
static void map_pages(struct __test_metadata *_metadata,
		      FIXTURE_DATA(ring) *self, size_t nr)
{
	self->nr_pages = nr;
	self->pages = map_fresh_pages(nr);
	ASSERT_NE(NULL, self->pages);
}

/* Map @nr fresh pages and touch them all with the event on. */
static void sample_pages(struct __test_metadata *_metadata,
			 FIXTURE_DATA(ring) *self, size_t nr)
{
	map_pages(_metadata, self, nr);
	touch_enabled(_metadata, self, self->pages, nr);
}

/*
 * The records from @from to data_head, written once output could go on
 * after some were lost: one LOST record, with the count of @lost and the
 * event's id, then at least @min - 1 samples.  Returns how many.
 */
static int expect_lost_first(struct __test_metadata *_metadata,
			     FIXTURE_DATA(ring) *self, __u64 from,
			     __u64 lost, int min)
{
	struct record_counts c = { 0 };
	int n;

	n = ring_walk(&self->r, from, ring_head(&self->r), count_record, &c);
	EXPECT_LE(min, n);
	EXPECT_EQ(1, c.type[PERF_RECORD_LOST]);
	EXPECT_EQ(n - 1, c.type[PERF_RECORD_SAMPLE]);
	EXPECT_EQ(lost, c.lost);
	EXPECT_EQ(self->id, c.lost_id);
	return n;
}

/* Nothing was written: every sample of self->pages was lost. */
static struct lost_read expect_all_lost(struct __test_metadata *_metadata,
					FIXTURE_DATA(ring) *self)
{
	struct lost_read lr;

	EXPECT_EQ(0, ring_head(&self->r));
	ASSERT_EQ(0, read_lost(self->fd, &lr));
	EXPECT_LE(self->nr_pages, lr.lost);
	EXPECT_EQ(lr.value, lr.lost);
	return lr;
}

/*
 * A writable buffer fills up and stops: what is in it stays whole, the
 * rest is lost and counted, and the count is reported once there is room.
 */
TEST_F(ring, writable_keeps_unread)
{
	struct record_counts c = { 0 };
	struct lost_read lr, lr2;
	__u64 head, *rec;
	int n;

	/* IP, TID, ADDR: 32-byte samples, 128 to a page. */
	pf_attr(&self->attr, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			     PERF_SAMPLE_ADDR);
	ring_open(_metadata, self, PROT_READ | PROT_WRITE);
	sample_pages(_metadata, self, 400);

	/* As in 6.1, it is full with less than a record's room left. */
	head = ring_head(&self->r);
	EXPECT_EQ(self->r.size - 32, head);
	n = ring_walk(&self->r, 0, head, count_record, &c);
	EXPECT_EQ(head / 32, n);
	EXPECT_EQ(n, c.type[PERF_RECORD_SAMPLE]);
	EXPECT_EQ(0, c.type[PERF_RECORD_LOST]);

	/* Every fault was either written or counted as lost. */
	ASSERT_EQ(0, read_lost(self->fd, &lr));
	EXPECT_EQ(self->id, lr.id);
	EXPECT_LE(self->nr_pages, lr.value);
	EXPECT_EQ(lr.value, n + lr.lost);

	/* Room again: the next record is preceded by one LOST record. */
	ring_consume(&self->r, head);
	ASSERT_EQ(0, fault_enabled(self->fd, 3));
	n = expect_lost_first(_metadata, self, head, lr.lost, 4);

	/* It comes first, and has no trailer without sample_id_all. */
	rec = (__u64 *)(self->r.data + (head & (self->r.size - 1)));
	EXPECT_EQ(PERF_RECORD_LOST, ((struct perf_event_header *)rec)->type);
	EXPECT_EQ(24, ((struct perf_event_header *)rec)->size);

	/* The count read() gives does not go back down. */
	ASSERT_EQ(0, read_lost(self->fd, &lr2));
	EXPECT_EQ(lr.lost, lr2.lost);
	EXPECT_EQ(lr2.value, lr.value + n - 1);
}

struct lost_trailer {
	struct perf_event_header header;
	__u64 id, lost;
	__u32 pid, tid;
	__u64 time, sid;
	__u32 cpu, res;
	__u64 identifier;
};

static int find_lost(struct perf_event_header *h, void *arg)
{
	if (h->type != PERF_RECORD_LOST)
		return 0;
	memcpy(arg, h, h->size <= sizeof(struct lost_trailer) ?
			h->size : sizeof(struct lost_trailer));
	return 1;
}

/* With sample_id_all the LOST record carries the sample_id trailer. */
TEST_F(ring, lost_record_sample_id)
{
	struct lost_trailer lt;
	struct lost_read lr;
	int cpus[1];
	__u64 head;

	pf_attr(&self->attr, PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			     PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			     PERF_SAMPLE_IDENTIFIER);
	self->attr.sample_id_all = 1;
	ring_open(_metadata, self, PROT_READ | PROT_WRITE);

	sample_pages(_metadata, self, 300);
	ASSERT_EQ(0, read_lost(self->fd, &lr));
	ASSERT_LT(0, lr.lost);

	head = ring_head(&self->r);
	ring_consume(&self->r, head);
	ASSERT_EQ(1, allowed_cpus(cpus, 1));
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));
	ASSERT_EQ(0, fault_enabled(self->fd, 1));

	memset(&lt, 0, sizeof(lt));
	ASSERT_LT(0, ring_walk(&self->r, head, ring_head(&self->r),
			       find_lost, &lt));
	ASSERT_EQ(PERF_RECORD_LOST, lt.header.type);
	EXPECT_EQ(sizeof(lt), lt.header.size);
	EXPECT_EQ(self->id, lt.id);
	EXPECT_EQ(lr.lost, lt.lost);
	EXPECT_EQ(getpid(), lt.pid);
	EXPECT_EQ(gettid(), lt.tid);
	EXPECT_EQ(self->id, lt.sid);
	EXPECT_EQ(self->id, lt.identifier);
	EXPECT_NE(0, lt.time);
	EXPECT_EQ(cpus[0], lt.cpu);
	EXPECT_EQ(0, lt.res);
}

/* Records of one size: walk back from data_head by that size. */
static int walk_back(struct ring *r, __u64 head, size_t rec_size, int nr,
		     int (*check)(struct perf_event_header *h, void *arg),
		     void *arg)
{
	static __u64 buf[RECORD_MAX / sizeof(__u64)];
	struct perf_event_header *h;
	int i;

	for (i = 1; i <= nr; i++) {
		h = ring_record(r, head - i * rec_size, buf);
		if (!h || h->size != rec_size || check(h, arg))
			return -1;
	}
	return 0;
}

struct tid_check {
	__u32 pid, tid;
};

static int check_tid(struct perf_event_header *h, void *arg)
{
	struct tid_check *t = arg;
	__u32 *ids = (__u32 *)((__u64 *)(h + 1) + 1);

	return h->type != PERF_RECORD_SAMPLE || ids[0] != t->pid ||
	       ids[1] != t->tid;
}

/* A read-only buffer is overwritten: head keeps moving, nothing is lost. */
TEST_F(ring, readonly_overwrites)
{
	struct tid_check t = { getpid(), gettid() };
	struct lost_read lr;
	__u64 head;

	/* IP, TID: 24-byte samples, which do not divide the page. */
	pf_attr(&self->attr, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	ring_open(_metadata, self, PROT_READ);
	sample_pages(_metadata, self, 400);

	ASSERT_EQ(0, read_lost(self->fd, &lr));
	head = ring_head(&self->r);
	EXPECT_EQ(0, lr.lost);
	EXPECT_LE(self->nr_pages, lr.value);
	EXPECT_EQ(24 * lr.value, head);
	EXPECT_EQ(0, ring_tail(&self->r));
	/* The newest records are whole, including those across the end. */
	EXPECT_EQ(0, walk_back(&self->r, head, 24, self->r.size / 24, check_tid,
			       &t));
}

/*
 * A read-only mapping made writable later stays the overwriting kind:
 * data_tail written through it holds nothing back.
 */
TEST_F(ring, readonly_made_writable)
{
	struct lost_read lr;

	pf_attr(&self->attr, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	ring_open(_metadata, self, PROT_READ);
	ASSERT_EQ(0, mprotect(self->r.map, self->r.len,
			      PROT_READ | PROT_WRITE));
	ring_consume(&self->r, 0);

	sample_pages(_metadata, self, 400);
	ASSERT_EQ(0, read_lost(self->fd, &lr));
	EXPECT_EQ(0, lr.lost);
	EXPECT_EQ(24 * lr.value, ring_head(&self->r));
}

struct backward_check {
	char *pages;
	size_t next;	/* index of the page the next record must be for */
	__u64 time;	/* the time of the previous record (newer) */
	int bad;
};

static int check_backward(struct perf_event_header *h, void *arg)
{
	struct backward_check *b = arg;
	__u64 *f = (__u64 *)(h + 1);	/* TIME, ADDR */

	if (h->type != PERF_RECORD_SAMPLE || h->size != 24)
		return 1;
	if (f[0] > b->time ||
	    f[1] != (__u64)(unsigned long)(b->pages + b->next * page_size()))
		b->bad++;
	b->time = f[0];
	b->next--;
	return 0;
}

/* write_backward: newest record at data_head, older ones above it. */
TEST_F(ring, write_backward)
{
	struct backward_check b;
	struct lost_read lr;
	__u64 head;
	size_t nr;

	/* TIME, ADDR: 24 bytes. */
	pf_attr(&self->attr, PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR);
	self->attr.write_backward = 1;
	ring_open(_metadata, self, PROT_READ);

	/* Fewer than fit: data_head went down by all of them. */
	map_pages(_metadata, self, 400);
	touch_enabled(_metadata, self, self->pages, 50);
	ASSERT_EQ(0, read_lost(self->fd, &lr));
	head = ring_head(&self->r);
	EXPECT_EQ((__u64)0 - 24 * lr.value, head);

	/* Reading up from head: page 49 first, then 48, ..., 0. */
	memset(&b, 0, sizeof(b));
	b.pages = self->pages;
	b.next = 49;
	b.time = ~0ULL;
	nr = ring_walk(&self->r, head, head + 50 * 24, check_backward, &b);
	EXPECT_EQ(50, nr);
	EXPECT_EQ(0, b.bad);

	/* Wrapped several times: the newest still come first, whole. */
	touch_enabled(_metadata, self, self->pages + 50 * page_size(),
		      self->nr_pages - 50);
	ASSERT_EQ(0, read_lost(self->fd, &lr));
	EXPECT_EQ(0, lr.lost);
	head = ring_head(&self->r);
	EXPECT_EQ((__u64)0 - 24 * lr.value, head);
	b.next = self->nr_pages - 1;
	b.time = ~0ULL;
	nr = ring_walk(&self->r, head, head + (self->r.size / 24) * 24,
		       check_backward, &b);
	EXPECT_EQ(self->r.size / 24, nr);
	EXPECT_EQ(0, b.bad);
}

struct addr_check {
	char *pages;
	size_t next;
	int bad;
	int other;
};

static int check_forward(struct perf_event_header *h, void *arg)
{
	struct addr_check *a = arg;
	__u64 *f = (__u64 *)(h + 1);	/* IP, TID, TIME, ADDR */
	__u64 want = (__u64)(unsigned long)(a->pages + a->next * page_size());

	if (h->type != PERF_RECORD_SAMPLE || h->size != 40) {
		a->other++;
		return 0;
	}
	if (f[3] == want)
		a->next++;
	else
		a->bad++;
	return 0;
}

/* Consumed as it goes, the buffer wraps many times and loses nothing. */
TEST_F(ring, wrap_around)
{
	struct addr_check a = { 0 };
	struct lost_read lr;
	size_t round;

	/* 40-byte samples: every ~100th straddles the end of the page. */
	pf_attr(&self->attr, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			     PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR);
	ring_open(_metadata, self, PROT_READ | PROT_WRITE);
	map_pages(_metadata, self, 1000);
	a.pages = self->pages;
	for (round = 0; round < self->nr_pages / 50; round++) {
		touch_enabled(_metadata, self,
			      self->pages + round * 50 * page_size(), 50);
		ASSERT_LE(0, ring_drain(&self->r, check_forward, &a));
	}
	EXPECT_EQ(self->nr_pages, a.next);
	EXPECT_EQ(0, a.bad);
	EXPECT_EQ(0, a.other);
	EXPECT_LT(9 * self->r.size, ring_head(&self->r));
	ASSERT_EQ(0, read_lost(self->fd, &lr));
	EXPECT_EQ(0, lr.lost);
}

/* PAUSE_OUTPUT: records are dropped and counted until output resumes. */
TEST_F(ring, pause_output)
{
	struct lost_read lr;

	pf_attr(&self->attr, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	self->fd = sample_open(&self->attr);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ID, &self->id));

	/* No buffer, or one with no data pages: nothing to pause. */
	EXPECT_EQ(-1, ioctl(self->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, ring_map(&self->r, self->fd, 0));
	EXPECT_EQ(-1, ioctl(self->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);
	ring_unmap(&self->r);

	ASSERT_EQ(0, ring_map(&self->r, self->fd, 4));
	ring_prefault(&self->r);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	sample_pages(_metadata, self, 20);
	lr = expect_all_lost(_metadata, self);

	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	ASSERT_EQ(0, fault_enabled(self->fd, 2));
	expect_lost_first(_metadata, self, ring_tail(&self->r), lr.lost, 3);
}

/* A sample bigger than the whole buffer never fits: it is lost. */
TEST_F(ring, record_larger_than_buffer)
{
	pf_attr(&self->attr, PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER);
	self->attr.sample_stack_user = 8192;
	ring_open(_metadata, self, PROT_READ | PROT_WRITE);
	sample_pages(_metadata, self, 10);
	expect_all_lost(_metadata, self);
}

TEST_HARNESS_MAIN
