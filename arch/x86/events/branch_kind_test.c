// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the branch classifier (branch_kind.c): the kind of
 * each branch instruction, from its bytes; that instructions which do
 * not branch, or are cut short, have none; the PERF_BR_* type of each
 * kind; and the kind of a transfer from the kernel's own text, whose
 * bytes are read at its address.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <asm/insn.h>

#include "pmu.h"

struct kind_case {
	const char	*name;
	u8		bytes[8];
	unsigned int	len;
	u32		kind;
};

static const struct kind_case kind_cases[] = {
	{ "call rel32", { 0xe8, 0x10, 0, 0, 0 }, 5, X86_BRANCH_CALL },
	{ "call +0", { 0xe8, 0, 0, 0, 0 }, 5, X86_BRANCH_ZERO_CALL },
	{ "call *%rax", { 0xff, 0xd0 }, 2, X86_BRANCH_IND_CALL },
	{ "call *(%rax)", { 0xff, 0x10 }, 2, X86_BRANCH_IND_CALL },
	{ "lcall *(%rax)", { 0xff, 0x18 }, 2, X86_BRANCH_IND_CALL },
	{ "jmp *%rax", { 0xff, 0xe0 }, 2, X86_BRANCH_IND_JMP },
	{ "jmp *8(%rsp)", { 0xff, 0x64, 0x24, 0x08 }, 4, X86_BRANCH_IND_JMP },
	{ "jmp rel8", { 0xeb, 0xfe }, 2, X86_BRANCH_JMP },
	{ "jmp rel32", { 0xe9, 0, 1, 0, 0 }, 5, X86_BRANCH_JMP },
	{ "jnz rel8", { 0x75, 0xfe }, 2, X86_BRANCH_JCC },
	{ "jnz rel32", { 0x0f, 0x85, 0, 1, 0, 0 }, 6, X86_BRANCH_JCC },
	{ "loop", { 0xe2, 0xfe }, 2, X86_BRANCH_JCC },
	{ "jrcxz", { 0xe3, 0xfe }, 2, X86_BRANCH_JCC },
	{ "ret", { 0xc3 }, 1, X86_BRANCH_RET },
	{ "ret $8", { 0xc2, 8, 0 }, 3, X86_BRANCH_RET },
	{ "lret", { 0xcb }, 1, X86_BRANCH_RET },
	{ "syscall", { 0x0f, 0x05 }, 2, X86_BRANCH_SYSCALL },
	{ "sysenter", { 0x0f, 0x34 }, 2, X86_BRANCH_SYSCALL },
	{ "sysretq", { 0x48, 0x0f, 0x07 }, 3, X86_BRANCH_SYSRET },
	{ "sysexit", { 0x0f, 0x35 }, 2, X86_BRANCH_SYSRET },
	{ "int3", { 0xcc }, 1, X86_BRANCH_INT },
	{ "int $0x80", { 0xcd, 0x80 }, 2, X86_BRANCH_INT },
	{ "iretq", { 0x48, 0xcf }, 2, X86_BRANCH_IRET },
	{ "nop", { 0x90 }, 1, 0 },
	{ "inc %eax", { 0xff, 0xc0 }, 2, 0 },
	{ "push (%rax)", { 0xff, 0x30 }, 2, 0 },
	{ "mov %rsp,%rbp", { 0x48, 0x89, 0xe5 }, 3, 0 },
	{ "cut short", { 0xe8, 0x10, 0 }, 3, 0 },
};

static void branch_kind_of_bytes(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kind_cases); i++) {
		const struct kind_case *c = &kind_cases[i];

		KUNIT_EXPECT_EQ_MSG(test, c->kind,
				    x86_branch_kind_bytes(c->bytes, c->len),
				    "%s", c->name);
	}
}

static void branch_perf_types(struct kunit *test)
{
	static const struct {
		u32 kind;
		int type;
	} types[] = {
		{ X86_BRANCH_CALL, PERF_BR_CALL },
		{ X86_BRANCH_ZERO_CALL, PERF_BR_CALL },
		{ X86_BRANCH_IND_CALL, PERF_BR_IND_CALL },
		{ X86_BRANCH_RET, PERF_BR_RET },
		{ X86_BRANCH_SYSCALL, PERF_BR_SYSCALL },
		{ X86_BRANCH_SYSRET, PERF_BR_SYSRET },
		{ X86_BRANCH_IRET, PERF_BR_ERET },
		{ X86_BRANCH_JCC, PERF_BR_COND },
		{ X86_BRANCH_JMP, PERF_BR_UNCOND },
		{ X86_BRANCH_IND_JMP, PERF_BR_IND },
		{ X86_BRANCH_IRQ, PERF_BR_IRQ },
		{ X86_BRANCH_INT, PERF_BR_UNKNOWN },
		{ 0, PERF_BR_UNKNOWN },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		KUNIT_EXPECT_EQ_MSG(test, types[i].type,
				    x86_branch_perf_type(types[i].kind),
				    "kind %#x", types[i].kind);
		KUNIT_EXPECT_EQ_MSG(test, types[i].type,
				    x86_branch_perf_type(types[i].kind |
							 X86_BRANCH_USER),
				    "kind %#x from user space", types[i].kind);
	}
}

/* A function of the kernel's text, whose return is a branch to find. */
static noinline int branch_kind_ret_here(int x)
{
	return x + 1;
}

/*
 * The kernel's text is read where the branch was: the first branch of a
 * function (its return, or the jump to a return thunk) has the kind its
 * bytes say, to the kernel; an address outside the kernel's text (this
 * test's stack) is not read at all, nor a record with no source or
 * target.
 */
static void branch_kind_of_kernel_text(struct kunit *test)
{
	u8 *ip = (u8 *)branch_kind_ret_here;
	u8 bytes[MAX_INSN_SIZE];
	struct insn insn;
	u32 kind = 0;
	int i;

	for (i = 0; i < 32 && !kind; i++) {
		memcpy(bytes, ip, sizeof(bytes));
		KUNIT_ASSERT_LE(test, 0, insn_decode(&insn, bytes, sizeof(bytes),
						     INSN_MODE_64));
		kind = x86_branch_kind_bytes(bytes, sizeof(bytes));
		if (!kind)
			ip += insn.length;
	}
	KUNIT_ASSERT_NE_MSG(test, 0U, kind, "no branch in %ps",
			    branch_kind_ret_here);
	KUNIT_EXPECT_EQ(test, kind | X86_BRANCH_KERNEL,
			x86_branch_kind((unsigned long)ip,
					(unsigned long)branch_kind_ret_here));
	KUNIT_EXPECT_EQ(test, 0U, x86_branch_kind((unsigned long)bytes,
						  (unsigned long)ip));
	KUNIT_EXPECT_EQ(test, 0U, x86_branch_kind(0, (unsigned long)ip));
	KUNIT_EXPECT_EQ(test, 0U, x86_branch_kind((unsigned long)ip, 0));
	KUNIT_EXPECT_EQ(test, 2, branch_kind_ret_here(1));
}

static void branch_levels(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, X86_BRANCH_USER, x86_branch_level(0x401000));
	KUNIT_EXPECT_EQ(test, X86_BRANCH_USER,
			x86_branch_level(0x00007fffffffe000ULL));
	KUNIT_EXPECT_EQ(test, X86_BRANCH_KERNEL,
			x86_branch_level(0xffffffff81000000ULL));
}

static struct kunit_case branch_kind_cases[] = {
	KUNIT_CASE(branch_kind_of_bytes),
	KUNIT_CASE(branch_perf_types),
	KUNIT_CASE(branch_kind_of_kernel_text),
	KUNIT_CASE(branch_levels),
	{}
};

static struct kunit_suite branch_kind_suite = {
	.name = "perf_x86_branch_kind",
	.test_cases = branch_kind_cases,
};

kunit_test_suite(branch_kind_suite);
