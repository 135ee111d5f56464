// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cgroup events (PERF_FLAG_PID_CGROUP), the perf_event cgroup
 * controller, and the cgroup ids of PERF_SAMPLE_CGROUP and of
 * PERF_RECORD_CGROUP, which tells of each new cgroup (attr.cgroup).
 *
 * A cgroup event is a CPU-wide event that counts only while the task
 * running on its CPU is in its cgroup or in a cgroup below it.  It sits
 * in the CPU's context like any other CPU-wide event; context.c asks
 * perf_cgroup_match() whether its group may go on, and the scheduler
 * hook calls perf_cpu_ctx_cgroup_switch() when the task coming in belongs
 * to another cgroup than the one going out.
 *
 * Each CPU with cgroup events remembers the cgroup of the task running
 * on it, its "current" cgroup.  A cgroup is active on a CPU while the
 * current cgroup is it or one of its descendants.  Every cgroup has, for
 * each CPU, a clock that advances only while it is active there and the
 * CPU's context runs; a cgroup event takes its time_enabled and
 * time_running from that clock, so they stand still while none of the
 * cgroup's tasks runs on the CPU.  Only the clocks of the current cgroup
 * and its ancestors move: the others are frozen, and their timestamps
 * are set again when they become active.
 *
 * Locking: a CPU's perf_cgroup_cpu and the clocks of that CPU change
 * only with the CPU context's lock held, interrupts off, on the CPU
 * itself while its context is scheduled in (from anywhere while it is
 * not).  The scheduler hook peeks at nr_events without the lock; it runs
 * on the CPU with interrupts off.  A cgroup event holds a reference on
 * its cgroup's css from open to free.
 */
#include <linux/perf_event.h>
#include <linux/cgroup.h>
#include <linux/file.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "internal.h"

/*
 * Enabled while any cgroup event exists: the scheduler hooks track
 * cgroups and the context code tells cgroup events apart.
 */
DEFINE_STATIC_KEY_FALSE(perf_cgroup_events);

static DEFINE_PER_CPU(struct perf_cgroup_cpu, perf_cgroup_cpus);

static struct perf_cgroup *perf_cgroup_from_css(struct cgroup_subsys_state *css)
{
	return css ? container_of(css, struct perf_cgroup, css) : NULL;
}

static struct perf_cgroup *perf_cgroup_parent(struct perf_cgroup *cgrp)
{
	return perf_cgroup_from_css(cgrp->css.parent);
}

/*
 * The perf_event cgroup of @task.  Callers run with interrupts off or in
 * an RCU read-side section, which keeps the css alive.
 */
static struct perf_cgroup *perf_cgroup_of_task(struct task_struct *task)
{
	return perf_cgroup_from_css(task_css_check(task, perf_event_cgrp_id,
						   true));
}

/**
 * perf_cgroup_id - the id of a task's perf_event cgroup
 * @task: the task; the caller keeps it alive
 *
 * What PERF_SAMPLE_CGROUP carries: the cgroup's kernfs id, which user
 * space finds with name_to_handle_at() on the cgroup's directory.
 *
 * Return: the id of the cgroup @task belongs to in the hierarchy the
 * perf_event controller is attached to.
 */
u64 perf_cgroup_id(struct task_struct *task)
{
	u64 id;

	rcu_read_lock();
	id = cgroup_id(perf_cgroup_of_task(task)->css.cgroup);
	rcu_read_unlock();
	return id;
}

/**
 * perf_cgroup_sample_id - the cgroup id a sample carries (PERF_SAMPLE_CGROUP)
 *
 * Return: perf_cgroup_id() of the current task.
 */
u64 perf_cgroup_sample_id(void)
{
	return perf_cgroup_id(current);
}

/*
 * The clock primitives work on one CPU's perf_cgroup_cpu; they are
 * separate so that the KUnit tests can drive them on a made-up hierarchy.
 */

/**
 * perf_cgroup_cpu_advance - run the clocks of the active cgroups up to @now
 * @pcc: the CPU's cgroup state
 * @cpu: the CPU
 * @now: perf_clock() on @cpu
 */
void perf_cgroup_cpu_advance(struct perf_cgroup_cpu *pcc, int cpu, u64 now)
{
	struct perf_cgroup *cgrp;

	for (cgrp = pcc->cur; cgrp; cgrp = perf_cgroup_parent(cgrp)) {
		struct perf_cgroup_clock *clock = per_cpu_ptr(cgrp->clock, cpu);

		/* Read without the lock: perf_cgroup_event_time_now(). */
		u64 stamp = clock->time - clock->offset;

		if (now > stamp)
			WRITE_ONCE(clock->time, clock->time + now - stamp);
		WRITE_ONCE(clock->offset, clock->time - now);
	}
}

/**
 * perf_cgroup_cpu_set - make @cgrp the current cgroup of a CPU
 * @pcc: the CPU's cgroup state
 * @cpu: the CPU
 * @cgrp: the cgroup of the task running there now
 * @now: perf_clock() on @cpu, or 0 if the clocks are not running
 *
 * The clocks of the previous current cgroup's line must have been
 * advanced first; the clocks of @cgrp's line start from @now.
 */
void perf_cgroup_cpu_set(struct perf_cgroup_cpu *pcc, int cpu,
			 struct perf_cgroup *cgrp, u64 now)
{
	struct perf_cgroup_clock *clock;
	struct perf_cgroup *pos;

	/* The clocks first: an NMI that sees @cgrp current reads them. */
	for (pos = cgrp; pos; pos = perf_cgroup_parent(pos)) {
		clock = per_cpu_ptr(pos->clock, cpu);
		WRITE_ONCE(clock->offset, clock->time - now);
	}
	WRITE_ONCE(pcc->cur, cgrp);
}

/**
 * perf_cgroup_cpu_covers - is @cgrp active on the CPU of @pcc?
 * @pcc: the CPU's cgroup state
 * @cgrp: a cgroup
 *
 * Return: true if the CPU's current cgroup is @cgrp or a descendant.
 */
bool perf_cgroup_cpu_covers(struct perf_cgroup_cpu *pcc,
			    struct perf_cgroup *cgrp)
{
	struct perf_cgroup *pos;

	for (pos = pcc->cur; pos; pos = perf_cgroup_parent(pos)) {
		if (pos == cgrp)
			return true;
	}
	return false;
}

/**
 * perf_cgroup_match - may a cgroup event count on this CPU now?
 * @event: a cgroup event of this CPU's context
 *
 * Return: true while a task of its cgroup, or of a cgroup below, runs.
 */
bool perf_cgroup_match(struct perf_event *event)
{
	return perf_cgroup_cpu_covers(this_cpu_ptr(&perf_cgroup_cpus),
				      event->cgrp);
}

/**
 * perf_cgroup_event_time - the clock a cgroup event's times follow
 * @event: a cgroup event; its context's lock is held
 *
 * Return: the time its cgroup has been active on the event's CPU.
 */
u64 perf_cgroup_event_time(struct perf_event *event)
{
	return per_cpu_ptr(event->cgrp->clock, event->cpu)->time;
}

/**
 * perf_cgroup_event_time_now - perf_cgroup_event_time() without the lock
 * @event: a cgroup event
 *
 * For samples, possibly in NMI context.  On the event's CPU, while its
 * cgroup is active there, the clock is read as it stands now; elsewhere
 * it is the time of the clock's last update.
 *
 * Return: the time its cgroup has been active on the event's CPU.
 */
u64 perf_cgroup_event_time_now(struct perf_event *event)
{
	struct perf_cgroup_clock *clock = per_cpu_ptr(event->cgrp->clock,
						      event->cpu);
	u64 time = READ_ONCE(clock->time);

	if (event->cpu != raw_smp_processor_id() ||
	    !READ_ONCE(event->ctx->is_active) || !perf_cgroup_match(event))
		return time;
	/* Running: the offset, never behind the last update. */
	return max(perf_clock() + READ_ONCE(clock->offset), time);
}

/**
 * perf_cgroup_ctx_update_time - advance the cgroup clocks with a CPU's
 * @ctx: a CPU context, scheduled in, on its CPU, locked
 * @now: the time its own clock was advanced to
 */
void perf_cgroup_ctx_update_time(struct perf_event_context *ctx, u64 now)
{
	struct perf_cgroup_cpu *pcc = per_cpu_ptr(&perf_cgroup_cpus, ctx->cpu);

	if (pcc->nr_events)
		perf_cgroup_cpu_advance(pcc, ctx->cpu, now);
}

/**
 * perf_cgroup_ctx_sched_in - a CPU context starts running
 * @ctx: the CPU context, locked, on its CPU, its clock just stamped
 *
 * The current task's cgroup becomes the CPU's current one.
 */
void perf_cgroup_ctx_sched_in(struct perf_event_context *ctx)
{
	struct perf_cgroup_cpu *pcc = per_cpu_ptr(&perf_cgroup_cpus, ctx->cpu);

	if (pcc->nr_events)
		perf_cgroup_cpu_set(pcc, ctx->cpu, perf_cgroup_of_task(current),
				    perf_ctx_stamp(ctx));
}

/**
 * perf_cgroup_ctx_switching - would @next change this CPU's cgroup?
 * @ctx: the CPU context of this CPU, locked or not
 * @next: the task about to run here
 *
 * Interrupts off.  Without the lock the answer may be stale only while
 * the context is not scheduled in, when nothing depends on it.
 *
 * Return: true if the CPU has cgroup events and @next is in another
 * cgroup than the current one.
 */
bool perf_cgroup_ctx_switching(struct perf_event_context *ctx,
			       struct task_struct *next)
{
	struct perf_cgroup_cpu *pcc = per_cpu_ptr(&perf_cgroup_cpus, ctx->cpu);

	return READ_ONCE(pcc->nr_events) &&
	       perf_cgroup_of_task(next) != READ_ONCE(pcc->cur);
}

/**
 * perf_cgroup_ctx_switch - the task coming in may be in another cgroup
 * @ctx: the CPU context of this CPU, locked, its clock up to date if it
 *	is scheduled in
 * @next: the task that runs next on this CPU
 *
 * Return: true if the current cgroup changed, and with it the cgroup
 * events that may count.
 */
bool perf_cgroup_ctx_switch(struct perf_event_context *ctx,
			    struct task_struct *next)
{
	struct perf_cgroup_cpu *pcc = per_cpu_ptr(&perf_cgroup_cpus, ctx->cpu);

	if (!perf_cgroup_ctx_switching(ctx, next))
		return false;
	perf_cgroup_cpu_set(pcc, ctx->cpu, perf_cgroup_of_task(next),
			    ctx->is_active ? perf_ctx_stamp(ctx) : 0);
	return true;
}

/**
 * perf_cgroup_ctx_add - a cgroup event joins a CPU context
 * @ctx: the CPU context, locked
 * @event: the event
 *
 * The first one makes the CPU track the cgroup of its current task.
 */
void perf_cgroup_ctx_add(struct perf_event_context *ctx,
			 struct perf_event *event)
{
	struct perf_cgroup_cpu *pcc = per_cpu_ptr(&perf_cgroup_cpus, ctx->cpu);

	WRITE_ONCE(pcc->nr_events, pcc->nr_events + 1);
	if (pcc->nr_events > 1)
		return;
	/* Not running: perf_cgroup_ctx_sched_in() sets it when it does. */
	WRITE_ONCE(pcc->cur, NULL);
	if (ctx->is_active)
		perf_cgroup_cpu_set(pcc, ctx->cpu, perf_cgroup_of_task(current),
				    perf_ctx_stamp(ctx));
}

/**
 * perf_cgroup_ctx_del - a cgroup event leaves a CPU context
 * @ctx: the CPU context, locked
 * @event: the event
 */
void perf_cgroup_ctx_del(struct perf_event_context *ctx,
			 struct perf_event *event)
{
	struct perf_cgroup_cpu *pcc = per_cpu_ptr(&perf_cgroup_cpus, ctx->cpu);

	WRITE_ONCE(pcc->nr_events, pcc->nr_events - 1);
	if (!pcc->nr_events)
		WRITE_ONCE(pcc->cur, NULL);
}

/**
 * perf_cgroup_sched_out - the scheduler switches from @prev to @next
 * @prev: the task leaving this CPU
 * @next: the task coming
 *
 * Counts PERF_COUNT_SW_CGROUP_SWITCHES; interrupts off.
 */
void perf_cgroup_sched_out(struct task_struct *prev, struct task_struct *next)
{
	if (perf_cgroup_of_task(prev) != perf_cgroup_of_task(next))
		perf_sw_event_sched(PERF_COUNT_SW_CGROUP_SWITCHES);
}

/**
 * perf_cgroup_connect - make a new event count for the cgroup behind @fd
 * @event: the event, not yet in a context
 * @fd: a descriptor of a cgroup directory
 *
 * Return: 0; -EBADF if @fd is no open file or not a cgroup directory;
 * -ENOENT if the cgroup is going away or its hierarchy has no perf_event
 * controller.
 */
int perf_cgroup_connect(struct perf_event *event, int fd)
{
	struct cgroup_subsys_state *css;
	struct fd f = fdget(fd);

	if (!f.file)
		return perf_refuse(-EBADF, "pid: cgroup fd not open", fd);
	css = css_tryget_online_from_dir(f.file->f_path.dentry,
					 &perf_event_cgrp_subsys);
	fdput(f);
	if (IS_ERR(css))
		return perf_refuse(PTR_ERR(css), PTR_ERR(css) == -EBADF ?
				   "pid: not a cgroup directory" :
				   "pid: cgroup without perf_event, or dying",
				   fd);

	event->cgrp = perf_cgroup_from_css(css);
	static_branch_inc(&perf_cgroup_events);
	/* The scheduler hooks must run to follow the cgroups. */
	static_branch_inc(&perf_sched_events.key);
	return 0;
}

/**
 * perf_cgroup_detach - drop what perf_cgroup_connect() took
 * @event: an event being freed, out of its context
 */
void perf_cgroup_detach(struct perf_event *event)
{
	if (!event->cgrp)
		return;
	static_branch_slow_dec_deferred(&perf_sched_events);
	static_branch_dec(&perf_cgroup_events);
	css_put(&event->cgrp->css);
	event->cgrp = NULL;
}

/**
 * perf_cgroup_valid_group - may @event join a group led by @leader?
 * @leader: the leader
 * @event: the new member
 *
 * A task is in one cgroup at a time: a cgroup event may only join a
 * group of the same cgroup.
 *
 * Return: true if it may.
 */
bool perf_cgroup_valid_group(struct perf_event *leader,
			     struct perf_event *event)
{
	return !event->cgrp || event->cgrp == leader->cgrp;
}

static void perf_cgroup_move_ipi(void *info)
{
	struct task_struct *task = info;

	/* Switched out since: it was seen in its new cgroup at the switch. */
	if (current == task)
		perf_cpu_ctx_cgroup_switch(task);
}

/* Tasks moved to another cgroup: those running now switch cgroup here. */
static void perf_cgroup_attach(struct cgroup_taskset *tset)
{
	struct cgroup_subsys_state *css;
	struct task_struct *task;

	if (!static_branch_unlikely(&perf_cgroup_events))
		return;

	cgroup_taskset_for_each(task, css, tset) {
		if (task_curr(task))
			smp_call_function_single(task_cpu(task),
						 perf_cgroup_move_ipi, task, 1);
	}
}

/* PERF_RECORD_CGROUP */

struct perf_cgroup_sb {
	u64		id;
	unsigned int	size;		/* of path, padded */
	const char	*path;
};

static void perf_cgroup_record_output(struct perf_event *event, void *data)
{
	struct perf_cgroup_sb *c = data;
	struct perf_event_header header = { .type = PERF_RECORD_CGROUP };

	if (event->attr.cgroup)
		perf_sb_output(event, &header, &c->id, sizeof(c->id), c->path,
			       c->size);
}

/*
 * A cgroup came online: PERF_RECORD_CGROUP, with its id (what
 * PERF_SAMPLE_CGROUP carries) and its path as the task making it sees
 * it, for the events of that task and of this CPU that set attr.cgroup.
 * Process context, with cgroup_mutex held.
 */
static void perf_cgroup_record(struct cgroup *cgroup)
{
	/* No path cgroup_path() gives; NUL padded to 8 bytes like one. */
	static const char no_memory[16] = "//no memory";
	struct perf_cgroup_sb c = { .id = cgroup_id(cgroup) };
	char *buf;

	if (!atomic_read(&perf_sb_nr[PERF_SB_CGROUP]))
		return;
	/* Zeroed, so that the padding after the path is. */
	buf = kzalloc(PATH_MAX, GFP_KERNEL);
	if (buf)
		cgroup_path(cgroup, buf, PATH_MAX - sizeof(u64));
	c.path = buf ?: no_memory;
	c.size = ALIGN(strlen(c.path) + 1, sizeof(u64));
	perf_sb_deliver(NULL, true, true, perf_cgroup_record_output, &c);
	kfree(buf);
}

static struct cgroup_subsys_state *
perf_cgroup_css_alloc(struct cgroup_subsys_state *parent)
{
	struct perf_cgroup *cgrp = kzalloc(sizeof(*cgrp), GFP_KERNEL);

	if (!cgrp)
		return ERR_PTR(-ENOMEM);
	cgrp->clock = alloc_percpu(struct perf_cgroup_clock);
	if (!cgrp->clock) {
		kfree(cgrp);
		return ERR_PTR(-ENOMEM);
	}
	return &cgrp->css;
}

static int perf_cgroup_css_online(struct cgroup_subsys_state *css)
{
	perf_cgroup_record(css->cgroup);
	return 0;
}

static void perf_cgroup_css_free(struct cgroup_subsys_state *css)
{
	struct perf_cgroup *cgrp = perf_cgroup_from_css(css);

	free_percpu(cgrp->clock);
	kfree(cgrp);
}

/*
 * The perf_event controller: on cgroup v2 it is on in every cgroup
 * without being asked for; on v1 it is mounted as "perf_event".
 */
struct cgroup_subsys perf_event_cgrp_subsys = {
	.css_alloc	= perf_cgroup_css_alloc,
	.css_online	= perf_cgroup_css_online,
	.css_free	= perf_cgroup_css_free,
	.attach		= perf_cgroup_attach,
	.implicit_on_dfl = true,
	.threaded	= true,
};
