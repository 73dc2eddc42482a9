// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic generator: BPF_PROG_RUN in live-frames mode, with an AF_XDP
 * multi-buffer fallback for frames live-frames mode refuses.  See
 * trafficgen.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "icount_window.h"
#include "measure.h"
#include "trafficgen.h"
#include "trafficgen.skel.h"
#include "xsk_core.h"
#include "xsk_env.h"
#include "xsk_pkt.h"

/* A buffer of either kind takes the other's sentences (err.h) */
_Static_assert(ERR_LEN == XSK_ERRLEN, "ERR_LEN and XSK_ERRLEN differ");

_Static_assert(FRAME_MIN_SIZE == XSK_PKT_MIN_LEN,
	       "the generator's smallest frame is the packet format's");

#define NSEC		1000000000ULL
/* AF_XDP: packets per burst at full speed */
#define AF_XDP_BURST	64
/* AF_XDP pacing: one burst every PACE_NS at most */
#define PACE_NS		100000ULL
/* Offsets tgen_tx rewrites, as in xsk_pkt.h */
#define SPORT_OFF	34
#define SEQ_OFF		XSK_PKT_HDR_LEN

static bool stopped(const struct tgen_opts *o)
{
	return o->stop && *o->stop;
}

/* Sleep until an absolute CLOCK_MONOTONIC time in ns, or a signal */
static void sleep_until(__u64 t)
{
	struct timespec ts = { .tv_sec = t / NSEC, .tv_nsec = t % NSEC };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/*
 * The run's clock is CLOCK_MONOTONIC (ktime_ns()), the clock its pacing
 * sleeps on and tgen_tx's bpf_ktime_get_ns() reads: its deadline and the
 * duration it reports are in the clock its frames were timed by
 */
static bool over(const struct tgen_opts *o, __u64 start)
{
	return stopped(o) ||
	       (o->duration_ns && ktime_ns() - start >= o->duration_ns);
}

/* When frame i of a paced run is due: start + i / rate (o->rate_pps != 0) */
static __u64 due(const struct tgen_opts *o, __u64 start, __u64 i)
{
	return start + (__u64)((double)i * NSEC / o->rate_pps);
}

/*
 * Wait for CLOCK_MONOTONIC time t in naps of at most 10 ms, so that *stop
 * and the end of the duration are seen on time; false when the run is over
 */
static bool wait_until(const struct tgen_opts *o, __u64 t, __u64 start)
{
	for (;;) {
		__u64 now = ktime_ns();

		if (over(o, start))
			return false;
		if (now >= t)
			return true;
		sleep_until(t - now > 10000000 ? now + 10000000 : t);
	}
}

/*
 * AF_XDP packets per burst: the rate in PACE_NS slices, at least one, at
 * most AF_XDP_BURST; as fast as possible, AF_XDP_BURST.
 */
static __u64 step_frames(const struct tgen_opts *o)
{
	__u64 n;

	if (!o->rate_pps)
		return AF_XDP_BURST;
	n = o->rate_pps * PACE_NS / NSEC;
	if (n < 1)
		n = 1;
	if (n > AF_XDP_BURST)
		n = AF_XDP_BURST;
	return n;
}

/* Frames to send in the next step, 0 when the run is over */
static __u64 next_step(const struct tgen_opts *o, __u64 done, __u64 start,
		       __u64 step)
{
	if (over(o, start) || (o->count && done >= o->count))
		return 0;
	if (o->count && o->count - done < step)
		step = o->count - done;
	/*
	 * No frame before its time (due()): the step's frames go together
	 * when the last of them, done + step - 1, is due
	 */
	if (o->rate_pps && !wait_until(o, due(o, start, done + step - 1), start))
		return 0;
	return step;
}

/* ---- live frames ------------------------------------------------------ */

static int prog_run(int prog_fd, const void *frame, __u32 len,
		    struct xdp_md *md, __u32 repeat)
{
	LIBBPF_OPTS(bpf_test_run_opts, t,
		.data_in = frame,
		.data_size_in = len,
		.ctx_in = md,
		.ctx_size_in = sizeof(*md),
		.repeat = repeat,
		.flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		.batch_size = TGEN_BATCH,
	);

	md->data = 0;
	md->data_end = len;
	return bpf_prog_test_run_opts(prog_fd, &t) ? -errno : 0;
}

/*
 * The largest frame live-frames mode takes here, found by trying frames with
 * tgen_tx in probe mode (it drops them, counts nothing, sends nothing).
 * Returns it, or -errno if even the smallest test frame is refused.
 */
static int live_probe(struct trafficgen_bpf *skel, int prog_fd,
		      struct xdp_md *md, void *orig, __u32 size)
{
	void *frame = orig;
	__u32 lo = XSK_PKT_MIN_LEN, hi = sysconf(_SC_PAGESIZE);
	int ret;

	/* frame has room for size bytes only; the probe needs up to a page */
	if (hi > size) {
		frame = calloc(1, hi);
		if (!frame)
			return -ENOMEM;
	} else {
		hi = size;
	}

	skel->bss->probe = 1;
	ret = prog_run(prog_fd, frame, lo, md, 1);
	if (ret)
		goto out;
	/* lo is taken; find the largest taken length in lo..hi */
	while (lo < hi) {
		__u32 mid = lo + (hi - lo + 1) / 2;

		if (prog_run(prog_fd, frame, mid, md, 1))
			hi = mid - 1;
		else
			lo = mid;
	}
	ret = lo;
out:
	skel->bss->probe = 0;
	if (frame != orig)
		free(frame);
	return ret;
}

static int read_sent(struct trafficgen_bpf *skel, __u64 *sent)
{
	int ncpus = libbpf_num_possible_cpus(), i;
	__u64 *v;
	__u32 key = 0;
	int ret = 0;

	if (ncpus < 0)
		return ncpus;
	v = calloc(ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.tx_count), &key, v))
		ret = -errno;
	*sent = 0;
	for (i = 0; !ret && i < ncpus; i++)
		*sent += v[i];
	free(v);
	return ret;
}

/*
 * BPF_PROG_RUN with repeat > 1 puts the program into the XDP dispatcher on
 * entry and takes it out on exit (bpf_prog_change_xdp()), and each change
 * waits for an RCU grace period: about 12 ms each way here.  So a run at
 * full speed is one call with a large repeat, cut short by a signal
 * (BPF_PROG_RUN then returns -EINTR after the batch in progress) when the
 * duration is over, *stop is set or (paced) the count is sent; a watcher
 * thread sends it.
 *
 * Paced runs up to TGEN_CALL_PACE_MAX frames/s make one call per frame
 * with repeat = 1, which leaves the dispatcher alone and the generator's
 * CPU idle between frames; but each call sets up the live-frames page
 * pool, some 9 us: about 110 kpps at most here.  Faster paced runs are one
 * call of many repeats, in which the program sends each frame when it is
 * due and nothing in the runs between (tgen_tx's pace_x1024): the
 * generator's CPU, where the receiving veth's NAPI runs too, spins
 * through the run.
 */
struct watcher {
	pthread_t gen;
	const volatile int *stop;
	__u64 deadline;			/* CLOCK_MONOTONIC; 0 = none */
	const volatile __u64 *sent;	/* paced: the program's frames */
	__u64 count;			/* paced: fire once sent reaches it */
	volatile int fired;		/* the run must end */
	volatile int done;		/* the generator has left its loop */
};

static void on_tgen_signal(int sig)
{
	(void)sig;
}

static void *watch(void *arg)
{
	struct watcher *w = arg;

	while (!w->done) {
		__u64 now = ktime_ns(), nap = 5000000;

		if ((w->stop && *w->stop) || (w->deadline && now >= w->deadline) ||
		    (w->count && *w->sent >= w->count))
			w->fired = 1;
		/* Until the generator has left: a signal that came just
		 * before it entered the syscall did not interrupt it
		 */
		if (w->fired)
			pthread_kill(w->gen, TGEN_SIGNAL);
		else if (w->deadline && w->deadline - now < nap)
			nap = w->deadline - now;
		sleep_until(now + nap);
	}
	return NULL;
}

static int run_live_full(const struct tgen_opts *o,
			 struct trafficgen_bpf *skel, struct xdp_md *md,
			 void *frame, __u32 size, __u64 start, char err[ERR_LEN])
{
	int prog_fd = bpf_program__fd(skel->progs.tgen_tx);
	struct sigaction sa = { .sa_handler = on_tgen_signal }, old;
	struct watcher w = {
		.gen = pthread_self(),
		.stop = o->stop,
		.deadline = o->duration_ns ? start + o->duration_ns : 0,
		.sent = &skel->bss->next_seq,
		.count = o->rate_pps ? o->count : 0,
	};
	__u64 done = 0, n = 0;
	pthread_t th;
	int ret;

	sigemptyset(&sa.sa_mask);
	if (sigaction(TGEN_SIGNAL, &sa, &old))
		return err_set(err, -errno, "tgen: installing a handler for signal %d",
				TGEN_SIGNAL);
	ret = pthread_create(&th, NULL, watch, &w);
	if (ret) {
		sigaction(TGEN_SIGNAL, &old, NULL);
		return err_set(err, -ret, "tgen: starting the watcher thread");
	}
	while (!w.fired && !stopped(o) && (!o->count || done < o->count)) {
		/* paced, the runs are not the frames: until the watcher fires */
		n = o->count && !o->rate_pps ? o->count - done : UINT32_MAX;
		if (n > UINT32_MAX)
			n = UINT32_MAX;
		ret = prog_run(prog_fd, frame, size, md, n);
		if (ret == -EINTR)
			ret = 0;	/* cut short after a whole batch */
		if (ret)
			break;
		/* what the program numbered (bare numbers none: no count) */
		done = skel->bss->next_seq;
	}
	w.done = 1;
	pthread_join(th, NULL);
	sigaction(TGEN_SIGNAL, &old, NULL);
	if (ret)
		return err_set(err, ret, "BPF_PROG_RUN (live frames, %u-byte frames, repeat %llu) failed after %llu frames",
				size, (unsigned long long)n,
				(unsigned long long)done);
	return 0;
}

static int run_live_paced(const struct tgen_opts *o,
			  struct trafficgen_bpf *skel, struct xdp_md *md,
			  void *frame, __u32 size, __u64 start, char err[ERR_LEN])
{
	int prog_fd = bpf_program__fd(skel->progs.tgen_tx);
	__u64 done = 0;
	int ret = 0;

	while (!stopped(o) && (!o->count || done < o->count)) {
		if (!wait_until(o, due(o, start, done), start))
			break;
		ret = prog_run(prog_fd, frame, size, md, 1);
		if (ret == -EINTR)
			continue;
		if (ret)
			return err_set(err, ret, "BPF_PROG_RUN (live frames, %u-byte frames) failed after %llu frames",
					size, (unsigned long long)done);
		done++;
	}
	return 0;
}

static int run_live(const struct tgen_opts *o, struct trafficgen_bpf *skel,
		    struct xdp_md *md, void *frame, __u32 size,
		    struct tgen_result *r, char err[ERR_LEN])
{
	__u64 start = ktime_ns();
	int ret;

	skel->bss->next_seq = 0;
	skel->bss->bare = o->bare;
	skel->bss->stamp = o->stamp;
	skel->bss->limit = o->count;
	skel->bss->pace_start = 0;
	skel->bss->pace_x1024 = 0;
	if (o->rate_pps && o->rate_pps <= TGEN_CALL_PACE_MAX) {
		ret = run_live_paced(o, skel, md, frame, size, start, err);
	} else {
		/* ns per frame in 1/1024 ns: 2 Mpps is 512000 */
		if (o->rate_pps)
			skel->bss->pace_x1024 = (NSEC * 1024 + o->rate_pps / 2) /
						o->rate_pps;
		ret = run_live_full(o, skel, md, frame, size, start, err);
	}
	r->duration_ns = ktime_ns() - start;
	if (ret || o->bare)
		return ret;
	ret = read_sent(skel, &r->sent);
	if (ret)
		return err_set(err, ret, "reading tgen_tx's counter");
	if (r->sent != skel->bss->next_seq)
		return err_set(err, -EPROTO, "tgen_tx counted %llu frames but numbered %llu",
				(unsigned long long)r->sent,
				(unsigned long long)skel->bss->next_seq);
	if (o->count && r->sent > o->count)
		return err_set(err, -EPROTO, "tgen_tx sent %llu frames, %llu were asked for",
				(unsigned long long)r->sent,
				(unsigned long long)o->count);
	return 0;
}

/* ---- AF_XDP multi-buffer fallback -------------------------------------- */

static int run_af_xdp(const struct tgen_opts *o, void *frame, __u32 size,
		      struct tgen_result *r, char err[ERR_LEN])
{
	static const enum xsk_mode modes[] = { XSK_MODE_NATIVE,
					       XSK_MODE_GENERIC };
	struct xsk_port_opts po = {
		.ifname = o->ifname,
		.first_queue = o->queue,
		.no_prog = true,
		.sock = { .multi_buffer = true, .no_rx = true },
	};
	__u64 step = step_frames(o), done = 0, start, n, i;
	struct xsk_port *port = NULL;
	struct xsk_socket *xs;
	char why[2][ERR_LEN];
	unsigned int m, tries;
	__u64 deadline;
	int ret = 0;

	/*
	 * The last run's socket on this queue goes away in deferred work of
	 * the kernel: the queue can be busy (EBUSY) for a moment after its
	 * close, longer on a loaded machine.  Wait up to a second for it.
	 */
	for (tries = 0; ; tries++) {
		for (m = 0; m < 2; m++) {
			po.mode = modes[m];
			ret = xsk_port_open(&port, &po, why[m]);
			if (!ret)
				break;
		}
		if (ret != -EBUSY || tries == 100)
			break;
		usleep(10000);
	}
	if (ret)
		return err_wrap(err, ret, "AF_XDP multi-buffer socket on %s: native: %s; generic: %s",
				o->ifname, why[0], why[1]);
	xs = port->socks[0];

	start = ktime_ns();
	while (!ret && (n = next_step(o, done, start, step))) {
		for (i = 0; i < n; i++) {
			__u16 port_be = htons(TGEN_PORT_BASE + done % o->flows);
			__u32 seq = done;

			memcpy((char *)frame + SPORT_OFF, &port_be, 2);
			memcpy((char *)frame + SEQ_OFF, &seq, 4);
			if (o->stamp) {
				__u64 now = ktime_ns();

				memcpy((char *)frame + TGEN_STAMP_OFF, &now, 8);
			}
			while ((ret = xsk_tx_packet(xs, frame, size)) ==
			       -EAGAIN) {
				if (stopped(o))
					break;
				xsk_kick_tx(xs);
			}
			if (ret)
				break;
			done++;
		}
	}
	if (ret == -EAGAIN)
		ret = 0;	/* stopped while the ring was full */
	/* Every queued descriptor back, or give up after a second */
	deadline = ktime_ns() + NSEC;
	while (xs->stats.tx_completed < xs->stats.tx_descs &&
	       ktime_ns() < deadline) {
		xsk_kick_tx(xs);
		xsk_comp_reclaim(xs);
	}
	r->duration_ns = ktime_ns() - start;
	if (!ret && xs->stats.tx_completed < xs->stats.tx_descs)
		ret = err_set(err, -ETIMEDOUT, "AF_XDP TX on %s: %llu of %llu descriptors completed after 1 s",
			       o->ifname,
			       (unsigned long long)xs->stats.tx_completed,
			       (unsigned long long)xs->stats.tx_descs);
	else if (ret)
		err_set(err, ret, "AF_XDP TX of a %u-byte frame on %s",
			 size, o->ifname);
	r->sent = done;
	xsk_port_close(port);
	return ret;
}

/* ---- entry ------------------------------------------------------------- */

static int check_opts(const struct tgen_opts *o, __u32 size, char err[ERR_LEN])
{
	if (!o->ifname || !*o->ifname)
		return err_wrap(err, -EINVAL, "tgen: no interface given (ifname)");
	if (size < XSK_PKT_MIN_LEN || size > FRAME_MAX_SIZE)
		return err_wrap(err, -EINVAL, "tgen: frame size %u is outside %u..%u (frame length without FCS)",
				size, XSK_PKT_MIN_LEN, FRAME_MAX_SIZE);
	if (!o->flows || o->flows > FRAME_MAX_FLOWS)
		return err_wrap(err, -EINVAL, "tgen: flows %u is outside 1..%u",
				o->flows, FRAME_MAX_FLOWS);
	if (!o->count && !o->duration_ns)
		return err_wrap(err, -EINVAL, "tgen: neither a count nor a duration: the run would never end");
	if (o->rate_pps > 1000000000ULL)
		return err_wrap(err, -EINVAL, "tgen: rate %llu pps is above 10^9",
				(unsigned long long)o->rate_pps);
	if (o->bare && (o->count || o->rate_pps || o->flows > 1 || o->stamp))
		return err_wrap(err, -EINVAL, "tgen: bare sends uncounted copies of one frame: no count, no rate, one flow, no stamp");
	if (o->stamp && size < TGEN_STAMP_MIN_LEN)
		return err_wrap(err, -EINVAL, "tgen: stamped frames need %u bytes at least, not %u",
				TGEN_STAMP_MIN_LEN, size);
	return 0;
}

int tgen_run(const struct tgen_opts *o, struct tgen_result *r, char err[ERR_LEN])
{
	__u32 size = o->pkt_size ?: 64;
	struct trafficgen_bpf *skel = NULL;
	pid_t tid = syscall(SYS_gettid);
	uint64_t cpu0 = 0, cpu1 = 0;
	struct xdp_md md = {};
	void *frame = NULL;
	int ret, limit;

	memset(r, 0, sizeof(*r));
	if (err)
		err[0] = '\0';
	ret = check_opts(o, size, err);
	if (ret)
		return ret;
	md.ingress_ifindex = if_nametoindex(o->ifname);
	if (!md.ingress_ifindex)
		return err_set(err, -ENODEV, "tgen: %s: no such interface in this network namespace",
				o->ifname);
	md.rx_queue_index = o->queue;
	if (o->cpu >= 0) {
		ret = pin_self(o->cpu);
		if (ret)
			return err_set(err, ret < 0 ? ret : -EINVAL,
					"tgen: cannot pin the thread to CPU %d",
					o->cpu);
	}

	frame = malloc(size);
	if (!frame)
		return err_set(err, -ENOMEM, "tgen: frame buffer");
	xsk_pkt_build(frame, size, o->dst, o->src, TGEN_PORT_BASE, 0);

	skel = trafficgen_bpf__open();
	if (!skel) {
		ret = err_set(err, -errno, "tgen: opening the BPF object failed");
		goto out;
	}
	skel->rodata->flows = o->flows;
	skel->rodata->port_base = TGEN_PORT_BASE;
	ret = trafficgen_bpf__load(skel);
	if (ret) {
		ret = err_set(err, ret < 0 ? ret : -EINVAL,
			       "tgen: loading tgen_tx failed (CONFIG_BPF_SYSCALL? see libbpf's messages above)");
		goto out;
	}
	/* exact mode: it lives inside the measured window only */
	icount_window_note_prog(bpf_program__fd(skel->progs.tgen_tx));

	limit = live_probe(skel, bpf_program__fd(skel->progs.tgen_tx), &md,
			   frame, size);
	/*
	 * EPERM: a kernel that refuses live-frames mode as such (some do,
	 * whatever the caller's capabilities); every frame goes by AF_XDP
	 */
	if (limit < 0 && (limit != -EPERM || o->bare)) {
		const char *why = limit == -EPERM ?
			"this kernel refuses live-frames mode, which bare needs" :
			"a kernel before 5.18, or no such queue?";

		ret = err_set(err, limit, "tgen: BPF_PROG_RUN in live-frames mode refused a %u-byte frame on %s queue %u: %s",
			      XSK_PKT_MIN_LEN, o->ifname, o->queue, why);
		goto out;
	}
	r->live_max_len = limit < 0 ? 0 : limit;

	thread_cpu_ns(tid, &cpu0);
	if (o->bare && (__u32)limit < size) {
		ret = err_wrap(err, -EINVAL, "tgen: bare needs live frames, which take at most %d-byte frames here (not %u)",
			       limit, size);
		goto out;
	}
	if (limit >= 0 && (__u32)limit >= size) {
		r->method = "live-frames";
		ret = run_live(o, skel, &md, frame, size, r, err);
	} else {
		r->method = "af_xdp-sg";
		ret = run_af_xdp(o, frame, size, r, err);
		if (!ret && limit < 0)
			err_set(err, 0, "tgen: this kernel refuses BPF_PROG_RUN in live-frames mode (EPERM), so the frames went by AF_XDP");
		else if (!ret)
			err_set(err, 0, "tgen: live-frames mode takes at most %d-byte frames here (one page less the kernel's headroom and tailroom), so %u-byte frames went by AF_XDP multi-buffer",
				 limit, size);
	}
	thread_cpu_ns(tid, &cpu1);
	r->cpu_ns = cpu1 - cpu0;
	if (r->duration_ns)
		r->pps = (double)r->sent * NSEC / r->duration_ns;
out:
	trafficgen_bpf__destroy(skel);
	free(frame);
	return ret;
}

int tgen_live_check(void)
{
	struct xdp_md md = { .ingress_ifindex = if_nametoindex("lo") };
	unsigned char frame[XSK_PKT_MIN_LEN] = {};
	struct trafficgen_bpf *skel;
	int ret;

	if (!md.ingress_ifindex)
		return -ENODEV;
	skel = trafficgen_bpf__open();
	if (!skel)
		return -errno ?: -EINVAL;
	skel->rodata->flows = 1;
	ret = trafficgen_bpf__load(skel);
	if (!ret) {
		skel->bss->probe = 1;
		ret = prog_run(bpf_program__fd(skel->progs.tgen_tx), frame,
			       sizeof(frame), &md, 1);
	}
	trafficgen_bpf__destroy(skel);
	return ret < 0 ? ret : ret ? -EINVAL : 0;
}

/* ---- in a thread, on the project's veth pair ---------------------------- */

static void *tgen_thread_fn(void *arg)
{
	struct tgen_thread *t = arg;

	t->tid = syscall(SYS_gettid);
	t->ret = xenv_enter(t->env, XENV_PEER);
	if (t->ret)
		err_set(t->err, t->ret, "tgen: entering the peer's namespace");
	else
		t->ret = tgen_run(&t->o, &t->res, t->err);
	t->last_cpu = thread_last_cpu(t->tid);
	t->done = 1;
	return NULL;
}

int tgen_thread_start(struct tgen_thread *t, struct xsk_env *env, char err[ERR_LEN])
{
	int ret;

	t->env = env;
	t->stop = 0;
	t->tid = 0;
	t->done = 0;
	t->last_cpu = -1;
	t->ret = 0;
	t->err[0] = '\0';
	t->o.ifname = env->ifname[XENV_PEER];
	t->o.stop = &t->stop;
	memcpy(t->o.dst, env->mac[XENV_DUT], 6);
	memcpy(t->o.src, env->mac[XENV_PEER], 6);
	ret = pthread_create(&t->th, NULL, tgen_thread_fn, t);
	if (ret)
		return err_set(err, -ret, "starting the generator thread");
	return 0;
}

int tgen_thread_join(struct tgen_thread *t)
{
	pthread_join(t->th, NULL);
	return t->ret;
}

/* ---- sink -------------------------------------------------------------- */

struct tgen_sink {
	struct trafficgen_bpf *skel;
	int link_fd;
};

int tgen_sink_attach(struct tgen_sink **sp, int ifindex, __u32 xdp_flags,
		     char err[ERR_LEN])
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = xdp_flags);
	struct tgen_sink *s;
	int ret;

	*sp = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, -ENOMEM, "tgen sink");
	s->link_fd = -1;
	s->skel = trafficgen_bpf__open_and_load();
	if (!s->skel) {
		ret = err_set(err, -errno, "tgen sink: loading tgen_sink failed");
		goto fail;
	}
	s->link_fd = bpf_link_create(bpf_program__fd(s->skel->progs.tgen_sink),
				     ifindex, BPF_XDP, &lo);
	if (s->link_fd < 0) {
		ret = err_set(err, -errno, "tgen sink: attaching tgen_sink to ifindex %d (%s mode) failed",
			       ifindex,
			       xdp_flags & XDP_FLAGS_SKB_MODE ? "generic" :
			       "native");
		goto fail;
	}
	*sp = s;
	return 0;
fail:
	tgen_sink_detach(s);
	return ret;
}

void tgen_sink_detach(struct tgen_sink *s)
{
	if (!s)
		return;
	if (s->link_fd >= 0)
		close(s->link_fd);
	trafficgen_bpf__destroy(s->skel);
	free(s);
}

int tgen_sink_read(struct tgen_sink *s, struct tgen_sink_counters *c,
		   __u64 *ports, __u32 nports)
{
	int ncpus = libbpf_num_possible_cpus(), i, ret = 0;
	struct tgen_sink_counters *pc;
	__u64 *pp;
	__u32 key = 0, p;

	memset(c, 0, sizeof(*c));
	if (ncpus < 0)
		return ncpus;
	if (nports > FRAME_MAX_FLOWS)
		return -EINVAL;
	pc = calloc(ncpus, sizeof(*pc));
	pp = calloc(ncpus, sizeof(*pp));
	if (!pc || !pp) {
		ret = -ENOMEM;
		goto out;
	}
	if (bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.sink_count), &key,
				pc)) {
		ret = -errno;
		goto out;
	}
	for (i = 0; i < ncpus; i++) {
		c->packets += pc[i].packets;
		c->bytes += pc[i].bytes;
		c->other += pc[i].other;
		if (pc[i].min_len && (!c->min_len || pc[i].min_len < c->min_len))
			c->min_len = pc[i].min_len;
		if (pc[i].max_len > c->max_len)
			c->max_len = pc[i].max_len;
	}
	for (p = 0; ports && p < nports; p++) {
		if (bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.sink_ports),
					&p, pp)) {
			ret = -errno;
			goto out;
		}
		ports[p] = 0;
		for (i = 0; i < ncpus; i++)
			ports[p] += pp[i];
	}
out:
	free(pc);
	free(pp);
	return ret;
}

int tgen_sink_settle(struct tgen_sink *s, __u64 expect,
		     unsigned int timeout_ms, struct tgen_sink_counters *c)
{
	__u64 end = mono_ns() + timeout_ms * 1000000ULL;
	__u64 last = (__u64)-1, since = mono_ns();
	int ret;

	for (;;) {
		ret = tgen_sink_read(s, c, NULL, 0);
		if (ret || (expect && c->packets >= expect))
			return ret;
		if (c->packets != last) {
			last = c->packets;
			since = mono_ns();
		} else if (mono_ns() - since >= 50000000ULL) {
			return 0;
		}
		if (mono_ns() >= end)
			return 0;
		usleep(1000);
	}
}
