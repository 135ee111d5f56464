/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Precise event-based sampling inside the Intel driver: what pebs.c
 * (events and counters), pebs_drain.c (records into samples) and
 * debug_store.c (the save area and its buffer) share.  Intel SDM vol.
 * 3B, "Processor Event Based Sampling (PEBS)" and "Debug Store (DS)
 * Mechanism".
 */
#ifndef _ARCH_X86_EVENTS_INTEL_PEBS_H
#define _ARCH_X86_EVENTS_INTEL_PEBS_H

#include <linux/types.h>
#include <asm/intel_ds.h>

#include "model.h"

/* IA32_PERF_CAPABILITIES: the PEBS fields. */
#define INTEL_CAP_PEBS_TRAP	BIT_ULL(6)	/* IP after the instruction */
#define INTEL_CAP_PEBS_FORMAT	GENMASK_ULL(11, 8)
#define INTEL_CAP_PEBS_BASELINE	BIT_ULL(14)	/* adaptive PEBS */

/* A counter writes adaptive records (its groups of MSR_PEBS_DATA_CFG). */
#define INTEL_EVTSEL_ADAPTIVE	BIT_ULL(34)
#define INTEL_FIXED_ADAPTIVE	BIT_ULL(32)	/* << 4 * fixed counter */

/* MSR_PEBS_DATA_CFG: the groups of an adaptive record. */
#define INTEL_PEBS_CFG_MEM	BIT_ULL(0)
#define INTEL_PEBS_CFG_GPRS	BIT_ULL(1)
#define INTEL_PEBS_CFG_XMMS	BIT_ULL(2)
#define INTEL_PEBS_CFG_LBRS	BIT_ULL(3)
#define INTEL_PEBS_CFG_LBR_NR	GENMASK_ULL(31, 24)	/* entries less one */

/* An adaptive record's XMM group, in words: XMM0 to XMM15, 16 bytes each. */
#define INTEL_PEBS_XMMS		32

/*
 * Where the save area keeps a counter's reset value: the general
 * counters from 0, the fixed ones (adaptive PEBS) after the eight
 * general counters that format has room for.
 */
#define INTEL_PEBS_FIXED_RESET	MAX_PEBS_EVENTS_FMT4

/**
 * struct intel_pebs_hw - the PEBS of this machine, from boot
 * @format: the record format (IA32_PERF_CAPABILITIES bits 11:8)
 * @adaptive: records of groups (format 4 with the baseline bit)
 * @size: the size of a record, before adaptive PEBS
 * @model: the model's events
 * @counters: the counters that may write records
 * @users: events that have the buffers (debug_store.c), under
 *	intel_ds_mutex
 */
struct intel_pebs_hw {
	unsigned int			format;
	bool				adaptive;
	unsigned int			size;
	const struct intel_pebs		*model;
	u64				counters;
	unsigned int			users;
};

extern struct intel_pebs_hw intel_pebs_hw;

/**
 * struct intel_pebs_cpu - one CPU's PEBS
 * @enable: what IA32_PEBS_ENABLE holds: the counters writing records,
 *	and the load latency enables of those counting that event
 * @data_cfg: what MSR_PEBS_DATA_CFG holds (adaptive PEBS)
 * @size: the size of the records being written
 * @large: the counters whose events take many records a PMI
 * @gen: counts the changes of the buffer's record size and threshold
 * @draining: intel_pebs_drain() runs on this CPU
 *
 * Changed only on its own CPU with interrupts off, as the counters are
 * programmed (intel_pebs_enable(), intel_pebs_disable()); but the NMI
 * handler may come in the middle, and its throttle disables an event's
 * PEBS too.  So @enable and @large change only in single this_cpu
 * operations, the register is written until @enable holds still, and
 * the size and threshold are worked out again if @gen moved meanwhile.
 * The NMI handler never drains inside a drain it interrupted.
 */
struct intel_pebs_cpu {
	u64		enable;
	u64		data_cfg;
	unsigned int	size;
	u64		large;
	unsigned int	gen;
	bool		draining;
};

DECLARE_PER_CPU(struct intel_pebs_cpu, intel_pebs_cpu);

/* The save area of this CPU, as the processor sees it. */
struct debug_store *intel_ds_area(void);
int intel_ds_reserve(void);
void intel_ds_release(void);
void intel_ds_cpu_start(void);
void intel_ds_set_threshold(unsigned int size, unsigned int records);

u64 *intel_pebs_reset_slot(int idx);

/* The data-source field of a record, as perf's (pebs_drain.c). */
u64 intel_pebs_data_src(enum intel_pebs_kind kind, u64 dse);

#endif /* _ARCH_X86_EVENTS_INTEL_PEBS_H */
