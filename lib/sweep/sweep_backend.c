// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's backends (lib/sweep/sweep.h): an XDP action's point on lib/bench/rxq_bench,
 * and rxdrop on a receive stack, AF_XDP or AF_PACKET, on lib/bench/xsk_bench (as
 * xdpsock measures it)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "profile.h"
#include "sweep.h"

/* --- an XDP action's point --- */

static int xdp_open(const struct sweep_cfg *c, struct sweep_point *p)
{
	struct rxq_opts o = {
		.action = p->action,
		.skb_mode = p->skb_mode,
		.pkt_size = p->size,
		.flows = p->flows,
		.frags = p->size > 1514,
		.threaded_napi = c->threaded,
		.loop_k = c->loop_k,
		.spin_n = c->spin_n,
		.count = c->count,
		.rate_pps = c->rate,
		.dev = { c->dev[0], c->dev[1] },
		.prof = c->prof,
	};
	struct rxq_bench *b;
	int ret;

	ret = rxq_bench_open(&b, &o, p->err);
	if (ret)
		return ret;
	p->bench = b;
	/*
	 * exact under an instruction clock: fewer repeats do (and 10^6 take
	 * seconds of an emulated CPU)
	 */
	if (rxq_bench_prog_cost(b, c->icount ? 10000 : 1000000, &p->prog_ns))
		p->prog_ns = -1;
	return 0;
}

static int xdp_warm(const struct sweep_cfg *c, struct sweep_point *p,
		    struct sweep_run *r)
{
	(void)c;
	return rxq_bench_run(p->bench, 0, 0, 0, NULL, NULL, &cli_stop, &r->xdp,
			     p->err);
}

static int xdp_run(const struct sweep_cfg *c, struct sweep_point *p,
		   struct sweep_run *run)
{
	return rxq_bench_run(p->bench, c->warmup * 1e9, c->duration * 1e9, 0,
			     NULL, NULL, &cli_stop, &run->xdp, run->err);
}

/*
 * The profile takes the windows the result keeps: not one that is
 * disturbed and will be redone (the next window's start empties the
 * rings; the window's end stopped the sampling)
 */
static void xdp_kept(const struct sweep_cfg *c, struct sweep_point *p,
		     const struct sweep_run *run)
{
	int n;

	if (!p->prof)
		return;
	n = prof_collect(c->prof, run->xdp.rx_cpu, p->prof);
	if (n < 0)
		fprintf(stderr, "\nxdp_sweep: --profile: reading the samples: %s\n",
			strerror(-n));
}

static void xdp_close(struct sweep_point *p)
{
	rxq_bench_close(p->bench);
	p->bench = NULL;
}

static void xdp_fig(const struct sweep_cfg *c, const struct sweep_run *run,
		    struct sweep_fig *f)
{
	const struct rxq_result *r = &run->xdp;

	(void)c;
	*f = (struct sweep_fig) {
		.ns = r->ns_per_pkt,
		.mpps = r->pps / 1e6,
		.sent = r->gen_sent,
		.counted = r->packets,
		.lost = r->lost,
		.xmit_errors = r->lost_xmit_errors,
		.rx_drops = r->lost_rx_drops,
		.disturbed = r->disturbed,
		.gen_method = r->gen_method,
	};
}

static __u64 xdp_count(const struct sweep_cfg *c)
{
	return c->count;
}

static __u64 xdp_rate(const struct sweep_cfg *c)
{
	return c->rate;
}

const struct sweep_backend sweep_be_xdp = {
	.name = "xdp",
	.open = xdp_open,
	.warm = xdp_warm,
	.run = xdp_run,
	.kept = xdp_kept,
	.close = xdp_close,
	.fig = xdp_fig,
	.count = xdp_count,
	.rate = xdp_rate,
};

/* --- rxdrop on a receive stack --- */

/* The stacks' frames a counted run, 0 for timed runs */
static __u64 stack_count(const struct sweep_cfg *c)
{
	return c->rxdrop_count ?: c->count;
}

static __u64 stack_rate(const struct sweep_cfg *c)
{
	return c->rxdrop_rate ?: c->rate;
}

/*
 * Counted runs: the application waits in poll() as soon as its ring is
 * empty (no spin first: poll_spin_us 0), so that its CPU time is its work
 * (and, on one CPU, it leaves the CPU to the generator)
 */
static int stack_open(const struct sweep_cfg *c, struct sweep_point *p,
		      struct xskb_opts *o)
{
	struct xsk_bench *b;
	int ret;

	o->kind = XSKB_RXDROP;
	o->pkt_size = p->size;
	o->count = stack_count(c);
	o->rate_pps = stack_rate(c);
	o->poll = stack_count(c) > 0;
	o->dev[0] = c->dev[0];
	o->dev[1] = c->dev[1];
	o->app_cpu = -1;
	o->gen_cpu = 0;
	ret = xskb_open(&b, o, p->err);
	if (!ret)
		p->bench = b;
	return ret;
}

/* AF_XDP in the row's bind mode, with the matrix's injected cost */
static int af_xdp_open(const struct sweep_cfg *c, struct sweep_point *p)
{
	struct xskb_opts o = {
		.port = { .mode = p->stk->xmode },
		.spin_n = c->spin_n,
		/* the loop of the sweeps before XSKB_LINE: comparable rows */
		.rx_read_only = true,
	};

	return stack_open(c, p, &o);
}

/* AF_PACKET through the row's backend: TPACKET_V3, TPACKET_V2, recvmmsg */
static int af_packet_open(const struct sweep_cfg *c, struct sweep_point *p)
{
	struct xskb_opts o = { .afpacket = true, .afp = p->stk->afp };

	return stack_open(c, p, &o);
}

static int stack_run(const struct sweep_cfg *c, struct sweep_point *p,
		     struct sweep_run *run)
{
	/* counted: no limit but the bench's own (nothing moves for 5 s) */
	return xskb_run(p->bench, c->warmup * 1e9,
			stack_count(c) ? 0 : c->duration * 1e9, 0, NULL, NULL,
			&cli_stop, &run->stk, run->err);
}

static int stack_warm(const struct sweep_cfg *c, struct sweep_point *p,
		      struct sweep_run *r)
{
	int ret = stack_run(c, p, r);

	if (ret)
		return err_wrap(p->err, ret, "warm-up: %s", r->err);
	return 0;
}

static void stack_close(struct sweep_point *p)
{
	xskb_close(p->bench);
	p->bench = NULL;
}

/* A counted rxdrop run loses what was sent and not received */
static void stack_fig(const struct sweep_cfg *c, const struct sweep_run *run,
		      struct sweep_fig *f)
{
	const struct xskb_result *r = &run->stk;

	*f = (struct sweep_fig) {
		.ns = r->net_rx_ns_per_pkt,
		.mpps = r->pps / 1e6,
		.app_ns = r->app_ns_per_pkt,
		.sent = r->gen_sent,
		.counted = r->packets,
		.lost = !stack_count(c) ? r->drops :
			r->gen_sent > r->packets ? r->gen_sent - r->packets : 0,
		.disturbed = r->disturbed,
	};
}

/* What the two receive stacks' backends share */
#define STACK_BACKEND							\
	.stack = true, .warm = stack_warm, .run = stack_run,		\
	.close = stack_close, .fig = stack_fig, .count = stack_count,	\
	.rate = stack_rate

const struct sweep_backend sweep_be_af_xdp = {
	.name = "af_xdp", .open = af_xdp_open, STACK_BACKEND,
};

const struct sweep_backend sweep_be_af_packet = {
	.name = "af_packet", .open = af_packet_open, STACK_BACKEND,
};
