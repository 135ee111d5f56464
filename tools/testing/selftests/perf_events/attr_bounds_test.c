// SPDX-License-Identifier: GPL-2.0
/*
 * The attr argument of perf_event_open() at its edges, as a fuzzer first
 * tries them, with the errno Linux 6.1 gives:
 *
 *  - An attr whose last byte is the last byte of a mapped page, followed
 *    by an unmapped one, opens for every size from PERF_ATTR_SIZE_VER0 up
 *    (odd sizes too: only attr.size bytes are read), and for a larger
 *    size whose excess is zero; one byte more reaches the hole: EFAULT.
 *    attr.size itself in the hole is EFAULT, as is a size-0 attr (read
 *    as PERF_ATTR_SIZE_VER0) that does not fit.
 *  - Odd sizes above the kernel's struct: zero excess opens, a non-zero
 *    byte anywhere in it is E2BIG with the kernel's size written back.
 *    E2BIG also when the attr is read-only and the size cannot be
 *    written back (the size stays as it was).
 *  - branch_sample_type, with PERF_SAMPLE_BRANCH_STACK: bits 19 up are
 *    EINVAL, as is a mask of privilege levels alone, before the PMU is
 *    asked (which refuses a branch stack on a software event with
 *    EOPNOTSUPP); without PERF_SAMPLE_BRANCH_STACK the field is ignored.
 *  - Register masks bit by bit: DS, ES, FS, GS and bits 24-31 are EINVAL,
 *    an empty mask too; the XMM bits (32 up) are EOPNOTSUPP on a PMU
 *    without extended registers, even without the mask's sample_type
 *    bit (the PMU is asked about both masks); without it the other bits
 *    are ignored.
 *  - sample_stack_user: multiples of 8 up to 65528 open, anything else
 *    with PERF_SAMPLE_STACK_USER is EINVAL; the biggest dump together
 *    with the biggest call chain, the user registers and every field
 *    before it still makes records that fit their u16 size, from a big
 *    stack or a small one.  (6.1 sizes the dump before adding the fields
 *    that follow it, so PERF_SAMPLE_REGS_INTR and later ones are left
 *    out: with them 6.1 overflows header.size.)
 *  - sample_max_stack: up to perf_event_max_stack, above it EOVERFLOW
 *    with PERF_SAMPLE_CALLCHAIN; ignored without.
 *  - Every sample field at once, CPU-wide, where samples also fall in
 *    kernel threads and the idle task: the records parse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "../kselftest_harness.h"

/* The last branch_sample_type bit of 6.1 is PERF_SAMPLE_BRANCH_PRIV_SAVE. */
#define BRANCH_BITS_6_1		19
#define PLM_ALL			(PERF_SAMPLE_BRANCH_USER | \
				 PERF_SAMPLE_BRANCH_KERNEL | \
				 PERF_SAMPLE_BRANCH_HV)

/* x86-64 perf_regs: DS, ES, FS, GS are not sampled; 24-31 reserved. */
#define REG_DS		12
#define REG_GS		15
#define REG_64_MAX	24
#define REG_XMM0	32
#define REG_USER_ALL	(((1ULL << REG_64_MAX) - 1) & \
			 ~(((1ULL << (REG_GS + 1)) - 1) & \
			   ~((1ULL << REG_DS) - 1)))

#define STACK_MAX	65528	/* the largest multiple of 8 below 65535 */
#define MAX_STACK_SYSCTL	"/proc/sys/kernel/perf_event_max_stack"

/* Open @attr on the caller; 0 (closing the event) or the errno. */
static int open_errno(void *attr)
{
	int fd;

	errno = 0;
	fd = sys_perf_event_open(attr, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

/* A task-clock counting attr of attr.size @size, in @buf. */
static void attr_put(void *buf, __u32 size)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.size = size;
	/* Size 0 is PERF_ATTR_SIZE_VER0 bytes. */
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	memcpy(buf, &attr, size < sizeof(attr) ? size : sizeof(attr));
}

/* Two pages, the second inaccessible: attrs are put at the end of the first. */
FIXTURE(edge) {
	char *map;
	long psz;
	char *end;	/* first byte of the hole */
};

FIXTURE_SETUP(edge)
{
	self->psz = getpagesize();
	self->map = mmap(NULL, 2 * self->psz, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->map);
	ASSERT_EQ(0, mprotect(self->map + self->psz, self->psz, PROT_NONE));
	self->end = self->map + self->psz;
}

FIXTURE_TEARDOWN(edge)
{
	munmap(self->map, 2 * self->psz);
}

/*
 * The kernel's struct size: a page-sized attr with a non-zero last byte
 * is E2BIG and gets the size written back.  0 if that fails.
 */
static __u32 kernel_attr_size(void)
{
	long psz = getpagesize();
	char *buf = calloc(1, psz);
	__u32 size = 0;

	if (!buf)
		return 0;
	attr_put(buf, psz);
	buf[psz - 1] = 1;
	if (open_errno(buf) == E2BIG)
		memcpy(&size, buf + offsetof(struct perf_event_attr, size),
		       sizeof(size));
	free(buf);
	return size;
}

TEST_F(edge, every_size_up_to_the_hole)
{
	__u32 ksize = kernel_attr_size(), size;
	char *attr;

	ASSERT_NE(0, ksize);
	for (size = PERF_ATTR_SIZE_VER0; size <= ksize + 24; size++) {
		attr = self->end - size;
		memset(self->map, 0, self->psz);
		attr_put(attr, size);
		EXPECT_EQ(0, open_errno(attr)) TH_LOG("size %u", size);
		/* One byte further down: the last byte is in the hole. */
		memmove(attr + 1, attr, size - 1);
		EXPECT_EQ(EFAULT, open_errno(attr + 1)) TH_LOG("size %u", size);
	}
}

TEST_F(edge, size_field_in_the_hole)
{
	__u32 zero = 0;

	/* attr.size is bytes 4-7: half of it, or all of it, unmapped. */
	memset(self->map, 0, self->psz);
	EXPECT_EQ(EFAULT, open_errno(self->end - 6));
	EXPECT_EQ(EFAULT, open_errno(self->end - 4));
	EXPECT_EQ(EFAULT, open_errno(self->end));
	/* Size 0 reads PERF_ATTR_SIZE_VER0 bytes: not there. */
	memcpy(self->end - 4, &zero, sizeof(zero));
	EXPECT_EQ(EFAULT, open_errno(self->end - 8));
	/* ... but the same at the right place opens. */
	attr_put(self->end - PERF_ATTR_SIZE_VER0, 0);
	EXPECT_EQ(0, open_errno(self->end - PERF_ATTR_SIZE_VER0));
}

/* A large attr of zeroes ending at the hole; a non-zero last byte. */
TEST_F(edge, large_sizes_at_the_hole)
{
	__u32 ksize = kernel_attr_size(), got;
	long psz = self->psz;

	ASSERT_NE(0, ksize);
	memset(self->map, 0, psz);
	attr_put(self->map, psz);
	EXPECT_EQ(0, open_errno(self->map));
	self->map[psz - 1] = 0x40;
	EXPECT_EQ(E2BIG, open_errno(self->map));
	memcpy(&got, self->map + 4, sizeof(got));
	EXPECT_EQ(ksize, got);
	/* Past the page size: refused on the size, nothing else read. */
	attr_put(self->map, psz + 1);
	EXPECT_EQ(E2BIG, open_errno(self->map));
	memcpy(&got, self->map + 4, sizeof(got));
	EXPECT_EQ(ksize, got);
}

/* Odd sizes above the struct: each byte of the excess is looked at. */
TEST(odd_sizes_nonzero_excess)
{
	__u32 ksize = kernel_attr_size(), size, got, off;
	unsigned char buf[512];

	ASSERT_NE(0, ksize);
	ASSERT_LT(ksize + 64, sizeof(buf));
	for (size = ksize + 1; size < ksize + 64; size += 3) {
		memset(buf, 0, sizeof(buf));
		attr_put(buf, size);
		EXPECT_EQ(0, open_errno(buf)) TH_LOG("size %u", size);
		for (off = ksize; off < size; off++) {
			memset(buf + ksize, 0, sizeof(buf) - ksize);
			attr_put(buf, size);
			buf[off] = 0x01;
			EXPECT_EQ(E2BIG, open_errno(buf))
				TH_LOG("size %u byte %u", size, off);
			memcpy(&got, buf + 4, sizeof(got));
			EXPECT_EQ(ksize, got);
		}
		/* Beyond attr.size the bytes are not read. */
		memset(buf + ksize, 0, sizeof(buf) - ksize);
		attr_put(buf, size);
		buf[size] = 0xff;
		EXPECT_EQ(0, open_errno(buf)) TH_LOG("size %u", size);
	}
	/* Odd sizes inside the struct: the rest is taken as zero. */
	for (size = PERF_ATTR_SIZE_VER0 + 1; size < ksize; size += 7) {
		memset(buf, 0xff, sizeof(buf));
		attr_put(buf, size);
		EXPECT_EQ(0, open_errno(buf)) TH_LOG("size %u", size);
	}
}

/* E2BIG does not become EFAULT when the size cannot be written back. */
TEST(e2big_read_only_attr)
{
	static const __u32 sizes[] = { 1, PERF_ATTR_SIZE_VER0 - 1, 0x10000,
				       0xffffffff };
	long psz = getpagesize();
	unsigned int i;
	__u32 got;
	char *map;

	map = mmap(NULL, psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		ASSERT_EQ(0, mprotect(map, psz, PROT_READ | PROT_WRITE));
		memset(map, 0, psz);
		attr_put(map, sizes[i] < psz ? sizes[i] : 8);
		memcpy(map + 4, &sizes[i], sizeof(sizes[i]));
		ASSERT_EQ(0, mprotect(map, psz, PROT_READ));
		EXPECT_EQ(E2BIG, open_errno(map)) TH_LOG("size %#x", sizes[i]);
		memcpy(&got, map + 4, sizeof(got));
		EXPECT_EQ(sizes[i], got);
	}
	/* A non-zero excess in a read-only page likewise. */
	ASSERT_EQ(0, mprotect(map, psz, PROT_READ | PROT_WRITE));
	memset(map, 0, psz);
	attr_put(map, 256);
	map[255] = 1;
	ASSERT_EQ(0, mprotect(map, psz, PROT_READ));
	EXPECT_EQ(E2BIG, open_errno(map));
	memcpy(&got, map + 4, sizeof(got));
	EXPECT_EQ(256, got);
	munmap(map, psz);
}

/* A page-fault sampler with @sample_type (task-clock would do as well). */
static void pf_attr(struct perf_event_attr *attr, __u64 sample_type)
{
	sample_attr_init(attr, PERF_COUNT_SW_PAGE_FAULTS, 1, sample_type);
	attr->disabled = 1;
}

TEST(branch_sample_type_bits)
{
	struct perf_event_attr attr;
	int bit;

	for (bit = BRANCH_BITS_6_1; bit < 64; bit++) {
		pf_attr(&attr, PERF_SAMPLE_BRANCH_STACK);
		attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | 1ULL << bit;
		EXPECT_EQ(EINVAL, open_errno(&attr)) TH_LOG("bit %d", bit);
		/* Ignored without a branch stack. */
		pf_attr(&attr, PERF_SAMPLE_IP);
		attr.branch_sample_type = 1ULL << bit;
		EXPECT_EQ(0, open_errno(&attr)) TH_LOG("bit %d", bit);
	}
	/* Known bits reach the PMU, which has no branch stack. */
	for (bit = 0; bit < BRANCH_BITS_6_1; bit++) {
		pf_attr(&attr, PERF_SAMPLE_BRANCH_STACK);
		attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | 1ULL << bit;
		EXPECT_EQ(EOPNOTSUPP, open_errno(&attr)) TH_LOG("bit %d", bit);
	}
	/* Privilege levels alone name no branch. */
	pf_attr(&attr, PERF_SAMPLE_BRANCH_STACK);
	attr.branch_sample_type = PLM_ALL;
	EXPECT_EQ(EINVAL, open_errno(&attr));
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_USER;
	EXPECT_EQ(EINVAL, open_errno(&attr));
	attr.branch_sample_type = 0;
	EXPECT_EQ(EINVAL, open_errno(&attr));
}

/* Each bit of sample_regs_user and sample_regs_intr alone. */
TEST(register_mask_bits)
{
	static const __u64 types[] = { PERF_SAMPLE_REGS_USER,
				       PERF_SAMPLE_REGS_INTR };
	struct perf_event_attr attr;
	unsigned int t;
	int bit, want;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		for (bit = 0; bit < 64; bit++) {
			pf_attr(&attr, types[t]);
			attr.sample_regs_user = 1ULL << bit;
			attr.sample_regs_intr = 1ULL << bit;
			if (bit >= REG_XMM0)
				want = EOPNOTSUPP;
			else if (bit >= REG_64_MAX ||
				 (bit >= REG_DS && bit <= REG_GS))
				want = EINVAL;
			else
				want = 0;
			EXPECT_EQ(want, open_errno(&attr))
				TH_LOG("sample_type %#llx bit %d",
				       (unsigned long long)types[t], bit);
			/* Without the sample_type bit: the XMM ones only. */
			pf_attr(&attr, PERF_SAMPLE_IP);
			attr.sample_regs_user = 1ULL << bit;
			attr.sample_regs_intr = 1ULL << bit;
			EXPECT_EQ(bit >= REG_XMM0 ? EOPNOTSUPP : 0,
				  open_errno(&attr)) TH_LOG("bit %d", bit);
		}
		pf_attr(&attr, types[t]);
		EXPECT_EQ(EINVAL, open_errno(&attr));
		attr.sample_regs_user = REG_USER_ALL;
		attr.sample_regs_intr = REG_USER_ALL;
		EXPECT_EQ(0, open_errno(&attr));
		attr.sample_regs_user = ~0ULL;
		attr.sample_regs_intr = ~0ULL;
		EXPECT_EQ(EINVAL, open_errno(&attr));
	}
}

TEST(stack_user_limits)
{
	static const __u32 good[] = { 0, 8, 4096, 32768, STACK_MAX };
	static const __u32 bad[] = { 1, 4, 7, 12, STACK_MAX + 1,
				     STACK_MAX + 4, 65535, 65536, 65544,
				     0x80000000, 0xfffffff8, 0xffffffff };
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		pf_attr(&attr, PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_USER);
		attr.sample_regs_user = 1ULL << 7;	/* SP */
		attr.sample_stack_user = good[i];
		EXPECT_EQ(0, open_errno(&attr)) TH_LOG("%u", good[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		pf_attr(&attr, PERF_SAMPLE_STACK_USER);
		attr.sample_stack_user = bad[i];
		EXPECT_EQ(EINVAL, open_errno(&attr)) TH_LOG("%u", bad[i]);
		pf_attr(&attr, PERF_SAMPLE_IP);
		attr.sample_stack_user = bad[i];
		EXPECT_EQ(0, open_errno(&attr)) TH_LOG("%u", bad[i]);
	}
}

TEST(max_stack_limits)
{
	struct perf_event_attr attr;
	int max;

	ASSERT_EQ(0, read_int_file(MAX_STACK_SYSCTL, &max));
	ASSERT_LT(0, max);
	ASSERT_GT(65535, max);

	pf_attr(&attr, PERF_SAMPLE_CALLCHAIN);
	attr.sample_max_stack = max;
	EXPECT_EQ(0, open_errno(&attr));
	attr.sample_max_stack = 1;
	EXPECT_EQ(0, open_errno(&attr));
	attr.sample_max_stack = max + 1;
	EXPECT_EQ(EOVERFLOW, open_errno(&attr));
	attr.sample_max_stack = 65535;
	EXPECT_EQ(EOVERFLOW, open_errno(&attr));
	pf_attr(&attr, PERF_SAMPLE_IP);
	attr.sample_max_stack = 65535;
	EXPECT_EQ(0, open_errno(&attr));
}

/* Everything that makes a sample big, with the biggest stack dump. */
#define BIG_SAMPLE	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
			 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | \
			 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | \
			 PERF_SAMPLE_READ)

struct stack_check {
	struct perf_event_attr *attr;
	int samples;
	int bad;
	__u64 max_dyn;
	char why[128];		/* of the first bad one */
};

/* Count a bad sample, and say what the first was. */
static void stack_bad(struct stack_check *c, const struct perf_event_header *h,
		      const struct sample *s, bool parsed)
{
	if (!c->bad++)
		snprintf(c->why, sizeof(c->why),
			 "sample %d, %u bytes, misc %#x: %s (stack %llu, dyn %llu)",
			 c->samples, h->size, h->misc,
			 parsed ? "stack sizes" : "does not parse",
			 (unsigned long long)s->stack_size,
			 (unsigned long long)s->dyn_size);
}

static int check_big_sample(struct perf_event_header *h, void *arg)
{
	struct stack_check *c = arg;
	struct sample s;

	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	c->samples++;
	if (sample_parse(h, c->attr, 1, &s))
		stack_bad(c, h, &s, false);
	else if (s.stack_size > STACK_MAX || s.dyn_size > s.stack_size ||
		 s.stack_size % 8)
		stack_bad(c, h, &s, true);
	else if (s.dyn_size > c->max_dyn)
		c->max_dyn = s.dyn_size;
	return 0;
}

static void big_attr(struct perf_event_attr *attr)
{
	pf_attr(attr, BIG_SAMPLE);
	attr->sample_regs_user = REG_USER_ALL;
	attr->sample_stack_user = STACK_MAX;
	attr->read_format = RF_TIMES_ID | PERF_FORMAT_LOST;
}

/*
 * Open the big sampler on the calling thread, map it, take page-fault
 * samples, and check them all; the number of samples, or -1.
 */
static int big_samples(struct stack_check *c)
{
	struct ring r;
	int fd, n = -1;

	big_attr(c->attr);
	fd = sample_open(c->attr);
	if (fd < 0)
		return -1;
	if (ring_map(&r, fd, 64) == 0) {
		ring_prefault(&r);
		if (!fault_enabled(fd, 4) && ring_drain(&r, check_big_sample, c) > 0)
			n = c->samples;
		ring_unmap(&r);
	}
	close(fd);
	return n;
}

/*
 * The biggest user stack dump with the biggest call chain and every
 * register: each record must still fit its u16 size and parse.
 */
TEST(biggest_samples_fit)
{
	struct perf_event_attr attr;
	struct stack_check c = { .attr = &attr };

	EXPECT_LT(0, big_samples(&c));
	EXPECT_EQ(0, c.bad) TH_LOG("%s", c.why);
	EXPECT_GE(STACK_MAX, c.max_dyn);
}

struct thread_check {
	struct perf_event_attr attr;
	struct stack_check c;
	int n;
};

static void *small_stack_thread(void *arg)
{
	struct thread_check *t = arg;

	t->c.attr = &t->attr;
	t->n = big_samples(&t->c);
	return NULL;
}

/* ... and from a thread whose whole stack is smaller than the dump. */
TEST(small_stack_samples_fit)
{
	struct thread_check t = { .n = -1 };
	pthread_attr_t pa;
	pthread_t thread;

	ASSERT_EQ(0, pthread_attr_init(&pa));
	ASSERT_EQ(0, pthread_attr_setstacksize(&pa, 16384));
	ASSERT_EQ(0, pthread_create(&thread, &pa, small_stack_thread, &t));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	pthread_attr_destroy(&pa);
	EXPECT_LT(0, t.n);
	EXPECT_EQ(0, t.c.bad) TH_LOG("%s", t.c.why);
	EXPECT_GE(STACK_MAX, t.c.max_dyn);
}

/*
 * Every sample field a software event can have, CPU-wide on CPU 0, where
 * samples land in kernel threads and the idle task as well as in user
 * tasks (kernel threads have no user registers or stack to dump): each
 * record parses.  (Samples taken at a context switch, of the
 * context-switches software event or the sched:sched_switch trace event,
 * are left out: 6.1 now and then wrote one that did not parse.)
 */
#define EVERY_FIELD	(BIG_SAMPLE | PERF_SAMPLE_STREAM_ID | \
			 PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | \
			 PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | \
			 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | \
			 PERF_SAMPLE_DATA_PAGE_SIZE | \
			 PERF_SAMPLE_CODE_PAGE_SIZE)

static int cpu_wide_samples(struct perf_event_attr *attr,
			    struct stack_check *c)
{
	struct ring r;
	pid_t child;
	int fd;

	*c = (struct stack_check){ .attr = attr };
	attr->sample_type = EVERY_FIELD;
	attr->sample_regs_user = REG_USER_ALL;
	attr->sample_regs_intr = REG_USER_ALL;
	attr->sample_stack_user = 4096;
	attr->read_format = RF_TIMES_ID | PERF_FORMAT_LOST;
	attr->disabled = 1;
	fd = sys_perf_event_open(attr, -1, 0, -1, 0);
	if (fd < 0)
		return -1;
	if (ring_map(&r, fd, 64)) {
		close(fd);
		return -1;
	}
	/* A child on CPU 0 faulting, calling the kernel and switching. */
	child = fork();
	if (child == 0) {
		__u64 end = clock_ns(CLOCK_MONOTONIC) + 200 * NSEC_PER_MSEC;

		pin_to_cpu(0);
		while (clock_ns(CLOCK_MONOTONIC) < end) {
			fault_fresh_pages(4);
			getppid();
			sched_yield();
			sleep_ms(1);
		}
		_exit(0);
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	reap_status(child);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (ring_drain(&r, check_big_sample, c) < 0 && !c->bad++)
		snprintf(c->why, sizeof(c->why), "the ring does not walk");
	ring_unmap(&r);
	close(fd);
	return c->samples;
}

TEST(every_field_cpu_wide)
{
	struct perf_event_attr attr;
	struct stack_check c;

	sw_attr_init(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.sample_period = 500000;
	EXPECT_LT(0, cpu_wide_samples(&attr, &c));
	EXPECT_EQ(0, c.bad) TH_LOG("cpu-clock: %s", c.why);

	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	EXPECT_LT(0, cpu_wide_samples(&attr, &c));
	EXPECT_EQ(0, c.bad) TH_LOG("page faults: %s", c.why);
}

TEST_HARNESS_MAIN
