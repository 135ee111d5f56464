// SPDX-License-Identifier: GPL-2.0
/*
 * The uncore of Intel's client parts from Sandy Bridge to Comet Lake:
 * the counters outside the cores that every core of the die shares
 * (Intel SDM vol. 3B, "Uncore performance monitoring facility" of the
 * 2nd to 10th generation Core processors; vol. 4, their MSRs).
 *
 *  - A C-Box per slice of the last-level cache (one a core, at most 4
 *    before Skylake, 8 from it), with two (four from Skylake) 44-bit
 *    counters, each an event select at 0x700 + 0x10 * box + i and a
 *    counter at 0x706 + 0x10 * box + i (Coffee Lake's eighth at 0xf70
 *    and 0xf76): the PMUs uncore_cbox_<box>.
 *  - The arbitration box between the cores, the graphics and memory:
 *    two 44-bit counters at 0x3b0 and 0x3b1, their selects at 0x3b2
 *    and 0x3b3; its occupancy events count on counter 0 only: the PMU
 *    uncore_arb.
 *  - The uncore clock's 48-bit counter, 0x395 (its control 0x394),
 *    which the first C-Box's PMU offers as events/clockticks
 *    (config 0xff).
 *  - The memory controller's free-running counters, in the host
 *    bridge's MCHBAR: the PMU uncore_imc (uncore_imc.c).
 *
 * Nothing counts until the global control (0x391, 0xe01 from Skylake)
 * enables the uncore, which the reader writes as it starts each event
 * (a resume from suspend clears it), and clears when the die's last CPU
 * goes off line.  The counters never interrupt: a timer on the reader folds
 * their counts into the events before they wrap.
 *
 * Events are CPU-wide counting events (no task events, no sampling, no
 * exclude_* bit).  Whatever CPU of a die one is opened on, it counts on
 * the die's reader, the CPU the cpumask files list; when the reader
 * goes off line, another CPU of the die takes over and the events move
 * there with their counts (perf_pmu_migrate_context()).  A box's
 * counters are handed out from the reader's slots, which only the
 * reader touches, with interrupts off: no lock is needed.  Every CPU of
 * the die reads the same counters, so a read() there needs no IPI to the
 * reader (PERF_EV_CAP_READ_ACTIVE_PKG).  A count is updated with an
 * atomic cmpxchg of the last value read, so that two reads at once (from
 * an NMI's perf_event_read_local() between two others, or from another
 * CPU of the die against the reader's timer) count no step twice.
 *
 * Under a hypervisor the MSRs cannot be trusted to be there, or to mean
 * what they mean on silicon, and no PMU is registered.
 */
#define pr_fmt(fmt) "uncore: " fmt

#include <linux/perf_event.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>
#include <asm/perf_event.h>

#include "uncore.h"

#define UNC_GLOBAL_CTL_SNB	0x391
#define UNC_GLOBAL_CTL_SKL	0xe01
#define UNC_GLOBAL_EN		BIT_ULL(29)
#define UNC_FIXED_CTL		0x394
#define UNC_FIXED_CTR		0x395
#define UNC_CBOX_CTL		0x700
#define UNC_CBOX_CTR		0x706
#define UNC_CBOX_STRIDE		0x10
/* Coffee Lake's eighth C-Box sits apart from the others. */
#define UNC_CBOX7_CTL		0xf70
#define UNC_CBOX7_CTR		0xf76
#define UNC_ARB_CTR		0x3b0
#define UNC_ARB_CTL		0x3b2

#define UNC_CTL_EN		BIT_ULL(22)
/* Event, unit mask, edge, invert, counter mask: what attr.config sets. */
#define UNC_CTL_MASK		(GENMASK_ULL(15, 0) | BIT_ULL(18) | \
				 BIT_ULL(23) | GENMASK_ULL(28, 24))
#define UNC_CLOCKTICKS		0xff	/* attr.config of the clock */

#define UNC_WIDTH		44
#define UNC_FIXED_WIDTH		48
/* At 4 GHz a 44-bit counter wraps after an hour: fold every minute. */
#define UNC_INTERVAL		(60 * NSEC_PER_SEC)

/**
 * struct uncore_model - what a family of parts has
 * @global_ctl: the global control MSR
 * @global_on: what enables the uncore in it: its enable bit and the
 *	cores its overflows would interrupt
 * @cbox_counters: general counters of a C-Box
 * @cbox_max: C-Boxes at most (one a core up to it)
 */
struct uncore_model {
	u32		global_ctl;
	u64		global_on;
	unsigned int	cbox_counters;
	unsigned int	cbox_max;
};

static const struct uncore_model uncore_snb __initconst = {
	.global_ctl	= UNC_GLOBAL_CTL_SNB,
	.global_on	= UNC_GLOBAL_EN | GENMASK_ULL(3, 0),
	.cbox_counters	= 2,
	.cbox_max	= 4,
};

static const struct uncore_model uncore_skl __initconst = {
	.global_ctl	= UNC_GLOBAL_CTL_SKL,
	.global_on	= UNC_GLOBAL_EN | GENMASK_ULL(4, 0),
	.cbox_counters	= 4,
	.cbox_max	= 8,
};

static const struct x86_cpu_id uncore_models[] __initconst = {
	X86_MATCH_INTEL_FAM6_MODEL(SANDYBRIDGE,		&uncore_snb),
	X86_MATCH_INTEL_FAM6_MODEL(IVYBRIDGE,		&uncore_snb),
	X86_MATCH_INTEL_FAM6_MODEL(HASWELL,		&uncore_snb),
	X86_MATCH_INTEL_FAM6_MODEL(HASWELL_L,		&uncore_snb),
	X86_MATCH_INTEL_FAM6_MODEL(HASWELL_G,		&uncore_snb),
	X86_MATCH_INTEL_FAM6_MODEL(BROADWELL,		&uncore_snb),
	X86_MATCH_INTEL_FAM6_MODEL(BROADWELL_G,		&uncore_snb),
	X86_MATCH_INTEL_FAM6_MODEL(SKYLAKE_L,		&uncore_skl),
	X86_MATCH_INTEL_FAM6_MODEL(SKYLAKE,		&uncore_skl),
	X86_MATCH_INTEL_FAM6_MODEL(KABYLAKE_L,		&uncore_skl),
	X86_MATCH_INTEL_FAM6_MODEL(KABYLAKE,		&uncore_skl),
	X86_MATCH_INTEL_FAM6_MODEL(COMETLAKE_L,		&uncore_skl),
	X86_MATCH_INTEL_FAM6_MODEL(COMETLAKE,		&uncore_skl),
	{}
};
MODULE_DEVICE_TABLE(x86cpu, uncore_models);

/* The global control of this machine and its enabling value. */
static u32 uncore_global_ctl;
static u64 uncore_global_on;

/*
 * One CPU on line per die: the CPU every box's events of the die count
 * on, and what the cpumask files list.  Written by the hotplug
 * callbacks, which the hotplug lock serializes.
 */
static cpumask_t uncore_readers;
/*
 * A reader going off line, while its events move: it may still add them
 * (a pinned group must not fail there).  Under the hotplug lock; -1 if
 * none.
 */
static int uncore_leaving = -1;

/* The boxes of MSRs: the C-Boxes, then the arbitration box. */
#define UNCORE_MSR_BOXES	9
static struct uncore_box uncore_msr_boxes[UNCORE_MSR_BOXES];
static unsigned int uncore_nr_msr_boxes;

static struct uncore_box *to_uncore_box(struct pmu *pmu)
{
	return container_of(pmu, struct uncore_box, pmu);
}

/* sysfs */

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *page)
{
	return cpumap_print_to_pagebuf(true, page, &uncore_readers);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *uncore_cpumask_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

const struct attribute_group uncore_cpumask_group = {
	.attrs	= uncore_cpumask_attrs,
};

/**
 * uncore_event_show() - shows an events/ file of UNCORE_EVENT_ATTR()
 * @dev: the PMU's device
 * @attr: the file's attribute, in a struct perf_pmu_events_attr
 * @page: the page to write to
 *
 * Return: the bytes written.
 */
ssize_t uncore_event_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	struct perf_pmu_events_attr *pa =
		container_of(attr, struct perf_pmu_events_attr, attr);
	ssize_t len = strscpy(page, pa->event_str, PAGE_SIZE);

	return len < 0 ? PAGE_SIZE - 1 : len;
}

PMU_FORMAT_ATTR(event, "config:0-7");
PMU_FORMAT_ATTR(umask, "config:8-15");
PMU_FORMAT_ATTR(edge, "config:18");
PMU_FORMAT_ATTR(inv, "config:23");
PMU_FORMAT_ATTR(cmask, "config:24-28");

/* In the order of sysfs's listing. */
static struct attribute *uncore_msr_format_attrs[] = {
	&format_attr_cmask.attr, &format_attr_edge.attr,
	&format_attr_event.attr, &format_attr_inv.attr,
	&format_attr_umask.attr, NULL,
};

static const struct attribute_group uncore_msr_format_group = {
	.name	= "format",
	.attrs	= uncore_msr_format_attrs,
};

UNCORE_EVENT_ATTR(clockticks, uncore_clockticks, "event=0xff,umask=0x00");

static struct attribute *uncore_cbox_event_attrs[] = {
	&uncore_clockticks.attr.attr,
	NULL,
};

static const struct attribute_group uncore_cbox_events_group = {
	.name	= "events",
	.attrs	= uncore_cbox_event_attrs,
};

/* Counting: on the reader with interrupts off, and reads on its die */

static unsigned int uncore_event_width(struct uncore_box *box,
				       struct perf_event *event)
{
	return event->hw.idx == UNCORE_FIXED_IDX ? UNC_FIXED_WIDTH : box->width;
}

static u64 uncore_event_counter(struct perf_event *event)
{
	struct uncore_box *box = to_uncore_box(event->pmu);

	return box->ops->read(box, event);
}

static void uncore_event_update(struct perf_event *event)
{
	struct uncore_box *box = to_uncore_box(event->pmu);
	u64 step = perf_event_claim_step(event, uncore_event_counter);

	atomic64_add(step & GENMASK_ULL(uncore_event_width(box, event) - 1, 0),
		     &event->count_shared);
}

static enum hrtimer_restart uncore_timer_fn(struct hrtimer *timer)
{
	struct uncore_reader *r = container_of(timer, struct uncore_reader, timer);
	struct perf_event *event;

	if (list_empty(&r->active))
		return HRTIMER_NORESTART;
	list_for_each_entry(event, &r->active, active_entry)
		uncore_event_update(event);
	hrtimer_forward_now(timer, ns_to_ktime(r->box->interval));
	return HRTIMER_RESTART;
}

static void uncore_event_start(struct perf_event *event, int flags)
{
	struct uncore_box *box = to_uncore_box(event->pmu);
	struct uncore_reader *r = this_cpu_ptr(box->readers);
	struct hw_perf_event *hwc = &event->hw;

	atomic64_set(&hwc->prev_shared, box->ops->read(box, event));
	if (box->ops->enable)
		box->ops->enable(event);
	if (list_empty(&r->active))
		hrtimer_start(&r->timer, ns_to_ktime(box->interval),
			      HRTIMER_MODE_REL_PINNED_HARD);
	list_add_tail(&event->active_entry, &r->active);
	hwc->state = 0;
	perf_event_update_userpage(event);
}

static void uncore_event_stop(struct perf_event *event, int flags)
{
	struct uncore_box *box = to_uncore_box(event->pmu);
	struct uncore_reader *r = this_cpu_ptr(box->readers);
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	if (box->ops->disable)
		box->ops->disable(event);
	uncore_event_update(event);
	list_del(&event->active_entry);
	if (list_empty(&r->active))
		hrtimer_cancel(&r->timer);
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int uncore_event_add(struct perf_event *event, int flags)
{
	struct uncore_box *box = to_uncore_box(event->pmu);
	struct uncore_reader *r = this_cpu_ptr(box->readers);
	struct hw_perf_event *hwc = &event->hw;
	int idx;

	/*
	 * Only the reader drives its die's boxes.  Events left on a CPU
	 * that went off line with the rest of its die, and came back after
	 * another CPU of it, wait there: the counters are the reader's.
	 */
	if (!cpumask_test_cpu(smp_processor_id(), &uncore_readers) &&
	    smp_processor_id() != READ_ONCE(uncore_leaving))
		return -EBUSY;
	idx = box->ops->assign(box, event);
	if (idx < 0)
		return idx;
	if (idx != UNCORE_FREE_IDX)
		r->slots[idx] = event;
	hwc->idx = idx;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		uncore_event_start(event, flags);
	return 0;
}

static void uncore_event_del(struct perf_event *event, int flags)
{
	struct uncore_box *box = to_uncore_box(event->pmu);
	struct uncore_reader *r = this_cpu_ptr(box->readers);

	uncore_event_stop(event, PERF_EF_UPDATE);
	if (event->hw.idx != UNCORE_FREE_IDX)
		r->slots[event->hw.idx] = NULL;
	event->hw.idx = -1;
}

static void uncore_event_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		uncore_event_update(event);
}

/* The reader of @cpu's die, or nr_cpu_ids. */
static unsigned int uncore_reader_of(unsigned int cpu)
{
	int die = topology_logical_die_id(cpu);
	unsigned int reader;

	for_each_cpu(reader, &uncore_readers) {
		if (topology_logical_die_id(reader) == die)
			return reader;
	}
	return nr_cpu_ids;
}

static int uncore_event_init(struct perf_event *event)
{
	struct uncore_box *box = to_uncore_box(event->pmu);
	unsigned int reader;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (is_sampling_event(event))
		return -EINVAL;
	if (event->cpu < 0)
		return -EINVAL;
	/* Whichever CPU of the die it was opened on, the reader. */
	reader = uncore_reader_of(event->cpu);
	if (reader >= nr_cpu_ids)
		return -EINVAL;
	event->cpu = reader;
	event->hw.idx = -1;
	event->event_caps |= PERF_EV_CAP_READ_ACTIVE_PKG;
	return box->ops->event_init(box, event);
}

/* The boxes of MSRs */

/* The arbitration box's occupancy events, which count on counter 0 only. */
static bool uncore_counter0_only(struct uncore_box *box, u64 config)
{
	u8 event = config & ARCH_PERFMON_EVENTSEL_EVENT;

	return box->ctl == UNC_ARB_CTL && (event == 0x80 || event == 0x83);
}

/* Whether a group with @event in it still fits @box's counters. */
static bool uncore_msr_group_fits(struct uncore_box *box,
				  struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned int fixed = 0, counter0 = 0, general = 0;
	struct perf_event_context *ctx;
	unsigned long flags;

	ctx = perf_group_lock(event, &flags);
	for_each_sibling_event(sibling, leader) {
		if (sibling->pmu != event->pmu ||
		    READ_ONCE(sibling->state) <= PERF_EVENT_STATE_OFF)
			continue;
		if (sibling->attr.config == UNC_CLOCKTICKS) {
			fixed++;
			continue;
		}
		general++;
		counter0 += uncore_counter0_only(box, sibling->hw.config);
	}
	perf_group_unlock(ctx, flags);
	if (leader != event && leader->pmu == event->pmu) {
		if (leader->attr.config == UNC_CLOCKTICKS) {
			fixed++;
		} else {
			general++;
			counter0 += uncore_counter0_only(box, leader->hw.config);
		}
	}
	if (event->attr.config == UNC_CLOCKTICKS) {
		fixed++;
	} else {
		general++;
		counter0 += uncore_counter0_only(box, event->hw.config);
	}
	return fixed <= 1 && counter0 <= 1 && general <= box->nr;
}

/*
 * Event 0xff with a unit mask of 0x10 or more: 6.1's encoding of a
 * free-running counter (the servers' uncores have them), which these
 * boxes do not have.
 */
static bool uncore_free_running(u64 config)
{
	return (config & 0xff) == 0xff && ((config >> 8) & 0xff) >= 0x10;
}

static int uncore_msr_event_init(struct uncore_box *box,
				 struct perf_event *event)
{
	u64 config = event->attr.config;

	/* The clock counter is the first C-Box's. */
	if (config == UNC_CLOCKTICKS && !box->fixed)
		return -EINVAL;
	if (config != UNC_CLOCKTICKS && uncore_free_running(config))
		return -EINVAL;
	event->hw.config = config == UNC_CLOCKTICKS ? 0 : config & UNC_CTL_MASK;
	if (!uncore_msr_group_fits(box, event))
		return -EINVAL;
	return 0;
}

static int uncore_msr_assign(struct uncore_box *box, struct perf_event *event)
{
	struct uncore_reader *r = this_cpu_ptr(box->readers);
	struct hw_perf_event *hwc = &event->hw;
	int i;

	if (event->attr.config == UNC_CLOCKTICKS) {
		if (r->slots[UNCORE_FIXED_IDX])
			return -EBUSY;
		hwc->config_base = UNC_FIXED_CTL;
		hwc->event_base = UNC_FIXED_CTR;
		return UNCORE_FIXED_IDX;
	}
	if (uncore_counter0_only(box, hwc->config)) {
		i = r->slots[0] ? -EBUSY : 0;
	} else {
		/* The last free counter: counter 0 stays for whom needs it. */
		for (i = box->nr - 1; i >= 0 && r->slots[i]; i--)
			;
		if (i < 0)
			i = -EBUSY;
	}
	if (i >= 0) {
		hwc->config_base = box->ctl + i;
		hwc->event_base = box->ctr + i;
	}
	return i;
}

static u64 uncore_msr_read(struct uncore_box *box, struct perf_event *event)
{
	u64 val;

	rdmsrl(event->hw.event_base, val);
	return val;
}

/*
 * The global control first: suspend and resume, or a firmware, may have
 * cleared it since the die's reader came on line.
 */
static void uncore_msr_enable(struct perf_event *event)
{
	wrmsrl(uncore_global_ctl, uncore_global_on);
	wrmsrl(event->hw.config_base, event->hw.config | UNC_CTL_EN);
}

static void uncore_msr_disable(struct perf_event *event)
{
	wrmsrl(event->hw.config_base, 0);
}

static const struct uncore_box_ops uncore_msr_ops = {
	.event_init	= uncore_msr_event_init,
	.assign		= uncore_msr_assign,
	.read		= uncore_msr_read,
	.enable		= uncore_msr_enable,
	.disable	= uncore_msr_disable,
};

/* Registration */

static const struct pmu uncore_pmu_ops = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
	.event_init	= uncore_event_init,
	.add		= uncore_event_add,
	.del		= uncore_event_del,
	.start		= uncore_event_start,
	.stop		= uncore_event_stop,
	.read		= uncore_event_read,
};

/**
 * uncore_box_register() - registers a box's PMU
 * @box: the box, its name, ops, counters and groups filled in
 *
 * Return: 0, or a negative errno.
 */
int uncore_box_register(struct uncore_box *box)
{
	unsigned int cpu;
	int ret;

	box->readers = alloc_percpu(struct uncore_reader);
	if (!box->readers)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct uncore_reader *r = per_cpu_ptr(box->readers, cpu);

		hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		r->timer.function = uncore_timer_fn;
		r->box = box;
		INIT_LIST_HEAD(&r->active);
	}
	box->pmu = uncore_pmu_ops;
	box->pmu.attr_groups = box->groups;
	/*
	 * Under the hotplug lock: no reader goes off line between an event's
	 * first open and @registered, which has its events move.
	 */
	cpus_read_lock();
	ret = perf_pmu_register(&box->pmu, box->name, -1);
	box->registered = !ret;
	cpus_read_unlock();
	if (ret) {
		free_percpu(box->readers);
		box->readers = NULL;
	}
	return ret;
}

/**
 * uncore_box_unregister() - unregisters a box's PMU, if registered
 * @box: the box
 */
void uncore_box_unregister(struct uncore_box *box)
{
	if (!box->registered)
		return;
	cpus_read_lock();
	box->registered = false;
	perf_pmu_unregister(&box->pmu);
	cpus_read_unlock();
	free_percpu(box->readers);
	box->readers = NULL;
}

/**
 * uncore_box_migrate() - moves a box's events to another CPU
 * @box: the box
 * @from: the reader going off line
 * @to: the die's next reader
 *
 * Context: the hotplug callbacks, under the hotplug lock.
 */
void uncore_box_migrate(struct uncore_box *box, unsigned int from,
			unsigned int to)
{
	if (box->registered)
		perf_pmu_migrate_context(&box->pmu, from, to);
}

static void __init uncore_msr_box(const char *name, u32 ctl, u32 ctr,
				  unsigned int nr, bool fixed)
{
	struct uncore_box *box = &uncore_msr_boxes[uncore_nr_msr_boxes++];

	strscpy(box->name, name, sizeof(box->name));
	box->ops = &uncore_msr_ops;
	box->ctl = ctl;
	box->ctr = ctr;
	box->nr = nr;
	box->fixed = fixed;
	box->width = UNC_WIDTH;
	box->interval = UNC_INTERVAL;
	box->groups[0] = &uncore_cpumask_group;
	box->groups[1] = &uncore_msr_format_group;
}

/* The C-Boxes, one a core up to the model's most, and the arbitration box. */
static void __init uncore_msr_probe(const struct uncore_model *model)
{
	unsigned int n = min_t(unsigned int, boot_cpu_data.x86_max_cores,
			       model->cbox_max);
	char name[24];
	unsigned int b;

	for (b = 0; b < n; b++) {
		u32 ctl = UNC_CBOX_CTL + UNC_CBOX_STRIDE * b;
		u32 ctr = UNC_CBOX_CTR + UNC_CBOX_STRIDE * b;

		if (b == 7) {
			ctl = UNC_CBOX7_CTL;
			ctr = UNC_CBOX7_CTR;
		}
		if (n == 1)
			strscpy(name, "uncore_cbox", sizeof(name));
		else
			snprintf(name, sizeof(name), "uncore_cbox_%u", b);
		uncore_msr_box(name, ctl, ctr, model->cbox_counters, b == 0);
		uncore_msr_boxes[b].groups[2] = &uncore_cbox_events_group;
	}
	uncore_msr_box("uncore_arb", UNC_ARB_CTL, UNC_ARB_CTR, 2, false);
}

/* Every box of this module, for migrating their events. */
static void uncore_migrate(unsigned int from, unsigned int to)
{
	unsigned int i;

	for (i = 0; i < uncore_nr_msr_boxes; i++)
		uncore_box_migrate(&uncore_msr_boxes[i], from, to);
	uncore_imc_migrate(from, to);
}

/* CPU hotplug: each die with a CPU on line has a reader. */

static int uncore_cpu_online(unsigned int cpu)
{
	if (uncore_reader_of(cpu) < nr_cpu_ids)
		return 0;
	cpumask_set_cpu(cpu, &uncore_readers);
	return 0;
}

static int uncore_cpu_offline(unsigned int cpu)
{
	unsigned int next;

	if (!cpumask_test_cpu(cpu, &uncore_readers))
		return 0;
	/* The next reader first: an open never finds the die without. */
	next = cpumask_any_but(topology_die_cpumask(cpu), cpu);
	if (next < nr_cpu_ids)
		cpumask_set_cpu(next, &uncore_readers);
	WRITE_ONCE(uncore_leaving, cpu);
	cpumask_clear_cpu(cpu, &uncore_readers);
	if (next < nr_cpu_ids)
		uncore_migrate(cpu, next);
	else
		wrmsrl(uncore_global_ctl, 0);
	WRITE_ONCE(uncore_leaving, -1);
	return 0;
}

static void uncore_global_off(void *unused)
{
	wrmsrl(uncore_global_ctl, 0);
}

/*
 * Unregister the PMUs, stop following CPU hotplug and stop each die's
 * uncore counting.
 */
static void uncore_teardown(void)
{
	unsigned int i, cpu;

	uncore_imc_exit();
	for (i = 0; i < uncore_nr_msr_boxes; i++)
		uncore_box_unregister(&uncore_msr_boxes[i]);
	cpuhp_remove_state_nocalls(CPUHP_AP_PERF_X86_UNCORE_ONLINE);
	cpus_read_lock();
	for_each_cpu(cpu, &uncore_readers)
		smp_call_function_single(cpu, uncore_global_off, NULL, 1);
	cpumask_clear(&uncore_readers);
	cpus_read_unlock();
}

static int __init intel_uncore_init(void)
{
	const struct x86_cpu_id *id;
	const struct uncore_model *model;
	unsigned int i;
	int ret;

	if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
		return -ENODEV;
	id = x86_match_cpu(uncore_models);
	if (!id)
		return -ENODEV;
	model = (const struct uncore_model *)id->driver_data;
	uncore_global_ctl = model->global_ctl;
	uncore_global_on = model->global_on;

	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_UNCORE_ONLINE,
				"perf/x86/intel/uncore:online",
				uncore_cpu_online, uncore_cpu_offline);
	if (ret < 0)
		return ret;
	uncore_msr_probe(model);
	for (i = 0; i < uncore_nr_msr_boxes; i++) {
		ret = uncore_box_register(&uncore_msr_boxes[i]);
		if (ret)
			goto fail;
	}
	/* The boxes of MSRs count without the memory controller's. */
	ret = uncore_imc_init();
	if (ret && ret != -ENODEV)
		pr_warn("no uncore_imc: %d\n", ret);
	return 0;

fail:
	uncore_teardown();
	return ret;
}
module_init(intel_uncore_init);

static void __exit intel_uncore_exit(void)
{
	uncore_teardown();
}
module_exit(intel_uncore_exit);

MODULE_DESCRIPTION("The uncore counters of Intel's client parts as the uncore_cbox, uncore_arb and uncore_imc PMUs");
MODULE_LICENSE("GPL");
