/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark against xdp-tools (scripts/bench-peers.sh): its runs as
 * recorded, and the report drawn from them, text and JSON ("bench-peers/1",
 * Documentation/bench_peers.rst).  This module owns the record format and
 * the schema; the script writes records, xdp_peers reports them.
 *
 * Records: one per line, fields separated by one TAB, the keyword first;
 * empty lines and lines starting with '#' are skipped:
 *
 *   bench   KEY VALUE             kernel, cpu, xdp_tools (text); runs,
 *                                 secs, max_retries (whole numbers);
 *                                 max_foreign (a fraction of one CPU)
 *   part    ID TITLE              a part of the benchmark, 1..9
 *   setting WHAT OURS PEER [NOTE] a setting of both sides (the part's);
 *                                 NOTE says why they differ, if they do
 *   note    TEXT                  a sentence of the part's
 *   cmp     NAME OURS PEER        a comparison of the part: its name and
 *                                 both sides' labels
 *   cmd     SIDE COMMAND          the exact command line of a side
 *                                 (SIDE: ours or peer) in that comparison
 *   unit    KIND                  what the part's runs give, before its
 *                                 first cmp: pps (the default: frames a
 *                                 second, more is better) or cpu-ns (the
 *                                 receiver's CPU ns per frame at a fixed
 *                                 rate, less is better)
 *   run     SIDE FIGURE FOREIGN STEAL DISTURBED RETRIES [RTT0 RTT1 [OFFERED [BUSY]]]
 *                                 one run as kept: its figure, the part's
 *                                 unit ("-": the receiver gave none),
 *                                 foreign load and steal time as fractions
 *                                 of one CPU over the run (xdp_load),
 *                                 DISTURBED 0 or 1 (still, after RETRIES
 *                                 redone runs); the line round trip
 *                                 between the two CPUs before and after
 *                                 the run, ns ("-": not taken;
 *                                 lib/measure/line_rtt.h); the frames a
 *                                 second that reached the receiver's
 *                                 device, counted there alike for both
 *                                 sides ("-": not taken); each CPU's busy
 *                                 share of the run from /proc/stat, 0..1,
 *                                 comma-separated from CPU 0 (xdp_load's;
 *                                 "-": not taken)
 *   skip    REASON                the comparison was not made
 *
 * A cpu-ns part's figures are kept as frames per CPU second (1e9 / ns),
 * so that everything below holds for both units: its ratio ours / peer of
 * those is peer ns / ours ns, printed the other way up (ours ns / peer
 * ns, less is better), and the difference 1e9 / ours - 1e9 / peer is the
 * ns of CPU per frame ours spends more.
 *
 * Which CPU was saturated (runs with BUSY): each side's median busy share
 * of CPU 0 (the generator and the NAPI in bench-peers) and CPU 1 (the
 * receiver or sender), and those at PEERS_SATURATED or more named.  A loop
 * that never sleeps saturates its CPU whatever it does, so the shares say
 * most of a side that can sleep, and of CPU 0.
 *
 * Which side was the limit (runs with OFFERED, pps parts): a side that
 * took PEERS_TOOK_ALL of what reached the device or more (its runs'
 * median share) kept up with the kernel; one that took less was the
 * limit itself.  When both kept up, both rates are the kernel's side's
 * (the generator and the NAPI on their CPU), and a ratio other than 1
 * says what each receiver costs that side, not how fast it is.
 *
 * Per comparison: the median of each side's rated runs (disturbed ones
 * included, and counted), their ratio ours / peer and the difference in ns
 * per frame, 1e9 / ours - 1e9 / peer, each with a 95% bootstrap interval
 * over the runs (stats_boot_medians2(); 3 or more rated runs a side).
 * And the paired ratio: run i of ours against run i of the peer's, which
 * the script takes one after the other; the median of those ratios with
 * stats_summarize()'s interval over the pairs, nominally 95%, and its exact
 * coverage (below 95% with 3 to 5 pairs: lib/base/stats.h).  A change of the host's speed
 * between pairs (both sides' rates moving together) widens the CI of the
 * ratio of medians, not this one.
 * And each side's median line round trip (of its runs' before and after
 * figures), and the runs by placement: a run's placement is the lower of
 * its two round trips; sorted, the runs of both sides split where one is
 * more than twice the one before it (line_rtt_moved(), LINE_RTT_MOVED).  With more than one
 * placement the report gives each one's medians and ratio as well: a
 * ratio over runs in different placements compares two machines.
 */
#ifndef PEERS_H
#define PEERS_H

#include <stdbool.h>
#include <stdio.h>

#include "err.h"

#define PEERS_MAX_PARTS		9
#define PEERS_MAX_CMPS		12	/* a part's */
#define PEERS_MAX_SETTINGS	16	/* a part's */
#define PEERS_MAX_NOTES		6	/* a part's */
#define PEERS_MAX_RUNS		100	/* a side's */
#define PEERS_TEXT		256
#define PEERS_CMD		1024
#define PEERS_MAX_PLACES	4	/* a comparison's; more go into the last */
#define PEERS_MIN_PPS		1	/* a run's rate, frames/s */
#define PEERS_MAX_PPS		1e9
#define PEERS_MAX_INPUT		(16UL << 20)	/* bytes of records */
#define PEERS_TOOK_ALL		0.97	/* of what reached the device: kept up */
#define PEERS_SATURATED		0.95	/* busy share of a CPU: saturated */
#define PEERS_BUSY_CPUS		2	/* CPUs whose busy share is reported */

enum peers_side_id { PEERS_OURS, PEERS_PEER, PEERS_NR_SIDES };

struct peers_run {
	double pps;		/* NaN: no rate */
	double foreign, steal;	/* fractions of one CPU */
	bool disturbed;
	unsigned int retries;
	double rtt_before, rtt_after;	/* ns; NaN: not taken */
	double offered;		/* frames/s at the receiver's device; NaN */
	double busy[PEERS_BUSY_CPUS];	/* CPU 0, 1 busy share; NaN */
};

struct peers_side {
	char label[PEERS_TEXT];
	char cmd[PEERS_CMD];
	bool cmd_given;
	unsigned int n;
	struct peers_run run[PEERS_MAX_RUNS];
	/* peers_summarize() */
	unsigned int rated, disturbed;
	double median, min, max;	/* pps of the rated runs */
	double rtt;			/* median round trip, ns; NaN: none */
	double took;			/* median share of what was offered;
					 * NaN: no run with both */
	double busy[PEERS_BUSY_CPUS];	/* median busy share; NaN: none */
};

enum peers_limit {
	PEERS_LIMIT_UNKNOWN,		/* no side's share known */
	PEERS_LIMIT_KERNEL,		/* both kept up: the kernel's side */
	PEERS_LIMIT_OURS,		/* ours took less, the peer kept up */
	PEERS_LIMIT_PEER,
	PEERS_LIMIT_RECEIVERS,		/* neither kept up */
};

struct peers_cmp {
	char name[PEERS_TEXT];
	char skip[PEERS_TEXT];		/* "": made */
	bool skip_given;
	bool cpu_ns;			/* its part's unit is cpu-ns */
	enum peers_limit limit;		/* peers_summarize() */
	struct peers_side side[PEERS_NR_SIDES];
	/* peers_summarize(); NaN where there is none */
	double ratio, ratio_lo, ratio_hi;
	double ns_diff, ns_diff_lo, ns_diff_hi;
	unsigned int npairs;		/* pairs of rated runs */
	double pair_ratio, pair_lo, pair_hi;	/* NaN where there is none */
	double pair_cover;		/* the interval's exact coverage */
	unsigned int nplace;		/* placements of its runs; 0: none known */
	struct peers_place {
		double rtt_lo, rtt_hi;	/* its runs' round trips, ns */
		unsigned int runs[PEERS_NR_SIDES];	/* rated ones */
		double median[PEERS_NR_SIDES];
		double ratio, ratio_lo, ratio_hi;
	} place[PEERS_MAX_PLACES];
};

struct peers_setting {
	char what[PEERS_TEXT], ours[PEERS_TEXT], peer[PEERS_TEXT];
	char note[PEERS_TEXT];		/* "": the same by design */
};

struct peers_part {
	unsigned int id;
	char title[PEERS_TEXT];
	bool cpu_ns;			/* unit cpu-ns */
	bool unit_given;		/* a unit line was read */
	unsigned int nset, nnote, ncmp;
	struct peers_setting set[PEERS_MAX_SETTINGS];
	char note[PEERS_MAX_NOTES][PEERS_TEXT];
	struct peers_cmp cmp[PEERS_MAX_CMPS];
};

struct peers_bench {
	char kernel[PEERS_TEXT], cpu[PEERS_TEXT], xdp_tools[PEERS_TEXT];
	unsigned int runs, max_retries;
	double secs, max_foreign;
	unsigned int nparts;
	struct peers_part part[PEERS_MAX_PARTS];
};

/*
 * Records from f (named name in errors) into b (zeroed first).  0, or
 * -EINVAL with a sentence in err naming the line and what was wrong (the
 * value, and a number's range; the file's text escaped, lib/base/esc.h).
 * Refused besides a malformed record: no records at all (an empty file),
 * no part, a last line without its newline (a file cut short), a NUL
 * byte, a line over 2047 bytes, a part given twice, a rate other than 0
 * or "-" (none) outside PEERS_MIN_PPS..PEERS_MAX_PPS, a text longer than
 * its field (a cmd over PEERS_CMD - 1 bytes, any other over PEERS_TEXT - 1:
 * refused, never cut).
 */
int peers_read(struct peers_bench *b, FILE *f, const char *name, char err[ERR_LEN]);

/* Every comparison's figures; 0 or -ENOMEM */
int peers_summarize(struct peers_bench *b);

/* The report; the JSON's stable keys: Documentation/bench_peers.rst */
void peers_print_text(const struct peers_bench *b, FILE *f);
int peers_print_json(const struct peers_bench *b, FILE *f);

#endif /* PEERS_H */
