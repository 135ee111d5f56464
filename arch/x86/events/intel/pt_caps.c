// SPDX-License-Identifier: GPL-2.0
/*
 * Intel Processor Trace as the rest of x86 sees it: the capabilities in
 * CPUID leaf 0x14, which KVM reads for the host and decodes for its
 * guests, and stopping a trace where one must not run (VMX operation on
 * parts that do not allow it, and the way into a crash kernel).
 *
 * This driver does not trace yet (no PMU of ours sets RTIT_CTL.TraceEn);
 * stopping still looks at the hardware, so that a trace left on by
 * firmware or a previous kernel does not break VMXON or kdump.
 *
 * CPUID leaf 0x14 (Intel SDM vol. 2A, CPUID; vol. 3C, "Intel Processor
 * Trace"):
 *   subleaf 0  EAX  the highest subleaf
 *              EBX  0 CR3 filtering, 1 configurable PSB and cycle-accurate
 *                   mode, 2 IP filtering and TraceStop, 3 MTC, 4 PTWRITE,
 *                   5 power event trace, 7 event trace, 8 TNT disable
 *              ECX  0 ToPA output, 1 ToPA tables of many entries,
 *                   2 single-range output, 3 output to the trace transport
 *                   subsystem, 31 IPs are linear addresses (LIP)
 *   subleaf 1  EAX  2:0 address ranges, 31:16 MTC periods (bitmap)
 *              EBX  15:0 cycle thresholds, 31:16 PSB periods (bitmaps)
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/cpufeature.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/perf_event.h>
#include <linux/processor.h>
#include <asm/intel_pt.h>
#include <asm/msr.h>

/* Where a capability is: CPUID 0x14 subleaf, register, bits. */
struct pt_cap_field {
	u8	subleaf;
	u8	reg;
	u32	bits;
};

#define PT_FIELD(_subleaf, _reg, _bits) \
	{ .subleaf = (_subleaf), .reg = CPUID_##_reg, .bits = (_bits) }

static const struct pt_cap_field pt_cap_fields[] = {
	[PT_CAP_max_subleaf]		= PT_FIELD(0, EAX, U32_MAX),
	[PT_CAP_cr3_filtering]		= PT_FIELD(0, EBX, BIT(0)),
	[PT_CAP_psb_cyc]		= PT_FIELD(0, EBX, BIT(1)),
	[PT_CAP_ip_filtering]		= PT_FIELD(0, EBX, BIT(2)),
	[PT_CAP_mtc]			= PT_FIELD(0, EBX, BIT(3)),
	[PT_CAP_ptwrite]		= PT_FIELD(0, EBX, BIT(4)),
	[PT_CAP_power_event_trace]	= PT_FIELD(0, EBX, BIT(5)),
	[PT_CAP_event_trace]		= PT_FIELD(0, EBX, BIT(7)),
	[PT_CAP_tnt_disable]		= PT_FIELD(0, EBX, BIT(8)),
	[PT_CAP_topa_output]		= PT_FIELD(0, ECX, BIT(0)),
	[PT_CAP_topa_multiple_entries]	= PT_FIELD(0, ECX, BIT(1)),
	[PT_CAP_single_range_output]	= PT_FIELD(0, ECX, BIT(2)),
	[PT_CAP_output_subsys]		= PT_FIELD(0, ECX, BIT(3)),
	[PT_CAP_payloads_lip]		= PT_FIELD(0, ECX, BIT(31)),
	[PT_CAP_num_address_ranges]	= PT_FIELD(1, EAX, GENMASK(2, 0)),
	[PT_CAP_mtc_periods]		= PT_FIELD(1, EAX, GENMASK(31, 16)),
	[PT_CAP_cycle_thresholds]	= PT_FIELD(1, EBX, GENMASK(15, 0)),
	[PT_CAP_psb_periods]		= PT_FIELD(1, EBX, GENMASK(31, 16)),
};

/* This machine's CPUID 0x14, read once at boot; zeros without PT. */
static u32 pt_hw_caps[PT_CPUID_LEAVES * PT_CPUID_REGS_NUM] __ro_after_init;

/**
 * intel_pt_validate_cap - one capability out of a copy of CPUID 0x14
 * @caps: the registers of subleaves 0 and 1, PT_CPUID_REGS_NUM a
 *	subleaf, in enum cpuid_regs_idx order (KVM keeps its guests' so)
 * @cap: the capability
 *
 * Return: its field, shifted down: 0 or 1 for a feature bit, a number or
 * a bitmap for the others; 0 for an unknown @cap.
 */
u32 intel_pt_validate_cap(u32 *caps, enum pt_capabilities cap)
{
	const struct pt_cap_field *f;

	if ((unsigned int)cap >= ARRAY_SIZE(pt_cap_fields))
		return 0;
	f = &pt_cap_fields[cap];
	return (caps[f->subleaf * PT_CPUID_REGS_NUM + f->reg] & f->bits) >>
	       __ffs(f->bits);
}
EXPORT_SYMBOL_GPL(intel_pt_validate_cap);

/**
 * intel_pt_validate_hw_cap - one capability of this machine's Intel PT
 * @cap: the capability
 *
 * Return: as intel_pt_validate_cap(), for the boot CPU; 0 for every
 * capability if the CPU has no Intel PT.
 */
u32 intel_pt_validate_hw_cap(enum pt_capabilities cap)
{
	return intel_pt_validate_cap(pt_hw_caps, cap);
}
EXPORT_SYMBOL_GPL(intel_pt_validate_hw_cap);

/*
 * Turn this CPU's trace off if it is on.  Interrupts off; RTIT_CTL is
 * read safely, as a hypervisor may not give us the MSR.
 */
static void pt_stop_here(void)
{
	u64 ctl;

	if (!boot_cpu_has(X86_FEATURE_INTEL_PT) ||
	    rdmsrl_safe(MSR_IA32_RTIT_CTL, &ctl) ||
	    !(ctl & RTIT_CTL_TRACEEN))
		return;
	wrmsrl_safe(MSR_IA32_RTIT_CTL, ctl & ~RTIT_CTL_TRACEEN);
}

/**
 * intel_pt_handle_vmx - this CPU enters or leaves VMX operation
 * @on: 1 on the way in (before VMXON), 0 on the way out
 *
 * Where IA32_VMX_MISC does not allow Intel PT in VMX operation, a trace
 * must be off before VMXON.  From KVM, with preemption off.
 */
void intel_pt_handle_vmx(int on)
{
	u64 misc;

	if (!on || !boot_cpu_has(X86_FEATURE_INTEL_PT))
		return;
	if (!rdmsrl_safe(MSR_IA32_VMX_MISC, &misc) &&
	    (misc & MSR_IA32_VMX_MISC_INTEL_PT))
		return;
	pt_stop_here();
}
EXPORT_SYMBOL_GPL(intel_pt_handle_vmx);

/**
 * cpu_emergency_stop_pt - stop this CPU's trace on the way to kdump
 *
 * From the crash shutdown path (NMI context on the other CPUs), so that
 * no trace writes into memory the crash kernel now owns.
 */
void cpu_emergency_stop_pt(void)
{
	pt_stop_here();
}

static int __init pt_caps_init(void)
{
	unsigned int i;
	u32 *r;

	if (!boot_cpu_has(X86_FEATURE_INTEL_PT))
		return 0;
	for (i = 0; i < PT_CPUID_LEAVES; i++) {
		r = &pt_hw_caps[i * PT_CPUID_REGS_NUM];
		cpuid_count(0x14, i, &r[CPUID_EAX], &r[CPUID_EBX],
			    &r[CPUID_ECX], &r[CPUID_EDX]);
	}
	return 0;
}
arch_initcall(pt_caps_init);
