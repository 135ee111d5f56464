// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling breakpoints.
 *
 *  - A sampling breakpoint writes a PERF_RECORD_SAMPLE per period to its
 *    ring buffer; PERF_SAMPLE_ADDR is the watched address (bp_addr, also
 *    after PERF_EVENT_IOC_MODIFY_ATTRIBUTES moved it), PERF_SAMPLE_IP the
 *    user-space instruction (for an execute breakpoint, the watched one),
 *    PERF_SAMPLE_TID the thread that hit it;
 *  - with attr.sigtrap, every hit sends SIGTRAP to the thread that hit
 *    it, also in threads that inherited the event: si_code TRAP_PERF,
 *    si_addr the watched address, and the event's type and sig_data in
 *    the siginfo's perf fields.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "perf_test_util.h"
#include "breakpoint.h"
#include "../kselftest_harness.h"

#define DATA_PAGES	4
#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | \
			 PERF_SAMPLE_PERIOD)
#define SAMPLE_TYPE_ID	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | \
			 PERF_SAMPLE_ID)
#define USER_TOP	0x0000800000000000ULL

#ifndef TRAP_PERF
#define TRAP_PERF	6
#endif

static struct bp_word words[2];

/* A PERF_RECORD_SAMPLE of SAMPLE_TYPE (of SAMPLE_TYPE_ID: id for period). */
struct sample {
	struct perf_event_header header;
	__u64 ip;
	__u32 pid, tid;
	__u64 addr;
	__u64 period;
};

struct ring {
	struct perf_event_mmap_page *page;
	size_t len;
};

static pid_t gettid_(void)
{
	return syscall(__NR_gettid);
}

/* A sampling breakpoint on this thread with its ring buffer mapped. */
static int open_sampling(struct ring *ring, const void *addr, __u64 len,
			 __u32 type, __u64 period, __u64 sample_type)
{
	struct perf_event_attr attr;
	int fd;

	bp_attr_init(&attr, addr, len, type);
	attr.sample_period = period;
	attr.sample_type = sample_type;
	attr.wakeup_events = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	ring->len = (1 + DATA_PAGES) * getpagesize();
	ring->page = mmap(NULL, ring->len, PROT_READ | PROT_WRITE, MAP_SHARED,
			  fd, 0);
	if (ring->page == MAP_FAILED) {
		close(fd);
		return -1;
	}
	return fd;
}

static void close_sampling(struct ring *ring, int fd)
{
	munmap(ring->page, ring->len);
	close(fd);
}

/*
 * Copy the samples written so far to @out (at most @max), consuming
 * them.  Returns how many there were, or -1 if another record or one of
 * the wrong size came.
 */
static int take_samples(struct ring *ring, struct sample *out, int max)
{
	struct perf_event_mmap_page *pg = ring->page;
	char *data = (char *)pg + pg->data_offset;
	__u64 head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = pg->data_tail;
	int nr = 0, bad = 0;

	while (tail < head) {
		struct perf_event_header *h;
		struct sample s;
		size_t off, i;

		/* Records are 8-byte aligned; copy out byte by byte. */
		for (i = 0; i < sizeof(s); i++) {
			off = (tail + i) % pg->data_size;
			((char *)&s)[i] = data[off];
		}
		h = &s.header;
		if (h->type != PERF_RECORD_SAMPLE || h->size != sizeof(s))
			bad = 1;
		else if (nr < max)
			out[nr] = s;
		nr++;
		if (!h->size)
			break;
		tail += h->size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return bad ? -1 : nr;
}

/* Every write to the watched word is one sample saying where and who. */
TEST(sample_addr)
{
	struct sample s[8];
	struct ring ring;
	int fd, i, nr;

	fd = open_sampling(&ring, &words[0], 8, HW_BREAKPOINT_W, 1,
			   SAMPLE_TYPE);
	ASSERT_LE(0, fd);
	bp_write(&words[0], 5);
	bp_write(&words[1], 5);
	nr = take_samples(&ring, s, 8);
	ASSERT_EQ(5, nr);
	for (i = 0; i < nr; i++) {
		EXPECT_EQ((unsigned long)&words[0], s[i].addr);
		EXPECT_EQ(getpid(), s[i].pid);
		EXPECT_EQ(gettid_(), s[i].tid);
		EXPECT_EQ(1, s[i].period);
		EXPECT_NE(0, s[i].ip);
		EXPECT_GT(USER_TOP, s[i].ip);
		EXPECT_EQ(PERF_RECORD_MISC_USER,
			  s[i].header.misc & PERF_RECORD_MISC_CPUMODE_MASK);
	}
	EXPECT_EQ(5, bp_count(fd));
	close_sampling(&ring, fd);
}

/* A read/write breakpoint samples the reads too, with the same address. */
TEST(sample_reads)
{
	struct sample s[8];
	struct ring ring;
	int fd, nr;

	fd = open_sampling(&ring, (char *)&words[0] + 4, 4, HW_BREAKPOINT_RW,
			   1, SAMPLE_TYPE);
	ASSERT_LE(0, fd);
	bp_read(&words[0], 3);
	nr = take_samples(&ring, s, 8);
	ASSERT_EQ(3, nr);
	EXPECT_EQ((unsigned long)&words[0] + 4, s[0].addr);
	EXPECT_EQ((unsigned long)&words[0] + 4, s[2].addr);
	close_sampling(&ring, fd);
}

/* An execute breakpoint samples the instruction it watches. */
TEST(sample_execute)
{
	struct sample s[8];
	struct ring ring;
	int fd, nr, i;

	fd = open_sampling(&ring, bp_code, sizeof(long), HW_BREAKPOINT_X, 1,
			   SAMPLE_TYPE);
	ASSERT_LE(0, fd);
	bp_run(4);
	nr = take_samples(&ring, s, 8);
	ASSERT_EQ(4, nr);
	for (i = 0; i < nr; i++) {
		EXPECT_EQ((unsigned long)bp_code, s[i].ip);
		EXPECT_EQ((unsigned long)bp_code, s[i].addr);
	}
	close_sampling(&ring, fd);
}

/*
 * One sample per period of hits: without PERF_SAMPLE_PERIOD in the
 * sample, every third hit; with it, 6.1 samples every hit of the
 * software-style PMUs and says each stands for one.
 */
TEST(sample_period)
{
	struct sample s[12];
	struct ring ring;
	__u64 id;
	int fd, nr;

	/* The last field is the event's id in place of the period. */
	fd = open_sampling(&ring, &words[1], 8, HW_BREAKPOINT_W, 3,
			   SAMPLE_TYPE_ID);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	bp_write(&words[1], 10);
	nr = take_samples(&ring, s, 12);
	EXPECT_EQ(3, nr);
	EXPECT_EQ(id, s[0].period);
	EXPECT_EQ(10, bp_count(fd));
	close_sampling(&ring, fd);

	fd = open_sampling(&ring, &words[1], 8, HW_BREAKPOINT_W, 3,
			   SAMPLE_TYPE);
	ASSERT_LE(0, fd);
	bp_write(&words[1], 10);
	nr = take_samples(&ring, s, 12);
	EXPECT_EQ(10, nr);
	EXPECT_EQ(1, s[0].period);
	EXPECT_EQ(1, s[9].period);
	EXPECT_EQ(10, bp_count(fd));
	close_sampling(&ring, fd);
}

/* Moved, it samples its new address. */
TEST(sample_after_modify)
{
	struct perf_event_attr attr;
	struct sample s[8];
	struct ring ring;
	int fd, nr;

	fd = open_sampling(&ring, &words[0], 8, HW_BREAKPOINT_W, 1,
			   SAMPLE_TYPE);
	ASSERT_LE(0, fd);
	bp_write(&words[0], 1);
	bp_attr_init(&attr, &words[1], 8, HW_BREAKPOINT_W);
	attr.sample_period = 1;
	attr.sample_type = SAMPLE_TYPE;
	attr.wakeup_events = 1;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	bp_write(&words[0], 1);
	bp_write(&words[1], 2);
	nr = take_samples(&ring, s, 8);
	ASSERT_EQ(3, nr);
	EXPECT_EQ((unsigned long)&words[0], s[0].addr);
	EXPECT_EQ((unsigned long)&words[1], s[1].addr);
	EXPECT_EQ((unsigned long)&words[1], s[2].addr);
	close_sampling(&ring, fd);
}

/*
 * The fields of a TRAP_PERF siginfo after si_addr, which the C library
 * may not name: the event's sig_data and type.
 */
struct trap_perf_info {
	int signo, err, code, pad;
	void *addr;
	unsigned long data;
	__u32 type;
	__u32 flags;
};

#define SIG_DATA	0x5eed0bbaULL
#define NR_THREADS	4
#define THREAD_WRITES	10

static struct {
	int nr;
	int bad;
	pid_t last_tid;
} traps;

static __thread int my_traps;

static void on_sigtrap(int sig, siginfo_t *si, void *uc)
{
	struct trap_perf_info *info = (struct trap_perf_info *)si;

	if (info->code != TRAP_PERF ||
	    info->addr != (void *)&words[1].v ||
	    info->data != (unsigned long)SIG_DATA ||
	    info->type != PERF_TYPE_BREAKPOINT)
		__atomic_add_fetch(&traps.bad, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&traps.nr, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&traps.last_tid, gettid_(), __ATOMIC_RELAXED);
	my_traps++;
}

/* Open a sigtrap watchpoint on words[1] that threads inherit. */
static int open_sigtrap(void)
{
	struct perf_event_attr attr;

	bp_attr_init(&attr, &words[1], 8, HW_BREAKPOINT_W);
	attr.sample_period = 1;
	attr.inherit = 1;
	attr.inherit_thread = 1;
	attr.remove_on_exec = 1;
	attr.sigtrap = 1;
	attr.sig_data = SIG_DATA;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

static void catch_sigtrap(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigtrap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);
	memset(&traps, 0, sizeof(traps));
}

/* The watching thread gets its own SIGTRAP. */
TEST(sigtrap_self)
{
	int fd;

	catch_sigtrap();
	fd = open_sigtrap();
	ASSERT_LE(0, fd);
	bp_write(&words[1], 3);
	bp_write(&words[0], 3);
	EXPECT_EQ(3, traps.nr);
	EXPECT_EQ(0, traps.bad);
	EXPECT_EQ(gettid_(), traps.last_tid);
	EXPECT_EQ(3, bp_count(fd));
	close(fd);
}

static void *hit_watchpoint(void *arg)
{
	my_traps = 0;
	bp_write(&words[1], THREAD_WRITES);
	return (void *)(long)my_traps;
}

/* Each thread that hits the watchpoint gets the SIGTRAP itself. */
TEST(sigtrap_threads)
{
	pthread_t threads[NR_THREADS];
	void *ret;
	int fd, i;

	catch_sigtrap();
	fd = open_sigtrap();
	ASSERT_LE(0, fd);
	for (i = 0; i < NR_THREADS; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, hit_watchpoint,
					    NULL));
	for (i = 0; i < NR_THREADS; i++) {
		ASSERT_EQ(0, pthread_join(threads[i], &ret));
		EXPECT_EQ(THREAD_WRITES, (long)ret);
	}
	EXPECT_EQ(NR_THREADS * THREAD_WRITES, traps.nr);
	EXPECT_EQ(0, traps.bad);
	EXPECT_NE(gettid_(), traps.last_tid);
	/* None in this thread, which did not write. */
	EXPECT_EQ(0, my_traps);
	EXPECT_EQ(NR_THREADS * THREAD_WRITES, bp_count(fd));
	close(fd);
}

TEST_HARNESS_MAIN
