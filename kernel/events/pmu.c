// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU registry: drivers register a struct pmu, events find theirs.
 *
 * Each PMU has a type number: the fixed PERF_TYPE_* values for the
 * software, tracepoint and breakpoint PMUs, and the hardware PMU if it
 * asks for PERF_TYPE_RAW; a dynamic number above PERF_TYPE_MAX otherwise.
 * An event whose attr.type names a registered PMU goes to that PMU; the
 * generic hardware types (PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE) are
 * offered to every PMU in registration order until one accepts, unless
 * their config names a PMU in its upper half (PERF_PMU_CAP_EXTENDED_HW_TYPE).
 */
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/idr.h>
#include <linux/srcu.h>

#include "internal.h"

/*
 * Locking: pmus_lock serialises registration; lookups run under
 * pmus_srcu and never block registration for long.  pmu_idr maps type
 * numbers to PMUs and is changed only under pmus_lock.
 */
static DEFINE_MUTEX(pmus_lock);
DEFINE_STATIC_SRCU(pmus_srcu);
static LIST_HEAD(pmus);
static DEFINE_IDR(pmu_idr);
/* Whether /sys/bus/event_source exists yet; under pmus_lock. */
static bool pmus_sysfs_up;

/**
 * perf_pmu_register - make a PMU available to perf_event_open()
 * @pmu: the driver's description, callbacks filled in
 * @name: its name in /sys/bus/event_source/devices/, or NULL
 * @type: a PERF_TYPE_* value to claim, or -1 for a dynamic type
 *
 * Return: 0, -EBUSY if @type is taken, or -ENOMEM.
 */
int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	int ret;

	pmu->pmu_disable_count = alloc_percpu(int);
	if (!pmu->pmu_disable_count)
		return -ENOMEM;

	mutex_lock(&pmus_lock);
	if (type >= 0)
		ret = idr_alloc(&pmu_idr, pmu, type, type + 1, GFP_KERNEL);
	else
		ret = idr_alloc(&pmu_idr, pmu, PERF_TYPE_MAX, 0, GFP_KERNEL);
	if (ret < 0) {
		mutex_unlock(&pmus_lock);
		free_percpu(pmu->pmu_disable_count);
		pmu->pmu_disable_count = NULL;
		return ret == -ENOSPC ? -EBUSY : ret;
	}

	pmu->type = ret;
	pmu->name = name;
	ret = perf_mux_init(pmu);
	if (!ret && pmus_sysfs_up)
		ret = perf_pmu_sysfs_add(pmu);
	if (ret) {
		perf_mux_free(pmu);
		idr_remove(&pmu_idr, pmu->type);
		mutex_unlock(&pmus_lock);
		free_percpu(pmu->pmu_disable_count);
		pmu->pmu_disable_count = NULL;
		return ret;
	}
	list_add_tail_rcu(&pmu->entry, &pmus);
	mutex_unlock(&pmus_lock);
	return 0;
}

/**
 * perf_pmus_sysfs_start - the bus is up: give every named PMU its device
 */
void perf_pmus_sysfs_start(void)
{
	struct pmu *pmu;

	mutex_lock(&pmus_lock);
	pmus_sysfs_up = true;
	list_for_each_entry(pmu, &pmus, entry)
		WARN_ON(perf_pmu_sysfs_add(pmu));
	mutex_unlock(&pmus_lock);
}
EXPORT_SYMBOL_GPL(perf_pmu_register);

/**
 * perf_pmu_unregister - withdraw a PMU
 * @pmu: a PMU registered with perf_pmu_register()
 *
 * The caller guarantees no event of this PMU exists any more.
 */
void perf_pmu_unregister(struct pmu *pmu)
{
	mutex_lock(&pmus_lock);
	list_del_rcu(&pmu->entry);
	idr_remove(&pmu_idr, pmu->type);
	perf_pmu_sysfs_del(pmu);
	mutex_unlock(&pmus_lock);

	synchronize_srcu(&pmus_srcu);
	perf_mux_free(pmu);
	free_percpu(pmu->pmu_disable_count);
}
EXPORT_SYMBOL_GPL(perf_pmu_unregister);

/*
 * Registers beyond the general ones (x86: the XMM registers) are only
 * for PMUs that record them; as in 6.1 the masks are checked whether or
 * not sample_type asks for registers.
 */
static bool perf_event_extended_regs(struct perf_event *event)
{
	return (event->attr.sample_regs_user & PERF_REG_EXTENDED_MASK) ||
	       (event->attr.sample_regs_intr & PERF_REG_EXTENDED_MASK);
}

/* What a PMU's capabilities refuse of an event it has taken: 0 or -errno. */
static int perf_pmu_caps_refuse(struct pmu *pmu, struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	if (pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT &&
	    is_sampling_event(event))
		return perf_refuse(-EOPNOTSUPP, "sample_period: PMU cannot sample",
				   attr->sample_period);
	if (pmu->capabilities & PERF_PMU_CAP_NO_EXCLUDE &&
	    (attr->exclude_user || attr->exclude_kernel || attr->exclude_hv ||
	     attr->exclude_idle || attr->exclude_host || attr->exclude_guest))
		return perf_refuse(-EINVAL, "exclude_*: PMU cannot exclude", 0);
	if (!(pmu->capabilities & PERF_PMU_CAP_EXTENDED_REGS) &&
	    perf_event_extended_regs(event))
		return perf_refuse(-EOPNOTSUPP,
				   "sample_regs_*: PMU has no extended registers",
				   PERF_REG_EXTENDED_MASK);
	if (pmu->task_ctx_nr == perf_invalid_context &&
	    event->attach_state & PERF_ATTACH_TASK)
		return perf_refuse(-EINVAL, "pid: PMU counts per CPU only",
				   pmu->type);
	return 0;
}

/* The PMU of type @type, or NULL; under pmus_srcu. */
static struct pmu *perf_pmu_find(u32 type)
{
	struct pmu *pmu;

	/* The idr's nodes are freed by RCU, the PMUs by pmus_srcu. */
	rcu_read_lock();
	pmu = idr_find(&pmu_idr, type);
	rcu_read_unlock();
	return pmu;
}

static int perf_pmu_try(struct pmu *pmu, struct perf_event *event)
{
	int ret;

	if (!try_module_get(pmu->module))
		return perf_refuse(-ENODEV, "type: PMU going away", pmu->type);

	event->pmu = pmu;
	ret = pmu->event_init(event);
	if (ret) {
		event->pmu = NULL;
		module_put(pmu->module);
		/* Not its event is no refusal: another PMU may take it. */
		if (ret != -ENOENT)
			perf_refuse(ret, "pmu: event_init refused the event",
				    event->attr.config);
		return ret;
	}

	ret = perf_pmu_caps_refuse(pmu, event);
	if (ret) {
		if (event->destroy)
			event->destroy(event);
		event->destroy = NULL;
		event->pmu = NULL;
		module_put(pmu->module);
	}
	return ret;
}

/*
 * Offer @event to @pmu; if @pmu passes it on, to the PMU it names.  A
 * PMU passes an event on by setting attr.type to the other PMU's type
 * and returning -ENOENT from its event_init (AMD's precise cycles go to
 * the ibs_op PMU so), as 6.1 lets it.  Once: the other PMU's answer is
 * final.
 */
static int perf_pmu_try_passed(struct pmu *pmu, struct perf_event *event)
{
	u32 type = event->attr.type;
	struct pmu *to;
	int ret;

	ret = perf_pmu_try(pmu, event);
	if (ret != -ENOENT || event->attr.type == type)
		return ret;
	to = perf_pmu_find(event->attr.type);
	if (!to || to == pmu)
		return perf_refuse(-ENOENT, "type: passed on to no PMU",
				   event->attr.type);
	return perf_pmu_try(to, event);
}

/**
 * perf_pmu_init_event - find the PMU for a new event and let it set it up
 * @event: the event, with its attributes in place
 *
 * A PMU may pass the event on to another (perf_pmu_try_passed()).
 *
 * Return: 0 with event->pmu set; -ENOENT when no PMU knows the type or
 * config; another error from the PMU that claimed the event, or for what
 * its capabilities refuse: -EOPNOTSUPP for a sampling event of a PMU
 * that cannot interrupt, -EINVAL for exclude_* bits of one that cannot
 * exclude, or for a per-task event of a PMU that counts per CPU only.
 */
int perf_pmu_init_event(struct perf_event *event)
{
	struct pmu *pmu, *cpu_pmu = NULL;
	int idx, ret = -ENOENT;
	u32 type = event->attr.type;
	bool named = false;

	/*
	 * An inherited copy goes to its parent's PMU, which took the same
	 * attributes and cannot go away while the parent lives.
	 */
	if (event->parent)
		return perf_pmu_try(event->parent->pmu, event);

	idx = srcu_read_lock(&pmus_srcu);

	/*
	 * A generic event may name its PMU in the upper half of its config
	 * (on a machine with more than one kind of CPU, one PMU a kind);
	 * the upper half goes in any case.  The cpu PMU (PERF_TYPE_RAW) may
	 * always be named, another only if it takes generic events, and
	 * then no other PMU is asked.  A type no PMU has is ignored, and so
	 * is the software PMU's, as 6.1 ignores it (its type table leaves
	 * that PMU out).
	 */
	if ((type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE) &&
	    event->attr.config >> PERF_PMU_TYPE_SHIFT) {
		named = true;
		type = event->attr.config >> PERF_PMU_TYPE_SHIFT;
		event->attr.config &= PERF_HW_EVENT_MASK;
		pmu = type == PERF_TYPE_SOFTWARE ? NULL : perf_pmu_find(type);
		if (pmu && type != PERF_TYPE_RAW &&
		    !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_HW_TYPE)) {
			ret = perf_refuse(-ENOENT, "config: PMU takes no generic events",
					  type);
			goto unlock;
		}
		if (pmu) {
			ret = perf_pmu_try_passed(pmu, event);
			goto out;
		}
		type = event->attr.type;
	}

	pmu = perf_pmu_find(type);
	if (pmu) {
		ret = perf_pmu_try_passed(pmu, event);
		goto out;
	}

	if (type != PERF_TYPE_HARDWARE && type != PERF_TYPE_HW_CACHE) {
		ret = perf_refuse(-ENOENT, "type: no such PMU", type);
		goto unlock;
	}

	/*
	 * A generic event that names no PMU goes to the cpu PMU first (on
	 * a hybrid, the big cores'); one that names a PMU nobody has, or
	 * one the cpu PMU does not take, to the first PMU that takes it, in
	 * the order they were registered, as on 6.1.
	 */
	if (!named) {
		cpu_pmu = perf_pmu_find(PERF_TYPE_RAW);
		if (cpu_pmu) {
			ret = perf_pmu_try_passed(cpu_pmu, event);
			if (ret != -ENOENT)
				goto out;
		}
	}
	list_for_each_entry_rcu(pmu, &pmus, entry,
				srcu_read_lock_held(&pmus_srcu)) {
		if (pmu == cpu_pmu)
			continue;
		ret = perf_pmu_try_passed(pmu, event);
		if (ret != -ENOENT)
			break;
	}
out:
	if (ret == -ENOENT)
		perf_refuse(ret, "config: no such event", event->attr.config);
unlock:
	srcu_read_unlock(&pmus_srcu, idx);
	return ret;
}

/**
 * perf_pmu_disable - hold off a PMU's counting while it is reprogrammed
 * @pmu: the PMU, on the current CPU
 *
 * Nests; each call needs a perf_pmu_enable().  Interrupts must be off.
 */
void perf_pmu_disable(struct pmu *pmu)
{
	int *count = this_cpu_ptr(pmu->pmu_disable_count);

	if (!(*count)++ && pmu->pmu_disable)
		pmu->pmu_disable(pmu);
}

/**
 * perf_pmu_enable - undo one perf_pmu_disable()
 * @pmu: the PMU, on the current CPU
 */
void perf_pmu_enable(struct pmu *pmu)
{
	int *count = this_cpu_ptr(pmu->pmu_disable_count);

	if (!--(*count) && pmu->pmu_enable)
		pmu->pmu_enable(pmu);
}

/**
 * perf_pmu_nop_flags - a pmu::del/start/stop callback that does nothing
 * @event: the event
 * @flags: PERF_EF_*
 */
void perf_pmu_nop_flags(struct perf_event *event, int flags)
{
}

/**
 * perf_pmu_nop_read - a pmu::read callback that does nothing
 * @event: the event
 */
void perf_pmu_nop_read(struct perf_event *event)
{
}

/**
 * perf_pmu_add_unsupported - a pmu::add callback for a PMU without events
 * @event: the event
 * @flags: PERF_EF_*
 *
 * Return: -EOPNOTSUPP.
 */
int perf_pmu_add_unsupported(struct perf_event *event, int flags)
{
	return -EOPNOTSUPP;
}
