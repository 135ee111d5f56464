/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the selftests of the x86 hardware PMU, the "cpu" PMU of
 * /sys/bus/event_source/devices (PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE
 * and PERF_TYPE_RAW events): whether there is one, how many general
 * counters the CPU has, opening user-mode counting events, and a loop
 * of a known number of instructions and branches per iteration.
 *
 * On a hybrid (Intel's Alder Lake and Raptor Lake: a PMU per kind of
 * core, "cpu_core" and "cpu_atom"), the PMU that takes the events that
 * name no PMU is the big cores' "cpu_core", which counts only on them:
 * a test that includes this runs on the big cores (a constructor pins
 * it there), and the helpers describe cpu_core.
 *
 * Counts are taken by the difference method: the same code (enable,
 * loop, disable) runs for two iteration counts, so that whatever it
 * does around the loop cancels out and the difference is the loop's
 * alone.  Retired instructions and branches of such a loop are exact
 * in user mode on the emulated PMUs the tests run on, and as far as we
 * know on Intel cores; AMD documents that its retired-branch event also
 * counts the interrupts and exceptions taken, so there an interrupt
 * during the loop may add one (the tests keep the exact count all the
 * same).  Cycles depend on the microarchitecture: the tests only bound
 * them.
 *
 * Include this after "perf_test_util.h".
 */
#ifndef HW_TEST_UTIL_H
#define HW_TEST_UTIL_H

#include <cpuid.h>
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "hw_emulated.h"

#define HW_PMU_ROOT	"/sys/bus/event_source/devices/"

/* Why the hardware tests skip where the CPU has no PMU (or no driver). */
#define NO_HW_PMU	"no hardware PMU (no " HW_PMU_ROOT "cpu or cpu_core)"

/* The hardware PMU: "cpu", or a hybrid's big cores' "cpu_core". */
static inline const char *hw_pmu_name(void)
{
	return access(HW_PMU_ROOT "cpu_core", F_OK) ? "cpu" : "cpu_core";
}

/* Is there a hardware PMU with a driver? */
static inline bool hw_pmu_present(void)
{
	return !access(HW_PMU_ROOT "cpu", F_OK) ||
	       !access(HW_PMU_ROOT "cpu_core", F_OK);
}

/*
 * The first CPU of a list as sysfs writes it ("0-3,8"), and the CPUs of
 * the list in @set; -1 if it is empty or unreadable.
 */
static inline int hw_cpu_list(const char *path, cpu_set_t *set)
{
	char buf[512], *s = buf;
	int a, b, first = -1;
	FILE *f = fopen(path, "r");

	CPU_ZERO(set);
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	while (sscanf(s, "%d", &a) == 1) {
		b = a;
		while (*s >= '0' && *s <= '9')
			s++;
		if (*s == '-' && sscanf(++s, "%d", &b) == 1)
			while (*s >= '0' && *s <= '9')
				s++;
		if (first < 0)
			first = a;
		for (; a <= b && a < CPU_SETSIZE; a++)
			CPU_SET(a, set);
		if (*s != ',')
			break;
		s++;
	}
	return first;
}

/*
 * On a hybrid, run where cpu_core counts: on the big cores.  A program
 * whose caller binds it to a CPU of either kind (hw_cycles_fit) defines
 * HW_TEST_STAY_PUT before it includes this.
 */
#ifndef HW_TEST_STAY_PUT
static __attribute__((constructor, unused)) void hw_pin_to_big_cores(void)
{
	cpu_set_t set;

	if (hw_cpu_list(HW_PMU_ROOT "cpu_core/cpus", &set) >= 0)
		sched_setaffinity(0, sizeof(set), &set);
}
#endif

/*
 * A hybrid's big cores have general counters CPUID 0xA does not tell
 * (it tells what all kinds of core have): how many IA32_PMCx registers
 * the first big core reads without a fault (/dev/cpu/N/msr), or 0 if
 * that cannot be told.
 */
static inline unsigned int hw_big_core_gp_counters(void)
{
	cpu_set_t set;
	char path[64];
	__u64 val;
	int cpu, fd;
	unsigned int n;

	cpu = hw_cpu_list(HW_PMU_ROOT "cpu_core/cpus", &set);
	if (cpu < 0)
		return 0;
	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	for (n = 0; n < 8; n++)
		if (pread(fd, &val, sizeof(val), 0xc1 + n) != sizeof(val))
			break;
	close(fd);
	return n;
}

/* For a test (it expands after ../kselftest_harness.h). */
#define HW_SKIP_WITHOUT_PMU() do {					\
	if (!hw_pmu_present())						\
		SKIP(return, NO_HW_PMU);				\
} while (0)

enum hw_vendor { HW_VENDOR_OTHER, HW_VENDOR_INTEL, HW_VENDOR_AMD };

static inline enum hw_vendor hw_vendor(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
		return HW_VENDOR_OTHER;
	/* "GenuineIntel" and "AuthenticAMD", in ebx, edx, ecx order. */
	if (ebx == 0x756e6547 && edx == 0x49656e69 && ecx == 0x6c65746e)
		return HW_VENDOR_INTEL;
	if (ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163)
		return HW_VENDOR_AMD;
	/* "HygonGenuine": AMD's Zen, and its PMU, by another name. */
	if (ebx == 0x6f677948 && edx == 0x6e65476e && ecx == 0x656e6975)
		return HW_VENDOR_AMD;
	return HW_VENDOR_OTHER;
}

/* The family and model CPUID leaf 1 gives, with their extensions. */
static inline void hw_cpu_family_model(unsigned int *family,
				       unsigned int *model)
{
	unsigned int eax, ebx, ecx, edx;

	*family = *model = 0;
	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
		return;
	*family = (eax >> 8) & 0xf;
	*model = (eax >> 4) & 0xf;
	if (*family == 0xf)
		*family += (eax >> 20) & 0xff;
	if (*family == 0x6 || *family >= 0xf)
		*model |= ((eax >> 16) & 0xf) << 4;
}

/* Whether @model is one of the @n models of @models. */
static inline bool hw_model_listed(const unsigned char *models, size_t n,
				   unsigned int model)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (models[i] == model)
			return true;
	return false;
}

/* Intel family 6: Nehalem and Westmere. */
static inline bool hw_model_nehalem(unsigned int model)
{
	static const unsigned char models[] = {
		0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f,
	};

	return hw_model_listed(models, sizeof(models), model);
}

/* Intel family 6: the first Atoms (Bonnell, Saltwell). */
static inline bool hw_model_bonnell(unsigned int model)
{
	static const unsigned char models[] = {
		0x1c, 0x26, 0x27, 0x35, 0x36,
	};

	return hw_model_listed(models, sizeof(models), model);
}

/*
 * Intel family 6: the Atoms from Silvermont to Gracemont, and the Xeon
 * Phis built on Silvermont's cores, which encode their branch events
 * alike.
 */
static inline bool hw_model_atom(unsigned int model)
{
	static const unsigned char models[] = {
		0x37, 0x4a, 0x4c, 0x4d, 0x5a, 0x5d,	/* Silvermont, Airmont */
		0x5c, 0x5f, 0x7a,			/* Goldmont (Plus) */
		0x86, 0x8a, 0x96, 0x9c,			/* Tremont */
		0xbe,					/* Gracemont */
		0x57, 0x85,				/* Knights Landing, Mill */
	};

	return hw_model_listed(models, sizeof(models), model);
}

/*
 * The shortest sample period the model's counters take for any event (an
 * erratum's workaround that 6.1 applies; hw_min_period_test): 32 on
 * Nehalem (not Westmere) and Haswell, 1 elsewhere.
 */
static inline __u64 hw_min_period(void)
{
	static const unsigned char models[] = {
		0x1a, 0x1e, 0x1f, 0x2e,		/* Nehalem */
		0x3c, 0x3f, 0x45, 0x46,		/* Haswell */
	};
	unsigned int family, model;

	hw_cpu_family_model(&family, &model);
	if (hw_vendor() == HW_VENDOR_INTEL && family == 6 &&
	    hw_model_listed(models, sizeof(models), model))
		return 32;
	return 1;
}

/*
 * The number of general-purpose counters the CPU describes: CPUID 0xA
 * EAX[15:8] on Intel; on AMD CPUID 0x80000022 EBX[3:0] with PerfMonV2,
 * else six with the core counter extension (CPUID 0x80000001 ECX[23]),
 * else the four legacy ones.  0 if unknown.
 */
static inline unsigned int hw_gp_counters(void)
{
	unsigned int eax, ebx, ecx, edx, max;

	switch (hw_vendor()) {
	case HW_VENDOR_INTEL:
		if (__get_cpuid_max(0, NULL) < 0xa)
			return 0;
		max = hw_big_core_gp_counters();
		if (max)
			return max;
		__cpuid_count(0xa, 0, eax, ebx, ecx, edx);
		return (eax >> 8) & 0xff;
	case HW_VENDOR_AMD:
		max = __get_cpuid_max(0x80000000, NULL);
		if (max >= 0x80000022) {
			__cpuid_count(0x80000022, 0, eax, ebx, ecx, edx);
			if (eax & 1)
				return ebx & 0xf;
		}
		if (max >= 0x80000001) {
			__cpuid(0x80000001, eax, ebx, ecx, edx);
			if (ecx & (1U << 23))
				return 6;
		}
		return 4;
	default:
		return 0;
	}
}

/*
 * The counters an instructions event can go on: the general ones and,
 * on Intel, fixed counter 0 (CPUID 0xA EDX[4:0] fixed counters, from
 * perfmon version 2 on).
 */
static inline unsigned int hw_instructions_counters(void)
{
	unsigned int eax, ebx, ecx, edx, n = hw_gp_counters();

	if (hw_vendor() != HW_VENDOR_INTEL || __get_cpuid_max(0, NULL) < 0xa)
		return n;
	__cpuid_count(0xa, 0, eax, ebx, ecx, edx);
	if ((eax & 0xff) >= 2 && (edx & 0x1f) >= 1)
		n++;
	return n;
}

/* A file of the cpu PMU's directory, its last newline dropped; 0 or -1. */
static inline int hw_pmu_file(const char *name, char *buf, size_t size)
{
	char path[256];
	size_t len;

	snprintf(path, sizeof(path), HW_PMU_ROOT "%s/%s", hw_pmu_name(), name);
	if (read_small_file(path, buf, size))
		return -1;
	len = strlen(buf);
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return 0;
}

/*
 * A user-mode (exclude_kernel, exclude_hv) event of @type and @config,
 * opened disabled on the calling thread.
 */
static inline void hw_attr_init(struct perf_event_attr *attr, __u32 type,
				__u64 config)
{
	pmu_attr_init(attr, type, config);
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/*
 * Open it on the calling thread, as a member of @group_fd's group (the
 * member enabled: it counts with its leader) or, for -1, alone.
 */
static inline int hw_open_group(__u32 type, __u64 config, __u64 read_format,
				int group_fd)
{
	struct perf_event_attr attr;

	hw_attr_init(&attr, type, config);
	attr.disabled = group_fd < 0;
	attr.read_format = read_format;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

/* A user-mode PERF_TYPE_HARDWARE event @config, opened disabled. */
static inline int hw_open(__u64 config)
{
	return hw_open_group(PERF_TYPE_HARDWARE, config, 0, -1);
}

/* 0 if a user-mode event of @type and @config opens, else errno. */
static inline int hw_open_errno(__u32 type, __u64 config)
{
	int fd = hw_open_group(type, config, 0, -1);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * The loop whose events are counted: HW_LOOP_INSNS instructions, of
 * which HW_LOOP_BRANCHES branch, per iteration; @n must not be 0.
 * Whatever the function does outside the loop is the same for any @n.
 */
#define HW_LOOP_INSNS		4
#define HW_LOOP_BRANCHES	1

static __attribute__((noinline, unused)) void hw_loop(unsigned long n)
{
	unsigned long acc = 0;

	asm volatile("1:\n\t"
		     "add $3, %1\n\t"
		     "nop\n\t"
		     "dec %0\n\t"
		     "jnz 1b\n\t"
		     : "+r" (n), "+r" (acc) : : "cc");
}

/*
 * Reset and enable @fd (with @flags, PERF_IOC_FLAG_GROUP for a whole
 * group), run hw_loop(@n), disable: the identical code around the loop
 * for any @n.  0, or -1 if an ioctl() failed.
 */
static __attribute__((noinline, unused)) int
hw_run_loop(int fd, unsigned long n, unsigned int flags)
{
	int ret = 0;

	ret |= ioctl(fd, PERF_EVENT_IOC_RESET, flags);
	ret |= ioctl(fd, PERF_EVENT_IOC_ENABLE, flags);
	hw_loop(n);
	ret |= ioctl(fd, PERF_EVENT_IOC_DISABLE, flags);
	return ret ? -1 : 0;
}

/* hw_run_loop() on @fd alone, then its count in @value; 0 or -1. */
static inline int hw_count_loop(int fd, unsigned long n, __u64 *value)
{
	if (hw_run_loop(fd, n, 0))
		return -1;
	return read_value(fd, value);
}

#endif /* HW_TEST_UTIL_H */
