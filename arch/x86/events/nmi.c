// SPDX-License-Identifier: GPL-2.0
/*
 * The overflow interrupt: a counter crossing its width raises a PMI
 * through the local APIC's performance-counter entry, which we program
 * for NMI delivery.
 *
 * The handler freezes the counters, asks the vendor which overflowed,
 * acknowledges them, has the vendor turn the records of precise events
 * into samples if it says they are due, and for each other counter that
 * overflowed folds the count, reloads the next period and hands a
 * sample to the core, until no overflow is left.  It
 * takes no lock and allocates nothing: what it reads of the CPU's state
 * is only ever changed on this CPU (see struct x86_pmu_cpu).
 *
 * An NMI with no overflow of ours is someone else's: NMI_DONE passes it
 * on.  Returning the number of overflows handled lets the NMI code
 * recognise the second of two back-to-back PMIs that one pass served.
 */
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <asm/perf_pmi.h>

#include "pmu.h"

/* More passes than this and the status never clears: give up on it. */
#define X86_PMI_MAX_PASSES	100

/* PMIs this CPU took (NMIs that found an overflow); for the tests. */
DEFINE_PER_CPU(unsigned long, x86_pmi_count);

/**
 * perf_events_lapic_init - route the performance-counter interrupt as NMI
 *
 * Called when a CPU's local APIC is set up, and by the driver on each
 * CPU it brings up.  Does nothing without a counter driver.
 */
void perf_events_lapic_init(void)
{
	if (!x86_pmu.gp || !boot_cpu_has(X86_FEATURE_APIC))
		return;
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

/* Serve the overflows in @status: how many were events of ours. */
static int x86_pmi_overflows(struct x86_pmu_cpu *cpuc, u64 status,
			     struct pt_regs *regs)
{
	unsigned long bits = status & cpuc->running & ~READ_ONCE(cpuc->precise);
	struct perf_sample_data data;
	struct perf_event *event;
	int idx, handled = 0;
	u64 period;

	for_each_set_bit(idx, &bits, X86_PMC_MAX) {
		event = READ_ONCE(cpuc->on[idx]);
		if (WARN_ON_ONCE(!event))
			continue;
		handled++;
		x86_event_update(event);
		period = event->hw.last_period;
		/*
		 * A counting event, or a period longer than a counter can
		 * hold, overflowed on the way: nothing to sample yet.
		 */
		if (!is_sampling_event(event) ||
		    local64_read(&event->hw.period_left) > 0) {
			x86_event_set_period(event);
			continue;
		}
		x86_event_set_period(event);
		perf_sample_data_init(&data, 0, period);
		if (has_branch_stack(event))
			perf_sample_save_brstack(&data, event,
						 x86_pmu.branch_sample(event));
		if (perf_event_overflow(event, &data, regs))
			x86_pmu_stop(event, 0);
	}
	return handled;
}

/**
 * x86_pmu_handle_irq - serve this CPU's counter overflows
 * @regs: the registers the overflow interrupted
 *
 * The body of the overflow NMI, also for a hypervisor that delivers the
 * overflow by other means (Xen's PMU interrupt, with the registers Xen
 * saved).  Interrupts off.
 *
 * Return: how many overflows were this driver's, 0 for none (and when
 * there is no counter driver).
 */
int x86_pmu_handle_irq(struct pt_regs *regs)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	int handled = 0, passes = 0, n;
	u64 start, status;

	if (!x86_pmu.gp)
		return 0;
	start = sched_clock();
	x86_pmu.disable_all(cpuc->running);
	status = x86_pmu.status(cpuc->running);
	/* The branches that led here, frozen as the PMI came. */
	if (status && READ_ONCE(cpuc->branch_users))
		x86_pmu.branch_read();
	while (status) {
		x86_pmu.ack(status);
		n = 0;
		/* The precise events' records, before their counters move. */
		if (status & x86_pmu.drain_status)
			n = x86_pmu.drain(regs);
		/*
		 * An overflow of a counter that stopped since is still
		 * ours: the PMI was on its way when it stopped.
		 */
		n += x86_pmi_overflows(cpuc, status, regs);
		handled += max(n, 1);
		if (++passes > X86_PMI_MAX_PASSES) {
			pr_warn_once("perf: overflow status %llx does not clear\n",
				     status);
			break;
		}
		status = x86_pmu.status(cpuc->running);
	}
	/*
	 * Delivery masked the entry (on Intel); open it for the next one,
	 * whoever this NMI was for.
	 */
	apic_write(APIC_LVTPC, APIC_DM_NMI);
	if (READ_ONCE(cpuc->enabled))
		x86_pmu.enable_all(cpuc->running);

	if (handled) {
		this_cpu_inc(x86_pmi_count);
		perf_sample_event_took(sched_clock() - start);
	}
	return handled;
}

static int x86_pmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	int handled = x86_pmu_handle_irq(regs);

	return handled ? handled : NMI_DONE;
}

/**
 * x86_pmu_nmi_init - take the PMI, and route it on the boot CPU
 */
void __init x86_pmu_nmi_init(void)
{
	register_nmi_handler(NMI_LOCAL, x86_pmi_handler, NMI_FLAG_FIRST,
			     "PMI");
}

/**
 * x86_pmu_nmi_exit - no PMI to take: the driver could not start
 */
void __init x86_pmu_nmi_exit(void)
{
	unregister_nmi_handler(NMI_LOCAL, "PMI");
}
