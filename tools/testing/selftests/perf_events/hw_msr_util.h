/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU 0's model-specific registers through the msr driver
 * (CONFIG_X86_MSR, /dev/cpu/0/msr, root), for the hardware tests that
 * read what the kernel programmed or probe what the CPU has: the test
 * opens msr_fd itself.
 */
#ifndef HW_MSR_UTIL_H
#define HW_MSR_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <unistd.h>
#include <linux/types.h>

static int msr_fd = -1;

/* 0, or -errno (EIO: the register faults). */
static int __attribute__((unused)) rdmsr(__u32 msr, __u64 *val)
{
	return pread(msr_fd, val, sizeof(*val), msr) == sizeof(*val) ? 0 : -errno;
}

static int __attribute__((unused)) wrmsr(__u32 msr, __u64 val)
{
	return pwrite(msr_fd, &val, sizeof(val), msr) == sizeof(val) ? 0 : -errno;
}

/*
 * Whether the register keeps a value written to it, as a CPU that has it
 * does (restored after); a hypervisor may leave it out, and fault on it
 * or drop writes.
 */
static bool __attribute__((unused)) msr_holds(__u32 msr)
{
	__u64 val, back;

	if (rdmsr(msr, &val) || wrmsr(msr, val ^ 1))
		return false;
	if (rdmsr(msr, &back))
		back = ~(val ^ 1);
	wrmsr(msr, val);
	return back == (val ^ 1);
}

#endif /* HW_MSR_UTIL_H */
