// SPDX-License-Identifier: GPL-2.0
/*
 * The breakpoint PMU (PERF_TYPE_BREAKPOINT) and the hw_breakpoint API
 * that ptrace and kernel users build on (include/linux/hw_breakpoint.h).
 *
 * A breakpoint event watches attr.bp_addr: attr.bp_type says for what
 * (on x86 HW_BREAKPOINT_W, HW_BREAKPOINT_RW or HW_BREAKPOINT_X: no R
 * alone, no X mixed with R or W) and attr.bp_len over how many bytes (1,
 * 2, 4 or 8 at an address aligned to it; sizeof(long) for X).  The arch
 * code (arch/x86/kernel/hw_breakpoint.c) checks those and turns them
 * into a debug register setting, hw.info, which it installs in a free
 * debug register while the event is on a CPU.  Every event holds a slot
 * from its creation to its release (bp_slots.c), so that installing it
 * never fails; the one that does not fit is refused with ENOSPC.
 *
 * A hit raises #DB.  The arch's die notifier finds the event of the
 * debug register that fired and calls perf_bp_event(), which counts the
 * hit; a sampling event (ptrace's and other kernel users' sample every
 * hit) then overflows, which runs a kernel user's overflow handler.
 *
 * Kernel addresses may be watched only with exclude_kernel clear, and
 * only by CAP_SYS_ADMIN: nobody else may set a breakpoint in the code
 * that handles the debug exception.
 *
 * Changing a breakpoint in place (PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
 * modify_user_hw_breakpoint()) takes it off its CPU, changes bp_addr,
 * bp_type, bp_len and disabled, and enables it again unless the new
 * attr.disabled says otherwise.  It keeps its slot: on x86 every kind of
 * breakpoint uses the same registers.
 */
#include <linux/capability.h>
#include <linux/hw_breakpoint.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>

#include "internal.h"

/* The attributes a breakpoint may change in place. */
static void bp_copy_modifiable(struct perf_event_attr *to,
			       const struct perf_event_attr *from)
{
	to->bp_addr = from->bp_addr;
	to->bp_type = from->bp_type;
	to->bp_len = from->bp_len;
	to->disabled = from->disabled;
}

/*
 * Check @attr as the setting of @bp and build the debug register setting
 * in @hw: -EINVAL for what the CPU cannot watch, -EPERM for a kernel
 * address without the privilege to watch it.
 */
static int bp_parse(struct perf_event *bp, const struct perf_event_attr *attr,
		    struct arch_hw_breakpoint *hw)
{
	int ret;

	ret = hw_breakpoint_arch_parse(bp, attr, hw);
	if (ret)
		return perf_refuse(ret, "bp_*: the CPU cannot watch that",
				   attr->bp_addr);
	if (!arch_check_bp_in_kernelspace(hw))
		return 0;
	if (attr->exclude_kernel)
		return perf_refuse(-EINVAL, "bp_addr: kernel, with exclude_kernel",
				   attr->bp_addr);
	if (!capable(CAP_SYS_ADMIN))
		return perf_refuse(-EPERM, "bp_addr: kernel needs CAP_SYS_ADMIN",
				   attr->bp_addr);
	return 0;
}

/* Neither nothing at all nor everything at once. */
static bool bp_type_valid(u32 bp_type)
{
	return bp_type != HW_BREAKPOINT_EMPTY &&
	       bp_type != HW_BREAKPOINT_INVALID;
}

/**
 * register_perf_hw_breakpoint - check and reserve a new breakpoint event
 * @bp: the event, with its attributes, cpu and hw.target in place
 *
 * Takes a debug register slot before checking the rest of the
 * attributes, so a breakpoint that does not fit fails with -ENOSPC
 * whatever else is wrong with it.  The slot goes back with
 * release_bp_slot().
 *
 * Return: 0; -EINVAL for a bad type, length or address; -ENOSPC; -EPERM
 * for a kernel address without CAP_SYS_ADMIN.
 */
int register_perf_hw_breakpoint(struct perf_event *bp)
{
	struct arch_hw_breakpoint hw = { };
	int ret;

	if (!bp_type_valid(bp->attr.bp_type))
		return perf_refuse(-EINVAL, "bp_type: empty or invalid",
				   bp->attr.bp_type);

	ret = reserve_bp_slot(bp);
	if (ret)
		return perf_refuse(ret, "debug registers: all in use",
				   bp->attr.bp_type);

	ret = bp_parse(bp, &bp->attr, &hw);
	if (ret) {
		release_bp_slot(bp);
		return ret;
	}
	bp->hw.info = hw;
	return 0;
}

/* Check @attr as new attributes of @bp; @check: only bp fields change. */
static int bp_modify_check(struct perf_event *bp,
			   const struct perf_event_attr *attr,
			   struct arch_hw_breakpoint *hw, bool check)
{
	struct perf_event_attr same;
	int ret;

	ret = bp_parse(bp, attr, hw);
	if (ret)
		return ret;
	if (check) {
		same = bp->attr;
		bp_copy_modifiable(&same, attr);
		if (memcmp(&same, attr, sizeof(same)))
			return perf_refuse(-EINVAL,
					   "IOC_MODIFY_ATTRIBUTES: not only bp_* changed",
					   0);
	}
	return 0;
}

/* Give @bp the setting bp_modify_check() accepted; it is off its CPU. */
static void bp_set(struct perf_event *bp, const struct perf_event_attr *attr,
		   const struct arch_hw_breakpoint *hw)
{
	bp_copy_modifiable(&bp->attr, attr);
	bp->hw.info = *hw;
}

/**
 * modify_user_hw_breakpoint_check - change a breakpoint's setting
 * @bp: the breakpoint, which must not be on a CPU (disabled)
 * @attr: its new attributes
 * @check: refuse changes to anything but bp_addr, bp_type, bp_len and
 *	disabled
 *
 * Return: 0, or -EINVAL/-EPERM as for a new breakpoint; @bp is unchanged
 * on error.
 */
int modify_user_hw_breakpoint_check(struct perf_event *bp,
				    struct perf_event_attr *attr, bool check)
{
	struct arch_hw_breakpoint hw = { };
	int ret;

	ret = bp_modify_check(bp, attr, &hw, check);
	if (!ret)
		bp_set(bp, attr, &hw);
	return ret;
}

/*
 * Take @bp off its CPU, change it, and enable it unless attr->disabled.
 * Its context's mutex is held.
 */
static int bp_modify_locked(struct perf_event *bp,
			    struct perf_event_attr *attr, bool check)
{
	struct arch_hw_breakpoint hw = { };
	int ret;

	ret = bp_modify_check(bp, attr, &hw, check);
	if (ret)
		return ret;

	perf_event_disable_nogroup(bp);
	bp_set(bp, attr, &hw);
	if (!bp->attr.disabled)
		perf_event_enable_nogroup(bp);
	return 0;
}

/**
 * perf_bp_modify_attr - PERF_EVENT_IOC_MODIFY_ATTRIBUTES on a breakpoint
 * @bp: the breakpoint user space opened; its context's mutex is held
 * @attr: the new attributes, of which only bp_addr, bp_type, bp_len and
 *	disabled may differ from the event's
 *
 * The inherited copies of @bp change with it.
 *
 * Return: 0; -EINVAL if another field differs or the new setting is
 * invalid; -EPERM for a kernel address without CAP_SYS_ADMIN.
 */
int perf_bp_modify_attr(struct perf_event *bp, struct perf_event_attr *attr)
{
	struct perf_event *child;
	int ret;

	ret = bp_modify_locked(bp, attr, true);
	if (ret)
		return ret;

	/* The copies were checked through their parent. */
	mutex_lock(&bp->child_mutex);
	list_for_each_entry(child, &bp->child_list, child_entry) {
		ret = bp_modify_locked(child, attr, false);
		if (ret)
			break;
	}
	mutex_unlock(&bp->child_mutex);
	return ret;
}

/**
 * register_user_hw_breakpoint - set a breakpoint on a task
 * @attr: the breakpoint (see hw_breakpoint_init())
 * @triggered: called on every hit, in the debug exception
 * @context: passed to @triggered through overflow_handler_context
 * @tsk: the task
 *
 * Return: the breakpoint event, or an ERR_PTR: -ENOSPC when the task
 * has no debug register left, -EINVAL for a bad setting.
 */
struct perf_event *
register_user_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered,
			    void *context, struct task_struct *tsk)
{
	return perf_event_create_kernel_counter(attr, -1, tsk, triggered,
						context);
}
EXPORT_SYMBOL_GPL(register_user_hw_breakpoint);

/**
 * modify_user_hw_breakpoint - move or change a breakpoint
 * @bp: the breakpoint
 * @attr: its new attributes; bp_addr, bp_type, bp_len and disabled are
 *	taken from it
 *
 * The breakpoint is enabled afterwards unless @attr->disabled.  Sleeps.
 *
 * Return: 0, or a negative errno with @bp unchanged.
 */
int modify_user_hw_breakpoint(struct perf_event *bp,
			      struct perf_event_attr *attr)
{
	struct perf_event_context *ctx = bp->ctx;
	int ret;

	mutex_lock(&ctx->mutex);
	ret = bp_modify_locked(bp, attr, false);
	mutex_unlock(&ctx->mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(modify_user_hw_breakpoint);

/**
 * unregister_hw_breakpoint - remove a breakpoint
 * @bp: the breakpoint, or NULL
 */
void unregister_hw_breakpoint(struct perf_event *bp)
{
	if (bp)
		perf_event_release_kernel(bp);
}
EXPORT_SYMBOL_GPL(unregister_hw_breakpoint);

/**
 * register_wide_hw_breakpoint_cpu - set a breakpoint on one CPU
 * @attr: the breakpoint
 * @triggered: called on every hit, in the debug exception
 * @context: passed to @triggered through overflow_handler_context
 * @cpu: the CPU, online
 *
 * Return: the breakpoint event, or an ERR_PTR.
 */
struct perf_event *
register_wide_hw_breakpoint_cpu(struct perf_event_attr *attr,
				perf_overflow_handler_t triggered,
				void *context, int cpu)
{
	return perf_event_create_kernel_counter(attr, cpu, NULL, triggered,
						context);
}

/* Fill @events with a breakpoint on each online CPU, up to a failure. */
static int bp_wide_fill(struct perf_event * __percpu *events,
			struct perf_event_attr *attr,
			perf_overflow_handler_t triggered, void *context)
{
	struct perf_event *bp;
	int cpu;

	lockdep_assert_cpus_held();
	for_each_online_cpu(cpu) {
		bp = register_wide_hw_breakpoint_cpu(attr, triggered, context,
						     cpu);
		if (IS_ERR(bp))
			return PTR_ERR(bp);
		*per_cpu_ptr(events, cpu) = bp;
	}
	return 0;
}

/**
 * register_wide_hw_breakpoint - set a breakpoint on every online CPU
 * @attr: the breakpoint
 * @triggered: called on every hit, in the debug exception
 * @context: passed to @triggered through overflow_handler_context
 *
 * Either every online CPU gets the breakpoint or none does.
 *
 * Return: the per-CPU breakpoint events (NULL for the CPUs that were
 * offline), or an ERR_PTR.
 */
struct perf_event * __percpu *
register_wide_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context)
{
	struct perf_event * __percpu *events;
	int ret = -ENOMEM;

	events = alloc_percpu(struct perf_event *);
	if (events) {
		cpus_read_lock();
		ret = bp_wide_fill(events, attr, triggered, context);
		cpus_read_unlock();
		if (!ret)
			return events;
		/* Those that were set go again. */
		unregister_wide_hw_breakpoint(events);
	}
	return (struct perf_event * __percpu __force *)ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(register_wide_hw_breakpoint);

/**
 * unregister_wide_hw_breakpoint - remove a breakpoint from every CPU
 * @cpu_events: what register_wide_hw_breakpoint() returned
 */
void unregister_wide_hw_breakpoint(struct perf_event * __percpu *cpu_events)
{
	unsigned int cpu;

	/* A CPU that was offline at registration has NULL. */
	for_each_possible_cpu(cpu)
		unregister_hw_breakpoint(*per_cpu_ptr(cpu_events, cpu));
	free_percpu(cpu_events);
}
EXPORT_SYMBOL_GPL(unregister_wide_hw_breakpoint);

/**
 * perf_bp_event - a breakpoint hit
 * @bp: the breakpoint event, installed on this CPU
 * @data: the registers at the hit (struct pt_regs *)
 *
 * From the debug exception: interrupts off, in NMI context for a hit in
 * the kernel.  Counts the hit unless the event is stopped or excludes
 * the mode the CPU was in; the sample carries the watched address.
 */
void perf_bp_event(struct perf_event *bp, void *data)
{
	struct pt_regs *regs = data;
	struct perf_sample_data sample;
	int rctx;

	if (bp->hw.state & PERF_HES_STOPPED)
		return;
	if (user_mode(regs) ? bp->attr.exclude_user : bp->attr.exclude_kernel)
		return;

	rctx = perf_swevent_get_recursion_context();
	if (rctx < 0)
		return;
	perf_sample_data_init(&sample, bp->attr.bp_addr, 0);
	perf_swevent_hit(bp, 1, &sample, regs);
	perf_swevent_put_recursion_context(rctx);
}

static void bp_event_destroy(struct perf_event *bp)
{
	release_bp_slot(bp);
}

static int bp_event_init(struct perf_event *bp)
{
	int ret;

	if (bp->attr.type != PERF_TYPE_BREAKPOINT)
		return -ENOENT;
	if (bp->attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
		return perf_refuse(-EOPNOTSUPP,
				   "sample_type: BRANCH_STACK of a breakpoint",
				   bp->attr.sample_type);

	/* The slot accounting needs to know where it may run. */
	if (bp->cpu < -1 || bp->cpu >= (int)nr_cpu_ids ||
	    (bp->cpu >= 0 && !cpu_possible(bp->cpu)) ||
	    (bp->cpu < 0 && !bp->hw.target))
		return perf_refuse(-EINVAL, "cpu: no such CPU", bp->cpu);

	ret = register_perf_hw_breakpoint(bp);
	if (ret)
		return ret;
	bp->destroy = bp_event_destroy;
	return 0;
}

static void bp_start(struct perf_event *bp, int flags)
{
	struct hw_perf_event *hwc = &bp->hw;

	if (is_sampling_event(bp) && !local64_read(&hwc->period_left))
		local64_set(&hwc->period_left, -(s64)hwc->sample_period);
	hwc->state = 0;
}

static void bp_stop(struct perf_event *bp, int flags)
{
	bp->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/* Interrupts off, on the CPU: install it in a free debug register. */
static int bp_add(struct perf_event *bp, int flags)
{
	bp_stop(bp, 0);
	if (flags & PERF_EF_START)
		bp_start(bp, PERF_EF_RELOAD);
	return arch_install_hw_breakpoint(bp);
}

static void bp_del(struct perf_event *bp, int flags)
{
	bp_stop(bp, PERF_EF_UPDATE);
	arch_uninstall_hw_breakpoint(bp);
}

/* Every event holds its slot: the PMU never runs out of registers. */
static struct pmu perf_breakpoint_pmu = {
	.capabilities	= PERF_PMU_CAP_UNLIMITED,
	.event_init	= bp_event_init,
	.add		= bp_add,
	.del		= bp_del,
	.start		= bp_start,
	.stop		= bp_stop,
	.read		= hw_breakpoint_pmu_read,
};

static struct notifier_block bp_die_notifier = {
	.notifier_call	= hw_breakpoint_exceptions_notify,
	/* First of the #DB users: it takes the DR6 bits it handled. */
	.priority	= INT_MAX,
};

/**
 * init_hw_breakpoint - register the breakpoint PMU and its #DB handler
 *
 * Return: 0 or a negative errno.
 */
int __init init_hw_breakpoint(void)
{
	int ret;

	ret = perf_pmu_register(&perf_breakpoint_pmu, "breakpoint",
				PERF_TYPE_BREAKPOINT);
	if (ret)
		return ret;
	return register_die_notifier(&bp_die_notifier);
}
