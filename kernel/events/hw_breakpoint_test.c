// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the hw_breakpoint API that kernel users call
 * (include/linux/hw_breakpoint.h), with real debug registers: data
 * breakpoints on variables of this file, written by the test's thread.
 *
 *  - register_wide_hw_breakpoint() watches on every online CPU; each
 *    write runs the overflow handler once, with the watched address in
 *    the sample; nothing runs once it is unregistered;
 *  - a CPU has four debug registers: the fifth wide breakpoint fails
 *    with -ENOSPC and leaves nothing behind;
 *  - register_user_hw_breakpoint() watches for one task (here the test's
 *    kernel thread), and modify_user_hw_breakpoint() moves it, changes
 *    its length, and disables it;
 *  - bad settings fail with -EINVAL.
 *
 * The suite is skipped if breakpoints exist already; every test removes
 * its own.
 */
#include <kunit/test.h>
#include <linux/hw_breakpoint.h>
#include <linux/sched.h>

#include "internal.h"

/*
 * Watched words, each in its own aligned 8 bytes.  One breakpoint per
 * word at a time: QEMU's emulated CPU reports only one of the debug
 * registers an access matches.
 */
static u64 bp_test_vars[HBP_NUM];

struct bp_test_hits {
	atomic_t	nr;
	u64		last_addr;
};

/* Overflow handler: in the debug exception, NMI context for the kernel. */
static void bp_test_hit(struct perf_event *bp, struct perf_sample_data *data,
			struct pt_regs *regs)
{
	struct bp_test_hits *hits = bp->overflow_handler_context;

	WRITE_ONCE(hits->last_addr, data->addr);
	atomic_inc(&hits->nr);
}

static void bp_test_attr(struct perf_event_attr *attr, void *addr, u64 len,
			 u32 type)
{
	hw_breakpoint_init(attr);
	attr->bp_addr = (unsigned long)addr;
	attr->bp_len = len;
	attr->bp_type = type;
}

static void bp_test_write(unsigned int var, unsigned int times)
{
	while (times--)
		WRITE_ONCE(bp_test_vars[var], bp_test_vars[var] + 1);
}

static int bp_test_init(struct kunit *test)
{
	if (hw_breakpoint_is_used())
		kunit_skip(test, "breakpoints exist already");
	return 0;
}

static void bp_test_exit(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, hw_breakpoint_is_used());
}

/* Each write to the watched variable is one hit, until unregistered. */
static void bp_test_wide_hits(struct kunit *test)
{
	struct perf_event * __percpu *bps;
	struct perf_event_attr attr;
	struct bp_test_hits hits = { };

	bp_test_attr(&attr, &bp_test_vars[0], HW_BREAKPOINT_LEN_8,
		     HW_BREAKPOINT_W);
	bps = register_wide_hw_breakpoint(&attr, bp_test_hit, &hits);
	KUNIT_ASSERT_FALSE(test, IS_ERR((void __force *)bps));
	KUNIT_EXPECT_TRUE(test, hw_breakpoint_is_used());

	bp_test_write(0, 5);
	bp_test_write(1, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits.nr), 5);
	KUNIT_EXPECT_EQ(test, hits.last_addr,
			(u64)(unsigned long)&bp_test_vars[0]);

	/* A read is not a write. */
	KUNIT_EXPECT_EQ(test, READ_ONCE(bp_test_vars[0]) >= 5, true);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits.nr), 5);

	unregister_wide_hw_breakpoint(bps);
	bp_test_write(0, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits.nr), 5);
}

/* Four debug registers: the fifth breakpoint does not fit anywhere. */
static void bp_test_wide_enospc(struct kunit *test)
{
	struct perf_event * __percpu *bps[HBP_NUM + 1];
	struct perf_event_attr attr;
	struct bp_test_hits hits = { };
	int i, ok = 0;

	for (i = 0; i <= HBP_NUM; i++) {
		bp_test_attr(&attr, &bp_test_vars[i % HBP_NUM],
			     HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_RW);
		bps[i] = register_wide_hw_breakpoint(&attr, bp_test_hit,
						     &hits);
		if (!IS_ERR((void __force *)bps[i]))
			ok++;
	}
	KUNIT_EXPECT_EQ(test, ok, HBP_NUM);
	KUNIT_EXPECT_EQ(test, PTR_ERR((void __force *)bps[HBP_NUM]),
			-ENOSPC);

	/* Each of the four sees a read. */
	for (i = 0; i < HBP_NUM; i++)
		KUNIT_EXPECT_EQ(test, READ_ONCE(bp_test_vars[i]) < ~0ULL, true);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits.nr), HBP_NUM);

	for (i = 0; i <= HBP_NUM; i++) {
		if (!IS_ERR((void __force *)bps[i]))
			unregister_wide_hw_breakpoint(bps[i]);
	}
}

/* A task's breakpoint, moved, resized and disabled in place. */
static void bp_test_user_modify(struct kunit *test)
{
	struct perf_event_attr attr;
	struct bp_test_hits hits = { };
	struct perf_event *bp;

	bp_test_attr(&attr, &bp_test_vars[0], HW_BREAKPOINT_LEN_8,
		     HW_BREAKPOINT_W);
	bp = register_user_hw_breakpoint(&attr, bp_test_hit, &hits, current);
	KUNIT_ASSERT_FALSE(test, IS_ERR(bp));

	bp_test_write(0, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits.nr), 2);

	/* Moved to the other variable. */
	attr.bp_addr = (unsigned long)&bp_test_vars[1];
	KUNIT_EXPECT_EQ(test, modify_user_hw_breakpoint(bp, &attr), 0);
	KUNIT_EXPECT_EQ(test, hw_breakpoint_addr(bp), attr.bp_addr);
	bp_test_write(0, 2);
	bp_test_write(1, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits.nr), 5);
	KUNIT_EXPECT_EQ(test, hits.last_addr, (u64)attr.bp_addr);

	/* A bad setting changes nothing. */
	attr.bp_len = 3;
	KUNIT_EXPECT_EQ(test, modify_user_hw_breakpoint(bp, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, hw_breakpoint_len(bp), HW_BREAKPOINT_LEN_8);
	bp_test_write(1, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits.nr), 6);

	/* Disabled: no more hits; enabled again: hits. */
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.disabled = 1;
	KUNIT_EXPECT_EQ(test, modify_user_hw_breakpoint(bp, &attr), 0);
	bp_test_write(1, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits.nr), 6);
	attr.disabled = 0;
	KUNIT_EXPECT_EQ(test, modify_user_hw_breakpoint(bp, &attr), 0);
	bp_test_write(1, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits.nr), 7);

	unregister_hw_breakpoint(bp);
	bp_test_write(1, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits.nr), 7);
}

/* What the debug registers cannot do is refused, and nothing is kept. */
static void bp_test_bad_settings(struct kunit *test)
{
	static const struct {
		u32	type;
		u64	len;
		u64	offset;
	} bad[] = {
		{ HW_BREAKPOINT_EMPTY, HW_BREAKPOINT_LEN_4, 0 },
		{ HW_BREAKPOINT_R, HW_BREAKPOINT_LEN_4, 0 },
		{ HW_BREAKPOINT_W | HW_BREAKPOINT_X, HW_BREAKPOINT_LEN_8, 0 },
		{ HW_BREAKPOINT_INVALID, HW_BREAKPOINT_LEN_8, 0 },
		{ HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_3, 0 },
		{ HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8, 4 },
		{ HW_BREAKPOINT_RW, HW_BREAKPOINT_LEN_2, 1 },
		{ HW_BREAKPOINT_X, HW_BREAKPOINT_LEN_1, 0 },
	};
	struct perf_event_attr attr;
	struct perf_event *bp;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		bp_test_attr(&attr, (char *)&bp_test_vars[0] + bad[i].offset,
			     bad[i].len, bad[i].type);
		bp = register_wide_hw_breakpoint_cpu(&attr, NULL, NULL,
						     raw_smp_processor_id());
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(bp), -EINVAL,
				    "bad setting %u", i);
		if (!IS_ERR(bp))
			unregister_hw_breakpoint(bp);
	}

	/* ptrace's breakpoints exclude the kernel: no kernel address. */
	ptrace_breakpoint_init(&attr);
	attr.bp_addr = (unsigned long)&bp_test_vars[0];
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.bp_type = HW_BREAKPOINT_W;
	bp = register_user_hw_breakpoint(&attr, NULL, NULL, current);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(bp), -EINVAL);
	if (!IS_ERR(bp))
		unregister_hw_breakpoint(bp);
}

static struct kunit_case bp_test_cases[] = {
	KUNIT_CASE(bp_test_wide_hits),
	KUNIT_CASE(bp_test_wide_enospc),
	KUNIT_CASE(bp_test_user_modify),
	KUNIT_CASE(bp_test_bad_settings),
	{}
};

static struct kunit_suite bp_test_suite = {
	.name = "perf_hw_breakpoint",
	.init = bp_test_init,
	.exit = bp_test_exit,
	.test_cases = bp_test_cases,
};

kunit_test_suites(&bp_test_suite);
