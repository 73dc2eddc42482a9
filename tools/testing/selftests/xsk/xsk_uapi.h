/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The UAPI constants and structures this suite uses that older system
 * headers (Debian 12 ships 6.1 headers) lack.  Each is declared once here,
 * guarded, with the value of the kernel's UAPI; whether the running kernel
 * supports it is found out at run time.
 */
#ifndef XSK_UAPI_H
#define XSK_UAPI_H

#include <linux/types.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <sys/socket.h>

#ifndef BIT
#define BIT(nr) (1UL << (nr))
#endif

#ifndef AF_XDP
#define AF_XDP 44
#endif
#ifndef SOL_XDP
#define SOL_XDP 283
#endif

/* since 5.3 */
#ifndef XDP_USE_NEED_WAKEUP
#define XDP_USE_NEED_WAKEUP BIT(3)
#endif
#ifndef XDP_RING_NEED_WAKEUP
#define XDP_RING_NEED_WAKEUP BIT(0)
#endif
/* since 5.4 */
#ifndef XDP_UMEM_UNALIGNED_CHUNK_FLAG
#define XDP_UMEM_UNALIGNED_CHUNK_FLAG BIT(0)
#endif
#ifndef XSK_UNALIGNED_BUF_OFFSET_SHIFT
#define XSK_UNALIGNED_BUF_OFFSET_SHIFT 48
#endif
#ifndef XSK_UNALIGNED_BUF_ADDR_MASK
#define XSK_UNALIGNED_BUF_ADDR_MASK ((1ULL << XSK_UNALIGNED_BUF_OFFSET_SHIFT) - 1)
#endif
/* since 5.9 */
#ifndef XDP_OPTIONS
#define XDP_OPTIONS 8
#endif
#ifndef XDP_OPTIONS_ZEROCOPY
#define XDP_OPTIONS_ZEROCOPY BIT(0)
#endif
/* since 6.6: multi-buffer */
#ifndef XDP_USE_SG
#define XDP_USE_SG BIT(4)
#endif
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD BIT(0)
#endif

/* Busy polling socket options: since 3.11 (SO_BUSY_POLL), 5.11 */
#ifndef SO_BUSY_POLL
#define SO_BUSY_POLL 46
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif
#ifndef SO_BUSY_POLL_BUDGET
#define SO_BUSY_POLL_BUDGET 70
#endif

/*
 * struct xdp_umem_reg and struct xdp_statistics grew over time; the kernel
 * accepts every older size.  These are the current layouts under our own
 * names, so that the build does not depend on which fields the system
 * headers know.
 */
struct xsk_umem_reg {
	__u64 addr;
	__u64 len;
	__u32 chunk_size;
	__u32 headroom;
	__u32 flags;
	__u32 tx_metadata_len;	/* since 6.8 */
};

struct xsk_statistics {
	__u64 rx_dropped;
	__u64 rx_invalid_descs;
	__u64 tx_invalid_descs;
	__u64 rx_ring_full;		/* since 5.9, as are the next two */
	__u64 rx_fill_ring_empty_descs;
	__u64 tx_ring_empty_descs;
};

/* XDP features of a netdev (since 6.3), as reported by bpf_xdp_query() */
#if defined(__has_include) && __has_include("linux/netdev.h")
#include <linux/netdev.h>
#else
enum netdev_xdp_act {
	NETDEV_XDP_ACT_BASIC = 1,
	NETDEV_XDP_ACT_REDIRECT = 2,
	NETDEV_XDP_ACT_NDO_XMIT = 4,
	NETDEV_XDP_ACT_XSK_ZEROCOPY = 8,
	NETDEV_XDP_ACT_HW_OFFLOAD = 16,
	NETDEV_XDP_ACT_RX_SG = 32,
	NETDEV_XDP_ACT_NDO_XMIT_SG = 64,
	NETDEV_XDP_ACT_MASK = 127,
};
#endif

#endif /* XSK_UAPI_H */
