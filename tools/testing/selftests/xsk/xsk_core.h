/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AF_XDP core: UMEM, the four rings, socket bind in each XDP mode, and the
 * XDP program that steers a queue's frames to its socket.  Every sample and
 * every selftest uses this one implementation.
 *
 * Errors: functions that set things up return 0 or a negative errno and, when
 * given an error buffer (XSK_ERRLEN bytes), write a sentence there that names
 * the step and the argument that was refused.
 */
#ifndef XSK_CORE_H
#define XSK_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <linux/netdev.h>
#include "../kselftest.h"	/* ARRAY_SIZE, __printf */

/* Room for the core's sentences and for those of the callers that nest them */
#define XSK_ERRLEN		1024
#define XSK_MAX_QUEUES		64

#define XSK_DEF_FRAME_SIZE	4096
#define XSK_DEF_RING_SIZE	2048
/* What the kernel reserves in front of every received frame in copy mode */
#define XSK_KERNEL_HEADROOM	256

/* XDP modes, in Open vSwitch's words */
enum xsk_mode {
	XSK_MODE_BEST_EFFORT,	/* zero-copy, else native copy, else generic */
	XSK_MODE_NATIVE_ZC,	/* "native-with-zerocopy" */
	XSK_MODE_NATIVE,	/* native (driver) XDP, copy */
	XSK_MODE_GENERIC,	/* generic (skb) XDP, copy */
};

const char *xsk_mode_name(enum xsk_mode mode);
int xsk_mode_parse(const char *name, enum xsk_mode *mode);

/*
 * One ring shared with the kernel.  The cached indices are ours; the shared
 * ones are touched only when the cached view runs out.
 */
struct xsk_ring {
	__u32 cached_prod;
	__u32 cached_cons;
	__u32 mask;
	__u32 size;
	__u32 *producer;
	__u32 *consumer;
	__u32 *flags;
	void *ring;
	void *map;
	size_t map_len;
};

static inline __u64 *xring_addr(struct xsk_ring *r, __u32 idx)
{
	return &((__u64 *)r->ring)[idx & r->mask];
}

static inline struct xdp_desc *xring_desc(struct xsk_ring *r, __u32 idx)
{
	return &((struct xdp_desc *)r->ring)[idx & r->mask];
}

static inline bool xring_needs_wakeup(const struct xsk_ring *r)
{
	return __atomic_load_n(r->flags, __ATOMIC_RELAXED) & XDP_RING_NEED_WAKEUP;
}

static inline __u32 xring_prod_nb_free(struct xsk_ring *r, __u32 n)
{
	__u32 free = r->cached_cons - r->cached_prod;

	if (free >= n)
		return free;
	r->cached_cons = __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE) +
			 r->size;
	return r->cached_cons - r->cached_prod;
}

static inline __u32 xring_prod_reserve(struct xsk_ring *r, __u32 n, __u32 *idx)
{
	if (xring_prod_nb_free(r, n) < n)
		return 0;
	*idx = r->cached_prod;
	r->cached_prod += n;
	return n;
}

static inline void xring_prod_submit(struct xsk_ring *r, __u32 n)
{
	__atomic_store_n(r->producer, *r->producer + n, __ATOMIC_RELEASE);
}

static inline __u32 xring_cons_nb_avail(struct xsk_ring *r, __u32 n)
{
	__u32 avail = r->cached_prod - r->cached_cons;

	if (avail == 0) {
		r->cached_prod = __atomic_load_n(r->producer, __ATOMIC_ACQUIRE);
		avail = r->cached_prod - r->cached_cons;
	}
	return avail > n ? n : avail;
}

static inline __u32 xring_cons_peek(struct xsk_ring *r, __u32 n, __u32 *idx)
{
	__u32 avail = xring_cons_nb_avail(r, n);

	if (avail) {
		*idx = r->cached_cons;
		r->cached_cons += avail;
	}
	return avail;
}

static inline void xring_cons_release(struct xsk_ring *r, __u32 n)
{
	__atomic_store_n(r->consumer, *r->consumer + n, __ATOMIC_RELEASE);
}

/* How a socket is made.  Zero means the default. */
struct xsk_socket_opts {
	__u32 queue_id;
	__u32 frame_size;	/* UMEM chunk size; default 4096 */
	__u32 nr_frames;	/* default fill_size + tx_size */
	__u32 headroom;		/* UMEM headroom for the application */
	__u32 rx_size;		/* ring sizes; default 2048 each */
	__u32 tx_size;
	__u32 fill_size;
	__u32 comp_size;
	bool unaligned;		/* XDP_UMEM_UNALIGNED_CHUNK_FLAG */
	bool no_need_wakeup;	/* need_wakeup is on unless this is set */
	bool multi_buffer;	/* XDP_USE_SG */
	bool no_rx;		/* make no RX ring (a TX-only socket) */
	bool no_tx;		/* make no TX ring (an RX-only socket) */
};

/* What the core did, for tests and reports */
struct xsk_app_stats {
	__u64 tx_kicks;		/* sendto() to start transmission */
	__u64 fill_kicks;	/* recvfrom() because the fill ring asked */
	__u64 rx_descs;
	__u64 rx_packets;	/* descriptors without XDP_PKT_CONTD */
	__u64 tx_descs;
	__u64 tx_completed;
};

struct xsk_socket {
	int fd;
	int ifindex;
	__u32 queue_id;
	__u32 bind_flags;	/* as passed to bind() */
	bool zerocopy;		/* as XDP_OPTIONS reports it */
	bool need_wakeup;
	bool unaligned;
	__u32 frame_size;
	__u32 headroom;
	__u32 nr_frames;
	void *umem;
	size_t umem_len;
	struct xsk_ring fill;
	struct xsk_ring comp;
	struct xsk_ring rx;
	struct xsk_ring tx;
	__u64 *free_frames;	/* stack of UMEM frames owned by the app */
	__u32 nr_free;
	struct xsk_app_stats stats;
};

int xsk_socket_create(struct xsk_socket **xsp, int ifindex, enum xsk_mode mode,
		      const struct xsk_socket_opts *opts, char err[XSK_ERRLEN]);
void xsk_socket_destroy(struct xsk_socket *xs);
int xsk_socket_stats(struct xsk_socket *xs, struct xdp_statistics *st);

/* Frames of the UMEM the application holds */
static inline __u64 xsk_frame_alloc(struct xsk_socket *xs)
{
	return xs->nr_free ? xs->free_frames[--xs->nr_free] : (__u64)-1;
}

static inline void xsk_frame_free(struct xsk_socket *xs, __u64 addr)
{
	xs->free_frames[xs->nr_free++] = addr;
}

/* The start of the frame a descriptor's address points into */
static inline __u64 xsk_frame_base(const struct xsk_socket *xs, __u64 addr)
{
	addr &= XSK_UNALIGNED_BUF_ADDR_MASK;
	return addr - addr % xs->frame_size;
}

/* Where a descriptor's data is; handles the unaligned-mode offset field */
static inline void *xsk_umem_ptr(const struct xsk_socket *xs, __u64 addr)
{
	__u64 off = addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT;

	return (char *)xs->umem + (addr & XSK_UNALIGNED_BUF_ADDR_MASK) + off;
}

/* Bytes of a frame that one RX descriptor can carry in copy mode */
static inline __u32 xsk_rx_frame_room(const struct xsk_socket *xs)
{
	return xs->frame_size - XSK_KERNEL_HEADROOM - xs->headroom;
}

/* Kicks: each returns true when it made a syscall */
bool xsk_kick_tx(struct xsk_socket *xs);
bool xsk_kick_fill(struct xsk_socket *xs);

/* Give free frames to the kernel's fill ring; returns how many */
__u32 xsk_fill_refill(struct xsk_socket *xs);
/* Take back the frames the kernel has completed; returns how many */
__u32 xsk_comp_reclaim(struct xsk_socket *xs);

/*
 * Copy one whole packet (every descriptor up to the one without
 * XDP_PKT_CONTD) out of the RX ring into buf, return its frames to the fill
 * ring.  Returns the packet's length, 0 when none is ready, or -EMSGSIZE if
 * it did not fit (it is consumed all the same).  *ndesc gets the number of
 * descriptors it came in.
 */
int xsk_rx_packet(struct xsk_socket *xs, void *buf, size_t len, __u32 *ndesc);

/*
 * Drop: take up to budget descriptors off the RX ring and give their frames
 * straight back to the fill ring.  Returns the descriptors taken; *packets
 * (if given) gets the packets they ended (descriptors without XDP_PKT_CONTD).
 */
__u32 xsk_rx_recycle(struct xsk_socket *xs, __u32 budget, __u32 *packets);

/*
 * Queue one packet for transmission, split over as many descriptors as
 * frame_size requires (XDP_PKT_CONTD on all but the last), and kick.
 * Returns 0, -EAGAIN when the TX ring or the free frames are short, or
 * -EMSGSIZE when it needs several descriptors on a socket without XDP_USE_SG.
 */
int xsk_tx_packet(struct xsk_socket *xs, const void *pkt, __u32 len);

/* kernel-patches: prog */
/*
 * An interface with our XDP program attached and one socket per queue, in
 * the mode asked for (best-effort: the first that works on the first queue,
 * then the same for the others).  The mode reported is the one verified
 * with XDP_OPTIONS and bpf_xdp_query(), never the one asked for.
 */
struct xsk_port_opts {
	const char *ifname;
	enum xsk_mode mode;
	__u32 first_queue;
	__u32 nr_queues;	/* default 1 */
	bool no_prog;		/* TX only: bind, attach no program */
	/*
	 * A loaded program of the caller's to attach instead of ours, and the
	 * XSKMAP of its object that it redirects to: the port puts its
	 * sockets there, and leaves both to the caller
	 */
	const struct bpf_program *prog;
	const struct bpf_map *xsks_map;
	struct xsk_socket_opts sock;
};

struct bpf_program;
struct bpf_map;
struct xsk_prog_bpf;

struct xsk_port {
	char ifname[IF_NAMESIZE];
	int ifindex;
	char driver[32];
	enum xsk_mode mode;	/* in use */
	__u32 attach_mode;	/* XDP_ATTACHED_*, from bpf_xdp_query() */
	__u32 prog_id;
	__u64 xdp_features;	/* NETDEV_XDP_ACT_* */
	bool features_known;
	struct xsk_prog_bpf *skel;	/* ours, unless opts.prog was given */
	int prog_fd;			/* attached, or -1 */
	int map_fd;			/* its XSKMAP, or -1 */
	int link_fd;
	__u32 nr_socks;
	struct xsk_socket *socks[XSK_MAX_QUEUES];
	char fallback[XSK_ERRLEN];	/* why best-effort passed modes by */
};

int xsk_port_open(struct xsk_port **portp, const struct xsk_port_opts *opts,
		  char err[XSK_ERRLEN]);
void xsk_port_close(struct xsk_port *port);

/* Sum of the program's per-CPU counters (struct counters in the BPF side) */
struct xsk_prog_counters {
	__u64 rx_packets;
	__u64 rx_bytes;
	__u64 redirected;
	__u64 no_socket;
};

/* Of a loaded program: the port's (port->skel) or the peer's */
int xsk_prog_counters_read(struct xsk_prog_bpf *skel,
			   struct xsk_prog_counters *c);

/* One line: "veth0 (veth) queue 0-1: native copy, need_wakeup, ..." */
void xsk_port_describe(const struct xsk_port *port, char *buf, size_t len);

/* kernel-patches: core */
/* The driver name from ETHTOOL_GDRVINFO, or "unknown" */
void xsk_ifdriver(const char *ifname, char *buf, size_t len);

/*
 * Write a sentence into err (XSK_ERRLEN bytes; may be NULL) and return ret:
 * the error helper of the environment and the tests (lib/ has its own).
 */
int __printf(3, 4) xsk_errf(char err[XSK_ERRLEN], int ret, const char *fmt, ...);

#endif /* XSK_CORE_H */
