// SPDX-License-Identifier: GPL-2.0
/*
 * lib/base/hist.h: every value in exactly one bucket, the buckets
 * contiguous and within their stated precision, and quantiles by nearest
 * rank: exact where a bucket holds one value, within half a bucket above.
 */
#include <stdint.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "hist.h"

static struct hist h;

/* The buckets tile 0..2^64-1: each starts where the one before ends */
TEST(buckets_contiguous)
{
	unsigned int i;

	EXPECT_EQ(0ULL, hist_bucket_low(0));
	for (i = 1; i < HIST_BUCKETS; i++) {
		ASSERT_EQ(hist_bucket_low(i - 1) + hist_bucket_width(i - 1),
			  hist_bucket_low(i));
		/* no wider than 1/HIST_SUB of the values it holds */
		ASSERT_LE(hist_bucket_width(i) * HIST_SUB,
			  hist_bucket_low(i) > HIST_SUB ?
			  hist_bucket_low(i) : HIST_SUB);
	}
	EXPECT_EQ(UINT64_MAX, hist_bucket_low(HIST_BUCKETS - 1) +
		  (hist_bucket_width(HIST_BUCKETS - 1) - 1));
}

/* A value falls into the bucket whose range holds it, at the edges too */
TEST(bucket_of_value)
{
	uint64_t v[] = { 0, 1, 63, 64, 65, 127, 128, 129, 1000, 4095, 4096,
			 1234567, 1ULL << 40, (1ULL << 40) - 1, UINT64_MAX };
	unsigned int i, b;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		b = hist_bucket(v[i]);
		ASSERT_LT(b, (unsigned int)HIST_BUCKETS);
		EXPECT_LE(hist_bucket_low(b), v[i]);
		EXPECT_LE(v[i] - hist_bucket_low(b), hist_bucket_width(b) - 1);
	}
	EXPECT_EQ(127U, hist_bucket(127));	/* one value each up to 127 */
	EXPECT_EQ(128U, hist_bucket(129));	/* 2 wide from 128 on */
	EXPECT_EQ(129U, hist_bucket(130));
	EXPECT_EQ(HIST_BUCKETS - 1U, hist_bucket(UINT64_MAX));
}

/* Small values have a bucket each: the quantiles are exact */
TEST(exact_below_sub)
{
	uint64_t v;

	hist_reset(&h);
	EXPECT_EQ(0ULL, hist_quantile(&h, 0.5));
	for (v = 1; v <= 50; v++)
		hist_add(&h, v);
	EXPECT_EQ(50ULL, h.n);
	EXPECT_EQ(1ULL, h.min);
	EXPECT_EQ(50ULL, h.max);
	EXPECT_EQ(25ULL, hist_quantile(&h, 0.5));	/* rank 25 */
	EXPECT_EQ(45ULL, hist_quantile(&h, 0.9));
	EXPECT_EQ(50ULL, hist_quantile(&h, 0.99));	/* rank ceil(49.5) */
	EXPECT_EQ(50ULL, hist_quantile(&h, 1));
	EXPECT_EQ(1ULL, hist_quantile(&h, 0.001));
}

/*
 * Values 1000 apart, 10000 of them: each quantile within the stated 0.8%
 * of the nearest-rank value, and the extremes exact
 */
TEST(quantiles_within_precision)
{
	double q[] = { 0.5, 0.9, 0.99, 0.999 };
	unsigned int i;
	uint64_t v, want, got;

	hist_reset(&h);
	for (v = 10000; v >= 1; v--)
		hist_add(&h, v * 1000);
	EXPECT_EQ(10000ULL, h.n);
	EXPECT_EQ(1000ULL, h.min);
	EXPECT_EQ(10000000ULL, h.max);
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		want = (uint64_t)(q[i] * 10000 + 0.5) * 1000;
		got = hist_quantile(&h, q[i]);
		EXPECT_LE((uint64_t)llabs((long long)(got - want)), want / 125)
			TH_LOG("q %g: %llu, want %llu", q[i],
			       (unsigned long long)got, (unsigned long long)want);
	}
	EXPECT_EQ(10000000ULL, hist_quantile(&h, 1));
}

/* One value many times: every quantile is that value, not a bucket's middle */
TEST(one_value_clamped)
{
	int i;

	hist_reset(&h);
	for (i = 0; i < 1000; i++)
		hist_add(&h, 123456);
	EXPECT_EQ(123456ULL, hist_quantile(&h, 0.5));
	EXPECT_EQ(123456ULL, hist_quantile(&h, 0.999));
}

TEST_HARNESS_MAIN
