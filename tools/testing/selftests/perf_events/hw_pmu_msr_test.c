// SPDX-License-Identifier: GPL-2.0
/*
 * The counter registers themselves, as the Intel SDM (vol. 3B ch. 20)
 * and the AMD APM (vol. 2 ch. 13) define them, written and read through
 * /dev/cpu/0/msr while no perf event uses them: the edge cases a PMU
 * driver relies on.  It checks the emulated PMU of the harness's QEMU
 * (harness/qemu/) and holds on real silicon of either vendor too.
 *
 * Intel: a legacy IA32_PMCx write sign-extends bit 31, IA32_A_PMCx writes
 * all 48 bits and refuses more, reserved event-select bits fault, the
 * global status is read-only and set/cleared through STATUS_SET and
 * STATUS_RESET, INUSE follows the event selects, a counter enabled near
 * its end overflows into the status, several at once.  AMD: 48-bit
 * counters written whole, PerfMonV2 status and status-clear.  Both: the
 * registers a PMU of the shape CPUID gives does not have fault; Intel's
 * topdown slots and performance metrics where PERF_CAPABILITIES has them;
 * the load latency threshold where it has PEBS (from format 1); the
 * offcore response registers of the models from Nehalem.  PEBS
 * programmed badly: a buffer that fills stops taking records, a
 * threshold past its end raises no interrupt, a read-only buffer or an
 * unmapped save area loses the records and nothing else, a
 * non-canonical save area and reserved enable bits fault.
 * Counting across hlt: an idle CPU's reference cycles stay far below the
 * TSC.
 *
 * The test needs the msr driver (CONFIG_X86_MSR) and a CPU whose PMU
 * the kernel drives (the cpu PMU in sysfs); it leaves every register it
 * touched as it found it.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <x86intrin.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "hw_msr_util.h"
#include "../kselftest_harness.h"

#define MSR_PMC0		0xc1
#define MSR_EVTSEL0		0x186
#define MSR_FIXED_CTR0		0x309
#define MSR_FIXED_CTR_CTRL	0x38d
#define MSR_GLOBAL_STATUS	0x38e
#define MSR_GLOBAL_CTRL		0x38f
#define MSR_GLOBAL_STATUS_RESET	0x390
#define MSR_GLOBAL_STATUS_SET	0x391
#define MSR_GLOBAL_INUSE	0x392
#define MSR_A_PMC0		0x4c1
#define MSR_PERF_CAPABILITIES	0x345
#define MSR_PERF_METRICS	0x329
#define MSR_PEBS_LD_LAT		0x3f6
#define MSR_OFFCORE_RSP_0	0x1a6
#define MSR_MISC_ENABLE		0x1a0
#define MISC_PEBS_UNAVAIL	(1ULL << 12)
#define MSR_DS_AREA		0x600
#define MSR_PEBS_ENABLE		0x3f1
#define MSR_PEBS_DATA_CFG	0x3f2
#define GLOBAL_STATUS_PEBS	(1ULL << 62)
#define PERF_CAP_PEBS_FMT(c)	(((c) >> 8) & 0xf)
#define PERF_CAP_METRICS	(1ULL << 15)
#define GLOBAL_SLOTS		(1ULL << 35)
#define GLOBAL_METRICS		(1ULL << 48)

#define MSR_F15H_PERF_CTL0	0xc0010200
#define MSR_F15H_PERF_CTR0	0xc0010201
#define MSR_AMD_GLOBAL_STATUS	0xc0000300
#define MSR_AMD_GLOBAL_CTL	0xc0000301
#define MSR_AMD_GLOBAL_STATUS_CLR 0xc0000302
#define MSR_K7_EVNTSEL0		0xc0010000
#define MSR_K7_PERFCTR0		0xc0010004

#define EVTSEL_USR		(1ULL << 16)
#define EVTSEL_OS		(1ULL << 17)
#define EVTSEL_EN		(1ULL << 22)
#define WIDTH_MASK		((1ULL << 48) - 1)

static bool vendor_is(const char *name)
{
	unsigned int eax, ebx, ecx, edx;
	char v[13];

	__cpuid(0, eax, ebx, ecx, edx);
	memcpy(v, &ebx, 4);
	memcpy(v + 4, &edx, 4);
	memcpy(v + 8, &ecx, 4);
	v[12] = 0;
	return !strcmp(v, name);
}

/* AMD's counters: on AMD's CPUs and on Hygon's, which are AMD's Zen. */
static bool amd_pmu(void)
{
	return vendor_is("AuthenticAMD") || vendor_is("HygonGenuine");
}

/* The architectural PMU version of an Intel CPU, 0 if none. */
static int intel_pmu_version(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!vendor_is("GenuineIntel") || __get_cpuid_max(0, NULL) < 0xa)
		return 0;
	__cpuid_count(0xa, 0, eax, ebx, ecx, edx);
	return eax & 0xff;
}

/* An Intel counter's width in bits (CPUID 0xA), and its mask. */
static __u64 intel_width_mask(void)
{
	unsigned int eax, ebx, ecx, edx;

	__cpuid_count(0xa, 0, eax, ebx, ecx, edx);
	return (1ULL << ((eax >> 16) & 0xff)) - 1;
}

/* Whether an AMD CPU has PerfMonV2's global registers. */
static bool amd_perfmon_v2(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!amd_pmu() ||
	    __get_cpuid_max(0x80000000, NULL) < 0x80000022)
		return false;
	__cpuid(0x80000022, eax, ebx, ecx, edx);
	return eax & 1;
}

/*
 * Work enough to move any counter: a few thousand instructions (out of
 * line, for the PEBS records' addresses).
 */
static void __attribute__((noinline)) work(void)
{
	volatile int sink = 0;
	int i;

	for (i = 0; i < 10000; i++)
		sink += i;
}

FIXTURE(regs) {
	const char *missing;
};

/* 6.1's harness runs a test whose setup skipped: each test checks. */
FIXTURE_SETUP(regs)
{
	self->missing = NULL;
	if (access(PMU_SYSFS_DIR "cpu", F_OK)) {
		self->missing = "no hardware PMU driven by this kernel";
		return;
	}
	ASSERT_EQ(0, pin_to_cpu(0));
	msr_fd = open("/dev/cpu/0/msr", O_RDWR);
	if (msr_fd < 0)
		self->missing = "no /dev/cpu/0/msr (CONFIG_X86_MSR)";
}

#define NEED_REGS() do {					\
	if (self->missing)					\
		SKIP(return, "%s", self->missing);		\
} while (0)

FIXTURE_TEARDOWN(regs)
{
	if (msr_fd >= 0)
		close(msr_fd);
	msr_fd = -1;
}

/*
 * A legacy IA32_PMC0 write keeps bits 31:0 and sign-extends bit 31 to the
 * counter's width.
 */
TEST_F(regs, intel_legacy_write_sign_extends)
{
	__u64 val;

	NEED_REGS();
	if (intel_pmu_version() < 2)
		SKIP(return, "not an Intel architectural PMU");
	ASSERT_EQ(0, wrmsr(MSR_PMC0, 0xdead80001234ULL));
	ASSERT_EQ(0, rdmsr(MSR_PMC0, &val));
	EXPECT_EQ(0xffffffff80001234ULL & intel_width_mask(), val);
	ASSERT_EQ(0, wrmsr(MSR_PMC0, 0x12345678ULL));
	ASSERT_EQ(0, rdmsr(MSR_PMC0, &val));
	EXPECT_EQ(0x12345678ULL, val);
	wrmsr(MSR_PMC0, 0);
}

/* IA32_A_PMC0 writes the counter's whole width and nothing above it. */
TEST_F(regs, intel_full_width_write)
{
	__u64 caps, val, mask;

	NEED_REGS();
	if (intel_pmu_version() < 2)
		SKIP(return, "not an Intel architectural PMU");
	if (rdmsr(MSR_PERF_CAPABILITIES, &caps) || !(caps & (1 << 13)))
		SKIP(return, "no full-width counter writes");
	mask = intel_width_mask();
	ASSERT_EQ(0, wrmsr(MSR_A_PMC0, 0x923456789abcULL & mask));
	ASSERT_EQ(0, rdmsr(MSR_PMC0, &val));
	EXPECT_EQ(0x923456789abcULL & mask, val);
	EXPECT_EQ(-EIO, wrmsr(MSR_A_PMC0, mask + 1));
	wrmsr(MSR_A_PMC0, 0);
}

/* Reserved bits of an event select and the read-only status fault. */
TEST_F(regs, intel_reserved_bits_fault)
{
	NEED_REGS();
	if (intel_pmu_version() < 2)
		SKIP(return, "not an Intel architectural PMU");
	EXPECT_EQ(-EIO, wrmsr(MSR_EVTSEL0, 1ULL << 40));
	EXPECT_EQ(-EIO, wrmsr(MSR_GLOBAL_STATUS, 1));
	/* Not 32 + 4n: fixed counter n's adaptive PEBS bit (Ice Lake). */
	EXPECT_EQ(-EIO, wrmsr(MSR_FIXED_CTR_CTRL, 1ULL << 33));
}

/* Version 4: STATUS_SET sets status bits, STATUS_RESET clears them. */
TEST_F(regs, intel_status_set_and_reset)
{
	__u64 status;

	NEED_REGS();
	if (intel_pmu_version() < 4)
		SKIP(return, "no version 4 status registers");
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_STATUS_SET, 0x2ULL | (1ULL << 33)));
	ASSERT_EQ(0, rdmsr(MSR_GLOBAL_STATUS, &status));
	EXPECT_EQ(0x2ULL | (1ULL << 33), status & (0x2ULL | (1ULL << 33)));
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_STATUS_RESET, 0x2ULL | (1ULL << 33)));
	ASSERT_EQ(0, rdmsr(MSR_GLOBAL_STATUS, &status));
	EXPECT_EQ(0, status & (0x2ULL | (1ULL << 33)));
}

/*
 * Version 4: INUSE has a bit for each event select naming an event.  A
 * driver leaves the select of a counter it stopped as it was, less the
 * enable bit (both kernels do): the test clears it first.
 */
TEST_F(regs, intel_inuse)
{
	__u64 inuse;

	NEED_REGS();
	if (intel_pmu_version() < 4)
		SKIP(return, "no version 4 INUSE register");
	ASSERT_EQ(0, wrmsr(MSR_EVTSEL0 + 1, 0));
	ASSERT_EQ(0, rdmsr(MSR_GLOBAL_INUSE, &inuse));
	EXPECT_EQ(0, inuse & 0x2);
	ASSERT_EQ(0, wrmsr(MSR_EVTSEL0 + 1, 0xc0));
	ASSERT_EQ(0, rdmsr(MSR_GLOBAL_INUSE, &inuse));
	EXPECT_EQ(0x2, inuse & 0x2);
	ASSERT_EQ(0, wrmsr(MSR_EVTSEL0 + 1, 0));
}

/*
 * Two counters enabled just below their end (legacy writes of -101 and
 * -201, sign-extended to the width) both overflow into the global status,
 * with no interrupt asked for, and wrap to small values.
 */
TEST_F(regs, intel_overflow_sets_status)
{
	__u64 ctrl, status, c0, c1;

	NEED_REGS();
	if (intel_pmu_version() < 2)
		SKIP(return, "not an Intel architectural PMU");
	ASSERT_EQ(0, rdmsr(MSR_GLOBAL_CTRL, &ctrl));
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_STATUS_RESET, 0x3));
	ASSERT_EQ(0, wrmsr(MSR_PMC0, (__u32)-101));
	ASSERT_EQ(0, wrmsr(MSR_PMC0 + 1, (__u32)-201));
	ASSERT_EQ(0, wrmsr(MSR_EVTSEL0, 0xc0 | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN));
	ASSERT_EQ(0, wrmsr(MSR_EVTSEL0 + 1, 0xc0 | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN));
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_CTRL, ctrl | 0x3));
	work();
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_CTRL, ctrl & ~0x3ULL));
	ASSERT_EQ(0, wrmsr(MSR_EVTSEL0, 0));
	ASSERT_EQ(0, wrmsr(MSR_EVTSEL0 + 1, 0));
	ASSERT_EQ(0, rdmsr(MSR_GLOBAL_STATUS, &status));
	ASSERT_EQ(0, rdmsr(MSR_PMC0, &c0));
	ASSERT_EQ(0, rdmsr(MSR_PMC0 + 1, &c1));
	EXPECT_EQ(0x3, status & 0x3);
	EXPECT_LT(c0, 1ULL << 32);
	EXPECT_LT(c1, 1ULL << 32);
	EXPECT_GT(c0 + 100, c1);
	wrmsr(MSR_GLOBAL_STATUS_RESET, 0x3);
	wrmsr(MSR_PMC0, 0);
	wrmsr(MSR_PMC0 + 1, 0);
	wrmsr(MSR_GLOBAL_CTRL, ctrl);
}

/* AMD: counters are written whole; overflow shows in PerfMonV2 status. */
TEST_F(regs, amd_write_and_overflow)
{
	__u64 ctl, val, status;
	__u64 sel = 0xc0 | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN;

	NEED_REGS();
	if (!amd_perfmon_v2())
		SKIP(return, "not an AMD PMU with PerfMonV2");
	ASSERT_EQ(0, wrmsr(MSR_F15H_PERF_CTR0, 0x923456789abcULL));
	ASSERT_EQ(0, rdmsr(MSR_F15H_PERF_CTR0, &val));
	EXPECT_EQ(0x923456789abcULL, val);

	ASSERT_EQ(0, rdmsr(MSR_AMD_GLOBAL_CTL, &ctl));
	ASSERT_EQ(0, wrmsr(MSR_AMD_GLOBAL_STATUS_CLR, 0x3));
	ASSERT_EQ(0, wrmsr(MSR_F15H_PERF_CTR0, WIDTH_MASK - 100));
	ASSERT_EQ(0, wrmsr(MSR_F15H_PERF_CTR0 + 2, WIDTH_MASK - 200));
	ASSERT_EQ(0, wrmsr(MSR_F15H_PERF_CTL0, sel));
	ASSERT_EQ(0, wrmsr(MSR_F15H_PERF_CTL0 + 2, sel));
	ASSERT_EQ(0, wrmsr(MSR_AMD_GLOBAL_CTL, ctl | 0x3));
	work();
	ASSERT_EQ(0, wrmsr(MSR_AMD_GLOBAL_CTL, ctl & ~0x3ULL));
	ASSERT_EQ(0, wrmsr(MSR_F15H_PERF_CTL0, 0));
	ASSERT_EQ(0, wrmsr(MSR_F15H_PERF_CTL0 + 2, 0));
	ASSERT_EQ(0, rdmsr(MSR_AMD_GLOBAL_STATUS, &status));
	EXPECT_EQ(0x3, status & 0x3);
	EXPECT_EQ(-EIO, wrmsr(MSR_AMD_GLOBAL_STATUS, 0));
	ASSERT_EQ(0, wrmsr(MSR_AMD_GLOBAL_STATUS_CLR, 0x3));
	ASSERT_EQ(0, rdmsr(MSR_AMD_GLOBAL_STATUS, &status));
	EXPECT_EQ(0, status & 0x3);
	wrmsr(MSR_F15H_PERF_CTR0, 0);
	wrmsr(MSR_F15H_PERF_CTR0 + 2, 0);
	wrmsr(MSR_AMD_GLOBAL_CTL, ctl);
}

/*
 * Register @msr must fault on a read and on a write of 0 (written only if
 * the read faulted).
 */
static void expect_faults(struct __test_metadata *_metadata, __u32 msr)
{
	__u64 val;

	EXPECT_TRUE(rdmsr(msr, &val) == -EIO && wrmsr(msr, 0) == -EIO)
		TH_LOG("MSR %#x is there", msr);
}

#define EXPECT_FAULTS(msr)	expect_faults(_metadata, (msr))

/*
 * The registers an Intel PMU of this shape (CPUID 0xA) does not have
 * fault: counters and fixed counters beyond the counts, the global
 * registers before version 2, GLOBAL_STATUS_SET and GLOBAL_INUSE before
 * version 4, the full-width aliases without PERF_CAPABILITIES.FW_WRITE
 * (or beyond the count).  A driver's probe tells the model by them.
 */
TEST_F(regs, intel_absent_registers_fault)
{
	unsigned int eax, ebx, ecx, edx, gp, fixed, i;
	int version = intel_pmu_version();
	__u64 caps = 0;

	NEED_REGS();
	if (!version)
		SKIP(return, "not an Intel PMU");
	__cpuid_count(0xa, 0, eax, ebx, ecx, edx);
	gp = (eax >> 8) & 0xff;
	fixed = version >= 2 ? edx & 0x1f : 0;
	ASSERT_GE(8, gp);
	for (i = gp; i < 8; i++) {
		EXPECT_FAULTS(MSR_EVTSEL0 + i);
		EXPECT_FAULTS(MSR_PMC0 + i);
	}
	for (i = fixed; i < 4; i++)
		EXPECT_FAULTS(MSR_FIXED_CTR0 + i);
	if (version < 2) {
		EXPECT_FAULTS(MSR_FIXED_CTR_CTRL);
		EXPECT_FAULTS(MSR_GLOBAL_STATUS);
		EXPECT_FAULTS(MSR_GLOBAL_CTRL);
		EXPECT_FAULTS(MSR_GLOBAL_STATUS_RESET);
	}
	if (version < 4) {
		EXPECT_FAULTS(MSR_GLOBAL_STATUS_SET);
		EXPECT_FAULTS(MSR_GLOBAL_INUSE);
	}
	__cpuid(1, eax, ebx, ecx, edx);
	if (ecx & (1U << 15))	/* PDCM */
		ASSERT_EQ(0, rdmsr(MSR_PERF_CAPABILITIES, &caps));
	for (i = caps & (1ULL << 13) ? gp : 0; i < 8; i++)
		EXPECT_FAULTS(MSR_A_PMC0 + i);
	if (!(caps & PERF_CAP_METRICS))
		EXPECT_FAULTS(MSR_PERF_METRICS);
}

/*
 * MSR_PEBS_LD_LAT_THRESHOLD, with PEBS from Nehalem's format 1 on: the
 * load latency facility's threshold, in its 16 bits; the bits above
 * them are reserved and fault.
 */
TEST_F(regs, intel_load_latency_threshold)
{
	unsigned int eax, ebx, ecx, edx;
	__u64 caps = 0, old, val;

	NEED_REGS();
	if (!intel_pmu_version())
		SKIP(return, "not an Intel PMU");
	__cpuid(1, eax, ebx, ecx, edx);
	if ((ecx & (1U << 15)) && !(edx & (1U << 21)))	/* PDCM, no DS */
		SKIP(return, "no debug store");
	if (ecx & (1U << 15))
		ASSERT_EQ(0, rdmsr(MSR_PERF_CAPABILITIES, &caps));
	if (!(ecx & (1U << 15)) || PERF_CAP_PEBS_FMT(caps) < 1)
		SKIP(return, "no PEBS of format 1 or later");
	if (access("/sys/bus/event_source/devices/cpu/events/mem-loads", F_OK))
		SKIP(return, "the kernel sees no load latency facility");
	ASSERT_EQ(0, rdmsr(MSR_PEBS_LD_LAT, &old));
	EXPECT_EQ(0, wrmsr(MSR_PEBS_LD_LAT, 0xffff));
	EXPECT_EQ(0, rdmsr(MSR_PEBS_LD_LAT, &val));
	EXPECT_EQ(0xffff, val);
	EXPECT_EQ(-EIO, wrmsr(MSR_PEBS_LD_LAT, 1ULL << 16));
	EXPECT_EQ(0, rdmsr(MSR_PEBS_LD_LAT, &val));
	EXPECT_EQ(0xffff, val);
	EXPECT_EQ(0, wrmsr(MSR_PEBS_LD_LAT, old));
}

/* The family 6 model of an Intel CPU, 0 for another. */
static unsigned int intel_model(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!vendor_is("GenuineIntel"))
		return 0;
	__cpuid(1, eax, ebx, ecx, edx);
	if (((eax >> 8) & 0xf) != 6)
		return 0;
	return ((eax >> 4) & 0xf) | ((eax >> 12) & 0xf0);
}

/*
 * The bits of MSR_OFFCORE_RSP_0 and _1 (Intel SDM vol. 3B, "Off-core
 * Response Performance Monitoring") on the models whose layouts the
 * emulation has: Nehalem's and Westmere's 16 (Nehalem has no
 * MSR_OFFCORE_RSP_1), Sandy Bridge's to Ice Lake's 38.  0 for another
 * model; *@two, whether it has both MSRs.
 */
static __u64 offcore_bits(bool *two)
{
	static const unsigned int nehalem[] = { 0x1a, 0x1e, 0x1f, 0x2e };
	static const unsigned int westmere[] = { 0x25, 0x2c, 0x2f };
	static const unsigned int later[] = {
		0x2a, 0x2d, 0x3a, 0x3e, 0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47,
		0x4f, 0x56, 0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6, 0x7d,
		0x7e, 0x6a, 0x6c, 0x8c, 0x8d, 0xa7,
	};
	unsigned int m = intel_model(), i;

	*two = true;
	for (i = 0; i < ARRAY_SIZE(nehalem); i++)
		if (m == nehalem[i]) {
			*two = false;
			return 0xffff;
		}
	for (i = 0; i < ARRAY_SIZE(westmere); i++)
		if (m == westmere[i])
			return 0xffff;
	for (i = 0; i < ARRAY_SIZE(later); i++)
		if (m == later[i])
			return (1ULL << 38) - 1;
	return 0;
}

/*
 * MSR_OFFCORE_RSP_0 and _1 (0x1a6, 0x1a7) hold what is written to their
 * bits, and fault on a reserved one, keeping their value; Nehalem's
 * model has the first alone.
 */
TEST_F(regs, intel_offcore_response_registers)
{
	__u64 bits, old, val;
	bool two;
	int i;

	NEED_REGS();
	bits = offcore_bits(&two);
	if (!bits)
		SKIP(return, "not a model with a known offcore response layout");
	if (rdmsr(MSR_OFFCORE_RSP_0, &old))
		SKIP(return, "no MSR_OFFCORE_RSP_0 (a hypervisor without it)");
	if (!two)
		EXPECT_FAULTS(MSR_OFFCORE_RSP_0 + 1);
	for (i = 0; i < (two ? 2 : 1); i++) {
		ASSERT_EQ(0, rdmsr(MSR_OFFCORE_RSP_0 + i, &old));
		EXPECT_EQ(0, wrmsr(MSR_OFFCORE_RSP_0 + i, bits));
		EXPECT_EQ(0, rdmsr(MSR_OFFCORE_RSP_0 + i, &val));
		EXPECT_EQ(bits, val);
		EXPECT_EQ(-EIO, wrmsr(MSR_OFFCORE_RSP_0 + i, bits + 1));
		EXPECT_EQ(0, rdmsr(MSR_OFFCORE_RSP_0 + i, &val));
		EXPECT_EQ(bits, val);
		EXPECT_EQ(0, wrmsr(MSR_OFFCORE_RSP_0 + i, old));
	}
}

/* The 64-bit DS save area's PEBS fields (Intel SDM vol. 3B, 18.4.4). */
struct ds_area {
	__u64 bts[4];
	__u64 pebs_base, pebs_index, pebs_max, pebs_threshold;
	__u64 pebs_reset[8];	/* general-purpose counters */
};

/* The PEBS record format of an Intel CPU that has PEBS, or -1. */
static int pebs_format(void)
{
	unsigned int eax, ebx, ecx, edx;
	__u64 caps, misc;

	if (!intel_pmu_version())
		return -1;
	__cpuid(1, eax, ebx, ecx, edx);
	if (!(edx & (1U << 21)) || !(ecx & (1U << 15)))	/* DS, PDCM */
		return -1;
	if (rdmsr(MSR_MISC_ENABLE, &misc) || (misc & MISC_PEBS_UNAVAIL) ||
	    rdmsr(MSR_PERF_CAPABILITIES, &caps))
		return -1;
	return PERF_CAP_PEBS_FMT(caps);
}

/*
 * A record's bytes in format @fmt: the general registers (0), the
 * counters, data address, source and latency (1), the eventing IP and
 * TSX fields (2), the TSC (3); adaptive PEBS's basic group (4 on).
 */
static size_t pebs_record_size(int fmt)
{
	static const size_t size[] = { 0x90, 0xb0, 0xc0, 0xc8 };

	return fmt < 4 ? size[fmt] : 0x20;
}

/* The counters that overflowed, and the eventing IP (0 if none). */
static void pebs_record_fields(int fmt, const __u64 *rec, __u64 *counters,
			       __u64 *ip)
{
	if (fmt >= 4) {
		*counters = rec[2];
		*ip = rec[1];
		return;
	}
	*counters = fmt ? rec[0x90 / 8] : 1;
	*ip = fmt >= 2 ? rec[0xb0 / 8] : 0;
}

#define PEBS_PERIOD	1000

/*
 * A save area and a buffer of @records records in pages of their own,
 * at an address no other process has mapped (whose records, where
 * counter 0 counts its user mode, go nowhere then).
 */
struct pebs_pages {
	char *map;
	struct ds_area *ds;
	char *buf;
	size_t page;
};

static int pebs_pages_init(struct pebs_pages *p, int fmt, int records)
{
	p->page = getpagesize();
	p->map = mmap((void *)0x7e5e00000000ULL, 2 * p->page,
		      PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p->map == MAP_FAILED)
		return -1;
	memset(p->map, 0, 2 * p->page);
	p->ds = (struct ds_area *)p->map;
	p->buf = p->map + p->page;
	p->ds->pebs_base = (uintptr_t)p->buf;
	p->ds->pebs_index = (uintptr_t)p->buf;
	p->ds->pebs_max = (uintptr_t)p->buf + records * pebs_record_size(fmt);
	/* Past the end: never reached, no interrupt. */
	p->ds->pebs_threshold = p->ds->pebs_max + pebs_record_size(fmt);
	p->ds->pebs_reset[0] = -(__u64)PEBS_PERIOD & intel_width_mask();
	return 0;
}

/*
 * What each test of the PEBS buffer starts with: skip without PEBS; or
 * the record format in the test's fmt, and in @p a save area and a
 * buffer of 4 records.
 */
#define NEED_PEBS(p) do {					\
	NEED_REGS();						\
	fmt = pebs_format();					\
	if (fmt < 0)						\
		SKIP(return, "no PEBS");			\
	ASSERT_EQ(0, pebs_pages_init(p, fmt, 4));		\
} while (0)

/*
 * Count INST_RETIRED.ANY_P in user mode on counter 0, armed for PEBS
 * every PEBS_PERIOD instructions with its save area at @ds, over
 * work(); then put every register back.  *@status: the global status's
 * counter 0 and PEBS buffer bits, which the kernel does not clear
 * (counter 0 does not interrupt, the threshold is out of reach).
 */
static void pebs_work(struct __test_metadata *_metadata, int fmt, __u64 ds,
		      __u64 *status)
{
	__u64 ds_old, enable_old, cfg_old = 0, ctrl;

	ASSERT_EQ(0, rdmsr(MSR_DS_AREA, &ds_old));
	ASSERT_EQ(0, rdmsr(MSR_PEBS_ENABLE, &enable_old));
	ASSERT_EQ(0, rdmsr(MSR_GLOBAL_CTRL, &ctrl));
	if (fmt >= 4) {
		ASSERT_EQ(0, rdmsr(MSR_PEBS_DATA_CFG, &cfg_old));
		ASSERT_EQ(0, wrmsr(MSR_PEBS_DATA_CFG, 0));
	}
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_STATUS_RESET, 1 | GLOBAL_STATUS_PEBS));
	ASSERT_EQ(0, wrmsr(MSR_PMC0, (__u32)-PEBS_PERIOD));
	ASSERT_EQ(0, wrmsr(MSR_EVTSEL0, 0xc0 | EVTSEL_USR | EVTSEL_EN));
	ASSERT_EQ(0, wrmsr(MSR_DS_AREA, ds));
	ASSERT_EQ(0, wrmsr(MSR_PEBS_ENABLE, enable_old | 1));
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_CTRL, ctrl | 1));
	work();
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_CTRL, ctrl & ~1ULL));
	ASSERT_EQ(0, wrmsr(MSR_PEBS_ENABLE, enable_old));
	ASSERT_EQ(0, wrmsr(MSR_EVTSEL0, 0));
	ASSERT_EQ(0, rdmsr(MSR_GLOBAL_STATUS, status));
	*status &= 1 | GLOBAL_STATUS_PEBS;
	wrmsr(MSR_GLOBAL_STATUS_RESET, 1 | GLOBAL_STATUS_PEBS);
	wrmsr(MSR_PMC0, 0);
	wrmsr(MSR_DS_AREA, ds_old);
	if (fmt >= 4)
		wrmsr(MSR_PEBS_DATA_CFG, cfg_old);
	wrmsr(MSR_GLOBAL_CTRL, ctrl);
}

/*
 * A buffer of 4 records and some 50 overflows: the records fill it and
 * stop at its absolute maximum, each of counter 0 at an instruction of
 * this process (most of them in work()); with the threshold past the
 * end, no buffer interrupt; a record instead of each overflow.
 */
TEST_F(regs, intel_pebs_buffer_fills_and_stops)
{
	struct pebs_pages p;
	__u64 status, counters, ip;
	size_t size;
	int fmt, i, in_work = 0;

	NEED_PEBS(&p);
	pebs_work(_metadata, fmt, (uintptr_t)p.ds, &status);
	size = pebs_record_size(fmt);
	EXPECT_EQ(p.ds->pebs_max, p.ds->pebs_index)
		TH_LOG("%llu bytes of records, %zu each",
		       p.ds->pebs_index - p.ds->pebs_base, size);
	EXPECT_EQ(0, status) TH_LOG("global status %#llx", status);
	for (i = 0; i < 4; i++) {
		pebs_record_fields(fmt, (__u64 *)(p.buf + i * size),
				   &counters, &ip);
		EXPECT_EQ(1, counters & 1) TH_LOG("record %d", i);
		EXPECT_GT(1ULL << 47, ip) TH_LOG("record %d at %#llx", i, ip);
		in_work += ip >= (uintptr_t)work && ip < (uintptr_t)work + 256;
	}
	if (fmt >= 2)
		EXPECT_LT(0, in_work);
	munmap(p.map, 2 * p.page);
}

/*
 * A buffer the processor cannot write (read-only: its supervisor
 * writes fault with CR0.WP): no record, the index stays, and the
 * process and the CPU go on.
 */
TEST_F(regs, intel_pebs_read_only_buffer)
{
	struct pebs_pages p;
	__u64 status;
	int fmt;

	NEED_PEBS(&p);
	ASSERT_EQ(0, mprotect(p.buf, p.page, PROT_READ));
	pebs_work(_metadata, fmt, (uintptr_t)p.ds, &status);
	EXPECT_EQ(p.ds->pebs_base, p.ds->pebs_index);
	EXPECT_EQ(0, status & GLOBAL_STATUS_PEBS);
	munmap(p.map, 2 * p.page);
}

/* A save area at an unmapped address: the records go nowhere. */
TEST_F(regs, intel_pebs_unmapped_save_area)
{
	struct pebs_pages p;
	__u64 status;
	int fmt;

	NEED_PEBS(&p);
	ASSERT_EQ(0, munmap(p.map, 2 * p.page));
	pebs_work(_metadata, fmt, (uintptr_t)p.ds, &status);
	EXPECT_EQ(0, status & GLOBAL_STATUS_PEBS);
}

/*
 * IA32_DS_AREA takes canonical addresses only; IA32_PEBS_ENABLE's bits
 * past the counters' are reserved (bit 31; bit 63).  Either write
 * faults and changes nothing.
 */
TEST_F(regs, intel_pebs_reserved_bits_fault)
{
	__u64 ds, enable, val;
	int fmt;

	NEED_REGS();
	fmt = pebs_format();
	if (fmt < 0)
		SKIP(return, "no PEBS");
	ASSERT_EQ(0, rdmsr(MSR_DS_AREA, &ds));
	ASSERT_EQ(0, rdmsr(MSR_PEBS_ENABLE, &enable));
	EXPECT_EQ(-EIO, wrmsr(MSR_DS_AREA, 1ULL << 63));
	EXPECT_EQ(0, rdmsr(MSR_DS_AREA, &val));
	EXPECT_EQ(ds, val);
	EXPECT_EQ(-EIO, wrmsr(MSR_PEBS_ENABLE, enable | 1ULL << 31));
	EXPECT_EQ(-EIO, wrmsr(MSR_PEBS_ENABLE, enable | 1ULL << 63));
	EXPECT_EQ(0, rdmsr(MSR_PEBS_ENABLE, &val));
	EXPECT_EQ(enable, val);
}

/*
 * Topdown (Ice Lake and later): fixed counter 3 counts slots, and
 * IA32_PERF_METRICS gives the first four categories' shares of them in
 * 255ths, which add up to 255; retiring is never nothing for a CPU that
 * ran instructions.  Written back, the shares stay what they were for the
 * same slots.
 */
TEST_F(regs, intel_perf_metrics)
{
	__u64 caps = 0, ctrl, fixed, slots, metrics, again;
	unsigned int sum = 0, i;

	NEED_REGS();
	if (intel_pmu_version() < 2 || rdmsr(MSR_PERF_CAPABILITIES, &caps) ||
	    !(caps & PERF_CAP_METRICS))
		SKIP(return, "no performance metrics");
	ASSERT_EQ(0, rdmsr(MSR_GLOBAL_CTRL, &ctrl));
	ASSERT_EQ(0, rdmsr(MSR_FIXED_CTR_CTRL, &fixed));
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_CTRL, 0));
	ASSERT_EQ(0, wrmsr(MSR_FIXED_CTR0 + 3, 0));
	ASSERT_EQ(0, wrmsr(MSR_PERF_METRICS, 0));
	ASSERT_EQ(0, wrmsr(MSR_FIXED_CTR_CTRL, (fixed & ~0xf000ULL) | 0x3000));
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_CTRL, GLOBAL_SLOTS | GLOBAL_METRICS));
	work();
	ASSERT_EQ(0, wrmsr(MSR_GLOBAL_CTRL, 0));
	ASSERT_EQ(0, rdmsr(MSR_FIXED_CTR0 + 3, &slots));
	ASSERT_EQ(0, rdmsr(MSR_PERF_METRICS, &metrics));
	for (i = 0; i < 4; i++)
		sum += (metrics >> (8 * i)) & 0xff;
	EXPECT_LT(10000, slots);
	EXPECT_EQ(0xff, sum) TH_LOG("metrics %#llx", metrics);
	EXPECT_NE(0, metrics & 0xff);

	ASSERT_EQ(0, wrmsr(MSR_FIXED_CTR0 + 3, slots));
	ASSERT_EQ(0, wrmsr(MSR_PERF_METRICS, metrics));
	ASSERT_EQ(0, rdmsr(MSR_PERF_METRICS, &again));
	for (i = 0; i < 4; i++)
		EXPECT_GE(1, abs((int)((again >> (8 * i)) & 0xff) -
				 (int)((metrics >> (8 * i)) & 0xff)))
			TH_LOG("%#llx written, %#llx read", metrics, again);

	wrmsr(MSR_FIXED_CTR_CTRL, fixed);
	wrmsr(MSR_FIXED_CTR0 + 3, 0);
	wrmsr(MSR_PERF_METRICS, 0);
	wrmsr(MSR_GLOBAL_CTRL, ctrl);
}

/*
 * AMD: without PerfCtrExtCore (CPUID 0x80000001 ECX[23]) only the four
 * legacy counters are there; with it, six (or PerfMonV2's count) at
 * 0xc0010200; PerfMonV2's global registers only with PerfMonV2.
 */
TEST_F(regs, amd_absent_registers_fault)
{
	unsigned int eax, ebx, ecx, edx, n = 4, i;
	bool ext;
	__u64 val;

	NEED_REGS();
	if (!amd_pmu())
		SKIP(return, "not an AMD PMU");
	__cpuid(0x80000001, eax, ebx, ecx, edx);
	ext = ecx & (1U << 23);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0, rdmsr(MSR_K7_EVNTSEL0 + i, &val));
		EXPECT_EQ(0, rdmsr(MSR_K7_PERFCTR0 + i, &val));
	}
	if (ext) {
		n = 6;
		if (amd_perfmon_v2()) {
			__cpuid(0x80000022, eax, ebx, ecx, edx);
			n = ebx & 0xf;
		}
		ASSERT_GE(6, n);
	}
	for (i = ext ? n : 0; i < 6; i++) {
		EXPECT_FAULTS(MSR_F15H_PERF_CTL0 + 2 * i);
		EXPECT_FAULTS(MSR_F15H_PERF_CTR0 + 2 * i);
	}
	if (!amd_perfmon_v2()) {
		EXPECT_FAULTS(MSR_AMD_GLOBAL_STATUS);
		EXPECT_FAULTS(MSR_AMD_GLOBAL_CTL);
		EXPECT_FAULTS(MSR_AMD_GLOBAL_STATUS_CLR);
	}
}

/*
 * Counting across hlt: the unhalted reference cycles of an idle CPU count
 * only while it runs, less than the TSC advances while it sleeps.  Under
 * TCG on a loaded host, a vCPU descheduled while handling a tick looks
 * unhalted for that time: the bound leaves room for it, and a CPU whose
 * halted time counted would still exceed it.
 */
TEST(idle_cpu_ref_cycles_stop_in_hlt)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_REF_CPU_CYCLES,
	};
	__u64 cycles, tsc;
	int fd;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU only");
	ASSERT_EQ(0, pin_to_cpu(0));
	fd = sys_perf_event_open(&attr, -1, 1, -1, 0);
	if (fd < 0 && (errno == ENOENT || errno == EOPNOTSUPP ||
		       errno == ENODEV || errno == EINVAL))
		SKIP(return, "no hardware ref-cycles event");
	ASSERT_LE(0, fd);
	tsc = __rdtsc();
	sleep_ms(500);
	tsc = __rdtsc() - tsc;
	ASSERT_EQ(0, read_value(fd, &cycles));
	close(fd);
	EXPECT_LT(cycles, tsc / 4 * 3);
}

/*
 * A CPU taken offline and back (Linux sends it INIT and SIPI) counts
 * again: the instructions of the same code pinned to it, as before
 * (exactly on the emulated PMU; within 1% allows for real silicon).
 */
#define CPU1_ONLINE "/sys/devices/system/cpu/cpu1/online"

static __u64 pinned_loop_insns(int cpu)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.disabled = 1,
	};
	__u64 count = 0;
	int fd;

	if (pin_to_cpu(cpu))
		return 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return 0;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read_value(fd, &count))
		count = 0;
	close(fd);
	return count;
}

TEST(counts_after_cpu_hotplug)
{
	__u64 before, after;

	if (access(PMU_SYSFS_DIR "cpu", F_OK))
		SKIP(return, "no hardware PMU driven by this kernel");
	if (access(CPU1_ONLINE, W_OK))
		SKIP(return, "CPU 1 cannot be offlined");
	before = pinned_loop_insns(1);
	ASSERT_LT(10000, before);
	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_EQ(0, write_int_file(CPU1_ONLINE, 0));
	ASSERT_EQ(0, write_int_file(CPU1_ONLINE, 1));
	after = pinned_loop_insns(1);
	EXPECT_LT(before - before / 100, after);
	EXPECT_GT(before + before / 100, after);
}

TEST_HARNESS_MAIN
