// SPDX-License-Identifier: GPL-2.0
/*
 * AF_PACKET receive backends.  See afpacket.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "afpacket.h"
#include "xsk_core.h"

/* TPACKET_V3: 64 blocks of 256 KiB, retired after 1 ms if not full */
#define V3_BLOCK_SIZE	(256 * 1024)
#define V3_BLOCK_NR	64
#define V3_TIMEOUT_MS	1
/* TPACKET_V2: 16384 frames of 2 KiB */
#define V2_FRAME_SIZE	2048
#define V2_FRAME_NR	16384
/* recvmmsg(): 64 frames of up to 9 KiB + header per call */
#define MMSG_BATCH	64
#define MMSG_SIZE	(9216 + 64)
#define MMSG_RCVBUF	(16 << 20)

struct afp_sock {
	int fd;
	enum afp_backend backend;
	void *ring;
	size_t ring_len;
	unsigned int nr;	/* blocks (V3) or frames (V2) */
	unsigned int size;	/* their size */
	unsigned int cur;
	char *bufs;		/* recvmmsg() */
};

static const char * const names[] = {
	[AFP_AUTO] = "auto",
	[AFP_TPACKET_V3] = "tpacket_v3",
	[AFP_TPACKET_V2] = "tpacket_v2",
	[AFP_RECVMMSG] = "recvmmsg",
};

const char *afp_backend_name(enum afp_backend b)
{
	return (unsigned int)b <= AFP_RECVMMSG ? names[b] : "?";
}

int afp_backend_parse(const char *name, enum afp_backend *b)
{
	unsigned int i;

	for (i = 0; i <= AFP_RECVMMSG; i++) {
		if (!strcmp(name, names[i])) {
			*b = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int setup_v3(struct afp_sock *s, char *err)
{
	struct tpacket_req3 req = {
		.tp_block_size = V3_BLOCK_SIZE,
		.tp_block_nr = V3_BLOCK_NR,
		.tp_frame_size = V2_FRAME_SIZE,
		.tp_frame_nr = V3_BLOCK_SIZE / V2_FRAME_SIZE * V3_BLOCK_NR,
		.tp_retire_blk_tov = V3_TIMEOUT_MS,
	};
	int v = TPACKET_V3;

	if (setsockopt(s->fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)))
		return xsk_errf(err, -errno, "PACKET_VERSION TPACKET_V3: %s",
				strerror(errno));
	if (setsockopt(s->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)))
		return xsk_errf(err, -errno, "PACKET_RX_RING (TPACKET_V3, %u blocks of %u): %s",
				V3_BLOCK_NR, V3_BLOCK_SIZE, strerror(errno));
	s->nr = V3_BLOCK_NR;
	s->size = V3_BLOCK_SIZE;
	return 0;
}

static int setup_v2(struct afp_sock *s, char *err)
{
	struct tpacket_req req = {
		.tp_block_size = V2_FRAME_SIZE * 64,
		.tp_block_nr = V2_FRAME_NR / 64,
		.tp_frame_size = V2_FRAME_SIZE,
		.tp_frame_nr = V2_FRAME_NR,
	};
	int v = TPACKET_V2;

	if (setsockopt(s->fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)))
		return xsk_errf(err, -errno, "PACKET_VERSION TPACKET_V2: %s",
				strerror(errno));
	if (setsockopt(s->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)))
		return xsk_errf(err, -errno, "PACKET_RX_RING (TPACKET_V2, %u frames of %u): %s",
				V2_FRAME_NR, V2_FRAME_SIZE, strerror(errno));
	s->nr = V2_FRAME_NR;
	s->size = V2_FRAME_SIZE;
	return 0;
}

/* One backend on a new socket: 0, or -errno with the reason in err */
static int try_open(struct afp_sock *s, const char *ifname,
		    enum afp_backend b, char *err)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
	};
	int ret = 0;

	s->backend = b;
	s->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (s->fd < 0)
		return xsk_errf(err, -errno, "socket(AF_PACKET): %s",
				strerror(errno));
	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex)
		return xsk_errf(err, -ENODEV, "%s: no such interface", ifname);
	if (b == AFP_TPACKET_V3)
		ret = setup_v3(s, err);
	else if (b == AFP_TPACKET_V2)
		ret = setup_v2(s, err);
	if (ret)
		return ret;
	if (b == AFP_RECVMMSG) {
		int rcvbuf = MMSG_RCVBUF;

		/* without a ring, the socket buffer is the only queue */
		if (setsockopt(s->fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
			       sizeof(rcvbuf)))
			setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				   sizeof(rcvbuf));
		s->bufs = malloc((size_t)MMSG_BATCH * MMSG_SIZE);
		if (!s->bufs)
			return xsk_errf(err, -ENOMEM, "out of memory");
	} else {
		s->ring_len = (size_t)s->nr * s->size;
		s->ring = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_POPULATE, s->fd, 0);
		if (s->ring == MAP_FAILED) {
			s->ring = NULL;
			return xsk_errf(err, -errno, "mmap of the %s ring (%zu bytes): %s",
					names[b], s->ring_len, strerror(errno));
		}
	}
	/* bound last: no frame is queued to a socket not ready for it */
	if (bind(s->fd, (struct sockaddr *)&sll, sizeof(sll)))
		return xsk_errf(err, -errno, "bind to %s: %s", ifname,
				strerror(errno));
	return 0;
}

static void release(struct afp_sock *s)
{
	if (s->ring)
		munmap(s->ring, s->ring_len);
	if (s->fd >= 0)
		close(s->fd);
	free(s->bufs);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

int afp_open(struct afp_sock **sp, const char *ifname, enum afp_backend want,
	     char *err, char *why, size_t whylen)
{
	static const enum afp_backend order[] = {
		AFP_TPACKET_V3, AFP_TPACKET_V2, AFP_RECVMMSG,
	};
	struct afp_sock *s;
	char reason[256];
	unsigned int i;
	size_t used = 0;
	int ret = -EINVAL;

	*sp = NULL;
	if (why && whylen)
		why[0] = '\0';
	s = calloc(1, sizeof(*s));
	if (!s)
		return xsk_errf(err, -ENOMEM, "out of memory");
	s->fd = -1;
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		if (want != AFP_AUTO && want != order[i])
			continue;
		ret = try_open(s, ifname, order[i], reason);
		if (!ret)
			break;
		release(s);
		if (why && used < whylen)
			used += snprintf(why + used, whylen - used, "%s%s: %s",
					 used ? "; " : "", names[order[i]],
					 reason);
		if (ret == -ENODEV)
			break;
	}
	if (ret) {
		free(s);
		return xsk_errf(err, ret, "%s", reason);
	}
	*sp = s;
	return 0;
}

void afp_close(struct afp_sock *s)
{
	if (!s)
		return;
	release(s);
	free(s);
}

enum afp_backend afp_backend(const struct afp_sock *s)
{
	return s->backend;
}

int afp_fd(const struct afp_sock *s)
{
	return s->fd;
}

static int wait_in(struct afp_sock *s, int timeout_ms)
{
	struct pollfd p = { .fd = s->fd, .events = POLLIN };
	int n = poll(&p, 1, timeout_ms);

	return n < 0 ? -errno : n;
}

static int rx_v3(struct afp_sock *s, afp_frame_fn fn, void *ctx)
{
	struct tpacket_block_desc *bd =
		(void *)((char *)s->ring + (size_t)s->cur * s->size);
	struct tpacket3_hdr *h;
	unsigned int i, n;

	if (!(__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
	      TP_STATUS_USER))
		return 0;
	n = bd->hdr.bh1.num_pkts;
	h = (void *)((char *)bd + bd->hdr.bh1.offset_to_first_pkt);
	for (i = 0; i < n; i++) {
		if (fn)
			fn((char *)h + h->tp_mac, h->tp_snaplen, ctx);
		h = (void *)((char *)h + h->tp_next_offset);
	}
	__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL,
			 __ATOMIC_RELEASE);
	s->cur = (s->cur + 1) % s->nr;
	return n;
}

static int rx_v2(struct afp_sock *s, unsigned int max, afp_frame_fn fn,
		 void *ctx)
{
	unsigned int n = 0;

	while (n < max) {
		struct tpacket2_hdr *h =
			(void *)((char *)s->ring + (size_t)s->cur * s->size);

		if (!(__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) &
		      TP_STATUS_USER))
			break;
		if (fn)
			fn((char *)h + h->tp_mac, h->tp_snaplen, ctx);
		__atomic_store_n(&h->tp_status, TP_STATUS_KERNEL,
				 __ATOMIC_RELEASE);
		s->cur = (s->cur + 1) % s->nr;
		n++;
	}
	return n;
}

static int rx_mmsg(struct afp_sock *s, unsigned int max, afp_frame_fn fn,
		   void *ctx)
{
	struct mmsghdr msg[MMSG_BATCH];
	struct iovec iov[MMSG_BATCH];
	unsigned int i;
	int n;

	if (max > MMSG_BATCH)
		max = MMSG_BATCH;
	for (i = 0; i < max; i++) {
		iov[i].iov_base = s->bufs + (size_t)i * MMSG_SIZE;
		iov[i].iov_len = MMSG_SIZE;
		memset(&msg[i], 0, sizeof(msg[i]));
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	n = recvmmsg(s->fd, msg, max, MSG_DONTWAIT, NULL);
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	for (i = 0; fn && i < (unsigned int)n; i++)
		fn(iov[i].iov_base, msg[i].msg_len, ctx);
	return n;
}

int afp_rx(struct afp_sock *s, unsigned int max, int timeout_ms,
	   afp_frame_fn fn, void *ctx)
{
	int n, w;

	for (;;) {
		switch (s->backend) {
		case AFP_TPACKET_V3:
			n = rx_v3(s, fn, ctx);
			break;
		case AFP_TPACKET_V2:
			n = rx_v2(s, max, fn, ctx);
			break;
		default:
			n = rx_mmsg(s, max, fn, ctx);
		}
		if (n || !timeout_ms)
			return n;
		w = wait_in(s, timeout_ms);
		if (w <= 0)
			return w;
		timeout_ms = 0;
	}
}
