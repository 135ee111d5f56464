// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching BPF programs to events, as Linux 6.1 does it:
 *
 *  - PERF_EVENT_IOC_SET_BPF takes a program of the event's kind: a
 *    tracepoint program on a tracepoint event (syscalls:* included), a
 *    kprobe program on a kprobe or uprobe event, a perf_event program on
 *    any other (software, hardware, breakpoint); anything else is EINVAL,
 *    a descriptor that is not a program EINVAL, one that is not open
 *    EBADF, a second program EEXIST;
 *  - a BPF link (BPF_LINK_CREATE, BPF_PERF_EVENT) attaches the same way
 *    and detaches when the link goes;
 *  - PERF_EVENT_IOC_QUERY_BPF lists the programs of a tracepoint's trace
 *    event, those attached through every event on it: EINVAL on other
 *    events (kprobe ones included), E2BIG for ids_len above 64, ENOSPC
 *    with prog_cnt written back when the ids do not fit; closing an event
 *    takes its program out;
 *  - BPF_TASK_FD_QUERY names the tracepoint or kprobe a program is on,
 *    ENOENT for an event without one, EOPNOTSUPP for a perf_event
 *    program;
 *  - without CAP_PERFMON, QUERY_BPF and loading the programs are EPERM.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "event_kinds.h"
#include "pmu_sysfs.h"
#include "bpf_test_util.h"
#include "../kselftest_harness.h"

#define KFUNC	"__x64_sys_getppid"

static int ioctl_err(int fd, unsigned long cmd, unsigned long arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

/* A counting event of @kind on this task; -1 if there is none. */
static int kind_open(enum kind kind)
{
	struct perf_event_attr attr;

	if (kind_attr(kind, &attr))
		return -1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* A kprobe event on KFUNC (or a uprobe on @path + @offset). */
static int probe_open(const char *pmu, const char *name, __u64 offset)
{
	struct perf_event_attr attr;
	int type;

	if (pmu_sysfs_read(pmu, "type", &type))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.kprobe_func = (__u64)(unsigned long)name;
	attr.probe_offset = offset;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* What the uprobe probes. */
int __attribute__((noinline)) uprobe_target(int x)
{
	return x + 1;
}

/* QUERY_BPF with room for @len ids: the errno, the count and ids. */
static int query(int fd, __u32 len, __u32 *cnt, __u32 *ids)
{
	struct {
		struct perf_event_query_bpf q;
		__u32 ids[64];
	} buf;
	int err;

	memset(&buf, 0xff, sizeof(buf));
	buf.q.ids_len = len;
	err = ioctl_err(fd, PERF_EVENT_IOC_QUERY_BPF, (unsigned long)&buf);
	*cnt = buf.q.prog_cnt;
	if (ids)
		memcpy(ids, buf.ids, sizeof(buf.ids));
	return err;
}

FIXTURE(progs) {
	int tp, kprobe, pe;
};

FIXTURE_SETUP(progs)
{
	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	self->tp = bpf_load_ret(BPF_PROG_TYPE_TRACEPOINT, 1);
	self->kprobe = bpf_load_ret(BPF_PROG_TYPE_KPROBE, 1);
	self->pe = bpf_load_ret(BPF_PROG_TYPE_PERF_EVENT, 1);
	ASSERT_LE(0, self->tp) TH_LOG("%s", bpf_log);
	ASSERT_LE(0, self->kprobe) TH_LOG("%s", bpf_log);
	ASSERT_LE(0, self->pe) TH_LOG("%s", bpf_log);
}

FIXTURE_TEARDOWN(progs)
{
	close(self->tp);
	close(self->kprobe);
	close(self->pe);
}

/* Each kind of event takes its kind of program, and no other. */
TEST_F(progs, set_bpf_by_kind)
{
	static const enum kind kinds[] = { SOFTWARE, TRACEPOINT, BREAKPOINT,
					   HARDWARE };
	unsigned int i;
	int fd, right, wrong[2];

	for (i = 0; i < ARRAY_LEN(kinds); i++) {
		fd = kind_open(kinds[i]);
		if (fd < 0)
			continue;	/* no PMU, or no tracefs */
		right = kinds[i] == TRACEPOINT ? self->tp : self->pe;
		wrong[0] = kinds[i] == TRACEPOINT ? self->pe : self->tp;
		wrong[1] = self->kprobe;
		EXPECT_EQ(EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF,
					    wrong[0])) TH_LOG("kind %u", i);
		EXPECT_EQ(EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF,
					    wrong[1])) TH_LOG("kind %u", i);
		/* Not a program; not open. */
		EXPECT_EQ(EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, fd))
			TH_LOG("kind %u", i);
		EXPECT_EQ(EBADF, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, 999))
			TH_LOG("kind %u", i);
		EXPECT_EQ(EBADF, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, -1L))
			TH_LOG("kind %u", i);
		EXPECT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, right))
			TH_LOG("kind %u", i);
		/* One program per event, even the same one again. */
		EXPECT_EQ(EEXIST, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, right))
			TH_LOG("kind %u", i);
		/* QUERY_BPF is for tracepoint events only. */
		if (kinds[i] != TRACEPOINT) {
			__u32 cnt;

			EXPECT_EQ(EINVAL, query(fd, 1, &cnt, NULL))
				TH_LOG("kind %u", i);
		}
		close(fd);
	}
}

TEST_F(progs, set_bpf_probes)
{
	__u32 cnt;
	int fd;

	fd = probe_open("kprobe", KFUNC, 0);
	if (fd < 0)
		SKIP(return, "no kprobe PMU: %s", strerror(errno));
	EXPECT_EQ(EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, self->tp));
	EXPECT_EQ(EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, self->pe));
	EXPECT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, self->kprobe));
	EXPECT_EQ(EEXIST, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF,
				    self->kprobe));
	/* Not a tracepoint event. */
	EXPECT_EQ(EINVAL, query(fd, 1, &cnt, NULL));
	close(fd);

	/* A uprobe on a function of this program takes one too. */
	fd = probe_open("uprobe", "/proc/self/exe",
			maps_file_offset(uprobe_target));
	if (fd < 0)
		SKIP(return, "no uprobe PMU: %s", strerror(errno));
	EXPECT_EQ(EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, self->tp));
	EXPECT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, self->kprobe));
	close(fd);
}

/* The tracepoint's program array: every event's program, in order. */
TEST_F(progs, query_bpf)
{
	__u32 cnt, ids[64];
	int a, b, tp2;

	a = kind_open(TRACEPOINT);
	if (a < 0)
		SKIP(return, "no syscalls:sys_enter_getpid");
	b = kind_open(TRACEPOINT);
	ASSERT_LE(0, b);
	tp2 = bpf_load_ret(BPF_PROG_TYPE_TRACEPOINT, 1);
	ASSERT_LE(0, tp2);

	EXPECT_EQ(0, query(a, 0, &cnt, NULL));
	EXPECT_EQ(0, cnt);
	EXPECT_EQ(0, ioctl_err(a, PERF_EVENT_IOC_SET_BPF, self->tp));
	EXPECT_EQ(0, ioctl_err(b, PERF_EVENT_IOC_SET_BPF, tp2));

	/* The count alone; then both, from either event. */
	EXPECT_EQ(0, query(a, 0, &cnt, NULL));
	EXPECT_EQ(2, cnt);
	EXPECT_EQ(0, query(b, 2, &cnt, ids));
	EXPECT_EQ(2, cnt);
	EXPECT_EQ(bpf_prog_id(self->tp), ids[0]);
	EXPECT_EQ(bpf_prog_id(tp2), ids[1]);
	/* Too short: ENOSPC, the count written back, the first id. */
	EXPECT_EQ(ENOSPC, query(a, 1, &cnt, ids));
	EXPECT_EQ(2, cnt);
	EXPECT_EQ(bpf_prog_id(self->tp), ids[0]);
	EXPECT_EQ(0xffffffff, ids[1]);
	/* At most 64 ids. */
	EXPECT_EQ(E2BIG, query(a, 65, &cnt, ids));
	EXPECT_EQ(EFAULT, ioctl_err(a, PERF_EVENT_IOC_QUERY_BPF, 8));

	/* Closing an event takes its program out of the array. */
	close(a);
	EXPECT_EQ(0, query(b, 4, &cnt, ids));
	EXPECT_EQ(1, cnt);
	EXPECT_EQ(bpf_prog_id(tp2), ids[0]);
	close(b);
	close(tp2);
}

/* A link attaches like SET_BPF, and detaches when it goes. */
TEST_F(progs, link)
{
	__u32 cnt;
	int sw, tp, link;

	sw = kind_open(SOFTWARE);
	ASSERT_LE(0, sw);
	EXPECT_EQ(-1, bpf_link(self->tp, sw, 0));
	EXPECT_EQ(EINVAL, errno);
	link = bpf_link(self->pe, sw, 42);
	ASSERT_LE(0, link) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(EEXIST, ioctl_err(sw, PERF_EVENT_IOC_SET_BPF, self->pe));
	EXPECT_EQ(-1, bpf_link(self->pe, sw, 0));
	EXPECT_EQ(EEXIST, errno);
	close(link);
	EXPECT_EQ(0, ioctl_err(sw, PERF_EVENT_IOC_SET_BPF, self->pe));
	close(sw);

	tp = kind_open(TRACEPOINT);
	if (tp < 0)
		SKIP(return, "no syscalls:sys_enter_getpid");
	link = bpf_link(self->tp, tp, 7);
	ASSERT_LE(0, link) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, query(tp, 0, &cnt, NULL));
	EXPECT_EQ(1, cnt);
	close(link);
	EXPECT_EQ(0, query(tp, 0, &cnt, NULL));
	EXPECT_EQ(0, cnt);
	close(tp);
}

/* The link holds the event: the program stays after the event's fd goes. */
TEST_F(progs, link_outlives_fd)
{
	__u32 cnt;
	int a, b, link;

	a = kind_open(TRACEPOINT);
	if (a < 0)
		SKIP(return, "no syscalls:sys_enter_getpid");
	b = kind_open(TRACEPOINT);
	ASSERT_LE(0, b);
	link = bpf_link(self->tp, a, 0);
	ASSERT_LE(0, link);
	close(a);
	EXPECT_EQ(0, query(b, 0, &cnt, NULL));
	EXPECT_EQ(1, cnt);
	close(link);
	EXPECT_EQ(0, query(b, 0, &cnt, NULL));
	EXPECT_EQ(0, cnt);
	close(b);
}

static int task_fd_query(int fd, char *buf, __u32 len, union bpf_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->task_fd_query.pid = getpid();
	attr->task_fd_query.fd = fd;
	attr->task_fd_query.buf = (__u64)(unsigned long)buf;
	attr->task_fd_query.buf_len = len;
	return sys_bpf(BPF_TASK_FD_QUERY, attr) ? errno : 0;
}

TEST_F(progs, task_fd_query)
{
	union bpf_attr attr;
	char buf[64];
	int fd;

	fd = kind_open(TRACEPOINT);
	if (fd < 0)
		SKIP(return, "no syscalls:sys_enter_getpid");
	EXPECT_EQ(ENOENT, task_fd_query(fd, buf, sizeof(buf), &attr));
	ASSERT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, self->tp));
	EXPECT_EQ(0, task_fd_query(fd, buf, sizeof(buf), &attr));
	EXPECT_EQ(bpf_prog_id(self->tp), attr.task_fd_query.prog_id);
	EXPECT_EQ(BPF_FD_TYPE_TRACEPOINT, attr.task_fd_query.fd_type);
	EXPECT_STREQ("sys_enter_getpid", buf);
	close(fd);

	fd = kind_open(SOFTWARE);
	ASSERT_LE(0, fd);
	EXPECT_EQ(ENOENT, task_fd_query(fd, buf, sizeof(buf), &attr));
	ASSERT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, self->pe));
	EXPECT_EQ(EOPNOTSUPP, task_fd_query(fd, buf, sizeof(buf), &attr));
	close(fd);

	fd = probe_open("kprobe", KFUNC, 0);
	if (fd < 0)
		SKIP(return, "no kprobe PMU");
	ASSERT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, self->kprobe));
	EXPECT_EQ(0, task_fd_query(fd, buf, sizeof(buf), &attr));
	EXPECT_EQ(BPF_FD_TYPE_KPROBE, attr.task_fd_query.fd_type);
	EXPECT_STREQ(KFUNC, buf);
	close(fd);
}

/*
 * Without CAP_PERFMON (and CAP_SYS_ADMIN): QUERY_BPF is EPERM, and so is
 * loading a tracing or perf_event program; attaching one that was
 * loaded with them checks nothing more.
 */
TEST_F(progs, permissions)
{
	__u32 cnt;
	int fd;

	fd = kind_open(TRACEPOINT);
	if (fd < 0)
		SKIP(return, "no syscalls:sys_enter_getpid");
	ASSERT_EQ(0, drop_capability(CAP_PERFMON));
	ASSERT_EQ(0, drop_capability(CAP_SYS_ADMIN));
	EXPECT_EQ(EPERM, query(fd, 0, &cnt, NULL));
	EXPECT_EQ(-1, bpf_load_ret(BPF_PROG_TYPE_TRACEPOINT, 1));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(-1, bpf_load_ret(BPF_PROG_TYPE_PERF_EVENT, 1));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, self->tp));
	close(fd);
}

TEST_HARNESS_MAIN
