// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark against xdp-tools, on recorded runs (no traffic): the
 * two-sample bootstrap of stats_boot_medians2(), the records of lib/report/peers.h
 * read, summarized and written as the bench-peers/1 JSON, malformed
 * records refused with the line and the value, the children's time in
 * load_check() and the line round trip (what xdp_load reports).
 *
 * The recorded comparison "spin":
 *   ours  3.80 3.90 3.85 - 3.87 Mpps (one run gave no rate; the second
 *         still disturbed after 2 retries): rated 4, median 3.86
 *   peer  4.10 4.20 4.15 4.16 4.12: median 4.15
 *   ratio 3.86 / 4.15 = 0.93012, ns 1e9 / 3.86e6 - 1e9 / 4.15e6 = +18.10;
 *   the bootstrap interval lies within [min / max, max / min] =
 *   [3.80 / 4.20, 3.90 / 4.10] = [0.9048, 0.9512] and holds the ratio.
 */
#include <errno.h>
#include <sched.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "cpustat.h"
#include "json_read.h"
#include "line_rtt.h"
#include "peers.h"
#include "stats.h"

static const char records[] =
	"# recorded by hand\n"
	"bench\tkernel\t6.18.0\n"
	"bench\tcpu\ttest CPU, 2 CPUs\n"
	"bench\txdp_tools\t1.6.3-1\n"
	"bench\truns\t5\n"
	"bench\tsecs\t6\n"
	"bench\tmax_foreign\t0.05\n"
	"bench\tmax_retries\t2\n"
	"\n"
	"part\t4\tAF_XDP rxdrop\n"
	"setting\tbatch\t64 (-b 64)\t64 (default -b)\n"
	"setting\tfill ring\t4096\t4096\tthe peer has no option\n"
	"note\tspin: the loop spins\n"
	"cmp\tspin\txdpsock\txdp-bench xsk-drop\n"
	"cmd\tours\txdpsock -i veth0 --rxdrop\n"
	"cmd\tpeer\txdp-bench xsk-drop veth0\n"
	"run\tours\t3800000\t0.01\t0\t0\t0\n"
	"run\tpeer\t4100000\t0.02\t0\t0\t0\n"
	"run\tours\t3900000\t0.31\t0\t1\t2\n"
	"run\tpeer\t4200000\t0.01\t0\t0\t1\n"
	"run\tours\t3850000\t0.01\t0\t0\t0\n"
	"run\tpeer\t4150000\t0.01\t0\t0\t0\n"
	"run\tours\t-\t0.01\t0\t0\t0\n"
	"run\tpeer\t4160000\t0.01\t0\t0\t0\n"
	"run\tours\t3870000\t0.01\t0\t0\t0\n"
	"run\tpeer\t4120000\t0.01\t0\t0\t0\n"
	"cmp\tpoll\txdpsock\txdp-bench xsk-drop\n"
	"skip\txdpsock has no poll mode\n"
	"cmp\tshort\txdpsock\txdp-bench xsk-drop\n"
	"run\tours\t1000000\t0\t0\t0\t0\n"
	"run\tpeer\t2000000\t0\t0\t0\t0\n";

static int read_mem(struct peers_bench *b, const char *text, size_t len,
		    char err[ERR_LEN])
{
	FILE *f;
	int ret;

	/* glibc's fmemopen() of no bytes fails: read /dev/null then */
	f = len ? fmemopen((void *)text, len, "r") : fopen("/dev/null", "re");
	if (!f)
		return -errno;
	ret = peers_read(b, f, "rec", err);
	fclose(f);
	return ret;
}

static int read_str(struct peers_bench *b, const char *text, char err[ERR_LEN])
{
	return read_mem(b, text, strlen(text), err);
}

/*
 * What peers_print_json() (json) or peers_print_text() writes, in a string
 * the caller frees, its length in *len; NULL when it failed
 */
static char *printed(const struct peers_bench *b, bool json, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	int ret = 0;

	if (!f)
		return NULL;
	if (json)
		ret = peers_print_json(b, f);
	else
		peers_print_text(b, f);
	if (fclose(f) || ret) {
		free(text);
		return NULL;
	}
	return text;
}

static double ratio(double a, double b)
{
	return a / b;
}

TEST(boot_medians2)
{
	const double a[] = { 1, 2, 3 }, ones[] = { 1, 1, 1 }, twos[] = { 2, 2, 2 };
	double lo, hi;

	/* a resampled median is 1 or 3 with 7/27 each: both ends are in */
	ASSERT_EQ(0, stats_boot_medians2(a, 3, ones, 3, ratio, &lo, &hi));
	EXPECT_EQ(1, lo);
	EXPECT_EQ(3, hi);
	/* no spread: a point */
	ASSERT_EQ(0, stats_boot_medians2(twos, 3, ones, 3, ratio, &lo, &hi));
	EXPECT_EQ(2, lo);
	EXPECT_EQ(2, hi);
	/* fewer than 3 a side: no interval */
	EXPECT_EQ(-EINVAL, stats_boot_medians2(a, 2, ones, 3, ratio, &lo, &hi));
	EXPECT_TRUE(isnan(lo) && isnan(hi));
}

TEST(summary)
{
	struct peers_bench *b = calloc(1, sizeof(*b));
	const struct peers_cmp *c;
	char err[ERR_LEN] = "";

	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, read_str(b, records, err)) TH_LOG("%s", err);
	ASSERT_EQ(0, peers_summarize(b));
	ASSERT_EQ(1U, b->nparts);
	EXPECT_EQ(5U, b->runs);
	EXPECT_EQ(2U, b->max_retries);
	EXPECT_EQ(4U, b->part[0].id);
	EXPECT_EQ(2U, b->part[0].nset);
	EXPECT_STREQ("the peer has no option", b->part[0].set[1].note);
	EXPECT_STREQ("", b->part[0].set[0].note);
	ASSERT_EQ(3U, b->part[0].ncmp);

	c = &b->part[0].cmp[0];
	EXPECT_EQ(5U, c->side[PEERS_OURS].n);
	EXPECT_EQ(4U, c->side[PEERS_OURS].rated);
	EXPECT_EQ(1U, c->side[PEERS_OURS].disturbed);
	EXPECT_EQ(5U, c->side[PEERS_PEER].rated);
	EXPECT_EQ(0U, c->side[PEERS_PEER].disturbed);
	EXPECT_EQ(3860000, c->side[PEERS_OURS].median);
	EXPECT_EQ(4150000, c->side[PEERS_PEER].median);
	EXPECT_LT(fabs(c->ratio - 3.86 / 4.15), 1e-12);
	EXPECT_LT(fabs(c->ns_diff - (1e9 / 3.86e6 - 1e9 / 4.15e6)), 1e-9);
	EXPECT_LE(c->ratio_lo, c->ratio);
	EXPECT_GE(c->ratio_hi, c->ratio);
	EXPECT_LT(c->ratio_lo, c->ratio_hi);
	EXPECT_GE(c->ratio_lo, 3.80 / 4.20);
	EXPECT_LE(c->ratio_hi, 3.90 / 4.10);
	EXPECT_LE(c->ns_diff_lo, c->ns_diff);
	EXPECT_GE(c->ns_diff_hi, c->ns_diff);

	/*
	 * paired: runs 0, 1, 2 and 4 (ours' run 3 has no rate): 3.80 / 4.10,
	 * 3.90 / 4.20, 3.85 / 4.15, 3.87 / 4.12; the median of four is the
	 * mean of the middle two, 3.85 / 4.15 and 3.90 / 4.20
	 */
	EXPECT_EQ(4U, c->npairs);
	EXPECT_LT(fabs(c->pair_ratio - (3.85 / 4.15 + 3.90 / 4.20) / 2), 1e-12);
	EXPECT_LE(c->pair_lo, c->pair_ratio);
	EXPECT_GE(c->pair_hi, c->pair_ratio);
	EXPECT_GE(c->pair_lo, 3.80 / 4.10 - 1e-12);
	EXPECT_LE(c->pair_hi, 3.87 / 4.12 + 1e-12);
	EXPECT_EQ(0.875, c->pair_cover);	/* 1 - 2^(1 - 4) */

	c = &b->part[0].cmp[1];
	EXPECT_STREQ("xdpsock has no poll mode", c->skip);
	EXPECT_TRUE(isnan(c->ratio));

	/* one run a side: a ratio, no interval */
	c = &b->part[0].cmp[2];
	EXPECT_EQ(0.5, c->ratio);
	EXPECT_TRUE(isnan(c->ratio_lo) && isnan(c->ratio_hi));
	EXPECT_EQ(1U, c->npairs);
	EXPECT_EQ(0.5, c->pair_ratio);
	EXPECT_TRUE(isnan(c->pair_lo) && isnan(c->pair_hi));
	free(b);
}

TEST(json)
{
	struct peers_bench *b = calloc(1, sizeof(*b));
	const struct jr_value *p, *c, *ours;
	char err[ERR_LEN] = "", jerr[JR_ERRLEN];
	struct jr_value *doc = NULL;
	char *text = NULL;
	size_t len = 0;

	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, read_str(b, records, err)) TH_LOG("%s", err);
	ASSERT_EQ(0, peers_summarize(b));
	text = printed(b, true, &len);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, jr_parse(text, len, &doc, jerr, sizeof(jerr))) TH_LOG("%s", jerr);

	EXPECT_STREQ("bench-peers/1", jr_str(jr_get(doc, "schema")));
	EXPECT_STREQ("1.6.3-1", jr_str(jr_get(doc, "xdp_tools")));
	EXPECT_EQ(5, jr_num(jr_get(doc, "runs")));
	EXPECT_EQ(0.05, jr_num(jr_get(doc, "max_foreign_frac")));
	p = jr_at(jr_get(doc, "parts"), 0);
	EXPECT_EQ(4, jr_num(jr_get(p, "id")));
	EXPECT_TRUE(jr_type(jr_get(jr_at(jr_get(p, "settings"), 0), "differs")) == JR_NULL);
	EXPECT_STREQ("the peer has no option",
		     jr_str(jr_get(jr_at(jr_get(p, "settings"), 1), "differs")));
	EXPECT_STREQ("spin: the loop spins", jr_str(jr_at(jr_get(p, "notes"), 0)));

	c = jr_at(jr_get(p, "comparisons"), 0);
	EXPECT_STREQ("spin", jr_str(jr_get(c, "name")));
	EXPECT_TRUE(jr_type(jr_get(c, "skipped")) == JR_NULL);
	EXPECT_LT(fabs(jr_num(jr_get(c, "ratio")) - 3.86 / 4.15), 1e-12);
	EXPECT_STREQ("bootstrap", jr_str(jr_get(c, "ci")));
	EXPECT_EQ(4, jr_num(jr_get(c, "pairs")));
	EXPECT_LT(fabs(jr_num(jr_get(c, "paired_ratio")) -
		       (3.85 / 4.15 + 3.90 / 4.20) / 2), 1e-12);
	EXPECT_LE(jr_num(jr_get(c, "ratio_ci_lo")), jr_num(jr_get(c, "ratio")));
	EXPECT_GE(jr_num(jr_get(c, "ratio_ci_hi")), jr_num(jr_get(c, "ratio")));
	ours = jr_get(c, "ours");
	EXPECT_STREQ("xdpsock -i veth0 --rxdrop", jr_str(jr_get(ours, "command")));
	EXPECT_EQ(5U, jr_len(jr_get(ours, "runs")));
	EXPECT_TRUE(jr_type(jr_get(jr_at(jr_get(ours, "runs"), 3), "pps")) == JR_NULL);
	EXPECT_EQ(1, jr_bool(jr_get(jr_at(jr_get(ours, "runs"), 1), "disturbed")));
	EXPECT_EQ(2, jr_num(jr_get(jr_at(jr_get(ours, "runs"), 1), "retries")));
	EXPECT_EQ(0.31, jr_num(jr_get(jr_at(jr_get(ours, "runs"), 1), "foreign_frac")));
	EXPECT_EQ(1, jr_num(jr_get(ours, "disturbed_runs")));
	EXPECT_EQ(3860000, jr_num(jr_get(ours, "median_pps")));

	c = jr_at(jr_get(p, "comparisons"), 1);
	EXPECT_STREQ("xdpsock has no poll mode", jr_str(jr_get(c, "skipped")));
	EXPECT_TRUE(jr_type(jr_get(c, "ratio")) == JR_NULL);
	c = jr_at(jr_get(p, "comparisons"), 2);
	EXPECT_STREQ("none", jr_str(jr_get(c, "ci")));
	jr_free(doc);
	free(text);
	free(b);
}

/* Malformed records: -EINVAL, the line and the value named */
TEST(bad_records)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "part\t4\tx\nbogus\t1\n", "rec:2: unknown record: 'bogus'" },
		{ "part\t4\tx\nrun\tours\t1\t0\t0\t0\t0\n",
		  "rec:2: a side's record before any cmp: 'ours'" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\ttheirs\t1\t0\t0\t0\t0\n",
		  "rec:3: the side is neither ours nor peer: 'theirs'" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1e6x\t0\t0\t0\t0\n",
		  "rec:3: pps: '1e6x' is not a number in 1..1000000000 frames/s (or 0 or -: none)" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1\t0\t0\t2\t0\n",
		  "rec:3: disturbed is neither 0 nor 1: '2'" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1\t0\t0\t0\n",
		  "rec:3: run takes SIDE FIGURE FOREIGN STEAL DISTURBED RETRIES [RTT0 RTT1 [OFFERED [BUSY]]]: 'run'" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1\t0\t0\t0\t0\t400\n",
		  "rec:3: run takes SIDE FIGURE FOREIGN STEAL DISTURBED RETRIES [RTT0 RTT1 [OFFERED [BUSY]]]: 'run'" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1\t0\t0\t0\t0\t400\tfast\n",
		  "rec:3: line round trip: 'fast' is not a number in 1..1000000000 ns (or -: not taken)" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1\t0\t0\t0\t0\t0\t400\n",
		  "rec:3: line round trip: '0' is not a number in 1..1000000000 ns (or -: not taken)" },
		{ "part\t10\tx\n", "rec:1: part id: '10' is not a whole number in 1..9" },
		{ "bench\truns\t2.5\n", "rec:1: runs: '2.5' is not a whole number in 0..100" },
		{ "bench\truns\t 5\n", "rec:1: runs: ' 5' is not a whole number in 0..100" },
		{ "setting\ta\tb\tc\n", "rec:1: setting before any part: 'a'" },
		/* the hostile-user campaign's: empty, cut, given twice, no rate */
		{ "", "rec: no records: the file is empty" },
		{ "# a comment\nbench\truns\t5\n",
		  "rec:2: no part in the records up to their end: nothing to report" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t38",
		  "rec:3: the last line has no newline: the file is cut short: 'run\\x09ours\\x0938'" },
		{ "part\t4\tx\npart\t5\ty\npart\t4\tz\n",
		  "rec:3: part given twice (first at line 1): '4'" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1e-300\t0\t0\t0\t0\n",
		  "rec:3: pps: '1e-300' is not a number in 1..1000000000 frames/s (or 0 or -: none)" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t2e9\t0\t0\t0\t0\n",
		  "rec:3: pps: '2e9' is not a number in 1..1000000000 frames/s (or 0 or -: none)" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\tinf\t0\t0\t0\t0\n",
		  "rec:3: pps: 'inf' is not a number in 1..1000000000 frames/s (or 0 or -: none)" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t-5\t0\t0\t0\t0\n",
		  "rec:3: pps: '-5' is not a number in 1..1000000000 frames/s (or 0 or -: none)" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\tnan\t0\t0\t0\t0\n",
		  "rec:3: pps: 'nan' is not a number in 1..1000000000 frames/s (or 0 or -: none)" },
		{ "part\t4\t\x1b[2J\x1b]0;owned\x07\nbogus\x1b[2J\n",
		  "rec:2: unknown record: 'bogus\\x1b[2J'" },
		/* the unit, and what reached the device */
		{ "unit\tpps\n", "rec:1: unit before any part: 'unit'" },
		{ "part\t8\tx\nunit\tMpps\n",
		  "rec:2: unit is neither pps nor cpu-ns: 'Mpps'" },
		{ "part\t8\tx\ncmp\ta\tb\tc\nunit\tcpu-ns\n",
		  "rec:3: unit after the part's first cmp: 'cpu-ns'" },
		{ "part\t8\tx\nunit\tcpu-ns\nunit\tpps\n",
		  "rec:3: unit given twice in the part: 'pps'" },
		/* each once; runs and retries within what the bench says */
		{ "bench\truns\t3\nbench\tmax_retries\t2\nbench\truns\t1\n",
		  "rec:3: bench key given twice: 'runs'" },
		{ "part\t4\tx\ncmp\ta\tb\tc\ncmd\tours\tfirst\ncmd\tours\tsecond\n",
		  "rec:4: cmd of that side given twice: 'ours'" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nskip\tx\nskip\ty\n",
		  "rec:4: skip given twice in the cmp: 'y'" },
		{ "bench\truns\t1\npart\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1e6\t0\t0\t0\t0\nrun\tours\t1e6\t0\t0\t0\t0\n",
		  "rec:5: more runs of a side than bench runs: '1e6'" },
		{ "bench\tmax_retries\t2\npart\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1e6\t0\t0\t0\t3\n",
		  "rec:4: more retries than bench max_retries: '3'" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1e6\t0\t0\t0\t50\nbench\truns\t1\n",
		  "rec:4: bench after the first part: 'runs'" },
		{ "part\t4\tx\ncmp\ta\tb\tc\ncmd\tours\t\ncmd\tours\tsecond\n",
		  "rec:4: cmd of that side given twice: 'ours'" },
		{ "part\t8\tx\nunit\tcpu-ns\ncmp\ta\tb\tc\nrun\tours\t1e-10\t0\t0\t0\t0\n",
		  "rec:4: cpu-ns: '1e-10' is not a number in 1..1000000000 ns of CPU per frame (or 0 or -: none)" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1\t0\t0\t0\t0\t-\t-\tmany\n",
		  "rec:3: offered: 'many' is not a number in 1..1000000000 frames/s (or -: not taken)" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1\t0\t0\t0\t0\t-\t-\t-\t1.000,1.2\n",
		  "rec:3: busy: '1.2' is not a number in 0..1 (a CPU's share; comma-separated, or -: not taken)" },
		{ "part\t4\tx\ncmp\ta\tb\tc\nrun\tours\t1\t0\t0\t0\t0\t-\t-\t-\t0.5,,1\n",
		  "rec:3: busy: '' is not a number in 0..1 (a CPU's share; comma-separated, or -: not taken)" },
	};
	struct peers_bench *b = calloc(1, sizeof(*b));
	char err[ERR_LEN];
	size_t i;

	ASSERT_NE(NULL, b);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		EXPECT_EQ(-EINVAL, read_str(b, bad[i].text, err));
		EXPECT_STREQ(bad[i].err, err);
	}
	free(b);
}

/*
 * Which side was the limit: with what reached the device recorded, a side
 * that took 97% of it or more kept up; when both did, the report says the
 * rates are the kernel side's.  Three comparisons: both kept up (99.5%,
 * 98%), ours did not (3.0 of 4.0 Mpps: 75%), neither; and one without
 * OFFERED, which names no limit.
 */
static const char limit_records[] =
	"part\t4\tAF_XDP rxdrop\n"
	"cmp\tspin\txdpsock\txdp-bench xsk-drop\n"
	"run\tours\t3980000\t0\t0\t0\t0\t-\t-\t4000000\t1.000,0.990\n"
	"run\tpeer\t3920000\t0\t0\t0\t0\t-\t-\t4000000\t0.990,0.400\n"
	"run\tours\t3980000\t0\t0\t0\t0\t-\t-\t4000000\t0.980,0.970,0.1\n"
	"run\tpeer\t3920000\t0\t0\t0\t0\t-\t-\t4000000\t0.970,0.600\n"
	"cmp\tpoll\txdpsock\txdp-bench xsk-drop\n"
	"run\tours\t3000000\t0\t0\t0\t0\t-\t-\t4000000\n"
	"run\tpeer\t4000000\t0\t0\t0\t0\t-\t-\t4000000\n"
	"cmp\tbusy\txdpsock\txdp-bench xsk-drop\n"
	"run\tours\t2000000\t0\t0\t0\t0\t-\t-\t4000000\n"
	"run\tpeer\t1000000\t0\t0\t0\t0\t-\t-\t4000000\n"
	"cmp\tnone\txdpsock\txdp-bench xsk-drop\n"
	"run\tours\t2000000\t0\t0\t0\t0\n"
	"run\tpeer\t1000000\t0\t0\t0\t0\n";

TEST(limit)
{
	struct peers_bench *b = calloc(1, sizeof(*b));
	char err[ERR_LEN] = "", jerr[JR_ERRLEN];
	const struct peers_cmp *c;
	struct jr_value *doc = NULL;
	char *text;
	size_t len;

	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, read_str(b, limit_records, err)) TH_LOG("%s", err);
	ASSERT_EQ(0, peers_summarize(b));
	c = b->part[0].cmp;
	EXPECT_EQ((int)PEERS_LIMIT_KERNEL, (int)c[0].limit);
	EXPECT_EQ(0.995, c[0].side[PEERS_OURS].took);
	EXPECT_EQ(0.98, c[0].side[PEERS_PEER].took);
	EXPECT_EQ((int)PEERS_LIMIT_OURS, (int)c[1].limit);
	EXPECT_EQ(0.75, c[1].side[PEERS_OURS].took);
	EXPECT_EQ((int)PEERS_LIMIT_RECEIVERS, (int)c[2].limit);
	EXPECT_EQ((int)PEERS_LIMIT_UNKNOWN, (int)c[3].limit);
	EXPECT_TRUE(isnan(c[3].side[PEERS_OURS].took));

	text = printed(b, false, &len);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "limit: both at the kernel's: xdpsock took 99.5%, xdp-bench xsk-drop 98.0% of what reached the device"));
	EXPECT_NE(NULL, strstr(text, "limit: xdpsock, which took 75.0% of what reached the device (xdp-bench xsk-drop 100.0%)"));
	EXPECT_NE(NULL, strstr(text, "limit: both receivers: xdpsock took 50.0%, xdp-bench xsk-drop 25.0%"));
	EXPECT_EQ(1, !strstr(strstr(text, "   none "), "limit:"));
	/* the busy shares: medians, and the saturated CPUs named */
	EXPECT_NE(NULL, strstr(text, "busy, median: xdpsock CPU 0 99%, CPU 1 98%; xdp-bench xsk-drop CPU 0 98%, CPU 1 50%: saturated (95% or more): ours CPU 0, ours CPU 1, peer CPU 0"));
	EXPECT_NE(NULL, strstr(text, " 3.980 (0%, 4.000, busy 100/99%)"));
	EXPECT_EQ(1, !strstr(strstr(text, "   poll "), "busy, median"));
	free(text);

	text = printed(b, true, &len);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, jr_parse(text, len, &doc, jerr, sizeof(jerr))) TH_LOG("%s", jerr);
	EXPECT_STREQ("kernel", jr_str(jr_get(jr_at(jr_get(jr_at(jr_get(doc, "parts"), 0),
							  "comparisons"), 0), "limit")));
	EXPECT_STREQ("ours", jr_str(jr_get(jr_at(jr_get(jr_at(jr_get(doc, "parts"), 0),
							"comparisons"), 1), "limit")));
	EXPECT_TRUE(jr_type(jr_get(jr_at(jr_get(jr_at(jr_get(doc, "parts"), 0),
						 "comparisons"), 3), "limit")) == JR_NULL);
	EXPECT_EQ(0.5, jr_num(jr_at(jr_get(jr_get(jr_at(jr_get(jr_at(jr_get(doc, "parts"), 0),
							       "comparisons"), 0), "peer"),
					"busy_frac"), 1)));
	jr_free(doc);
	free(text);
	free(b);
}

/*
 * A cpu-ns part: the figure is the receiver's CPU ns per frame, less is
 * better.  Ours 300, 310, 320 ns against the peer's 400, 410, 420: the
 * medians 310 and 410, the ratio ours / peer in ns 310 / 410, the
 * difference -100 ns, the paired ratios' median 310 / 410 as well; the
 * text in ns, no limit named
 */
static const char cpu_records[] =
	"part\t8\tCPU per frame at a fixed rate\n"
	"unit\tcpu-ns\n"
	"cmp\tpoll 1M\txdpsock\txdp-bench xsk-drop\n"
	"run\tours\t300\t0\t0\t0\t0\t-\t-\t1000000\n"
	"run\tpeer\t400\t0\t0\t0\t0\t-\t-\t1000000\n"
	"run\tours\t310\t0\t0\t0\t0\t-\t-\t1000000\n"
	"run\tpeer\t410\t0\t0\t0\t0\t-\t-\t1000000\n"
	"run\tours\t320\t0\t0\t0\t0\t-\t-\t1000000\n"
	"run\tpeer\t420\t0\t0\t0\t0\t-\t-\t1000000\n";

TEST(cpu_ns)
{
	struct peers_bench *b = calloc(1, sizeof(*b));
	char err[ERR_LEN] = "", jerr[JR_ERRLEN];
	const struct jr_value *c;
	struct jr_value *doc = NULL;
	const struct peers_cmp *k;
	char *text;
	size_t len;

	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, read_str(b, cpu_records, err)) TH_LOG("%s", err);
	ASSERT_EQ(0, peers_summarize(b));
	k = &b->part[0].cmp[0];
	EXPECT_TRUE(k->cpu_ns);
	EXPECT_LT(fabs(1e9 / k->side[PEERS_OURS].median - 310), 1e-6);
	EXPECT_LT(fabs(k->ratio - 310.0 / 410), 1e-9);
	EXPECT_LE(k->ratio_lo, k->ratio);
	EXPECT_GE(k->ratio_hi, k->ratio);
	EXPECT_GE(k->ratio_lo, 300.0 / 420 - 1e-9);
	EXPECT_LE(k->ratio_hi, 320.0 / 400 + 1e-9);
	EXPECT_LT(fabs(k->ns_diff + 100), 1e-6);
	EXPECT_LT(fabs(k->pair_ratio - 310.0 / 410), 1e-9);
	EXPECT_EQ((int)PEERS_LIMIT_UNKNOWN, (int)k->limit);

	text = printed(b, false, &len);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "poll 1M   xdpsock 310.0 ns, xdp-bench xsk-drop 410.0 ns of the receiver's CPU per frame: ratio 0.76, 95% CI ["));
	EXPECT_NE(NULL, strstr(text, "-100.0 ns of CPU per frame"));
	EXPECT_NE(NULL, strstr(text, "xdpsock runs (CPU ns per frame, foreign load, Mpps at the device): 300.0 (0%, 1.000)"));
	EXPECT_EQ(NULL, strstr(text, "limit:"));
	free(text);

	text = printed(b, true, &len);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, jr_parse(text, len, &doc, jerr, sizeof(jerr))) TH_LOG("%s", jerr);
	EXPECT_STREQ("cpu-ns", jr_str(jr_get(jr_at(jr_get(doc, "parts"), 0), "unit")));
	c = jr_at(jr_get(jr_at(jr_get(doc, "parts"), 0), "comparisons"), 0);
	EXPECT_LT(fabs(jr_num(jr_get(jr_get(c, "peer"), "median_cpu_ns")) - 410), 1e-6);
	EXPECT_LT(fabs(jr_num(jr_get(c, "ratio")) - 310.0 / 410), 1e-9);
	jr_free(doc);
	free(text);
	free(b);
}

/* A NUL byte is said as such, not as a line too long; a long line is */
TEST(nul_and_long_line)
{
	static const char nul[] = "part\t4\tx\ncmp\ta\0b\tc\n";
	struct peers_bench *b = calloc(1, sizeof(*b));
	char err[ERR_LEN] = "", *text;

	ASSERT_NE(NULL, b);
	EXPECT_EQ(-EINVAL, read_mem(b, nul, sizeof(nul) - 1, err));
	EXPECT_STREQ("rec:2: NUL byte at line 2, byte 6: 'cmp\\x09a'", err);
	text = malloc(3000);
	ASSERT_NE(NULL, text);
	memset(text, 'x', 2999);
	memcpy(text, "note\t", 5);
	text[2998] = '\n';
	text[2999] = '\0';
	EXPECT_EQ(-EINVAL, read_str(b, text, err));
	EXPECT_STREQ("rec:1: line too long (more than 2047 bytes): '...'", err);
	free(text);
	free(b);
}

/*
 * Text of the records reaches the terminal escaped: an escape sequence in
 * a title, a label, a command is shown as \xNN, and the JSON keeps it as
 * read (its own escaping)
 */
TEST(text_escaped)
{
	static const char rec[] =
		"bench\tkernel\t6.18\x1b[2J\n"
		"part\t4\tAF_XDP\x1b]0;owned\x07 rxdrop\n"
		"cmp\tspin\txdpsock\x9b" "31m\tpeer\n"
		"cmd\tours\txdpsock -i veth0\rhidden\n"
		"run\tours\t3800000\t0\t0\t0\t0\n";
	struct peers_bench *b = calloc(1, sizeof(*b));
	char err[ERR_LEN] = "", *text;
	size_t len, i;

	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, read_str(b, rec, err)) TH_LOG("%s", err);
	ASSERT_EQ(0, peers_summarize(b));
	text = printed(b, false, &len);
	ASSERT_NE(NULL, text);
	for (i = 0; i < len; i++)
		if (text[i] != '\n' && ((unsigned char)text[i] < 0x20 ||
					(unsigned char)text[i] >= 0x7f))
			break;
	EXPECT_EQ(len, i) TH_LOG("a raw byte 0x%02x at %zu of: %s",
				 (unsigned char)text[i], i, text);
	EXPECT_NE(NULL, strstr(text, "bench-peers: 6.18\\x1b[2J,")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "4. AF_XDP\\x1b]0;owned\\x07 rxdrop\n")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "xdpsock\\x9b31m: xdpsock -i veth0\\x0dhidden\n"))
		TH_LOG("%s", text);
	free(text);
	text = printed(b, true, &len);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\"kernel\": \"6.18\\u001b[2J\"")) TH_LOG("%s", text);
	free(text);
	free(b);
}

/*
 * Runs with round trips, in two placements (a run's placement: the lower
 * of its two figures).  ours: 3.80 and 3.90 Mpps at 400-420 ns, 6.0, 6.1
 * and 6.2 at 85-90; peer: 3.5 and 3.4 at 400-410, 5.5, 5.6 and 5.4 at
 * 86-90.  Each side's median round trip: ours' eight figures, sorted 85
 * 88 90 150 160 400 410 420, give (150 + 160) / 2 = 155.  The placements: 85-90 ns (ours 6.1, 3 runs; peer 5.5, 3
 * runs; ratio 6.1 / 5.5 with a CI) and 400-420 ns (ours 3.85, 2 runs;
 * peer 3.45, 2: a ratio, no CI).  "near": 400 and 490 ns, less than
 * twice apart: one placement, listed nowhere.  Old records (no round
 * trips) have no median and no placement.
 */
static const char rtt_records[] =
	"part\t4\tAF_XDP rxdrop\n"
	"cmp\tspin\txdpsock\txdp-bench xsk-drop\n"
	"run\tours\t3800000\t0\t0\t0\t0\t400\t410\n"
	"run\tpeer\t3500000\t0\t0\t0\t0\t400\t420\n"
	"run\tours\t3900000\t0\t0\t0\t0\t420\t-\n"
	"run\tpeer\t3400000\t0\t0\t0\t0\t410\t400\n"
	"run\tours\t6000000\t0\t0\t0\t0\t90\t150\n"
	"run\tpeer\t5500000\t0\t0\t0\t0\t86\t120\n"
	"run\tours\t6100000\t0\t0\t0\t0\t85\t160\n"
	"run\tpeer\t5600000\t0\t0\t0\t0\t90\t100\n"
	"run\tours\t6200000\t0\t0\t0\t0\t88\t-\n"
	"run\tpeer\t5400000\t0\t0\t0\t0\t87\t99\n"
	"cmp\tnear\txdpsock\txdp-bench xsk-drop\n"
	"run\tours\t3800000\t0\t0\t0\t0\t400\t400\n"
	"run\tpeer\t4100000\t0\t0\t0\t0\t490\t500\n"
	"run\tours\t3900000\t0\t0\t0\t0\t400\t400\n";

TEST(rtt)
{
	struct peers_bench *b = calloc(1, sizeof(*b));
	char err[ERR_LEN] = "", jerr[JR_ERRLEN];
	const struct jr_value *c, *run, *pl;
	const struct peers_place *p;
	struct jr_value *doc = NULL;
	const struct peers_cmp *k;
	char *text = NULL;
	size_t len = 0;

	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, read_str(b, rtt_records, err)) TH_LOG("%s", err);
	ASSERT_EQ(0, peers_summarize(b));
	k = &b->part[0].cmp[0];
	EXPECT_EQ(155, k->side[PEERS_OURS].rtt);
	EXPECT_TRUE(isnan(k->side[PEERS_OURS].run[1].rtt_after));
	ASSERT_EQ(2U, k->nplace);
	p = &k->place[0];
	EXPECT_EQ(85, p->rtt_lo);
	EXPECT_EQ(90, p->rtt_hi);
	EXPECT_EQ(3U, p->runs[PEERS_OURS]);
	EXPECT_EQ(3U, p->runs[PEERS_PEER]);
	EXPECT_EQ(6100000, p->median[PEERS_OURS]);
	EXPECT_EQ(5500000, p->median[PEERS_PEER]);
	EXPECT_LT(fabs(p->ratio - 6.1 / 5.5), 1e-12);
	EXPECT_LE(p->ratio_lo, p->ratio);
	EXPECT_GE(p->ratio_hi, p->ratio);
	EXPECT_GE(p->ratio_lo, 6.0 / 5.6 - 1e-12);
	EXPECT_LE(p->ratio_hi, 6.2 / 5.4 + 1e-12);
	p = &k->place[1];
	EXPECT_EQ(400, p->rtt_lo);
	EXPECT_EQ(420, p->rtt_hi);
	EXPECT_EQ(2U, p->runs[PEERS_OURS]);
	EXPECT_EQ(3850000, p->median[PEERS_OURS]);
	EXPECT_EQ(3450000, p->median[PEERS_PEER]);
	EXPECT_TRUE(isnan(p->ratio_lo));
	EXPECT_EQ(1U, b->part[0].cmp[1].nplace);
	/* ours' second run has no peer run to pair with */
	EXPECT_EQ(1U, b->part[0].cmp[1].npairs);
	EXPECT_LT(fabs(b->part[0].cmp[1].pair_ratio - 3.8 / 4.1), 1e-12);

	text = printed(b, false, &len);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "line round trip, median: xdpsock 155 ns"));
	EXPECT_NE(NULL, strstr(text, "the runs had 2 placements of the vCPUs"));
	EXPECT_NE(NULL, strstr(text, "85-90 ns: xdpsock 6.100 Mpps (3 runs), xdp-bench xsk-drop 5.500 Mpps (3 runs): ratio 1.11, 95% CI ["));
	EXPECT_NE(NULL, strstr(text, "400-420 ns: xdpsock 3.850 Mpps (2 runs), xdp-bench xsk-drop 3.450 Mpps (2 runs): ratio 1.12, no CI"));
	EXPECT_NE(NULL, strstr(text, " 3.900 (0%, 420/-)"));
	EXPECT_EQ(NULL, strstr(strstr(text, "near"), "placements"));
	EXPECT_NE(NULL, strstr(text, "no CI (fewer than 3 pairs), 1 pairs"));
	free(text);

	text = printed(b, true, &len);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, jr_parse(text, len, &doc, jerr, sizeof(jerr))) TH_LOG("%s", jerr);
	c = jr_at(jr_get(jr_at(jr_get(doc, "parts"), 0), "comparisons"), 0);
	EXPECT_EQ(155, jr_num(jr_get(jr_get(c, "ours"), "rtt_median_ns")));
	run = jr_at(jr_get(jr_get(c, "ours"), "runs"), 1);
	EXPECT_EQ(420, jr_num(jr_get(run, "rtt_before_ns")));
	EXPECT_TRUE(jr_type(jr_get(run, "rtt_after_ns")) == JR_NULL);
	ASSERT_EQ(2U, jr_len(jr_get(c, "placements")));
	pl = jr_at(jr_get(c, "placements"), 1);
	EXPECT_EQ(400, jr_num(jr_get(pl, "rtt_lo_ns")));
	EXPECT_EQ(2, jr_num(jr_get(pl, "peer_runs")));
	EXPECT_EQ(3450000, jr_num(jr_get(pl, "peer_median_pps")));
	EXPECT_TRUE(jr_type(jr_get(pl, "ratio_ci_lo")) == JR_NULL);
	c = jr_at(jr_get(jr_at(jr_get(doc, "parts"), 0), "comparisons"), 1);
	EXPECT_EQ(0U, jr_len(jr_get(c, "placements")));
	jr_free(doc);
	free(text);

	/* records without round trips: none */
	ASSERT_EQ(0, read_str(b, records, err)) TH_LOG("%s", err);
	ASSERT_EQ(0, peers_summarize(b));
	EXPECT_TRUE(isnan(b->part[0].cmp[0].side[PEERS_OURS].rtt));
	EXPECT_EQ(0U, b->part[0].cmp[0].nplace);
	free(b);
}

/*
 * The round trip itself: a figure between the two CPUs, neither zero nor
 * absurd (a line crossing a host's dies takes well under 100 us); the
 * caller's CPU mask given back; the same CPU twice and a CPU that is not
 * there refused.
 */
TEST(line_round_trip)
{
	cpu_set_t before, after;
	double ns = -1;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(before), &before));
	if (!CPU_ISSET(0, &before) || !CPU_ISSET(1, &before))
		SKIP(return, "CPUs 0 and 1 are not both ours: no round trip");
	ASSERT_EQ(0, line_rtt(0, 1, 200, &ns));
	EXPECT_GT(ns, 1);
	EXPECT_LT(ns, 100000);
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(after), &after));
	EXPECT_TRUE(CPU_EQUAL(&before, &after));
	EXPECT_EQ(-EINVAL, line_rtt(1, 1, 200, &ns));
	EXPECT_EQ(-EINVAL, line_rtt(0, 4095, 200, &ns));
	EXPECT_EQ(-EINVAL, line_rtt(0, 1, 0, &ns));
	EXPECT_EQ(-EINVAL, line_rtt(0, 1, LINE_RTT_MAX_ROUNDS + 1, &ns));
	/* for a report: the figure, or NaN */
	ns = line_rtt_take(0, 1, NULL, NULL);
	EXPECT_GT(ns, 1);
	EXPECT_LT(ns, 100000);
	EXPECT_TRUE(isnan(line_rtt_take(1, 1, NULL, NULL)));
	EXPECT_TRUE(isnan(line_rtt_take(0, 4095, "peers_test", "on purpose")));
}

/*
 * xdp_load's verdict on a run's two round trips: moved when one is more
 * than (1 + max_change) times the other, in either order; not when one is
 * missing.  86 -> 161 ns (a quick placement's spread on 2026-12-04) is no
 * move at the default 1; 86 -> 400 is.
 */
TEST(rtt_moved)
{
	EXPECT_FALSE(line_rtt_moved(86, 161, 1));
	EXPECT_TRUE(line_rtt_moved(86, 400, 1));
	EXPECT_TRUE(line_rtt_moved(400, 86, 1));
	EXPECT_FALSE(line_rtt_moved(NAN, 400, 1));
	EXPECT_FALSE(line_rtt_moved(400, NAN, 1));
	EXPECT_TRUE(line_rtt_moved(400, 600, 0.25));
	EXPECT_FALSE(line_rtt_moved(400, 480, 0.25));
	EXPECT_FALSE(line_rtt_moved(400, 400, 0));
}

/*
 * xdp_load's arithmetic: a 1 s window, CPU 0 busy all of it, CPU 1 idle;
 * the children used 0.9 s of it: 0.1 s of a CPU is foreign, disturbed at
 * 5%, not at 20%.  Without the children's ends, all 1 s is foreign.
 */
TEST(load_children)
{
	struct load_snap *s = calloc(2, sizeof(*s));
	struct load_report r;

	ASSERT_NE(NULL, s);
	s[0].ncpus = s[1].ncpus = 2;
	s[0].t_ns = 1000000000ULL;
	s[1].t_ns = 2000000000ULL;
	s[1].cpu[0].user = 1000000000ULL;
	s[1].cpu[1].idle = 1000000000ULL;
	s[0].children = s[1].children = true;
	s[0].children_ns = 5000000000ULL;
	s[1].children_ns = 5900000000ULL;
	EXPECT_TRUE(load_check(&s[0], &s[1], NULL, 0, 0.05, &r));
	EXPECT_LT(fabs(r.worst_frac - 0.1), 1e-9);
	EXPECT_EQ(-1, r.worst_cpu);
	EXPECT_FALSE(load_check(&s[0], &s[1], NULL, 0, 0.2, &r));
	s[0].children = false;
	EXPECT_TRUE(load_check(&s[0], &s[1], NULL, 0, 0.2, &r));
	EXPECT_LT(fabs(r.worst_frac - 1.0), 1e-9);
	free(s);
}

TEST_HARNESS_MAIN
