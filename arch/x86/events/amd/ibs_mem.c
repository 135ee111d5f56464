// SPDX-License-Identifier: GPL-2.0
/*
 * What a sampled op's IBS registers say of its load or store, as perf's
 * data source (union perf_mem_data_src) and weight: the fields `perf
 * mem` and `perf c2c` read.  From the AMD APM vol. 2 ("Instruction-Based
 * Sampling") and the family 17h and 19h PPRs: IBS_OP_DATA3 tells a load
 * from a store, a data cache or TLB miss and a locked access, and gives
 * the miss's latency; IBS_OP_DATA2 says where a missing access was
 * served from (in five bits on Zen 4, with bits 7:6 above bits 2:0).
 *
 * An op that is neither load nor store has no data source (PERF_MEM_NA).
 * A hit in the data cache reads as an L1 hit without a level number, as
 * 6.1 has it; a miss gets both the level and its number.  The weight is
 * the miss latency of a load, in cycles, and with PERF_SAMPLE_WEIGHT_STRUCT
 * the cycles from tag to retirement beside it; 0 for what did not miss.
 */
#include <linux/bits.h>
#include <linux/perf_event.h>

#include "ibs.h"

static u64 ibs_mem(u64 op, u64 lvl, u64 lvlnum, u64 snoop, u64 lock,
		   u64 tlb, bool remote)
{
	u64 v;

	v = op << PERF_MEM_OP_SHIFT | lvl << PERF_MEM_LVL_SHIFT |
	    snoop << PERF_MEM_SNOOP_SHIFT | lock << PERF_MEM_LOCK_SHIFT |
	    tlb << PERF_MEM_TLB_SHIFT | lvlnum << PERF_MEM_LVLNUM_SHIFT;
	if (remote)
		v |= (u64)PERF_MEM_REMOTE_REMOTE << PERF_MEM_REMOTE_SHIFT;
	return v;
}

/* The level a data cache miss was served from, and its number. */
static void ibs_miss_level(u64 data2, u64 data3, u64 *lvl, u64 *lvlnum,
			   u64 *snoop, bool *remote)
{
	bool rmt = data2 & IBS_OP_DATA2_RMT_NODE;

	*remote = false;
	*snoop = PERF_MEM_SNOOP_NA;
	switch (IBS_OP_DATA2_SRC(data2)) {
	case IBS_OP_DATA2_SRC_LOCAL_CACHE:
		*lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT;
		*lvlnum = PERF_MEM_LVLNUM_L3;
		break;
	case IBS_OP_DATA2_SRC_DRAM:
		*lvl = (rmt ? PERF_MEM_LVL_REM_RAM1 : PERF_MEM_LVL_LOC_RAM) |
		       PERF_MEM_LVL_HIT;
		*lvlnum = PERF_MEM_LVLNUM_RAM;
		*remote = rmt;
		return;
	case IBS_OP_DATA2_SRC_REMOTE_CACHE:
		*lvl = PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_HIT;
		*lvlnum = PERF_MEM_LVLNUM_ANY_CACHE;
		*remote = rmt;
		break;
	case IBS_OP_DATA2_SRC_IO:
		*lvl = PERF_MEM_LVL_IO | PERF_MEM_LVL_HIT;
		*lvlnum = PERF_MEM_LVLNUM_IO;
		return;
	default:
		/* No source given: the L2 served it, unless it missed too. */
		if (data3 & IBS_OP_DATA3_L2_MISS) {
			*lvl = PERF_MEM_LVL_NA;
			*lvlnum = PERF_MEM_LVLNUM_NA;
		} else {
			*lvl = PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT;
			*lvlnum = PERF_MEM_LVLNUM_L2;
		}
		return;
	}
	/* A cache's line in the modified or owned state. */
	if (data2 & IBS_OP_DATA2_CACHE_HIT_ST)
		*snoop = PERF_MEM_SNOOP_HITM;
	else
		*snoop = PERF_MEM_SNOOP_HIT;
}

/* The same from Zen 4's data source, of five bits. */
static void ibs_miss_level_zen4(u64 data2, u64 data3, u64 *lvl, u64 *lvlnum,
				u64 *snoop, bool *remote)
{
	bool rmt = data2 & IBS_OP_DATA2_RMT_NODE;
	unsigned int src = IBS_OP_DATA2_SRC_HI(data2) << 3 |
			   IBS_OP_DATA2_SRC(data2);

	*remote = false;
	*snoop = PERF_MEM_SNOOP_NA;
	*lvl = PERF_MEM_LVL_HIT;
	switch (src) {
	case IBS_OP_DATA2_SRC4_LOCAL_CACHE:
		*lvl |= PERF_MEM_LVL_L3;
		*lvlnum = PERF_MEM_LVLNUM_L3;
		break;
	case IBS_OP_DATA2_SRC4_NEAR_CCX:
		*lvl |= PERF_MEM_LVL_REM_CCE1;
		*lvlnum = PERF_MEM_LVLNUM_ANY_CACHE;
		*remote = rmt;
		break;
	case IBS_OP_DATA2_SRC4_FAR_CCX:
		*lvl |= PERF_MEM_LVL_REM_CCE2;
		*lvlnum = PERF_MEM_LVLNUM_ANY_CACHE;
		*remote = true;
		break;
	case IBS_OP_DATA2_SRC4_DRAM:
	case IBS_OP_DATA2_SRC4_PEER_MEM:
		*lvl |= rmt ? PERF_MEM_LVL_REM_RAM1 : PERF_MEM_LVL_LOC_RAM;
		*lvlnum = PERF_MEM_LVLNUM_RAM;
		*remote = rmt;
		return;
	case IBS_OP_DATA2_SRC4_PMEM:
		*lvlnum = PERF_MEM_LVLNUM_PMEM;
		*remote = rmt;
		return;
	case IBS_OP_DATA2_SRC4_EXT_MEM:
		*lvlnum = PERF_MEM_LVLNUM_CXL;
		*remote = rmt;
		return;
	case IBS_OP_DATA2_SRC4_IO:
		*lvl |= PERF_MEM_LVL_IO;
		*lvlnum = PERF_MEM_LVLNUM_IO;
		return;
	default:
		ibs_miss_level(0, data3, lvl, lvlnum, snoop, remote);
		return;
	}
	if (data2 & IBS_OP_DATA2_CACHE_HIT_ST)
		*snoop = PERF_MEM_SNOOP_HITM;
	else
		*snoop = PERF_MEM_SNOOP_HIT;
}

/**
 * ibs_op_data_src - the data source of a sampled op
 * @regs: its registers, indexed by enum ibs_op_reg (DATA2 and DATA3 read)
 * @zen4: the CPU has Zen 4's extensions (a data source of five bits)
 *
 * Return: a union perf_mem_data_src value; PERF_MEM_NA for an op that
 * neither loads nor stores.
 */
u64 ibs_op_data_src(const u64 *regs, bool zen4)
{
	u64 data3 = regs[IBS_OP_REG_DATA3], op, lvl, lvlnum, snoop, lock, tlb;
	bool remote = false;

	if (!(data3 & (IBS_OP_DATA3_LD | IBS_OP_DATA3_ST)))
		return PERF_MEM_NA;
	op = data3 & IBS_OP_DATA3_LD ? PERF_MEM_OP_LOAD : PERF_MEM_OP_STORE;
	lock = data3 & IBS_OP_DATA3_LOCKED ? PERF_MEM_LOCK_LOCKED :
					     PERF_MEM_LOCK_NA;
	if (!(data3 & IBS_OP_DATA3_L1_TLB_MISS))
		tlb = PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT;
	else if (!(data3 & IBS_OP_DATA3_L2_TLB_MISS))
		tlb = PERF_MEM_TLB_L2 | PERF_MEM_TLB_HIT;
	else
		tlb = PERF_MEM_TLB_L2 | PERF_MEM_TLB_MISS | PERF_MEM_TLB_WK;

	if (data3 & IBS_OP_DATA3_UC) {
		lvl = PERF_MEM_LVL_UNC | PERF_MEM_LVL_HIT;
		lvlnum = 0;
		snoop = PERF_MEM_SNOOP_NA;
	} else if (!(data3 & IBS_OP_DATA3_DC_MISS)) {
		lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT;
		lvlnum = 0;
		snoop = PERF_MEM_SNOOP_NA;
	} else if (zen4) {
		ibs_miss_level_zen4(regs[IBS_OP_REG_DATA2], data3, &lvl,
				    &lvlnum, &snoop, &remote);
	} else {
		ibs_miss_level(regs[IBS_OP_REG_DATA2], data3, &lvl, &lvlnum,
			       &snoop, &remote);
	}
	return ibs_mem(op, lvl, lvlnum, snoop, lock, tlb, remote);
}

/**
 * ibs_op_weight - the weight of a sampled op
 * @regs: its registers, indexed by enum ibs_op_reg (DATA and DATA3 read)
 * @split: for PERF_SAMPLE_WEIGHT_STRUCT rather than PERF_SAMPLE_WEIGHT
 *
 * Return: the data cache miss latency of a load that missed, with its
 * cycles from tag to retirement in var2_w where @split; else 0.
 */
u64 ibs_op_weight(const u64 *regs, bool split)
{
	u64 data3 = regs[IBS_OP_REG_DATA3];
	union perf_sample_weight w = { .full = 0 };

	if ((data3 & (IBS_OP_DATA3_LD | IBS_OP_DATA3_DC_MISS)) !=
	    (IBS_OP_DATA3_LD | IBS_OP_DATA3_DC_MISS))
		return 0;
	if (!split)
		return IBS_OP_DATA3_MISS_LAT(data3);
	w.var1_dw = IBS_OP_DATA3_MISS_LAT(data3);
	w.var2_w = IBS_OP_DATA_TAG_TO_RET(regs[IBS_OP_REG_DATA]);
	return w.full;
}
