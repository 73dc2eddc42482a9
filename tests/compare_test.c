// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_compare on hand-made sweep results (5 runs per point, chosen values):
 * the delta arithmetic, noise and significance, rows on one side only, the
 * environment guard, malformed and truncated input, --json, and values no
 * measurement gives, refused with the field that holds them.
 *
 * A and B, ns/pkt of the runs (pps = 1e9 / ns, so Mpps = 1000 / ns):
 *
 *  XDP_DROP native 64B 1 flow	A 100 101 102 103 104 (+ a failed run
 *				whose ns_per_pkt, 1e6, must be ignored)
 *				B 110 111 112 113 114
 *	median 102 -> 112: +10.0 ns, 10 / 102 = +9.8%,
 *	cycles 10 x 2.5 (A's tsc_ghz, not B's 2.51) = +25 TSC cycles,
 *	Mpps 1000/112 vs 1000/102: 102 / 112 - 1 = -8.9%;
 *	Welch: sd 1.581 on both sides, se = sqrt(2.5/5 + 2.5/5) = 1, df 8,
 *	t(0.975, 8) = 2.306: CI 10 -+ 2.306 = +7.7..+12.3 ns, significant
 *  XDP_DROP generic 64B 1 flow	A and B 300 305 310 295 290
 *	+0.0% / +0.0 ns / +0 TSC cycles, no significant change
 *  XDP_TX native 64B 1 flow	A 200 202 204 206 208, B 180 181 182 183 184
 *	median 204 -> 182: -22.0 ns, -22 / 204 = -10.8%, -55 TSC cycles,
 *	Mpps 204 / 182 - 1 = +12.1%; significant, CI below 0
 *  XDP_PASS native 64B 1 flow	only in A
 *  XDP_REDIRECT native 1500B 100 flows	only in B
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "out_check.h"

struct pt {
	const char *action, *mode;
	int size, flows;
	double ns[5];
	bool failed_run;
};

static const struct pt pts_a[] = {
	{ "XDP_DROP", "native", 64, 1, { 100, 101, 102, 103, 104 }, true },
	{ "XDP_DROP", "generic", 64, 1, { 300, 305, 310, 295, 290 }, false },
	{ "XDP_TX", "native", 64, 1, { 200, 202, 204, 206, 208 }, false },
	{ "XDP_PASS", "native", 64, 1, { 150, 151, 152, 153, 154 }, false },
	{}
};

static const struct pt pts_b[] = {
	{ "XDP_DROP", "native", 64, 1, { 110, 111, 112, 113, 114 }, false },
	{ "XDP_DROP", "generic", 64, 1, { 300, 305, 310, 295, 290 }, false },
	{ "XDP_TX", "native", 64, 1, { 180, 181, 182, 183, 184 }, false },
	{ "XDP_REDIRECT", "native", 1500, 100, { 400, 401, 402, 403, 404 }, false },
	{}
};

struct env {
	const char *release, *cpu;
	double ghz;
	int repeat;
	const char *unit;	/* options.cost_unit, if any */
	const char *driver;	/* a NIC pair's (options.devs), if any */
	double rtt;		/* the runs' line round trips, ns; 0: none */
};

static const struct env env_a = { "6.18.44-a", "Test CPU @ 2.5GHz", 2.5, 6,
				  NULL, NULL, 0 };
static const struct env env_b = { "6.18.44-a", "Test CPU @ 2.5GHz", 2.51, 6,
				  NULL, NULL, 0 };

/* A result's first members, up to and with the opening of "points" */
static void write_head(FILE *f, const struct env *e)
{
	fprintf(f, "{\n \"schema\": \"xdp-sweep/1\",\n \"tool\": \"xdp_sweep\",\n"
		" \"version\": \"0.1\",\n \"started\": \"2026-12-01T10:00:00Z\",\n"
		" \"env\": {\"kernel_release\": \"%s\", \"kernel_version\": \"#1\",\n"
		"  \"kernel_config_sha256\": \"unknown\", \"machine\": \"x86_64\",\n"
		"  \"cpu_model\": \"%s\", \"ncpus\": 2, \"tsc_ghz\": %g, \"napi\": \"default\"},\n"
		" \"options\": {\"actions\": [\"XDP_DROP\"], \"modes\": [\"native\"],\n"
		"  \"sizes\": [64], \"flows\": [1], \"repeat\": %d, \"duration_s\": 1,\n"
		"  \"warmup_s\": 0.2, \"loop_k\": 0, \"spin_n\": 0, \"generator\": \"g\", \"cost\": \"c\"",
		e->release, e->cpu, e->ghz, e->repeat);
	if (e->unit)
		fprintf(f, ", \"cost_unit\": \"%s\"", e->unit);
	if (e->driver)
		fprintf(f, ", \"devs\": [\"eth0\", \"eth1\"], \"driver\": \"%s\"",
			e->driver);
	fprintf(f, "},\n \"points\": [");
}

static int write_sweep(const char *path, const struct env *e,
		       const struct pt *pts)
{
	FILE *f = fopen(path, "w");
	int i, k;

	if (!f)
		return -errno;
	write_head(f, e);
	for (i = 0; pts[i].action; i++) {
		fprintf(f, "%s\n  {\"action\": \"%s\", \"mode\": \"%s\", \"size\": %d, \"flows\": %d,\n"
			"   \"runs\": [", i ? "," : "", pts[i].action,
			pts[i].mode, pts[i].size, pts[i].flows);
		for (k = 0; k < 5; k++) {
			fprintf(f, "%s\n    {\"ok\": true, \"ns_per_pkt\": %g, \"pps\": %.17g",
				k ? "," : "", pts[i].ns[k], 1e9 / pts[i].ns[k]);
			/* round trips around e->rtt: k - 2 ns off, before and after */
			if (e->rtt > 0)
				fprintf(f, ", \"rtt_before_ns\": %g, \"rtt_after_ns\": %g",
					e->rtt + k - 2, e->rtt - k + 2);
			fprintf(f, "}");
		}
		if (pts[i].failed_run)
			fprintf(f, ",\n    {\"ok\": false, \"error\": \"e\", \"ns_per_pkt\": 1e6, \"pps\": 1}");
		fprintf(f, "]}");
	}
	fprintf(f, "\n ]\n}\n");
	return fclose(f) ? -errno : 0;
}

/*
 * n points, those of pts over and over, point i at frame size
 * 64 + i % 8000 with 1 + i / 8000 flows (each its own, in the sweep's
 * ranges: 46..9014 bytes, 1..4096 flows), a member a line (as Python's json.dump(indent=1) writes them: 54 MB for
 * 100000 of pts_a's)
 */
static int write_big_sweep(const char *path, const struct env *e,
			   const struct pt *pts, int n)
{
	FILE *f = fopen(path, "w");
	const struct pt *p;
	int i, k, np;

	if (!f)
		return -errno;
	for (np = 0; pts[np].action; np++)
		;
	write_head(f, e);
	for (i = 0; i < n; i++) {
		p = &pts[i % np];
		fprintf(f, "%s\n  {\n   \"action\": \"%s\",\n   \"mode\": \"%s\",\n"
			"   \"size\": %d,\n   \"flows\": %d,\n   \"runs\": [",
			i ? "," : "", p->action, p->mode, 64 + i % 8000,
			1 + i / 8000);
		for (k = 0; k < 5; k++)
			fprintf(f, "%s\n    {\n     \"ok\": true,\n     \"ns_per_pkt\": %g,\n"
				"     \"pps\": %.17g\n    }",
				k ? "," : "", p->ns[k], 1e9 / p->ns[k]);
		if (p->failed_run)
			fprintf(f, ",\n    {\n     \"ok\": false,\n     \"error\": \"e\",\n"
				"     \"ns_per_pkt\": 1e6,\n     \"pps\": 1\n    }");
		fprintf(f, "\n   ]\n  }");
	}
	fprintf(f, "\n ]\n}\n");
	return fclose(f) ? -errno : 0;
}

/* The row of label, with the line it wraps to, if any */
static const char *row(const char *out, const char *label, char *buf,
		       size_t len)
{
	const char *p = strstr(out, label), *e;

	if (!p)
		return "";
	e = strchr(p, '\n');
	while (e && !strncmp(e + 1, "    ", 4))
		e = strchr(e + 1, '\n');
	snprintf(buf, len, "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
	return buf;
}

FIXTURE(cmp) {
	char dir[64];
	char a[128], b[128], c[128];
	char cmd[1024];
	char out[16384];
};

FIXTURE_SETUP(cmp)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/xdp-compare-test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->a, sizeof(self->a), "%s/a.json", self->dir);
	snprintf(self->b, sizeof(self->b), "%s/b.json", self->dir);
	snprintf(self->c, sizeof(self->c), "%s/c.json", self->dir);
	ASSERT_EQ(0, write_sweep(self->a, &env_a, pts_a));
	ASSERT_EQ(0, write_sweep(self->b, &env_b, pts_b));
}

FIXTURE_TEARDOWN(cmp)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

static const char *bin(void)
{
	return getenv("BIN") ?: "build/bin";
}

/* xdp_compare ARGS 2>&1, its exit status */
static int compare(FIXTURE_DATA(cmp) *self, const char *args)
{
	snprintf(self->cmd, sizeof(self->cmd), "%s/xdp_compare %s 2>&1", bin(),
		 args);
	return run_cmd(self->cmd, self->out, sizeof(self->out));
}

/*
 * xdp_compare --json ARGS: its exit status, its stdout parsed into *doc
 * (NULL when it is no JSON: then the reader's message, and stderr, are in
 * self->out)
 */
static int compare_json(FIXTURE_DATA(cmp) *self, const char *args,
			struct jr_value **doc)
{
	char err[JR_ERRLEN];
	int rc;

	snprintf(self->cmd, sizeof(self->cmd),
		 "%s/xdp_compare --json %s 2>%s/stderr", bin(), args, self->dir);
	rc = run_cmd(self->cmd, self->out, sizeof(self->out));
	*doc = jt_parse(self->out, err, sizeof(err));
	if (!*doc) {
		snprintf(self->cmd, sizeof(self->cmd), "echo '%.512s'; cat %s/stderr",
			 err, self->dir);
		run_cmd(self->cmd, self->out, sizeof(self->out));
	}
	return rc;
}

TEST_F(cmp, deltas)
{
	char args[512], r[512];
	const char *l;

	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	row(self->out, "XDP_DROP native 64B 1 flow:", r, sizeof(r));
	EXPECT_NE(NULL, strstr(r, "+9.8% / +10.0 ns / +25 TSC cycles")) TH_LOG("%s", r);
	EXPECT_NE(NULL, strstr(r, "[95% CI +7.7..+12.3 ns]")) TH_LOG("%s", r);
	EXPECT_NE(NULL, strstr(r, "Mpps -8.9%")) TH_LOG("%s", r);
	EXPECT_EQ(NULL, strstr(r, "no significant change")) TH_LOG("%s", r);
	/* the cycles are A's, and said so */
	EXPECT_NE(NULL, strstr(self->out, "TSC cycles at A's 2.500 GHz"));
	/* paste-able: no line longer than 72 columns */
	for (l = self->out; *l; ) {
		size_t n = strcspn(l, "\n");

		EXPECT_GE(72UL, n) TH_LOG("%.*s", (int)n, l);
		l += n + !!l[n];
	}
	/* both sides named */
	EXPECT_NE(NULL, strstr(self->out, "A: 6.18.44-a, started 2026-12-01T10:00:00Z"));
	EXPECT_NE(NULL, strstr(self->out, "B: 6.18.44-a, started 2026-12-01T10:00:00Z"));
	EXPECT_NE(NULL, strstr(self->out, "env: Test CPU @ 2.5GHz"));
}

TEST_F(cmp, noise_and_significance)
{
	char args[512], r[512];

	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	row(self->out, "XDP_DROP generic 64B 1 flow:", r, sizeof(r));
	EXPECT_NE(NULL, strstr(r, "+0.0% / +0.0 ns / +0 TSC cycles")) TH_LOG("%s", r);
	EXPECT_NE(NULL, strstr(r, "(no significant change)")) TH_LOG("%s", r);
	row(self->out, "XDP_TX native 64B 1 flow:", r, sizeof(r));
	EXPECT_NE(NULL, strstr(r, "-10.8% / -22.0 ns / -55 TSC cycles")) TH_LOG("%s", r);
	EXPECT_NE(NULL, strstr(r, "Mpps +12.1%")) TH_LOG("%s", r);
	EXPECT_EQ(NULL, strstr(r, "no significant change")) TH_LOG("%s", r);
	EXPECT_NE(NULL, strstr(self->out, "3 points compared: 1 dearer, 1 cheaper, 1 no significant change"))
		TH_LOG("%s", self->out);
}

TEST_F(cmp, one_side_only)
{
	char args[512];

	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "Only in A (not compared):\n  XDP_PASS native 64B 1 flow\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "Only in B (not compared):\n  XDP_REDIRECT native 1500B 100 flows\n"))
		TH_LOG("%s", self->out);
}

static void guard_case(FIXTURE_DATA(cmp) *self,
		       struct __test_metadata *_metadata,
		       const struct env *e, const char *field)
{
	char args[512];

	ASSERT_EQ(0, write_sweep(self->c, e, pts_b));
	snprintf(args, sizeof(args), "%s %s", self->a, self->c);
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, field)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "--force")) TH_LOG("%s", self->out);
	snprintf(args, sizeof(args), "--force %s %s", self->a, self->c);
	EXPECT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "NOT ALIKE")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, field)) TH_LOG("%s", self->out);
}

TEST_F(cmp, guard_cpu_model)
{
	struct env e = env_b;

	e.cpu = "Other CPU";
	guard_case(self, _metadata, &e,
		   "cpu_model: A \"Test CPU @ 2.5GHz\", B \"Other CPU\"");
}

TEST_F(cmp, guard_repeat)
{
	struct env e = env_b;

	e.repeat = 7;
	guard_case(self, _metadata, &e, "repeat: A 6, B 7");
}

TEST_F(cmp, guard_tsc)
{
	struct env e = env_b;

	e.ghz = 2.6;	/* 4% */
	guard_case(self, _metadata, &e, "tsc_ghz");
}

TEST_F(cmp, other_kernel_accepted)
{
	struct env e = env_b;
	char args[512];

	e.release = "6.19.0-b";
	ASSERT_EQ(0, write_sweep(self->c, &e, pts_b));
	snprintf(args, sizeof(args), "%s %s", self->a, self->c);
	EXPECT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "A: 6.18.44-a,")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "B: 6.19.0-b,")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "kernel release differs: A 6.18.44-a, B 6.19.0-b"));
	EXPECT_EQ(NULL, strstr(self->out, "NOT ALIKE"));
}

TEST_F(cmp, malformed_json)
{
	char args[512], want[256];
	FILE *f = fopen(self->c, "w");

	ASSERT_NE(NULL, f);
	/* line 3, column 17: the second string, where ':' belongs, ends */
	fprintf(f, "{\n  \"schema\": \"xdp-sweep/1\",\n  \"version\" \"0.1\"\n}\n");
	fclose(f);
	snprintf(args, sizeof(args), "%s %s", self->a, self->c);
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	snprintf(want, sizeof(want), "%s:3:17: ", self->c);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "':' expected near '\"0.1\"'")) TH_LOG("%s", self->out);
}

TEST_F(cmp, truncated_json)
{
	unsigned int line, col;
	char args[512];
	const char *p;

	/* cut A in the middle of its points */
	ASSERT_EQ(0, truncate(self->a, 900));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	p = strstr(self->out, self->a);
	ASSERT_NE(NULL, p) TH_LOG("%s", self->out);
	EXPECT_EQ(2, sscanf(p + strlen(self->a), ":%u:%u:", &line, &col))
		TH_LOG("%s", self->out);
	EXPECT_LT(1U, line);
	EXPECT_NE(NULL, strstr(self->out, "expected near end of file")) TH_LOG("%s", self->out);
}

TEST_F(cmp, not_a_sweep_missing_file_bad_option)
{
	char args[512];
	FILE *f = fopen(self->c, "w");

	ASSERT_NE(NULL, f);
	fprintf(f, "{\"schema\": \"something-else/2\", \"points\": []}\n");
	fclose(f);
	snprintf(args, sizeof(args), "%s %s", self->c, self->b);
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, self->c));
	EXPECT_NE(NULL, strstr(self->out, "not an xdp_sweep result")) TH_LOG("%s", self->out);

	snprintf(args, sizeof(args), "%s %s/none.json", self->a, self->dir);
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "none.json: No such file or directory"))
		TH_LOG("%s", self->out);

	snprintf(args, sizeof(args), "--bogus %s %s", self->a, self->b);
	EXPECT_EQ(2, compare(self, args)) TH_LOG("%s", self->out);
	snprintf(args, sizeof(args), "%s", self->a);
	EXPECT_EQ(2, compare(self, args)) TH_LOG("%s", self->out);
}

/* v rounded to digits decimals, -0 as +0: how the text prints it */
static double shown(double v, int digits)
{
	double m = pow(10, digits);

	return round(v * m) / m + 0.0;
}

/* --json parses and holds the numbers of the text report */
TEST_F(cmp, json_output)
{
	static const char labels[][32] = {
		"XDP_DROP native 64B 1 flow", "XDP_DROP generic 64B 1 flow",
		"XDP_TX native 64B 1 flow",
	};
	const struct jr_value *x, *p;
	char args[512], line[256];
	static char text[16384];
	struct jr_value *d;
	size_t i;

	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	snprintf(text, sizeof(text), "%s", self->out);
	ASSERT_EQ(0, compare_json(self, args, &d)) TH_LOG("%s", self->out);
	ASSERT_NE(NULL, d) TH_LOG("%s", self->out);
	ASSERT_EQ(3U, jt_len(d, "points"));
	for (i = 0; i < ARRAY_SIZE(labels); i++) {
		EXPECT_NE(NULL, jt_find(d, "points", "label", labels[i]))
			TH_LOG("%s", labels[i]);
	}

	x = jt_find(d, "points", "label", "XDP_DROP native 64B 1 flow");
	EXPECT_CLOSE(10, jt_num(x, "delta_ns"), 1e-3);
	EXPECT_CLOSE(1000.0 / 102, jt_num(x, "delta_pct"), 1e-3);
	EXPECT_CLOSE(25, jt_num(x, "delta_tsc_cycles"), 1e-3);
	EXPECT_CLOSE(100 * (102.0 / 112 - 1), jt_num(x, "mpps_delta_pct"), 1e-3);
	EXPECT_CLOSE(7.694, jt_num(x, "ci_lo_ns"), 0.01);
	EXPECT_CLOSE(12.306, jt_num(x, "ci_hi_ns"), 0.01);
	EXPECT_EQ(1, jt_bool(x, "significant"));
	EXPECT_EQ(5, jt_num(x, "a.runs_ok"));
	x = jt_find(d, "points", "label", "XDP_DROP generic 64B 1 flow");
	EXPECT_EQ(0, jt_bool(x, "significant"));
	x = jt_find(d, "points", "label", "XDP_TX native 64B 1 flow");
	EXPECT_EQ(1, jt_bool(x, "significant"));
	EXPECT_GT(0, jt_num(x, "ci_hi_ns"));
	EXPECT_CLOSE(-22, jt_num(x, "delta_ns"), 1e-3);

	/* the text's numbers are the JSON's */
	for (i = 0; i < jt_len(d, "points"); i++) {
		p = jr_at(jt_at(d, "points"), i);
		snprintf(line, sizeof(line),
			 "%s: %+.1f%% / %+.1f ns / %+.0f TSC cycles",
			 jt_strz(p, "label"), shown(jt_num(p, "delta_pct"), 1),
			 shown(jt_num(p, "delta_ns"), 1),
			 shown(jt_num(p, "delta_tsc_cycles"), 0));
		EXPECT_NE(NULL, strstr(text, line)) TH_LOG("%s in %s", line, text);
	}

	EXPECT_EQ(1U, jt_len(d, "only_a"));
	EXPECT_STREQ("XDP_PASS", jt_strz(d, "only_a[0].action"));
	EXPECT_EQ(1U, jt_len(d, "only_b"));
	EXPECT_STREQ("XDP_REDIRECT", jt_strz(d, "only_b[0].action"));
	EXPECT_EQ(1500, jt_num(d, "only_b[0].size"));
	EXPECT_EQ(100, jt_num(d, "only_b[0].flows"));
	EXPECT_EQ(2.5, jt_num(d, "tsc_ghz"));
	EXPECT_STREQ("A", jt_strz(d, "tsc_ghz_of"));
	EXPECT_EQ(0, jt_bool(d, "forced"));
	EXPECT_EQ(95, jt_num(d, "ci_level"));
	EXPECT_STREQ("6.18.44-a", jt_strz(d, "a.kernel_release"));
	EXPECT_STREQ(self->b, jt_strz(d, "b.file"));
	jr_free(d);
}

/*
 * The same numbers as guest instructions (QEMU -icount): the delta in
 * insns, no TSC cycles and no Mpps; on a NIC pair the driver in the label
 */
TEST_F(cmp, insns_unit)
{
	struct env ea = env_a, eb = env_b;
	char args[512], r[512];

	ea.unit = eb.unit = "insns";
	ea.driver = eb.driver = "igb";
	ASSERT_EQ(0, write_sweep(self->a, &ea, pts_a));
	ASSERT_EQ(0, write_sweep(self->b, &eb, pts_b));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	row(self->out, "XDP_DROP igb native 64B 1 flow:", r, sizeof(r));
	EXPECT_NE(NULL, strstr(r, "+9.80% / +10.0 insns per packet")) TH_LOG("%s", r);
	EXPECT_NE(NULL, strstr(r, "[95% CI +7.7..+12.3 insns]")) TH_LOG("%s", r);
	EXPECT_EQ(NULL, strstr(r, "Mpps")) TH_LOG("%s", r);
	EXPECT_EQ(NULL, strstr(self->out, "TSC cycles")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "guest instructions")) TH_LOG("%s", self->out);
}

/* --tolerance: within it "no change", whatever Welch says */
TEST_F(cmp, tolerance)
{
	char args[512], r[512];

	snprintf(args, sizeof(args), "--tolerance 10 %s %s", self->a, self->b);
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	row(self->out, "XDP_DROP native 64B 1 flow:", r, sizeof(r));
	EXPECT_NE(NULL, strstr(r, "(no change: within 10%)")) TH_LOG("%s", r);
	row(self->out, "XDP_TX native 64B 1 flow:", r, sizeof(r));
	EXPECT_EQ(NULL, strstr(r, "no change")) TH_LOG("%s", r);
	EXPECT_NE(NULL, strstr(self->out, "3 points compared: 0 dearer, 1 cheaper, 2 no significant change"))
		TH_LOG("%s", self->out);
	EXPECT_EQ(2, compare(self, "--tolerance x a b")) TH_LOG("%s", self->out);
}

TEST_F(cmp, guard_unit_and_driver)
{
	struct env e = env_b;

	e.unit = "insns";
	guard_case(self, _metadata, &e, "cost_unit: A \"ns\", B \"insns\"");
	e.unit = NULL;
	e.driver = "igb";
	guard_case(self, _metadata, &e, "driver: A \"veth\", B \"igb\"");
}

/* Replace the first from in path by to: edits that write_sweep cannot make */
static int replace_in(const char *path, const char *from, const char *to)
{
	static char text[65536];
	FILE *f = fopen(path, "r");
	size_t n;
	char *p;

	if (!f)
		return -errno;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	p = strstr(text, from);
	if (!p)
		return -ENOENT;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%.*s%s%s", (int)(p - text), text, to, p + strlen(from));
	return fclose(f) ? -errno : 0;
}

/* A receive-stack row (xdp_sweep --rxdrop): AF_XDP rxdrop at 64 bytes */
struct stk {
	const char *mode;
	double ns[5];		/* ns_per_pkt of its runs */
	double app;		/* app_ns_per_pkt of each */
};

/* Add rows (up to one with no mode) to the result at path, as "stacks" */
static int add_stacks(const char *path, const struct stk *rows)
{
	char text[4096];
	size_t n = 0;
	int i, k;

	n += snprintf(text + n, sizeof(text) - n, "\n ],\n \"stacks\": [");
	for (i = 0; rows[i].mode && n < sizeof(text); i++) {
		n += snprintf(text + n, sizeof(text) - n,
			      "%s\n  {\"stack\": \"af_xdp\", \"mode\": \"%s\", "
			      "\"benchmark\": \"rxdrop\", \"size\": 64,\n   \"runs\": [",
			      i ? "," : "", rows[i].mode);
		for (k = 0; k < 5 && n < sizeof(text); k++)
			n += snprintf(text + n, sizeof(text) - n,
				      "%s{\"ok\": true, \"ns_per_pkt\": %g, \"app_ns_per_pkt\": %g, \"pps\": 1e6}",
				      k ? ", " : "", rows[i].ns[k], rows[i].app);
		if (n < sizeof(text))
			n += snprintf(text + n, sizeof(text) - n, "]}");
	}
	if (n < sizeof(text))
		n += snprintf(text + n, sizeof(text) - n, "\n ]\n}\n");
	if (n >= sizeof(text))
		return -ENOSPC;
	/* write_sweep's end, "points" closed */
	return replace_in(path, "\n ]\n}\n", text);
}

/*
 * AF_XDP rxdrop rows: compared as the points are, NET_RX and the app's
 * time each a row; a row on one side only is listed; a result without
 * stacks against one with them compares the points and lists the rows
 */
TEST_F(cmp, stack_rows)
{
	static const struct stk stacks_a[] = {
		{ "native-with-zerocopy", { 1000, 1001, 1002, 1003, 1004 }, 500 },
		{ "native", { 900, 900, 900, 900, 900 }, 400 },
		{}
	};
	static const struct stk stacks_b[] = {
		{ "native-with-zerocopy", { 1010, 1011, 1012, 1013, 1014 }, 500 },
		{}
	};
	static const char zc[] = "AF_XDP rxdrop igb native-with-zerocopy 64B";
	struct env ea = env_a, eb = env_b;
	const struct jr_value *p;
	char args[512], r[512];
	struct jr_value *d;

	ea.unit = eb.unit = "insns";
	ea.driver = eb.driver = "igb";
	ASSERT_EQ(0, write_sweep(self->a, &ea, pts_a));
	ASSERT_EQ(0, write_sweep(self->b, &eb, pts_b));
	ASSERT_EQ(0, write_sweep(self->c, &eb, pts_b));
	ASSERT_EQ(0, add_stacks(self->a, stacks_a));
	ASSERT_EQ(0, add_stacks(self->b, stacks_b));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	row(self->out, "AF_XDP rxdrop igb native-with-zerocopy 64B:", r, sizeof(r));
	EXPECT_NE(NULL, strstr(r, "+1.00% / +10.0 insns per packet")) TH_LOG("%s", self->out);
	row(self->out, "AF_XDP rxdrop igb native-with-zerocopy 64B app:", r, sizeof(r));
	EXPECT_NE(NULL, strstr(r, "+0.00% / +0.0 insns per packet")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "Only in A (not compared):\n  XDP_PASS igb native 64B 1 flow\n  AF_XDP rxdrop igb native 64B\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "5 points compared:")) TH_LOG("%s", self->out);
	/* --json: the rows say what they are */
	ASSERT_EQ(0, compare_json(self, args, &d)) TH_LOG("%s", self->out);
	ASSERT_NE(NULL, d) TH_LOG("%s", self->out);
	EXPECT_EQ(5U, jt_len(d, "points"));
	p = jt_find(d, "points", "label", zc);
	EXPECT_STREQ("af_xdp", jt_strz(p, "stack"));
	EXPECT_STREQ("native-with-zerocopy", jt_strz(p, "mode"));
	EXPECT_EQ(64, jt_num(p, "size"));
	EXPECT_STREQ("net_rx", jt_strz(p, "cost"));
	snprintf(r, sizeof(r), "%s app", zc);
	p = jt_find(d, "points", "label", r);
	EXPECT_STREQ("af_xdp", jt_strz(p, "stack"));
	EXPECT_STREQ("app", jt_strz(p, "cost"));
	EXPECT_STREQ("XDP_DROP", jt_strz(jt_find(d, "points", "cost", "net_rx"),
					 "action"));
	jr_free(d);
	/* an older result, without stacks */
	snprintf(args, sizeof(args), "%s %s", self->c, self->b);
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "Only in B (not compared):\n  AF_XDP rxdrop igb native-with-zerocopy 64B\n"))
		TH_LOG("%s", self->out);
}

/* B with from replaced by to: refused (1), "B: what" said */
static void refused(FIXTURE_DATA(cmp) *self,
		    struct __test_metadata *_metadata, const char *from,
		    const char *to, const char *what)
{
	char args[512], want[512];

	ASSERT_EQ(0, replace_in(self->b, from, to));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	snprintf(want, sizeof(want), "%s%s", self->b, what);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
}

/* 1e999 is no double: refused where it is read, with its place */
TEST_F(cmp, tsc_ghz_overflow)
{
	refused(self, _metadata, "\"tsc_ghz\": 2.51", "\"tsc_ghz\": 1e999",
		":8:");
	EXPECT_NE(NULL, strstr(self->out, "real number overflow near '1e999'"))
		TH_LOG("%s", self->out);
}

TEST_F(cmp, tsc_ghz_zero_and_huge)
{
	refused(self, _metadata, "\"tsc_ghz\": 2.51", "\"tsc_ghz\": 0",
		": not a valid sweep result: env.tsc_ghz: 0 is not a number in 0.001..1000");
	refused(self, _metadata, "\"tsc_ghz\": 0", "\"tsc_ghz\": 1e300",
		": not a valid sweep result: env.tsc_ghz: 1e+300 is not a number in 0.001..1000");
}

TEST_F(cmp, ns_per_pkt_zero)
{
	refused(self, _metadata, "\"ns_per_pkt\": 402,", "\"ns_per_pkt\": 0,",
		": not a valid sweep result: points[3] (XDP_REDIRECT native 1500B 100 flows): runs[2].ns_per_pkt: 0 is not a number in 0.001..1000000000000");
}

TEST_F(cmp, ns_per_pkt_negative)
{
	refused(self, _metadata, "\"ns_per_pkt\": 110,", "\"ns_per_pkt\": -110,",
		": not a valid sweep result: points[0] (XDP_DROP native 64B 1 flow): runs[0].ns_per_pkt: -110 is not a number in 0.001..1000000000000");
}

TEST_F(cmp, pps_zero)
{
	char from[64];

	snprintf(from, sizeof(from), "\"pps\": %.17g}", 1e9 / 111);
	refused(self, _metadata, from, "\"pps\": 0}",
		": not a valid sweep result: points[0] (XDP_DROP native 64B 1 flow): runs[1].pps: 0 is not a number in 0.001..1000000000000");
}

/* Finite, but its square is not: the CI would be NaN */
TEST_F(cmp, run_at_1e308)
{
	refused(self, _metadata, "\"ns_per_pkt\": 111,", "\"ns_per_pkt\": 1e308,",
		": not a valid sweep result: points[0] (XDP_DROP native 64B 1 flow): runs[1].ns_per_pkt: 1e+308 is not a number in 0.001..1000000000000");
}

TEST_F(cmp, empty_points)
{
	static const struct pt none[] = { {} };

	ASSERT_EQ(0, write_sweep(self->b, &env_b, none));
	refused(self, _metadata, "\"points\": [", "\"points\": [",
		": not a valid sweep result: no points (points is empty): nothing to compare");
}

TEST_F(cmp, unknown_cost_unit)
{
	struct env e = env_b;

	e.unit = "cycles";
	ASSERT_EQ(0, write_sweep(self->b, &e, pts_b));
	refused(self, _metadata, "\"cycles\"", "\"cycles\"",
		": not a valid sweep result: options.cost_unit is \"cycles\", not one of ns, insns");
	/* not a string: not taken for "ns" either */
	refused(self, _metadata, "\"cycles\"", "5",
		": not a valid sweep result: options.cost_unit is a number, not a string");
}

TEST_F(cmp, duplicate_point)
{
	static const struct pt dup[] = {
		{ "XDP_DROP", "native", 64, 1, { 110, 111, 112, 113, 114 }, false },
		{ "XDP_TX", "native", 64, 1, { 180, 181, 182, 183, 184 }, false },
		{ "XDP_DROP", "native", 64, 1, { 210, 211, 212, 213, 214 }, false },
		{}
	};

	ASSERT_EQ(0, write_sweep(self->b, &env_b, dup));
	refused(self, _metadata, "\"points\": [", "\"points\": [",
		": not a valid sweep result: points[2] (XDP_DROP native 64B 1 flow): the same point as points[0]");
}

/* A legal number of any length is a double */
TEST_F(cmp, long_number_accepted)
{
	static const char digits[] =
		"1234567890123456789012345678901234567890123456789012345678901234567890";
	char args[512], to[128];

	ASSERT_EQ(70UL, strlen(digits));
	snprintf(to, sizeof(to), "\"ncpus\": %s", digits);
	ASSERT_EQ(0, replace_in(self->b, "\"ncpus\": 2", to));
	/* 1.000...0 is A's 1 */
	snprintf(to, sizeof(to), "\"duration_s\": 1.%069d,", 0);
	ASSERT_EQ(0, replace_in(self->b, "\"duration_s\": 1,", to));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	EXPECT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "3 points compared")) TH_LOG("%s", self->out);
}

/* "AMD EPYC\u0000other" is not "AMD EPYC" to the guard: refused */
TEST_F(cmp, nul_in_string_refused)
{
	refused(self, _metadata, "Test CPU @ 2.5GHz", "Test CPU @ 2.5GHz\\u0000other",
		":8:");
	EXPECT_NE(NULL, strstr(self->out, "\\u0000 is not allowed")) TH_LOG("%s", self->out);
}

TEST_F(cmp, directory_input)
{
	char args[512], want[128];

	snprintf(args, sizeof(args), "%s %s", self->a, self->dir);
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	snprintf(want, sizeof(want), "%s: is a directory, not a file", self->dir);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
}

/*
 * --max-input: a file of the limit is read, one byte more is refused; by
 * default 64 MiB, counted while reading (a pipe of 70 MB of blanks)
 */
TEST_F(cmp, input_over_limit)
{
	char args[768], want[256];
	struct stat sa, sb;
	off_t max;

	ASSERT_EQ(0, stat(self->a, &sa));
	ASSERT_EQ(0, stat(self->b, &sb));
	max = sa.st_size > sb.st_size ? sa.st_size : sb.st_size;
	snprintf(args, sizeof(args), "--max-input %lld %s %s", (long long)max,
		 self->a, self->b);
	EXPECT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	snprintf(args, sizeof(args), "--max-input %lld %s %s",
		 (long long)max - 1, self->a, self->b);
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	snprintf(want, sizeof(want), ": larger than the input limit of %lld bytes (--max-input)",
		 (long long)max - 1);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);

	snprintf(args, sizeof(args),
		 "head -c 70000000 /dev/zero | tr '\\0' ' ' | %s/xdp_compare %s /dev/stdin 2>&1",
		 bin(), self->a);
	EXPECT_EQ(1, run_cmd(args, self->out, sizeof(self->out))) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "/dev/stdin: larger than the input limit of 67108864 bytes"))
		TH_LOG("%s", self->out);
}

/*
 * A valid 50 MB result (A's points again and again, each at its own
 * frame size and flows) against itself in bounded memory (1.5 GB of address
 * space), and too little memory said as such.  The harness's default 30 s
 * is this test's own time limit, not a speed threshold: writing and
 * reading 50 MB twice took longer than that on a shared, loaded host
 * (load average 12 on 2 vCPUs), so it gets 120 s.
 */
TEST_F_TIMEOUT(cmp, large_file, 120)
{
	bool asan = getenv("SANITIZED");	/* make check-sanitize */
	char cmd[2048], big[160];
	struct stat st;

	snprintf(big, sizeof(big), "%s/big.json", self->dir);
	ASSERT_EQ(0, write_big_sweep(big, &env_a, pts_a, 100000));
	ASSERT_EQ(0, stat(big, &st));
	EXPECT_LT(50000000, st.st_size);
	/* ASan reserves terabytes of shadow: no address-space limit then */
	snprintf(cmd, sizeof(cmd), "%s %s/xdp_compare %s %s 2>&1 | tail -1",
		 asan ? "" : "prlimit --as=1500000000", bin(), big, big);
	EXPECT_EQ(0, run_cmd(cmd, self->out, sizeof(self->out))) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "100000 points compared: 0 dearer, 0 cheaper, 100000 no significant change"))
		TH_LOG("%s", self->out);
	if (asan) {
		unlink(big);
		return;
	}
	snprintf(cmd, sizeof(cmd), "prlimit --as=200000000 %s/xdp_compare %s %s 2>&1",
		 bin(), big, big);
	EXPECT_EQ(1, run_cmd(cmd, self->out, sizeof(self->out))) TH_LOG("%s", self->out);
	snprintf(cmd, sizeof(cmd), "%s: out of memory", big);
	EXPECT_NE(NULL, strstr(self->out, cmd)) TH_LOG("%s", self->out);
	unlink(big);
}

/*
 * TOOL on one file of pre, n thousand digits and post, in as bytes of
 * address space: exit 1 and want in what it printed.  Not under ASan,
 * which needs terabytes of address space.
 */
static void short_of_memory(struct __test_metadata *_metadata,
			    FIXTURE_DATA(cmp) *self, const char *tool,
			    const char *pre, int n, const char *post, long as,
			    const char *want)
{
	char cmd[1024], path[160];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/long", self->dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs(pre, f);
	for (i = 0; i < n; i++)
		fprintf(f, "%01000d", 0);
	fputs(post, f);
	ASSERT_EQ(0, fclose(f));
	snprintf(cmd, sizeof(cmd), "prlimit --as=%ld %s/%s %s %s 2>&1", as,
		 bin(), tool, path, strcmp(tool, "xdp_compare") ? "" : path);
	EXPECT_EQ(1, run_cmd(cmd, self->out, sizeof(self->out))) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
	unlink(path);
}

/*
 * One long string, memory short: jansson's own allocation failed inside
 * its lexer (SIGSEGV, exit 139, under 12-25 MB of address space: the
 * fifth hostile-user campaign); its allocations now end the tool with a
 * message and exit 1
 */
TEST_F(cmp, out_of_memory_in_the_parser)
{
	if (getenv("SANITIZED"))
		SKIP(return, "ASan reserves terabytes: no address-space limit");
	short_of_memory(_metadata, self, "xdp_compare", "[\"", 10000, "\"]\n",
			20000000, "/long: out of memory reading JSON (");
}

/*
 * xdp_peers' reader likewise: a line it cannot hold in memory is said so,
 * not taken for the end of an empty file (the same campaign)
 */
TEST_F(cmp, peers_out_of_memory_said)
{
	if (getenv("SANITIZED"))
		SKIP(return, "ASan reserves terabytes: no address-space limit");
	short_of_memory(_metadata, self, "xdp_peers", "", 16000, "", 9000000,
			"/long:1: reading a line (Cannot allocate memory)");
}

/*
 * A result that a signal cut short, or that ran beside another measuring
 * run, is not compared as a clean one: refused like a result measured
 * otherwise, compared with --force and said so; a bad run_lock is refused
 */
TEST_F(cmp, not_clean_runs)
{
	char args[512];

	ASSERT_EQ(0, replace_in(self->b, "\"version\": \"0.1\",",
				"\"version\": \"0.1\", \"run_lock\": \"concurrent-seen\","));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "run_lock: A \"not recorded\", B \"concurrent-seen\""))
		TH_LOG("%s", self->out);
	snprintf(args, sizeof(args), "--force %s %s", self->a, self->b);
	EXPECT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "NOT ALIKE")) TH_LOG("%s", self->out);

	ASSERT_EQ(0, replace_in(self->b, "\"run_lock\": \"concurrent-seen\",",
				"\"run_lock\": \"exclusive\", \"interrupted\": true,"));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "interrupted: A \"no\", B \"yes\""))
		TH_LOG("%s", self->out);

	/* exclusive and not interrupted: as if neither were said */
	ASSERT_EQ(0, replace_in(self->b, "\"interrupted\": true,",
				"\"interrupted\": false,"));
	EXPECT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);

	refused(self, _metadata, "\"run_lock\": \"exclusive\"",
		"\"run_lock\": \"shared\"",
		": not a valid sweep result: run_lock is \"shared\", not one of exclusive, exclusive-overlapped, concurrent-allowed, concurrent-seen");
}

/* Another tool's JSON with the sweep's schema line is still not a sweep */
TEST_F(cmp, other_tool_refused)
{
	refused(self, _metadata, "\"tool\": \"xdp_sweep\"", "\"tool\": \"xdpsock\"",
		": not a valid sweep result: tool is \"xdpsock\", not \"xdp_sweep\"");
}

/* A FIFO no one writes to: the end at once, refused as empty */
TEST_F(cmp, fifo_without_writer)
{
	char fifo[128], args[512], want[256];

	snprintf(fifo, sizeof(fifo), "%s/fifo", self->dir);
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	snprintf(args, sizeof(args), "%s %s", self->a, fifo);
	snprintf(self->cmd, sizeof(self->cmd), "timeout 20 %s/xdp_compare %s 2>&1",
		 bin(), args);
	EXPECT_EQ(1, run_cmd(self->cmd, self->out, sizeof(self->out)))
		TH_LOG("%s", self->out);
	snprintf(want, sizeof(want), "xdp_compare: %s: empty, not a JSON document",
		 fifo);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
}

/*
 * A FIFO whose writer never writes: no wait for ever, but INPUT_WAIT_S
 * (10 s) for data, then refused.  The shell holds the writer's end (read
 * and write: its open does not wait for a reader).
 */
TEST_F(cmp, fifo_with_idle_writer)
{
	char fifo[128], want[256];

	snprintf(fifo, sizeof(fifo), "%s/fifo", self->dir);
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	snprintf(self->cmd, sizeof(self->cmd),
		 "exec 3<>%s; timeout 30 %s/xdp_compare %s %s 2>&1", fifo, bin(),
		 self->a, fifo);
	EXPECT_EQ(1, run_cmd(self->cmd, self->out, sizeof(self->out)))
		TH_LOG("%s", self->out);
	snprintf(want, sizeof(want), "xdp_compare: %s: no data within 10 s\n",
		 fifo);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
}

/* Process substitution and a pipe: read as their data comes */
TEST_F(cmp, pipes_read)
{
	snprintf(self->cmd, sizeof(self->cmd),
		 "bash -c '%s/xdp_compare <(sleep 1; cat %s) /dev/stdin' < %s 2>&1",
		 bin(), self->a, self->b);
	EXPECT_EQ(0, run_cmd(self->cmd, self->out, sizeof(self->out)))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "3 points compared")) TH_LOG("%s", self->out);
}

/* Every number read has a range, said with it: no u32 wrap taken */
TEST_F(cmp, numbers_out_of_range)
{
	refused(self, _metadata, "\"size\": 1500", "\"size\": 4294967360",
		": not a valid sweep result: points[3].size: 4294967360 is not a whole number in 46..9014");
	refused(self, _metadata, "\"size\": 4294967360", "\"size\": 1500.5",
		": not a valid sweep result: points[3].size: 1500.5 is not a whole number in 46..9014");
	ASSERT_EQ(0, replace_in(self->b, "\"size\": 1500.5", "\"size\": 1500"));
	refused(self, _metadata, "\"flows\": 100", "\"flows\": 5000",
		": not a valid sweep result: points[3].flows: 5000 is not a whole number in 1..4096");
	ASSERT_EQ(0, replace_in(self->b, "\"flows\": 5000", "\"flows\": 100"));
	refused(self, _metadata, "\"repeat\": 6", "\"repeat\": 1e9",
		": not a valid sweep result: options.repeat: 1000000000 is not a whole number in 1..100");
	ASSERT_EQ(0, replace_in(self->b, "\"repeat\": 1e9", "\"repeat\": 6"));
	/* five runs a point: more than a repeat of 4 */
	refused(self, _metadata, "\"repeat\": 6", "\"repeat\": 4",
		": not a valid sweep result: points[0] (XDP_DROP native 64B 1 flow): runs: 5 runs, more than options.repeat 4");
}

/* A run's round trips, when there: in 1..1e9 ns, or null */
TEST_F(cmp, rtt_out_of_range)
{
	char from[64], to[128], args[512];

	snprintf(from, sizeof(from), "\"pps\": %.17g}", 1e9 / 111);
	snprintf(to, sizeof(to), "\"pps\": %.17g, \"rtt_before_ns\": null, \"rtt_after_ns\": 400}",
		 1e9 / 111);
	ASSERT_EQ(0, replace_in(self->b, from, to));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	EXPECT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	refused(self, _metadata, "\"rtt_after_ns\": 400", "\"rtt_after_ns\": 1e308",
		": not a valid sweep result: points[0] (XDP_DROP native 64B 1 flow): runs[1].rtt_after_ns: 1e+308 is not a number in 1..1000000000");
}

/*
 * A file's strings reach the terminal escaped: the report's kernel, the
 * message's tool; a long path is shortened in the middle, the reason said
 */
TEST_F(cmp, text_escaped)
{
	char args[512];
	size_t i;

	ASSERT_EQ(0, replace_in(self->b, "\"kernel_release\": \"6.18.44-a\"",
				"\"kernel_release\": \"6.18\\u001b[2J\\u009b31m\""));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	EXPECT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "B: 6.18\\x1b[2J\\xc2\\x9b31m,")) TH_LOG("%s", self->out);
	for (i = 0; self->out[i]; i++)
		if ((unsigned char)self->out[i] == 0x1b)
			break;
	EXPECT_EQ(strlen(self->out), i) TH_LOG("%s", self->out);
	refused(self, _metadata, "\"tool\": \"xdp_sweep\"",
		"\"tool\": \"\\u001b]0;owned\\u0007\"",
		": not a valid sweep result: tool is \"\\x1b]0;owned\\x07\", not \"xdp_sweep\"");
}

/* A path that would fill the line: cut in the middle, the reason said */
TEST_F(cmp, long_path)
{
	snprintf(self->cmd, sizeof(self->cmd),
		 "p=/nonexistent$(printf '/%%0200d' $(seq 19))/b.json; %s/xdp_compare %s $p 2>&1",
		 bin(), self->a);
	EXPECT_EQ(1, run_cmd(self->cmd, self->out, sizeof(self->out)))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "xdp_compare: /nonexistent/000"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "...000"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "0019/b.json: No such file or directory\n"))
		TH_LOG("%s", self->out);
	EXPECT_GT(400U, strlen(self->out)) TH_LOG("%s", self->out);
}

/*
 * runs_ok, where the writer gave it, is the count of ok runs: a point
 * whose runs were removed (or its count edited) is refused
 */
TEST_F(cmp, runs_ok_counted)
{
	char args[512];

	ASSERT_EQ(0, replace_in(self->b, "\"runs\": [", "\"runs_ok\": 5, \"runs\": ["));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	EXPECT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	refused(self, _metadata, "\"runs_ok\": 5", "\"runs_ok\": 3",
		": not a valid sweep result: points[0] (XDP_DROP native 64B 1 flow): runs_ok is 3, but 5 of its runs are ok");
	refused(self, _metadata, "\"runs_ok\": 3", "\"runs_ok\": \"5\"",
		": not a valid sweep result: points[0] (XDP_DROP native 64B 1 flow): runs_ok is a string, not a number");
}

/* Points without ok runs on a side are counted as not judged */
TEST_F(cmp, counts_add_up)
{
	char args[512];

	snprintf(self->cmd, sizeof(self->cmd), "sed -i 's/\"ok\": true/\"ok\": false, \"error\": \"e\"/' %s",
		 self->b);
	ASSERT_EQ(0, system(self->cmd));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	/* nothing judged: the report, and exit 1 as for a refused input */
	EXPECT_EQ(1, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "no ok runs in B")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "3 points compared: 0 dearer, 0 cheaper, 0 no significant change, 3 not judged"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "xdp_compare: nothing compared: no point has an ok run on both sides"))
		TH_LOG("%s", self->out);
}

/*
 * --expect: xdp_compare's exit status is the verdict (0 every row as
 * expected, 3 not), for scripts (make kernel-ab-test) that only read it.
 * xdp_compare RULES A B, its exit status; the row of label in self->out
 */
static int expect(FIXTURE_DATA(cmp) *self, const char *rules)
{
	char args[768];

	snprintf(args, sizeof(args), "%s %s %s", rules, self->a, self->b);
	return compare(self, args);
}

/* A change of +X: within the room, else 3 and the row said FAIL */
TEST_F(cmp, expect_delta)
{
	EXPECT_EQ(0, expect(self, "--expect 'XDP_DROP native*=+10' --expect 'XDP_DROP generic*=no-change' --expect 'XDP_TX*=-22'"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "ok: XDP_DROP native 64B 1 flow: +10.00 ns, expected +10.00 within 0.00\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "ok: XDP_DROP generic 64B 1 flow: +0.00 ns,\n    expected no change within 0.00\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "expect: 3 as expected, 0 not, 0 shown\n"))
		TH_LOG("%s", self->out);
	/* 1 ns off with no room */
	EXPECT_EQ(3, expect(self, "--expect 'XDP_DROP native*=+9'")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "FAIL: XDP_DROP native 64B 1 flow: +10.00 ns, expected +9.00 within 0.00\n"))
		TH_LOG("%s", self->out);
	/* the rows no rule matches are shown, not judged */
	EXPECT_NE(NULL, strstr(self->out, "shown: XDP_TX native 64B 1 flow: -22.00 ns (not judged: no rule)"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "expect: 0 as expected, 1 not, 2 shown\n"))
		TH_LOG("%s", self->out);
	/* --floor: the least room; 1 ns is just enough, 0.99 not */
	EXPECT_EQ(0, expect(self, "--floor 1 --expect 'XDP_DROP native*=+9'")) TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--floor 0.99 --expect 'XDP_DROP native*=+9'")) TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--floor 0.99 --expect 'XDP_DROP native*=+11'")) TH_LOG("%s", self->out);
}

/* The room in % is of A's median (102 ns): +10 ns is 9.80%, not 9.8% of B */
TEST_F(cmp, expect_tolerance)
{
	EXPECT_EQ(3, expect(self, "--expect 'XDP_DROP native*=no-change/9.8'")) TH_LOG("%s", self->out);
	EXPECT_EQ(0, expect(self, "--expect 'XDP_DROP native*=no-change/9.81'")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "expected no change within 10.01")) TH_LOG("%s", self->out);
	/* --tolerance when the rule has no /PCT; the rule's own wins */
	EXPECT_EQ(0, expect(self, "--tolerance 9.81 --expect 'XDP_DROP native*=no-change'")) TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--tolerance 9.8 --expect 'XDP_DROP native*=no-change'")) TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--tolerance 50 --expect 'XDP_DROP native*=no-change/9.8'")) TH_LOG("%s", self->out);
}

/* --spread: room at least A's spread (max - min of the ok runs: 4) plus B's (4) */
TEST_F(cmp, expect_spread)
{
	EXPECT_EQ(0, expect(self, "--spread --expect 'XDP_DROP native*=+2'")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "expected +2.00 within 8.00")) TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--spread --expect 'XDP_DROP native*=+1.9'")) TH_LOG("%s", self->out);
	/* A's failed run (1e6 ns) is no part of its spread */
	EXPECT_EQ(3, expect(self, "--spread --expect 'XDP_DROP native*=no-change'")) TH_LOG("%s", self->out);
	/* XDP_TX: 8 + 4 */
	EXPECT_EQ(0, expect(self, "--spread --expect 'XDP_TX*=-10'")) TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--spread --expect 'XDP_TX*=-9.9'")) TH_LOG("%s", self->out);
}

/* dearer and cheaper: significant (Welch), the right way, beyond the room */
TEST_F(cmp, expect_dearer_cheaper)
{
	EXPECT_EQ(0, expect(self, "--expect 'XDP_DROP native*=dearer' --expect 'XDP_TX*=cheaper'"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "expected dearer (significant, beyond 0.00)"))
		TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--expect 'XDP_TX*=dearer'")) TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--expect 'XDP_DROP native*=cheaper'")) TH_LOG("%s", self->out);
	/* no significant change is neither */
	EXPECT_EQ(3, expect(self, "--expect 'XDP_DROP generic*=dearer'")) TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--expect 'XDP_DROP generic*=cheaper'")) TH_LOG("%s", self->out);
	/* +10 ns within 10% of 102 is no change, so not dearer */
	EXPECT_EQ(3, expect(self, "--tolerance 10 --expect 'XDP_DROP native*=dearer'")) TH_LOG("%s", self->out);
	/* generic +5 ns with a spread of 20: up, beyond no room, not significant */
	ASSERT_EQ(0, replace_in(self->b, "\"ns_per_pkt\": 300,", "\"ns_per_pkt\": 305,"));
	ASSERT_EQ(0, replace_in(self->b, "\"ns_per_pkt\": 305,", "\"ns_per_pkt\": 310,"));
	ASSERT_EQ(0, replace_in(self->b, "\"ns_per_pkt\": 310,", "\"ns_per_pkt\": 315,"));
	ASSERT_EQ(0, replace_in(self->b, "\"ns_per_pkt\": 295,", "\"ns_per_pkt\": 300,"));
	ASSERT_EQ(0, replace_in(self->b, "\"ns_per_pkt\": 290,", "\"ns_per_pkt\": 295,"));
	EXPECT_EQ(0, expect(self, "--expect 'XDP_DROP generic*=+5'")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "(no significant change)")) TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--expect 'XDP_DROP generic*=dearer'")) TH_LOG("%s", self->out);
}

/* The last rule that matches decides; shown rows are not judged */
TEST_F(cmp, expect_last_rule_wins)
{
	EXPECT_EQ(0, expect(self, "--expect +999 --expect 'XDP_DROP*=shown' --expect 'XDP_TX*=shown'"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "expect: 0 as expected, 0 not, 3 shown\n"))
		TH_LOG("%s", self->out);
	EXPECT_EQ(3, expect(self, "--expect 'XDP_DROP*=shown' --expect 'XDP_TX*=shown' --expect +999"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "expect: 0 as expected, 3 not, 0 shown\n"))
		TH_LOG("%s", self->out);
	/* a rule that matches no row compared fails (a typo judges nothing) */
	EXPECT_EQ(3, expect(self, "--expect 'XDP_DROP native*=+10' --expect 'XDP_PASS*=no-change'"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "FAIL: --expect 'XDP_PASS*=no-change' matched no row compared\n"))
		TH_LOG("%s", self->out);
	/* matched but decided by a later rule: not that */
	EXPECT_EQ(0, expect(self, "--expect 'XDP_DROP*=+999' --expect 'XDP_DROP native*=+10' --expect 'XDP_DROP generic*=no-change'"))
		TH_LOG("%s", self->out);
}

/* A row with no ok runs cannot be as expected */
TEST_F(cmp, expect_no_ok_runs)
{
	snprintf(self->cmd, sizeof(self->cmd), "sed -i 's/\"ok\": true/\"ok\": false, \"error\": \"e\"/' %s",
		 self->b);
	ASSERT_EQ(0, system(self->cmd));
	EXPECT_EQ(3, expect(self, "--expect 'XDP_DROP native*=no-change' --expect '*generic*=shown' --expect 'XDP_TX*=shown'"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "FAIL: XDP_DROP native 64B 1 flow: no ok runs in A or B,\n    expected XDP_DROP native*=no-change\n"))
		TH_LOG("%s", self->out);
}

/* --json: the rule, the room and the verdict of each row; exit status the same */
TEST_F(cmp, expect_json)
{
	const struct jr_value *p;
	struct jr_value *d;
	char args[768];

	snprintf(args, sizeof(args),
		 "--expect 'XDP_DROP native*=+9' --expect 'XDP_TX*=cheaper' %s %s",
		 self->a, self->b);
	EXPECT_EQ(3, compare_json(self, args, &d)) TH_LOG("%s", self->out);
	ASSERT_NE(NULL, d) TH_LOG("%s", self->out);
	EXPECT_EQ(3U, jt_len(d, "points"));
	p = jt_find(d, "points", "label", "XDP_DROP native 64B 1 flow");
	EXPECT_STREQ("XDP_DROP native*=+9", jt_strz(p, "expect"));
	EXPECT_EQ(0, jt_num(p, "allowed"));
	EXPECT_EQ(0, jt_bool(p, "as_expected"));
	/* no rule: shown, not judged */
	p = jt_find(d, "points", "label", "XDP_DROP generic 64B 1 flow");
	EXPECT_TRUE(jt_null(p, "expect"));
	EXPECT_TRUE(jt_null(p, "allowed"));
	EXPECT_TRUE(jt_null(p, "as_expected"));
	p = jt_find(d, "points", "label", "XDP_TX native 64B 1 flow");
	EXPECT_STREQ("XDP_TX*=cheaper", jt_strz(p, "expect"));
	EXPECT_EQ(0, jt_num(p, "allowed"));
	EXPECT_EQ(1, jt_bool(p, "as_expected"));
	EXPECT_EQ(0, jt_bool(d, "as_expected"));
	EXPECT_TRUE(jt_is(d, "expect_unmatched", JR_ARRAY));
	EXPECT_EQ(0U, jt_len(d, "expect_unmatched"));
	jr_free(d);

	snprintf(args, sizeof(args), "--expect 'XDP_DROP native*=+10' %s %s",
		 self->a, self->b);
	EXPECT_EQ(0, compare_json(self, args, &d)) TH_LOG("%s", self->out);
	ASSERT_NE(NULL, d) TH_LOG("%s", self->out);
	EXPECT_EQ(1, jt_bool(d, "as_expected"));
	EXPECT_TRUE(jt_is(d, "expect_unmatched", JR_ARRAY));
	EXPECT_EQ(0U, jt_len(d, "expect_unmatched"));
	jr_free(d);
}

/* A rule that is not one: bad usage (2), the rule named */
TEST_F(cmp, expect_bad_rule)
{
	static const char *const bad[] = {
		"maybe", "x=maybe", "=+1", "shown/5", "+1/101", "+1/", "nan",
		"+1e999", "no-change/-1", "dearer/x", "",
	};
	char rules[160], want[160];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(rules, sizeof(rules), "--expect '%s'", bad[i]);
		EXPECT_EQ(2, expect(self, rules)) TH_LOG("%s: %s", bad[i], self->out);
		snprintf(want, sizeof(want), "xdp_compare: --expect '%s': ", bad[i]);
		EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s: %s", bad[i], self->out);
	}
	EXPECT_EQ(2, expect(self, "--floor -1 --expect +1")) TH_LOG("%s", self->out);
}

/*
 * The placement of the vCPUs (the runs' line round trips): A at 400 ns and
 * B at 90 are more than twice apart: said, in the text and the JSON, and
 * still compared; 400 against 420 is one placement: the medians, no
 * warning; results without round trips: no placement line at all.
 */
TEST_F(cmp, placement)
{
	struct env ea = env_a, eb = env_b;
	struct jr_value *d;
	char args[512];

	ea.rtt = 400;
	eb.rtt = 90;
	ASSERT_EQ(0, write_sweep(self->a, &ea, pts_a));
	ASSERT_EQ(0, write_sweep(self->b, &eb, pts_b));
	snprintf(args, sizeof(args), "%s %s", self->a, self->b);
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "placement: line round trip CPU 0-1, runs' median: A 400 ns, B 90 ns\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "  A and B ran with the host's vCPUs placed differently\n")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "XDP_DROP native 64B 1 flow"));
	ASSERT_EQ(0, compare_json(self, args, &d)) TH_LOG("%s", self->out);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(400, jt_num(d, "rtt_median_ns_a"));
	EXPECT_EQ(90, jt_num(d, "rtt_median_ns_b"));
	EXPECT_EQ(1, jt_bool(d, "placements_differ"));
	jr_free(d);

	eb.rtt = 420;
	ASSERT_EQ(0, write_sweep(self->b, &eb, pts_b));
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "A 400 ns, B 420 ns\n")) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "placed differently"));

	/* one side without round trips: said so, not "nan ns" */
	ASSERT_EQ(0, write_sweep(self->b, &env_b, pts_b));
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "A 400 ns, B none taken\n")) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "nan")) TH_LOG("%s", self->out);

	ASSERT_EQ(0, write_sweep(self->a, &env_a, pts_a));
	ASSERT_EQ(0, compare(self, args)) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "placement:"));
	ASSERT_EQ(0, compare_json(self, args, &d)) TH_LOG("%s", self->out);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(0, jt_bool(d, "placements_differ"));
	jr_free(d);
}

TEST_HARNESS_MAIN
