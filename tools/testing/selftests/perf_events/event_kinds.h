/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One plain event of each kind the bad-input tests try every call on:
 * software (page faults), tracepoint (syscalls:sys_enter_getpid, tracefs
 * mounted on demand), breakpoint (writes to kind_watched[0]) and
 * hardware (retired instructions), all counting the caller's user space.
 *
 * Include after perf_test_util.h.
 */
#ifndef EVENT_KINDS_H
#define EVENT_KINDS_H

#include <sys/mount.h>
#include <linux/hw_breakpoint.h>

#include "perf_test_util.h"

#define KIND_TRACEFS	"/sys/kernel/tracing"
#define KIND_TP_ID	KIND_TRACEFS "/events/syscalls/sys_enter_getpid/id"

enum kind { SOFTWARE, TRACEPOINT, BREAKPOINT, HARDWARE, NR_KINDS };

/* What a breakpoint event watches. */
static __u64 kind_watched[8];

/*
 * The attr of a counting event of @kind (enabled, exclude_kernel);
 * 0, or -1 if there is no such trace event.
 */
static inline int kind_attr(enum kind kind, struct perf_event_attr *attr)
{
	int id;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	switch (kind) {
	case SOFTWARE:
		attr->type = PERF_TYPE_SOFTWARE;
		attr->config = PERF_COUNT_SW_PAGE_FAULTS;
		break;
	case TRACEPOINT:
		if (access(KIND_TRACEFS "/events", F_OK))
			mount("tracefs", KIND_TRACEFS, "tracefs", 0, NULL);
		if (read_int_file(KIND_TP_ID, &id))
			return -1;
		attr->type = PERF_TYPE_TRACEPOINT;
		attr->config = id;
		break;
	case BREAKPOINT:
		attr->type = PERF_TYPE_BREAKPOINT;
		attr->bp_addr = (unsigned long)kind_watched;
		attr->bp_len = HW_BREAKPOINT_LEN_8;
		attr->bp_type = HW_BREAKPOINT_W;
		break;
	default:
		attr->type = PERF_TYPE_HARDWARE;
		attr->config = PERF_COUNT_HW_INSTRUCTIONS;
		break;
	}
	return 0;
}

#endif /* EVENT_KINDS_H */
