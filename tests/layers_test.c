// SPDX-License-Identifier: GPL-2.0
/*
 * lib/'s layers (Documentation/lib.rst): each layer's sources build with
 * its own headers and those of the layers it uses, and with no other;
 * scripts/lib-layers.py finds an include of a layer above and a cycle of
 * modules; the readers of results link neither the AF_XDP core nor
 * libbpf.
 *
 * Runs make from the project's top directory (make's own variables from
 * an enclosing make check are dropped, so the probe is a make of its own).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "run_cmd.h"

#define MAKE	"env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "
#define LAYERS	MAKE "print-layers"
#define CHECK	"scripts/lib-layers.py"

/* Does lib/LAYER/ build with #include "HEADER"?  The compiler's word */
static int probe(const char *layer, const char *header, char *out, size_t len)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), MAKE "layer-probe LAYER=%s HEADER=%s 2>&1",
		 layer, header);
	return run_cmd(cmd, out, len);
}

/* A header of each layer, and the layers that may include it */
static const struct {
	const char *layer, *header, *users;
} headers[] = {
	{ "base", "err.h", "base measure report bench sweep" },
	{ "measure", "cpustat.h", "measure report bench sweep" },
	{ "report", "sweep_doc.h", "report sweep" },
	{ "bench", "xsk_bench.h", "bench sweep" },
	{ "sweep", "sweep.h", "sweep" },
};

static const char *const layers[] = { "base", "measure", "report", "bench",
				      "sweep" };

/* Every layer against a header of every layer: builds only downward */
TEST(includes_build_only_downward)
{
	char out[4096], want[64];
	size_t i, l;

	for (l = 0; l < ARRAY_SIZE(layers); l++) {
		for (i = 0; i < ARRAY_SIZE(headers); i++) {
			bool may;
			int rc;

			snprintf(want, sizeof(want), " %s ", layers[l]);
			snprintf(out, sizeof(out), " %s ", headers[i].users);
			may = strstr(out, want) != NULL;
			rc = probe(layers[l], headers[i].header, out, sizeof(out));
			if (may) {
				EXPECT_EQ(0, rc)
					TH_LOG("lib/%s/ with %s: %s", layers[l],
					       headers[i].header, out);
			} else {
				EXPECT_NE(0, rc)
					TH_LOG("lib/%s/ built with %s of %s", layers[l],
					       headers[i].header, headers[i].layer);
				EXPECT_NE(NULL, strstr(out, "No such file or directory"))
					TH_LOG("%s", out);
			}
		}
	}
}

TEST(tree_has_no_wrong_way_include_and_no_cycle)
{
	char out[4096];

	EXPECT_EQ(0, run_cmd(LAYERS " | " CHECK " lib 2>&1", out, sizeof(out)))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "every include downward, no cycle"))
		TH_LOG("%s", out);
}

/* A fixture of two layers, made with files given as "PATH:TEXT" pairs */
static int fixture(char *dir, size_t len, const char *const *files, int n)
{
	char path[512];
	int i;

	snprintf(dir, len, "/tmp/layers-test.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	for (i = 0; i < n; i += 2) {
		snprintf(path, sizeof(path), "mkdir -p %s/$(dirname %s)", dir,
			 files[i]);
		if (system(path))
			return -1;
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (write_text(path, files[i + 1]))
			return -1;
	}
	return 0;
}

static void fixture_rm(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		ksft_print_msg("could not remove %s\n", dir);
}

/* What lib/ had before: cpustat.h used softirq_cost, softirq_cost.c cpustat */
TEST(cycle_is_found)
{
	static const char *const files[] = {
		"m/cpustat.h", "#include \"softirq_cost.h\"\n",
		"m/cpustat.c", "#include \"cpustat.h\"\n",
		"m/softirq_cost.h", "struct sirq_cpu { int x; };\n",
		"m/softirq_cost.c", "#include \"softirq_cost.h\"\n#include \"cpustat.h\"\n",
	};
	char dir[64], cmd[256], out[4096];

	ASSERT_EQ(0, fixture(dir, sizeof(dir), files, ARRAY_SIZE(files)));
	snprintf(cmd, sizeof(cmd), "printf 'm: m\\n' | " CHECK " %s 2>&1", dir);
	EXPECT_EQ(1, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "/m/cpustat: an include cycle: ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "/m/softirq_cost -> ")) TH_LOG("%s", out);
	fixture_rm(dir);
}

/* A base module that includes the layer above: named, with what it may use */
TEST(wrong_way_is_found)
{
	static const char *const files[] = {
		"base/cli.h", "#include \"xsk_bench.h\"\n",
		"bench/xsk_bench.h", "#include \"cli.h\"\n",
	};
	char dir[64], cmd[256], out[4096];

	ASSERT_EQ(0, fixture(dir, sizeof(dir), files, ARRAY_SIZE(files)));
	snprintf(cmd, sizeof(cmd), "printf 'base: base\\nbench: base bench\\n' | "
		 CHECK " %s 2>&1", dir);
	EXPECT_EQ(1, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "/base/cli.h: includes xsk_bench.h of layer bench, above base (it may use base)"))
		TH_LOG("%s", out);
	fixture_rm(dir);
}

/* Layers that are not a list of layers are refused, exit 2 */
TEST(bad_layers_refused)
{
	char out[4096];

	EXPECT_EQ(2, run_cmd("printf 'base base\\n' | " CHECK " lib 2>&1", out,
			     sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "not \"LAYER: USED...\"")) TH_LOG("%s", out);
	EXPECT_EQ(2, run_cmd("printf 'base: base nope\\n' | " CHECK " lib 2>&1",
			     out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "uses no such layer: nope")) TH_LOG("%s", out);
}

/* xdp_compare and xdp_peers: no AF_XDP core, no libbpf in them */
TEST(readers_link_no_core)
{
	static const char *const tools[] = { "xdp_compare", "xdp_peers" };
	const char *bin = getenv("BIN") ?: "build/bin";
	char cmd[512], out[65536];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tools); i++) {
		snprintf(cmd, sizeof(cmd), "ldd %s/%s", bin, tools[i]);
		ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out))) TH_LOG("%s", cmd);
		EXPECT_EQ(NULL, strstr(out, "libbpf")) TH_LOG("%s: %s", tools[i], out);
		snprintf(cmd, sizeof(cmd),
			 "nm %s/%s | grep -E ' [TtDdBb] (xsk|xenv|xring|bpf)_' | head -3",
			 bin, tools[i]);
		ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out)));
		EXPECT_STREQ("", out) TH_LOG("%s has the core's symbols", tools[i]);
	}
}

TEST_HARNESS_MAIN
