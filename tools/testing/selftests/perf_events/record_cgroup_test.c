// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroups in the ring buffer, as Linux 6.1 writes them:
 *
 *  - PERF_RECORD_CGROUP (attr.cgroup) when a cgroup is made: its id and
 *    its path from the root of the hierarchy (as the task making it sees
 *    it), NUL padded to 8 bytes, then the sample_id trailer.  It goes to
 *    the events of the task that made the cgroup and to the CPU-wide
 *    events of the CPU it ran on, not to others (on 6.1, only to
 *    CPU-wide events that ask for older kinds of record too).
 *  - PERF_SAMPLE_CGROUP: the id of the cgroup the sampled task was in
 *    when the sample was taken.
 *
 * The id is the one user space finds for the cgroup's directory: its
 * inode number, which is also what name_to_handle_at() returns there.
 * Both are of the hierarchy the perf_event controller is on; the tests
 * use cgroup v2 (see cgroup_util.h).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sys/stat.h>

#include "perf_test_util.h"
#include "cgroup_util.h"
#include "perf_record_util.h"
#include "../kselftest_harness.h"

#define MNT	"/tmp/perf_record_cgroup_test"

/* The inode number of @path, which is the id of a cgroup there; or 0. */
static __u64 cg_id(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

/* ... and the same id, the way perf finds it. */
static __u64 cg_handle_id(const char *path)
{
	union {
		struct file_handle fh;
		char space[sizeof(struct file_handle) + sizeof(__u64)];
	} h = { .fh.handle_bytes = sizeof(__u64) };
	int mount_id;
	__u64 id;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) ||
	    h.fh.handle_bytes != sizeof(id))
		return 0;
	memcpy(&id, h.fh.f_handle, sizeof(id));
	return id;
}

FIXTURE(cgrec) {
	const char *skip;	/* why the tests cannot run, or NULL */
	struct cg_root cg;
	char own[PATH_MAX];	/* the test's own cgroup */
	char dir[256];		/* a cgroup of the test's */
	char made[300];		/* one a test makes below it */
	const char *made_path;	/* @made relative to the root */
	int dirfd;
	char buf[RB_COPY_MAX];
};

FIXTURE_SETUP(cgrec)
{
	self->dirfd = -1;
	if (cg_root_init(&self->cg, MNT)) {
		self->skip = "cannot mount cgroup2";
		return;
	}
	ASSERT_EQ(0, cg_own(self->cg.root, self->own, sizeof(self->own)));
	snprintf(self->dir, sizeof(self->dir), "%s/perf_cgrec.%d",
		 self->cg.root, getpid());
	snprintf(self->made, sizeof(self->made), "%s/made", self->dir);
	self->made_path = self->made + strlen(self->cg.root);
	ASSERT_EQ(0, mkdir(self->dir, 0755));
	self->dirfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, self->dirfd);
	if (cg_perf_ready(&self->cg, self->dirfd)) {
		ASSERT_EQ(ENOENT, errno);
		self->skip = "no perf_event controller on cgroup2";
	}
}

FIXTURE_TEARDOWN(cgrec)
{
	if (self->dirfd >= 0)
		close(self->dirfd);
	if (self->own[0])
		cg_move(self->own, 0);
	cg_remove(self->made);
	cg_remove(self->dir);
	cg_root_fini(&self->cg);
}

/* The CGROUP record with id @id in @buf, or NULL. */
static struct perf_event_header *find_cgroup(void *buf, ssize_t len, __u64 id)
{
	struct perf_event_header *h;

	rec_for_each(h, buf, len) {
		if (h->type == PERF_RECORD_CGROUP &&
		    h->size >= sizeof(*h) + sizeof(__u64) &&
		    *(__u64 *)(h + 1) == id)
			return h;
	}
	return NULL;
}

/*
 * Check record @h of event @e (opened with SB_SAMPLE_TYPE) for the
 * cgroup @path (from the root) made by this thread on @cpu (-1: any).
 */
static void check_record(struct __test_metadata *_metadata,
			 struct perf_event_header *h, struct rb_event *e,
			 const char *path, int cpu)
{
	struct rec_sample_id sid;
	ssize_t body;
	const char *name;

	ASSERT_NE(NULL, h);
	EXPECT_EQ(0, h->misc);
	body = rec_sample_id(h, SB_SAMPLE_TYPE, &sid);
	ASSERT_GT(body, (ssize_t)sizeof(__u64));
	name = (const char *)(h + 1) + sizeof(__u64);
	EXPECT_TRUE(rec_string_ok(name, body - sizeof(__u64)));
	EXPECT_STREQ(path, name);
	EXPECT_EQ(getpid(), sid.pid);
	EXPECT_EQ(gettid(), sid.tid);
	EXPECT_EQ(e->id, sid.id);
	EXPECT_EQ(e->id, sid.identifier);
	EXPECT_NE(0, sid.time);
	if (cpu >= 0)
		EXPECT_EQ(cpu, sid.cpu);
}

/* A new cgroup, nested, is told of with its id and path. */
TEST_F(cgrec, made_by_task)
{
	struct perf_event_attr attr;
	struct rb_event e;
	ssize_t len;
	__u64 id;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	sb_attr_init(&attr);
	attr.cgroup = 1;
	ASSERT_EQ(0, rb_event_open(&e, &attr, 0, -1, 16));
	ASSERT_EQ(0, mkdir(self->made, 0755));
	id = cg_id(self->made);
	ASSERT_NE(0, id);
	EXPECT_EQ(id, cg_handle_id(self->made));
	len = rec_drain(&e.ring, self->buf, sizeof(self->buf));
	ASSERT_LE(0, len);
	check_record(_metadata, find_cgroup(self->buf, len, id), &e,
		     self->made_path, -1);
	rb_event_close(&e);
}

/* Only events that set attr.cgroup get the record; a disabled one not. */
TEST_F(cgrec, only_when_asked)
{
	struct perf_event_attr attr;
	struct rb_event comm, off;
	struct perf_event_header *h;
	ssize_t len;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	sb_attr_init(&attr);
	attr.comm = 1;
	ASSERT_EQ(0, rb_event_open(&comm, &attr, 0, -1, 16));
	sb_attr_init(&attr);
	attr.cgroup = 1;
	attr.disabled = 1;
	ASSERT_EQ(0, rb_event_open(&off, &attr, 0, -1, 16));
	ASSERT_EQ(0, mkdir(self->made, 0755));
	len = rec_drain(&comm.ring, self->buf, sizeof(self->buf));
	ASSERT_LE(0, len);
	rec_for_each(h, self->buf, len)
		EXPECT_NE(PERF_RECORD_CGROUP, h->type);
	len = rec_drain(&off.ring, self->buf, sizeof(self->buf));
	ASSERT_LE(0, len);
	EXPECT_EQ(0, len);
	rb_event_close(&comm);
	rb_event_close(&off);
}

/* Another task's event hears nothing of our mkdir. */
TEST_F(cgrec, other_task)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct rb_event e;
	struct gated_child child;
	ssize_t len;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	if (fork_gated(&child, NULL) == 0)
		_exit(0);
	ASSERT_LT(0, child.pid);
	sb_attr_init(&attr);
	attr.cgroup = 1;
	ASSERT_EQ(0, rb_event_open(&e, &attr, child.pid, -1, 16));
	ASSERT_EQ(0, mkdir(self->made, 0755));
	len = rec_drain(&e.ring, self->buf, sizeof(self->buf));
	ASSERT_LE(0, len);
	rec_for_each(h, self->buf, len)
		EXPECT_NE(PERF_RECORD_CGROUP, h->type);
	rb_event_close(&e);
	gated_wait(&child);
}

/*
 * A CPU-wide event gets the records of the cgroups made on its CPU
 * only.  6.1 offers side-band records to CPU-wide events only if they
 * ask for some of the older kinds (comm, mmap, task, ...) too, as perf's
 * tracking event does; ours also to those that ask for cgroups alone, a
 * documented extension, checked only on our kernel.
 */
static void cpu_wide(struct __test_metadata *_metadata,
		     FIXTURE_DATA(cgrec) *self, bool comm)
{
	struct perf_event_attr attr;
	struct rb_event here, there;
	ssize_t len;
	__u64 id;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	if (!comm && !ours_kernel())
		SKIP(return, "6.1 has no records for cgroup-only CPU-wide events");
	ASSERT_EQ(0, pin_to_cpu(0));
	sb_attr_init(&attr);
	attr.cgroup = 1;
	attr.comm = comm;
	ASSERT_EQ(0, rb_event_open(&here, &attr, -1, 0, 16));
	ASSERT_EQ(0, rb_event_open(&there, &attr, -1, 1, 16));
	ASSERT_EQ(0, mkdir(self->made, 0755));
	id = cg_id(self->made);
	len = rec_drain(&here.ring, self->buf, sizeof(self->buf));
	ASSERT_LE(0, len);
	check_record(_metadata, find_cgroup(self->buf, len, id), &here,
		     self->made_path, 0);
	len = rec_drain(&there.ring, self->buf, sizeof(self->buf));
	ASSERT_LE(0, len);
	EXPECT_EQ(NULL, find_cgroup(self->buf, len, id));
	rb_event_close(&here);
	rb_event_close(&there);
}

TEST_F(cgrec, cpu_wide_tracking)
{
	cpu_wide(_metadata, self, true);
}

TEST_F(cgrec, cpu_wide_cgroup_only)
{
	cpu_wide(_metadata, self, false);
}

/*
 * The cgroup ids of the samples in @e's ring: -1 if a sample
 * is malformed or none is this thread's, 0 if all of this thread's carry
 * @id, 1 if some carry another id.
 */
static int samples_in(struct rb_event *e, struct perf_event_attr *attr,
		      __u64 id)
{
	static struct samples ss;
	int i, ret = -1;

	samples_init(&ss, attr, 1);
	if (ring_collect(&e->ring, &ss) || ss.bad) {
		samples_free(&ss);
		return -1;
	}
	for (i = 0; i < ss.kept && ret != 1; i++) {
		if (ss.s[i].tid != (__u32)gettid())
			continue;
		ret = ss.s[i].cgroup == id ? 0 : 1;
	}
	samples_free(&ss);
	return ret;
}

/* Samples carry the cgroup the task is in when they are taken. */
TEST_F(cgrec, sample_cgroup)
{
	struct perf_event_attr attr;
	struct rb_event e;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1,
			 PERF_SAMPLE_TID | PERF_SAMPLE_CGROUP);
	ASSERT_EQ(0, rb_event_open(&e, &attr, 0, -1, 64));

	ASSERT_EQ(0, fault_fresh_pages(TOUCH_PAGES));
	EXPECT_EQ(0, samples_in(&e, &attr, cg_id(self->own)));

	ASSERT_EQ(0, cg_move(self->dir, 0));
	ring_drain(&e.ring, count_record, &(struct record_counts){});
	ASSERT_EQ(0, fault_fresh_pages(TOUCH_PAGES));
	EXPECT_EQ(0, samples_in(&e, &attr, cg_id(self->dir)));
	EXPECT_NE(cg_id(self->own), cg_id(self->dir));

	ASSERT_EQ(0, cg_move(self->own, 0));
	ring_drain(&e.ring, count_record, &(struct record_counts){});
	ASSERT_EQ(0, fault_fresh_pages(TOUCH_PAGES));
	EXPECT_EQ(0, samples_in(&e, &attr, cg_id(self->own)));
	rb_event_close(&e);
}

TEST_HARNESS_MAIN
