// SPDX-License-Identifier: GPL-2.0
/*
 * What kind of branch a recorded one was, from the instruction at its
 * source: for the software filter of a branch recorder whose hardware
 * cannot tell what branch_sample_type asks apart (or has no filter at
 * all), and for PERF_SAMPLE_BRANCH_TYPE_SAVE's types.
 *
 * A transfer from user space into the kernel by an instruction that is
 * no system call is an interrupt, a trap or a fault: the recorder logs
 * the interrupted instruction as its source.  Which privilege level a
 * branch belongs to is its target's, as the hardware's privilege filter
 * has it.
 */
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/uaccess.h>
#include <asm/insn.h>

#include "pmu.h"

/* The kind of the opcode byte after 0x0f: Jcc rel32, SYSCALL and kin. */
static u32 x86_branch_kind_0f(u8 op)
{
	switch (op) {
	case 0x05:		/* SYSCALL */
	case 0x34:		/* SYSENTER */
		return X86_BRANCH_SYSCALL;
	case 0x07:		/* SYSRET */
	case 0x35:		/* SYSEXIT */
		return X86_BRANCH_SYSRET;
	}
	if (op >= 0x80 && op <= 0x8f)
		return X86_BRANCH_JCC;
	return 0;
}

/* The kind of a decoded instruction, 0 for one that does not branch. */
static u32 x86_branch_kind_insn(struct insn *insn)
{
	u8 op = insn->opcode.bytes[0];
	u8 reg = X86_MODRM_REG(insn->modrm.value);

	if (op == 0x0f)
		return x86_branch_kind_0f(insn->opcode.bytes[1]);
	if (op >= 0x70 && op <= 0x7f)
		return X86_BRANCH_JCC;
	switch (op) {
	case 0xe0 ... 0xe3:	/* LOOPcc, JrCXZ */
		return X86_BRANCH_JCC;
	case 0xe8:		/* CALL rel32: to the next instruction? */
		return insn->immediate.value ? X86_BRANCH_CALL :
					       X86_BRANCH_ZERO_CALL;
	case 0x9a:		/* CALL far */
		return X86_BRANCH_CALL;
	case 0xe9:		/* JMP rel32 */
	case 0xeb:		/* JMP rel8 */
	case 0xea:		/* JMP far */
		return X86_BRANCH_JMP;
	case 0xc2:		/* RET imm16 */
	case 0xc3:		/* RET */
	case 0xca:		/* RET far imm16 */
	case 0xcb:		/* RET far */
		return X86_BRANCH_RET;
	case 0xcc:		/* INT3 */
	case 0xcd:		/* INT n */
	case 0xce:		/* INTO */
		return X86_BRANCH_INT;
	case 0xcf:		/* IRET */
		return X86_BRANCH_IRET;
	case 0xff:		/* group 5 */
		if (reg == 2 || reg == 3)	/* CALL near and far */
			return X86_BRANCH_IND_CALL;
		if (reg == 4 || reg == 5)	/* JMP near and far */
			return X86_BRANCH_IND_JMP;
		return 0;
	}
	return 0;
}

/**
 * x86_branch_kind_bytes - what kind of branch an instruction is
 * @buf: its bytes, in 64-bit mode
 * @len: how many of them there are (it may be shorter)
 *
 * Return: one X86_BRANCH_* kind, without a level; 0 for an instruction
 * that does not branch or cannot be decoded.
 */
u32 x86_branch_kind_bytes(const u8 *buf, unsigned int len)
{
	struct insn insn;

	if (insn_decode(&insn, buf, len, INSN_MODE_64) < 0)
		return 0;
	return x86_branch_kind_insn(&insn);
}

/**
 * x86_branch_kind - what a recorded branch was
 * @from: its source: the branch instruction, or the instruction an
 *	interrupt or fault came at
 * @to: its target
 *
 * Reads the instruction at @from: user memory of the current task
 * (the recorder holds only its branches), or the kernel's text; from
 * any context, NMI included.
 *
 * Return: one X86_BRANCH_* kind and the privilege level of @to
 * (X86_BRANCH_USER or X86_BRANCH_KERNEL), or 0 where it cannot be
 * told: the instruction cannot be read, or does not branch.
 */
u32 x86_branch_kind(u64 from, u64 to)
{
	u32 level = x86_branch_level(to), kind;
	u8 buf[MAX_INSN_SIZE];
	unsigned int len;

	if (!from || !to)
		return 0;
	if (x86_branch_level(from) == X86_BRANCH_USER) {
		/* Nothing of user space to read: a kernel thread. */
		if (!current->mm)
			return 0;
		len = MAX_INSN_SIZE -
		      copy_from_user_nmi(buf, (void __user *)from,
					 MAX_INSN_SIZE);
	} else {
		/*
		 * A user may make the recorder log any address as a
		 * source (a jump to it faults there): read only the
		 * kernel's own text.
		 */
		if (!kernel_text_address(from) ||
		    copy_from_kernel_nofault(buf, (void *)from, MAX_INSN_SIZE))
			return 0;
		len = MAX_INSN_SIZE;
	}
	kind = x86_branch_kind_bytes(buf, len);
	/* Into the kernel by anything but a system call: an interrupt. */
	if (x86_branch_level(from) == X86_BRANCH_USER &&
	    level == X86_BRANCH_KERNEL && kind != X86_BRANCH_SYSCALL &&
	    kind != X86_BRANCH_INT)
		kind = X86_BRANCH_IRQ;
	return kind ? kind | level : 0;
}

/**
 * x86_branch_perf_type - the PERF_BR_* type of a kind of branch
 * @kind: what x86_branch_kind() said
 *
 * Return: the type, PERF_BR_UNKNOWN where there is none (software
 * interrupts among them, as in 6.1).
 */
int x86_branch_perf_type(u32 kind)
{
	switch (kind & ~X86_BRANCH_LEVELS) {
	case X86_BRANCH_CALL:
	case X86_BRANCH_ZERO_CALL:
		return PERF_BR_CALL;
	case X86_BRANCH_IND_CALL:
		return PERF_BR_IND_CALL;
	case X86_BRANCH_RET:
		return PERF_BR_RET;
	case X86_BRANCH_SYSCALL:
		return PERF_BR_SYSCALL;
	case X86_BRANCH_SYSRET:
		return PERF_BR_SYSRET;
	case X86_BRANCH_IRET:
		return PERF_BR_ERET;
	case X86_BRANCH_JCC:
		return PERF_BR_COND;
	case X86_BRANCH_JMP:
		return PERF_BR_UNCOND;
	case X86_BRANCH_IND_JMP:
		return PERF_BR_IND;
	case X86_BRANCH_IRQ:
		return PERF_BR_IRQ;
	}
	return PERF_BR_UNKNOWN;
}
