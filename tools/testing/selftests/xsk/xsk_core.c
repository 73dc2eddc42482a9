// SPDX-License-Identifier: GPL-2.0
/*
 * AF_XDP core.  See xsk_core.h and Documentation/af_xdp_core.rst.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
/* kernel-patches: prog */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
/* kernel-patches: core */

#include "xsk_core.h"
/* kernel-patches: prog */
#include "xsk_prog_mb.h"	/* before the skeleton: its .bss has one */
#include "xsk_prog.skel.h"
/* kernel-patches: core */

static const char * const mode_names[] = {
	[XSK_MODE_BEST_EFFORT]	= "best-effort",
	[XSK_MODE_NATIVE_ZC]	= "native-with-zerocopy",
	[XSK_MODE_NATIVE]	= "native",
	[XSK_MODE_GENERIC]	= "generic",
};

const char *xsk_mode_name(enum xsk_mode mode)
{
	if ((unsigned int)mode >= ARRAY_SIZE(mode_names))
		return "invalid";
	return mode_names[mode];
}

int xsk_mode_parse(const char *name, enum xsk_mode *mode)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mode_names); i++) {
		if (!strcmp(name, mode_names[i])) {
			*mode = i;
			return 0;
		}
	}
	return -EINVAL;
}

int xsk_errf(char err[XSK_ERRLEN], int ret, const char *fmt, ...)
{
	char why[64] = "";
	size_t room;
	va_list ap;
	int n;

	if (!err)
		return ret;
	/* the errno's words are kept whole: a long message is cut instead */
	if (ret < 0)
		snprintf(why, sizeof(why), " (%s)", strerror(-ret));
	room = XSK_ERRLEN - strlen(why);
	va_start(ap, fmt);
	n = vsnprintf(err, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		err[0] = '\0';
	else if ((size_t)n >= room)
		memcpy(err + room - 4, "...", 3);
	strcat(err, why);
	return ret;
}

/* XSK_TIME_SCALE, as xsk_time_scale_init() read it */
static double time_scale = 1.0;

int xsk_time_scale_init(char err[XSK_ERRLEN])
{
	const char *v = getenv("XSK_TIME_SCALE");
	char *end;

	if (!v)
		return 0;
	errno = 0;
	time_scale = strtod(v, &end);
	if (!*v || *end || errno || strspn(v, "0123456789.") != strlen(v) ||
	    time_scale < 0.01 || time_scale > 100) {
		time_scale = 1.0;
		return xsk_errf(err, -EINVAL,
				"XSK_TIME_SCALE: '%s' is not a number in 0.01..100", v);
	}
	return 0;
}

double xsk_time_scale(void)
{
	return time_scale;
}

__u64 xsk_ms(__u64 ms)
{
	return (__u64)(ms * time_scale + 0.5);
}

__u64 xsk_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

__u64 xsk_now_ms(void)
{
	return xsk_now_us() / 1000;
}

void xsk_ifdriver(const char *ifname, char *buf, size_t len)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr = {};
	int fd;

	snprintf(buf, len, "unknown");
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&info;
	if (!ioctl(fd, SIOCETHTOOL, &ifr))
		snprintf(buf, len, "%s", info.driver);
	close(fd);
}

/* ---- socket ---------------------------------------------------------- */

static int ring_size_ok(__u32 n)
{
	return n && !(n & (n - 1));
}

static int setup_ring(struct xsk_socket *xs, int optname, __u32 entries,
		      char err[XSK_ERRLEN])
{
	static const char * const names[] = {
		[XDP_RX_RING] = "RX", [XDP_TX_RING] = "TX",
		[XDP_UMEM_FILL_RING] = "fill",
		[XDP_UMEM_COMPLETION_RING] = "completion",
	};

	if (setsockopt(xs->fd, SOL_XDP, optname, &entries, sizeof(entries)))
		return xsk_errf(err, -errno, "%s ring of %u entries refused%s",
				names[optname], entries,
				ring_size_ok(entries) ? "" :
				": ring sizes must be a power of two");
	return 0;
}

static int map_ring(struct xsk_socket *xs, struct xsk_ring *r,
		    const struct xdp_ring_offset *off, __u32 entries,
		    size_t desc_size, off_t pgoff)
{
	size_t len = off->desc + (size_t)entries * desc_size;
	char *map;

	map = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_POPULATE, xs->fd, pgoff);
	if (map == MAP_FAILED)
		return -errno;
	r->map = map;
	r->map_len = len;
	r->mask = entries - 1;
	r->size = entries;
	r->producer = (__u32 *)(map + off->producer);
	r->consumer = (__u32 *)(map + off->consumer);
	r->flags = (__u32 *)(map + off->flags);
	r->ring = map + off->desc;
	r->cached_prod = *r->producer;
	/* A producer sees the whole ring as free at first */
	r->cached_cons = *r->consumer + (pgoff == XDP_UMEM_PGOFF_FILL_RING ||
					 pgoff == XDP_PGOFF_TX_RING ?
					 entries : 0);
	return 0;
}

static void unmap_ring(struct xsk_ring *r)
{
	if (r->map)
		munmap(r->map, r->map_len);
	r->map = NULL;
}

static bool mode_is_zc(enum xsk_mode mode)
{
	return mode == XSK_MODE_NATIVE_ZC;
}

static int bind_flags(enum xsk_mode mode, const struct xsk_socket_opts *o)
{
	int flags = mode_is_zc(mode) ? XDP_ZEROCOPY : XDP_COPY;

	if (!o->no_need_wakeup)
		flags |= XDP_USE_NEED_WAKEUP;
	if (o->multi_buffer)
		flags |= XDP_USE_SG;
	return flags;
}

static int explain_bind(const struct xsk_socket *xs, enum xsk_mode mode,
			int ret, char err[XSK_ERRLEN])
{
	char ifname[IF_NAMESIZE] = "?", drv[32] = "unknown";

	if (ret == -ENODEV)
		return xsk_errf(err, ret,
				"bind: no interface with ifindex %d in this network namespace",
				xs->ifindex);
	if_indextoname(xs->ifindex, ifname);
	xsk_ifdriver(ifname, drv, sizeof(drv));
	if (ret == -EOPNOTSUPP && mode == XSK_MODE_NATIVE_ZC)
		return xsk_errf(err, ret,
				"%s: zero-copy bind refused: the %s driver has no AF_XDP zero-copy support; use mode native or best-effort",
				ifname, drv);
	if (ret == -EINVAL && xs->bind_flags & XDP_USE_SG)
		return xsk_errf(err, ret,
				"%s: bind queue %u with XDP_USE_SG refused: queue past the device's queues, or no multi-buffer support in this mode",
				ifname, xs->queue_id);
	if (ret == -EINVAL && mode == XSK_MODE_NATIVE_ZC)
		return xsk_errf(err, ret,
				"%s: zero-copy bind to queue %u refused: the device has fewer queues (see ethtool -l %s), or the %s driver cannot take this UMEM's chunks at the MTU (see the kernel log)",
				ifname, xs->queue_id, ifname, drv);
	if (ret == -EINVAL)
		return xsk_errf(err, ret,
				"%s: bind to queue %u refused: the device has fewer queues (see ethtool -l %s)",
				ifname, xs->queue_id, ifname);
	if (ret == -EBUSY)
		return xsk_errf(err, ret,
				"%s: queue %u is in use by another AF_XDP socket or zero-copy pool",
				ifname, xs->queue_id);
	return xsk_errf(err, ret, "%s: bind to queue %u in %s mode failed", ifname,
			xs->queue_id, xsk_mode_name(mode));
}

static int setup_umem(struct xsk_socket *xs, const struct xsk_socket_opts *o,
		      char err[XSK_ERRLEN])
{
	struct xdp_umem_reg reg = {};
	__u32 i;

	xs->umem_len = (size_t)xs->nr_frames * xs->frame_size;
	xs->umem = mmap(NULL, xs->umem_len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (xs->umem == MAP_FAILED) {
		xs->umem = NULL;
		return xsk_errf(err, -errno, "UMEM of %zu bytes: mmap failed",
				xs->umem_len);
	}
	xs->free_frames = calloc(xs->nr_frames, sizeof(*xs->free_frames));
	if (!xs->free_frames)
		return xsk_errf(err, -ENOMEM, "UMEM frame list");
	for (i = xs->nr_frames; i > 0; i--)
		xsk_frame_free(xs, (__u64)(i - 1) * xs->frame_size);

	reg.addr = (__u64)(unsigned long)xs->umem;
	reg.len = xs->umem_len;
	reg.chunk_size = xs->frame_size;
	reg.headroom = xs->headroom;
	reg.flags = o->unaligned ? XDP_UMEM_UNALIGNED_CHUNK_FLAG : 0;
	if (setsockopt(xs->fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof(reg))) {
		int ret = -errno;

		if (!o->unaligned && (xs->frame_size & (xs->frame_size - 1)))
			return xsk_errf(err, ret,
					"XDP_UMEM_REG: chunk size %u is not a power of two, which aligned mode requires (use unaligned chunks)",
					xs->frame_size);
		if (xs->frame_size < 2048 || xs->frame_size > 4096)
			return xsk_errf(err, ret,
					"XDP_UMEM_REG: chunk size %u is outside 2048..%ld",
					xs->frame_size, sysconf(_SC_PAGESIZE));
		if (xs->headroom + XSK_KERNEL_HEADROOM >= xs->frame_size)
			return xsk_errf(err, ret,
					"XDP_UMEM_REG: headroom %u leaves no room in a %u-byte chunk (%u reserved by the kernel)",
					xs->headroom, xs->frame_size,
					XSK_KERNEL_HEADROOM);
		return xsk_errf(err, ret, "XDP_UMEM_REG of %zu bytes failed",
				xs->umem_len);
	}
	return 0;
}

int xsk_socket_create(struct xsk_socket **xsp, int ifindex, enum xsk_mode mode,
		      const struct xsk_socket_opts *o, char err[XSK_ERRLEN])
{
	__u32 rx = o->rx_size ?: XSK_DEF_RING_SIZE;
	__u32 tx = o->tx_size ?: XSK_DEF_RING_SIZE;
	__u32 fill = o->fill_size ?: XSK_DEF_RING_SIZE;
	__u32 comp = o->comp_size ?: XSK_DEF_RING_SIZE;
	struct sockaddr_xdp sxdp = {};
	struct xdp_mmap_offsets off;
	struct xdp_options xopt;
	struct xsk_socket *xs;
	socklen_t optlen;
	int ret;

	*xsp = NULL;
	if (mode == XSK_MODE_BEST_EFFORT)
		return xsk_errf(err, -EINVAL, "a socket needs a concrete mode");
	xs = calloc(1, sizeof(*xs));
	if (!xs)
		return xsk_errf(err, -ENOMEM, "socket");
	xs->ifindex = ifindex;
	xs->queue_id = o->queue_id;
	xs->frame_size = o->frame_size ?: XSK_DEF_FRAME_SIZE;
	xs->headroom = o->headroom;
	xs->nr_frames = o->nr_frames ?: fill + tx;
	xs->need_wakeup = !o->no_need_wakeup;
	xs->unaligned = o->unaligned;
	xs->bind_flags = bind_flags(mode, o);

	xs->fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (xs->fd < 0) {
		ret = xsk_errf(err, -errno, "socket(AF_XDP): kernel without CONFIG_XDP_SOCKETS?");
		goto out;
	}
	ret = setup_umem(xs, o, err);
	if (ret)
		goto out;
	ret = setup_ring(xs, XDP_UMEM_FILL_RING, fill, err);
	if (!ret)
		ret = setup_ring(xs, XDP_UMEM_COMPLETION_RING, comp, err);
	if (!ret && !o->no_rx)
		ret = setup_ring(xs, XDP_RX_RING, rx, err);
	if (!ret && !o->no_tx)
		ret = setup_ring(xs, XDP_TX_RING, tx, err);
	if (ret)
		goto out;

	optlen = sizeof(off);
	if (getsockopt(xs->fd, SOL_XDP, XDP_MMAP_OFFSETS, &off, &optlen)) {
		ret = xsk_errf(err, -errno, "XDP_MMAP_OFFSETS");
		goto out;
	}
	ret = map_ring(xs, &xs->fill.q, &off.fr, fill, sizeof(__u64),
		       XDP_UMEM_PGOFF_FILL_RING);
	if (!ret)
		ret = map_ring(xs, &xs->comp.q, &off.cr, comp, sizeof(__u64),
			       XDP_UMEM_PGOFF_COMPLETION_RING);
	if (!ret && !o->no_rx)
		ret = map_ring(xs, &xs->rx.q, &off.rx, rx,
			       sizeof(struct xdp_desc), XDP_PGOFF_RX_RING);
	if (!ret && !o->no_tx)
		ret = map_ring(xs, &xs->tx.q, &off.tx, tx,
			       sizeof(struct xdp_desc), XDP_PGOFF_TX_RING);
	if (ret) {
		ret = xsk_errf(err, ret, "mmap of a ring");
		goto out;
	}

	sxdp.sxdp_family = AF_XDP;
	sxdp.sxdp_ifindex = ifindex;
	sxdp.sxdp_queue_id = o->queue_id;
	sxdp.sxdp_flags = xs->bind_flags;
	if (bind(xs->fd, (struct sockaddr *)&sxdp, sizeof(sxdp))) {
		ret = explain_bind(xs, mode, -errno, err);
		goto out;
	}

	optlen = sizeof(xopt);
	if (getsockopt(xs->fd, SOL_XDP, XDP_OPTIONS, &xopt, &optlen)) {
		ret = xsk_errf(err, -errno, "XDP_OPTIONS: kernel older than 5.9?");
		goto out;
	}
	xs->zerocopy = xopt.flags & XDP_OPTIONS_ZEROCOPY;
	if (xs->zerocopy != mode_is_zc(mode)) {
		ret = xsk_errf(err, -EPROTO, "bound, but XDP_OPTIONS reports %s where %s was asked",
			       xs->zerocopy ? "zero-copy" : "copy",
			       xsk_mode_name(mode));
		goto out;
	}
	if (!o->no_rx)
		xsk_fill_refill(xs);
	*xsp = xs;
	return 0;
out:
	xsk_socket_destroy(xs);
	return ret;
}

void xsk_socket_destroy(struct xsk_socket *xs)
{
	if (!xs)
		return;
	unmap_ring(&xs->rx.q);
	unmap_ring(&xs->tx.q);
	unmap_ring(&xs->fill.q);
	unmap_ring(&xs->comp.q);
	if (xs->fd >= 0)
		close(xs->fd);
	if (xs->umem)
		munmap(xs->umem, xs->umem_len);
	free(xs->free_frames);
	free(xs);
}

int xsk_socket_stats(struct xsk_socket *xs, struct xdp_statistics *st)
{
	socklen_t len = sizeof(*st);

	memset(st, 0, sizeof(*st));
	if (getsockopt(xs->fd, SOL_XDP, XDP_STATISTICS, st, &len))
		return -errno;
	return 0;
}

/* ---- data path -------------------------------------------------------- */

bool xsk_kick_tx(struct xsk_socket *xs)
{
	/* Copy mode transmits only from sendmsg(): without need_wakeup, always */
	if (xs->need_wakeup && !xring_needs_wakeup(&xs->tx))
		return false;
	/* ENOBUFS, EAGAIN, EBUSY, ENETDOWN: the ring is retried on next kick */
	xs->tx_kick_errno = sendto(xs->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0 ?
			    errno : 0;
	xs->stats.tx_kicks++;
	return true;
}

bool xsk_kick_fill(struct xsk_socket *xs)
{
	if (!xs->need_wakeup || !xring_needs_wakeup(&xs->fill))
		return false;
	recvfrom(xs->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
	xs->stats.fill_kicks++;
	return true;
}

__u32 xsk_fill_refill(struct xsk_socket *xs)
{
	__u32 n = xs->nr_free, idx, i;

	if (!n)
		return 0;
	n = xring_prod_nb_free(&xs->fill, n) < n ?
	    xring_prod_nb_free(&xs->fill, n) : n;
	if (!n || !xring_prod_reserve(&xs->fill, n, &idx))
		return 0;
	for (i = 0; i < n; i++)
		*xring_fill_addr(&xs->fill, idx + i) = xsk_frame_alloc(xs);
	xring_prod_submit(&xs->fill, n);
	return n;
}

__u32 xsk_comp_reclaim(struct xsk_socket *xs)
{
	__u32 idx, i, n;

	n = xring_cons_peek(&xs->comp, xs->comp.q.size, &idx);
	for (i = 0; i < n; i++) {
		__u64 addr = *xring_comp_addr(&xs->comp, idx + i);

		xsk_frame_free(xs, xsk_frame_base(xs, addr));
	}
	if (n)
		xring_cons_release(&xs->comp, n);
	xs->stats.tx_completed += n;
	return n;
}

int xsk_rx_packet(struct xsk_socket *xs, void *buf, size_t len, __u32 *ndesc)
{
	__u32 idx, avail, n = 0;
	size_t copied = 0;
	bool truncated = false;
	bool last = false;

	avail = xring_cons_nb_avail(&xs->rx, xs->rx.q.size);
	/* A packet is complete once a descriptor without XDP_PKT_CONTD is in */
	for (n = 0; n < avail; n++) {
		idx = xs->rx.q.cached_cons + n;
		if (!(xring_rx_desc(&xs->rx, idx)->options & XDP_PKT_CONTD)) {
			last = true;
			break;
		}
	}
	if (!last)
		return 0;
	n++;
	xring_cons_peek(&xs->rx, n, &idx);
	for (__u32 i = 0; i < n; i++) {
		const struct xdp_desc *d = xring_rx_desc(&xs->rx, idx + i);

		if (copied + d->len <= len)
			memcpy((char *)buf + copied, xsk_umem_ptr(xs, d->addr),
			       d->len);
		else
			truncated = true;
		copied += d->len;
		xsk_frame_free(xs, xsk_frame_base(xs, d->addr));
	}
	xring_cons_release(&xs->rx, n);
	xs->stats.rx_descs += n;
	xs->stats.rx_packets++;
	if (ndesc)
		*ndesc = n;
	xsk_fill_refill(xs);
	return truncated ? -EMSGSIZE : (int)copied;
}

__u32 xsk_rx_recycle(struct xsk_socket *xs, __u32 budget, __u32 *packets)
{
	__u32 idx, i, n, pkts = 0;

	n = xring_cons_peek(&xs->rx, budget, &idx);
	for (i = 0; i < n; i++) {
		const struct xdp_desc *d = xring_rx_desc(&xs->rx, idx + i);

		pkts += !(d->options & XDP_PKT_CONTD);
		xsk_frame_free(xs, xsk_frame_base(xs, d->addr));
	}
	if (n) {
		xring_cons_release(&xs->rx, n);
		xsk_fill_refill(xs);
	}
	xs->stats.rx_descs += n;
	xs->stats.rx_packets += pkts;
	if (packets)
		*packets = pkts;
	return n;
}

int xsk_tx_packet(struct xsk_socket *xs, const void *pkt, __u32 len)
{
	__u32 room = xs->frame_size - xs->headroom;
	__u32 n = len ? (len - 1) / room + 1 : 1;
	__u32 idx, i, off = 0;

	if (n > 1 && !(xs->bind_flags & XDP_USE_SG))
		return -EMSGSIZE;
	xsk_comp_reclaim(xs);
	if (xs->nr_free < n || xring_prod_nb_free(&xs->tx, n) < n)
		return -EAGAIN;
	xring_prod_reserve(&xs->tx, n, &idx);
	for (i = 0; i < n; i++) {
		struct xdp_desc *d = xring_tx_desc(&xs->tx, idx + i);
		__u32 chunk = len - off < room ? len - off : room;

		d->addr = xsk_frame_alloc(xs) + xs->headroom;
		d->len = chunk;
		d->options = i + 1 < n ? XDP_PKT_CONTD : 0;
		memcpy(xsk_umem_ptr(xs, d->addr), (const char *)pkt + off,
		       chunk);
		off += chunk;
	}
	xring_prod_submit(&xs->tx, n);
	xs->stats.tx_descs += n;
	xsk_kick_tx(xs);
	return 0;
}

/* kernel-patches: prog */
/* ---- port: program + sockets ----------------------------------------- */

static int prog_attach(struct xsk_port *port, enum xsk_mode mode, char err[XSK_ERRLEN])
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts);
	lopts.flags = mode == XSK_MODE_GENERIC ? XDP_FLAGS_SKB_MODE :
						 XDP_FLAGS_DRV_MODE;
	port->link_fd = bpf_link_create(port->prog_fd, port->ifindex, BPF_XDP,
					&lopts);
	if (port->link_fd < 0) {
		int ret = -errno;

		port->link_fd = -1;
		if (ret == -EBUSY || ret == -EEXIST)
			return xsk_errf(err, ret,
					"%s: another XDP program is attached (see ip link show %s)",
					port->ifname, port->ifname);
		if (ret == -ERANGE)
			return xsk_errf(err, ret, "%s: XDP in %s mode refused at this MTU",
					port->ifname, xsk_mode_name(mode));
		return xsk_errf(err, ret, "%s: attaching XDP in %s mode failed",
				port->ifname, xsk_mode_name(mode));
	}
	return 0;
}

static void prog_detach(struct xsk_port *port)
{
	if (port->link_fd >= 0)
		close(port->link_fd);
	port->link_fd = -1;
}

static void close_socks(struct xsk_port *port)
{
	while (port->nr_socks)
		xsk_socket_destroy(port->socks[--port->nr_socks]);
}

static int open_socks(struct xsk_port *port, const struct xsk_port_opts *o,
		      enum xsk_mode mode, char err[XSK_ERRLEN])
{
	__u32 nq = o->nr_queues ?: 1, q;
	int ret;

	if (!o->no_prog) {
		ret = prog_attach(port, mode, err);
		if (ret)
			return ret;
	}
	for (q = o->first_queue; q < o->first_queue + nq; q++) {
		struct xsk_socket_opts so = o->sock;
		struct xsk_socket *xs;

		so.queue_id = q;
		ret = xsk_socket_create(&xs, port->ifindex, mode, &so, err);
		if (ret)
			goto fail;
		port->socks[port->nr_socks++] = xs;
		if (port->map_fd >= 0 &&
		    bpf_map_update_elem(port->map_fd, &q, &xs->fd, BPF_ANY)) {
			ret = xsk_errf(err, -errno, "xsks_map[%u]", q);
			goto fail;
		}
	}
	return 0;
fail:
	close_socks(port);
	prog_detach(port);
	return ret;
}

/* The mode in use as the kernel reports it */
static int verify_mode(struct xsk_port *port, enum xsk_mode asked, char err[XSK_ERRLEN])
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	bool zc = port->socks[0]->zerocopy;
	__u32 i;

	for (i = 1; i < port->nr_socks; i++)
		if (port->socks[i]->zerocopy != zc)
			return xsk_errf(err, -EPROTO, "queues disagree on zero-copy");
	if (bpf_xdp_query(port->ifindex, 0, &q))
		return xsk_errf(err, -errno, "%s: bpf_xdp_query", port->ifname);
	port->attach_mode = q.attach_mode;
#if LIBBPF_MAJOR_VERSION > 1 || LIBBPF_MINOR_VERSION >= 2
	port->xdp_features = q.feature_flags;
	port->features_known = true;
#endif
	if (port->prog_fd < 0) {
		port->mode = asked;
		return 0;
	}
	if (bpf_obj_get_info_by_fd(port->prog_fd, &info, &len))
		return xsk_errf(err, -errno, "prog info");
	port->prog_id = info.id;
	if (q.drv_prog_id == info.id)
		port->mode = zc ? XSK_MODE_NATIVE_ZC : XSK_MODE_NATIVE;
	else if (q.skb_prog_id == info.id && !zc)
		port->mode = XSK_MODE_GENERIC;
	else
		return xsk_errf(err, -EPROTO,
				"%s: our XDP program (id %u) is not the one attached (drv %u, skb %u)",
				port->ifname, info.id, q.drv_prog_id,
				q.skb_prog_id);
	if (port->mode != asked)
		return xsk_errf(err, -EPROTO, "%s: asked for %s, the kernel reports %s",
				port->ifname, xsk_mode_name(asked),
				xsk_mode_name(port->mode));
	return 0;
}

int xsk_port_open(struct xsk_port **portp, const struct xsk_port_opts *o,
		  char err[XSK_ERRLEN])
{
	static const enum xsk_mode order[] = {
		XSK_MODE_NATIVE_ZC, XSK_MODE_NATIVE, XSK_MODE_GENERIC,
	};
	__u32 nq = o->nr_queues ?: 1;
	struct xsk_port *port;
	char why[XSK_ERRLEN];
	unsigned int i;
	int ret;

	*portp = NULL;
	if (!o->ifname || !*o->ifname)
		return xsk_errf(err, -EINVAL, "no interface given");
	if (nq > XSK_MAX_QUEUES || o->first_queue + nq > XSK_MAX_QUEUES)
		return xsk_errf(err, -EINVAL, "queues %u..%u: at most %d queues",
				o->first_queue, o->first_queue + nq - 1,
				XSK_MAX_QUEUES);
	port = calloc(1, sizeof(*port));
	if (!port)
		return xsk_errf(err, -ENOMEM, "port");
	port->prog_fd = -1;
	port->map_fd = -1;
	port->link_fd = -1;
	snprintf(port->ifname, sizeof(port->ifname), "%s", o->ifname);
	port->ifindex = if_nametoindex(o->ifname);
	if (!port->ifindex) {
		ret = xsk_errf(err, -ENODEV, "%s: no such interface in this network namespace",
			       o->ifname);
		goto out;
	}
	xsk_ifdriver(port->ifname, port->driver, sizeof(port->driver));

	if (o->no_prog) {
		/* TX only */
	} else if (o->prog) {
		port->prog_fd = bpf_program__fd(o->prog);
		port->map_fd = o->xsks_map ? bpf_map__fd(o->xsks_map) : -1;
		if (port->prog_fd < 0 || port->map_fd < 0) {
			ret = xsk_errf(err, -EINVAL,
				       "the caller's XDP program needs to be loaded, with its XSKMAP");
			goto out;
		}
	} else {
		port->skel = xsk_prog_bpf__open_and_load();
		if (!port->skel) {
			ret = xsk_errf(err, -errno,
				       "loading the XDP program failed (CONFIG_BPF_SYSCALL? RLIMIT_MEMLOCK? see libbpf's messages above)");
			goto out;
		}
		port->prog_fd = bpf_program__fd(port->skel->progs.xsk_redirect);
		port->map_fd = bpf_map__fd(port->skel->maps.xsks_map);
	}

	if (o->mode != XSK_MODE_BEST_EFFORT) {
		ret = open_socks(port, o, o->mode, err);
		if (!ret)
			ret = verify_mode(port, o->mode, err);
		goto out;
	}
	/* Best-effort, as Open vSwitch does it: first that works wins */
	port->fallback[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		ret = open_socks(port, o, order[i], why);
		if (!ret)
			break;
		snprintf(port->fallback + strlen(port->fallback),
			 sizeof(port->fallback) - strlen(port->fallback),
			 "%s%s: %s", port->fallback[0] ? "; " : "",
			 xsk_mode_name(order[i]), why);
	}
	if (ret) {
		ret = xsk_errf(err, ret, "%s: no mode works: %s", port->ifname,
			       port->fallback);
		goto out;
	}
	ret = verify_mode(port, order[i], err);
out:
	if (ret) {
		xsk_port_close(port);
		return ret;
	}
	*portp = port;
	return 0;
}

void xsk_port_close(struct xsk_port *port)
{
	if (!port)
		return;
	close_socks(port);
	prog_detach(port);
	xsk_prog_bpf__destroy(port->skel);
	free(port);
}

int xsk_prog_counters_read(struct xsk_prog_bpf *skel,
			   struct xsk_prog_counters *c)
{
	int ncpus = libbpf_num_possible_cpus(), i;
	struct xsk_prog_counters *pc;
	__u32 key = 0;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	if (!skel)
		return -ENOENT;
	if (ncpus < 0)
		return ncpus;
	pc = calloc(ncpus, sizeof(*pc));
	if (!pc)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.counters), &key, pc))
		ret = -errno;
	for (i = 0; !ret && i < ncpus; i++) {
		c->rx_packets += pc[i].rx_packets;
		c->rx_bytes += pc[i].rx_bytes;
		c->redirected += pc[i].redirected;
		c->no_socket += pc[i].no_socket;
	}
	free(pc);
	return ret;
}

void xsk_port_describe(const struct xsk_port *port, char *buf, size_t len)
{
	const struct xsk_socket *xs = port->socks[0];
	const char *attach;

	switch (port->attach_mode) {
	case XDP_ATTACHED_DRV:
		attach = "driver";
		break;
	case XDP_ATTACHED_SKB:
		attach = "skb";
		break;
	case XDP_ATTACHED_NONE:
		attach = "none";
		break;
	default:
		attach = "multi";
	}
	snprintf(buf, len,
		 "%s (%s) queues %u-%u: %s mode (XDP attached: %s, XDP_OPTIONS: %s)%s%s%s",
		 port->ifname, port->driver, xs->queue_id,
		 port->socks[port->nr_socks - 1]->queue_id,
		 xsk_mode_name(port->mode), attach,
		 xs->zerocopy ? "zero-copy" : "copy",
		 xs->need_wakeup ? ", need_wakeup" : "",
		 xs->bind_flags & XDP_USE_SG ? ", multi-buffer" : "",
		 xs->unaligned ? ", unaligned chunks" : "");
}
