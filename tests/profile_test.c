// SPDX-License-Identifier: GPL-2.0
/*
 * --profile (Documentation/profiles.rst): the flame graph is well-formed
 * XML whatever the frames' names, BPF programs in green; a profile of XDP_DROP with injected
 * cost (--spin 4096) puts the added share in the BPF program's symbol,
 * measured against the same point without it (xdp_sweep --ab, runs
 * interleaved); the folded stacks parse and add up to the samples; the
 * JSON validates, and fails without the profile or its parts;
 * xdp_rxq_info --profile does the same for its window, and xdpsock
 * --profile for the app thread's CPU and the NAPI CPU.  No speed is
 * asserted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "flamegraph.h"
#include "run_cmd.h"
#include "xsk_core.h"

/*
 * Python that checks one profile: prof(doc_profile, ns_median) parses the
 * folded file (every line "frames count", counts add up to samples, every
 * stack starts with a task), checks the SVG with xml.etree and the top
 * list's arithmetic
 */
#define PY_CHECK_PROFILE						\
	"import json, sys, re, jsonschema, xml.etree.ElementTree as ET\n" \
	"def prof(pr, ns):\n"						\
	"    assert pr['event'] in ('cycles', 'cpu-clock'), pr\n"	\
	"    assert pr['samples'] > 0 and 0 < pr['rx_samples'] <= pr['samples'], pr\n" \
	"    total = 0\n"						\
	"    for line in open(pr['folded']):\n"			\
	"        frames, n = line.rstrip('\\n').rsplit(' ', 1)\n"	\
	"        assert int(n) > 0 and frames and all(frames.split(';')), line\n" \
	"        total += int(n)\n"					\
	"    assert total == pr['samples'], (total, pr['samples'])\n"	\
	"    root = ET.parse(pr['svg']).getroot()\n"			\
	"    assert root.tag == '{http://www.w3.org/2000/svg}svg', root.tag\n" \
	"    assert len(root.findall('.//{http://www.w3.org/2000/svg}rect')) > 2\n" \
	"    top = pr['top']\n"						\
	"    assert 0 < len(top) <= 10, top\n"			\
	"    assert all(a['samples'] >= b['samples'] for a, b in zip(top, top[1:])), top\n" \
	"    for t in top:\n"						\
	"        assert abs(t['share'] - t['samples'] / pr['rx_samples']) < 1e-9, t\n" \
	"        assert abs(t['ns_per_pkt'] - t['share'] * ns) < 1e-6 * ns, (t, ns)\n" \
	"def bpf(pr):\n"						\
	"    s = [t for t in pr['top'] if re.fullmatch('bpf_prog_[0-9a-f]{16}_xdp_action', t['symbol'])]\n" \
	"    return s[0] if s else {'share': 0.0, 'ns_per_pkt': 0.0}\n"

TEST(flamegraph_escapes_and_refuses)
{
	char dir[64] = "/tmp/xdp-prof-test.XXXXXX", folded[128], svg[128];
	char err[ERR_LEN], cmd[2048], out[4096];
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(folded, sizeof(folded), "%s/a.folded", dir);
	snprintf(svg, sizeof(svg), "%s/a.svg", dir);
	f = fopen(folded, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "task;a<b>;c&d;\"quoted\" 5\n"
		   "task;a<b>;bpf_prog_0123456789abcdef_xdp_action 10\n"
		   "swapper;default_idle 1\n"
		   "swapper;bpf_prog_test_run_xdp 2\n"
		   "\n"
		   "task;a<b> 2\n");
	fclose(f);
	ASSERT_EQ(0, flamegraph_svg(folded, svg, "title <&>", err)) TH_LOG("%s", err);
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 - '%s' <<'EOF' 2>&1\n"
		 "import sys, xml.etree.ElementTree as ET\n"
		 "ns = '{http://www.w3.org/2000/svg}'\n"
		 "root = ET.parse(sys.argv[1]).getroot()\n"
		 "titles = [t.text for t in root.iter(ns + 'title')]\n"
		 "assert 'a<b> (17 samples, 85.00%%)' in titles, titles\n"
		 "assert '\"quoted\" (5 samples, 25.00%%)' in titles, titles\n"
		 "assert 'c&d (5 samples, 25.00%%)' in titles, titles\n"
		 "assert len(titles) == 8, titles\n"
		 "fill = {g.find(ns + 'title').text.split(' (')[0]: g.find(ns + 'rect').get('fill') for g in root.iter(ns + 'g')}\n"
		 "rgb = lambda f: [int(v) for v in f[4:-1].split(',')]\n"
		 "r, g, b = rgb(fill['bpf_prog_0123456789abcdef_xdp_action'])\n"
		 "assert g > r and g > b, fill\n"
		 "r, g, b = rgb(fill['bpf_prog_test_run_xdp'])\n"
		 "assert r > g, fill\n"
		 "print('ok')\n"
		 "EOF", svg);
	EXPECT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_STREQ("ok\n", out);

	f = fopen(folded, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "task;a 5\ntask;b five\n");
	fclose(f);
	EXPECT_EQ(-EINVAL, flamegraph_svg(folded, svg, NULL, err));
	EXPECT_NE(NULL, strstr(err, ":2: not a folded stack")) TH_LOG("%s", err);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

FIXTURE(prof) {
	int unused;
};

FIXTURE_SETUP(prof)
{
}

FIXTURE_TEARDOWN(prof)
{
}

/* The last n lines of out, each into paths[i]; out loses them */
static int last_lines(char *out, char (*paths)[512], int n)
{
	char *nl;
	int i;

	while (strlen(out) && out[strlen(out) - 1] == '\n')
		out[strlen(out) - 1] = '\0';
	for (i = n - 1; i >= 0; i--) {
		nl = strrchr(out, '\n');
		if (!nl)
			return -1;
		snprintf(paths[i], sizeof(paths[i]), "%s", nl + 1);
		*nl = '\0';
	}
	return 0;
}

/*
 * One sweep, A without and B with 4096 multiply-adds a frame, 3 runs of
 * 0.5 s each, interleaved; the last two lines are A's and B's JSON.
 *
 * Measured here (3 sweeps like this one, a shared and loaded machine):
 * the program's share of the receive path's samples was 5.9-6.8% without
 * spin and 98.7-99.5% with it, and the program's ns/pkt rose by 0.99 to
 * 1.00 times what the point's ns/pkt rose.  So: B's share exceeds A's by
 * half the samples at least, and the program's symbol holds at least 80%
 * of the added ns/pkt.
 */
TEST_F_TIMEOUT(prof, spin_added_share_in_bpf_prog, 300)
{
	const char *bin = getenv("BIN") ?: "build/bin";
	char dir[64] = "/tmp/xdp-prof-test.XXXXXX", json[2][512];
	static char out[65536];
	char cmd[4096], res[4096];

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "%s/xdp_sweep --profile --ab --b-spin 4096 -a XDP_DROP -m native -s 64 -r 3 -d 0.5 -w 0.1 --no-plot -o %s 2>/dev/null",
		 bin, dir);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	/* the text: per point the header, the top symbols, the two files */
	EXPECT_NE(NULL, strstr(out, "profile XDP_DROP native 64 B 1 flow (ns/pkt median "))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "in the receive path"));
	EXPECT_NE(NULL, strstr(out, "_xdp_action\n"));
	EXPECT_NE(NULL, strstr(out, "-a-profile-XDP_DROP-native-64B-1fl.svg"));
	EXPECT_NE(NULL, strstr(out, "-b-profile-XDP_DROP-native-64B-1fl.folded"));
	ASSERT_EQ(0, last_lines(out, json, 2)) TH_LOG("%s", out);

	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 - '%s' '%s' Documentation/sweep.schema.json <<'EOF' 2>&1\n"
		 PY_CHECK_PROFILE
		 "schema = json.load(open(sys.argv[3]))\n"
		 "d = [json.load(open(f)) for f in sys.argv[1:3]]\n"
		 "for doc in d:\n"
		 "    jsonschema.validate(doc, schema)\n"
		 "    assert doc['options']['profile'] is True\n"
		 "    assert len(doc['points']) == 1 and doc['points'][0]['runs_ok'] == 3\n"
		 "    p = doc['points'][0]\n"
		 "    prof(p['profile'], p['ns_per_pkt']['median'])\n"
		 "    assert p['profile']['windows'] == 3, p['profile']\n"
		 "for cut in ('top', 'samples', 'folded'):\n"
		 "    doc = json.load(open(sys.argv[1]))\n"
		 "    del doc['points'][0]['profile'][cut]\n"
		 "    try:\n"
		 "        jsonschema.validate(doc, schema)\n"
		 "        print('accepted without', cut)\n"
		 "    except jsonschema.ValidationError:\n"
		 "        pass\n"
		 "doc = json.load(open(sys.argv[1]))\n"
		 "del doc['points'][0]['profile']\n"
		 "try:\n"
		 "    jsonschema.validate(doc, schema)\n"
		 "    print('accepted without the profile')\n"
		 "except jsonschema.ValidationError:\n"
		 "    pass\n"
		 "a, b = (doc['points'][0] for doc in d)\n"
		 "sa, sb = bpf(a['profile']), bpf(b['profile'])\n"
		 "added = b['ns_per_pkt']['median'] - a['ns_per_pkt']['median']\n"
		 "print('share %%.3f -> %%.3f, prog %%.1f -> %%.1f ns/pkt of %%.1f -> %%.1f' %% (sa['share'], sb['share'], sa['ns_per_pkt'], sb['ns_per_pkt'], a['ns_per_pkt']['median'], b['ns_per_pkt']['median']), file=sys.stderr)\n"
		 "assert b['profile']['top'][0]['symbol'].endswith('_xdp_action'), b['profile']['top']\n"
		 "assert sb['share'] > sa['share'] + 0.5, (sa, sb)\n"
		 "assert added > 0 and sb['ns_per_pkt'] - sa['ns_per_pkt'] >= 0.8 * added, (sa, sb, added)\n"
		 "print('ok')\n"
		 "EOF", json[0], json[1]);
	EXPECT_EQ(0, run_cmd(cmd, res, sizeof(res))) TH_LOG("%s", res);
	EXPECT_NE(NULL, strstr(res, "ok\n")) TH_LOG("%s", res);
	EXPECT_EQ(NULL, strstr(res, "accepted without")) TH_LOG("%s", res);
	TH_LOG("%s", res);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

/* xdp_rxq_info --profile --json: its one window, the same checks */
TEST_F_TIMEOUT(prof, rxq_info_json, 300)
{
	const char *bin = getenv("BIN") ?: "build/bin";
	char dir[64] = "/tmp/xdp-prof-test.XXXXXX";
	char cmd[4096], out[16384], path[600];

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_NE(NULL, mkdtemp(dir));

	snprintf(cmd, sizeof(cmd),
		 "%s/xdp_rxq_info --profile=%s/rxq -d 0.5 --warmup 0.1 --no-prog-cost --json 2>/dev/null",
		 bin, dir);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	snprintf(path, sizeof(path), "%s/rxq.json", dir);
	ASSERT_EQ(0, write_text(path, out)) TH_LOG("%s", path);
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 - '%s' '%s' <<'EOF' 2>&1\n"
		 PY_CHECK_PROFILE
		 "doc = json.load(open(sys.argv[1]))\n"
		 "pr = doc['profile']\n"
		 "assert pr['windows'] == 1 and pr['cpu'] == doc['rx_cpu'], pr\n"
		 "assert pr['folded'] == sys.argv[2] + '/rxq.folded', pr\n"
		 "prof(pr, doc['ns_per_pkt'])\n"
		 "print('ok')\n"
		 "EOF", path, dir);
	EXPECT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_STREQ("ok\n", out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

/*
 * xdpsock --rxdrop --profile --json: two profiles of the one window, the app
 * thread's CPU with all its samples ("scope": "cpu") and the NAPI CPU's
 * receive path, each on the CPU the placement names, each valid by the
 * sweep schema's profile object.  The app busy-polls its rings in user
 * mode: "[user]" leads its profile (87% of its samples here, 2026-12-01,
 * a loaded machine), which a profile of the generator's CPU (kernel work)
 * would not show.
 */
TEST_F_TIMEOUT(prof, xdpsock_app_and_napi, 300)
{
	const char *bin = getenv("BIN") ?: "build/bin";
	char dir[64] = "/tmp/xdp-prof-test.XXXXXX";
	char cmd[4096], path[600];
	static char out[65536];

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_NE(NULL, mkdtemp(dir));

	snprintf(cmd, sizeof(cmd),
		 "%s/xdpsock --rxdrop -n 200000 -d 20 --profile=%s/xs --json 2>/dev/null",
		 bin, dir);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	snprintf(path, sizeof(path), "%s/xs.json", dir);
	ASSERT_EQ(0, write_text(path, out)) TH_LOG("%s", path);
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 - '%s' '%s' Documentation/sweep.schema.json <<'EOF' 2>&1\n"
		 PY_CHECK_PROFILE
		 "doc = json.load(open(sys.argv[1]))\n"
		 "schema = json.load(open(sys.argv[3]))\n"
		 "ps = schema['properties']['points']['items']['properties']['profile']\n"
		 "app, napi, pl = doc['profile_app'], doc['profile_napi'], doc['placement']\n"
		 "for pr in (app, napi):\n"
		 "    jsonschema.validate(pr, ps)\n"
		 "    assert pr['windows'] == 1, pr\n"
		 "assert app['scope'] == 'cpu' and 'scope' not in napi, (app, napi)\n"
		 "assert app['cpu'] == pl['app_cpu'] and napi['cpu'] == pl['net_rx_cpu'], (app['cpu'], napi['cpu'], pl)\n"
		 "assert app['rx_samples'] == app['samples'], app\n"
		 "assert app['folded'] == sys.argv[2] + '/xs-app.folded', app\n"
		 "assert napi['svg'] == sys.argv[2] + '/xs-napi.svg', napi\n"
		 "prof(app, doc['app_ns_per_pkt'])\n"
		 "prof(napi, doc['net_rx_ns_per_pkt'])\n"
		 "assert app['top'][0]['symbol'] == '[user]' and app['top'][0]['share'] > 0.5, app['top']\n"
		 "print('ok')\n"
		 "EOF", path, dir);
	EXPECT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_STREQ("ok\n", out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

TEST_HARNESS_MAIN
