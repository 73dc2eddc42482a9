// SPDX-License-Identifier: GPL-2.0
/*
 * xskb_redirect: the XDP program of the AF_XDP loops that lib/bench/xsk_bench.c
 * measures (xdpsock, xdp_sweep --stacks).  Every frame of queue q goes to
 * the socket in xskb_xsks[q]; frames of a queue without a socket go to the
 * stack.  With spin_n set before load, each frame costs spin_n more
 * iterations of xsk_spin.h's loop (xdp_sweep --spin: a measurement checked
 * against a change of known size).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "xsk_spin.h"

#define MAX_QUEUES 64

/*
 * Set before load: in .rodata, which libbpf freezes, the verifier sees a
 * constant and removes the loop when it is 0
 */
const volatile __u32 spin_n;
__u64 spin_one;		/* xsk_spin() gave 1: keeps its loop */

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, MAX_QUEUES);
	__type(key, __u32);
	__type(value, __u32);
} xskb_xsks SEC(".maps");

SEC("xdp.frags")
int xskb_redirect(struct xdp_md *ctx)
{
	if (spin_n && xsk_spin(spin_n, ctx->data_end - ctx->data) == 1)
		__sync_fetch_and_add(&spin_one, 1);
	return bpf_redirect_map(&xskb_xsks, ctx->rx_queue_index, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
