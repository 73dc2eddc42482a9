// SPDX-License-Identifier: GPL-2.0
/*
 * A/B comparison of two sweep results (lib/report/sweep_compare.h): the guard, the
 * rows' changes with Welch's CI, the --expect verdicts, the text and JSON
 * reports
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "json.h"
#include "line_rtt.h"
#include "stats.h"
#include "sweep_compare.h"
#include "sweep_doc.h"

#define WIDTH		72	/* the text pastes into a mail reply */
#define TSC_TOL		0.01	/* tsc_ghz may differ by 1% */
#define MAX_DIFFS	16
#define SEG_LEN		(ESC_LEN + 32)	/* a segment of text with a file's string */

struct diff {
	const char *field;
	char a[128], b[128];
};

struct sample {
	size_t n;
	double *ns, *mpps;
	double ns_med, mpps_med;
};

enum verdict { VERDICT_NONE, VERDICT_SHOWN, VERDICT_OK, VERDICT_FAIL };

struct row {
	const struct jr_value *pa, *pb;
	const char *field;	/* the runs' cost: ns_per_pkt, app_ns_per_pkt */
	char label[128];
	struct sample a, b;
	double d_ns, d_pct, d_cyc, mpps_pct;
	bool have_ci;
	bool tolerated;		/* |d_pct| within --tolerance */
	struct stats_welch w;
	/* --expect: the rule that decided the row, its room, the verdict */
	const struct cmp_expect *exp;
	double room;
	enum verdict verdict;
};

/* Two results and what came of comparing them */
struct cmp {
	const struct cmp_opts *o;
	struct sweep_doc a, b;
	struct diff d[MAX_DIFFS];
	unsigned int nd;
	bool insns;		/* "ns" or "insns" (A's options.cost_unit) */
	const char *driver;	/* A's NIC pair's, in the labels */
	/* a stack has two rows: its NET_RX cost and its application's */
	struct row *rows;
	size_t nrows;
	const struct jr_value **only_a, **only_b;
	size_t na, nb;
	unsigned int expect_rows[CMP_MAX_EXPECT]; /* rows each rule matched */
	double rtt_a, rtt_b;	/* doc_rtt() of A and B */
};

static void add_diff(struct diff *d, unsigned int *n, const char *field,
		     const char *a, const char *b)
{
	if (*n >= MAX_DIFFS)
		return;
	d[*n].field = field;
	snprintf(d[*n].a, sizeof(d[*n].a), "%s", a);
	snprintf(d[*n].b, sizeof(d[*n].b), "%s", b);
	(*n)++;
}

static void add_diff_str(struct diff *d, unsigned int *n, const char *field,
			 const char *a, const char *b)
{
	char qa[128], qb[128];

	snprintf(qa, sizeof(qa), "\"%.100s\"", a);
	snprintf(qb, sizeof(qb), "\"%.100s\"", b);
	add_diff(d, n, field, qa, qb);
}

/* A number of "options" that differs; a missing one counts as 0 */
static void diff_num(const struct sweep_doc *a, const struct sweep_doc *b,
		     const char *key, struct diff *d, unsigned int *n)
{
	double x = jr_num(jr_get(a->opts, key));
	double y = jr_num(jr_get(b->opts, key));
	char va[64], vb[64];

	x = isnan(x) ? 0 : x;
	y = isnan(y) ? 0 : y;
	if (x == y)
		return;
	snprintf(va, sizeof(va), "%g", x);
	snprintf(vb, sizeof(vb), "%g", y);
	add_diff(d, n, key, va, vb);
}

/* Different machines, tool versions, or measurement options */
static unsigned int guard(const struct sweep_doc *a, const struct sweep_doc *b,
			  struct diff *d)
{
	char va[64], vb[64];
	unsigned int n = 0, i;

	if (strcmp(a->cpu, b->cpu))
		add_diff_str(d, &n, "cpu_model", a->cpu, b->cpu);
	if (fabs(b->ghz - a->ghz) > TSC_TOL * a->ghz) {
		snprintf(va, sizeof(va), "%.4f", a->ghz);
		snprintf(vb, sizeof(vb), "%.4f (more than 1%% apart)", b->ghz);
		add_diff(d, &n, "tsc_ghz", va, vb);
	}
	if (strcmp(a->version, b->version))
		add_diff_str(d, &n, "version", a->version, b->version);
	for (i = 0; sweep_match_opts[i]; i++)
		diff_num(a, b, sweep_match_opts[i], d, &n);
	if (strcmp(a->napi, b->napi))
		add_diff_str(d, &n, "napi", a->napi, b->napi);
	/* counted runs and pacing, in results that have them (0: none) */
	for (i = 0; sweep_newer_opts[i]; i++)
		diff_num(a, b, sweep_newer_opts[i], d, &n);
	if (strcmp(a->unit, b->unit))
		add_diff_str(d, &n, "cost_unit", a->unit, b->unit);
	if (strcmp(a->driver ?: "veth", b->driver ?: "veth"))
		add_diff_str(d, &n, "driver", a->driver ?: "veth",
			     b->driver ?: "veth");
	/* not a difference, but not clean figures either: said the same way */
	if (a->interrupted || b->interrupted)
		add_diff_str(d, &n, "interrupted", a->interrupted ? "yes" : "no",
			     b->interrupted ? "yes" : "no");
	if (strcmp(a->run_lock ?: "exclusive", "exclusive") ||
	    strcmp(b->run_lock ?: "exclusive", "exclusive"))
		add_diff_str(d, &n, "run_lock", a->run_lock ?: "not recorded",
			     b->run_lock ?: "not recorded");
	return n;
}

/*
 * A decimal as the options take them (running.rst): digits with a point
 * and an exponent, no blank, no hex; a leading sign only where signed
 * (a change +X), and none on a percentage (not even -0)
 */
static bool decimal_text(const char *s, bool signed_ok)
{
	if (signed_ok && (*s == '+' || *s == '-'))
		s++;
	return ((*s >= '0' && *s <= '9') || *s == '.') && !strpbrk(s, "xX");
}

/* field (ns/pkt, or the app's) and Mpps of the ok runs */
static int sample_of(const struct jr_value *p, const char *field,
		     struct sample *s)
{
	const struct jr_value *runs = jr_get(p, "runs");
	size_t i;

	memset(s, 0, sizeof(*s));
	s->ns = calloc(jr_len(runs) + 1, sizeof(*s->ns));
	s->mpps = calloc(jr_len(runs) + 1, sizeof(*s->mpps));
	if (!s->ns || !s->mpps)
		return -ENOMEM;
	for (i = 0; i < jr_len(runs); i++) {
		const struct jr_value *r = jr_at(runs, i);

		if (jr_bool(jr_get(r, "ok")) != 1)
			continue;
		s->ns[s->n] = jr_num(jr_get(r, field));
		s->mpps[s->n++] = jr_num(jr_get(r, "pps")) / 1e6;
	}
	s->ns_med = stats_median(s->ns, s->n);
	s->mpps_med = stats_median(s->mpps, s->n);
	return 0;
}

static int compute(const struct cmp *c, struct row *r, double ghz)
{
	int ret;

	sweep_row_label(r->label, sizeof(r->label), r->pa, r->field, c->driver);
	ret = sample_of(r->pa, r->field, &r->a) ?:
	      sample_of(r->pb, r->field, &r->b);
	if (ret)
		return ret;
	if (!r->a.n || !r->b.n)
		return 0;
	r->d_ns = r->b.ns_med - r->a.ns_med;
	r->d_pct = 100 * r->d_ns / r->a.ns_med;
	r->d_cyc = r->d_ns * ghz;
	r->mpps_pct = 100 * (r->b.mpps_med / r->a.mpps_med - 1);
	if (!stats_welch(r->a.ns, r->a.n, r->b.ns, r->b.n, &r->w)) {
		r->have_ci = true;
		if (c->o->level != 95) {
			/* the same t interval at another confidence level */
			double t = stats_t_quantile(0.5 + c->o->level / 200, r->w.df);

			r->w.ci_lo = r->w.diff - t * r->w.se;
			r->w.ci_hi = r->w.diff + t * r->w.se;
			r->w.distinct = r->w.ci_lo > 0 || r->w.ci_hi < 0;
		}
	} else if (r->a.n >= 2 && r->b.n >= 2) {
		/* no spread on either side: the difference is exact */
		r->w.diff = stats_mean(r->b.ns, r->b.n) -
			    stats_mean(r->a.ns, r->a.n);
		r->w.ci_lo = r->w.ci_hi = r->w.diff;
		r->w.distinct = r->w.diff != 0;
		r->w.p = r->w.distinct ? 0 : 1;
		r->w.df = NAN;
		r->have_ci = true;
	}
	r->tolerated = c->o->tolerance >= 0 && fabs(r->d_pct) <= c->o->tolerance;
	return 0;
}

int cmp_expect_parse(struct cmp_expects *es, const char *arg,
		     const char *tool, const char *opt)
{
	const char *eq = strrchr(arg, '='), *what = eq ? eq + 1 : arg;
	struct cmp_expect *e = &es->r[es->n];
	char word[32], *end;
	size_t len, wl;
	const char *slash;

	if (es->n >= CMP_MAX_EXPECT) {
		fprintf(stderr, "%s: --%s: more than %d rules\n", tool, opt,
			CMP_MAX_EXPECT);
		return -EINVAL;
	}
	len = eq ? (size_t)(eq - arg) : 1;
	if (len >= sizeof(e->glob) || !len) {
		fprintf(stderr, "%s: --%s '%s': the label glob is %s\n", tool,
			opt, esc_text(arg).s,
			len ? "longer than 95 characters" : "empty");
		return -EINVAL;
	}
	snprintf(e->glob, sizeof(e->glob), "%.*s", (int)len, eq ? arg : "*");
	e->text = arg;
	e->tolerance = -1;
	slash = strchr(what, '/');
	wl = slash ? (size_t)(slash - what) : strlen(what);
	snprintf(word, sizeof(word), "%.*s", (int)(wl < sizeof(word) ? wl : 0),
		 what);
	e->delta = 0;
	if (!strcmp(word, "no-change")) {
		e->kind = CMP_EXPECT_DELTA;
	} else if (!strcmp(word, "dearer")) {
		e->kind = CMP_EXPECT_DEARER;
	} else if (!strcmp(word, "cheaper")) {
		e->kind = CMP_EXPECT_CHEAPER;
	} else if (!strcmp(word, "shown")) {
		e->kind = CMP_EXPECT_SHOWN;
	} else {
		e->kind = CMP_EXPECT_DELTA;
		errno = 0;
		e->delta = strtod(word, &end);
		if (!decimal_text(word, true) || *end || errno ||
		    !isfinite(e->delta) || fabs(e->delta) > 1e12)
			goto bad;
	}
	if (slash) {
		errno = 0;
		e->tolerance = strtod(slash + 1, &end);
		if (!decimal_text(slash + 1, false) || *end || errno ||
		    !(e->tolerance >= 0) || e->tolerance > 100 ||
		    e->kind == CMP_EXPECT_SHOWN)
			goto bad;
	}
	es->n++;
	return 0;
bad:
	fprintf(stderr, "%s: --%s '%s': not [LABEL-GLOB=]WHAT[/PCT] with WHAT no-change, dearer, cheaper, shown or a change +X, PCT 0..100\n",
		tool, opt, esc_text(arg).s);
	return -EINVAL;
}

/* max - min of a sample's runs */
static double spread_of(const struct sample *s)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;

	for (i = 0; i < s->n; i++) {
		lo = fmin(lo, s->ns[i]);
		hi = fmax(hi, s->ns[i]);
	}
	return s->n ? hi - lo : 0;
}

/*
 * --expect: the last rule matching the row's label decides it; the room
 * is PCT% (the rule's, else --tolerance, else 0) of A's median, at least
 * --floor and, with --spread, A's spread plus B's
 */
static void expect_judge(struct cmp *c, struct row *r)
{
	const struct cmp_expects *es = &c->o->expects;
	const struct cmp_expect *e = NULL;
	double tol;
	bool ok;
	unsigned int i;

	for (i = 0; i < es->n; i++) {
		if (fnmatch(es->r[i].glob, r->label, 0))
			continue;
		e = &es->r[i];
		c->expect_rows[i]++;
	}
	r->exp = e;
	if (!e) {
		r->verdict = es->n ? VERDICT_SHOWN : VERDICT_NONE;
		return;
	}
	if (e->kind == CMP_EXPECT_SHOWN) {
		r->verdict = VERDICT_SHOWN;
		return;
	}
	if (!r->a.n || !r->b.n) {
		r->verdict = VERDICT_FAIL;
		return;
	}
	tol = e->tolerance >= 0 ? e->tolerance :
	      c->o->tolerance >= 0 ? c->o->tolerance : 0;
	r->room = fmax(tol / 100 * r->a.ns_med, c->o->floor);
	if (c->o->spread)
		r->room = fmax(r->room, spread_of(&r->a) + spread_of(&r->b));
	if (e->kind == CMP_EXPECT_DELTA)
		ok = fabs(r->d_ns - e->delta) <= r->room;
	else
		ok = r->have_ci && r->w.distinct &&
		     (e->kind == CMP_EXPECT_DEARER ? r->d_ns > r->room :
		      r->d_ns < -r->room);
	r->verdict = ok ? VERDICT_OK : VERDICT_FAIL;
}

/* The --expect counts: rows not as expected and rules that matched none */
static void count_expect(const struct cmp *c, struct cmp_verdict *v)
{
	unsigned int i;

	for (i = 0; i < c->nrows; i++) {
		v->expect_ok += c->rows[i].verdict == VERDICT_OK;
		v->expect_shown += c->rows[i].verdict == VERDICT_SHOWN;
		v->expect_failed += c->rows[i].verdict == VERDICT_FAIL;
	}
	for (i = 0; i < c->o->expects.n; i++)
		v->expect_failed += !c->expect_rows[i];
}

/* Signed, rounded to prec decimals, never "-0.0" */
static const char *sgn(char *buf, size_t len, double v, int prec)
{
	snprintf(buf, len, "%+.*f", prec, v);
	if (buf[0] == '-' && !strpbrk(buf, "123456789"))
		buf[0] = '+';
	return buf;
}

/*
 * Print segments separated by spaces in lines of at most WIDTH columns;
 * the first line indented by ind1, the ones it wraps to by ind2
 */
static void wrap(FILE *f, int ind1, int ind2, const char *const *seg,
		 unsigned int n)
{
	int col = fprintf(f, "%*s", ind1, "");
	bool first = true;
	unsigned int i;

	for (i = 0; i < n; i++) {
		int len = strlen(seg[i]);

		if (!len)
			continue;
		if (!first && col + 1 + len > WIDTH) {
			col = fprintf(f, "\n%*s", ind2, "") - 1;
			first = true;
		}
		col += fprintf(f, "%s%s", first ? "" : " ", seg[i]);
		first = false;
	}
	fputc('\n', f);
}


/* What the numbers of the rows are */
static void legend(const struct cmp *c, const struct sweep_doc *a)
{
	char s1[96], s2[96], s3[96], s4[96];
	const char *seg[4] = { s1, s2, s3, s4 };

	s4[0] = '\0';
	if (c->insns) {
		snprintf(s1, sizeof(s1),
			 "B against A: change of the median guest instructions");
		snprintf(s2, sizeof(s2), "(icount) per packet of the ok runs; CI: %g%%",
			 c->o->level);
		snprintf(s3, sizeof(s3), "of the mean difference (Welch's t on the runs)%s",
			 c->o->tolerance >= 0 ? ";" : "");
		if (c->o->tolerance >= 0)
			snprintf(s4, sizeof(s4), "no change: within %g%% of A (the measured spread)",
				 c->o->tolerance);
	} else {
		snprintf(s1, sizeof(s1),
			 "B against A: change of the median ns/pkt of the ok runs;");
		snprintf(s2, sizeof(s2), "cycles are TSC cycles at A's %.3f GHz;",
			 a->ghz);
		snprintf(s3, sizeof(s3),
			 "CI: %g%% of the mean ns difference (Welch's t on the runs)",
			 c->o->level);
	}
	wrap(stdout, 0, 0, seg, 4);
	printf("\n");
}

/* Where a row's change falls */
enum judgement { NO_RUNS, TOLERATED, TOO_FEW, NOISE, DEARER, CHEAPER };

static enum judgement judge(const struct row *r)
{
	if (!r->a.n || !r->b.n)
		return NO_RUNS;
	if (r->tolerated)
		return TOLERATED;
	if (!r->have_ci)
		return TOO_FEW;
	if (!r->w.distinct)
		return NOISE;
	return r->w.diff > 0 ? DEARER : CHEAPER;
}

static void count(struct cmp_verdict *v, enum judgement j)
{
	v->rows++;
	if (j == DEARER)
		v->dearer++;
	else if (j == CHEAPER)
		v->cheaper++;
	else if (j == TOLERATED || j == NOISE)
		v->noise++;
	else
		v->unjudged++;
	if (j == NO_RUNS)
		v->no_runs++;
}

/*
 * The median of the runs' line round trips (rtt_before_ns, rtt_after_ns)
 * over every point and stack row; NaN: none (an older result, or CPUs 0
 * and 1 not both the sweep's)
 */
static double doc_rtt(const struct sweep_doc *d)
{
	static const char *const key[] = { "rtt_before_ns", "rtt_after_ns" };
	size_t i, k, n = 0, cap = 0;
	double *x = NULL, m;

	for (i = 0; i < d->nitems; i++) {
		const struct jr_value *runs = jr_get(d->items[i].v, "runs");

		for (k = 0; k < 2 * jr_len(runs); k++) {
			double v = jr_num(jr_get(jr_at(runs, k / 2), key[k % 2]));
			double *nx;

			if (!(v > 0))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				nx = realloc(x, cap * sizeof(*x));
				if (!nx) {
					free(x);
					return NAN;
				}
				x = nx;
			}
			x[n++] = v;
		}
	}
	m = n ? stats_median(x, n) : NAN;
	free(x);
	return m;
}

struct rtt_text {
	char s[24];
};

static struct rtt_text rtt_text(double ns)
{
	struct rtt_text t;

	if (isnan(ns))
		snprintf(t.s, sizeof(t.s), "none taken");
	else
		snprintf(t.s, sizeof(t.s), "%.0f ns", ns);
	return t;
}

static void text_placement(const struct cmp *c)
{
	static const char *const apart[] = {
		"A and B ran with the host's vCPUs placed differently",
		"(round trips more than twice apart): rows whose",
		"path crosses CPUs compare two machines",
	};
	char s1[96], s2[64];
	const char *seg[2] = { s1, s2 };

	if (isnan(c->rtt_a) && isnan(c->rtt_b))
		return;
	snprintf(s1, sizeof(s1), "placement: line round trip CPU 0-1, runs' median:");
	/* a side without round trips (no ok run took one) says so */
	snprintf(s2, sizeof(s2), "A %s, B %s", rtt_text(c->rtt_a).s,
		 rtt_text(c->rtt_b).s);
	wrap(stdout, 0, 2, seg, 2);
	if (line_rtt_moved(c->rtt_a, c->rtt_b, LINE_RTT_MOVED))
		wrap(stdout, 2, 2, apart, 3);
}

/* Both sides' kernels and what was measured alike, or not */
static void text_header(const struct cmp *c)
{
	const struct sweep_doc *a = &c->a, *b = &c->b;
	const struct diff *d = c->d;
	const unsigned int nd = c->nd;
	char s1[SEG_LEN], s2[SEG_LEN], s3[160], s4[SEG_LEN], s5[160], s6[64];
	const char *seg[6];
	unsigned int i;

	snprintf(s1, sizeof(s1), "A: %s,", esc_text(a->release).s);
	snprintf(s2, sizeof(s2), "started %s", esc_text(a->started).s);
	seg[0] = s1;
	seg[1] = s2;
	wrap(stdout, 0, 3, seg, 2);
	snprintf(s1, sizeof(s1), "B: %s,", esc_text(b->release).s);
	snprintf(s2, sizeof(s2), "started %s", esc_text(b->started).s);
	wrap(stdout, 0, 3, seg, 2);
	if (strcmp(a->release, b->release)) {
		snprintf(s1, sizeof(s1), "kernel release differs: A %s,",
			 esc_text(a->release).s);
		snprintf(s2, sizeof(s2), "B %s", esc_text(b->release).s);
		wrap(stdout, 0, 2, seg, 2);
	}
	if (strcmp(a->config, b->config)) {
		snprintf(s1, sizeof(s1), "kernel config differs: A %.12s,",
			 esc_text(a->config).s);
		snprintf(s2, sizeof(s2), "B %.12s (sha256)",
			 esc_text(b->config).s);
		wrap(stdout, 0, 2, seg, 2);
	}
	if (!strcmp(a->release, b->release) && !strcmp(a->config, b->config))
		printf("kernel: the same release and config in A and B\n");
	snprintf(s1, sizeof(s1), "env: %s,", esc_text(a->cpu).s);
	snprintf(s2, sizeof(s2), "TSC %.3f GHz,", a->ghz);
	snprintf(s3, sizeof(s3), "napi %s,", a->napi);
	snprintf(s4, sizeof(s4), "xdp_sweep %s,", esc_text(a->version).s);
	snprintf(s5, sizeof(s5), "repeat %g, duration %g s, warmup %g s,",
		 jr_num(jr_get(a->opts, "repeat")),
		 jr_num(jr_get(a->opts, "duration_s")),
		 jr_num(jr_get(a->opts, "warmup_s")));
	snprintf(s6, sizeof(s6), "loop_k %g",
		 jr_num(jr_get(a->opts, "loop_k")));
	seg[2] = s3;
	seg[3] = s4;
	seg[4] = s5;
	seg[5] = s6;
	wrap(stdout, 0, 5, seg, 6);
	text_placement(c);
	if (nd) {
		printf("NOT ALIKE, compared anyway (--force); B differs from A in:\n");
		for (i = 0; i < nd; i++) {
			snprintf(s1, sizeof(s1), "%s: A %s,", d[i].field,
				 esc_text(d[i].a).s);
			snprintf(s2, sizeof(s2), "B %s", esc_text(d[i].b).s);
			wrap(stdout, 2, 4, seg, 2);
		}
	}
}

/* A row: its change, CI, rate, and the judgement */
static void text_row(const struct cmp *c, const struct row *r)
{
	char pct[32], ns[32], cyc[32], lo[32], hi[32], mp[32];
	char head[SEG_LEN], delta[96], ci[96], mpps[64];
	enum judgement j = judge(r);
	const char *seg[8];
	unsigned int n = 0;

	snprintf(head, sizeof(head), "%s:", esc_text(r->label).s);
	seg[n++] = head;
	if (j == NO_RUNS) {
		snprintf(delta, sizeof(delta), "no ok runs in %s%s%s",
			 r->a.n ? "" : "A", !r->a.n && !r->b.n ?
			 " and " : "", r->b.n ? "" : "B");
		seg[n++] = delta;
		wrap(stdout, 0, 4, seg, n);
		return;
	}
	if (c->insns)
		snprintf(delta, sizeof(delta), "%s%% / %s insns per packet",
			 sgn(pct, sizeof(pct), r->d_pct, 2),
			 sgn(ns, sizeof(ns), r->d_ns, 1));
	else
		snprintf(delta, sizeof(delta), "%s%% / %s ns / %s TSC cycles",
			 sgn(pct, sizeof(pct), r->d_pct, 1),
			 sgn(ns, sizeof(ns), r->d_ns, 1),
			 sgn(cyc, sizeof(cyc), r->d_cyc, 0));
	seg[n++] = delta;
	if (r->have_ci)
		snprintf(ci, sizeof(ci), "[%g%% CI %s..%s %s]%s",
			 c->o->level, sgn(lo, sizeof(lo), r->w.ci_lo, 1),
			 sgn(hi, sizeof(hi), r->w.ci_hi, 1),
			 c->insns ? "insns" : "ns", c->insns ? "" : ",");
	else
		snprintf(ci, sizeof(ci), "[no CI: %zu and %zu ok runs]%s",
			 r->a.n, r->b.n, c->insns ? "" : ",");
	seg[n++] = ci;
	/* the rate of an instruction-counting clock says nothing */
	snprintf(mpps, sizeof(mpps), "Mpps %s%%",
		 sgn(mp, sizeof(mp), r->mpps_pct, 1));
	if (!c->insns)
		seg[n++] = mpps;
	if (j == TOLERATED) {
		snprintf(mpps, sizeof(mpps), "(no change: within %g%%)",
			 c->o->tolerance);
		seg[n++] = mpps;
	} else if (j == TOO_FEW) {
		seg[n++] = "(too few runs to judge)";
	} else if (j == NOISE) {
		seg[n++] = "(no significant change)";
	}
	wrap(stdout, 0, 4, seg, n);
}

/* --expect: a line per row, "ok: LABEL: +10.02 insns, expected ..." */
static void expect_report(const struct cmp *c, const struct cmp_verdict *v)
{
	const struct cmp_expects *es = &c->o->expects;
	const char *unit = c->insns ? "insns" : "ns";
	char s1[SEG_LEN], s2[64], s3[96], d[32], w[32];
	const char *seg[3] = { s1, s2, s3 };
	unsigned int i;

	if (!es->n)
		return;
	printf("\nExpected (--expect):\n");
	for (i = 0; i < c->nrows; i++) {
		const struct row *r = &c->rows[i];
		const struct cmp_expect *e = r->exp;
		bool runs = r->a.n && r->b.n;

		snprintf(s1, sizeof(s1), "%s: %s:", r->verdict == VERDICT_OK ?
			 "ok" : r->verdict == VERDICT_FAIL ? "FAIL" : "shown",
			 esc_text(r->label).s);
		if (runs)
			snprintf(s2, sizeof(s2), "%s %s%s",
				 sgn(d, sizeof(d), r->d_ns, 2), unit,
				 r->verdict == VERDICT_SHOWN ? "" : ",");
		else
			snprintf(s2, sizeof(s2), "no ok runs in A or B%s",
				 r->verdict == VERDICT_SHOWN ? "" : ",");
		if (r->verdict == VERDICT_SHOWN)
			snprintf(s3, sizeof(s3), "(not judged%s)",
				 e ? "" : ": no rule");
		else if (e->kind == CMP_EXPECT_DELTA && !e->delta)
			snprintf(s3, sizeof(s3), "expected no change within %.2f",
				 r->room);
		else if (e->kind == CMP_EXPECT_DELTA)
			snprintf(s3, sizeof(s3), "expected %s within %.2f",
				 sgn(w, sizeof(w), e->delta, 2), r->room);
		else
			snprintf(s3, sizeof(s3), "expected %s (significant, beyond %.2f)",
				 e->kind == CMP_EXPECT_DEARER ? "dearer" : "cheaper",
				 r->room);
		if (!runs && r->verdict == VERDICT_FAIL)
			snprintf(s3, sizeof(s3), "expected %s", e->text);
		wrap(stdout, 0, 4, seg, 3);
	}
	for (i = 0; i < es->n; i++)
		if (!c->expect_rows[i])
			printf("FAIL: --expect '%s' matched no row compared\n",
			       esc_text(es->r[i].text).s);
	printf("expect: %u as expected, %u not, %u shown\n", v->expect_ok,
	       v->expect_failed, v->expect_shown);
}

static void text_report(const struct cmp *c, const struct cmp_verdict *v)
{
	size_t i;

	text_header(c);
	legend(c, &c->a);
	for (i = 0; i < c->nrows; i++)
		text_row(c, &c->rows[i]);
	for (i = 0; i < c->na + c->nb; i++) {
		char lbl[128];

		if (i == 0 || i == c->na)
			printf("\nOnly in %s (not compared):\n", i < c->na ? "A" : "B");
		sweep_row_label(lbl, sizeof(lbl), i < c->na ? c->only_a[i] :
				c->only_b[i - c->na], NULL, c->driver);
		printf("  %s\n", esc_text(lbl).s);
	}
	/* the counts add up to the points: those not judged are said too */
	printf("\n%u point%s compared: %u dearer, %u cheaper, %u no significant change",
	       v->rows, v->rows == 1 ? "" : "s", v->dearer, v->cheaper, v->noise);
	if (v->unjudged)
		printf(", %u not judged (no ok runs, or too few)", v->unjudged);
	printf("\n");
	expect_report(c, v);
}

static void side_json(struct json *j, const char *key, const struct sweep_doc *s)
{
	json_key(j, key);
	json_begin_object(j);
	json_kv_string(j, "file", s->path);
	json_kv_string(j, "kernel_release", s->release);
	json_kv_string(j, "kernel_config_sha256", s->config);
	json_kv_string(j, "started", s->started);
	json_kv_string(j, "version", s->version);
	json_kv_string(j, "cpu_model", s->cpu);
	json_kv_double(j, "tsc_ghz", s->ghz);
	json_kv_string(j, "napi", s->napi);
	json_end_object(j);
}

static void point_key_json(struct json *j, const struct jr_value *p)
{
	if (sweep_row_is_stack(p)) {
		json_kv_string(j, "stack", jr_str(jr_get(p, "stack")));
		json_kv_string(j, "mode", jr_str(jr_get(p, "mode")));
		json_kv_double(j, "size", jr_num(jr_get(p, "size")));
		return;
	}
	json_kv_string(j, "action", jr_str(jr_get(p, "action")));
	json_kv_string(j, "mode", jr_str(jr_get(p, "mode")));
	json_kv_double(j, "size", jr_num(jr_get(p, "size")));
	json_kv_double(j, "flows", jr_num(jr_get(p, "flows")));
}

static void sample_json(struct json *j, const char *key,
			const struct sample *s)
{
	json_key(j, key);
	json_begin_object(j);
	json_kv_u64(j, "runs_ok", s->n);
	json_kv_double(j, "ns_per_pkt_median", s->ns_med);
	json_kv_double(j, "mpps_median", s->mpps_med);
	json_end_object(j);
}

static void only_json(struct json *j, const char *key,
		      const struct jr_value **p, size_t n)
{
	size_t i;

	json_key(j, key);
	json_begin_array(j);
	for (i = 0; i < n; i++) {
		json_begin_object(j);
		point_key_json(j, p[i]);
		json_end_object(j);
	}
	json_end_array(j);
}

static int json_report(const struct cmp *c, const struct cmp_verdict *v)
{
	const struct sweep_doc *a = &c->a, *b = &c->b;
	const struct diff *d = c->d;
	const unsigned int nd = c->nd;
	const struct row *rows = c->rows;
	const size_t nrows = c->nrows;
	struct json j;
	unsigned int i;

	json_init(&j, stdout, 1);
	json_begin_object(&j);
	json_kv_string(&j, "tool", c->o->tool);
	json_kv_string(&j, "compares", "B against A");
	side_json(&j, "a", a);
	side_json(&j, "b", b);
	json_kv_bool(&j, "kernel_release_differs",
		     strcmp(a->release, b->release));
	json_kv_bool(&j, "kernel_config_differs", strcmp(a->config, b->config));
	json_key(&j, "options");
	json_begin_object(&j);
	for (i = 0; sweep_match_opts[i]; i++)
		json_kv_double(&j, sweep_match_opts[i],
			       jr_num(jr_get(a->opts, sweep_match_opts[i])));
	json_end_object(&j);
	json_kv_string(&j, "cost_unit", a->unit);
	json_kv_double(&j, "tolerance_pct", c->o->tolerance >= 0 ? c->o->tolerance : NAN);
	json_kv_string(&j, "cycles", "TSC cycles at A's tsc_ghz");
	json_kv_double(&j, "tsc_ghz", a->ghz);
	json_kv_string(&j, "tsc_ghz_of", "A");
	json_kv_string(&j, "ci", "CI of mean(B) - mean(A) of the runs' ns_per_pkt, Welch's t");
	json_kv_double(&j, "ci_level", c->o->level);
	json_kv_bool(&j, "forced", nd > 0);
	json_kv_double(&j, "rtt_median_ns_a", c->rtt_a);
	json_kv_double(&j, "rtt_median_ns_b", c->rtt_b);
	json_kv_bool(&j, "placements_differ",
		     line_rtt_moved(c->rtt_a, c->rtt_b, LINE_RTT_MOVED));
	json_key(&j, "differences");
	json_begin_array(&j);
	for (i = 0; i < nd; i++) {
		json_begin_object(&j);
		json_kv_string(&j, "field", d[i].field);
		json_kv_string(&j, "a", d[i].a);
		json_kv_string(&j, "b", d[i].b);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "points");
	json_begin_array(&j);
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		bool ok = r->a.n && r->b.n;

		json_begin_object(&j);
		json_kv_string(&j, "label", r->label);
		point_key_json(&j, r->pa);
		json_kv_string(&j, "cost", strcmp(r->field, "ns_per_pkt") ?
			       "app" : "net_rx");
		sample_json(&j, "a", &r->a);
		sample_json(&j, "b", &r->b);
		json_kv_double(&j, "delta_pct", ok ? r->d_pct : NAN);
		json_kv_double(&j, "delta_ns", ok ? r->d_ns : NAN);
		json_kv_double(&j, "delta_tsc_cycles", ok ? r->d_cyc : NAN);
		json_kv_double(&j, "mpps_delta_pct", ok ? r->mpps_pct : NAN);
		json_kv_double(&j, "ci_lo_ns", r->have_ci ? r->w.ci_lo : NAN);
		json_kv_double(&j, "ci_hi_ns", r->have_ci ? r->w.ci_hi : NAN);
		json_kv_double(&j, "welch_p", r->have_ci ? r->w.p : NAN);
		json_key(&j, "significant");
		if (r->have_ci)
			json_bool(&j, r->w.distinct);
		else
			json_null(&j);
		json_kv_bool(&j, "within_tolerance", r->tolerated);
		if (c->o->expects.n) {
			json_key(&j, "expect");
			if (r->exp)
				json_string(&j, r->exp->text);
			else
				json_null(&j);
			json_kv_double(&j, "allowed", r->verdict == VERDICT_SHOWN ||
				       !ok ? NAN : r->room);
			json_key(&j, "as_expected");
			if (r->verdict == VERDICT_SHOWN)
				json_null(&j);
			else
				json_bool(&j, r->verdict == VERDICT_OK);
		}
		json_end_object(&j);
	}
	json_end_array(&j);
	only_json(&j, "only_a", c->only_a, c->na);
	only_json(&j, "only_b", c->only_b, c->nb);
	if (c->o->expects.n) {
		json_kv_bool(&j, "as_expected", !v->expect_failed);
		json_key(&j, "expect_unmatched");
		json_begin_array(&j);
		for (i = 0; i < c->o->expects.n; i++)
			if (!c->expect_rows[i])
				json_string(&j, c->o->expects.r[i].text);
		json_end_array(&j);
	}
	json_end_object(&j);
	return json_finish(&j);
}

/* Every row of A that B has too: a row per cost; the others A's or B's only */
static int match_rows(struct cmp *c)
{
	size_t i;

	c->rows = calloc(2 * c->a.nitems + 1, sizeof(*c->rows));
	c->only_a = calloc(c->a.nitems + 1, sizeof(*c->only_a));
	c->only_b = calloc(c->b.nitems + 1, sizeof(*c->only_b));
	if (!c->rows || !c->only_a || !c->only_b)
		return -ENOMEM;
	for (i = 0; i < c->a.nitems; i++) {
		const struct sweep_item *ib = sweep_doc_find(&c->b,
							     c->a.items[i].key);
		const struct jr_value *pa = c->a.items[i].v;
		unsigned int f;

		if (!ib) {
			c->only_a[c->na++] = pa;
			continue;
		}
		for (f = 0; f < (sweep_row_is_stack(pa) ? 2 : 1); f++) {
			struct row *r = &c->rows[c->nrows++];

			r->pa = pa;
			r->pb = ib->v;
			r->field = f ? "app_ns_per_pkt" : "ns_per_pkt";
			if (compute(c, r, c->a.ghz))
				return -ENOMEM;
		}
	}
	for (i = 0; i < c->b.nitems; i++)
		if (!sweep_doc_find(&c->a, c->b.items[i].key))
			c->only_b[c->nb++] = c->b.items[i].v;
	return 0;
}

/* Not measured alike: what differs, on stderr */
static int refuse(const struct cmp *c)
{
	unsigned int i;

	fprintf(stderr, "%s: %s and %s were not measured alike; B differs from A in:\n",
		c->o->tool, esc_path(c->a.path).s, esc_path(c->b.path).s);
	for (i = 0; i < c->nd; i++)
		fprintf(stderr, "%s:   %s: A %s, B %s\n", c->o->tool,
			c->d[i].field, esc_text(c->d[i].a).s,
			esc_text(c->d[i].b).s);
	fprintf(stderr, "%s: refusing to compare (--force compares anyway)\n",
		c->o->tool);
	return -EPERM;
}

static void cmp_free(struct cmp *c)
{
	size_t i;

	for (i = 0; c->rows && i < c->nrows; i++) {
		free(c->rows[i].a.ns);
		free(c->rows[i].a.mpps);
		free(c->rows[i].b.ns);
		free(c->rows[i].b.mpps);
	}
	free(c->rows);
	free(c->only_a);
	free(c->only_b);
	sweep_doc_free(&c->a);
	sweep_doc_free(&c->b);
}

int cmp_files(const char *a, const char *b, const struct cmp_opts *o,
	      struct cmp_verdict *v)
{
	struct cmp c = { .o = o };
	size_t i;
	int ret;

	memset(v, 0, sizeof(*v));
	ret = sweep_doc_load(&c.a, o->tool, a, o->max_input);
	if (!ret)
		ret = sweep_doc_load(&c.b, o->tool, b, o->max_input);
	if (ret)
		goto out;
	c.nd = guard(&c.a, &c.b, c.d);
	c.rtt_a = doc_rtt(&c.a);
	c.rtt_b = doc_rtt(&c.b);
	c.insns = !strcmp(c.a.unit, "insns");
	c.driver = c.a.driver;
	if (c.nd && !o->force) {
		ret = refuse(&c);
		goto out;
	}
	ret = match_rows(&c);
	if (ret) {
		fprintf(stderr, "%s: out of memory\n", o->tool);
		goto out;
	}
	for (i = 0; i < c.nrows; i++) {
		count(v, judge(&c.rows[i]));
		expect_judge(&c, &c.rows[i]);
	}
	count_expect(&c, v);
	if (!o->json) {
		text_report(&c, v);
	} else {
		ret = json_report(&c, v);
		/* standard output failed: the caller's cli_finish_out() says it */
		if (ret && ret != -EINVAL)
			v->out_err = ret;
		else if (ret)
			fprintf(stderr, "%s: the JSON writer was misused (a bug)\n",
				o->tool);
	}
out:
	cmp_free(&c);
	return ret;
}
