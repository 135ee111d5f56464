// SPDX-License-Identifier: GPL-2.0
/*
 * The "cpu" PMU (one per kind of CPU on a hybrid: cpu_type.c): events of
 * PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE and PERF_TYPE_RAW on the CPU's
 * counters, for whichever vendor probed.
 *
 * An event's count is 64 bits; the counter under it is x86_pmu.width
 * bits.  hw.prev_count holds the counter value last folded into the
 * count; each update adds what the counter moved on since, modulo its
 * width.  A counter is loaded with minus what is left of the event's
 * period (hw.period_left), at most x86_pmu.max_period, so it overflows
 * and interrupts where a sample is due or, for a counting event, long
 * before the counter could wrap unnoticed.
 *
 * The core adds a group's events one by one inside perf_pmu_disable():
 * add() only checks that the events fit on the counters (assign.c),
 * gives them the extra registers they need (extra_regs.c) and records
 * where; perf_pmu_enable() then programs the counters, moving events an
 * addition displaced, and lets them all count at once.  start() and
 * stop() outside that window act on the counter directly.
 */
#include <linux/bitmap.h>
#include <linux/cpu.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <asm/apic.h>
#include <asm/msr.h>

#include "pmu.h"

struct x86_pmu x86_pmu __read_mostly;
DEFINE_PER_CPU(struct x86_pmu_cpu, x86_pmu_cpu);

/* The counter's value now; rdpmc is the cheapest way to read it. */
static u64 x86_counter_read(int idx)
{
	return native_read_pmc(x86_pmu.rdpmc_index(idx));
}

/*
 * Whether @idx is a topdown counter on this CPU, which the vendor reads
 * and starts (struct x86_pmu's topdown_update): a metric's, or the
 * slots counter while it counts for metrics.
 */
static bool x86_is_topdown(int idx)
{
	return x86_pmu.topdown_update &&
	       (idx >= X86_PMC_METRIC ||
		(BIT_ULL(idx) & this_cpu_read(x86_pmu_cpu.topdown)));
}

/**
 * x86_event_update - fold what the counter counted into the event
 * @event: an event on a counter of this CPU
 *
 * Safe against the overflow NMI doing the same in between: prev_count
 * moves with a cmpxchg, so each increment is added once.
 */
void x86_event_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int shift = 64 - x86_pmu.width;
	u64 prev, now;
	s64 delta;

	if (unlikely(x86_is_topdown(hwc->idx))) {
		x86_pmu.topdown_update(event);
		return;
	}
	do {
		prev = local64_read(&hwc->prev_count);
		now = x86_counter_read(hwc->idx);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	/* The difference modulo the counter width. */
	delta = (s64)((now << shift) - (prev << shift)) >> shift;
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
}

/**
 * x86_event_set_period - load the counter with what is left of the period
 * @event: an event on a counter of this CPU, not counting
 *
 * A period that ran out starts again (the sample for it is the caller's
 * business); one that ran out more than once, while the event was off
 * its counter, starts afresh.
 */
void x86_event_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	s64 period = hwc->sample_period;
	u64 value;

	if (unlikely(x86_is_topdown(hwc->idx))) {
		x86_pmu.topdown_set_period(event);
		return;
	}
	if (unlikely(left <= -period)) {
		left = period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
	} else if (unlikely(left <= 0)) {
		left += period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
	}
	if (x86_pmu.limit_period)
		left = x86_pmu.limit_period(event, left);
	/*
	 * Never one short of overflowing, as 6.1 never programs it (some
	 * CPUs do not like it): a period of 1 overflows every other event,
	 * each sample still saying 1, on both kernels alike.
	 */
	if (left < 2)
		left = 2;
	if (left > x86_pmu.max_period)
		left = x86_pmu.max_period;

	value = (u64)-left & GENMASK_ULL(x86_pmu.width - 1, 0);
	local64_set(&hwc->prev_count, value);
	if (hwc->idx >= X86_PMC_FIXED)
		wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 + hwc->idx - X86_PMC_FIXED,
		       value);
	else
		wrmsrl(x86_ctr_msr(hwc->idx), value);
	perf_event_update_userpage(event);
}

/**
 * x86_enable_each - let the running counters count, one by one
 * @running: the counters
 *
 * For a PMU without a global control (Intel's version 1, AMD before
 * PerfMonV2), where each counter's enable bit starts and stops it.
 */
void x86_enable_each(u64 running)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	unsigned long bits = running;
	int idx;

	for_each_set_bit(idx, &bits, X86_PMC_FIXED)
		x86_pmu.enable(cpuc->on[idx]);
}

/**
 * x86_disable_each - stop the running counters, one by one
 * @running: the counters
 */
void x86_disable_each(u64 running)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	unsigned long bits = running;
	int idx;

	for_each_set_bit(idx, &bits, X86_PMC_FIXED)
		x86_pmu.disable(cpuc->on[idx]);
}

/**
 * x86_status_by_sign - the running counters that overflowed, without a
 *	status register
 * @running: the counters
 *
 * A counter is loaded with a negative value; one that overflowed is not
 * negative any more.
 *
 * Return: the counters that overflowed.
 */
u64 x86_status_by_sign(u64 running)
{
	unsigned long bits = running;
	u64 status = 0, value;
	int idx;

	for_each_set_bit(idx, &bits, X86_PMC_FIXED) {
		rdmsrl(x86_ctr_msr(idx), value);
		if (!(value & BIT_ULL(x86_pmu.width - 1)))
			status |= BIT_ULL(idx);
	}
	return status;
}

/**
 * x86_ack_nothing - acknowledge overflows where nothing latches them
 * @status: the counters that overflowed
 */
void x86_ack_nothing(u64 status)
{
}

/* Let the running counters count, unless inside perf_pmu_disable(). */
static void x86_pmu_resume(struct x86_pmu_cpu *cpuc)
{
	if (cpuc->enabled)
		x86_pmu.enable_all(cpuc->running);
}

/*
 * Program @event's counter and, if it is not stopped, let it count.  A
 * reload refreshes the control page (its offset follows prev_count);
 * without one nothing the page shows changes here.
 */
static void x86_event_program(struct x86_pmu_cpu *cpuc,
			      struct perf_event *event, bool reload)
{
	struct hw_perf_event *hwc = &event->hw;

	if (reload)
		x86_event_set_period(event);
	if (hwc->state & PERF_HES_STOPPED)
		return;
	x86_pmu.enable(event);
	barrier();
	/* One instruction: the NMI's x86_pmu_stop() may clear another bit. */
	this_cpu_or(x86_pmu_cpu.running, BIT_ULL(hwc->idx));
	x86_pmu_resume(cpuc);
}

static void x86_pmu_start(struct perf_event *event, int flags)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED))
		return;
	hwc->state = 0;
	/* Not on a counter yet: perf_pmu_enable() places and starts it. */
	if (hwc->idx < 0)
		return;
	x86_event_program(cpuc, event, flags & PERF_EF_RELOAD);
}

/* Stop the counter (if it counts) and say so, before anything else. */
static void x86_counter_off(struct x86_pmu_cpu *cpuc,
			    struct perf_event *event)
{
	int idx = event->hw.idx;

	if (!(cpuc->running & BIT_ULL(idx)))
		return;
	this_cpu_and(x86_pmu_cpu.running, ~BIT_ULL(idx));
	barrier();
	x86_pmu.disable(event);
}

/**
 * x86_pmu_stop - stop an event's counter
 * @event: an event added to this CPU's PMU
 * @flags: PERF_EF_UPDATE to bring its count up to date
 *
 * Also called from the NMI handler, to stop a throttled event.
 */
void x86_pmu_stop(struct perf_event *event, int flags)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->idx >= 0)
		x86_counter_off(cpuc, event);
	hwc->state |= PERF_HES_STOPPED;
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		if (hwc->idx >= 0)
			x86_event_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

/*
 * The hardware's records since the last PMI, with the counters
 * stopped: an auto-reloading counter's count needs them.
 */
static void x86_pmu_drain(struct x86_pmu_cpu *cpuc)
{
	if (cpuc->enabled)
		x86_pmu.disable_all(cpuc->running);
	x86_pmu.drain(NULL);
	if (cpuc->enabled)
		x86_pmu.enable_all(cpuc->running);
}

static void x86_pmu_read(struct perf_event *event)
{
	if (event->hw.idx < 0)
		return;
	/* Not from an NMI (BPF's reads), which may have stopped them. */
	if ((event->hw.x86_flags & X86_EVENT_AUTO_RELOAD) && !in_nmi())
		x86_pmu_drain(this_cpu_ptr(&x86_pmu_cpu));
	x86_event_update(event);
}

/* Take @event off its counter, its count up to date. */
static void x86_event_unplace(struct x86_pmu_cpu *cpuc,
			      struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	x86_counter_off(cpuc, event);
	x86_event_update(event);
	cpuc->placed &= ~BIT_ULL(hwc->idx);
	cpuc->topdown &= ~BIT_ULL(hwc->idx);
	barrier();
	WRITE_ONCE(cpuc->on[hwc->idx], NULL);
	hwc->idx = -1;
}

/*
 * Put every event on the counter chosen for it: first take the ones that
 * move off their old counters, then program the new places.
 */
static void x86_pmu_place(struct x86_pmu_cpu *cpuc)
{
	struct perf_event *event;
	int i, idx;

	for (i = 0; i < cpuc->n_events; i++) {
		event = cpuc->events[i];
		if (event->hw.idx >= 0 && event->hw.idx != cpuc->assign[i])
			x86_event_unplace(cpuc, event);
	}
	for (i = 0; i < cpuc->n_events; i++) {
		event = cpuc->events[i];
		idx = cpuc->assign[i];
		if (event->hw.idx == idx)
			continue;
		event->hw.idx = idx;
		WRITE_ONCE(cpuc->on[idx], event);
		cpuc->placed |= BIT_ULL(idx);
		cpuc->used |= BIT_ULL(idx);
		x86_event_program(cpuc, event, true);
	}
	cpuc->pending = false;
}

static void x86_pmu_enable(struct pmu *pmu)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);

	if (cpuc->enabled)
		return;
	if (cpuc->pending)
		x86_pmu_place(cpuc);
	WRITE_ONCE(cpuc->enabled, true);
	x86_pmu.enable_all(cpuc->running);
}

static void x86_pmu_disable(struct pmu *pmu)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);

	if (!cpuc->enabled)
		return;
	WRITE_ONCE(cpuc->enabled, false);
	barrier();
	x86_pmu.disable_all(cpuc->running);
}

static int x86_pmu_add(struct perf_event *event, int flags)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	u64 allowed[X86_PMU_MAX_EVENTS];
	int assign[X86_PMU_MAX_EVENTS];
	int i, n = cpuc->n_events, extra = -1;

	if (n >= X86_PMU_MAX_EVENTS)
		return -EAGAIN;
	/* The events recording branches share the recorder's filter. */
	if (has_branch_stack(event) && cpuc->branch_users &&
	    cpuc->branch_select != event->hw.branch_select)
		return -EAGAIN;
	if (event->hw.extra_regs) {
		extra = x86_extra_get(&cpuc->extra, event);
		if (extra < 0)
			return -EAGAIN;
	}
	for (i = 0; i < n; i++) {
		allowed[i] = cpuc->events[i]->hw.counters;
		assign[i] = cpuc->assign[i];
	}
	allowed[n] = event->hw.counters;
	assign[n] = -1;
	if (!x86_assign_counters(allowed, n + 1, assign)) {
		if (extra >= 0)
			x86_extra_put(&cpuc->extra, extra);
		return -EAGAIN;
	}

	if (extra >= 0)
		x86_extra_take(event, extra);
	if (has_branch_stack(event))
		WRITE_ONCE(cpuc->branch_users, cpuc->branch_users + 1);
	if (has_branch_stack(event) && cpuc->branch_users == 1) {
		cpuc->branch_select = event->hw.branch_select;
		x86_pmu.branch_start();
		perf_sched_cb_inc(event->pmu);
	}
	if ((event->hw.x86_flags & X86_EVENT_LARGE) && !cpuc->n_large++)
		perf_sched_cb_inc(event->pmu);
	memcpy(cpuc->assign, assign, (n + 1) * sizeof(*assign));
	cpuc->events[n] = event;
	cpuc->n_events = n + 1;
	cpuc->pending = true;
	event->hw.idx = -1;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		event->hw.state = 0;
	/* Outside perf_pmu_disable() (the core does not do that): now. */
	if (cpuc->enabled)
		x86_pmu_place(cpuc);
	return 0;
}

static void x86_pmu_del(struct perf_event *event, int flags)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);
	int i, n = cpuc->n_events;

	x86_pmu_stop(event, PERF_EF_UPDATE);
	if (event->hw.idx >= 0) {
		cpuc->placed &= ~BIT_ULL(event->hw.idx);
		cpuc->topdown &= ~BIT_ULL(event->hw.idx);
		barrier();
		WRITE_ONCE(cpuc->on[event->hw.idx], NULL);
		event->hw.idx = -1;
	}
	for (i = 0; i < n; i++) {
		if (cpuc->events[i] != event)
			continue;
		if (event->hw.extra_regs)
			x86_extra_put(&cpuc->extra, event->hw.extra_idx);
		if (has_branch_stack(event))
			WRITE_ONCE(cpuc->branch_users, cpuc->branch_users - 1);
		if (has_branch_stack(event) && !cpuc->branch_users) {
			perf_sched_cb_dec(event->pmu);
			x86_pmu.branch_stop();
		}
		if ((event->hw.x86_flags & X86_EVENT_LARGE) &&
		    !--cpuc->n_large)
			perf_sched_cb_dec(event->pmu);
		memmove(&cpuc->events[i], &cpuc->events[i + 1],
			(n - i - 1) * sizeof(cpuc->events[0]));
		memmove(&cpuc->assign[i], &cpuc->assign[i + 1],
			(n - i - 1) * sizeof(cpuc->assign[0]));
		cpuc->n_events = n - 1;
		break;
	}
	perf_event_update_userpage(event);
}

/* The event code of a PERF_TYPE_HARDWARE config: 0 or -errno. */
static int x86_map_hardware(const struct x86_cpu_type *type, u64 config,
			    u64 *code)
{
	if (config >= PERF_COUNT_HW_MAX)
		return perf_refuse(-EINVAL, "config: no such generic hardware event",
				   config);
	*code = type->event_map[array_index_nospec(config, PERF_COUNT_HW_MAX)];
	if (!*code)
		return perf_refuse(-ENOENT, "config: generic event not on this CPU",
				   config);
	if (*code == X86_EVENT_INVALID)
		return perf_refuse(-EINVAL, "config: generic event not on this CPU",
				   config);
	return 0;
}

/**
 * x86_cache_lookup - the entry of a cache map for a PERF_TYPE_HW_CACHE
 *	config
 * @map: a table indexed by cache, operation and result
 * @config: the config: cache in bits 7:0, operation 15:8, result 23:16
 * @entry: the entry, where the config names one
 *
 * Return: 0, or -EINVAL for a cache, operation or result that does not
 * exist.
 */
int x86_cache_lookup(const x86_cache_map_t *map, u64 config, u64 *entry)
{
	unsigned int cache = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;

	if (cache >= PERF_COUNT_HW_CACHE_MAX ||
	    op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	cache = array_index_nospec(cache, PERF_COUNT_HW_CACHE_MAX);
	op = array_index_nospec(op, PERF_COUNT_HW_CACHE_OP_MAX);
	result = array_index_nospec(result, PERF_COUNT_HW_CACHE_RESULT_MAX);
	*entry = (*map)[cache][op][result];
	return 0;
}

/* The event code of a PERF_TYPE_HW_CACHE config: 0 or -errno. */
static int x86_map_cache(const struct x86_cpu_type *type, u64 config,
			 u64 *code)
{
	/* Without a table, every cache event the config can name is none. */
	static const x86_cache_map_t none;

	if (x86_cache_lookup(type->cache_map ?: &none, config, code))
		return perf_refuse(-EINVAL, "config: no such cache, op or result",
				   config);
	if (!*code)
		return perf_refuse(-ENOENT, "config: cache event not on this CPU",
				   config);
	if (*code == X86_EVENT_INVALID)
		return perf_refuse(-EINVAL, "config: cache event not on this CPU",
				   config);
	return 0;
}

/**
 * x86_hw_config - the vendor-neutral checks and event select of an event
 * @event: a new event of this PMU
 *
 * For the vendors' hw_config().  Sets hw.config to the event code with
 * the interrupt and privilege-level bits; a raw event's config is taken
 * as far as x86_pmu.raw_mask lets it, the rest ignored (as Linux always
 * has).
 *
 * Return: 0, -EOPNOTSUPP for a precise_ip above the PMU's, -EINVAL for
 * a precise counting event or registers a sample cannot have, -ENOENT
 * or -EINVAL for a generic event the CPU does not have.
 */
int x86_hw_config(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	u64 code = 0;
	int ret = 0;

	if (attr->precise_ip > x86_pmu.max_precise)
		return perf_refuse(-EOPNOTSUPP, "precise_ip: above caps/max_precise",
				   attr->precise_ip);
	if (attr->precise_ip && !is_sampling_event(event))
		return perf_refuse(-EINVAL, "precise_ip: a counting event takes no samples",
				   attr->precise_ip);
	/*
	 * The XMM registers come only from adaptive PEBS records, as
	 * they were when the counter overflowed: never user registers.
	 */
	if (attr->sample_regs_user & PERF_REG_EXTENDED_MASK)
		return perf_refuse(-EINVAL, "sample_regs_user: XMM registers",
				   attr->sample_regs_user);
	if ((attr->sample_regs_intr & PERF_REG_EXTENDED_MASK) &&
	    (!(event->pmu->capabilities & PERF_PMU_CAP_EXTENDED_REGS) ||
	     !attr->precise_ip))
		return perf_refuse(-EINVAL, "sample_regs_intr: XMM registers need precise PEBS",
				   attr->sample_regs_intr);

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		ret = x86_map_hardware(x86_event_type(event),
				       attr->config & PERF_HW_EVENT_MASK, &code);
		break;
	case PERF_TYPE_HW_CACHE:
		ret = x86_map_cache(x86_event_type(event),
				    attr->config & PERF_HW_EVENT_MASK, &code);
		break;
	default:
		code = attr->config & x86_pmu.raw_mask;
		break;
	}
	if (ret)
		return ret;

	event->hw.config = code | ARCH_PERFMON_EVENTSEL_INT;
	if (!attr->exclude_user)
		event->hw.config |= ARCH_PERFMON_EVENTSEL_USR;
	if (!attr->exclude_kernel)
		event->hw.config |= ARCH_PERFMON_EVENTSEL_OS;
	return 0;
}

/*
 * Whether @event's group has events of another x86 PMU (a hybrid's
 * other kind of CPU), and could therefore never run anywhere.
 */
static bool x86_group_mixes_types(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;

	if (x86_pmu.n_types < 2 || !leader || leader == event)
		return false;
	if (is_x86_event(leader) && leader->pmu != event->pmu)
		return true;
	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry) {
		if (is_x86_event(sibling) && sibling->pmu != event->pmu)
			return true;
	}
	return false;
}

/*
 * Whether a member of a group gets an extra register it needs, and the
 * branch filter it needs (@branch: the first member's that records
 * branches, or NULL).
 */
static bool x86_group_extra_fits(struct x86_extra_use *extra,
				 struct perf_event **branch,
				 struct perf_event *event)
{
	if (has_branch_stack(event)) {
		if (*branch &&
		    (*branch)->hw.branch_select != event->hw.branch_select)
			return false;
		*branch = event;
	}
	return !event->hw.extra_regs || x86_extra_get(extra, event) >= 0;
}

/*
 * Whether @event and the others of its group could ever be on this PMU
 * together: a group that cannot is refused at open.  Members that are
 * off (disabled, or in error) are left out, as 6.1 leaves them out; the
 * leader and the joining @event always count.  So a group may hold more
 * members than there are counters, and just never runs if they are all
 * enabled later.
 */
static bool x86_group_fits(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	u64 allowed[X86_PMU_MAX_EVENTS];
	int assign[X86_PMU_MAX_EVENTS];
	struct x86_extra_use extra = {};
	struct perf_event *branch = NULL;
	int n = 0;

	/* A new leader has no members yet (nor a leader, if KUnit made it). */
	if (leader && leader != event) {
		if (leader->pmu == event->pmu) {
			if (!x86_group_extra_fits(&extra, &branch, leader))
				return false;
			allowed[n++] = leader->hw.counters;
		}
		list_for_each_entry(sibling, &leader->sibling_list,
				    sibling_entry) {
			if (sibling->pmu != event->pmu ||
			    READ_ONCE(sibling->state) <= PERF_EVENT_STATE_OFF)
				continue;
			if (n >= X86_PMU_MAX_EVENTS - 1 ||
			    !x86_group_extra_fits(&extra, &branch, sibling))
				return false;
			allowed[n++] = sibling->hw.counters;
		}
	}
	if (!x86_group_extra_fits(&extra, &branch, event))
		return false;
	allowed[n++] = event->hw.counters;
	memset(assign, -1, sizeof(assign));
	return x86_assign_counters(allowed, n, assign);
}

/*
 * Where a frequency event starts, before it has run to measure a rate:
 * the period that gives @freq samples a second from a counter going
 * at 500 MHz.  6.1 starts there too, one event short of it, so that a
 * profile's first sample comes at the same count on both kernels.
 * Starting at 1 and climbing from each overflow costs a burst of NMIs
 * whose samples all say period 1, even in an event enabled for a few
 * thousand cycles.
 */
static u64 x86_freq_first_period(u64 freq)
{
	return max_t(u64, div64_u64(NSEC_PER_SEC / 2 - 1, freq), 1);
}

/*
 * The check_period() of every x86 CPU type's PMU, and of a new event's
 * sample period: -EINVAL for a period the model's counters cannot be
 * loaded with (struct x86_pmu's @limit_period would lengthen it).
 */
static int x86_check_period(struct perf_event *event, u64 period)
{
	if (x86_pmu.limit_period && x86_pmu.limit_period(event, period) > period)
		return -EINVAL;
	return 0;
}

/**
 * x86_pmu_event_init - the event_init() of every x86 CPU type's PMU
 * @event: a new event
 *
 * Return: 0, -ENOENT if it is not this PMU's (another type, or bound
 * to a CPU of another kind), or another error for an event of this
 * PMU that cannot be had.
 */
int x86_pmu_event_init(struct perf_event *event)
{
	struct x86_cpu_type *type = x86_event_type(event);
	struct perf_event_context *group_ctx;
	struct hw_perf_event *hwc = &event->hw;
	unsigned long flags;
	bool mixed, fits;
	int ret;

	/*
	 * The upper half of a generic event's config is ignored (the core
	 * took the PMU it names from it).  A raw event names its PMU by its
	 * type: PERF_TYPE_RAW is the first CPU type's, a hybrid's other
	 * kind has a type of its own.
	 */
	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		break;
	default:
		if (event->attr.type != event->pmu->type)
			return -ENOENT;
		break;
	}
	/* A hybrid PMU counts on the CPUs of its kind only. */
	if (x86_pmu.n_types > 1 && event->cpu >= 0 &&
	    !cpumask_test_cpu(event->cpu, &type->cpus))
		return -ENOENT;

	hwc->extra_regs = 0;
	hwc->branch_select = 0;
	hwc->branch_kinds = 0;
	hwc->x86_flags = 0;
	ret = x86_pmu.hw_config(event);
	if (ret)
		return ret;

	hwc->idx = -1;
	hwc->counters = 0;
	if (hwc->x86_flags & X86_EVENT_PRECISE)
		hwc->counters = x86_pmu.precise_counters(event);
	if (!hwc->counters)
		hwc->counters = x86_pmu.counters_for(type, hwc->config);
	if (!hwc->counters)
		return perf_refuse(-EINVAL, "config: no counter counts this event",
				   hwc->config);
	group_ctx = perf_group_lock(event, &flags);
	mixed = x86_group_mixes_types(event);
	fits = mixed || x86_group_fits(event);
	perf_group_unlock(group_ctx, flags);
	if (mixed)
		return perf_refuse(-EINVAL, "group_fd: events of two kinds of CPU",
				   event->pmu->type);
	if (!fits)
		return perf_refuse(-EINVAL, "group: never fits on the counters",
				   hwc->config);

	if (is_sampling_event(event) && !event->attr.freq &&
	    x86_check_period(event, hwc->sample_period))
		return perf_refuse(-EINVAL,
				   "sample_period: shorter than this model's counters take",
				   hwc->sample_period);

	if (!is_sampling_event(event)) {
		/* Only to see the counter wrap: the longest period. */
		hwc->sample_period = x86_pmu.max_period;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	} else if (event->attr.freq) {
		hwc->sample_period =
			x86_freq_first_period(event->attr.sample_freq);
	}
	x86_rdpmc_init_event(event);
	return 0;
}

/*
 * A context switch on a CPU where events record branches, or take many
 * precise records an interrupt: those of the task going out become its
 * samples now (the PMU is disabled around).
 */
static void x86_pmu_sched_task(struct perf_event_context *ctx, bool sched_in)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);

	if (cpuc->n_large && !sched_in)
		x86_pmu.drain(NULL);
	if (cpuc->branch_users)
		x86_pmu.branch_switch(ctx, sched_in);
}

/*
 * What each CPU type's PMU is made from (x86_cpu_types_init()); the
 * vendor may add capabilities before.
 */
struct pmu x86_cpu_pmu = {
	.event_init	= x86_pmu_event_init,
	.add		= x86_pmu_add,
	.del		= x86_pmu_del,
	.start		= x86_pmu_start,
	.stop		= x86_pmu_stop,
	.read		= x86_pmu_read,
	.pmu_enable	= x86_pmu_enable,
	.pmu_disable	= x86_pmu_disable,
	.event_mapped	= x86_rdpmc_mapped,
	.event_unmapped	= x86_rdpmc_unmapped,
	.check_period	= x86_check_period,
	.sched_task	= x86_pmu_sched_task,
};

/* A CPU comes up: clean counters, the PMI routed, nothing running. */
static int x86_pmu_cpu_starting(unsigned int cpu)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);

	x86_cpu_type_starting(cpu);
	x86_pmu.reset();
	perf_events_lapic_init();
	WRITE_ONCE(cpuc->enabled, true);
	return 0;
}

static int x86_pmu_cpu_dying(unsigned int cpu)
{
	struct x86_pmu_cpu *cpuc = this_cpu_ptr(&x86_pmu_cpu);

	WRITE_ONCE(cpuc->enabled, false);
	x86_pmu.reset();
	x86_cpu_type_dying(cpu);
	return 0;
}

/**
 * x86_pmu_register - bring up the probed PMU on every CPU and register
 *	the PMU of each kind of CPU
 *
 * Return: 0 or -errno.
 */
int __init x86_pmu_register(void)
{
	int ret;

	x86_cpu_types_init();
	/* A hybrid's kinds are logged as their first CPUs come up. */
	if (x86_pmu.n_types == 1)
		x86_pmu_announce(&x86_cpu_types[0]);
	x86_pmu_nmi_init();
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_STARTING,
				"perf/x86:starting", x86_pmu_cpu_starting,
				x86_pmu_cpu_dying);
	if (!ret) {
		ret = x86_cpu_types_register();
		if (ret)
			cpuhp_remove_state(CPUHP_AP_PERF_X86_STARTING);
	}
	if (ret)
		x86_pmu_nmi_exit();
	return ret;
}
