// SPDX-License-Identifier: GPL-2.0
/*
 * AF_PACKET backends: N frames from the peer arrive as exactly N frames
 * with the exact bytes and in order, on every backend; the automatic choice
 * is TPACKET_V3 on this kernel and says so.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "afpacket.h"
#include "xsk_env.h"
#include "xsk_pkt.h"

#define N 2000U

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

FIXTURE(afp) {
	struct xsk_env *env;
	struct afp_sock *sock;
	char err[XSK_ERRLEN];
};

FIXTURE_VARIANT(afp) {
	enum afp_backend want, expect;
	__u32 len;
};

FIXTURE_VARIANT_ADD(afp, auto_is_v3) {
	.want = AFP_AUTO, .expect = AFP_TPACKET_V3, .len = 64,
};

FIXTURE_VARIANT_ADD(afp, tpacket_v3) {
	.want = AFP_TPACKET_V3, .expect = AFP_TPACKET_V3, .len = 1500,
};

FIXTURE_VARIANT_ADD(afp, tpacket_v2) {
	.want = AFP_TPACKET_V2, .expect = AFP_TPACKET_V2, .len = 1500,
};

FIXTURE_VARIANT_ADD(afp, recvmmsg) {
	.want = AFP_RECVMMSG, .expect = AFP_RECVMMSG, .len = 1500,
};

FIXTURE_SETUP(afp)
{
	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_EQ(0, xenv_create(&self->env, NULL, self->err))
		TH_LOG("%s", self->err);
}

FIXTURE_TEARDOWN(afp)
{
	afp_close(self->sock);
	xenv_destroy(self->env);
}

TEST_F(afp, exact_frames)
{
	unsigned char frame[1514];
	struct seen s = { .len = variant->len };
	unsigned int i;
	int n, idle = 0;

	ASSERT_EQ(0, afp_open(&self->sock, self->env->ifname[XENV_DUT],
			      variant->want, self->err, NULL, 0))
		TH_LOG("%s", self->err);
	EXPECT_EQ(variant->expect, afp_backend(self->sock));
	for (i = 0; i < N; i++) {
		xsk_pkt_build(frame, variant->len, self->env->mac[XENV_DUT],
			      self->env->mac[XENV_PEER], 1000, i);
		ASSERT_EQ(0, xenv_send(self->env, frame, variant->len));
		/* drain as we go: no ring of any backend overflows */
		if (i % 64 == 63)
			afp_rx(self->sock, 4096, 0, check, &s);
	}
	while (s.frames < N && idle < 20) {
		n = afp_rx(self->sock, 4096, 50, check, &s);
		ASSERT_LE(0, n);
		idle = n ? 0 : idle + 1;
	}
	/* and nothing more comes */
	EXPECT_EQ(0, afp_rx(self->sock, 4096, 100, check, &s));
	EXPECT_EQ(N, s.frames);
	EXPECT_EQ(0U, s.bad);
	EXPECT_EQ(0U, s.out_of_order);
}

/* A backend asked for by name on a missing interface: ENODEV, named */
TEST_F(afp, no_such_interface)
{
	ASSERT_EQ(-ENODEV, afp_open(&self->sock, "nosuch0", variant->want,
				    self->err, NULL, 0));
	EXPECT_NE(NULL, strstr(self->err, "nosuch0")) TH_LOG("%s", self->err);
}

TEST_HARNESS_MAIN
