// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of what a sampled op's IBS registers say of its memory
 * access (ibs_mem.c): the data source of an op that does not touch
 * memory, of hits, of misses by where they were served from, of locked
 * and uncached accesses and TLB misses; and the weight of loads that
 * missed, alone and with the cycles from tag to retirement; Zen 4's
 * five-bit data sources.  The hits
 * are the values 6.1 gives on the emulated Zen (hw_ibs_test).
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

#include "ibs.h"

#define LD	IBS_OP_DATA3_LD
#define ST	IBS_OP_DATA3_ST
#define MISS	IBS_OP_DATA3_DC_MISS
#define VALID	(IBS_OP_DATA3_LIN_VALID | IBS_OP_DATA3_PHYS_VALID)

static u64 src_of(u64 data2, u64 data3, bool zen4)
{
	u64 regs[IBS_OP_NR_REGS] = { 0 };

	regs[IBS_OP_REG_DATA2] = data2;
	regs[IBS_OP_REG_DATA3] = data3;
	return ibs_op_data_src(regs, zen4);
}

static u64 src(u64 data2, u64 data3)
{
	return src_of(data2, data3, false);
}

/* Zen 4's five-bit source @s in DATA2's bits 7:6 and 2:0. */
static u64 src4(unsigned int s, u64 data3)
{
	return src_of((u64)(s >> 3) << 6 | (s & 7), data3, true);
}

static void ibs_mem_hits(struct kunit *test)
{
	union perf_mem_data_src d;

	KUNIT_EXPECT_EQ(test, src(0, 0), PERF_MEM_NA);
	KUNIT_EXPECT_EQ(test, src(0, VALID), PERF_MEM_NA);
	/* What 6.1 gives of a load and a store that hit. */
	KUNIT_EXPECT_EQ(test, src(0, LD | VALID), 0x29080142ULL);
	KUNIT_EXPECT_EQ(test, src(0, ST | VALID), 0x29080144ULL);
	/* Read-modify-write: a load. */
	KUNIT_EXPECT_EQ(test, src(0, LD | ST), 0x29080142ULL);

	/* The APM's DcLockedOp is bit 15 of IBS_OP_DATA3, DcUcMemAcc 14. */
	d.val = src(0, ST | BIT_ULL(15));
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lock, PERF_MEM_LOCK_LOCKED);
	/* Family 10h's store-to-load forwarding (11) is no lock. */
	d.val = src(0, LD | BIT_ULL(11) | BIT_ULL(10));
	KUNIT_EXPECT_EQ(test, d.val, 0x29080142ULL);
	d.val = src(0, LD | BIT_ULL(14));
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_UNC | PERF_MEM_LVL_HIT);
	d.val = src(0, LD | IBS_OP_DATA3_L1_TLB_MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_dtlb, PERF_MEM_TLB_L2 | PERF_MEM_TLB_HIT);
	d.val = src(0, LD | IBS_OP_DATA3_L1_TLB_MISS |
		    IBS_OP_DATA3_L2_TLB_MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_dtlb,
			PERF_MEM_TLB_L2 | PERF_MEM_TLB_MISS | PERF_MEM_TLB_WK);
}

static void ibs_mem_misses(struct kunit *test)
{
	union perf_mem_data_src d;

	d.val = src(0, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_L2);
	d.val = src(0, LD | MISS | IBS_OP_DATA3_L2_MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_NA);

	d.val = src(IBS_OP_DATA2_SRC_LOCAL_CACHE, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_L3);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_HIT);
	d.val = src(IBS_OP_DATA2_SRC_LOCAL_CACHE | IBS_OP_DATA2_CACHE_HIT_ST,
		    LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_HITM);

	d.val = src(IBS_OP_DATA2_SRC_DRAM, ST | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_op, PERF_MEM_OP_STORE);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_RAM);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, 0);
	d.val = src(IBS_OP_DATA2_SRC_DRAM | IBS_OP_DATA2_RMT_NODE, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, PERF_MEM_REMOTE_REMOTE);

	d.val = src(IBS_OP_DATA2_SRC_REMOTE_CACHE | IBS_OP_DATA2_RMT_NODE,
		    LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_ANY_CACHE);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, PERF_MEM_REMOTE_REMOTE);

	d.val = src(IBS_OP_DATA2_SRC_IO, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_IO | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_IO);
}

static void ibs_mem_zen4(struct kunit *test)
{
	union perf_mem_data_src d;

	/* Hits read the same. */
	KUNIT_EXPECT_EQ(test, src4(0, LD | VALID), 0x29080142ULL);
	d.val = src4(IBS_OP_DATA2_SRC4_LOCAL_CACHE, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_L3);
	d.val = src4(IBS_OP_DATA2_SRC4_NEAR_CCX, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_HIT);
	d.val = src4(IBS_OP_DATA2_SRC4_FAR_CCX, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_REM_CCE2 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, PERF_MEM_REMOTE_REMOTE);
	d.val = src4(IBS_OP_DATA2_SRC4_PMEM, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_PMEM);
	/* Bits 7:6 count: extension memory is 8, not the low bits' 0. */
	d.val = src4(IBS_OP_DATA2_SRC4_EXT_MEM, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_CXL);
	d.val = src4(IBS_OP_DATA2_SRC4_PEER_MEM, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_RAM);
	/* Without the extensions, the low bits alone: 12 reads as 4. */
	d.val = src_of(3ULL << 6 | 4, LD | MISS, false);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_HIT);
}

static void ibs_mem_weight(struct kunit *test)
{
	u64 regs[IBS_OP_NR_REGS] = { 0 };
	union perf_sample_weight w;

	regs[IBS_OP_REG_DATA] = 7ULL << 16;	/* tag to retirement */
	regs[IBS_OP_REG_DATA3] = LD | 300ULL << 32;
	KUNIT_EXPECT_EQ(test, ibs_op_weight(regs, false), (u64)0);
	regs[IBS_OP_REG_DATA3] |= MISS;
	KUNIT_EXPECT_EQ(test, ibs_op_weight(regs, false), (u64)300);
	w.full = ibs_op_weight(regs, true);
	KUNIT_EXPECT_EQ(test, (u64)w.var1_dw, 300);
	KUNIT_EXPECT_EQ(test, (u64)w.var2_w, 7);
	/* A store's latency is not the program's wait. */
	regs[IBS_OP_REG_DATA3] = ST | MISS | 300ULL << 32;
	KUNIT_EXPECT_EQ(test, ibs_op_weight(regs, false), (u64)0);
}

static struct kunit_case ibs_mem_cases[] = {
	KUNIT_CASE(ibs_mem_hits),
	KUNIT_CASE(ibs_mem_misses),
	KUNIT_CASE(ibs_mem_zen4),
	KUNIT_CASE(ibs_mem_weight),
	{}
};

static struct kunit_suite ibs_mem_suite = {
	.name = "perf_amd_ibs_mem",
	.test_cases = ibs_mem_cases,
};

kunit_test_suite(ibs_mem_suite);
