// SPDX-License-Identifier: GPL-2.0
/*
 * Mispredicted branches: the generic branch-misses event and the
 * model-specific raw events that count retired mispredicted branches
 * by kind, on a loop whose mispredictions follow from the emulated
 * predictor (harness/qemu, patch "branch prediction"): two-bit counters
 * for conditional branches, a branch target buffer that predicts an
 * indirect branch goes where it went last, and a 16-entry return stack.
 * An iteration of misp_loop() has
 *
 *  - an indirect call and an indirect jump, each going to one of two
 *    places in turn: mispredicted, each, every time;
 *  - a recursion 20 calls deep, each call returning: the last 4 returns
 *    find the return stack empty, mispredicted; the recursion's end is
 *    a conditional branch taken once after 19 times not taken,
 *    mispredicted as it is taken;
 *  - a loop of 7 iterations: its branch back is mispredicted as it
 *    leaves the loop;
 *
 * 8 mispredicted branches in all: 2 conditional (1 taken, 1 not), 4
 * returns, 2 indirect (1 a call), 7 taken.  Measured in user mode by
 * the difference of two runs of different lengths, within 0.5% (the
 * kernel shares the predictor: an interrupt in the loop may cost it a
 * few more), and sampled: every period mispredictions, a sample in the
 * loop.
 *
 * The events, by CPU (Intel SDM vol. 3B, "Performance-Monitoring
 * Events"; AMD's PPR of family 17h and BKDG of family 15h):
 * BR_MISP_RETIRED (0xc5) on Intel cores from Nehalem (CONDITIONAL 0x01,
 * NEAR_CALL 0x02; from Sandy Bridge ALL_BRANCHES 0x04 and NEAR_TAKEN
 * 0x20; from Ice Lake, perfmon version 5, COND 0x11, COND_TAKEN 0x01,
 * COND_NTAKEN 0x10, INDIRECT_CALL 0x02, RET 0x08, INDIRECT 0x80) and on
 * the Atoms from Silvermont (JCC 0x7e, TAKEN_JCC 0xfe, RETURN 0xf7,
 * IND_CALL 0xfb, NON_RETURN_IND 0xeb); on AMD retired mispredicted
 * branches (0xc3), taken branches (0xc5), near returns (0xc9) and
 * indirect branches (0xca).
 *
 * The counts are the emulated predictor's: on silicon, or another
 * emulation, the test skips.
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"
#include "hw_asm_loop.h"

#define N1		2000UL
#define N2		22000UL
#define LOOPS		20000UL

asm(".pushsection .text\n"
	".globl misp_loop\n"
	".type misp_loop, @function\n"
	"misp_loop:\n"
	"	lea 5f(%rip), %r8\n"
	"	lea 6f(%rip), %r9\n"
	"	lea 2f(%rip), %r10\n"
	"	lea 3f(%rip), %r11\n"
	"1:	xchg %r8, %r9\n"
	"	call *%r8\n"		/* to 5 and 6 in turn */
	"	xchg %r10, %r11\n"
	"	jmp *%r10\n"		/* to 2 and 3 in turn */
	"2:	nop\n"
	"3:	mov $20, %ecx\n"
	"	call 7f\n"		/* 20 calls deep */
	"	mov $7, %ecx\n"
	"4:	dec %ecx\n"
	"	jnz 4b\n"		/* not taken once in 7 */
	"	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	"5:	ret\n"
	"6:	ret\n"
	"7:	dec %ecx\n"
	"	jz 8f\n"		/* taken once in 20 */
	"	call 7b\n"
	"8:	ret\n"
	".globl misp_loop_end\n"
	"misp_loop_end:\n"
	".size misp_loop, . - misp_loop\n"
	".popsection\n");

void misp_loop(unsigned long n, void *unused);
extern const char misp_loop_end[];

static const struct hw_asm_loop loop = {
	.fn = misp_loop,
	.start = (uintptr_t)misp_loop,
	.end = (uintptr_t)misp_loop_end,
};

/* The mispredicted branches of an iteration. */
#define LOOP_MISSES	8

struct misp_event {
	__u64 config;
	const char *name;
	__u64 per_iter;
};

#define MAX_EVENTS	8

/* The raw events of mispredicted branches known on this CPU. */
static int misp_events(struct misp_event ev[MAX_EVENTS])
{
	unsigned int family, model, eax, ebx, ecx, edx;
	int n = 0;

#define ADD(c, nm, k) (ev[n++] = (struct misp_event){ (c), (nm), (k) })
	hw_cpu_family_model(&family, &model);
	switch (hw_vendor()) {
	case HW_VENDOR_INTEL:
		if (family != 6 || !__get_cpuid(0xa, &eax, &ebx, &ecx, &edx) ||
		    (eax & 0xff) < 3 || hw_model_bonnell(model))
			break;
		if (hw_model_atom(model)) {
			ADD(0x7ec5, "JCC", 2);
			ADD(0xfec5, "TAKEN_JCC", 1);
			ADD(0xf7c5, "RETURN", 4);
			ADD(0xfbc5, "IND_CALL", 1);
			ADD(0xebc5, "NON_RETURN_IND", 2);
			break;
		}
		if ((eax & 0xff) >= 5) {
			ADD(0x11c5, "COND", 2);
			ADD(0x01c5, "COND_TAKEN", 1);
			ADD(0x10c5, "COND_NTAKEN", 1);
			ADD(0x02c5, "INDIRECT_CALL", 1);
			ADD(0x08c5, "RET", 4);
			ADD(0x80c5, "INDIRECT", 2);
			ADD(0x20c5, "NEAR_TAKEN", 7);
			break;
		}
		ADD(0x01c5, "CONDITIONAL", 2);
		ADD(0x02c5, "NEAR_CALL", 1);
		if (hw_model_nehalem(model))
			break;
		ADD(0x04c5, "ALL_BRANCHES", 8);
		ADD(0x20c5, "NEAR_TAKEN", 7);
		break;
	case HW_VENDOR_AMD:
		ADD(0xc3, "retired mispredicted branches", 8);
		ADD(0xc5, "retired taken branches mispredicted", 7);
		ADD(0xc9, "retired near returns mispredicted", 4);
		ADD(0xca, "retired indirect branches mispredicted", 2);
		break;
	default:
		break;
	}
#undef ADD
	return n;
}

#define HW_SKIP_WITHOUT_PREDICTOR() do {				\
	HW_SKIP_WITHOUT_PMU();						\
	if (!hw_emulated_pmu())						\
		SKIP(return, "the counts are the emulated predictor's");\
} while (0)

/*
 * @fd counts @per_iter an iteration of misp_loop(), within 0.5%, by the
 * difference of a run of N2 iterations and one of N1.
 */
static void expect_per_iter(struct __test_metadata *_metadata, int fd,
			    __u64 per_iter, const char *what)
{
	__u64 c1, c2, expected = (N2 - N1) * per_iter;

	/* A first run to train the predictor. */
	ASSERT_EQ(0, hw_asm_count(fd, &loop, N1, &c1));
	ASSERT_EQ(0, hw_asm_count(fd, &loop, N1, &c1));
	ASSERT_EQ(0, hw_asm_count(fd, &loop, N2, &c2));
	ASSERT_LE(c1, c2) TH_LOG("%s: %llu, then %llu", what, c1, c2);
	TH_LOG("%s: %llu for %lu iterations, %llu for %lu (%llu expected)",
	       what, c1, N1, c2, N2, expected);
	EXPECT_LE(expected - expected / 200, c2 - c1);
	EXPECT_GE(expected + expected / 200, c2 - c1);
}

TEST(branch_misses)
{
	int fd;

	HW_SKIP_WITHOUT_PREDICTOR();
	fd = hw_open(PERF_COUNT_HW_BRANCH_MISSES);
	ASSERT_LE(0, fd) TH_LOG("branch-misses:u: %s", strerror(errno));
	expect_per_iter(_metadata, fd, LOOP_MISSES, "branch-misses:u");
	close(fd);
}

TEST(kinds)
{
	struct misp_event ev[MAX_EVENTS];
	int i, n, fd;

	HW_SKIP_WITHOUT_PREDICTOR();
	n = misp_events(ev);
	if (!n)
		SKIP(return, "no events of mispredicted branches known here");
	for (i = 0; i < n; i++) {
		fd = hw_open_group(PERF_TYPE_RAW, ev[i].config, 0, -1);
		ASSERT_LE(0, fd) TH_LOG("raw %#llx (%s): %s", ev[i].config,
					ev[i].name, strerror(errno));
		expect_per_iter(_metadata, fd, ev[i].per_iter, ev[i].name);
		close(fd);
	}
}

/*
 * Sampling branch-misses every HW_ASM_PERIOD: as many samples as periods
 * fit in the count, each in the loop (but perhaps one, taken as the
 * loop returns, mispredicted), none lost or throttled.
 */
TEST(branch_misses_sampled)
{
	struct saved_rate_limits limits = {};
	struct hw_asm_hits hits = { .loop = &loop };
	struct perf_event_attr attr;
	__u64 count;
	struct ring r;
	int fd;

	HW_SKIP_WITHOUT_PREDICTOR();
	ASSERT_EQ(0, sample_rate_lift(&limits, HW_ASM_RATE));
	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES);
	attr.sample_period = HW_ASM_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("branch-misses:u: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, HW_ASM_RING_PAGES));
	ring_prefault(&r);

	ASSERT_EQ(0, hw_asm_count(fd, &loop, LOOPS, &count));
	ASSERT_LE(0, ring_drain(&r, hw_asm_hit, &hits));
	sample_rate_restore(&limits);

	EXPECT_LE(LOOPS * LOOP_MISSES - LOOPS * LOOP_MISSES / 100, count);
	EXPECT_GE(hits.samples + 2, (int)(count / HW_ASM_PERIOD)) {
		TH_LOG("%d samples for %llu misses, period %d",
		       hits.samples, count, HW_ASM_PERIOD);
	}
	EXPECT_LE(hits.samples, (int)(count / HW_ASM_PERIOD) + 2);
	EXPECT_GE(1, hits.outside);
	EXPECT_EQ(0, hits.counts.type[PERF_RECORD_LOST]);
	EXPECT_EQ(0, hits.counts.type[PERF_RECORD_THROTTLE]);
	ring_unmap(&r);
	close(fd);
}

TEST_HARNESS_MAIN
