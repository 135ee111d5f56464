// SPDX-License-Identifier: GPL-2.0
/*
 * The workload perf_record_test.sh profiles with Debian's perf: plain
 * functions with recognisable names, built with frame pointers and
 * symbols so that perf report can name them and walk their callers.
 * It is built without optimisation, so each function keeps its frame.
 *
 *	perf_record_workload spin	burn CPU in rec_spin_inner(), called
 *					from rec_spin_outer()
 *	perf_record_workload faults	fault in fresh pages in
 *					rec_touch_pages(), after printing the
 *					range they lie in: "range START END"
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#define FAULT_PAGES	256

static unsigned long sink;

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void rec_spin_inner(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		sink += i * i;
		/* Keep the loop: it is the work. */
		asm volatile("" : : : "memory");
	}
}

void rec_spin_outer(double seconds)
{
	double end = cpu_seconds() + seconds;

	while (cpu_seconds() < end)
		rec_spin_inner(100000);
}

void rec_touch_pages(char *p, size_t pages, size_t psz)
{
	size_t i;

	for (i = 0; i < pages; i++)
		p[i * psz] = 1;
}

int main(int argc, char **argv)
{
	size_t psz = getpagesize();
	char *p;

	if (argc == 2 && !strcmp(argv[1], "spin")) {
		rec_spin_outer(0.5);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "faults")) {
		p = mmap(NULL, FAULT_PAGES * psz, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 1;
		printf("range %lx %lx\n", (unsigned long)p,
		       (unsigned long)(p + FAULT_PAGES * psz));
		fflush(stdout);
		rec_touch_pages(p, FAULT_PAGES, psz);
		return 0;
	}
	fprintf(stderr, "usage: %s spin|faults\n", argv[0]);
	return 2;
}
