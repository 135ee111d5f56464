/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the side-band record selftests, over the ring buffer
 * reader of perf_sample_util.h:
 *
 *	struct rb_event ev;
 *	char buf[RB_COPY_MAX];
 *	struct perf_event_header *h;
 *	ssize_t len;
 *
 *	sb_attr_init(&attr);			// a dummy, every sample_id field
 *	attr.comm = 1;
 *	rb_event_open(&ev, &attr, 0, -1, 16);	// 16 data pages, writable
 *	... let the kernel write records ...
 *	len = rec_drain(&ev.ring, buf, sizeof(buf));
 *	rec_for_each(h, buf, len)
 *		if (h->type == PERF_RECORD_COMM) ...
 *	rb_event_close(&ev);
 *
 * rec_drain() copies every record published so far into a flat array,
 * one after the other (records that wrap around the end of the buffer
 * come out whole), and hands their space back to the kernel.
 *
 * Records other than samples end with a sample_id trailer when
 * attr.sample_id_all is set; rec_sample_id() picks it apart, given the
 * event's sample_type.  Strings in records (names, paths) are NUL
 * terminated and padded with NULs to a multiple of 8 bytes:
 * rec_string_ok() checks that.
 *
 * Include this after perf_test_util.h.
 */
#ifndef PERF_RECORD_UTIL_H
#define PERF_RECORD_UTIL_H

#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "perf_sample_util.h"

/* Big enough for everything the tests let accumulate. */
#define RB_COPY_MAX	(1024 * 1024)

/* Where rec_drain() copies records to. */
struct rec_copy {
	char *out;
	size_t len;
	size_t max;
	bool full;
};

static inline int rec_copy_one(struct perf_event_header *h, void *arg)
{
	struct rec_copy *c = arg;

	if (c->len + h->size > c->max) {
		c->full = true;
		return 1;
	}
	memcpy(c->out + c->len, h, h->size);
	c->len += h->size;
	return 0;
}

/*
 * Copy every record published so far into @out, one after the other,
 * and release their space to the kernel.  Returns the number of bytes
 * copied, or -1 if a record is malformed or they do not all fit into
 * @max bytes.
 */
static inline ssize_t rec_drain(struct ring *r, void *out, size_t max)
{
	struct rec_copy c = { .out = out, .max = max };

	if (ring_drain(r, rec_copy_one, &c) < 0 || c.full)
		return -1;
	return c.len;
}

/* A walk over the records rec_drain() copied into a buffer. */
struct rec_iter {
	char *pos;
	char *end;
};

static inline struct rec_iter rec_iter_start(void *buf, size_t len)
{
	struct rec_iter it = { (char *)buf, (char *)buf + len };

	return it;
}

/* The next record, or NULL at the end. */
static inline struct perf_event_header *rec_iter_next(struct rec_iter *it)
{
	struct perf_event_header *h = (struct perf_event_header *)it->pos;

	if (it->pos >= it->end)
		return NULL;
	it->pos += h->size;
	return h;
}

/* Walk the records in @buf (@len bytes, from rec_drain()). */
#define rec_for_each(h, buf, len)					\
	for (struct rec_iter __it = rec_iter_start(buf, len);		\
	     ((h) = rec_iter_next(&__it));)

/* The fields a sample_id trailer can carry; 0 where not selected. */
struct rec_sample_id {
	__u32 pid, tid;		/* PERF_SAMPLE_TID */
	__u64 time;		/* PERF_SAMPLE_TIME */
	__u64 id;		/* PERF_SAMPLE_ID */
	__u64 stream_id;	/* PERF_SAMPLE_STREAM_ID */
	__u32 cpu, res;		/* PERF_SAMPLE_CPU */
	__u64 identifier;	/* PERF_SAMPLE_IDENTIFIER */
};

#define SAMPLE_ID_ALL_FIELDS						\
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* Bytes of the sample_id trailer of an event with @sample_type. */
static inline size_t sample_id_size(__u64 sample_type)
{
	return 8 * __builtin_popcountll(sample_type & SAMPLE_ID_ALL_FIELDS);
}

/*
 * Split the sample_id trailer off the end of record @h, written by an
 * event with attr.sample_id_all and @sample_type.  Returns the size of
 * the body between header and trailer, or -1 if the record is too small
 * to hold a trailer.
 */
static inline ssize_t rec_sample_id(const struct perf_event_header *h,
				    __u64 sample_type,
				    struct rec_sample_id *sid)
{
	size_t tsize = sample_id_size(sample_type);
	const __u64 *p;

	memset(sid, 0, sizeof(*sid));
	if (h->size < sizeof(*h) + tsize)
		return -1;
	p = (const __u64 *)((const char *)h + h->size - tsize);
	if (sample_type & PERF_SAMPLE_TID) {
		sid->pid = (__u32)*p;
		sid->tid = (__u32)(*p++ >> 32);
	}
	if (sample_type & PERF_SAMPLE_TIME)
		sid->time = *p++;
	if (sample_type & PERF_SAMPLE_ID)
		sid->id = *p++;
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		sid->stream_id = *p++;
	if (sample_type & PERF_SAMPLE_CPU) {
		sid->cpu = (__u32)*p;
		sid->res = (__u32)(*p++ >> 32);
	}
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		sid->identifier = *p++;
	return h->size - sizeof(*h) - tsize;
}

/*
 * Is the string at @s, in a field of @len bytes, NUL terminated and
 * padded with NULs to the end of the field, with the field a multiple of
 * 8 bytes no longer than the string needs?
 */
static inline bool rec_string_ok(const char *s, size_t len)
{
	size_t n = strnlen(s, len), i;

	if (n == len || len % 8 || len - n > 8)
		return false;
	for (i = n; i < len; i++)
		if (s[i])
			return false;
	return true;
}

/*
 * A software dummy event for side-band records: every sample_id field,
 * sample_id_all, and nothing else.  The caller sets the record bits.
 */
#define SB_SAMPLE_TYPE	(SAMPLE_ID_ALL_FIELDS)

static inline void sb_attr_init(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = PERF_COUNT_SW_DUMMY;
	attr->sample_type = SB_SAMPLE_TYPE;
	attr->sample_id_all = 1;
}

/* The id an event reports (PERF_EVENT_IOC_ID); 0 on failure. */
static inline __u64 event_id(int fd)
{
	__u64 id = 0;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return 0;
	return id;
}

/* An event with its buffer mapped, and its id. */
struct rb_event {
	int fd;
	__u64 id;
	struct ring ring;
};

/*
 * Open @attr on (@pid, @cpu) and map @pages data pages of its buffer.
 * 0, or -1 with errno set and nothing left open.
 */
static inline int rb_event_open(struct rb_event *e,
				struct perf_event_attr *attr, pid_t pid,
				int cpu, unsigned int pages)
{
	e->ring.map = NULL;
	e->fd = sys_perf_event_open(attr, pid, cpu, -1, 0);
	if (e->fd < 0)
		return -1;
	e->id = event_id(e->fd);
	if (!e->id || ring_map(&e->ring, e->fd, pages)) {
		close(e->fd);
		e->fd = -1;
		return -1;
	}
	return 0;
}

/* Unmap and close; harmless on an event that failed to open. */
static inline void rb_event_close(struct rb_event *e)
{
	ring_unmap(&e->ring);
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
}

/*
 * Open @attr on the gated child @c (see fork_gated()) so that it records
 * from the child's exec on (disabled, enable_on_exec), with @pages data
 * pages, then let the child run to its end.  Returns the child's wait
 * status (0: it exited with status 0), or -1 if the event could not be
 * opened (the child is reaped all the same).
 */
static inline int rb_event_run_exec(struct rb_event *e,
				    struct perf_event_attr *attr,
				    struct gated_child *c, unsigned int pages)
{
	attr->disabled = 1;
	attr->enable_on_exec = 1;
	if (rb_event_open(e, attr, c->pid, -1, pages)) {
		gated_wait(c);
		return -1;
	}
	return gated_run(c);
}

#endif /* PERF_RECORD_UTIL_H */
