// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's report: table, plot, profiles (lib/sweep/sweep_report.h)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"
#include "esc.h"
#include "profile.h"
#include "json_read.h"
#include "sweep_compare.h"
#include "sweep_report.h"

static unsigned int count_xdp(const struct sweep_point *pts, unsigned int n)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		k += !pts[i].stk;
	return k;
}

/* "XDP_DROP     native     64     1  failed: why" ("-": a stack's flows) */
static void print_failed(const struct sweep_point *p)
{
	char flows[16] = "-";

	if (!p->stk)
		snprintf(flows, sizeof(flows), "%u", p->flows);
	printf("%-12s %-7s %5u %5s  failed: %s\n", sweep_point_name(p),
	       sweep_point_mode(p), p->size, flows,
	       sweep_run_why(p, &p->runs[0]));
}

static void print_point(const struct sweep_point *p,
			const struct sweep_summary *s, double ghz)
{
	char ci[32] = "-";

	if (s->ns.ci_method != STATS_CI_NONE)
		snprintf(ci, sizeof(ci), "[%.1f, %.1f]", s->ns.ci_lo,
			 s->ns.ci_hi);
	printf("%-12s %-7s %5u %5u %8.3f %8.1f %19s %8.1f %9llu%s%s\n",
	       sweep_point_name(p), sweep_point_mode(p), p->size, p->flows,
	       s->mpps.median, s->ns.median, ci, s->ns.median * ghz,
	       (unsigned long long)s->lost,
	       s->lost ? (s->xmit_errors ? " peer-xmit" : " dut") : "",
	       s->disturbed ? " (disturbed runs)" : "");
}

static void print_stack(const struct sweep_point *p,
			const struct sweep_summary *s, double ghz)
{
	char ci[32] = "-", mci[32] = "";

	if (s->ns.ci_method != STATS_CI_NONE)
		snprintf(ci, sizeof(ci), "[%.1f, %.1f]", s->ns.ci_lo,
			 s->ns.ci_hi);
	if (s->mpps.ci_method != STATS_CI_NONE)
		snprintf(mci, sizeof(mci), " [%.3f, %.3f]", s->mpps.ci_lo,
			 s->mpps.ci_hi);
	printf("%-12s %-7s %5u %5s %8.3f %8.1f %19s %8.1f %9llu  Mpps CI%s, app %.1f ns/pkt%s\n",
	       sweep_point_name(p), sweep_point_mode(p), p->size, "-",
	       s->mpps.median, s->ns.median, ci, s->ns.median * ghz,
	       (unsigned long long)s->lost, mci, s->app_ns.median,
	       s->disturbed ? " (disturbed runs)" : "");
}

static void print_notes(unsigned int nxdp, unsigned int nstk, double ghz)
{
	if (nstk)
		printf("\nreceive stacks: rxdrop on the same veth traffic (the generator on CPU 0,\n"
		       "receiver on the other CPU; xdpsock's loops, lib/bench/xsk_bench); Mpps\n"
		       "counted by the receiving application, ns/pkt its NET_RX softirq time per\n"
		       "frame (all CPUs), app the receiving thread's time (it busy-polls); lost\n"
		       "is what the socket dropped (XDP_STATISTICS rx_dropped, PACKET_STATISTICS\n"
		       "tp_drops) in the windows; a run whose receiving thread was on a CPU for\n"
		       "less than half its window is disturbed and redone (twice at most)\n");
	if (!nxdp) {
		printf("cycles are TSC cycles at %.3f GHz; 95%% CI of the median (bootstrap below 6 runs)\n",
		       ghz);
		return;
	}
	printf("\ncycles are TSC cycles at %.3f GHz; ns/pkt is NET_RX softirq time per frame counted\n"
	       "(XDP_TX and XDP_REDIRECT include the peer's XDP_DROP of what comes back); 95%% CI\n"
	       "of the median (bootstrap below 6 runs); lost = frames the kernel dropped before\n"
	       "the program in the windows: peer-xmit (the dut's ring was full) or dut (rx drops)\n",
	       ghz);
}

/*
 * Under QEMU's -icount shift=0 the guest's ns are its instructions: the
 * median and the runs' relative spread ((max - min) / median) in insns
 */
static void print_point_icount(const struct sweep_point *p,
			       const struct sweep_summary *s)
{
	printf("%-12s %-7s %5u %5u %12.2f %9.4f%% %9u %9llu%s\n",
	       sweep_point_name(p), sweep_point_mode(p), p->size, p->flows,
	       s->ns.median, 100 * (s->ns_hi - s->ns_lo) / s->ns.median, s->ok,
	       (unsigned long long)s->lost, s->lost ? " LOST" : "");
}

static void print_stack_icount(const struct sweep_point *p,
			       const struct sweep_summary *s)
{
	if (!s->ok) {
		printf("%-20s %-20s %5u  failed: %s\n", sweep_point_name(p),
		       sweep_point_mode(p), p->size,
		       sweep_run_why(p, &p->runs[0]));
		return;
	}
	printf("%-20s %-20s %5u %12.2f %9.4f%% %5u %9llu %12.2f%s\n",
	       sweep_point_name(p), sweep_point_mode(p), p->size, s->ns.median,
	       100 * (s->ns_hi - s->ns_lo) / s->ns.median, s->ok,
	       (unsigned long long)s->lost, s->app_ns.median,
	       s->lost ? " LOST" : "");
}

static void print_table_icount(const struct sweep_cfg *c,
			       const struct sweep_point *pts, unsigned int n)
{
	unsigned int i, nxdp = count_xdp(pts, n);
	struct sweep_summary s;

	printf("\n%-12s %-7s %5s %5s %12s %10s %9s %9s\n", "path", "mode",
	       "size", "flows", "insns/pkt", "spread", "runs", "lost");
	for (i = 0; i < nxdp; i++) {
		sweep_summarize(c, &pts[i], &s);
		if (!s.ok)
			print_failed(&pts[i]);
		else
			print_point_icount(&pts[i], &s);
	}
	printf("\ninsns/pkt: guest instructions (icount) of the NET_RX softirq per frame counted,\n"
	       "median of the runs; spread: (max - min) / median of the runs; lost: sent but\n"
	       "not counted (counted runs) or dropped before the program\n");
	if (nxdp == n)
		return;
	printf("\n%-20s %-20s %5s %12s %10s %5s %9s %12s\n", "rxdrop",
	       "mode", "size", "insns/pkt", "spread", "runs", "lost",
	       "app insns");
	for (i = nxdp; i < n; i++) {
		sweep_summarize(c, &pts[i], &s);
		print_stack_icount(&pts[i], &s);
	}
	printf("\nrxdrop: AF_XDP rxdrop (xdpsock's loop), counted at the application%s;\n"
	       "insns/pkt its NET_RX softirq instructions per frame, app insns the receiving\n"
	       "thread's (schedstat: its own work, its poll() calls, and any softirq that\n"
	       "ran on its time), median of the runs\n",
	       pts[nxdp].be->count(c) ? ", which waits in poll()" : "");
}

/*
 * Which generator made the rows' frames: live frames are XDP frames handed
 * to the dut's ring; AF_XDP's are skbs sent by veth_xmit(), another path,
 * so rows of the two do not compare
 */
static void print_generators(const struct sweep_cfg *c,
			     const struct sweep_point *pts, unsigned int n)
{
	unsigned int i, live = 0, other = 0;
	struct sweep_summary s;

	for (i = 0; i < n; i++) {
		sweep_summarize(c, &pts[i], &s);
		if (!s.ok || !s.gen_method)
			continue;
		if (!strcmp(s.gen_method, "live-frames"))
			live++;
		else
			other++;
	}
	if (other)
		printf("generator: live frames for %u rows, AF_XDP (af_xdp-sg) for %u: frames past\n"
		       "the live-frames limit, or a kernel that refuses live frames (EPERM); the\n"
		       "dut gets AF_XDP's frames as skbs from veth_xmit(), not as XDP frames: rows\n"
		       "of the two generators do not compare (JSON: each point's gen_method)\n",
		       live, other);
}

static void sweep_print_table(const struct sweep_cfg *c, const struct sweep_point *pts,
		       unsigned int n, double ghz)
{
	unsigned int i, nxdp = count_xdp(pts, n);
	struct sweep_summary s;

	if (c->icount) {
		print_table_icount(c, pts, n);
		print_generators(c, pts, n);
		return;
	}
	printf("\n%-12s %-7s %5s %5s %8s %8s %19s %8s %9s\n", "path", "mode",
	       "size", "flows", "Mpps", "ns/pkt", "95% CI", "cycles", "lost");
	for (i = 0; i < n; i++) {
		sweep_summarize(c, &pts[i], &s);
		if (!s.ok)
			print_failed(&pts[i]);
		else if (pts[i].stk)
			print_stack(&pts[i], &s, ghz);
		else
			print_point(&pts[i], &s, ghz);
	}
	print_notes(nxdp, n - nxdp, ghz);
	print_generators(c, pts, n);
}

/* One block per size, a row per action: median, CI low, high per mode */
static int plot_data(const char *dat, const struct sweep_cfg *c,
		     const struct sweep_point *pts, unsigned int n)
{
	unsigned int i, a, m, z;
	const char *name;
	FILE *f = cli_open_out(dat);

	if (!f)
		return -1;
	for (z = 0; z < c->sizes.n; z++) {
		fprintf(f, "# %u bytes, flows %u\n", c->sizes.v[z],
			c->flows.v[0]);
		for (a = 0; a < c->actions.n; a++) {
			name = xdp_action_name(c->actions.v[a]);
			/* the x label says XDP_: DROP, TX, ... fit the ticks */
			if (!strncmp(name, "XDP_", 4))
				name += 4;
			fprintf(f, "%s", name);
			for (m = 0; m < c->modes.n; m++) {
				struct sweep_summary s = {};

				for (i = 0; i < n; i++)
					if (!pts[i].stk &&
					    pts[i].action == c->actions.v[a] &&
					    pts[i].skb_mode == c->modes.v[m] &&
					    pts[i].size == c->sizes.v[z] &&
					    pts[i].flows == c->flows.v[0])
						sweep_summarize(c, &pts[i], &s);
				if (!s.ok)
					fprintf(f, " NaN NaN NaN");
				else if (s.ns.ci_method)
					fprintf(f, " %.3f %.3f %.3f", s.ns.median,
						s.ns.ci_lo, s.ns.ci_hi);
				else
					fprintf(f, " %.3f %.3f %.3f", s.ns.median,
						s.ns.median, s.ns.median);
			}
			fprintf(f, "\n");
		}
		fprintf(f, "\n\n");
	}
	return cli_file_close(f) ? -1 : 0;
}

/*
 * A path as a gnuplot string: in single quotes, a quote in it doubled (the
 * only escape gnuplot reads there), so that the path stays a path
 */
static void gp_string(FILE *f, const char *path)
{
	fputc('\'', f);
	for (; *path; path++) {
		if (*path == '\'')
			fputc('\'', f);
		fputc(*path, f);
	}
	fputc('\'', f);
}

static int plot_script(const char *gp, const char *dat, const char *png,
		       const struct sweep_cfg *c)
{
	unsigned int m, z;
	FILE *f = cli_open_out(gp);

	if (!f)
		return -1;
	fprintf(f, "set terminal png size %u,600 noenhanced\nset output ",
		c->sizes.n > 1 ? 500 * c->sizes.n : 700);
	gp_string(f, png);
	fprintf(f, "\n");
	fprintf(f, "set multiplot layout 1,%u title 'XDP receive path cost per frame, NET_RX softirq ns (median, whisker: 95%% CI), %u flow(s)'\n",
		c->sizes.n, c->flows.v[0]);
	fprintf(f, "set style data histogram\nset style histogram errorbars gap 1 lw 1\n");
	fprintf(f, "set style fill solid 0.7 border -1\nset boxwidth 0.9\n");
	fprintf(f, "set grid ytics\nset yrange [0:*]\nset offsets 0, 0, graph 0.15, 0\n");
	fprintf(f, "set xtics scale 0 font ',10'\nset xrange [-0.6:%u.4]\n",
		c->actions.n - 1);
	fprintf(f, "set key top left\nset xlabel 'XDP action'\nset ylabel 'ns per frame'\n");
	for (z = 0; z < c->sizes.n; z++) {
		fprintf(f, "set title '%u-byte frames'\nplot ", c->sizes.v[z]);
		for (m = 0; m < c->modes.n; m++) {
			fprintf(f, "%s", m ? ", " : "");
			gp_string(f, dat);
			fprintf(f, " index %u using %u:%u:%u%s title '%s'", z,
				2 + 3 * m, 3 + 3 * m, 4 + 3 * m,
				m ? "" : ":xtic(1)",
				sweep_mode_name(c->modes.v[m]));
		}
		fprintf(f, "\nunset key\n");
	}
	fprintf(f, "unset multiplot\n");
	return cli_file_close(f) ? -1 : 0;
}

/*
 * The plot: one panel per frame size, in each a group of bars per action,
 * one bar per mode (native, generic), the median with its 95% CI as a
 * whisker.  Each panel has its own linear y axis, so that 64-byte and
 * 9000-byte costs are both readable.  Labels are literal (noenhanced:
 * gnuplot's enhanced text would turn XDP_DROP into XDP with a subscript).
 */
/*
 * The image made for gnuplot, removed while it is still empty (nothing
 * was drawn into it); whether it has content
 */
static bool unlink_empty(const char *png)
{
	struct stat st;

	if (lstat(png, &st) || !S_ISREG(st.st_mode))
		return false;
	if (st.st_size)
		return true;
	unlink(png);
	return false;
}

/*
 * 0, or 1 when a file of the plot could not be made (said): a lost plot
 * is exit 1, as a lost profile is.  gnuplot not there or failing is said
 * and is not an error of the run: the data stays.
 */
static int sweep_plot(const char *base, const struct sweep_cfg *c,
		      const struct sweep_point *pts, unsigned int n)
{
	char dat[SWEEP_BASE_LEN + 8], gp[SWEEP_BASE_LEN + 8], png[SWEEP_BASE_LEN + 8];
	const char *const argv[] = { "gnuplot", gp, NULL };
	const char *bad = NULL;
	FILE *f;
	int e;

	errno = 0;
	snprintf(dat, sizeof(dat), "%s.dat", base);
	snprintf(gp, sizeof(gp), "%s.gp", base);
	snprintf(png, sizeof(png), "%s.png", base);
	/*
	 * gnuplot follows a symlink at the image's name: the image is made
	 * here first, a regular file of ours (cli_open_out()), and gnuplot
	 * writes into it
	 */
	f = cli_open_out(png);
	e = f ? -cli_file_close(f) : errno;
	if (e)
		bad = png;
	else if (plot_data(dat, c, pts, n))
		bad = dat;
	else if (plot_script(gp, dat, png, c))
		bad = gp;
	if (bad) {
		fprintf(stderr, "xdp_sweep: the plot is lost: %s (%s)\n",
			esc_path(bad).s, strerror(e ?: errno ?: EIO));
		if (bad != png)
			unlink_empty(png);
		return 1;
	}
	/* no shell: the path is one argument, whatever it holds */
	e = cli_run_argv(argv);
	if (e || !unlink_empty(png)) {
		char why[64] = "wrote no image";

		if (e && cli_stop) {
			snprintf(why, sizeof(why),
				 "killed: a signal stopped the run, no plot");
		} else if (e) {
			snprintf(why, sizeof(why), "failed (");
			cli_status_text(e, why + 8, sizeof(why) - 9);
			strcat(why, ")");
		}
		fprintf(stderr, "xdp_sweep: gnuplot %s; the data is in %s\n",
			why, esc_path(dat).s);
		unlink_empty(png);
	} else {
		printf("plot: %s\n", esc_path(png).s);
	}
	return 0;
}

/* 0, or 1 when a profile's files could not be written (said) */
static int sweep_write_profiles(const char *base, const char *side,
				const struct sweep_cfg *c,
				struct sweep_point *pts, unsigned int n)
{
	char prefix[SWEEP_BASE_LEN + 200], title[300], err[ERR_LEN];
	struct prof_counts pc;
	unsigned int i;
	int lost = 0;

	for (i = 0; i < n; i++) {
		struct sweep_point *p = &pts[i];

		if (!p->prof)
			continue;
		prof_data_counts(p->prof, &pc);
		snprintf(prefix, sizeof(prefix), "%s%s-profile-%s-%s-%uB-%ufl",
			 base, side, xdp_action_name(p->action),
			 sweep_mode_name(p->skb_mode), p->size, p->flows);
		snprintf(title, sizeof(title), "xdp_sweep %s %s %u B %u flow%s: CPU %d, %s at %u Hz, %llu measured window%s",
			 xdp_action_name(p->action), sweep_mode_name(p->skb_mode),
			 p->size, p->flows, p->flows == 1 ? "" : "s", pc.cpu,
			 prof_event(c->prof), prof_freq(c->prof),
			 (unsigned long long)pc.windows,
			 pc.windows == 1 ? "" : "s");
		if (prof_write_files(p->prof, prefix, title, p->folded,
				     p->svg, sizeof(p->folded), err)) {
			fprintf(stderr, "xdp_sweep: --profile: %s\n", err);
			lost = 1;
		} else {
			p->prof_written = true;
		}
	}
	return lost;
}

static void sweep_print_profiles(const struct sweep_cfg *c,
			  const struct sweep_point *pts, unsigned int n)
{
	struct sweep_summary s;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct sweep_point *p = &pts[i];

		if (!p->prof)
			continue;
		sweep_summarize(c, p, &s);
		printf("\nprofile %s %s %u B %u flow%s (ns/pkt median %.1f): ",
		       xdp_action_name(p->action), sweep_mode_name(p->skb_mode),
		       p->size, p->flows, p->flows == 1 ? "" : "s",
		       s.ok ? s.ns.median : NAN);
		prof_print(stdout, c->prof, p->prof, s.ok ? s.ns.median : NAN,
			   "  ");
		if (p->prof_written)
			printf("  folded stacks %s\n  flame graph   %s\n",
			       esc_path(p->folded).s, esc_path(p->svg).s);
	}
}

/* A side's table, under its heading in an A/B, and its profiles */
static void print_side(const struct sweep_side *sw, const char *side,
		       double ghz)
{
	const struct sweep_cfg *c = sw->cfg;

	if (side)
		printf("\n%s: loop_k %u, spin_n %u%s%s\n", side, c->loop_k,
		       c->spin_n, c->pre_cmd ? ", before each run: " : "",
		       c->pre_cmd ?: "");
	sweep_print_table(c, sw->pts, sw->n, ghz);
	if (c->profile)
		sweep_print_profiles(c, sw->pts, sw->n);
}

int sweep_report(const struct sweep_report_opts *o,
		 const struct sweep_result_info *info)
{
	static const char *const sides[] = { "A", "B" }, *const tags[] = {
		"-a", "-b" };
	/* B differs from A on purpose (loop_k): --force, listed */
	const struct cmp_opts co = {
		.tool = "xdp_compare", .force = true, .level = o->level,
		.tolerance = o->tolerance, .max_input = JR_MAX_INPUT,
	};
	const bool ab = o->nsides == 2;
	struct cmp_verdict v;
	char path[2][SWEEP_BASE_LEN + 8];
	unsigned int sd;
	int ret = 0, lost = 0;

	for (sd = 0; sd < o->nsides && o->sw[0].cfg->profile; sd++)
		lost |= sweep_write_profiles(o->base, ab ? tags[sd] : "",
					     o->sw[sd].cfg, o->sw[sd].pts,
					     o->sw[sd].n);
	for (sd = 0; sd < o->nsides; sd++) {
		print_side(&o->sw[sd], ab ? sides[sd] : NULL, info->ghz);
		snprintf(path[sd], sizeof(path[sd]), "%s%s.json", o->base,
			 ab ? tags[sd] : "");
		ret = sweep_result_write(path[sd], info, o->sw[sd].cfg,
					 o->sw[sd].pts, o->sw[sd].n);
		if (ret) {
			fprintf(stderr, "xdp_sweep: writing %s: %s\n",
				esc_path(path[sd]).s, strerror(-ret));
			/* a result cut short is no result: ours, removed */
			unlink(path[sd]);
			return 1;
		}
	}
	if (o->plot && !ab && o->nxdp)
		lost |= sweep_plot(o->base, o->sw[0].cfg, o->sw[0].pts,
				   o->sw[0].n);
	if (ab) {
		printf("\n");
		fflush(stdout);
		if (cmp_files(path[0], path[1], &co, &v) || fflush(stdout))
			ret = 1;
		printf("\n%s\n", esc_path(path[0]).s);
	}
	printf("%s\n", esc_path(path[ab]).s);
	return ret ?: lost;
}
