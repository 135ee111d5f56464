// SPDX-License-Identifier: GPL-2.0
/*
 * What happens when a sampling event overflows: the PMU driver (or the
 * software event path) calls perf_event_overflow() with the sample it
 * started and the registers of the interrupted context.
 *
 * In order: the overflow is counted against the per-tick limit
 * (perf_event_max_sample_rate / HZ) and the event throttled past it (the
 * overflow that throttles it is still delivered); a frequency event's
 * period is re-estimated; a refresh limit
 * (PERF_EVENT_IOC_REFRESH) is counted down; then the sample goes to the
 * kernel user's handler or the ring buffer.  What cannot be done in NMI
 * or under the runqueue lock (waking readers, SIGIO, disabling the
 * event, sigtrap) is left to the event's irq_work, which runs on the
 * same CPU as soon as interrupts are enabled again.
 */
#include <linux/perf_event.h>
#include <linux/sched/signal.h>
#include <linux/tick.h>

#include "internal.h"

/*
 * An event's throttling state (hw.interrupts, hw.interrupts_seq) and a
 * frequency event's period (hw.sample_period) are changed by its
 * overflows and by the tick, both on its CPU, but each may interrupt
 * the other: an NMI the tick, the tick a software event's overflow in a
 * task.  Their accesses here are marked, loaded once where the other
 * side may have changed them meanwhile.
 */

/* Ticks on this CPU, and events throttled on it since the last one. */
static DEFINE_PER_CPU(u64, perf_tick_seq);
static DEFINE_PER_CPU(int, perf_throttled);

/* Frequency events in the system: the tick adjusts their periods. */
static atomic_t perf_nr_freq_events;

static void perf_log_throttle(struct perf_event *event, bool unthrottle)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct {
		struct perf_event_header	header;
		u64				time;
		u64				id;
		u64				stream_id;
	} rec = {
		.header = {
			.type = unthrottle ? PERF_RECORD_UNTHROTTLE :
					     PERF_RECORD_THROTTLE,
			.size = sizeof(rec) + perf_sample_id_size(event),
		},
		.time = perf_event_time_clock(event),
		.id = event->parent ? event->parent->id : event->id,
		.stream_id = event->id,
	};

	perf_sample_id_prepare(&data, event);
	if (perf_output_begin(&handle, &data, event, rec.header.size))
		return;
	perf_output_put(&handle, rec);
	perf_output_sample_id(&handle, event, &data);
	perf_output_end(&handle);
}

/*
 * Count an overflow against this tick's allowance.  Return true if it is
 * the last the allowance lets through (the perf_max_samples_per_tick-th
 * of the tick, as in Debian's 6.1, whose stable updates count the first
 * of a tick too: with one a tick, every overflow throttles): the event
 * is throttled from now on, and its PMU must stop it once this overflow
 * is delivered.  With @may_throttle false the event never becomes
 * throttled here.
 */
static bool perf_overflow_throttle(struct perf_event *event, bool may_throttle)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 seq = __this_cpu_read(perf_tick_seq);
	u64 interrupts = READ_ONCE(hwc->interrupts);

	if (READ_ONCE(hwc->interrupts_seq) != seq) {
		WRITE_ONCE(hwc->interrupts_seq, seq);
		interrupts = 0;
	}
	WRITE_ONCE(hwc->interrupts, ++interrupts);
	if (interrupts < READ_ONCE(perf_max_samples_per_tick) || !may_throttle)
		return false;

	WRITE_ONCE(hwc->interrupts, PERF_HW_THROTTLED);
	__this_cpu_inc(perf_throttled);
	tick_nohz_dep_set_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);
	perf_log_throttle(event, false);
	return true;
}

/**
 * perf_overflow_adjust_freq - re-estimate a frequency event's period
 * @event: the event, which overflowed
 * @done: the events of the period that just completed (the driver may
 *	have started the next one already, with another length)
 * @now: perf_clock() now
 *
 * Estimates the rate from the time @done took since the last overflow
 * and moves hw.sample_period half way to the period that rate needs for
 * attr.sample_freq samples a second.  No estimate without an overflow
 * less than two ticks before.
 */
void perf_overflow_adjust_freq(struct perf_event *event, u64 done, u64 now)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 elapsed = now - hwc->freq_time_stamp;
	u64 period;

	hwc->freq_time_stamp = now;
	/* Only estimates over a short, recent interval are any good. */
	if (!elapsed || elapsed > 2 * TICK_NSEC)
		return;
	/* events/s = done / elapsed * 1e9; period = that / freq. */
	period = div64_u64(done * NSEC_PER_SEC,
			   elapsed * READ_ONCE(event->attr.sample_freq));
	/* Move half way, so one odd interval does not throw it off. */
	period = (READ_ONCE(hwc->sample_period) + period) / 2;
	WRITE_ONCE(hwc->sample_period, max_t(u64, period, 1));
}

/* Send the SIGTRAP of attr.sigtrap; from the irq_work, on the event's CPU. */
static void perf_pending_sigtrap(struct perf_event *event)
{
	struct task_struct *task = READ_ONCE(event->ctx->task);
	u64 addr;

	/* The signal is for the thread that caused the overflow. */
	if (task && task != current)
		return;
	if (current->flags & (PF_KTHREAD | PF_EXITING))
		return;
	addr = READ_ONCE(event->pending_addr);
	send_sig_perf((void __user *)(unsigned long)addr, event->attr.type,
		      event->attr.sig_data);
}

/*
 * Where O_ASYNC signals for an event go: inherited copies have no file
 * of their own and signal through the one of the event they copy.
 */
static struct fasync_struct **perf_event_fasync(struct perf_event *event)
{
	return event->parent ? &event->parent->fasync : &event->fasync;
}

/*
 * Wake the event's readers (all of its buffer's, if it has one) and send
 * the O_ASYNC signal an overflow left, if one did: as in 6.1, a wakeup
 * that is only the buffer's (a watermark crossed by side-band records, a
 * record of another event sharing the buffer) signals no one.  The code
 * is taken with xchg(): another overflow of the event (in NMI here, or on
 * its own CPU while a copy's output ran this irq_work on another) may
 * leave a new one between a read and a clear.
 */
static void perf_pending_wakeup(struct perf_event *event)
{
	struct perf_buffer *rb;
	int code;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb)
		perf_buffer_wakeup(rb);
	else
		wake_up_all(&event->waitq);
	rcu_read_unlock();

	code = xchg(&event->pending_kill, 0);
	if (code)
		kill_fasync(perf_event_fasync(event), SIGIO, code);
}

static void perf_pending_irq(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event,
						pending_irq);
	int rctx;

	/* Software events raised by what we do here are not counted. */
	rctx = perf_swevent_get_recursion_context();
	if (test_and_clear_bit(PERF_PENDING_DISABLE, &event->pending))
		perf_event_disable_inatomic(event);
	if (test_and_clear_bit(PERF_PENDING_SIGTRAP, &event->pending))
		perf_pending_sigtrap(event);
	if (test_and_clear_bit(PERF_PENDING_WAKEUP, &event->pending))
		perf_pending_wakeup(event);
	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}

/**
 * perf_event_init_pending - set up an event's deferred work
 * @event: the new event
 */
void perf_event_init_pending(struct perf_event *event)
{
	init_irq_work(&event->pending_irq, perf_pending_irq);
	if (event->attr.freq && event->attr.sample_freq)
		atomic_inc(&perf_nr_freq_events);
}

/**
 * perf_event_sync_pending - wait for an event's deferred work, before
 *	it is freed
 * @event: the event, no longer able to overflow
 */
void perf_event_sync_pending(struct perf_event *event)
{
	irq_work_sync(&event->pending_irq);
	if (event->attr.freq && event->attr.sample_freq)
		atomic_dec(&perf_nr_freq_events);
}

/**
 * perf_event_pending - leave work for the event's irq_work
 * @event: the event
 * @what: PERF_PENDING_*
 *
 * Any context, NMI included.
 */
void perf_event_pending(struct perf_event *event, int what)
{
	set_bit(what, &event->pending);
	irq_work_queue(&event->pending_irq);
}

/**
 * __perf_event_overflow - handle an overflow
 * @event: the event
 * @may_throttle: whether this overflow may get the event throttled
 * @data: the sample
 * @regs: the registers at the overflow
 *
 * The software PMU does not let the first overflow of an occurrence
 * throttle, as it has no way to stop the occurrences themselves.
 *
 * Return: 1 if the PMU must stop the event, 0 to go on.
 */
int __perf_event_overflow(struct perf_event *event, bool may_throttle,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	int ret, limit, code;

	if (!is_sampling_event(event))
		return 0;
	/*
	 * Throttled: a software event's next occurrence, or an overflow a
	 * PMU took before it stopped the event.
	 */
	if (unlikely(READ_ONCE(event->hw.interrupts) == PERF_HW_THROTTLED))
		return 1;
	/*
	 * The overflow that throttles the event is delivered all the same,
	 * counted against a refresh limit and signalled as any other: a
	 * user re-arming from the signal handler must hear of it (and the
	 * refresh unthrottles the event).
	 */
	ret = perf_overflow_throttle(event, may_throttle);
	if (event->attr.freq)
		perf_overflow_adjust_freq(event, data->period, perf_clock());

	code = POLL_IN;
	limit = atomic_read(&event->event_limit);
	if (limit && atomic_dec_and_test(&event->event_limit)) {
		ret = 1;
		code = POLL_HUP;
		perf_event_pending(event, PERF_PENDING_DISABLE);
	}
	WRITE_ONCE(event->pending_kill, code);

	if (event->attr.sigtrap) {
		/* Another overflow may come while the irq_work reads it. */
		WRITE_ONCE(event->pending_addr,
			   data->sample_flags & PERF_SAMPLE_ADDR ?
			   data->addr : 0);
		perf_event_pending(event, PERF_PENDING_SIGTRAP);
	}

	if (event->overflow_handler)
		event->overflow_handler(event, data, regs);
	else if (perf_bpf_sample_wanted(event, data, regs))
		perf_event_output(event, data, regs);

	/* O_ASYNC owners hear of every overflow, not only of wakeups. */
	if (READ_ONCE(*perf_event_fasync(event)))
		perf_event_pending(event, PERF_PENDING_WAKEUP);
	return ret;
}

/**
 * perf_event_overflow - a sampling event completed a period
 * @event: the event
 * @data: the sample, started with perf_sample_data_init()
 * @regs: the registers at the overflow
 *
 * For PMU drivers.  May be called in NMI context.
 *
 * Return: 1 if the PMU must stop the event (it was throttled or ran out
 * of refreshes), 0 to go on.
 */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	return __perf_event_overflow(event, true, data, regs);
}
EXPORT_SYMBOL_GPL(perf_event_overflow);

/* The tick's work on one active event; ctx->lock held. */
static void perf_tick_event(struct perf_event *event, bool unthrottle)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 count, delta, period;

	if (event->state != PERF_EVENT_STATE_ACTIVE ||
	    event->oncpu != smp_processor_id() || !is_sampling_event(event))
		return;

	if (unthrottle && READ_ONCE(hwc->interrupts) == PERF_HW_THROTTLED) {
		WRITE_ONCE(hwc->interrupts, 0);
		perf_log_throttle(event, true);
		event->pmu->start(event, 0);
	}

	if (!event->attr.freq)
		return;
	/* A period that did not complete in a tick is far too long. */
	event->pmu->read(event);
	count = local64_read(&event->count);
	delta = count - hwc->freq_count_stamp;
	hwc->freq_count_stamp = count;
	/* An overflow in the tick that just ended estimated it already. */
	if (!delta ||
	    READ_ONCE(hwc->interrupts_seq) == __this_cpu_read(perf_tick_seq) - 1)
		return;
	period = div64_u64(delta * HZ, READ_ONCE(event->attr.sample_freq));
	period = max_t(u64, period, 1);
	if (period >= READ_ONCE(hwc->sample_period))
		return;
	WRITE_ONCE(hwc->sample_period, period);
	/*
	 * A counter still far from its overflow (the first guess, made for
	 * a fast event, in a slow one) would make the new period wait for
	 * the old one: start it now.  Counters count their period_left
	 * down; a software event's goes up from minus its period and never
	 * gets here.
	 */
	if (READ_ONCE(hwc->interrupts) == PERF_HW_THROTTLED ||
	    local64_read(&hwc->period_left) <= (s64)(2 * period))
		return;
	perf_pmu_disable(event->pmu);
	event->pmu->stop(event, PERF_EF_UPDATE);
	local64_set(&hwc->period_left, 0);
	/*
	 * Throttled meanwhile, by an interrupt that a PMU's disable does
	 * not hold off (AMD's IBS has its own NMI): the next tick starts it.
	 */
	if (READ_ONCE(hwc->interrupts) != PERF_HW_THROTTLED)
		event->pmu->start(event, PERF_EF_RELOAD);
	perf_pmu_enable(event->pmu);
}

/**
 * perf_overflow_sched_in - an event goes on a CPU: it is throttled no more
 * @event: the event, not yet added to its PMU; its context's lock held
 *
 * The tick unthrottles only the events that are on their CPU at the
 * first tick after the throttling: one that was disabled or scheduled
 * out before then would otherwise stay throttled for good.
 */
void perf_overflow_sched_in(struct perf_event *event)
{
	if (unlikely(READ_ONCE(event->hw.interrupts) == PERF_HW_THROTTLED)) {
		WRITE_ONCE(event->hw.interrupts, 0);
		perf_log_throttle(event, true);
	}
}

/**
 * perf_overflow_tick_start - a tick begins on this CPU
 *
 * Starts a new throttling interval, on every tick, so that the limit
 * counts the overflows of one tick; and takes the count of the events
 * throttled in the last one before anything else, so that an event
 * throttled while the tick walks the contexts is left to the next tick
 * rather than forgotten.
 *
 * Return: true if an event was throttled on this CPU since the last tick.
 */
bool perf_overflow_tick_start(void)
{
	__this_cpu_inc(perf_tick_seq);
	if (!__this_cpu_xchg(perf_throttled, 0))
		return false;
	tick_nohz_dep_clear_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);
	return true;
}

/**
 * perf_overflow_tick_needed - is there work for perf_overflow_tick()?
 * @unthrottle: what perf_overflow_tick_start() returned
 *
 * Return: true if an event uses a frequency or was throttled here.
 */
bool perf_overflow_tick_needed(bool unthrottle)
{
	return unthrottle || atomic_read(&perf_nr_freq_events);
}

/**
 * perf_overflow_tick - unthrottle and re-estimate the events of a context
 * @ctx: a context scheduled in on this CPU, locked
 * @unthrottle: what perf_overflow_tick_start() returned
 *
 * From the scheduler tick, when perf_overflow_tick_needed().
 */
void perf_overflow_tick(struct perf_event_context *ctx, bool unthrottle)
{
	struct perf_event *event;

	list_for_each_entry(event, &ctx->event_list, event_entry)
		perf_tick_event(event, unthrottle);
}

/**
 * perf_event_refresh_locked - allow @refresh more overflows, then disable
 * @event: a sampling event that is not inherited
 * @refresh: how many
 *
 * Enables the event.  Caller holds the context's mutex.
 *
 * Return: 0, or -EINVAL for an event that does not sample or is
 * inherited.
 */
int perf_event_refresh_locked(struct perf_event *event, int refresh)
{
	if (event->attr.inherit)
		return perf_refuse(-EINVAL, "IOC_REFRESH: inherited event",
				   refresh);
	if (!is_sampling_event(event))
		return perf_refuse(-EINVAL, "IOC_REFRESH: event does not sample",
				   refresh);
	atomic_add(refresh, &event->event_limit);
	perf_event_enable_nogroup(event);
	return 0;
}

/**
 * perf_event_refresh - PERF_EVENT_IOC_REFRESH for kernel users
 * @event: a sampling event that is not inherited
 * @refresh: how many more overflows before it disables itself
 *
 * Enables the event.
 *
 * Return: 0, or -EINVAL for an event that does not sample or is
 * inherited.
 */
int perf_event_refresh(struct perf_event *event, int refresh)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	int ret;

	ret = perf_event_refresh_locked(event, refresh);
	mutex_unlock(&ctx->mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(perf_event_refresh);

static void ctx_set_period(struct perf_event *event,
			   struct perf_event_context *ctx, void *data)
{
	bool active = event->state == PERF_EVENT_STATE_ACTIVE &&
		      event->oncpu == smp_processor_id();
	u64 value = *(u64 *)data;

	if (event->attr.freq) {
		WRITE_ONCE(event->attr.sample_freq, value);
		return;
	}
	if (active) {
		perf_pmu_disable(event->pmu);
		event->pmu->stop(event, PERF_EF_UPDATE);
	}
	WRITE_ONCE(event->attr.sample_period, value);
	event->hw.sample_period = value;
	/* The new period starts now. */
	local64_set(&event->hw.period_left, 0);
	if (active) {
		/* A throttled event stays stopped: the tick starts it. */
		if (READ_ONCE(event->hw.interrupts) != PERF_HW_THROTTLED)
			event->pmu->start(event, PERF_EF_RELOAD);
		perf_pmu_enable(event->pmu);
	}
}

/**
 * perf_event_set_period - PERF_EVENT_IOC_PERIOD on one event
 * @event: a sampling event
 * @value: the new period, or frequency for a frequency event
 *
 * Takes effect at once, where the event runs.
 */
void perf_event_set_period(struct perf_event *event, u64 value)
{
	perf_event_call(event, ctx_set_period, &value);
}
