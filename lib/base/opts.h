/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tool's command line as a table: one row per option (long name, short
 * letter, type, the field it fills, its range or its values, its help and
 * default), from which opts_parse() parses and opts_help() writes --help.
 * The numbers go through lib/base/cli.h's checked parsers, so every tool words
 * its errors alike: "TOOL: --OPT: 'ARG' is not a number in MIN..MAX".
 *
 * The parser keeps its state on the stack (no getopt, no optind): a tool
 * may parse a second command line (xdp_sweep's --b-opts) into another
 * config at any time.  Its wording of malformed command lines is glibc
 * getopt_long()'s ("unrecognized option '--x'", "option requires an
 * argument -- 'r'"), long options may be abbreviated while unambiguous,
 * and arguments may come between options unless the tool says that
 * options end at the first argument (xdp_env's command).
 *
 * The rows several tools share (the frame size, flows, rate, count,
 * duration, warmup, JSON, output directory, run lock) are the OPTS_*()
 * macros below: one name, letter, range and help for all of them.  A
 * short letter means one thing in every tool (Documentation/options.rst).
 */
#ifndef OPTS_H
#define OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#include "cli.h"
#include "frame.h"

enum opt_type {
	OPT_END,
	OPT_HEADING,	/* a line of --help between groups: .help */
	OPT_FLAG,	/* bool, set to true */
	OPT_U32,	/* __u32 in min..max (cli_u32) */
	OPT_U64,	/* __u64 in min..max (cli_u64) */
	OPT_DOUBLE,	/* double in dmin..dmax (cli_double) */
	OPT_CPU,	/* int: an online CPU (cli_cpu); -1 too with OPTS_UNPINNED */
	OPT_STR,	/* const char *, as given */
	OPT_IFNAME,	/* const char *: an interface of this network namespace */
	OPT_OUTDIR,	/* const char *: a directory to write to (cli_check_out_dir) */
	OPT_PREFIX,	/* const char *: files' path prefix; optional argument, .def without */
	OPT_ENUM,	/* __u32 from .parse (.values names them) */
	OPT_LIST,	/* struct opts_list: comma-separated, of .parse, or min..max */
	OPT_FUNC,	/* .set(row, cfg, arg); takes an argument when .arg is set */
};

#define OPTS_UNPINNED	0x1	/* OPT_CPU: -1 is taken (no pinning) */
#define OPTS_HIDDEN	0x2	/* not in --help (an alias) */
#define OPTS_ONCE	0x4	/* refused when given twice (lists always are) */

#define OPTS_LIST_MAX	16

/* What an OPT_LIST fills: the values in the order given, none twice */
struct opts_list {
	unsigned int n;
	__u32 v[OPTS_LIST_MAX];
};

struct opt {
	enum opt_type type;
	const char *name;	/* long name, without "--" */
	char letter;		/* short letter, or 0 */
	size_t off;		/* offsetof() the field in the tool's config */
	const char *arg;	/* the argument's name in --help: "N", "SEC" */
	const char *help;	/* what it does; wrapped by opts_help() */
	/*
	 * The default --help states: NULL for the value the config starts
	 * with (none when it is 0, false or NULL), "" for none
	 */
	const char *def;
	__u64 min, max;		/* OPT_U32, OPT_U64, OPT_LIST of numbers */
	double dmin, dmax;	/* OPT_DOUBLE */
	int (*parse)(const char *s, __u32 *v);	/* OPT_ENUM, OPT_LIST of names */
	const char *values;	/* OPT_ENUM, OPT_LIST: "'X' is none of VALUES" */
	const char *what;	/* OPT_LIST of numbers: "'X' is not WHAT in MIN..MAX" */
	int (*set)(const struct opt *o, void *cfg, const char *arg); /* OPT_FUNC */
	long val;		/* OPT_FUNC: for .set, e.g. which kind it chooses */
	unsigned int flags;	/* OPTS_UNPINNED, OPTS_HIDDEN, OPTS_ONCE */
};

struct opts_tool {
	const char *name;	/* in every message and in --help */
	const char *synopsis;	/* after the name: "[OPTIONS]" */
	const char *about;	/* --help's text before the options */
	const char *notes;	/* and after them (NULL: none) */
	const struct opt *opts;	/* the rows, up to an OPT_END */
	size_t cfg_size;	/* sizeof the config, for the defaults in --help */
	bool args;		/* arguments are taken (else "unexpected argument") */
	bool args_end_opts;	/* options end at the first argument */
};

/* Options given: a bit per row, by row index (the first 64 rows) */
typedef __u64 opts_given_t;

/*
 * Parse argv[1..argc-1] into cfg (which holds the defaults).  --help
 * prints opts_help() on stdout and exits 0.  Returns the number of
 * arguments left, moved to argv[1..n] in their order, or -EINVAL after
 * saying what was wrong on stderr (with a usage line).  given, if not
 * NULL, gets the rows given (opts_given()).
 */
int opts_parse(const struct opts_tool *t, int argc, char **argv, void *cfg,
	       opts_given_t *given);

/* Was the option of that long name given?  (A name not in t: false) */
bool opts_given(const struct opts_tool *t, opts_given_t given,
		const char *name);

/* The whole --help text, with cfg's values as the defaults */
void opts_help(const struct opts_tool *t, const void *cfg, FILE *f);

/* The rows several tools share: name, letter, range and help once */
#define OPTS_SIZE_MIN	FRAME_MIN_SIZE
#define OPTS_SIZE_MAX	FRAME_MAX_SIZE
#define OPTS_FLOWS_MAX	FRAME_MAX_FLOWS
#define OPTS_RATE_MAX	1000000000ULL
#define OPTS_COUNT_MAX	1000000000000ULL
#define OPTS_DURATION_MAX 86400.0
#define OPTS_REPEAT_MAX	100
/*
 * An OPT_PREFIX path, at most: a tool adds up to 99 bytes to it (xdpsock
 * "-napi.folded"), and its file names are 600-byte buffers
 */
#define OPTS_PREFIX_MAX	500

/*
 * The size a type writes at .off (0: any, for OPT_FUNC); a row whose
 * field is of another size does not compile (OPTS_ROW())
 */
#define OPTS_TYPE_SIZE(t)						\
	((t) == OPT_FLAG ? sizeof(bool) :				\
	 (t) == OPT_U32 || (t) == OPT_ENUM ? sizeof(__u32) :		\
	 (t) == OPT_U64 ? sizeof(__u64) :				\
	 (t) == OPT_DOUBLE ? sizeof(double) :				\
	 (t) == OPT_CPU ? sizeof(int) :					\
	 (t) == OPT_LIST ? sizeof(struct opts_list) :			\
	 (t) == OPT_FUNC ? 0 : sizeof(const char *))
#define OPTS_FIELD_FITS(t, T, f)					\
	(!OPTS_TYPE_SIZE(t) || OPTS_TYPE_SIZE(t) == sizeof(((T *)0)->f))

#define OPTS_ROW(t, n, l, T, f, a, h)					\
	.type = t, .name = n, .letter = l,				\
	.off = offsetof(T, f) +						\
	       0 * sizeof(char[OPTS_FIELD_FITS(t, T, f) ? 1 : -1]),	\
	.arg = a, .help = h

#define OPTS_SIZE(T, f)		OPTS_SIZE_LETTER(T, f, 's')
/* xdp_rxq_info's -s was --interval: refused there, not taken as a size */
#define OPTS_SIZE_LETTER(T, f, l)					\
	{ OPTS_ROW(OPT_U32, "size", l, T, f, "BYTES",			\
		   "frame length without FCS, Ethernet header included, 46..9014"), \
	  .min = OPTS_SIZE_MIN, .max = OPTS_SIZE_MAX, .def = "64" }
#define OPTS_SIZES(T, f)						\
	{ OPTS_ROW(OPT_LIST, "sizes", 's', T, f, "LIST",		\
		   "frame lengths without FCS, 46..9014"),		\
	  .min = OPTS_SIZE_MIN, .max = OPTS_SIZE_MAX, .what = "a frame size" }
#define OPTS_FLOWS(T, f)						\
	{ OPTS_ROW(OPT_U32, "flows", 'f', T, f, "N",			\
		   "UDP flows (source ports 1000..1000+N-1), 1..4096"),	\
	  .min = 1, .max = OPTS_FLOWS_MAX, .def = "1" }
#define OPTS_FLOWS_LIST(T, f)						\
	{ OPTS_ROW(OPT_LIST, "flows", 'f', T, f, "LIST",		\
		   "UDP flows, 1..4096"),				\
	  .min = 1, .max = OPTS_FLOWS_MAX, .what = "a number of flows" }
#define OPTS_RATE(T, f, h)						\
	{ OPTS_ROW(OPT_U64, "rate", 0, T, f, "PPS", h),			\
	  .min = 1, .max = OPTS_RATE_MAX, .def = "as fast as it goes" }
#define OPTS_COUNT(T, f, h)						\
	{ OPTS_ROW(OPT_U64, "count", 'n', T, f, "N", h),		\
	  .min = 1, .max = OPTS_COUNT_MAX }
#define OPTS_DURATION(T, f, h)						\
	{ OPTS_ROW(OPT_DOUBLE, "duration", 'd', T, f, "SEC", h),	\
	  .dmin = 0.1, .dmax = OPTS_DURATION_MAX }
#define OPTS_WARMUP(T, f, h)						\
	{ OPTS_ROW(OPT_DOUBLE, "warmup", 'w', T, f, "SEC", h),		\
	  .dmin = 0, .dmax = 60 }
#define OPTS_REPEAT(T, f, h)						\
	{ OPTS_ROW(OPT_U32, "repeat", 'r', T, f, "R", h), .min = 1, .max = OPTS_REPEAT_MAX }
#define OPTS_LOOP(T, f, h)						\
	{ OPTS_ROW(OPT_U32, "loop", 'K', T, f, "K", h),			\
	  .min = 0, .max = 1 << 23 }
#define OPTS_INTERFACE(T, f, h)						\
	{ OPTS_ROW(OPT_IFNAME, "interface", 'i', T, f, "IF", h) }
#define OPTS_MTU(T, f, h, d)						\
	{ OPTS_ROW(OPT_U32, "mtu", 0, T, f, "N", h), .min = 68, .max = 65535, .def = d }
#define OPTS_JSON(T, f, h)						\
	{ OPTS_ROW(OPT_FLAG, "json", 'j', T, f, NULL, h) }
#define OPTS_OUT(T, f, h)						\
	{ OPTS_ROW(OPT_OUTDIR, "out", 'o', T, f, "DIR", h) }
#define OPTS_ALLOW_CONCURRENT(T, f)					\
	{ OPTS_ROW(OPT_FLAG, "allow-concurrent", 0, T, f, NULL,		\
		   "run beside another measuring run (by default it waits for it: " \
		   CLI_LOCK_PATH "); the report says so") }
#define OPTS_PROFILE(T, f, prefix)					\
	{ OPTS_ROW(OPT_PREFIX, "profile", 0, T, f, "PREFIX",		\
		   "sample the receiving CPU in the measured window (perf_event_open: " \
		   "cycles, or cpu-clock without a PMU; kernel symbols from " \
		   "/proc/kallsyms): the top 10 symbols of the receive path with their " \
		   "share and ns/pkt, PREFIX.folded (folded stacks) and PREFIX.svg " \
		   "(flame graph)"),					\
	  .def = prefix }
#define OPTS_HELP							\
	{ .type = OPT_FLAG, .name = "help", .letter = 'h', .help = "this text" }
/* The last row of every table: --help */
#define OPTS_HELP_END		OPTS_HELP, OPTS_END
/* A tool: its name, synopsis, rows and config type; .about, .notes, ... */
#define OPTS_TOOL(n, syn, r, T, ...)					\
	{ .name = n, .synopsis = syn, .opts = r, .cfg_size = sizeof(T),	\
	  __VA_ARGS__ }
#define OPTS_HEADING(h)		{ .type = OPT_HEADING, .help = h }
#define OPTS_END		{ .type = OPT_END }

#endif /* OPTS_H */
