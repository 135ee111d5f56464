// SPDX-License-Identifier: GPL-2.0
/*
 * AMD's Instruction-Based Sampling: the ibs_op and ibs_fetch PMUs
 * (/sys/bus/event_source/devices/ibs_*), on a CPU whose CPUID offers
 * IBS (Fn8000_0001 ECX[10]).
 *
 * What 6.1 does, and ours must: a dynamic type each, format/cnt_ctl
 * (config:19) where the CPU counts cycles, format/rand_en (config:57),
 * a caps directory; CPU-wide sampling events only (per-task, counting
 * and exclude_* events, config bits IBS does not have, and a maximum
 * count beside a sample period are EINVAL); the period a multiple of
 * 16; in a group only with its own PMU's and software events.  AMD's
 * precise cycles (cycles:p, :pp) are ibs_op events; :ppp is EOPNOTSUPP,
 * other precise events ENOENT.
 *
 * A sample's IP is the tagged instruction's, exact; with
 * PERF_SAMPLE_RAW it carries the capabilities and the registers (an
 * op's seven and its branch target, a fetch's three), the second being
 * the IP.  A sampled load or store of the test's own loop has its data
 * address, physical address and a data source saying which it was,
 * and where the data came from (the emulation's caches: an L1 hit, a
 * miss to the DRAM, with its latency as the weight).  A CPU back on
 * line samples.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "pmu_sysfs.h"
#include "../kselftest_harness.h"

#define IBS_DIR(pmu)	PMU_SYSFS_DIR pmu "/"
#define CAPS_OPCNT	(1u << 4)
#define CAPS_BRNTRGT	(1u << 5)
#define CAPS_OPDATA4	(1u << 10)
#define CAPS_EXTD	(1u << 9)
#define OP_CNT_CTL	(1ULL << 19)
#define FETCH_RAND_EN	(1ULL << 57)
#define PERIOD		0x10000ULL
#define ROUNDS		10
/* Nothing known of a memory access (the kernel's PERF_MEM_NA). */
#define MEM_NA		(PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) |	\
			 PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) |	\
			 PERF_MEM_S(TLB, NA))
#define LOOPS		1000000UL

/*
 * n iterations of a load from mem[0] and a store to mem[1]: five
 * instructions, so that a period (a multiple of 16 ops) tags each of
 * them in turn rather than one of them every time.
 */
void ibs_loop(unsigned long n, unsigned long *mem);
extern char ibs_loop_load[], ibs_loop_store[], ibs_loop_end[];
asm(".pushsection .text\n"
	".globl ibs_loop, ibs_loop_load, ibs_loop_store, ibs_loop_end\n"
	".type ibs_loop, @function\n"
	"ibs_loop:\n"
	"ibs_loop_load:\n"
	"	mov (%rsi), %rax\n"
	"ibs_loop_store:\n"
	"	mov %rax, 8(%rsi)\n"
	"	nop\n"
	"	dec %rdi\n"
	"	jnz ibs_loop\n"
	"ibs_loop_end:\n"
	"	ret\n"
	".size ibs_loop, . - ibs_loop\n"
	".popsection\n");

static unsigned long loop_mem[2];

/*
 * n loads walking @buf (of a power of two bytes, @mask its size less
 * one) a page and a line at a time: each a new line and a new page, a
 * miss of the data cache and, in a buffer larger than the last level,
 * of every cache.
 */
void ibs_walk(unsigned long n, char *buf, unsigned long mask);
extern char ibs_walk_load[];
asm(".pushsection .text\n"
	".globl ibs_walk, ibs_walk_load\n"
	".type ibs_walk, @function\n"
	"ibs_walk:\n"
	"	xor %ecx, %ecx\n"
	"1:\n"
	"ibs_walk_load:\n"
	"	mov (%rsi,%rcx), %rax\n"
	"	add $4160, %rcx\n"
	"	and %rdx, %rcx\n"
	"	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".size ibs_walk, . - ibs_walk\n"
	".popsection\n");

#define WALK_BYTES	(64UL << 20)

/* CPUID Fn8000_001B EAX, or 0 where the CPU offers no IBS. */
static unsigned int cpu_ibs_caps(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000001, &a, &b, &c, &d) || !(c & (1u << 10)))
		return 0;
	if (__get_cpuid_max(0x80000000, NULL) < 0x8000001b)
		return 0x7;
	__cpuid(0x8000001b, a, b, c, d);
	return a;
}

/* The registers of an op's raw sample: seven, and those the CPU adds. */
static unsigned int op_raw_regs(unsigned int caps)
{
	return 7 + !!(caps & CAPS_BRNTRGT) + !!(caps & CAPS_OPDATA4);
}

static int ibs_type(const char *pmu)
{
	int type;

	return pmu_sysfs_read(pmu, "type", &type) ? -1 : type;
}

static void ibs_attr(struct perf_event_attr *attr, int type, __u64 config,
		     __u64 period)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->sample_period = period;
	attr->disabled = 1;
}

static int open_errno_group(struct perf_event_attr *attr, int group)
{
	int fd = sys_perf_event_open(attr, -1, 0, group, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

FIXTURE(ibs) {
	unsigned int caps;
	int op, fetch;
	const char *skip;
};

FIXTURE_SETUP(ibs)
{
	self->caps = cpu_ibs_caps();
	self->op = ibs_type("ibs_op");
	self->fetch = ibs_type("ibs_fetch");
	if (!self->caps) {
		self->skip = "the CPU offers no IBS";
		return;
	}
	/* The CPU offers it: both PMUs must be there. */
	ASSERT_LE(0, self->op);
	ASSERT_LE(0, self->fetch);
	ASSERT_EQ(0, pin_to_cpu(0));
}

FIXTURE_TEARDOWN(ibs)
{
}

TEST_F(ibs, sysfs)
{
	char buf[64];

	if (self->skip)
		SKIP(return, "%s", self->skip);
	EXPECT_GE(self->op, PERF_TYPE_MAX);
	EXPECT_GE(self->fetch, PERF_TYPE_MAX);
	EXPECT_NE(self->op, self->fetch);
	ASSERT_EQ(0, read_small_file(IBS_DIR("ibs_fetch") "format/rand_en",
				     buf, sizeof(buf)));
	EXPECT_STREQ("config:57\n", buf);
	EXPECT_EQ(!!(self->caps & CAPS_OPCNT),
		  !read_small_file(IBS_DIR("ibs_op") "format/cnt_ctl", buf,
				   sizeof(buf)));
	if (self->caps & CAPS_OPCNT)
		EXPECT_STREQ("config:19\n", buf);
	EXPECT_EQ(0, access(IBS_DIR("ibs_op") "caps", F_OK));
	EXPECT_EQ(0, access(IBS_DIR("ibs_fetch") "caps", F_OK));
	/* Every CPU has its own sampler: no cpumask. */
	EXPECT_NE(0, access(IBS_DIR("ibs_op") "cpumask", F_OK));
}

/* What both PMUs refuse, and take. */
TEST_F(ibs, refused)
{
	struct perf_event_attr a;
	int i, types[2] = { self->op, self->fetch };

	if (self->skip)
		SKIP(return, "%s", self->skip);
	for (i = 0; i < 2; i++) {
		int t = types[i];

		ibs_attr(&a, t, 0, PERIOD);
		EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
		EXPECT_EQ(EINVAL, perf_open_errno(&a, 0, -1));
		EXPECT_EQ(EINVAL, perf_open_errno(&a, 0, 0));
		a.exclude_kernel = 1;
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		ibs_attr(&a, t, 0, PERIOD);
		a.exclude_user = 1;
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		ibs_attr(&a, t, 0, PERIOD);
		a.exclude_idle = 1;
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		/* Counting: IBS only samples. */
		ibs_attr(&a, t, 0, 0);
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		/* A maximum count is a period, but not beside one. */
		ibs_attr(&a, t, 0x1000, 0);
		EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
		ibs_attr(&a, t, 0x1000, PERIOD);
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		/* Bits IBS does not have, or that are the driver's. */
		ibs_attr(&a, t, 1ULL << 63, PERIOD);
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		ibs_attr(&a, t, 1ULL << 17, PERIOD);
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		ibs_attr(&a, t, 1ULL << 48, PERIOD);
		EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
		/* Short periods are lengthened, frequencies taken. */
		ibs_attr(&a, t, 0, 8);
		EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
		ibs_attr(&a, t, 0, 100);
		a.freq = 1;
		EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
	}
	ibs_attr(&a, self->fetch, FETCH_RAND_EN, PERIOD);
	EXPECT_EQ(0, perf_open_errno(&a, -1, 0));
	ibs_attr(&a, self->op, OP_CNT_CTL, PERIOD);
	EXPECT_EQ(self->caps & CAPS_OPCNT ? 0 : EINVAL,
		  perf_open_errno(&a, -1, 0));
	/* rand_en is fetch's, cnt_ctl op's. */
	ibs_attr(&a, self->op, FETCH_RAND_EN, PERIOD);
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	ibs_attr(&a, self->fetch, OP_CNT_CTL, PERIOD);
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
}

/* Its own PMU's events and software events only. */
TEST_F(ibs, groups)
{
	struct perf_event_attr op, other;
	int lead;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ibs_attr(&op, self->op, 0, PERIOD);
	lead = sys_perf_event_open(&op, -1, 0, -1, 0);
	ASSERT_LE(0, lead);
	EXPECT_EQ(0, open_errno_group(&op, lead));
	sw_attr_init(&other, PERF_COUNT_SW_CPU_CLOCK);
	EXPECT_EQ(0, open_errno_group(&other, lead));
	ibs_attr(&other, self->fetch, 0, PERIOD);
	EXPECT_EQ(EINVAL, open_errno_group(&other, lead));
	ibs_attr(&other, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0);
	EXPECT_EQ(EINVAL, open_errno_group(&other, lead));
	close(lead);

	lead = sys_perf_event_open(&other, -1, 0, -1, 0);
	ASSERT_LE(0, lead);
	EXPECT_EQ(EINVAL, open_errno_group(&op, lead));
	close(lead);
	sw_attr_init(&other, PERF_COUNT_SW_CPU_CLOCK);
	lead = sys_perf_event_open(&other, -1, 0, -1, 0);
	ASSERT_LE(0, lead);
	EXPECT_EQ(0, open_errno_group(&op, lead));
	close(lead);
}

/*
 * Run the loop on this CPU (0) with @fd enabled, a round at a time,
 * collecting the samples in @ss until @enough says there are enough.
 */
static void run_loop(struct __test_metadata *_metadata, int fd,
		     struct ring *r, struct samples *ss,
		     bool (*enough)(struct samples *))
{
	int i;

	for (i = 0; i < ROUNDS && !enough(ss); i++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		ibs_loop(LOOPS, loop_mem);
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, ring_collect(r, ss));
	}
}

static bool in_loop(__u64 ip)
{
	return ip >= (uintptr_t)ibs_loop && ip < (uintptr_t)ibs_loop_end;
}

static int loop_samples(struct samples *ss, __u64 ip)
{
	int i, n = 0;

	for (i = 0; i < ss->kept; i++)
		n += ip ? ss->s[i].ip == ip : in_loop(ss->s[i].ip);
	return n;
}

static bool enough_ops(struct samples *ss)
{
	return loop_samples(ss, (uintptr_t)ibs_loop_load) >= 3 &&
	       loop_samples(ss, (uintptr_t)ibs_loop_store) >= 3;
}

static bool enough_fetches(struct samples *ss)
{
	return loop_samples(ss, 0) >= 10;
}

/* The raw sample: caps, then the registers; the second is the IP. */
static void check_raw(struct __test_metadata *_metadata,
		      const struct sample *s, unsigned int caps,
		      unsigned int nr_regs)
{
	__u64 reg1;
	__u32 c;

	ASSERT_EQ(sizeof(__u32) + nr_regs * sizeof(__u64), s->raw_size);
	memcpy(&c, s->raw, sizeof(c));
	EXPECT_EQ(caps, c);
	memcpy(&reg1, s->raw + sizeof(__u32) + sizeof(__u64), sizeof(reg1));
	EXPECT_EQ(s->ip, reg1);
}

/*
 * ibs_op's samples of the loop: exact IPs of its instructions; the load
 * and the store with their addresses and data sources.
 */
TEST_F(ibs, op_samples)
{
	__u64 type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
		     PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW |
		     PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR;
	unsigned int nr_regs, loads = 0, stores = 0, i;
	static struct samples ss;
	struct perf_event_attr a;
	union perf_mem_data_src d;
	struct ring r;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	nr_regs = op_raw_regs(self->caps);
	/* A period not a multiple of 16: rounded down. */
	ibs_attr(&a, self->op, 0, PERIOD + 8);
	a.sample_type = type;
	fd = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 64));
	samples_init(&ss, &a, 1);
	run_loop(_metadata, fd, &r, &ss, enough_ops);
	EXPECT_EQ(0, ss.bad);
	ASSERT_TRUE(enough_ops(&ss)) {
		TH_LOG("%d samples, %d in the loop, %d of its load, %d of its store",
		       ss.kept, loop_samples(&ss, 0),
		       loop_samples(&ss, (uintptr_t)ibs_loop_load),
		       loop_samples(&ss, (uintptr_t)ibs_loop_store));
	}
	for (i = 0; i < (unsigned int)ss.kept; i++) {
		const struct sample *s = &ss.s[i];

		EXPECT_TRUE(ss.misc[i] & PERF_RECORD_MISC_EXACT_IP);
		EXPECT_EQ(PERIOD, s->period);
		check_raw(_metadata, s, self->caps, nr_regs);
		if (!in_loop(s->ip))
			continue;
		EXPECT_EQ((__u32)getpid(), s->tid);
		EXPECT_EQ(PERF_RECORD_MISC_USER,
			  ss.misc[i] & PERF_RECORD_MISC_CPUMODE_MASK);
		d.val = s->data_src;
		if (s->ip == (uintptr_t)ibs_loop_load) {
			loads++;
			EXPECT_EQ((uintptr_t)&loop_mem[0], s->addr);
			EXPECT_EQ(PERF_MEM_OP_LOAD, (__u64)d.mem_op);
			EXPECT_NE(0, s->phys_addr);
		} else if (s->ip == (uintptr_t)ibs_loop_store) {
			stores++;
			EXPECT_EQ((uintptr_t)&loop_mem[1], s->addr);
			EXPECT_EQ(PERF_MEM_OP_STORE, (__u64)d.mem_op);
			EXPECT_NE(0, s->phys_addr);
		} else {
			/* Neither loads nor stores. */
			EXPECT_EQ(0, s->addr);
			EXPECT_EQ(0, s->phys_addr);
			EXPECT_EQ(MEM_NA, s->data_src);
		}
	}
	EXPECT_LE(3, loads);
	EXPECT_LE(3, stores);
	samples_free(&ss);
	ring_unmap(&r);
	close(fd);
}

static int walk_loads(struct samples *ss)
{
	return loop_samples(ss, (uintptr_t)ibs_walk_load);
}

/*
 * Where a sampled load's data came from: the loop's load of a line it
 * never leaves hits the L1 with no weight; the walk's loads, each of a
 * line and a page not touched since the walk last came by, miss it, and
 * with a buffer of four times the last level, some are served by the
 * DRAM (the emulation's latencies give them a weight: their cycles).
 * As 6.1 encodes them: levels as bits, no level number, no snoop.
 */
TEST_F(ibs, op_data_sources)
{
	__u64 type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
		     PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT;
	__u64 hit = PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT;
	__u64 dram = PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT;
	unsigned int hits = 0, walked = 0, drams = 0, i, round;
	static struct samples ss;
	struct perf_event_attr a;
	union perf_mem_data_src d;
	struct ring r;
	char *buf;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	buf = mmap(NULL, WALK_BYTES, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	memset(buf, 1, WALK_BYTES);
	ibs_attr(&a, self->op, 0, PERIOD);
	a.sample_type = type;
	fd = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 64));
	samples_init(&ss, &a, 1);
	/* A round's samples looked at, then dropped: most are not ours. */
	for (round = 0; round < ROUNDS && (hits < 3 || walked < 10); round++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		ibs_walk(LOOPS, buf, WALK_BYTES - 1);
		ibs_loop(LOOPS / 2, loop_mem);
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, ring_collect(&r, &ss));
		EXPECT_EQ(0, ss.bad);
		for (i = 0; i < (unsigned int)ss.kept; i++) {
			const struct sample *s = &ss.s[i];

			d.val = s->data_src;
			if (s->ip == (uintptr_t)ibs_loop_load) {
				hits++;
				EXPECT_EQ(hit, (__u64)d.mem_lvl);
				EXPECT_EQ(0, s->weight);
			} else if (s->ip == (uintptr_t)ibs_walk_load) {
				walked++;
				EXPECT_LE((uintptr_t)buf, s->addr);
				EXPECT_GT((uintptr_t)buf + WALK_BYTES, s->addr);
				EXPECT_EQ(PERF_MEM_OP_LOAD, (__u64)d.mem_op);
				/* A new line every time: never in the L1. */
				EXPECT_FALSE(d.mem_lvl & PERF_MEM_LVL_L1);
				EXPECT_LT(0, s->weight);
				EXPECT_EQ(0, (__u64)d.mem_lvl_num);
				EXPECT_EQ(PERF_MEM_SNOOP_NA, (__u64)d.mem_snoop);
				drams += d.mem_lvl == dram;
			} else {
				continue;
			}
			EXPECT_EQ(PERF_MEM_LOCK_NA, (__u64)d.mem_lock);
		}
		samples_free(&ss);
	}
	EXPECT_LE(3, hits);
	EXPECT_LE(10, walked);
	EXPECT_LE(1, drams) {
		TH_LOG("of %u loads of the walk, none served by the DRAM",
		       walked);
	}
	ring_unmap(&r);
	close(fd);
	munmap(buf, WALK_BYTES);
}

/* ibs_fetch's: the fetched instruction's address, exact. */
TEST_F(ibs, fetch_samples)
{
	static struct samples ss;
	struct perf_event_attr a;
	unsigned int i;
	struct ring r;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ibs_attr(&a, self->fetch, 0, PERIOD);
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_RAW;
	fd = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 64));
	samples_init(&ss, &a, 1);
	run_loop(_metadata, fd, &r, &ss, enough_fetches);
	EXPECT_EQ(0, ss.bad);
	ASSERT_TRUE(enough_fetches(&ss));
	for (i = 0; i < (unsigned int)ss.kept; i++) {
		EXPECT_TRUE(ss.misc[i] & PERF_RECORD_MISC_EXACT_IP);
		/* A fetch has no data address. */
		EXPECT_EQ(0, ss.s[i].addr);
		check_raw(_metadata, &ss.s[i], self->caps,
			  3 + !!(self->caps & CAPS_EXTD));
	}
	samples_free(&ss);
	ring_unmap(&r);
	close(fd);
}

/*
 * Precise cycles are ibs_op's: a CPU-wide cycles:pp event samples with
 * ibs_op's raw samples and exact IPs.
 */
TEST_F(ibs, precise_cycles)
{
	unsigned int nr_regs = op_raw_regs(self->caps);
	static struct samples ss;
	struct perf_event_attr a;
	struct ring r;
	int fd, i;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ibs_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, PERIOD);
	a.precise_ip = 3;
	EXPECT_EQ(EOPNOTSUPP, perf_open_errno(&a, -1, 0));
	a.precise_ip = 1;
	/* As an ibs_op event: no task events, no counting, no exclude_*. */
	EXPECT_EQ(EINVAL, perf_open_errno(&a, 0, -1));
	a.exclude_kernel = 1;
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	a.exclude_kernel = 0;
	a.sample_period = 0;
	EXPECT_EQ(EINVAL, perf_open_errno(&a, -1, 0));
	/* Other events have no precise mode. */
	ibs_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, PERIOD);
	a.precise_ip = 1;
	EXPECT_EQ(ENOENT, perf_open_errno(&a, -1, 0));
	/* The raw event of cycles too. */
	ibs_attr(&a, PERF_TYPE_RAW, 0x76, PERIOD);
	a.precise_ip = 1;
	EXPECT_EQ(0, perf_open_errno(&a, -1, 0));

	ibs_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, PERIOD);
	a.precise_ip = 2;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	fd = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 64));
	samples_init(&ss, &a, 1);
	run_loop(_metadata, fd, &r, &ss, enough_fetches);
	ASSERT_TRUE(enough_fetches(&ss));
	for (i = 0; i < ss.kept; i++) {
		EXPECT_TRUE(ss.misc[i] & PERF_RECORD_MISC_EXACT_IP);
		check_raw(_metadata, &ss.s[i], self->caps, nr_regs);
	}
	samples_free(&ss);
	ring_unmap(&r);
	close(fd);
}

/*
 * A CPU that went off line and came back samples: its LVT entry is
 * pointed at the NMI again as it comes up.
 */
TEST_F(ibs, cpu_back_on_line)
{
	static struct samples ss;
	struct perf_event_attr a;
	char online[64];
	struct ring r;
	int fd;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	cpu_online_path(1, online, sizeof(online));
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || access(online, W_OK))
		SKIP(return, "CPU 1 cannot go off line");
	ASSERT_EQ(0, cpu_set_online(1, 0));
	ASSERT_EQ(0, cpu_set_online(1, 1));
	ASSERT_EQ(0, pin_to_cpu(1));
	ibs_attr(&a, self->op, 0, PERIOD);
	a.sample_type = PERF_SAMPLE_IP;
	fd = sys_perf_event_open(&a, -1, 1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd, 64));
	samples_init(&ss, &a, 1);
	run_loop(_metadata, fd, &r, &ss, enough_fetches);
	EXPECT_TRUE(enough_fetches(&ss));
	samples_free(&ss);
	ring_unmap(&r);
	close(fd);
}

/*
 * A throttled event given a new period stays stopped until the tick
 * starts it again (a second start would WARN, and the harness fails a
 * boot with a splat); after, it counts on.
 */
TEST_F(ibs, period_while_throttled)
{
	const char *rate = "/proc/sys/kernel/perf_event_max_sample_rate";
	const char *pct = "/proc/sys/kernel/perf_cpu_time_max_percent";
	int old_rate, old_pct, fd, i;
	struct perf_event_attr a;
	__u64 big = 1ULL << 26, before, after;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_EQ(0, read_int_file(rate, &old_rate));
	ASSERT_EQ(0, read_int_file(pct, &old_pct));
	/* A few samples a tick at most; the rate is fixed while pct is 0. */
	ASSERT_EQ(0, write_int_file(pct, 25));
	ASSERT_EQ(0, write_int_file(rate, 1000));
	ibs_attr(&a, self->op, 0, 16);
	fd = sys_perf_event_open(&a, -1, 0, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 50; i++) {
		ibs_loop(LOOPS / 100, loop_mem);
		EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &big));
		big = big == 1ULL << 26 ? 16 : 1ULL << 26;
	}
	ASSERT_EQ(0, read_value(fd, &before));
	ibs_loop(10 * LOOPS, loop_mem);
	ASSERT_EQ(0, read_value(fd, &after));
	EXPECT_LT(before, after);
	close(fd);
	write_int_file(rate, old_rate);
	write_int_file(pct, old_pct);
}

/*
 * The count: whole periods at least, for each sample.  Two events take
 * turns on the one sampler, each running part of the time.
 */
TEST_F(ibs, count_and_turns)
{
	struct perf_event_attr a;
	struct value_times v[2];
	int fd[2], i;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	ibs_attr(&a, self->op, 0, PERIOD);
	a.read_format = RF_TIMES;
	for (i = 0; i < 2; i++) {
		fd[i] = sys_perf_event_open(&a, -1, 0, -1, 0);
		ASSERT_LE(0, fd[i]);
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0));
	}
	ibs_loop(10 * LOOPS, loop_mem);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, read_value_times(fd[i], &v[i]));
	for (i = 0; i < 2; i++) {
		EXPECT_LT(0, v[i].value);
		EXPECT_LT(0, v[i].running);
		EXPECT_LT(v[i].running, v[i].enabled);
		close(fd[i]);
	}
}

TEST_HARNESS_MAIN
