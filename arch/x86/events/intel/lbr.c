// SPDX-License-Identifier: GPL-2.0
/*
 * The last branch records (Intel SDM vol. 3B, "Last Branch, Call Stack,
 * Interrupt, and Exception Recording").  Each model before the
 * architectural LBR has a ring of FROM and TO registers, and from
 * format 5 an INFO register each, whose top of stack (MSR_LBR_TOS) is
 * the newest entry, recording taken branches while IA32_DEBUGCTL.LBR is
 * set; the architectural LBR, where CPUID has it, is driven the same way
 * through its own registers (arch_lbr.c), IA32_LBR_CTL for LBR_SELECT.
 * The PMI freezes the stack (FREEZE_LBRS_ON_PMI) so that a sample's
 * stack ends with the branches that led to its overflow; but not in
 * call-stack mode, where a frozen stack would miss returns.
 *
 * The events on a CPU that record branches (PERF_SAMPLE_BRANCH_STACK)
 * share the stack and its filter, LBR_SELECT where the model has one
 * (hw.branch_select: the same for all of them, counters.c).  Each
 * sample takes the entries its event's branch_sample_type keeps: the
 * software filter (hw.branch_kinds), which decodes the branch
 * instructions (branch_kind.c) only where the hardware's filter is
 * coarser than what was asked, or the types are wanted.
 *
 * The entries belong to the task that ran: they are cleared as another
 * task runs, and as the first event starts recording, so that no sample
 * shows branches of a task it does not follow, or of before it began.
 * In call-stack mode (from Haswell's format), where the stack holds the
 * calls a task is inside, however long ago it made them, the stack
 * leaves with the task and comes back with it (struct intel_lbr_task):
 * its entries down to the first empty one, where every reader stops,
 * and the others emptied, so that a return below the bottom of the
 * stack finds nothing of the task that ran before.
 */
#include <linux/bitfield.h>
#include <linux/perf_event.h>
#include <linux/static_call.h>
#include <asm/msr.h>

#include "model.h"

/* The formats of the entries (IA32_PERF_CAPABILITIES bits 5:0). */
#define LBR_FMT_MASK		0x3f
#define LBR_FMT_32		0	/* FROM holds both, 32 bits each */
#define LBR_FMT_EIP_FLAGS	3	/* FROM's bit 63: mispredicted */
#define LBR_FMT_EIP_FLAGS2	4	/* and bits 62, 61: in_tx, abort */
#define LBR_FMT_INFO		5	/* the flags and cycles in INFO */
#define LBR_FMT_TIME		6	/* cycles in TO's bits 63:48 */
#define LBR_FMT_INFO2		7	/* INFO without TSX's bits */
#define LBR_FMT_ARCH		0x3f	/* the architectural LBR */

/* FROM's flags, and the cycles in TO, of the formats that have them. */
#define LBR_FROM_MISPRED	BIT_ULL(63)
#define LBR_FROM_IN_TX		BIT_ULL(62)
#define LBR_FROM_ABORT		BIT_ULL(61)
#define LBR_TO_CYCLES		GENMASK_ULL(63, 48)

/*
 * LBR_SELECT: a set bit leaves out branches to ring 0, to the other
 * rings, or of a kind; bit 9 turns call-stack mode on.
 */
#define LBR_SEL_NOT_KERNEL	BIT_ULL(0)
#define LBR_SEL_NOT_USER	BIT_ULL(1)
#define LBR_SEL_JCC		BIT_ULL(2)
#define LBR_SEL_REL_CALL	BIT_ULL(3)
#define LBR_SEL_IND_CALL	BIT_ULL(4)
#define LBR_SEL_RET		BIT_ULL(5)
#define LBR_SEL_IND_JMP		BIT_ULL(6)
#define LBR_SEL_REL_JMP		BIT_ULL(7)
#define LBR_SEL_FAR		BIT_ULL(8)
#define LBR_SEL_KINDS		GENMASK_ULL(8, 2)
#define LBR_SEL_CALL_STACK	BIT_ULL(9)

/*
 * hw.branch_kinds: the X86_BRANCH_* kinds and levels a sample keeps, and
 * how it keeps them.
 */
#define LBR_KEEP_ALL		BIT(31)	/* every entry, as recorded */
#define LBR_DECODE		BIT(30)	/* the kinds from the instructions */
#define LBR_TYPE_SAVE		BIT(29)	/* with their PERF_BR_* types */
#define LBR_NO_FLAGS		BIT(28)	/* without the predictor's flags */
#define LBR_NO_CYCLES		BIT(27)	/* without the cycles */
#define LBR_IN_TX		BIT(26)	/* those inside a transaction */
#define LBR_NO_TX		BIT(25)	/* those outside one */
#define LBR_ABORT_TX		BIT(24)	/* those that aborted one */
#define LBR_TX			(LBR_IN_TX | LBR_NO_TX | LBR_ABORT_TX)

/* The most entries a stack has (the architectural LBR's deepest). */
#define LBR_MAX			64

/* Not a value LBR_SELECT can hold: write it before the next use. */
#define LBR_SEL_UNKNOWN		(~0ULL)

/*
 * The kinds of branch_sample_type that call-stack mode cannot be asked
 * with (EINVAL, as 6.1).
 */
#define LBR_NOT_WITH_CALL_STACK	(PERF_SAMPLE_BRANCH_ANY |		\
				 PERF_SAMPLE_BRANCH_ANY_CALL |		\
				 PERF_SAMPLE_BRANCH_ANY_RETURN |	\
				 PERF_SAMPLE_BRANCH_IND_CALL |		\
				 PERF_SAMPLE_BRANCH_ABORT_TX |		\
				 PERF_SAMPLE_BRANCH_IN_TX |		\
				 PERF_SAMPLE_BRANCH_NO_TX |		\
				 PERF_SAMPLE_BRANCH_COND)

/**
 * struct intel_lbr_taken - a stack as taken for samples
 * @stack: its entries, newest first
 * @entries: @stack's
 * @kinds: what x86_branch_kind() said of each entry, with
 *	LBR_KIND_KNOWN once asked
 */
struct intel_lbr_taken {
	struct perf_branch_stack	stack;
	struct perf_branch_entry	entries[LBR_MAX];
	u32				kinds[LBR_MAX];
};

/**
 * struct intel_lbr_cpu - one CPU's branch records
 * @pmi: the stack the last PMI found
 * @record: the stack of the adaptive PEBS record being drained
 * @sample: the entries one sample keeps
 * @sample_entries: @sample's
 * @select: what LBR_SELECT holds, or LBR_SEL_UNKNOWN
 *
 * Locking: only its own CPU uses it, with interrupts off (the PMI and
 * the PMU's callbacks).
 */
struct intel_lbr_cpu {
	struct intel_lbr_taken		pmi;
	struct intel_lbr_taken		record;
	struct perf_branch_stack	sample;
	struct perf_branch_entry	sample_entries[LBR_MAX];
	u64				select;
};

#define LBR_KIND_KNOWN		BIT(31)

/**
 * struct intel_lbr_task - a task's call stack while it does not run
 * @from: the entries' FROM registers, newest first
 * @to: their TO registers
 * @info: their INFO registers, in the formats that have them
 * @nr: how many entries there are
 * @tos: the top of the stack (MSR_LBR_TOS), where the newest goes back
 * @saved: the rest holds a stack, saved as the task last left a CPU
 *
 * The task context's data (perf_event_context::task_ctx_data) where an
 * event records its calls (PERF_SAMPLE_BRANCH_CALL_STACK): its calls
 * are in the stack since they were made, which may be long before a
 * sample, so the stack leaves and comes back with the task.  Only the
 * entries down to the first empty one are the stack (every reader stops
 * there): they are all that is kept.  Used only by the CPU the task runs
 * on, in the switch.
 */
struct intel_lbr_task {
	u64		from[LBR_MAX];
	u64		to[LBR_MAX];
	u64		info[LBR_MAX];
	unsigned int	nr;
	unsigned int	tos;
	bool		saved;
};

static DEFINE_PER_CPU(struct intel_lbr_cpu, intel_lbr_cpu);

/* This machine's records, and their format; NULL: it has none. */
static const struct intel_lbr *intel_lbr __read_mostly;
/* The architectural LBR's, made from what CPUID 0x1C says. */
static struct intel_lbr intel_lbr_arch __read_mostly = {
	.select = INTEL_LBR_ARCH,
};

static unsigned int intel_lbr_format __read_mostly;
/* The bits of an address: 48, or 57 with five-level paging. */
static unsigned int intel_lbr_addr_bits __read_mostly = 48;

const struct intel_lbr intel_lbr_core2 = {
	.depth = 4, .from = MSR_LBR_CORE_FROM, .to = MSR_LBR_CORE_TO,
	.select = INTEL_LBR_NO_SELECT,
};

const struct intel_lbr intel_lbr_atom = {
	.depth = 8, .from = MSR_LBR_CORE_FROM, .to = MSR_LBR_CORE_TO,
	.select = INTEL_LBR_NO_SELECT,
};

const struct intel_lbr intel_lbr_slm = {
	.depth = 8, .from = MSR_LBR_CORE_FROM, .to = MSR_LBR_CORE_TO,
	.select = INTEL_LBR_SELECT_NHM,
};

const struct intel_lbr intel_lbr_nhm = {
	.depth = 16, .from = MSR_LBR_NHM_FROM, .to = MSR_LBR_NHM_TO,
	.select = INTEL_LBR_SELECT_NHM,
};

const struct intel_lbr intel_lbr_snb = {
	.depth = 16, .from = MSR_LBR_NHM_FROM, .to = MSR_LBR_NHM_TO,
	.select = INTEL_LBR_SELECT_SNB,
};

const struct intel_lbr intel_lbr_hsw = {
	.depth = 16, .from = MSR_LBR_NHM_FROM, .to = MSR_LBR_NHM_TO,
	.select = INTEL_LBR_SELECT_HSW,
};

const struct intel_lbr intel_lbr_skl = {
	.depth = 32, .from = MSR_LBR_NHM_FROM, .to = MSR_LBR_NHM_TO,
	.select = INTEL_LBR_SELECT_HSW,
};

const struct intel_lbr intel_lbr_knl = {
	.depth = 8, .from = MSR_LBR_NHM_FROM, .to = MSR_LBR_NHM_TO,
	.select = INTEL_LBR_SELECT_SNB,
};

/*
 * What LBR_SELECT has the hardware record for one bit of
 * branch_sample_type (its LBR_SEL_* kinds).  Nehalem's errata (and
 * Silvermont's, the same filter) want the jumps recorded for the calls
 * and returns to be, and it has no bit for direct calls alone: 6.1
 * records none of them there.
 */
static u64 intel_lbr_recorded(int bit)
{
	bool nhm = intel_lbr->select == INTEL_LBR_SELECT_NHM;
	u64 jumps = nhm ? LBR_SEL_IND_JMP | LBR_SEL_REL_JMP : 0;

	switch (bit) {
	case PERF_SAMPLE_BRANCH_ANY_SHIFT:
		return LBR_SEL_KINDS;
	case PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT:
		return LBR_SEL_REL_CALL | LBR_SEL_IND_CALL | LBR_SEL_FAR |
		       jumps;
	case PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT:
		return LBR_SEL_RET | LBR_SEL_FAR | jumps;
	case PERF_SAMPLE_BRANCH_IND_CALL_SHIFT:
		return LBR_SEL_IND_CALL | (nhm ? LBR_SEL_IND_JMP : 0);
	case PERF_SAMPLE_BRANCH_COND_SHIFT:
		return LBR_SEL_JCC;
	case PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT:
		return LBR_SEL_IND_JMP;
	case PERF_SAMPLE_BRANCH_CALL_SHIFT:
		return nhm ? 0 : LBR_SEL_REL_CALL;
	case PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT:
		return LBR_SEL_REL_CALL | LBR_SEL_IND_CALL | LBR_SEL_RET;
	}
	return 0;
}

/* The kinds of branch one bit of branch_sample_type keeps. */
static u32 intel_lbr_kinds(int bit)
{
	switch (bit) {
	case PERF_SAMPLE_BRANCH_USER_SHIFT:
		return X86_BRANCH_USER;
	case PERF_SAMPLE_BRANCH_KERNEL_SHIFT:
		return X86_BRANCH_KERNEL;
	case PERF_SAMPLE_BRANCH_ANY_SHIFT:
		return X86_BRANCH_KINDS;
	case PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT:
		return X86_BRANCH_CALL | X86_BRANCH_IND_CALL |
		       X86_BRANCH_ZERO_CALL | X86_BRANCH_SYSCALL |
		       X86_BRANCH_INT | X86_BRANCH_IRQ;
	case PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT:
		return X86_BRANCH_RET | X86_BRANCH_SYSRET | X86_BRANCH_IRET;
	case PERF_SAMPLE_BRANCH_IND_CALL_SHIFT:
		return X86_BRANCH_IND_CALL;
	case PERF_SAMPLE_BRANCH_COND_SHIFT:
		return X86_BRANCH_JCC;
	case PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT:
		return X86_BRANCH_IND_JMP;
	case PERF_SAMPLE_BRANCH_CALL_SHIFT:
		return X86_BRANCH_CALL;
	case PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT:
		return X86_BRANCH_CALL | X86_BRANCH_IND_CALL | X86_BRANCH_RET;
	case PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT:
		return LBR_ABORT_TX;
	case PERF_SAMPLE_BRANCH_IN_TX_SHIFT:
		return LBR_IN_TX;
	case PERF_SAMPLE_BRANCH_NO_TX_SHIFT:
		return LBR_NO_TX;
	case PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT:
		return LBR_NO_FLAGS;
	case PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT:
		return LBR_NO_CYCLES;
	case PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT:
		return LBR_TYPE_SAVE;
	}
	return 0;
}

/*
 * Whether the hardware's filter records exactly the kinds one bit of
 * branch_sample_type keeps: else the software filter must decode the
 * entries.  Far branches are of many kinds, and a CPU without
 * LBR_SELECT records every kind.
 */
static bool intel_lbr_exact(int bit)
{
	if (bit == PERF_SAMPLE_BRANCH_ANY_SHIFT)
		return true;
	if (!(intel_lbr_kinds(bit) & X86_BRANCH_KINDS))
		return true;
	if (intel_lbr->select == INTEL_LBR_NO_SELECT ||
	    (intel_lbr->select == INTEL_LBR_ARCH && !intel_arch_lbr.filter))
		return false;
	return !(intel_lbr_recorded(bit) & LBR_SEL_FAR) &&
	       !(bit == PERF_SAMPLE_BRANCH_IND_CALL_SHIFT &&
		 intel_lbr->select == INTEL_LBR_SELECT_NHM);
}

/**
 * intel_lbr_config - check an event's branch_sample_type
 * @event: a new event of the cpu PMU
 *
 * Fills in hw.branch_select (LBR_SELECT's value) and hw.branch_kinds
 * (what its samples keep) for an event that records branches.
 *
 * Return: 0, -EOPNOTSUPP where there are no branch records or no
 * call-stack mode, -EINVAL for call-stack mode with another kind.
 */
int intel_lbr_config(struct perf_event *event)
{
	unsigned long bst = event->attr.branch_sample_type;
	struct hw_perf_event *hwc = &event->hw;
	u64 recorded = 0;
	bool exact = true;
	u32 kinds = 0;
	int bit;

	if (!has_branch_stack(event))
		return 0;
	if (!intel_lbr)
		return perf_refuse(-EOPNOTSUPP,
				   "sample_type: no branch records here", bst);
	if (bst & PERF_SAMPLE_BRANCH_CALL_STACK) {
		if (intel_lbr->select != INTEL_LBR_SELECT_HSW &&
		    !(intel_lbr->select == INTEL_LBR_ARCH &&
		      intel_arch_lbr.call_stack))
			return perf_refuse(-EOPNOTSUPP,
					   "branch_sample_type: no call-stack mode here",
					   bst);
		if (bst & LBR_NOT_WITH_CALL_STACK)
			return perf_refuse(-EINVAL,
					   "branch_sample_type: call-stack mode with another kind",
					   bst);
		/* Its task's stack is kept while it does not run. */
		event->attach_state |= PERF_ATTACH_TASK_DATA;
	}
	for_each_set_bit(bit, &bst, PERF_SAMPLE_BRANCH_MAX_SHIFT) {
		recorded |= intel_lbr_recorded(bit);
		kinds |= intel_lbr_kinds(bit);
		exact &= intel_lbr_exact(bit);
	}

	if (intel_lbr->select == INTEL_LBR_ARCH) {
		hwc->branch_select =
			intel_arch_lbr_ctl(recorded, kinds & X86_BRANCH_KERNEL,
					   kinds & X86_BRANCH_USER,
					   bst & PERF_SAMPLE_BRANCH_CALL_STACK);
	} else if (intel_lbr->select != INTEL_LBR_NO_SELECT) {
		hwc->branch_select = LBR_SEL_KINDS & ~recorded;
		if (!(kinds & X86_BRANCH_KERNEL))
			hwc->branch_select |= LBR_SEL_NOT_KERNEL;
		if (!(kinds & X86_BRANCH_USER))
			hwc->branch_select |= LBR_SEL_NOT_USER;
		if (bst & PERF_SAMPLE_BRANCH_CALL_STACK)
			hwc->branch_select |= LBR_SEL_CALL_STACK;
	}
	if (!exact || (kinds & LBR_TYPE_SAVE))
		kinds |= LBR_DECODE;
	if ((kinds & (X86_BRANCH_KINDS | X86_BRANCH_LEVELS)) ==
	    (X86_BRANCH_KINDS | X86_BRANCH_LEVELS) &&
	    !(kinds & (LBR_DECODE | LBR_TX | LBR_NO_FLAGS | LBR_NO_CYCLES)))
		kinds |= LBR_KEEP_ALL;
	hwc->branch_kinds = kinds;
	return 0;
}

/* An address as the CPU would have it: canonical. */
static u64 intel_lbr_addr(u64 val)
{
	return sign_extend64(val, intel_lbr_addr_bits - 1);
}

/* Whether the formats' entries have INFO registers. */
static bool intel_lbr_has_info(void)
{
	return intel_lbr_format == LBR_FMT_INFO ||
	       intel_lbr_format == LBR_FMT_INFO2;
}

/* The entry of the registers @from, @to and @info into @e. */
static void intel_lbr_decode(u64 from, u64 to, u64 info,
			     struct perf_branch_entry *e)
{
	memset(e, 0, sizeof(*e));
	if (intel_lbr_format == LBR_FMT_32) {
		e->from = (u32)from;
		e->to = from >> 32;
		return;
	}
	e->from = intel_lbr_addr(from);
	e->to = intel_lbr_addr(to);
	switch (intel_lbr_format) {
	case LBR_FMT_EIP_FLAGS2:
		e->in_tx = !!(from & LBR_FROM_IN_TX);
		e->abort = !!(from & LBR_FROM_ABORT);
		fallthrough;
	case LBR_FMT_EIP_FLAGS:
		e->mispred = !!(from & LBR_FROM_MISPRED);
		e->predicted = !e->mispred;
		break;
	case LBR_FMT_TIME:
		e->mispred = !!(from & LBR_FROM_MISPRED);
		e->predicted = !e->mispred;
		e->cycles = FIELD_GET(LBR_TO_CYCLES, to);
		break;
	case LBR_FMT_INFO:
	case LBR_FMT_INFO2:
		e->mispred = !!(info & LBR_INFO_MISPRED);
		e->predicted = !e->mispred;
		if (intel_lbr_format == LBR_FMT_INFO) {
			e->in_tx = !!(info & LBR_INFO_IN_TX);
			e->abort = !!(info & LBR_INFO_ABORT);
		}
		e->cycles = info & LBR_INFO_CYCLES;
		break;
	}
}

/* Entry @i (by its registers' number) into @e; false if it is empty. */
static bool intel_lbr_read_entry(unsigned int i, struct perf_branch_entry *e)
{
	u64 from, to = 0, info = 0;

	rdmsrl(intel_lbr->from + i, from);
	if (!from)
		return false;
	if (intel_lbr_format != LBR_FMT_32)
		rdmsrl(intel_lbr->to + i, to);
	if (intel_lbr_has_info())
		rdmsrl(MSR_LBR_INFO_0 + i, info);
	intel_lbr_decode(from, to, info, e);
	return true;
}

/*
 * Read the stack into @e, newest first, up to the first empty entry and
 * at most @max entries; returns how many, and the top of the stack in
 * @tos.  In call-stack mode the calls returned from stay above the top
 * of the stack, which is read last, after an empty entry unless the
 * calls filled the whole stack.
 */
static unsigned int intel_lbr_read_into(struct perf_branch_entry *e,
					unsigned int max, u64 *tos)
{
	unsigned int mask = intel_lbr->depth - 1, i;

	rdmsrl(MSR_LBR_TOS, *tos);
	*tos &= mask;
	for (i = 0; i < min_t(unsigned int, max, intel_lbr->depth); i++) {
		if (!intel_lbr_read_entry((*tos - i) & mask, &e[i]))
			break;
	}
	return i;
}

/*
 * x86_pmu::branch_read: take the stack for this PMI's samples.  The
 * architectural LBR's newest entry is always its first (hw_idx 0, as
 * 6.1 says), and their INFO may say their kind.
 */
static void intel_lbr_read(void)
{
	struct intel_lbr_taken *t = this_cpu_ptr(&intel_lbr_cpu.pmi);
	unsigned int i;

	if (intel_lbr->select != INTEL_LBR_ARCH) {
		t->stack.nr = intel_lbr_read_into(t->entries, LBR_MAX,
						  &t->stack.hw_idx);
		memset(t->kinds, 0, t->stack.nr * sizeof(t->kinds[0]));
		return;
	}
	t->stack.nr = intel_arch_lbr_read(t->entries, t->kinds, LBR_MAX);
	t->stack.hw_idx = 0;
	for (i = 0; i < t->stack.nr; i++) {
		if (t->kinds[i])
			t->kinds[i] |= LBR_KIND_KNOWN;
	}
}

/*
 * perf_snapshot_branch_stack() (BPF's bpf_get_branch_snapshot()): the
 * stack as it is now, into @entries, at most @cnt of them; the number
 * taken.  Recording stops first, so that the branches here do not push
 * out the ones the caller wants, and the counters too, so that no PMI
 * comes in between; both are then as they were (the caller may be the
 * PMI's own BPF program).
 */
static int intel_lbr_snapshot(struct perf_branch_entry *entries,
			      unsigned int cnt)
{
	u64 ctrl, debugctl, tos;
	unsigned long flags;
	unsigned int n;

	local_irq_save(flags);
	rdmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	if (intel_lbr->select == INTEL_LBR_ARCH) {
		rdmsrl(MSR_ARCH_LBR_CTL, debugctl);
		if (debugctl & ARCH_LBR_CTL_LBREN)
			wrmsrl(MSR_ARCH_LBR_CTL, 0);
		n = intel_arch_lbr_read(entries, NULL, cnt);
		if (debugctl & ARCH_LBR_CTL_LBREN)
			wrmsrl(MSR_ARCH_LBR_CTL, debugctl);
	} else {
		rdmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
		if (debugctl & DEBUGCTLMSR_LBR)
			wrmsrl(MSR_IA32_DEBUGCTLMSR,
			       debugctl & ~DEBUGCTLMSR_LBR);
		n = intel_lbr_read_into(entries, cnt, &tos);
		if (debugctl & DEBUGCTLMSR_LBR)
			wrmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
	}
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
	local_irq_restore(flags);
	return n;
}

/* What kind of branch entry @i of the stack was (cached). */
static u32 intel_lbr_kind(struct intel_lbr_taken *t, unsigned int i)
{
	if (!(t->kinds[i] & LBR_KIND_KNOWN))
		t->kinds[i] = x86_branch_kind(t->entries[i].from,
					      t->entries[i].to) |
			      LBR_KIND_KNOWN;
	return t->kinds[i] & ~LBR_KIND_KNOWN;
}

/*
 * Whether a sample that keeps @want keeps entry @i: its target at a
 * level asked for, and nothing from the kernel where only user space
 * was (the return to user space); of a kind asked for; inside or outside
 * a transaction as asked.
 */
static bool intel_lbr_keeps(struct intel_lbr_taken *t, unsigned int i,
			    u32 want)
{
	const struct perf_branch_entry *e = &t->entries[i];

	if (!(want & x86_branch_level(e->to)))
		return false;
	if (!(want & X86_BRANCH_KERNEL) &&
	    x86_branch_level(e->from) == X86_BRANCH_KERNEL)
		return false;
	if ((want & LBR_DECODE) &&
	    !(intel_lbr_kind(t, i) & want & X86_BRANCH_KINDS))
		return false;
	if (!(want & LBR_TX))
		return true;
	return ((want & LBR_IN_TX) && e->in_tx) ||
	       ((want & LBR_NO_TX) && !e->in_tx) ||
	       ((want & LBR_ABORT_TX) && e->abort);
}

/* The entries of @t that @event's sample keeps. */
static struct perf_branch_stack *intel_lbr_filter(struct perf_event *event,
						  struct intel_lbr_taken *t)
{
	struct intel_lbr_cpu *c = this_cpu_ptr(&intel_lbr_cpu);
	u32 want = event->hw.branch_kinds;
	struct perf_branch_entry *e;
	unsigned int i, nr = 0;

	if (want & LBR_KEEP_ALL)
		return &t->stack;
	for (i = 0; i < t->stack.nr; i++) {
		if (!intel_lbr_keeps(t, i, want))
			continue;
		e = &c->sample_entries[nr++];
		*e = t->entries[i];
		if (want & LBR_TYPE_SAVE)
			e->type = x86_branch_perf_type(intel_lbr_kind(t, i));
		if (want & LBR_NO_FLAGS) {
			e->mispred = 0;
			e->predicted = 0;
			e->in_tx = 0;
			e->abort = 0;
		}
		if (want & LBR_NO_CYCLES)
			e->cycles = 0;
	}
	c->sample.nr = nr;
	c->sample.hw_idx = t->stack.hw_idx;
	return &c->sample;
}

/* x86_pmu::branch_sample: the entries @event's sample keeps. */
static struct perf_branch_stack *intel_lbr_sample(struct perf_event *event)
{
	return intel_lbr_filter(event, this_cpu_ptr(&intel_lbr_cpu.pmi));
}

/**
 * intel_lbr_record_depth - the entries an adaptive PEBS record's LBR
 *	group should have
 *
 * Return: the stack's depth, or 0 where records cannot carry it (the
 * architectural LBR's entries, which no flavour with adaptive PEBS
 * here has: its events' samples read the stack at the PMI).
 */
unsigned int intel_lbr_record_depth(void)
{
	if (!intel_lbr || intel_lbr->select == INTEL_LBR_ARCH ||
	    !intel_lbr_has_info())
		return 0;
	return intel_lbr->depth;
}

/**
 * intel_lbr_record_sample - the branches of a sample of an adaptive PEBS
 *	record's LBR group
 * @event: the event of the sample, which records branches
 * @regs: the group: each entry's FROM, TO and INFO, newest first
 * @nr: its entries
 *
 * The group is the stack as the instruction left it, which the PMI may
 * find grown.  In NMI context, or with the counters stopped.
 *
 * Return: the entries the sample keeps, as intel_lbr_sample()'s.
 */
struct perf_branch_stack *intel_lbr_record_sample(struct perf_event *event,
						  const u64 *regs,
						  unsigned int nr)
{
	struct intel_lbr_taken *t = this_cpu_ptr(&intel_lbr_cpu.record);
	unsigned int i;
	u64 tos;

	nr = min_t(unsigned int, nr, LBR_MAX);
	for (i = 0; i < nr && regs[3 * i]; i++)
		intel_lbr_decode(regs[3 * i], regs[3 * i + 1], regs[3 * i + 2],
				 &t->entries[i]);
	t->stack.nr = i;
	memset(t->kinds, 0, i * sizeof(t->kinds[0]));
	/*
	 * The top of the stack now, where the PMI's read would start: only
	 * for a sample that shows it, not an MSR read for every record.
	 */
	t->stack.hw_idx = 0;
	if (event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
		rdmsrl(MSR_LBR_TOS, tos);
		t->stack.hw_idx = tos & (intel_lbr->depth - 1);
	}
	return intel_lbr_filter(event, t);
}

/* Empty the stack: nothing recorded before is reported. */
static void intel_lbr_clear(void)
{
	unsigned int i;

	if (intel_lbr->select == INTEL_LBR_ARCH) {
		intel_arch_lbr_clear();
		return;
	}
	for (i = 0; i < intel_lbr->depth; i++) {
		wrmsrl(intel_lbr->from + i, 0);
		if (intel_lbr_format != LBR_FMT_32)
			wrmsrl(intel_lbr->to + i, 0);
		if (intel_lbr_has_info())
			wrmsrl(MSR_LBR_INFO_0 + i, 0);
	}
}

/**
 * intel_lbr_enable - start recording for the events on this CPU
 *
 * From the enabling of its counters, while events record branches:
 * their filter, then IA32_DEBUGCTL's LBR and freeze-on-PMI bits.
 */
void intel_lbr_enable(void)
{
	struct intel_lbr_cpu *c = this_cpu_ptr(&intel_lbr_cpu);
	u64 select = this_cpu_read(x86_pmu_cpu.branch_select), debugctl;
	u64 on = DEBUGCTLMSR_FREEZE_LBRS_ON_PMI, want;

	if (intel_lbr->select == INTEL_LBR_ARCH) {
		/* IA32_LBR_CTL's enable bit starts it. */
		select |= ARCH_LBR_CTL_LBREN;
		if (c->select != select) {
			wrmsrl(MSR_ARCH_LBR_CTL, select);
			c->select = select;
		}
	} else {
		on |= DEBUGCTLMSR_LBR;
		/*
		 * A stack frozen at a PMI would miss the returns of the
		 * calls it saw, and lose its way: call-stack mode goes on
		 * recording, as on 6.1 (the kernel's own calls and returns
		 * balance before the PMI ends).
		 */
		if (select & LBR_SEL_CALL_STACK)
			on &= ~DEBUGCTLMSR_FREEZE_LBRS_ON_PMI;
		if (intel_lbr->select != INTEL_LBR_NO_SELECT &&
		    c->select != select) {
			wrmsrl(MSR_LBR_SELECT, select);
			c->select = select;
		}
	}
	rdmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
	want = (debugctl & ~DEBUGCTLMSR_FREEZE_LBRS_ON_PMI) | on;
	if (debugctl != want)
		wrmsrl(MSR_IA32_DEBUGCTLMSR, want);
}

/**
 * intel_lbr_disable - stop recording on this CPU
 *
 * From the disabling of its counters, while events record branches,
 * and as the last of them goes.
 */
void intel_lbr_disable(void)
{
	struct intel_lbr_cpu *c = this_cpu_ptr(&intel_lbr_cpu);
	u64 debugctl;

	if (intel_lbr->select == INTEL_LBR_ARCH) {
		if (c->select) {
			wrmsrl(MSR_ARCH_LBR_CTL, 0);
			c->select = 0;
		}
		return;
	}
	rdmsrl(MSR_IA32_DEBUGCTLMSR, debugctl);
	if (debugctl & DEBUGCTLMSR_LBR)
		wrmsrl(MSR_IA32_DEBUGCTLMSR, debugctl & ~DEBUGCTLMSR_LBR);
}

/**
 * intel_lbr_reset_cpu - this CPU's records in their boot state
 *
 * As a CPU comes up or goes down: not recording, LBR_SELECT to be
 * written before its next use.
 */
void intel_lbr_reset_cpu(void)
{
	if (!intel_lbr)
		return;
	this_cpu_write(intel_lbr_cpu.select, LBR_SEL_UNKNOWN);
	if (intel_lbr->select == INTEL_LBR_ARCH) {
		wrmsrl(MSR_ARCH_LBR_CTL, 0);
		this_cpu_write(intel_lbr_cpu.select, 0);
		intel_arch_lbr_clear();
		return;
	}
	intel_lbr_disable();
}

/* x86_pmu::branch_start: the first event to record branches here. */
static void intel_lbr_start(void)
{
	intel_lbr_clear();
}

/* x86_pmu::branch_stop: the last one goes. */
static void intel_lbr_stop(void)
{
	intel_lbr_disable();
}

/*
 * Keep the call stack of the task leaving, @t: from the top of the stack
 * down to the first empty entry.  What lies beyond it is not the stack's
 * (calls returned from, or another task's), and is not read.
 */
static void intel_lbr_save(struct intel_lbr_task *t)
{
	unsigned int mask = intel_lbr->depth - 1, i, slot;
	bool info = intel_lbr_has_info();
	u64 tos;

	t->saved = true;
	if (intel_lbr->select == INTEL_LBR_ARCH) {
		t->nr = intel_arch_lbr_save(t->from, t->to, t->info);
		return;
	}
	rdmsrl(MSR_LBR_TOS, tos);
	t->tos = tos & mask;
	for (i = 0; i <= mask; i++) {
		slot = (t->tos - i) & mask;
		rdmsrl(intel_lbr->from + slot, t->from[i]);
		if (!t->from[i])
			break;
		rdmsrl(intel_lbr->to + slot, t->to[i]);
		if (info)
			rdmsrl(MSR_LBR_INFO_0 + slot, t->info[i]);
	}
	t->nr = i;
}

/*
 * Put back the call stack of the task now running, @t, where it was; the
 * other entries are emptied, so that a return below the stack finds
 * nothing of the task that ran before.
 */
static void intel_lbr_restore(const struct intel_lbr_task *t)
{
	unsigned int mask = intel_lbr->depth - 1, i, slot;
	bool info = intel_lbr_has_info();

	if (intel_lbr->select == INTEL_LBR_ARCH) {
		intel_arch_lbr_restore(t->from, t->to, t->info, t->nr);
		return;
	}
	for (i = 0; i <= mask; i++) {
		bool kept = i < t->nr;

		slot = (t->tos - i) & mask;
		wrmsrl(intel_lbr->from + slot, kept ? t->from[i] : 0);
		wrmsrl(intel_lbr->to + slot, kept ? t->to[i] : 0);
		if (info)
			wrmsrl(MSR_LBR_INFO_0 + slot, kept ? t->info[i] : 0);
	}
	wrmsrl(MSR_LBR_TOS, t->tos);
}

/*
 * x86_pmu::branch_switch: a task's call stack leaves and comes back with
 * it, where its events record calls; otherwise, as a task runs, what the
 * last one left is not its own.
 */
static void intel_lbr_switch(struct perf_event_context *ctx, bool sched_in)
{
	struct intel_lbr_task *t = ctx ? READ_ONCE(ctx->task_ctx_data) : NULL;
	u64 select = this_cpu_read(x86_pmu_cpu.branch_select);
	bool stack = select & (intel_lbr->select == INTEL_LBR_ARCH ?
			       ARCH_LBR_CTL_STACK : LBR_SEL_CALL_STACK);

	if (!sched_in) {
		/*
		 * Not in call-stack mode now (its events are not on): what
		 * was saved before is stale by now.
		 */
		if (t && stack)
			intel_lbr_save(t);
		else if (t)
			t->saved = false;
		return;
	}
	if (t && stack && t->saved)
		intel_lbr_restore(t);
	else
		intel_lbr_clear();
}

/* Whether the records are there to be used (a hypervisor may lack them). */
static bool __init intel_lbr_present(const struct intel_lbr *lbr)
{
	u64 val;

	if (lbr->select == INTEL_LBR_ARCH)
		return !rdmsrl_safe(MSR_ARCH_LBR_CTL, &val) &&
		       !rdmsrl_safe(MSR_ARCH_LBR_DEPTH, &val);
	return !rdmsrl_safe(MSR_LBR_TOS, &val) &&
	       !rdmsrl_safe(lbr->from, &val) && !wrmsrl_safe(lbr->from, val) &&
	       (lbr->select == INTEL_LBR_NO_SELECT ||
		!rdmsrl_safe(MSR_LBR_SELECT, &val));
}

/* The architectural LBR where the CPU has one, else the model's stack. */
static const struct intel_lbr *__init
intel_lbr_find(const struct intel_model *model)
{
	if (intel_arch_lbr_probe()) {
		intel_lbr_arch.depth = min_t(unsigned int, intel_arch_lbr.depth,
					     LBR_MAX);
		intel_arch_lbr.depth = intel_lbr_arch.depth;
		return &intel_lbr_arch;
	}
	return model ? model->lbr : NULL;
}

/**
 * intel_lbr_init - set up the branch records
 * @model: this machine's model (a hybrid's big cores'), or NULL
 * @caps: IA32_PERF_CAPABILITIES, or 0 where there is none
 * @arch: where to put what the boot message says first of the
 *	architectural LBR ("Architectural LBR, ", or "")
 *
 * Return: what the boot message says of their depth ("16-deep LBR, "),
 * or "" where there are none.
 */
const char *__init intel_lbr_init(const struct intel_model *model, u64 caps,
				  const char **arch)
{
	const struct intel_lbr *lbr = intel_lbr_find(model);
	static char line[24];

	*arch = "";
	if (!lbr || x86_pmu.version < 2 || !intel_lbr_present(lbr))
		return "";
	intel_lbr = lbr;
	intel_lbr_format = caps & LBR_FMT_MASK;
	if (lbr->select == INTEL_LBR_ARCH) {
		intel_lbr_format = LBR_FMT_ARCH;
		*arch = "Architectural LBR, ";
	}
	if (boot_cpu_has(X86_FEATURE_LA57))
		intel_lbr_addr_bits = 57;
	x86_pmu.branches = intel_lbr->depth;
	x86_pmu.branch_start = intel_lbr_start;
	x86_pmu.branch_stop = intel_lbr_stop;
	x86_pmu.branch_read = intel_lbr_read;
	x86_pmu.branch_sample = intel_lbr_sample;
	x86_pmu.branch_switch = intel_lbr_switch;
	x86_cpu_pmu.task_ctx_size = sizeof(struct intel_lbr_task);
	static_call_update(perf_snapshot_branch_stack, intel_lbr_snapshot);
	snprintf(line, sizeof(line), "%u-deep LBR, ", intel_lbr->depth);
	return line;
}
