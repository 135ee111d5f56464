// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_MMAP and PERF_RECORD_MMAP2: a task mapped something, so
 * that tools can tell which code or data an address belongs to.
 *
 * Executable mappings go to the events with attr.mmap or attr.mmap2,
 * the others (with PERF_RECORD_MISC_MMAP_DATA) to those with
 * attr.mmap_data.  An event with mmap2 gets the longer record, which
 * identifies the mapped file by device, inode and generation, or with
 * attr.build_id by the build id of the ELF file
 * (PERF_RECORD_MISC_MMAP_BUILD_ID), and adds the protection and the
 * MAP_SHARED or MAP_PRIVATE flags.
 *
 * The name: the file's path; for memory without a file, the name its
 * special mapping gives ("[vdso]"), "[heap]", "[stack]", or "//anon".
 * It ends with NULs up to the next 8 bytes.  pgoff is the offset in
 * bytes; an anonymous mapping's is its address.
 *
 * Records go out delivered as in records.c: to the mapping task's
 * events and to the CPU-wide events of the CPU it runs on.
 */
#include <linux/perf_event.h>
#include <linux/buildid.h>
#include <linux/dcache.h>
#include <linux/hugetlb_inline.h>
#include <linux/kdev_t.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/slab.h>

#include "internal.h"

/* What the records say of one mapping, looked up before the walk. */
struct perf_mmap_sb {
	struct vm_area_struct	*vma;
	bool			exec;
	u16			misc;
	char			*name;
	unsigned int		name_size;	/* padded to 8 */
	u32			maj;
	u32			min;
	u64			ino;
	u64			ino_generation;
	u32			prot;
	u32			flags;
	u32			build_id_size;	/* 0: none */
	u8			build_id[BUILD_ID_SIZE_MAX];
};

/* The record's fixed part, up to pgoff; MMAP2 adds its own after. */
struct perf_mmap_head {
	u32	pid;
	u32	tid;
	u64	addr;
	u64	len;
	u64	pgoff;
};

/**
 * perf_mmap_prot_flags - the prot and flags an MMAP2 record reports
 * @vm_flags: the mapping's VM_* flags
 * @hugetlb: whether it maps huge pages
 * @prot: PROT_* bits
 * @flags: MAP_SHARED or MAP_PRIVATE, MAP_LOCKED and MAP_HUGETLB
 */
void perf_mmap_prot_flags(unsigned long vm_flags, bool hugetlb, u32 *prot,
			  u32 *flags)
{
	*prot = 0;
	if (vm_flags & VM_READ)
		*prot |= PROT_READ;
	if (vm_flags & VM_WRITE)
		*prot |= PROT_WRITE;
	if (vm_flags & VM_EXEC)
		*prot |= PROT_EXEC;

	*flags = vm_flags & VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE;
	if (vm_flags & VM_LOCKED)
		*flags |= MAP_LOCKED;
	if (hugetlb)
		*flags |= MAP_HUGETLB;
}

/**
 * perf_mmap_anon_name - the name of a mapping without a file
 * @vma: the mapping
 *
 * Return: the name its special mapping (or the architecture) gives it,
 * "[heap]" for the brk area, "[stack]" for the main stack, else "//anon".
 */
const char *perf_mmap_anon_name(struct vm_area_struct *vma)
{
	struct mm_struct *mm = vma->vm_mm;
	const char *name = NULL;

	if (vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);
	if (!name)
		name = arch_vma_name(vma);
	if (name)
		return name;
	if (vma->vm_start <= mm->start_brk && vma->vm_end >= mm->brk)
		return "[heap]";
	if (vma->vm_start <= mm->start_stack &&
	    vma->vm_end >= mm->start_stack)
		return "[stack]";
	return "//anon";
}

/*
 * Fill in the name and the file's identity; @buf has PATH_MAX bytes.
 * The name's field is padded with NULs to a multiple of 8 bytes.
 */
static void perf_mmap_describe(struct perf_mmap_sb *m, char *buf)
{
	struct vm_area_struct *vma = m->vma;
	struct file *file = vma->vm_file;
	struct inode *inode;
	unsigned int len;
	char *name;

	if (file) {
		inode = file_inode(file);
		m->maj = MAJOR(inode->i_sb->s_dev);
		m->min = MINOR(inode->i_sb->s_dev);
		m->ino = inode->i_ino;
		m->ino_generation = inode->i_generation;
		/* d_path() ends the name at the end of what it is given. */
		name = d_path(&file->f_path, buf, PATH_MAX - sizeof(u64));
		if (IS_ERR(name)) {
			name = buf;
			strscpy(buf, "//toolong", PATH_MAX);
		}
	} else {
		name = buf;
		strscpy(buf, perf_mmap_anon_name(vma), PATH_MAX - sizeof(u64));
	}
	len = strlen(name) + 1;
	m->name = name;
	m->name_size = ALIGN(len, sizeof(u64));
	/* There are at least 8 bytes after the name's NUL in @buf. */
	memset(name + len, 0, m->name_size - len);
}

static void perf_mmap_output(struct perf_event *event, void *data)
{
	struct perf_mmap_sb *m = data;
	struct perf_event_header header = { .misc = m->misc };
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct perf_mmap_head head;
	struct vm_area_struct *vma = m->vma;
	bool build_id;

	if (m->exec ? !event->attr.mmap && !event->attr.mmap2 :
		      !event->attr.mmap_data)
		return;

	head.pid = perf_record_pid(event, current, PIDTYPE_TGID);
	head.tid = perf_record_pid(event, current, PIDTYPE_PID);
	head.addr = vma->vm_start;
	head.len = vma->vm_end - vma->vm_start;
	head.pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;

	if (!event->attr.mmap2) {
		header.type = PERF_RECORD_MMAP;
		perf_sb_output(event, &header, &head, sizeof(head), m->name,
			       m->name_size);
		return;
	}

	header.type = PERF_RECORD_MMAP2;
	build_id = event->attr.build_id && m->build_id_size;
	if (build_id)
		header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	/* The file's identity (24 bytes either way), prot and flags. */
	header.size = sizeof(header) + sizeof(head) + 24 + 2 * sizeof(u32) +
		      m->name_size + perf_sample_id_size(event);
	perf_sample_id_prepare(&sample, event);
	if (perf_output_begin(&handle, &sample, event, header.size))
		return;
	perf_output_put(&handle, header);
	perf_output_put(&handle, head);
	if (build_id) {
		u8 size[4] = { m->build_id_size };

		perf_output_put(&handle, size);
		perf_output_put(&handle, m->build_id);
	} else {
		perf_output_put(&handle, m->maj);
		perf_output_put(&handle, m->min);
		perf_output_put(&handle, m->ino);
		perf_output_put(&handle, m->ino_generation);
	}
	perf_output_put(&handle, m->prot);
	perf_output_put(&handle, m->flags);
	perf_output_copy(&handle, m->name, m->name_size);
	perf_output_sample_id(&handle, event, &sample);
	perf_output_end(&handle);
}

/**
 * perf_event_mmap - a mapping was created, grown or changed
 * @vma: the mapping
 *
 * From mmap(), brk(), stack growth, mprotect() and the special mappings
 * of exec, with the mmap lock held.  Writes PERF_RECORD_MMAP or _MMAP2
 * for the events that want this kind of mapping.  May sleep.
 */
void perf_event_mmap(struct vm_area_struct *vma)
{
	struct perf_mmap_sb *m;
	bool exec = vma->vm_flags & VM_EXEC;
	char *buf;

	if (!atomic_read(&perf_sb_nr[exec ? PERF_SB_MMAP_EXEC :
					    PERF_SB_MMAP_DATA]))
		return;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!m || !buf)
		goto out;

	m->vma = vma;
	m->exec = exec;
	m->misc = PERF_RECORD_MISC_USER;
	if (!exec)
		m->misc |= PERF_RECORD_MISC_MMAP_DATA;
	perf_mmap_prot_flags(vma->vm_flags, is_vm_hugetlb_page(vma), &m->prot,
			     &m->flags);
	perf_mmap_describe(m, buf);
	if (vma->vm_file && atomic_read(&perf_sb_nr[PERF_SB_BUILD_ID]) &&
	    build_id_parse(vma, m->build_id, &m->build_id_size))
		m->build_id_size = 0;

	perf_sb_deliver(NULL, true, true, perf_mmap_output, m);
out:
	kfree(buf);
	kfree(m);
}
