// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_PROG_TYPE_PERF_EVENT programs, which run on each overflow of the
 * event they are attached to, and the records perf writes about BPF
 * programs, as Linux 6.1 does it:
 *
 *  - the program sees the sample's address and period, and the sample
 *    is written only if it returns nonzero; the event counts every
 *    occurrence either way; inherited copies made after the attach run
 *    it too;
 *  - bpf_get_stack() in such a program reads the sample's call chain;
 *    in a tracepoint program, the kernel stack of the tracepoint;
 *    bpf_get_stackid() stores the chain in a stack map, under the id it
 *    returns;
 *  - on a hardware event the program runs in the overflow NMI, and
 *    bpf_perf_event_output() from there writes into a BPF output
 *    event's buffer, one record per overflow;
 *  - loading a program writes PERF_RECORD_KSYMBOL (its JITed image) and
 *    PERF_RECORD_BPF_EVENT (PERF_BPF_EVENT_PROG_LOAD, its id and tag) to
 *    the events that asked for them (attr.ksymbol, attr.bpf_event);
 *    unloading, the same with KSYMBOL's unregister flag and
 *    PERF_BPF_EVENT_PROG_UNLOAD.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <linux/bpf_perf_event.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "hw_test_util.h"
#include "bpf_test_util.h"
#include "../kselftest_harness.h"

#define NR_KEEP		20
#define NR_DROP		30

#define ADDR_OFF	offsetof(struct bpf_perf_event_data, addr)
#define PERIOD_OFF	offsetof(struct bpf_perf_event_data, sample_period)

/* Keep the samples whose address is in [@lo, @hi) with a period of 1. */
static int load_filter(unsigned long lo, unsigned long hi)
{
	struct bpf_insn insns[] = {
		MOV64_IMM(R0, 0),
		LDX_DW(R2, R1, PERIOD_OFF),
		JNE_IMM(R2, 1, 8),
		LDX_DW(R2, R1, ADDR_OFF),
		LD_IMM64(R3, lo),
		JLT_REG(R2, R3, 4),
		LD_IMM64(R3, hi),
		JGE_REG(R2, R3, 1),
		MOV64_IMM(R0, 1),
		EXIT(),
	};

	return bpf_load(BPF_PROG_TYPE_PERF_EVENT, insns, ARRAY_LEN(insns));
}

struct addr_seen {
	struct perf_event_attr *attr;
	unsigned long lo, hi;
	int in, out;
};

static int check_addr(struct perf_event_header *h, void *arg)
{
	struct addr_seen *seen = arg;
	struct sample s;

	if (h->type != PERF_RECORD_SAMPLE || sample_parse(h, seen->attr, 1, &s))
		return 0;
	if (s.addr >= seen->lo && s.addr < seen->hi)
		seen->in++;
	else
		seen->out++;
	return 0;
}

/*
 * A page fault sampling event on this task, every fault, disabled (the
 * attr is set up even if it cannot be opened).
 */
static int faults_open(struct perf_event_attr *attr, bool inherit)
{
	sample_attr_init(attr, PERF_COUNT_SW_PAGE_FAULTS, 1,
			 PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR);
	attr->disabled = 1;
	attr->inherit = inherit;
	attr->exclude_kernel = 1;
	return sys_perf_event_open(attr, 0, -1, -1, 0);
}

TEST(filter_samples)
{
	struct perf_event_attr attr;
	struct addr_seen seen = { .attr = &attr };
	char *keep, *drop;
	struct ring ring;
	int fd, prog;
	__u64 count;

	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	keep = map_fresh_pages(NR_KEEP);
	drop = map_fresh_pages(NR_DROP);
	ASSERT_TRUE(keep && drop);
	seen.lo = (unsigned long)keep;
	seen.hi = seen.lo + NR_KEEP * getpagesize();
	prog = load_filter(seen.lo, seen.hi);
	ASSERT_LE(0, prog) TH_LOG("%s", bpf_log);

	fd = faults_open(&attr, false);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&ring, fd, 16));
	ring_prefault(&ring);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(drop, NR_DROP);
	touch_pages(keep, NR_KEEP);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	EXPECT_LE(0, ring_drain(&ring, check_addr, &seen));
	EXPECT_EQ(NR_KEEP, seen.in);
	EXPECT_EQ(0, seen.out);
	/* The event counted every fault, kept or not. */
	ASSERT_EQ(0, read_value(fd, &count));
	EXPECT_LE(NR_KEEP + NR_DROP, count);
	ring_unmap(&ring);
	close(fd);
	close(prog);
}

/* A program returning 0 drops every sample; the count goes on. */
TEST(drop_all)
{
	struct perf_event_attr attr;
	struct ring ring;
	int fd, prog;
	__u64 count;

	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	prog = bpf_load_ret(BPF_PROG_TYPE_PERF_EVENT, 0);
	ASSERT_LE(0, prog) TH_LOG("%s", bpf_log);
	fd = faults_open(&attr, false);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&ring, fd, 4));
	ring_prefault(&ring);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	ASSERT_EQ(0, fault_enabled(fd, TOUCH_PAGES));
	EXPECT_EQ(0, ring_drain(&ring, NULL, NULL));
	ASSERT_EQ(0, read_value(fd, &count));
	EXPECT_LE(TOUCH_PAGES, count);
	ring_unmap(&ring);
	close(fd);
	close(prog);
}

/* A child forked after the attach runs the program on its copy. */
TEST(inherited_copy_filters)
{
	struct perf_event_attr attr;
	struct addr_seen seen = { .attr = &attr };
	char *keep, *drop;
	struct ring ring;
	int fd, prog, status;
	pid_t child;

	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	keep = map_fresh_pages(NR_KEEP);
	drop = map_fresh_pages(NR_DROP);
	ASSERT_TRUE(keep && drop);
	seen.lo = (unsigned long)keep;
	seen.hi = seen.lo + NR_KEEP * getpagesize();
	prog = load_filter(seen.lo, seen.hi);
	ASSERT_LE(0, prog) TH_LOG("%s", bpf_log);
	/* An inherited event maps a buffer only if it is bound to a CPU. */
	ASSERT_EQ(0, pin_to_cpu(0));
	faults_open(&attr, true);
	fd = sys_perf_event_open(&attr, 0, 0, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&ring, fd, 16));
	ring_prefault(&ring);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		touch_pages(drop, NR_DROP);
		touch_pages(keep, NR_KEEP);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_LE(0, ring_drain(&ring, check_addr, &seen));
	EXPECT_EQ(NR_KEEP, seen.in);
	EXPECT_EQ(0, seen.out);
	ring_unmap(&ring);
	close(fd);
	close(prog);
}

/*
 * A program that stores what bpf_get_stack(ctx, buf, 256, @flags)
 * returns, and the first two entries, into slot 0 of @results.
 */
static int load_get_stack(enum bpf_prog_type type, int results, __u64 flags,
			  pid_t pid)
{
	struct bpf_insn insns[] = {
		MOV64_REG(R6, R1),
		BPF_PID_FILTER(pid, 20),
		MOV64_REG(R1, R6),
		MOV64_REG(R2, R10),
		ADD64_IMM(R2, -256),
		MOV64_IMM(R3, 256),
		MOV64_IMM(R4, flags),
		CALL(BPF_FUNC_get_stack),
		MOV64_REG(R7, R0),
		ST_W(R10, -264, 0),
		LD_MAP(R1, results),
		MOV64_REG(R2, R10),
		ADD64_IMM(R2, -264),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(R0, 0, 5),
		STX_DW(R0, R7, 0),
		LDX_DW(R1, R10, -256),
		STX_DW(R0, R1, 8),
		LDX_DW(R1, R10, -248),
		STX_DW(R0, R1, 16),
		MOV64_IMM(R0, 1),
		EXIT(),
	};

	return bpf_load(type, insns, ARRAY_LEN(insns));
}

TEST(get_stack)
{
	struct perf_event_attr attr;
	__s64 res[3] = { 0 };
	__u64 first;
	int results, prog, fd;

	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	results = bpf_map(BPF_MAP_TYPE_ARRAY, 4, sizeof(res), 1);
	ASSERT_LE(0, results);

	/* The user stack of a page fault, from the sample's call chain. */
	prog = load_get_stack(BPF_PROG_TYPE_PERF_EVENT, results,
			      BPF_F_USER_STACK, getpid());
	ASSERT_LE(0, prog) TH_LOG("%s", bpf_log);
	fd = faults_open(&attr, false);
	ASSERT_LE(0, fd);
	attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	close(fd);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	ASSERT_EQ(0, fault_enabled(fd, 4));
	ASSERT_EQ(0, bpf_lookup(results, 0, res));
	EXPECT_LT(0, res[0]);
	EXPECT_EQ(0, res[0] % 8);
	/*
	 * As in 6.1, the user part of the sample's chain is given with the
	 * PERF_CONTEXT_USER marker in front.
	 */
	first = res[1] == (__s64)PERF_CONTEXT_USER ? res[2] : res[1];
	EXPECT_NE(0, first);
	EXPECT_GT(0x800000000000ULL, first);
	close(fd);
	close(prog);

	/*
	 * The kernel stack at a tracepoint (task:task_rename, which
	 * prctl(PR_SET_NAME) fires), from the registers its perf probe
	 * made.
	 */
	memset(res, 0, sizeof(res));
	ASSERT_EQ(0, bpf_update(results, 0, res));
	prog = load_get_stack(BPF_PROG_TYPE_TRACEPOINT, results, 0, getpid());
	ASSERT_LE(0, prog) TH_LOG("%s", bpf_log);
	fd = bpf_tp_open("task", "task_rename");
	if (fd < 0)
		SKIP(return, "no task:task_rename");
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	prctl(PR_SET_NAME, "bpf_get_stack");
	ASSERT_EQ(0, bpf_lookup(results, 0, res));
	EXPECT_LT(0, res[0]);
	EXPECT_EQ(0, res[0] % 8);
	EXPECT_LE(0xffff800000000000ULL, (__u64)res[1]);
	close(fd);
	close(prog);
	close(results);
}

/*
 * A program that stores what bpf_get_stackid(ctx, @stacks, @flags)
 * returns into slot 0 of @results, for process @pid.
 */
static int load_get_stackid(int stacks, int results, __u64 flags, pid_t pid)
{
	struct bpf_insn insns[] = {
		MOV64_REG(R6, R1),
		BPF_PID_FILTER(pid, 14),
		MOV64_REG(R1, R6),
		LD_MAP(R2, stacks),
		MOV64_IMM(R3, flags),
		CALL(BPF_FUNC_get_stackid),
		MOV64_REG(R7, R0),
		ST_W(R10, -8, 0),
		LD_MAP(R1, results),
		MOV64_REG(R2, R10),
		ADD64_IMM(R2, -8),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(R0, 0, 1),
		STX_DW(R0, R7, 0),
		MOV64_IMM(R0, 1),
		EXIT(),
	};

	return bpf_load(BPF_PROG_TYPE_PERF_EVENT, insns, ARRAY_LEN(insns));
}

#define STACK_DEPTH	32

TEST(get_stackid)
{
	__u64 frames[STACK_DEPTH] = { 0 }, first;
	struct perf_event_attr attr;
	int stacks, results, prog, fd;
	__s64 id = -12345;

	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	stacks = bpf_map(BPF_MAP_TYPE_STACK_TRACE, 4, sizeof(frames), 16);
	ASSERT_LE(0, stacks) TH_LOG("%s", strerror(errno));
	results = bpf_map(BPF_MAP_TYPE_ARRAY, 4, sizeof(id), 1);
	ASSERT_LE(0, results);
	ASSERT_EQ(0, bpf_update(results, 0, &id));
	prog = load_get_stackid(stacks, results, BPF_F_USER_STACK, getpid());
	ASSERT_LE(0, prog) TH_LOG("%s", bpf_log);

	/* Page faults, with the call chain the program's stack comes from. */
	fd = faults_open(&attr, false);
	ASSERT_LE(0, fd);
	close(fd);
	attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	ASSERT_EQ(0, fault_enabled(fd, 4));
	ASSERT_EQ(0, bpf_lookup(results, 0, &id));
	ASSERT_LE(0, id);
	ASSERT_GT(16, id);
	/* The stack under that id: user addresses, as with bpf_get_stack(). */
	ASSERT_EQ(0, bpf_lookup(stacks, id, frames));
	first = frames[0] == (__u64)PERF_CONTEXT_USER ? frames[1] : frames[0];
	EXPECT_NE(0, first);
	EXPECT_GT(0x800000000000ULL, first);
	close(fd);
	close(prog);
	close(results);
	close(stacks);
}

#define NMI_PERIOD	100000
#define NMI_LOOPS	2000000	/* HW_LOOP_INSNS each: 80 overflows */
#define NMI_PAYLOAD	0x0123456789abcdefULL

/*
 * A program that writes NMI_PAYLOAD with bpf_perf_event_output() into
 * slot 0 of @array, and returns 0: the sample itself is not written.
 */
static int load_output(int array)
{
	struct bpf_insn insns[] = {
		LD_IMM64(R2, NMI_PAYLOAD),
		STX_DW(R10, R2, -8),
		LD_MAP(R2, array),
		MOV32_IMM(R3, 0),
		MOV64_REG(R4, R10),
		ADD64_IMM(R4, -8),
		MOV64_IMM(R5, 8),
		CALL(BPF_FUNC_perf_event_output),
		MOV64_IMM(R0, 0),
		EXIT(),
	};

	return bpf_load(BPF_PROG_TYPE_PERF_EVENT, insns, ARRAY_LEN(insns));
}

struct nmi_seen {
	int raw, good, other;
};

static int check_nmi_output(struct perf_event_header *h, void *arg)
{
	struct nmi_seen *seen = arg;
	const __u32 *size = (const __u32 *)(h + 1);
	__u64 payload;

	if (h->type != PERF_RECORD_SAMPLE) {
		seen->other++;
		return 0;
	}
	seen->raw++;
	memcpy(&payload, size + 1, sizeof(payload));
	if (*size == 12 && payload == NMI_PAYLOAD)
		seen->good++;
	return 0;
}

TEST(output_from_nmi)
{
	struct perf_event_attr attr;
	struct saved_sysctl rate, percent;
	struct record_counts counts = { 0 };
	struct nmi_seen seen = { 0 };
	int array, prog, out, fd;
	struct ring ring, hw_ring;
	__u64 count;

	HW_SKIP_WITHOUT_PMU();
	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	ASSERT_EQ(0, pin_to_cpu(0));
	/*
	 * Slow samples earlier in the run may have lowered the sample rate
	 * until most of the 80 overflows get throttled: 10000 a second, held
	 * there (the rate can be set only while the limit is on).
	 */
	ASSERT_EQ(0, sysctl_save(&percent, SYSCTL_PATH("perf_cpu_time_max_percent")));
	ASSERT_EQ(0, sysctl_save(&rate, SYSCTL_PATH("perf_event_max_sample_rate")));
	ASSERT_EQ(0, write_int_file(percent.path, 25));
	ASSERT_EQ(0, write_int_file(rate.path, 10000));
	ASSERT_EQ(0, write_int_file(percent.path, 0));
	array = bpf_map(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 1);
	ASSERT_LE(0, array);
	prog = load_output(array);
	ASSERT_LE(0, prog) TH_LOG("%s", bpf_log);

	/* The BPF output event, this task's, into slot 0. */
	sw_attr_init(&attr, PERF_COUNT_SW_BPF_OUTPUT);
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.sample_period = 1;
	out = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, out) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ring_map(&ring, out, 16));
	ring_prefault(&ring);
	ASSERT_EQ(0, bpf_update(array, 0, &out));

	/* User instructions, an overflow every NMI_PERIOD of them. */
	hw_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.sample_period = NMI_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ring_map(&hw_ring, fd, 4));
	ring_prefault(&hw_ring);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	ASSERT_EQ(0, hw_count_loop(fd, NMI_LOOPS, &count));

	/* One record per overflow, none of them in the event's own buffer. */
	EXPECT_LE(0, ring_drain(&ring, check_nmi_output, &seen));
	EXPECT_LE(0, ring_drain(&hw_ring, count_record, &counts));
	EXPECT_EQ(0, counts.type[PERF_RECORD_SAMPLE]);
	/*
	 * Throttled (a THROTTLE record), the event stops counting until a
	 * tick: on a loaded host the guest's ticks come late, and counts
	 * are lost with the overflows.  Whatever it counted, each overflow
	 * wrote one record, but the one that throttled it, and the last,
	 * which may be pending at the disable.
	 */
	EXPECT_LE(10, count / NMI_PERIOD);
	EXPECT_GE(count / NMI_PERIOD, seen.raw);
	EXPECT_LE(count / NMI_PERIOD - 1 - counts.type[PERF_RECORD_THROTTLE],
		  seen.raw);
	EXPECT_EQ(seen.raw, seen.good);
	EXPECT_EQ(0, seen.other);
	ring_unmap(&hw_ring);
	ring_unmap(&ring);
	close(fd);
	close(out);
	close(prog);
	close(array);
	write_int_file(percent.path, 25);
	sysctl_restore(&rate);
	sysctl_restore(&percent);
}

struct bpf_records {
	__u32 id;
	__u8 tag[BPF_TAG_SIZE];
	int n;
	int kinds[4];	/* KSYMBOL, LOAD, KSYMBOL unregister, UNLOAD */
	__u64 addr;
	char name[128];
};

static int check_bpf_record(struct perf_event_header *h, void *arg)
{
	struct bpf_records *r = arg;

	if (h->type == PERF_RECORD_KSYMBOL) {
		struct {
			__u64 addr;
			__u32 len;
			__u16 ksym_type, flags;
			char name[];
		} *k = (void *)(h + 1);
		bool unreg = k->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER;

		if (k->ksym_type != PERF_RECORD_KSYMBOL_TYPE_BPF || !k->len ||
		    !k->addr)
			return 0;
		if (!unreg) {
			r->addr = k->addr;
			snprintf(r->name, sizeof(r->name), "%s", k->name);
		} else if (k->addr != r->addr) {
			return 0;
		}
		if (r->n < 4)
			r->kinds[r->n++] = unreg ? 3 : 1;
	} else if (h->type == PERF_RECORD_BPF_EVENT) {
		struct {
			__u16 type, flags;
			__u32 id;
			__u8 tag[BPF_TAG_SIZE];
		} *b = (void *)(h + 1);

		if (b->id != r->id || memcmp(b->tag, r->tag, BPF_TAG_SIZE) ||
		    b->flags)
			return 0;
		if (r->n < 4)
			r->kinds[r->n++] = b->type == PERF_BPF_EVENT_PROG_LOAD ?
					   2 : b->type == PERF_BPF_EVENT_PROG_UNLOAD ?
					   4 : 0;
	}
	return 0;
}

TEST(load_unload_records)
{
	struct bpf_records r = { 0 };
	struct perf_event_attr attr;
	struct bpf_prog_info info;
	struct ring ring;
	char want[64];
	int fd, prog, i;

	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	sw_attr_init(&attr, PERF_COUNT_SW_DUMMY);
	attr.ksymbol = 1;
	attr.bpf_event = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&ring, fd, 8));

	prog = bpf_load_ret(BPF_PROG_TYPE_TRACEPOINT, 1);
	ASSERT_LE(0, prog) TH_LOG("%s", bpf_log);
	ASSERT_EQ(0, bpf_prog_info(prog, &info));
	r.id = info.id;
	memcpy(r.tag, info.tag, BPF_TAG_SIZE);
	close(prog);

	EXPECT_LE(4, ring_drain(&ring, check_bpf_record, &r));
	ASSERT_EQ(4, r.n);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(i + 1, r.kinds[i]) TH_LOG("record %d", i);
	/* Its kallsyms name: bpf_prog_<tag>_<name>. */
	snprintf(want, sizeof(want), "bpf_prog_%02x%02x%02x%02x%02x%02x%02x%02x_",
		 r.tag[0], r.tag[1], r.tag[2], r.tag[3], r.tag[4], r.tag[5],
		 r.tag[6], r.tag[7]);
	EXPECT_EQ(0, strncmp(want, r.name, strlen(want))) TH_LOG("%s", r.name);
	ring_unmap(&ring);
	close(fd);
}

/* Without attr.bpf_event or attr.ksymbol, no such records. */
TEST(no_records_unasked)
{
	struct record_counts counts = { 0 };
	struct perf_event_attr attr;
	struct ring ring;
	int fd, prog;

	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	sw_attr_init(&attr, PERF_COUNT_SW_DUMMY);
	attr.comm = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&ring, fd, 8));
	prog = bpf_load_ret(BPF_PROG_TYPE_TRACEPOINT, 1);
	ASSERT_LE(0, prog);
	close(prog);
	EXPECT_LE(0, ring_drain(&ring, count_record, &counts));
	EXPECT_EQ(0, counts.type[PERF_RECORD_KSYMBOL]);
	EXPECT_EQ(0, counts.type[PERF_RECORD_BPF_EVENT]);
	ring_unmap(&ring);
	close(fd);
}

TEST_HARNESS_MAIN
