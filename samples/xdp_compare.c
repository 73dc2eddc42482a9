// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_compare - A/B report of two xdp_sweep results for patch review: for
 * every point in both, the change of the median ns/pkt (in %, ns and TSC
 * cycles), of the median Mpps, and a 95% CI of the ns difference (Welch's
 * t on the runs), with a mark when the change is not told from noise.
 * Receive-stack rows (xdp_sweep --stacks, --rxdrop) are compared as well:
 * their NET_RX cost and the application thread's.
 * Refuses results from different machines, tool versions or measurement
 * options unless --force.  Documentation/compare.rst.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include "esc.h"
#include "cli.h"
#include "opts.h"
#include "json_read.h"
#include "sweep_compare.h"

#define TOOL		"xdp_compare"

struct config {
	bool json, force, spread;
	double level, tolerance, floor;
	__u64 max_input;
	struct cmp_expects expects;
};

#define ABOUT \
	"Compare two xdp_sweep results (B against A) point by point, for review:\n" \
	"change of the median ns/pkt in %, ns and TSC cycles (at A's TSC GHz),\n" \
	"Mpps change, CI of the ns difference (Welch), noise marked.\n\n"
#define NOTES \
	"\n--expect RULE: [LABEL-GLOB=]WHAT[/PCT], WHAT one of no-change, dearer,\n" \
	"cheaper, shown, or a change +X (in ns, or insns under -icount); the last\n" \
	"rule whose glob matches a row's label (\"XDP_TX native 64B 1 flow\") decides\n" \
	"it (no glob: every row); rows no rule matches are shown.  A change is as\n" \
	"expected within its room: PCT% (else --tolerance, else 0) of A's median,\n" \
	"at least --floor, and with --spread at least the spread (max - min) of A's\n" \
	"ok runs plus B's; dearer and cheaper: significant and beyond the room.\n" \
	"\nExit status: 0 compared (and every --expect met), 1 refused or unreadable\n" \
	"input, or no point in common with an ok run on both sides, 2 bad usage,\n" \
	"3 a row not as expected or a rule that matched none.\n" \
	"Changed: -f, -l, -t and -m are gone (long names only): in the other tools\n" \
	"they are --flows, --l2fwd, --txonly and --modes.\n"

/* --expect [LABEL-GLOB=]WHAT[/PCT]: the rule's parser is the comparison's */
static int set_expect(const struct opt *o, void *c, const char *arg)
{
	struct config *cfg = c;

	return cmp_expect_parse(&cfg->expects, arg, TOOL, o->name);
}

static const struct opt rows[] = {
	OPTS_JSON(struct config, json, "one JSON object instead of the text report"),
	{ OPTS_ROW(OPT_FLAG, "force", 0, struct config, force, NULL,
		   "compare even when machine, tool version or options differ") },
	{ OPTS_ROW(OPT_DOUBLE, "level", 0, struct config, level, "P",
		   "confidence level of the CI in %, 50..99.999"),
	  .dmin = 50, .dmax = 99.999 },
	{ OPTS_ROW(OPT_DOUBLE, "tolerance", 0, struct config, tolerance, "PCT",
		   "a change within PCT% of A is \"no change\" (the measured spread, for exact icount results)"),
	  .dmin = 0, .dmax = 100, .def = "off" },
	{ OPTS_ROW(OPT_FUNC, "expect", 0, struct config, expects, "RULE",
		   "what the rows' change must be (below); repeatable"),
	  .set = set_expect },
	{ OPTS_ROW(OPT_DOUBLE, "floor", 0, struct config, floor, "X",
		   "an expectation's room is at least X ns (insns under -icount)"),
	  .dmin = 0, .dmax = 1e12 },
	{ OPTS_ROW(OPT_FLAG, "spread", 0, struct config, spread, NULL,
		   "an expectation's room is at least the spread of A's runs plus B's") },
	{ OPTS_ROW(OPT_U64, "max-input", 0, struct config, max_input, "BYTES",
		   "refuse a larger file"), .min = 1, .max = 1ULL << 40 },
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL(TOOL, "[OPTIONS] A.json B.json", rows, struct config,
		  .about = ABOUT, .notes = NOTES, .args = true);

static int parse_args(int argc, char **argv, struct cmp_opts *o)
{
	struct config cfg = {
		.level = 95, .tolerance = -1, .max_input = JR_MAX_INPUT,
	};
	int n = opts_parse(&tool, argc, argv, &cfg, NULL);

	if (n < 0)
		return -EINVAL;
	if (n < 2) {
		fprintf(stderr, "%s: two sweep results needed, A.json and B.json\n"
			"Try '%s --help'.\n", TOOL, TOOL);
		return -EINVAL;
	}
	if (n > 2) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", TOOL,
			esc_text(argv[3]).s);
		return -EINVAL;
	}
	*o = (struct cmp_opts) {
		.tool = TOOL,
		.json = cfg.json,
		.force = cfg.force,
		.level = cfg.level,
		.tolerance = cfg.tolerance,
		.max_input = cfg.max_input,
		.expects = cfg.expects,
		.floor = cfg.floor,
		.spread = cfg.spread,
	};
	return 0;
}

int main(int argc, char **argv)
{
	struct cmp_verdict v;
	struct cmp_opts o;
	int ret;

	if (parse_args(argc, argv, &o))
		return 2;
	/* refused, unreadable, invalid, out of memory: said on stderr */
	if (cmp_files(argv[1], argv[2], &o, &v) && !v.out_err)
		return 1;
	/* a lost JSON report: said by cli_finish_out(), exit 1 */
	/* 3: a row not as --expect says, or a rule that matched none */
	ret = cli_finish_out(TOOL, v.expect_failed ? 3 : 0, v.out_err);
	/* nothing was compared: as xdp_sweep with no point measured */
	if (!ret && v.rows == v.no_runs) {
		fprintf(stderr, "%s: %s\n", TOOL, v.rows ?
			"nothing compared: no point has an ok run on both sides" :
			"nothing compared: no point in common");
		ret = 1;
	}
	return ret;
}
