/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AF_PACKET backends, the baseline AF_XDP is measured against, for
 * receiving and for sending: TPACKET_V3 (receive: a ring of blocks, many
 * frames per wakeup; send: a ring of frames, one per slot, since 4.11),
 * TPACKET_V2 (a ring of frames) and recvmmsg()/sendmmsg().  The automatic
 * choice tries them in that order and keeps the first the kernel accepts,
 * as Open vSwitch does for veth; the socket says which it uses and why the
 * others were passed by.  Documentation/afpacket.rst.
 */
#ifndef AFPACKET_H
#define AFPACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "err.h"

enum afp_backend {
	AFP_AUTO,
	AFP_TPACKET_V3,
	AFP_TPACKET_V2,
	AFP_RECVMMSG,			/* no ring: recvmmsg() to receive, */
	AFP_SENDMMSG = AFP_RECVMMSG,	/* sendmmsg() to send */
};

/* "tpacket_v3", ..., "recvmmsg" (the receiving name of AFP_SENDMMSG) */
const char *afp_backend_name(enum afp_backend b);
/* Accepts every name above and "sendmmsg" */
int afp_backend_parse(const char *name, enum afp_backend *b);

/*
 * Injected refusals, for testing the fallback: the ring setup of these
 * backends fails as if the kernel refused it (EINVAL, as kernels before
 * 4.11 refuse a TPACKET_V3 TX ring), and the reason says it was injected.
 * Also read from the environment: AFP_REFUSE=v3 or AFP_REFUSE=v3,v2.
 */
#define AFP_REFUSE_V3	(1U << AFP_TPACKET_V3)
#define AFP_REFUSE_V2	(1U << AFP_TPACKET_V2)

/* How a socket is made.  Zero (or no struct) means a receiving socket. */
struct afp_opts {
	bool tx;		/* a sending socket (it receives nothing) */
	bool qdisc_bypass;	/* PACKET_QDISC_BYPASS: past qdisc and taps */
	unsigned int refuse;	/* AFP_REFUSE_*, added to AFP_REFUSE */
};

struct afp_sock;

/*
 * A socket receiving every frame of ifname, or sending on it (in the
 * calling thread's network namespace).  err: ERR_LEN bytes for a sentence on
 * failure.  *why gets, for AFP_AUTO, the reasons earlier backends were
 * passed by (may be NULL).  afp_open() is afp_open_opts() with no options.
 */
int afp_open_opts(struct afp_sock **sp, const char *ifname,
		  enum afp_backend want, const struct afp_opts *o, char err[ERR_LEN],
		  char *why, size_t whylen);
int afp_open(struct afp_sock **sp, const char *ifname, enum afp_backend want,
	     char err[ERR_LEN], char *why, size_t whylen);
void afp_close(struct afp_sock *s);
enum afp_backend afp_backend(const struct afp_sock *s);
/* The backend in use, by the name of its direction ("sendmmsg" on TX) */
const char *afp_sock_name(const struct afp_sock *s);
int afp_fd(const struct afp_sock *s);
/* The syscalls afp_rx() made (poll(), recvmmsg()), cumulative */
__u64 afp_rx_syscalls(const struct afp_sock *s);

/* Called for each frame received: its bytes and length */
typedef void (*afp_frame_fn)(const void *data, __u32 len, void *ctx);

/*
 * Receive what is ready, up to max frames (a TPACKET_V3 block is taken
 * whole), waiting at most timeout_ms for the first.  Returns the frames
 * handed to fn (which may be NULL: drop), 0 on timeout, or -errno.
 */
int afp_rx(struct afp_sock *s, unsigned int max, int timeout_ms,
	   afp_frame_fn fn, void *ctx);

/*
 * Called for each frame to send: write it into buf (room bytes: the slot,
 * or the interface's MTU plus the Ethernet header if smaller) and return
 * its length, or 0 to send no more.
 */
typedef __u32 (*afp_fill_fn)(void *buf, __u32 room, void *ctx);

/*
 * Send up to max frames, each written by fn straight into a ring slot (or
 * a sendmmsg() buffer).  Returns when the kernel has sent them, with the
 * number sent; -EMSGSIZE if fn returned a length out of 14..room (the
 * frames before it were sent), or -errno from the kernel.  A full device
 * queue (ENOBUFS) is waited out, not reported.
 */
int afp_tx(struct afp_sock *s, unsigned int max, afp_fill_fn fn, void *ctx);

#endif /* AFPACKET_H */
