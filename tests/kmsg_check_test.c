// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/kmsg-check.sh, the guest's kernel-log verdict, on kernel logs
 * of known content (tests/kmsg/): every kind of splat it names is found
 * and printed with the group that ran, a clean boot log (with lines that
 * only look like splats) passes, and a log it cannot judge is not passed.
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "run_cmd.h"

#define CHECK	"scripts/kmsg-check.sh"
#define LOGS	"tests/kmsg/"

static char out[65536];

/* kmsg-check.sh ARGS, its stdout and stderr in out; its exit status */
static int check(const char *args)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), CHECK " %s 2>&1", args);
	return run_cmd(cmd, out, sizeof(out));
}

/* How many splats out reports */
static int splats(void)
{
	const char *p = out;
	int n = 0;

	while ((p = strstr(p, "kmsg-check: splat ")))
		n++, p++;
	return n;
}

TEST(clean_boot_log_passes)
{
	EXPECT_EQ(0, check("--boot --name veth " LOGS "clean.log")) TH_LOG("%s", out);
	EXPECT_STREQ("", out);
}

TEST(warning_found_with_its_trace)
{
	EXPECT_EQ(1, check("--boot --name igb " LOGS "warn.log")) TH_LOG("%s", out);
	EXPECT_EQ(1, splats()) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "kmsg-check: splat 1 during igb:\n"
				    "  [   12.345678] ------------[ cut here ]------------\n"
				    "  [   12.345680] WARNING: CPU: 0 PID: 123 at drivers/net/ethernet/intel/igb/igb_main.c:8800"))
		TH_LOG("%s", out);
	/* its trace up to the end marker, and not the line after it */
	EXPECT_NE(NULL, strstr(out, "igb_poll+0x1a/0x2b0\n  [   12.345750] ---[ end trace"))
		TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "NIC Link is Up")) TH_LOG("%s", out);
}

TEST(kasan_without_stamps)
{
	EXPECT_EQ(1, check(LOGS "kasan.log")) TH_LOG("%s", out);
	EXPECT_EQ(1, splats()) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "kmsg-check: splat 1:\n  BUG: KASAN: use-after-free in igb_clean_rx_irq"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "Read of size 8 at addr")) TH_LOG("%s", out);
}

/* Each kind the script names, with syslog levels and stamps: 14 splats */
TEST(every_kind)
{
	static const char *const first[] = {
		"WARNING: possible circular locking dependency detected",
		"INFO: task kworker/0:1:42 blocked for more than 122 seconds.",
		"rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
		"rcu: INFO: rcu_sched self-detected stall on CPU",
		"unreferenced object 0xffff888003a1b000 (size 2048):",
		"page_pool_release_retry() stalled pool shutdown: id 12",
		"UBSAN: shift-out-of-bounds in net/core/filter.c:123:4",
		"BUG: Bad page state in process ksoftirqd/0",
		"refcount_t: underflow; use-after-free.",
		"list_del corruption, ffff888004c3e000->next",
		"general protection fault, probably for non-canonical address",
		"Kernel panic - not syncing: Fatal exception in interrupt",
		"kernel BUG at net/core/skbuff.c:123!",
		"eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out 5120 ms",
	};
	char want[160];
	size_t i;

	EXPECT_EQ(1, check(LOGS "many.log")) TH_LOG("%s", out);
	EXPECT_EQ(14, splats()) TH_LOG("%s", out);
	for (i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
		snprintf(want, sizeof(want), "kmsg-check: splat %zu:\n  <", i + 1);
		EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", want);
		EXPECT_NE(NULL, strstr(out, first[i])) TH_LOG("%s", first[i]);
	}
}

/* Never passed without being read */
TEST(unjudged_logs)
{
	EXPECT_EQ(2, check("--boot " LOGS "kasan.log")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "does not start at boot")) TH_LOG("%s", out);
	EXPECT_EQ(2, check("/nonexistent/kmsg.log")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "kmsg-check: /nonexistent/kmsg.log: not a readable file"))
		TH_LOG("%s", out);
	EXPECT_EQ(2, check("--bogus")) TH_LOG("%s", out);
	EXPECT_EQ(2, check(LOGS "clean.log " LOGS "warn.log")) TH_LOG("%s", out);
}

TEST_HARNESS_MAIN
