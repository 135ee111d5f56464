/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an AMD family's core counters count, as data: one struct
 * amd_model per group of families that share their events (a file
 * each), chosen by family in core.c.
 */
#ifndef _ARCH_X86_EVENTS_AMD_MODEL_H
#define _ARCH_X86_EVENTS_AMD_MODEL_H

#include <linux/types.h>

#include "../pmu.h"

/**
 * struct amd_event_code - the event select of a generic hardware event
 * @id: its PERF_COUNT_HW_* number
 * @code: event select (bits 0-7) and unit mask (bits 8-15); a generic
 *	event not listed is refused with ENOENT
 */
struct amd_event_code {
	u8	id;
	u16	code;
};

/**
 * struct amd_model - the events of a group of AMD families
 * @events: the generic events
 * @n_events: how many there are
 * @cache_map: the PERF_TYPE_HW_CACHE events
 */
struct amd_model {
	const struct amd_event_code	*events;
	unsigned int			n_events;
	const x86_cache_map_t		*cache_map;
};

extern const struct amd_model amd_k8, amd_zen;

#endif /* _ARCH_X86_EVENTS_AMD_MODEL_H */
