/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading and writing the files of /sys/bus/event_source/devices/<pmu>/
 * from the perf_events selftests, through the integer file helpers of
 * perf_test_util.h (include that first).
 */
#ifndef PMU_SYSFS_H
#define PMU_SYSFS_H

#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_test_util.h"

#define PMU_SYSFS_DIR	"/sys/bus/event_source/devices/"

/* Read an integer from a PMU's file; returns 0, or -1 with errno set. */
static inline int pmu_sysfs_read(const char *pmu, const char *file, int *value)
{
	char path[256];

	snprintf(path, sizeof(path), PMU_SYSFS_DIR "%s/%s", pmu, file);
	return read_int_file(path, value);
}

/* Write an integer to a PMU's file; returns 0, or -1 with errno set. */
static inline int pmu_sysfs_write(const char *pmu, const char *file, int value)
{
	char path[256];

	snprintf(path, sizeof(path), PMU_SYSFS_DIR "%s/%s", pmu, file);
	return write_int_file(path, value);
}

/*
 * The first CPU a PMU's cpumask file lists: for the PMUs of a core,
 * package or die (RAPL, C-states), the CPU their events count on.
 * Returns -1 if there is no such file.
 */
static inline int pmu_sysfs_reader(const char *pmu)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), PMU_SYSFS_DIR "%s/cpumask", pmu);
	if (read_small_file(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

/* A PMU's dynamic type (its "type" file), or -1 without the PMU. */
static inline int pmu_sysfs_type(const char *pmu)
{
	int type;

	return pmu_sysfs_read(pmu, "type", &type) ? -1 : type;
}

/* Read a PMU's file (format/event, events/...) into @buf; 0, or -1. */
static inline int pmu_sysfs_string(const char *pmu, const char *file,
				   char *buf, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), PMU_SYSFS_DIR "%s/%s", pmu, file);
	return read_small_file(path, buf, size);
}

/* How many CPUs a PMU's cpumask file lists ("0", "0,2", "0-1"); or -1. */
static inline int pmu_sysfs_cpus(const char *pmu)
{
	char buf[128], *p;
	int n = 0, lo, hi;

	if (pmu_sysfs_string(pmu, "cpumask", buf, sizeof(buf)))
		return -1;
	for (p = strtok(buf, ",\n"); p; p = strtok(NULL, ",\n")) {
		if (sscanf(p, "%d-%d", &lo, &hi) == 2)
			n += hi - lo + 1;
		else
			n++;
	}
	return n;
}

/* /sys/devices/system/cpu/cpu@cpu/online, for @cpu. */
static inline void cpu_online_path(int cpu, char *path, size_t size)
{
	snprintf(path, size, "/sys/devices/system/cpu/cpu%d/online", cpu);
}

/* Take @cpu off line (@online 0) or back; returns 0, or -1. */
static inline int cpu_set_online(int cpu, int online)
{
	char path[64], c = online ? '1' : '0';
	int fd, ret;

	cpu_online_path(cpu, path, sizeof(path));
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = write(fd, &c, 1) == 1 ? 0 : -1;
	close(fd);
	return ret;
}

/*
 * Another CPU of @cpu's die, on line (topology/die_cpus_list), or -1:
 * where a read of an event of the die's counters needs no IPI.
 */
static inline int die_sibling(int cpu)
{
	char path[96], buf[256], *p = buf;
	long first, last, c;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/die_cpus_list", cpu);
	if (read_small_file(path, buf, sizeof(buf)))
		return -1;
	while (*p >= '0' && *p <= '9') {
		first = strtol(p, &p, 10);
		last = first;
		if (*p == '-')
			last = strtol(p + 1, &p, 10);
		for (c = first; c <= last; c++)
			if (c != cpu)
				return c;
		if (*p == ',')
			p++;
	}
	return -1;
}

/*
 * The function-call interrupts (IPIs) @cpu has taken: its column of the
 * CAL line of /proc/interrupts, whose header names the on-line CPUs'
 * columns.  Returns -1 if it cannot be found.
 */
static inline long cpu_call_interrupts(int cpu)
{
	char line[4096], name[16], *p, *tok;
	int col = -1, i = 0;
	long n = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	snprintf(name, sizeof(name), "CPU%d", cpu);
	if (fgets(line, sizeof(line), f)) {
		for (tok = strtok(line, " \t\n"); tok;
		     tok = strtok(NULL, " \t\n"), i++)
			if (!strcmp(tok, name))
				col = i;
	}
	while (col >= 0 && fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "CAL:", 4))
			continue;
		p += 4;
		for (i = 0; i <= col; i++)
			n = strtol(p, &p, 10);
		break;
	}
	fclose(f);
	return n;
}

/*
 * The CPU @pmu's events count on (its cpumask's first) in @reader, and
 * another CPU of its die in @other, for die_reads().  Returns NULL, or
 * why a test of reads from the die cannot run here.
 */
static inline const char *die_read_cpus(const char *pmu, int *reader,
					int *other)
{
	*reader = pmu_sysfs_reader(pmu);
	if (*reader < 0)
		return "no cpumask file";
	*other = die_sibling(*reader);
	if (*other < 0)
		return "one CPU in the reader's die";
	if (cpu_call_interrupts(*reader) < 0)
		return "no CAL line in /proc/interrupts";
	return NULL;
}

/*
 * A child spinning on @cpu, or -1: a CPU idle in a polling loop (mwait)
 * is woken without an interrupt, and an IPI to it would not show in its
 * count.  spin_stop() ends it.
 */
static inline pid_t spin_on(int cpu)
{
	pid_t pid = fork();

	if (!pid) {
		if (!pin_to_cpu(cpu))
			for (;;)
				;
		_exit(1);
	}
	if (pid > 0)
		usleep(10000);
	return pid;
}

static inline void spin_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* What die_reads() saw. */
struct die_reads {
	long interrupts;	/* the IPIs @cpu took meanwhile, or -1 */
	int backwards;		/* reads whose value or times went back */
	struct value_times last;
};

/*
 * Read @fd (read_format RF_TIMES) @n times from CPU @from, its event on
 * CPU @cpu of the same die, as perf stat -a reads a package's PMU from
 * wherever it runs, with a child spinning on @cpu (spin_on()).  Returns
 * 0, or -1 if a task cannot run where it must or a read fails.
 */
static inline int die_reads(int fd, int cpu, int from, int n,
			    struct die_reads *r)
{
	struct value_times prev = {}, v;
	int i, ret = -1;
	long before;
	pid_t spin;

	memset(r, 0, sizeof(*r));
	if (pin_to_cpu(from))
		return -1;
	spin = spin_on(cpu);
	if (spin < 0)
		return -1;
	before = cpu_call_interrupts(cpu);
	for (i = 0; i < n; i++) {
		if (read_value_times(fd, &v))
			goto out;
		r->backwards += v.value < prev.value ||
				v.enabled < prev.enabled ||
				v.running < prev.running;
		prev = v;
	}
	r->interrupts = cpu_call_interrupts(cpu);
	if (before < 0 || r->interrupts < 0)
		r->interrupts = -1;
	else
		r->interrupts -= before;
	r->last = prev;
	ret = 0;
out:
	spin_stop(spin);
	return ret;
}

#endif /* PMU_SYSFS_H */
