// SPDX-License-Identifier: GPL-2.0
/*
 * Documentation/options.rst against the tools: each tool's section there
 * is its --help as the tool prints it (make options-doc writes them), and
 * a short letter means one thing in every tool: the same long name, or
 * one of the few names listed here as one meaning (softirq_probe's --runs
 * and --frames are xdp_sweep's --repeat and the others' --count).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "run_cmd.h"

#define DOC	"Documentation/options.rst"

static const char *const tools[] = {
	"softirq_probe", "xdp_compare", "xdp_env", "xdp_load", "xdp_peers",
	"xdp_rxq_info", "xdp_sweep", "xdp_trafficgen", "xdpsock",
};

/* Long names that are one meaning under one letter */
static const char *const same[][2] = {
	{ "runs", "repeat" },
	{ "frames", "count" },
	{ "skb-mode", "generic" },
	{ "sizes", "size" },
	{ "actions", "action" },
};

static char doc[256 * 1024];

static const char *bin(void)
{
	const char *b = getenv("BIN");

	return b && *b ? b : "build/bin";
}

static int read_doc(void)
{
	FILE *f = fopen(DOC, "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(doc, 1, sizeof(doc) - 1, f);
	doc[n] = '\0';
	fclose(f);
	return 0;
}

/* TOOL's --help as the doc has it: a literal block under its name */
static int help_block(const char *tool, char *out, size_t len)
{
	static char help[32768];
	char cmd[512], *line, *save;
	size_t at;
	int rc;

	snprintf(cmd, sizeof(cmd), "%s/%s --help", bin(), tool);
	rc = run_cmd(cmd, help, sizeof(help));
	if (rc)
		return rc;
	at = snprintf(out, len, "\n%s\n%.*s\n\n::\n\n", tool, (int)strlen(tool),
		      "----------------------------------------");
	for (line = help; *line && at < len; line = save) {
		save = strchr(line, '\n');
		save = save ? save + 1 : line + strlen(line);
		if (save - line > 1)
			at += snprintf(out + at, len - at, "    %.*s",
				       (int)(save - line), line);
		else
			at += snprintf(out + at, len - at, "\n");
	}
	return 0;
}

static const char *canonical(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(same); i++)
		if (!strcmp(name, same[i][0]))
			return same[i][1];
	return name;
}

TEST(each_tools_help_is_in_the_doc)
{
	static char block[65536];
	unsigned int i;

	ASSERT_EQ(0, read_doc()) TH_LOG("cannot read " DOC);
	for (i = 0; i < ARRAY_SIZE(tools); i++) {
		ASSERT_EQ(0, help_block(tools[i], block, sizeof(block)))
			TH_LOG("%s --help failed", tools[i]);
		EXPECT_NE(NULL, strstr(doc, block))
			TH_LOG("%s: its --help differs from " DOC "'s (make options-doc)",
			       tools[i]);
	}
}

TEST(one_meaning_per_letter)
{
	static char help[32768];
	char names[128][32] = {}, owner[128][32] = {};
	char cmd[512], *p;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tools); i++) {
		snprintf(cmd, sizeof(cmd), "%s/%s --help", bin(), tools[i]);
		ASSERT_EQ(0, run_cmd(cmd, help, sizeof(help)));
		/* rows: "  -X, --name" at the start of a line */
		for (p = help; (p = strstr(p, "\n  -")); p++) {
			unsigned char c = p[4];
			char name[32];

			if (p[5] != ',' || sscanf(p + 7, "--%31[a-z0-9-]", name) != 1)
				continue;
			if (!names[c][0]) {
				snprintf(names[c], sizeof(names[c]), "%s",
					 canonical(name));
				snprintf(owner[c], sizeof(owner[c]), "%s", tools[i]);
				continue;
			}
			EXPECT_STREQ(names[c], canonical(name))
				TH_LOG("-%c is --%s in %s, --%s in %s", c,
				       names[c], owner[c], name, tools[i]);
		}
	}
	/* the letters the doc's table names are the ones seen */
	EXPECT_STREQ("size", names['s']);
	EXPECT_STREQ("repeat", names['r']);
	EXPECT_STREQ("count", names['n']);
	EXPECT_STREQ("cpu", names['c']);
	EXPECT_STREQ("flows", names['f']);
	EXPECT_STREQ("modes", names['m']);
}

TEST_HARNESS_MAIN
