// SPDX-License-Identifier: GPL-2.0
/*
 * What happens when a sampling event overflows: how often it does, and
 * how user space hears of it.
 *
 *  - A page-fault event with period N overflows once every N faults;
 *    cpu-clock and task-clock with a period of N ns overflow at most
 *    every N ns of the time they count, and with a frequency use the
 *    period 1e9/freq (and say so in PERF_SAMPLE_PERIOD); a page-fault event with a
 *    frequency has its period raised to match.  A frequency above
 *    perf_event_max_sample_rate is EINVAL, at open and in IOC_PERIOD.
 *  - PERF_EVENT_IOC_PERIOD takes effect at once; 0, a period with bit 63,
 *    a counting event are EINVAL; a bad pointer EFAULT, on any event.
 *  - PERF_EVENT_IOC_REFRESH(n) enables the event for exactly n overflows,
 *    each signalled POLL_IN but the last, POLL_HUP, then disables it;
 *    EINVAL for inherited or counting events.
 *  - Readers are woken every wakeup_events samples, or when
 *    wakeup_watermark bytes were written: poll() and epoll report POLLIN
 *    once per wakeup, and a blocked poll() returns.
 *  - O_ASYNC sends the F_SETSIG signal with si_code POLL_IN and si_fd on
 *    each overflow, to the F_SETOWN(_EX) owner, also for overflows of
 *    inherited copies of the event.
 *  - attr.sigtrap sends SIGTRAP to the thread that overflowed, with
 *    si_code TRAP_PERF, si_addr the sample's address, and the event's
 *    sig_data and type.
 *  - Throttling: with perf_event_max_sample_rate lowered, a cpu-clock
 *    event sampling every 10 us is throttled and unthrottled, with
 *    PERF_RECORD_THROTTLE and PERF_RECORD_UNTHROTTLE in its buffer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "perf_signal_util.h"
#include "../kselftest_harness.h"

#define MAX_RATE	SYSCTL_PATH("perf_event_max_sample_rate")
#define CPU_PERCENT	SYSCTL_PATH("perf_cpu_time_max_percent")

/* A page-fault event sampling ADDR every @period faults, disabled. */
static void pf_attr(struct perf_event_attr *attr, __u64 period)
{
	sample_attr_init(attr, PERF_COUNT_SW_PAGE_FAULTS, period,
			 PERF_SAMPLE_ADDR);
	attr->disabled = 1;
}

/* Open @attr on the caller, map @pages data pages (if any). */
static int open_mapped(struct perf_event_attr *attr, struct ring *r,
		       size_t pages)
{
	int fd = sample_open(attr);

	if (fd < 0 || !r)
		return fd;
	if (ring_map(r, fd, pages)) {
		close(fd);
		return -1;
	}
	ring_prefault(r);
	return fd;
}

static int count_samples(struct ring *r, struct record_counts *c)
{
	memset(c, 0, sizeof(*c));
	return ring_drain(r, count_record, c) < 0 ? -1 :
	       c->type[PERF_RECORD_SAMPLE];
}

TEST(page_fault_period)
{
	struct perf_event_attr attr;
	struct record_counts c;
	struct ring r;
	__u64 count;
	int fd;

	pf_attr(&attr, 10);
	fd = open_mapped(&attr, &r, 8);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fault_enabled(fd, 205));
	ASSERT_EQ(0, read_value(fd, &count));
	EXPECT_LE(205, count);
	EXPECT_EQ(count / 10, count_samples(&r, &c));
	ring_unmap(&r);
	close(fd);
}

struct clock_samples {
	int nr;
	int bad_period;
	__u64 period;
	__u64 alt_period;	/* also accepted, if not 0 */
	__u64 seen;		/* the last period that was neither */
};

static int check_clock_sample(struct perf_event_header *h, void *arg)
{
	struct clock_samples *cs = arg;
	__u64 period;

	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	cs->nr++;
	/* TID, PERIOD */
	period = ((__u64 *)(h + 1))[1];
	if (period != cs->period &&
	    (!cs->alt_period || period != cs->alt_period)) {
		cs->bad_period++;
		cs->seen = period;
	}
	return 0;
}

/*
 * A clock sampling every @period ns (or @freq times a second) while we
 * spin for @spin_ns of CPU time.  Each sample must say @want_period.
 *
 * The timer cannot expire more often than once a period of wall time,
 * which bounds the number of samples from above.  From below there is
 * little to count on: under emulation on a loaded host the guest's clock
 * jumps, and a timer that missed several periods fires once.
 */
static void clock_run(struct __test_metadata *_metadata, __u64 config,
		      __u64 period, __u64 freq, __u64 want_period,
		      __u64 spin_ns)
{
	struct perf_event_attr attr;
	struct clock_samples cs = { .period = want_period };
	__u64 start, wall;
	struct ring r;
	int fd;

	sample_attr_init(&attr, config, period,
			 PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD);
	if (freq) {
		attr.freq = 1;
		attr.sample_freq = freq;
	}
	attr.disabled = 1;
	fd = open_mapped(&attr, &r, 16);
	ASSERT_LE(0, fd);
	start = clock_ns(CLOCK_MONOTONIC);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin_cpu_ns(spin_ns);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	wall = clock_ns(CLOCK_MONOTONIC) - start;
	EXPECT_LE(0, ring_drain(&r, check_clock_sample, &cs));
	EXPECT_EQ(0, cs.bad_period) TH_LOG("period %llu",
					   (unsigned long long)cs.seen);
	EXPECT_LE(3, cs.nr);
	EXPECT_GE(wall / want_period + 1, cs.nr) TH_LOG("%llu ns",
							(unsigned long long)wall);
	ring_unmap(&r);
	close(fd);
}

/* 100 ms of CPU time at 1 ms a sample: up to 100 samples. */
TEST(cpu_clock_period)
{
	clock_run(_metadata, PERF_COUNT_SW_CPU_CLOCK, 1000000, 0, 1000000,
		  100 * NSEC_PER_MSEC);
}

TEST(task_clock_period)
{
	clock_run(_metadata, PERF_COUNT_SW_TASK_CLOCK, 1000000, 0, 1000000,
		  100 * NSEC_PER_MSEC);
}

/* A clock's frequency is a fixed period: 1e9 / freq ns. */
TEST(cpu_clock_freq)
{
	clock_run(_metadata, PERF_COUNT_SW_CPU_CLOCK, 0, 1000, 1000000,
		  100 * NSEC_PER_MSEC);
}

TEST(task_clock_freq)
{
	clock_run(_metadata, PERF_COUNT_SW_TASK_CLOCK, 0, 2000, 500000,
		  50 * NSEC_PER_MSEC);
}

TEST(freq_above_max_rate)
{
	struct perf_event_attr attr;
	int rate, fd;

	ASSERT_EQ(0, read_int_file(MAX_RATE, &rate));
	sample_attr_init(&attr, PERF_COUNT_SW_CPU_CLOCK, 0, PERF_SAMPLE_IP);
	attr.freq = 1;
	attr.sample_freq = rate + 1;
	EXPECT_EQ(-1, sample_open(&attr));
	EXPECT_EQ(EINVAL, errno);
	attr.sample_freq = rate;
	fd = sample_open(&attr);
	EXPECT_LE(0, fd);
	close(fd);
}

/* Faults at a frequency: the period grows until they come at that rate. */
TEST(page_fault_freq)
{
	struct perf_event_attr attr;
	struct samples *ss;
	struct ring r;
	__u64 count;
	int fd, i;

	ss = calloc(1, sizeof(*ss));
	ASSERT_NE(NULL, ss);
	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 0,
			 PERF_SAMPLE_PERIOD);
	attr.freq = 1;
	attr.sample_freq = 100;
	attr.disabled = 1;
	samples_init(ss, &attr, 1);
	fd = open_mapped(&attr, &r, 64);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 30; i++) {
		ASSERT_EQ(0, fault_fresh_pages(100));
		sleep_ms(1);
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_value(fd, &count));
	ASSERT_EQ(0, ring_collect(&r, ss));
	EXPECT_LE(3000, count);
	EXPECT_LT(0, ss->nr);
	EXPECT_GT(count / 2, ss->nr);
	/* The periods the samples stand for add up to about the count. */
	ASSERT_LT(0, ss->kept);
	EXPECT_LT(1, ss->s[ss->kept - 1].period);
	samples_free(ss);
	free(ss);
	ring_unmap(&r);
	close(fd);
}

/*
 * IOC_PERIOD on a clock: from never in the test to every millisecond.
 * The samples then come every millisecond; their PERIOD says so here,
 * while 6.1 goes on saying the period the event was opened with (the
 * clock's last_period is never updated there).  Both are accepted.
 */
TEST(period_ioctl_clock)
{
	struct perf_event_attr attr;
	struct clock_samples cs = {
		.period = 1000000,
		.alt_period = 10000000000ULL,
	};
	struct record_counts c;
	__u64 period = 1000000;
	struct ring r;
	int fd;

	sample_attr_init(&attr, PERF_COUNT_SW_CPU_CLOCK, 10000000000ULL,
			 PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD);
	fd = open_mapped(&attr, &r, 16);
	ASSERT_LE(0, fd);
	spin_cpu_ns(50 * NSEC_PER_MSEC);
	EXPECT_EQ(0, count_samples(&r, &c));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	spin_cpu_ns(50 * NSEC_PER_MSEC);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_LE(0, ring_drain(&r, check_clock_sample, &cs));
	EXPECT_LE(3, cs.nr);
	EXPECT_EQ(0, cs.bad_period) TH_LOG("period %llu",
					   (unsigned long long)cs.seen);
	ring_unmap(&r);
	close(fd);
}

/* IOC_PERIOD on page faults: from a huge period to every fault. */
TEST(period_ioctl_faults)
{
	struct perf_event_attr attr;
	struct record_counts c;
	__u64 period = 1;
	struct ring r;
	int fd;

	pf_attr(&attr, 1000000000);
	fd = open_mapped(&attr, &r, 8);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, fault_fresh_pages(20));
	EXPECT_EQ(0, count_samples(&r, &c));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	ASSERT_EQ(0, fault_fresh_pages(20));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_LE(20, count_samples(&r, &c));
	ring_unmap(&r);
	close(fd);
}

TEST(period_ioctl_errors)
{
	struct perf_event_attr attr;
	__u64 value;
	int fd, rate;

	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 100,
			 PERF_SAMPLE_IP);
	fd = sample_open(&attr);
	ASSERT_LE(0, fd);
	value = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &value));
	EXPECT_EQ(EINVAL, errno);
	value = 1ULL << 63;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &value));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	value = 50;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &value));
	close(fd);

	/* A counting event has no period to change. */
	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, 0, -1);
	ASSERT_LE(0, fd);
	value = 50;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &value));
	EXPECT_EQ(EINVAL, errno);
	/* The value is read first. */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, NULL));
	EXPECT_EQ(EFAULT, errno);
	close(fd);

	/* A frequency: no higher than the maximum rate. */
	ASSERT_EQ(0, read_int_file(MAX_RATE, &rate));
	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 0, PERF_SAMPLE_IP);
	attr.freq = 1;
	attr.sample_freq = 10;
	fd = sample_open(&attr);
	ASSERT_LE(0, fd);
	value = rate + 1;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &value));
	EXPECT_EQ(EINVAL, errno);
	value = rate;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &value));
	close(fd);
}

/* REFRESH(3): three overflows, POLL_IN, POLL_IN, POLL_HUP; then off. */
TEST(refresh)
{
	struct perf_event_attr attr;
	struct record_counts c;
	int fd, n, codes[8], bad_fd = 0;
	int sig = SIGRTMIN + 1;
	struct ring r;
	__u64 count, count2;

	pf_attr(&attr, 1);
	fd = open_mapped(&attr, &r, 8);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, async_to_self(fd, sig));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	ASSERT_EQ(0, fault_fresh_pages(20));
	EXPECT_EQ(3, count_samples(&r, &c));
	ASSERT_EQ(0, read_value(fd, &count));
	EXPECT_LE(3, count);
	EXPECT_GT(10, count);
	n = take_signals(sig, fd, codes, 8, &bad_fd);
	ASSERT_EQ(3, n);
	EXPECT_EQ(POLL_IN, codes[0]);
	EXPECT_EQ(POLL_IN, codes[1]);
	EXPECT_EQ(POLL_HUP, codes[2]);
	EXPECT_EQ(0, bad_fd);

	/* Disabled: nothing more counted. */
	ASSERT_EQ(0, fault_fresh_pages(20));
	ASSERT_EQ(0, read_value(fd, &count2));
	EXPECT_EQ(count, count2);
	EXPECT_EQ(0, count_samples(&r, &c));

	/* A new refresh enables it again for as many. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	ASSERT_EQ(0, fault_fresh_pages(20));
	EXPECT_EQ(2, count_samples(&r, &c));
	n = take_signals(sig, fd, codes, 8, &bad_fd);
	ASSERT_EQ(2, n);
	EXPECT_EQ(POLL_IN, codes[0]);
	EXPECT_EQ(POLL_HUP, codes[1]);
	ring_unmap(&r);
	close(fd);
}

TEST(refresh_errors)
{
	struct perf_event_attr attr;
	int fd;

	/* Inherited: the copies would each count their own. */
	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	attr.inherit = 1;
	attr.disabled = 1;
	fd = sample_open(&attr);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, true, 0, -1);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* poll() with no wait: the revents. */
static short poll_now(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1 ? pfd.revents : 0;
}

/*
 * Touch fresh pages one at a time (16-byte samples) until poll() says
 * POLLIN; store the bytes written before the last poll that did not and
 * at the one that did.
 */
static int poll_until_in(int fd, struct ring *r, char *pages, int max,
			 __u64 *before, __u64 *at)
{
	int i;

	*before = ring_head(r);
	for (i = 0; i < max; i++) {
		touch_pages(pages + i * page_size(), 1);
		if (poll_now(fd) & POLLIN) {
			*at = ring_head(r);
			return i + 1;
		}
		*before = ring_head(r);
	}
	return -1;
}

TEST(wakeup_events)
{
	struct perf_event_attr attr;
	__u64 before, at;
	struct ring r;
	char *pages;
	int fd;

	pages = map_fresh_pages(40);
	ASSERT_NE(NULL, pages);
	pf_attr(&attr, 1);
	attr.wakeup_events = 5;
	fd = open_mapped(&attr, &r, 8);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, poll_now(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));

	/* The 5th sample wakes, and the 10th. */
	ASSERT_LT(0, poll_until_in(fd, &r, pages, 20, &before, &at));
	EXPECT_GT(5 * 16, before);
	EXPECT_LE(5 * 16, at);
	EXPECT_EQ(0, poll_now(fd));
	ASSERT_LT(0, poll_until_in(fd, &r, pages + 20 * page_size(), 20,
				   &before, &at));
	EXPECT_GT(10 * 16, before);
	EXPECT_LE(10 * 16, at);
	ring_unmap(&r);
	close(fd);
	munmap(pages, 40 * page_size());
}

TEST(wakeup_watermark)
{
	struct perf_event_attr attr;
	__u64 before, at;
	struct ring r;
	char *pages;
	int fd;

	pages = map_fresh_pages(40);
	ASSERT_NE(NULL, pages);
	pf_attr(&attr, 1);
	attr.watermark = 1;
	attr.wakeup_watermark = 256;
	fd = open_mapped(&attr, &r, 8);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));

	/* Woken by the record that takes it past 256 bytes. */
	ASSERT_LT(0, poll_until_in(fd, &r, pages, 40, &before, &at));
	EXPECT_GE(256, before);
	EXPECT_LT(256, at);
	ring_unmap(&r);
	close(fd);
	munmap(pages, 40 * page_size());
}

TEST(epoll_wakeup)
{
	struct perf_event_attr attr;
	struct epoll_event ev = { .events = EPOLLIN };
	struct ring r;
	int fd, ep;

	pf_attr(&attr, 1);
	attr.wakeup_events = 1;
	fd = open_mapped(&attr, &r, 8);
	ASSERT_LE(0, fd);
	ep = epoll_create1(0);
	ASSERT_LE(0, ep);
	ev.data.fd = fd;
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	EXPECT_EQ(0, epoll_wait(ep, &ev, 1, 0));

	ASSERT_EQ(0, fault_enabled(fd, 1));
	ASSERT_EQ(1, epoll_wait(ep, &ev, 1, 1000));
	EXPECT_EQ(fd, ev.data.fd);
	EXPECT_TRUE(ev.events & EPOLLIN);
	close(ep);
	ring_unmap(&r);
	close(fd);
}

struct poller {
	int fd;
	short revents;
	int ret;
};

static void *poll_thread(void *arg)
{
	struct poller *p = arg;
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };

	p->ret = poll(&pfd, 1, 10000);
	p->revents = pfd.revents;
	return NULL;
}

/* A poll() waiting for the buffer returns when the wakeup comes. */
TEST(poll_blocks_until_wakeup)
{
	struct perf_event_attr attr;
	struct poller p = { 0 };
	pthread_t thread;
	struct ring r;
	__u64 start;
	int fd;

	pf_attr(&attr, 1);
	attr.wakeup_events = 1;
	fd = open_mapped(&attr, &r, 8);
	ASSERT_LE(0, fd);
	p.fd = fd;
	start = clock_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, pthread_create(&thread, NULL, poll_thread, &p));
	sleep_ms(50);
	ASSERT_EQ(0, fault_enabled(fd, 1));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(1, p.ret);
	EXPECT_TRUE(p.revents & POLLIN);
	EXPECT_GT(5000 * NSEC_PER_MSEC, clock_ns(CLOCK_MONOTONIC) - start);
	ring_unmap(&r);
	close(fd);
}

/* O_ASYNC with F_SETSIG: each overflow sends the signal with POLL_IN. */
TEST(sigio_setsig)
{
	struct perf_event_attr attr;
	siginfo_t si;
	int fd, n, codes[64], bad_fd = 0, i;

	pf_attr(&attr, 1);
	fd = sample_open(&attr);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, async_to_self(fd, SIGIO));
	ASSERT_EQ(0, fault_enabled(fd, 1));
	ASSERT_EQ(SIGIO, wait_signal(SIGIO, &si, 1));
	EXPECT_EQ(POLL_IN, si.si_code);
	EXPECT_EQ(fd, si.si_fd);
	EXPECT_TRUE(si.si_band & POLLIN);
	close(fd);

	/* A real-time signal queues one per overflow. */
	fd = sample_open(&attr);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, async_to_self(fd, SIGRTMIN + 2));
	ASSERT_EQ(0, fault_enabled(fd, 10));
	n = take_signals(SIGRTMIN + 2, fd, codes, 64, &bad_fd);
	EXPECT_LE(10, n);
	for (i = 0; i < n && i < 64; i++)
		EXPECT_EQ(POLL_IN, codes[i]);
	EXPECT_EQ(0, bad_fd);
	close(fd);
}

/* Without F_SETSIG: a plain SIGIO. */
TEST(sigio_plain)
{
	struct perf_event_attr attr;
	siginfo_t si;
	int fd;

	pf_attr(&attr, 1);
	fd = sample_open(&attr);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, block_signal(SIGIO));
	ASSERT_EQ(0, fcntl(fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, set_async(fd));
	ASSERT_EQ(0, fault_enabled(fd, 1));
	ASSERT_EQ(SIGIO, wait_signal(SIGIO, &si, 1));
	EXPECT_EQ(SI_KERNEL, si.si_code);
	close(fd);
}

struct tid_waiter {
	int fd;
	int sig;
	pid_t tid;
	int got;
	sem_t ready;
};

/* F_SETOWN_EX to a thread: the signal goes to that thread. */
static void *owner_thread(void *arg)
{
	struct tid_waiter *w = arg;
	siginfo_t si;
	sigset_t set;

	w->tid = gettid();
	sigemptyset(&set);
	sigaddset(&set, w->sig);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	sem_post(&w->ready);
	if (wait_signal(w->sig, &si, 5) == w->sig && si.si_fd == w->fd)
		w->got = 1;
	return NULL;
}

TEST(sigio_owner_thread)
{
	struct perf_event_attr attr;
	struct f_owner_ex owner;
	struct tid_waiter w = { 0 };
	pthread_t thread;
	int fd;

	w.sig = SIGRTMIN + 3;
	ASSERT_EQ(0, block_signal(w.sig));
	sem_init(&w.ready, 0, 0);

	pf_attr(&attr, 1);
	fd = sample_open(&attr);
	ASSERT_LE(0, fd);
	w.fd = fd;
	ASSERT_EQ(0, pthread_create(&thread, NULL, owner_thread, &w));
	sem_wait(&w.ready);
	owner.type = F_OWNER_TID;
	owner.pid = w.tid;
	ASSERT_EQ(0, fcntl(fd, F_SETOWN_EX, &owner));
	ASSERT_EQ(0, fcntl(fd, F_SETSIG, w.sig));
	ASSERT_EQ(0, set_async(fd));
	ASSERT_EQ(0, fault_enabled(fd, 1));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(1, w.got);
	close(fd);
}

/*
 * An inherited copy's overflows signal the original's owner: a child
 * faulting 20 pages brings more signals than the parent, waiting, could.
 */
TEST(sigio_from_inherited_child)
{
	struct perf_event_attr attr;
	int fd, status, n, codes[64], bad_fd = 0, sig = SIGRTMIN + 4;
	pid_t pid;

	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	attr.inherit = 1;
	fd = sample_open(&attr);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, async_to_self(fd, sig));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(fault_fresh_pages(20) ? 1 : 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, status);
	n = take_signals(sig, fd, codes, 64, &bad_fd);
	EXPECT_LE(20, n);
	EXPECT_EQ(0, bad_fd);
	close(fd);
}

/* What the SIGTRAP handler saw. */
#define MAX_TRAPS	16

static struct {
	int nr;
	int code[MAX_TRAPS];
	int errno_[MAX_TRAPS];
	__u64 addr[MAX_TRAPS];
	__u64 data[MAX_TRAPS];
	__u32 type[MAX_TRAPS];
} traps;

static char trap_stack[65536];

static void on_sigtrap(int sig, siginfo_t *si, void *uc)
{
	int n = traps.nr++;

	if (n >= MAX_TRAPS)
		return;
	traps.code[n] = si->si_code;
	traps.errno_[n] = si->si_errno;
	traps.addr[n] = (uintptr_t)si->si_addr;
	/*
	 * The C library has no names for them: si_perf_data shares its place
	 * with si_addr_lsb, si_perf_type follows it.
	 */
	memcpy(&traps.data[n], &si->si_addr_lsb, sizeof(__u64));
	memcpy(&traps.type[n], (char *)&si->si_addr_lsb + sizeof(__u64),
	       sizeof(__u32));
}

TEST(sigtrap)
{
	struct perf_event_attr attr;
	struct sigaction sa = { 0 };
	stack_t ss = { 0 };
	char *pages;
	int fd, i, j;

	/* sigtrap needs remove_on_exec. */
	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	attr.sigtrap = 1;
	attr.sig_data = 0xfeedf00dcafe;
	EXPECT_EQ(-1, sample_open(&attr));
	EXPECT_EQ(EINVAL, errno);

	/* Nothing the handler touches may fault: fault it all in now. */
	memset(&traps, 0, sizeof(traps));
	memset(trap_stack, 0, sizeof(trap_stack));
	ss.ss_sp = trap_stack;
	ss.ss_size = sizeof(trap_stack);
	ASSERT_EQ(0, sigaltstack(&ss, NULL));
	sa.sa_sigaction = on_sigtrap;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, NULL));
	pages = map_fresh_pages(3);
	ASSERT_NE(NULL, pages);

	attr.remove_on_exec = 1;
	attr.disabled = 1;
	fd = sample_open(&attr);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 3; i++)
		pages[i * page_size() + 8 * i] = 1;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	close(fd);

	ASSERT_LE(3, traps.nr);
	ASSERT_GE(MAX_TRAPS, traps.nr);
	for (i = 0; i < traps.nr; i++) {
		EXPECT_EQ(TRAP_PERF, traps.code[i]);
		EXPECT_EQ(0, traps.errno_[i]);
		EXPECT_EQ(0xfeedf00dcafe, traps.data[i]);
		EXPECT_EQ(PERF_TYPE_SOFTWARE, traps.type[i]);
	}
	/* Each fault on our pages came with its address. */
	for (i = 0; i < 3; i++) {
		__u64 want = (uintptr_t)pages + i * page_size() + 8 * i;

		for (j = 0; j < traps.nr; j++)
			if (traps.addr[j] == want)
				break;
		EXPECT_GT(traps.nr, j) TH_LOG("no trap for page %d", i);
	}
	munmap(pages, 3 * page_size());
}

struct throttle_check {
	__u64 id;
	int throttle, unthrottle, bad;
};

static int check_throttle(struct perf_event_header *h, void *arg)
{
	struct throttle_check *t = arg;
	__u64 *f = (__u64 *)(h + 1);	/* time, id, stream_id */

	if (h->type != PERF_RECORD_THROTTLE &&
	    h->type != PERF_RECORD_UNTHROTTLE)
		return 0;
	if (h->size != 32 || f[1] != t->id || f[2] != t->id || !f[0])
		t->bad++;
	if (h->type == PERF_RECORD_THROTTLE)
		t->throttle++;
	else
		t->unthrottle++;
	return 0;
}

FIXTURE(throttle) {
	struct saved_sysctl rate;
};

FIXTURE_SETUP(throttle)
{
	int percent;

	ASSERT_EQ(0, read_int_file(CPU_PERCENT, &percent));
	if (percent == 0 || percent == 100)
		SKIP(return, "perf_cpu_time_max_percent is %d", percent);
	ASSERT_EQ(0, sysctl_save(&self->rate, MAX_RATE));
	ASSERT_EQ(0, write_int_file(MAX_RATE, 1000));
}

FIXTURE_TEARDOWN(throttle)
{
	sysctl_restore(&self->rate);
}

/*
 * Past perf_event_max_sample_rate / HZ samples in a tick, an event is
 * throttled until the next tick, which says so in its buffer.
 */
TEST_F(throttle, cpu_clock)
{
	struct perf_event_attr attr;
	struct throttle_check t = { 0 };
	struct ring r;
	int fd;

	sample_attr_init(&attr, PERF_COUNT_SW_CPU_CLOCK, 10000,
			 PERF_SAMPLE_IP);
	attr.disabled = 1;
	fd = open_mapped(&attr, &r, 64);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &t.id));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	spin_cpu_ns(100 * NSEC_PER_MSEC);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	EXPECT_LE(0, ring_drain(&r, check_throttle, &t));
	EXPECT_LE(1, t.throttle);
	EXPECT_LE(1, t.unthrottle);
	EXPECT_GE(t.throttle, t.unthrottle);
	EXPECT_LE(t.throttle, t.unthrottle + 1);
	EXPECT_EQ(0, t.bad);
	ring_unmap(&r);
	close(fd);
}

/* ... and a frequency above the lowered rate is refused. */
TEST_F(throttle, freq_above_lowered_rate)
{
	struct perf_event_attr attr;

	sample_attr_init(&attr, PERF_COUNT_SW_CPU_CLOCK, 0, PERF_SAMPLE_IP);
	attr.freq = 1;
	attr.sample_freq = 1001;
	EXPECT_EQ(-1, sample_open(&attr));
	EXPECT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
