// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/vm-stall-watch.sh, the guest's dump of a test that runs long:
 * a test past --every gets its tasks (state, wait channel, stack) dumped
 * as TAP comments, again each --every while it runs; tests that end in
 * time get nothing; the watcher ends by itself at the TAP's "# Totals:".
 * Run on the host with its clock: a few seconds each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "run_cmd.h"

#define WATCH	"scripts/vm-stall-watch.sh --poll 1 --every 2"

static char out[65536];

FIXTURE(watch) {
	char dir[64];
	char tap[96];
};

FIXTURE_SETUP(watch)
{
	char cmd[256];

	snprintf(self->dir, sizeof(self->dir), "/tmp/stall-watch-%d", getpid());
	snprintf(self->tap, sizeof(self->tap), "%s/g.tap", self->dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp /bin/sleep %s/swt-sleeper",
		 self->dir, self->dir);
	ASSERT_EQ(0, system(cmd));
}

FIXTURE_TEARDOWN(watch)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "pkill -x swt-sleeper; rm -rf %s", self->dir);
	if (system(cmd) < 0)
		TH_LOG("%s failed", cmd);
}

/* A test that runs past --every (2 s): dumped with its task at 2 and 4 s */
TEST_F(watch, long_test_dumped)
{
	char cmd[512], want[128];
	const char *p;
	int n = 0;

	ASSERT_EQ(0, write_text(self->tap,
				"TAP version 13\n"
				"#  RUN           nic.dev_zerocopy.mtu_cycled_under_traffic ...\n"));
	snprintf(cmd, sizeof(cmd),
		 "%s/swt-sleeper 20 >/dev/null & p=$!; echo \"pid $p\"; "
		 "timeout 6.5 " WATCH " --comm swt-sleeper %s; echo \"status $?\"",
		 self->dir, self->tap);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out)));
	/* killed by timeout: it was still watching */
	EXPECT_NE(NULL, strstr(out, "status 124\n")) TH_LOG("%s", out);
	for (p = out; (p = strstr(p, "# stall: nic.dev_zerocopy.mtu_cycled_under_traffic: running for ")); p++)
		n++;
	EXPECT_EQ(2, n) TH_LOG("%s", out);
	/* the task by its pid, sleeping, with its stack */
	p = strstr(out, "pid ");
	ASSERT_NE(NULL, p);
	snprintf(want, sizeof(want), "# stall: task %d (%s/swt-sleeper 20 ): state S",
		 atoi(p + 4), self->dir);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("want '%s' in:\n%s", want, out);
	EXPECT_NE(NULL, strstr(out, "# stall: [<0>] ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "# stall: namespace of init:\n# stall: lo: rx "))
		TH_LOG("%s", out);
	/* every line of it a TAP comment */
	for (p = out; *p; p = strchr(p, '\n') + 1) {
		if (strncmp(p, "pid ", 4) && strncmp(p, "status ", 7))
			ASSERT_EQ(0, strncmp(p, "# stall: ", 9)) TH_LOG("%s", p);
		if (!strchr(p, '\n'))
			break;
	}
}

/*
 * Tests that each end within --every are never dumped, however long the
 * run; the watcher ends at "# Totals:" with status 0
 */
TEST_F(watch, short_tests_not_dumped)
{
	char cmd[1024];

	ASSERT_EQ(0, write_text(self->tap, "TAP version 13\n"));
	snprintf(cmd, sizeof(cmd),
		 "%s/swt-sleeper 20 >/dev/null & "
		 "(for i in 1 2 3 4 5; do echo \"#  RUN           t.v.n$i ...\"; "
		 "echo \"ok $i t.v.n$i\"; sleep 1; done; "
		 "echo '# Totals: pass:5 fail:0 xfail:0 xpass:0 skip:0 error:0') >> %s & "
		 "timeout 10 " WATCH " --comm swt-sleeper %s; echo \"status $?\"",
		 self->dir, self->tap, self->tap);
	ASSERT_EQ(0, run_cmd(cmd, out, sizeof(out)));
	EXPECT_STREQ("status 0\n", out);
}

TEST_HARNESS_MAIN
