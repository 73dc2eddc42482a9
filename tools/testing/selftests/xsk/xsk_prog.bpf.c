// SPDX-License-Identifier: GPL-2.0
/* kernel-patches: prog */
/*
 * XDP programs of the AF_XDP core.
 *
 * xsk_redirect: every frame of queue q goes to the socket in xsks_map[q];
 *		 frames of a queue without a socket go to the stack.  With
 *		 xsk_tx_flow set, frames of that UDP source port go back out
 *		 instead (XDP_TX, MAC addresses swapped), beside the
 *		 socket's own transmits.
 * xdp_pass:	 the peer's program: makes a veth run native XDP (and so
 *		 accept XDP_TX and redirected frames) and passes everything.
 * xdp_drop:	 the same, for a peer that only counts what comes back.
 * xdp_mb:	 the multi-buffer tests' program: drops, aborts, passes, sends
 *		 back, redirects or runs the helpers on fragments
 *		 (xsk_prog_mb.h).
 * xdp_mb_linear: the same without "xdp.frags" (and without redirecting),
 *		 for the rule that such a program never sees a fragment nor a
 *		 part of a frame.
 * xdp_linear:	 passes, without "xdp.frags": refused at jumbo MTU.
 *
 * All but xdp_linear and xdp_mb_linear are "xdp.frags" so that they load
 * at jumbo MTU.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "xsk_prog_mb.h"

#define MAX_QUEUES 64

struct counters {
	__u64 rx_packets;
	__u64 rx_bytes;
	__u64 redirected;
	__u64 no_socket;
};

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, MAX_QUEUES);
	__type(key, __u32);
	__type(value, __u32);
} xsks_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct counters);
} counters SEC(".maps");

static __always_inline struct counters *count(struct xdp_md *ctx)
{
	__u32 key = 0;
	struct counters *c = bpf_map_lookup_elem(&counters, &key);

	if (c) {
		c->rx_packets++;
		c->rx_bytes += bpf_xdp_get_buff_len(ctx);
	}
	return c;
}

/* xsk_redirect: frames of this UDP source port go back (XDP_TX); 0: none */
__u16 xsk_tx_flow;
__u64 xsk_tx_back;	/* how many went back */

/* Whether the frame is of xsk_tx_flow; if so, its MAC addresses swapped */
static __always_inline bool tx_back(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	__be16 *sport = (void *)(ip + 1);
	unsigned char t[ETH_ALEN];

	if (!xsk_tx_flow || (void *)(sport + 1) > end)
		return false;
	if (eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP || *sport != bpf_htons(xsk_tx_flow))
		return false;
	__builtin_memcpy(t, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, t, ETH_ALEN);
	return true;
}

/*
 * The sequence numbers (xsk_pkt.h) of the first XSK_SEEN frames the program
 * saw, in the order it saw them: where a frame was reordered, before the
 * program (the device, the driver's Rx ring) or after it
 */
#define XSK_SEEN	128
__u32 xsk_seen_seq[XSK_SEEN];
__u32 xsk_seen;

static __always_inline void seen(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 *seq = data + 42;		/* XSK_PKT_HDR_LEN */
	__u32 n = xsk_seen++;

	if ((void *)(seq + 1) <= end && n < XSK_SEEN)
		xsk_seen_seq[n] = *seq;
}

static __always_inline int redirect(struct xdp_md *ctx)
{
	struct counters *c = count(ctx);
	long act;

	seen(ctx);
	if (tx_back(ctx)) {
		__sync_fetch_and_add(&xsk_tx_back, 1);
		return XDP_TX;
	}

	act = bpf_redirect_map(&xsks_map, ctx->rx_queue_index, XDP_PASS);
	if (c) {
		if (act == XDP_REDIRECT)
			c->redirected++;
		else
			c->no_socket++;
	}
	return act;
}

SEC("xdp.frags")
int xsk_redirect(struct xdp_md *ctx)
{
	return redirect(ctx);
}

/* The same without frags support, to swap for it */
SEC("xdp")
int xsk_redirect_linear(struct xdp_md *ctx)
{
	return redirect(ctx);
}

SEC("xdp.frags")
int xdp_pass(struct xdp_md *ctx)
{
	count(ctx);
	return XDP_PASS;
}

SEC("xdp.frags")
int xdp_drop(struct xdp_md *ctx)
{
	count(ctx);
	return XDP_DROP;
}

SEC("xdp")
int xdp_linear(struct xdp_md *ctx)
{
	count(ctx);
	return XDP_PASS;
}

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} mb_tx_port SEC(".maps");

__u32 mb_mode;
__u32 mb_helpers_tx;	/* XDP_MB_HELPERS: then XDP_TX, not pass */
unsigned char mb_mark[ETH_ALEN];
struct xdp_mb_stats mb_stats;

static __always_inline void mb_error(long ret)
{
	if (!mb_stats.helper_errors++)
		mb_stats.first_error = ret;
}

/*
 * Overwrite XDP_MB_CROSS_LEN bytes across the end of the linear part (what
 * was there goes to mb_stats.cross), then shrink the tail by XDP_MB_SHRINK
 * and grow it by XDP_MB_GROW, checking the length after each step; the
 * growing's result goes to mb_stats.grow_ret.  Then the frame is passed,
 * or with mb_helpers_tx sent back (MAC addresses swapped).
 */
static __always_inline void swap_mac(struct ethhdr *eth)
{
	unsigned char tmp[ETH_ALEN];

	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
}

static __always_inline void mb_helpers(struct xdp_md *ctx, __u64 len)
{
	__u8 fill[XDP_MB_CROSS_LEN];
	__u32 linear = ctx->data_end - ctx->data;
	__u32 n = mb_stats.helper_frames++;
	long ret;
	int i;

	mb_stats.linear = linear;
	if (n < XDP_MB_LINEARS)
		mb_stats.linears[n] = linear;
	if (linear < XDP_MB_CROSS_LEN / 2 ||
	    len < linear + XDP_MB_CROSS_LEN / 2 + XDP_MB_SHRINK) {
		mb_error(-1);
		return;
	}
	for (i = 0; i < XDP_MB_CROSS_LEN; i++)
		fill[i] = XDP_MB_CROSS_BYTE;
	ret = bpf_xdp_load_bytes(ctx, linear - XDP_MB_CROSS_LEN / 2,
				 mb_stats.cross, XDP_MB_CROSS_LEN);
	if (!ret)
		ret = bpf_xdp_store_bytes(ctx, linear - XDP_MB_CROSS_LEN / 2,
					  fill, XDP_MB_CROSS_LEN);
	if (!ret)
		ret = bpf_xdp_adjust_tail(ctx, -XDP_MB_SHRINK);
	if (!ret && bpf_xdp_get_buff_len(ctx) != len - XDP_MB_SHRINK)
		ret = -2;
	if (ret) {
		mb_error(ret);
		return;
	}
	/* growing needs the driver's fragment size (rxq->frag_size) */
	mb_stats.grow_ret = bpf_xdp_adjust_tail(ctx, XDP_MB_GROW);
	if (bpf_xdp_get_buff_len(ctx) != len - XDP_MB_SHRINK +
	    (mb_stats.grow_ret ? 0 : XDP_MB_GROW))
		mb_error(-3);
}

static __always_inline int is_mark(const unsigned char *mac)
{
	int i;

	for (i = 0; i < ETH_ALEN; i++)
		if (mac[i] != mb_mark[i])
			return 0;
	return 1;
}

/* Whether the frame is shorter or longer than its IPv4 header says */
static __always_inline bool mb_partial(struct ethhdr *eth, void *data_end,
				       __u64 len)
{
	struct iphdr *ip = (struct iphdr *)(eth + 1);

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return true;
	return len != ETH_HLEN + (__u64)bpf_ntohs(ip->tot_len);
}

/*
 * redirect: whether XDP_MB_REDIRECT may use mb_tx_port, which a program
 * without frags support may not share with one that has it (a devmap
 * takes the frags support of its first program)
 */
static __always_inline int mb_run(struct xdp_md *ctx, bool redirect)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u64 len = bpf_xdp_get_buff_len(ctx);
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return XDP_ABORTED;
	__sync_fetch_and_add(&mb_stats.frames, 1);
	__sync_fetch_and_add(&mb_stats.bytes, len);
	if (len > (__u64)(data_end - data))
		__sync_fetch_and_add(&mb_stats.multi, 1);
	if (mb_partial(eth, data_end, len))
		__sync_fetch_and_add(&mb_stats.partial, 1);

	switch (mb_mode) {
	case XDP_MB_DROP:
		return XDP_DROP;
	case XDP_MB_ABORTED:
		return XDP_ABORTED;
	case XDP_MB_PASS:
		return XDP_PASS;
	case XDP_MB_TX:
		swap_mac(eth);
		return XDP_TX;
	case XDP_MB_REDIRECT:
		if (!redirect)
			return XDP_ABORTED;
		if (is_mark(eth->h_source)) {
			__sync_fetch_and_add(&mb_stats.marked, 1);
			return XDP_PASS;
		}
		__builtin_memcpy(eth->h_source, mb_mark, ETH_ALEN);
		return bpf_redirect_map(&mb_tx_port, 0, XDP_ABORTED);
	case XDP_MB_HELPERS:
		mb_helpers(ctx, len);
		if (!mb_helpers_tx)
			return XDP_PASS;
		data = (void *)(long)ctx->data;
		eth = data;
		if ((void *)(eth + 1) > (void *)(long)ctx->data_end)
			return XDP_ABORTED;
		swap_mac(eth);
		return XDP_TX;
	}
	return XDP_ABORTED;
}

SEC("xdp.frags")
int xdp_mb(struct xdp_md *ctx)
{
	return mb_run(ctx, true);
}

/* The same without frags support: it must never see a fragment */
SEC("xdp")
int xdp_mb_linear(struct xdp_md *ctx)
{
	return mb_run(ctx, false);
}

char _license[] SEC("license") = "GPL";
