// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the measurement layer: statistics and the JSON writer on fixed
 * inputs with hand-computed results, and the softirq counters on real
 * traffic through a private veth pair.  No speed thresholds.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "kselftest_harness.h"

#include "cpustat.h"
#include "json.h"
#include "measure.h"
#include "softirq_cost.h"
#include "stats.h"
#include "xsk_env.h"
#include "xsk_pkt.h"
#include "xsk_prog_mb.h"	/* before the skeleton: its .bss has one */
#include "xsk_prog.skel.h"

#define EPS 1e-6

TEST(median_mean_sd)
{
	const double odd[] = { 5, 1, 4, 2, 3 };
	const double even[] = { 4, 1, 3, 2 };
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	ASSERT_EQ(3.0, stats_median(odd, 5));
	ASSERT_EQ(2.5, stats_median(even, 4));
	ASSERT_EQ(5.0, stats_mean(x, 8));
	/* sqrt(32 / 7) */
	ASSERT_LT(fabs(stats_sd(x, 8) - 2.138089935299395), EPS);
	ASSERT_TRUE(isnan(stats_sd(x, 1)));
}

TEST(median_ci)
{
	/* n = 5: no order-statistic 95% CI; bootstrap gives [min, max] */
	const double x5[] = { 3, 1, 5, 2, 4 };
	/* n = 10: k = 2, [x(2), x(9)], coverage 1 - 2 * 11/1024 */
	const double x10[] = { 7, 3, 10, 1, 8, 2, 9, 4, 6, 5 };
	struct stats_summary s;

	ASSERT_EQ(0, stats_summarize(x5, 5, &s));
	ASSERT_EQ((int)STATS_CI_BOOTSTRAP, (int)s.ci_method);
	ASSERT_EQ(1.0, s.ci_lo);
	ASSERT_EQ(5.0, s.ci_hi);
	ASSERT_EQ(0.9375, s.ci_coverage);
	ASSERT_EQ(3.0, s.median);

	ASSERT_EQ(0, stats_summarize(x10, 10, &s));
	ASSERT_EQ((int)STATS_CI_ORDER, (int)s.ci_method);
	ASSERT_EQ(2.0, s.ci_lo);
	ASSERT_EQ(9.0, s.ci_hi);
	ASSERT_EQ(0.978515625, s.ci_coverage);
	ASSERT_EQ(5.5, s.median);
	ASSERT_EQ(5.5, s.mean);
	ASSERT_EQ(1.0, s.min);
	ASSERT_EQ(10.0, s.max);

	/* n = 2: no interval */
	ASSERT_EQ(0, stats_summarize(x10, 2, &s));
	ASSERT_EQ((int)STATS_CI_NONE, (int)s.ci_method);
	ASSERT_TRUE(isnan(s.ci_lo));
}

TEST(welch)
{
	const double a[] = { 10.1, 10.4, 9.8, 10.0, 10.2 };
	const double b[] = { 10.9, 11.2, 10.7, 11.4, 11.0, 10.8 };
	const double c[] = { 10.0, 10.3, 9.9, 10.2, 10.1 };
	struct stats_welch w;

	/*
	 * mean a = 10.1, var a = 0.05; mean b = 11.0, var b = 0.064;
	 * se = sqrt(0.05/5 + 0.064/6), df by Welch-Satterthwaite,
	 * t(0.975, df) = 2.262982471760140 (mpmath)
	 */
	ASSERT_EQ(0, stats_welch(a, 5, b, 6, &w));
	ASSERT_LT(fabs(w.diff - 0.9), EPS);
	ASSERT_LT(fabs(w.se - 0.146059348668044), EPS);
	ASSERT_LT(fabs(w.t - 6.161878771933119), EPS);
	ASSERT_LT(fabs(w.df - 8.978518193774660), EPS);
	ASSERT_LT(fabs(w.ci_lo - 0.569470254127513), EPS);
	ASSERT_LT(fabs(w.ci_hi - 1.230529745872487), EPS);
	ASSERT_LT(fabs(w.p - 0.000167988920269), EPS);
	ASSERT_TRUE(w.distinct);

	ASSERT_EQ(0, stats_welch(a, 5, c, 5, &w));
	ASSERT_FALSE(w.distinct);
	ASSERT_LT(w.ci_lo, 0);
	ASSERT_GT(w.ci_hi, 0);

	ASSERT_EQ(-EINVAL, stats_welch(a, 1, b, 6, &w));
}

static void json_doc(struct json *j)
{
	json_begin_object(j);
	json_kv_string(j, "name", "a \"q\" \\ b\n\t\x01");
	json_kv_u64(j, "u", 18446744073709551615ULL);
	json_kv_s64(j, "s", -9223372036854775807LL - 1);
	json_key(j, "list");
	json_begin_array(j);
	json_double(j, 0.5);
	json_double(j, NAN);
	json_double(j, -INFINITY);
	json_double_prec(j, 2.0 / 3, 3);
	json_bool(j, true);
	json_null(j);
	json_begin_object(j);
	json_end_object(j);
	json_begin_array(j);
	json_end_array(j);
	json_end_array(j);
	json_key(j, "obj");
	json_begin_object(j);
	json_kv_bool(j, "f", false);
	json_kv_double(j, "x", 1e-3);
	json_end_object(j);
	json_end_object(j);
}

static int json_render(char **buf, int indent)
{
	struct json j;
	size_t len;
	FILE *f = open_memstream(buf, &len);
	int ret;

	json_init(&j, f, indent);
	json_doc(&j);
	ret = json_finish(&j);
	fclose(f);
	return ret;
}

TEST(json_document)
{
	const char *compact =
		"{\"name\":\"a \\\"q\\\" \\\\ b\\u000a\\u0009\\u0001\","
		"\"u\":18446744073709551615,\"s\":-9223372036854775808,"
		"\"list\":[0.5,null,null,0.667,true,null,{},[]],"
		"\"obj\":{\"f\":false,\"x\":0.001}}\n";
	const char *pretty =
		"{\n"
		"  \"name\": \"a \\\"q\\\" \\\\ b\\u000a\\u0009\\u0001\",\n"
		"  \"u\": 18446744073709551615,\n"
		"  \"s\": -9223372036854775808,\n"
		"  \"list\": [\n"
		"    0.5,\n"
		"    null,\n"
		"    null,\n"
		"    0.667,\n"
		"    true,\n"
		"    null,\n"
		"    {},\n"
		"    []\n"
		"  ],\n"
		"  \"obj\": {\n"
		"    \"f\": false,\n"
		"    \"x\": 0.001\n"
		"  }\n"
		"}\n";
	char *buf = NULL;

	ASSERT_EQ(0, json_render(&buf, 0));
	ASSERT_STREQ(compact, buf);
	free(buf);
	buf = NULL;
	ASSERT_EQ(0, json_render(&buf, 2));
	ASSERT_STREQ(pretty, buf);
	free(buf);
}

TEST(json_misuse)
{
	struct json j;
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	/* a value without a key in an object */
	json_init(&j, f, 0);
	json_begin_object(&j);
	json_u64(&j, 1);
	ASSERT_EQ(-EINVAL, json_finish(&j));
	/* a key in an array */
	json_init(&j, f, 0);
	json_begin_array(&j);
	json_key(&j, "k");
	ASSERT_EQ(-EINVAL, json_finish(&j));
	/* mismatched end, unclosed document, two top-level values */
	json_init(&j, f, 0);
	json_begin_array(&j);
	json_end_object(&j);
	ASSERT_EQ(-EINVAL, json_finish(&j));
	json_init(&j, f, 0);
	json_begin_array(&j);
	ASSERT_EQ(-EINVAL, json_finish(&j));
	json_init(&j, f, 0);
	json_null(&j);
	json_null(&j);
	ASSERT_EQ(-EINVAL, json_finish(&j));
	fclose(f);
	free(buf);
}

TEST(proc_stat)
{
	struct cpu_times t[CPUSTAT_MAX_CPUS];
	int n = cpustat_read(t, CPUSTAT_MAX_CPUS);

	ASSERT_GE(n, 1);
	ASSERT_GT(t[0].idle + cpu_times_busy(&t[0]), 0ULL);
}

#define NFRAMES		20000
#define FRAME_LEN	64

/* Send n frames from the peer; returns how many went */
static unsigned int send_frames(struct xsk_env *env, unsigned int n)
{
	static unsigned char frames[64 * FRAME_LEN];
	unsigned int sent = 0, i, batch;
	int ret, spins = 0;

	for (i = 0; i < 64; i++)
		xsk_pkt_build(frames + i * FRAME_LEN, FRAME_LEN,
			      env->mac[XENV_DUT], env->mac[XENV_PEER], i, i);
	while (sent < n && spins < 100000) {
		batch = n - sent < 64 ? n - sent : 64;
		ret = xenv_send_batch(env, frames, FRAME_LEN, batch);
		if (ret > 0)
			sent += ret;
		else
			spins++;
	}
	return sent;
}

static void sum_rx(const struct sirq_cpu *c, int n, __u64 *ns, __u64 *cnt)
{
	int i;

	*ns = *cnt = 0;
	for (i = 0; i < n; i++) {
		*ns += c[i].net_rx_ns;
		*cnt += c[i].net_rx_count;
	}
}

static bool prog_loaded(__u32 id)
{
	int fd = bpf_prog_get_fd_by_id(id);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

FIXTURE(sirq)
{
	struct xsk_env *env;
	struct xsk_prog_bpf *skel;
	int link_fd;
};

FIXTURE_SETUP(sirq)
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .flags = XDP_FLAGS_DRV_MODE);
	char err[ERR_LEN] = "";

	self->link_fd = -1;
	ASSERT_EQ(0, xenv_create(&self->env, NULL, err)) TH_LOG("%s", err);
	self->skel = xsk_prog_bpf__open_and_load();
	ASSERT_NE(NULL, self->skel);
	ASSERT_EQ(0, xenv_enter(self->env, XENV_DUT));
	self->link_fd = bpf_link_create(bpf_program__fd(self->skel->progs.xdp_pass),
					self->env->ifindex[XENV_DUT], BPF_XDP,
					&lopts);
	ASSERT_EQ(0, xenv_enter(self->env, -1));
	ASSERT_LE(0, self->link_fd) TH_LOG("native XDP on the dut: %s",
					   strerror(errno));
}

FIXTURE_TEARDOWN(sirq)
{
	if (self->link_fd >= 0)
		close(self->link_fd);
	xsk_prog_bpf__destroy(self->skel);
	xenv_destroy(self->env);
}

TEST_F(sirq, net_rx_traffic)
{
	struct sirq_cpu a[2][CPUSTAT_MAX_CPUS], b[2][CPUSTAT_MAX_CPUS];
	struct xsk_prog_counters pc;
	struct sirq *s[2] = {};
	__u64 ns[2][2], cnt[2][2], t0, t1;
	__u32 ids[2][2];
	char err[ERR_LEN] = "";
	int n, i, r, grew;

	for (r = 0; r < 2; r++) {
		ASSERT_EQ(0, sirq_open(&s[r], err)) TH_LOG("%s", err);
		sirq_prog_ids(s[r], ids[r]);
	}
	ASSERT_NE(ids[0][0], ids[1][0]);
	n = sirq_read(s[0], a[0], CPUSTAT_MAX_CPUS);
	ASSERT_GE(n, 1);
	ASSERT_EQ(n, sirq_read(s[1], a[1], CPUSTAT_MAX_CPUS));
	t0 = mono_ns();
	ASSERT_EQ((unsigned int)NFRAMES, send_frames(self->env, NFRAMES));
	usleep(20000);	/* let NAPI finish */
	t1 = mono_ns();
	for (r = 0; r < 2; r++) {
		ASSERT_EQ(n, sirq_read(s[r], b[r], CPUSTAT_MAX_CPUS));
		grew = 0;
		for (i = 0; i < n; i++)
			if (b[r][i].net_rx_count > a[r][i].net_rx_count &&
			    b[r][i].net_rx_ns > a[r][i].net_rx_ns)
				grew++;
		ASSERT_GE(grew, 1);
		sum_rx(a[r], n, &ns[r][0], &cnt[r][0]);
		sum_rx(b[r], n, &ns[r][1], &cnt[r][1]);
		ASSERT_LT(ns[r][1] - ns[r][0], (t1 - t0) * n);
	}
	ASSERT_EQ(0, xsk_prog_counters_read(self->skel, &pc));
	TH_LOG("%llu frames in, NET_RX %llu ns in %llu softirqs (%.1f ns/pkt), window %llu ns",
	       (unsigned long long)pc.rx_packets,
	       (unsigned long long)(ns[0][1] - ns[0][0]),
	       (unsigned long long)(cnt[0][1] - cnt[0][0]),
	       pc.rx_packets ? (double)(ns[0][1] - ns[0][0]) / pc.rx_packets : 0,
	       (unsigned long long)(t1 - t0));
	ASSERT_GT(pc.rx_packets, 0ULL);

	/* close detaches and unloads; the other reader still works */
	sirq_close(s[0]);
	for (i = 0; i < 200 && (prog_loaded(ids[0][0]) ||
				prog_loaded(ids[0][1])); i++)
		usleep(10000);
	ASSERT_FALSE(prog_loaded(ids[0][0]));
	ASSERT_FALSE(prog_loaded(ids[0][1]));
	ASSERT_TRUE(prog_loaded(ids[1][0]));
	ASSERT_EQ(n, sirq_read(s[1], b[1], CPUSTAT_MAX_CPUS));
	sirq_close(s[1]);
}

static void sum_foreign(const struct sirq_cpu *c, int n, __u64 *foreign,
			__u64 *own)
{
	int i;

	*foreign = *own = 0;
	for (i = 0; i < n; i++) {
		*foreign += c[i].net_rx_foreign_ns;
		*own += c[i].own_ns;
	}
}

/*
 * NET_RX in another process's context is foreign, in ours own: a child
 * sends first (its softirqs at bh enable run in it), then this process.
 * Other traffic on the machine may add foreign time at any moment, so only
 * the growth each sender must cause is asserted.
 */
TEST_F(sirq, foreign_and_own_context)
{
	struct sirq_cpu a[CPUSTAT_MAX_CPUS], b[CPUSTAT_MAX_CPUS];
	__u64 f0, o0, f1, o1;
	struct sirq *s;
	char err[ERR_LEN] = "";
	int n, status;
	pid_t child;

	ASSERT_EQ(0, sirq_open(&s, err)) TH_LOG("%s", err);
	n = sirq_read(s, a, CPUSTAT_MAX_CPUS);
	ASSERT_GE(n, 1);
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(send_frames(self->env, NFRAMES) == NFRAMES ? 0 : 1);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, status);
	usleep(20000);
	ASSERT_EQ(n, sirq_read(s, b, CPUSTAT_MAX_CPUS));
	sum_foreign(a, n, &f0, &o0);
	sum_foreign(b, n, &f1, &o1);
	TH_LOG("child sent: foreign +%llu ns, own +%llu ns",
	       (unsigned long long)(f1 - f0), (unsigned long long)(o1 - o0));
	EXPECT_LT(f0, f1);

	ASSERT_EQ((unsigned int)NFRAMES, send_frames(self->env, NFRAMES));
	usleep(20000);
	ASSERT_EQ(n, sirq_read(s, a, CPUSTAT_MAX_CPUS));
	sum_foreign(a, n, &f0, &o0);
	TH_LOG("we sent: foreign +%llu ns, own +%llu ns",
	       (unsigned long long)(f0 - f1), (unsigned long long)(o0 - o1));
	EXPECT_LT(o1, o0);
	sirq_close(s);
}

/* Detached, the programs count nothing; attached again, they count on */
TEST_F(sirq, detach_and_attach)
{
	struct sirq_cpu a[CPUSTAT_MAX_CPUS], b[CPUSTAT_MAX_CPUS];
	__u64 ns0, cnt0, ns1, cnt1;
	struct sirq *s;
	char err[ERR_LEN] = "";
	int n;

	ASSERT_EQ(0, sirq_open(&s, err)) TH_LOG("%s", err);
	ASSERT_EQ(0, sirq_attach(s, false, err)) TH_LOG("%s", err);
	n = sirq_read(s, a, CPUSTAT_MAX_CPUS);
	ASSERT_GE(n, 1);
	ASSERT_EQ((unsigned int)NFRAMES, send_frames(self->env, NFRAMES));
	usleep(20000);
	ASSERT_EQ(n, sirq_read(s, b, CPUSTAT_MAX_CPUS));
	sum_rx(a, n, &ns0, &cnt0);
	sum_rx(b, n, &ns1, &cnt1);
	EXPECT_EQ(cnt0, cnt1);
	EXPECT_EQ(ns0, ns1);

	ASSERT_EQ(0, sirq_attach(s, true, err)) TH_LOG("%s", err);
	ASSERT_EQ((unsigned int)NFRAMES, send_frames(self->env, NFRAMES));
	usleep(20000);
	ASSERT_EQ(n, sirq_read(s, a, CPUSTAT_MAX_CPUS));
	sum_rx(a, n, &ns0, &cnt0);
	EXPECT_LT(cnt1, cnt0);
	EXPECT_LT(ns1, ns0);
	/* at most one softirq's worth per CPU: no start left from before */
	EXPECT_LT(ns0 - ns1, 1000000000ULL);
	sirq_close(s);
}

TEST_F(sirq, foreign_load_window)
{
	struct load_thread th = { .tid = gettid(), .cpu = -1 };
	struct load_snap *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct load_report r;
	struct sirq *s;
	char err[ERR_LEN] = "";

	ASSERT_NE(NULL, a);
	ASSERT_EQ(0, sirq_open(&s, err)) TH_LOG("%s", err);
	ASSERT_EQ(0, load_snap_take(a, s, &th, 1));
	ASSERT_EQ((unsigned int)NFRAMES, send_frames(self->env, NFRAMES));
	ASSERT_EQ(0, load_snap_take(b, s, &th, 1));
	load_check(a, b, &th, 1, 0.05, &r);
	TH_LOG("window %.0f ns, unpinned threads %.0f ns, unexplained %.0f ns (%.1f%%): %s",
	       r.window_ns, r.unpinned_ns, r.unexplained_ns,
	       100 * r.worst_frac, r.disturbed ? "disturbed" : "clean");
	ASSERT_GT(r.window_ns, 0);
	ASSERT_GT(r.unpinned_ns, 0);
	ASSERT_EQ(-1, r.worst_cpu);
	sirq_close(s);
	free(a);
}

TEST_HARNESS_MAIN
