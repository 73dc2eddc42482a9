// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

volatile int cli_stop;

static void on_stop(int sig)
{
	(void)sig;
	cli_stop = 1;
}

void cli_stop_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int cli_double(const char *tool, const char *opt, const char *arg, double min,
	       double max, double *val)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || !*arg || !(v >= min && v <= max)) {
		fprintf(stderr, "%s: %s: '%s' is not a number in %g..%g\n",
			tool, opt, arg, min, max);
		return -EINVAL;
	}
	*val = v;
	return 0;
}

int cli_u64(const char *tool, const char *opt, const char *arg, __u64 min,
	    __u64 max, __u64 *val)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || *end || !*arg || *arg == '-' || v < min || v > max) {
		fprintf(stderr, "%s: %s: '%s' is not a number in %llu..%llu\n",
			tool, opt, arg, (unsigned long long)min,
			(unsigned long long)max);
		return -EINVAL;
	}
	*val = v;
	return 0;
}

int cli_u32(const char *tool, const char *opt, const char *arg, __u32 min,
	    __u32 max, __u32 *val)
{
	__u64 v;
	int ret = cli_u64(tool, opt, arg, min, max, &v);

	if (!ret)
		*val = v;
	return ret;
}

int cli_no_more_args(const char *tool, int argc, char **argv)
{
	if (optind >= argc)
		return 0;
	fprintf(stderr, "%s: unexpected argument '%s'\n", tool, argv[optind]);
	return -EINVAL;
}
