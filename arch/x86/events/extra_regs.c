// SPDX-License-Identifier: GPL-2.0
/*
 * The registers some events need beside their event select: Intel's
 * offcore response MSRs (what requests, answered how, OFFCORE_RESPONSE
 * counts), the load-latency threshold and the front-end event selection
 * (Intel SDM vol. 3B, "Performance Monitoring").  One register of each
 * serves every counter of a CPU, so the events on a CPU's counters must
 * agree on what it holds: events that want the same value share it,
 * an event that wants another value cannot be added, unless it may use
 * a second register of the kind (MSR_OFFCORE_RSP_1 beside _0, where the
 * model has it), and then counts as that register's event.
 *
 * The vendor says at an event's creation which registers of its CPU
 * type it may have (hw.extra_regs), the one its event select names
 * (hw.extra_idx, tried first) and what they must hold
 * (hw.extra_config).  The CPU's add() takes one for it
 * (x86_extra_get()) and gives it back in del(), with the events already
 * there keeping theirs; the vendor writes the register as it enables
 * the event's counter.  A group is checked
 * at open by giving its members registers in a set of their own, as the
 * counters are checked.
 */
#include <linux/perf_event.h>

#include "pmu.h"

/* Whether @event may have register @idx of @use as things stand. */
static bool x86_extra_fits(const struct x86_extra_use *use,
			   const struct perf_event *event, int idx)
{
	if (!(event->hw.extra_regs & BIT(idx)))
		return false;
	return !use->users[idx] || use->value[idx] == event->hw.extra_config;
}

/**
 * x86_extra_get - take an extra register for an event
 * @use: what the registers of a CPU (or of a group being checked) hold
 * @event: an event that needs one (hw.extra_regs not 0)
 *
 * The register its event select names (hw.extra_idx) if it is free or
 * holds what the event wants, else another one it may have, on the
 * same terms.  Reads nothing of @event that changes but hw.extra_idx,
 * which only its own CPU changes (x86_extra_take()): a group being
 * checked sees each member as it was last programmed, or is to be.
 *
 * Return: the register's number in its CPU type's table, or -1 if
 * none is to be had.
 */
int x86_extra_get(struct x86_extra_use *use, const struct perf_event *event)
{
	int first = READ_ONCE(event->hw.extra_idx), idx = first;

	if (!x86_extra_fits(use, event, idx)) {
		for (idx = 0; idx < X86_EXTRA_REGS; idx++) {
			if (idx != first && x86_extra_fits(use, event, idx))
				break;
		}
		if (idx == X86_EXTRA_REGS)
			return -1;
	}
	use->value[idx] = event->hw.extra_config;
	use->users[idx]++;
	return idx;
}

/**
 * x86_extra_put - give back an extra register
 * @use: as for x86_extra_get()
 * @idx: what x86_extra_get() returned for the event
 */
void x86_extra_put(struct x86_extra_use *use, int idx)
{
	if (WARN_ON_ONCE(idx < 0 || idx >= X86_EXTRA_REGS ||
			 !use->users[idx]))
		return;
	use->users[idx]--;
}

/**
 * x86_extra_take - make an event the event of the extra register it got
 * @event: an event x86_extra_get() gave register @idx
 * @idx: the register
 *
 * Its event select becomes the one of the register's event, where
 * the CPU type says so (the second offcore response register counts
 * with an event select of its own).
 */
void x86_extra_take(struct perf_event *event, int idx)
{
	const struct x86_extra_reg *reg = &x86_event_type(event)->extra[idx];
	struct hw_perf_event *hwc = &event->hw;

	WRITE_ONCE(hwc->extra_idx, idx);
	if (reg->code)
		hwc->config = (hwc->config & ~(u64)(ARCH_PERFMON_EVENTSEL_EVENT |
						    ARCH_PERFMON_EVENTSEL_UMASK)) |
			      reg->code;
}
