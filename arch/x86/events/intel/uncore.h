/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client uncore's PMUs (uncore.c): what its boxes of MSRs and the
 * memory controller's counters (uncore_imc.c) share.
 */
#ifndef _ARCH_X86_EVENTS_INTEL_UNCORE_H
#define _ARCH_X86_EVENTS_INTEL_UNCORE_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

/* A box's general counters at most, and the slot of its clock counter. */
#define UNCORE_COUNTERS		4
#define UNCORE_FIXED_IDX	UNCORE_COUNTERS
/* The index of an event that reads a free-running counter. */
#define UNCORE_FREE_IDX		(UNCORE_COUNTERS + 1)

struct uncore_box;

/**
 * struct uncore_box_ops - what differs between kinds of box
 * @event_init: checks and encodes attr.config, after the common checks
 * @assign: on the reader: the counter @event gets (a slot index, or
 *	%UNCORE_FREE_IDX), or -EBUSY; sets hw.config_base and event_base
 * @read: on the reader: the counter's value now
 * @enable: on the reader: starts the counter, if it has to be started
 * @disable: on the reader: stops it
 */
struct uncore_box_ops {
	int	(*event_init)(struct uncore_box *box, struct perf_event *event);
	int	(*assign)(struct uncore_box *box, struct perf_event *event);
	u64	(*read)(struct uncore_box *box, struct perf_event *event);
	void	(*enable)(struct perf_event *event);
	void	(*disable)(struct perf_event *event);
};

/**
 * struct uncore_reader - a box's state on one CPU, used on the reader
 * @timer: folds the counts of @active into their events before the
 *	counters wrap; runs while @active is not empty
 * @box: the box
 * @active: the started events, by hw_perf_event's active_entry
 * @slots: the events the counters (and the clock counter) are given to
 *
 * Only the CPU it belongs to touches it, with interrupts off (the pmu
 * callbacks) or in its own timer's interrupt: no lock is needed.
 */
struct uncore_reader {
	struct hrtimer		timer;
	struct uncore_box	*box;
	struct list_head	active;
	struct perf_event	*slots[UNCORE_COUNTERS + 1];
};

/**
 * struct uncore_box - one PMU: a box of counters shared by a die's CPUs
 * @pmu: the PMU
 * @name: its name in sysfs
 * @ops: its kind's callbacks
 * @ctl: a box of MSRs: its first counter's event select MSR; the next
 *	counter's is the next MSR
 * @ctr: its first counter's MSR
 * @nr: its general counters
 * @fixed: whether it has the uncore clock counter
 * @width: its general counters' width in bits
 * @interval: how often @readers' timers fold the counts in, in ns
 * @io: the memory controller's counters, mapped
 * @readers: per CPU, used on the readers
 * @groups: its sysfs groups, NULL-terminated
 * @registered: whether @pmu is registered
 */
struct uncore_box {
	struct pmu			pmu;
	char				name[24];
	const struct uncore_box_ops	*ops;
	u32				ctl;
	u32				ctr;
	unsigned int			nr;
	bool				fixed;
	unsigned int			width;
	u64				interval;
	void __iomem			*io;
	struct uncore_reader __percpu	*readers;
	const struct attribute_group	*groups[4];
	bool				registered;
};

extern const struct attribute_group uncore_cpumask_group;

ssize_t uncore_event_show(struct device *dev, struct device_attribute *attr,
			  char *page);

/*
 * An events/ file @_name in static @_var, reading @_str as 6.1's uncore
 * PMUs' files read: without a newline.
 */
#define UNCORE_EVENT_ATTR(_name, _var, _str)				\
	static struct perf_pmu_events_attr _var =			\
		PMU_EVENTS_ATTR_INIT(_name, uncore_event_show, 0, _str)

int uncore_box_register(struct uncore_box *box);
void uncore_box_unregister(struct uncore_box *box);
void uncore_box_migrate(struct uncore_box *box, unsigned int from,
			unsigned int to);

int __init uncore_imc_init(void);
void uncore_imc_migrate(unsigned int from, unsigned int to);
void uncore_imc_exit(void);

#endif /* _ARCH_X86_EVENTS_INTEL_UNCORE_H */
