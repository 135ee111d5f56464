// SPDX-License-Identifier: GPL-2.0
/*
 * An Intel model's own events, as the cpu PMU shows them on a core of
 * the Skylake family (Skylake, Kaby Lake, Coffee Lake, Comet Lake; the
 * harness's PMU=skylake), with the encodings of Intel's event list for
 * it:
 *
 *  - each PERF_TYPE_HW_CACHE event programs its event and unit mask in
 *    an event select (read through /dev/cpu/0/msr while the event
 *    counts on CPU 0), or is refused: ENOENT where the CPU has no such
 *    event, EINVAL where none can exist (writes to the instruction
 *    cache); the last-level and node events count offcore responses,
 *    which need MSR_OFFCORE_RSP_0: ENXIO where that register does not
 *    hold what is written to it (what they count: hw_offcore_test,
 *    hw_cache_test);
 *  - INST_RETIRED.PREC_DIST counts on IA32_PMC1 alone, so two of them
 *    never fit in one group;
 *  - caps/pmu_name is "skylake"; format/ has the config1 fields of the
 *    extra registers; events/ has the top-down events.
 *
 * On a model the kernel has no table for (PMU=intel: family 6 model
 * 48) the PMU is the generic architectural one: caps/pmu_name says so
 * and no cache event opens.  Linux 6.1 passes it on both flavours.
 */
#define _GNU_SOURCE
#include <fcntl.h>

#include "perf_test_util.h"
#include "hw_test_util.h"
#include "hw_msr_util.h"
#include "../kselftest_harness.h"

#define MSR_EVTSEL0		0x186
#define MSR_OFFCORE_RSP_0	0x1a6
#define EVTSEL_EN		(1ULL << 22)
#define EVTSEL_CODE		0xffffULL

static const unsigned int skylake_models[] = {
	0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6,
};

/* The family 6 model number, or 0 for another vendor or family. */
static unsigned int intel_model(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (hw_vendor() != HW_VENDOR_INTEL)
		return 0;
	__cpuid(1, eax, ebx, ecx, edx);
	if (((eax >> 8) & 0xf) != 6)
		return 0;
	return ((eax >> 4) & 0xf) | ((eax >> 12) & 0xf0);
}

static bool is_skylake(void)
{
	unsigned int i, model = intel_model();

	for (i = 0; i < ARRAY_SIZE(skylake_models); i++)
		if (model == skylake_models[i])
			return true;
	return false;
}

/*
 * Open the event on CPU 0, counting, and read which general counter
 * got it: its number, with its event select in *@evtsel, or -1 with
 * the errno of the open (0 if it opened on no general counter).
 */
static int placed_on(__u32 type, __u64 config, __u64 *evtsel, int *err)
{
	struct perf_event_attr attr;
	unsigned int i, n = hw_gp_counters();
	int fd, where = -1;
	__u64 v;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.pinned = 1;
	*err = 0;
	fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	for (i = 0; i < n && where < 0; i++) {
		if (!rdmsr(MSR_EVTSEL0 + i, &v) && (v & EVTSEL_EN)) {
			*evtsel = v;
			where = i;
		}
	}
	close(fd);
	return where;
}

FIXTURE(model) {
	const char *missing;
};

FIXTURE_SETUP(model)
{
	self->missing = NULL;
	if (!hw_pmu_present()) {
		self->missing = NO_HW_PMU;
		return;
	}
	if (!is_skylake()) {
		self->missing = "not a core of the Skylake family";
		return;
	}
	msr_fd = open("/dev/cpu/0/msr", O_RDWR);
	if (msr_fd < 0)
		self->missing = "no /dev/cpu/0/msr (CONFIG_X86_MSR)";
}

FIXTURE_TEARDOWN(model)
{
	if (msr_fd >= 0)
		close(msr_fd);
	msr_fd = -1;
}

#define NEED_MODEL() do {					\
	if (self->missing)					\
		SKIP(return, "%s", self->missing);		\
} while (0)

/* The offcore-response event: its errno where the MSR is missing. */
#define OFFCORE		0x01b7
#define OFFCORE_CODE	(-1000)

#define C(x)		PERF_COUNT_HW_CACHE_##x

static const struct {
	const char *name;
	unsigned int cache, op, result;
	int code;	/* event select and unit mask, or -errno */
} skylake_cache[] = {
	{ "L1-dcache-loads",	C(L1D), C(OP_READ), C(RESULT_ACCESS), 0x81d0 },
	{ "L1-dcache-load-misses", C(L1D), C(OP_READ), C(RESULT_MISS), 0x0151 },
	{ "L1-dcache-stores",	C(L1D), C(OP_WRITE), C(RESULT_ACCESS), 0x82d0 },
	{ "L1-dcache-store-misses", C(L1D), C(OP_WRITE), C(RESULT_MISS),
	  -ENOENT },
	{ "L1-dcache-prefetches", C(L1D), C(OP_PREFETCH), C(RESULT_ACCESS),
	  -ENOENT },
	{ "L1-icache-loads",	C(L1I), C(OP_READ), C(RESULT_ACCESS), -ENOENT },
	{ "L1-icache-load-misses", C(L1I), C(OP_READ), C(RESULT_MISS), 0x0283 },
	{ "L1-icache-stores",	C(L1I), C(OP_WRITE), C(RESULT_ACCESS), -EINVAL },
	{ "LLC-loads",		C(LL), C(OP_READ), C(RESULT_ACCESS),
	  OFFCORE_CODE },
	{ "LLC-store-misses",	C(LL), C(OP_WRITE), C(RESULT_MISS),
	  OFFCORE_CODE },
	{ "LLC-prefetches",	C(LL), C(OP_PREFETCH), C(RESULT_ACCESS),
	  -ENOENT },
	{ "dTLB-loads",		C(DTLB), C(OP_READ), C(RESULT_ACCESS), 0x81d0 },
	{ "dTLB-load-misses",	C(DTLB), C(OP_READ), C(RESULT_MISS), 0x0e08 },
	{ "dTLB-stores",	C(DTLB), C(OP_WRITE), C(RESULT_ACCESS), 0x82d0 },
	{ "dTLB-store-misses",	C(DTLB), C(OP_WRITE), C(RESULT_MISS), 0x0e49 },
	{ "iTLB-loads",		C(ITLB), C(OP_READ), C(RESULT_ACCESS), 0x2085 },
	{ "iTLB-load-misses",	C(ITLB), C(OP_READ), C(RESULT_MISS), 0x0e85 },
	{ "iTLB-prefetches",	C(ITLB), C(OP_PREFETCH), C(RESULT_ACCESS),
	  -EINVAL },
	{ "branch-loads",	C(BPU), C(OP_READ), C(RESULT_ACCESS), 0x00c4 },
	{ "branch-load-misses",	C(BPU), C(OP_READ), C(RESULT_MISS), 0x00c5 },
	{ "branch-stores",	C(BPU), C(OP_WRITE), C(RESULT_ACCESS), -EINVAL },
	{ "node-loads",		C(NODE), C(OP_READ), C(RESULT_ACCESS),
	  OFFCORE_CODE },
	{ "node-prefetches",	C(NODE), C(OP_PREFETCH), C(RESULT_ACCESS),
	  -ENOENT },
};

TEST_F(model, cache_events)
{
	bool offcore;
	unsigned int i;
	__u64 config, evtsel = 0;
	int code, where, err;

	NEED_MODEL();
	offcore = msr_holds(MSR_OFFCORE_RSP_0);
	for (i = 0; i < ARRAY_SIZE(skylake_cache); i++) {
		code = skylake_cache[i].code;
		if (code == OFFCORE_CODE)
			code = offcore ? OFFCORE : -ENXIO;
		config = skylake_cache[i].cache | skylake_cache[i].op << 8 |
			 skylake_cache[i].result << 16;
		where = placed_on(PERF_TYPE_HW_CACHE, config, &evtsel, &err);
		if (code < 0) {
			EXPECT_EQ(-code, err) TH_LOG("%s", skylake_cache[i].name);
			continue;
		}
		if (where < 0) {
			EXPECT_LE(0, where) TH_LOG("%s: %s", skylake_cache[i].name,
						   err ? strerror(err) :
						   "on no general counter");
			continue;
		}
		EXPECT_EQ((__u64)code, evtsel & EVTSEL_CODE) {
			TH_LOG("%s: event select %#llx", skylake_cache[i].name,
			       (unsigned long long)evtsel);
		}
	}
}

/* INST_RETIRED.PREC_DIST: IA32_PMC1 only. */
TEST_F(model, prec_dist_on_pmc1)
{
	__u64 evtsel = 0;
	int leader, member, err;

	NEED_MODEL();
	EXPECT_EQ(1, placed_on(PERF_TYPE_RAW, 0x01c0, &evtsel, &err)) {
		TH_LOG("%s", err ? strerror(err) : "not on IA32_PMC1");
	}
	EXPECT_EQ(0x01c0, evtsel & EVTSEL_CODE);

	leader = hw_open_group(PERF_TYPE_RAW, 0x01c0, 0, -1);
	ASSERT_LE(0, leader) TH_LOG("%s", strerror(errno));
	member = hw_open_group(PERF_TYPE_RAW, 0x01c0, 0, leader);
	EXPECT_EQ(-1, member);
	EXPECT_EQ(EINVAL, errno);
	if (member >= 0)
		close(member);
	/* Any other event still fits beside it. */
	member = hw_open_group(PERF_TYPE_RAW, 0x00c4, 0, leader);
	EXPECT_LE(0, member) TH_LOG("%s", strerror(errno));
	if (member >= 0)
		close(member);
	close(leader);
}

TEST_F(model, sysfs)
{
	static const struct {
		const char *file;
		const char *value;
	} files[] = {
		{ "caps/pmu_name", "skylake" },
		{ "format/offcore_rsp", "config1:0-63" },
		{ "format/ldlat", "config1:0-15" },
		{ "format/frontend", "config1:0-23" },
		{ "format/any", "config:21" },
		{ "events/topdown-total-slots", "event=0x3c,umask=0x0" },
		{ "events/topdown-total-slots.scale", "4" },
		{ "events/topdown-slots-issued", "event=0xe,umask=0x1" },
		{ "events/topdown-slots-retired", "event=0xc2,umask=0x2" },
		{ "events/topdown-fetch-bubbles", "event=0x9c,umask=0x1" },
		{ "events/topdown-recovery-bubbles",
		  "event=0xd,umask=0x1,cmask=1" },
		{ "events/topdown-recovery-bubbles.scale", "4" },
	};
	char buf[128];
	unsigned int i;

	NEED_MODEL();
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		ASSERT_EQ(0, hw_pmu_file(files[i].file, buf, sizeof(buf))) {
			TH_LOG("%s", files[i].file);
		}
		EXPECT_STREQ(files[i].value, buf) TH_LOG("%s", files[i].file);
	}
}

/* A model without a table: the generic PMU, with no cache events. */
TEST(generic_without_table)
{
	char buf[64];

	HW_SKIP_WITHOUT_PMU();
	if (hw_pmu_file("caps/pmu_name", buf, sizeof(buf)) ||
	    strncmp(buf, "generic_arch_v", 14))
		SKIP(return, "a model with a table (or not Intel)");
	EXPECT_FALSE(is_skylake());
	EXPECT_EQ(ENOENT, hw_open_errno(PERF_TYPE_HW_CACHE,
					C(L1D) | C(OP_READ) << 8 |
					C(RESULT_ACCESS) << 16));
	EXPECT_EQ(ENOENT, hw_open_errno(PERF_TYPE_HW_CACHE,
					C(DTLB) | C(OP_READ) << 8 |
					C(RESULT_MISS) << 16));
}

TEST_HARNESS_MAIN
