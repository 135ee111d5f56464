// SPDX-License-Identifier: GPL-2.0
/*
 * Redirecting an event's records into another event's ring buffer:
 * PERF_EVENT_IOC_SET_OUTPUT and PERF_FLAG_FD_OUTPUT.
 *
 *  - The two events must be on the same CPU, or both follow the same
 *    task on any CPU; use the same clock and write in the same direction;
 *    the output event must have a buffer, and the redirected one must not
 *    be mapped itself; an event cannot be its own output.  Otherwise
 *    EINVAL; a descriptor that is not an event is EBADF.
 *  - Redirected records land in the output's buffer, next to its own; a
 *    redirected event mapped with the same size shares that buffer (EINVAL
 *    for another size); redirecting to an event that is itself redirected
 *    lands in the final buffer.
 *  - SET_OUTPUT with -1 (as an unsigned long: a 32-bit -1 is a bad
 *    descriptor, EBADF) detaches: the event writes nowhere until it is
 *    mapped or redirected again.
 *  - The buffer lives until its last mapping goes, whichever events'
 *    files are closed; then every event writing to it is detached.
 *  - PERF_FLAG_FD_OUTPUT at open redirects the new event into group_fd's
 *    buffer (with PERF_FLAG_FD_NO_GROUP, without joining its group), under
 *    the same conditions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "../kselftest_harness.h"

/* A page-fault sampler (period 1, ID in each sample) on @pid/@cpu. */
static int open_pf_id(pid_t pid, int cpu, int group_fd, unsigned long flags,
		      void (*tweak)(struct perf_event_attr *))
{
	struct perf_event_attr attr;

	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ID);
	attr.disabled = 1;
	if (tweak)
		tweak(&attr);
	return sys_perf_event_open(&attr, pid, cpu, group_fd, flags);
}

static int open_self(void)
{
	return open_pf_id(0, -1, -1, 0, NULL);
}

static __u64 event_id(int fd)
{
	__u64 id = 0;

	ioctl(fd, PERF_EVENT_IOC_ID, &id);
	return id;
}

struct id_counts {
	__u64 id[2];
	int nr[2];
	int other;
};

static int count_ids(struct perf_event_header *h, void *arg)
{
	struct id_counts *c = arg;
	__u64 id = *(__u64 *)(h + 1);

	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	if (id == c->id[0])
		c->nr[0]++;
	else if (id == c->id[1])
		c->nr[1]++;
	else
		c->other++;
	return 0;
}

/* Fault @nr pages with both events on; count whose samples @r got. */
static int fault_both(int a, int b, struct ring *r, int nr,
		      struct id_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->id[0] = event_id(a);
	c->id[1] = event_id(b);
	ioctl(a, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(b, PERF_EVENT_IOC_ENABLE, 0);
	if (fault_fresh_pages(nr))
		return -1;
	ioctl(a, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(b, PERF_EVENT_IOC_DISABLE, 0);
	return ring_drain(r, count_ids, c);
}

/* Redirect @fd into @into: 0, or the errno of SET_OUTPUT. */
static int set_output(int fd, unsigned long into)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, into) ? errno : 0;
}

/*
 * Open a sampler on @pid/@cpu (see open_pf_id()) and redirect it into
 * @a: 0, or the errno of SET_OUTPUT.
 */
static int redirect_new(struct __test_metadata *_metadata, int a, pid_t pid,
			int cpu, void (*tweak)(struct perf_event_attr *))
{
	int b = open_pf_id(pid, cpu, -1, 0, tweak), err;

	ASSERT_LE(0, b);
	err = set_output(b, a);
	close(b);
	return err;
}

/* Two samplers on this task, @b redirected into @a's buffer @r. */
static void open_pair(struct __test_metadata *_metadata, int *a, int *b,
		      struct ring *r)
{
	*a = open_self();
	ASSERT_LE(0, *a);
	*b = open_self();
	ASSERT_LE(0, *b);
	ASSERT_EQ(0, ring_map(r, *a, 8));
	ASSERT_EQ(0, set_output(*b, *a));
}

/* Fault 10 pages with @a and @b on: the samples of both are in @r. */
static void expect_both(struct __test_metadata *_metadata, int a, int b,
			struct ring *r, struct id_counts *c)
{
	ASSERT_LE(0, fault_both(a, b, r, 10, c));
	EXPECT_LE(10, c->nr[0]);
	EXPECT_LE(10, c->nr[1]);
}

/* The samples of @fd in @r, which are consumed; -1 if malformed. */
static int samples_of(struct ring *r, int fd)
{
	struct id_counts c = { .id = { 0, event_id(fd) } };

	return ring_drain(r, count_ids, &c) < 0 ? -1 : c.nr[1];
}

TEST(same_task)
{
	struct id_counts c;
	struct ring r, rb;
	int a, b;

	open_pair(_metadata, &a, &b, &r);
	expect_both(_metadata, a, b, &r, &c);
	EXPECT_EQ(0, c.other);

	/* Mapping the redirected event: the same buffer, or nothing. */
	EXPECT_EQ(-1, ring_map(&rb, b, 4));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, ring_map(&rb, b, 8));
	EXPECT_EQ(ring_head(&r), ring_head(&rb));
	ring_consume(&rb, 16);
	EXPECT_EQ(16, ring_tail(&r));

	/* ... and once mapped, it cannot be redirected again. */
	EXPECT_EQ(EINVAL, set_output(b, -1L));
	ring_unmap(&rb);
	ring_unmap(&r);
	close(b);
	close(a);
}

TEST(output_needs_buffer)
{
	struct ring r;
	int a, b;

	a = open_self();
	ASSERT_LE(0, a);
	b = open_self();
	ASSERT_LE(0, b);
	EXPECT_EQ(EINVAL, set_output(b, a));
	/* A buffer of the control page alone is a buffer. */
	ASSERT_EQ(0, ring_map(&r, a, 0));
	EXPECT_EQ(0, set_output(b, a));
	ring_unmap(&r);
	close(b);
	close(a);
}

TEST(mapped_cannot_redirect)
{
	struct ring ra, rb;
	int a, b;

	a = open_self();
	ASSERT_LE(0, a);
	b = open_self();
	ASSERT_LE(0, b);
	ASSERT_EQ(0, ring_map(&ra, a, 1));
	ASSERT_EQ(0, ring_map(&rb, b, 1));
	EXPECT_EQ(EINVAL, set_output(b, a));
	/* Unmapped, it can. */
	ring_unmap(&rb);
	EXPECT_EQ(0, set_output(b, a));
	ring_unmap(&ra);
	close(b);
	close(a);
}

TEST(not_to_itself)
{
	struct ring r;
	int a;

	a = open_self();
	ASSERT_LE(0, a);
	EXPECT_EQ(EINVAL, set_output(a, a));
	ASSERT_EQ(0, ring_map(&r, a, 1));
	EXPECT_EQ(EINVAL, set_output(a, a));
	ring_unmap(&r);
	close(a);
}

TEST(bad_descriptor)
{
	struct ring r;
	int a, pipefd[2];

	a = open_self();
	ASSERT_LE(0, a);
	ASSERT_EQ(0, ring_map(&r, a, 1));
	ASSERT_EQ(0, pipe(pipefd));
	EXPECT_EQ(EBADF, set_output(a, pipefd[0]));
	close(pipefd[0]);
	close(pipefd[1]);
	EXPECT_EQ(EBADF, set_output(a, pipefd[0]));
	ring_unmap(&r);
	close(a);
}

/* Events on CPUs: only into a buffer of the same CPU. */
TEST(same_cpu_only)
{
	struct ring r;
	int cpus[2], n, a;

	n = allowed_cpus(cpus, 2);
	ASSERT_LE(1, n);
	a = open_pf_id(-1, cpus[0], -1, 0, NULL);
	ASSERT_LE(0, a);
	ASSERT_EQ(0, ring_map(&r, a, 1));

	/* Another event on the same CPU, CPU-wide or for this task. */
	EXPECT_EQ(0, redirect_new(_metadata, a, -1, cpus[0], NULL));
	EXPECT_EQ(0, redirect_new(_metadata, a, 0, cpus[0], NULL));

	/* A task's event on any CPU. */
	EXPECT_EQ(EINVAL, redirect_new(_metadata, a, 0, -1, NULL));

	/* Another CPU. */
	if (n > 1)
		EXPECT_EQ(EINVAL,
			  redirect_new(_metadata, a, -1, cpus[1], NULL));
	ring_unmap(&r);
	close(a);
}

/* Events on any CPU: only into a buffer of the same task. */
TEST(same_task_only)
{
	struct gated_child child;
	struct ring r;
	int cpus[1], a;

	ASSERT_LT(0, fork_gated(&child, NULL));
	a = open_self();
	ASSERT_LE(0, a);
	ASSERT_EQ(0, ring_map(&r, a, 1));

	EXPECT_EQ(EINVAL, redirect_new(_metadata, a, child.pid, -1, NULL));

	/* This task, but on one CPU: not the same either. */
	ASSERT_EQ(1, allowed_cpus(cpus, 1));
	EXPECT_EQ(EINVAL, redirect_new(_metadata, a, 0, cpus[0], NULL));

	ring_unmap(&r);
	close(a);
	gated_wait(&child);
}

static void use_monotonic(struct perf_event_attr *attr)
{
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
}

static void use_monotonic_raw(struct perf_event_attr *attr)
{
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC_RAW;
}

static void backward(struct perf_event_attr *attr)
{
	attr->write_backward = 1;
}

/* One clock and one direction to a buffer. */
TEST(same_clock_and_direction)
{
	struct ring r;
	int a;

	a = open_pf_id(0, -1, -1, 0, use_monotonic);
	ASSERT_LE(0, a);
	ASSERT_EQ(0, ring_map(&r, a, 1));
	EXPECT_EQ(EINVAL, redirect_new(_metadata, a, 0, -1, NULL));
	EXPECT_EQ(EINVAL, redirect_new(_metadata, a, 0, -1,
				       use_monotonic_raw));
	EXPECT_EQ(0, redirect_new(_metadata, a, 0, -1, use_monotonic));
	ring_unmap(&r);
	close(a);

	a = open_pf_id(0, -1, -1, 0, backward);
	ASSERT_LE(0, a);
	ASSERT_EQ(0, ring_map_prot(&r, a, 1, PROT_READ));
	EXPECT_EQ(EINVAL, redirect_new(_metadata, a, 0, -1, NULL));
	EXPECT_EQ(0, redirect_new(_metadata, a, 0, -1, backward));
	ring_unmap(&r);
	close(a);
}

/* SET_OUTPUT(-1): the event writes nowhere, and may be mapped anew. */
TEST(detach)
{
	struct id_counts c;
	struct ring r, rb;
	int a, b;

	open_pair(_metadata, &a, &b, &r);
	ASSERT_EQ(0, set_output(b, -1L));

	ASSERT_LE(0, fault_both(a, b, &r, 10, &c));
	EXPECT_LE(10, c.nr[0]);
	EXPECT_EQ(0, c.nr[1]);

	/* Detaching what is not attached is fine too. */
	EXPECT_EQ(0, set_output(b, -1L));
	/* -1 is the whole unsigned long: a 32-bit -1 is no descriptor. */
	EXPECT_EQ(EBADF, set_output(b, 0xffffffffUL));
	ASSERT_EQ(0, ring_map(&rb, b, 2));
	EXPECT_EQ(2 * page_size(), rb.up->data_size);
	ring_unmap(&rb);
	ring_unmap(&r);
	close(b);
	close(a);
}

/* Into an event that is itself redirected: the final buffer. */
TEST(chain)
{
	struct id_counts c;
	struct ring r;
	int a, b, x;

	open_pair(_metadata, &a, &b, &r);
	x = open_self();
	ASSERT_LE(0, x);
	ASSERT_EQ(0, set_output(x, b));

	expect_both(_metadata, a, x, &r, &c);
	ring_unmap(&r);
	close(x);
	close(b);
	close(a);
}

/*
 * The buffer outlives the file of the event that created it while it is
 * mapped; its last munmap() detaches everyone.
 */
TEST(buffer_lives_while_mapped)
{
	struct ring r, rb;
	__u64 head;
	int a, b;

	open_pair(_metadata, &a, &b, &r);
	close(a);

	/* b still writes into it. */
	ASSERT_EQ(0, fault_enabled(b, 10));
	EXPECT_LE(10, samples_of(&r, b));
	head = ring_head(&r);

	/* The last mapping goes: b is detached, and may map its own. */
	ring_unmap(&r);
	ASSERT_EQ(0, ring_map(&rb, b, 2));
	EXPECT_EQ(0, ring_head(&rb));
	EXPECT_NE(0, head);
	ring_unmap(&rb);
	close(b);
}

/* PERF_FLAG_FD_OUTPUT: redirected from the start (events on a CPU). */
TEST(fd_output_flag)
{
	struct id_counts c;
	struct ring r;
	int cpus[1], a, b;

	ASSERT_EQ(1, allowed_cpus(cpus, 1));
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));
	a = open_pf_id(0, cpus[0], -1, 0, NULL);
	ASSERT_LE(0, a);

	/* No buffer to go to yet. */
	EXPECT_EQ(-1, open_pf_id(0, cpus[0], a, PERF_FLAG_FD_OUTPUT |
				 PERF_FLAG_FD_NO_GROUP, NULL));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, ring_map(&r, a, 8));
	b = open_pf_id(0, cpus[0], a,
		       PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP, NULL);
	ASSERT_LE(0, b);
	expect_both(_metadata, a, b, &r, &c);
	close(b);

	/* Without FD_NO_GROUP it also joins the group. */
	b = open_pf_id(0, cpus[0], a, PERF_FLAG_FD_OUTPUT, NULL);
	ASSERT_LE(0, b);
	expect_both(_metadata, a, b, &r, &c);
	/* The group went off with its leader. */
	ioctl(b, PERF_EVENT_IOC_ENABLE, 0);
	ASSERT_EQ(0, fault_fresh_pages(5));
	EXPECT_EQ(0, samples_of(&r, b));
	close(b);

	/* Into a buffer of another CPU: no. */
	b = open_pf_id(0, -1, a, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP,
		       NULL);
	EXPECT_EQ(-1, b);
	EXPECT_EQ(EINVAL, errno);
	ring_unmap(&r);
	close(a);
}

/* PERF_FLAG_FD_OUTPUT between two events of a task on any CPU. */
TEST(fd_output_per_task)
{
	struct gated_child child;
	struct id_counts c;
	struct ring r;
	int a, b;

	a = open_self();
	ASSERT_LE(0, a);
	ASSERT_EQ(0, ring_map(&r, a, 8));
	b = open_pf_id(0, -1, a, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP,
		       NULL);
	ASSERT_LE(0, b);
	expect_both(_metadata, a, b, &r, &c);
	close(b);

	/* Another task's event into our buffer: no. */
	ASSERT_LT(0, fork_gated(&child, NULL));
	b = open_pf_id(child.pid, -1, a,
		       PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP, NULL);
	EXPECT_EQ(-1, b);
	EXPECT_EQ(EINVAL, errno);
	if (b >= 0)
		close(b);
	gated_wait(&child);
	ring_unmap(&r);
	close(a);
}

TEST_HARNESS_MAIN
