// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 hardware PMU in sysfs, /sys/bus/event_source/devices/cpu (on
 * a hybrid, the big cores' cpu_core), as Linux 6.1 shows it:
 *
 *  - type is PERF_TYPE_RAW (4): the raw events' type is the PMU's;
 *  - format/ describes the event select register: event is
 *    "config:0-7" on Intel, "config:0-7,32-35" on AMD (whose event
 *    select has four more bits there); umask "config:8-15", edge
 *    "config:18", inv "config:23", cmask "config:24-31";
 *  - events/ has a file for each generic hardware event the CPU has
 *    (cpu-cycles, instructions, branch-instructions, ...), just those
 *    that PERF_TYPE_HARDWARE opens (the others are ENOENT), each a
 *    list of format terms ("event=0xc0", "event=0x2e,umask=0x41");
 *    the raw config those terms make counts what the generic event
 *    counts: exactly the same instructions and branches of a loop;
 *  - rdpmc is 1: user space may read the counters of its events;
 *  - caps/max_precise is the highest precise_ip the PMU takes, 0 to 3.
 *
 * Skipped where there is no hardware PMU.
 */
#define _GNU_SOURCE
#include <ctype.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

TEST(type_is_raw)
{
	int type;

	HW_SKIP_WITHOUT_PMU();
	ASSERT_EQ(0, pmu_sysfs_read(hw_pmu_name(), "type", &type));
	EXPECT_EQ(PERF_TYPE_RAW, type);
}

TEST(format)
{
	static const struct {
		const char *name;
		const char *intel;
		const char *amd;
	} formats[] = {
		{ "event", "config:0-7", "config:0-7,32-35" },
		{ "umask", "config:8-15", "config:8-15" },
		{ "edge", "config:18", "config:18" },
		{ "inv", "config:23", "config:23" },
		{ "cmask", "config:24-31", "config:24-31" },
	};
	enum hw_vendor vendor = hw_vendor();
	char name[64], buf[64];
	unsigned int i;

	HW_SKIP_WITHOUT_PMU();
	if (vendor == HW_VENDOR_OTHER)
		SKIP(return, "the formats of an unknown CPU vendor");
	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		snprintf(name, sizeof(name), "format/%s", formats[i].name);
		ASSERT_EQ(0, hw_pmu_file(name, buf, sizeof(buf))) TH_LOG("%s", name);
		EXPECT_STREQ(vendor == HW_VENDOR_INTEL ? formats[i].intel :
			     formats[i].amd, buf);
	}
}

TEST(rdpmc_enabled)
{
	char buf[16];

	HW_SKIP_WITHOUT_PMU();
	ASSERT_EQ(0, hw_pmu_file("rdpmc", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
}

TEST(max_precise)
{
	int max;

	HW_SKIP_WITHOUT_PMU();
	ASSERT_EQ(0, pmu_sysfs_read(hw_pmu_name(), "caps/max_precise", &max));
	EXPECT_LE(0, max);
	EXPECT_GE(3, max);
}

/*
 * Put @value into @config at the bits of format @spec, "config:LO-HI"
 * or "config:N", several of them separated by commas, filled from the
 * value's lowest bit up.  0, or -1 if @spec does not parse.
 */
static int format_put(const char *spec, __u64 value, __u64 *config)
{
	const char *p;
	unsigned long lo, hi, bit;
	char *end;

	if (strncmp(spec, "config:", 7))
		return -1;
	p = spec + 7;
	for (;;) {
		lo = strtoul(p, &end, 10);
		if (end == p || lo > 63)
			return -1;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p || hi < lo || hi > 63)
				return -1;
		}
		for (bit = lo; bit <= hi; bit++, value >>= 1)
			*config |= (value & 1) << bit;
		if (!*end)
			break;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
	return value ? -1 : 0;
}

/*
 * The raw config of an events/ file, "term[=0xVALUE],...", each term a
 * file of format/ (a term without a value sets its one bit); 0 or -1.
 */
static int event_config(const char *event, __u64 *config)
{
	char buf[128], *term, *save, *eq, name[96], spec[64];
	unsigned long long value;

	snprintf(name, sizeof(name), "events/%s", event);
	if (hw_pmu_file(name, buf, sizeof(buf)))
		return -1;
	*config = 0;
	for (term = strtok_r(buf, ",", &save); term;
	     term = strtok_r(NULL, ",", &save)) {
		value = 1;
		eq = strchr(term, '=');
		if (eq) {
			*eq = '\0';
			if (strncmp(eq + 1, "0x", 2) ||
			    !isxdigit((unsigned char)eq[3]))
				return -1;
			value = strtoull(eq + 1, NULL, 16);
		}
		snprintf(name, sizeof(name), "format/%s", term);
		if (hw_pmu_file(name, spec, sizeof(spec)) ||
		    format_put(spec, value, config))
			return -1;
	}
	return 0;
}

/* The generic hardware events, by their events/ names. */
static const struct {
	const char *name;
	__u64 id;
} generic[] = {
	{ "cpu-cycles",			PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions",		PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references",		PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses",		PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions",	PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses",		PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles",			PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend",	PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend",	PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles",			PERF_COUNT_HW_REF_CPU_CYCLES },
};

/*
 * A generic event has its events/ file just when it opens; its terms
 * make a raw config that opens too.  Past the last generic event:
 * EINVAL.
 */
TEST(generic_events)
{
	char name[64], buf[128];
	unsigned int i;
	__u64 config;
	int err;

	HW_SKIP_WITHOUT_PMU();
	for (i = 0; i < ARRAY_SIZE(generic); i++) {
		snprintf(name, sizeof(name), "events/%s", generic[i].name);
		err = hw_open_errno(PERF_TYPE_HARDWARE, generic[i].id);
		if (hw_pmu_file(name, buf, sizeof(buf))) {
			EXPECT_EQ(ENOENT, err) TH_LOG("%s", generic[i].name);
			continue;
		}
		EXPECT_EQ(0, err) TH_LOG("%s: %s", generic[i].name,
					 strerror(err));
		ASSERT_EQ(0, event_config(generic[i].name, &config)) {
			TH_LOG("%s: \"%s\"", generic[i].name, buf);
		}
		EXPECT_EQ(0, hw_open_errno(PERF_TYPE_RAW, config)) {
			TH_LOG("%s: \"%s\" is 0x%llx", generic[i].name, buf,
			       config);
		}
	}
	EXPECT_EQ(EINVAL, hw_open_errno(PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX));
}

/* Every CPU with a PMU has these. */
TEST(basic_events_listed)
{
	static const char * const basic[] = {
		"cpu-cycles", "instructions", "branch-instructions",
	};
	char name[64], buf[64];
	unsigned int i;

	HW_SKIP_WITHOUT_PMU();
	for (i = 0; i < ARRAY_SIZE(basic); i++) {
		snprintf(name, sizeof(name), "events/%s", basic[i]);
		EXPECT_EQ(0, hw_pmu_file(name, buf, sizeof(buf)))
			TH_LOG("%s", name);
	}
}

/* The difference of the counts of N1 and N2 loop iterations. */
#define N1		10000UL
#define N2		110000UL

static __u64 loop_difference(struct __test_metadata *_metadata, __u32 type,
			     __u64 config)
{
	__u64 c1, c2;
	int fd = hw_open_group(type, config, 0, -1);

	EXPECT_LE(0, fd) TH_LOG("type %u config 0x%llx: %s", type, config,
				strerror(errno));
	if (fd < 0)
		return 0;
	EXPECT_EQ(0, hw_count_loop(fd, N1, &c1));
	EXPECT_EQ(0, hw_count_loop(fd, N1, &c1));
	EXPECT_EQ(0, hw_count_loop(fd, N2, &c2));
	close(fd);
	return c2 - c1;
}

/*
 * The instructions and branch-instructions of sysfs, as raw events,
 * count the loop exactly as the generic events do.
 */
TEST(sysfs_events_count)
{
	static const struct {
		const char *name;
		__u64 id;
		__u64 per_iter;
	} counted[] = {
		{ "instructions", PERF_COUNT_HW_INSTRUCTIONS, HW_LOOP_INSNS },
		{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
		  HW_LOOP_BRANCHES },
	};
	unsigned int i;
	__u64 config;

	HW_SKIP_WITHOUT_PMU();
	for (i = 0; i < ARRAY_SIZE(counted); i++) {
		ASSERT_EQ(0, event_config(counted[i].name, &config)) {
			TH_LOG("%s", counted[i].name);
		}
		EXPECT_EQ((N2 - N1) * counted[i].per_iter,
			  loop_difference(_metadata, PERF_TYPE_RAW, config)) {
			TH_LOG("%s: raw 0x%llx", counted[i].name, config);
		}
		EXPECT_EQ((N2 - N1) * counted[i].per_iter,
			  loop_difference(_metadata, PERF_TYPE_HARDWARE,
					  counted[i].id)) {
			TH_LOG("%s", counted[i].name);
		}
	}
}

TEST_HARNESS_MAIN
