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
/*
 * ARRAY_SIZE and __printf: a selftest without tools/include has them from
 * kselftest.h alone (defining __printf here again draws checkpatch's
 * PREFER_DEFINED_ATTRIBUTE_MACRO)
 */
#include "../kselftest.h"

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
 * The rings are single-producer, single-consumer circular buffers shared
 * with the kernel (Documentation/core-api/circular-buffers.rst).  We
 * produce into the fill and TX rings and the kernel consumes them; the
 * kernel produces into the RX and completion rings and we consume them.
 * Each side orders its accesses to the entries against its accesses to
 * the two shared indices; ours, and the kernel's in net/xdp/xsk_queue.h
 * that each pairs with:
 *
 *   we produce (fill, TX)                 we consume (RX, completion)
 *
 *   (A) load-acquire consumer:            (C) load-acquire producer:
 *       the entries it passed are             the entries up to it are
 *       free to write                         written and may be read
 *   write the entries                     read the entries
 *   (B) store-release producer:           (D) store-release consumer:
 *       the entries are written               the entries are read, the
 *                                             kernel may write them
 *
 * (A) pairs with the kernel's release of the consumer index once it has
 * read what we produced (__xskq_cons_release()), (B) with its acquire of
 * the producer index before it reads (__xskq_cons_peek()), (C) with its
 * release of the producer index once it has written (__xskq_prod_submit()),
 * and (D) with its read of the consumer index before it writes again
 * (xskq_prod_nb_free()).
 *
 * The cached indices are ours alone; the shared ones are touched only when
 * the cached view runs out.  A producer ring and a consumer ring are two
 * types, so that a producer's helper cannot be handed a consumer ring.
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

/* Fill and TX: we write entries, the kernel reads them */
struct xsk_ring_prod {
	struct xsk_ring q;
};

/* RX and completion: the kernel writes entries, we read them */
struct xsk_ring_cons {
	struct xsk_ring q;
};

static inline __u64 *xring_fill_addr(struct xsk_ring_prod *r, __u32 idx)
{
	return &((__u64 *)r->q.ring)[idx & r->q.mask];
}

static inline struct xdp_desc *xring_tx_desc(struct xsk_ring_prod *r, __u32 idx)
{
	return &((struct xdp_desc *)r->q.ring)[idx & r->q.mask];
}

static inline const __u64 *xring_comp_addr(const struct xsk_ring_cons *r,
					   __u32 idx)
{
	return &((const __u64 *)r->q.ring)[idx & r->q.mask];
}

static inline struct xdp_desc *xring_rx_desc(struct xsk_ring_cons *r, __u32 idx)
{
	return &((struct xdp_desc *)r->q.ring)[idx & r->q.mask];
}

/*
 * The kernel asks for a kick (sendto() on TX, recvfrom() on fill).  Read
 * without order, as libbpf's xsk_ring_prod__needs_wakeup() reads it: the
 * flag is advice on whether to make a syscall, not a guard of the entries.
 */
static inline bool xring_needs_wakeup(const struct xsk_ring_prod *r)
{
	return __atomic_load_n(r->q.flags, __ATOMIC_RELAXED) &
	       XDP_RING_NEED_WAKEUP;
}

static inline __u32 xring_prod_nb_free(struct xsk_ring_prod *r, __u32 n)
{
	__u32 free = r->q.cached_cons - r->q.cached_prod;

	if (free >= n)
		return free;
	/* (A), pairs with the kernel's (D): see the top of this section */
	r->q.cached_cons = __atomic_load_n(r->q.consumer, __ATOMIC_ACQUIRE) +
			   r->q.size;
	return r->q.cached_cons - r->q.cached_prod;
}

static inline __u32 xring_prod_reserve(struct xsk_ring_prod *r, __u32 n,
				       __u32 *idx)
{
	if (xring_prod_nb_free(r, n) < n)
		return 0;
	*idx = r->q.cached_prod;
	r->q.cached_prod += n;
	return n;
}

static inline void xring_prod_submit(struct xsk_ring_prod *r, __u32 n)
{
	/* (B), pairs with the kernel's (C) */
	__atomic_store_n(r->q.producer, *r->q.producer + n, __ATOMIC_RELEASE);
}

/*
 * Entries submitted that the kernel has not taken yet: on the TX ring,
 * frames it has not transmitted (nor begun to), as against those it took
 * and has not completed
 */
static inline __u32 xring_prod_untaken(const struct xsk_ring_prod *r)
{
	/* (A), pairs with the kernel's (D) */
	return *r->q.producer - __atomic_load_n(r->q.consumer, __ATOMIC_ACQUIRE);
}

/*
 * The kernel's producer index now (C), without taking anything: what a
 * caller that counts the entries waiting reads up to
 */
static inline __u32 xring_cons_producer(const struct xsk_ring_cons *r)
{
	return __atomic_load_n(r->q.producer, __ATOMIC_ACQUIRE);
}

static inline __u32 xring_cons_nb_avail(struct xsk_ring_cons *r, __u32 n)
{
	__u32 avail = r->q.cached_prod - r->q.cached_cons;

	if (avail == 0) {
		/* (C), pairs with the kernel's (B) */
		r->q.cached_prod = xring_cons_producer(r);
		avail = r->q.cached_prod - r->q.cached_cons;
	}
	return avail > n ? n : avail;
}

static inline __u32 xring_cons_peek(struct xsk_ring_cons *r, __u32 n,
				    __u32 *idx)
{
	__u32 avail = xring_cons_nb_avail(r, n);

	if (avail) {
		*idx = r->q.cached_cons;
		r->q.cached_cons += avail;
	}
	return avail;
}

static inline void xring_cons_release(struct xsk_ring_cons *r, __u32 n)
{
	/* (D), pairs with the kernel's (A) */
	__atomic_store_n(r->q.consumer, *r->q.consumer + n, __ATOMIC_RELEASE);
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
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	struct xsk_ring_cons rx;
	struct xsk_ring_prod tx;
	int tx_kick_errno;	/* the last TX kick's errno, 0 if it had none */
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
 * Write a sentence into err (XSK_ERRLEN bytes; may be NULL) and return ret,
 * the one error helper of the core, the environment and the tests (lib/
 * has its own, err_set(), of the same rule): when ret < 0 the sentence ends
 * in " (strerror(-ret))", so a caller never appends the errno's text.
 */
int __printf(3, 4) xsk_errf(char err[XSK_ERRLEN], int ret, const char *fmt, ...);

/*
 * XSK_TIME_SCALE, a number from 0.01 to 100 (digits and a point; 1 when
 * unset): every deadline of the environment and the tests is multiplied
 * by it, for a kernel that takes longer than the ones they were chosen on
 * (a debug kernel: KASAN, lockdep, kmemleak).  xsk_time_scale_init() reads
 * it: 0, or -EINVAL with err naming the value (the scale stays 1).
 * xsk_ms() is ms times the scale, rounded.
 */
int xsk_time_scale_init(char err[XSK_ERRLEN]);
double xsk_time_scale(void);
__u64 xsk_ms(__u64 ms);

__u64 xsk_now_ms(void);		/* CLOCK_MONOTONIC in ms */
__u64 xsk_now_us(void);		/* and in us */

#endif /* XSK_CORE_H */
