/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AF_XDP RX ring's cross-CPU pattern without the kernel: what a
 * receiver that reads its descriptors costs the CPU that writes them, and
 * what the writer could do about it.
 *
 * A producer thread on one CPU does, per frame, what the kernel's copy-
 * mode receive does on the NAPI's CPU (7.2 net/xdp/xsk.c __xsk_rcv(),
 * xskq_prod_reserve_desc(); net/core/page_pool.c): it copies the frame
 * into a UMEM chunk, writes a struct xdp_desc into the ring, and takes a
 * locked instruction on a line of its own (the page_pool ring's spin
 * lock, which waits for the stores before it), plus WORK rounds of
 * dependent arithmetic standing for the rest of the path; it publishes
 * its producer index every BATCH frames (xsk_flush() once a NAPI poll)
 * and reads the consumer index only when its cached copy says the ring
 * is full, as the kernel does.  A consumer thread on another CPU spins
 * on the producer index and takes what is published, as an rxdrop loop
 * does.  The producer and consumer indices are on lines of their own, as
 * in the kernel's struct xdp_ring.  There is no fill ring: chunks are
 * taken in turn (RING_MODEL_* below), which is what the kernel does with
 * a fill ring that the application refills in order.
 *
 * The consumer's variants:
 *   RING_READ   reads every descriptor and checks it (addr and len as
 *               the producer wrote them, in order): the receiver
 *   RING_NONE   reads only the indices: what the descriptors cost is
 *               RING_READ's ns per frame less this one's
 *   RING_FLUSH  reads and checks, then evicts each line it has finished
 *               with clflushopt
 *   RING_WRITE  first stores into each whole line of what was published
 *               a value it holds (xdpsock's rxdrop loop, XSKB_LINE in
 *               lib/bench/xsk_bench.h), then reads and checks
 * and the producer's: prefetch, a prefetchw of the line that many
 * descriptors ahead at the start of each line (0: none); no_lock, no
 * locked instruction per frame.
 */
#ifndef RING_MODEL_H
#define RING_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define RING_MODEL_CHUNK	4096	/* UMEM chunk, as xdpsock's default */
#define RING_MODEL_HEADROOM	256	/* XDP_PACKET_HEADROOM: where the copy goes */
#define RING_MODEL_MAX_RING	65536
#define RING_MODEL_MAX_FRAMES	65536
#define RING_MODEL_MAX_SIZE	(RING_MODEL_CHUNK - RING_MODEL_HEADROOM)
#define RING_MODEL_MAX_WORK	100000

enum ring_consumer {
	RING_READ,
	RING_NONE,
	RING_FLUSH,
	RING_WRITE,
};

struct ring_model_cfg {
	int prod_cpu, cons_cpu;
	uint32_t ring;		/* entries: a power of 2, 64..RING_MODEL_MAX_RING */
	uint32_t batch;		/* frames a publication: 1..ring */
	uint32_t frames;	/* UMEM chunks: 1..RING_MODEL_MAX_FRAMES */
	uint32_t size;		/* bytes copied a frame: 1..RING_MODEL_MAX_SIZE */
	uint32_t work;		/* rounds of arithmetic a frame: 0..RING_MODEL_MAX_WORK */
	uint32_t prefetch;	/* prefetchw this many descriptors ahead: 0..ring - 1 */
	bool no_lock;
	enum ring_consumer consumer;
	double seconds;		/* the producer's run: > 0 */
	/* NULL, or the run ends early once *stop is set (by a signal) */
	const volatile int *stop;
};

struct ring_model_result {
	uint64_t produced, consumed;	/* published; taken (64-bit counts) */
	uint64_t checked;	/* descriptors the consumer read and checked */
	uint64_t bad;		/* of those, not what the producer wrote */
	uint64_t full_waits;	/* times the producer found the ring full */
	double ns_per_frame;	/* the producer's wall time / produced */
};

/*
 * One run: the producer on cfg->prod_cpu for cfg->seconds, the consumer on
 * cfg->cons_cpu until it has taken every published descriptor.  The
 * calling thread is the producer and gets its CPU mask back.  0, or
 * -EINVAL (a setting out of its range, the two CPUs the same, a CPU not
 * in the caller's mask, RING_FLUSH where the CPU has no clflushopt),
 * -ENOMEM, -errno of pinning or making the thread.
 */
int ring_model_run(const struct ring_model_cfg *cfg,
		   struct ring_model_result *r);

/* Does this CPU have clflushopt (CPUID leaf 7, EBX bit 23) */
bool ring_model_has_clflushopt(void);

#endif /* RING_MODEL_H */
