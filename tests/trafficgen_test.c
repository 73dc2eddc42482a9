// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic generator tests: tgen_run() on the peer side of a veth pair,
 * tgen_sink attached natively on the dut side counting what arrives.
 *
 * Every assertion is exact: frames sent and received, lengths, frames per
 * UDP source port, errno values.  No speed is asserted.
 *
 * Frame sizes are frame lengths without FCS (Ethernet header included): at
 * MTU 9000 the largest is 9014.
 *
 * Exact counts at full speed hold because, in the kernel's default NAPI
 * mode, the dut's NAPI runs as softirq on the generator's CPU after every
 * batch of TGEN_BATCH (64) frames, when BPF_PROG_RUN re-enables bottom
 * halves; a batch never fills the dut's 256-entry veth ring.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>

#include "kselftest_harness.h"
#include "trafficgen.h"
#include "xsk_env.h"
#include "xsk_pkt.h"

static bool is_root(void)
{
	return geteuid() == 0;
}

/*
 * Whether this kernel refuses BPF_PROG_RUN in live-frames mode (EPERM):
 * tgen_run() then sends by AF_XDP, and what only live frames do is
 * skipped or refused
 */
static bool live_refused(void)
{
	static int ret = 1;

	if (ret == 1)
		ret = tgen_live_check();
	return ret == -EPERM;
}

#define LIVE_REFUSED "this kernel refuses BPF_PROG_RUN in live-frames mode (EPERM)"

static void opts_init(struct tgen_opts *o, struct xsk_env *env)
{
	memset(o, 0, sizeof(*o));
	o->ifname = env->ifname[XENV_PEER];
	memcpy(o->dst, env->mac[XENV_DUT], 6);
	memcpy(o->src, env->mac[XENV_PEER], 6);
	o->cpu = 0;
	o->flows = 1;
}

/* Sink on the dut, natively; the thread is left in the peer's namespace */
static int env_setup(struct xsk_env **env, struct tgen_sink **sink,
		     __u32 mtu, char err[ERR_LEN])
{
	struct xenv_opts eo = { .mtu = mtu };
	int ret;

	ret = xenv_create(env, &eo, err);
	if (ret)
		return ret;
	ret = xenv_enter(*env, XENV_DUT);
	if (ret)
		return ret;
	ret = tgen_sink_attach(sink, (*env)->ifindex[XENV_DUT],
			       XDP_FLAGS_DRV_MODE, err);
	if (ret)
		return ret;
	return xenv_enter(*env, XENV_PEER);
}

static void env_teardown(struct xsk_env *env, struct tgen_sink *sink)
{
	if (env)
		xenv_enter(env, -1);
	tgen_sink_detach(sink);
	xenv_destroy(env);
}

FIXTURE(tgen) {
	struct xsk_env *env;
	struct tgen_sink *sink;
	struct tgen_opts o;
	struct tgen_result r;
	struct tgen_sink_counters c;
	__u64 ports[FRAME_MAX_FLOWS];
	char err[ERR_LEN];
};

FIXTURE_SETUP(tgen)
{
	if (!is_root())
		SKIP(return, "needs root (network namespaces, XDP)");
	ASSERT_EQ(0, env_setup(&self->env, &self->sink, 1500, self->err))
		TH_LOG("%s", self->err);
	opts_init(&self->o, self->env);
}

FIXTURE_TEARDOWN(tgen)
{
	env_teardown(self->env, self->sink);
}

/* Run, then read the sink once it has everything (or stopped moving) */
static int run_and_count(FIXTURE_DATA(tgen) *self)
{
	int ret = tgen_run(&self->o, &self->r, self->err);

	if (ret)
		return ret;
	ret = tgen_sink_settle(self->sink, self->r.sent, 2000, &self->c);
	if (ret)
		return ret;
	return tgen_sink_read(self->sink, &self->c, self->ports,
			      FRAME_MAX_FLOWS);
}

static void check_exact(struct __test_metadata *_metadata,
			FIXTURE_DATA(tgen) *self, __u64 count, __u32 size)
{
	ASSERT_STREQ(live_refused() ? "af_xdp-sg" : "live-frames",
		     self->r.method);
	ASSERT_EQ(count, self->r.sent);
	ASSERT_EQ(count, self->c.packets);
	ASSERT_EQ(count * size, self->c.bytes);
	ASSERT_EQ(size, self->c.min_len);
	ASSERT_EQ(size, self->c.max_len);
	ASSERT_EQ(0ULL, self->c.other);
}

TEST_F(tgen, count_64_one_flow)
{
	self->o.count = 10000;
	self->o.pkt_size = 64;
	ASSERT_EQ(0, run_and_count(self))
		TH_LOG("%s", self->err);
	check_exact(_metadata, self, 10000, 64);
	ASSERT_EQ(10000ULL, self->ports[0]);
	ASSERT_EQ(0ULL, self->ports[1]);
}

TEST_F(tgen, count_100_flows)
{
	unsigned int p, distinct = 0;

	self->o.count = 10000;
	self->o.flows = 100;
	ASSERT_EQ(0, run_and_count(self))
		TH_LOG("%s", self->err);
	check_exact(_metadata, self, 10000, 64);
	for (p = 0; p < FRAME_MAX_FLOWS; p++) {
		if (!self->ports[p])
			continue;
		distinct++;
		ASSERT_GT(100U, p);
		ASSERT_EQ(100ULL, self->ports[p])
			TH_LOG("port %u", TGEN_PORT_BASE + p);
	}
	ASSERT_EQ(100ULL, distinct);
}

TEST_F(tgen, size_512)
{
	self->o.count = 10000;
	self->o.pkt_size = 512;
	ASSERT_EQ(0, run_and_count(self))
		TH_LOG("%s", self->err);
	check_exact(_metadata, self, 10000, 512);
}

TEST_F(tgen, size_1500)
{
	self->o.count = 10000;
	self->o.pkt_size = 1500;
	ASSERT_EQ(0, run_and_count(self))
		TH_LOG("%s", self->err);
	check_exact(_metadata, self, 10000, 1500);
}

/*
 * Paced: frame i leaves at start + i / rate (one BPF_PROG_RUN call per
 * frame), or, by AF_XDP, with the step it is the last of (a step's
 * frames never early), so the last one cannot leave before
 * (count - 1) / rate.  The rate
 * reached is not asserted: each call costs some 30 us here, more than the
 * 50 us between frames under load.
 */
TEST_F(tgen, rate_limited_exact_count)
{
	self->o.count = 10000;
	self->o.rate_pps = 20000;
	ASSERT_EQ(0, run_and_count(self))
		TH_LOG("%s", self->err);
	check_exact(_metadata, self, 10000, 64);
	ASSERT_LE(9999ULL * 1000000000ULL / 20000, self->r.duration_ns);
}

/*
 * Paced above TGEN_CALL_PACE_MAX: one call in which the program sends
 * each frame when it is due and drops the runs between.  Exactly the
 * count, and no earlier than (count - 1) / rate: pace_start is the first
 * run's time.  With stamps, as xdpsock --latency asks (its tests read
 * them).
 */
TEST_F(tgen, rate_in_program_exact_count)
{
	if (live_refused())
		SKIP(return, LIVE_REFUSED ": no pacing in the program");
	self->o.count = 100000;
	self->o.rate_pps = 500000;
	self->o.stamp = true;
	ASSERT_EQ(0, run_and_count(self))
		TH_LOG("%s", self->err);
	ASSERT_STREQ("live-frames", self->r.method);
	check_exact(_metadata, self, 100000, 64);
	ASSERT_LE(99999ULL * 1000000000ULL / 500000, self->r.duration_ns);
}

TEST_F(tgen, duration_only)
{
	self->o.duration_ns = 200000000ULL;
	self->o.rate_pps = 10000;
	ASSERT_EQ(0, run_and_count(self))
		TH_LOG("%s", self->err);
	ASSERT_LT(0ULL, self->r.sent);
	ASSERT_LE(200000000ULL, self->r.duration_ns);
	check_exact(_metadata, self, self->r.sent, 64);
}

/*
 * bare: the program only returns XDP_TX, so the sink gets the template frame
 * (64 bytes, the first flow's port) and the generator counts nothing
 */
TEST_F(tgen, bare_template_uncounted)
{
	self->o.duration_ns = 200000000ULL;
	self->o.bare = true;
	if (live_refused()) {
		ASSERT_EQ(-EPERM, run_and_count(self));
		ASSERT_NE(NULL, strstr(self->err, "which bare needs"))
			TH_LOG("%s", self->err);
		return;
	}
	ASSERT_EQ(0, run_and_count(self))
		TH_LOG("%s", self->err);
	ASSERT_STREQ("live-frames", self->r.method);
	ASSERT_EQ(0ULL, self->r.sent);
	ASSERT_LE(200000000ULL, self->r.duration_ns);
	ASSERT_LT(0ULL, self->c.packets);
	ASSERT_EQ(self->c.packets * 64, self->c.bytes);
	ASSERT_EQ(64U, self->c.min_len);
	ASSERT_EQ(64U, self->c.max_len);
	ASSERT_EQ(0ULL, self->c.other);
	ASSERT_EQ(self->c.packets, self->ports[0]);
}

TEST_F(tgen, bare_refuses_count_rate_flows)
{
	self->o.bare = true;
	self->o.count = 10;
	ASSERT_EQ(-EINVAL, tgen_run(&self->o, &self->r, self->err));
	ASSERT_NE(NULL, strstr(self->err, "no count, no rate, one flow"))
		TH_LOG("%s", self->err);
	self->o.count = 0;
	self->o.duration_ns = 100000000ULL;
	self->o.rate_pps = 1000;
	ASSERT_EQ(-EINVAL, tgen_run(&self->o, &self->r, self->err));
	self->o.rate_pps = 0;
	self->o.flows = 2;
	ASSERT_EQ(-EINVAL, tgen_run(&self->o, &self->r, self->err));
}

TEST_F(tgen, stop_flag)
{
	volatile int stop = 1;

	self->o.count = 10000;
	self->o.stop = &stop;
	ASSERT_EQ(0, tgen_run(&self->o, &self->r, self->err))
		TH_LOG("%s", self->err);
	ASSERT_EQ(0ULL, self->r.sent);
}

TEST_F(tgen, bad_size)
{
	self->o.count = 10;
	self->o.pkt_size = 10;
	ASSERT_EQ(-EINVAL, tgen_run(&self->o, &self->r, self->err));
	ASSERT_NE(NULL, strstr(self->err, "frame size 10"))
		TH_LOG("%s", self->err);
	self->o.pkt_size = FRAME_MAX_SIZE + 1;
	ASSERT_EQ(-EINVAL, tgen_run(&self->o, &self->r, self->err));
}

TEST_F(tgen, bad_flows)
{
	self->o.count = 10;
	self->o.flows = 0;
	ASSERT_EQ(-EINVAL, tgen_run(&self->o, &self->r, self->err));
	ASSERT_NE(NULL, strstr(self->err, "flows 0"))
		TH_LOG("%s", self->err);
	self->o.flows = FRAME_MAX_FLOWS + 1;
	ASSERT_EQ(-EINVAL, tgen_run(&self->o, &self->r, self->err));
}

TEST_F(tgen, no_count_no_duration)
{
	ASSERT_EQ(-EINVAL, tgen_run(&self->o, &self->r, self->err));
	ASSERT_NE(NULL, strstr(self->err, "neither a count nor a duration"))
		TH_LOG("%s", self->err);
}

TEST_F(tgen, no_such_interface)
{
	self->o.count = 10;
	self->o.ifname = "tgen-none0";
	ASSERT_EQ(-ENODEV, tgen_run(&self->o, &self->r, self->err));
	ASSERT_NE(NULL, strstr(self->err, "tgen-none0"))
		TH_LOG("%s", self->err);
}

TEST_F(tgen, nothing_received_before_run)
{
	ASSERT_EQ(0, tgen_sink_read(self->sink, &self->c, self->ports, 1));
	ASSERT_EQ(0ULL, self->c.packets);
	ASSERT_EQ(0ULL, self->ports[0]);
}

/* ------------------------------------------------------------------------ */

FIXTURE(jumbo) {
	struct xsk_env *env;
	struct tgen_sink *sink;
	struct tgen_opts o;
	struct tgen_result r;
	struct tgen_sink_counters c;
	__u64 ports[4];
	char err[ERR_LEN];
};

FIXTURE_SETUP(jumbo)
{
	if (!is_root())
		SKIP(return, "needs root (network namespaces, XDP)");
	ASSERT_EQ(0, env_setup(&self->env, &self->sink, 9000, self->err))
		TH_LOG("%s", self->err);
	opts_init(&self->o, self->env);
}

FIXTURE_TEARDOWN(jumbo)
{
	env_teardown(self->env, self->sink);
}

static int jumbo_run(FIXTURE_DATA(jumbo) *self)
{
	int ret = tgen_run(&self->o, &self->r, self->err);

	if (ret)
		return ret;
	ret = tgen_sink_settle(self->sink, self->r.sent, 2000, &self->c);
	if (ret)
		return ret;
	return tgen_sink_read(self->sink, &self->c, self->ports, 4);
}

/* A 9000-byte IP packet: 9014-byte frames, past live-frames' one page */
TEST_F(jumbo, frames_9014_by_af_xdp_sg)
{
	self->o.count = 1000;
	self->o.pkt_size = 9014;
	self->o.flows = 2;
	ASSERT_EQ(0, jumbo_run(self))
		TH_LOG("%s", self->err);
	TH_LOG("%s", self->err);
	ASSERT_STREQ("af_xdp-sg", self->r.method);
	if (live_refused()) {
		ASSERT_NE(NULL, strstr(self->err, LIVE_REFUSED));
		ASSERT_EQ(0U, self->r.live_max_len);
	} else {
		ASSERT_NE(NULL, strstr(self->err, "AF_XDP multi-buffer"));
		ASSERT_LT(0ULL, self->r.live_max_len);
		ASSERT_GT(9014ULL, self->r.live_max_len);
	}
	ASSERT_EQ(1000ULL, self->r.sent);
	ASSERT_EQ(1000ULL, self->c.packets);
	ASSERT_EQ(1000ULL * 9014, self->c.bytes);
	ASSERT_EQ(9014ULL, self->c.min_len);
	ASSERT_EQ(9014ULL, self->c.max_len);
	ASSERT_EQ(0ULL, self->c.other);
	ASSERT_EQ(500ULL, self->ports[0]);
	ASSERT_EQ(500ULL, self->ports[1]);
}

/* The largest live frame goes live, one byte more goes by AF_XDP */
TEST_F(jumbo, live_limit_boundary)
{
	__u32 limit;

	if (live_refused())
		SKIP(return, LIVE_REFUSED ": no limit to find");
	self->o.count = 1000;
	self->o.pkt_size = 9014;
	ASSERT_EQ(0, jumbo_run(self))
		TH_LOG("%s", self->err);
	limit = self->r.live_max_len;
	TH_LOG("live frames take at most %u bytes", limit);

	self->o.pkt_size = limit;
	ASSERT_EQ(0, jumbo_run(self))
		TH_LOG("%s", self->err);
	ASSERT_STREQ("live-frames", self->r.method);
	ASSERT_EQ(limit, self->r.live_max_len);
	ASSERT_EQ(1000ULL, self->r.sent);
	ASSERT_EQ(2000ULL, self->c.packets);
	ASSERT_EQ(limit, self->c.min_len);

	self->o.pkt_size = limit + 1;
	ASSERT_EQ(0, jumbo_run(self))
		TH_LOG("%s", self->err);
	ASSERT_STREQ("af_xdp-sg", self->r.method);
	ASSERT_EQ(1000ULL, self->r.sent);
	ASSERT_EQ(3000ULL, self->c.packets);
	ASSERT_EQ(limit, self->c.min_len);
	ASSERT_EQ(9014ULL, self->c.max_len);
}

TEST_HARNESS_MAIN
