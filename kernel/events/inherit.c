// SPDX-License-Identifier: GPL-2.0
/*
 * Inheritance (attr.inherit): a task's events follow the tasks it forks.
 *
 * At fork, every inheritable group of the parent task's context is copied
 * into a new context of the child.  Each copy points to the event user
 * space opened (its @parent, even when forked from a copy), which lists
 * its live copies on child_list.  A read of the parent adds up its own
 * count, its live copies' counts and what exited copies handed back.
 * When a child exits, its copies fold their counts and times into their
 * parent and go away; when the parent is closed, its copies go with it.
 *
 * Who frees a copy is decided under the parent's child_mutex: whoever
 * takes it off child_list (the child's exit, or the parent's release).
 * Lock order: a context's mutex, then an event's child_mutex.
 *
 * A child's context that copies every event of the forking task's gets
 * the clone tag of that context (context.c): the scheduler may then
 * exchange the two, or any two with the same tag, between their tasks.
 * Not for events that know their task beyond their context (breakpoints
 * hold debug register slots for it; trace and probe events filter on
 * it).
 */
#include <linux/perf_event.h>
#include <linux/sched/task.h>

#include "internal.h"

static struct perf_event *perf_inherit_event(struct perf_event *from,
					     struct perf_event *leader,
					     struct task_struct *child,
					     struct perf_event_context *ctx)
{
	struct perf_event *parent = from->parent ?: from;
	struct perf_event *event;

	event = perf_event_alloc(&parent->attr, parent->cpu, child, leader,
				 parent, -1, parent->overflow_handler,
				 parent->overflow_handler_context);
	if (IS_ERR(event))
		return event;

	/* @from's state changes at each switch of its task: READ_ONCE(). */
	event->state = READ_ONCE(from->state) >= PERF_EVENT_STATE_INACTIVE ?
		       PERF_EVENT_STATE_INACTIVE : PERF_EVENT_STATE_OFF;
	perf_ctx_add_unscheduled(ctx, event);

	mutex_lock(&parent->child_mutex);
	list_add_tail(&event->child_entry, &parent->child_list);
	mutex_unlock(&parent->child_mutex);
	return event;
}

static int perf_inherit_group(struct perf_event *leader,
			      struct task_struct *child, u64 clone_flags)
{
	struct perf_event_context *ctx = child->perf_event_ctxp[0];
	struct perf_event *copy, *sibling;
	int ret;

	if (!leader->attr.inherit ||
	    READ_ONCE(leader->state) < PERF_EVENT_STATE_OFF)
		return 0;
	if (leader->attr.inherit_thread && !(clone_flags & CLONE_THREAD))
		return 0;

	if (!ctx) {
		ctx = perf_ctx_alloc_task(child);
		if (!ctx)
			return -ENOMEM;
		child->perf_event_ctxp[0] = ctx;
	}

	copy = perf_inherit_event(leader, NULL, child, ctx);
	if (IS_ERR(copy))
		return PTR_ERR(copy);
	ret = perf_ctx_task_data(ctx, copy);
	if (ret)
		return ret;

	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry) {
		struct perf_event *member;

		member = perf_inherit_event(sibling, copy, child, ctx);
		if (IS_ERR(member))
			return PTR_ERR(member);
		ret = perf_ctx_task_data(ctx, member);
		if (ret)
			return ret;
	}
	return 0;
}

static int perf_inherit_groups(struct list_head *groups,
			       struct task_struct *child, u64 clone_flags)
{
	struct perf_event *leader;
	int ret;

	list_for_each_entry(leader, groups, group_entry) {
		ret = perf_inherit_group(leader, child, clone_flags);
		if (ret)
			return ret;
	}
	return 0;
}

/* May the events of @ctx count for any task that has a copy of them? */
static bool perf_inherit_swappable(struct perf_event_context *ctx)
{
	struct perf_event *event;

	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->attr.type == PERF_TYPE_BREAKPOINT ||
		    event->attr.type == PERF_TYPE_TRACEPOINT ||
		    perf_probe_pmu_owns(event))
			return false;
	}
	return true;
}

/**
 * perf_inherit_task - copy the inheritable events of current to a child
 * @child: the task being forked, not running yet
 * @clone_flags: its clone flags (inherit_thread follows CLONE_THREAD)
 *
 * Return: 0, or a negative errno with nothing left behind.
 */
int perf_inherit_task(struct task_struct *child, u64 clone_flags)
{
	struct perf_event_context *ctx = perf_ctx_pin_task(current);
	struct perf_event_context *copy;
	u64 tag;
	int ret;

	if (!ctx)
		return 0;

	mutex_lock(&ctx->mutex);
	tag = perf_ctx_clone_tag(ctx);
	ret = perf_inherit_groups(&ctx->pinned_groups, child, clone_flags);
	if (!ret)
		ret = perf_inherit_groups(&ctx->flexible_groups, child,
					  clone_flags);
	copy = child->perf_event_ctxp[0];
	if (!ret && copy && copy->nr_events == ctx->nr_events &&
	    perf_inherit_swappable(copy))
		perf_ctx_set_clone(ctx, copy, tag);
	mutex_unlock(&ctx->mutex);
	perf_ctx_unpin(ctx);
	perf_put_context(ctx);

	if (ret)
		perf_inherit_free_task(child);
	return ret;
}

/* Take a copy off its parent's list; true if we did, and so own it. */
static bool perf_inherit_unlink(struct perf_event *child)
{
	struct perf_event *parent = child->parent;
	bool owned;

	mutex_lock(&parent->child_mutex);
	owned = !list_empty(&child->child_entry);
	list_del_init(&child->child_entry);
	mutex_unlock(&parent->child_mutex);
	return owned;
}

/**
 * perf_inherit_free_task - drop the copies of a child whose fork failed
 * @child: the task that never ran
 */
void perf_inherit_free_task(struct task_struct *child)
{
	struct perf_event_context *ctx = child->perf_event_ctxp[0];
	struct perf_event *event, *tmp;

	if (!ctx)
		return;
	child->perf_event_ctxp[0] = NULL;

	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		if (perf_inherit_unlink(event)) {
			perf_ctx_del_unscheduled(event);
			perf_event_put(event);
		}
	}
	/*
	 * Copies that a concurrent close of their parent took are freed
	 * there; they hold references on the task, which is about to be
	 * freed without regard to them: wait until they are gone.
	 */
	wait_var_event(&ctx->refcount, refcount_read(&ctx->refcount) == 1);
	/* The task's reference. */
	perf_put_context(ctx);
}

/**
 * perf_inherit_fold - hand the final count of an exiting copy to its parent
 * @child: the copy, stopped; its context's mutex is held
 *
 * Return: true if the caller now owns the copy and must free it; false if
 * the parent's release owns it.
 */
bool perf_inherit_fold(struct perf_event *child)
{
	struct perf_event *parent = child->parent;
	bool owned;

	mutex_lock(&parent->child_mutex);
	owned = !list_empty(&child->child_entry);
	if (owned) {
		atomic64_add(local64_read(&child->count), &parent->child_count);
		parent->child_total_time_enabled += child->total_time_enabled;
		parent->child_total_time_running += child->total_time_running;
		list_del_init(&child->child_entry);
		/*
		 * The last copy of an exited event: poll() says EPOLLHUP now.
		 * (Its own context may have left with another task, see
		 * context.c.)
		 */
		if (READ_ONCE(parent->state) <= PERF_EVENT_STATE_EXIT &&
		    list_empty(&parent->child_list))
			wake_up_all(&parent->waitq);
	}
	mutex_unlock(&parent->child_mutex);
	return owned;
}

/**
 * perf_inherit_release_children - free the copies of an event being closed
 * @event: the event user space opened
 */
void perf_inherit_release_children(struct perf_event *event)
{
	struct perf_event *child, *tmp;
	LIST_HEAD(mine);

	/*
	 * Nothing to free without copies.  (A fork from a task holding a
	 * copy may add one later: it goes when its task exits, just as one
	 * added after the walk below would.)
	 */
	if (list_empty_careful(&event->child_list))
		return;

	/* A copy has no owner, so its owner_entry is free to use here. */
	mutex_lock(&event->child_mutex);
	list_for_each_entry_safe(child, tmp, &event->child_list, child_entry) {
		list_del_init(&child->child_entry);
		list_add_tail(&child->owner_entry, &mine);
	}
	mutex_unlock(&event->child_mutex);

	list_for_each_entry_safe(child, tmp, &mine, owner_entry) {
		struct perf_event_context *ctx = child->ctx;

		list_del_init(&child->owner_entry);
		mutex_lock(&ctx->mutex);
		perf_remove_from_context(child);
		mutex_unlock(&ctx->mutex);
		perf_event_put(child);
	}
}

/**
 * perf_inherit_sum - what an event's copies add to its value and times
 * @event: the event user space opened
 * @sum: filled with the counts and times of live and exited copies
 */
void perf_inherit_sum(struct perf_event *event, struct perf_event_values *sum)
{
	struct perf_event *child;

	mutex_lock(&event->child_mutex);
	sum->count = atomic64_read(&event->child_count);
	sum->enabled = event->child_total_time_enabled;
	sum->running = event->child_total_time_running;
	list_for_each_entry(child, &event->child_list, child_entry)
		perf_event_add_values(child, sum);
	mutex_unlock(&event->child_mutex);
}

/**
 * perf_event_apply_to_copies - apply an operation to an event and its copies
 * @event: the event user space opened
 * @fn: the operation
 */
void perf_event_apply_to_copies(struct perf_event *event, perf_event_op_t fn)
{
	struct perf_event *child;

	fn(event);
	/* Only an inherit event ever has copies. */
	if (!event->attr.inherit)
		return;
	mutex_lock(&event->child_mutex);
	list_for_each_entry(child, &event->child_list, child_entry)
		fn(child);
	mutex_unlock(&event->child_mutex);
}
