// SPDX-License-Identifier: GPL-2.0
/*
 * Loads and stores retired: the model-specific raw events that count
 * the instructions that load from memory and those that store to it,
 * which PAPI's PAPI_LD_INS, PAPI_SR_INS and PAPI_LST_INS presets use.
 * A loop whose iteration has a load, a store, an add to memory and a
 * locked increment (each of the last two both loads and stores), in
 * user mode, measured by the difference method of hw_test_util.h:
 *
 *  - the loads event counts three an iteration, exactly, and the
 *    stores event three;
 *  - the loads event with a sample period overflows every period
 *    loads: the loop gives as many samples as periods fit in it
 *    (within 2), each in the loop, none lost or throttled.
 *
 * The events, by CPU (Intel SDM vol. 3B, "Performance-Monitoring
 * Events"): INST_RETIRED.LOADS and STORES (0xc0, unit masks 0x01 and
 * 0x02) on Core 2; MEM_INST_RETIRED.LOADS and STORES (0x0b, 0x01 and
 * 0x02) on Nehalem and Westmere; MEM_UOPS_RETIRED.ALL_LOADS and
 * ALL_STORES (0x04, 0x40 and 0x80) on Silvermont and Airmont, and its
 * loads on Knights Landing and Mill; MEM_UOPS_RETIRED (MEM_INST_RETIRED
 * from Skylake) ALL_LOADS and ALL_STORES (0xd0, 0x81 and 0x82) on the
 * later cores and on the Atoms from Goldmont.
 *
 * Skipped where there is no hardware PMU, or no such event is known
 * (the first Atoms, AMD's CPUs, whose PMCx029 counts operations
 * dispatched rather than instructions retired).
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"
#include "hw_asm_loop.h"

/* Per iteration of mem_loop(): loads and stores. */
#define LOOP_LOADS	3
#define LOOP_STORES	3

/* mem_loop(n, buf): buf is four longs. */
asm(".pushsection .text\n"
	".globl mem_loop\n"
	".type mem_loop, @function\n"
	"mem_loop:\n"
	"1:	mov (%rsi), %rax\n"
	"	mov %rax, 8(%rsi)\n"
	"	add %rax, 16(%rsi)\n"
	"	lock incq 24(%rsi)\n"
	"	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".globl mem_loop_end\n"
	"mem_loop_end:\n"
	".size mem_loop, . - mem_loop\n"
	".popsection\n");

void mem_loop(unsigned long n, void *buf);
extern const char mem_loop_end[];

enum mem { LOADS, STORES, MEMS };

static const char * const mem_names[MEMS] = { "loads", "stores" };
static const __u64 mem_per_iter[MEMS] = { LOOP_LOADS, LOOP_STORES };

static unsigned long buf[4];

static const struct hw_asm_loop loop = {
	.fn = mem_loop,
	.arg = buf,
	.start = (uintptr_t)mem_loop,
	.end = (uintptr_t)mem_loop_end,
};

/* Silvermont and Airmont. */
static const unsigned char silvermont_models[] = {
	0x37, 0x4a, 0x4c, 0x4d, 0x5a, 0x5d,
};

/* Knights Landing and Mill. */
static const unsigned char knl_models[] = { 0x57, 0x85 };

/* The raw config of each event on this CPU, 0 where none is known. */
static void mem_events(__u64 config[MEMS])
{
	unsigned int family, model, eax, ebx, ecx, edx, version;

	memset(config, 0, MEMS * sizeof(config[0]));
	hw_cpu_family_model(&family, &model);
	if (hw_vendor() != HW_VENDOR_INTEL || family != 6 ||
	    !__get_cpuid(0xa, &eax, &ebx, &ecx, &edx) ||
	    hw_model_bonnell(model))
		return;
	version = eax & 0xff;
	if (version == 2) {
		config[LOADS] = 0x01c0;
		config[STORES] = 0x02c0;
	} else if (version < 3) {
		return;
	} else if (hw_model_nehalem(model)) {
		config[LOADS] = 0x010b;
		config[STORES] = 0x020b;
	} else if (hw_model_listed(silvermont_models,
				   sizeof(silvermont_models), model)) {
		config[LOADS] = 0x4004;
		config[STORES] = 0x8004;
	} else if (hw_model_listed(knl_models, sizeof(knl_models), model)) {
		config[LOADS] = 0x4004;
	} else {
		config[LOADS] = 0x81d0;
		config[STORES] = 0x82d0;
	}
}

TEST(loads_stores_exact)
{
	__u64 config[MEMS];
	int m, fd, tested = 0;

	HW_SKIP_WITHOUT_PMU();
	mem_events(config);
	for (m = 0; m < MEMS; m++) {
		if (!config[m])
			continue;
		fd = hw_open_group(PERF_TYPE_RAW, config[m], 0, -1);
		ASSERT_LE(0, fd) TH_LOG("raw %#llx (%s): %s", config[m],
					mem_names[m], strerror(errno));
		hw_asm_expect_exact(_metadata, fd, &loop, mem_per_iter[m],
				    mem_names[m]);
		close(fd);
		tested++;
	}
	if (!tested)
		SKIP(return, "no load or store event known on this CPU");
}

TEST(loads_overflow_every_period)
{
	__u64 config[MEMS];

	HW_SKIP_WITHOUT_PMU();
	mem_events(config);
	if (!config[LOADS])
		SKIP(return, "no load event known on this CPU");
	hw_asm_expect_periods(_metadata, config[LOADS], &loop, LOOP_LOADS,
			      mem_names[LOADS]);
}

TEST_HARNESS_MAIN
