/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A/B comparison of two sweep results (Documentation/compare.rst), for
 * xdp_compare and xdp_sweep --ab in-process: the environment guard
 * (machine, tool version, measurement options), every row in both matched
 * by its key, the change of its median cost and rate, Welch's CI of the
 * cost difference; the report as text (72 columns) or JSON on stdout.
 *
 * With --expect rules (cmp_expect_parse()) every row is also judged
 * against the last rule whose glob matches its label; the report says
 * how, and v->expect_failed counts the rows not as expected and the rules
 * that matched no row (xdp_compare's exit status 3).
 *
 * cmp_files() returns 0 when compared (the report written), -EPERM when
 * the results were not measured alike and o->force is not set (said on
 * stderr), another -errno when a file is unreadable or not a valid result
 * (said by lib/sweep/sweep_result) or out of memory, or the -errno of
 * standard output failing under the JSON report, then also in v->out_err
 * and not said: the caller's cli_finish_out() says the report is lost.
 */
#ifndef SWEEP_COMPARE_H
#define SWEEP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#define CMP_MAX_EXPECT	32	/* --expect rules */

/*
 * --expect [LABEL-GLOB=]WHAT[/PCT]: what the change of the rows whose label
 * matches must be (the last rule that matches a row decides it)
 */
enum cmp_expect_kind {
	CMP_EXPECT_SHOWN,	/* shown, not judged */
	CMP_EXPECT_DELTA,	/* B - A within the room of delta ("no-change": 0) */
	CMP_EXPECT_DEARER,	/* significant and beyond the room, up */
	CMP_EXPECT_CHEAPER,	/* ... down */
};

struct cmp_expect {
	const char *text;	/* as given, for the report */
	char glob[96];
	enum cmp_expect_kind kind;
	double delta;		/* CMP_EXPECT_DELTA, in the cost unit */
	double tolerance;	/* its /PCT; < 0: --tolerance's */
};

struct cmp_expects {
	unsigned int n;
	struct cmp_expect r[CMP_MAX_EXPECT];
};

struct cmp_opts {
	const char *tool;	/* the messages' prefix */
	bool json;		/* the JSON report, not the text */
	bool force;		/* compare even when not alike */
	double level;		/* confidence level of the CI, % */
	double tolerance;	/* a change within this % of A: no change; < 0 off */
	size_t max_input;	/* a larger file is refused */
	/* --expect's rules; --floor and --spread: the room they all get */
	struct cmp_expects expects;
	double floor;		/* the room is at least this, in the cost unit */
	bool spread;		/* ... and A's spread (max - min) plus B's */
};

/* How the rows came out (the text report's last line) */
struct cmp_verdict {
	unsigned int rows, dearer, cheaper, noise, unjudged;
	unsigned int no_runs;	/* of unjudged: no ok run on a side */
	/* --expect: rows as expected, shown; rows not plus rules unmatched */
	unsigned int expect_ok, expect_shown, expect_failed;
	/* -errno: standard output failed under the JSON, not said (cli_finish_out()) */
	int out_err;
};

/*
 * Add the rule arg ("[LABEL-GLOB=]WHAT[/PCT]") to e; 0, or -EINVAL said
 * on stderr as "TOOL: --OPT 'ARG': ..."
 */
int cmp_expect_parse(struct cmp_expects *e, const char *arg,
		     const char *tool, const char *opt);

int cmp_files(const char *a, const char *b, const struct cmp_opts *o,
	      struct cmp_verdict *v);

#endif /* SWEEP_COMPARE_H */
