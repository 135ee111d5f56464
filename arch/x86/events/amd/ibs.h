/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AMD's Instruction-Based Sampling: what the PMUs (ibs.c) and the
 * reading of an op's memory access (ibs_mem.c) share.
 */
#ifndef ARCH_X86_EVENTS_AMD_IBS_H
#define ARCH_X86_EVENTS_AMD_IBS_H

#include <linux/bits.h>
#include <linux/types.h>

/*
 * The registers of a sampled op, as read from IBS_OP_CTL (0xc0011033)
 * on: their order in a raw sample, which perf's tool decodes.
 */
enum ibs_op_reg {
	IBS_OP_REG_CTL,
	IBS_OP_REG_RIP,
	IBS_OP_REG_DATA,
	IBS_OP_REG_DATA2,
	IBS_OP_REG_DATA3,
	IBS_OP_REG_DC_LINADDR,
	IBS_OP_REG_DC_PHYSADDR,
	IBS_OP_NR_REGS,
};

/* IBS_OP_DATA */
#define IBS_OP_DATA_TAG_TO_RET(d)	(((d) >> 16) & 0xffff)

/* IBS_OP_DATA2 */
#define IBS_OP_DATA2_SRC(d)		((d) & 0x7)
#define IBS_OP_DATA2_SRC_HI(d)		(((d) >> 6) & 0x3)
#define IBS_OP_DATA2_RMT_NODE		BIT_ULL(4)
#define IBS_OP_DATA2_CACHE_HIT_ST	BIT_ULL(5)
#define IBS_OP_DATA2_SRC_LOCAL_CACHE	2
#define IBS_OP_DATA2_SRC_DRAM		3
#define IBS_OP_DATA2_SRC_REMOTE_CACHE	4
#define IBS_OP_DATA2_SRC_IO		7
/* Zen 4's, with the high bits: (hi << 3) | low */
#define IBS_OP_DATA2_SRC4_LOCAL_CACHE	1
#define IBS_OP_DATA2_SRC4_NEAR_CCX	2
#define IBS_OP_DATA2_SRC4_DRAM		3
#define IBS_OP_DATA2_SRC4_FAR_CCX	5
#define IBS_OP_DATA2_SRC4_PMEM		6
#define IBS_OP_DATA2_SRC4_IO		7
#define IBS_OP_DATA2_SRC4_EXT_MEM	8

/* IBS_OP_DATA3 */
#define IBS_OP_DATA3_LD			BIT_ULL(0)
#define IBS_OP_DATA3_ST			BIT_ULL(1)
#define IBS_OP_DATA3_L1_TLB_MISS	BIT_ULL(2)
#define IBS_OP_DATA3_L2_TLB_MISS	BIT_ULL(3)
#define IBS_OP_DATA3_DC_MISS		BIT_ULL(7)
#define IBS_OP_DATA3_UC			BIT_ULL(14)
#define IBS_OP_DATA3_LOCKED		BIT_ULL(15)
#define IBS_OP_DATA3_NO_MAB		BIT_ULL(16)
#define IBS_OP_DATA3_LIN_VALID		BIT_ULL(17)
#define IBS_OP_DATA3_PHYS_VALID		BIT_ULL(18)
#define IBS_OP_DATA3_L2_MISS		BIT_ULL(20)
#define IBS_OP_DATA3_SW_PF		BIT_ULL(21)
#define IBS_OP_DATA3_MISS_LAT(d)	(((d) >> 32) & 0xffff)

/* How a CPU's DATA2 and DATA3 are read (ibs_mem_quirks()). */
#define IBS_MEM_SRC5		BIT(0)	/* Zen 4's five-bit data source */
#define IBS_MEM_ERRATUM_1293	BIT(1)	/* DATA2 invalid for some misses */
#define IBS_MEM_HIT_STATE	BIT(2)	/* CacheHitSt is reliable */

unsigned int ibs_mem_quirks(u32 caps, unsigned int family, unsigned int model);
u64 ibs_op_data_src(const u64 *regs, unsigned int quirks);
u64 ibs_op_weight(const u64 *regs, bool split);

#endif /* ARCH_X86_EVENTS_AMD_IBS_H */
