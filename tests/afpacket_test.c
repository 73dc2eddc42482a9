// SPDX-License-Identifier: GPL-2.0
/*
 * AF_PACKET backends, each way.  Receive: N frames from the peer arrive as
 * exactly N frames with the exact bytes and in order, on every backend.
 * Send: N frames sent on the dut arrive at the peer as exactly N (its XDP
 * program counts frames and bytes) with the exact bytes and in order (a
 * recvmmsg() socket there checks them), over more than a ring's worth.
 * The automatic choice is TPACKET_V3 on this kernel; with TPACKET_V3
 * refused by injection it is TPACKET_V2, with both refused it is
 * recvmmsg()/sendmmsg(), and the reasons say the refusals were injected.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "afpacket.h"
#include "xsk_env.h"
#include "xsk_pkt.h"

#define N 2000U
#define N_TX 5000U	/* more than a TX ring's 2048 slots: the ring wraps */

struct seen {
	__u32 frames, bad, out_of_order, len;
	__u32 next;
};

static void check(const void *data, __u32 len, void *ctx)
{
	struct seen *s = ctx;
	struct xsk_pkt_info info;

	s->frames++;
	if (len != s->len || xsk_pkt_check(data, len, &info)) {
		s->bad++;
		return;
	}
	if (info.seq != s->next)
		s->out_of_order++;
	s->next = info.seq + 1;
}

/* Frames with sequence numbers from seq on, for afp_tx() */
struct gen {
	const unsigned char *dst, *src;
	__u32 len, seq;
};

static __u32 fill(void *buf, __u32 room, void *ctx)
{
	struct gen *g = ctx;

	/* a length out of range goes back unwritten, for afp_tx() to refuse */
	if (g->len >= XSK_PKT_MIN_LEN && g->len <= room)
		xsk_pkt_build(buf, g->len, g->dst, g->src, 1000, g->seq++);
	return g->len;
}

/* Receive until want frames came or 1 s passed without any; then 100 ms */
static void recv_all(struct __test_metadata *_metadata, struct afp_sock *s,
		     __u32 want, struct seen *seen)
{
	int n, idle = 0;

	while (seen->frames < want && idle < 20) {
		n = afp_rx(s, 4096, 50, check, seen);
		ASSERT_LE(0, n);
		idle = n ? 0 : idle + 1;
	}
	/* and nothing more comes */
	EXPECT_EQ(0, afp_rx(s, 4096, 100, check, seen));
	EXPECT_EQ(want, seen->frames);
	EXPECT_EQ(0U, seen->bad);
	EXPECT_EQ(0U, seen->out_of_order);
}

/* Receive N frames sent by the environment's peer on the dut's socket */
static void receive_n(struct __test_metadata *_metadata, struct xsk_env *env,
		      struct afp_sock *s, __u32 len)
{
	unsigned char frame[1514];
	struct seen seen = { .len = len };
	unsigned int i;

	for (i = 0; i < N; i++) {
		xsk_pkt_build(frame, len, env->mac[XENV_DUT],
			      env->mac[XENV_PEER], 1000, i);
		ASSERT_EQ(0, xenv_send(env, frame, len));
		/* drain as we go: no ring of any backend overflows */
		if (i % 64 == 63)
			afp_rx(s, 4096, 0, check, &seen);
	}
	recv_all(_metadata, s, N, &seen);
}

/*
 * Send N_TX frames on the dut's socket, in two calls; the peer's XDP
 * program and a recvmmsg() socket there (*peer) count and check them
 */
static void send_n(struct __test_metadata *_metadata, struct xsk_env *env,
		   struct afp_sock *s, struct afp_sock **peer, __u32 len)
{
	struct gen g = {
		.dst = env->mac[XENV_PEER], .src = env->mac[XENV_DUT],
		.len = len,
	};
	struct seen seen = { .len = len };
	struct xsk_prog_counters c;
	char err[ERR_LEN];

	ASSERT_EQ(0, xenv_enter(env, XENV_PEER));
	ASSERT_EQ(0, afp_open(peer, env->ifname[XENV_PEER], AFP_RECVMMSG, err,
			      NULL, 0))
		TH_LOG("%s", err);
	ASSERT_EQ(0, xenv_enter(env, XENV_DUT));

	EXPECT_EQ(3000, afp_tx(s, 3000, fill, &g));
	EXPECT_EQ((int)(N_TX - 3000), afp_tx(s, N_TX - 3000, fill, &g));
	EXPECT_EQ(N_TX, g.seq);
	recv_all(_metadata, *peer, N_TX, &seen);
	ASSERT_EQ(0, xsk_prog_counters_read(env->peer_skel, &c));
	EXPECT_EQ(N_TX, c.rx_packets);
	EXPECT_EQ((__u64)N_TX * len, c.rx_bytes);
}

/* Both fixtures: the veth pair, and the sockets a test opened on it */
static void pair_up(struct __test_metadata *_metadata, struct xsk_env **env,
		    char err[ERR_LEN])
{
	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_EQ(0, xenv_create(env, NULL, err)) TH_LOG("%s", err);
}

static void pair_down(struct xsk_env *env, struct afp_sock *sock,
		      struct afp_sock *peer)
{
	afp_close(sock);
	afp_close(peer);
	xenv_destroy(env);
}

FIXTURE(afp) {
	struct xsk_env *env;
	struct afp_sock *sock;
	struct afp_sock *peer;
	char err[ERR_LEN];
};

FIXTURE_VARIANT(afp) {
	enum afp_backend want, expect;
	__u32 len;
	bool qdisc_bypass;	/* when sending */
};

FIXTURE_VARIANT_ADD(afp, auto_is_v3) {
	.want = AFP_AUTO, .expect = AFP_TPACKET_V3, .len = 64,
};

FIXTURE_VARIANT_ADD(afp, tpacket_v3) {
	.want = AFP_TPACKET_V3, .expect = AFP_TPACKET_V3, .len = 1500,
	.qdisc_bypass = true,
};

FIXTURE_VARIANT_ADD(afp, tpacket_v2) {
	.want = AFP_TPACKET_V2, .expect = AFP_TPACKET_V2, .len = 1500,
};

FIXTURE_VARIANT_ADD(afp, mmsg) {
	.want = AFP_RECVMMSG, .expect = AFP_RECVMMSG, .len = 1500,
};

FIXTURE_SETUP(afp)
{
	pair_up(_metadata, &self->env, self->err);
}

FIXTURE_TEARDOWN(afp)
{
	pair_down(self->env, self->sock, self->peer);
}

TEST_F(afp, exact_frames)
{
	ASSERT_EQ(0, afp_open(&self->sock, self->env->ifname[XENV_DUT],
			      variant->want, self->err, NULL, 0))
		TH_LOG("%s", self->err);
	EXPECT_EQ(variant->expect, afp_backend(self->sock));
	EXPECT_EQ(-EINVAL, afp_tx(self->sock, 1, fill, NULL));
	receive_n(_metadata, self->env, self->sock, variant->len);
}

TEST_F(afp, send_exact_frames)
{
	struct afp_opts o = {
		.tx = true, .qdisc_bypass = variant->qdisc_bypass,
	};
	struct gen g = {};

	ASSERT_EQ(0, afp_open_opts(&self->sock, self->env->ifname[XENV_DUT],
				   variant->want, &o, self->err, NULL, 0))
		TH_LOG("%s", self->err);
	EXPECT_EQ(variant->expect, afp_backend(self->sock));
	EXPECT_STREQ(variant->expect == AFP_SENDMMSG ? "sendmmsg" :
		     afp_backend_name(variant->expect),
		     afp_sock_name(self->sock));
	EXPECT_EQ(-EINVAL, afp_rx(self->sock, 1, 0, NULL, NULL));
	/* lengths out of 14..MTU + 14: refused before the kernel sees them */
	g.len = 1515;
	EXPECT_EQ(-EMSGSIZE, afp_tx(self->sock, 1, fill, &g));
	g.len = 13;
	EXPECT_EQ(-EMSGSIZE, afp_tx(self->sock, 1, fill, &g));
	EXPECT_EQ(0U, g.seq);
	send_n(_metadata, self->env, self->sock, &self->peer, variant->len);
}

/* A backend asked for by name on a missing interface: ENODEV, named */
TEST_F(afp, no_such_interface)
{
	ASSERT_EQ(-ENODEV, afp_open(&self->sock, "nosuch0", variant->want,
				    self->err, NULL, 0));
	EXPECT_NE(NULL, strstr(self->err, "nosuch0")) TH_LOG("%s", self->err);
}

/*
 * The fallback: refusals injected by afp_opts.refuse or by AFP_REFUSE in
 * the environment; the automatic choice falls to the next backend, which
 * then moves N frames exactly, and the reasons name each refusal as
 * injected.  A backend asked for by name and refused is an error.
 */
FIXTURE(fallback) {
	struct xsk_env *env;
	struct afp_sock *sock;
	struct afp_sock *peer;
	char err[ERR_LEN];
	char why[512];
};

FIXTURE_VARIANT(fallback) {
	bool tx;
	enum afp_backend want, expect;	/* expect AFP_AUTO: open fails */
	unsigned int refuse;
	const char *env;		/* AFP_REFUSE */
	const char *passed[2];		/* names in the reasons */
};

FIXTURE_VARIANT_ADD(fallback, rx_refuse_v3) {
	.want = AFP_AUTO, .expect = AFP_TPACKET_V2, .refuse = AFP_REFUSE_V3,
	.passed = { "tpacket_v3: PACKET_RX_RING" },
};

FIXTURE_VARIANT_ADD(fallback, rx_refuse_v3_v2) {
	.want = AFP_AUTO, .expect = AFP_RECVMMSG,
	.refuse = AFP_REFUSE_V3 | AFP_REFUSE_V2,
	.passed = { "tpacket_v3: PACKET_RX_RING", "tpacket_v2: PACKET_RX_RING" },
};

FIXTURE_VARIANT_ADD(fallback, tx_refuse_v3) {
	.tx = true, .want = AFP_AUTO, .expect = AFP_TPACKET_V2,
	.refuse = AFP_REFUSE_V3,
	.passed = { "tpacket_v3: PACKET_TX_RING" },
};

FIXTURE_VARIANT_ADD(fallback, tx_refuse_v3_v2) {
	.tx = true, .want = AFP_AUTO, .expect = AFP_SENDMMSG,
	.refuse = AFP_REFUSE_V3 | AFP_REFUSE_V2,
	.passed = { "tpacket_v3: PACKET_TX_RING", "tpacket_v2: PACKET_TX_RING" },
};

FIXTURE_VARIANT_ADD(fallback, rx_env_v3) {
	.want = AFP_AUTO, .expect = AFP_TPACKET_V2, .env = "v3",
	.passed = { "tpacket_v3: PACKET_RX_RING" },
};

FIXTURE_VARIANT_ADD(fallback, tx_env_v3_v2) {
	.tx = true, .want = AFP_AUTO, .expect = AFP_SENDMMSG, .env = "v2,v3",
	.passed = { "tpacket_v3: PACKET_TX_RING", "tpacket_v2: PACKET_TX_RING" },
};

FIXTURE_VARIANT_ADD(fallback, tx_v3_by_name_refused) {
	.tx = true, .want = AFP_TPACKET_V3, .expect = AFP_AUTO,
	.refuse = AFP_REFUSE_V3,
	.passed = { "tpacket_v3: PACKET_TX_RING" },
};

FIXTURE_SETUP(fallback)
{
	pair_up(_metadata, &self->env, self->err);
	/* each test runs in its own process: the variable stays there */
	if (variant->env)
		ASSERT_EQ(0, setenv("AFP_REFUSE", variant->env, 1));
}

FIXTURE_TEARDOWN(fallback)
{
	pair_down(self->env, self->sock, self->peer);
}

TEST_F(fallback, injected)
{
	struct afp_opts o = { .tx = variant->tx, .refuse = variant->refuse };
	const char *dir = variant->tx ? "TX" : "RX";
	unsigned int i, nr = 0;
	const char *p;
	int ret;

	ret = afp_open_opts(&self->sock, self->env->ifname[XENV_DUT],
			    variant->want, &o, self->err, self->why,
			    sizeof(self->why));
	TH_LOG("%s socket: %s; passed by: %s", dir,
	       ret ? self->err : afp_sock_name(self->sock), self->why);
	/* every reason says it was injected, and the refusals are all */
	for (i = 0; i < ARRAY_SIZE(variant->passed) && variant->passed[i]; i++)
		EXPECT_NE(NULL, strstr(self->why, variant->passed[i]));
	for (p = self->why; (p = strstr(p, "(injected by ")); p++)
		nr++;
	EXPECT_EQ(i, nr);
	if (variant->expect == AFP_AUTO) {
		EXPECT_EQ(-EINVAL, ret);
		EXPECT_NE(NULL, strstr(self->err, "injected"));
		return;
	}
	ASSERT_EQ(0, ret) TH_LOG("%s", self->err);
	EXPECT_EQ(variant->expect, afp_backend(self->sock));
	if (variant->tx)
		send_n(_metadata, self->env, self->sock, &self->peer, 1500);
	else
		receive_n(_metadata, self->env, self->sock, 1500);
}

/* A bad backend or AFP_REFUSE: an error that names it, before any socket */
TEST(bad_arguments)
{
	struct afp_opts o = { .tx = true };
	struct afp_sock *s = NULL;
	char err[ERR_LEN];

	EXPECT_EQ(-EINVAL, afp_open_opts(&s, "nosuch0", 7, &o, err, NULL, 0));
	EXPECT_STREQ("backend 7 is none of auto, tpacket_v3, tpacket_v2, sendmmsg",
		     err);
	ASSERT_EQ(0, setenv("AFP_REFUSE", "v3,v4", 1));
	EXPECT_EQ(-EINVAL, afp_open(&s, "nosuch0", AFP_AUTO, err, NULL, 0));
	EXPECT_STREQ("AFP_REFUSE: 'v4' is none of v3, v2", err);
	EXPECT_EQ(NULL, s);
}

TEST_HARNESS_MAIN
