// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of what a sampled op's IBS registers say of its memory
 * access (ibs_mem.c): the data source of an op that does not touch
 * memory, of hits, of misses by where they were served from, of locked
 * and uncached accesses and TLB misses; and the weight of loads that
 * missed, alone and with the cycles from tag to retirement; Zen 4's
 * five-bit data sources, and the models' quirks (erratum 1293 of Zen 3,
 * CacheHitSt).  The encoding is 6.1's: the hits are the values it
 * gives on the emulated Zen (hw_ibs_test).
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

#include "ibs.h"

#define LD	IBS_OP_DATA3_LD
#define ST	IBS_OP_DATA3_ST
#define MISS	IBS_OP_DATA3_DC_MISS
#define L2MISS	(IBS_OP_DATA3_DC_MISS | IBS_OP_DATA3_L2_MISS)
#define VALID	(IBS_OP_DATA3_LIN_VALID | IBS_OP_DATA3_PHYS_VALID)
#define RMT	IBS_OP_DATA2_RMT_NODE
#define OWNED	IBS_OP_DATA2_CACHE_HIT_ST

/* The readings of a family 17h CPU, Zen 3 (19h, 01h), Zen 4 (19h, 61h). */
#define ZEN1	IBS_MEM_HIT_STATE
#define ZEN3	IBS_MEM_ERRATUM_1293
#define ZEN4	(IBS_MEM_SRC5 | IBS_MEM_HIT_STATE)

static u64 src_of(u64 data2, u64 data3, unsigned int quirks)
{
	u64 regs[IBS_OP_NR_REGS] = { 0 };

	regs[IBS_OP_REG_DATA2] = data2;
	regs[IBS_OP_REG_DATA3] = data3;
	return ibs_op_data_src(regs, quirks);
}

static u64 src(u64 data2, u64 data3)
{
	return src_of(data2, data3, ZEN1);
}

/* Zen 4's five-bit source @s in DATA2's bits 7:6 and 2:0. */
static u64 src4(unsigned int s, u64 data2, u64 data3)
{
	return src_of((u64)(s >> 3) << 6 | (s & 7) | data2, data3, ZEN4);
}

static void ibs_mem_quirks_of_models(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ibs_mem_quirks(0x3ff, 0x17, 0x01), ZEN1);
	KUNIT_EXPECT_EQ(test, ibs_mem_quirks(0x3ff, 0x10, 0x02), ZEN1);
	KUNIT_EXPECT_EQ(test, ibs_mem_quirks(0x3ff, 0x19, 0x01), ZEN3);
	KUNIT_EXPECT_EQ(test, ibs_mem_quirks(0x3ff, 0x19, 0x0f), ZEN3);
	KUNIT_EXPECT_EQ(test, ibs_mem_quirks(0x3ff, 0x19, 0x21), 0);
	KUNIT_EXPECT_EQ(test, ibs_mem_quirks(0x3ff, 0x19, 0x5f), 0);
	KUNIT_EXPECT_EQ(test, ibs_mem_quirks(IBS_CAPS_ZEN4, 0x19, 0x11),
			IBS_MEM_SRC5 | IBS_MEM_HIT_STATE);
	KUNIT_EXPECT_EQ(test, ibs_mem_quirks(IBS_CAPS_ZEN4, 0x19, 0x61), ZEN4);
	KUNIT_EXPECT_EQ(test, ibs_mem_quirks(IBS_CAPS_ZEN4, 0x19, 0x44),
			IBS_MEM_SRC5);
}

static void ibs_mem_hits(struct kunit *test)
{
	union perf_mem_data_src d;

	KUNIT_EXPECT_EQ(test, src(0, 0), PERF_MEM_NA);
	KUNIT_EXPECT_EQ(test, src(0, VALID), PERF_MEM_NA);
	/* What 6.1 gives of a load and a store that hit. */
	KUNIT_EXPECT_EQ(test, src(0, LD | VALID), 0x29080142ULL);
	KUNIT_EXPECT_EQ(test, src(0, ST | VALID), 0x29080144ULL);
	/* Read-modify-write: a load; no linear address, no TLB level. */
	KUNIT_EXPECT_EQ(test, src(0, LD | ST), 0x05080142ULL);

	/* The APM's DcLockedOp is bit 15 of IBS_OP_DATA3, DcUcMemAcc 14. */
	d.val = src(0, ST | BIT_ULL(15));
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lock, PERF_MEM_LOCK_LOCKED);
	/* Family 10h's store-to-load forwarding (11) is no lock. */
	d.val = src(0, LD | VALID | BIT_ULL(11) | BIT_ULL(10));
	KUNIT_EXPECT_EQ(test, d.val, 0x29080142ULL);
	d.val = src(0, LD | BIT_ULL(14));
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_UNC | PERF_MEM_LVL_HIT);
	d.val = src(0, LD | VALID | IBS_OP_DATA3_L1_TLB_MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_dtlb, PERF_MEM_TLB_L2 | PERF_MEM_TLB_HIT);
	d.val = src(0, LD | VALID | IBS_OP_DATA3_L1_TLB_MISS |
		    IBS_OP_DATA3_L2_TLB_MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_dtlb, PERF_MEM_TLB_L2 | PERF_MEM_TLB_MISS);
	/* The TLB bits of an op without a linear address say nothing. */
	d.val = src(0, LD | IBS_OP_DATA3_L1_TLB_MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_dtlb, PERF_MEM_TLB_NA);
}

static void ibs_mem_misses(struct kunit *test)
{
	union perf_mem_data_src d;

	/* A miss the L2 served: the level, no number. */
	d.val = src(0, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, 0);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_NA);
	d.val = src(IBS_OP_DATA2_SRC_LOCAL_CACHE, LD | MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_NA);
	/* Beyond it without a source; or a line already being filled. */
	d.val = src(0, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_NA);
	d.val = src(0, LD | L2MISS | IBS_OP_DATA3_NO_MAB);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_LFB | PERF_MEM_LVL_HIT);

	/* The CCX's L3 or a sibling's cache; modified there: HITM. */
	d.val = src(IBS_OP_DATA2_SRC_LOCAL_CACHE | OWNED, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_L3 |
			PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, 0);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_NA);
	d.val = src(IBS_OP_DATA2_SRC_LOCAL_CACHE, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_HITM);
	/* ... not where CacheHitSt is unreliable. */
	d.val = src_of(IBS_OP_DATA2_SRC_LOCAL_CACHE, LD | L2MISS, ZEN3);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_NA);
	/* Another CCX's cache. */
	d.val = src(IBS_OP_DATA2_SRC_REMOTE_CACHE | RMT, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_REM_CCE2 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_NA);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, 0);

	d.val = src(IBS_OP_DATA2_SRC_DRAM, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, 0);
	d.val = src(IBS_OP_DATA2_SRC_DRAM | RMT, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, 0);
	/* DATA2 describes loads only. */
	d.val = src(IBS_OP_DATA2_SRC_DRAM, ST | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_op, PERF_MEM_OP_STORE);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_NA);

	d.val = src(IBS_OP_DATA2_SRC_IO | RMT, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_IO);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_IO);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, PERF_MEM_REMOTE_REMOTE);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_hops, PERF_MEM_HOPS_1);
	/* Uncached, but I/O: the source. */
	d.val = src(IBS_OP_DATA2_SRC_IO, LD | L2MISS | IBS_OP_DATA3_UC);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_IO);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, 0);
}

static void ibs_mem_erratum_1293(struct kunit *test)
{
	u64 pf = LD | MISS | IBS_OP_DATA3_SW_PF;
	union perf_mem_data_src d;

	/* A prefetch's L2Miss and DATA2 are not to be believed... */
	d.val = src_of(IBS_OP_DATA2_SRC_DRAM, pf, ZEN3);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_NA);
	d.val = src_of(IBS_OP_DATA2_SRC_DRAM, LD | MISS | IBS_OP_DATA3_NO_MAB,
		       ZEN3);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_LFB | PERF_MEM_LVL_HIT);
	/* ... on Zen 3 only. */
	d.val = src_of(IBS_OP_DATA2_SRC_DRAM, pf, ZEN1);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT);
	d.val = src_of(IBS_OP_DATA2_SRC_DRAM, LD | L2MISS, ZEN3);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT);
}

static void ibs_mem_zen4(struct kunit *test)
{
	union perf_mem_data_src d;

	/* Hits read the same. */
	KUNIT_EXPECT_EQ(test, src4(0, 0, LD | VALID), 0x29080142ULL);
	d.val = src4(IBS_OP_DATA2_SRC4_LOCAL_CACHE, OWNED, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_NA);
	d.val = src4(IBS_OP_DATA2_SRC4_NEAR_CCX, 0, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_HITM);
	d.val = src4(IBS_OP_DATA2_SRC4_FAR_CCX, RMT, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_REM_CCE2 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_HITM);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, 0);
	d.val = src4(IBS_OP_DATA2_SRC4_PMEM, RMT, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, 0);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_PMEM);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, PERF_MEM_REMOTE_REMOTE);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_hops, PERF_MEM_HOPS_1);
	/* Bits 7:6 count: extension memory is 8, not the low bits' 0. */
	d.val = src4(IBS_OP_DATA2_SRC4_EXT_MEM, 0, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_CXL);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_remote, 0);
	/* A peer agent's memory (12) has no level of perf's. */
	d.val = src4(12, 0, LD | L2MISS);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_NA);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, 0);
	/* Without the extensions, the low bits alone: 12 reads as 4. */
	d.val = src_of(3ULL << 6 | 4, LD | L2MISS, ZEN1);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_REM_CCE2 | PERF_MEM_LVL_HIT);
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
	KUNIT_CASE(ibs_mem_quirks_of_models),
	KUNIT_CASE(ibs_mem_hits),
	KUNIT_CASE(ibs_mem_misses),
	KUNIT_CASE(ibs_mem_erratum_1293),
	KUNIT_CASE(ibs_mem_zen4),
	KUNIT_CASE(ibs_mem_weight),
	{}
};

static struct kunit_suite ibs_mem_suite = {
	.name = "perf_amd_ibs_mem",
	.test_cases = ibs_mem_cases,
};

kunit_test_suite(ibs_mem_suite);
