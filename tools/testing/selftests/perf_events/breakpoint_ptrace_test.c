// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace's debug registers, which the kernel backs with breakpoint
 * events of the traced task (what gdb's hardware watchpoints use).
 *
 * PTRACE_POKEUSER of DR0-DR3 sets an address, of DR7 enables and types
 * them (L0-L3; R/W 01 write, 11 read/write, 00 execute; LEN 00, 01, 11,
 * 10 for 1, 2, 4, 8 bytes).  A hit stops the tracee with SIGTRAP
 * (si_code TRAP_HWBKPT), and DR6's B0-B3 say which register fired; a
 * data watchpoint stops after the access, an execute breakpoint before
 * the instruction, which runs when the tracee goes on.  DR4 and DR5 do
 * not exist (EIO); what the CPU cannot watch is EINVAL, and a DR7 write
 * that fails changes nothing.  A tracee's registers are its own
 * breakpoints: perf events on it and its debug registers share its four
 * slots (ENOSPC).  They are not inherited by its children, are gone
 * after exec, and are released when it exits.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "perf_test_util.h"
#include "breakpoint.h"
#include "../kselftest_harness.h"

#define DR_ENABLE(n)		(1UL << ((n) * 2))
#define DR_RW(n, rw)		((unsigned long)(rw) << (16 + (n) * 4))
#define DR_LEN(n, len)		((unsigned long)(len) << (18 + (n) * 4))
#define RW_EXEC			0
#define RW_WRITE		1
#define RW_IO			2
#define RW_READ_WRITE		3
#define LEN_1			0
#define LEN_4			3
#define LEN_8			2
#define DR6_HITS		0xfUL

#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT		4
#endif

static struct bp_word words[2];

/* The DR7 bits that enable register @n as an @rw watchpoint of @len. */
static unsigned long dr7(int n, int rw, int len)
{
	return DR_ENABLE(n) | DR_RW(n, rw) | DR_LEN(n, len);
}

#define DR_OFFSET(n)	offsetof(struct user, u_debugreg[n])

static int poke_dr(pid_t pid, int n, unsigned long value)
{
	return ptrace(PTRACE_POKEUSER, pid, DR_OFFSET(n), value) ? errno : 0;
}

static unsigned long peek_dr(pid_t pid, int n)
{
	errno = 0;
	return ptrace(PTRACE_PEEKUSER, pid, DR_OFFSET(n), 0);
}

static unsigned long peek_rip(pid_t pid)
{
	errno = 0;
	return ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user, regs.rip),
		      0);
}

/*
 * A child that stops itself under ptrace, then runs @fn and exits with
 * its return value.  Returns its pid, stopped, or -1.
 */
static pid_t traced_child(int (*fn)(void))
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(90);
		raise(SIGSTOP);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFSTOPPED(status) || WSTOPSIG(status) != SIGSTOP)
		return -1;
	return pid;
}

/*
 * Let the child go on; return its next wait status, or -1.  Stops for
 * SIGCHLD (its own children exiting) are passed over.
 */
static int cont(pid_t pid)
{
	int status;

	do {
		if (ptrace(PTRACE_CONT, pid, 0, 0) ||
		    waitpid(pid, &status, 0) != pid)
			return -1;
	} while (WIFSTOPPED(status) && WSTOPSIG(status) == SIGCHLD);
	return status;
}

/* Let the child go on: does it stop on a hardware breakpoint? */
static bool cont_to_trap(pid_t pid)
{
	int status = cont(pid);
	siginfo_t si;

	return WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP &&
	       !ptrace(PTRACE_GETSIGINFO, pid, 0, &si) &&
	       si.si_code == TRAP_HWBKPT;
}

/* The registers DR6 says fired, as a mask of B0-B3. */
static unsigned long dr_hits(pid_t pid)
{
	return peek_dr(pid, 6) & DR6_HITS;
}

/* Watch @addr with debug register @n, the only one on; 0 or an errno. */
static int watch(pid_t pid, int n, const void *addr, int rw, int len)
{
	int err = poke_dr(pid, n, (unsigned long)addr);

	return err ? err : poke_dr(pid, 7, dr7(n, rw, len));
}

static bool exited_ok(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int write_words(void)
{
	words[0].v = 1;
	words[1].v = 2;
	words[0].v = 3;
	return 0;
}

static int write_second_first(void)
{
	words[1].v = 5;
	words[0].v = 6;
	return 0;
}

static int read_word(void)
{
	return words[0].v == 12345;
}

static int run_code_twice(void)
{
	bp_run(2);
	return 0;
}

static int nothing(void)
{
	return 0;
}

/* A write watchpoint stops the child right after the write. */
TEST(write_watchpoint)
{
	pid_t pid = traced_child(write_words);

	ASSERT_LT(0, pid);
	ASSERT_EQ(0, watch(pid, 0, &words[0], RW_WRITE, LEN_8));
	EXPECT_EQ((unsigned long)&words[0], peek_dr(pid, 0));
	EXPECT_EQ(dr7(0, RW_WRITE, LEN_8), peek_dr(pid, 7));

	ASSERT_TRUE(cont_to_trap(pid));
	EXPECT_EQ(1UL, dr_hits(pid));
	errno = 0;
	EXPECT_EQ(1, ptrace(PTRACE_PEEKDATA, pid, &words[0].v, 0));
	EXPECT_EQ(0, errno);

	/* The second write to words[0] stops it again. */
	ASSERT_TRUE(cont_to_trap(pid));
	EXPECT_EQ(3, ptrace(PTRACE_PEEKDATA, pid, &words[0].v, 0));

	/* Disabled: it runs to the end; the address stays. */
	ASSERT_EQ(0, poke_dr(pid, 7, 0));
	EXPECT_EQ((unsigned long)&words[0], peek_dr(pid, 0));
	EXPECT_TRUE(exited_ok(cont(pid)));
}

/* DR6 tells which of two watchpoints fired. */
TEST(which_watchpoint)
{
	pid_t pid = traced_child(write_second_first);

	ASSERT_LT(0, pid);
	ASSERT_EQ(0, poke_dr(pid, 0, (unsigned long)&words[0]));
	ASSERT_EQ(0, poke_dr(pid, 1, (unsigned long)&words[1]));
	ASSERT_EQ(0, poke_dr(pid, 7, dr7(0, RW_WRITE, LEN_8) |
				     dr7(1, RW_WRITE, LEN_4)));

	ASSERT_TRUE(cont_to_trap(pid));
	EXPECT_EQ(2UL, dr_hits(pid));
	ASSERT_TRUE(cont_to_trap(pid));
	EXPECT_EQ(1UL, dr_hits(pid));
	EXPECT_TRUE(exited_ok(cont(pid)));
}

/* A read/write watchpoint stops on a read. */
TEST(read_watchpoint)
{
	pid_t pid = traced_child(read_word);

	ASSERT_LT(0, pid);
	ASSERT_EQ(0, watch(pid, 3, (char *)&words[0] + 4, RW_READ_WRITE,
			   LEN_4));
	ASSERT_TRUE(cont_to_trap(pid));
	EXPECT_EQ(8UL, dr_hits(pid));
	EXPECT_TRUE(exited_ok(cont(pid)));
}

/* An execute breakpoint stops before the instruction, every time. */
TEST(execute_breakpoint)
{
	pid_t pid = traced_child(run_code_twice);
	int i;

	ASSERT_LT(0, pid);
	ASSERT_EQ(0, watch(pid, 2, (void *)bp_code, RW_EXEC, LEN_1));
	for (i = 0; i < 2; i++) {
		ASSERT_TRUE(cont_to_trap(pid));
		EXPECT_EQ((unsigned long)bp_code, peek_rip(pid));
		EXPECT_EQ(4UL, dr_hits(pid));
	}
	EXPECT_TRUE(exited_ok(cont(pid)));
}

TEST(bad_registers)
{
	unsigned long set = dr7(0, RW_WRITE, LEN_8);
	pid_t pid = traced_child(nothing);

	ASSERT_LT(0, pid);
	EXPECT_EQ(EIO, poke_dr(pid, 4, 0));
	EXPECT_EQ(EIO, poke_dr(pid, 5, 0));
	EXPECT_EQ(EINVAL, poke_dr(pid, 1, KERNEL_ADDR));

	ASSERT_EQ(0, watch(pid, 0, &words[0], RW_WRITE, LEN_8));
	/* I/O breakpoints, execute with a length, misaligned lengths. */
	EXPECT_EQ(EINVAL, poke_dr(pid, 7, dr7(1, RW_IO, LEN_1)));
	EXPECT_EQ(EINVAL, poke_dr(pid, 7, dr7(1, RW_EXEC, LEN_4)));
	EXPECT_EQ(set, peek_dr(pid, 7));
	EXPECT_EQ(EINVAL, poke_dr(pid, 0, (unsigned long)&words[0] + 4));
	EXPECT_EQ((unsigned long)&words[0], peek_dr(pid, 0));

	ASSERT_EQ(0, poke_dr(pid, 7, 0));
	EXPECT_TRUE(exited_ok(cont(pid)));
}

/* Perf breakpoints on the tracee and its debug registers share slots. */
TEST(shared_with_perf)
{
	pid_t pid = traced_child(nothing);
	int fds[4], i, fd;

	ASSERT_LT(0, pid);
	for (i = 0; i < 4; i++) {
		fds[i] = bp_open(&words[0], 8, HW_BREAKPOINT_W, pid, -1);
		ASSERT_LE(0, fds[i]);
	}
	EXPECT_EQ(ENOSPC, poke_dr(pid, 0, (unsigned long)&words[1]));
	EXPECT_EQ(0, peek_dr(pid, 0));
	close(fds[3]);
	EXPECT_EQ(0, poke_dr(pid, 0, (unsigned long)&words[1]));
	fd = bp_open(&words[0], 8, HW_BREAKPOINT_W, pid, -1);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENOSPC, errno);
	for (i = 0; i < 3; i++)
		close(fds[i]);
	EXPECT_TRUE(exited_ok(cont(pid)));
}

/* The tracee's children do not get its watchpoints. */
static int fork_and_write(void)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		words[0].v = 7;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 2;
	return exited_ok(status) ? 0 : 3;
}

TEST(not_inherited)
{
	pid_t pid = traced_child(fork_and_write);

	ASSERT_LT(0, pid);
	ASSERT_EQ(0, watch(pid, 0, &words[0], RW_WRITE, LEN_8));
	EXPECT_TRUE(exited_ok(cont(pid)));
}

/* exec leaves no debug register set. */
static int exec_true(void)
{
	execl("/bin/true", "true", NULL);
	return 4;
}

TEST(exec_clears)
{
	pid_t pid = traced_child(exec_true);
	int status;

	ASSERT_LT(0, pid);
	ASSERT_EQ(0, watch(pid, 0, &words[0], RW_WRITE, LEN_8));
	/* The SIGTRAP that a traced exec sends. */
	status = cont(pid);
	ASSERT_TRUE(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	EXPECT_EQ(0, peek_dr(pid, 0));
	EXPECT_EQ(0, peek_dr(pid, 7));
	EXPECT_TRUE(exited_ok(cont(pid)));
}

/* An exiting tracee gives its slots back. */
TEST(exit_releases)
{
	int cpus[1], fd, i;
	pid_t pid;

	ASSERT_EQ(1, allowed_cpus(cpus, 1));
	pid = traced_child(nothing);
	ASSERT_LT(0, pid);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, poke_dr(pid, i, (unsigned long)&words[0]));

	/* The tracee may run on any CPU: no room for a CPU-wide one. */
	fd = bp_open(&words[0], 8, HW_BREAKPOINT_W, -1, cpus[0]);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENOSPC, errno);

	EXPECT_TRUE(exited_ok(cont(pid)));
	fd = bp_open(&words[0], 8, HW_BREAKPOINT_W, -1, cpus[0]);
	EXPECT_LE(0, fd);
	close(fd);
}

TEST_HARNESS_MAIN
