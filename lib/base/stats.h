/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics of repeated runs: median, mean, sample standard deviation, a
 * 95% confidence interval of the median, and Welch's t-test for A/B.
 *
 * Confidence interval of the median (nominal 95%):
 *
 *  n >= 6	distribution-free order-statistic interval [x(k), x(n-k+1)]
 *		with the largest k for which 1 - 2 P(Bin(n, 1/2) <= k - 1)
 *		>= 0.95; the exact coverage is reported (n = 6: k = 1,
 *		96.9%; n = 10: k = 2, 97.9%; n = 30: k = 10, 95.7%).
 *  n = 3..5	no such interval exists (even [min, max] covers only
 *		1 - 2^(1-n): 75%, 87.5%, 93.75%), so a bootstrap percentile
 *		interval: STATS_BOOT_B resamples drawn with a fixed-seed
 *		splitmix64 generator (same output on every run and machine),
 *		2.5th and 97.5th percentiles of the resampled medians.  For
 *		n = 3..5 this is [min, max] in practice; its coverage is the
 *		one above, reported as ci_coverage, and it is not 95%.
 *  n < 3	no interval (NaN).
 */
#ifndef STATS_H
#define STATS_H

#include <stdbool.h>
#include <stddef.h>

#define STATS_BOOT_B	10000
#define STATS_BOOT_SEED	0x5eed5eed5eed5eedULL

enum stats_ci_method {
	STATS_CI_NONE,
	STATS_CI_ORDER,		/* order statistics (binomial) */
	STATS_CI_BOOTSTRAP,	/* bootstrap percentile, fixed seed */
};

struct stats_summary {
	size_t n;
	double median;
	double mean;
	double sd;		/* sample (n - 1); NaN for n < 2 */
	double min, max;
	double ci_lo, ci_hi;	/* 95% CI of the median; NaN if none */
	double ci_coverage;	/* exact coverage of the interval used */
	enum stats_ci_method ci_method;
};

/* x in ascending order, in place */
void stats_sort(double *x, size_t n);

double stats_median(const double *x, size_t n);
double stats_mean(const double *x, size_t n);
double stats_sd(const double *x, size_t n);

/* 95% CI of the median as described above; returns the method */
enum stats_ci_method stats_median_ci(const double *x, size_t n, double *lo,
				     double *hi, double *coverage);

/* All of the above; 0, or -EINVAL for n == 0, -ENOMEM */
int stats_summarize(const double *x, size_t n, struct stats_summary *s);

const char *stats_ci_method_name(enum stats_ci_method m);

/*
 * Two samples (two tools' runs): a 95% bootstrap percentile interval of
 * f(median(a), median(b)), e.g. the ratio of the medians.  STATS_BOOT_B
 * times, a and b are resampled apart (with replacement, each its own
 * size; the fixed seed, so the same output everywhere) and f taken of the
 * two resampled medians; the 2.5th and 97.5th percentiles of those.  With
 * 3..5 runs a side its coverage is below the nominal 95%, as the one
 * sample's above is.  0, or -EINVAL (lo, hi NaN) when a sample has fewer
 * than 3 values, -ENOMEM.
 */
int stats_boot_medians2(const double *a, size_t na, const double *b,
			size_t nb, double (*f)(double ma, double mb),
			double *lo, double *hi);

/*
 * Welch's t-test of mean(b) - mean(a) (B against A), unequal variances,
 * Welch-Satterthwaite degrees of freedom.  distinct: 0 lies outside the 95%
 * CI of the difference (equivalently p < 0.05).
 */
struct stats_welch {
	double diff;		/* mean(b) - mean(a) */
	double se;
	double t;
	double df;
	double ci_lo, ci_hi;	/* 95% CI of diff */
	double p;		/* two-sided */
	bool distinct;
};

/* 0, or -EINVAL when a sample has fewer than 2 values or se == 0 */
int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct stats_welch *w);

/* Student's t: two-sided tail P(|T| > t) and the quantile for cdf p */
double stats_t_sf2(double t, double df);
double stats_t_quantile(double p, double df);

#endif /* STATS_H */
