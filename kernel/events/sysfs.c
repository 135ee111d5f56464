// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/bus/event_source/devices/<pmu>/: one device per named PMU, so that
 * tools can find a PMU's type number and what it offers.
 *
 *   type                          the number to put in attr.type
 *   perf_event_mux_interval_ms    how often multiplexed events rotate
 *   (and whatever attribute groups the driver supplies: format/, events/,
 *   cpumask)
 *
 * PMUs registered before the bus exists (the built-in ones, at boot) get
 * their device when the bus comes up; later ones at registration.
 */
#include <linux/perf_event.h>
#include <linux/device.h>
#include <linux/slab.h>

#include "internal.h"

static ssize_t type_show(struct device *dev, struct device_attribute *attr,
			 char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%d\n", pmu->type);
}
static DEVICE_ATTR_RO(type);

static ssize_t perf_event_mux_interval_ms_show(struct device *dev,
					       struct device_attribute *attr,
					       char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%d\n", READ_ONCE(pmu->hrtimer_interval_ms));
}

static ssize_t perf_event_mux_interval_ms_store(struct device *dev,
						struct device_attribute *attr,
						const char *buf, size_t count)
{
	struct pmu *pmu = dev_get_drvdata(dev);
	int ms, ret;

	ret = kstrtoint(buf, 0, &ms);
	if (ret)
		return ret;
	if (ms < 1)
		return -EINVAL;

	perf_mux_set_interval(pmu, ms);
	return count;
}
static DEVICE_ATTR_RW(perf_event_mux_interval_ms);

static struct attribute *perf_pmu_dev_attrs[] = {
	&dev_attr_type.attr,
	&dev_attr_perf_event_mux_interval_ms.attr,
	NULL,
};
ATTRIBUTE_GROUPS(perf_pmu_dev);

static struct bus_type perf_pmu_bus = {
	.name		= "event_source",
	.dev_groups	= perf_pmu_dev_groups,
};

static void perf_pmu_dev_release(struct device *dev)
{
	kfree(dev);
}

/**
 * perf_pmu_sysfs_add - give a registered PMU its device on the bus
 * @pmu: the PMU; nothing happens for an unnamed one
 *
 * Caller holds the PMU registry lock and knows the bus is up.
 *
 * Return: 0 or a negative errno.
 */
int perf_pmu_sysfs_add(struct pmu *pmu)
{
	struct device *dev;
	int ret;

	if (!pmu->name)
		return 0;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;

	device_initialize(dev);
	dev->bus = &perf_pmu_bus;
	dev->groups = pmu->attr_groups;
	dev->release = perf_pmu_dev_release;
	dev_set_drvdata(dev, pmu);
	ret = dev_set_name(dev, "%s", pmu->name);
	if (!ret)
		ret = device_add(dev);
	if (!ret && pmu->attr_update) {
		ret = sysfs_update_groups(&dev->kobj, pmu->attr_update);
		if (ret)
			device_del(dev);
	}
	if (ret) {
		put_device(dev);
		return ret;
	}
	pmu->dev = dev;
	return 0;
}

/**
 * perf_pmu_sysfs_del - remove a PMU's device from the bus
 * @pmu: the PMU
 */
void perf_pmu_sysfs_del(struct pmu *pmu)
{
	if (!pmu->dev)
		return;
	device_del(pmu->dev);
	put_device(pmu->dev);
	pmu->dev = NULL;
}

/**
 * perf_event_sysfs_show - show() of an events/ file with a fixed text
 * @dev: the PMU's device
 * @attr: the attribute, in a struct perf_pmu_events_attr
 * @page: the page to fill in
 *
 * For PMU_EVENT_ATTR_STRING() and drivers' own events/ files.
 *
 * Return: the length of the event's text and a newline; 0 if it has none.
 */
ssize_t perf_event_sysfs_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *pattr =
		container_of(attr, struct perf_pmu_events_attr, attr);

	if (!pattr->event_str)
		return 0;
	return sysfs_emit(page, "%s\n", pattr->event_str);
}
EXPORT_SYMBOL_GPL(perf_event_sysfs_show);

static int __init perf_pmu_sysfs_init(void)
{
	int ret;

	ret = bus_register(&perf_pmu_bus);
	if (ret)
		return ret;
	perf_pmus_sysfs_start();
	return 0;
}
device_initcall(perf_pmu_sysfs_init);
