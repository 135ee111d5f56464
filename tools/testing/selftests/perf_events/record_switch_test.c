// SPDX-License-Identifier: GPL-2.0
/*
 * Context switch records (attr.context_switch), as Linux 6.1 writes them.
 *
 * An event that follows a task gets PERF_RECORD_SWITCH each time the
 * task is switched in (misc 0) or out (PERF_RECORD_MISC_SWITCH_OUT, with
 * PERF_RECORD_MISC_SWITCH_OUT_PREEMPT if the task was still runnable).
 * A CPU-wide event gets PERF_RECORD_SWITCH_CPU_WIDE for every switch on
 * its CPU, naming the task switched to (out) or from (in); the sample_id
 * trailer names the task the record is about.
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "perf_test_util.h"
#include "perf_record_util.h"
#include "../kselftest_harness.h"

#define RB_PAGES	64

#define SWITCH_OUT_PREEMPT	(PERF_RECORD_MISC_SWITCH_OUT | \
				 PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)

static char rbuf[RB_COPY_MAX];

struct switch_cpu_rec {
	struct perf_event_header h;
	__u32 next_prev_pid, next_prev_tid;
};

FIXTURE(sw) {
	int cpu;
	struct perf_event_attr attr;
	struct rb_event ev;
	pid_t spinner;
};

FIXTURE_SETUP(sw)
{
	self->ev.fd = -1;
	self->ev.ring.map = NULL;
	self->spinner = -1;
	ASSERT_EQ(1, allowed_cpus(&self->cpu, 1));
	ASSERT_EQ(0, pin_to_cpu(self->cpu));
	sb_attr_init(&self->attr);
	self->attr.context_switch = 1;
}

FIXTURE_TEARDOWN(sw)
{
	if (self->spinner > 0) {
		kill(self->spinner, SIGKILL);
		waitpid(self->spinner, NULL, 0);
	}
	rb_event_close(&self->ev);
}

/* A child spinning on our CPU, so that we get preempted. */
static pid_t start_spinner(void)
{
	pid_t pid = fork();

	if (!pid)
		for (;;)
			;
	return pid;
}

/*
 * Our own switches: out when we sleep (not preempted), out preempted
 * when a spinner on our CPU takes over, in after each; every trailer
 * names us.
 */
TEST_F(sw, per_task)
{
	int in = 0, out = 0, preempted = 0, last_out = -1;
	struct perf_event_header *h;
	struct rec_sample_id sid;
	ssize_t len;

	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1,
				   RB_PAGES));
	/* Blocking switches. */
	switch_out(3);
	/* Preemptions: share the CPU with a spinner for a while. */
	self->spinner = start_spinner();
	ASSERT_LT(0, self->spinner);
	spin_cpu_ns(100 * NSEC_PER_MSEC);
	kill(self->spinner, SIGKILL);
	waitpid(self->spinner, NULL, 0);
	self->spinner = -1;

	len = rec_drain(&self->ev.ring, rbuf, sizeof(rbuf));
	ASSERT_LT(0, len);
	rec_for_each(h, rbuf, len) {
		ASSERT_EQ(PERF_RECORD_SWITCH, h->type);
		ASSERT_EQ(0, rec_sample_id(h, SB_SAMPLE_TYPE, &sid));
		EXPECT_EQ(getpid(), sid.pid);
		EXPECT_EQ(gettid(), sid.tid);
		EXPECT_EQ(self->ev.id, sid.id);
		EXPECT_EQ(self->ev.id, sid.identifier);
		EXPECT_EQ(self->cpu, sid.cpu);
		EXPECT_NE(0, sid.time);
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT) {
			/* Out, then in: they alternate. */
			EXPECT_NE(1, last_out);
			last_out = 1;
			out++;
			if (h->misc == SWITCH_OUT_PREEMPT) {
				preempted++;
			} else {
				EXPECT_EQ(PERF_RECORD_MISC_SWITCH_OUT,
					  h->misc);
			}
		} else {
			EXPECT_EQ(0, h->misc);
			EXPECT_NE(0, last_out);
			last_out = 0;
			in++;
		}
	}
	EXPECT_LE(3, out);
	EXPECT_LE(1, preempted);
	EXPECT_LE(1, out - preempted);
	EXPECT_LE(out - 1, in);
}

/*
 * An inherited event's copy writes the switches of the child it follows
 * (perf record --switch-events follows children so).  With inherit_stat
 * ours never hands the parent's context to the child at a switch, so the
 * child's records come from its copy.
 */
TEST_F(sw, inherited_copy)
{
	struct perf_event_header *h;
	struct rec_sample_id sid;
	int child_recs = 0, status;
	ssize_t len;
	pid_t pid;

	self->attr.inherit = 1;
	self->attr.inherit_stat = 1;
	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, self->cpu,
				   RB_PAGES));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		switch_out(3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);

	len = rec_drain(&self->ev.ring, rbuf, sizeof(rbuf));
	ASSERT_LT(0, len);
	rec_for_each(h, rbuf, len) {
		if (h->type != PERF_RECORD_SWITCH)
			continue;
		ASSERT_EQ(0, rec_sample_id(h, SB_SAMPLE_TYPE, &sid));
		child_recs += sid.tid == (__u32)pid;
	}
	/* Out and in around each of the child's three sleeps at least. */
	EXPECT_LE(6, child_recs);
}

/* Without attr.context_switch: nothing. */
TEST_F(sw, not_asked)
{
	ssize_t len;

	self->attr.context_switch = 0;
	self->attr.task = 1;
	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1,
				   RB_PAGES));
	switch_out(3);
	len = rec_drain(&self->ev.ring, rbuf, sizeof(rbuf));
	EXPECT_EQ(0, len);
}

/*
 * CPU-wide: every switch on the CPU, naming the other task.  Our
 * switches out name the task that follows; its switch in names us.
 */
TEST_F(sw, cpu_wide)
{
	struct perf_event_header *h, *h2;
	struct rec_sample_id sid, sid2;
	int ours_out = 0, paired = 0;
	struct switch_cpu_rec *r;
	ssize_t len;

	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, -1, self->cpu,
				   RB_PAGES));
	switch_out(3);
	len = rec_drain(&self->ev.ring, rbuf, sizeof(rbuf));
	ASSERT_LT(0, len);

	rec_for_each(h, rbuf, len) {
		ASSERT_EQ(PERF_RECORD_SWITCH_CPU_WIDE, h->type);
		ASSERT_EQ(8, rec_sample_id(h, SB_SAMPLE_TYPE, &sid));
		EXPECT_EQ(self->ev.id, sid.id);
		EXPECT_EQ(self->cpu, sid.cpu);
		EXPECT_EQ(0, h->misc & ~SWITCH_OUT_PREEMPT);
		if (!(h->misc & PERF_RECORD_MISC_SWITCH_OUT) ||
		    sid.tid != (__u32)gettid())
			continue;
		ours_out++;
		r = (struct switch_cpu_rec *)h;
		EXPECT_NE(gettid(), r->next_prev_tid);
		/* The next switch in on this CPU is that of the next task. */
		for (h2 = (void *)((char *)h + h->size);
		     (char *)h2 < rbuf + len;
		     h2 = (void *)((char *)h2 + h2->size)) {
			if (h2->misc & PERF_RECORD_MISC_SWITCH_OUT)
				continue;
			ASSERT_EQ(8, rec_sample_id(h2, SB_SAMPLE_TYPE, &sid2));
			EXPECT_EQ(r->next_prev_tid, sid2.tid);
			EXPECT_EQ(r->next_prev_pid, sid2.pid);
			EXPECT_EQ(gettid(),
				  ((struct switch_cpu_rec *)h2)->next_prev_tid);
			EXPECT_EQ(getpid(),
				  ((struct switch_cpu_rec *)h2)->next_prev_pid);
			paired++;
			break;
		}
	}
	EXPECT_LE(3, ours_out);
	EXPECT_LE(2, paired);
}

TEST_HARNESS_MAIN
