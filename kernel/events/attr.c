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
	if (flags & ~PERF_FLAG_ALL)
		return perf_refuse(-EINVAL, "flags: unknown bits",
				   flags & ~PERF_FLAG_ALL);
	return 0;
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
	u64 branches = attr->branch_sample_type;

	if (attr->__reserved_1)
		return perf_refuse(-EINVAL, "flags: bits after sigtrap set",
				   attr->__reserved_1);
	if (attr->__reserved_2)
		return perf_refuse(-EINVAL, "__reserved_2: not zero",
				   attr->__reserved_2);
	if (attr->__reserved_3)
		return perf_refuse(-EINVAL, "__reserved_3: not zero",
				   attr->__reserved_3);

	if (attr->sample_type & ~(PERF_SAMPLE_MAX - 1))
		return perf_refuse(-EINVAL, "sample_type: unknown bits",
				   attr->sample_type & ~(PERF_SAMPLE_MAX - 1));

	if (attr->read_format & ~(PERF_FORMAT_MAX - 1))
		return perf_refuse(-EINVAL, "read_format: unknown bits",
				   attr->read_format & ~(PERF_FORMAT_MAX - 1));

	/* A branch stack of known branch types, and of at least one. */
	if (!(attr->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return 0;
	if (branches & ~(PERF_SAMPLE_BRANCH_MAX - 1))
		return perf_refuse(-EINVAL, "branch_sample_type: unknown bits",
				   branches & ~(PERF_SAMPLE_BRANCH_MAX - 1));
	if (!(branches & ~PERF_SAMPLE_BRANCH_PLM_ALL))
		return perf_refuse(-EINVAL,
				   "branch_sample_type: no branch type",
				   branches);
	return 0;
}

/* The fields that depend on each other. */
static int perf_check_attr_fields(const struct perf_event_attr *attr)
{
	u64 type = attr->sample_type;

	/* One format of weight or the other. */
	if ((type & PERF_SAMPLE_WEIGHT_TYPE) == PERF_SAMPLE_WEIGHT_TYPE)
		return perf_refuse(-EINVAL,
				   "sample_type: WEIGHT with WEIGHT_STRUCT", type);

	if (type & PERF_SAMPLE_REGS_USER &&
	    perf_reg_validate(attr->sample_regs_user))
		return perf_refuse(-EINVAL, "sample_regs_user: invalid mask",
				   attr->sample_regs_user);

	if (type & PERF_SAMPLE_REGS_INTR &&
	    perf_reg_validate(attr->sample_regs_intr))
		return perf_refuse(-EINVAL, "sample_regs_intr: invalid mask",
				   attr->sample_regs_intr);

	if (type & PERF_SAMPLE_STACK_USER) {
		if (attr->sample_stack_user > USHRT_MAX)
			return perf_refuse(-EINVAL,
					   "sample_stack_user: above 65535",
					   attr->sample_stack_user);
		if (!IS_ALIGNED(attr->sample_stack_user, sizeof(u64)))
			return perf_refuse(-EINVAL,
					   "sample_stack_user: not a multiple of 8",
					   attr->sample_stack_user);
	}

	if (!IS_ENABLED(CONFIG_CGROUP_PERF) && type & PERF_SAMPLE_CGROUP)
		return perf_refuse(-EINVAL, "sample_type: CGROUP without cgroups",
				   type);

	if (attr->inherit_thread && !attr->inherit)
		return perf_refuse(-EINVAL, "inherit_thread: without inherit", 1);

	if (attr->remove_on_exec && attr->enable_on_exec)
		return perf_refuse(-EINVAL,
				   "remove_on_exec: with enable_on_exec", 1);

	if (attr->sigtrap && !attr->remove_on_exec)
		return perf_refuse(-EINVAL, "sigtrap: without remove_on_exec", 1);

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
	if (!attr->freq && attr->sample_period & BIT_ULL(63))
		return perf_refuse(-EINVAL, "sample_period: top bit set",
				   attr->sample_period);
	return 0;
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
	if (attr->inherit && attr->sample_type & PERF_SAMPLE_READ)
		return perf_refuse(-EINVAL, "inherit: with sample_type READ",
				   attr->sample_type);
	return 0;
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
		ret = perf_refuse(-EINVAL, "clockid: unknown clock",
				  attr->clockid);
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
	int ret;

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
	if (!(*types & (PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)))
		return 0;
	ret = perf_allow_kernel(attr);
	if (ret)
		return perf_refuse(ret, "branch_sample_type: kernel needs privilege",
				   *types);
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
 * with our size written back to @uattr->size if it is writable; -EINVAL for a structure
 * perf_check_attr() refuses; -EACCES for a branch stack the caller may
 * not have.
 */
int perf_copy_attr(struct perf_event_attr __user *uattr,
		   struct perf_event_attr *attr)
{
	u32 size;
	int ret;

	if (get_user(size, &uattr->size))
		return perf_refuse(-EFAULT, "attr: not readable",
				   (unsigned long)uattr);

	/* Size 0 means the first published version of the structure. */
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0) {
		perf_refuse(-E2BIG, "size: below PERF_ATTR_SIZE_VER0", size);
		goto too_big;
	}
	if (size > PAGE_SIZE) {
		perf_refuse(-E2BIG, "size: above the page size", size);
		goto too_big;
	}

	ret = copy_struct_from_user(attr, sizeof(*attr), uattr, size);
	if (ret == -E2BIG) {
		perf_refuse(-E2BIG, "size: unknown fields not zero", size);
		goto too_big;
	}
	if (ret)
		return perf_refuse(ret, "attr: not readable",
				   (unsigned long)uattr);

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
	/*
	 * The size is too big whether or not the caller can learn ours:
	 * a read-only attr still gets E2BIG, as on 6.1.
	 */
	if (put_user(sizeof(*attr), &uattr->size))
		perf_refuse(-E2BIG, "attr: size not writable",
			    (unsigned long)uattr);
	return -E2BIG;
}
