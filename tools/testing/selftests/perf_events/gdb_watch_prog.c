// SPDX-License-Identifier: GPL-2.0
/*
 * A program for gdb_watch_test.sh to watch: it adds one to a global
 * counter N times (argv[1], default 3), sleeping 100 ms before each
 * increment if a second argument is given, so that gdb can attach to it
 * while it runs.  Built without optimisation: each increment is a store.
 */
#include <stdlib.h>
#include <time.h>

int counter;

int main(int argc, char **argv)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	int i, n = argc > 1 ? atoi(argv[1]) : 3;

	for (i = 0; i < n; i++) {
		if (argc > 2)
			nanosleep(&pause, NULL);
		counter = counter + 1;
	}
	return 0;
}
