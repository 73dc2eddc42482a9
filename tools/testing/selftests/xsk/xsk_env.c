// SPDX-License-Identifier: GPL-2.0
/* kernel-patches: env */
/*
 * veth pair across two private network namespaces.  See xsk_env.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/if_packet.h>
#include <linux/netdev.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xsk_env.h"
#include "xsk_prog_mb.h"	/* before the skeleton: its .bss has one */
#include "xsk_prog.skel.h"

#define NETNS_RUN_DIR "/run/netns"

static struct xsk_env *live_envs;
static unsigned int env_seq;
static bool (*stop_test)(void);

void xenv_stop_test(bool (*stopping)(void))
{
	stop_test = stopping;
}

static bool stopping(void)
{
	return stop_test && stop_test();
}

/* how often a command's output is polled for its end while it runs */
#define RUN_POLL_MS	20
/*
 * How long XSK_DEVS's interfaces may take to come home from a killed run
 * (times XSK_TIME_SCALE: within a harness's default timeout, 30 s, as it)
 */
#define XENV_HOME_WAIT_MS	20000
/* and a link to be running (times XSK_TIME_SCALE) */
#define XENV_RUNNING_WAIT_MS	5000

/*
 * Whether the command pid has ended, without waiting and without reaping
 * it: while it stays a zombie its pid, and so its process group's id,
 * cannot be reused.  1, 0 or -errno.
 */
static int run_ended(pid_t pid)
{
	siginfo_t si = {};

	if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT | WNOHANG))
		return -errno;
	return si.si_pid == pid;
}

/*
 * The leader of a command's process group: it runs the command and ends as
 * the command did (its status, or the same signal), and should the caller
 * die meanwhile (SIGKILL, which nothing can handle) it kills the whole
 * group: the command and all it started go with the caller.  It never
 * returns.
 */
static void run_supervised(const char *const argv[], pid_t caller)
{
	sigset_t set;
	pid_t cmd;
	int st;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != caller)
		kill(0, SIGKILL);
	cmd = fork();
	if (cmd < 0) {
		fprintf(stderr, "%s: fork: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (!cmd) {
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		if (sigwaitinfo(&set, NULL) == SIGTERM)
			kill(0, SIGKILL);	/* the caller is gone */
		if (waitpid(cmd, &st, WNOHANG) == cmd)
			break;
	}
	if (WIFSIGNALED(st)) {
		/* the same end, but no core: this process is the caller's copy */
		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		signal(WTERMSIG(st), SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(WTERMSIG(st));
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

/*
 * Whether the line at s (up to its newline) has a word in it: three
 * letters or digits in a row, which an escape sequence alone has not
 */
static bool says_something(const char *s)
{
	int run = 0;

	for (; *s && *s != '\n' && run < 3; s++)
		run = (*s >= '0' && *s <= '9') ||
		      ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'z') ? run + 1 : 0;
	return run == 3;
}

/*
 * xenv_run(), with the wait status in *status (valid when it returns >= 0).
 * The output is read until the command ends, not until the pipe's last
 * writer closes it: something the command left behind (a child in the
 * background) must not hold the caller.  With a stop test the command runs
 * in a process group of its own, killed with all it started once the
 * command has ended or the caller stops.
 */
/*
 * What a failing command said, kept in out so that the reason fits: the
 * lines before its first with a word in it take no room (the first of
 * them that is not blank stays, 80 bytes at most, to be said when no
 * reason comes), nor do blanks at the start of a line, nor, once out is
 * full, a wordless start of the line the reason may end
 */
#define SAID_KEEP	80

struct said {
	char *out;
	size_t size, used;
	size_t line;		/* where the line being read starts */
	bool kept, worded;
};

static void said_put(struct said *sd, char c)
{
	char *out = sd->out;

	if (!c)
		c = '?';
	if (sd->worded) {
		if (sd->used + 1 < sd->size)
			out[sd->used++] = c;
		return;
	}
	if (c == '\n') {
		if (sd->used > sd->line && !sd->kept) {
			if (sd->used - sd->line > SAID_KEEP)
				sd->used = sd->line + SAID_KEEP;
			out[sd->used++] = '\n';
			sd->kept = true;
		} else {
			sd->used = sd->line;
		}
		sd->line = sd->used;
		return;
	}
	if (sd->used == sd->line && strchr(" \t\r\f\v", c))
		return;
	if (sd->used + 1 >= sd->size) {
		if (sd->used - sd->line < 3)
			return;
		memmove(out + sd->line, out + sd->used - 2, 2);
		sd->used = sd->line + 2;
	}
	out[sd->used++] = c;
	out[sd->used] = '\0';
	sd->worded = says_something(out + sd->line);
}

/*
 * xenv_run_status(); with reason, the output says why a command failed
 * (struct said)
 */
static int run_capture(char *out, size_t outlen, const char *const argv[],
		       int *status, bool reason)
{
	struct pollfd pfd = { .events = POLLIN };
	struct said sd = { .out = out, .size = outlen };
	size_t used = 0, after = 0;
	bool killed = false;
	ssize_t i;
	int fds[2], ended = 0, nap;
	pid_t pid, parent;
	char sink[256];
	ssize_t n;

	if (stopping())
		return -EINTR;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (!pid) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		/* a group of its own: killed with whatever it started */
		if (stop_test) {
			setpgid(0, 0);
			run_supervised(argv, parent);
		}
		/* with the caller, should it be killed (SIGKILL) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(128 + SIGKILL);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (stop_test)
		setpgid(pid, pid);	/* either side may run first */
	close(fds[1]);
	pfd.fd = fds[0];
	/*
	 * Until its output closes, or it has ended and what it wrote (no more
	 * than a pipe holds) is read.  A signal the caller stops on ends
	 * poll() and waitid() with EINTR.
	 */
	for (;;) {
		char *dst = !reason && out && used + 1 < outlen ? out + used :
								   sink;
		size_t room = dst == sink ? sizeof(sink) : outlen - used - 1;
		int r;

		if (stopping())
			break;
		ended = ended > 0 ? ended : run_ended(pid);
		r = poll(&pfd, 1, ended > 0 ? 0 : RUN_POLL_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (ended > 0 && (!r || after > (1 << 16))))
			break;
		if (!r)
			continue;
		n = read(fds[0], dst, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (ended > 0)
			after += n;
		/* text: a NUL in it would end it early */
		for (; dst != sink && n > 0; n--, used++)
			if (!out[used])
				out[used] = '?';
		for (i = 0; reason && out && i < n; i++)
			said_put(&sd, sink[i]);
		if (reason && out)
			used = sd.used;
	}
	if (out && outlen)
		out[used] = '\0';
	close(fds[0]);
	/*
	 * Output closed, yet it may still hang: a stop kills it.  Polled, not
	 * a blocking wait: a signal just before the wait would be missed.
	 */
	for (nap = 1; ended <= 0; nap = nap < RUN_POLL_MS ? 2 * nap : nap) {
		if (!killed && stopping()) {
			kill(stop_test ? -pid : pid, SIGKILL);
			killed = true;
		}
		ended = run_ended(pid);
		if (ended < 0 && ended != -EINTR)
			return ended;
		/* a command that closed its output is most often exiting */
		if (!ended)
			poll(NULL, 0, nap);
	}
	/* what it left behind, in its group, goes with it */
	if (stop_test && !killed)
		kill(-pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (killed)
		return -EINTR;
	return WIFEXITED(*status) ? WEXITSTATUS(*status) :
				    128 + WTERMSIG(*status);
}

int xenv_run_status(char *out, size_t outlen, const char *const argv[],
		    int *status)
{
	return run_capture(out, outlen, argv, status, false);
}

int xenv_run_said(char *out, size_t outlen, const char *const argv[],
		  int *status)
{
	return run_capture(out, outlen, argv, status, true);
}

int xenv_run(char *out, size_t outlen, const char *const argv[])
{
	int status;

	return xenv_run_status(out, outlen, argv, &status);
}

/*
 * Of what a command printed (a string of at most size - 1 bytes, its NUL
 * bytes already '?'): its first line with a word in it (else its first
 * that is not blank), control bytes and bytes past ASCII shown as '?', and
 * "..." where the buffer cut it.
 */
void xenv_first_line(char *out, size_t size)
{
	size_t i, skip = strspn(out, " \t\r\n"), n;
	const char *l;

	for (l = out + skip; *l && !says_something(l); l += strcspn(l, "\n"),
	     l += *l == '\n')
		;
	if (*l)
		skip = l - out;
	memmove(out, out + skip, strlen(out + skip) + 1);
	n = strcspn(out, "\n");
	if (!out[n] && n + 1 + skip == size && n >= 3)
		memcpy(out + n - 3, "...", 3);
	out[n] = '\0';
	for (i = 0; i < n; i++)
		if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] >= 0x7f)
			out[i] = '?';
}

/*
 * xenv_run_or_fail(); *exited: whether the command ended by itself with an
 * exit status (not killed by a signal, and not stopped by us)
 */
static int run_or_fail(char err[XSK_ERRLEN], const char *const argv[],
		       bool *exited)
{
	char out[XSK_ERRLEN / 2] = "", cmd[XSK_ERRLEN / 2] = "";
	size_t i, n = 0;
	int ret, st = 0;

	ret = run_capture(out, sizeof(out), argv, &st, true);
	*exited = ret >= 0 && WIFEXITED(st);
	if (!ret)
		return 0;
	for (i = 0; argv[i] && n < sizeof(cmd); i++)
		n += snprintf(cmd + n, sizeof(cmd) - n, "%s%s", i ? " " : "",
			      argv[i]);
	/* it did not run to its end: the errno says why */
	if (ret == -EINTR) {
		xsk_errf(err, 0, "'%s' killed: a signal stopped the run", cmd);
		return ret;
	}
	if (ret < 0)
		return xsk_errf(err, ret, "'%s' could not run", cmd);
	xenv_first_line(out, sizeof(out));
	/* what it printed says why: no errno text after it */
	if (WIFSIGNALED(st))
		xsk_errf(err, 0, "'%s' was killed by signal %d (%s)%s%s", cmd,
			 WTERMSIG(st), strsignal(WTERMSIG(st)),
			 out[0] ? ": " : "", out);
	else if (out[0])
		xsk_errf(err, 0, "'%s' failed: %s", cmd, out);
	else
		xsk_errf(err, 0, "'%s' failed with status %d, saying nothing",
			 cmd, ret);
	return -EIO;
}

int xenv_run_or_fail(char err[XSK_ERRLEN], const char *const argv[])
{
	bool exited;

	return run_or_fail(err, argv, &exited);
}

/*
 * Remove a named network namespace as ip-netns(8) does (its bind mount
 * detached, its file unlinked), without running ip: a cleanup that does
 * not depend on what PATH finds.  0 or -errno.
 */
static int netns_del(const char *name)
{
	char path[sizeof(NETNS_RUN_DIR) + 64];

	snprintf(path, sizeof(path), NETNS_RUN_DIR "/%s", name);
	if (umount2(path, MNT_DETACH) && errno != EINVAL && errno != ENOENT)
		return -errno;
	if (unlink(path) && errno != ENOENT)
		return -errno;
	return 0;
}

/*
 * Of /proc/PID/stat: whether the process runs (a zombie is gone as far as
 * its namespaces are concerned) and when it started, in clock ticks after
 * boot (field 22).  0 or -errno.
 */
static int proc_stat(int pid, bool *running, unsigned long long *start)
{
	char path[32], buf[1024], *p, *end;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		n = -errno;	/* ESRCH: it ended after the open */
	close(fd);
	if (n <= 0)
		return n ? n : -EIO;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the name in () may hold anything */
	if (!p || p[1] != ' ' || !p[2])
		return -EIO;
	*running = p[2] != 'Z' && p[2] != 'X';
	for (p += 2, i = 3; p && i < 22; i++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p)
		return -EIO;
	errno = 0;
	*start = strtoull(p, &end, 10);
	return errno || end == p ? -EIO : 0;
}


/*
 * The pid namespace of this process (the inode of /proc/self/ns/pid), once
 * /proc is found to be this pid namespace's: the pids in the names are
 * looked up there.  0 or -errno (-EXDEV: /proc is another pid namespace's).
 */
static int self_pidns(unsigned long *ino)
{
	static unsigned long mine;
	static int ret = 1;
	char link[32];
	struct stat st;
	ssize_t n;

	if (ret > 0) {
		n = readlink("/proc/self", link, sizeof(link) - 1);
		if (n < 0) {
			ret = errno == ENOENT ? -EXDEV : -errno;
		} else {
			link[n] = '\0';
			if (strtol(link, NULL, 10) != getpid())
				ret = -EXDEV;
			else
				ret = stat("/proc/self/ns/pid", &st) ? -errno : 0;
			if (!ret)
				mine = st.st_ino;
		}
	}
	*ino = mine;
	return ret;
}

/*
 * The owner of one of the project's namespaces, from its name
 * (xsk-PID-START-PIDNS-N-{d,p}): the pid, start time and pid namespace of
 * the process that made it.  A name in no other form is not a run's.
 */
static bool ns_owner(const char *name, int *pid, unsigned long long *start,
		     unsigned long *pidns)
{
	char again[sizeof(((struct xsk_env *)0)->ns[0])];
	unsigned int seq;
	char side, more;
	int n;

	/* Only a name a run makes, written back the same: no other is ours */
	if (sscanf(name, XENV_PREFIX "%d-%llu-%lu-%u-%c%c", pid, start, pidns,
		   &seq, &side, &more) != 5)
		return false;
	n = snprintf(again, sizeof(again), XENV_PREFIX "%d-%llu-%lu-%u-%c",
		     *pid, *start, *pidns, seq, side);
	return *pid > 0 && (side == 'd' || side == 'p') &&
	       n < (int)sizeof(again) && !strcmp(again, name);
}

/* The inode of the initial pid namespace (PROC_PID_INIT_INO) */
#define XENV_INIT_PIDNS	0xEFFFFFFCUL

/*
 * Whether a process of pid namespace ino is still there: asked in the
 * initial pid namespace, where /proc shows every process.  When /proc
 * cannot be read: there, leave it be.
 */
static bool pidns_lives(unsigned long ino)
{
	char path[300];
	struct dirent *de;
	struct stat st;
	bool found = false;
	DIR *dir;

	dir = opendir("/proc");
	if (!dir)
		return true;
	while (!found && (de = readdir(dir))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/pid", de->d_name);
		found = !stat(path, &st) && st.st_ino == ino;
	}
	closedir(dir);
	return found;
}

/*
 * Whether the run that named a namespace is alive: its pid runs and
 * started when it did; another process with the same pid later is not the
 * owner.  A pid of another pid namespace cannot be looked up here: that
 * run is alive while its pid namespace has a process, which only the
 * initial pid namespace can see all of (elsewhere, alive).  When /proc
 * cannot tell: alive, leave it be.
 */
static bool owner_alive(int pid, unsigned long long start,
			unsigned long pidns)
{
	unsigned long long now;
	unsigned long mine;
	bool running;
	int ret;

	if (self_pidns(&mine))
		return true;
	if (mine != pidns)
		return mine != XENV_INIT_PIDNS || pidns_lives(pidns);
	ret = proc_stat(pid, &running, &now);
	if (ret == -ENOENT || ret == -ESRCH)
		return false;
	if (ret)
		return true;
	return running && now == start;
}

/* Namespaces of dead runs this process (or its parent) removed */
static int reaped_runs;

/*
 * Remove the namespaces of dead runs; *left (when given) says whether a
 * namespace of a run is still there (a live run's, or one that could not
 * be removed).  How many were removed.
 */
static int reap_runs(bool *left)
{
	unsigned long long start;
	unsigned long pidns;
	struct dirent *de;
	int reaped = 0;
	DIR *dir;
	int pid;

	if (left)
		*left = false;
	dir = opendir(NETNS_RUN_DIR);
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		if (!ns_owner(de->d_name, &pid, &start, &pidns))
			continue;
		if (!owner_alive(pid, start, pidns) && !netns_del(de->d_name))
			reaped++;
		else if (left)
			*left = true;
	}
	closedir(dir);
	reaped_runs += reaped;
	return reaped;
}

int xenv_reap_stale(void)
{
	return reap_runs(NULL);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int xenv_netns_list(char *buf, size_t len)
{
	char *names[256];
	struct dirent *de;
	size_t n = 0, i, off = 0;
	DIR *dir;

	buf[0] = '\0';
	dir = opendir(NETNS_RUN_DIR);
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir)) && n < ARRAY_SIZE(names)) {
		unsigned long long start;
		unsigned long pidns;
		int pid;

		if (de->d_name[0] == '.')
			continue;
		if (ns_owner(de->d_name, &pid, &start, &pidns) &&
		    pid != getpid() && owner_alive(pid, start, pidns))
			continue;	/* another live run's */
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(dir);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n; i++) {
		if (off < len)
			off += snprintf(buf + off, len - off, "%s\n", names[i]);
		free(names[i]);
	}
	return off < len ? 0 : -ENOSPC;
}

/* Only what this process made: a forked child must not undo its parent's */
static void destroy_all(void)
{
	struct xsk_env *env = live_envs, *next;

	for (; env; env = next) {
		next = env->next;
		if (env->owner == getpid())
			xenv_destroy(env);
	}
}

/*
 * No signal handler: what a handler may do is set a flag, and only the
 * program knows where its main flow looks at one.  A program that returns
 * from main or calls exit() removes its environments here; one that a
 * signal ends removes nothing, like one that SIGKILL ends, and the next
 * xenv_create() removes what it left.
 */
static void install_cleanup(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	atexit(destroy_all);
}

/* Per thread: no cached state, threads of one process may be in either */
int xenv_enter(struct xsk_env *env, int side)
{
	int fd = side < 0 ? env->home_fd : env->ns_fd[XENV_NS(side)];

	return setns(fd, CLONE_NEWNET) ? -errno : 0;
}

static int write_sysctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;	/* no IPv6: fine */
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* Wait until the kernel has the link up and its qdisc activated */
int xenv_wait_running(const char *ifname)
{
	struct ifreq ifr = {};
	int fd, i, ret = -ETIMEDOUT;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	for (i = 0; (__u64)i < xsk_ms(XENV_RUNNING_WAIT_MS) / 10; i++) {
		if (stopping()) {
			ret = -EINTR;
			break;
		}
		if (ioctl(fd, SIOCGIFFLAGS, &ifr)) {
			ret = -errno;
			break;
		}
		if (ifr.ifr_flags & IFF_RUNNING) {
			ret = 0;
			break;
		}
		usleep(10000);
	}
	close(fd);
	return ret;
}

int xenv_wait_links(struct xsk_env *env)
{
	int ret = xenv_enter(env, XENV_PEER);

	if (!ret)
		ret = xenv_wait_running(env->ifname[XENV_PEER]);
	if (!ret)
		ret = xenv_enter(env, XENV_DUT);
	if (!ret)
		ret = xenv_wait_running(env->ifname[XENV_DUT]);
	return ret;
}

static int setup_side(struct xsk_env *env, int side, char err[XSK_ERRLEN])
{
	char path[64];
	int ret;

	snprintf(path, sizeof(path), NETNS_RUN_DIR "/%s", env->ns[side]);
	env->ns_fd[side] = open(path, O_RDONLY | O_CLOEXEC);
	if (env->ns_fd[side] < 0)
		return xsk_errf(err, -errno, "open %s", path);
	ret = xenv_enter(env, side);
	if (ret)
		return xsk_errf(err, ret, "setns %s", env->ns[side]);
	/* Quiet links: no IPv6 autoconfiguration, router or MLD traffic */
	write_sysctl("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
	write_sysctl("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
	return 0;
}

/*
 * The MTU, the address (a veth's; an adopted device keeps its own: QEMU's
 * vmxnet3 forgets an address set while the device is down at the next
 * activation, and the suite needs none of its own) and up
 */
static int link_up(struct xsk_env *env, int side, char err[XSK_ERRLEN])
{
	char mtu[16], mac[18];
	const unsigned char *m = env->mac[side];
	const char *const argv[] = {
		"ip", "-n", env->ns[XENV_NS(side)], "link", "set",
		env->ifname[side], "mtu", mtu, "up", "address", mac, NULL,
	};
	const char *const own[] = {
		"ip", "-n", env->ns[XENV_NS(side)], "link", "set",
		env->ifname[side], "mtu", mtu, "up", NULL,
	};

	snprintf(mtu, sizeof(mtu), "%u", env->mtu);
	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
	return xenv_run_or_fail(err, env->adopted && side <= XENV_PEER ?
				own : argv);
}

/* An adopted device's own address, as ip link prints it, into env->mac */
static int own_mac(struct xsk_env *env, int side, char err[XSK_ERRLEN])
{
	unsigned int b[6];
	int i;

	if (sscanf(env->orig_mac[side], "%x:%x:%x:%x:%x:%x", &b[0], &b[1],
		   &b[2], &b[3], &b[4], &b[5]) != 6)
		return xsk_errf(err, -EINVAL, "%s: address '%s'",
				env->ifname[side], env->orig_mac[side]);
	for (i = 0; i < 6; i++)
		env->mac[side][i] = b[i];
	return 0;
}

static int set_gro(struct xsk_env *env, int side, char err[XSK_ERRLEN])
{
	const char *const argv[] = {
		"ip", "netns", "exec", env->ns[XENV_NS(side)], "ethtool", "-K",
		env->ifname[side], "gro", "on", NULL,
	};

	return xenv_run_or_fail(err, argv);
}

static int setup_peer(struct xsk_env *env, const struct xenv_opts *o,
		      char err[XSK_ERRLEN])
{
	int i, side;

	env->pkt_fd = xenv_send_socket(env->ifindex[XENV_PEER]);
	if (env->pkt_fd < 0)
		return xsk_errf(err, env->pkt_fd, "AF_PACKET socket on %s",
				env->ifname[XENV_PEER]);
	if (o->no_peer_prog)
		return 0;

	env->peer_skel = xsk_prog_bpf__open_and_load();
	if (!env->peer_skel)
		return xsk_errf(err, -errno, "loading the peer's XDP program");
	for (i = 0, side = XENV_PEER; side < env->nr_if; i++, side += 2) {
		struct bpf_program *prog = o->peer_drop ?
					   env->peer_skel->progs.xdp_drop :
					   env->peer_skel->progs.xdp_pass;
		LIBBPF_OPTS(bpf_link_create_opts, lopts,
			    .flags = XDP_FLAGS_DRV_MODE);

		env->peer_link_fd[i] = bpf_link_create(bpf_program__fd(prog),
						       env->ifindex[side],
						       BPF_XDP, &lopts);
		if (env->peer_link_fd[i] < 0)
			return xsk_errf(err, -errno, "native XDP on the peer %s",
					env->ifname[side]);
	}
	return 0;
}

/* Read a line of /sys/class/net/IF/attr (in the current namespace) */
static void read_dev_attr(const char *ifname, const char *attr, char *buf,
			  size_t len)
{
	char path[96];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, attr);
	buf[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/*
 * Move a device of the caller's into its side's namespace, or back home
 * with the address and MTU it had, and down
 */
static int move_dev(struct xsk_env *env, int side, bool home, char err[XSK_ERRLEN])
{
	char pid[16];
	const char *const to_ns[] = {
		"ip", "link", "set", env->ifname[side], "netns",
		env->ns[XENV_NS(side)], NULL,
	};
	const char *const back[] = {
		"ip", "-n", env->ns[XENV_NS(side)], "link", "set",
		env->ifname[side], "down", "address", env->orig_mac[side],
		"mtu", env->orig_mtu[side], "netns", pid, NULL,
	};
	int ret;

	/* The main thread, whose namespace "netns PID" names, is home now */
	ret = xenv_enter(env, -1);
	if (ret)
		return xsk_errf(err, ret, "setns home");
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (home)
		return xenv_run_or_fail(err, back);
	read_dev_attr(env->ifname[side], "address", env->orig_mac[side],
		      sizeof(env->orig_mac[side]));
	read_dev_attr(env->ifname[side], "mtu", env->orig_mtu[side],
		      sizeof(env->orig_mtu[side]));
	return xenv_run_or_fail(err, to_ns);
}

/*
 * Whether side's device already has env->queues Rx and Tx queues
 * (combined, or separate as vmxnet3 counts them): a driver without
 * ethtool -L (vmxnet3) then needs none
 */
static bool has_channels(struct xsk_env *env, int side)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ifreq ifr = { .ifr_data = (void *)&ch };
	bool ret = false;
	int fd;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", env->ifname[side]);
	if (xenv_enter(env, side))
		return false;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && !ioctl(fd, SIOCETHTOOL, &ifr))
		ret = ch.combined_count + ch.rx_count == env->queues &&
		      ch.combined_count + ch.tx_count == env->queues;
	if (fd >= 0)
		close(fd);
	xenv_enter(env, -1);
	return ret;
}

/* One queue pair, so that every frame lands on queue 0 (no RSS) */
static int set_channels(struct xsk_env *env, int side, char err[XSK_ERRLEN])
{
	char q[16];
	const char *const argv[] = {
		"ip", "netns", "exec", env->ns[XENV_NS(side)], "ethtool", "-L",
		env->ifname[side], "combined", q, NULL,
	};
	char out[256];

	if (has_channels(env, side))
		return 0;
	snprintf(q, sizeof(q), "%u", env->queues);
	if (!xenv_run(out, sizeof(out), argv))
		return 0;
	xsk_errf(err, 0, "ethtool -L %s combined %u: %s", env->ifname[side],
		 env->queues, out);
	return -EINVAL;
}

/* Whether the kernel's name of a program (truncated) is one of the suite's */
static bool suite_prog(const char *kname)
{
	struct xsk_prog_bpf *skel = xsk_prog_bpf__open();
	struct bpf_program *prog;
	bool ours = false;

	if (!skel)
		return false;
	bpf_object__for_each_program(prog, skel->obj)
		if (!strncmp(bpf_program__name(prog), kname, BPF_OBJ_NAME_LEN - 1) &&
		    strlen(kname) == strnlen(bpf_program__name(prog), BPF_OBJ_NAME_LEN - 1))
			ours = true;
	xsk_prog_bpf__destroy(skel);
	return ours;
}

/*
 * The XDP program a killed run left attached to ifname: a netlink attach
 * belongs to the device and outlives the process, so the NIC comes home
 * from the run's namespace with it, and the next attach is refused
 * (EBUSY).  Detached, in each mode, when its name is one of the suite's.
 */
static void detach_stale_progs(const char *ifname)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int ifindex = if_nametoindex(ifname);
	struct {
		__u32 id;
		__u32 flags;
	} att[2];
	unsigned int i;

	if (!ifindex || bpf_xdp_query(ifindex, 0, &q))
		return;
	att[0].id = q.drv_prog_id;
	att[0].flags = XDP_FLAGS_DRV_MODE;
	att[1].id = q.skb_prog_id;
	att[1].flags = XDP_FLAGS_SKB_MODE;
	for (i = 0; i < ARRAY_SIZE(att); i++) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd;

		if (!att[i].id)
			continue;
		fd = bpf_prog_get_fd_by_id(att[i].id);
		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    suite_prog(info.name) &&
		    !bpf_xdp_detach(ifindex, att[i].flags, NULL))
			fprintf(stderr, "# %s: detached %s, left by a killed run\n",
				ifname, info.name);
		close(fd);
	}
}

int xenv_devs_from_env(struct xenv_opts *o, char *buf, size_t len, char err[XSK_ERRLEN])
{
	const char *v = getenv("XSK_DEVS");
	bool left;
	char *sep;
	int i;

	if (!v || !*v)
		return -ENOENT;
	snprintf(buf, len, "%s", v);
	sep = strpbrk(buf, " ,");
	if (!sep || sep == buf || !sep[1] || strpbrk(sep + 1, " ,") ||
	    (size_t)(sep - buf) >= IF_NAMESIZE || strlen(sep + 1) >= IF_NAMESIZE)
		return xsk_errf(err, -EINVAL,
				"XSK_DEVS='%s': want two interface names, \"DUT PEER\"",
				v);
	*sep = '\0';
	o->dev[0] = buf;
	o->dev[1] = sep + 1;
	/*
	 * A run killed while it had them (a test past its timeout) left them
	 * in its namespaces: removing those brings them home, once the killed
	 * process has ended (it may be inside a driver's reset) and the
	 * kernel has dismantled them (seconds on a debug kernel).  While a
	 * namespace of a run is there, or once one was removed here or
	 * before the tests began, up to XENV_HOME_WAIT_MS.
	 */
	for (i = 0; (__u64)i < xsk_ms(XENV_HOME_WAIT_MS) / 100; i++) {
		if (if_nametoindex(o->dev[0]) && if_nametoindex(o->dev[1]))
			break;
		reap_runs(&left);
		if (!reaped_runs && !left)
			break;
		usleep(100 * 1000);
	}
	if (!if_nametoindex(o->dev[0]) || !if_nametoindex(o->dev[1]))
		return xsk_errf(err, -EINVAL, "XSK_DEVS='%s': no interface %s",
				v, if_nametoindex(o->dev[0]) ? o->dev[1] :
							       o->dev[0]);
	if (reaped_runs)
		for (i = 0; i < 2; i++)
			detach_stale_progs(o->dev[i]);
	return 0;
}

/*
 * The next answer on fd into buf: its length, or -errno (the kernel's
 * error, or -EPROTO for what is not a netlink message)
 */
static int genl_recv(int fd, void *buf, size_t size)
{
	struct nlmsghdr *nh = buf;
	ssize_t n;

	n = recv(fd, buf, size, 0);
	if (n < 0)
		return -errno;
	if ((size_t)n < sizeof(*nh) || !NLMSG_OK(nh, (size_t)n))
		return -EPROTO;
	if (nh->nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *e = NLMSG_DATA(nh);

		return e->error ? e->error : -EPROTO;
	}
	return (int)n;
}

/*
 * One generic netlink request on fd (message type, command cmd, header
 * flags besides NLM_F_REQUEST) with one attribute (attr, of len bytes;
 * none for attr 0); the first answer in buf: its length, or -errno (the
 * kernel's error).  A dump's further answers are the caller's to read.
 */
static int genl_ask(int fd, __u16 type, __u8 cmd, __u16 flags, __u16 attr,
		    const void *val, __u16 len, void *buf, size_t size)
{
	struct {
		struct nlmsghdr nh;
		struct genlmsghdr gh;
		char attrs[NLA_HDRLEN + NLA_ALIGN(IF_NAMESIZE + 8)];
	} req = {};
	struct nlattr *na = (struct nlattr *)req.attrs;
	__u32 alen = attr ? NLA_HDRLEN + NLA_ALIGN(len) : 0;

	if ((size_t)NLA_ALIGN(len) > sizeof(req.attrs) - NLA_HDRLEN)
		return -EINVAL;
	req.nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + alen);
	req.nh.nlmsg_type = type;
	req.nh.nlmsg_flags = NLM_F_REQUEST | flags;
	req.gh.cmd = cmd;
	req.gh.version = 1;
	if (attr) {
		na->nla_type = attr;
		na->nla_len = NLA_HDRLEN + len;
		memcpy(req.attrs + NLA_HDRLEN, val, len);
	}
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0)
		return -errno;
	return genl_recv(fd, buf, size);
}

/* Attribute type of the message nh (n bytes at most): it, or NULL */
static const struct nlattr *genl_find(const struct nlmsghdr *nh, int n,
				      __u16 type)
{
	const char *p = (const char *)NLMSG_DATA(nh) + GENL_HDRLEN;
	const char *end = (const char *)nh + n;

	if (nh->nlmsg_len < (__u32)n)
		end = (const char *)nh + nh->nlmsg_len;

	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *na = (const struct nlattr *)p;

		if (na->nla_len < NLA_HDRLEN || p + na->nla_len > end)
			return NULL;
		if ((na->nla_type & NLA_TYPE_MASK) == type)
			return na;
		p += NLA_ALIGN(na->nla_len);
	}
	return NULL;
}

/*
 * Attribute type (of at least len bytes) of the answer in buf (n bytes):
 * its payload, or NULL
 */
static const void *genl_attr(const void *buf, int n, __u16 type, __u16 len)
{
	const struct nlattr *na = genl_find(buf, n, type);

	return na && na->nla_len >= NLA_HDRLEN + len ?
	       (const char *)na + NLA_HDRLEN : NULL;
}

/*
 * An attribute of the netlink type "uint" (4 or 8 bytes, as the value
 * needs) of the message nh (n bytes): its value, or def without it
 */
static __u64 genl_uint(const struct nlmsghdr *nh, int n, __u16 type, __u64 def)
{
	const struct nlattr *na = genl_find(nh, n, type);
	__u32 v32;
	__u64 v64;

	if (na && na->nla_len == NLA_HDRLEN + sizeof(v64)) {
		memcpy(&v64, (const char *)na + NLA_HDRLEN, sizeof(v64));
		return v64;
	}
	if (na && na->nla_len == NLA_HDRLEN + sizeof(v32)) {
		memcpy(&v32, (const char *)na + NLA_HDRLEN, sizeof(v32));
		return v32;
	}
	return def;
}

/* The netdev generic netlink family's id, asked on fd: 0 or -errno */
static int genl_netdev_family(int fd, __u16 *family)
{
	char buf[1024];
	const void *v;
	int n;

	n = genl_ask(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0,
		     CTRL_ATTR_FAMILY_NAME, NETDEV_FAMILY_NAME,
		     sizeof(NETDEV_FAMILY_NAME), buf, sizeof(buf));
	if (n < 0)
		return n;
	v = genl_attr(buf, n, CTRL_ATTR_FAMILY_ID, sizeof(*family));
	if (!v)
		return -EPROTO;
	memcpy(family, v, sizeof(*family));
	return 0;
}

int xenv_xdp_features(int ifindex, __u64 *features, __u32 *zc_max_segs)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	__u32 idx = ifindex;
	const void *v;
	char buf[1024];
	__u16 family;
	int n;

	if (fd < 0)
		return -errno;
	n = genl_netdev_family(fd, &family);
	if (n < 0)
		goto out;
	n = genl_ask(fd, family, NETDEV_CMD_DEV_GET, 0, NETDEV_A_DEV_IFINDEX,
		     &idx, sizeof(idx), buf, sizeof(buf));
	if (n < 0)
		goto out;
	v = genl_attr(buf, n, NETDEV_A_DEV_XDP_FEATURES, sizeof(*features));
	if (!v) {
		n = -EPROTO;
		goto out;
	}
	memcpy(features, v, sizeof(*features));
	*zc_max_segs = 1;
	v = genl_attr(buf, n, NETDEV_A_DEV_XDP_ZC_MAX_SEGS, sizeof(*zc_max_segs));
	if (v)
		memcpy(zc_max_segs, v, sizeof(*zc_max_segs));
	n = 0;
out:
	close(fd);
	return n;
}

/*
 * A dump of the netdev family's cmd on fd (filtered by attribute attr of
 * len bytes, unless attr is 0): each message of the answer to fn; 0 or
 * -errno (-EOPNOTSUPP: a kernel without the command)
 */
static int genl_netdev_dump(int fd, __u8 cmd, __u16 attr, const void *val,
			    __u16 len,
			    void (*fn)(const struct nlmsghdr *nh, void *arg),
			    void *arg)
{
	static char buf[32768];
	const struct nlmsghdr *nh;
	__u16 family;
	int n;

	n = genl_netdev_family(fd, &family);
	if (n < 0)
		return n;
	n = genl_ask(fd, family, cmd, NLM_F_DUMP, attr, val, len, buf,
		     sizeof(buf));
	while (n > 0) {
		for (nh = (const struct nlmsghdr *)buf; NLMSG_OK(nh, (__u32)n);
		     nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_type == NLMSG_DONE)
				return 0;
			if (nh->nlmsg_type == NLMSG_ERROR)
				return -EPROTO;
			fn(nh, arg);
		}
		n = genl_recv(fd, buf, sizeof(buf));
	}
	return n;
}

#define POOL_NAPIS	64

/* What xenv_pools() looks for in a dump, and what it found */
struct pool_walk {
	int ifindex;		/* pools listed under it, or */
	__u32 nr_napi;		/* pools listed under none (the loopback) */
	__u64 napi[POOL_NAPIS];	/* with one of these NAPI instances */
	bool by_napi;
	struct xenv_pools *p;
};

static void napi_add(const struct nlmsghdr *nh, void *arg)
{
	struct pool_walk *w = arg;
	__u64 id = genl_uint(nh, nh->nlmsg_len, NETDEV_A_NAPI_ID, 0);

	if (id && w->nr_napi < POOL_NAPIS)
		w->napi[w->nr_napi++] = id;
}

static void pool_add(const struct nlmsghdr *nh, void *arg)
{
	__u64 ifindex = genl_uint(nh, nh->nlmsg_len, NETDEV_A_PAGE_POOL_IFINDEX, 0);
	__u64 napi = genl_uint(nh, nh->nlmsg_len, NETDEV_A_PAGE_POOL_NAPI_ID, 0);
	__u64 inflight = genl_uint(nh, nh->nlmsg_len, NETDEV_A_PAGE_POOL_INFLIGHT, 0);
	struct pool_walk *w = arg;
	struct xenv_pools *p = w->p;
	bool mine = false;
	__u32 i;

	if (!w->by_napi)
		mine = ifindex == (__u64)w->ifindex;
	else if (!ifindex && napi)
		for (i = 0; i < w->nr_napi && !mine; i++)
			mine = w->napi[i] == napi;
	if (!mine)
		return;
	p->pools++;
	if (!genl_uint(nh, nh->nlmsg_len, NETDEV_A_PAGE_POOL_DETACH_TIME, 0)) {
		p->live_pages += inflight;
		return;
	}
	if (!inflight)
		return;
	if (!p->held++)
		p->first_id = genl_uint(nh, nh->nlmsg_len, NETDEV_A_PAGE_POOL_ID, 0);
	p->held_pages += inflight;
}

int xenv_pools(struct xsk_env *env, int side, struct xenv_pools *p)
{
	struct pool_walk w = { .ifindex = env->ifindex[side], .p = p };
	__u32 idx = w.ifindex;
	int fd[2] = { -1, -1 }, ret;

	*p = (struct xenv_pools){};
	ret = xenv_enter(env, side);
	if (!ret) {
		fd[0] = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
		ret = xenv_enter(env, -1);
	}
	if (!ret && fd[0] >= 0)
		fd[1] = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (!ret && (fd[0] < 0 || fd[1] < 0))
		ret = -errno;
	ret = xenv_enter(env, side) ?: ret;
	if (!ret)
		ret = genl_netdev_dump(fd[0], NETDEV_CMD_NAPI_GET,
				       NETDEV_A_NAPI_IFINDEX, &idx, sizeof(idx),
				       napi_add, &w);
	if (!ret || ret == -EOPNOTSUPP)
		ret = genl_netdev_dump(fd[0], NETDEV_CMD_PAGE_POOL_GET, 0, NULL,
				       0, pool_add, &w);
	w.by_napi = true;
	if (!ret && w.nr_napi)
		ret = genl_netdev_dump(fd[1], NETDEV_CMD_PAGE_POOL_GET, 0, NULL,
				       0, pool_add, &w);
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
	/* a kernel without CONFIG_PAGE_POOL has no such command */
	return ret == -EOPNOTSUPP ? 0 : ret;
}

const char *xenv_xdp_feature_name(unsigned int bit)
{
	static const char *const names[] = {
		"basic", "redirect", "ndo-xmit", "xsk-zerocopy", "hw-offload",
		"rx-sg", "ndo-xmit-sg",
	};

	return bit < ARRAY_SIZE(names) ? names[bit] : NULL;
}

static int add_pair(struct xsk_env *env, int dut, int peer, char err[XSK_ERRLEN])
{
	char q[16];
	const char *const argv[] = {
		"ip", "-n", env->ns[XENV_DUT], "link", "add", env->ifname[dut],
		"numtxqueues", q, "numrxqueues", q, "type", "veth", "peer",
		"name", env->ifname[peer], "netns", env->ns[XENV_PEER],
		"numtxqueues", q, "numrxqueues", q, NULL,
	};

	snprintf(q, sizeof(q), "%u", env->queues);
	return xenv_run_or_fail(err, argv);
}

int xenv_create(struct xsk_env **envp, const struct xenv_opts *o, char err[XSK_ERRLEN])
{
	static const struct xenv_opts defaults;
	unsigned long long start;
	struct xsk_env *env;
	unsigned long pidns;
	int side, ret;
	bool running;

	*envp = NULL;
	if (!o)
		o = &defaults;
	install_cleanup();
	xenv_reap_stale();

	env = calloc(1, sizeof(*env));
	if (!env)
		return xsk_errf(err, -ENOMEM, "the environment");
	for (side = 0; side < 2; side++) {
		env->ns_fd[side] = -1;
		env->peer_link_fd[side] = -1;
	}
	env->pkt_fd = -1;
	env->owner = getpid();
	env->mtu = o->mtu ?: 1500;
	env->queues = o->queues ?: 1;
	env->nr_if = o->redirect_pair ? 4 : 2;
	if (o->dev[0] && (o->redirect_pair || !o->dev[1])) {
		free(env);
		return xsk_errf(err, -EINVAL, o->dev[1] ?
				"a device pair has no second (redirect) pair" :
				"a device pair needs two devices");
	}
	env->home_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (env->home_fd < 0) {
		free(env);
		return xsk_errf(err, -errno, "/proc/self/ns/net");
	}
	env->next = live_envs;
	live_envs = env;

	/*
	 * Unique per run, and whose run for good: pid, start time and pid
	 * namespace.  Without the start time the names would be taken as
	 * older runs' (pid alone); without the pid namespace a run in another
	 * one (a container sharing /run/netns) would take them as a dead
	 * pid's.
	 */
	ret = self_pidns(&pidns);
	if (ret == -EXDEV) {
		xsk_errf(err, 0,
			 "/proc is not this process's pid namespace's (unshare -p without --mount-proc?): the namespaces' owner could not be told");
		goto fail;
	}
	if (ret) {
		xsk_errf(err, ret, "this process's pid namespace, /proc/self/ns/pid");
		goto fail;
	}
	ret = proc_stat(getpid(), &running, &start);
	if (ret) {
		xsk_errf(err, ret, "this process's start time, from /proc/%d/stat",
			 getpid());
		goto fail;
	}
	for (side = 0; side < 2; side++)
		snprintf(env->ns[side], sizeof(env->ns[side]),
			 XENV_PREFIX "%d-%llu-%lu-%u-%c", getpid(), start,
			 pidns, env_seq, side == XENV_DUT ? 'd' : 'p');
	/* In private namespaces, fixed names cannot collide */
	for (side = 0; side < env->nr_if; side++) {
		if (o->dev[0])
			snprintf(env->ifname[side], sizeof(env->ifname[side]),
				 "%s", o->dev[side]);
		else
			snprintf(env->ifname[side], sizeof(env->ifname[side]),
				 "veth%d", side);
		/* locally administered, 02:00:00:00:00:0N */
		memset(env->mac[side], 0, sizeof(env->mac[side]));
		env->mac[side][0] = 0x02;
		env->mac[side][5] = side + 1;
	}
	env_seq++;

	for (side = 0; side < 2; side++) {
		const char *const argv[] = { "ip", "netns", "add", env->ns[side],
				       NULL };

		char path[sizeof(NETNS_RUN_DIR) + sizeof(env->ns[side])];
		bool exited;

		/*
		 * A namespace of that name that was there before is not ours.
		 * After the command: one it says it made is; when it says it
		 * failed, the one there is not (ip-netns(8) makes the name
		 * with O_EXCL, so it failed on one someone else made just
		 * before, and removes what it made when a later step fails);
		 * when it was killed and could not say, one there is ours.
		 */
		snprintf(path, sizeof(path), NETNS_RUN_DIR "/%s", env->ns[side]);
		if (!access(path, F_OK)) {
			ret = xsk_errf(err, -EEXIST,
				       "namespace %s: there before this run made it, so not ours",
				       env->ns[side]);
			goto fail;
		}
		ret = run_or_fail(err, argv, &exited);
		env->ns_made[side] = !ret || (!exited && !access(path, F_OK));
		if (ret && exited && !access(path, F_OK))
			fprintf(stderr,
				"xsk env: namespace %s is there, but 'ip netns add' failed: kept, not ours to remove\n",
				env->ns[side]);
		if (!ret)
			ret = setup_side(env, side, err);
		if (ret)
			goto fail;
	}
	for (side = 0; side < env->nr_if && o->dev[0] && !ret; side++) {
		ret = move_dev(env, side, false, err);
		env->adopted = !ret || side;
		if (!ret)
			ret = own_mac(env, side, err);
		if (!ret)
			ret = set_channels(env, side, err);
	}
	for (side = 0; side < env->nr_if && !o->dev[0] && !ret; side += 2)
		ret = add_pair(env, side, side + 1, err);
	for (side = 0; side < env->nr_if && !ret; side++)
		ret = link_up(env, side, err);
	for (side = 0; side < env->nr_if && o->dut_gro && !ret; side += 2)
		ret = set_gro(env, side, err);
	for (side = 0; side < env->nr_if && !ret; side++) {
		ret = xenv_enter(env, side);
		if (!ret)
			ret = xenv_wait_running(env->ifname[side]);
		if (ret == -EINTR)
			xsk_errf(err, 0, "%s did not come up: a signal stopped the run",
				 env->ifname[side]);
		else if (ret)
			xsk_errf(err, ret, "%s did not come up",
				 env->ifname[side]);
		env->ifindex[side] = if_nametoindex(env->ifname[side]);
	}
	if (!ret)
		ret = setup_peer(env, o, err);
	if (ret)
		goto fail;
	ret = xenv_enter(env, XENV_DUT);
	if (ret)
		goto fail;
	*envp = env;
	return 0;
fail:
	xenv_destroy(env);
	return ret;
}

void xenv_destroy(struct xsk_env *env)
{
	struct xsk_env **pp;
	int side, ret;

	if (!env)
		return;
	if (env->pkt_fd >= 0)
		close(env->pkt_fd);
	for (side = 0; side < 2; side++)
		if (env->peer_link_fd[side] >= 0)
			close(env->peer_link_fd[side]);
	xsk_prog_bpf__destroy(env->peer_skel);
	xenv_enter(env, -1);
	/* Devices of the caller's go home now, not when the kernel gets to it */
	for (side = 0; side < 2 && env->adopted; side++)
		move_dev(env, side, true, NULL);
	for (side = 0; side < 2; side++) {
		if (env->ns_fd[side] >= 0)
			close(env->ns_fd[side]);
		ret = env->ns_made[side] ? netns_del(env->ns[side]) : 0;
		if (ret)
			fprintf(stderr, "xsk env: namespace %s left behind (%s)\n",
				env->ns[side], strerror(-ret));
	}
	close(env->home_fd);
	for (pp = &live_envs; *pp; pp = &(*pp)->next) {
		if (*pp == env) {
			*pp = env->next;
			break;
		}
	}
	free(env);
}

int xenv_send_socket(int ifindex)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_ifindex = ifindex,
	};
	__u64 wait = XENV_SEND_WAIT_MS;
	struct timeval tv = {
		.tv_sec = wait / 1000,
		.tv_usec = wait % 1000 * 1000,
	};
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	/* xenv_send_fd() waits for room in the send buffer this long at most */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return fd;
}

int xenv_send(struct xsk_env *env, const void *frame, size_t len)
{
	return xenv_send_fd(env->pkt_fd, frame, len);
}

int xenv_send_fd(int fd, const void *frame, size_t len)
{
	__u64 end = xsk_now_ms() + XENV_SEND_WAIT_MS;

	for (;;) {
		/* a full send buffer: EAGAIN after SO_SNDTIMEO (xenv_send_socket()) */
		ssize_t n = send(fd, frame, len, 0);
		int err = errno;

		if (n == (ssize_t)len)
			return 0;
		if (n >= 0)
			return -EMSGSIZE;
		if (err != ENOBUFS && err != EAGAIN && err != EINTR)
			return -err;
		if (xsk_now_ms() >= end)
			return -err;
		sched_yield();
	}
}

int xenv_send_batch(struct xsk_env *env, const void *frames, size_t len,
		    unsigned int n)
{
	struct mmsghdr msg[64];
	struct iovec iov[64];
	unsigned int i;
	int ret;

	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++) {
		iov[i].iov_base = (char *)frames + i * len;
		iov[i].iov_len = len;
		memset(&msg[i], 0, sizeof(msg[i]));
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	ret = sendmmsg(env->pkt_fd, msg, n, 0);
	if (ret < 0)
		return errno == ENOBUFS || errno == EAGAIN ? 0 : -errno;
	return ret;
}
