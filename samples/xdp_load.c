// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_load - run a command and say how much other work ran beside it.
 *
 * For benchmarks made of other programs (scripts/bench-peers.sh runs
 * xdp-tools beside ours): the sweep's check for foreign load
 * (lib/measure/cpustat.h) over the command's window, with the command's whole
 * process tree as the named work: busy time from /proc/stat on every CPU,
 * less the CPU time of the command and all its waited-for descendants
 * (getrusage(RUSAGE_CHILDREN): exact, softirqs in their context included)
 * and of the ksoftirqd threads (each pinned to its CPU: the softirqs the
 * command's traffic left to them).  What is left is other processes'
 * work, softirqs and hardirqs outside the tree, and /proc/stat's tick
 * error; as a fraction of one CPU over the window, above --max-foreign
 * the run is disturbed.
 *
 * And the host's placement of two CPUs (by default 0 and 1: the
 * generator's and the application's in scripts/bench-peers.sh): the round
 * trip of a cache line between them (lib/measure/line_rtt.h), just before and just
 * after COMMAND, the second 100 ms after it ends (taken at once, after
 * part 6's runs of 2026-12-04 in the quick placement, it read 116-161 ns
 * against 75-90 before, the rates unchanged: the run's deferred work may
 * still have been running beside it).  When
 * the two differ by more than --max-rtt-change (default: one is more than
 * twice the other) the host moved a vCPU during the run, and the run is
 * disturbed too.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "cli.h"
#include "cpustat.h"
#include "esc.h"
#include "measure.h"
#include "line_rtt.h"
#include "opts.h"

#define TOOL	"xdp_load"
#define RTT_SETTLE_MS	100	/* from COMMAND's end to the second round trip */

struct config {
	double max_foreign;
	double max_rtt_change;
	struct opts_list rtt_cpus;
	bool no_rtt;
	const char *record;
};

/* A line round trip before and after COMMAND; NaN: not taken */
struct rtt {
	double before, after;
};

#define ABOUT \
	"Run COMMAND and report the foreign load beside it: the CPU time that\n" \
	"neither COMMAND's process tree nor the ksoftirqd threads used, as a\n" \
	"fraction of one CPU over COMMAND's run (lib/measure/cpustat.h); and the round\n" \
	"trip of a cache line between two CPUs before and after it, which says\n" \
	"how far apart the host placed them (lib/measure/line_rtt.h).\n\n"
#define NOTES \
	"\nThe report is a line on stderr; --record FILE writes it for a script,\n" \
	"one line of TAB-separated fields: foreign steal disturbed seconds\n" \
	"rtt_before rtt_after busy (fractions of one CPU; disturbed 0 or 1; the\n" \
	"round trips in ns, '-' when not taken; busy: each CPU's busy share of\n" \
	"the window from /proc/stat, comma-separated from CPU 0, 0..1).\n" \
	"A run is disturbed by foreign load\n" \
	"or when the round trips differ by more than --max-rtt-change: a\n" \
	"round trip that could not be measured (the CPU stayed busy for a\n" \
	"second) is said on stderr and disturbs nothing.  Only descendants that have\n" \
	"been waited for are counted: a COMMAND that leaves a process running\n" \
	"has its time counted as foreign.\n" \
	"A FIFO as FILE needs its reader already there.\n" \
	"Exit status: COMMAND's (128 + the signal when a signal ended it; 127 not\n" \
	"found, 126 found but not run, as a shell), 1 when the load could not be\n" \
	"read or the record written, 2 on bad options\n" \
	"(FILE that cannot be opened for writing: COMMAND is not run).\n"

static const struct opt rows[] = {
	{ OPTS_ROW(OPT_DOUBLE, "max-foreign", 0, struct config, max_foreign,
		   "FRAC", "disturbed above FRAC of one CPU, 0..64"),
	  .dmin = 0, .dmax = 64 },
	{ OPTS_ROW(OPT_LIST, "rtt-cpus", 0, struct config, rtt_cpus, "A,B",
		   "the two CPUs whose line round trip is taken"),
	  .def = "0,1", .min = 0, .max = 4095, .what = "a CPU" },
	{ OPTS_ROW(OPT_DOUBLE, "max-rtt-change", 0, struct config,
		   max_rtt_change, "FRAC",
		   "disturbed when the round trip after COMMAND differs from the one before by more than FRAC of the smaller, 0..100"),
	  .dmin = 0, .dmax = 100 },
	{ OPTS_ROW(OPT_FLAG, "no-rtt", 0, struct config, no_rtt, NULL,
		   "take no round trip") },
	{ OPTS_ROW(OPT_STR, "record", 0, struct config, record, "FILE",
		   "write the figures to FILE as well") },
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL(TOOL, "[OPTIONS] -- COMMAND [ARG...]", rows, struct config,
		  .about = ABOUT, .notes = NOTES, .args = true,
		  .args_end_opts = true);

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

/* The ksoftirqd threads, each pinned to the CPU its name says */
static int ksoftirqd_threads(struct load_thread *th)
{
	pid_t tids[LOAD_MAX_THREADS];
	int n = 0, cpu;

	ksoftirqd_tids(tids, LOAD_MAX_THREADS);
	for (cpu = 0; cpu < LOAD_MAX_THREADS; cpu++)
		if (tids[cpu]) {
			th[n].tid = tids[cpu];
			th[n++].cpu = cpu;
		}
	return n;
}

static int snap(struct load_snap *s, const struct load_thread *th, int nth)
{
	int ret = load_snap_take(s, NULL, th, nth);

	if (!ret)
		ret = load_snap_children(s);
	if (ret)
		fprintf(stderr, TOOL ": reading the CPU times: %s\n", strerror(-ret));
	return ret;
}

/* COMMAND's exit status as a shell gives it; a signal here goes to it */
static int run(char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	pid_t child, parent = getpid();
	int st, e;

	child = fork();
	if (child < 0) {
		fprintf(stderr, TOOL ": fork: %s\n", strerror(errno));
		return 1;
	}
	if (!child) {
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(128 + SIGTERM);
		cli_exec_prep();
		execvp(argv[0], argv);
		e = errno;
		fprintf(stderr, TOOL ": '%s': %s\n", esc_text(argv[0]).s,
			strerror(e));
		_exit(e == ENOENT ? 127 : 126);	/* as a shell */
	}
	/* no SA_RESTART: a signal ends waitpid() and is passed on */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	while (waitpid(child, &st, 0) < 0) {
		if (errno != EINTR)
			return 1;
		if (stop_sig)
			kill(child, stop_sig);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The round trip, NaN when it is not or cannot be taken (said why) */
static double take_rtt(const struct config *cfg, const char *when)
{
	if (cfg->no_rtt)
		return NAN;
	return line_rtt_take(cfg->rtt_cpus.v[0], cfg->rtt_cpus.v[1], TOOL,
			     when);
}

/*
 * --record's file, opened before COMMAND runs: a path that cannot be
 * written is said before any work, and a FIFO without a reader is refused
 * rather than waited for (O_NONBLOCK: ENXIO), then written as any file.
 * NULL when none is asked; exits 2 (said) when it cannot be opened.
 */
static FILE *record_open(const struct config *cfg, int *status)
{
	FILE *f;

	*status = 0;
	if (!cfg->record)
		return NULL;
	f = cli_open_stream(cfg->record);
	if (!f) {
		fprintf(stderr, TOOL ": --record: '%s': %s\n",
			esc_path(cfg->record).s,
			errno == ENXIO ? "a FIFO that nobody reads, a socket, or a closed standard stream" :
			strerror(errno));
		/* what cannot be opened is refused before COMMAND runs */
		*status = 2;
	}
	return f;
}

/* The verdict: too short a window for /proc/stat, disturbed, or quiet */
static const char *verdict(const struct load_report *r, bool moved,
			   const struct config *cfg)
{
	if (r->resolution > cfg->max_foreign)
		return "too short to judge";
	return r->disturbed || moved ? "disturbed" : "quiet";
}

static int report(const struct load_report *r, const struct rtt *t,
		  const struct config *cfg, FILE *f)
{
	double steal = 0, secs = r->window_ns / 1e9;
	bool moved = line_rtt_moved(t->before, t->after, cfg->max_rtt_change);
	const char *v = verdict(r, moved, cfg);
	int c, ret;

	for (c = 0; c < r->ncpus; c++)
		steal += r->cpu[c].steal_ns;
	steal = r->window_ns > 0 ? steal / r->window_ns : 0;
	fprintf(stderr, TOOL ": %.2f s: foreign load %.1f%% of a CPU, steal %.1f%%",
		secs, 100 * r->worst_frac, 100 * steal);
	if (!isnan(t->before) || !isnan(t->after))
		fprintf(stderr, ", line round trip CPU %u-%u %s -> %s ns%s",
			cfg->rtt_cpus.v[0], cfg->rtt_cpus.v[1],
			cli_num_text(t->before, 0).s,
			cli_num_text(t->after, 0).s,
			moved ? " (the host moved a CPU)" : "");
	fprintf(stderr, ": %s", v);
	if (r->resolution > cfg->max_foreign)
		fprintf(stderr, " (/proc/stat's 10 ms units are %.1f%% of a CPU over %.2f s, more than --max-foreign %.1f%%)",
			100 * r->resolution, secs, 100 * cfg->max_foreign);
	fputc('\n', stderr);
	if (!f)
		return 0;
	/* a window too short to judge is none a script may take as quiet */
	fprintf(f, "%.4f\t%.4f\t%d\t%.3f", r->worst_frac, steal,
		strcmp(v, "quiet") != 0, secs);
	fprintf(f, "\t%s\t%s\t", cli_num_text(t->before, 0).s,
		cli_num_text(t->after, 0).s);
	/* each CPU's busy share: which one a run saturated */
	for (c = 0; c < r->ncpus; c++)
		fprintf(f, "%s%.3f", c ? "," : "",
			r->window_ns > 0 ?
			fmin(1, r->cpu[c].busy_ns / r->window_ns) : 0);
	fputc('\n', f);
	ret = cli_file_close(f);
	if (ret) {
		fprintf(stderr, TOOL ": --record: '%s': %s\n",
			esc_path(cfg->record).s,
			strerror(-ret));
		return 1;
	}
	return 0;
}

/*
 * Two CPUs this process may run on; where the default's CPU 0 or 1 is not
 * one (one CPU, or a cpuset without them) there is no round trip to take,
 * and the default says nothing
 */
static int check_rtt_cpus(struct config *cfg, bool given)
{
	int ret;

	if (cfg->no_rtt && given) {
		fprintf(stderr, TOOL ": --rtt-cpus and --no-rtt exclude each other\n");
		return -EINVAL;
	}
	if (cfg->no_rtt)
		return 0;
	ret = line_rtt_cpu_pair(TOOL, "rtt-cpus", "A,B", cfg->rtt_cpus.v,
				cfg->rtt_cpus.n, given);
	if (ret == -ENODEV && !given) {	/* the default pair: no round trip */
		cfg->no_rtt = true;
		return 0;
	}
	return ret;
}

int main(int argc, char **argv)
{
	struct config cfg = { .max_foreign = 0.05,
			      .max_rtt_change = LINE_RTT_MOVED,
			      .rtt_cpus = { .n = 2, .v = { 0, 1 } } };
	struct load_thread th[LOAD_MAX_THREADS];
	struct load_snap *s = calloc(2, sizeof(*s));
	struct load_report r;
	opts_given_t given = 0;
	FILE *record;
	struct rtt t;
	int nargs, nth, ret = 1;

	if (!s)
		return 1;
	nargs = opts_parse(&tool, argc, argv, &cfg, &given);
	if (nargs <= 0) {
		if (!nargs)
			fprintf(stderr, TOOL ": no command given (" TOOL " [OPTIONS] -- COMMAND)\n");
		free(s);
		return 2;
	}
	if (check_rtt_cpus(&cfg, opts_given(&tool, given, "rtt-cpus"))) {
		free(s);
		return 2;
	}
	record = record_open(&cfg, &ret);
	if (ret) {
		free(s);
		return ret;
	}
	ret = 1;
	argv[1 + nargs] = NULL;
	nth = ksoftirqd_threads(th);
	t.before = take_rtt(&cfg, "before COMMAND");
	if (snap(&s[0], th, nth))
		goto out;
	ret = run(argv + 1);
	if (snap(&s[1], th, nth)) {
		ret = ret ?: 1;
		goto out;
	}
	/* the run's sockets and pages are freed in deferred work: let it end */
	t.after = NAN;
	if (!cfg.no_rtt && !stop_sig) {
		usleep(RTT_SETTLE_MS * 1000);
		t.after = take_rtt(&cfg, "after COMMAND");
	}
	load_check(&s[0], &s[1], th, nth, cfg.max_foreign, &r);
	if (report(&r, &t, &cfg, record))
		ret = ret ?: 1;
	record = NULL;	/* closed by report() */
out:
	if (record)
		fclose(record);
	free(s);
	return ret;
}
