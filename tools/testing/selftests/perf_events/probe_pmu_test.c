// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe and uprobe PMUs (/sys/bus/event_source/devices/{kprobe,uprobe}):
 * dynamic types, format/retprobe ("config:0") and, for uprobes,
 * format/ref_ctr_offset ("config:32-63").  An event brings its own probe:
 *  - kprobe: kprobe_func (config1) names a kernel function and
 *    probe_offset (config2) an offset into it, or kprobe_func is 0 and
 *    kprobe_addr (config2) is the address;
 *  - uprobe: uprobe_path (config1) names a file and probe_offset
 *    (config2) the file offset of the instruction; here, a function of
 *    this program, found through its ELF symbol table;
 * with config bit 0, the probe is a return probe.  The events count the
 * calls (or returns) made by the task they follow, and by its children
 * with inherit.  The probe exists while the event does: the kprobe is
 * listed in debugfs, the uprobe is a breakpoint in the program's text.
 * Probe events take filters like tracepoint events.  Opening a kprobe
 * event needs CAP_PERFMON, a uprobe event CAP_SYS_ADMIN, whatever
 * perf_event_paranoid says.  Errors are 6.1's.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <limits.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "perf_test_util.h"
#include "pmu_sysfs.h"
#include "tp_test_util.h"
#include "../kselftest_harness.h"

/* Written for levels up to 2: Debian's 3 would refuse every open below. */
static void __attribute__((constructor)) paranoid_lowered(void)
{
	paranoid_at_most_2();
}

#define NR_CALLS	50
#define KFUNC		"__x64_sys_getppid"
#define KPROBE_LIST	"/sys/kernel/debug/kprobes/list"
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/*
 * The function the uprobes probe, called through a pointer the compiler
 * cannot see through: each call runs it.
 */
int uprobe_target(int x)
{
	asm volatile("" : "+r" (x));
	return x + 1;
}

static void call_target(int nr)
{
	int (*fn)(int) = uprobe_target;

	while (nr--) {
		asm volatile("" : "+r" (fn));
		fn(nr);
	}
}

/* The first byte of uprobe_target(), a breakpoint while probed. */
static unsigned char target_byte(void)
{
	return __atomic_load_n((unsigned char *)uprobe_target,
			       __ATOMIC_RELAXED);
}

static int pmu_type(const char *pmu)
{
	int type;

	return pmu_sysfs_read(pmu, "type", &type) ? -1 : type;
}

/*
 * An event of probe PMU @pmu, with @config: @name is the kprobe's
 * function or the uprobe's path, @offset the probe_offset.
 */
static void probe_attr_init(struct perf_event_attr *attr, const char *pmu,
			    __u64 config, const char *name, __u64 offset)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = pmu_type(pmu);
	attr->config = config;
	/* kprobe_func and uprobe_path are one field. */
	attr->kprobe_func = (__u64)(unsigned long)name;
	attr->probe_offset = offset;
}

static int open_errno(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	int fd = sys_perf_event_open(attr, pid, cpu, -1, 0);

	return fd < 0 ? -errno : fd;
}

/* A kprobe event on @func + @offset; the fd or -errno. */
static int kprobe_open(const char *func, __u64 offset, bool retprobe,
		       pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	probe_attr_init(&attr, "kprobe", retprobe, func, offset);
	return open_errno(&attr, pid, cpu);
}

/*
 * Does the kprobes debugfs list have a probe at @addr?  1, 0, or -1.  It
 * names probes by the first symbol at their address, which may be an
 * alias of the one asked for.
 */
static int kprobe_listed(unsigned long addr)
{
	char line[512], *end;
	unsigned long at;
	int found = 0;
	FILE *f = fopen(KPROBE_LIST, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		at = strtoul(line, &end, 16);
		if (end != line && at == addr)
			found = 1;
	}
	fclose(f);
	return found;
}

/*
 * The file offset of function @name in ELF file @path: the symbol's
 * address, through the loadable segment that holds it.  -1 if not found.
 */
static long elf_func_offset(const char *path, const char *name)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const Elf64_Phdr *ph;
	unsigned long vaddr = 0;
	long offset = -1;
	struct stat st;
	const char *base;
	int fd, i;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	base = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (base == MAP_FAILED)
		return -1;
	eh = (const Elf64_Ehdr *)base;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		goto out;

	sh = (const Elf64_Shdr *)(base + eh->e_shoff);
	for (i = 0; i < eh->e_shnum && !vaddr; i++) {
		const Elf64_Sym *sym;
		const char *strtab;
		size_t j, nr;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		sym = (const Elf64_Sym *)(base + sh[i].sh_offset);
		strtab = base + sh[sh[i].sh_link].sh_offset;
		nr = sh[i].sh_size / sizeof(*sym);
		for (j = 0; j < nr; j++) {
			if (ELF64_ST_TYPE(sym[j].st_info) == STT_FUNC &&
			    !strcmp(strtab + sym[j].st_name, name)) {
				vaddr = sym[j].st_value;
				break;
			}
		}
	}

	ph = (const Elf64_Phdr *)(base + eh->e_phoff);
	for (i = 0; i < eh->e_phnum && vaddr; i++) {
		if (ph[i].p_type == PT_LOAD && vaddr >= ph[i].p_vaddr &&
		    vaddr < ph[i].p_vaddr + ph[i].p_filesz) {
			offset = vaddr - ph[i].p_vaddr + ph[i].p_offset;
			break;
		}
	}
out:
	munmap((void *)base, st.st_size);
	return offset;
}

static char exe_path[PATH_MAX];

/* This program's path and the offset of uprobe_target() in it, or -1. */
static long target_offset(void)
{
	ssize_t n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);

	if (n <= 0)
		return -1;
	exe_path[n] = '\0';
	return elf_func_offset(exe_path, "uprobe_target");
}

/* A uprobe event on @path + @offset; the fd or -errno. */
static int uprobe_open_at(const char *path, __u64 offset, __u64 config,
			  pid_t pid, bool inherit)
{
	struct perf_event_attr attr;

	probe_attr_init(&attr, "uprobe", config, path, offset);
	attr.inherit = inherit;
	return open_errno(&attr, pid, -1);
}

static int uprobe_open(bool retprobe, pid_t pid, bool inherit)
{
	long offset = target_offset();

	if (offset < 0)
		return -ENOENT;
	return uprobe_open_at(exe_path, offset, retprobe, pid, inherit);
}

/* The workloads: the calls the probes count. */
static void getppid_calls(void)
{
	do_getppid(NR_CALLS);
}

static void getppid_and_getpid_calls(void)
{
	do_getppid(NR_CALLS);
	do_getpid(NR_CALLS);
}

static void target_calls(void)
{
	call_target(NR_CALLS);
}

/* What the event @fd (or -errno) counts while @work runs; closes it. */
static __u64 count_during(struct __test_metadata *_metadata, int fd,
			  void (*work)(void))
{
	__u64 value;

	ASSERT_LE(0, fd) {
		TH_LOG("open: %s", strerror(-fd));
	}
	work();
	value = count_of(fd);
	close(fd);
	return value;
}

TEST(sysfs)
{
	char buf[64];

	ASSERT_LE(PERF_TYPE_MAX, pmu_type("kprobe"));
	ASSERT_LE(PERF_TYPE_MAX, pmu_type("uprobe"));
	EXPECT_NE(pmu_type("kprobe"), pmu_type("uprobe"));
	ASSERT_EQ(0, read_line_file(PMU_SYSFS_DIR "kprobe/format/retprobe",
				    buf, sizeof(buf)));
	EXPECT_STREQ("config:0", buf);
	ASSERT_EQ(0, read_line_file(PMU_SYSFS_DIR "uprobe/format/retprobe",
				    buf, sizeof(buf)));
	EXPECT_STREQ("config:0", buf);
	ASSERT_EQ(0, read_line_file(PMU_SYSFS_DIR "uprobe/format/ref_ctr_offset",
				    buf, sizeof(buf)));
	EXPECT_STREQ("config:32-63", buf);
}

TEST(kprobe_counts_calls)
{
	EXPECT_EQ(NR_CALLS,
		  count_during(_metadata, kprobe_open(KFUNC, 0, false, 0, -1),
			       getppid_and_getpid_calls));
}

TEST(kretprobe_counts_returns)
{
	EXPECT_EQ(NR_CALLS,
		  count_during(_metadata, kprobe_open(KFUNC, 0, true, 0, -1),
			       getppid_calls));
}

TEST(kprobe_by_address)
{
	unsigned long addr = kallsyms_addr(KFUNC);
	struct perf_event_attr attr;

	ASSERT_NE(0, addr);
	probe_attr_init(&attr, "kprobe", 0, NULL, 0);
	attr.kprobe_addr = addr;
	EXPECT_EQ(NR_CALLS, count_during(_metadata, open_errno(&attr, 0, -1),
					 getppid_calls));
}

/* A CPU-wide kprobe counts every task's calls on that CPU. */
TEST(kprobe_cpu_wide)
{
	int cpus[1], fd;

	ASSERT_EQ(1, allowed_cpus(cpus, 1));
	ASSERT_EQ(0, pin_to_cpu(cpus[0]));
	fd = kprobe_open(KFUNC, 0, false, -1, cpus[0]);
	EXPECT_LE(NR_CALLS, count_during(_metadata, fd, getppid_calls));
}

TEST(kprobe_exists_while_event_does)
{
	unsigned long addr = kallsyms_addr(KFUNC);
	int fd;

	ASSERT_NE(0, addr);
	ASSERT_EQ(0, kprobe_listed(addr)) {
		TH_LOG("no %s, or a probe left over", KPROBE_LIST);
	}
	fd = kprobe_open(KFUNC, 0, false, 0, -1);
	ASSERT_LE(0, fd);
	EXPECT_EQ(1, kprobe_listed(addr));
	close(fd);
	EXPECT_EQ(0, kprobe_listed(addr));
}

TEST(kprobe_errors)
{
	char *long_name = malloc(1024);
	struct perf_event_attr attr;

	ASSERT_NE(NULL, long_name);
	EXPECT_EQ(-ENOENT, kprobe_open("no_such_function_here", 0, false, 0, -1));
	EXPECT_EQ(-EFAULT, kprobe_open((const char *)8, 0, false, 0, -1));
	memset(long_name, 'a', 1023);
	long_name[1023] = '\0';
	EXPECT_EQ(-E2BIG, kprobe_open(long_name, 0, false, 0, -1));
	free(long_name);

	/* Neither a name nor an address. */
	probe_attr_init(&attr, "kprobe", 0, NULL, 0);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST(kprobe_filter)
{
	int fd = kprobe_open(KFUNC, 0, false, 0, -1);
	char filter[64];

	ASSERT_LE(0, fd);
	snprintf(filter, sizeof(filter), "common_pid != %d", getpid());
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "no_field == 1"));
	do_getppid(NR_CALLS);
	EXPECT_EQ(0, count_of(fd));
	close(fd);
}

/* The offset from the symbol table is where the function is mapped. */
TEST(uprobe_offset_from_elf)
{
	long offset = target_offset();

	ASSERT_LT(0, offset);
	EXPECT_EQ(maps_file_offset((void *)uprobe_target), offset);
}

TEST(uprobe_counts_calls)
{
	EXPECT_EQ(NR_CALLS, count_during(_metadata, uprobe_open(false, 0, false),
					 target_calls));
}

TEST(uretprobe_counts_returns)
{
	EXPECT_EQ(NR_CALLS, count_during(_metadata, uprobe_open(true, 0, false),
					 target_calls));
}

/* The registers of a uprobe are the user's: exclude_kernel counts. */
TEST(uprobe_exclude_kernel)
{
	struct perf_event_attr attr;
	long offset = target_offset();

	ASSERT_LT(0, offset);
	probe_attr_init(&attr, "uprobe", 0, exe_path, offset);
	attr.exclude_kernel = 1;
	EXPECT_EQ(NR_CALLS, count_during(_metadata, open_errno(&attr, 0, -1),
					 target_calls));
}

/* A child forked without inherit is not followed. */
TEST(uprobe_follows_its_task_only)
{
	int fd = uprobe_open(false, 0, false), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		call_target(NR_CALLS);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	call_target(3);
	EXPECT_EQ(3, count_of(fd));
	close(fd);
}

static int uprobe_child_work(void)
{
	pid_t pid;

	call_target(NR_CALLS);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		call_target(2 * NR_CALLS);
		_exit(0);
	}
	return waitpid(pid, NULL, 0) == pid ? 0 : 1;
}

/*
 * With inherit, the calls of the task's children count too.  On 6.1 the
 * copies make probes of their own from the attributes, and the children's
 * calls do not always count; ours share the probe of the event (a
 * documented extension).
 */
TEST(uprobe_inherit)
{
	struct gated_child c;
	int fd, status;
	__u64 value;

	ASSERT_LT(0, target_offset());
	ASSERT_LE(0, fork_gated(&c, NULL));
	if (c.pid == 0)
		_exit(uprobe_child_work());
	fd = uprobe_open(false, c.pid, true);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, gate_release(&c));
	status = gated_wait(&c);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	value = count_of(fd);
	if (ours_kernel()) {
		EXPECT_EQ(3 * NR_CALLS, value);
	} else {
		EXPECT_LE(NR_CALLS, value);
		EXPECT_GE(3 * NR_CALLS, value);
	}
	close(fd);
}

/* While the event exists, the function starts with a breakpoint. */
TEST(uprobe_exists_while_event_does)
{
	unsigned char before = target_byte();
	int fd;

	ASSERT_NE(0xcc, before);
	fd = uprobe_open(false, 0, false);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0xcc, target_byte());
	close(fd);
	EXPECT_EQ(before, target_byte());
}

TEST(uprobe_errors)
{
	long offset = target_offset();
	char *long_path = malloc(PATH_MAX + 16);

	ASSERT_LT(0, offset);
	ASSERT_NE(NULL, long_path);
	EXPECT_EQ(-EINVAL, uprobe_open_at(NULL, offset, 0, 0, false));
	EXPECT_EQ(-EINVAL, uprobe_open_at("", offset, 0, 0, false));
	EXPECT_EQ(-ENOENT, uprobe_open_at("/no/such/file", offset, 0, 0, false));
	EXPECT_EQ(-EFAULT, uprobe_open_at((const char *)8, offset, 0, 0, false));
	memset(long_path, 'a', PATH_MAX + 15);
	long_path[PATH_MAX + 15] = '\0';
	EXPECT_EQ(-E2BIG, uprobe_open_at(long_path, offset, 0, 0, false));
	free(long_path);
	/* Not a regular file. */
	EXPECT_EQ(-EINVAL, uprobe_open_at("/proc", 0, 0, 0, false));
	/* Past the end of the file. */
	EXPECT_EQ(-EINVAL, uprobe_open_at(exe_path, 1UL << 40, 0, 0, false));
}

/* No probe events without privilege, even at perf_event_paranoid -1. */
TEST(nobody_eacces)
{
	struct perf_event_attr attr;
	long offset = target_offset();
	int saved, fd;

	ASSERT_LT(0, offset);
	ASSERT_EQ(0, read_int_file(PARANOID, &saved));
	ASSERT_EQ(0, write_int_file(PARANOID, -1));

	probe_attr_init(&attr, "kprobe", 0, KFUNC, 0);
	fd = perf_event_open_helper(&attr, 0, -1, -1, 0, 5000, become_nobody);
	EXPECT_EQ(-EACCES, fd);

	probe_attr_init(&attr, "uprobe", 0, exe_path, offset);
	fd = perf_event_open_helper(&attr, 0, -1, -1, 0, 5000, become_nobody);
	EXPECT_EQ(-EACCES, fd);

	write_int_file(PARANOID, saved);
}

static int drop_sys_admin(void)
{
	return drop_capability(CAP_SYS_ADMIN);
}

/* CAP_PERFMON is enough for a kprobe; a uprobe needs CAP_SYS_ADMIN. */
TEST(uprobe_needs_sys_admin)
{
	struct perf_event_attr attr;
	long offset = target_offset();
	int fd;

	ASSERT_LT(0, offset);
	probe_attr_init(&attr, "kprobe", 0, KFUNC, 0);
	fd = perf_event_open_helper(&attr, 0, -1, -1, 0, 5000, drop_sys_admin);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);

	probe_attr_init(&attr, "uprobe", 0, exe_path, offset);
	fd = perf_event_open_helper(&attr, 0, -1, -1, 0, 5000, drop_sys_admin);
	EXPECT_EQ(-EACCES, fd);
	if (fd >= 0)
		close(fd);
	/* Control: with it. */
	fd = perf_event_open_helper(&attr, 0, -1, -1, 0, 5000, NULL);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
}

TEST_HARNESS_MAIN
