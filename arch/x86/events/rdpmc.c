// SPDX-License-Identifier: GPL-2.0
/*
 * Reading counters from user space with rdpmc.
 *
 * rdpmc at CPL 3 faults unless CR4.PCE is set.  /sys/.../cpu/rdpmc says
 * when it is:
 *   0  never;
 *   1  (the default) while the running mm has an event of this PMU
 *      mapped (mm->context.perf_rdpmc_allowed counts them);
 *   2  always.
 * switch_mm() sets CR4.PCE from these (cr4_update_pce_mm() in
 * arch/x86/mm/tlb.c), and calls perf_clear_dirty_counters() when it
 * does, so a task never reads what another task's events left in a
 * counter.
 *
 * An event opened while rdpmc is not 0 offers it through its control
 * page: cap_user_rdpmc, the counter's rdpmc index plus one in index
 * while the event runs on this CPU, pmc_width, and an offset such that
 * offset plus the sign-extended counter is the count.
 */
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/mm_types.h>
#include <linux/mmu_context.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <asm/msr.h>

#include "pmu.h"

/* The sysfs setting, 0, 1 or 2; changes under x86_rdpmc_mutex. */
static unsigned int x86_rdpmc_mode = 1;
static DEFINE_MUTEX(x86_rdpmc_mutex);

/**
 * x86_rdpmc_init_event - note whether a new event may be read with rdpmc
 * @event: the event
 */
void x86_rdpmc_init_event(struct perf_event *event)
{
	if (READ_ONCE(x86_rdpmc_mode))
		event->hw.x86_flags |= X86_EVENT_USER_RDPMC;
}

/**
 * x86_rdpmc_mapped - an event's buffer was mapped into @mm
 * @event: the event
 * @mm: the mm it was mapped into, its mmap_lock held
 */
void x86_rdpmc_mapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.x86_flags & X86_EVENT_USER_RDPMC))
		return;
	/* The first such mapping lets the mm's threads rdpmc, wherever. */
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}

/**
 * x86_rdpmc_unmapped - a mapping of an event's buffer went from @mm
 * @event: the event
 * @mm: the mm
 */
void x86_rdpmc_unmapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.x86_flags & X86_EVENT_USER_RDPMC))
		return;
	if (atomic_dec_and_test(&mm->context.perf_rdpmc_allowed))
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}

/**
 * x86_rdpmc_update_userpage - the rdpmc fields of an event's control page
 * @event: an event of the cpu PMU (of a CPU type, on a hybrid)
 * @up: its control page, inside the page's seqcount write
 *
 * Called with interrupts off.
 */
void x86_rdpmc_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *up)
{
	struct hw_perf_event *hwc = &event->hw;
	int shift = 64 - x86_pmu.width;
	s64 prev;

	up->cap_user_rdpmc = !!(hwc->x86_flags & X86_EVENT_USER_RDPMC);
	up->pmc_width = x86_pmu.width;
	if (!up->cap_user_rdpmc || hwc->idx < 0 ||
	    event->state != PERF_EVENT_STATE_ACTIVE ||
	    event->oncpu != smp_processor_id())
		return;
	up->index = x86_pmu.rdpmc_index(hwc->idx) + 1;
	prev = (s64)(local64_read(&hwc->prev_count) << shift) >> shift;
	up->offset -= prev;
}

/**
 * perf_clear_dirty_counters - scrub counters a task could read with rdpmc
 *
 * Called at mm switch when the next mm may use rdpmc: counters no event
 * holds now, but one did, are zeroed.
 */
void perf_clear_dirty_counters(void)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	unsigned long stale = cpuc->used & ~cpuc->placed;
	int idx;

	for_each_set_bit(idx, &stale, X86_PMC_MAX) {
		/* The metrics' one register (rdpmc reads it too). */
		if (idx >= X86_PMC_METRIC)
			wrmsrl(MSR_PERF_METRICS, 0);
		else if (idx >= X86_PMC_FIXED)
			wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + idx - X86_PMC_FIXED,
			       0);
		else
			wrmsrl(x86_ctr_msr(idx), 0);
	}
	cpuc->used &= ~stale;
}

/**
 * x86_perf_rdpmc_index - the rdpmc counter number of an active event
 * @event: an event of the cpu PMU (on a hybrid, of this CPU's kind's),
 *	active on this CPU (resctrl's pseudo lock measurement reads its
 *	pinned events with rdpmc)
 *
 * Interrupts off, so that the event stays on its counter.
 *
 * Return: what rdpmc takes in ECX for the event's counter.
 */
int x86_perf_rdpmc_index(struct perf_event *event)
{
	lockdep_assert_irqs_disabled();
	return x86_pmu.rdpmc_index(event->hw.idx);
}

static ssize_t rdpmc_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	return sysfs_emit(page, "%u\n", READ_ONCE(x86_rdpmc_mode));
}

static ssize_t rdpmc_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	unsigned int mode, old;
	int ret;

	ret = kstrtouint(buf, 0, &mode);
	if (ret)
		return ret;
	if (mode > 2)
		return -EINVAL;

	mutex_lock(&x86_rdpmc_mutex);
	old = x86_rdpmc_mode;
	if (mode != old) {
		if (mode == 0)
			static_branch_enable(&rdpmc_never_available_key);
		else if (old == 0)
			static_branch_disable(&rdpmc_never_available_key);
		if (mode == 2)
			static_branch_enable(&rdpmc_always_available_key);
		else if (old == 2)
			static_branch_disable(&rdpmc_always_available_key);
		WRITE_ONCE(x86_rdpmc_mode, mode);
		on_each_cpu(cr4_update_pce, NULL, 1);
	}
	mutex_unlock(&x86_rdpmc_mutex);
	return count;
}
static DEVICE_ATTR_RW(rdpmc);

struct attribute *x86_rdpmc_attrs[] = {
	&dev_attr_rdpmc.attr,
	NULL,
};
