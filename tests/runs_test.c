// SPDX-License-Identifier: GPL-2.0
/*
 * How the measuring tools end and how they share the machine:
 *
 * - SIGINT and SIGTERM: the tool stops, reports what it measured marked
 *   "interrupted", exits 128 + the signal, and leaves no namespace;
 * - SIGKILL: the next run of a tool removes what the killed one left,
 *   also when its pid belongs to another process by then;
 * - one measuring run at a time (/run/xdp-cost.lock): a second run waits
 *   for the first and says so; with --allow-concurrent it runs beside it
 *   and its report says so; a script holding the lock passes it on.
 */
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "out_check.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A run's directory, /tmp/runs-test.XXXXXX, as $DIR for its commands, and
 * $BIN (the tools) unless the caller set it: 0, or -1 if it could not be
 * made
 */
static int run_dir_make(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/runs-test.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	setenv("DIR", dir, 1);
	if (!getenv("BIN"))
		setenv("BIN", "build/bin", 1);
	return 0;
}

static void run_dir_remove(struct __test_metadata *_metadata, const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		TH_LOG("could not remove %s", dir);
}

FIXTURE(sig) {
	char out[65536];
	char dir[64];
};

/* A measuring run each, long enough to be stopped in its measuring */
FIXTURE_VARIANT(sig) {
	const char *cmd;	/* after $BIN/ */
	double after;		/* seconds before the signal */
};

FIXTURE_VARIANT_ADD(sig, xdp_rxq_info) {
	.cmd = "xdp_rxq_info -d 20 --interval 1",
	.after = 2.5,
};

FIXTURE_VARIANT_ADD(sig, xdp_trafficgen) {
	.cmd = "xdp_trafficgen -d 20",
	.after = 2,
};

FIXTURE_VARIANT_ADD(sig, softirq_probe) {
	.cmd = "softirq_probe -r 30 -n 100000",
	.after = 3,
};

FIXTURE_VARIANT_ADD(sig, xdp_sweep) {
	.cmd = "xdp_sweep -a XDP_DROP -m native -s 64 -r 20 -d 0.5 --no-plot -o $DIR",
	.after = 4,
};

FIXTURE_VARIANT_ADD(sig, xdpsock) {
	.cmd = "xdpsock -d 20",
	.after = 3,
};

FIXTURE_SETUP(sig)
{
	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_EQ(0, run_dir_make(self->dir, sizeof(self->dir)));
}

FIXTURE_TEARDOWN(sig)
{
	run_dir_remove(_metadata, self->dir);
}

/*
 * The tool's exit status after sig at variant->after seconds; its pid in
 * $DIR/pid, its namespaces (xsk-PID-*) still there after it ended in
 * $DIR/left.  Only its own: other runs on the machine may come and go.
 */
static int signalled(FIXTURE_DATA(sig) *self,
		     const FIXTURE_VARIANT(sig) *variant, int sig)
{
	char cmd[640];

	snprintf(cmd, sizeof(cmd),
		 "$BIN/%s > $DIR/out 2>&1 & p=$!; echo $p > $DIR/pid; sleep %g; "
		 "kill -%d $p; wait $p; rc=$?; "
		 "ip netns list | awk -v p=xsk-$p- 'index($1, p) == 1 { print $1 }' > $DIR/left; "
		 "cat $DIR/out; exit $rc",
		 variant->cmd, variant->after, sig);
	return run_cmd(cmd, self->out, sizeof(self->out));
}

/* The killed tool's namespaces that are there now */
static void its_namespaces(char *buf, size_t len)
{
	if (run_cmd("p=$(cat $DIR/pid); ip netns list | awk -v p=xsk-$p- 'index($1, p) == 1 { print $1 }'",
		    buf, len) < 0)
		snprintf(buf, len, "?");
}

static void stopped(FIXTURE_DATA(sig) *self,
		    struct __test_metadata *_metadata,
		    const FIXTURE_VARIANT(sig) *variant, int sig)
{
	char left[4096];

	EXPECT_EQ(128 + sig, signalled(self, variant, sig)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "interrupted")) TH_LOG("%s", self->out);
	EXPECT_EQ(0, run_cmd("cat $DIR/left", left, sizeof(left)));
	EXPECT_STREQ("", left);
}

TEST_F(sig, sigint)
{
	stopped(self, _metadata, variant, SIGINT);
}

TEST_F(sig, sigterm)
{
	stopped(self, _metadata, variant, SIGTERM);
	/* xdp_sweep writes what it measured, marked */
	if (strstr(variant->cmd, "xdp_sweep")) {
		char pat[128], err[JR_ERRLEN];
		struct jr_value *d;
		glob_t g;

		snprintf(pat, sizeof(pat), "%s/sweep-*.json", self->dir);
		ASSERT_EQ(0, glob(pat, 0, NULL, &g)) TH_LOG("%s", self->out);
		EXPECT_EQ(1U, g.gl_pathc);
		d = jt_parse_file(g.gl_pathv[0], err, sizeof(err));
		EXPECT_NE(NULL, d) TH_LOG("%s", err);
		EXPECT_EQ(1, jt_bool(d, "interrupted")) TH_LOG("%s", g.gl_pathv[0]);
		jr_free(d);
		globfree(&g);
	}
}

/* What a killed run leaves, the next one removes: xdp_env -- true here */
TEST_F(sig, sigkill_then_rerun)
{
	char after[4096], out[256];

	EXPECT_EQ(128 + SIGKILL, signalled(self, variant, SIGKILL));
	EXPECT_EQ(0, run_cmd("$BIN/xdp_env -- true", out, sizeof(out)));
	its_namespaces(after, sizeof(after));
	EXPECT_STREQ("", after);
}

/*
 * kill -9 of a running tool, then the same command again: it succeeds and
 * leaves nothing behind, neither of its own nor of the killed run (whose
 * namespaces it removes), nor a namespace whose owner's pid now belongs
 * to another process (a namespace named after a live process, sleep, at
 * another start time: what a killed run leaves once its pid is reused);
 * the links of this namespace are the ones there were before
 */
FIXTURE(rerun) {
	char out[65536];
	char dir[64];
};

FIXTURE_VARIANT(rerun) {
	const char *cmd;	/* after $BIN/, killed and then run again */
};

FIXTURE_VARIANT_ADD(rerun, xdpsock) {
	.cmd = "xdpsock -d 3",
};

FIXTURE_VARIANT_ADD(rerun, xdp_rxq_info) {
	.cmd = "xdp_rxq_info -d 3 --no-prog-cost",
};

FIXTURE_VARIANT_ADD(rerun, xdp_sweep) {
	.cmd = "xdp_sweep -a XDP_DROP -m native -s 64 -r 2 -d 0.5 --no-plot -o $DIR",
};

FIXTURE_SETUP(rerun)
{
	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_EQ(0, run_dir_make(self->dir, sizeof(self->dir)));
}

FIXTURE_TEARDOWN(rerun)
{
	run_dir_remove(_metadata, self->dir);
}

/* The namespaces of $1 (a pid) there are now, a line each */
#define NS_OF "ns_of() { ip netns list | awk -v p=xsk-$1- 'index($1, p) == 1 { print $1 }'; }; "

TEST_F_TIMEOUT(rerun, sigkill_then_same_command, 300)
{
	char cmd[2048], buf[4096];
	int rc;

	/*
	 * Killed once its namespaces are there and it has run a second;
	 * then the namespace of a reused pid is planted, and the command
	 * runs again to its end
	 */
	snprintf(cmd, sizeof(cmd), NS_OF
		 "ip -br link | awk '{ print $1 }' | sort > $DIR/links0; "
		 "$BIN/%s > $DIR/out1 2>&1 & p=$!; i=0; "
		 "until [ -n \"$(ns_of $p)\" ] || [ $i -ge 1200 ]; do i=$((i + 1)); sleep 0.1; done; "
		 "sleep 1; kill -KILL $p; { wait $p; } 2>/dev/null; echo $? > $DIR/rc1; ns_of $p > $DIR/killed; "
		 "sleep 300 & s=$!; ip netns add xsk-$s-1-$(stat -L -c %%i /proc/self/ns/pid)-0-d; "
		 "$BIN/%s > $DIR/out2 2>&1 & q=$!; wait $q; rc=$?; "
		 "{ ns_of $p; ns_of $q; ns_of $s; } > $DIR/left; "
		 "ip netns del xsk-$s-1-$(stat -L -c %%i /proc/self/ns/pid)-0-d 2>/dev/null; kill $s; "
		 "ip -br link | awk '{ print $1 }' | sort > $DIR/links1; "
		 "cat $DIR/out2; exit $rc",
		 variant->cmd, variant->cmd);
	rc = run_cmd(cmd, self->out, sizeof(self->out));
	/* the first run was killed with its namespaces there */
	ASSERT_EQ(0, run_cmd("cat $DIR/rc1", buf, sizeof(buf)));
	ASSERT_STREQ("137\n", buf);
	ASSERT_EQ(0, run_cmd("cat $DIR/killed", buf, sizeof(buf)));
	if (!buf[0]) {
		run_cmd("cat $DIR/out1", buf, sizeof(buf));
		ASSERT_TRUE(false)
			TH_LOG("no namespace of the killed run (it waited for the run lock, or another run removed them): %s",
			       buf);
	}
	/* the same command again: a success, and nothing left behind */
	EXPECT_EQ(0, rc) TH_LOG("%s", self->out);
	EXPECT_EQ(0, run_cmd("cat $DIR/left", buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
	EXPECT_EQ(0, run_cmd("diff $DIR/links0 $DIR/links1", buf, sizeof(buf)))
		TH_LOG("links: %s", buf);
}

/* xdp_env: a signal in the setup ends it; its command ends with it */
TEST(xdp_env_signals)
{
	char out[4096], left[4096];

	if (geteuid())
		SKIP(return, "needs root");
	if (!getenv("BIN"))
		setenv("BIN", "build/bin", 1);
	/* during the setup of a 4-queue pair (a second or more): no command */
	/*
	 * The signal as soon as its handler is in: xdp_env's, not the shell's
	 * before the exec (comm), with SIGINT in SigCgt (bit 2)
	 */
	EXPECT_EQ(128 + SIGINT,
		  run_cmd("d=$(mktemp -d); $BIN/xdp_env --queues 4 -- touch $d/ran 2>&1 & p=$!; "
			  "i=0; until [ \"$(cat /proc/$p/comm)\" = xdp_env ] && "
			  "m=$(awk '/^SigCgt/ { print $2 }' /proc/$p/status) && "
			  "[ $(( 0x$m & 2 )) -ne 0 ] || [ $i -ge 5000 ]; do "
			  "i=$((i + 1)); sleep 0.001; done; "
			  "kill -INT $p; wait $p; rc=$?; ls $d; rm -r $d; exit $rc",
			  out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "xdp_env: interrupted before the command started"))
		TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "ran")) TH_LOG("%s", out);
	/* the command's own end: SIGTERM forwarded, its status passed on */
	EXPECT_EQ(128 + SIGTERM,
		  run_cmd("$BIN/xdp_env -- sleep 30 & p=$!; sleep 2; "
			  "kill -TERM $p; wait $p", out, sizeof(out)));
	/* killed: the command does not outlive it */
	EXPECT_EQ(0, run_cmd("$BIN/xdp_env -- sleep 31.5 & p=$!; sleep 2; "
			     "kill -KILL $p; wait $p; sleep 0.5; "
			     "! pgrep -f '^sleep 31[.]5$'", out, sizeof(out)));
	EXPECT_EQ(0, run_cmd("$BIN/xdp_env -- true", out, sizeof(out)));
	dead_owner_namespaces(left, sizeof(left));
	EXPECT_STREQ("", left);
}

/*
 * On a lock file of their own: the suite's runner holds the machine's
 * (scripts/run-selftests.sh) and passes it on in XDP_COST_LOCK_FD
 */
FIXTURE(lock) {
	char out[65536];
	char path[64];
};

FIXTURE_SETUP(lock)
{
	int fd;

	if (geteuid())
		SKIP(return, "needs root");
	if (!getenv("BIN"))
		setenv("BIN", "build/bin", 1);
	snprintf(self->path, sizeof(self->path), "/tmp/runs-test-lock.XXXXXX");
	fd = mkstemp(self->path);
	ASSERT_LE(0, fd);
	close(fd);
	setenv("XDP_COST_LOCK", self->path, 1);
	unsetenv("XDP_COST_LOCK_FD");
}

FIXTURE_TEARDOWN(lock)
{
	char beside[80];

	snprintf(beside, sizeof(beside), "%s.beside", self->path);
	unlink(beside);
	unlink(self->path);
}

/*
 * A second run waits for the first: it says whose run it waits for, and
 * it ends after the first has (4 s) plus its own second
 */
TEST_F(lock, second_run_waits)
{
	double t0 = now_s(), t;

	EXPECT_EQ(0, run_cmd("$BIN/xdp_trafficgen -d 4 > /dev/null & p=$!; sleep 1.5; "
			     "$BIN/xdp_trafficgen -d 1 2>&1; rc=$?; wait $p; exit $rc",
			     self->out, sizeof(self->out))) TH_LOG("%s", self->out);
	t = now_s() - t0;
	EXPECT_NE(NULL, strstr(self->out, "waiting for another measuring run (xdp_trafficgen, pid "))
		TH_LOG("%s", self->out);
	EXPECT_GE(t, 5.0) TH_LOG("ended after %.1f s", t);
	EXPECT_EQ(NULL, strstr(self->out, "WARNING")) TH_LOG("%s", self->out);
}

/*
 * The lock's line names a pid that now runs something else (a sleep, not
 * the tool named): the holder is not named after it
 */
TEST_F(lock, holder_pid_reused)
{
	EXPECT_EQ(124, run_cmd("exec 9>>$XDP_COST_LOCK; flock 9; sleep 30 & s=$!; "
			       "echo \"$s xdp_sweep\" > $XDP_COST_LOCK; "
			       "timeout 2 $BIN/xdp_trafficgen -n 1000 2>&1; rc=$?; "
			       "kill $s; exit $rc", self->out, sizeof(self->out)))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "waiting for another measuring run (a script's, e.g. make check)"))
		TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "pid")) TH_LOG("%s", self->out);
}

/*
 * --allow-concurrent: it runs beside the first, and says it did; so does
 * the first, which held the lock, and which leaves no record of it behind
 */
TEST_F(lock, allow_concurrent)
{
	char first[4096], err[JR_ERRLEN], said[4096];
	struct jr_value *d;

	EXPECT_EQ(0, run_cmd("f=$(mktemp); $BIN/xdp_trafficgen -d 4 -j > $f & p=$!; sleep 1.5; "
			     "$BIN/xdp_rxq_info -d 1 --no-prog-cost --allow-concurrent -j "
			     "2>$XDP_COST_LOCK.err; "
			     "rc=$?; wait $p; cp $f $XDP_COST_LOCK.first; rm $f; exit $rc",
			     self->out, sizeof(self->out))) TH_LOG("%s", self->out);
	EXPECT_EQ(0, run_cmd("cat $XDP_COST_LOCK.err; rm -f $XDP_COST_LOCK.err",
			     said, sizeof(said)));
	EXPECT_EQ(NULL, strstr(said, "waiting")) TH_LOG("%s", said);
	d = jt_parse(self->out, err, sizeof(err));
	ASSERT_NE(NULL, d) TH_LOG("%s: %s", err, self->out);
	EXPECT_STREQ("concurrent-seen", jt_strz(d, "run_lock")) TH_LOG("%s", self->out);
	jr_free(d);
	/* the record of the run beside it went with the first run's lock */
	EXPECT_EQ(0, run_cmd("cat $XDP_COST_LOCK.first; rm -f $XDP_COST_LOCK.first; "
			     "test ! -e $XDP_COST_LOCK.beside",
			     first, sizeof(first)));
	d = jt_parse(first, err, sizeof(err));
	ASSERT_NE(NULL, d) TH_LOG("%s: %s", err, first);
	EXPECT_STREQ("exclusive-overlapped", jt_strz(d, "run_lock")) TH_LOG("%s", first);
	jr_free(d);
	/* and alone: allowed, nobody seen, still not "exclusive"; said so */
	EXPECT_EQ(0, run_cmd("$BIN/xdp_trafficgen -n 1000 --allow-concurrent -j 2>/dev/null",
			     self->out, sizeof(self->out)));
	d = jt_parse(self->out, err, sizeof(err));
	ASSERT_NE(NULL, d) TH_LOG("%s: %s", err, self->out);
	EXPECT_STREQ("concurrent-allowed", jt_strz(d, "run_lock")) TH_LOG("%s", self->out);
	jr_free(d);
	EXPECT_EQ(0, run_cmd("$BIN/xdp_trafficgen -n 1000 --allow-concurrent 2>&1",
			     self->out, sizeof(self->out)));
	EXPECT_TRUE(has_words(self->out,
			      "WARNING run with --allow-concurrent: no other measuring run was seen"))
		TH_LOG("%s", self->out);
}

/*
 * A script that holds the lock passes it on; without it, a tool waits, and
 * a signal ends the wait
 */
TEST_F(lock, inherited)
{
	char err[JR_ERRLEN];
	struct jr_value *d;

	EXPECT_EQ(0, run_cmd("exec 9>>$XDP_COST_LOCK; flock 9; "
			     "XDP_COST_LOCK_FD=9 timeout 20 $BIN/xdp_trafficgen -n 1000 -j",
			     self->out, sizeof(self->out))) TH_LOG("%s", self->out);
	d = jt_parse(self->out, err, sizeof(err));
	ASSERT_NE(NULL, d) TH_LOG("%s: %s", err, self->out);
	EXPECT_STREQ("exclusive", jt_strz(d, "run_lock")) TH_LOG("%s", self->out);
	jr_free(d);
	EXPECT_EQ(124, run_cmd("exec 9>>$XDP_COST_LOCK; flock 9; "
			       "timeout 3 $BIN/xdp_trafficgen -n 1000 2>&1",
			       self->out, sizeof(self->out))) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "waiting for another measuring run"))
		TH_LOG("%s", self->out);
	EXPECT_EQ(130, run_cmd("exec 9>>$XDP_COST_LOCK; flock 9; "
			       "$BIN/xdp_rxq_info -d 1 2>&1 & p=$!; sleep 1; "
			       "kill -INT $p; wait $p", self->out, sizeof(self->out)));
	EXPECT_NE(NULL, strstr(self->out, "xdp_rxq_info: interrupted while waiting for the run lock: nothing measured"))
		TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
