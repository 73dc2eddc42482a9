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

/* tgen_sink's counters, per CPU */
struct tgen_sink_counters {
	__u64 packets;
	__u64 bytes;		/* bpf_xdp_get_buff_len(): every fragment */
	__u64 other;		/* not IPv4/UDP, or a port out of range */
	__u32 min_len;		/* 0 until the first frame */
	__u32 max_len;
};

#endif /* TRAFFICGEN_COMMON_H */
