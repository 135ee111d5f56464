// SPDX-License-Identifier: GPL-2.0
/*
 * Branches by kind: the model-specific raw events that count retired
 * conditional branches (all, taken or not taken), near calls, near
 * returns, indirect branches or the taken branches alone, which rr
 * counts on (conditional branches: its "ticks") and PAPI's branch
 * presets use.  A loop of one call, one return, one indirect jump and
 * two conditional branches, one taken and one not, an iteration,
 * measured in user mode by the difference method of hw_test_util.h:
 *
 *  - each kind's event counts its branches an iteration exactly (two
 *    conditional ones, one taken, one not taken, one call, one return,
 *    one indirect, four taken branches), and branches:u five;
 *  - the conditional-branch event and the taken-branch event (which
 *    counts branches of several kinds) with a sample period overflow
 *    every period branches: the loop gives as many samples as periods
 *    fit in it (within 2), each in the loop, none lost or throttled.
 *
 * The events, by CPU (Intel SDM vol. 3B, "Performance-Monitoring
 * Events"; AMD's PPR of family 17h and BKDG of family 15h):
 * BR_INST_RETIRED (0xc4) unit masks on Intel cores from Nehalem
 * (CONDITIONAL 0x01, from Ice Lake, perfmon version 5, COND 0x11 and
 * COND_TAKEN 0x01, INDIRECT 0x80; NEAR_CALL 0x02; from Sandy Bridge
 * NEAR_RETURN 0x08, NOT_TAKEN 0x10 and NEAR_TAKEN 0x20) and on Atoms
 * from Silvermont and the Xeon Phis built on them (JCC 0x7e, TAKEN_JCC
 * 0xfe, CALL 0xf9, RETURN 0xf7, NON_RETURN_IND 0xeb); on AMD retired
 * taken branches (0xc4), near returns (0xc8) and from family 17h
 * retired conditional branches (0xd1).
 *
 * Skipped where there is no hardware PMU, or no such event is known.
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"
#include "hw_asm_loop.h"

/* Per iteration of kinds_loop(): five branches in all. */
#define LOOP_BRANCHES	5

asm(".pushsection .text\n"
	".globl kinds_loop\n"
	".type kinds_loop, @function\n"
	"kinds_loop:\n"
	"1:	call 2f\n"
	"	lea 3f(%rip), %rax\n"
	"	jmp *%rax\n"
	"2:	ret\n"
	"3:	test %rdi, %rdi\n"
	"	jz 4f\n"		/* never taken */
	"	dec %rdi\n"
	"	jnz 1b\n"
	"4:	ret\n"
	".globl kinds_loop_end\n"
	"kinds_loop_end:\n"
	".size kinds_loop, . - kinds_loop\n"
	".popsection\n");

void kinds_loop(unsigned long n, void *unused);
extern const char kinds_loop_end[];

static const struct hw_asm_loop loop = {
	.fn = kinds_loop,
	.start = (uintptr_t)kinds_loop,
	.end = (uintptr_t)kinds_loop_end,
};

enum kind { COND, TAKEN, NTAKEN, CALL, RET, INDIRECT, ALL_TAKEN, KINDS };

static const char * const kind_names[KINDS] = {
	"conditional branches", "taken conditional branches",
	"conditional branches not taken", "near calls", "near returns",
	"indirect branches", "taken branches",
};

/* Each kind's branches in an iteration of kinds_loop(). */
static const __u64 kind_per_iter[KINDS] = {
	[COND] = 2, [TAKEN] = 1, [NTAKEN] = 1, [CALL] = 1, [RET] = 1,
	[INDIRECT] = 1, [ALL_TAKEN] = 4,
};

/* The raw config of each kind's event on this CPU, 0 where none. */
static void kind_events(__u64 config[KINDS])
{
	unsigned int family, model, eax, ebx, ecx, edx;

	memset(config, 0, KINDS * sizeof(config[0]));
	hw_cpu_family_model(&family, &model);
	switch (hw_vendor()) {
	case HW_VENDOR_INTEL:
		if (family != 6 || !__get_cpuid(0xa, &eax, &ebx, &ecx, &edx) ||
		    (eax & 0xff) < 3 || hw_model_bonnell(model))
			return;
		if (hw_model_atom(model)) {
			config[COND] = 0x7ec4;
			config[TAKEN] = 0xfec4;
			config[CALL] = 0xf9c4;
			config[RET] = 0xf7c4;
			config[INDIRECT] = 0xebc4;
			return;
		}
		/* From Ice Lake (version 5) 0x01 counts the taken ones only. */
		if ((eax & 0xff) >= 5) {
			config[COND] = 0x11c4;
			config[TAKEN] = 0x01c4;
			config[INDIRECT] = 0x80c4;
		} else {
			config[COND] = 0x01c4;
		}
		config[CALL] = 0x02c4;
		/* Nehalem and Westmere: no NEAR_RETURN, NOT_TAKEN, NEAR_TAKEN. */
		if (hw_model_nehalem(model))
			return;
		config[RET] = 0x08c4;
		config[NTAKEN] = 0x10c4;
		config[ALL_TAKEN] = 0x20c4;
		return;
	case HW_VENDOR_AMD:
		config[ALL_TAKEN] = 0xc4;
		config[RET] = 0xc8;
		if (family >= 0x17)
			config[COND] = 0xd1;
		return;
	default:
		return;
	}
}

TEST(branches_exact)
{
	int fd;

	HW_SKIP_WITHOUT_PMU();
	fd = hw_open(PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	ASSERT_LE(0, fd) TH_LOG("branches:u: %s", strerror(errno));
	hw_asm_expect_exact(_metadata, fd, &loop, LOOP_BRANCHES, "branches:u");
	close(fd);
}

TEST(kinds_exact)
{
	__u64 config[KINDS];
	int k, fd, tested = 0;

	HW_SKIP_WITHOUT_PMU();
	kind_events(config);
	for (k = 0; k < KINDS; k++) {
		if (!config[k])
			continue;
		fd = hw_open_group(PERF_TYPE_RAW, config[k], 0, -1);
		ASSERT_LE(0, fd) TH_LOG("raw %#llx (%s): %s", config[k],
					kind_names[k], strerror(errno));
		hw_asm_expect_exact(_metadata, fd, &loop, kind_per_iter[k],
				    kind_names[k]);
		close(fd);
		tested++;
	}
	if (!tested)
		SKIP(return, "no branch-kind events known on this CPU");
}

/* Sample kind @k's event every period over the loop. */
static void overflows_every_period(struct __test_metadata *_metadata,
				   enum kind k)
{
	__u64 config[KINDS];

	HW_SKIP_WITHOUT_PMU();
	kind_events(config);
	if (!config[k])
		SKIP(return, "no event of %s known on this CPU", kind_names[k]);
	hw_asm_expect_periods(_metadata, config[k], &loop, kind_per_iter[k],
			      kind_names[k]);
}

TEST(cond_overflows_every_period)
{
	overflows_every_period(_metadata, COND);
}

/* The taken branches are of several kinds: the emulation sums them. */
TEST(taken_overflows_every_period)
{
	overflows_every_period(_metadata, ALL_TAKEN);
}

TEST_HARNESS_MAIN
