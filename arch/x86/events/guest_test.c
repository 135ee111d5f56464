// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of what hypervisors ask of the x86 driver (guest.c): the
 * capabilities KVM offers its guests, the codes of the generic events,
 * the IA32_PERF_GLOBAL_CTRL values switched at VM entry and exit for
 * events that exclude the host or the guest, Intel PT's capability
 * decoding, and the guest callbacks that make a sample the guest's.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <asm/intel_pt.h>
#include <asm/msr.h>

#include "pmu.h"

static void guest_capability(struct kunit *test)
{
	struct x86_pmu_capability cap;

	perf_get_x86_pmu_capability(&cap);
	if (!x86_pmu.gp) {
		KUNIT_EXPECT_EQ(test, cap.num_counters_gp, 0);
		KUNIT_EXPECT_EQ(test, cap.version, 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, cap.num_counters_gp, hweight64(x86_pmu.gp));
	KUNIT_EXPECT_EQ(test, cap.bit_width_gp, (int)x86_pmu.width);
	KUNIT_EXPECT_EQ(test, cap.version, (int)x86_pmu.version);
	KUNIT_EXPECT_FALSE(test, cap.pebs_ept);
	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL) {
		union cpuid10_eax eax;
		union cpuid10_ebx ebx;
		unsigned int ecx, edx;

		cpuid(0xa, &eax.full, &ebx.full, &ecx, &edx);
		KUNIT_EXPECT_EQ(test, cap.events_mask_len,
				(int)eax.split.mask_length);
		KUNIT_EXPECT_EQ(test, cap.events_mask, ebx.full);
		/* The fixed counters CPUID lists, of the four we know. */
		KUNIT_EXPECT_EQ(test, cap.num_counters_fixed,
				x86_pmu.version >= 2 ?
				(int)min(edx & 0x1f, 4U) : 0);
	} else {
		KUNIT_EXPECT_EQ(test, cap.num_counters_fixed, 0);
	}
}

static void guest_hw_event_config(struct kunit *test)
{
	if (!x86_pmu.gp)
		kunit_skip(test, "no counter driver");
	/* Retired instructions: event 0xc0 on Intel and AMD alike. */
	KUNIT_EXPECT_EQ(test, perf_get_hw_event_config(PERF_COUNT_HW_INSTRUCTIONS),
			0xc0ULL);
	KUNIT_EXPECT_EQ(test, perf_get_hw_event_config(PERF_COUNT_HW_MAX), 0ULL);
	KUNIT_EXPECT_EQ(test, perf_get_hw_event_config(-1), 0ULL);
}

static struct perf_event *guest_open(struct kunit *test, bool excl_host,
				     bool excl_guest)
{
	struct perf_event_attr attr = {
		.size		= sizeof(attr),
		.type		= PERF_TYPE_HARDWARE,
		.config		= PERF_COUNT_HW_INSTRUCTIONS,
		.pinned		= 1,
		.exclude_host	= excl_host,
		.exclude_guest	= excl_guest,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, raw_smp_processor_id(),
						 NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	KUNIT_EXPECT_EQ(test, READ_ONCE(event->state), PERF_EVENT_STATE_ACTIVE);
	return event;
}

static void guest_msrs(struct kunit *test)
{
	struct perf_event *guest_only, *host_only, *both;
	struct perf_guest_switch_msr *msrs;
	u64 g, h, b, ctrl;
	int nr;

	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL || x86_pmu.version < 2)
		kunit_skip(test, "needs Intel architectural perfmon version 2+");

	/* The test stays on one CPU: the events are that CPU's. */
	migrate_disable();
	guest_only = guest_open(test, true, false);
	host_only = guest_open(test, false, true);
	both = guest_open(test, false, false);
	g = BIT_ULL(guest_only->hw.idx);
	h = BIT_ULL(host_only->hw.idx);
	b = BIT_ULL(both->hw.idx);

	local_irq_disable();
	msrs = perf_guest_get_msrs(&nr, NULL);
	rdmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
	local_irq_enable();

	KUNIT_ASSERT_NOT_NULL(test, msrs);
	/* With PEBS, IA32_PEBS_ENABLE too: off in the guest, and here. */
	KUNIT_ASSERT_GE(test, nr, 1);
	KUNIT_ASSERT_LE(test, nr, 2);
	if (nr == 2) {
		KUNIT_EXPECT_EQ(test, msrs[1].msr,
				(unsigned int)MSR_IA32_PEBS_ENABLE);
		KUNIT_EXPECT_EQ(test, msrs[1].host, 0ULL);
		KUNIT_EXPECT_EQ(test, msrs[1].guest, 0ULL);
	}
	KUNIT_EXPECT_EQ(test, msrs[0].msr, (unsigned int)MSR_CORE_PERF_GLOBAL_CTRL);
	KUNIT_EXPECT_EQ(test, msrs[0].host & (g | h | b), h | b);
	KUNIT_EXPECT_EQ(test, msrs[0].guest & (g | h | b), g | b);
	/* The host runs with the guest's counter off. */
	KUNIT_EXPECT_EQ(test, ctrl & (g | h | b), h | b);

	perf_event_release_kernel(both);
	perf_event_release_kernel(host_only);
	perf_event_release_kernel(guest_only);
	migrate_enable();
}

static void guest_no_lbr(struct kunit *test)
{
	struct x86_pmu_lbr lbr = { .nr = 99, .from = 1, .to = 2, .info = 3 };

	x86_perf_get_lbr(&lbr);
	KUNIT_EXPECT_EQ(test, lbr.nr, 0U);
	KUNIT_EXPECT_EQ(test, lbr.from, 0U);
	KUNIT_EXPECT_EQ(test, lbr.to, 0U);
	KUNIT_EXPECT_EQ(test, lbr.info, 0U);
}

static void guest_pt_caps(struct kunit *test)
{
	u32 caps[PT_CPUID_LEAVES * PT_CPUID_REGS_NUM] = {};

	caps[CPUID_EAX] = 1;
	caps[CPUID_EBX] = BIT(0) | BIT(3) | BIT(8);
	caps[CPUID_ECX] = BIT(2) | BIT(31);
	caps[PT_CPUID_REGS_NUM + CPUID_EAX] = 0x02490002;
	caps[PT_CPUID_REGS_NUM + CPUID_EBX] = 0x003f3fff;

	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_max_subleaf), 1U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_cr3_filtering), 1U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_psb_cyc), 0U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_mtc), 1U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_tnt_disable), 1U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_topa_output), 0U);
	KUNIT_EXPECT_EQ(test, 1U,
			intel_pt_validate_cap(caps, PT_CAP_single_range_output));
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_payloads_lip), 1U);
	KUNIT_EXPECT_EQ(test, 2U,
			intel_pt_validate_cap(caps, PT_CAP_num_address_ranges));
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_mtc_periods),
			0x0249U);
	KUNIT_EXPECT_EQ(test, 0x3fffU,
			intel_pt_validate_cap(caps, PT_CAP_cycle_thresholds));
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_psb_periods),
			0x003fU);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, 1000), 0U);
	/* The emulated CPUs have no Intel PT. */
	if (!boot_cpu_has(X86_FEATURE_INTEL_PT))
		KUNIT_EXPECT_EQ(test, intel_pt_validate_hw_cap(PT_CAP_topa_output),
				0U);
}

/*
 * SysRq-P: the registers of this CPU, one line for the driver's view and
 * one per counter, while one of them is in use.
 */
static void guest_print_debug(struct kunit *test)
{
	struct perf_event *event;

	if (!x86_pmu.gp)
		kunit_skip(test, "no counter driver");
	migrate_disable();
	event = guest_open(test, false, false);
	perf_event_print_debug();
	perf_event_release_kernel(event);
	migrate_enable();
}

#ifdef CONFIG_GUEST_PERF_EVENTS
static unsigned int guest_test_state_value;

static unsigned int guest_test_state(void)
{
	return guest_test_state_value;
}

static unsigned long guest_test_get_ip(void)
{
	return 0x1234000;
}

static struct perf_guest_info_callbacks guest_test_cbs = {
	.state	= guest_test_state,
	.get_ip	= guest_test_get_ip,
};

static void guest_callbacks(struct kunit *test)
{
	struct pt_regs regs = { .ip = 0xffffffff81000000UL, .cs = __KERNEL_CS };

	KUNIT_EXPECT_EQ(test, perf_misc_flags(&regs),
			(unsigned long)PERF_RECORD_MISC_KERNEL);
	perf_register_guest_info_callbacks(&guest_test_cbs);

	guest_test_state_value = 0;
	KUNIT_EXPECT_EQ(test, perf_instruction_pointer(&regs), regs.ip);
	guest_test_state_value = PERF_GUEST_ACTIVE;
	KUNIT_EXPECT_EQ(test, perf_misc_flags(&regs),
			(unsigned long)PERF_RECORD_MISC_GUEST_KERNEL);
	KUNIT_EXPECT_EQ(test, perf_instruction_pointer(&regs), 0x1234000UL);
	guest_test_state_value = PERF_GUEST_ACTIVE | PERF_GUEST_USER;
	KUNIT_EXPECT_EQ(test, perf_misc_flags(&regs),
			(unsigned long)PERF_RECORD_MISC_GUEST_USER);

	perf_unregister_guest_info_callbacks(&guest_test_cbs);
	KUNIT_EXPECT_EQ(test, perf_misc_flags(&regs),
			(unsigned long)PERF_RECORD_MISC_KERNEL);
	KUNIT_EXPECT_EQ(test, perf_instruction_pointer(&regs), regs.ip);
}
#endif

static struct kunit_case x86_guest_cases[] = {
	KUNIT_CASE(guest_capability),
	KUNIT_CASE(guest_hw_event_config),
	KUNIT_CASE(guest_msrs),
	KUNIT_CASE(guest_no_lbr),
	KUNIT_CASE(guest_pt_caps),
	KUNIT_CASE(guest_print_debug),
#ifdef CONFIG_GUEST_PERF_EVENTS
	KUNIT_CASE(guest_callbacks),
#endif
	{}
};

static struct kunit_suite x86_guest_suite = {
	.name		= "perf_x86_guest",
	.test_cases	= x86_guest_cases,
};

kunit_test_suites(&x86_guest_suite);
