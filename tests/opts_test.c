// SPDX-License-Identifier: GPL-2.0
/*
 * lib/base/opts: a made-up tool's table, parsed: every type's value and error
 * (with the words the tools print), lists without empty or repeated
 * values, abbreviations, clusters, arguments between options or ending
 * them, two parses in turn (no global state), and the --help it writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "opts.h"

struct cfg {
	__u32 size, repeat, mode;
	__u64 count, rate;
	double duration;
	int cpu;
	bool json, verbose;
	const char *out, *name;
	struct opts_list sizes, modes;
	long func_val;
};

static int one_mode(const char *s, __u32 *v)
{
	if (!strcmp(s, "copy"))
		*v = 0;
	else if (!strcmp(s, "zerocopy") || !strcmp(s, "zc"))
		*v = 1;
	else
		return -EINVAL;
	return 0;
}

static int set_func(const struct opt *o, void *c, const char *arg)
{
	((struct cfg *)c)->func_val = o->val;
	(void)arg;
	return 0;
}

static const struct opt rows[] = {
	OPTS_HEADING("Traffic:"),
	OPTS_SIZE(struct cfg, size),
	OPTS_SIZES(struct cfg, sizes),
	OPTS_RATE(struct cfg, rate, "frames per second"),
	OPTS_COUNT(struct cfg, count, "frames to send"),
	OPTS_HEADING("Run:"),
	OPTS_DURATION(struct cfg, duration, "seconds to run"),
	{ OPTS_ROW(OPT_U32, "repeat", 'r', struct cfg, repeat, "R",
		   "runs per point"), .min = 1, .max = 100 },
	{ OPTS_ROW(OPT_CPU, "cpu", 'c', struct cfg, cpu, "N", "the CPU"),
	  .flags = OPTS_UNPINNED },
	{ OPTS_ROW(OPT_ENUM, "mode", 0, struct cfg, mode, "M", "bind mode"),
	  .parse = one_mode, .values = "copy, zerocopy (zc)", .def = "copy" },
	{ OPTS_ROW(OPT_LIST, "modes", 'm', struct cfg, modes, "LIST",
		   "bind modes"), .parse = one_mode, .values = "copy, zerocopy (zc)" },
	{ OPTS_ROW(OPT_FUNC, "second", '2', struct cfg, func_val, NULL,
		   "the second kind"), .set = set_func, .val = 2 },
	{ OPTS_ROW(OPT_STR, "name", 0, struct cfg, name, "NAME",
		   "a name; a longer help text that has to be wrapped at the 79th column, twice over, so that it is seen to wrap well") },
	{ OPTS_ROW(OPT_FLAG, "verbose", 'v', struct cfg, verbose, NULL, "more") },
	OPTS_OUT(struct cfg, out, "where the files go"),
	OPTS_JSON(struct cfg, json, "JSON"),
	OPTS_HELP,
	OPTS_END
};

static const struct opts_tool tool = {
	.name = "t", .synopsis = "[OPTIONS] [ARG...]", .about = "About.\n",
	.opts = rows, .cfg_size = sizeof(struct cfg), .args = true,
};

static const struct cfg defaults = {
	.size = 64, .repeat = 5, .duration = 1, .cpu = 0, .out = "results",
	.sizes = { 2, { 64, 1500 } },
};

static char msg[4096];
static char *args[32];

/* Parse "t CMDLINE" (words split at blanks) into c; msg gets stderr */
static int parse_as(const struct opts_tool *t, const char *cmdline,
		    struct cfg *c, opts_given_t *given)
{
	static char buf[1024];
	FILE *saved = stderr, *m = fmemopen(msg, sizeof(msg), "w");
	int argc = 1, ret;
	char *tok, *save;

	*c = defaults;
	snprintf(buf, sizeof(buf), "%s", cmdline);
	args[0] = "t";
	for (tok = strtok_r(buf, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		args[argc++] = strcmp(tok, "''") ? tok : "";
	args[argc] = NULL;
	memset(msg, 0, sizeof(msg));
	stderr = m;
	ret = opts_parse(t, argc, args, c, given);
	fclose(m);
	stderr = saved;
	return ret;
}

static int parse(const char *cmdline, struct cfg *c)
{
	return parse_as(&tool, cmdline, c, NULL);
}

TEST(numbers_and_flags)
{
	opts_given_t given;
	struct cfg c;

	ASSERT_EQ(0, parse_as(&tool, "--size 1500 -n 1e3 --rate=0x10 -d 2.5 -c -1 -jv -r7 --mode zc",
			      &c, &given));
	EXPECT_EQ(1500U, c.size);
	EXPECT_EQ(1000U, c.count);
	EXPECT_EQ(16U, c.rate);
	EXPECT_EQ(2.5, c.duration);
	EXPECT_EQ(-1, c.cpu);
	EXPECT_EQ(7U, c.repeat);
	EXPECT_EQ(1U, c.mode);
	EXPECT_TRUE(c.json);
	EXPECT_TRUE(c.verbose);
	EXPECT_TRUE(opts_given(&tool, given, "size"));
	EXPECT_TRUE(opts_given(&tool, given, "json"));
	EXPECT_FALSE(opts_given(&tool, given, "sizes"));
	EXPECT_FALSE(opts_given(&tool, given, "nosuch"));
	EXPECT_STREQ("", msg);
}

TEST(number_errors)
{
	struct cfg c;

	ASSERT_EQ(-EINVAL, parse("--size 45", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --size: '45' is not a number in 46..9014\n"));
	EXPECT_NE(NULL, strstr(msg, "Usage: t [OPTIONS] [ARG...]\nTry 't --help'"));
	ASSERT_EQ(-EINVAL, parse("-s 64.5", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --size: '64.5' is not a whole number in 46..9014"));
	ASSERT_EQ(-EINVAL, parse("-d 0", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --duration: '0' is not a number in 0.1..86400"));
	/* decimals only: strtod() would read these hex floats as 0.125, 1 */
	ASSERT_EQ(-EINVAL, parse("-d 0x1p-3", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --duration: '0x1p-3' is not a number in 0.1..86400"));
	ASSERT_EQ(-EINVAL, parse("-d 0X1", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --duration: '0X1' is not a number in 0.1..86400"));
	ASSERT_EQ(0, parse("-d 1.25e1", &c));
	EXPECT_EQ(12.5, c.duration);
	/* whole numbers may be hex, not hex floats */
	ASSERT_EQ(0, parse("-n 0x64 -s 0X40", &c));
	EXPECT_EQ(100U, c.count);
	EXPECT_EQ(64U, c.size);
	ASSERT_EQ(-EINVAL, parse("-n 0x1p20", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --count: '0x1p20' is not a number in 1..1000000000000"));
	ASSERT_EQ(-EINVAL, parse("-n 0", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --count: '0' is not a number in 1..1000000000000"));
	ASSERT_EQ(-EINVAL, parse("-c 4096", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --cpu: '4096' is not a number in 0.."));
	ASSERT_EQ(-EINVAL, parse("-c -2", &c));
	ASSERT_EQ(-EINVAL, parse("--mode foo", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --mode: 'foo' is none of copy, zerocopy (zc)\n"));
	ASSERT_EQ(-EINVAL, parse("-o /dev/null", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --out: '/dev/null' is not a directory we can write to (Not a directory)"));
	/* a failed parse keeps what was taken before, and says nothing more */
	EXPECT_EQ(64U, c.size);
}

TEST(lists)
{
	struct cfg c;

	ASSERT_EQ(0, parse("--sizes 9014,46,1500 -m zc,copy", &c));
	ASSERT_EQ(3U, c.sizes.n);
	EXPECT_EQ(9014U, c.sizes.v[0]);
	EXPECT_EQ(46U, c.sizes.v[1]);
	EXPECT_EQ(1500U, c.sizes.v[2]);
	ASSERT_EQ(2U, c.modes.n);
	EXPECT_EQ(1U, c.modes.v[0]);
	EXPECT_EQ(0U, c.modes.v[1]);
	ASSERT_EQ(-EINVAL, parse("--sizes 64,64", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --sizes: '64' is given twice\n"));
	ASSERT_EQ(-EINVAL, parse("-m zc,zerocopy", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --modes: 'zerocopy' is given twice\n"));
	ASSERT_EQ(-EINVAL, parse("--sizes 64,", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --sizes: '64,' has an empty value\n"));
	ASSERT_EQ(-EINVAL, parse("--sizes 1,,2", &c));
	EXPECT_NE(NULL, strstr(msg, "'1,,2' has an empty value"));
	ASSERT_EQ(-EINVAL, parse("--sizes ''", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --sizes: empty list\n"));
	ASSERT_EQ(-EINVAL, parse("--sizes 45", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --sizes: '45' is not a frame size in 46..9014\n"));
	ASSERT_EQ(-EINVAL, parse("-m copy,foo", &c));
	EXPECT_NE(NULL, strstr(msg, "t: --modes: 'foo' is none of copy, zerocopy (zc)\n"));
	ASSERT_EQ(-EINVAL, parse("--sizes 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", &c));
	ASSERT_EQ(0, parse("--sizes 46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61", &c));
	EXPECT_EQ(16U, c.sizes.n);
}

TEST(command_line_shapes)
{
	struct cfg c;

	/* abbreviations, while unambiguous */
	ASSERT_EQ(0, parse("--dur 3 --verb --na x", &c));
	EXPECT_EQ(3, c.duration);
	EXPECT_TRUE(c.verbose);
	EXPECT_STREQ("x", c.name);
	ASSERT_EQ(-EINVAL, parse("--s 100", &c));
	EXPECT_NE(NULL, strstr(msg, "t: option '--s' is ambiguous; possibilities: '--size' '--sizes' '--second'"));
	ASSERT_EQ(-EINVAL, parse("--bogus", &c));
	EXPECT_NE(NULL, strstr(msg, "t: unrecognized option '--bogus'\n"));
	ASSERT_EQ(-EINVAL, parse("-x", &c));
	EXPECT_NE(NULL, strstr(msg, "t: invalid option -- 'x'\n"));
	ASSERT_EQ(-EINVAL, parse("-r", &c));
	EXPECT_NE(NULL, strstr(msg, "t: option requires an argument -- 'r'\n"));
	ASSERT_EQ(-EINVAL, parse("--repeat", &c));
	EXPECT_NE(NULL, strstr(msg, "t: option '--repeat' requires an argument\n"));
	ASSERT_EQ(-EINVAL, parse("--json=1", &c));
	EXPECT_NE(NULL, strstr(msg, "t: option '--json' doesn't allow an argument\n"));
	/* arguments between options, moved to the front in their order */
	ASSERT_EQ(3, parse("a -j b -- -v", &c));
	EXPECT_STREQ("a", args[1]);
	EXPECT_STREQ("b", args[2]);
	EXPECT_STREQ("-v", args[3]);
	EXPECT_TRUE(c.json);
	EXPECT_FALSE(c.verbose);
	ASSERT_EQ(0, parse("-2", &c));
	EXPECT_EQ(2, c.func_val);
}

TEST(arguments_refused_or_ending_options)
{
	struct opts_tool t = tool;
	struct cfg c;

	t.args = false;
	ASSERT_EQ(-EINVAL, parse_as(&t, "-j extra", &c, NULL));
	EXPECT_STREQ("t: unexpected argument 'extra'\n", msg);
	t.args = true;
	t.args_end_opts = true;
	ASSERT_EQ(3, parse_as(&t, "-v cmd -j x", &c, NULL));
	EXPECT_TRUE(c.verbose);
	EXPECT_FALSE(c.json);
	EXPECT_STREQ("cmd", args[1]);
	EXPECT_STREQ("-j", args[2]);
}

/* xdp_sweep's --b-opts: a second command line, parsed while one is */
TEST(two_parses_in_turn)
{
	char *a[] = { "t", "-r", "3", "--size", "100", NULL };
	char *b[] = { "t", "-r4", NULL };
	struct cfg ca = defaults, cb = defaults;

	ASSERT_EQ(0, opts_parse(&tool, 5, a, &ca, NULL));
	ASSERT_EQ(0, opts_parse(&tool, 2, b, &cb, NULL));
	ASSERT_EQ(0, opts_parse(&tool, 5, a, &ca, NULL));
	EXPECT_EQ(3U, ca.repeat);
	EXPECT_EQ(100U, ca.size);
	EXPECT_EQ(4U, cb.repeat);
	EXPECT_EQ(64U, cb.size);
}

TEST(help_from_the_table)
{
	char *text = NULL, *line, *save;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct cfg c = defaults;

	c.repeat = 9;	/* the defaults are the config's values */
	opts_help(&tool, &c, f);
	fclose(f);
	EXPECT_NE(NULL, strstr(text, "Usage: t [OPTIONS] [ARG...]\nAbout.\nTraffic:\n"));
	EXPECT_NE(NULL, strstr(text, "\n  -s, --size=BYTES      frame length without FCS, Ethernet header included,\n                        46..9014 (default: 64)\n"));
	EXPECT_NE(NULL, strstr(text, "\n  -s, --sizes=LIST      frame lengths without FCS, 46..9014 (default: 64,1500)\n"));
	EXPECT_NE(NULL, strstr(text, "\n      --rate=PPS        frames per second (default: as fast as it goes)\n"));
	EXPECT_NE(NULL, strstr(text, "\n  -r, --repeat=R        runs per point (default: 9)\n"));
	EXPECT_NE(NULL, strstr(text, "\n  -c, --cpu=N           the CPU (default: 0)\n"));
	EXPECT_NE(NULL, strstr(text, "\n  -o, --out=DIR         where the files go (default: results)\n"));
	EXPECT_NE(NULL, strstr(text, "\n  -j, --json            JSON\n  -h, --help            this text\n"));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		EXPECT_GE(79U, strlen(line));
	free(text);
}

TEST_HARNESS_MAIN
