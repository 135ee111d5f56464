// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records about tasks, as Linux 6.1 writes them:
 *
 *  - PERF_RECORD_COMM (attr.comm) when a task is renamed: prctl(), a
 *    write to /proc/<pid>/task/<tid>/comm, and exec, which sets
 *    PERF_RECORD_MISC_COMM_EXEC.  The record goes to the events of the
 *    task doing the renaming and names the renamed one.
 *  - PERF_RECORD_FORK and PERF_RECORD_EXIT (attr.task, and also comm
 *    and the mmap bits): FORK to the events of the forking task, EXIT to
 *    those of the exiting one (an inherited copy writes into the buffer
 *    of the event user space opened).  FORK names the parent as ppid and
 *    ptid; EXIT names the process of the task's real parent in both.
 *  - PERF_RECORD_NAMESPACES (attr.namespaces) for a new task and after
 *    unshare(): the device and inode of each namespace, as stat() on
 *    /proc/<pid>/ns/ reports them, zero for those the kernel lacks.
 *  - Exec: an event that enable_on_exec turns on sees the new program's
 *    COMM, then its mappings, then its EXIT.
 *  - inherit_stat: an inherited copy reports its values in a
 *    PERF_RECORD_READ when its task exits.  6.1 does not: it detaches
 *    the copy only once the task is gone, and writes READ records only
 *    for the copies of a closed event whose tasks still live.  Writing
 *    it at exit is a documented extension of ours, so that test skips
 *    on kernels without our perf_test PMU (the reference).
 *
 * Every record carries a sample_id trailer, checked field by field.
 *
 * And who may ask: without CAP_PERFMON, namespaces records are refused,
 * and so are text_poke records unless perf_event_paranoid lets the
 * caller see the kernel (they describe kernel text).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "perf_test_util.h"
#include "perf_record_util.h"
#include "../kselftest_harness.h"

#define RB_PAGES	16

static char rbuf[RB_COPY_MAX];

struct task_rec {		/* PERF_RECORD_FORK and _EXIT */
	struct perf_event_header h;
	__u32 pid, ppid, tid, ptid;
	__u64 time;
};

struct comm_rec {
	struct perf_event_header h;
	__u32 pid, tid;
	char comm[];
};

struct ns_rec {
	struct perf_event_header h;
	__u32 pid, tid;
	__u64 nr;
	struct perf_ns_link_info ns[];
};

/*
 * The test pins itself to one CPU, so that per-CPU inherited events (the
 * only kind that can have a buffer) see its children, which inherit the
 * affinity.
 */
static int pin_first_cpu(void)
{
	int cpu;

	if (allowed_cpus(&cpu, 1) != 1 || pin_to_cpu(cpu))
		return -1;
	return cpu;
}

/* The trailer of @h must name (@pid, @tid), the event @id, CPU @cpu. */
static void check_trailer(struct __test_metadata *_metadata,
			  const struct perf_event_header *h, pid_t pid,
			  pid_t tid, __u64 id, int cpu, bool inherited)
{
	struct rec_sample_id sid;

	ASSERT_LE(0, rec_sample_id(h, SB_SAMPLE_TYPE, &sid));
	EXPECT_EQ(pid, sid.pid);
	EXPECT_EQ(tid, sid.tid);
	EXPECT_NE(0, sid.time);
	EXPECT_EQ(id, sid.id);
	EXPECT_EQ(id, sid.identifier);
	/*
	 * The id is the one user space knows.  The stream id is that of the
	 * event that wrote: an inherited copy's own, or (6.1 swaps the
	 * contexts of a parent and child that run on one CPU) the original's.
	 */
	EXPECT_EQ(inherited ? sid.stream_id : id, sid.stream_id);
	EXPECT_NE(0, sid.stream_id);
	EXPECT_EQ(cpu >= 0 ? cpu : sid.cpu, sid.cpu);
	EXPECT_EQ(0, sid.res);
}

/* Fork a child that runs @work (if not NULL) and exits; reap it: its pid. */
static pid_t fork_and_reap(struct __test_metadata *_metadata,
			   int (*work)(void))
{
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (!child)
		_exit(work && work() ? 1 : 0);
	ASSERT_EQ(0, reap_status(child));
	return child;
}

/* The first record of @type whose task field is @tid (-1: any). */
static struct perf_event_header *find_rec(char *buf, ssize_t len, __u32 type,
					  pid_t tid)
{
	struct perf_event_header *h;
	__u32 rec_tid;

	rec_for_each(h, buf, len) {
		if (h->type != type)
			continue;
		if (tid == -1)
			return h;
		switch (type) {
		case PERF_RECORD_FORK:
		case PERF_RECORD_EXIT:
			rec_tid = ((struct task_rec *)h)->tid;
			break;
		case PERF_RECORD_COMM:
			rec_tid = ((struct comm_rec *)h)->tid;
			break;
		case PERF_RECORD_NAMESPACES:
			rec_tid = ((struct ns_rec *)h)->tid;
			break;
		default:
			return h;
		}
		if (rec_tid == (__u32)tid)
			return h;
	}
	return NULL;
}

static int count_type(char *buf, ssize_t len, __u32 type)
{
	struct perf_event_header *h;
	int n = 0;

	rec_for_each(h, buf, len)
		n += h->type == type;
	return n;
}

static void check_comm(struct __test_metadata *_metadata,
		       struct perf_event_header *h, pid_t pid, pid_t tid,
		       const char *comm, __u16 misc)
{
	struct comm_rec *c = (struct comm_rec *)h;
	ssize_t body;
	struct rec_sample_id sid;

	body = rec_sample_id(h, SB_SAMPLE_TYPE, &sid);
	ASSERT_LT(8, body);
	EXPECT_EQ(misc, h->misc);
	EXPECT_EQ(pid, c->pid);
	EXPECT_EQ(tid, c->tid);
	EXPECT_STREQ(comm, c->comm);
	EXPECT_TRUE(rec_string_ok(c->comm, body - 8));
}

FIXTURE(task) {
	int cpu;
	struct perf_event_attr attr;
	struct rb_event ev;
};

FIXTURE_SETUP(task)
{
	self->ev.fd = -1;
	self->ev.ring.map = NULL;
	self->cpu = pin_first_cpu();
	ASSERT_LE(0, self->cpu);
	sb_attr_init(&self->attr);
}

FIXTURE_TEARDOWN(task)
{
	rb_event_close(&self->ev);
}

/* Open @attr on this task, per CPU (on @cpu) if it is inherited. */
static void open_self(struct __test_metadata *_metadata, struct rb_event *ev,
		      struct perf_event_attr *attr, int cpu)
{
	ASSERT_EQ(0, rb_event_open(ev, attr, 0, attr->inherit ? cpu : -1,
				   RB_PAGES));
}

/* Everything the event's buffer holds, into rbuf. */
static ssize_t drain(struct __test_metadata *_metadata, struct rb_event *ev)
{
	ssize_t len = rec_drain(&ev->ring, rbuf, sizeof(rbuf));

	EXPECT_LE(0, len);
	return len < 0 ? 0 : len;
}

/* The trailer of a record this thread caused, in the fixture's event. */
static void check_own_trailer(struct __test_metadata *_metadata,
			      FIXTURE_DATA(task) *self,
			      const struct perf_event_header *h)
{
	check_trailer(_metadata, h, getpid(), gettid(), self->ev.id, self->cpu,
		      false);
}

/* prctl(PR_SET_NAME) and /proc/self/comm: a COMM without COMM_EXEC. */
TEST_F(task, comm_prctl_and_proc)
{
	struct perf_event_header *h;
	ssize_t len;

	self->attr.comm = 1;
	self->attr.comm_exec = 1;
	open_self(_metadata, &self->ev, &self->attr, self->cpu);

	ASSERT_EQ(0, prctl(PR_SET_NAME, "rec-comm-one"));
	ASSERT_EQ(0, write_str_file("/proc/self/comm", "rec-comm-two"));

	len = drain(_metadata, &self->ev);
	ASSERT_EQ(2, count_type(rbuf, len, PERF_RECORD_COMM));
	h = find_rec(rbuf, len, PERF_RECORD_COMM, gettid());
	ASSERT_NE(NULL, h);
	check_comm(_metadata, h, getpid(), gettid(), "rec-comm-one", 0);
	check_own_trailer(_metadata, self, h);
	h = (void *)((char *)h + h->size);
	check_comm(_metadata, h, getpid(), gettid(), "rec-comm-two", 0);
	check_own_trailer(_metadata, self, h);
}

/* Names of 15 characters fill the comm: the record pads to 16 + 8. */
TEST_F(task, comm_long_name)
{
	struct perf_event_header *h;
	struct rec_sample_id sid;
	ssize_t len;

	self->attr.comm = 1;
	open_self(_metadata, &self->ev, &self->attr, self->cpu);
	ASSERT_EQ(0, prctl(PR_SET_NAME, "0123456789abcdefghij"));
	len = drain(_metadata, &self->ev);
	h = find_rec(rbuf, len, PERF_RECORD_COMM, gettid());
	ASSERT_NE(NULL, h);
	EXPECT_EQ(8 + 16, rec_sample_id(h, SB_SAMPLE_TYPE, &sid));
	check_comm(_metadata, h, getpid(), gettid(), "0123456789abcde", 0);
}

static void *idle_thread(void *arg)
{
	return arg;
}

/* Tell our tid through pipe[1], then wait for a byte on pipe[0]. */
static void *wait_thread(void *arg)
{
	int *p = arg;
	pid_t tid = gettid();
	char ch;

	if (write(p[1], &tid, sizeof(tid)) != sizeof(tid) ||
	    read(p[0], &ch, 1) != 1)
		return arg;
	return NULL;
}

/*
 * Renaming another thread: the record goes to the renaming thread's
 * events and names the renamed thread.
 */
TEST_F(task, comm_other_thread)
{
	struct perf_event_header *h;
	int to_thread[2], from_thread[2], p[2];
	char path[64];
	pthread_t t;
	pid_t tid;
	ssize_t len;

	ASSERT_EQ(0, pipe(to_thread));
	ASSERT_EQ(0, pipe(from_thread));
	p[0] = to_thread[0];
	p[1] = from_thread[1];
	ASSERT_EQ(0, pthread_create(&t, NULL, wait_thread, p));
	ASSERT_EQ(sizeof(tid), read(from_thread[0], &tid, sizeof(tid)));
	ASSERT_NE(gettid(), tid);

	self->attr.comm = 1;
	open_self(_metadata, &self->ev, &self->attr, self->cpu);
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
	ASSERT_EQ(0, write_str_file(path, "rec-thread"));

	ASSERT_EQ(1, write(to_thread[1], "x", 1));
	ASSERT_EQ(0, pthread_join(t, NULL));
	close(to_thread[0]);
	close(to_thread[1]);
	close(from_thread[0]);
	close(from_thread[1]);

	len = drain(_metadata, &self->ev);
	EXPECT_EQ(1, count_type(rbuf, len, PERF_RECORD_COMM));
	h = find_rec(rbuf, len, PERF_RECORD_COMM, tid);
	ASSERT_NE(NULL, h);
	check_comm(_metadata, h, getpid(), tid, "rec-thread", 0);
	check_own_trailer(_metadata, self, h);
}

/* An event without attr.comm gets no COMM; a disabled one neither. */
TEST_F(task, comm_not_asked_or_disabled)
{
	struct perf_event_attr attr;
	struct rb_event ev2;
	ssize_t len;

	self->attr.task = 1;
	open_self(_metadata, &self->ev, &self->attr, self->cpu);
	sb_attr_init(&attr);
	attr.comm = 1;
	attr.disabled = 1;
	ASSERT_EQ(0, rb_event_open(&ev2, &attr, 0, -1, RB_PAGES));

	ASSERT_EQ(0, prctl(PR_SET_NAME, "rec-nobody"));

	len = drain(_metadata, &self->ev);
	EXPECT_EQ(0, count_type(rbuf, len, PERF_RECORD_COMM));
	EXPECT_EQ(0, drain(_metadata, &ev2));

	/* Enabled, it does. */
	ASSERT_EQ(0, ioctl(ev2.fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, prctl(PR_SET_NAME, "rec-somebody"));
	len = drain(_metadata, &ev2);
	EXPECT_EQ(1, count_type(rbuf, len, PERF_RECORD_COMM));
	rb_event_close(&ev2);
}

static void check_task_rec(struct __test_metadata *_metadata,
			   struct perf_event_header *h, pid_t pid, pid_t ppid,
			   pid_t tid, pid_t ptid)
{
	struct task_rec *t = (struct task_rec *)h;
	struct rec_sample_id sid;

	EXPECT_EQ(sizeof(*t) - sizeof(*h),
		  rec_sample_id(h, SB_SAMPLE_TYPE, &sid));
	EXPECT_EQ(0, h->misc);
	EXPECT_EQ(pid, t->pid);
	EXPECT_EQ(ppid, t->ppid);
	EXPECT_EQ(tid, t->tid);
	EXPECT_EQ(ptid, t->ptid);
	EXPECT_NE(0, t->time);
}

/* A FORK of (@pid, @tid) by this thread, in the fixture's event. */
static void check_fork(struct __test_metadata *_metadata,
		       FIXTURE_DATA(task) *self, struct perf_event_header *h,
		       pid_t pid, pid_t tid)
{
	ASSERT_NE(NULL, h);
	check_task_rec(_metadata, h, pid, getpid(), tid, gettid());
	check_own_trailer(_metadata, self, h);
}

/*
 * The EXIT of (@pid, @tid), whose real parent is of process @ppid, in the
 * fixture's event: written on CPU @cpu (-1: any), by an inherited copy
 * if @inherited.
 */
static void check_exit(struct __test_metadata *_metadata,
		       FIXTURE_DATA(task) *self, struct perf_event_header *h,
		       pid_t pid, pid_t tid, pid_t ppid, int cpu,
		       bool inherited)
{
	ASSERT_NE(NULL, h);
	check_task_rec(_metadata, h, pid, ppid, tid, ppid);
	check_trailer(_metadata, h, pid, tid, self->ev.id, cpu, inherited);
}

/*
 * fork(): FORK from the parent's event, EXIT from the child's inherited
 * copy, both into the parent's buffer.
 */
TEST_F(task, fork_and_exit)
{
	struct perf_event_header *fork_h, *exit_h;
	ssize_t len;
	pid_t child;

	self->attr.task = 1;
	self->attr.inherit = 1;
	open_self(_metadata, &self->ev, &self->attr, self->cpu);
	child = fork_and_reap(_metadata, NULL);

	len = drain(_metadata, &self->ev);
	EXPECT_EQ(1, count_type(rbuf, len, PERF_RECORD_FORK));
	EXPECT_EQ(1, count_type(rbuf, len, PERF_RECORD_EXIT));
	fork_h = find_rec(rbuf, len, PERF_RECORD_FORK, child);
	exit_h = find_rec(rbuf, len, PERF_RECORD_EXIT, child);
	ASSERT_NE(NULL, fork_h);
	ASSERT_NE(NULL, exit_h);
	EXPECT_LT((char *)fork_h, (char *)exit_h);

	check_fork(_metadata, self, fork_h, child, child);
	check_exit(_metadata, self, exit_h, child, child, getpid(), self->cpu,
		   true);
	EXPECT_LE(((struct task_rec *)fork_h)->time,
		  ((struct task_rec *)exit_h)->time);
}

/*
 * A thread: FORK names our process as pid and ppid; EXIT names the
 * process of its real parent, which is our parent.
 */
TEST_F(task, thread_fork_and_exit)
{
	struct perf_event_header *h;
	pthread_t t;
	ssize_t len;
	pid_t tid;

	self->attr.task = 1;
	self->attr.inherit = 1;
	open_self(_metadata, &self->ev, &self->attr, self->cpu);

	ASSERT_EQ(0, pthread_create(&t, NULL, idle_thread, NULL));
	ASSERT_EQ(0, pthread_join(t, NULL));
	/*
	 * pthread_join() returns once the thread has let go of its memory,
	 * which is before the exit reaches perf: wait for the EXIT.
	 */
	len = 0;
	for (int i = 0; i < 1000; i++) {
		ssize_t n = rec_drain(&self->ev.ring, rbuf + len,
					  sizeof(rbuf) - len);

		ASSERT_LE(0, n);
		len += n;
		if (count_type(rbuf, len, PERF_RECORD_EXIT))
			break;
		sleep_ms(1);
	}
	ASSERT_EQ(1, count_type(rbuf, len, PERF_RECORD_FORK));
	ASSERT_EQ(1, count_type(rbuf, len, PERF_RECORD_EXIT));
	h = find_rec(rbuf, len, PERF_RECORD_FORK, -1);
	tid = ((struct task_rec *)h)->tid;
	EXPECT_NE(getpid(), tid);
	check_fork(_metadata, self, h, getpid(), tid);
	h = find_rec(rbuf, len, PERF_RECORD_EXIT, tid);
	check_exit(_metadata, self, h, getpid(), tid, getppid(), self->cpu,
		   true);
}

/* FORK and EXIT also go to events that asked for COMM or MMAP records. */
TEST_F(task, fork_exit_for_comm_and_mmap)
{
	struct perf_event_attr attr;
	struct rb_event ev[4];
	ssize_t len;
	int i;

	for (i = 0; i < 4; i++) {
		sb_attr_init(&attr);
		attr.inherit = 1;
		attr.comm = i == 0;
		attr.mmap = i == 1;
		attr.mmap2 = i == 2;
		/* 3: nothing at all asked for */
		ASSERT_EQ(0, rb_event_open(&ev[i], &attr, 0, self->cpu,
					   RB_PAGES));
	}
	fork_and_reap(_metadata, NULL);

	for (i = 0; i < 4; i++) {
		len = drain(_metadata, &ev[i]);
		EXPECT_EQ(i < 3, count_type(rbuf, len, PERF_RECORD_FORK));
		EXPECT_EQ(i < 3, count_type(rbuf, len, PERF_RECORD_EXIT));
		rb_event_close(&ev[i]);
	}
}

/* A CPU-wide event hears of the forks and exits on its CPU. */
TEST_F(task, fork_exit_cpu_wide)
{
	struct perf_event_header *h;
	ssize_t len;
	pid_t child;

	self->attr.task = 1;
	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, -1, self->cpu,
				   RB_PAGES));
	child = fork_and_reap(_metadata, NULL);

	len = drain(_metadata, &self->ev);
	h = find_rec(rbuf, len, PERF_RECORD_FORK, child);
	check_fork(_metadata, self, h, child, child);
	h = find_rec(rbuf, len, PERF_RECORD_EXIT, child);
	check_exit(_metadata, self, h, child, child, getpid(), self->cpu,
		   false);
}

/*
 * Exec of a child that waits at a gate: an event opened on it with
 * enable_on_exec sees COMM (with COMM_EXEC), the MMAP2 records of the
 * new program and of the vDSO, then EXIT, and nothing before the exec.
 */
TEST_F(task, exec_comm_mmap_exit)
{
	struct perf_event_header *h, *comm = NULL, *exe = NULL, *vdso = NULL;
	struct perf_event_header *exit_h = NULL;
	char target[PATH_MAX];
	struct gated_child c;
	struct stat st;
	ssize_t len;
	pid_t pid;

	ASSERT_NE(NULL, realpath("/bin/true", target));
	ASSERT_EQ(0, stat(target, &st));
	if (!fork_gated(&c, NULL)) {
		prctl(PR_SET_NAME, "before-exec");
		execl("/bin/true", "true", (char *)NULL);
		_exit(5);
	}
	pid = c.pid;
	ASSERT_LT(0, pid);
	self->attr.comm = 1;
	self->attr.comm_exec = 1;
	self->attr.mmap = 1;
	self->attr.mmap2 = 1;
	self->attr.task = 1;
	ASSERT_EQ(0, rb_event_run_exec(&self->ev, &self->attr, &c, RB_PAGES));

	len = drain(_metadata, &self->ev);
	rec_for_each(h, rbuf, len) {
		struct mmap2_rec {
			struct perf_event_header h;
			__u32 pid, tid;
			__u64 addr, len, pgoff;
			__u32 maj, min;
			__u64 ino, ino_generation;
			__u32 prot, flags;
			char name[];
		} *m = (void *)h;

		if (h->type == PERF_RECORD_COMM) {
			EXPECT_EQ(NULL, comm);
			comm = h;
		} else if (h->type == PERF_RECORD_MMAP2) {
			/* Every mapping comes after the new name. */
			EXPECT_NE(NULL, comm);
			EXPECT_EQ(pid, m->pid);
			EXPECT_EQ(pid, m->tid);
			if (!strcmp(m->name, target) && m->prot & PROT_EXEC) {
				exe = h;
				EXPECT_EQ(major(st.st_dev), m->maj);
				EXPECT_EQ(minor(st.st_dev), m->min);
				EXPECT_EQ(st.st_ino, m->ino);
				EXPECT_EQ(MAP_PRIVATE, m->flags);
				EXPECT_EQ(PERF_RECORD_MISC_USER, h->misc);
			}
			if (!strcmp(m->name, "[vdso]")) {
				vdso = h;
				EXPECT_EQ(PROT_READ | PROT_EXEC, m->prot);
				EXPECT_EQ(MAP_PRIVATE, m->flags);
				EXPECT_EQ(0, m->ino);
				EXPECT_EQ(PERF_RECORD_MISC_USER, h->misc);
			}
			check_trailer(_metadata, h, pid, pid, self->ev.id, -1,
				      false);
		} else if (h->type == PERF_RECORD_EXIT) {
			exit_h = h;
		} else {
			/* Nothing else: no FORK, and nothing before exec. */
			EXPECT_EQ(0, h->type);
		}
	}
	ASSERT_NE(NULL, comm);
	check_comm(_metadata, comm, pid, pid, "true",
		   PERF_RECORD_MISC_COMM_EXEC);
	check_trailer(_metadata, comm, pid, pid, self->ev.id, -1, false);
	EXPECT_NE(NULL, exe);
	EXPECT_NE(NULL, vdso);
	ASSERT_NE(NULL, exit_h);
	EXPECT_EQ((char *)exit_h + exit_h->size, rbuf + len);
	check_exit(_metadata, self, exit_h, pid, pid, getpid(), -1, false);
}

/* stat() of /proc/<pid>/ns/<name>: the record's view, 0s if absent. */
static const char *const ns_names[NR_NAMESPACES] = {
	[NET_NS_INDEX] = "net",
	[UTS_NS_INDEX] = "uts",
	[IPC_NS_INDEX] = "ipc",
	[PID_NS_INDEX] = "pid_for_children",
	[USER_NS_INDEX] = "user",
	[MNT_NS_INDEX] = "mnt",
	[CGROUP_NS_INDEX] = "cgroup",
};

static void ns_expected(struct perf_ns_link_info *ns)
{
	char path[64];
	struct stat st;
	int i;

	for (i = 0; i < NR_NAMESPACES; i++) {
		snprintf(path, sizeof(path), "/proc/self/ns/%s", ns_names[i]);
		if (stat(path, &st)) {
			ns[i].dev = 0;
			ns[i].ino = 0;
		} else {
			ns[i].dev = st.st_dev;
			ns[i].ino = st.st_ino;
		}
	}
}

static void check_ns(struct __test_metadata *_metadata,
		     struct perf_event_header *h, pid_t pid,
		     const struct perf_ns_link_info *want)
{
	struct ns_rec *n = (struct ns_rec *)h;
	struct rec_sample_id sid;
	int i;

	ASSERT_EQ(16 + NR_NAMESPACES * sizeof(n->ns[0]),
		  rec_sample_id(h, SB_SAMPLE_TYPE, &sid));
	EXPECT_EQ(0, h->misc);
	EXPECT_EQ(pid, n->pid);
	EXPECT_EQ(pid, n->tid);
	ASSERT_EQ(NR_NAMESPACES, n->nr);
	for (i = 0; i < NR_NAMESPACES; i++) {
		EXPECT_EQ(want[i].dev, n->ns[i].dev)
			TH_LOG("namespace %s", ns_names[i]);
		EXPECT_EQ(want[i].ino, n->ns[i].ino)
			TH_LOG("namespace %s", ns_names[i]);
	}
}

/* A new task: NAMESPACES for it, from the parent's event. */
TEST_F(task, namespaces_on_fork)
{
	struct perf_ns_link_info want[NR_NAMESPACES];
	struct perf_event_header *h;
	ssize_t len;
	pid_t child;

	self->attr.namespaces = 1;
	open_self(_metadata, &self->ev, &self->attr, self->cpu);
	ns_expected(want);
	/* At least the mount namespace is always there. */
	ASSERT_NE(0, want[MNT_NS_INDEX].ino);
	child = fork_and_reap(_metadata, NULL);

	len = drain(_metadata, &self->ev);
	EXPECT_EQ(1, count_type(rbuf, len, PERF_RECORD_NAMESPACES));
	h = find_rec(rbuf, len, PERF_RECORD_NAMESPACES, child);
	ASSERT_NE(NULL, h);
	check_ns(_metadata, h, child, want);
	check_own_trailer(_metadata, self, h);
}

/* unshare(): NAMESPACES with the new namespace, from the task itself. */
TEST_F(task, namespaces_on_unshare)
{
	struct perf_ns_link_info want[NR_NAMESPACES];
	struct perf_event_header *h;
	int pipefd[2], ret;
	ssize_t len;
	pid_t child;

	ASSERT_EQ(0, pipe(pipefd));
	self->attr.namespaces = 1;
	self->attr.inherit = 1;
	open_self(_metadata, &self->ev, &self->attr, self->cpu);

	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		ret = unshare(CLONE_NEWUTS) ? errno : 0;
		ns_expected(want);
		if (write(pipefd[1], &ret, sizeof(ret)) != sizeof(ret) ||
		    write(pipefd[1], want, sizeof(want)) != sizeof(want))
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(0, reap_status(child));
	ASSERT_EQ(sizeof(ret), read(pipefd[0], &ret, sizeof(ret)));
	ASSERT_EQ(sizeof(want), read(pipefd[0], want, sizeof(want)));
	if (ret == EINVAL)
		SKIP(return, "no UTS namespaces in this kernel");
	ASSERT_EQ(0, ret);

	len = drain(_metadata, &self->ev);
	/* One for the fork, one for the unshare. */
	EXPECT_EQ(2, count_type(rbuf, len, PERF_RECORD_NAMESPACES));
	h = find_rec(rbuf, len, PERF_RECORD_NAMESPACES, child);
	ASSERT_NE(NULL, h);
	h = find_rec((char *)h + h->size, rbuf + len - ((char *)h + h->size),
		     PERF_RECORD_NAMESPACES, child);
	ASSERT_NE(NULL, h);
	check_ns(_metadata, h, child, want);
	check_trailer(_metadata, h, child, child, self->ev.id, self->cpu, true);
}

static int fault_pages(void)
{
	return fault_fresh_pages(TOUCH_PAGES);
}

/*
 * inherit_stat: a child's copy reports its own values in a
 * PERF_RECORD_READ when the child exits.
 */
TEST_F(task, inherit_stat_read)
{
	struct read_rec {
		struct perf_event_header h;
		__u32 pid, tid;
		__u64 value, enabled, running, id;
	} *r;
	struct perf_event_header *h;
	struct rec_sample_id sid;
	ssize_t len;
	pid_t child;

	self->attr.type = PERF_TYPE_SOFTWARE;
	self->attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	self->attr.inherit = 1;
	self->attr.inherit_stat = 1;
	self->attr.read_format = RF_TIMES_ID;
	open_self(_metadata, &self->ev, &self->attr, self->cpu);
	child = fork_and_reap(_metadata, fault_pages);

	len = drain(_metadata, &self->ev);
	if (!count_type(rbuf, len, PERF_RECORD_READ) && !ours_kernel())
		SKIP(return, "no READ at exit (6.1), an extension of ours");
	EXPECT_EQ(1, count_type(rbuf, len, PERF_RECORD_READ));
	h = find_rec(rbuf, len, PERF_RECORD_READ, -1);
	ASSERT_NE(NULL, h);
	r = (struct read_rec *)h;
	EXPECT_EQ(sizeof(*r) - sizeof(*h),
		  rec_sample_id(h, SB_SAMPLE_TYPE, &sid));
	EXPECT_EQ(child, r->pid);
	EXPECT_EQ(child, r->tid);
	EXPECT_LE(TOUCH_PAGES, r->value);
	EXPECT_NE(0, r->enabled);
	EXPECT_EQ(r->enabled, r->running);
	EXPECT_EQ(self->ev.id, r->id);
	check_trailer(_metadata, h, child, child, self->ev.id, self->cpu, true);
}

/* Without inherit_stat, no READ. */
TEST_F(task, no_inherit_stat_no_read)
{
	ssize_t len;

	self->attr.type = PERF_TYPE_SOFTWARE;
	self->attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	self->attr.inherit = 1;
	self->attr.task = 1;
	open_self(_metadata, &self->ev, &self->attr, self->cpu);
	fork_and_reap(_metadata, NULL);
	len = drain(_metadata, &self->ev);
	EXPECT_EQ(0, count_type(rbuf, len, PERF_RECORD_READ));
	EXPECT_EQ(1, count_type(rbuf, len, PERF_RECORD_EXIT));
}

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/* Open a dummy with @bits as nobody; 0 or the open's errno. */
static int open_as_nobody(void (*bits)(struct perf_event_attr *attr))
{
	struct perf_event_attr attr;
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (drop_privileges(NOBODY))
			_exit(255);
		sb_attr_init(&attr);
		attr.exclude_kernel = 1;
		bits(&attr);
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		_exit(fd < 0 ? errno : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void bits_none(struct perf_event_attr *attr)
{
}

static void bits_text_poke(struct perf_event_attr *attr)
{
	attr->text_poke = 1;
}

static void bits_namespaces(struct perf_event_attr *attr)
{
	attr->namespaces = 1;
}

static void bits_task_comm_mmap(struct perf_event_attr *attr)
{
	attr->task = 1;
	attr->comm = 1;
	attr->mmap = 1;
	attr->mmap2 = 1;
	attr->mmap_data = 1;
	attr->context_switch = 1;
	attr->ksymbol = 1;
}

TEST(privileges)
{
	int saved, err[4];

	ASSERT_EQ(0, read_int_file(PARANOID, &saved));
	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	err[0] = open_as_nobody(bits_none);
	err[1] = open_as_nobody(bits_text_poke);
	err[2] = open_as_nobody(bits_namespaces);
	err[3] = open_as_nobody(bits_task_comm_mmap);
	ASSERT_EQ(0, write_int_file(PARANOID, 1));
	/* Level 1 lets users see the kernel: text_poke is allowed. */
	EXPECT_EQ(0, open_as_nobody(bits_text_poke));
	EXPECT_EQ(EACCES, open_as_nobody(bits_namespaces));
	ASSERT_EQ(0, write_int_file(PARANOID, saved));

	EXPECT_EQ(0, err[0]);
	EXPECT_EQ(EACCES, err[1]);
	EXPECT_EQ(EACCES, err[2]);
	EXPECT_EQ(0, err[3]);
}

TEST_HARNESS_MAIN
