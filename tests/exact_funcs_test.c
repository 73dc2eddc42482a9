// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/exact-funcs.py, the host side of the exact mode's per-function
 * counts (Documentation/exact_cost.rst): a plugin output, a kallsyms and a
 * window's BPF symbols made here, folded into a sweep result.  Each PC
 * lands in the function whose symbol is the last at or below it (kernel
 * text up to _etext, a BPF program within its reach, user mode as [user],
 * the rest [unknown]); bpf_prog_<tag>_<name> loses its tag; per packet
 * figures are the runs' means, and the functions add up to the window.
 * AF_XDP rows are folded too (a row of an older xdp_sweep without window
 * ids is left as it is).  An A/B names the function that moved and says
 * the sum; check judges an injected cost in the program's symbol.  Bad input (a
 * window whose PCs do not add up to its count, an unknown window id, a
 * window without an end, a sweep that is not --icount, kallsyms read
 * without root) fails with the reason and leaves the result unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "out_check.h"

#define SCHEMA		"Documentation/sweep.schema.json"
/* the schema of a row's functions object */
#define FUNCS_SCHEMA	"properties.points.items.properties.functions"

#define KALLSYMS							\
	"ffffffff81000000 T _stext\n"					\
	"ffffffff81000100 T foo\n"					\
	"ffffffff81000200 t bar\n"					\
	"ffffffff81000280 D some_data\n"				\
	"ffffffff81100000 T _etext\n"

#define BPF_SYMS							\
	"ffffffffa0000800 t bpf_prog_0123456789abcdef_xdp_action\t[bpf]\n"

/*
 * Window 7: 100 user insns, foo 10 + 5, bar 7 (some_data is no text: bar
 * keeps its PC), the program 20, 3 past _etext and 2 far past the
 * program: 147 in all.  Window 8 (B): the program 40.
 */
#define INSNS_HEAD "# insn_window 1 cache=off l1=32768/8/64\n"
#define WINDOW(id, prog, total)						\
	"W " #id " " #total " 0 0 0 0\n"				\
	"0 100 0 0\n"							\
	"ffffffff81000100 10 0 0\n"					\
	"ffffffff81000150 5 0 0\n"					\
	"ffffffff81000290 7 0 0\n"					\
	"ffffffffa0000810 " #prog " 0 0\n"				\
	"ffffffff81200000 3 0 0\n"					\
	"ffffffffa0100000 2 0 0\n"					\
	"E " #id "\n"

#define SWEEP(id)							\
	"{\"schema\": \"xdp-sweep/1\", \"options\": {\"cost_unit\": \"insns\", \"driver\": \"veth\"},\n" \
	" \"points\": [{\"action\": \"XDP_DROP\", \"mode\": \"native\", \"size\": 64, \"flows\": 1,\n" \
	"  \"runs\": [{\"ok\": true, \"packets\": 10, \"window\": " #id "},\n" \
	"           {\"ok\": false, \"error\": \"x\"}]}]}\n"

FIXTURE(funcs) {
	char dir[64];
	char out[16384];
};

FIXTURE_SETUP(funcs)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/exact-funcs-test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(funcs)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

static void put(FIXTURE_DATA(funcs) *self, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", self->dir, name);
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

/* exact-funcs.py fold on dir/insns, dir/kallsyms, dir/bpf-ID.syms */
static int fold(FIXTURE_DATA(funcs) *self, const char *json)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "scripts/exact-funcs.py fold --insns %s/insns --kallsyms %s/kallsyms --windows %s %s/%s 2>&1",
		 self->dir, self->dir, self->dir, self->dir, json);
	return run_cmd(cmd, self->out, sizeof(self->out));
}

/* exact-funcs.py check of dir/a.json, dir/one.json and the B argument */
static int check(FIXTURE_DATA(funcs) *self, const char *b)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "scripts/exact-funcs.py check --schema %s/schema.json %s/a.json %s/one.json %s/%s 2>&1",
		 self->dir, self->dir, self->dir, self->dir, b);
	return run_cmd(cmd, self->out, sizeof(self->out));
}

/* dir/NAME parsed, or NULL and why in self->out */
static struct jr_value *doc(FIXTURE_DATA(funcs) *self, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", self->dir, name);
	return jt_parse_file(path, self->out, sizeof(self->out));
}

/* The object at path of dir/NAME valid by the schema's functions object */
static int funcs_valid(FIXTURE_DATA(funcs) *self, const char *name,
		       const char *path)
{
	char file[256];

	snprintf(file, sizeof(file), "%s/%s", self->dir, name);
	return jt_schema_check(file, path, NULL, SCHEMA, FUNCS_SCHEMA,
			       self->out, sizeof(self->out));
}

static void setup_ab(FIXTURE_DATA(funcs) *self)
{
	put(self, "kallsyms", KALLSYMS);
	put(self, "bpf-7.syms", BPF_SYMS);
	put(self, "bpf-8.syms",
	    "ffffffffa0000800 t bpf_prog_fedcba9876543210_xdp_action\t[bpf]\n");
	put(self, "insns", INSNS_HEAD WINDOW(7, 20, 147) WINDOW(8, 40, 167)
		"# slots 9 overflow 0\n");
	put(self, "a.json", SWEEP(7));
	put(self, "b.json", SWEEP(8));
}

TEST_F(funcs, fold_maps_and_adds_up)
{
	static const struct {
		const char *symbol;
		double insns;
	} want[] = {
		{ "[user]", 10.0 }, { "bpf_prog_xdp_action", 2.0 },
		{ "foo", 1.5 }, { "bar", 0.7 }, { "[unknown]", 0.5 },
	};
	const struct jr_value *f;
	struct jr_value *d;
	double sum = 0;
	size_t i;

	setup_ab(self);
	ASSERT_EQ(0, fold(self, "a.json")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "XDP_DROP native 64B 1 flow: 14.70 insns/pkt in the window"))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, funcs_valid(self, "a.json", "points[0].functions"))
		TH_LOG("%s", self->out);
	d = doc(self, "a.json");
	ASSERT_NE(NULL, d) TH_LOG("%s", self->out);
	f = jt_at(d, "points[0].functions");
	ASSERT_EQ(ARRAY_SIZE(want), jt_len(f, "symbols"));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct jr_value *s = jt_find(f, "symbols", "symbol",
						   want[i].symbol);

		EXPECT_EQ(want[i].insns, jt_num(s, "insns_per_pkt"))
			TH_LOG("%s: %g", want[i].symbol, jt_num(s, "insns_per_pkt"));
		sum += jt_num(s, "insns_per_pkt");
	}
	EXPECT_STREQ("[user]", jt_strz(f, "symbols[0].symbol"));
	EXPECT_STREQ("bpf_prog_xdp_action", jt_strz(f, "symbols[1].symbol"));
	EXPECT_EQ(1, jt_num(f, "runs"));
	EXPECT_EQ(14.7, jt_num(f, "window_insns_per_pkt.mean"));
	EXPECT_CLOSE(14.7, sum, 1e-9);
	EXPECT_TRUE(jt_null(f, "cache_model"));
	EXPECT_EQ(NULL, jt_at(f, "l1d_misses_per_pkt"));
	jr_free(d);
}

/* The AF_XDP rows (stacks) are folded and named as xdp_compare names them */
TEST_F(funcs, fold_stacks_rows)
{
	struct jr_value *d;

	put(self, "kallsyms", KALLSYMS);
	put(self, "bpf-7.syms", BPF_SYMS);
	put(self, "insns", INSNS_HEAD WINDOW(7, 20, 147));
	put(self, "s.json",
	    "{\"options\": {\"cost_unit\": \"insns\", \"driver\": \"igb\"}, \"points\": [],\n"
	    " \"stacks\": [{\"stack\": \"af_xdp\", \"mode\": \"native-with-zerocopy\", \"size\": 64,\n"
	    "  \"runs\": [{\"ok\": true, \"packets\": 10, \"window\": 7}]},\n"
	    "  {\"stack\": \"af_xdp\", \"mode\": \"native\", \"size\": 64,\n"
	    "  \"runs\": [{\"ok\": true, \"packets\": 10}]}]}\n");
	ASSERT_EQ(0, fold(self, "s.json")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
		"AF_XDP rxdrop igb native-with-zerocopy 64B: 14.70 insns/pkt in the window"))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, funcs_valid(self, "s.json", "stacks[0].functions"))
		TH_LOG("%s", self->out);
	d = doc(self, "s.json");
	ASSERT_NE(NULL, d) TH_LOG("%s", self->out);
	/* the row without window ids is left as it is */
	EXPECT_NE(NULL, jt_at(d, "stacks[1]"));
	EXPECT_EQ(NULL, jt_at(d, "stacks[1].functions"));
	jr_free(d);
}

TEST_F(funcs, ab_names_the_function_that_moved)
{
	char cmd[512];

	setup_ab(self);
	ASSERT_EQ(0, fold(self, "a.json")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, fold(self, "b.json")) TH_LOG("%s", self->out);
	snprintf(cmd, sizeof(cmd), "scripts/exact-funcs.py ab %s/a.json %s/b.json 2>&1",
		 self->dir, self->dir);
	ASSERT_EQ(0, run_cmd(cmd, self->out, sizeof(self->out))) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
		"XDP_DROP native 64B 1 flow: +2.00 insns/pkt in the window (spread 0.00): bpf_prog_xdp_action +2.00\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "all 5 sum to +2.00 = the window's delta +2.00"))
		TH_LOG("%s", self->out);
}

/*
 * check (make kernel-ab-test's per-function verdict): one unit more gives
 * u in the program's symbol (window 8: +1.0 insns/pkt), ten more must
 * come out +10 u there within 1, the other functions within their spread;
 * exit status 0, or 3 when a check failed
 */
TEST_F(funcs, check_injected_cost)
{
	put(self, "kallsyms", KALLSYMS);
	put(self, "bpf-7.syms", BPF_SYMS);
	put(self, "bpf-8.syms", BPF_SYMS);
	put(self, "bpf-9.syms", BPF_SYMS);
	put(self, "bpf-10.syms", BPF_SYMS);
	put(self, "insns", INSNS_HEAD WINDOW(7, 20, 147) WINDOW(8, 30, 157)
		WINDOW(9, 120, 247) WINDOW(10, 105, 232));
	put(self, "a.json", SWEEP(7));
	put(self, "one.json", SWEEP(8));
	put(self, "b.json", SWEEP(9));
	put(self, "bad.json", SWEEP(10));
	put(self, "schema.json", "{}\n");
	ASSERT_EQ(0, fold(self, "a.json")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, fold(self, "one.json")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, fold(self, "b.json")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, fold(self, "bad.json")) TH_LOG("%s", self->out);
	EXPECT_EQ(0, check(self, "b.json=10")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
		"ok: per function: XDP_DROP +10 unit(s): bpf_prog_xdp_action +10.00 insns/pkt, expected +10.00 within 1 (u = 1.0000)\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
		"ok: per function: XDP_DROP +10 unit(s): 0 of the other 4 functions moved beyond their spread"))
		TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "FAIL")) TH_LOG("%s", self->out);
	/* +8.5 for +10 */
	EXPECT_EQ(3, check(self, "bad.json=10")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
		"FAIL: per function: XDP_DROP +10 unit(s): bpf_prog_xdp_action +8.50 insns/pkt, expected +10.00 within 1"))
		TH_LOG("%s", self->out);
	/* B without its N: bad usage of the input, status 1 */
	EXPECT_EQ(1, check(self, "b.json")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "b.json' is not B.json=N")) TH_LOG("%s", self->out);
}

/*
 * A folded result of two points, XDP_DROP and XDP_TX: the program prog
 * insns/pkt, xdp_test_run_init_page rec on XDP_DROP and trec on XDP_TX,
 * foo 10; every run alike (the spread allowed is the floor, 0.3).
 */
#define FSYM(name, v)							\
	"{\"symbol\": \"" name "\", \"insns_per_pkt\": " #v		\
	", \"min\": " #v ", \"max\": " #v "}"
#define FPOINT(act, prog, rec, total)					\
	"{\"action\": \"" act "\", \"mode\": \"native\", \"size\": 64, \"flows\": 1,"	\
	" \"functions\": {\"window_insns_per_pkt\": {\"mean\": " #total "},"	\
	" \"symbols\": [" FSYM("bpf_prog_xdp_action", prog) ", "	\
	FSYM("xdp_test_run_init_page", rec) ", " FSYM("foo", 10) "]}}"
#define FOLDED(prog, rec, trec, total, ttotal)				\
	"{\"schema\": \"xdp-sweep/1\", \"options\": {\"cost_unit\": \"insns\"},\n" \
	" \"points\": [" FPOINT("XDP_DROP", prog, rec, total) ",\n"	\
	FPOINT("XDP_TX", prog, trec, ttotal) "]}\n"

/*
 * Page recycling moves with the vCPUs' interleaving where pages come back
 * from another CPU (XDP_TX): shown there, not judged; on XDP_DROP, where
 * the program's own CPU recycles them, it is judged like any function.
 */
TEST_F(funcs, check_page_recycling_judged_on_drop_only)
{
	put(self, "schema.json", "{}\n");
	put(self, "a.json", FOLDED(20, 1, 1, 31, 31));
	put(self, "one.json", FOLDED(21, 1, 1, 32, 32));
	/* +10 units; XDP_TX's page recycling +0.8 */
	put(self, "b.json", FOLDED(30, 1, 1.8, 41, 41.8));
	/* the same +0.8 on XDP_DROP */
	put(self, "bad.json", FOLDED(30, 1.8, 1, 41.8, 41));
	EXPECT_EQ(0, check(self, "b.json=10")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
		"ok: per function: XDP_TX +10 unit(s): 0 of the other 2 functions moved beyond their spread (nearest its limit: foo +0.00, allowed +-0.30); memory-management state's (not judged) +0.00; page recycling's (not judged) +0.80\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
		"ok: per function: XDP_DROP +10 unit(s): 0 of the other 2 functions moved beyond their spread (nearest its limit: foo +0.00, allowed +-0.30); memory-management state's (not judged) +0.00\n"))
		TH_LOG("%s", self->out);
	EXPECT_EQ(3, check(self, "bad.json=10")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
		"FAIL: per function: XDP_DROP +10 unit(s): 1 of the other 2 functions moved beyond their spread: xdp_test_run_init_page +0.80 (allowed +-0.30)"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
		"ok: per function: XDP_TX +10 unit(s): 0 of the other 2 functions"))
		TH_LOG("%s", self->out);
}

/* Each bad input: status 1, the reason, the result as it was */
TEST_F(funcs, bad_input_fails_clearly)
{
	static const struct {
		const char *insns, *kallsyms, *sweep, *msg;
	} cases[] = {
		{ INSNS_HEAD WINDOW(7, 20, 148), KALLSYMS, SWEEP(7),
		  "add up to 147 insns, its count is 148" },
		{ INSNS_HEAD WINDOW(7, 20, 147), KALLSYMS, SWEEP(9),
		  "window 9 is not in" },
		{ INSNS_HEAD "W 7 100 0 0 0 0\n0 100 0 0\n", KALLSYMS, SWEEP(7),
		  "window 7 has no end" },
		{ WINDOW(7, 20, 147), KALLSYMS, SWEEP(7),
		  "no '# insn_window' header" },
		{ INSNS_HEAD "X 7 stop without its start\n", KALLSYMS, SWEEP(7),
		  "window 7: stop without its start" },
		{ INSNS_HEAD WINDOW(7, 20, 147),
		  "0000000000000000 T _stext\n", SWEEP(7),
		  "address 0: kallsyms read without root" },
		{ INSNS_HEAD WINDOW(7, 20, 147), KALLSYMS,
		  "{\"options\": {\"cost_unit\": \"ns\"}, \"points\": []}\n",
		  "not an --icount sweep" },
		{ INSNS_HEAD WINDOW(7, 20, 147) "# slots 1048576 overflow 12\n",
		  KALLSYMS, SWEEP(7), "12 kernel PCs found no slot" },
	};
	char before[4096], after[4096], cmd[512];
	size_t i;

	put(self, "bpf-7.syms", BPF_SYMS);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		put(self, "insns", cases[i].insns);
		put(self, "kallsyms", cases[i].kallsyms);
		put(self, "s.json", cases[i].sweep);
		snprintf(cmd, sizeof(cmd), "cat %s/s.json", self->dir);
		run_cmd(cmd, before, sizeof(before));
		EXPECT_EQ(1, fold(self, "s.json")) TH_LOG("case %zu: %s", i, self->out);
		EXPECT_NE(NULL, strstr(self->out, cases[i].msg))
			TH_LOG("case %zu: want '%s', got: %s", i, cases[i].msg, self->out);
		run_cmd(cmd, after, sizeof(after));
		EXPECT_STREQ(before, after) TH_LOG("case %zu changed the result", i);
	}
}

TEST_HARNESS_MAIN
