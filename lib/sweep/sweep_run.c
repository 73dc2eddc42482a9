// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's runner (lib/sweep/sweep.h): every point set up, then measured in
 * rounds, each point once per round (interleaved, so that slow drift spreads
 * over every point alike), A/B as ABBA ABBA...; a disturbed run is redone
 * up to SWEEP_MAX_RETRIES times.  Every run carries the line round trip
 * between CPUs 0 and 1 before and after it (lib/measure/line_rtt.h): a run during
 * which the host moved a vCPU is disturbed too.  On a device pair, one point after the
 * other.  Progress on stderr.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "line_rtt.h"
#include "measure.h"
#include "profile.h"
#include "sweep.h"

struct progress {
	unsigned int done, all;
	__u64 t0;
};

/*
 * Counted runs have no warm-up of their own: runs not kept, until one
 * loses nothing (a NIC pair that has just come up loses the first frames:
 * QEMU's igb dropped whole runs of them here).  Paced, one more: on igb the
 * first run of 5000 frames after one that lost nothing still came out 2-3%
 * cheaper than the next ones (not after two; cause unknown)
 */
static int warm_up(const struct sweep_cfg *c, struct sweep_point *p)
{
	struct sweep_run *r = calloc(1, sizeof(*r));
	struct sweep_fig f;
	int ret = 0, i, warm = 0;

	if (!r)
		return err_set(p->err, -ENOMEM, "warm-up");
	for (i = 0; !ret && p->be->count(c) && c->warmup > 0; i++) {
		ret = p->be->warm(c, p, r);
		if (ret)
			break;
		p->be->fig(c, r, &f);
		if (!f.lost && (!p->be->rate(c) || warm++))
			break;
		if (i == SWEEP_WARMUP_TRIES - 1)
			ret = err_set(p->err, -EIO, "warm-up: every one of %d runs lost frames (%llu of %llu in the last)",
				      SWEEP_WARMUP_TRIES,
				      (unsigned long long)f.lost,
				      (unsigned long long)f.sent);
		else
			usleep(100000);
	}
	free(r);
	return ret;
}

static int open_point(const struct sweep_cfg *c, struct sweep_point *p)
{
	int ret = p->be->open(c, p) ?: warm_up(c, p);

	if (ret && p->bench)
		p->be->close(p);
	return ret;
}

static int measure(const struct sweep_cfg *c, struct sweep_point *p,
		   struct sweep_run *run)
{
	if (c->pre_cmd) {
		int st = cli_run_shell(c->pre_cmd);

		if (st && cli_stop) {
			snprintf(run->err, sizeof(run->err),
				 "'%.200s' killed: a signal stopped the run",
				 c->pre_cmd);
			return -ECANCELED;
		}
		if (st) {
			char why[64];

			snprintf(run->err, sizeof(run->err), "'%.200s' failed (%s)",
				 c->pre_cmd, cli_status_text(st, why, sizeof(why)));
			return -ECANCELED;
		}
	}
	if (!p->bench) {
		snprintf(run->err, sizeof(run->err), "%s", p->err);
		return -ENODEV;
	}
	return p->be->run(c, p, run);
}

/* Run rep of a point, redone when disturbed, with its progress line */
static void round_of(const struct sweep_cfg *c, struct sweep_point *p,
		     unsigned int rep, const char *side, struct progress *pr)
{
	struct sweep_run *run = &p->runs[rep];
	struct sweep_fig f;
	char tag[16];

	do {
		run->rtt_before = line_rtt_take(0, 1, NULL, NULL);
		run->ok = !measure(c, p, run);
		run->rtt_after = line_rtt_take(0, 1, NULL, NULL);
		if (run->ok && line_rtt_moved(run->rtt_before, run->rtt_after,
					      LINE_RTT_MOVED)) {
			if (p->stk)
				run->stk.disturbed = true;
			else
				run->xdp.disturbed = true;
		}
		if (run->ok)
			p->be->fig(c, run, &f);
	} while (run->ok && f.disturbed && run->retries++ < SWEEP_MAX_RETRIES);
	if (run->ok && p->be->kept)
		p->be->kept(c, p, run);
	fprintf(stderr, "\r[%3u/%3u] %5.0f s  round %u/%u %s %-12s %-7s %5u B %-7s: %s",
		++pr->done, pr->all, (mono_ns() - pr->t0) / 1e9, rep + 1,
		c->repeat, side, sweep_point_name(p), sweep_point_mode(p),
		p->size, sweep_point_tag(p, tag, sizeof(tag)),
		run->ok ? "ok        " : "FAILED    ");
	if (!run->ok)
		fprintf(stderr, "\n  %s\n", run->err);
}

static void setup(const struct sweep_cfg *c, struct sweep_point *p,
		  unsigned int i, unsigned int n)
{
	char tag[16];

	fprintf(stderr, "\r[setup %3u/%3u] %-12s %-7s %5u B %s", i + 1, n,
		sweep_point_name(p), sweep_point_mode(p), p->size,
		sweep_point_tag(p, tag, sizeof(tag)));
	if (c->dev[0])
		fprintf(stderr, " on %s,%s", c->dev[0], c->dev[1]);
	if (open_point(c, p))
		fprintf(stderr, "\n  %s\n", p->err);
}

/*
 * Every point's pair and program stay set up for the whole sweep; then
 * every point once per round, A/B as ABBA ABBA..., so that neither side
 * always runs first (an order effect would otherwise look like a
 * difference).  Side A may have more points than B (the stacks' rows):
 * they run after the ones both have.
 */
void sweep_run_all(const struct sweep_side *sides, unsigned int nsides)
{
	struct progress pr = { .t0 = mono_ns() };
	const unsigned int n = sides[0].n;
	unsigned int i, k, sd, rep;

	for (sd = 0; sd < nsides; sd++)
		pr.all += sides[sd].n * sides[0].cfg->repeat;

	for (i = 0; i < n && !cli_stop; i++)
		for (sd = 0; sd < nsides; sd++)
			if (i < sides[sd].n)
				setup(sides[sd].cfg, &sides[sd].pts[i], i, n);
	fprintf(stderr, "\n");
	for (rep = 0; rep < sides[0].cfg->repeat && !cli_stop; rep++) {
		for (i = 0; i < n && !cli_stop; i++) {
			for (k = 0; k < nsides && !cli_stop; k++) {
				sd = nsides == 2 ? k ^ (rep & 1) : 0;
				if (i < sides[sd].n)
					round_of(sides[sd].cfg, &sides[sd].pts[i],
						 rep, nsides == 2 && !sides[sd].pts[i].stk ?
						 (sd ? "B" : "A") : "", &pr);
			}
		}
	}
	fprintf(stderr, "\n");
	for (sd = 0; sd < nsides; sd++)
		for (i = 0; i < sides[sd].n; i++)
			if (sides[sd].pts[i].bench)
				sides[sd].pts[i].be->close(&sides[sd].pts[i]);
}

/*
 * A device pair serves one point at a time: set a point up, run all its
 * repeats, take it down, and on to the next.  Nothing drifts under an
 * instruction-counting clock, which is what this is for.
 */
void sweep_run_serial(const struct sweep_side *side)
{
	const struct sweep_cfg *c = side->cfg;
	struct progress pr = { .all = side->n * c->repeat, .t0 = mono_ns() };
	unsigned int i, rep;

	for (i = 0; i < side->n && !cli_stop; i++) {
		struct sweep_point *p = &side->pts[i];

		setup(c, p, i, side->n);
		for (rep = 0; rep < c->repeat && !cli_stop; rep++)
			round_of(c, p, rep, "", &pr);
		if (p->bench)
			p->be->close(p);
	}
	fprintf(stderr, "\n");
}

void sweep_announce(const struct sweep_cfg *c, unsigned int n,
		    unsigned int nstk, bool ab, double ghz)
{
	if (c->count)
		fprintf(stderr, "xdp_sweep: %u points x %u runs of %llu frames (%s warm-up run) on %s%s%s; %s; NAPI %s\n",
			n, c->repeat, (unsigned long long)c->count,
			c->warmup > 0 ? "+ a" : "no",
			c->dev[0] ?: "veth", c->dev[0] ? "," : "",
			c->dev[0] ? c->dev[1] : "",
			c->icount ? "guest instructions (icount)" : "ns",
			c->threaded ? "threaded" : "default");
	else
		fprintf(stderr, "xdp_sweep: %u points%s x %u runs of %.1f s (+%.1f s warm-up)%s; TSC %.3f GHz; NAPI %s\n",
			n, nstk ? " (with receive stacks)" : "", c->repeat,
			c->duration, c->warmup,
			ab ? ", A and B interleaved" : "", ghz,
			c->threaded ? "threaded" : "default");
}

int sweep_profile_open(struct sweep_cfg *a, struct sweep_cfg *b)
{
	char err[ERR_LEN];
	double window = a->count ? 10 : a->duration + 0.5;

	if (b)
		window = fmax(window, b->duration + 0.5);
	if (prof_open(&a->prof, window, err)) {
		fprintf(stderr, "xdp_sweep: --profile: %s\n", err);
		return -1;
	}
	if (b)
		b->prof = a->prof;
	return 0;
}
