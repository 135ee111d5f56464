// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_SAMPLE: the fields each attr.sample_type bit adds, in the
 * order perf_event_open(2) documents, as Linux 6.1 writes them for
 * software events on x86-64.
 *
 * Page-fault samples are taken at a known instruction (fault_insn) that
 * writes to a known address, so the fields can be checked exactly:
 *
 *  - IDENTIFIER, ID and STREAM_ID are the event's id; TID the thread;
 *    CPU the CPU it runs on (reserved half 0); PERIOD the period; IP the
 *    faulting instruction; ADDR the faulting address; header.misc
 *    PERF_RECORD_MISC_USER.
 *  - READ: the read_format block, for the event alone or its group.
 *  - CALLCHAIN: PERF_CONTEXT_USER then the faulting IP and the return
 *    addresses of its callers (frame pointers); a context-switch sample,
 *    taken in the kernel, has PERF_CONTEXT_KERNEL and kernel addresses
 *    first.  exclude_callchain_kernel/user drop a part, sample_max_stack
 *    (or perf_event_max_stack) bounds the number of addresses.
 *  - RAW on a software event: size 4 and four zero bytes.
 *  - REGS_USER and REGS_INTR: the ABI word and the registers asked for
 *    (REGS_USER of a kernel thread: ABI_NONE and nothing after it);
 *    STACK_USER: the bytes from the user stack pointer up, and dyn_size.
 *  - WEIGHT, DATA_SRC (PERF_MEM_NA), TRANSACTION: what 6.1 puts there
 *    when the PMU has nothing to say.
 *  - PHYS_ADDR, DATA_PAGE_SIZE: the physical address and page size of
 *    the faulting address if a normal page maps it at the time, else 0;
 *    CODE_PAGE_SIZE: the page size of the IP.
 *  - TIME: use_clockid with each allowed clock gives that clock's time.
 *  - PERIOD on a software event samples every occurrence (6.1's rule).
 *  - AUX with aux_sample_size 0: a zero AUX size at the end.
 *  - Refused: an invalid clockid (EINVAL), BRANCH_STACK on a software
 *    event (EOPNOTSUPP; EINVAL with no branch type), WEIGHT together with
 *    WEIGHT_STRUCT (EINVAL), register masks the ABI does not have
 *    (EINVAL) and extended registers the PMU does not sample
 *    (EOPNOTSUPP), stack sizes that are not 8-byte multiples below 64 KiB
 *    (EINVAL).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <asm/perf_regs.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "../kselftest_harness.h"

#define RING_PAGES	16

#define KERNEL_START	0xffff800000000000ULL
#define USER_END	0x0000800000000000ULL

/* The fields that say which event, task, CPU, place and period. */
#define ID_FIELDS	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
			 PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* PERF_MEM_NA of the kernel: every part of data_src not available. */
#define DATA_SRC_NA	(PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | \
			 PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) | \
			 PERF_MEM_S(TLB, NA))

/* The general registers of x86-64: all but DS, ES, FS and GS. */
#define REGS_64		(((1ULL << PERF_REG_X86_64_MAX) - 1) & \
			 ~((1ULL << PERF_REG_X86_DS) | \
			   (1ULL << PERF_REG_X86_ES) | \
			   (1ULL << PERF_REG_X86_FS) | \
			   (1ULL << PERF_REG_X86_GS)))

/* Index of register @reg among those of @mask that a sample carries. */
static int reg_index(__u64 mask, int reg)
{
	return __builtin_popcountll(mask & ((1ULL << reg) - 1));
}

/*
 * Never inlined, cloned or otherwise optimised together with a caller
 * (the kernel's noinline and __noclone, in one).
 */
#define __noipa		__attribute__((__noipa__))

/* The address of a link-time symbol (the program is static, not PIE). */
#define SYMBOL_ADDR(sym) ({						\
	__u64 __a;							\
	asm("leaq " #sym "(%%rip), %0" : "=r" (__a));			\
	__a;								\
})

static bool in_text(__u64 ip)
{
	return ip >= SYMBOL_ADDR(__executable_start) &&
	       ip < SYMBOL_ADDR(etext);
}

/* What a fault taken by fault_at() saw. */
struct fault_site {
	__u64 ret_inner;	/* return address into fault_middle() */
	__u64 ret_middle;	/* return address into fault_at() */
	__u64 marker;		/* address of a marked stack buffer */
};

#define MARK		0x5a17e5a17e5a17e5ULL
#define MARK_WORDS	8

/* The instruction of fault_inner() that takes the fault. */
#define FAULT_INSN	SYMBOL_ADDR(fault_insn)

static __noipa void fill_mark(__u64 *mark)
{
	int i;

	for (i = 0; i < MARK_WORDS; i++)
		mark[i] = MARK + i;
}

/*
 * Write one byte at @p, at the instruction fault_insn.  Not a leaf
 * function, so that its locals are above the stack pointer rather than
 * in the red zone below it.
 */
static __noipa void fault_inner(char *p, struct fault_site *site)
{
	__u64 mark[MARK_WORDS];

	fill_mark(mark);
	site->marker = (uintptr_t)mark;
	site->ret_inner = (uintptr_t)__builtin_return_address(0);
	asm volatile(".globl fault_insn\n"
		     "fault_insn: movb $1, (%0)"
		     : : "r" (p), "r" (mark) : "memory");
}

static __noipa void fault_middle(char *p, struct fault_site *site)
{
	fault_inner(p, site);
	site->ret_middle = (uintptr_t)__builtin_return_address(0);
	asm volatile("" : : : "memory");
}

static __noipa void fault_at(char *p, struct fault_site *site)
{
	fault_middle(p, site);
}

/* Open a sampler with @attr and close it: the errno, or 0. */
static int open_errno(struct perf_event_attr *attr)
{
	int fd = sample_open(attr);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* A sampling event on the caller with its buffer mapped, disabled. */
struct sampler {
	struct perf_event_attr attr;
	int fd;
	__u64 id;
	struct ring r;
	struct samples *ss;
	char *page;	/* fresh pages to fault on */
};

static void sampler_init(struct sampler *s, __u64 config, __u64 sample_type)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	sample_attr_init(&s->attr, config, 1, sample_type);
	s->attr.disabled = 1;
}

/* Open and map; 0 or -errno of the open. */
static int sampler_open(struct sampler *s, int group_fd)
{
	s->fd = sys_perf_event_open(&s->attr, 0, -1, group_fd, 0);
	if (s->fd < 0)
		return -errno;
	if (ioctl(s->fd, PERF_EVENT_IOC_ID, &s->id) ||
	    ring_map(&s->r, s->fd, RING_PAGES))
		return -EIO;
	ring_prefault(&s->r);
	s->ss = calloc(1, sizeof(*s->ss));
	s->page = map_fresh_pages(16);
	if (!s->ss || !s->page)
		return -ENOMEM;
	samples_init(s->ss, &s->attr, 1);
	return 0;
}

static void sampler_close(struct sampler *s)
{
	if (s->ss) {
		samples_free(s->ss);
		free(s->ss);
	}
	if (s->page)
		munmap(s->page, 16 * page_size());
	ring_unmap(&s->r);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/* Take one page fault at @p (in fault_insn) with the event on. */
static void sampler_fault(struct sampler *s, char *p, struct fault_site *site)
{
	ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
	fault_at(p, site);
	ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* The collected sample for address @addr (its index in @idx), or NULL. */
static struct sample *sample_at(struct sampler *s, __u64 addr, int *idx)
{
	int i;

	for (i = 0; i < s->ss->kept; i++) {
		if (s->ss->s[i].addr == addr) {
			if (idx)
				*idx = i;
			return &s->ss->s[i];
		}
	}
	return NULL;
}

/* Collect the samples; the one for address @addr, or NULL. */
static struct sample *sampler_find(struct sampler *s, __u64 addr, int *idx)
{
	if (ring_collect(&s->r, s->ss))
		return NULL;
	return sample_at(s, addr, idx);
}

/*
 * Open @s, fault at byte @off of its fresh pages (in fault_insn) and
 * return the sample of that fault, its index in @idx if not NULL.  What
 * the fault saw goes to @site, if not NULL.
 */
static struct sample *fault_sample(struct __test_metadata *_metadata,
				   struct sampler *s, size_t off,
				   struct fault_site *site, int *idx)
{
	struct fault_site unused;
	struct sample *x;

	ASSERT_EQ(0, sampler_open(s, -1));
	sampler_fault(s, s->page + off, site ? site : &unused);
	x = sampler_find(s, (uintptr_t)(s->page + off), idx);
	ASSERT_NE(NULL, x);
	return x;
}

/* The size of kept sample @i's record, as its header gives it. */
static unsigned int sample_size(const struct sampler *s, int i)
{
	return s->ss->copy[i][0] >> 48;
}

/* Is @addr in the first @nr of the sampler's fresh pages? */
static bool on_pages(const struct sampler *s, __u64 addr, size_t nr)
{
	return addr >= (uintptr_t)s->page &&
	       addr < (uintptr_t)s->page + nr * page_size();
}

/*
 * With @s on, spin for @spin_ns of CPU time (if not 0), then touch the
 * first @nr of its fresh pages; collect the samples.
 */
static void sampler_touch(struct __test_metadata *_metadata,
			  struct sampler *s, size_t nr, __u64 spin_ns)
{
	ASSERT_EQ(0, ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0));
	if (spin_ns)
		spin_cpu_ns(spin_ns);
	touch_pages(s->page, nr);
	ASSERT_EQ(0, ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ring_collect(&s->r, s->ss));
}

TEST(id_fields_in_order)
{
	struct sampler s;
	struct sample *x;
	int cpus[1], i;

	ASSERT_EQ(1, allowed_cpus(cpus, 1));
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));
	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS, ID_FIELDS);
	x = fault_sample(_metadata, &s, 123, NULL, &i);
	EXPECT_EQ(0, s.ss->bad);

	EXPECT_EQ(8 + 9 * 8, sample_size(&s, i));
	EXPECT_EQ(PERF_RECORD_MISC_USER, s.ss->misc[i]);
	EXPECT_EQ(s.id, x->identifier);
	EXPECT_EQ(FAULT_INSN, x->ip);
	EXPECT_EQ(getpid(), x->pid);
	EXPECT_EQ(gettid(), x->tid);
	EXPECT_NE(0, x->time);
	EXPECT_EQ(s.id, x->id);
	EXPECT_EQ(s.id, x->stream_id);
	EXPECT_EQ(cpus[0], x->cpu);
	EXPECT_EQ(0, x->cpu_res);
	EXPECT_EQ(1, x->period);
	sampler_close(&s);
}

/*
 * The first process of a new PID namespace samples itself: pid and tid
 * are 1, as the namespace the event was opened in numbers them (the
 * other tests see the initial namespace's numbers).  The child's exit
 * status says what went wrong: 2 no event, 3 no sample, 4 other pids.
 */
TEST(pid_tid_in_pid_namespace)
{
	int status;
	pid_t child;

	if (unshare(CLONE_NEWPID))
		SKIP(return, "unshare(CLONE_NEWPID): %s", strerror(errno));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		struct fault_site site;
		struct sampler s;
		struct sample *x;

		sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
			     PERF_SAMPLE_TID | PERF_SAMPLE_ADDR);
		if (sampler_open(&s, -1))
			_exit(2);
		sampler_fault(&s, s.page + 64, &site);
		x = sampler_find(&s, (uintptr_t)(s.page + 64), NULL);
		if (!x)
			_exit(3);
		if (x->pid != 1 || x->tid != 1) {
			fprintf(stderr, "# pid %u tid %u in the namespace\n",
				x->pid, x->tid);
			_exit(4);
		}
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Each page fault is at its own address; a read fault counts too. */
TEST(addr_is_fault_address)
{
	struct fault_site site;
	struct sampler s;
	char *p;
	int i, found = 0;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD);
	s.attr.sample_period = 1;
	ASSERT_EQ(0, sampler_open(&s, -1));
	ASSERT_EQ(0, ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 8; i++)
		fault_at(s.page + i * page_size() + 8 * i, &site);
	p = s.page + 8 * page_size() + 4000;
	i = __atomic_load_n(p, __ATOMIC_RELAXED);
	ASSERT_EQ(0, ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_EQ(0, ring_collect(&s.r, s.ss));
	for (i = 0; i < s.ss->kept; i++) {
		struct sample *x = &s.ss->s[i];

		if (x->addr == (uintptr_t)p) {
			found++;
			EXPECT_TRUE(in_text(x->ip));
			continue;
		}
		if (!on_pages(&s, x->addr, 8))
			continue;
		EXPECT_EQ((x->addr - (uintptr_t)s.page) % page_size(),
			  8 * ((x->addr - (uintptr_t)s.page) / page_size()));
		EXPECT_EQ(FAULT_INSN, x->ip);
		EXPECT_EQ(1, x->period);
		found++;
	}
	EXPECT_EQ(9, found);
	sampler_close(&s);
}

/*
 * PERIOD on a software event that is not in frequency mode: as in 6.1
 * (and for perf's sake), every occurrence is sampled, with the number of
 * occurrences as its period, whatever sample_period says.
 */
TEST(period_samples_every_occurrence)
{
	struct sampler s;
	int i, ours = 0;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_PERIOD | PERF_SAMPLE_ADDR);
	s.attr.sample_period = 3;
	ASSERT_EQ(0, sampler_open(&s, -1));
	sampler_touch(_metadata, &s, 16, 0);
	for (i = 0; i < s.ss->kept; i++) {
		EXPECT_EQ(1, s.ss->s[i].period);
		if (on_pages(&s, s.ss->s[i].addr, 16))
			ours++;
	}
	EXPECT_EQ(16, ours);
	sampler_close(&s);
}

/* Without PERIOD the period holds: every third fault. */
TEST(period_without_period_field)
{
	struct sampler s;
	__u64 count;
	int i, ours = 0;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS, PERF_SAMPLE_ADDR);
	s.attr.sample_period = 3;
	ASSERT_EQ(0, sampler_open(&s, -1));
	sampler_touch(_metadata, &s, 15, 0);
	ASSERT_EQ(0, read_value(s.fd, &count));
	for (i = 0; i < s.ss->kept; i++)
		if (on_pages(&s, s.ss->s[i].addr, 16))
			ours++;
	EXPECT_EQ(count / 3, s.ss->kept);
	EXPECT_LE(4, ours);
	EXPECT_GE(5, ours);
	sampler_close(&s);
}

#define READ_FMT_ALL	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | \
			 PERF_FORMAT_LOST)

/* READ of the event alone: its count as of each sample. */
TEST(read_of_event)
{
	struct sampler s;
	__u64 prev_value = 0, prev_enabled = 0, buf[5];
	int i;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_READ | PERF_SAMPLE_ADDR);
	s.attr.read_format = READ_FMT_ALL;
	ASSERT_EQ(0, sampler_open(&s, -1));
	sampler_touch(_metadata, &s, 8, NSEC_PER_MSEC);
	ASSERT_EQ(sizeof(buf), read(s.fd, buf, sizeof(buf)));
	EXPECT_EQ(0, s.ss->bad);
	ASSERT_LE(8, s.ss->kept);
	for (i = 0; i < s.ss->kept; i++) {
		const __u64 *r = s.ss->s[i].read;

		ASSERT_EQ(5, s.ss->s[i].read_words);
		/* value, enabled, running, id, lost */
		if (i)
			EXPECT_EQ(prev_value + 1, r[0]);
		EXPECT_LE(prev_enabled, r[1]);
		EXPECT_LT(0, r[1]);
		/* Our pages were touched after the spin. */
		if (on_pages(&s, s.ss->s[i].addr, 8))
			EXPECT_LE(NSEC_PER_MSEC, r[1]);
		EXPECT_EQ(r[1], r[2]);
		EXPECT_EQ(s.id, r[3]);
		EXPECT_EQ(0, r[4]);
		prev_value = r[0];
		prev_enabled = r[1];
	}
	EXPECT_EQ(buf[0], prev_value);
	sampler_close(&s);
}

/* READ of a group: every member's value and id, leader first. */
TEST(read_of_group)
{
	struct sampler s;
	__u64 ids[3], fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			    PERF_FORMAT_TOTAL_TIME_ENABLED;
	struct group_reading g;
	int m1, m2, i;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_ADDR | PERF_SAMPLE_READ);
	s.attr.read_format = fmt;
	ASSERT_EQ(0, sampler_open(&s, -1));
	s.ss->nr_members = 3;
	m1 = sw_event_open_group(PERF_COUNT_SW_PAGE_FAULTS, fmt, false, 0, -1,
				 s.fd);
	ASSERT_LE(0, m1);
	m2 = sw_event_open_group(PERF_COUNT_SW_TASK_CLOCK, fmt, false, 0, -1,
				 s.fd);
	ASSERT_LE(0, m2);
	ids[0] = s.id;
	ASSERT_EQ(0, ioctl(m1, PERF_EVENT_IOC_ID, &ids[1]));
	ASSERT_EQ(0, ioctl(m2, PERF_EVENT_IOC_ID, &ids[2]));

	sampler_touch(_metadata, &s, 8, NSEC_PER_MSEC);
	EXPECT_EQ(0, s.ss->bad);
	ASSERT_LE(8, s.ss->kept);
	for (i = 0; i < s.ss->kept; i++) {
		struct sample *x = &s.ss->s[i];

		ASSERT_EQ(group_read_words(fmt, 3), x->read_words);
		ASSERT_EQ(0, group_split(x->read, x->read_words * 8, fmt, &g));
		EXPECT_EQ(3, g.nr);
		EXPECT_LT(0, g.enabled);
		EXPECT_EQ(ids[0], g.member[0].id);
		EXPECT_EQ(ids[1], g.member[1].id);
		EXPECT_EQ(ids[2], g.member[2].id);
		/* The two fault counters saw the same faults, give or take. */
		EXPECT_GE(1, llabs((long long)(g.member[0].value -
					       g.member[1].value)));
		/* Our pages were touched after the spin. */
		if (on_pages(&s, x->addr, 8)) {
			EXPECT_LE(NSEC_PER_MSEC, g.enabled);
			EXPECT_LE(NSEC_PER_MSEC, g.member[2].value);
		}
	}
	close(m2);
	close(m1);
	sampler_close(&s);
}

static bool is_context(__u64 ip)
{
	return ip >= (__u64)PERF_CONTEXT_MAX;
}

/*
 * A user fault's chain, its first @nr entries: the user marker, the
 * faulting instruction, then the return addresses into its callers.
 */
static void expect_user_chain(struct __test_metadata *_metadata,
			      const struct sample *x,
			      const struct fault_site *site, int nr)
{
	const __u64 want[] = {
		PERF_CONTEXT_USER, FAULT_INSN, site->ret_inner,
		site->ret_middle,
	};
	int i;

	for (i = 0; i < nr; i++)
		EXPECT_EQ(want[i], x->callchain[i]) TH_LOG("entry %d", i);
}

/*
 * Open @s and fault at byte @off of its pages: the sample's chain must be
 * the first @nr entries expect_user_chain() checks, and no more.
 */
static void fault_chain(struct __test_metadata *_metadata,
			struct sampler *s, size_t off, int nr)
{
	struct fault_site site;
	struct sample *x;

	x = fault_sample(_metadata, s, off, &site, NULL);
	ASSERT_EQ(nr, x->callchain_nr);
	expect_user_chain(_metadata, x, &site, nr);
}

/* A fault in user space: the user part only, with the callers. */
TEST(callchain_user)
{
	struct fault_site site;
	struct sampler s;
	struct sample *x;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
		     PERF_SAMPLE_CALLCHAIN);
	x = fault_sample(_metadata, &s, 8, &site, NULL);
	ASSERT_LE(4, x->callchain_nr);
	expect_user_chain(_metadata, x, &site, 4);
	EXPECT_EQ(x->ip, x->callchain[1]);
	sampler_close(&s);
}

/* sample_max_stack bounds the addresses; the marker does not count. */
TEST(callchain_max_stack)
{
	struct sampler s;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_ADDR | PERF_SAMPLE_CALLCHAIN);
	s.attr.sample_max_stack = 2;
	fault_chain(_metadata, &s, 16, 3);
	sampler_close(&s);
}

FIXTURE(max_stack) {
	struct saved_sysctl max_stack;
};

FIXTURE_SETUP(max_stack)
{
	ASSERT_EQ(0, sysctl_save(&self->max_stack,
				 SYSCTL_PATH("perf_event_max_stack")));
}

FIXTURE_TEARDOWN(max_stack)
{
	sysctl_restore(&self->max_stack);
}

/*
 * perf_event_max_stack is the depth of events that do not ask for one
 * (sample_max_stack 0), and the most any may ask for (EOVERFLOW).
 */
TEST_F(max_stack, sysctl_bounds_chains)
{
	struct sampler s;

	ASSERT_EQ(0, write_int_file(self->max_stack.path, 2));
	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_ADDR | PERF_SAMPLE_CALLCHAIN);
	s.attr.sample_max_stack = 3;
	EXPECT_EQ(EOVERFLOW, open_errno(&s.attr));
	s.attr.sample_max_stack = 0;
	fault_chain(_metadata, &s, 120, 3);
	sampler_close(&s);
}

/* exclude_callchain_user on a user fault: an empty chain. */
TEST(callchain_exclude_user)
{
	struct sampler s;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_ADDR | PERF_SAMPLE_CALLCHAIN);
	s.attr.exclude_callchain_user = 1;
	fault_chain(_metadata, &s, 24, 0);
	sampler_close(&s);
}

/*
 * Open @s and take context-switch samples, which are taken in the kernel,
 * on the way to sleep; there must be some.
 */
static void switch_samples(struct __test_metadata *_metadata,
			   struct sampler *s)
{
	ASSERT_EQ(0, sampler_open(s, -1));
	ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
	switch_out(4);
	ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
	ring_collect(&s->r, s->ss);
	ASSERT_LE(1, s->ss->kept);
}

/*
 * Split a chain: kernel addresses, user entries, markers in order ('k'
 * for the kernel's, 'u' for the user's).  The user part is what following
 * the frame pointers found; only its first entry, the user IP, is sure
 * to be an address.
 */
#define MAX_MARKERS	4

struct chain_parts {
	int kernel, user, bad;
	__u64 bad_ip;
	int bad_at;
	char markers[MAX_MARKERS + 1];
	int nr_markers;
};

static void split_chain(const struct sample *x, struct chain_parts *c)
{
	__u64 ctx = 0, ip;
	__u64 i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < x->callchain_nr; i++) {
		ip = x->callchain[i];
		if (is_context(ip)) {
			ctx = ip;
			if (c->nr_markers < MAX_MARKERS)
				c->markers[c->nr_markers] =
					ip == PERF_CONTEXT_KERNEL ? 'k' :
					ip == PERF_CONTEXT_USER ? 'u' : '?';
			c->nr_markers++;
		} else if (ctx == PERF_CONTEXT_KERNEL && ip >= KERNEL_START) {
			c->kernel++;
		} else if (ctx == PERF_CONTEXT_USER) {
			/* Whatever the frames hold: the last may be junk. */
			c->user++;
		} else {
			c->bad++;
			c->bad_ip = ip;
			c->bad_at = i;
		}
	}
}

/*
 * What the chain of each context-switch sample must hold, for a sampler
 * with the exclude_callchain_* and sample_max_stack settings given.
 */
struct chain_want {
	bool exclude_kernel, exclude_user;
	__u16 max_stack;
	const char *markers;
	int kernel_min, kernel_max;	/* kernel addresses */
	int user_min, user_max;		/* user entries */
	__u64 nr;			/* entries in all, if not 0 */
};

/* Split @x's chain into @c, which must be as @w says. */
static void expect_chain(struct __test_metadata *_metadata,
			 const struct sample *x, const struct chain_want *w,
			 struct chain_parts *c)
{
	split_chain(x, c);
	EXPECT_EQ(0, c->bad) TH_LOG("%llx at %d of %llu",
				    (unsigned long long)c->bad_ip, c->bad_at,
				    (unsigned long long)x->callchain_nr);
	ASSERT_EQ((int)strlen(w->markers), c->nr_markers);
	EXPECT_STREQ(w->markers, c->markers);
	EXPECT_LE(w->kernel_min, c->kernel);
	EXPECT_GE(w->kernel_max, c->kernel);
	EXPECT_LE(w->user_min, c->user);
	EXPECT_GE(w->user_max, c->user);
}

TEST(callchain_kernel_and_user)
{
	static const struct chain_want want = {
		.markers = "ku",
		.kernel_min = 2, .kernel_max = INT_MAX,
		.user_min = 1, .user_max = INT_MAX,
	};
	struct chain_parts c;
	struct sampler s;
	int i;

	sampler_init(&s, PERF_COUNT_SW_CONTEXT_SWITCHES,
		     PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	switch_samples(_metadata, &s);
	EXPECT_EQ(0, s.ss->bad);
	for (i = 0; i < s.ss->kept; i++) {
		struct sample *x = &s.ss->s[i];

		EXPECT_EQ(PERF_RECORD_MISC_KERNEL, s.ss->misc[i]);
		EXPECT_LE(KERNEL_START, x->ip);
		expect_chain(_metadata, x, &want, &c);
		EXPECT_EQ(PERF_CONTEXT_KERNEL, x->callchain[0]);
		/* The user part starts where the task entered the kernel. */
		EXPECT_TRUE(in_text(x->callchain[c.kernel + 2]));
	}
	sampler_close(&s);
}

/*
 * Callchain samples of context switches, from a sampler with the settings
 * of @w: every chain must be as @w says.
 */
static void switch_chains(struct __test_metadata *_metadata,
			  const struct chain_want *w)
{
	struct chain_parts c;
	struct sampler s;
	int i;

	sampler_init(&s, PERF_COUNT_SW_CONTEXT_SWITCHES,
		     PERF_SAMPLE_CALLCHAIN);
	s.attr.exclude_callchain_kernel = w->exclude_kernel;
	s.attr.exclude_callchain_user = w->exclude_user;
	s.attr.sample_max_stack = w->max_stack;
	switch_samples(_metadata, &s);
	for (i = 0; i < s.ss->kept; i++) {
		expect_chain(_metadata, &s.ss->s[i], w, &c);
		if (w->nr)
			EXPECT_EQ(w->nr, s.ss->s[i].callchain_nr);
	}
	sampler_close(&s);
}

TEST(callchain_exclude_kernel)
{
	static const struct chain_want want = {
		.exclude_kernel = true,
		.markers = "u",
		.kernel_min = 0, .kernel_max = 0,
		.user_min = 1, .user_max = INT_MAX,
	};

	switch_chains(_metadata, &want);
}

TEST(callchain_exclude_user_kernel_sample)
{
	static const struct chain_want want = {
		.exclude_user = true,
		.markers = "k",
		.kernel_min = 2, .kernel_max = INT_MAX,
		.user_min = 0, .user_max = 0,
	};

	switch_chains(_metadata, &want);
}

/*
 * The kernel part fills sample_max_stack: nothing is left for the user,
 * but as in 6.1 the user marker is still there, alone.
 */
TEST(callchain_max_stack_kernel)
{
	static const struct chain_want want = {
		.max_stack = 2,
		.markers = "ku",
		.kernel_min = 2, .kernel_max = 2,
		.user_min = 0, .user_max = 0,
		.nr = 4,
	};

	switch_chains(_metadata, &want);
}

/* RAW on an event that has no raw data: a u32 size of 4, then 0. */
TEST(raw_software)
{
	struct sampler s;
	struct sample *x;
	int i;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_ADDR | PERF_SAMPLE_RAW);
	x = fault_sample(_metadata, &s, 32, NULL, &i);
	EXPECT_EQ(24, sample_size(&s, i));
	EXPECT_EQ(4, x->raw_size);
	EXPECT_EQ(0, *(const __u32 *)x->raw);
	sampler_close(&s);
}

/* The user registers at a user fault: where fault_insn runs. */
TEST(regs_user)
{
	struct fault_site site;
	struct sampler s;
	struct sample *x;
	__u64 sp;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
		     PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR);
	s.attr.sample_regs_user = REGS_64;
	s.attr.sample_regs_intr = (1ULL << PERF_REG_X86_IP) |
				  (1ULL << PERF_REG_X86_SP);
	x = fault_sample(_metadata, &s, 40, &site, NULL);

	ASSERT_EQ(PERF_SAMPLE_REGS_ABI_64, x->regs_user_abi);
	EXPECT_EQ(x->ip, x->regs_user[reg_index(REGS_64, PERF_REG_X86_IP)]);
	sp = x->regs_user[reg_index(REGS_64, PERF_REG_X86_SP)];
	/* The marked buffer is in fault_inner()'s frame, above SP. */
	EXPECT_LE(sp, site.marker);
	EXPECT_GT(sp + 4096, site.marker);
	EXPECT_EQ(0x33, x->regs_user[reg_index(REGS_64, PERF_REG_X86_CS)]);
	EXPECT_EQ(0x2b, x->regs_user[reg_index(REGS_64, PERF_REG_X86_SS)]);
	/* User mode runs with interrupts on. */
	EXPECT_NE(0, x->regs_user[reg_index(REGS_64, PERF_REG_X86_FLAGS)] &
		     0x200);

	/* The interrupted registers of a user fault are the user's. */
	ASSERT_EQ(PERF_SAMPLE_REGS_ABI_64, x->regs_intr_abi);
	EXPECT_EQ(sp, x->regs_intr[0]);
	EXPECT_EQ(x->ip, x->regs_intr[1]);
	sampler_close(&s);
}

/* A sample taken in the kernel: user registers from the syscall entry. */
TEST(regs_in_kernel_sample)
{
	struct sampler s;
	__u64 mask = (1ULL << PERF_REG_X86_IP) | (1ULL << PERF_REG_X86_CS);
	int i;

	sampler_init(&s, PERF_COUNT_SW_CONTEXT_SWITCHES,
		     PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER |
		     PERF_SAMPLE_REGS_INTR);
	s.attr.sample_regs_user = mask;
	s.attr.sample_regs_intr = mask;
	switch_samples(_metadata, &s);
	EXPECT_EQ(0, s.ss->bad);
	for (i = 0; i < s.ss->kept; i++) {
		struct sample *x = &s.ss->s[i];

		ASSERT_EQ(PERF_SAMPLE_REGS_ABI_64, x->regs_user_abi);
		EXPECT_TRUE(in_text(x->regs_user[0]));
		EXPECT_EQ(0x33, x->regs_user[1]);
		ASSERT_EQ(PERF_SAMPLE_REGS_ABI_64, x->regs_intr_abi);
		EXPECT_EQ(x->ip, x->regs_intr[0]);
		EXPECT_LE(KERNEL_START, x->regs_intr[0]);
	}
	sampler_close(&s);
}

/*
 * A kernel thread has no user registers: a CPU's context-switch samples
 * of the idle task (pid 0) have PERF_SAMPLE_REGS_ABI_NONE and no
 * registers after it; those of this task, ABI_64.
 */
TEST(regs_user_kernel_thread)
{
	struct perf_event_attr attr;
	struct samples *ss;
	int i, fd, idle = 0, mine = 0;
	cpu_set_t cpu0;
	struct ring r;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpu0), &cpu0));
	sample_attr_init(&attr, PERF_COUNT_SW_CONTEXT_SWITCHES, 1,
			 PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER);
	attr.sample_regs_user = 1ULL << PERF_REG_X86_IP;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		SKIP(return, "no CPU-wide events here: %s", strerror(errno));
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, RING_PAGES));
	ss = malloc(sizeof(*ss));
	ASSERT_NE(NULL, ss);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 20; i++)
		usleep(1000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	samples_init(ss, &attr, 1);
	ASSERT_EQ(0, ring_collect(&r, ss));
	EXPECT_EQ(0, ss->bad);
	for (i = 0; i < ss->kept; i++) {
		const struct sample *x = &ss->s[i];

		if (x->pid == 0) {
			idle++;
			EXPECT_EQ(PERF_SAMPLE_REGS_ABI_NONE, x->regs_user_abi);
		} else if (x->pid == (__u32)getpid()) {
			mine++;
			EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, x->regs_user_abi);
		}
	}
	EXPECT_LT(0, idle);
	EXPECT_LT(0, mine);
	samples_free(ss);
	free(ss);
	ring_unmap(&r);
	close(fd);
}

/* STACK_USER: the stack from SP up, with the marked buffer in it. */
TEST(stack_user)
{
	__u64 mask = 1ULL << PERF_REG_X86_SP, sp, off;
	struct fault_site site;
	struct sampler s;
	struct sample *x;
	const __u64 *words;
	int i;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_ADDR | PERF_SAMPLE_REGS_USER |
		     PERF_SAMPLE_STACK_USER);
	s.attr.sample_regs_user = mask;
	s.attr.sample_stack_user = 1024;
	x = fault_sample(_metadata, &s, 48, &site, &i);
	EXPECT_EQ(8 + 8 + 16 + 8 + 1024 + 8, sample_size(&s, i));
	ASSERT_EQ(1024, x->stack_size);
	EXPECT_EQ(1024, x->dyn_size);
	sp = x->regs_user[0];
	off = site.marker - sp;
	ASSERT_GT(1024 - 8 * MARK_WORDS, off);
	words = (const __u64 *)(x->stack + off);
	for (i = 0; i < MARK_WORDS; i++)
		EXPECT_EQ(MARK + i, words[i]);
	sampler_close(&s);
}

/* sample_stack_user 0: just the size word, 0, and no dyn_size. */
TEST(stack_user_empty)
{
	struct sampler s;
	struct sample *x;
	int i;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_ADDR | PERF_SAMPLE_STACK_USER);
	x = fault_sample(_metadata, &s, 56, NULL, &i);
	EXPECT_EQ(24, sample_size(&s, i));
	EXPECT_EQ(0, x->stack_size);
	sampler_close(&s);
}

/* What a software event has nothing to say about. */
TEST(weight_data_src_transaction)
{
	struct sampler s;
	struct sample *x;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT |
		     PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION);
	x = fault_sample(_metadata, &s, 64, NULL, NULL);
	EXPECT_EQ(0, x->weight);
	EXPECT_EQ(DATA_SRC_NA, x->data_src);
	EXPECT_EQ(0, x->transaction);
	sampler_close(&s);

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT_STRUCT);
	x = fault_sample(_metadata, &s, 72, NULL, NULL);
	EXPECT_EQ(0, x->weight);
	sampler_close(&s);
}

static char *protected_page;

/* The write to a read-only page faulted: let it through this time. */
static void unprotect(int sig)
{
	mprotect(protected_page, page_size(), PROT_READ | PROT_WRITE);
}

/*
 * PHYS_ADDR and DATA_PAGE_SIZE describe the faulting address as it is
 * mapped when the fault is counted: not at all on a first touch, a
 * normal page on a write to a present page made read-only.  (A write
 * after a read finds the zero page, which is no normal page: 0 too.)
 * CODE_PAGE_SIZE: the user text is in small pages.
 */
TEST(phys_addr_and_page_sizes)
{
	struct fault_site site;
	struct sampler s;
	struct sample *x;
	char *p, *q;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
		     PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE |
		     PERF_SAMPLE_CODE_PAGE_SIZE);
	ASSERT_EQ(0, sampler_open(&s, -1));
	p = s.page + 80;
	q = s.page + 2 * page_size() + 0x123;
	protected_page = s.page + 2 * page_size();
	*q = 1;
	ASSERT_EQ(0, mprotect(protected_page, page_size(), PROT_READ));
	ASSERT_NE(SIG_ERR, signal(SIGSEGV, unprotect));

	ASSERT_EQ(0, ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0));
	fault_at(p, &site);
	fault_at(q, &site);
	ASSERT_EQ(0, ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0));
	signal(SIGSEGV, SIG_DFL);
	ASSERT_EQ(0, ring_collect(&s.r, s.ss));

	x = sample_at(&s, (uintptr_t)p, NULL);
	ASSERT_NE(NULL, x);
	EXPECT_EQ(0, x->phys_addr);
	EXPECT_EQ(0, x->data_page_size);
	EXPECT_EQ(page_size(), x->code_page_size);

	x = sample_at(&s, (uintptr_t)q, NULL);
	ASSERT_NE(NULL, x);
	EXPECT_NE(0, x->phys_addr);
	EXPECT_EQ(0x123, x->phys_addr & (page_size() - 1));
	EXPECT_EQ(page_size(), x->data_page_size);
	EXPECT_EQ(page_size(), x->code_page_size);
	sampler_close(&s);
}

/* Every bit that applies at once: the fields in the documented order. */
TEST(all_bits_in_order)
{
	__u64 mask = (1ULL << PERF_REG_X86_IP) | (1ULL << PERF_REG_X86_SP);
	struct fault_site site;
	struct sampler s;
	struct sample *x;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     ID_FIELDS | PERF_SAMPLE_READ |
		     PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
		     PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
		     PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
		     PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |
		     PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE |
		     PERF_SAMPLE_CODE_PAGE_SIZE);
	s.attr.read_format = PERF_FORMAT_ID;
	s.attr.sample_regs_user = mask;
	s.attr.sample_regs_intr = mask;
	s.attr.sample_stack_user = 64;
	s.attr.sample_max_stack = 3;
	x = fault_sample(_metadata, &s, 96, &site, NULL);
	EXPECT_EQ(0, s.ss->bad);

	EXPECT_EQ(s.id, x->identifier);
	EXPECT_EQ(FAULT_INSN, x->ip);
	EXPECT_EQ(gettid(), x->tid);
	EXPECT_EQ(s.id, x->id);
	EXPECT_EQ(s.id, x->stream_id);
	EXPECT_EQ(0, x->cpu_res);
	EXPECT_EQ(1, x->period);
	EXPECT_EQ(s.id, x->read[1]);
	EXPECT_EQ(4, x->callchain_nr);
	EXPECT_EQ(PERF_CONTEXT_USER, x->callchain[0]);
	EXPECT_EQ(site.ret_middle, x->callchain[3]);
	EXPECT_EQ(4, x->raw_size);
	/* Registers in bit order: SP, then IP. */
	EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, x->regs_user_abi);
	EXPECT_EQ(x->ip, x->regs_user[1]);
	EXPECT_EQ(64, x->stack_size);
	EXPECT_EQ(64, x->dyn_size);
	EXPECT_EQ(0, x->weight);
	EXPECT_EQ(DATA_SRC_NA, x->data_src);
	EXPECT_EQ(0, x->transaction);
	EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, x->regs_intr_abi);
	EXPECT_EQ(x->regs_user[0], x->regs_intr[0]);
	EXPECT_EQ(x->regs_user[1], x->regs_intr[1]);
	EXPECT_EQ(0, x->phys_addr);
	EXPECT_EQ(0, x->data_page_size);
	EXPECT_EQ(page_size(), x->code_page_size);
	sampler_close(&s);
}

struct clock_case {
	clockid_t clk;
	const char *name;
};

/* use_clockid: TIME is read from that clock, at the fault. */
TEST(use_clockid)
{
	static const struct clock_case clocks[] = {
		{ CLOCK_MONOTONIC, "MONOTONIC" },
		{ CLOCK_MONOTONIC_RAW, "MONOTONIC_RAW" },
		{ CLOCK_REALTIME, "REALTIME" },
		{ CLOCK_BOOTTIME, "BOOTTIME" },
		{ CLOCK_TAI, "TAI" },
	};
	struct fault_site site;
	struct sampler s;
	struct sample *x;
	__u64 before, after;
	unsigned int c;
	char *p;

	for (c = 0; c < ARRAY_SIZE(clocks); c++) {
		sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
			     PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR);
		s.attr.use_clockid = 1;
		s.attr.clockid = clocks[c].clk;
		ASSERT_EQ(0, sampler_open(&s, -1));
		p = s.page + 104;
		ASSERT_EQ(0, ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0));
		before = clock_ns(clocks[c].clk);
		fault_at(p, &site);
		after = clock_ns(clocks[c].clk);
		ASSERT_EQ(0, ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0));
		x = sampler_find(&s, (uintptr_t)p, NULL);
		ASSERT_NE(NULL, x);
		EXPECT_LE(before, x->time) TH_LOG("%s", clocks[c].name);
		EXPECT_GE(after, x->time) TH_LOG("%s", clocks[c].name);
		sampler_close(&s);
	}
}

TEST(invalid_clockid)
{
	static const int bad[] = {
		CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID,
		CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE,
		CLOCK_REALTIME_ALARM, 42, -1,
	};
	struct perf_event_attr attr;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1,
				 PERF_SAMPLE_TIME);
		attr.use_clockid = 1;
		attr.clockid = bad[i];
		fd = sample_open(&attr);
		EXPECT_EQ(-1, fd) TH_LOG("clockid %d", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("clockid %d", bad[i]);
		if (fd >= 0)
			close(fd);
	}
	/* The clockid means nothing without use_clockid. */
	attr.use_clockid = 0;
	fd = sample_open(&attr);
	EXPECT_LE(0, fd);
	close(fd);
}

/* What open says to a page-fault sampler with these settings. */
struct open_case {
	__u64 sample_type;
	__u64 branch_sample_type;
	__u64 regs_user, regs_intr;
	__u32 stack_user;
	int err;			/* 0: accepted */
};

TEST(refused_bits)
{
	static const struct open_case cases[] = {
		/* Software events have no branch stack ... */
		{ .sample_type = PERF_SAMPLE_BRANCH_STACK, .err = EOPNOTSUPP,
		  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
					PERF_SAMPLE_BRANCH_USER },
		/* ... and one of no kind of branch is invalid anywhere. */
		{ .sample_type = PERF_SAMPLE_BRANCH_STACK, .err = EINVAL },
		/* One weight or the other. */
		{ .sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT,
		  .err = EINVAL },
		/* Registers: none, or ones x86-64 does not have. */
		{ .sample_type = PERF_SAMPLE_REGS_USER, .err = EINVAL },
		{ .sample_type = PERF_SAMPLE_REGS_USER, .err = EINVAL,
		  .regs_user = 1ULL << PERF_REG_X86_DS },
		{ .sample_type = PERF_SAMPLE_REGS_USER, .err = EINVAL,
		  .regs_user = 1ULL << 25 },
		{ .sample_type = PERF_SAMPLE_REGS_INTR, .err = EINVAL,
		  .regs_intr = 1ULL << PERF_REG_X86_GS },
		/* XMM registers: only PMUs that sample them. */
		{ .sample_type = PERF_SAMPLE_REGS_INTR, .err = EOPNOTSUPP,
		  .regs_intr = 3ULL << PERF_REG_X86_XMM0 },
		{ .sample_type = PERF_SAMPLE_REGS_USER, .err = EOPNOTSUPP,
		  .regs_user = (1ULL << PERF_REG_X86_IP) |
			       (3ULL << PERF_REG_X86_XMM0) },
		/* ... even in a mask that sample_type does not use. */
		{ .sample_type = PERF_SAMPLE_IP, .err = EOPNOTSUPP,
		  .regs_user = 3ULL << PERF_REG_X86_XMM1 },
		/* Stack dumps: 8-byte multiples below 64 KiB. */
		{ .sample_type = PERF_SAMPLE_STACK_USER, .err = EINVAL,
		  .stack_user = 1001 },
		{ .sample_type = PERF_SAMPLE_STACK_USER, .err = EINVAL,
		  .stack_user = 65536 },
		{ .sample_type = PERF_SAMPLE_STACK_USER, .err = 0,
		  .stack_user = 65528 },
	};
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1,
				 cases[i].sample_type);
		attr.branch_sample_type = cases[i].branch_sample_type;
		attr.sample_regs_user = cases[i].regs_user;
		attr.sample_regs_intr = cases[i].regs_intr;
		attr.sample_stack_user = cases[i].stack_user;
		EXPECT_EQ(cases[i].err, open_errno(&attr)) TH_LOG("case %u", i);
	}
}

/*
 * PERF_SAMPLE_AUX: with aux_sample_size 0 it is accepted and the sample
 * ends with an AUX size of 0; a size needs an AUX event to take the data
 * from (EINVAL without a group leader that has one).  aux_output needs a
 * PMU that can send its output to an AUX event (EOPNOTSUPP).
 */
TEST(aux_sample)
{
	struct sampler s;
	struct sample *x;
	int i;

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS,
		     PERF_SAMPLE_ADDR | PERF_SAMPLE_AUX);
	x = fault_sample(_metadata, &s, 112, NULL, &i);
	EXPECT_EQ(24, sample_size(&s, i));
	EXPECT_EQ(0, x->aux_size);
	sampler_close(&s);

	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS, PERF_SAMPLE_AUX);
	s.attr.aux_sample_size = 4096;
	EXPECT_EQ(EINVAL, open_errno(&s.attr));
	sampler_init(&s, PERF_COUNT_SW_PAGE_FAULTS, PERF_SAMPLE_IP);
	s.attr.aux_output = 1;
	EXPECT_EQ(EOPNOTSUPP, open_errno(&s.attr));
}

TEST_HARNESS_MAIN
