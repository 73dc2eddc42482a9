// SPDX-License-Identifier: GPL-2.0
/*
 * xdpsock - AF_XDP benchmark in the manner of the kernel's old sample.
 *
 * This version has the rxdrop benchmark: receive on one queue and give every
 * frame straight back to the fill ring.  Without -i it makes its own veth
 * pair in two private network namespaces and sends 64-byte UDP frames from
 * the peer with AF_PACKET; the receive path then runs as NET_RX softirq on
 * the generator's CPU, and the application is placed on another CPU.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "afpacket.h"
#include "cli.h"
#include "json.h"
#include "measure.h"
#include "xsk_core.h"
#include "xsk_env.h"
#include "xsk_pkt.h"

#define VERSION "0.1"
#define GEN_BATCH 64

struct config {
	const char *ifname;
	struct xsk_port_opts port;
	__u32 batch;
	__u32 pkt_size;
	unsigned int duration;
	bool json;
	int app_cpu;
	int gen_cpu;
	bool afpacket;		/* rxdrop on an AF_PACKET socket instead */
	enum afp_backend afp;
};

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [OPTIONS]\n"
		"AF_XDP rxdrop benchmark: receive on one queue, recycle every frame.\n"
		"\n"
		"  -r, --rxdrop          rxdrop (the default and, for now, only benchmark)\n"
		"  -i, --interface=IF    receive on IF (default: own veth pair with a generator)\n"
		"  -q, --queue=N         queue id (default 0)\n"
		"      --mode=MODE       best-effort (default), native-with-zerocopy,\n"
		"                        native or generic\n"
		"  -N, --native          native XDP, copy\n"
		"  -S, --generic         generic (skb) XDP, copy\n"
		"  -z, --zero-copy       native XDP with zero-copy\n"
		"  -c, --copy            copy mode (native unless -S)\n"
		"  -m, --no-need-wakeup  turn need_wakeup off\n"
		"  -b, --batch=N         descriptors per ring operation (default 64)\n"
		"  -F, --frags           multi-buffer (XDP_USE_SG)\n"
		"  -u, --unaligned       unaligned chunks\n"
		"  -f, --frame-size=N    UMEM chunk size (default 4096)\n"
		"  -s, --tx-pkt-size=N   generator frame size (default 64)\n"
		"  -d, --duration=SEC    run time (default 10)\n"
		"      --app-cpu=N       CPU of the application thread (default 1)\n"
		"      --gen-cpu=N       CPU of the generator thread (default 0)\n"
		"      --afpacket=B      rxdrop on AF_PACKET instead of AF_XDP: tpacket_v3,\n"
		"                        tpacket_v2, recvmmsg or auto (V3, else V2, else\n"
		"                        recvmmsg), on the same traffic\n"
		"  -j, --json            print one JSON object at the end\n"
		"  -h, --help            this text\n"
		"\n"
		"Cycles are TSC cycles (ns x measured TSC GHz): this machine may have no PMU.\n",
		prog);
}

static int parse_args(int argc, char **argv, struct config *cfg)
{
	static const struct option opts[] = {
		{ "rxdrop", no_argument, NULL, 'r' },
		{ "txonly", no_argument, NULL, 't' },
		{ "l2fwd", no_argument, NULL, 'l' },
		{ "interface", required_argument, NULL, 'i' },
		{ "queue", required_argument, NULL, 'q' },
		{ "mode", required_argument, NULL, 'M' },
		{ "native", no_argument, NULL, 'N' },
		{ "generic", no_argument, NULL, 'S' },
		{ "zero-copy", no_argument, NULL, 'z' },
		{ "copy", no_argument, NULL, 'c' },
		{ "no-need-wakeup", no_argument, NULL, 'm' },
		{ "batch", required_argument, NULL, 'b' },
		{ "frags", no_argument, NULL, 'F' },
		{ "unaligned", no_argument, NULL, 'u' },
		{ "frame-size", required_argument, NULL, 'f' },
		{ "tx-pkt-size", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "app-cpu", required_argument, NULL, 'A' },
		{ "gen-cpu", required_argument, NULL, 'G' },
		{ "json", no_argument, NULL, 'j' },
		{ "afpacket", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	bool skb = false, copy = false, zc = false;
	__u32 v;
	int c;

	while ((c = getopt_long(argc, argv, "rtli:q:NSzcmb:Fuf:s:d:jh", opts,
				NULL)) != -1) {
		switch (c) {
		case 'r':
			break;
		case 't':
		case 'l':
			fprintf(stderr, "xdpsock: -%c: only rxdrop is implemented in this version\n",
				c);
			return -EINVAL;
		case 'i':
			cfg->ifname = optarg;
			break;
		case 'q':
			if (cli_u32("xdpsock", "--queue", optarg, 0, XSK_MAX_QUEUES - 1,
				    &cfg->port.first_queue))
				return -EINVAL;
			break;
		case 'M':
			if (xsk_mode_parse(optarg, &cfg->port.mode)) {
				fprintf(stderr, "xdpsock: --mode: '%s' is none of best-effort, native-with-zerocopy, native, generic\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'N':
			cfg->port.mode = XSK_MODE_NATIVE;
			break;
		case 'S':
			skb = true;
			break;
		case 'z':
			zc = true;
			break;
		case 'c':
			copy = true;
			break;
		case 'm':
			cfg->port.sock.no_need_wakeup = true;
			break;
		case 'b':
			if (cli_u32("xdpsock", "--batch", optarg, 1, 4096, &cfg->batch))
				return -EINVAL;
			break;
		case 'F':
			cfg->port.sock.multi_buffer = true;
			break;
		case 'u':
			cfg->port.sock.unaligned = true;
			break;
		case 'f':
			if (cli_u32("xdpsock", "--frame-size", optarg, 2048, 4096,
				    &cfg->port.sock.frame_size))
				return -EINVAL;
			break;
		case 's':
			if (cli_u32("xdpsock", "--tx-pkt-size", optarg,
				    XSK_PKT_MIN_LEN, 1514, &cfg->pkt_size))
				return -EINVAL;
			break;
		case 'd':
			if (cli_u32("xdpsock", "--duration", optarg, 1, 86400, &v))
				return -EINVAL;
			cfg->duration = v;
			break;
		case 'A':
			if (cli_u32("xdpsock", "--app-cpu", optarg, 0, 4095, &v))
				return -EINVAL;
			cfg->app_cpu = v;
			break;
		case 'G':
			if (cli_u32("xdpsock", "--gen-cpu", optarg, 0, 4095, &v))
				return -EINVAL;
			cfg->gen_cpu = v;
			break;
		case 'P':
			if (afp_backend_parse(optarg, &cfg->afp)) {
				fprintf(stderr, "xdpsock: --afpacket: '%s' is none of tpacket_v3, tpacket_v2, recvmmsg, auto\n",
					optarg);
				return -EINVAL;
			}
			cfg->afpacket = true;
			break;
		case 'j':
			cfg->json = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			exit(0);
		default:
			usage(stderr, argv[0]);
			return -EINVAL;
		}
	}
	if (cli_no_more_args("xdpsock", argc, argv))
		return -EINVAL;
	if (zc && (skb || copy)) {
		fprintf(stderr, "xdpsock: -z (zero-copy) excludes -S and -c\n");
		return -EINVAL;
	}
	if (zc)
		cfg->port.mode = XSK_MODE_NATIVE_ZC;
	else if (skb)
		cfg->port.mode = XSK_MODE_GENERIC;
	else if (copy)
		cfg->port.mode = XSK_MODE_NATIVE;
	return 0;
}

struct generator {
	struct xsk_env *env;
	__u32 pkt_size;
	int cpu;
	int last_cpu;
	__u64 sent;
	int err;
};

static void *gen_thread(void *arg)
{
	static unsigned char frames[GEN_BATCH * 1514];
	struct generator *g = arg;
	unsigned int i;
	int n;

	pin_self(g->cpu);
	for (i = 0; i < GEN_BATCH; i++)
		xsk_pkt_build(frames + i * g->pkt_size, g->pkt_size,
			      g->env->mac[XENV_DUT], g->env->mac[XENV_PEER],
			      1000, i);
	while (!cli_stop) {
		n = xenv_send_batch(g->env, frames, g->pkt_size, GEN_BATCH);
		if (n < 0) {
			g->err = n;
			break;
		}
		g->sent += n;
	}
	g->last_cpu = sched_getcpu();
	return NULL;
}

struct rx_totals {
	__u64 packets;
	__u64 start_ns, end_ns;
	__u64 cpu_ns;
	int cpu;
	struct xsk_statistics st;
};

static void print_interval(double t, __u64 pkts, double secs,
			   const struct xsk_statistics *a,
			   const struct xsk_statistics *b)
{
	printf("%7.2fs  rx %12.0f pps  XDP_STATISTICS: rx_dropped +%llu rx_ring_full +%llu fill_ring_empty +%llu\n",
	       t, pkts / secs,
	       (unsigned long long)(b->rx_dropped - a->rx_dropped),
	       (unsigned long long)(b->rx_ring_full - a->rx_ring_full),
	       (unsigned long long)(b->rx_fill_ring_empty_descs -
				    a->rx_fill_ring_empty_descs));
	fflush(stdout);
}

/* One batch off the socket under test: AF_XDP (xs) or AF_PACKET (afp) */
static __u32 rx_batch(struct xsk_socket *xs, struct afp_sock *afp, __u32 batch)
{
	__u32 pkts = 0;
	int n;

	if (afp) {
		n = afp_rx(afp, batch, 0, NULL, NULL);
		return n > 0 ? n : 0;
	}
	if (!xsk_rx_recycle(xs, batch, &pkts))
		xsk_kick_fill(xs);
	return pkts;
}

static void xs_stats(struct xsk_socket *xs, struct xsk_statistics *st)
{
	if (xs)
		xsk_socket_stats(xs, st);
	else
		memset(st, 0, sizeof(*st));
}

static void rxdrop(struct xsk_socket *xs, struct afp_sock *afp,
		   const struct config *cfg, struct rx_totals *tot)
{
	pid_t tid = syscall(SYS_gettid);
	__u64 next, last_pkts = 0;
	uint64_t cpu0, cpu1;
	struct xsk_statistics prev, cur;

	pin_self(cfg->app_cpu);
	xs_stats(xs, &prev);
	thread_cpu_ns(tid, &cpu0);
	tot->start_ns = mono_ns();
	next = tot->start_ns + 1000000000ULL;
	while (!cli_stop) {
		__u32 pkts = rx_batch(xs, afp, cfg->batch);

		tot->packets += pkts;
		if ((tot->packets & 0xff) < pkts || !pkts) {
			__u64 now = mono_ns();

			if (now >= next) {
				xs_stats(xs, &cur);
				if (!cfg->json)
					print_interval((now - tot->start_ns) / 1e9,
						       tot->packets - last_pkts,
						       (now - next + 1e9) / 1e9,
						       &prev, &cur);
				prev = cur;
				last_pkts = tot->packets;
				next += 1000000000ULL;
			}
			if (now >= tot->start_ns + cfg->duration * 1000000000ULL)
				break;
		}
	}
	tot->end_ns = mono_ns();
	thread_cpu_ns(tid, &cpu1);
	tot->cpu_ns = cpu1 - cpu0;
	tot->cpu = thread_last_cpu(tid);
	xs_stats(xs, &tot->st);
}

static void report(const struct config *cfg, const struct xsk_port *port,
		   const struct afp_sock *afp, const struct rx_totals *t,
		   const struct generator *g, double ghz)
{
	double secs = (t->end_ns - t->start_ns) / 1e9;
	double ns = t->packets ? (double)t->cpu_ns / t->packets : 0;
	char desc[256];

	if (afp)
		snprintf(desc, sizeof(desc), "%s: AF_PACKET %s", cfg->ifname,
			 afp_backend_name(afp_backend(afp)));
	else
		xsk_port_describe(port, desc, sizeof(desc));
	if (cfg->json) {
		struct json j;

		json_init(&j, stdout, 0);
		json_begin_object(&j);
		json_kv_string(&j, "tool", "xdpsock");
		json_kv_string(&j, "version", VERSION);
		json_kv_string(&j, "benchmark", "rxdrop");
		json_kv_string(&j, "interface", cfg->ifname);
		json_kv_string(&j, "socket", afp ? "af_packet" : "af_xdp");
		if (afp) {
			json_kv_string(&j, "backend",
				       afp_backend_name(afp_backend(afp)));
		} else {
			json_kv_string(&j, "driver", port->driver);
			json_kv_u64(&j, "queue", port->socks[0]->queue_id);
			json_kv_string(&j, "mode", xsk_mode_name(port->mode));
			json_kv_bool(&j, "zerocopy", port->socks[0]->zerocopy);
			json_kv_bool(&j, "need_wakeup",
				     port->socks[0]->need_wakeup);
		}
		json_kv_u64(&j, "batch", cfg->batch);
		json_kv_double(&j, "duration_s", secs);
		json_kv_u64(&j, "packets", t->packets);
		json_kv_double(&j, "pps", t->packets / secs);
		json_kv_s64(&j, "app_cpu", t->cpu);
		json_kv_u64(&j, "app_cpu_ns", t->cpu_ns);
		json_kv_double(&j, "app_ns_per_pkt", ns);
		json_kv_double(&j, "app_tsc_cycles_per_pkt", ns * ghz);
		json_kv_double(&j, "tsc_ghz", ghz);
		json_key(&j, "generator");
		json_string(&j, g ? "af_packet" : NULL);
		json_kv_u64(&j, "generator_sent", g ? g->sent : 0);
		if (!afp) {
			json_key(&j, "xdp_statistics");
			json_begin_object(&j);
			json_kv_u64(&j, "rx_dropped", t->st.rx_dropped);
			json_kv_u64(&j, "rx_invalid_descs",
				    t->st.rx_invalid_descs);
			json_kv_u64(&j, "rx_ring_full", t->st.rx_ring_full);
			json_kv_u64(&j, "rx_fill_ring_empty_descs",
				    t->st.rx_fill_ring_empty_descs);
			json_end_object(&j);
		}
		json_end_object(&j);
		json_finish(&j);
		return;
	}
	printf("\nxdpsock rxdrop: %s\n", desc);
	if (port && port->fallback[0])
		printf("  best-effort passed by: %s\n", port->fallback);
	printf("  packets       %llu in %.2f s: %.3f Mpps\n",
	       (unsigned long long)t->packets, secs, t->packets / secs / 1e6);
	printf("  app thread    CPU %d: %.1f ns/pkt, %.1f TSC cycles/pkt (TSC %.3f GHz; schedstat CPU time / packets;\n"
	       "                the thread busy-polls, so below line rate this is time per packet, not cost)\n",
	       t->cpu, ns, ns * ghz, ghz);
	if (g)
		printf("  generator     AF_PACKET on the peer, CPU %d: %llu sent; the receive path runs as NET_RX softirq on that CPU (default NAPI mode)\n",
		       g->last_cpu, (unsigned long long)g->sent);
	if (!afp)
		printf("  XDP_STATISTICS rx_dropped %llu, rx_ring_full %llu, rx_fill_ring_empty_descs %llu\n",
		       (unsigned long long)t->st.rx_dropped,
		       (unsigned long long)t->st.rx_ring_full,
		       (unsigned long long)t->st.rx_fill_ring_empty_descs);
}

int main(int argc, char **argv)
{
	struct config cfg = {
		.batch = 64,
		.pkt_size = 64,
		.duration = 10,
		.app_cpu = 1,
		.gen_cpu = 0,
	};
	struct generator gen = {};
	struct xsk_env *env = NULL;
	struct xsk_port *port = NULL;
	struct afp_sock *afp = NULL;
	struct rx_totals tot = {};
	char err[XSK_ERRLEN];
	pthread_t gen_th;
	bool gen_running = false;
	int ret = 1;
	double ghz;

	if (parse_args(argc, argv, &cfg))
		return 2;
	cli_stop_on_signals();
	if (geteuid()) {
		fprintf(stderr, "xdpsock: needs root (AF_XDP, XDP, network namespaces)\n");
		return 1;
	}
	ghz = tsc_ghz_measure(100);

	if (!cfg.ifname) {
		if (xenv_create(&env, NULL, err)) {
			fprintf(stderr, "xdpsock: test environment: %s\n", err);
			return 1;
		}
		cfg.ifname = env->ifname[XENV_DUT];
	}
	cfg.port.ifname = cfg.ifname;
	if (cfg.afpacket) {
		char why[512];

		if (afp_open(&afp, cfg.ifname, cfg.afp, err, why,
			     sizeof(why))) {
			fprintf(stderr, "xdpsock: --afpacket: %s\n", err);
			goto out;
		}
		if (!cfg.json)
			printf("xdpsock rxdrop on %s: AF_PACKET %s%s%s, %u s, batch %u\n",
			       cfg.ifname, afp_backend_name(afp_backend(afp)),
			       why[0] ? "; passed by: " : "", why,
			       cfg.duration, cfg.batch);
	} else if (xsk_port_open(&port, &cfg.port, err)) {
		fprintf(stderr, "xdpsock: %s\n", err);
		goto out;
	} else if (!cfg.json) {
		char desc[256];

		xsk_port_describe(port, desc, sizeof(desc));
		printf("xdpsock rxdrop on %s, %u s, batch %u\n", desc,
		       cfg.duration, cfg.batch);
	}
	if (env) {
		gen.env = env;
		gen.pkt_size = cfg.pkt_size;
		gen.cpu = cfg.gen_cpu;
		if (pthread_create(&gen_th, NULL, gen_thread, &gen)) {
			fprintf(stderr, "xdpsock: generator thread: %s\n",
				strerror(errno));
			goto out;
		}
		gen_running = true;
	}
	rxdrop(port ? port->socks[0] : NULL, afp, &cfg, &tot);
	cli_stop = 1;
	if (gen_running)
		pthread_join(gen_th, NULL);
	if (gen.err) {
		fprintf(stderr, "xdpsock: generator: %s\n", strerror(-gen.err));
		goto out;
	}
	report(&cfg, port, afp, &tot, env ? &gen : NULL, ghz);
	ret = 0;
out:
	cli_stop = 1;
	xsk_port_close(port);
	afp_close(afp);
	xenv_destroy(env);
	return ret;
}
