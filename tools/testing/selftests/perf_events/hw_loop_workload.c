// SPDX-License-Identifier: GPL-2.0
/*
 * The program perf_stat_hw_test.sh runs under Debian's perf, with a
 * known number of user instructions and branches:
 *
 *	hw_loop_workload loop N		N iterations of hw_loop(): four
 *					instructions, one of them a branch,
 *					an iteration
 *	hw_loop_workload two N		N rounds of hw_cold(), a thousand
 *					iterations of the same loop, and
 *					hw_hot(), three thousand
 *	hw_loop_workload walk N		N walks of hw_walk_array, twice
 *					the L2 cache's size (at most 8 MiB),
 *					a byte a line (perf_mem_test.sh);
 *					prints the array's address and the
 *					size walked first
 *	hw_loop_workload share N	two threads (on CPUs 0 and 1) take
 *					N turns to write each its own word
 *					of hw_shared_line, one 64-byte line,
 *					after reading the other's: false
 *					sharing (perf_c2c_test.sh); prints
 *					the line's address first
 *	hw_loop_workload emulated	exits 0 on the harness's emulated
 *					PMU, 1 elsewhere
 *
 * Whatever the program does besides is the same for any N of the same
 * number of digits, so that the difference of two counts is the loops'
 * alone.  Built with frame pointers and symbols for perf report.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "hw_emulated.h"

/* Four instructions, one branch, an iteration; @n must not be 0. */
#define LOOP(n)						\
	do {						\
		unsigned long __n = (n), __acc = 0;	\
							\
		asm volatile("1:\n\t"			\
			     "add $3, %1\n\t"		\
			     "nop\n\t"			\
			     "dec %0\n\t"		\
			     "jnz 1b\n\t"		\
			     : "+r" (__n), "+r" (__acc)	\
			     : : "cc");			\
	} while (0)

__attribute__((noinline)) void hw_loop(unsigned long n)
{
	LOOP(n);
}

__attribute__((noinline)) void hw_cold(void)
{
	LOOP(1000);
}

__attribute__((noinline)) void hw_hot(void)
{
	LOOP(3000);
}

/* The array hw_walk() loads from: a data symbol for perf mem report. */
char hw_walk_array[8 << 20] __attribute__((aligned(4096)));

/* The L2 cache's size in sysfs (as the tests read it), 0 if unknown. */
static size_t l2_size(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index2/size", "r");
	unsigned long kib = 0;

	if (f) {
		if (fscanf(f, "%luK", &kib) != 1)
			kib = 0;
		fclose(f);
	}
	return kib * 1024;
}

/* Load a byte of each 64-byte line of hw_walk_array's first @size bytes. */
__attribute__((noinline)) unsigned long hw_walk(size_t size)
{
	volatile char *p = hw_walk_array;
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < size; i += 64)
		sum += p[i];
	return sum;
}

/* Two words that two threads write, on one line. */
struct {
	volatile unsigned long mine, other;
} hw_shared_line __attribute__((aligned(64)));

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* may be one CPU */
}

/*
 * @n turns: wait for the other thread's word to be @lead behind the
 * turn (@lead 0: this thread goes first), then write the turn's number
 * to its own.  Each read that sees the other's write finds the line
 * modified in the other CPU's cache (a HITM), whatever the two threads'
 * speeds.
 */
__attribute__((noinline)) void hw_share(volatile unsigned long *mine,
					volatile unsigned long *theirs,
					unsigned long n, unsigned long lead)
{
	unsigned long i;

	for (i = 1; i <= n; i++) {
		while (*theirs != i - 1 + lead)
			;
		*mine = i;
	}
}

static void *other_thread(void *arg)
{
	pin(1);
	hw_share(&hw_shared_line.other, &hw_shared_line.mine,
		 *(unsigned long *)arg, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long n, i;
	pthread_t other;

	if (argc == 2 && !strcmp(argv[1], "emulated"))
		return !hw_emulated_pmu();
	if (argc != 3)
		goto usage;
	n = strtoul(argv[2], NULL, 10);
	if (!n)
		goto usage;
	if (!strcmp(argv[1], "loop")) {
		hw_loop(n);
		return 0;
	}
	if (!strcmp(argv[1], "walk")) {
		size_t size = sizeof(hw_walk_array), l2 = l2_size();

		if (l2 && 2 * l2 < size)
			size = 2 * l2;
		printf("hw_walk_array %p %zu\n", (void *)hw_walk_array, size);
		fflush(stdout);
		memset(hw_walk_array, 1, size);
		for (i = 0; i < n; i++)
			hw_walk(size);
		return 0;
	}
	if (!strcmp(argv[1], "share")) {
		printf("hw_shared_line %p\n", (void *)&hw_shared_line);
		fflush(stdout);
		pin(0);
		if (pthread_create(&other, NULL, other_thread, &n))
			return 1;
		hw_share(&hw_shared_line.mine, &hw_shared_line.other, n, 0);
		pthread_join(other, NULL);
		return 0;
	}
	if (!strcmp(argv[1], "two")) {
		for (i = 0; i < n; i++) {
			hw_cold();
			hw_hot();
		}
		return 0;
	}
usage:
	fprintf(stderr, "usage: %s loop|two|walk|share N, or %s emulated\n",
		argv[0], argv[0]);
	return 2;
}
