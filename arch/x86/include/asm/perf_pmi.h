/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86 PMU driver's overflow interrupt, for a hypervisor interface
 * that delivers counter overflows itself instead of as an NMI: Xen's PV
 * guests get them as the PMU virtual IRQ (arch/x86/xen/pmu.c).
 */
#ifndef _ASM_X86_PERF_PMI_H
#define _ASM_X86_PERF_PMI_H

struct pt_regs;

#ifdef CONFIG_PERF_EVENTS
int x86_pmu_handle_irq(struct pt_regs *regs);
#else
static inline int x86_pmu_handle_irq(struct pt_regs *regs)
{
	return 0;
}
#endif

#endif /* _ASM_X86_PERF_PMI_H */
