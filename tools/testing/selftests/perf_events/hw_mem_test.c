// SPDX-License-Identifier: GPL-2.0
/*
 * Memory profiling on PEBS, as perf mem samples it: the PMU's mem-loads
 * event (MEM_TRANS_RETIRED.LOAD_LATENCY, 0x1cd: the loads slower than
 * its ldlat threshold, attr.config1) and mem-stores (ALL_STORES,
 * 0x82d0), precise, with the data address (PERF_SAMPLE_ADDR), the data
 * source (PERF_SAMPLE_DATA_SRC) and a load's latency in cycles
 * (PERF_SAMPLE_WEIGHT), on arrays walked a line at a time whose
 * accesses find their lines at a known level of the emulated caches
 * (harness/qemu, patches "data caches", "load latency" and "coherence"):
 * a load takes 4 cycles from L1, 12 from L2, 40 from L3 (60 from another
 * CPU's modified copy), 200 from memory.
 *
 *  - an array of twice L2's size, every load from L3: mem-loads with
 *    ldlat 30 samples the walk's load, at the line it loaded, as a
 *    load that hit L3, of weight 40, a sample every period of what it
 *    counted, most of the walk's loads; with ldlat 50 it samples none
 *    of them;
 *  - an array of half L1's size, every load from L1: mem-loads with
 *    ldlat 3 samples them as loads that hit L1, of weight 4;
 *  - mem-stores: stores to the small array hit L1, to an array of
 *    twice L1's size they miss it;
 *  - a thread on CPU 1 and this one on CPU 0 take turns to increment a
 *    word (the writer makes it odd, this one even): mem-loads with ldlat
 *    30 samples the read of each turn that found the line modified in
 *    CPU 1's cache (a HITM, the snoop perf c2c looks for: 60 cycles), at
 *    the word, and nothing else (the reads that find the line still
 *    their own take 4 cycles).
 *
 * The emulated caches see accesses only while a counter counts a cache
 * event (or a PEBS event on loads or stores): a cache-references
 * counter keeps them running while the array is written and walked once
 * before the sampled walks.
 *
 * About MEM_SAMPLES samples, a sample every MEM_PERIOD accesses; nearly
 * every sample as expected (95%; the kernel shares the caches, and an
 * interrupt in the walk may evict a few lines).  Skipped but on the
 * emulated PMU, where mem-loads is not 0x1cd, and where precise_ip is
 * refused (the flavours without PEBS, and our kernel until its driver
 * has it).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"
#include "hw_cache_util.h"

#define EVENTS_PATH	"/sys/bus/event_source/devices/cpu/events/"
#define LOAD_LATENCY	0x01cd
#define ALL_STORES	0x82d0
#define MEM_PERIOD	1009
/* Walks enough for about this many samples. */
#define MEM_SAMPLES	100

/* Whether the PMU's event @name is @want (its first characters). */
static bool pmu_event_is(const char *name, const char *want)
{
	char path[128], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), EVENTS_PATH "%s", name);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !strncmp(buf, want, strlen(want));
}

/* What the samples at the walk's access showed. */
struct mem_seen {
	__u64 count;		/* the event's count */
	int samples;		/* all of them */
	int at;			/* at the walk's access */
	int in_array;		/* ... with an address in the array */
	int source;		/* ... with the data source expected */
	int weight;		/* ... with the weight expected */
};

/* What to sample, and what its samples should say. */
struct mem_how {
	__u64 config, config1;
	bool stores;
	size_t size;
	__u64 lvl;		/* PERF_MEM_LVL_* bits the data source has */
	__u64 weight;		/* 0: not sampled */
};

#define MEM_SKIP_UNLESS_EMULATED() do {					\
	HW_SKIP_WITHOUT_PMU();						\
	if (!hw_emulated_pmu())						\
		SKIP(return, "the levels are the emulated caches'");	\
	if (!pmu_event_is("mem-loads", "event=0xcd,umask=0x1"))	\
		SKIP(return, "mem-loads is not MEM_TRANS_RETIRED (0x1cd)"); \
} while (0)

/* The walks of @how's array that make about MEM_SAMPLES samples. */
static unsigned long mem_passes(const struct mem_how *how)
{
	unsigned long lines = how->size / LINE;

	return (MEM_SAMPLES * MEM_PERIOD + lines - 1) / lines;
}

/*
 * A counter of cache-references for the thread and those it creates,
 * counting from now on, so that the emulated caches see their accesses;
 * its fd, or -1.
 */
static int caches_watched(void)
{
	struct perf_event_attr attr;

	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES);
	attr.disabled = 0;
	attr.inherit = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/*
 * Sample as @how says over mem_passes() walks, at the highest precise
 * level up to 2 (the access itself), on CPU 0 (on another, the lines
 * would come from the first CPU's caches).  0; -1 if precise_ip is
 * refused.
 */
static int mem_sample(struct __test_metadata *_metadata,
		      const struct mem_how *how, struct mem_seen *seen)
{
	const char *access = how->stores ? cache_walk_store : cache_walk_load;
	struct perf_event_attr attr;
	int i, fd, watch, precise;
	struct samples ss;
	struct walk w;
	__u64 count;

	if (pin_to_cpu(0))
		return -2;
	hw_attr_init(&attr, PERF_TYPE_RAW, how->config);
	attr.config1 = how->config1;
	attr.sample_period = MEM_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_DATA_SRC |
			   (how->weight ? PERF_SAMPLE_WEIGHT : 0);
	for (precise = 2, fd = -1; precise > 0 && fd < 0; precise--) {
		attr.precise_ip = precise;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	}
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EINVAL))
		return -1;
	if (fd < 0) {
		TH_LOG("config %#llx: %s", how->config, strerror(errno));
		return -2;
	}
	watch = caches_watched();
	if (watch < 0) {
		TH_LOG("cache-references: %s", strerror(errno));
		close(fd);
		return -2;
	}
	if (walk_init(&w, how->size, how->stores)) {
		close(watch);
		close(fd);
		return -2;
	}
	/* A first walk brings the array where the others find it. */
	w.loop.fn(1, w.loop.arg);
	i = hw_asm_sample(fd, &attr, &w.loop, mem_passes(how), &ss, &count);
	close(watch);
	if (i) {
		walk_fini(&w);
		return -2;
	}
	memset(seen, 0, sizeof(*seen));
	seen->count = count;
	for (i = 0; i < ss.kept; i++) {
		const struct sample *s = &ss.s[i];
		union perf_mem_data_src src = { .val = s->data_src };

		seen->samples++;
		/* At precise_ip 1, the instruction after the access. */
		if (s->ip != (uintptr_t)access &&
		    !(attr.precise_ip == 1 && s->ip > (uintptr_t)access &&
		      s->ip <= (uintptr_t)access + 8))
			continue;
		if (!seen->at++)
			TH_LOG("the first sample at the access: data source %#llx, weight %llu",
			       s->data_src, s->weight);
		seen->in_array += s->addr >= (uintptr_t)w.array &&
				  s->addr < (uintptr_t)w.array + w.size;
		seen->source += (src.mem_lvl & how->lvl) == how->lvl &&
				src.mem_op == (how->stores ? PERF_MEM_OP_STORE :
						PERF_MEM_OP_LOAD);
		seen->weight += s->weight == how->weight;
		if (seen->at - seen->source <= 2 && (src.mem_lvl & how->lvl) !=
		    how->lvl)
			TH_LOG("sample %d: data source %#llx (op %#x, lvl %#x), weight %llu",
			       i, s->data_src, src.mem_op, src.mem_lvl,
			       s->weight);
	}
	TH_LOG("config %#llx ldlat %llu, precise_ip %d: %llu events, %d samples",
	       how->config, how->config1, attr.precise_ip, count,
	       seen->samples);
	TH_LOG("%d at the walk's access: %d in the array, %d with the source, %d of weight %llu",
	       seen->at, seen->in_array, seen->source, seen->weight,
	       how->weight);
	EXPECT_EQ(0, ss.bad);
	EXPECT_EQ(0, ss.counts.type[PERF_RECORD_LOST]);
	samples_free(&ss);
	walk_fini(&w);
	return 0;
}

/* @n is nearly all (95%) of @of samples, those @what. */
static void expect_nearly_all(struct __test_metadata *_metadata, int n,
			      int of, const char *what)
{
	EXPECT_LE(of - of / 20, n) TH_LOG("%d of %d samples %s", n, of, what);
}

/*
 * @how's samples: one a period of the event's count, which is most of
 * the walk's accesses, each at the line it accessed, with the data
 * source (and weight) expected.  (Most: which lines of the array share
 * a set of L2 or L3 depends on the physical pages it got, and a set
 * that holds no more of them than it has ways keeps them; mem-loads
 * does not count what it then finds nearer.)
 */
static void expect_samples(struct __test_metadata *_metadata,
			   const struct mem_how *how)
{
	__u64 accesses = mem_passes(how) * (how->size / LINE);
	struct mem_seen seen;
	int expected, ret = mem_sample(_metadata, how, &seen);

	if (ret == -1)
		SKIP(return, "precise_ip refused");
	ASSERT_EQ(0, ret);
	expected = seen.count / MEM_PERIOD;
	EXPECT_LE(accesses / 2, seen.count);
	EXPECT_LE(expected - 1, seen.samples);
	EXPECT_GE(expected + 1, seen.samples);
	expect_nearly_all(_metadata, seen.at, seen.samples,
			  "at the walk's access");
	expect_nearly_all(_metadata, seen.in_array, seen.at, "in the array");
	expect_nearly_all(_metadata, seen.source, seen.at,
			  "with the data source");
	if (how->weight)
		expect_nearly_all(_metadata, seen.weight, seen.at,
				  "with the weight");
}

TEST(loads_from_l3)
{
	const struct mem_how how = {
		.config = LOAD_LATENCY, .config1 = 30, .size = 2 * cache_size(2),
		.lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, .weight = 40,
	};

	MEM_SKIP_UNLESS_EMULATED();
	if (!cache_size(2) || cache_size(3) < 4 * cache_size(2))
		SKIP(return, "no L2, or no L3 of 4 times its size");
	expect_samples(_metadata, &how);
}

TEST(loads_under_the_threshold)
{
	const struct mem_how how = {
		.config = LOAD_LATENCY, .config1 = 50, .size = 2 * cache_size(2),
		.lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, .weight = 40,
	};
	struct mem_seen seen;
	int ret;

	MEM_SKIP_UNLESS_EMULATED();
	if (!cache_size(2) || cache_size(3) < 4 * cache_size(2))
		SKIP(return, "no L2, or no L3 of 4 times its size");
	ret = mem_sample(_metadata, &how, &seen);
	if (ret == -1)
		SKIP(return, "precise_ip refused");
	ASSERT_EQ(0, ret);
	/* A line evicted and loaded from memory may be: not a period. */
	EXPECT_GE(1, seen.at);
}

TEST(loads_from_l1)
{
	const struct mem_how how = {
		.config = LOAD_LATENCY, .config1 = 3, .size = cache_size(0) / 2,
		.lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT, .weight = 4,
	};

	MEM_SKIP_UNLESS_EMULATED();
	if (!cache_size(0))
		SKIP(return, "no L1 data cache size in sysfs");
	expect_samples(_metadata, &how);
}

TEST(stores_hit_and_miss_l1)
{
	const struct mem_how hit = {
		.config = ALL_STORES, .stores = true, .size = cache_size(0) / 2,
		.lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT,
	};
	const struct mem_how miss = {
		.config = ALL_STORES, .stores = true, .size = 2 * cache_size(0),
		.lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_MISS,
	};

	MEM_SKIP_UNLESS_EMULATED();
	if (!pmu_event_is("mem-stores", "event=0xd0,umask=0x82"))
		SKIP(return, "mem-stores is not ALL_STORES (0x82d0)");
	if (!cache_size(0) ||
	    cache_info(0, "number_of_sets") * LINE > (unsigned long)getpagesize())
		SKIP(return, "no L1 size, or a way of it larger than a page");
	expect_samples(_metadata, &hit);
	expect_samples(_metadata, &miss);
}

/* The word the two threads share, on a line of its own. */
static struct {
	volatile unsigned long word;
	volatile int started, stop;
} shared __attribute__((aligned(64)));

static void *hitm_writer(void *arg)
{
	unsigned long w;

	pin_to_cpu(1);
	shared.started = 1;
	while (!shared.stop) {
		w = shared.word;
		if (!(w & 1))
			shared.word = w + 1;
	}
	return NULL;
}

/* @n turns: wait for the word to be odd, and make it even. */
static void hitm_turns(unsigned long n, void *arg)
{
	unsigned long w;

	while (n) {
		w = shared.word;
		if (w & 1) {
			shared.word = w + 1;
			n--;
		}
	}
}

TEST(loads_hitm)
{
	struct hw_asm_loop loop = { .fn = hitm_turns };
	unsigned long hitm = 0, at = 0, weight = 0;
	struct perf_event_attr attr;
	struct samples ss;
	pthread_t writer;
	__u64 count;
	int i, fd, watch;

	MEM_SKIP_UNLESS_EMULATED();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU");
	ASSERT_EQ(0, pin_to_cpu(0));
	hw_attr_init(&attr, PERF_TYPE_RAW, LOAD_LATENCY);
	attr.config1 = 30;
	attr.sample_period = 97;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT;
	attr.precise_ip = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EINVAL))
		SKIP(return, "precise_ip refused");
	ASSERT_LE(0, fd);
	/* The writer's caches run while a cache event counts on its CPU. */
	watch = caches_watched();
	ASSERT_LE(0, watch);
	shared.stop = 0;
	shared.started = 0;
	ASSERT_EQ(0, pthread_create(&writer, NULL, hitm_writer, NULL));
	while (!shared.started)
		;
	i = hw_asm_sample(fd, &attr, &loop, 3000, &ss, &count);
	shared.stop = 1;
	pthread_join(writer, NULL);
	close(watch);
	ASSERT_EQ(0, i);
	for (i = 0; i < ss.kept; i++) {
		const struct sample *s = &ss.s[i];
		union perf_mem_data_src src = { .val = s->data_src };

		if (s->addr != (uintptr_t)&shared.word)
			continue;
		if (!at++)
			TH_LOG("the first sample at the word: data source %#llx",
			       s->data_src);
		hitm += !!(src.mem_snoop & PERF_MEM_SNOOP_HITM);
		weight += s->weight == 60;
	}
	TH_LOG("%llu HITM loads counted, %d samples: %lu at the word, %lu HITM, %lu of weight 60",
	       count, ss.kept, at, hitm, weight);
	samples_free(&ss);
	EXPECT_LE(10, at);
	expect_nearly_all(_metadata, at, ss.kept, "at the word");
	expect_nearly_all(_metadata, hitm, at, "HITM");
	expect_nearly_all(_metadata, weight, at, "of weight 60");
}

TEST_HARNESS_MAIN
