// SPDX-License-Identifier: GPL-2.0
/* The benchmark against xdp-tools: records in, report out (peers.h) */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "esc.h"
#include "json.h"
#include "line_rtt.h"
#include "peers.h"
#include "stats.h"

#define MAX_FIELDS	11
#define MAX_LINE	2047	/* bytes of a record, its newline not counted */

struct reader {
	struct peers_bench *b;
	char name[ESC_PATH];	/* the file's, escaped */
	unsigned int line;
	unsigned int part_line[PEERS_MAX_PARTS];	/* where each part began */
	unsigned int bench_seen;	/* the bench keys read, a bit each */
	char *err;
};

/* "NAME:LINE: what: 'value'", the value escaped (esc.h) */
static int bad(const struct reader *r, const char *what, const char *val)
{
	char v[256];

	/* a sentence without an errno: the line says what was wrong */
	err_set(r->err, 0, "%s:%u: %s: '%s'", r->name, r->line, what,
		esc_into(v, sizeof(v), val));
	return -EINVAL;
}

/* A text field into dst of len bytes; refused, not cut, when longer */
static int copy(const struct reader *r, const char *what, char *dst,
		size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len) {
		err_set(r->err, 0, "%s:%u: %s: %zu bytes, more than %zu",
			r->name, r->line, what, n, len - 1);
		return -EINVAL;
	}
	memcpy(dst, src, n + 1);
	return 0;
}

/* What a number of the records must be, said when it is not */
struct range {
	const char *what;
	double min, max;
	bool whole;
	const char *unit;	/* after the range */
};

static const struct range secs = { "secs", 0.1, 86400, false, " s" };
static const struct range max_foreign = { "max_foreign", 0, 64, false,
					  " CPUs" };
static const struct range runs = { "runs", 0, PEERS_MAX_RUNS, true, "" };
static const struct range max_retries = { "max_retries", 0, 100, true, "" };
static const struct range part_id = { "part id", 1, PEERS_MAX_PARTS, true, "" };
static const struct range pps = { "pps", PEERS_MIN_PPS, PEERS_MAX_PPS, false,
				  " frames/s (or 0 or -: none)" };
static const struct range foreign = { "foreign", -64, 64, false, " CPUs" };
static const struct range steal = { "steal", 0, 64, false, " CPUs" };
static const struct range retries = { "retries", 0, 100, true, "" };
static const struct range rtt_ns = { "line round trip", 1, 1e9, false,
				     " ns (or -: not taken)" };
static const struct range cpu_ns = { "cpu-ns", 1e9 / PEERS_MAX_PPS,
				     1e9 / PEERS_MIN_PPS, false,
				     " ns of CPU per frame (or 0 or -: none)" };
static const struct range offered = { "offered", PEERS_MIN_PPS, PEERS_MAX_PPS,
				      false, " frames/s (or -: not taken)" };
static const struct range busy = { "busy", 0, 1, false,
				   " (a CPU's share; comma-separated, or -: not taken)" };

/*
 * A decimal number: a digit, '.' or '-' first (no blank, no sign +, no inf
 * or nan), no hex (strtod() would read 0x9 and 0x1p20), nothing after it
 */
static bool parse(const char *s, double *v)
{
	char *end;

	*v = NAN;
	if ((!isdigit((unsigned char)*s) && *s != '.' && *s != '-') ||
	    strpbrk(s, "xX"))
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !*end && !errno;
}

static int number(const struct reader *r, const struct range *g,
		  const char *s, double *v)
{
	char v_esc[256];

	if (parse(s, v) && *v >= g->min && *v <= g->max &&
	    (!g->whole || *v == floor(*v)))
		return 0;
	err_set(r->err, 0, "%s:%u: %s: '%s' is not a %snumber in %.15g..%.15g%s",
		r->name, r->line, g->what, esc_into(v_esc, sizeof(v_esc), s),
		g->whole ? "whole " : "", g->min, g->max, g->unit);
	return -EINVAL;
}

static struct peers_part *cur_part(const struct reader *r)
{
	return r->b->nparts ? &r->b->part[r->b->nparts - 1] : NULL;
}

static struct peers_cmp *cur_cmp(const struct reader *r)
{
	struct peers_part *p = cur_part(r);

	return p && p->ncmp ? &p->cmp[p->ncmp - 1] : NULL;
}

static int side_of(const struct reader *r, const char *s,
		   struct peers_side **sd)
{
	struct peers_cmp *c = cur_cmp(r);

	if (!c)
		return bad(r, "a side's record before any cmp", s);
	if (!strcmp(s, "ours"))
		*sd = &c->side[PEERS_OURS];
	else if (!strcmp(s, "peer"))
		*sd = &c->side[PEERS_PEER];
	else
		return bad(r, "the side is neither ours nor peer", s);
	return 0;
}

/* The bench keys, each at most once; runs and max_retries bound the runs */
static const char *const bench_keys[] = {
	"kernel", "cpu", "xdp_tools", "secs", "max_foreign", "runs",
	"max_retries",
};
#define NKEYS (sizeof(bench_keys) / sizeof(bench_keys[0]))

static bool bench_has(const struct reader *r, const char *key)
{
	unsigned int i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(key, bench_keys[i]))
			return r->bench_seen & (1U << i);
	return false;
}

static int rd_bench(struct reader *r, char **f, int n)
{
	struct peers_bench *b = r->b;
	unsigned int i;
	double v;
	int ret;

	if (n != 3)
		return bad(r, "bench takes KEY VALUE", f[0]);
	/* before the parts: the runs read later are bounded by it */
	if (b->nparts)
		return bad(r, "bench after the first part", f[1]);
	for (i = 0; i < NKEYS; i++)
		if (!strcmp(f[1], bench_keys[i]))
			break;
	if (i < NKEYS && (r->bench_seen & (1U << i)))
		return bad(r, "bench key given twice", f[1]);
	if (i < NKEYS)
		r->bench_seen |= 1U << i;
	if (!strcmp(f[1], "kernel"))
		return copy(r, "kernel", b->kernel, sizeof(b->kernel), f[2]);
	else if (!strcmp(f[1], "cpu"))
		return copy(r, "cpu", b->cpu, sizeof(b->cpu), f[2]);
	else if (!strcmp(f[1], "xdp_tools"))
		return copy(r, "xdp_tools", b->xdp_tools, sizeof(b->xdp_tools),
			    f[2]);
	else if (!strcmp(f[1], "secs"))
		return number(r, &secs, f[2], &b->secs);
	else if (!strcmp(f[1], "max_foreign"))
		return number(r, &max_foreign, f[2], &b->max_foreign);
	else if (!strcmp(f[1], "runs") || !strcmp(f[1], "max_retries")) {
		ret = number(r, strcmp(f[1], "runs") ? &max_retries : &runs,
			     f[2], &v);
		if (ret)
			return ret;
		if (!strcmp(f[1], "runs"))
			b->runs = v;
		else
			b->max_retries = v;
	} else {
		return bad(r, "unknown bench key", f[1]);
	}
	return 0;
}

static int rd_part(struct reader *r, char **f, int n)
{
	struct peers_part *p;
	char what[64];
	unsigned int i;
	double id;

	if (n != 3)
		return bad(r, "part takes ID TITLE", f[0]);
	if (number(r, &part_id, f[1], &id))
		return -EINVAL;
	for (i = 0; i < r->b->nparts; i++) {
		if (r->b->part[i].id != id)
			continue;
		snprintf(what, sizeof(what), "part given twice (first at line %u)",
			 r->part_line[i]);
		return bad(r, what, f[1]);
	}
	/* nine distinct ids of 1..9 at most: there is room */
	p = &r->b->part[r->b->nparts];
	if (copy(r, "title", p->title, sizeof(p->title), f[2]))
		return -EINVAL;
	r->part_line[r->b->nparts++] = r->line;
	p->id = id;
	return 0;
}

static int rd_setting(struct reader *r, char **f, int n)
{
	struct peers_part *p = cur_part(r);
	struct peers_setting *s;

	if (!p)
		return bad(r, "setting before any part", f[1]);
	if (n != 4 && n != 5)
		return bad(r, "setting takes WHAT OURS PEER [NOTE]", f[0]);
	if (p->nset == PEERS_MAX_SETTINGS)
		return bad(r, "too many settings in the part", f[1]);
	s = &p->set[p->nset];
	if (copy(r, "setting", s->what, sizeof(s->what), f[1]) ||
	    copy(r, "ours", s->ours, sizeof(s->ours), f[2]) ||
	    copy(r, "peer", s->peer, sizeof(s->peer), f[3]) ||
	    copy(r, "note", s->note, sizeof(s->note), n == 5 ? f[4] : ""))
		return -EINVAL;
	p->nset++;
	return 0;
}

static int rd_note(struct reader *r, char **f, int n)
{
	struct peers_part *p = cur_part(r);

	if (!p)
		return bad(r, "note before any part", f[0]);
	if (n != 2)
		return bad(r, "note takes TEXT", f[0]);
	if (p->nnote == PEERS_MAX_NOTES)
		return bad(r, "too many notes in the part", f[1]);
	if (copy(r, "note", p->note[p->nnote], PEERS_TEXT, f[1]))
		return -EINVAL;
	p->nnote++;
	return 0;
}

static int rd_unit(struct reader *r, char **f, int n)
{
	struct peers_part *p = cur_part(r);

	if (!p)
		return bad(r, "unit before any part", f[0]);
	if (n != 2)
		return bad(r, "unit takes KIND", f[0]);
	if (p->ncmp)
		return bad(r, "unit after the part's first cmp", f[1]);
	if (p->unit_given)
		return bad(r, "unit given twice in the part", f[1]);
	p->unit_given = true;
	if (strcmp(f[1], "pps") && strcmp(f[1], "cpu-ns"))
		return bad(r, "unit is neither pps nor cpu-ns", f[1]);
	p->cpu_ns = !strcmp(f[1], "cpu-ns");
	return 0;
}

static int rd_cmp(struct reader *r, char **f, int n)
{
	struct peers_part *p = cur_part(r);
	struct peers_cmp *c;

	if (!p)
		return bad(r, "cmp before any part", f[0]);
	if (n != 4)
		return bad(r, "cmp takes NAME OURS PEER", f[0]);
	if (p->ncmp == PEERS_MAX_CMPS)
		return bad(r, "too many comparisons in the part", f[1]);
	c = &p->cmp[p->ncmp];
	if (copy(r, "cmp", c->name, sizeof(c->name), f[1]) ||
	    copy(r, "ours", c->side[PEERS_OURS].label, PEERS_TEXT, f[2]) ||
	    copy(r, "peer", c->side[PEERS_PEER].label, PEERS_TEXT, f[3]))
		return -EINVAL;
	c->cpu_ns = p->cpu_ns;
	p->ncmp++;
	return 0;
}

static int rd_cmd(struct reader *r, char **f, int n)
{
	struct peers_side *sd;

	if (n != 3)
		return bad(r, "cmd takes SIDE COMMAND", f[0]);
	if (side_of(r, f[1], &sd))
		return -EINVAL;
	if (sd->cmd_given)
		return bad(r, "cmd of that side given twice", f[1]);
	sd->cmd_given = true;
	return copy(r, "cmd", sd->cmd, sizeof(sd->cmd), f[2]);
}

/* A line round trip in ns, or "-" (NaN) */
static int rtt(const struct reader *r, const char *s, double *v)
{
	*v = NAN;
	return strcmp(s, "-") ? number(r, &rtt_ns, s, v) : 0;
}

/*
 * A run's rate: "-" or 0 (the receiver gave none, or counted nothing:
 * NaN), or frames a second in PEERS_MIN_PPS..PEERS_MAX_PPS, which keeps
 * every ratio, difference and interval of them finite
 */
static int rate(const struct reader *r, const char *s, double *v)
{
	const struct peers_cmp *c = cur_cmp(r);

	if (!strcmp(s, "-") || (parse(s, v) && *v == 0)) {
		*v = NAN;
		return 0;
	}
	if (!c || !c->cpu_ns)
		return number(r, &pps, s, v);
	/* ns per frame, kept as frames per CPU second (peers.h) */
	if (number(r, &cpu_ns, s, v))
		return -EINVAL;
	*v = 1e9 / *v;
	return 0;
}

/* "-", or each CPU's busy share from CPU 0, comma-separated: the first ones */
static int rd_busy(const struct reader *r, const char *s, double *v)
{
	char field[PEERS_TEXT], *p, *tok;
	unsigned int i;

	for (i = 0; i < PEERS_BUSY_CPUS; i++)
		v[i] = NAN;
	if (!strcmp(s, "-"))
		return 0;
	if (copy(r, "busy", field, sizeof(field), s))
		return -EINVAL;
	for (i = 0, p = field; p; i++) {
		double x;

		tok = strsep(&p, ",");
		if (number(r, &busy, tok, &x))
			return -EINVAL;
		if (i < PEERS_BUSY_CPUS)
			v[i] = x;
	}
	return 0;
}

static int rd_run(struct reader *r, char **f, int n)
{
	struct peers_side *sd;
	struct peers_run *run;
	double t;

	if (n != 7 && n != 9 && n != 10 && n != 11)
		return bad(r, "run takes SIDE FIGURE FOREIGN STEAL DISTURBED RETRIES [RTT0 RTT1 [OFFERED [BUSY]]]",
			   f[0]);
	if (side_of(r, f[1], &sd))
		return -EINVAL;
	if (sd->n == PEERS_MAX_RUNS)
		return bad(r, "too many runs of a side", f[2]);
	if (bench_has(r, "runs") && sd->n >= r->b->runs)
		return bad(r, "more runs of a side than bench runs", f[2]);
	run = &sd->run[sd->n];
	if (rate(r, f[2], &run->pps))
		return -EINVAL;
	if (number(r, &foreign, f[3], &run->foreign) ||
	    number(r, &steal, f[4], &run->steal))
		return -EINVAL;
	if (strcmp(f[5], "0") && strcmp(f[5], "1"))
		return bad(r, "disturbed is neither 0 nor 1", f[5]);
	run->disturbed = f[5][0] == '1';
	if (number(r, &retries, f[6], &t))
		return -EINVAL;
	if (bench_has(r, "max_retries") && t > r->b->max_retries)
		return bad(r, "more retries than bench max_retries", f[6]);
	run->retries = t;
	run->rtt_before = NAN;
	run->rtt_after = NAN;
	run->offered = NAN;
	if (n >= 9 && (rtt(r, f[7], &run->rtt_before) ||
		       rtt(r, f[8], &run->rtt_after)))
		return -EINVAL;
	if (n >= 10 && strcmp(f[9], "-") &&
	    number(r, &offered, f[9], &run->offered))
		return -EINVAL;
	if (rd_busy(r, n == 11 ? f[10] : "-", run->busy))
		return -EINVAL;
	sd->n++;
	return 0;
}

static int rd_skip(struct reader *r, char **f, int n)
{
	struct peers_cmp *c = cur_cmp(r);

	if (!c)
		return bad(r, "skip before any cmp", f[0]);
	if (n != 2)
		return bad(r, "skip takes REASON", f[0]);
	if (c->skip_given)
		return bad(r, "skip given twice in the cmp", f[1]);
	c->skip_given = true;
	return copy(r, "skip", c->skip, sizeof(c->skip), f[1]);
}

static const struct {
	const char *kw;
	int (*rd)(struct reader *r, char **f, int n);
} records[] = {
	{ "bench", rd_bench }, { "part", rd_part }, { "setting", rd_setting },
	{ "note", rd_note }, { "cmp", rd_cmp }, { "cmd", rd_cmd },
	{ "run", rd_run }, { "skip", rd_skip }, { "unit", rd_unit },
};

/* One line of len bytes, its newline included if it has one */
static int rd_line(struct reader *r, char *line, size_t len)
{
	char *fld[MAX_FIELDS], *nul = memchr(line, '\0', len), *p;
	char what[64];
	size_t i;
	int n;

	if (nul) {
		snprintf(what, sizeof(what), "NUL byte at line %u, byte %zu",
			 r->line, nul - line + 1);
		return bad(r, what, line);
	}
	if (line[len - 1] != '\n')
		return bad(r, "the last line has no newline: the file is cut short",
			   line);
	line[--len] = '\0';
	if (len > MAX_LINE)
		return bad(r, "line too long (more than 2047 bytes)", "...");
	if (!len || line[0] == '#')
		return 0;
	for (n = 0, p = line; p && n < MAX_FIELDS; n++)
		fld[n] = strsep(&p, "\t");
	if (p)
		return bad(r, "too many fields", line);
	for (i = 0; i < sizeof(records) / sizeof(records[0]); i++)
		if (!strcmp(fld[0], records[i].kw))
			return records[i].rd(r, fld, n) ? -EINVAL : 0;
	return bad(r, "unknown record", fld[0]);
}

int peers_read(struct peers_bench *b, FILE *f, const char *name, char err[ERR_LEN])
{
	struct reader r = { .b = b, .err = err };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	memset(b, 0, sizeof(*b));
	esc_into(r.name, sizeof(r.name), name);
	for (;;) {
		errno = 0;
		len = getline(&line, &cap, f);
		if (len <= 0)
			break;
		r.line++;
		ret = rd_line(&r, line, len);
		if (ret)
			break;
	}
	free(line);
	if (ret)
		return ret;
	/* getline() fails so for a line it cannot hold: not the end */
	if (len < 0 && errno == ENOMEM)
		return err_set(err, -ENOMEM, "%s:%u: reading a line", r.name,
			       r.line + 1);
	if (ferror(f))
		return err_set(err, -EIO, "%s:%u: reading", r.name, r.line + 1);
	/* sentences without an errno, as bad()'s */
	if (!r.line)
		err_set(err, 0, "%s: no records: the file is empty", r.name);
	else if (!b->nparts)
		err_set(err, 0, "%s:%u: no part in the records up to their end: nothing to report",
			r.name, r.line);
	return r.line && b->nparts ? 0 : -EINVAL;
}

static double ratio(double a, double b)
{
	return a / b;
}

/* cpu-ns: frames per CPU second in, ours ns / peer ns out */
static double ratio_inv(double a, double b)
{
	return b / a;
}

/* The comparison's ratio in its unit's terms: ours / peer */
static double (*ratio_of(const struct peers_cmp *c))(double, double)
{
	return c->cpu_ns ? ratio_inv : ratio;
}

static double ns_diff(double a, double b)
{
	return 1e9 / a - 1e9 / b;
}

/* The median of a side's round trips, before and after each run */
static double side_rtt(const struct peers_side *sd)
{
	double x[2 * PEERS_MAX_RUNS];
	unsigned int i, n = 0;

	for (i = 0; i < sd->n; i++) {
		if (!isnan(sd->run[i].rtt_before))
			x[n++] = sd->run[i].rtt_before;
		if (!isnan(sd->run[i].rtt_after))
			x[n++] = sd->run[i].rtt_after;
	}
	return n ? stats_median(x, n) : NAN;
}

/* The median share of what reached the device that the side's runs took */
static double side_took(const struct peers_side *sd)
{
	double x[PEERS_MAX_RUNS];
	unsigned int i, n = 0;

	for (i = 0; i < sd->n; i++)
		if (!isnan(sd->run[i].pps) && !isnan(sd->run[i].offered))
			x[n++] = sd->run[i].pps / sd->run[i].offered;
	return n ? stats_median(x, n) : NAN;
}

/* The median busy share of each reported CPU over the side's runs */
static void side_busy(struct peers_side *sd)
{
	double x[PEERS_MAX_RUNS];
	unsigned int i, c, n;

	for (c = 0; c < PEERS_BUSY_CPUS; c++) {
		for (i = 0, n = 0; i < sd->n; i++)
			if (!isnan(sd->run[i].busy[c]))
				x[n++] = sd->run[i].busy[c];
		sd->busy[c] = n ? stats_median(x, n) : NAN;
	}
}

/* Which side was the limit, from their shares (peers.h) */
static enum peers_limit cmp_limit(const struct peers_cmp *c)
{
	double o = c->side[PEERS_OURS].took, p = c->side[PEERS_PEER].took;

	/* at a fixed rate the figure is CPU, not a rate: no limit to name */
	if (c->cpu_ns || isnan(o) || isnan(p))
		return PEERS_LIMIT_UNKNOWN;
	if (o >= PEERS_TOOK_ALL && p >= PEERS_TOOK_ALL)
		return PEERS_LIMIT_KERNEL;
	if (o >= PEERS_TOOK_ALL)
		return PEERS_LIMIT_PEER;
	return p >= PEERS_TOOK_ALL ? PEERS_LIMIT_OURS : PEERS_LIMIT_RECEIVERS;
}

/* The side's rated runs' rates into x (PEERS_MAX_RUNS); their number */
static unsigned int side_rates(struct peers_side *sd, double *x, bool cpu_ns)
{
	unsigned int i, n = 0;

	sd->disturbed = 0;
	for (i = 0; i < sd->n; i++) {
		sd->disturbed += sd->run[i].disturbed;
		if (!isnan(sd->run[i].pps))
			x[n++] = sd->run[i].pps;
	}
	sd->rtt = side_rtt(sd);
	/* at a fixed rate the figure is CPU: OFFERED shows the rate only */
	sd->took = cpu_ns ? NAN : side_took(sd);
	side_busy(sd);
	sd->rated = n;
	sd->median = sd->min = sd->max = NAN;
	if (n) {
		struct stats_summary s;

		stats_summarize(x, n, &s);
		sd->median = s.median;
		sd->min = s.min;
		sd->max = s.max;
	}
	return n;
}

/* A run's placement: the lower of its round trips; NaN: none, or no rate */
static double run_place(const struct peers_run *run)
{
	return isnan(run->pps) ? NAN : fmin(run->rtt_before, run->rtt_after);
}

/*
 * One placement's medians and ratio: the rated runs whose placement is in
 * lo..hi, taken in record order (the bootstrap's input, so its interval,
 * does not depend on a sort)
 */
static int place_figures(const struct peers_cmp *c, struct peers_place *pl)
{
	double x[PEERS_NR_SIDES][PEERS_MAX_RUNS];
	unsigned int i, k;
	int ret;

	for (k = 0; k < PEERS_NR_SIDES; k++) {
		pl->runs[k] = 0;
		for (i = 0; i < c->side[k].n; i++) {
			double v = run_place(&c->side[k].run[i]);

			if (v >= pl->rtt_lo && v <= pl->rtt_hi)
				x[k][pl->runs[k]++] = c->side[k].run[i].pps;
		}
		pl->median[k] = stats_median(x[k], pl->runs[k]);
	}
	pl->ratio = NAN;
	pl->ratio_lo = NAN;
	pl->ratio_hi = NAN;
	if (!pl->runs[PEERS_OURS] || !pl->runs[PEERS_PEER])
		return 0;
	pl->ratio = ratio_of(c)(pl->median[PEERS_OURS], pl->median[PEERS_PEER]);
	ret = stats_boot_medians2(x[PEERS_OURS], pl->runs[PEERS_OURS],
				  x[PEERS_PEER], pl->runs[PEERS_PEER], ratio_of(c),
				  &pl->ratio_lo, &pl->ratio_hi);
	return ret == -EINVAL ? 0 : ret;
}

/*
 * The rated runs with a round trip, by placement: their placements sorted,
 * split where one is more than twice the one before (LINE_RTT_MOVED; a
 * gradual spread with no such gap stays one placement)
 */
static int placements(struct peers_cmp *c)
{
	double v[PEERS_NR_SIDES * PEERS_MAX_RUNS];
	unsigned int n = 0, i, k, start;
	int ret;

	c->nplace = 0;
	for (k = 0; k < PEERS_NR_SIDES; k++)
		for (i = 0; i < c->side[k].n; i++)
			if (!isnan(run_place(&c->side[k].run[i])))
				v[n++] = run_place(&c->side[k].run[i]);
	stats_sort(v, n);
	for (i = 0, start = 0; i < n; i++) {
		struct peers_place *pl = &c->place[c->nplace];

		if (i + 1 < n &&
		    (!line_rtt_moved(v[i], v[i + 1], LINE_RTT_MOVED) ||
		     c->nplace + 1 == PEERS_MAX_PLACES))
			continue;
		pl->rtt_lo = v[start];
		pl->rtt_hi = v[i];
		ret = place_figures(c, pl);
		if (ret)
			return ret;
		c->nplace++;
		start = i + 1;
	}
	return 0;
}

/* Run i of ours against run i of the peer's: their ratios' median, CI */
static int pairs(struct peers_cmp *c)
{
	const struct peers_side *o = &c->side[PEERS_OURS], *p = &c->side[PEERS_PEER];
	double x[PEERS_MAX_RUNS];
	struct stats_summary st;
	unsigned int i, n = 0;
	int ret;

	c->pair_ratio = NAN;
	c->pair_lo = NAN;
	c->pair_hi = NAN;
	c->pair_cover = NAN;
	for (i = 0; i < o->n && i < p->n; i++)
		if (!isnan(o->run[i].pps) && !isnan(p->run[i].pps))
			x[n++] = ratio_of(c)(o->run[i].pps, p->run[i].pps);
	c->npairs = n;
	if (!n)
		return 0;
	ret = stats_summarize(x, n, &st);
	if (ret)
		return ret;
	c->pair_ratio = st.median;
	c->pair_lo = st.ci_lo;
	c->pair_hi = st.ci_hi;
	c->pair_cover = st.ci_coverage;
	return 0;
}

static int summarize_cmp(struct peers_cmp *c)
{
	double a[PEERS_MAX_RUNS], b[PEERS_MAX_RUNS];
	unsigned int na, nb;
	int ret;

	na = side_rates(&c->side[PEERS_OURS], a, c->cpu_ns);
	nb = side_rates(&c->side[PEERS_PEER], b, c->cpu_ns);
	c->ratio = c->ns_diff = NAN;
	c->ratio_lo = c->ratio_hi = c->ns_diff_lo = c->ns_diff_hi = NAN;
	c->limit = cmp_limit(c);
	ret = placements(c);
	if (!ret)
		ret = pairs(c);
	if (ret)
		return ret;
	if (!na || !nb)
		return 0;
	c->ratio = ratio_of(c)(c->side[PEERS_OURS].median,
			       c->side[PEERS_PEER].median);
	c->ns_diff = ns_diff(c->side[PEERS_OURS].median,
			     c->side[PEERS_PEER].median);
	ret = stats_boot_medians2(a, na, b, nb, ratio_of(c), &c->ratio_lo,
				  &c->ratio_hi);
	if (!ret)
		ret = stats_boot_medians2(a, na, b, nb, ns_diff, &c->ns_diff_lo,
					  &c->ns_diff_hi);
	return ret == -EINVAL ? 0 : ret;
}

int peers_summarize(struct peers_bench *b)
{
	unsigned int i, k;
	int ret;

	for (i = 0; i < b->nparts; i++)
		for (k = 0; k < b->part[i].ncmp; k++) {
			ret = summarize_cmp(&b->part[i].cmp[k]);
			if (ret)
				return ret;
		}
	return 0;
}

/* "[lo, hi]" or "no CI (fewer than 3 rated runs a side)" */
static void ci_text(char *buf, size_t len, double lo, double hi, int prec)
{
	if (isnan(lo))
		snprintf(buf, len, "no CI (fewer than 3 rated runs a side)");
	else
		snprintf(buf, len, "95%% CI [%.*f, %.*f]", prec, lo, prec, hi);
}

static struct cli_num rtt_text(double ns)
{
	return cli_num_text(ns, 0);
}

static struct cli_num mpps_text(double pps)
{
	return cli_num_text(pps / 1e6, 3);
}

/* A figure in the comparison's unit: "1.234 Mpps" or "123.4 ns" */
static struct cli_num fig_text(const struct peers_cmp *c, double pps)
{
	struct cli_num t = c->cpu_ns ? cli_num_text(1e9 / pps, 1) :
				       mpps_text(pps);
	size_t n = strlen(t.s);

	if (!isnan(pps))
		snprintf(t.s + n, sizeof(t.s) - n, c->cpu_ns ? " ns" : " Mpps");
	return t;
}

static void print_side_runs(const struct peers_cmp *c,
			    const struct peers_side *sd, FILE *f)
{
	bool offered = false;
	unsigned int i;

	for (i = 0; i < sd->n; i++)
		offered |= !isnan(sd->run[i].offered);
	fprintf(f, "     %s runs (%s, foreign load%s%s%s):", esc_text(sd->label).s,
		c->cpu_ns ? "CPU ns per frame" : "Mpps",
		isnan(sd->rtt) ? "" : ", line round trip before/after ns",
		offered ? ", Mpps at the device" : "",
		isnan(sd->busy[0]) ? "" : ", CPU 0/1 busy");
	for (i = 0; i < sd->n; i++) {
		const struct peers_run *r = &sd->run[i];

		if (isnan(r->pps))
			fprintf(f, " -");
		else if (c->cpu_ns)
			fprintf(f, " %.1f", 1e9 / r->pps);
		else
			fprintf(f, " %.3f", r->pps / 1e6);
		fprintf(f, " (%.0f%%", 100 * r->foreign);
		if (!isnan(sd->rtt))
			fprintf(f, ", %s/%s", rtt_text(r->rtt_before).s,
				rtt_text(r->rtt_after).s);
		if (offered)
			fprintf(f, ", %s", mpps_text(r->offered).s);
		if (!isnan(r->busy[0]))
			fprintf(f, ", busy %.0f/%.0f%%", 100 * r->busy[0],
				100 * r->busy[1]);
		fprintf(f, "%s)", r->disturbed ? ", DISTURBED" : "");
	}
	fprintf(f, "\n");
}

/* Each side's CPUs' median busy share, and the saturated ones (peers.h) */
static void print_busy(const struct peers_cmp *c, FILE *f)
{
	char sat[PEERS_NR_SIDES * PEERS_BUSY_CPUS][64];
	unsigned int k, cpu, n = 0;

	if (isnan(c->side[PEERS_OURS].busy[0]) &&
	    isnan(c->side[PEERS_PEER].busy[0]))
		return;
	fprintf(f, "             busy, median:");
	for (k = 0; k < PEERS_NR_SIDES; k++) {
		const struct peers_side *sd = &c->side[k];

		fprintf(f, "%s %s", k ? ";" : "", esc_text(sd->label).s);
		for (cpu = 0; cpu < PEERS_BUSY_CPUS; cpu++) {
			fprintf(f, "%s CPU %u %s%%", cpu ? "," : "", cpu,
				cli_num_text(100 * sd->busy[cpu], 0).s);
			if (sd->busy[cpu] >= PEERS_SATURATED)
				snprintf(sat[n++], sizeof(sat[0]), "%s CPU %u",
					 k ? "peer" : "ours", cpu);
		}
	}
	fprintf(f, ": saturated (%.0f%% or more):", 100 * PEERS_SATURATED);
	for (k = 0; k < n; k++)
		fprintf(f, "%s %s", k ? "," : "", sat[k]);
	fprintf(f, "%s\n", n ? "" : " none");
}

/* Which side was the limit (peers.h), when the runs say */
static void print_limit(const struct peers_cmp *c, FILE *f)
{
	const struct peers_side *o = &c->side[PEERS_OURS], *p = &c->side[PEERS_PEER];
	const struct peers_side *low = c->limit == PEERS_LIMIT_OURS ? o : p;

	switch (c->limit) {
	case PEERS_LIMIT_UNKNOWN:
		return;
	case PEERS_LIMIT_KERNEL:
		fprintf(f, "             limit: both at the kernel's: %s took %.1f%%, %s %.1f%% of what reached the device, so each rate is the generator's and NAPI's CPU's, and the ratio is what each receiver costs that CPU, not its own speed\n",
			esc_text(o->label).s, 100 * o->took, esc_text(p->label).s,
			100 * p->took);
		return;
	case PEERS_LIMIT_OURS:
	case PEERS_LIMIT_PEER:
		fprintf(f, "             limit: %s, which took %.1f%% of what reached the device (%s %.1f%%)\n",
			esc_text(low->label).s, 100 * low->took,
			esc_text(low == o ? p->label : o->label).s,
			100 * (low == o ? p->took : o->took));
		return;
	case PEERS_LIMIT_RECEIVERS:
		fprintf(f, "             limit: both receivers: %s took %.1f%%, %s %.1f%% of what reached the device\n",
			esc_text(o->label).s, 100 * o->took, esc_text(p->label).s,
			100 * p->took);
		return;
	}
}

/* More than one placement: the ratio above mixes them; each one's */
static void print_places(const struct peers_cmp *c, FILE *f)
{
	const struct peers_side *o = &c->side[PEERS_OURS], *p = &c->side[PEERS_PEER];
	char ci[96];
	unsigned int i;

	fprintf(f, "             the runs had %u placements of the vCPUs (a run's lower round trip): the ratio above mixes them; by placement:\n",
		c->nplace);
	for (i = 0; i < c->nplace; i++) {
		const struct peers_place *pl = &c->place[i];

		fprintf(f, "               %s-%s ns: %s %s (%u runs), %s %s (%u runs)",
			rtt_text(pl->rtt_lo).s, rtt_text(pl->rtt_hi).s,
			esc_text(o->label).s, fig_text(c, pl->median[PEERS_OURS]).s,
			pl->runs[PEERS_OURS], esc_text(p->label).s,
			fig_text(c, pl->median[PEERS_PEER]).s,
			pl->runs[PEERS_PEER]);
		if (isnan(pl->ratio)) {
			fprintf(f, ": no ratio\n");
			continue;
		}
		ci_text(ci, sizeof(ci), pl->ratio_lo, pl->ratio_hi, 2);
		fprintf(f, ": ratio %.2f, %s\n", pl->ratio, ci);
	}
}

static void print_cmp(const struct peers_cmp *c, FILE *f)
{
	const struct peers_side *o = &c->side[PEERS_OURS], *p = &c->side[PEERS_PEER];
	char rci[96], nci[96];

	if (c->skip[0]) {
		fprintf(f, "   %-9s not compared: %s\n", esc_text(c->name).s, esc_text(c->skip).s);
	} else if (isnan(c->ratio)) {
		fprintf(f, "   %-9s no comparison: %s gave no rate in any run\n",
			esc_text(c->name).s, esc_text(o->rated ? p->label : o->label).s);
	} else {
		ci_text(rci, sizeof(rci), c->ratio_lo, c->ratio_hi, 2);
		ci_text(nci, sizeof(nci), c->ns_diff_lo, c->ns_diff_hi, 1);
		fprintf(f, "   %-9s %s %s, %s %s%s: ratio %.2f, %s; %+.1f ns %sper frame, %s\n",
			esc_text(c->name).s, esc_text(o->label).s,
			fig_text(c, o->median).s, esc_text(p->label).s,
			fig_text(c, p->median).s,
			c->cpu_ns ? " of the receiver's CPU per frame" : "",
			c->ratio, rci, c->ns_diff, c->cpu_ns ? "of CPU " : "", nci);
		fprintf(f, "             %u + %u rated runs, %u + %u still disturbed after retries\n",
			o->rated, p->rated, o->disturbed, p->disturbed);
		if (c->npairs && isnan(c->pair_lo))
			fprintf(f, "             paired (run i of each side, taken one after the other): median ratio %.2f, no CI (fewer than 3 pairs), %u pairs\n",
				c->pair_ratio, c->npairs);
		else if (c->npairs)
			fprintf(f, "             paired (run i of each side, taken one after the other): median ratio %.2f, CI [%.2f, %.2f] (covers %.1f%%), %u pairs\n",
				c->pair_ratio, c->pair_lo, c->pair_hi,
				100 * c->pair_cover, c->npairs);
	}
	if (!c->skip[0]) {
		print_limit(c, f);
		print_busy(c, f);
	}
	if (!c->skip[0] && (!isnan(o->rtt) || !isnan(p->rtt)))
		fprintf(f, "             line round trip, median: %s %s ns, %s %s ns\n",
			esc_text(o->label).s, rtt_text(o->rtt).s, esc_text(p->label).s,
			rtt_text(p->rtt).s);
	if (!c->skip[0] && c->nplace > 1)
		print_places(c, f);
	if (o->cmd[0])
		fprintf(f, "     %s: %s\n", esc_text(o->label).s, esc_text(o->cmd).s);
	if (p->cmd[0])
		fprintf(f, "     %s: %s\n", esc_text(p->label).s, esc_text(p->cmd).s);
	if (o->n)
		print_side_runs(c, o, f);
	if (p->n)
		print_side_runs(c, p, f);
}

static void print_part(const struct peers_part *p, FILE *f)
{
	unsigned int i;

	fprintf(f, "%u. %s\n", p->id, esc_text(p->title).s);
	if (p->nset) {
		/* the first comparison's labels name the sides */
		const char *a = p->ncmp ? p->cmp[0].side[PEERS_OURS].label : "ours";
		const char *b = p->ncmp ? p->cmp[0].side[PEERS_PEER].label : "peer";

		fprintf(f, "   %-16s %-34s %s\n", "setting", esc_text(a).s, esc_text(b).s);
		for (i = 0; i < p->nset; i++) {
			const struct peers_setting *s = &p->set[i];

			fprintf(f, "   %-16s %-34s %s\n", esc_text(s->what).s, esc_text(s->ours).s,
				esc_text(s->peer).s);
			if (s->note[0])
				fprintf(f, "   %-16s (differs: %s)\n", "",
					esc_text(s->note).s);
		}
	}
	for (i = 0; i < p->nnote; i++)
		fprintf(f, "   %s\n", esc_text(p->note[i]).s);
	for (i = 0; i < p->ncmp; i++)
		print_cmp(&p->cmp[i], f);
}

void peers_print_text(const struct peers_bench *b, FILE *f)
{
	unsigned int i;

	fprintf(f, "bench-peers: %s, %s, xdp-tools %s, %u runs of %g s a side, alternating\n",
		esc_text(b->kernel).s, esc_text(b->cpu).s, esc_text(b->xdp_tools).s, b->runs, b->secs);
	fprintf(f, "(a run is disturbed when other work took more than %.0f%% of a CPU beside it; redone up to %u times)\n",
		100 * b->max_foreign, b->max_retries);
	for (i = 0; i < b->nparts; i++)
		print_part(&b->part[i], f);
}

/* "busy_frac": [CPU 0, CPU 1], or null when not taken */
static void json_busy(struct json *j, const double *busy)
{
	unsigned int c;

	json_key(j, "busy_frac");
	if (isnan(busy[0])) {
		json_null(j);
		return;
	}
	json_begin_array(j);
	for (c = 0; c < PEERS_BUSY_CPUS; c++)
		json_double(j, busy[c]);
	json_end_array(j);
}

static void json_side(struct json *j, const char *key,
		      const struct peers_side *sd, bool cpu_ns)
{
	unsigned int i;

	json_key(j, key);
	json_begin_object(j);
	json_kv_string(j, "label", sd->label);
	json_kv_string(j, "command", sd->cmd);
	json_key(j, "runs");
	json_begin_array(j);
	for (i = 0; i < sd->n; i++) {
		const struct peers_run *r = &sd->run[i];

		json_begin_object(j);
		json_kv_double(j, "pps", r->pps);
		json_kv_double(j, "foreign_frac", r->foreign);
		json_kv_double(j, "steal_frac", r->steal);
		json_kv_bool(j, "disturbed", r->disturbed);
		json_kv_u64(j, "retries", r->retries);
		json_kv_double(j, "rtt_before_ns", r->rtt_before);
		json_kv_double(j, "rtt_after_ns", r->rtt_after);
		json_kv_double(j, "offered_pps", r->offered);
		json_busy(j, r->busy);
		json_end_object(j);
	}
	json_end_array(j);
	json_kv_u64(j, "rated_runs", sd->rated);
	json_kv_u64(j, "disturbed_runs", sd->disturbed);
	json_kv_double(j, "median_pps", sd->median);
	json_kv_double(j, "min_pps", sd->min);
	json_kv_double(j, "max_pps", sd->max);
	json_kv_double(j, "rtt_median_ns", sd->rtt);
	json_kv_double(j, "took_share", sd->took);
	json_busy(j, sd->busy);
	/* cpu-ns: the *_pps figures are frames per CPU second (peers.h) */
	if (cpu_ns)
		json_kv_double(j, "median_cpu_ns", 1e9 / sd->median);
	json_end_object(j);
}

static const char *const limit_names[] = {
	[PEERS_LIMIT_UNKNOWN] = NULL,
	[PEERS_LIMIT_KERNEL] = "kernel",
	[PEERS_LIMIT_OURS] = "ours",
	[PEERS_LIMIT_PEER] = "peer",
	[PEERS_LIMIT_RECEIVERS] = "both-receivers",
};

static void json_cmp(struct json *j, const struct peers_cmp *c)
{
	unsigned int i;

	json_begin_object(j);
	json_kv_string(j, "name", c->name);
	json_kv_string(j, "skipped", c->skip[0] ? c->skip : NULL);
	json_side(j, "ours", &c->side[PEERS_OURS], c->cpu_ns);
	json_side(j, "peer", &c->side[PEERS_PEER], c->cpu_ns);
	json_kv_string(j, "limit", limit_names[c->limit]);
	json_kv_double(j, "ratio", c->ratio);
	json_kv_double(j, "ratio_ci_lo", c->ratio_lo);
	json_kv_double(j, "ratio_ci_hi", c->ratio_hi);
	json_kv_double(j, "ns_diff", c->ns_diff);
	json_kv_double(j, "ns_diff_ci_lo", c->ns_diff_lo);
	json_kv_double(j, "ns_diff_ci_hi", c->ns_diff_hi);
	json_kv_string(j, "ci", isnan(c->ratio_lo) ? "none" : "bootstrap");
	json_kv_u64(j, "pairs", c->npairs);
	json_kv_double(j, "paired_ratio", c->pair_ratio);
	json_kv_double(j, "paired_ratio_ci_lo", c->pair_lo);
	json_kv_double(j, "paired_ratio_ci_hi", c->pair_hi);
	json_kv_double(j, "paired_ratio_ci_coverage", c->pair_cover);
	json_key(j, "placements");
	json_begin_array(j);
	for (i = 0; c->nplace > 1 && i < c->nplace; i++) {
		const struct peers_place *pl = &c->place[i];

		json_begin_object(j);
		json_kv_double(j, "rtt_lo_ns", pl->rtt_lo);
		json_kv_double(j, "rtt_hi_ns", pl->rtt_hi);
		json_kv_u64(j, "ours_runs", pl->runs[PEERS_OURS]);
		json_kv_u64(j, "peer_runs", pl->runs[PEERS_PEER]);
		json_kv_double(j, "ours_median_pps", pl->median[PEERS_OURS]);
		json_kv_double(j, "peer_median_pps", pl->median[PEERS_PEER]);
		json_kv_double(j, "ratio", pl->ratio);
		json_kv_double(j, "ratio_ci_lo", pl->ratio_lo);
		json_kv_double(j, "ratio_ci_hi", pl->ratio_hi);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void json_part(struct json *j, const struct peers_part *p)
{
	unsigned int i;

	json_begin_object(j);
	json_kv_u64(j, "id", p->id);
	json_kv_string(j, "title", p->title);
	json_kv_string(j, "unit", p->cpu_ns ? "cpu-ns" : "pps");
	json_key(j, "settings");
	json_begin_array(j);
	for (i = 0; i < p->nset; i++) {
		json_begin_object(j);
		json_kv_string(j, "what", p->set[i].what);
		json_kv_string(j, "ours", p->set[i].ours);
		json_kv_string(j, "peer", p->set[i].peer);
		json_kv_string(j, "differs", p->set[i].note[0] ? p->set[i].note : NULL);
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "notes");
	json_begin_array(j);
	for (i = 0; i < p->nnote; i++)
		json_string(j, p->note[i]);
	json_end_array(j);
	json_key(j, "comparisons");
	json_begin_array(j);
	for (i = 0; i < p->ncmp; i++)
		json_cmp(j, &p->cmp[i]);
	json_end_array(j);
	json_end_object(j);
}

int peers_print_json(const struct peers_bench *b, FILE *f)
{
	struct json j;
	unsigned int i;

	json_init(&j, f, 2);
	json_begin_object(&j);
	json_kv_string(&j, "schema", "bench-peers/1");
	json_kv_string(&j, "kernel", b->kernel);
	json_kv_string(&j, "cpu", b->cpu);
	json_kv_string(&j, "xdp_tools", b->xdp_tools);
	json_kv_u64(&j, "runs", b->runs);
	json_kv_double(&j, "secs", b->secs);
	json_kv_double(&j, "max_foreign_frac", b->max_foreign);
	json_kv_u64(&j, "max_retries", b->max_retries);
	json_key(&j, "parts");
	json_begin_array(&j);
	for (i = 0; i < b->nparts; i++)
		json_part(&j, &b->part[i]);
	json_end_array(&j);
	json_end_object(&j);
	return json_finish(&j);
}
