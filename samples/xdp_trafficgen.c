// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_trafficgen - send test frames with BPF_PROG_RUN in live-frames mode.
 *
 * Without -i it makes its own veth pair in two private network namespaces,
 * sends from the peer side into the dut side, where tgen_sink (attached
 * natively) counts and drops what arrives, and reports both ends.  With -i it
 * sends out of that interface in the current network namespace; whatever
 * receives the frames is the caller's business.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/bpf.h>
#include <linux/if_link.h>

#include "esc.h"
#include "cli.h"
#include "opts.h"
#include "measure.h"
#include "trafficgen.h"
#include "xsk_core.h"
#include "xsk_env.h"
#include "xsk_pkt.h"

#define VERSION "0.1"

struct config {
	struct tgen_opts o;
	const char *ifname;
	bool dst_set;
	bool json;
	bool allow_concurrent;
	double duration;	/* -d, seconds */
	__u32 mtu;
	struct cli_lock lock;
};

#define ABOUT \
	"Send UDP test frames (Ethernet/IPv4/UDP, 198.18.0.2 -> 198.18.0.1, port 9)\n" \
	"made in the kernel by BPF_PROG_RUN with BPF_F_TEST_XDP_LIVE_FRAMES: an\n" \
	"XDP program, loaded but never attached, rewrites the UDP source port and\n" \
	"the payload's sequence number of every frame and returns XDP_TX, so the\n" \
	"frames leave by the interface.  Frames too large for live-frames mode\n" \
	"(one page less the kernel's headroom and tailroom: 3408 bytes with 4 KiB\n" \
	"pages on this kernel) go by an AF_XDP socket with multi-buffer\n" \
	"(XDP_USE_SG) instead; the report says which method ran.\n" \
	"\n" \
	"Without -i, a private veth pair in two network namespaces is made: frames\n" \
	"leave by the peer side; the dut side runs a counting XDP_DROP program\n" \
	"(native mode) whose counts are reported.  Everything is removed at exit.\n" \
	"\n"
#define NOTES \
	"\n" \
	"Output: frames sent (counted by the XDP program), the rate achieved, the\n" \
	"sending thread's CPU time per frame (schedstat) in ns and in TSC cycles\n" \
	"(ns x the TSC frequency measured against CLOCK_MONOTONIC_RAW; this machine\n" \
	"may have no PMU, so these are not core cycles).  In the kernel's default\n" \
	"NAPI mode the receiver's softirq runs on the sending CPU, inside that\n" \
	"thread's time, so the CPU time per frame includes the receive side.\n" \
	"\n" \
	"Exit status: 0 on success, 1 when the run failed, 2 on a bad option,\n" \
	"128 + the signal when SIGINT or SIGTERM stopped it (what was sent is\n" \
	"reported, marked interrupted).\n" \
	"Changed: -r (--rate) is gone (-r is the runs in every tool); --count is\n" \
	"1..1e12 and --duration 0.1..86400 s, as in the other tools.\n"

static int parse_mac(const char *arg, unsigned char mac[6])
{
	unsigned int b[6], i;
	char c;

	if (sscanf(arg, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &c) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -EINVAL;
		mac[i] = b[i];
	}
	return 0;
}

static int set_dst(const struct opt *o, void *c, const char *arg)
{
	struct config *cfg = c;

	if (parse_mac(arg, cfg->o.dst)) {
		fprintf(stderr, "xdp_trafficgen: --%s: '%s' is not a MAC address (aa:bb:cc:dd:ee:ff)\n",
			o->name, esc_text(arg).s);
		return -EINVAL;
	}
	cfg->dst_set = true;
	return 0;
}

#define TG_ROW(t, n, l, f, a, h)	OPTS_ROW(t, n, l, struct config, f, a, h)
static const struct opt rows[] = {
	OPTS_INTERFACE(struct config, ifname,
		       "send out of IF in the current network namespace; the receiver needs a native XDP program or GRO on to take XDP_TX frames on a veth"),
	{ TG_ROW(OPT_FUNC, "dst-mac", 0, o.dst, "MAC", "destination MAC with -i"),
	  .set = set_dst, .def = "ff:ff:ff:ff:ff:ff" },
	{ TG_ROW(OPT_U32, "queue", 'q', o.queue, "N",
		 "rx_queue_index given to the program"),
	  .min = 0, .max = XSK_MAX_QUEUES - 1, .def = "0" },
	OPTS_SIZE(struct config, o.pkt_size),
	OPTS_FLOWS(struct config, o.flows),
	OPTS_COUNT(struct config, o.count, "frames to send (without it: no limit)"),
	{ TG_ROW(OPT_DOUBLE, "duration", 'd', duration, "SEC",
		 "seconds to send, decimals allowed"),
	  .dmin = 0.1, .dmax = OPTS_DURATION_MAX, .def = "10 when no count is given" },
	OPTS_RATE(struct config, o.rate_pps,
		  "frames per second; up to 50000 one BPF_PROG_RUN call per frame (some 9-30 us each), faster the program paces within one call and the sending CPU spins (trafficgen.rst): compare the rate achieved with the rate asked"),
	{ TG_ROW(OPT_CPU, "cpu", 'c', o.cpu, "N",
		 "CPU of the sending thread (-1 leaves it unpinned)"),
	  .flags = OPTS_UNPINNED },
	{ TG_ROW(OPT_FLAG, "bare", 0, o.bare, NULL,
		 "a program that only returns XDP_TX: the template frame unchanged, nothing counted (the receiver counts), the live-frames limit of any generator; with a duration, one flow, no rate") },
	OPTS_MTU(struct config, mtu, "MTU of the private veth pair",
		 "1500, or size - 14 if larger"),
	OPTS_JSON(struct config, json, "print one JSON object at the end, nothing else"),
	OPTS_ALLOW_CONCURRENT(struct config, allow_concurrent),
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL("xdp_trafficgen", "[OPTIONS]", rows, struct config,
		  .about = ABOUT, .notes = NOTES);

static int parse_args(int argc, char **argv, struct config *cfg)
{
	long live_max;

	if (opts_parse(&tool, argc, argv, cfg, NULL) < 0)
		return -EINVAL;
	if (cfg->dst_set && !cfg->ifname) {
		fprintf(stderr, "xdp_trafficgen: --dst-mac: only with -i (the private pair has its own MACs)\n");
		return -EINVAL;
	}
	if (cfg->mtu && cfg->ifname) {
		fprintf(stderr, "xdp_trafficgen: --mtu: only for the private pair, not with -i\n");
		return -EINVAL;
	}
	if (cli_size_fits_mtu("xdp_trafficgen", cfg->o.pkt_size, cfg->mtu))
		return -EINVAL;
	if (cfg->o.bare && (cfg->o.count || cfg->o.rate_pps || cfg->o.flows > 1)) {
		fprintf(stderr, "xdp_trafficgen: --bare counts nothing and sends one frame: not with -n, --rate or -f\n");
		return -EINVAL;
	}
	/* live frames fit a page less XDP's headroom, at most */
	live_max = sysconf(_SC_PAGESIZE) - XDP_PACKET_HEADROOM;
	if (cfg->o.bare && cfg->o.pkt_size > live_max) {
		fprintf(stderr, "xdp_trafficgen: --bare sends live frames, which fit a page less XDP's headroom (%ld bytes) at most, not %u\n",
			live_max, cfg->o.pkt_size);
		return -EINVAL;
	}
	if (!cfg->ifname && cfg->o.queue) {
		fprintf(stderr, "xdp_trafficgen: -q %u: the private pair has one queue, 0; -q is for -i\n",
			cfg->o.queue);
		return -EINVAL;
	}
	if (cli_count_fits("xdp_trafficgen", cfg->o.count, cfg->o.rate_pps, cfg->duration))
		return -EINVAL;
	cfg->o.duration_ns = cfg->duration * 1e9;
	if (!cfg->o.count && !cfg->o.duration_ns)
		cfg->o.duration_ns = 10 * 1000000000ULL;
	return 0;
}

static void report(const struct config *cfg, const struct tgen_result *r,
		   const char *note, double ghz, const char *ifname,
		   const struct tgen_sink_counters *sc, const char *warn)
{
	const struct cli_lock *l = &cfg->lock;
	double ns = r->sent ? (double)r->cpu_ns / r->sent : 0;
	double secs = r->duration_ns / 1e9;
	__u32 size = cfg->o.pkt_size;

	if (cfg->json) {
		printf("{\"tool\":\"xdp_trafficgen\",\"version\":\"%s\","
		       "\"interface\":\"%s\",\"env\":%s,\"method\":\"%s\","
		       "\"live_max_len\":%u,\"size\":%u,\"flows\":%u,"
		       "\"rate_asked_pps\":%llu,\"cpu\":%d,\"sent\":%llu,"
		       "\"duration_s\":%.6f,\"pps\":%.1f,\"cpu_ns\":%llu,"
		       "\"ns_per_frame\":%.3f,\"tsc_cycles_per_frame\":%.3f,"
		       "\"tsc_ghz\":%.4f,\"interrupted\":%s,\"run_lock\":\"%s\","
		       "\"bare\":%s",
		       VERSION, ifname, sc ? "true" : "false", r->method,
		       r->live_max_len, size, cfg->o.flows,
		       (unsigned long long)cfg->o.rate_pps, cfg->o.cpu,
		       (unsigned long long)r->sent, secs, r->pps,
		       (unsigned long long)r->cpu_ns, ns, ns * ghz, ghz,
		       cli_stop ? "true" : "false", cli_lock_state(l),
		       cfg->o.bare ? "true" : "false");
		if (sc)
			printf(",\"sink\":{\"packets\":%llu,\"bytes\":%llu,"
			       "\"other\":%llu,\"min_len\":%u,\"max_len\":%u}",
			       (unsigned long long)sc->packets,
			       (unsigned long long)sc->bytes,
			       (unsigned long long)sc->other, sc->min_len,
			       sc->max_len);
		printf("}\n");
		return;
	}
	printf("xdp_trafficgen: %s out of %s, %u-byte frames, %u flow%s%s%s\n",
	       r->method, ifname, size, cfg->o.flows,
	       cfg->o.flows > 1 ? "s" : "",
	       cfg->o.rate_pps ? ", paced" : "",
	       cli_stop ? " (interrupted)" : "");
	if (warn)
		printf("  WARNING       %s\n", warn);
	if (note && *note)
		printf("  note          %s\n", note);
	if (cfg->o.bare)
		printf("  sent          not counted (--bare) in %.3f s%s",
		       secs, sc ? ": the sink's count below" : ": the receiver counts");
	else
		printf("  sent          %llu frames in %.3f s: %.3f Mpps (%.0f pps)",
		       (unsigned long long)r->sent, secs, r->pps / 1e6, r->pps);
	if (cfg->o.rate_pps)
		printf(", asked %llu pps",
		       (unsigned long long)cfg->o.rate_pps);
	if (cfg->o.bare)
		printf("\n");
	else
		printf("\n  sender        CPU %d: %.1f ns/frame, %.1f TSC cycles/frame (TSC %.3f GHz; schedstat CPU time / frames)\n",
		       cfg->o.cpu, ns, ns * ghz, ghz);
	if (sc && cfg->o.bare)
		printf("  sink (dut)    %llu frames, %llu bytes, length %u..%u, %llu not ours: %.3f Mpps\n",
		       (unsigned long long)sc->packets,
		       (unsigned long long)sc->bytes, sc->min_len, sc->max_len,
		       (unsigned long long)sc->other,
		       secs ? sc->packets / secs / 1e6 : 0);
	else if (sc)
		printf("  sink (dut)    %llu frames, %llu bytes, length %u..%u, %llu not ours; %llu lost\n",
		       (unsigned long long)sc->packets,
		       (unsigned long long)sc->bytes, sc->min_len, sc->max_len,
		       (unsigned long long)sc->other,
		       (unsigned long long)(r->sent > sc->packets ?
					    r->sent - sc->packets : 0));
}

int main(int argc, char **argv)
{
	struct config cfg = {
		.o = {
			.pkt_size = 64,
			.flows = 1,
			.cpu = 0,
			.dst = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		},
	};
	struct tgen_sink_counters sc = {};
	struct xsk_env *env = NULL;
	struct tgen_sink *sink = NULL;
	struct xenv_opts eo = {};
	struct tgen_result r = {};
	char err[ERR_LEN];
	const char *ifname;
	int ret = 1;
	double ghz;

	if (parse_args(argc, argv, &cfg))
		return 2;
	eo.mtu = cfg.mtu;
	if (geteuid()) {
		fprintf(stderr, "xdp_trafficgen: needs root (BPF, XDP, network namespaces)\n");
		return 1;
	}
	cli_stop_on_signals();
	xenv_stop_test(cli_stopping);	/* a hung set-up command too */
	cfg.o.stop = &cli_stop;
	if (cli_lock_take(&cfg.lock, "xdp_trafficgen", cfg.allow_concurrent))
		return cli_finish(tool.name, 1);
	ghz = tsc_ghz_measure(100);

	if (!cfg.ifname) {
		if (!eo.mtu && cfg.o.pkt_size > 1514)
			eo.mtu = cfg.o.pkt_size - 14;
		if (xenv_create(&env, &eo, err)) {
			fprintf(stderr, "xdp_trafficgen: test environment: %s\n",
				err);
			return cli_finish(tool.name, 1);
		}
		if (xenv_enter(env, XENV_DUT) ||
		    tgen_sink_attach(&sink, env->ifindex[XENV_DUT],
				     XDP_FLAGS_DRV_MODE, err) ||
		    xenv_enter(env, XENV_PEER)) {
			fprintf(stderr, "xdp_trafficgen: sink on %s: %s\n",
				env->ifname[XENV_DUT], err);
			goto out;
		}
		memcpy(cfg.o.dst, env->mac[XENV_DUT], 6);
		memcpy(cfg.o.src, env->mac[XENV_PEER], 6);
		cfg.o.ifname = env->ifname[XENV_PEER];
	} else {
		cfg.o.ifname = cfg.ifname;
	}
	ifname = cfg.o.ifname;
	if (!cfg.json)
		printf("xdp_trafficgen: sending on %s%s, %s\n", ifname,
		       env ? " (private veth pair, peer side)" : "",
		       cfg.o.count ? "until the count" : "for the duration");
	fflush(stdout);
	if (tgen_run(&cfg.o, &r, err)) {
		fprintf(stderr, "xdp_trafficgen: %s\n", err);
		goto out;
	}
	if (sink && tgen_sink_settle(sink, r.sent, 1000, &sc)) {
		fprintf(stderr, "xdp_trafficgen: reading the sink failed\n");
		goto out;
	}
	report(&cfg, &r, err, ghz, ifname, sink ? &sc : NULL,
	       cli_lock_warning(&cfg.lock));
	ret = 0;
out:
	if (env)
		xenv_enter(env, -1);
	tgen_sink_detach(sink);
	xenv_destroy(env);
	cli_lock_release(&cfg.lock);
	return cli_finish(tool.name, ret);
}
