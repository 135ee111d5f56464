// SPDX-License-Identifier: GPL-2.0
/*
 * mmap() of an event: creating and sharing ring buffers, charging their
 * memory, and redirecting an event's output into another event's buffer
 * (PERF_EVENT_IOC_SET_OUTPUT, PERF_FLAG_FD_OUTPUT).
 *
 * A buffer is created by the first mmap() of an event and lives as long
 * as some mapping of it does: the last munmap() detaches every event
 * that wrote to it.  Further mmap()s of the same event, or of an event
 * redirected into it, share it if they ask for the same size.
 *
 * Memory: a user may lock perf_event_mlock_kb per online CPU in buffers
 * (user_struct::perf_mlock); beyond that the pages count against the
 * process's RLIMIT_MEMLOCK (mm->pinned_vm), and a mapping that would go
 * past that fails with EPERM unless the caller has CAP_IPC_LOCK or
 * perf_event_paranoid is -1.  The charge is taken back, from the same
 * user and process, when the buffer's last mapping goes.
 */
#include <linux/perf_event.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/user.h>
#include <linux/capability.h>

#include "internal.h"

/*
 * Serialises everything that creates, maps, unmaps or redirects ring
 * buffers: perf_event::rb and perf_event::rb_entry of every event, and
 * the mmap fields of struct perf_buffer.  Taken inside mmap_lock (mmap()
 * and munmap() hold it) and inside perf_event_context::mutex (ioctl and
 * release); none of perf's own locks is taken inside it.
 */
DEFINE_MUTEX(perf_mmap_mutex);

/*
 * Fill in what user space reads about the event itself: its count and
 * times, as a seqcount-protected snapshot.
 */
static void perf_userpage_write(struct perf_event *event,
				struct perf_event_mmap_page *up)
{
	u64 enabled, running;

	perf_event_times_now(event, &enabled, &running);
	WRITE_ONCE(up->lock, up->lock + 1);
	barrier();
	up->index = 0;
	/* Maybe from another CPU than the event's (a buffer attached). */
	if (READ_ONCE(event->state) == PERF_EVENT_STATE_ACTIVE &&
	    READ_ONCE(event->oncpu) == smp_processor_id() &&
	    event->pmu->event_idx)
		up->index = event->pmu->event_idx(event);
	up->offset = perf_event_count_all(event);
	up->time_enabled = enabled;
	up->time_running = running;
	arch_perf_update_userpage(event, up, perf_clock());
	barrier();
	WRITE_ONCE(up->lock, up->lock + 1);
}

/**
 * perf_event_update_userpage - refresh an event's control page
 * @event: the event
 *
 * Nothing to do if the event has no buffer of its own.
 */
void perf_event_update_userpage(struct perf_event *event)
{
	struct perf_buffer *rb;
	unsigned long flags;

	/*
	 * Most events have no buffer: no read-side section for them.  One
	 * attached after this test has its page written by the attach.
	 */
	if (!rcu_access_pointer(event->rb))
		return;
	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb) {
		local_irq_save(flags);
		perf_userpage_write(event, rb->user_page);
		local_irq_restore(flags);
	}
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(perf_event_update_userpage);

static void ctx_update_userpage(struct perf_event *event,
				struct perf_event_context *ctx, void *unused)
{
	perf_event_update_userpage(event);
}

/**
 * perf_event_sync_userpage - refresh an event's control page from any CPU
 * @event: the event
 *
 * Its other writers (the switch, the PMU's start, stop and overflow) run
 * on the event's CPU, under its context's lock or in an NMI that nests
 * whole inside them; the page's seqcount takes one writer at a time.  So
 * a buffer mapped or attached on another CPU is written there too.  An
 * event not in a context (KUnit's) is written here.
 */
void perf_event_sync_userpage(struct perf_event *event)
{
	if (event->ctx)
		perf_event_call(event, ctx_update_userpage, NULL);
	else
		perf_event_update_userpage(event);
}

static unsigned long perf_mlock_limit_pages(void)
{
	unsigned long per_cpu = sysctl_perf_event_mlock >> (PAGE_SHIFT - 10);

	return per_cpu * num_online_cpus();
}

/* Charge a new buffer's pages to the caller and its process. */
static int perf_mmap_charge(struct perf_buffer *rb, struct mm_struct *mm)
{
	struct user_struct *user = current_user();
	unsigned long pages = rb->nr_pages + 1;
	unsigned long limit = perf_mlock_limit_pages();
	unsigned long used = atomic_long_read(&user->perf_mlock);
	unsigned long own, pinned, rlim;

	own = used < limit ? min(pages, limit - used) : 0;
	pinned = pages - own;
	if (pinned) {
		rlim = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
		if (atomic64_read(&mm->pinned_vm) + pinned > rlim &&
		    perf_is_paranoid() && !capable(CAP_IPC_LOCK))
			return perf_refuse(-EPERM,
					   "mmap: above perf_event_mlock_kb and RLIMIT_MEMLOCK",
					   pages);
	}

	atomic_long_add(own, &user->perf_mlock);
	atomic64_add(pinned, &mm->pinned_vm);
	rb->mmap_user = get_uid(user);
	rb->mmap_user_pages = own;
	mmgrab(mm);
	rb->mmap_mm = mm;
	rb->mmap_pinned_pages = pinned;
	return 0;
}

static void perf_mmap_uncharge(struct perf_buffer *rb)
{
	atomic_long_sub(rb->mmap_user_pages, &rb->mmap_user->perf_mlock);
	free_uid(rb->mmap_user);
	atomic64_sub(rb->mmap_pinned_pages, &rb->mmap_mm->pinned_vm);
	mmdrop(rb->mmap_mm);
	rb->mmap_user = NULL;
	rb->mmap_mm = NULL;
}

static struct perf_event *perf_vma_event(struct vm_area_struct *vma)
{
	return vma->vm_file->private_data;
}

static void perf_vm_open(struct vm_area_struct *vma)
{
	struct perf_event *event = perf_vma_event(vma);
	struct perf_buffer *rb;

	mutex_lock(&perf_mmap_mutex);
	rb = rcu_dereference_protected(event->rb,
				       lockdep_is_held(&perf_mmap_mutex));
	atomic_inc(&event->mmap_count);
	atomic_inc(&rb->mmap_count);
	mutex_unlock(&perf_mmap_mutex);
	if (event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
}

/* The buffer's last mapping went: every writer loses it. */
static void perf_buffer_unmapped(struct perf_buffer *rb)
{
	struct perf_event *event;

	perf_mmap_uncharge(rb);
	refcount_inc(&rb->refcount);
	while (!list_empty(&rb->event_list)) {
		event = list_first_entry(&rb->event_list, struct perf_event,
					 rb_entry);
		perf_buffer_attach(event, NULL);
	}
	perf_buffer_put(rb);
}

static void perf_vm_close(struct vm_area_struct *vma)
{
	struct perf_event *event = perf_vma_event(vma);
	struct perf_buffer *rb;

	if (event->pmu->event_unmapped)
		event->pmu->event_unmapped(event, vma->vm_mm);
	mutex_lock(&perf_mmap_mutex);
	rb = rcu_dereference_protected(event->rb,
				       lockdep_is_held(&perf_mmap_mutex));
	atomic_dec(&event->mmap_count);
	if (atomic_dec_and_test(&rb->mmap_count))
		perf_buffer_unmapped(rb);
	mutex_unlock(&perf_mmap_mutex);
}

/* Pieces of a buffer cannot be unmapped: all of it or nothing. */
static int perf_vm_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return perf_refuse(-EINVAL, "munmap: part of a buffer", addr);
}

static unsigned long perf_event_watermark(struct perf_event *event)
{
	return event->attr.watermark ? event->attr.wakeup_watermark : 0;
}

/*
 * A mapping at an offset is for the AUX area, which goes where user space
 * said in the control page: at aux_offset, past the buffer, for aux_size
 * bytes, a power of two pages.  A mapping that does not match is EINVAL;
 * one that does needs a PMU with an AUX area, and none here has one.
 */
static int perf_mmap_aux(struct perf_buffer *rb, struct vm_area_struct *vma)
{
	u64 offset = READ_ONCE(rb->user_page->aux_offset);
	u64 size = READ_ONCE(rb->user_page->aux_size);
	unsigned long vma_size = vma->vm_end - vma->vm_start;

	if (offset < rb->data_size + PAGE_SIZE ||
	    offset != (u64)vma->vm_pgoff << PAGE_SHIFT ||
	    size != vma_size || !is_power_of_2(vma_size >> PAGE_SHIFT))
		return perf_refuse(-EINVAL, "mmap: AUX area not where aux_offset says",
				   (u64)vma->vm_pgoff << PAGE_SHIFT);
	return perf_refuse(-EOPNOTSUPP, "mmap: no AUX area here", offset);
}

/*
 * Map pages @first to @first + *@nr - 1 of the buffer (at most
 * PERF_MAP_BATCH) with one vm_insert_pages(), which takes the page-table
 * lock once for up to eight of them.  *@nr comes back as how many were
 * not mapped; the return is vm_insert_pages()' error for the first of
 * those, -EBUSY if it already was.
 */
#define PERF_MAP_BATCH	16

static int perf_mmap_pages(struct vm_area_struct *vma, struct perf_buffer *rb,
			   unsigned long first, unsigned long *nr)
{
	unsigned long addr = vma->vm_start +
			     ((first - vma->vm_pgoff) << PAGE_SHIFT);
	struct page *pages[PERF_MAP_BATCH];
	unsigned long i;

	for (i = 0; i < *nr; i++)
		pages[i] = perf_buffer_page(rb, first + i);
	return vm_insert_pages(vma, addr, pages, nr);
}

/*
 * mmap() maps the control page, which every reader looks at first; a data
 * page is mapped when first touched, with the pages after it up to
 * PERF_MAP_BATCH: a reader going forward through the buffer faults once
 * per batch, and a buffer that is unmapped before it fills (or after
 * MADV_DONTNEED) costs only the pages that were read.  The mapping holds
 * the buffer (vm_private_data, counted in its mmap_count).
 *
 * Only the faulting page has to be mapped: the ones after it stop at the
 * first that is mapped already (-EBUSY) or whose page table cannot be
 * allocated, and are mapped by a later fault.
 */
static vm_fault_t perf_vm_fault(struct vm_fault *vmf)
{
	struct perf_buffer *rb = vmf->vma->vm_private_data;
	unsigned long total = rb->nr_pages + 1, want, nr;
	int ret;

	/* The data pages are written by the kernel alone, as on 6.1. */
	if (vmf->pgoff >= total ||
	    (vmf->pgoff && (vmf->flags & FAULT_FLAG_WRITE)))
		return VM_FAULT_SIGBUS;
	want = min_t(unsigned long, total - vmf->pgoff, PERF_MAP_BATCH);
	nr = want;
	ret = perf_mmap_pages(vmf->vma, rb, vmf->pgoff, &nr);
	/* The faulting page was mapped here, or by a racing fault. */
	if (nr < want || ret == -EBUSY)
		return VM_FAULT_NOPAGE;
	return ret == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct perf_vm_ops = {
	.open		= perf_vm_open,
	.close		= perf_vm_close,
	.may_split	= perf_vm_may_split,
	.fault		= perf_vm_fault,
};

/**
 * perf_mmap - the mmap() of an event's file
 * @file: the event's file
 * @vma: the new mapping: a shared one of 1 + 2^n pages at offset 0
 *
 * Return: 0, or -EINVAL for a mapping of the wrong shape, an inherited
 * per-task event, a size that differs from the buffer's or an AUX area
 * where the control page does not place one; -EOPNOTSUPP for an AUX area
 * where it does, as no PMU here provides one; -EPERM beyond the memory
 * limits; -ENOMEM.
 */
int perf_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct perf_event *event = file->private_data;
	unsigned long size = vma->vm_end - vma->vm_start;
	unsigned long nr_pages = (size >> PAGE_SHIFT) - 1, nr;
	struct perf_buffer *rb;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return perf_refuse(-EINVAL, "mmap: not MAP_SHARED", vma->vm_flags);
	/* Every child writing into one buffer from every CPU: no. */
	if (event->cpu == -1 && event->attr.inherit)
		return perf_refuse(-EINVAL, "mmap: inherit with cpu -1", 0);

	ret = security_perf_event_read(event);
	if (ret)
		return perf_refuse(ret, "security: the LSM refused the read", 0);

	mutex_lock(&perf_mmap_mutex);
	rb = rcu_dereference_protected(event->rb,
				       lockdep_is_held(&perf_mmap_mutex));

	if (vma->vm_pgoff) {
		if (rb)
			ret = perf_mmap_aux(rb, vma);
		else
			ret = perf_refuse(-EINVAL, "mmap: AUX area without a buffer",
					  vma->vm_pgoff);
		goto out;
	}

	if (nr_pages && !is_power_of_2(nr_pages)) {
		ret = perf_refuse(-EINVAL, "mmap: data pages not a power of 2",
				  nr_pages);
		goto out;
	}

	if (rb) {
		if (rb->nr_pages != nr_pages) {
			ret = perf_refuse(-EINVAL,
					  "mmap: size differs from the buffer's",
					  nr_pages);
			goto out;
		}
	} else {
		rb = perf_buffer_alloc(nr_pages, perf_event_watermark(event),
				       vma->vm_flags & VM_WRITE);
		if (!rb) {
			ret = perf_refuse(-ENOMEM, "mmap: out of memory",
					  nr_pages);
			goto out;
		}
		ret = perf_mmap_charge(rb, vma->vm_mm);
		if (ret) {
			perf_buffer_put(rb);
			goto out;
		}
		perf_buffer_attach(event, rb);
		perf_buffer_put(rb);
	}

	nr = 1;
	ret = perf_mmap_pages(vma, rb, 0, &nr);
	if (ret) {
		perf_refuse(ret, "mmap: cannot map the buffer", nr_pages);
		if (!atomic_read(&rb->mmap_count))
			perf_buffer_unmapped(rb);
		goto out;
	}

	atomic_inc(&rb->mmap_count);
	atomic_inc(&event->mmap_count);
	/*
	 * Not copied on fork, never grown, never in a core dump.  A buffer
	 * first mapped read-only may be made writable (as in 6.1); it stays
	 * the overwriting kind, and data_tail means nothing to it.
	 */
	vma->vm_flags |= VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_ops = &perf_vm_ops;
	vma->vm_private_data = rb;
	perf_event_sync_userpage(event);
out:
	mutex_unlock(&perf_mmap_mutex);
	if (!ret && !vma->vm_pgoff && event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
	return ret;
}

/**
 * perf_event_set_output - send an event's records to another's buffer
 * @event: the event
 * @output: the event whose buffer to use, or NULL to go back to none
 *
 * The two must be on the same CPU, or follow the same task; use the same
 * clock and direction; @output must have a buffer and @event must not be
 * mapped itself.  Caller holds @event's context mutex.
 *
 * Return: 0 or -EINVAL.
 */
int perf_event_set_output(struct perf_event *event, struct perf_event *output)
{
	struct perf_buffer *rb = NULL;
	int ret = -EINVAL;

	if (output) {
		if (output == event)
			return perf_refuse(-EINVAL, "output: the event itself", 0);
		if (output->cpu != event->cpu)
			return perf_refuse(-EINVAL, "output: on another CPU",
					   output->cpu);
		if (output->cpu == -1 && output->ctx != event->ctx)
			return perf_refuse(-EINVAL, "output: on another task", 0);
		if (output->attr.use_clockid != event->attr.use_clockid ||
		    (event->attr.use_clockid &&
		     output->attr.clockid != event->attr.clockid))
			return perf_refuse(-EINVAL, "output: clockid differs",
					   output->attr.clockid);
		if (output->attr.write_backward != event->attr.write_backward)
			return perf_refuse(-EINVAL,
					   "output: write_backward differs",
					   output->attr.write_backward);
	}

	mutex_lock(&perf_mmap_mutex);
	if (atomic_read(&event->mmap_count)) {
		perf_refuse(-EINVAL, "output: the event is mmapped", 0);
		goto out;
	}
	if (output) {
		rb = rcu_dereference_protected(output->rb,
					       lockdep_is_held(&perf_mmap_mutex));
		if (!rb) {
			perf_refuse(-EINVAL, "output: target has no buffer", 0);
			goto out;
		}
	}
	perf_buffer_attach(event, rb);
	ret = 0;
out:
	mutex_unlock(&perf_mmap_mutex);
	return ret;
}

/**
 * perf_event_release_output - an event going away leaves its buffer
 * @event: the event, no longer mapped by anyone
 */
void perf_event_release_output(struct perf_event *event)
{
	if (!rcu_access_pointer(event->rb))
		return;
	mutex_lock(&perf_mmap_mutex);
	perf_buffer_attach(event, NULL);
	mutex_unlock(&perf_mmap_mutex);
}
