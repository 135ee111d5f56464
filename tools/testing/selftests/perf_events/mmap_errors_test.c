// SPDX-License-Identifier: GPL-2.0
/*
 * mmap() of an event with every wrong shape, and what user space can do
 * to the mapping afterwards, as Linux 6.1 answers:
 *
 *  - 1 + n pages at offset 0 for n = 0 or a power of two; any other n
 *    (lengths are rounded up to pages first) is EINVAL, as is
 *    MAP_PRIVATE; PROT_EXEC and PROT_NONE are no reason to refuse;
 *  - a non-zero page offset is the AUX area: EINVAL without a buffer or
 *    without aux_offset/aux_size in the control page agreeing with it,
 *    EOPNOTSUPP from a PMU without an AUX area (software, tracepoint,
 *    breakpoint and the x86 core PMU);
 *  - a second mmap() of another size is EINVAL, of the same size
 *    (read-only or not) shares the buffer;
 *  - mremap() cannot grow the mapping (EFAULT) but can move it, and the
 *    buffer follows: records still arrive, and unmapping the moved
 *    mapping frees it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "hw_test_util.h"
#include "event_kinds.h"
#include "../kselftest_harness.h"

/* A page-fault sampler on the caller, disabled. */
static int open_pf(void)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* mmap() @pages pages of @fd at page @pgoff; MAP_FAILED or the address. */
static void *map_pages(int fd, size_t pages, int prot, int flags,
		       off_t pgoff)
{
	return mmap(NULL, pages * getpagesize(), prot, flags, fd,
		    pgoff * getpagesize());
}

/* The errno of an mmap() that must fail (unmapping it if not), or 0. */
static int map_errno(int fd, size_t len, int prot, int flags, off_t off)
{
	void *p;

	errno = 0;
	p = mmap(NULL, len, prot, flags, fd, off);
	if (p == MAP_FAILED)
		return errno;
	munmap(p, len);
	return 0;
}

TEST(data_pages)
{
	long psz = getpagesize();
	size_t n;
	int fd;

	fd = open_pf();
	ASSERT_LE(0, fd);
	for (n = 0; n <= 17; n++) {
		int want = n && (n & (n - 1)) ? EINVAL : 0;

		EXPECT_EQ(want, map_errno(fd, (1 + n) * psz,
					  PROT_READ | PROT_WRITE, MAP_SHARED,
					  0))
			TH_LOG("%zu data pages", n);
		/* A length short of the pages rounds up to them. */
		EXPECT_EQ(want, map_errno(fd, (1 + n) * psz - 1,
					  PROT_READ | PROT_WRITE, MAP_SHARED,
					  0))
			TH_LOG("%zu data pages less a byte", n);
	}
	EXPECT_EQ(EINVAL, map_errno(fd, 0, PROT_READ, MAP_SHARED, 0));
	close(fd);
}

TEST(protections_and_flags)
{
	long psz = getpagesize();
	int fd;

	fd = open_pf();
	ASSERT_LE(0, fd);
	EXPECT_EQ(EINVAL, map_errno(fd, 3 * psz, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE, 0));
	EXPECT_EQ(EINVAL, map_errno(fd, 3 * psz, PROT_READ, MAP_PRIVATE, 0));
	EXPECT_EQ(EINVAL, map_errno(fd, psz, PROT_READ, MAP_PRIVATE, 0));
	EXPECT_EQ(0, map_errno(fd, 3 * psz, PROT_READ | PROT_EXEC,
			       MAP_SHARED, 0));
	EXPECT_EQ(0, map_errno(fd, 3 * psz,
			       PROT_READ | PROT_WRITE | PROT_EXEC,
			       MAP_SHARED, 0));
	EXPECT_EQ(0, map_errno(fd, 3 * psz, PROT_NONE, MAP_SHARED, 0));
	/* Not page aligned: mmap() itself refuses. */
	EXPECT_EQ(EINVAL, map_errno(fd, 3 * psz, PROT_READ, MAP_SHARED, 1));
	close(fd);
}

TEST(offsets_without_aux)
{
	long psz = getpagesize();
	off_t pgoff;
	void *p;
	int fd;

	fd = open_pf();
	ASSERT_LE(0, fd);
	/* No buffer yet. */
	for (pgoff = 1; pgoff <= 4; pgoff++)
		EXPECT_EQ(EINVAL, map_errno(fd, 2 * psz, PROT_READ | PROT_WRITE,
					    MAP_SHARED, pgoff * psz))
			TH_LOG("page offset %ld", (long)pgoff);
	EXPECT_EQ(EINVAL, map_errno(fd, 2 * psz, PROT_READ | PROT_WRITE,
				    MAP_SHARED, 1L << 40));

	/* A buffer, but aux_offset and aux_size not set. */
	p = map_pages(fd, 3, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	ASSERT_NE(MAP_FAILED, p);
	for (pgoff = 1; pgoff <= 4; pgoff++)
		EXPECT_EQ(EINVAL, map_errno(fd, 2 * psz, PROT_READ | PROT_WRITE,
					    MAP_SHARED, pgoff * psz))
			TH_LOG("page offset %ld", (long)pgoff);
	munmap(p, 3 * psz);
	close(fd);
}

/* A sampling event of @kind on the caller, disabled; -1 if none. */
static int open_kind(enum kind kind)
{
	struct perf_event_attr attr;

	if (kind == HARDWARE && !hw_pmu_present())
		return -1;
	if (kind_attr(kind, &attr))
		return -1;
	attr.sample_period = 1000;
	attr.disabled = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/*
 * The AUX area of every kind of event: where the control page says,
 * refused by the PMU; where it does not say, EINVAL.
 */
TEST(aux_area_without_pmu_support)
{
	long psz = getpagesize();
	struct perf_event_mmap_page *up;
	enum kind kind;
	int fd, tried = 0;

	for (kind = 0; kind < NR_KINDS; kind++) {
		fd = open_kind(kind);
		if (fd < 0) {
			/* Only the hardware event may be missing. */
			EXPECT_EQ(HARDWARE, kind);
			continue;
		}
		tried++;
		up = map_pages(fd, 1 + 4, PROT_READ | PROT_WRITE, MAP_SHARED,
			       0);
		ASSERT_NE(MAP_FAILED, up) TH_LOG("kind %d", kind);
		up->aux_offset = 5 * psz;
		up->aux_size = 4 * psz;
		/* Elsewhere, or of another size. */
		EXPECT_EQ(EINVAL, map_errno(fd, 4 * psz, PROT_READ | PROT_WRITE,
					    MAP_SHARED, 6 * psz));
		EXPECT_EQ(EINVAL, map_errno(fd, 2 * psz, PROT_READ | PROT_WRITE,
					    MAP_SHARED, 5 * psz));
		/* Overlapping the data pages. */
		up->aux_offset = 2 * psz;
		EXPECT_EQ(EINVAL, map_errno(fd, 4 * psz, PROT_READ | PROT_WRITE,
					    MAP_SHARED, 2 * psz));
		/* Not a power of two. */
		up->aux_offset = 5 * psz;
		up->aux_size = 3 * psz;
		EXPECT_EQ(EINVAL, map_errno(fd, 3 * psz, PROT_READ | PROT_WRITE,
					    MAP_SHARED, 5 * psz));
		/* Right: no PMU here has an AUX area. */
		up->aux_size = 4 * psz;
		EXPECT_EQ(EOPNOTSUPP, map_errno(fd, 4 * psz,
						PROT_READ | PROT_WRITE,
						MAP_SHARED, 5 * psz))
			TH_LOG("kind %d", kind);
		munmap(up, 5 * psz);
		close(fd);
	}
	EXPECT_LE(3, tried);
}

TEST(second_mapping)
{
	long psz = getpagesize();
	struct perf_event_mmap_page *a, *b;
	int fd;

	fd = open_pf();
	ASSERT_LE(0, fd);
	a = map_pages(fd, 3, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	ASSERT_NE(MAP_FAILED, a);
	EXPECT_EQ(EINVAL, map_errno(fd, psz, PROT_READ | PROT_WRITE,
				    MAP_SHARED, 0));
	EXPECT_EQ(EINVAL, map_errno(fd, 2 * psz, PROT_READ | PROT_WRITE,
				    MAP_SHARED, 0));
	EXPECT_EQ(EINVAL, map_errno(fd, 5 * psz, PROT_READ | PROT_WRITE,
				    MAP_SHARED, 0));
	EXPECT_EQ(EINVAL, map_errno(fd, 4 * psz, PROT_READ, MAP_SHARED, 0));
	b = map_pages(fd, 3, PROT_READ, MAP_SHARED, 0);
	ASSERT_NE(MAP_FAILED, b);
	EXPECT_EQ(a->data_offset, b->data_offset);
	a->data_tail = 64;
	EXPECT_EQ(64, b->data_tail);
	munmap(a, 3 * psz);
	/* b keeps the buffer. */
	EXPECT_EQ(psz, b->data_offset);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	munmap(b, 3 * psz);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* Records written since the mapping was made. */
static __u64 head_of(struct perf_event_mmap_page *up)
{
	return __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
}

TEST(mremap_grow_and_move)
{
	long psz = getpagesize();
	struct perf_event_mmap_page *up, *moved;
	char *target;
	__u64 head;
	int fd;

	fd = open_pf();
	ASSERT_LE(0, fd);
	up = map_pages(fd, 3, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	ASSERT_NE(MAP_FAILED, up);

	errno = 0;
	EXPECT_EQ(MAP_FAILED, mremap(up, 3 * psz, 5 * psz, MREMAP_MAYMOVE));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(psz, up->data_offset);

	/* Move it somewhere else. */
	target = mmap(NULL, 3 * psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	ASSERT_NE(MAP_FAILED, target);
	moved = mremap(up, 3 * psz, 3 * psz, MREMAP_MAYMOVE | MREMAP_FIXED,
		       target);
	ASSERT_EQ((void *)target, (void *)moved);
	EXPECT_EQ(psz, moved->data_offset);
	head = head_of(moved);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_fresh_pages(4));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_LT(head, head_of(moved));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	munmap(moved, 3 * psz);
	/* That was the buffer's only mapping. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	EXPECT_EQ(EINVAL, errno);
	/* And it can be mapped again, with another size. */
	up = map_pages(fd, 5, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	EXPECT_NE(MAP_FAILED, up);
	if (up != MAP_FAILED)
		munmap(up, 5 * psz);
	close(fd);
}

TEST_HARNESS_MAIN
