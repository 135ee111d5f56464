// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the overflow interrupt as the hardware raises it, on a
 * CPU whose counters no event holds: the performance-counter LVT entry
 * masked, and freezing the counters on a PMI (Intel architectural
 * perfmon version 4).  They program the MSRs directly, with interrupts
 * off so that no event can be scheduled on this CPU meanwhile, and put
 * everything back as they found it.
 */
#include <kunit/test.h>
#include <linux/irqflags.h>
#include <asm/apic.h>
#include <asm/msr.h>

#include "pmu.h"

#define PMI_TEST_LEFT	100	/* instructions to overflow */
#define PMI_TEST_RUN	1000	/* loop iterations, several instructions each */

#define CTR_FRZ		BIT_ULL(59)	/* IA32_PERF_GLOBAL_STATUS */

static void pmi_test_spin(void)
{
	int i;

	for (i = 0; i < PMI_TEST_RUN; i++)
		barrier();
}

/*
 * Why the test cannot run here, or NULL: it needs Intel's version
 * @version or later, and counters no event holds.  Called with
 * interrupts off (kunit_skip() must not be: it ends the thread).
 */
static const char *pmi_test_unusable(unsigned int version)
{
	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL || !x86_pmu.gp ||
	    x86_pmu.version < version || hweight64(x86_pmu.gp) < 2)
		return "needs Intel architectural perfmon with the version tested";
	if (this_cpu_read(x86_pmu_cpu.placed))
		return "counters in use on this CPU";
	return NULL;
}

/* General counter @idx counting kernel instructions from @left before 0. */
static void pmi_test_program(int idx, s64 left, bool irq)
{
	u64 sel = 0x00c0 | ARCH_PERFMON_EVENTSEL_OS |
		  ARCH_PERFMON_EVENTSEL_ENABLE;

	if (irq)
		sel |= ARCH_PERFMON_EVENTSEL_INT;
	wrmsrl(x86_ctr_msr(idx), (u64)-left & GENMASK_ULL(x86_pmu.width - 1, 0));
	wrmsrl(x86_evtsel_msr(idx), sel);
}

static void pmi_test_clean(void)
{
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	wrmsrl(x86_evtsel_msr(0), 0);
	wrmsrl(x86_evtsel_msr(1), 0);
	wrmsrl(x86_ctr_msr(0), 0);
	wrmsrl(x86_ctr_msr(1), 0);
	wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, CTR_FRZ |
	       x86_type_counters(x86_this_cpu_type()));
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

/*
 * A counter that overflows while the LVT entry is masked sets its status
 * bit and raises nothing; unmasking the entry later does not deliver the
 * lost PMI either.
 */
static void pmi_masked_lvt(struct kunit *test)
{
	unsigned long flags, before, after_overflow, after_unmask;
	const char *why;
	u64 status;

	local_irq_save(flags);
	why = pmi_test_unusable(2);
	if (why) {
		local_irq_restore(flags);
		kunit_skip(test, "%s", why);
	}
	before = this_cpu_read(x86_pmi_count);
	apic_write(APIC_LVTPC, APIC_DM_NMI | APIC_LVT_MASKED);
	pmi_test_program(0, PMI_TEST_LEFT, true);
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(0));
	pmi_test_spin();
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, status);
	after_overflow = this_cpu_read(x86_pmi_count);

	apic_write(APIC_LVTPC, APIC_DM_NMI);
	pmi_test_spin();
	after_unmask = this_cpu_read(x86_pmi_count);
	pmi_test_clean();
	local_irq_restore(flags);

	KUNIT_EXPECT_TRUE(test, status & BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, after_overflow, before);
	KUNIT_EXPECT_EQ(test, after_unmask, before);
}

/*
 * With IA32_DEBUGCTL.Freeze_PerfMon_On_PMI, the PMI of one counter sets
 * CTR_FRZ in the global status and stops every counter until software
 * clears it through IA32_PERF_GLOBAL_STATUS_RESET, even while the LVT
 * entry is masked (the freeze comes with the PMI request).
 */
static void pmi_freeze_on_pmi(struct kunit *test)
{
	u64 debugctl, status, frozen, later, resumed;
	unsigned long flags;
	const char *why;

	local_irq_save(flags);
	why = pmi_test_unusable(4);
	if (why) {
		local_irq_restore(flags);
		kunit_skip(test, "%s", why);
	}
	rdmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
	wrmsrl(MSR_IA32_DEBUGCTLMSR,
	       debugctl | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	apic_write(APIC_LVTPC, APIC_DM_NMI | APIC_LVT_MASKED);

	/* Counter 0 overflows soon and interrupts; counter 1 only counts. */
	pmi_test_program(0, PMI_TEST_LEFT, true);
	pmi_test_program(1, x86_pmu.max_period, false);
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(0) | BIT_ULL(1));
	pmi_test_spin();
	rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, status);
	rdmsrl(x86_ctr_msr(1), frozen);
	pmi_test_spin();
	rdmsrl(x86_ctr_msr(1), later);

	/* Clearing the freeze lets them count again. */
	wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, CTR_FRZ | BIT_ULL(0));
	pmi_test_spin();
	rdmsrl(x86_ctr_msr(1), resumed);

	wrmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
	pmi_test_clean();
	local_irq_restore(flags);

	KUNIT_EXPECT_TRUE(test, status & BIT_ULL(0));
	KUNIT_EXPECT_TRUE(test, status & CTR_FRZ);
	KUNIT_EXPECT_EQ(test, later, frozen);
	KUNIT_EXPECT_GT(test, resumed, later);
}

static struct kunit_case x86_pmi_cases[] = {
	KUNIT_CASE(pmi_masked_lvt),
	KUNIT_CASE(pmi_freeze_on_pmi),
	{}
};

static struct kunit_suite x86_pmi_suite = {
	.name = "perf_x86_pmi",
	.test_cases = x86_pmi_cases,
};

kunit_test_suites(&x86_pmi_suite);
