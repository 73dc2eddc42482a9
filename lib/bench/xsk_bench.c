// SPDX-License-Identifier: GPL-2.0
/*
 * xdpsock's benchmarks, measured.  See xsk_bench.h and
 * Documentation/xdpsock.rst.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xsk_bench.h"
#include "esc.h"
#include "ethtool_stats.h"
#include "hist.h"
#include "measure.h"
#include "softirq_cost.h"
#include "icount_window.h"
#include "profile.h"
#include "trafficgen.h"
#include "xsk_env.h"
#include "xsk_pkt.h"
#include "xsk_bench.skel.h"
#include "xsk_bench_redirect.skel.h"
#include "xsk_spin.h"

#define NSEC		1000000000ULL
/*
 * Counted runs: the run is over when nothing moved for this long after the
 * generator finished.  Generous: on a loaded machine the receive NAPI can
 * wait in ksoftirqd (and a TPACKET_V3 block for its retire timer) for over
 * a second (3.6 s seen here); a run that gets all its frames ends at the
 * last one anyway.
 */
#define IDLE_NS		(5 * NSEC)
/*
 * After a run: completions and the peer's count may take this long; the
 * count has settled when it reaches what was sent, or stands still this
 * long (both for the same reason as above)
 */
#define DRAIN_NS	(5 * NSEC)
#define SETTLE_NS	NSEC
#define MAX_CPUS	64

struct xsk_bench {
	struct xskb_opts o;
	__u64 window;		/* the run's, icount_window.h */
	struct xsk_env *env;
	struct xsk_port *port;
	struct xsk_socket *xs;
	struct afp_sock *afp;
	struct xsk_bench_bpf *peer;
	struct xsk_bench_redirect_bpf *redirect;	/* the dut's program */
	int peer_link;
	struct sirq *sirq;
	int ncpus;
	char ifname[IF_NAMESIZE];
	char desc[ERR_LEN];
	char fallback[2 * ERR_LEN];
	char busy_note[ERR_LEN];
	char saved_napi[64];	/* napi_defer_hard_irqs gro_flush_timeout */
	/* with verify: a packet's bytes (rxdrop) */
	unsigned char *buf;
	__u64 rx_bad, rx_bytes, rx_kicks;
	__u64 rx_line_stores;	/* rx_own_lines()' stores */
	/*
	 * -B: this iteration's recvfrom() ran the NAPI and it put frames on
	 * the RX ring: the iteration did the receive work, it is busy
	 */
	bool kick_found;
	/*
	 * -p: the RX ring has been empty poll_spin_us (the loop's clock at
	 * its last turn against when frames last moved): an idle turn may
	 * sleep in poll()
	 */
	bool poll_due;
	/*
	 * rx_hold_us: the loop's clock at its last turn; the last turn took
	 * less than a batch (the loop then holds from its clock); until when
	 * the RX ring is not looked at (a turn before then is idle)
	 */
	__u64 now, hold_until;
	bool hold_due;
	/* the TX budget in force (0: none), where it came from (tx_budget_setup) */
	__u32 tx_budget;
	const char *tx_budget_from;
	/* txonly: kick once this many descriptors wait unkicked (txonly_batch) */
	__u32 tx_kick_at, tx_unkicked;
	/* AF_PACKET: tp_drops and frames left in the ring, this window */
	__u64 afp_drops, afp_left;
	/* latency: the window's differences; the last descriptor went on */
	struct hist *lat;
	__u64 lat_negative;
	bool lat_contd;
};

static const char * const kind_names[] = {
	[XSKB_RXDROP] = "rxdrop",
	[XSKB_TXONLY] = "txonly",
	[XSKB_L2FWD] = "l2fwd",
};

const char *xskb_kind_name(enum xskb_kind k)
{
	return (unsigned int)k < ARRAY_SIZE(kind_names) ? kind_names[k] : "?";
}

const struct xskb_opts *xskb_opts(const struct xsk_bench *b)
{
	return &b->o;
}

const char *xskb_describe(const struct xsk_bench *b)
{
	return b->desc;
}

const char *xskb_fallback(const struct xsk_bench *b)
{
	return b->fallback;
}

const char *xskb_busy_poll_note(const struct xsk_bench *b)
{
	return b->busy_note;
}

__u32 xskb_tx_budget(const struct xsk_bench *b, const char **from)
{
	*from = b->tx_budget_from ?: "";
	return b->tx_budget;
}

const struct xsk_port *xskb_port(const struct xsk_bench *b)
{
	return b->port;
}

enum afp_backend xskb_afp_backend(const struct xsk_bench *b)
{
	return b->afp ? afp_backend(b->afp) : AFP_AUTO;
}

bool xskb_own_env(const struct xsk_bench *b)
{
	return b->env;
}

const char *xskb_ifname(const struct xsk_bench *b)
{
	return b->ifname;
}

/* ---- set-up ------------------------------------------------------------ */

/* The peer's receiver on veth1, in native mode, checking what comes back */
static int peer_attach(struct xsk_bench *b, char err[ERR_LEN])
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = XDP_FLAGS_DRV_MODE);
	struct xsk_env *env = b->env;
	int ret;

	b->peer = xsk_bench_bpf__open();
	if (!b->peer)
		return err_set(err, -errno, "opening the peer's XDP program");
	memcpy((void *)b->peer->rodata->want_dst, env->mac[XENV_PEER], ETH_ALEN);
	memcpy((void *)b->peer->rodata->want_src, env->mac[XENV_DUT], ETH_ALEN);
	b->peer->rodata->want_len = b->o.pkt_size;
	b->peer->rodata->check_payload = b->o.verify;
	if (xsk_bench_bpf__load(b->peer))
		return err_set(err, -errno, "loading the peer's XDP program failed: libbpf's messages above say why");
	ret = xenv_enter(env, XENV_PEER);
	if (ret)
		return err_set(err, ret, "entering the peer's namespace");
	b->peer_link = bpf_link_create(bpf_program__fd(b->peer->progs.xskb_peer),
				       env->ifindex[XENV_PEER], BPF_XDP, &lo);
	ret = b->peer_link < 0 ? -errno : 0;
	xenv_enter(env, XENV_DUT);
	if (ret)
		return err_set(err, ret, "native XDP on the peer %s",
				env->ifname[XENV_PEER]);
	return 0;
}

static int peer_read(struct xsk_bench *b, struct xskb_peer_counters *c)
{
	struct xskb_peer_counters pc[MAX_CPUS];
	__u32 key = 0;
	int i;

	memset(c, 0, sizeof(*c));
	if (!b->peer)
		return -ENOENT;
	if (bpf_map_lookup_elem(bpf_map__fd(b->peer->maps.peer_count), &key,
				pc))
		return -errno;
	for (i = 0; i < b->ncpus; i++) {
		c->packets += pc[i].packets;
		c->bytes += pc[i].bytes;
		c->mac_ok += pc[i].mac_ok;
		c->mac_bad += pc[i].mac_bad;
		c->len_bad += pc[i].len_bad;
		c->payload_ok += pc[i].payload_ok;
		c->payload_bad += pc[i].payload_bad;
		c->seq_sum += pc[i].seq_sum;
	}
	return 0;
}

/*
 * napi_defer_hard_irqs and gro_flush_timeout of the dut's veth, as the
 * kernel's napi documentation pairs them with SO_PREFER_BUSY_POLL; read
 * first (saved_napi) so that close puts them back.  Only in our own
 * namespace: sysfs is the namespace's own there (ip netns exec).
 */
static int napi_sysfs(struct xsk_bench *b, const char *cmd, char *out,
		      size_t len, int *st)
{
	const char *const argv[] = { "ip", "netns", "exec",
				     b->env->ns[XENV_DUT], "sh", "-c", cmd,
				     NULL };

	return xenv_run_said(out, len, argv, st);
}

/*
 * The two old values the sysfs command printed ("A B old-values"): whole
 * numbers of digits alone, each up to INT_MAX, that word after them and
 * nothing else
 */
static bool napi_values(const char *out, unsigned int *defer, unsigned int *gro)
{
	unsigned int *v[2] = { defer, gro };
	unsigned long x;
	char *end;
	int i;

	for (i = 0; i < 2; i++) {
		out += strspn(out, " ");
		if (*out < '0' || *out > '9')
			return false;
		errno = 0;
		x = strtoul(out, &end, 10);
		if (errno || x > INT_MAX)
			return false;
		*v[i] = x;
		out = end;
	}
	if (strncmp(out, " old-values", 11))
		return false;
	out += 11;
	return !out[strspn(out, " \n")];
}

static int busy_poll_setup(struct xsk_bench *b, int fd, char err[ERR_LEN])
{
	int one = 1, us = b->o.busy_poll_us, budget = b->o.batch;
	char cmd[256], out[ERR_LEN / 2] = "";
	unsigned int defer, gro;
	int ret, st = 0;
	bool got;

	if (setsockopt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, &one, sizeof(one)))
		return err_set(err, -errno, "-B: setsockopt(SO_PREFER_BUSY_POLL) failed: a kernel before 5.11?");
	if (setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &us, sizeof(us)))
		return err_set(err, -errno, "-B: setsockopt(SO_BUSY_POLL, %d us) failed: CONFIG_NET_RX_BUSY_POLL?",
				us);
	if (setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &budget,
		       sizeof(budget)))
		return err_set(err, -errno, "-B: setsockopt(SO_BUSY_POLL_BUDGET, %d)",
				budget);
	if (!b->env) {
		snprintf(b->busy_note, sizeof(b->busy_note),
			 "SO_PREFER_BUSY_POLL, SO_BUSY_POLL %d us, budget %d; %s's napi_defer_hard_irqs and gro_flush_timeout left as they are (not our interface)",
			 us, budget, b->ifname);
		return 0;
	}
	snprintf(cmd, sizeof(cmd),
		 "cd /sys/class/net/%s && printf '%%s %%s old-values\\n' \"$(cat napi_defer_hard_irqs)\" \"$(cat gro_flush_timeout)\" && echo %d > napi_defer_hard_irqs && echo %d > gro_flush_timeout",
		 b->ifname, XSKB_DEFER_HARD_IRQS, XSKB_GRO_FLUSH_TIMEOUT);
	ret = napi_sysfs(b, cmd, out, sizeof(out), &st);
	/* the old values, or the line that says why not */
	got = !ret && napi_values(out, &defer, &gro);
	if (!got)
		xenv_first_line(out, sizeof(out));
	/* stopped while it ran: the command was killed, nothing was set */
	if (ret == -EINTR) {
		err_set(err, 0, "-B: setting napi_defer_hard_irqs and gro_flush_timeout of %s: 'ip netns exec ... sh -c ...' killed: a signal stopped the run",
			b->ifname);
		return ret;
	}
	if (ret < 0)
		return err_set(err, ret, "-B: setting napi_defer_hard_irqs and gro_flush_timeout of %s: the command could not run",
			       b->ifname);
	/* what it printed says why: no errno after it */
	if (WIFSIGNALED(st)) {
		err_set(err, 0, "-B: setting napi_defer_hard_irqs and gro_flush_timeout of %s: the command was killed by signal %d (%s)%s%s",
			b->ifname, WTERMSIG(st), strsignal(WTERMSIG(st)),
			out[0] ? ": " : "", esc_text(out).s);
		return -EIO;
	}
	if (ret) {
		err_set(err, 0, "-B: setting napi_defer_hard_irqs and gro_flush_timeout of %s failed (status %d): %s",
			b->ifname, ret, out[0] ? esc_text(out).s : "it said nothing");
		return -EIO;
	}
	if (!got) {
		err_set(err, 0, "-B: setting napi_defer_hard_irqs and gro_flush_timeout of %s: the command ended with status 0 but printed %s%s%s, not the two old values: they may be left as -B set them",
			b->ifname, out[0] ? "'" : "nothing", out[0] ? esc_text(out).s : "",
			out[0] ? "'" : "");
		return -EIO;
	}
	snprintf(b->saved_napi, sizeof(b->saved_napi), "%u %u", defer, gro);
	snprintf(b->busy_note, sizeof(b->busy_note),
		 "SO_PREFER_BUSY_POLL, SO_BUSY_POLL %d us, budget %d; %s napi_defer_hard_irqs %d (was %u), gro_flush_timeout %d (was %u)",
		 us, budget, b->ifname, XSKB_DEFER_HARD_IRQS, defer,
		 XSKB_GRO_FLUSH_TIMEOUT, gro);
	return 0;
}

static void busy_poll_restore(struct xsk_bench *b)
{
	char cmd[256], out[ERR_LEN / 2] = "", why[ERR_LEN + 32];
	unsigned int defer, gro;
	int st, ret;

	if (!b->saved_napi[0] ||
	    sscanf(b->saved_napi, "%u %u", &defer, &gro) != 2)
		return;
	snprintf(cmd, sizeof(cmd),
		 "cd /sys/class/net/%s && echo %u > napi_defer_hard_irqs && echo %u > gro_flush_timeout",
		 b->ifname, defer, gro);
	ret = napi_sysfs(b, cmd, out, sizeof(out), &st);
	if (ret == -EINTR) {
		fprintf(stderr, "%s: -B: restoring napi_defer_hard_irqs %u and gro_flush_timeout %u of %s: the command was killed, a signal stopped the run: they may be left as -B set them\n",
			program_invocation_short_name, defer, gro, b->ifname);
	} else if (ret) {
		xenv_first_line(out, sizeof(out));
		if (ret < 0)
			snprintf(why, sizeof(why), "%s", strerror(-ret));
		else
			snprintf(why, sizeof(why), "status %d%s%s", ret,
				 out[0] ? ": " : "", esc_text(out).s);
		fprintf(stderr, "%s: -B: restoring napi_defer_hard_irqs %u and gro_flush_timeout %u of %s failed (%s): they may be left as -B set them\n",
			program_invocation_short_name, defer, gro, b->ifname,
			why);
	}
	b->saved_napi[0] = '\0';
}

/*
 * A batch is taken from one ring and put on another in one go: it fits
 * every ring it passes through, and the UMEM frames the app owns
 */
static int check_batch(const struct xskb_opts *o, char err[ERR_LEN])
{
	const struct xsk_socket_opts *so = &o->port.sock;
	__u32 rx = so->rx_size ?: XSK_DEF_RING_SIZE;
	__u32 fill = so->fill_size ?: XSK_DEF_RING_SIZE;
	__u32 tx = so->tx_size ?: XSK_DEF_RING_SIZE;
	bool rxs = o->kind != XSKB_TXONLY, txs = o->kind != XSKB_RXDROP;
	__u32 b = o->batch ?: 64;

	if (rxs && b > rx)
		return err_wrap(err, -EINVAL, "a batch of %u is more than the RX ring's %u entries",
				b, rx);
	if (rxs && b > fill)
		return err_wrap(err, -EINVAL, "a batch of %u is more than the fill ring's %u entries",
				b, fill);
	if (txs && b > tx)
		return err_wrap(err, -EINVAL, "a batch of %u is more than the TX ring's %u entries",
				b, tx);
	if (so->nr_frames && b > so->nr_frames)
		return err_wrap(err, -EINVAL, "a batch of %u is more than the %u UMEM frames",
				b, so->nr_frames);
	return 0;
}

int xskb_check_opts(const struct xskb_opts *o, char err[ERR_LEN])
{
	__u32 tx_size = o->port.sock.tx_size ?: XSK_DEF_RING_SIZE;

	if (o->afpacket && o->kind != XSKB_RXDROP)
		return err_wrap(err, -EINVAL, "%s: AF_PACKET runs rxdrop only",
				xskb_kind_name(o->kind));
	if (o->count && o->ifname && o->kind != XSKB_TXONLY)
		return err_wrap(err, -EINVAL, "a count needs the own veth pair's generator (no -i), or txonly");
	if (o->pkt_size < XSK_PKT_MIN_LEN || o->pkt_size > FRAME_MAX_SIZE)
		return err_wrap(err, -EINVAL, "packet size %u is outside %u..%u",
				o->pkt_size, XSK_PKT_MIN_LEN,
				FRAME_MAX_SIZE);
	if (o->spin_n > XSK_SPIN_MAX)
		return err_wrap(err, -EINVAL, "spin_n %u is above %u",
				o->spin_n, XSK_SPIN_MAX);
	if (o->rx_hold_us && !xskb_rx_holds(o))
		return err_wrap(err, -EINVAL, "a hold is for AF_XDP rxdrop's loop");
	if (o->rx_read_only && !xskb_rx_holds(o))
		return err_wrap(err, -EINVAL, "reading the RX descriptors only is for AF_XDP rxdrop's loop");
	if (o->tx_budget && o->kind == XSKB_RXDROP)
		return err_wrap(err, -EINVAL, "a TX budget is for what sends: txonly or l2fwd, not rxdrop");
	if (o->tx_budget && o->port.mode == XSK_MODE_NATIVE_ZC)
		return err_wrap(err, -EINVAL, "a TX budget is for copy mode: zero-copy sends from the driver's NAPI");
	if (o->tx_budget && (o->tx_budget < XSKB_TX_BUDGET_KERNEL ||
			     o->tx_budget > tx_size))
		return err_wrap(err, -EINVAL, "TX budget %u is outside %u..%u (the TX ring's size)",
				o->tx_budget, XSKB_TX_BUDGET_KERNEL, tx_size);
	if (o->rx_delay_ns && !o->latency)
		return err_wrap(err, -EINVAL, "an injected receive delay is a test of the latency: only with it");
	if (o->latency) {
		if (o->ifname || o->afpacket || o->kind == XSKB_TXONLY)
			return err_wrap(err, -EINVAL, "latency is measured on the own pair (no -i), whose generator stamps the frames, by AF_XDP rxdrop or l2fwd");
		if (o->verify)
			return err_wrap(err, -EINVAL, "latency's stamp is in the payload, which verify checks: not both");
		if (o->pkt_size < TGEN_STAMP_MIN_LEN)
			return err_wrap(err, -EINVAL, "latency needs frames of %u bytes at least (the stamp's 8 after the sequence number), not %u",
					TGEN_STAMP_MIN_LEN, o->pkt_size);
	}
	return o->afpacket ? 0 : check_batch(o, err);
}

/*
 * The TX budget (XSKB_TX_BUDGET_KERNEL): the asked one, else txonly's
 * default, the TX ring's size, where the kernel has XDP_MAX_TX_SKB_BUDGET;
 * txonly kicks once that many descriptors wait, the others every batch
 */
static int tx_budget_setup(struct xsk_bench *b, char err[ERR_LEN])
{
	struct xsk_socket *xs = b->xs;
	__u32 want = b->o.tx_budget;

	b->tx_kick_at = 1;
	if (b->o.kind == XSKB_RXDROP)
		return 0;
	if (xs->zerocopy) {
		if (want)
			return err_wrap(err, -EINVAL, "a TX budget is for copy mode: %s is bound in zero-copy",
					b->ifname);
		return 0;
	}
	b->tx_budget = XSKB_TX_BUDGET_KERNEL;
	b->tx_budget_from = "the kernel's";
	if (!want && b->o.kind == XSKB_TXONLY)
		want = xs->tx.q.size;
	if (want &&
	    setsockopt(xs->fd, SOL_XDP, XDP_MAX_TX_SKB_BUDGET, &want,
		       sizeof(want))) {
		int ret = -errno;

		if (b->o.tx_budget && ret == -ENOPROTOOPT)
			return err_set(err, ret, "TX budget %u: this kernel has no XDP_MAX_TX_SKB_BUDGET (it sends %u a sendto())",
				       want, XSKB_TX_BUDGET_KERNEL);
		if (b->o.tx_budget)
			return err_set(err, ret, "TX budget %u: XDP_MAX_TX_SKB_BUDGET refused (the kernel's limit: %u..the TX ring's size)",
				       want, XSKB_TX_BUDGET_KERNEL);
		if (ret != -ENOPROTOOPT)
			return err_set(err, ret, "TX budget %u (the TX ring's size): XDP_MAX_TX_SKB_BUDGET refused",
				       want);
		b->tx_budget_from = "the kernel's: it has no XDP_MAX_TX_SKB_BUDGET";
		want = 0;
	}
	if (want) {
		b->tx_budget = want;
		b->tx_budget_from = b->o.tx_budget ? "XDP_MAX_TX_SKB_BUDGET, asked" :
				    "XDP_MAX_TX_SKB_BUDGET, the TX ring's size";
	}
	if (b->o.kind == XSKB_TXONLY)
		b->tx_kick_at = b->tx_budget;
	return 0;
}

/* The dut's program, with the injected cost asked for, for the port */
static int redirect_load(struct xsk_bench *b, char err[ERR_LEN])
{
	b->redirect = xsk_bench_redirect_bpf__open();
	if (!b->redirect)
		return err_set(err, -errno, "opening the AF_XDP redirect program");
	b->redirect->rodata->spin_n = b->o.spin_n;
	if (xsk_bench_redirect_bpf__load(b->redirect))
		return err_set(err, -errno, "loading the AF_XDP redirect program failed: libbpf's messages above say why");
	b->o.port.prog = b->redirect->progs.xskb_redirect;
	b->o.port.xsks_map = b->redirect->maps.xskb_xsks;
	return 0;
}

int xskb_check_sizes(const struct xskb_opts *o, __u32 frame_size,
		     __u32 headroom, bool sg, bool own_env, char err[ERR_LEN])
{
	if (o->kind == XSKB_TXONLY && o->pkt_size > frame_size - headroom)
		return err_wrap(err, -EINVAL, "txonly: %u-byte packets do not fit one %u-byte frame",
				o->pkt_size, frame_size - headroom);
	if (o->kind != XSKB_TXONLY && own_env && !sg &&
	    o->pkt_size > frame_size - XSK_KERNEL_HEADROOM - headroom)
		return err_wrap(err, -EINVAL, "%u-byte packets need %u-byte frames or more (copy mode keeps %u bytes of headroom): use -F (multi-buffer)",
				o->pkt_size,
				o->pkt_size + XSK_KERNEL_HEADROOM + headroom,
				XSK_KERNEL_HEADROOM);
	return 0;
}

/* AF_XDP frames must fit what the socket can carry */
static int check_sizes(struct xsk_bench *b, char err[ERR_LEN])
{
	struct xsk_socket *xs = b->xs;

	return xskb_check_sizes(&b->o, xs->frame_size, xs->headroom,
				xs->bind_flags & XDP_USE_SG, b->env, err);
}

/* txonly: every frame the app owns holds the test frame; only seq changes */
static void txonly_frames(struct xsk_bench *b)
{
	struct xsk_socket *xs = b->xs;
	unsigned char dst[6] = { 2, 0, 0, 0, 0, 2 }, src[6] = { 2, 0, 0, 0, 0, 1 };
	__u32 i;

	if (b->env) {
		memcpy(dst, b->env->mac[XENV_PEER], 6);
		memcpy(src, b->env->mac[XENV_DUT], 6);
	}
	for (i = 0; i < xs->nr_free; i++)
		xsk_pkt_build(xsk_umem_ptr(xs, xs->free_frames[i] + xs->headroom),
			      b->o.pkt_size, dst, src, TGEN_PORT_BASE, 0);
}

/*
 * rxdrop's and l2fwd's UMEM frames unless asked: few while the application
 * keeps taking (xsk_bench.h), the whole fill ring while it may sleep in
 * poll() at once, whose wake-up they must outlast
 */
static __u32 xskb_rx_frames(const struct xskb_opts *o)
{
	__u32 least = o->batch * 4 > XSKB_RX_FRAMES ? o->batch * 4 :
							  XSKB_RX_FRAMES;
	__u32 fill = o->port.sock.fill_size ?: XSK_DEF_RING_SIZE;

	if (o->poll && !o->poll_spin_us && fill > least)
		return fill;
	return least;
}

int xskb_open(struct xsk_bench **bp, const struct xskb_opts *o, char err[ERR_LEN])
{
	struct xsk_bench *b;
	int ret;

	*bp = NULL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return err_set(err, -ENOMEM, "out of memory");
	b->o = *o;
	b->peer_link = -1;
	b->ncpus = libbpf_num_possible_cpus();
	if (b->ncpus > MAX_CPUS)
		b->ncpus = MAX_CPUS;
	if (!b->o.batch)
		b->o.batch = 64;
	if (!b->o.pkt_size)
		b->o.pkt_size = 64;
	if (b->o.kind != XSKB_TXONLY && !b->o.port.sock.nr_frames)
		b->o.port.sock.nr_frames = xskb_rx_frames(&b->o);
	if (!b->o.busy_poll_us)
		b->o.busy_poll_us = XSKB_BUSY_POLL_US;
	if (b->o.gen_cpu < 0)
		b->o.gen_cpu = 0;
	if (b->o.app_cpu < 0)
		b->o.app_cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1 ?
			       !b->o.gen_cpu : 0;
	ret = xskb_check_opts(&b->o, err);
	if (ret)
		goto out;

	if (!o->ifname) {
		bool generic = !o->afpacket && o->port.mode == XSK_MODE_GENERIC;
		struct xenv_opts eo = {
			.mtu = b->o.pkt_size > 1514 ? 9000 : 1500,
			.no_peer_prog = true,
			/* veth0 needs a NAPI for the generator's frames */
			.dut_gro = o->afpacket || generic,
			.dev = { o->dev[0], o->dev[1] },
		};

		ret = xenv_create(&b->env, &eo, err);
		if (!ret)
			ret = peer_attach(b, err);
		if (ret)
			goto out;
		snprintf(b->ifname, sizeof(b->ifname), "%s",
			 b->env->ifname[XENV_DUT]);
	} else {
		snprintf(b->ifname, sizeof(b->ifname), "%s", o->ifname);
	}

	if (o->afpacket) {
		char why[ERR_LEN] = "";

		ret = afp_open(&b->afp, b->ifname, o->afp, err, why,
			       sizeof(why));
		if (ret)
			goto out;
		snprintf(b->fallback, sizeof(b->fallback), "%s", why);
		snprintf(b->desc, sizeof(b->desc), "%s: AF_PACKET %s",
			 b->ifname, afp_backend_name(afp_backend(b->afp)));
	} else {
		b->o.port.ifname = b->ifname;
		/*
		 * txonly receives nothing: no RX ring, so every UMEM frame is
		 * the sender's, and so no program either (an XSKMAP refuses
		 * a socket without an RX ring: 7.2's xsk_map_update_elem())
		 */
		if (o->kind == XSKB_TXONLY) {
			b->o.port.sock.no_rx = true;
			b->o.port.no_prog = true;
		}
		ret = b->o.port.no_prog ? 0 : redirect_load(b, err);
		if (!ret)
			ret = xsk_port_open(&b->port, &b->o.port, err);
		if (ret)
			goto out;
		b->xs = b->port->socks[0];
		snprintf(b->fallback, sizeof(b->fallback), "%s",
			 b->port->fallback);
		xsk_port_describe(b->port, b->desc, sizeof(b->desc));
		ret = check_sizes(b, err);
		if (ret)
			goto out;
		ret = tx_budget_setup(b, err);
		if (ret)
			goto out;
		if (o->kind == XSKB_TXONLY)
			txonly_frames(b);
	}
	if (o->busy_poll) {
		ret = busy_poll_setup(b, b->afp ? afp_fd(b->afp) : b->xs->fd,
				      err);
		if (ret)
			goto out;
	}
	if (o->verify && o->kind == XSKB_RXDROP) {
		b->buf = malloc(FRAME_MAX_SIZE + 1);
		if (!b->buf) {
			ret = err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
	}
	if (o->latency) {
		b->lat = malloc(sizeof(*b->lat));
		if (!b->lat) {
			ret = err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		hist_reset(b->lat);
	}
	if (!o->no_cost) {
		ret = sirq_get(&b->sirq, err);
		if (ret)
			goto out;
	}
	*bp = b;
	return 0;
out:
	xskb_close(b);
	return ret;
}

void xskb_close(struct xsk_bench *b)
{
	if (!b)
		return;
	sirq_put(b->sirq);
	/* our own veth pair goes with its settings: only adopted devices */
	if (b->env && b->env->adopted)
		busy_poll_restore(b);
	xsk_port_close(b->port);
	xsk_bench_redirect_bpf__destroy(b->redirect);
	afp_close(b->afp);
	if (b->peer_link >= 0)
		close(b->peer_link);
	xsk_bench_bpf__destroy(b->peer);
	xenv_destroy(b->env);
	free(b->buf);
	free(b->lat);
	free(b);
}

/* ---- the loops ---------------------------------------------------------- */

/* Nothing to do: busy polling polls the NAPI from here, else kick if asked */
/* Poll mode: how long one poll() waits for the RX ring */
#define XSKB_POLL_MS	100

static void rx_idle(struct xsk_bench *b, struct xsk_socket *xs)
{
	if (b->o.poll) {
		/* poll() also gives the fill ring the wakeup it may ask for */
		if (!b->poll_due)
			return;
		poll(&(struct pollfd){ .fd = xs->fd, .events = POLLIN }, 1,
		     XSKB_POLL_MS);
		b->rx_kicks++;
	} else if (b->o.busy_poll) {
		recvfrom(xs->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		b->rx_kicks++;
		b->kick_found = xring_cons_nb_avail(&xs->rx, 1);
	} else if (xsk_kick_fill(xs)) {
		b->rx_kicks++;
	}
}

static void tx_kick(struct xsk_bench *b, struct xsk_socket *xs)
{
	if (b->o.busy_poll && !xs->need_wakeup) {
		sendto(xs->fd, NULL, 0, MSG_DONTWAIT, NULL, 0);
		xs->stats.tx_kicks++;
		return;
	}
	xsk_kick_tx(xs);
}

static void afp_check(const void *data, __u32 len, void *ctx)
{
	struct xsk_bench *b = ctx;
	struct xsk_pkt_info info;

	b->rx_bytes += len;
	if ((b->env && len != b->o.pkt_size) || xsk_pkt_check(data, len, &info))
		b->rx_bad++;
}

/*
 * Take the whole lines of the next batch's RX descriptors for writing
 * (XSKB_LINE): a store of its own value into the last descriptor of each
 */
static void rx_own_lines(struct xsk_bench *b, struct xsk_socket *xs)
{
	__u32 n = xring_cons_nb_avail(&xs->rx, b->o.batch), i;

	for (i = 0; i < n; i++) {
		volatile struct xdp_desc *d = xring_rx_desc(&xs->rx,
							 xs->rx.q.cached_cons + i);

		if (!((uintptr_t)(d + 1) & (XSKB_LINE - 1))) {
			d->options = d->options;
			b->rx_line_stores++;
		}
	}
}

/*
 * latency: a packet's stamp against now, the clock's read where its batch
 * was taken; d is the packet's first descriptor
 */
static void lat_frame(struct xsk_bench *b, struct xsk_socket *xs,
		      const struct xdp_desc *d, __u64 now)
{
	__u64 t;

	memcpy(&t, (char *)xsk_umem_ptr(xs, d->addr) + TGEN_STAMP_OFF,
	       sizeof(t));
	if (t > now) {
		b->lat_negative++;
		t = now;
	}
	hist_add(b->lat, now - t);
}

/* Spin for ns: the injected delay (rx_delay_ns) */
static void spin_ns(__u32 ns)
{
	__u64 until = ktime_ns() + ns;

	while (ktime_ns() < until)
		cpu_relax();
}

/*
 * rxdrop with latency: up to a batch of descriptors taken, the clock read
 * once (after the injected delay), each packet's stamp read against it,
 * then the frames recycled as xsk_rx_recycle() does
 */
static __u32 rx_stamped(struct xsk_bench *b, struct xsk_socket *xs,
			__u32 *pkts)
{
	__u32 n = xring_cons_nb_avail(&xs->rx, b->o.batch), i;
	__u64 now;

	*pkts = 0;
	if (!n)
		return 0;
	if (b->o.rx_delay_ns)
		spin_ns(b->o.rx_delay_ns);
	now = ktime_ns();
	for (i = 0; i < n; i++) {
		const struct xdp_desc *d = xring_rx_desc(&xs->rx,
							 xs->rx.q.cached_cons + i);

		if (!b->lat_contd)
			lat_frame(b, xs, d, now);
		b->lat_contd = d->options & XDP_PKT_CONTD;
	}
	/* n are available already: it takes those n */
	return xsk_rx_recycle(xs, n, pkts);
}

/* One batch of rxdrop; returns the packets */
static __u32 rxdrop_batch(struct xsk_bench *b)
{
	struct xsk_socket *xs = b->xs;
	__u32 pkts = 0, i, nd;
	int n;

	if (b->afp) {
		n = afp_rx(b->afp, b->o.batch, b->poll_due ? XSKB_POLL_MS : 0,
			   b->o.verify ? afp_check : NULL, b);
		return n > 0 ? n : 0;
	}
	if (b->now < b->hold_until) {
		cpu_relax();
		return 0;
	}
	if (!b->o.rx_read_only)
		rx_own_lines(b, xs);
	if (!b->o.verify) {
		/* a batch of descriptors */
		nd = b->lat ? rx_stamped(b, xs, &pkts) :
			      xsk_rx_recycle(xs, b->o.batch, &pkts);
		if (!nd)
			rx_idle(b, xs);
		b->hold_due = b->o.rx_hold_us && nd < b->o.batch;
		return pkts;
	}
	/* a batch of packets */
	for (i = 0; i < b->o.batch; i++) {
		n = xsk_rx_packet(xs, b->buf, FRAME_MAX_SIZE + 1, &nd);
		if (!n)
			break;
		if (n < 0)
			b->rx_bad++;
		else
			afp_check(b->buf, n, b);
		pkts++;
	}
	if (!pkts)
		rx_idle(b, xs);
	b->hold_due = b->o.rx_hold_us && pkts < b->o.batch;
	return pkts;
}

/*
 * One batch of txonly: up to batch frames, numbered from *seq; the kernel
 * is kicked once tx_kick_at of them wait, or when fewer than a batch could
 * be queued (the ring or the frames ran short, or the count ends)
 */
static __u32 txonly_batch(struct xsk_bench *b, __u64 left, __u64 *seq)
{
	struct xsk_socket *xs = b->xs;
	__u32 n = b->o.batch, idx, i;

	xsk_comp_reclaim(xs);
	if (n > left)
		n = left;
	if (n > xs->nr_free)
		n = xs->nr_free;
	if (n > xring_prod_nb_free(&xs->tx, n))
		n = xring_prod_nb_free(&xs->tx, n);
	if (!n || !xring_prod_reserve(&xs->tx, n, &idx)) {
		if (xs->stats.tx_completed < xs->stats.tx_descs) {
			tx_kick(b, xs);
			b->tx_unkicked = 0;
		}
		return 0;
	}
	for (i = 0; i < n; i++) {
		struct xdp_desc *d = xring_tx_desc(&xs->tx, idx + i);
		__u32 s = (*seq)++;

		d->addr = xsk_frame_alloc(xs) + xs->headroom;
		d->len = b->o.pkt_size;
		d->options = 0;
		memcpy((char *)xsk_umem_ptr(xs, d->addr) + XSK_PKT_HDR_LEN, &s,
		       sizeof(s));
	}
	xring_prod_submit(&xs->tx, n);
	xs->stats.tx_descs += n;
	b->tx_unkicked += n;
	if (b->tx_unkicked >= b->tx_kick_at || n < b->o.batch) {
		tx_kick(b, xs);
		b->tx_unkicked = 0;
	}
	return n;
}

static void swap_mac(void *frame)
{
	unsigned char tmp[ETH_ALEN], *eth = frame;

	memcpy(tmp, eth, ETH_ALEN);
	memcpy(eth, eth + ETH_ALEN, ETH_ALEN);
	memcpy(eth + ETH_ALEN, tmp, ETH_ALEN);
}

/*
 * One batch of l2fwd: whole packets (every descriptor up to one without
 * XDP_PKT_CONTD) from the RX ring to the TX ring, at least batch
 * descriptors' worth if there are, with the MACs of each packet's first
 * descriptor swapped; completed frames go back to the fill ring.  Returns
 * the packets.
 */
static __u32 l2fwd_batch(struct xsk_bench *b)
{
	struct xsk_socket *xs = b->xs;
	__u32 avail, room, end = 0, pkts = 0, idx_rx = 0, idx_tx = 0, i;
	bool first = true;
	__u64 now;

	xsk_comp_reclaim(xs);
	xsk_fill_refill(xs);
	avail = xring_cons_nb_avail(&xs->rx, xs->rx.q.size);
	room = xring_prod_nb_free(&xs->tx, avail);
	if (avail > room)
		avail = room;
	for (i = 0; i < avail; i++) {
		if (xring_rx_desc(&xs->rx, xs->rx.q.cached_cons + i)->options &
		    XDP_PKT_CONTD)
			continue;
		end = i + 1;
		pkts++;
		if (end >= b->o.batch)
			break;
	}
	if (!end) {
		if (xs->stats.tx_completed < xs->stats.tx_descs)
			tx_kick(b, xs);
		rx_idle(b, xs);
		return 0;
	}
	xring_cons_peek(&xs->rx, end, &idx_rx);
	xring_prod_reserve(&xs->tx, end, &idx_tx);
	if (b->lat && b->o.rx_delay_ns)
		spin_ns(b->o.rx_delay_ns);
	now = b->lat ? ktime_ns() : 0;
	for (i = 0; i < end; i++) {
		const struct xdp_desc *rd = xring_rx_desc(&xs->rx, idx_rx + i);
		struct xdp_desc *td = xring_tx_desc(&xs->tx, idx_tx + i);

		if (first && b->lat)
			lat_frame(b, xs, rd, now);
		if (first)
			swap_mac(xsk_umem_ptr(xs, rd->addr));
		*td = *rd;
		first = !(rd->options & XDP_PKT_CONTD);
	}
	xring_cons_release(&xs->rx, end);
	xring_prod_submit(&xs->tx, end);
	xs->stats.rx_descs += end;
	xs->stats.rx_packets += pkts;
	xs->stats.tx_descs += end;
	tx_kick(b, xs);
	return pkts;
}

/* ---- a run -------------------------------------------------------------- */

struct counters {
	__u64 rx, tx;		/* packets */
};

static void snap(struct xsk_bench *b, const struct counters *c,
		 struct xskb_snap *s)
{
	struct xskb_peer_counters pc;

	memset(s, 0, sizeof(*s));
	s->t_ns = mono_ns();
	s->rx_packets = c->rx;
	s->tx_packets = c->tx;
	if (b->xs) {
		s->tx_completed = b->xs->stats.tx_completed;
		xsk_socket_stats(b->xs, &s->st);
	}
	if (!peer_read(b, &pc))
		s->delivered = pc.packets;
}

static __u64 net_rx(struct xsk_bench *b, struct sirq_cpu *sc)
{
	__u64 sum = 0;
	int cpu;

	if (!b->sirq || sirq_read(b->sirq, sc, b->ncpus) < 0) {
		memset(sc, 0, b->ncpus * sizeof(*sc));
		return 0;
	}
	for (cpu = 0; cpu < b->ncpus; cpu++)
		sum += sc[cpu].net_rx_ns - sc[cpu].net_rx_foreign_ns;
	return sum;
}

/*
 * The calling thread's schedstat time, brought up to date: schedstat shows
 * the running task's time as of its last accounting (a tick or a switch);
 * sched_yield() accounts it now
 */
static void own_cpu_ns(pid_t tid, uint64_t *ns)
{
	sched_yield();
	thread_cpu_ns(tid, ns);
}

/*
 * AF_PACKET: frames dropped since the last call (PACKET_STATISTICS is reset
 * by reading it; TPACKET_V3's struct starts as the others')
 */
static __u64 afp_drops(struct xsk_bench *b)
{
	struct tpacket_stats_v3 st = {};
	socklen_t len = sizeof(st);

	if (!b->afp || getsockopt(afp_fd(b->afp), SOL_PACKET,
				  PACKET_STATISTICS, &st, &len))
		return 0;
	return st.tp_drops;
}

/*
 * Which counter counts what (Linux 7.2: net/xdp/xsk.c, xsk_buff_pool.c,
 * drivers/net/veth.c, net/bpf/test_run.c), so that every frame of a run on
 * the own pair lands in exactly one bucket of struct xskb_acct:
 *
 * The generator's frames, veth1 -> veth0 -> socket (rxdrop, l2fwd):
 *   - the generator (BPF_PROG_RUN live frames, XDP_TX on veth1) counts a
 *     frame sent when its program returns XDP_TX;
 *   - veth_xdp_xmit() puts it on veth0's ptr_ring; a full ring (or a frame
 *     over the MTU) counts peer_tq_xdp_xmit_err, kept in veth0's queue and
 *     shown as veth1's "tx_queue_N_xdp_xmit_errors": lost_peer_xmit_errors;
 *   - native XDP on veth0: the program redirects to the XSKMAP, and when
 *     xdp_do_redirect() fails veth_xdp_rcv_one() counts
 *     "rx_queue_N_drops" (veth0).  Every failure of the socket itself
 *     returns an error there, so each frame the socket drops (below) is
 *     ALSO one of veth0's rx_queue_N_drops: lost_dut_veth_drops is
 *     veth0's drops less the socket's.  (Counting both was the double
 *     count.)  Other rx_queue_N_drops: a redirect to an unbound socket or
 *     another queue (xsk_rcv_check() -ENXIO, -EINVAL: no XDP_STATISTICS
 *     counter), skb allocation failures;
 *   - generic XDP (veth0 with GRO, so that it has a NAPI): the socket runs
 *     in netif_receive_skb(); its failures free the skb
 *     (do_xdp_generic()) and veth counts nothing: veth0's drops are all
 *     lost_dut_veth_drops, the socket's only in XDP_STATISTICS;
 *   - the socket (XDP_STATISTICS, with the extended struct the core asks
 *     for, so rx_dropped does NOT include rx_ring_full):
 *       rx_dropped: no buffer (__xsk_rcv(): xsk_buff_alloc() or, multi-
 *         buffer, xsk_buff_can_alloc() failed) or longer than a frame
 *         without XDP_USE_SG (xsk_rcv_check());
 *       rx_fill_ring_empty_descs: the fill ring was empty when a buffer
 *         was taken (__xp_alloc(), xp_can_alloc() with none at all).  In
 *         copy mode only __xsk_rcv() takes buffers, so each is a frame
 *         that rx_dropped counts too: sock_fill_ring_empty is it, and
 *         sock_rx_dropped_other is rx_dropped less it (too long, no free
 *         head, a multi-buffer frame that found some but not enough);
 *       rx_ring_full (xs->rx_queue_full): the RX ring had no room;
 *       rx_invalid_descs: invalid descriptors of the RX ring, which only
 *         the kernel produces: nothing increments it (a bad address on
 *         the fill ring goes to pool->fq->invalid_descs, not reported,
 *         and is skipped, not a lost frame);
 *   - AF_PACKET: PACKET_STATISTICS tp_drops (ring or receive buffer
 *     full), in sock_rx_dropped_other; veth0's drops are not the socket's;
 *   - what arrived but the app did not take before the run ended:
 *     rx_ring_left (still on the RX ring, or AF_PACKET's, at the end).
 *
 * What the app sends, veth0 -> veth1 -> xskb_peer (txonly, l2fwd):
 *   - tx_invalid_descs: descriptors the kernel refused (this tool writes
 *     none);
 *   - not completed when the run ended: tx_not_completed;
 *   - copy mode sends through __dev_direct_xmit() -> veth_xmit(); a full
 *     ptr_ring of veth1 (no qdisc: dropped, not requeued) counts veth0's
 *     priv->dropped, its tx_dropped in /proc/net/dev, and the descriptor
 *     still completes ("SKB completed but not sent"): lost_dut_tx_drops;
 *   - veth1's NAPI drops what it cannot turn into an xdp_buff,
 *     "rx_queue_N_drops" of veth1: lost_peer_rx_drops;
 *   - everything else reaches xskb_peer, which counts it: delivered.
 */
struct veth_counts {
	__u64 peer_xmit_err;	/* veth1 tx_queue_*_xdp_xmit_errors */
	__u64 dut_rx_drops;	/* veth0 rx_queue_*_drops */
	__u64 dut_tx_dropped;	/* veth0 tx_dropped */
	__u64 peer_rx_drops;	/* veth1 rx_queue_*_drops */
};

/* Own pair: the veth counters where frames can be lost, cumulative */
static void veth_read(struct xsk_bench *b, struct veth_counts *v)
{
	struct netdev_counters nc;

	memset(v, 0, sizeof(*v));
	if (!b->env)
		return;
	v->dut_rx_drops = ethtool_stats_sum_of(b->ifname, "rx_queue_*_drops");
	if (!netdev_counters_read(b->ifname, &nc))
		v->dut_tx_dropped = nc.tx_dropped;
	if (xenv_enter(b->env, XENV_PEER))
		return;
	v->peer_xmit_err = ethtool_stats_sum_of(b->env->ifname[XENV_PEER],
						"tx_queue_*_xdp_xmit_errors");
	v->peer_rx_drops = ethtool_stats_sum_of(b->env->ifname[XENV_PEER],
						"rx_queue_*_drops");
	xenv_enter(b->env, XENV_DUT);
}

/*
 * Packets (descriptors without XDP_PKT_CONTD) on the RX ring, not taken; 0
 * on a socket without one (txonly's)
 */
static __u64 rx_ring_left(struct xsk_socket *xs)
{
	__u32 prod, i;
	__u64 n = 0;

	if (!xs->rx.q.producer)
		return 0;
	prod = xring_cons_producer(&xs->rx);
	for (i = xs->rx.q.cached_cons; i != prod; i++)
		n += !(xring_rx_desc(&xs->rx, i)->options & XDP_PKT_CONTD);
	return n;
}

/* Wait until the peer has counted expect, or its count stood still */
static void peer_settle(struct xsk_bench *b, __u64 expect)
{
	__u64 end = mono_ns() + DRAIN_NS, since = mono_ns(), last = -1;
	struct xskb_peer_counters pc;

	while (!peer_read(b, &pc) && pc.packets < expect && mono_ns() < end) {
		if (pc.packets != last) {
			last = pc.packets;
			since = mono_ns();
		} else if (mono_ns() - since >= SETTLE_NS) {
			break;
		}
		usleep(1000);
	}
}

/* Counted runs: is it over? */
static bool count_done(struct xsk_bench *b, const struct counters *c,
		       const struct tgen_thread *g, __u64 idle_since)
{
	struct xsk_socket *xs = b->xs;
	bool idle = mono_ns() - idle_since >= IDLE_NS;

	switch (b->o.kind) {
	case XSKB_TXONLY:
		return (c->tx >= b->o.count &&
			xs->stats.tx_completed >= xs->stats.tx_descs) || idle;
	case XSKB_L2FWD:
		if (c->rx >= b->o.count &&
		    xs->stats.tx_completed >= xs->stats.tx_descs)
			return true;
		break;
	case XSKB_RXDROP:
		if (c->rx >= b->o.count)
			return true;
	}
	return g->done && idle;
}

/* Every counter's value where a window opens */
struct window {
	struct xskb_snap s;
	struct xskb_peer_counters p;
	struct veth_counts v;
	uint64_t drv_xdp;	/* xskb_result's drv_xdp_packets, cumulative */
	int drv_xdp_naming;
	__u64 net_rx;		/* net_rx() */
	uint64_t cpu;		/* the app thread's */
	__u64 cpu_clock;	/* CLOCK_THREAD_CPUTIME_ID (counted runs) */
	__u64 tx_kicks, rx_kicks;
	__u64 rx_line_stores;
	__u64 afp_syscalls;
	__u64 tx_descs;
};

/* The app thread's CPU time now, cheaply (counted runs' window ends) */
static __u64 thread_clock_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

/*
 * The loop's counts where its window ends: lp's, with the frames and the
 * syscalls since the window opened (w)
 */
static void loop_end(const struct xsk_bench *b, const struct counters *c,
		     const struct window *w, const struct xskb_loop *lp,
		     struct xskb_loop *l)
{
	*l = *lp;
	l->frames = b->o.kind == XSKB_TXONLY ? c->tx - w->s.tx_packets :
					       c->rx - w->s.rx_packets;
	l->syscalls = b->rx_kicks - w->rx_kicks;
	if (b->xs)
		l->syscalls += b->xs->stats.tx_kicks - w->tx_kicks;
	if (b->afp)
		l->syscalls += afp_rx_syscalls(b->afp) - w->afp_syscalls;
}

static inline void loop_account(struct xskb_loop *lp, bool busy, __u64 tsc)
{
	lp->iterations++;
	if (busy) {
		lp->busy_iterations++;
		lp->busy_tsc += tsc;
	} else {
		lp->idle_tsc += tsc;
	}
}

static void window_open(struct xsk_bench *b, const struct counters *c,
			pid_t tid, struct sirq_cpu *sc, struct window *w)
{
	snap(b, c, &w->s);
	peer_read(b, &w->p);
	afp_drops(b);
	b->afp_drops = 0;
	b->afp_left = 0;
	veth_read(b, &w->v);
	w->drv_xdp_naming = ethtool_stats_sum_named_of(b->ifname,
						       ethtool_xdp_packets_namings,
						       &w->drv_xdp);
	w->net_rx = net_rx(b, sc);
	own_cpu_ns(tid, &w->cpu);
	w->cpu_clock = thread_clock_ns();
	w->tx_kicks = b->xs ? b->xs->stats.tx_kicks : 0;
	w->tx_descs = b->xs ? b->xs->stats.tx_descs : 0;
	w->rx_kicks = b->rx_kicks;
	w->rx_line_stores = b->rx_line_stores;
	w->afp_syscalls = b->afp ? afp_rx_syscalls(b->afp) : 0;
	b->rx_bad = 0;
	b->rx_bytes = 0;
	if (b->lat)
		hist_reset(b->lat);
	b->lat_negative = 0;
	if (b->o.prof)
		prof_enable(b->o.prof);
	/* the warm-up's end opens it again: the plugin starts over */
	b->window = icount_window_start();
}

/* Every loss counter at the end of a run, read together */
struct fin {
	struct xdp_statistics st;
	struct veth_counts v;
	struct xskb_peer_counters p;
	__u64 left;		/* rx_ring_left() */
	__u64 tx_descs, tx_completed;
};

static void fin_read(struct xsk_bench *b, struct fin *f)
{
	int n;

	memset(f, 0, sizeof(*f));
	if (b->xs) {
		xsk_comp_reclaim(b->xs);
		xsk_socket_stats(b->xs, &f->st);
		f->left = rx_ring_left(b->xs);
		f->tx_descs = b->xs->stats.tx_descs;
		f->tx_completed = b->xs->stats.tx_completed;
	} else if (b->afp) {
		/* PACKET_STATISTICS resets on reading: add up */
		b->afp_drops += afp_drops(b);
		while ((n = afp_rx(b->afp, 256, 0, NULL, NULL)) > 0)
			b->afp_left += n;
	}
	veth_read(b, &f->v);
	peer_read(b, &f->p);
}

/* Fill r->acct (and r->drops) from the window's start w and its end f */
static void acct_compute(struct xsk_bench *b, const struct window *w,
			 const struct fin *f, bool rx_known,
			 struct xskb_result *r)
{
	struct xskb_acct *a = &r->acct;
	__u64 rxd = 0, fe = 0, sock, dpp, out;

	memset(a, 0, sizeof(*a));
	a->veth_counts_socket = b->port && b->port->mode == XSK_MODE_NATIVE &&
				!strcmp(b->port->driver, "veth");
	if (b->xs) {
		rxd = f->st.rx_dropped - w->s.st.rx_dropped;
		fe = f->st.rx_fill_ring_empty_descs -
		     w->s.st.rx_fill_ring_empty_descs;
		a->sock_fill_ring_empty = fe < rxd ? fe : rxd;
		a->sock_rx_dropped_other = rxd - a->sock_fill_ring_empty;
		a->sock_rx_ring_full = f->st.rx_ring_full - w->s.st.rx_ring_full;
		a->sock_rx_invalid = f->st.rx_invalid_descs -
				     w->s.st.rx_invalid_descs;
		a->rx_ring_left = f->left;
		sock = rxd + a->sock_rx_ring_full;
	} else {
		a->sock_rx_dropped_other = b->afp_drops;
		a->rx_ring_left = b->afp_left;
		sock = b->afp_drops;
	}
	r->drops = sock;
	a->veth0_rx_drops = f->v.dut_rx_drops - w->v.dut_rx_drops;
	a->lost_peer_xmit_errors = f->v.peer_xmit_err - w->v.peer_xmit_err;
	if (!a->veth_counts_socket)
		a->lost_dut_veth_drops = a->veth0_rx_drops;
	else if (a->veth0_rx_drops > sock)
		a->lost_dut_veth_drops = a->veth0_rx_drops - sock;
	a->received = r->d.rx_packets;
	a->rx_known = rx_known;
	if (rx_known) {
		a->rx_sent = r->gen_sent;
		a->rx_unaccounted = (__s64)(a->rx_sent - a->received -
					    a->lost_peer_xmit_errors -
					    a->lost_dut_veth_drops -
					    a->sock_fill_ring_empty -
					    a->sock_rx_dropped_other -
					    a->sock_rx_ring_full -
					    a->sock_rx_invalid -
					    a->rx_ring_left);
	}

	if (!b->env || !b->xs || b->o.kind == XSKB_RXDROP || !r->peer_known)
		return;
	a->tx_known = true;
	a->tx_queued = r->d.tx_packets;
	a->delivered = f->p.packets - w->p.packets;
	a->tx_invalid = f->st.tx_invalid_descs - w->s.st.tx_invalid_descs;
	/*
	 * Descriptors not completed, in packets: the own pair's frames are
	 * all of one length, so every packet has the same descriptors
	 */
	out = (f->tx_descs - w->tx_descs) - (f->tx_completed - w->s.tx_completed);
	dpp = a->tx_queued ? (f->tx_descs - w->tx_descs) / a->tx_queued : 1;
	a->tx_not_completed = dpp > 1 ? (out + dpp - 1) / dpp : out;
	a->lost_dut_tx_drops = f->v.dut_tx_dropped - w->v.dut_tx_dropped;
	a->lost_peer_rx_drops = f->v.peer_rx_drops - w->v.peer_rx_drops;
	a->tx_unaccounted = (__s64)(a->tx_queued - a->delivered -
				    a->tx_invalid - a->tx_not_completed -
				    a->lost_dut_tx_drops -
				    a->lost_peer_rx_drops);
}

/*
 * After the loop: wait for the late frames, until every frame is accounted
 * for, or the counters stood still for RX_SETTLE_NS (DRAIN_NS at most);
 * then read them all once more into f.  Not part of the measured window.
 */
#define RX_SETTLE_NS	(NSEC / 5)

static void settle(struct xsk_bench *b, const struct window *w, bool rx_known,
		   struct xskb_result *r, struct fin *f)
{
	__u64 now = mono_ns(), end = now + DRAIN_NS, since = now, sum, last;

	fin_read(b, f);
	acct_compute(b, w, f, rx_known, r);
	last = -1ULL;
	while (b->env && (r->acct.rx_unaccounted || r->acct.tx_unaccounted)) {
		sum = f->st.rx_dropped + f->st.rx_ring_full + f->left +
		      f->tx_completed + f->v.peer_xmit_err + f->v.dut_rx_drops +
		      f->v.dut_tx_dropped + f->v.peer_rx_drops + f->p.packets +
		      b->afp_drops + b->afp_left;
		now = mono_ns();
		if (sum != last) {
			last = sum;
			since = now;
		} else if (now - since >= RX_SETTLE_NS) {
			break;
		}
		if (now >= end)
			break;
		usleep(5000);
		fin_read(b, f);
		acct_compute(b, w, f, rx_known, r);
	}
}

/* A run, from its start to its results */
struct run_state {
	struct counters c;
	struct window w;		/* where the measured window opened */
	struct xskb_snap cur;		/* every counter after the loop */
	struct xskb_loop loop;		/* the loop's counts in the window */
	struct tgen_thread g;		/* the own pair's generator */
	struct sirq_cpu *sc0, *sc1;	/* softirq time: window open, end */
	pid_t tid;			/* the application thread */
	bool counted;			/* a run of b->o.count frames */
	bool gen;			/* with the generator */
	bool moved;			/* frames moved since the last idle turn */
	__u64 start;			/* when the run started */
	__u64 idle_since;		/* when frames last moved */
	__u64 last_t, last_cpu;		/* a counted run's window end */
	uint64_t cpu1;			/* the app thread's time after the loop */
};

/*
 * Pin the application thread, open the window (a counted run's opens
 * before the generator's first frame) and start the generator
 */
static int run_begin(struct xsk_bench *b, struct run_state *s,
		     __u64 warmup_ns, __u64 duration_ns, char err[ERR_LEN])
{
	int ret;

	s->sc0 = calloc(2 * b->ncpus, sizeof(*s->sc0));
	if (!s->sc0)
		return err_set(err, -ENOMEM, "out of memory");
	s->sc1 = s->sc0 + b->ncpus;
	ret = pin_self(b->o.app_cpu);
	if (ret) {
		free(s->sc0);
		return err_set(err, ret, "cannot pin the application thread to CPU %d",
				b->o.app_cpu);
	}
	s->start = mono_ns();
	if (b->sirq)
		sirq_watch(b->sirq, s->tid);
	window_open(b, &s->c, s->tid, s->sc0, &s->w);
	if (!s->gen)
		return 0;
	s->g.o.pkt_size = b->o.pkt_size;
	s->g.o.flows = 1;
	s->g.o.count = s->counted ? b->o.count : 0;
	/* a cap: the run stops it when its window is over */
	s->g.o.duration_ns = s->counted ? 0 : warmup_ns + duration_ns + 60 * NSEC;
	s->g.o.rate_pps = b->o.rate_pps;
	s->g.o.stamp = b->o.latency;
	s->g.o.cpu = b->o.gen_cpu;
	ret = tgen_thread_start(&s->g, b->env, err);
	if (ret) {
		/* the window is open: close what window_open() started */
		icount_window_stop(b->window);
		if (b->o.prof)
			prof_disable(b->o.prof);
		if (b->sirq)
			sirq_watch(b->sirq, 0);
		free(s->sc0);
	}
	return ret;
}

/* One batch of the run's kind: the packets it took or sent */
static inline __u32 run_batch(struct xsk_bench *b, struct run_state *s,
			      __u64 *seq)
{
	__u32 n = 0;

	switch (b->o.kind) {
	case XSKB_RXDROP:
		n = rxdrop_batch(b);
		s->c.rx += n;
		break;
	case XSKB_TXONLY:
		n = txonly_batch(b, s->counted ? b->o.count - s->c.tx : -1ULL,
				 seq);
		s->c.tx += n;
		break;
	case XSKB_L2FWD:
		n = l2fwd_batch(b);
		s->c.rx += n;
		s->c.tx += n;
		break;
	}
	return n;
}

/*
 * The measured loop: the warm-up, then the window, with a tick every
 * interval_ns; it ends when the window is over (a counted run: when its
 * frames are, or the generator's are and nothing moves), or on *stop
 */
static void measure(struct xsk_bench *b, struct run_state *s,
		    __u64 warmup_ns, __u64 duration_ns, __u64 interval_ns,
		    xskb_tick_fn tick, void *ctx, const volatile int *stop)
{
	__u64 wend = s->start + warmup_ns, end = wend + duration_ns;
	__u64 next, seq = 0, last_comp = 0, tsc, tsc_prev = 0;
	bool in_window = !warmup_ns, busy = false, pending = false;
	struct xskb_loop lp = {}, lend = {};
	struct xskb_snap prev = s->w.s, cur;

	next = s->start + (interval_ns ?: end - s->start);
	s->idle_since = s->start;
	/* no spin: the first idle turn may sleep already */
	b->poll_due = b->o.poll && !b->o.poll_spin_us;
	s->last_t = s->w.s.t_ns;
	s->last_cpu = s->w.cpu_clock;
	/* Tests: the rings fill and overflow while the app sleeps */
	if (b->o.stall_ms)
		usleep(b->o.stall_ms * 1000ULL);
	while (!(stop && *stop)) {
		__u32 n;
		__u64 now;

		/*
		 * The busy/idle split: the TSC once per iteration, at its top;
		 * the interval since the last read was the previous
		 * iteration's.  A read at the end instead would give a
		 * preemption before the ring is looked at to the busy class
		 * whenever frames came meanwhile (paced runs on a loaded
		 * machine: half the time off the CPU)
		 */
		tsc = tsc_read();
		if (pending)
			loop_account(&lp, busy, tsc - tsc_prev);
		tsc_prev = tsc;
		pending = true;

		n = run_batch(b, s, &seq);
		/* The clock is read once per batch, or per idle turn */
		now = mono_ns();
		b->now = now;
		if (b->hold_due) {
			/* from the end of the short turn (a poll() may be in it) */
			b->hold_until = now + b->o.rx_hold_us * 1000ULL;
			b->hold_due = false;
		}
		lp.batches += !!n;
		if (b->xs && b->xs->stats.tx_completed != last_comp) {
			last_comp = b->xs->stats.tx_completed;
			n = n ?: 1;
		}
		if (n) {
			s->idle_since = now;
			s->moved = true;
		} else if (s->counted && s->moved) {
			/*
			 * The first idle turn after frames moved: a counted
			 * run's window ends here (the loop's counts: before
			 * this turn) if nothing moves again
			 */
			s->moved = false;
			s->last_t = s->idle_since;
			s->last_cpu = thread_clock_ns();
			loop_end(b, &s->c, &s->w, &lp, &lend);
		}
		busy = n || b->kick_found;
		b->kick_found = false;
		b->poll_due = b->o.poll &&
			      now - s->idle_since >= b->o.poll_spin_us * 1000ULL;
		if (!in_window && now >= wend) {
			/* warm-up over: the window starts here */
			/* a thread kept off its CPU starts late: a whole window */
			in_window = true;
			end = now + duration_ns;
			window_open(b, &s->c, s->tid, s->sc0, &s->w);
			prev = s->w.s;
			next = now + (interval_ns ?: end - now);
			memset(&lp, 0, sizeof(lp));
			pending = false;
		}
		if (in_window && interval_ns && now >= next) {
			snap(b, &s->c, &cur);
			if (tick)
				tick(&prev, &cur, ctx);
			prev = cur;
			next += interval_ns;
		}
		if (s->counted ? count_done(b, &s->c, &s->g, s->idle_since) ||
				 (duration_ns && now >= s->start + duration_ns) :
				 now >= end)
			break;
	}
	if (pending)
		loop_account(&lp, busy, tsc_read() - tsc_prev);
	icount_window_stop(b->window);
	if (b->o.prof)
		prof_disable(b->o.prof);
	own_cpu_ns(s->tid, &s->cpu1);
	if (s->counted && s->moved) {
		s->last_t = s->idle_since;
		s->last_cpu = thread_clock_ns();
	}
	if (!s->counted || s->moved)
		loop_end(b, &s->c, &s->w, &lp, &s->loop);
	else
		s->loop = lend;
}

/*
 * After the window: stop the generator, then wait for what was sent to
 * complete and arrive
 */
static void run_drain(struct xsk_bench *b, struct run_state *s)
{
	__u64 drain;

	if (s->gen) {
		s->g.stop = 1;
		tgen_thread_join(&s->g);
	}
	drain = mono_ns() + DRAIN_NS;
	while (b->xs && b->xs->stats.tx_completed < b->xs->stats.tx_descs &&
	       mono_ns() < drain) {
		tx_kick(b, b->xs);
		xsk_comp_reclaim(b->xs);
	}
	if (b->peer && b->o.kind != XSKB_RXDROP)
		peer_settle(b, s->w.p.packets + s->cur.tx_packets -
			       s->w.s.tx_packets);
	if (b->xs)
		s->cur.tx_completed = b->xs->stats.tx_completed;
}

/* The window's latency, from the histogram */
static void lat_result(const struct xsk_bench *b, struct xskb_latency *l)
{
	memset(l, 0, sizeof(*l));
	if (!b->lat || !b->lat->n)
		return;
	l->known = true;
	l->frames = b->lat->n;
	l->negative = b->lat_negative;
	l->min = b->lat->min;
	l->p50 = hist_quantile(b->lat, 0.5);
	l->p90 = hist_quantile(b->lat, 0.9);
	l->p99 = hist_quantile(b->lat, 0.99);
	l->p999 = hist_quantile(b->lat, 0.999);
	l->max = b->lat->max;
}

/* The window's counters, from its start s->w and the settled end f */
static void result_fill(const struct xsk_bench *b, const struct run_state *s,
			const struct fin *f, const struct xskb_peer_counters *p1,
			struct xskb_result *r)
{
	const struct window *w = &s->w;
	__u64 best = 0;
	int cpu;

	r->d.st.rx_dropped = f->st.rx_dropped - w->s.st.rx_dropped;
	r->d.st.rx_invalid_descs = f->st.rx_invalid_descs - w->s.st.rx_invalid_descs;
	r->d.st.tx_invalid_descs = f->st.tx_invalid_descs - w->s.st.tx_invalid_descs;
	r->d.st.rx_ring_full = f->st.rx_ring_full - w->s.st.rx_ring_full;
	r->d.st.rx_fill_ring_empty_descs = f->st.rx_fill_ring_empty_descs -
					   w->s.st.rx_fill_ring_empty_descs;
	r->d.st.tx_ring_empty_descs = f->st.tx_ring_empty_descs -
				      w->s.st.tx_ring_empty_descs;
	if (r->peer_known) {
		r->peer.packets = p1->packets - w->p.packets;
		r->peer.bytes = p1->bytes - w->p.bytes;
		r->peer.mac_ok = p1->mac_ok - w->p.mac_ok;
		r->peer.mac_bad = p1->mac_bad - w->p.mac_bad;
		r->peer.len_bad = p1->len_bad - w->p.len_bad;
		r->peer.payload_ok = p1->payload_ok - w->p.payload_ok;
		r->peer.payload_bad = p1->payload_bad - w->p.payload_bad;
		r->peer.seq_sum = p1->seq_sum - w->p.seq_sum;
		r->d.delivered = r->peer.packets;
	}
	r->rx_bytes = b->rx_bytes;
	r->rx_bad = b->rx_bad;
	if (b->o.kind == XSKB_RXDROP) {
		r->packets = r->d.rx_packets;
		r->counted_at = "app rx";
	} else if (r->peer_known) {
		r->packets = r->peer.packets;
		r->counted_at = "peer";
	} else {
		r->packets = r->d.tx_completed;
		r->counted_at = "tx completions";
	}
	r->pps = r->duration_ns ? r->packets * 1e9 / r->duration_ns : 0;
	/* It polls without sleeping: less than half the window on a CPU */
	r->disturbed = !b->o.poll && !b->o.stall_ms &&
		       r->app_cpu_ns < r->duration_ns / 2;
	r->app_ns_per_pkt = r->packets ? (double)r->app_cpu_ns / r->packets : 0;
	r->net_rx_known = b->sirq;
	r->net_rx_cpu = -1;
	for (cpu = 0; b->sirq && cpu < b->ncpus; cpu++) {
		const struct sirq_cpu *c0 = &s->sc0[cpu], *c1 = &s->sc1[cpu];
		__u64 d = (c1->net_rx_ns - c1->net_rx_foreign_ns) -
			  (c0->net_rx_ns - c0->net_rx_foreign_ns);

		r->net_rx_softirqs += c1->net_rx_count - c0->net_rx_count;
		r->app_softirq_ns += c1->watch_ns - c0->watch_ns;
		if (d > best) {
			best = d;
			r->net_rx_cpu = cpu;
		}
	}
	r->net_rx_ns_per_pkt = r->packets ? (double)r->net_rx_ns / r->packets : 0;
	r->gen_ran = s->gen;
	r->gen_cpu_ns = s->g.res.cpu_ns;
	r->gen_method = s->g.res.method;
	r->gen_cpu = s->gen ? s->g.last_cpu : -1;
	lat_result(b, &r->lat);
}

static int run(struct xsk_bench *b, __u64 warmup_ns, __u64 duration_ns,
	       __u64 interval_ns, xskb_tick_fn tick, void *ctx,
	       const volatile int *stop, struct xskb_result *r, char err[ERR_LEN])
{
	struct run_state s = { .g.done = 1 };
	struct xskb_peer_counters p1;
	uint64_t x;
	struct fin f;
	__u64 loop_drops;
	bool rx_known;
	int ret;

	memset(r, 0, sizeof(*r));
	r->af_xdp = !b->o.afpacket;
	s.counted = b->o.count && (b->env || b->o.kind == XSKB_TXONLY);
	s.gen = b->env && b->o.kind != XSKB_TXONLY;
	s.tid = syscall(SYS_gettid);
	if (s.counted)
		warmup_ns = 0;
	ret = run_begin(b, &s, warmup_ns, duration_ns, err);
	if (ret)
		return ret;
	measure(b, &s, warmup_ns, duration_ns, interval_ns, tick, ctx, stop);
	r->window = b->window;
	r->loop = s.loop;
	r->net_rx_ns = net_rx(b, s.sc1) - s.w.net_rx;
	if (b->sirq)
		sirq_watch(b->sirq, 0);
	snap(b, &s.c, &s.cur);
	b->afp_drops += afp_drops(b);
	r->app_cpu = thread_last_cpu(s.tid);
	r->tx_kicks = (b->xs ? b->xs->stats.tx_kicks : 0) - s.w.tx_kicks;
	r->rx_kicks = b->rx_kicks - s.w.rx_kicks;
	r->rx_line_stores = b->rx_line_stores - s.w.rx_line_stores;

	run_drain(b, &s);
	r->peer_known = !peer_read(b, &p1);
	r->drv_xdp_naming = ethtool_stats_sum_named_of(b->ifname,
						       ethtool_xdp_packets_namings,
						       &x);
	if (r->drv_xdp_naming != s.w.drv_xdp_naming)
		r->drv_xdp_naming = -1;
	r->drv_xdp_packets = r->drv_xdp_naming < 0 ? 0 : x - s.w.drv_xdp;
	if (s.gen && s.g.ret) {
		free(s.sc0);
		return err_wrap(err, s.g.ret, "generator: %s", s.g.err);
	}

	/*
	 * A counted run's window ends with the last frame that moved (or,
	 * when it ended on its count, with the loop): not with the wait
	 * for late frames that never came
	 */
	if (s.counted) {
		s.cur.t_ns = s.last_t;
		r->window_end_ns = s.last_t;
		r->app_cpu_ns = s.last_cpu - s.w.cpu_clock;
	} else {
		r->app_cpu_ns = s.cpu1 - s.w.cpu;
	}
	r->duration_ns = s.cur.t_ns - s.w.s.t_ns;
	r->d.t_ns = r->duration_ns;
	r->d.rx_packets = s.cur.rx_packets - s.w.s.rx_packets;
	r->d.tx_packets = s.cur.tx_packets - s.w.s.tx_packets;
	r->d.tx_completed = s.cur.tx_completed - s.w.s.tx_completed;
	r->gen_sent = s.g.res.sent;
	if (b->xs)
		loop_drops = s.cur.st.rx_dropped - s.w.s.st.rx_dropped +
			     s.cur.st.rx_ring_full - s.w.s.st.rx_ring_full;
	else
		loop_drops = b->afp_drops;
	/* The losses: every counter once more, after the late frames */
	rx_known = s.gen && !warmup_ns;
	settle(b, &s.w, rx_known, r, &f);
	/*
	 * With a warm-up the generator's frames are not the window's and
	 * there is no accounting: the socket's drops are the window's own
	 * (xdp_sweep --stacks), not those of the tail after the loop
	 */
	if (!rx_known)
		r->drops = loop_drops;
	if (r->peer_known)
		p1 = f.p;
	result_fill(b, &s, &f, &p1, r);
	free(s.sc0);
	return 0;
}

/* The calling thread is pinned to app_cpu for the run only */
int xskb_run(struct xsk_bench *b, __u64 warmup_ns, __u64 duration_ns,
	     __u64 interval_ns, xskb_tick_fn tick, void *ctx,
	     const volatile int *stop, struct xskb_result *r, char err[ERR_LEN])
{
	bool restore;
	cpu_set_t set;
	int ret;

	restore = !sched_getaffinity(0, sizeof(set), &set);
	ret = run(b, warmup_ns, duration_ns, interval_ns, tick, ctx, stop, r,
		  err);
	if (restore)
		sched_setaffinity(0, sizeof(set), &set);
	return ret;
}

void xskb_loop_figures(const struct xskb_loop *l, double ghz,
		       struct xskb_loop_fig *f)
{
	__u64 tsc = l->busy_tsc + l->idle_tsc;

	memset(f, 0, sizeof(*f));
	f->split = tsc;
	f->per_pkt = tsc && l->frames && ghz > 0;
	if (f->split)
		f->busy_share = (double)l->busy_tsc / tsc;
	if (l->iterations)
		f->busy_iter_share = (double)l->busy_iterations / l->iterations;
	if (l->batches)
		f->frames_per_batch = (double)l->frames / l->batches;
	if (!l->frames)
		return;
	f->syscalls_per_pkt = (double)l->syscalls / l->frames;
	f->busy_cycles_per_pkt = (double)l->busy_tsc / l->frames;
	f->total_cycles_per_pkt = (double)tsc / l->frames;
	if (ghz > 0) {
		f->busy_ns_per_pkt = f->busy_cycles_per_pkt / ghz;
		f->total_ns_per_pkt = f->total_cycles_per_pkt / ghz;
	}
}

bool xskb_acct_balanced(const struct xskb_acct *a)
{
	return (!a->rx_known || !a->rx_unaccounted) &&
	       (!a->tx_known || !a->tx_unaccounted);
}
