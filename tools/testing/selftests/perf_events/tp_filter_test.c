// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_SET_FILTER on trace event based events: ftrace's filter
 * syntax over the fields of the event's format file (and the common
 * ones).  A record the filter rejects is not counted.  A filter ftrace
 * cannot parse is EINVAL (6.1 gives some of them other codes, see
 * filter_refused()) and leaves the event as it was.  As in Linux 6.1: an
 * event takes one filter only (EEXIST after that); events of other PMUs
 * refuse filters with EINVAL; the string is at most a page (EINVAL) in
 * readable memory (EFAULT).  Refused filters leave nothing behind.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "tp_test_util.h"
#include "../kselftest_harness.h"

#define NR_CALLS	60

/*
 * lseek(2) @set times with SEEK_SET and @cur times with SEEK_CUR, on a
 * file that nobody else seeks in.
 */
static void do_lseeks(int fd, int set, int cur)
{
	while (set--)
		lseek(fd, 0, SEEK_SET);
	while (cur--)
		lseek(fd, 0, SEEK_CUR);
}

FIXTURE(lseek) {
	int fd;		/* the event on sys_enter_lseek */
	int file;	/* what we seek in */
};

FIXTURE_SETUP(lseek)
{
	self->fd = tp_open("syscalls", "sys_enter_lseek", 0, -1, true);
	ASSERT_LE(0, self->fd);
	self->file = open("/proc/self/stat", O_RDONLY);
	ASSERT_LE(0, self->file);
}

FIXTURE_TEARDOWN(lseek)
{
	close(self->fd);
	close(self->file);
}

/* Count the lseeks while the event is enabled. */
static __u64 count_lseeks(FIXTURE_DATA(lseek) *self, int set, int cur)
{
	__u64 value = ~0ULL;

	ioctl(self->fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	do_lseeks(self->file, set, cur);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	read_value(self->fd, &value);
	return value;
}

TEST_F(lseek, unfiltered_counts_all)
{
	EXPECT_EQ(3 * NR_CALLS, count_lseeks(self, NR_CALLS, 2 * NR_CALLS));
}

TEST_F(lseek, filter_on_field)
{
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER,
			   "whence == 1"));
	EXPECT_EQ(2 * NR_CALLS, count_lseeks(self, NR_CALLS, 2 * NR_CALLS));
}

TEST_F(lseek, filter_combined)
{
	char filter[64];

	snprintf(filter, sizeof(filter), "fd == %d && (whence == 0 || whence == 2)",
		 self->file);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER, filter));
	EXPECT_EQ(NR_CALLS, count_lseeks(self, NR_CALLS, 2 * NR_CALLS));
}

TEST_F(lseek, filter_on_common_field)
{
	char filter[64];

	snprintf(filter, sizeof(filter), "common_pid != %d", getpid());
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER, filter));
	EXPECT_EQ(0, count_lseeks(self, NR_CALLS, NR_CALLS));
}

/*
 * Filters that do not parse.  On our kernel they are all EINVAL.  6.1
 * passes on the codes its parser uses for some of them (-1, -2, -3 as
 * EPERM, ENOENT, ESRCH).
 */
static bool filter_refused(int err)
{
	if (err == EINVAL)
		return true;
	return !ours_kernel() &&
	       (err == EPERM || err == ENOENT || err == ESRCH);
}

/* A refused filter changes nothing; a good one may follow. */
TEST_F(lseek, bad_filters_einval)
{
	static const char * const bad[] = {
		"no_such_field == 1",
		"whence ==",
		"whence == 1 &&",
		"((whence == 1)",
		"(whence == 1))",
		"whence ~ 1",
		"whence == \"abc",
		"whence == \"abc\"",
		"&&",
		"",
		"whence == 1 whence == 2",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER,
				    bad[i])) {
			TH_LOG("accepted '%s'", bad[i]);
		}
		EXPECT_TRUE(filter_refused(errno)) {
			TH_LOG("'%s': %s", bad[i], strerror(errno));
		}
	}
	EXPECT_EQ(2 * NR_CALLS, count_lseeks(self, NR_CALLS, NR_CALLS));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER,
			   "whence == 0"));
	EXPECT_EQ(NR_CALLS, count_lseeks(self, NR_CALLS, NR_CALLS));
}

TEST_F(lseek, one_filter_only)
{
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER,
			   "whence == 0"));
	EXPECT_EQ(-1, ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER,
			    "whence == 1"));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(NR_CALLS, count_lseeks(self, NR_CALLS, NR_CALLS));
}

TEST_F(lseek, bad_strings)
{
	size_t len = 2 * getpagesize();
	char *big = malloc(len);

	EXPECT_EQ(-1, ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER, NULL));
	EXPECT_EQ(EFAULT, errno);
	ASSERT_NE(NULL, big);
	memset(big, ' ', len - 1);
	big[len - 1] = '\0';
	memcpy(big + len - 12, "whence == 1", 11);
	EXPECT_EQ(-1, ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER, big));
	EXPECT_EQ(EINVAL, errno);
	free(big);
	/* Nothing was set. */
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER,
			   "whence == 1"));
}

/* With a filter in place, the event still closes cleanly. */
TEST_F(lseek, close_with_filter)
{
	int fd = tp_open("syscalls", "sys_enter_lseek", 0, -1, false);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "whence == 1"));
	do_lseeks(self->file, 3, 3);
	close(fd);
	EXPECT_EQ(NR_CALLS, count_lseeks(self, NR_CALLS, 0));
}

TEST(software_event_einval)
{
	int fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, 0, -1);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "whence == 1"));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, NULL));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
}

/*
 * Kilobytes the slab allocator holds (/proc/meminfo's Slab, which counts
 * large kmalloc()s too), or -1.  Writing vm.stat_refresh first folds the
 * CPUs' pending counts in.  Free pages are no measure: allocations are
 * served from per-CPU page lists that MemFree does not count, megabytes
 * of them in a distribution's configuration.
 */
static long slab_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f;

	write_int_file("/proc/sys/vm/stat_refresh", 1);
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Slab:", 5)) {
			kb = strtol(line + 5, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

#define LEAK_ROUNDS	10000
#define LEAK_LONG	2000
#define LEAK_MAX_KB	1024
#define CONTROL_EVENTS	4000

/*
 * Refused filters leave no memory behind.  LEAK_ROUNDS rounds of two
 * short ones would take over LEAK_MAX_KB if each kept 64 bytes of the
 * parser's; LEAK_LONG filters of 3 kB (mostly blanks) would if each kept
 * a sixth of its string.  A first round warms up the allocators' caches.
 * The control: CONTROL_EVENTS open events (a file and an event each, over
 * 512 bytes together in any implementation) show in the measure.
 */
static void refuse_filters(int fd, const char *big, int rounds)
{
	int i;

	for (i = 0; i < rounds; i++) {
		ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "whence == 1 &&");
		ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "no_such_field == 1");
	}
	for (i = 0; i < rounds * LEAK_LONG / LEAK_ROUNDS; i++)
		ioctl(fd, PERF_EVENT_IOC_SET_FILTER, big);
}

static int control_fds[CONTROL_EVENTS];

TEST(refused_filters_do_not_leak)
{
	struct rlimit rl = { CONTROL_EVENTS + 64, CONTROL_EVENTS + 64 };
	int fd = tp_open("syscalls", "sys_enter_lseek", 0, -1, false);
	char big[3 * 1024];
	long before, after;
	int i;

	ASSERT_LE(0, fd);
	memset(big, ' ', sizeof(big));
	strcpy(big + sizeof(big) - 16, "whence == 1 &&");

	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	before = slab_kb();
	for (i = 0; i < CONTROL_EVENTS; i++) {
		control_fds[i] = sw_event_open(PERF_COUNT_SW_DUMMY, 0, true,
					       0, -1);
		ASSERT_LE(0, control_fds[i]);
	}
	after = slab_kb();
	for (i = 0; i < CONTROL_EVENTS; i++)
		close(control_fds[i]);
	TH_LOG("control: Slab %ld kB, then %ld kB", before, after);
	EXPECT_LE(CONTROL_EVENTS / 2, after - before);

	refuse_filters(fd, big, LEAK_ROUNDS / 4);
	before = slab_kb();
	refuse_filters(fd, big, LEAK_ROUNDS);
	after = slab_kb();
	ASSERT_LT(0, before);
	ASSERT_LT(0, after);
	TH_LOG("Slab before %ld kB, after %ld kB", before, after);
	EXPECT_GT(LEAK_MAX_KB, after - before);
	close(fd);
}

TEST_HARNESS_MAIN
