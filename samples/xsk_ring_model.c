// SPDX-License-Identifier: GPL-2.0
/*
 * xsk_ring_model - what reading the AF_XDP RX descriptors costs the CPU
 * that writes them, and what the writer could win back, without a kernel.
 *
 * In native copy mode on veth the NAPI's CPU sets the rate of every
 * rxdrop receiver (Documentation/xdpsock.rst, Native mode: the descriptor
 * lines), and a receiver that reads its descriptors makes each line of
 * four cross to its CPU and back.  A kernel-side change against that (a
 * prefetchw of the next line in xskq_prod_reserve_desc(), say) cannot be
 * measured on a host whose kernel we do not boot, so this tool models the
 * pattern in two threads (lib/bench/ring_model.h) and runs its variants in turn,
 * RUNS times each, on the same two CPUs:
 *
 *   read       the consumer reads and checks every descriptor
 *   none       it reads only the indices
 *   prefetchw  read, and the producer prefetches the line --prefetch
 *              descriptors ahead for writing
 *   flush      read, and the consumer evicts each finished line
 *              (clflushopt)
 *   write      the consumer first stores into each whole line of what
 *              was published a value it holds, then reads (xdpsock's
 *              rxdrop loop: XSKB_LINE, lib/bench/xsk_bench.h)
 *
 * and reports each one's median ns per frame on the producer's CPU, with
 * its difference from read.  The line round trip between the CPUs
 * (lib/measure/line_rtt.h) before and after says which placement the host gave
 * them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "line_rtt.h"
#include "opts.h"
#include "ring_model.h"
#include "stats.h"

#define TOOL	"xsk_ring_model"

enum variant {
	V_READ,
	V_NONE,
	V_PREFETCHW,
	V_FLUSH,
	V_WRITE,
	V_NR,
};

static const char *const variant_names[V_NR] = {
	[V_READ] = "read",
	[V_NONE] = "none",
	[V_PREFETCHW] = "prefetchw",
	[V_FLUSH] = "flush",
	[V_WRITE] = "write",
};

static int variant_parse(const char *s, __u32 *v)
{
	__u32 i;

	for (i = 0; i < V_NR; i++)
		if (!strcmp(s, variant_names[i])) {
			*v = i;
			return 0;
		}
	return -EINVAL;
}

struct config {
	double duration;
	__u32 runs;
	struct opts_list cpus;
	struct opts_list variants;
	__u32 ring, batch, frames, size, work, prefetch;
	bool no_lock;
	bool json;
	bool allow_concurrent;
	struct cli_lock lock;
};

#define ABOUT \
	"Model the AF_XDP RX ring between the NAPI's CPU and a receiver's\n" \
	"(lib/bench/ring_model.h): a producer thread writes descriptors as the kernel's\n" \
	"copy-mode receive does, a consumer thread takes them as an rxdrop loop\n" \
	"does.  The variants run in turn, RUNS times each; the report is each\n" \
	"one's median ns per frame on the producer's CPU with a 95% CI, and its\n" \
	"difference from 'read' (bootstrap 95% CI).\n\n"
#define NOTES \
	"\nVariants: read (the consumer reads and checks every descriptor), none\n" \
	"(it reads only the indices), prefetchw (read; the producer prefetches\n" \
	"for writing the line --prefetch descriptors ahead), flush (read; the\n" \
	"consumer evicts each line it has finished with clflushopt), write\n" \
	"(the consumer first stores into each whole line of what was\n" \
	"published a value it holds, as xdpsock's rxdrop loop does).  ns are\n" \
	"wall time of the producer's CPU, which is saturated.  Every descriptor\n" \
	"read is checked against what the producer wrote; one that differs is\n" \
	"an error.  The model stands for the pattern, not for the kernel's\n" \
	"figures: compare its variants, not its ns with a receiver's.\n" \
	"Exit status: 0 done, 1 a failure (said on stderr), 2 bad options.\n"

static const struct opt rows[] = {
	OPTS_DURATION(struct config, duration, "each run's length"),
	OPTS_REPEAT(struct config, runs, "runs of each variant, in turn (3 or more for a CI)"),
	{ OPTS_ROW(OPT_LIST, "cpus", 0, struct config, cpus, "P,C",
		   "the producer's CPU (the NAPI's) and the consumer's"),
	  .def = "0,1", .min = 0, .max = 4095, .what = "a CPU" },
	{ OPTS_ROW(OPT_LIST, "variants", 0, struct config, variants, "LIST",
		   "what to run: read, none, prefetchw, flush, write"),
	  .parse = variant_parse, .def = "read,none,prefetchw,write,flush",
	  .values = "read, none, prefetchw, flush, write" },
	{ OPTS_ROW(OPT_U32, "ring", 0, struct config, ring, "N",
		   "RX ring entries, a power of 2"),
	  .min = 64, .max = RING_MODEL_MAX_RING },
	{ OPTS_ROW(OPT_U32, "batch", 'b', struct config, batch, "N",
		   "frames a publication of the producer index (a NAPI poll's)"),
	  .min = 1, .max = RING_MODEL_MAX_RING },
	{ OPTS_ROW(OPT_U32, "umem-frames", 0, struct config, frames, "N",
		   "UMEM chunks the copies go to, in turn"),
	  .min = 1, .max = RING_MODEL_MAX_FRAMES },
	{ OPTS_ROW(OPT_U32, "size", 's', struct config, size, "BYTES",
		   "bytes copied into a chunk a frame"),
	  .min = OPTS_SIZE_MIN, .max = RING_MODEL_MAX_SIZE },
	{ OPTS_ROW(OPT_U32, "work", 0, struct config, work, "N",
		   "rounds of dependent arithmetic a frame (the rest of the path)"),
	  .min = 0, .max = RING_MODEL_MAX_WORK },
	{ OPTS_ROW(OPT_U32, "prefetch", 0, struct config, prefetch, "N",
		   "prefetchw's distance in descriptors, 1..ring - 1"),
	  .min = 1, .max = RING_MODEL_MAX_RING - 1,
	  .def = "64, or half of a smaller ring" },
	{ OPTS_ROW(OPT_FLAG, "no-lock", 0, struct config, no_lock, NULL,
		   "no locked instruction a frame on the producer") },
	OPTS_ALLOW_CONCURRENT(struct config, allow_concurrent),
	OPTS_JSON(struct config, json, "one JSON object instead of the text"),
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL(TOOL, "[OPTIONS]", rows, struct config,
		  .about = ABOUT, .notes = NOTES);

struct variant_runs {
	enum variant v;
	double ns[OPTS_REPEAT_MAX];
	struct ring_model_result sum;	/* over the whole rounds */
	struct ring_model_result round;	/* the round in progress */
	struct stats_summary s;
	double diff_lo, diff_hi;	/* against read's: NaN when none */
};

static struct ring_model_cfg model_cfg(const struct config *cfg,
				       enum variant v)
{
	return (struct ring_model_cfg) {
		.prod_cpu = cfg->cpus.v[0], .cons_cpu = cfg->cpus.v[1],
		.ring = cfg->ring, .batch = cfg->batch,
		.frames = cfg->frames, .size = cfg->size, .work = cfg->work,
		.prefetch = v == V_PREFETCHW ? cfg->prefetch : 0,
		.no_lock = cfg->no_lock,
		.consumer = v == V_NONE ? RING_NONE :
			    v == V_FLUSH ? RING_FLUSH :
			    v == V_WRITE ? RING_WRITE : RING_READ,
		.seconds = cfg->duration,
		.stop = &cli_stop,
	};
}

static int check(struct config *cfg, bool variants_given, bool prefetch_given)
{
	unsigned int i;

	if (line_rtt_cpu_pair(TOOL, "cpus", "P,C", cfg->cpus.v, cfg->cpus.n,
			      true))
		return -EINVAL;
	if (cfg->ring & (cfg->ring - 1)) {
		fprintf(stderr, TOOL ": --ring: '%u' is not a power of 2\n",
			cfg->ring);
		return -EINVAL;
	}
	if (cfg->batch > cfg->ring) {
		fprintf(stderr, TOOL ": --batch: '%u' is more than the ring's %u entries\n",
			cfg->batch, cfg->ring);
		return -EINVAL;
	}
	for (i = 0; i < cfg->variants.n; i++)
		if (cfg->variants.v[i] == V_PREFETCHW)
			break;
	if (!prefetch_given && cfg->prefetch >= cfg->ring)
		cfg->prefetch = cfg->ring / 2;	/* the default, on a small ring */
	if (i < cfg->variants.n && cfg->prefetch >= cfg->ring) {
		fprintf(stderr, TOOL ": --prefetch: '%u' is not below the ring's %u entries\n",
			cfg->prefetch, cfg->ring);
		return -EINVAL;
	}
	for (i = 0; i < cfg->variants.n; i++) {
		if (cfg->variants.v[i] != V_FLUSH || ring_model_has_clflushopt())
			continue;
		if (variants_given) {
			fprintf(stderr, TOOL ": --variants: flush needs clflushopt, which this CPU does not have\n");
			return -EINVAL;
		}
		/* the default list: flush is last */
		fprintf(stderr, TOOL ": this CPU has no clflushopt: no flush variant\n");
		cfg->variants.n--;
	}
	return 0;
}

static double diff(double read, double other)
{
	return other - read;
}

/*
 * Round r: a run of each variant, in turn, added to the sums once all are
 * done.  0; 1 on a failure (said); -EINTR when a signal cut a run short.
 */
static int run_round(const struct config *cfg, struct variant_runs *vr,
		     unsigned int r)
{
	unsigned int i;

	for (i = 0; i < cfg->variants.n; i++) {
		struct ring_model_cfg mc = model_cfg(cfg, vr[i].v);
		struct ring_model_result *res = &vr[i].round;
		int ret = ring_model_run(&mc, res);

		if (ret) {
			fprintf(stderr, TOOL ": %s run: %s\n",
				variant_names[vr[i].v], strerror(-ret));
			return 1;
		}
		if (cli_stop)
			return -EINTR;
		if (res->consumed != res->produced || res->bad) {
			fprintf(stderr, TOOL ": %s run: the consumer took %llu of %llu descriptors, %llu of those read not as written\n",
				variant_names[vr[i].v],
				(unsigned long long)res->consumed,
				(unsigned long long)res->produced,
				(unsigned long long)res->bad);
			return 1;
		}
		vr[i].ns[r] = res->ns_per_frame;
	}
	for (i = 0; i < cfg->variants.n; i++) {
		vr[i].sum.produced += vr[i].round.produced;
		vr[i].sum.checked += vr[i].round.checked;
		vr[i].sum.full_waits += vr[i].round.full_waits;
	}
	return 0;
}

/*
 * Run every variant cfg->runs times, in turn; 0 or 1 (said on stderr).
 * A signal ends the runs: cfg->runs becomes the rounds every variant
 * finished whole (the report says it was interrupted), 1 when none did.
 */
static int measure(struct config *cfg, struct variant_runs *vr)
{
	unsigned int r;
	int ret = 0;

	for (r = 0; r < cfg->runs && !cli_stop && !ret; r += !ret)
		ret = run_round(cfg, vr, r);
	if (ret > 0)
		return 1;
	if (!cli_stop)
		return 0;
	if (!r) {
		fprintf(stderr, TOOL ": interrupted before the first round was done: nothing to report\n");
		return 1;
	}
	fprintf(stderr, TOOL ": interrupted: %u of %u runs a variant done, reported below\n",
		r, cfg->runs);
	cfg->runs = r;
	return 0;
}

/* The runs of 'read', which the others are set against; NULL: not run */
static const struct variant_runs *read_runs(const struct config *cfg,
					    const struct variant_runs *vr)
{
	unsigned int i;

	for (i = 0; i < cfg->variants.n; i++)
		if (vr[i].v == V_READ)
			return &vr[i];
	return NULL;
}

static int summarize(const struct config *cfg, struct variant_runs *vr)
{
	const struct variant_runs *read = read_runs(cfg, vr);
	unsigned int i;

	for (i = 0; i < cfg->variants.n; i++)
		if (stats_summarize(vr[i].ns, cfg->runs, &vr[i].s)) {
			fprintf(stderr, TOOL ": out of memory\n");
			return 1;
		}
	for (i = 0; i < cfg->variants.n; i++) {
		vr[i].diff_lo = NAN;
		vr[i].diff_hi = NAN;
		if (read && &vr[i] != read &&
		    stats_boot_medians2(read->ns, cfg->runs, vr[i].ns,
					cfg->runs, diff, &vr[i].diff_lo,
					&vr[i].diff_hi) == -ENOMEM) {
			fprintf(stderr, TOOL ": out of memory\n");
			return 1;
		}
	}
	return 0;
}

static int report_json(struct config *cfg, const struct variant_runs *vr,
			double rtt0, double rtt1, const struct variant_runs *read)
{
	struct json j;
	unsigned int i;

	json_init(&j, stdout, 2);
	json_begin_object(&j);
	json_kv_string(&j, "tool", TOOL);
	json_kv_u64(&j, "producer_cpu", cfg->cpus.v[0]);
	json_kv_u64(&j, "consumer_cpu", cfg->cpus.v[1]);
	json_kv_u64(&j, "ring", cfg->ring);
	json_kv_u64(&j, "batch", cfg->batch);
	json_kv_u64(&j, "umem_frames", cfg->frames);
	json_kv_u64(&j, "size", cfg->size);
	json_kv_u64(&j, "work", cfg->work);
	json_kv_u64(&j, "prefetch", cfg->prefetch);
	json_kv_bool(&j, "lock", !cfg->no_lock);
	json_kv_u64(&j, "runs", cfg->runs);
	json_kv_double(&j, "duration_s", cfg->duration);
	json_kv_double(&j, "line_rtt_before_ns", rtt0);
	json_kv_double(&j, "line_rtt_after_ns", rtt1);
	json_kv_bool(&j, "host_moved", line_rtt_moved(rtt0, rtt1, LINE_RTT_MOVED));
	json_key(&j, "variants");
	json_begin_array(&j);
	for (i = 0; i < cfg->variants.n; i++) {
		json_begin_object(&j);
		json_kv_string(&j, "variant", variant_names[vr[i].v]);
		json_key(&j, "ns_per_frame");
		json_begin_array(&j);
		for (unsigned int r = 0; r < cfg->runs; r++)
			json_double(&j, vr[i].ns[r]);
		json_end_array(&j);
		json_kv_double(&j, "median_ns", vr[i].s.median);
		json_kv_double(&j, "ci_lo", vr[i].s.ci_lo);
		json_kv_double(&j, "ci_hi", vr[i].s.ci_hi);
		json_kv_string(&j, "ci", stats_ci_method_name(vr[i].s.ci_method));
		if (read && &vr[i] != read) {
			json_kv_double(&j, "diff_from_read_ns",
				       vr[i].s.median - read->s.median);
			json_kv_double(&j, "diff_ci_lo", vr[i].diff_lo);
			json_kv_double(&j, "diff_ci_hi", vr[i].diff_hi);
		}
		json_kv_u64(&j, "frames", vr[i].sum.produced);
		json_kv_u64(&j, "checked", vr[i].sum.checked);
		json_kv_u64(&j, "full_waits", vr[i].sum.full_waits);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_kv_string(&j, "run_lock", cli_lock_state(&cfg->lock));
	json_kv_bool(&j, "interrupted", cli_stop);
	json_end_object(&j);
	return json_finish(&j) ? 1 : 0;
}

static int report(struct config *cfg, const struct variant_runs *vr,
		  double rtt0, double rtt1)
{
	const struct variant_runs *read = read_runs(cfg, vr);
	const char *warn = cli_lock_warning(&cfg->lock);
	unsigned int i;

	if (cfg->json)
		return report_json(cfg, vr, rtt0, rtt1, read);
	printf("%s: producer CPU %u, consumer CPU %u; ring %u, batch %u, %u UMEM chunks, %u B copied, work %u, %s a frame; %u runs of %.1f s a variant, in turn\n",
	       TOOL, cfg->cpus.v[0], cfg->cpus.v[1], cfg->ring, cfg->batch,
	       cfg->frames, cfg->size, cfg->work,
	       cfg->no_lock ? "no locked instruction" : "a locked instruction",
	       cfg->runs, cfg->duration);
	printf("line round trip CPU %u-%u, ns: %s before, %s after%s\n",
	       cfg->cpus.v[0], cfg->cpus.v[1], cli_num_text(rtt0, 0).s,
	       cli_num_text(rtt1, 0).s,
	       line_rtt_moved(rtt0, rtt1, LINE_RTT_MOVED) ?
	       ": the host moved a CPU, the variants ran in two placements" : "");
	if (warn)
		printf("WARNING %s\n", warn);
	if (cli_stop)
		printf("INTERRUPTED by a signal: %u runs a variant\n", cfg->runs);
	printf("  %-10s %9s  %-20s  %7s  %s\n", "variant", "ns/frame",
	       "95% CI", "Mfps", "against read, ns/frame (95% CI)");
	for (i = 0; i < cfg->variants.n; i++) {
		char ci[48] = "-", d[64] = "-";

		if (!isnan(vr[i].s.ci_lo))
			snprintf(ci, sizeof(ci), "[%.1f, %.1f]", vr[i].s.ci_lo,
				 vr[i].s.ci_hi);
		if (read && &vr[i] != read)
			snprintf(d, sizeof(d), isnan(vr[i].diff_lo) ?
				 "%+.1f (no CI)" : "%+.1f [%+.1f, %+.1f]",
				 vr[i].s.median - read->s.median,
				 vr[i].diff_lo, vr[i].diff_hi);
		printf("  %-10s %9.1f  %-20s  %7.2f  %s\n",
		       variant_names[vr[i].v], vr[i].s.median, ci,
		       1e3 / vr[i].s.median, d);
	}
	for (i = 0; i < cfg->variants.n; i++)
		if (vr[i].sum.checked)
			printf("  %s: %llu descriptors read, every one as written\n",
			       variant_names[vr[i].v],
			       (unsigned long long)vr[i].sum.checked);
	return 0;
}

int main(int argc, char **argv)
{
	struct config cfg = { .duration = 1, .runs = 5,
			      .cpus = { .n = 2, .v = { 0, 1 } },
			      .variants = { .n = V_NR,
					    .v = { V_READ, V_NONE, V_PREFETCHW,
						   V_WRITE, V_FLUSH } },
			      .ring = 2048, .batch = 64, .frames = 256,
			      .size = 64, .work = 0, .prefetch = 64 };
	struct variant_runs *vr = NULL;
	opts_given_t given = 0;
	double rtt0, rtt1;
	unsigned int i;
	int ret = 1;

	/* no .args: an argument is refused there */
	if (opts_parse(&tool, argc, argv, &cfg, &given) < 0)
		return 2;
	if (check(&cfg, opts_given(&tool, given, "variants"),
		  opts_given(&tool, given, "prefetch")))
		return 2;
	cli_stop_on_signals();
	if (cli_lock_take(&cfg.lock, TOOL, cfg.allow_concurrent))
		return cli_finish(tool.name, 1);
	vr = calloc(cfg.variants.n, sizeof(*vr));
	if (!vr) {
		fprintf(stderr, TOOL ": out of memory\n");
		goto out;
	}
	for (i = 0; i < cfg.variants.n; i++)
		vr[i].v = cfg.variants.v[i];
	rtt0 = line_rtt_take(cfg.cpus.v[0], cfg.cpus.v[1], TOOL,
			     "before the runs");
	ret = measure(&cfg, vr);
	rtt1 = line_rtt_take(cfg.cpus.v[0], cfg.cpus.v[1], TOOL,
			     "after the runs");
	if (!ret)
		ret = summarize(&cfg, vr);
	if (!ret)
		ret = report(&cfg, vr, rtt0, rtt1);
out:
	free(vr);
	cli_lock_release(&cfg.lock);
	return cli_finish(tool.name, ret);
}
