// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_rxq_info - apply one XDP action and print its rate and its cost per
 * packet, per CPU and per RX queue, in the manner of the kernel's old
 * sample of that name.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_link.h>

#include "json.h"
#include "cli.h"
#include "esc.h"
#include "opts.h"
#include "flamegraph.h"
#include "measure.h"
#include "profile.h"
#include "rxq_bench.h"
#include "xsk_core.h"
#include "xsk_env.h"
#include "xsk_pkt.h"

#define VERSION "0.1"

struct config {
	struct rxq_opts o;
	double interval;
	double duration;
	double warmup;
	bool json;
	bool no_prog_cost;
	bool allow_concurrent;
	bool features;		/* --features: say what -i's driver can do */
	const char *profile;	/* --profile: the files' path prefix */
	struct cli_lock lock;
};

static double tsc_ghz;

#define RXQ_ROW(t, n, l, f, a, h)	OPTS_ROW(t, n, l, struct config, f, a, h)
#define RXQ_FLAG(n, l, f, h)		{ RXQ_ROW(OPT_FLAG, n, l, f, NULL, h) }
#define ABOUT \
	"Apply one XDP action to every frame; print rates per CPU and RX queue and\n" \
	"the receive path's CPU cost per packet.\n\n"
#define NOTES \
	"\nCost: CPU time of NET_RX softirqs (irq:softirq_entry/exit tracepoints) or of\n" \
	"the NAPI thread, divided by the frames the program counted.  Cycles are TSC\n" \
	"cycles (ns x the TSC frequency measured against CLOCK_MONOTONIC_RAW).\n" \
	"SIGINT or SIGTERM ends the run early: what was measured is reported, marked\n" \
	"interrupted, and the exit status is 128 + the signal.\n" \
	"Changed: -s (was --interval) and -r, -m (were --readmem, --swapmac) are\n" \
	"gone; -s is the frame size, -r the runs, -m the XDP modes in the other tools.\n"

static const struct opt rows[] = {
	OPTS_HEADING("Program:"),
	{ RXQ_ROW(OPT_ENUM, "action", 'a', o.action, "ACTION",
		  "XDP_DROP, XDP_TX, XDP_PASS, XDP_REDIRECT, XDP_ABORTED (the XDP_ prefix may be left out)"),
	  .parse = xdp_action_parse, .def = "XDP_DROP",
	  .values = "XDP_DROP, XDP_TX, XDP_PASS, XDP_REDIRECT, XDP_ABORTED" },
	RXQ_FLAG("skb-mode", 'S', o.skb_mode, "generic XDP (default: native)"),
	RXQ_FLAG("readmem", 0, o.readmem, "read the Ethernet header of every frame"),
	RXQ_FLAG("swapmac", 0, o.swapmac, "swap MAC addresses (always done for XDP_TX)"),
	RXQ_FLAG("frags", 'F', o.frags,
		 "load the xdp.frags program (needed above ~3.5 KB MTU)"),
	OPTS_LOOP(struct config, o.loop_k,
		  "add K bpf_loop() iterations per frame (injected cost)"),
	OPTS_HEADING("Where:"),
	OPTS_INTERFACE(struct config, o.ifname,
		       "attach on IF and measure what arrives (default: own veth pair in private namespaces, with a generator)"),
	{ RXQ_ROW(OPT_IFNAME, "redirect-to", 0, o.redirect_to, "IF",
		  "XDP_REDIRECT target with -i") },
	RXQ_FLAG("features", 0, features,
		 "print what the driver of -i says it can do with XDP (its xdp_features, netdev netlink) and exit: a line, or with --json an object"),
	OPTS_HEADING("Traffic on the own veth pair (live-frames generator on the peer):"),
	OPTS_SIZE_LETTER(struct config, o.pkt_size, 0),
	OPTS_FLOWS(struct config, o.flows),
	OPTS_RATE(struct config, o.rate_pps, "target rate"),
	OPTS_COUNT(struct config, o.count, "send exactly N frames and report on them"),
	OPTS_MTU(struct config, o.mtu, "veth MTU", "1500, or 9000 above 1514 bytes"),
	RXQ_FLAG("threaded", 0, o.threaded_napi,
		 "threaded NAPI, kthread pinned to the other CPU (every frame crosses CPUs: a different path)"),
	{ RXQ_ROW(OPT_CPU, "gen-cpu", 0, o.gen_cpu, "N",
		  "generator's CPU; NET_RX runs there") },
	OPTS_HEADING("Output:"),
	{ RXQ_ROW(OPT_DOUBLE, "interval", 0, interval, "SEC", "print every SEC seconds"),
	  .dmin = 0.1, .dmax = 3600 },
	OPTS_DURATION(struct config, duration, "measure for SEC seconds"),
	OPTS_WARMUP(struct config, warmup, "traffic before measuring"),
	RXQ_FLAG("no-prog-cost", 0, no_prog_cost,
		 "skip the BPF_PROG_RUN measurement of the program"),
	RXQ_FLAG("no-cost", 0, o.no_cost,
		 "rates only: no softirq tracepoints (they cost every softirq on the machine two clock reads)"),
	OPTS_ALLOW_CONCURRENT(struct config, allow_concurrent),
	OPTS_PROFILE(struct config, profile, "xdp_rxq_info-profile"),
	OPTS_JSON(struct config, json, "one JSON object at the end, nothing else"),
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL("xdp_rxq_info", "[OPTIONS]", rows, struct config,
		  .about = ABOUT, .notes = NOTES);

static int parse_args(int argc, char **argv, struct config *cfg)
{
	opts_given_t given;

	if (opts_parse(&tool, argc, argv, cfg, &given) < 0)
		return -EINVAL;
	if (cfg->o.ifname && (cfg->o.pkt_size || cfg->o.flows ||
			      cfg->o.rate_pps || cfg->o.count || cfg->o.mtu ||
			      cfg->o.threaded_napi)) {
		fprintf(stderr, "xdp_rxq_info: --size, --flows, --rate, --count, --mtu and --threaded apply to the own veth pair, not to -i\n");
		return -EINVAL;
	}
	if (cli_size_fits_mtu("xdp_rxq_info", cfg->o.pkt_size, cfg->o.mtu))
		return -EINVAL;
	if (cfg->o.count && opts_given(&tool, given, "duration")) {
		fprintf(stderr, "xdp_rxq_info: --duration: a counted run (--count) lasts as long as its frames take\n");
		return -EINVAL;
	}
	if (opts_given(&tool, given, "interval") && cfg->interval > cfg->duration) {
		fprintf(stderr, "xdp_rxq_info: --interval %g is longer than --duration %g: nothing would be printed before the end\n",
			cfg->interval, cfg->duration);
		return -EINVAL;
	}
	if (cfg->features && !cfg->o.ifname) {
		fprintf(stderr, "xdp_rxq_info: --features needs -i (the interface to ask)\n");
		return -EINVAL;
	}
	if (cfg->o.redirect_to && !cfg->o.ifname) {
		fprintf(stderr, "xdp_rxq_info: --redirect-to needs -i (the own pair redirects to its second veth)\n");
		return -EINVAL;
	}
	return 0;
}

static void tick(const struct rxq_snapshot *a, const struct rxq_snapshot *b,
		 void *ctx)
{
	double secs = (b->t_ns - a->t_ns) / 1e9;
	int cpu, q;

	(void)ctx;
	printf("%-10s %-8s %14s %12s %16s\n", "", "CPU", "pps", "ns/pkt",
	       "TSC cycles/pkt");
	for (cpu = 0; cpu < RXQ_MAX_CPUS; cpu++) {
		__u64 p = b->cpu_packets[cpu] - a->cpu_packets[cpu];
		__u64 ns = b->net_rx_ns[cpu] - a->net_rx_ns[cpu] -
			   (b->net_rx_foreign_ns[cpu] - a->net_rx_foreign_ns[cpu]);

		if (!p && !ns)
			continue;
		if (p)
			printf("%-10s %-8d %14.0f %12.1f %16.1f\n", "XDP-RX", cpu,
			       p / secs, (double)ns / p,
			       (double)ns / p * tsc_ghz);
		else
			printf("%-10s %-8d %14.0f %12s %16s  (NET_RX %.1f%% of CPU)\n",
			       "XDP-RX", cpu, 0.0, "-", "-",
			       ns / secs / 1e7);
	}
	printf("%-10s %-8s %14.0f\n", "XDP-RX", "total",
	       (b->packets - a->packets) / secs);
	for (q = 0; q < RXQ_MAX_QUEUES; q++) {
		__u64 p = b->rxq_packets[q] - a->rxq_packets[q];

		if (p)
			printf("%-10s %-8d %14.0f\n", "rx_queue", q, p / secs);
	}
	printf("\n");
	fflush(stdout);
}

/*
 * --features: the driver's xdp_features by the netdev family's names, and
 * the most buffers of one zero-copy frame; "IF: basic redirect ..." or
 * {"interface": ..., "xdp_features": [...], "xsk_zc_max_segs": N}
 */
static int print_features(const char *ifname, bool as_json)
{
	struct json j;
	__u64 have;
	__u32 segs;
	unsigned int i;
	int ret;

	ret = xenv_xdp_features(if_nametoindex(ifname), &have, &segs);
	if (ret) {
		fprintf(stderr, "xdp_rxq_info: %s: the netdev family's dev-get: %s\n",
			esc_text(ifname).s, strerror(-ret));
		return 1;
	}
	if (!as_json) {
		printf("%s:", ifname);
		for (i = 0; xenv_xdp_feature_name(i); i++)
			if (have & 1ULL << i)
				printf(" %s", xenv_xdp_feature_name(i));
		if (have >> i)
			printf(" unknown-0x%llx", (unsigned long long)(have >> i << i));
		printf("%s; zero-copy max segments %u\n", have ? "" : " none", segs);
		return 0;
	}
	json_init(&j, stdout, 2);
	json_begin_object(&j);
	json_kv_string(&j, "interface", ifname);
	json_key(&j, "xdp_features");
	json_begin_array(&j);
	for (i = 0; xenv_xdp_feature_name(i); i++)
		if (have & 1ULL << i)
			json_string(&j, xenv_xdp_feature_name(i));
	json_end_array(&j);
	json_kv_u64(&j, "xdp_features_raw", have);
	json_kv_u64(&j, "xsk_zc_max_segs", segs);
	json_end_object(&j);
	return json_finish(&j) ? 1 : 0;
}

/* --profile: what the window's samples say */
struct profile_out {
	struct prof *prof;
	struct prof_data *data;
	char folded[600], svg[600];
	bool written;
};

static void print_text(const struct config *cfg, struct rxq_bench *b,
		       const struct rxq_result *r, double prog_ns,
		       const char *warn, const struct profile_out *po)
{
	const struct rxq_opts *o = &cfg->o;

	printf("Summary: %s %s on %s%s\n", xdp_action_name(o->action),
	       o->skb_mode ? "generic" : "native", rxq_bench_ifdesc(b),
	       cli_stop ? " (interrupted)" : "");
	printf("  packets      %llu in %.3f s: %.3f Mpps\n",
	       (unsigned long long)r->packets, r->duration_ns / 1e9,
	       r->pps / 1e6);
	if (o->no_cost)
		printf("  cost         not measured (--no-cost)\n");
	else
		printf("  cost         %.1f ns/pkt, %.1f TSC cycles/pkt (TSC %.3f GHz)\n",
		       r->ns_per_pkt, r->ns_per_pkt * tsc_ghz, tsc_ghz);
	printf("               receive path: %s on CPU %d, NAPI %s%s\n",
	       o->threaded_napi ? "NAPI thread" : "NET_RX softirq", r->rx_cpu,
	       o->threaded_napi ? "threaded (pinned to the other CPU)" :
	       "default (softirq on the CPU that queued the frames)",
	       rxq_bench_own_env(b) && (o->action == XDP_TX ||
					o->action == XDP_REDIRECT) ?
	       "; includes the peer's XDP_DROP of what comes back" : "");
	if (prog_ns >= 0)
		printf("  program      %.1f ns/run alone (BPF_PROG_RUN, repeat)\n",
		       prog_ns);
	if (rxq_bench_own_env(b)) {
		printf("  generator    %s: %llu frames of %u bytes, %u flow%s, %.1f ns/frame of its own CPU time (not in the cost above)\n",
		       r->gen_method ? r->gen_method : "?",
		       (unsigned long long)r->gen_sent,
		       o->pkt_size ? o->pkt_size : 64, o->flows ? o->flows : 1,
		       o->flows > 1 ? "s" : "",
		       r->gen_sent ? (double)r->gen_cpu_ns / r->gen_sent : 0);
		if (o->count)
			printf("  lost         %llu (peer xdp_xmit_errors %llu, dut rx drops %llu)\n",
			       (unsigned long long)r->lost,
			       (unsigned long long)r->lost_xmit_errors,
			       (unsigned long long)r->lost_rx_drops);
	}
	if (r->ethtool_xdp_counter)
		printf("  kernel       ethtool %s %llu, ",
		       r->ethtool_xdp_counter,
		       (unsigned long long)r->ethtool_xdp_packets);
	else
		printf("  kernel       ethtool: the driver counts no XDP frames, ");
	printf("/proc/net/dev rx %llu, Ip InReceives %llu\n",
	       (unsigned long long)r->netdev_rx_packets,
	       (unsigned long long)r->stack_ip_in);
	if (rxq_bench_own_env(b) && (o->action == XDP_TX ||
				     o->action == XDP_REDIRECT))
		printf("               back at the peer: %llu\n",
		       (unsigned long long)r->peer_rx);
	if (r->issues)
		printf("  issues       %llu frames whose action failed\n",
		       (unsigned long long)r->issues);
	if (r->disturbed)
		printf("  WARNING      %.1f%% of the CPUs' time went to other work: disturbed run\n",
		       r->foreign_frac * 100);
	if (warn)
		printf("  WARNING      %s\n", warn);
	if (po->data) {
		printf("  profile      ");
		prof_print(stdout, po->prof, po->data,
			   o->no_cost ? NAN : r->ns_per_pkt,
			   "               ");
		if (po->written)
			printf("               folded stacks %s, flame graph %s\n",
			       esc_path(po->folded).s, esc_path(po->svg).s);
	}
}

static void print_json(const struct config *cfg, struct rxq_bench *b,
		       const struct rxq_result *r, double prog_ns,
		       const struct profile_out *po)
{
	const struct cli_lock *l = &cfg->lock;
	const struct rxq_opts *o = &cfg->o;
	struct json j, *w = &j;

	json_init(w, stdout, 0);
	json_begin_object(w);
	json_kv_string(w, "tool", "xdp_rxq_info");
	json_kv_string(w, "version", VERSION);
	json_kv_string(w, "action", xdp_action_name(o->action));
	json_kv_string(w, "mode", o->skb_mode ? "generic" : "native");
	json_kv_string(w, "interface", rxq_bench_ifdesc(b));
	json_kv_bool(w, "own_veth_pair", rxq_bench_own_env(b));
	json_kv_u64(w, "pkt_size", o->pkt_size ? o->pkt_size : 64);
	json_kv_u64(w, "flows", o->flows ? o->flows : 1);
	json_kv_bool(w, "readmem", o->readmem);
	json_kv_bool(w, "swapmac", o->swapmac || o->action == XDP_TX);
	json_kv_bool(w, "frags", o->frags);
	json_kv_u64(w, "loop_k", o->loop_k);
	json_kv_string(w, "napi", o->threaded_napi ? "threaded" : "default");
	json_kv_u64(w, "packets", r->packets);
	json_kv_double(w, "duration_s", r->duration_ns / 1e9);
	json_kv_double(w, "pps", r->pps);
	json_kv_bool(w, "cost_measured", !o->no_cost);
	json_kv_u64(w, "rx_cpu_ns", r->cpu_ns);
	json_kv_double(w, "ns_per_pkt", o->no_cost ? NAN : r->ns_per_pkt);
	json_kv_double(w, "tsc_cycles_per_pkt",
		       o->no_cost ? NAN : r->ns_per_pkt * tsc_ghz);
	json_kv_double(w, "tsc_ghz", tsc_ghz);
	json_kv_s64(w, "rx_cpu", r->rx_cpu);
	if (prog_ns >= 0)
		json_kv_double(w, "prog_ns_per_run", prog_ns);
	json_kv_u64(w, "gen_sent", r->gen_sent);
	json_kv_u64(w, "gen_cpu_ns", r->gen_cpu_ns);
	json_kv_string(w, "gen_method", r->gen_method ? r->gen_method : "none");
	json_kv_u64(w, "lost", r->lost);
	json_kv_u64_if(w, "ethtool_xdp_packets", r->ethtool_xdp_counter,
		       r->ethtool_xdp_packets);
	json_kv_string(w, "ethtool_xdp_counter",
		       r->ethtool_xdp_counter ? r->ethtool_xdp_counter : "none");
	json_kv_u64(w, "netdev_rx_packets", r->netdev_rx_packets);
	json_kv_u64(w, "ip_in_receives", r->stack_ip_in);
	json_kv_u64(w, "peer_rx", r->peer_rx);
	json_kv_u64(w, "issues", r->issues);
	json_kv_double(w, "foreign_frac", r->foreign_frac);
	json_kv_bool(w, "disturbed", r->disturbed);
	json_kv_bool(w, "interrupted", cli_stop);
	json_kv_string(w, "run_lock", cli_lock_state(l));
	if (po->data)
		prof_json(w, po->prof, po->data,
			  o->no_cost ? NAN : r->ns_per_pkt,
			  po->written ? po->folded : NULL,
			  po->written ? po->svg : NULL);
	json_end_object(w);
	json_finish(w);
}

int main(int argc, char **argv)
{
	struct config cfg = {
		.o.action = XDP_DROP,
		.interval = 1,
		.duration = 10,
		.warmup = 0.5,
	};
	char err[ERR_LEN] = "";
	struct rxq_bench *b = NULL;
	struct profile_out po = {};
	struct rxq_result r;
	double prog_ns = -1;
	const char *warn;
	int ret;

	if (parse_args(argc, argv, &cfg))
		return 2;
	if (geteuid()) {
		fprintf(stderr, "xdp_rxq_info: needs root (XDP, BPF, network namespaces)\n");
		return 1;
	}
	if (cfg.features)
		return cli_finish(tool.name, print_features(cfg.o.ifname, cfg.json));
	cli_stop_on_signals();
	xenv_stop_test(cli_stopping);	/* a hung set-up command too */
	if (cli_lock_take(&cfg.lock, "xdp_rxq_info", cfg.allow_concurrent))
		return cli_finish(tool.name, 1);
	tsc_ghz = tsc_ghz_measure(100);

	/* before the program loads: it must get its kallsyms name */
	if (cfg.profile) {
		ret = prof_open(&po.prof, cfg.o.count ? 10 : cfg.duration + 1,
				err);
		po.data = ret ? NULL : prof_data_new();
		if (ret || !po.data) {
			fprintf(stderr, "xdp_rxq_info: --profile: %s\n",
				ret ? err : "out of memory");
			prof_close(po.prof);
			return cli_finish(tool.name, 1);
		}
		cfg.o.prof = po.prof;
	}
	ret = rxq_bench_open(&b, &cfg.o, err);
	if (ret) {
		fprintf(stderr, "xdp_rxq_info: %s\n", err);
		prof_data_free(po.data);
		prof_close(po.prof);
		return cli_finish(tool.name, 1);
	}
	if (!cfg.json)
		printf("Running XDP on %s, action %s, %s mode; NAPI %s; TSC %.3f GHz\n\n",
		       rxq_bench_ifdesc(b), xdp_action_name(cfg.o.action),
		       cfg.o.skb_mode ? "generic" : "native",
		       cfg.o.threaded_napi ? "threaded" : "default", tsc_ghz);
	ret = rxq_bench_run(b, cfg.warmup * 1e9, cfg.duration * 1e9,
			    cfg.json ? 0 : cfg.interval * 1e9, tick, NULL,
			    &cli_stop, &r, err);
	if (ret) {
		fprintf(stderr, "xdp_rxq_info: %s\n", err);
		rxq_bench_close(b);
		prof_data_free(po.data);
		prof_close(po.prof);
		return cli_finish(tool.name, 1);
	}
	if (po.prof) {
		char title[256];

		ret = prof_collect(po.prof, r.rx_cpu, po.data);
		if (ret < 0)
			fprintf(stderr, "xdp_rxq_info: --profile: reading the samples: %s\n",
				strerror(-ret));
		snprintf(title, sizeof(title), "xdp_rxq_info %s %s, %u B: CPU %d, %s, measured window",
			 xdp_action_name(cfg.o.action),
			 cfg.o.skb_mode ? "generic" : "native",
			 cfg.o.pkt_size ? cfg.o.pkt_size : 64, r.rx_cpu,
			 prof_event(po.prof));
		if (prof_write_files(po.data, cfg.profile, title, po.folded,
				     po.svg, sizeof(po.folded), err))
			fprintf(stderr, "xdp_rxq_info: --profile: %s\n", err);
		else
			po.written = true;
	}
	if (!cfg.no_prog_cost && !cli_stop &&
	    rxq_bench_prog_cost(b, 1000000, &prog_ns))
		prog_ns = -1;
	warn = cli_lock_warning(&cfg.lock);
	if (cfg.json)
		print_json(&cfg, b, &r, prog_ns, &po);
	else
		print_text(&cfg, b, &r, prog_ns, warn, &po);
	rxq_bench_close(b);
	prof_data_free(po.data);
	prof_close(po.prof);
	cli_lock_release(&cfg.lock);
	/* a profile asked for and not written is a lost report */
	return cli_finish(tool.name, po.prof && !po.written);
}
