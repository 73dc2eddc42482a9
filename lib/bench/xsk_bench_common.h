/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the peer receiver of xdpsock's benchmarks (xsk_bench.bpf.c) and its
 * userspace (xsk_bench.c) share.
 */
#ifndef XSK_BENCH_COMMON_H
#define XSK_BENCH_COMMON_H

#include <linux/types.h>

/* xskb_peer's counters, per CPU */
struct xskb_peer_counters {
	__u64 packets;
	__u64 bytes;		/* bpf_xdp_get_buff_len(): every fragment */
	__u64 mac_ok;		/* dst == the peer's, src == the dut's */
	__u64 mac_bad;
	__u64 len_bad;		/* length other than the one expected */
	__u64 payload_ok;	/* with check_payload: headers and pattern */
	__u64 payload_bad;
	__u64 seq_sum;		/* with check_payload: sum of sequence numbers */
};

#endif /* XSK_BENCH_COMMON_H */
