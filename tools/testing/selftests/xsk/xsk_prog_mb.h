/* SPDX-License-Identifier: GPL-2.0 */
/* kernel-patches: prog */
/*
 * Shared by xsk_prog.bpf.c and the multi-buffer XDP tests: what xdp_mb does
 * with each frame, and what it reports.
 */
#ifndef XSK_PROG_MB_H
#define XSK_PROG_MB_H

#include <linux/types.h>

enum xdp_mb_mode {
	XDP_MB_DROP,
	XDP_MB_ABORTED,
	XDP_MB_PASS,
	XDP_MB_TX,		/* swap the MAC addresses, XDP_TX */
	XDP_MB_REDIRECT,	/* src MAC := mark, out of mb_tx_port[0] */
	XDP_MB_HELPERS,		/* the helpers across fragments, then pass or TX */
};

/* XDP_MB_HELPERS: bytes overwritten across the end of the linear part */
#define XDP_MB_CROSS_LEN	16
#define XDP_MB_CROSS_BYTE	0xa5
#define XDP_MB_SHRINK		100	/* adjust_tail(-XDP_MB_SHRINK) */
#define XDP_MB_GROW		50	/* then adjust_tail(+XDP_MB_GROW) */
#define XDP_MB_LINEARS		64	/* frames whose linear part is kept */

struct xdp_mb_stats {
	__u64 frames;
	__u64 bytes;		/* bpf_xdp_get_buff_len() of each, on entry */
	__u64 multi;		/* frames with fragments */
	__u64 partial;		/* frames not as long as their IPv4 header says */
	__u64 marked;		/* XDP_MB_REDIRECT: frames back with the mark */
	__u64 helper_errors;	/* XDP_MB_HELPERS: a helper failed */
	__u32 linear;		/* the last frame's linear part */
	__s32 first_error;	/* the first failed helper's return value */
	__s32 grow_ret;		/* adjust_tail(+XDP_MB_GROW), last frame */
	__u8 cross[XDP_MB_CROSS_LEN];	/* what was there, last frame */
	/*
	 * XDP_MB_HELPERS: each frame's linear part, in the order they came
	 * (a driver's first buffer may differ from frame to frame: virtio-net
	 * sizes its mergeable buffers by the frames it saw)
	 */
	__u32 helper_frames;
	__u32 linears[XDP_MB_LINEARS];
};

#endif /* XSK_PROG_MB_H */
