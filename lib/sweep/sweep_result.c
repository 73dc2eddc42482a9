// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's result, xdp-sweep/1, written (lib/sweep/sweep_result.h,
 * Documentation/sweep.schema.json)
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "json.h"
#include "profile.h"
#include "sweep_result.h"
#include "xsk_env.h"
#include "xskb_json.h"

void sweep_config_hash(char out[SWEEP_CFGHASH_LEN])
{
	char line[512];
	const char *const sh[] = { "/bin/sh", "-c", line, NULL };
	struct utsname u;

	uname(&u);
	snprintf(line, sizeof(line),
		 "{ zcat /proc/config.gz 2>/dev/null || cat /boot/config-%s 2>/dev/null; } | sha256sum | cut -c1-64",
		 u.release);
	if (xenv_run(out, SWEEP_CFGHASH_LEN, sh) || strlen(out) != 65 || out[64] != '\n' ||
	    /* sha256 of nothing: no config to be found */
	    !strncmp(out, "e3b0c44298fc1c149afbf4c8996fb924", 32))
		snprintf(out, SWEEP_CFGHASH_LEN, "unknown");
	out[strcspn(out, "\n")] = '\0';
}

static void env_json(struct json *j, double ghz, const char *cfghash,
		     const struct sweep_cfg *cfg)
{
	char model[256] = "unknown", line[512];
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
	list_json(j, "actions", &cfg->actions, xdp_action_name);
	list_json(j, "modes", &cfg->modes, mode_of_value);
	list_json(j, "sizes", &cfg->sizes, NULL);
	list_json(j, "flows", &cfg->flows, NULL);
	json_kv_u64(j, "repeat", cfg->repeat);
	json_kv_double(j, "duration_s", cfg->duration);
	json_kv_double(j, "warmup_s", cfg->warmup);
	json_kv_u64(j, "loop_k", cfg->loop_k);
	json_kv_u64(j, "spin_n", cfg->spin_n);
	json_kv_string(j, "generator", "live-frames (af_xdp-sg above the live-frames limit, and for every frame where the kernel refuses live frames: each point's gen_method)");
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

/*
 * A receive stack's run: the result's own keys, written where xdpsock's
 * are (lib/bench/xskb_json.h); the sweep's figure and loss; and, until
 * version 0.3 of the result, the flat keys it had before those: app_polls
 * (rx_kicks), app_cpu, gen_cpu and net_rx_cpu (placement.*), gen_sent
 * (generator.sent).  Documentation/sweep.schema.json marks them.
 */
static void stack_run_json(struct json *j, const struct sweep_cfg *cfg,
			   const struct sweep_point *p,
			   const struct sweep_run *run, double ghz)
{
	const struct xskb_result *r = &run->stk;
	struct sweep_fig f;

	p->be->fig(cfg, run, &f);
	xskb_result_json(j, r, NULL, ghz);
	json_kv_double(j, "ns_per_pkt", r->net_rx_ns_per_pkt);
	json_kv_u64(j, "lost", f.lost);
	if (cfg->icount)
		json_kv_u64(j, "window", r->window);
	json_kv_u64(j, "app_polls", r->rx_kicks);
	json_kv_s64(j, "app_cpu", r->app_cpu);
	json_kv_s64(j, "gen_cpu", r->gen_cpu);
	json_kv_s64(j, "net_rx_cpu", r->net_rx_cpu);
	json_kv_u64(j, "gen_sent", r->gen_sent);
}

/* The point's "runs": each ok with its figures, or its error */
static void runs_json(struct json *j, const struct sweep_cfg *cfg,
		      const struct sweep_point *p, double ghz)
{
	unsigned int k;

	json_key(j, "runs");
	json_begin_array(j);
	for (k = 0; k < cfg->repeat; k++) {
		const struct sweep_run *r = &p->runs[k];

		json_begin_object(j);
		json_kv_bool(j, "ok", r->ok);
		if (!r->ok) {
			json_kv_string(j, "error", sweep_run_why(p, r));
			json_end_object(j);
			continue;
		}
		if (p->stk) {
			stack_run_json(j, cfg, p, r, ghz);
		} else {
			xdp_run_json(j, cfg, r);
			json_kv_bool(j, "disturbed", r->xdp.disturbed);
		}
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
	json_kv_string(j, "action", xdp_action_name(p->action));
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
	runs_json(j, cfg, p, ghz);
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
	runs_json(j, cfg, p, ghz);
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

/*
 * Held (flock) from the claim to the exit: a claim no one holds and that is
 * still empty is a killed run's (SIGKILL), no one's to fill.
 */
static int claim_fd = -1;

/* How long a new claim may be unheld: between its open() and its flock() */
#define CLAIM_GRACE_S	10

/* A name sweep_result_name() claims: sweep-YYYYMMDD-HHMMSS[-K][-a].json */
static bool claim_name(const char *name)
{
	unsigned int k;
	int n = 0;
	size_t i;

	if (strncmp(name, "sweep-", 6) || strlen(name) < 21 || name[14] != '-')
		return false;
	for (i = 6; i < 21; i++)
		if (i != 14 && (name[i] < '0' || name[i] > '9'))
			return false;
	name += 21;
	if (sscanf(name, "-%u%n", &k, &n) == 1 && k >= 2 && k < 100 &&
	    name[1] >= '1' && name[1] <= '9')
		name += n;
	if (!strncmp(name, "-a", 2))
		name += 2;
	return !strcmp(name, ".json");
}

/* The empty claims of runs that are gone, in dir: removed */
static void reap_claims(const char *dir)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd;

	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!claim_name(de->d_name))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW |
			    O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && !st.st_size &&
		    st.st_uid == geteuid() &&
		    st.st_mtime < time(NULL) - CLAIM_GRACE_S &&
		    !flock(fd, LOCK_EX | LOCK_NB))
			unlinkat(dirfd(d), de->d_name, 0);
		close(fd);
	}
	closedir(d);
}

int sweep_result_name(const char *dir, bool ab, char *started, size_t slen,
		      char base[SWEEP_BASE_LEN])
{
	char stamp[32], claim[SWEEP_BASE_LEN + 8];
	time_t now = time(NULL);
	unsigned int k, remade = 0;
	int fd;

	if (strlen(dir) > SWEEP_OUT_MAX)
		return -ENAMETOOLONG;
	reap_claims(dir);
	strftime(started, slen, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	for (k = 1; k < 100; k++) {
		if (k == 1)
			snprintf(base, SWEEP_BASE_LEN, "%s/sweep-%s", dir, stamp);
		else
			snprintf(base, SWEEP_BASE_LEN, "%s/sweep-%s-%u", dir,
				 stamp, k);
		snprintf(claim, sizeof(claim), "%s%s.json", base,
			 ab ? "-a" : "");
		fd = open(claim, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0644);
		if (fd >= 0) {
			flock(fd, LOCK_EX);
			if (claim_fd >= 0)
				close(claim_fd);
			claim_fd = fd;
			return 0;
		}
		/*
		 * DIR gone since the options were taken: another run that made
		 * it, stopped while waiting for the lock, removed it empty
		 */
		if (errno == ENOENT && !remade++ && !mkdir(dir, 0755)) {
			k--;
			continue;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int sweep_result_write(const char *path, const struct sweep_result_info *in,
		       const struct sweep_cfg *c, const struct sweep_point *pts,
		       unsigned int n)
{
	bool stacks = false;
	struct json j;
	unsigned int i;
	FILE *f = cli_open_out(path);
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
	env_json(&j, in->ghz, in->cfghash, c);
	options_json(&j, c, stacks);
	rows_json(&j, c, pts, n, false, in->ghz);
	if (stacks)
		rows_json(&j, c, pts, n, true, in->ghz);
	json_end_object(&j);
	ret = json_finish(&j);
	closed = cli_file_close(f);
	return ret ?: closed;
}
