// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void stats_sort(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	return s;
}

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double stats_median(const double *x, size_t n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = sorted_copy(x, n);
	if (!s)
		return NAN;
	m = median_sorted(s, n);
	free(s);
	return m;
}

double stats_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

double stats_sd(const double *x, size_t n)
{
	double m, ss = 0;
	size_t i;

	if (n < 2)
		return NAN;
	m = stats_mean(x, n);
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (n - 1));
}

/* P(Bin(n, 1/2) <= k) */
static double binom_half_cdf(size_t n, size_t k)
{
	double sum = 0, lp;
	size_t i;

	for (i = 0; i <= k && i <= n; i++) {
		lp = lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) -
		     n * M_LN2;
		sum += exp(lp);
	}
	return sum;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The median of n values drawn from s[0..n-1] with replacement; r: n */
static double resampled_median(const double *s, size_t n, double *r,
			       uint64_t *st)
{
	size_t i;

	for (i = 0; i < n; i++)
		r[i] = s[splitmix64(st) % n];
	stats_sort(r, n);
	return median_sorted(r, n);
}

/* 2.5th and 97.5th percentiles of the STATS_BOOT_B values v (sorted here) */
static void boot_percentiles(double *v, double *lo, double *hi)
{
	stats_sort(v, STATS_BOOT_B);
	*lo = v[(size_t)(0.025 * STATS_BOOT_B)];
	*hi = v[(size_t)ceil(0.975 * STATS_BOOT_B) - 1];
}

static int bootstrap_ci(const double *s, size_t n, double *lo, double *hi)
{
	uint64_t st = STATS_BOOT_SEED;
	double *meds, *r;
	size_t b;

	meds = malloc(STATS_BOOT_B * sizeof(*meds));
	r = malloc(n * sizeof(*r));
	if (!meds || !r) {
		free(meds);
		free(r);
		return -ENOMEM;
	}
	for (b = 0; b < STATS_BOOT_B; b++)
		meds[b] = resampled_median(s, n, r, &st);
	boot_percentiles(meds, lo, hi);
	free(meds);
	free(r);
	return 0;
}

int stats_boot_medians2(const double *a, size_t na, const double *b,
			size_t nb, double (*f)(double ma, double mb),
			double *lo, double *hi)
{
	uint64_t st = STATS_BOOT_SEED;
	double *v, *r;
	size_t i;

	*lo = *hi = NAN;
	if (na < 3 || nb < 3)
		return -EINVAL;
	v = malloc(STATS_BOOT_B * sizeof(*v));
	r = malloc((na > nb ? na : nb) * sizeof(*r));
	if (!v || !r) {
		free(v);
		free(r);
		return -ENOMEM;
	}
	for (i = 0; i < STATS_BOOT_B; i++) {
		double ma = resampled_median(a, na, r, &st);

		v[i] = f(ma, resampled_median(b, nb, r, &st));
	}
	boot_percentiles(v, lo, hi);
	free(v);
	free(r);
	return 0;
}

enum stats_ci_method stats_median_ci(const double *x, size_t n, double *lo,
				     double *hi, double *coverage)
{
	enum stats_ci_method m = STATS_CI_NONE;
	double *s;
	size_t k;

	*lo = *hi = *coverage = NAN;
	if (n < 3)
		return m;
	s = sorted_copy(x, n);
	if (!s)
		return m;
	if (n >= 6) {
		/* largest k with P(Bin <= k - 1) <= 0.025 */
		for (k = 1; binom_half_cdf(n, k) <= 0.025; k++)
			;
		*lo = s[k - 1];
		*hi = s[n - k];
		*coverage = 1 - 2 * binom_half_cdf(n, k - 1);
		m = STATS_CI_ORDER;
	} else if (!bootstrap_ci(s, n, lo, hi)) {
		/* [min, max] covers 1 - 2^(1-n); other intervals: unknown */
		*coverage = *lo == s[0] && *hi == s[n - 1] ?
			    1 - 2 * binom_half_cdf(n, 0) : NAN;
		m = STATS_CI_BOOTSTRAP;
	}
	free(s);
	return m;
}

int stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
	double *srt;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -EINVAL;
	srt = sorted_copy(x, n);
	if (!srt)
		return -ENOMEM;
	s->n = n;
	s->median = median_sorted(srt, n);
	s->min = srt[0];
	s->max = srt[n - 1];
	free(srt);
	s->mean = stats_mean(x, n);
	s->sd = stats_sd(x, n);
	s->ci_method = stats_median_ci(x, n, &s->ci_lo, &s->ci_hi,
				       &s->ci_coverage);
	return 0;
}

const char *stats_ci_method_name(enum stats_ci_method m)
{
	switch (m) {
	case STATS_CI_ORDER:
		return "order-statistic";
	case STATS_CI_BOOTSTRAP:
		return "bootstrap";
	default:
		return "none";
	}
}

/* Continued fraction of the regularized incomplete beta (Lentz) */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d, h, aa, del;
	int m, m2;

	d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 1000; m++) {
		m2 = 2 * m;
		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-16)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b) */
static double ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		 b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double stats_t_sf2(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

double stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, mid, q;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	q = p > 0.5 ? 2 * (1 - p) : 2 * p;	/* two-sided tail */
	while (stats_t_sf2(hi, df) > q && hi < 1e300)
		hi *= 2;
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (stats_t_sf2(mid, df) > q)
			lo = mid;
		else
			hi = mid;
	}
	mid = (lo + hi) / 2;
	return p > 0.5 ? mid : -mid;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct stats_welch *w)
{
	double va, vb, sa, sb, tq;

	memset(w, 0, sizeof(*w));
	if (na < 2 || nb < 2)
		return -EINVAL;
	va = stats_sd(a, na);
	vb = stats_sd(b, nb);
	sa = va * va / na;
	sb = vb * vb / nb;
	w->diff = stats_mean(b, nb) - stats_mean(a, na);
	w->se = sqrt(sa + sb);
	if (!(w->se > 0))
		return -EINVAL;
	w->t = w->diff / w->se;
	w->df = (sa + sb) * (sa + sb) /
		(sa * sa / (na - 1) + sb * sb / (nb - 1));
	tq = stats_t_quantile(0.975, w->df);
	w->ci_lo = w->diff - tq * w->se;
	w->ci_hi = w->diff + tq * w->se;
	w->p = stats_t_sf2(w->t, w->df);
	w->distinct = w->ci_lo > 0 || w->ci_hi < 0;
	return 0;
}
