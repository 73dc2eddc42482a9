// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's result, xdp-sweep/1, read (lib/report/sweep_doc.h,
 * Documentation/sweep.schema.json)
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "esc.h"
#include "opts.h"
#include "sweep_doc.h"
#include "xdp_action_name.h"

/*
 * What a number must be: in min..max, and whole if said; the ranges are
 * what xdp_sweep's options take and what a measurement gives.  A run's
 * cost and rate are within that, which also keeps every difference, ratio
 * and CI of them finite.
 */
struct range {
	double min, max;
	bool whole;
};

static const struct range figure = { 1e-3, 1e12, false };
static const struct range ghz = { 1e-3, 1000, false };
static const struct range rtt = { 1, 1e9, false };	/* ns, as lib/report/peers.c */
static const struct range sizes = { OPTS_SIZE_MIN, OPTS_SIZE_MAX, true };
static const struct range stack_sizes = { OPTS_SIZE_MIN, SWEEP_STACK_MAX_SIZE,
					  true };
static const struct range flows = { 1, OPTS_FLOWS_MAX, true };

/* Measurement options that must match: numbers in "options" */
const char *const sweep_match_opts[] = {
	"repeat", "duration_s", "warmup_s", "loop_k", "spin_n", NULL
};
static const struct range match_ranges[] = {
	{ 1, OPTS_REPEAT_MAX, true }, { 0.1, OPTS_DURATION_MAX, false },
	{ 0, 60, false }, { 0, 1 << 23, true }, { 0, 4096, true },
};
/* ... and those that only newer results have (0: not used) */
const char *const sweep_newer_opts[] = { "count", "rate_pps", NULL };
static const struct range newer_ranges[] = {
	{ 0, OPTS_COUNT_MAX, true }, { 0, OPTS_RATE_MAX, true },
};

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

/* The strings of the file in the sentence are escaped (esc_text()) */
__attribute__((format(printf, 2, 3)))
static int bad(const struct sweep_doc *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: not a valid sweep result: ", s->tool,
		esc_path(s->path).s);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

static int nomem(const struct sweep_doc *s)
{
	fprintf(stderr, "%s: %s: out of memory\n", s->tool,
		esc_path(s->path).s);
	return -ENOMEM;
}

/* A string of the file in a message: at most 64 bytes, escaped */
static struct esc quoted(const char *v)
{
	char head[68];

	snprintf(head, sizeof(head), "%.64s%s", v, strlen(v) > 64 ? "..." : "");
	return esc_text(head);
}

/* "WHEREKEY is missing", or "... is an array, not a number" */
static int wrong_type(const struct sweep_doc *s, const struct jr_value *v,
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
static const struct jr_value *need(const struct sweep_doc *s,
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

static const char *need_str(const struct sweep_doc *s, const struct jr_value *o,
			    const char *where, const char *key, int *err)
{
	return jr_str(need(s, o, where, key, JR_STRING, err));
}

/* A string that is one of names */
static const char *need_name(const struct sweep_doc *s, const struct jr_value *o,
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
	*err = bad(s, "%s%s is \"%s\", not one of %s", where, key, quoted(v).s,
		   list);
	return NULL;
}

/* A number in range r, the range said when it is not */
static double need_num(const struct sweep_doc *s, const struct jr_value *o,
		       const char *where, const char *key,
		       const struct range *r, int *err)
{
	double v = jr_num(need(s, o, where, key, JR_NUMBER, err));

	if (isnan(v))
		return v;
	if (v < r->min || v > r->max || (r->whole && v != floor(v)))
		*err = bad(s, "%s%s: %.15g is not a %snumber in %.15g..%.15g",
			   where, key, v, r->whole ? "whole " : "", r->min,
			   r->max);
	return *err ? NAN : v;
}

/* A run's line round trip: absent, null (not taken), or a number of ns */
static void need_rtt(const struct sweep_doc *s, const struct jr_value *r,
		     const char *where, const char *key, int *err)
{
	const struct jr_value *v = jr_get(r, key);

	if (v && jr_type(v) != JR_NULL)
		need_num(s, r, where, key, &rtt, err);
}

/*
 * A row's runs (row names it, "points[3] (XDP_DROP native 64B 1 flow): "):
 * an array of objects, no more than options.repeat (xdp_sweep writes one
 * per repeat, a failed or interrupted one as not ok; retries and warm-up
 * runs are not in it), each with ok, an ok run with its figures (app: the
 * application's too)
 */
static int check_runs(const struct sweep_doc *s, const struct jr_value *p,
		      const char *row, bool app)
{
	const struct jr_value *runs = jr_get(p, "runs"), *v;
	double repeat = jr_num(jr_get(s->opts, "repeat"));
	size_t k, nok = 0;
	int err = 0;

	if (!runs || jr_type(runs) != JR_ARRAY)
		return wrong_type(s, jr_get(p, "runs"), row, "runs", "an array");
	/* options.repeat is checked before the rows: a whole 1..100 */
	if (jr_len(runs) > repeat)
		return bad(s, "%sruns: %zu runs, more than options.repeat %.0f",
			   row, jr_len(runs), repeat);
	for (k = 0; k < jr_len(runs) && !err; k++) {
		const struct jr_value *r = jr_at(runs, k);
		const struct jr_value *ok;
		char run[32], where[192];

		snprintf(run, sizeof(run), "runs[%zu]", k);
		if (jr_type(r) != JR_OBJECT)
			return wrong_type(s, r, row, run, "an object");
		snprintf(where, sizeof(where), "%s%s.", row, run);
		ok = need(s, r, where, "ok", JR_BOOL, &err);
		need_rtt(s, r, where, "rtt_before_ns", &err);
		need_rtt(s, r, where, "rtt_after_ns", &err);
		if (!ok || !jr_bool(ok))
			continue;
		nok++;
		need_num(s, r, where, "ns_per_pkt", &figure, &err);
		if (app)
			need_num(s, r, where, "app_ns_per_pkt", &figure, &err);
		need_num(s, r, where, "pps", &figure, &err);
	}
	/* the count the writer gave beside them, where it gave one */
	v = jr_get(p, "runs_ok");
	if (!err && v && jr_type(v) != JR_NUMBER)
		err = wrong_type(s, v, row, "runs_ok", "a number");
	else if (!err && v && jr_num(v) != nok)
		err = bad(s, "%sruns_ok is %.17g, but %zu of its runs are ok",
			  row, jr_num(v), nok);
	return err;
}

/*
 * points[i] (stack: stacks[i]) as item it: what names it (action or stack,
 * mode, size, flows), its key, its runs
 */
static int check_item(const struct sweep_doc *s, struct sweep_item *it, bool stack)
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
		need_num(s, p, where, "size", &stack_sizes, &err);
	} else {
		const char *action = need_str(s, p, where, "action", &err);
		__u32 a;

		for (a = 0; action && a <= XDP_REDIRECT; a++)
			if (!strcmp(action, xdp_action_name(a)))
				break;
		if (action && a > XDP_REDIRECT)
			err = bad(s, "%saction is \"%s\", not an XDP action (XDP_DROP, ...)",
				  where, quoted(action).s);
		need_name(s, p, where, "mode", modes, &err);
		need_num(s, p, where, "size", &sizes, &err);
		need_num(s, p, where, "flows", &flows, &err);
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
	sweep_row_label(lbl, sizeof(lbl), p, NULL, NULL);
	snprintf(where, sizeof(where), "%s[%zu] (%s): ", what, it->index, lbl);
	return check_runs(s, p, where, stack);
}

static int by_key(const void *x, const void *y)
{
	const struct sweep_item *a = *(const struct sweep_item *const *)x;
	const struct sweep_item *b = *(const struct sweep_item *const *)y;

	return strcmp(a->key, b->key) ?: (a < b ? -1 : a > b);
}

/* The items sorted by key; two with one key are refused */
static int sort_items(struct sweep_doc *s)
{
	size_t i;

	s->sorted = calloc(s->nitems, sizeof(*s->sorted));
	if (!s->sorted)
		return nomem(s);
	for (i = 0; i < s->nitems; i++)
		s->sorted[i] = &s->items[i];
	qsort(s->sorted, s->nitems, sizeof(*s->sorted), by_key);
	for (i = 0; i + 1 < s->nitems; i++) {
		const struct sweep_item *p = s->sorted[i], *q = s->sorted[i + 1];
		const char *what = p->key[0] == 's' ? "stacks" : "points";
		char lbl[128];

		if (strcmp(p->key, q->key))
			continue;
		sweep_row_label(lbl, sizeof(lbl), q->v, NULL, NULL);
		return bad(s, "%s[%zu] (%s): the same %s as %s[%zu]", what,
			   q->index, lbl, p->key[0] == 's' ? "row" : "point",
			   what, p->index);
	}
	return 0;
}

int sweep_doc_load(struct sweep_doc *s, const char *tool_name, const char *path,
		   size_t max_input)
{
	const struct jr_value *env, *points, *st, *devs, *unit;
	char msg[JR_ERRLEN + 512];
	const char *schema, *tool;
	size_t i, npoints;
	int err = 0;

	memset(s, 0, sizeof(*s));
	s->tool = tool_name;
	s->path = path;
	err = jr_parse_file(path, max_input, &s->root, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "%s: %s%s\n", s->tool, msg,
			err == -EFBIG ? " (--max-input)" : "");
		return err;
	}
	if (jr_type(s->root) != JR_OBJECT) {
		fprintf(stderr, "%s: %s: not an xdp_sweep result: the document is %s, not an object\n",
			s->tool, esc_path(path).s, jr_type_name(jr_type(s->root)));
		return -EINVAL;
	}
	schema = jr_str(jr_get(s->root, "schema"));
	if (!schema || strcmp(schema, SWEEP_SCHEMA)) {
		fprintf(stderr, "%s: %s: not an xdp_sweep result: schema is %s%s%s, expected \"%s\"\n",
			s->tool, esc_path(path).s, schema ? "\"" : "",
			schema ? quoted(schema).s : "not a string",
			schema ? "\"" : "", SWEEP_SCHEMA);
		return -EINVAL;
	}
	tool = need_str(s, s->root, "", "tool", &err);
	if (tool && strcmp(tool, "xdp_sweep") && !err)
		err = bad(s, "tool is \"%s\", not \"xdp_sweep\"", quoted(tool).s);
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
	for (i = 0; sweep_match_opts[i]; i++)
		need_num(s, s->opts, "options.", sweep_match_opts[i],
			 &match_ranges[i], &err);
	for (i = 0; sweep_newer_opts[i]; i++)
		if (jr_get(s->opts, sweep_newer_opts[i]))
			need_num(s, s->opts, "options.", sweep_newer_opts[i],
				 &newer_ranges[i], &err);
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
	s->npoints = npoints;
	s->nitems = npoints + jr_len(st);
	if (!s->nitems)
		return bad(s, "no points (points is empty%s): nothing to compare",
			   st ? ", so is stacks" : "");
	s->items = calloc(s->nitems, sizeof(*s->items));
	if (!s->items)
		return nomem(s);
	for (i = 0; i < s->nitems && !err; i++) {
		struct sweep_item *it = &s->items[i];

		it->index = i < npoints ? i : i - npoints;
		it->v = i < npoints ? jr_at(points, i) : jr_at(st, it->index);
		err = check_item(s, it, i >= npoints);
	}
	return err ?: sort_items(s);
}

bool sweep_row_is_stack(const struct jr_value *p)
{
	return jr_str(jr_get(p, "stack"));
}

/* A stack's mode: null for AF_PACKET */
static const char *mode_of(const struct jr_value *p)
{
	return jr_str(jr_get(p, "mode")) ?: "-";
}
static int key_of(const void *key, const void *x)
{
	return strcmp(key, (*(const struct sweep_item *const *)x)->key);
}

const struct sweep_item *sweep_doc_find(const struct sweep_doc *s,
					const char *key)
{
	struct sweep_item **q = bsearch(key, s->sorted, s->nitems,
				  sizeof(*s->sorted), key_of);

	return q ? *q : NULL;
}

/* "AF_XDP rxdrop igb native-with-zerocopy 64B" (+ " app") */
static void stack_label(char *buf, size_t len, const struct jr_value *p,
			const char *field, const char *label_driver)
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


/* on a NIC pair "XDP_TX igb native 64B 1 flow" */
void sweep_row_label(char *buf, size_t len, const struct jr_value *p,
		     const char *field, const char *label_driver)
{
	double flows = jr_num(jr_get(p, "flows"));

	if (sweep_row_is_stack(p)) {
		stack_label(buf, len, p, field, label_driver);
		return;
	}
	snprintf(buf, len, "%s%s%s %s %.0fB %.0f flow%s",
		 jr_str(jr_get(p, "action")), label_driver ? " " : "",
		 label_driver ?: "", jr_str(jr_get(p, "mode")),
		 jr_num(jr_get(p, "size")), flows, flows == 1 ? "" : "s");
}

const struct jr_value *sweep_doc_point(const struct sweep_doc *d, size_t i)
{
	return i < d->npoints ? d->items[i].v : NULL;
}

const struct jr_value *sweep_doc_stack(const struct sweep_doc *d, size_t i)
{
	return d->npoints + i < d->nitems ? d->items[d->npoints + i].v : NULL;
}

void sweep_doc_free(struct sweep_doc *d)
{
	free(d->items);
	free(d->sorted);
	jr_free(d->root);
	d->items = NULL;
	d->sorted = NULL;
	d->root = NULL;
}
