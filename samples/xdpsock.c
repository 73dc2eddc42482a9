// SPDX-License-Identifier: GPL-2.0
/*
 * xdpsock - AF_XDP benchmark in the manner of the kernel's old sample:
 * rxdrop, txonly and l2fwd on one queue, and rxdrop on AF_PACKET for
 * comparison.  Without -i it makes its own veth pair in two private network
 * namespaces, with the live-frames generator and a counting, checking
 * receiver (xskb_peer) on the peer.  The measuring is lib/bench/xsk_bench's;
 * Documentation/xdpsock.rst describes every option and every figure.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "ethtool_stats.h"
#include "afpacket.h"
#include "cli.h"
#include "opts.h"
#include "json.h"
#include "measure.h"
#include "profile.h"
#include "xsk_bench.h"
#include "xskb_json.h"
#include "xsk_core.h"
#include "xsk_env.h"
#include "xsk_pkt.h"

#define VERSION "0.2"

/* One measuring run at a time (lib/base/cli.h); the reports say how this one ran */
static struct cli_lock run_lock;

struct config {
	struct xskb_opts o;
	double duration;
	bool json;
	bool allow_concurrent;
	bool kind_set;
	bool poll_spin_set;	/* --poll-spin-us given */
	bool rx_hold_set;	/* --rx-hold-us given */
	bool copy;		/* --copy: native unless -S */
	char mode_opt[32];	/* the option that chose the mode, for errors */
	const char *profile;	/* --profile: the files' path prefix */
};

/*
 * --profile: the app thread's CPU (all its samples) and the NAPI CPU (its
 * receive path), lib/measure/profile.h; PREFIX-app.* and PREFIX-napi.*
 */
enum { PROF_APP, PROF_NAPI, PROF_ROLES };
static const char *const prof_role[PROF_ROLES] = { "app", "napi" };

static struct {
	struct prof *prof;
	struct prof_data *data[PROF_ROLES];
	char folded[PROF_ROLES][600], svg[PROF_ROLES][600];
	bool written[PROF_ROLES];
	bool lost;		/* a profile's files could not be written */
} prof_out;

/* "-t", or "--rxdrop" for a row without a letter */
static const char *opt_name(const struct opt *o, char *buf, size_t len)
{
	if (o->letter)
		snprintf(buf, len, "-%c", o->letter);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}

/* --rxdrop, -t, -l: one of them */
static int set_kind(const struct opt *o, void *c, const char *arg)
{
	struct config *cfg = c;
	enum xskb_kind k = o->val;
	char name[32];

	(void)arg;
	if (cfg->kind_set && cfg->o.kind != k) {
		fprintf(stderr, "xdpsock: %s: only one of --rxdrop, -t, -l (%s already chosen)\n",
			opt_name(o, name, sizeof(name)), xskb_kind_name(cfg->o.kind));
		return -EINVAL;
	}
	cfg->o.kind = k;
	cfg->kind_set = true;
	return 0;
}

/* -N, -S, -z, -c and --mode: the first one decides, a different one fails */
static int set_mode(struct config *cfg, enum xsk_mode m, const char *opt)
{
	if (cfg->mode_opt[0] && cfg->o.port.mode != m) {
		fprintf(stderr, "xdpsock: %s (%s) conflicts with %s (%s)\n", opt,
			xsk_mode_name(m), cfg->mode_opt,
			xsk_mode_name(cfg->o.port.mode));
		return -EINVAL;
	}
	cfg->o.port.mode = m;
	snprintf(cfg->mode_opt, sizeof(cfg->mode_opt), "%s", opt);
	return 0;
}

/* -N, -S, -z: the mode of the row; --mode: the one named */
static int set_mode_row(const struct opt *o, void *c, const char *arg)
{
	char name[32];
	enum xsk_mode m = o->val;

	if (arg && xsk_mode_parse(arg, &m)) {
		fprintf(stderr, "xdpsock: --mode: '%s' is none of best-effort, native-with-zerocopy, native, generic\n",
			esc_text(arg).s);
		return -EINVAL;
	}
	return set_mode(c, m, opt_name(o, name, sizeof(name)));
}

static int set_afpacket(const struct opt *o, void *c, const char *arg)
{
	struct config *cfg = c;

	if (afp_backend_parse(arg, &cfg->o.afp)) {
		fprintf(stderr, "xdpsock: --%s: '%s' is none of tpacket_v3, tpacket_v2, recvmmsg, auto\n",
			o->name, esc_text(arg).s);
		return -EINVAL;
	}
	cfg->o.afpacket = true;
	return 0;
}

#define SOCK_ROW(t, n, l, f, a, h)	OPTS_ROW(t, n, l, struct config, f, a, h)
#define SOCK_FLAG(n, l, f, h)		{ SOCK_ROW(OPT_FLAG, n, l, f, NULL, h) }
#define SOCK_KIND(n, l, k, h)						\
	{ SOCK_ROW(OPT_FUNC, n, l, o.kind, NULL, h), .set = set_kind, .val = k }
#define SOCK_MODE(n, l, m, h)						\
	{ SOCK_ROW(OPT_FUNC, n, l, o.port.mode, NULL, h), .set = set_mode_row, .val = m }
#define SOCK_RING(n, f, h)						\
	{ SOCK_ROW(OPT_U32, n, 0, f, "N", h), .min = 8, .max = 65536, .def = "2048" }
#define ABOUT \
	"AF_XDP benchmarks on one queue: rxdrop, txonly, l2fwd; AF_PACKET rxdrop.\n\n"
#define NOTES \
	"\nCycles are TSC cycles (ns x measured TSC GHz): this machine may have no PMU.\n" \
	"Changed: -r (--rxdrop), -c (--copy), -m (--no-need-wakeup) and -f\n" \
	"(--frame-size) are gone, -C is -n (--count); --tx-pkt-size is --size;\n" \
	"--duration takes decimals, 0.1..86400.  In every tool -r is the runs,\n" \
	"-c the CPU, -m the XDP modes, -f the flows and -n the count.\n"

static const struct opt rows[] = {
	SOCK_KIND("rxdrop", 0, XSKB_RXDROP, "receive and drop (the default)"),
	SOCK_KIND("txonly", 't', XSKB_TXONLY,
		  "send from the TX ring; counted where they arrive"),
	SOCK_KIND("l2fwd", 'l', XSKB_L2FWD,
		  "receive, swap the MACs, send back on the same socket"),
	OPTS_INTERFACE(struct config, o.ifname,
		       "run on IF (default: own veth pair, generator and checking receiver on the peer)"),
	{ SOCK_ROW(OPT_U32, "queue", 'q', o.port.first_queue, "N", "queue id"),
	  .min = 0, .max = XSK_MAX_QUEUES - 1, .def = "0" },
	{ SOCK_ROW(OPT_FUNC, "mode", 0, o.port.mode, "MODE",
		   "best-effort, native-with-zerocopy, native or generic"),
	  .set = set_mode_row, .def = "best-effort" },
	SOCK_MODE("native", 'N', XSK_MODE_NATIVE, "native XDP, copy"),
	SOCK_MODE("generic", 'S', XSK_MODE_GENERIC, "generic (skb) XDP, copy"),
	SOCK_MODE("zero-copy", 'z', XSK_MODE_NATIVE_ZC, "native XDP with zero-copy"),
	SOCK_FLAG("copy", 0, copy, "copy mode (native unless -S)"),
	SOCK_FLAG("no-need-wakeup", 0, o.port.sock.no_need_wakeup,
		  "turn need_wakeup off"),
	{ SOCK_ROW(OPT_U32, "batch", 'b', o.batch, "N",
		   "descriptors per ring operation"), .min = 1, .max = 2048, .def = "64" },
	SOCK_FLAG("busy-poll", 'B', o.busy_poll,
		  "SO_PREFER_BUSY_POLL, SO_BUSY_POLL, SO_BUSY_POLL_BUDGET (= batch); own pair: napi_defer_hard_irqs 2, gro_flush_timeout 200000 on veth0, restored at exit"),
	{ SOCK_ROW(OPT_U32, "busy-poll-us", 0, o.busy_poll_us, "N",
		   "SO_BUSY_POLL in microseconds"), .min = 1, .max = 1000000, .def = "20" },
	SOCK_FLAG("poll", 'p', o.poll,
		  "wait in poll() (100 ms at most) once the RX ring has been empty --poll-spin-us, instead of spinning (rxdrop, l2fwd)"),
	{ SOCK_ROW(OPT_U32, "poll-spin-us", 0, o.poll_spin_us, "N",
		   "with -p: poll() only once the RX ring has been empty N microseconds (0: at once)"),
	  .min = 0, .max = 1000000, .def = "20" },
	{ SOCK_ROW(OPT_U32, "rx-hold-us", 0, o.rx_hold_us, "N",
		   "rxdrop: after a turn that took less than a batch, look at the RX ring again N microseconds later (0: at once)"),
	  .min = 0, .max = 1000, .def = "5" },
	SOCK_FLAG("rx-read-only", 0, o.rx_read_only,
		  "rxdrop: only read the RX descriptors; by default each whole line of a batch's descriptors is first taken for writing (xdpsock.rst, Native mode: the descriptor lines)"),
	SOCK_FLAG("frags", 'F', o.port.sock.multi_buffer, "multi-buffer (XDP_USE_SG)"),
	SOCK_FLAG("unaligned", 'u', o.port.sock.unaligned, "unaligned chunks"),
	{ SOCK_ROW(OPT_U32, "frame-size", 0, o.port.sock.frame_size, "N",
		   "UMEM chunk size"), .min = 2048, .max = 4096, .def = "4096" },
	OPTS_SIZE(struct config, o.pkt_size),
	{ SOCK_ROW(OPT_U32, "tx-pkt-size", 0, o.pkt_size, "N", "--size"),
	  .min = OPTS_SIZE_MIN, .max = OPTS_SIZE_MAX, .flags = OPTS_HIDDEN },
	OPTS_COUNT(struct config, o.count,
		   "exactly N frames (generator's, or txonly's), then stop"),
	OPTS_DURATION(struct config, duration, "run time (with -n, the limit)"),
	OPTS_RATE(struct config, o.rate_pps, "generator's rate"),
	{ SOCK_ROW(OPT_CPU, "app-cpu", 0, o.app_cpu, "N",
		   "CPU of the application thread"),
	  .def = "the one the generator and the receive NAPI do not use" },
	{ SOCK_ROW(OPT_CPU, "gen-cpu", 0, o.gen_cpu, "N",
		   "CPU of the generator thread") },
	{ SOCK_ROW(OPT_FUNC, "afpacket", 0, o.afp, "B",
		   "rxdrop on AF_PACKET instead of AF_XDP: tpacket_v3, tpacket_v2, recvmmsg or auto"),
	  .set = set_afpacket },
	SOCK_FLAG("verify", 'V', o.verify,
		  "check every payload byte (app in rxdrop, the peer's program in txonly and l2fwd)"),
	SOCK_FLAG("no-cost", 0, o.no_cost, "no NET_RX softirq tracepoints"),
	SOCK_RING("rx-size", o.port.sock.rx_size, "RX ring size (power of two)"),
	SOCK_RING("fill-size", o.port.sock.fill_size, "fill ring size (power of two)"),
	{ SOCK_ROW(OPT_U32, "umem-frames", 0, o.port.sock.nr_frames, "N",
		   "UMEM frames (default: rxdrop and l2fwd 256 or 4 batches, with -p --poll-spin-us 0 the fill ring size; txonly fill ring + TX ring sizes)"),
	  .min = 64, .max = 262144 },
	{ SOCK_ROW(OPT_U32, "tx-budget", 0, o.tx_budget, "N",
		   "copy mode: descriptors one sendto() sends (XDP_MAX_TX_SKB_BUDGET), 32..the TX ring's size; txonly kicks once N wait (txonly, l2fwd)"),
	  .min = XSKB_TX_BUDGET_KERNEL, .max = 65536,
	  .def = "txonly the TX ring's size where the kernel has the option, else 32; l2fwd the kernel's 32" },
	SOCK_FLAG("latency", 0, o.latency,
		  "one-way latency of every frame, from the generator's stamp (CLOCK_MONOTONIC, as it makes the frame) to the app's take: p50, p90, p99, p99.9, max (own pair; AF_XDP rxdrop and l2fwd; frames of 54 bytes at least; not with -V)"),
	{ SOCK_ROW(OPT_U32, "rx-delay-ns", 0, o.rx_delay_ns, "N",
		   "with --latency: spin N ns between taking a batch and reading the clock, a delay every frame's latency must show (the method's test)"),
	  .min = 1, .max = 100000000 },
	{ SOCK_ROW(OPT_U32, "stall-ms", 0, o.stall_ms, "N",
		   "the app starts N ms after the generator: the socket's rings overflow (tests of the accounting)"),
	  .min = 1, .max = 60000 },
	{ OPTS_ROW(OPT_PREFIX, "profile", 0, struct config, profile, "PREFIX",
		   "sample the app thread's CPU and the NAPI CPU in the measured window (Documentation/profiles.rst): top symbols, PREFIX-app.{folded,svg} and PREFIX-napi.{folded,svg}"),
	  .def = "xdpsock-profile" },
	OPTS_ALLOW_CONCURRENT(struct config, allow_concurrent),
	OPTS_JSON(struct config, json, "print one JSON object at the end"),
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL("xdpsock", "[OPTIONS]", rows, struct config,
		  .about = ABOUT, .notes = NOTES);

static int ring_size_check(const char *opt, __u32 v)
{
	if (!(v & (v - 1)))
		return 0;
	fprintf(stderr, "xdpsock: %s: %u is not a power of two in 8..65536\n",
		opt, v);
	return -EINVAL;
}

/* The first option given that only an AF_XDP socket has, or NULL */
static const char *afxdp_only_opt(const struct config *cfg)
{
	const struct xsk_socket_opts *so = &cfg->o.port.sock;

	if (so->rx_size || so->fill_size)
		return so->rx_size ? "--rx-size" : "--fill-size";
	if (so->nr_frames)
		return "--umem-frames";
	if (so->frame_size)
		return "--frame-size";
	if (so->multi_buffer)
		return "-F (--frags)";
	if (so->unaligned)
		return "-u (--unaligned)";
	if (so->no_need_wakeup)
		return "--no-need-wakeup";
	if (cfg->copy)
		return "--copy";
	if (cfg->o.tx_budget)
		return "--tx-budget";
	if (cfg->o.port.first_queue)
		return "-q (--queue)";
	return NULL;
}

/* What one option cannot do with another */
static int check_args(struct config *cfg)
{
	struct xskb_opts o = cfg->o;
	char err[ERR_LEN];

	if (ring_size_check("--rx-size", cfg->o.port.sock.rx_size) ||
	    ring_size_check("--fill-size", cfg->o.port.sock.fill_size))
		return -EINVAL;
	if (cfg->copy && cfg->o.port.mode == XSK_MODE_NATIVE_ZC && cfg->mode_opt[0]) {
		fprintf(stderr, "xdpsock: --copy conflicts with %s (zero-copy)\n",
			cfg->mode_opt);
		return -EINVAL;
	}
	if (cfg->copy && !cfg->mode_opt[0])
		cfg->o.port.mode = XSK_MODE_NATIVE;
	if (!xskb_rx_holds(&cfg->o)) {
		if (cfg->rx_hold_set) {
			fprintf(stderr, "xdpsock: --rx-hold-us holds AF_XDP rxdrop's loop: not with -t, -l or --afpacket\n");
			return -EINVAL;
		}
		cfg->o.rx_hold_us = 0;
		o.rx_hold_us = 0;
		if (cfg->o.rx_read_only) {
			fprintf(stderr, "xdpsock: --rx-read-only is for AF_XDP rxdrop's loop: not with -t, -l or --afpacket\n");
			return -EINVAL;
		}
	}
	o.pkt_size = o.pkt_size ?: 64;
	if (xskb_check_opts(&o, err)) {
		fprintf(stderr, "xdpsock: %s\n", err);
		return -EINVAL;
	}
	if (cfg->o.afpacket && cfg->mode_opt[0]) {
		fprintf(stderr, "xdpsock: --afpacket takes no XDP mode (%s)\n",
			cfg->mode_opt);
		return -EINVAL;
	}
	if (cfg->o.ifname && cfg->o.rate_pps) {
		fprintf(stderr, "xdpsock: --rate paces the own pair's generator: not with -i\n");
		return -EINVAL;
	}
	if (cfg->o.afpacket && afxdp_only_opt(cfg)) {
		fprintf(stderr, "xdpsock: %s is for AF_XDP sockets: not with --afpacket\n",
			afxdp_only_opt(cfg));
		return -EINVAL;
	}
	if (!cfg->o.ifname && cfg->o.port.first_queue) {
		fprintf(stderr, "xdpsock: -q %u: the private pair has one queue, 0; -q is for -i\n",
			cfg->o.port.first_queue);
		return -EINVAL;
	}
	if (cfg->o.poll && cfg->o.busy_poll) {
		fprintf(stderr, "xdpsock: -p (poll) and -B (busy poll) exclude each other\n");
		return -EINVAL;
	}
	if (cfg->o.poll && cfg->o.kind == XSKB_TXONLY) {
		fprintf(stderr, "xdpsock: -p waits for received frames: not with -t\n");
		return -EINVAL;
	}
	if (!cfg->o.busy_poll && cfg->o.busy_poll_us) {
		fprintf(stderr, "xdpsock: --busy-poll-us needs -B\n");
		return -EINVAL;
	}
	if (!cfg->o.poll && cfg->poll_spin_set) {
		fprintf(stderr, "xdpsock: --poll-spin-us needs -p\n");
		return -EINVAL;
	}
	if (cfg->o.stall_ms && (cfg->o.kind == XSKB_TXONLY || cfg->o.ifname)) {
		fprintf(stderr, "xdpsock: --stall-ms holds the app back behind the own pair's generator: not with -t or -i\n");
		return -EINVAL;
	}
	if (cli_count_fits("xdpsock", cfg->o.count, cfg->o.rate_pps, cfg->duration))
		return -EINVAL;
	if (cfg->o.stall_ms >= cfg->duration * 1000) {
		fprintf(stderr, "xdpsock: --stall-ms %u is not shorter than --duration %g s: the app would start after the run\n",
			cfg->o.stall_ms, cfg->duration);
		return -EINVAL;
	}
	if (!o.afpacket &&
	    xskb_check_sizes(&o, o.port.sock.frame_size ?: XSK_DEF_FRAME_SIZE,
			     o.port.sock.headroom, o.port.sock.multi_buffer,
			     !o.ifname, err)) {
		fprintf(stderr, "xdpsock: %s\n", err);
		return -EINVAL;
	}
	if (cfg->o.app_cpu >= 0 && cfg->o.app_cpu == cfg->o.gen_cpu &&
	    !cfg->o.ifname)
		fprintf(stderr, "xdpsock: warning: the application and the generator share CPU %d: the receive NAPI runs there too and starves\n",
			cfg->o.app_cpu);
	return 0;
}

static void print_interval(const struct xskb_snap *a, const struct xskb_snap *b,
			   void *ctx)
{
	double secs = (b->t_ns - a->t_ns) / 1e9;
	__u64 *t0 = ctx;

	printf("%7.2fs  rx %11.0f pps  tx %11.0f pps  compl %11.0f/s  peer %11.0f pps | XDP_STATISTICS +rx_dropped %llu +rx_ring_full %llu +fill_empty %llu +tx_empty %llu +rx_invalid %llu +tx_invalid %llu\n",
	       (b->t_ns - *t0) / 1e9, (b->rx_packets - a->rx_packets) / secs,
	       (b->tx_packets - a->tx_packets) / secs,
	       (b->tx_completed - a->tx_completed) / secs,
	       (b->delivered - a->delivered) / secs,
	       (unsigned long long)(b->st.rx_dropped - a->st.rx_dropped),
	       (unsigned long long)(b->st.rx_ring_full - a->st.rx_ring_full),
	       (unsigned long long)(b->st.rx_fill_ring_empty_descs -
				    a->st.rx_fill_ring_empty_descs),
	       (unsigned long long)(b->st.tx_ring_empty_descs -
				    a->st.tx_ring_empty_descs),
	       (unsigned long long)(b->st.rx_invalid_descs - a->st.rx_invalid_descs),
	       (unsigned long long)(b->st.tx_invalid_descs - a->st.tx_invalid_descs));
	fflush(stdout);
}

/* Each role's share of ns/pkt: the app thread's time, or NET_RX's */
static double profile_ns(const struct xskb_result *r, int role)
{
	if (role == PROF_APP)
		return r->app_ns_per_pkt;
	return r->net_rx_known ? r->net_rx_ns_per_pkt : NAN;
}

static int profile_open(struct config *cfg, char err[ERR_LEN])
{
	int i, ret;

	if (!cfg->profile)
		return 0;
	ret = prof_open(&prof_out.prof, cfg->duration + 1, err);
	if (ret)
		return ret;
	prof_out.data[PROF_APP] = prof_data_new_cpu();
	prof_out.data[PROF_NAPI] = prof_data_new();
	for (i = 0; i < PROF_ROLES; i++)
		if (!prof_out.data[i])
			return err_set(err, -ENOMEM, "out of memory");
	cfg->o.prof = prof_out.prof;
	return 0;
}

static void profile_close(void)
{
	int i;

	for (i = 0; i < PROF_ROLES; i++)
		prof_data_free(prof_out.data[i]);
	prof_close(prof_out.prof);
}

/* The window's samples of the app CPU and the NAPI CPU, and their files */
static void profile_collect(const struct config *cfg,
			    const struct xskb_result *r)
{
	int cpus[PROF_ROLES] = { r->app_cpu, r->net_rx_cpu };
	char prefix[512], title[256], err[ERR_LEN];
	int i, n = PROF_ROLES, ret;

	if (!prof_out.prof)
		return;
	/* no NET_RX seen (--no-cost, txonly): the app's CPU only */
	if (cpus[PROF_NAPI] < 0)
		n = 1;
	/* a counted run's window ends with its last frame, not the wait after */
	prof_collect_until(prof_out.prof, r->window_end_ns);
	ret = prof_collect_cpus(prof_out.prof, n, cpus, prof_out.data);
	if (ret < 0)
		fprintf(stderr, "xdpsock: --profile: reading the samples: %s\n",
			strerror(-ret));
	for (i = 0; i < n; i++) {
		snprintf(prefix, sizeof(prefix), "%s-%s", cfg->profile,
			 prof_role[i]);
		snprintf(title, sizeof(title), "xdpsock %s: %s CPU %d, %s, measured window",
			 xskb_kind_name(cfg->o.kind),
			 i == PROF_APP ? "app thread's" : "NAPI", cpus[i],
			 prof_event(prof_out.prof));
		if (prof_write_files(prof_out.data[i], prefix, title,
				     prof_out.folded[i], prof_out.svg[i],
				     sizeof(prof_out.folded[i]), err)) {
			fprintf(stderr, "xdpsock: --profile: %s\n", err);
			prof_out.lost = true;
		} else {
			prof_out.written[i] = true;
		}
	}
}

static bool profile_taken(int role)
{
	struct prof_counts c;

	if (!prof_out.data[role])
		return false;
	prof_data_counts(prof_out.data[role], &c);
	return c.windows > 0;
}

static void profile_text(const struct xskb_result *r)
{
	int i;

	for (i = 0; prof_out.prof && i < PROF_ROLES; i++) {
		if (!profile_taken(i))
			continue;
		printf("  profile %-7s ", i == PROF_APP ? "app" : "NAPI");
		prof_print(stdout, prof_out.prof, prof_out.data[i],
			   profile_ns(r, i), "                  ");
		if (prof_out.written[i])
			printf("                  folded stacks %s, flame graph %s\n",
			       esc_path(prof_out.folded[i]).s,
			       esc_path(prof_out.svg[i]).s);
	}
}

/* "profile_app" and "profile_napi" (the latter absent without NET_RX) */
static void profile_json(struct json *j, const struct xskb_result *r)
{
	char key[32];
	int i;

	for (i = 0; prof_out.prof && i < PROF_ROLES; i++) {
		if (!profile_taken(i))
			continue;
		snprintf(key, sizeof(key), "profile_%s", prof_role[i]);
		prof_json_key(j, key, prof_out.prof, prof_out.data[i],
			      profile_ns(r, i),
			      prof_out.written[i] ? prof_out.folded[i] : NULL,
			      prof_out.written[i] ? prof_out.svg[i] : NULL);
	}
}

/* "tx_budget": null where nothing is sent in copy mode; "tx_budget_from" */
static void json_tx_budget(struct json *j, const struct xsk_bench *b)
{
	const char *from;
	__u32 budget = xskb_tx_budget(b, &from);

	json_kv_u64_if(j, "tx_budget", budget, budget);
	json_kv_string(j, "tx_budget_from", budget ? from : NULL);
}

/* What the socket is: AF_XDP's port and socket, or AF_PACKET's backend */
static void json_socket(struct json *j, const struct xsk_bench *b)
{
	const struct xskb_opts *o = xskb_opts(b);
	const struct xsk_port *port = xskb_port(b);

	json_kv_string(j, "socket", port ? "af_xdp" : "af_packet");
	if (port) {
		const struct xsk_socket *xs = port->socks[0];

		json_kv_string(j, "driver", port->driver);
		json_kv_u64(j, "queue", xs->queue_id);
		json_kv_string(j, "mode_asked", xsk_mode_name(o->port.mode));
		json_kv_string(j, "mode", xsk_mode_name(port->mode));
		json_kv_bool(j, "zerocopy", xs->zerocopy);
		json_kv_bool(j, "need_wakeup", xs->need_wakeup);
		json_kv_bool(j, "multi_buffer", xs->bind_flags & XDP_USE_SG);
		json_kv_bool(j, "unaligned", xs->unaligned);
		json_kv_u64(j, "frame_size", xs->frame_size);
		json_kv_u64(j, "umem_frames", xs->nr_frames);
		json_tx_budget(j, b);
	} else {
		json_kv_string(j, "backend",
			       afp_backend_name(xskb_afp_backend(b)));
	}
}

static int report_json(const struct xsk_bench *b, const struct xskb_result *r,
		       double ghz)
{
	const struct xskb_opts *o = xskb_opts(b);
	struct json j;

	json_init(&j, stdout, 0);
	json_begin_object(&j);
	json_kv_string(&j, "tool", "xdpsock");
	json_kv_string(&j, "version", VERSION);
	json_kv_bool(&j, "interrupted", cli_stop);
	json_kv_string(&j, "run_lock", cli_lock_state(&run_lock));
	json_kv_string(&j, "benchmark", xskb_kind_name(o->kind));
	json_kv_string(&j, "interface", xskb_ifname(b));
	json_kv_bool(&j, "own_pair", xskb_own_env(b));
	json_socket(&j, b);
	json_kv_string(&j, "fallback", xskb_fallback(b));
	json_kv_bool(&j, "busy_poll", o->busy_poll);
	json_kv_bool(&j, "poll", o->poll);
	if (o->poll)
		json_kv_u64(&j, "poll_spin_us", o->poll_spin_us);
	json_kv_u64_if(&j, "rx_hold_us", xskb_rx_holds(o), o->rx_hold_us);
	json_key(&j, "rx_lines_written");
	if (xskb_rx_holds(o))
		json_bool(&j, !o->rx_read_only);
	else
		json_null(&j);
	json_kv_string(&j, "busy_poll_setup", xskb_busy_poll_note(b));
	json_kv_u64(&j, "batch", o->batch);
	json_kv_u64(&j, "pkt_size", o->pkt_size);
	json_kv_u64(&j, "count", o->count);
	json_kv_bool(&j, "verify", o->verify);
	json_kv_double(&j, "tsc_ghz", ghz);
	xskb_result_json(&j, r, o, ghz);
	profile_json(&j, r);
	json_end_object(&j);
	return json_finish(&j);
}

static void balance_line(__s64 unaccounted)
{
	if (!unaccounted)
		printf("                  balanced: every frame counted once\n");
	else
		printf("                  NOT balanced: %lld frames %s\n",
		       (long long)(unaccounted < 0 ? -unaccounted : unaccounted),
		       unaccounted > 0 ? "unaccounted for (in no counter)" :
					 "counted more than sent (in two counters, or not ours)");
}

/* Where the generator's frames went, each in one bucket */
static void text_rx_accounting(const struct xsk_bench *b,
			       const struct xskb_result *r)
{
	const struct xskb_acct *a = &r->acct;
	__u64 lost = a->lost_peer_xmit_errors + a->lost_dut_veth_drops +
		     a->sock_fill_ring_empty + a->sock_rx_dropped_other +
		     a->sock_rx_ring_full + a->sock_rx_invalid;

	if (!a->rx_known)
		return;
	printf("  accounting rx   %llu sent = %llu received + %llu lost + %llu left on the %s ring\n",
	       (unsigned long long)a->rx_sent, (unsigned long long)a->received,
	       (unsigned long long)lost, (unsigned long long)a->rx_ring_left,
	       xskb_port(b) ? "RX" : "AF_PACKET");
	if (lost) {
		printf("                  veth1 xdp_xmit_errors (veth0's ring full) %llu, veth0 drops not the socket's %llu\n",
		       (unsigned long long)a->lost_peer_xmit_errors,
		       (unsigned long long)a->lost_dut_veth_drops);
		if (xskb_port(b))
			printf("                  socket: fill ring empty %llu, other rx_dropped %llu, RX ring full %llu, invalid descriptors %llu\n",
			       (unsigned long long)a->sock_fill_ring_empty,
			       (unsigned long long)a->sock_rx_dropped_other,
			       (unsigned long long)a->sock_rx_ring_full,
			       (unsigned long long)a->sock_rx_invalid);
		else
			printf("                  socket: tp_drops %llu\n",
			       (unsigned long long)a->sock_rx_dropped_other);
	}
	if (a->veth_counts_socket && a->veth0_rx_drops)
		printf("                  (veth0 rx_queue_*_drops %llu include the socket's %llu: native XDP counts a failed redirect there too)\n",
		       (unsigned long long)a->veth0_rx_drops,
		       (unsigned long long)r->drops);
	balance_line(a->rx_unaccounted);
}

/* Where what the app queued for TX went */
static void text_tx_accounting(const struct xskb_result *r)
{
	const struct xskb_acct *a = &r->acct;

	if (!a->tx_known)
		return;
	printf("  accounting tx   %llu queued = %llu delivered + %llu not completed + %llu invalid + %llu veth0 tx_dropped (veth1's ring full) + %llu veth1 drops\n",
	       (unsigned long long)a->tx_queued,
	       (unsigned long long)a->delivered,
	       (unsigned long long)a->tx_not_completed,
	       (unsigned long long)a->tx_invalid,
	       (unsigned long long)a->lost_dut_tx_drops,
	       (unsigned long long)a->lost_peer_rx_drops);
	balance_line(a->tx_unaccounted);
}

/* --latency: the window's one-way latency, in microseconds */
static void text_latency(const struct xskb_opts *o, const struct xskb_result *r)
{
	const struct xskb_latency *l = &r->lat;

	if (!o->latency)
		return;
	if (!l->known) {
		printf("  latency         no frames: nothing to report\n");
		return;
	}
	printf("  latency         p50 %.2f us, p90 %.2f, p99 %.2f, p99.9 %.2f, max %.2f, min %.2f (%llu frames)\n"
	       "                  one-way: the generator's stamp as it made the frame to the app's take of its batch,\n"
	       "                  CLOCK_MONOTONIC on both; quantiles within 0.8%% (histogram bins)",
	       l->p50 / 1e3, l->p90 / 1e3, l->p99 / 1e3, l->p999 / 1e3,
	       l->max / 1e3, l->min / 1e3, (unsigned long long)l->frames);
	if (o->rx_delay_ns)
		printf(";\n                  %u ns injected between the take and the clock's read",
		       o->rx_delay_ns);
	if (l->negative)
		printf(";\n                  %llu stamps ahead of the clock's read (the CPUs' clocks apart), counted as 0",
		       (unsigned long long)l->negative);
	printf("\n");
}

static void text_loop(const struct xskb_opts *o, const struct xskb_result *r,
		      double ghz)
{
	const struct xskb_loop *l = &r->loop;
	struct xskb_loop_fig f;

	xskb_loop_figures(l, ghz, &f);
	if (!f.split) {
		printf("  loop            %llu iterations, %llu found work; no TSC: no busy/idle split\n",
		       (unsigned long long)l->iterations,
		       (unsigned long long)l->busy_iterations);
		return;
	}
	printf("  loop            busy %.1f%% of the TSC over %.4g iterations (%.1f%% found work), %.1f frames/batch,\n",
	       100 * f.busy_share, (double)l->iterations,
	       100 * f.busy_iter_share, f.frames_per_batch);
	if (f.per_pkt)
		printf("                  processing %.1f ns/pkt vs %.1f total (%.0f vs %.0f TSC cycles), %.3g syscalls/pkt%s\n",
		       f.busy_ns_per_pkt, f.total_ns_per_pkt,
		       f.busy_cycles_per_pkt, f.total_cycles_per_pkt,
		       f.syscalls_per_pkt,
		       o->poll ? " (poll()'s wait is idle)" : "");
	else
		printf("                  no frames: nothing per packet; %llu syscalls\n",
		       (unsigned long long)l->syscalls);
}

static void report_text(const struct xsk_bench *b, const struct xskb_result *r,
			double ghz, const char *warn)
{
	const struct xskb_opts *o = xskb_opts(b);
	double secs = r->duration_ns / 1e9;

	printf("\nxdpsock %s: %s%s\n", xskb_kind_name(o->kind), xskb_describe(b),
	       cli_stop ? " (interrupted)" : "");
	if (warn)
		printf("  WARNING         %s\n", warn);
	if (*xskb_fallback(b))
		printf("  passed by       %s\n", xskb_fallback(b));
	if (o->busy_poll)
		printf("  busy poll       %s\n", xskb_busy_poll_note(b));
	if (o->kind != XSKB_TXONLY)
		printf("  received        %llu packets; the socket dropped %llu\n",
		       (unsigned long long)r->d.rx_packets,
		       (unsigned long long)r->drops);
	text_rx_accounting(b, r);
	if (r->drv_xdp_naming >= 0)
		printf("  driver XDP      %llu frames in %s's ethtool %s\n",
		       (unsigned long long)r->drv_xdp_packets, xskb_ifname(b),
		       ethtool_xdp_packets_namings[r->drv_xdp_naming]);
	else
		printf("  driver XDP      %s's driver counts no XDP frames (ethtool -S)\n",
		       xskb_ifname(b));
	if (o->kind != XSKB_RXDROP)
		printf("  sent            %llu packets queued to the TX ring, %llu descriptors completed\n",
		       (unsigned long long)r->d.tx_packets,
		       (unsigned long long)r->d.tx_completed);
	if (o->kind != XSKB_RXDROP && r->peer_known)
		printf("  delivered       %llu at the peer (xskb_peer on its veth): MACs ok %llu, bad %llu; length bad %llu%s\n",
		       (unsigned long long)r->peer.packets,
		       (unsigned long long)r->peer.mac_ok,
		       (unsigned long long)r->peer.mac_bad,
		       (unsigned long long)r->peer.len_bad,
		       o->verify ? "" : "; payload not checked (-V)");
	else if (o->kind != XSKB_RXDROP)
		printf("  delivered       not measured: no peer of ours on %s (completions are not deliveries)\n",
		       xskb_ifname(b));
	text_tx_accounting(r);
	if (o->verify && r->peer_known && o->kind != XSKB_RXDROP)
		printf("  payload         ok %llu, bad %llu (checked by the peer's program)\n",
		       (unsigned long long)r->peer.payload_ok,
		       (unsigned long long)r->peer.payload_bad);
	if (o->verify && o->kind == XSKB_RXDROP)
		printf("  payload         %llu bytes, %llu packets bad (checked by the app)\n",
		       (unsigned long long)r->rx_bytes,
		       (unsigned long long)r->rx_bad);
	printf("  rate            %.3f Mpps (%s) in %.2f s\n", r->pps / 1e6,
	       r->counted_at, secs);
	printf("  app thread      %.1f ns/pkt, %.1f TSC cycles/pkt (schedstat CPU time / packets; TSC %.3f GHz;\n"
	       "                  the thread busy-polls its rings, so below line rate this is time, not cost)\n",
	       r->app_ns_per_pkt, r->app_ns_per_pkt * ghz, ghz);
	text_latency(o, r);
	text_loop(o, r, ghz);
	if (r->disturbed)
		printf("  disturbed       the app thread was on a CPU for %.0f%% of the run only: other tasks took it\n",
		       r->duration_ns ? 100.0 * r->app_cpu_ns / r->duration_ns : 0);
	if (r->net_rx_known)
		printf("  NET_RX softirq  %.1f ns/pkt, %.1f TSC cycles/pkt (all CPUs; most on CPU %d)\n",
		       r->net_rx_ns_per_pkt, r->net_rx_ns_per_pkt * ghz,
		       r->net_rx_cpu);
	printf("  placement       app thread asked CPU %d, ran on CPU %d",
	       o->app_cpu, r->app_cpu);
	if (r->gen_ran)
		printf("; generator asked CPU %d, ran on CPU %d", o->gen_cpu,
		       r->gen_cpu);
	printf("\n");
	profile_text(r);
	if (r->gen_ran)
		printf("  generator       %s: %llu sent%s\n", r->gen_method,
		       (unsigned long long)r->gen_sent,
		       o->rate_pps ? " (paced)" : "");
	if (xskb_port(b))
		printf("  XDP_STATISTICS  rx_dropped %llu, rx_ring_full %llu, rx_fill_ring_empty_descs %llu, tx_ring_empty_descs %llu, rx_invalid_descs %llu, tx_invalid_descs %llu\n",
		       (unsigned long long)r->d.st.rx_dropped,
		       (unsigned long long)r->d.st.rx_ring_full,
		       (unsigned long long)r->d.st.rx_fill_ring_empty_descs,
		       (unsigned long long)r->d.st.tx_ring_empty_descs,
		       (unsigned long long)r->d.st.rx_invalid_descs,
		       (unsigned long long)r->d.st.tx_invalid_descs);
}

int main(int argc, char **argv)
{
	struct config cfg = {
		.o = { .app_cpu = -1, .gen_cpu = 0,
		       .poll_spin_us = XSKB_POLL_SPIN_US,
		       .rx_hold_us = XSKB_RX_HOLD_US },
		.duration = 10,
	};
	opts_given_t given;
	struct xsk_bench *b = NULL;
	struct xskb_result r;
	char err[ERR_LEN];
	const char *warn;
	double ghz;
	__u64 t0;
	int ret;

	if (opts_parse(&tool, argc, argv, &cfg, &given) < 0)
		return 2;
	cfg.poll_spin_set = opts_given(&tool, given, "poll-spin-us");
	cfg.rx_hold_set = opts_given(&tool, given, "rx-hold-us");
	if (check_args(&cfg))
		return 2;
	if (geteuid()) {
		fprintf(stderr, "xdpsock: needs root (AF_XDP, XDP, network namespaces)\n");
		return 1;
	}
	cli_stop_on_signals();
	xenv_stop_test(cli_stopping);	/* a hung set-up command too */
	if (cli_lock_take(&run_lock, "xdpsock", cfg.allow_concurrent))
		return cli_finish(tool.name, 1);
	ghz = tsc_ghz_measure(100);
	/* before the programs load: they must get their kallsyms names */
	ret = profile_open(&cfg, err);
	if (ret) {
		fprintf(stderr, "xdpsock: --profile: %s\n", err);
		profile_close();
		return cli_finish(tool.name, 1);
	}
	ret = xskb_open(&b, &cfg.o, err);
	if (ret) {
		fprintf(stderr, "xdpsock: %s\n", err);
		profile_close();
		return cli_finish(tool.name, 1);
	}
	if (!cfg.json) {
		const struct xskb_opts *o = xskb_opts(b);
		const char *from;
		__u32 budget = xskb_tx_budget(b, &from);

		printf("xdpsock %s on %s, %u-byte frames, batch %u, ",
		       xskb_kind_name(o->kind), xskb_describe(b), o->pkt_size,
		       o->batch);
		if (xskb_port(b))
			printf("%u UMEM frames, ",
			       xskb_port(b)->socks[0]->nr_frames);
		if (budget)
			printf("TX budget %u (%s), ", budget, from);
		if (o->poll)
			printf("poll() after %u us empty, ", o->poll_spin_us);
		if (xskb_rx_holds(o))
			printf("hold %u us, RX descriptor lines %s, ",
			       o->rx_hold_us,
			       o->rx_read_only ? "only read" : "taken for writing");
		if (o->count)
			printf("%llu frames (at most %g s)\n",
			       (unsigned long long)o->count, cfg.duration);
		else
			printf("%g s\n", cfg.duration);
		if (*xskb_fallback(b))
			printf("  passed by: %s\n", xskb_fallback(b));
		fflush(stdout);
	}
	t0 = mono_ns();
	ret = xskb_run(b, 0, cfg.duration * 1e9,
		       cfg.json ? 0 : 1000000000ULL, print_interval, &t0,
		       &cli_stop, &r, err);
	if (ret) {
		fprintf(stderr, "xdpsock: %s\n", err);
		xskb_close(b);
		profile_close();
		return cli_finish(tool.name, 1);
	}
	profile_collect(&cfg, &r);
	warn = cli_lock_warning(&run_lock);
	if (cfg.json)
		ret = report_json(b, &r, ghz);
	else
		report_text(b, &r, ghz, warn);
	xskb_close(b);
	profile_close();
	cli_lock_release(&run_lock);
	if (ret)
		fprintf(stderr, "xdpsock: writing the JSON result failed (%s)\n",
			strerror(-ret));
	return cli_finish(tool.name, ret || prof_out.lost ? 1 : 0);
}
