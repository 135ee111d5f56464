// SPDX-License-Identifier: GPL-2.0
/*
 * The power PMU of AMD's family 15h: the average power a compute unit
 * (the cores that share a front end and a floating-point unit) drew,
 * from its accumulated power (AMD's BKDG for family 15h, "Processor
 * Power Reporting"; APM vol. 2, "Processor Power Accumulator"), which
 * CPUID Fn8000_0007 EDX[12] offers.
 *
 * MSR_F15H_CU_PWR_ACCUMULATOR adds the compute unit's power at each of
 * its sample periods, wrapping at MSR_F15H_CU_MAX_PWR_ACCUMULATOR;
 * MSR_F15H_PTSC counts time.  Over an interval the average is
 *
 *	P (mW) = delta accumulator * CpuPwrSampleTimeRatio / delta PTSC
 *
 * with the ratio from CPUID Fn8000_0007 ECX.  The event power-pkg
 * (config 1) adds, at each read, the average in microwatts since the
 * previous read (since its start at the first): perf stat's one read at
 * the end shows the run's average power through the event's scale, and
 * each interval of perf stat -I that interval's.  (6.1 adds the average
 * since the start at every read, so intervals after the first show the
 * sum of averages.)
 *
 * Events are CPU-wide and count on their own CPU, reading its compute
 * unit's registers; the cpumask file lists one CPU per compute unit,
 * and when it goes off line its events move to another CPU of the
 * compute unit (perf_pmu_migrate_context()).
 */
#include <linux/perf_event.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include <asm/cpu_device_id.h>
#include <asm/msr.h>

#define POWER_EVENT_MASK	0xffULL
#define POWER_PKG		0x01

/* CPUID Fn8000_0007 ECX: the accumulator's period in PTSC ticks. */
static u32 power_ratio;
/* Where the accumulator wraps. */
static u64 power_acc_max;
/*
 * One CPU on line per compute unit, for the cpumask file; written by
 * the hotplug callbacks, which the hotplug lock serializes.
 */
static cpumask_t power_readers;

/* hw.config_base: the accumulator at the last read; event_base: PTSC. */
static void power_snapshot(struct perf_event *event)
{
	u64 acc, ptsc;

	rdmsrl(MSR_F15H_PTSC, ptsc);
	rdmsrl(MSR_F15H_CU_PWR_ACCUMULATOR, acc);
	event->hw.config_base = acc;
	event->hw.event_base = ptsc;
}

/* On the event's CPU: the average since the last read, in microwatts. */
static void power_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 acc, ptsc, dacc, dt;

	rdmsrl(MSR_F15H_PTSC, ptsc);
	rdmsrl(MSR_F15H_CU_PWR_ACCUMULATOR, acc);
	dt = ptsc - hwc->event_base;
	/* No time has passed: nothing to average. */
	if (!dt)
		return;
	if (acc >= hwc->config_base)
		dacc = acc - hwc->config_base;
	else
		dacc = power_acc_max - hwc->config_base + acc;
	local64_add(div64_u64(dacc * power_ratio * 1000, dt), &event->count);
	hwc->config_base = acc;
	hwc->event_base = ptsc;
}

static void power_start(struct perf_event *event, int flags)
{
	power_snapshot(event);
	event->hw.state = 0;
}

static void power_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	if (flags & PERF_EF_UPDATE)
		power_update(event);
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int power_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		power_start(event, flags);
	return 0;
}

static void power_del(struct perf_event *event, int flags)
{
	power_stop(event, PERF_EF_UPDATE);
}

static void power_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		power_update(event);
}

static int power_event_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->attr.sample_period)
		return -EINVAL;
	if ((event->attr.config & POWER_EVENT_MASK) != POWER_PKG)
		return -EINVAL;
	return 0;
}

/* sysfs */

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *page)
{
	return cpumap_print_to_pagebuf(true, page, &power_readers);
}
static DEVICE_ATTR_RO(cpumask);

PMU_FORMAT_ATTR(event, "config:0-7");
/* An events/ file @_file reading @_str. */
#define POWER_EVENT(_var, _file, _str)					\
	static struct perf_pmu_events_attr _var = {			\
		.attr.attr = { .name = _file, .mode = 0444 },		\
		.attr.show = perf_event_sysfs_show,			\
		.event_str = _str,					\
	}

POWER_EVENT(power_pkg, "power-pkg", "event=0x01");
POWER_EVENT(power_pkg_unit, "power-pkg.unit", "mWatts");
POWER_EVENT(power_pkg_scale, "power-pkg.scale", "1.000000e-3");

static struct attribute *power_pmu_attrs[] = { &dev_attr_cpumask.attr, NULL };
static struct attribute *power_format_attrs[] = { &format_attr_event.attr, NULL };
static struct attribute *power_event_attrs[] = {
	&power_pkg.attr.attr,
	&power_pkg_unit.attr.attr,
	&power_pkg_scale.attr.attr,
	NULL,
};

static const struct attribute_group power_pmu_group = {
	.attrs	= power_pmu_attrs,
};

static const struct attribute_group power_format_group = {
	.name	= "format",
	.attrs	= power_format_attrs,
};

static const struct attribute_group power_events_group = {
	.name	= "events",
	.attrs	= power_event_attrs,
};

static const struct attribute_group *power_groups[] = {
	&power_pmu_group,
	&power_format_group,
	&power_events_group,
	NULL,
};

static struct pmu power_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
	.attr_groups	= power_groups,
	.event_init	= power_event_init,
	.add		= power_add,
	.del		= power_del,
	.start		= power_start,
	.stop		= power_stop,
	.read		= power_read,
};

/* CPU hotplug: each compute unit with a CPU on line has a reader. */

static int power_cpu_online(unsigned int cpu)
{
	if (!cpumask_intersects(&power_readers, topology_sibling_cpumask(cpu)))
		cpumask_set_cpu(cpu, &power_readers);
	return 0;
}

static int power_cpu_offline(unsigned int cpu)
{
	unsigned int next;

	if (!cpumask_test_and_clear_cpu(cpu, &power_readers))
		return 0;
	next = cpumask_any_but(topology_sibling_cpumask(cpu), cpu);
	if (next >= nr_cpu_ids)
		return 0;
	cpumask_set_cpu(next, &power_readers);
	perf_pmu_migrate_context(&power_pmu, cpu, next);
	return 0;
}

static const struct x86_cpu_id power_models[] __initconst = {
	X86_MATCH_VENDOR_FAM(AMD, 0x15, NULL),
	{}
};
MODULE_DEVICE_TABLE(x86cpu, power_models);

static int __init amd_power_init(void)
{
	int ret;

	if (!x86_match_cpu(power_models) || !boot_cpu_has(X86_FEATURE_ACC_POWER))
		return -ENODEV;
	power_ratio = cpuid_ecx(0x80000007);
	if (rdmsrl_safe(MSR_F15H_CU_MAX_PWR_ACCUMULATOR, &power_acc_max)) {
		pr_err("AMD Power PMU: no maximum of the power accumulator\n");
		return -ENODEV;
	}
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_AMD_POWER_ONLINE,
				"perf/x86/amd/power:online",
				power_cpu_online, power_cpu_offline);
	if (ret < 0)
		return ret;
	ret = perf_pmu_register(&power_pmu, "power", -1);
	if (ret) {
		cpuhp_remove_state(CPUHP_AP_PERF_X86_AMD_POWER_ONLINE);
		return ret;
	}
	/* 6.1's line. */
	pr_info("AMD Power PMU detected\n");
	return 0;
}
module_init(amd_power_init);

static void __exit amd_power_exit(void)
{
	perf_pmu_unregister(&power_pmu);
	cpuhp_remove_state_nocalls(CPUHP_AP_PERF_X86_AMD_POWER_ONLINE);
}
module_exit(amd_power_exit);

MODULE_DESCRIPTION("The accumulated power of AMD family 15h's compute units as the power PMU");
MODULE_LICENSE("GPL");
