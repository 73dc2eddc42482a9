// SPDX-License-Identifier: GPL-2.0
/*
 * AF_PACKET receive and send backends.  See afpacket.h.
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
#include <sched.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "afpacket.h"
#include "measure.h"
#include "err.h"

/*
 * The rings, by direction and backend.  Blocks are whole multiples of the
 * frame size, so that frames (TPACKET_V2, and TPACKET_V3's TX ring, which
 * has one frame per slot) lie one after the other: frame i at i * frame.
 * Receive, V3: 64 blocks of 256 KiB, retired after 1 ms if not full; V2:
 * 16384 frames of 2 KiB.  Send: 2048 frames of 2 KiB, sent by one kick.
 */
struct ring_geom {
	unsigned int block_size;
	unsigned int block_nr;
	unsigned int frame_size;
	unsigned int retire_ms;
};

static const struct ring_geom geoms[2][AFP_TPACKET_V2 + 1] = {
	[0] = {		/* receive */
		[AFP_TPACKET_V3] = { 256 * 1024, 64, 2048, 1 },
		[AFP_TPACKET_V2] = { 128 * 1024, 256, 2048, 0 },
	},
	[1] = {		/* send */
		[AFP_TPACKET_V3] = { 128 * 1024, 32, 2048, 0 },
		[AFP_TPACKET_V2] = { 128 * 1024, 32, 2048, 0 },
	},
};

/* recvmmsg()/sendmmsg(): 64 frames of up to 9 KiB + header per call */
#define MMSG_BATCH	64
#define MMSG_SIZE	(9216 + 64)
#define MMSG_RCVBUF	(16 << 20)
/* A kick that cannot complete, or a device that drops, is given up after */
#define TX_TIMEOUT_S	1

struct afp_sock {
	int fd;
	enum afp_backend backend;
	bool tx;
	void *ring;
	size_t ring_len;
	unsigned int nr;	/* blocks (V3 receive) or frames */
	unsigned int size;	/* their size */
	unsigned int cur;
	unsigned int room;	/* send: the largest frame */
	char *bufs;		/* recvmmsg() and sendmmsg() */
	__u64 rx_syscalls;	/* afp_rx()'s poll() and recvmmsg() */
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

	if (!strcmp(name, "sendmmsg")) {
		*b = AFP_SENDMMSG;
		return 0;
	}
	for (i = 0; i <= AFP_RECVMMSG; i++) {
		if (!strcmp(name, names[i])) {
			*b = i;
			return 0;
		}
	}
	return -EINVAL;
}

static const char *sock_name(enum afp_backend b, bool tx)
{
	return tx && b == AFP_SENDMMSG ? "sendmmsg" : afp_backend_name(b);
}

/* AFP_REFUSE=v3[,v2]: the refusals to inject, added to *refuse */
static int refuse_from_env(unsigned int *refuse, char err[ERR_LEN])
{
	const char *env = getenv("AFP_REFUSE");
	char list[64], *tok, *save;

	if (!env || !*env)
		return 0;
	if (snprintf(list, sizeof(list), "%s", env) >= (int)sizeof(list))
		return err_wrap(err, -EINVAL, "AFP_REFUSE: '%s' is too long",
				env);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "v3") || !strcmp(tok, names[AFP_TPACKET_V3]))
			*refuse |= AFP_REFUSE_V3;
		else if (!strcmp(tok, "v2") ||
			 !strcmp(tok, names[AFP_TPACKET_V2]))
			*refuse |= AFP_REFUSE_V2;
		else
			return err_wrap(err, -EINVAL, "AFP_REFUSE: '%s' is none of v3, v2",
					tok);
	}
	return 0;
}

/* PACKET_VERSION, then the RX or TX ring, mapped */
static int setup_ring(struct afp_sock *s, unsigned int refuse, char err[ERR_LEN])
{
	const struct ring_geom *g = &geoms[s->tx][s->backend];
	struct tpacket_req3 req = {
		.tp_block_size = g->block_size,
		.tp_block_nr = g->block_nr,
		.tp_frame_size = g->frame_size,
		.tp_frame_nr = g->block_size / g->frame_size * g->block_nr,
		.tp_retire_blk_tov = g->retire_ms,
	};
	bool v3 = s->backend == AFP_TPACKET_V3;
	const char *ring = s->tx ? "PACKET_TX_RING" : "PACKET_RX_RING";
	int v = v3 ? TPACKET_V3 : TPACKET_V2;

	if (setsockopt(s->fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)))
		return err_set(err, -errno, "PACKET_VERSION %s",
				names[s->backend]);
	if (refuse & (1U << s->backend))
		return err_wrap(err, -EINVAL,
				"%s (%s) refused (injected by AFP_REFUSE or afp_opts.refuse)",
				ring, names[s->backend]);
	if (setsockopt(s->fd, SOL_PACKET, s->tx ? PACKET_TX_RING : PACKET_RX_RING,
		       &req, v3 ? sizeof(req) : sizeof(struct tpacket_req)))
		return err_set(err, -errno, "%s (%s, %u blocks of %u, frames of %u)",
				ring, names[s->backend], g->block_nr,
				g->block_size, g->frame_size);
	if (v3 && !s->tx) {
		s->nr = g->block_nr;
		s->size = g->block_size;
	} else {
		s->nr = req.tp_frame_nr;
		s->size = g->frame_size;
	}
	s->ring_len = (size_t)g->block_nr * g->block_size;
	s->ring = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, s->fd, 0);
	if (s->ring == MAP_FAILED) {
		s->ring = NULL;
		return err_set(err, -errno, "mmap of the %s ring (%zu bytes)",
				names[s->backend], s->ring_len);
	}
	return 0;
}

/* Where a ring frame's bytes start: after the header, TPACKET-aligned */
static unsigned int frame_offset(const struct afp_sock *s)
{
	return (s->backend == AFP_TPACKET_V3 ? TPACKET3_HDRLEN :
		TPACKET2_HDRLEN) - sizeof(struct sockaddr_ll);
}

/* The largest frame to send: a slot's room, at most MTU + Ethernet header */
static int setup_tx(struct afp_sock *s, const char *ifname, bool bypass,
		    char err[ERR_LEN])
{
	struct timeval tv = { .tv_sec = TX_TIMEOUT_S };
	struct ifreq ifr = {};
	int one = 1;

	if (bypass && setsockopt(s->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one,
				 sizeof(one)))
		return err_set(err, -errno, "PACKET_QDISC_BYPASS");
	if (setsockopt(s->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return err_set(err, -errno, "SO_SNDTIMEO");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(s->fd, SIOCGIFMTU, &ifr))
		return err_set(err, -errno, "SIOCGIFMTU of %s", ifname);
	s->room = s->backend == AFP_SENDMMSG ? MMSG_SIZE :
		  s->size - frame_offset(s);
	if (s->room > (unsigned int)ifr.ifr_mtu + ETH_HLEN)
		s->room = ifr.ifr_mtu + ETH_HLEN;
	return 0;
}

/* One backend on a new socket: 0, or -errno with the reason in err */
static int try_open(struct afp_sock *s, const char *ifname,
		    enum afp_backend b, const struct afp_opts *o,
		    unsigned int refuse, char err[ERR_LEN])
{
	/* a sending socket binds no protocol: nothing is queued to it */
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = o->tx ? 0 : htons(ETH_P_ALL),
	};
	int ret = 0;

	s->backend = b;
	s->tx = o->tx;
	/* protocol 0 until bind(): no frame of any interface before */
	s->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return err_set(err, -errno, "socket(AF_PACKET)");
	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex)
		return err_set(err, -ENODEV, "%s: no such interface", ifname);
	if (b != AFP_RECVMMSG) {
		ret = setup_ring(s, refuse, err);
	} else {
		int rcvbuf = MMSG_RCVBUF;

		/* without a ring, the socket buffer is the only queue */
		if (!o->tx && setsockopt(s->fd, SOL_SOCKET, SO_RCVBUFFORCE,
					 &rcvbuf, sizeof(rcvbuf)))
			setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				   sizeof(rcvbuf));
		s->bufs = malloc((size_t)MMSG_BATCH * MMSG_SIZE);
		if (!s->bufs)
			ret = err_set(err, -ENOMEM, "out of memory");
	}
	if (!ret && o->tx)
		ret = setup_tx(s, ifname, o->qdisc_bypass, err);
	if (ret)
		return ret;
	/* bound last: no frame is queued to a socket not ready for it */
	if (bind(s->fd, (struct sockaddr *)&sll, sizeof(sll)))
		return err_set(err, -errno, "bind to %s", ifname);
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

int afp_open_opts(struct afp_sock **sp, const char *ifname,
		  enum afp_backend want, const struct afp_opts *o, char err[ERR_LEN],
		  char *why, size_t whylen)
{
	static const enum afp_backend order[] = {
		AFP_TPACKET_V3, AFP_TPACKET_V2, AFP_RECVMMSG,
	};
	static const struct afp_opts rx;
	struct afp_sock *s;
	char reason[ERR_LEN];
	unsigned int i, refuse;
	size_t used = 0;
	int ret = -EINVAL;

	*sp = NULL;
	if (why && whylen)
		why[0] = '\0';
	if (!o)
		o = &rx;
	if ((unsigned int)want > AFP_RECVMMSG)
		return err_wrap(err, -EINVAL,
				"backend %d is none of auto, tpacket_v3, tpacket_v2, %s",
				want, sock_name(AFP_RECVMMSG, o->tx));
	refuse = o->refuse;
	ret = refuse_from_env(&refuse, err);
	if (ret)
		return ret;
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, -ENOMEM, "out of memory");
	s->fd = -1;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (want != AFP_AUTO && want != order[i])
			continue;
		ret = try_open(s, ifname, order[i], o, refuse, reason);
		if (!ret)
			break;
		release(s);
		if (why && used < whylen)
			used += snprintf(why + used, whylen - used, "%s%s: %s",
					 used ? "; " : "",
					 sock_name(order[i], o->tx), reason);
		if (ret == -ENODEV)
			break;
	}
	if (ret) {
		free(s);
		return err_wrap(err, ret, "%s", reason);
	}
	*sp = s;
	return 0;
}

int afp_open(struct afp_sock **sp, const char *ifname, enum afp_backend want,
	     char err[ERR_LEN], char *why, size_t whylen)
{
	return afp_open_opts(sp, ifname, want, NULL, err, why, whylen);
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

const char *afp_sock_name(const struct afp_sock *s)
{
	return sock_name(s->backend, s->tx);
}

int afp_fd(const struct afp_sock *s)
{
	return s->fd;
}

__u64 afp_rx_syscalls(const struct afp_sock *s)
{
	return s->rx_syscalls;
}

/* The ring's block (V3 receive) or frame i; the next one after cur */
static void *ring_slot(const struct afp_sock *s, unsigned int i)
{
	return (char *)s->ring + (size_t)i * s->size;
}

static void ring_next(struct afp_sock *s)
{
	s->cur = (s->cur + 1) % s->nr;
}

/* One recvmmsg()/sendmmsg() entry: len bytes at buf */
static void mmsg_init(struct mmsghdr *m, struct iovec *iov, void *buf,
		      size_t len)
{
	iov->iov_base = buf;
	iov->iov_len = len;
	memset(m, 0, sizeof(*m));
	m->msg_hdr.msg_iov = iov;
	m->msg_hdr.msg_iovlen = 1;
}

static int wait_in(struct afp_sock *s, int timeout_ms)
{
	struct pollfd p = { .fd = s->fd, .events = POLLIN };
	int n = poll(&p, 1, timeout_ms);

	s->rx_syscalls++;
	return n < 0 ? -errno : n;
}

static int rx_v3(struct afp_sock *s, afp_frame_fn fn, void *ctx)
{
	struct tpacket_block_desc *bd = ring_slot(s, s->cur);
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
	ring_next(s);
	return n;
}

static int rx_v2(struct afp_sock *s, unsigned int max, afp_frame_fn fn,
		 void *ctx)
{
	unsigned int n = 0;

	while (n < max) {
		struct tpacket2_hdr *h = ring_slot(s, s->cur);

		if (!(__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) &
		      TP_STATUS_USER))
			break;
		if (fn)
			fn((char *)h + h->tp_mac, h->tp_snaplen, ctx);
		__atomic_store_n(&h->tp_status, TP_STATUS_KERNEL,
				 __ATOMIC_RELEASE);
		ring_next(s);
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
	for (i = 0; i < max; i++)
		mmsg_init(&msg[i], &iov[i], s->bufs + (size_t)i * MMSG_SIZE,
			  MMSG_SIZE);
	n = recvmmsg(s->fd, msg, max, MSG_DONTWAIT, NULL);
	s->rx_syscalls++;
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

	if (s->tx)
		return -EINVAL;
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

/*
 * After a send() or sendmmsg() failed: true (after a yield) when it should
 * be called again, the device having dropped a frame (ENOBUFS; the kernel
 * marks a ring frame for sending again) less than TX_TIMEOUT_S ago (*since:
 * 0, then when the drops began), else false with errno kept.  On a
 * blocking socket EAGAIN is our SO_SNDTIMEO: reported, as ETIMEDOUT.
 */
static bool tx_again(__u64 *since)
{
	if (errno == EINTR)
		return true;
	if (errno == ENOBUFS) {
		if (!*since)
			*since = mono_ns();
		if (mono_ns() - *since < TX_TIMEOUT_S * 1000000000ULL) {
			sched_yield();
			return true;
		}
	}
	if (errno == EAGAIN)
		errno = ETIMEDOUT;
	return false;
}

/*
 * Have the kernel send every ring frame marked TP_STATUS_SEND_REQUEST.  A
 * blocking send() returns when all of them have left, their slots
 * TP_STATUS_AVAILABLE again.
 */
static int tx_kick(struct afp_sock *s)
{
	__u64 since = 0;

	while (send(s->fd, NULL, 0, 0) < 0)
		if (!tx_again(&since))
			return -errno;
	return 0;
}

/* One frame from fn into buf: its length, or 0 with *ret (0: fn is done) */
static __u32 tx_fill(const struct afp_sock *s, void *buf, afp_fill_fn fn,
		     void *ctx, int *ret)
{
	__u32 len = fn(buf, s->room, ctx);

	if (len >= ETH_HLEN && len <= s->room)
		return len;
	*ret = len ? -EMSGSIZE : 0;
	return 0;
}

static __u32 *tx_status(const struct afp_sock *s, void *h)
{
	if (s->backend == AFP_TPACKET_V3)
		return &((struct tpacket3_hdr *)h)->tp_status;
	return &((struct tpacket2_hdr *)h)->tp_status;
}

static bool tx_slot_free(const struct afp_sock *s, unsigned int i)
{
	return __atomic_load_n(tx_status(s, ring_slot(s, i)),
			       __ATOMIC_ACQUIRE) == TP_STATUS_AVAILABLE;
}

/*
 * Write frames into the free slots from cur on and mark them; returns how
 * many, and sets *done when fn said it had no more (or a bad length)
 */
static unsigned int tx_ring_fill(struct afp_sock *s, unsigned int max,
				 afp_fill_fn fn, void *ctx, bool *done,
				 int *ret)
{
	unsigned int off = frame_offset(s), n;

	for (n = 0; n < max; n++) {
		void *h = ring_slot(s, s->cur);
		__u32 len;

		if (!tx_slot_free(s, s->cur))
			break;
		len = tx_fill(s, (char *)h + off, fn, ctx, ret);
		if (!len) {
			*done = true;
			break;
		}
		if (s->backend == AFP_TPACKET_V3) {
			struct tpacket3_hdr *h3 = h;

			h3->tp_next_offset = 0;	/* one frame per slot */
			h3->tp_len = len;
			h3->tp_snaplen = len;
		} else {
			struct tpacket2_hdr *h2 = h;

			h2->tp_len = len;
			h2->tp_snaplen = len;
		}
		__atomic_store_n(tx_status(s, h), TP_STATUS_SEND_REQUEST,
				 __ATOMIC_RELEASE);
		ring_next(s);
	}
	return n;
}

static int tx_ring(struct afp_sock *s, unsigned int max, afp_fill_fn fn,
		   void *ctx)
{
	unsigned int sent = 0, n, stalls = 0;
	bool done = false;
	int ret = 0, k;

	while (!done && sent < max) {
		n = tx_ring_fill(s, max - sent, fn, ctx, &done, &ret);
		k = tx_kick(s);
		if (k)
			return k;
		/* sent in ring order: the last frame is back if all went */
		if (n && !tx_slot_free(s, (s->cur + s->nr - 1) % s->nr))
			return -EIO;
		/* no free slot: frames of a timed-out kick still in flight */
		stalls = n || done ? 0 : stalls + 1;
		if (stalls > 1)
			return -EBUSY;
		sent += n;
	}
	return ret ? ret : (int)sent;
}

static int tx_mmsg(struct afp_sock *s, unsigned int max, afp_fill_fn fn,
		   void *ctx)
{
	struct mmsghdr msg[MMSG_BATCH];
	struct iovec iov[MMSG_BATCH];
	unsigned int sent = 0, n, i;
	bool done = false;
	int ret = 0, r;
	__u64 since;

	while (!done && sent < max) {
		for (n = 0; n < MMSG_BATCH && sent + n < max; n++) {
			char *buf = s->bufs + (size_t)n * MMSG_SIZE;
			__u32 len = tx_fill(s, buf, fn, ctx, &ret);

			if (!len) {
				done = true;
				break;
			}
			mmsg_init(&msg[n], &iov[n], buf, len);
		}
		for (i = 0, since = 0; i < n; i += r) {
			r = sendmmsg(s->fd, msg + i, n - i, 0);
			if (r < 0 && !tx_again(&since))
				return -errno;
			r = r < 0 ? 0 : r;
		}
		sent += n;
	}
	return ret ? ret : (int)sent;
}

int afp_tx(struct afp_sock *s, unsigned int max, afp_fill_fn fn, void *ctx)
{
	if (!s->tx)
		return -EINVAL;
	if (s->backend == AFP_SENDMMSG)
		return tx_mmsg(s, max, fn, ctx);
	return tx_ring(s, max, fn, ctx);
}
