// SPDX-License-Identifier: GPL-2.0
/*
 * Hybrid CPUs (Intel's Alder Lake and Raptor Lake: big cores and Atom
 * cores, with different counters and events).  Linux 6.1 gives each kind
 * of core a PMU, cpu_core (type PERF_TYPE_RAW) and cpu_atom (a dynamic
 * type), in place of "cpu", and perf opens its events on both:
 *
 *  - each PMU's cpus file lists the CPUs of its kind: together, every
 *    CPU that is up, and none twice;
 *  - a generic event (PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE) names its
 *    PMU in the upper half of its config; a raw event by its type;
 *  - a task's event counts while the task runs on a CPU of its PMU's
 *    kind, and is neither counting nor running elsewhere;
 *  - so does a group of a software leader and members of one kind: the
 *    whole group waits on the other kind;
 *  - an event bound to a CPU of the other kind is not the PMU's
 *    (ENOENT), while a generic event that names no PMU goes to the PMU
 *    of that CPU's kind;
 *  - a group with events of both kinds never runs.  6.1 refuses such a
 *    group only from its third member on (with EINVAL); ours refuses the
 *    first event of the other kind (our extension: the test holds each
 *    kernel to its own).
 *
 * A generic event whose config names a PMU that takes no generic events
 * (the tracepoint PMU) is refused with ENOENT everywhere; one that names
 * the cpu PMU's type, PERF_TYPE_RAW, is that PMU's, and so is one that
 * names the software PMU's type, which 6.1 treats as naming none.  Those
 * run wherever there is a hardware PMU; the rest is skipped but on a
 * hybrid.
 */
#define _GNU_SOURCE
#include <sched.h>

#include "perf_test_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

#define N1		10000UL
#define N2		110000UL

/* One kind of core: its PMU's type, its CPUs and the first of them. */
struct kind {
	const char *name;
	__u32 type;
	cpu_set_t set;
	int first;
};

/* The PMU's type and CPUs; 0, or -1 if it is not there or has none. */
static int kind_read(struct kind *k, const char *name)
{
	char path[128], buf[64];

	k->name = name;
	snprintf(path, sizeof(path), HW_PMU_ROOT "%s/type", name);
	if (read_small_file(path, buf, sizeof(buf)))
		return -1;
	k->type = strtoul(buf, NULL, 10);
	snprintf(path, sizeof(path), HW_PMU_ROOT "%s/cpus", name);
	k->first = hw_cpu_list(path, &k->set);
	return k->first >= 0 ? 0 : -1;
}

static bool hybrid_present(void)
{
	return !access(HW_PMU_ROOT "cpu_core", F_OK) &&
	       !access(HW_PMU_ROOT "cpu_atom", F_OK);
}

/* A hybrid with CPUs of both kinds up (a hypervisor may show one). */
static bool hybrid_usable(void)
{
	struct kind k;

	return hybrid_present() && !kind_read(&k, "cpu_core") &&
	       !kind_read(&k, "cpu_atom");
}

FIXTURE(hybrid) {
	struct kind core;
	struct kind atom;
	cpu_set_t saved;
};

/* For each test: the fixture's setup cannot skip the test for it. */
#define SKIP_UNLESS_HYBRID() do {					\
	if (!hybrid_usable())						\
		SKIP(return, "not a hybrid with CPUs of both kinds up");	\
} while (0)

FIXTURE_SETUP(hybrid)
{
	if (!hybrid_usable())
		return;
	ASSERT_EQ(0, kind_read(&self->core, "cpu_core"));
	ASSERT_EQ(0, kind_read(&self->atom, "cpu_atom"));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(self->saved), &self->saved));
}

FIXTURE_TEARDOWN(hybrid)
{
	if (hybrid_usable())
		sched_setaffinity(0, sizeof(self->saved), &self->saved);
}

/* A user-mode generic event of @kind's PMU, on this thread, disabled. */
static int open_generic(const struct kind *k, __u32 type, __u64 config,
			int group_fd)
{
	struct perf_event_attr attr;

	hw_attr_init(&attr, type, (__u64)k->type << 32 | config);
	attr.read_format = RF_TIMES;
	attr.disabled = group_fd < 0;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

/* hw_run_loop() of @n on @fd (or its group with @flags), then its read. */
static int count_loop(int fd, unsigned long n, unsigned int flags,
		      struct value_times *vt)
{
	if (hw_run_loop(fd, n, flags))
		return -1;
	return read_value_times(fd, vt);
}

/* The loop run for N1 and N2 iterations on @fd: the difference. */
static int loop_difference(int fd, __u64 *diff)
{
	struct value_times v1, v2;

	if (count_loop(fd, N1, 0, &v1) || count_loop(fd, N2, 0, &v2))
		return -1;
	*diff = v2.value - v1.value;
	return 0;
}

TEST_F(hybrid, pmus_split_the_cpus)
{
	cpu_set_t online, both, all;

	SKIP_UNLESS_HYBRID();
	EXPECT_EQ(PERF_TYPE_RAW, self->core.type);
	EXPECT_GE(self->atom.type, PERF_TYPE_MAX);
	ASSERT_LE(0, hw_cpu_list("/sys/devices/system/cpu/online", &online));
	CPU_AND(&both, &self->core.set, &self->atom.set);
	CPU_OR(&all, &self->core.set, &self->atom.set);
	EXPECT_EQ(0, CPU_COUNT(&both));
	EXPECT_TRUE(CPU_EQUAL(&all, &online));
}

/*
 * Each PMU's instructions, named in the config, count the loop exactly
 * on a CPU of its kind, and do not run on the other kind.
 */
TEST_F(hybrid, generic_events_count_on_their_kind)
{
	const struct kind *kinds[] = { &self->core, &self->atom };
	struct value_times vt, before;
	__u64 diff;
	int i, fd;

	SKIP_UNLESS_HYBRID();
	for (i = 0; i < 2; i++) {
		const struct kind *k = kinds[i], *other = kinds[!i];

		fd = open_generic(k, PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_INSTRUCTIONS, -1);
		ASSERT_GE(fd, 0) TH_LOG("%s: %s", k->name, strerror(errno));

		ASSERT_EQ(0, pin_to_cpu(k->first));
		ASSERT_EQ(0, loop_difference(fd, &diff));
		EXPECT_EQ((N2 - N1) * HW_LOOP_INSNS, diff)
			TH_LOG("%s on CPU %d", k->name, k->first);

		ASSERT_EQ(0, pin_to_cpu(other->first));
		ASSERT_EQ(0, read_value_times(fd, &before));
		ASSERT_EQ(0, count_loop(fd, N2, 0, &vt));
		EXPECT_EQ(0, vt.value) TH_LOG("%s on CPU %d", k->name,
					      other->first);
		EXPECT_EQ(before.running, vt.running);
		EXPECT_GT(vt.enabled, before.enabled);
		close(fd);
	}
}

/*
 * A generic event that names no PMU is the big cores' (the cpu PMU's,
 * PERF_TYPE_RAW); one that names a type no PMU has (or the software
 * PMU's) goes to the PMU first registered that takes it, which on 6.1
 * is the Atom's: each counts the loop on its kind only.
 */
TEST_F(hybrid, unnamed_and_unknown_types)
{
	const struct { __u64 pmu_type; const struct kind *k; } cases[] = {
		{ 0, &self->core },
		{ 0x7e57, &self->atom },
		{ PERF_TYPE_SOFTWARE, &self->atom },
	};
	struct kind named = {};
	__u64 diff;
	int i, fd;

	SKIP_UNLESS_HYBRID();
	for (i = 0; i < 3; i++) {
		const struct kind *k = cases[i].k;
		const struct kind *other = k == &self->core ? &self->atom :
							       &self->core;

		named.type = cases[i].pmu_type;
		fd = open_generic(&named, PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_INSTRUCTIONS, -1);
		ASSERT_GE(fd, 0) TH_LOG("type %#llx: %s", cases[i].pmu_type,
					strerror(errno));
		ASSERT_EQ(0, pin_to_cpu(k->first));
		ASSERT_EQ(0, loop_difference(fd, &diff));
		EXPECT_EQ((N2 - N1) * HW_LOOP_INSNS, diff)
			TH_LOG("type %#llx on CPU %d", cases[i].pmu_type,
			       k->first);
		ASSERT_EQ(0, pin_to_cpu(other->first));
		ASSERT_EQ(0, loop_difference(fd, &diff));
		EXPECT_EQ(0, diff) TH_LOG("type %#llx on CPU %d",
					  cases[i].pmu_type, other->first);
		close(fd);
	}
}

/* The cache events are the kind's too (L1D read accesses here). */
TEST_F(hybrid, cache_events_name_their_pmu)
{
	const __u64 l1d_read = PERF_COUNT_HW_CACHE_L1D |
			       PERF_COUNT_HW_CACHE_OP_READ << 8 |
			       PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16;
	int fd;

	SKIP_UNLESS_HYBRID();
	fd = open_generic(&self->core, PERF_TYPE_HW_CACHE, l1d_read, -1);
	EXPECT_GE(fd, 0) TH_LOG("cpu_core: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	fd = open_generic(&self->atom, PERF_TYPE_HW_CACHE, l1d_read, -1);
	EXPECT_GE(fd, 0) TH_LOG("cpu_atom: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* A raw event names the PMU by its type: event 0xc0, instructions. */
TEST_F(hybrid, raw_events_name_their_pmu_by_type)
{
	struct perf_event_attr attr;
	__u64 diff;
	int fd;

	SKIP_UNLESS_HYBRID();
	hw_attr_init(&attr, self->atom.type, 0xc0);
	attr.read_format = RF_TIMES;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pin_to_cpu(self->atom.first));
	ASSERT_EQ(0, loop_difference(fd, &diff));
	EXPECT_EQ((N2 - N1) * HW_LOOP_INSNS, diff);
	close(fd);
}

/*
 * A CPU's event of the other kind's PMU is not that PMU's; a generic
 * event that names no PMU goes to the CPU's kind.
 */
TEST_F(hybrid, cpu_events_of_the_other_kind)
{
	struct perf_event_attr attr;
	int fd;

	SKIP_UNLESS_HYBRID();
	hw_attr_init(&attr, PERF_TYPE_HARDWARE,
		     (__u64)self->core.type << 32 | PERF_COUNT_HW_INSTRUCTIONS);
	fd = sys_perf_event_open(&attr, -1, self->atom.first, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENOENT, errno);

	hw_attr_init(&attr, PERF_TYPE_HARDWARE,
		     (__u64)self->atom.type << 32 | PERF_COUNT_HW_INSTRUCTIONS);
	fd = sys_perf_event_open(&attr, -1, self->core.first, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENOENT, errno);

	hw_attr_init(&attr, self->atom.type, 0xc0);
	fd = sys_perf_event_open(&attr, -1, self->core.first, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENOENT, errno);

	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fd = sys_perf_event_open(&attr, -1, self->atom.first, -1, 0);
	EXPECT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	if (fd >= 0)
		close(fd);
	fd = sys_perf_event_open(&attr, -1, self->core.first, -1, 0);
	EXPECT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * A group of both kinds never runs: ours refuses the member of the
 * other kind; 6.1 takes it (and refuses a third member), and the group
 * then counts on neither kind.
 */
TEST_F(hybrid, groups_of_both_kinds_never_run)
{
	const struct kind *kinds[] = { &self->core, &self->atom };
	struct value_times vt;
	int leader, member, sw, i;

	SKIP_UNLESS_HYBRID();
	leader = open_generic(&self->core, PERF_TYPE_HARDWARE,
			      PERF_COUNT_HW_INSTRUCTIONS, -1);
	ASSERT_GE(leader, 0);
	member = open_generic(&self->atom, PERF_TYPE_HARDWARE,
			      PERF_COUNT_HW_INSTRUCTIONS, leader);
	if (ours_kernel()) {
		EXPECT_EQ(-1, member);
		EXPECT_EQ(EINVAL, errno);
	} else {
		ASSERT_GE(member, 0);
		for (i = 0; i < 2; i++) {
			ASSERT_EQ(0, pin_to_cpu(kinds[i]->first));
			ASSERT_EQ(0, count_loop(leader, N1,
						PERF_IOC_FLAG_GROUP, &vt));
			EXPECT_EQ(0, vt.value) TH_LOG("on %s", kinds[i]->name);
			EXPECT_EQ(0, vt.running);
		}
		EXPECT_EQ(-1, open_generic(&self->core, PERF_TYPE_HARDWARE,
					   PERF_COUNT_HW_CPU_CYCLES, leader));
		EXPECT_EQ(EINVAL, errno);
		close(member);
	}
	close(leader);

	if (!ours_kernel())
		return;
	sw = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, true, 0, -1);
	ASSERT_GE(sw, 0);
	member = open_generic(&self->core, PERF_TYPE_HARDWARE,
			      PERF_COUNT_HW_INSTRUCTIONS, sw);
	ASSERT_GE(member, 0);
	EXPECT_EQ(-1, open_generic(&self->atom, PERF_TYPE_HARDWARE,
				   PERF_COUNT_HW_INSTRUCTIONS, sw));
	EXPECT_EQ(EINVAL, errno);
	close(member);
	close(sw);
}

/*
 * A software leader with a member of one kind: the group runs on that
 * kind, and waits, the leader too, on the other.
 */
TEST_F(hybrid, software_leader_runs_with_its_members_kind)
{
	struct value_times lead, mem, mem1;
	int sw, member;

	SKIP_UNLESS_HYBRID();
	sw = sw_event_open(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, true, 0, -1);
	ASSERT_GE(sw, 0);
	member = open_generic(&self->atom, PERF_TYPE_HARDWARE,
			      PERF_COUNT_HW_INSTRUCTIONS, sw);
	ASSERT_GE(member, 0);

	ASSERT_EQ(0, pin_to_cpu(self->core.first));
	ASSERT_EQ(0, count_loop(sw, N2, PERF_IOC_FLAG_GROUP, &lead));
	ASSERT_EQ(0, read_value_times(member, &mem));
	EXPECT_EQ(0, lead.running);
	EXPECT_EQ(0, lead.value);
	EXPECT_GT(lead.enabled, 0);
	EXPECT_EQ(0, mem.value);

	ASSERT_EQ(0, pin_to_cpu(self->atom.first));
	ASSERT_EQ(0, count_loop(sw, N1, PERF_IOC_FLAG_GROUP, &lead));
	ASSERT_EQ(0, read_value_times(member, &mem1));
	ASSERT_EQ(0, count_loop(sw, N2, PERF_IOC_FLAG_GROUP, &lead));
	ASSERT_EQ(0, read_value_times(member, &mem));
	EXPECT_GT(lead.running, 0);
	EXPECT_GT(lead.value, 0);
	EXPECT_EQ((N2 - N1) * HW_LOOP_INSNS, mem.value - mem1.value);
	close(member);
	close(sw);
}

/*
 * Anywhere with a hardware PMU: a generic event naming the tracepoint
 * PMU in its config is refused; naming PERF_TYPE_RAW, it is the cpu (or
 * cpu_core) PMU's; naming the software PMU, a hardware PMU's as if it
 * named none (where every hybrid PMU has CPUs: 6.1 asks the last one
 * registered first, and a cpu_atom without CPUs fails with ENOMEM).
 */
TEST(extended_types)
{
	const __u32 types[] = { PERF_TYPE_RAW, PERF_TYPE_SOFTWARE };
	struct perf_event_attr attr;
	int fd, i;

	if (!hw_pmu_present() && !hybrid_present())
		SKIP(return, NO_HW_PMU);
	hw_attr_init(&attr, PERF_TYPE_HARDWARE,
		     (__u64)PERF_TYPE_TRACEPOINT << 32 |
		     PERF_COUNT_HW_INSTRUCTIONS);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(ENOENT, errno);

	hw_attr_init(&attr, PERF_TYPE_HW_CACHE,
		     (__u64)PERF_TYPE_TRACEPOINT << 32 |
		     PERF_COUNT_HW_CACHE_L1D);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(ENOENT, errno);

	for (i = 0; i < 2; i++) {
		if (types[i] == PERF_TYPE_SOFTWARE && hybrid_present() &&
		    !hybrid_usable())
			continue;
		hw_attr_init(&attr, PERF_TYPE_HARDWARE,
			     (__u64)types[i] << 32 | PERF_COUNT_HW_INSTRUCTIONS);
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		EXPECT_GE(fd, 0) TH_LOG("type %u: %s", types[i],
					strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

TEST_HARNESS_MAIN
