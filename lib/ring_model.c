// SPDX-License-Identifier: GPL-2.0
#include <cpuid.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_xdp.h>

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
};

struct model {
	const struct ring_model_cfg *cfg;
	struct model_ring *r;
	struct xdp_desc *desc;
	uint8_t *umem;
	uint64_t consumed, checked, bad;
};

static uint64_t chunk_addr(const struct ring_model_cfg *cfg, uint32_t seq)
{
	return (uint64_t)(seq % cfg->frames) * RING_MODEL_CHUNK +
	       RING_MODEL_HEADROOM;
}

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

/* Store into each whole line of [from, to) the value its last descriptor holds */
static void own_lines(struct xdp_desc *desc, uint32_t mask, uint32_t from,
		      uint32_t to)
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
	struct model *m = p;
	const struct ring_model_cfg *cfg = m->cfg;
	uint32_t mask = cfg->ring - 1, c = 0, prod;
	int err = pin_self(cfg->cons_cpu);

	if (err) {
		__atomic_store_n(&m->r->err, err, __ATOMIC_RELEASE);
		return NULL;
	}
	for (;;) {
		bool last = __atomic_load_n(&m->r->stop, __ATOMIC_ACQUIRE);

		prod = __atomic_load_n(&m->r->prod, __ATOMIC_ACQUIRE);
		if (prod == c) {
			if (last)
				break;
			cpu_relax();
			continue;
		}
		if (cfg->consumer == RING_WRITE)
			own_lines(m->desc, mask, c, prod);
		for (; c != prod; c++) {
			const struct xdp_desc *d = &m->desc[c & mask];

			if (cfg->consumer == RING_NONE)
				continue;
			m->checked++;
			if (d->addr != chunk_addr(cfg, c) || d->len != cfg->size ||
			    d->options)
				m->bad++;
			if (cfg->consumer == RING_FLUSH &&
			    (c & (DESCS_A_LINE - 1)) == DESCS_A_LINE - 1)
				clflushopt(d);
		}
		__atomic_store_n(&m->r->cons, c, __ATOMIC_RELEASE);
	}
	m->consumed = c;
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
static uint64_t produce(struct model *m, uint64_t *full_waits, double *ns)
{
	const struct ring_model_cfg *cfg = m->cfg;
	uint32_t mask = cfg->ring - 1, p = 0, cached_cons = 0, i;
	uint64_t t0 = mono_ns(), end = t0 + (uint64_t)(cfg->seconds * 1e9);
	uint64_t sink = 0, t;
	uint8_t src[RING_MODEL_MAX_SIZE];

	memset(src, 0x5a, cfg->size);
	do {
		for (i = 0; i < cfg->batch; i++, p++) {
			uint32_t slot = p & mask;
			struct xdp_desc *d = &m->desc[slot];

			if (p - cached_cons == cfg->ring) {
				cached_cons = __atomic_load_n(&m->r->cons,
							      __ATOMIC_ACQUIRE);
				if (p - cached_cons == cfg->ring)
					(*full_waits)++;
				while (p - cached_cons == cfg->ring) {
					if (__atomic_load_n(&m->r->err, __ATOMIC_ACQUIRE))
						goto out;	/* no consumer */
					cpu_relax();
					cached_cons = __atomic_load_n(&m->r->cons,
								      __ATOMIC_ACQUIRE);
				}
			}
			if (cfg->prefetch && !(slot & (DESCS_A_LINE - 1)))
				prefetchw(&m->desc[(slot + cfg->prefetch) & mask]);
			memcpy(m->umem + chunk_addr(cfg, p), src, cfg->size);
			d->addr = chunk_addr(cfg, p);
			d->len = cfg->size;
			d->options = 0;
			if (!cfg->no_lock)
				__atomic_fetch_add(&m->r->lock, 1, __ATOMIC_SEQ_CST);
			sink = work(cfg->work, sink + p);
		}
		__atomic_store_n(&m->r->prod, p, __ATOMIC_RELEASE);
		t = mono_ns();
	} while (t < end && !__atomic_load_n(&m->r->err, __ATOMIC_RELAXED));
out:
	t = mono_ns();
	*ns = p ? (double)(t - t0) / p : 0;
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
	struct model m = { .cfg = cfg };
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
	res->consumed = m.consumed;
	res->checked = m.checked;
	res->bad = m.bad;
out_restore:
	if (sched_setaffinity(0, sizeof(saved), &saved) && !ret)
		ret = -errno;
out_free:
	free(m.umem);
	free(m.desc);
	free(m.r);
	return ret;
}
