// SPDX-License-Identifier: GPL-2.0
/*
 * Every overflow a user asked to hear of arrives: one O_ASYNC signal per
 * overflow of a sampling event, for a group leader and for a member,
 * with and without wakeup_events, for two members overflowing on the
 * same instruction, for two events sharing a buffer (each hears of its
 * own overflows only), and for PERF_EVENT_IOC_REFRESH, whether the limit
 * is left to run out or re-armed from the signal handler (as PAPI does),
 * or the event started with PERF_EVENT_IOC_ENABLE and refreshed from the
 * handler afterwards.
 *
 * Throttled variants: past perf_event_max_sample_rate / HZ overflows in
 * a tick the event is throttled; the overflow that throttles it is still
 * heard of, and a refresh from the handler lets it go on at once.
 *
 * The counts are exact.  Each event samples every PERIOD occurrences of
 * what it counts, so it overflowed count / PERIOD times, where count is
 * what read() gives at the end: that many signals must have come, with
 * that many samples in its ring buffer.  Where no handler runs in
 * between (the signal blocked and queued), the count is the work's
 * alone, and the overflows exactly NR_OVERFLOWS.
 *
 * Each test runs with each source of overflows, the hardware PMU
 * (instructions:u, a loop of a known number of instructions; skipped
 * without a PMU) and a software event (user page faults, on fresh
 * pages), and each way of hearing of them:
 *  - sigio: F_SETSIG SIGIO to the process, taken by a handler; not
 *    queued, so a signal sent before the handler ran for the last one
 *    would be lost;
 *  - rt: a real-time signal to the process, taken by a handler;
 *  - queued: a real-time signal, blocked, taken after the work with
 *    sigtimedwait(): every overflow must have queued one;
 *  - thread: a real-time signal to the thread doing the work
 *    (F_SETOWN_EX, F_OWNER_TID), not the process's main thread, taken
 *    by a handler that checks which thread it runs on.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "perf_signal_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

/* How many overflows the work brings each event. */
#define NR_OVERFLOWS	1000
/* Instructions between two overflows of the hardware event. */
#define HW_PERIOD	100000
/* Page faults between two overflows of the software event. */
#define SW_PERIOD	2
#define SW_OVERFLOWS	200
/*
 * 16 bytes a sample (header, IP), 32 a throttling or unthrottling
 * record: room for all of them, whatever the interleaving.
 */
#define RING_PAGES	32
/* At most this many sampling events in a scenario. */
#define MAX_SAMPLING	2
/* Samples a second the tests may take: far more than they do. */
#define TEST_RATE	1000000
/*
 * The rate of the throttled variants: a few samples a tick (HZ is 100
 * to 1000), far fewer than the work brings.
 */
#define THROTTLE_RATE	500

enum source { SRC_HW, SRC_SW };
enum delivery { DLV_SIGIO, DLV_RT, DLV_QUEUED, DLV_THREAD };
/*
 * The limits on the sample rate: lifted (TEST_RATE, no dynamic limit),
 * low (THROTTLE_RATE, no dynamic limit), or as they are (the defaults,
 * lowered by the kernel as far as earlier samples took long: on a busy
 * host, far enough to throttle the tests).
 */
enum limits { LIM_LIFTED, LIM_LOW, LIM_AS_IS };

/* What to run: the events, how they start, what the handler does. */
struct scenario {
	enum source src;
	enum delivery dlv;
	enum limits limits;
	int sampling;		/* sampling events: 1 or 2 */
	bool counting_leader;	/* under a leader that does not sample */
	bool shared_buffer;	/* the second writes to the first's buffer */
	__u32 wakeup_events;
	int refresh;		/* start with REFRESH(refresh), not ENABLE */
	bool rearm;		/* the handler does REFRESH(1) */
	unsigned long overflows;	/* the work's worth of periods */
};

/* What came of it, per sampling event. */
struct outcome {
	const char *failed;	/* the step that failed, if one did */
	int err;
	__u64 count[MAX_SAMPLING];
	int samples[MAX_SAMPLING];
	int lost[MAX_SAMPLING];
	int throttled[MAX_SAMPLING];
	int signals[MAX_SAMPLING];
	int poll_in[MAX_SAMPLING];
	int poll_hup[MAX_SAMPLING];
	int other_code;		/* signals of another si_code */
	int bad_fd;		/* signals for none of our events */
	int bad_tid;		/* taken by another thread than the owner */
	int rearm_failed;	/* REFRESH from the handler failed */
};

/*
 * What the handler sees.  The harness runs each test in a process of its
 * own, so this is the one scenario's.
 */
static struct {
	int fd[MAX_SAMPLING];
	int nr;
	bool rearm;
	pid_t owner;		/* the thread meant to take them, or 0 */
	struct outcome *out;
} seen;

/* The sampling event a signal names, or -1. */
static int seen_slot(int fd)
{
	int i;

	for (i = 0; i < seen.nr; i++)
		if (seen.fd[i] == fd)
			return i;
	return -1;
}

static void note_signal(struct outcome *out, const siginfo_t *si)
{
	int i = seen_slot(si->si_fd);

	if (i < 0) {
		out->bad_fd++;
		return;
	}
	out->signals[i]++;
	if (si->si_code == POLL_IN)
		out->poll_in[i]++;
	else if (si->si_code == POLL_HUP)
		out->poll_hup[i]++;
	else
		out->other_code++;
}

static void on_overflow(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;

	note_signal(seen.out, si);
	if (seen.owner && gettid() != seen.owner)
		seen.out->bad_tid++;
	if (seen.rearm && seen_slot(si->si_fd) >= 0 &&
	    ioctl(si->si_fd, PERF_EVENT_IOC_REFRESH, 1))
		seen.out->rearm_failed++;
	errno = saved;
}

static int delivery_signal(enum delivery dlv)
{
	return dlv == DLV_SIGIO ? SIGIO : SIGRTMIN + 1;
}

static __u64 source_period(enum source src)
{
	return src == SRC_HW ? HW_PERIOD : SW_PERIOD;
}

/*
 * The period of sampling event @i: the source's, but for an event that
 * shares the first one's buffer, which overflows a third as often.
 */
static __u64 event_period(const struct scenario *sc, int i)
{
	return source_period(sc->src) * (sc->shared_buffer && i ? 3 : 1);
}

/* How often the work alone makes sampling event @i overflow. */
static unsigned long work_overflows(const struct scenario *sc, int i)
{
	return sc->overflows * source_period(sc->src) / event_period(sc, i);
}

static void source_attr(struct perf_event_attr *attr, enum source src,
			__u64 period)
{
	if (src == SRC_HW) {
		hw_attr_init(attr, PERF_TYPE_HARDWARE,
			     PERF_COUNT_HW_INSTRUCTIONS);
	} else {
		sw_attr_init(attr, PERF_COUNT_SW_PAGE_FAULTS);
		attr->exclude_kernel = 1;
	}
	if (period) {
		attr->sample_period = period;
		attr->sample_type = PERF_SAMPLE_IP;
	}
}

/* @n occurrences of what the source counts, in user mode. */
static int source_work(enum source src, unsigned long n)
{
	char *p;

	if (src == SRC_HW) {
		hw_loop(n / HW_LOOP_INSNS);
		return 0;
	}
	p = map_fresh_pages(n);
	if (!p)
		return -1;
	touch_pages(p, n);
	munmap(p, n * getpagesize());
	return 0;
}

static void fail(struct outcome *out, const char *what)
{
	if (!out->failed) {
		out->failed = what;
		out->err = errno;
	}
}

/* The events: the leader first, then the members; the sampling ones mapped. */
struct events {
	int fd[MAX_SAMPLING + 1];
	struct ring ring[MAX_SAMPLING];
	int nr;
	int first_sampling;
};

static int open_events(const struct scenario *sc, struct events *ev,
		       struct outcome *out)
{
	struct perf_event_attr attr;
	int i, fd, leader = -1;

	memset(ev, 0, sizeof(*ev));
	ev->first_sampling = sc->counting_leader ? 1 : 0;
	ev->nr = ev->first_sampling + sc->sampling;
	for (i = 0; i < ev->nr; i++) {
		int j = i - ev->first_sampling;

		source_attr(&attr, sc->src, j < 0 ? 0 : event_period(sc, j));
		attr.wakeup_events = sc->wakeup_events;
		/* Members go on and off with the leader. */
		attr.disabled = i == 0;
		fd = sys_perf_event_open(&attr, 0, -1, leader, 0);
		if (fd < 0) {
			fail(out, "perf_event_open");
			return -1;
		}
		ev->fd[i] = fd;
		if (i == 0)
			leader = fd;
		if (j < 0)
			continue;
		seen.fd[seen.nr++] = fd;
		if (sc->shared_buffer && j) {
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT,
				  ev->fd[ev->first_sampling])) {
				fail(out, "SET_OUTPUT");
				return -1;
			}
			continue;
		}
		if (ring_map(&ev->ring[j], fd, RING_PAGES)) {
			fail(out, "mmap");
			return -1;
		}
		ring_prefault(&ev->ring[j]);
	}
	return 0;
}

static void close_events(struct events *ev)
{
	int i;

	for (i = 0; i < MAX_SAMPLING; i++)
		ring_unmap(&ev->ring[i]);
	for (i = 0; i < ev->nr; i++)
		close(ev->fd[i]);
}

/* O_ASYNC on each sampling event, to the process or to @tid. */
static int route_signals(const struct scenario *sc, struct events *ev,
			 pid_t tid)
{
	struct f_owner_ex owner = {
		.type = tid ? F_OWNER_TID : F_OWNER_PID,
		.pid = tid ? tid : getpid(),
	};
	int i, fd;

	for (i = ev->first_sampling; i < ev->nr; i++) {
		fd = ev->fd[i];
		if (fcntl(fd, F_SETOWN_EX, &owner) ||
		    fcntl(fd, F_SETSIG, delivery_signal(sc->dlv)) ||
		    set_async(fd))
			return -1;
	}
	return 0;
}

/*
 * Start the events: the sampling members first (with REFRESH, which
 * arms them; they are enabled already), then the leader, which starts
 * the whole group on its counters at once.
 */
static int start_events(const struct scenario *sc, struct events *ev)
{
	int i;

	if (sc->refresh) {
		for (i = ev->nr - 1; i >= ev->first_sampling; i--)
			if (ioctl(ev->fd[i], PERF_EVENT_IOC_REFRESH, sc->refresh))
				return -1;
		/* A sampling leader's refresh started the group. */
		if (!ev->first_sampling)
			return 0;
	}
	return ioctl(ev->fd[0], PERF_EVENT_IOC_ENABLE, 0);
}

static void collect(const struct scenario *sc, struct events *ev,
		    struct outcome *out)
{
	struct record_counts c;
	siginfo_t si;
	int i, sig = delivery_signal(sc->dlv);

	for (i = 0; i < sc->sampling; i++) {
		if (read_value(ev->fd[ev->first_sampling + i], &out->count[i]))
			fail(out, "read");
		memset(&c, 0, sizeof(c));
		if (ev->ring[i].map &&
		    ring_drain(&ev->ring[i], count_record, &c) < 0)
			fail(out, "ring_drain");
		out->samples[i] = c.type[PERF_RECORD_SAMPLE];
		out->lost[i] = c.type[PERF_RECORD_LOST];
		out->throttled[i] = c.type[PERF_RECORD_THROTTLE];
	}
	if (sc->dlv != DLV_QUEUED)
		return;
	while (wait_signal(sig, &si, 0) == sig)
		note_signal(out, &si);
}

/* The scenario, on the calling thread, which owns the signals if @tid. */
static void run(const struct scenario *sc, struct outcome *out, pid_t tid)
{
	struct sigaction sa = { .sa_sigaction = on_overflow,
				.sa_flags = SA_SIGINFO | SA_RESTART };
	int sig = delivery_signal(sc->dlv);
	struct events ev;

	seen.out = out;
	seen.rearm = sc->rearm;
	seen.owner = tid;
	if (sc->dlv == DLV_QUEUED ? block_signal(sig) :
				    sigaction(sig, &sa, NULL)) {
		fail(out, "signal setup");
		return;
	}
	if (open_events(sc, &ev, out))
		goto out;
	if (route_signals(sc, &ev, tid)) {
		fail(out, "fcntl");
		goto out;
	}
	if (start_events(sc, &ev)) {
		fail(out, "start");
		goto out;
	}
	if (source_work(sc->src, sc->overflows * source_period(sc->src)))
		fail(out, "work");
	if (ioctl(ev.fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP))
		fail(out, "disable");
	collect(sc, &ev, out);
out:
	close_events(&ev);
}

struct thread_run {
	const struct scenario *sc;
	struct outcome *out;
};

static void *run_thread(void *arg)
{
	struct thread_run *tr = arg;

	run(tr->sc, tr->out, gettid());
	return NULL;
}

/* Run @sc where its delivery says: here, or on a thread of its own. */
static void run_scenario(const struct scenario *sc, struct outcome *out)
{
	struct thread_run tr = { .sc = sc, .out = out };
	pthread_t thread;

	memset(out, 0, sizeof(*out));
	memset(&seen, 0, sizeof(seen));
	if (sc->dlv != DLV_THREAD) {
		run(sc, out, 0);
		return;
	}
	errno = pthread_create(&thread, NULL, run_thread, &tr);
	if (errno)
		fail(out, "pthread_create");
	else
		pthread_join(thread, NULL);
}

FIXTURE(ovf) {
	struct saved_rate_limits limits;
	struct scenario sc;
	struct outcome out;
};

FIXTURE_VARIANT(ovf) {
	enum source src;
	enum delivery dlv;
	enum limits limits;
};

FIXTURE_VARIANT_ADD(ovf, hw_sigio) { .src = SRC_HW, .dlv = DLV_SIGIO };
FIXTURE_VARIANT_ADD(ovf, hw_rt) { .src = SRC_HW, .dlv = DLV_RT };
FIXTURE_VARIANT_ADD(ovf, hw_queued) { .src = SRC_HW, .dlv = DLV_QUEUED };
FIXTURE_VARIANT_ADD(ovf, hw_thread) { .src = SRC_HW, .dlv = DLV_THREAD };
FIXTURE_VARIANT_ADD(ovf, sw_sigio) { .src = SRC_SW, .dlv = DLV_SIGIO };
FIXTURE_VARIANT_ADD(ovf, sw_rt) { .src = SRC_SW, .dlv = DLV_RT };
FIXTURE_VARIANT_ADD(ovf, sw_queued) { .src = SRC_SW, .dlv = DLV_QUEUED };
FIXTURE_VARIANT_ADD(ovf, sw_thread) { .src = SRC_SW, .dlv = DLV_THREAD };
/*
 * Throttled: an overflow past perf_event_max_sample_rate / HZ in a tick
 * is still heard of, with its sample, and stops the event until the
 * next tick; a refresh that enables it again lets it go on at once.  A
 * page fault overflows once and is never throttled for it.
 */
FIXTURE_VARIANT_ADD(ovf, hw_sigio_throttled) {
	.src = SRC_HW, .dlv = DLV_SIGIO, .limits = LIM_LOW };
FIXTURE_VARIANT_ADD(ovf, hw_rt_throttled) {
	.src = SRC_HW, .dlv = DLV_RT, .limits = LIM_LOW };
FIXTURE_VARIANT_ADD(ovf, hw_queued_throttled) {
	.src = SRC_HW, .dlv = DLV_QUEUED, .limits = LIM_LOW };
FIXTURE_VARIANT_ADD(ovf, hw_thread_throttled) {
	.src = SRC_HW, .dlv = DLV_THREAD, .limits = LIM_LOW };
FIXTURE_VARIANT_ADD(ovf, sw_rt_throttled) {
	.src = SRC_SW, .dlv = DLV_RT, .limits = LIM_LOW };
/*
 * The limits as a user finds them: throttled or not, every overflow
 * that is delivered is signalled, with its sample.
 */
FIXTURE_VARIANT_ADD(ovf, hw_sigio_default) {
	.src = SRC_HW, .dlv = DLV_SIGIO, .limits = LIM_AS_IS };
FIXTURE_VARIANT_ADD(ovf, hw_rt_default) {
	.src = SRC_HW, .dlv = DLV_RT, .limits = LIM_AS_IS };
FIXTURE_VARIANT_ADD(ovf, hw_queued_default) {
	.src = SRC_HW, .dlv = DLV_QUEUED, .limits = LIM_AS_IS };
FIXTURE_VARIANT_ADD(ovf, hw_thread_default) {
	.src = SRC_HW, .dlv = DLV_THREAD, .limits = LIM_AS_IS };

FIXTURE_SETUP(ovf)
{
	struct rlimit rl;

	memset(&self->sc, 0, sizeof(self->sc));
	self->sc.src = variant->src;
	self->sc.dlv = variant->dlv;
	/* A page fault is never throttled: its variant checks as lifted. */
	self->sc.limits = variant->src == SRC_HW ? variant->limits : LIM_LIFTED;
	self->sc.sampling = 1;
	self->sc.wakeup_events = 1;
	self->sc.overflows = variant->src == SRC_HW ? NR_OVERFLOWS :
						      SW_OVERFLOWS;
	if (variant->src == SRC_HW && !hw_pmu_present())
		return;
	if (variant->limits != LIM_AS_IS)
		ASSERT_EQ(0, sample_rate_lift(&self->limits,
					      variant->limits == LIM_LOW ?
					      THROTTLE_RATE : TEST_RATE));
	/* Room to queue a signal for every overflow of two events. */
	ASSERT_EQ(0, getrlimit(RLIMIT_SIGPENDING, &rl));
	if (rl.rlim_cur < 4 * NR_OVERFLOWS) {
		rl.rlim_cur = 4 * NR_OVERFLOWS;
		if (rl.rlim_max < rl.rlim_cur)
			rl.rlim_max = rl.rlim_cur;
		ASSERT_EQ(0, setrlimit(RLIMIT_SIGPENDING, &rl));
	}
}

FIXTURE_TEARDOWN(ovf)
{
	sample_rate_restore(&self->limits);
}

#define SKIP_WITHOUT_SOURCE() do {					\
	if (variant->src == SRC_HW && !hw_pmu_present())		\
		SKIP(return, NO_HW_PMU);				\
} while (0)

/* A handler must run to re-arm the event: not with queued signals. */
#define SKIP_WITHOUT_HANDLER() do {					\
	if (variant->dlv == DLV_QUEUED)					\
		SKIP(return, "queued signals: no handler to re-arm");	\
} while (0)

/*
 * SIGIO is not queued: of two overflows at once, whose signals are both
 * sent before a handler runs, one signal comes.
 */
#define SKIP_UNQUEUED() do {						\
	if (variant->dlv == DLV_SIGIO)					\
		SKIP(return, "SIGIO is not queued: one signal for two"); \
} while (0)

/*
 * What holds of every scenario: each event overflowed count / period
 * times, and as many signals and samples came, nothing lost; with no
 * handler running, exactly as often as the work asked for.  Throttled,
 * an event that is not re-armed misses the rest of each tick, but a
 * re-armed one loses nothing.
 */
static void check_outcome(struct __test_metadata *_metadata,
			  const struct scenario *sc, const struct outcome *out)
{
	/* The first event's buffer has the records of a shared one. */
	bool throttled = out->throttled[0] || out->throttled[1];
	bool low = sc->limits == LIM_LOW;
	bool stops = low || (sc->limits == LIM_AS_IS && throttled);
	unsigned long nr, all = 0;
	int i;

	ASSERT_EQ(NULL, out->failed) TH_LOG("%s: %s", out->failed,
					    strerror(out->err));
	EXPECT_EQ(0, out->bad_fd);
	EXPECT_EQ(0, out->bad_tid);
	EXPECT_EQ(0, out->other_code);
	EXPECT_EQ(0, out->rearm_failed);
	if (sc->limits == LIM_LIFTED)
		EXPECT_FALSE(throttled);
	for (i = 0; i < sc->sampling; i++) {
		nr = out->count[i] / event_period(sc, i);
		all += nr;
		TH_LOG("event %d: count %llu, %d signals (%d in, %d hup), %d samples, %d throttled",
		       i, (unsigned long long)out->count[i], out->signals[i],
		       out->poll_in[i], out->poll_hup[i], out->samples[i],
		       out->throttled[i]);
		EXPECT_EQ(nr, out->signals[i]) TH_LOG("event %d", i);
		if (!sc->shared_buffer) {
			EXPECT_EQ(nr, out->samples[i]) TH_LOG("event %d", i);
		}
		EXPECT_EQ(0, out->lost[i]);
		if (sc->refresh && !sc->rearm) {
			/* Throttled, it may stop before its last refresh. */
			if (stops) {
				EXPECT_GE(sc->refresh, nr);
			} else {
				EXPECT_EQ(sc->refresh, nr);
			}
		} else if (stops && !(sc->rearm && sc->refresh)) {
			/*
			 * Only an event re-armed on every overflow is
			 * unthrottled at once: an overflow without a limit
			 * (the first after ENABLE) may throttle and stop it
			 * until the tick.
			 */
			/* A slower event sharing the buffer may never be. */
			if (low && !sc->rearm && (!sc->shared_buffer || !i)) {
				EXPECT_LT(0, out->throttled[i]);
				EXPECT_GT(work_overflows(sc, i), nr);
			}
		} else if (sc->dlv == DLV_QUEUED) {
			EXPECT_EQ(work_overflows(sc, i), nr);
		} else {
			EXPECT_LE(work_overflows(sc, i), nr);
		}
	}
	if (sc->shared_buffer) {
		EXPECT_EQ(all, out->samples[0]);
	}
}

/* Every overflow of a lone sampling event, wakeup_events 1. */
TEST_F(ovf, leader)
{
	SKIP_WITHOUT_SOURCE();
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	EXPECT_EQ(self->out.signals[0], self->out.poll_in[0]);
}

/*
 * Without wakeup_events no wakeup is due before the watermark (half the
 * buffer, more than all the samples): the signals come all the same.
 */
TEST_F(ovf, leader_no_wakeup_events)
{
	SKIP_WITHOUT_SOURCE();
	self->sc.wakeup_events = 0;
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	EXPECT_EQ(self->out.signals[0], self->out.poll_in[0]);
}

/* A sampling member of a group whose leader only counts. */
TEST_F(ovf, member)
{
	SKIP_WITHOUT_SOURCE();
	self->sc.counting_leader = true;
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	EXPECT_EQ(self->out.signals[0], self->out.poll_in[0]);
}

TEST_F(ovf, member_no_wakeup_events)
{
	SKIP_WITHOUT_SOURCE();
	self->sc.counting_leader = true;
	self->sc.wakeup_events = 0;
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	EXPECT_EQ(self->out.signals[0], self->out.poll_in[0]);
}

/*
 * A sampling leader and a sampling member with the same period start
 * together and overflow on the same occurrences: both are heard of each
 * time.
 */
TEST_F(ovf, two_overflow_together)
{
	SKIP_WITHOUT_SOURCE();
	SKIP_UNQUEUED();
	self->sc.sampling = 2;
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	EXPECT_EQ(self->out.count[0], self->out.count[1]);
	EXPECT_EQ(self->out.signals[0], self->out.poll_in[0]);
	EXPECT_EQ(self->out.signals[1], self->out.poll_in[1]);
}

/*
 * Two events writing to one buffer (PERF_EVENT_IOC_SET_OUTPUT), the
 * second overflowing a third as often: each hears of its own overflows
 * only, not of the buffer's wakeups for the other's samples.
 */
TEST_F(ovf, shared_buffer)
{
	SKIP_WITHOUT_SOURCE();
	SKIP_UNQUEUED();
	self->sc.sampling = 2;
	self->sc.shared_buffer = true;
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	EXPECT_EQ(self->out.signals[0], self->out.poll_in[0]);
	EXPECT_EQ(self->out.signals[1], self->out.poll_in[1]);
}

/*
 * REFRESH(3), left to run out: POLL_IN, POLL_IN, POLL_HUP, then off.
 * Throttled, it may stop at the second, with the tick too far to let it
 * go on: then POLL_IN twice.
 */
TEST_F(ovf, refresh_runs_out)
{
	int nr;

	SKIP_WITHOUT_SOURCE();
	self->sc.refresh = 3;
	self->sc.overflows = 10;
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	nr = self->out.signals[0];
	EXPECT_EQ(nr == 3 ? 2 : nr, self->out.poll_in[0]);
	EXPECT_EQ(nr == 3 ? 1 : 0, self->out.poll_hup[0]);
}

/*
 * The same, each event one-shot and re-armed from the handler: each hears
 * POLL_HUP for every overflow of its own, and nothing of the other's.
 */
TEST_F(ovf, shared_buffer_refresh_rearmed)
{
	int i;

	SKIP_WITHOUT_SOURCE();
	SKIP_WITHOUT_HANDLER();
	SKIP_UNQUEUED();
	self->sc.sampling = 2;
	self->sc.shared_buffer = true;
	self->sc.refresh = 1;
	self->sc.rearm = true;
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, self->out.poll_in[i]);
		EXPECT_EQ(self->out.signals[i], self->out.poll_hup[i]);
	}
}

/* REFRESH(1), and again from the handler of each POLL_HUP (PAPI's way). */
TEST_F(ovf, refresh_rearmed)
{
	SKIP_WITHOUT_SOURCE();
	SKIP_WITHOUT_HANDLER();
	self->sc.refresh = 1;
	self->sc.rearm = true;
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	EXPECT_EQ(0, self->out.poll_in[0]);
	EXPECT_EQ(self->out.signals[0], self->out.poll_hup[0]);
}

/*
 * ENABLE, then REFRESH(1) from the handler: the first overflow has no
 * limit (POLL_IN), each after it is the last of its refresh (POLL_HUP).
 */
TEST_F(ovf, enable_then_refresh)
{
	SKIP_WITHOUT_SOURCE();
	SKIP_WITHOUT_HANDLER();
	self->sc.rearm = true;
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	EXPECT_EQ(1, self->out.poll_in[0]);
	EXPECT_EQ(self->out.signals[0] - 1, self->out.poll_hup[0]);
}

/* Two members overflowing together, each one-shot and re-armed. */
TEST_F(ovf, two_together_refresh_rearmed)
{
	int i;

	SKIP_WITHOUT_SOURCE();
	SKIP_WITHOUT_HANDLER();
	SKIP_UNQUEUED();
	self->sc.sampling = 2;
	self->sc.refresh = 1;
	self->sc.rearm = true;
	run_scenario(&self->sc, &self->out);
	check_outcome(_metadata, &self->sc, &self->out);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, self->out.poll_in[i]);
		EXPECT_EQ(self->out.signals[i], self->out.poll_hup[i]);
	}
}

TEST_HARNESS_MAIN
