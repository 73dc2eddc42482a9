/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One XDP action on one interface, measured: the program of
 * lib/bench/xdp_action.bpf.c attached in native or generic mode, traffic from the
 * live-frames generator on the peer of the project's veth pair (or whatever
 * arrives on an interface the user names), and the receive path's CPU time
 * per packet from the NET_RX softirq tracepoints.
 *
 * Used by xdp_rxq_info (one point, printed every interval) and by the
 * sweep (many points, repeated).
 */
#ifndef RXQ_BENCH_H
#define RXQ_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include <linux/bpf.h>	/* enum xdp_action */

#include "err.h"
#include "xdp_action_name.h"

#define RXQ_MAX_CPUS	64
#define RXQ_MAX_QUEUES	64

struct rxq_opts {
	const char *ifname;	/* NULL: the project's own veth pair */
	__u32 action;		/* XDP_DROP, XDP_TX, XDP_PASS, XDP_REDIRECT, XDP_ABORTED */
	bool skb_mode;		/* generic XDP */
	bool readmem;
	bool swapmac;
	bool frags;		/* load the xdp.frags variant */
	__u32 loop_k;		/* injected cost, bpf_loop() iterations */
	__u32 spin_n;		/* finer injected cost, inline (<= 4096) */
	const char *redirect_to;/* with ifname: the devmap target */
	/* own veth pair only */
	__u32 pkt_size;		/* frame length without FCS; default 64 */
	__u32 flows;		/* default 1 */
	__u64 rate_pps;		/* 0: as fast as the generator goes */
	__u32 mtu;		/* default 1500, or 9000 for frames above 1514 */
	bool threaded_napi;	/* NAPI in a kthread pinned to the other CPU */
	int gen_cpu;		/* default 0 */
	__u64 count;		/* send exactly this many, then stop */
	/*
	 * Two connected interfaces (dut, peer: a NIC pair) to make the own
	 * environment of instead of a veth pair; XDP_REDIRECT then sends out
	 * of the dut itself, towards the peer
	 */
	const char *dev[2];
	bool no_cost;		/* rates only: no softirq tracepoints */
	/*
	 * Sample the CPUs in each measured window (lib/measure/profile.h): enabled
	 * at the window's start, disabled at its end; the caller then
	 * collects rxq_result.rx_cpu's samples with prof_collect()
	 */
	struct prof *prof;
};

/* Cumulative counts at one instant */
struct rxq_snapshot {
	__u64 t_ns;				/* CLOCK_MONOTONIC_RAW */
	__u64 packets;				/* counted by the program */
	__u64 issues;				/* action failed (redirect) */
	__u64 cpu_packets[RXQ_MAX_CPUS];
	__u64 rxq_packets[RXQ_MAX_QUEUES];
	__u64 net_rx_ns[RXQ_MAX_CPUS];		/* softirq tracepoints */
	__u64 net_rx_foreign_ns[RXQ_MAX_CPUS];	/* of them, others' traffic */
	__u64 net_rx_count[RXQ_MAX_CPUS];	/* NET_RX softirqs run */
	__u64 napi_ns;				/* threaded NAPI's kthread */
};

struct rxq_result {
	__u64 duration_ns;
	__u64 packets;
	double pps;
	/* receive path: NET_RX softirq (or NAPI thread), less foreign */
	__u64 cpu_ns;
	__u64 foreign_net_rx_ns;	/* NET_RX in others' context */
	__u64 net_rx_softirqs;		/* NET_RX softirqs run (all, foreign
					 * included) */
	double ns_per_pkt;
	int rx_cpu;		/* the CPU where most of it ran */
	__u64 issues;
	/* the generator */
	__u64 gen_sent;
	__u64 gen_cpu_ns;
	const char *gen_method;
	/* what the kernel counted, for cross-checks */
	__u64 ethtool_xdp_packets;	/* dut: the driver's own XDP count */
	const char *ethtool_xdp_counter;	/* its name (a pattern), or NULL:
						 * the driver keeps none
						 */
	__u64 netdev_rx_packets;	/* dut: /proc/net/dev */
	__u64 stack_ip_in;		/* dut netns: Ip InReceives (XDP_PASS) */
	__u64 peer_rx;			/* back at the peer (XDP_TX, redirect) */
	/* counted runs: sent - counted; timed runs: the two below */
	__u64 lost;
	__u64 lost_xmit_errors;		/* peer: tx_queue_*_xdp_xmit_errors */
	__u64 lost_rx_drops;		/* dut: rx_queue_*_drops */
	/* foreign load in the window */
	double foreign_frac;
	bool disturbed;
	/* the window's id for the exact mode's plugin (icount_window.h) */
	__u64 window;
};

struct rxq_bench;

int rxq_bench_open(struct rxq_bench **bp, const struct rxq_opts *o, char err[ERR_LEN]);
void rxq_bench_close(struct rxq_bench *b);

/* Where the program is attached, for reports: "veth0 (veth)" */
const char *rxq_bench_ifdesc(const struct rxq_bench *b);
bool rxq_bench_own_env(const struct rxq_bench *b);

int rxq_bench_snapshot(struct rxq_bench *b, struct rxq_snapshot *s);

/*
 * Run traffic (own pair) for duration_ns after warmup_ns, and measure; with
 * rxq_opts.count, send exactly that many frames and measure all of them.
 * Every interval_ns (0: never) tick() is called with the snapshots at the
 * interval's start and end.  *stop ends it early.
 */
typedef void (*rxq_tick_fn)(const struct rxq_snapshot *a,
			    const struct rxq_snapshot *b, void *ctx);
int rxq_bench_run(struct rxq_bench *b, __u64 warmup_ns, __u64 duration_ns,
		  __u64 interval_ns, rxq_tick_fn tick, void *ctx,
		  const volatile int *stop, struct rxq_result *r, char err[ERR_LEN]);

/*
 * The program's own cost: BPF_PROG_RUN, ns per run.  A probe of
 * RXQ_PROG_COST_PROBE runs first; then repeat runs, or as many fewer as
 * fit in RXQ_PROG_COST_BUDGET_NS, so that a program slowed on purpose
 * (--loop) is measured in bounded time
 */
#define RXQ_PROG_COST_PROBE	100
#define RXQ_PROG_COST_BUDGET_NS	500000000ULL
int rxq_bench_prog_cost(struct rxq_bench *b, __u32 repeat, double *ns);

#endif /* RXQ_BENCH_H */
