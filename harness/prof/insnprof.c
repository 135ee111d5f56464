// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * insnprof: a QEMU TCG plugin that counts, per guest instruction address,
 * how often each instruction ran inside windows the guest marks.
 *
 * The guest opens and closes a window by executing "xchg %bx,%bx"
 * (66 87 db: a no-op, Bochs's magic breakpoint).  Windows are numbered
 * from 1 in the order they open.  Inside window W, every translation
 * block the vCPU that opened it executes adds one to each of the block's
 * instructions (a block left early by an exception still counts whole:
 * close enough for a profile).  At exit, window W's counts are written
 * to OUT.W as "vaddr count" lines, in no particular order.
 *
 * Arguments: out=OUT (default "insnprof").
 * Used by harness/profile.sh.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_WINDOWS	16

/* One translation: its instructions, and its executions per window. */
struct block {
	uint64_t count[MAX_WINDOWS + 1];
	unsigned int n;
	uint64_t vaddr[];
};

static GMutex lock;		/* protects blocks */
static GPtrArray *blocks;
static const char *out = "insnprof";
static int window;		/* the one open, or 0 */
static int windows;		/* how many opened */
static int window_vcpu = -1;

static void mark(unsigned int vcpu, void *udata)
{
	static int marks;

	if (++marks % 2 == 0) {
		window = 0;
		return;
	}
	windows++;
	if (windows <= MAX_WINDOWS) {
		window_vcpu = vcpu;
		window = windows;
	}
}

static void block_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;
	int w = window;

	if (w && (int)vcpu == window_vcpu)
		__atomic_fetch_add(&b->count[w], 1, __ATOMIC_RELAXED);
}

static bool is_mark(struct qemu_plugin_insn *insn)
{
	static const uint8_t xchg_bx_bx[] = { 0x66, 0x87, 0xdb };

	return qemu_plugin_insn_size(insn) == sizeof(xchg_bx_bx) &&
	       !memcmp(qemu_plugin_insn_data(insn), xchg_bx_bx,
		       sizeof(xchg_bx_bx));
}

static void block_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b = g_malloc0(sizeof(*b) + n * sizeof(b->vaddr[0]));

	b->n = n;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		b->vaddr[i] = qemu_plugin_insn_vaddr(insn);
		if (is_mark(insn))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark,
						QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec,
					     QEMU_PLUGIN_CB_NO_REGS, b);
	g_mutex_lock(&lock);
	g_ptr_array_add(blocks, b);
	g_mutex_unlock(&lock);
}

static void write_window(int w)
{
	GHashTable *sum = g_hash_table_new_full(g_int64_hash, g_int64_equal,
						NULL, g_free);
	char *path = g_strdup_printf("%s.%d", out, w);
	GHashTableIter it;
	gpointer key, value;
	FILE *f;
	guint i;

	for (i = 0; i < blocks->len; i++) {
		struct block *b = g_ptr_array_index(blocks, i);
		unsigned int j;

		for (j = 0; b->count[w] && j < b->n; j++) {
			uint64_t *c = g_hash_table_lookup(sum, &b->vaddr[j]);

			if (!c) {
				c = g_new0(uint64_t, 1);
				g_hash_table_insert(sum, &b->vaddr[j], c);
			}
			*c += b->count[w];
		}
	}
	f = fopen(path, "w");
	if (f) {
		g_hash_table_iter_init(&it, sum);
		while (g_hash_table_iter_next(&it, &key, &value))
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n",
				*(uint64_t *)key, *(uint64_t *)value);
		fclose(f);
	}
	g_free(path);
	g_hash_table_destroy(sum);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	int w;

	for (w = 1; w <= windows && w <= MAX_WINDOWS; w++)
		write_window(w);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out = argv[i] + 4;
	blocks = g_ptr_array_new();
	qemu_plugin_register_vcpu_tb_trans_cb(id, block_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
