// SPDX-License-Identifier: GPL-2.0
/*
 * What a hypervisor asks of the x86 PMU driver (KVM's virtual PMU,
 * arch/x86/kvm/): the counters there are to give a guest, the code of
 * each generic event, and the MSR values to switch at VM entry and exit
 * so that events that exclude the host or the guest count only in the
 * other.  The guest's counters themselves are perf events of KVM's,
 * created with perf_event_create_kernel_counter().
 */
#include <linux/perf_event.h>
#include <linux/export.h>
#include <linux/nospec.h>

#include "pmu.h"

/**
 * perf_get_x86_pmu_capability - the counters every CPU of this machine has
 * @cap: filled in: the architectural perfmon version, the number and
 *	width of the general and fixed counters, and CPUID 0xA's
 *	unavailable-events mask and its length; all 0 without a PMU
 *
 * KVM offers the guest at most this (arch/x86/kvm/pmu.h).
 */
void perf_get_x86_pmu_capability(struct x86_pmu_capability *cap)
{
	memset(cap, 0, sizeof(*cap));
	if (!x86_pmu.gp)
		return;

	cap->version = x86_pmu.version;
	cap->num_counters_gp = hweight64(x86_pmu.gp);
	cap->num_counters_fixed = fls64(x86_pmu.fixed >> X86_PMC_FIXED);
	cap->bit_width_gp = x86_pmu.width;
	cap->bit_width_fixed = x86_pmu.fixed ? x86_pmu.width : 0;
	cap->events_mask = x86_pmu.events_mask;
	cap->events_mask_len = x86_pmu.events_mask_len;
	/* No PEBS in this driver, so none for a guest either. */
	cap->pebs_ept = 0;
}
EXPORT_SYMBOL_GPL(perf_get_x86_pmu_capability);

/**
 * perf_get_hw_event_config - the event select code of a generic event
 * @hw_event: a PERF_COUNT_HW_* number
 *
 * KVM matches what a guest programs against these, to know which guest
 * counters count instructions and branches it emulates.
 *
 * Return: the code (event select and unit mask), or 0 if this PMU has
 * no such event or there is no PMU.
 */
u64 perf_get_hw_event_config(int hw_event)
{
	u64 code;

	if (!x86_pmu.gp || hw_event < 0 || hw_event >= PERF_COUNT_HW_MAX)
		return 0;
	/* On a hybrid, the first kind's: KVM knows one kind of CPU. */
	code = x86_cpu_types[0].event_map[array_index_nospec(hw_event,
							     PERF_COUNT_HW_MAX)];
	return code == X86_EVENT_INVALID ? 0 : code;
}
EXPORT_SYMBOL_GPL(perf_get_hw_event_config);

/**
 * perf_guest_get_msrs - the MSRs to switch at VM entry and exit
 * @nr: set to the number of entries returned
 * @data: the vCPU's struct kvm_pmu, for guest PEBS (unused: no PEBS here)
 *
 * Called by KVM with interrupts off, just before entering the guest; the
 * values stay right until interrupts are enabled again, as any change of
 * this CPU's events happens with interrupts on.
 *
 * Return: this CPU's array, NULL if nothing needs switching (no PMU, or
 * one whose events cannot be told apart by host and guest this way).
 */
struct perf_guest_switch_msr *perf_guest_get_msrs(int *nr, void *data)
{
	*nr = 0;
	if (!x86_pmu.guest_msrs)
		return NULL;
	return x86_pmu.guest_msrs(nr, data);
}
EXPORT_SYMBOL_GPL(perf_guest_get_msrs);

#ifdef CONFIG_CPU_SUP_INTEL
/**
 * x86_perf_get_lbr - the last branch record MSRs a guest may be given
 * @lbr: filled in: the number of records and the first FROM, TO and
 *	INFO MSRs
 *
 * This driver does not use the LBR yet, so it has none to share: all 0,
 * which makes KVM offer its guests no LBR (as 6.1 does on a CPU without
 * one).
 */
void x86_perf_get_lbr(struct x86_pmu_lbr *lbr)
{
	memset(lbr, 0, sizeof(*lbr));
}
EXPORT_SYMBOL_GPL(x86_perf_get_lbr);
#endif
