// SPDX-License-Identifier: GPL-2.0
/*
 * Branch stacks from the last branch records (PERF_SAMPLE_BRANCH_STACK):
 * instructions:u sampled every HW_ASM_PERIOD over a loop whose branches
 * are known, each sample taken in the loop carrying the branches that
 * led to it, newest first.  An iteration of lbr_loop() is one direct
 * call (A), one indirect jump (B), one return (C) and one taken
 * conditional branch (D), five instructions in all:
 *
 *  - with PERF_SAMPLE_BRANCH_ANY, each stack is those four in the order
 *    they ran, the newest the one whose target the sample's IP follows;
 *    with PERF_SAMPLE_BRANCH_TYPE_SAVE each has its type, and each its
 *    cycles since the entry before it where the LBR format has them (5,
 *    6, 7 and the architectural LBR's; 0 in the others): the emulated
 *    PMU's model retires an instruction a cycle, so those are the
 *    instructions from the previous branch's target to this branch,
 *    inclusive (1, 1, 1, 2), exactly those in nearly all (9 in 10).
 *    Where an interrupt came in between, its handler's cycles count
 *    (more), unless the filter keeps far branches (ANY, ANY_CALL,
 *    ANY_RETURN, and every filter on Core 2 and Bonnell): then the
 *    return to user space is an entry, which the driver drops for its
 *    kernel address, and the next entry counts from it (fewer, at
 *    least 1), as silicon counts since the last update of the stack;
 *    and, where the format has a mispredict flag, nearly every entry
 *    predicted (the emulated predictor learns the loop at once; an
 *    interrupt's calls can cost its return a misprediction);
 *  - an indirect jump that goes to one of two places in turn is
 *    mispredicted every time in the emulated predictor (QEMU patch 23,
 *    which predicts an indirect branch goes where it went last), and
 *    its entries say so (mispred set, predicted clear), the loop's
 *    conditional branch back predicted in nearly all;
 *  - with a filter of one kind (ANY_CALL, CALL, IND_JUMP, ANY_RETURN,
 *    COND), the stack has that kind's branch alone, five cycles apart
 *    (as above), whether the hardware filters (LBR_SELECT) or, on Core 2
 *    and Bonnell, which have none, the driver (but CALL on Nehalem,
 *    Westmere and Silvermont, which 6.1 leaves empty);
 *  - in call-stack mode (PERF_SAMPLE_BRANCH_CALL_STACK), a sample in the
 *    innermost of three nested functions has the three calls that led
 *    there, innermost first, whatever branched inside it before;
 *  - the call stack survives the task's sleeps, which take it off its
 *    CPU: it leaves and comes back with the task;
 *  - and nothing of another task's comes with it: a task returning below
 *    the bottom of its stack, after another one's calls filled the
 *    records on its CPU, finds none of them;
 *  - recording the kernel's branches too, a sample in the loop still ends
 *    with the loop's branches: the PMI froze the stack (FREEZE_LBRS_ON_PMI)
 *    before the NMI and its handler could add theirs;
 *  - with PERF_SAMPLE_BRANCH_HW_INDEX, each stack says where its newest
 *    entry is in the hardware's (0 for the architectural LBR);
 *  - a BPF program at the overflow reads the sample's branches
 *    (bpf_read_branch_records()) and the stack as it is
 *    (bpf_get_branch_snapshot());
 *  - the events of a CPU share LBR_SELECT: a group whose members want
 *    two filters is refused, two events with two filters take turns;
 *  - the registers (FROM, TO, INFO, TOS, LBR_SELECT) read back what is
 *    written, and fault on reserved bits and addresses that are not
 *    canonical, as the LBR format lays them out; the architectural
 *    LBR's (CTL, DEPTH and the entries) likewise.
 *
 * The cycle counts are the emulation's (QEMU patch 15), not any real
 * silicon's.  Skipped where the PMU has no branch stack (EOPNOTSUPP):
 * the flavours without an LBR, and call-stack mode before Haswell's
 * format 4.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "bpf_test_util.h"
#include "../kselftest_harness.h"
#include "hw_asm_loop.h"

asm(".pushsection .text\n"
	".globl lbr_loop\n"
	".type lbr_loop, @function\n"
	"lbr_loop:\n"
	"	lea lbr_ret(%rip), %rsi\n"
	".globl lbr_call\n"
	"lbr_call:\n"
	"	call lbr_leaf\n"		/* A */
	".globl lbr_back\n"
	"lbr_back:\n"
	"	dec %rdi\n"
	".globl lbr_jcc\n"
	"lbr_jcc:\n"
	"	jnz lbr_call\n"			/* D */
	"	ret\n"
	".globl lbr_leaf\n"
	"lbr_leaf:\n"
	"	jmp *%rsi\n"			/* B */
	".globl lbr_ret\n"
	"lbr_ret:\n"
	"	ret\n"				/* C */
	".globl lbr_loop_end\n"
	"lbr_loop_end:\n"
	".size lbr_loop, . - lbr_loop\n"
	".popsection\n");

void lbr_loop(unsigned long n, void *unused);
extern const char lbr_call[], lbr_back[], lbr_jcc[], lbr_leaf[], lbr_ret[];
extern const char lbr_loop_end[];

/* An indirect jump to lbr_misp_a and lbr_misp_b in turn. */
asm(".pushsection .text\n"
	".globl lbr_misp_loop\n"
	".type lbr_misp_loop, @function\n"
	"lbr_misp_loop:\n"
	"	lea lbr_misp_a(%rip), %r8\n"
	"	lea lbr_misp_b(%rip), %r9\n"
	"1:	xchg %r8, %r9\n"
	".globl lbr_misp_jmp\n"
	"lbr_misp_jmp:\n"
	"	jmp *%r8\n"
	".globl lbr_misp_a\n"
	"lbr_misp_a:\n"
	"	nop\n"
	".globl lbr_misp_b\n"
	"lbr_misp_b:\n"
	"	dec %rdi\n"
	".globl lbr_misp_jcc\n"
	"lbr_misp_jcc:\n"
	"	jnz 1b\n"
	"	ret\n"
	".globl lbr_misp_end\n"
	"lbr_misp_end:\n"
	".size lbr_misp_loop, . - lbr_misp_loop\n"
	".popsection\n");

void lbr_misp_loop(unsigned long n, void *unused);
extern const char lbr_misp_jmp[], lbr_misp_jcc[], lbr_misp_end[];

/* Three nested functions, the innermost looping @n times. */
asm(".pushsection .text\n"
	".globl lbr_f1\n"
	".type lbr_f1, @function\n"
	"lbr_f1:\n"
	".globl lbr_f1_call\n"
	"lbr_f1_call:\n"
	"	call lbr_f2\n"
	"	ret\n"
	".globl lbr_f2\n"
	"lbr_f2:\n"
	".globl lbr_f2_call\n"
	"lbr_f2_call:\n"
	"	call lbr_f3\n"
	"	ret\n"
	".globl lbr_f3\n"
	"lbr_f3:\n"
	"	call lbr_f4\n"			/* returns before the loop */
	"1:	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".globl lbr_f3_end\n"
	"lbr_f3_end:\n"
	"lbr_f4:\n"
	"	ret\n"
	".size lbr_f1, . - lbr_f1\n"
	".popsection\n");

void lbr_f1(unsigned long n, void *unused);
extern const char lbr_f1_call[], lbr_f2[], lbr_f2_call[], lbr_f3[];
extern const char lbr_f3_end[];

/*
 * Two nested calls, the inner function sleeping @n times (nanosleep(2)
 * for a microsecond: its task leaves the CPU each time), with a loop of
 * its own after each sleep.
 */
asm(".pushsection .data\n"
	"lbr_ts:\n"
	"	.quad 0, 1000\n"
	".popsection\n"
	".pushsection .text\n"
	".globl lbr_s1\n"
	".type lbr_s1, @function\n"
	"lbr_s1:\n"
	"	call lbr_s2\n"
	"	ret\n"
	".globl lbr_s2\n"
	"lbr_s2:\n"
	".globl lbr_s2_call\n"
	"lbr_s2_call:\n"
	"	call lbr_s3\n"
	"	ret\n"
	".globl lbr_s3\n"
	"lbr_s3:\n"
	"	mov %rdi, %r8\n"
	"1:	mov $35, %eax\n"		/* nanosleep */
	"	lea lbr_ts(%rip), %rdi\n"
	"	xor %esi, %esi\n"
	"	syscall\n"
	"	mov $20000, %r9\n"
	"2:	dec %r9\n"
	"	jnz 2b\n"
	"	dec %r8\n"
	"	jnz 1b\n"
	"	ret\n"
	".globl lbr_s3_end\n"
	"lbr_s3_end:\n"
	".size lbr_s1, . - lbr_s1\n"
	".popsection\n");

void lbr_s1(unsigned long n, void *unused);
extern const char lbr_s2[], lbr_s2_call[], lbr_s3[], lbr_s3_end[];

/*
 * A task that calls nothing: each of @n rounds gives its CPU away
 * (sched_yield(2)), then returns LBR_POPS times to where it already is
 * (each return pops the call stack, below its bottom by then), and spins.
 */
#define LBR_POPS	5
asm(".pushsection .text\n"
	".globl lbr_p1\n"
	".type lbr_p1, @function\n"
	"lbr_p1:\n"
	"	mov %rdi, %r8\n"
	"1:	mov $24, %eax\n"		/* sched_yield */
	"	syscall\n"
	"	.rept 5\n"			/* LBR_POPS */
	"	lea 2f(%rip), %rax\n"
	"	push %rax\n"
	"	ret\n"
	"2:\n"
	"	.endr\n"
	".globl lbr_p_spin\n"
	"lbr_p_spin:\n"
	"	mov $20000, %r9\n"
	"3:	dec %r9\n"
	"	jnz 3b\n"
	".globl lbr_p_spin_end\n"
	"lbr_p_spin_end:\n"
	"	dec %r8\n"
	"	jnz 1b\n"
	"	ret\n"
	".size lbr_p1, . - lbr_p1\n"
	/* The other task: six nested calls, yielding in the innermost. */
	".globl lbr_d0\n"
	".type lbr_d0, @function\n"
	"lbr_d0:\n"
	"	call lbr_d1\n"
	"	jmp lbr_d0\n"
	"lbr_d1:	call lbr_d2\n"
	"	ret\n"
	"lbr_d2:	call lbr_d3\n"
	"	ret\n"
	"lbr_d3:	call lbr_d4\n"
	"	ret\n"
	"lbr_d4:	call lbr_d5\n"
	"	ret\n"
	"lbr_d5:	call lbr_d6\n"
	"	ret\n"
	"lbr_d6:	mov $24, %eax\n"
	"	syscall\n"
	"	ret\n"
	".globl lbr_d_end\n"
	"lbr_d_end:\n"
	".size lbr_d0, . - lbr_d0\n"
	".popsection\n");

void lbr_p1(unsigned long n, void *unused);
void lbr_d0(void);
extern const char lbr_p_spin[], lbr_p_spin_end[], lbr_d_end[];

static const struct hw_asm_loop popper = {
	.fn = lbr_p1,
	.start = (uintptr_t)lbr_p_spin,
	.end = (uintptr_t)lbr_p_spin_end,
};

static const struct hw_asm_loop deep = {
	.start = (uintptr_t)lbr_d0,
	.end = (uintptr_t)lbr_d_end,
};

static const struct hw_asm_loop loop = {
	.fn = lbr_loop,
	.start = (uintptr_t)lbr_loop,
	.end = (uintptr_t)lbr_loop_end,
};

static const struct hw_asm_loop misp = {
	.fn = lbr_misp_loop,
	.start = (uintptr_t)lbr_misp_loop,
	.end = (uintptr_t)lbr_misp_end,
};

static const struct hw_asm_loop sleeper = {
	.fn = lbr_s1,
	.start = (uintptr_t)lbr_s3,
	.end = (uintptr_t)lbr_s3_end,
};

static const struct hw_asm_loop nested = {
	.fn = lbr_f1,
	.start = (uintptr_t)lbr_f3,
	.end = (uintptr_t)lbr_f3_end,
};

/* The loop's branches in the order they run, and what the stack says. */
struct branch {
	const char *name;
	uintptr_t from, to;
	int type;			/* PERF_BR_* */
	int cycles;			/* since the branch before it */
	uintptr_t ip_end;		/* the IPs that follow it: [to, ip_end] */
};

enum { A, B, C, D, BRANCHES };

static void loop_branches(struct branch b[BRANCHES])
{
	b[A] = (struct branch){ "call", (uintptr_t)lbr_call,
		(uintptr_t)lbr_leaf, PERF_BR_CALL, 1, (uintptr_t)lbr_leaf };
	b[B] = (struct branch){ "indirect jump", (uintptr_t)lbr_leaf,
		(uintptr_t)lbr_ret, PERF_BR_IND, 1, (uintptr_t)lbr_ret };
	b[C] = (struct branch){ "return", (uintptr_t)lbr_ret,
		(uintptr_t)lbr_back, PERF_BR_RET, 1, (uintptr_t)lbr_jcc };
	b[D] = (struct branch){ "conditional branch", (uintptr_t)lbr_jcc,
		(uintptr_t)lbr_call, PERF_BR_COND, 2, (uintptr_t)lbr_call };
}

/* Which of @b @e is, or -1. */
static int which(const struct branch b[BRANCHES],
		 const struct perf_branch_entry *e)
{
	int i;

	for (i = 0; i < BRANCHES; i++)
		if (e->from == b[i].from && e->to == b[i].to)
			return i;
	return -1;
}

struct run {
	struct samples ss;
	__u64 count;
};

#define MSR_PERF_CAPABILITIES	0x345
#define LBR_FORMAT_MASK		0x3f
#define LBR_FORMAT_EIP_FLAGS	3
#define LBR_FORMAT_EIP_FLAGS2	4
#define LBR_FORMAT_INFO		5
#define LBR_FORMAT_TIME		6
#define LBR_FORMAT_INFO2	7
#define LBR_FORMAT_ARCH		0x3f

static int msr_rw(int fd, __u32 msr, __u64 *val, bool write)
{
	ssize_t n = write ? pwrite(fd, val, sizeof(*val), msr) :
			    pread(fd, val, sizeof(*val), msr);

	return n == sizeof(*val) ? 0 : -errno;
}

/*
 * The LBR format in PERF_CAPABILITIES, read through /dev/cpu/0/msr; -1
 * where that cannot be read (not Intel, no CONFIG_X86_MSR).
 */
static int lbr_format(void)
{
	__u64 caps;
	int fd, ret;

	if (hw_vendor() != HW_VENDOR_INTEL)
		return -1;
	fd = open("/dev/cpu/0/msr", O_RDONLY);
	if (fd < 0)
		return -1;
	ret = msr_rw(fd, MSR_PERF_CAPABILITIES, &caps, false);
	close(fd);
	return ret ? -1 : (int)(caps & LBR_FORMAT_MASK);
}

/*
 * Whether the entries have cycle counts: 1, 0, or -1 if unknown.  The
 * architectural LBR has them where CPUID leaf 0x1c says (ECX bit 1).
 */
static int lbr_has_cycles(void)
{
	unsigned int eax, ebx, ecx, edx;
	int fmt = lbr_format();

	if (fmt < 0)
		return -1;
	if (fmt == LBR_FORMAT_ARCH)
		return __get_cpuid_count(0x1c, 0, &eax, &ebx, &ecx, &edx) &&
		       (ecx & 2);
	return fmt == LBR_FORMAT_INFO || fmt == LBR_FORMAT_TIME ||
	       fmt == LBR_FORMAT_INFO2;
}

static bool lbr_model_core2(unsigned int model)
{
	static const unsigned char models[] = { 0x0f, 0x16, 0x17, 0x1d };

	return hw_model_listed(models, sizeof(models), model);
}

static bool lbr_model_silvermont(unsigned int model)
{
	static const unsigned char models[] = {
		0x37, 0x4a, 0x4c, 0x4d, 0x5a, 0x5d, 0x75,
	};

	return hw_model_listed(models, sizeof(models), model);
}

/* Entries whose cycles were as expected, and all of them. */
struct cycles_seen {
	int exact, all;
};

/*
 * An entry's @cycles, @expected since the one before, where the format
 * has them, else none at all: at least one, and exactly @expected in
 * nearly all (cycles_expect()), since an entry may follow a return from
 * an interrupt that the driver left out of the stack.
 */
static void cycles_check(struct __test_metadata *_metadata,
			 struct cycles_seen *c, int expected, int cycles,
			 const char *name)
{
	static int has = -2;

	if (has == -2)
		has = lbr_has_cycles();
	if (has == 0) {
		EXPECT_EQ(0, cycles) TH_LOG("the %s: a format without", name);
		return;
	}
	if (has < 0)
		return;
	EXPECT_LE(1, cycles) TH_LOG("the %s", name);
	c->exact += cycles == expected;
	c->all++;
}

static void cycles_expect(struct __test_metadata *_metadata,
			  const struct cycles_seen *c)
{
	EXPECT_LE(c->all * 9, c->exact * 10) {
		TH_LOG("%d of %d entries with the cycles of the loop alone",
		       c->exact, c->all);
	}
}

/*
 * Sample instructions every @period with @branch_sample_type over @n
 * iterations of @l: in user mode, or in both modes if @bst asks for the
 * kernel's branches too (PERF_SAMPLE_BRANCH_KERNEL), else with
 * PERF_SAMPLE_BRANCH_USER.  -1 if there is no branch stack.
 */
static int lbr_run_n(struct __test_metadata *_metadata, struct run *run,
		     struct perf_event_attr *attr, const struct hw_asm_loop *l,
		     __u64 bst, __u64 period, unsigned long n)
{
	int fd;

	hw_attr_init(attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr->sample_period = period;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	if (bst & PERF_SAMPLE_BRANCH_KERNEL)
		attr->exclude_kernel = 0;
	else
		bst |= PERF_SAMPLE_BRANCH_USER;
	attr->branch_sample_type = bst;
	fd = sys_perf_event_open(attr, 0, -1, -1, 0);
	if (fd < 0 && errno == EOPNOTSUPP)
		return -1;
	if (fd < 0) {
		TH_LOG("branch_sample_type %#llx: %s", bst, strerror(errno));
		return -2;
	}
	return hw_asm_sample(fd, attr, l, n, &run->ss, &run->count) ? -2 : 0;
}

static int lbr_run(struct __test_metadata *_metadata, struct run *run,
		   struct perf_event_attr *attr, const struct hw_asm_loop *l,
		   __u64 bst)
{
	return lbr_run_n(_metadata, run, attr, l, bst, HW_ASM_PERIOD,
			 HW_ASM_LOOPS / 10);
}

#define LBR_RUN(run, attr, l, bst) do {					\
	unsigned long long __bst = (bst);				\
	int __ret = lbr_run(_metadata, run, attr, l, __bst);		\
									\
	if (__ret == -1)						\
		SKIP(return, "branch_sample_type %#llx refused here",	\
		     __bst);						\
	ASSERT_EQ(0, __ret);						\
} while (0)

/* Enough samples, all parsed, none lost. */
static void expect_samples(struct __test_metadata *_metadata,
			   const struct run *run)
{
	EXPECT_LT(10, run->ss.kept);
	EXPECT_EQ(0, run->ss.bad);
	EXPECT_EQ(0, run->ss.counts.type[PERF_RECORD_LOST]);
}

static bool in_loop(const struct hw_asm_loop *l, __u64 ip)
{
	return ip >= l->start && ip < l->end;
}

TEST(any_branch_in_order)
{
	struct branch b[BRANCHES];
	struct cycles_seen cycles = {};
	struct perf_event_attr attr;
	struct run run;
	int i, j, checked = 0, entries = 0, mispredicted = 0;

	HW_SKIP_WITHOUT_PMU();
	loop_branches(b);
	LBR_RUN(&run, &attr, &loop,
		PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_TYPE_SAVE);
	expect_samples(_metadata, &run);
	for (i = 0; i < run.ss.kept; i++) {
		const struct sample *s = &run.ss.s[i];
		int k;

		if (!in_loop(&loop, s->ip))
			continue;
		checked++;
		ASSERT_LE(BRANCHES, (int)s->bnr) TH_LOG("sample %d", i);
		k = which(b, &s->branches[0]);
		ASSERT_LE(0, k) {
			TH_LOG("sample %d: newest %#llx -> %#llx", i,
			       s->branches[0].from, s->branches[0].to);
		}
		/* The sample follows the newest branch's target. */
		EXPECT_LE(b[k].to, s->ip) TH_LOG("sample %d", i);
		EXPECT_GE(b[k].ip_end, s->ip) TH_LOG("sample %d", i);
		for (j = 0; j < (int)s->bnr; j++) {
			const struct perf_branch_entry *e = &s->branches[j];

			ASSERT_EQ(k, which(b, e)) {
				TH_LOG("sample %d entry %d: %#llx -> %#llx, not the %s",
				       i, j, e->from, e->to, b[k].name);
			}
			EXPECT_EQ(b[k].type, (int)e->type)
				TH_LOG("the %s", b[k].name);
			cycles_check(_metadata, &cycles, b[k].cycles,
				     e->cycles, b[k].name);
			entries++;
			mispredicted += e->mispred;
			k = (k + BRANCHES - 1) % BRANCHES;
		}
	}
	EXPECT_LT(10, checked);
	EXPECT_GE(entries / 50, mispredicted) {
		TH_LOG("%d of %d entries mispredicted", mispredicted, entries);
	}
	cycles_expect(_metadata, &cycles);
	samples_free(&run.ss);
}

/* Whether the LBR format has a mispredict flag: 1, 0, or -1 if unknown. */
static int lbr_has_mispredict(void)
{
	int fmt = lbr_format();

	if (fmt < 0)
		return -1;
	return fmt == LBR_FORMAT_EIP_FLAGS || fmt == LBR_FORMAT_EIP_FLAGS2 ||
	       fmt == LBR_FORMAT_INFO || fmt == LBR_FORMAT_TIME ||
	       fmt == LBR_FORMAT_INFO2 || fmt == LBR_FORMAT_ARCH;
}

/*
 * The emulated predictor's mispredictions in the entries: every one of
 * an indirect jump that goes elsewhere each time, few of the branch
 * back.
 */
TEST(mispredicted_flags)
{
	struct perf_event_attr attr;
	struct run run;
	int i, j, jumps = 0, jccs = 0, jccs_predicted = 0;

	HW_SKIP_WITHOUT_PMU();
	if (!hw_emulated_pmu())
		SKIP(return, "the mispredictions are the emulated predictor's");
	if (lbr_has_mispredict() <= 0)
		SKIP(return, "no mispredict flag in this LBR format");
	LBR_RUN(&run, &attr, &misp, PERF_SAMPLE_BRANCH_ANY);
	expect_samples(_metadata, &run);
	for (i = 0; i < run.ss.kept; i++) {
		const struct sample *s = &run.ss.s[i];

		if (!in_loop(&misp, s->ip))
			continue;
		for (j = 0; j < (int)s->bnr; j++) {
			const struct perf_branch_entry *e = &s->branches[j];

			if (e->from == (uintptr_t)lbr_misp_jmp) {
				jumps++;
				EXPECT_EQ(1, (int)e->mispred)
					TH_LOG("sample %d entry %d", i, j);
				EXPECT_EQ(0, (int)e->predicted)
					TH_LOG("sample %d entry %d", i, j);
			} else if (e->from == (uintptr_t)lbr_misp_jcc) {
				jccs++;
				jccs_predicted += e->predicted && !e->mispred;
			}
		}
	}
	EXPECT_LT(100, jumps);
	EXPECT_LE(jccs * 49, jccs_predicted * 50) {
		TH_LOG("%d of %d branches back predicted", jccs_predicted,
		       jccs);
	}
	samples_free(&run.ss);
}

/* Each filter of one kind: that kind's branch alone, an iteration apart. */
TEST(one_kind_filters)
{
	const struct {
		__u64 bst;
		int kind;
	} filters[] = {
		{ PERF_SAMPLE_BRANCH_ANY_CALL, A },
		{ PERF_SAMPLE_BRANCH_CALL, A },
		{ PERF_SAMPLE_BRANCH_IND_JUMP, B },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN, C },
		{ PERF_SAMPLE_BRANCH_COND, D },
	};
	struct branch b[BRANCHES];
	struct cycles_seen cycles = {};
	struct perf_event_attr attr;
	unsigned int family, model;
	struct run run;
	int f, i, j, checked;

	HW_SKIP_WITHOUT_PMU();
	loop_branches(b);
	hw_cpu_family_model(&family, &model);
	for (f = 0; f < (int)ARRAY_SIZE(filters); f++) {
		const struct branch *want = &b[filters[f].kind];

		/*
		 * The LBR_SELECT of Nehalem, Westmere and Silvermont has no
		 * bit for direct calls alone: 6.1 has it record no kind of
		 * branch, and its stacks are empty.  Not checked there.
		 */
		if (filters[f].bst == PERF_SAMPLE_BRANCH_CALL &&
		    hw_vendor() == HW_VENDOR_INTEL && family == 6 &&
		    (hw_model_nehalem(model) || lbr_model_silvermont(model)))
			continue;

		LBR_RUN(&run, &attr, &loop, filters[f].bst);
		expect_samples(_metadata, &run);
		checked = 0;
		for (i = 0; i < run.ss.kept; i++) {
			const struct sample *s = &run.ss.s[i];

			if (!in_loop(&loop, s->ip))
				continue;
			checked++;
			ASSERT_LE(1, (int)s->bnr) {
				TH_LOG("%#llx: sample %d of %d at %#llx",
				       filters[f].bst, i, run.ss.kept, s->ip);
			}
			for (j = 0; j < (int)s->bnr; j++) {
				const struct perf_branch_entry *e =
					&s->branches[j];

				ASSERT_EQ(filters[f].kind, which(b, e)) {
					TH_LOG("%#llx: sample %d entry %d: %#llx -> %#llx",
					       filters[f].bst, i, j, e->from,
					       e->to);
					TH_LOG("not the %s", want->name);
				}
				cycles_check(_metadata, &cycles, 5, e->cycles,
					     want->name);
			}
		}
		EXPECT_LT(10, checked) TH_LOG("filter %#llx", filters[f].bst);
		samples_free(&run.ss);
	}
	cycles_expect(_metadata, &cycles);
}

/* In the innermost function, the calls that led there, innermost first. */
TEST(call_stack)
{
	struct perf_event_attr attr;
	struct run run;
	int i, checked = 0;

	HW_SKIP_WITHOUT_PMU();
	LBR_RUN(&run, &attr, &nested, PERF_SAMPLE_BRANCH_CALL_STACK);
	expect_samples(_metadata, &run);
	for (i = 0; i < run.ss.kept; i++) {
		const struct sample *s = &run.ss.s[i];
		const struct perf_branch_entry *e = s->branches;

		if (!in_loop(&nested, s->ip) || s->ip == (uintptr_t)lbr_f3)
			continue;
		checked++;
		ASSERT_LE(3, (int)s->bnr) TH_LOG("sample %d", i);
		EXPECT_EQ((uintptr_t)lbr_f2_call, e[0].from) TH_LOG("sample %d", i);
		EXPECT_EQ((uintptr_t)lbr_f3, e[0].to) TH_LOG("sample %d", i);
		EXPECT_EQ((uintptr_t)lbr_f1_call, e[1].from) TH_LOG("sample %d", i);
		EXPECT_EQ((uintptr_t)lbr_f2, e[1].to) TH_LOG("sample %d", i);
		EXPECT_EQ((uintptr_t)lbr_f1, e[2].to) TH_LOG("sample %d", i);
	}
	EXPECT_LT(10, checked);
	samples_free(&run.ss);
}

/*
 * In call-stack mode the stack leaves with its task and comes back with
 * it: a function that sleeps again and again still finds, after each
 * sleep, the two calls that led to it.
 */
TEST(call_stack_across_sleeps)
{
	struct perf_event_attr attr;
	struct run run;
	int i, ret, checked = 0;

	HW_SKIP_WITHOUT_PMU();
	ret = lbr_run_n(_metadata, &run, &attr, &sleeper,
			PERF_SAMPLE_BRANCH_CALL_STACK, HW_ASM_PERIOD, 50);
	if (ret == -1)
		SKIP(return, "no call-stack mode on this PMU");
	ASSERT_EQ(0, ret);
	expect_samples(_metadata, &run);
	for (i = 0; i < run.ss.kept; i++) {
		const struct sample *s = &run.ss.s[i];
		const struct perf_branch_entry *e = s->branches;

		/* In the loop after a sleep, not on the way to one. */
		if (!in_loop(&sleeper, s->ip) || s->ip == (uintptr_t)lbr_s3)
			continue;
		checked++;
		ASSERT_LE(2, (int)s->bnr) TH_LOG("sample %d", i);
		EXPECT_EQ((uintptr_t)lbr_s2_call, e[0].from) TH_LOG("sample %d", i);
		EXPECT_EQ((uintptr_t)lbr_s3, e[0].to) TH_LOG("sample %d", i);
		EXPECT_EQ((uintptr_t)lbr_s2, e[1].to) TH_LOG("sample %d", i);
	}
	EXPECT_LT(100, checked);
	samples_free(&run.ss);
}

/*
 * A task's call stack comes back as it left, and with nothing of another
 * task's: the records the task did not fill are emptied.  Two tasks of
 * one inherited event take turns on one CPU (their contexts are clones,
 * so the event stays on the PMU and only the stacks change): the child's
 * calls fill the records, the parent calls nothing but returns below the
 * bottom of its stack.  A return pops whatever the records hold at the
 * top of the stack, and the next entry would be the child's if it were
 * left there.  No entry of the parent's samples is in the child's code.
 * (What the parent's stack holds is not checked: 6.1 gives it calls the
 * parent made before the fork and returned from, ours an empty stack.)
 */
TEST(call_stack_not_another_tasks)
{
	int i, j, ret, cpu, fd, checked = 0, foreign = 0;
	struct perf_event_attr attr;
	struct run run;
	pid_t child;

	HW_SKIP_WITHOUT_PMU();
	ASSERT_EQ(1, allowed_cpus(&cpu, 1));
	ASSERT_EQ(0, pin_to_cpu(cpu));
	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	/* About two samples a turn: the ring holds them all. */
	attr.sample_period = 20011;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK |
				  PERF_SAMPLE_BRANCH_USER;
	/* On in both tasks from the fork. */
	attr.inherit = 1;
	attr.disabled = 0;
	/* An inherited event's ring is its CPU's: per task, no mmap(). */
	fd = sys_perf_event_open(&attr, 0, cpu, -1, 0);
	if (fd < 0 && errno == EOPNOTSUPP)
		SKIP(return, "no call-stack mode on this PMU");
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		lbr_d0();
	ret = hw_asm_sample(fd, &attr, &popper, 300, &run.ss, &run.count);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	ASSERT_EQ(0, ret);
	expect_samples(_metadata, &run);
	for (i = 0; i < run.ss.kept; i++) {
		const struct sample *s = &run.ss.s[i];

		if (!in_loop(&popper, s->ip))
			continue;
		checked++;
		for (j = 0; j < (int)s->bnr; j++) {
			const struct perf_branch_entry *e = &s->branches[j];

			if (!in_loop(&deep, e->from) && !in_loop(&deep, e->to))
				continue;
			foreign++;
			TH_LOG("sample %d, entry %d: %#llx -> %#llx", i, j,
			       (unsigned long long)e->from,
			       (unsigned long long)e->to);
		}
	}
	EXPECT_LT(20, checked);
	EXPECT_EQ(0, foreign);
	samples_free(&run.ss);
}

/*
 * Recording both modes' branches, the stack of a sample in the loop ends
 * with the loop's own branches: the PMI froze it before the NMI's entry
 * and the handler's branches could be recorded.
 */
#define FROZEN_PERIOD	200003
#define FROZEN_LOOPS	2000000UL

/* A branch from or to the kernel's half of the address space. */
static bool kernel_branch(const struct perf_branch_entry *e)
{
	return (e->from | e->to) >> 63;
}

TEST(frozen_at_the_pmi)
{
	struct branch b[BRANCHES];
	struct perf_event_attr attr;
	struct run run;
	int i, j, k, ret, checked = 0, interrupted = 0;

	HW_SKIP_WITHOUT_PMU();
	loop_branches(b);
	/*
	 * The kernel's instructions count too, its overflow handler's
	 * among them: a period far longer than the handler.
	 */
	ret = lbr_run_n(_metadata, &run, &attr, &loop,
			PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
			PERF_SAMPLE_BRANCH_KERNEL, FROZEN_PERIOD, FROZEN_LOOPS);
	if (ret == -1)
		SKIP(return, "no branch stack on this PMU");
	ASSERT_EQ(0, ret);
	expect_samples(_metadata, &run);
	for (i = 0; i < run.ss.kept; i++) {
		const struct sample *s = &run.ss.s[i];

		if (!in_loop(&loop, s->ip))
			continue;
		ASSERT_LE(BRANCHES, (int)s->bnr) TH_LOG("sample %d", i);
		k = which(b, &s->branches[0]);
		for (j = 0; j < BRANCHES; j++) {
			const struct perf_branch_entry *e = &s->branches[j];

			/* The newest entry is the loop's: nothing after the PMI. */
			ASSERT_LE(0, k) {
				TH_LOG("sample %d at %#llx: entry %d %#llx -> %#llx",
				       i, s->ip, j, e->from, e->to);
			}
			/*
			 * An older one that is the kernel's: an interrupt (the
			 * timer's) came within the stack's last branches before
			 * the PMI, and its return and handler are recorded as
			 * they should be.  Anything else (an empty entry, a
			 * branch of user space outside the loop) still fails.
			 */
			if (j && which(b, e) < 0 && kernel_branch(e)) {
				interrupted++;
				break;
			}
			ASSERT_EQ(k, which(b, e)) TH_LOG("sample %d", i);
			k = (k + BRANCHES - 1) % BRANCHES;
		}
		checked += j == BRANCHES;
	}
	TH_LOG("%d samples checked, %d with an interrupt in the stack",
	       checked, interrupted);
	EXPECT_LT(10, checked);
	EXPECT_LT(interrupted, checked);
	samples_free(&run.ss);
}

/* A sampling user-mode instructions event with branch filter @bst. */
static int lbr_open(__u64 bst, int group_fd)
{
	struct perf_event_attr attr;

	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.sample_period = 100 * HW_ASM_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = bst | PERF_SAMPLE_BRANCH_USER;
	attr.disabled = group_fd < 0;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

/*
 * PERF_SAMPLE_BRANCH_HW_INDEX: each stack says where its newest entry is
 * in the hardware's: the model-specific LBR's top of stack, which moves
 * round the ring from sample to sample; the architectural LBR, whose
 * newest entry is always its first, says 0.
 */
TEST(hw_index)
{
	struct perf_event_attr attr;
	__u64 first = 0;
	bool moved = false;
	struct run run;
	int i, fmt, checked = 0;

	HW_SKIP_WITHOUT_PMU();
	fmt = lbr_format();
	if (fmt < 0)
		SKIP(return, "cannot read PERF_CAPABILITIES (CONFIG_X86_MSR)");
	LBR_RUN(&run, &attr, &loop,
		PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX);
	expect_samples(_metadata, &run);
	for (i = 0; i < run.ss.kept; i++) {
		const struct sample *s = &run.ss.s[i];

		if (!in_loop(&loop, s->ip))
			continue;
		EXPECT_LE(BRANCHES, (int)s->bnr) TH_LOG("sample %d", i);
		if (fmt == LBR_FORMAT_ARCH) {
			EXPECT_EQ(0ULL, s->hw_idx) TH_LOG("sample %d", i);
		} else {
			EXPECT_GT(32ULL, s->hw_idx) TH_LOG("sample %d", i);
			if (!checked)
				first = s->hw_idx;
			moved |= s->hw_idx != first;
		}
		checked++;
	}
	EXPECT_LT(10, checked);
	if (fmt != LBR_FORMAT_ARCH)
		EXPECT_TRUE(moved) TH_LOG("the top of stack never moved");
	samples_free(&run.ss);
}

/* Whether the CPU has an LBR_SELECT (or IA32_LBR_CTL) to share. */
static bool lbr_has_filter(void)
{
	unsigned int family, model;

	hw_cpu_family_model(&family, &model);
	return !(hw_vendor() == HW_VENDOR_INTEL && family == 6 &&
		 (lbr_model_core2(model) || hw_model_bonnell(model)));
}

/*
 * The events of a CPU share the hardware's filter: a group whose
 * members want two filters can never run (EINVAL at open), one whose
 * members want the same opens; two events alone with two filters take
 * turns, each counting part of the time.  Where the CPU filters nothing
 * (Core 2, Bonnell), every event records every branch and they all fit.
 */
TEST(filters_shared)
{
	struct { __u64 value, enabled, running; } r[2];
	int leader, member, other, ret;
	bool filter;

	HW_SKIP_WITHOUT_PMU();
	leader = lbr_open(PERF_SAMPLE_BRANCH_ANY, -1);
	if (leader < 0 && errno == EOPNOTSUPP)
		SKIP(return, "no branch stack on this PMU");
	ASSERT_LE(0, leader) TH_LOG("%s", strerror(errno));
	filter = lbr_has_filter();

	member = lbr_open(PERF_SAMPLE_BRANCH_COND, leader);
	if (filter) {
		EXPECT_EQ(-1, member);
		EXPECT_EQ(EINVAL, errno);
	} else {
		EXPECT_LE(0, member) TH_LOG("%s", strerror(errno));
	}
	if (member >= 0)
		close(member);
	member = lbr_open(PERF_SAMPLE_BRANCH_ANY, leader);
	EXPECT_LE(0, member) TH_LOG("the same filter: %s", strerror(errno));
	if (member >= 0)
		close(member);

	other = lbr_open(PERF_SAMPLE_BRANCH_COND, -1);
	ASSERT_LE(0, other) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pin_to_cpu(0));
	ioctl(leader, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(other, PERF_EVENT_IOC_ENABLE, 0);
	lbr_loop(20 * HW_ASM_LOOPS, NULL);
	ioctl(leader, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(other, PERF_EVENT_IOC_DISABLE, 0);
	ret = read(leader, &r[0], sizeof(r[0]));
	EXPECT_EQ((int)sizeof(r[0]), ret);
	ret = read(other, &r[1], sizeof(r[1]));
	EXPECT_EQ((int)sizeof(r[1]), ret);
	close(leader);
	close(other);
	EXPECT_LT(0, r[0].running);
	EXPECT_LT(0, r[1].running);
	if (filter) {
		EXPECT_LT(r[0].running, r[0].enabled) TH_LOG("no turns taken");
		EXPECT_LT(r[1].running, r[1].enabled) TH_LOG("no turns taken");
	} else {
		EXPECT_EQ(r[0].running, r[0].enabled);
		EXPECT_EQ(r[1].running, r[1].enabled);
	}
}

/*
 * A program for a sampling event's overflows that stores into slot 0 of
 * @results what bpf_read_branch_records() says the sample's branch
 * stack takes, what bpf_get_branch_snapshot() takes of 10 entries, and
 * the source of the snapshot's newest.
 */
static int load_branch_records(int results)
{
	struct bpf_insn insns[] = {
		MOV64_REG(R6, R1),
		MOV64_REG(R1, R6),
		MOV64_IMM(R2, 0),
		MOV64_IMM(R3, 0),
		MOV64_IMM(R4, BPF_F_GET_BRANCH_RECORDS_SIZE),
		CALL(BPF_FUNC_read_branch_records),
		MOV64_REG(R7, R0),
		MOV64_REG(R1, R10),
		ADD64_IMM(R1, -240),
		MOV64_IMM(R2, 240),
		MOV64_IMM(R3, 0),
		CALL(BPF_FUNC_get_branch_snapshot),
		STX_DW(R10, R0, -248),
		ST_W(R10, -256, 0),
		LD_MAP(R1, results),
		MOV64_REG(R2, R10),
		ADD64_IMM(R2, -256),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(R0, 0, 5),
		STX_DW(R0, R7, 0),
		LDX_DW(R1, R10, -248),
		STX_DW(R0, R1, 8),
		LDX_DW(R1, R10, -240),
		STX_DW(R0, R1, 16),
		MOV64_IMM(R0, 1),
		EXIT(),
	};

	return bpf_load(BPF_PROG_TYPE_PERF_EVENT, insns, ARRAY_LEN(insns));
}

/*
 * BPF at the overflow of an event recording every branch: the sample's
 * branch stack (bpf_read_branch_records()) has entries, and so has the
 * stack as it is (bpf_get_branch_snapshot()), the newest in the loop.
 */
TEST(bpf_branch_records)
{
	__s64 res[3] = { 0 };
	int results, prog, fd;

	HW_SKIP_WITHOUT_PMU();
	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	fd = lbr_open(PERF_SAMPLE_BRANCH_ANY, -1);
	if (fd < 0 && errno == EOPNOTSUPP)
		SKIP(return, "no branch stack on this PMU");
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	results = bpf_map(BPF_MAP_TYPE_ARRAY, 4, sizeof(res), 1);
	ASSERT_LE(0, results);
	prog = load_branch_records(results);
	ASSERT_LE(0, prog) TH_LOG("%s", bpf_log);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	lbr_loop(HW_ASM_LOOPS, NULL);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, bpf_lookup(results, 0, res));
	EXPECT_LT(0, res[0]);
	EXPECT_EQ(0, res[0] % (int)sizeof(struct perf_branch_entry));
	EXPECT_LT(0, res[1]);
	EXPECT_EQ(0, res[1] % (int)sizeof(struct perf_branch_entry));
	EXPECT_TRUE(in_loop(&loop, res[2])) TH_LOG("newest from %#llx", res[2]);
	close(prog);
	close(results);
	close(fd);
}

#define MSR_LBR_SELECT		0x1c8
#define MSR_LBR_TOS		0x1c9
#define MSR_LBR_FROM_0		0x680
#define MSR_LBR_TO_0		0x6c0
#define MSR_LBR_CORE2_FROM_0	0x40
#define MSR_LBR_CORE2_TO_0	0x60
#define MSR_LBR_INFO_0		0xdc0

struct lbr_reg {
	__u32 msr;
	__u64 good, bad;		/* bad 0: no value faults */
	bool from;			/* a FROM register */
};

/*
 * LBR_SELECT where the CPU has one (@select), TOS, and the registers of
 * the first four entries (every stack has them) as
 * LBR format @fmt lays them out: an address in FROM and TO, bits 63:48
 * the sign of bit 47, but the flags of FROM (bit 63 from format 3,
 * where TSX's bits 62:61 of format 4 are written as the sign) and the
 * cycles in TO's bits 63:48 in format 6; INFO in format 5, and in
 * format 7 without TSX's bits (62:61).  Returns the number of registers
 * in @r.
 */
static int lbr_regs(struct lbr_reg *r, int fmt, bool core2, bool select)
{
	__u32 from = core2 ? MSR_LBR_CORE2_FROM_0 : MSR_LBR_FROM_0;
	__u32 to = core2 ? MSR_LBR_CORE2_TO_0 : MSR_LBR_TO_0;
	const __u64 kernel = 0xffffffff81000000ULL;
	const __u64 flagged = 0x8000000000401000ULL;	/* mispredicted */
	/* Bit 60 is no flag, in_tx and abort are where TSX has them. */
	const __u64 bit60 = 0x1000000000401000ULL;
	const __u64 user_top = 0x00007fffffffe000ULL;
	const __u64 not_canonical = 0x0000800000000000ULL;
	bool from_flags = fmt == LBR_FORMAT_EIP_FLAGS ||
			  fmt == LBR_FORMAT_EIP_FLAGS2 ||
			  fmt == LBR_FORMAT_TIME;
	bool stack = fmt >= LBR_FORMAT_EIP_FLAGS2;
	int n = 0;

	/* Call-stack mode, bit 9, from format 4. */
	if (select)
		r[n++] = (struct lbr_reg){ MSR_LBR_SELECT, stack ? 0x3ff : 0x1ff,
					   stack ? 0x400 : 0x200 };
	r[n++] = (struct lbr_reg){ MSR_LBR_TOS, 3, 32 };
	r[n++] = (struct lbr_reg){ from + 3, kernel, not_canonical, true };
	if (from_flags)
		r[n++] = (struct lbr_reg){ from + 1, flagged, bit60, true };
	else
		r[n++] = (struct lbr_reg){ from + 1, user_top, flagged, true };
	if (fmt == LBR_FORMAT_TIME)
		r[n++] = (struct lbr_reg){ to + 2, 0x1234000000401000ULL, 0 };
	else
		r[n++] = (struct lbr_reg){ to + 2, user_top,
					   0xfff0000000001000ULL };
	if (fmt == LBR_FORMAT_INFO)
		r[n++] = (struct lbr_reg){ MSR_LBR_INFO_0 + 3,
					   (1ULL << 63) | 0x1234, 1ULL << 40 };
	if (fmt == LBR_FORMAT_INFO2)
		r[n++] = (struct lbr_reg){ MSR_LBR_INFO_0 + 3,
					   (1ULL << 63) | 0x1234, 1ULL << 62 };
	return n;
}

/*
 * @val as read from FROM, to be written back: format 4's in_tx and abort
 * bits read as 0 without TSX, and are written as the sign, bits 60:59.
 */
static __u64 lbr_from_restore(int fmt, __u64 val)
{
	unsigned int eax, ebx, ecx, edx;
	bool tsx = __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) &&
		   (ebx & (1U << 4 | 1U << 11));	/* HLE, RTM */

	if (fmt != LBR_FORMAT_EIP_FLAGS2 || tsx)
		return val;
	return val | (val & (3ULL << 59)) << 2;
}

/*
 * The registers as software saves and restores them (through
 * /dev/cpu/0/msr, while no event records branches): what is written
 * reads back; a reserved bit of LBR_SELECT (call-stack mode, bit 9,
 * from format 4) or of an INFO register, a TOS past the stack and an
 * address that is not canonical fault.  LBR_SELECT is absent from Core
 * 2 and Bonnell, which filter nothing.  Where PERF_CAPABILITIES can be
 * read and the CPU has an LBR (6.1 says how deep at boot).
 */
TEST(registers_restore_and_fault)
{
	struct lbr_reg regs[8];
	unsigned int family, model;
	__u64 saved, val;
	int fd, fmt, i, n;
	bool core2, select;

	HW_SKIP_WITHOUT_PMU();
	ASSERT_EQ(0, pin_to_cpu(0));
	fmt = lbr_format();
	if (fmt < 0)
		SKIP(return, "cannot read PERF_CAPABILITIES (CONFIG_X86_MSR)");
	if (fmt < 1 || fmt > LBR_FORMAT_INFO2)
		SKIP(return, "no model-specific LBR of format 1 to 7");
	hw_cpu_family_model(&family, &model);
	/* Core 2's and the Atoms' before Goldmont are at 0x40 and 0x60. */
	core2 = family == 6 && (lbr_model_core2(model) ||
				hw_model_bonnell(model) ||
				lbr_model_silvermont(model));
	select = !(family == 6 && (lbr_model_core2(model) ||
				   hw_model_bonnell(model)));
	fd = open("/dev/cpu/0/msr", O_RDWR);
	ASSERT_LE(0, fd);
	if (msr_rw(fd, MSR_LBR_TOS, &saved, false)) {
		close(fd);
		SKIP(return, "no LBR on this CPU");
	}
	if (!select)
		EXPECT_EQ(-EIO, msr_rw(fd, MSR_LBR_SELECT, &val, false))
			TH_LOG("an LBR_SELECT on a Core 2 or Bonnell");
	n = lbr_regs(regs, fmt, core2, select);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, msr_rw(fd, regs[i].msr, &saved, false))
			TH_LOG("MSR %#x", regs[i].msr);
		if (regs[i].from)
			saved = lbr_from_restore(fmt, saved);
		val = regs[i].good;
		EXPECT_EQ(0, msr_rw(fd, regs[i].msr, &val, true))
			TH_LOG("MSR %#x: %#llx", regs[i].msr, regs[i].good);
		EXPECT_EQ(0, msr_rw(fd, regs[i].msr, &val, false));
		EXPECT_EQ(regs[i].good, val) TH_LOG("MSR %#x", regs[i].msr);
		val = regs[i].bad;
		if (regs[i].bad)
			EXPECT_EQ(-EIO, msr_rw(fd, regs[i].msr, &val, true))
				TH_LOG("MSR %#x: %#llx in format %d",
				       regs[i].msr, regs[i].bad, fmt);
		EXPECT_EQ(0, msr_rw(fd, regs[i].msr, &saved, true));
	}
	close(fd);
}

#define MSR_ARCH_LBR_CTL	0x14ce
#define MSR_ARCH_LBR_DEPTH	0x14cf
#define MSR_ARCH_LBR_FROM_0	0x1500
#define MSR_ARCH_LBR_TO_0	0x1600
#define MSR_ARCH_LBR_INFO_0	0x1200

/*
 * The architectural LBR's registers: IA32_LBR_CTL takes its enable,
 * privilege, call-stack and kind bits alone; IA32_LBR_DEPTH a depth that
 * CPUID leaf 0x1c lists, and writing it empties the stack; an entry past
 * the depth faults, and FROM, TO and INFO take what the others do.
 */
TEST(arch_registers)
{
	const __u64 kernel = 0xffffffff81000000ULL;
	const __u64 info = (1ULL << 63) | (1ULL << 60) | (4ULL << 56) | 0x1234;
	unsigned int eax, ebx, ecx, edx;
	__u64 ctl, depth, val;
	int fd, small;

	HW_SKIP_WITHOUT_PMU();
	ASSERT_EQ(0, pin_to_cpu(0));
	if (lbr_format() != LBR_FORMAT_ARCH ||
	    !__get_cpuid_count(0x1c, 0, &eax, &ebx, &ecx, &edx))
		SKIP(return, "no architectural LBR (or no CONFIG_X86_MSR)");
	/* The smallest depth listed, and the largest (6.1 sets that). */
	small = 8 * __builtin_ffs(eax & 0xff);
	fd = open("/dev/cpu/0/msr", O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, msr_rw(fd, MSR_ARCH_LBR_CTL, &ctl, false));
	ASSERT_EQ(0, msr_rw(fd, MSR_ARCH_LBR_DEPTH, &depth, false));
	EXPECT_EQ(8 * (64 - __builtin_clzll(eax & 0xff)), (int)depth);

	val = 0x7f000e;
	EXPECT_EQ(0, msr_rw(fd, MSR_ARCH_LBR_CTL, &val, true));
	val = 1ULL << 4;
	EXPECT_EQ(-EIO, msr_rw(fd, MSR_ARCH_LBR_CTL, &val, true));
	EXPECT_EQ(0, msr_rw(fd, MSR_ARCH_LBR_CTL, &ctl, true));

	val = kernel;
	EXPECT_EQ(0, msr_rw(fd, MSR_ARCH_LBR_FROM_0 + 3, &val, true));
	val = 0x0000800000000000ULL;
	EXPECT_EQ(-EIO, msr_rw(fd, MSR_ARCH_LBR_TO_0 + 3, &val, true));
	val = info;
	EXPECT_EQ(0, msr_rw(fd, MSR_ARCH_LBR_INFO_0 + 3, &val, true));
	EXPECT_EQ(0, msr_rw(fd, MSR_ARCH_LBR_INFO_0 + 3, &val, false));
	EXPECT_EQ(info, val);
	val = 1ULL << 40;
	EXPECT_EQ(-EIO, msr_rw(fd, MSR_ARCH_LBR_INFO_0 + 3, &val, true));

	/* A new depth: the stack is empty, and no deeper. */
	val = small;
	EXPECT_EQ(0, msr_rw(fd, MSR_ARCH_LBR_DEPTH, &val, true));
	EXPECT_EQ(0, msr_rw(fd, MSR_ARCH_LBR_FROM_0 + 3, &val, false));
	EXPECT_EQ(0, val);
	EXPECT_EQ(-EIO, msr_rw(fd, MSR_ARCH_LBR_FROM_0 + small, &val, false));
	val = small + 4;
	EXPECT_EQ(-EIO, msr_rw(fd, MSR_ARCH_LBR_DEPTH, &val, true));
	EXPECT_EQ(0, msr_rw(fd, MSR_ARCH_LBR_DEPTH, &depth, true));
	close(fd);
}

TEST_HARNESS_MAIN
