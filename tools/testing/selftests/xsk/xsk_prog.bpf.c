// SPDX-License-Identifier: GPL-2.0
/*
 * XDP programs of the AF_XDP core.
 *
 * xsk_redirect: every frame of queue q goes to the socket in xsks_map[q];
 *		 frames of a queue without a socket go to the stack.
 * xdp_pass:	 the peer's program: makes a veth run native XDP (and so
 *		 accept XDP_TX and redirected frames) and passes everything.
 * xdp_drop:	 the same, for a peer that only counts what comes back.
 *
 * Both are "xdp.frags" so that they load at jumbo MTU.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

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

SEC("xdp.frags")
int xsk_redirect(struct xdp_md *ctx)
{
	struct counters *c = count(ctx);
	long act;

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

char _license[] SEC("license") = "GPL";
