// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "cli.h"
#include "esc.h"

volatile int cli_stop;

static void on_stop(int sig)
{
	cli_stop = sig;
}

/* No SA_RESTART: a blocking wait (cli_lock_take()) sees the signal */
void cli_stop_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

bool cli_stopping(void)
{
	return cli_stop;
}

int cli_exit_status(int ret)
{
	return cli_stop ? 128 + cli_stop : ret;
}

/*
 * Why an earlier write of f failed, when stdio kept no errno: the file at
 * the size limit (ulimit -f with SIGXFSZ ignored: EFBIG), its file system
 * full (ENOSPC), or else -EIO
 */
static int lost_why(FILE *f)
{
	struct statvfs vfs;
	struct rlimit rl;
	struct stat st;
	int fd = fileno(f);

	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode)) {
		if (!getrlimit(RLIMIT_FSIZE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
		    (rlim_t)st.st_size >= rl.rlim_cur)
			return -EFBIG;
		if (!fstatvfs(fd, &vfs) && !vfs.f_bavail)
			return -ENOSPC;
	}
	return -EIO;
}

int cli_file_close(FILE *f)
{
	int ret = 0;

	errno = 0;
	if (fflush(f) || ferror(f))
		ret = errno ? -errno : lost_why(f);
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* The standard fds that were closed at start, now held by placeholders */
static unsigned int std_closed;

void cli_std_fds_open(void)
{
	char path[32];
	int fd, ep, ph;

	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			std_closed |= 1u << fd;
	do {
		fd = open("/dev/null", O_RDONLY);
	} while (fd >= 0 && fd <= 2);
	if (fd >= 0)
		close(fd);
	if (!std_closed)
		return;
	/*
	 * The placeholder: an O_PATH descriptor of an anonymous inode (an
	 * epoll instance's).  Read and write fail (EBADF), as on the closed
	 * one; no name of it opens (ENXIO) or leads anywhere (ENOTDIR); and
	 * closed on exec, so that what the tool runs finds it closed.
	 * Without /proc, /dev/null read-only stays.
	 */
	ep = epoll_create1(EPOLL_CLOEXEC);
	for (fd = 0; fd <= 2 && ep >= 0; fd++) {
		if (!(std_closed & (1u << fd)))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", ep);
		ph = open(path, O_PATH | O_CLOEXEC);
		if (ph < 0)
			break;
		dup3(ph, fd, O_CLOEXEC);
		close(ph);
	}
	if (ep >= 0)
		close(ep);
}

bool cli_names_closed_std(const char *path)
{
	char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX], self[16];
	int hops, pid, tid, fd, end, me;
	const char *last;
	char *slash;
	ssize_t n;

	if (!std_closed || strlen(path) >= sizeof(cur))
		return false;
	n = readlink("/proc/self", self, sizeof(self) - 1);
	if (n <= 0)
		return false;
	self[n] = '\0';
	me = atoi(self);
	memcpy(cur, path, strlen(path) + 1);
	for (hops = 0; hops < 40; hops++) {
		/* the directory resolved; the last component as it is */
		slash = strrchr(cur, '/');
		last = slash ? slash + 1 : cur;
		snprintf(dir, sizeof(dir), "%.*s",
			 slash ? (int)(slash - cur) + (slash == cur) : 1,
			 slash ? cur : ".");
		if (!realpath(dir, link))
			return false;
		end = 0;
		sscanf(link, "/proc/%d/fd%n", &pid, &end);
		if (!end)
			sscanf(link, "/proc/%d/task/%d/fd%n", &pid, &tid, &end);
		if (end && !link[end] && pid == me &&
		    sscanf(last, "%d%n", &fd, &end) == 1 && !last[end] &&
		    fd >= 0 && fd <= 2 && (std_closed & (1u << fd)))
			return true;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return false;
		link[n] = '\0';
		/* relative: from the link's directory */
		end = link[0] == '/' ? 0 : last - cur;
		if (end + n >= (int)sizeof(cur))
			return false;
		memcpy(cur + end, link, n + 1);
	}
	return false;
}

/* cli_open_out() (regular_only) or cli_open_stream() */
static FILE *open_out(const char *path, bool regular_only)
{
	struct stat st;
	FILE *f;
	int fd, e;

	if (cli_names_closed_std(path)) {
		errno = EBADF;
		return NULL;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC |
		  (regular_only ? O_NOFOLLOW : 0), 0644);
	if (fd < 0)
		return NULL;
	e = fstat(fd, &st) ? errno : 0;
	if (!e && regular_only && !S_ISREG(st.st_mode))
		e = EINVAL;
	if (!e && S_ISREG(st.st_mode) && ftruncate(fd, 0))
		e = errno;
	if (!e && fcntl(fd, F_SETFL, 0))
		e = errno;
	f = e ? NULL : fdopen(fd, "w");
	if (!f) {
		e = e ?: errno;
		close(fd);
		errno = e;
	}
	return f;
}

FILE *cli_open_out(const char *path)
{
	return open_out(path, true);
}

FILE *cli_open_stream(const char *path)
{
	return open_out(path, false);
}

int cli_finish(const char *tool, int ret)
{
	return cli_finish_out(tool, ret, 0);
}

int cli_finish_out(const char *tool, int ret, int out_err)
{
	int lost = cli_file_close(stdout);

	if (out_err)
		lost = out_err;
	if (lost) {
		fprintf(stderr, "%s: standard output: the report is lost (%s)\n",
			tool, strerror(-lost));
		if (!ret)
			ret = 1;
	}
	return cli_exit_status(ret);
}

/*
 * Wait for the leader pid of a process group; a stop (cli_stop) sends the
 * group SIGTERM, and CLI_KILL_GRACE_MS later SIGKILL if the leader is still
 * there; after a stop, or always with reap (the tool's own helpers),
 * whatever of the group outlived the leader (a child that ignores SIGTERM)
 * gets SIGKILL too.  The leader is reaped only after that: till then it is
 * a zombie, and the group's id names no other process.  Polled (1 to 10
 * ms), not a blocking wait: a stop just before the wait is not missed.
 */
static int wait_group(pid_t pid, bool reap)
{
	bool termed = false, killed = false;
	int st, ms = 0, nap = 1;
	siginfo_t si;

	for (;;) {
		if (cli_stop && !termed) {
			kill(-pid, SIGTERM);
			termed = true;
		}
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT)) {
			if (errno != EINTR)
				return -errno;
			continue;
		}
		if (si.si_pid == pid)
			break;
		if (termed && !killed && ms >= CLI_KILL_GRACE_MS) {
			kill(-pid, SIGKILL);
			killed = true;
		}
		usleep(nap * 1000);
		ms += termed ? nap : 0;
		nap = nap < 10 ? 2 * nap : 10;
	}
	if (termed || reap)
		kill(-pid, SIGKILL);	/* what outlived the leader */
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : CLI_SIGNALED + WTERMSIG(st);
}

void cli_exec_prep(void)
{
	signal(SIGPIPE, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
}

/*
 * The leader of the command's process group: it runs argv and ends as the
 * command did (its status, or the same signal, without a core: it is the
 * tool's copy), and should the tool die meanwhile (SIGKILL, which nothing
 * can handle) it kills the whole group, so that what the command was
 * running goes with the tool too; a SIGTERM of the tool's stop, to the
 * group, is the command's to handle.  The selftests' xsk_env.c has its
 * own for its set-up commands: it cannot link this layer.  Never returns.
 */
static void supervise(const char *const argv[], pid_t tool)
{
	sigset_t set;
	pid_t cmd;
	int st;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != tool)
		kill(0, SIGKILL);
	cmd = fork();
	if (cmd < 0) {
		fprintf(stderr, "%s: fork: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (!cmd) {
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		cli_exec_prep();
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		if (sigwaitinfo(&set, NULL) == SIGTERM && getppid() != tool)
			kill(0, SIGKILL);	/* the tool is gone */
		if (waitpid(cmd, &st, WNOHANG) == cmd)
			break;
	}
	if (WIFSIGNALED(st)) {
		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		signal(WTERMSIG(st), SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(WTERMSIG(st));
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

/* argv in a process group of its own (cli_run_shell(), cli_run_argv()) */
static int run_group(const char *const argv[], bool reap)
{
	pid_t pid, parent = getpid();

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		/* a group of its own: its children go with it */
		setpgid(0, 0);
		supervise(argv, parent);
	}
	setpgid(pid, pid);	/* either side may run first */
	return wait_group(pid, reap);
}

const char *cli_status_text(int st, char *buf, size_t len)
{
	if (st < 0)
		snprintf(buf, len, "could not run (%s)", strerror(-st));
	else if (st >= CLI_SIGNALED)
		snprintf(buf, len, "killed by signal %d (%s)", st - CLI_SIGNALED,
			 strsignal(st - CLI_SIGNALED));
	else
		snprintf(buf, len, "status %d", st);
	return buf;
}

int cli_run_shell(const char *cmd)
{
	const char *const argv[] = { "/bin/sh", "-c", cmd, NULL };

	/* the user's: what it starts on purpose may outlive it */
	return run_group(argv, false);
}

int cli_run_argv(const char *const argv[])
{
	return run_group(argv, true);
}

static int bad_number(const char *tool, const char *opt, const char *arg,
		      const char *what, const char *range)
{
	fprintf(stderr, "%s: %s: '%s' is not a %s in %s\n", tool, opt,
		esc_text(arg).s, what, range);
	return -EINVAL;
}

int cli_double(const char *tool, const char *opt, const char *arg, double min,
	       double max, double *val)
{
	char range[64], *end;
	double v;

	snprintf(range, sizeof(range), "%g..%g", min, max);
	/*
	 * strtod() would skip blanks and take a '+', and read hex floats
	 * (0x1p-3): decimals only; no sign where none is in range (-0)
	 */
	if ((!(*arg >= '0' && *arg <= '9') && *arg != '.' &&
	     (*arg != '-' || min >= 0)) || strpbrk(arg, "xX"))
		return bad_number(tool, opt, arg, "number", range);
	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || !isfinite(v) || !(v >= min && v <= max))
		return bad_number(tool, opt, arg, "number", range);
	*val = v;
	return 0;
}

/*
 * Whole numbers: strtoull() alone would take " 5", "-1" (as 2^64 - 1) and
 * 010 (as 8); 1e6 goes through strtod() and must come out whole and exact.
 */
int cli_parse_u64(const char *arg, __u64 min, __u64 max, __u64 *val)
{
	unsigned long long v;
	char *end;
	bool hex;

	if (*arg < '0' || *arg > '9')
		return -EINVAL;
	hex = arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X');
	errno = 0;
	v = strtoull(arg, &end, hex ? 16 : 10);
	if (!hex && (*end == '.' || *end == 'e' || *end == 'E')) {
		double d;

		errno = 0;
		d = strtod(arg, &end);
		/* 1e-400 underflows to 0: not the number written */
		if (*end || errno || !isfinite(d))
			return -EINVAL;
		if (d != floor(d))
			return -EDOM;
		if (d > 9007199254740992.0)	/* 2^53: no longer exact */
			return -ERANGE;
		v = d;
	} else if (errno == ERANGE) {
		return -ERANGE;
	} else if (errno || *end || (hex && end == arg + 2)) {
		return -EINVAL;
	}
	if (v < min || v > max)
		return -ERANGE;
	*val = v;
	return 0;
}

int cli_u64(const char *tool, const char *opt, const char *arg, __u64 min,
	    __u64 max, __u64 *val)
{
	char range[64];
	int ret = cli_parse_u64(arg, min, max, val);

	if (!ret)
		return 0;
	snprintf(range, sizeof(range), "%llu..%llu", (unsigned long long)min,
		 (unsigned long long)max);
	return bad_number(tool, opt, arg,
			  ret == -EDOM ? "whole number" : "number", range);
}

int cli_u32(const char *tool, const char *opt, const char *arg, __u32 min,
	    __u32 max, __u32 *val)
{
	__u64 v;
	int ret = cli_u64(tool, opt, arg, min, max, &v);

	if (!ret)
		*val = v;
	return ret;
}

int cli_cpu(const char *tool, const char *opt, const char *arg, __u32 *cpu)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return cli_u32(tool, opt, arg, 0, n > 0 ? n - 1 : 0, cpu);
}

int cli_size_fits_mtu(const char *tool, __u32 size, __u32 mtu)
{
	if (!mtu || size <= mtu + 14)
		return 0;
	fprintf(stderr, "%s: --size %u does not fit --mtu %u (frames up to MTU + 14 = %u bytes)\n",
		tool, size, mtu, mtu + 14);
	return -EINVAL;
}

int cli_count_fits(const char *tool, __u64 count, __u64 rate, double limit)
{
	double takes = rate ? (double)count / rate : 0;

	if (!count || !rate || !limit || takes <= limit)
		return 0;
	fprintf(stderr, "%s: -n %llu at --rate %llu takes %g s, longer than -d %g\n",
		tool, (unsigned long long)count, (unsigned long long)rate,
		takes, limit);
	return -EINVAL;
}

int cli_no_more_args(const char *tool, int argc, char **argv)
{
	if (optind >= argc)
		return 0;
	fprintf(stderr, "%s: unexpected argument '%s'\n", tool,
		esc_text(argv[optind]).s);
	return -EINVAL;
}

/* access(W_OK) says yes to root for /proc and /sys: make a file and see */
static bool can_create_in(const char *dir)
{
	char path[4096];
	int fd;

	if (snprintf(path, sizeof(path), "%s/.xdp-cost-XXXXXX", dir) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return false;
	}
	fd = mkstemp(path);
	if (fd < 0)
		return false;
	close(fd);
	unlink(path);
	return true;
}

int cli_check_out_dir(const char *tool, const char *opt, const char *dir)
{
	const char *why = NULL;
	struct stat st;

	if (!*dir) {
		why = "an empty path";
	} else if (stat(dir, &st)) {
		if (errno == ENOENT)
			return 0;	/* made later, as mkdir -p would */
		why = strerror(errno);
	} else if (!S_ISDIR(st.st_mode)) {
		why = strerror(ENOTDIR);
	} else if (!can_create_in(dir)) {
		why = strerror(errno);
	}
	if (!why)
		return 0;
	fprintf(stderr, "%s: %s: '%s' is not a directory we can write to (%s)\n",
		tool, opt, esc_path(dir).s, why);
	return -EINVAL;
}

/*
 * Whether process pid runs the tool: its comm (the name's first 15 bytes)
 * is the tool's, so that a pid reused by another process is not named
 */
static bool runs_tool(int pid, const char *tool)
{
	char path[32], comm[32] = "";
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	comm[n > 0 ? n : 0] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return *comm && !strncmp(comm, tool, 15) &&
	       strlen(comm) == (strlen(tool) < 15 ? strlen(tool) : 15);
}

/*
 * "PID TOOL" of the run that took the lock last, for the waiting message;
 * a script holding it (make check, bench-peers) writes no line, so the
 * line of a run that is gone (or whose pid now runs something else) is
 * not the holder
 */
static void lock_holder(int fd, char *buf, size_t len)
{
	char line[96], tool[64], shown[80];
	ssize_t n = pread(fd, line, sizeof(line) - 1, 0);
	int pid;

	line[n > 0 ? n : 0] = '\0';
	if (sscanf(line, "%d %63s", &pid, tool) == 2 && pid > 0 &&
	    runs_tool(pid, tool))
		snprintf(buf, len, "%s, pid %d",
			 esc_into(shown, sizeof(shown), tool), pid);
	else
		snprintf(buf, len, "a script's, e.g. make check");
}

static void lock_note_self(int fd, const char *tool)
{
	char buf[96];
	int n = snprintf(buf, sizeof(buf), "%d %s\n", getpid(), tool);

	if (ftruncate(fd, 0) || pwrite(fd, buf, n, 0) != n)
		return;	/* only the waiting message reads it */
}

/* CLI_LOCK_PATH, or another file for tests (CLI_LOCK_PATH_ENV) */
static const char *lock_path(void)
{
	const char *p = getenv(CLI_LOCK_PATH_ENV);

	return p && *p ? p : CLI_LOCK_PATH;
}

/*
 * Where a run with allow_concurrent that runs beside an exclusive one says
 * so (a line each, appended), for the exclusive run to see at its end.
 * The holder of the lock owns the file: a tool that takes the lock makes
 * it empty and removes it when it lets the lock go, a script that holds it
 * for its tools does the same (Documentation/running.rst); a concurrent
 * run appends only to a file that is there.  So it is there only while
 * someone holds the lock, and holds one run's notes.
 */
static const char *beside_path(void)
{
	static char path[4096];

	/* a path that would be cut names another file: then there is none */
	if (snprintf(path, sizeof(path), "%s.beside", lock_path()) >=
	    (int)sizeof(path))
		snprintf(path, sizeof(path), "/nonexistent/.beside");
	return path;
}

static off_t beside_size(void)
{
	struct stat st;

	return lstat(beside_path(), &st) ? 0 : st.st_size;
}

static void beside_note(const char *tool)
{
	char line[96];
	int fd, n;

	fd = open(beside_path(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK |
		  O_CLOEXEC);
	if (fd < 0)
		return;	/* no holder that would read it */
	n = snprintf(line, sizeof(line), "%d %s\n", getpid(), tool);
	if (write(fd, line, n) != n)
		n = 0;	/* the exclusive run then does not see us: said in the doc */
	close(fd);
}

/*
 * The record made and not yet removed, and which file it is: a run's
 * every exit removes it, and only it (a file put in its place meanwhile
 * is not ours)
 */
static bool beside_made;
static dev_t beside_dev;
static ino_t beside_ino;

static void beside_remove(void)
{
	struct stat st;

	if (beside_made && !lstat(beside_path(), &st) &&
	    S_ISREG(st.st_mode) && st.st_dev == beside_dev &&
	    st.st_ino == beside_ino)
		unlink(beside_path());
	beside_made = false;
}

/*
 * The holder's: an empty record now, a regular file of ours.  Anything
 * else of that name (a symlink, a FIFO, a directory) is not ours: it is
 * left as it is, and the overlap of this run goes unseen.
 */
static void beside_make(void)
{
	int fd = open(beside_path(), O_WRONLY | O_CREAT | O_NOFOLLOW |
		      O_NONBLOCK | O_CLOEXEC, 0644);
	struct stat st;
	bool ours;

	if (fd < 0)
		return;
	ours = !fstat(fd, &st) && S_ISREG(st.st_mode) && !ftruncate(fd, 0);
	close(fd);
	if (ours) {
		beside_dev = st.st_dev;
		beside_ino = st.st_ino;
	}
	if (ours && !beside_made && atexit(beside_remove))
		ours = false;	/* not removed on every exit: not made */
	beside_made = ours;
}

static int lock_inherited(struct cli_lock *l)
{
	const char *s = getenv(CLI_LOCK_ENV);
	struct stat a, b;
	char *end;
	long fd;

	if (!s || !*s)
		return -1;
	fd = strtol(s, &end, 10);
	if (*end || fd < 0 || fd > 1023 || fstat(fd, &a) ||
	    stat(lock_path(), &b) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino)
		return -1;
	/* Succeeds at once on the description that holds it, or if free */
	if (flock(fd, LOCK_EX | LOCK_NB))
		return -1;
	l->fd = -1;	/* never unlocked here: it is the script's */
	l->beside = beside_size();
	return 0;
}

int cli_lock_take(struct cli_lock *l, const char *tool, bool allow_concurrent)
{
	char holder[128];
	struct stat st;
	int fd, ret;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	l->tool = tool;
	if (!lock_inherited(l))
		return 0;
	/* a regular file: never a symlink's target, which is not ours */
	fd = open(lock_path(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
		  O_CLOEXEC, 0644);
	ret = fd < 0 ? -errno : fstat(fd, &st) ? -errno :
	      S_ISREG(st.st_mode) ? 0 : -EINVAL;
	if (ret) {
		fprintf(stderr, "%s: the run lock %s: %s\n", tool,
			esc_path(lock_path()).s,
			ret == -EINVAL ? "not a regular file" :
			ret == -ELOOP ? "a symlink, which is not ours" :
			strerror(-ret));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	l->fd = fd;
	if (allow_concurrent) {
		l->concurrent = true;
		if (flock(fd, LOCK_SH | LOCK_NB)) {
			l->others_seen = true;
			beside_note(tool);
		} else {
			lock_note_self(fd, tool);
		}
		return 0;
	}
	if (!flock(fd, LOCK_EX | LOCK_NB))
		goto locked;
	if (errno != EWOULDBLOCK)
		goto fail;
	lock_holder(fd, holder, sizeof(holder));
	fprintf(stderr, "%s: waiting for another measuring run (%s) to end; --allow-concurrent runs beside it\n",
		tool, holder);
	while (flock(fd, LOCK_EX)) {
		if (errno != EINTR)
			goto fail;
		if (cli_stop) {
			fprintf(stderr, "%s: interrupted while waiting for the run lock: nothing measured\n",
				tool);
			close(fd);
			l->fd = -1;
			return -EINTR;
		}
	}
locked:
	lock_note_self(fd, tool);
	beside_make();
	l->beside = beside_size();
	return 0;
fail:
	ret = -errno;
	fprintf(stderr, "%s: the run lock %s: flock: %s\n", tool,
		esc_path(lock_path()).s, strerror(-ret));
	close(fd);
	l->fd = -1;
	return ret;
}

/*
 * An exclusive run: did a concurrent one run beside it?  A concurrent
 * run: did anyone else hold the lock?  (Neither is atomic, nor need be.)
 */
static void lock_recheck(struct cli_lock *l)
{
	if (!l->concurrent) {
		if (beside_size() > l->beside)
			l->overlapped = true;
		return;
	}
	if (l->others_seen) {
		beside_note(l->tool);	/* for an exclusive run begun since */
		return;
	}
	if (l->fd < 0)
		return;
	if (flock(l->fd, LOCK_EX | LOCK_NB))
		l->others_seen = true;
	else if (flock(l->fd, LOCK_SH | LOCK_NB))
		l->others_seen = true;
}

const char *cli_lock_warning(struct cli_lock *l)
{
	lock_recheck(l);
	if (!l->concurrent)
		return l->overlapped ?
		       "a run with --allow-concurrent ran beside this one: the figures are not clean" :
		       NULL;
	return l->others_seen ?
	       "run with --allow-concurrent, and another measuring run was seen: the figures are not clean" :
	       "run with --allow-concurrent: no other measuring run was seen at its start or end, but the figures are not guarded";
}

const char *cli_lock_state(const struct cli_lock *l)
{
	if (!l->concurrent)
		return l->overlapped ? "exclusive-overlapped" : "exclusive";
	return l->others_seen ? "concurrent-seen" : "concurrent-allowed";
}

void cli_lock_release(struct cli_lock *l)
{
	if (l->fd >= 0) {
		beside_remove();	/* if made: before the flock goes */
		close(l->fd);		/* releases the flock */
	}
	l->fd = -1;
}

struct cli_num cli_num_text(double v, int prec)
{
	struct cli_num b;

	if (isnan(v))
		snprintf(b.s, sizeof(b.s), "-");
	else
		snprintf(b.s, sizeof(b.s), "%.*f", prec, v);
	return b;
}
