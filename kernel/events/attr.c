// SPDX-License-Identifier: GPL-2.0
/*
 * Copying struct perf_event_attr from user space and checking it.
 *
 * The structure grows over time; user space passes the size it knows in
 * attr.size.  An older, smaller structure is accepted and zero-extended;
 * a larger one is accepted only if everything past our size is zero.
 * Otherwise the call fails with E2BIG and attr.size is overwritten with
 * the size this kernel knows, so the caller can retry.
 */
#include <linux/perf_event.h>
#include <linux/uaccess.h>
#include <linux/time.h>
#include <linux/perf_regs.h>

#include "internal.h"

#define PERF_FLAG_ALL	(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | \
			 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)

/**
 * perf_check_open_flags - check the flags argument of perf_event_open()
 * @flags: PERF_FLAG_* bits
 *
 * Return: 0, or -EINVAL for a bit we do not know.
 */
int perf_check_open_flags(unsigned long flags)
{
	return flags & ~PERF_FLAG_ALL ? -EINVAL : 0;
}

static bool perf_clockid_valid(clockid_t id)
{
	switch (id) {
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME:
	case CLOCK_BOOTTIME:
	case CLOCK_TAI:
		return true;
	default:
		return false;
	}
}

/* The reserved fields and the bits no kernel knows. */
static int perf_check_attr_format(const struct perf_event_attr *attr)
{
	if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3)
		return -EINVAL;

	if (attr->sample_type & ~(PERF_SAMPLE_MAX - 1))
		return -EINVAL;

	if (attr->read_format & ~(PERF_FORMAT_MAX - 1))
		return -EINVAL;

	/* A branch stack of known branch types, and of at least one. */
	if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK &&
	    (attr->branch_sample_type & ~(PERF_SAMPLE_BRANCH_MAX - 1) ||
	     !(attr->branch_sample_type & ~PERF_SAMPLE_BRANCH_PLM_ALL)))
		return -EINVAL;

	return 0;
}

/* The fields that depend on each other. */
static int perf_check_attr_fields(const struct perf_event_attr *attr)
{
	/* One format of weight or the other. */
	if ((attr->sample_type & PERF_SAMPLE_WEIGHT_TYPE) ==
	    PERF_SAMPLE_WEIGHT_TYPE)
		return -EINVAL;

	if (attr->sample_type & PERF_SAMPLE_REGS_USER &&
	    perf_reg_validate(attr->sample_regs_user))
		return -EINVAL;

	if (attr->sample_type & PERF_SAMPLE_REGS_INTR &&
	    perf_reg_validate(attr->sample_regs_intr))
		return -EINVAL;

	if (attr->sample_type & PERF_SAMPLE_STACK_USER &&
	    (attr->sample_stack_user > USHRT_MAX ||
	     !IS_ALIGNED(attr->sample_stack_user, sizeof(u64))))
		return -EINVAL;

#ifndef CONFIG_CGROUP_PERF
	if (attr->sample_type & PERF_SAMPLE_CGROUP)
		return -EINVAL;
#endif

	if (attr->inherit_thread && !attr->inherit)
		return -EINVAL;

	if (attr->remove_on_exec && attr->enable_on_exec)
		return -EINVAL;

	if (attr->sigtrap && !attr->remove_on_exec)
		return -EINVAL;

	return 0;
}

/**
 * perf_check_attr_period - check attr.sample_period
 * @attr: the attributes
 *
 * perf_event_open() makes this check after the privilege checks, so
 * that a caller without the privilege learns nothing more.
 *
 * Return: 0, or -EINVAL for a period with the top bit set (it would be
 * negative to the PMUs).
 */
int perf_check_attr_period(const struct perf_event_attr *attr)
{
	return !attr->freq && attr->sample_period & BIT_ULL(63) ? -EINVAL : 0;
}

/**
 * perf_check_attr_inherit - check what inherit does not go with
 * @attr: the attributes
 *
 * perf_event_open() makes this check once it has found the target.
 *
 * Return: 0, or -EINVAL for an inherited event whose samples would
 * carry its value (they cannot carry the sum over the inherited copies).
 */
int perf_check_attr_inherit(const struct perf_event_attr *attr)
{
	return attr->inherit && attr->sample_type & PERF_SAMPLE_READ ?
	       -EINVAL : 0;
}

/**
 * perf_check_attr - check an attribute structure for what no PMU accepts
 * @attr: the attributes, already copied into the kernel
 *
 * Checks the reserved fields, the sample_type and read_format bits and the
 * combinations of flags that perf_event_open(2) documents as invalid.
 * Checks that need a PMU or the caller's privileges come later.
 * perf_event_open() makes the same checks, but some of them later, in
 * the order Linux 6.1 makes them: see perf_copy_attr().
 *
 * Return: 0 or -EINVAL.
 */
int perf_check_attr(const struct perf_event_attr *attr)
{
	int ret = perf_check_attr_format(attr);

	if (!ret)
		ret = perf_check_attr_fields(attr);
	if (!ret)
		ret = perf_check_attr_period(attr);
	if (!ret && attr->use_clockid && !perf_clockid_valid(attr->clockid))
		ret = -EINVAL;
	if (!ret)
		ret = perf_check_attr_inherit(attr);
	return ret;
}

/*
 * A branch stack records the privilege levels branch_sample_type names,
 * or, if it names none, those the event counts in; the kernel's and the
 * hypervisor's need the privilege to watch the kernel.
 */
static int perf_check_attr_branch_privilege(struct perf_event_attr *attr)
{
	u64 *types = &attr->branch_sample_type;

	if (!(attr->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return 0;
	if (!(*types & PERF_SAMPLE_BRANCH_PLM_ALL)) {
		if (!attr->exclude_user)
			*types |= PERF_SAMPLE_BRANCH_USER;
		if (!attr->exclude_kernel)
			*types |= PERF_SAMPLE_BRANCH_KERNEL;
		if (!attr->exclude_hv)
			*types |= PERF_SAMPLE_BRANCH_HV;
	}
	if (*types & (PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV))
		return perf_allow_kernel(attr);
	return 0;
}

/**
 * perf_copy_attr - copy struct perf_event_attr from user space
 * @uattr: the user's structure
 * @attr: where to put it
 *
 * Checks what perf_check_attr() checks but the period, the clock and
 * inherit with PERF_SAMPLE_READ, which perf_event_open() checks later;
 * and the privilege a branch stack of the kernel or hypervisor needs,
 * after the format but before the other fields, as Linux 6.1 does.
 *
 * Return: 0; -EFAULT for a bad pointer; -E2BIG for a size we cannot take,
 * with our size written back to @uattr->size; -EINVAL for a structure
 * perf_check_attr() refuses; -EACCES for a branch stack the caller may
 * not have.
 */
int perf_copy_attr(struct perf_event_attr __user *uattr,
		   struct perf_event_attr *attr)
{
	u32 size;
	int ret;

	if (get_user(size, &uattr->size))
		return -EFAULT;

	/* Size 0 means the first published version of the structure. */
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > PAGE_SIZE)
		goto too_big;

	ret = copy_struct_from_user(attr, sizeof(*attr), uattr, size);
	if (ret == -E2BIG)
		goto too_big;
	if (ret)
		return ret;

	attr->size = size;

	if (!attr->sample_max_stack)
		attr->sample_max_stack = sysctl_perf_event_max_stack;

	ret = perf_check_attr_format(attr);
	if (!ret)
		ret = perf_check_attr_branch_privilege(attr);
	if (!ret)
		ret = perf_check_attr_fields(attr);
	return ret;

too_big:
	if (put_user(sizeof(*attr), &uattr->size))
		return -EFAULT;
	return -E2BIG;
}
