// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the side-band records that user space cannot cause at
 * will on the test kernel (records.c, records_mmap.c):
 *
 *  - PERF_RECORD_KSYMBOL and PERF_RECORD_TEXT_POKE, whose callers
 *    (kprobes, ftrace trampolines, text patching; BPF's, which
 *    bpf_prog_event_test sees, give no bad types) are raised by calling
 *    their hooks directly;
 *  - PERF_RECORD_LOST_SAMPLES, which only PMU drivers write;
 *  - the prot and flags an MMAP2 record reports for VM_* flags.
 *
 * The events are CPU-wide dummies on the test's CPU, with a ring buffer
 * attached as mmap() would, and every sample_id field.  Records are read
 * straight out of the buffer.
 */
#include <kunit/test.h>
#include <linux/mman.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "internal.h"

#define TEST_SAMPLE_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
				 PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
				 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
#define TEST_TRAILER		(6 * sizeof(u64))

struct records_test {
	struct perf_event	*event;
	struct perf_buffer	*rb;
	unsigned long		tail;	/* what the test has read */
	int			cpu;
};

/* A CPU-wide dummy on this CPU with @bits set, and a buffer. */
static int records_test_open(struct kunit *test, struct records_test *t,
			     void (*bits)(struct perf_event_attr *attr))
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = TEST_SAMPLE_TYPE,
		.sample_id_all = 1,
	};
	struct perf_buffer *rb;

	if (bits)
		bits(&attr);
	t->cpu = smp_processor_id();
	t->tail = 0;
	t->event = perf_event_create_kernel_counter(&attr, t->cpu, NULL, NULL,
						    NULL);
	if (IS_ERR(t->event)) {
		KUNIT_FAIL(test, "cannot create the event: %ld",
			   PTR_ERR(t->event));
		t->event = NULL;
		return -1;
	}
	rb = perf_buffer_alloc(1, 0, true);
	if (!rb) {
		KUNIT_FAIL(test, "no buffer");
		return -1;
	}
	mutex_lock(&perf_mmap_mutex);
	perf_buffer_attach(t->event, rb);
	mutex_unlock(&perf_mmap_mutex);
	t->rb = rb;
	/* The event holds its own reference now. */
	perf_buffer_put(rb);
	return 0;
}

static void records_test_close(struct records_test *t)
{
	if (t->event)
		perf_event_release_kernel(t->event);
	t->event = NULL;
}

/*
 * The next record, copied to @buf (at most @max bytes), or NULL.  Test
 * buffers never wrap: the tests write far less than a page.
 */
static struct perf_event_header *records_test_next(struct records_test *t,
						   void *buf, size_t max)
{
	unsigned long head = READ_ONCE(t->rb->user_page->data_head);
	struct perf_event_header *h = t->rb->data + t->tail;

	if (t->tail >= head || h->size > max || t->tail + h->size > head)
		return NULL;
	memcpy(buf, h, h->size);
	t->tail += h->size;
	return buf;
}

/* The trailer at the end of @h must describe this task, CPU and event. */
static void records_test_trailer(struct kunit *test, struct records_test *t,
				 struct perf_event_header *h)
{
	u64 *p = (void *)h + h->size - TEST_TRAILER;

	KUNIT_EXPECT_EQ(test, (u32)p[0], (u32)task_tgid_nr(current));
	KUNIT_EXPECT_EQ(test, (u32)(p[0] >> 32), (u32)task_pid_nr(current));
	KUNIT_EXPECT_NE(test, p[1], 0ULL);
	KUNIT_EXPECT_EQ(test, p[2], t->event->id);
	KUNIT_EXPECT_EQ(test, p[3], t->event->id);
	KUNIT_EXPECT_EQ(test, p[4], (u64)t->cpu);
	KUNIT_EXPECT_EQ(test, p[5], t->event->id);
}

struct ksymbol_rec {
	struct perf_event_header	h;
	u64				addr;
	u32				len;
	u16				ksym_type;
	u16				flags;
	char				name[];
};

static void want_ksymbol(struct perf_event_attr *attr)
{
	attr->ksymbol = 1;
}

/* Registering and unregistering a symbol; unknown types are ignored. */
static void records_ksymbol(struct kunit *test)
{
	struct records_test t = {}, none = {};
	struct ksymbol_rec *k;
	u64 buf[64];

	migrate_disable();
	if (records_test_open(test, &t, want_ksymbol) ||
	    records_test_open(test, &none, NULL))
		goto out;

	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF, 0xffffffffc0001000ULL,
			   0x123, false, "bpf_prog_abc_test");
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_UNKNOWN, 1, 1, false, "x");
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_MAX, 1, 1, false, "x");
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, 0xffffffffc0002000ULL,
			   8, true, "12345678");

	k = (void *)records_test_next(&t, buf, sizeof(buf));
	if (!k) {
		KUNIT_FAIL(test, "no KSYMBOL record");
		goto out;
	}
	KUNIT_EXPECT_EQ(test, k->h.type, (u32)PERF_RECORD_KSYMBOL);
	KUNIT_EXPECT_EQ(test, k->h.misc, 0);
	/* 18 bytes of name and NUL make 24. */
	KUNIT_EXPECT_EQ(test, k->h.size, sizeof(*k) + 24 + TEST_TRAILER);
	KUNIT_EXPECT_EQ(test, k->addr, 0xffffffffc0001000ULL);
	KUNIT_EXPECT_EQ(test, k->len, 0x123u);
	KUNIT_EXPECT_EQ(test, k->ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF);
	KUNIT_EXPECT_EQ(test, k->flags, 0);
	KUNIT_EXPECT_STREQ(test, k->name, "bpf_prog_abc_test");
	KUNIT_EXPECT_TRUE(test, !memchr_inv(k->name + 18, 0, 6));
	records_test_trailer(test, &t, &k->h);

	k = (void *)records_test_next(&t, buf, sizeof(buf));
	if (!k) {
		KUNIT_FAIL(test, "no second KSYMBOL record");
		goto out;
	}
	KUNIT_EXPECT_EQ(test, k->h.type, (u32)PERF_RECORD_KSYMBOL);
	/* A name of 8 takes 16 with its NUL. */
	KUNIT_EXPECT_EQ(test, k->h.size, sizeof(*k) + 16 + TEST_TRAILER);
	KUNIT_EXPECT_EQ(test, k->ksym_type, PERF_RECORD_KSYMBOL_TYPE_OOL);
	KUNIT_EXPECT_EQ(test, k->flags, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
	KUNIT_EXPECT_STREQ(test, k->name, "12345678");
	records_test_trailer(test, &t, &k->h);

	KUNIT_EXPECT_NULL(test, records_test_next(&t, buf, sizeof(buf)));
	/* The event that did not ask has nothing. */
	KUNIT_EXPECT_NULL(test, records_test_next(&none, buf, sizeof(buf)));
out:
	records_test_close(&t);
	records_test_close(&none);
	migrate_enable();
}

struct text_poke_rec {
	struct perf_event_header	h;
	u64				addr;
	u16				old_len;
	u16				new_len;
	u8				bytes[];
};

static void want_text_poke(struct perf_event_attr *attr)
{
	attr->text_poke = 1;
}

/* Old bytes, then new ones, then NULs to 8 bytes. */
static void records_text_poke(struct kunit *test)
{
	static const u8 old[3] = { 0x0f, 0x1f, 0x00 };
	static const u8 new[5] = { 0xe9, 0x11, 0x22, 0x33, 0x44 };
	struct text_poke_rec *r;
	struct records_test t = {};
	u64 buf[32];

	migrate_disable();
	if (records_test_open(test, &t, want_text_poke))
		goto out;

	perf_event_text_poke((void *)0xffffffff81001234UL, old, sizeof(old),
			     new, sizeof(new));
	perf_event_text_poke((void *)0xffffffff81005678UL, NULL, 0, new, 4);

	r = (void *)records_test_next(&t, buf, sizeof(buf));
	if (!r) {
		KUNIT_FAIL(test, "no TEXT_POKE record");
		goto out;
	}
	KUNIT_EXPECT_EQ(test, r->h.type, (u32)PERF_RECORD_TEXT_POKE);
	KUNIT_EXPECT_EQ(test, r->h.misc, 0);
	/* 8 + 2 + 2 + 3 + 5 = 20, padded to 24. */
	KUNIT_EXPECT_EQ(test, r->h.size, sizeof(r->h) + 24 + TEST_TRAILER);
	KUNIT_EXPECT_EQ(test, r->addr, 0xffffffff81001234ULL);
	KUNIT_EXPECT_EQ(test, r->old_len, 3);
	KUNIT_EXPECT_EQ(test, r->new_len, 5);
	KUNIT_EXPECT_EQ(test, memcmp(r->bytes, old, 3), 0);
	KUNIT_EXPECT_EQ(test, memcmp(r->bytes + 3, new, 5), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(r->bytes + 8, 0, 4));
	records_test_trailer(test, &t, &r->h);

	r = (void *)records_test_next(&t, buf, sizeof(buf));
	if (!r) {
		KUNIT_FAIL(test, "no second TEXT_POKE record");
		goto out;
	}
	/* 8 + 2 + 2 + 4 = 16: no padding. */
	KUNIT_EXPECT_EQ(test, r->h.size, sizeof(r->h) + 16 + TEST_TRAILER);
	KUNIT_EXPECT_EQ(test, r->old_len, 0);
	KUNIT_EXPECT_EQ(test, r->new_len, 4);
	KUNIT_EXPECT_EQ(test, memcmp(r->bytes, new, 4), 0);
out:
	records_test_close(&t);
	migrate_enable();
}

/* A PMU driver's report of lost samples. */
static void records_lost_samples(struct kunit *test)
{
	struct records_test t = {};
	u64 buf[16];
	struct perf_event_header *h;

	migrate_disable();
	if (records_test_open(test, &t, NULL))
		goto out;
	perf_log_lost_samples(t.event, 42);
	h = records_test_next(&t, buf, sizeof(buf));
	if (!h) {
		KUNIT_FAIL(test, "no LOST_SAMPLES record");
		goto out;
	}
	KUNIT_EXPECT_EQ(test, h->type, (u32)PERF_RECORD_LOST_SAMPLES);
	KUNIT_EXPECT_EQ(test, h->misc, 0);
	KUNIT_EXPECT_EQ(test, h->size, sizeof(*h) + 8 + TEST_TRAILER);
	KUNIT_EXPECT_EQ(test, buf[1], 42ULL);
	records_test_trailer(test, &t, h);
out:
	records_test_close(&t);
	migrate_enable();
}

/* Nothing is written for a disabled event. */
static void records_disabled(struct kunit *test)
{
	struct records_test t = {};
	u64 buf[64];

	migrate_disable();
	if (records_test_open(test, &t, want_ksymbol))
		goto out;
	perf_event_disable(t.event);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF, 1, 1, false, "off");
	KUNIT_EXPECT_NULL(test, records_test_next(&t, buf, sizeof(buf)));
	perf_event_enable(t.event);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF, 1, 1, false, "on");
	KUNIT_EXPECT_NOT_NULL(test, records_test_next(&t, buf, sizeof(buf)));
out:
	records_test_close(&t);
	migrate_enable();
}

/* What MMAP2 says of a mapping's VM_* flags. */
static void records_mmap_prot_flags(struct kunit *test)
{
	u32 prot, flags;

	perf_mmap_prot_flags(VM_READ | VM_EXEC | VM_MAYREAD | VM_MAYEXEC,
			     false, &prot, &flags);
	KUNIT_EXPECT_EQ(test, prot, (u32)(PROT_READ | PROT_EXEC));
	KUNIT_EXPECT_EQ(test, flags, (u32)MAP_PRIVATE);

	perf_mmap_prot_flags(VM_READ | VM_WRITE | VM_SHARED | VM_MAYSHARE,
			     false, &prot, &flags);
	KUNIT_EXPECT_EQ(test, prot, (u32)(PROT_READ | PROT_WRITE));
	KUNIT_EXPECT_EQ(test, flags, (u32)MAP_SHARED);

	/* A read-only shared mapping is VM_MAYSHARE without VM_SHARED. */
	perf_mmap_prot_flags(VM_READ | VM_MAYSHARE | VM_LOCKED, true, &prot,
			     &flags);
	KUNIT_EXPECT_EQ(test, prot, (u32)PROT_READ);
	KUNIT_EXPECT_EQ(test, flags,
			(u32)(MAP_SHARED | MAP_LOCKED | MAP_HUGETLB));

	perf_mmap_prot_flags(0, false, &prot, &flags);
	KUNIT_EXPECT_EQ(test, prot, 0u);
	KUNIT_EXPECT_EQ(test, flags, (u32)MAP_PRIVATE);
}

static struct kunit_case perf_records_cases[] = {
	KUNIT_CASE(records_ksymbol),
	KUNIT_CASE(records_text_poke),
	KUNIT_CASE(records_lost_samples),
	KUNIT_CASE(records_disabled),
	KUNIT_CASE(records_mmap_prot_flags),
	{}
};

static struct kunit_suite perf_records_suite = {
	.name = "perf_records",
	.test_cases = perf_records_cases,
};

kunit_test_suites(&perf_records_suite);
