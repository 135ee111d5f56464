// SPDX-License-Identifier: GPL-2.0
/*
 * The debug store (Intel SDM vol. 3B, "Debug Store (DS) Mechanism"):
 * each CPU's save area, whose linear address IA32_DS_AREA holds, and the
 * PEBS buffer the processor writes records into.
 *
 * The processor writes both through the page tables of whatever runs,
 * user space included, so they live in the CPU entry area, which every
 * page table maps: the save area is the per-CPU cpu_debug_store that the
 * entry area maps at boot; a buffer is allocated when the first precise
 * event is created, for every possible CPU, mapped into the entry area's
 * slot for it, and unmapped and freed with the last such event.
 *
 * IA32_DS_AREA is written as each CPU comes up (and after resume:
 * perf_restore_debug_store()), whether or not a buffer exists: the save
 * area then describes an empty buffer, and nothing enables PEBS.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <asm/cpu_entry_area.h>
#include <linux/io.h>
#include <asm/tlbflush.h>

#include "pebs.h"

#define INTEL_DS_ORDER	get_order(PEBS_BUFFER_SIZE)

/* Each CPU's buffer pages while there are users; under intel_ds_mutex. */
static DEFINE_PER_CPU(struct page *, intel_ds_pages);

/* Serialises reserving and releasing the buffers (intel_pebs_hw.users). */
static DEFINE_MUTEX(intel_ds_mutex);

/**
 * intel_ds_area - this CPU's save area
 *
 * Return: the save area, at its address in the CPU entry area.
 */
struct debug_store *intel_ds_area(void)
{
	return &get_cpu_entry_area(smp_processor_id())->cpu_debug_store;
}

static void *intel_ds_buffer(int cpu)
{
	return get_cpu_entry_area(cpu)->cpu_debug_buffers.pebs_buffer;
}

static void intel_ds_unmap(int cpu)
{
	struct page *pages = per_cpu(intel_ds_pages, cpu);
	struct debug_store *ds = per_cpu_ptr(&cpu_debug_store, cpu);
	char *buf = intel_ds_buffer(cpu);
	size_t off;

	if (!pages)
		return;
	ds->pebs_buffer_base = 0;
	ds->pebs_index = 0;
	ds->pebs_absolute_maximum = 0;
	ds->pebs_interrupt_threshold = 0;
	for (off = 0; off < PEBS_BUFFER_SIZE; off += PAGE_SIZE)
		cea_set_pte(buf + off, 0, PAGE_NONE);
	flush_tlb_kernel_range((unsigned long)buf,
			       (unsigned long)buf + PEBS_BUFFER_SIZE);
	__free_pages(pages, INTEL_DS_ORDER);
	per_cpu(intel_ds_pages, cpu) = NULL;
}

static int intel_ds_map(int cpu)
{
	struct debug_store *ds = per_cpu_ptr(&cpu_debug_store, cpu);
	char *buf = intel_ds_buffer(cpu);
	phys_addr_t phys;
	struct page *pages;
	size_t off;

	pages = alloc_pages_node(cpu_to_node(cpu), GFP_KERNEL | __GFP_ZERO,
				 INTEL_DS_ORDER);
	if (!pages)
		return -ENOMEM;
	per_cpu(intel_ds_pages, cpu) = pages;
	phys = page_to_phys(pages);
	for (off = 0; off < PEBS_BUFFER_SIZE; off += PAGE_SIZE)
		cea_set_pte(buf + off, phys + off, PAGE_KERNEL);
	ds->pebs_buffer_base = (unsigned long)buf;
	ds->pebs_index = ds->pebs_buffer_base;
	/* Set for the records' size as the first event starts. */
	ds->pebs_absolute_maximum = ds->pebs_buffer_base;
	ds->pebs_interrupt_threshold = ds->pebs_buffer_base;
	return 0;
}

/**
 * intel_ds_reserve - a precise event is created: have the buffers
 *
 * Return: 0, or -ENOMEM (and no buffer anywhere) if a CPU's could not
 * be had.
 */
int intel_ds_reserve(void)
{
	int cpu, ret = 0;

	mutex_lock(&intel_ds_mutex);
	if (!intel_pebs_hw.users) {
		for_each_possible_cpu(cpu) {
			ret = intel_ds_map(cpu);
			if (ret)
				break;
		}
		if (ret) {
			for_each_possible_cpu(cpu)
				intel_ds_unmap(cpu);
		}
	}
	if (!ret)
		intel_pebs_hw.users++;
	mutex_unlock(&intel_ds_mutex);
	return ret;
}

/**
 * intel_ds_release - a precise event is freed: the buffers go with the
 *	last one, which no CPU's counters hold any more
 */
void intel_ds_release(void)
{
	int cpu;

	mutex_lock(&intel_ds_mutex);
	if (!--intel_pebs_hw.users) {
		for_each_possible_cpu(cpu)
			intel_ds_unmap(cpu);
	}
	mutex_unlock(&intel_ds_mutex);
}

/**
 * intel_ds_set_threshold - size this CPU's buffer for the records it is
 *	about to take
 * @size: the size of a record
 * @records: how many records may come before the buffer interrupt
 *	(at least one), counted from the buffer's start
 *
 * The absolute maximum leaves no room for a partial record.  The index
 * must be at the start (the buffer drained).
 */
void intel_ds_set_threshold(unsigned int size, unsigned int records)
{
	struct debug_store *ds = intel_ds_area();
	unsigned int max = PEBS_BUFFER_SIZE / size;

	if (!ds->pebs_buffer_base)
		return;
	ds->pebs_absolute_maximum = ds->pebs_buffer_base + max * size;
	ds->pebs_interrupt_threshold = ds->pebs_buffer_base +
				       min(records, max) * size;
}

/**
 * intel_ds_cpu_start - point this CPU's IA32_DS_AREA at its save area
 */
void intel_ds_cpu_start(void)
{
	if (intel_pebs_hw.model)
		wrmsrl(MSR_IA32_DS_AREA, (unsigned long)intel_ds_area());
}

/**
 * perf_restore_debug_store - give this CPU its IA32_DS_AREA after resume
 *
 * The MSR does not survive suspend; arch/x86/power/cpu.c calls this as
 * each CPU's state is restored.
 */
void perf_restore_debug_store(void)
{
	intel_ds_cpu_start();
}
