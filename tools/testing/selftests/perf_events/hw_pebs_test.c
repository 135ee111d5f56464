// SPDX-License-Identifier: GPL-2.0
/*
 * Precise sampling (precise_ip 1 up to caps/max_precise): on Intel's
 * PEBS, each sample has the registers as the instruction that overflowed
 * the counter left them, every period exactly; its IP is that
 * instruction's at precise_ip 2 and 3 (no skid), the next one's at 1 (a
 * constant skid: the record's trap-like IP, as 6.1 reports it).
 *
 * pebs_loop() increments RAX 32 times an iteration and counts RCX down
 * to zero, 34 instructions an iteration.  A sample whose IP is the k-th
 * increment of the iteration that RCX numbers has RAX one more than the
 * increments before it where that increment overflowed the counter and
 * completed (RAX = 32 * iteration + k + 1), and equal to them where the
 * one before did (precise_ip 1); and its place in the run, 34 *
 * iteration + k instructions in, is a whole number of periods after any
 * other sample's.  An IP one off, or registers from before or after the
 * instruction, break the first; a counter reloaded late, or a sample
 * lost, the second.  Except rarely: a task switched out one event short
 * of its sample comes back two short (both kernels never program a
 * counter one short of overflowing), so a few pairs may be a whole
 * number of periods and one apart.
 *
 * Each of instructions and cycles (the emulated PMU's model retires an
 * instruction a cycle: QEMU patch 19), at each precise level, once with
 * a sample type the PEBS buffer can hold many records of before its
 * interrupt (IP, REGS_INTR), once with a callchain, which needs an
 * interrupt at every record.
 *
 * The data address (PERF_SAMPLE_ADDR) of precise loads and stores
 * (ALL_LOADS and ALL_STORES, 0x81d0 and 0x82d0, where the PMU's
 * mem-stores event is the latter): pebs_mem_loop() copies one array to
 * another from the end, a load and a store an iteration; each sample's
 * IP is the load (or the store), its address the element that moved,
 * from the registers the sample has: 8 * (RCX - 1) past RSI (or RDX).
 *
 * Ice Lake's adaptive PEBS puts more in a record, where the event asks:
 * the XMM registers (PERF_SAMPLE_REGS_INTR's bits from 32: XMM0 and
 * XMM15, which pebs_xmm_loop() sets before the increments, read back as
 * set); skipped where they are refused (EINVAL, EOPNOTSUPP).  And the
 * branch stack, from the record's LBR group: each ends with the branch
 * that led to the sample's instruction (checked loosely: 6.1 filters
 * such stacks with whatever MSR_LBR_SELECT an earlier call-stack event
 * left on the CPU, as it does not write its own for them).
 *
 * A CPU's precise event that gathers records sees two tasks take turns
 * on its CPU: each sample has the TID of the task whose loop its IP is
 * in (the records are taken as a task switches out).
 *
 * Skipped where precise_ip is refused
 * (EOPNOTSUPP, EINVAL): the flavours without PEBS, and our kernel until
 * its driver has it.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"
#include "hw_asm_loop.h"

#define PEBS_INCS	32
#define PEBS_INSNS	(PEBS_INCS + 2)
#define PEBS_INC_SIZE	3		/* inc %rax: 48 ff c0 */
#define PEBS_LOOPS	10000UL

asm(".pushsection .text\n"
	".globl pebs_loop\n"
	".type pebs_loop, @function\n"
	"pebs_loop:\n"
	"	mov %rdi, %rcx\n"
	"	xor %eax, %eax\n"
	".globl pebs_incs\n"
	"pebs_incs:\n"
	"	.rept 32\n"
	"	inc %rax\n"
	"	.endr\n"
	".globl pebs_incs_end\n"
	"pebs_incs_end:\n"
	"	dec %rcx\n"
	"	jnz pebs_incs\n"
	"	ret\n"
	".globl pebs_loop_end\n"
	"pebs_loop_end:\n"
	".size pebs_loop, . - pebs_loop\n"
	".popsection\n");

void pebs_loop(unsigned long n, void *unused);
extern const char pebs_incs[], pebs_incs_end[], pebs_loop_end[];

/* pebs_loop() with XMM0 and XMM15 set from the 32 bytes at RSI. */
asm(".pushsection .text\n"
	".globl pebs_xmm_loop\n"
	".type pebs_xmm_loop, @function\n"
	"pebs_xmm_loop:\n"
	"	movdqu (%rsi), %xmm0\n"
	"	movdqu 16(%rsi), %xmm15\n"
	"	jmp pebs_loop\n"
	".size pebs_xmm_loop, . - pebs_xmm_loop\n"
	".popsection\n");

void pebs_xmm_loop(unsigned long n, void *xmms);

static const __u64 xmm_values[4] = {
	0x0123456789abcdefULL, 0xfedcba9876543210ULL,
	0x1122334455667788ULL, 0x99aabbccddeeff00ULL,
};

static const struct hw_asm_loop xmm_loop = {
	.fn = pebs_xmm_loop,
	.arg = (void *)xmm_values,
	.start = (uintptr_t)pebs_loop,
	.end = (uintptr_t)pebs_loop_end,
};

/* n iterations of: to[RCX - 1] = from[RCX - 1], from RSI to RDX. */
asm(".pushsection .text\n"
	".globl pebs_mem_loop\n"
	".type pebs_mem_loop, @function\n"
	"pebs_mem_loop:\n"
	"	mov %rdi, %rcx\n"
	"	mov 0(%rsi), %rdx\n"
	"	mov 8(%rsi), %rsi\n"
	".globl pebs_load\n"
	"pebs_load:\n"
	"	mov -8(%rsi,%rcx,8), %rax\n"
	".globl pebs_store\n"
	"pebs_store:\n"
	"	mov %rax, -8(%rdx,%rcx,8)\n"
	".globl pebs_mem_dec\n"
	"pebs_mem_dec:\n"
	"	dec %rcx\n"
	"	jnz pebs_load\n"
	"	ret\n"
	".globl pebs_mem_loop_end\n"
	"pebs_mem_loop_end:\n"
	".size pebs_mem_loop, . - pebs_mem_loop\n"
	".popsection\n");

void pebs_mem_loop(unsigned long n, void *arrays);
extern const char pebs_load[], pebs_store[], pebs_mem_dec[];
extern const char pebs_mem_loop_end[];

#define MEM_ELEMS	32768
#define MEM_PERIOD	211
static __u64 mem_from[MEM_ELEMS], mem_to[MEM_ELEMS];
/* pebs_mem_loop()'s argument: where to copy to, and from. */
static __u64 *mem_arrays[2] = { mem_to, mem_from };

static const struct hw_asm_loop mem_loop = {
	.fn = pebs_mem_loop,
	.arg = mem_arrays,
	.start = (uintptr_t)pebs_mem_loop,
	.end = (uintptr_t)pebs_mem_loop_end,
};

static const struct hw_asm_loop loop = {
	.fn = pebs_loop,
	.start = (uintptr_t)pebs_loop,
	.end = (uintptr_t)pebs_loop_end,
};

/* The registers sampled, in the order a sample has them. */
#define REG_AX		0
#define REG_CX		2
#define REGS_MASK	((1ULL << REG_AX) | (1ULL << REG_CX))
#define REG_DX		3
#define REG_SI		4
#define MEM_REGS_MASK	((1ULL << REG_CX) | (1ULL << REG_DX) | (1ULL << REG_SI))
/* XMM0 and XMM15, two words each (PERF_REG_X86_XMM0 is 32). */
#define XMM_REGS_MASK	((3ULL << 32) | (3ULL << 62))

#define MAX_PRECISE_PATH "/sys/bus/event_source/devices/cpu/caps/max_precise"

/* The core PMU's highest precise level, 0 where it does not say. */
static int precise_top(void)
{
	int v;

	if (read_int_file(MAX_PRECISE_PATH, &v))
		return 0;
	return v;
}

struct run {
	struct samples ss;
	__u64 count;
};

/* What a run samples, and over what. */
struct how {
	__u32 type;
	__u64 config;
	__u64 period;
	__u64 sample_type;	/* beside IP and REGS_INTR */
	__u64 regs;
	__u64 branches;		/* branch_sample_type */
	const struct hw_asm_loop *loop;
	unsigned long n;
};

/*
 * Sample as @how says at precise level @precise.  0; -1 if the level is
 * refused; -2 on another failure.
 */
static int pebs_run(struct __test_metadata *_metadata, struct run *run,
		    struct perf_event_attr *attr, const struct how *how,
		    int precise)
{
	int fd;

	hw_attr_init(attr, how->type, how->config);
	attr->sample_period = how->period;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_INTR |
			    how->sample_type;
	attr->sample_regs_intr = how->regs;
	attr->branch_sample_type = how->branches;
	attr->precise_ip = precise;
	fd = sys_perf_event_open(attr, 0, -1, -1, 0);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EINVAL))
		return -1;
	if (fd < 0) {
		TH_LOG("config %#llx precise_ip %d: %s", how->config, precise,
		       strerror(errno));
		return -2;
	}
	return hw_asm_sample(fd, attr, how->loop, how->n, &run->ss,
			     &run->count) ? -2 : 0;
}

/*
 * Sample as @how says at precise level @precise: false if the level is
 * refused; else the samples are in @run, each parsed, none lost.
 */
static bool level_run(struct __test_metadata *_metadata, struct run *run,
		      const struct how *how, int precise)
{
	struct perf_event_attr attr;
	int ret = pebs_run(_metadata, run, &attr, how, precise);

	if (ret == -1)
		return false;
	ASSERT_EQ(0, ret);
	EXPECT_EQ(0, run->ss.bad);
	EXPECT_EQ(0, run->ss.counts.type[PERF_RECORD_LOST]);
	return true;
}

/* What the samples of one run showed. */
struct exactness {
	int in_incs;		/* samples at an increment */
	int regs_agree;		/* ... whose RAX is as it left it */
	int pairs;		/* consecutive such samples */
	int whole_periods;	/* ... a whole number of periods apart */
	int one_over;		/* ... one more: restarted one short */
};

static void check_run(struct __test_metadata *_metadata,
		      const struct run *run, int precise, struct exactness *x)
{
	__u64 prev = 0;
	int i, have_prev = 0;

	for (i = 0; i < run->ss.kept; i++) {
		const struct sample *s = &run->ss.s[i];
		__u64 off, k, iteration, done, place;

		if (s->ip < (uintptr_t)pebs_incs ||
		    s->ip >= (uintptr_t)pebs_incs_end)
			continue;
		off = s->ip - (uintptr_t)pebs_incs;
		ASSERT_EQ(0, (int)(off % PEBS_INC_SIZE)) {
			TH_LOG("sample %d at %#llx: not an instruction", i,
			       s->ip);
		}
		ASSERT_NE(0, s->regs_intr_abi);
		k = off / PEBS_INC_SIZE;
		iteration = PEBS_LOOPS - s->regs_intr[1];
		/* The increments done: this one too where it is the event's. */
		done = iteration * PEBS_INCS + k + (precise > 1 ? 1 : 0);
		x->in_incs++;
		if (s->regs_intr[0] == done)
			x->regs_agree++;
		else if (x->in_incs - x->regs_agree <= 3)
			TH_LOG("sample %d: increment %llu of iteration %llu, RAX %llu",
			       i, k, iteration, s->regs_intr[0]);
		place = iteration * PEBS_INSNS + k;
		if (have_prev) {
			x->pairs++;
			if ((place - prev) % HW_ASM_PERIOD == 0)
				x->whole_periods++;
			else if ((place - prev) % HW_ASM_PERIOD == 1)
				x->one_over++;
			else if (x->pairs - x->whole_periods - x->one_over <= 3)
				TH_LOG("sample %d: %llu instructions after the one before",
				       i, place - prev);
		}
		prev = place;
		have_prev = 1;
	}
}

static void expect_exact(struct __test_metadata *_metadata, __u64 config,
			 __u64 sample_type, const char *what)
{
	const struct how how = {
		.type = PERF_TYPE_HARDWARE,
		.config = config,
		.period = HW_ASM_PERIOD,
		.sample_type = sample_type,
		.regs = REGS_MASK,
		.loop = &loop,
		.n = PEBS_LOOPS,
	};
	int precise, top = precise_top(), tried = 0;

	for (precise = 1; precise <= top; precise++) {
		struct exactness x = {};
		struct run run;
		__u64 expected;

		if (!level_run(_metadata, &run, &how, precise))
			continue;
		tried++;
		/* A sample every period: none lost, none made up. */
		expected = run.count / HW_ASM_PERIOD;
		EXPECT_LE(expected - 1, (__u64)run.ss.nr) {
			TH_LOG("%s precise_ip %d: %d samples of %llu events",
			       what, precise, run.ss.nr, run.count);
		}
		EXPECT_GE(expected + 1, (__u64)run.ss.nr)
			TH_LOG("%s precise_ip %d", what, precise);
		check_run(_metadata, &run, precise, &x);
		samples_free(&run.ss);
		EXPECT_LT(expected / 2, (__u64)x.in_incs)
			TH_LOG("%s precise_ip %d", what, precise);
		EXPECT_EQ(x.in_incs, x.regs_agree) {
			TH_LOG("%s precise_ip %d: %d of %d samples with its registers",
			       what, precise, x.regs_agree, x.in_incs);
		}
		EXPECT_EQ(x.pairs, x.whole_periods + x.one_over) {
			TH_LOG("%s precise_ip %d: %d of %d samples a whole number of periods apart",
			       what, precise, x.whole_periods, x.pairs);
		}
		EXPECT_GE(3, x.one_over) {
			TH_LOG("%s precise_ip %d: %d of %d samples a period and one apart",
			       what, precise, x.one_over, x.pairs);
		}
	}
	if (!tried)
		SKIP(return, "precise_ip refused (caps/max_precise %d)", top);
}

TEST(instructions_many_records)
{
	HW_SKIP_WITHOUT_PMU();
	expect_exact(_metadata, PERF_COUNT_HW_INSTRUCTIONS, 0,
		     "instructions");
}

TEST(instructions_a_record_per_interrupt)
{
	HW_SKIP_WITHOUT_PMU();
	expect_exact(_metadata, PERF_COUNT_HW_INSTRUCTIONS,
		     PERF_SAMPLE_CALLCHAIN, "instructions, callchain");
}

TEST(cycles_many_records)
{
	HW_SKIP_WITHOUT_PMU();
	expect_exact(_metadata, PERF_COUNT_HW_CPU_CYCLES, 0, "cycles");
}

TEST(cycles_a_record_per_interrupt)
{
	HW_SKIP_WITHOUT_PMU();
	expect_exact(_metadata, PERF_COUNT_HW_CPU_CYCLES,
		     PERF_SAMPLE_CALLCHAIN, "cycles, callchain");
}

/* Whether the PMU's mem-stores event is ALL_STORES, 0x82d0. */
static bool all_loads_and_stores(void)
{
	char buf[64] = "";
	FILE *f;

	f = fopen("/sys/bus/event_source/devices/cpu/events/mem-stores", "r");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !strncmp(buf, "event=0xd0,umask=0x82", 21);
}

/*
 * Raw @config sampled over pebs_mem_loop() at each precise level: at the
 * instruction @insn (before @next at precise_ip 1), with the address of
 * the element it moved, 8 * (RCX - 1) past the register whose index in
 * the sampled ones is @base.
 */
static void expect_addresses(struct __test_metadata *_metadata,
			     __u64 config, const char *insn, const char *next,
			     int base, const char *what)
{
	const struct how how = {
		.type = PERF_TYPE_RAW,
		.config = config,
		.period = MEM_PERIOD,
		.sample_type = PERF_SAMPLE_ADDR,
		.regs = MEM_REGS_MASK,
		.loop = &mem_loop,
		.n = MEM_ELEMS,
	};
	int precise, top = precise_top(), tried = 0;

	if (!all_loads_and_stores())
		SKIP(return, "no ALL_LOADS and ALL_STORES (mem-stores)");
	memset(mem_from, 1, sizeof(mem_from));
	memset(mem_to, 1, sizeof(mem_to));
	for (precise = 1; precise <= top; precise++) {
		__u64 ip = (uintptr_t)(precise > 1 ? insn : next);
		int i, at = 0, right = 0;
		struct run run;

		if (!level_run(_metadata, &run, &how, precise))
			continue;
		tried++;
		for (i = 0; i < run.ss.kept; i++) {
			const struct sample *s = &run.ss.s[i];
			__u64 want;

			/* Not the loop's setup, which loads too. */
			if (s->ip < (uintptr_t)pebs_load ||
			    s->ip >= mem_loop.end)
				continue;
			EXPECT_EQ(ip, s->ip) {
				TH_LOG("%s precise_ip %d: sample %d", what,
				       precise, i);
			}
			ASSERT_NE(0, s->regs_intr_abi);
			want = s->regs_intr[base] + 8 * (s->regs_intr[0] - 1);
			at++;
			right += s->addr == want;
			if (s->addr != want && at - right <= 3)
				TH_LOG("%s precise_ip %d: address %#llx, not %#llx",
				       what, precise, s->addr, want);
		}
		samples_free(&run.ss);
		EXPECT_LT((__u64)MEM_ELEMS / MEM_PERIOD / 2, (__u64)at)
			TH_LOG("%s precise_ip %d", what, precise);
		EXPECT_EQ(at, right) TH_LOG("%s precise_ip %d", what, precise);
	}
	if (!tried)
		SKIP(return, "precise_ip refused (caps/max_precise %d)", top);
}

TEST(load_addresses)
{
	HW_SKIP_WITHOUT_PMU();
	expect_addresses(_metadata, 0x81d0, pebs_load, pebs_store, 2,
			 "loads");
}

TEST(store_addresses)
{
	HW_SKIP_WITHOUT_PMU();
	expect_addresses(_metadata, 0x82d0, pebs_store, pebs_mem_dec, 1,
			 "stores");
}

static bool at_increment(const struct sample *s)
{
	return s->ip >= (uintptr_t)pebs_incs && s->ip < (uintptr_t)pebs_incs_end;
}

TEST(xmm_registers)
{
	const struct how how = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.period = HW_ASM_PERIOD,
		.regs = XMM_REGS_MASK,
		.loop = &xmm_loop,
		.n = PEBS_LOOPS,
	};
	int i, j, checked = 0, top = precise_top();
	struct run run;

	HW_SKIP_WITHOUT_PMU();
	if (top < 1 || !level_run(_metadata, &run, &how, top))
		SKIP(return, "XMM registers refused (caps/max_precise %d)",
		     top);
	for (i = 0; i < run.ss.kept; i++) {
		const struct sample *s = &run.ss.s[i];

		if (!at_increment(s))
			continue;
		checked++;
		ASSERT_NE(0, s->regs_intr_abi);
		for (j = 0; j < 4; j++) {
			EXPECT_EQ(xmm_values[j], s->regs_intr[j])
				TH_LOG("sample %d, word %d", i, j);
		}
	}
	samples_free(&run.ss);
	EXPECT_LT(10, checked);
}

/*
 * A precise sample's branch stack ends with the branch that led to its
 * instruction: at an increment of pebs_loop(), the newest entry's target
 * is pebs_loop() itself (its call, in the first iteration) or the
 * increments (the loop's jnz), at or before the sample's IP.  Where
 * adaptive PEBS is, the stack is the record's LBR group (6.1's and
 * ours), else the PMI's read of the LBR.  The test holds whatever
 * MSR_LBR_SELECT 6.1 left (above): a call-stack filter keeps the call.
 * Some stacks may be empty.  Ours gives 0 or 1 of some 40, and most
 * must not be; 6.1's count varies from run to run, 0 to 2 in a run of
 * this test alone, 8 of 39 within the whole suite on an idle host, 33 of
 * 39 in a CI run on a loaded one, so on 6.1 only the stacks it gives
 * are checked (a stricter promise of ours, Documentation/core-api/
 * perf_event_design.rst).
 */
TEST(branch_stack)
{
	const struct how how = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		/*
		 * Some 40 samples of some 800 bytes (32 entries each): half
		 * the ring, which hw_asm_sample() reads only after the run.
		 */
		.period = 8069,
		.sample_type = PERF_SAMPLE_BRANCH_STACK,
		.regs = REGS_MASK,
		.branches = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
		.loop = &loop,
		.n = PEBS_LOOPS,
	};
	int i, checked = 0, empty = 0, led = 0, top = precise_top();
	struct run run;

	HW_SKIP_WITHOUT_PMU();
	if (top < 1 || !level_run(_metadata, &run, &how, top))
		SKIP(return, "precise branch stacks refused (caps/max_precise %d)",
		     top);
	for (i = 0; i < run.ss.kept; i++) {
		const struct sample *s = &run.ss.s[i];
		const struct perf_branch_entry *e = s->branches;

		if (!at_increment(s))
			continue;
		checked++;
		if (!s->bnr)
			empty++;
		else if (e[0].to >= (uintptr_t)pebs_loop && e[0].to <= s->ip)
			led++;
		else if (checked - led <= 3)
			TH_LOG("sample %d at %#llx: %llu entries, the newest %#llx to %#llx",
			       i, s->ip, s->bnr, s->bnr ? (__u64)e[0].from : 0,
			       s->bnr ? (__u64)e[0].to : 0);
	}
	samples_free(&run.ss);
	EXPECT_LT(10, checked);
	if (ours_kernel()) {
		EXPECT_LT(checked / 2, checked - empty) {
			TH_LOG("%d of %d stacks empty", empty, checked);
		}
	} else {
		TH_LOG("%d of %d stacks empty", empty, checked);
	}
	EXPECT_EQ(checked - empty, led);
}

/*
 * PERF_SAMPLE_REGS_USER of a precise sample of a user instruction: the
 * registers as the instruction left them, from the record, as
 * REGS_INTR's (RAX counts the increments done).  6.1 gives the
 * registers of the interrupt instead (zeros, for records it drains
 * elsewhere): an extension of ours (Documentation/core-api/
 * perf_event_design.rst), skipped on 6.1.
 */
TEST(user_registers)
{
	struct perf_event_attr attr;
	int i, fd, checked = 0, agree = 0, top = precise_top();
	struct run run;

	HW_SKIP_WITHOUT_PMU();
	if (!ours_kernel())
		SKIP(return, "6.1 takes the user registers from the interrupt");
	if (top < 1)
		SKIP(return, "precise_ip refused (caps/max_precise %d)", top);
	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.sample_period = HW_ASM_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER;
	attr.sample_regs_user = REGS_MASK;
	attr.precise_ip = top;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("precise_ip %d: %s", top, strerror(errno));
	ASSERT_EQ(0, hw_asm_sample(fd, &attr, &loop, PEBS_LOOPS, &run.ss,
				   &run.count));
	for (i = 0; i < run.ss.kept; i++) {
		const struct sample *s = &run.ss.s[i];
		__u64 k, iteration;

		if (!at_increment(s) || !s->regs_user_abi)
			continue;
		checked++;
		k = (s->ip - (uintptr_t)pebs_incs) / PEBS_INC_SIZE;
		iteration = PEBS_LOOPS - s->regs_user[1];
		if (s->regs_user[0] ==
		    iteration * PEBS_INCS + k + (top > 1 ? 1 : 0))
			agree++;
		else if (checked - agree <= 3)
			TH_LOG("sample %d: increment %llu, RAX %llu RCX %llu", i,
			       k, s->regs_user[0], s->regs_user[1]);
	}
	samples_free(&run.ss);
	EXPECT_LT(10, checked);
	EXPECT_EQ(checked, agree);
}

/*
 * A CPU's precise event whose samples its records alone make (IP and
 * TID: many records an interrupt) sees two tasks take turns on CPU 0,
 * one in pebs_loop(), the other in pebs_mem_loop(): every sample whose
 * IP is in a task's loop has that task's TID.  The records of the task
 * going out must become its samples as it goes; left in the buffer until
 * the next interrupt, they would take the TID of whoever runs then.
 */
#define TURNS_MS	400
#define TURNS_PERIOD	10007

struct turns_seen {
	const struct perf_event_attr *attr;
	pid_t loop, mem;
	int in_loop, in_mem, wrong;
	__u64 wrong_ip;		/* the first sample of the other task */
	__u32 wrong_tid;
};

static int turns_record(struct perf_event_header *h, void *arg)
{
	struct turns_seen *t = arg;
	struct sample s;
	bool in_loop, in_mem;

	if (h->type != PERF_RECORD_SAMPLE || sample_parse(h, t->attr, 0, &s))
		return 0;
	in_loop = s.ip >= (uintptr_t)pebs_loop &&
		  s.ip < (uintptr_t)pebs_loop_end;
	in_mem = s.ip >= (uintptr_t)pebs_mem_loop &&
		 s.ip < (uintptr_t)pebs_mem_loop_end;
	t->in_loop += in_loop && (pid_t)s.tid == t->loop;
	t->in_mem += in_mem && (pid_t)s.tid == t->mem;
	if ((in_loop && (pid_t)s.tid != t->loop) ||
	    (in_mem && (pid_t)s.tid != t->mem)) {
		if (!t->wrong++) {
			t->wrong_ip = s.ip;
			t->wrong_tid = s.tid;
		}
	}
	return 0;
}

/* A task on CPU 0 that runs its loop for TURNS_MS. */
static pid_t turns_task(bool mem)
{
	static __u64 from[MEM_ELEMS], to[MEM_ELEMS];
	void *arrays[2] = { to, from };
	cpu_set_t cpu0;
	__u64 end;
	pid_t pid;

	pid = fork();
	if (pid)
		return pid;
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		_exit(1);
	end = clock_ns(CLOCK_MONOTONIC) + TURNS_MS * NSEC_PER_MSEC;
	while (clock_ns(CLOCK_MONOTONIC) < end) {
		if (mem)
			pebs_mem_loop(MEM_ELEMS, arrays);
		else
			pebs_loop(PEBS_LOOPS, NULL);
	}
	_exit(0);
}

TEST(cpu_event_takes_turns)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.sample_period = TURNS_PERIOD,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.disabled = 1,
	};
	int fd, status, top = precise_top();
	struct turns_seen t = { .attr = &attr };
	struct ring r;

	HW_SKIP_WITHOUT_PMU();
	if (top < 1)
		SKIP(return, "precise_ip refused (caps/max_precise %d)", top);
	attr.precise_ip = top > 2 ? 2 : top;
	fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		SKIP(return, "a CPU's event is not allowed here");
	ASSERT_LE(0, fd) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 64));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	t.loop = turns_task(false);
	t.mem = turns_task(true);
	ASSERT_LT(0, t.loop);
	ASSERT_LT(0, t.mem);
	ASSERT_EQ(t.loop, waitpid(t.loop, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(t.mem, waitpid(t.mem, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_LE(0, ring_drain(&r, turns_record, &t));
	TH_LOG("%d samples in pebs_loop, %d in pebs_mem_loop, %d of the other task",
	       t.in_loop, t.in_mem, t.wrong);
	/*
	 * Both tasks sampled, on ours.  6.1 on the icelake flavour samples
	 * the memory loop's rarely or never (5 of 10921 samples in one run,
	 * none in another; 2171 of 10919 on ours): not yet understood, so
	 * not asked of 6.1.
	 */
	EXPECT_LT(10, t.in_loop);
	if (ours_kernel())
		EXPECT_LT(0, t.in_mem);
	EXPECT_EQ(0, t.wrong) {
		TH_LOG("the first: at %#llx, TID %u (pebs_loop's %d, pebs_mem_loop's %d)",
		       t.wrong_ip, t.wrong_tid, t.loop, t.mem);
	}
	ring_unmap(&r);
	close(fd);
}

TEST_HARNESS_MAIN
