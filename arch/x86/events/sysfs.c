// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/bus/event_source/devices/cpu/ (on a hybrid, cpu_core/ and
 * cpu_atom/, one each kind of CPU): what perf reads to learn the PMU.
 *
 *   format/	how a raw config is built (the vendor's list, and the
 *		model's additions)
 *   events/	the generic hardware events this CPU has, as raw configs,
 *		and the model's own events
 *   caps/	branches (the entries of the branch recorder, where there
 *		is one), max_precise, pmu_name (Intel), and, our
 *		extension (6.1 has no way to ask), gp_counters and
 *		fixed_counters: how many general and fixed counters the
 *		PMU has
 *   rdpmc	see rdpmc.c; the vendor may add more (freeze_on_smi)
 *   cpus	on a hybrid, the CPUs of the PMU's kind
 *
 * Each file shows what the CPU type of its PMU has.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "pmu.h"

/**
 * struct x86_event_attr - an events/ file for a generic hardware event
 * @attr: the file
 * @id: its PERF_COUNT_HW_* number
 */
struct x86_event_attr {
	struct device_attribute	attr;
	int			id;
};

/* The CPU type of a PMU's device. */
static struct x86_cpu_type *x86_dev_type(struct device *dev)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return container_of(pmu, struct x86_cpu_type, pmu);
}

static ssize_t x86_event_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	int id = container_of(attr, struct x86_event_attr, attr)->id;
	u64 code = x86_dev_type(dev)->event_map[id];
	u64 event = (code & ARCH_PERFMON_EVENTSEL_EVENT) |
		    ((code >> 24) & 0xf00);
	u64 umask = (code & ARCH_PERFMON_EVENTSEL_UMASK) >> 8;
	int len;

	len = sysfs_emit(page, "event=0x%02llx", event);
	if (umask)
		len += sysfs_emit_at(page, len, ",umask=0x%02llx", umask);
	if (code & ARCH_PERFMON_EVENTSEL_EDGE)
		len += sysfs_emit_at(page, len, ",edge");
	if (code & ARCH_PERFMON_EVENTSEL_INV)
		len += sysfs_emit_at(page, len, ",inv");
	if (code & ARCH_PERFMON_EVENTSEL_CMASK)
		len += sysfs_emit_at(page, len, ",cmask=0x%02llx",
				     (code & ARCH_PERFMON_EVENTSEL_CMASK) >> 24);
	len += sysfs_emit_at(page, len, "\n");
	return len;
}

#define X86_EVENT_ATTR(_var, _name, _id)				\
	static struct x86_event_attr x86_event_##_var = {		\
		.attr = {						\
			.attr = { .name = _name, .mode = 0444 },	\
			.show = x86_event_show,				\
		},							\
		.id = _id,						\
	}

X86_EVENT_ATTR(cycles, "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES);
X86_EVENT_ATTR(instructions, "instructions", PERF_COUNT_HW_INSTRUCTIONS);
X86_EVENT_ATTR(cache_refs, "cache-references",
	       PERF_COUNT_HW_CACHE_REFERENCES);
X86_EVENT_ATTR(cache_misses, "cache-misses", PERF_COUNT_HW_CACHE_MISSES);
X86_EVENT_ATTR(branches, "branch-instructions",
	       PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
X86_EVENT_ATTR(branch_misses, "branch-misses", PERF_COUNT_HW_BRANCH_MISSES);
X86_EVENT_ATTR(bus_cycles, "bus-cycles", PERF_COUNT_HW_BUS_CYCLES);
X86_EVENT_ATTR(stalled_front, "stalled-cycles-frontend",
	       PERF_COUNT_HW_STALLED_CYCLES_FRONTEND);
X86_EVENT_ATTR(stalled_back, "stalled-cycles-backend",
	       PERF_COUNT_HW_STALLED_CYCLES_BACKEND);
X86_EVENT_ATTR(ref_cycles, "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES);

static struct attribute *x86_event_attrs[] = {
	&x86_event_cycles.attr.attr,
	&x86_event_instructions.attr.attr,
	&x86_event_cache_refs.attr.attr,
	&x86_event_cache_misses.attr.attr,
	&x86_event_branches.attr.attr,
	&x86_event_branch_misses.attr.attr,
	&x86_event_bus_cycles.attr.attr,
	&x86_event_stalled_front.attr.attr,
	&x86_event_stalled_back.attr.attr,
	&x86_event_ref_cycles.attr.attr,
	NULL,
};

/* The generic events the CPU has, and every event of the model's. */
static umode_t x86_event_visible(struct kobject *kobj, struct attribute *attr,
				 int i)
{
	struct x86_cpu_type *type = x86_dev_type(kobj_to_dev(kobj));
	struct x86_event_attr *ea;
	u64 code;

	if (i >= ARRAY_SIZE(x86_event_attrs) - 1)
		return attr->mode;
	ea = container_of(attr, struct x86_event_attr, attr.attr);
	code = type->event_map[ea->id];
	return code && code != X86_EVENT_INVALID ? attr->mode : 0;
}

static ssize_t max_precise_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "%u\n", x86_pmu.max_precise);
}
static DEVICE_ATTR_RO(max_precise);

static ssize_t pmu_name_show(struct device *dev,
			     struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "%s\n", x86_pmu.pmu_name);
}
static DEVICE_ATTR_RO(pmu_name);

static ssize_t gp_counters_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "%u\n",
			  (unsigned int)hweight64(x86_dev_type(dev)->gp));
}
static DEVICE_ATTR_RO(gp_counters);

static ssize_t fixed_counters_show(struct device *dev,
				   struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "%u\n",
			  (unsigned int)hweight64(x86_dev_type(dev)->fixed));
}
static DEVICE_ATTR_RO(fixed_counters);

static ssize_t branches_show(struct device *dev,
			     struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "%u\n", x86_pmu.branches);
}
static DEVICE_ATTR_RO(branches);

static struct attribute *x86_caps_attrs[] = {
	&dev_attr_branches.attr,
	&dev_attr_max_precise.attr,
	&dev_attr_pmu_name.attr,
	&dev_attr_gp_counters.attr,
	&dev_attr_fixed_counters.attr,
	NULL,
};

static umode_t x86_caps_visible(struct kobject *kobj, struct attribute *attr,
				int i)
{
	if (attr == &dev_attr_pmu_name.attr && !x86_pmu.pmu_name)
		return 0;
	if (attr == &dev_attr_branches.attr && !x86_pmu.branches)
		return 0;
	return attr->mode;
}

static const struct attribute_group x86_caps_group = {
	.name		= "caps",
	.attrs		= x86_caps_attrs,
	.is_visible	= x86_caps_visible,
};

/* The event select fields every vendor has, at the same bits. */
X86_FORMAT_ATTR(x86_umask, umask, "config:8-15");
X86_FORMAT_ATTR(x86_edge, edge, "config:18");
X86_FORMAT_ATTR(x86_inv, inv, "config:23");
X86_FORMAT_ATTR(x86_cmask, cmask, "config:24-31");

static struct attribute *x86_format_attrs[] = {
	&x86_umask.attr.attr,
	&x86_edge.attr.attr,
	&x86_inv.attr.attr,
	&x86_cmask.attr.attr,
	NULL,
};

static const struct attribute_group x86_rdpmc_group = {
	.attrs		= x86_rdpmc_attrs,
};

static struct attribute_group x86_extra_group;

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *page)
{
	return cpumap_print_to_pagebuf(true, page, &x86_dev_type(dev)->cpus);
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *x86_hybrid_attrs[] = {
	&dev_attr_cpus.attr,
	NULL,
};

static const struct attribute_group x86_hybrid_group = {
	.attrs		= x86_hybrid_attrs,
};

/*
 * The @n NULL-terminated @lists (each may be NULL) one after the other:
 * the only one that is not empty as it is, or a new array.
 */
static struct attribute ** __init
x86_attrs_join(struct attribute **const *lists, int n)
{
	struct attribute **all, **only = NULL;
	size_t total = 0, len;
	int i, nonempty = 0;

	for (i = 0; i < n; i++) {
		for (len = 0; lists[i] && lists[i][len]; len++)
			;
		if (len) {
			only = lists[i];
			nonempty++;
		}
		total += len;
	}
	if (nonempty <= 1)
		return only;
	all = kcalloc(total + 1, sizeof(*all), GFP_KERNEL);
	if (!all)
		return NULL;
	for (total = 0, i = 0; i < n; i++)
		for (len = 0; lists[i] && lists[i][len]; len++)
			all[total++] = lists[i][len];
	return all;
}

/**
 * x86_pmu_sysfs_init - the attribute groups of a CPU type's PMU
 * @type: the type, its tables filled in
 *
 * Return: 0 or -ENOMEM.
 */
int __init x86_pmu_sysfs_init(struct x86_cpu_type *type)
{
	struct attribute **const events[] = {
		x86_event_attrs, type->extra_events, type->topdown_events,
		type->precise_events,
	};
	struct attribute **const format[] = {
		x86_format_attrs, x86_pmu.format, type->extra_format,
	};
	const struct attribute_group **g = type->groups;

	type->events_group.name = "events";
	type->events_group.is_visible = x86_event_visible;
	type->events_group.attrs = x86_attrs_join(events, ARRAY_SIZE(events));
	type->format_group.name = "format";
	type->format_group.attrs = x86_attrs_join(format, ARRAY_SIZE(format));
	if (!type->events_group.attrs || !type->format_group.attrs)
		return -ENOMEM;

	*g++ = &type->format_group;
	*g++ = &type->events_group;
	*g++ = &x86_caps_group;
	*g++ = &x86_rdpmc_group;
	if (x86_pmu.extra_attrs) {
		x86_extra_group.attrs = x86_pmu.extra_attrs;
		*g++ = &x86_extra_group;
	}
	if (x86_pmu.n_types > 1)
		*g++ = &x86_hybrid_group;
	*g = NULL;
	type->pmu.attr_groups = type->groups;
	return 0;
}

/**
 * x86_str_show - a file that shows a fixed string: a format/ file (the
 *	config bits of one field), or an events/ file of the model's
 * @dev: the PMU's device
 * @attr: a struct x86_str_attr
 * @page: the output
 *
 * Return: the length written.
 */
ssize_t x86_str_show(struct device *dev, struct device_attribute *attr,
		     char *page)
{
	return sysfs_emit(page, "%s\n",
			  container_of(attr, struct x86_str_attr, attr)->str);
}
