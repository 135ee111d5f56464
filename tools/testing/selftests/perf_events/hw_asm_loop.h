/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A test's own loop in assembly, counted and sampled with a raw event:
 * what the tests of a model's retirement events (branches by kind,
 * loads and stores) share.  The loop is exact by construction, so the
 * difference method of hw_test_util.h gives each event's count an
 * iteration, and a sampling event's overflows fall inside the loop.
 *
 * Include this after "perf_sample_util.h", "hw_test_util.h" and
 * "../kselftest_harness.h".
 */
#ifndef HW_ASM_LOOP_H
#define HW_ASM_LOOP_H

#include <stdint.h>

#include "perf_sample_util.h"
#include "hw_test_util.h"

/* The iterations of the difference method, and of a sampling run. */
#define HW_ASM_N1		10000UL
#define HW_ASM_N2		110000UL
#define HW_ASM_LOOPS		200000UL
/* A sample period: a prime, out of step with anything in a loop. */
#define HW_ASM_PERIOD		1009
/*
 * The ring of a sampling run: 512 KiB, room for the 512 samples a run
 * keeps with 32 branches each (the ring is read after the run).
 */
#define HW_ASM_RING_PAGES	128
#define HW_ASM_RATE		1000000

/* @fn(n, arg) runs n iterations (n > 0); [start, end) holds its code. */
struct hw_asm_loop {
	void (*fn)(unsigned long n, void *arg);
	void *arg;
	uintptr_t start, end;
};

/*
 * Reset and enable @fd, run @l for @n iterations, disable, and read the
 * count into @value: the same code around the loop for any @n.  0, or -1
 * if a call failed.
 */
static __attribute__((noinline, unused)) int
hw_asm_count(int fd, const struct hw_asm_loop *l, unsigned long n,
	     __u64 *value)
{
	int ret = 0;

	ret |= ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ret |= ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	l->fn(n, l->arg);
	ret |= ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return ret ? -1 : read_value(fd, value);
}

/*
 * @fd counts exactly @per_iter an iteration of @l (the last iteration may
 * count one less: a loop's own branch is not taken there).
 */
static inline void hw_asm_expect_exact(struct __test_metadata *_metadata,
				       int fd, const struct hw_asm_loop *l,
				       __u64 per_iter, const char *what)
{
	__u64 c1, c2;

	ASSERT_EQ(0, hw_asm_count(fd, l, HW_ASM_N1, &c1));
	ASSERT_EQ(0, hw_asm_count(fd, l, HW_ASM_N1, &c1));
	ASSERT_EQ(0, hw_asm_count(fd, l, HW_ASM_N2, &c2));
	EXPECT_LE((HW_ASM_N1 - 1) * per_iter, c1) TH_LOG("%s", what);
	EXPECT_EQ((HW_ASM_N2 - HW_ASM_N1) * per_iter, c2 - c1) {
		TH_LOG("%s: %llu for %lu iterations, %llu for %lu",
		       what, c1, HW_ASM_N1, c2, HW_ASM_N2);
	}
}

/*
 * The ring is read after the run, so a run must leave it at most this
 * full: a kernel drops what does not fit, and says so only with the next
 * record that does (6.1 and ours), which may never come.
 */
#define HW_ASM_RING_ROOM	4096

/*
 * Sample with @fd, opened disabled with @attr, over @n iterations of @l,
 * the sample rate limit lifted meanwhile: the samples into @ss, the
 * count into @count.  Closes @fd.  0, or -1 if a step failed or the
 * samples came near filling the ring (the test's period is too short).
 */
static inline int hw_asm_sample(int fd, const struct perf_event_attr *attr,
				const struct hw_asm_loop *l, unsigned long n,
				struct samples *ss, __u64 *count)
{
	struct saved_rate_limits limits = {};
	struct ring r;
	int ret = -1;

	if (!sample_rate_lift(&limits, HW_ASM_RATE) &&
	    !ring_map(&r, fd, HW_ASM_RING_PAGES)) {
		ring_prefault(&r);
		samples_init(ss, attr, 1);
		if (!hw_asm_count(fd, l, n, count) && !ring_collect(&r, ss))
			ret = 0;
		if (ring_head(&r) > r.size - HW_ASM_RING_ROOM) {
			fprintf(stderr,
				"# %llu bytes of samples in a ring of %llu: lengthen the period\n",
				(unsigned long long)ring_head(&r),
				(unsigned long long)r.size);
			ret = -1;
		}
		ring_unmap(&r);
	}
	sample_rate_restore(&limits);
	close(fd);
	return ret;
}

/* The samples of a run, for ring_drain(): how many, how many outside. */
struct hw_asm_hits {
	const struct hw_asm_loop *loop;
	int samples;
	int outside;
	struct record_counts counts;
};

static inline int hw_asm_hit(struct perf_event_header *h, void *arg)
{
	struct hw_asm_hits *hits = arg;
	__u64 ip;

	count_record(h, &hits->counts);
	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	hits->samples++;
	ip = *(__u64 *)(h + 1);
	if (ip < hits->loop->start || ip >= hits->loop->end)
		hits->outside++;
	return 0;
}

/*
 * Raw event @config, sampling every HW_ASM_PERIOD events over
 * HW_ASM_LOOPS iterations of @l, @per_iter events each: as many samples
 * as periods fit (within 2), each in the loop, none lost or throttled.
 */
static inline void hw_asm_expect_periods(struct __test_metadata *_metadata,
					 __u64 config,
					 const struct hw_asm_loop *l,
					 __u64 per_iter, const char *what)
{
	struct saved_rate_limits limits = {};
	struct hw_asm_hits hits = { .loop = l };
	struct perf_event_attr attr;
	__u64 count, expected = HW_ASM_LOOPS * per_iter;
	struct ring r;
	int fd;

	ASSERT_EQ(0, sample_rate_lift(&limits, HW_ASM_RATE));
	hw_attr_init(&attr, PERF_TYPE_RAW, config);
	attr.sample_period = HW_ASM_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("raw %#llx: %s", config, strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, HW_ASM_RING_PAGES));
	ring_prefault(&r);

	ASSERT_EQ(0, hw_asm_count(fd, l, HW_ASM_LOOPS, &count));
	ASSERT_LE(0, ring_drain(&r, hw_asm_hit, &hits));
	sample_rate_restore(&limits);

	EXPECT_LE(expected - per_iter, count);
	EXPECT_GE(hits.samples + 2, (int)(expected / HW_ASM_PERIOD)) {
		TH_LOG("%d samples for %llu %s, period %d",
		       hits.samples, expected, what, HW_ASM_PERIOD);
	}
	EXPECT_LE(hits.samples, (int)(count / HW_ASM_PERIOD) + 2);
	EXPECT_EQ(0, hits.outside);
	EXPECT_EQ(0, hits.counts.type[PERF_RECORD_LOST]);
	EXPECT_EQ(0, hits.counts.type[PERF_RECORD_THROTTLE]);
	ring_unmap(&r);
	close(fd);
}

#endif /* HW_ASM_LOOP_H */
