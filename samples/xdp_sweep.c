// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_sweep - the cost of every XDP path: action x mode x frame size x flows,
 * each point measured R times, interleaved (all points once, then all again)
 * so that slow drift spreads over every point alike.  Prints a table, writes
 * a JSON result (Documentation/sweep.schema.json) and a gnuplot plot
 * (Documentation/results.rst).  The options and main; the sweep itself is
 * lib/sweep/sweep*.c (lib/sweep/sweep.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/stat.h>
#include <linux/netdev.h>

#include "cli.h"
#include "measure.h"
#include "opts.h"
#include "esc.h"
#include "profile.h"
#include "sweep.h"
#include "sweep_report.h"
#include "xsk_env.h"

struct config {
	struct sweep_cfg s;		/* what is measured, and how */
	struct opts_list rxdrop;	/* --rxdrop: sweep_stacks[] entries */
	const char *out_dir;
	bool no_plot;
	bool stacks;			/* the receive-stack comparison */
	/* interleaved A/B: B differs by these */
	bool ab;
	__u32 b_loop_k, b_spin_n;
	const char *cmd[2];	/* run before each run of side A, B */
	double level;		/* confidence level of the A/B report */
	double tolerance;	/* the report's "no change" within, %; -1 none */
	const char *b_opts;	/* B's options, parsed over A's */
	bool actions_given, sizes_given, flows_given, full_given;
	bool duration_given;
	bool ab_opts_given;	/* an A/B option or --out: never in --b-opts */
	bool out_made;		/* --out made by this run: removed if left empty */
	bool b_given;		/* --b-loop ... --level, --tolerance */
	bool loop_given, spin_given;	/* --loop, --spin (B's: in --b-opts) */
	bool b_loop_given, b_spin_given;
	char devs_buf[2 * IF_NAMESIZE + 2];	/* --devs: dev[] point here */
	bool allow_concurrent;
};

static void set_list(struct opts_list *l, const __u32 *v, unsigned int n)
{
	memcpy(l->v, v, n * sizeof(*v));
	l->n = n;
}

static int parse_devs(const struct opt *o, void *c, const char *arg)
{
	struct config *cfg = c;

	(void)o;
	return sweep_devs_parse(arg, cfg->devs_buf, sizeof(cfg->devs_buf),
				cfg->s.dev);
}

#define SW_ROW(t, n, l, f, a, h)	OPTS_ROW(t, n, l, struct config, f, a, h)
#define SW_FLAG(n, f, h)		{ SW_ROW(OPT_FLAG, n, 0, f, NULL, h) }
#define ABOUT \
	"Measure the cost per packet of XDP actions on the project's veth pair, over a\n" \
	"matrix of action x mode x frame size x flows, each point R times interleaved.\n" \
	"Sizes of 9000 and up run at MTU 9000 with xdp.frags programs.\n\n"
#define NOTES \
	"\nCost is the receive path's CPU time (NET_RX softirq from tracepoints) per frame\n" \
	"counted by the XDP program; cycles are TSC cycles.  The last line printed is\n" \
	"the JSON file's path.\n" \
	"Changed: --duration takes up to 86400 s (was 3600), as in the other tools;\n" \
	"--count gains -n.\n"

static const struct opt rows[] = {
	{ SW_ROW(OPT_LIST, "actions", 'a', s.actions, "LIST", "XDP actions"),
	  .parse = xdp_action_parse, .def = "XDP_DROP,XDP_TX,XDP_PASS,XDP_REDIRECT",
	  .values = "XDP_DROP, XDP_TX, XDP_PASS, XDP_REDIRECT, XDP_ABORTED" },
	{ SW_ROW(OPT_LIST, "modes", 'm', s.modes, "LIST", "XDP modes: native, generic (skb)"),
	  .parse = sweep_mode_parse, .values = "native, generic (skb)", .def = "native,generic" },
	OPTS_SIZES(struct config, s.sizes),
	OPTS_FLOWS_LIST(struct config, s.flows),
	SW_FLAG("full", full_given,
		"the whole matrix: sizes 64,512,1500,9000, flows 1,100,1000"),
	OPTS_REPEAT(struct config, s.repeat, "runs per point"),
	OPTS_DURATION(struct config, s.duration, "measured seconds per run"),
	OPTS_WARMUP(struct config, s.warmup, "traffic before each measurement"),
	OPTS_LOOP(struct config, s.loop_k, "inject K bpf_loop() iterations per frame"),
	{ SW_ROW(OPT_U32, "spin", 0, s.spin_n, "N",
		 "inject N inline multiply-adds per frame (<= 4096), in the matrix's program and the AF_XDP rows'"),
	  .min = 0, .max = 4096 },
	SW_FLAG("threaded", s.threaded, "threaded NAPI on the other CPU (a different path)"),
	SW_FLAG("stacks", stacks,
		"compare receive stacks on the same traffic: AF_XDP rxdrop (native copy, generic), TPACKET_V3, TPACKET_V2, recvmmsg (xdpsock's loops); alone, or with -a the action matrix as well; sizes up to 1514 (default 64)"),
	{ SW_ROW(OPT_LIST, "rxdrop", 0, rxdrop, "MODES",
		 "AF_XDP rxdrop (xdpsock's loop) beside the matrix, in these bind modes: copy, zerocopy (zc), generic; also counted (the app then waits in poll()) and on --devs"),
	  .parse = sweep_rxdrop_parse, .values = "copy, zerocopy (zc), generic" },
	{ SW_ROW(OPT_U64, "rxdrop-rate", 0, s.rxdrop_rate, "PPS",
		 "the --rxdrop rows' pace: a counted run on one CPU loses frames at full speed"),
	  .min = 1, .max = OPTS_RATE_MAX, .def = "--rate's" },
	{ SW_ROW(OPT_U64, "rxdrop-count", 0, s.rxdrop_count, "N",
		 "the --rxdrop rows' frames a run"),
	  .min = 1, .max = OPTS_COUNT_MAX, .def = "--count's" },
	OPTS_COUNT(struct config, s.count,
		   "counted runs of exactly N frames (no duration; with --warmup > 0 the first runs per point are not recorded: until one loses nothing, paced one more)"),
	OPTS_RATE(struct config, s.rate,
		  "pace the generator at PPS frames a second (up to 50000 one BPF_PROG_RUN call a frame, faster the program paces within one call: trafficgen.rst); without it, as fast as it goes"),
	{ SW_ROW(OPT_FUNC, "devs", 0, s.dev, "DUT,PEER",
		 "two connected interfaces (a NIC pair) instead of the veth pair; points then run one after another"),
	  .set = parse_devs },
	SW_FLAG("icount", s.icount,
		"the clock counts guest instructions (QEMU -icount shift=0): report insns/pkt, not ns"),
	SW_FLAG("profile", s.profile,
		"sample the receiving CPU in every measured window (perf_event_open: cycles, or cpu-clock without a PMU; kernel symbols from /proc/kallsyms): per point the top 10 symbols of the receive path with their share and ns/pkt (in the table's notes and the JSON), folded stacks and a flame graph (SVG) beside the JSON: sweep-STAMP-profile-POINT.{folded,svg}"),
	OPTS_OUT(struct config, out_dir, "where the JSON and the plot go"),
	SW_FLAG("no-plot", no_plot, "no gnuplot"),
	OPTS_ALLOW_CONCURRENT(struct config, allow_concurrent),
	OPTS_HEADING("Interleaved A/B (each round runs every point A, B or B, A in turn):"),
	SW_FLAG("ab", ab,
		"measure two variants, write both results and print the xdp_compare report of B against A"),
	{ SW_ROW(OPT_U32, "b-loop", 0, b_loop_k, "K", "B's injected cost (A's is --loop)"),
	  .min = 0, .max = 1 << 23 },
	{ SW_ROW(OPT_U32, "b-spin", 0, b_spin_n, "N",
		 "B's fine injected cost (A's is --spin)"), .min = 0, .max = 4096 },
	{ SW_ROW(OPT_STR, "a-cmd", 0, cmd[0], "CMD",
		 "shell command run before every run of A (e.g. a sysctl); a failing command fails that run"),
	  .flags = OPTS_ONCE },
	{ SW_ROW(OPT_STR, "b-cmd", 0, cmd[1], "CMD", "the same, before B's runs"),
	  .flags = OPTS_ONCE },
	{ SW_ROW(OPT_STR, "b-opts", 0, b_opts, "OPTS",
		 "B's options, read over A's (e.g. \"--threaded\", \"--loop 10 --duration 2\"); the matrix stays A's"),
	  .flags = OPTS_ONCE },
	{ SW_ROW(OPT_DOUBLE, "level", 0, level, "P", "confidence level of the report"),
	  .dmin = 50, .dmax = 99.999 },
	{ SW_ROW(OPT_DOUBLE, "tolerance", 0, tolerance, "PCT",
		 "the report calls a change within PCT% of A's median \"no change\" (identical sides differ by up to about 2% here: Documentation/compare.rst)"),
	  .dmin = 0, .dmax = 100, .def = "off" },
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL("xdp_sweep", "[OPTIONS]", rows, struct config,
		  .about = ABOUT, .notes = NOTES);

/* Options that exclude or need each other: the first rule broken */
static int check_args(const struct config *cfg)
{
	const struct sweep_cfg *s = &cfg->s;
	const bool stk = cfg->stacks || s->nstk;
	unsigned int i;
	const struct {
		bool broken;
		const char *why;
	} rules[] = {
		{ cfg->full_given && (cfg->sizes_given || cfg->flows_given),
		  "--full sets the sizes and the flows: not with --sizes or --flows" },
		{ s->count && cfg->duration_given,
		  "--duration: counted runs (--count) last as long as their frames take" },
		{ stk && cfg->sizes_given && !sweep_stack_sizes(s), cfg->stacks ?
		  "--stacks: no size up to 1514 in --sizes" :
		  "--rxdrop: no size up to 1514 in --sizes" },
		{ !cfg->ab && cfg->b_given,
		  "--b-loop, --b-spin, --b-opts, --a-cmd, --b-cmd, --level and --tolerance need --ab" },
		{ cfg->stacks && cfg->ab, "--stacks does not run A/B (--ab)" },
		{ cfg->stacks && (s->dev[0] || s->count || s->icount),
		  "--stacks runs on the own veth pair, timed: not with --devs, --count or --icount (--rxdrop does)" },
		{ cfg->stacks && s->nstk, "--stacks and --rxdrop: one or the other" },
		{ (s->rxdrop_rate || s->rxdrop_count) && !s->nstk,
		  "--rxdrop-rate and --rxdrop-count need --rxdrop" },
		{ s->rxdrop_count && !s->count,
		  "--rxdrop-count needs --count (counted runs)" },
		{ s->nstk && (cfg->ab || s->threaded),
		  "--rxdrop: not with --ab or --threaded" },
		{ s->dev[0] && (cfg->ab || s->threaded),
		  "--devs takes one pair at a time: not with --ab or --threaded" },
	};

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (rules[i].broken) {
			fprintf(stderr, "xdp_sweep: %s\n", rules[i].why);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * --rxdrop zerocopy on --devs: the dut's driver must say it can
 * (xsk-zerocopy in its xdp_features); asked before any run, not learnt
 * from a failed bind.  The own veth pair has no zero-copy: its bind says so.
 */
static int check_zerocopy(const struct sweep_cfg *s)
{
	__u64 have;
	__u32 segs;
	unsigned int k;
	int ret;

	for (k = 0; k < s->nstk && s->dev[0]; k++) {
		if (s->stk[k] != SWEEP_STK_AF_XDP_ZC)
			continue;
		ret = xenv_xdp_features(if_nametoindex(s->dev[0]), &have, &segs);
		if (ret) {
			fprintf(stderr, "xdp_sweep: --rxdrop zerocopy: %s: the netdev family's dev-get: %s\n",
				esc_text(s->dev[0]).s, strerror(-ret));
			return ret;
		}
		if (!(have & NETDEV_XDP_ACT_XSK_ZEROCOPY)) {
			fprintf(stderr, "xdp_sweep: --rxdrop zerocopy: %s has no xsk-zerocopy in its driver's xdp_features\n",
				esc_text(s->dev[0]).s);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* The options of the A/B itself, and the output: A's alone */
static const char *const ab_opts[] = { "ab", "b-loop", "b-spin", "a-cmd",
				       "b-cmd", "b-opts", "level", "tolerance",
				       "out" };

static int parse_args(int argc, char **argv, struct config *cfg)
{
	static const __u32 full_sizes[] = { 64, 512, 1500, 9000 };
	static const __u32 full_flows[] = { 1, 100, 1000 };
	opts_given_t given;
	unsigned int k;

	if (opts_parse(&tool, argc, argv, cfg, &given) < 0)
		return -EINVAL;
	cfg->actions_given |= opts_given(&tool, given, "actions");
	cfg->sizes_given |= opts_given(&tool, given, "sizes");
	cfg->flows_given |= opts_given(&tool, given, "flows");
	cfg->duration_given |= opts_given(&tool, given, "duration");
	for (k = 0; k < ARRAY_SIZE(ab_opts); k++)
		cfg->ab_opts_given |= opts_given(&tool, given, ab_opts[k]);
	/* the A/B's own options but --ab and --out */
	for (k = 1; k < ARRAY_SIZE(ab_opts) - 1; k++)
		cfg->b_given |= opts_given(&tool, given, ab_opts[k]);
	cfg->loop_given |= opts_given(&tool, given, "loop");
	cfg->spin_given |= opts_given(&tool, given, "spin");
	cfg->b_loop_given |= opts_given(&tool, given, "b-loop");
	cfg->b_spin_given |= opts_given(&tool, given, "b-spin");
	if (cfg->full_given) {
		set_list(&cfg->s.sizes, full_sizes, 4);
		set_list(&cfg->s.flows, full_flows, 3);
	}
	if (opts_given(&tool, given, "rxdrop")) {
		for (k = 0; k < cfg->rxdrop.n; k++)
			cfg->s.stk[k] = cfg->rxdrop.v[k];
		cfg->s.nstk = cfg->rxdrop.n;
	}
	return check_args(cfg) ?: check_zerocopy(&cfg->s);
}

/*
 * B's configuration: A's, then --b-loop and --b-spin, then --b-opts read
 * by the same parser.  The matrix (and the A/B options themselves) must
 * stay A's: B is the same points measured another way.
 */
static int side_b(const struct config *a, struct config *b)
{
	char *dup, *tok, *save, *argv[64] = { "xdp_sweep --b-opts" };
	int argc = 1, ret;

	*b = *a;
	b->s.loop_k = a->b_loop_k;
	b->s.spin_n = a->b_spin_n;
	b->s.pre_cmd = a->cmd[1];
	if (!a->b_opts)
		return 0;
	/* words split at blanks, as the help says: no shell quoting */
	if (strpbrk(a->b_opts, "'\"\\")) {
		fprintf(stderr, "xdp_sweep: --b-opts '%s': words are split at blanks, quotes and backslashes are not taken\n",
			esc_text(a->b_opts).s);
		return -EINVAL;
	}
	dup = strdup(a->b_opts);
	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, " \t", &save); tok && argc < 63;
	     tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = tok;
	b->ab_opts_given = false;
	b->loop_given = false;
	b->spin_given = false;
	ret = parse_args(argc, argv, b);
	if (ret) {
		fprintf(stderr, "xdp_sweep: --b-opts '%s': not options of B (above)\n",
			esc_text(a->b_opts).s);
	} else if ((b->loop_given && a->b_loop_given) ||
		   (b->spin_given && a->b_spin_given)) {
		/* B's cost given twice: one would be dropped */
		fprintf(stderr, "xdp_sweep: --b-opts '%s' sets B's --loop or --spin, and so does --b-loop or --b-spin: give it once\n",
			esc_text(a->b_opts).s);
		ret = -EINVAL;
	} else if (b->allow_concurrent != a->allow_concurrent ||
		   b->no_plot != a->no_plot || b->s.profile != a->s.profile) {
		/* one lock, one plot, one profile for both sides */
		fprintf(stderr, "xdp_sweep: --b-opts '%s': --allow-concurrent, --no-plot and --profile are the run's, not a side's: give them outside --b-opts\n",
			esc_text(a->b_opts).s);
		ret = -EINVAL;
	} else if (!sweep_same_plan(&a->s, &b->s) || b->ab_opts_given) {
		fprintf(stderr, "xdp_sweep: --b-opts '%s': B may not change the matrix, the repeats, the output or the A/B options\n",
			esc_text(a->b_opts).s);
		ret = -EINVAL;
	}
	free(dup);
	return ret;
}

/*
 * The configuration of both sides, before anything is set up or waited
 * for: A's from the command line, B's from A's and --b-* (cfg is final
 * from here on, since B starts as a copy of it)
 */
static int configure(int argc, char **argv, struct config *cfg,
		     struct config *b)
{
	static const __u32 def_actions[] = { XDP_DROP, XDP_TX, XDP_PASS,
					     XDP_REDIRECT };
	static const __u32 def_modes[] = { 0, 1 };
	static const __u32 def_sizes[] = { 64, 1500, 9000 };
	static const __u32 def_flows[] = { 1 };
	unsigned int k;

	set_list(&cfg->s.actions, def_actions, 4);
	set_list(&cfg->s.modes, def_modes, 2);
	set_list(&cfg->s.sizes, def_sizes, 3);
	set_list(&cfg->s.flows, def_flows, 1);
	if (parse_args(argc, argv, cfg))
		return -EINVAL;
	if (cfg->stacks) {
		if (!cfg->sizes_given)
			set_list(&cfg->s.sizes, def_sizes, 1);
		for (k = 0; k < SWEEP_NR_COMPARED; k++)
			cfg->s.stk[k] = k;
		cfg->s.nstk = SWEEP_NR_COMPARED;
		/* Alone, the comparison; with -a, the matrix as well */
		if (!cfg->actions_given)
			cfg->s.actions.n = 0;
	}
	cfg->s.pre_cmd = cfg->cmd[0];
	if (strlen(cfg->out_dir) > SWEEP_OUT_MAX) {
		fprintf(stderr, "xdp_sweep: --out: '%s' is %zu bytes long, more than %u\n",
			esc_path(cfg->out_dir).s, strlen(cfg->out_dir),
			SWEEP_OUT_MAX);
		return -EINVAL;
	}
	if (cfg->ab && side_b(cfg, b))
		return -EINVAL;
	/* the options all taken: one level of --out is made, or refused */
	cfg->out_made = !mkdir(cfg->out_dir, 0755);
	if (!cfg->out_made && errno != EEXIST) {
		fprintf(stderr, "xdp_sweep: --out: '%s' is not a directory we can write to (%s)\n",
			esc_path(cfg->out_dir).s, strerror(errno));
		return -EINVAL;
	}
	return cli_check_out_dir("xdp_sweep", "--out", cfg->out_dir) ?
	       -EINVAL : 0;
}

/* Root, the output directory, the signals, the run lock */
static int start(const struct config *cfg, struct cli_lock *lock)
{
	if (geteuid()) {
		fprintf(stderr, "xdp_sweep: needs root (XDP, BPF, network namespaces)\n");
		return 1;
	}
	cli_stop_on_signals();
	xenv_stop_test(cli_stopping);	/* a hung set-up command too */
	if (cli_lock_take(lock, "xdp_sweep", cfg->allow_concurrent))
		return cli_finish(tool.name, 1);
	return 0;
}

/* The empty file sweep_result_name() made, removed if it is still so */
static void unclaim(const char *base, bool ab)
{
	char path[SWEEP_BASE_LEN + 8];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s.json", base, ab ? "-a" : "");
	if (!lstat(path, &st) && S_ISREG(st.st_mode) && !st.st_size)
		unlink(path);
}

/* --out, made by this run and still empty: removed (rmdir: only if empty) */
static void unmake_out(const struct config *cfg)
{
	if (cfg->out_made)
		rmdir(cfg->out_dir);
}

/*
 * A side none of whose runs was measured: its index, or -1 when every side
 * has one.  Of an A/B, a side that failed throughout leaves nothing to judge.
 */
static int unmeasured_side(const struct sweep_report_opts *ro)
{
	unsigned int sd, i, k;

	for (sd = 0; sd < ro->nsides; sd++) {
		bool any = false;

		for (i = 0; i < ro->sw[sd].n && !any; i++)
			for (k = 0; k < ro->sw[sd].cfg->repeat && !any; k++)
				any = ro->sw[sd].pts[i].runs[k].ok;
		if (!any)
			return sd;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct config side[2] = { {
		.s = { .repeat = 5, .duration = 1, .warmup = 0.2 },
		.out_dir = "results",
		.level = 95, .tolerance = -1,
	} };
	struct sweep_report_opts ro = { .sw = {} };
	struct sweep_side *sw = ro.sw;
	char started[32];
	struct sweep_result_info info = { .started = started };
	struct cli_lock lock;
	unsigned int sd;
	const char *warn;
	int bad;
	int ret = 1;

	if (configure(argc, argv, &side[0], &side[1]))
		return 2;
	if (start(&side[0], &lock)) {
		unmake_out(&side[0]);
		return cli_finish(tool.name, 1);
	}
	ret = sweep_result_name(side[0].out_dir, side[0].ab, started,
				sizeof(started), ro.base);
	if (ret) {
		fprintf(stderr, "xdp_sweep: --out: no name for the result in '%s' (%s)\n",
			esc_path(side[0].out_dir).s, strerror(-ret));
		cli_lock_release(&lock);
		unmake_out(&side[0]);
		return cli_finish(tool.name, 1);
	}
	ret = 1;
	info.ghz = tsc_ghz_measure(200);
	sweep_config_hash(info.cfghash);
	ro.nsides = side[0].ab ? 2 : 1;
	ro.plot = !side[0].no_plot;
	ro.level = side[0].level;
	ro.tolerance = side[0].tolerance;
	for (sd = 0; sd < ro.nsides; sd++) {
		sw[sd].cfg = &side[sd].s;
		if (sweep_plan(&side[sd].s, !sd, &sw[sd].pts, &sw[sd].n,
			       &ro.nxdp))
			goto out;
	}
	if (side[0].s.profile &&
	    sweep_profile_open(&side[0].s, ro.nsides == 2 ? &side[1].s : NULL))
		goto out;
	sweep_announce(&side[0].s, sw[0].n, sw[0].n - ro.nxdp, side[0].ab,
		       info.ghz);
	if (side[0].s.dev[0])
		sweep_run_serial(&sw[0]);
	else
		sweep_run_all(sw, ro.nsides);
	if (cli_stop)
		fprintf(stderr, "xdp_sweep: interrupted; the result holds the runs done\n");
	warn = cli_lock_warning(&lock);
	if (warn)
		printf("WARNING: %s\n", warn);
	info.interrupted = cli_stop;
	info.run_lock = cli_lock_state(&lock);
	ret = sweep_report(&ro, &info);
	bad = ret || cli_stop ? -1 : unmeasured_side(&ro);
	if (bad >= 0 && ro.nsides == 1)
		fprintf(stderr, "xdp_sweep: no point was measured: each failed (FAILED above; the result holds why)\n");
	else if (bad >= 0)
		fprintf(stderr, "xdp_sweep: side %c measured no point: each of its runs failed (FAILED above; the result holds why), so nothing is compared\n",
			'A' + bad);
	if (bad >= 0)
		ret = 1;
out:
	/* no result written: the name's claim goes (it is still empty) */
	if (ret) {
		unclaim(ro.base, side[0].ab);
		unmake_out(&side[0]);
	}
	for (sd = 0; sd < ro.nsides; sd++)
		sweep_plan_free(sw[sd].pts, sw[sd].n);
	prof_close(side[0].s.prof);
	cli_lock_release(&lock);
	return cli_finish(tool.name, ret);
}
