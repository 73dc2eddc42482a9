// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "hist.h"

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned int hist_bucket(uint64_t v)
{
	unsigned int e, shift;

	if (v < HIST_SUB)
		return v;
	e = 63 - __builtin_clzll(v);	/* v's top bit, >= HIST_SUB_BITS */
	shift = e - HIST_SUB_BITS;
	/* the power of two's row, then the HIST_SUB_BITS bits below the top */
	return (shift + 1) * HIST_SUB + ((v >> shift) & (HIST_SUB - 1));
}

uint64_t hist_bucket_low(unsigned int i)
{
	unsigned int row = i / HIST_SUB;

	if (!row)
		return i;
	return (uint64_t)(HIST_SUB + i % HIST_SUB) << (row - 1);
}

uint64_t hist_bucket_width(unsigned int i)
{
	unsigned int row = i / HIST_SUB;

	return row ? 1ULL << (row - 1) : 1;
}

void hist_add(struct hist *h, uint64_t v)
{
	if (!h->n || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->n++;
	h->count[hist_bucket(v)]++;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0, v;
	unsigned int i;

	if (!h->n)
		return 0;
	if (q >= 1)
		return h->max;
	rank = (uint64_t)ceil(q * h->n);
	if (!rank)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= rank)
			break;
	}
	v = hist_bucket_low(i) + (hist_bucket_width(i) - 1) / 2;
	if (v < h->min)
		return h->min;
	return v > h->max ? h->max : v;
}
