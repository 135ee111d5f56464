// SPDX-License-Identifier: GPL-2.0
/*
 * Event contexts: the per-CPU contexts of CPU-wide events, the per-task
 * contexts of per-task events, and scheduling their events onto PMUs.
 *
 * A context has its own clock, ctx->time, which advances only while the
 * context is scheduled in: always for an online CPU's context, while the
 * task runs for a task's.  An event's time_enabled and time_running are
 * sums of context time, taken at each change of the event's state; so a
 * task event's times stand still while its task sleeps, as the ABI says.
 *
 * A task context is scheduled in and out by the scheduler hooks on the
 * CPU its task runs on, and nowhere else.  Any other change to a context
 * that is scheduled in (installing, removing, enabling, disabling,
 * reading an event) runs on that CPU, through perf_ctx_call(), with the
 * context's lock held; but an event of a CPU's context that is off and
 * alone is added and removed from any CPU (perf_ctx_call_off()).  The
 * lock rules are in struct perf_event_context.
 *
 * A task context that is a copy of another (inherit.c tags both) need
 * not be scheduled out and in at a switch between their tasks: the
 * running context is handed to the next task instead (ctx_swap()).
 *
 * Cgroup events (cgroup.c) live in a CPU's context but follow their
 * cgroup's clock instead of the context's, and their groups go on only
 * while a task of the cgroup runs: the CPU's cgroup groups are switched
 * when the cgroup of its task changes.
 */
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "internal.h"

static DEFINE_PER_CPU(struct perf_cpu_context, perf_cpu_ctx);

/*
 * On while any per-task event exists: the scheduler hooks run.  Turned
 * off a second after the last such event goes, so that opening and
 * closing one event after another does not patch the kernel's text each
 * time; meanwhile the hooks find no context and return.
 */
DEFINE_STATIC_KEY_DEFERRED_FALSE(perf_sched_events, HZ);

/* Where clone tags come from; 0 means "no copy of anything". */
static atomic64_t perf_clone_tags;

/**
 * perf_clock - the clock of contexts and event times, in nanoseconds
 *
 * Return: the local CPU's scheduler clock.
 */
u64 perf_clock(void)
{
	return local_clock();
}

static void perf_ctx_init(struct perf_event_context *ctx)
{
	raw_spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mutex);
	INIT_LIST_HEAD(&ctx->event_list);
	INIT_LIST_HEAD(&ctx->pinned_groups);
	INIT_LIST_HEAD(&ctx->flexible_groups);
	INIT_LIST_HEAD(&ctx->sb_list);
	refcount_set(&ctx->refcount, 1);
	ctx->cpu = -1;
}

void perf_get_context(struct perf_event_context *ctx)
{
	refcount_inc(&ctx->refcount);
}

void perf_put_context(struct perf_event_context *ctx)
{
	/* Once our reference is gone, another put may free @ctx: look first. */
	bool task_ctx = READ_ONCE(ctx->task);

	if (!refcount_dec_and_test(&ctx->refcount)) {
		/* perf_inherit_free_task() may wait for the last event. */
		if (task_ctx)
			wake_up_var(&ctx->refcount);
		return;
	}
	/* CPU contexts are static and never reach zero. */
	if (WARN_ON_ONCE(!ctx->task))
		return;
	if (ctx->task != TASK_TOMBSTONE)
		put_task_struct(ctx->task);
	/* Only the sched_task() of its running task looks at it. */
	kfree(ctx->task_ctx_data);
	kfree_rcu(ctx, rcu_head);
}

/*
 * Advance the context clock to @now, the perf_clock() of the context's
 * CPU; ctx->lock held.  While the clock runs its offset does not change:
 * the lockless readers on the context's CPU (perf_event_times_now()) add
 * it to their own perf_clock(), so @now may be read on another CPU as
 * long as it is that CPU's clock (perf_ctx_call_die()).
 */
static void ctx_update_time_at(struct perf_event_context *ctx, u64 now)
{
	u64 stamp = perf_ctx_stamp(ctx);

	/*
	 * Read without the lock by perf_event_times_now(): marked stores.
	 * The offset changes only where the clock does not run, or where
	 * @now is not past the stamp (a read from another CPU of a die
	 * left the clock a skew ahead of this CPU's).
	 */
	if (ctx->is_active && now > stamp)
		WRITE_ONCE(ctx->time, ctx->time + now - stamp);
	WRITE_ONCE(ctx->time_offset, ctx->time - now);
	if (perf_cgroup_enabled() && !ctx->task && ctx->is_active)
		perf_cgroup_ctx_update_time(ctx, now);
}

/* Advance the context clock; ctx->lock held, on the context's CPU. */
static void ctx_update_time(struct perf_event_context *ctx)
{
	ctx_update_time_at(ctx, perf_clock());
}

/*
 * The events of @ctx changed (added, removed, enabled, disabled, moved
 * in its lists): it is no longer a copy of the contexts it shared its
 * clone tag with.  ctx->lock held.
 */
static void ctx_changed(struct perf_event_context *ctx)
{
	WRITE_ONCE(ctx->clone_tag, 0);
}

/* The clock an event's times follow: its context's, or its cgroup's. */
static u64 event_clock(struct perf_event *event)
{
	if (perf_is_cgroup_event(event))
		return perf_cgroup_event_time(event);
	return event->ctx->time;
}

/*
 * The state an event's times follow: a group member is only as enabled
 * as its leader, so while the leader is off (or in error, or gone) the
 * member's time is too.  Otherwise its own: while a group goes on or off
 * the PMU one event after the other, a member that is still running
 * runs, whatever its leader already is.
 */
static enum perf_event_state event_time_state(struct perf_event *event)
{
	enum perf_event_state leader = READ_ONCE(event->group_leader->state);

	if (leader < PERF_EVENT_STATE_INACTIVE)
		return min(leader, READ_ONCE(event->state));
	return READ_ONCE(event->state);
}

/* The clock value an event's times were last brought up to. */
static u64 event_stamp(struct perf_event *event)
{
	return event->total_time_enabled - event->enabled_offset;
}

/*
 * An event's times are now up to @now: the offsets that go with them.
 * Read without the lock by perf_event_times_now(): marked stores, the
 * times before the offsets.  ctx->lock held.
 */
static void event_stamp_times(struct perf_event *event, u64 now)
{
	WRITE_ONCE(event->enabled_offset, event->total_time_enabled - now);
	WRITE_ONCE(event->running_offset, event->total_time_running - now);
}

/*
 * Bring an event's times up to the context clock; ctx->lock held.  The
 * offset of a time that runs does not change: an NMI reading it in the
 * middle reads the right time.
 */
static void event_update_time(struct perf_event *event)
{
	enum perf_event_state state = event_time_state(event);
	u64 now = event_clock(event);
	u64 delta = now - event_stamp(event);

	if (state >= PERF_EVENT_STATE_INACTIVE)
		WRITE_ONCE(event->total_time_enabled,
			   event->total_time_enabled + delta);
	if (state == PERF_EVENT_STATE_ACTIVE)
		WRITE_ONCE(event->total_time_running,
			   event->total_time_running + delta);
	event_stamp_times(event, now);
}

/*
 * The state is read without the lock (poll(), the times, the side-band
 * records), so it is stored with WRITE_ONCE().
 */
static void event_set_state(struct perf_event *event,
			    enum perf_event_state state)
{
	event_update_time(event);
	WRITE_ONCE(event->state, state);
}

/*
 * Pull an active event's count from its PMU, where this CPU may
 * (perf_event_readable_here()); ctx->lock held.
 */
static void ctx_sync_event(struct perf_event *event)
{
	if (perf_event_readable_here(event))
		event->pmu->read(event);
	event_update_time(event);
}

/* A leader changes state: its members' times first, by the old state. */
static void leader_set_state(struct perf_event *leader,
			     enum perf_event_state state)
{
	struct perf_event *sibling;

	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry)
		event_update_time(sibling);
	event_set_state(leader, state);
}

static bool event_fits_cpu(struct perf_event *event)
{
	if (event->cpu != -1 && event->cpu != smp_processor_id())
		return false;
	if (perf_is_cgroup_event(event) && !perf_cgroup_match(event))
		return false;
	return perf_pmus_filter_match(event);
}

/**
 * perf_pmus_filter_match - whether the PMUs of an event and of its
 *	group's members let it run on this CPU
 * @event: the event; its members are asked if it leads a group
 *
 * A PMU's filter_match() keeps its events to some CPUs (hybrid x86: one
 * PMU a kind of CPU), so a group of a software leader and members of
 * one kind runs on that kind only.  Interrupts off or the context's lock
 * held: a group changes under both.
 *
 * Return: true if they all agree.
 */
bool perf_pmus_filter_match(struct perf_event *event)
{
	struct perf_event *sibling;

	if (event->pmu->filter_match && !event->pmu->filter_match(event))
		return false;
	list_for_each_entry(sibling, &event->sibling_list, sibling_entry) {
		if (sibling->pmu->filter_match &&
		    !sibling->pmu->filter_match(sibling))
			return false;
	}
	return true;
}

static int event_sched_in(struct perf_event *event,
			  struct perf_event_context *ctx)
{
	if (event->state != PERF_EVENT_STATE_INACTIVE)
		return 0;

	event_set_state(event, PERF_EVENT_STATE_ACTIVE);
	WRITE_ONCE(event->oncpu, smp_processor_id());
	perf_overflow_sched_in(event);
	/* Added stopped: the group starts once all of it is on. */
	if (event->pmu->add(event, 0)) {
		WRITE_ONCE(event->state, PERF_EVENT_STATE_INACTIVE);
		WRITE_ONCE(event->oncpu, -1);
		return -EAGAIN;
	}
	ctx->nr_active++;
	return 0;
}

static void event_sched_out(struct perf_event *event,
			    struct perf_event_context *ctx)
{
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;

	event->pmu->del(event, 0);
	event_set_state(event, PERF_EVENT_STATE_INACTIVE);
	WRITE_ONCE(event->oncpu, -1);
	ctx->nr_active--;
}

static void group_sched_out(struct perf_event *leader,
			    struct perf_event_context *ctx)
{
	struct perf_event *sibling;

	if (leader->state != PERF_EVENT_STATE_ACTIVE)
		return;

	perf_pmu_disable(leader->pmu);
	event_sched_out(leader, ctx);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry)
		event_sched_out(sibling, ctx);
	perf_mux_group_on(leader, false);
	perf_pmu_enable(leader->pmu);
}

static void event_start(struct perf_event *event)
{
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	event->pmu->start(event, PERF_EF_RELOAD);
	/* A mapped event's control page shows its times as it goes on. */
	perf_event_update_userpage(event);
}

/*
 * A group goes on the PMU whole or not at all: its members are added
 * stopped, and start counting together once every one has a counter, so
 * a group that does not fit counts nothing.
 */
static int group_sched_in(struct perf_event *leader,
			  struct perf_event_context *ctx)
{
	struct perf_event *sibling, *failed = NULL;
	struct pmu *pmu = leader->pmu;

	if (leader->state != PERF_EVENT_STATE_INACTIVE ||
	    !event_fits_cpu(leader))
		return 0;

	perf_pmu_disable(pmu);
	if (!perf_mux_group_may_go(leader) || event_sched_in(leader, ctx))
		goto fail;

	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry) {
		if (event_sched_in(sibling, ctx)) {
			failed = sibling;
			break;
		}
	}
	if (!failed) {
		perf_mux_group_on(leader, true);
		event_start(leader);
		list_for_each_entry(sibling, &leader->sibling_list,
				    sibling_entry)
			event_start(sibling);
		perf_pmu_enable(pmu);
		return 0;
	}

	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry) {
		if (sibling == failed)
			break;
		event_sched_out(sibling, ctx);
	}
	event_sched_out(leader, ctx);
fail:
	perf_pmu_enable(pmu);
	/*
	 * A pinned group that cannot be had goes to the error state, where
	 * read() returns 0; a flexible one waits for its turn.
	 */
	if (leader->attr.pinned) {
		leader_set_state(leader, PERF_EVENT_STATE_ERROR);
		ctx_changed(ctx);
	} else {
		perf_mux_request(pmu);
	}
	return -EAGAIN;
}

/* A running group changed: it runs again whole, or not at all. */
static void group_resched(struct perf_event *leader,
			  struct perf_event_context *ctx)
{
	if (leader->state != PERF_EVENT_STATE_ACTIVE)
		return;
	group_sched_out(leader, ctx);
	group_sched_in(leader, ctx);
}

static void groups_sched_in(struct list_head *groups,
			    struct perf_event_context *ctx)
{
	struct perf_event *leader;

	list_for_each_entry(leader, groups, group_entry)
		group_sched_in(leader, ctx);
}

static void groups_sched_out(struct list_head *groups,
			     struct perf_event_context *ctx)
{
	struct perf_event *leader;

	list_for_each_entry(leader, groups, group_entry)
		group_sched_out(leader, ctx);
}

/*
 * A task's pinned groups come before the CPU's flexible ones: take those
 * off while the task's pinned groups go on, then put them back.  Called
 * with the task context's lock held; the CPU's nests inside (the rotation
 * timer takes them the other way round, but only on this CPU, where it
 * cannot run now).
 */
static void task_pinned_sched_in(struct perf_event_context *ctx)
{
	struct perf_event_context *cpu_ctx = &this_cpu_ptr(&perf_cpu_ctx)->ctx;

	if (!cpu_ctx->nr_active) {
		groups_sched_in(&ctx->pinned_groups, ctx);
		return;
	}

	raw_spin_lock_nested(&cpu_ctx->lock, SINGLE_DEPTH_NESTING);
	ctx_update_time(cpu_ctx);
	groups_sched_out(&cpu_ctx->flexible_groups, cpu_ctx);
	groups_sched_in(&ctx->pinned_groups, ctx);
	groups_sched_in(&cpu_ctx->flexible_groups, cpu_ctx);
	raw_spin_unlock(&cpu_ctx->lock);
}

/*
 * Schedule a context in on this CPU; ctx->lock held, irqs off.  A task
 * context is scheduled in only while it has events: once its last event
 * is gone, the scheduler hooks may be patched out and nothing would
 * schedule it out again.
 */
static void ctx_sched_in(struct perf_event_context *ctx)
{
	if (ctx->is_active || (ctx->task && !ctx->nr_events))
		return;

	WRITE_ONCE(ctx->time_offset, ctx->time - perf_clock());
	if (!ctx->task && perf_cgroup_enabled())
		perf_cgroup_ctx_sched_in(ctx);
	/*
	 * After the clocks: perf_event_times_now() (maybe in an NMI) uses
	 * their offsets once it is on.
	 */
	WRITE_ONCE(ctx->is_active, 1);
	if (ctx->task) {
		this_cpu_ptr(&perf_cpu_ctx)->task_ctx = ctx;
		if (!list_empty(&ctx->pinned_groups))
			task_pinned_sched_in(ctx);
	} else {
		groups_sched_in(&ctx->pinned_groups, ctx);
	}
	groups_sched_in(&ctx->flexible_groups, ctx);
}

/* Schedule a context out; ctx->lock held, irqs off, on its CPU. */
static void ctx_sched_out(struct perf_event_context *ctx)
{
	if (!ctx->is_active)
		return;

	ctx_update_time(ctx);
	groups_sched_out(&ctx->pinned_groups, ctx);
	groups_sched_out(&ctx->flexible_groups, ctx);
	WRITE_ONCE(ctx->is_active, 0);
	if (ctx->task)
		this_cpu_ptr(&perf_cpu_ctx)->task_ctx = NULL;
}

/*
 * Rotate the flexible groups of @pmu in @ctx: take them off, move the
 * first to the end, and put back what fits.  Return true if a group is
 * still waiting.  ctx->lock held, on the context's CPU.
 */
static bool ctx_rotate_pmu(struct perf_event_context *ctx, struct pmu *pmu)
{
	struct perf_event *leader, *first = NULL;
	bool waiting = false;

	if (!ctx->is_active)
		return false;

	ctx_update_time(ctx);
	list_for_each_entry(leader, &ctx->flexible_groups, group_entry) {
		if (leader->pmu != pmu)
			continue;
		if (!first)
			first = leader;
		group_sched_out(leader, ctx);
	}
	if (!first)
		return false;

	list_move_tail(&first->group_entry, &ctx->flexible_groups);
	ctx_changed(ctx);
	list_for_each_entry(leader, &ctx->flexible_groups, group_entry) {
		if (leader->pmu == pmu && group_sched_in(leader, ctx))
			waiting = true;
	}
	return waiting;
}

/**
 * perf_rotate_pmu - one multiplexing step for @pmu on this CPU
 * @pmu: the PMU
 *
 * From the rotation timer, in hard interrupt context.  The CPU's own
 * groups are rotated first, then those of the task running here.
 *
 * Return: true while groups still wait for a counter.
 */
bool perf_rotate_pmu(struct pmu *pmu)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx;
	bool waiting;

	raw_spin_lock(&cpuctx->ctx.lock);
	waiting = ctx_rotate_pmu(&cpuctx->ctx, pmu);
	task_ctx = cpuctx->task_ctx;
	if (task_ctx) {
		raw_spin_lock_nested(&task_ctx->lock, SINGLE_DEPTH_NESTING);
		waiting |= ctx_rotate_pmu(task_ctx, pmu);
		raw_spin_unlock(&task_ctx->lock);
	}
	raw_spin_unlock(&cpuctx->ctx.lock);
	return waiting;
}

/* Two events' times change places; read() reads them without the lock. */
static void swap_times(u64 *a, u64 *b)
{
	u64 t = *a;

	WRITE_ONCE(*a, *b);
	WRITE_ONCE(*b, t);
}

/*
 * The counts and times of the inherit_stat events of @ctx, running here,
 * and of @other, scheduled in nowhere, change places, so that each task
 * keeps its own values when the contexts change hands: PERF_RECORD_READ
 * at a task's exit reports what that task counted.  Both contexts have
 * the same clone tag, so their event lists pair copy with copy; they are
 * checked all the same, and if they do not pair up nothing is changed.
 *
 * Return: true if the values were exchanged.
 */
static bool ctx_swap_stat(struct perf_event_context *ctx,
			  struct perf_event_context *other)
{
	struct perf_event *a, *b;
	u64 value, stamp_a, stamp_b;

	b = list_first_entry(&other->event_list, struct perf_event,
			     event_entry);
	list_for_each_entry(a, &ctx->event_list, event_entry) {
		if (list_entry_is_head(b, &other->event_list, event_entry) ||
		    !a->parent || a->parent != b->parent)
			return false;
		b = list_next_entry(b, event_entry);
	}
	if (!list_entry_is_head(b, &other->event_list, event_entry))
		return false;

	ctx_update_time(ctx);
	b = list_first_entry(&other->event_list, struct perf_event,
			     event_entry);
	list_for_each_entry(a, &ctx->event_list, event_entry) {
		if (a->attr.inherit_stat) {
			ctx_sync_event(a);
			event_update_time(b);
			stamp_a = event_stamp(a);
			stamp_b = event_stamp(b);
			value = local64_read(&a->count);
			local64_set(&a->count, local64_read(&b->count));
			local64_set(&b->count, value);
			swap_times(&a->total_time_enabled,
				   &b->total_time_enabled);
			swap_times(&a->total_time_running,
				   &b->total_time_running);
			event_stamp_times(a, stamp_a);
			event_stamp_times(b, stamp_b);
		}
		b = list_next_entry(b, event_entry);
	}
	return true;
}

/*
 * @prev leaves this CPU for @next, and their contexts are copies of each
 * other: give @next the context that is running here, events and all,
 * and @prev the one @next had, instead of taking every event off its PMU
 * and putting its copy on.  Each copy of an event then counts for the
 * other task from now on; a read of the original adds up all copies, so
 * no count moves from one sum to another.
 *
 * Not while either context is pinned to its task, and not between a
 * context holding original events and a copy when inherit_stat asks for
 * each task's own values: the originals must stay with the task they
 * were opened on, which reports no values of its own at exit.
 *
 * Return: true if the contexts changed hands; @next's is then running.
 */
static bool ctx_swap(struct task_struct *prev, struct perf_event_context *ctx,
		     struct task_struct *next, struct perf_event_context *next_ctx)
{
	bool swapped = false;

	raw_spin_lock(&ctx->lock);
	raw_spin_lock_nested(&next_ctx->lock, SINGLE_DEPTH_NESTING);
	if (ctx->task != prev || next_ctx->task != next || !ctx->is_active ||
	    next_ctx->is_active || atomic_read(&ctx->pin_count) ||
	    atomic_read(&next_ctx->pin_count) ||
	    !ctx->clone_tag || ctx->clone_tag != next_ctx->clone_tag)
		goto out;
	if (ctx->nr_stat &&
	    (ctx->nr_own || next_ctx->nr_own || !ctx_swap_stat(ctx, next_ctx)))
		goto out;

	/* Read without the lock where only NULL or TOMBSTONE matters. */
	WRITE_ONCE(ctx->task, next);
	WRITE_ONCE(next_ctx->task, prev);
	/* What the PMUs keep of each task stays with it. */
	swap(ctx->task_ctx_data, next_ctx->task_ctx_data);
	WRITE_ONCE(prev->perf_event_ctxp[0], next_ctx);
	WRITE_ONCE(next->perf_event_ctxp[0], ctx);
	swapped = true;
out:
	raw_spin_unlock(&next_ctx->lock);
	raw_spin_unlock(&ctx->lock);
	return swapped;
}

/**
 * __perf_event_task_sched_out - schedule out the context of a task
 * @prev: the task leaving this CPU
 * @next: the task that follows it
 *
 * Called from perf_event_task_sched_out() with interrupts off.
 */
void __perf_event_task_sched_out(struct task_struct *prev,
				 struct task_struct *next)
{
	struct perf_event_context *ctx, *next_ctx;
	u64 tag;

	/* Counted while @prev's events are still running. */
	if (__perf_sw_enabled(PERF_COUNT_SW_CONTEXT_SWITCHES))
		perf_sw_event_sched(PERF_COUNT_SW_CONTEXT_SWITCHES);
	if (perf_sb_switch_wanted())
		perf_record_switch(prev, next, false);
	if (IS_ENABLED(CONFIG_CGROUP_PERF) &&
	    __perf_sw_enabled(PERF_COUNT_SW_CGROUP_SWITCHES))
		perf_cgroup_sched_out(prev, next);

	/* While @prev's events still run: the PMUs may save its state. */
	if (perf_sched_cb_wanted())
		perf_sched_cb_switch(this_cpu_ptr(&perf_cpu_ctx)->task_ctx,
				     false);

	/*
	 * Only this CPU schedules @prev's context in or out, so is_active
	 * can be tested without the lock.
	 */
	ctx = READ_ONCE(prev->perf_event_ctxp[0]);
	if (ctx && READ_ONCE(ctx->is_active)) {
		/*
		 * @next is not running, so its context stays where it is;
		 * a look at the tags without the locks, then ctx_swap()
		 * checks again with them.
		 */
		next_ctx = READ_ONCE(next->perf_event_ctxp[0]);
		tag = READ_ONCE(ctx->clone_tag);
		if (!next_ctx || !tag ||
		    READ_ONCE(next_ctx->clone_tag) != tag ||
		    !ctx_swap(prev, ctx, next, next_ctx)) {
			raw_spin_lock(&ctx->lock);
			ctx_sched_out(ctx);
			raw_spin_unlock(&ctx->lock);
		}
	}

	/* Between the two tasks' contexts, the CPU's follows @next's cgroup. */
	if (perf_cgroup_enabled())
		perf_cpu_ctx_cgroup_switch(next);
}

/**
 * __perf_event_task_sched_in - schedule in the context of a task
 * @prev: the task that ran before
 * @task: the task now running on this CPU
 *
 * Called from perf_event_task_sched_in() with interrupts off.
 */
void __perf_event_task_sched_in(struct task_struct *prev,
				struct task_struct *task)
{
	struct perf_event_context *ctx = READ_ONCE(task->perf_event_ctxp[0]);

	/*
	 * The context scheduled in here already is the one ctx_swap() just
	 * handed over: this CPU alone changes task_ctx, with interrupts off.
	 */
	if (ctx && ctx != this_cpu_ptr(&perf_cpu_ctx)->task_ctx) {
		raw_spin_lock(&ctx->lock);
		if (ctx->task == task)
			ctx_sched_in(ctx);
		raw_spin_unlock(&ctx->lock);
	}
	/* Once @task's events run: the PMUs may restore its state. */
	if (perf_sched_cb_wanted())
		perf_sched_cb_switch(this_cpu_ptr(&perf_cpu_ctx)->task_ctx,
				     true);
	if (perf_sb_switch_wanted())
		perf_record_switch(task, prev, true);

	/* Counted once the task's events run on its new CPU. */
	if (task->sched_migrated &&
	    __perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS)) {
		task->sched_migrated = 0;
		perf_sw_event_sched(PERF_COUNT_SW_CPU_MIGRATIONS);
	}
}

#ifdef CONFIG_CGROUP_PERF
/*
 * The CPU's cgroup changed: its cgroup groups that no longer match go off,
 * those that now match go on.  A pinned group coming on has precedence
 * over the flexible groups holding the PMU, which make room and come
 * back after it.  ctx->lock held, on its CPU, scheduled in.
 */
static void ctx_cgroup_resched(struct perf_event_context *ctx)
{
	struct perf_event *leader;
	bool pinned_in = false;

	list_for_each_entry(leader, &ctx->pinned_groups, group_entry) {
		if (!perf_is_cgroup_event(leader))
			continue;
		if (!perf_cgroup_match(leader))
			group_sched_out(leader, ctx);
		else if (leader->state == PERF_EVENT_STATE_INACTIVE)
			pinned_in = true;
	}
	list_for_each_entry(leader, &ctx->flexible_groups, group_entry) {
		if (perf_is_cgroup_event(leader) && !perf_cgroup_match(leader))
			group_sched_out(leader, ctx);
	}

	if (pinned_in) {
		groups_sched_out(&ctx->flexible_groups, ctx);
		groups_sched_in(&ctx->pinned_groups, ctx);
	}
	groups_sched_in(&ctx->flexible_groups, ctx);
}

/**
 * perf_cpu_ctx_cgroup_switch - this CPU's task may change cgroup
 * @next: the task about to run here, or running here and just moved to
 *	another cgroup
 *
 * From the scheduler hook and the cgroup attach IPI, interrupts off.
 */
void perf_cpu_ctx_cgroup_switch(struct task_struct *next)
{
	struct perf_event_context *ctx = &this_cpu_ptr(&perf_cpu_ctx)->ctx;

	/* Most switches stay in one cgroup: a look without the lock. */
	if (!perf_cgroup_ctx_switching(ctx, next))
		return;

	raw_spin_lock(&ctx->lock);
	/* The cgroup clocks run up to now under the cgroup going out. */
	ctx_update_time(ctx);
	if (perf_cgroup_ctx_switch(ctx, next) && ctx->is_active)
		ctx_cgroup_resched(ctx);
	raw_spin_unlock(&ctx->lock);
}
#endif

/**
 * perf_event_task_tick - the scheduler tick on this CPU
 *
 * Runs in hard interrupt context: unthrottles the events throttled in
 * the last tick and re-estimates the periods of frequency events, in the
 * CPU's context and the running task's.
 */
void perf_event_task_tick(void)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *ctx;
	bool unthrottle;

	lockdep_assert_irqs_disabled();
	unthrottle = perf_overflow_tick_start();
	if (!perf_overflow_tick_needed(unthrottle))
		return;

	raw_spin_lock(&cpuctx->ctx.lock);
	perf_overflow_tick(&cpuctx->ctx, unthrottle);
	raw_spin_unlock(&cpuctx->ctx.lock);

	ctx = cpuctx->task_ctx;
	if (ctx) {
		raw_spin_lock(&ctx->lock);
		perf_overflow_tick(ctx, unthrottle);
		raw_spin_unlock(&ctx->lock);
	}
}

/**
 * perf_event_times_now - an event's enabled and running times, now
 * @event: the event
 * @enabled: its total time enabled
 * @running: its total time running
 *
 * Without the context's lock, so usable from a sample in NMI context;
 * on the CPU the event is active on, the result is exact, even in an NMI
 * that interrupted an update of the times: a running time is its clock
 * plus an offset that the update does not change.  From another
 * CPU (a buffer being attached) the fields are read as that CPU changes
 * them, each whole (marked accesses) but not together: the answer is
 * the time of about now, and the event's CPU writes the exact one at
 * its next change.
 */
void perf_event_times_now(struct perf_event *event, u64 *enabled,
			  u64 *running)
{
	struct perf_event_context *ctx = event->ctx;
	enum perf_event_state state;
	u64 now;

	/* Not yet in a context: no time has passed. */
	state = ctx ? event_time_state(event) : PERF_EVENT_STATE_OFF;
	/* A time that stands still is its total; one that runs, an offset. */
	*enabled = READ_ONCE(event->total_time_enabled);
	*running = READ_ONCE(event->total_time_running);
	if (state < PERF_EVENT_STATE_INACTIVE)
		return;
	if (perf_is_cgroup_event(event))
		now = perf_cgroup_event_time_now(event);
	else if (READ_ONCE(ctx->is_active))
		/* Never behind a read from another CPU of a die: its clock. */
		now = max(perf_clock() + READ_ONCE(ctx->time_offset),
			  READ_ONCE(ctx->time));
	else
		now = READ_ONCE(ctx->time);
	*enabled = now + READ_ONCE(event->enabled_offset);
	if (state == PERF_EVENT_STATE_ACTIVE)
		*running = now + READ_ONCE(event->running_offset);
}

struct perf_ctx_call_data {
	struct perf_event_context	*ctx;
	perf_event_fn			func;
	struct perf_event		*event;
	void				*data;
	int				ret;
};

/*
 * Run call->func with ctx->lock held, here.  That is right if this CPU is
 * the one the context is scheduled in on, or if it is scheduled in
 * nowhere; otherwise return -EAGAIN and let the caller chase it.
 */
static int perf_ctx_call_here(struct perf_ctx_call_data *call)
{
	struct perf_event_context *ctx = call->ctx;
	struct task_struct *task;
	unsigned long flags;
	bool here;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	task = ctx->task;
	if (!task)
		here = ctx->cpu == smp_processor_id();
	else
		here = task == current;
	if (ctx->is_active && !here) {
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		return -EAGAIN;
	}
	ctx_update_time(ctx);
	call->func(call->event, ctx, call->data);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return 0;
}

static void ctx_disable_event(struct perf_event *event,
			      struct perf_event_context *ctx, void *unused);

/**
 * perf_event_disable_inatomic - disable an event from interrupt context
 * @event: the event
 *
 * For an event that ran out of refreshes, from its irq_work on the CPU
 * it overflowed on.  If its context has moved to another CPU meanwhile,
 * that CPU's next scheduling of it is left alone: the event was already
 * stopped by its PMU.
 */
void perf_event_disable_inatomic(struct perf_event *event)
{
	struct perf_ctx_call_data call = {
		.ctx = event->ctx, .func = ctx_disable_event, .event = event,
	};

	perf_ctx_call_here(&call);
}

static void perf_ctx_call_ipi(void *info)
{
	struct perf_ctx_call_data *call = info;

	call->ret = perf_ctx_call_here(call);
}

/*
 * Run func(event, ctx, data) with ctx->lock held on the CPU where ctx is
 * scheduled in, or here if it is scheduled in nowhere (its task is not
 * running, or its CPU is offline).  Process context: it may send IPIs.
 */
static void perf_ctx_call(struct perf_event_context *ctx,
			  struct perf_event *event, perf_event_fn func,
			  void *data)
{
	struct perf_ctx_call_data call = {
		.ctx = ctx, .func = func, .event = event, .data = data,
	};
	struct task_struct *task;
	int cpu;

	lockdep_assert_irqs_enabled();

	for (;;) {
		task = READ_ONCE(ctx->task);
		if (!task)
			cpu = ctx->cpu;
		else if (task != TASK_TOMBSTONE && task != current &&
			 task_curr(task))
			cpu = task_cpu(task);
		else
			/* Not running, or running here: no IPI needed. */
			cpu = -1;

		call.ret = -EAGAIN;
		if (cpu < 0 || smp_call_function_single(cpu, perf_ctx_call_ipi,
							&call, 1))
			call.ret = perf_ctx_call_here(&call);
		if (!call.ret)
			return;
		cpu_relax();
	}
}

/*
 * An event of a CPU's context that is off, alone in its group and not a
 * cgroup event is on no PMU, and gets there only through an enable,
 * which holds ctx->mutex as our caller does.  Adding it to the context or
 * taking it out changes the lists and nothing of the CPU's, and any CPU
 * may change the lists under ctx->lock: so the CPU need not be
 * interrupted (perf record -a opens every CPU's events disabled, and
 * closes them after disabling them).  Its times stand still while it is
 * off, so the context clock is left to its CPU.  Return true if @func
 * ran here.
 */
static bool perf_ctx_call_off(struct perf_event_context *ctx,
			      struct perf_event *event, perf_event_fn func)
{
	unsigned long flags;
	bool off;

	lockdep_assert_held(&ctx->mutex);
	if (READ_ONCE(ctx->task))
		return false;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	off = event->state == PERF_EVENT_STATE_OFF &&
	      event->group_leader == event && !event->nr_siblings &&
	      !perf_is_cgroup_event(event);
	if (off)
		func(event, ctx, NULL);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return off;
}

/**
 * perf_event_call - run a function on an event where its context runs
 * @event: the event
 * @func: called with the context's lock held and its clock up to date
 * @data: passed to @func
 */
void perf_event_call(struct perf_event *event, perf_event_fn func, void *data)
{
	perf_ctx_call(event->ctx, event, func, data);
}

/*
 * Is every event whose count a read of @event needs (the group's, with
 * @group) one that any CPU of its die may read?
 */
static bool perf_event_die_readable(struct perf_event *event, bool group)
{
	struct perf_event *sibling;

	if (!group)
		return event->event_caps & PERF_EV_CAP_READ_ACTIVE_PKG;
	event = event->group_leader;
	if (!(event->event_caps & PERF_EV_CAP_READ_ACTIVE_PKG))
		return false;
	for_each_sibling_event(sibling, event) {
		if (!(sibling->event_caps & PERF_EV_CAP_READ_ACTIVE_PKG))
			return false;
	}
	return true;
}

/*
 * A read of an event of a CPU's context whose counters are its die's
 * (PERF_EV_CAP_READ_ACTIVE_PKG), from another CPU of that die, as perf
 * stat -a reads the package PMUs: run @func here, with the context's
 * lock and without interrupting its CPU.  The context clock is advanced
 * with that CPU's clock: cpu_clock(), monotonic for each CPU whichever
 * CPU reads it where the scheduler clock is unstable, and the TSC both
 * CPUs share where it is stable, which may be behind the stamp by the
 * TSCs' skew; the clock is not taken back then.  So the offset that the
 * lockless readers there add to their perf_clock() stays put (and they
 * take the clock for their now where it is ahead of theirs).  The PMU's
 * read runs here (ctx_sync_event()); the context's lock keeps the
 * event's CPU out of the PMU's add, del, start and stop meanwhile, not
 * out of its read.  Return true if @func ran.
 */
static bool perf_ctx_call_die(struct perf_event_context *ctx,
			      struct perf_event *event, bool group,
			      perf_event_fn func, void *data)
{
	unsigned long flags;
	bool done = false;
	int cpu = ctx->cpu;

	/* The group holds still: its members come and go under ctx->mutex. */
	if (READ_ONCE(ctx->task) || !perf_event_die_readable(event, group))
		return false;
	local_irq_save(flags);
	if (cpu == smp_processor_id() ||
	    !cpumask_test_cpu(smp_processor_id(), topology_die_cpumask(cpu)))
		goto out;
	raw_spin_lock(&ctx->lock);
	if (ctx->is_active) {
		ctx_update_time_at(ctx, max(cpu_clock(cpu), perf_ctx_stamp(ctx)));
		func(event, ctx, data);
		done = true;
	}
	raw_spin_unlock(&ctx->lock);
out:
	local_irq_restore(flags);
	return done;
}

/**
 * perf_event_call_read - run a read of an event where it can be read
 * @event: the event
 * @group: whether @func reads the counts of @event's whole group
 * @func: the read, called as by perf_event_call(); it pulls the counts
 *	it needs with perf_ctx_sync_group() or perf_ctx_sync_event()
 * @data: passed to @func
 *
 * As perf_event_call(), but the read of an event whose counters are its
 * die's (and, with @group, its group's), from another CPU of the die,
 * runs here without an IPI.  Caller holds the context's mutex, or
 * @event is a task's.
 */
void perf_event_call_read(struct perf_event *event, bool group,
			  perf_event_fn func, void *data)
{
	if (!perf_ctx_call_die(event->ctx, event, group, func, data))
		perf_ctx_call(event->ctx, event, func, data);
}

/* Put an event on the lists of @ctx but its group's; ctx->lock held. */
static void ctx_list_event(struct perf_event *event,
			   struct perf_event_context *ctx)
{
	list_add_tail(&event->event_entry, &ctx->event_list);
	ctx->nr_events++;
	ctx->nr_stat += event->attr.inherit_stat;
	ctx->nr_own += !event->parent;
	ctx_changed(ctx);
	event->attach_state |= PERF_ATTACH_CONTEXT;
	perf_sb_ctx_add(ctx, event);
	if (perf_is_cgroup_event(event))
		perf_cgroup_ctx_add(ctx, event);
	event_stamp_times(event, event_clock(event));
}

/* Undo ctx_list_event(), its times brought up to date first. */
static void ctx_unlist_event(struct perf_event *event,
			     struct perf_event_context *ctx)
{
	event_update_time(event);
	list_del_init(&event->event_entry);
	ctx->nr_events--;
	ctx->nr_stat -= event->attr.inherit_stat;
	ctx->nr_own -= !event->parent;
	ctx_changed(ctx);
	event->attach_state &= ~PERF_ATTACH_CONTEXT;
	perf_sb_ctx_del(ctx, event);
	if (perf_is_cgroup_event(event))
		perf_cgroup_ctx_del(ctx, event);
}

/* A leader's group list: pinned or flexible. */
static struct list_head *ctx_groups_of(struct perf_event_context *ctx,
				       struct perf_event *leader)
{
	return leader->attr.pinned ? &ctx->pinned_groups :
				     &ctx->flexible_groups;
}

static void ctx_add_event(struct perf_event *event,
			  struct perf_event_context *ctx, void *unused)
{
	struct perf_event *leader = event->group_leader;

	ctx_list_event(event, ctx);
	if (leader == event) {
		list_add_tail(&event->group_entry, ctx_groups_of(ctx, event));
		if (ctx->is_active)
			group_sched_in(event, ctx);
		else if (ctx->task == current)
			/* The task's first event: its context starts here. */
			ctx_sched_in(ctx);
		return;
	}

	list_add_tail(&event->sibling_entry, &leader->sibling_list);
	/* A sample (NMI) reads it without the lock: perf_output_read(). */
	WRITE_ONCE(leader->nr_siblings, leader->nr_siblings + 1);
	event->attach_state |= PERF_ATTACH_GROUP;
	group_resched(leader, ctx);
}

/* The event is in: the context found for it may change hands again. */
static void ctx_install_event(struct perf_event *event,
			      struct perf_event_context *ctx, void *unused)
{
	ctx_add_event(event, ctx, NULL);
	if (ctx->task)
		atomic_dec(&ctx->pin_count);
}

/**
 * perf_install_in_context - add a new event to a context and start it
 * @ctx: the context from perf_find_get_context(), which holds a
 *	reference for the event
 * @event: the event; if it joins a group, its leader is in @ctx already
 *
 * Caller holds ctx->mutex.  Ends the pin perf_find_get_context() took.
 */
void perf_install_in_context(struct perf_event_context *ctx,
			     struct perf_event *event)
{
	lockdep_assert_held(&ctx->mutex);

	event->ctx = ctx;
	if (!perf_ctx_call_off(ctx, event, ctx_install_event))
		perf_ctx_call(ctx, event, ctx_install_event, NULL);
}

/* Make each sibling of a departing leader the leader of its own group. */
static void ctx_ungroup_siblings(struct perf_event *leader,
				 struct perf_event_context *ctx)
{
	struct perf_event *sibling, *tmp;

	list_for_each_entry_safe(sibling, tmp, &leader->sibling_list,
				 sibling_entry) {
		list_del_init(&sibling->sibling_entry);
		sibling->group_leader = sibling;
		sibling->attach_state &= ~PERF_ATTACH_GROUP;
		list_add_tail(&sibling->group_entry,
			      ctx_groups_of(ctx, sibling));
		if (sibling->state == PERF_EVENT_STATE_ACTIVE)
			event_sched_out(sibling, ctx);
		if (ctx->is_active)
			group_sched_in(sibling, ctx);
	}
	WRITE_ONCE(leader->nr_siblings, 0);
}

static void ctx_del_event(struct perf_event *event,
			  struct perf_event_context *ctx, void *unused)
{
	struct perf_event *leader = event->group_leader;

	if (!(event->attach_state & PERF_ATTACH_CONTEXT))
		return;

	if (leader == event)
		group_sched_out(event, ctx);
	else
		event_sched_out(event, ctx);
	event_update_time(event);

	if (leader == event) {
		list_del_init(&event->group_entry);
		ctx_ungroup_siblings(event, ctx);
	} else {
		list_del_init(&event->sibling_entry);
		WRITE_ONCE(leader->nr_siblings, leader->nr_siblings - 1);
		event->attach_state &= ~PERF_ATTACH_GROUP;
		event->group_leader = event;
	}
	ctx_unlist_event(event, ctx);

	/* See ctx_sched_in(): no scheduled-in task context without events. */
	if (ctx->task && !ctx->nr_events)
		ctx_sched_out(ctx);
}

/**
 * perf_remove_from_context - take an event out of its context for good
 * @event: the event
 *
 * Stops it if it is counting.  Its context keeps its reference until the
 * event is freed, so a final read still works.  Caller holds ctx->mutex.
 */
void perf_remove_from_context(struct perf_event *event)
{
	if (!perf_ctx_call_off(event->ctx, event, ctx_del_event))
		perf_ctx_call(event->ctx, event, ctx_del_event, NULL);
}

static void ctx_enable_event(struct perf_event *event,
			     struct perf_event_context *ctx, void *unused)
{
	struct perf_event *leader = event->group_leader;

	if (event->state >= PERF_EVENT_STATE_INACTIVE ||
	    event->state <= PERF_EVENT_STATE_EXIT ||
	    !(event->attach_state & PERF_ATTACH_CONTEXT))
		return;

	leader_set_state(event, PERF_EVENT_STATE_INACTIVE);
	ctx_changed(ctx);
	if (!ctx->is_active)
		return;

	if (leader == event)
		group_sched_in(event, ctx);
	else
		group_resched(leader, ctx);
}

static void ctx_disable_event(struct perf_event *event,
			      struct perf_event_context *ctx, void *unused)
{
	if (event->state < PERF_EVENT_STATE_INACTIVE)
		return;

	if (event->group_leader == event)
		group_sched_out(event, ctx);
	else
		event_sched_out(event, ctx);
	leader_set_state(event, PERF_EVENT_STATE_OFF);
	ctx_changed(ctx);
}

/**
 * perf_event_enable_nogroup - enable one event (not its group)
 * @event: the event
 *
 * An event in the error state is given another chance.
 */
void perf_event_enable_nogroup(struct perf_event *event)
{
	perf_ctx_call(event->ctx, event, ctx_enable_event, NULL);
}

/**
 * perf_event_disable_nogroup - disable one event (a leader: its group)
 * @event: the event
 */
void perf_event_disable_nogroup(struct perf_event *event)
{
	perf_ctx_call(event->ctx, event, ctx_disable_event, NULL);
}

/**
 * perf_event_ctx_lock - lock the context an event is in
 * @event: the event
 *
 * An event of a CPU-wide PMU may move to another CPU's context
 * (perf_pmu_migrate_context()), under both contexts' mutexes: the one
 * locked here is the one the event is in until it is unlocked.  A CPU's
 * context lives for ever and a task's context is never left, so no
 * reference is needed.
 *
 * Return: the context, its mutex held.
 */
struct perf_event_context *perf_event_ctx_lock(struct perf_event *event)
{
	struct perf_event_context *ctx;

	for (;;) {
		ctx = READ_ONCE(event->ctx);
		mutex_lock(&ctx->mutex);
		if (ctx == READ_ONCE(event->ctx))
			return ctx;
		mutex_unlock(&ctx->mutex);
	}
}

/**
 * perf_group_lock - hold off changes to the group an event joins
 * @event: the new event, in its PMU's event_init
 * @flags: where the interrupt state is saved
 *
 * A PMU's event_init runs before perf_event_open() takes the group's
 * context mutex (taking it there would order it before the trace
 * events' event_mutex), so another thread may add a member to the group
 * or close one while event_init walks it.  Every change to the member
 * list holds the context's lock, which this takes: between it and
 * perf_group_unlock(), for_each_sibling_event() on @event's leader sees
 * a stable list.  Nothing may sleep there.
 *
 * Return: the context locked, or NULL (nothing held) for a new leader,
 * or a leader not in a context yet (a kernel user's or a test's).
 */
struct perf_event_context *perf_group_lock(struct perf_event *event,
					   unsigned long *flags)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event_context *ctx;

	if (!leader || leader == event)
		return NULL;
	for (;;) {
		ctx = READ_ONCE(leader->ctx);
		if (!ctx)
			return NULL;
		raw_spin_lock_irqsave(&ctx->lock, *flags);
		/* A CPU-wide PMU's event may have moved (hotplug). */
		if (ctx == READ_ONCE(leader->ctx))
			return ctx;
		raw_spin_unlock_irqrestore(&ctx->lock, *flags);
	}
}
EXPORT_SYMBOL_GPL(perf_group_lock);

/**
 * perf_group_unlock - undo perf_group_lock()
 * @ctx: what it returned
 * @flags: the interrupt state it saved
 */
void perf_group_unlock(struct perf_event_context *ctx, unsigned long flags)
{
	if (ctx)
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
}
EXPORT_SYMBOL_GPL(perf_group_unlock);

/* For kernel users, who do not hold the context's mutex. */
static void perf_event_call_locked(struct perf_event *event, perf_event_fn fn,
				   void *data)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);

	perf_ctx_call(ctx, event, fn, data);
	mutex_unlock(&ctx->mutex);
}

/**
 * perf_event_enable - enable an event for a kernel user
 * @event: the event
 */
void perf_event_enable(struct perf_event *event)
{
	perf_event_call_locked(event, ctx_enable_event, NULL);
}
EXPORT_SYMBOL_GPL(perf_event_enable);

/**
 * perf_event_disable - disable an event for a kernel user
 * @event: the event
 */
void perf_event_disable(struct perf_event *event)
{
	perf_event_call_locked(event, ctx_disable_event, NULL);
}
EXPORT_SYMBOL_GPL(perf_event_disable);

struct perf_pause {
	bool	reset;
	u64	count;
};

static void ctx_pause_event(struct perf_event *event,
			    struct perf_event_context *ctx, void *data)
{
	struct perf_pause *pause = data;

	ctx_disable_event(event, ctx, NULL);
	pause->count = local64_read(&event->count);
	if (pause->reset)
		local64_set(&event->count, 0);
}

/**
 * perf_event_pause - disable an event and take its count
 * @event: an event of a kernel user
 * @reset: whether its count starts again from 0
 *
 * KVM's virtual counters: the guest stops a counter and its value is
 * kept by KVM; perf_event_period() and perf_event_enable() resume it.
 * The count is taken and reset with the event stopped, so nothing is
 * counted twice or lost.  Inherited copies are not looked at.
 *
 * Return: its count when it stopped.
 */
u64 perf_event_pause(struct perf_event *event, bool reset)
{
	struct perf_pause pause = { .reset = reset };

	perf_event_call_locked(event, ctx_pause_event, &pause);
	return pause.count;
}
EXPORT_SYMBOL_GPL(perf_event_pause);

/* Take a whole group out of a CPU's context, still a group. */
static void ctx_detach_group(struct perf_event *leader,
			     struct perf_event_context *ctx, void *data)
{
	struct list_head *moved = data;
	struct perf_event *sibling;

	group_sched_out(leader, ctx);
	list_del_init(&leader->group_entry);
	ctx_unlist_event(leader, ctx);
	for_each_sibling_event(sibling, leader)
		ctx_unlist_event(sibling, ctx);
	/* event_entry is free now: it keeps the leader for the move. */
	list_add_tail(&leader->event_entry, moved);
}

/* Put a group that ctx_detach_group() took out into another context. */
static void ctx_attach_group(struct perf_event *leader,
			     struct perf_event_context *ctx, void *unused)
{
	struct perf_event *sibling;

	ctx_list_event(leader, ctx);
	for_each_sibling_event(sibling, leader)
		ctx_list_event(sibling, ctx);
	list_add_tail(&leader->group_entry, ctx_groups_of(ctx, leader));
	if (ctx->is_active)
		group_sched_in(leader, ctx);
}

/* Does the group of @leader have an event of @pmu? */
static bool group_has_pmu(struct perf_event *leader, struct pmu *pmu)
{
	struct perf_event *sibling;

	if (leader->pmu == pmu)
		return true;
	for_each_sibling_event(sibling, leader)
		if (sibling->pmu == pmu)
			return true;
	return false;
}

static void perf_event_move_cpu(struct perf_event *event,
				struct perf_event_context *dst, int cpu)
{
	struct perf_event_context *src = event->ctx;

	perf_get_context(dst);
	WRITE_ONCE(event->ctx, dst);
	WRITE_ONCE(event->cpu, cpu);
	perf_put_context(src);
}

/**
 * perf_pmu_migrate_context - move a PMU's CPU-wide events to another CPU
 * @pmu: the PMU, one that counts for a whole package or device, so that
 *	any CPU of it can carry its events
 * @src_cpu: the CPU whose events move, usually going offline
 * @dst_cpu: the CPU they move to
 *
 * For a driver's CPU hotplug callback.  Each group with an event of @pmu
 * moves whole, keeping its state and counts; an enabled group starts on
 * @dst_cpu as it would have on its own CPU.  The events' times go on
 * from what they were.  Neither CPU's context may be changed by the
 * caller meanwhile; the function takes their mutexes.
 */
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu)
{
	struct perf_event_context *src = &per_cpu_ptr(&perf_cpu_ctx, src_cpu)->ctx;
	struct perf_event_context *dst = &per_cpu_ptr(&perf_cpu_ctx, dst_cpu)->ctx;
	struct perf_event *event, *tmp, *sibling;
	LIST_HEAD(groups);
	LIST_HEAD(moved);

	if (src == dst)
		return;
	/* Two CPUs' contexts, always in the order of their CPU numbers. */
	if (src_cpu < dst_cpu) {
		mutex_lock(&src->mutex);
		mutex_lock_nested(&dst->mutex, SINGLE_DEPTH_NESTING);
	} else {
		mutex_lock(&dst->mutex);
		mutex_lock_nested(&src->mutex, SINGLE_DEPTH_NESTING);
	}

	/*
	 * The lists change only under both the mutex and the lock, so the
	 * mutex is enough to walk them; a detach takes a group's members off
	 * too, so the walk starts again after each.
	 */
	for (;;) {
		struct perf_event *leader = NULL;

		list_for_each_entry(event, &src->event_list, event_entry) {
			if (event->group_leader == event &&
			    group_has_pmu(event, pmu)) {
				leader = event;
				break;
			}
		}
		if (!leader)
			break;
		perf_ctx_call(src, leader, ctx_detach_group, &moved);
	}

	list_for_each_entry_safe(event, tmp, &moved, event_entry) {
		list_del_init(&event->event_entry);
		perf_event_move_cpu(event, dst, dst_cpu);
		for_each_sibling_event(sibling, event)
			perf_event_move_cpu(sibling, dst, dst_cpu);
		list_add_tail(&event->event_entry, &groups);
	}

	list_for_each_entry_safe(event, tmp, &groups, event_entry) {
		list_del_init(&event->event_entry);
		perf_ctx_call(dst, event, ctx_attach_group, NULL);
	}

	mutex_unlock(&src->mutex);
	mutex_unlock(&dst->mutex);
}
EXPORT_SYMBOL_GPL(perf_pmu_migrate_context);

/**
 * perf_ctx_sync_event - bring one event's count and times up to date
 * @event: the event
 * @ctx: its context, locked, on the CPU it is scheduled in on (or, for
 *	perf_event_call_read(), on a CPU of its die)
 * @data: unused
 */
void perf_ctx_sync_event(struct perf_event *event,
			 struct perf_event_context *ctx, void *data)
{
	ctx_sync_event(event);
}

/**
 * perf_ctx_sync_group - bring a group's counts and times up to date
 * @leader: the group leader, or a lone event
 * @ctx: its context, locked, on the CPU it is scheduled in on (or, for
 *	perf_event_call_read(), on a CPU of its die)
 * @data: unused
 */
void perf_ctx_sync_group(struct perf_event *leader,
			 struct perf_event_context *ctx, void *data)
{
	struct perf_event *sibling;

	ctx_sync_event(leader);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry)
		ctx_sync_event(sibling);
}

static void ctx_add_values(struct perf_event *event,
			   struct perf_event_context *ctx, void *data)
{
	struct perf_event_values *sum = data;

	ctx_sync_event(event);
	sum->count += local64_read(&event->count);
	sum->enabled += event->total_time_enabled;
	sum->running += event->total_time_running;
}

/**
 * perf_event_add_values - add an event's count and times, up to date, to @sum
 * @event: the event
 * @sum: what they are added to
 *
 * Taken together under its context's lock, where it runs: read apart
 * from another CPU, the event's switch could come between the two
 * times, and the running one be ahead of the enabled one.
 */
void perf_event_add_values(struct perf_event *event,
			   struct perf_event_values *sum)
{
	perf_event_call_read(event, false, ctx_add_values, sum);
}

/**
 * perf_ctx_pin_task - the context of a task, kept with it
 * @task: the task
 *
 * Until perf_ctx_unpin(), the context is not swapped away from @task
 * (ctx_swap()) and holds a reference for the caller.
 *
 * Return: the context, or NULL if @task has none.
 */
struct perf_event_context *perf_ctx_pin_task(struct task_struct *task)
{
	struct perf_event_context *ctx;
	unsigned long flags;

	/*
	 * Only a switch away from current swaps its context: with interrupts
	 * off here, the context it has is its own, and alive, and no swap
	 * can look at it before the pin is seen.
	 */
	if (task == current) {
		local_irq_save(flags);
		ctx = READ_ONCE(task->perf_event_ctxp[0]);
		if (ctx) {
			atomic_inc(&ctx->pin_count);
			perf_get_context(ctx);
		}
		local_irq_restore(flags);
		return ctx;
	}

	/* Contexts are freed after a grace period: safe to lock here. */
	rcu_read_lock();
	for (;;) {
		ctx = READ_ONCE(task->perf_event_ctxp[0]);
		if (!ctx)
			break;
		raw_spin_lock_irqsave(&ctx->lock, flags);
		if (ctx->task == task) {
			atomic_inc(&ctx->pin_count);
			perf_get_context(ctx);
			raw_spin_unlock_irqrestore(&ctx->lock, flags);
			break;
		}
		/* Swapped between the look and the lock: look again. */
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
	rcu_read_unlock();
	return ctx;
}

/**
 * perf_ctx_unpin - end perf_ctx_pin_task(), but keep the reference
 * @ctx: the context, which may then change hands again
 */
void perf_ctx_unpin(struct perf_event_context *ctx)
{
	atomic_dec(&ctx->pin_count);
}

/**
 * perf_ctx_clone_tag - the tag a copy of a context will share with it
 * @ctx: the pinned context of a forking task, whose mutex is held
 *
 * Return: @ctx's clone tag, given one now if it had none.
 */
u64 perf_ctx_clone_tag(struct perf_event_context *ctx)
{
	u64 tag = READ_ONCE(ctx->clone_tag);

	/*
	 * Already tagged: a change that clears the tag meanwhile is seen by
	 * perf_ctx_set_clone(), under the lock.
	 */
	if (tag)
		return tag;
	raw_spin_lock_irq(&ctx->lock);
	if (!ctx->clone_tag)
		WRITE_ONCE(ctx->clone_tag,
			   atomic64_inc_return(&perf_clone_tags));
	tag = ctx->clone_tag;
	raw_spin_unlock_irq(&ctx->lock);
	return tag;
}

/**
 * perf_ctx_set_clone - mark a new context as a copy of a forking task's
 * @ctx: the forking task's context, pinned, whose mutex is held
 * @copy: the new task's context, a copy of all of @ctx's events
 * @tag: what perf_ctx_clone_tag() gave before the copy was made
 *
 * Nothing is marked if @ctx changed meanwhile (an event disabled itself
 * without its mutex).
 */
void perf_ctx_set_clone(struct perf_event_context *ctx,
			struct perf_event_context *copy, u64 tag)
{
	raw_spin_lock_irq(&ctx->lock);
	if (ctx->clone_tag == tag)
		WRITE_ONCE(copy->clone_tag, tag);
	raw_spin_unlock_irq(&ctx->lock);
}

static void ctx_exec_events(struct perf_event *unused,
			    struct perf_event_context *ctx, void *data)
{
	struct perf_event *event, *tmp;

	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		if (event->attr.remove_on_exec) {
			ctx_del_event(event, ctx, NULL);
			event_set_state(event, PERF_EVENT_STATE_OFF);
		} else if (event->attr.enable_on_exec) {
			/* Once: a later exec leaves the event as it is. */
			event->attr.enable_on_exec = 0;
			ctx_changed(ctx);
			ctx_enable_event(event, ctx, NULL);
		}
	}
}

/**
 * perf_task_ctx_exec - the current task executed a new program
 *
 * Events opened with enable_on_exec start counting; events opened with
 * remove_on_exec leave the context, keeping their counts for read().
 */
void perf_task_ctx_exec(void)
{
	struct perf_event_context *ctx = perf_ctx_pin_task(current);

	if (!ctx)
		return;

	mutex_lock(&ctx->mutex);
	perf_ctx_call(ctx, NULL, ctx_exec_events, NULL);
	mutex_unlock(&ctx->mutex);
	perf_ctx_unpin(ctx);
	perf_put_context(ctx);
}

/**
 * perf_ctx_alloc_task - a new, empty context for a task
 * @task: the task, which the context will hold a reference on; or NULL
 *	to fill in later
 *
 * Return: the context, or NULL.
 */
struct perf_event_context *perf_ctx_alloc_task(struct task_struct *task)
{
	struct perf_event_context *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return NULL;
	perf_ctx_init(ctx);
	if (task)
		ctx->task = get_task_struct(task);
	return ctx;
}

/**
 * perf_ctx_task_data - give a task context its PMU's data for an event
 * @ctx: the context an event goes into: nothing to do for a CPU's
 * @event: the event; nothing to do unless its PMU's
 *	event_init gave it PERF_ATTACH_TASK_DATA
 *
 * The data is allocated once, zeroed, the first event that needs it
 * going in; may sleep.
 *
 * Return: 0, or -ENOMEM.
 */
int perf_ctx_task_data(struct perf_event_context *ctx, struct perf_event *event)
{
	void *data;

	if (!ctx->task || !(event->attach_state & PERF_ATTACH_TASK_DATA) ||
	    READ_ONCE(ctx->task_ctx_data))
		return 0;
	data = kzalloc(event->pmu->task_ctx_size, GFP_KERNEL);
	if (!data)
		return perf_refuse(-ENOMEM, "context: out of memory",
				   event->pmu->task_ctx_size);
	raw_spin_lock_irq(&ctx->lock);
	if (!ctx->task_ctx_data)
		swap(ctx->task_ctx_data, data);
	raw_spin_unlock_irq(&ctx->lock);
	kfree(data);
	return 0;
}

/**
 * perf_ctx_add_unscheduled - add an event to a context nobody runs yet
 * @ctx: the context of a task being forked
 * @event: the event, which takes a reference on @ctx
 */
void perf_ctx_add_unscheduled(struct perf_event_context *ctx,
			      struct perf_event *event)
{
	perf_get_context(ctx);
	event->ctx = ctx;
	raw_spin_lock_irq(&ctx->lock);
	ctx_add_event(event, ctx, NULL);
	raw_spin_unlock_irq(&ctx->lock);
}

/**
 * perf_ctx_del_unscheduled - take an event out of a context nobody runs
 * @event: the event, in a context of a task that exited or never ran
 */
void perf_ctx_del_unscheduled(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	raw_spin_lock_irq(&ctx->lock);
	ctx_del_event(event, ctx, NULL);
	raw_spin_unlock_irq(&ctx->lock);
}

/**
 * perf_find_get_context - the context a new event goes into
 * @task: the task for a per-task event, NULL for a CPU-wide one
 * @cpu: the CPU of a CPU-wide event
 *
 * A task gets its context on its first event and keeps it until it exits.
 * A task's context is pinned to it (perf_ctx_pin_task()) until
 * perf_install_in_context() puts the event in, or the caller gives up and
 * calls perf_ctx_unpin().
 *
 * Return: the context with a reference held for the caller, or
 * ERR_PTR(-ESRCH) if @task is exiting, ERR_PTR(-ENOMEM).
 */
struct perf_event_context *perf_find_get_context(struct task_struct *task,
						 int cpu)
{
	struct perf_event_context *ctx;

	if (!task) {
		ctx = &per_cpu_ptr(&perf_cpu_ctx, cpu)->ctx;
		perf_get_context(ctx);
		return ctx;
	}

	if (task->flags & PF_EXITING)
		return ERR_PTR(perf_refuse(-ESRCH, "pid: task exiting",
					   task_pid_vnr(task)));
	/*
	 * A context that exists stays until the task's exit, which the
	 * caller sees (TASK_TOMBSTONE) under the context's mutex.
	 */
	ctx = perf_ctx_pin_task(task);
	if (ctx)
		return ctx;

	/* The first event: made and published against a concurrent exit. */
	mutex_lock(&task->perf_event_mutex);
	if (task->flags & PF_EXITING) {
		mutex_unlock(&task->perf_event_mutex);
		return ERR_PTR(perf_refuse(-ESRCH, "pid: task exiting",
					   task_pid_vnr(task)));
	}
	ctx = perf_ctx_pin_task(task);
	if (!ctx) {
		ctx = perf_ctx_alloc_task(task);
		if (!ctx) {
			mutex_unlock(&task->perf_event_mutex);
			return ERR_PTR(perf_refuse(-ENOMEM,
						   "context: out of memory", 0));
		}
		atomic_set(&ctx->pin_count, 1);
		perf_get_context(ctx);
		/* Paired with the READ_ONCE()s of the scheduler hooks. */
		smp_store_release(&task->perf_event_ctxp[0], ctx);
	}
	mutex_unlock(&task->perf_event_mutex);
	return ctx;
}

static void ctx_exit_event(struct perf_event *event,
			   struct perf_event_context *ctx)
{
	if (event->state == PERF_EVENT_STATE_ACTIVE)
		event_sched_out(event, ctx);
	event_set_state(event, PERF_EVENT_STATE_EXIT);
}

/**
 * perf_task_ctx_exit - detach a task from its context
 * @task: the current task, exiting or executing a setuid program
 *
 * Stops the task's events for good and marks them exited: their last
 * counts stay readable through their files.  The task may get a new
 * context afterwards if it goes on living (exec).
 */
void perf_task_ctx_exit(struct task_struct *task)
{
	struct perf_event_context *ctx;
	struct perf_event *event, *tmp;
	LIST_HEAD(folded);

	mutex_lock(&task->perf_event_mutex);
	/* Pinned for good: it is the task's until it is detached below. */
	ctx = perf_ctx_pin_task(task);
	if (!ctx) {
		mutex_unlock(&task->perf_event_mutex);
		return;
	}

	mutex_lock(&ctx->mutex);
	raw_spin_lock_irq(&ctx->lock);
	ctx_sched_out(ctx);
	/* Stopped, but not exited yet: the task's events hear of it. */
	perf_record_exit(task, ctx);
	list_for_each_entry(event, &ctx->event_list, event_entry)
		ctx_exit_event(event, ctx);
	WRITE_ONCE(ctx->task, TASK_TOMBSTONE);
	WRITE_ONCE(task->perf_event_ctxp[0], NULL);
	raw_spin_unlock_irq(&ctx->lock);

	/* inherit_stat: each copy's final values, while its group is whole. */
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->parent && event->attr.inherit_stat)
			perf_record_read(event, task);
	}

	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		/* Inherited copies hand their counts to their parent. */
		if (event->parent && perf_inherit_fold(event)) {
			perf_ctx_del_unscheduled(event);
			list_add(&event->event_entry, &folded);
			continue;
		}
		/* Pollers see POLLHUP. */
		wake_up_all(&event->waitq);
	}
	mutex_unlock(&ctx->mutex);
	mutex_unlock(&task->perf_event_mutex);

	list_for_each_entry_safe(event, tmp, &folded, event_entry) {
		list_del_init(&event->event_entry);
		perf_event_put(event);
	}

	/* The reference the context held on the task. */
	put_task_struct(task);
	/* The task's reference on the context, and the pin's. */
	perf_put_context(ctx);
	perf_put_context(ctx);
}

/*
 * Start or stop a CPU's context, on the CPU itself.  The hotplug "prepare"
 * step calls in too, from another CPU while this one is offline: there is
 * nothing to do then.
 */
static void perf_cpu_ctx_switch(unsigned int cpu, bool online)
{
	struct perf_cpu_context *cpuctx = per_cpu_ptr(&perf_cpu_ctx, cpu);
	unsigned long flags;

	if (!cpu_online(cpu) || WARN_ON_ONCE(cpu != raw_smp_processor_id()))
		return;

	raw_spin_lock_irqsave(&cpuctx->ctx.lock, flags);
	if (online)
		ctx_sched_in(&cpuctx->ctx);
	else
		ctx_sched_out(&cpuctx->ctx);
	raw_spin_unlock_irqrestore(&cpuctx->ctx.lock, flags);
}

/**
 * perf_event_init_cpu - a CPU is coming up (cpuhp "perf:prepare", "perf:online")
 * @cpu: the CPU
 *
 * On the CPU itself (the online step), its context starts running.
 *
 * Return: 0.
 */
int perf_event_init_cpu(unsigned int cpu)
{
	perf_cpu_ctx_switch(cpu, true);
	return 0;
}

/**
 * perf_event_exit_cpu - a CPU is going down (cpuhp teardown)
 * @cpu: the CPU
 *
 * On the CPU itself, its context stops; its events keep their counts and
 * start again when the CPU comes back.
 *
 * Return: 0.
 */
int perf_event_exit_cpu(unsigned int cpu)
{
	perf_cpu_ctx_switch(cpu, false);
	return 0;
}

/**
 * perf_cpu_ctx_this - the context of this CPU's CPU-wide events
 *
 * Preemption off.
 *
 * Return: the context.
 */
struct perf_event_context *perf_cpu_ctx_this(void)
{
	return &this_cpu_ptr(&perf_cpu_ctx)->ctx;
}

/**
 * perf_contexts_init - set up every possible CPU's context at boot
 */
void perf_contexts_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct perf_event_context *ctx = &per_cpu_ptr(&perf_cpu_ctx, cpu)->ctx;

		perf_ctx_init(ctx);
		ctx->cpu = cpu;
	}
	/* The boot CPU is online before the hotplug callbacks exist. */
	perf_event_init_cpu(smp_processor_id());
}
