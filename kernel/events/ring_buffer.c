// SPDX-License-Identifier: GPL-2.0
/*
 * The ring buffer: where samples and side-band records go, for user
 * space to read through mmap().
 *
 * The mapping is one control page (struct perf_event_mmap_page) followed
 * by 2^n data pages.  The data area is virtually contiguous, so a record
 * is copied with at most two memcpy()s, the second one when it wraps
 * around the end of the data area.  Where the page allocator has the
 * data pages as one compound page, the data area is that page, seen
 * through the direct map: no vmap area to set up, and none to tear down
 * and flush from the TLBs when it goes.  Otherwise the whole buffer is a
 * vmalloc() area.
 *
 * Positions are free-running byte counts: @head is where the next record
 * goes, user space consumes up to data_tail.  A writable mapping means
 * user space moves data_tail and the kernel never overwrites what it has
 * not consumed (a record that does not fit is lost and counted); a
 * read-only mapping lets the kernel overwrite the oldest records.
 * Backward buffers (attr.write_backward) have @head move down: each
 * record is written just below the previous one.
 *
 * Writers: every event whose output goes here, from any context
 * including NMI, but only on one CPU at a time (the events of a buffer
 * are either all on one CPU or all follow one task).  A writer reserves
 * its bytes by moving @head with cmpxchg, so an interrupt that writes a
 * record in the middle of another record's write gets its own space;
 * the outermost writer (@nest) publishes data_head once all nested
 * writes are done.
 */
#include <linux/perf_event.h>
#include <linux/vmalloc.h>
#include <linux/slab.h>
#include <linux/poll.h>
#include <linux/uaccess.h>

#include "internal.h"

static void perf_buffer_init_user_page(struct perf_buffer *rb)
{
	struct perf_event_mmap_page *up = rb->user_page;

	up->version = 0;
	up->compat_version = 0;
	/* cap_bit0 is gone: the capabilities are the named bits. */
	up->cap_bit0_is_deprecated = 1;
	up->size = offsetof(struct perf_event_mmap_page, __reserved);
	up->data_offset = PAGE_SIZE;
	up->data_size = rb->data_size;
}

/* The order of the compound page that holds @nr_pages (at least one). */
static unsigned int perf_buffer_data_order(unsigned long nr_pages)
{
	return get_order(nr_pages << PAGE_SHIFT);
}

/*
 * The control page and @nr_pages data pages, zeroed.  The data pages are
 * one compound page from the page allocator, where it has one free: no
 * direct reclaim or compaction for it, as vmalloc() will do (kswapd is
 * woken all the same).  Each page mapped into user space holds the
 * compound page, and it goes back whole.  Otherwise the whole buffer is
 * one vmalloc() area, the control page first.
 */
static int perf_buffer_alloc_pages(struct perf_buffer *rb,
				   unsigned long nr_pages)
{
	unsigned int order = nr_pages ? perf_buffer_data_order(nr_pages) : 0;
	struct page *page;

	if (order >= MAX_ORDER)
		goto vmalloc;
	rb->user_page = (void *)get_zeroed_page(GFP_KERNEL);
	if (!rb->user_page)
		return -ENOMEM;
	if (!nr_pages)
		return 0;
	page = alloc_pages((GFP_KERNEL & ~__GFP_DIRECT_RECLAIM) | __GFP_ZERO |
			   __GFP_NOWARN | __GFP_COMP, order);
	if (page) {
		rb->data = page_address(page);
		return 0;
	}
	free_page((unsigned long)rb->user_page);
vmalloc:
	rb->user_page = vmalloc_user((nr_pages + 1) << PAGE_SHIFT);
	if (!rb->user_page)
		return -ENOMEM;
	rb->data = (void *)rb->user_page + PAGE_SIZE;
	return 0;
}

static void perf_buffer_free_pages(struct perf_buffer *rb)
{
	if (is_vmalloc_addr(rb->user_page)) {
		vfree(rb->user_page);
		return;
	}
	free_page((unsigned long)rb->user_page);
	if (rb->nr_pages)
		__free_pages(virt_to_page(rb->data),
			     perf_buffer_data_order(rb->nr_pages));
}

/**
 * perf_buffer_page - a page of a ring buffer, for mapping it
 * @rb: the buffer
 * @pgoff: the page: 0 for the control page, 1 + n for data page n
 *
 * Return: the page; @pgoff must be within the buffer.
 */
struct page *perf_buffer_page(struct perf_buffer *rb, unsigned long pgoff)
{
	void *p = pgoff ? rb->data + ((pgoff - 1) << PAGE_SHIFT) :
			  (void *)rb->user_page;

	return is_vmalloc_addr(p) ? vmalloc_to_page(p) : virt_to_page(p);
}

/**
 * perf_buffer_alloc - allocate a ring buffer
 * @nr_pages: data pages: 0 or a power of two
 * @watermark: bytes between wakeups; 0 for half the buffer
 * @writable: whether user space maps it writable (and so owns data_tail)
 *
 * Return: the buffer, with one reference, or NULL.
 */
struct perf_buffer *perf_buffer_alloc(unsigned long nr_pages,
				      unsigned long watermark, bool writable)
{
	struct perf_buffer *rb;

	if (nr_pages > (INT_MAX >> PAGE_SHIFT))
		return NULL;

	rb = kzalloc(sizeof(*rb), GFP_KERNEL);
	if (!rb)
		return NULL;

	if (perf_buffer_alloc_pages(rb, nr_pages)) {
		kfree(rb);
		return NULL;
	}
	rb->nr_pages = nr_pages;
	rb->data_size = nr_pages << PAGE_SHIFT;
	rb->overwrite = !writable;
	if (!watermark || watermark > rb->data_size)
		watermark = rb->data_size / 2;
	rb->watermark = watermark;
	refcount_set(&rb->refcount, 1);
	INIT_LIST_HEAD(&rb->event_list);
	perf_buffer_init_user_page(rb);
	return rb;
}

static void perf_buffer_free_rcu(struct rcu_head *head)
{
	struct perf_buffer *rb = container_of(head, struct perf_buffer,
					      rcu_head);

	/* From softirq context vfree() defers the work itself. */
	perf_buffer_free_pages(rb);
	kfree(rb);
}

/**
 * perf_buffer_put - drop a reference; the last one frees the buffer
 * @rb: the buffer, or NULL
 *
 * Writers may still be using it under RCU, so it goes after a grace
 * period.
 */
void perf_buffer_put(struct perf_buffer *rb)
{
	if (rb && refcount_dec_and_test(&rb->refcount))
		call_rcu(&rb->rcu_head, perf_buffer_free_rcu);
}

/**
 * perf_buffer_get - the buffer an event's output goes to, referenced
 * @event: the event
 *
 * Return: the buffer with a reference the caller puts, or NULL.
 */
struct perf_buffer *perf_buffer_get(struct perf_event *event)
{
	struct perf_buffer *rb;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb && !refcount_inc_not_zero(&rb->refcount))
		rb = NULL;
	rcu_read_unlock();
	return rb;
}

/**
 * perf_buffer_attach - make @rb the output of @event
 * @event: the event
 * @rb: the buffer (the event takes a reference of its own), or NULL to
 *	detach
 *
 * perf_mmap_mutex held.  An event joining a buffer's list waits until a
 * grace period has passed since it left the last one (at once, or by a
 * detach and a later attach), so that a wakeup still walking the old list
 * through it never wanders onto the new one.
 */
void perf_buffer_attach(struct perf_event *event, struct perf_buffer *rb)
{
	struct perf_buffer *old;

	old = rcu_dereference_protected(event->rb,
					lockdep_is_held(&perf_mmap_mutex));
	if (old == rb)
		return;
	if (old) {
		list_del_rcu(&event->rb_entry);
		event->rb_left = get_state_synchronize_rcu();
	}
	rcu_assign_pointer(event->rb, rb);
	if (rb) {
		cond_synchronize_rcu(event->rb_left);
		refcount_inc(&rb->refcount);
		list_add_rcu(&event->rb_entry, &rb->event_list);
		perf_event_sync_userpage(event);
	}
	perf_buffer_put(old);
}

/**
 * perf_buffer_wakeup - wake the readers of a buffer
 * @rb: the buffer
 *
 * Every event writing to @rb has its pollers woken.  O_ASYNC signals are
 * not sent here: they are for the event that overflowed alone (see
 * kernel/events/overflow.c).  Interrupt context; never from NMI.
 */
void perf_buffer_wakeup(struct perf_buffer *rb)
{
	struct perf_event *event;

	rcu_read_lock();
	list_for_each_entry_rcu(event, &rb->event_list, rb_entry)
		wake_up_all(&event->waitq);
	rcu_read_unlock();
}

/*
 * Room for @size more bytes without overwriting what the reader has not
 * had?  As in 6.1, a writable buffer is never filled to the last byte:
 * it holds at most data_size - 1 bytes of records.
 */
static bool perf_buffer_has_room(struct perf_buffer *rb, unsigned long head,
				 unsigned long tail, unsigned long size,
				 bool backward)
{
	unsigned long used = backward ? tail - head : head - tail;

	return used + size < rb->data_size;
}

/* Publish @head to user space; only the outermost writer does it. */
static void perf_buffer_publish(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long head;

	for (;;) {
		head = local_read(&rb->head);
		if (local_read(&rb->nest) > 1) {
			/* A nested writer: the outer one publishes for us. */
			local_dec(&rb->nest);
			return;
		}
		/* The data must be visible before the head that covers it. */
		smp_wmb();
		WRITE_ONCE(rb->user_page->data_head, head);
		local_dec(&rb->nest);
		barrier();
		/* Something nested between our read of head and the dec. */
		if (likely(local_read(&rb->head) == head))
			return;
		local_inc(&rb->nest);
	}
}

static void perf_buffer_copy(struct perf_output_handle *handle,
			     const void *buf, unsigned long len)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long off = handle->offset & (rb->data_size - 1);
	unsigned long first = min(len, rb->data_size - off);

	memcpy(rb->data + off, buf, first);
	if (len > first)
		memcpy(rb->data, buf + first, len - first);
	handle->offset += len;
	handle->size -= len;
}

/* The PERF_RECORD_LOST that goes before the next record written. */
static void perf_output_lost(struct perf_output_handle *handle,
			     struct perf_sample_data *data, u64 lost)
{
	struct perf_event *event = handle->event;
	struct {
		struct perf_event_header	header;
		u64				id;
		u64				lost;
	} rec = {
		.header = {
			.type = PERF_RECORD_LOST,
			.size = sizeof(rec) + perf_sample_id_size(event),
		},
		.id = event->id,
		.lost = lost,
	};

	perf_buffer_copy(handle, &rec, sizeof(rec));
	perf_output_sample_id(handle, event, data);
}

/**
 * perf_output_begin - reserve room for a record in an event's buffer
 * @handle: filled in for perf_output_copy() and perf_output_end()
 * @data: the sample, for the sample_id trailer of a PERF_RECORD_LOST
 *	that may have to go first (prepared with perf_sample_id_prepare())
 * @event: the event writing
 * @size: the record's size in bytes, a multiple of 8
 *
 * A record that does not fit, or goes to a paused buffer, is counted as
 * lost: in the buffer's next PERF_RECORD_LOST and in the event's
 * PERF_FORMAT_LOST count.  Any context, preemption or interrupts off.
 *
 * Return: 0, with room for @size bytes; -ENOSPC if there is no buffer or
 * no room.
 */
int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data, struct perf_event *event,
		      unsigned int size)
{
	unsigned long head, new_head, tail, lost_size = 0;
	struct perf_buffer *rb;
	bool backward;
	u64 lost;

	/* Inherited copies write into the buffer of the event opened. */
	if (event->parent)
		event = event->parent;

	/*
	 * The buffer must not be freed under us.  With preemption or
	 * interrupts off, as for every overflow (in NMI or IRQ), we are
	 * an RCU reader already: the grace period its free waits for
	 * waits for such regions too.  Only a preemptible writer, of a
	 * side-band record, takes the read lock, which costs the overflow
	 * path dearly under lockdep.
	 */
	handle->rcu_locked = preemptible();
	if (handle->rcu_locked)
		rcu_read_lock();
	rb = rcu_dereference_check(event->rb, !handle->rcu_locked);
	if (unlikely(!rb || !rb->data_size))
		goto out;

	handle->rb = rb;
	handle->event = event;
	if (unlikely(READ_ONCE(rb->paused)))
		goto lost;

	backward = event->attr.write_backward;
	local_inc(&rb->nest);
	handle->wakeup = local_read(&rb->wakeup);

	/*
	 * Take the count of lost records before reserving room for their
	 * PERF_RECORD_LOST: a writer nesting in between could otherwise
	 * take it first and leave the room unwritten.
	 */
	lost = local_xchg(&rb->lost, 0);
	if (unlikely(lost))
		lost_size = sizeof(struct perf_event_header) + 2 * sizeof(u64) +
			    perf_sample_id_size(event);

	do {
		head = local_read(&rb->head);
		if (!rb->overwrite) {
			tail = READ_ONCE(rb->user_page->data_tail);
			if (!perf_buffer_has_room(rb, head, tail,
						  size + lost_size, backward)) {
				local_dec(&rb->nest);
				local_add(lost, &rb->lost);
				goto lost;
			}
		}
		if (backward)
			new_head = head - size - lost_size;
		else
			new_head = head + size + lost_size;
	} while (local_cmpxchg(&rb->head, head, new_head) != head);

	if (!rb->overwrite) {
		/*
		 * Pairs with the reader's barrier between reading the records
		 * and storing data_tail: our stores into the space it gave
		 * back must not pass our load of data_tail.
		 */
		smp_mb();
	}

	if (unlikely(new_head - local_read(&rb->wakeup) > rb->watermark &&
		     !backward))
		local_add(rb->watermark, &rb->wakeup);

	handle->offset = backward ? new_head : head;
	handle->size = size + lost_size;

	if (unlikely(lost))
		perf_output_lost(handle, data, lost);
	return 0;

lost:
	local_inc(&rb->lost);
	atomic64_inc(&event->lost_samples);
out:
	if (handle->rcu_locked)
		rcu_read_unlock();
	return -ENOSPC;
}

/**
 * perf_output_copy - copy bytes into a reserved record
 * @handle: from perf_output_begin()
 * @buf: the bytes
 * @len: how many; no more than are left of the reservation
 *
 * Return: 0.
 */
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len)
{
	if (WARN_ON_ONCE(len > handle->size))
		len = handle->size;
	perf_buffer_copy(handle, buf, len);
	return 0;
}

/**
 * perf_output_skip - leave bytes of a reserved record as they are
 * @handle: from perf_output_begin()
 * @len: how many
 */
void perf_output_skip(struct perf_output_handle *handle, unsigned int len)
{
	handle->offset += len;
	handle->size -= len;
}

/**
 * perf_output_copy_user - copy user memory into a reserved record
 * @handle: from perf_output_begin()
 * @src: the user address
 * @len: how many bytes
 *
 * Safe in NMI context; the bytes that cannot be read are left as they
 * are.
 *
 * Return: the number of bytes that could not be copied.
 */
unsigned long perf_output_copy_user(struct perf_output_handle *handle,
				    const void __user *src, unsigned long len)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long off = handle->offset & (rb->data_size - 1);
	unsigned long first = min(len, rb->data_size - off);
	unsigned long left;

	left = copy_from_user_nmi(rb->data + off, src, first);
	if (!left && len > first)
		left = copy_from_user_nmi(rb->data, src + first, len - first);
	else if (left)
		left += len - first;
	perf_output_skip(handle, len);
	return left;
}

/**
 * perf_output_copy_frag - copy a piece of raw data into a reserved record
 * @handle: from perf_output_begin()
 * @frag: the piece; its copy function, if it has one, does the copying
 *	(for data memcpy() cannot read, a BPF program's packet)
 *
 * The bytes the copy function leaves are left as they are.
 *
 * Return: the number of bytes not copied.
 */
unsigned long perf_output_copy_frag(struct perf_output_handle *handle,
				    const struct perf_raw_frag *frag)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long len = frag->size;
	unsigned long off = handle->offset & (rb->data_size - 1);
	unsigned long first = min(len, rb->data_size - off);
	unsigned long left;

	if (!frag->copy)
		return perf_output_copy(handle, frag->data, len);
	left = frag->copy(rb->data + off, frag->data, 0, first);
	if (len > first)
		left += frag->copy(rb->data, frag->data, first, len - first);
	perf_output_skip(handle, len);
	return left;
}

/**
 * perf_output_end - finish a record and publish it
 * @handle: from perf_output_begin()
 *
 * Readers are woken (from an irq_work, wherever we are) when the record
 * crossed a watermark or completed attr.wakeup_events samples.
 */
void perf_output_end(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;

	perf_buffer_publish(handle);
	if (handle->wakeup != local_read(&rb->wakeup)) {
		atomic_set(&rb->poll, EPOLLIN | EPOLLRDNORM);
		perf_event_pending(handle->event, PERF_PENDING_WAKEUP);
	}
	if (handle->rcu_locked)
		rcu_read_unlock();
}

/**
 * perf_output_sample_done - count a sample towards attr.wakeup_events
 * @handle: the handle the sample was written with, before
 *	perf_output_end()
 */
void perf_output_sample_done(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;
	struct perf_buffer *rb = handle->rb;
	u32 every = event->attr.wakeup_events;

	if (event->attr.watermark || !every)
		return;
	if (local_inc_return(&rb->events) >= every) {
		local_sub(every, &rb->events);
		local_inc(&rb->wakeup);
	}
}

/**
 * perf_buffer_poll - what poll() reports for a buffer
 * @rb: the buffer
 *
 * Return: EPOLLIN once a wakeup was due since the last poll, else 0.
 */
__poll_t perf_buffer_poll(struct perf_buffer *rb)
{
	return atomic_xchg(&rb->poll, 0);
}

/**
 * perf_buffer_set_paused - stop or resume writing (PAUSE_OUTPUT)
 * @rb: the buffer
 * @paused: true to drop and count records from now on
 */
void perf_buffer_set_paused(struct perf_buffer *rb, bool paused)
{
	WRITE_ONCE(rb->paused, paused);
}
