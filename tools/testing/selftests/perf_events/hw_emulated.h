/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether the tests run on the harness's emulated PMU (QEMU's TCG with
 * harness/qemu's patches), for the tests and the workloads that hold it
 * to its documented models.
 */
#ifndef HW_EMULATED_H
#define HW_EMULATED_H

#include <cpuid.h>
#include <stdbool.h>

/*
 * Whether the CPU is QEMU's TCG (hypervisor signature "TCGTCGTCGTCG"):
 * the harness's emulated PMU, whose model of the pipeline is simpler
 * than silicon's and which tests may hold to it.
 */
static inline bool hw_emulated_pmu(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1U << 31)))
		return false;
	__cpuid(0x40000000, eax, ebx, ecx, edx);
	return ebx == 0x54474354 && ecx == 0x43544743 && edx == 0x47435447;
}

#endif
