// SPDX-License-Identifier: GPL-2.0
/*
 * Event groups and PERF_FORMAT_GROUP.
 *
 * The group here is a task-clock leader with two members, page-faults
 * then context-switches, each opened with group_fd = the leader.  A
 * PERF_FORMAT_GROUP read() of the leader returns
 *
 *	nr, [time_enabled], [time_running], { value, [id], [lost] } x nr
 *
 * with the leader first and the members in the order they joined, for
 * every combination of the optional fields; a read() of a member with
 * PERF_FORMAT_GROUP returns the whole group the same way; a short buffer
 * fails with ENOSPC.  PERF_IOC_FLAG_GROUP makes ENABLE, DISABLE and RESET
 * act on the whole group, whichever member it is given to.  Disabling the
 * leader alone stops the group, times included, but its members stay
 * enabled and start again with the leader.  Closing the leader leaves each
 * member a group of its own that keeps counting.  A member's own times
 * are its leader's.
 *
 * Last, the groups perf_event_open(2) refuses with EINVAL: a group_fd that
 * is a member, a pinned or exclusive member, a member on another CPU than
 * its leader or in another context (another task, or a CPU-wide leader).
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "../kselftest_harness.h"

#define NR_EVENTS	3
#define NR_SLEEPS	3	/* context switches in each group_work() */
#define POISON		0xa5a5a5a5a5a5a5a5ULL
/* Counts of an idle group member: page-faults or context-switches. */
#define IDLE_SLACK	20

static const __u64 configs[NR_EVENTS] = {
	PERF_COUNT_SW_TASK_CLOCK,
	PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_CONTEXT_SWITCHES,
};

enum { LEADER, FAULTS, SWITCHES };

/* Batches of TOUCH_PAGES fresh pages, faulted in one batch at a time. */
#define NR_BATCHES	8

struct evgroup {
	int fd[NR_EVENTS];
	__u64 id[NR_EVENTS];
	char *pages;
	int next_batch;
};

/* Open the group with @read_format for each event; 0 or -1. */
static int group_open(struct evgroup *g, __u64 read_format)
{
	int i;

	for (i = 0; i < NR_EVENTS; i++)
		g->fd[i] = -1;
	for (i = 0; i < NR_EVENTS; i++) {
		g->fd[i] = sw_event_open_group(configs[i], read_format, false,
					       0, -1,
					       i == LEADER ? -1 : g->fd[LEADER]);
		if (g->fd[i] < 0 ||
		    ioctl(g->fd[i], PERF_EVENT_IOC_ID, &g->id[i]))
			return -1;
	}
	return 0;
}

static void group_close(struct evgroup *g)
{
	int i;

	for (i = 0; i < NR_EVENTS; i++) {
		if (g->fd[i] >= 0)
			close(g->fd[i]);
		g->fd[i] = -1;
	}
}

/*
 * What every member counts: TOUCH_PAGES page faults, NR_SLEEPS context
 * switches and a millisecond of CPU time.
 */
static void group_work(struct evgroup *g)
{
	if (g->next_batch < NR_BATCHES)
		touch_pages(g->pages + (size_t)g->next_batch++ * TOUCH_PAGES *
				       getpagesize(), TOUCH_PAGES);
	switch_out(NR_SLEEPS);
	spin_cpu_ns(NSEC_PER_MSEC);
}

FIXTURE(group) {
	struct evgroup g;
};

FIXTURE_VARIANT(group) {
	__u64 read_format;
};

#define ENA	PERF_FORMAT_TOTAL_TIME_ENABLED
#define RUN	PERF_FORMAT_TOTAL_TIME_RUNNING
#define ID	PERF_FORMAT_ID
#define LOST	PERF_FORMAT_LOST

FIXTURE_VARIANT_ADD(group, values) {
	.read_format = PERF_FORMAT_GROUP,
};

FIXTURE_VARIANT_ADD(group, enabled) {
	.read_format = PERF_FORMAT_GROUP | ENA,
};

FIXTURE_VARIANT_ADD(group, running) {
	.read_format = PERF_FORMAT_GROUP | RUN,
};

FIXTURE_VARIANT_ADD(group, enabled_running) {
	.read_format = PERF_FORMAT_GROUP | ENA | RUN,
};

FIXTURE_VARIANT_ADD(group, id) {
	.read_format = PERF_FORMAT_GROUP | ID,
};

FIXTURE_VARIANT_ADD(group, enabled_id) {
	.read_format = PERF_FORMAT_GROUP | ENA | ID,
};

FIXTURE_VARIANT_ADD(group, running_id) {
	.read_format = PERF_FORMAT_GROUP | RUN | ID,
};

FIXTURE_VARIANT_ADD(group, enabled_running_id) {
	.read_format = PERF_FORMAT_GROUP | ENA | RUN | ID,
};

FIXTURE_VARIANT_ADD(group, lost) {
	.read_format = PERF_FORMAT_GROUP | LOST,
};

FIXTURE_VARIANT_ADD(group, enabled_lost) {
	.read_format = PERF_FORMAT_GROUP | ENA | LOST,
};

FIXTURE_VARIANT_ADD(group, running_lost) {
	.read_format = PERF_FORMAT_GROUP | RUN | LOST,
};

FIXTURE_VARIANT_ADD(group, enabled_running_lost) {
	.read_format = PERF_FORMAT_GROUP | ENA | RUN | LOST,
};

FIXTURE_VARIANT_ADD(group, id_lost) {
	.read_format = PERF_FORMAT_GROUP | ID | LOST,
};

FIXTURE_VARIANT_ADD(group, enabled_id_lost) {
	.read_format = PERF_FORMAT_GROUP | ENA | ID | LOST,
};

FIXTURE_VARIANT_ADD(group, running_id_lost) {
	.read_format = PERF_FORMAT_GROUP | RUN | ID | LOST,
};

FIXTURE_VARIANT_ADD(group, enabled_running_id_lost) {
	.read_format = PERF_FORMAT_GROUP | ENA | RUN | ID | LOST,
};

FIXTURE_SETUP(group)
{
	self->g.pages = map_fresh_pages(NR_BATCHES * TOUCH_PAGES);
	ASSERT_NE(NULL, self->g.pages);
	ASSERT_EQ(0, group_open(&self->g, variant->read_format));
}

FIXTURE_TEARDOWN(group)
{
	group_close(&self->g);
	munmap(self->g.pages, NR_BATCHES * TOUCH_PAGES * getpagesize());
}

/*
 * Check a read of the whole group after one group_work(): the layout, the
 * ids against PERF_EVENT_IOC_ID, and that each value belongs to its event.
 */
static void check_group(struct __test_metadata *_metadata,
			const struct evgroup *g, __u64 fmt,
			const struct group_reading *r)
{
	int i;

	ASSERT_EQ(NR_EVENTS, r->nr);
	if (fmt & ENA)
		EXPECT_LT(0, r->enabled);
	if (fmt & RUN)
		EXPECT_LT(0, r->running);
	if ((fmt & ENA) && (fmt & RUN))
		EXPECT_LE(r->running, r->enabled);

	for (i = 0; i < NR_EVENTS; i++) {
		EXPECT_EQ(fmt & ID ? g->id[i] : 0, r->member[i].id);
		/* Counting events lose nothing. */
		EXPECT_EQ(0, r->member[i].lost);
	}
	EXPECT_LE(NSEC_PER_MSEC, r->member[LEADER].value);
	EXPECT_LE(TOUCH_PAGES, r->member[FAULTS].value);
	EXPECT_GT(TOUCH_PAGES + FAULT_SLACK, r->member[FAULTS].value);
	EXPECT_LE(NR_SLEEPS, r->member[SWITCHES].value);
	EXPECT_GT(TOUCH_PAGES / 2, r->member[SWITCHES].value);
}

/* Read @fd into a poisoned buffer: exactly the layout, nothing beyond. */
static void read_exact(struct __test_metadata *_metadata, int fd, __u64 fmt,
		       struct group_reading *r)
{
	size_t words = group_read_words(fmt, NR_EVENTS), i;
	__u64 buf[32];
	ssize_t n;

	for (i = 0; i < ARRAY_SIZE(buf); i++)
		buf[i] = POISON;
	n = read(fd, buf, sizeof(buf));
	ASSERT_EQ(words * sizeof(__u64), n);
	for (i = words; i < ARRAY_SIZE(buf); i++)
		ASSERT_EQ(POISON, buf[i]);
	ASSERT_EQ(0, group_split(buf, n, fmt, r));
}

TEST_F(group, read_leader)
{
	struct group_reading r;

	group_work(&self->g);
	read_exact(_metadata, self->g.fd[LEADER], variant->read_format, &r);
	check_group(_metadata, &self->g, variant->read_format, &r);
}

/* Each member reads the whole group too, in the same order. */
TEST_F(group, read_member)
{
	struct group_reading first, r;
	__u64 fmt = variant->read_format;
	int i, m;

	group_work(&self->g);
	read_exact(_metadata, self->g.fd[LEADER], fmt, &first);
	for (m = FAULTS; m < NR_EVENTS; m++) {
		read_exact(_metadata, self->g.fd[m], fmt, &r);
		check_group(_metadata, &self->g, fmt, &r);
		/* Later reads of the same counters. */
		EXPECT_LE(first.enabled, r.enabled);
		EXPECT_LE(first.running, r.running);
		for (i = 0; i < NR_EVENTS; i++)
			EXPECT_LE(first.member[i].value, r.member[i].value);
	}
}

/* A buffer one byte short of the group fails and is left alone. */
TEST_F(group, short_buffer)
{
	size_t size = group_read_words(variant->read_format, NR_EVENTS) *
		      sizeof(__u64);
	__u64 buf[32];
	int m;

	for (m = 0; m < NR_EVENTS; m++) {
		memset(buf, 0xa5, sizeof(buf));
		errno = 0;
		EXPECT_EQ(-1, read(self->g.fd[m], buf, size - 1));
		EXPECT_EQ(ENOSPC, errno);
		/* Room for a single event is not enough either. */
		errno = 0;
		EXPECT_EQ(-1, read(self->g.fd[m], buf,
				   read_format_words(variant->read_format &
						     ~PERF_FORMAT_GROUP) *
				   sizeof(__u64)));
		EXPECT_EQ(ENOSPC, errno);
		EXPECT_EQ(POISON, buf[0]);
		EXPECT_EQ(size, read(self->g.fd[m], buf, size));
	}
}

/* The tests below read the group with its times and the members' ids. */
#define GROUP_FMT	(PERF_FORMAT_GROUP | RF_TIMES_ID)

FIXTURE(ops) {
	struct evgroup g;
};

FIXTURE_SETUP(ops)
{
	self->g.pages = map_fresh_pages(NR_BATCHES * TOUCH_PAGES);
	ASSERT_NE(NULL, self->g.pages);
	ASSERT_EQ(0, group_open(&self->g, GROUP_FMT));
}

FIXTURE_TEARDOWN(ops)
{
	group_close(&self->g);
	munmap(self->g.pages, NR_BATCHES * TOUCH_PAGES * getpagesize());
}

static void read_ops(struct __test_metadata *_metadata, int fd,
		     struct group_reading *r)
{
	ASSERT_EQ(0, read_group(fd, GROUP_FMT, r));
	ASSERT_EQ(NR_EVENTS, r->nr);
}

/* Nothing counts, not even time. */
static void expect_frozen(struct __test_metadata *_metadata,
			  const struct group_reading *a,
			  const struct group_reading *b)
{
	int i;

	EXPECT_EQ(a->enabled, b->enabled);
	EXPECT_EQ(a->running, b->running);
	for (i = 0; i < NR_EVENTS; i++)
		EXPECT_EQ(a->member[i].value, b->member[i].value) {
			TH_LOG("member %d", i);
		}
}

/* Everything counts one group_work() more. */
static void expect_counted(struct __test_metadata *_metadata,
			   const struct group_reading *a,
			   const struct group_reading *b)
{
	EXPECT_LT(a->enabled, b->enabled);
	EXPECT_LT(a->running, b->running);
	EXPECT_LE(a->member[LEADER].value + NSEC_PER_MSEC,
		  b->member[LEADER].value);
	EXPECT_LE(a->member[FAULTS].value + TOUCH_PAGES,
		  b->member[FAULTS].value);
	EXPECT_LE(a->member[SWITCHES].value + NR_SLEEPS,
		  b->member[SWITCHES].value);
}

/* The members count nothing more, the leader counts on. */
static void expect_leader_only(struct __test_metadata *_metadata,
			       const struct group_reading *a,
			       const struct group_reading *b)
{
	EXPECT_LE(a->member[LEADER].value + NSEC_PER_MSEC,
		  b->member[LEADER].value);
	EXPECT_EQ(a->member[FAULTS].value, b->member[FAULTS].value);
	EXPECT_EQ(a->member[SWITCHES].value, b->member[SWITCHES].value);
}

/* DISABLE and ENABLE with PERF_IOC_FLAG_GROUP, given to the leader. */
TEST_F(ops, flag_group_on_leader)
{
	struct group_reading a, b;
	int lead = self->g.fd[LEADER];

	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	read_ops(_metadata, lead, &a);
	group_work(&self->g);
	read_ops(_metadata, lead, &b);
	expect_frozen(_metadata, &a, &b);

	/* Enabling the leader alone: the members were disabled too. */
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	read_ops(_metadata, lead, &a);
	group_work(&self->g);
	read_ops(_metadata, lead, &b);
	expect_leader_only(_metadata, &a, &b);

	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	read_ops(_metadata, lead, &a);
	group_work(&self->g);
	read_ops(_metadata, lead, &b);
	expect_counted(_metadata, &a, &b);
}

/* The same, given to a member: it still acts on the whole group. */
TEST_F(ops, flag_group_on_member)
{
	struct group_reading a, b;
	int lead = self->g.fd[LEADER], last = self->g.fd[SWITCHES];

	ASSERT_EQ(0, ioctl(last, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	read_ops(_metadata, lead, &a);
	group_work(&self->g);
	read_ops(_metadata, lead, &b);
	expect_frozen(_metadata, &a, &b);

	ASSERT_EQ(0, ioctl(last, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	read_ops(_metadata, lead, &a);
	group_work(&self->g);
	read_ops(_metadata, lead, &b);
	expect_counted(_metadata, &a, &b);
}

/* Without the flag, DISABLE of a member stops that member only. */
TEST_F(ops, disable_member_alone)
{
	struct group_reading a, b;
	int lead = self->g.fd[LEADER];

	ASSERT_EQ(0, ioctl(self->g.fd[FAULTS], PERF_EVENT_IOC_DISABLE, 0));
	read_ops(_metadata, lead, &a);
	group_work(&self->g);
	read_ops(_metadata, lead, &b);
	EXPECT_LT(a.running, b.running);
	EXPECT_LE(a.member[LEADER].value + NSEC_PER_MSEC,
		  b.member[LEADER].value);
	EXPECT_EQ(a.member[FAULTS].value, b.member[FAULTS].value);
	EXPECT_LE(a.member[SWITCHES].value + NR_SLEEPS,
		  b.member[SWITCHES].value);
}

/*
 * RESET: the flag resets every member, its absence the one given.  Before
 * each reset the leader's task-clock runs RESET_NS; after it, the leader
 * counts no more than the time from just before the reset to just after
 * the read (a loaded emulator may stretch that, but never by the spin).
 */
#define RESET_NS	(20 * NSEC_PER_MSEC)

/* Reset @fd with @flags and read the group; return the time it took. */
static __u64 reset_and_read(struct __test_metadata *_metadata, int fd,
			    unsigned long flags, struct group_reading *r)
{
	__u64 start = clock_ns(CLOCK_MONOTONIC);

	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, flags));
	read_ops(_metadata, fd, r);
	return clock_ns(CLOCK_MONOTONIC) - start;
}

TEST_F(ops, flag_group_reset)
{
	struct group_reading r;
	int lead = self->g.fd[LEADER];
	__u64 took;

	group_work(&self->g);
	spin_cpu_ns(RESET_NS);
	took = reset_and_read(_metadata, lead, 0, &r);
	EXPECT_GE(took + NSEC_PER_MSEC, r.member[LEADER].value);
	EXPECT_LE(TOUCH_PAGES, r.member[FAULTS].value);
	EXPECT_LE(NR_SLEEPS, r.member[SWITCHES].value);

	spin_cpu_ns(RESET_NS);
	took = reset_and_read(_metadata, lead, PERF_IOC_FLAG_GROUP, &r);
	EXPECT_GE(took + NSEC_PER_MSEC, r.member[LEADER].value);
	EXPECT_GT(IDLE_SLACK, r.member[FAULTS].value);
	EXPECT_GT(IDLE_SLACK, r.member[SWITCHES].value);
	/* The times are not reset. */
	EXPECT_LE(2 * RESET_NS, r.enabled);

	group_work(&self->g);
	spin_cpu_ns(RESET_NS);
	ASSERT_EQ(0, ioctl(self->g.fd[FAULTS], PERF_EVENT_IOC_RESET,
			   PERF_IOC_FLAG_GROUP));
	read_ops(_metadata, lead, &r);
	EXPECT_GT(RESET_NS / 2, r.member[LEADER].value);
	EXPECT_GT(IDLE_SLACK, r.member[FAULTS].value);
	EXPECT_GT(IDLE_SLACK, r.member[SWITCHES].value);
}

/*
 * Disabling the leader alone stops the whole group, but the members stay
 * enabled: enabling the leader (alone) starts them again.  Read on its
 * own, a member of a disabled leader stands still, time_enabled included:
 * 6.1 accounts a member's times by the state of its group (the leader's
 * state while that is OFF or below, the member's own otherwise).
 */
TEST_F(ops, disable_leader_stops_group)
{
	struct value_times ma, mb;
	struct group_reading a, b;
	int *fd = self->g.fd;
	int i;

	/* A group whose members read themselves, not the group. */
	group_close(&self->g);
	for (i = 0; i < NR_EVENTS; i++) {
		fd[i] = sw_event_open_group(configs[i],
					    i == LEADER ? GROUP_FMT : RF_TIMES,
					    false, 0, -1,
					    i == LEADER ? -1 : fd[LEADER]);
		ASSERT_LE(0, fd[i]);
	}

	ASSERT_EQ(0, ioctl(fd[LEADER], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_group(fd[LEADER], GROUP_FMT, &a));
	ASSERT_EQ(0, read_value_times(fd[FAULTS], &ma));
	group_work(&self->g);
	ASSERT_EQ(0, read_group(fd[LEADER], GROUP_FMT, &b));
	ASSERT_EQ(0, read_value_times(fd[FAULTS], &mb));
	ASSERT_EQ(NR_EVENTS, b.nr);
	expect_frozen(_metadata, &a, &b);
	EXPECT_EQ(ma.value, mb.value);
	EXPECT_EQ(ma.enabled, mb.enabled);
	EXPECT_EQ(ma.running, mb.running);

	ASSERT_EQ(0, ioctl(fd[LEADER], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, read_group(fd[LEADER], GROUP_FMT, &a));
	ASSERT_EQ(0, read_value_times(fd[FAULTS], &ma));
	group_work(&self->g);
	ASSERT_EQ(0, read_group(fd[LEADER], GROUP_FMT, &b));
	ASSERT_EQ(0, read_value_times(fd[FAULTS], &mb));
	expect_counted(_metadata, &a, &b);
	EXPECT_LE(ma.value + TOUCH_PAGES, mb.value);
	EXPECT_LT(ma.enabled, mb.enabled);
	EXPECT_LT(ma.running, mb.running);
}

/*
 * A member runs exactly while its leader runs: as the group goes off the
 * CPU at each context switch, leader first, the member is still running
 * until it goes too.  Its own times, read alone, are the leader's.
 */
TEST(member_times_are_the_leaders)
{
	struct value_times l, m;
	int leader, member;

	leader = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, true, 0, -1);
	ASSERT_LE(0, leader);
	member = sw_event_open_group(PERF_COUNT_SW_CONTEXT_SWITCHES, RF_TIMES,
				     false, 0, -1, leader);
	ASSERT_LE(0, member);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	switch_out(NR_SLEEPS);
	spin_cpu_ns(NSEC_PER_MSEC);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_value_times(leader, &l));
	ASSERT_EQ(0, read_value_times(member, &m));
	EXPECT_LE(NR_SLEEPS, m.value);
	EXPECT_LT(0, l.running);
	EXPECT_EQ(l.enabled, m.enabled);
	EXPECT_EQ(l.running, m.running)
		TH_LOG("leader ran %llu of %llu ns, member %llu of %llu",
		       l.running, l.enabled, m.running, m.enabled);
	close(member);
	close(leader);
}

/*
 * Closing the leader breaks the group up: each member reads as a group of
 * one, itself, and goes on counting; it can now lead a group of its own.
 */
TEST_F(ops, close_leader)
{
	struct group_reading a, b;
	int m, fd;

	group_work(&self->g);
	read_ops(_metadata, self->g.fd[FAULTS], &a);
	ASSERT_EQ(0, close(self->g.fd[LEADER]));
	self->g.fd[LEADER] = -1;

	for (m = FAULTS; m < NR_EVENTS; m++) {
		ASSERT_EQ(0, read_group(self->g.fd[m], GROUP_FMT, &b));
		ASSERT_EQ(1, b.nr);
		EXPECT_EQ(self->g.id[m], b.member[0].id);
		EXPECT_LE(a.member[m].value, b.member[0].value);
		EXPECT_LT(0, b.running);
		EXPECT_LE(b.running, b.enabled);
	}

	ASSERT_EQ(0, read_group(self->g.fd[FAULTS], GROUP_FMT, &a));
	ASSERT_EQ(0, read_group(self->g.fd[SWITCHES], GROUP_FMT, &b));
	group_work(&self->g);
	for (m = FAULTS; m < NR_EVENTS; m++) {
		struct group_reading *before = m == FAULTS ? &a : &b;
		struct group_reading after;

		ASSERT_EQ(0, read_group(self->g.fd[m], GROUP_FMT, &after));
		ASSERT_EQ(1, after.nr);
		EXPECT_LE(before->member[0].value +
			  (m == FAULTS ? TOUCH_PAGES : NR_SLEEPS),
			  after.member[0].value);
		EXPECT_LT(before->enabled, after.enabled);
		EXPECT_LT(before->running, after.running);
	}

	/* A former member leads a new group. */
	fd = sw_event_open_group(PERF_COUNT_SW_TASK_CLOCK, GROUP_FMT, false,
				 0, -1, self->g.fd[FAULTS]);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, read_group(self->g.fd[FAULTS], GROUP_FMT, &a));
	EXPECT_EQ(2, a.nr);
	close(fd);
}

/* Open a task-clock on @pid/@cpu in the group of @group_fd; 0 or errno. */
static int join_err(struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group_fd)
{
	int fd = sys_perf_event_open(attr, pid, cpu, group_fd, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int join(pid_t pid, int cpu, int group_fd)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	return join_err(&attr, pid, cpu, group_fd);
}

/* Only a leader can be given as group_fd. */
TEST(group_fd_is_member)
{
	int lead, member;

	lead = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, 0, -1);
	ASSERT_LE(0, lead);
	member = sw_event_open_group(PERF_COUNT_SW_PAGE_FAULTS, 0, false,
				     0, -1, lead);
	ASSERT_LE(0, member);
	EXPECT_EQ(EINVAL, join(0, -1, member));
	EXPECT_EQ(0, join(0, -1, lead));
	close(member);
	close(lead);
}

/* Only a leader can be pinned or exclusive. */
TEST(pinned_or_exclusive_member)
{
	struct perf_event_attr attr;
	int lead;

	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.pinned = 1;
	lead = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, lead);

	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.pinned = 1;
	EXPECT_EQ(EINVAL, join_err(&attr, 0, -1, lead));
	attr.pinned = 0;
	attr.exclusive = 1;
	EXPECT_EQ(EINVAL, join_err(&attr, 0, -1, lead));
	attr.exclusive = 0;
	EXPECT_EQ(0, join_err(&attr, 0, -1, lead));
	close(lead);
}

/* Leader and members count on the same CPU (or all on any CPU). */
TEST(member_on_other_cpu)
{
	int cpus[2], nr, lead;

	nr = allowed_cpus(cpus, 2);
	ASSERT_LE(1, nr);

	lead = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, 0, -1);
	ASSERT_LE(0, lead);
	EXPECT_EQ(EINVAL, join(0, cpus[0], lead));
	close(lead);

	lead = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, 0, cpus[0]);
	ASSERT_LE(0, lead);
	EXPECT_EQ(EINVAL, join(0, -1, lead));
	if (nr > 1)
		EXPECT_EQ(EINVAL, join(0, cpus[1], lead));
	EXPECT_EQ(0, join(0, cpus[0], lead));
	close(lead);

	/* The same for CPU-wide events. */
	lead = sw_event_open(PERF_COUNT_SW_CPU_CLOCK, 0, false, -1, cpus[0]);
	ASSERT_LE(0, lead);
	if (nr > 1)
		EXPECT_EQ(EINVAL, join(-1, cpus[1], lead));
	EXPECT_EQ(0, join(-1, cpus[0], lead));
	/* Nor can a task's event join a CPU-wide group on its CPU. */
	EXPECT_EQ(EINVAL, join(0, cpus[0], lead));
	close(lead);
}

/* A group follows one task: a leader on a child takes no member on us. */
TEST(leader_of_other_task)
{
	struct gated_child c;
	int lead;

	ASSERT_LE(0, fork_gated(&c, NULL));
	if (c.pid == 0)
		_exit(0);

	lead = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, c.pid, -1);
	ASSERT_LE(0, lead);
	EXPECT_EQ(EINVAL, join(0, -1, lead));
	EXPECT_EQ(0, join(c.pid, -1, lead));
	close(lead);

	/* And the other way round. */
	lead = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, 0, false, 0, -1);
	ASSERT_LE(0, lead);
	EXPECT_EQ(EINVAL, join(c.pid, -1, lead));
	close(lead);

	ASSERT_EQ(0, gate_release(&c));
	EXPECT_LE(0, gated_wait(&c));
}

/*
 * A group that grows and shrinks between reads: each read gives the
 * members there are at that moment, with their ids, in order.  (Ours
 * keeps a group read's buffer for the next read, grown when the group
 * outgrows it.)
 */
TEST(group_grows_and_shrinks)
{
	const __u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			  PERF_FORMAT_TOTAL_TIME_ENABLED;
	int fd[GROUP_MAX_MEMBERS], step, n, i;
	static const int sizes[] = { 3, GROUP_MAX_MEMBERS, 4, 6 };
	__u64 id[GROUP_MAX_MEMBERS];
	struct group_reading r;

	n = 0;
	for (step = 0; step < 4; step++) {
		for (; n < sizes[step]; n++) {
			fd[n] = sw_event_open_group(PERF_COUNT_SW_TASK_CLOCK,
						    fmt, false, 0, -1,
						    n ? fd[0] : -1);
			ASSERT_LE(0, fd[n]);
			ASSERT_EQ(0, ioctl(fd[n], PERF_EVENT_IOC_ID, &id[n]));
		}
		for (; n > sizes[step]; n--)
			close(fd[n - 1]);
		ASSERT_EQ(0, read_group(fd[0], fmt, &r));
		ASSERT_EQ(n, r.nr);
		for (i = 0; i < n; i++)
			EXPECT_EQ(id[i], r.member[i].id);
		EXPECT_LT(0, r.enabled);
	}
	for (i = 0; i < n; i++)
		close(fd[i]);
}

TEST_HARNESS_MAIN
