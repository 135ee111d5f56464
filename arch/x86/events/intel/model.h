/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an Intel model knows beyond architectural perfmon, as data: one
 * struct intel_model per family of models that share a core PMU (a
 * file each, named after the family), matched by family and model in
 * intel/core.c.  A model without one runs as the generic architectural
 * PMU.
 */
#ifndef _ARCH_X86_EVENTS_INTEL_MODEL_H
#define _ARCH_X86_EVENTS_INTEL_MODEL_H

#include <linux/types.h>

#include "../pmu.h"

/**
 * struct intel_event_code - the event select of a generic hardware event
 * @id: its PERF_COUNT_HW_* number
 * @code: event, umask and the edge/inv/cmask qualifiers, as in the
 *	event select register; X86_EVENT_INVALID to refuse it with EINVAL
 */
struct intel_event_code {
	u8	id;
	u64	code;
};

/**
 * struct intel_constraint - an event only some counters count
 * @code: the event select bits that name the event
 * @match: the bits of an event's config compared with @code
 * @last: 0, or the last event select of a range that starts at @code's
 *	(any unit mask): then @match is not used
 * @counters: the counters it may use (bit 0: IA32_PMC0; bit
 *	X86_PMC_FIXED + n: fixed counter n); none refuses it with EINVAL
 */
struct intel_constraint {
	u32	code;
	u32	match;
	u8	last;
	u64	counters;
};

/**
 * struct intel_extra_msr - an event that needs a register besides its
 *	event select (attr.config1 goes there)
 * @code: its event select and unit mask
 * @msr: the register
 * @valid: the bits of the register an event may set (the fields the
 *	model has); an event that sets another is refused with EINVAL
 */
struct intel_extra_msr {
	u16	code;
	u32	msr;
	u64	valid;
};

/*
 * The bits of the extra registers an event may set, by model (Intel SDM
 * vol. 3B, "Off-core Response Performance Monitoring", and what Linux
 * 6.1 takes on each).  MSR_OFFCORE_RSP_0 and _1: Nehalem's request type
 * (bits 7:0) and response (15:8); from Sandy Bridge (and Ivy Bridge),
 * request types in 11:0 and 15, the supplier (16: any response) and
 * snoop fields above, to bit 37, with more request types and suppliers
 * from Haswell (to Skylake), Ice Lake, and Golden Cove (Sapphire
 * Rapids, Alder Lake) and Gracemont.  The Atoms from Silvermont and
 * Knights Landing have layouts of their own, and a bit or two more in
 * register 0 than in 1 (Tremont's bit 63).  The
 * load-latency threshold: 16 bits.  MSR_PEBS_FRONTEND: the
 * front-end event (bits 2:0 and 4), the bubble length (19:8) and width
 * (22:20); on Sapphire Rapids also bit 3, and events that take only
 * some of it.
 */
#define NHM_RSP_VALID		0xffffULL
#define SNB_RSP_VALID		0x3f807f8fffULL
#define HSW_RSP_VALID		0x3fffff8fffULL
#define ICL_RSP_VALID		0x3fffffbfffULL
#define SPR_RSP_VALID		0x3fffffffffULL
#define SLM_RSP_0_VALID		0x768005ffffULL
#define SLM_RSP_1_VALID		0x368005ffffULL
#define GLM_RSP_0_VALID		0x760005ffbfULL
#define GLM_RSP_1_VALID		0x360005ffbfULL
#define KNL_RSP_0_VALID		0x799ffbb6e7ULL
#define KNL_RSP_1_VALID		0x399ffbffe7ULL
#define TNT_RSP_0_VALID		0x800ff0ffffff9fffULL
#define TNT_RSP_1_VALID		0xff0ffffff9fffULL
#define INTEL_LDLAT_VALID	0xffffULL
#define SKL_FRONTEND_VALID	0x7fff17ULL
#define SPR_FRONTEND_VALID	0x7fff1fULL
#define SPR_FE_LATENCY_VALID	0x7ULL
#define SPR_FE_SLOTS_VALID	0x8ULL

/*
 * Fields of MSR_OFFCORE_RSP_0 and _1 from Haswell to Ice Lake (Intel
 * SDM vol. 3B, "Off-core Response Performance Monitoring"): what
 * 6.1's last-level cache and node events ask for.  Request types: a
 * demand data read (a load) and a demand RFO (a store's read for
 * ownership).  Suppliers: any response at all; none (Skylake on); a
 * miss of L3 served by local DRAM (bit 22 on Haswell, 26 from
 * Broadwell) or by a remote socket's (0, 1 or 2+ hops).  Snoops: none,
 * not needed, a miss, a hit without or with forwarding, a hit of a
 * modified line, not DRAM at all; and from Skylake a hit in the
 * super-queue's split lock (bit 30).
 */
#define RSP_DMND_DATA_RD	BIT_ULL(0)
#define RSP_DMND_RFO		BIT_ULL(1)
#define RSP_ANY_RESPONSE	BIT_ULL(16)
#define RSP_SUPPLIER_NONE	BIT_ULL(17)
#define HSW_RSP_LOCAL_DRAM	BIT_ULL(22)
#define BDW_RSP_LOCAL_DRAM	BIT_ULL(26)
#define RSP_REMOTE_DRAM		GENMASK_ULL(29, 27)
#define SKL_RSP_SPL_HIT		BIT_ULL(30)
#define RSP_SNOOP_DRAM		GENMASK_ULL(36, 31)
#define RSP_SNOOP_NON_DRAM	BIT_ULL(37)

/* IA32_PERF_GLOBAL_STATUS bits beside the counters'. */
#define INTEL_STATUS_LBR_FRZ	BIT_ULL(58)	/* the LBR froze at a PMI */
#define INTEL_STATUS_OVF_BUF	BIT_ULL(62)	/* the PEBS buffer is due */
#define INTEL_STATUS_COND_CHGD	BIT_ULL(63)

bool intel_constraint_match(const struct intel_constraint *c, u64 config);

/* Match on the event select byte alone, or on it and the unit mask. */
#define INTEL_MATCH_EVENT	ARCH_PERFMON_EVENTSEL_EVENT
#define INTEL_MATCH_UMASK	(ARCH_PERFMON_EVENTSEL_EVENT |		\
				 ARCH_PERFMON_EVENTSEL_UMASK)

/* Fixed counter n, in struct intel_constraint's counters. */
#define INTEL_FIXED(n)		BIT_ULL(X86_PMC_FIXED + (n))

/*
 * Constraints: an event select with any unit mask, an event select and
 * unit mask, the event selects from @first to @last with any unit mask.
 */
#define INTEL_EVENT_ON(code, counters)					\
	{ (code), INTEL_MATCH_EVENT, 0, (counters) }
#define INTEL_UMASK_ON(code, counters)					\
	{ (code), INTEL_MATCH_UMASK, 0, (counters) }
#define INTEL_RANGE_ON(first, last, counters)				\
	{ (first), 0, (last), (counters) }

/* The filters of a model's LBR_SELECT (intel/lbr.c). */
enum intel_lbr_select {
	INTEL_LBR_NO_SELECT,	/* none: Core 2 and Bonnell filter nothing */
	INTEL_LBR_SELECT_NHM,	/* Nehalem's, with its errata */
	INTEL_LBR_SELECT_SNB,	/* Sandy Bridge's */
	INTEL_LBR_SELECT_HSW,	/* Haswell's: call-stack mode too */
	INTEL_LBR_ARCH,		/* the architectural LBR's IA32_LBR_CTL */
};

/**
 * struct intel_lbr - a model's last branch records (Intel SDM vol. 3B,
 *	"Last Branch, Call Stack, Interrupt, and Exception Recording")
 * @depth: the entries of the stack (a power of 2)
 * @from: the MSR of entry 0's source; the others follow
 * @to: the MSR of entry 0's target
 * @select: what its LBR_SELECT filters
 *
 * The format of the entries is IA32_PERF_CAPABILITIES'.
 */
struct intel_lbr {
	u8			depth;
	u16			from;
	u16			to;
	enum intel_lbr_select	select;
};

extern const struct intel_lbr intel_lbr_core2, intel_lbr_atom;
extern const struct intel_lbr intel_lbr_slm, intel_lbr_nhm, intel_lbr_snb;
extern const struct intel_lbr intel_lbr_hsw, intel_lbr_skl, intel_lbr_knl;

/*
 * What a PEBS record of an event holds beyond the registers (struct
 * intel_pebs_event's @kind): the data address and where a load's data
 * came from with its latency (the load latency event), the data address
 * of a load, or of a store and whether it hit L1.
 */
enum intel_pebs_kind {
	INTEL_PEBS_PLAIN,
	INTEL_PEBS_LDLAT,
	INTEL_PEBS_LOAD,
	INTEL_PEBS_STORE,
};

/**
 * struct intel_pebs_event - events whose precise samples a model takes
 *	on some counters only, or with more in their records
 * @on: the events (as a constraint names them) and their counters
 * @kind: what their records hold for a sample
 */
struct intel_pebs_event {
	struct intel_constraint	on;
	enum intel_pebs_kind	kind;
};

/**
 * struct intel_pebs - a model's precise event-based sampling (Intel SDM
 *	vol. 3B, "Processor Event Based Sampling (PEBS)")
 * @events: the events named apart, first match first
 * @n_events: how many there are
 * @others: the counters every other event is precise on, or 0 for its
 *	usual counters (adaptive PEBS: every counter writes records)
 * @prec_dist: a counter samples retired instructions evenly
 *	(INST_RETIRED.PREC_DIST): precise_ip 3
 * @cycles_alias: the cycles event is sampled precisely as retired
 *	instructions with an inverted counter mask of 16 (which count
 *	every cycle), as INST_RETIRED.PREC_DIST at precise_ip 3
 * @mem_events: the events/ files of memory sampling (mem-loads,
 *	mem-stores), NULL-terminated
 *
 * The record format is IA32_PERF_CAPABILITIES'.
 */
struct intel_pebs {
	const struct intel_pebs_event	*events;
	unsigned int			n_events;
	u64				others;
	bool				prec_dist;
	bool				cycles_alias;
	struct attribute		**mem_events;
};

extern const struct intel_pebs intel_pebs_skl, intel_pebs_icl;

/* perf mem's events/ files (skylake.c). */
extern struct attribute *intel_mem_events[];

/**
 * struct intel_model - a family of models that share a core PMU
 * @name: for the boot message ("Skylake events")
 * @pmu_name: caps/pmu_name
 * @init: completes tables made from another model's, or NULL: called
 *	once at boot (not __init: the table outlives it)
 * @events: generic events that differ from the architectural ones
 * @n_events: how many there are
 * @cache_map: the PERF_TYPE_HW_CACHE events
 * @cache_extra: what the extra register of a cache event that needs one
 *	holds (the offcore response of the LL and NODE events), or NULL
 * @constraints: events that only some general counters count
 * @n_constraints: how many there are
 * @extra_msrs: events that need another register
 * @n_extra_msrs: how many there are
 * @format_attrs: format/ files beyond the architectural ones,
 *	NULL-terminated, or NULL
 * @event_attrs: events/ files beyond the generic ones, NULL-terminated,
 *	or NULL
 * @metrics: the topdown metrics IA32_PERF_METRICS has (4 or 8; 0 for
 *	none), where IA32_PERF_CAPABILITIES says it is there (topdown.c)
 * @atom: a hybrid's model of its Atom cores (this one is its big
 *	cores'), or NULL
 * @more_gp: a hybrid's big cores' general counters beyond CPUID 0xA's
 *	(which are what every core has)
 * @more_fixed: its big cores' fixed counters beyond CPUID 0xA's
 * @min_period: the shortest period its counters are loaded with (an
 *	erratum's workaround), 0 for none: a shorter sample period is
 *	refused with EINVAL
 * @prec_dist_period: the shortest period of INST_RETIRED.PREC_DIST (in
 *	place of @min_period), 0 for no such rule
 * @lbr: its last branch records, or NULL
 * @pebs: its precise sampling, or NULL
 */
struct intel_model {
	const char			*name;
	const char			*pmu_name;
	void				(*init)(void);
	const struct intel_event_code	*events;
	unsigned int			n_events;
	const x86_cache_map_t		*cache_map;
	const x86_cache_map_t		*cache_extra;
	const struct intel_constraint	*constraints;
	unsigned int			n_constraints;
	const struct intel_extra_msr	*extra_msrs;
	unsigned int			n_extra_msrs;
	struct attribute		**format_attrs;
	struct attribute		**event_attrs;
	unsigned int			metrics;
	const struct intel_model	*atom;
	u8				more_gp;
	u8				more_fixed;
	u8				min_period;
	u8				prec_dist_period;
	const struct intel_lbr		*lbr;
	const struct intel_pebs		*pebs;
};

/*
 * format/ files of the extra registers (intel/core.c): offcore_rsp;
 * with ldlat; with ldlat and frontend.
 */
extern struct attribute *intel_offcore_format[];
extern struct attribute *intel_ldlat_format[];
extern struct attribute *intel_frontend_format[];

/* The offcore responses of the LL and NODE events (skylake.c). */
extern const x86_cache_map_t intel_skl_cache_extra;

/**
 * struct intel_arch_lbr - what CPUID 0x1C says of the architectural LBR
 * @depth: the depth it is set to, the deepest it has
 * @cpl: it filters by privilege level
 * @filter: it filters by kind of branch
 * @call_stack: it has call-stack mode
 * @mispred: INFO has the mispredict flag
 * @cycles: INFO has the cycles
 * @types: INFO has the kind of branch
 */
struct intel_arch_lbr {
	unsigned int	depth;
	bool		cpl;
	bool		filter;
	bool		call_stack;
	bool		mispred;
	bool		cycles;
	bool		types;
};

/* The architectural LBR's registers (arch_lbr.c). */
extern struct intel_arch_lbr intel_arch_lbr;
bool intel_arch_lbr_probe(void);
u64 intel_arch_lbr_ctl(u64 recorded, bool kernel, bool user, bool call_stack);
unsigned int intel_arch_lbr_read(struct perf_branch_entry *e, u32 *kinds,
				 unsigned int max);
void intel_arch_lbr_clear(void);
unsigned int intel_arch_lbr_save(u64 *from, u64 *to, u64 *info);
void intel_arch_lbr_restore(const u64 *from, const u64 *to, const u64 *info,
			    unsigned int n);

/* The last branch records (lbr.c). */
int intel_lbr_config(struct perf_event *event);
void intel_lbr_enable(void);
void intel_lbr_disable(void);
void intel_lbr_reset_cpu(void);
unsigned int intel_lbr_record_depth(void);
struct perf_branch_stack *intel_lbr_record_sample(struct perf_event *event,
						  const u64 *regs,
						  unsigned int nr);
const char *intel_lbr_init(const struct intel_model *model, u64 caps,
			   const char **arch);

/* Precise sampling (pebs.c, pebs_drain.c, debug_store.c). */
const char *intel_pebs_init(struct x86_cpu_type *type, u64 caps);
int intel_pebs_config(struct perf_event *event);
void intel_pebs_enable(struct perf_event *event);
void intel_pebs_disable(struct perf_event *event);
void intel_pebs_reset_cpu(void);
struct perf_guest_switch_msr;
void intel_pebs_guest_msr(struct perf_guest_switch_msr *msr);
int intel_pebs_drain(struct pt_regs *iregs);

/* Topdown slots and metrics, from Ice Lake (topdown.c). */
bool intel_is_metric(const struct x86_cpu_type *type, u64 config);
u64 intel_metric_counter(u64 config);
int intel_topdown_check(struct perf_event *event);
u64 intel_global_bits(u64 counters);
void intel_topdown_reset(const struct x86_cpu_type *type);
void intel_topdown_init(struct x86_cpu_type *type, unsigned int metrics,
			u64 caps);

/* The topdown events of Sandy Bridge to Broadwell (sandybridge.c). */
extern struct attribute *intel_snb_topdown_events[];

extern const struct intel_model intel_core, intel_core2;
extern const struct intel_model intel_nehalem, intel_westmere;
extern const struct intel_model intel_sandybridge, intel_ivybridge;
extern const struct intel_model intel_haswell, intel_broadwell;
extern const struct intel_model intel_skylake;
extern const struct intel_model intel_icelake, intel_sapphirerapids;
extern const struct intel_model intel_knl;
extern const struct intel_model intel_bonnell, intel_silvermont;
extern const struct intel_model intel_goldmont, intel_goldmont_plus;
extern const struct intel_model intel_tremont, intel_gracemont;
extern const struct intel_model intel_alderlake, intel_alderlake_atom;

#endif /* _ARCH_X86_EVENTS_INTEL_MODEL_H */
