/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A/B comparison of two sweep results (Documentation/compare.rst), for
 * xdp_compare and xdp_sweep --ab in-process: the environment guard
 * (machine, tool version, measurement options), every row in both matched
 * by its key, the change of its median cost and rate, Welch's CI of the
 * cost difference; the report as text (72 columns) or JSON on stdout.
 *
 * cmp_files() returns 0 when compared (the report written), -EPERM when
 * the results were not measured alike and o->force is not set (said on
 * stderr), another -errno when a file is unreadable or not a valid result
 * (said by lib/sweep_result) or out of memory.
 */
#ifndef SWEEP_COMPARE_H
#define SWEEP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

struct cmp_opts {
	const char *tool;	/* the messages' prefix */
	bool json;		/* the JSON report, not the text */
	bool force;		/* compare even when not alike */
	double level;		/* confidence level of the CI, % */
	double tolerance;	/* a change within this % of A: no change; < 0 off */
	size_t max_input;	/* a larger file is refused */
};

/* How the rows came out (the text report's last line) */
struct cmp_verdict {
	unsigned int rows, dearer, cheaper, noise, unjudged;
};

int cmp_files(const char *a, const char *b, const struct cmp_opts *o,
	      struct cmp_verdict *v);

#endif /* SWEEP_COMPARE_H */
