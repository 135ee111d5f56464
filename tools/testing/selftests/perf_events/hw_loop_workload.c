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
 *
 * Whatever the program does besides is the same for any N of the same
 * number of digits, so that the difference of two counts is the loops'
 * alone.  Built with frame pointers and symbols for perf report.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

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

int main(int argc, char **argv)
{
	unsigned long n, i;

	if (argc != 3)
		goto usage;
	n = strtoul(argv[2], NULL, 10);
	if (!n)
		goto usage;
	if (!strcmp(argv[1], "loop")) {
		hw_loop(n);
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
	fprintf(stderr, "usage: %s loop|two N\n", argv[0]);
	return 2;
}
