// SPDX-License-Identifier: GPL-2.0
/*
 * Bringing the perf core up at boot, and the core's trace events.  The
 * rest of the core is split by concept; internal.h has the map.
 */
#include <linux/perf_event.h>
#include <linux/hw_breakpoint.h>

#include "internal.h"

/* The trace events of the core: perf_refused. */
#define CREATE_TRACE_POINTS
#include <trace/events/perf.h>

/**
 * perf_event_init - set up the perf core
 *
 * Called once from start_kernel(), on the boot CPU with interrupts off,
 * before the other CPUs come up.
 */
void __init perf_event_init(void)
{
	perf_contexts_init();
	perf_swevent_init();
	perf_tp_register();
	WARN_ON(init_hw_breakpoint());
}
