// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the interfaces other subsystems call: KVM's pause,
 * period, refresh and read of its counters; CPU-only PMUs, which refuse
 * per-task events, the move of their events to another CPU, and the
 * read of a die's event from another CPU of the die; the
 * sysfs helpers PMU drivers build their directories with; and the
 * hypervisors' guest callbacks.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/timekeeping.h>
#include <linux/topology.h>

#include "internal.h"

/* Spend about @ns of this task's CPU time. */
static void api_test_spin(u64 ns)
{
	u64 end = local_clock() + ns;

	while (local_clock() < end)
		cpu_relax();
}

/*
 * A software event of the current task: task-clock, or with @freq page
 * faults (the clocks turn a frequency into a period as they are opened).
 */
static struct perf_event *api_test_task_clock(struct kunit *test,
					      u64 period, bool freq)
{
	struct perf_event_attr attr = {
		.size		= sizeof(attr),
		.type		= PERF_TYPE_SOFTWARE,
		.config		= freq ? PERF_COUNT_SW_PAGE_FAULTS :
					 PERF_COUNT_SW_TASK_CLOCK,
		.sample_period	= period,
		.freq		= freq,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	return event;
}

static void api_pause(struct kunit *test)
{
	struct perf_event *event = api_test_task_clock(test, 0, false);
	u64 count, again;

	api_test_spin(200000);
	count = perf_event_pause(event, false);
	KUNIT_EXPECT_GT(test, count, 0ULL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(event->state), PERF_EVENT_STATE_OFF);

	/* Paused, it counts nothing; without a reset its count stays. */
	api_test_spin(100000);
	again = perf_event_pause(event, true);
	KUNIT_EXPECT_EQ(test, again, count);
	KUNIT_EXPECT_EQ(test, perf_event_pause(event, false), 0ULL);

	/* perf_event_enable() resumes it, from 0 after the reset. */
	perf_event_enable(event);
	api_test_spin(100000);
	count = perf_event_pause(event, true);
	KUNIT_EXPECT_GT(test, count, 0ULL);
	perf_event_release_kernel(event);
}

static void api_period(struct kunit *test)
{
	struct perf_event *counting = api_test_task_clock(test, 0, false);
	struct perf_event *event = api_test_task_clock(test, 1000000, false);
	struct perf_event *freq = api_test_task_clock(test, 100, true);

	KUNIT_EXPECT_EQ(test, perf_event_period(counting, 1000), -EINVAL);
	KUNIT_EXPECT_EQ(test, perf_event_period(event, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, perf_event_period(event, BIT_ULL(63)), -EINVAL);
	KUNIT_EXPECT_EQ(test, perf_event_period(event, 5000000), 0);
	KUNIT_EXPECT_EQ(test, event->attr.sample_period, 5000000ULL);
	KUNIT_EXPECT_EQ(test, event->hw.sample_period, 5000000ULL);

	KUNIT_ASSERT_TRUE(test, freq->attr.freq);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			perf_event_period(freq, sysctl_perf_event_sample_rate + 1));
	KUNIT_EXPECT_EQ(test, perf_event_period(freq, 10), 0);
	KUNIT_EXPECT_EQ(test, freq->attr.sample_freq, 10ULL);

	perf_event_release_kernel(freq);
	perf_event_release_kernel(event);
	perf_event_release_kernel(counting);
}

static void api_refresh(struct kunit *test)
{
	struct perf_event *counting = api_test_task_clock(test, 0, false);
	struct perf_event *event = api_test_task_clock(test, 100000000, false);

	KUNIT_EXPECT_EQ(test, perf_event_refresh(counting, 1), -EINVAL);
	perf_event_disable(event);
	KUNIT_EXPECT_EQ(test, READ_ONCE(event->state), PERF_EVENT_STATE_OFF);
	KUNIT_EXPECT_EQ(test, perf_event_refresh(event, 3), 0);
	KUNIT_EXPECT_GE(test, READ_ONCE(event->state),
			PERF_EVENT_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, atomic_read(&event->event_limit), 3);
	perf_event_release_kernel(event);
	perf_event_release_kernel(counting);
}

static void api_read_value(struct kunit *test)
{
	struct perf_event *event = api_test_task_clock(test, 0, false);
	u64 count, later, enabled, running;

	api_test_spin(200000);
	count = perf_event_read_value(event, &enabled, &running);
	KUNIT_EXPECT_GT(test, count, 0ULL);
	KUNIT_EXPECT_GE(test, enabled, running);
	KUNIT_EXPECT_GT(test, running, 0ULL);
	api_test_spin(100000);
	later = perf_event_read_value(event, &enabled, &running);
	KUNIT_EXPECT_GT(test, later, count);
	perf_event_release_kernel(event);
}

/*
 * A CPU-only PMU: counts nanoseconds while on, like perf_test, but with
 * task_ctx_nr = perf_invalid_context.  Config 1 stands for a counter of
 * the die, which each of its CPUs reads the same (a global clock here):
 * its events get PERF_EV_CAP_READ_ACTIVE_PKG.  Each read notes its CPU.
 */
static int api_pmu_init(struct perf_event *event);
static int api_read_cpu = -1;

static u64 api_pmu_now(struct perf_event *event)
{
	return event->attr.config ? ktime_get_ns() : local_clock();
}

static void api_pmu_update(struct perf_event *event)
{
	atomic64_add(perf_event_claim_step(event, api_pmu_now),
		     &event->count_shared);
}

static void api_pmu_start(struct perf_event *event, int flags)
{
	atomic64_set(&event->hw.prev_shared, api_pmu_now(event));
	event->hw.state = 0;
}

static void api_pmu_stop(struct perf_event *event, int flags)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		api_pmu_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int api_pmu_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		api_pmu_start(event, flags);
	return 0;
}

static void api_pmu_del(struct perf_event *event, int flags)
{
	api_pmu_stop(event, PERF_EF_UPDATE);
}

static void api_pmu_read(struct perf_event *event)
{
	WRITE_ONCE(api_read_cpu, smp_processor_id());
	if (!(event->hw.state & PERF_HES_STOPPED))
		api_pmu_update(event);
}

static struct pmu api_pmu = {
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.event_init	= api_pmu_init,
	.add		= api_pmu_add,
	.del		= api_pmu_del,
	.start		= api_pmu_start,
	.stop		= api_pmu_stop,
	.read		= api_pmu_read,
};

static int api_pmu_init(struct perf_event *event)
{
	if (event->attr.type != api_pmu.type)
		return -ENOENT;
	if (event->attr.config)
		event->event_caps |= PERF_EV_CAP_READ_ACTIVE_PKG;
	return 0;
}

static int api_pmu_suite_init(struct kunit_suite *suite)
{
	return perf_pmu_register(&api_pmu, NULL, -1);
}

static void api_pmu_suite_exit(struct kunit_suite *suite)
{
	perf_pmu_unregister(&api_pmu);
}

static void api_cpu_only(struct kunit *test)
{
	struct perf_event_attr attr = {
		.size	= sizeof(attr),
		.type	= api_pmu.type,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(event), -EINVAL);
	if (!IS_ERR(event))
		perf_event_release_kernel(event);

	event = perf_event_create_kernel_counter(&attr, raw_smp_processor_id(),
						 NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	perf_event_release_kernel(event);
}

/* A leader on @cpu, or a member of @leader's group, installed. */
static struct perf_event *api_open(struct kunit *test, u32 type, int cpu,
				   struct perf_event *leader, bool disabled)
{
	struct perf_event_attr attr = {
		.size		= sizeof(attr),
		.type		= type,
		.disabled	= disabled,
	};
	struct perf_event_context *ctx;
	struct perf_event *event;

	if (type == PERF_TYPE_SOFTWARE)
		attr.config = PERF_COUNT_SW_CPU_CLOCK;
	event = perf_event_alloc(&attr, cpu, NULL, leader, NULL, -1, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	ctx = perf_find_get_context(NULL, cpu);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ctx));
	mutex_lock(&ctx->mutex);
	perf_install_in_context(ctx, event);
	mutex_unlock(&ctx->mutex);
	return event;
}

static void api_migrate(struct kunit *test)
{
	struct perf_event *leader, *member, *off, *other;
	int src, dst;
	u64 before;

	src = cpumask_first(cpu_online_mask);
	dst = cpumask_next(src, cpu_online_mask);
	if (dst >= nr_cpu_ids)
		kunit_skip(test, "needs two CPUs online");

	/* A group of the PMU with a software member, one off, and a bystander. */
	leader = api_open(test, api_pmu.type, src, NULL, false);
	member = api_open(test, PERF_TYPE_SOFTWARE, src, leader, false);
	off = api_open(test, api_pmu.type, src, NULL, true);
	other = api_open(test, PERF_TYPE_SOFTWARE, src, NULL, false);
	KUNIT_EXPECT_EQ(test, READ_ONCE(leader->state), PERF_EVENT_STATE_ACTIVE);
	usleep_range(2000, 3000);
	before = perf_event_read_value(leader, &(u64){0}, &(u64){0});

	perf_pmu_migrate_context(&api_pmu, src, dst);

	KUNIT_EXPECT_EQ(test, leader->cpu, dst);
	KUNIT_EXPECT_EQ(test, member->cpu, dst);
	KUNIT_EXPECT_EQ(test, off->cpu, dst);
	KUNIT_EXPECT_EQ(test, other->cpu, src);
	KUNIT_EXPECT_PTR_EQ(test, member->ctx, leader->ctx);
	KUNIT_EXPECT_PTR_NE(test, leader->ctx, other->ctx);
	KUNIT_EXPECT_PTR_EQ(test, member->group_leader, leader);
	KUNIT_EXPECT_EQ(test, leader->nr_siblings, 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(leader->state), PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(member->state), PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(off->state), PERF_EVENT_STATE_OFF);
	KUNIT_EXPECT_EQ(test, READ_ONCE(leader->oncpu), dst);

	/* Its count goes on from where it was. */
	usleep_range(2000, 3000);
	KUNIT_EXPECT_GT(test, perf_event_read_value(leader, &(u64){0},
						    &(u64){0}), before);

	/* And back; then they are released from where they are. */
	perf_pmu_migrate_context(&api_pmu, dst, src);
	KUNIT_EXPECT_EQ(test, leader->cpu, src);
	KUNIT_EXPECT_PTR_EQ(test, leader->ctx, other->ctx);
	KUNIT_EXPECT_EQ(test, READ_ONCE(leader->state), PERF_EVENT_STATE_ACTIVE);

	perf_event_release_kernel(other);
	perf_event_release_kernel(off);
	perf_event_release_kernel(member);
	perf_event_release_kernel(leader);
}

/* The event of config @config on @cpu, counting. */
static struct perf_event *api_open_cpu(struct kunit *test, int cpu,
				       u64 config)
{
	struct perf_event_attr attr = {
		.size	= sizeof(attr),
		.type	= api_pmu.type,
		.config	= config,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	KUNIT_EXPECT_FALSE(test, IS_ERR(event));
	return IS_ERR(event) ? NULL : event;
}

/* A driver's timer on the event's CPU, updating it while it is read. */
struct api_die_timer {
	struct hrtimer		timer;
	struct perf_event	*event;
	int			fired;
};

static enum hrtimer_restart api_die_timer_fn(struct hrtimer *timer)
{
	struct api_die_timer *dt = container_of(timer, struct api_die_timer,
						timer);

	api_pmu_update(dt->event);
	WRITE_ONCE(dt->fired, dt->fired + 1);
	hrtimer_forward_now(timer, ns_to_ktime(20 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void api_die_timer_start(void *info)
{
	struct api_die_timer *dt = info;

	hrtimer_start(&dt->timer, ns_to_ktime(20 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * Reads from here while the event's CPU updates the count from a timer:
 * every step of the counter is added once, so the count is never more
 * than the time since the event started.
 */
static void api_read_on_die_with_timer(struct kunit *test,
				       struct perf_event *event, int there,
				       u64 start)
{
	struct api_die_timer *dt = kunit_kzalloc(test, sizeof(*dt), GFP_KERNEL);
	u64 count = 0, enabled, running;
	int i;

	if (!dt) {
		KUNIT_FAIL(test, "out of memory");
		return;
	}
	dt->event = event;
	hrtimer_init(&dt->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	dt->timer.function = api_die_timer_fn;
	smp_call_function_single(there, api_die_timer_start, dt, 1);
	for (i = 0; i < 2000 || !READ_ONCE(dt->fired); i++) {
		count = perf_event_read_value(event, &enabled, &running);
		if (i > 100000)
			break;
	}
	hrtimer_cancel(&dt->timer);
	KUNIT_EXPECT_GT(test, READ_ONCE(dt->fired), 0);
	count = perf_event_read_value(event, &enabled, &running);
	KUNIT_EXPECT_LE(test, count, ktime_get_ns() - start);
	KUNIT_EXPECT_EQ(test, enabled, running);
}

/*
 * perf_event_read_value() of an event whose counters are its die's runs
 * on the reading CPU when that is another CPU of the die, with no IPI to
 * the event's: the count is pulled there, and the times go on, running
 * all along.  An event without the capability is read on its CPU.
 */
static void api_read_on_die(struct kunit *test)
{
	int here, there = nr_cpu_ids, cpu;
	struct perf_event *die, *own;
	u64 count, later, enabled, running, start;

	migrate_disable();
	here = smp_processor_id();
	for_each_cpu_and(cpu, topology_die_cpumask(here), cpu_online_mask) {
		if (cpu != here) {
			there = cpu;
			break;
		}
	}
	if (there >= nr_cpu_ids) {
		migrate_enable();
		kunit_skip(test, "needs two CPUs of a die online");
	}
	start = ktime_get_ns();
	die = api_open_cpu(test, there, 1);
	own = api_open_cpu(test, there, 0);
	if (!die || !own)
		goto out;
	KUNIT_EXPECT_TRUE(test, die->event_caps & PERF_EV_CAP_READ_ACTIVE_PKG);
	KUNIT_EXPECT_EQ(test, READ_ONCE(die->oncpu), there);

	usleep_range(1000, 2000);
	count = perf_event_read_value(die, &enabled, &running);
	KUNIT_EXPECT_EQ(test, READ_ONCE(api_read_cpu), here);
	KUNIT_EXPECT_GT(test, count, 0ULL);
	KUNIT_EXPECT_GT(test, enabled, 0ULL);
	KUNIT_EXPECT_EQ(test, enabled, running);
	usleep_range(1000, 2000);
	later = perf_event_read_value(die, &enabled, &running);
	KUNIT_EXPECT_GT(test, later, count);
	KUNIT_EXPECT_EQ(test, enabled, running);
	KUNIT_EXPECT_GE(test, enabled, 1000000ULL);
	api_read_on_die_with_timer(test, die, there, start);

	perf_event_read_value(own, &enabled, &running);
	KUNIT_EXPECT_EQ(test, READ_ONCE(api_read_cpu), there);
out:
	if (own)
		perf_event_release_kernel(own);
	if (die)
		perf_event_release_kernel(die);
	migrate_enable();
}

PMU_EVENT_ATTR_STRING(api_cycles, api_str_attr, "event=0x3c");
PMU_FORMAT_ATTR(api_format, "config:0-7,32-35");

static ssize_t api_id_show(struct device *dev, struct device_attribute *attr,
			   char *page)
{
	struct perf_pmu_events_attr *pattr =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "id=%llu\n", pattr->id);
}

PMU_EVENT_ATTR(api_id, api_id_attr, 42, api_id_show);

static void api_sysfs(struct kunit *test)
{
	struct perf_pmu_events_attr empty = {
		.attr = __ATTR(empty, 0444, perf_event_sysfs_show, NULL),
	};
	struct attribute *anon = PMU_EVENT_ATTR_ID(api_anon, api_id_show, 7);
	struct device_attribute *dattr;
	char *page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, api_str_attr.attr.show(NULL, &api_str_attr.attr,
						     page), 11);
	KUNIT_EXPECT_STREQ(test, page, "event=0x3c\n");
	KUNIT_EXPECT_STREQ(test, api_str_attr.attr.attr.name, "api_cycles");
	KUNIT_EXPECT_EQ(test, perf_event_sysfs_show(NULL, &empty.attr, page), 0);

	dattr = &format_attr_api_format;
	KUNIT_EXPECT_EQ(test, dattr->show(NULL, dattr, page), 17);
	KUNIT_EXPECT_STREQ(test, page, "config:0-7,32-35\n");
	KUNIT_EXPECT_STREQ(test, format_attr_api_format.attr.name, "api_format");

	api_id_attr.attr.show(NULL, &api_id_attr.attr, page);
	KUNIT_EXPECT_STREQ(test, page, "id=42\n");
	dattr = container_of(anon, struct device_attribute, attr);
	dattr->show(NULL, dattr, page);
	KUNIT_EXPECT_STREQ(test, page, "id=7\n");
	KUNIT_EXPECT_STREQ(test, anon->name, "api_anon");
}

static struct kunit_case perf_kernel_api_cases[] = {
	KUNIT_CASE(api_pause),
	KUNIT_CASE(api_period),
	KUNIT_CASE(api_refresh),
	KUNIT_CASE(api_read_value),
	KUNIT_CASE(api_cpu_only),
	KUNIT_CASE(api_migrate),
	KUNIT_CASE(api_read_on_die),
	KUNIT_CASE(api_sysfs),
	{}
};

static struct kunit_suite perf_kernel_api_suite = {
	.name		= "perf_kernel_api",
	.suite_init	= api_pmu_suite_init,
	.suite_exit	= api_pmu_suite_exit,
	.test_cases	= perf_kernel_api_cases,
};

kunit_test_suites(&perf_kernel_api_suite);
