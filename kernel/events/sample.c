// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_SAMPLE, and the sample_id trailer other records carry.
 *
 * A sample is built in two passes over attr.sample_type: the first
 * fills in struct perf_sample_data and adds up the record's size, the
 * second writes the fields, in the order perf_event_open(2) lists them,
 * into the space perf_output_begin() reserved.  Fields the PMU filled
 * in (perf_sample_data::sample_flags) are taken as they are.
 *
 * Everything here may run in NMI context.
 */
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/mm.h>
#include <linux/pid_namespace.h>
#include <linux/pgtable.h>
#include <linux/io.h>

#include "internal.h"

/* The fields of a sample_id trailer, in sample_type terms. */
#define PERF_SAMPLE_ID_ALL_FIELDS \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/**
 * perf_event_time_clock - the time stamp records of @event carry
 * @event: the event
 *
 * Return: nanoseconds of attr.clockid, or of the local clock by default.
 */
u64 perf_event_time_clock(struct perf_event *event)
{
	return event->clock ? event->clock() : perf_clock();
}

/**
 * perf_record_pid - a task's pid or tgid as an event's owner sees it
 * @event: the event; a copy uses the namespace of the event opened
 * @task: the task
 * @type: PIDTYPE_PID for the thread id, PIDTYPE_TGID for the process
 *
 * Return: the number, 0 if the task is not visible there, or -1 (as 6.1
 * reports it) for a task that has no pid any more: one that exited and
 * was reaped, on its way out.
 */
u32 perf_record_pid(struct perf_event *event, struct task_struct *task,
		    enum pid_type type)
{
	struct pid_namespace *ns = (event->parent ?: event)->ns;
	u32 nr;

	/*
	 * In the initial namespace the numbers are the task's own: no
	 * walk of its struct pid under the RCU read lock, which every
	 * sample would pay for (twice, pid and tid).
	 */
	if (ns == &init_pid_ns && pid_alive(task))
		return type == PIDTYPE_PID ? task->pid : task->tgid;
	nr = __task_pid_nr_ns(task, type, ns);

	if (!nr && !pid_alive(task))
		nr = -1;
	return nr;
}

/* The id user space knows an event by: inherited copies use the parent's. */
static u64 perf_event_primary_id(struct perf_event *event)
{
	return event->parent ? event->parent->id : event->id;
}

/**
 * perf_sample_id_prepare - fill in the fields of a sample_id trailer
 * @data: the sample
 * @event: the event writing the record
 */
void perf_sample_id_prepare(struct perf_sample_data *data,
			    struct perf_event *event)
{
	u64 type = event->attr.sample_type;

	data->type = type;
	if (type & PERF_SAMPLE_TID) {
		data->tid_entry.pid = perf_record_pid(event, current,
						      PIDTYPE_TGID);
		data->tid_entry.tid = perf_record_pid(event, current,
						      PIDTYPE_PID);
	}
	if (type & PERF_SAMPLE_TIME)
		data->time = perf_event_time_clock(event);
	if (type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		data->id = perf_event_primary_id(event);
	if (type & PERF_SAMPLE_STREAM_ID)
		data->stream_id = event->id;
	if (type & PERF_SAMPLE_CPU) {
		data->cpu_entry.cpu = raw_smp_processor_id();
		data->cpu_entry.reserved = 0;
	}
}

/**
 * perf_sample_id_size - the size of the trailer @event's records carry
 * @event: the event
 *
 * Return: bytes; 0 without attr.sample_id_all.
 */
unsigned int perf_sample_id_size(struct perf_event *event)
{
	if (!event->attr.sample_id_all)
		return 0;
	return hweight64(event->attr.sample_type & PERF_SAMPLE_ID_ALL_FIELDS) *
	       sizeof(u64);
}

/**
 * perf_output_sample_id - write the sample_id trailer of a record
 * @handle: the record being written
 * @event: the event writing it
 * @data: prepared with perf_sample_id_prepare()
 */
void perf_output_sample_id(struct perf_output_handle *handle,
			   struct perf_event *event,
			   struct perf_sample_data *data)
{
	u64 type = event->attr.sample_type;

	if (!event->attr.sample_id_all)
		return;
	if (type & PERF_SAMPLE_TID)
		perf_output_put(handle, data->tid_entry);
	if (type & PERF_SAMPLE_TIME)
		perf_output_put(handle, data->time);
	if (type & PERF_SAMPLE_ID)
		perf_output_put(handle, data->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		perf_output_put(handle, data->stream_id);
	if (type & PERF_SAMPLE_CPU)
		perf_output_put(handle, data->cpu_entry);
	if (type & PERF_SAMPLE_IDENTIFIER)
		perf_output_put(handle, data->id);
}

/**
 * perf_sample_read_size - the size of an event's read_format values
 * @event: the event
 *
 * Return: bytes perf_output_read() writes.
 */
unsigned int perf_sample_read_size(struct perf_event *event)
{
	u64 fmt = event->attr.read_format;
	unsigned int per_value = 1 + !!(fmt & PERF_FORMAT_ID) +
				 !!(fmt & PERF_FORMAT_LOST);
	unsigned int words = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			     !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (fmt & PERF_FORMAT_GROUP)
		words += 1 + (1 + READ_ONCE(event->group_leader->nr_siblings)) *
			     per_value;
	else
		words += per_value;
	return words * sizeof(u64);
}

/* The current count of an event, pulled from its PMU if it runs here. */
static u64 perf_sample_count(struct perf_event *event)
{
	if (READ_ONCE(event->state) == PERF_EVENT_STATE_ACTIVE &&
	    READ_ONCE(event->oncpu) == smp_processor_id())
		event->pmu->read(event);
	return perf_event_count_all(event);
}

/* What follows a value in a read_format block: its id and lost count. */
static void perf_output_read_tail(struct perf_output_handle *handle,
				  struct perf_event *event, u64 fmt)
{
	u64 value;

	if (fmt & PERF_FORMAT_ID) {
		value = perf_event_primary_id(event);
		perf_output_put(handle, value);
	}
	if (fmt & PERF_FORMAT_LOST) {
		value = atomic64_read(&event->lost_samples);
		perf_output_put(handle, value);
	}
}

/**
 * perf_output_read - write an event's read_format values into a record
 * @handle: the record being written
 * @event: the event (PERF_SAMPLE_READ, PERF_RECORD_READ)
 *
 * The read_format block, laid out as read() lays it out:
 *   alone:     value, [enabled], [running], [id], [lost]
 *   a group:   nr, [enabled], [running], then per member value, [id], [lost]
 *
 * A sample may come (an NMI) while the IPI that adds or removes a member
 * runs on this CPU, between its change of the list and of the count the
 * record was sized from: exactly that many members are written, the last
 * ones zero if the list is short for a moment.
 */
void perf_output_read(struct perf_output_handle *handle,
		      struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	u64 fmt = event->attr.read_format;
	u64 enabled, running, value;
	unsigned int nr = 0, n = 0;

	perf_event_times_now(event, &enabled, &running);

	if (fmt & PERF_FORMAT_GROUP) {
		nr = READ_ONCE(leader->nr_siblings);
		value = 1 + nr;
	} else {
		value = perf_sample_count(event);
	}
	perf_output_put(handle, value);
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		perf_output_put(handle, enabled);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		perf_output_put(handle, running);

	if (!(fmt & PERF_FORMAT_GROUP)) {
		perf_output_read_tail(handle, event, fmt);
		return;
	}
	value = perf_sample_count(leader);
	perf_output_put(handle, value);
	perf_output_read_tail(handle, leader, fmt);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_entry) {
		if (n++ == nr)
			return;
		value = perf_sample_count(sibling);
		perf_output_put(handle, value);
		perf_output_read_tail(handle, sibling, fmt);
	}
	value = 0;
	for (; n < nr; n++) {
		perf_output_put(handle, value);
		if (fmt & PERF_FORMAT_ID)
			perf_output_put(handle, value);
		if (fmt & PERF_FORMAT_LOST)
			perf_output_put(handle, value);
	}
}

/* The physical address of a data address, or 0. */
static u64 perf_virt_to_phys(u64 virt)
{
	struct page *page;
	u64 phys = 0;

	if (!virt)
		return 0;
	if (virt >= TASK_SIZE) {
		if (virt_addr_valid((void *)(uintptr_t)virt) &&
		    !(virt >= VMALLOC_START && virt < VMALLOC_END))
			phys = __pa((void *)(uintptr_t)virt);
		return phys;
	}
	if (!current->mm)
		return 0;
	pagefault_disable();
	if (get_user_page_fast_only(virt, 0, &page)) {
		phys = page_to_phys(page) + offset_in_page(virt);
		put_page(page);
	}
	pagefault_enable();
	return phys;
}

/*
 * The size of the page that maps @addr, found by walking the page
 * tables without locks, interrupts off, as the fast GUP path does.
 * 0 if nothing maps it.
 */
static u64 perf_page_size(u64 addr)
{
	struct mm_struct *mm = addr >= TASK_SIZE ? &init_mm : current->mm;
	unsigned long flags;
	pgd_t *pgdp, pgd;
	p4d_t *p4dp, p4d;
	pud_t *pudp, pud;
	pmd_t *pmdp, pmd;
	pte_t *ptep, pte;
	u64 size = 0;

	if (!addr || !mm)
		return 0;

	local_irq_save(flags);
	pgdp = pgd_offset(mm, addr);
	pgd = READ_ONCE(*pgdp);
	if (pgd_none(pgd))
		goto out;
	p4dp = p4d_offset_lockless(pgdp, pgd, addr);
	p4d = READ_ONCE(*p4dp);
	if (!p4d_present(p4d))
		goto out;
	pudp = pud_offset_lockless(p4dp, p4d, addr);
	pud = READ_ONCE(*pudp);
	if (!pud_present(pud))
		goto out;
	if (pud_leaf(pud)) {
		size = PUD_SIZE;
		goto out;
	}
	pmdp = pmd_offset_lockless(pudp, pud, addr);
	pmd = READ_ONCE(*pmdp);
	if (!pmd_present(pmd))
		goto out;
	if (pmd_leaf(pmd)) {
		size = PMD_SIZE;
		goto out;
	}
	ptep = pte_offset_map(&pmd, addr);
	pte = ptep_get_lockless(ptep);
	if (pte_present(pte))
		size = PAGE_SIZE;
	pte_unmap(ptep);
out:
	local_irq_restore(flags);
	return size;
}

/* PERF_SAMPLE_STACK_USER: how much of the stack fits, in 8-byte words. */
static u64 perf_sample_stack_size(struct perf_event *event,
				  struct pt_regs *uregs, unsigned int header)
{
	u64 size = event->attr.sample_stack_user;
	unsigned long sp;

	if (!uregs)
		return 0;
	sp = user_stack_pointer(uregs);
	if (sp >= TASK_SIZE)
		return 0;
	size = min_t(u64, size, TASK_SIZE - sp);
	/* The record's size is a u16: the size and dyn_size words too. */
	if (header + 2 * sizeof(u64) + size > USHRT_MAX)
		size = header + 2 * sizeof(u64) < USHRT_MAX ?
		       USHRT_MAX - header - 2 * sizeof(u64) : 0;
	return round_down(size, sizeof(u64));
}

/*
 * The size of the PERF_SAMPLE_RAW field, the u32 size word included: the
 * pieces of the data are summed up into raw->size on the way.
 */
static unsigned int perf_sample_raw_size(struct perf_sample_data *data)
{
	struct perf_raw_record *raw = data->raw;
	struct perf_raw_frag *frag;
	u64 size = 0;

	if (raw) {
		for (frag = &raw->frag; frag; frag = frag->next)
			size += frag->size;
		raw->size = min_t(u64, size, U32_MAX - 2 * sizeof(u64));
		size = raw->size;
	}
	return round_up(size + sizeof(u32), sizeof(u64));
}

/* The sample's branch stack, or NULL where the PMU recorded none. */
static struct perf_branch_stack *perf_sample_brstack(struct perf_sample_data *data)
{
	if (!(data->sample_flags & PERF_SAMPLE_BRANCH_STACK))
		return NULL;
	return data->br_stack;
}

/*
 * The size of the PERF_SAMPLE_BRANCH_STACK field: the number of
 * branches, the hardware index where the event asks for it, and the
 * branches; only the number (0) where there are none.
 */
static unsigned int perf_sample_brstack_size(struct perf_event *event,
					     struct perf_sample_data *data)
{
	struct perf_branch_stack *brs = perf_sample_brstack(data);

	if (!brs)
		return sizeof(u64);
	return sizeof(u64) * (1 + branch_sample_hw_index(event)) +
	       brs->nr * sizeof(struct perf_branch_entry);
}

static void perf_output_brstack(struct perf_output_handle *handle,
				struct perf_event *event,
				struct perf_sample_data *data)
{
	struct perf_branch_stack *brs = perf_sample_brstack(data);
	u64 nr = brs ? brs->nr : 0;

	perf_output_put(handle, nr);
	if (!brs)
		return;
	if (branch_sample_hw_index(event))
		perf_output_put(handle, brs->hw_idx);
	perf_output_copy(handle, brs->entries,
			 nr * sizeof(struct perf_branch_entry));
}

static void perf_output_regs(struct perf_output_handle *handle,
			     struct perf_regs *regs, u64 mask)
{
	u64 value;
	int bit;

	perf_output_put(handle, regs->abi);
	if (!regs->regs)
		return;
	for_each_set_bit(bit, (const unsigned long *)&mask, 64) {
		value = perf_reg_value(regs->regs, bit);
		perf_output_put(handle, value);
	}
}

/*
 * Where a sample's user registers come from.  A sample of user mode has
 * them (a PEBS record of a user instruction too, though drained in the
 * kernel); one of the kernel, the task's from its entry into it; a
 * kernel thread has none (PERF_SAMPLE_REGS_ABI_NONE).
 */
static void perf_user_regs_of(struct perf_regs *out, struct pt_regs *regs)
{
	out->regs = NULL;
	out->abi = PERF_SAMPLE_REGS_ABI_NONE;
	if (!user_mode(regs)) {
		if (!(current->flags & PF_KTHREAD))
			perf_get_regs_user(out, regs);
		return;
	}
	out->abi = perf_reg_abi(current);
	out->regs = regs;
}

static unsigned int perf_regs_size(struct perf_regs *regs, u64 mask)
{
	return sizeof(u64) * (1 + (regs->regs ? hweight64(mask) : 0));
}

/*
 * First pass: fill in @data and return the record's size.  The header's
 * misc bits and type go to @header.
 */
static unsigned int perf_prepare_sample(struct perf_event_header *header,
					struct perf_sample_data *data,
					struct perf_event *event,
					struct pt_regs *regs)
{
	struct perf_event_attr *attr = &event->attr;
	u64 type = attr->sample_type;
	unsigned int size = sizeof(*header);
	u64 time;

	header->type = PERF_RECORD_SAMPLE;
	header->misc = perf_misc_flags(regs);

	if (data->sample_flags & PERF_SAMPLE_TIME) {
		time = data->time;
		perf_sample_id_prepare(data, event);
		data->time = time;
	} else {
		perf_sample_id_prepare(data, event);
	}
	size += hweight64(type & (PERF_SAMPLE_ID_ALL_FIELDS | PERF_SAMPLE_IP |
				  PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD)) *
		sizeof(u64);

	if (type & PERF_SAMPLE_IP)
		data->ip = perf_instruction_pointer(regs);
	if (type & PERF_SAMPLE_ADDR && !(data->sample_flags & PERF_SAMPLE_ADDR))
		data->addr = 0;
	if (type & PERF_SAMPLE_READ)
		size += perf_sample_read_size(event);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (!(data->sample_flags & PERF_SAMPLE_CALLCHAIN))
			data->callchain = perf_callchain(event, regs);
		size += sizeof(u64) * (1 + (data->callchain ?
					    data->callchain->nr : 0));
	}
	if (type & PERF_SAMPLE_RAW)
		size += perf_sample_raw_size(data);
	if (type & PERF_SAMPLE_BRANCH_STACK)
		size += perf_sample_brstack_size(event, data);
	if (type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))
		perf_user_regs_of(&data->regs_user, regs);
	if (type & PERF_SAMPLE_REGS_USER)
		size += perf_regs_size(&data->regs_user, attr->sample_regs_user);
	size += hweight64(type & (PERF_SAMPLE_WEIGHT_TYPE |
				  PERF_SAMPLE_DATA_SRC |
				  PERF_SAMPLE_TRANSACTION)) * sizeof(u64);
	if (type & PERF_SAMPLE_REGS_INTR) {
		data->regs_intr.regs = regs;
		data->regs_intr.abi = perf_reg_abi(current);
		size += perf_regs_size(&data->regs_intr, attr->sample_regs_intr);
	}
	if (type & PERF_SAMPLE_PHYS_ADDR) {
		if (!(data->sample_flags & PERF_SAMPLE_PHYS_ADDR))
			data->phys_addr = perf_virt_to_phys(data->addr);
		size += sizeof(u64);
	}
	if (type & PERF_SAMPLE_CGROUP) {
		data->cgroup = perf_cgroup_sample_id();
		size += sizeof(u64);
	}
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE) {
		if (!(data->sample_flags & PERF_SAMPLE_DATA_PAGE_SIZE))
			data->data_page_size = perf_page_size(data->addr);
		size += sizeof(u64);
	}
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE) {
		if (!(data->sample_flags & PERF_SAMPLE_CODE_PAGE_SIZE))
			data->code_page_size = perf_page_size(data->ip);
		size += sizeof(u64);
	}
	/* No AUX event to take a snapshot from: an AUX size of 0. */
	if (type & PERF_SAMPLE_AUX)
		size += sizeof(u64);
	/* Last: the stack gets what is left of the 64 KiB a record may be. */
	if (type & PERF_SAMPLE_STACK_USER) {
		data->stack_user_size =
			perf_sample_stack_size(event, data->regs_user.regs,
					       size);
		size += sizeof(u64);
		if (data->stack_user_size)
			size += data->stack_user_size + sizeof(u64);
	}
	return size;
}

static void perf_output_raw(struct perf_output_handle *handle,
			    struct perf_sample_data *data)
{
	u32 size = perf_sample_raw_size(data) - sizeof(u32);
	u32 len = data->raw ? data->raw->size : 0;
	struct perf_raw_frag *frag;
	u64 zero = 0;

	perf_output_put(handle, size);
	for (frag = len ? &data->raw->frag : NULL; frag; frag = frag->next)
		perf_output_copy_frag(handle, frag);
	if (size > len)
		perf_output_copy(handle, &zero, size - len);
}

static void perf_output_stack_user(struct perf_output_handle *handle,
				   struct perf_sample_data *data)
{
	u64 size = data->stack_user_size, dyn;
	unsigned long sp;

	perf_output_put(handle, size);
	if (!size)
		return;
	sp = user_stack_pointer(data->regs_user.regs);
	dyn = size - perf_output_copy_user(handle, (void __user *)sp, size);
	perf_output_put(handle, dyn);
}

/* Second pass: write the fields in their documented order. */
static void perf_output_sample(struct perf_output_handle *handle,
			       struct perf_event_header *header,
			       struct perf_sample_data *data,
			       struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	u64 type = attr->sample_type, zero = 0, value;

	perf_output_put(handle, *header);
	if (type & PERF_SAMPLE_IDENTIFIER)
		perf_output_put(handle, data->id);
	if (type & PERF_SAMPLE_IP)
		perf_output_put(handle, data->ip);
	if (type & PERF_SAMPLE_TID)
		perf_output_put(handle, data->tid_entry);
	if (type & PERF_SAMPLE_TIME)
		perf_output_put(handle, data->time);
	if (type & PERF_SAMPLE_ADDR)
		perf_output_put(handle, data->addr);
	if (type & PERF_SAMPLE_ID)
		perf_output_put(handle, data->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		perf_output_put(handle, data->stream_id);
	if (type & PERF_SAMPLE_CPU)
		perf_output_put(handle, data->cpu_entry);
	if (type & PERF_SAMPLE_PERIOD)
		perf_output_put(handle, data->period);
	if (type & PERF_SAMPLE_READ)
		perf_output_read(handle, event);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (data->callchain)
			perf_output_copy(handle, data->callchain,
					 sizeof(u64) * (1 + data->callchain->nr));
		else
			perf_output_put(handle, zero);
	}
	if (type & PERF_SAMPLE_RAW)
		perf_output_raw(handle, data);
	if (type & PERF_SAMPLE_BRANCH_STACK)
		perf_output_brstack(handle, event, data);
	if (type & PERF_SAMPLE_REGS_USER)
		perf_output_regs(handle, &data->regs_user,
				 attr->sample_regs_user);
	if (type & PERF_SAMPLE_STACK_USER)
		perf_output_stack_user(handle, data);
	/* What the PMU did not fill in: nothing known. */
	if (type & PERF_SAMPLE_WEIGHT_TYPE) {
		value = data->sample_flags & PERF_SAMPLE_WEIGHT_TYPE ?
			data->weight.full : 0;
		perf_output_put(handle, value);
	}
	if (type & PERF_SAMPLE_DATA_SRC) {
		value = data->sample_flags & PERF_SAMPLE_DATA_SRC ?
			data->data_src.val : PERF_MEM_NA;
		perf_output_put(handle, value);
	}
	if (type & PERF_SAMPLE_TRANSACTION) {
		value = data->sample_flags & PERF_SAMPLE_TRANSACTION ?
			data->txn : 0;
		perf_output_put(handle, value);
	}
	if (type & PERF_SAMPLE_REGS_INTR)
		perf_output_regs(handle, &data->regs_intr,
				 attr->sample_regs_intr);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		perf_output_put(handle, data->phys_addr);
	if (type & PERF_SAMPLE_CGROUP)
		perf_output_put(handle, data->cgroup);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		perf_output_put(handle, data->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		perf_output_put(handle, data->code_page_size);
	if (type & PERF_SAMPLE_AUX)
		perf_output_put(handle, zero);
}

/**
 * perf_event_output - write a PERF_RECORD_SAMPLE
 * @event: the event that overflowed, or whose buffer a BPF program
 *	writes to (bpf_perf_event_output())
 * @data: the sample the PMU (or BPF) started
 * @regs: the registers at the overflow
 *
 * Any context, NMI included.
 *
 * Return: 0; -ENOSPC if the event has no buffer or the record did not
 * fit (it is counted as lost); -E2BIG if it would be longer than a
 * record can be (64 KiB).
 */
int perf_event_output(struct perf_event *event,
		      struct perf_sample_data *data, struct pt_regs *regs)
{
	struct perf_output_handle handle;
	struct perf_event_header header;
	unsigned int size;
	int ret;

	size = perf_prepare_sample(&header, data, event, regs);
	if (size > USHRT_MAX)
		return -E2BIG;
	header.size = size;
	ret = perf_output_begin(&handle, data, event, size);
	if (ret)
		return ret;
	perf_output_sample(&handle, &header, data, event);
	perf_output_sample_done(&handle);
	perf_output_end(&handle);
	return 0;
}
