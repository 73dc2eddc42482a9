/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every tool's command line needs: numbers checked against a range,
 * with an error that names the tool, the option and the value; no stray
 * arguments; and a stop flag set by SIGINT, SIGTERM and SIGHUP.
 */
#ifndef CLI_H
#define CLI_H

#include <linux/types.h>

/* Set by cli_stop_on_signals()' handler; pass &cli_stop as a stop flag */
extern volatile int cli_stop;

void cli_stop_on_signals(void);

/*
 * Parse arg as a number in min..max (base 10, or 0x.. for integers); on
 * error print "TOOL: OPT: 'ARG' is not a number in MIN..MAX" and return
 * -EINVAL.
 */
int cli_double(const char *tool, const char *opt, const char *arg, double min,
	       double max, double *val);
int cli_u64(const char *tool, const char *opt, const char *arg, __u64 min,
	    __u64 max, __u64 *val);
int cli_u32(const char *tool, const char *opt, const char *arg, __u32 min,
	    __u32 max, __u32 *val);

/* -EINVAL with "TOOL: unexpected argument 'X'" when optind < argc */
int cli_no_more_args(const char *tool, int argc, char **argv);

#endif /* CLI_H */
