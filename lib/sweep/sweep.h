/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep (xdp_sweep, Documentation/results.rst): one object model for
 * every row it measures.
 *
 * A sweep_point is one row: an XDP action's point (action x mode x size x
 * flows, lib/bench/rxq_bench) or a receive stack's rxdrop row (lib/bench/xsk_bench:
 * AF_XDP in a bind mode, or an AF_PACKET backend).  What measures it is
 * its backend, struct sweep_backend: open, run, close, and the figures of
 * a run; the runner (sweep_run.c) and the summary here know no more.
 *
 * The modules, each with one job:
 *   sweep_plan.c     the matrix of points of a configuration; summaries
 *   sweep_backend.c  the three backends
 *   sweep_run.c      the runner: set-up, interleaved rounds (ABBA for
 *                    A/B), disturbed runs redone, progress
 *   sweep_result.c   the xdp-sweep/1 JSON, written (sweep_result.h);
 *                    sweep_doc.c reads it back (sweep_doc.h,
 *                    Documentation/sweep.schema.json)
 *   sweep_compare.c  A/B: the guard, Welch, the report (sweep_compare.h)
 *   sweep_report.c   the table, the plot, the profiles' files, the A/B
 *                    report (sweep_report.h)
 */
#ifndef SWEEP_H
#define SWEEP_H

#include <stdbool.h>
#include <net/if.h>
#include <linux/types.h>

#include "err.h"
#include "opts.h"
#include "stats.h"
#include "sweep_doc.h"
#include "rxq_bench.h"
#include "xsk_bench.h"
#include "xsk_core.h"

#define SWEEP_MAX_REPEAT	OPTS_REPEAT_MAX
#define SWEEP_MAX_RETRIES	2	/* a disturbed run is redone this often */
#define SWEEP_WARMUP_TRIES	20	/* counted warm-up runs until one loses none */

/* The receive stacks' rows, in the order --stacks compares them */
enum sweep_stack_id {
	SWEEP_STK_AF_XDP_NATIVE,
	SWEEP_STK_AF_XDP_GENERIC,
	SWEEP_STK_TPACKET_V3,
	SWEEP_STK_TPACKET_V2,
	SWEEP_STK_RECVMMSG,
	SWEEP_NR_COMPARED,			/* --stacks: the ones above */
	SWEEP_STK_AF_XDP_ZC = SWEEP_NR_COMPARED, /* --rxdrop only: veth has none */
	SWEEP_NR_STACKS,
};

struct sweep_backend;

struct sweep_stack {
	const char *stack;	/* af_xdp, tpacket_v3, tpacket_v2, recvmmsg */
	/* af_xdp: native, generic, native-with-zerocopy; else NULL */
	const char *mode;
	const char *label;	/* the table's path column */
	const struct sweep_backend *be;
	enum afp_backend afp;
	enum xsk_mode xmode;
};

extern const struct sweep_stack sweep_stacks[SWEEP_NR_STACKS];

/* What a sweep measures, and how (one side of an A/B) */
struct sweep_cfg {
	struct opts_list actions, modes, sizes, flows;
	unsigned int repeat;
	double duration;
	double warmup;
	bool threaded;
	__u32 loop_k;
	__u32 spin_n;
	const char *pre_cmd;	/* run before each run of this side */
	unsigned int nstk;	/* receive stacks' rows: sweep_stacks[] */
	unsigned int stk[SWEEP_NR_STACKS];
	/* exact cost mode (Documentation/exact_cost.rst) */
	__u64 count;		/* counted runs: exactly this many frames */
	__u64 rate;		/* paced: frames per second, one per call */
	__u64 rxdrop_rate;	/* the stacks' pace (default: rate) */
	__u64 rxdrop_count;	/* the stacks' frames a run (default: count) */
	bool icount;		/* the clock counts guest instructions */
	const char *dev[2];	/* a connected NIC pair instead of veth */
	bool profile;		/* --profile */
	struct prof *prof;
};

/* One run of a point: the backend's result */
struct sweep_run {
	bool ok;
	int retries;
	/*
	 * The line round trip between CPUs 0 and 1 just before and after the
	 * run (lib/measure/line_rtt.h), ns; NaN: not taken.  A run one of whose
	 * figures is more than twice the other saw the host move a vCPU and
	 * counts as disturbed.
	 */
	double rtt_before, rtt_after;
	char err[ERR_LEN];
	union {
		struct rxq_result xdp;	/* an XDP action's point */
		struct xskb_result stk;	/* a receive stack's row */
	};
};

struct sweep_point {
	const struct sweep_backend *be;
	const struct sweep_stack *stk;	/* a receive stack's row; else NULL */
	__u32 action;			/* an XDP action's point: */
	bool skb_mode;
	__u32 flows;
	__u32 size;
	double prog_ns;			/* the program's own cost, -1: none */
	void *bench;			/* the backend's, while open */
	char err[ERR_LEN];		/* why it could not be opened */
	struct sweep_run runs[SWEEP_MAX_REPEAT];
	/* --profile: the kept runs' windows, and their files */
	struct prof_data *prof;
	char folded[600], svg[600];
	bool prof_written;
};

/* A run's figures, whatever measured it */
struct sweep_fig {
	double ns, mpps, app_ns;
	__u64 sent, counted, lost, xmit_errors, rx_drops;
	bool disturbed;
	const char *gen_method;
};

struct sweep_backend {
	const char *name;
	bool stack;		/* a receive stack's row (JSON "stacks") */
	/* set p->bench up (p->err says why not) */
	int (*open)(const struct sweep_cfg *c, struct sweep_point *p);
	/* one counted run of the warm-up, its error in p->err */
	int (*warm)(const struct sweep_cfg *c, struct sweep_point *p,
		    struct sweep_run *r);
	/* one measured run, its error in r->err */
	int (*run)(const struct sweep_cfg *c, struct sweep_point *p,
		   struct sweep_run *r);
	/*
	 * NULL, or: run r is the one the result keeps (ok, and not to be
	 * redone: the runner's verdict on disturbance, the line round trip's
	 * included, is in)
	 */
	void (*kept)(const struct sweep_cfg *c, struct sweep_point *p,
		     const struct sweep_run *r);
	void (*close)(struct sweep_point *p);
	void (*fig)(const struct sweep_cfg *c, const struct sweep_run *r,
		    struct sweep_fig *f);
	__u64 (*count)(const struct sweep_cfg *c);	/* frames a run, 0: timed */
	__u64 (*rate)(const struct sweep_cfg *c);	/* pace, 0: none */
};

extern const struct sweep_backend sweep_be_xdp, sweep_be_af_xdp,
	sweep_be_af_packet;

/* The summary of a point's ok runs */
struct sweep_summary {
	struct stats_summary ns, mpps, app_ns;
	double ns_lo, ns_hi;	/* the runs' least and greatest ns */
	unsigned int ok, disturbed;
	__u64 sent, counted, lost, xmit_errors, rx_drops;
	const char *gen_method;
};

/* sweep_plan.c */
const char *sweep_mode_name(bool skb);
int sweep_mode_parse(const char *s, __u32 *v);
int sweep_rxdrop_parse(const char *s, __u32 *v);
/* dev[0], dev[1] point into buf (of len); errors on stderr */
int sweep_devs_parse(const char *arg, char *buf, size_t len, const char **dev);
/*
 * The XDP matrix (actions x modes x sizes x flows), then (stacks) the
 * stacks' rows of each size up to SWEEP_STACK_MAX_SIZE; *nxdp of *n are
 * XDP points
 */
int sweep_plan(const struct sweep_cfg *c, bool stacks, struct sweep_point **pts,
	       unsigned int *n, unsigned int *nxdp);
void sweep_plan_free(struct sweep_point *pts, unsigned int n);
/* The sizes a receive stack takes (up to SWEEP_STACK_MAX_SIZE) */
unsigned int sweep_stack_sizes(const struct sweep_cfg *c);
/* The same matrix, measured as often */
bool sweep_same_plan(const struct sweep_cfg *a, const struct sweep_cfg *b);
void sweep_summarize(const struct sweep_cfg *c, const struct sweep_point *p,
		     struct sweep_summary *s);
/* "XDP_DROP", "native", "   1 fl" / "AF_XDP", "-", "rxdrop" */
const char *sweep_point_name(const struct sweep_point *p);
const char *sweep_point_mode(const struct sweep_point *p);
/*
 * Why run r of point p is not ok: its own error, else the point's set-up
 * error (a run never tried), else that the sweep stopped before it
 */
const char *sweep_run_why(const struct sweep_point *p,
			  const struct sweep_run *r);
const char *sweep_point_tag(const struct sweep_point *p, char *buf, size_t len);

/* sweep_run.c: sides[] of n points each (B's: the XDP points only) */
struct sweep_side {
	const struct sweep_cfg *cfg;
	struct sweep_point *pts;
	unsigned int n;
};

void sweep_run_all(const struct sweep_side *sides, unsigned int nsides);
void sweep_run_serial(const struct sweep_side *side);
/*
 * --profile, before any program loads (each must get its kallsyms name):
 * one sampler for a and b (NULL: no B), its window the longer run's
 */
int sweep_profile_open(struct sweep_cfg *a, struct sweep_cfg *b);
/* What is about to run, on stderr: n points a side */
void sweep_announce(const struct sweep_cfg *c, unsigned int n,
		    unsigned int nstk, bool ab, double ghz);

#endif /* SWEEP_H */
