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

/* The count of a counting event, or ~0 if it cannot be read. */
static inline __u64 count_of(int fd)
{
	__u64 value;

	return read_value(fd, &value) ? ~0ULL : value;
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

/* The first line of a small file, without its newline; 0 or -1. */
static inline int read_line_file(const char *path, char *buf, size_t size)
{
	if (read_small_file(path, buf, size))
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The address of kernel symbol @name from /proc/kallsyms, or 0. */
static inline unsigned long kallsyms_addr(const char *name)
{
	char line[256], sym[200], type;
	unsigned long addr, found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %199s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

/* The state letter of task @pid (R, S, ...), or 0. */
static inline char task_state(pid_t pid)
{
	char path[64], buf[256], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_line_file(path, buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * A child to wake, for the wakeup tests: wakee_start() forks it, and it
 * echoes each byte it reads from the parent until a 'q'.  With both on
 * one CPU, wakee_wake(@nr) wakes it @nr + 1 times, each time once it
 * sleeps, waiting for its answer in between (where the child wakes the
 * parent), then reaps it.  0, or -1 if a step failed.
 */
struct wakee {
	pid_t pid;
	int ping[2], pong[2];
};

static inline int wakee_start(struct wakee *w)
{
	char ch;

	if (pipe(w->ping) || pipe(w->pong))
		return -1;
	w->pid = fork();
	if (w->pid < 0)
		return -1;
	if (!w->pid) {
		while (read(w->ping[0], &ch, 1) == 1 && ch != 'q')
			if (write(w->pong[1], &ch, 1) != 1)
				_exit(1);
		_exit(0);
	}
	return 0;
}

static inline int wakee_wake(struct wakee *w, int nr)
{
	char ch = 'x';
	int i;

	for (i = 0; i <= nr; i++) {
		while (task_state(w->pid) != 'S')
			sched_yield();
		if (i == nr)
			ch = 'q';
		if (write(w->ping[1], &ch, 1) != 1)
			return -1;
		if (i < nr && read(w->pong[0], &ch, 1) != 1)
			return -1;
	}
	return waitpid(w->pid, NULL, 0) == w->pid ? 0 : -1;
}

/*
 * A field of a trace event's record, as its tracefs format file says:
 * "field:<type> <name>[<n>];	offset:<o>;	size:<s>;	signed:<0|1>;".
 */
struct tp_field {
	char	name[64];
	int	offset;
	int	size;
	int	is_signed;
};

#define TP_MAX_FIELDS	32

/* Read the fields of @sys:@name into @f; their number, or -1. */
static inline int tp_format(const char *sys, const char *name,
			    struct tp_field *f, int max)
{
	char path[256], line[512];
	int nr = 0;
	FILE *file;

	if (tracefs_ready())
		return -1;
	tp_path(path, sizeof(path), sys, name, "format");
	file = fopen(path, "r");
	if (!file)
		return -1;
	while (nr < max && fgets(line, sizeof(line), file)) {
		char *decl = strstr(line, "field:"), *end, *p;

		if (!decl)
			continue;
		end = strchr(decl, ';');
		if (!end)
			continue;
		*end = '\0';
		p = strchr(decl, '[');
		if (p && p > strrchr(decl, ' '))
			*p = '\0';
		p = strrchr(decl, ' ');
		if (!p)
			continue;
		snprintf(f[nr].name, sizeof(f[nr].name), "%s", p + 1);
		if (sscanf(end + 1, " offset:%d; size:%d; signed:%d;",
			   &f[nr].offset, &f[nr].size, &f[nr].is_signed) != 3)
			continue;
		nr++;
	}
	fclose(file);
	return nr;
}

/* The field named @name of @nr fields, or NULL. */
static inline const struct tp_field *
tp_field(const struct tp_field *f, int nr, const char *name)
{
	while (nr--) {
		if (!strcmp(f[nr].name, name))
			return &f[nr];
	}
	return NULL;
}

/* The integer value of field @f in @record, sign-extended if signed. */
static inline long long tp_value(const void *record, const struct tp_field *f)
{
	const char *p = (const char *)record + f->offset;

	switch (f->size) {
	case 1:
		return f->is_signed ? *(const __s8 *)p : *(const __u8 *)p;
	case 2:
		return f->is_signed ? *(const __s16 *)p : *(const __u16 *)p;
	case 4:
		return f->is_signed ? *(const __s32 *)p : *(const __u32 *)p;
	default:
		return *(const __s64 *)p;
	}
}

/*
 * The mmap()ed ring buffer of an event: the user page, then 2^n pages of
 * records.
 */
struct ring {
	struct perf_event_mmap_page	*page;
	char				*data;
	size_t				len;
	__u64				size;
};

/* Map @pages data pages (a power of 2) of event @fd; 0 or -1. */
static inline int ring_map(struct ring *r, int fd, int pages)
{
	size_t psz = getpagesize();

	r->len = (1 + pages) * psz;
	r->page = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->page == MAP_FAILED)
		return -1;
	r->data = (char *)r->page + psz;
	r->size = pages * psz;
	return 0;
}

static inline void ring_unmap(struct ring *r)
{
	munmap(r->page, r->len);
}

typedef void (*ring_fn)(void *arg, const struct perf_event_header *h);

/*
 * Call @fn on each record written since the last call, in order, and
 * give their space back.  A record that wraps around is passed in one
 * piece.  Returns the number of records.
 */
static inline int ring_consume(struct ring *r, ring_fn fn, void *arg)
{
	__u64 head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->page->data_tail;
	static char copy[65536];
	int nr = 0;

	while (tail < head) {
		__u64 off = tail % r->size;
		const struct perf_event_header *h = (void *)(r->data + off);
		size_t first;

		if (off + sizeof(*h) > r->size || off + h->size > r->size) {
			/* Wraps: the header itself may too. */
			struct perf_event_header hh;

			first = r->size - off;
			if (first >= sizeof(hh)) {
				memcpy(&hh, r->data + off, sizeof(hh));
			} else {
				memcpy(&hh, r->data + off, first);
				memcpy((char *)&hh + first, r->data,
				       sizeof(hh) - first);
			}
			memcpy(copy, r->data + off, first);
			memcpy(copy + first, r->data, hh.size - first);
			h = (void *)copy;
		}
		if (!h->size)
			break;
		fn(arg, h);
		tail += h->size;
		nr++;
	}
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
	return nr;
}

#endif /* TP_TEST_UTIL_H */
