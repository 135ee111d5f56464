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
 * than silicon's and which tests may hold to it.  TCG gives its
 * signature in leaf 0x40000000 even to the flavours that clear the
 * hypervisor bit (bare metal, for 6.1's C-state PMUs); silicon answers
 * a leaf past its last with that last leaf's data, never the signature.
 */
static inline bool hw_emulated_pmu(void)
{
	unsigned int eax, ebx, ecx, edx;

	__cpuid(0x40000000, eax, ebx, ecx, edx);
	return ebx == 0x54474354 && ecx == 0x43544743 && edx == 0x47435447;
}

#endif
