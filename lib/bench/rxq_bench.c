// SPDX-License-Identifier: GPL-2.0
/*
 * One XDP action, measured.  See rxq_bench.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "rxq_bench.h"
#include "cpustat.h"
#include "ethtool_stats.h"
#include "measure.h"
#include "profile.h"
#include "softirq_cost.h"
#include "icount_window.h"
#include "trafficgen.h"
#include "xsk_core.h"
#include "xsk_env.h"
#include "xsk_pkt.h"
#include "xdp_action.skel.h"

struct rxq_bench {
	struct rxq_opts o;
	struct xsk_env *env;
	struct xdp_action_bpf *skel;
	struct sirq *sirq;
	int link_fd;
	int ifindex;
	char ifname[IF_NAMESIZE];
	char ifdesc[64];
	char peer[IF_NAMESIZE];		/* own pair: the generator's side */
	pid_t napi_tid;			/* threaded NAPI's kthread */
	int ncpus;
};

const char *rxq_bench_ifdesc(const struct rxq_bench *b)
{
	return b->ifdesc;
}

bool rxq_bench_own_env(const struct rxq_bench *b)
{
	return b->env;
}

/* The largest frame a single-buffer native program takes on veth */
static __u32 veth_max_linear(void)
{
	long page = sysconf(_SC_PAGESIZE);

	/* SKB_WITH_OVERHEAD(PAGE_SIZE - VETH_XDP_HEADROOM) - ETH_HLEN, about */
	return page - 256 - 2 - 320 - 14;
}

static int attach(struct rxq_bench *b, char err[ERR_LEN])
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts);
	struct bpf_program *prog = b->o.frags ? b->skel->progs.xdp_action_frags :
						b->skel->progs.xdp_action;
	int ret;

	lopts.flags = b->o.skb_mode ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE;
	b->link_fd = bpf_link_create(bpf_program__fd(prog), b->ifindex, BPF_XDP,
				     &lopts);
	if (b->link_fd >= 0)
		return 0;
	ret = -errno;
	b->link_fd = -1;
	if (ret == -ERANGE || (ret == -EINVAL && !b->o.frags &&
			       b->env && b->env->mtu > veth_max_linear()))
		return err_set(err, ret, "%s: a single-buffer XDP program does not fit MTU %u in %s mode: use --frags (an xdp.frags program)",
				b->ifname, b->env ? b->env->mtu : 0,
				b->o.skb_mode ? "generic" : "native");
	if (ret == -EBUSY || ret == -EEXIST)
		return err_set(err, ret, "%s: another XDP program is attached",
				b->ifname);
	if (ret == -EOPNOTSUPP)
		return err_set(err, ret, "%s: the driver has no native XDP: use --skb-mode",
				b->ifname);
	return err_set(err, ret, "%s: attaching XDP in %s mode failed",
			b->ifname, b->o.skb_mode ? "generic" : "native");
}

static int load(struct rxq_bench *b, int redirect_ifindex, char err[ERR_LEN])
{
	__u32 key = 0;

	b->skel = xdp_action_bpf__open();
	if (!b->skel)
		return err_set(err, -errno, "opening the XDP program");
	b->skel->rodata->action = b->o.action;
	b->skel->rodata->readmem = b->o.readmem;
	b->skel->rodata->swapmac = b->o.swapmac;
	b->skel->rodata->loop_k = b->o.loop_k;
	b->skel->rodata->spin_n = b->o.spin_n;
	bpf_program__set_autoload(b->o.frags ? b->skel->progs.xdp_action :
				  b->skel->progs.xdp_action_frags, false);
	if (xdp_action_bpf__load(b->skel))
		return err_set(err, -errno, "loading the XDP program failed: libbpf's messages above say why");
	if (b->o.action == XDP_REDIRECT &&
	    bpf_map_update_elem(bpf_map__fd(b->skel->maps.tx_port), &key,
				&redirect_ifindex, BPF_ANY))
		return err_set(err, -errno, "devmap entry for ifindex %d",
				redirect_ifindex);
	return 0;
}

/*
 * Threaded NAPI: turn it on, find the dut's kthread (the one that was not
 * there before: every pair's dut is called veth0) and pin it to the CPU
 * the generator does not use.
 */
static int setup_threaded(struct rxq_bench *b, char err[ERR_LEN])
{
	char cmd[128], prefix[32];
	const char *const argv[] = { "ip", "netns", "exec",
				     b->env->ns[XENV_DUT], "sh", "-c", cmd,
				     NULL };
	pid_t before[256], after[256];
	char why[XSK_ERRLEN];
	int nb, na, i, j, ret;
	cpu_set_t set;

	snprintf(prefix, sizeof(prefix), "napi/%s-", b->ifname);
	nb = proc_threads(prefix, before, NULL, 256);
	snprintf(cmd, sizeof(cmd), "echo 1 > /sys/class/net/%s/threaded",
		 b->ifname);
	ret = xenv_run_or_fail(why, argv);
	if (ret)
		return err_wrap(err, ret, "%s: cannot turn threaded NAPI on: %s",
				b->ifname, why);
	na = proc_threads(prefix, after, NULL, 256);
	for (i = 0; i < na && !b->napi_tid; i++) {
		for (j = 0; j < nb && before[j] != after[i]; j++)
			;
		if (j == nb)
			b->napi_tid = after[i];
	}
	if (!b->napi_tid)
		return err_set(err, -ENOENT, "%s: no new NAPI kthread after turning threaded NAPI on",
				b->ifname);
	CPU_ZERO(&set);
	CPU_SET(b->o.gen_cpu ? 0 : 1, &set);
	if (sched_setaffinity(b->napi_tid, sizeof(set), &set))
		return err_set(err, -errno, "pinning the NAPI kthread %d",
				b->napi_tid);
	return 0;
}

int rxq_bench_open(struct rxq_bench **bp, const struct rxq_opts *o, char err[ERR_LEN])
{
	struct rxq_bench *b;
	int redirect_ifindex = 0, ret;
	char drv[32];

	*bp = NULL;
	if (o->action > XDP_REDIRECT)
		return err_wrap(err, -EINVAL, "action %u: not an XDP action",
				o->action);
	if (o->ifname && o->action == XDP_REDIRECT && !o->redirect_to)
		return err_wrap(err, -EINVAL, "XDP_REDIRECT on %s needs a target interface",
				o->ifname);
	b = calloc(1, sizeof(*b));
	if (!b)
		return err_set(err, -ENOMEM, "out of memory");
	b->o = *o;
	b->link_fd = -1;
	b->ncpus = libbpf_num_possible_cpus();
	if (b->ncpus > RXQ_MAX_CPUS)
		b->ncpus = RXQ_MAX_CPUS;
	if (!b->o.pkt_size)
		b->o.pkt_size = 64;
	if (!b->o.flows)
		b->o.flows = 1;
	if (!b->o.mtu)
		b->o.mtu = b->o.pkt_size > 1514 ? 9000 : 1500;

	if (!o->ifname) {
		struct xenv_opts eo = {
			.mtu = b->o.mtu,
			.peer_drop = true,
			.redirect_pair = o->action == XDP_REDIRECT && !o->dev[0],
			.dut_gro = o->skb_mode,
			.dev = { o->dev[0], o->dev[1] },
		};

		if (b->o.pkt_size > b->o.mtu + 14) {
			ret = err_wrap(err, -EINVAL, "frames of %u bytes do not fit MTU %u",
				       b->o.pkt_size, b->o.mtu);
			goto out;
		}
		ret = xenv_create(&b->env, &eo, err);
		if (ret)
			goto out;
		snprintf(b->ifname, sizeof(b->ifname), "%s",
			 b->env->ifname[XENV_DUT]);
		snprintf(b->peer, sizeof(b->peer), "%s",
			 b->env->ifname[XENV_PEER]);
		b->ifindex = b->env->ifindex[XENV_DUT];
		if (o->action == XDP_REDIRECT)
			redirect_ifindex = b->env->ifindex[o->dev[0] ? XENV_DUT :
								      XENV_DUT2];
	} else {
		snprintf(b->ifname, sizeof(b->ifname), "%s", o->ifname);
		b->ifindex = if_nametoindex(o->ifname);
		if (!b->ifindex) {
			ret = err_set(err, -ENODEV, "%s: no such interface",
				       o->ifname);
			goto out;
		}
		if (o->redirect_to) {
			redirect_ifindex = if_nametoindex(o->redirect_to);
			if (!redirect_ifindex) {
				ret = err_set(err, -ENODEV, "%s: no such interface (redirect target)",
					       o->redirect_to);
				goto out;
			}
		}
	}
	xsk_ifdriver(b->ifname, drv, sizeof(drv));
	snprintf(b->ifdesc, sizeof(b->ifdesc), "%s (%s)", b->ifname, drv);

	ret = load(b, redirect_ifindex, err);
	if (!ret)
		ret = attach(b, err);
	if (!ret && b->env && o->threaded_napi)
		ret = setup_threaded(b, err);
	if (!ret && !o->no_cost)
		ret = sirq_get(&b->sirq, err);
	if (ret)
		goto out;
	*bp = b;
	return 0;
out:
	rxq_bench_close(b);
	return ret;
}

void rxq_bench_close(struct rxq_bench *b)
{
	if (!b)
		return;
	sirq_put(b->sirq);
	if (b->link_fd >= 0)
		close(b->link_fd);
	xdp_action_bpf__destroy(b->skel);
	xenv_destroy(b->env);
	free(b);
}

int rxq_bench_snapshot(struct rxq_bench *b, struct rxq_snapshot *s)
{
	struct { __u64 packets, bytes, issue; } rec[RXQ_MAX_CPUS];
	struct sirq_cpu sc[RXQ_MAX_CPUS];
	int fd = bpf_map__fd(b->skel->maps.rxq_stats);
	__u32 q, cpu;

	memset(s, 0, sizeof(*s));
	s->t_ns = mono_ns();
	for (q = 0; q < RXQ_MAX_QUEUES; q++) {
		if (bpf_map_lookup_elem(fd, &q, rec))
			return -errno;
		for (cpu = 0; cpu < (__u32)b->ncpus; cpu++) {
			s->cpu_packets[cpu] += rec[cpu].packets;
			s->rxq_packets[q] += rec[cpu].packets;
			s->packets += rec[cpu].packets;
			s->issues += rec[cpu].issue;
		}
	}
	if (b->sirq && sirq_read(b->sirq, sc, b->ncpus) >= 0)
		for (cpu = 0; cpu < (__u32)b->ncpus; cpu++) {
			s->net_rx_ns[cpu] = sc[cpu].net_rx_ns;
			s->net_rx_foreign_ns[cpu] = sc[cpu].net_rx_foreign_ns;
			s->net_rx_count[cpu] = sc[cpu].net_rx_count;
		}
	if (b->napi_tid) {
		uint64_t ns;

		if (!thread_cpu_ns(b->napi_tid, &ns))
			s->napi_ns = ns;
	}

	return 0;
}

/* The generator's options for a run of this bench */
static void gen_setup(struct rxq_bench *b, struct tgen_thread *g, __u64 count,
		      __u64 duration_ns)
{
	memset(g, 0, sizeof(*g));
	g->o.pkt_size = b->o.pkt_size;
	g->o.flows = b->o.flows;
	g->o.count = count;
	g->o.duration_ns = duration_ns;
	g->o.rate_pps = b->o.rate_pps;
	g->o.cpu = b->o.gen_cpu;
}

/* What the kernel and the peer counted, cumulative */
struct kcounts {
	__u64 xdp_packets;	/* dut: ethtool, ethtool_xdp_packets_namings */
	int xdp_naming;		/* which of them, or -1: the driver has none */
	__u64 rx_drops;		/* dut: ethtool rx_queue_*_drops */
	__u64 netdev_rx;	/* dut: /proc/net/dev */
	__u64 ip_in;		/* dut netns: Ip InReceives */
	__u64 xmit_errors;	/* peer: ethtool tx_queue_*_xdp_xmit_errors */
	__u64 peer_rx;		/* peer programs on veth1 and veth3 */
};

static __u64 snmp_ip_in_receives(void)
{
	char hdr[1024], val[1024], *h, *v, *hs, *vs;
	unsigned long long n = 0;
	FILE *f = fopen("/proc/thread-self/net/snmp", "re");

	if (!f)
		return 0;
	while (fgets(hdr, sizeof(hdr), f) && fgets(val, sizeof(val), f)) {
		if (strncmp(hdr, "Ip:", 3))
			continue;
		h = strtok_r(hdr, " \n", &hs);
		v = strtok_r(val, " \n", &vs);
		while (h && v) {
			if (!strcmp(h, "InReceives"))
				n = strtoull(v, NULL, 10);
			h = strtok_r(NULL, " \n", &hs);
			v = strtok_r(NULL, " \n", &vs);
		}
		break;
	}
	fclose(f);
	return n;
}

static void kernel_counts(struct rxq_bench *b, struct kcounts *k)
{
	struct ethtool_stats_set set;
	struct netdev_counters nc = {};
	struct xsk_prog_counters pc;

	memset(k, 0, sizeof(*k));
	k->xdp_naming = -1;
	if (!ethtool_stats_read(b->ifname, &set)) {
		uint64_t xdp;

		k->xdp_naming = ethtool_stats_sum_named(&set,
							ethtool_xdp_packets_namings,
							&xdp);
		k->xdp_packets = xdp;
		k->rx_drops = ethtool_stats_sum(&set, "rx_queue_*_drops");
		ethtool_stats_free(&set);
	}
	if (!netdev_counters_read(b->ifname, &nc))
		k->netdev_rx = nc.rx_packets;
	k->ip_in = snmp_ip_in_receives();
	if (!b->env)
		return;
	if (!xsk_prog_counters_read(b->env->peer_skel, &pc))
		k->peer_rx = pc.rx_packets;
	if (!xenv_enter(b->env, XENV_PEER)) {
		if (!ethtool_stats_read(b->peer, &set)) {
			k->xmit_errors =
				ethtool_stats_sum(&set, "tx_queue_*_xdp_xmit_errors");
			ethtool_stats_free(&set);
		}
		xenv_enter(b->env, XENV_DUT);
	}
}

/* t_ns on mono_ns()'s clock; clock_nanosleep() takes no MONOTONIC_RAW */
static void sleep_until(__u64 t_ns)
{
	__u64 now;

	while ((now = mono_ns()) < t_ns) {
		struct timespec ts = {
			.tv_sec = (t_ns - now) / 1000000000ULL,
			.tv_nsec = (t_ns - now) % 1000000000ULL,
		};

		nanosleep(&ts, NULL);
	}
}

/*
 * Counted runs: what is in flight is done within a NAPI poll, but on a
 * loaded machine that poll can wait in ksoftirqd for a second or more.
 * Snapshot until the program has counted all that was sent, or the count
 * stood still for 1 s, or 5 s passed.
 */
static int settle(struct rxq_bench *b, const struct rxq_snapshot *s0,
		  __u64 sent, struct rxq_snapshot *cur)
{
	__u64 end = mono_ns() + 5000000000ULL, since = mono_ns(), last = 0;
	int ret;

	for (;;) {
		ret = rxq_bench_snapshot(b, cur);
		if (ret || cur->packets - s0->packets >= sent ||
		    mono_ns() >= end)
			return ret;
		if (cur->packets != last) {
			last = cur->packets;
			since = mono_ns();
		} else if (mono_ns() - since >= 1000000000ULL) {
			return 0;
		}
		sleep_until(mono_ns() + 1000000ULL);
	}
}

/* A counted run's window: every frame the generator sends is in it */
static int counted_window(struct rxq_bench *b, struct tgen_thread *g,
			  struct rxq_snapshot *s0, struct rxq_snapshot *cur,
			  char err[ERR_LEN])
{
	int ret;

	ret = rxq_bench_snapshot(b, s0);
	if (ret)
		return err_set(err, ret, "reading the program's counters");
	*cur = *s0;
	ret = tgen_thread_start(g, b->env, err);
	if (ret)
		return ret;
	tgen_thread_join(g);
	ret = settle(b, s0, g->res.sent, cur);
	if (ret)
		return err_set(err, ret, "reading the program's counters");
	return 0;
}

/* A timed run's window: duration_ns, with a tick every interval_ns */
static int timed_window(struct rxq_bench *b, __u64 duration_ns,
			__u64 interval_ns, rxq_tick_fn tick, void *ctx,
			const volatile int *stop, struct rxq_snapshot *s0,
			struct rxq_snapshot *cur, char err[ERR_LEN])
{
	struct rxq_snapshot prev;
	__u64 end, next;
	int ret;

	ret = rxq_bench_snapshot(b, s0);
	if (ret)
		return err_set(err, ret, "reading the program's counters");
	*cur = *s0;
	prev = *s0;
	end = s0->t_ns + duration_ns;
	next = interval_ns ? s0->t_ns + interval_ns : end;
	for (;;) {
		sleep_until(next < end ? next : end);
		ret = rxq_bench_snapshot(b, cur);
		if (ret)
			return err_set(err, ret, "reading the program's counters");
		if (interval_ns && tick)
			tick(&prev, cur, ctx);
		prev = *cur;
		if (cur->t_ns >= end || (stop && *stop))
			return 0;
		next += interval_ns;
	}
}

/* The window's figures, from its two snapshots and kernel counts */
static void result_fill(const struct rxq_bench *b, bool counted,
			const struct rxq_snapshot *s0,
			const struct rxq_snapshot *cur,
			const struct kcounts *k0, const struct kcounts *k1,
			const struct tgen_thread *g,
			const struct load_report *lr, struct rxq_result *r)
{
	int cpu;

	r->duration_ns = cur->t_ns - s0->t_ns;
	r->packets = cur->packets - s0->packets;
	r->issues = cur->issues - s0->issues;
	r->pps = r->packets * 1e9 / r->duration_ns;
	r->rx_cpu = 0;
	for (cpu = 0; cpu < b->ncpus; cpu++) {
		__u64 f = cur->net_rx_foreign_ns[cpu] - s0->net_rx_foreign_ns[cpu];
		__u64 d = cur->net_rx_ns[cpu] - s0->net_rx_ns[cpu] - f;

		r->foreign_net_rx_ns += f;
		r->net_rx_softirqs += cur->net_rx_count[cpu] -
				      s0->net_rx_count[cpu];
		r->cpu_ns += d;
		if (d > cur->net_rx_ns[r->rx_cpu] - s0->net_rx_ns[r->rx_cpu])
			r->rx_cpu = cpu;
	}
	if (b->napi_tid) {
		r->cpu_ns += cur->napi_ns - s0->napi_ns;
		r->rx_cpu = thread_last_cpu(b->napi_tid);
	}
	r->ns_per_pkt = r->packets ? (double)r->cpu_ns / r->packets : 0;
	r->ethtool_xdp_packets = k1->xdp_packets - k0->xdp_packets;
	r->ethtool_xdp_counter = k1->xdp_naming < 0 ? NULL :
				 ethtool_xdp_packets_namings[k1->xdp_naming];
	r->netdev_rx_packets = k1->netdev_rx - k0->netdev_rx;
	r->stack_ip_in = k1->ip_in - k0->ip_in;
	r->peer_rx = k1->peer_rx - k0->peer_rx;
	r->lost_xmit_errors = k1->xmit_errors - k0->xmit_errors;
	r->lost_rx_drops = k1->rx_drops - k0->rx_drops;
	r->gen_sent = g->res.sent;
	r->gen_cpu_ns = g->res.cpu_ns;
	r->gen_method = g->res.method;
	/*
	 * Counted runs: everything sent is in the window.  Timed runs: the
	 * generator runs past the window's edges, so count the kernel's drops
	 * inside it instead (the only places a frame can go before the
	 * program sees it).
	 */
	if (counted)
		r->lost = r->gen_sent > r->packets ? r->gen_sent - r->packets : 0;
	else
		r->lost = r->lost_xmit_errors + r->lost_rx_drops;
	r->foreign_frac = lr->worst_frac;
	r->disturbed = lr->disturbed ||
		       r->foreign_net_rx_ns > r->cpu_ns / 20;
}

int rxq_bench_run(struct rxq_bench *b, __u64 warmup_ns, __u64 duration_ns,
		  __u64 interval_ns, rxq_tick_fn tick, void *ctx,
		  const volatile int *stop, struct rxq_result *r, char err[ERR_LEN])
{
	bool counted = b->env && b->o.count;
	struct tgen_thread g;
	struct rxq_snapshot s0, cur;
	struct load_thread lt = { .tid = 0, .cpu = b->o.gen_cpu };
	struct load_snap *l0, *l1;
	struct load_report lr;
	struct kcounts k0, k1;
	__u64 window;
	int ret;

	memset(r, 0, sizeof(*r));
	if (counted) {
		/* Exactly count frames: the window holds them all */
		warmup_ns = 0;
		duration_ns = 0;
	}
	l0 = calloc(2, sizeof(*l0));
	if (!l0)
		return err_set(err, -ENOMEM, "out of memory");
	l1 = l0 + 1;
	gen_setup(b, &g, b->o.count, 0);
	if (b->env && !counted) {
		/*
		 * A cap: the window stops it when it is over.  The generator
		 * times its run on CLOCK_MONOTONIC, the window on
		 * CLOCK_MONOTONIC_RAW: a duration of exactly warmup + window
		 * could end the traffic before the window ends
		 */
		g.o.duration_ns = warmup_ns + duration_ns + 60000000000ULL;
		ret = tgen_thread_start(&g, b->env, err);
		if (ret) {
			free(l0);
			return ret;
		}
		sleep_until(mono_ns() + warmup_ns);
		lt.tid = g.tid;
	}
	kernel_counts(b, &k0);
	load_snap_take(l0, b->sirq, &lt, lt.tid ? 1 : 0);
	if (b->o.prof)
		prof_enable(b->o.prof);
	window = icount_window_start();
	if (counted)
		ret = counted_window(b, &g, &s0, &cur, err);
	else
		ret = timed_window(b, duration_ns, interval_ns, tick, ctx, stop,
				   &s0, &cur, err);
	icount_window_stop(window);
	if (b->o.prof)
		prof_disable(b->o.prof);
	kernel_counts(b, &k1);
	load_snap_take(l1, b->sirq, &lt, lt.tid ? 1 : 0);
	/* Counted runs start the generator inside the window: not checked */
	memset(&lr, 0, sizeof(lr));
	if (!counted)
		load_check(l0, l1, &lt, lt.tid ? 1 : 0, 0.05, &lr);
	free(l0);
	if (b->env && !counted) {
		g.stop = 1;
		tgen_thread_join(&g);
	}
	if (b->env && g.ret)
		return err_wrap(err, g.ret, "generator: %s", g.err);
	if (ret)
		return ret;
	r->window = window;
	result_fill(b, counted, &s0, &cur, &k0, &k1, &g, &lr, r);
	return 0;
}

int rxq_bench_prog_cost(struct rxq_bench *b, __u32 repeat, double *ns)
{
	unsigned char frame[1514];
	struct xdp_md ctx_in = { .data_end = 64 };

	LIBBPF_OPTS(bpf_test_run_opts, t,
		    .data_in = frame,
		    .data_size_in = 64,
		    .ctx_in = &ctx_in,
		    .ctx_size_in = sizeof(ctx_in),
		    .repeat = repeat);
	struct bpf_program *prog = b->o.frags ? b->skel->progs.xdp_action_frags :
						b->skel->progs.xdp_action;
	__u32 len = b->o.pkt_size < sizeof(frame) ? b->o.pkt_size : sizeof(frame);
	unsigned char mac[6] = { 2, 0, 0, 0, 0, 1 };
	__u32 probe;

	xsk_pkt_build(frame, len, mac, mac, 1000, 0);
	t.data_size_in = len;
	ctx_in.data_end = len;
	/* a probe first: a program slowed on purpose (-K) stays in budget */
	probe = repeat < RXQ_PROG_COST_PROBE ? repeat : RXQ_PROG_COST_PROBE;
	t.repeat = probe;
	if (bpf_prog_test_run_opts(bpf_program__fd(prog), &t))
		return -errno;
	if (repeat > probe) {
		__u64 fit = RXQ_PROG_COST_BUDGET_NS / (t.duration ?: 1);

		t.repeat = fit < probe ? probe : fit < repeat ? fit : repeat;
		if (bpf_prog_test_run_opts(bpf_program__fd(prog), &t))
			return -errno;
	}
	*ns = t.duration;
	return 0;
}
