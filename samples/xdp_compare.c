// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_compare - A/B report of two xdp_sweep results for patch review: for
 * every point in both, the change of the median ns/pkt (in %, ns and TSC
 * cycles), of the median Mpps, and a 95% CI of the ns difference (Welch's
 * t on the runs), with a mark when the change is not told from noise.
 * Receive-stack rows (xdp_sweep --stacks, --rxdrop) are compared as well:
 * their NET_RX cost and the application thread's.
 * Refuses results from different machines, tool versions or measurement
 * options unless --force.  Documentation/compare.rst.
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "json.h"
#include "json_read.h"
#include "rxq_bench.h"
#include "stats.h"

#define TOOL		"xdp_compare"
#define SCHEMA		"xdp-sweep/1"
#define WIDTH		72	/* the text pastes into a mail reply */
#define TSC_TOL		0.01	/* tsc_ghz may differ by 1% */
#define MAX_DIFFS	16
#define MAX_EXPECT	32	/* --expect rules */

/* A point or a stack's row, and what the two sides' are matched by */
struct item {
	const struct jr_value *v;
	size_t index;		/* in points[] or stacks[] */
	char key[80];		/* "p XDP_DROP native 64 1", "s af_xdp - 64" */
};

struct side {
	const char *path;
	struct jr_value *root;
	const char *version, *started;
	const char *release, *config, *cpu, *napi;
	const char *unit;	/* "ns", or "insns" under QEMU -icount */
	const char *driver;	/* of a NIC pair (options.devs); else NULL */
	const char *run_lock;	/* how it ran beside other runs; NULL: not said */
	bool interrupted;
	double ghz;
	const struct jr_value *opts;
	/* what is compared: the points, then the stacks' rows */
	struct item *items;
	size_t nitems;
	struct item **sorted;	/* items by key */
};

struct diff {
	const char *field;
	char a[128], b[128];
};

struct sample {
	size_t n;
	double *ns, *mpps;
	double ns_med, mpps_med;
};

/*
 * --expect [LABEL-GLOB=]WHAT[/PCT]: what the change of the rows whose label
 * matches must be (the last rule that matches a row decides it)
 */
enum expect_kind {
	EXPECT_SHOWN,		/* shown, not judged */
	EXPECT_DELTA,		/* B - A within the room of delta ("no-change": 0) */
	EXPECT_DEARER,		/* significant and beyond the room, up */
	EXPECT_CHEAPER,		/* ... down */
};

struct expect {
	const char *text;	/* as given, for the report */
	char glob[96];
	enum expect_kind kind;
	double delta;		/* EXPECT_DELTA, in the cost unit */
	double tolerance;	/* its /PCT; < 0: --tolerance's */
	unsigned int rows;	/* rows its glob matched */
};

struct expects {
	unsigned int n;
	struct expect r[MAX_EXPECT];
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
	const struct expect *exp;
	double room;
	enum verdict verdict;
};

/*
 * What a number must be: in min..max, above 0 if positive, whole.  A run's
 * cost and rate are positive and within what a measurement gives, which
 * also keeps every difference, ratio and CI of them finite.
 */
struct range {
	double min, max;
	bool positive, whole;
};

static const struct range figure = { 1e-3, 1e12, true, false };
static const struct range positive = { 0, 1e12, true, false };
static const struct range non_negative = { 0, 1e12, false, false };
static const struct range count = { 0, 1e12, false, true };
static const struct range positive_count = { 1, 1e12, true, true };
static const struct range ghz = { 0, 1000, true, false };

/* Measurement options that must match: numbers in "options" */
static const struct {
	const char *key;
	const struct range *r;
} num_opts[] = {
	{ "repeat", &positive_count }, { "duration_s", &positive },
	{ "warmup_s", &non_negative }, { "loop_k", &count },
	{ "spin_n", &count },
};
/* ... and those that only newer results have */
static const char *const opt_opts[] = { "count", "rate_pps" };

/* The names xdp_sweep writes */
static const char *const units[] = { "ns", "insns", NULL };
static const char *const napis[] = { "default", "threaded", NULL };
static const char *const run_locks[] = { "exclusive", "exclusive-overlapped",
					 "concurrent-allowed", "concurrent-seen",
					 NULL };
static const char *const modes[] = { "native", "generic", NULL };
static const char *const stacks[] = { "af_xdp", "tpacket_v3", "tpacket_v2",
				      "recvmmsg", NULL };
static const char *const stack_modes[] = { "native", "generic",
					   "native-with-zerocopy", NULL };

/* Confidence level of the CI and of "significant", in % */
static double ci_level = 95;
/* --tolerance: a change within this many % of A is "no change" (< 0: off) */
static double tolerance = -1;
/* --expect's rules; --floor and --spread: the room they all get */
static struct expects expects;
static double expect_floor;
static bool expect_spread;
/* --max-input: a larger file is refused */
static __u64 max_input = JR_MAX_INPUT;

/* "ns" or "insns" (A's options.cost_unit) */
static bool insns;

struct config {
	bool json, force, spread;
	double level, tolerance, floor;
	__u64 max_input;
	struct expects expects;
};

#define ABOUT \
	"Compare two xdp_sweep results (B against A) point by point, for review:\n" \
	"change of the median ns/pkt in %, ns and TSC cycles (at A's TSC GHz),\n" \
	"Mpps change, CI of the ns difference (Welch), noise marked.\n\n"
#define NOTES \
	"\n--expect RULE: [LABEL-GLOB=]WHAT[/PCT], WHAT one of no-change, dearer,\n" \
	"cheaper, shown, or a change +X (in ns, or insns under -icount); the last\n" \
	"rule whose glob matches a row's label (\"XDP_TX native 64B 1 flow\") decides\n" \
	"it (no glob: every row); rows no rule matches are shown.  A change is as\n" \
	"expected within its room: PCT% (else --tolerance, else 0) of A's median,\n" \
	"at least --floor, and with --spread at least the spread (max - min) of A's\n" \
	"ok runs plus B's; dearer and cheaper: significant and beyond the room.\n" \
	"\nExit status: 0 compared (and every --expect met), 1 refused or unreadable\n" \
	"input, 2 bad usage, 3 a row not as expected or a rule that matched none.\n" \
	"Changed: -f, -l, -t and -m are gone (long names only): in the other tools\n" \
	"they are --flows, --l2fwd, --txonly and --modes.\n"

/* --expect [LABEL-GLOB=]WHAT[/PCT] */
static int set_expect(const struct opt *o, void *c, const char *arg)
{
	struct config *cfg = c;
	const char *eq = strrchr(arg, '='), *what = eq ? eq + 1 : arg;
	struct expect *e = &cfg->expects.r[cfg->expects.n];
	char word[32], *end;
	size_t len, wl;
	const char *slash;

	if (cfg->expects.n >= MAX_EXPECT) {
		fprintf(stderr, "%s: --%s: more than %d rules\n", TOOL, o->name,
			MAX_EXPECT);
		return -EINVAL;
	}
	len = eq ? (size_t)(eq - arg) : 1;
	if (len >= sizeof(e->glob) || !len) {
		fprintf(stderr, "%s: --%s '%s': the label glob is %s\n", TOOL,
			o->name, arg, len ? "longer than 95 characters" : "empty");
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
		e->kind = EXPECT_DELTA;
	} else if (!strcmp(word, "dearer")) {
		e->kind = EXPECT_DEARER;
	} else if (!strcmp(word, "cheaper")) {
		e->kind = EXPECT_CHEAPER;
	} else if (!strcmp(word, "shown")) {
		e->kind = EXPECT_SHOWN;
	} else {
		e->kind = EXPECT_DELTA;
		errno = 0;
		e->delta = strtod(word, &end);
		if (!word[0] || *end || errno || !isfinite(e->delta) ||
		    fabs(e->delta) > 1e12)
			goto bad;
	}
	if (slash) {
		errno = 0;
		e->tolerance = strtod(slash + 1, &end);
		if (!slash[1] || *end || errno || !(e->tolerance >= 0) ||
		    e->tolerance > 100 || e->kind == EXPECT_SHOWN)
			goto bad;
	}
	cfg->expects.n++;
	return 0;
bad:
	fprintf(stderr, "%s: --%s '%s': not [LABEL-GLOB=]WHAT[/PCT] with WHAT no-change, dearer, cheaper, shown or a change +X, PCT 0..100\n",
		TOOL, o->name, arg);
	return -EINVAL;
}

static const struct opt rows[] = {
	OPTS_JSON(struct config, json, "one JSON object instead of the text report"),
	{ OPTS_ROW(OPT_FLAG, "force", 0, struct config, force, NULL,
		   "compare even when machine, tool version or options differ") },
	{ OPTS_ROW(OPT_DOUBLE, "level", 0, struct config, level, "P",
		   "confidence level of the CI in %, 50..99.999"),
	  .dmin = 50, .dmax = 99.999 },
	{ OPTS_ROW(OPT_DOUBLE, "tolerance", 0, struct config, tolerance, "PCT",
		   "a change within PCT% of A is \"no change\" (the measured spread, for exact icount results)"),
	  .dmin = 0, .dmax = 100, .def = "off" },
	{ OPTS_ROW(OPT_FUNC, "expect", 0, struct config, expects, "RULE",
		   "what the rows' change must be (below); repeatable"),
	  .set = set_expect },
	{ OPTS_ROW(OPT_DOUBLE, "floor", 0, struct config, floor, "X",
		   "an expectation's room is at least X ns (insns under -icount)"),
	  .dmin = 0, .dmax = 1e12 },
	{ OPTS_ROW(OPT_FLAG, "spread", 0, struct config, spread, NULL,
		   "an expectation's room is at least the spread of A's runs plus B's") },
	{ OPTS_ROW(OPT_U64, "max-input", 0, struct config, max_input, "BYTES",
		   "refuse a larger file"), .min = 1, .max = 1ULL << 40 },
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL(TOOL, "[OPTIONS] A.json B.json", rows, struct config,
		  .about = ABOUT, .notes = NOTES, .args = true);

__attribute__((format(printf, 2, 3)))
static int bad(const struct side *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: not a valid sweep result: ", TOOL, s->path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

static int nomem(const struct side *s)
{
	fprintf(stderr, "%s: %s: out of memory\n", TOOL, s->path);
	return -ENOMEM;
}

/* "WHEREKEY is missing", or "... is an array, not a number" */
static int wrong_type(const struct side *s, const struct jr_value *v,
		      const char *where, const char *key, const char *want)
{
	enum jr_type t;

	if (!v)
		return bad(s, "%s%s is missing", where, key);
	t = jr_type(v);
	return bad(s, "%s%s is %s%s, not %s", where, key,
		   t == JR_NULL ? "" : t == JR_ARRAY || t == JR_OBJECT ? "an " : "a ",
		   jr_type_name(t), want);
}

/* Member key of o of type t; NULL (and *err set) when not */
static const struct jr_value *need(const struct side *s,
				   const struct jr_value *o, const char *where,
				   const char *key, enum jr_type t, int *err)
{
	static const char *const want[] = {
		[JR_BOOL] = "a boolean", [JR_NUMBER] = "a number",
		[JR_STRING] = "a string", [JR_ARRAY] = "an array",
		[JR_OBJECT] = "an object",
	};
	const struct jr_value *v = jr_get(o, key);

	if (*err)
		return NULL;
	if (v && jr_type(v) == t)
		return v;
	*err = wrong_type(s, v, where, key, want[t]);
	return NULL;
}

static const char *need_str(const struct side *s, const struct jr_value *o,
			    const char *where, const char *key, int *err)
{
	return jr_str(need(s, o, where, key, JR_STRING, err));
}

/* A string that is one of names */
static const char *need_name(const struct side *s, const struct jr_value *o,
			     const char *where, const char *key,
			     const char *const *names, int *err)
{
	const char *v = need_str(s, o, where, key, err);
	char list[128] = "";
	size_t i, n = 0;

	if (!v)
		return NULL;
	for (i = 0; names[i]; i++) {
		if (!strcmp(v, names[i]))
			return v;
		n += snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
			      names[i]);
	}
	*err = bad(s, "%s%s is \"%.64s\", not one of %s", where, key, v, list);
	return NULL;
}

/* A number in range r */
static double need_num(const struct side *s, const struct jr_value *o,
		       const char *where, const char *key,
		       const struct range *r, int *err)
{
	double v = jr_num(need(s, o, where, key, JR_NUMBER, err));

	if (isnan(v))
		return v;
	if (r->positive && v <= 0)
		*err = bad(s, "%s%s: %g is not a positive number", where, key, v);
	else if (v < 0)
		*err = bad(s, "%s%s: %g is negative", where, key, v);
	else if (r->whole && v != floor(v))
		*err = bad(s, "%s%s: %g is not a whole number", where, key, v);
	else if (v < r->min || v > r->max)
		*err = bad(s, "%s%s: %g is out of range (%g..%g)", where, key,
			   v, r->min, r->max);
	return *err ? NAN : v;
}

static void label(char *buf, size_t len, const struct jr_value *p,
		  const char *field);

/*
 * A row's runs (row names it, "points[3] (XDP_DROP native 64B 1 flow): "):
 * an array of objects, each with ok, an ok run with its figures (app: the
 * application's too)
 */
static int check_runs(const struct side *s, const struct jr_value *p,
		      const char *row, bool app)
{
	const struct jr_value *runs = jr_get(p, "runs");
	int err = 0;
	size_t k;

	if (!runs || jr_type(runs) != JR_ARRAY)
		return wrong_type(s, jr_get(p, "runs"), row, "runs", "an array");
	for (k = 0; k < jr_len(runs) && !err; k++) {
		const struct jr_value *r = jr_at(runs, k);
		const struct jr_value *ok;
		char run[32], where[192];

		snprintf(run, sizeof(run), "runs[%zu]", k);
		if (jr_type(r) != JR_OBJECT)
			return wrong_type(s, r, row, run, "an object");
		snprintf(where, sizeof(where), "%s%s.", row, run);
		ok = need(s, r, where, "ok", JR_BOOL, &err);
		if (!ok || !jr_bool(ok))
			continue;
		need_num(s, r, where, "ns_per_pkt", &figure, &err);
		if (app)
			need_num(s, r, where, "app_ns_per_pkt", &figure, &err);
		need_num(s, r, where, "pps", &figure, &err);
	}
	return err;
}

/*
 * points[i] (stack: stacks[i]) as item it: what names it (action or stack,
 * mode, size, flows), its key, its runs
 */
static int check_item(const struct side *s, struct item *it, bool stack)
{
	const char *what = stack ? "stacks" : "points";
	const struct jr_value *p = it->v, *mode = NULL;
	char where[160], lbl[128];
	int err = 0;

	snprintf(where, sizeof(where), "%s[%zu]", what, it->index);
	if (jr_type(p) != JR_OBJECT)
		return wrong_type(s, p, "", where, "an object");
	snprintf(where, sizeof(where), "%s[%zu].", what, it->index);
	if (stack) {
		need_name(s, p, where, "stack", stacks, &err);
		/* AF_PACKET's rows have none */
		mode = jr_get(p, "mode");
		if (!mode || jr_type(mode) != JR_NULL)
			need_name(s, p, where, "mode", stack_modes, &err);
		need_num(s, p, where, "size", &positive_count, &err);
	} else {
		const char *action = need_str(s, p, where, "action", &err);
		__u32 a;

		for (a = 0; action && a <= XDP_REDIRECT; a++)
			if (!strcmp(action, rxq_action_name(a)))
				break;
		if (action && a > XDP_REDIRECT)
			err = bad(s, "%saction is \"%.64s\", not an XDP action (XDP_DROP, ...)",
				  where, action);
		need_name(s, p, where, "mode", modes, &err);
		need_num(s, p, where, "size", &positive_count, &err);
		need_num(s, p, where, "flows", &positive_count, &err);
	}
	if (err)
		return err;
	if (stack)
		snprintf(it->key, sizeof(it->key), "s %s %s %.0f",
			 jr_str(jr_get(p, "stack")), jr_str(mode) ?: "-",
			 jr_num(jr_get(p, "size")));
	else
		snprintf(it->key, sizeof(it->key), "p %s %s %.0f %.0f",
			 jr_str(jr_get(p, "action")), jr_str(jr_get(p, "mode")),
			 jr_num(jr_get(p, "size")), jr_num(jr_get(p, "flows")));
	label(lbl, sizeof(lbl), p, NULL);
	snprintf(where, sizeof(where), "%s[%zu] (%s): ", what, it->index, lbl);
	return check_runs(s, p, where, stack);
}

static int by_key(const void *x, const void *y)
{
	const struct item *a = *(const struct item *const *)x;
	const struct item *b = *(const struct item *const *)y;

	return strcmp(a->key, b->key) ?: (a < b ? -1 : a > b);
}

/* The items sorted by key; two with one key are refused */
static int sort_items(struct side *s)
{
	size_t i;

	s->sorted = calloc(s->nitems, sizeof(*s->sorted));
	if (!s->sorted)
		return nomem(s);
	for (i = 0; i < s->nitems; i++)
		s->sorted[i] = &s->items[i];
	qsort(s->sorted, s->nitems, sizeof(*s->sorted), by_key);
	for (i = 0; i + 1 < s->nitems; i++) {
		const struct item *p = s->sorted[i], *q = s->sorted[i + 1];
		const char *what = p->key[0] == 's' ? "stacks" : "points";
		char lbl[128];

		if (strcmp(p->key, q->key))
			continue;
		label(lbl, sizeof(lbl), q->v, NULL);
		return bad(s, "%s[%zu] (%s): the same %s as %s[%zu]", what,
			   q->index, lbl, p->key[0] == 's' ? "row" : "point",
			   what, p->index);
	}
	return 0;
}

static int load(struct side *s, const char *path)
{
	const struct jr_value *env, *points, *st, *devs, *unit;
	char msg[JR_ERRLEN + 512];
	const char *schema, *tool;
	size_t i, npoints;
	int err = 0;

	s->path = path;
	err = jr_parse_file(path, max_input, &s->root, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "%s: %s%s\n", TOOL, msg,
			err == -EFBIG ? " (--max-input)" : "");
		return err;
	}
	if (jr_type(s->root) != JR_OBJECT) {
		fprintf(stderr, "%s: %s: not an xdp_sweep result: the document is %s, not an object\n",
			TOOL, path, jr_type_name(jr_type(s->root)));
		return -EINVAL;
	}
	schema = jr_str(jr_get(s->root, "schema"));
	if (!schema || strcmp(schema, SCHEMA)) {
		fprintf(stderr, "%s: %s: not an xdp_sweep result: schema is %s%.64s%s, expected \"%s\"\n",
			TOOL, path, schema ? "\"" : "", schema ?: "not a string",
			schema ? "\"" : "", SCHEMA);
		return -EINVAL;
	}
	tool = need_str(s, s->root, "", "tool", &err);
	if (tool && strcmp(tool, "xdp_sweep") && !err)
		err = bad(s, "tool is \"%.64s\", not \"xdp_sweep\"", tool);
	s->version = need_str(s, s->root, "", "version", &err);
	/* older results say neither */
	if (jr_get(s->root, "run_lock"))
		s->run_lock = need_name(s, s->root, "", "run_lock", run_locks,
					&err);
	if (jr_get(s->root, "interrupted"))
		s->interrupted = need(s, s->root, "", "interrupted", JR_BOOL,
				      &err) && jr_bool(jr_get(s->root,
							      "interrupted"));
	s->started = need_str(s, s->root, "", "started", &err);
	env = need(s, s->root, "", "env", JR_OBJECT, &err);
	s->release = need_str(s, env, "env.", "kernel_release", &err);
	s->config = need_str(s, env, "env.", "kernel_config_sha256", &err);
	s->cpu = need_str(s, env, "env.", "cpu_model", &err);
	s->napi = need_name(s, env, "env.", "napi", napis, &err);
	s->ghz = need_num(s, env, "env.", "tsc_ghz", &ghz, &err);
	s->opts = need(s, s->root, "", "options", JR_OBJECT, &err);
	for (i = 0; i < sizeof(num_opts) / sizeof(num_opts[0]); i++)
		need_num(s, s->opts, "options.", num_opts[i].key, num_opts[i].r,
			 &err);
	for (i = 0; i < sizeof(opt_opts) / sizeof(opt_opts[0]); i++)
		if (jr_get(s->opts, opt_opts[i]))
			need_num(s, s->opts, "options.", opt_opts[i], &count,
				 &err);
	/* older results have no cost_unit: ns */
	unit = jr_get(s->opts, "cost_unit");
	s->unit = unit ? need_name(s, s->opts, "options.", "cost_unit", units,
				   &err) : "ns";
	/* a NIC pair, or null: veth */
	devs = jr_get(s->opts, "devs");
	if (devs && jr_type(devs) == JR_ARRAY)
		s->driver = need_str(s, s->opts, "options.", "driver", &err);
	else if (devs && jr_type(devs) != JR_NULL && !err)
		err = wrong_type(s, devs, "options.", "devs", "an array or null");
	points = need(s, s->root, "", "points", JR_ARRAY, &err);
	st = jr_get(s->root, "stacks");
	if (st)
		need(s, s->root, "", "stacks", JR_ARRAY, &err);
	if (err)
		return err;
	npoints = jr_len(points);
	s->nitems = npoints + jr_len(st);
	if (!s->nitems)
		return bad(s, "no points (points is empty%s): nothing to compare",
			   st ? ", so is stacks" : "");
	s->items = calloc(s->nitems, sizeof(*s->items));
	if (!s->items)
		return nomem(s);
	for (i = 0; i < s->nitems && !err; i++) {
		struct item *it = &s->items[i];

		it->index = i < npoints ? i : i - npoints;
		it->v = i < npoints ? jr_at(points, i) : jr_at(st, it->index);
		err = check_item(s, it, i >= npoints);
	}
	return err ?: sort_items(s);
}

/* A receive stack's row, not an XDP action's */
static bool is_stack(const struct jr_value *p)
{
	return jr_str(jr_get(p, "stack"));
}

/* A stack's mode: null for AF_PACKET */
static const char *mode_of(const struct jr_value *p)
{
	return jr_str(jr_get(p, "mode")) ?: "-";
}

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
static void diff_num(const struct side *a, const struct side *b,
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
static unsigned int guard(const struct side *a, const struct side *b,
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
	for (i = 0; i < sizeof(num_opts) / sizeof(num_opts[0]); i++)
		diff_num(a, b, num_opts[i].key, d, &n);
	if (strcmp(a->napi, b->napi))
		add_diff_str(d, &n, "napi", a->napi, b->napi);
	/* counted runs and pacing, in results that have them (0: none) */
	for (i = 0; i < sizeof(opt_opts) / sizeof(opt_opts[0]); i++)
		diff_num(a, b, opt_opts[i], d, &n);
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

static int key_of(const void *key, const void *x)
{
	return strcmp(key, (*(const struct item *const *)x)->key);
}

/* s's item of it's key, or NULL */
static const struct item *find_item(const struct side *s,
				    const struct item *it)
{
	struct item **q = bsearch(it->key, s->sorted, s->nitems,
				  sizeof(*s->sorted), key_of);

	return q ? *q : NULL;
}

/* "XDP_TX native 64B 1 flow"; on a NIC pair "XDP_TX igb native 64B 1 flow" */
static const char *label_driver;

/* "AF_XDP rxdrop igb native-with-zerocopy 64B" (+ " app") */
static void stack_label(char *buf, size_t len, const struct jr_value *p,
			const char *field)
{
	const char *st = jr_str(jr_get(p, "stack"));
	char name[32];
	size_t i;

	/* af_xdp -> AF_XDP, tpacket_v3 -> TPACKET_V3; recvmmsg stays */
	for (i = 0; i + 1 < sizeof(name) && st[i]; i++)
		name[i] = strcmp(st, "recvmmsg") && st[i] >= 'a' && st[i] <= 'z' ?
			  st[i] - 'a' + 'A' : st[i];
	name[i] = '\0';
	snprintf(buf, len, "%s rxdrop%s%s %s %.0fB%s", name,
		 label_driver ? " " : "", label_driver ?: "", mode_of(p),
		 jr_num(jr_get(p, "size")),
		 field && !strcmp(field, "app_ns_per_pkt") ? " app" : "");
}


static void label(char *buf, size_t len, const struct jr_value *p,
		  const char *field)
{
	double flows = jr_num(jr_get(p, "flows"));

	if (is_stack(p)) {
		stack_label(buf, len, p, field);
		return;
	}
	snprintf(buf, len, "%s%s%s %s %.0fB %.0f flow%s",
		 jr_str(jr_get(p, "action")), label_driver ? " " : "",
		 label_driver ?: "", jr_str(jr_get(p, "mode")),
		 jr_num(jr_get(p, "size")), flows, flows == 1 ? "" : "s");
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

static int compute(struct row *r, double ghz)
{
	int ret;

	label(r->label, sizeof(r->label), r->pa, r->field);
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
		if (ci_level != 95) {
			/* the same t interval at another confidence level */
			double t = stats_t_quantile(0.5 + ci_level / 200, r->w.df);

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
	r->tolerated = tolerance >= 0 && fabs(r->d_pct) <= tolerance;
	return 0;
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
static void judge(struct row *r)
{
	struct expect *e = NULL;
	double tol;
	bool ok;
	unsigned int i;

	for (i = 0; i < expects.n; i++) {
		if (fnmatch(expects.r[i].glob, r->label, 0))
			continue;
		e = &expects.r[i];
		e->rows++;
	}
	r->exp = e;
	if (!e) {
		r->verdict = expects.n ? VERDICT_SHOWN : VERDICT_NONE;
		return;
	}
	if (e->kind == EXPECT_SHOWN) {
		r->verdict = VERDICT_SHOWN;
		return;
	}
	if (!r->a.n || !r->b.n) {
		r->verdict = VERDICT_FAIL;
		return;
	}
	tol = e->tolerance >= 0 ? e->tolerance : tolerance >= 0 ? tolerance : 0;
	r->room = fmax(tol / 100 * r->a.ns_med, expect_floor);
	if (expect_spread)
		r->room = fmax(r->room, spread_of(&r->a) + spread_of(&r->b));
	if (e->kind == EXPECT_DELTA)
		ok = fabs(r->d_ns - e->delta) <= r->room;
	else
		ok = r->have_ci && r->w.distinct &&
		     (e->kind == EXPECT_DEARER ? r->d_ns > r->room :
		      r->d_ns < -r->room);
	r->verdict = ok ? VERDICT_OK : VERDICT_FAIL;
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
static void legend(const struct side *a)
{
	char s1[96], s2[96], s3[96], s4[96];
	const char *seg[4] = { s1, s2, s3, s4 };

	s4[0] = '\0';
	if (insns) {
		snprintf(s1, sizeof(s1),
			 "B against A: change of the median guest instructions");
		snprintf(s2, sizeof(s2), "(icount) per packet of the ok runs; CI: %g%%",
			 ci_level);
		snprintf(s3, sizeof(s3), "of the mean difference (Welch's t on the runs)%s",
			 tolerance >= 0 ? ";" : "");
		if (tolerance >= 0)
			snprintf(s4, sizeof(s4), "no change: within %g%% of A (the measured spread)",
				 tolerance);
	} else {
		snprintf(s1, sizeof(s1),
			 "B against A: change of the median ns/pkt of the ok runs;");
		snprintf(s2, sizeof(s2), "cycles are TSC cycles at A's %.3f GHz;",
			 a->ghz);
		snprintf(s3, sizeof(s3),
			 "CI: %g%% of the mean ns difference (Welch's t on the runs)",
			 ci_level);
	}
	wrap(stdout, 0, 0, seg, 4);
	printf("\n");
}

/* Rows not as --expect says, and rules that matched no row */
static unsigned int expect_failed(const struct row *rows, size_t nrows)
{
	unsigned int n = 0, i;

	for (i = 0; i < nrows; i++)
		n += rows[i].verdict == VERDICT_FAIL;
	for (i = 0; i < expects.n; i++)
		n += !expects.r[i].rows;
	return n;
}

/* --expect: a line per row, "ok: LABEL: +10.02 insns, expected ..." */
static void expect_report(const struct row *rows, size_t nrows)
{
	const char *unit = insns ? "insns" : "ns";
	unsigned int ok = 0, shown = 0, i;
	char s1[160], s2[64], s3[96], v[32], w[32];
	const char *seg[3] = { s1, s2, s3 };

	if (!expects.n)
		return;
	printf("\nExpected (--expect):\n");
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		const struct expect *e = r->exp;
		bool runs = r->a.n && r->b.n;

		snprintf(s1, sizeof(s1), "%s: %s:", r->verdict == VERDICT_OK ?
			 "ok" : r->verdict == VERDICT_FAIL ? "FAIL" : "shown",
			 r->label);
		if (runs)
			snprintf(s2, sizeof(s2), "%s %s%s",
				 sgn(v, sizeof(v), r->d_ns, 2), unit,
				 r->verdict == VERDICT_SHOWN ? "" : ",");
		else
			snprintf(s2, sizeof(s2), "no ok runs in A or B%s",
				 r->verdict == VERDICT_SHOWN ? "" : ",");
		if (r->verdict == VERDICT_SHOWN)
			snprintf(s3, sizeof(s3), "(not judged%s)",
				 e ? "" : ": no rule");
		else if (e->kind == EXPECT_DELTA && !e->delta)
			snprintf(s3, sizeof(s3), "expected no change within %.2f",
				 r->room);
		else if (e->kind == EXPECT_DELTA)
			snprintf(s3, sizeof(s3), "expected %s within %.2f",
				 sgn(w, sizeof(w), e->delta, 2), r->room);
		else
			snprintf(s3, sizeof(s3), "expected %s (significant, beyond %.2f)",
				 e->kind == EXPECT_DEARER ? "dearer" : "cheaper",
				 r->room);
		if (!runs && r->verdict == VERDICT_FAIL)
			snprintf(s3, sizeof(s3), "expected %s", e->text);
		wrap(stdout, 0, 4, seg, 3);
		ok += r->verdict == VERDICT_OK;
		shown += r->verdict == VERDICT_SHOWN;
	}
	for (i = 0; i < expects.n; i++)
		if (!expects.r[i].rows)
			printf("FAIL: --expect '%s' matched no row compared\n",
			       expects.r[i].text);
	printf("expect: %u as expected, %u not, %u shown\n", ok,
	       expect_failed(rows, nrows), shown);
}

static void text_report(const struct side *a, const struct side *b,
			const struct diff *d, unsigned int nd,
			const struct row *rows, size_t nrows,
			const struct jr_value **only_a, size_t na,
			const struct jr_value **only_b, size_t nb)
{
	char s1[160], s2[160], s3[160], s4[160], s5[160], s6[64];
	unsigned int dearer = 0, cheaper = 0, noise = 0, unjudged = 0, i;
	const char *seg[8];

	snprintf(s1, sizeof(s1), "A: %s,", a->release);
	snprintf(s2, sizeof(s2), "started %s", a->started);
	seg[0] = s1;
	seg[1] = s2;
	wrap(stdout, 0, 3, seg, 2);
	snprintf(s1, sizeof(s1), "B: %s,", b->release);
	snprintf(s2, sizeof(s2), "started %s", b->started);
	wrap(stdout, 0, 3, seg, 2);
	if (strcmp(a->release, b->release)) {
		snprintf(s1, sizeof(s1), "kernel release differs: A %s,",
			 a->release);
		snprintf(s2, sizeof(s2), "B %s", b->release);
		wrap(stdout, 0, 2, seg, 2);
	}
	if (strcmp(a->config, b->config)) {
		snprintf(s1, sizeof(s1), "kernel config differs: A %.12s,",
			 a->config);
		snprintf(s2, sizeof(s2), "B %.12s (sha256)", b->config);
		wrap(stdout, 0, 2, seg, 2);
	}
	if (!strcmp(a->release, b->release) && !strcmp(a->config, b->config))
		printf("kernel: the same release and config in A and B\n");
	snprintf(s1, sizeof(s1), "env: %s,", a->cpu);
	snprintf(s2, sizeof(s2), "TSC %.3f GHz,", a->ghz);
	snprintf(s3, sizeof(s3), "napi %s,", a->napi);
	snprintf(s4, sizeof(s4), "xdp_sweep %s,", a->version);
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
	if (nd) {
		printf("NOT ALIKE, compared anyway (--force); B differs from A in:\n");
		for (i = 0; i < nd; i++) {
			snprintf(s1, sizeof(s1), "%s: A %s,", d[i].field,
				 d[i].a);
			snprintf(s2, sizeof(s2), "B %s", d[i].b);
			wrap(stdout, 2, 4, seg, 2);
		}
	}
	legend(a);
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		char pct[32], ns[32], cyc[32], lo[32], hi[32], mp[32];
		char head[160], delta[96], ci[96], mpps[64];
		unsigned int n = 0;

		snprintf(head, sizeof(head), "%s:", r->label);
		seg[n++] = head;
		if (!r->a.n || !r->b.n) {
			snprintf(delta, sizeof(delta), "no ok runs in %s%s%s",
				 r->a.n ? "" : "A", !r->a.n && !r->b.n ?
				 " and " : "", r->b.n ? "" : "B");
			seg[n++] = delta;
			wrap(stdout, 0, 4, seg, n);
			unjudged++;
			continue;
		}
		if (insns)
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
				 ci_level, sgn(lo, sizeof(lo), r->w.ci_lo, 1),
				 sgn(hi, sizeof(hi), r->w.ci_hi, 1),
				 insns ? "insns" : "ns", insns ? "" : ",");
		else
			snprintf(ci, sizeof(ci), "[no CI: %zu and %zu ok runs]%s",
				 r->a.n, r->b.n, insns ? "" : ",");
		seg[n++] = ci;
		/* the rate of an instruction-counting clock says nothing */
		snprintf(mpps, sizeof(mpps), "Mpps %s%%",
			 sgn(mp, sizeof(mp), r->mpps_pct, 1));
		if (!insns)
			seg[n++] = mpps;
		if (r->tolerated) {
			snprintf(mpps, sizeof(mpps), "(no change: within %g%%)",
				 tolerance);
			seg[n++] = mpps;
			noise++;
		} else if (!r->have_ci) {
			seg[n++] = "(too few runs to judge)";
			unjudged++;
		} else if (!r->w.distinct) {
			seg[n++] = "(no significant change)";
			noise++;
		} else if (r->w.diff > 0) {
			dearer++;
		} else {
			cheaper++;
		}
		wrap(stdout, 0, 4, seg, n);
	}
	for (i = 0; i < na + nb; i++) {
		char lbl[128];

		if (i == 0 || i == na)
			printf("\nOnly in %s (not compared):\n", i < na ? "A" : "B");
		label(lbl, sizeof(lbl), i < na ? only_a[i] : only_b[i - na],
		      NULL);
		printf("  %s\n", lbl);
	}
	/* the counts add up to the points: those not judged are said too */
	printf("\n%zu point%s compared: %u dearer, %u cheaper, %u no significant change",
	       nrows, nrows == 1 ? "" : "s", dearer, cheaper, noise);
	if (unjudged)
		printf(", %u not judged (no ok runs, or too few)", unjudged);
	printf("\n");
	expect_report(rows, nrows);
}

static void side_json(struct json *j, const char *key, const struct side *s)
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
	if (is_stack(p)) {
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

static int json_report(const struct side *a, const struct side *b,
		       const struct diff *d, unsigned int nd,
		       const struct row *rows, size_t nrows,
		       const struct jr_value **only_a, size_t na,
		       const struct jr_value **only_b, size_t nb)
{
	struct json j;
	unsigned int i;

	json_init(&j, stdout, 1);
	json_begin_object(&j);
	json_kv_string(&j, "tool", TOOL);
	json_kv_string(&j, "compares", "B against A");
	side_json(&j, "a", a);
	side_json(&j, "b", b);
	json_kv_bool(&j, "kernel_release_differs",
		     strcmp(a->release, b->release));
	json_kv_bool(&j, "kernel_config_differs", strcmp(a->config, b->config));
	json_key(&j, "options");
	json_begin_object(&j);
	for (i = 0; i < sizeof(num_opts) / sizeof(num_opts[0]); i++)
		json_kv_double(&j, num_opts[i].key,
			       jr_num(jr_get(a->opts, num_opts[i].key)));
	json_end_object(&j);
	json_kv_string(&j, "cost_unit", a->unit);
	json_kv_double(&j, "tolerance_pct", tolerance >= 0 ? tolerance : NAN);
	json_kv_string(&j, "cycles", "TSC cycles at A's tsc_ghz");
	json_kv_double(&j, "tsc_ghz", a->ghz);
	json_kv_string(&j, "tsc_ghz_of", "A");
	json_kv_string(&j, "ci", "CI of mean(B) - mean(A) of the runs' ns_per_pkt, Welch's t");
	json_kv_double(&j, "ci_level", ci_level);
	json_kv_bool(&j, "forced", nd > 0);
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
		if (expects.n) {
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
	only_json(&j, "only_a", only_a, na);
	only_json(&j, "only_b", only_b, nb);
	if (expects.n) {
		json_kv_bool(&j, "as_expected", !expect_failed(rows, nrows));
		json_key(&j, "expect_unmatched");
		json_begin_array(&j);
		for (i = 0; i < expects.n; i++)
			if (!expects.r[i].rows)
				json_string(&j, expects.r[i].text);
		json_end_array(&j);
	}
	json_end_object(&j);
	return json_finish(&j);
}

static int parse_args(int argc, char **argv, bool *as_json, bool *force)
{
	struct config cfg = {
		.level = ci_level, .tolerance = tolerance, .max_input = max_input,
	};
	int n = opts_parse(&tool, argc, argv, &cfg, NULL);

	if (n < 0)
		return -EINVAL;
	if (n < 2) {
		fprintf(stderr, "%s: two sweep results needed, A.json and B.json\n"
			"Try '%s --help'.\n", TOOL, TOOL);
		return -EINVAL;
	}
	if (n > 2) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", TOOL, argv[3]);
		return -EINVAL;
	}
	*as_json = cfg.json;
	*force = cfg.force;
	ci_level = cfg.level;
	tolerance = cfg.tolerance;
	expects = cfg.expects;
	expect_floor = cfg.floor;
	expect_spread = cfg.spread;
	max_input = cfg.max_input;
	return 0;
}

int main(int argc, char **argv)
{
	struct side a = {}, b = {};
	const struct jr_value **only_a = NULL, **only_b = NULL;
	size_t nrows = 0, na = 0, nb = 0, i;
	bool as_json = false, force = false;
	struct diff d[MAX_DIFFS];
	struct row *rows = NULL;
	unsigned int nd;
	int ret = 1;

	if (parse_args(argc, argv, &as_json, &force))
		return 2;
	if (load(&a, argv[1]) || load(&b, argv[2]))
		goto out;
	nd = guard(&a, &b, d);
	insns = !strcmp(a.unit, "insns");
	label_driver = a.driver;
	if (nd && !force) {
		fprintf(stderr, "%s: %s and %s were not measured alike; B differs from A in:\n",
			TOOL, a.path, b.path);
		for (i = 0; i < nd; i++)
			fprintf(stderr, "  %s: A %s, B %s\n", d[i].field,
				d[i].a, d[i].b);
		fprintf(stderr, "%s: refusing to compare (--force compares anyway)\n",
			TOOL);
		goto out;
	}
	/* a stack has two rows: its NET_RX cost and its application's */
	rows = calloc(2 * a.nitems + 1, sizeof(*rows));
	only_a = calloc(a.nitems + 1, sizeof(*only_a));
	only_b = calloc(b.nitems + 1, sizeof(*only_b));
	if (!rows || !only_a || !only_b)
		goto nomem;
	for (i = 0; i < a.nitems; i++) {
		const struct item *ib = find_item(&b, &a.items[i]);
		const struct jr_value *pa = a.items[i].v;
		unsigned int f;

		if (!ib) {
			only_a[na++] = pa;
			continue;
		}
		for (f = 0; f < (is_stack(pa) ? 2 : 1); f++) {
			rows[nrows].pa = pa;
			rows[nrows].pb = ib->v;
			rows[nrows].field = f ? "app_ns_per_pkt" : "ns_per_pkt";
			if (compute(&rows[nrows++], a.ghz))
				goto nomem;
			judge(&rows[nrows - 1]);
		}
	}
	for (i = 0; i < b.nitems; i++)
		if (!find_item(&a, &b.items[i]))
			only_b[nb++] = b.items[i].v;
	if (as_json) {
		if (json_report(&a, &b, d, nd, rows, nrows, only_a, na, only_b,
				nb)) {
			fprintf(stderr, "%s: writing the JSON failed\n", TOOL);
			goto out;
		}
	} else {
		text_report(&a, &b, d, nd, rows, nrows, only_a, na, only_b, nb);
	}
	ret = fflush(stdout) ? 1 : expect_failed(rows, nrows) ? 3 : 0;
	goto out;
nomem:
	fprintf(stderr, "%s: out of memory\n", TOOL);
out:
	for (i = 0; rows && i < nrows; i++) {
		free(rows[i].a.ns);
		free(rows[i].a.mpps);
		free(rows[i].b.ns);
		free(rows[i].b.mpps);
	}
	free(rows);
	free(only_a);
	free(only_b);
	free(a.items);
	free(b.items);
	free(a.sorted);
	free(b.sorted);
	jr_free(a.root);
	jr_free(b.root);
	return ret;
}
