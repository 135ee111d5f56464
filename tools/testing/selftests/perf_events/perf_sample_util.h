/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the sampling and ring-buffer selftests: opening sampling
 * software events, mapping an event's ring buffer, walking the records in
 * it (also across the end of the data area), and splitting a
 * PERF_RECORD_SAMPLE into its fields by attr.sample_type.
 *
 * Include this after "perf_test_util.h".
 */
#ifndef PERF_SAMPLE_UTIL_H
#define PERF_SAMPLE_UTIL_H

#include <sys/ioctl.h>

#include "perf_test_util.h"

#ifndef TRAP_PERF
#define TRAP_PERF	6
#endif

/* Records are at most 64 KiB: header.size is a u16. */
#define RECORD_MAX	65536

static inline size_t page_size(void)
{
	return getpagesize();
}

/* A software sampling event of @config every @period occurrences. */
static inline void sample_attr_init(struct perf_event_attr *attr,
				    __u64 config, __u64 period,
				    __u64 sample_type)
{
	sw_attr_init(attr, config);
	attr->sample_period = period;
	attr->sample_type = sample_type;
}

static inline int sample_open(struct perf_event_attr *attr)
{
	return sys_perf_event_open(attr, 0, -1, -1, 0);
}

/*
 * Fault @nr fresh pages with the event @fd enabled just around it; 0, or
 * -1 if an ioctl() failed or the pages could not be had.
 */
static inline int fault_enabled(int fd, size_t nr)
{
	int ret;

	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	ret = fault_fresh_pages(nr);
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
		return -1;
	return ret;
}

/* An event's mapped ring buffer. */
struct ring {
	void *map;
	size_t len;
	struct perf_event_mmap_page *up;
	char *data;
	__u64 size;	/* bytes of data area */
};

/* mmap() 1 + @nr_pages pages of @fd; 0, or -1 with errno. */
static inline int ring_map_prot(struct ring *r, int fd, size_t nr_pages,
				int prot)
{
	r->len = (nr_pages + 1) * page_size();
	r->map = mmap(NULL, r->len, prot, MAP_SHARED, fd, 0);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return -1;
	}
	r->up = r->map;
	r->data = (char *)r->map + page_size();
	r->size = nr_pages * page_size();
	return 0;
}

/* A writable mapping: the kernel never overwrites what was not consumed. */
static inline int ring_map(struct ring *r, int fd, size_t nr_pages)
{
	return ring_map_prot(r, fd, nr_pages, PROT_READ | PROT_WRITE);
}

static inline void ring_unmap(struct ring *r)
{
	if (r->map)
		munmap(r->map, r->len);
	r->map = NULL;
}

/* Read every page of the mapping, so that faulting it in samples nothing. */
static inline void ring_prefault(struct ring *r)
{
	size_t i;

	for (i = 0; i < r->len; i += page_size())
		__atomic_load_n((char *)r->map + i, __ATOMIC_RELAXED);
}

static inline __u64 ring_head(struct ring *r)
{
	__u64 head = __atomic_load_n(&r->up->data_head, __ATOMIC_ACQUIRE);

	return head;
}

static inline __u64 ring_tail(struct ring *r)
{
	return r->up->data_tail;
}

/* Tell the kernel everything before @pos has been read. */
static inline void ring_consume(struct ring *r, __u64 pos)
{
	__atomic_store_n(&r->up->data_tail, pos, __ATOMIC_RELEASE);
}

/* Copy @len bytes from position @pos of the data area, across its end. */
static inline void ring_copy(struct ring *r, __u64 pos, void *buf, size_t len)
{
	size_t off = pos & (r->size - 1);
	size_t first = len < r->size - off ? len : r->size - off;

	memcpy(buf, r->data + off, first);
	if (len > first)
		memcpy((char *)buf + first, r->data, len - first);
}

/*
 * Copy the record at @pos into @buf (RECORD_MAX bytes) and return its
 * header, or NULL if the header is not a plausible record.
 */
static inline struct perf_event_header *
ring_record(struct ring *r, __u64 pos, void *buf)
{
	struct perf_event_header *h = buf;

	ring_copy(r, pos, h, sizeof(*h));
	if (h->size < sizeof(*h) || h->size % 8 || h->size > r->size)
		return NULL;
	ring_copy(r, pos, buf, h->size);
	return h;
}

/* Called for each record; a non-zero return stops the walk. */
typedef int (*record_fn)(struct perf_event_header *h, void *arg);

/*
 * Walk the records from position @from up to @to (positions are free
 * running and may wrap through 0, as a backward buffer's do) and return
 * how many there were, or -1 if one was malformed or overran @to.
 */
static inline int ring_walk(struct ring *r, __u64 from, __u64 to,
			    record_fn fn, void *arg)
{
	static __u64 buf[RECORD_MAX / sizeof(__u64)];
	struct perf_event_header *h;
	__u64 left = to - from;
	int n = 0;

	if (left > r->size)
		return -1;
	while (left) {
		h = ring_record(r, from, buf);
		if (!h || h->size > left)
			return -1;
		n++;
		from += h->size;
		left -= h->size;
		if (fn && fn(h, arg))
			break;
	}
	return n;
}

/* Walk what was written since data_tail and consume it. */
static inline int ring_drain(struct ring *r, record_fn fn, void *arg)
{
	__u64 head = ring_head(r);
	int n = ring_walk(r, ring_tail(r), head, fn, arg);

	ring_consume(r, head);
	return n;
}

/* Records counted by type, with the sum of PERF_RECORD_LOST's counts. */
struct record_counts {
	int type[32];
	int other;
	__u64 lost;
	__u64 lost_id;
};

static inline int count_record(struct perf_event_header *h, void *arg)
{
	struct record_counts *c = arg;

	if (h->type < 32)
		c->type[h->type]++;
	else
		c->other++;
	if (h->type == PERF_RECORD_LOST) {
		c->lost_id = ((__u64 *)(h + 1))[0];
		c->lost += ((__u64 *)(h + 1))[1];
	}
	return 0;
}

/* A PERF_RECORD_SAMPLE split up; pointers point into the record. */
struct sample {
	__u64 identifier;
	__u64 ip;
	__u32 pid, tid;
	__u64 time;
	__u64 addr;
	__u64 id;
	__u64 stream_id;
	__u32 cpu, cpu_res;
	__u64 period;
	const __u64 *read;
	size_t read_words;
	__u64 callchain_nr;
	const __u64 *callchain;
	__u32 raw_size;
	const unsigned char *raw;
	__u64 bnr;
	__u64 hw_idx;
	const struct perf_branch_entry *branches;
	__u64 regs_user_abi;
	const __u64 *regs_user;
	__u64 stack_size;
	const unsigned char *stack;
	__u64 dyn_size;
	__u64 weight;
	__u64 data_src;
	__u64 transaction;
	__u64 regs_intr_abi;
	const __u64 *regs_intr;
	__u64 phys_addr;
	__u64 cgroup;
	__u64 data_page_size;
	__u64 code_page_size;
	__u64 aux_size;
};

/* Words of a PERF_SAMPLE_READ block for @read_format and @nr members. */
static inline size_t sample_read_words(__u64 read_format, size_t nr)
{
	if (read_format & PERF_FORMAT_GROUP)
		return group_read_words(read_format, nr);
	return read_format_words(read_format);
}

/* Reading a record's u64s in order: past its end, 0s and @bad set. */
struct cursor {
	const __u64 *p;
	const __u64 *end;
	bool bad;
};

static inline __u64 take(struct cursor *c)
{
	if (c->p >= c->end) {
		c->bad = true;
		return 0;
	}
	return *c->p++;
}

/* Step over @words u64s and return where they start. */
static inline const __u64 *skip(struct cursor *c, size_t words)
{
	const __u64 *at = c->p;

	if (words > (size_t)(c->end - c->p))
		c->bad = true;
	else
		c->p += words;
	return at;
}

/*
 * Split the sample @h of an event with @attr into @s, @nr_members being
 * the size of its group (for PERF_FORMAT_GROUP).  Returns 0, or -1 if
 * the fields do not exactly fill the record.  (x86-64: little-endian.)
 */
static inline int sample_parse(const struct perf_event_header *h,
			       const struct perf_event_attr *attr,
			       size_t nr_members, struct sample *s)
{
	struct cursor c = {
		.p = (const __u64 *)(h + 1),
		.end = (const __u64 *)((const char *)h + h->size),
	};
	__u64 t = attr->sample_type, v;
	size_t nregs;

	memset(s, 0, sizeof(*s));
	if (h->type != PERF_RECORD_SAMPLE)
		return -1;
	if (t & PERF_SAMPLE_IDENTIFIER)
		s->identifier = take(&c);
	if (t & PERF_SAMPLE_IP)
		s->ip = take(&c);
	if (t & PERF_SAMPLE_TID) {
		v = take(&c);
		s->pid = v;
		s->tid = v >> 32;
	}
	if (t & PERF_SAMPLE_TIME)
		s->time = take(&c);
	if (t & PERF_SAMPLE_ADDR)
		s->addr = take(&c);
	if (t & PERF_SAMPLE_ID)
		s->id = take(&c);
	if (t & PERF_SAMPLE_STREAM_ID)
		s->stream_id = take(&c);
	if (t & PERF_SAMPLE_CPU) {
		v = take(&c);
		s->cpu = v;
		s->cpu_res = v >> 32;
	}
	if (t & PERF_SAMPLE_PERIOD)
		s->period = take(&c);
	if (t & PERF_SAMPLE_READ) {
		s->read_words = sample_read_words(attr->read_format,
						  nr_members);
		s->read = skip(&c, s->read_words);
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		s->callchain_nr = take(&c);
		s->callchain = skip(&c, s->callchain_nr);
	}
	if (t & PERF_SAMPLE_RAW) {
		/* u32 size, then the data, padded to 8 bytes in all. */
		if (c.p < c.end)
			s->raw_size = *(const __u32 *)c.p;
		s->raw = (const unsigned char *)c.p + sizeof(__u32);
		skip(&c, (s->raw_size + sizeof(__u32) + 7) / 8);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		s->bnr = take(&c);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			s->hw_idx = take(&c);
		s->branches = (const void *)skip(&c, 3 * s->bnr);
	}
	nregs = __builtin_popcountll(attr->sample_regs_user);
	if (t & PERF_SAMPLE_REGS_USER) {
		s->regs_user_abi = take(&c);
		if (s->regs_user_abi)
			s->regs_user = skip(&c, nregs);
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		s->stack_size = take(&c);
		if (s->stack_size) {
			s->stack = (const void *)skip(&c, s->stack_size / 8);
			s->dyn_size = take(&c);
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = take(&c);
	if (t & PERF_SAMPLE_DATA_SRC)
		s->data_src = take(&c);
	if (t & PERF_SAMPLE_TRANSACTION)
		s->transaction = take(&c);
	nregs = __builtin_popcountll(attr->sample_regs_intr);
	if (t & PERF_SAMPLE_REGS_INTR) {
		s->regs_intr_abi = take(&c);
		if (s->regs_intr_abi)
			s->regs_intr = skip(&c, nregs);
	}
	if (t & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = take(&c);
	if (t & PERF_SAMPLE_CGROUP)
		s->cgroup = take(&c);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = take(&c);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = take(&c);
	if (t & PERF_SAMPLE_AUX) {
		s->aux_size = take(&c);
		skip(&c, (s->aux_size + 7) / 8);
	}
	return !c.bad && c.p == c.end ? 0 : -1;
}

/* Samples collected from a ring, with the attr that describes them. */
#define MAX_SAMPLES	512

struct samples {
	const struct perf_event_attr *attr;
	size_t nr_members;
	int nr;			/* PERF_RECORD_SAMPLEs seen */
	int bad;		/* ... that did not parse */
	int kept;		/* ... stored below */
	struct sample s[MAX_SAMPLES];
	__u16 misc[MAX_SAMPLES];
	struct record_counts counts;
	/* Copies of the records the samples point into. */
	__u64 *copy[MAX_SAMPLES];
};

static inline int collect_record(struct perf_event_header *h, void *arg)
{
	struct samples *ss = arg;
	__u64 *copy;

	count_record(h, &ss->counts);
	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	ss->nr++;
	if (ss->kept >= MAX_SAMPLES)
		return 0;
	copy = malloc(h->size);
	if (!copy) {
		ss->bad++;
		return 0;
	}
	memcpy(copy, h, h->size);
	if (sample_parse((struct perf_event_header *)copy, ss->attr,
			 ss->nr_members, &ss->s[ss->kept])) {
		ss->bad++;
		free(copy);
		return 0;
	}
	ss->misc[ss->kept] = h->misc;
	ss->copy[ss->kept++] = copy;
	return 0;
}

static inline void samples_init(struct samples *ss,
				const struct perf_event_attr *attr,
				size_t nr_members)
{
	memset(ss, 0, sizeof(*ss));
	ss->attr = attr;
	ss->nr_members = nr_members;
}

static inline void samples_free(struct samples *ss)
{
	int i;

	for (i = 0; i < ss->kept; i++)
		free(ss->copy[i]);
	ss->kept = 0;
}

/* Collect the samples in a forward ring since data_tail; -1 if malformed. */
static inline int ring_collect(struct ring *r, struct samples *ss)
{
	return ring_drain(r, collect_record, ss) < 0 ? -1 : 0;
}

/* A sysctl of /proc/sys/kernel/ restored at the end of a test. */
struct saved_sysctl {
	const char *path;
	int value;
	bool saved;
};

static inline int sysctl_save(struct saved_sysctl *s, const char *path)
{
	s->path = path;
	s->saved = !read_int_file(path, &s->value);
	return s->saved ? 0 : -1;
}

static inline void sysctl_restore(struct saved_sysctl *s)
{
	if (s->saved)
		write_int_file(s->path, s->value);
}

#define SYSCTL_PATH(name)	"/proc/sys/kernel/" name

/* The two limits on the rate of samples, saved to be put back. */
struct saved_rate_limits {
	struct saved_sysctl rate;	/* perf_event_max_sample_rate */
	struct saved_sysctl percent;	/* perf_cpu_time_max_percent */
};

/*
 * Let up to @rate samples a second through, whatever they cost: the
 * rate can only be set while the dynamic limit is on (a percentage
 * other than 0 and 100), so set it, then turn the limit off.  0, or -1
 * if a sysctl could not be read or written.
 */
static inline int sample_rate_lift(struct saved_rate_limits *s, int rate)
{
	const char *percent = SYSCTL_PATH("perf_cpu_time_max_percent");

	if (sysctl_save(&s->percent, percent) ||
	    sysctl_save(&s->rate, SYSCTL_PATH("perf_event_max_sample_rate")))
		return -1;
	if (write_int_file(percent, 25) ||
	    write_int_file(s->rate.path, rate) ||
	    write_int_file(percent, 0))
		return -1;
	return 0;
}

/* Put back what sample_rate_lift() changed. */
static inline void sample_rate_restore(struct saved_rate_limits *s)
{
	if (!s->percent.saved || !s->rate.saved)
		return;
	write_int_file(s->percent.path, 25);
	sysctl_restore(&s->rate);
	sysctl_restore(&s->percent);
}

#endif /* PERF_SAMPLE_UTIL_H */
