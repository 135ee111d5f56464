// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the attribute checks of the perf core (attr.c):
 * perf_check_attr(), which refuses what no PMU could accept, and
 * perf_check_open_flags(), which checks the flags of perf_event_open().
 *
 * Most cases are rows of a table: an attribute built by a small setup
 * function and the result perf_check_attr() must give for it.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/time.h>

#include "internal.h"

/* A few x86-64 register masks for the REGS_USER and REGS_INTR checks. */
#define GOOD_REGS	(BIT_ULL(PERF_REG_X86_IP) | BIT_ULL(PERF_REG_X86_SP) | \
			 BIT_ULL(PERF_REG_X86_R15))
/* DS is not sampled on x86-64. */
#define NOSUPPORT_REGS	BIT_ULL(PERF_REG_X86_DS)
/* Between the last general register and the first XMM one. */
#define RESERVED_REGS	BIT_ULL(PERF_REG_X86_64_MAX)

static void attr_init(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
}

static void perf_attr_zero_is_valid(struct kunit *test)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), 0);

	attr_init(&attr);
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), 0);
}

/*
 * Each reserved field must be zero: the lowest and the highest bit of
 * each of them is tried, one field at a time.
 */
static void perf_attr_reserved(struct kunit *test)
{
	struct perf_event_attr attr;

	attr_init(&attr);
	attr.__reserved_1 = 1;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), -EINVAL);

	attr_init(&attr);
	attr.__reserved_1 = 1ULL << 25;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), -EINVAL);

	/* The bit just below __reserved_1 is sigtrap, a real flag. */
	attr_init(&attr);
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), 0);

	attr_init(&attr);
	attr.__reserved_2 = 1;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), -EINVAL);

	attr_init(&attr);
	attr.__reserved_2 = 0x8000;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), -EINVAL);

	attr_init(&attr);
	attr.__reserved_3 = 1;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), -EINVAL);

	attr_init(&attr);
	attr.__reserved_3 = 0x80000000;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), -EINVAL);
}

/* sample_type: every defined bit on its own. */

static bool sample_bit_needs_more(u64 bit)
{
	return bit == PERF_SAMPLE_REGS_USER || bit == PERF_SAMPLE_REGS_INTR ||
	       bit == PERF_SAMPLE_CGROUP || bit == PERF_SAMPLE_BRANCH_STACK;
}

static void perf_attr_sample_type_bits(struct kunit *test)
{
	struct perf_event_attr attr;
	u64 bit;

	for (bit = 1; bit < PERF_SAMPLE_MAX; bit <<= 1) {
		if (sample_bit_needs_more(bit))
			continue;
		attr_init(&attr);
		attr.sample_type = bit;
		KUNIT_EXPECT_EQ_MSG(test, perf_check_attr(&attr), 0,
				    "sample_type %#llx", bit);
	}

	/* All of them at once (one kind of weight), with what they need. */
	attr_init(&attr);
	attr.sample_type = PERF_SAMPLE_MAX - 1;
	attr.sample_type &= ~(u64)PERF_SAMPLE_WEIGHT_STRUCT;
	if (!IS_ENABLED(CONFIG_CGROUP_PERF))
		attr.sample_type &= ~(u64)PERF_SAMPLE_CGROUP;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	attr.sample_regs_user = GOOD_REGS;
	attr.sample_regs_intr = GOOD_REGS;
	attr.sample_stack_user = 4096;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), 0);
}

/* A branch stack of some branch type; one weight format or the other. */
static void perf_attr_branch_and_weight(struct kunit *test)
{
	struct perf_event_attr attr;

	attr_init(&attr);
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), -EINVAL);
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_USER |
				  PERF_SAMPLE_BRANCH_KERNEL;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), -EINVAL);
	attr.branch_sample_type |= PERF_SAMPLE_BRANCH_ANY_CALL;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), 0);

	attr_init(&attr);
	attr.sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), -EINVAL);
}

static void perf_attr_sample_type_unknown(struct kunit *test)
{
	struct perf_event_attr attr;
	u64 bit;

	for (bit = PERF_SAMPLE_MAX; bit; bit <<= 1) {
		attr_init(&attr);
		attr.sample_type = bit;
		KUNIT_EXPECT_EQ_MSG(test, perf_check_attr(&attr), -EINVAL,
				    "sample_type %#llx", bit);

		/* An unknown bit spoils a set of good ones. */
		attr.sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;
		KUNIT_EXPECT_EQ_MSG(test, perf_check_attr(&attr), -EINVAL,
				    "sample_type %#llx", attr.sample_type);
	}
}

static void perf_attr_read_format(struct kunit *test)
{
	struct perf_event_attr attr;
	u64 bit;

	for (bit = 1; bit < PERF_FORMAT_MAX; bit <<= 1) {
		attr_init(&attr);
		attr.read_format = bit;
		KUNIT_EXPECT_EQ_MSG(test, perf_check_attr(&attr), 0,
				    "read_format %#llx", bit);
	}

	attr_init(&attr);
	attr.read_format = PERF_FORMAT_LOST;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), 0);

	attr_init(&attr);
	attr.read_format = PERF_FORMAT_MAX - 1;
	KUNIT_EXPECT_EQ(test, perf_check_attr(&attr), 0);

	for (bit = PERF_FORMAT_MAX; bit; bit <<= 1) {
		attr_init(&attr);
		attr.read_format = bit | PERF_FORMAT_ID;
		KUNIT_EXPECT_EQ_MSG(test, perf_check_attr(&attr), -EINVAL,
				    "read_format %#llx", bit);
	}
}

/*
 * The table: fields that depend on each other.  Each row sets up an
 * attribute on top of a zeroed one and says what perf_check_attr() must
 * return for it.
 */
struct attr_case {
	const char *name;
	void (*setup)(struct perf_event_attr *attr);
	int ret;
};

static void regs_user_zero(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_REGS_USER;
}

static void regs_user_nosupport(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_REGS_USER;
	a->sample_regs_user = GOOD_REGS | NOSUPPORT_REGS;
}

static void regs_user_reserved(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_REGS_USER;
	a->sample_regs_user = GOOD_REGS | RESERVED_REGS;
}

static void regs_user_good(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_REGS_USER;
	a->sample_regs_user = GOOD_REGS;
}

/* A bad mask for the registers not asked for does not matter. */
static void regs_user_other_mask_bad(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_REGS_USER;
	a->sample_regs_user = GOOD_REGS;
	a->sample_regs_intr = NOSUPPORT_REGS;
}

static void regs_intr_zero(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_REGS_INTR;
}

static void regs_intr_nosupport(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_REGS_INTR;
	a->sample_regs_intr = NOSUPPORT_REGS;
}

static void regs_intr_reserved(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_REGS_INTR;
	a->sample_regs_intr = RESERVED_REGS;
}

static void regs_intr_good(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_REGS_INTR;
	a->sample_regs_intr = GOOD_REGS;
}

static void regs_intr_other_mask_bad(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_REGS_INTR;
	a->sample_regs_intr = GOOD_REGS;
	a->sample_regs_user = RESERVED_REGS;
}

static void stack_user_zero(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_STACK_USER;
}

static void stack_user_aligned(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_STACK_USER;
	a->sample_stack_user = 8192;
}

static void stack_user_largest(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_STACK_USER;
	a->sample_stack_user = round_down(USHRT_MAX, sizeof(u64));
}

static void stack_user_unaligned(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_STACK_USER;
	a->sample_stack_user = 8192 + 4;
}

static void stack_user_ushrt_max(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_STACK_USER;
	a->sample_stack_user = USHRT_MAX;
}

static void stack_user_too_big(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_STACK_USER;
	a->sample_stack_user = USHRT_MAX + 1;
}

/* A size nobody asked for is not checked. */
static void stack_user_unused(struct perf_event_attr *a)
{
	a->sample_stack_user = 3;
}

static void sample_cgroup(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_CGROUP;
}

static void branch_stack_any(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_BRANCH_STACK;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
}

static void branch_stack_unknown(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_BRANCH_STACK;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_MAX;
}

static void inherit_thread_alone(struct perf_event_attr *a)
{
	a->inherit_thread = 1;
}

static void inherit_thread_inherit(struct perf_event_attr *a)
{
	a->inherit = 1;
	a->inherit_thread = 1;
}

static void remove_on_exec_alone(struct perf_event_attr *a)
{
	a->remove_on_exec = 1;
}

static void enable_on_exec_alone(struct perf_event_attr *a)
{
	a->enable_on_exec = 1;
}

static void remove_and_enable_on_exec(struct perf_event_attr *a)
{
	a->remove_on_exec = 1;
	a->enable_on_exec = 1;
}

static void sigtrap_alone(struct perf_event_attr *a)
{
	a->sigtrap = 1;
}

static void sigtrap_remove_on_exec(struct perf_event_attr *a)
{
	a->sigtrap = 1;
	a->remove_on_exec = 1;
	a->sig_data = 0x1234;
}

static void period_top_bit(struct perf_event_attr *a)
{
	a->sample_period = BIT_ULL(63);
}

static void period_all_ones(struct perf_event_attr *a)
{
	a->sample_period = ~0ULL;
}

static void period_largest(struct perf_event_attr *a)
{
	a->sample_period = BIT_ULL(63) - 1;
}

/* sample_freq shares the field; the period check is not for it. */
static void freq_top_bit(struct perf_event_attr *a)
{
	a->freq = 1;
	a->sample_freq = BIT_ULL(63);
}

static void clockid_unused(struct perf_event_attr *a)
{
	a->clockid = CLOCK_PROCESS_CPUTIME_ID;
}

static void clockid_monotonic(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

static void clockid_monotonic_raw(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC_RAW;
}

static void clockid_realtime(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_REALTIME;
}

static void clockid_boottime(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_BOOTTIME;
}

static void clockid_tai(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_TAI;
}

static void clockid_process_cputime(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_PROCESS_CPUTIME_ID;
}

static void clockid_thread_cputime(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_THREAD_CPUTIME_ID;
}

static void clockid_monotonic_coarse(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC_COARSE;
}

static void clockid_negative(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = -1;
}

static void clockid_out_of_range(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = MAX_CLOCKS;
}

#define ATTR_CASE(fn, ret) { #fn, fn, ret }

static const struct attr_case attr_cases[] = {
	ATTR_CASE(regs_user_zero, -EINVAL),
	ATTR_CASE(regs_user_nosupport, -EINVAL),
	ATTR_CASE(regs_user_reserved, -EINVAL),
	ATTR_CASE(regs_user_good, 0),
	ATTR_CASE(regs_user_other_mask_bad, 0),
	ATTR_CASE(regs_intr_zero, -EINVAL),
	ATTR_CASE(regs_intr_nosupport, -EINVAL),
	ATTR_CASE(regs_intr_reserved, -EINVAL),
	ATTR_CASE(regs_intr_good, 0),
	ATTR_CASE(regs_intr_other_mask_bad, 0),
	ATTR_CASE(stack_user_zero, 0),
	ATTR_CASE(stack_user_aligned, 0),
	ATTR_CASE(stack_user_largest, 0),
	ATTR_CASE(stack_user_unaligned, -EINVAL),
	ATTR_CASE(stack_user_ushrt_max, -EINVAL),
	ATTR_CASE(stack_user_too_big, -EINVAL),
	ATTR_CASE(stack_user_unused, 0),
	ATTR_CASE(sample_cgroup, IS_ENABLED(CONFIG_CGROUP_PERF) ? 0 : -EINVAL),
	ATTR_CASE(branch_stack_any, 0),
	ATTR_CASE(branch_stack_unknown, -EINVAL),
	ATTR_CASE(inherit_thread_alone, -EINVAL),
	ATTR_CASE(inherit_thread_inherit, 0),
	ATTR_CASE(remove_on_exec_alone, 0),
	ATTR_CASE(enable_on_exec_alone, 0),
	ATTR_CASE(remove_and_enable_on_exec, -EINVAL),
	ATTR_CASE(sigtrap_alone, -EINVAL),
	ATTR_CASE(sigtrap_remove_on_exec, 0),
	ATTR_CASE(period_top_bit, -EINVAL),
	ATTR_CASE(period_all_ones, -EINVAL),
	ATTR_CASE(period_largest, 0),
	ATTR_CASE(freq_top_bit, 0),
	ATTR_CASE(clockid_unused, 0),
	ATTR_CASE(clockid_monotonic, 0),
	ATTR_CASE(clockid_monotonic_raw, 0),
	ATTR_CASE(clockid_realtime, 0),
	ATTR_CASE(clockid_boottime, 0),
	ATTR_CASE(clockid_tai, 0),
	ATTR_CASE(clockid_process_cputime, -EINVAL),
	ATTR_CASE(clockid_thread_cputime, -EINVAL),
	ATTR_CASE(clockid_monotonic_coarse, -EINVAL),
	ATTR_CASE(clockid_negative, -EINVAL),
	ATTR_CASE(clockid_out_of_range, -EINVAL),
};

static void attr_case_desc(const struct attr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(attr_cases, attr_cases, attr_case_desc);

static void perf_attr_table(struct kunit *test)
{
	const struct attr_case *c = test->param_value;
	struct perf_event_attr attr;

	attr_init(&attr);
	c->setup(&attr);
	KUNIT_EXPECT_EQ_MSG(test, perf_check_attr(&attr), c->ret, "%s", c->name);
}

static struct kunit_case perf_attr_cases[] = {
	KUNIT_CASE(perf_attr_zero_is_valid),
	KUNIT_CASE(perf_attr_reserved),
	KUNIT_CASE(perf_attr_sample_type_bits),
	KUNIT_CASE(perf_attr_branch_and_weight),
	KUNIT_CASE(perf_attr_sample_type_unknown),
	KUNIT_CASE(perf_attr_read_format),
	KUNIT_CASE_PARAM(perf_attr_table, attr_cases_gen_params),
	{}
};

static struct kunit_suite perf_attr_suite = {
	.name = "perf_attr",
	.test_cases = perf_attr_cases,
};

/* perf_event_open() flags. */

static const unsigned long perf_open_flags_known[] = {
	PERF_FLAG_FD_NO_GROUP,
	PERF_FLAG_FD_OUTPUT,
	PERF_FLAG_PID_CGROUP,
	PERF_FLAG_FD_CLOEXEC,
};

static void perf_open_flags_good(struct kunit *test)
{
	unsigned long all = 0;
	int i;

	KUNIT_EXPECT_EQ(test, perf_check_open_flags(0), 0);

	for (i = 0; i < ARRAY_SIZE(perf_open_flags_known); i++) {
		KUNIT_EXPECT_EQ_MSG(test,
				    perf_check_open_flags(perf_open_flags_known[i]),
				    0, "flag %#lx", perf_open_flags_known[i]);
		all |= perf_open_flags_known[i];
	}
	KUNIT_EXPECT_EQ(test, perf_check_open_flags(all), 0);
	KUNIT_EXPECT_EQ(test, perf_check_open_flags(PERF_FLAG_FD_CLOEXEC |
						    PERF_FLAG_FD_NO_GROUP), 0);
}

static void perf_open_flags_bad(struct kunit *test)
{
	unsigned long known = 0, bit;
	int i;

	for (i = 0; i < ARRAY_SIZE(perf_open_flags_known); i++)
		known |= perf_open_flags_known[i];

	for (i = 0; i < BITS_PER_LONG; i++) {
		bit = BIT(i);
		if (bit & known)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, perf_check_open_flags(bit), -EINVAL,
				    "flag %#lx", bit);
		KUNIT_EXPECT_EQ_MSG(test, perf_check_open_flags(bit | known),
				    -EINVAL, "flag %#lx", bit | known);
	}
	KUNIT_EXPECT_EQ(test, perf_check_open_flags(~0UL), -EINVAL);
}

static struct kunit_case perf_open_flags_cases[] = {
	KUNIT_CASE(perf_open_flags_good),
	KUNIT_CASE(perf_open_flags_bad),
	{}
};

static struct kunit_suite perf_open_flags_suite = {
	.name = "perf_open_flags",
	.test_cases = perf_open_flags_cases,
};

kunit_test_suites(&perf_attr_suite, &perf_open_flags_suite);
