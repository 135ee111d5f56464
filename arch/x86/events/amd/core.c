// SPDX-License-Identifier: GPL-2.0
/*
 * The AMD core performance counters (AMD64 APM vol. 2, "Performance
 * Monitoring Counters").
 *
 * Four PerfEvtSel/PerfCtr pairs at MSRs C001_0000 and C001_0004 on every
 * 64-bit AMD CPU; six, interleaved from C001_0200, with the core
 * extension (CPUID Fn8000_0001 ECX PerfCtrExtCore).  PerfMonV2 (CPUID
 * Fn8000_0022) adds a global control, status and status-clear register,
 * as Intel's version 2 did; without it every counter is started and
 * stopped by its own enable bit, and an overflow is seen by the counter
 * no longer being negative.  Counters are 48 bits.
 *
 * Events: the generic map and cache map of the CPU's family, as data
 * (struct amd_model, model.h): families 17h and later (Zen, and Hygon's
 * 18h) in zen.c, the families before in k8.c.  Precise events are
 * Instruction-Based Sampling's (ibs.c).
 */
#include <linux/cpufeature.h>
#include <linux/init.h>
#include <linux/perf_event.h>
#include <asm/msr.h>
#include <asm/perf_event.h>

#include "model.h"

#define AMD_COUNTER_WIDTH	48

/*
 * Whether this CPU has SVM on (EFER.SVME, set by kvm_amd while it runs
 * guests).  With SVM off a counter with HostOnly or GuestOnly set does
 * not count at all (AMD APM vol. 2, "Performance Monitoring Counters"):
 * so an event that only excludes guests loses its HostOnly bit while
 * there can be no guest.  Changed on its CPU with interrupts off.
 */
static DEFINE_PER_CPU(bool, amd_svm_on);

/*
 * Large-increment events (family 17h's PPR: those that may count more
 * than 15 in a cycle, event 0x003 of the FP unit) count on an even
 * counter with the odd one above it merged in: the odd counter, set to
 * the Merge event 0xFFF, takes the even one's carries.  The odd counters
 * so set on this CPU, which PerfMonV2's global control must enable too;
 * changed with the even counter's event, on its CPU with interrupts off.
 */
#define AMD_MERGE_EVENT		(0xfULL << 32 | 0xff)
#define AMD_PAIR_EVENT		0x003

static DEFINE_PER_CPU(u64, amd_merged);

static void amd_enable(struct perf_event *event)
{
	u64 config = event->hw.config | ARCH_PERFMON_EVENTSEL_ENABLE;
	int idx = event->hw.idx;

	if (!this_cpu_read(amd_svm_on))
		config &= ~AMD64_EVENTSEL_HOSTONLY;
	if (event->hw.counters & X86_COUNTERS_PAIR) {
		wrmsrl(x86_evtsel_msr(idx + 1),
		       AMD_MERGE_EVENT | ARCH_PERFMON_EVENTSEL_ENABLE);
		this_cpu_or(amd_merged, BIT_ULL(idx + 1));
	}
	wrmsrl(x86_evtsel_msr(idx), config);
}

/* Program this CPU's counters again for SVM turned on or off. */
static void amd_virt_switch(bool on)
{
	struct x86_pmu_cpu *cpuc;
	unsigned long flags, bits;
	int idx;

	if (!x86_pmu.gp)
		return;
	local_irq_save(flags);
	cpuc = this_cpu_ptr(&x86_pmu_cpu);
	this_cpu_write(amd_svm_on, on);
	/*
	 * Counter by counter, a stopped PMU (perf_pmu_disable()) has the
	 * enable bits clear: its perf_pmu_enable() programs them again.
	 */
	bits = cpuc->running;
	if (cpuc->enabled || x86_pmu.version >= 2)
		for_each_set_bit(idx, &bits, X86_PMC_FIXED)
			amd_enable(cpuc->on[idx]);
	local_irq_restore(flags);
}

/**
 * amd_pmu_enable_virt - this CPU has enabled SVM
 *
 * From kvm_amd, on each CPU as it enables SVM: events that exclude the
 * guest count only in the host from now on.
 */
void amd_pmu_enable_virt(void)
{
	amd_virt_switch(true);
}
EXPORT_SYMBOL_GPL(amd_pmu_enable_virt);

/**
 * amd_pmu_disable_virt - this CPU has disabled SVM
 *
 * From kvm_amd, on each CPU once it has cleared EFER.SVME: events that
 * exclude the guest count everywhere again, as there is no guest.
 */
void amd_pmu_disable_virt(void)
{
	amd_virt_switch(false);
}
EXPORT_SYMBOL_GPL(amd_pmu_disable_virt);

static void amd_disable(struct perf_event *event)
{
	int idx = event->hw.idx;

	wrmsrl(x86_evtsel_msr(idx), event->hw.config);
	if (event->hw.counters & X86_COUNTERS_PAIR) {
		this_cpu_and(amd_merged, ~BIT_ULL(idx + 1));
		wrmsrl(x86_evtsel_msr(idx + 1), 0);
	}
}

/* PerfMonV2: the global registers. */
static void amd_v2_enable_all(u64 running)
{
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL,
	       running | this_cpu_read(amd_merged));
}

static void amd_v2_disable_all(u64 running)
{
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
}

static u64 amd_v2_status(u64 running)
{
	u64 status;

	rdmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, status);
	return status & x86_pmu.gp;
}

static void amd_v2_ack(u64 status)
{
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, status);
}

static void amd_reset(void)
{
	unsigned long gp = x86_pmu.gp;
	int idx;

	if (x86_pmu.version >= 2) {
		wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
		wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, x86_pmu.gp);
	}
	for_each_set_bit(idx, &gp, X86_PMC_FIXED) {
		wrmsrl(x86_evtsel_msr(idx), 0);
		wrmsrl(x86_ctr_msr(idx), 0);
	}
	this_cpu_write(amd_merged, 0);
}

static u32 amd_rdpmc_index(int idx)
{
	return idx;
}

static u64 amd_counters_for(const struct x86_cpu_type *type, u64 config)
{
	return type->gp;
}

/*
 * From family 17h: a large-increment event takes an even counter and the
 * odd one above it.
 */
static u64 amd_zen_counters_for(const struct x86_cpu_type *type, u64 config)
{
	u64 even = type->gp & 0x5555555555555555ULL & (type->gp >> 1);

	if ((config & AMD64_EVENTSEL_EVENT) == AMD_PAIR_EVENT)
		return even | X86_COUNTERS_PAIR;
	return type->gp;
}

static int amd_hw_config(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	int ret;

	/* No precise mode of their own: IBS samples precisely. */
	if (attr->precise_ip && get_ibs_caps())
		return forward_event_to_ibs(event);
	/* No branch sampling here. */
	if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK)
		return perf_refuse(-EOPNOTSUPP,
				   "sample_type: no branch records here",
				   attr->branch_sample_type);
	ret = x86_hw_config(event);
	if (ret)
		return ret;

	/* Counting only in a guest, only in the host, or in neither. */
	if (attr->exclude_host && attr->exclude_guest)
		event->hw.config &= ~(ARCH_PERFMON_EVENTSEL_USR |
				      ARCH_PERFMON_EVENTSEL_OS);
	else if (attr->exclude_host)
		event->hw.config |= AMD64_EVENTSEL_GUESTONLY;
	else if (attr->exclude_guest)
		event->hw.config |= AMD64_EVENTSEL_HOSTONLY;
	return 0;
}

X86_FORMAT_ATTR(amd_event, event, "config:0-7,32-35");

/* AMD's own event select fields (sysfs.c adds the shared ones). */
static struct attribute *amd_format[] = {
	&amd_event.attr.attr,
	NULL,
};

/* The counters must read back what was written, as on Intel. */
static int __init amd_check_hardware(void)
{
	u64 back;

	if (wrmsrl_safe(x86_ctr_msr(0), 0xabcd) ||
	    rdmsrl_safe(x86_ctr_msr(0), &back) || back != 0xabcd) {
		if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
			pr_info("Performance Events: PMU not available due to virtualization, using software events only.\n");
		else
			pr_err("Performance Events: Broken PMU hardware detected, using software events only.\n");
		return -ENODEV;
	}
	wrmsrl_safe(x86_ctr_msr(0), 0);
	return 0;
}

/**
 * amd_pmu_probe - fill in x86_pmu for an AMD (or Hygon) CPU
 *
 * Return: 0, -ENODEV when this is not such a CPU, or -EIO when its
 * counters do not work (and the log says so).
 */
int __init amd_pmu_probe(void)
{
	struct x86_cpu_type *type = &x86_cpu_types[0];
	const struct amd_model *model;
	unsigned int i, n = AMD64_NUM_COUNTERS;

	if (boot_cpu_data.x86_vendor != X86_VENDOR_AMD &&
	    boot_cpu_data.x86_vendor != X86_VENDOR_HYGON)
		return -ENODEV;
	if (boot_cpu_data.x86 < 6)
		return -ENODEV;

	x86_pmu.driver = boot_cpu_data.x86_vendor == X86_VENDOR_HYGON ?
			 "HYGON" : "AMD";
	x86_pmu.width = AMD_COUNTER_WIDTH;
	x86_pmu.max_period = GENMASK_ULL(AMD_COUNTER_WIDTH - 2, 0);
	x86_pmu.raw_mask = AMD64_RAW_EVENT_MASK;
	model = boot_cpu_data.x86 >= 0x17 ? &amd_zen : &amd_k8;
	for (i = 0; i < model->n_events; i++)
		type->event_map[model->events[i].id] = model->events[i].code;
	type->cache_map = model->cache_map;
	x86_pmu.format = amd_format;
	x86_pmu.hw_config = amd_hw_config;
	x86_pmu.counters_for = boot_cpu_data.x86 >= 0x17 ?
			       amd_zen_counters_for : amd_counters_for;
	x86_pmu.enable = amd_enable;
	x86_pmu.disable = amd_disable;
	x86_pmu.reset = amd_reset;
	x86_pmu.rdpmc_index = amd_rdpmc_index;
	/* Without PerfMonV2: counter by counter. */
	x86_pmu.enable_all = x86_enable_each;
	x86_pmu.disable_all = x86_disable_each;
	x86_pmu.status = x86_status_by_sign;
	x86_pmu.ack = x86_ack_nothing;

	if (boot_cpu_has(X86_FEATURE_PERFCTR_CORE)) {
		/* 6.1 names the families whose tables differ. */
		if (boot_cpu_data.x86 == 0x15)
			x86_pmu.name = "Fam15h core perfctr";
		else if (boot_cpu_data.x86 >= 0x17)
			x86_pmu.name = "Fam17h+ core perfctr";
		else
			x86_pmu.name = "core perfctr";
		n = AMD64_NUM_COUNTERS_CORE;
		x86_pmu.evtsel = MSR_F15H_PERF_CTL;
		x86_pmu.ctr = MSR_F15H_PERF_CTR;
		x86_pmu.stride = 2;
	} else {
		x86_pmu.name = "legacy perfctr";
		x86_pmu.evtsel = MSR_K7_EVNTSEL0;
		x86_pmu.ctr = MSR_K7_PERFCTR0;
		x86_pmu.stride = 1;
	}
	if (boot_cpu_has(X86_FEATURE_PERFMON_V2)) {
		unsigned int eax, ebx, ecx, edx;

		cpuid(0x80000022, &eax, &ebx, &ecx, &edx);
		if (ebx & 0xf)
			n = ebx & 0xf;
		x86_pmu.version = 2;
		x86_pmu.enable_all = amd_v2_enable_all;
		x86_pmu.disable_all = amd_v2_disable_all;
		x86_pmu.status = amd_v2_status;
		x86_pmu.ack = amd_v2_ack;
	}
	x86_pmu.gp = GENMASK_ULL(n - 1, 0);
	type->gp = x86_pmu.gp;

	if (amd_check_hardware())
		return -EIO;
	pr_info("Performance Events: %s, %s PMU driver.\n", x86_pmu.name,
		x86_pmu.driver);
	return 0;
}
