// SPDX-License-Identifier: GPL-2.0
/*
 * Interleaved A/B with xdp_sweep --ab: a program against itself is no
 * change; against itself with a large injected cost it is a significant
 * increase.  Two identical sides are two veth pairs, and the one set up
 * second measured dearer in 12 of 12 A/Bs here (+0.1% to +1.7%, once
 * outside the 99.9% interval: CI of 2026-12-06), in 3 of 12 with the
 * setup order swapped: an offset between the pairs, not chance, which no
 * confidence level removes.  The first case therefore allows 3%
 * (--tolerance), the second is about +50%.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "run_cmd.h"

#define SWEEP "xdp_sweep --ab --actions XDP_DROP --modes native --sizes 64 " \
	      "--repeat 6 --duration 0.3 --warmup 0.1 --level 99.9 --no-plot"

FIXTURE(ab) {
	char dir[64];
	char out[16384];
};

FIXTURE_SETUP(ab)
{
	if (geteuid())
		SKIP(return, "needs root");
	snprintf(self->dir, sizeof(self->dir), "/tmp/xdp-ab-test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(ab)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (self->dir[0] && system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* The output of xdp_sweep --ab ... B_OPTS: stdout, and stderr with errors */
static int sweep_out(FIXTURE_DATA(ab) *self, const char *b_opts, bool errors)
{
	const char *bin = getenv("BIN") ?: "build/bin";
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s/" SWEEP " %s --out %s 2>%s",
		 bin, b_opts, self->dir, errors ? "&1" : "/dev/null");
	return run_cmd(cmd, self->out, sizeof(self->out));
}

static int sweep(FIXTURE_DATA(ab) *self, const char *b_opts)
{
	return sweep_out(self, b_opts, false);
}

/* The same program on both sides */
TEST_F(ab, same_program_no_change)
{
	char path[256];

	ASSERT_EQ(0, sweep(self, "--tolerance 3")) TH_LOG("%s", self->out);
	EXPECT_TRUE(strstr(self->out, "(no change: within 3%)") ||
		    strstr(self->out, "(no significant change)"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
			       "1 point compared: 0 dearer, 0 cheaper, 1 no significant change"))
		TH_LOG("%s", self->out);
	/* both results written, B's path last */
	ASSERT_NE(NULL, strstr(self->out, "-a.json\n"));
	snprintf(path, sizeof(path), "%s", strstr(self->out, self->dir));
	path[strcspn(path, "\n")] = '\0';
	EXPECT_EQ(0, access(path, R_OK)) TH_LOG("%s", path);
	EXPECT_EQ(0, strcmp(self->out + strlen(self->out) - 8, "-b.json\n"))
		TH_LOG("%s", self->out);
}

/* B spins 400 multiply-adds more per frame: hundreds of ns, up */
TEST_F(ab, injected_cost_is_an_increase)
{
	const char *row;

	ASSERT_EQ(0, sweep(self, "--b-spin 400")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "spin_n: A 0, B 400"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
			       "1 point compared: 1 dearer, 0 cheaper, 0 no significant change"))
		TH_LOG("%s", self->out);
	row = strstr(self->out, "XDP_DROP native 64B 1 flow: +");
	ASSERT_NE(NULL, row) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(row, "(no significant change)"));
}

/* B may be measured another way, not at other points */
TEST_F(ab, b_opts_keep_the_matrix)
{
	ASSERT_EQ(2, sweep_out(self, "--b-opts '--sizes 128'", true));
	EXPECT_NE(NULL, strstr(self->out, "B may not change the matrix"))
		TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
