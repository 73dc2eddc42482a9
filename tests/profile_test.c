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
#include "out_check.h"
#include "xsk_core.h"

#define SCHEMA		"Documentation/sweep.schema.json"
/* the schema of a profile object */
#define PROFILE_SCHEMA	"properties.points.items.properties.profile"

/*
 * The SVG at path is XML whose root is an SVG element: the number of its
 * rect elements, or -1 (with python3's words in msg).  XML, not JSON: the
 * project has no XML reader, python3's is the one.
 */
static int svg_rects(const char *path, char *msg, size_t len)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 - '%s' <<'EOF' 2>&1\n"
		 "import sys, xml.etree.ElementTree as ET\n"
		 "ns = '{http://www.w3.org/2000/svg}'\n"
		 "root = ET.parse(sys.argv[1]).getroot()\n"
		 "assert root.tag == ns + 'svg', root.tag\n"
		 "print(len(root.findall('.//' + ns + 'rect')))\n"
		 "EOF", path);
	if (run_cmd(cmd, msg, len))
		return -1;
	return atoi(msg);
}

/*
 * The folded stacks at path: every line "FRAMES COUNT", frames not empty
 * and none of them empty, COUNT > 0; the sum of the counts, or -1 (the
 * line in msg)
 */
static long long folded_total(const char *path, char *msg, size_t len)
{
	char line[8192], *sp, *end;
	long long total = 0, n;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(msg, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		sp = strrchr(line, ' ');
		n = sp ? strtoll(sp + 1, &end, 10) : 0;
		if (!sp || sp == line || *end || n <= 0 || line[0] == ';' ||
		    sp[-1] == ';' || memmem(line, sp - line, ";;", 2)) {
			snprintf(msg, len, "%s: not a folded stack: %.200s", path, line);
			fclose(f);
			return -1;
		}
		total += n;
	}
	fclose(f);
	return total;
}

/*
 * One profile object pr of a point whose ns/pkt is ns: its event, its
 * samples, the folded file adding up to them, the SVG, the top list's
 * order and arithmetic
 */
static void expect_profile(struct __test_metadata *_metadata,
			   const struct jr_value *pr, double ns)
{
	const char *ev = jt_strz(pr, "event");
	double samples = jt_num(pr, "samples");
	double rx = jt_num(pr, "rx_samples");
	char msg[1024];
	size_t i, n = jt_len(pr, "top");

	EXPECT_TRUE(!strcmp(ev, "cycles") || !strcmp(ev, "cpu-clock")) TH_LOG("%s", ev);
	EXPECT_LT(0, samples);
	EXPECT_LT(0, rx);
	EXPECT_GE(samples, rx);
	EXPECT_EQ(samples, folded_total(jt_strz(pr, "folded"), msg, sizeof(msg)))
		TH_LOG("%s", msg);
	EXPECT_LT(2, svg_rects(jt_strz(pr, "svg"), msg, sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_LT(0U, n);
	EXPECT_GE(10U, n);
	for (i = 0; i < n; i++) {
		const struct jr_value *t = jr_at(jt_at(pr, "top"), i);

		if (i) {
			EXPECT_GE(jt_num(jr_at(jt_at(pr, "top"), i - 1), "samples"),
				  jt_num(t, "samples")) TH_LOG("top[%zu]", i);
		}
		EXPECT_CLOSE(jt_num(t, "samples") / rx, jt_num(t, "share"), 1e-9);
		EXPECT_CLOSE(jt_num(t, "share") * ns, jt_num(t, "ns_per_pkt"), 1e-6 * ns);
	}
}

/* bpf_prog_<16 hex digits>_xdp_action */
static bool is_prog_symbol(const char *s)
{
	static const char pre[] = "bpf_prog_", post[] = "_xdp_action";
	size_t i;

	if (!s || strlen(s) != strlen(pre) + 16 + strlen(post) ||
	    strncmp(s, pre, strlen(pre)) || strcmp(s + strlen(pre) + 16, post))
		return false;
	for (i = strlen(pre); i < strlen(pre) + 16; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return true;
}

/* The program's entry of a profile's top list; NULL: not in it */
static const struct jr_value *prog_entry(const struct jr_value *pr)
{
	size_t i;

	for (i = 0; i < jt_len(pr, "top"); i++)
		if (is_prog_symbol(jt_str(jr_at(jt_at(pr, "top"), i), "symbol")))
			return jr_at(jt_at(pr, "top"), i);
	return NULL;
}

/* share or ns_per_pkt of the program's entry, 0 when it has none */
static double prog_num(const struct jr_value *pr, const char *key)
{
	const struct jr_value *t = prog_entry(pr);

	return t ? jt_num(t, key) : 0;
}

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
 * 1.00 times what the point's ns/pkt rose.  Beside a kernel build and a
 * second test run (2026-12-05): 5.7% and 76.9%, 0.77 times.  So: B's share
 * exceeds A's by half the samples at least, and the program's symbol holds
 * at least 60% of the added ns/pkt.
 */
TEST_F_TIMEOUT(prof, spin_added_share_in_bpf_prog, 300)
{
	const char *bin = getenv("BIN") ?: "build/bin";
	static const char cuts[][32] = {
		"points[0].profile.top", "points[0].profile.samples",
		"points[0].profile.folded", "points[0].profile",
	};
	char dir[64] = "/tmp/xdp-prof-test.XXXXXX", json[2][512];
	const struct jr_value *p[2], *a, *b;
	struct jr_value *d[2];
	static char out[65536];
	char cmd[4096], res[4096];
	double added;
	size_t i;

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

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, jt_schema_check(json[i], "", NULL, SCHEMA, "", res,
					     sizeof(res))) TH_LOG("%s", res);
		d[i] = jt_parse_file(json[i], res, sizeof(res));
		ASSERT_NE(NULL, d[i]) TH_LOG("%s", res);
		EXPECT_EQ(1, jt_bool(d[i], "options.profile"));
		ASSERT_EQ(1U, jt_len(d[i], "points"));
		p[i] = jt_at(d[i], "points[0]");
		EXPECT_EQ(3, jt_num(p[i], "runs_ok"));
		expect_profile(_metadata, jt_at(p[i], "profile"),
			       jt_num(p[i], "ns_per_pkt.median"));
		EXPECT_EQ(3, jt_num(p[i], "profile.windows"));
	}
	/* the schema asks for the profile and its parts */
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		EXPECT_EQ(1, jt_schema_check(json[0], "", cuts[i], SCHEMA, "", res,
					     sizeof(res))) TH_LOG("without %s: %s", cuts[i], res);
	}
	a = jt_at(p[0], "profile");
	b = jt_at(p[1], "profile");
	added = jt_num(p[1], "ns_per_pkt.median") - jt_num(p[0], "ns_per_pkt.median");
	TH_LOG("share %.3f -> %.3f, prog %.1f -> %.1f ns/pkt of %.1f -> %.1f",
	       prog_num(a, "share"), prog_num(b, "share"),
	       prog_num(a, "ns_per_pkt"), prog_num(b, "ns_per_pkt"),
	       jt_num(p[0], "ns_per_pkt.median"), jt_num(p[1], "ns_per_pkt.median"));
	EXPECT_TRUE(is_prog_symbol(jt_str(b, "top[0].symbol")))
		TH_LOG("%s", jt_strz(b, "top[0].symbol"));
	EXPECT_LT(prog_num(a, "share") + 0.5, prog_num(b, "share"));
	EXPECT_LT(0, added);
	EXPECT_LE(0.6 * added, prog_num(b, "ns_per_pkt") - prog_num(a, "ns_per_pkt"));
	jr_free(d[0]);
	jr_free(d[1]);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

/* xdp_rxq_info --profile --json: its one window, the same checks */
TEST_F_TIMEOUT(prof, rxq_info_json, 300)
{
	const char *bin = getenv("BIN") ?: "build/bin";
	char dir[64] = "/tmp/xdp-prof-test.XXXXXX";
	char cmd[4096], out[16384], path[600], err[JR_ERRLEN];
	const struct jr_value *pr;
	struct jr_value *doc;

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_NE(NULL, mkdtemp(dir));

	snprintf(cmd, sizeof(cmd),
		 "%s/xdp_rxq_info --profile=%s/rxq -d 0.5 --warmup 0.1 --no-prog-cost --json 2>/dev/null",
		 bin, dir);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	doc = jt_parse(out, err, sizeof(err));
	ASSERT_NE(NULL, doc) TH_LOG("%s: %s", err, out);
	pr = jt_at(doc, "profile");
	EXPECT_EQ(1, jt_num(pr, "windows"));
	EXPECT_EQ(jt_num(doc, "rx_cpu"), jt_num(pr, "cpu"));
	snprintf(path, sizeof(path), "%s/rxq.folded", dir);
	EXPECT_STREQ(path, jt_strz(pr, "folded"));
	expect_profile(_metadata, pr, jt_num(doc, "ns_per_pkt"));
	jr_free(doc);
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
	static const char which[][16] = { "profile_app", "profile_napi" };
	char dir[64] = "/tmp/xdp-prof-test.XXXXXX";
	char cmd[4096], path[600], want[600], msg[4096];
	const struct jr_value *app, *napi;
	static char out[65536];
	struct jr_value *doc;
	size_t i;

	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_NE(NULL, mkdtemp(dir));

	snprintf(cmd, sizeof(cmd),
		 "%s/xdpsock --rxdrop -n 200000 -d 20 --profile=%s/xs --json 2>/dev/null",
		 bin, dir);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	snprintf(path, sizeof(path), "%s/xs.json", dir);
	ASSERT_EQ(0, write_text(path, out)) TH_LOG("%s", path);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, jt_schema_check(path, which[i], NULL, SCHEMA,
					     PROFILE_SCHEMA, msg, sizeof(msg)))
			TH_LOG("%s: %s", which[i], msg);
	}
	doc = jt_parse(out, msg, sizeof(msg));
	ASSERT_NE(NULL, doc) TH_LOG("%s", msg);
	app = jt_at(doc, "profile_app");
	napi = jt_at(doc, "profile_napi");
	EXPECT_EQ(1, jt_num(app, "windows"));
	EXPECT_EQ(1, jt_num(napi, "windows"));
	EXPECT_STREQ("cpu", jt_strz(app, "scope"));
	EXPECT_EQ(NULL, jt_at(napi, "scope"));
	EXPECT_EQ(jt_num(doc, "placement.app_cpu"), jt_num(app, "cpu"));
	EXPECT_EQ(jt_num(doc, "placement.net_rx_cpu"), jt_num(napi, "cpu"));
	EXPECT_EQ(jt_num(app, "samples"), jt_num(app, "rx_samples"));
	snprintf(want, sizeof(want), "%s/xs-app.folded", dir);
	EXPECT_STREQ(want, jt_strz(app, "folded"));
	snprintf(want, sizeof(want), "%s/xs-napi.svg", dir);
	EXPECT_STREQ(want, jt_strz(napi, "svg"));
	expect_profile(_metadata, app, jt_num(doc, "app_ns_per_pkt"));
	expect_profile(_metadata, napi, jt_num(doc, "net_rx_ns_per_pkt"));
	EXPECT_STREQ("[user]", jt_strz(app, "top[0].symbol"));
	EXPECT_LT(0.5, jt_num(app, "top[0].share"));
	jr_free(doc);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

TEST_HARNESS_MAIN
