// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_MMAP and PERF_RECORD_MMAP2, as Linux 6.1 writes them.
 *
 * attr.mmap and attr.mmap2 ask for executable mappings, attr.mmap_data
 * for the others (with PERF_RECORD_MISC_MMAP_DATA); mmap2 selects the
 * longer record with the file's identity (device, inode, generation, or
 * with attr.build_id the file's build id and PERF_RECORD_MISC_MMAP_BUILD_ID),
 * the protection and the MAP_SHARED/MAP_PRIVATE flags.  Names: the file's
 * path, "//anon", "[heap]", "[stack]", "[vdso]"; padded with NULs to 8
 * bytes.  pgoff is the file offset in bytes (an anonymous mapping's is
 * its address).  Records go to the events of the mapping task and to the
 * CPU-wide events of the CPU it runs on.
 *
 * The tests ask for mmap2 together with mmap, as perf does: 6.1 skips
 * its MMAP work while no event has mmap or mmap_data set, even if some
 * have mmap2.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/elf.h>

#include "perf_test_util.h"
#include "perf_record_util.h"
#include "../kselftest_harness.h"

#define RB_PAGES	32

static char rbuf[RB_COPY_MAX];

struct mmap_rec {
	struct perf_event_header h;
	__u32 pid, tid;
	__u64 addr, len, pgoff;
	char name[];
};

struct mmap2_rec {
	struct perf_event_header h;
	__u32 pid, tid;
	__u64 addr, len, pgoff;
	union {
		struct {
			__u32 maj, min;
			__u64 ino, ino_generation;
		};
		struct {
			__u8 build_id_size, res1;
			__u16 res2;
			__u8 build_id[20];
		};
	};
	__u32 prot, flags;
	char name[];
};

FIXTURE(mm) {
	int cpu;
	struct perf_event_attr attr;
	struct rb_event ev;
	char path[PATH_MAX];
	int file;
	size_t psz;
};

FIXTURE_SETUP(mm)
{
	char page[4096];

	self->ev.fd = -1;
	self->ev.ring.map = NULL;
	self->psz = getpagesize();
	ASSERT_EQ(1, allowed_cpus(&self->cpu, 1));
	ASSERT_EQ(0, pin_to_cpu(self->cpu));
	sb_attr_init(&self->attr);
	/* MMAP2 records, asked for with mmap as perf does (see above). */
	self->attr.mmap = 1;
	self->attr.mmap2 = 1;

	/* A file of three pages in the working directory (a tmpfs). */
	strcpy(self->path, "/tmp/record_mmap_XXXXXX");
	self->file = mkstemp(self->path);
	ASSERT_LE(0, self->file);
	memset(page, 0xc3, sizeof(page));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(sizeof(page), write(self->file, page, sizeof(page)));
}

FIXTURE_TEARDOWN(mm)
{
	rb_event_close(&self->ev);
	close(self->file);
	unlink(self->path);
}

/* Everything the event's buffer holds, into rbuf. */
static ssize_t drain(struct __test_metadata *_metadata, struct rb_event *ev)
{
	ssize_t len = rec_drain(&ev->ring, rbuf, sizeof(rbuf));

	EXPECT_LE(0, len);
	return len < 0 ? 0 : len;
}

/* The MMAP or MMAP2 record of the mapping at @addr, or NULL. */
static struct perf_event_header *find_map(char *buf, ssize_t len, void *addr)
{
	struct perf_event_header *h;

	rec_for_each(h, buf, len) {
		if ((h->type == PERF_RECORD_MMAP ||
		     h->type == PERF_RECORD_MMAP2) &&
		    ((struct mmap_rec *)h)->addr == (uintptr_t)addr)
			return h;
	}
	return NULL;
}

/* Drain @ev: the record of the mapping at @addr, which must be there. */
static struct perf_event_header *drain_find(struct __test_metadata *_metadata,
					    struct rb_event *ev, void *addr)
{
	struct perf_event_header *h = find_map(rbuf, drain(_metadata, ev),
					       addr);

	ASSERT_NE(NULL, h);
	return h;
}

/*
 * mmap() @len bytes of @fd from @off, drain the fixture's event and unmap
 * again: the record of the mapping, which must be there; *@addr is where
 * the mapping was.
 */
static struct perf_event_header *map_record(struct __test_metadata *_metadata,
					    FIXTURE_DATA(mm) *self, int fd,
					    size_t len, int prot, int flags,
					    off_t off, void **addr)
{
	struct perf_event_header *h;

	*addr = mmap(NULL, len, prot, flags, fd, off);
	ASSERT_NE(MAP_FAILED, *addr);
	h = drain_find(_metadata, &self->ev, *addr);
	munmap(*addr, len);
	return h;
}

/* The sample_id trailer: our task, the fixture's event, our CPU. */
static void check_trailer(struct __test_metadata *_metadata,
			  FIXTURE_DATA(mm) *self, struct perf_event_header *h)
{
	struct rec_sample_id sid;

	ASSERT_LE(0, rec_sample_id(h, SB_SAMPLE_TYPE, &sid));
	EXPECT_EQ(getpid(), sid.pid);
	EXPECT_EQ(gettid(), sid.tid);
	EXPECT_NE(0, sid.time);
	EXPECT_EQ(self->ev.id, sid.id);
	EXPECT_EQ(self->ev.id, sid.stream_id);
	EXPECT_EQ(self->ev.id, sid.identifier);
	EXPECT_EQ(self->cpu, sid.cpu);
	EXPECT_EQ(0, sid.res);
}

/* Check an MMAP2 record's fields, but for the file's identity. */
static void check_mmap2(struct __test_metadata *_metadata,
			struct perf_event_header *h, void *addr, size_t len,
			__u64 pgoff, __u32 prot, __u32 flags, const char *name,
			__u16 misc)
{
	struct mmap2_rec *m = (struct mmap2_rec *)h;
	struct rec_sample_id sid;
	ssize_t body;

	ASSERT_EQ(PERF_RECORD_MMAP2, h->type);
	body = rec_sample_id(h, SB_SAMPLE_TYPE, &sid);
	ASSERT_LT((ssize_t)sizeof(*m) - 8, body);
	EXPECT_EQ(misc, h->misc);
	EXPECT_EQ(getpid(), m->pid);
	EXPECT_EQ(gettid(), m->tid);
	EXPECT_EQ((uintptr_t)addr, m->addr);
	EXPECT_EQ(len, m->len);
	EXPECT_EQ(pgoff, m->pgoff);
	EXPECT_EQ(prot, m->prot);
	EXPECT_EQ(flags, m->flags);
	EXPECT_STREQ(name, m->name);
	EXPECT_TRUE(rec_string_ok(m->name, body - (sizeof(*m) - 8)));
}

/* An executable file mapping: MMAP2 with the file's identity. */
TEST_F(mm, mmap2_exec_file)
{
	struct perf_event_header *h;
	struct mmap2_rec *m;
	struct stat st;
	void *p;

	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	ASSERT_EQ(0, fstat(self->file, &st));

	h = map_record(_metadata, self, self->file, 2 * self->psz,
		       PROT_READ | PROT_EXEC, MAP_PRIVATE, self->psz, &p);
	check_mmap2(_metadata, h, p, 2 * self->psz, self->psz,
		    PROT_READ | PROT_EXEC, MAP_PRIVATE, self->path,
		    PERF_RECORD_MISC_USER);
	m = (struct mmap2_rec *)h;
	EXPECT_EQ(major(st.st_dev), m->maj);
	EXPECT_EQ(minor(st.st_dev), m->min);
	EXPECT_EQ(st.st_ino, m->ino);
	check_trailer(_metadata, self, h);
}

/* A shared writable executable mapping: MAP_SHARED and all of prot. */
TEST_F(mm, mmap2_shared_rwx)
{
	struct perf_event_header *h;
	void *p;

	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	h = map_record(_metadata, self, self->file, self->psz,
		       PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED, 0, &p);
	check_mmap2(_metadata, h, p, self->psz, 0,
		    PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED, self->path,
		    PERF_RECORD_MISC_USER);
}

/* attr.mmap alone: the short record. */
TEST_F(mm, mmap_exec_file)
{
	struct perf_event_header *h;
	struct rec_sample_id sid;
	struct mmap_rec *m;
	ssize_t body;
	void *p;

	self->attr.mmap2 = 0;
	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	h = map_record(_metadata, self, self->file, self->psz,
		       PROT_READ | PROT_EXEC, MAP_PRIVATE, 2 * self->psz, &p);
	m = (struct mmap_rec *)h;
	EXPECT_EQ(PERF_RECORD_MMAP, h->type);
	EXPECT_EQ(PERF_RECORD_MISC_USER, h->misc);
	EXPECT_EQ(getpid(), m->pid);
	EXPECT_EQ(gettid(), m->tid);
	EXPECT_EQ(self->psz, m->len);
	EXPECT_EQ(2 * self->psz, m->pgoff);
	EXPECT_STREQ(self->path, m->name);
	body = rec_sample_id(h, SB_SAMPLE_TYPE, &sid);
	EXPECT_TRUE(rec_string_ok(m->name, body - (sizeof(*m) - 8)));
	check_trailer(_metadata, self, h);
}

/*
 * Map one anonymous page between two PROT_NONE pages, so that it merges
 * with nothing: returns its address, or MAP_FAILED.
 */
static void *map_lone_page(size_t psz, int prot)
{
	char *area = mmap(NULL, 3 * psz, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (area == MAP_FAILED)
		return area;
	return mmap(area + psz, psz, prot, MAP_PRIVATE | MAP_ANONYMOUS |
		    MAP_FIXED, -1, 0);
}

/* mmap_data: anonymous memory is "//anon", MMAP_DATA, pgoff its address. */
TEST_F(mm, mmap2_data_anon)
{
	struct perf_event_header *h;
	struct mmap2_rec *m;
	void *p;

	self->attr.mmap_data = 1;
	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	p = map_lone_page(self->psz, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, p);
	h = drain_find(_metadata, &self->ev, p);
	check_mmap2(_metadata, h, p, self->psz, (uintptr_t)p,
		    PROT_READ | PROT_WRITE, MAP_PRIVATE, "//anon",
		    PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	m = (struct mmap2_rec *)h;
	EXPECT_EQ(0, m->maj);
	EXPECT_EQ(0, m->min);
	EXPECT_EQ(0, m->ino);
	EXPECT_EQ(0, m->ino_generation);
	check_trailer(_metadata, self, h);
}

/* A data file mapping with mmap_data: the file's path, MMAP_DATA. */
TEST_F(mm, mmap2_data_file)
{
	struct perf_event_header *h;
	void *p;

	self->attr.mmap_data = 1;
	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	h = map_record(_metadata, self, self->file, self->psz, PROT_READ,
		       MAP_SHARED, 0, &p);
	check_mmap2(_metadata, h, p, self->psz, 0, PROT_READ, MAP_SHARED,
		    self->path,
		    PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
}

/*
 * Which records which event gets: mmap2 alone no data mappings;
 * mmap_data alone data mappings only, as short MMAP records.
 */
TEST_F(mm, data_and_exec_selection)
{
	struct perf_event_attr attr;
	struct rb_event ev2;
	void *data, *exec;
	struct perf_event_header *h;
	ssize_t len;

	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	sb_attr_init(&attr);
	attr.mmap_data = 1;
	ASSERT_EQ(0, rb_event_open(&ev2, &attr, 0, -1, RB_PAGES));

	data = map_lone_page(self->psz, PROT_READ);
	ASSERT_NE(MAP_FAILED, data);
	exec = mmap(NULL, self->psz, PROT_READ | PROT_EXEC, MAP_PRIVATE,
		    self->file, 0);
	ASSERT_NE(MAP_FAILED, exec);

	len = drain(_metadata, &self->ev);
	EXPECT_EQ(NULL, find_map(rbuf, len, data));
	EXPECT_NE(NULL, find_map(rbuf, len, exec));
	rec_for_each(h, rbuf, len)
		EXPECT_EQ(0, h->misc & PERF_RECORD_MISC_MMAP_DATA);

	len = drain(_metadata, &ev2);
	ASSERT_LT(0, len);
	EXPECT_EQ(NULL, find_map(rbuf, len, exec));
	h = find_map(rbuf, len, data);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(PERF_RECORD_MMAP, h->type);
	EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, h->misc);
	EXPECT_STREQ("//anon", ((struct mmap_rec *)h)->name);
	rec_for_each(h, rbuf, len)
		EXPECT_NE(0, h->misc & PERF_RECORD_MISC_MMAP_DATA);

	munmap(exec, self->psz);
	rb_event_close(&ev2);
}

/* mprotect() adding PROT_EXEC reports the mapping again. */
TEST_F(mm, mprotect_exec)
{
	struct perf_event_header *h;
	ssize_t len;
	void *p;

	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	p = map_lone_page(self->psz, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, p);
	len = drain(_metadata, &self->ev);
	EXPECT_EQ(NULL, find_map(rbuf, len, p));

	ASSERT_EQ(0, mprotect(p, self->psz, PROT_READ | PROT_EXEC));
	h = drain_find(_metadata, &self->ev, p);
	check_mmap2(_metadata, h, p, self->psz, (uintptr_t)p,
		    PROT_READ | PROT_EXEC, MAP_PRIVATE, "//anon",
		    PERF_RECORD_MISC_USER);
}

/*
 * The heap test runs this program again with RECORD_MMAP_SBRK set: it
 * grows its heap and exits, before the test harness starts.
 */
#define SBRK_ENV	"RECORD_MMAP_SBRK"

static void __attribute__((constructor)) sbrk_helper(void)
{
	if (!getenv(SBRK_ENV))
		return;
	_exit(sbrk(64 * getpagesize()) == (void *)-1 ? 1 : 0);
}

/*
 * Growing the heap: "[heap]", for a mapping that holds the start of the
 * brk area.  A fresh program's, that is: after fork() the brk area grows
 * in a new mapping (6.1 does not merge it with one a parent shares),
 * which is not the heap by that rule.
 */
TEST_F(mm, heap)
{
	struct perf_event_header *h;
	struct gated_child c;
	struct mmap2_rec *m;
	int found = 0;
	ssize_t len;
	pid_t pid;

	if (!fork_gated(&c, NULL)) {
		setenv(SBRK_ENV, "1", 1);
		execl("/proc/self/exe", "record_mmap_test", (char *)NULL);
		_exit(5);
	}
	pid = c.pid;
	ASSERT_LT(0, pid);
	self->attr.mmap_data = 1;
	ASSERT_EQ(0, rb_event_run_exec(&self->ev, &self->attr, &c, RB_PAGES));
	len = drain(_metadata, &self->ev);

	rec_for_each(h, rbuf, len) {
		m = (struct mmap2_rec *)h;
		if (h->type != PERF_RECORD_MMAP2 || strcmp(m->name, "[heap]"))
			continue;
		found++;
		EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA,
			  h->misc);
		EXPECT_EQ(pid, m->pid);
		EXPECT_EQ(pid, m->tid);
		EXPECT_EQ(PROT_READ | PROT_WRITE, m->prot);
		EXPECT_EQ(MAP_PRIVATE, m->flags);
		EXPECT_EQ(0, m->ino);
		EXPECT_NE(0, m->len);
		EXPECT_EQ(0, m->len % self->psz);
		EXPECT_EQ(m->addr >> 12, m->pgoff >> 12);
	}
	EXPECT_LE(1, found);
	if (!found) {
		rec_for_each(h, rbuf, len) {
			m = (struct mmap2_rec *)h;
			TH_LOG("type %u misc %x addr %llx len %llx %s", h->type,
			       h->misc, m->addr, m->len,
			       h->type == PERF_RECORD_MMAP2 ? m->name : "");
		}
	}
}

/* Touch @kb KiB of stack below the caller's frame, top down. */
static void grow_stack(size_t kb)
{
	char buf[1024];

	buf[0] = 1;
	/* Keep the store, and the frame. */
	asm volatile("" : : "r" (buf) : "memory");
	if (kb > 1)
		grow_stack(kb - 1);
	asm volatile("" : : "r" (buf) : "memory");
}

/* The stack growing down: "[stack]". */
TEST_F(mm, stack)
{
	struct perf_event_header *h;
	struct mmap2_rec *m;
	bool found = false;
	int here;
	ssize_t len;

	self->attr.mmap_data = 1;
	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	grow_stack(1024);
	len = drain(_metadata, &self->ev);

	rec_for_each(h, rbuf, len) {
		m = (struct mmap2_rec *)h;
		if (h->type != PERF_RECORD_MMAP2 || strcmp(m->name, "[stack]"))
			continue;
		found = true;
		EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA,
			  h->misc);
		EXPECT_EQ(PROT_READ | PROT_WRITE, m->prot & ~PROT_EXEC);
		EXPECT_EQ(MAP_PRIVATE, m->flags);
		EXPECT_LT(m->addr, (uintptr_t)&here);
		EXPECT_GT(m->addr + m->len, (uintptr_t)&here);
	}
	EXPECT_TRUE(found);
}

/* The type of the GNU note holding the build id. */
#define GNU_BUILD_ID	3

/*
 * The build id of the ELF file at @path, from its PT_NOTE segments;
 * its length, or 0 if it has none.
 */
static size_t file_build_id(const char *path, __u8 *id)
{
	static char buf[1 << 16];
	struct elf64_hdr *eh = (struct elf64_hdr *)buf;
	struct elf64_phdr *ph;
	ssize_t n;
	int fd, i;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < (ssize_t)sizeof(*eh) || memcmp(buf, ELFMAG, SELFMAG) ||
	    eh->e_phoff + eh->e_phnum * sizeof(*ph) > (size_t)n)
		return 0;
	for (i = 0; i < eh->e_phnum; i++) {
		size_t off, end;

		ph = (struct elf64_phdr *)(buf + eh->e_phoff) + i;
		if (ph->p_type != PT_NOTE)
			continue;
		off = ph->p_offset;
		end = off + ph->p_filesz;
		while (end <= (size_t)n && off + sizeof(struct elf64_note) <= end) {
			struct elf64_note *nh = (struct elf64_note *)(buf + off);
			size_t name = (nh->n_namesz + 3) & ~3;
			size_t desc = (nh->n_descsz + 3) & ~3;

			if (nh->n_type == GNU_BUILD_ID && nh->n_namesz == 4 &&
			    nh->n_descsz <= 20 &&
			    !memcmp(buf + off + sizeof(*nh), "GNU", 4)) {
				memcpy(id, buf + off + sizeof(*nh) + name,
				       nh->n_descsz);
				return nh->n_descsz;
			}
			off += sizeof(*nh) + name + desc;
		}
	}
	return 0;
}

/* attr.build_id: MMAP2 carries the build id instead of the inode. */
TEST_F(mm, mmap2_build_id)
{
	struct perf_event_header *h;
	char exe[PATH_MAX];
	struct mmap2_rec *m;
	__u8 want[20] = { 0 };
	size_t idlen;
	void *p;
	int fd;

	ASSERT_NE(NULL, realpath("/proc/self/exe", exe));
	idlen = file_build_id(exe, want);
	if (!idlen)
		SKIP(return, "the test program has no build id");

	self->attr.build_id = 1;
	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	fd = open(exe, O_RDONLY);
	ASSERT_LE(0, fd);
	h = map_record(_metadata, self, fd, self->psz, PROT_READ | PROT_EXEC,
		       MAP_PRIVATE, 0, &p);
	close(fd);
	check_mmap2(_metadata, h, p, self->psz, 0, PROT_READ | PROT_EXEC,
		    MAP_PRIVATE, exe,
		    PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	m = (struct mmap2_rec *)h;
	EXPECT_EQ(idlen, m->build_id_size);
	EXPECT_EQ(0, m->res1);
	EXPECT_EQ(0, m->res2);
	EXPECT_EQ(0, memcmp(want, m->build_id, sizeof(want)));
	check_trailer(_metadata, self, h);
}

/*
 * attr.build_id on a file without one (our data file): the inode form,
 * without MMAP_BUILD_ID.
 */
TEST_F(mm, mmap2_build_id_none)
{
	struct perf_event_header *h;
	struct stat st;
	void *p;

	self->attr.build_id = 1;
	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	ASSERT_EQ(0, fstat(self->file, &st));
	h = map_record(_metadata, self, self->file, self->psz,
		       PROT_READ | PROT_EXEC, MAP_PRIVATE, 0, &p);
	check_mmap2(_metadata, h, p, self->psz, 0, PROT_READ | PROT_EXEC,
		    MAP_PRIVATE, self->path, PERF_RECORD_MISC_USER);
	EXPECT_EQ(st.st_ino, ((struct mmap2_rec *)h)->ino);
}

/* A disabled event records nothing; enabled, it does. */
TEST_F(mm, disabled_event)
{
	void *p;

	self->attr.disabled = 1;
	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, 0, -1, RB_PAGES));
	p = mmap(NULL, self->psz, PROT_READ | PROT_EXEC, MAP_PRIVATE,
		 self->file, 0);
	ASSERT_NE(MAP_FAILED, p);
	munmap(p, self->psz);
	EXPECT_EQ(0, drain(_metadata, &self->ev));

	ASSERT_EQ(0, ioctl(self->ev.fd, PERF_EVENT_IOC_ENABLE, 0));
	map_record(_metadata, self, self->file, self->psz,
		   PROT_READ | PROT_EXEC, MAP_PRIVATE, 0, &p);
}

/*
 * A CPU-wide event sees the mappings made on its CPU, and one on
 * another CPU does not.
 */
TEST_F(mm, cpu_wide)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	struct perf_event_header *h;
	struct rb_event ev2 = { .fd = -1 };
	int cpu;
	ssize_t len;
	void *p;

	ASSERT_EQ(0, rb_event_open(&self->ev, &self->attr, -1, self->cpu,
				   RB_PAGES));
	/* Another online CPU, if there is one. */
	for (cpu = 0; cpu < ncpus && ev2.fd < 0; cpu++)
		if (cpu != self->cpu)
			rb_event_open(&ev2, &self->attr, -1, cpu, RB_PAGES);
	h = map_record(_metadata, self, self->file, self->psz,
		       PROT_READ | PROT_EXEC, MAP_PRIVATE, 0, &p);
	check_mmap2(_metadata, h, p, self->psz, 0, PROT_READ | PROT_EXEC,
		    MAP_PRIVATE, self->path, PERF_RECORD_MISC_USER);
	check_trailer(_metadata, self, h);

	if (ev2.fd >= 0) {
		len = drain(_metadata, &ev2);
		EXPECT_EQ(NULL, find_map(rbuf, len, p));
		rb_event_close(&ev2);
	}
}

TEST_HARNESS_MAIN
