// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 PMU driver: detection at boot, and the hooks the core and the
 * rest of the x86 code call (call chains, sample flags, the control
 * page's clock fields, the debug store mapped into the CPU entry area).
 * The counters themselves: counters.c; the vendors: intel/, amd/.
 */
#include <linux/perf_event.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/cpufeature.h>
#include <asm/intel_ds.h>
#include <linux/mmu_context.h>
#include <asm/unwind.h>
#include <asm/timer.h>
#include <linux/sched/clock.h>
#include <linux/uaccess.h>

#include "pmu.h"

/* Whether user space may always/never use rdpmc; read at mm switch. */
DEFINE_STATIC_KEY_FALSE(rdpmc_never_available_key);
DEFINE_STATIC_KEY_FALSE(rdpmc_always_available_key);

#ifdef CONFIG_CPU_SUP_INTEL
/* Intel's PEBS/BTS area, mapped into the CPU entry area for each CPU. */
DEFINE_PER_CPU_PAGE_ALIGNED(struct debug_store, cpu_debug_store);
#endif

/**
 * perf_instruction_pointer - the instruction pointer to report in a sample
 * @regs: the registers at the sample
 *
 * Return: the instruction pointer; the guest's if the CPU was running a
 * guest when the counter overflowed (the hypervisor says so).
 */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	if (perf_guest_state())
		return perf_guest_get_ip();
	return regs->ip;
}

/**
 * perf_misc_flags - the header.misc CPU mode bits of a sample
 * @regs: the registers at the sample
 *
 * Return: PERF_RECORD_MISC_USER or PERF_RECORD_MISC_KERNEL, or their
 * PERF_RECORD_MISC_GUEST_* counterparts while the CPU runs a guest;
 * with PERF_RECORD_MISC_EXACT_IP where the registers are a precise
 * sample's whose IP is the instruction that overflowed the counter
 * (PERF_EFLAGS_EXACT in their flags: intel/pebs_drain.c).
 */
unsigned long perf_misc_flags(struct pt_regs *regs)
{
	unsigned int guest = perf_guest_state();
	unsigned long misc;

	if (guest)
		return guest & PERF_GUEST_USER ? PERF_RECORD_MISC_GUEST_USER :
						 PERF_RECORD_MISC_GUEST_KERNEL;
	misc = user_mode(regs) ? PERF_RECORD_MISC_USER :
				 PERF_RECORD_MISC_KERNEL;
	if (regs->flags & PERF_EFLAGS_EXACT)
		misc |= PERF_RECORD_MISC_EXACT_IP;
	return misc;
}

/**
 * perf_callchain_kernel - the kernel part of a sample's call chain
 * @ctx: the chain being collected
 * @regs: the registers at the overflow, in the kernel
 *
 * Registers from an interrupt frame (X86_EFLAGS_FIXED is set in every
 * real flags value) are unwound from; registers made up by
 * perf_fetch_caller_regs() only give the stack to start at.
 */
void perf_callchain_kernel(struct perf_callchain_entry_ctx *ctx,
			   struct pt_regs *regs)
{
	struct unwind_state state;
	unsigned long addr;
	bool frame = regs->flags & X86_EFLAGS_FIXED;

	/* The host's stack says nothing about the guest that was running. */
	if (perf_guest_state())
		return;
	if (perf_callchain_store(ctx, regs->ip))
		return;
	if (frame)
		unwind_start(&state, current, regs, NULL);
	else
		unwind_start(&state, current, NULL, (void *)regs->sp);
	for (; !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || perf_callchain_store(ctx, addr))
			return;
	}
}

/* A user stack frame with frame pointers: saved rbp, return address. */
struct perf_user_frame {
	unsigned long	next;
	unsigned long	ret;
};

/**
 * perf_callchain_user - the user part of a sample's call chain
 * @ctx: the chain being collected
 * @regs: the user registers
 *
 * Follows the frame pointer chain, reading the stack without faulting
 * (this may run in NMI context).  64-bit tasks only.
 */
void perf_callchain_user(struct perf_callchain_entry_ctx *ctx,
			 struct pt_regs *regs)
{
	struct perf_user_frame frame;
	unsigned long fp = regs->bp;

	if (perf_guest_state())
		return;
	if (perf_callchain_store(ctx, regs->ip))
		return;
	if (!current->mm || !user_64bit_mode(regs))
		return;

	while (fp && !(fp & (sizeof(long) - 1)) &&
	       fp < TASK_SIZE_MAX - sizeof(frame)) {
		if (copy_from_user_nmi(&frame, (void __user *)fp, sizeof(frame)))
			break;
		if (perf_callchain_store(ctx, frame.ret))
			break;
		/* Frames go up the stack; anything else is a loop. */
		if (frame.next <= fp)
			break;
		fp = frame.next;
	}
}

/*
 * While sched_clock is the TSC and stable, user space can turn an rdtsc
 * into perf time: time_mult/time_shift scale cycles to nanoseconds,
 * time_zero is what a TSC of 0 is, and time_offset makes the result the
 * time since this update (to add to time_enabled).  time_zero relates
 * the TSC to the perf clock only: an event on a clock of its own
 * (use_clockid) gets no cap_user_time_zero.
 */
static void x86_update_userpage_time(struct perf_event *event,
				     struct perf_event_mmap_page *up, u64 now)
{
	struct cyc2ns_data cyc2ns;
	u64 zero;

	up->cap_user_time = 0;
	up->cap_user_time_zero = 0;
	up->cap_user_time_short = 0;
	if (!using_native_sched_clock() || !sched_clock_stable())
		return;

	cyc2ns_read_begin(&cyc2ns);
	zero = cyc2ns.cyc2ns_offset + __sched_clock_offset;
	up->time_mult = cyc2ns.cyc2ns_mul;
	up->time_shift = cyc2ns.cyc2ns_shift;
	up->time_zero = zero;
	up->time_offset = zero - now;
	cyc2ns_read_end();
	up->cap_user_time = 1;
	up->cap_user_time_zero = !event->attr.use_clockid;
}

/**
 * arch_perf_update_userpage - the x86 fields of an event's control page
 * @event: the event
 * @up: its control page, inside the page's seqcount write
 * @now: the perf clock (sched_clock) at this update
 *
 * The TSC conversion and the counters' width for every event, and for
 * events of the cpu PMUs what self-monitoring with rdpmc needs (rdpmc.c).
 */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *up, u64 now)
{
	x86_update_userpage_time(event, up, now);
	/* The counters' width, in every event's page (as 6.1 gives it). */
	up->pmc_width = x86_pmu.width;
	if (is_x86_event(event))
		x86_rdpmc_update_userpage(event, up);
}

/* The global control and status registers, where the PMU has them. */
static void x86_print_global(int cpu)
{
	u64 ctl, status, fixed_ctl;

	if (x86_pmu.version < 2)
		return;
	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL) {
		rdmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctl);
		rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, status);
		rdmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, fixed_ctl);
		pr_info("CPU#%d: global ctrl %016llx status %016llx fixed ctrl %016llx\n",
			cpu, ctl, status, fixed_ctl);
	} else {
		rdmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, ctl);
		rdmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, status);
		pr_info("CPU#%d: global ctrl %016llx status %016llx\n",
			cpu, ctl, status);
	}
}

/**
 * perf_event_print_debug - log this CPU's counter registers
 *
 * SysRq-P (drivers/tty/sysrq.c): the driver's view of the counters it
 * uses, then what each counter register holds.
 */
void perf_event_print_debug(void)
{
	unsigned long gp, fixed;
	struct x86_pmu_cpu *cpuc;
	unsigned long flags;
	int cpu, idx;
	u64 ctl, count;

	if (!x86_pmu.gp)
		return;

	local_irq_save(flags);
	cpu = smp_processor_id();
	cpuc = this_cpu_ptr(&x86_pmu_cpu);
	if (!cpuc->type) {
		local_irq_restore(flags);
		return;
	}
	gp = cpuc->type->gp;
	fixed = cpuc->type->fixed >> X86_PMC_FIXED;
	pr_info("CPU#%d: %s PMU: placed %016llx running %016llx, %lu PMIs\n",
		cpu, x86_pmu.driver, cpuc->placed, cpuc->running,
		this_cpu_read(x86_pmi_count));
	x86_print_global(cpu);
	for_each_set_bit(idx, &gp, X86_PMC_FIXED) {
		rdmsrl(x86_evtsel_msr(idx), ctl);
		rdmsrl(x86_ctr_msr(idx), count);
		pr_info("CPU#%d: counter %2d: evtsel %016llx count %016llx\n",
			cpu, idx, ctl, count);
	}
	for_each_set_bit(idx, &fixed, INTEL_PMC_MAX_FIXED) {
		rdmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + idx, count);
		pr_info("CPU#%d: fixed %d: count %016llx\n", cpu, idx, count);
	}
	local_irq_restore(flags);
}

/**
 * perf_check_microcode - the microcode of the CPUs was updated
 *
 * The late microcode loader calls this once every CPU runs the new
 * revision.  None of the models this driver knows changes its counters
 * with the microcode revision, so nothing is looked at again.
 */
void perf_check_microcode(void)
{
}

/*
 * Find the counters and start the driver for them; without one every
 * event is a software one, as users of perf expect on machines without a
 * usable PMU.
 */
static int __init x86_pmu_detect(void)
{
	int ret;

	ret = intel_pmu_probe();
	if (ret == -ENODEV)
		ret = amd_pmu_probe();
	if (!ret) {
		ret = x86_pmu_register();
		if (!ret)
			return 0;
		pr_err("Performance Events: cannot register the cpu PMUs: %d\n",
		       ret);
	}
	memset(&x86_pmu, 0, sizeof(x86_pmu));
	memset(x86_cpu_types, 0, sizeof(x86_cpu_types));
	if (ret == -ENODEV)
		pr_info("Performance Events: no PMU driver, software events only.\n");
	return 0;
}
early_initcall(x86_pmu_detect);
