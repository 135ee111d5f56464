// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl()s with bad arguments on every kind of event: software,
 * tracepoint, breakpoint and, when the CPU has a PMU, hardware.  Each
 * kind is opened twice on the caller, counting and sampling (disabled),
 * and gets the errno Linux 6.1 gives:
 *
 *  - ENOTTY for a request perf does not know, including the known
 *    numbers with another size or direction;
 *  - PERF_EVENT_IOC_PERIOD: EFAULT for a pointer that cannot be read
 *    (before anything else), EINVAL on a counting event, for 0 and for
 *    a period with the top bit set; a huge period is taken, and so is
 *    a frequency above perf_event_max_sample_rate;
 *  - PERF_EVENT_IOC_REFRESH: EINVAL on a counting or inherited event;
 *  - PERF_EVENT_IOC_SET_OUTPUT: EBADF for a closed descriptor (also one
 *    whose buffer is still mapped), a non-event or a 32-bit -1; EINVAL
 *    for the event itself, an output without a buffer, an event of
 *    another task or CPU (a software event of the same task will do for
 *    any kind);
 *  - PERF_EVENT_IOC_SET_FILTER: EFAULT for a string that cannot be read
 *    (or runs into an unmapped page), EINVAL for one longer than a page
 *    and on any event but a tracepoint;
 *  - PERF_EVENT_IOC_ID: EFAULT for memory that cannot be written;
 *  - PERF_EVENT_IOC_MODIFY_ATTRIBUTES: the attr is copied first (EFAULT,
 *    E2BIG), then another type is EINVAL, then anything but a breakpoint
 *    EOPNOTSUPP;
 *  - PERF_EVENT_IOC_PAUSE_OUTPUT: EINVAL without a buffer;
 *  - PERF_EVENT_IOC_QUERY_BPF: EINVAL on any event but a tracepoint,
 *    which reads the query first (EFAULT); PERF_EVENT_IOC_SET_BPF:
 *    EINVAL for a descriptor that is not a BPF program, EBADF for one
 *    that is not open (bpf_attach_test tests programs);
 *  - ENABLE, DISABLE and RESET ignore the bits of their argument other
 *    than PERF_IOC_FLAG_GROUP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "event_kinds.h"
#include "../kselftest_harness.h"

#define KERNEL_PTR	((void *)0xffffffff81000000UL)
#define PERIOD		1000

FIXTURE(kind) {
	struct perf_event_attr attr;	/* of the counting event */
	int count_fd;
	int sample_fd;
	long psz;
	char *hole;	/* a page-sized PROT_NONE mapping */
	char *page;	/* a writable page right before it */
};

FIXTURE_VARIANT(kind) {
	enum kind kind;
};

FIXTURE_VARIANT_ADD(kind, software) { .kind = SOFTWARE };
FIXTURE_VARIANT_ADD(kind, tracepoint) { .kind = TRACEPOINT };
FIXTURE_VARIANT_ADD(kind, breakpoint) { .kind = BREAKPOINT };
FIXTURE_VARIANT_ADD(kind, hardware) { .kind = HARDWARE };

static int open_sampling(enum kind kind, bool inherit)
{
	struct perf_event_attr attr;

	if (kind_attr(kind, &attr))
		return -1;
	attr.sample_period = PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	attr.inherit = inherit;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

FIXTURE_SETUP(kind)
{
	self->count_fd = -1;
	self->sample_fd = -1;
	self->psz = getpagesize();
	self->page = mmap(NULL, 2 * self->psz, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->page);
	self->hole = self->page + self->psz;
	ASSERT_EQ(0, mprotect(self->hole, self->psz, PROT_NONE));

	if (variant->kind == HARDWARE && !hw_pmu_present())
		SKIP(return, NO_HW_PMU);
	if (kind_attr(variant->kind, &self->attr))
		SKIP(return, "no syscalls:sys_enter_getpid trace event");
	self->count_fd = sys_perf_event_open(&self->attr, 0, -1, -1, 0);
	ASSERT_LE(0, self->count_fd);
	self->sample_fd = open_sampling(variant->kind, false);
	ASSERT_LE(0, self->sample_fd);
}

/*
 * 6.1's harness runs a test's body even when the fixture's setup skipped
 * it (SKIP() there only returns from the setup): the bodies return then.
 * A setup that did not skip has opened both events.
 */
#define SETUP_SKIPPED(self)	((self)->count_fd < 0)

FIXTURE_TEARDOWN(kind)
{
	if (self->count_fd >= 0)
		close(self->count_fd);
	if (self->sample_fd >= 0)
		close(self->sample_fd);
	munmap(self->page, 2 * self->psz);
}

/* The errno of ioctl(@fd, @cmd, @arg), 0 if it succeeded. */
static int ioctl_errno(int fd, unsigned long cmd, unsigned long arg)
{
	errno = 0;
	return ioctl(fd, cmd, arg) ? errno : 0;
}

#define IOCTL_ERR(fd, cmd, arg)	ioctl_errno(fd, cmd, (unsigned long)(arg))

TEST_F(kind, unknown_requests)
{
	static const unsigned long cmds[] = {
		_IO('$', 12), _IO('$', 0x40), _IO('$', 0xff),
		_IOR('$', 0, int),		/* ENABLE with a size */
		_IOW('$', 4, __u32),		/* PERIOD of 32 bits */
		_IOR('$', 7, __u32),		/* ID of 32 bits */
		_IOW('$', 6, __u32),		/* SET_FILTER of 32 bits */
		_IOWR('$', 4, __u64),		/* PERIOD read-write */
		_IO('%', 0), _IO('#', 1), 0, 0xffffffffUL, 0x5401,
		FIONREAD,
	};
	unsigned int i;
	int value = 0;

	if (SETUP_SKIPPED(self))
		return;
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		EXPECT_EQ(ENOTTY, IOCTL_ERR(self->count_fd, cmds[i], &value))
			TH_LOG("cmd %#lx", cmds[i]);
		EXPECT_EQ(ENOTTY, IOCTL_ERR(self->sample_fd, cmds[i], NULL))
			TH_LOG("cmd %#lx", cmds[i]);
	}
}

TEST_F(kind, period)
{
	__u64 *at_hole = (__u64 *)(self->hole - 4);
	__u64 v = PERIOD;

	if (SETUP_SKIPPED(self))
		return;
	/* A bad pointer first: EFAULT even on a counting event. */
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_PERIOD,
				    NULL));
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_PERIOD,
				    &v));

	EXPECT_EQ(EFAULT, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD,
				    NULL));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD,
				    1));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD,
				    self->hole));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD,
				    at_hole));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD,
				    KERNEL_PTR));

	v = 0;
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD,
				    &v));
	v = 1ULL << 63;
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD,
				    &v));
	v = ~0ULL;
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD,
				    &v));
	v = (1ULL << 63) - 1;
	EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD, &v));
	v = 12345;
	EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD, &v));
	/* The period is 8 bytes: the last 8 of a page will do. */
	at_hole = (__u64 *)(self->hole - 8);
	*at_hole = PERIOD;
	EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PERIOD,
			       at_hole));
}

TEST_F(kind, refresh)
{
	int fd;

	if (SETUP_SKIPPED(self))
		return;
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_REFRESH,
				    1));
	fd = open_sampling(variant->kind, true);
	ASSERT_LE(0, fd);
	EXPECT_EQ(EINVAL, IOCTL_ERR(fd, PERF_EVENT_IOC_REFRESH, 1));
	close(fd);
}

/* An event of @kind on @pid/@cpu, with a one-page buffer mapped. */
static int open_mapped(enum kind kind, pid_t pid, int cpu, void **map)
{
	struct perf_event_attr attr;
	int fd;

	*map = MAP_FAILED;
	if (kind_attr(kind, &attr))
		return -1;
	attr.sample_period = PERIOD;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, pid, cpu, -1, 0);
	if (fd < 0)
		return -1;
	*map = mmap(NULL, 2 * getpagesize(), PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	if (*map == MAP_FAILED) {
		close(fd);
		return -1;
	}
	return fd;
}

TEST_F(kind, set_output_bad_fds)
{
	int fd, p[2], closed;
	void *map;

	if (SETUP_SKIPPED(self))
		return;
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->sample_fd,
				    PERF_EVENT_IOC_SET_OUTPUT,
				    self->sample_fd));
	/* An output without a buffer. */
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->sample_fd,
				    PERF_EVENT_IOC_SET_OUTPUT,
				    self->count_fd));

	closed = dup(0);
	ASSERT_LE(0, closed);
	close(closed);
	EXPECT_EQ(EBADF, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_OUTPUT,
				   closed));
	EXPECT_EQ(EBADF, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_OUTPUT,
				   1 << 20));
	EXPECT_EQ(EBADF, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_OUTPUT,
				   0xffffffffUL));
	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(EBADF, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_OUTPUT,
				   p[0]));
	close(p[0]);
	close(p[1]);

	/* A buffer still mapped, its event's descriptor closed. */
	fd = open_mapped(variant->kind, 0, -1, &map);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_SET_OUTPUT,
			       fd));
	EXPECT_EQ(0, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_SET_OUTPUT,
			       -1L));
	close(fd);
	EXPECT_EQ(EBADF, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_OUTPUT,
				   fd));
	munmap(map, 2 * getpagesize());
	/* Nothing to detach from: fine. */
	EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_OUTPUT,
			       -1L));
}

TEST_F(kind, set_output_incompatible)
{
	struct gated_child child;
	void *map, *map_sw;
	int fd, sw;

	if (SETUP_SKIPPED(self))
		return;
	/* Another task's buffer. */
	ASSERT_LT(0, fork_gated(&child, NULL));
	fd = open_mapped(variant->kind, child.pid, -1, &map);
	ASSERT_LE(0, fd);
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->sample_fd,
				    PERF_EVENT_IOC_SET_OUTPUT, fd));
	munmap(map, 2 * getpagesize());
	close(fd);
	gated_wait(&child);

	/* A buffer on CPU 0 for an event that follows a task. */
	fd = open_mapped(variant->kind, -1, 0, &map);
	if (fd >= 0) {
		EXPECT_EQ(EINVAL, IOCTL_ERR(self->sample_fd,
					    PERF_EVENT_IOC_SET_OUTPUT, fd));
		munmap(map, 2 * getpagesize());
		close(fd);
	} else {
		/* Breakpoints cannot watch a user address CPU-wide. */
		EXPECT_EQ(BREAKPOINT, variant->kind);
	}

	/* A software event of the same task will do, for any kind. */
	sw = open_mapped(SOFTWARE, 0, -1, &map_sw);
	ASSERT_LE(0, sw);
	EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_OUTPUT,
			       sw));
	munmap(map_sw, 2 * getpagesize());
	close(sw);
}

TEST_F(kind, set_filter)
{
	long psz = self->psz;
	int want = variant->kind == TRACEPOINT ? 0 : EINVAL;
	char *s;

	if (SETUP_SKIPPED(self))
		return;
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_SET_FILTER, NULL));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_SET_FILTER, self->hole));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_SET_FILTER, KERNEL_PTR));
	/* Not terminated before the hole. */
	memset(self->page, ' ', psz);
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_SET_FILTER,
				    self->hole - 10));
	/* No terminator in the first page: too long, the hole unread. */
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_SET_FILTER, self->page));
	s = malloc(2 * psz);
	ASSERT_NE(NULL, s);
	memset(s, ' ', 2 * psz);
	s[2 * psz - 1] = '\0';
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_SET_FILTER, s));
	free(s);
	/* A filter that is fine for a trace event. */
	strcpy(self->hole - 16, "common_pid != 0");
	self->hole[-1] = '\0';
	EXPECT_EQ(want, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_SET_FILTER,
				  self->hole - 16));
	EXPECT_EQ(want, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_FILTER,
				  "common_pid != 0"));
}

TEST_F(kind, id_bad_pointer)
{
	__u64 *ro;
	__u64 id;

	if (SETUP_SKIPPED(self))
		return;
	ro = mmap(NULL, self->psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		  -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_ID, NULL));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_ID, 1));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_ID, ro));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_ID,
				    self->hole));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_ID,
				    self->hole - 4));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_ID,
				    KERNEL_PTR));
	EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_ID,
			       self->hole - 8));
	EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_ID, &id));
	EXPECT_EQ(id, *(__u64 *)(self->hole - 8));
	munmap(ro, self->psz);
}

TEST_F(kind, modify_attributes)
{
	bool bp = variant->kind == BREAKPOINT;
	struct perf_event_attr attr = self->attr;
	char *big;
	__u32 size;

	if (SETUP_SKIPPED(self))
		return;
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_MODIFY_ATTRIBUTES, NULL));
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
				    self->hole));
	/* The attr reaches into the hole. */
	memcpy(self->hole - 64, &attr, 64);
	EXPECT_EQ(EFAULT, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
				    self->hole - 64));

	/* Sizes: E2BIG and the kernel's size written back. */
	attr.size = 1;
	EXPECT_EQ(E2BIG, IOCTL_ERR(self->count_fd,
				   PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(PERF_ATTR_SIZE_VER7, attr.size);
	big = calloc(1, self->psz);
	ASSERT_NE(NULL, big);
	memcpy(big, &self->attr, sizeof(attr));
	size = self->psz;
	memcpy(big + 4, &size, sizeof(size));
	big[self->psz - 1] = 1;
	EXPECT_EQ(E2BIG, IOCTL_ERR(self->count_fd,
				   PERF_EVENT_IOC_MODIFY_ATTRIBUTES, big));
	free(big);

	/* Another type, then the kind. */
	attr = self->attr;
	attr.type = attr.type == PERF_TYPE_SOFTWARE ? PERF_TYPE_BREAKPOINT :
						      PERF_TYPE_SOFTWARE;
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	attr = self->attr;
	EXPECT_EQ(bp ? 0 : EOPNOTSUPP,
		  IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
			    &attr));
	/* A reserved bit is caught by the copy, whatever the kind. */
	attr.__reserved_2 = 1;
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
}

TEST_F(kind, pause_output)
{
	void *map;
	int fd;

	if (SETUP_SKIPPED(self))
		return;
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->count_fd,
				    PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->sample_fd,
				    PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	fd = open_mapped(variant->kind, 0, -1, &map);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	/* Redirected into the buffer: it has one now. */
	EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_OUTPUT,
			       fd));
	EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_PAUSE_OUTPUT,
			       1));
	EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_OUTPUT,
			       -1L));
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->sample_fd,
				    PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	munmap(map, 2 * getpagesize());
	/* The mapping gone, so is the buffer. */
	EXPECT_EQ(EINVAL, IOCTL_ERR(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	close(fd);
}

TEST_F(kind, bpf)
{
	bool tp = variant->kind == TRACEPOINT;
	__u32 info[4] = { 0 };

	if (SETUP_SKIPPED(self))
		return;
	EXPECT_EQ(tp ? 0 : EINVAL, IOCTL_ERR(self->count_fd,
					     PERF_EVENT_IOC_QUERY_BPF, info));
	EXPECT_EQ(0, info[1]);
	EXPECT_EQ(tp ? EFAULT : EINVAL, IOCTL_ERR(self->count_fd,
						  PERF_EVENT_IOC_QUERY_BPF,
						  NULL));
	EXPECT_EQ(tp ? EFAULT : EINVAL, IOCTL_ERR(self->sample_fd,
						  PERF_EVENT_IOC_QUERY_BPF,
						  self->hole));
	EXPECT_EQ(EINVAL, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_SET_BPF,
				    self->sample_fd));
	EXPECT_EQ(EBADF, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_SET_BPF,
				   -1L));
}

TEST_F(kind, enable_flags_ignored)
{
	static const unsigned long args[] = { 2, 0x80000000UL, ~0UL };
	unsigned int i;

	if (SETUP_SKIPPED(self))
		return;
	for (i = 0; i < ARRAY_SIZE(args); i++) {
		EXPECT_EQ(0, IOCTL_ERR(self->sample_fd, PERF_EVENT_IOC_RESET,
				       args[i]));
		EXPECT_EQ(0, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_DISABLE,
				       args[i]));
		EXPECT_EQ(0, IOCTL_ERR(self->count_fd, PERF_EVENT_IOC_ENABLE,
				       args[i]));
	}
}

/* Make an event of @kind count about @n times. */
static void kind_work(enum kind kind, int n)
{
	int i;

	switch (kind) {
	case SOFTWARE:
		fault_fresh_pages(n);
		break;
	case TRACEPOINT:
		for (i = 0; i < n; i++)
			syscall(__NR_getpid);
		break;
	case BREAKPOINT:
		for (i = 0; i < n; i++)
			__atomic_store_n(&kind_watched[0], i, __ATOMIC_RELAXED);
		break;
	default:
		hw_loop(n * 1000);
		break;
	}
}

/* The samples written to the one-page ring at @map since @from. */
static int samples_since(void *map, __u64 *from)
{
	struct ring r = {
		.map = map,
		.up = map,
		.data = (char *)map + getpagesize(),
		.size = getpagesize(),
	};
	struct record_counts c = { 0 };
	__u64 head = ring_head(&r);

	if (ring_walk(&r, *from, head, count_record, &c) < 0)
		return -1;
	ring_consume(&r, head);
	*from = head;
	return c.type[PERF_RECORD_SAMPLE];
}

/*
 * The largest period a sampling event can have: it runs without a
 * sample; set back to a small one, it samples again.
 */
TEST_F(kind, huge_period_runs)
{
	__u64 v = (1ULL << 63) - 1, count, from = 0;
	void *map;
	int fd;

	if (SETUP_SKIPPED(self))
		return;
	/*
	 * Alone on the word: an emulated CPU may report a write only to
	 * the first of several breakpoints watching it.
	 */
	close(self->count_fd);
	close(self->sample_fd);
	self->count_fd = -1;
	self->sample_fd = -1;
	fd = open_mapped(variant->kind, 0, -1, &map);
	ASSERT_LE(0, fd);
	/* Control: the period it was opened with counts. */
	ASSERT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_ENABLE, 0));
	kind_work(variant->kind, 20);
	ASSERT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_value(fd, &count));
	EXPECT_LE(20, count);
	ASSERT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_RESET, 0));
	EXPECT_LE(0, samples_since(map, &from));

	ASSERT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_PERIOD, &v));
	ASSERT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_ENABLE, 0));
	kind_work(variant->kind, 20);
	ASSERT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, samples_since(map, &from));
	ASSERT_EQ(0, read_value(fd, &count));
	EXPECT_LE(20, count);

	v = variant->kind == HARDWARE ? 5000 : 1;
	ASSERT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_PERIOD, &v));
	ASSERT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_ENABLE, 0));
	kind_work(variant->kind, 20);
	ASSERT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_LT(0, samples_since(map, &from));
	munmap(map, 2 * getpagesize());
	close(fd);
}

/* Frequencies: the top bit and 0 are refused, as for periods. */
TEST(period_frequency)
{
	struct perf_event_attr attr;
	int max, fd;
	__u64 v;

	ASSERT_EQ(0, read_int_file("/proc/sys/kernel/perf_event_max_sample_rate",
				   &max));
	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.freq = 1;
	attr.sample_freq = 10;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	/* Unlike open, 6.1 takes a frequency above the maximum here. */
	v = max + 1ULL;
	EXPECT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_PERIOD, &v));
	v = 1ULL << 63;
	EXPECT_EQ(EINVAL, IOCTL_ERR(fd, PERF_EVENT_IOC_PERIOD, &v));
	v = 0;
	EXPECT_EQ(EINVAL, IOCTL_ERR(fd, PERF_EVENT_IOC_PERIOD, &v));
	v = max;
	EXPECT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_PERIOD, &v));
	v = 1;
	EXPECT_EQ(0, IOCTL_ERR(fd, PERF_EVENT_IOC_PERIOD, &v));
	close(fd);
}

TEST_HARNESS_MAIN
