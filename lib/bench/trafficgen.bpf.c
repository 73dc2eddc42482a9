// SPDX-License-Identifier: GPL-2.0
/*
 * XDP programs of the traffic generator.
 *
 * tgen_tx:   run by BPF_PROG_RUN in live-frames mode (never attached): makes
 *	      frame n of the run from the template by rewriting the UDP source
 *	      port (port_base + n % flows) and the payload's 32-bit sequence
 *	      number (n), counts it and sends it back out of the ingress
 *	      interface with XDP_TX.  With bare set it only returns XDP_TX:
 *	      the template as it is, nothing counted (the live-frames limit).
 *	      With stamp set it also writes the time it made the frame
 *	      (trafficgen_common.h, TGEN_STAMP_OFF).  Paced, it sends a
 *	      frame only when it is due, and no more than limit.
 * tgen_sink: a receiver for tests and the tool: counts frames, bytes, frames
 *	      per UDP source port, the smallest and largest frame, and drops
 *	      everything.
 *
 * The frame layout is xsk_pkt.h's: Ethernet 14 + IPv4 20 (no options) + UDP 8,
 * then the sequence number in host order.  The UDP checksum is 0 and the IP
 * id is 0, so neither needs updating.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "trafficgen_common.h"

/* Set before load */
const volatile __u32 flows = 1;
const volatile __u32 port_base = TGEN_PORT_BASE;

/*
 * Sequence number of the next frame.  Only one thread runs a generator's
 * program at a time (BPF_PROG_RUN in a loop), so a plain global counter is
 * exact even when the thread moves between CPUs.
 */
__u64 next_seq;

/* When set, tgen_tx drops every frame and counts nothing (limit probing) */
__u32 probe;
/* When set, tgen_tx sends the template unchanged and counts nothing */
__u32 bare;
/* When set, tgen_tx stamps each frame with bpf_ktime_get_ns() */
__u32 stamp;
/*
 * Paced runs: frame n is due at pace_start + n * pace_x1024 / 1024 ns
 * (CLOCK_MONOTONIC; pace_start 0: the first run's time); a run of the program before then sends nothing
 * (XDP_DROP: the test frame goes back to the page pool, nothing counted),
 * so one BPF_PROG_RUN call of many repeats sends at the rate.  A run
 * behind the schedule sends at once.  0: as fast as it goes.
 */
__u64 pace_start;
__u64 pace_x1024;
/* Frames to send in all, then nothing more (XDP_DROP); 0: no limit */
__u64 limit;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} tx_count SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tgen_sink_counters);
} sink_count SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FRAME_MAX_FLOWS);
	__type(key, __u32);
	__type(value, __u64);
} sink_ports SEC(".maps");

#define SPORT_OFF	(ETH_HLEN + sizeof(struct iphdr) + \
			 offsetof(struct udphdr, source))
#define SEQ_OFF		(ETH_HLEN + sizeof(struct iphdr) + \
			 sizeof(struct udphdr))

SEC("xdp")
int tgen_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u32 key = 0;
	__u64 *cnt, n;

	if (probe)
		return XDP_DROP;
	if (bare)
		return XDP_TX;
	if (data + SEQ_OFF + sizeof(__u32) > data_end)
		return XDP_ABORTED;
	if (limit && next_seq >= limit)
		return XDP_DROP;
	if (pace_x1024) {
		__u64 now = bpf_ktime_get_ns();

		/* from the first run on: the call's set-up is not behind */
		if (!pace_start)
			pace_start = now;
		if (now < pace_start + ((next_seq * pace_x1024) >> 10))
			return XDP_DROP;
	}

	if (stamp) {
		__u64 now = bpf_ktime_get_ns();

		if (data + TGEN_STAMP_MIN_LEN > data_end)
			return XDP_ABORTED;
		__builtin_memcpy(data + TGEN_STAMP_OFF, &now, sizeof(now));
	}
	n = next_seq++;
	*(__u16 *)(data + SPORT_OFF) = bpf_htons(port_base + n % flows);
	*(__u32 *)(data + SEQ_OFF) = (__u32)n;

	cnt = bpf_map_lookup_elem(&tx_count, &key);
	if (cnt)
		(*cnt)++;
	return XDP_TX;
}

SEC("xdp.frags")
int tgen_sink(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u32 len = bpf_xdp_get_buff_len(ctx);
	struct tgen_sink_counters *c;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct udphdr *udp;
	__u32 key = 0, port;
	__u64 *pc;

	c = bpf_map_lookup_elem(&sink_count, &key);
	if (!c)
		return XDP_DROP;
	c->packets++;
	c->bytes += len;
	if (!c->min_len || len < c->min_len)
		c->min_len = len;
	if (len > c->max_len)
		c->max_len = len;

	ip = (struct iphdr *)(eth + 1);
	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    ip->protocol != IPPROTO_UDP || ip->ihl != 5)
		goto other;
	udp = (struct udphdr *)(ip + 1);
	if ((void *)(udp + 1) > data_end)
		goto other;
	port = bpf_ntohs(udp->source) - TGEN_PORT_BASE;
	if (port >= FRAME_MAX_FLOWS)
		goto other;
	pc = bpf_map_lookup_elem(&sink_ports, &port);
	if (pc)
		(*pc)++;
	return XDP_DROP;
other:
	c->other++;
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
