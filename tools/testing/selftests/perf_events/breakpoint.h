/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the breakpoint selftests: PERF_TYPE_BREAKPOINT attributes
 * and some memory and code to watch.  Include after perf_test_util.h.
 */
#ifndef PERF_BREAKPOINT_H
#define PERF_BREAKPOINT_H

#include <sys/ioctl.h>
#include <linux/hw_breakpoint.h>

/* Somewhere in the kernel half of the address space. */
#define KERNEL_ADDR	0xffffffff81000000ULL

/*
 * Words to watch, 64 bytes apart so that a breakpoint on one never sees
 * an access to another.  The accesses are relaxed atomics: each access
 * in the source is one access by the CPU.
 */
struct bp_word {
	__u64 v;
	__u64 pad[7];
};

/* A user-space breakpoint event (exclude_kernel), counting every hit. */
static inline void bp_attr_init(struct perf_event_attr *attr,
				const void *addr, __u64 len,
				__u32 type)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->size = sizeof(*attr);
	attr->bp_addr = (unsigned long)addr;
	attr->bp_len = len;
	attr->bp_type = type;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

static inline int bp_open(const void *addr, __u64 len, __u32 type,
			  pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	bp_attr_init(&attr, addr, len, type);
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/* The count of a breakpoint event, or ~0 if it cannot be read. */
static inline __u64 bp_count(int fd)
{
	__u64 value;

	return read_value(fd, &value) ? ~0ULL : value;
}

/* Write @word @n times, or read it @n times. */
static inline void bp_write(struct bp_word *word, int n)
{
	while (n-- > 0)
		__atomic_store_n(&word->v, n, __ATOMIC_RELAXED);
}

static inline void bp_read(struct bp_word *word, int n)
{
	while (n-- > 0)
		(void)__atomic_load_n(&word->v, __ATOMIC_RELAXED);
}

/* One byte, two bytes. */
static inline void bp_write8(void *addr)
{
	__atomic_store_n((__u8 *)addr, 1, __ATOMIC_RELAXED);
}

static inline void bp_write16(void *addr)
{
	__atomic_store_n((__u16 *)addr, 1, __ATOMIC_RELAXED);
}

/*
 * Code to watch with an execute breakpoint, called through a pointer
 * the compiler cannot see through: each call runs it once.
 */
void bp_code(void)
{
	asm volatile("" ::: "memory");
}

static inline void bp_run(int n)
{
	void (*fn)(void) = bp_code;

	while (n-- > 0) {
		asm volatile("" : "+r" (fn));
		fn();
	}
}

/* The errno of an open that must fail (closing it if it did not), or 0. */
static inline int bp_open_errno(struct perf_event_attr *attr, pid_t pid,
				int cpu)
{
	return perf_open_errno(attr, pid, cpu);
}

#endif /* PERF_BREAKPOINT_H */
