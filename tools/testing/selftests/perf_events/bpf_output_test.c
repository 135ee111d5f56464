// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs writing into and reading from events of a perf-event
 * array (BPF_MAP_TYPE_PERF_EVENT_ARRAY), as Linux 6.1 does it.  The
 * programs run on syscalls:sys_enter_getpid for this process only, on
 * CPU 0, where the test pins itself, and leave the helper's return value
 * (and what it read) in an array map:
 *
 *  - bpf_perf_event_output() writes a PERF_RECORD_SAMPLE whose
 *    PERF_SAMPLE_RAW field is the program's data, padded to 8 bytes, into
 *    the buffer of a PERF_COUNT_SW_BPF_OUTPUT event; ENOENT for an empty
 *    slot, E2BIG for an index past the array, EINVAL for an event of
 *    another kind, EOPNOTSUPP for an event of another CPU, ENOSPC for
 *    an event without a buffer;
 *  - bpf_perf_event_read() and _read_value() read this task's events
 *    and this CPU's: the count, and the times; EINVAL for another task's
 *    event or another CPU's, ENOENT for an empty slot, E2BIG past the
 *    array; an inherited event cannot go into the array (EOPNOTSUPP).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/ioctl.h>

#include "perf_test_util.h"
#include "perf_sample_util.h"
#include "bpf_test_util.h"
#include "../kselftest_harness.h"

#define PAYLOAD		0x1122334455667788ULL
#define CURRENT_CPU	-1	/* BPF_F_CURRENT_CPU as a 32-bit immediate */

/* What the programs leave: the helper's return value, and what it read. */
struct result {
	__s64 ret;
	__u64 counter, enabled, running;
};

/*
 * A program that calls bpf_perf_event_output(ctx, @array, @index, &PAYLOAD,
 * 8), or with @read bpf_perf_event_read_value(@array, @index, &buf, 24)
 * (@read == 2: bpf_perf_event_read(@array, @index)), and stores the
 * result into slot 0 of @results.
 */
static int load_prog(int array, int results, int index, int read)
{
	struct bpf_insn insns[64];
	size_t n, filter;

	struct bpf_insn head[] = {
		MOV64_REG(R6, R1),
		BPF_PID_FILTER(getpid(), 0),
		/* The stack: payload or buffer at -24..-1, map key at -32. */
		ST_DW(R10, -24, 0),
		ST_DW(R10, -16, 0),
		ST_DW(R10, -8, 0),
	};

	memcpy(insns, head, sizeof(head));
	filter = 1;
	n = ARRAY_LEN(head);
	if (read == 0) {
		struct bpf_insn out[] = {
			LD_IMM64(R1, PAYLOAD),
			STX_DW(R10, R1, -8),
			MOV64_REG(R1, R6),
			LD_MAP(R2, array),
			MOV32_IMM(R3, index),
			MOV64_REG(R4, R10),
			ADD64_IMM(R4, -8),
			MOV64_IMM(R5, 8),
			CALL(BPF_FUNC_perf_event_output),
		};

		memcpy(&insns[n], out, sizeof(out));
		n += ARRAY_LEN(out);
	} else if (read == 1) {
		struct bpf_insn rd[] = {
			LD_MAP(R1, array),
			MOV32_IMM(R2, index),
			MOV64_REG(R3, R10),
			ADD64_IMM(R3, -24),
			MOV64_IMM(R4, 24),
			CALL(BPF_FUNC_perf_event_read_value),
		};

		memcpy(&insns[n], rd, sizeof(rd));
		n += ARRAY_LEN(rd);
	} else {
		struct bpf_insn rd[] = {
			LD_MAP(R1, array),
			MOV32_IMM(R2, index),
			CALL(BPF_FUNC_perf_event_read),
		};

		memcpy(&insns[n], rd, sizeof(rd));
		n += ARRAY_LEN(rd);
	}
	{
		struct bpf_insn store[] = {
			MOV64_REG(R7, R0),
			ST_W(R10, -32, 0),
			LD_MAP(R1, results),
			MOV64_REG(R2, R10),
			ADD64_IMM(R2, -32),
			CALL(BPF_FUNC_map_lookup_elem),
			JEQ_IMM(R0, 0, 8),
			STX_DW(R0, R7, 0),
			LDX_DW(R1, R10, read == 0 ? -8 : -24),
			STX_DW(R0, R1, 8),
			LDX_DW(R1, R10, -16),
			STX_DW(R0, R1, 16),
			LDX_DW(R1, R10, -8),
			STX_DW(R0, R1, 24),
			MOV64_IMM(R0, 0),
		};

		memcpy(&insns[n], store, sizeof(store));
		n += ARRAY_LEN(store);
	}
	/* The pid filter's jump lands on the exit. */
	insns[filter + BPF_PID_FILTER_LEN - 1].off = n - filter -
						    BPF_PID_FILTER_LEN;
	insns[n++] = EXIT();
	return bpf_load(BPF_PROG_TYPE_TRACEPOINT, insns, n);
}

FIXTURE(out) {
	int array, results, tp, cpus;
};

FIXTURE_SETUP(out)
{
	self->array = -1;
	self->results = -1;
	self->tp = -1;
	if (!bpf_available())
		SKIP(return, "no bpf(2)");
	self->tp = bpf_tp_open("syscalls", "sys_enter_getpid");
	if (self->tp < 0)
		SKIP(return, "no syscalls:sys_enter_getpid");
	ASSERT_EQ(0, pin_to_cpu(0));
	self->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	self->array = bpf_map(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 2);
	ASSERT_LE(0, self->array) TH_LOG("%s", strerror(errno));
	self->results = bpf_map(BPF_MAP_TYPE_ARRAY, 4, sizeof(struct result),
				1);
	ASSERT_LE(0, self->results);
}

FIXTURE_TEARDOWN(out)
{
	close(self->tp);
	close(self->results);
	close(self->array);
}

/* Attach the program, make one getpid() call, and return its result. */
static struct result run(struct __test_metadata *_metadata,
			 FIXTURE_DATA(out) *self, int index, int read)
{
	struct result r = { .ret = 12345 };
	int prog;

	/*
	 * A fresh event each time: one program per event.  The last one
	 * goes first, or loading the next (which asks for our pid) runs it.
	 */
	close(self->tp);
	prog = load_prog(self->array, self->results, index, read);
	self->tp = bpf_tp_open("syscalls", "sys_enter_getpid");
	EXPECT_LE(0, prog) TH_LOG("%s", bpf_log);
	if (prog < 0)
		return r;
	bpf_update(self->results, 0, &r);
	EXPECT_EQ(0, ioctl(self->tp, PERF_EVENT_IOC_SET_BPF, prog));
	syscall(SYS_getpid);
	EXPECT_EQ(0, bpf_lookup(self->results, 0, &r));
	close(prog);
	return r;
}

/* A BPF output event of @cpu (-1: this task's), sampling raw data. */
static int output_open(pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	sw_attr_init(&attr, PERF_COUNT_SW_BPF_OUTPUT);
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

struct raw_seen {
	int samples, good;
};

static int check_raw(struct perf_event_header *h, void *arg)
{
	struct raw_seen *seen = arg;
	const __u32 *size = (const __u32 *)(h + 1);
	__u64 payload, pad = 0;

	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	seen->samples++;
	/* u32 size, 8 bytes of data, 4 of padding: 16 bytes in all. */
	memcpy(&payload, size + 1, sizeof(payload));
	memcpy(&pad, size + 3, sizeof(__u32));
	if (h->size == sizeof(*h) + 16 && *size == 12 && payload == PAYLOAD &&
	    !pad)
		seen->good++;
	return 0;
}

TEST_F(out, output_records)
{
	struct raw_seen seen = { 0 };
	struct result r;
	struct ring ring;
	int fd, i;

	fd = output_open(-1, 0);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ring_map(&ring, fd, 4));
	ASSERT_EQ(0, bpf_update(self->array, 0, &fd));
	for (i = 0; i < 3; i++) {
		r = run(_metadata, self, CURRENT_CPU, 0);
		EXPECT_EQ(0, r.ret);
	}
	EXPECT_EQ(3, ring_drain(&ring, check_raw, &seen));
	EXPECT_EQ(3, seen.samples);
	EXPECT_EQ(3, seen.good);
	/* Explicitly at index 0, and from this task's own output event. */
	r = run(_metadata, self, 0, 0);
	EXPECT_EQ(0, r.ret);
	EXPECT_EQ(1, ring_drain(&ring, NULL, NULL));
	ring_unmap(&ring);
	close(fd);

	fd = output_open(0, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&ring, fd, 4));
	ASSERT_EQ(0, bpf_update(self->array, 0, &fd));
	r = run(_metadata, self, 0, 0);
	EXPECT_EQ(0, r.ret);
	memset(&seen, 0, sizeof(seen));
	EXPECT_EQ(1, ring_drain(&ring, check_raw, &seen));
	EXPECT_EQ(1, seen.good);
	ring_unmap(&ring);
	close(fd);
}

TEST_F(out, output_errors)
{
	struct result r;
	int fd, other;

	/* Empty slot; past the array's end. */
	r = run(_metadata, self, CURRENT_CPU, 0);
	EXPECT_EQ(-ENOENT, r.ret);
	r = run(_metadata, self, 5, 0);
	EXPECT_EQ(-E2BIG, r.ret);

	/* Not a BPF output event. */
	other = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, -1, 0);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, bpf_update(self->array, 0, &other));
	r = run(_metadata, self, 0, 0);
	EXPECT_EQ(-EINVAL, r.ret);
	close(other);

	/* No buffer to write to. */
	fd = output_open(-1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bpf_update(self->array, 0, &fd));
	r = run(_metadata, self, 0, 0);
	EXPECT_EQ(-ENOSPC, r.ret);
	close(fd);

	/* Another CPU's event. */
	if (self->cpus < 2)
		SKIP(return, "one CPU");
	fd = output_open(-1, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bpf_update(self->array, 0, &fd));
	r = run(_metadata, self, 0, 0);
	EXPECT_EQ(-EOPNOTSUPP, r.ret);
	close(fd);
}

TEST_F(out, read_counters)
{
	struct value_times vt;
	struct result r;
	int fd;

	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, RF_TIMES,
			   false, 0, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bpf_update(self->array, 0, &fd));
	ASSERT_EQ(0, fault_fresh_pages(TOUCH_PAGES));
	r = run(_metadata, self, CURRENT_CPU, 1);
	ASSERT_EQ(0, read_value_times(fd, &vt));
	EXPECT_EQ(0, r.ret);
	EXPECT_LE(TOUCH_PAGES, r.counter);
	EXPECT_GE(vt.value, r.counter);
	EXPECT_LT(0, r.running);
	EXPECT_LE(r.running, r.enabled);
	EXPECT_GE(vt.enabled, r.enabled);

	/* bpf_perf_event_read(): the count itself. */
	r = run(_metadata, self, 0, 2);
	EXPECT_LE(TOUCH_PAGES, r.ret);
	ASSERT_EQ(0, read(fd, &vt, sizeof(vt)) == sizeof(vt) ? 0 : -1);
	EXPECT_GE(vt.value, r.ret);
	close(fd);

	/* This CPU's event reads too. */
	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bpf_update(self->array, 0, &fd));
	r = run(_metadata, self, 0, 1);
	EXPECT_EQ(0, r.ret);
	close(fd);
}

TEST_F(out, read_errors)
{
	struct perf_event_attr attr;
	struct result r;
	pid_t child;
	int fd;

	r = run(_metadata, self, 0, 1);
	EXPECT_EQ(-ENOENT, r.ret);
	EXPECT_EQ(0, r.counter);
	r = run(_metadata, self, 7, 1);
	EXPECT_EQ(-E2BIG, r.ret);
	r = run(_metadata, self, 7, 2);
	EXPECT_EQ(-E2BIG, r.ret);

	/* An inherited event is refused by the array itself. */
	sw_attr_init(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, bpf_update(self->array, 0, &fd));
	EXPECT_EQ(EOPNOTSUPP, errno);
	close(fd);

	/* Another task's event. */
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		pause();
		_exit(0);
	}
	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, child, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bpf_update(self->array, 0, &fd));
	r = run(_metadata, self, 0, 1);
	EXPECT_EQ(-EINVAL, r.ret);
	EXPECT_EQ(0, r.counter);
	close(fd);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);

	/* Another CPU's event. */
	if (self->cpus < 2)
		SKIP(return, "one CPU");
	fd = sw_event_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false, -1, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bpf_update(self->array, 0, &fd));
	r = run(_metadata, self, 0, 1);
	EXPECT_EQ(-EINVAL, r.ret);
	r = run(_metadata, self, 0, 2);
	EXPECT_EQ(-EINVAL, r.ret);
	close(fd);
}

TEST_HARNESS_MAIN
