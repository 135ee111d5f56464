/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small BPF programs for the perf_events selftests, without libbpf:
 * bpf(2) wrappers, instruction macros to assemble programs by hand, and
 * loading one with its verifier log kept for the test's messages.
 *
 * Include after "perf_test_util.h".
 */
#ifndef BPF_TEST_UTIL_H
#define BPF_TEST_UTIL_H

#include <sys/mount.h>
#include <linux/bpf.h>

#include "perf_test_util.h"

/* Instructions (the fields of struct bpf_insn, in order). */
#define INSN(c, d, s, o, i)						\
	((struct bpf_insn) { .code = (c), .dst_reg = (d), .src_reg = (s),	\
			     .off = (o), .imm = (i) })
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV32_IMM(d, i)		INSN(BPF_ALU | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define AND64_IMM(d, i)		INSN(BPF_ALU64 | BPF_AND | BPF_K, d, 0, 0, i)
#define RSH64_IMM(d, i)		INSN(BPF_ALU64 | BPF_RSH | BPF_K, d, 0, 0, i)
#define LDX_DW(d, s, o)		INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define STX_DW(d, s, o)		INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define ST_W(d, o, i)		INSN(BPF_ST | BPF_MEM | BPF_W, d, 0, o, i)
#define ST_DW(d, o, i)		INSN(BPF_ST | BPF_MEM | BPF_DW, d, 0, o, i)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define JNE_IMM(d, i, o)	INSN(BPF_JMP | BPF_JNE | BPF_K, d, 0, o, i)
#define JLT_REG(d, s, o)	INSN(BPF_JMP | BPF_JLT | BPF_X, d, s, o, 0)
#define JGE_REG(d, s, o)	INSN(BPF_JMP | BPF_JGE | BPF_X, d, s, o, 0)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* Two instructions: a 64-bit constant, or a map's address (from its fd). */
#define LD_IMM64(d, v)							\
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, 0, 0, (__u32)(__u64)(v)),	\
	INSN(0, 0, 0, 0, (__u64)(v) >> 32)
#define LD_MAP(d, fd)							\
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd),	\
	INSN(0, 0, 0, 0, 0)

#define R0	BPF_REG_0
#define R1	BPF_REG_1
#define R2	BPF_REG_2
#define R3	BPF_REG_3
#define R4	BPF_REG_4
#define R5	BPF_REG_5
#define R6	BPF_REG_6
#define R7	BPF_REG_7
#define R10	BPF_REG_10

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

static inline long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* The verifier's log of the last load that failed. */
static char bpf_log[65536];

/* Load @n instructions as a program of @type; the fd, or -1 with errno. */
static inline int bpf_load(enum bpf_prog_type type,
			   const struct bpf_insn *insns, size_t n)
{
	union bpf_attr attr;
	int fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (__u64)(unsigned long)insns;
	attr.insn_cnt = n;
	attr.license = (__u64)(unsigned long)"GPL";
	strcpy(attr.prog_name, "perf_selftest");
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd >= 0)
		return fd;
	err = errno;
	/* Again with the log, for the test's message. */
	attr.log_buf = (__u64)(unsigned long)bpf_log;
	attr.log_size = sizeof(bpf_log);
	attr.log_level = 1;
	bpf_log[0] = '\0';
	if (sys_bpf(BPF_PROG_LOAD, &attr) >= 0)
		bpf_log[0] = '\0';
	errno = err;
	return -1;
}

/* A program that returns @ret and does nothing else. */
static inline int bpf_load_ret(enum bpf_prog_type type, int ret)
{
	struct bpf_insn insns[] = { MOV64_IMM(R0, ret), EXIT() };

	return bpf_load(type, insns, ARRAY_LEN(insns));
}

/*
 * Instructions that jump to the end of the program unless the current
 * process is @pid (a program on a trace event runs for every task):
 * BPF_PID_FILTER_LEN of them, with the jump landing @tail instructions
 * after them, where the program's exit sequence starts.  Uses R0.
 */
#define BPF_PID_FILTER(pid, tail)					\
	CALL(BPF_FUNC_get_current_pid_tgid),				\
	RSH64_IMM(R0, 32),						\
	JNE_IMM(R0, pid, tail)
#define BPF_PID_FILTER_LEN	3

/* A map; the fd, or -1 with errno. */
static inline int bpf_map(enum bpf_map_type type, __u32 key_size,
			  __u32 value_size, __u32 max_entries)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

static inline int bpf_update(int map, __u32 key, const void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map;
	attr.key = (__u64)(unsigned long)&key;
	attr.value = (__u64)(unsigned long)value;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr);
}

static inline int bpf_lookup(int map, __u32 key, void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map;
	attr.key = (__u64)(unsigned long)&key;
	attr.value = (__u64)(unsigned long)value;
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr);
}

/* A BPF perf link of @prog to the event @event; the fd, or -1. */
static inline int bpf_link(int prog, int event, __u64 cookie)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog;
	attr.link_create.target_fd = event;
	attr.link_create.attach_type = BPF_PERF_EVENT;
	attr.link_create.perf_event.bpf_cookie = cookie;
	return sys_bpf(BPF_LINK_CREATE, &attr);
}

/* A program's id, tag and JITed image size; 0, or -1. */
static inline int bpf_prog_info(int prog, struct bpf_prog_info *info)
{
	union bpf_attr attr;

	memset(info, 0, sizeof(*info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (__u64)(unsigned long)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr);
}

static inline __u32 bpf_prog_id(int prog)
{
	struct bpf_prog_info info;

	return bpf_prog_info(prog, &info) ? 0 : info.id;
}

/* Can we load programs at all?  Not without bpf(2) in the kernel. */
static inline bool bpf_available(void)
{
	int fd = bpf_load_ret(BPF_PROG_TYPE_TRACEPOINT, 0);

	if (fd < 0 && errno == ENOSYS)
		return false;
	if (fd >= 0)
		close(fd);
	return true;
}

/*
 * A counting event on this task of trace event @sys:@name (tracefs is
 * mounted on demand); the fd, or -1.
 */
static inline int bpf_tp_open(const char *sys, const char *name)
{
	struct perf_event_attr attr;
	char path[256];
	int id;

	if (access("/sys/kernel/tracing/events", F_OK))
		mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/%s/id",
		 sys, name);
	if (read_int_file(path, &id))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

#endif /* BPF_TEST_UTIL_H */
