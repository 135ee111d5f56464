// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ring buffer (ring_buffer.c): reserving and writing
 * records, wrapping around the end, losing records that do not fit and
 * telling user space with PERF_RECORD_LOST, backward buffers, nested
 * writers, pausing and wakeups, and an event moving between buffers.
 *
 * Each test writes through a bare event that is not on any context:
 * only the fields the output path reads are set up.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/poll.h>
#include <linux/slab.h>

#include "internal.h"

struct rb_test {
	struct perf_event	*event;
	struct perf_buffer	*rb;
};

static void rb_test_setup(struct kunit *test, struct rb_test *t,
			  unsigned long nr_pages, unsigned long watermark,
			  bool writable, bool backward)
{
	struct perf_event *event;

	event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	event->attr.size = sizeof(event->attr);
	event->attr.type = PERF_TYPE_SOFTWARE;
	event->attr.config = PERF_COUNT_SW_DUMMY;
	event->attr.write_backward = backward;
	event->id = 42;
	INIT_LIST_HEAD(&event->rb_entry);
	event->rb_left = get_completed_synchronize_rcu();
	init_waitqueue_head(&event->waitq);
	perf_event_init_pending(event);

	t->rb = perf_buffer_alloc(nr_pages, watermark, writable);
	KUNIT_ASSERT_NOT_NULL(test, t->rb);
	mutex_lock(&perf_mmap_mutex);
	perf_buffer_attach(event, t->rb);
	mutex_unlock(&perf_mmap_mutex);
	/* The event's reference keeps it; drop ours. */
	perf_buffer_put(t->rb);
	t->event = event;
}

static void rb_test_teardown(struct rb_test *t)
{
	mutex_lock(&perf_mmap_mutex);
	perf_buffer_attach(t->event, NULL);
	mutex_unlock(&perf_mmap_mutex);
	perf_event_sync_pending(t->event);
}

/* Write one record of @size bytes filled with @fill; 0 or -ENOSPC. */
static int rb_test_write(struct rb_test *t, u16 size, u8 fill)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct perf_event_header header = {
		.type = PERF_RECORD_MAX + 1, .size = size,
	};
	u8 body[256];
	int ret;

	memset(body, fill, sizeof(body));
	perf_sample_id_prepare(&data, t->event);
	preempt_disable();
	ret = perf_output_begin(&handle, &data, t->event, size);
	if (!ret) {
		perf_output_put(&handle, header);
		perf_output_copy(&handle, body, size - sizeof(header));
		perf_output_end(&handle);
	}
	preempt_enable();
	return ret;
}

/* The byte at free-running position @pos of the data area. */
static u8 rb_test_byte(struct rb_test *t, unsigned long pos)
{
	return ((u8 *)t->rb->data)[pos & (t->rb->data_size - 1)];
}

static void rb_test_user_page(struct kunit *test)
{
	struct rb_test t;
	struct perf_event_mmap_page *up;

	rb_test_setup(test, &t, 4, 0, true, false);
	up = t.rb->user_page;
	KUNIT_EXPECT_EQ(test, up->data_offset, (u64)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, up->data_size, (u64)(4 * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, (u64)up->cap_bit0_is_deprecated, 1ULL);
	KUNIT_EXPECT_EQ(test, up->data_head, 0ULL);
	/* Half the buffer is the default watermark. */
	KUNIT_EXPECT_EQ(test, t.rb->watermark, 2 * PAGE_SIZE);
	rb_test_teardown(&t);
}

static void rb_test_wraps(struct kunit *test)
{
	struct rb_test t;
	unsigned long pos = 0;
	int i;

	/* Read-only: overwrites; 4096 bytes, 24-byte records wrap. */
	rb_test_setup(test, &t, 1, 0, false, false);
	for (i = 0; i < 200; i++) {
		KUNIT_ASSERT_EQ(test, rb_test_write(&t, 24, i), 0);
		pos += 24;
	}
	KUNIT_EXPECT_EQ(test, t.rb->user_page->data_head, (u64)pos);
	/* The last record straddles nothing but sits past one wrap. */
	KUNIT_EXPECT_EQ(test, rb_test_byte(&t, pos - 1), 199);
	KUNIT_EXPECT_EQ(test, rb_test_byte(&t, pos - 16), 199);
	/* Record 170 starts at 4080 and wraps after its header. */
	KUNIT_EXPECT_EQ(test, rb_test_byte(&t, 170 * 24 + 8), 170);
	KUNIT_EXPECT_EQ(test, rb_test_byte(&t, 170 * 24 + 23), 170);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t.event->lost_samples), 0);
	rb_test_teardown(&t);
}

static void rb_test_lost(struct kunit *test)
{
	struct perf_event_header *lost_hdr;
	struct rb_test t;
	u64 *lost;
	int i, written = 0;

	/*
	 * Writable: 4096 bytes hold 63 records of 64 bytes, no more (as in
	 * 6.1, a writable buffer always keeps a byte free).
	 */
	rb_test_setup(test, &t, 1, 0, true, false);
	for (i = 0; i < 70; i++)
		written += !rb_test_write(&t, 64, i);
	KUNIT_EXPECT_EQ(test, written, 63);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t.event->lost_samples), 7);
	KUNIT_EXPECT_EQ(test, t.rb->user_page->data_head, 4032ULL);

	/* The reader consumes everything: a LOST record comes first. */
	WRITE_ONCE(t.rb->user_page->data_tail, 4032);
	KUNIT_ASSERT_EQ(test, rb_test_write(&t, 64, 0xaa), 0);
	lost_hdr = t.rb->data + 4032;
	KUNIT_EXPECT_EQ(test, lost_hdr->type, (u32)PERF_RECORD_LOST);
	KUNIT_EXPECT_EQ(test, lost_hdr->size, 24);
	lost = (u64 *)(lost_hdr + 1);
	KUNIT_EXPECT_EQ(test, lost[0], 42ULL);
	KUNIT_EXPECT_EQ(test, lost[1], 7ULL);
	KUNIT_EXPECT_EQ(test, rb_test_byte(&t, 4032 + 24 + 8), 0xaa);
	KUNIT_EXPECT_EQ(test, t.rb->user_page->data_head, 4032ULL + 24 + 64);
	rb_test_teardown(&t);
}

static void rb_test_backward(struct kunit *test)
{
	struct rb_test t;
	s64 head;

	rb_test_setup(test, &t, 1, 0, false, true);
	KUNIT_ASSERT_EQ(test, rb_test_write(&t, 32, 1), 0);
	KUNIT_ASSERT_EQ(test, rb_test_write(&t, 16, 2), 0);
	head = (s64)t.rb->user_page->data_head;
	KUNIT_EXPECT_EQ(test, head, -48LL);
	/* The newest record is at the head, the older one after it. */
	KUNIT_EXPECT_EQ(test, rb_test_byte(&t, head + 8), 2);
	KUNIT_EXPECT_EQ(test, rb_test_byte(&t, head + 16 + 8), 1);
	rb_test_teardown(&t);
}

static void rb_test_nested(struct kunit *test)
{
	struct perf_output_handle outer, inner;
	struct perf_sample_data data;
	struct rb_test t;

	rb_test_setup(test, &t, 1, 0, false, false);
	perf_sample_id_prepare(&data, t.event);
	preempt_disable();
	KUNIT_ASSERT_EQ(test, perf_output_begin(&outer, &data, t.event, 16), 0);
	/* An interrupt writes a whole record in the middle of ours. */
	KUNIT_ASSERT_EQ(test, perf_output_begin(&inner, &data, t.event, 32), 0);
	perf_output_skip(&inner, 32);
	perf_output_end(&inner);
	/* Not published while the outer record is unfinished. */
	KUNIT_EXPECT_EQ(test, t.rb->user_page->data_head, 0ULL);
	perf_output_skip(&outer, 16);
	perf_output_end(&outer);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, t.rb->user_page->data_head, 48ULL);
	KUNIT_EXPECT_EQ(test, local_read(&t.rb->nest), 0L);
	rb_test_teardown(&t);
}

static void rb_test_paused(struct kunit *test)
{
	struct rb_test t;

	rb_test_setup(test, &t, 1, 0, false, false);
	perf_buffer_set_paused(t.rb, true);
	KUNIT_EXPECT_EQ(test, rb_test_write(&t, 16, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t.event->lost_samples), 1);
	perf_buffer_set_paused(t.rb, false);
	/* The drop is told with a LOST record before the next one. */
	KUNIT_EXPECT_EQ(test, rb_test_write(&t, 16, 0), 0);
	KUNIT_EXPECT_EQ(test, t.rb->user_page->data_head, 24ULL + 16);
	rb_test_teardown(&t);
}

static void rb_test_watermark(struct kunit *test)
{
	struct rb_test t;
	int i;

	rb_test_setup(test, &t, 1, 100, false, false);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, rb_test_write(&t, 32, 0), 0);
	KUNIT_EXPECT_EQ(test, perf_buffer_poll(t.rb), 0U);
	KUNIT_ASSERT_EQ(test, rb_test_write(&t, 32, 0), 0);
	/* 128 bytes crossed the 100-byte watermark: readers are due. */
	KUNIT_EXPECT_EQ(test, perf_buffer_poll(t.rb),
			(__poll_t)(EPOLLIN | EPOLLRDNORM));
	KUNIT_EXPECT_EQ(test, perf_buffer_poll(t.rb), 0U);
	rb_test_teardown(&t);
}

static void rb_test_no_data_pages(struct kunit *test)
{
	struct rb_test t;

	/* A user page alone (for self-monitoring) takes no records. */
	rb_test_setup(test, &t, 0, 0, true, false);
	KUNIT_EXPECT_EQ(test, rb_test_write(&t, 16, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t.event->lost_samples), 0);
	rb_test_teardown(&t);
}

/*
 * Every page of @t's buffer, as mmap() maps it, is the one the kernel
 * writes through (a byte written through the page's direct-map address
 * shows where the kernel reads), and starts zeroed.
 */
static void rb_test_check_pages(struct kunit *test, struct rb_test *t)
{
	unsigned long i, wrong = 0;
	u8 *p;

	KUNIT_EXPECT_NULL(test, memchr_inv(t->rb->data, 0, t->rb->data_size));
	for (i = 0; i <= t->rb->nr_pages; i++) {
		p = i ? t->rb->data + ((i - 1) << PAGE_SHIFT) :
			(void *)t->rb->user_page;
		p += PAGE_SIZE - 1;
		*(u8 *)(page_address(perf_buffer_page(t->rb, i)) +
			PAGE_SIZE - 1) = 0x5a;
		wrong += READ_ONCE(*p) != 0x5a;
		*p = 0;
	}
	KUNIT_EXPECT_EQ(test, wrong, 0UL);
}

static void rb_test_pages(struct kunit *test)
{
	struct rb_test t;

	/* Eight data pages: one compound page from the page allocator. */
	rb_test_setup(test, &t, 8, 0, true, false);
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(t.rb->user_page));
	KUNIT_EXPECT_PTR_EQ(test, compound_head(perf_buffer_page(t.rb, 8)),
			    perf_buffer_page(t.rb, 1));
	rb_test_check_pages(test, &t);
	rb_test_teardown(&t);

	/* Twice the page allocator's largest block: vmalloc(). */
	rb_test_setup(test, &t, 2 * MAX_ORDER_NR_PAGES, 0, true, false);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(t.rb->user_page));
	rb_test_check_pages(test, &t);
	rb_test_teardown(&t);
}

/*
 * An event that leaves one buffer and joins another, at once or by a
 * detach and a later attach, joins only after a grace period: a wakeup
 * may still be walking the old list through it.
 */
static void rb_test_rejoin_waits(struct kunit *test)
{
	struct rcu_gp_oldstate before;
	struct perf_buffer *other;
	struct rb_test t;

	rb_test_setup(test, &t, 1, 0, true, false);
	/* Ours, so that the first buffer outlives the event's leaving it. */
	refcount_inc(&t.rb->refcount);
	other = perf_buffer_alloc(1, 0, true);
	KUNIT_ASSERT_NOT_NULL(test, other);

	mutex_lock(&perf_mmap_mutex);
	get_state_synchronize_rcu_full(&before);
	perf_buffer_attach(t.event, NULL);
	perf_buffer_attach(t.event, other);
	KUNIT_EXPECT_TRUE(test, poll_state_synchronize_rcu_full(&before));
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&other->event_list,
						   struct perf_event,
						   rb_entry), t.event);

	get_state_synchronize_rcu_full(&before);
	perf_buffer_attach(t.event, t.rb);
	KUNIT_EXPECT_TRUE(test, poll_state_synchronize_rcu_full(&before));
	KUNIT_EXPECT_TRUE(test, list_empty(&other->event_list));
	mutex_unlock(&perf_mmap_mutex);

	perf_buffer_put(other);
	perf_buffer_put(t.rb);
	rb_test_teardown(&t);
}

static struct kunit_case perf_ring_buffer_cases[] = {
	KUNIT_CASE(rb_test_user_page),
	KUNIT_CASE(rb_test_wraps),
	KUNIT_CASE(rb_test_lost),
	KUNIT_CASE(rb_test_backward),
	KUNIT_CASE(rb_test_nested),
	KUNIT_CASE(rb_test_paused),
	KUNIT_CASE(rb_test_watermark),
	KUNIT_CASE(rb_test_no_data_pages),
	KUNIT_CASE(rb_test_pages),
	KUNIT_CASE(rb_test_rejoin_waits),
	{}
};

static struct kunit_suite perf_ring_buffer_suite = {
	.name = "perf_ring_buffer",
	.test_cases = perf_ring_buffer_cases,
};

kunit_test_suite(perf_ring_buffer_suite);
