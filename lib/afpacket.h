/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AF_PACKET receive backends, the baseline AF_XDP is measured against:
 * TPACKET_V3 (a ring of blocks, many frames per wakeup), TPACKET_V2 (a ring
 * of frames) and recvmmsg().  The automatic choice tries them in that order
 * and keeps the first the kernel accepts, as Open vSwitch does for veth;
 * the socket says which it uses.
 */
#ifndef AFPACKET_H
#define AFPACKET_H

#include <stddef.h>
#include <linux/types.h>

enum afp_backend {
	AFP_AUTO,
	AFP_TPACKET_V3,
	AFP_TPACKET_V2,
	AFP_RECVMMSG,
};

const char *afp_backend_name(enum afp_backend b);
int afp_backend_parse(const char *name, enum afp_backend *b);

struct afp_sock;

/*
 * A socket receiving every frame of ifname (in the calling thread's network
 * namespace).  err: 256 bytes for a sentence on failure.  *why gets, for
 * AFP_AUTO, the reasons earlier backends were passed by (may be NULL).
 */
int afp_open(struct afp_sock **sp, const char *ifname, enum afp_backend want,
	     char *err, char *why, size_t whylen);
void afp_close(struct afp_sock *s);
enum afp_backend afp_backend(const struct afp_sock *s);
int afp_fd(const struct afp_sock *s);

/* Called for each frame received: its bytes and length */
typedef void (*afp_frame_fn)(const void *data, __u32 len, void *ctx);

/*
 * Receive what is ready, up to max frames (a TPACKET_V3 block is taken
 * whole), waiting at most timeout_ms for the first.  Returns the frames
 * handed to fn (which may be NULL: drop), 0 on timeout, or -errno.
 */
int afp_rx(struct afp_sock *s, unsigned int max, int timeout_ms,
	   afp_frame_fn fn, void *ctx);

#endif /* AFPACKET_H */
