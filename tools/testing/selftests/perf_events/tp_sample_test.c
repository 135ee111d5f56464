// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling tracepoint and kprobe events: each sample's PERF_SAMPLE_RAW
 * field is the trace event's record, laid out as its tracefs format file
 * says (common fields first: type, flags, preempt count, pid), padded so
 * that the u32 size and the record end on 8 bytes.  The values are the
 * ones of the call that fired the tracepoint.  A period of N samples
 * every N-th record, unless the samples carry the period (6.1).  A
 * wakeup's record counts in the woken task's events bound to the
 * waker's CPU, but they take no samples of it (6.1).
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "tp_test_util.h"
#include "../kselftest_harness.h"

#define NR_CALLS	40
#define DATA_PAGES	16
#define BASE_OFFSET	1000

/* A sample of sample_type PERF_SAMPLE_TID | PERF_SAMPLE_RAW. */
struct tid_raw_sample {
	struct perf_event_header	header;
	__u32				pid, tid;
	__u32				size;
	char				data[];
};

/* What the record handlers collect. */
struct samples {
	const struct tp_field	*f;
	int			nr_fields;
	int			nr;		/* samples */
	int			bad;		/* samples that do not fit */
	int			other;		/* records of other types */
	long long		values[NR_CALLS + 8][4];
	__u32			tid[NR_CALLS + 8];
	const char		*names[4];	/* fields to collect */
	const char		*comm_field;	/* a char array to collect */
	char			comm[NR_CALLS + 8][16];
};

static void collect(void *arg, const struct perf_event_header *h)
{
	const struct tid_raw_sample *s = (const void *)h;
	struct samples *c = arg;
	int i, end = 0;

	if (h->type != PERF_RECORD_SAMPLE) {
		c->other++;
		return;
	}
	/* The raw field: its size word and the record end on 8 bytes. */
	if ((sizeof(__u32) + s->size) % 8 ||
	    sizeof(*s) + s->size != h->size) {
		c->bad++;
		return;
	}
	for (i = 0; i < c->nr_fields; i++)
		if (c->f[i].offset + c->f[i].size > end)
			end = c->f[i].offset + c->f[i].size;
	if (s->size < end || c->nr >= NR_CALLS + 8) {
		c->bad++;
		return;
	}
	for (i = 0; i < 4 && c->names[i]; i++) {
		const struct tp_field *f = tp_field(c->f, c->nr_fields,
						    c->names[i]);

		c->values[c->nr][i] = tp_value(s->data, f);
	}
	if (c->comm_field) {
		const struct tp_field *f = tp_field(c->f, c->nr_fields,
						    c->comm_field);

		memcpy(c->comm[c->nr], s->data + f->offset, 16);
		c->comm[c->nr][15] = '\0';
	}
	c->tid[c->nr] = s->tid;
	c->nr++;
}

/* Sample each record of @attr's event, with its tid and raw record. */
static int tid_raw_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	attr->disabled = 1;
	attr->wakeup_events = 1;
	return sys_perf_event_open(attr, pid, cpu, -1, 0);
}

static int tp_tid_raw_open(int id, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	tp_attr_init(&attr, id);
	return tid_raw_open(&attr, pid, cpu);
}

/*
 * Set up @c to check the records of @sys:@name against its format, read
 * into @f.  The trace event's id, or -1.
 */
static int samples_init(struct samples *c, struct tp_field *f,
			const char *sys, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->f = f;
	c->nr_fields = tp_format(sys, name, f, TP_MAX_FIELDS);
	return c->nr_fields > 0 ? tp_id(sys, name) : -1;
}

/* Have @c collect field @name, which the format must have, as value @i. */
static void collect_field(struct __test_metadata *_metadata,
			  struct samples *c, int i, const char *name)
{
	ASSERT_NE(NULL, tp_field(c->f, c->nr_fields, name));
	c->names[i] = name;
}

/* Map the ring of event @fd, which must have opened, and enable it. */
static void sampling_on(struct __test_metadata *_metadata, int fd,
			struct ring *r)
{
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(r, fd, DATA_PAGES));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
}

/* Disable @fd and collect its samples into @c. */
static void sampling_off(struct __test_metadata *_metadata, int fd,
			 struct ring *r, struct samples *c)
{
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ring_consume(r, collect, c);
}

static void sampling_done(int fd, struct ring *r)
{
	ring_unmap(r);
	close(fd);
}

TEST(lseek_record_matches_format)
{
	struct tp_field f[TP_MAX_FIELDS];
	int id, fd, file, i;
	struct samples c;
	struct ring r;

	id = samples_init(&c, f, "syscalls", "sys_enter_lseek");
	ASSERT_LE(0, id);
	collect_field(_metadata, &c, 0, "common_type");
	collect_field(_metadata, &c, 1, "common_pid");
	collect_field(_metadata, &c, 2, "__syscall_nr");
	collect_field(_metadata, &c, 3, "offset");
	ASSERT_NE(NULL, tp_field(f, c.nr_fields, "fd"));
	ASSERT_NE(NULL, tp_field(f, c.nr_fields, "whence"));
	/* The common fields come first. */
	EXPECT_EQ(0, tp_field(f, c.nr_fields, "common_type")->offset);

	file = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, file);
	fd = tp_tid_raw_open(id, 0, -1);
	sampling_on(_metadata, fd, &r);
	for (i = 0; i < NR_CALLS; i++)
		lseek(file, BASE_OFFSET + i, SEEK_SET);
	sampling_off(_metadata, fd, &r, &c);

	EXPECT_EQ(0, c.bad);
	EXPECT_EQ(NR_CALLS, c.nr);
	for (i = 0; i < c.nr; i++) {
		EXPECT_EQ(id, c.values[i][0]);
		EXPECT_EQ(getpid(), c.values[i][1]);
		EXPECT_EQ(SYS_lseek, c.values[i][2]);
		EXPECT_EQ(BASE_OFFSET + i, c.values[i][3]);
		EXPECT_EQ(getpid(), c.tid[i]);
	}
	sampling_done(fd, &r);
	close(file);
}

/* The switches away from this task: its pid and name as prev. */
TEST(sched_switch_record_matches_format)
{
	struct tp_field f[TP_MAX_FIELDS];
	struct samples c;
	char comm[16] = "";
	struct ring r;
	int id, fd, i;

	id = samples_init(&c, f, "sched", "sched_switch");
	ASSERT_LE(0, id);
	collect_field(_metadata, &c, 0, "common_type");
	collect_field(_metadata, &c, 1, "prev_pid");
	collect_field(_metadata, &c, 2, "next_pid");
	ASSERT_NE(NULL, tp_field(f, c.nr_fields, "prev_comm"));
	c.comm_field = "prev_comm";
	ASSERT_EQ(0, read_line_file("/proc/self/comm", comm, sizeof(comm)));

	fd = tp_tid_raw_open(id, 0, -1);
	sampling_on(_metadata, fd, &r);
	switch_out(5);
	sampling_off(_metadata, fd, &r, &c);

	EXPECT_EQ(0, c.bad);
	EXPECT_LE(5, c.nr);
	for (i = 0; i < c.nr; i++) {
		EXPECT_EQ(id, c.values[i][0]);
		EXPECT_EQ(getpid(), c.values[i][1]);
		EXPECT_NE(getpid(), c.values[i][2]);
		EXPECT_STREQ(comm, c.comm[i]);
	}
	sampling_done(fd, &r);
}

struct periods {
	int	nr;
	__u64	period;
};

static void count_periods(void *arg, const struct perf_event_header *h)
{
	const __u64 *period = (const void *)(h + 1);
	struct periods *p = arg;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	p->nr++;
	p->period = *period;
}

/* Sample getpid() calls with a period of 10; the number of samples. */
static int sample_getpid_calls(struct __test_metadata *_metadata,
			       __u64 sample_type, struct periods *p)
{
	struct perf_event_attr attr;
	struct ring r;
	int fd;

	memset(p, 0, sizeof(*p));
	tp_attr_init(&attr, tp_id("syscalls", "sys_enter_getpid"));
	attr.sample_period = 10;
	attr.sample_type = sample_type;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_LE(0, fd);
	if (fd < 0)
		return -1;
	EXPECT_EQ(0, ring_map(&r, fd, DATA_PAGES));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	do_getpid(10 * NR_CALLS + 5);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ring_consume(&r, count_periods, p);
	ring_unmap(&r);
	close(fd);
	return p->nr;
}

/* A period of 10: one sample every ten calls. */
TEST(period)
{
	struct periods p;

	EXPECT_EQ(NR_CALLS, sample_getpid_calls(_metadata, PERF_SAMPLE_IP, &p));
}

/*
 * As in 6.1, a fixed period does not apply when the samples carry the
 * period: each record is a sample, whose period is its count (1 for a
 * system call).
 */
TEST(period_in_samples)
{
	struct periods p;

	EXPECT_EQ(10 * NR_CALLS + 5,
		  sample_getpid_calls(_metadata, PERF_SAMPLE_PERIOD, &p));
	EXPECT_EQ(1, p.period);
}

/* The record of a kprobe: the common fields, then the probed address. */
TEST(kprobe_record)
{
	unsigned long addr = kallsyms_addr("__x64_sys_getppid");
	struct perf_event_attr attr;
	struct tp_field f[2];
	struct samples c;
	struct ring r;
	int type, fd, i;

	ASSERT_EQ(0, pmu_sysfs_read("kprobe", "type", &type));
	ASSERT_NE(0, addr);

	memset(&c, 0, sizeof(c));
	memset(f, 0, sizeof(f));
	strcpy(f[0].name, "common_pid");
	f[0].offset = 4;
	f[0].size = 4;
	f[0].is_signed = 1;
	strcpy(f[1].name, "ip");
	f[1].offset = 8;
	f[1].size = 8;
	c.f = f;
	c.nr_fields = 2;
	c.names[0] = "common_pid";
	c.names[1] = "ip";

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.kprobe_func = (__u64)(unsigned long)"__x64_sys_getppid";
	fd = tid_raw_open(&attr, 0, -1);
	sampling_on(_metadata, fd, &r);
	do_getppid(NR_CALLS);
	sampling_off(_metadata, fd, &r, &c);
	EXPECT_EQ(0, c.bad);
	EXPECT_EQ(NR_CALLS, c.nr);
	for (i = 0; i < c.nr; i++) {
		EXPECT_EQ(getpid(), c.values[i][0]);
		EXPECT_EQ(addr, (unsigned long)c.values[i][1]);
	}
	sampling_done(fd, &r);
}

/*
 * The woken child's sched_waking event bound to the CPU counts the
 * parent's wakeups of the child, but, as in 6.1, takes no samples of
 * them: it is not active while its task sleeps.  It samples the wakeups
 * the child makes.  Parent and child take turns on one CPU; the parent
 * wakes the child NR_CALLS / 2 + 1 times, always once the child sleeps.
 */
TEST(wakeup_sampled_in_woken_task)
{
	struct tp_field f[TP_MAX_FIELDS];
	int cpus[1], id, fd, i, woken = 0;
	struct samples c;
	struct wakee w;
	struct ring r;
	__u64 value;

	id = samples_init(&c, f, "sched", "sched_waking");
	ASSERT_LE(0, id);
	collect_field(_metadata, &c, 0, "pid");
	ASSERT_EQ(1, allowed_cpus(cpus, 1));
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));
	ASSERT_EQ(0, wakee_start(&w));
	fd = tp_tid_raw_open(id, w.pid, cpus[0]);
	sampling_on(_metadata, fd, &r);
	ASSERT_EQ(0, wakee_wake(&w, NR_CALLS / 2));
	ring_consume(&r, collect, &c);
	ASSERT_EQ(0, read_value(fd, &value));
	EXPECT_EQ(0, c.bad);
	for (i = 0; i < c.nr; i++) {
		if (c.values[i][0] == w.pid)
			woken++;
		else
			EXPECT_EQ(w.pid, c.tid[i]);
	}
	TH_LOG("%d samples, %d of wakeups of the child, count %llu",
	       c.nr, woken, value);
	EXPECT_EQ(0, woken);
	EXPECT_EQ(c.nr + NR_CALLS / 2 + 1, value);
	sampling_done(fd, &r);
}

TEST_HARNESS_MAIN
