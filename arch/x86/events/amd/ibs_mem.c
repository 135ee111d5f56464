// SPDX-License-Identifier: GPL-2.0
/*
 * What a sampled op's IBS registers say of its load or store, as perf's
 * data source (union perf_mem_data_src) and weight: the fields `perf
 * mem` and `perf c2c` read.  From the AMD APM vol. 2 ("Instruction-Based
 * Sampling"), the family 17h and 19h PPRs and revision guides:
 * IBS_OP_DATA3 tells a load from a store, a data cache, L2 or TLB miss
 * and a locked or uncached access, and gives the miss's latency;
 * IBS_OP_DATA2 says where a load that missed the L2 was served from (in
 * five bits on Zen 4, bits 7:6 above bits 2:0).
 *
 * The encoding is the one 6.1 gives, which perf's tools expect:
 * - levels as PERF_MEM_LVL_* bits, with no level number (mem_lvl_num 0)
 *   except for the sources only a number names (I/O, persistent and
 *   extension memory), which also carry the remote node as a hop;
 * - the L3 of a CPU without Zen 4's sources read as "L3 or a sibling
 *   core's cache" (the source does not tell them apart);
 * - a snoop result only where the served line was modified (HITM), and
 *   only on the models whose CacheHitSt is reliable;
 * - a TLB level only where the data's linear address is valid.
 * An op that is neither load nor store has no data source (PERF_MEM_NA).
 * The weight is the miss latency of a load, in cycles, and with
 * PERF_SAMPLE_WEIGHT_STRUCT the cycles from tag to retirement beside it;
 * 0 for what did not miss.
 */
#include <linux/bits.h>
#include <linux/perf_event.h>
#include <asm/perf_event.h>

#include "ibs.h"

/* What a data source names. */
struct ibs_src {
	u16 lvl;	/* PERF_MEM_LVL_* */
	u8 lvlnum;	/* PERF_MEM_LVLNUM_*, where the bits cannot say it */
	u8 kind;
};

/* The kinds: a cache (whose line may be modified), memory, by node. */
#define IBS_SRC_CACHE	BIT(0)
#define IBS_SRC_RAM	BIT(1)	/* RmtNode picks local or remote RAM */
#define IBS_SRC_NODE	BIT(2)	/* RmtNode makes it remote, one hop */

#define HIT(l)	(PERF_MEM_LVL_##l | PERF_MEM_LVL_HIT)

/* DataSrc's three bits, before Zen 4. */
static const struct ibs_src ibs_src3[8] = {
	[IBS_OP_DATA2_SRC_LOCAL_CACHE] = {
		HIT(L3) | PERF_MEM_LVL_REM_CCE1, 0, IBS_SRC_CACHE },
	[IBS_OP_DATA2_SRC_DRAM] = { HIT(LOC_RAM), 0, IBS_SRC_RAM },
	[IBS_OP_DATA2_SRC_REMOTE_CACHE] = { HIT(REM_CCE2), 0, 0 },
	[IBS_OP_DATA2_SRC_IO] = {
		PERF_MEM_LVL_IO, PERF_MEM_LVLNUM_IO, IBS_SRC_NODE },
};

/* Zen 4's five bits. */
static const struct ibs_src ibs_src5[32] = {
	[IBS_OP_DATA2_SRC4_LOCAL_CACHE] = { HIT(L3), 0, IBS_SRC_CACHE },
	[IBS_OP_DATA2_SRC4_NEAR_CCX] = { HIT(REM_CCE1), 0, IBS_SRC_CACHE },
	[IBS_OP_DATA2_SRC4_DRAM] = { HIT(LOC_RAM), 0, IBS_SRC_RAM },
	[IBS_OP_DATA2_SRC4_FAR_CCX] = { HIT(REM_CCE2), 0, IBS_SRC_CACHE },
	[IBS_OP_DATA2_SRC4_PMEM] = { 0, PERF_MEM_LVLNUM_PMEM, IBS_SRC_NODE },
	[IBS_OP_DATA2_SRC4_IO] = {
		PERF_MEM_LVL_IO, PERF_MEM_LVLNUM_IO, IBS_SRC_NODE },
	[IBS_OP_DATA2_SRC4_EXT_MEM] = { 0, PERF_MEM_LVLNUM_CXL, IBS_SRC_NODE },
};

/**
 * ibs_mem_quirks - how a CPU's IBS_OP_DATA2 and DATA3 are to be read
 * @caps: the IBS capabilities (CPUID 0x8000001B EAX)
 * @family: the CPU's family
 * @model: and model
 *
 * Return: IBS_MEM_* flags for ibs_op_data_src().
 */
unsigned int ibs_mem_quirks(u32 caps, unsigned int family, unsigned int model)
{
	bool zen3 = family == 0x19 && model <= 0xf;
	unsigned int q = 0;

	if (caps & IBS_CAPS_ZEN4)
		q |= IBS_MEM_SRC5;
	/*
	 * Erratum 1293 of family 19h models 00h-0Fh: for a software
	 * prefetch or a miss that took no miss address buffer, DATA2 and
	 * L2Miss are not valid.
	 */
	if (zen3)
		q |= IBS_MEM_ERRATUM_1293;
	/* CacheHitSt is not reported reliably on Zen 3 and early Zen 4. */
	if (!zen3 && !(family == 0x19 && model >= 0x20 && model <= 0x5f))
		q |= IBS_MEM_HIT_STATE;
	return q;
}

/* DATA2 and DATA3's L2Miss mean nothing for this op (erratum 1293). */
static bool ibs_data2_invalid(u64 data3, unsigned int quirks)
{
	return (quirks & IBS_MEM_ERRATUM_1293) &&
	       (data3 & (IBS_OP_DATA3_SW_PF | IBS_OP_DATA3_NO_MAB));
}

static const struct ibs_src *ibs_op_src(u64 data2, unsigned int quirks)
{
	if (quirks & IBS_MEM_SRC5)
		return &ibs_src5[IBS_OP_DATA2_SRC_HI(data2) << 3 |
				 IBS_OP_DATA2_SRC(data2)];
	return &ibs_src3[IBS_OP_DATA2_SRC(data2)];
}

/* The level that served the access, into @d; the source DATA2 named. */
static const struct ibs_src *ibs_op_level(union perf_mem_data_src *d,
					  u64 data2, u64 data3,
					  unsigned int quirks)
{
	static const struct ibs_src none;
	const struct ibs_src *s = ibs_op_src(data2, quirks);
	bool rmt = data2 & IBS_OP_DATA2_RMT_NODE;

	/* An uncached access has no miss fields, but I/O is a source. */
	if ((data3 & IBS_OP_DATA3_UC) && s->lvlnum != PERF_MEM_LVLNUM_IO) {
		d->mem_lvl = HIT(UNC);
		return s;
	}
	if (!(data3 & IBS_OP_DATA3_DC_MISS)) {
		d->mem_lvl = HIT(L1);
		return &none;
	}
	if (!(data3 & IBS_OP_DATA3_L2_MISS) &&
	    !ibs_data2_invalid(data3, quirks)) {
		d->mem_lvl = HIT(L2);
		return &none;
	}
	/* DATA2 describes loads only. */
	if (d->mem_op == PERF_MEM_OP_LOAD && (s->lvl || s->lvlnum)) {
		d->mem_lvl = s->lvl;
		d->mem_lvl_num = s->lvlnum;
		if ((s->kind & IBS_SRC_RAM) && rmt)
			d->mem_lvl = HIT(REM_RAM1);
		if ((s->kind & IBS_SRC_NODE) && rmt) {
			d->mem_remote = PERF_MEM_REMOTE_REMOTE;
			d->mem_hops = PERF_MEM_HOPS_1;
		}
		return s;
	}
	/* No source: a miss that found its line already being filled. */
	d->mem_lvl = data3 & IBS_OP_DATA3_NO_MAB ? HIT(LFB) : PERF_MEM_LVL_NA;
	return s;
}

/**
 * ibs_op_data_src - the data source of a sampled op
 * @regs: its registers, indexed by enum ibs_op_reg (DATA2 and DATA3 read)
 * @quirks: the CPU's ibs_mem_quirks()
 *
 * Return: a union perf_mem_data_src value; PERF_MEM_NA for an op that
 * neither loads nor stores.
 */
u64 ibs_op_data_src(const u64 *regs, unsigned int quirks)
{
	union perf_mem_data_src d = { .val = PERF_MEM_NA };
	u64 data3 = regs[IBS_OP_REG_DATA3], data2 = regs[IBS_OP_REG_DATA2];
	const struct ibs_src *s;

	if (data3 & IBS_OP_DATA3_LD)
		d.mem_op = PERF_MEM_OP_LOAD;
	else if (data3 & IBS_OP_DATA3_ST)
		d.mem_op = PERF_MEM_OP_STORE;
	else
		return PERF_MEM_NA;
	if (ibs_data2_invalid(data3, quirks))
		data2 = 0;

	s = ibs_op_level(&d, data2, data3, quirks);

	/* CacheHitSt 0: the line was modified where the load found it. */
	if ((quirks & IBS_MEM_HIT_STATE) && d.mem_op == PERF_MEM_OP_LOAD &&
	    !(d.mem_lvl & (PERF_MEM_LVL_L1 | PERF_MEM_LVL_L2)) &&
	    (s->kind & IBS_SRC_CACHE) && !(data2 & IBS_OP_DATA2_CACHE_HIT_ST))
		d.mem_snoop = PERF_MEM_SNOOP_HITM;

	if (!(data3 & IBS_OP_DATA3_LIN_VALID))
		d.mem_dtlb = PERF_MEM_TLB_NA;
	else if (!(data3 & IBS_OP_DATA3_L1_TLB_MISS))
		d.mem_dtlb = PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT;
	else if (!(data3 & IBS_OP_DATA3_L2_TLB_MISS))
		d.mem_dtlb = PERF_MEM_TLB_L2 | PERF_MEM_TLB_HIT;
	else
		d.mem_dtlb = PERF_MEM_TLB_L2 | PERF_MEM_TLB_MISS;

	if (data3 & IBS_OP_DATA3_LOCKED)
		d.mem_lock = PERF_MEM_LOCK_LOCKED;
	return d.val;
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
