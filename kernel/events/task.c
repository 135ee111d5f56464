// SPDX-License-Identifier: GPL-2.0
/*
 * What tasks do to their events: fork, exit and exec, and
 * prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE).  The records tasks leave
 * in ring buffers (fork, exit, comm, mmap changes) are in records.c.
 *
 * Each task has two lists.  Its context (perf_event_ctxp[0]) holds the
 * events that follow it.  Its perf_event_list holds the events it
 * created, whatever they follow, which is what prctl() acts on.
 * task->perf_event_mutex protects both the context pointer and the
 * owner list; it is taken before any context's mutex.
 */
#include <linux/perf_event.h>
#include <linux/sched/task.h>

#include "internal.h"

/**
 * perf_event_add_to_owner - record that current created @event
 * @event: a new event
 */
void perf_event_add_to_owner(struct perf_event *event)
{
	event->owner = get_task_struct(current);
	mutex_lock(&current->perf_event_mutex);
	list_add_tail(&event->owner_entry, &current->perf_event_list);
	mutex_unlock(&current->perf_event_mutex);
}

/**
 * perf_event_remove_from_owner - forget the creator of @event
 * @event: an event being released
 */
void perf_event_remove_from_owner(struct perf_event *event)
{
	struct task_struct *owner = event->owner;

	if (!owner)
		return;

	mutex_lock(&owner->perf_event_mutex);
	list_del_init(&event->owner_entry);
	mutex_unlock(&owner->perf_event_mutex);
	event->owner = NULL;
	put_task_struct(owner);
}

static int perf_owner_for_each(perf_event_op_t fn)
{
	struct perf_event *event;

	mutex_lock(&current->perf_event_mutex);
	list_for_each_entry(event, &current->perf_event_list, owner_entry) {
		struct perf_event_context *ctx = perf_event_ctx_lock(event);

		perf_event_apply_to_copies(event, fn);
		mutex_unlock(&ctx->mutex);
	}
	mutex_unlock(&current->perf_event_mutex);
	return 0;
}

/**
 * perf_event_task_enable - prctl(PR_TASK_PERF_EVENTS_ENABLE)
 *
 * Enables every event the calling task created.
 *
 * Return: 0.
 */
int perf_event_task_enable(void)
{
	return perf_owner_for_each(perf_event_enable_nogroup);
}

/**
 * perf_event_task_disable - prctl(PR_TASK_PERF_EVENTS_DISABLE)
 *
 * Disables every event the calling task created.
 *
 * Return: 0.
 */
int perf_event_task_disable(void)
{
	return perf_owner_for_each(perf_event_disable_nogroup);
}

/**
 * perf_event_init_task - set up perf state in a new task
 * @child: the task being created, a copy of its parent
 * @clone_flags: the clone flags
 *
 * The copy must not share the parent's events; it gets copies of the
 * parent's inheritable ones.  On failure nothing is left to undo.
 *
 * Return: 0 or a negative errno.
 */
int perf_event_init_task(struct task_struct *child, u64 clone_flags)
{
	int i;

	for (i = 0; i < perf_nr_task_contexts; i++)
		child->perf_event_ctxp[i] = NULL;
	mutex_init(&child->perf_event_mutex);
	INIT_LIST_HEAD(&child->perf_event_list);
	return perf_inherit_task(child, clone_flags);
}

/**
 * perf_event_free_task - undo perf_event_init_task() for a failed fork
 * @task: the task that never ran
 */
void perf_event_free_task(struct task_struct *task)
{
	perf_inherit_free_task(task);
}

/**
 * perf_event_delayed_put - last check before a task_struct is freed
 * @task: the task
 */
void perf_event_delayed_put(struct task_struct *task)
{
	WARN_ON_ONCE(task->perf_event_ctxp[0]);
}

/**
 * perf_event_exit_task - a task stops being monitorable
 * @task: the current task: exiting, or executing a setuid program
 *
 * Its events stop and keep their final counts; the events it created
 * stay with their files but no longer name it as their owner.
 */
void perf_event_exit_task(struct task_struct *task)
{
	struct perf_event *event, *tmp;

	/*
	 * Only the task adds to its list, so an empty one stays empty (a
	 * forked child that opened nothing).
	 */
	if (!list_empty(&task->perf_event_list)) {
		mutex_lock(&task->perf_event_mutex);
		list_for_each_entry_safe(event, tmp, &task->perf_event_list,
					 owner_entry)
			list_del_init(&event->owner_entry);
		mutex_unlock(&task->perf_event_mutex);
	}

	perf_task_ctx_exit(task);
	/* Its own events heard of the exit in there; now the CPU's. */
	perf_record_exit(task, NULL);
}

/**
 * perf_event_exec - the current task executed a new program
 *
 * Applies enable_on_exec and remove_on_exec.  Runs before the exec of a
 * setuid program detaches the task's events (perf_event_exit_task()).
 */
void perf_event_exec(void)
{
	perf_task_ctx_exec();
}
