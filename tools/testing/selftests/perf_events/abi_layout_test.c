// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that <linux/perf_event.h> gives the Linux 6.1 perf_event ABI.
 *
 * At compile time every enumerator, #define, ioctl number, struct size
 * and field offset is compared with the literal number 6.1 uses, so a
 * wrong header does not build.  Bitfields have no offsetof(), so the
 * run-time tests set each one in a zeroed struct and check which bits
 * of the containing u64 changed.  The last test asks the running kernel
 * to fill in a perf_event_mmap_page and a read() buffer and checks them
 * through the header; it is skipped where perf_event_open() is refused.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <linux/perf_event.h>

/*
 * The 6.1 harness and its TEST() wrappers have unused parameters;
 * keep -Wextra builds quiet about code that is not ours.
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "../kselftest_harness.h"

#define ABI_VAL(expr, val) \
	static_assert((expr) == (val), #expr " != " #val)

/* Field at byte offset off, with exactly type ftype. */
#define ABI_FIELD(s, field, off, ftype) \
	static_assert(offsetof(s, field) == (off) && \
		      __builtin_types_compatible_p(__typeof__(((s *)0)->field), \
						   ftype), \
		      #s "." #field " is not " #ftype " at " #off)

/* perf_event_attr: size, alignment, every field */
#define ATTR struct perf_event_attr
ABI_VAL(sizeof(ATTR), 128);
ABI_VAL(alignof(ATTR), 8);
ABI_FIELD(ATTR, type, 0, __u32);
ABI_FIELD(ATTR, size, 4, __u32);
ABI_FIELD(ATTR, config, 8, __u64);
ABI_FIELD(ATTR, sample_period, 16, __u64);
ABI_FIELD(ATTR, sample_freq, 16, __u64);
ABI_FIELD(ATTR, sample_type, 24, __u64);
ABI_FIELD(ATTR, read_format, 32, __u64);
/* the flag bitfields fill the u64 at 40..47 */
ABI_FIELD(ATTR, wakeup_events, 48, __u32);
ABI_FIELD(ATTR, wakeup_watermark, 48, __u32);
ABI_FIELD(ATTR, bp_type, 52, __u32);
ABI_FIELD(ATTR, bp_addr, 56, __u64);
ABI_FIELD(ATTR, kprobe_func, 56, __u64);
ABI_FIELD(ATTR, uprobe_path, 56, __u64);
ABI_FIELD(ATTR, config1, 56, __u64);
ABI_FIELD(ATTR, bp_len, 64, __u64);
ABI_FIELD(ATTR, kprobe_addr, 64, __u64);
ABI_FIELD(ATTR, probe_offset, 64, __u64);
ABI_FIELD(ATTR, config2, 64, __u64);
ABI_FIELD(ATTR, branch_sample_type, 72, __u64);
ABI_FIELD(ATTR, sample_regs_user, 80, __u64);
ABI_FIELD(ATTR, sample_stack_user, 88, __u32);
ABI_FIELD(ATTR, clockid, 92, __s32);
ABI_FIELD(ATTR, sample_regs_intr, 96, __u64);
ABI_FIELD(ATTR, aux_watermark, 104, __u32);
ABI_FIELD(ATTR, sample_max_stack, 108, __u16);
ABI_FIELD(ATTR, __reserved_2, 110, __u16);
ABI_FIELD(ATTR, aux_sample_size, 112, __u32);
ABI_FIELD(ATTR, __reserved_3, 116, __u32);
ABI_FIELD(ATTR, sig_data, 120, __u64);

/* each PERF_ATTR_SIZE_VERn ends where the next version's fields start */
ABI_VAL(PERF_ATTR_SIZE_VER0, 64);
ABI_VAL(PERF_ATTR_SIZE_VER0, offsetof(ATTR, config2));
ABI_VAL(PERF_ATTR_SIZE_VER1, 72);
ABI_VAL(PERF_ATTR_SIZE_VER1, offsetof(ATTR, branch_sample_type));
ABI_VAL(PERF_ATTR_SIZE_VER2, 80);
ABI_VAL(PERF_ATTR_SIZE_VER2, offsetof(ATTR, sample_regs_user));
ABI_VAL(PERF_ATTR_SIZE_VER3, 96);
ABI_VAL(PERF_ATTR_SIZE_VER3, offsetof(ATTR, sample_regs_intr));
ABI_VAL(PERF_ATTR_SIZE_VER4, 104);
ABI_VAL(PERF_ATTR_SIZE_VER4, offsetof(ATTR, aux_watermark));
ABI_VAL(PERF_ATTR_SIZE_VER5, 112);
ABI_VAL(PERF_ATTR_SIZE_VER5, offsetof(ATTR, aux_sample_size));
ABI_VAL(PERF_ATTR_SIZE_VER6, 120);
ABI_VAL(PERF_ATTR_SIZE_VER6, offsetof(ATTR, sig_data));
ABI_VAL(PERF_ATTR_SIZE_VER7, 128);
ABI_VAL(PERF_ATTR_SIZE_VER7, sizeof(ATTR));
#undef ATTR

/* perf_event_mmap_page */
#define PAGE struct perf_event_mmap_page
ABI_VAL(sizeof(PAGE), 1088);
ABI_FIELD(PAGE, version, 0, __u32);
ABI_FIELD(PAGE, compat_version, 4, __u32);
ABI_FIELD(PAGE, lock, 8, __u32);
ABI_FIELD(PAGE, index, 12, __u32);
ABI_FIELD(PAGE, offset, 16, __s64);
ABI_FIELD(PAGE, time_enabled, 24, __u64);
ABI_FIELD(PAGE, time_running, 32, __u64);
ABI_FIELD(PAGE, capabilities, 40, __u64);
ABI_FIELD(PAGE, pmc_width, 48, __u16);
ABI_FIELD(PAGE, time_shift, 50, __u16);
ABI_FIELD(PAGE, time_mult, 52, __u32);
ABI_FIELD(PAGE, time_offset, 56, __u64);
ABI_FIELD(PAGE, time_zero, 64, __u64);
ABI_FIELD(PAGE, size, 72, __u32);
ABI_FIELD(PAGE, __reserved_1, 76, __u32);
ABI_FIELD(PAGE, time_cycles, 80, __u64);
ABI_FIELD(PAGE, time_mask, 88, __u64);
ABI_FIELD(PAGE, __reserved, 96, __u8[928]);
ABI_FIELD(PAGE, data_head, 1024, __u64);
ABI_FIELD(PAGE, data_tail, 1032, __u64);
ABI_FIELD(PAGE, data_offset, 1040, __u64);
ABI_FIELD(PAGE, data_size, 1048, __u64);
ABI_FIELD(PAGE, aux_head, 1056, __u64);
ABI_FIELD(PAGE, aux_tail, 1064, __u64);
ABI_FIELD(PAGE, aux_offset, 1072, __u64);
ABI_FIELD(PAGE, aux_size, 1080, __u64);
#undef PAGE

/* the smaller structs and unions */
ABI_VAL(sizeof(struct perf_event_header), 8);
ABI_FIELD(struct perf_event_header, type, 0, __u32);
ABI_FIELD(struct perf_event_header, misc, 4, __u16);
ABI_FIELD(struct perf_event_header, size, 6, __u16);

ABI_VAL(sizeof(struct perf_event_query_bpf), 8);
ABI_FIELD(struct perf_event_query_bpf, ids_len, 0, __u32);
ABI_FIELD(struct perf_event_query_bpf, prog_cnt, 4, __u32);
ABI_FIELD(struct perf_event_query_bpf, ids, 8, __u32[]);

ABI_VAL(sizeof(struct perf_ns_link_info), 16);
ABI_FIELD(struct perf_ns_link_info, dev, 0, __u64);
ABI_FIELD(struct perf_ns_link_info, ino, 8, __u64);

ABI_VAL(sizeof(struct perf_branch_entry), 24);
ABI_FIELD(struct perf_branch_entry, from, 0, __u64);
ABI_FIELD(struct perf_branch_entry, to, 8, __u64);

ABI_VAL(sizeof(union perf_mem_data_src), 8);
ABI_FIELD(union perf_mem_data_src, val, 0, __u64);

ABI_VAL(sizeof(union perf_sample_weight), 8);
ABI_FIELD(union perf_sample_weight, full, 0, __u64);
#if defined(__LITTLE_ENDIAN_BITFIELD)
ABI_FIELD(union perf_sample_weight, var1_dw, 0, __u32);
ABI_FIELD(union perf_sample_weight, var2_w, 4, __u16);
ABI_FIELD(union perf_sample_weight, var3_w, 6, __u16);
#else
ABI_FIELD(union perf_sample_weight, var3_w, 0, __u16);
ABI_FIELD(union perf_sample_weight, var2_w, 2, __u16);
ABI_FIELD(union perf_sample_weight, var1_dw, 4, __u32);
#endif

/*
 * ioctl requests: dir << 30 | size << 16 | '$' (0x24) << 8 | nr, where
 * dir is 1 for _IOW, 2 for _IOR, 3 for _IOWR, and a pointer or a u64 is
 * 8 bytes on x86-64.
 */
ABI_VAL(PERF_EVENT_IOC_ENABLE, 0x2400);			/* _IO 0 */
ABI_VAL(PERF_EVENT_IOC_DISABLE, 0x2401);		/* _IO 1 */
ABI_VAL(PERF_EVENT_IOC_REFRESH, 0x2402);		/* _IO 2 */
ABI_VAL(PERF_EVENT_IOC_RESET, 0x2403);			/* _IO 3 */
ABI_VAL(PERF_EVENT_IOC_PERIOD, 0x40082404);		/* _IOW 4, __u64 */
ABI_VAL(PERF_EVENT_IOC_SET_OUTPUT, 0x2405);		/* _IO 5 */
ABI_VAL(PERF_EVENT_IOC_SET_FILTER, 0x40082406);		/* _IOW 6, char * */
ABI_VAL(PERF_EVENT_IOC_ID, 0x80082407);			/* _IOR 7, __u64 * */
ABI_VAL(PERF_EVENT_IOC_SET_BPF, 0x40042408);		/* _IOW 8, __u32 */
ABI_VAL(PERF_EVENT_IOC_PAUSE_OUTPUT, 0x40042409);	/* _IOW 9, __u32 */
ABI_VAL(PERF_EVENT_IOC_QUERY_BPF, 0xc008240a);		/* _IOWR 10, ptr */
ABI_VAL(PERF_EVENT_IOC_MODIFY_ATTRIBUTES, 0x4008240b);	/* _IOW 11, ptr */
ABI_VAL(PERF_IOC_FLAG_GROUP, 0x1);

/* perf_event_open() flags; they are unsigned long */
ABI_VAL(PERF_FLAG_FD_NO_GROUP, 0x1);
ABI_VAL(PERF_FLAG_FD_OUTPUT, 0x2);
ABI_VAL(PERF_FLAG_PID_CGROUP, 0x4);
ABI_VAL(PERF_FLAG_FD_CLOEXEC, 0x8);
ABI_VAL(sizeof(PERF_FLAG_FD_CLOEXEC), sizeof(unsigned long));

/* attr.type and attr.config */
ABI_VAL(PERF_TYPE_HARDWARE, 0);
ABI_VAL(PERF_TYPE_SOFTWARE, 1);
ABI_VAL(PERF_TYPE_TRACEPOINT, 2);
ABI_VAL(PERF_TYPE_HW_CACHE, 3);
ABI_VAL(PERF_TYPE_RAW, 4);
ABI_VAL(PERF_TYPE_BREAKPOINT, 5);
ABI_VAL(PERF_TYPE_MAX, 6);
ABI_VAL(PERF_PMU_TYPE_SHIFT, 32);
ABI_VAL(PERF_HW_EVENT_MASK, 0xffffffff);

ABI_VAL(PERF_COUNT_HW_CPU_CYCLES, 0);
ABI_VAL(PERF_COUNT_HW_INSTRUCTIONS, 1);
ABI_VAL(PERF_COUNT_HW_CACHE_REFERENCES, 2);
ABI_VAL(PERF_COUNT_HW_CACHE_MISSES, 3);
ABI_VAL(PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 4);
ABI_VAL(PERF_COUNT_HW_BRANCH_MISSES, 5);
ABI_VAL(PERF_COUNT_HW_BUS_CYCLES, 6);
ABI_VAL(PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 7);
ABI_VAL(PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 8);
ABI_VAL(PERF_COUNT_HW_REF_CPU_CYCLES, 9);
ABI_VAL(PERF_COUNT_HW_MAX, 10);

ABI_VAL(PERF_COUNT_HW_CACHE_L1D, 0);
ABI_VAL(PERF_COUNT_HW_CACHE_L1I, 1);
ABI_VAL(PERF_COUNT_HW_CACHE_LL, 2);
ABI_VAL(PERF_COUNT_HW_CACHE_DTLB, 3);
ABI_VAL(PERF_COUNT_HW_CACHE_ITLB, 4);
ABI_VAL(PERF_COUNT_HW_CACHE_BPU, 5);
ABI_VAL(PERF_COUNT_HW_CACHE_NODE, 6);
ABI_VAL(PERF_COUNT_HW_CACHE_MAX, 7);
ABI_VAL(PERF_COUNT_HW_CACHE_OP_READ, 0);
ABI_VAL(PERF_COUNT_HW_CACHE_OP_WRITE, 1);
ABI_VAL(PERF_COUNT_HW_CACHE_OP_PREFETCH, 2);
ABI_VAL(PERF_COUNT_HW_CACHE_OP_MAX, 3);
ABI_VAL(PERF_COUNT_HW_CACHE_RESULT_ACCESS, 0);
ABI_VAL(PERF_COUNT_HW_CACHE_RESULT_MISS, 1);
ABI_VAL(PERF_COUNT_HW_CACHE_RESULT_MAX, 2);

ABI_VAL(PERF_COUNT_SW_CPU_CLOCK, 0);
ABI_VAL(PERF_COUNT_SW_TASK_CLOCK, 1);
ABI_VAL(PERF_COUNT_SW_PAGE_FAULTS, 2);
ABI_VAL(PERF_COUNT_SW_CONTEXT_SWITCHES, 3);
ABI_VAL(PERF_COUNT_SW_CPU_MIGRATIONS, 4);
ABI_VAL(PERF_COUNT_SW_PAGE_FAULTS_MIN, 5);
ABI_VAL(PERF_COUNT_SW_PAGE_FAULTS_MAJ, 6);
ABI_VAL(PERF_COUNT_SW_ALIGNMENT_FAULTS, 7);
ABI_VAL(PERF_COUNT_SW_EMULATION_FAULTS, 8);
ABI_VAL(PERF_COUNT_SW_DUMMY, 9);
ABI_VAL(PERF_COUNT_SW_BPF_OUTPUT, 10);
ABI_VAL(PERF_COUNT_SW_CGROUP_SWITCHES, 11);
ABI_VAL(PERF_COUNT_SW_MAX, 12);

/* attr.sample_type */
ABI_VAL(PERF_SAMPLE_IP, 0x1);
ABI_VAL(PERF_SAMPLE_TID, 0x2);
ABI_VAL(PERF_SAMPLE_TIME, 0x4);
ABI_VAL(PERF_SAMPLE_ADDR, 0x8);
ABI_VAL(PERF_SAMPLE_READ, 0x10);
ABI_VAL(PERF_SAMPLE_CALLCHAIN, 0x20);
ABI_VAL(PERF_SAMPLE_ID, 0x40);
ABI_VAL(PERF_SAMPLE_CPU, 0x80);
ABI_VAL(PERF_SAMPLE_PERIOD, 0x100);
ABI_VAL(PERF_SAMPLE_STREAM_ID, 0x200);
ABI_VAL(PERF_SAMPLE_RAW, 0x400);
ABI_VAL(PERF_SAMPLE_BRANCH_STACK, 0x800);
ABI_VAL(PERF_SAMPLE_REGS_USER, 0x1000);
ABI_VAL(PERF_SAMPLE_STACK_USER, 0x2000);
ABI_VAL(PERF_SAMPLE_WEIGHT, 0x4000);
ABI_VAL(PERF_SAMPLE_DATA_SRC, 0x8000);
ABI_VAL(PERF_SAMPLE_IDENTIFIER, 0x10000);
ABI_VAL(PERF_SAMPLE_TRANSACTION, 0x20000);
ABI_VAL(PERF_SAMPLE_REGS_INTR, 0x40000);
ABI_VAL(PERF_SAMPLE_PHYS_ADDR, 0x80000);
ABI_VAL(PERF_SAMPLE_AUX, 0x100000);
ABI_VAL(PERF_SAMPLE_CGROUP, 0x200000);
ABI_VAL(PERF_SAMPLE_DATA_PAGE_SIZE, 0x400000);
ABI_VAL(PERF_SAMPLE_CODE_PAGE_SIZE, 0x800000);
ABI_VAL(PERF_SAMPLE_WEIGHT_STRUCT, 0x1000000);
ABI_VAL(PERF_SAMPLE_MAX, 0x2000000);
ABI_VAL(PERF_SAMPLE_WEIGHT_TYPE, 0x1004000);

/* attr.branch_sample_type */
ABI_VAL(PERF_SAMPLE_BRANCH_USER_SHIFT, 0);
ABI_VAL(PERF_SAMPLE_BRANCH_KERNEL_SHIFT, 1);
ABI_VAL(PERF_SAMPLE_BRANCH_HV_SHIFT, 2);
ABI_VAL(PERF_SAMPLE_BRANCH_ANY_SHIFT, 3);
ABI_VAL(PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT, 4);
ABI_VAL(PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT, 5);
ABI_VAL(PERF_SAMPLE_BRANCH_IND_CALL_SHIFT, 6);
ABI_VAL(PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT, 7);
ABI_VAL(PERF_SAMPLE_BRANCH_IN_TX_SHIFT, 8);
ABI_VAL(PERF_SAMPLE_BRANCH_NO_TX_SHIFT, 9);
ABI_VAL(PERF_SAMPLE_BRANCH_COND_SHIFT, 10);
ABI_VAL(PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT, 11);
ABI_VAL(PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT, 12);
ABI_VAL(PERF_SAMPLE_BRANCH_CALL_SHIFT, 13);
ABI_VAL(PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT, 14);
ABI_VAL(PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT, 15);
ABI_VAL(PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT, 16);
ABI_VAL(PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT, 17);
ABI_VAL(PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT, 18);
ABI_VAL(PERF_SAMPLE_BRANCH_MAX_SHIFT, 19);

ABI_VAL(PERF_SAMPLE_BRANCH_USER, 0x1);
ABI_VAL(PERF_SAMPLE_BRANCH_KERNEL, 0x2);
ABI_VAL(PERF_SAMPLE_BRANCH_HV, 0x4);
ABI_VAL(PERF_SAMPLE_BRANCH_ANY, 0x8);
ABI_VAL(PERF_SAMPLE_BRANCH_ANY_CALL, 0x10);
ABI_VAL(PERF_SAMPLE_BRANCH_ANY_RETURN, 0x20);
ABI_VAL(PERF_SAMPLE_BRANCH_IND_CALL, 0x40);
ABI_VAL(PERF_SAMPLE_BRANCH_ABORT_TX, 0x80);
ABI_VAL(PERF_SAMPLE_BRANCH_IN_TX, 0x100);
ABI_VAL(PERF_SAMPLE_BRANCH_NO_TX, 0x200);
ABI_VAL(PERF_SAMPLE_BRANCH_COND, 0x400);
ABI_VAL(PERF_SAMPLE_BRANCH_CALL_STACK, 0x800);
ABI_VAL(PERF_SAMPLE_BRANCH_IND_JUMP, 0x1000);
ABI_VAL(PERF_SAMPLE_BRANCH_CALL, 0x2000);
ABI_VAL(PERF_SAMPLE_BRANCH_NO_FLAGS, 0x4000);
ABI_VAL(PERF_SAMPLE_BRANCH_NO_CYCLES, 0x8000);
ABI_VAL(PERF_SAMPLE_BRANCH_TYPE_SAVE, 0x10000);
ABI_VAL(PERF_SAMPLE_BRANCH_HW_INDEX, 0x20000);
ABI_VAL(PERF_SAMPLE_BRANCH_PRIV_SAVE, 0x40000);
ABI_VAL(PERF_SAMPLE_BRANCH_MAX, 0x80000);
ABI_VAL(PERF_SAMPLE_BRANCH_PLM_ALL, 0x7);

/* perf_branch_entry type, spec, new_type and priv values */
ABI_VAL(PERF_BR_UNKNOWN, 0);
ABI_VAL(PERF_BR_COND, 1);
ABI_VAL(PERF_BR_UNCOND, 2);
ABI_VAL(PERF_BR_IND, 3);
ABI_VAL(PERF_BR_CALL, 4);
ABI_VAL(PERF_BR_IND_CALL, 5);
ABI_VAL(PERF_BR_RET, 6);
ABI_VAL(PERF_BR_SYSCALL, 7);
ABI_VAL(PERF_BR_SYSRET, 8);
ABI_VAL(PERF_BR_COND_CALL, 9);
ABI_VAL(PERF_BR_COND_RET, 10);
ABI_VAL(PERF_BR_ERET, 11);
ABI_VAL(PERF_BR_IRQ, 12);
ABI_VAL(PERF_BR_SERROR, 13);
ABI_VAL(PERF_BR_NO_TX, 14);
ABI_VAL(PERF_BR_EXTEND_ABI, 15);
ABI_VAL(PERF_BR_MAX, 16);
ABI_VAL(PERF_BR_SPEC_NA, 0);
ABI_VAL(PERF_BR_SPEC_WRONG_PATH, 1);
ABI_VAL(PERF_BR_NON_SPEC_CORRECT_PATH, 2);
ABI_VAL(PERF_BR_SPEC_CORRECT_PATH, 3);
ABI_VAL(PERF_BR_SPEC_MAX, 4);
ABI_VAL(PERF_BR_NEW_FAULT_ALGN, 0);
ABI_VAL(PERF_BR_NEW_FAULT_DATA, 1);
ABI_VAL(PERF_BR_NEW_FAULT_INST, 2);
ABI_VAL(PERF_BR_NEW_ARCH_1, 3);
ABI_VAL(PERF_BR_NEW_ARCH_2, 4);
ABI_VAL(PERF_BR_NEW_ARCH_3, 5);
ABI_VAL(PERF_BR_NEW_ARCH_4, 6);
ABI_VAL(PERF_BR_NEW_ARCH_5, 7);
ABI_VAL(PERF_BR_NEW_MAX, 8);
ABI_VAL(PERF_BR_PRIV_UNKNOWN, 0);
ABI_VAL(PERF_BR_PRIV_USER, 1);
ABI_VAL(PERF_BR_PRIV_KERNEL, 2);
ABI_VAL(PERF_BR_PRIV_HV, 3);
ABI_VAL(PERF_BR_ARM64_FIQ, 3);
ABI_VAL(PERF_BR_ARM64_DEBUG_HALT, 4);
ABI_VAL(PERF_BR_ARM64_DEBUG_EXIT, 5);
ABI_VAL(PERF_BR_ARM64_DEBUG_INST, 6);
ABI_VAL(PERF_BR_ARM64_DEBUG_DATA, 7);

ABI_VAL(PERF_SAMPLE_REGS_ABI_NONE, 0);
ABI_VAL(PERF_SAMPLE_REGS_ABI_32, 1);
ABI_VAL(PERF_SAMPLE_REGS_ABI_64, 2);

/* PERF_SAMPLE_TRANSACTION; the abort mask makes the enum 64-bit */
ABI_VAL(PERF_TXN_ELISION, 0x1);
ABI_VAL(PERF_TXN_TRANSACTION, 0x2);
ABI_VAL(PERF_TXN_SYNC, 0x4);
ABI_VAL(PERF_TXN_ASYNC, 0x8);
ABI_VAL(PERF_TXN_RETRY, 0x10);
ABI_VAL(PERF_TXN_CONFLICT, 0x20);
ABI_VAL(PERF_TXN_CAPACITY_WRITE, 0x40);
ABI_VAL(PERF_TXN_CAPACITY_READ, 0x80);
ABI_VAL(PERF_TXN_MAX, 0x100);
ABI_VAL(PERF_TXN_ABORT_MASK, 0xffffffff00000000ULL);
ABI_VAL(sizeof(PERF_TXN_ABORT_MASK), 8);
ABI_VAL(PERF_TXN_ABORT_SHIFT, 32);

/* attr.read_format */
ABI_VAL(PERF_FORMAT_TOTAL_TIME_ENABLED, 0x1);
ABI_VAL(PERF_FORMAT_TOTAL_TIME_RUNNING, 0x2);
ABI_VAL(PERF_FORMAT_ID, 0x4);
ABI_VAL(PERF_FORMAT_GROUP, 0x8);
ABI_VAL(PERF_FORMAT_LOST, 0x10);
ABI_VAL(PERF_FORMAT_MAX, 0x20);

/* perf_event_header::misc */
ABI_VAL(PERF_RECORD_MISC_CPUMODE_MASK, 0x7);
ABI_VAL(PERF_RECORD_MISC_CPUMODE_UNKNOWN, 0x0);
ABI_VAL(PERF_RECORD_MISC_KERNEL, 0x1);
ABI_VAL(PERF_RECORD_MISC_USER, 0x2);
ABI_VAL(PERF_RECORD_MISC_HYPERVISOR, 0x3);
ABI_VAL(PERF_RECORD_MISC_GUEST_KERNEL, 0x4);
ABI_VAL(PERF_RECORD_MISC_GUEST_USER, 0x5);
ABI_VAL(PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT, 0x1000);
ABI_VAL(PERF_RECORD_MISC_MMAP_DATA, 0x2000);
ABI_VAL(PERF_RECORD_MISC_COMM_EXEC, 0x2000);
ABI_VAL(PERF_RECORD_MISC_FORK_EXEC, 0x2000);
ABI_VAL(PERF_RECORD_MISC_SWITCH_OUT, 0x2000);
ABI_VAL(PERF_RECORD_MISC_EXACT_IP, 0x4000);
ABI_VAL(PERF_RECORD_MISC_SWITCH_OUT_PREEMPT, 0x4000);
ABI_VAL(PERF_RECORD_MISC_MMAP_BUILD_ID, 0x4000);
ABI_VAL(PERF_RECORD_MISC_EXT_RESERVED, 0x8000);

ABI_VAL(NET_NS_INDEX, 0);
ABI_VAL(UTS_NS_INDEX, 1);
ABI_VAL(IPC_NS_INDEX, 2);
ABI_VAL(PID_NS_INDEX, 3);
ABI_VAL(USER_NS_INDEX, 4);
ABI_VAL(MNT_NS_INDEX, 5);
ABI_VAL(CGROUP_NS_INDEX, 6);
ABI_VAL(NR_NAMESPACES, 7);

/* perf_event_header::type */
ABI_VAL(PERF_RECORD_MMAP, 1);
ABI_VAL(PERF_RECORD_LOST, 2);
ABI_VAL(PERF_RECORD_COMM, 3);
ABI_VAL(PERF_RECORD_EXIT, 4);
ABI_VAL(PERF_RECORD_THROTTLE, 5);
ABI_VAL(PERF_RECORD_UNTHROTTLE, 6);
ABI_VAL(PERF_RECORD_FORK, 7);
ABI_VAL(PERF_RECORD_READ, 8);
ABI_VAL(PERF_RECORD_SAMPLE, 9);
ABI_VAL(PERF_RECORD_MMAP2, 10);
ABI_VAL(PERF_RECORD_AUX, 11);
ABI_VAL(PERF_RECORD_ITRACE_START, 12);
ABI_VAL(PERF_RECORD_LOST_SAMPLES, 13);
ABI_VAL(PERF_RECORD_SWITCH, 14);
ABI_VAL(PERF_RECORD_SWITCH_CPU_WIDE, 15);
ABI_VAL(PERF_RECORD_NAMESPACES, 16);
ABI_VAL(PERF_RECORD_KSYMBOL, 17);
ABI_VAL(PERF_RECORD_BPF_EVENT, 18);
ABI_VAL(PERF_RECORD_CGROUP, 19);
ABI_VAL(PERF_RECORD_TEXT_POKE, 20);
ABI_VAL(PERF_RECORD_AUX_OUTPUT_HW_ID, 21);
ABI_VAL(PERF_RECORD_MAX, 22);

ABI_VAL(PERF_RECORD_KSYMBOL_TYPE_UNKNOWN, 0);
ABI_VAL(PERF_RECORD_KSYMBOL_TYPE_BPF, 1);
ABI_VAL(PERF_RECORD_KSYMBOL_TYPE_OOL, 2);
ABI_VAL(PERF_RECORD_KSYMBOL_TYPE_MAX, 3);
ABI_VAL(PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, 0x1);

ABI_VAL(PERF_BPF_EVENT_UNKNOWN, 0);
ABI_VAL(PERF_BPF_EVENT_PROG_LOAD, 1);
ABI_VAL(PERF_BPF_EVENT_PROG_UNLOAD, 2);
ABI_VAL(PERF_BPF_EVENT_MAX, 3);

/* callchains */
ABI_VAL(PERF_MAX_STACK_DEPTH, 127);
ABI_VAL(PERF_MAX_CONTEXTS_PER_STACK, 8);
ABI_VAL(sizeof(enum perf_callchain_context), 8);
ABI_VAL(PERF_CONTEXT_HV, 0xffffffffffffffe0ULL);
ABI_VAL(PERF_CONTEXT_KERNEL, 0xffffffffffffff80ULL);
ABI_VAL(PERF_CONTEXT_USER, 0xfffffffffffffe00ULL);
ABI_VAL(PERF_CONTEXT_GUEST, 0xfffffffffffff800ULL);
ABI_VAL(PERF_CONTEXT_GUEST_KERNEL, 0xfffffffffffff780ULL);
ABI_VAL(PERF_CONTEXT_GUEST_USER, 0xfffffffffffff600ULL);
ABI_VAL(PERF_CONTEXT_MAX, 0xfffffffffffff001ULL);

/* PERF_RECORD_AUX flags */
ABI_VAL(PERF_AUX_FLAG_TRUNCATED, 0x1);
ABI_VAL(PERF_AUX_FLAG_OVERWRITE, 0x2);
ABI_VAL(PERF_AUX_FLAG_PARTIAL, 0x4);
ABI_VAL(PERF_AUX_FLAG_COLLISION, 0x8);
ABI_VAL(PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK, 0xff00);
ABI_VAL(PERF_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT, 0x0);
ABI_VAL(PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW, 0x100);

/* perf_mem_data_src values and field positions */
ABI_VAL(PERF_MEM_OP_NA, 0x1);
ABI_VAL(PERF_MEM_OP_LOAD, 0x2);
ABI_VAL(PERF_MEM_OP_STORE, 0x4);
ABI_VAL(PERF_MEM_OP_PFETCH, 0x8);
ABI_VAL(PERF_MEM_OP_EXEC, 0x10);
ABI_VAL(PERF_MEM_OP_SHIFT, 0);
ABI_VAL(PERF_MEM_LVL_NA, 0x1);
ABI_VAL(PERF_MEM_LVL_HIT, 0x2);
ABI_VAL(PERF_MEM_LVL_MISS, 0x4);
ABI_VAL(PERF_MEM_LVL_L1, 0x8);
ABI_VAL(PERF_MEM_LVL_LFB, 0x10);
ABI_VAL(PERF_MEM_LVL_L2, 0x20);
ABI_VAL(PERF_MEM_LVL_L3, 0x40);
ABI_VAL(PERF_MEM_LVL_LOC_RAM, 0x80);
ABI_VAL(PERF_MEM_LVL_REM_RAM1, 0x100);
ABI_VAL(PERF_MEM_LVL_REM_RAM2, 0x200);
ABI_VAL(PERF_MEM_LVL_REM_CCE1, 0x400);
ABI_VAL(PERF_MEM_LVL_REM_CCE2, 0x800);
ABI_VAL(PERF_MEM_LVL_IO, 0x1000);
ABI_VAL(PERF_MEM_LVL_UNC, 0x2000);
ABI_VAL(PERF_MEM_LVL_SHIFT, 5);
ABI_VAL(PERF_MEM_REMOTE_REMOTE, 1);
ABI_VAL(PERF_MEM_REMOTE_SHIFT, 37);
ABI_VAL(PERF_MEM_LVLNUM_L1, 1);
ABI_VAL(PERF_MEM_LVLNUM_L2, 2);
ABI_VAL(PERF_MEM_LVLNUM_L3, 3);
ABI_VAL(PERF_MEM_LVLNUM_L4, 4);
ABI_VAL(PERF_MEM_LVLNUM_CXL, 9);
ABI_VAL(PERF_MEM_LVLNUM_IO, 10);
ABI_VAL(PERF_MEM_LVLNUM_ANY_CACHE, 11);
ABI_VAL(PERF_MEM_LVLNUM_LFB, 12);
ABI_VAL(PERF_MEM_LVLNUM_RAM, 13);
ABI_VAL(PERF_MEM_LVLNUM_PMEM, 14);
ABI_VAL(PERF_MEM_LVLNUM_NA, 15);
ABI_VAL(PERF_MEM_LVLNUM_SHIFT, 33);
ABI_VAL(PERF_MEM_SNOOP_NA, 0x1);
ABI_VAL(PERF_MEM_SNOOP_NONE, 0x2);
ABI_VAL(PERF_MEM_SNOOP_HIT, 0x4);
ABI_VAL(PERF_MEM_SNOOP_MISS, 0x8);
ABI_VAL(PERF_MEM_SNOOP_HITM, 0x10);
ABI_VAL(PERF_MEM_SNOOP_SHIFT, 19);
ABI_VAL(PERF_MEM_SNOOPX_FWD, 1);
ABI_VAL(PERF_MEM_SNOOPX_PEER, 2);
ABI_VAL(PERF_MEM_SNOOPX_SHIFT, 38);
ABI_VAL(PERF_MEM_LOCK_NA, 0x1);
ABI_VAL(PERF_MEM_LOCK_LOCKED, 0x2);
ABI_VAL(PERF_MEM_LOCK_SHIFT, 24);
ABI_VAL(PERF_MEM_TLB_NA, 0x1);
ABI_VAL(PERF_MEM_TLB_HIT, 0x2);
ABI_VAL(PERF_MEM_TLB_MISS, 0x4);
ABI_VAL(PERF_MEM_TLB_L1, 0x8);
ABI_VAL(PERF_MEM_TLB_L2, 0x10);
ABI_VAL(PERF_MEM_TLB_WK, 0x20);
ABI_VAL(PERF_MEM_TLB_OS, 0x40);
ABI_VAL(PERF_MEM_TLB_SHIFT, 26);
ABI_VAL(PERF_MEM_BLK_NA, 0x1);
ABI_VAL(PERF_MEM_BLK_DATA, 0x2);
ABI_VAL(PERF_MEM_BLK_ADDR, 0x4);
ABI_VAL(PERF_MEM_BLK_SHIFT, 40);
ABI_VAL(PERF_MEM_HOPS_0, 1);
ABI_VAL(PERF_MEM_HOPS_1, 2);
ABI_VAL(PERF_MEM_HOPS_2, 3);
ABI_VAL(PERF_MEM_HOPS_3, 4);
ABI_VAL(PERF_MEM_HOPS_SHIFT, 43);
ABI_VAL(PERF_MEM_S(LVL, HIT), 0x40ULL);
ABI_VAL(PERF_MEM_S(LVLNUM, PMEM), 0x1c00000000ULL);
ABI_VAL(PERF_MEM_S(HOPS, 3), 0x200000000000ULL);
ABI_VAL(sizeof(PERF_MEM_S(OP, LOAD)), 8);

/*
 * Run time: bitfield positions.  Each table entry is a zeroed object with
 * one bitfield set to all ones; "bit" is that field's position counted
 * from the first declared field, which is the LSB of the u64 on
 * little-endian machines and the MSB on big-endian ones.
 */
static __u64 field_mask(unsigned int bit, unsigned int width, bool host_order)
{
	__u64 ones = (1ULL << width) - 1;

#if defined(__BIG_ENDIAN_BITFIELD)
	if (host_order)
		bit = 64 - bit - width;
#endif
	return ones << bit;
}

/*
 * Check that setting field "name" in obj changed exactly its bits of the
 * u64 at word_off and nothing else, and that it does not overlap the
 * fields seen before.
 */
static void check_field(struct __test_metadata *_metadata, const char *name,
			const void *obj, size_t size, size_t word_off,
			unsigned int bit, unsigned int width, bool host_order,
			__u64 *seen)
{
	__u64 want = field_mask(bit, width, host_order);
	const unsigned char *p = obj;
	__u64 word;
	size_t i;

	memcpy(&word, p + word_off, sizeof(word));
	EXPECT_EQ(want, word) {
		TH_LOG("%s: want bits %u..%u (0x%016llx), got 0x%016llx",
		       name, bit, bit + width - 1,
		       (unsigned long long)want, (unsigned long long)word);
	}
	for (i = 0; i < size; i++) {
		if (i >= word_off && i < word_off + sizeof(word))
			continue;
		EXPECT_EQ(0, p[i]) {
			TH_LOG("%s: byte %zu changed too", name, i);
		}
	}
	EXPECT_EQ(0ULL, *seen & word) {
		TH_LOG("%s overlaps an earlier field", name);
	}
	*seen |= word;
}

static const struct {
	const char *name;
	struct perf_event_attr obj;
	unsigned int bit, width;
} attr_bits[] = {
	{ "disabled",			{ .disabled = 1 },		0, 1 },
	{ "inherit",			{ .inherit = 1 },		1, 1 },
	{ "pinned",			{ .pinned = 1 },		2, 1 },
	{ "exclusive",			{ .exclusive = 1 },		3, 1 },
	{ "exclude_user",		{ .exclude_user = 1 },		4, 1 },
	{ "exclude_kernel",		{ .exclude_kernel = 1 },	5, 1 },
	{ "exclude_hv",			{ .exclude_hv = 1 },		6, 1 },
	{ "exclude_idle",		{ .exclude_idle = 1 },		7, 1 },
	{ "mmap",			{ .mmap = 1 },			8, 1 },
	{ "comm",			{ .comm = 1 },			9, 1 },
	{ "freq",			{ .freq = 1 },			10, 1 },
	{ "inherit_stat",		{ .inherit_stat = 1 },		11, 1 },
	{ "enable_on_exec",		{ .enable_on_exec = 1 },	12, 1 },
	{ "task",			{ .task = 1 },			13, 1 },
	{ "watermark",			{ .watermark = 1 },		14, 1 },
	{ "precise_ip",			{ .precise_ip = 0x3 },		15, 2 },
	{ "mmap_data",			{ .mmap_data = 1 },		17, 1 },
	{ "sample_id_all",		{ .sample_id_all = 1 },		18, 1 },
	{ "exclude_host",		{ .exclude_host = 1 },		19, 1 },
	{ "exclude_guest",		{ .exclude_guest = 1 },		20, 1 },
	{ "exclude_callchain_kernel",	{ .exclude_callchain_kernel = 1 }, 21, 1 },
	{ "exclude_callchain_user",	{ .exclude_callchain_user = 1 }, 22, 1 },
	{ "mmap2",			{ .mmap2 = 1 },			23, 1 },
	{ "comm_exec",			{ .comm_exec = 1 },		24, 1 },
	{ "use_clockid",		{ .use_clockid = 1 },		25, 1 },
	{ "context_switch",		{ .context_switch = 1 },	26, 1 },
	{ "write_backward",		{ .write_backward = 1 },	27, 1 },
	{ "namespaces",			{ .namespaces = 1 },		28, 1 },
	{ "ksymbol",			{ .ksymbol = 1 },		29, 1 },
	{ "bpf_event",			{ .bpf_event = 1 },		30, 1 },
	{ "aux_output",			{ .aux_output = 1 },		31, 1 },
	{ "cgroup",			{ .cgroup = 1 },		32, 1 },
	{ "text_poke",			{ .text_poke = 1 },		33, 1 },
	{ "build_id",			{ .build_id = 1 },		34, 1 },
	{ "inherit_thread",		{ .inherit_thread = 1 },	35, 1 },
	{ "remove_on_exec",		{ .remove_on_exec = 1 },	36, 1 },
	{ "sigtrap",			{ .sigtrap = 1 },		37, 1 },
	{ "__reserved_1",		{ .__reserved_1 = 0x3ffffff },	38, 26 },
};

static const struct {
	const char *name;
	struct perf_event_mmap_page obj;
	unsigned int bit, width;
} cap_bits[] = {
	{ "cap_bit0",			{ .cap_bit0 = 1 },		0, 1 },
	{ "cap_bit0_is_deprecated",	{ .cap_bit0_is_deprecated = 1 }, 1, 1 },
	{ "cap_user_rdpmc",		{ .cap_user_rdpmc = 1 },	2, 1 },
	{ "cap_user_time",		{ .cap_user_time = 1 },		3, 1 },
	{ "cap_user_time_zero",		{ .cap_user_time_zero = 1 },	4, 1 },
	{ "cap_user_time_short",	{ .cap_user_time_short = 1 },	5, 1 },
	{ "cap_____res",	{ .cap_____res = 0x3ffffffffffffffULL }, 6, 58 },
};

static const struct {
	const char *name;
	struct perf_branch_entry obj;
	unsigned int bit, width;
} branch_bits[] = {
	{ "mispred",		{ .mispred = 1 },		0, 1 },
	{ "predicted",		{ .predicted = 1 },		1, 1 },
	{ "in_tx",		{ .in_tx = 1 },			2, 1 },
	{ "abort",		{ .abort = 1 },			3, 1 },
	{ "cycles",		{ .cycles = 0xffff },		4, 16 },
	{ "type",		{ .type = 0xf },		20, 4 },
	{ "spec",		{ .spec = 0x3 },		24, 2 },
	{ "new_type",		{ .new_type = 0xf },		26, 4 },
	{ "priv",		{ .priv = 0x7 },		30, 3 },
	{ "reserved",		{ .reserved = 0x7fffffff },	33, 31 },
};

/* union perf_mem_data_src numbers its fields the same on any byte order */
static const struct {
	const char *name;
	union perf_mem_data_src obj;
	unsigned int bit, width;
} mem_bits[] = {
	{ "mem_op",		{ .mem_op = 0x1f },		0, 5 },
	{ "mem_lvl",		{ .mem_lvl = 0x3fff },		5, 14 },
	{ "mem_snoop",		{ .mem_snoop = 0x1f },		19, 5 },
	{ "mem_lock",		{ .mem_lock = 0x3 },		24, 2 },
	{ "mem_dtlb",		{ .mem_dtlb = 0x7f },		26, 7 },
	{ "mem_lvl_num",	{ .mem_lvl_num = 0xf },		33, 4 },
	{ "mem_remote",		{ .mem_remote = 1 },		37, 1 },
	{ "mem_snoopx",		{ .mem_snoopx = 0x3 },		38, 2 },
	{ "mem_blk",		{ .mem_blk = 0x7 },		40, 3 },
	{ "mem_hops",		{ .mem_hops = 0x7 },		43, 3 },
	{ "mem_rsvd",		{ .mem_rsvd = 0x3ffff },	46, 18 },
};

TEST(attr_flag_bits)
{
	__u64 seen = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attr_bits); i++)
		check_field(_metadata, attr_bits[i].name, &attr_bits[i].obj,
			    sizeof(attr_bits[i].obj), 40, attr_bits[i].bit,
			    attr_bits[i].width, true, &seen);
	EXPECT_EQ(~0ULL, seen);
}

#define PG_OFF(f, want) \
	{ #f, offsetof(struct perf_event_mmap_page, f), want }

TEST(mmap_page_layout)
{
	static const struct {
		const char *name;
		size_t off, want;
	} fields[] = {
		PG_OFF(capabilities, 40),
		PG_OFF(pmc_width, 48),
		PG_OFF(time_zero, 64),
		PG_OFF(size, 72),
		PG_OFF(time_mask, 88),
		PG_OFF(__reserved, 96),
		PG_OFF(data_head, 1024),
		PG_OFF(data_tail, 1032),
		PG_OFF(data_offset, 1040),
		PG_OFF(data_size, 1048),
		PG_OFF(aux_head, 1056),
		PG_OFF(aux_tail, 1064),
		PG_OFF(aux_offset, 1072),
		PG_OFF(aux_size, 1080),
	};
	struct perf_event_mmap_page pg;
	__u64 seen = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		EXPECT_EQ(fields[i].want, fields[i].off)
			TH_LOG("%s", fields[i].name);
	EXPECT_EQ((size_t)1088, sizeof(pg));

	/* the capability bits share the u64 with capabilities */
	for (i = 0; i < ARRAY_SIZE(cap_bits); i++)
		check_field(_metadata, cap_bits[i].name, &cap_bits[i].obj,
			    sizeof(cap_bits[i].obj), 40, cap_bits[i].bit,
			    cap_bits[i].width, true, &seen);
	EXPECT_EQ(~0ULL, seen);

	memset(&pg, 0, sizeof(pg));
	pg.cap_user_rdpmc = 1;
	pg.cap_user_time_zero = 1;
	EXPECT_EQ(0x14ULL, pg.capabilities);
}

TEST(branch_entry_bits)
{
	__u64 seen = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(branch_bits); i++)
		check_field(_metadata, branch_bits[i].name, &branch_bits[i].obj,
			    sizeof(branch_bits[i].obj), 16, branch_bits[i].bit,
			    branch_bits[i].width, true, &seen);
	EXPECT_EQ(~0ULL, seen);
}

TEST(mem_data_src_bits)
{
	union perf_mem_data_src src;
	__u64 seen = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mem_bits); i++)
		check_field(_metadata, mem_bits[i].name, &mem_bits[i].obj,
			    sizeof(mem_bits[i].obj), 0, mem_bits[i].bit,
			    mem_bits[i].width, false, &seen);
	EXPECT_EQ(~0ULL, seen);

	/* PERF_MEM_S() must land each value in its field */
	src.val = PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, L3) |
		  PERF_MEM_S(SNOOP, HITM) | PERF_MEM_S(LOCK, LOCKED) |
		  PERF_MEM_S(TLB, WK) | PERF_MEM_S(LVLNUM, CXL) |
		  PERF_MEM_S(REMOTE, REMOTE) | PERF_MEM_S(SNOOPX, PEER) |
		  PERF_MEM_S(BLK, ADDR) | PERF_MEM_S(HOPS, 2);
	EXPECT_EQ(0x4ULL, (__u64)src.mem_op);
	EXPECT_EQ(0x40ULL, (__u64)src.mem_lvl);
	EXPECT_EQ(0x10ULL, (__u64)src.mem_snoop);
	EXPECT_EQ(0x2ULL, (__u64)src.mem_lock);
	EXPECT_EQ(0x20ULL, (__u64)src.mem_dtlb);
	EXPECT_EQ(0x9ULL, (__u64)src.mem_lvl_num);
	EXPECT_EQ(0x1ULL, (__u64)src.mem_remote);
	EXPECT_EQ(0x2ULL, (__u64)src.mem_snoopx);
	EXPECT_EQ(0x4ULL, (__u64)src.mem_blk);
	EXPECT_EQ(0x3ULL, (__u64)src.mem_hops);
	EXPECT_EQ(0ULL, (__u64)src.mem_rsvd);
}

TEST(sample_weight_layout)
{
	union perf_sample_weight w;

	w.full = 0x1122334455667788ULL;
	EXPECT_EQ(0x55667788U, w.var1_dw);
	EXPECT_EQ(0x3344, w.var2_w);
	EXPECT_EQ(0x1122, w.var3_w);
}

static int open_dummy(struct perf_event_attr *attr)
{
	return syscall(__NR_perf_event_open, attr, 0, -1, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* The running kernel fills in the structures the way the header says. */
TEST(kernel_agrees)
{
	static const __u32 sizes[] = {
		PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
		PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
	};
	struct perf_event_attr attr;
	__u64 vals[8], id = 0;
	ssize_t n;
	size_t i;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING |
			   PERF_FORMAT_ID | PERF_FORMAT_LOST;
	fd = open_dummy(&attr);
	if (fd < 0)
		SKIP(return, "perf_event_open: %s", strerror(errno));

	/* every published attr size is accepted */
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct perf_event_attr a = attr;
		int f;

		a.size = sizes[i];
		a.read_format = 0;
		f = open_dummy(&a);
		EXPECT_LE(0, f) TH_LOG("size %u: %s", sizes[i], strerror(errno));
		if (f >= 0)
			close(f);
	}

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	EXPECT_NE(0ULL, id);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));

	/* value, time_enabled, time_running, id, lost */
	n = read(fd, vals, sizeof(vals));
	EXPECT_EQ((ssize_t)(5 * sizeof(__u64)), n);
	EXPECT_EQ(id, vals[3]);
	EXPECT_EQ(0ULL, vals[4]);

	close(fd);
}

TEST_HARNESS_MAIN
