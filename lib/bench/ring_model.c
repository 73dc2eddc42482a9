// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_xdp.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "line_rtt.h"
#include "measure.h"
#include "ring_model.h"

#define LINE		64
#define DESCS_A_LINE	(LINE / sizeof(struct xdp_desc))

/* The indices on lines of their own, as in the kernel's struct xdp_ring */
struct model_ring {
	uint32_t prod __attribute__((aligned(LINE)));
	uint32_t cons __attribute__((aligned(LINE)));
	int stop __attribute__((aligned(LINE)));	/* the producer is done */
	int err;		/* the consumer's, when it could not pin */
	unsigned long lock __attribute__((aligned(LINE)));	/* the producer's */
	/* the consumer's results, written once at its end */
	uint64_t consumed __attribute__((aligned(LINE)));
	uint64_t checked, bad;
};

/*
 * What both threads read: each copies it to its own stack before the run,
 * so that nothing the producer reads shares a line with what the
 * consumer writes
 */
struct model {
	struct ring_model_cfg cfg;
	struct model_ring *r;
	struct xdp_desc *desc;
	uint8_t *umem;
};

static uint64_t chunk_addr(const struct ring_model_cfg *cfg, uint64_t seq)
{
	return (seq % cfg->frames) * RING_MODEL_CHUNK + RING_MODEL_HEADROOM;
}

#if defined(__x86_64__) || defined(__i386__)
static void clflushopt(const void *p)
{
	asm volatile("clflushopt %0" : : "m" (*(const char *)p) : "memory");
}

/* The kernel's prefetchw() on x86 (PRFCHW; a NOP where it is missing) */
static void prefetchw(const void *p)
{
	asm volatile("prefetchw %0" : : "m" (*(const char *)p));
}

bool ring_model_has_clflushopt(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return false;
	return b & (1u << 23);
}
#else
static void clflushopt(const void *p)
{
	(void)p;	/* never called: ring_model_has_clflushopt() */
}

static void prefetchw(const void *p)
{
	__builtin_prefetch(p, 1, 3);
}

bool ring_model_has_clflushopt(void)
{
	return false;
}
#endif

static bool stopped(const struct ring_model_cfg *cfg)
{
	return cfg->stop && *cfg->stop;
}

/* Store into each whole line of [from, to) the value its last descriptor holds */
static void own_lines(struct xdp_desc *desc, uint32_t mask, uint64_t from,
		      uint64_t to)
{
	for (; from != to; from++) {
		volatile struct xdp_desc *d = &desc[from & mask];

		if (!((uintptr_t)(d + 1) & (LINE - 1)))
			d->options = d->options;
	}
}

/* The consumer: take [cons, prod) each time prod moves, until stop */
static void *consume(void *p)
{
	const struct model *mp = p;
	const struct ring_model_cfg cfg = mp->cfg;
	struct model_ring *r = mp->r;
	struct xdp_desc *desc = mp->desc;
	uint32_t mask = cfg.ring - 1;
	uint64_t c = 0, checked = 0, bad = 0;
	int err = pin_self(cfg.cons_cpu);

	if (err) {
		__atomic_store_n(&r->err, err, __ATOMIC_RELEASE);
		return NULL;
	}
	for (;;) {
		bool last = __atomic_load_n(&r->stop, __ATOMIC_ACQUIRE);
		/* the indices wrap at 2^32; the count does not */
		uint64_t prod = c + (uint32_t)(__atomic_load_n(&r->prod,
						__ATOMIC_ACQUIRE) - (uint32_t)c);

		if (prod == c) {
			if (last)
				break;
			cpu_relax();
			continue;
		}
		if (cfg.consumer == RING_WRITE)
			own_lines(desc, mask, c, prod);
		for (; c != prod; c++) {
			const struct xdp_desc *d = &desc[c & mask];

			if (cfg.consumer == RING_NONE)
				continue;
			checked++;
			if (d->addr != chunk_addr(&cfg, c) || d->len != cfg.size ||
			    d->options)
				bad++;
			if (cfg.consumer == RING_FLUSH &&
			    (c & (DESCS_A_LINE - 1)) == DESCS_A_LINE - 1)
				clflushopt(d);
		}
		__atomic_store_n(&r->cons, (uint32_t)c, __ATOMIC_RELEASE);
	}
	r->consumed = c;
	r->checked = checked;
	r->bad = bad;
	return NULL;
}

/* Dependent arithmetic that the compiler cannot drop or fold */
static uint64_t work(uint32_t rounds, uint64_t x)
{
	while (rounds--) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		asm volatile("" : "+r" (x));
	}
	return x;
}

/* The producer; returns the frames it published */
static uint64_t produce(const struct model *mp, uint64_t *full_waits,
			double *ns)
{
	const struct ring_model_cfg cfg = mp->cfg;
	struct model_ring *r = mp->r;
	struct xdp_desc *desc = mp->desc;
	uint8_t *umem = mp->umem;
	uint32_t mask = cfg.ring - 1, cached_cons = 0, i;
	uint64_t t0 = mono_ns(), end = t0 + (uint64_t)(cfg.seconds * 1e9);
	uint64_t p = 0, sink = 0, waits = 0, t;
	uint8_t src[RING_MODEL_MAX_SIZE];

	memset(src, 0x5a, cfg.size);
	do {
		for (i = 0; i < cfg.batch; i++, p++) {
			uint32_t slot = p & mask;
			struct xdp_desc *d = &desc[slot];

			if ((uint32_t)p - cached_cons == cfg.ring) {
				cached_cons = __atomic_load_n(&r->cons,
							      __ATOMIC_ACQUIRE);
				if ((uint32_t)p - cached_cons == cfg.ring)
					waits++;
				while ((uint32_t)p - cached_cons == cfg.ring) {
					if (__atomic_load_n(&r->err, __ATOMIC_ACQUIRE) ||
					    stopped(&cfg))
						goto out;	/* no consumer, or a signal */
					cpu_relax();
					cached_cons = __atomic_load_n(&r->cons,
								      __ATOMIC_ACQUIRE);
				}
			}
			if (cfg.prefetch && !(slot & (DESCS_A_LINE - 1)))
				prefetchw(&desc[(slot + cfg.prefetch) & mask]);
			memcpy(umem + chunk_addr(&cfg, p), src, cfg.size);
			d->addr = chunk_addr(&cfg, p);
			d->len = cfg.size;
			d->options = 0;
			if (!cfg.no_lock)
				__atomic_fetch_add(&r->lock, 1, __ATOMIC_SEQ_CST);
			sink = work(cfg.work, sink + p);
		}
		__atomic_store_n(&r->prod, (uint32_t)p, __ATOMIC_RELEASE);
		t = mono_ns();
	} while (t < end && !stopped(&cfg) &&
		 !__atomic_load_n(&r->err, __ATOMIC_RELAXED));
out:
	/* a batch cut short is not published: the count is what was */
	p -= (uint32_t)p - __atomic_load_n(&r->prod, __ATOMIC_RELAXED);
	t = mono_ns();
	*ns = p ? (double)(t - t0) / p : 0;
	*full_waits = waits;
	asm volatile("" : : "r" (sink));
	return p;
}

static bool cfg_ok(const struct ring_model_cfg *cfg)
{
	return cfg->ring >= 64 && cfg->ring <= RING_MODEL_MAX_RING &&
	       !(cfg->ring & (cfg->ring - 1)) &&
	       cfg->batch >= 1 && cfg->batch <= cfg->ring &&
	       cfg->frames >= 1 && cfg->frames <= RING_MODEL_MAX_FRAMES &&
	       cfg->size >= 1 && cfg->size <= RING_MODEL_MAX_SIZE &&
	       cfg->work <= RING_MODEL_MAX_WORK &&
	       cfg->prefetch < cfg->ring &&
	       cfg->consumer <= RING_WRITE &&
	       (cfg->consumer != RING_FLUSH || ring_model_has_clflushopt()) &&
	       cfg->seconds > 0 && cfg->seconds <= 86400 &&
	       cfg->prod_cpu != cfg->cons_cpu &&
	       line_rtt_cpu_ok(cfg->prod_cpu) && line_rtt_cpu_ok(cfg->cons_cpu);
}

int ring_model_run(const struct ring_model_cfg *cfg,
		   struct ring_model_result *res)
{
	struct model m = { .cfg = *cfg };
	cpu_set_t saved;
	pthread_t t;
	int ret;

	if (sched_getaffinity(0, sizeof(saved), &saved))
		return -errno;
	if (!cfg_ok(cfg))
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	m.r = aligned_alloc(LINE, sizeof(*m.r));
	m.desc = aligned_alloc(LINE, (size_t)cfg->ring * sizeof(*m.desc));
	m.umem = aligned_alloc(RING_MODEL_CHUNK,
			       (size_t)cfg->frames * RING_MODEL_CHUNK);
	ret = -ENOMEM;
	if (!m.r || !m.desc || !m.umem)
		goto out_free;
	memset(m.r, 0, sizeof(*m.r));
	memset(m.desc, 0, (size_t)cfg->ring * sizeof(*m.desc));
	memset(m.umem, 0, (size_t)cfg->frames * RING_MODEL_CHUNK);
	ret = pin_self(cfg->prod_cpu);
	if (ret)
		goto out_restore;
	ret = -pthread_create(&t, NULL, consume, &m);
	if (ret)
		goto out_restore;
	res->produced = produce(&m, &res->full_waits, &res->ns_per_frame);
	__atomic_store_n(&m.r->stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	ret = m.r->err;
	res->consumed = m.r->consumed;
	res->checked = m.r->checked;
	res->bad = m.r->bad;
out_restore:
	if (sched_setaffinity(0, sizeof(saved), &saved) && !ret)
		ret = -errno;
out_free:
	free(m.umem);
	free(m.desc);
	free(m.r);
	return ret;
}
