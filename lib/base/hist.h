/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A histogram of non-negative integer values (latencies in ns) that keeps
 * every value of a run in fixed memory: log-linear buckets, as HDR
 * histograms have.  Values below 2^(HIST_SUB_BITS + 1) have a bucket each;
 * above, each power of two is cut into 2^HIST_SUB_BITS buckets, so a bucket is
 * at most 1/2^HIST_SUB_BITS (1.6%) of its values wide and a quantile read
 * from it, the bucket's middle, is within 0.8% of the value it stands for.
 * The smallest and largest values are kept exactly.
 */
#ifndef HIST_H
#define HIST_H

#include <stdint.h>

#define HIST_SUB_BITS	6
#define HIST_SUB	(1u << HIST_SUB_BITS)
/* values < HIST_SUB one each, then 64 - HIST_SUB_BITS powers of two */
#define HIST_BUCKETS	((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t n;
	uint64_t min, max;
	uint64_t count[HIST_BUCKETS];
};

void hist_reset(struct hist *h);
void hist_add(struct hist *h, uint64_t v);

/*
 * The q-quantile (0 < q <= 1) by nearest rank: the value of rank
 * ceil(q * n), as its bucket's middle, kept within [min, max]; q = 1 is the
 * maximum exactly.  0 when the histogram is empty.
 */
uint64_t hist_quantile(const struct hist *h, double q);

/* The bucket of v, and the lowest value and the width of bucket i */
unsigned int hist_bucket(uint64_t v);
uint64_t hist_bucket_low(unsigned int i);
uint64_t hist_bucket_width(unsigned int i);

#endif /* HIST_H */
