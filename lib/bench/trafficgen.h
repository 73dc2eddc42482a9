/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traffic generator: test frames (xsk_pkt.h) made in the kernel by
 * BPF_PROG_RUN with BPF_F_TEST_XDP_LIVE_FRAMES.  The program (tgen_tx in
 * trafficgen.bpf.c, loaded, never attached) rewrites the UDP source port and
 * the sequence number of every frame and returns XDP_TX, so the frames leave
 * by the interface given; on a veth they arrive at its peer, which must run a
 * native XDP program (or have GRO on) to take them: that is the caller's
 * business.
 *
 * Live-frames mode takes only frames that fit in one page with the kernel's
 * headroom and tailroom (about 3.4 KB with 4 KiB pages).  Larger frames go
 * by an AF_XDP socket with multi-buffer (XDP_USE_SG) in copy mode instead,
 * and so does every frame on a kernel that refuses live-frames mode
 * (EPERM: seen on a host kernel 6.18.44 that runs BPF_PROG_RUN otherwise);
 * the result says which method ran and err says why.
 *
 * At full speed a run is one BPF_PROG_RUN call with a large repeat, cut
 * short by a signal when the duration is over or *stop is set: every call
 * with repeat > 1 adds the program to the XDP dispatcher and removes it
 * again, an RCU grace period each way (about 25 ms per call here).  Paced
 * runs make one call per frame with repeat = 1, which leaves the dispatcher
 * alone but costs some 30 us per call here: paced rates are good up to a
 * few ten thousand frames per second; compare pps with rate_pps.
 *
 * tgen_sink is a receiver for tests and tools: attach it to the receiving
 * interface and read what it counted.
 */
#ifndef TRAFFICGEN_H
#define TRAFFICGEN_H

#include <pthread.h>
#include <signal.h>
#include <linux/types.h>

#include "trafficgen_common.h"
#include "err.h"
#include "xsk_core.h"

/* Frames per batch of BPF_PROG_RUN (its batch_size; the kernel allows 256) */
/*
 * Paced runs up to this many frames/s make one BPF_PROG_RUN call a frame
 * (the CPU idles between); faster ones one call in which the program
 * paces (the CPU spins): trafficgen.c, above struct watcher
 */
#define TGEN_CALL_PACE_MAX	50000

#ifndef TGEN_BATCH
#define TGEN_BATCH		64
#endif

/*
 * At full speed the run is one BPF_PROG_RUN call that a helper thread cuts
 * short with this signal (sent to the calling thread only); tgen_run()
 * installs a handler that does nothing for the run and restores the old one.
 */
#define TGEN_SIGNAL		(SIGRTMIN + 2)

struct tgen_opts {
	const char *ifname;	/* frames leave by it (the caller's netns) */
	__u32 queue;		/* rx_queue_index given to the program */
	__u32 pkt_size;		/* frame length without FCS,
				 * XSK_PKT_MIN_LEN..FRAME_MAX_SIZE;
				 * 0 means 64 */
	__u32 flows;		/* UDP source ports 1000 .. 1000 + flows - 1;
				 * 1..FRAME_MAX_FLOWS (0 is refused) */
	__u64 count;		/* frames to send; 0 = no limit */
	__u64 duration_ns;	/* 0 = no limit; count or duration is needed */
	__u64 rate_pps;		/* 0 = as fast as possible */
	unsigned char dst[6], src[6];
	int cpu;		/* pin the calling thread to it (it stays
				 * pinned); -1 = leave as is */
	const volatile int *stop; /* optional: stop when it becomes non-zero */
	bool bare;		/* the program only returns XDP_TX: the
				 * template unchanged, nothing counted (sent
				 * is 0; the receiver counts), the limit of
				 * live-frames mode; with a duration, one
				 * flow, no rate, live frames only */
	bool stamp;		/* each frame carries the time it was made,
				 * CLOCK_MONOTONIC (TGEN_STAMP_OFF); frames of
				 * TGEN_STAMP_MIN_LEN bytes at least, not bare */
};

struct tgen_result {
	__u64 sent;		/* frames generated (tgen_tx's count; for
				 * af_xdp-sg, packets whose TX completed;
				 * 0 when bare) */
	__u64 duration_ns;	/* wall time of the run, CLOCK_MONOTONIC */
	double pps;		/* sent / duration */
	__u64 cpu_ns;		/* the calling thread's CPU time (schedstat) */
	const char *method;	/* "live-frames" or "af_xdp-sg" */
	__u32 live_max_len;	/* largest frame live-frames mode took, found
				 * by trying; 0 if not probed or refused */
};

/*
 * Send frames as o says, from the calling thread.  Returns 0, or -errno with
 * a sentence in err (ERR_LEN bytes).  On success err may still hold a
 * note (why the fallback ran); it is "" otherwise.
 */
int tgen_run(const struct tgen_opts *o, struct tgen_result *r, char err[ERR_LEN]);

/*
 * Whether this kernel runs BPF_PROG_RUN in live-frames mode (tgen_tx on a
 * minimal frame of the loopback device, dropped): 0, or -errno; -EPERM is
 * a kernel that refuses the mode as such, where tgen_run() sends every
 * frame by AF_XDP ("af_xdp-sg") and bare is refused
 */
int tgen_live_check(void);

/*
 * The generator in a thread of its own, in the peer namespace of the
 * project's veth pair (xsk_env.h), sending out of the peer's veth to the
 * dut's.  Fill o (pkt_size, flows, count, duration_ns, rate_pps, cpu);
 * tgen_thread_start() sets the interface, the MAC addresses and the stop
 * flag.  Set stop to end a run early; tgen_thread_join() returns ret.
 */
struct xsk_env;

struct tgen_thread {
	struct tgen_opts o;
	volatile int stop;
	volatile pid_t tid;	/* set by the thread when it starts */
	volatile int done;	/* set by the thread when the run is over */
	int last_cpu;		/* the CPU it ran on last (thread_last_cpu) */
	struct tgen_result res;
	int ret;
	char err[ERR_LEN];
	struct xsk_env *env;
	pthread_t th;
};

int tgen_thread_start(struct tgen_thread *t, struct xsk_env *env, char err[ERR_LEN]);
int tgen_thread_join(struct tgen_thread *t);

/* tgen_sink attached to an interface by a bpf_link */
struct tgen_sink;

/*
 * Load tgen_sink and attach it to ifindex (in the caller's netns) with
 * xdp_flags (XDP_FLAGS_DRV_MODE or XDP_FLAGS_SKB_MODE).
 */
int tgen_sink_attach(struct tgen_sink **sp, int ifindex, __u32 xdp_flags,
		     char err[ERR_LEN]);
/* Detach (close the link) and unload; NULL is fine */
void tgen_sink_detach(struct tgen_sink *s);

/*
 * The counters summed over CPUs; ports (if given) gets the frames of ports
 * 1000 .. 1000 + nports - 1 (nports <= FRAME_MAX_FLOWS).
 */
int tgen_sink_read(struct tgen_sink *s, struct tgen_sink_counters *c,
		   __u64 *ports, __u32 nports);

/*
 * Wait until the sink has counted expect frames, or its count has not moved
 * for 50 ms, or timeout_ms has passed; then read the counters as above.
 */
int tgen_sink_settle(struct tgen_sink *s, __u64 expect,
		     unsigned int timeout_ms, struct tgen_sink_counters *c);

#endif /* TRAFFICGEN_H */
