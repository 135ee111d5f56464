// SPDX-License-Identifier: GPL-2.0
/*
 * The life of an event: allocation, binding to its PMU, references,
 * release by its owner and freeing; and the kernel-internal counters
 * other subsystems create (hardware breakpoints, watchdogs).
 *
 * An event is referenced by its file (or kernel user) and by whoever is
 * reading it at the moment.  Its memory is freed after an RCU grace
 * period, because the software event paths walk per-CPU lists of events
 * under RCU.
 */
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/sched/task.h>
#include <linux/pid_namespace.h>
#include <linux/timekeeping.h>

#include "internal.h"

static atomic64_t perf_event_ids;

/*
 * The clocks attr.clockid may name, and whether each may be read in NMI
 * context: a PMU that raises its overflows as NMIs needs one that may.
 */
static const struct {
	clockid_t	id;
	bool		nmi_safe;
	u64		(*read)(void);
} perf_clocks[] = {
	{ CLOCK_MONOTONIC,	true,	ktime_get_mono_fast_ns },
	{ CLOCK_MONOTONIC_RAW,	true,	ktime_get_raw_fast_ns },
	{ CLOCK_REALTIME,	false,	ktime_get_real_ns },
	{ CLOCK_BOOTTIME,	false,	ktime_get_boottime_ns },
	{ CLOCK_TAI,		false,	ktime_get_clocktai_ns },
};

static int perf_event_set_clock(struct perf_event *event)
{
	bool nmi = !(event->pmu->capabilities & PERF_PMU_CAP_NO_NMI);
	int i;

	if (!event->attr.use_clockid)
		return 0;
	for (i = 0; i < ARRAY_SIZE(perf_clocks); i++) {
		if (perf_clocks[i].id != event->attr.clockid)
			continue;
		if (nmi && !perf_clocks[i].nmi_safe)
			return perf_refuse(-EINVAL, "clockid: not NMI-safe",
					   event->attr.clockid);
		event->clock = perf_clocks[i].read;
		return 0;
	}
	return perf_refuse(-EINVAL, "clockid: unknown clock",
			   event->attr.clockid);
}

/**
 * perf_next_event_id - a fresh event id, never reused while the system runs
 *
 * Return: the id.
 */
u64 perf_next_event_id(void)
{
	return atomic64_inc_return(&perf_event_ids);
}

/* Undo what the PMU's event_init did. */
static void perf_event_destroy_pmu(struct perf_event *event)
{
	if (event->destroy)
		event->destroy(event);
	module_put(event->pmu->module);
}

/**
 * perf_event_alloc - create an event and let its PMU set it up
 * @attr: the checked attributes
 * @cpu: the CPU it counts on, or -1 for any
 * @task: the task it follows, or NULL for a CPU-wide event
 * @group_leader: the leader of the group it joins, or NULL
 * @parent: for an inherited copy, the event user space opened; or NULL
 * @cgroup_fd: for a cgroup event, a descriptor of its cgroup; or -1
 * @handler: overflow handler for kernel users, or NULL
 * @handler_context: passed to @handler
 *
 * The PMU sees @parent, and the attach state of a task's event is exactly
 * PERF_ATTACH_TASK while it sets the event up: the trace event code looks
 * at both to decide what to check.  A copy holds a reference on @parent.
 * Once the PMU has taken the event come, in this order, the AUX output,
 * the cgroup, the call chain buffers and the clock, as in Linux 6.1.
 *
 * Return: the event, with one reference for the caller, or an ERR_PTR.
 */
struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent, int cgroup_fd,
				    perf_overflow_handler_t handler,
				    void *handler_context)
{
	struct perf_event *event;
	int ret;

	event = kzalloc(sizeof(*event), GFP_KERNEL);
	if (!event)
		return ERR_PTR(perf_refuse(-ENOMEM, "event: out of memory", 0));

	INIT_LIST_HEAD(&event->event_entry);
	INIT_LIST_HEAD(&event->group_entry);
	INIT_LIST_HEAD(&event->sibling_list);
	INIT_LIST_HEAD(&event->sibling_entry);
	INIT_LIST_HEAD(&event->owner_entry);
	atomic_long_set(&event->refcount, 1);
	init_waitqueue_head(&event->waitq);
	mutex_init(&event->child_mutex);
	INIT_LIST_HEAD(&event->child_list);
	INIT_LIST_HEAD(&event->child_entry);
	INIT_LIST_HEAD(&event->rb_entry);
	event->rb_left = get_completed_synchronize_rcu();
	INIT_LIST_HEAD(&event->sb_entry);

	event->attr = *attr;
	event->cpu = cpu;
	event->oncpu = -1;
	event->group_leader = group_leader ?: event;
	event->parent = parent;
	event->state = attr->disabled ? PERF_EVENT_STATE_OFF :
					PERF_EVENT_STATE_INACTIVE;
	event->id = perf_next_event_id();
	event->overflow_handler = handler;
	event->overflow_handler_context = handler_context;
	event->ns = get_pid_ns(task_active_pid_ns(current));

	if (task) {
		event->attach_state = PERF_ATTACH_TASK;
		event->hw.target = get_task_struct(task);
	}

	/*
	 * A frequency event's period is found as it runs.  It starts at 1,
	 * unless the PMU's event_init sets a better first guess.
	 */
	if (!attr->freq)
		event->hw.sample_period = attr->sample_period;
	else if (attr->sample_freq)
		event->hw.sample_period = 1;

	ret = perf_pmu_init_event(event);
	if (ret)
		goto fail;
	/*
	 * No PMU here has an AUX area for aux_output to go to: refused, with
	 * EINVAL (no such leader) by a PMU that could use one.
	 */
	ret = 0;
	if (attr->aux_output)
		ret = perf_refuse(event->pmu->capabilities &
				  PERF_PMU_CAP_AUX_OUTPUT ? -EINVAL : -EOPNOTSUPP,
				  "aux_output: no AUX leader", 1);
	if (!ret && cgroup_fd != -1)
		ret = perf_cgroup_connect(event, cgroup_fd);
	if (ret)
		goto fail_pmu;
	if (attr->sample_type & PERF_SAMPLE_CALLCHAIN) {
		ret = perf_callchain_get(attr->sample_max_stack);
		if (ret)
			goto fail_cgroup;
		event->attach_state |= PERF_ATTACH_CALLCHAIN;
	}
	ret = perf_event_set_clock(event);
	/* The LSMs label the event last: nothing can fail after them. */
	if (!ret)
		ret = security_perf_event_alloc(event);
	if (ret)
		goto fail_callchain;
	perf_event_init_pending(event);
	perf_sb_account(event, true);

	/*
	 * An inherited copy's ancestor holds the key on for it.  A CPU's
	 * event with a branch stack holds it too, as does one whose PMU
	 * asked: its PMU hears of context switches (sched_cb.c).
	 */
	if (task ? !parent : (has_branch_stack(event) ||
			      (event->attach_state & PERF_ATTACH_SCHED_CB))) {
		event->attach_state |= PERF_ATTACH_SCHED;
		static_branch_inc(&perf_sched_events.key);
	}
	if (parent) {
		perf_event_get_ref(parent);
		perf_bpf_inherit(event, parent);
	}

	return event;

fail_callchain:
	if (event->attach_state & PERF_ATTACH_CALLCHAIN)
		perf_callchain_put();
fail_cgroup:
	perf_cgroup_detach(event);
fail_pmu:
	perf_event_destroy_pmu(event);
fail:
	if (task)
		put_task_struct(task);
	put_pid_ns(event->ns);
	kfree(event);
	return ERR_PTR(ret);
}

static void perf_event_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct perf_event, rcu_head));
}

/**
 * perf_event_free - free an event that nothing refers to any more
 * @event: the event, out of its context
 */
void perf_event_free(struct perf_event *event)
{
	/* RCU walkers of the side-band lists may still look at it. */
	WRITE_ONCE(event->state, PERF_EVENT_STATE_DEAD);

	perf_event_release_output(event);
	perf_event_sync_pending(event);
	perf_bpf_free(event);
	perf_event_destroy_pmu(event);
	perf_sb_account(event, false);

	if (event->attach_state & PERF_ATTACH_SCHED)
		static_branch_slow_dec_deferred(&perf_sched_events);
	if (event->attach_state & PERF_ATTACH_TASK)
		put_task_struct(event->hw.target);
	if (event->attach_state & PERF_ATTACH_CALLCHAIN)
		perf_callchain_put();
	perf_cgroup_detach(event);
	security_perf_event_free(event);
	if (event->ctx)
		perf_put_context(event->ctx);
	if (event->parent)
		perf_event_put(event->parent);
	put_pid_ns(event->ns);
	kfree(event->read_buf);
	call_rcu(&event->rcu_head, perf_event_free_rcu);
}

/**
 * perf_event_get_ref - take a reference on an event
 * @event: the event
 */
void perf_event_get_ref(struct perf_event *event)
{
	atomic_long_inc(&event->refcount);
}

/**
 * perf_event_put - drop a reference on an event, freeing it on the last
 * @event: the event
 */
void perf_event_put(struct perf_event *event)
{
	if (atomic_long_dec_and_test(&event->refcount))
		perf_event_free(event);
}

/* Counted by the kernel, or a breakpoint: joins any group, as in 6.1. */
static bool perf_event_soft(struct perf_event *event)
{
	return is_software_event(event) ||
	       event->attr.type == PERF_TYPE_BREAKPOINT;
}

/*
 * May @a and @b be in one group?  A PMU that counts per CPU only
 * (perf_invalid_context: RAPL's, the C-states', the uncore's) groups its
 * own events with software ones alone: 6.1 gives each such PMU a context
 * of its own, which a group cannot span.
 */
static bool perf_events_may_group(struct perf_event *a, struct perf_event *b)
{
	if (a->pmu == b->pmu)
		return true;
	if (a->pmu->task_ctx_nr != perf_invalid_context &&
	    b->pmu->task_ctx_nr != perf_invalid_context)
		return true;
	return perf_event_soft(a) || perf_event_soft(b);
}

/**
 * perf_event_check_group - may @event join the group of @leader?
 * @leader: the proposed group leader
 * @event: the new event
 * @ctx: the context @event goes into
 *
 * Return: 0 if @leader leads a group in @ctx on the same CPU, with the
 * same inheritance, clock and cgroup, and @event asks for nothing only a
 * leader may have; -EINVAL otherwise.
 */
int perf_event_check_group(struct perf_event *leader,
			   struct perf_event *event,
			   struct perf_event_context *ctx)
{
	if (leader->group_leader != leader)
		return perf_refuse(-EINVAL, "group_fd: not a group leader", 0);
	if (event->attr.pinned)
		return perf_refuse(-EINVAL, "pinned: only for a group leader", 1);
	if (event->attr.exclusive)
		return perf_refuse(-EINVAL, "exclusive: only for a group leader",
				   1);
	if (READ_ONCE(ctx->task) &&
	    leader->attr.inherit != event->attr.inherit)
		return perf_refuse(-EINVAL, "inherit: differs from the leader's",
				   event->attr.inherit);
	if (leader->ctx != ctx)
		return perf_refuse(-EINVAL, "group_fd: leader in another context", 0);
	if (leader->cpu != event->cpu)
		return perf_refuse(-EINVAL, "group_fd: leader on another CPU",
				   leader->cpu);
	/* Times in one group's records come from one clock. */
	if (leader->clock != event->clock)
		return perf_refuse(-EINVAL, "clockid: differs from the leader's",
				   event->attr.clockid);
	if (!perf_cgroup_valid_group(leader, event))
		return perf_refuse(-EINVAL, "group_fd: leader in another cgroup",
				   0);
	/* Without the leader's locks: syscall.c asks again under its mutex. */
	if (READ_ONCE(leader->state) <= PERF_EVENT_STATE_EXIT)
		return perf_refuse(-EINVAL, "group_fd: leader's task exited", 0);
	return 0;
}

/**
 * perf_group_pmus_fit - may @event's PMU join the PMUs of @leader's group?
 * @leader: the group leader; its context's mutex is held
 * @event: the new member
 *
 * Return: false if a member's PMU or @event's counts per CPU only and the
 * other is neither the same PMU nor software (perf_events_may_group()).
 */
bool perf_group_pmus_fit(struct perf_event *leader, struct perf_event *event)
{
	struct perf_event *sibling;

	if (!perf_events_may_group(leader, event))
		return false;
	for_each_sibling_event(sibling, leader) {
		if (!perf_events_may_group(sibling, event))
			return false;
	}
	return true;
}

/**
 * perf_event_release_kernel - release an event for good
 * @event: the event, from perf_event_create_kernel_counter() or a file
 *
 * Stops the event, takes it out of its context and drops the owner's
 * reference.  Readers that still hold a reference finish first.
 *
 * Return: 0.
 */
int perf_event_release_kernel(struct perf_event *event)
{
	struct perf_event_context *ctx;

	perf_event_remove_from_owner(event);
	if (event->ctx) {
		ctx = perf_event_ctx_lock(event);
		perf_remove_from_context(event);
		mutex_unlock(&ctx->mutex);
	}
	/* Out of its context, it is copied into no new task. */
	perf_inherit_release_children(event);
	perf_event_put(event);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_release_kernel);

/**
 * perf_event_create_kernel_counter - create an event for a kernel user
 * @attr: the attributes
 * @cpu: the CPU to count on, or -1 with @task
 * @task: the task to follow, or NULL for a CPU-wide event
 * @callback: called on overflow, or NULL
 * @context: passed to @callback
 *
 * The event is not tied to a file; release it with
 * perf_event_release_kernel().
 *
 * Return: the event, or an ERR_PTR.
 */
struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t callback,
				 void *context)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int ret;

	if (!task && (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu)))
		return ERR_PTR(perf_refuse(-EINVAL, "cpu: no such CPU online",
					   cpu));

	ret = perf_check_attr(attr);
	if (ret)
		return ERR_PTR(ret);

	event = perf_event_alloc(attr, cpu, task, NULL, NULL, -1, callback,
				 context);
	if (IS_ERR(event))
		return event;

	/* The CPU the PMU counts it on (perf_open_event()). */
	ctx = perf_find_get_context(task, event->cpu);
	if (IS_ERR(ctx)) {
		perf_event_free(event);
		return ERR_CAST(ctx);
	}

	mutex_lock(&ctx->mutex);
	if (READ_ONCE(ctx->task) == TASK_TOMBSTONE) {
		mutex_unlock(&ctx->mutex);
		if (task)
			perf_ctx_unpin(ctx);
		perf_put_context(ctx);
		perf_event_free(event);
		return ERR_PTR(perf_refuse(-ESRCH, "pid: task exited", 0));
	}
	perf_install_in_context(ctx, event);
	mutex_unlock(&ctx->mutex);
	return event;
}
EXPORT_SYMBOL_GPL(perf_event_create_kernel_counter);
