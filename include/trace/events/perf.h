/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events of the perf_event core itself.
 *
 * perf_refused: perf_event_open(2), an ioctl, read() or mmap() of an
 * event failed, and this is why.  @reason is a constant string of the
 * form "<what>: <rule>", where <what> names the attr field, argument or
 * object that was refused; @value is the value that was refused, or 0
 * where there is none.  @err is the errno the call returns, negative.
 * The reasons are stable and listed in Documentation/trace/events-perf.rst.
 * The reason is printed last: it runs to the end of the line.
 * An extension of this implementation: Linux 6.1 has no such event.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM perf

#if !defined(_TRACE_PERF_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_PERF_H

#include <linux/tracepoint.h>

TRACE_EVENT(perf_refused,
	    TP_PROTO(int err, const char *reason, u64 value),
	    TP_ARGS(err, reason, value),
	    TP_STRUCT__entry(__field(int, err)
			     __string(reason, reason)
			     __field(u64, value)),
	    TP_fast_assign(__entry->err = err;
			   __assign_str(reason, reason);
			   __entry->value = value;),
	    TP_printk("err=%d value=%#llx reason=%s",
		      __entry->err, __entry->value, __get_str(reason))
);

#ifndef _TRACE_PERF_REFUSE
#define _TRACE_PERF_REFUSE
/**
 * perf_refuse - fail with @err, and say why
 * @err: the negative errno the caller is about to return
 * @reason: a string constant, "<what>: <rule>", one of those listed in
 *	Documentation/trace/events-perf.rst
 * @value: the value refused (an attr field, an argument), or 0
 *
 * Records the perf:perf_refused trace event: a patched-out branch while
 * no one traces it.  Every error that perf_event_open(2), the ioctls,
 * read() and mmap() return is recorded where it is decided, as
 * ``return perf_refuse(-EINVAL, "sample_type: unknown bits", bits);``,
 * by the core and by the PMU drivers alike.  A PMU that refuses an event
 * in event_init may record its own reason first; the core then adds one
 * of its own.  (Guarded on its own: this header is read again where the
 * trace event is defined.)
 *
 * Return: @err, unchanged.
 */
static __always_inline int perf_refuse(int err, const char *reason, u64 value)
{
	trace_perf_refused(err, reason, value);
	return err;
}
#endif /* _TRACE_PERF_REFUSE */

#endif /* _TRACE_PERF_H */

/* This part must be outside the include guard. */
#include <trace/define_trace.h>
