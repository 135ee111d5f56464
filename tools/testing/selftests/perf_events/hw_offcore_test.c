// SPDX-License-Identifier: GPL-2.0
/*
 * OFFCORE_RESPONSE: raw events 0x01b7 and 0x01bb, which count the
 * requests that leave the core (that missed L2) of the kinds, answered
 * in the ways, that MSR_OFFCORE_RSP_0 or _1 selects; attr.config1 is
 * what the register gets (the format/offcore_rsp field).  On Intel's
 * cores from Nehalem (Nehalem's request types and responses, in one
 * register; Sandy Bridge's to Ice Lake's, in two), where the register
 * is there (the harness's emulated flavours from nehalem to icelake;
 * skipped where it is not, as under most hypervisors):
 *
 *  - a bit of config1 the kernel takes is one the register takes (a
 *    bit it faults on would fault in the kernel); bits above the
 *    register's fields are refused with EINVAL, as is a config1 of all
 *    ones;
 *  - loads that miss L2 count as demand data reads and stores as RFOs,
 *    one a line of an array of twice L2's size walked again and again,
 *    each event in one register of a group of two: the second event's
 *    other value moves it to the second register (its event select
 *    becomes 0x01bb), and the registers hold what the events asked for,
 *    in the order they were added, while the group counts on CPU 0;
 *  - events that ask the same of the register share it; a group asking
 *    three things of two registers (two of one) is refused with EINVAL;
 *    a CPU-wide pinned event that finds both taken is put in error
 *    state (read() returns 0 bytes);
 *  - the LLC-loads cache event ignores config1 (the register holds the
 *    model's value);
 *  - the load-latency event's threshold (MEM_TRANS_RETIRED.LOAD_LATENCY,
 *    Nehalem's MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD) has 16 bits:
 *    bit 16 is refused with EINVAL whether or not its register is there.
 *
 * Needs the msr driver (CONFIG_X86_MSR) and root, for the CPU-wide
 * events.  Linux 6.1 passes it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "hw_test_util.h"
#include "hw_msr_util.h"
#include "../kselftest_harness.h"
#include "hw_cache_util.h"

#define MSR_EVTSEL0		0x186
#define MSR_OFFCORE_RSP_0	0x1a6
#define MSR_OFFCORE_RSP_1	0x1a7
#define EVTSEL_EN		(1ULL << 22)
#define EVTSEL_CODE		0xffffULL

#define OFFCORE_RESPONSE_0	0x01b7
#define OFFCORE_RESPONSE_1	0x01bb

/* Request types, in both layouts. */
#define DMND_DATA_RD		(1ULL << 0)
#define DMND_RFO		(1ULL << 1)

/* A raw event with config1, disabled, on @pid and @cpu, in @group. */
static int open_rsp(__u64 config, __u64 config1, pid_t pid, int cpu,
		    int group, bool pinned)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_RAW;
	attr.config = config;
	attr.config1 = config1;
	attr.exclude_kernel = 1;
	attr.disabled = group < 0;
	attr.pinned = pinned && group < 0;
	attr.read_format = PERF_FORMAT_GROUP;
	return sys_perf_event_open(&attr, pid, cpu, group, 0);
}

FIXTURE(offcore) {
	const char *missing;
	bool nehalem;		/* Nehalem's layout; and one register */
	bool two;		/* MSR_OFFCORE_RSP_1 too */
	__u64 any;		/* any response */
};

FIXTURE_SETUP(offcore)
{
	unsigned int family, model;

	self->missing = NULL;
	hw_cpu_family_model(&family, &model);
	if (!hw_pmu_present()) {
		self->missing = NO_HW_PMU;
		return;
	}
	if (hw_vendor() != HW_VENDOR_INTEL || family != 6 ||
	    hw_model_atom(model) || hw_model_bonnell(model)) {
		self->missing = "not an Intel core with a known offcore layout";
		return;
	}
	msr_fd = open("/dev/cpu/0/msr", O_RDWR);
	if (msr_fd < 0) {
		self->missing = "no /dev/cpu/0/msr (CONFIG_X86_MSR, root)";
		return;
	}
	if (!msr_holds(MSR_OFFCORE_RSP_0)) {
		self->missing = "no MSR_OFFCORE_RSP_0 (older core, or a hypervisor)";
		return;
	}
	self->nehalem = hw_model_nehalem(model);
	/* Nehalem has one register; Westmere, with the same layout, two. */
	self->two = msr_holds(MSR_OFFCORE_RSP_1);
	/* Nehalem's responses are bits 15:8; later, bit 16 is any. */
	self->any = self->nehalem ? 0xff00 : 1ULL << 16;
}

FIXTURE_TEARDOWN(offcore)
{
	if (msr_fd >= 0)
		close(msr_fd);
	msr_fd = -1;
}

#define NEED_OFFCORE() do {					\
	if (self->missing)					\
		SKIP(return, "%s", self->missing);		\
} while (0)

TEST_F(offcore, config1_bits)
{
	__u64 old, bit, taken = 0;
	int b, fd;

	NEED_OFFCORE();
	ASSERT_EQ(0, rdmsr(MSR_OFFCORE_RSP_0, &old));
	for (b = 0; b < 64; b++) {
		bit = 1ULL << b;
		fd = open_rsp(OFFCORE_RESPONSE_0, bit, 0, -1, -1, false);
		if (fd < 0) {
			EXPECT_EQ(EINVAL, errno) TH_LOG("bit %d", b);
			continue;
		}
		close(fd);
		taken |= bit;
		EXPECT_EQ(0, wrmsr(MSR_OFFCORE_RSP_0, bit)) {
			TH_LOG("bit %d: taken, and the register faults", b);
		}
	}
	ASSERT_EQ(0, wrmsr(MSR_OFFCORE_RSP_0, old));
	TH_LOG("config1 bits taken: %#llx", (unsigned long long)taken);
	/* The request types and responses the test counts with. */
	EXPECT_EQ(DMND_DATA_RD | DMND_RFO | self->any,
		  taken & (DMND_DATA_RD | DMND_RFO | self->any));
	/* Nehalem's 16 bits; at most 38 later. */
	EXPECT_EQ(0, taken >> (self->nehalem ? 16 : 38));
	EXPECT_GT(0, open_rsp(OFFCORE_RESPONSE_0, ~0ULL, 0, -1, -1, false));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * The group's two counts over @passes walks: loads (or stores) of an
 * array a line at a time.
 */
static int group_counts(int leader, struct walk *w, unsigned long passes,
			__u64 *v)
{
	__u64 buf[3];

	if (ioctl(leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) ||
	    ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
		return -1;
	w->loop.fn(passes, w->loop.arg);
	if (ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) ||
	    read(leader, buf, sizeof(buf)) != sizeof(buf) || buf[0] != 2)
		return -1;
	v[0] = buf[1];
	v[1] = buf[2];
	return 0;
}

/*
 * Walk an array of twice L2's size with loads, then with stores, and
 * count with a group of demand data reads (@leader) and RFOs: a load
 * each line missed L2 is a read, a store an RFO.  By the difference of
 * 1 and 3 walks, within 1% (and the lines that stay in L2).
 */
static void expect_reads_and_rfos(struct __test_metadata *_metadata,
				  int leader)
{
	size_t size = 2 * cache_size(2);
	__u64 lines, expected, c1[2], c3[2];
	long kept;
	struct walk w;
	int stores;

	ASSERT_EQ(0, pin_to_cpu(0));
	for (stores = 0; stores < 2; stores++) {
		ASSERT_EQ(0, walk_init(&w, size, stores));
		lines = size / LINE;
		kept = walk_lines_kept(&w, 2);
		kept = kept < 0 ? 0 : kept;
		ASSERT_EQ(0, group_counts(leader, &w, 1, c1));
		ASSERT_EQ(0, group_counts(leader, &w, 1, c1));
		ASSERT_EQ(0, group_counts(leader, &w, 3, c3));
		walk_fini(&w);
		expected = 2 * (lines - kept);
		TH_LOG("%s: reads %llu, RFOs %llu for %llu lines (%ld kept)",
		       stores ? "stores" : "loads",
		       (unsigned long long)(c3[0] - c1[0]),
		       (unsigned long long)(c3[1] - c1[1]),
		       (unsigned long long)(2 * lines), kept);
		EXPECT_GE(c3[stores] - c1[stores], expected * 99 / 100);
		EXPECT_LE(c3[stores] - c1[stores], 2 * lines + 2 * lines / 100);
		EXPECT_LE(c3[!stores] - c1[!stores], 2 * lines / 100);
	}
}

TEST_F(offcore, reads_and_rfos)
{
	int leader, member;

	NEED_OFFCORE();
	if (!cache_size(2))
		SKIP(return, "no L2 in sysfs");
	leader = open_rsp(OFFCORE_RESPONSE_0, DMND_DATA_RD | self->any, 0,
			  -1, -1, false);
	ASSERT_LE(0, leader) TH_LOG("%s", strerror(errno));
	member = open_rsp(OFFCORE_RESPONSE_0, DMND_RFO | self->any, 0, -1,
			  leader, false);
	if (!self->two) {
		/* One register, two values: never together. */
		EXPECT_GT(0, member);
		EXPECT_EQ(EINVAL, errno);
		close(leader);
		SKIP(return, "one offcore response register");
	}
	ASSERT_LE(0, member) TH_LOG("%s", strerror(errno));
	expect_reads_and_rfos(_metadata, leader);
	close(member);
	close(leader);
}

/*
 * The same group, CPU-wide on CPU 0 and counting: the two registers
 * hold what the two events asked, and the event selects name them.
 */
TEST_F(offcore, registers_while_counting)
{
	__u64 rsp[2], evtsel, code, want[2];
	unsigned int i, n = hw_gp_counters(), on[2] = { 0, 0 };
	int leader, member;

	NEED_OFFCORE();
	if (!self->two)
		SKIP(return, "one offcore response register");
	want[0] = DMND_DATA_RD | self->any;
	want[1] = DMND_RFO | self->any;
	leader = open_rsp(OFFCORE_RESPONSE_0, want[0], -1, 0, -1, true);
	ASSERT_LE(0, leader) TH_LOG("%s", strerror(errno));
	member = open_rsp(OFFCORE_RESPONSE_0, want[1], -1, 0, leader, true);
	ASSERT_LE(0, member) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, rdmsr(MSR_OFFCORE_RSP_0, &rsp[0]));
	ASSERT_EQ(0, rdmsr(MSR_OFFCORE_RSP_1, &rsp[1]));
	for (i = 0; i < n; i++) {
		if (rdmsr(MSR_EVTSEL0 + i, &evtsel) || !(evtsel & EVTSEL_EN))
			continue;
		code = evtsel & EVTSEL_CODE;
		on[0] += code == OFFCORE_RESPONSE_0;
		on[1] += code == OFFCORE_RESPONSE_1;
	}
	close(member);
	close(leader);
	EXPECT_EQ(want[0], rsp[0]);
	EXPECT_EQ(want[1], rsp[1]);
	/* The member moved to the second register, and to its event. */
	EXPECT_EQ(1, on[0]);
	EXPECT_EQ(1, on[1]);
}

TEST_F(offcore, sharing)
{
	__u64 v[3] = { DMND_DATA_RD | self->any, DMND_RFO | self->any,
		       DMND_DATA_RD | DMND_RFO | self->any };
	int leader, fd[3] = { -1, -1, -1 }, i;

	NEED_OFFCORE();
	leader = open_rsp(OFFCORE_RESPONSE_0, v[0], 0, -1, -1, false);
	ASSERT_LE(0, leader);
	if (!self->two) {
		/* One value: any number of events share the register. */
		fd[0] = open_rsp(OFFCORE_RESPONSE_0, v[0], 0, -1, leader, false);
		EXPECT_LE(0, fd[0]) TH_LOG("%s", strerror(errno));
		fd[1] = open_rsp(OFFCORE_RESPONSE_0, v[1], 0, -1, leader, false);
		EXPECT_GT(0, fd[1]);
		EXPECT_EQ(EINVAL, errno);
	} else {
		/* A second value: the second register. */
		fd[0] = open_rsp(OFFCORE_RESPONSE_0, v[1], 0, -1, leader, false);
		EXPECT_LE(0, fd[0]) TH_LOG("%s", strerror(errno));
		/* The first value again, asked of it: shares the first. */
		fd[1] = open_rsp(OFFCORE_RESPONSE_1, v[0], 0, -1, leader, false);
		EXPECT_LE(0, fd[1]) TH_LOG("%s", strerror(errno));
		/* A third: no place. */
		fd[2] = open_rsp(OFFCORE_RESPONSE_1, v[2], 0, -1, leader, false);
		EXPECT_GT(0, fd[2]);
		EXPECT_EQ(EINVAL, errno);
	}
	for (i = 0; i < 3; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	close(leader);
}

/*
 * CPU-wide pinned events on CPU 0, each of its own value: those beyond
 * the registers there are cannot be scheduled, and are put in error
 * state, which read() tells by returning nothing.
 */
TEST_F(offcore, pinned_beyond_the_registers)
{
	__u64 v[3] = { DMND_DATA_RD | self->any, DMND_RFO | self->any,
		       DMND_DATA_RD | DMND_RFO | self->any };
	__u64 buf[2];
	int fd[3], i, n = self->two ? 2 : 1;

	NEED_OFFCORE();
	for (i = 0; i <= n; i++) {
		fd[i] = open_rsp(OFFCORE_RESPONSE_0, v[i], -1, 0, -1, true);
		ASSERT_LE(0, fd[i]) TH_LOG("%s", strerror(errno));
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0));
	}
	for (i = 0; i <= n; i++) {
		ssize_t want = i < n ? sizeof(buf) : 0;

		EXPECT_EQ(want, read(fd[i], buf, sizeof(buf))) TH_LOG("event %d", i);
	}
	for (i = 0; i <= n; i++)
		close(fd[i]);
}

/* LLC-loads: the model's value in the register, whatever config1 says. */
TEST_F(offcore, cache_event_ignores_config1)
{
	struct perf_event_attr attr;
	__u64 rsp;
	int fd;

	NEED_OFFCORE();
	hw_attr_init(&attr, PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_LL |
		     (PERF_COUNT_HW_CACHE_OP_READ << 8) |
		     (PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16));
	attr.config1 = ~0ULL;
	attr.pinned = 1;
	fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, rdmsr(MSR_OFFCORE_RSP_0, &rsp));
	close(fd);
	EXPECT_NE(~0ULL, rsp);
	/* Demand data reads, answered one way or another. */
	EXPECT_TRUE(rsp & DMND_DATA_RD) TH_LOG("%#llx", (unsigned long long)rsp);
}

/* The load-latency threshold: 16 bits, its MSR there or not. */
TEST_F(offcore, load_latency_threshold)
{
	__u64 code = self->nehalem ? 0x100b : 0x01cd;
	int fd;

	NEED_OFFCORE();
	fd = open_rsp(code, 1ULL << 16, 0, -1, -1, false);
	EXPECT_GT(0, fd);
	EXPECT_EQ(EINVAL, errno);
	fd = open_rsp(code, 0xffff, 0, -1, -1, false);
	if (fd < 0) {
		EXPECT_EQ(ENXIO, errno) TH_LOG("%s", strerror(errno));
		return;
	}
	close(fd);
}

TEST_HARNESS_MAIN
