/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xdpsock's benchmarks, measured: rxdrop, txonly and l2fwd on one AF_XDP
 * socket, and rxdrop on an AF_PACKET socket (TPACKET_V3, TPACKET_V2 or
 * recvmmsg) for comparison.  Used by xdpsock (one run, printed every
 * second) and by xdp_sweep --stacks (many runs, interleaved).
 *
 * On the project's own veth pair (no ifname) traffic comes from the
 * live-frames generator on the peer (trafficgen.h) in a thread of its own,
 * and what the dut sends back (txonly, l2fwd) is counted and checked where
 * it arrives, by xskb_peer (xsk_bench.bpf.c) on the peer veth: completions
 * are not deliveries.  The application's loop runs in the calling thread.
 */
#ifndef XSK_BENCH_H
#define XSK_BENCH_H

#include <stdbool.h>
#include <linux/types.h>

#include "afpacket.h"
#include "xsk_bench_common.h"
#include "err.h"
#include "xsk_core.h"

enum xskb_kind {
	XSKB_RXDROP,
	XSKB_TXONLY,
	XSKB_L2FWD,
};

const char *xskb_kind_name(enum xskb_kind k);

/* Busy polling's defaults: SO_BUSY_POLL usecs; the budget is the batch */
#define XSKB_BUSY_POLL_US	20
/*
 * poll(): how long the loop spins on an empty RX ring before it sleeps, in
 * microseconds (-p, --poll-spin-us).  A sleeper's wake-up is paid by the
 * waker, the NAPI: on veth 0.2-6 us of its CPU a wake-up here
 * (Documentation/xdpsock.rst, "poll() and the spin"), so a loop that
 * sleeps whenever it has emptied the ring moves the cost of its sleep to
 * the path it measures.
 * This is the spin net.core.busy_poll gives poll() on a socket with a NAPI
 * id, which veth's AF_XDP sockets lack; the same as -B's SO_BUSY_POLL.
 */
#define XSKB_POLL_SPIN_US	XSKB_BUSY_POLL_US
/*
 * rxdrop's and l2fwd's UMEM frames unless asked (--umem-frames), spinning,
 * busy-polling, or in poll() with a spin: this many, or 4 batches if more
 * (in poll() without a spin the fill ring's size: the loop sleeps between
 * bursts of traffic, and 256 frames last 1.3 ms at 200 kpps, less than a
 * wake-up can take on a busy CPU).  In copy mode every frame is a
 * destination of the NAPI's copy (and in l2fwd the source of the TX
 * path's); with 4096-byte chunks each frame's first data line falls in the
 * same cache sets, so the fill + TX ring sizes' 4096 frames (6144 with the
 * default rings) miss L2 on every copy where 256 stay in it
 * (Documentation/xdpsock.rst, "UMEM frames")
 */
#define XSKB_RX_FRAMES	256
/*
 * Copy mode sends at most the socket's TX budget of descriptors a sendto()
 * (net/xdp/xsk.c __xsk_generic_xmit(): TX_BATCH_SIZE, 32, unless
 * XDP_MAX_TX_SKB_BUDGET raised it, to at most the TX ring's size).  txonly
 * takes the TX ring's size where the kernel has the option and kicks once
 * that many descriptors wait, or the ring or its frames run short of a
 * batch: on veth the syscall, not the frame, is what a sender can save
 * (Documentation/xdpsock.rst, "TX budget")
 */
#define XSKB_TX_BUDGET_KERNEL	32
/*
 * rxdrop's hold (--rx-hold-us): after a turn that took less than a batch
 * the loop waits this long before it looks at the RX ring again.  A loop
 * that takes every descriptor as soon as it is published reads the ring's
 * producer and descriptor lines while the NAPI's CPU still writes them, so
 * each publication costs that CPU the lines back; in generic mode the
 * kernel publishes every frame (xsk_generic_rcv() flushes per skb) and a
 * spinning loop took 1.1 frames a turn (Documentation/xdpsock.rst, "The
 * hold")
 */
#define XSKB_RX_HOLD_US		5
/*
 * rxdrop's lines: before it reads a batch, the loop stores into each
 * whole cache line of the batch's RX descriptors the value one of them
 * already holds.  The line is then Modified in this CPU's cache alone,
 * not shared between it and the NAPI's CPU, and the kernel's store of a
 * descriptor into it one ring later does not hold that CPU's next locked
 * instruction for as long (in copy mode the page_pool ring's spin lock
 * follows every frame): on veth in native mode about a fifth more frames
 * a second, in generic mode no change (Documentation/xdpsock.rst, "Native
 * mode: the descriptor lines").  The slots are the application's until it
 * releases them, so the store races with nothing.
 */
#define XSKB_LINE		64
/* What the kernel's napi documentation suggests with SO_PREFER_BUSY_POLL */
#define XSKB_DEFER_HARD_IRQS	2
#define XSKB_GRO_FLUSH_TIMEOUT	200000

struct xskb_opts {
	enum xskb_kind kind;
	const char *ifname;	/* NULL: the project's veth pair */
	/*
	 * Without ifname: two connected interfaces (a NIC pair) instead of
	 * the veth pair, moved into the pair's namespaces (xenv_opts.dev);
	 * the generator sends out of dev[1] towards dev[0]
	 */
	const char *dev[2];
	/*
	 * AF_XDP (ifname, and unless no_prog the program, are set by open:
	 * lib/bench/xsk_bench_redirect.bpf.c's)
	 */
	struct xsk_port_opts port;
	__u32 spin_n;		/* xsk_spin.h iterations per frame, 0 - XSK_SPIN_MAX */
	bool afpacket;		/* rxdrop on AF_PACKET instead */
	enum afp_backend afp;
	__u32 batch;		/* descriptors per ring operation; default 64 */
	__u32 pkt_size;		/* generator's frames (rxdrop, l2fwd), the
				 * app's (txonly); default 64 */
	__u64 count;		/* own pair: exactly this many frames (from
				 * the generator, or the app's in txonly) */
	__u64 rate_pps;		/* generator's pace; 0: full speed */
	int app_cpu;		/* -1: the other CPU than gen_cpu */
	int gen_cpu;		/* -1: 0 */
	bool busy_poll;		/* SO_PREFER_BUSY_POLL, SO_BUSY_POLL, budget */
	__u32 busy_poll_us;	/* default XSKB_BUSY_POLL_US */
	bool poll;		/* wait in poll() when the RX ring is empty */
	/* poll: only once it has been empty this long, us (0: at once) */
	__u32 poll_spin_us;	/* xdpsock's default XSKB_POLL_SPIN_US */
	/*
	 * txonly, l2fwd in copy mode: XDP_MAX_TX_SKB_BUDGET, 32..the TX
	 * ring's size; 0: txonly the TX ring's size (the kernel's 32 where it
	 * lacks the option), l2fwd the kernel's
	 */
	__u32 tx_budget;
	/*
	 * AF_XDP rxdrop: after a turn that took less than a batch, look at
	 * the RX ring again only this many microseconds later (0: at once;
	 * xdpsock's default XSKB_RX_HOLD_US)
	 */
	__u32 rx_hold_us;
	/*
	 * AF_XDP rxdrop: only read the RX descriptors.  By default the loop
	 * first takes each whole descriptor line of its batch for writing
	 * (XSKB_LINE, xskb_rx_holds())
	 */
	bool rx_read_only;
	bool verify;		/* check every payload byte: the app in rxdrop,
				 * the peer's program in txonly and l2fwd */
	bool no_cost;		/* no NET_RX softirq tracepoints */
	__u32 stall_ms;		/* the app starts this long after the
				 * generator: its rings overflow (tests) */
	/*
	 * One-way latency (own pair, AF_XDP rxdrop and l2fwd): the
	 * generator stamps each frame with CLOCK_MONOTONIC as it makes it
	 * (trafficgen_common.h, TGEN_STAMP_OFF); the loop reads the clock
	 * once per batch, when it has taken the batch's descriptors off the
	 * RX ring and before it looks at them, and keeps every frame's
	 * difference (lib/base/hist.h).  Frames of TGEN_STAMP_MIN_LEN bytes
	 * at least, no verify (the stamp is in the payload).
	 */
	bool latency;
	/*
	 * With latency: spin this long between taking a batch and reading
	 * the clock, a delay every frame's latency must show (the method's
	 * test)
	 */
	__u32 rx_delay_ns;
	/*
	 * Sample the CPUs in the measured window (lib/measure/profile.h): enabled
	 * where the window opens, disabled when the loop ends; the caller
	 * then collects with prof_collect_cpus()
	 */
	struct prof *prof;
};

/* Cumulative counts at one instant, for the per-interval lines */
struct xskb_snap {
	__u64 t_ns;		/* CLOCK_MONOTONIC_RAW */
	__u64 rx_packets;	/* received by the app */
	__u64 tx_packets;	/* queued for TX by the app */
	__u64 tx_completed;	/* completion ring entries (descriptors) */
	__u64 delivered;	/* counted by the peer's program */
	struct xdp_statistics st;
};

/*
 * Where every frame of a run on the own veth pair went, each counted in
 * exactly one bucket (xsk_bench.c, "Which counter counts what", says which
 * kernel counter is which bucket and which ones overlap).  The receive side
 * (rxdrop, l2fwd: the generator's frames):
 *
 *   rx_sent = received + lost_peer_xmit_errors + lost_dut_veth_drops
 *	       + sock_fill_ring_empty + sock_rx_dropped_other
 *	       + sock_rx_ring_full + sock_rx_invalid + rx_ring_left
 *	       + rx_unaccounted
 *
 * and the sending side (txonly, l2fwd: what the app put on its TX ring):
 *
 *   tx_queued = delivered + tx_invalid + tx_not_completed
 *	       + lost_dut_tx_drops + lost_peer_rx_drops + tx_unaccounted
 *
 * A run balances when both unaccounted are 0.
 */
struct xskb_acct {
	bool rx_known;		/* own pair, generator, no warm-up */
	bool tx_known;		/* own pair's peer counted what arrived */
	__u64 rx_sent;		/* the generator's frames */
	__u64 received;		/* taken off the RX ring by the app */
	__u64 lost_peer_xmit_errors;	/* veth1 tx_queue_*_xdp_xmit_errors */
	__u64 lost_dut_veth_drops;	/* veth0 rx_queue_*_drops that are
					 * not the socket's (below) */
	__u64 sock_fill_ring_empty;	/* rx_fill_ring_empty_descs */
	__u64 sock_rx_dropped_other;	/* rx_dropped - the above: too long,
					 * no buffer; AF_PACKET: tp_drops */
	__u64 sock_rx_ring_full;	/* rx_ring_full */
	__u64 sock_rx_invalid;		/* rx_invalid_descs */
	__u64 rx_ring_left;		/* arrived, still on the RX ring (or
					 * AF_PACKET's) when the run ended */
	__s64 rx_unaccounted;
	__u64 tx_queued;		/* packets put on the TX ring */
	__u64 delivered;		/* counted by xskb_peer */
	__u64 tx_invalid;		/* tx_invalid_descs */
	__u64 tx_not_completed;		/* packets not completed at the end */
	__u64 lost_dut_tx_drops;	/* veth0 tx_dropped: veth1's ring
					 * was full */
	__u64 lost_peer_rx_drops;	/* veth1 rx_queue_*_drops */
	__s64 tx_unaccounted;
	/* the raw veth counters the buckets come from */
	__u64 veth0_rx_drops;		/* all of rx_queue_*_drops */
	bool veth_counts_socket;	/* veth0's drops include the socket's
					 * (native XDP on veth) */
};

/*
 * The application loop's busy/idle split, in the window (as OVS's
 * pmd-stats-show): an iteration is one call of the kind's batch function
 * and what follows it in the loop; it is busy when it found work (frames
 * received or sent, TX completions taken, or with -B a recvfrom() that
 * put frames on the RX ring).  The TSC is read once per iteration, at its
 * top, before the rings are looked at: the interval to the next read is
 * that iteration's, busy or idle.  poll()'s wait (-p) is in idle ones.
 */
struct xskb_loop {
	__u64 iterations;
	__u64 busy_iterations;
	__u64 batches;		/* iterations that moved frames (the busy
				 * ones less those that took completions only) */
	__u64 busy_tsc;		/* TSC cycles in busy iterations */
	__u64 idle_tsc;		/* and in the others */
	__u64 frames;		/* the loop's: taken off the RX ring (rxdrop,
				 * l2fwd) or queued for TX (txonly) */
	__u64 syscalls;		/* the loop's sendto(), recvfrom(), poll()
				 * and AF_PACKET's recvmmsg() */
};

/* One-way latency in the window (xskb_opts.latency), in ns */
struct xskb_latency {
	bool known;		/* asked for, and frames came */
	__u64 frames;		/* packets whose stamp was read: every one
				 * the app received in the window */
	__u64 negative;		/* stamps later than the clock's read (the
				 * CPUs' clocks apart), counted as 0 */
	__u64 min, p50, p90, p99, p999, max;
};

struct xskb_result {
	__u64 window;		/* the window's id, icount_window.h */
	__u64 window_end_ns;	/* counted runs: mono_ns() of the last frame
				 * that moved; else 0 (the loop's end) */
	__u64 duration_ns;	/* the window: counted runs, from its start
				 * to the last frame that moved (not the
				 * wait for late ones after it) */
	__u64 packets;		/* what the benchmark counts: received
				 * (rxdrop), delivered at the peer (txonly,
				 * l2fwd on the own pair), else completed */
	const char *counted_at;	/* "app rx", "peer", "tx completions" */
	bool af_xdp;		/* an AF_XDP socket's (else AF_PACKET's) */
	double pps;
	struct xskb_snap d;	/* the window's deltas */
	__u64 drops;		/* the socket's: XDP_STATISTICS rx_dropped +
				 * rx_ring_full, or AF_PACKET's
				 * PACKET_STATISTICS tp_drops */
	/* own pair: where every frame went (drops is part of it) */
	struct xskb_acct acct;
	__u64 rx_bytes;		/* with verify (rxdrop) */
	__u64 rx_bad;		/* with verify: wrong length or bytes */
	__u64 tx_kicks, rx_kicks;
	__u64 rx_line_stores;	/* rxdrop's stores into RX lines (XSKB_LINE) */
	struct xskb_loop loop;
	/* the application thread */
	__u64 app_cpu_ns;
	__u64 app_softirq_ns;	/* softirqs (every vector) that ran on its
				 * time: in app_cpu_ns too */
	int app_cpu;		/* where it ran last */
	double app_ns_per_pkt;
	bool disturbed;		/* the thread, which never sleeps (no poll),
				 * was on a CPU for less than half the
				 * window: other tasks took it */
	/* the receive side: NET_RX softirq on every CPU, less foreign */
	bool net_rx_known;
	__u64 net_rx_ns;
	__u64 net_rx_softirqs;	/* NET_RX softirqs run, foreign included */
	int net_rx_cpu;		/* the CPU with most of it */
	double net_rx_ns_per_pkt;
	/*
	 * the dut driver's own count of the frames its XDP program ran on
	 * (ethtool -S), from the window's start to the drain's end: the index
	 * of its name in ethtool_xdp_packets_namings, or -1: the driver keeps
	 * none
	 */
	int drv_xdp_naming;
	__u64 drv_xdp_packets;
	/* the peer (own pair) */
	bool peer_known;
	struct xskb_peer_counters peer;
	/* the generator (own pair, rxdrop and l2fwd) */
	bool gen_ran;
	__u64 gen_sent;
	__u64 gen_cpu_ns;
	const char *gen_method;
	int gen_cpu;		/* where it ran last */
	struct xskb_latency lat;
};

/* The loop's figures, derived from struct xskb_loop with the TSC's GHz */
struct xskb_loop_fig {
	bool split;		/* the TSC moved: busy_share is known */
	bool per_pkt;		/* and frames moved */
	double busy_share;	/* of the loop's TSC cycles */
	double busy_iter_share;
	double frames_per_batch;
	double busy_cycles_per_pkt, total_cycles_per_pkt;
	double busy_ns_per_pkt, total_ns_per_pkt;
	double syscalls_per_pkt;
};

void xskb_loop_figures(const struct xskb_loop *l, double ghz,
		       struct xskb_loop_fig *f);

/* Every frame of the accounting in one bucket: none unaccounted */
bool xskb_acct_balanced(const struct xskb_acct *a);

struct xsk_bench;

int xskb_open(struct xsk_bench **bp, const struct xskb_opts *o, char err[ERR_LEN]);
void xskb_close(struct xsk_bench *b);

/* The options in force (defaults filled in) */
const struct xskb_opts *xskb_opts(const struct xsk_bench *b);
/* "veth0 (veth) queues 0-0: native mode ..." or "veth0: AF_PACKET ..." */
const char *xskb_describe(const struct xsk_bench *b);
/* Why best-effort or AF_PACKET's automatic choice passed modes by, or "" */
const char *xskb_fallback(const struct xsk_bench *b);
/* What was done for busy polling, or "" */
const char *xskb_busy_poll_note(const struct xsk_bench *b);
/* The options hold the RX ring (rx_hold_us, rx_read_only): AF_XDP rxdrop */
static inline bool xskb_rx_holds(const struct xskb_opts *o)
{
	return o->kind == XSKB_RXDROP && !o->afpacket;
}
/*
 * The TX budget in force (0: none, rxdrop, AF_PACKET or zero-copy) and, in
 * *from, where it came from
 */
__u32 xskb_tx_budget(const struct xsk_bench *b, const char **from);
/* The AF_XDP port (NULL on AF_PACKET) and the AF_PACKET backend in use */
const struct xsk_port *xskb_port(const struct xsk_bench *b);
enum afp_backend xskb_afp_backend(const struct xsk_bench *b);
bool xskb_own_env(const struct xsk_bench *b);
const char *xskb_ifname(const struct xsk_bench *b);

/*
 * Run for duration_ns after warmup_ns (own pair: the generator runs through
 * both); with opts.count, until that many frames are done (duration_ns is
 * then a limit, 0 none: the run still ends when nothing moved for 5 s).
 * Every interval_ns (0: never) tick() gets the snapshots at the interval's
 * ends.  *stop ends the run early.
 */
typedef void (*xskb_tick_fn)(const struct xskb_snap *a,
			     const struct xskb_snap *b, void *ctx);
int xskb_run(struct xsk_bench *b, __u64 warmup_ns, __u64 duration_ns,
	     __u64 interval_ns, xskb_tick_fn tick, void *ctx,
	     const volatile int *stop, struct xskb_result *r, char err[ERR_LEN]);

/*
 * The rules xskb_open() applies to o (AF_PACKET runs rxdrop only, a count
 * needs the own pair's generator or txonly, the packet size's range):
 * -EINVAL with the reason; for options before anything is set up
 */
int xskb_check_opts(const struct xskb_opts *o, char err[ERR_LEN]);

/*
 * Do pkt_size frames fit AF_XDP frames of frame_size with headroom (and
 * XDP_USE_SG)?  -EINVAL with the reason; for options before a socket too
 */
int xskb_check_sizes(const struct xskb_opts *o, __u32 frame_size,
		     __u32 headroom, bool sg, bool own_env, char err[ERR_LEN]);

#endif /* XSK_BENCH_H */
