// SPDX-License-Identifier: GPL-2.0
/*
 * Which breakpoint events perf_event_open() accepts on x86-64.
 *
 *  - bp_type: HW_BREAKPOINT_W, HW_BREAKPOINT_RW and HW_BREAKPOINT_X;
 *    nothing (0), read alone, and execute mixed with read or write are
 *    refused with EINVAL;
 *  - bp_len: 1, 2, 4 or 8 for data breakpoints, sizeof(long) for
 *    execute ones; others EINVAL, except larger powers of two at an
 *    address aligned to them (AMD's range breakpoints), which are
 *    EOPNOTSUPP on CPUs without the "bpext" feature;
 *  - bp_addr must be aligned to bp_len (EINVAL), and the range may not
 *    wrap around;
 *  - a kernel address needs exclude_kernel clear (EINVAL) and
 *    CAP_SYS_ADMIN (EPERM), on top of the paranoid level's EACCES for
 *    counting in the kernel at all;
 *  - branch stack sampling is EOPNOTSUPP.
 */
#define _GNU_SOURCE
#include "perf_test_util.h"
#include "breakpoint.h"
#include "../kselftest_harness.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define OPEN_TIMEOUT_MS	5000

static struct bp_word words[2];

TEST(data_types_and_lengths)
{
	static const __u64 lens[] = { 1, 2, 4, 8 };
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		bp_attr_init(&attr, &words[0], lens[i], HW_BREAKPOINT_W);
		EXPECT_EQ(0, bp_open_errno(&attr, 0, -1))
			TH_LOG("W len %llu", lens[i]);
		bp_attr_init(&attr, &words[0], lens[i], HW_BREAKPOINT_RW);
		EXPECT_EQ(0, bp_open_errno(&attr, 0, -1))
			TH_LOG("RW len %llu", lens[i]);
	}
	/* Aligned anywhere inside, not only at the start of a word. */
	bp_attr_init(&attr, (char *)&words[0] + 6, 2, HW_BREAKPOINT_W);
	EXPECT_EQ(0, bp_open_errno(&attr, 0, -1));
	bp_attr_init(&attr, (char *)&words[0] + 3, 1, HW_BREAKPOINT_RW);
	EXPECT_EQ(0, bp_open_errno(&attr, 0, -1));
}

TEST(execute)
{
	struct perf_event_attr attr;

	bp_attr_init(&attr, bp_code, sizeof(long), HW_BREAKPOINT_X);
	EXPECT_EQ(0, bp_open_errno(&attr, 0, -1));

	bp_attr_init(&attr, bp_code, 1, HW_BREAKPOINT_X);
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
	bp_attr_init(&attr, bp_code, 4, HW_BREAKPOINT_X);
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
	bp_attr_init(&attr, bp_code, 16, HW_BREAKPOINT_X);
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
}

TEST(bad_types)
{
	static const __u32 types[] = {
		HW_BREAKPOINT_EMPTY, HW_BREAKPOINT_R,
		HW_BREAKPOINT_W | HW_BREAKPOINT_X,
		HW_BREAKPOINT_R | HW_BREAKPOINT_X,
		HW_BREAKPOINT_INVALID, 8, 0x10 | HW_BREAKPOINT_W, ~0U,
	};
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		bp_attr_init(&attr, &words[0], 8, types[i]);
		EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1))
			TH_LOG("bp_type %#x", types[i]);
	}
}

TEST(bad_lengths)
{
	static const __u64 lens[] = { 0, 3, 5, 6, 7, 9, 12, 24, 1ULL << 32 };
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		bp_attr_init(&attr, &words[0], lens[i], HW_BREAKPOINT_W);
		EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1))
			TH_LOG("bp_len %llu", lens[i]);
	}
}

/* Has this CPU AMD's breakpoint address masks? */
static bool cpu_has_bpext(void)
{
	char line[4096];
	bool found = false;
	FILE *f;

	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "flags", 5) && strstr(line, " bpext");
	fclose(f);
	return found;
}

TEST(range_lengths)
{
	struct perf_event_attr attr;
	int want = cpu_has_bpext() ? 0 : EOPNOTSUPP;
	char *page = map_fresh_pages(1);

	ASSERT_NE(NULL, page);
	bp_attr_init(&attr, page, 16, HW_BREAKPOINT_W);
	EXPECT_EQ(want, bp_open_errno(&attr, 0, -1));
	bp_attr_init(&attr, page + 64, 64, HW_BREAKPOINT_RW);
	EXPECT_EQ(want, bp_open_errno(&attr, 0, -1));
	/* Not aligned to its length: never. */
	bp_attr_init(&attr, page + 8, 16, HW_BREAKPOINT_W);
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
	bp_attr_init(&attr, page + 32, 64, HW_BREAKPOINT_W);
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
	munmap(page, getpagesize());
}

TEST(misaligned)
{
	static const struct {
		__u64 len;
		unsigned int offset;
	} bad[] = {
		{ 2, 1 }, { 4, 1 }, { 4, 2 }, { 4, 6 },
		{ 8, 1 }, { 8, 2 }, { 8, 4 }, { 8, 12 },
	};
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		bp_attr_init(&attr, (char *)&words[0] + bad[i].offset,
			     bad[i].len, HW_BREAKPOINT_W);
		EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1))
			TH_LOG("len %llu at +%u", bad[i].len, bad[i].offset);
		attr.bp_type = HW_BREAKPOINT_RW;
		EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1))
			TH_LOG("RW len %llu at +%u", bad[i].len,
			       bad[i].offset);
	}
}

TEST(wraparound)
{
	struct perf_event_attr attr;

	bp_attr_init(&attr, NULL, 8, HW_BREAKPOINT_W);
	attr.bp_addr = ~0ULL;
	attr.exclude_kernel = 0;
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
	attr.bp_addr = ~0ULL - 3;
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
}

TEST(branch_stack)
{
	struct perf_event_attr attr;

	bp_attr_init(&attr, &words[0], 8, HW_BREAKPOINT_W);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER;
	EXPECT_EQ(EOPNOTSUPP, bp_open_errno(&attr, 0, -1));
}

/* As root: a kernel address only with the kernel counted. */
TEST(kernel_address_root)
{
	struct perf_event_attr attr;

	bp_attr_init(&attr, NULL, 8, HW_BREAKPOINT_W);
	attr.bp_addr = KERNEL_ADDR;
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
	attr.exclude_kernel = 0;
	EXPECT_EQ(0, bp_open_errno(&attr, 0, -1));
	/* The first kernel address and the last user one. */
	attr.bp_addr = 0xffff800000000000ULL;
	EXPECT_EQ(0, bp_open_errno(&attr, 0, -1));
	attr.exclude_kernel = 1;
	EXPECT_EQ(EINVAL, bp_open_errno(&attr, 0, -1));
	attr.bp_addr = 0x00007ffffffff000ULL - 8;
	EXPECT_EQ(0, bp_open_errno(&attr, 0, -1));
}

/* Stay root, without CAP_SYS_ADMIN but with CAP_PERFMON. */
static int drop_cap_sys_admin(void)
{
	return drop_capability(CAP_SYS_ADMIN);
}

/* The errno of an open by a helper that ran @prepare first, or 0. */
static int open_as(struct perf_event_attr *attr, int (*prepare)(void))
{
	int fd = perf_event_open_helper(attr, 0, -1, -1, 0, OPEN_TIMEOUT_MS,
					prepare);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return -fd;
}

FIXTURE(paranoid) {
	int saved;
};

FIXTURE_SETUP(paranoid)
{
	ASSERT_EQ(0, read_int_file(PARANOID, &self->saved));
}

FIXTURE_TEARDOWN(paranoid)
{
	write_int_file(PARANOID, self->saved);
}

/*
 * Without privilege: user addresses at the default level; a kernel
 * address is EACCES where counting the kernel is not allowed, and EPERM
 * where it is: a breakpoint in the kernel needs CAP_SYS_ADMIN.
 */
TEST_F(paranoid, kernel_address_unprivileged)
{
	struct perf_event_attr attr;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	bp_attr_init(&attr, &words[0], 8, HW_BREAKPOINT_W);
	EXPECT_EQ(0, open_as(&attr, become_nobody));
	attr.bp_addr = KERNEL_ADDR;
	EXPECT_EQ(EINVAL, open_as(&attr, become_nobody));
	attr.exclude_kernel = 0;
	EXPECT_EQ(EACCES, open_as(&attr, become_nobody));

	ASSERT_EQ(0, write_int_file(PARANOID, 1));
	EXPECT_EQ(EPERM, open_as(&attr, become_nobody));
	ASSERT_EQ(0, write_int_file(PARANOID, -1));
	EXPECT_EQ(EPERM, open_as(&attr, become_nobody));
	/* A user address with the kernel counted is fine. */
	attr.bp_addr = (unsigned long)&words[0];
	EXPECT_EQ(0, open_as(&attr, become_nobody));
}

/* CAP_PERFMON is not enough for a kernel address. */
TEST_F(paranoid, kernel_address_perfmon)
{
	struct perf_event_attr attr;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	bp_attr_init(&attr, NULL, 8, HW_BREAKPOINT_W);
	attr.bp_addr = KERNEL_ADDR;
	attr.exclude_kernel = 0;
	EXPECT_EQ(EPERM, open_as(&attr, drop_cap_sys_admin));
	EXPECT_EQ(0, open_as(&attr, NULL));
}

TEST_HARNESS_MAIN
