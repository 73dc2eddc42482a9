// SPDX-License-Identifier: GPL-2.0
/*
 * softirq_probe - is the tracepoint NET_RX time exact, /proc/stat's not,
 * and what do the tracepoint programs cost?
 *
 * Makes a private veth pair with native XDP_PASS on the dut, pins itself to
 * one CPU and sends a fixed number of 64-byte frames from the peer with
 * AF_PACKET per run; the receive path runs as NET_RX softirq on that CPU
 * (default NAPI mode).  Runs alternate (ABAB...) between:
 *
 *  A  softirq programs attached: exact softirq time (all vectors and
 *     NET_RX) against /proc/stat's softirq column over the same window;
 *  B  no programs: the same workload, for the programs' overhead.
 *
 * The cost of a run is the sender thread's CPU time (schedstat) per frame,
 * which holds the softirqs that ran in its context; A - B is what the
 * programs add, divided by the softirqs per frame seen in A.  That is
 * only as good as the noise of a ~2 us softirq allows, so the programs are
 * also timed in place, in a third kind of run (C, interleaved: ABCABC...)
 * with BPF_ENABLE_STATS held (run time
 * statistics, for as long as the fd is open), the kernel's run_time_ns /
 * run_cnt of sirq_entry and sirq_exit.  That is their own time; the
 * tracepoint dispatch (a few ns) and the statistics' own clock reads are
 * not in it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "cli.h"
#include "opts.h"
#include "cpustat.h"
#include "json.h"
#include "measure.h"
#include "softirq_cost.h"
#include "stats.h"
#include "xsk_env.h"
#include "xsk_pkt.h"
#include "xsk_prog_mb.h"	/* before the skeleton: its .bss has one */
#include "xsk_prog.skel.h"

#define FRAME_LEN	64
#define MAX_RUNS	30
#define MAX_FRAMES	10000000	/* ~20 s a run at 2 us a frame */
#define TOOL		"softirq_probe"

struct run {
	double wall_ns, thread_ns, frames, softirqs;
	double exact_all_ns, exact_rx_ns, proc_softirq_ns;
	bool disturbed;
	double unexplained_frac;
	int worst_cpu;
	double prog_ns, prog_runs;	/* both programs, from bpf stats */
};

static int prog_stats(struct sirq *s, double *ns, double *cnt)
{
	struct bpf_prog_info info;
	__u32 ids[2], len;
	int i, fd;

	*ns = *cnt = 0;
	sirq_prog_ids(s, ids);
	for (i = 0; i < 2; i++) {
		fd = bpf_prog_get_fd_by_id(ids[i]);
		if (fd < 0)
			return -errno;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
			close(fd);
			return -errno;
		}
		close(fd);
		*ns += info.run_time_ns;
		*cnt += info.run_cnt;
	}
	return 0;
}

static struct xsk_env *env;
static unsigned char frames[64 * FRAME_LEN];

struct config {
	__u32 runs, frames;
	int cpu;
	bool json, allow_concurrent;
};

#define ABOUT \
	"Is the tracepoint NET_RX time exact, /proc/stat's not, and what do the\n" \
	"tracepoint programs cost?  Runs alternate: programs attached, detached,\n" \
	"attached with BPF run time statistics.\n\n"
#define NOTES \
	"\nCycles are TSC cycles (ns x the TSC frequency measured against\n" \
	"CLOCK_MONOTONIC_RAW).  SIGINT or SIGTERM stops it: the runs done are\n" \
	"reported, marked interrupted, and the exit status is 128 + the signal.\n"

static const struct opt rows[] = {
	{ OPTS_ROW(OPT_U32, "runs", 'r', struct config, runs, "RUNS",
		   "runs per mode, 3..30"), .min = 3, .max = MAX_RUNS },
	{ OPTS_ROW(OPT_U32, "frames", 'n', struct config, frames, "FRAMES",
		   "frames per run, 1..10000000"), .min = 1, .max = MAX_FRAMES },
	{ OPTS_ROW(OPT_CPU, "cpu", 'c', struct config, cpu, "CPU",
		   "CPU to send (and so receive) on") },
	OPTS_ALLOW_CONCURRENT(struct config, allow_concurrent),
	OPTS_JSON(struct config, json, "JSON output"),
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL(TOOL, "[OPTIONS]", rows, struct config,
		  .about = ABOUT, .notes = NOTES);

static int send_frames(unsigned int n)
{
	unsigned int sent = 0, batch;
	int ret, fails = 0;

	while (sent < n) {
		if (cli_stop)
			return -EINTR;
		batch = n - sent < 64 ? n - sent : 64;
		ret = xenv_send_batch(env, frames, FRAME_LEN, batch);
		if (ret > 0) {
			sent += ret;
		} else if (++fails > 1000000) {
			fprintf(stderr, "sending: %s\n", strerror(-ret));
			return -EIO;
		}
	}
	return 0;
}

enum run_mode {
	DETACHED,
	ATTACHED,
	ATTACHED_STATS,		/* and BPF run time statistics on */
};

static int one_run(struct xsk_prog_bpf *dut, enum run_mode mode,
		   unsigned int n, int cpu, struct run *r)
{
	struct load_thread th = { .tid = gettid(), .cpu = cpu };
	struct load_snap *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct xsk_prog_counters c0, c1;
	struct load_report lr;
	struct sirq *s = NULL;
	char err[ERR_LEN];
	int ret = -ENOMEM, stats_fd = -1;
	double pns0 = 0, pcnt0 = 0, pns1, pcnt1;

	if (!a)
		return ret;
	memset(r, 0, sizeof(*r));
	if (mode != DETACHED) {
		ret = sirq_open(&s, err);
		if (ret) {
			fprintf(stderr, TOOL ": %s\n", err);
			goto out;
		}
	}
	if (mode == ATTACHED_STATS) {
		stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (stats_fd < 0) {
			ret = -errno;
			fprintf(stderr, TOOL ": BPF_ENABLE_STATS: %s\n", strerror(errno));
			goto out;
		}
		prog_stats(s, &pns0, &pcnt0);
	}
	xsk_prog_counters_read(dut, &c0);
	ret = load_snap_take(a, s, &th, 1);
	if (!ret)
		ret = send_frames(n);
	if (!ret)
		usleep(2000);
	if (!ret)
		ret = load_snap_take(b, s, &th, 1);
	if (ret)
		goto out;
	xsk_prog_counters_read(dut, &c1);
	if (stats_fd >= 0 && !prog_stats(s, &pns1, &pcnt1)) {
		r->prog_ns = pns1 - pns0;
		r->prog_runs = pcnt1 - pcnt0;
	}
	load_check(a, b, &th, 1, 0.05, &lr);
	r->wall_ns = lr.window_ns;
	r->thread_ns = lr.cpu[cpu].threads_ns;
	r->frames = c1.rx_packets - c0.rx_packets;
	r->disturbed = lr.disturbed;
	r->unexplained_frac = lr.worst_frac;
	/* the sending CPU only: other CPUs carry other people's traffic */
	r->softirqs = b->sirq[cpu].net_rx_count - a->sirq[cpu].net_rx_count;
	r->exact_all_ns = b->sirq[cpu].all_ns - a->sirq[cpu].all_ns;
	r->exact_rx_ns = b->sirq[cpu].net_rx_ns - a->sirq[cpu].net_rx_ns;
	r->proc_softirq_ns = (double)b->cpu[cpu].softirq -
			     (double)a->cpu[cpu].softirq;
	r->worst_cpu = lr.worst_cpu;
out:
	if (stats_fd >= 0)
		close(stats_fd);
	sirq_close(s);
	free(a);
	return ret;
}

static void summary(struct json *j, const char *key, const double *x, int n,
		    const char *unit)
{
	struct stats_summary s;

	stats_summarize(x, n, &s);
	if (j) {
		json_key(j, key);
		json_begin_object(j);
		json_kv_double(j, "median", s.median);
		json_kv_double(j, "mean", s.mean);
		json_kv_double(j, "sd", s.sd);
		json_kv_double(j, "min", s.min);
		json_kv_double(j, "max", s.max);
		json_kv_double(j, "ci_lo", s.ci_lo);
		json_kv_double(j, "ci_hi", s.ci_hi);
		json_kv_string(j, "ci", stats_ci_method_name(s.ci_method));
		json_kv_double(j, "ci_coverage", s.ci_coverage);
		json_end_object(j);
		return;
	}
	printf("  %-28s median %10.2f  95%% CI [%.2f, %.2f] (%s)  min %.2f max %.2f sd %.2f %s\n",
	       key, s.median, s.ci_lo, s.ci_hi, stats_ci_method_name(s.ci_method),
	       s.min, s.max, s.sd, unit);
}

/* The runs of each mode, and the figures drawn from them */
struct probe {
	unsigned int nframes, runs, cpu;
	int disturbed;
	double ghz, spp;
	struct run ra[MAX_RUNS], rb[MAX_RUNS], rc[MAX_RUNS];
	double ratio[MAX_RUNS], rx_ns_pkt[MAX_RUNS], proc_ns_pkt[MAX_RUNS];
	double cost_a[MAX_RUNS], cost_b[MAX_RUNS], sirq_pkt[MAX_RUNS];
	double err_pct[MAX_RUNS], prog[MAX_RUNS];
	struct stats_welch w;
};

/* The dut's native XDP_PASS program: its link, or -1 */
static int attach_dut(struct xsk_prog_bpf **dut)
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .flags = XDP_FLAGS_DRV_MODE);
	int i, link_fd;

	for (i = 0; i < 64; i++)
		xsk_pkt_build(frames + i * FRAME_LEN, FRAME_LEN,
			      env->mac[XENV_DUT], env->mac[XENV_PEER], i, i);
	*dut = xsk_prog_bpf__open_and_load();
	if (!*dut || xenv_enter(env, XENV_DUT)) {
		fprintf(stderr, "loading the dut's XDP program failed\n");
		return -1;
	}
	link_fd = bpf_link_create(bpf_program__fd((*dut)->progs.xdp_pass),
				  env->ifindex[XENV_DUT], BPF_XDP, &lopts);
	xenv_enter(env, -1);
	if (link_fd < 0)
		fprintf(stderr, "native XDP on the dut: %s\n", strerror(errno));
	return link_fd;
}

/*
 * A warm-up run, then the runs ABCABC...; the runs done (fewer when
 * interrupted), or -1 when a run failed
 */
static int measure_runs(struct xsk_prog_bpf *dut, struct probe *p)
{
	int i;

	if (one_run(dut, DETACHED, p->nframes / 4 ?: 1, p->cpu, &p->rb[0]))
		return -1;
	for (i = 0; i < (int)p->runs; i++) {
		const struct run *a = &p->ra[i], *b = &p->rb[i], *c = &p->rc[i];

		if (one_run(dut, ATTACHED, p->nframes, p->cpu, &p->ra[i]) ||
		    one_run(dut, DETACHED, p->nframes, p->cpu, &p->rb[i]) ||
		    one_run(dut, ATTACHED_STATS, p->nframes, p->cpu, &p->rc[i]))
			return cli_stop ? i : -1;
		p->disturbed += a->disturbed + b->disturbed + c->disturbed;
		p->ratio[i] = a->proc_softirq_ns / a->exact_all_ns;
		p->err_pct[i] = 100 * (p->ratio[i] - 1);
		p->rx_ns_pkt[i] = a->exact_rx_ns / a->frames;
		p->proc_ns_pkt[i] = a->proc_softirq_ns / a->frames;
		p->cost_a[i] = a->thread_ns / a->frames;
		p->cost_b[i] = b->thread_ns / b->frames;
		p->sirq_pkt[i] = a->softirqs / a->frames;
		/* two program runs per softirq */
		p->prog[i] = c->prog_runs ? 2 * c->prog_ns / c->prog_runs : NAN;
	}
	return i;
}

static int print_json(const struct probe *p, const struct cli_lock *lock)
{
	const unsigned int runs = p->runs;
	const struct stats_welch *w = &p->w;
	struct json j;

	json_init(&j, stdout, 2);
	json_begin_object(&j);
	json_kv_string(&j, "tool", "softirq_probe");
	json_kv_bool(&j, "interrupted", cli_stop);
	json_kv_string(&j, "run_lock", cli_lock_state(lock));
	json_kv_u64(&j, "runs", runs);
	json_kv_u64(&j, "frames_per_run", p->nframes);
	json_kv_u64(&j, "cpu", p->cpu);
	json_kv_double(&j, "tsc_ghz", p->ghz);
	json_kv_u64(&j, "disturbed_runs", p->disturbed);
	summary(&j, "proc_stat_error_pct", p->err_pct, runs, "%");
	summary(&j, "net_rx_ns_per_pkt_exact", p->rx_ns_pkt, runs, "ns");
	summary(&j, "softirq_ns_per_pkt_proc_stat", p->proc_ns_pkt, runs, "ns");
	summary(&j, "softirqs_per_pkt", p->sirq_pkt, runs, "");
	summary(&j, "cpu_ns_per_pkt_attached", p->cost_a, runs, "ns");
	summary(&j, "cpu_ns_per_pkt_detached", p->cost_b, runs, "ns");
	json_key(&j, "overhead");
	json_begin_object(&j);
	json_kv_double(&j, "ns_per_pkt", w->diff);
	json_kv_double(&j, "ci_lo", w->ci_lo);
	json_kv_double(&j, "ci_hi", w->ci_hi);
	json_kv_double(&j, "p", w->p);
	json_kv_bool(&j, "distinct", w->distinct);
	json_kv_double(&j, "ns_per_softirq", w->diff / p->spp);
	json_kv_double(&j, "tsc_cycles_per_softirq", w->diff / p->spp * p->ghz);
	json_end_object(&j);
	summary(&j, "prog_ns_per_softirq_bpf_stats", p->prog, runs, "ns");
	json_end_object(&j);
	return json_finish(&j);
}

static void print_text(const struct probe *p, const char *warn)
{
	const unsigned int runs = p->runs;
	const struct stats_welch *w = &p->w;
	int i;

	printf("softirq_probe: %u runs per mode (ABC...)%s, %u frames of %d B per run, CPU %u, TSC %.3f GHz, %d disturbed windows\n",
	       runs, cli_stop ? ", interrupted" : "", p->nframes,
	       FRAME_LEN, p->cpu, p->ghz, p->disturbed);
	if (warn)
		printf("WARNING: %s\n", warn);
	printf("run  frames   wall_ms  exact_all_ms  proc_stat_ms  err%%   rx_ns/pkt  A_ns/pkt  B_ns/pkt\n");
	for (i = 0; i < (int)runs; i++) {
		const struct run *a = &p->ra[i];

		printf("%3d %7.0f %9.1f %12.3f %12.1f %6.2f %10.1f %9.1f %9.1f%s\n",
		       i, a->frames, a->wall_ns / 1e6, a->exact_all_ns / 1e6,
		       a->proc_softirq_ns / 1e6, p->err_pct[i],
		       p->rx_ns_pkt[i], p->cost_a[i], p->cost_b[i],
		       a->disturbed ? "  disturbed" : "");
		if (a->disturbed)
			printf("      A window: %.1f%% of it unexplained on CPU %d\n",
			       100 * a->unexplained_frac, a->worst_cpu);
	}
	summary(NULL, "/proc/stat error", p->err_pct, runs, "%");
	summary(NULL, "NET_RX ns/pkt (exact)", p->rx_ns_pkt, runs, "ns");
	summary(NULL, "softirq ns/pkt (/proc/stat)", p->proc_ns_pkt, runs, "ns");
	summary(NULL, "softirqs/pkt", p->sirq_pkt, runs, "");
	summary(NULL, "CPU ns/pkt, attached", p->cost_a, runs, "ns");
	summary(NULL, "CPU ns/pkt, detached", p->cost_b, runs, "ns");
	printf("  overhead: %+.2f ns/pkt, 95%% CI [%.2f, %.2f], p %.3g (%s); %.2f ns = %.1f TSC cycles per softirq\n",
	       w->diff, w->ci_lo, w->ci_hi, w->p,
	       w->distinct ? "distinct" : "not distinguishable",
	       w->diff / p->spp, w->diff / p->spp * p->ghz);
	summary(NULL, "programs' own time", p->prog, runs,
		"ns per softirq (entry + exit, bpf stats)");
}

int main(int argc, char **argv)
{
	struct config cfg = { .runs = 10, .frames = 200000 };
	struct probe *p = calloc(1, sizeof(*p));
	int link_fd = -1, ret = 1, done;
	struct xsk_prog_bpf *dut = NULL;
	struct cli_lock lock;
	const char *warn;
	char err[ERR_LEN];

	if (!p)
		return 1;
	if (opts_parse(&tool, argc, argv, &cfg, NULL) < 0) {
		free(p);
		return 2;
	}
	p->nframes = cfg.frames;
	p->runs = cfg.runs;
	p->cpu = cfg.cpu;
	if (geteuid()) {
		fprintf(stderr, TOOL ": needs root (XDP, BPF, network namespaces)\n");
		free(p);
		return 1;
	}
	if (pin_self(p->cpu)) {
		fprintf(stderr, TOOL ": --cpu: cannot run on CPU %u: %s\n", p->cpu,
			strerror(errno));
		free(p);
		return 2;
	}
	cli_stop_on_signals();
	xenv_stop_test(cli_stopping);	/* a hung set-up command too */
	if (cli_lock_take(&lock, TOOL, cfg.allow_concurrent)) {
		free(p);
		return cli_finish(tool.name, 1);
	}
	p->ghz = tsc_ghz_measure(200);
	if (xenv_create(&env, NULL, err)) {
		fprintf(stderr, TOOL ": the veth pair: %s\n", err);
		free(p);
		return cli_finish(tool.name, 1);
	}
	link_fd = attach_dut(&dut);
	done = link_fd < 0 ? -1 : measure_runs(dut, p);
	if (done <= 0)
		goto out;	/* interrupted: said below */
	if (done < (int)p->runs)
		fprintf(stderr, TOOL ": interrupted: %d of %u runs per mode done, reported below\n",
			done, p->runs);
	p->runs = done;
	/* before the JSON's run_lock: it checks the lock again */
	warn = cli_lock_warning(&lock);
	stats_welch(p->cost_b, p->runs, p->cost_a, p->runs, &p->w);
	p->spp = stats_median(p->sirq_pkt, p->runs);
	if (cfg.json) {
		if (print_json(p, &lock))
			goto out;
	} else {
		print_text(p, warn);
	}
	ret = 0;
out:
	if (ret && cli_stop)
		fprintf(stderr, TOOL ": interrupted before the first run was done: nothing to report\n");
	if (link_fd >= 0)
		close(link_fd);
	xsk_prog_bpf__destroy(dut);
	xenv_destroy(env);
	cli_lock_release(&lock);
	free(p);
	return cli_finish(tool.name, ret);
}
