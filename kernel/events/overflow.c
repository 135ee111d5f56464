// SPDX-License-Identifier: GPL-2.0
/*
 * What happens when a sampling event overflows: the PMU driver (or the
 * software event path) calls perf_event_overflow() with the sample it
 * started and the registers of the interrupted context.
 */
#include <linux/perf_event.h>

#include "internal.h"

/**
 * perf_event_overflow - a sampling event completed a period
 * @event: the event
 * @data: the sample, started with perf_sample_data_init()
 * @regs: the registers at the overflow
 *
 * Runs the kernel user's handler if it has one.  May be called in NMI
 * context.
 *
 * Return: 1 if the PMU must stop the event (it was throttled or ran out
 * of refreshes), 0 to go on.
 */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	if (event->overflow_handler)
		event->overflow_handler(event, data, regs);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_overflow);
