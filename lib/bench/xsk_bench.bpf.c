// SPDX-License-Identifier: GPL-2.0
/*
 * xskb_peer: the receiver on the peer veth for xdpsock's txonly and l2fwd
 * benchmarks.  Counts every frame that reaches the peer and checks it:
 *
 *   MACs	destination == want_dst and source == want_src (the peer's and
 *		the dut's addresses: frames the dut sent, or swapped back)
 *   length	== want_len, when set
 *   payload	with check_payload: the IPv4/UDP headers agree with the
 *		length and every payload byte has xsk_pkt.h's pattern, read
 *		with bpf_xdp_load_bytes() so that multi-buffer frames are
 *		checked whole
 *
 * and adds up the sequence numbers, so that N frames numbered 0..N-1 sum to
 * N(N-1)/2.  Everything is dropped.  Counters are per CPU; userspace adds
 * them up.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <linux/udp.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "xsk_bench_common.h"

/* Ethernet + IPv4 + UDP; an int, so that no size_t widens the arithmetic */
#define HDR_LEN		42
#define CHUNK		64

const volatile __u8 want_dst[ETH_ALEN];
const volatile __u8 want_src[ETH_ALEN];
const volatile __u32 want_len;
const volatile __u32 check_payload;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xskb_peer_counters);
} peer_count SEC(".maps");

struct chunk_ctx {
	struct xdp_md *xdp;
	__u32 len;		/* of the whole frame */
	__u32 bad;
};

/* xsk_pkt.h's pattern: payload byte at offset off (off >= 4) */
static __always_inline __u8 pattern(__u32 off)
{
	return (__u8)(off * 13 + (off >> 8));
}

/*
 * Payload bytes [4 + i * CHUNK, ...): a whole chunk in one load, the tail
 * byte by byte (constant sizes: the verifier needs no bounds on them)
 */
static long check_chunk(__u32 i, void *arg)
{
	struct chunk_ctx *c = arg;
	__u32 off = HDR_LEN + 4 + i * CHUNK, j;
	__u8 buf[CHUNK];

	if (off >= c->len)
		return 1;
	if (c->len - off >= CHUNK) {
		if (bpf_xdp_load_bytes(c->xdp, off, buf, CHUNK))
			goto bad;
		for (j = 0; j < CHUNK; j++)
			if (buf[j] != pattern(off - HDR_LEN + j))
				goto bad;
		return 0;
	}
	for (j = 0; j < CHUNK && off + j < c->len; j++) {
		if (bpf_xdp_load_bytes(c->xdp, off + j, buf, 1) ||
		    buf[0] != pattern(off - HDR_LEN + j))
			goto bad;
	}
	return 1;
bad:
	c->bad = 1;
	return 1;
}

static __always_inline bool headers_ok(struct xdp_md *ctx, __u32 len,
				       __u32 *seq)
{
	struct {
		struct ethhdr eth;
		struct iphdr ip;
		struct udphdr udp;
		__u32 seq;
	} __attribute__((packed)) h;

	if (len < sizeof(h) || bpf_xdp_load_bytes(ctx, 0, &h, sizeof(h)))
		return false;
	*seq = h.seq;
	return h.eth.h_proto == bpf_htons(ETH_P_IP) && h.ip.ihl == 5 &&
	       h.ip.protocol == IPPROTO_UDP &&
	       bpf_ntohs(h.ip.tot_len) == len - ETH_HLEN &&
	       bpf_ntohs(h.udp.len) == len - ETH_HLEN - sizeof(struct iphdr);
}

SEC("xdp.frags")
int xskb_peer(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 len = bpf_xdp_get_buff_len(ctx), key = 0, seq = 0, i;
	struct xskb_peer_counters *c;
	struct ethhdr *eth = data;
	bool mac_ok = true;

	c = bpf_map_lookup_elem(&peer_count, &key);
	if (!c)
		return XDP_DROP;
	c->packets++;
	c->bytes += len;
	if ((void *)(eth + 1) > data_end) {
		c->mac_bad++;
		return XDP_DROP;
	}
	for (i = 0; i < ETH_ALEN; i++)
		if (eth->h_dest[i] != want_dst[i] ||
		    eth->h_source[i] != want_src[i])
			mac_ok = false;
	if (mac_ok)
		c->mac_ok++;
	else
		c->mac_bad++;
	if (want_len && len != want_len)
		c->len_bad++;
	if (check_payload) {
		struct chunk_ctx cc = { .xdp = ctx, .len = len };
		__u32 chunks = (len - HDR_LEN) / CHUNK + 1;

		/* bpf_loop() fails (E2BIG) above 2^23 loops: bad as well */
		if (!headers_ok(ctx, len, &seq) ||
		    bpf_loop(chunks, check_chunk, &cc, 0) < 0)
			cc.bad = 1;
		if (cc.bad)
			c->payload_bad++;
		else
			c->payload_ok++;
		c->seq_sum += seq;
	}
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
