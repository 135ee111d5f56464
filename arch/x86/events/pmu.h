/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86 counter PMU ("cpu"): what the vendor-neutral part (counters.c,
 * assign.c, nmi.c, rdpmc.c, sysfs.c) and the vendor parts (intel/, amd/)
 * share.
 *
 * Counters are numbered as the bits of IA32_PERF_GLOBAL_CTRL: general
 * counters from 0, Intel's fixed counters from X86_PMC_FIXED (32).  A set
 * of counters is a u64 with one bit per counter.
 *
 * A vendor fills in struct x86_pmu at boot (intel_pmu_probe(),
 * amd_pmu_probe()): what the hardware has, how events map onto it, and
 * the few operations that differ between vendors.  Nothing in it changes
 * after boot but the rdpmc and freeze_on_smi settings.
 *
 * What differs between the kinds of CPU of one machine (Intel's hybrids:
 * big cores and Atom cores, with different counters and events) is in a
 * struct x86_cpu_type each, with a PMU each; a machine with one kind of
 * CPU has one, the "cpu" PMU (cpu_type.c).
 */
#ifndef _ARCH_X86_EVENTS_PMU_H
#define _ARCH_X86_EVENTS_PMU_H

#include <linux/perf_event.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/sysfs.h>
#include <trace/events/perf.h>
#include <asm/msr.h>

#define X86_PMC_FIXED		INTEL_PMC_IDX_FIXED
#define X86_PMC_MAX		X86_PMC_IDX_MAX

/*
 * Intel's fixed counter 3, the topdown slots, and the pseudo-counters of
 * the topdown metrics (intel/topdown.c), one a metric from bit 48, which
 * have no register of their own.
 */
#define X86_PMC_SLOTS		(X86_PMC_FIXED + 3)
#define X86_PMC_METRIC		INTEL_PMC_IDX_METRIC_BASE

/*
 * In a set of counters an event may use: the event takes the counter it
 * gets and the one above it (AMD's large-increment events, whose carries
 * the odd counter of the pair counts).  Never a counter: X86_PMC_MAX
 * counters are never all there.
 */
#define X86_COUNTERS_PAIR	BIT_ULL(X86_PMC_MAX - 1)

/* hw_perf_event::x86_flags */
#define X86_EVENT_USER_RDPMC	BIT(0)	/* user space may rdpmc it */
/*
 * Its samples come from records the hardware writes (Intel's PEBS), not
 * from its counter's overflow; the counter reloads its period itself
 * with each record (the count needs the records: struct x86_pmu's
 * @drain); many records may come before an interrupt, so they are also
 * taken as the task switches out.
 */
#define X86_EVENT_PRECISE	BIT(1)
#define X86_EVENT_AUTO_RELOAD	BIT(2)
#define X86_EVENT_LARGE		BIT(3)
/* The bits from here up are the vendor's. */
#define X86_EVENT_VENDOR_SHIFT	8

/* What a hardware event code of a map may also be: refused with EINVAL. */
#define X86_EVENT_INVALID	(~0ULL)

/* A table of cache events, indexed by cache, operation and result. */
typedef u64 x86_cache_map_t[PERF_COUNT_HW_CACHE_MAX]
			   [PERF_COUNT_HW_CACHE_OP_MAX]
			   [PERF_COUNT_HW_CACHE_RESULT_MAX];

struct intel_model;

/*
 * The registers beside the event selects that some events need (Intel's
 * offcore response, load latency and front-end MSRs), at most this many
 * a CPU type: extra_regs.c.
 */
#define X86_EXTRA_REGS		4

/**
 * struct x86_extra_reg - a register beside the event selects
 * @msr: its address; 0 where the CPU type has none in this place
 * @code: the event select and unit mask an event that has this register
 *	is programmed with (an event that may have either of two
 *	registers, MSR_OFFCORE_RSP_0 or _1, counts as the one it has), or
 *	0 to keep the event's own
 */
struct x86_extra_reg {
	u32	msr;
	u16	code;
};

/**
 * struct x86_extra_use - what one set of extra registers holds
 * @value: what each register holds while it has users
 * @users: how many events have each register; 0: it is free
 *
 * One CPU's (struct x86_pmu_cpu's @extra), or a group's being checked
 * at open.  Events with the same value share a register.
 */
struct x86_extra_use {
	u64		value[X86_EXTRA_REGS];
	unsigned int	users[X86_EXTRA_REGS];
};

int x86_extra_get(struct x86_extra_use *use, const struct perf_event *event);
void x86_extra_put(struct x86_extra_use *use, int idx);
void x86_extra_take(struct perf_event *event, int idx);

/*
 * Kinds of branch (branch_kind.c), with the privilege level of their
 * target: what a branch recorder's software filter keeps or drops.
 */
#define X86_BRANCH_USER		BIT(0)	/* to user space */
#define X86_BRANCH_KERNEL	BIT(1)	/* to the kernel */
#define X86_BRANCH_CALL		BIT(2)	/* direct call */
#define X86_BRANCH_IND_CALL	BIT(3)	/* indirect call */
#define X86_BRANCH_RET		BIT(4)	/* return */
#define X86_BRANCH_SYSCALL	BIT(5)	/* SYSCALL, SYSENTER */
#define X86_BRANCH_SYSRET	BIT(6)	/* SYSRET, SYSEXIT */
#define X86_BRANCH_INT		BIT(7)	/* software interrupt */
#define X86_BRANCH_IRET		BIT(8)	/* return from interrupt */
#define X86_BRANCH_JCC		BIT(9)	/* conditional branch */
#define X86_BRANCH_JMP		BIT(10)	/* direct jump */
#define X86_BRANCH_IND_JMP	BIT(11)	/* indirect jump */
#define X86_BRANCH_IRQ		BIT(12)	/* interrupt, trap or fault */
#define X86_BRANCH_ZERO_CALL	BIT(13)	/* call to the next instruction */
#define X86_BRANCH_LEVELS	(X86_BRANCH_USER | X86_BRANCH_KERNEL)
#define X86_BRANCH_KINDS	(BIT(14) - 1 - X86_BRANCH_LEVELS)

/* The privilege level of an address: the kernel's are the upper half. */
static inline u32 x86_branch_level(u64 addr)
{
	return (s64)addr < 0 ? X86_BRANCH_KERNEL : X86_BRANCH_USER;
}

u32 x86_branch_kind_bytes(const u8 *buf, unsigned int len);
u32 x86_branch_kind(u64 from, u64 to);
int x86_branch_perf_type(u32 kind);

/* The kinds of CPU one machine may have: two on Intel's hybrids. */
#define X86_MAX_CPU_TYPES	2

/*
 * The attribute groups of a CPU type's PMU directory at most: format/,
 * events/, caps/, rdpmc, the vendor's extra files, cpus (hybrids), and
 * the NULL that ends them.
 */
#define X86_TYPE_GROUPS		7

/**
 * struct x86_cpu_type - one kind of CPU of this machine, and its PMU
 * @pmu: the PMU its events are opened on
 * @name: the PMU's name: "cpu" where every CPU is of one kind,
 *	"cpu_core" and "cpu_atom" on Intel's hybrids
 * @core_type: a hybrid's core type of this kind (CPUID 0x1A EAX[31:24]),
 *	0 on a machine with one kind
 * @cpus: the CPUs of this kind that are up (the hybrid PMUs' cpus file)
 * @gp: its general counters
 * @fixed: its fixed counters
 * @metrics: the pseudo-counters of its topdown metrics, or 0
 * @event_map: event code of each PERF_COUNT_HW_*; 0 for none,
 *	X86_EVENT_INVALID to refuse it with EINVAL
 * @cache_map: event code of each cache event; 0 for none, or NULL
 * @model: Intel's table of the kind's model, or NULL
 * @extra_present: the vendor's: which extra MSRs of @model the kind has
 * @extra: the registers beside the event selects its events may need
 * @extra_format: the model's format/ files beyond the vendor's, or NULL
 * @extra_events: events/ files beyond the generic ones, or NULL
 * @topdown_events: the topdown events/ files (slots and metrics), or NULL
 * @precise_events: the events/ files of precise sampling (mem-loads and
 *	mem-stores), or NULL
 * @announced: its counters went to the boot log
 * @events_group: its events/ directory
 * @format_group: its format/ directory
 * @groups: the attribute groups of its PMU's directory
 *
 * Filled in at boot by the vendor and by sysfs.c.  Later, as CPUs come
 * and go (in their hotplug callbacks), only @cpus changes, and, at the
 * first CPU of a hybrid's kind, @extra_present, @gp and @fixed (what
 * the kind turns out to have) and @announced.
 */
struct x86_cpu_type {
	struct pmu		pmu;
	const char		*name;
	u8			core_type;
	cpumask_t		cpus;
	u64			gp;
	u64			fixed;
	u64			metrics;
	u64			event_map[PERF_COUNT_HW_MAX];
	const x86_cache_map_t	*cache_map;
	const struct intel_model *model;
	unsigned long		extra_present;
	struct x86_extra_reg	extra[X86_EXTRA_REGS];
	struct attribute	**extra_format;
	struct attribute	**extra_events;
	struct attribute	**topdown_events;
	struct attribute	**precise_events;
	bool			announced;
	struct attribute_group	events_group;
	struct attribute_group	format_group;
	const struct attribute_group *groups[X86_TYPE_GROUPS];
};

extern struct x86_cpu_type x86_cpu_types[X86_MAX_CPU_TYPES];

/**
 * struct x86_pmu - the counter hardware of this machine and its driver
 * @name: for the boot message ("generic architected perfmon", ...)
 * @driver: the driver's name in the boot message ("Intel", "AMD")
 * @pmu_name: caps/pmu_name, or NULL for none
 * @version: architectural perfmon version (AMD: 2 with PerfMonV2)
 * @width: bits in a counter
 * @gp: the general counters every CPU has (a CPU type may have more)
 * @fixed: the fixed counters every CPU has
 * @n_types: how many kinds of CPU there are (struct x86_cpu_type)
 * @max_period: the longest period a counter can be loaded with
 * @evtsel: MSR of general counter 0's event select
 * @ctr: MSR of general counter 0
 * @stride: MSR distance between general counters
 * @raw_mask: attr.config bits a raw event may set
 * @format: the vendor's own format/ files, beyond the fields all x86
 *	event selects share (umask, edge, inv, cmask), which sysfs.c adds
 * @extra_attrs: more attributes in the PMU's directory, or NULL
 * @hw_config: check a new event and fill in hw.config: 0 or -errno
 * @counters_for: the counters of a CPU type an event with this config
 *	may use
 * @enable_all: let the counters in the set count
 * @disable_all: stop every counter at once
 * @enable: start one counter with the event's config
 * @disable: stop one counter
 * @status: the counters that overflowed
 * @ack: clear the overflow bits in the set
 * @reset: put this CPU's counters in their boot state
 * @cpu_type: the kind of this CPU, where there is more than one
 * @type_starting: the first CPU of a kind is coming up, on that CPU
 *	(hybrid only; before @reset): complete the kind and log it
 * @rdpmc_index: the ECX of rdpmc for a counter
 * @events_mask: Intel's CPUID 0xA EBX: architectural events the CPU
 *	does not have (a set bit is a missing event)
 * @events_mask_len: how many bits of @events_mask are defined
 * @guest_msrs: the MSRs to switch at VM entry and exit (guest.c), or
 *	NULL if there are none
 * @topdown_update: x86_event_update() of an event on a topdown counter
 *	(metrics, and the slots counter while it counts for them: struct
 *	x86_pmu_cpu's @topdown), or NULL where no CPU has metrics
 * @topdown_set_period: x86_event_set_period() of such an event
 * @branches: the entries of the branch recorder (caps/branches), 0 for
 *	none
 * @branch_start: the first event recording branches (has_branch_stack())
 *	goes on this CPU: start the recorder afresh; NULL where there is
 *	none (the vendor's hw_config refuses such events)
 * @branch_stop: the last one goes off
 * @branch_read: at the PMI, with the counters disabled: take what the
 *	recorder holds, once for all the samples of this PMI
 * @branch_sample: the branches for a sample of an event recording them,
 *	as its branch_sample_type asks, from what @branch_read took
 * @branch_switch: pmu::sched_task() while an event records branches
 * @limit_period: the period an event's counter is loaded with for
 *	@left events to go: @left, or more where the model cannot take so
 *	few; NULL where every period is taken.  A sample period it would
 *	lengthen is refused.
 * @max_precise: the highest attr.precise_ip it takes (caps/max_precise)
 * @precise_counters: the counters a precise event may use, in place of
 *	@counters_for's; NULL where there is no precise sampling
 * @drain: turn the records the hardware wrote into samples, and bring
 *	the counts of X86_EVENT_AUTO_RELOAD events up to date, with the
 *	counters stopped; @iregs are the registers the PMI interrupted, or
 *	NULL elsewhere.  Returns how many events had records.
 * @drain_status: the bits of @status that ask for @drain
 */
struct x86_pmu {
	const char		*name;
	const char		*driver;
	const char		*pmu_name;
	unsigned int		version;
	unsigned int		width;
	u64			gp;
	u64			fixed;
	unsigned int		n_types;
	u64			max_period;
	u32			evtsel;
	u32			ctr;
	u32			stride;
	u64			raw_mask;
	struct attribute	**format;
	struct attribute	**extra_attrs;

	int	(*hw_config)(struct perf_event *event);
	u64	(*counters_for)(const struct x86_cpu_type *type, u64 config);
	void	(*enable_all)(u64 running);
	void	(*disable_all)(u64 running);
	void	(*enable)(struct perf_event *event);
	void	(*disable)(struct perf_event *event);
	u64	(*status)(u64 running);
	void	(*ack)(u64 status);
	void	(*reset)(void);
	struct x86_cpu_type *(*cpu_type)(void);
	void	(*type_starting)(struct x86_cpu_type *type);
	u32	(*rdpmc_index)(int idx);
	unsigned int		events_mask;
	unsigned int		events_mask_len;
	struct perf_guest_switch_msr *(*guest_msrs)(int *nr, void *data);
	void	(*topdown_update)(struct perf_event *event);
	void	(*topdown_set_period)(struct perf_event *event);
	u64	(*limit_period)(struct perf_event *event, u64 left);
	unsigned int		branches;
	void	(*branch_start)(void);
	void	(*branch_stop)(void);
	void	(*branch_read)(void);
	struct perf_branch_stack *(*branch_sample)(struct perf_event *event);
	void	(*branch_switch)(struct perf_event_context *ctx, bool sched_in);
	unsigned int		max_precise;
	u64	(*precise_counters)(struct perf_event *event);
	int	(*drain)(struct pt_regs *iregs);
	u64			drain_status;
};

extern struct x86_pmu x86_pmu;

/* The callbacks and capabilities every CPU type's PMU is made from. */
extern struct pmu x86_cpu_pmu;

/*
 * The most events one CPU can have on its counters at once; more than
 * that can never fit.
 */
#define X86_PMU_MAX_EVENTS	(INTEL_PMC_MAX_GENERIC + INTEL_PMC_MAX_FIXED + \
				 INTEL_TD_METRIC_NUM)

/**
 * struct x86_pmu_cpu - one CPU's counters
 * @events: the events added to this CPU's PMU, in the order added
 * @assign: the counter chosen for each of @events
 * @n_events: how many there are
 * @type: the kind of this CPU, from when it comes up
 * @on: the event each counter runs, or NULL
 * @placed: counters programmed for the event in @on
 * @running: counters of @placed that are counting
 * @used: counters that may hold a count user space must not see
 * @topdown: the slots counter's bit while it counts for the topdown
 *	metrics, from zero (intel/topdown.c); cleared as its event leaves
 * @pending: events were added since the counters were last placed
 * @enabled: the PMU is not inside perf_pmu_disable()
 * @extra: what its extra registers hold for the events added to it
 * @branch_users: events added to it that record branches
 * @branch_select: the filter they share (hw.branch_select)
 * @precise: counters whose events' samples come from records
 *	(X86_EVENT_PRECISE), not from their overflow bits; the vendor's
 * @n_large: events added to it that take many records an interrupt
 *	(X86_EVENT_LARGE), which a task switch drains
 *
 * Locking: changed only on its own CPU with interrupts off, by the
 * core's add/del/start/stop and perf_pmu_enable/disable.  The NMI
 * handler may run in between: it looks only at @running counters and
 * at the events in @on for them, and a counter's bit in @running is
 * cleared before its @on entry changes and set after; it never looks at
 * @extra.  What it reads (@on, @enabled, @precise, @branch_users) is
 * stored with WRITE_ONCE(); @running and @precise, which its
 * x86_pmu_stop() of a throttled event also changes, only with
 * this_cpu_or()/this_cpu_and(), single instructions it cannot come in
 * the middle of.
 */
struct x86_pmu_cpu {
	struct x86_cpu_type	*type;
	struct perf_event	*events[X86_PMU_MAX_EVENTS];
	int			assign[X86_PMU_MAX_EVENTS];
	int			n_events;
	struct perf_event	*on[X86_PMC_MAX];
	u64			placed;
	u64			running;
	u64			used;
	u64			topdown;
	bool			pending;
	bool			enabled;
	struct x86_extra_use	extra;
	unsigned int		branch_users;
	u64			branch_select;
	u64			precise;
	unsigned int		n_large;
};

DECLARE_PER_CPU(struct x86_pmu_cpu, x86_pmu_cpu);
DECLARE_PER_CPU(unsigned long, x86_pmi_count);

bool x86_assign_counters(const u64 *allowed, int n, int *assign);
int x86_cache_lookup(const x86_cache_map_t *map, u64 config, u64 *entry);

void x86_event_update(struct perf_event *event);
void x86_event_set_period(struct perf_event *event);
void x86_pmu_stop(struct perf_event *event, int flags);
void x86_enable_each(u64 running);
void x86_disable_each(u64 running);
u64 x86_status_by_sign(u64 running);
void x86_ack_nothing(u64 status);
int x86_hw_config(struct perf_event *event);
int x86_pmu_register(void);
int x86_pmu_event_init(struct perf_event *event);

/* The CPU type of an event of one of the x86 PMUs. */
static inline struct x86_cpu_type *x86_event_type(struct perf_event *event)
{
	return container_of(event->pmu, struct x86_cpu_type, pmu);
}

/* Whether @event is an event of one of the x86 PMUs. */
static inline bool is_x86_event(struct perf_event *event)
{
	return event->pmu && event->pmu->event_init == x86_pmu_event_init;
}

/*
 * This CPU's type: from the driver's start the first type, until the
 * CPU comes up and learns its own.
 */
static inline struct x86_cpu_type *x86_this_cpu_type(void)
{
	return this_cpu_read(x86_pmu_cpu.type);
}

void x86_cpu_types_init(void);
int x86_cpu_types_register(void);
void x86_cpu_type_starting(unsigned int cpu);
void x86_cpu_type_dying(unsigned int cpu);
void x86_pmu_announce(const struct x86_cpu_type *type);

/**
 * struct x86_str_attr - a file of the PMU's directory that shows a string
 * @attr: the file
 * @str: what it shows, without the newline
 */
struct x86_str_attr {
	struct device_attribute	attr;
	const char		*str;
};

ssize_t x86_str_show(struct device *dev, struct device_attribute *attr,
		     char *page);

#define X86_STR_ATTR(_var, _name, _str)					\
	static struct x86_str_attr _var = {				\
		.attr = __ATTR(_name, 0444, x86_str_show, NULL),	\
		.str = _str,						\
	}

/* A format/ file: the config bits of a field, "config:0-7". */
#define X86_FORMAT_ATTR(_var, _name, _bits)	X86_STR_ATTR(_var, _name, _bits)

/* An events/ file beyond the generic ones, named by a string. */
#define X86_EVENT_STR_ATTR(_var, _name, _terms)				\
	static struct x86_str_attr _var = {				\
		.attr = {						\
			.attr = { .name = _name, .mode = 0444 },	\
			.show = x86_str_show,				\
		},							\
		.str = _terms,						\
	}

void x86_pmu_nmi_init(void);
void x86_pmu_nmi_exit(void);
int x86_pmu_sysfs_init(struct x86_cpu_type *type);
void x86_rdpmc_init_event(struct perf_event *event);
void x86_rdpmc_mapped(struct perf_event *event, struct mm_struct *mm);
void x86_rdpmc_unmapped(struct perf_event *event, struct mm_struct *mm);
void x86_rdpmc_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *up);
extern struct attribute *x86_rdpmc_attrs[];

/**
 * x86_wrmsr_copy - write a control MSR from this CPU's copy of it, until
 *	the copy holds still
 * @msr: the register
 * @copy: the copy, which changes only in single this_cpu operations
 *
 * Interrupts off do not hold off the overflow NMI, which may change the
 * copy (its throttle stops a counter) and write the register between
 * the read of the copy here and the write: the write is done again
 * until the copy read after it is what was written.
 */
static inline void x86_wrmsr_copy(u32 msr, u64 __percpu *copy)
{
	u64 val = this_cpu_read(*copy), old;

	do {
		wrmsrl(msr, val);
		old = val;
		val = this_cpu_read(*copy);
	} while (val != old);
}

/* The counter MSRs of general counter @idx. */
static inline u32 x86_evtsel_msr(int idx)
{
	return x86_pmu.evtsel + idx * x86_pmu.stride;
}

static inline u32 x86_ctr_msr(int idx)
{
	return x86_pmu.ctr + idx * x86_pmu.stride;
}

/* The counters of a CPU type. */
static inline u64 x86_type_counters(const struct x86_cpu_type *type)
{
	return type->gp | type->fixed;
}

#ifdef CONFIG_CPU_SUP_INTEL
int intel_pmu_probe(void);
#else
static inline int intel_pmu_probe(void) { return -ENODEV; }
#endif

#ifdef CONFIG_CPU_SUP_AMD
int amd_pmu_probe(void);
#else
static inline int amd_pmu_probe(void) { return -ENODEV; }
#endif

#endif /* _ARCH_X86_EVENTS_PMU_H */
