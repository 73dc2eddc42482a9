// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_cost_price - what the NET_RX cost tracepoints cost, on traffic that
 * is already running.
 *
 * The tools' exact softirq time (lib/measure/softirq_cost.h) comes from two BPF
 * programs on irq:softirq_entry/exit; every softirq on the machine runs
 * them.  Separate runs with and without them differ by less than runs
 * differ among themselves, so this tool interleaves the two states finely
 * instead: one set of programs is loaded, then attached and detached in
 * turn for PHASE ms each, and an interface counter (an ethtool statistic,
 * by default veth's rx_queue_*_xdp_drops) is read at each switch.  Each
 * attached phase is paired with the mean ns per frame of the two detached
 * phases around it:
 *
 *   price = 1e9 / rate(attached) - (1e9 / rate(before) + 1e9 / rate(after)) / 2
 *
 * and the report is the median of those with its 95% CI (lib/base/stats.h),
 * beside the detached ns per frame, so that a slow drift of the machine
 * cancels out.  Meant to run beside a generator and an XDP program that
 * the caller started (scripts/bench-peers.sh part 3).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "esc.h"
#include "cli.h"
#include "ethtool_stats.h"
#include "json.h"
#include "measure.h"
#include "opts.h"
#include "softirq_cost.h"
#include "stats.h"

#define TOOL		"xdp_cost_price"
#define MAX_PHASES	100000
#define MIN_PAIRS	3	/* attached phases for a median and a CI */

struct config {
	const char *ifname;
	double duration;
	__u32 phase_ms;
	const char *stat;
	bool json;
	bool allow_concurrent;
	struct cli_lock lock;
};

#define ABOUT \
	"The price of the NET_RX cost tracepoints (lib/measure/softirq_cost.h) on the\n" \
	"traffic already running through IF: their programs are attached and\n" \
	"detached in turn, PHASE ms each, and IF's counter STAT read at every\n" \
	"switch; each attached phase against the two detached phases around it\n" \
	"gives a price in ns per frame.  Prints their median with a 95% CI.\n\n"
#define NOTES \
	"\nIF's counter must count the frames the measured path handles (XDP_DROP\n" \
	"on veth: rx_queue_*_xdp_drops; XDP_TX: rx_queue_*_xdp_tx), and the\n" \
	"traffic must run for the whole duration.  ns per frame are wall time\n" \
	"of the frames' CPU: the price is that of a saturated CPU.\n" \
	"Exit status: 0 done, 1 a failure (said on stderr), 2 bad options.\n"

static const struct opt rows[] = {
	OPTS_INTERFACE(struct config, ifname,
		       "the interface whose counter counts the frames (required)"),
	OPTS_DURATION(struct config, duration, "how long to measure"),
	{ OPTS_ROW(OPT_U32, "phase-ms", 0, struct config, phase_ms, "N",
		   "milliseconds a phase"), .min = 20, .max = 10000 },
	{ OPTS_ROW(OPT_STR, "stat", 0, struct config, stat, "PATTERN",
		   "the ethtool statistics to sum ('*': digits)") },
	OPTS_ALLOW_CONCURRENT(struct config, allow_concurrent),
	OPTS_JSON(struct config, json, "one JSON object instead of the text"),
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL(TOOL, "[OPTIONS] -i IF", rows, struct config,
		  .about = ABOUT, .notes = NOTES);

struct phase {
	bool on;
	double ns_per_frame;	/* NAN: no frames */
	__u64 frames;
};

/* Sleep ns, or until a signal stops the run */
static void sleep_ns(__u64 ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ULL,
			       .tv_nsec = ns % 1000000000ULL };

	while (nanosleep(&ts, &ts) && errno == EINTR && !cli_stop)
		;
}

static int read_count(const struct config *cfg, __u64 *v)
{
	struct ethtool_stats_set set = {};
	int ret = ethtool_stats_read(cfg->ifname, &set);

	if (ret) {
		fprintf(stderr, TOOL ": ethtool statistics of %s: %s\n",
			cfg->ifname, strerror(-ret));
		return ret;
	}
	*v = ethtool_stats_sum(&set, cfg->stat);
	ethtool_stats_free(&set);
	return 0;
}

/*
 * Before any work: the run holds the phases of MIN_PAIRS prices (each
 * attached phase between two detached ones), and STAT names a statistic
 * that IF has.  0, or 2 (said).
 */
static int check_config(const struct config *cfg)
{
	struct ethtool_stats_set set = {};
	unsigned int fit = cfg->duration * 1000 / cfg->phase_ms;
	int ret;

	if (fit < 2 * MIN_PAIRS + 1) {
		fprintf(stderr, TOOL ": --duration %g s holds %u phases of %u ms: %d are needed (%d attached, each between two detached)\n",
			cfg->duration, fit, cfg->phase_ms, 2 * MIN_PAIRS + 1,
			MIN_PAIRS);
		return 2;
	}
	if (!*cfg->stat) {
		fprintf(stderr, TOOL ": --stat: empty pattern\n");
		return 2;
	}
	ret = ethtool_stats_read(cfg->ifname, &set);
	if (ret) {
		fprintf(stderr, TOOL ": ethtool statistics of %s: %s\n",
			cfg->ifname, strerror(-ret));
		return 1;
	}
	ret = ethtool_stats_count(&set, cfg->stat) ? 0 : 2;
	ethtool_stats_free(&set);
	if (ret)
		fprintf(stderr, TOOL ": --stat: %s has no statistic matching '%s' (ethtool -S %s)\n",
			cfg->ifname, esc_text(cfg->stat).s, cfg->ifname);
	return ret;
}

/* The phases, alternating from a detached one; returns how many or -errno */
static int measure(const struct config *cfg, struct sirq *s,
		   struct phase *ph, int max)
{
	__u64 phase_ns = cfg->phase_ms * 1000000ULL, t, c0, c1, t0;
	char err[ERR_LEN];
	int n = 0, ret;

	t0 = mono_ns();
	t = t0;
	while (n < max && !cli_stop && t - t0 < cfg->duration * 1e9) {
		bool on = n % 2;

		ret = sirq_attach(s, on, err);
		if (ret) {
			fprintf(stderr, TOOL ": %s\n", err);
			return ret;
		}
		ret = read_count(cfg, &c0);
		if (ret)
			return ret;
		t = mono_ns();
		sleep_ns(phase_ns);
		ret = read_count(cfg, &c1);
		if (ret)
			return ret;
		ph[n].on = on;
		ph[n].frames = c1 - c0;
		ph[n].ns_per_frame = c1 > c0 ? (mono_ns() - t) / (double)(c1 - c0) :
					       NAN;
		t = mono_ns();
		n++;
	}
	sirq_attach(s, false, err);
	return n;
}

static int report(struct config *cfg, const struct phase *ph, int n)
{
	const char *warn = cli_lock_warning(&cfg->lock);
	double *price = calloc(n, sizeof(*price)), *off = calloc(n, sizeof(*off));
	struct stats_summary sp = {}, so = {};
	int np = 0, no = 0, i, ret = 1;
	__u64 frames = 0;

	if (!price || !off) {
		fprintf(stderr, TOOL ": out of memory\n");
		goto out;
	}
	for (i = 0; i < n; i++) {
		frames += ph[i].frames;
		if (!ph[i].on && !isnan(ph[i].ns_per_frame))
			off[no++] = ph[i].ns_per_frame;
		if (!ph[i].on || i + 1 >= n || isnan(ph[i].ns_per_frame) ||
		    isnan(ph[i - 1].ns_per_frame) || isnan(ph[i + 1].ns_per_frame))
			continue;
		price[np++] = ph[i].ns_per_frame -
			      (ph[i - 1].ns_per_frame + ph[i + 1].ns_per_frame) / 2;
	}
	if (np < MIN_PAIRS || stats_summarize(price, np, &sp) ||
	    stats_summarize(off, no, &so)) {
		fprintf(stderr, TOOL ": %d phases with frames in %s's %s: too few (no traffic, or a wrong --stat?)\n",
			np, cfg->ifname, cfg->stat);
		goto out;
	}
	if (cfg->json) {
		struct json j;

		json_init(&j, stdout, 2);
		json_begin_object(&j);
		json_kv_string(&j, "tool", TOOL);
		json_kv_string(&j, "interface", cfg->ifname);
		json_kv_string(&j, "stat", cfg->stat);
		json_kv_u64(&j, "phase_ms", cfg->phase_ms);
		json_kv_u64(&j, "pairs", np);
		json_kv_u64(&j, "frames", frames);
		json_kv_double(&j, "off_ns_per_frame", so.median);
		json_kv_double(&j, "price_ns_per_frame", sp.median);
		json_kv_double(&j, "price_ci_lo", sp.ci_lo);
		json_kv_double(&j, "price_ci_hi", sp.ci_hi);
		json_kv_string(&j, "ci", stats_ci_method_name(sp.ci_method));
		json_kv_double(&j, "price_frac", sp.median / so.median);
		json_kv_bool(&j, "interrupted", cli_stop);
		json_kv_string(&j, "run_lock", cli_lock_state(&cfg->lock));
		json_end_object(&j);
		ret = json_finish(&j) ? 1 : 0;
		goto out;
	}
	printf("%s %s: %d attached phases of %u ms, each against the detached ones around it\n",
	       cfg->ifname, cfg->stat, np, cfg->phase_ms);
	if (warn)
		printf("  WARNING   %s\n", warn);
	if (cli_stop)
		printf("  INTERRUPTED by a signal: the phases before it\n");
	printf("  detached  %.2f ns per frame (median of %d phases)\n",
	       so.median, no);
	printf("  price     %+.2f ns per frame, 95%% CI [%+.2f, %+.2f] (%s): %+.2f%% of the detached %.2f, %d pairs\n",
	       sp.median, sp.ci_lo, sp.ci_hi, stats_ci_method_name(sp.ci_method),
	       100 * sp.median / so.median, so.median, np);
	ret = 0;
out:
	free(price);
	free(off);
	return ret;
}

int main(int argc, char **argv)
{
	struct config cfg = { .duration = 30, .phase_ms = 200,
			      .stat = "rx_queue_*_xdp_drops" };
	struct phase *ph = NULL;
	struct sirq *s = NULL;
	char err[ERR_LEN];
	int n, ret = 1;

	n = opts_parse(&tool, argc, argv, &cfg, NULL);
	if (n < 0)
		return 2;
	if (n || !cfg.ifname) {
		fprintf(stderr, TOOL ": %s\n", n ? "no arguments are taken" :
			"-i IF is required");
		return 2;
	}
	ret = check_config(&cfg);
	if (ret)
		return ret;
	ret = 1;
	cli_stop_on_signals();
	if (cli_lock_take(&cfg.lock, TOOL, cfg.allow_concurrent))
		return cli_finish(tool.name, 1);
	ph = calloc(MAX_PHASES, sizeof(*ph));
	if (!ph) {
		fprintf(stderr, TOOL ": out of memory\n");
		goto out;
	}
	if (sirq_open(&s, err)) {
		fprintf(stderr, TOOL ": %s\n", err);
		goto out;
	}
	n = measure(&cfg, s, ph, MAX_PHASES);
	if (n >= 0)
		ret = report(&cfg, ph, n);
out:
	sirq_close(s);
	free(ph);
	cli_lock_release(&cfg.lock);
	return cli_finish(tool.name, ret);
}
