// SPDX-License-Identifier: GPL-2.0
/*
 * The memory ring buffers lock, as perf_event_open(2) documents it.
 *
 * A user may have perf_event_mlock_kb per online CPU in buffers; pages
 * beyond that count against the mapping process's RLIMIT_MEMLOCK; past
 * both, mmap() fails with EPERM, unless the caller has CAP_IPC_LOCK or
 * perf_event_paranoid is -1.  A buffer is charged once, when it is
 * created, however many times it is mapped, and all of it is given back
 * when its last mapping goes, whether or not the event was closed first:
 * mapping and unmapping over and over never runs out.
 *
 * The unprivileged parts run as "nobody" in a child process, which
 * reports the result of each mmap() through shared memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <linux/perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "../kselftest_harness.h"

#define MLOCK_KB	SYSCTL_PATH("perf_event_mlock_kb")
#define PARANOID	SYSCTL_PATH("perf_event_paranoid")

#define MAX_MAPS	64

/* What the child saw: the errno of each mmap() (0: it worked). */
struct report {
	int done;
	int nr;
	int err[MAX_MAPS];
	int loops;
};

/* A disabled page-fault sampler any user may open at paranoid <= 2. */
static int open_user_event(void)
{
	struct perf_event_attr attr;

	sample_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return sample_open(&attr);
}

/* Map 1 + @data pages of @fd; 0 or errno. */
static int try_map(int fd, size_t data, void **map)
{
	*map = mmap(NULL, (1 + data) * page_size(), PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	if (*map == MAP_FAILED) {
		*map = NULL;
		return errno;
	}
	return 0;
}

typedef void (*scenario_fn)(struct report *rep);

/*
 * Run @fn in a child that has RLIMIT_MEMLOCK of @rlim_pages pages and,
 * unless @root, is "nobody" without capabilities.
 */
static int run_child(struct report *rep, scenario_fn fn, size_t rlim_pages,
		     bool root)
{
	struct rlimit rl;
	pid_t pid;
	int status;

	memset(rep, 0, sizeof(*rep));
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		rl.rlim_cur = rlim_pages * page_size();
		rl.rlim_max = rl.rlim_cur;
		if (setrlimit(RLIMIT_MEMLOCK, &rl))
			_exit(2);
		if (!root && drop_privileges(NOBODY))
			_exit(3);
		fn(rep);
		rep->done = 1;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * Map 1+1 pages of new events until one fails (or MAX_MAPS / 2 worked).
 * Then give back the first buffer (charged to the user) and the last one
 * that worked (charged to RLIMIT_MEMLOCK, if any was), trying a new
 * buffer after each: one more fits each time, then no more.
 */
static void map_until_failure(struct report *rep)
{
	void *map[MAX_MAPS], *extra;
	int fd[MAX_MAPS], more;
	int i, failed = -1;

	for (i = 0; i < MAX_MAPS / 2; i++) {
		fd[i] = open_user_event();
		if (fd[i] < 0) {
			rep->err[rep->nr++] = 1000 + errno;
			return;
		}
		rep->err[rep->nr++] = try_map(fd[i], 1, &map[i]);
		if (rep->err[i]) {
			failed = i;
			break;
		}
	}
	if (failed < 1)
		return;
	more = open_user_event();
	if (more < 0)
		return;

	munmap(map[0], 2 * page_size());
	rep->err[rep->nr++] = try_map(fd[failed], 1, &map[failed]);
	rep->err[rep->nr++] = try_map(more, 1, &extra);
	munmap(map[failed - 1], 2 * page_size());
	rep->err[rep->nr++] = try_map(more, 1, &extra);
	rep->err[rep->nr++] = try_map(fd[0], 1, &map[0]);
}

/* One buffer mapped three times costs one charge. */
static void map_shared_buffer(struct report *rep)
{
	void *map;
	int fd, fd2, fd3, i;

	fd = open_user_event();
	fd2 = open_user_event();
	fd3 = open_user_event();
	if (fd < 0 || fd2 < 0 || fd3 < 0) {
		rep->err[rep->nr++] = 1000 + errno;
		return;
	}
	for (i = 0; i < 3; i++)
		rep->err[rep->nr++] = try_map(fd, 1, &map);
	rep->err[rep->nr++] = try_map(fd2, 1, &map);
	rep->err[rep->nr++] = try_map(fd3, 1, &map);
}

#define LOOPS	1000

/* Map and unmap, closing before or after, over and over. */
static void map_unmap_loop(struct report *rep)
{
	void *map, *map2;
	int i, fd, fd2;

	for (i = 0; i < LOOPS; i++) {
		fd = open_user_event();
		if (fd < 0) {
			rep->err[0] = 1000 + errno;
			return;
		}
		rep->err[0] = try_map(fd, 1, &map);
		if (rep->err[0])
			return;
		switch (i % 4) {
		case 0:		/* unmap, then close */
			munmap(map, 2 * page_size());
			close(fd);
			break;
		case 1:		/* close, then unmap */
			close(fd);
			munmap(map, 2 * page_size());
			break;
		case 2:		/* mapped twice */
			rep->err[0] = try_map(fd, 1, &map2);
			if (rep->err[0])
				return;
			munmap(map, 2 * page_size());
			close(fd);
			munmap(map2, 2 * page_size());
			break;
		case 3:		/* shared by a redirected event */
			fd2 = open_user_event();
			if (fd2 < 0 ||
			    ioctl(fd2, PERF_EVENT_IOC_SET_OUTPUT, fd)) {
				rep->err[0] = 2000 + errno;
				return;
			}
			close(fd);
			rep->err[0] = try_map(fd2, 1, &map2);
			if (rep->err[0])
				return;
			munmap(map, 2 * page_size());
			munmap(map2, 2 * page_size());
			close(fd2);
			break;
		}
		rep->loops++;
	}
}

FIXTURE(mlock) {
	struct saved_sysctl mlock_kb;
	struct saved_sysctl paranoid;
	struct report *rep;
	int ncpus;
	int user_pages;	/* the per-user limit, in pages */
};

FIXTURE_SETUP(mlock)
{
	self->rep = mmap(NULL, sizeof(*self->rep), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->rep);
	ASSERT_EQ(0, sysctl_save(&self->mlock_kb, MLOCK_KB));
	ASSERT_EQ(0, sysctl_save(&self->paranoid, PARANOID));
	self->ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	ASSERT_LT(0, self->ncpus);
	/* Two pages per CPU. */
	ASSERT_EQ(0, write_int_file(MLOCK_KB, 2 * page_size() / 1024));
	self->user_pages = 2 * self->ncpus;
	ASSERT_EQ(0, write_int_file(PARANOID, 2));
}

FIXTURE_TEARDOWN(mlock)
{
	sysctl_restore(&self->mlock_kb);
	sysctl_restore(&self->paranoid);
	munmap(self->rep, sizeof(*self->rep));
}

/*
 * The user's share first (2 pages a buffer), then 4 pages of
 * RLIMIT_MEMLOCK, then EPERM; giving back either kind of charge lets
 * exactly one more buffer in.
 */
TEST_F(mlock, user_limit_then_rlimit_then_eperm)
{
	struct report *rep = self->rep;
	int ok = self->user_pages / 2 + 2, i;

	ASSERT_EQ(0, run_child(rep, map_until_failure, 4, false));
	ASSERT_TRUE(rep->done);
	ASSERT_EQ(ok + 1 + 4, rep->nr);
	for (i = 0; i < ok; i++)
		EXPECT_EQ(0, rep->err[i]) TH_LOG("buffer %d", i);
	EXPECT_EQ(EPERM, rep->err[ok]);
	/* The user's share given back: one more, then EPERM again. */
	EXPECT_EQ(0, rep->err[ok + 1]);
	EXPECT_EQ(EPERM, rep->err[ok + 2]);
	/* The rlimit's: the same. */
	EXPECT_EQ(0, rep->err[ok + 3]);
	EXPECT_EQ(EPERM, rep->err[ok + 4]);
}

/* Without RLIMIT_MEMLOCK, the user's share alone. */
TEST_F(mlock, user_limit_alone)
{
	struct report *rep = self->rep;
	int ok = self->user_pages / 2;

	ASSERT_EQ(0, run_child(rep, map_until_failure, 0, false));
	ASSERT_TRUE(rep->done);
	ASSERT_LE(ok + 1, rep->nr);
	EXPECT_EQ(0, rep->err[ok - 1]);
	EXPECT_EQ(EPERM, rep->err[ok]);
}

/* A buffer is charged once, however often it is mapped. */
TEST_F(mlock, charged_once_per_buffer)
{
	struct report *rep = self->rep;

	/* Room for exactly two 2-page buffers. */
	ASSERT_EQ(0, write_int_file(MLOCK_KB, 0));
	ASSERT_EQ(0, run_child(rep, map_shared_buffer, 4, false));
	ASSERT_TRUE(rep->done);
	ASSERT_EQ(5, rep->nr);
	EXPECT_EQ(0, rep->err[0]);
	EXPECT_EQ(0, rep->err[1]);
	EXPECT_EQ(0, rep->err[2]);
	EXPECT_EQ(0, rep->err[3]);
	EXPECT_EQ(EPERM, rep->err[4]);
}

/* CAP_IPC_LOCK: no limit. */
TEST_F(mlock, cap_ipc_lock)
{
	struct report *rep = self->rep;
	int i;

	ASSERT_EQ(0, write_int_file(MLOCK_KB, 0));
	ASSERT_EQ(0, run_child(rep, map_until_failure, 0, true));
	ASSERT_TRUE(rep->done);
	EXPECT_EQ(MAX_MAPS / 2, rep->nr);
	for (i = 0; i < rep->nr; i++)
		EXPECT_EQ(0, rep->err[i]);
}

/* perf_event_paranoid -1: no limit either. */
TEST_F(mlock, paranoid_minus_one)
{
	struct report *rep = self->rep;
	int i;

	ASSERT_EQ(0, write_int_file(PARANOID, -1));
	ASSERT_EQ(0, run_child(rep, map_until_failure, 0, false));
	ASSERT_TRUE(rep->done);
	EXPECT_EQ(MAX_MAPS / 2, rep->nr);
	for (i = 0; i < rep->nr; i++)
		EXPECT_EQ(0, rep->err[i]);
}

/* Everything is given back, however the buffer goes. */
TEST_F(mlock, map_unmap_loop)
{
	struct report *rep = self->rep;

	/* Room for one 2-page buffer at a time, and not two. */
	ASSERT_EQ(0, write_int_file(MLOCK_KB, 0));
	ASSERT_EQ(0, run_child(rep, map_unmap_loop, 2, false));
	ASSERT_TRUE(rep->done);
	EXPECT_EQ(0, rep->err[0]);
	EXPECT_EQ(LOOPS, rep->loops);
}

TEST_HARNESS_MAIN
