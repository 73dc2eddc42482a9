// SPDX-License-Identifier: GPL-2.0
/*
 * insn_window.so - a QEMU TCG plugin (QEMU 10, plugin API version 4) that
 * counts the guest's executed instructions per guest PC inside measured
 * windows only, with an optional model of L1 data and instruction caches
 * (Documentation/exact_cost.rst, "Per-function counts").
 *
 *   qemu-system-x86_64 ... -plugin build/plugin/insn_window.so,out=FILE[,cache=on]
 *
 * The window: the guest's measuring tool executes "xchg %rcx,%rcx" (48 87
 * c9) at a window's start and "xchg %rdx,%rdx" (48 87 d2) at its end, in
 * user mode, with the window's id in %rax (lib/measure/icount_window.h).  Both are
 * no-ops to the CPU and never emitted by a compiler; the plugin finds them
 * when it translates a block and puts a callback on them.
 *
 * Counting: every kernel instruction (PC at or above the kernel half) has
 * a slot, found by PC when translated and kept across re-translations; an
 * inline add on a scoreboard counts its executions.  All user-mode
 * instructions share slot 0.  At a window's start the counts are copied;
 * at its end the differences are written to FILE:
 *
 *   W ID INSNS L1D_MISSES L1I_MISSES L1D_ACCESSES L1I_ACCESSES
 *   PC INSNS L1D_MISSES L1I_MISSES      (one line per slot that ran; PC 0:
 *                                        user mode)
 *   E ID
 *
 * With cache=on every instruction fetch and data access in a window also
 * goes through a set-associative LRU model (32 KiB, 8 ways, 64 B lines,
 * L1d and L1i each, indexed by virtual address), and its misses are
 * charged to the instruction's slot.  A callback on every instruction and
 * access would make the whole boot crawl, so they are only in the code
 * translated while a window is open: each mark resets the plugin
 * (qemu_plugin_reset(): the translations are flushed and made again with
 * or without them).  The model's lines are those of the last window when
 * the next one opens.  Modelled, not measured: it has no prefetcher, no
 * L2 and no other CPU.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_SLOTS	(1u << 20)	/* kernel instructions that ever ran */
#define KERNEL_HALF	0xffff800000000000ULL
/* udata of a kernel insn: flag | size << 32 | slot; user: vaddr << 4 | size */
#define UDATA_KERNEL	(1ULL << 63)

#define L1_LINE_SHIFT	6
#define L1_WAYS		8
#define L1_SETS		64		/* 32 KiB / (8 ways * 64 B) */

static const uint8_t mark_start[] = { 0x48, 0x87, 0xc9 };	/* xchg rcx,rcx */
static const uint8_t mark_stop[] = { 0x48, 0x87, 0xd2 };	/* xchg rdx,rdx */

struct l1 {
	uint64_t tag[L1_SETS][L1_WAYS];		/* line number + 1; 0: empty */
	uint8_t age[L1_SETS][L1_WAYS];		/* 0: most recent */
	uint64_t accesses;
};

static struct {
	qemu_plugin_id_t id_self;
	FILE *out;
	bool cache;
	bool cache_live;	/* translations made now carry the model */
	struct qemu_plugin_scoreboard *counts;	/* MAX_SLOTS u64 per vCPU */
	GHashTable *slot_of;			/* kernel PC -> slot */
	uint64_t *pc;				/* slot -> PC */
	uint64_t *snap;				/* counts at the window's start */
	uint32_t *l1d_miss, *l1i_miss;		/* in windows only */
	unsigned int nslots;
	uint64_t overflow;			/* PCs past MAX_SLOTS: slot 0 */
	bool active;
	uint64_t id;
	uint64_t acc0_d, acc0_i;
	struct l1 l1d, l1i;
	struct qemu_plugin_register *rax;
	GByteArray *regbuf;
	GMutex lock;
} w;

static unsigned int slot_for(uint64_t pc)
{
	gpointer v;
	unsigned int s;

	if (pc < KERNEL_HALF)
		return 0;
	if (g_hash_table_lookup_extended(w.slot_of, GSIZE_TO_POINTER(pc),
					 NULL, &v))
		return GPOINTER_TO_UINT(v);
	if (w.nslots >= MAX_SLOTS) {
		w.overflow++;
		return 0;
	}
	s = w.nslots++;
	w.pc[s] = pc;
	g_hash_table_insert(w.slot_of, GSIZE_TO_POINTER(pc),
			    GUINT_TO_POINTER(s));
	return s;
}

static uint64_t slot_count(unsigned int s)
{
	unsigned int n = qemu_plugin_num_vcpus(), i;
	uint64_t sum = 0, *c;

	for (i = 0; i < n; i++) {
		c = qemu_plugin_scoreboard_find(w.counts, i);
		sum += c[s];
	}
	return sum;
}

/* One access to the line holding addr; true on a miss */
static bool l1_access(struct l1 *c, uint64_t addr)
{
	uint64_t line = (addr >> L1_LINE_SHIFT) + 1;
	unsigned int set = line % L1_SETS, i, hit = L1_WAYS, victim = 0;
	uint8_t old;

	c->accesses++;
	for (i = 0; i < L1_WAYS; i++) {
		if (c->tag[set][i] == line)
			hit = i;
		if (c->age[set][i] > c->age[set][victim])
			victim = i;
	}
	if (hit == L1_WAYS) {
		hit = victim;
		c->tag[set][hit] = line;
		old = L1_WAYS;
	} else {
		old = c->age[set][hit];
	}
	for (i = 0; i < L1_WAYS; i++)
		if (c->age[set][i] < old && c->age[set][i] < L1_WAYS - 1)
			c->age[set][i]++;
	c->age[set][hit] = 0;
	return old == L1_WAYS;
}

static void l1_init(struct l1 *c)
{
	unsigned int s, i;

	memset(c, 0, sizeof(*c));
	for (s = 0; s < L1_SETS; s++)
		for (i = 0; i < L1_WAYS; i++)
			c->age[s][i] = i;
}

static unsigned int udata_slot(uint64_t u)
{
	return u & UDATA_KERNEL ? (unsigned int)(u & 0xffffffffu) : 0;
}

/* An instruction's fetch: the lines of its first and last byte */
static void on_insn(unsigned int vcpu, void *udata)
{
	uint64_t u = (uintptr_t)udata, va, end;
	unsigned int s = udata_slot(u);
	bool miss;

	(void)vcpu;
	if (u & UDATA_KERNEL) {
		va = w.pc[s];
		end = va + (u >> 32 & 15);
	} else {
		va = u >> 4;
		end = va + (u & 15);
	}
	miss = l1_access(&w.l1i, va);
	if ((end - 1) >> L1_LINE_SHIFT != va >> L1_LINE_SHIFT)
		miss |= l1_access(&w.l1i, end - 1);
	if (miss && w.active)
		w.l1i_miss[s]++;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	unsigned int s = udata_slot((uintptr_t)udata);
	unsigned int size = 1u << qemu_plugin_mem_size_shift(info);
	bool miss;

	(void)vcpu;
	miss = l1_access(&w.l1d, vaddr);
	if ((vaddr + size - 1) >> L1_LINE_SHIFT != vaddr >> L1_LINE_SHIFT)
		miss |= l1_access(&w.l1d, vaddr + size - 1);
	if (miss && w.active)
		w.l1d_miss[s]++;
}

static uint64_t read_rax(void)
{
	uint64_t v = 0;
	int n;

	if (!w.rax)
		return 0;
	g_byte_array_set_size(w.regbuf, 0);
	n = qemu_plugin_read_register(w.rax, w.regbuf);
	if (n > 0)
		memcpy(&v, w.regbuf->data, n < 8 ? n : 8);
	return v;
}

static void install(qemu_plugin_id_t id);

static void on_reset(qemu_plugin_id_t id)
{
	install(id);
}

/* cache=on: translate again, with the model's callbacks or without */
static void cache_switch(bool on)
{
	if (!w.cache || w.cache_live == on)
		return;
	w.cache_live = on;
	qemu_plugin_reset(w.id_self, on_reset);
}

static void window_start(unsigned int vcpu, void *udata)
{
	unsigned int s;

	(void)vcpu;
	(void)udata;
	g_mutex_lock(&w.lock);
	w.id = read_rax();
	for (s = 0; s < w.nslots; s++)
		w.snap[s] = slot_count(s);
	memset(w.l1d_miss, 0, w.nslots * sizeof(*w.l1d_miss));
	memset(w.l1i_miss, 0, w.nslots * sizeof(*w.l1i_miss));
	w.acc0_d = w.l1d.accesses;
	w.acc0_i = w.l1i.accesses;
	w.active = true;
	g_mutex_unlock(&w.lock);
	cache_switch(true);
}

static void window_stop(unsigned int vcpu, void *udata)
{
	uint64_t id = read_rax(), total = 0, md = 0, mi = 0, d;
	unsigned int s;

	(void)vcpu;
	(void)udata;
	g_mutex_lock(&w.lock);
	if (!w.active || id != w.id) {
		fprintf(w.out, "X %" PRIu64 " stop without its start\n", id);
		fflush(w.out);
		w.active = false;
		g_mutex_unlock(&w.lock);
		cache_switch(false);
		return;
	}
	w.active = false;
	/* slots made in the window started at 0 */
	for (s = 0; s < w.nslots; s++) {
		d = slot_count(s) - w.snap[s];
		w.snap[s] = d;
		total += d;
		md += w.l1d_miss[s];
		mi += w.l1i_miss[s];
	}
	fprintf(w.out, "W %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		" %" PRIu64 " %" PRIu64 "\n", id, total, md, mi,
		w.l1d.accesses - w.acc0_d, w.l1i.accesses - w.acc0_i);
	for (s = 0; s < w.nslots; s++)
		if (w.snap[s] || w.l1d_miss[s] || w.l1i_miss[s])
			fprintf(w.out, "%" PRIx64 " %" PRIu64 " %u %u\n",
				s ? w.pc[s] : 0, w.snap[s], w.l1d_miss[s],
				w.l1i_miss[s]);
	fprintf(w.out, "E %" PRIu64 "\n", id);
	fflush(w.out);
	g_mutex_unlock(&w.lock);
	cache_switch(false);
}

static bool insn_is(struct qemu_plugin_insn *insn, const uint8_t *pat,
		    size_t len)
{
	uint8_t b[4];

	return qemu_plugin_insn_size(insn) == len &&
	       qemu_plugin_insn_data(insn, b, len) == len &&
	       !memcmp(b, pat, len);
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	qemu_plugin_u64 e = { .score = w.counts };
	struct qemu_plugin_insn *insn;
	unsigned int s;
	uint64_t pc, size;
	void *u;

	(void)id;
	g_mutex_lock(&w.lock);
	for (i = 0; i < n; i++) {
		insn = qemu_plugin_tb_get_insn(tb, i);
		pc = qemu_plugin_insn_vaddr(insn);
		s = slot_for(pc);
		e.offset = s * sizeof(uint64_t);
		qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn,
			QEMU_PLUGIN_INLINE_ADD_U64, e, 1);
		if (pc < KERNEL_HALF) {
			if (insn_is(insn, mark_start, sizeof(mark_start)))
				qemu_plugin_register_vcpu_insn_exec_cb(insn,
					window_start, QEMU_PLUGIN_CB_R_REGS, NULL);
			else if (insn_is(insn, mark_stop, sizeof(mark_stop)))
				qemu_plugin_register_vcpu_insn_exec_cb(insn,
					window_stop, QEMU_PLUGIN_CB_R_REGS, NULL);
		}
		if (!w.cache_live)
			continue;
		size = qemu_plugin_insn_size(insn) & 15;
		u = (void *)(uintptr_t)(pc >= KERNEL_HALF ?
			UDATA_KERNEL | size << 32 | s : pc << 4 | size);
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn,
			QEMU_PLUGIN_CB_NO_REGS, u);
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem,
			QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, u);
	}
	g_mutex_unlock(&w.lock);
}

static void on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	g_autoptr(GArray) regs = qemu_plugin_get_registers();
	unsigned int i;

	(void)id;
	(void)vcpu;
	for (i = 0; regs && i < regs->len; i++) {
		qemu_plugin_reg_descriptor *r =
			&g_array_index(regs, qemu_plugin_reg_descriptor, i);

		if (!strcmp(r->name, "rax"))
			w.rax = r->handle;
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	if (w.active)
		fprintf(w.out, "X %" PRIu64 " window open at exit\n", w.id);
	fprintf(w.out, "# slots %u overflow %" PRIu64 "\n", w.nslots,
		w.overflow);
	fclose(w.out);
}

/* The callbacks; again after each qemu_plugin_reset() */
static void install(qemu_plugin_id_t id)
{
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *out = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out = argv[i] + 4;
		} else if (!strcmp(argv[i], "cache=on")) {
			w.cache = true;
		} else if (!strcmp(argv[i], "cache=off")) {
			w.cache = false;
		} else {
			fprintf(stderr, "insn_window: unknown argument '%s' (out=FILE, cache=on|off)\n",
				argv[i]);
			return -1;
		}
	}
	if (!out || !*out) {
		fprintf(stderr, "insn_window: no out=FILE\n");
		return -1;
	}
	if (strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "insn_window: target %s: x86_64 only (the markers are x86 instructions)\n",
			info->target_name);
		return -1;
	}
	w.out = fopen(out, "w");
	if (!w.out) {
		fprintf(stderr, "insn_window: %s: %s\n", out, strerror(errno));
		return -1;
	}
	w.counts = qemu_plugin_scoreboard_new(MAX_SLOTS * sizeof(uint64_t));
	w.slot_of = g_hash_table_new(g_direct_hash, g_direct_equal);
	w.pc = g_new0(uint64_t, MAX_SLOTS);
	w.snap = g_new0(uint64_t, MAX_SLOTS);
	w.l1d_miss = g_new0(uint32_t, MAX_SLOTS);
	w.l1i_miss = g_new0(uint32_t, MAX_SLOTS);
	w.regbuf = g_byte_array_new();
	w.nslots = 1;		/* slot 0: user mode, and overflow */
	l1_init(&w.l1d);
	l1_init(&w.l1i);
	g_mutex_init(&w.lock);
	fprintf(w.out, "# insn_window 1 cache=%s l1=%u/%u/%u\n",
		w.cache ? "on" : "off", L1_SETS * L1_WAYS << L1_LINE_SHIFT,
		L1_WAYS, 1u << L1_LINE_SHIFT);
	fflush(w.out);
	w.id_self = id;
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
	install(id);
	return 0;
}
