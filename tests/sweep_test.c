// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_sweep end to end on a small matrix: its JSON result validates against
 * Documentation/sweep.schema.json, holds what was asked (read back through
 * lib/sweep/sweep_result, the schema's one reader), and its path is the last
 * line printed; the table has a row for each of its points.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "out_check.h"
#include "sweep_result.h"

#define SCHEMA	"Documentation/sweep.schema.json"

/* The sum of key over a row's runs */
static double sum_runs(const struct jr_value *p, const char *key)
{
	const struct jr_value *runs = jr_get(p, "runs");
	double sum = 0;
	size_t i;

	for (i = 0; i < jr_len(runs); i++) {
		const struct jr_value *r = jr_get(jr_at(runs, i), key);

		sum += jr_type(r) == JR_BOOL ? jr_bool(r) : jr_num(r);
	}
	return sum;
}

/*
 * A receive stack's runs carry xdpsock's keys for the result (one writer,
 * lib/bench/xskb_json.h), and the flat keys of before as aliases of them
 */
static void same_result_keys(struct __test_metadata *_metadata,
			     const struct jr_value *p, const char *key)
{
	const struct jr_value *runs = jr_get(p, "runs");
	size_t i;

	for (i = 0; i < jr_len(runs); i++) {
		const struct jr_value *r = jr_at(runs, i);

		EXPECT_EQ(jt_num(r, "app_polls"), jt_num(r, "rx_kicks")) TH_LOG("%s", key);
		EXPECT_EQ(jt_num(r, "app_cpu"), jt_num(r, "placement.app_cpu")) TH_LOG("%s", key);
		EXPECT_EQ(jt_num(r, "gen_cpu"), jt_num(r, "placement.gen_cpu")) TH_LOG("%s", key);
		EXPECT_EQ(jt_num(r, "net_rx_cpu"), jt_num(r, "placement.net_rx_cpu")) TH_LOG("%s", key);
		EXPECT_EQ(jt_num(r, "gen_sent"), jt_num(r, "generator.sent")) TH_LOG("%s", key);
		EXPECT_EQ(jt_num(r, "ns_per_pkt"), jt_num(r, "net_rx_ns_per_pkt")) TH_LOG("%s", key);
		EXPECT_LT(0, jt_num(r, "loop.iterations")) TH_LOG("%s", key);
		EXPECT_EQ(jt_num(r, "packets"), jt_num(r, "rx_packets")) TH_LOG("%s", key);
	}
}

/* The string member key of v, "-" for null */
static const char *str(const struct jr_value *v, const char *key)
{
	const struct jr_value *s = jr_get(v, key);

	return s && jr_type(s) == JR_NULL ? "-" : jr_str(s) ?: "(none)";
}

/*
 * path valid against the schema, then read back by lib/sweep/sweep_result into
 * d: 0, or why not in msg
 */
static int load_result(const char *path, struct sweep_doc *d, char *msg,
		       size_t len)
{
	int ret = jt_schema_check(path, "", NULL, SCHEMA, "", msg, len);

	if (ret)
		return ret;
	snprintf(msg, len, "%s: not read back (see above)", path);
	ret = sweep_doc_load(d, "sweep_test", path, JR_MAX_INPUT);
	if (ret)
		sweep_doc_free(d);
	return ret;
}

FIXTURE(sweep) {
	char dir[64];
	char out[16384];
	char json[512];
};

FIXTURE_SETUP(sweep)
{
	char cmd[1024], *last;
	const char *bin = getenv("BIN") ?: "build/bin";

	if (geteuid())
		SKIP(return, "needs root");
	snprintf(self->dir, sizeof(self->dir), "/tmp/xdp-sweep-test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(cmd, sizeof(cmd),
		 "%s/xdp_sweep --actions XDP_DROP,XDP_TX --modes native,generic --sizes 64 --repeat 3 --duration 0.2 --warmup 0.05 --out %s 2>/dev/null",
		 bin, self->dir);
	ASSERT_EQ(0, run_cmd(cmd, self->out, sizeof(self->out))) TH_LOG("%s", self->out);
	/* the last line is the JSON file's path */
	self->out[strcspn(self->out, "\0")] = '\0';
	while (strlen(self->out) && self->out[strlen(self->out) - 1] == '\n')
		self->out[strlen(self->out) - 1] = '\0';
	last = strrchr(self->out, '\n');
	snprintf(self->json, sizeof(self->json), "%s", last ? last + 1 : self->out);
}

FIXTURE_TEARDOWN(sweep)
{
	char cmd[128];

	if (self->dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
		if (system(cmd))
			TH_LOG("could not remove %s", self->dir);
	}
}

TEST_F(sweep, json_valid_and_complete)
{
	static const char *const want[] = {
		"XDP_DROP native", "XDP_DROP generic", "XDP_TX native",
		"XDP_TX generic",
	};
	struct sweep_doc d;
	char out[4096], key[64];
	bool two_cpus;
	cpu_set_t mask;
	size_t i, k;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(mask), &mask));
	two_cpus = CPU_ISSET(0, &mask) && CPU_ISSET(1, &mask);
	ASSERT_EQ(0, access(self->json, R_OK)) TH_LOG("last line: %s", self->json);
	ASSERT_EQ(0, strncmp(self->json, self->dir, strlen(self->dir)));
	ASSERT_EQ(0, load_result(self->json, &d, out, sizeof(out))) TH_LOG("%s", out);
	/* the matrix, each point once (the reader refuses a point twice) */
	ASSERT_EQ(4U, d.npoints);
	ASSERT_EQ(4U, d.nitems);
	for (i = 0; i < 4; i++) {
		const struct jr_value *p = sweep_doc_point(&d, i);

		snprintf(key, sizeof(key), "%s %s", str(p, "action"), str(p, "mode"));
		EXPECT_STREQ(want[i], key);
		EXPECT_EQ(3U, jr_len(jr_get(p, "runs"))) TH_LOG("%s", key);
		EXPECT_EQ(3, jt_num(p, "runs_ok")) TH_LOG("%s", key);
		EXPECT_EQ(sum_runs(p, "packets"), jt_num(p, "counted")) TH_LOG("%s", key);
		EXPECT_LT(0, jt_num(p, "counted")) TH_LOG("%s", key);
		EXPECT_LT(0, jt_num(p, "ns_per_pkt.median")) TH_LOG("%s", key);
		EXPECT_EQ(64, jt_num(p, "size"));
		EXPECT_EQ(1, jt_num(p, "flows"));
		/* every run's line round trip, where CPUs 0 and 1 are ours */
		for (k = 0; two_cpus && k < 3; k++) {
			const struct jr_value *r = jr_at(jr_get(p, "runs"), k);

			EXPECT_LT(0, jr_num(jr_get(r, "rtt_before_ns"))) TH_LOG("%s", key);
			EXPECT_LT(0, jr_num(jr_get(r, "rtt_after_ns"))) TH_LOG("%s", key);
		}
	}
	EXPECT_EQ(3, jt_num(d.opts, "repeat"));
	sweep_doc_free(&d);
}

/* A table row (path, mode, size, flows) for each point of the JSON */
TEST_F(sweep, table_and_plot)
{
	struct sweep_doc d;
	char png[600], row[128];
	size_t i;

	ASSERT_EQ(0, sweep_doc_load(&d, "sweep_test", self->json, JR_MAX_INPUT));
	ASSERT_EQ(4U, d.npoints);
	for (i = 0; i < d.npoints; i++) {
		const struct jr_value *p = sweep_doc_point(&d, i);

		snprintf(row, sizeof(row), "%s %s %.0f %.0f", str(p, "action"),
			 str(p, "mode"), jt_num(p, "size"), jt_num(p, "flows"));
		EXPECT_TRUE(has_words(self->out, row)) TH_LOG("%s in %s", row, self->out);
	}
	sweep_doc_free(&d);
	EXPECT_NE(NULL, strstr(self->out, "cycles are TSC cycles at"));
	snprintf(png, sizeof(png), "%.*s.png", (int)(strlen(self->json) - 5),
		 self->json);
	EXPECT_EQ(0, access(png, R_OK)) TH_LOG("%s", png);
}

/* The schema is not vacuous: the same result less a required field fails */
TEST_F(sweep, schema_rejects_incomplete)
{
	static const char cuts[][32] = {
		"env", "points[0].ns_per_pkt", "points[0].runs[0].packets",
	};
	char out[4096];
	size_t i;

	ASSERT_EQ(0, jt_schema_check(self->json, "", NULL, SCHEMA, "", out,
				     sizeof(out))) TH_LOG("%s", out);
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		EXPECT_EQ(1, jt_schema_check(self->json, "", cuts[i], SCHEMA,
					     "", out, sizeof(out)))
			TH_LOG("without %s: %s", cuts[i], out);
	}
}

FIXTURE(stacks) {
	int unused;
};

FIXTURE_SETUP(stacks)
{
}

FIXTURE_TEARDOWN(stacks)
{
}

/* The JSON's path: out's last line (out loses its trailing newlines) */
static const char *last_line(char *out)
{
	char *last;

	while (strlen(out) && out[strlen(out) - 1] == '\n')
		out[strlen(out) - 1] = '\0';
	last = strrchr(out, '\n');
	return last ? last + 1 : out;
}

/*
 * --stacks: the receive-stack comparison in one run, as rows of the table
 * and of the JSON (valid against the schema), each with runs and CIs.
 * About 10 s; on a loaded machine disturbed runs are redone (up to 3x).
 * Rates are not asserted: a starved receiver may count nothing in a run.
 */
TEST_F_TIMEOUT(stacks, rows, 150)
{
	static const char *const want[] = {
		"af_xdp native", "af_xdp generic", "tpacket_v3 -", "tpacket_v2 -",
		"recvmmsg -",
	};
	static const char rows[][24] = {
		"AF_XDP native 64", "AF_XDP generic 64", "TPACKET_V3 - 64",
		"TPACKET_V2 - 64", "recvmmsg - 64",
	};
	const char *bin = getenv("BIN") ?: "build/bin";
	char dir[64] = "/tmp/xdp-sweep-test.XXXXXX", cmd[2048], out[16384];
	char key[64], valid[4096];
	struct sweep_doc d;
	size_t i;

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "%s/xdp_sweep --stacks --repeat 3 --duration 0.2 --warmup 0.05 --out %s 2>/dev/null",
		 bin, dir);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		EXPECT_TRUE(has_words(out, rows[i])) TH_LOG("%s in %s", rows[i], out);
	}
	ASSERT_EQ(0, load_result(last_line(out), &d, valid, sizeof(valid)))
		TH_LOG("%s", valid);
	EXPECT_EQ(0U, d.npoints);
	EXPECT_EQ(1, jr_bool(jr_get(d.opts, "stacks")));
	ASSERT_EQ(5U, d.nitems);
	for (i = 0; i < 5; i++) {
		const struct jr_value *s = sweep_doc_stack(&d, i);

		snprintf(key, sizeof(key), "%s %s", str(s, "stack"), str(s, "mode"));
		EXPECT_STREQ(want[i], key);
		EXPECT_EQ(3, jt_num(s, "runs_ok")) TH_LOG("%s", key);
		EXPECT_EQ(3U, jr_len(jr_get(s, "runs"))) TH_LOG("%s", key);
		EXPECT_EQ(sum_runs(s, "packets"), jt_num(s, "counted")) TH_LOG("%s", key);
		EXPECT_LT(0, jt_num(s, "counted")) TH_LOG("%s", key);
		EXPECT_LE(jt_num(s, "mpps.ci95_lo"), jt_num(s, "mpps.median")) TH_LOG("%s", key);
		EXPECT_LE(jt_num(s, "mpps.median"), jt_num(s, "mpps.ci95_hi")) TH_LOG("%s", key);
		EXPECT_EQ(sum_runs(s, "disturbed"), jt_num(s, "runs_disturbed")) TH_LOG("%s", key);
		EXPECT_EQ(sum_runs(s, "socket_drops"), jt_num(s, "lost")) TH_LOG("%s", key);
		same_result_keys(_metadata, s, key);
	}
	sweep_doc_free(&d);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

/*
 * --rxdrop in exact-cost form: counted runs of AF_XDP rxdrop (copy) beside
 * the matrix, the app waiting in poll(); every frame sent is received
 * (lost 0) and the JSON says so.  Zero-copy is for NICs that have it
 * (the igb pair in the guest): veth refuses it, as the row's error.
 */
TEST_F_TIMEOUT(stacks, rxdrop_counted, 150)
{
	const char *bin = getenv("BIN") ?: "build/bin";
	char dir[64] = "/tmp/xdp-sweep-test.XXXXXX", cmd[2048], out[16384];
	const struct jr_value *s, *zc, *runs;
	char valid[4096];
	struct sweep_doc d;
	size_t i;

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "%s/xdp_sweep --rxdrop copy,zc --count 2000 --rxdrop-count 5000 --rxdrop-rate 200000 --actions XDP_DROP --modes native --sizes 64 --repeat 2 --no-plot --out %s 2>/dev/null",
		 bin, dir);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_TRUE(has_words(out, "XDP_DROP native 64")) TH_LOG("%s", out);
	EXPECT_TRUE(has_words(out, "AF_XDP native 64"));
	EXPECT_TRUE(has_words(out, "AF_XDP native-with-zerocopy"));
	ASSERT_EQ(0, load_result(last_line(out), &d, valid, sizeof(valid)))
		TH_LOG("%s", valid);
	ASSERT_EQ(1U, d.npoints);
	EXPECT_EQ(1, jr_bool(jr_get(d.opts, "stacks")));
	ASSERT_EQ(3U, d.nitems);
	s = sweep_doc_stack(&d, 0);
	zc = sweep_doc_stack(&d, 1);
	EXPECT_STREQ("af_xdp", str(s, "stack"));
	EXPECT_STREQ("native", str(s, "mode"));
	EXPECT_STREQ("af_xdp", str(zc, "stack"));
	EXPECT_STREQ("native-with-zerocopy", str(zc, "mode"));
	EXPECT_EQ(1, jr_bool(jr_get(s, "app_poll")));
	EXPECT_EQ(2, jt_num(s, "runs_ok"));
	EXPECT_EQ(200000, jt_num(s, "rate_pps"));
	EXPECT_EQ(0, jt_num(d.opts, "rate_pps"));
	EXPECT_EQ(5000, jt_num(s, "count"));
	EXPECT_EQ(2000, jt_num(d.opts, "count"));
	EXPECT_EQ(2 * 2000, jt_num(sweep_doc_point(&d, 0), "counted"));
	EXPECT_EQ(0, jt_num(s, "lost"));
	EXPECT_EQ(10000, jt_num(s, "counted"));
	EXPECT_EQ(10000, jt_num(s, "sent"));
	runs = jr_get(s, "runs");
	ASSERT_EQ(2U, jr_len(runs));
	for (i = 0; i < jr_len(runs); i++) {
		EXPECT_EQ(5000, jt_num(jr_at(runs, i), "packets"));
		EXPECT_EQ(0, jt_num(jr_at(runs, i), "lost"));
	}
	EXPECT_LT(0, jt_num(s, "ns_per_pkt.median"));
	EXPECT_LT(0, jt_num(s, "app_ns_per_pkt.median"));
	EXPECT_EQ(0, jt_num(zc, "runs_ok"));
	EXPECT_NE(NULL, jr_str(jr_get(jr_at(jr_get(zc, "runs"), 0), "error")));
	sweep_doc_free(&d);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

/* --rxdrop's option logic: what it refuses, and why */
TEST(rxdrop_options)
{
	static const struct {
		const char *args, *says;
	} bad[] = {
		{ "--rxdrop copy,bogus", "is none of copy, zerocopy (zc), generic" },
		{ "--rxdrop ''", "empty list" },
		{ "--rxdrop copy --stacks", "one or the other" },
		{ "--rxdrop copy --ab", "not with --ab or --threaded" },
		{ "--rxdrop copy --threaded", "not with --ab or --threaded" },
		{ "--rxdrop copy --sizes 9000", "no size up to 1514" },
		{ "--stacks --count 100", "(--rxdrop does)" },
		{ "--rxdrop-rate 1000", "need --rxdrop" },
		{ "--rxdrop-count 1000", "need --rxdrop" },
		{ "--rxdrop copy --rxdrop-count 1000", "--rxdrop-count needs --count" },
		{ "--rxdrop copy --rxdrop-rate 0", "--rxdrop-rate" },
	};
	const char *bin = getenv("BIN") ?: "build/bin";
	char cmd[512], out[4096];
	unsigned int i;

	if (geteuid())
		SKIP(return, "needs root");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(cmd, sizeof(cmd), "%s/xdp_sweep %s --out /tmp 2>&1",
			 bin, bad[i].args);
		EXPECT_EQ(2, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s: %s", bad[i].args, out);
		EXPECT_NE(NULL, strstr(out, bad[i].says)) TH_LOG("%s: %s", bad[i].args, out);
	}
}

TEST_HARNESS_MAIN
