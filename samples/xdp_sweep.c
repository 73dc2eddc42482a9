// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_sweep - the cost of every XDP path: action x mode x frame size x flows,
 * each point measured R times, interleaved (all points once, then all again)
 * so that slow drift spreads over every point alike.  Prints a table, writes
 * a JSON result (Documentation/sweep.rst) and a gnuplot plot.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <net/if.h>
#include <linux/if_link.h>

#include "json.h"
#include "cli.h"
#include "opts.h"
#include "measure.h"
#include "profile.h"
#include "rxq_bench.h"
#include "stats.h"
#include "xsk_bench.h"
#include "xsk_core.h"
#include "xsk_pkt.h"

#define VERSION		"0.1"
#define SCHEMA		"xdp-sweep/1"
#define MAX_REPEAT	OPTS_REPEAT_MAX
#define MAX_RETRIES	2	/* a disturbed run is redone this often */
#define WARMUP_TRIES	20	/* counted warm-up runs until one loses none */

struct run {
	struct rxq_result r;
	bool ok;
	int retries;
	char err[XSK_ERRLEN];
};

struct point {
	__u32 action;
	bool skb_mode;
	__u32 size;
	__u32 flows;
	double prog_ns;
	struct rxq_bench *bench;	/* open for the whole sweep */
	char err[XSK_ERRLEN];		/* why it could not be opened */
	struct run runs[MAX_REPEAT];
	/* --profile: the kept runs' windows, and their files */
	struct prof_data *prof;
	char folded[600], svg[600];
	bool prof_written;
};


/*
 * --stacks: rxdrop on each receive stack users choose between, on the same
 * traffic (lib/xsk_bench, as xdpsock measures it)
 */
struct stack_run {
	struct xskb_result r;
	bool ok;
	int retries;
	char err[XSK_ERRLEN];
};

struct stack_point {
	const char *stack;	/* af_xdp, tpacket_v3, tpacket_v2, recvmmsg */
	const char *mode;	/* af_xdp: native, generic,
				 * native-with-zerocopy; else NULL */
	const char *label;	/* the table's path column */
	unsigned int def;	/* its stack_defs[] entry */
	__u32 size;
	struct xsk_bench *bench;
	char err[XSK_ERRLEN];
	struct stack_run runs[MAX_REPEAT];
};

static const struct {
	const char *stack, *mode, *label;
	bool afpacket;
	enum afp_backend afp;
	enum xsk_mode xmode;
} stack_defs[] = {
	{ "af_xdp", "native", "AF_XDP", false, AFP_AUTO, XSK_MODE_NATIVE },
	{ "af_xdp", "generic", "AF_XDP", false, AFP_AUTO, XSK_MODE_GENERIC },
	{ "tpacket_v3", NULL, "TPACKET_V3", true, AFP_TPACKET_V3, 0 },
	{ "tpacket_v2", NULL, "TPACKET_V2", true, AFP_TPACKET_V2, 0 },
	{ "recvmmsg", NULL, "recvmmsg", true, AFP_RECVMMSG, 0 },
	/* --rxdrop only: veth has no zero-copy */
	{ "af_xdp", "native-with-zerocopy", "AF_XDP", false, AFP_AUTO,
	  XSK_MODE_NATIVE_ZC },
};

#define NR_STACKS	ARRAY_SIZE(stack_defs)
#define NR_COMPARED	5	/* --stacks: the first five */

/* --rxdrop MODES: the AF_XDP bind modes, by their stack_defs[] entry */
static const struct {
	const char *name;
	unsigned int def;
} rxdrop_modes[] = {
	{ "copy", 0 },
	{ "zerocopy", 5 },
	{ "zc", 5 },
	{ "generic", 1 },
};

struct config {
	struct opts_list actions, modes, sizes, flows;
	struct opts_list rxdrop;	/* --rxdrop: stack_defs[] entries */
	unsigned int repeat;
	double duration;
	double warmup;
	const char *out_dir;
	bool threaded;
	bool no_plot;
	__u32 loop_k;
	__u32 spin_n;
	/* interleaved A/B: B differs by these */
	bool ab;
	__u32 b_loop_k;
	__u32 b_spin_n;
	const char *cmd[2];	/* run before each run of side A, B */
	double level;		/* confidence level of the A/B report */
	const char *pre_cmd;	/* this side's: cmd[0] or cmd[1] */
	const char *b_opts;	/* B's options, parsed over A's */
	bool stacks;		/* the receive-stack comparison */
	unsigned int nstk;	/* its stacks, or --rxdrop's: stack_defs[] */
	unsigned int stk[NR_STACKS];
	bool actions_given;
	bool sizes_given;
	bool flows_given;
	bool full_given;
	bool duration_given;
	/* exact cost mode (Documentation/exact_cost.rst) */
	__u64 count;		/* counted runs: exactly this many frames */
	__u64 rate;		/* paced: frames per second, one per call */
	__u64 rxdrop_rate;	/* --rxdrop's pace (default: rate) */
	__u64 rxdrop_count;	/* --rxdrop's frames a run (default: count) */
	bool icount;		/* the clock counts guest instructions */
	char devs_buf[2 * IF_NAMESIZE + 2];
	const char *dev[2];	/* a connected NIC pair instead of veth */
	bool allow_concurrent;
	struct cli_lock *lock;	/* one measuring run at a time */
	bool profile;		/* --profile */
	struct prof *prof;
};

static int one_mode(const char *s, __u32 *v)
{
	if (!strcmp(s, "native"))
		*v = 0;
	else if (!strcmp(s, "generic") || !strcmp(s, "skb"))
		*v = 1;
	else
		return -EINVAL;
	return 0;
}

/* --rxdrop's names: the stack_defs[] entry (zc is zerocopy) */
static int one_rxdrop(const char *s, __u32 *v)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rxdrop_modes); i++) {
		if (!strcmp(s, rxdrop_modes[i].name)) {
			*v = rxdrop_modes[i].def;
			return 0;
		}
	}
	return -EINVAL;
}

static void set_list(struct opts_list *l, const __u32 *v, unsigned int n)
{
	memcpy(l->v, v, n * sizeof(*v));
	l->n = n;
}

/* --devs DUT,PEER (or "DUT PEER"): two interfaces of this namespace */
static int parse_devs(const struct opt *o, void *c, const char *arg)
{
	struct config *cfg = c;
	char *buf = cfg->devs_buf, *sep;
	int i;

	(void)o;
	snprintf(buf, sizeof(cfg->devs_buf), "%s", arg);
	sep = strpbrk(buf, " ,");
	if (!sep || sep == buf || !sep[1] || strpbrk(sep + 1, " ,") ||
	    sep - buf >= IF_NAMESIZE || strlen(sep + 1) >= IF_NAMESIZE) {
		fprintf(stderr, "xdp_sweep: --devs '%s': want two interface names, DUT,PEER\n",
			arg);
		return -EINVAL;
	}
	*sep = '\0';
	cfg->dev[0] = buf;
	cfg->dev[1] = sep + 1;
	for (i = 0; i < 2; i++) {
		if (!if_nametoindex(cfg->dev[i])) {
			fprintf(stderr, "xdp_sweep: --devs '%s': no interface %s here\n",
				arg, cfg->dev[i]);
			return -EINVAL;
		}
	}
	if (!strcmp(cfg->dev[0], cfg->dev[1])) {
		fprintf(stderr, "xdp_sweep: --devs '%s': the dut and the peer must differ\n",
			arg);
		return -EINVAL;
	}
	return 0;
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
	{ SW_ROW(OPT_LIST, "actions", 'a', actions, "LIST", "XDP actions"),
	  .parse = rxq_action_parse, .def = "XDP_DROP,XDP_TX,XDP_PASS,XDP_REDIRECT",
	  .values = "XDP_DROP, XDP_TX, XDP_PASS, XDP_REDIRECT, XDP_ABORTED" },
	{ SW_ROW(OPT_LIST, "modes", 'm', modes, "LIST", "XDP modes: native, generic (skb)"),
	  .parse = one_mode, .values = "native, generic (skb)", .def = "native,generic" },
	OPTS_SIZES(struct config, sizes),
	OPTS_FLOWS_LIST(struct config, flows),
	SW_FLAG("full", full_given,
		"the whole matrix: sizes 64,512,1500,9000, flows 1,100,1000"),
	OPTS_REPEAT(struct config, repeat, "runs per point"),
	OPTS_DURATION(struct config, duration, "measured seconds per run"),
	OPTS_WARMUP(struct config, warmup, "traffic before each measurement"),
	OPTS_LOOP(struct config, loop_k, "inject K bpf_loop() iterations per frame"),
	{ SW_ROW(OPT_U32, "spin", 0, spin_n, "N",
		 "inject N inline multiply-adds per frame (<= 4096), in the matrix's program and the AF_XDP rows'"),
	  .min = 0, .max = 4096 },
	SW_FLAG("threaded", threaded, "threaded NAPI on the other CPU (a different path)"),
	SW_FLAG("stacks", stacks,
		"compare receive stacks on the same traffic: AF_XDP rxdrop (native copy, generic), TPACKET_V3, TPACKET_V2, recvmmsg (xdpsock's loops); alone, or with -a the action matrix as well; sizes up to 1514 (default 64)"),
	{ SW_ROW(OPT_LIST, "rxdrop", 0, rxdrop, "MODES",
		 "AF_XDP rxdrop (xdpsock's loop) beside the matrix, in these bind modes: copy, zerocopy (zc), generic; also counted (the app then waits in poll()) and on --devs"),
	  .parse = one_rxdrop, .values = "copy, zerocopy (zc), generic" },
	{ SW_ROW(OPT_U64, "rxdrop-rate", 0, rxdrop_rate, "PPS",
		 "the --rxdrop rows' pace: a counted run on one CPU loses frames at full speed"),
	  .min = 1, .max = OPTS_RATE_MAX, .def = "--rate's" },
	{ SW_ROW(OPT_U64, "rxdrop-count", 0, rxdrop_count, "N",
		 "the --rxdrop rows' frames a run"),
	  .min = 1, .max = OPTS_COUNT_MAX, .def = "--count's" },
	OPTS_COUNT(struct config, count,
		   "counted runs of exactly N frames (no duration; with --warmup > 0 the first runs per point are not recorded: until one loses nothing, paced one more)"),
	OPTS_RATE(struct config, rate,
		  "pace the generator: one frame per BPF_PROG_RUN call, at most PPS a second; without it, batches"),
	{ SW_ROW(OPT_FUNC, "devs", 0, dev, "DUT,PEER",
		 "two connected interfaces (a NIC pair) instead of the veth pair; points then run one after another"),
	  .set = parse_devs },
	SW_FLAG("icount", icount,
		"the clock counts guest instructions (QEMU -icount shift=0): report insns/pkt, not ns"),
	SW_FLAG("profile", profile,
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
		 "shell command run before every run of A (e.g. a sysctl); a failing command fails that run") },
	{ SW_ROW(OPT_STR, "b-cmd", 0, cmd[1], "CMD", "the same, before B's runs") },
	{ SW_ROW(OPT_STR, "b-opts", 0, b_opts, "OPTS",
		 "B's options, read over A's (e.g. \"--threaded\", \"--loop 10 --duration 2\"); the matrix stays A's") },
	{ SW_ROW(OPT_DOUBLE, "level", 0, level, "P", "confidence level of the report"),
	  .dmin = 50, .dmax = 99.999 },
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL("xdp_sweep", "[OPTIONS]", rows, struct config,
		  .about = ABOUT, .notes = NOTES);

/* Options that exclude or need each other */
static int check_args(struct config *cfg)
{
	if (cfg->full_given && (cfg->sizes_given || cfg->flows_given)) {
		fprintf(stderr, "xdp_sweep: --full sets the sizes and the flows: not with --sizes or --flows\n");
		return -EINVAL;
	}
	if (cfg->count && cfg->duration_given) {
		fprintf(stderr, "xdp_sweep: --duration: counted runs (--count) last as long as their frames take\n");
		return -EINVAL;
	}
	if ((cfg->stacks || cfg->nstk) && cfg->sizes_given) {
		unsigned int z;

		for (z = 0; z < cfg->sizes.n && cfg->sizes.v[z] > 1514; z++)
			;
		if (z == cfg->sizes.n) {
			fprintf(stderr, "xdp_sweep: %s: no size up to 1514 in --sizes\n",
				cfg->stacks ? "--stacks" : "--rxdrop");
			return -EINVAL;
		}
	}
	if (!cfg->ab && (cfg->b_loop_k || cfg->b_spin_n || cfg->cmd[0] ||
			 cfg->cmd[1] || cfg->b_opts)) {
		fprintf(stderr, "xdp_sweep: --b-loop, --b-spin, --b-opts, --a-cmd and --b-cmd need --ab\n");
		return -EINVAL;
	}
	if (cfg->stacks && cfg->ab) {
		fprintf(stderr, "xdp_sweep: --stacks does not run A/B (--ab)\n");
		return -EINVAL;
	}
	if (cfg->stacks && (cfg->dev[0] || cfg->count || cfg->icount)) {
		fprintf(stderr, "xdp_sweep: --stacks runs on the own veth pair, timed: not with --devs, --count or --icount (--rxdrop does)\n");
		return -EINVAL;
	}
	if (cfg->stacks && cfg->nstk) {
		fprintf(stderr, "xdp_sweep: --stacks and --rxdrop: one or the other\n");
		return -EINVAL;
	}
	if ((cfg->rxdrop_rate || cfg->rxdrop_count) && !cfg->nstk) {
		fprintf(stderr, "xdp_sweep: --rxdrop-rate and --rxdrop-count need --rxdrop\n");
		return -EINVAL;
	}
	if (cfg->rxdrop_count && !cfg->count) {
		fprintf(stderr, "xdp_sweep: --rxdrop-count needs --count (counted runs)\n");
		return -EINVAL;
	}
	if (cfg->nstk && (cfg->ab || cfg->threaded)) {
		fprintf(stderr, "xdp_sweep: --rxdrop: not with --ab or --threaded\n");
		return -EINVAL;
	}
	if (cfg->dev[0] && (cfg->ab || cfg->threaded)) {
		fprintf(stderr, "xdp_sweep: --devs takes one pair at a time: not with --ab or --threaded\n");
		return -EINVAL;
	}
	return 0;
}

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
	if (cfg->full_given) {
		set_list(&cfg->sizes, full_sizes, 4);
		set_list(&cfg->flows, full_flows, 3);
	}
	if (opts_given(&tool, given, "rxdrop")) {
		for (k = 0; k < cfg->rxdrop.n; k++)
			cfg->stk[k] = cfg->rxdrop.v[k];
		cfg->nstk = cfg->rxdrop.n;
	}
	return check_args(cfg);
}

static const char *mode_name(bool skb)
{
	return skb ? "generic" : "native";
}

static int open_point(const struct config *cfg, struct point *p)
{
	struct rxq_opts o = {
		.action = p->action,
		.skb_mode = p->skb_mode,
		.pkt_size = p->size,
		.flows = p->flows,
		.frags = p->size > 1514,
		.threaded_napi = cfg->threaded,
		.loop_k = cfg->loop_k,
		.spin_n = cfg->spin_n,
		.count = cfg->count,
		.rate_pps = cfg->rate,
		.dev = { cfg->dev[0], cfg->dev[1] },
		.prof = cfg->prof,
	};
	int ret, i, warm = 0;

	ret = rxq_bench_open(&p->bench, &o, p->err);
	/* exact under an instruction clock: fewer repeats do (and 10^6 take
	 * seconds of an emulated CPU) */
	if (!ret && rxq_bench_prog_cost(p->bench, cfg->icount ? 10000 : 1000000,
					&p->prog_ns))
		p->prog_ns = -1;
	/*
	 * Counted runs have no warm-up of their own: runs not kept, until one
	 * loses nothing (a NIC pair that has just come up loses the first
	 * frames: QEMU's igb dropped whole runs of them here)
	 */
	for (i = 0; !ret && cfg->count && cfg->warmup > 0; i++) {
		struct rxq_result r;

		ret = rxq_bench_run(p->bench, 0, 0, 0, NULL, NULL, &cli_stop,
				    &r, p->err);
		/*
		 * Paced, one more: on igb the first run of 5000 frames after
		 * one that lost nothing still came out 2-3% cheaper than the
		 * next ones (not after two; cause unknown)
		 */
		if (!ret && !r.lost && (!cfg->rate || warm++))
			break;
		if (!ret && i == WARMUP_TRIES - 1)
			ret = xsk_errf(p->err, -EIO, "warm-up: every one of %d runs lost frames (%llu of %llu in the last)",
				       WARMUP_TRIES, (unsigned long long)r.lost,
				       (unsigned long long)r.gen_sent);
		if (!ret)
			usleep(100000);
	}
	if (ret) {
		rxq_bench_close(p->bench);
		p->bench = NULL;
	}
	return ret;
}

static int measure(const struct config *cfg, struct point *p, struct run *run)
{
	int ret;

	if (cfg->pre_cmd) {
		int st = system(cfg->pre_cmd);

		if (st) {
			snprintf(run->err, sizeof(run->err),
				 "'%.200s' failed (status %d)", cfg->pre_cmd, st);
			return -ECANCELED;
		}
	}
	if (!p->bench) {
		snprintf(run->err, sizeof(run->err), "%s", p->err);
		return -ENODEV;
	}
	ret = rxq_bench_run(p->bench, cfg->warmup * 1e9, cfg->duration * 1e9,
			    0, NULL, NULL, &cli_stop, &run->r, run->err);
	/*
	 * The profile takes the windows the result keeps: not one that is
	 * disturbed and will be redone (the next window's start empties the
	 * rings)
	 */
	if (!ret && p->prof &&
	    (!run->r.disturbed || run->retries >= MAX_RETRIES)) {
		int n = prof_collect(cfg->prof, run->r.rx_cpu, p->prof);

		if (n < 0)
			fprintf(stderr, "\nxdp_sweep: --profile: reading the samples: %s\n",
				strerror(-n));
	}
	return ret;
}

/* The rxdrop rows' frames a counted run, 0 for timed runs */
static __u64 stack_count(const struct config *cfg)
{
	return cfg->rxdrop_count ?: cfg->count;
}

/* A counted rxdrop run loses what was sent and not received */
static __u64 stack_lost(const struct config *cfg, const struct xskb_result *r)
{
	if (!stack_count(cfg))
		return r->drops;
	return r->gen_sent > r->packets ? r->gen_sent - r->packets : 0;
}

static int measure_stack(const struct config *cfg, struct stack_point *sp,
			 struct stack_run *run)
{
	if (!sp->bench) {
		snprintf(run->err, sizeof(run->err), "%s", sp->err);
		return -ENODEV;
	}
	/* counted: no limit but the bench's own (nothing moves for 5 s) */
	return xskb_run(sp->bench, cfg->warmup * 1e9,
			stack_count(cfg) ? 0 : cfg->duration * 1e9, 0, NULL, NULL,
			&cli_stop, &run->r, run->err);
}

/*
 * Counted runs: the application waits in poll() while its ring is empty,
 * so that its CPU time is its work (and, on one CPU, it leaves the CPU to
 * the generator); the first runs are warm-up, as open_point()'s
 */
static int open_stack(const struct config *cfg, struct stack_point *sp)
{
	const unsigned int def = sp->def;
	struct xskb_opts o = {
		.kind = XSKB_RXDROP,
		.afpacket = stack_defs[def].afpacket,
		.afp = stack_defs[def].afp,
		.port = { .mode = stack_defs[def].xmode },
		.spin_n = stack_defs[def].afpacket ? 0 : cfg->spin_n,
		.pkt_size = sp->size,
		.count = stack_count(cfg),
		.rate_pps = cfg->rxdrop_rate ?: cfg->rate,
		.poll = stack_count(cfg) > 0,
		.dev = { cfg->dev[0], cfg->dev[1] },
		.app_cpu = -1,
		.gen_cpu = 0,
	};
	struct stack_run r;
	int ret, i, warm = 0;

	ret = xskb_open(&sp->bench, &o, sp->err);
	for (i = 0; !ret && stack_count(cfg) && cfg->warmup > 0; i++) {
		ret = measure_stack(cfg, sp, &r);
		if (ret) {
			snprintf(sp->err, sizeof(sp->err), "warm-up: %.240s", r.err);
			break;
		}
		/* paced: two, as open_point()'s */
		if (!stack_lost(cfg, &r.r) && (!o.rate_pps || warm++))
			break;
		if (i == WARMUP_TRIES - 1)
			ret = xsk_errf(sp->err, -EIO, "warm-up: every one of %d runs lost frames (%llu of %llu in the last)",
				       WARMUP_TRIES,
				       (unsigned long long)stack_lost(cfg, &r.r),
				       (unsigned long long)r.r.gen_sent);
		else
			usleep(100000);
	}
	if (ret) {
		xskb_close(sp->bench);
		sp->bench = NULL;
	}
	return ret;
}

struct stack_summary {
	struct stats_summary mpps, ns, app_ns;
	unsigned int ok, disturbed;
	__u64 sent, counted, lost;
};

static void summarize_stack(const struct config *cfg,
			    const struct stack_point *sp,
			    struct stack_summary *s)
{
	double mpps[MAX_REPEAT], ns[MAX_REPEAT], app[MAX_REPEAT];
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < cfg->repeat; i++) {
		const struct stack_run *r = &sp->runs[i];

		if (!r->ok)
			continue;
		mpps[s->ok] = r->r.pps / 1e6;
		ns[s->ok] = r->r.net_rx_ns_per_pkt;
		app[s->ok] = r->r.app_ns_per_pkt;
		s->ok++;
		s->sent += r->r.gen_sent;
		s->counted += r->r.packets;
		s->lost += stack_lost(cfg, &r->r);
		s->disturbed += r->r.disturbed;
	}
	if (s->ok) {
		stats_summarize(mpps, s->ok, &s->mpps);
		stats_summarize(ns, s->ok, &s->ns);
		stats_summarize(app, s->ok, &s->app_ns);
	}
}

struct summary {
	struct stats_summary ns, mpps;
	unsigned int ok, disturbed;
	__u64 sent, packets, lost, xmit_errors, rx_drops;
	const char *gen_method;
};

static void summarize(const struct config *cfg, const struct point *p,
		      struct summary *s)
{
	double ns[MAX_REPEAT], mpps[MAX_REPEAT];
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < cfg->repeat; i++) {
		const struct run *r = &p->runs[i];

		if (!r->ok)
			continue;
		ns[s->ok] = r->r.ns_per_pkt;
		mpps[s->ok] = r->r.pps / 1e6;
		s->ok++;
		s->disturbed += r->r.disturbed;
		s->sent += r->r.gen_sent;
		s->packets += r->r.packets;
		s->lost += r->r.lost;
		s->xmit_errors += r->r.lost_xmit_errors;
		s->rx_drops += r->r.lost_rx_drops;
		s->gen_method = r->r.gen_method;
	}
	if (s->ok) {
		stats_summarize(ns, s->ok, &s->ns);
		stats_summarize(mpps, s->ok, &s->mpps);
	}
}

static void env_json(struct json *j, double ghz, const struct config *cfg)
{
	char model[256] = "unknown", line[512], cfghash[80] = "unknown";
	struct utsname u;
	FILE *f;

	uname(&u);
	f = fopen("/proc/cpuinfo", "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "model name", 10)) {
			char *c = strchr(line, ':');

			if (c) {
				snprintf(model, sizeof(model), "%s", c + 2);
				model[strcspn(model, "\n")] = '\0';
			}
			break;
		}
	}
	if (f)
		fclose(f);
	/* The running kernel's config, as far as it can be found */
	snprintf(line, sizeof(line),
		 "{ zcat /proc/config.gz 2>/dev/null || cat /boot/config-%s 2>/dev/null; } | sha256sum | cut -c1-64",
		 u.release);
	f = popen(line, "r");
	if (f) {
		if (fgets(cfghash, sizeof(cfghash), f))
			cfghash[strcspn(cfghash, "\n")] = '\0';
		pclose(f);
	}
	/* sha256 of nothing: no config to be found */
	if (!strncmp(cfghash, "e3b0c44298fc1c149afbf4c8996fb924", 32))
		snprintf(cfghash, sizeof(cfghash), "unknown");

	json_key(j, "env");
	json_begin_object(j);
	json_kv_string(j, "kernel_release", u.release);
	json_kv_string(j, "kernel_version", u.version);
	json_kv_string(j, "kernel_config_sha256", cfghash);
	json_kv_string(j, "machine", u.machine);
	json_kv_string(j, "cpu_model", model);
	json_kv_s64(j, "ncpus", sysconf(_SC_NPROCESSORS_ONLN));
	json_kv_double(j, "tsc_ghz", ghz);
	json_kv_string(j, "napi", cfg->threaded ? "threaded" : "default");
	json_end_object(j);
}

static void list_json(struct json *j, const char *key, const struct opts_list *l,
		      const char *(*name)(__u32))
{
	unsigned int i;

	json_key(j, key);
	json_begin_array(j);
	for (i = 0; i < l->n; i++) {
		if (name)
			json_string(j, name(l->v[i]));
		else
			json_u64(j, l->v[i]);
	}
	json_end_array(j);
}

static const char *mode_of(__u32 v)
{
	return mode_name(v);
}

/* key: { median, ci95_lo, ci95_hi, ci_method, mean, sd }, null if none */
static void summary_json(struct json *j, const char *key,
			 const struct stats_summary *s, bool ok)
{
	json_key(j, key);
	json_begin_object(j);
	json_kv_double(j, "median", ok ? s->median : NAN);
	json_kv_double(j, "ci95_lo", ok ? s->ci_lo : NAN);
	json_kv_double(j, "ci95_hi", ok ? s->ci_hi : NAN);
	json_kv_string(j, "ci_method", ok ?
		       stats_ci_method_name(s->ci_method) : "none");
	json_kv_double(j, "mean", ok ? s->mean : NAN);
	json_kv_double(j, "sd", ok ? s->sd : NAN);
	json_end_object(j);
}

static void stacks_json(struct json *j, const struct config *cfg,
			const struct stack_point *sps, unsigned int nsps,
			double ghz)
{
	unsigned int i, k;

	json_key(j, "stacks");
	json_begin_array(j);
	for (i = 0; i < nsps; i++) {
		const struct stack_point *sp = &sps[i];
		struct stack_summary s;

		summarize_stack(cfg, sp, &s);
		json_begin_object(j);
		json_kv_string(j, "stack", sp->stack);
		json_kv_string(j, "mode", sp->mode);
		json_kv_string(j, "benchmark", "rxdrop");
		json_kv_u64(j, "size", sp->size);
		json_kv_u64(j, "runs_ok", s.ok);
		json_kv_u64(j, "runs_disturbed", s.disturbed);
		summary_json(j, "mpps", &s.mpps, s.ok);
		summary_json(j, "ns_per_pkt", &s.ns, s.ok);
		json_kv_double(j, "tsc_cycles_per_pkt",
			       s.ok ? s.ns.median * ghz : NAN);
		summary_json(j, "app_ns_per_pkt", &s.app_ns, s.ok);
		json_kv_u64(j, "sent", s.sent);
		json_kv_u64(j, "counted", s.counted);
		json_kv_u64(j, "lost", s.lost);
		json_kv_bool(j, "app_poll", stack_count(cfg) > 0);
		json_kv_u64(j, "count", stack_count(cfg));
		json_kv_u64(j, "rate_pps", cfg->rxdrop_rate ?: cfg->rate);
		json_key(j, "runs");
		json_begin_array(j);
		for (k = 0; k < cfg->repeat; k++) {
			const struct stack_run *r = &sp->runs[k];

			json_begin_object(j);
			json_kv_bool(j, "ok", r->ok);
			if (!r->ok) {
				json_kv_string(j, "error", r->err);
				json_end_object(j);
				continue;
			}
			json_kv_u64(j, "packets", r->r.packets);
			json_kv_double(j, "duration_s", r->r.duration_ns / 1e9);
			json_kv_double(j, "pps", r->r.pps);
			json_kv_u64(j, "net_rx_ns", r->r.net_rx_ns);
			json_kv_double(j, "ns_per_pkt", r->r.net_rx_ns_per_pkt);
			json_kv_u64(j, "net_rx_softirqs", r->r.net_rx_softirqs);
			json_kv_s64(j, "net_rx_cpu", r->r.net_rx_cpu);
			json_kv_u64(j, "app_cpu_ns", r->r.app_cpu_ns);
			json_kv_u64(j, "app_softirq_ns", r->r.app_softirq_ns);
			json_kv_u64(j, "app_polls", r->r.rx_kicks);
			json_kv_double(j, "app_ns_per_pkt", r->r.app_ns_per_pkt);
			json_kv_s64(j, "app_cpu", r->r.app_cpu);
			json_kv_u64(j, "gen_sent", r->r.gen_sent);
			json_kv_s64(j, "gen_cpu", r->r.gen_cpu);
			json_kv_u64(j, "socket_drops", r->r.drops);
			json_kv_u64(j, "lost", stack_lost(cfg, &r->r));
			if (cfg->icount)
				json_kv_u64(j, "window", r->r.window);
			json_kv_bool(j, "disturbed", r->r.disturbed);
			json_kv_u64(j, "retries", r->retries);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

static int write_json(const char *path, const struct config *cfg,
		      struct point *pts, unsigned int npts,
		      const struct stack_point *sps, unsigned int nsps,
		      double ghz, const char *started)
{
	char drv[32] = "unknown";
	struct json j;
	unsigned int i, k;
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	json_init(&j, f, 1);
	json_begin_object(&j);
	json_kv_string(&j, "schema", SCHEMA);
	json_kv_string(&j, "tool", "xdp_sweep");
	json_kv_string(&j, "version", VERSION);
	json_kv_string(&j, "started", started);
	json_kv_bool(&j, "interrupted", cli_stop);
	json_kv_string(&j, "run_lock", cli_lock_state(cfg->lock));
	env_json(&j, ghz, cfg);
	json_key(&j, "options");
	json_begin_object(&j);
	list_json(&j, "actions", &cfg->actions, rxq_action_name);
	list_json(&j, "modes", &cfg->modes, mode_of);
	list_json(&j, "sizes", &cfg->sizes, NULL);
	list_json(&j, "flows", &cfg->flows, NULL);
	json_kv_u64(&j, "repeat", cfg->repeat);
	json_kv_double(&j, "duration_s", cfg->duration);
	json_kv_double(&j, "warmup_s", cfg->warmup);
	json_kv_u64(&j, "loop_k", cfg->loop_k);
	json_kv_u64(&j, "spin_n", cfg->spin_n);
	json_kv_string(&j, "generator", "live-frames (af_xdp-sg above the live-frames limit)");
	json_kv_string(&j, "cost", cfg->icount ?
		       "NET_RX softirq guest instructions (icount clock, tracepoints) / frames counted by the program" :
		       "NET_RX softirq ns (tracepoints) / frames counted by the program");
	json_kv_string(&j, "cost_unit", cfg->icount ? "insns" : "ns");
	if (cfg->dev[0])
		xsk_ifdriver(cfg->dev[0], drv, sizeof(drv));
	json_kv_string(&j, "driver", cfg->dev[0] ? drv : "veth");
	json_kv_u64(&j, "count", cfg->count);
	json_kv_u64(&j, "rate_pps", cfg->rate);
	json_key(&j, "devs");
	if (cfg->dev[0]) {
		json_begin_array(&j);
		json_string(&j, cfg->dev[0]);
		json_string(&j, cfg->dev[1]);
		json_end_array(&j);
	} else {
		json_null(&j);
	}
	json_kv_bool(&j, "stacks", nsps > 0);
	json_kv_bool(&j, "profile", cfg->profile);
	json_end_object(&j);

	json_key(&j, "points");
	json_begin_array(&j);
	for (i = 0; i < npts; i++) {
		struct point *p = &pts[i];
		struct summary s;

		summarize(cfg, p, &s);
		json_begin_object(&j);
		json_kv_string(&j, "action", rxq_action_name(p->action));
		json_kv_string(&j, "mode", mode_name(p->skb_mode));
		json_kv_u64(&j, "size", p->size);
		json_kv_u64(&j, "flows", p->flows);
		json_kv_u64(&j, "runs_ok", s.ok);
		json_kv_u64(&j, "runs_disturbed", s.disturbed);
		summary_json(&j, "ns_per_pkt", &s.ns, s.ok);
		json_kv_double(&j, "tsc_cycles_per_pkt",
			       s.ok ? s.ns.median * ghz : NAN);
		json_kv_double(&j, "mpps", s.ok ? s.mpps.median : NAN);
		json_kv_double(&j, "prog_ns_per_run", p->prog_ns);
		json_kv_string(&j, "gen_method", s.gen_method);
		json_kv_u64(&j, "sent", s.sent);
		json_kv_u64(&j, "counted", s.packets);
		json_kv_u64(&j, "lost", s.lost);
		json_kv_u64(&j, "lost_peer_xmit_errors", s.xmit_errors);
		json_kv_u64(&j, "lost_dut_rx_drops", s.rx_drops);
		if (p->prof)
			prof_json(&j, cfg->prof, p->prof,
				  s.ok ? s.ns.median : NAN,
				  p->prof_written ? p->folded : NULL,
				  p->prof_written ? p->svg : NULL);
		json_key(&j, "runs");
		json_begin_array(&j);
		for (k = 0; k < cfg->repeat; k++) {
			const struct run *r = &p->runs[k];

			json_begin_object(&j);
			json_kv_bool(&j, "ok", r->ok);
			if (!r->ok) {
				json_kv_string(&j, "error", r->err);
				json_end_object(&j);
				continue;
			}
			json_kv_u64(&j, "packets", r->r.packets);
			json_kv_double(&j, "duration_s", r->r.duration_ns / 1e9);
			json_kv_double(&j, "pps", r->r.pps);
			json_kv_u64(&j, "rx_cpu_ns", r->r.cpu_ns);
			json_kv_double(&j, "ns_per_pkt", r->r.ns_per_pkt);
			json_kv_s64(&j, "rx_cpu", r->r.rx_cpu);
			json_kv_u64(&j, "gen_sent", r->r.gen_sent);
			json_kv_u64(&j, "lost", r->r.lost);
			json_kv_double(&j, "foreign_frac", r->r.foreign_frac);
			json_kv_u64(&j, "net_rx_softirqs", r->r.net_rx_softirqs);
			json_kv_u64(&j, "foreign_net_rx_ns", r->r.foreign_net_rx_ns);
			if (cfg->icount)
				json_kv_u64(&j, "window", r->r.window);
			json_kv_bool(&j, "disturbed", r->r.disturbed);
			json_kv_u64(&j, "retries", r->retries);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_array(&j);
	if (nsps)
		stacks_json(&j, cfg, sps, nsps, ghz);
	json_end_object(&j);
	i = json_finish(&j);
	fclose(f);
	return i;
}

static void print_stacks(const struct config *cfg,
			 const struct stack_point *sps, unsigned int nsps,
			 double ghz)
{
	unsigned int i;

	for (i = 0; i < nsps; i++) {
		const struct stack_point *sp = &sps[i];
		struct stack_summary s;
		char ci[32] = "-", mci[32] = "";

		summarize_stack(cfg, sp, &s);
		if (!s.ok) {
			printf("%-12s %-7s %5u %5s  failed: %s\n", sp->label,
			       sp->mode ?: "-", sp->size, "-", sp->runs[0].err);
			continue;
		}
		if (s.ns.ci_method != STATS_CI_NONE)
			snprintf(ci, sizeof(ci), "[%.1f, %.1f]", s.ns.ci_lo,
				 s.ns.ci_hi);
		if (s.mpps.ci_method != STATS_CI_NONE)
			snprintf(mci, sizeof(mci), " [%.3f, %.3f]",
				 s.mpps.ci_lo, s.mpps.ci_hi);
		printf("%-12s %-7s %5u %5s %8.3f %8.1f %19s %8.1f %9llu  Mpps CI%s, app %.1f ns/pkt%s\n",
		       sp->label, sp->mode ?: "-", sp->size, "-",
		       s.mpps.median, s.ns.median, ci, s.ns.median * ghz,
		       (unsigned long long)s.lost,
		       mci, s.app_ns.median,
		       s.disturbed ? " (disturbed runs)" : "");
	}
}

static void print_stacks_note(void)
{
	printf("\nreceive stacks: rxdrop on the same veth traffic (live-frames generator on\n"
	       "CPU 0, receiver on the other CPU; xdpsock's loops, lib/xsk_bench); Mpps\n"
	       "counted by the receiving application, ns/pkt its NET_RX softirq time per\n"
	       "frame (all CPUs), app the receiving thread's time (it busy-polls); lost\n"
	       "is what the socket dropped (XDP_STATISTICS rx_dropped, PACKET_STATISTICS\n"
	       "tp_drops) in the windows; a run whose receiving thread was on a CPU for\n"
	       "less than half its window is disturbed and redone (twice at most)\n");
}

static void print_failed(const struct point *p)
{
	printf("%-12s %-7s %5u %5u  failed: %s\n", rxq_action_name(p->action),
	       mode_name(p->skb_mode), p->size, p->flows, p->runs[0].err);
}

/*
 * Under QEMU's -icount shift=0 the guest's ns are its instructions: the
 * median and the runs' relative spread ((max - min) / median) in insns
 */
static void print_stacks_icount(const struct config *cfg,
				const struct stack_point *sps,
				unsigned int nsps)
{
	unsigned int i, k;

	if (!nsps)
		return;
	printf("\n%-20s %-20s %5s %12s %10s %5s %9s %12s\n", "rxdrop",
	       "mode", "size", "insns/pkt", "spread", "runs", "lost",
	       "app insns");
	for (i = 0; i < nsps; i++) {
		const struct stack_point *sp = &sps[i];
		double lo = INFINITY, hi = -INFINITY;
		struct stack_summary s;

		summarize_stack(cfg, sp, &s);
		if (!s.ok) {
			printf("%-20s %-20s %5u  failed: %s\n", sp->label,
			       sp->mode ?: "-", sp->size, sp->runs[0].err);
			continue;
		}
		for (k = 0; k < cfg->repeat; k++) {
			if (!sp->runs[k].ok)
				continue;
			lo = fmin(lo, sp->runs[k].r.net_rx_ns_per_pkt);
			hi = fmax(hi, sp->runs[k].r.net_rx_ns_per_pkt);
		}
		printf("%-20s %-20s %5u %12.2f %9.4f%% %5u %9llu %12.2f%s\n",
		       sp->label, sp->mode ?: "-", sp->size, s.ns.median,
		       100 * (hi - lo) / s.ns.median, s.ok,
		       (unsigned long long)s.lost, s.app_ns.median,
		       s.lost ? " LOST" : "");
	}
	printf("\nrxdrop: AF_XDP rxdrop (xdpsock's loop), counted at the application%s;\n"
	       "insns/pkt its NET_RX softirq instructions per frame, app insns the receiving\n"
	       "thread's (schedstat: its own work, its poll() calls, and any softirq that\n"
	       "ran on its time), median of the runs\n",
	       stack_count(cfg) ? ", which waits in poll()" : "");
}

static void print_table_icount(const struct config *cfg, struct point *pts,
			       unsigned int npts, const struct stack_point *sps,
			       unsigned int nsps)
{
	unsigned int i, k;

	printf("\n%-12s %-7s %5s %5s %12s %10s %9s %9s\n", "path", "mode",
	       "size", "flows", "insns/pkt", "spread", "runs", "lost");
	for (i = 0; i < npts; i++) {
		double lo = INFINITY, hi = -INFINITY;
		struct summary s;

		summarize(cfg, &pts[i], &s);
		if (!s.ok) {
			print_failed(&pts[i]);
			continue;
		}
		for (k = 0; k < cfg->repeat; k++) {
			const struct run *r = &pts[i].runs[k];

			if (!r->ok)
				continue;
			lo = fmin(lo, r->r.ns_per_pkt);
			hi = fmax(hi, r->r.ns_per_pkt);
		}
		printf("%-12s %-7s %5u %5u %12.2f %9.4f%% %9u %9llu%s\n",
		       rxq_action_name(pts[i].action),
		       mode_name(pts[i].skb_mode), pts[i].size, pts[i].flows,
		       s.ns.median, 100 * (hi - lo) / s.ns.median, s.ok,
		       (unsigned long long)s.lost, s.lost ? " LOST" : "");
	}
	printf("\ninsns/pkt: guest instructions (icount) of the NET_RX softirq per frame counted,\n"
	       "median of the runs; spread: (max - min) / median of the runs; lost: sent but\n"
	       "not counted (counted runs) or dropped before the program\n");
	print_stacks_icount(cfg, sps, nsps);
}

static void print_table(const struct config *cfg, struct point *pts,
			unsigned int npts, const struct stack_point *sps,
			unsigned int nsps, double ghz)
{
	unsigned int i;

	if (cfg->icount) {
		print_table_icount(cfg, pts, npts, sps, nsps);
		return;
	}
	printf("\n%-12s %-7s %5s %5s %8s %8s %19s %8s %9s\n", "path", "mode",
	       "size", "flows", "Mpps", "ns/pkt", "95% CI", "cycles", "lost");
	for (i = 0; i < npts; i++) {
		struct summary s;
		char ci[32] = "-";

		summarize(cfg, &pts[i], &s);
		if (!s.ok) {
			print_failed(&pts[i]);
			continue;
		}
		if (s.ns.ci_method != STATS_CI_NONE)
			snprintf(ci, sizeof(ci), "[%.1f, %.1f]", s.ns.ci_lo,
				 s.ns.ci_hi);
		printf("%-12s %-7s %5u %5u %8.3f %8.1f %19s %8.1f %9llu%s%s\n",
		       rxq_action_name(pts[i].action),
		       mode_name(pts[i].skb_mode), pts[i].size, pts[i].flows,
		       s.mpps.median, s.ns.median, ci, s.ns.median * ghz,
		       (unsigned long long)s.lost,
		       s.lost ? (s.xmit_errors ? " peer-xmit" : " dut") : "",
		       s.disturbed ? " (disturbed runs)" : "");
	}
	print_stacks(cfg, sps, nsps, ghz);
	if (nsps)
		print_stacks_note();
	if (!npts) {
		printf("cycles are TSC cycles at %.3f GHz; 95%% CI of the median (bootstrap below 6 runs)\n",
		       ghz);
		return;
	}
	printf("\ncycles are TSC cycles at %.3f GHz; ns/pkt is NET_RX softirq time per frame counted\n"
	       "(XDP_TX and XDP_REDIRECT include the peer's XDP_DROP of what comes back); 95%% CI\n"
	       "of the median (bootstrap below 6 runs); lost = frames the kernel dropped before\n"
	       "the program in the windows: peer-xmit (the dut's ring was full) or dut (rx drops)\n",
	       ghz);
}

/*
 * The plot: one panel per frame size, in each a group of bars per action,
 * one bar per mode (native, generic), the median with its 95% CI as a
 * whisker.  Each panel has its own linear y axis, so that 64-byte and
 * 9000-byte costs are both readable.  Labels are literal (noenhanced:
 * gnuplot's enhanced text would turn XDP_DROP into XDP with a subscript).
 */
static void plot(const char *base, const struct config *cfg, struct point *pts,
		 unsigned int npts)
{
	char dat[512], gp[512], png[512], cmd[1200];
	unsigned int i, a, m, z;
	const char *name;
	FILE *f;

	snprintf(dat, sizeof(dat), "%.400s.dat", base);
	snprintf(gp, sizeof(gp), "%.400s.gp", base);
	snprintf(png, sizeof(png), "%.400s.png", base);
	f = fopen(dat, "we");
	if (!f)
		return;
	/* One block per size, a row per action: median, CI low, high per mode */
	for (z = 0; z < cfg->sizes.n; z++) {
		fprintf(f, "# %u bytes, flows %u\n", cfg->sizes.v[z],
			cfg->flows.v[0]);
		for (a = 0; a < cfg->actions.n; a++) {
			name = rxq_action_name(cfg->actions.v[a]);
			/* the x label says XDP_: DROP, TX, ... fit the ticks */
			if (!strncmp(name, "XDP_", 4))
				name += 4;
			fprintf(f, "%s", name);
			for (m = 0; m < cfg->modes.n; m++) {
				struct summary s = {};

				for (i = 0; i < npts; i++)
					if (pts[i].action == cfg->actions.v[a] &&
					    pts[i].skb_mode == cfg->modes.v[m] &&
					    pts[i].size == cfg->sizes.v[z] &&
					    pts[i].flows == cfg->flows.v[0])
						summarize(cfg, &pts[i], &s);
				if (!s.ok)
					fprintf(f, " NaN NaN NaN");
				else if (s.ns.ci_method)
					fprintf(f, " %.3f %.3f %.3f", s.ns.median,
						s.ns.ci_lo, s.ns.ci_hi);
				else
					fprintf(f, " %.3f %.3f %.3f", s.ns.median,
						s.ns.median, s.ns.median);
			}
			fprintf(f, "\n");
		}
		fprintf(f, "\n\n");
	}
	fclose(f);
	f = fopen(gp, "we");
	if (!f)
		return;
	fprintf(f, "set terminal png size %u,600 noenhanced\nset output '%s'\n",
		cfg->sizes.n > 1 ? 500 * cfg->sizes.n : 700, png);
	fprintf(f, "set multiplot layout 1,%u title 'XDP receive path cost per frame, NET_RX softirq ns (median, whisker: 95%% CI), %u flow(s)'\n",
		cfg->sizes.n, cfg->flows.v[0]);
	fprintf(f, "set style data histogram\nset style histogram errorbars gap 1 lw 1\n");
	fprintf(f, "set style fill solid 0.7 border -1\nset boxwidth 0.9\n");
	fprintf(f, "set grid ytics\nset yrange [0:*]\nset offsets 0, 0, graph 0.15, 0\n");
	fprintf(f, "set xtics scale 0 font ',10'\nset xrange [-0.6:%u.4]\n",
		cfg->actions.n - 1);
	fprintf(f, "set key top left\nset xlabel 'XDP action'\nset ylabel 'ns per frame'\n");
	for (z = 0; z < cfg->sizes.n; z++) {
		fprintf(f, "set title '%u-byte frames'\nplot ", cfg->sizes.v[z]);
		for (m = 0; m < cfg->modes.n; m++)
			fprintf(f, "%s'%s' index %u using %u:%u:%u%s title '%s'",
				m ? ", " : "", dat, z, 2 + 3 * m, 3 + 3 * m,
				4 + 3 * m, m ? "" : ":xtic(1)",
				mode_name(cfg->modes.v[m]));
		fprintf(f, "\nunset key\n");
	}
	fprintf(f, "unset multiplot\n");
	fclose(f);
	snprintf(cmd, sizeof(cmd), "gnuplot '%s' 2>&1", gp);
	if (system(cmd))
		fprintf(stderr, "xdp_sweep: gnuplot failed; the data is in %s\n",
			dat);
	else
		printf("plot: %s\n", png);
}

static bool same_list(const struct opts_list *a, const struct opts_list *b)
{
	return a->n == b->n && !memcmp(a->v, b->v, a->n * sizeof(a->v[0]));
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
	b->loop_k = a->b_loop_k;
	b->spin_n = a->b_spin_n;
	b->pre_cmd = a->cmd[1];
	if (!a->b_opts)
		return 0;
	dup = strdup(a->b_opts);
	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, " \t", &save); tok && argc < 63;
	     tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = tok;
	ret = parse_args(argc, argv, b);
	if (!ret && (!same_list(&a->actions, &b->actions) ||
		     !same_list(&a->modes, &b->modes) ||
		     !same_list(&a->sizes, &b->sizes) ||
		     !same_list(&a->flows, &b->flows) ||
		     a->repeat != b->repeat || b->ab != a->ab ||
		     b->b_opts != a->b_opts || b->out_dir != a->out_dir)) {
		fprintf(stderr, "xdp_sweep: --b-opts '%s': B may not change the matrix, the repeats, the output or the A/B options\n",
			a->b_opts);
		ret = -EINVAL;
	}
	free(dup);
	return ret;
}

/* xdp_compare, from beside this program, on the two results */
static int report_ab(const char *a, const char *b, double level)
{
	char exe[512], tool[600], lvl[32];
	ssize_t n;
	pid_t pid;
	int st;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -errno;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(tool, sizeof(tool), "%s/xdp_compare", exe);
	snprintf(lvl, sizeof(lvl), "%g", level);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		/* B differs from A on purpose (loop_k): --force, listed */
		execl(tool, tool, "--force", "--level", lvl, a, b, (char *)NULL);
		fprintf(stderr, "xdp_sweep: %s: %s\n", tool, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
}

static void progress(const struct config *cfg, const struct point *p,
		     const struct run *run, unsigned int done, unsigned int all,
		     __u64 t0, unsigned int rep, int side)
{
	fprintf(stderr, "\r[%3u/%3u] %5.0f s  round %u/%u %s %-12s %-7s %5u B %4u fl: %s",
		done, all, (mono_ns() - t0) / 1e9, rep + 1, cfg->repeat,
		cfg->ab ? (side ? "B" : "A") : "", rxq_action_name(p->action),
		mode_name(p->skb_mode), p->size, p->flows,
		run->ok ? "ok        " : "FAILED    ");
	if (!run->ok)
		fprintf(stderr, "\n  %s\n", run->err);
}

/*
 * A device pair serves one point at a time: set a point up, run all its
 * repeats, take it down, and on to the next.  Nothing drifts under an
 * instruction-counting clock, which is what this is for.
 */
static void sweep_serial(const struct config *cfg, struct point *pts,
			 unsigned int npts, __u64 t0)
{
	unsigned int i, rep, done = 0;

	for (i = 0; i < npts && !cli_stop; i++) {
		struct point *p = &pts[i];

		fprintf(stderr, "\r[setup %3u/%3u] %-12s %-7s %5u B %4u fl on %s,%s",
			i + 1, npts, rxq_action_name(p->action),
			mode_name(p->skb_mode), p->size, p->flows, cfg->dev[0],
			cfg->dev[1]);
		if (open_point(cfg, p))
			fprintf(stderr, "\n  %s\n", p->err);
		for (rep = 0; rep < cfg->repeat && !cli_stop; rep++) {
			struct run *run = &p->runs[rep];

			do {
				run->ok = !measure(cfg, p, run);
			} while (run->ok && run->r.disturbed &&
				 run->retries++ < MAX_RETRIES);
			progress(cfg, p, run, ++done, npts * cfg->repeat, t0,
				 rep, 0);
		}
		rxq_bench_close(p->bench);
		p->bench = NULL;
	}
	fprintf(stderr, "\n");
}

/* One run of a stack point, redone when disturbed, with its progress */
static void stack_round(const struct config *cfg, struct stack_point *sp,
			unsigned int rep, unsigned int done, unsigned int all,
			__u64 t0)
{
	struct stack_run *run = &sp->runs[rep];

	do {
		run->ok = !measure_stack(cfg, sp, run);
	} while (run->ok && run->r.disturbed && run->retries++ < MAX_RETRIES);
	fprintf(stderr, "\r[%3u/%3u] %5.0f s  round %u/%u  %-12s %-7s %5u B rxdrop : %s",
		done, all, (mono_ns() - t0) / 1e9, rep + 1, cfg->repeat,
		sp->label, sp->mode ?: "-", sp->size,
		run->ok ? "ok        " : "FAILED    ");
	if (!run->ok)
		fprintf(stderr, "\n  %s\n", run->err);
}

/* --rxdrop on a device pair: as sweep_serial(), one point after the other */
static void stacks_serial(const struct config *cfg, struct stack_point *sps,
			  unsigned int nsps, unsigned int done, __u64 t0)
{
	unsigned int i, rep, all = done + nsps * cfg->repeat;

	for (i = 0; i < nsps && !cli_stop; i++) {
		fprintf(stderr, "\r[setup %3u/%3u] %-12s %-7s %5u B rxdrop on %s,%s",
			i + 1, nsps, sps[i].label, sps[i].mode ?: "-",
			sps[i].size, cfg->dev[0], cfg->dev[1]);
		if (open_stack(cfg, &sps[i]))
			fprintf(stderr, "\n  %s\n", sps[i].err);
		for (rep = 0; rep < cfg->repeat && !cli_stop; rep++)
			stack_round(cfg, &sps[i], rep, ++done, all, t0);
		xskb_close(sps[i].bench);
		sps[i].bench = NULL;
	}
	fprintf(stderr, "\n");
}

/* --profile: each point's folded stacks and flame graph, beside the JSON */
static void write_profiles(const char *base, const char *side,
			   const struct config *cfg, struct point *pts,
			   unsigned int npts)
{
	char prefix[600], title[300], err[XSK_ERRLEN];
	struct prof_counts c;
	unsigned int i;

	for (i = 0; i < npts; i++) {
		struct point *p = &pts[i];

		if (!p->prof)
			continue;
		prof_data_counts(p->prof, &c);
		snprintf(prefix, sizeof(prefix), "%.400s%s-profile-%s-%s-%uB-%ufl",
			 base, side, rxq_action_name(p->action),
			 mode_name(p->skb_mode), p->size, p->flows);
		snprintf(title, sizeof(title), "xdp_sweep %s %s %u B %u flow%s: CPU %d, %s at %u Hz, %llu measured window%s",
			 rxq_action_name(p->action), mode_name(p->skb_mode),
			 p->size, p->flows, p->flows == 1 ? "" : "s", c.cpu,
			 prof_event(cfg->prof), prof_freq(cfg->prof),
			 (unsigned long long)c.windows,
			 c.windows == 1 ? "" : "s");
		if (prof_write_files(p->prof, prefix, title, p->folded,
				     p->svg, sizeof(p->folded), err))
			fprintf(stderr, "xdp_sweep: --profile: %s\n", err);
		else
			p->prof_written = true;
	}
}

static void print_profiles(const struct config *cfg, struct point *pts,
			   unsigned int npts)
{
	unsigned int i;

	for (i = 0; i < npts; i++) {
		struct point *p = &pts[i];
		struct summary s;

		if (!p->prof)
			continue;
		summarize(cfg, p, &s);
		printf("\nprofile %s %s %u B %u flow%s (ns/pkt median %.1f): ",
		       rxq_action_name(p->action), mode_name(p->skb_mode),
		       p->size, p->flows, p->flows == 1 ? "" : "s",
		       s.ok ? s.ns.median : NAN);
		prof_print(stdout, cfg->prof, p->prof,
			   s.ok ? s.ns.median : NAN, "  ");
		if (p->prof_written)
			printf("  folded stacks %s\n  flame graph   %s\n",
			       p->folded, p->svg);
	}
}

int main(int argc, char **argv)
{
	static const __u32 def_actions[] = { XDP_DROP, XDP_TX, XDP_PASS,
					     XDP_REDIRECT };
	static const __u32 def_modes[] = { 0, 1 };
	static const __u32 def_sizes[] = { 64, 1500, 9000 };
	static const __u32 def_flows[] = { 1 };
	struct config cfg = {
		.repeat = 5,
		.duration = 1,
		.warmup = 0.2,
		.out_dir = "results",
		.level = 95,
	};
	unsigned int npts, i, a, m, z, fl, rep, sd, k, nsides, done = 0;
	unsigned int nsps = 0, total;
	struct stack_point *sps = NULL;
	char stamp[32], base[400], path[2][512], started[32];
	struct point *pts[2] = {};
	struct config side[2];
	struct cli_lock lock;
	const char *warn;
	int ret = 0;
	__u64 t0;
	double ghz;
	time_t now;

	set_list(&cfg.actions, def_actions, 4);
	set_list(&cfg.modes, def_modes, 2);
	set_list(&cfg.sizes, def_sizes, 3);
	set_list(&cfg.flows, def_flows, 1);
	if (parse_args(argc, argv, &cfg))
		return 2;
	if (cfg.stacks) {
		if (!cfg.sizes_given)
			set_list(&cfg.sizes, def_sizes, 1);
		for (k = 0; k < NR_COMPARED; k++)
			cfg.stk[k] = k;
		cfg.nstk = NR_COMPARED;
		/* Alone, the comparison; with -a, the matrix as well */
		if (!cfg.actions_given)
			cfg.actions.n = 0;
	}
	/*
	 * B's options too, before anything is set up or waited for; cfg is
	 * final from here on, since B starts as a copy of it
	 */
	cfg.lock = &lock;
	if (cfg.ab && side_b(&cfg, &side[1]))
		return 2;
	if (geteuid()) {
		fprintf(stderr, "xdp_sweep: needs root (XDP, BPF, network namespaces)\n");
		return 1;
	}
	if (mkdir(cfg.out_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "xdp_sweep: --out %s: %s\n", cfg.out_dir,
			strerror(errno));
		return 1;
	}
	if (cli_check_out_dir("xdp_sweep", "--out", cfg.out_dir))
		return 1;
	cli_stop_on_signals();
	if (cli_lock_take(&lock, "xdp_sweep", cfg.allow_concurrent))
		return cli_exit_status(1);
	ghz = tsc_ghz_measure(200);
	now = time(NULL);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	snprintf(base, sizeof(base), "%.300s/sweep-%s", cfg.out_dir, stamp);

	if (cfg.nstk) {
		/* parse_args() saw to a size up to 1514 */
		for (z = 0; z < cfg.sizes.n; z++)
			nsps += cfg.sizes.v[z] <= 1514 ? cfg.nstk : 0;
		sps = calloc(nsps, sizeof(*sps));
		if (!sps)
			return 1;
		i = 0;
		for (z = 0; z < cfg.sizes.n; z++) {
			if (cfg.sizes.v[z] > 1514)
				continue;
			for (k = 0; k < cfg.nstk; k++, i++) {
				sps[i].def = cfg.stk[k];
				sps[i].stack = stack_defs[sps[i].def].stack;
				sps[i].mode = stack_defs[sps[i].def].mode;
				sps[i].label = stack_defs[sps[i].def].label;
				sps[i].size = cfg.sizes.v[z];
			}
		}
	}
	npts = cfg.actions.n * cfg.modes.n * cfg.sizes.n * cfg.flows.n;
	nsides = cfg.ab ? 2 : 1;
	side[0] = cfg;
	side[0].pre_cmd = cfg.cmd[0];
	for (sd = 0; sd < nsides; sd++) {
		pts[sd] = calloc(npts, sizeof(*pts[sd]));
		if (!pts[sd])
			return 1;
		i = 0;
		for (a = 0; a < cfg.actions.n; a++)
			for (m = 0; m < cfg.modes.n; m++)
				for (z = 0; z < cfg.sizes.n; z++)
					for (fl = 0; fl < cfg.flows.n; fl++, i++) {
						struct point *p = &pts[sd][i];

						p->action = cfg.actions.v[a];
						p->skb_mode = cfg.modes.v[m];
						p->size = cfg.sizes.v[z];
						p->flows = cfg.flows.v[fl];
						p->prog_ns = -1;
					}
	}
	/* --profile: each point gathers its windows' samples */
	for (sd = 0; sd < nsides && cfg.profile; sd++) {
		for (i = 0; i < npts; i++) {
			pts[sd][i].prof = prof_data_new();
			if (!pts[sd][i].prof)
				return 1;
		}
	}

	/* before any program loads: each must get its kallsyms name */
	if (side[0].profile) {
		char err[XSK_ERRLEN];
		double window = cfg.count ? 10 : cfg.duration + 0.5;

		if (cfg.ab)
			window = fmax(window, side[1].duration + 0.5);
		if (prof_open(&side[0].prof, window, err)) {
			fprintf(stderr, "xdp_sweep: --profile: %s\n", err);
			cli_lock_release(&lock);
			return cli_exit_status(1);
		}
		side[1].prof = side[0].prof;
		cfg.prof = side[0].prof;
	}
	total = (npts * nsides + nsps) * cfg.repeat;
	if (cfg.count)
		fprintf(stderr, "xdp_sweep: %u points x %u runs of %llu frames (%s warm-up run) on %s%s%s; %s; NAPI %s\n",
			npts + nsps, cfg.repeat, (unsigned long long)cfg.count,
			cfg.warmup > 0 ? "+ a" : "no",
			cfg.dev[0] ?: "veth", cfg.dev[0] ? "," : "",
			cfg.dev[0] ? cfg.dev[1] : "",
			cfg.icount ? "guest instructions (icount)" : "ns",
			cfg.threaded ? "threaded" : "default");
	else
		fprintf(stderr, "xdp_sweep: %u points%s x %u runs of %.1f s (+%.1f s warm-up)%s; TSC %.3f GHz; NAPI %s\n",
			npts + nsps, nsps ? " (with receive stacks)" : "", cfg.repeat, cfg.duration, cfg.warmup,
			cfg.ab ? ", A and B interleaved" : "", ghz,
			cfg.threaded ? "threaded" : "default");
	t0 = mono_ns();
	if (cfg.dev[0]) {
		sweep_serial(&cfg, pts[0], npts, t0);
		stacks_serial(&cfg, sps, nsps, npts * cfg.repeat, t0);
		goto report;
	}
	/* Every point's pair and program stay set up for the whole sweep */
	for (i = 0; i < npts && !cli_stop; i++) {
		for (sd = 0; sd < nsides; sd++) {
			struct point *p = &pts[sd][i];

			fprintf(stderr, "\r[setup %3u/%3u] %-12s %-7s %5u B %4u fl",
				i + 1, npts, rxq_action_name(p->action),
				mode_name(p->skb_mode), p->size, p->flows);
			if (open_point(&side[sd], p))
				fprintf(stderr, "\n  %s\n", p->err);
		}
	}
	for (i = 0; i < nsps && !cli_stop; i++) {
		fprintf(stderr, "\r[setup %3u/%3u] %-12s %-7s %5u B        ",
			i + 1, nsps, sps[i].label, sps[i].mode ?: "-",
			sps[i].size);
		if (open_stack(&cfg, &sps[i]))
			fprintf(stderr, "\n  %s\n", sps[i].err);
	}
	fprintf(stderr, "\n");
	/*
	 * Interleaved: every point once per round; A/B as ABBA ABBA..., so
	 * that neither side always runs first (an order effect would
	 * otherwise look like a difference)
	 */
	for (rep = 0; rep < cfg.repeat && !cli_stop; rep++) {
		for (i = 0; i < npts && !cli_stop; i++) {
			for (k = 0; k < nsides && !cli_stop; k++) {
				struct point *p;
				struct run *run;

				sd = nsides == 2 ? k ^ (rep & 1) : 0;
				p = &pts[sd][i];
				run = &p->runs[rep];

				do {
					run->ok = !measure(&side[sd], p, run);
				} while (run->ok && run->r.disturbed &&
					 run->retries++ < MAX_RETRIES);
				progress(&cfg, p, run, ++done, total, t0, rep,
					 sd);
			}
		}
		for (i = 0; i < nsps && !cli_stop; i++)
			stack_round(&cfg, &sps[i], rep, ++done, total, t0);
	}
	fprintf(stderr, "\n");
	for (i = 0; i < nsps; i++)
		xskb_close(sps[i].bench);
	for (sd = 0; sd < nsides; sd++)
		for (i = 0; i < npts; i++)
			rxq_bench_close(pts[sd][i].bench);
report:
	if (cli_stop)
		fprintf(stderr, "xdp_sweep: interrupted; the result holds the runs done\n");
	warn = cli_lock_warning(&lock);
	if (warn)
		printf("WARNING: %s\n", warn);

	for (sd = 0; sd < nsides && cfg.profile; sd++)
		write_profiles(base, cfg.ab ? (sd ? "-b" : "-a") : "", &side[sd],
			       pts[sd], npts);
	for (sd = 0; sd < nsides; sd++) {
		if (cfg.ab)
			printf("\n%s: loop_k %u, spin_n %u%s%s\n", sd ? "B" : "A",
			       side[sd].loop_k, side[sd].spin_n,
			       side[sd].pre_cmd ? ", before each run: " : "",
			       side[sd].pre_cmd ? side[sd].pre_cmd : "");
		print_table(&side[sd], pts[sd], npts, sps, sd ? 0 : nsps, ghz);
		if (cfg.profile)
			print_profiles(&side[sd], pts[sd], npts);
		snprintf(path[sd], sizeof(path[sd]), "%s%s.json", base,
			 cfg.ab ? (sd ? "-b" : "-a") : "");
		if (write_json(path[sd], &side[sd], pts[sd], npts, sps, nsps,
			       ghz, started)) {
			fprintf(stderr, "xdp_sweep: writing %s: %s\n",
				path[sd], strerror(errno));
			ret = 1;
			goto out;
		}
	}
	if (!cfg.no_plot && !cfg.ab && npts)
		plot(base, &cfg, pts[0], npts);
	if (cfg.ab) {
		printf("\n");
		fflush(stdout);
		if (report_ab(path[0], path[1], cfg.level))
			ret = 1;
		printf("\n%s\n", path[0]);
	}
	printf("%s\n", path[cfg.ab]);
out:
	for (sd = 0; sd < nsides; sd++) {
		for (i = 0; i < npts; i++)
			prof_data_free(pts[sd][i].prof);
		free(pts[sd]);
	}
	prof_close(cfg.prof);
	free(sps);
	cli_lock_release(&lock);
	return cli_exit_status(ret);
}

