// SPDX-License-Identifier: GPL-2.0
/*
 * The software PMU (PERF_TYPE_SOFTWARE): events the kernel counts itself.
 *
 * Two kinds:
 *  - clocks (cpu-clock, task-clock) measure the time they are active
 *    with the local scheduler clock;
 *  - occurrence counters (page faults, context switches, migrations,
 *    ...) are counted where the kernel calls perf_sw_event().  While such
 *    an event is active on a CPU it sits on that CPU's list for its
 *    config, which perf_sw_event() walks under RCU.  Only that CPU adds
 *    to or removes from its lists, with interrupts off.
 *
 * perf_sw_event() costs a patched-out branch while no event of the kind
 * exists: perf_swevent_enabled[] counts the events of each kind that are
 * not inherited copies; a copy cannot outlive its original, which holds
 * the key on for it.
 */
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <asm/irq_regs.h>

#include "internal.h"

struct swevent_cpu {
	struct hlist_head	lists[PERF_COUNT_SW_MAX];
	/* Per interrupt level: are we inside the software event path? */
	int			recursion[PERF_NR_CONTEXTS];
};

static DEFINE_PER_CPU(struct swevent_cpu, swevent_cpu);

struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX];
EXPORT_SYMBOL_GPL(perf_swevent_enabled);

/* Registers for events raised without an interrupt frame, per level. */
DEFINE_PER_CPU(struct pt_regs, __perf_regs[PERF_NR_CONTEXTS]);

/**
 * perf_swevent_get_recursion_context - enter the software event path
 *
 * One entry per interrupt level (task, softirq, hardirq, NMI) and CPU.
 * Preemption must be off.
 *
 * Return: the level, to pass to perf_swevent_put_recursion_context(), or
 * -1 if this level is already inside.
 */
int perf_swevent_get_recursion_context(void)
{
	struct swevent_cpu *swc = this_cpu_ptr(&swevent_cpu);
	unsigned char level = interrupt_context_level();

	if (swc->recursion[level])
		return -1;
	swc->recursion[level]++;
	barrier();
	return level;
}
EXPORT_SYMBOL_GPL(perf_swevent_get_recursion_context);

/**
 * perf_swevent_put_recursion_context - leave the software event path
 * @rctx: what perf_swevent_get_recursion_context() returned
 */
void perf_swevent_put_recursion_context(int rctx)
{
	barrier();
	this_cpu_ptr(&swevent_cpu)->recursion[rctx]--;
}
EXPORT_SYMBOL_GPL(perf_swevent_put_recursion_context);

static bool perf_swevent_excluded(struct perf_event *event,
				  struct pt_regs *regs)
{
	/*
	 * With interrupts on, an interrupt of this CPU (ctx_set_period()'s
	 * IPI, the refresh irq_work) may stop and restart the event between
	 * this check and the count: the count then lands on one side of the
	 * stop, as it would a moment earlier.  Marked, on both sides.
	 */
	if (READ_ONCE(event->hw.state) & PERF_HES_STOPPED)
		return true;
	if (!regs)
		return false;
	if (user_mode(regs))
		return event->attr.exclude_user;
	return event->attr.exclude_kernel;
}

/**
 * ___perf_sw_event - count a software event; no recursion protection
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many
 * @regs: the registers at the event, or NULL
 * @addr: the address concerned, or 0
 *
 * For callers that cannot recurse (the scheduler); preemption off.
 */
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	struct hlist_head *list = &this_cpu_ptr(&swevent_cpu)->lists[event_id];
	struct perf_event *event;

	struct perf_sample_data data;

	rcu_read_lock();
	hlist_for_each_entry_rcu(event, list, hlist_entry) {
		if (perf_swevent_excluded(event, regs))
			continue;
		if (!is_sampling_event(event)) {
			local64_add(nr, &event->count);
			continue;
		}
		perf_sample_data_init(&data, addr, 0);
		perf_swevent_hit(event, nr, &data, regs);
	}
	rcu_read_unlock();
}

/**
 * perf_sw_event_sched - count a scheduler software event
 * @event_id: PERF_COUNT_SW_CONTEXT_SWITCHES or _CPU_MIGRATIONS
 *
 * From the scheduler hooks, interrupts off; they cannot recurse.  The
 * registers are the hook's caller's, in the kernel.
 */
void perf_sw_event_sched(u32 event_id)
{
	struct pt_regs *regs = this_cpu_ptr(&__perf_regs[0]);

	perf_fetch_caller_regs(regs);
	___perf_sw_event(event_id, 1, regs, 0);
}

/**
 * __perf_sw_event - count a software event
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many
 * @regs: the registers at the event, or NULL
 * @addr: the address concerned, or 0
 *
 * The out-of-line part of perf_sw_event().
 */
void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	int rctx;

	preempt_disable_notrace();
	rctx = perf_swevent_get_recursion_context();
	if (rctx >= 0) {
		___perf_sw_event(event_id, nr, regs, addr);
		perf_swevent_put_recursion_context(rctx);
	}
	preempt_enable_notrace();
}

/**
 * perf_swevent_set_period - count the periods that elapsed, start the next
 * @event: a sampling event whose period_left went non-negative
 *
 * hw.period_left counts up from minus the period: it reaches 0 when a
 * period is complete.  What went past the end carries over.
 *
 * Return: the number of periods that elapsed.
 */
u64 perf_swevent_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period = hwc->sample_period;
	s64 left = local64_read(&hwc->period_left);
	u64 nr;

	hwc->last_period = period;
	if (left < 0 || !period)
		return 0;
	nr = div64_u64(left, period) + 1;
	local64_set(&hwc->period_left, left - nr * period);
	return nr;
}

/**
 * perf_swevent_hit - add @nr occurrences to an event and sample its overflows
 * @event: the event, active on this CPU
 * @nr: how many
 * @data: the sample, started by the caller
 * @regs: the registers at the occurrence, or NULL
 *
 * Shared by the software, tracepoint and breakpoint PMUs.  Interrupts
 * or preemption off, inside the software event recursion protection.
 */
void perf_swevent_hit(struct perf_event *event, u64 nr,
		      struct perf_sample_data *data, struct pt_regs *regs)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 overflows, done, i;

	local64_add(nr, &event->count);
	if (!is_sampling_event(event) || !regs)
		return;

	/*
	 * A period of 1 samples every occurrence; so does, as in 6.1, a
	 * fixed period with PERF_SAMPLE_PERIOD in the sample, which then
	 * tells how many occurrences the sample stands for.
	 */
	if (!event->attr.freq &&
	    event->attr.sample_type & PERF_SAMPLE_PERIOD) {
		hwc->last_period = nr;
		data->period = nr;
		__perf_event_overflow(event, false, data, regs);
		return;
	}
	if (nr == 1 && hwc->sample_period == 1 && !event->attr.freq) {
		hwc->last_period = 1;
		data->period = 1;
		__perf_event_overflow(event, false, data, regs);
		return;
	}

	if (local64_add_negative(nr, &hwc->period_left))
		return;
	/*
	 * A sample says how long the period it completes was.  A frequency
	 * event's length may have changed since its first period here
	 * began; the others have the length that starts now.
	 */
	done = hwc->last_period ?: hwc->sample_period;
	overflows = perf_swevent_set_period(event);
	/* Only overflows beyond the first of one occurrence may throttle. */
	for (i = 0; i < overflows; i++) {
		data->period = i || !event->attr.freq ? hwc->last_period : done;
		if (__perf_event_overflow(event, i, data, regs))
			break;
	}
}

static bool perf_swevent_is_clock(struct perf_event *event)
{
	return event->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
	       event->attr.config == PERF_COUNT_SW_TASK_CLOCK;
}

/* Events that are never counted: dummy and bpf-output. */
static bool perf_swevent_is_silent(struct perf_event *event)
{
	return event->attr.config == PERF_COUNT_SW_DUMMY ||
	       event->attr.config == PERF_COUNT_SW_BPF_OUTPUT;
}

static bool perf_swevent_on_list(struct perf_event *event)
{
	return !perf_swevent_is_clock(event) && !perf_swevent_is_silent(event);
}

static void perf_swclock_update(struct perf_event *event)
{
	u64 now = local_clock();
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	if (now > prev)
		local64_add(now - prev, &event->count);
}

/* Sampling clocks never tick faster than this, in nanoseconds. */
#define PERF_SWCLOCK_MIN_PERIOD	10000ULL

static u64 perf_swclock_period(struct perf_event *event)
{
	return max(event->hw.sample_period, PERF_SWCLOCK_MIN_PERIOD);
}

/*
 * A sampling clock samples from an hrtimer, in hard interrupt context on
 * the event's CPU, with the registers the timer interrupted.
 */
static enum hrtimer_restart perf_swclock_hrtimer(struct hrtimer *timer)
{
	struct perf_event *event = container_of(timer, struct perf_event,
						hw.hrtimer);
	enum hrtimer_restart ret = HRTIMER_RESTART;
	struct perf_sample_data data;
	struct pt_regs *regs;

	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return HRTIMER_NORESTART;

	perf_swclock_update(event);
	/*
	 * The period in force, also after PERF_EVENT_IOC_PERIOD (where 6.1
	 * goes on reporting the one the event was opened with).
	 */
	event->hw.last_period = event->hw.sample_period;
	perf_sample_data_init(&data, 0, event->hw.last_period);
	regs = get_irq_regs();
	if (regs && !perf_swevent_excluded(event, regs) &&
	    !(event->attr.exclude_idle && is_idle_task(current)) &&
	    __perf_event_overflow(event, true, &data, regs))
		ret = HRTIMER_NORESTART;

	hrtimer_forward_now(timer, ns_to_ktime(perf_swclock_period(event)));
	return ret;
}

static void perf_swclock_timer_start(struct perf_event *event)
{
	struct hrtimer *timer = &event->hw.hrtimer;

	hrtimer_start(timer, ns_to_ktime(perf_swclock_period(event)),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static bool perf_swclock_samples(struct perf_event *event)
{
	return perf_swevent_is_clock(event) && is_sampling_event(event);
}

static void perf_swevent_start(struct perf_event *event, int flags)
{
	if (perf_swevent_is_clock(event))
		local64_set(&event->hw.prev_count, local_clock());
	if (perf_swclock_samples(event))
		perf_swclock_timer_start(event);
	if (is_sampling_event(event) && !local64_read(&event->hw.period_left))
		local64_set(&event->hw.period_left,
			    -(s64)event->hw.sample_period);
	WRITE_ONCE(event->hw.state, 0);
}

static void perf_swevent_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	if (perf_swclock_samples(event))
		hrtimer_cancel(&event->hw.hrtimer);
	if (perf_swevent_is_clock(event))
		perf_swclock_update(event);
	WRITE_ONCE(event->hw.state, PERF_HES_STOPPED | PERF_HES_UPTODATE);
}

static int perf_swevent_add(struct perf_event *event, int flags)
{
	struct swevent_cpu *swc = this_cpu_ptr(&swevent_cpu);

	WRITE_ONCE(event->hw.state, PERF_HES_STOPPED | PERF_HES_UPTODATE);
	if (flags & PERF_EF_START)
		perf_swevent_start(event, flags);
	if (perf_swevent_on_list(event))
		hlist_add_head_rcu(&event->hlist_entry,
				   &swc->lists[event->attr.config]);
	return 0;
}

static void perf_swevent_del(struct perf_event *event, int flags)
{
	perf_swevent_stop(event, PERF_EF_UPDATE);
	if (perf_swevent_on_list(event))
		hlist_del_rcu(&event->hlist_entry);
}

static void perf_swevent_read(struct perf_event *event)
{
	if (perf_swevent_is_clock(event) && !(event->hw.state & PERF_HES_STOPPED))
		perf_swclock_update(event);
}

static void perf_swevent_destroy(struct perf_event *event)
{
	static_key_slow_dec(&perf_swevent_enabled[event->attr.config]);
}

static int perf_swevent_event_init(struct perf_event *event)
{
	u64 config = event->attr.config;

	if (event->attr.type != PERF_TYPE_SOFTWARE)
		return -ENOENT;
	/* No branch stack, whatever the event: checked first, as in 6.1. */
	if (event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
		return perf_refuse(-EOPNOTSUPP,
				   "sample_type: BRANCH_STACK of a software event",
				   event->attr.sample_type);
	if (config >= PERF_COUNT_SW_MAX)
		return -ENOENT;

	event->event_caps |= PERF_EV_CAP_SOFTWARE;
	if (perf_swclock_samples(event)) {
		/* A clock's frequency is a period in nanoseconds. */
		if (event->attr.freq) {
			event->attr.sample_period = NSEC_PER_SEC /
						    event->attr.sample_freq;
			event->attr.freq = 0;
		}
		event->hw.sample_period = event->attr.sample_period;
		event->hw.last_period = event->hw.sample_period;
		hrtimer_init(&event->hw.hrtimer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_HARD);
		event->hw.hrtimer.function = perf_swclock_hrtimer;
	}
	/* An inherited copy's parent holds the key on for it. */
	if (perf_swevent_on_list(event) && !event->parent) {
		static_key_slow_inc(&perf_swevent_enabled[config]);
		event->destroy = perf_swevent_destroy;
	}
	return 0;
}

static struct pmu perf_swevent_pmu = {
	.capabilities	= PERF_PMU_CAP_NO_NMI | PERF_PMU_CAP_UNLIMITED,
	.event_init	= perf_swevent_event_init,
	.add		= perf_swevent_add,
	.del		= perf_swevent_del,
	.start		= perf_swevent_start,
	.stop		= perf_swevent_stop,
	.read		= perf_swevent_read,
};

/**
 * perf_swevent_init - register the software PMU
 */
void perf_swevent_init(void)
{
	perf_pmu_register(&perf_swevent_pmu, "software", PERF_TYPE_SOFTWARE);
}
