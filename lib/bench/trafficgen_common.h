/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the traffic generator's XDP programs (trafficgen.bpf.c) and their
 * userspace (trafficgen.c) share.
 */
#ifndef TRAFFICGEN_COMMON_H
#define TRAFFICGEN_COMMON_H

#include <linux/types.h>

#include "frame.h"

/* UDP source ports are TGEN_PORT_BASE .. TGEN_PORT_BASE + flows - 1 */
#define TGEN_PORT_BASE		1000

/*
 * With stamps (tgen_opts.stamp): tgen_tx writes bpf_ktime_get_ns()
 * (CLOCK_MONOTONIC) into each frame, 8 bytes in host order after the
 * 32-bit sequence number, as it makes the frame; a receiver reads the same
 * clock where it takes the frame (xdpsock --latency).  Frames need
 * TGEN_STAMP_MIN_LEN bytes.
 */
#define TGEN_STAMP_OFF		(14 + 20 + 8 + 4)
#define TGEN_STAMP_MIN_LEN	(TGEN_STAMP_OFF + 8)

/* tgen_sink's counters, per CPU */
struct tgen_sink_counters {
	__u64 packets;
	__u64 bytes;		/* bpf_xdp_get_buff_len(): every fragment */
	__u64 other;		/* not IPv4/UDP, or a port out of range */
	__u32 min_len;		/* 0 until the first frame */
	__u32 max_len;
};

#endif /* TRAFFICGEN_COMMON_H */
