// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_sweep end to end on a small matrix: its JSON result validates against
 * Documentation/sweep.schema.json, holds what was asked, and its path is
 * the last line printed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "run_cmd.h"

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
	char cmd[2048], out[4096];

	ASSERT_EQ(0, access(self->json, R_OK)) TH_LOG("last line: %s", self->json);
	ASSERT_EQ(0, strncmp(self->json, self->dir, strlen(self->dir)));
	/* Debian's python3 with python3-jsonschema (make deps) */
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 - '%s' Documentation/sweep.schema.json <<'EOF' 2>&1\n"
		 "import json, sys, jsonschema\n"
		 "doc = json.load(open(sys.argv[1]))\n"
		 "jsonschema.validate(doc, json.load(open(sys.argv[2])))\n"
		 "pts = doc['points']\n"
		 "assert len(pts) == 4, len(pts)\n"
		 "assert {(p['action'], p['mode']) for p in pts} == {('XDP_DROP', 'native'), ('XDP_DROP', 'generic'), ('XDP_TX', 'native'), ('XDP_TX', 'generic')}\n"
		 "for p in pts:\n"
		 "    assert len(p['runs']) == 3 and p['runs_ok'] == 3, p\n"
		 "    assert p['counted'] == sum(r['packets'] for r in p['runs']), p\n"
		 "    assert p['counted'] > 0 and p['ns_per_pkt']['median'] > 0, p\n"
		 "    assert p['size'] == 64 and p['flows'] == 1\n"
		 "assert doc['options']['repeat'] == 3\n"
		 "print('valid')\n"
		 "EOF", self->json);
	EXPECT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_STREQ("valid\n", out);
}

TEST_F(sweep, table_and_plot)
{
	char png[600];

	EXPECT_NE(NULL, strstr(self->out, "XDP_DROP     native     64     1"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "XDP_TX       generic    64     1"));
	EXPECT_NE(NULL, strstr(self->out, "cycles are TSC cycles at"));
	snprintf(png, sizeof(png), "%.*s.png", (int)(strlen(self->json) - 5),
		 self->json);
	EXPECT_EQ(0, access(png, R_OK)) TH_LOG("%s", png);
}

/* The schema is not vacuous: the same result less a required field fails */
TEST_F(sweep, schema_rejects_incomplete)
{
	char cmd[2048], out[4096];

	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 - '%s' Documentation/sweep.schema.json <<'EOF' 2>&1\n"
		 "import json, sys, jsonschema\n"
		 "schema = json.load(open(sys.argv[2]))\n"
		 "for cut in (('env',), ('points', 0, 'ns_per_pkt'), ('points', 0, 'runs', 0, 'packets')):\n"
		 "    doc = json.load(open(sys.argv[1]))\n"
		 "    d = doc\n"
		 "    for k in cut[:-1]:\n"
		 "        d = d[k]\n"
		 "    del d[cut[-1]]\n"
		 "    try:\n"
		 "        jsonschema.validate(doc, schema)\n"
		 "        print('accepted without', cut)\n"
		 "    except jsonschema.ValidationError:\n"
		 "        pass\n"
		 "print('done')\n"
		 "EOF", self->json);
	EXPECT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_STREQ("done\n", out);
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

/*
 * --stacks: the receive-stack comparison in one run, as rows of the table
 * and of the JSON (valid against the schema), each with runs and CIs.
 * About 10 s; on a loaded machine disturbed runs are redone (up to 3x).
 * Rates are not asserted: a starved receiver may count nothing in a run.
 */
TEST_F_TIMEOUT(stacks, rows, 150)
{
	const char *bin = getenv("BIN") ?: "build/bin";
	char dir[64] = "/tmp/xdp-sweep-test.XXXXXX", cmd[2048], out[16384];
	char *last;

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "%s/xdp_sweep --stacks --repeat 3 --duration 0.2 --warmup 0.05 --out %s 2>/dev/null",
		 bin, dir);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "AF_XDP       native     64")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "AF_XDP       generic    64"));
	EXPECT_NE(NULL, strstr(out, "TPACKET_V3   -          64"));
	EXPECT_NE(NULL, strstr(out, "TPACKET_V2   -          64"));
	EXPECT_NE(NULL, strstr(out, "recvmmsg     -          64"));
	while (strlen(out) && out[strlen(out) - 1] == '\n')
		out[strlen(out) - 1] = '\0';
	last = strrchr(out, '\n');
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 - '%s' Documentation/sweep.schema.json <<'EOF' 2>&1\n"
		 "import json, sys, jsonschema\n"
		 "doc = json.load(open(sys.argv[1]))\n"
		 "jsonschema.validate(doc, json.load(open(sys.argv[2])))\n"
		 "assert doc['points'] == [] and doc['options']['stacks'] is True\n"
		 "st = doc['stacks']\n"
		 "assert [(s['stack'], s['mode']) for s in st] == [('af_xdp', 'native'), ('af_xdp', 'generic'), ('tpacket_v3', None), ('tpacket_v2', None), ('recvmmsg', None)], st\n"
		 "for s in st:\n"
		 "    assert s['runs_ok'] == 3 and len(s['runs']) == 3, s\n"
		 "    assert s['counted'] == sum(r['packets'] for r in s['runs']) > 0, s\n"
		 "    assert s['mpps']['ci95_lo'] <= s['mpps']['median'] <= s['mpps']['ci95_hi'], s\n"
		 "    assert s['runs_disturbed'] == sum(r['disturbed'] for r in s['runs']), s\n"
		 "    assert s['lost'] == sum(r['socket_drops'] for r in s['runs']), s\n"
		 "print('valid')\n"
		 "EOF", last ? last + 1 : out);
	EXPECT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_STREQ("valid\n", out);
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
	char *last;

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "%s/xdp_sweep --rxdrop copy,zc --count 2000 --rxdrop-count 5000 --rxdrop-rate 200000 --actions XDP_DROP --modes native --sizes 64 --repeat 2 --no-plot --out %s 2>/dev/null",
		 bin, dir);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "XDP_DROP     native     64")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "AF_XDP       native     64"));
	EXPECT_NE(NULL, strstr(out, "AF_XDP       native-with-zerocopy"));
	while (strlen(out) && out[strlen(out) - 1] == '\n')
		out[strlen(out) - 1] = '\0';
	last = strrchr(out, '\n');
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 - '%s' Documentation/sweep.schema.json <<'EOF' 2>&1\n"
		 "import json, sys, jsonschema\n"
		 "doc = json.load(open(sys.argv[1]))\n"
		 "jsonschema.validate(doc, json.load(open(sys.argv[2])))\n"
		 "assert len(doc['points']) == 1 and doc['options']['stacks'] is True\n"
		 "st = doc['stacks']\n"
		 "assert [(s['stack'], s['mode']) for s in st] == [('af_xdp', 'native'), ('af_xdp', 'native-with-zerocopy')], st\n"
		 "s = st[0]\n"
		 "assert s['app_poll'] is True and s['runs_ok'] == 2, s\n"
		 "assert s['rate_pps'] == 200000 and doc['options']['rate_pps'] == 0, s\n"
		 "assert s['count'] == 5000 and doc['options']['count'] == 2000, s\n"
		 "assert doc['points'][0]['counted'] == 2 * 2000, doc['points'][0]\n"
		 "assert s['lost'] == 0 and s['counted'] == s['sent'] == 10000, s\n"
		 "assert all(r['packets'] == 5000 and r['lost'] == 0 for r in s['runs']), s\n"
		 "assert s['ns_per_pkt']['median'] > 0 and s['app_ns_per_pkt']['median'] > 0, s\n"
		 "assert st[1]['runs_ok'] == 0 and 'error' in st[1]['runs'][0], st[1]\n"
		 "print('valid')\n"
		 "EOF", last ? last + 1 : out);
	EXPECT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_STREQ("valid\n", out);
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
