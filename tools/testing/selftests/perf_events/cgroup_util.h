/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the selftests that use cgroups (cgroup events, cgroup
 * records and samples), on cgroup v2:
 *
 *	struct cg_root cg;
 *
 *	cg_root_init(&cg, "/tmp/my_mnt");	// /sys/fs/cgroup, or mount
 *	mkdir(dir, 0755) under cg.root ...
 *	if (cg_perf_ready(&cg, dirfd))		// perf_event state in @dir?
 *		skip: perf_event is on a v1 hierarchy
 *	...
 *	cg_root_fini(&cg);			// undo, after removing dirs
 *
 * The perf_event controller is implicit on v2, in every cgroup without
 * being asked for, but 6.1 computes the root's masks before it knows
 * which controllers are implicit and only recomputes them when a
 * controller is enabled or disabled at the root: until then cgroups have
 * no perf_event state of their own (their events fail with ENOENT, their
 * tasks' samples carry the root's id, and making them writes no
 * PERF_RECORD_CGROUP).  A booted system has enabled some controller long
 * before; in a bare guest cg_perf_ready() enables the pids controller at
 * the root, which is enough, and cg_root_fini() disables it again.
 *
 * Include this after perf_test_util.h.
 */
#ifndef CGROUP_UTIL_H
#define CGROUP_UTIL_H

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>

struct cg_root {
	char root[128];		/* the root of the cgroup2 hierarchy */
	const char *mnt;	/* where we mounted it, or NULL */
	bool pids;		/* we enabled pids at the root */
};

static inline int cg_write(const char *dir, const char *file, const char *str)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return write_str_file(path, str);
}

/* Move task @pid (0: the caller) into the cgroup at @dir; 0 or -1. */
static inline int cg_move(const char *dir, pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", pid);
	return cg_write(dir, "cgroup.procs", buf);
}

/* The directory of the caller's own cgroup under @root, into @dir. */
static inline int cg_own(const char *root, char *dir, size_t len)
{
	char line[PATH_MAX];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(dir, len, "%s%s", root, line + 3);
		ret = 0;
	}
	fclose(f);
	return ret;
}

/*
 * The perf_event line of /proc/cgroups: the hierarchy the controller is
 * on (0 for cgroup2, where it is unless a v1 hierarchy took it) and how
 * many cgroups that hierarchy has, counting those removed but not yet
 * freed.  Returns the hierarchy, or -1.
 */
static inline int perf_event_hierarchy_nr(int *nr)
{
	int hier, n, enabled, ret = -1;
	char line[256], name[64];
	FILE *f = fopen("/proc/cgroups", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %d %d %d", name, &hier, &n,
			   &enabled) == 4 && !strcmp(name, "perf_event")) {
			ret = hier;
			*nr = n;
		}
	}
	fclose(f);
	return ret;
}

static inline int perf_event_hierarchy(void)
{
	int nr;

	return perf_event_hierarchy_nr(&nr);
}

/*
 * A v1 hierarchy unmounted without cgroups gives its controllers back to
 * cgroup2, but asynchronously: wait up to @ms for perf_event.
 */
static inline bool perf_event_on_v2(int ms)
{
	for (; ms > 0; ms -= 10) {
		if (!perf_event_hierarchy())
			return true;
		sleep_ms(10);
	}
	return !perf_event_hierarchy();
}

/* rmdir, waiting for exited tasks to leave the cgroup. */
static inline void cg_remove(const char *dir)
{
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (!rmdir(dir) || errno != EBUSY)
			return;
		sleep_ms(10);
	}
}

/*
 * Find cgroup2 at /sys/fs/cgroup, or mount it at @mnt.  0, or -1 if
 * cgroup2 cannot be mounted.
 */
static inline int cg_root_init(struct cg_root *cg, const char *mnt)
{
	struct statfs fs;

	memset(cg, 0, sizeof(*cg));
	if (!statfs("/sys/fs/cgroup", &fs) && fs.f_type == CGROUP2_SUPER_MAGIC) {
		snprintf(cg->root, sizeof(cg->root), "/sys/fs/cgroup");
		return 0;
	}
	mkdir(mnt, 0755);
	if (mount("none", mnt, "cgroup2", 0, NULL)) {
		rmdir(mnt);
		return -1;
	}
	cg->mnt = mnt;
	snprintf(cg->root, sizeof(cg->root), "%s", mnt);
	return 0;
}

/*
 * Does the cgroup open as @dirfd, below the root, have perf_event state?
 * Tried with a cgroup event on CPU 0; see above for the pids controller.
 * 0 if it has, -1 with errno ENOENT if perf_event is not on cgroup2 (it
 * is on a v1 hierarchy), -1 with another errno on other failures.
 */
static inline int cg_perf_ready(struct cg_root *cg, int dirfd)
{
	struct perf_event_attr attr;
	int fd;

	/* Just back from a v1 hierarchy? */
	perf_event_on_v2(10000);
	sw_attr_init(&attr, PERF_COUNT_SW_TASK_CLOCK);
	fd = sys_perf_event_open(&attr, dirfd, 0, -1, PERF_FLAG_PID_CGROUP);
	if (fd < 0 && errno == ENOENT && !cg->pids &&
	    !cg_write(cg->root, "cgroup.subtree_control", "+pids")) {
		cg->pids = true;
		fd = sys_perf_event_open(&attr, dirfd, 0, -1,
					 PERF_FLAG_PID_CGROUP);
	}
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* Undo cg_root_init() and cg_perf_ready(), once the test's cgroups are gone. */
static inline void cg_root_fini(struct cg_root *cg)
{
	if (cg->pids)
		cg_write(cg->root, "cgroup.subtree_control", "-pids");
	if (cg->mnt) {
		umount(cg->mnt);
		rmdir(cg->mnt);
	}
	cg->pids = false;
	cg->mnt = NULL;
}

#endif /* CGROUP_UTIL_H */
