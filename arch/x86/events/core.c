// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 PMU driver: detection at boot and the hooks the rest of the
 * x86 code calls (local APIC setup, context switch of mm's rdpmc rights,
 * the debug store mapped into the CPU entry area).
 *
 * Without a counter driver every event is a software one; the boot log
 * says so, as users of perf expect on machines without a usable PMU.
 */
#include <linux/perf_event.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <asm/cpufeature.h>
#include <asm/intel_ds.h>
#include <asm/mmu_context.h>
#include <asm/perf_event.h>

/* Whether user space may always/never use rdpmc; read at mm switch. */
DEFINE_STATIC_KEY_FALSE(rdpmc_never_available_key);
DEFINE_STATIC_KEY_FALSE(rdpmc_always_available_key);

#ifdef CONFIG_CPU_SUP_INTEL
/* Intel's PEBS/BTS area, mapped into the CPU entry area for each CPU. */
DEFINE_PER_CPU_PAGE_ALIGNED(struct debug_store, cpu_debug_store);
#endif

/**
 * perf_events_lapic_init - program the local APIC's performance vector
 *
 * Called when a CPU's local APIC is set up.  Nothing to route while no
 * counter can overflow.
 */
void perf_events_lapic_init(void)
{
}

/**
 * perf_clear_dirty_counters - scrub counters a task could read with rdpmc
 *
 * Called at mm switch for mms allowed to use rdpmc.  No counters are in
 * use without a counter driver.
 */
void perf_clear_dirty_counters(void)
{
}

/**
 * perf_instruction_pointer - the instruction pointer to report in a sample
 * @regs: the registers at the sample
 *
 * Return: the instruction pointer.
 */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	return regs->ip;
}

/**
 * perf_misc_flags - the header.misc CPU mode bits of a sample
 * @regs: the registers at the sample
 *
 * Return: PERF_RECORD_MISC_USER or PERF_RECORD_MISC_KERNEL.
 */
unsigned long perf_misc_flags(struct pt_regs *regs)
{
	return user_mode(regs) ? PERF_RECORD_MISC_USER :
				 PERF_RECORD_MISC_KERNEL;
}

static int __init x86_pmu_detect(void)
{
	unsigned int eax, ebx, ecx, edx;
	const char *found = NULL;

	if (boot_cpu_has(X86_FEATURE_ARCH_PERFMON)) {
		cpuid(0xa, &eax, &ebx, &ecx, &edx);
		if (eax & 0xff)
			found = "architectural PMU";
	} else if (boot_cpu_has(X86_FEATURE_PERFCTR_CORE)) {
		found = "AMD core PMU";
	}

	pr_info("Performance Events: %s%sno PMU driver, software events only.\n",
		found ?: "", found ? " present, " : "");
	return 0;
}
early_initcall(x86_pmu_detect);
