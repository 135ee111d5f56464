// SPDX-License-Identifier: GPL-2.0
/*
 * mmap() of an event: the shapes of mapping that are accepted, sharing
 * one buffer between several mappings, and the control page.
 *
 *  - A shared mapping of 1 + 2^n pages at offset 0 is accepted (n >= 0:
 *    a single page is the control page alone); any other number of pages
 *    and MAP_PRIVATE are EINVAL.
 *  - A second mmap() of the same event shares its buffer; one of another
 *    size is EINVAL.  The buffer stays while any mapping of it does.
 *  - An inherited event that follows a task on every CPU cannot be
 *    mapped (EINVAL); one bound to a CPU can.
 *  - Offsets past the buffer are for the AUX area: EINVAL without a
 *    buffer or without a valid aux_offset/aux_size in the control page,
 *    and refused (EOPNOTSUPP) by a PMU that has no AUX area.
 *  - The control page: version and compat_version 0, size up to
 *    __reserved, data_offset one page, data_size the data pages, the
 *    lock seqcount even when stable, capabilities coherent (cap_bit0 0,
 *    cap_bit0_is_deprecated 1, no rdpmc for a software event, the time
 *    capabilities consistent with their fields, no time_zero for an event
 *    on a clock of its own), index 0 for a software
 *    event, and offset/time_enabled/time_running the event's count and
 *    times as of the last update: at mmap(), when the event goes on a
 *    CPU, and at PERF_EVENT_IOC_RESET.
 *  - The mapping is unmapped whole or not at all (munmap() of a part is
 *    EINVAL), and is not inherited across fork().
 *  - A write that first touches a data page raises SIGBUS.
 *  - The data pages read back the same records whatever order they are
 *    first touched in, and through /proc/self/mem (get_user_pages()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "../kselftest_harness.h"

/* A page-fault event sampling every fault, opened disabled. */
static int open_pf_sampler(void)
{
	struct perf_event_attr attr;

	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1,
			 PERF_SAMPLE_IP | PERF_SAMPLE_ADDR);
	attr.disabled = 1;
	return sample_open(&attr);
}

static void *map_event(int fd, size_t pages, int prot, int flags)
{
	return mmap(NULL, pages * page_size(), prot, flags, fd, 0);
}

/* mmap() @pages pages of @fd from page @off: 0 (and unmap), or errno. */
static int map_errno(int fd, size_t pages, size_t off, int prot, int flags)
{
	void *p = mmap(NULL, pages * page_size(), prot, flags, fd,
		       off * page_size());

	if (p == MAP_FAILED)
		return errno;
	munmap(p, pages * page_size());
	return 0;
}

/* open_pf_sampler(), with @pages data pages mapped in @r. */
static int open_mapped(struct __test_metadata *_metadata, struct ring *r,
		       size_t pages)
{
	int fd = open_pf_sampler();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(r, fd, pages));
	return fd;
}

TEST(power_of_two_sizes)
{
	static const size_t ok[] = { 0, 1, 2, 4, 8, 16, 64 };
	struct perf_event_mmap_page *up;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		fd = open_pf_sampler();
		ASSERT_LE(0, fd);
		up = map_event(fd, 1 + ok[i], PROT_READ | PROT_WRITE,
			       MAP_SHARED);
		ASSERT_NE(MAP_FAILED, up) TH_LOG("1 + %zu pages", ok[i]);
		EXPECT_EQ(page_size(), up->data_offset);
		EXPECT_EQ(ok[i] * page_size(), up->data_size);
		EXPECT_EQ(0, up->data_head);
		EXPECT_EQ(0, up->data_tail);
		munmap(up, (1 + ok[i]) * page_size());
		close(fd);
	}
}

TEST(other_sizes)
{
	static const size_t bad[] = { 3, 5, 6, 7, 10, 12, 24 };
	unsigned int i;
	int fd;

	fd = open_pf_sampler();
	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(EINVAL, map_errno(fd, 1 + bad[i], 0,
					    PROT_READ | PROT_WRITE, MAP_SHARED))
			TH_LOG("1 + %zu pages", bad[i]);
	/* The failures left nothing behind: a good size still works. */
	ASSERT_EQ(0, map_errno(fd, 1 + 2, 0, PROT_READ | PROT_WRITE,
			       MAP_SHARED));
	close(fd);
}

TEST(map_private)
{
	int fd;

	fd = open_pf_sampler();
	ASSERT_LE(0, fd);
	EXPECT_EQ(EINVAL, map_errno(fd, 1 + 1, 0, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE));
	EXPECT_EQ(EINVAL, map_errno(fd, 1 + 1, 0, PROT_READ, MAP_PRIVATE));
	close(fd);
}

/* Two mappings of one event are one buffer: samples show in both. */
TEST(second_mmap_shares)
{
	struct ring a, b;
	char *pages, *more;
	__u64 head;
	int fd;

	pages = map_fresh_pages(8);
	ASSERT_NE(NULL, pages);
	more = map_fresh_pages(4);
	ASSERT_NE(NULL, more);
	fd = open_pf_sampler();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&a, fd, 4));
	ASSERT_EQ(0, ring_map(&b, fd, 4));
	ASSERT_NE(a.map, b.map);
	/* Fault the mappings in before anything is sampled. */
	EXPECT_EQ(0, a.up->data_head + b.up->data_head);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(pages, 8);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	EXPECT_LE(8 * 24, ring_head(&a));
	EXPECT_EQ(ring_head(&a), ring_head(&b));
	EXPECT_EQ(0, memcmp(a.data, b.data, a.size));

	/* data_tail written through one is seen through the other. */
	ring_consume(&a, 24);
	EXPECT_EQ(24, ring_tail(&b));

	/* The buffer outlives the first mapping, and still fills. */
	ring_unmap(&a);
	head = ring_head(&b);
	EXPECT_LE(8 * 24, head);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(more, 4);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_LE(head + 4 * 24, ring_head(&b));
	/* ... and the event's file. */
	head = ring_head(&b);
	close(fd);
	EXPECT_EQ(head, ring_head(&b));
	EXPECT_EQ(24, ring_tail(&b));
	ring_unmap(&b);
	munmap(pages, 8 * page_size());
	munmap(more, 4 * page_size());
}

/* A dup()ed descriptor is the same event: it shares the buffer too. */
TEST(mmap_through_dup)
{
	struct ring a, b;
	int fd, fd2;

	fd = open_pf_sampler();
	ASSERT_LE(0, fd);
	fd2 = dup(fd);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, ring_map(&a, fd, 2));
	ASSERT_EQ(0, ring_map(&b, fd2, 2));
	ring_consume(&a, 8);
	EXPECT_EQ(8, ring_tail(&b));
	ring_unmap(&a);
	ring_unmap(&b);
	close(fd2);
	close(fd);
}

TEST(second_mmap_other_size)
{
	struct ring a, b;
	int fd;

	fd = open_mapped(_metadata, &a, 4);
	EXPECT_EQ(-1, ring_map(&b, fd, 2));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ring_map(&b, fd, 8));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ring_map(&b, fd, 0));
	EXPECT_EQ(EINVAL, errno);
	/* Once the first mapping is gone, any size goes. */
	ring_unmap(&a);
	ASSERT_EQ(0, ring_map(&b, fd, 2));
	EXPECT_EQ(2 * page_size(), b.up->data_size);
	ring_unmap(&b);
	close(fd);
}

/* Open @attr on this task and @cpu and map a data page: 0 or errno. */
static int open_map_errno(struct __test_metadata *_metadata,
			  struct perf_event_attr *attr, int cpu)
{
	struct ring r;
	int fd, err;

	fd = sys_perf_event_open(attr, 0, cpu, -1, 0);
	ASSERT_LE(0, fd);
	err = ring_map(&r, fd, 1) ? errno : 0;
	ring_unmap(&r);
	close(fd);
	return err;
}

TEST(inherited_per_task)
{
	struct perf_event_attr attr;

	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	attr.inherit = 1;
	attr.disabled = 1;
	EXPECT_EQ(EINVAL, open_map_errno(_metadata, &attr, -1));

	/* On one CPU the copies cannot write into it from elsewhere. */
	EXPECT_EQ(0, open_map_errno(_metadata, &attr, 0));

	/* Not inherited: fine. */
	attr.inherit = 0;
	EXPECT_EQ(0, open_map_errno(_metadata, &attr, -1));
}

/* An AUX area of @pages pages at page @off of @fd: 0 or the errno. */
static int map_aux(int fd, size_t pages, size_t off)
{
	return map_errno(fd, pages, off, PROT_READ | PROT_WRITE, MAP_SHARED);
}

/* The AUX area: mapped at aux_offset, which no software PMU provides. */
TEST(aux_area)
{
	/* aux_offset and aux_size set, and the mapping tried; in pages. */
	static const struct {
		size_t aux_offset, aux_size;
		size_t pages, off;
		int err;
	} cases[] = {
		/* aux_offset/aux_size not set up: EINVAL. */
		{ 0, 0, 4, 3, EINVAL },
		/* Set up, but inside the buffer: EINVAL. */
		{ 1, 4, 4, 1, EINVAL },
		/* Set up, but for another size or offset than mapped. */
		{ 3, 2, 4, 3, EINVAL },
		{ 3, 4, 4, 4, EINVAL },
		/* Not a power of two pages: EINVAL. */
		{ 3, 3, 3, 3, EINVAL },
		/* Set up right: the software PMU has no AUX area. */
		{ 3, 4, 4, 3, EOPNOTSUPP },
	};
	size_t psz = page_size();
	struct ring r;
	unsigned int i;
	int fd;

	fd = open_pf_sampler();
	ASSERT_LE(0, fd);

	/* No buffer yet: nothing to put an AUX area after. */
	EXPECT_EQ(EINVAL, map_aux(fd, 4, 3));

	ASSERT_EQ(0, ring_map(&r, fd, 2));
	EXPECT_EQ(0, r.up->aux_offset);
	EXPECT_EQ(0, r.up->aux_size);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		r.up->aux_offset = cases[i].aux_offset * psz;
		r.up->aux_size = cases[i].aux_size * psz;
		EXPECT_EQ(cases[i].err, map_aux(fd, cases[i].pages,
						cases[i].off))
			TH_LOG("case %u", i);
	}

	/* The buffer itself is unharmed and still unmaps. */
	EXPECT_EQ(2 * psz, r.up->data_size);
	ring_unmap(&r);
	close(fd);
}

/* The user page's event fields, read consistently under its seqcount. */
struct user_page_snap {
	__u32	index;
	__s64	offset;
	__u64	time_enabled;
	__u64	time_running;
};

static void user_page_read(struct perf_event_mmap_page *up,
			   struct user_page_snap *snap)
{
	__u32 seq;

	do {
		seq = __atomic_load_n(&up->lock, __ATOMIC_ACQUIRE);
		snap->index = up->index;
		snap->offset = up->offset;
		snap->time_enabled = up->time_enabled;
		snap->time_running = up->time_running;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || seq != __atomic_load_n(&up->lock,
						      __ATOMIC_RELAXED));
}

TEST(user_page_header)
{
	struct perf_event_mmap_page *up;
	struct ring r;
	int fd;

	fd = open_mapped(_metadata, &r, 4);
	up = r.up;

	EXPECT_EQ(0, up->version);
	EXPECT_EQ(0, up->compat_version);
	EXPECT_EQ(offsetof(struct perf_event_mmap_page, __reserved),
		  up->size);
	EXPECT_EQ(page_size(), up->data_offset);
	EXPECT_EQ(4 * page_size(), up->data_size);
	EXPECT_EQ(0, up->data_head);
	EXPECT_EQ(0, up->data_tail);
	EXPECT_EQ(0, up->aux_head);
	EXPECT_EQ(0, up->aux_tail);
	EXPECT_EQ(0, up->lock & 1);
	/* A software event is never in a hardware counter. */
	EXPECT_EQ(0, up->index);

	ring_unmap(&r);
	close(fd);
}

TEST(user_page_capabilities)
{
	struct perf_event_mmap_page *up;
	struct ring r;
	int fd;

	fd = open_mapped(_metadata, &r, 1);
	up = r.up;

	EXPECT_EQ(0, (int)up->cap_bit0);
	EXPECT_EQ(1, (int)up->cap_bit0_is_deprecated);
	EXPECT_EQ(0, (int)up->cap_user_rdpmc);
	EXPECT_EQ(0, (int)up->cap_____res);
	/* time_zero goes with time: both are conversions of the TSC. */
	if (up->cap_user_time_zero)
		EXPECT_EQ(1, (int)up->cap_user_time);
	if (up->cap_user_time) {
		EXPECT_NE(0, up->time_mult);
		EXPECT_GT(32, up->time_shift);
	}
	TH_LOG("cap_user_time %d, time_zero %d, time_short %d",
	       (int)up->cap_user_time, (int)up->cap_user_time_zero,
	       (int)up->cap_user_time_short);

	ring_unmap(&r);
	close(fd);
}

/*
 * pmc_width is the width of the CPU's counters in every event's page, a
 * software event's too (as 6.1 writes it): the same as in a hardware
 * event's page.
 */
TEST(user_page_pmc_width)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *hw;
	struct ring r;
	int fd, hw_fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.exclude_kernel = 1;
	hw_fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (hw_fd < 0)
		SKIP(return, "no hardware event: %s", strerror(errno));
	hw = map_event(hw_fd, 1, PROT_READ, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, hw);
	fd = open_mapped(_metadata, &r, 1);

	EXPECT_NE(0, hw->pmc_width);
	EXPECT_EQ(hw->pmc_width, r.up->pmc_width);

	ring_unmap(&r);
	close(fd);
	munmap(hw, page_size());
	close(hw_fd);
}

/*
 * time_zero converts the TSC to the perf clock: an event with a clock of
 * its own (use_clockid) does not offer it, but still offers the scaling.
 */
TEST(user_page_clockid_no_time_zero)
{
	struct perf_event_attr attr;
	struct ring r, rc;
	int fd, fdc;

	fd = open_pf_sampler();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 1));
	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	attr.disabled = 1;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fdc = sample_open(&attr);
	ASSERT_LE(0, fdc);
	ASSERT_EQ(0, ring_map(&rc, fdc, 1));

	if (!r.up->cap_user_time_zero)
		SKIP(goto out, "no time_zero here at all");
	EXPECT_EQ(0, (int)rc.up->cap_user_time_zero);
	EXPECT_EQ((int)r.up->cap_user_time, (int)rc.up->cap_user_time);
out:
	ring_unmap(&rc);
	ring_unmap(&r);
	close(fdc);
	close(fd);
}

/*
 * offset and the times are the event's as of the last update: at mmap()
 * of a disabled event they are exactly what read() gives.
 */
TEST(user_page_count_and_times)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *up;
	struct value_times vt;
	struct user_page_snap snap;
	struct ring r;
	int fd;

	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = RF_TIMES;
	fd = sample_open(&attr);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fault_fresh_pages(TOUCH_PAGES));
	spin_cpu_ns(NSEC_PER_MSEC);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_value_times(fd, &vt));
	EXPECT_LE(TOUCH_PAGES, vt.value);

	ASSERT_EQ(0, ring_map(&r, fd, 0));
	up = r.up;
	user_page_read(up, &snap);
	EXPECT_EQ(0, snap.index);
	EXPECT_EQ(vt.value, snap.offset);
	EXPECT_EQ(vt.enabled, snap.time_enabled);
	EXPECT_EQ(vt.running, snap.time_running);

	/*
	 * The page is brought up to date when the event goes on a CPU: after
	 * a few context switches it shows the time spent spinning.
	 */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	spin_cpu_ns(2 * NSEC_PER_MSEC);
	switch_out(3);
	user_page_read(up, &snap);
	EXPECT_LT(vt.enabled + NSEC_PER_MSEC, snap.time_enabled);
	EXPECT_LT(vt.running + NSEC_PER_MSEC, snap.time_running);

	/* ... and by RESET: offset 0, the times grown again. */
	ASSERT_EQ(0, read_value_times(fd, &vt));
	spin_cpu_ns(2 * NSEC_PER_MSEC);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	user_page_read(up, &snap);
	EXPECT_EQ(0, snap.offset);
	EXPECT_LT(vt.enabled + NSEC_PER_MSEC, snap.time_enabled);
	EXPECT_LT(vt.running + NSEC_PER_MSEC, snap.time_running);
	EXPECT_EQ(0, snap.index);

	ring_unmap(&r);
	close(fd);
}

/* A buffer is unmapped whole or not at all. */
TEST(partial_munmap)
{
	size_t psz = page_size();
	struct ring r;
	int fd;

	fd = open_mapped(_metadata, &r, 4);
	EXPECT_EQ(-1, munmap((char *)r.map + psz, psz));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, munmap(r.map, psz));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(4 * psz, r.up->data_size);
	ring_unmap(&r);
	close(fd);
}

static sigjmp_buf segv_jmp;

static void segv_handler(int sig)
{
	siglongjmp(segv_jmp, 1);
}

/* A forked child does not get the mapping. */
TEST(not_inherited_by_fork)
{
	struct ring r;
	pid_t pid;
	int fd, status;

	fd = open_mapped(_metadata, &r, 1);
	EXPECT_EQ(page_size(), r.up->data_offset);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		signal(SIGSEGV, segv_handler);
		if (sigsetjmp(segv_jmp, 1))
			_exit(0);
		/* Must fault: the range is not mapped in the child. */
		_exit(__atomic_load_n(&r.up->data_offset, __ATOMIC_RELAXED) ?
		      1 : 2);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* ... and the parent's is untouched. */
	EXPECT_EQ(page_size(), r.up->data_offset);
	ring_unmap(&r);
	close(fd);
}

/*
 * The data pages are the kernel's to write: a write that first touches
 * one raises SIGBUS, even in a writable mapping (whose control page
 * takes the reader's data_tail).
 */
TEST(data_page_written_first)
{
	size_t psz = page_size();
	volatile int bus = 0;
	char *map;
	int fd;

	fd = open_pf_sampler();
	ASSERT_LE(0, fd);
	map = map_event(fd, 1 + 4, PROT_READ | PROT_WRITE, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, map);
	((volatile struct perf_event_mmap_page *)map)->data_tail = 0;
	signal(SIGBUS, segv_handler);
	if (sigsetjmp(segv_jmp, 1))
		bus = 1;
	else
		((volatile char *)map)[2 * psz] = 1;
	signal(SIGBUS, SIG_DFL);
	EXPECT_EQ(1, bus);
	munmap(map, 5 * psz);
	close(fd);
}

/* The fresh pages a page-fault sampler saw, and how many of its samples. */
struct fault_span {
	__u64 lo, hi;
	int in, out;
};

static int count_fault_sample(struct perf_event_header *h, void *arg)
{
	struct fault_span *s = arg;
	__u64 *body = (__u64 *)(h + 1);

	if (h->type != PERF_RECORD_SAMPLE || h->size != sizeof(*h) + 16)
		s->out++;
	else if (body[1] >= s->lo && body[1] < s->hi)
		s->in++;
	return 0;
}

/*
 * Samples spread over more than 16 data pages (how many one fault may
 * map) read back right through a mapping faulted from its last page
 * back, and through /proc/self/mem (which maps them with
 * get_user_pages()) from a mapping never touched.
 */
TEST(data_pages_in_any_order)
{
	size_t psz = page_size(), nr = 32, faults = 21 * psz / 24, i;
	struct fault_span span = { 0 };
	struct ring a, b, c;
	char *fresh, *copy;
	__u64 head;
	int fd, mem;

	fresh = map_fresh_pages(faults);
	ASSERT_NE(NULL, fresh);
	copy = malloc(nr * psz);
	ASSERT_NE(NULL, copy);
	fd = open_mapped(_metadata, &a, nr);
	/* 24-byte samples (header, IP, ADDR): 21 pages and a bit. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(fresh, faults);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	head = ring_head(&a);
	ASSERT_LE(faults * 24, head);
	ASSERT_GT(a.size, head);

	ASSERT_EQ(0, ring_map(&b, fd, nr));
	for (i = nr; i-- > 0;)
		__atomic_load_n(b.data + i * psz, __ATOMIC_RELAXED);
	span.lo = (unsigned long)fresh;
	span.hi = span.lo + faults * psz;
	EXPECT_LT(0, ring_walk(&b, 0, head, count_fault_sample, &span));
	EXPECT_EQ(faults, span.in);
	EXPECT_EQ(0, span.out);
	EXPECT_EQ(0, memcmp(a.data, b.data, head));

	ASSERT_EQ(0, ring_map(&c, fd, nr));
	mem = open("/proc/self/mem", O_RDONLY);
	ASSERT_LE(0, mem);
	EXPECT_EQ((ssize_t)head, pread(mem, copy, head, (unsigned long)c.data));
	close(mem);
	EXPECT_EQ(0, memcmp(copy, a.data, head));

	ring_unmap(&c);
	ring_unmap(&b);
	ring_unmap(&a);
	close(fd);
	free(copy);
	munmap(fresh, faults * psz);
}

TEST_HARNESS_MAIN
