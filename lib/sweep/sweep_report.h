/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep's report (lib/sweep/sweep.h): the table on stdout (ns and cycles, or
 * guest instructions under -icount), the gnuplot plot of the XDP points,
 * the profiles' notes and files (--profile)
 */
#ifndef SWEEP_REPORT_H
#define SWEEP_REPORT_H

#include "sweep.h"
#include "sweep_result.h"

/* What the sweep reports, and where */
struct sweep_report_opts {
	struct sweep_side sw[2];	/* A, and B of an A/B */
	unsigned int nsides;
	unsigned int nxdp;		/* XDP points a side */
	char base[SWEEP_BASE_LEN];	/* BASE.json, BASE-a.json, BASE.png, ... */
	bool plot;
	double level;			/* A/B: the comparison's */
	double tolerance;		/* A/B: "no change" within, %; -1 none */
};

/*
 * Each side's table and JSON, the profiles' files; A/B: the comparison of
 * B against A; the plot.  The JSON file's path is the last line on stdout.
 * Returns the exit status: 1 when a file could not be written or the
 * comparison failed.
 */
int sweep_report(const struct sweep_report_opts *o,
		 const struct sweep_result_info *info);

#endif /* SWEEP_REPORT_H */
