// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe and uprobe PMUs: dynamic PMUs ("kprobe", "uprobe" under
 * /sys/bus/event_source/devices/) whose events each bring a probe of
 * their own, on a kernel function or on an instruction of a program
 * file, and then count and sample like tracepoint events of the trace
 * event that probe makes (kernel/trace/trace_kprobe.c and trace_uprobe.c,
 * reached through trace_event_perf.c).  The probe exists while the event
 * does; it appears nowhere in tracefs.
 *
 * The attributes (format/ in sysfs tells tools where the bits are):
 *   config bit 0          a return probe (format/retprobe)
 *   config bits 32-63     uprobe: offset of the probe's reference counter
 *                         in the file (format/ref_ctr_offset), or 0
 *   kprobe_func (config1) the probed function's name in user memory, with
 *                         probe_offset (config2) the offset into it;
 *                         or 0, and kprobe_addr (config2) the address
 *   uprobe_path (config1) the file's path in user memory, with
 *                         probe_offset (config2) the file offset
 *
 * Opening a kprobe event needs CAP_PERFMON, a uprobe event CAP_SYS_ADMIN,
 * whatever perf_event_paranoid says, as in Linux 6.1.  An event's inherited
 * copies do not read the attributes again (the pointers point into the
 * memory of the task that opened the event, which is not the forking
 * one): they share the probe of the event user space opened, which
 * outlives them (perf_tp_init_copy()).
 */
#include <linux/perf_event.h>
#include <linux/capability.h>
#include <linux/trace_events.h>

#include "internal.h"

/* attr.config: a return probe. */
#define PERF_PROBE_RETPROBE		BIT_ULL(0)
/* attr.config of a uprobe: where the reference counter offset sits. */
#define PERF_UPROBE_REF_CTR_SHIFT	32

static ssize_t retprobe_show(struct device *dev,
			     struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "config:0\n");
}
static DEVICE_ATTR_RO(retprobe);

/*
 * What both PMUs check before making a probe; @allowed: the caller has
 * the capability the PMU asks for, and @denied says which if not.
 * Return: 0 to make one, 1 if the event is a copy and attached, or a
 * negative errno.
 */
static int perf_probe_check(struct perf_event *event, bool allowed,
			    const char *denied)
{
	int ret;

	if (event->parent) {
		ret = perf_tp_init_copy(event);
		return ret ? ret : 1;
	}
	if (!allowed)
		return perf_refuse(-EACCES, denied, event->attr.type);
	if (event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
		return perf_refuse(-EOPNOTSUPP,
				   "sample_type: BRANCH_STACK of a probe",
				   event->attr.sample_type);
	return 0;
}

#ifdef CONFIG_KPROBE_EVENTS
static struct pmu perf_kprobe_pmu;

static void perf_kprobe_event_destroy(struct perf_event *event)
{
	/* Unregisters and frees the probe. */
	perf_kprobe_destroy(event);
	perf_tp_free_filter(event);
}

static int perf_kprobe_event_init(struct perf_event *event)
{
	int ret;

	if (event->attr.type != perf_kprobe_pmu.type)
		return -ENOENT;
	ret = perf_probe_check(event, perfmon_capable(),
			       "type: kprobe needs CAP_PERFMON");
	if (ret)
		return ret < 0 ? ret : 0;

	ret = perf_kprobe_init(event,
			       event->attr.config & PERF_PROBE_RETPROBE);
	if (ret)
		return perf_refuse(ret, "kprobe_func: no probe there",
				   event->attr.kprobe_addr);
	event->destroy = perf_kprobe_event_destroy;
	event->event_caps |= PERF_EV_CAP_SOFTWARE;
	return 0;
}

static struct attribute *perf_kprobe_format_attrs[] = {
	&dev_attr_retprobe.attr,
	NULL,
};

static const struct attribute_group perf_kprobe_format_group = {
	.name	= "format",
	.attrs	= perf_kprobe_format_attrs,
};

static const struct attribute_group *perf_kprobe_attr_groups[] = {
	&perf_kprobe_format_group,
	NULL,
};

static struct pmu perf_kprobe_pmu = {
	.attr_groups	= perf_kprobe_attr_groups,
	.capabilities	= PERF_PMU_CAP_UNLIMITED,
	.event_init	= perf_kprobe_event_init,
	.add		= perf_tp_add,
	.del		= perf_tp_del,
	.start		= perf_tp_start,
	.stop		= perf_tp_stop,
	.read		= perf_pmu_nop_read,
};
#endif /* CONFIG_KPROBE_EVENTS */

#ifdef CONFIG_UPROBE_EVENTS
static struct pmu perf_uprobe_pmu;

static ssize_t ref_ctr_offset_show(struct device *dev,
				   struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "config:32-63\n");
}
static DEVICE_ATTR_RO(ref_ctr_offset);

static void perf_uprobe_event_destroy(struct perf_event *event)
{
	/* Unregisters and frees the probe. */
	perf_uprobe_destroy(event);
	perf_tp_free_filter(event);
}

static int perf_uprobe_event_init(struct perf_event *event)
{
	u64 config = event->attr.config;
	int ret;

	if (event->attr.type != perf_uprobe_pmu.type)
		return -ENOENT;
	/* A probe in any program's text: more than watching the kernel. */
	ret = perf_probe_check(event, capable(CAP_SYS_ADMIN),
			       "type: uprobe needs CAP_SYS_ADMIN");
	if (ret)
		return ret < 0 ? ret : 0;

	ret = perf_uprobe_init(event, config >> PERF_UPROBE_REF_CTR_SHIFT,
			       config & PERF_PROBE_RETPROBE);
	if (ret)
		return perf_refuse(ret, "uprobe_path: no probe there",
				   event->attr.probe_offset);
	event->destroy = perf_uprobe_event_destroy;
	event->event_caps |= PERF_EV_CAP_SOFTWARE;
	return 0;
}

static struct attribute *perf_uprobe_format_attrs[] = {
	&dev_attr_retprobe.attr,
	&dev_attr_ref_ctr_offset.attr,
	NULL,
};

static const struct attribute_group perf_uprobe_format_group = {
	.name	= "format",
	.attrs	= perf_uprobe_format_attrs,
};

static const struct attribute_group *perf_uprobe_attr_groups[] = {
	&perf_uprobe_format_group,
	NULL,
};

static struct pmu perf_uprobe_pmu = {
	.attr_groups	= perf_uprobe_attr_groups,
	.capabilities	= PERF_PMU_CAP_UNLIMITED,
	.event_init	= perf_uprobe_event_init,
	.add		= perf_tp_add,
	.del		= perf_tp_del,
	.start		= perf_tp_start,
	.stop		= perf_tp_stop,
	.read		= perf_pmu_nop_read,
};
#endif /* CONFIG_UPROBE_EVENTS */

/**
 * perf_probe_pmu_owns - is the event a kprobe or uprobe PMU's?
 * @event: an event with its PMU set
 *
 * Return: true if so.
 */
bool perf_probe_pmu_owns(struct perf_event *event)
{
#ifdef CONFIG_KPROBE_EVENTS
	if (event->pmu == &perf_kprobe_pmu)
		return true;
#endif
#ifdef CONFIG_UPROBE_EVENTS
	if (event->pmu == &perf_uprobe_pmu)
		return true;
#endif
	return false;
}

/**
 * perf_probe_pmus_register - register the kprobe and uprobe PMUs
 *
 * They get dynamic types, in this order, after the tracepoint PMU.
 */
void perf_probe_pmus_register(void)
{
#ifdef CONFIG_KPROBE_EVENTS
	perf_pmu_register(&perf_kprobe_pmu, "kprobe", -1);
#endif
#ifdef CONFIG_UPROBE_EVENTS
	perf_pmu_register(&perf_uprobe_pmu, "uprobe", -1);
#endif
}
