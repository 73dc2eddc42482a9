/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every tool's command line needs: numbers checked against a range,
 * with an error that names the tool, the option and the value; no stray
 * arguments; a stop flag set by SIGINT, SIGTERM and SIGHUP, and the exit
 * status a shell gives a run that such a signal stopped; and one measuring
 * run at a time on the machine.
 */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

/*
 * Set by cli_stop_on_signals()' handler to the number of the signal that
 * came; pass &cli_stop as a stop flag
 */
extern volatile int cli_stop;

void cli_stop_on_signals(void);

/* Whether such a signal came: a stop test to hand to code that asks one */
bool cli_stopping(void);

/* ret, or 128 + the signal when a signal stopped the run (as shells do) */
int cli_exit_status(int ret);

/*
 * Run cmd with /bin/sh -c, as system() does but stoppable: the command runs
 * in a process group of its own, and a signal that sets cli_stop while it
 * runs sends the group SIGTERM, then SIGKILL if it is still there
 * CLI_KILL_GRACE_MS later, and SIGKILL to what of the group outlived the
 * shell (no child of the shell is left running).  stdout and stderr are
 * flushed first.  It gets SIGKILL should the tool be killed
 * (PR_SET_PDEATHSIG; what it started is its own).  Returns its exit
 * status (0-255), CLI_SIGNALED + the signal that ended it, or -errno when
 * it could not be started.
 */
#define CLI_KILL_GRACE_MS	2000
#define CLI_SIGNALED		256
int cli_run_shell(const char *cmd);

/* "status 3", "killed by signal 11 (Segmentation fault)", "could not run (...)" */
const char *cli_status_text(int st, char *buf, size_t len);

/*
 * fds 0-2 open (a placeholder where one was closed, as in "2>&-"): else
 * the first file the tool opens (a record, the run lock) would take the
 * closed one's number and get its messages.  A read or write on the
 * placeholder fails (EBADF), so a lost report is still said with exit 1;
 * no name of it opens (ENXIO) or leads anywhere (ENOTDIR); what the tool
 * execs finds it closed.
 */
void cli_std_fds_open(void);

/*
 * Whether path reaches, through its symbolic links, a standard fd that was
 * closed at start (/proc/PID/fd/N of this process or of one of its
 * threads, PID as this /proc names it: /dev/stdout, /dev/fd/1, ...): the
 * file openers refuse it with EBADF.  A path the walk cannot follow is
 * left to the placeholder.
 */
bool cli_names_closed_std(const char *path);

/*
 * In a child about to exec the user's command: the signal dispositions
 * the tools change (SIGPIPE and SIGXFSZ ignored, opts_parse()) back to
 * the default
 */
void cli_exec_prep(void);

/*
 * The same without a shell, for the tool's own helpers (gnuplot): argv[0]
 * looked up in PATH, the arguments passed as they are (a path with a
 * quote in it stays a path); whatever of its group outlives it is killed
 * when it ends, a stop or not
 */
int cli_run_argv(const char *const argv[]);

/*
 * Output that is lost is an error, never a silent success: a write, the
 * flush or the close of a report failed (a full disk, /dev/full).
 * cli_file_close() closes f: 0, or -errno (-EIO for a failed write whose
 * errno is gone).  cli_finish() ends every tool's main: it closes stdout,
 * and on a lost report says "TOOL: standard output: the report is lost
 * (why)" and returns 1 where ret was 0; then cli_exit_status(ret).
 * cli_finish_out() is cli_finish() for a tool that already saw standard
 * output fail (out_err: -errno, from a flush such as json_finish()'s; 0:
 * none): the same one line, with that reason, which a later flush would
 * no longer know.
 */
int cli_file_close(FILE *f);
int cli_finish(const char *tool, int ret);
int cli_finish_out(const char *tool, int ret, int out_err);

/*
 * A file the tool writes, made or emptied: a regular file only.  A
 * symlink (O_NOFOLLOW: ELOOP), a FIFO (never waited for: ENXIO or EINVAL),
 * a directory or a device of that name is someone else's and refused.
 * The FILE, or NULL with errno set.
 */
FILE *cli_open_out(const char *path);

/*
 * The same for a stream the user points the tool at: a symlink is
 * followed, and a FIFO with a reader or a device is taken as it is (a
 * FIFO nobody reads is still never waited for: ENXIO).  A regular file is
 * emptied.  The FILE, or NULL with errno set.
 */
FILE *cli_open_stream(const char *path);

/*
 * Parse arg as a number in min..max; on error print "TOOL: OPT: 'ARG' is
 * not a number in MIN..MAX" and return -EINVAL.  cli_double() takes any
 * finite decimal (not hex: 0x1p-3 is refused); the integer parsers take
 * whole numbers only: decimal (1e6 is a million, 1.5 is refused as "not a
 * whole number"), or hex with 0x; never octal, no sign, no trailing
 * characters.
 */
int cli_double(const char *tool, const char *opt, const char *arg, double min,
	       double max, double *val);
int cli_u64(const char *tool, const char *opt, const char *arg, __u64 min,
	    __u64 max, __u64 *val);
int cli_u32(const char *tool, const char *opt, const char *arg, __u32 min,
	    __u32 max, __u32 *val);

/* A figure of a report as text: v with prec decimals, or "-" for NaN */
struct cli_num {
	char s[24];
};

struct cli_num cli_num_text(double v, int prec);

/* A CPU that is online: 0..(online CPUs - 1) */
int cli_cpu(const char *tool, const char *opt, const char *arg, __u32 *cpu);

/* -EINVAL, said, when frames of size bytes do not fit an MTU (0: default) */
int cli_size_fits_mtu(const char *tool, __u32 size, __u32 mtu);

/*
 * -EINVAL, said, when count frames at rate per second take longer than
 * the limit, seconds (a zero count, rate or limit: nothing to check)
 */
int cli_count_fits(const char *tool, __u64 count, __u64 rate, double limit);

/*
 * cli_u64() without the message: 0, or -EINVAL (not a number), -EDOM (not
 * whole), -ERANGE (not in min..max)
 */
int cli_parse_u64(const char *arg, __u64 min, __u64 max, __u64 *val);

/* -EINVAL with "TOOL: unexpected argument 'X'" when optind < argc */
int cli_no_more_args(const char *tool, int argc, char **argv);

/*
 * -EINVAL with "TOOL: OPT: 'DIR' is not a directory we can write to (why)"
 * unless dir is one; for output paths, checked before anything is measured.
 */
int cli_check_out_dir(const char *tool, const char *opt, const char *dir);

/*
 * One measuring run at a time: the tools that measure take CLI_LOCK_PATH
 * with flock() for the whole run.  A second run waits for the first (it
 * says so, once, with the first run's tool and pid), or with
 * allow_concurrent runs beside it and reports itself as concurrent.  A
 * script that holds the lock for the tools it starts exports its fd as
 * CLI_LOCK_ENV; a tool that inherits it runs under the script's lock.
 * CLI_LOCK_PATH_ENV names another lock file (the lock's own tests).
 * Returns 0, or -EINTR when a signal came while waiting, or -errno.
 */
#define CLI_LOCK_PATH		"/run/xdp-cost.lock"
#define CLI_LOCK_ENV		"XDP_COST_LOCK_FD"
#define CLI_LOCK_PATH_ENV	"XDP_COST_LOCK"

struct cli_lock {
	int fd;
	const char *tool;
	bool concurrent;	/* run with allow_concurrent */
	bool others_seen;	/* and another run held the lock meanwhile */
	bool overlapped;	/* exclusive, and a concurrent run ran beside */
	long long beside;	/* size of CLI_LOCK_PATH.beside at the start */
};

int cli_lock_take(struct cli_lock *l, const char *tool, bool allow_concurrent);
void cli_lock_release(struct cli_lock *l);
/*
 * The sentence to print for a concurrent run (looking again whether
 * another run holds the lock), or NULL for a clean one
 */
const char *cli_lock_warning(struct cli_lock *l);
/*
 * How the run shared the machine, as the JSON's run_lock says it, after
 * cli_lock_warning(): exclusive, exclusive-overlapped (a run with
 * allow_concurrent ran beside it), concurrent-allowed, concurrent-seen
 */
const char *cli_lock_state(const struct cli_lock *l);

#endif /* CLI_H */
