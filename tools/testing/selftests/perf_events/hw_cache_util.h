/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests of the emulated caches share (hw_cache_test,
 * hw_mem_test): the caches' sizes from sysfs, and walks of an array a
 * line at a time, loading or storing a byte of each line, whose code
 * is known to hw_asm_loop.h's helpers.
 */
#ifndef HW_CACHE_UTIL_H
#define HW_CACHE_UTIL_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/types.h>

#include "hw_asm_loop.h"

#define LINE	64

/*
 * The function @name: @access a byte every rcx bytes of [rsi, rsi + rdx),
 * rdi times; @insn names that instruction and @name_end the function's
 * end.
 */
#define CACHE_WALK_ASM(name, insn, access)				\
	".globl " #name "\n"						\
	".type " #name ", @function\n"					\
	#name ":\n"							\
	"1:	mov %rsi, %rax\n"					\
	"	lea (%rsi,%rdx), %r9\n"				\
	".globl " #insn "\n"						\
	#insn ":\n"							\
	"2:	" access "\n"						\
	"	add %rcx, %rax\n"					\
	"	cmp %r9, %rax\n"					\
	"	jb 2b\n"						\
	"	dec %rdi\n"						\
	"	jnz 1b\n"						\
	"	ret\n"							\
	".globl " #name "_end\n"					\
	#name "_end:\n"						\
	".size " #name ", . - " #name "\n"

/* Load (cache_walk) or store (cache_store_walk) a byte each time. */
asm(".pushsection .text\n"
	CACHE_WALK_ASM(cache_walk, cache_walk_load, "movzbl (%rax), %r8d")
	CACHE_WALK_ASM(cache_store_walk, cache_walk_store, "movb $1, (%rax)")
	".popsection\n");

void cache_walk(unsigned long passes, void *array, size_t size,
		size_t stride);
void cache_store_walk(unsigned long passes, void *array, size_t size,
		      size_t stride);
extern const char cache_walk_load[], cache_walk_end[];
extern const char cache_walk_store[], cache_store_walk_end[];

/*
 * An array to walk, mapped and written by walk_init(), a line at a time
 * (or every @stride bytes).
 */
struct walk {
	char *array;
	size_t size, stride;
	struct hw_asm_loop loop;
};

static void walk_loads(unsigned long passes, void *arg)
{
	struct walk *w = arg;

	cache_walk(passes, w->array, w->size, w->stride);
}

static void __attribute__((unused)) walk_stores(unsigned long passes,
						void *arg)
{
	struct walk *w = arg;

	cache_store_walk(passes, w->array, w->size, w->stride);
}

/*
 * An array of @size bytes, every byte written, for hw_asm_loop.h's
 * helpers to walk with loads (or with @stores, stores).  0, or -1 if it
 * cannot be mapped.  The emulated caches find lines by physical address:
 * the array keeps its pages (no transparent huge page collapses them
 * between two walks).
 */
static int __attribute__((unused)) walk_init(struct walk *w, size_t size,
					     bool stores)
{
	w->size = size;
	w->stride = LINE;
	w->array = mmap(NULL, size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->array == MAP_FAILED)
		return -1;
	madvise(w->array, size, MADV_NOHUGEPAGE);	/* EINVAL without THP */
	memset(w->array, 1, size);
	w->loop.arg = w;
	w->loop.fn = stores ? walk_stores : walk_loads;
	w->loop.start = (uintptr_t)(stores ? cache_store_walk : cache_walk);
	w->loop.end = (uintptr_t)(stores ? cache_store_walk_end :
				  cache_walk_end);
	return 0;
}

static void __attribute__((unused)) walk_fini(struct walk *w)
{
	munmap(w->array, w->size);
}

/*
 * What counting event @fd counts across @passes walks of @w, into @n:
 * 0, or -1 if it cannot be read.
 */
static int __attribute__((unused)) walk_count(int fd, struct walk *w,
					      unsigned long passes, __u64 *n)
{
	__u64 before, after;

	if (read(fd, &before, sizeof(before)) != sizeof(before))
		return -1;
	cache_walk(passes, w->array, w->size, w->stride);
	if (read(fd, &after, sizeof(after)) != sizeof(after))
		return -1;
	*n = after - before;
	return 0;
}

/* The number in @file of cache index @index of CPU 0; 0 if unknown. */
static unsigned long cache_info(int index, const char *file)
{
	char path[96], buf[32];
	unsigned long n = 0;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu0/cache/index%d/%s", index, file);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f))
		n = strtoul(buf, NULL, 10);
	fclose(f);
	return n;
}

/* The size of cache index @index of CPU 0, in bytes; 0 if unknown. */
static size_t __attribute__((unused)) cache_size(int index)
{
	return cache_info(index, "size") * 1024;	/* "32K" */
}

/*
 * How many of @w's lines stay in cache index @index (a physically
 * indexed, set associative cache, LRU) from one walk to the next: those
 * in the sets that no more of them share than it has ways (the others
 * are evicted every walk).  Which sets a line falls in depends on the
 * physical pages the array got, read from /proc/self/pagemap.  -1 where
 * the frames cannot be read (no pagemap, or not privileged).
 */
static long __attribute__((unused)) walk_lines_kept(const struct walk *w,
						    int index)
{
	unsigned long sets = cache_info(index, "number_of_sets");
	unsigned long ways = cache_info(index, "ways_of_associativity");
	size_t page = getpagesize(), off;
	unsigned int *per_set;
	long kept = 0;
	__u64 entry;
	int fd;

	if (!sets || !ways)
		return -1;
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		return -1;
	per_set = calloc(sets, sizeof(*per_set));
	for (off = 0; per_set && off < w->size; off += page) {
		uintptr_t va = (uintptr_t)w->array + off;
		__u64 pfn, line;
		size_t l;

		if (pread(fd, &entry, sizeof(entry),
			  va / page * sizeof(entry)) != sizeof(entry))
			break;
		pfn = entry & ((1ULL << 55) - 1);	/* bits 54:0 */
		if (!(entry >> 63) || !pfn)		/* not present, or hidden */
			break;
		line = pfn * (page / LINE);
		for (l = 0; l < page; l += w->stride)
			per_set[(line + l / LINE) % sets]++;
	}
	close(fd);
	if (!per_set || off < w->size) {
		free(per_set);
		return -1;
	}
	for (off = 0; off < sets; off++)
		if (per_set[off] <= ways)
			kept += per_set[off];
	free(per_set);
	return kept;
}

#endif
