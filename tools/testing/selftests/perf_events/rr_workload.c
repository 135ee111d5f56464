// SPDX-License-Identifier: GPL-2.0
/*
 * The program rr_test.sh records and replays: what it prints depends on
 * exactly where asynchronous events fell, so a replay that reproduces
 * its output put each of them at the same instruction.
 *
 *	rr_workload N
 *
 * It loops up to N times, folding into a hash the iteration at which
 * each SIGALRM of a 10 ms interval timer arrives, and stops after 10 of
 * them; then two threads each run a loop of conditional branches, which
 * rr schedules by counting them.  Prints the signals, the iterations,
 * the hash and the threads' results.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#define MAX_SIGNALS	10

static volatile unsigned long iteration;
static volatile unsigned long hash = 5381;
static volatile int signals;

static void on_alarm(int sig)
{
	hash = hash * 33 + iteration;
	signals++;
}

/* A loop of data-dependent conditional branches. */
static void *spin(void *arg)
{
	unsigned long n = (unsigned long)arg, h = 1, i;

	for (i = 0; i < n; i++) {
		if (h & 1)
			h = h * 3 + 1;
		else
			h >>= 1;
		h += i;
	}
	return (void *)h;
}

int main(int argc, char **argv)
{
	struct itimerval tick = { { 0, 10000 }, { 0, 10000 } };
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000000;
	pthread_t thread[2];
	void *result[2];
	int i;

	signal(SIGALRM, on_alarm);
	if (setitimer(ITIMER_REAL, &tick, NULL))
		return 1;
	for (iteration = 0; iteration < n && signals < MAX_SIGNALS;
	     iteration++)
		hash ^= iteration << (iteration & 7);
	tick.it_value.tv_usec = 0;
	tick.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &tick, NULL);

	for (i = 0; i < 2; i++)
		if (pthread_create(&thread[i], NULL, spin,
				   (void *)(100000UL * (i + 2))))
			return 1;
	for (i = 0; i < 2; i++)
		pthread_join(thread[i], &result[i]);
	printf("signals %d iterations %lu hash %lx threads %lx %lx\n",
	       signals, iteration, hash, (unsigned long)result[0],
	       (unsigned long)result[1]);
	return 0;
}
