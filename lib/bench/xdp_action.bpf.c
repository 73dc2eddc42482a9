// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_action: apply one XDP action to every frame, counting per CPU and per
 * RX queue, in the manner of the kernel's old xdp_rxq_info sample.
 *
 * Set before load (read-only data, so the verifier sees constants):
 *   action	XDP_DROP, XDP_TX, XDP_PASS, XDP_REDIRECT (to tx_port[0]) or
 *		XDP_ABORTED
 *   readmem	read the Ethernet header (touch packet data)
 *   swapmac	swap the MAC addresses (always done for XDP_TX)
 *   loop_k	an injected cost: K iterations of bpf_loop() per frame, to
 *		check that measured cost rises in proportion
 *   spin_n	a finer one: N iterations of a multiply-add inline
 *		(xsk_spin.h, at most XSK_SPIN_MAX; the verifier walks each,
 *		loop_k's bpf_loop() not)
 *
 * xdp_action is for single-buffer frames; xdp_action_frags, the same code,
 * also loads where frames may come in several buffers (jumbo MTU).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

#include "xsk_spin.h"

#define MAX_RXQ 64

const volatile __u32 action = XDP_PASS;
const volatile __u32 readmem;
const volatile __u32 swapmac;
const volatile __u32 loop_k;
const volatile __u32 spin_n;

struct rxq_rec {
	__u64 packets;
	__u64 bytes;
	__u64 issue;		/* the action failed: redirect error, short frame */
};

/* Per CPU, one record per RX queue; userspace adds them up */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MAX_RXQ);
	__type(key, __u32);
	__type(value, struct rxq_rec);
} rxq_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} tx_port SEC(".maps");

static long loop_body(__u32 i, void *ctx)
{
	__u64 *acc = ctx;

	*acc = *acc * 31 + i;
	return 0;
}

static __always_inline void swap_mac(struct ethhdr *eth)
{
	unsigned char tmp[ETH_ALEN];

	__builtin_memcpy(tmp, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, tmp, ETH_ALEN);
}

/*
 * The counting is what every frame pays on top of the action: one lookup
 * (inlined for an array), two adds.  The length of a multi-buffer frame
 * needs a helper call; a single-buffer frame's is data_end - data.
 */
static __always_inline int apply(struct xdp_md *ctx, const int frags)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 q = ctx->rx_queue_index;
	struct ethhdr *eth = data;
	struct rxq_rec *rec;
	__u32 act = action;
	__u64 len;

	if (q >= MAX_RXQ)
		q = MAX_RXQ - 1;
	rec = bpf_map_lookup_elem(&rxq_stats, &q);
	if (!rec)
		return XDP_ABORTED;
	len = frags ? bpf_xdp_get_buff_len(ctx) : data_end - data;
	rec->packets++;
	rec->bytes += len;

	if (readmem || swapmac || act == XDP_TX) {
		if ((void *)(eth + 1) > data_end) {
			rec->issue++;
			return XDP_DROP;
		}
		if (readmem && eth->h_proto == 0)
			rec->issue++;	/* a read the compiler cannot drop */
		if (swapmac || act == XDP_TX)
			swap_mac(eth);
	}
	if (loop_k) {
		__u64 acc = len;

		bpf_loop(loop_k, loop_body, &acc, 0);
		if (acc == 1)
			rec->issue++;
	}
	if (spin_n && xsk_spin(spin_n, len) == 1)
		rec->issue++;
	if (act == XDP_REDIRECT) {
		act = bpf_redirect_map(&tx_port, 0, XDP_ABORTED);
		if (act != XDP_REDIRECT)
			rec->issue++;
	}
	return act;
}

SEC("xdp")
int xdp_action(struct xdp_md *ctx)
{
	return apply(ctx, 0);
}

SEC("xdp.frags")
int xdp_action_frags(struct xdp_md *ctx)
{
	return apply(ctx, 1);
}

char _license[] SEC("license") = "GPL";
