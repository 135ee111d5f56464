/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the selftests of overflow notification by signal: an
 * event's file set for O_ASYNC to its owner with the F_SETSIG signal of
 * our choice, and the signals taken while blocked, one by one.
 *
 * Include this after "perf_test_util.h".
 */
#ifndef PERF_SIGNAL_UTIL_H
#define PERF_SIGNAL_UTIL_H

#include <fcntl.h>
#include <signal.h>
#include <time.h>

#include "perf_test_util.h"

/* Block @sig, so that it waits for sigtimedwait(). */
static inline int block_signal(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	return sigprocmask(SIG_BLOCK, &set, NULL);
}

/* Wait up to @secs for the blocked @sig: what sigtimedwait() returns. */
static inline int wait_signal(int sig, siginfo_t *si, int secs)
{
	struct timespec wait = { .tv_sec = secs };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	return sigtimedwait(&set, si, &wait);
}

/* Have the event signal its owner on each overflow (O_ASYNC). */
static inline int set_async(int fd)
{
	return fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC);
}

/* Route the event's SIGIO to us as @sig, which is blocked. */
static inline int async_to_self(int fd, int sig)
{
	if (block_signal(sig) || fcntl(fd, F_SETOWN, getpid()) ||
	    fcntl(fd, F_SETSIG, sig) || set_async(fd))
		return -1;
	return 0;
}

/*
 * Take the queued @sig signals: their si_codes, up to @max; those whose
 * si_fd is not @fd are counted in @bad_fd.  Return how many there were.
 */
static inline int take_signals(int sig, int fd, int *codes, int max,
			       int *bad_fd)
{
	siginfo_t si;
	int n = 0;

	while (wait_signal(sig, &si, 0) == sig) {
		if (si.si_fd != fd)
			(*bad_fd)++;
		if (n < max)
			codes[n] = si.si_code;
		n++;
	}
	return n;
}

#endif /* PERF_SIGNAL_UTIL_H */
