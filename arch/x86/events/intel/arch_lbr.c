// SPDX-License-Identifier: GPL-2.0
/*
 * The architectural LBR (Intel SDM vol. 3B, "Last Branch Records",
 * architectural; CPUID leaf 0x1C): from Sapphire Rapids and Alder Lake
 * on, one interface for every model.  IA32_LBR_CTL turns recording on
 * and holds the filter (privilege levels, kinds of branch, call-stack
 * mode); IA32_LBR_DEPTH the depth, whose writing empties the stack;
 * entry 0 is always the newest, each with FROM, TO and an INFO register
 * that has the flags, the cycles and the kind of branch.  CPUID 0x1C
 * says which depths, filters and INFO fields the CPU has.
 *
 * The register level only: lbr.c drives it as it drives the models'
 * stacks, with IA32_LBR_CTL's value as the events' shared filter.
 */
#include <linux/bitfield.h>
#include <linux/perf_event.h>
#include <asm/msr.h>

#include "model.h"

/* CPUID 0x1C. */
#define ARCH_LBR_DEPTHS		GENMASK(7, 0)	/* EAX: depths 8 * (n + 1) */
#define ARCH_LBR_CPL		BIT(0)		/* EBX: privilege filter */
#define ARCH_LBR_FILTER		BIT(1)		/* EBX: kinds filter */
#define ARCH_LBR_STACK		BIT(2)		/* EBX: call-stack mode */
#define ARCH_LBR_MISPRED	BIT(0)		/* ECX: INFO's flag */
#define ARCH_LBR_CYCLES		BIT(1)		/* ECX: INFO's cycles */
#define ARCH_LBR_TYPES		BIT(2)		/* ECX: INFO's kind */

/* IA32_LBR_CTL's kinds of branch, each recorded where its bit is set. */
#define ARCH_LBR_JCC		BIT_ULL(16)
#define ARCH_LBR_REL_JMP	BIT_ULL(17)
#define ARCH_LBR_IND_JMP	BIT_ULL(18)
#define ARCH_LBR_REL_CALL	BIT_ULL(19)
#define ARCH_LBR_IND_CALL	BIT_ULL(20)
#define ARCH_LBR_RET		BIT_ULL(21)
#define ARCH_LBR_OTHER		BIT_ULL(22)

/* The kinds of branch in INFO's bits 59:56; from 8, the others. */
#define ARCH_LBR_INFO_TYPE	GENMASK_ULL(59, 56)
#define ARCH_LBR_TYPE_OTHER	8

struct intel_arch_lbr intel_arch_lbr __read_mostly;

/**
 * intel_arch_lbr_probe - what the CPU's architectural LBR has
 *
 * Return: true if it has one (CPUID 0x1C lists a depth): its
 * description is then in intel_arch_lbr.
 */
bool __init intel_arch_lbr_probe(void)
{
	unsigned int eax, ebx, ecx, edx;
	struct intel_arch_lbr *a = &intel_arch_lbr;

	if (!boot_cpu_has(X86_FEATURE_ARCH_LBR) ||
	    boot_cpu_data.cpuid_level < 0x1c)
		return false;
	cpuid_count(0x1c, 0, &eax, &ebx, &ecx, &edx);
	if (!(eax & ARCH_LBR_DEPTHS))
		return false;
	/* The deepest it can be: 6.1 takes that too. */
	a->depth = 8 * fls(eax & ARCH_LBR_DEPTHS);
	a->cpl = ebx & ARCH_LBR_CPL;
	a->filter = ebx & ARCH_LBR_FILTER;
	a->call_stack = ebx & ARCH_LBR_STACK;
	a->mispred = ecx & ARCH_LBR_MISPRED;
	a->cycles = ecx & ARCH_LBR_CYCLES;
	a->types = ecx & ARCH_LBR_TYPES;
	return true;
}

/**
 * intel_arch_lbr_ctl - IA32_LBR_CTL's filter for what LBR_SELECT records
 * @recorded: the kinds LBR_SELECT's filter would record (its bits 2 to
 *	8: conditional, near relative call, near indirect call, return,
 *	near indirect jump, near relative jump, far)
 * @kernel: record the kernel's branches
 * @user: record user space's
 * @call_stack: in call-stack mode
 *
 * Return: the control's value, without its enable bit.
 */
u64 intel_arch_lbr_ctl(u64 recorded, bool kernel, bool user, bool call_stack)
{
	static const u64 kinds[] = {
		ARCH_LBR_JCC, ARCH_LBR_REL_CALL, ARCH_LBR_IND_CALL,
		ARCH_LBR_RET, ARCH_LBR_IND_JMP, ARCH_LBR_REL_JMP,
		ARCH_LBR_OTHER,
	};
	u64 ctl = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (recorded & BIT_ULL(i + 2))
			ctl |= kinds[i];
	}
	if (kernel)
		ctl |= ARCH_LBR_CTL_CPL & (1ULL << ARCH_LBR_CTL_CPL_OFFSET);
	if (user)
		ctl |= ARCH_LBR_CTL_CPL & (2ULL << ARCH_LBR_CTL_CPL_OFFSET);
	if (call_stack)
		ctl |= ARCH_LBR_CTL_STACK;
	return ctl;
}

/* The X86_BRANCH_* kind of INFO's kind, 0 for the others. */
static u32 intel_arch_lbr_kind(u64 info)
{
	switch (FIELD_GET(ARCH_LBR_INFO_TYPE, info)) {
	case 0:
		return X86_BRANCH_JCC;
	case 1:
		return X86_BRANCH_IND_JMP;
	case 2:
		return X86_BRANCH_JMP;
	case 3:
		return X86_BRANCH_IND_CALL;
	case 4:
		return X86_BRANCH_CALL;
	case 5:
		return X86_BRANCH_RET;
	}
	return 0;
}

/**
 * intel_arch_lbr_read - read the stack, newest first
 * @e: where the entries go
 * @kinds: where the kind each entry's INFO gives goes, with its level
 *	(0 where INFO does not tell: a far branch), or NULL
 * @max: at most this many
 *
 * Up to the first empty entry.
 *
 * Return: how many there were.
 */
unsigned int intel_arch_lbr_read(struct perf_branch_entry *e, u32 *kinds,
				 unsigned int max)
{
	const struct intel_arch_lbr *a = &intel_arch_lbr;
	unsigned int i, n = min(max, a->depth);
	u64 from, to, info;
	u32 kind;

	for (i = 0; i < n; i++) {
		rdmsrl(MSR_ARCH_LBR_FROM_0 + i, from);
		if (!from)
			break;
		rdmsrl(MSR_ARCH_LBR_TO_0 + i, to);
		rdmsrl(MSR_ARCH_LBR_INFO_0 + i, info);
		memset(&e[i], 0, sizeof(e[i]));
		e[i].from = from;
		e[i].to = to;
		if (a->mispred) {
			e[i].mispred = !!(info & LBR_INFO_MISPRED);
			e[i].predicted = !e[i].mispred;
		}
		e[i].in_tx = !!(info & LBR_INFO_IN_TX);
		e[i].abort = !!(info & LBR_INFO_ABORT);
		if (a->cycles && (info & LBR_INFO_CYC_CNT_VALID))
			e[i].cycles = info & LBR_INFO_CYCLES;
		if (!kinds)
			continue;
		kind = a->types ? intel_arch_lbr_kind(info) : 0;
		kinds[i] = kind ? kind | x86_branch_level(to) : 0;
	}
	return i;
}

/**
 * intel_arch_lbr_clear - empty the stack
 *
 * Writing the depth does (and sets it, as a CPU comes up).
 */
void intel_arch_lbr_clear(void)
{
	wrmsrl(MSR_ARCH_LBR_DEPTH, intel_arch_lbr.depth);
}

/**
 * intel_arch_lbr_save - keep the stack's entries
 * @from: where the FROM registers go
 * @to: the TO registers
 * @info: the INFO registers
 *
 * Return: how many entries there were (up to the first empty one).
 */
unsigned int intel_arch_lbr_save(u64 *from, u64 *to, u64 *info)
{
	unsigned int i;

	for (i = 0; i < intel_arch_lbr.depth; i++) {
		rdmsrl(MSR_ARCH_LBR_FROM_0 + i, from[i]);
		if (!from[i])
			break;
		rdmsrl(MSR_ARCH_LBR_TO_0 + i, to[i]);
		rdmsrl(MSR_ARCH_LBR_INFO_0 + i, info[i]);
	}
	return i;
}

/**
 * intel_arch_lbr_restore - put back @n entries that were saved
 * @from: their FROM registers
 * @to: their TO registers
 * @info: their INFO registers
 * @n: how many
 */
void intel_arch_lbr_restore(const u64 *from, const u64 *to, const u64 *info,
			    unsigned int n)
{
	unsigned int i;

	intel_arch_lbr_clear();
	for (i = 0; i < n; i++) {
		wrmsrl(MSR_ARCH_LBR_FROM_0 + i, from[i]);
		wrmsrl(MSR_ARCH_LBR_TO_0 + i, to[i]);
		wrmsrl(MSR_ARCH_LBR_INFO_0 + i, info[i]);
	}
}
