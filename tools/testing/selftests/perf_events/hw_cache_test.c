// SPDX-License-Identifier: GPL-2.0
/*
 * Data cache events, on arrays walked a line at a time, whose hits and
 * misses follow from the emulated caches (harness/qemu, patch "data
 * caches"): the caches CPUID describes, set associative, least recently
 * used replaced first, each level filled on a miss.
 *
 *  - an array of twice the L1 data cache's size, walked again and
 *    again: every load misses L1 and hits L2 (MEM_LOAD_RETIRED's
 *    L1_MISS and L2_HIT, L1D.REPLACEMENT; on AMD, whose
 *    cache-references and cache-misses are L2's requests and misses, a
 *    reference a load and no miss, and L1-dcache-load-misses; on Intel
 *    L1-dcache-load-misses too, whichever event the model has for it:
 *    L1D.REPLACEMENT, Core 2's L1D_CACHE_LD, Golden Cove's L2_RQSTS);
 *    skipped where a way of L1 is larger than a page (QEMU's
 *    AMD geometry: 64 KiB in 2 ways), since which lines share a set
 *    then depends on the physical pages the array got;
 *  - an array of twice the L2 cache's size (less than the L3 cache's):
 *    every load misses L1 and L2 and requests the line from L3
 *    (cache-references, the architectural LLC reference event), and
 *    finds it there (L3_HIT; cache-misses, the LLC miss event, counts
 *    next to nothing); on AMD an L1 access, an L1 miss, an L2 request
 *    (cache-references) and an L2 miss (cache-misses) a load; where
 *    6.1's LLC-load-misses is L2's (Core 2 and Bonnell's L2_LD, AMD's
 *    families before 17h), an LLC load miss a load; from Nehalem, whose
 *    LLC-* and NODE-* events 6.1 counts with OFFCORE_RESPONSE, an
 *    LLC-loads a load and no LLC-load-misses or node-loads.  Every
 *    load but those whose lines stay in L2: L2 is indexed by physical
 *    address, and a set that no more of the array's lines share than it
 *    has ways keeps them (the test reads the array's frames from
 *    /proc/self/pagemap; none where L2 has 4 MiB in 16 ways);
 *  - an array of twice the L3 cache's size, on Intel's cores from
 *    Nehalem: a miss of every level a load (cache-misses, LLC-loads,
 *    LLC-load-misses, node-loads; MEM_LOAD_RETIRED.L3_MISS).
 *
 * Each count by the difference of two walks of different lengths, on
 * CPU 0 (each CPU has its own L1 and L2), in user mode, within 1% of a
 * load a line (the kernel shares the caches: an interrupt in the walk
 * may evict a few lines).  The sizes are read
 * from sysfs (/sys/devices/system/cpu/cpu0/cache).  Skipped but on the
 * emulated PMU, and where the events are not known (MEM_LOAD_RETIRED
 * and L1D.REPLACEMENT are Intel's cores' from Sandy Bridge on).
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"
#include "hw_cache_util.h"

struct cache_event {
	__u32 type;
	__u64 config;
	const char *name;
	int per_line;		/* percent of the loads, a line each */
	bool l2_misses;		/* of the loads that miss L2, not of all */
};

/* Intel's cores from Sandy Bridge: family 6, perfmon version 3. */
static bool intel_core(void)
{
	unsigned int family, model, eax, ebx, ecx, edx;

	hw_cpu_family_model(&family, &model);
	return hw_vendor() == HW_VENDOR_INTEL && family == 6 &&
	       __get_cpuid(0xa, &eax, &ebx, &ecx, &edx) && (eax & 0xff) >= 3 &&
	       !hw_model_atom(model) && !hw_model_bonnell(model) &&
	       !hw_model_nehalem(model);
}

/*
 * Core 2 (perfmon version 2) and Bonnell, whose last level is L2: 6.1
 * counts their LLC events with L2_LD.  (From Nehalem on it programs
 * OFFCORE_RESPONSE, with MSR_OFFCORE_RSP_0 and _1.)
 */
static bool intel_before_nehalem(void)
{
	unsigned int family, model, eax, ebx, ecx, edx;

	hw_cpu_family_model(&family, &model);
	return hw_vendor() == HW_VENDOR_INTEL && family == 6 &&
	       ((__get_cpuid(0xa, &eax, &ebx, &ecx, &edx) &&
		 (eax & 0xff) == 2) || hw_model_bonnell(model));
}

#define HW_CACHE(c, op, r) (PERF_COUNT_HW_CACHE_##c |			\
	(PERF_COUNT_HW_CACHE_OP_##op << 8) |				\
	(PERF_COUNT_HW_CACHE_RESULT_##r << 16))

/*
 * Walk an array of @size every @stride bytes with loads (or with
 * @stores, stores), counting each of @ev (where it opens) by the
 * difference method: @per_line percent of a count an access (of an
 * access that misses L2, for an event of L2's misses), within 1% of a
 * count an access.  Returns how many of them opened.
 */
static int expect_strided_walk(struct __test_metadata *_metadata,
			       size_t size, size_t stride, bool stores,
			       const struct cache_event *ev, int n)
{
	__u64 lines = size / stride, c1, c2, expected;
	int i, fd, tested = 0;
	bool l2_misses = false;
	long kept = 0;
	struct walk w;

	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_EQ(0, walk_init(&w, size, stores));
	w.stride = stride;
	for (i = 0; i < n; i++)
		l2_misses |= ev[i].l2_misses;
	if (l2_misses) {
		/* A set of L2 that few of the lines share keeps them. */
		kept = walk_lines_kept(&w, 2);
		TH_LOG("%ld of %llu lines stay in L2 (-1: unknown)", kept,
		       lines);
		kept = kept < 0 ? 0 : kept;
	}
	for (i = 0; i < n; i++) {
		fd = hw_open_group(ev[i].type, ev[i].config, 0, -1);
		/*
		 * ENXIO: the event's extra MSR is not there.  EINVAL: 6.1
		 * refuses Sandy Bridge's LLC-load-misses, whose response
		 * bits its own mask of the MSR leaves out.
		 */
		if (fd < 0 && (errno == ENOENT || errno == ENXIO ||
			       (errno == EINVAL &&
				ev[i].type == PERF_TYPE_HW_CACHE)))
			continue;
		ASSERT_LE(0, fd) TH_LOG("%s: %s", ev[i].name, strerror(errno));
		ASSERT_EQ(0, hw_asm_count(fd, &w.loop, 1, &c1));
		ASSERT_EQ(0, hw_asm_count(fd, &w.loop, 1, &c1));
		ASSERT_EQ(0, hw_asm_count(fd, &w.loop, 3, &c2));
		close(fd);
		expected = 2 * (ev[i].l2_misses ? lines - kept : lines) *
			   ev[i].per_line / 100;
		TH_LOG("%s: %llu for a walk of %llu accesses, %llu for 3 (%llu expected)",
		       ev[i].name, c1, lines, c2, expected);
		/* Signed: a count of next to nothing may be one less. */
		EXPECT_GE((long long)(2 * lines / 100),
			  llabs((long long)(c2 - c1) - (long long)expected));
		tested++;
	}
	walk_fini(&w);
	return tested;
}

/* A walk of @size's lines with loads, as expect_strided_walk(). */
static int expect_walk(struct __test_metadata *_metadata, size_t size,
		       const struct cache_event *ev, int n)
{
	return expect_strided_walk(_metadata, size, LINE, false, ev, n);
}

#define HW_SKIP_WITHOUT_CACHES() do {					\
	HW_SKIP_WITHOUT_PMU();						\
	if (!hw_emulated_pmu())						\
		SKIP(return, "the counts are the emulated caches'");	\
} while (0)

/* On AMD the generic cache events are L2's requests and misses. */
static const struct cache_event amd_l1_walk[] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
	  "cache-references (L2 requests)", 100 },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
	  "cache-misses (L2 misses)", 0 },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(L1D, READ, ACCESS),
	  "L1-dcache-loads", 100 },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(L1D, READ, MISS),
	  "L1-dcache-load-misses", 100 },
};

TEST(l1_misses_hit_l2)
{
	const struct cache_event l1_misses[] = {
		{ PERF_TYPE_HW_CACHE, HW_CACHE(L1D, READ, MISS),
		  "L1-dcache-load-misses", 100 },
	};
	const struct cache_event core[] = {
		{ PERF_TYPE_RAW, 0x08d1, "MEM_LOAD_RETIRED.L1_MISS", 100 },
		{ PERF_TYPE_RAW, 0x02d1, "MEM_LOAD_RETIRED.L2_HIT", 100 },
		{ PERF_TYPE_RAW, 0x01d1, "MEM_LOAD_RETIRED.L1_HIT", 0 },
		{ PERF_TYPE_RAW, 0x0151, "L1D.REPLACEMENT", 100 },
	};
	size_t l1 = cache_size(0);
	int tested = 0;

	HW_SKIP_WITHOUT_CACHES();
	if (!l1)
		SKIP(return, "no L1 data cache size in sysfs");
	/*
	 * Where a way of L1 is larger than a page, which lines share a set
	 * depends on the physical pages the array got, and a set that holds
	 * no more of them than it has ways keeps them (QEMU's AMD
	 * geometry, 64 KiB in 2 ways).
	 */
	if (cache_info(0, "number_of_sets") * LINE > (unsigned long)getpagesize())
		SKIP(return, "a way of L1 is larger than a page");
	if (hw_vendor() == HW_VENDOR_AMD)
		tested += expect_walk(_metadata, 2 * l1, amd_l1_walk,
				      ARRAY_SIZE(amd_l1_walk));
	else if (intel_core())
		tested += expect_walk(_metadata, 2 * l1, core,
				      ARRAY_SIZE(core));
	if (hw_vendor() == HW_VENDOR_INTEL)
		tested += expect_walk(_metadata, 2 * l1, l1_misses,
				      ARRAY_SIZE(l1_misses));
	if (!tested)
		SKIP(return, "none of the events opens here");
}

TEST(l2_misses_hit_l3)
{
	const struct cache_event core[] = {
		{ PERF_TYPE_RAW, 0x10d1, "MEM_LOAD_RETIRED.L2_MISS", 100, true },
		{ PERF_TYPE_RAW, 0x04d1, "MEM_LOAD_RETIRED.L3_HIT", 100, true },
		{ PERF_TYPE_RAW, 0x20d1, "MEM_LOAD_RETIRED.L3_MISS", 0 },
	};
	const struct cache_event llc[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
		  "cache-references", 100, true },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
		  "cache-misses", 0 },
	};
	/* Core 2's and Bonnell's: their L2's load misses. */
	const struct cache_event l2_load_misses[] = {
		{ PERF_TYPE_HW_CACHE, HW_CACHE(LL, READ, MISS),
		  "LLC-load-misses (L2's)", 100, true },
	};
	/* From Nehalem: OFFCORE_RESPONSE's requests that missed L2. */
	const struct cache_event offcore[] = {
		{ PERF_TYPE_HW_CACHE, HW_CACHE(LL, READ, ACCESS),
		  "LLC-loads", 100, true },
		{ PERF_TYPE_HW_CACHE, HW_CACHE(LL, READ, MISS),
		  "LLC-load-misses", 0 },
		{ PERF_TYPE_HW_CACHE, HW_CACHE(NODE, READ, ACCESS),
		  "NODE-loads", 0 },
	};
	const struct cache_event amd[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
		  "cache-references (L2 requests)", 100 },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
		  "cache-misses (L2 misses)", 100, true },
		{ PERF_TYPE_HW_CACHE, HW_CACHE(L1D, READ, ACCESS),
		  "L1-dcache-loads", 100 },
		{ PERF_TYPE_HW_CACHE, HW_CACHE(L1D, READ, MISS),
		  "L1-dcache-load-misses", 100 },
		/* Family 10h's and 15h's: L2's misses too. */
		{ PERF_TYPE_HW_CACHE, HW_CACHE(LL, READ, MISS),
		  "LLC-load-misses (L2 misses)", 100, true },
	};
	size_t l2 = cache_size(2), l3 = cache_size(3);
	int tested = 0;

	HW_SKIP_WITHOUT_CACHES();
	if (!l2 || l3 < 4 * l2)
		SKIP(return, "no L2, or no L3 of 4 times its size");
	if (hw_vendor() == HW_VENDOR_AMD) {
		tested += expect_walk(_metadata, 2 * l2, amd, ARRAY_SIZE(amd));
	} else {
		if (intel_core())
			tested += expect_walk(_metadata, 2 * l2, core,
					      ARRAY_SIZE(core));
		if (intel_before_nehalem())
			tested += expect_walk(_metadata, 2 * l2,
					      l2_load_misses,
					      ARRAY_SIZE(l2_load_misses));
		else
			tested += expect_walk(_metadata, 2 * l2, offcore,
					      ARRAY_SIZE(offcore));
		tested += expect_walk(_metadata, 2 * l2, llc, ARRAY_SIZE(llc));
	}
	if (!tested)
		SKIP(return, "none of the events opens here");
}

/*
 * An array of twice the L3 cache's size: every load misses every level
 * and finds its line in memory (cache-misses; from Nehalem, whose
 * LLC-* and NODE-* events 6.1 counts with OFFCORE_RESPONSE, an LLC load
 * and miss and a local node's load a load; MEM_LOAD_RETIRED.L3_MISS).
 */
TEST(l3_misses)
{
	const struct cache_event core[] = {
		{ PERF_TYPE_RAW, 0x20d1, "MEM_LOAD_RETIRED.L3_MISS", 100, true },
	};
	const struct cache_event intel[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
		  "cache-misses", 100, true },
		{ PERF_TYPE_HW_CACHE, HW_CACHE(LL, READ, ACCESS),
		  "LLC-loads", 100, true },
		{ PERF_TYPE_HW_CACHE, HW_CACHE(LL, READ, MISS),
		  "LLC-load-misses", 100, true },
		{ PERF_TYPE_HW_CACHE, HW_CACHE(NODE, READ, ACCESS),
		  "NODE-loads", 100, true },
		{ PERF_TYPE_HW_CACHE, HW_CACHE(NODE, READ, MISS),
		  "NODE-load-misses (a remote node's)", 0 },
	};
	size_t l3 = cache_size(3);
	int tested = 0;

	HW_SKIP_WITHOUT_CACHES();
	if (hw_vendor() != HW_VENDOR_INTEL || intel_before_nehalem())
		SKIP(return, "not an Intel core from Nehalem");
	if (!l3)
		SKIP(return, "no L3");
	if (intel_core())
		tested += expect_walk(_metadata, 2 * l3, core,
				      ARRAY_SIZE(core));
	tested += expect_walk(_metadata, 2 * l3, intel, ARRAY_SIZE(intel));
	if (!tested)
		SKIP(return, "none of the events opens here");
}

/*
 * The data TLBs (Skylake's on every flavour: 64 entries in 4 ways, an
 * STLB of 1536 in 12, 4 KiB pages): an array of 128 pages walked a page
 * at a time misses the DTLB and hits the STLB on every load (Zen's
 * dTLB-loads, its L1 DTLB misses; Skylake's STLB_HIT, 0x2008); one of
 * 3072 pages walks the page tables on every load and store
 * (dTLB-load-misses, and on Intel dTLB-store-misses).  Each expected
 * event counted where it opens: on the PMUs whose model the kernel
 * knows (not the architectural flavour's).
 */
TEST(dtlb_misses)
{
	const struct cache_event stlb_hits[] = {
		{ PERF_TYPE_HW_CACHE, HW_CACHE(DTLB, READ, MISS),
		  "dTLB-load-misses", 0 },
		{ PERF_TYPE_HW_CACHE, HW_CACHE(DTLB, WRITE, MISS),
		  "dTLB-store-misses", 0 },
	};
	const struct cache_event walks[] = {
		{ PERF_TYPE_HW_CACHE, HW_CACHE(DTLB, READ, MISS),
		  "dTLB-load-misses", 100 },
	};
	const struct cache_event store_walks[] = {
		{ PERF_TYPE_HW_CACHE, HW_CACHE(DTLB, WRITE, MISS),
		  "dTLB-store-misses", 100 },
	};
	const struct cache_event zen[] = {
		{ PERF_TYPE_HW_CACHE, HW_CACHE(DTLB, READ, ACCESS),
		  "dTLB-loads (L1 DTLB misses)", 100 },
	};
	const struct cache_event skylake[] = {
		{ PERF_TYPE_RAW, 0x2008, "DTLB_LOAD_MISSES.STLB_HIT", 100 },
	};
	unsigned int family, model;
	size_t page = getpagesize();
	int tested = 0;

	HW_SKIP_WITHOUT_CACHES();
	hw_cpu_family_model(&family, &model);
	tested += expect_strided_walk(_metadata, 128 * page, page, false,
				      stlb_hits, ARRAY_SIZE(stlb_hits));
	if (hw_vendor() == HW_VENDOR_AMD && family >= 0x17)
		tested += expect_strided_walk(_metadata, 128 * page, page,
					      false, zen, ARRAY_SIZE(zen));
	/* Skylake and Ice Lake's client and server models. */
	if (intel_core() && (model == 0x5e || model == 0x55 || model == 0x7e ||
			     model == 0x6a))
		tested += expect_strided_walk(_metadata, 128 * page, page,
					      false, skylake,
					      ARRAY_SIZE(skylake));
	tested += expect_strided_walk(_metadata, 3072 * page, page, false,
				      walks, ARRAY_SIZE(walks));
	/* AMD's DTLB events count loads and stores alike. */
	if (hw_vendor() == HW_VENDOR_INTEL)
		tested += expect_strided_walk(_metadata, 3072 * page, page,
					      true, store_walks,
					      ARRAY_SIZE(store_walks));
	if (!tested)
		SKIP(return, "none of the events opens here");
}

TEST_HARNESS_MAIN
