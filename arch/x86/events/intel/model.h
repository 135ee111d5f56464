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
 */
struct intel_extra_msr {
	u16	code;
	u32	msr;
};

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

/**
 * struct intel_model - a family of models that share a core PMU
 * @name: for the boot message ("Skylake events")
 * @pmu_name: caps/pmu_name
 * @init: completes tables made from another model's, or NULL: called
 *	once at boot (not __init: the table outlives it)
 * @events: generic events that differ from the architectural ones
 * @n_events: how many there are
 * @cache_map: the PERF_TYPE_HW_CACHE events
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
 */
struct intel_model {
	const char			*name;
	const char			*pmu_name;
	void				(*init)(void);
	const struct intel_event_code	*events;
	unsigned int			n_events;
	const x86_cache_map_t		*cache_map;
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
};

/*
 * format/ files of the extra registers (intel/core.c): offcore_rsp;
 * with ldlat; with ldlat and frontend.
 */
extern struct attribute *intel_offcore_format[];
extern struct attribute *intel_ldlat_format[];
extern struct attribute *intel_frontend_format[];

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
