// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_peers - the report of scripts/bench-peers.sh from its records:
 * per part, the settings of both sides, and per comparison the exact
 * command lines, every run with its foreign load, the medians, the ratio
 * and the difference in ns per frame with 95% bootstrap intervals
 * (lib/report/peers.h).  Text, or the bench-peers/1 JSON with --json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "opts.h"
#include "peers.h"

#define TOOL	"xdp_peers"

struct config {
	bool json;
};

#define ABOUT \
	"Report the runs scripts/bench-peers.sh recorded in RECORDS: each part's\n" \
	"settings of both sides, and per comparison the command lines, the runs\n" \
	"and their foreign load, the medians, ours / peer with a 95% bootstrap CI\n" \
	"over the runs, and the difference in ns per frame with its CI.\n\n"
#define NOTES \
	"\nThe records' format and the JSON's keys: lib/report/peers.h and\n" \
	"Documentation/bench_peers.rst.\n" \
	"RECORDS may be a pipe (<(...)): its data is waited for at most 10 s at\n" \
	"a time.  Text of the records is printed with control bytes as \\xNN.\n" \
	"Exit status: 0 reported, 1 unreadable, empty or malformed RECORDS (the\n" \
	"line and what was wrong on stderr), 2 bad options.\n"

static const struct opt rows[] = {
	OPTS_JSON(struct config, json, "the bench-peers/1 JSON instead of the text"),
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL(TOOL, "[OPTIONS] RECORDS", rows, struct config,
		  .about = ABOUT, .notes = NOTES, .args = true);

/* The records of path into b; 0, or said on stderr */
static int read_records(struct peers_bench *b, const char *path)
{
	char err[ERR_LEN], cut[ERR_LEN];
	struct input in;
	int ret;

	ret = input_open(&in, path, PEERS_MAX_INPUT, INPUT_WAIT_S, err);
	if (ret)
		goto out;
	ret = peers_read(b, in.f, path, err);
	/* what cut the reading short comes before what it left malformed */
	if (input_close(&in, cut)) {
		memcpy(err, cut, sizeof(err));
		ret = -EIO;
	}
out:
	if (ret)
		fprintf(stderr, TOOL ": %s\n", err);
	return ret;
}

int main(int argc, char **argv)
{
	struct peers_bench *b = calloc(1, sizeof(*b));
	struct config cfg = {};
	int nargs, ret = 1, out_err = 0;

	if (!b) {
		fprintf(stderr, TOOL ": out of memory\n");
		return 1;
	}
	nargs = opts_parse(&tool, argc, argv, &cfg, NULL);
	if (nargs != 1) {
		if (nargs >= 0)
			fprintf(stderr, TOOL ": one RECORDS file expected, %d given\n",
				nargs);
		free(b);
		return 2;
	}
	if (read_records(b, argv[1]))
		goto out;
	if (peers_summarize(b)) {
		fprintf(stderr, TOOL ": out of memory\n");
		goto out;
	}
	/* a lost report is said by cli_finish_out(), once */
	ret = 0;
	if (cfg.json) {
		out_err = peers_print_json(b, stdout);
		if (out_err == -EINVAL) {
			fprintf(stderr, TOOL ": the JSON writer was misused (a bug)\n");
			ret = 1;
			out_err = 0;
		}
	} else {
		peers_print_text(b, stdout);
	}
out:
	free(b);
	return cli_finish_out(TOOL, ret, out_err);
}
