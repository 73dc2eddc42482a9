// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's result, xdp-sweep/1: written and read (lib/sweep_result.h,
 * Documentation/sweep.schema.json)
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "esc.h"
#include "json.h"
#include "profile.h"
#include "sweep_result.h"

/* --- writing --- */

static void env_json(struct json *j, double ghz, const struct sweep_cfg *cfg)
{
	char model[256] = "unknown", line[512], cfghash[80] = "unknown";
	struct utsname u;
	FILE *f;

	uname(&u);
	f = fopen("/proc/cpuinfo", "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "model name", 10)) {
			char *c = strchr(line, ':');

			if (c) {
				snprintf(model, sizeof(model), "%s", c + 2);
				model[strcspn(model, "\n")] = '\0';
			}
			break;
		}
	}
	if (f)
		fclose(f);
	/* The running kernel's config, as far as it can be found */
	snprintf(line, sizeof(line),
		 "{ zcat /proc/config.gz 2>/dev/null || cat /boot/config-%s 2>/dev/null; } | sha256sum | cut -c1-64",
		 u.release);
	f = popen(line, "r");
	if (f) {
		if (fgets(cfghash, sizeof(cfghash), f))
			cfghash[strcspn(cfghash, "\n")] = '\0';
		pclose(f);
	}
	/* sha256 of nothing: no config to be found */
	if (!strncmp(cfghash, "e3b0c44298fc1c149afbf4c8996fb924", 32))
		snprintf(cfghash, sizeof(cfghash), "unknown");

	json_key(j, "env");
	json_begin_object(j);
	json_kv_string(j, "kernel_release", u.release);
	json_kv_string(j, "kernel_version", u.version);
	json_kv_string(j, "kernel_config_sha256", cfghash);
	json_kv_string(j, "machine", u.machine);
	json_kv_string(j, "cpu_model", model);
	json_kv_s64(j, "ncpus", sysconf(_SC_NPROCESSORS_ONLN));
	json_kv_double(j, "tsc_ghz", ghz);
	json_kv_string(j, "napi", cfg->threaded ? "threaded" : "default");
	json_end_object(j);
}

static const char *mode_of_value(__u32 v)
{
	return sweep_mode_name(v);
}

static void list_json(struct json *j, const char *key, const struct opts_list *l,
		      const char *(*name)(__u32))
{
	unsigned int i;

	json_key(j, key);
	json_begin_array(j);
	for (i = 0; i < l->n; i++) {
		if (name)
			json_string(j, name(l->v[i]));
		else
			json_u64(j, l->v[i]);
	}
	json_end_array(j);
}

static void options_json(struct json *j, const struct sweep_cfg *cfg,
			 bool stacks)
{
	char drv[32] = "unknown";

	json_key(j, "options");
	json_begin_object(j);
	list_json(j, "actions", &cfg->actions, rxq_action_name);
	list_json(j, "modes", &cfg->modes, mode_of_value);
	list_json(j, "sizes", &cfg->sizes, NULL);
	list_json(j, "flows", &cfg->flows, NULL);
	json_kv_u64(j, "repeat", cfg->repeat);
	json_kv_double(j, "duration_s", cfg->duration);
	json_kv_double(j, "warmup_s", cfg->warmup);
	json_kv_u64(j, "loop_k", cfg->loop_k);
	json_kv_u64(j, "spin_n", cfg->spin_n);
	json_kv_string(j, "generator", "live-frames (af_xdp-sg above the live-frames limit)");
	json_kv_string(j, "cost", cfg->icount ?
		       "NET_RX softirq guest instructions (icount clock, tracepoints) / frames counted by the program" :
		       "NET_RX softirq ns (tracepoints) / frames counted by the program");
	json_kv_string(j, "cost_unit", cfg->icount ? "insns" : "ns");
	if (cfg->dev[0])
		xsk_ifdriver(cfg->dev[0], drv, sizeof(drv));
	json_kv_string(j, "driver", cfg->dev[0] ? drv : "veth");
	json_kv_u64(j, "count", cfg->count);
	json_kv_u64(j, "rate_pps", cfg->rate);
	json_key(j, "devs");
	if (cfg->dev[0]) {
		json_begin_array(j);
		json_string(j, cfg->dev[0]);
		json_string(j, cfg->dev[1]);
		json_end_array(j);
	} else {
		json_null(j);
	}
	json_kv_bool(j, "stacks", stacks);
	json_kv_bool(j, "profile", cfg->profile);
	json_end_object(j);
}

/* key: { median, ci95_lo, ci95_hi, ci_method, mean, sd }, null if none */
static void summary_json(struct json *j, const char *key,
			 const struct stats_summary *s, bool ok)
{
	json_key(j, key);
	json_begin_object(j);
	json_kv_double(j, "median", ok ? s->median : NAN);
	json_kv_double(j, "ci95_lo", ok ? s->ci_lo : NAN);
	json_kv_double(j, "ci95_hi", ok ? s->ci_hi : NAN);
	json_kv_string(j, "ci_method", ok ?
		       stats_ci_method_name(s->ci_method) : "none");
	json_kv_double(j, "mean", ok ? s->mean : NAN);
	json_kv_double(j, "sd", ok ? s->sd : NAN);
	json_end_object(j);
}

static void xdp_run_json(struct json *j, const struct sweep_cfg *cfg,
			 const struct sweep_run *run)
{
	const struct rxq_result *r = &run->xdp;

	json_kv_u64(j, "packets", r->packets);
	json_kv_double(j, "duration_s", r->duration_ns / 1e9);
	json_kv_double(j, "pps", r->pps);
	json_kv_u64(j, "rx_cpu_ns", r->cpu_ns);
	json_kv_double(j, "ns_per_pkt", r->ns_per_pkt);
	json_kv_s64(j, "rx_cpu", r->rx_cpu);
	json_kv_u64(j, "gen_sent", r->gen_sent);
	json_kv_u64(j, "lost", r->lost);
	json_kv_double(j, "foreign_frac", r->foreign_frac);
	json_kv_u64(j, "net_rx_softirqs", r->net_rx_softirqs);
	json_kv_u64(j, "foreign_net_rx_ns", r->foreign_net_rx_ns);
	if (cfg->icount)
		json_kv_u64(j, "window", r->window);
}

static void stack_run_json(struct json *j, const struct sweep_cfg *cfg,
			   const struct sweep_point *p,
			   const struct sweep_run *run)
{
	const struct xskb_result *r = &run->stk;
	struct sweep_fig f;

	p->be->fig(cfg, run, &f);
	json_kv_u64(j, "packets", r->packets);
	json_kv_double(j, "duration_s", r->duration_ns / 1e9);
	json_kv_double(j, "pps", r->pps);
	json_kv_u64(j, "net_rx_ns", r->net_rx_ns);
	json_kv_double(j, "ns_per_pkt", r->net_rx_ns_per_pkt);
	json_kv_u64(j, "net_rx_softirqs", r->net_rx_softirqs);
	json_kv_s64(j, "net_rx_cpu", r->net_rx_cpu);
	json_kv_u64(j, "app_cpu_ns", r->app_cpu_ns);
	json_kv_u64(j, "app_softirq_ns", r->app_softirq_ns);
	json_kv_u64(j, "app_polls", r->rx_kicks);
	json_kv_double(j, "app_ns_per_pkt", r->app_ns_per_pkt);
	json_kv_s64(j, "app_cpu", r->app_cpu);
	json_kv_u64(j, "gen_sent", r->gen_sent);
	json_kv_s64(j, "gen_cpu", r->gen_cpu);
	json_kv_u64(j, "socket_drops", r->drops);
	json_kv_u64(j, "lost", f.lost);
	if (cfg->icount)
		json_kv_u64(j, "window", r->window);
}

/* The point's "runs": each ok with its figures, or its error */
static void runs_json(struct json *j, const struct sweep_cfg *cfg,
		      const struct sweep_point *p)
{
	unsigned int k;

	json_key(j, "runs");
	json_begin_array(j);
	for (k = 0; k < cfg->repeat; k++) {
		const struct sweep_run *r = &p->runs[k];

		json_begin_object(j);
		json_kv_bool(j, "ok", r->ok);
		if (!r->ok) {
			json_kv_string(j, "error", r->err);
			json_end_object(j);
			continue;
		}
		if (p->stk)
			stack_run_json(j, cfg, p, r);
		else
			xdp_run_json(j, cfg, r);
		json_kv_bool(j, "disturbed", p->stk ? r->stk.disturbed :
			     r->xdp.disturbed);
		json_kv_u64(j, "retries", r->retries);
		json_kv_double(j, "rtt_before_ns", r->rtt_before);
		json_kv_double(j, "rtt_after_ns", r->rtt_after);
		json_end_object(j);
	}
	json_end_array(j);
}

static void point_json(struct json *j, const struct sweep_cfg *cfg,
		       const struct sweep_point *p, double ghz)
{
	struct sweep_summary s;

	sweep_summarize(cfg, p, &s);
	json_begin_object(j);
	json_kv_string(j, "action", rxq_action_name(p->action));
	json_kv_string(j, "mode", sweep_mode_name(p->skb_mode));
	json_kv_u64(j, "size", p->size);
	json_kv_u64(j, "flows", p->flows);
	json_kv_u64(j, "runs_ok", s.ok);
	json_kv_u64(j, "runs_disturbed", s.disturbed);
	summary_json(j, "ns_per_pkt", &s.ns, s.ok);
	json_kv_double(j, "tsc_cycles_per_pkt", s.ok ? s.ns.median * ghz : NAN);
	json_kv_double(j, "mpps", s.ok ? s.mpps.median : NAN);
	json_kv_double(j, "prog_ns_per_run", p->prog_ns);
	json_kv_string(j, "gen_method", s.gen_method);
	json_kv_u64(j, "sent", s.sent);
	json_kv_u64(j, "counted", s.counted);
	json_kv_u64(j, "lost", s.lost);
	json_kv_u64(j, "lost_peer_xmit_errors", s.xmit_errors);
	json_kv_u64(j, "lost_dut_rx_drops", s.rx_drops);
	if (p->prof)
		prof_json(j, cfg->prof, p->prof, s.ok ? s.ns.median : NAN,
			  p->prof_written ? p->folded : NULL,
			  p->prof_written ? p->svg : NULL);
	runs_json(j, cfg, p);
	json_end_object(j);
}

static void stack_json(struct json *j, const struct sweep_cfg *cfg,
		       const struct sweep_point *p, double ghz)
{
	struct sweep_summary s;

	sweep_summarize(cfg, p, &s);
	json_begin_object(j);
	json_kv_string(j, "stack", p->stk->stack);
	json_kv_string(j, "mode", p->stk->mode);
	json_kv_string(j, "benchmark", "rxdrop");
	json_kv_u64(j, "size", p->size);
	json_kv_u64(j, "runs_ok", s.ok);
	json_kv_u64(j, "runs_disturbed", s.disturbed);
	summary_json(j, "mpps", &s.mpps, s.ok);
	summary_json(j, "ns_per_pkt", &s.ns, s.ok);
	json_kv_double(j, "tsc_cycles_per_pkt", s.ok ? s.ns.median * ghz : NAN);
	summary_json(j, "app_ns_per_pkt", &s.app_ns, s.ok);
	json_kv_u64(j, "sent", s.sent);
	json_kv_u64(j, "counted", s.counted);
	json_kv_u64(j, "lost", s.lost);
	json_kv_bool(j, "app_poll", p->be->count(cfg) > 0);
	json_kv_u64(j, "count", p->be->count(cfg));
	json_kv_u64(j, "rate_pps", p->be->rate(cfg));
	runs_json(j, cfg, p);
	json_end_object(j);
}

/* points[]: the XDP points; stacks[] (when there are any): the stacks' */
static void rows_json(struct json *j, const struct sweep_cfg *cfg,
		      const struct sweep_point *pts, unsigned int n, bool stacks,
		      double ghz)
{
	unsigned int i;

	json_key(j, stacks ? "stacks" : "points");
	json_begin_array(j);
	for (i = 0; i < n; i++) {
		if (!!pts[i].stk != stacks)
			continue;
		if (stacks)
			stack_json(j, cfg, &pts[i], ghz);
		else
			point_json(j, cfg, &pts[i], ghz);
	}
	json_end_array(j);
}

void sweep_result_name(const char *dir, char *started, size_t slen,
		       char *base, size_t blen)
{
	time_t now = time(NULL);
	char stamp[32];

	strftime(started, slen, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	snprintf(base, blen, "%.300s/sweep-%s", dir, stamp);
}

int sweep_result_write(const char *path, const struct sweep_result_info *in,
		       const struct sweep_cfg *c, const struct sweep_point *pts,
		       unsigned int n)
{
	bool stacks = false;
	struct json j;
	unsigned int i;
	FILE *f = fopen(path, "we");
	int ret, closed;

	if (!f)
		return -errno;
	for (i = 0; i < n; i++)
		stacks |= pts[i].stk != NULL;
	json_init(&j, f, 1);
	json_begin_object(&j);
	json_kv_string(&j, "schema", SWEEP_SCHEMA);
	json_kv_string(&j, "tool", "xdp_sweep");
	json_kv_string(&j, "version", SWEEP_VERSION);
	json_kv_string(&j, "started", in->started);
	json_kv_bool(&j, "interrupted", in->interrupted);
	json_kv_string(&j, "run_lock", in->run_lock);
	env_json(&j, in->ghz, c);
	options_json(&j, c, stacks);
	rows_json(&j, c, pts, n, false, in->ghz);
	if (stacks)
		rows_json(&j, c, pts, n, true, in->ghz);
	json_end_object(&j);
	ret = json_finish(&j);
	closed = cli_file_close(f);
	return ret ?: closed;
}

/* --- reading --- */

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
static const struct range rtt = { 1, 1e9, false };	/* ns, as lib/peers.c */
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
 * an array of objects, each with ok, an ok run with its figures (app: the
 * application's too)
 */
static int check_runs(const struct sweep_doc *s, const struct jr_value *p,
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
		need_rtt(s, r, where, "rtt_before_ns", &err);
		need_rtt(s, r, where, "rtt_after_ns", &err);
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
			if (!strcmp(action, rxq_action_name(a)))
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
