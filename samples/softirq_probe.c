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
	char err[256];
	int ret = -ENOMEM, stats_fd = -1;
	double pns0 = 0, pcnt0 = 0, pns1, pcnt1;

	if (!a)
		return ret;
	memset(r, 0, sizeof(*r));
	if (mode != DETACHED) {
		ret = sirq_open(&s, err);
		if (ret) {
			fprintf(stderr, "%s\n", err);
			goto out;
		}
	}
	if (mode == ATTACHED_STATS) {
		stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (stats_fd < 0) {
			ret = -errno;
			fprintf(stderr, "BPF_ENABLE_STATS: %s\n", strerror(errno));
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

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .flags = XDP_FLAGS_DRV_MODE);
	double ratio[MAX_RUNS], rx_ns_pkt[MAX_RUNS], proc_ns_pkt[MAX_RUNS];
	double cost_a[MAX_RUNS], cost_b[MAX_RUNS], sirq_pkt[MAX_RUNS];
	double err_pct[MAX_RUNS], prog[MAX_RUNS];
	struct run ra[MAX_RUNS], rb[MAX_RUNS], rc[MAX_RUNS];
	struct config cfg = { .runs = 10, .frames = 200000 };
	unsigned int nframes, runs, cpu, done;
	int i, link_fd = -1, ret = 1, disturbed = 0;
	struct xsk_prog_bpf *dut = NULL;
	bool json, concurrent;
	struct stats_welch w;
	struct cli_lock lock;
	const char *warn;
	double ghz, spp;
	char err[256];

	if (opts_parse(&tool, argc, argv, &cfg, NULL) < 0)
		return 2;
	nframes = cfg.frames;
	runs = cfg.runs;
	cpu = cfg.cpu;
	json = cfg.json;
	concurrent = cfg.allow_concurrent;
	if (geteuid()) {
		fprintf(stderr, TOOL ": needs root (XDP, BPF, network namespaces)\n");
		return 1;
	}
	if (pin_self(cpu)) {
		fprintf(stderr, TOOL ": --cpu: cannot run on CPU %u: %s\n", cpu,
			strerror(errno));
		return 2;
	}
	cli_stop_on_signals();
	if (cli_lock_take(&lock, TOOL, concurrent))
		return cli_exit_status(1);
	ghz = tsc_ghz_measure(200);
	if (xenv_create(&env, NULL, err)) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	for (i = 0; i < 64; i++)
		xsk_pkt_build(frames + i * FRAME_LEN, FRAME_LEN,
			      env->mac[XENV_DUT], env->mac[XENV_PEER], i, i);
	dut = xsk_prog_bpf__open_and_load();
	if (!dut || xenv_enter(env, XENV_DUT)) {
		fprintf(stderr, "loading the dut's XDP program failed\n");
		goto out;
	}
	link_fd = bpf_link_create(bpf_program__fd(dut->progs.xdp_pass),
				  env->ifindex[XENV_DUT], BPF_XDP, &lopts);
	xenv_enter(env, -1);
	if (link_fd < 0) {
		fprintf(stderr, "native XDP on the dut: %s\n", strerror(errno));
		goto out;
	}
	/* warm up */
	if (one_run(dut, DETACHED, nframes / 4 ?: 1, cpu, &rb[0]))
		goto out;
	for (i = 0; i < (int)runs; i++) {
		if (one_run(dut, ATTACHED, nframes, cpu, &ra[i]) ||
		    one_run(dut, DETACHED, nframes, cpu, &rb[i]) ||
		    one_run(dut, ATTACHED_STATS, nframes, cpu, &rc[i])) {
			if (cli_stop)
				break;
			goto out;
		}
		disturbed += ra[i].disturbed + rb[i].disturbed +
			     rc[i].disturbed;
		ratio[i] = ra[i].proc_softirq_ns / ra[i].exact_all_ns;
		err_pct[i] = 100 * (ratio[i] - 1);
		rx_ns_pkt[i] = ra[i].exact_rx_ns / ra[i].frames;
		proc_ns_pkt[i] = ra[i].proc_softirq_ns / ra[i].frames;
		cost_a[i] = ra[i].thread_ns / ra[i].frames;
		cost_b[i] = rb[i].thread_ns / rb[i].frames;
		sirq_pkt[i] = ra[i].softirqs / ra[i].frames;
		/* two program runs per softirq */
		prog[i] = rc[i].prog_runs ?
			  2 * rc[i].prog_ns / rc[i].prog_runs : NAN;
	}
	done = i;
	if (!done)
		goto out;	/* interrupted: said below */
	if (done < runs)
		fprintf(stderr, TOOL ": interrupted: %u of %u runs per mode done, reported below\n",
			done, runs);
	runs = done;
	warn = cli_lock_warning(&lock);
	stats_welch(cost_b, runs, cost_a, runs, &w);
	spp = stats_median(sirq_pkt, runs);
	if (json) {
		struct json j;

		json_init(&j, stdout, 2);
		json_begin_object(&j);
		json_kv_string(&j, "tool", "softirq_probe");
		json_kv_bool(&j, "interrupted", cli_stop);
		json_kv_string(&j, "run_lock", cli_lock_state(&lock));
		json_kv_u64(&j, "runs", runs);
		json_kv_u64(&j, "frames_per_run", nframes);
		json_kv_u64(&j, "cpu", cpu);
		json_kv_double(&j, "tsc_ghz", ghz);
		json_kv_u64(&j, "disturbed_runs", disturbed);
		summary(&j, "proc_stat_error_pct", err_pct, runs, "%");
		summary(&j, "net_rx_ns_per_pkt_exact", rx_ns_pkt, runs, "ns");
		summary(&j, "softirq_ns_per_pkt_proc_stat", proc_ns_pkt, runs, "ns");
		summary(&j, "softirqs_per_pkt", sirq_pkt, runs, "");
		summary(&j, "cpu_ns_per_pkt_attached", cost_a, runs, "ns");
		summary(&j, "cpu_ns_per_pkt_detached", cost_b, runs, "ns");
		json_key(&j, "overhead");
		json_begin_object(&j);
		json_kv_double(&j, "ns_per_pkt", w.diff);
		json_kv_double(&j, "ci_lo", w.ci_lo);
		json_kv_double(&j, "ci_hi", w.ci_hi);
		json_kv_double(&j, "p", w.p);
		json_kv_bool(&j, "distinct", w.distinct);
		json_kv_double(&j, "ns_per_softirq", w.diff / spp);
		json_kv_double(&j, "tsc_cycles_per_softirq", w.diff / spp * ghz);
		json_end_object(&j);
		summary(&j, "prog_ns_per_softirq_bpf_stats", prog, runs, "ns");
		json_end_object(&j);
		if (json_finish(&j))
			goto out;
	} else {
		printf("softirq_probe: %u runs per mode (ABC...)%s, %u frames of %d B per run, CPU %u, TSC %.3f GHz, %d disturbed windows\n",
		       runs, cli_stop ? ", interrupted" : "", nframes,
		       FRAME_LEN, cpu, ghz, disturbed);
		if (warn)
			printf("WARNING: %s\n", warn);
		printf("run  frames   wall_ms  exact_all_ms  proc_stat_ms  err%%   rx_ns/pkt  A_ns/pkt  B_ns/pkt\n");
		for (i = 0; i < (int)runs; i++) {
			printf("%3d %7.0f %9.1f %12.3f %12.1f %6.2f %10.1f %9.1f %9.1f%s\n",
			       i, ra[i].frames, ra[i].wall_ns / 1e6,
			       ra[i].exact_all_ns / 1e6,
			       ra[i].proc_softirq_ns / 1e6, err_pct[i],
			       rx_ns_pkt[i], cost_a[i], cost_b[i],
			       ra[i].disturbed ? "  disturbed" : "");
		if (ra[i].disturbed)
			printf("      A window: %.1f%% of it unexplained on CPU %d\n",
			       100 * ra[i].unexplained_frac, ra[i].worst_cpu);
		}
		summary(NULL, "/proc/stat error", err_pct, runs, "%");
		summary(NULL, "NET_RX ns/pkt (exact)", rx_ns_pkt, runs, "ns");
		summary(NULL, "softirq ns/pkt (/proc/stat)", proc_ns_pkt, runs, "ns");
		summary(NULL, "softirqs/pkt", sirq_pkt, runs, "");
		summary(NULL, "CPU ns/pkt, attached", cost_a, runs, "ns");
		summary(NULL, "CPU ns/pkt, detached", cost_b, runs, "ns");
		printf("  overhead: %+.2f ns/pkt, 95%% CI [%.2f, %.2f], p %.3g (%s); %.2f ns = %.1f TSC cycles per softirq\n",
		       w.diff, w.ci_lo, w.ci_hi, w.p,
		       w.distinct ? "distinct" : "not distinguishable",
		       w.diff / spp, w.diff / spp * ghz);
		summary(NULL, "programs' own time", prog, runs,
			"ns per softirq (entry + exit, bpf stats)");
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
	return cli_exit_status(ret);
}
