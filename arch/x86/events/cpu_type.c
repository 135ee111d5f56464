// SPDX-License-Identifier: GPL-2.0
/*
 * The kinds of CPU of this machine, each with its own PMU.
 *
 * Most machines have one kind of CPU: one struct x86_cpu_type, whose
 * PMU is "cpu" (PERF_TYPE_RAW).  Intel's hybrids (Alder Lake, Raptor
 * Lake) mix big cores and Atom cores, whose counters and events differ:
 * a PMU for each, "cpu_core" (PERF_TYPE_RAW) and "cpu_atom" (a dynamic
 * type), each counting only on the CPUs of its kind.  An event of one
 * runs where its PMU's filter_match() lets it; a generic event names
 * its PMU in the upper half of its config (PERF_PMU_CAP_EXTENDED_HW_TYPE),
 * as perf does on such a machine; an event bound to a CPU of the other
 * kind is not the PMU's (-ENOENT); a group of both kinds never runs
 * (-EINVAL).
 *
 * A CPU learns its kind as it comes up (x86_pmu.cpu_type()), before its
 * counters are reset; the first of a kind completes the kind's tables
 * on a CPU that has them (x86_pmu.type_starting()).
 */
#include <linux/cpumask.h>
#include <linux/perf_event.h>

#include "pmu.h"

struct x86_cpu_type x86_cpu_types[X86_MAX_CPU_TYPES];

/*
 * A hybrid PMU's events run on the CPUs of its kind only; a task's event
 * of the other kind waits, counting nothing, while the task runs there.
 */
static int x86_type_filter_match(struct perf_event *event)
{
	return cpumask_test_cpu(smp_processor_id(),
				&x86_event_type(event)->cpus);
}

/**
 * x86_cpu_types_init - make each CPU type's PMU from the template
 *
 * Called once at boot after the vendor's probe, which set n_types and
 * each type's name.
 */
void __init x86_cpu_types_init(void)
{
	struct x86_cpu_type *type;
	unsigned int i;
	int cpu;

	if (!x86_pmu.n_types)
		x86_pmu.n_types = 1;
	for (i = 0; i < x86_pmu.n_types; i++) {
		type = &x86_cpu_types[i];
		type->pmu = x86_cpu_pmu;
		if (!type->name)
			type->name = "cpu";
		if (x86_pmu.n_types > 1) {
			type->pmu.capabilities |= PERF_PMU_CAP_EXTENDED_HW_TYPE;
			type->pmu.filter_match = x86_type_filter_match;
		}
	}
	/*
	 * Until a CPU comes up and learns its kind (the overflow NMI may
	 * come before: a counter the BIOS left running), it is of the
	 * first; nothing of it is programmed until then.
	 */
	for_each_possible_cpu(cpu)
		per_cpu(x86_pmu_cpu.type, cpu) = &x86_cpu_types[0];
}

/**
 * x86_cpu_types_register - register each CPU type's PMU
 *
 * The first type's PMU takes PERF_TYPE_RAW, any other a dynamic type.
 * They are registered last type first, as 6.1 registers a hybrid's
 * cpu_atom before its cpu_core: a generic event that the core does not
 * give to the cpu PMU (one that names a PMU nobody has) goes to the
 * first registered that takes it, the Atom's there.
 *
 * Return: 0 or -errno (and no PMU is left registered).
 */
int __init x86_cpu_types_register(void)
{
	struct x86_cpu_type *type;
	unsigned int i = x86_pmu.n_types;
	int ret = 0;

	while (i--) {
		type = &x86_cpu_types[i];
		ret = x86_pmu_sysfs_init(type);
		if (!ret)
			ret = perf_pmu_register(&type->pmu, type->name,
						i ? -1 : PERF_TYPE_RAW);
		if (ret)
			break;
	}
	if (ret) {
		while (++i < x86_pmu.n_types)
			perf_pmu_unregister(&x86_cpu_types[i].pmu);
	}
	return ret;
}

/**
 * x86_cpu_type_starting - a CPU comes up: learn its kind
 * @cpu: the CPU, the current one
 *
 * Before its counters are reset, which depends on the kind.
 */
void x86_cpu_type_starting(unsigned int cpu)
{
	struct x86_cpu_type *type = &x86_cpu_types[0];

	if (x86_pmu.n_types > 1)
		type = x86_pmu.cpu_type();
	if (!type->announced) {
		if (x86_pmu.type_starting)
			x86_pmu.type_starting(type);
		type->announced = true;
	}
	cpumask_set_cpu(cpu, &type->cpus);
	this_cpu_write(x86_pmu_cpu.type, type);
}

/**
 * x86_cpu_type_dying - a CPU goes down: it is no CPU of its kind any more
 * @cpu: the CPU, the current one
 */
void x86_cpu_type_dying(unsigned int cpu)
{
	cpumask_clear_cpu(cpu, &x86_this_cpu_type()->cpus);
}

/**
 * x86_pmu_announce - the counter summary of the boot log
 * @type: the CPU type whose counters are logged
 *
 * The same on every vendor; on a hybrid, once for each kind, as its
 * first CPU comes up.
 */
void x86_pmu_announce(const struct x86_cpu_type *type)
{
	pr_info("... version:                %u\n", x86_pmu.version);
	pr_info("... bit width:              %u\n", x86_pmu.width);
	pr_info("... generic registers:      %u\n",
		(unsigned int)hweight64(type->gp));
	pr_info("... value mask:             %016llx\n",
		GENMASK_ULL(x86_pmu.width - 1, 0));
	pr_info("... max period:             %016llx\n", x86_pmu.max_period);
	pr_info("... fixed-purpose events:   %u\n",
		(unsigned int)hweight64(type->fixed));
	/* The metrics show as one bit, their enable in the global control. */
	pr_info("... event mask:             %016llx\n",
		x86_type_counters(type) |
		(type->metrics ? BIT_ULL(X86_PMC_METRIC) : 0));
}
