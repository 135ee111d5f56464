/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the tracepoint tests: tracefs (mounted on demand at
 * /sys/kernel/tracing), the ids of trace events, and PERF_TYPE_TRACEPOINT
 * events on them.  Include after perf_test_util.h.
 */
#ifndef TP_TEST_UTIL_H
#define TP_TEST_UTIL_H

#include <sys/mount.h>
#include <sys/stat.h>

#include "perf_test_util.h"

#define TRACEFS		"/sys/kernel/tracing"

/* Make sure tracefs is mounted; 0 or -1. */
static inline int tracefs_ready(void)
{
	struct stat st;

	if (!stat(TRACEFS "/events", &st))
		return 0;
	mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	return stat(TRACEFS "/events", &st);
}

/* Build the path of @file of trace event @sys:@name into @buf. */
static inline void tp_path(char *buf, size_t size, const char *sys,
			   const char *name, const char *file)
{
	snprintf(buf, size, TRACEFS "/events/%s/%s/%s", sys, name, file);
}

/* The id of trace event @sys:@name (attr.config), or -1. */
static inline int tp_id(const char *sys, const char *name)
{
	char path[256];
	int id;

	if (tracefs_ready())
		return -1;
	tp_path(path, sizeof(path), sys, name, "id");
	if (read_int_file(path, &id))
		return -1;
	return id;
}

/* A counting PERF_TYPE_TRACEPOINT event on trace event @id. */
static inline void tp_attr_init(struct perf_event_attr *attr, __u64 id)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->size = sizeof(*attr);
	attr->config = id;
}

/* Open a counting event on @sys:@name; the fd, or -1 (errno set). */
static inline int tp_open(const char *sys, const char *name, pid_t pid,
			  int cpu, bool disabled)
{
	struct perf_event_attr attr;
	int id = tp_id(sys, name);

	if (id < 0)
		return -1;
	tp_attr_init(&attr, id);
	attr.disabled = disabled;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/* @nr getpid() and getppid() system calls, not cached by the C library. */
static inline void do_getpid(int nr)
{
	while (nr--)
		syscall(SYS_getpid);
}

static inline void do_getppid(int nr)
{
	while (nr--)
		syscall(SYS_getppid);
}

#endif /* TP_TEST_UTIL_H */
