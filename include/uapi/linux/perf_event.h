/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space interface of perf_event_open(2): the attribute block passed
 * in, the ioctls accepted on the returned fd, the first page of its
 * mmap() ring buffer, and the records the kernel writes into that buffer.
 *
 * Every name, value and layout here is fixed ABI.  Entries marked
 * "not ABI" are counts that grow as the kernel learns new things; never
 * store them or compare against them across kernel versions.
 *
 * See perf_event_open(2) for the full description.
 */
#ifndef _UAPI_LINUX_PERF_EVENT_H
#define _UAPI_LINUX_PERF_EVENT_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <asm/byteorder.h>

/* Values for perf_event_attr::type; dynamic PMUs use other numbers. */
enum perf_type_id {
	PERF_TYPE_HARDWARE			= 0,
	PERF_TYPE_SOFTWARE			= 1,
	PERF_TYPE_TRACEPOINT			= 2,
	PERF_TYPE_HW_CACHE			= 3,
	PERF_TYPE_RAW				= 4,
	PERF_TYPE_BREAKPOINT			= 5,

	PERF_TYPE_MAX,				/* not ABI */
};

/*
 * For PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE, bits 63..32 of
 * attr.config may name the PMU type (0 means the core PMU) and the low
 * bits carry the event:
 *   hardware:  bits 7..0 = enum perf_hw_id
 *   hw cache:  bits 7..0 = perf_hw_cache_id, 15..8 = perf_hw_cache_op_id,
 *              23..16 = perf_hw_cache_op_result_id
 */
#define PERF_PMU_TYPE_SHIFT		32
#define PERF_HW_EVENT_MASK		0xffffffff

/* attr.config for PERF_TYPE_HARDWARE: generic CPU events. */
enum perf_hw_id {
	PERF_COUNT_HW_CPU_CYCLES		= 0,
	PERF_COUNT_HW_INSTRUCTIONS		= 1,
	PERF_COUNT_HW_CACHE_REFERENCES		= 2,
	PERF_COUNT_HW_CACHE_MISSES		= 3,
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_HW_BRANCH_MISSES		= 5,
	PERF_COUNT_HW_BUS_CYCLES		= 6,
	PERF_COUNT_HW_STALLED_CYCLES_FRONTEND	= 7,
	PERF_COUNT_HW_STALLED_CYCLES_BACKEND	= 8,
	PERF_COUNT_HW_REF_CPU_CYCLES		= 9,

	PERF_COUNT_HW_MAX,			/* not ABI */
};

/* PERF_TYPE_HW_CACHE: which cache (config bits 7..0). */
enum perf_hw_cache_id {
	PERF_COUNT_HW_CACHE_L1D			= 0,
	PERF_COUNT_HW_CACHE_L1I			= 1,
	PERF_COUNT_HW_CACHE_LL			= 2,
	PERF_COUNT_HW_CACHE_DTLB		= 3,
	PERF_COUNT_HW_CACHE_ITLB		= 4,
	PERF_COUNT_HW_CACHE_BPU			= 5,
	PERF_COUNT_HW_CACHE_NODE		= 6,

	PERF_COUNT_HW_CACHE_MAX,		/* not ABI */
};

/* PERF_TYPE_HW_CACHE: which kind of access (config bits 15..8). */
enum perf_hw_cache_op_id {
	PERF_COUNT_HW_CACHE_OP_READ		= 0,
	PERF_COUNT_HW_CACHE_OP_WRITE		= 1,
	PERF_COUNT_HW_CACHE_OP_PREFETCH		= 2,

	PERF_COUNT_HW_CACHE_OP_MAX,		/* not ABI */
};

/* PERF_TYPE_HW_CACHE: count accesses or misses (config bits 23..16). */
enum perf_hw_cache_op_result_id {
	PERF_COUNT_HW_CACHE_RESULT_ACCESS	= 0,
	PERF_COUNT_HW_CACHE_RESULT_MISS		= 1,

	PERF_COUNT_HW_CACHE_RESULT_MAX,		/* not ABI */
};

/* attr.config for PERF_TYPE_SOFTWARE: events counted by the kernel. */
enum perf_sw_ids {
	PERF_COUNT_SW_CPU_CLOCK			= 0,
	PERF_COUNT_SW_TASK_CLOCK		= 1,
	PERF_COUNT_SW_PAGE_FAULTS		= 2,
	PERF_COUNT_SW_CONTEXT_SWITCHES		= 3,
	PERF_COUNT_SW_CPU_MIGRATIONS		= 4,
	PERF_COUNT_SW_PAGE_FAULTS_MIN		= 5,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ		= 6,
	PERF_COUNT_SW_ALIGNMENT_FAULTS		= 7,
	PERF_COUNT_SW_EMULATION_FAULTS		= 8,
	PERF_COUNT_SW_DUMMY			= 9,	/* counts nothing */
	PERF_COUNT_SW_BPF_OUTPUT		= 10,
	PERF_COUNT_SW_CGROUP_SWITCHES		= 11,

	PERF_COUNT_SW_MAX,			/* not ABI */
};

/*
 * attr.sample_type bits: what a PERF_RECORD_SAMPLE carries.  The order
 * of the fields in the record is given at PERF_RECORD_SAMPLE below.
 */
enum perf_event_sample_format {
	PERF_SAMPLE_IP				= 1U << 0,
	PERF_SAMPLE_TID				= 1U << 1,
	PERF_SAMPLE_TIME			= 1U << 2,
	PERF_SAMPLE_ADDR			= 1U << 3,
	PERF_SAMPLE_READ			= 1U << 4,
	PERF_SAMPLE_CALLCHAIN			= 1U << 5,
	PERF_SAMPLE_ID				= 1U << 6,
	PERF_SAMPLE_CPU				= 1U << 7,
	PERF_SAMPLE_PERIOD			= 1U << 8,
	PERF_SAMPLE_STREAM_ID			= 1U << 9,
	PERF_SAMPLE_RAW				= 1U << 10,
	PERF_SAMPLE_BRANCH_STACK		= 1U << 11,
	PERF_SAMPLE_REGS_USER			= 1U << 12,
	PERF_SAMPLE_STACK_USER			= 1U << 13,
	PERF_SAMPLE_WEIGHT			= 1U << 14,
	PERF_SAMPLE_DATA_SRC			= 1U << 15,
	PERF_SAMPLE_IDENTIFIER			= 1U << 16,
	PERF_SAMPLE_TRANSACTION			= 1U << 17,
	PERF_SAMPLE_REGS_INTR			= 1U << 18,
	PERF_SAMPLE_PHYS_ADDR			= 1U << 19,
	PERF_SAMPLE_AUX				= 1U << 20,
	PERF_SAMPLE_CGROUP			= 1U << 21,
	PERF_SAMPLE_DATA_PAGE_SIZE		= 1U << 22,
	PERF_SAMPLE_CODE_PAGE_SIZE		= 1U << 23,
	PERF_SAMPLE_WEIGHT_STRUCT		= 1U << 24,

	PERF_SAMPLE_MAX				= 1U << 25,	/* not ABI */
};

/* Either form of the sample weight; at most one may be requested. */
#define PERF_SAMPLE_WEIGHT_TYPE	(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)

/*
 * Bit numbers of attr.branch_sample_type (used with
 * PERF_SAMPLE_BRANCH_STACK).  Without any of the USER/KERNEL/HV bits the
 * event's own privilege filter applies.  ANY selects every branch kind.
 */
enum perf_branch_sample_type_shift {
	PERF_SAMPLE_BRANCH_USER_SHIFT		= 0,	/* in user space */
	PERF_SAMPLE_BRANCH_KERNEL_SHIFT		= 1,	/* in the kernel */
	PERF_SAMPLE_BRANCH_HV_SHIFT		= 2,	/* in the hypervisor */

	PERF_SAMPLE_BRANCH_ANY_SHIFT		= 3,	/* every kind */
	PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT	= 4,	/* all calls */
	PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT	= 5,	/* all returns */
	PERF_SAMPLE_BRANCH_IND_CALL_SHIFT	= 6,	/* indirect calls */
	PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT	= 7,	/* TM aborts */
	PERF_SAMPLE_BRANCH_IN_TX_SHIFT		= 8,	/* inside a TM txn */
	PERF_SAMPLE_BRANCH_NO_TX_SHIFT		= 9,	/* outside a TM txn */
	PERF_SAMPLE_BRANCH_COND_SHIFT		= 10,	/* conditional */

	PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT	= 11,	/* call stack mode */
	PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT	= 12,	/* indirect jumps */
	PERF_SAMPLE_BRANCH_CALL_SHIFT		= 13,	/* direct calls */

	PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT	= 14,	/* omit flag bits */
	PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT	= 15,	/* omit cycle counts */

	PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT	= 16,	/* fill in type */

	PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT	= 17,	/* emit hw_idx */

	PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT	= 18,	/* fill in priv */

	PERF_SAMPLE_BRANCH_MAX_SHIFT		/* not ABI */
};

/* The masks matching the bit numbers above. */
enum perf_branch_sample_type {
	PERF_SAMPLE_BRANCH_USER		= 1U << PERF_SAMPLE_BRANCH_USER_SHIFT,
	PERF_SAMPLE_BRANCH_KERNEL	= 1U << PERF_SAMPLE_BRANCH_KERNEL_SHIFT,
	PERF_SAMPLE_BRANCH_HV		= 1U << PERF_SAMPLE_BRANCH_HV_SHIFT,

	PERF_SAMPLE_BRANCH_ANY		= 1U << PERF_SAMPLE_BRANCH_ANY_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_CALL	=
		1U << PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_RETURN	=
		1U << PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT,
	PERF_SAMPLE_BRANCH_IND_CALL	=
		1U << PERF_SAMPLE_BRANCH_IND_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ABORT_TX	=
		1U << PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT,
	PERF_SAMPLE_BRANCH_IN_TX	= 1U << PERF_SAMPLE_BRANCH_IN_TX_SHIFT,
	PERF_SAMPLE_BRANCH_NO_TX	= 1U << PERF_SAMPLE_BRANCH_NO_TX_SHIFT,
	PERF_SAMPLE_BRANCH_COND		= 1U << PERF_SAMPLE_BRANCH_COND_SHIFT,

	PERF_SAMPLE_BRANCH_CALL_STACK	=
		1U << PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT,
	PERF_SAMPLE_BRANCH_IND_JUMP	=
		1U << PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT,
	PERF_SAMPLE_BRANCH_CALL		= 1U << PERF_SAMPLE_BRANCH_CALL_SHIFT,

	PERF_SAMPLE_BRANCH_NO_FLAGS	=
		1U << PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT,
	PERF_SAMPLE_BRANCH_NO_CYCLES	=
		1U << PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT,

	PERF_SAMPLE_BRANCH_TYPE_SAVE	=
		1U << PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT,

	PERF_SAMPLE_BRANCH_HW_INDEX	=
		1U << PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT,

	PERF_SAMPLE_BRANCH_PRIV_SAVE	=
		1U << PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT,

	PERF_SAMPLE_BRANCH_MAX		= 1U << PERF_SAMPLE_BRANCH_MAX_SHIFT,
};

/* perf_branch_entry::type: what kind of control transfer it was. */
enum {
	PERF_BR_UNKNOWN		= 0,
	PERF_BR_COND		= 1,	/* conditional jump */
	PERF_BR_UNCOND		= 2,	/* unconditional jump */
	PERF_BR_IND		= 3,	/* indirect jump */
	PERF_BR_CALL		= 4,	/* direct call */
	PERF_BR_IND_CALL	= 5,	/* indirect call */
	PERF_BR_RET		= 6,	/* return */
	PERF_BR_SYSCALL		= 7,	/* system call entry */
	PERF_BR_SYSRET		= 8,	/* system call return */
	PERF_BR_COND_CALL	= 9,	/* conditional call */
	PERF_BR_COND_RET	= 10,	/* conditional return */
	PERF_BR_ERET		= 11,	/* return from exception */
	PERF_BR_IRQ		= 12,	/* interrupt entry */
	PERF_BR_SERROR		= 13,	/* system error entry */
	PERF_BR_NO_TX		= 14,	/* outside a TM transaction */
	PERF_BR_EXTEND_ABI	= 15,	/* see perf_branch_entry::new_type */
	PERF_BR_MAX,
};

/* perf_branch_entry::spec: how speculation resolved for the branch. */
enum {
	PERF_BR_SPEC_NA			= 0,	/* unknown */
	PERF_BR_SPEC_WRONG_PATH		= 1,	/* speculated, wrong path */
	PERF_BR_NON_SPEC_CORRECT_PATH	= 2,	/* not speculated, right path */
	PERF_BR_SPEC_CORRECT_PATH	= 3,	/* speculated, right path */
	PERF_BR_SPEC_MAX,
};

/* perf_branch_entry::new_type, valid when type == PERF_BR_EXTEND_ABI. */
enum {
	PERF_BR_NEW_FAULT_ALGN		= 0,	/* alignment fault */
	PERF_BR_NEW_FAULT_DATA		= 1,	/* data abort */
	PERF_BR_NEW_FAULT_INST		= 2,	/* instruction abort */
	PERF_BR_NEW_ARCH_1		= 3,	/* meaning is per arch */
	PERF_BR_NEW_ARCH_2		= 4,
	PERF_BR_NEW_ARCH_3		= 5,
	PERF_BR_NEW_ARCH_4		= 6,
	PERF_BR_NEW_ARCH_5		= 7,
	PERF_BR_NEW_MAX,
};

/* perf_branch_entry::priv: privilege level the branch target runs at. */
enum {
	PERF_BR_PRIV_UNKNOWN	= 0,
	PERF_BR_PRIV_USER	= 1,
	PERF_BR_PRIV_KERNEL	= 2,
	PERF_BR_PRIV_HV		= 3,
};

/* arm64 names for the per-arch new_type values. */
#define PERF_BR_ARM64_FIQ		PERF_BR_NEW_ARCH_1
#define PERF_BR_ARM64_DEBUG_HALT	PERF_BR_NEW_ARCH_2
#define PERF_BR_ARM64_DEBUG_EXIT	PERF_BR_NEW_ARCH_3
#define PERF_BR_ARM64_DEBUG_INST	PERF_BR_NEW_ARCH_4
#define PERF_BR_ARM64_DEBUG_DATA	PERF_BR_NEW_ARCH_5

/* All three privilege filter bits of branch_sample_type. */
#define PERF_SAMPLE_BRANCH_PLM_ALL \
	(PERF_SAMPLE_BRANCH_USER | \
	 PERF_SAMPLE_BRANCH_KERNEL | \
	 PERF_SAMPLE_BRANCH_HV)

/* First u64 of a register dump: the register set that follows. */
enum perf_sample_regs_abi {
	PERF_SAMPLE_REGS_ABI_NONE	= 0,	/* no registers */
	PERF_SAMPLE_REGS_ABI_32		= 1,	/* 32-bit task */
	PERF_SAMPLE_REGS_ABI_64		= 2,	/* 64-bit task */
};

/*
 * PERF_SAMPLE_TRANSACTION value: why a hardware transaction aborted.
 * Several low bits may be set; bits 63..32 hold the abort code.
 */
enum {
	PERF_TXN_ELISION	= (1 << 0),	/* lock elision */
	PERF_TXN_TRANSACTION	= (1 << 1),	/* explicit transaction */
	PERF_TXN_SYNC		= (1 << 2),	/* caused by this insn */
	PERF_TXN_ASYNC		= (1 << 3),	/* not caused by it */
	PERF_TXN_RETRY		= (1 << 4),	/* a retry may succeed */
	PERF_TXN_CONFLICT	= (1 << 5),	/* data conflict */
	PERF_TXN_CAPACITY_WRITE	= (1 << 6),	/* write set too big */
	PERF_TXN_CAPACITY_READ	= (1 << 7),	/* read set too big */

	PERF_TXN_MAX		= (1 << 8),	/* not ABI */

	PERF_TXN_ABORT_MASK	= (0xffffffffULL << 32),
	PERF_TXN_ABORT_SHIFT	= 32,
};

/*
 * attr.read_format bits: what read(2) on the event fd returns.  All
 * items are u64, in this order:
 *
 * single event (no PERF_FORMAT_GROUP):
 *	value, [time_enabled], [time_running], [id], [lost]
 *
 * PERF_FORMAT_GROUP, read on the group leader:
 *	nr, [time_enabled], [time_running],
 *	then nr times: value, [id], [lost]
 *
 * An item in [] is present only when its PERF_FORMAT_* bit is set.
 */
enum perf_event_read_format {
	PERF_FORMAT_TOTAL_TIME_ENABLED		= 1U << 0,
	PERF_FORMAT_TOTAL_TIME_RUNNING		= 1U << 1,
	PERF_FORMAT_ID				= 1U << 2,
	PERF_FORMAT_GROUP			= 1U << 3,
	PERF_FORMAT_LOST			= 1U << 4,

	PERF_FORMAT_MAX				= 1U << 5,	/* not ABI */
};

/*
 * Known values of attr.size: each one is the struct size at the time
 * the named fields were appended.  Any size from VER0 up is accepted;
 * fields past it read as zero, and bytes the kernel does not know must
 * be zero.  A size of 0 means VER0.
 */
#define PERF_ATTR_SIZE_VER0	64	/* first version */
#define PERF_ATTR_SIZE_VER1	72	/* + config2 */
#define PERF_ATTR_SIZE_VER2	80	/* + branch_sample_type */
#define PERF_ATTR_SIZE_VER3	96	/* + sample_regs_user, sample_stack_user */
#define PERF_ATTR_SIZE_VER4	104	/* + sample_regs_intr */
#define PERF_ATTR_SIZE_VER5	112	/* + aux_watermark */
#define PERF_ATTR_SIZE_VER6	120	/* + aux_sample_size */
#define PERF_ATTR_SIZE_VER7	128	/* + sig_data */

/* The argument of perf_event_open(2): what to count and how. */
struct perf_event_attr {
	__u32			type;	/* enum perf_type_id or a PMU's type */
	__u32			size;	/* sizeof(struct) the caller knows */
	__u64			config;	/* event selector, meaning per type */

	union {
		__u64		sample_period;	/* sample every N events */
		__u64		sample_freq;	/* or N times a second (freq) */
	};

	__u64			sample_type;	/* PERF_SAMPLE_* bits */
	__u64			read_format;	/* PERF_FORMAT_* bits */

	__u64			disabled		: 1, /* start stopped */
				inherit			: 1, /* count in new children */
				pinned			: 1, /* keep on PMU or error */
				exclusive		: 1, /* group owns the PMU */
				exclude_user		: 1, /* skip user mode */
				exclude_kernel		: 1, /* skip kernel mode */
				exclude_hv		: 1, /* skip hypervisor */
				exclude_idle		: 1, /* skip the idle task */
				mmap			: 1, /* PERF_RECORD_MMAP */
				comm			: 1, /* PERF_RECORD_COMM */
				freq			: 1, /* use sample_freq */
				inherit_stat		: 1, /* per-task child counts */
				enable_on_exec		: 1, /* enable at exec() */
				task			: 1, /* FORK/EXIT records */
				watermark		: 1, /* wake by bytes */
				/*
				 * Allowed skid of the sampled IP: 0 any,
				 * 1 constant, 2 asked to be zero, 3 must
				 * be zero.  PERF_RECORD_MISC_EXACT_IP
				 * marks samples whose IP is exact.
				 */
				precise_ip		: 2,
				mmap_data		: 1, /* also non-exec mmaps */
				sample_id_all		: 1, /* sample_id on all records */

				exclude_host		: 1, /* only in guests */
				exclude_guest		: 1, /* only in the host */

				exclude_callchain_kernel : 1, /* no kernel frames */
				exclude_callchain_user	: 1, /* no user frames */
				mmap2			: 1, /* PERF_RECORD_MMAP2 */
				comm_exec		: 1, /* mark exec() COMMs */
				use_clockid		: 1, /* timestamps by clockid */
				context_switch		: 1, /* SWITCH records */
				write_backward		: 1, /* fill buffer downwards */
				namespaces		: 1, /* NAMESPACES records */
				ksymbol			: 1, /* KSYMBOL records */
				bpf_event		: 1, /* BPF_EVENT records */
				aux_output		: 1, /* output to group AUX */
				cgroup			: 1, /* CGROUP records */
				text_poke		: 1, /* TEXT_POKE records */
				build_id		: 1, /* build id in MMAP2 */
				inherit_thread		: 1, /* inherit by threads only */
				remove_on_exec		: 1, /* drop event at exec() */
				sigtrap			: 1, /* SIGTRAP on overflow */
				__reserved_1		: 26;

	union {
		__u32		wakeup_events;	  /* wake every N samples */
		__u32		wakeup_watermark; /* or every N bytes */
	};

	__u32			bp_type;	/* HW_BREAKPOINT_* */
	union {
		__u64		bp_addr;	/* breakpoint address */
		__u64		kprobe_func;	/* kprobe PMU: symbol name */
		__u64		uprobe_path;	/* uprobe PMU: file path */
		__u64		config1;	/* more config for the PMU */
	};
	union {
		__u64		bp_len;		/* breakpoint length */
		__u64		kprobe_addr;	/* kprobe address, no name */
		__u64		probe_offset;	/* offset from func or path */
		__u64		config2;	/* yet more config */
	};
	__u64			branch_sample_type; /* perf_branch_sample_type */

	/* Registers dumped with PERF_SAMPLE_REGS_USER; asm/perf_regs.h. */
	__u64			sample_regs_user;

	/* Bytes of user stack to copy with PERF_SAMPLE_STACK_USER. */
	__u32			sample_stack_user;

	__s32			clockid;	/* clock when use_clockid */

	/*
	 * Registers dumped with PERF_SAMPLE_REGS_INTR, as found at the
	 * overflow interrupt or, with precise_ip, at the sampled insn.
	 */
	__u64			sample_regs_intr;

	__u32			aux_watermark;	/* AUX bytes per wakeup */
	__u16			sample_max_stack; /* callchain depth limit */
	__u16			__reserved_2;
	__u32			aux_sample_size; /* PERF_SAMPLE_AUX bytes */
	__u32			__reserved_3;

	/*
	 * With sigtrap, copied to siginfo::si_perf_data (truncated to
	 * a long on 32-bit) so the handler can tell events apart.
	 */
	__u64			sig_data;
};

/*
 * Argument of PERF_EVENT_IOC_QUERY_BPF: the caller sets ids_len, the
 * kernel fills ids[] with up to ids_len BPF program ids attached to the
 * event's tracepoint and sets prog_cnt to how many there are in all.
 */
struct perf_event_query_bpf {
	__u32	ids_len;
	__u32	prog_cnt;
	__u32	ids[];
};

/* ioctl(2) requests on a perf event fd. */
#define PERF_EVENT_IOC_ENABLE		_IO('$', 0)
#define PERF_EVENT_IOC_DISABLE		_IO('$', 1)
#define PERF_EVENT_IOC_REFRESH		_IO('$', 2)
#define PERF_EVENT_IOC_RESET		_IO('$', 3)
#define PERF_EVENT_IOC_PERIOD		_IOW('$', 4, __u64)
#define PERF_EVENT_IOC_SET_OUTPUT	_IO('$', 5)
#define PERF_EVENT_IOC_SET_FILTER	_IOW('$', 6, char *)
#define PERF_EVENT_IOC_ID		_IOR('$', 7, __u64 *)
#define PERF_EVENT_IOC_SET_BPF		_IOW('$', 8, __u32)
#define PERF_EVENT_IOC_PAUSE_OUTPUT	_IOW('$', 9, __u32)
#define PERF_EVENT_IOC_QUERY_BPF	_IOWR('$', 10, struct perf_event_query_bpf *)
#define PERF_EVENT_IOC_MODIFY_ATTRIBUTES	_IOW('$', 11, struct perf_event_attr *)

/* Argument of ENABLE, DISABLE, RESET, REFRESH. */
enum perf_event_ioc_flags {
	PERF_IOC_FLAG_GROUP		= 1U << 0,	/* whole group */
};

/*
 * First page of the mmap() of an event fd.  It is followed by the data
 * ring buffer and, if mapped separately, by the AUX buffer.
 */
struct perf_event_mmap_page {
	__u32	version;		/* layout version */
	__u32	compat_version;		/* oldest version it is compatible with */

	/*
	 * A thread can read its own count without a system call: note
	 * lock, read the fields it needs (when cap_user_rdpmc and index
	 * are set, the count is offset plus rdpmc(index - 1) sign-extended
	 * from pmc_width bits), then read lock again; if it moved, the
	 * kernel updated the page meanwhile and the reads must be redone.
	 * Only for an event that counts the calling thread.
	 */
	__u32	lock;			/* sequence count */
	__u32	index;			/* rdpmc counter + 1; 0: no rdpmc */
	__s64	offset;			/* add to the raw counter */
	__u64	time_enabled;		/* ns enabled */
	__u64	time_running;		/* ns actually on the PMU */
	union {
		__u64	capabilities;
		struct {
			__u64	cap_bit0		: 1, /* always 0 */
				cap_bit0_is_deprecated	: 1, /* always 1 */

				cap_user_rdpmc		: 1, /* rdpmc usable */
				cap_user_time		: 1, /* time_* usable */
				cap_user_time_zero	: 1, /* time_zero usable */
				cap_user_time_short	: 1, /* time_cycles/mask */
				cap_____res		: 58;
		};
	};

	/* Width in bits of what rdpmc returns, to sign-extend it. */
	__u16	pmc_width;

	/*
	 * With cap_user_time, a cycle count cyc (e.g. rdtsc) converts to
	 * ns past time_enabled in 64-bit arithmetic, with m = time_mult,
	 * s = time_shift and lo = cyc % 2^s:
	 *	time_offset + (cyc >> s) * m + ((lo * m) >> s)
	 * which may be added to time_enabled and, if index, time_running.
	 */
	__u16	time_shift;
	__u32	time_mult;
	__u64	time_offset;

	/*
	 * With cap_user_time_zero, a sample timestamp maps back to cycles:
	 * for t = timestamp - time_zero, cyc = t * 2^time_shift / time_mult
	 * (do t / time_mult and t % time_mult apart to avoid overflow).
	 * The other way is the formula above with time_zero in place of
	 * time_offset.
	 */
	__u64	time_zero;

	__u32	size;			/* bytes in use before __reserved */
	__u32	__reserved_1;

	/*
	 * With cap_user_time_short the cycle counter is narrower than
	 * 64 bits; widen a raw reading first:
	 *	cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	 */
	__u64	time_cycles;
	__u64	time_mask;

	/* Room for new fields; pads the part above to exactly 1024 bytes. */
	__u8	__reserved[116 * 8];

	/*
	 * Data ring buffer control.  data_head only grows: read it, then
	 * issue a read barrier before reading records.  If the mapping
	 * is writable, store how far you have read in data_tail (after a
	 * full barrier) and the kernel will not overwrite unread data.
	 */
	__u64	data_head;		/* kernel's write position */
	__u64	data_tail;		/* user's read position */
	__u64	data_offset;		/* buffer start in the mapping */
	__u64	data_size;		/* buffer size */

	/*
	 * AUX buffer: user space sets aux_offset (at or after
	 * data_offset + data_size) and aux_size, then mmap()s that range.
	 * aux_head and aux_tail work like data_head and data_tail.
	 */
	__u64	aux_head;
	__u64	aux_tail;
	__u64	aux_offset;
	__u64	aux_size;
};

/*
 * perf_event_header::misc bits.  Bits 2..0 give the CPU mode; bits 13
 * and 14 mean different things depending on the record type.
 */
#define PERF_RECORD_MISC_CPUMODE_MASK		0x7
#define PERF_RECORD_MISC_CPUMODE_UNKNOWN	0x0
#define PERF_RECORD_MISC_KERNEL			0x1
#define PERF_RECORD_MISC_USER			0x2
#define PERF_RECORD_MISC_HYPERVISOR		0x3
#define PERF_RECORD_MISC_GUEST_KERNEL		0x4
#define PERF_RECORD_MISC_GUEST_USER		0x5

/* Synthesized MMAP records stopped early: /proc/PID/maps took too long. */
#define PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT	0x1000

/* Bit 13 */
#define PERF_RECORD_MISC_MMAP_DATA		0x2000 /* MMAP*: not exec */
#define PERF_RECORD_MISC_COMM_EXEC		0x2000 /* COMM: from exec */
#define PERF_RECORD_MISC_FORK_EXEC		0x2000 /* FORK: tool use */
#define PERF_RECORD_MISC_SWITCH_OUT		0x2000 /* SWITCH*: out */

/* Bit 14 */
#define PERF_RECORD_MISC_EXACT_IP		0x4000 /* SAMPLE: no skid */
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT	0x4000 /* SWITCH*: preempted */
#define PERF_RECORD_MISC_MMAP_BUILD_ID		0x4000 /* MMAP2: build id */

/* Bit 15: kept for a future extended misc field. */
#define PERF_RECORD_MISC_EXT_RESERVED		0x8000

/* Start of every record in the ring buffer; size includes the header. */
struct perf_event_header {
	__u32	type;			/* enum perf_event_type */
	__u16	misc;			/* PERF_RECORD_MISC_* */
	__u16	size;
};

/* One namespace in PERF_RECORD_NAMESPACES. */
struct perf_ns_link_info {
	__u64	dev;
	__u64	ino;
};

/* Position of each namespace in PERF_RECORD_NAMESPACES. */
enum {
	NET_NS_INDEX		= 0,
	UTS_NS_INDEX		= 1,
	IPC_NS_INDEX		= 2,
	PID_NS_INDEX		= 3,
	USER_NS_INDEX		= 4,
	MNT_NS_INDEX		= 5,
	CGROUP_NS_INDEX		= 6,

	NR_NAMESPACES,		/* how many there are */
};

/*
 * perf_event_header::type.  Each record is listed with its body after
 * the header.  "sample_id" is a trailer present on every record except
 * SAMPLE when attr.sample_id_all is set; it holds, in this order and
 * each only if selected in sample_type:
 *	u32 pid, tid (TID); u64 time (TIME); u64 id (ID);
 *	u64 stream_id (STREAM_ID); u32 cpu, res (CPU); u64 id (IDENTIFIER)
 */
enum perf_event_type {
	/*
	 * An executable mapping was created.
	 *	u32 pid, tid; u64 addr, len, pgoff; char filename[];
	 *	sample_id
	 */
	PERF_RECORD_MMAP			= 1,

	/*
	 * Records were dropped because the buffer was full.
	 *	u64 id, lost; sample_id
	 */
	PERF_RECORD_LOST			= 2,

	/*
	 * A task changed its name.
	 *	u32 pid, tid; char comm[]; sample_id
	 */
	PERF_RECORD_COMM			= 3,

	/*
	 * A task exited.
	 *	u32 pid, ppid, tid, ptid; u64 time; sample_id
	 */
	PERF_RECORD_EXIT			= 4,

	/*
	 * Sampling was throttled or unthrottled.
	 *	u64 time, id, stream_id; sample_id
	 */
	PERF_RECORD_THROTTLE			= 5,
	PERF_RECORD_UNTHROTTLE			= 6,

	/*
	 * A task was created.
	 *	u32 pid, ppid, tid, ptid; u64 time; sample_id
	 */
	PERF_RECORD_FORK			= 7,

	/*
	 * Counts of an inherited event when a child exits (inherit_stat).
	 *	u32 pid, tid; read_format values; sample_id
	 */
	PERF_RECORD_READ			= 8,

	/*
	 * A sample.  Fields, in this order, each only when its
	 * PERF_SAMPLE_* bit is set in attr.sample_type:
	 *	IDENTIFIER	u64 id (always first, for parsers)
	 *	IP		u64 ip
	 *	TID		u32 pid, tid
	 *	TIME		u64 time
	 *	ADDR		u64 addr
	 *	ID		u64 id
	 *	STREAM_ID	u64 stream_id
	 *	CPU		u32 cpu, res
	 *	PERIOD		u64 period
	 *	READ		read_format values
	 *	CALLCHAIN	u64 nr, ips[nr]
	 *	RAW		u32 size; char data[size] (contents not ABI)
	 *	BRANCH_STACK	u64 nr; u64 hw_idx (if BRANCH_HW_INDEX);
	 *			struct perf_branch_entry lbr[nr]
	 *	REGS_USER	u64 abi; u64 regs[popcount(sample_regs_user)]
	 *	STACK_USER	u64 size; char data[size]; u64 dyn_size
	 *			(dyn_size only if size != 0)
	 *	WEIGHT or
	 *	WEIGHT_STRUCT	union perf_sample_weight
	 *	DATA_SRC	u64 data_src (union perf_mem_data_src)
	 *	TRANSACTION	u64 transaction (PERF_TXN_*)
	 *	REGS_INTR	u64 abi; u64 regs[popcount(sample_regs_intr)]
	 *	PHYS_ADDR	u64 phys_addr
	 *	CGROUP		u64 cgroup id
	 *	DATA_PAGE_SIZE	u64 data_page_size
	 *	CODE_PAGE_SIZE	u64 code_page_size
	 *	AUX		u64 size; char data[size]
	 * The abi words hold enum perf_sample_regs_abi; with
	 * PERF_SAMPLE_REGS_ABI_NONE no regs follow.
	 */
	PERF_RECORD_SAMPLE			= 9,

	/*
	 * MMAP with the identity of the mapped file.
	 *	u32 pid, tid; u64 addr, len, pgoff;
	 *	either u32 maj, min; u64 ino, ino_generation;
	 *	or (misc has MMAP_BUILD_ID)
	 *	   u8 build_id_size, pad; u16 pad; u8 build_id[20];
	 *	u32 prot, flags; char filename[]; sample_id
	 */
	PERF_RECORD_MMAP2			= 10,

	/*
	 * New data in the AUX buffer.
	 *	u64 aux_offset, aux_size, flags (PERF_AUX_FLAG_*);
	 *	sample_id
	 */
	PERF_RECORD_AUX				= 11,

	/*
	 * Instruction tracing started for a task.
	 *	u32 pid, tid; sample_id
	 */
	PERF_RECORD_ITRACE_START		= 12,

	/*
	 * Samples the PMU or kernel dropped.
	 *	u64 lost; sample_id
	 */
	PERF_RECORD_LOST_SAMPLES		= 13,

	/*
	 * The task was switched in or out (misc SWITCH_OUT).
	 *	sample_id
	 */
	PERF_RECORD_SWITCH			= 14,

	/*
	 * The same for a CPU-wide event, naming the other task: the next
	 * one when switching out, the previous one when switching in.
	 *	u32 next_prev_pid, next_prev_tid; sample_id
	 */
	PERF_RECORD_SWITCH_CPU_WIDE		= 15,

	/*
	 * The namespaces of a new task, indexed by *_NS_INDEX.
	 *	u32 pid, tid; u64 nr_namespaces;
	 *	struct perf_ns_link_info ns[nr_namespaces]; sample_id
	 */
	PERF_RECORD_NAMESPACES			= 16,

	/*
	 * A kernel symbol appeared or went away.
	 *	u64 addr; u32 len; u16 ksym_type (perf_record_ksymbol_type);
	 *	u16 flags (PERF_RECORD_KSYMBOL_FLAGS_*); char name[];
	 *	sample_id
	 */
	PERF_RECORD_KSYMBOL			= 17,

	/*
	 * A BPF program was loaded or unloaded.
	 *	u16 type (perf_bpf_event_type); u16 flags; u32 id;
	 *	u8 tag[BPF_TAG_SIZE]; sample_id
	 */
	PERF_RECORD_BPF_EVENT			= 18,

	/*
	 * A cgroup was created.
	 *	u64 id; char path[]; sample_id
	 */
	PERF_RECORD_CGROUP			= 19,

	/*
	 * Kernel text was changed: old_len old bytes then new_len new
	 * bytes (either length may be 0).
	 *	u64 addr; u16 old_len, new_len; u8 bytes[]; sample_id
	 */
	PERF_RECORD_TEXT_POKE			= 20,

	/*
	 * Hardware id under which aux_output data of the event identified
	 * by sample_id appears in the AUX buffer.
	 *	u64 hw_id; sample_id
	 */
	PERF_RECORD_AUX_OUTPUT_HW_ID		= 21,

	PERF_RECORD_MAX,			/* not ABI */
};

/* PERF_RECORD_KSYMBOL ksym_type. */
enum perf_record_ksymbol_type {
	PERF_RECORD_KSYMBOL_TYPE_UNKNOWN	= 0,
	PERF_RECORD_KSYMBOL_TYPE_BPF		= 1,
	PERF_RECORD_KSYMBOL_TYPE_OOL		= 2,	/* out-of-line code */
	PERF_RECORD_KSYMBOL_TYPE_MAX		/* not ABI */
};

/* PERF_RECORD_KSYMBOL flags: set when the symbol is going away. */
#define PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER	0x1

/* PERF_RECORD_BPF_EVENT type. */
enum perf_bpf_event_type {
	PERF_BPF_EVENT_UNKNOWN		= 0,
	PERF_BPF_EVENT_PROG_LOAD	= 1,
	PERF_BPF_EVENT_PROG_UNLOAD	= 2,
	PERF_BPF_EVENT_MAX,		/* not ABI */
};

/* Default callchain depth limit and marker limit per callchain. */
#define PERF_MAX_STACK_DEPTH		127
#define PERF_MAX_CONTEXTS_PER_STACK	8

/*
 * Markers among callchain ips: the entries that follow belong to this
 * context.  Any value >= PERF_CONTEXT_MAX is a marker, not an address.
 */
enum perf_callchain_context {
	PERF_CONTEXT_HV			= (__u64)-32,
	PERF_CONTEXT_KERNEL		= (__u64)-128,
	PERF_CONTEXT_USER		= (__u64)-512,

	PERF_CONTEXT_GUEST		= (__u64)-2048,
	PERF_CONTEXT_GUEST_KERNEL	= (__u64)-2176,
	PERF_CONTEXT_GUEST_USER		= (__u64)-2560,

	PERF_CONTEXT_MAX		= (__u64)-4095,
};

/* PERF_RECORD_AUX flags. */
#define PERF_AUX_FLAG_TRUNCATED			0x01	/* cut short to fit */
#define PERF_AUX_FLAG_OVERWRITE			0x02	/* overwrite-mode snapshot */
#define PERF_AUX_FLAG_PARTIAL			0x04	/* data has gaps */
#define PERF_AUX_FLAG_COLLISION			0x08	/* sample collided */
#define PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK	0xff00	/* PMU's data format */

/* Values in PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK for Arm CoreSight. */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT	0x0000	/* formatted */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW		0x0100	/* raw source */

/* flags argument of perf_event_open(2). */
#define PERF_FLAG_FD_NO_GROUP		0x1UL	/* ignore group_fd */
#define PERF_FLAG_FD_OUTPUT		0x2UL	/* output to group_fd */
#define PERF_FLAG_PID_CGROUP		0x4UL	/* pid is a cgroup fd */
#define PERF_FLAG_FD_CLOEXEC		0x8UL	/* close on exec */

/*
 * PERF_SAMPLE_DATA_SRC: where a sampled memory access was served from.
 * The field positions inside val are the same on every byte order;
 * they are the PERF_MEM_*_SHIFT values below.
 */
#if defined(__LITTLE_ENDIAN_BITFIELD)
union perf_mem_data_src {
	__u64 val;
	struct {
		__u64	mem_op		: 5,	/* PERF_MEM_OP_* */
			mem_lvl		: 14,	/* PERF_MEM_LVL_* */
			mem_snoop	: 5,	/* PERF_MEM_SNOOP_* */
			mem_lock	: 2,	/* PERF_MEM_LOCK_* */
			mem_dtlb	: 7,	/* PERF_MEM_TLB_* */
			mem_lvl_num	: 4,	/* PERF_MEM_LVLNUM_* */
			mem_remote	: 1,	/* PERF_MEM_REMOTE_* */
			mem_snoopx	: 2,	/* PERF_MEM_SNOOPX_* */
			mem_blk		: 3,	/* PERF_MEM_BLK_* */
			mem_hops	: 3,	/* PERF_MEM_HOPS_* */
			mem_rsvd	: 18;
	};
};
#elif defined(__BIG_ENDIAN_BITFIELD)
union perf_mem_data_src {
	__u64 val;
	struct {
		__u64	mem_rsvd	: 18,
			mem_hops	: 3,
			mem_blk		: 3,
			mem_snoopx	: 2,
			mem_remote	: 1,
			mem_lvl_num	: 4,
			mem_dtlb	: 7,
			mem_lock	: 2,
			mem_snoop	: 5,
			mem_lvl		: 14,
			mem_op		: 5;
	};
};
#else
#error "byte order of bitfields is not defined"
#endif

/* mem_op: kind of access */
#define PERF_MEM_OP_NA		0x01	/* unknown */
#define PERF_MEM_OP_LOAD	0x02
#define PERF_MEM_OP_STORE	0x04
#define PERF_MEM_OP_PFETCH	0x08	/* prefetch */
#define PERF_MEM_OP_EXEC	0x10	/* instruction fetch */
#define PERF_MEM_OP_SHIFT	0

/*
 * mem_lvl: level and hit/miss.  Older encoding, still reported; new
 * code should prefer mem_lvl_num, mem_remote and mem_snoopx.
 */
#define PERF_MEM_LVL_NA		0x01	/* unknown */
#define PERF_MEM_LVL_HIT	0x02
#define PERF_MEM_LVL_MISS	0x04
#define PERF_MEM_LVL_L1		0x08
#define PERF_MEM_LVL_LFB	0x10	/* line fill buffer */
#define PERF_MEM_LVL_L2		0x20
#define PERF_MEM_LVL_L3		0x40
#define PERF_MEM_LVL_LOC_RAM	0x80	/* local DRAM */
#define PERF_MEM_LVL_REM_RAM1	0x100	/* DRAM one hop away */
#define PERF_MEM_LVL_REM_RAM2	0x200	/* DRAM two hops away */
#define PERF_MEM_LVL_REM_CCE1	0x400	/* cache one hop away */
#define PERF_MEM_LVL_REM_CCE2	0x800	/* cache two hops away */
#define PERF_MEM_LVL_IO		0x1000	/* I/O memory */
#define PERF_MEM_LVL_UNC	0x2000	/* uncached */
#define PERF_MEM_LVL_SHIFT	5

/* mem_remote */
#define PERF_MEM_REMOTE_REMOTE	0x01	/* on another node */
#define PERF_MEM_REMOTE_SHIFT	37

/* mem_lvl_num: level that served the access; 0x05..0x08 unused */
#define PERF_MEM_LVLNUM_L1	0x01
#define PERF_MEM_LVLNUM_L2	0x02
#define PERF_MEM_LVLNUM_L3	0x03
#define PERF_MEM_LVLNUM_L4	0x04
#define PERF_MEM_LVLNUM_CXL	0x09	/* CXL memory */
#define PERF_MEM_LVLNUM_IO	0x0a	/* I/O memory */
#define PERF_MEM_LVLNUM_ANY_CACHE 0x0b	/* some cache */
#define PERF_MEM_LVLNUM_LFB	0x0c	/* line fill buffer */
#define PERF_MEM_LVLNUM_RAM	0x0d	/* DRAM */
#define PERF_MEM_LVLNUM_PMEM	0x0e	/* persistent memory */
#define PERF_MEM_LVLNUM_NA	0x0f	/* unknown */

#define PERF_MEM_LVLNUM_SHIFT	33

/* mem_snoop */
#define PERF_MEM_SNOOP_NA	0x01	/* unknown */
#define PERF_MEM_SNOOP_NONE	0x02	/* not snooped */
#define PERF_MEM_SNOOP_HIT	0x04
#define PERF_MEM_SNOOP_MISS	0x08
#define PERF_MEM_SNOOP_HITM	0x10	/* hit a modified line */
#define PERF_MEM_SNOOP_SHIFT	19

/* mem_snoopx: snoop extension */
#define PERF_MEM_SNOOPX_FWD	0x01	/* forwarded */
#define PERF_MEM_SNOOPX_PEER	0x02	/* from a peer cache */
#define PERF_MEM_SNOOPX_SHIFT	38

/* mem_lock */
#define PERF_MEM_LOCK_NA	0x01	/* unknown */
#define PERF_MEM_LOCK_LOCKED	0x02	/* locked access */
#define PERF_MEM_LOCK_SHIFT	24

/* mem_dtlb: TLB result */
#define PERF_MEM_TLB_NA		0x01	/* unknown */
#define PERF_MEM_TLB_HIT	0x02
#define PERF_MEM_TLB_MISS	0x04
#define PERF_MEM_TLB_L1		0x08
#define PERF_MEM_TLB_L2		0x10
#define PERF_MEM_TLB_WK		0x20	/* hardware page walker */
#define PERF_MEM_TLB_OS		0x40	/* OS fault handler */
#define PERF_MEM_TLB_SHIFT	26

/* mem_blk: why the access was blocked */
#define PERF_MEM_BLK_NA		0x01	/* unknown */
#define PERF_MEM_BLK_DATA	0x02	/* data not forwardable */
#define PERF_MEM_BLK_ADDR	0x04	/* address conflict */
#define PERF_MEM_BLK_SHIFT	40

/* mem_hops: how far away the serving cache was; 0x05..0x07 unused */
#define PERF_MEM_HOPS_0		0x01	/* other core, same node */
#define PERF_MEM_HOPS_1		0x02	/* other node, same socket */
#define PERF_MEM_HOPS_2		0x03	/* other socket, same board */
#define PERF_MEM_HOPS_3		0x04	/* other board */
#define PERF_MEM_HOPS_SHIFT	43

/* Place value PERF_MEM_<a>_<s> in its field, e.g. PERF_MEM_S(LVL, HIT). */
#define PERF_MEM_S(a, s) \
	(((__u64)PERF_MEM_##a##_##s) << PERF_MEM_##a##_SHIFT)

/*
 * One entry of a PERF_SAMPLE_BRANCH_STACK: a taken branch from "from"
 * to "to".  Flag fields the hardware cannot report read as zero.
 */
struct perf_branch_entry {
	__u64	from;
	__u64	to;
	__u64	mispred		: 1,	/* target was mispredicted */
		predicted	: 1,	/* target was predicted */
		in_tx		: 1,	/* inside a TM transaction */
		abort		: 1,	/* this aborted a transaction */
		cycles		: 16,	/* cycles since previous branch */
		type		: 4,	/* PERF_BR_* */
		spec		: 2,	/* PERF_BR_SPEC_* */
		new_type	: 4,	/* PERF_BR_NEW_* */
		priv		: 3,	/* PERF_BR_PRIV_* */
		reserved	: 31;
};

/*
 * Weight of a sample: one u64 with PERF_SAMPLE_WEIGHT, or three
 * smaller values with PERF_SAMPLE_WEIGHT_STRUCT.  var1_dw is always
 * the low 32 bits of full, var2_w bits 47..32, var3_w bits 63..48.
 */
union perf_sample_weight {
	__u64		full;
#if defined(__LITTLE_ENDIAN_BITFIELD)
	struct {
		__u32	var1_dw;
		__u16	var2_w;
		__u16	var3_w;
	};
#elif defined(__BIG_ENDIAN_BITFIELD)
	struct {
		__u16	var3_w;
		__u16	var2_w;
		__u32	var1_dw;
	};
#else
#error "byte order of bitfields is not defined"
#endif
};

#endif /* _UAPI_LINUX_PERF_EVENT_H */
