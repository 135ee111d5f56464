// SPDX-License-Identifier: GPL-2.0
/*
 * A helper of watchdog_hld_test.sh: print how many cycles events of one
 * group the hardware PMU puts on counters at once, for this task on the
 * CPU it is bound to.  Groups of 1, 2, ... events are opened, enabled
 * around a short loop and read; the first that was never on the PMU
 * (time_running 0), or that perf_event_open() refuses as too large,
 * ends the search.  A pinned kernel counter, such as the hard lockup
 * detector's, leaves one counter fewer.  On a hybrid CPU the events are
 * those of the PMU of the CPU's kind (cpu_core or cpu_atom, named by
 * the extended type in the config's upper half), which may have more
 * or fewer counters than the other kind.
 *
 * Usage: hw_cycles_fit; exits 1 if even one event cannot be opened.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sys/ioctl.h>

#define HW_TEST_STAY_PUT	/* bound to its CPU by watchdog_hld_test.sh */
#include "perf_test_util.h"
#include "hw_test_util.h"

#define MAX_EVENTS	16

static __u64 cycles_config = PERF_COUNT_HW_CPU_CYCLES;

/*
 * On a hybrid, cycles of the PMU whose cpus file lists the CPU this
 * task runs on (it is bound to one).
 */
static void hybrid_config(void)
{
	static const char * const kinds[] = { "cpu_core", "cpu_atom" };
	int cpu = sched_getcpu();
	char path[128];
	unsigned int i;
	cpu_set_t set;

	for (i = 0; i < 2; i++) {
		unsigned long long type;
		FILE *f;

		snprintf(path, sizeof(path), HW_PMU_ROOT "%s/cpus", kinds[i]);
		if (hw_cpu_list(path, &set) < 0 || !CPU_ISSET(cpu, &set))
			continue;
		snprintf(path, sizeof(path), HW_PMU_ROOT "%s/type", kinds[i]);
		f = fopen(path, "r");
		if (f && fscanf(f, "%llu", &type) == 1)
			cycles_config |= (__u64)type << PERF_PMU_TYPE_SHIFT;
		if (f)
			fclose(f);
		return;
	}
}

static int cycles_open(int group_fd)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = cycles_config;
	attr.disabled = group_fd < 0;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_GROUP |
			   PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return syscall(SYS_perf_event_open, &attr, 0, -1, group_fd, 0);
}

/* 1 if a group of n cycles events ran, 0 if it did not, -1 on error. */
static int group_runs(int n)
{
	uint64_t buf[3 + MAX_EVENTS];
	int fds[MAX_EVENTS];
	unsigned long spin;
	int i, ran = 0;

	for (i = 0; i < n; i++) {
		fds[i] = cycles_open(i ? fds[0] : -1);
		if (fds[i] < 0)
			break;
	}
	if (i == n) {
		ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		for (spin = 0; spin < 1000000; spin++)
			asm volatile("" ::: "memory");
		ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		/* nr, time_enabled, time_running, the values. */
		if (read(fds[0], buf, sizeof(buf)) >= 3 * 8 && buf[0] == n)
			ran = buf[1] && buf[2] ? 1 : 0;
	} else if (i == 0) {
		ran = -1;
	}
	while (i--)
		close(fds[i]);
	return ran;
}

int main(void)
{
	int n;

	hybrid_config();
	for (n = 1; n <= MAX_EVENTS; n++) {
		int ran = group_runs(n);

		if (ran < 0) {
			perror("perf_event_open cycles");
			return 1;
		}
		if (!ran)
			break;
	}
	printf("%d\n", n - 1);
	return 0;
}
