/* SPDX-License-Identifier: GPL-2.0 */
/* kernel-patches: env */
/*
 * The test environment: a veth pair across two private network namespaces,
 * "dut" (the side under test) and "peer" (where traffic comes from).
 *
 * The namespaces are named after the process that made them,
 * xsk-PID-START-PIDNS-N-{d,p} (START: its start time in clock ticks after
 * boot, /proc/PID/stat; PIDNS: the inode of its pid namespace), so
 * parallel runs never collide, a run whose process is gone is told from a
 * later process with the same pid, and a run in another pid namespace
 * sharing /run/netns is never taken for a dead one; the interfaces
 * have fixed names inside them (veth0..veth3), which no other run sees.
 * Nothing outside the two namespaces is touched.  The peer runs a native
 * XDP_PASS program so that the veth accepts XDP_TX and redirected frames.
 * Everything is removed by xenv_destroy() and at exit; no signal handler
 * is installed (a program that wants a signal to end it cleanly sets a
 * flag and returns from main).  What a run ended by a signal or SIGKILL
 * left behind is removed by the next xenv_create() (or xenv_reap_stale()):
 * only namespaces with this prefix whose owner, of this pid namespace, is
 * gone.
 */
#ifndef XSK_ENV_H
#define XSK_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <net/if.h>
#include <sys/types.h>
#include <linux/types.h>

#include "xsk_core.h"

#define XENV_PREFIX	"xsk-"

/*
 * Interfaces: veth0 (dut) <-> veth1 (peer), and with redirect_pair a second
 * pair veth2 (dut) <-> veth3 (peer) for XDP_REDIRECT out of the dut.  A
 * side's namespace is XENV_NS(side).
 */
enum xenv_side {
	XENV_DUT,
	XENV_PEER,
	XENV_DUT2,
	XENV_PEER2,
};

#define XENV_NS(side)	((side) & 1)
#define XENV_MAX_IF	4

struct xenv_opts {
	__u32 mtu;		/* default 1500 */
	__u32 queues;		/* default 1 */
	bool no_peer_prog;	/* leave the peer without XDP */
	bool peer_drop;		/* the peer's program drops (and counts) */
	bool redirect_pair;	/* add veth2 (dut) <-> veth3 (peer) */
	bool dut_gro;		/* GRO on the dut's veths, for generic XDP */
	/*
	 * Two connected interfaces of the caller's namespace (a real NIC
	 * pair) to use instead of a veth pair: dev[0] becomes the dut's,
	 * dev[1] the peer's, and both come back at xenv_destroy().
	 */
	const char *dev[2];
};

struct xsk_env {
	char ns[2][64];		/* xsk-PID-START-PIDNS-N-d: up to 56 characters */
	bool ns_made[2];	/* ns[] added by this env: only those are deleted */
	char ifname[XENV_MAX_IF][IF_NAMESIZE];
	int ifindex[XENV_MAX_IF];
	unsigned char mac[XENV_MAX_IF][6];
	int nr_if;
	int ns_fd[2];
	int home_fd;		/* the network namespace we came from */
	__u32 mtu;
	__u32 queues;
	struct xsk_prog_bpf *peer_skel;	/* counts what the peers receive */
	int peer_link_fd[2];		/* on veth1 and veth3 */
	int pkt_fd;		/* AF_PACKET socket on the peer's veth */
	bool adopted;		/* ifname[0..1] are the caller's devices */
	char orig_mac[2][18];	/* theirs, restored when they go back */
	char orig_mtu[2][8];
	pid_t owner;
	struct xsk_env *next;
};

int xenv_create(struct xsk_env **envp, const struct xenv_opts *o, char err[XSK_ERRLEN]);
void xenv_destroy(struct xsk_env *env);

/* Move this thread into a side's namespace (or back home with -1) */
int xenv_enter(struct xsk_env *env, int side);

/*
 * Wait up to 5 s for an interface of this thread's namespace to be running
 * (a NIC resets its link when XDP or the MTU changes); 0 or -errno
 */
int xenv_wait_running(const char *ifname);

/* The same for the dut's and the peer's interface; ends in the dut's netns */
int xenv_wait_links(struct xsk_env *env);

/*
 * The XSK_DEVS environment variable: "DUT PEER" (or "DUT,PEER"), two
 * connected interfaces to run on instead of veth.  Fills o->dev from buf
 * (IF_NAMESIZE * 2 + 2 bytes); returns 0, -ENOENT when unset, or -EINVAL
 * (with err) when malformed or an interface is not there.  One that a run
 * killed with it (a test past its timeout) left in its namespaces is
 * brought home first (xenv_reap_stale(), again while the killed process
 * ends, and up to 20 s, times XSK_TIME_SCALE, for the kernel to move it
 * back); once a dead run was reaped, an XDP program of the suite still
 * attached to either interface is detached.
 */
int xenv_devs_from_env(struct xenv_opts *o, char *buf, size_t len, char err[XSK_ERRLEN]);

/*
 * What the driver of ifindex (in this thread's namespace) says it can do
 * with XDP: its xdp_features (NETDEV_XDP_ACT_*, the netdev generic netlink
 * family's dev-get) and the most buffers of one zero-copy frame (1 where the
 * kernel does not say).  0 or -errno.
 */
int xenv_xdp_features(int ifindex, __u64 *features, __u32 *zc_max_segs);

/*
 * The page pools of side's interface as the netdev family's page-pool-get
 * dump lists them: how many, the pages out (inflight) of those in use, and
 * of those their driver has let go of (a detach time) the ones that still
 * hold pages out (a pool leaks while such pages never come back; the
 * kernel says "stalled pool shutdown" after a minute).  Only pools that
 * name their netdev are listed at all.  A pool made before the interface
 * moved into side's namespace is listed in the home namespace, under its
 * loopback: it is found by the NAPI instance it names (netdev family
 * napi-get), as long as it is in use.
 */
struct xenv_pools {
	__u32 pools;		/* the interface's, in use or let go of */
	__u64 live_pages;	/* pages out of those in use */
	__u32 held;		/* let go of, pages still out */
	__u64 held_pages;	/* their pages out, in all */
	__u64 first_id;		/* the first of those (its id) */
};

/*
 * 0 (p filled; no pools without CONFIG_PAGE_POOL) or -errno; the thread
 * is in side's namespace after it
 */
int xenv_pools(struct xsk_env *env, int side, struct xenv_pools *p);

/*
 * The name of the XDP feature of bit (NETDEV_XDP_ACT_*) as the netdev
 * family's spec names it ("xsk-zerocopy"), or NULL past the known ones
 */
const char *xenv_xdp_feature_name(unsigned int bit);

/*
 * Send one frame out of the peer's device towards the dut (AF_PACKET):
 * 0 or -errno.  A full queue (ENOBUFS) or send buffer (EAGAIN) is retried
 * until XENV_SEND_WAIT_MS have passed (a send() blocked on the buffer at
 * that point may add as long again), then its errno returned: a peer
 * whose TX queue no longer drains fails the caller instead of holding it
 * until the harness's timeout.
 */
#define XENV_SEND_WAIT_MS	xsk_ms(5000)
int xenv_send(struct xsk_env *env, const void *frame, size_t len);

/* The same out of a socket of xenv_send_socket()'s */
int xenv_send_fd(int fd, const void *frame, size_t len);

/*
 * An AF_PACKET socket that sends out of device ifindex (of the caller's
 * network namespace) and receives nothing, its blocked send() bounded to
 * XENV_SEND_WAIT_MS (the peer's pkt_fd is one): the fd, or -errno
 */
int xenv_send_socket(int ifindex);

/*
 * Send up to 64 frames of len bytes each, laid out one after the other in
 * frames, with one sendmmsg(); returns how many went, or -errno
 */
int xenv_send_batch(struct xsk_env *env, const void *frames, size_t len,
		    unsigned int n);

/*
 * The network namespaces of the machine, sorted, one per line, without the
 * ones of other runs that are still alive: what "nothing left behind" is
 * checked against while other runs come and go.  0 or -errno.
 */
int xenv_netns_list(char *buf, size_t len);

/*
 * Remove the namespaces left by runs whose process is gone (no process
 * with the pid of the name, a zombie, or one that started at another time
 * than the name says); returns how many
 */
int xenv_reap_stale(void);

/*
 * Run a command (argv[0] looked up in PATH); output goes to out if given.
 * Its exit status, 128 + the signal when one ended it, or -errno; -EINTR when the
 * stop test (xenv_stop_test()) said stop while it ran, the command then
 * killed with its process group.
 */
int xenv_run(char *out, size_t outlen, const char *const argv[]);

/* The same, with the wait status in *status where it returns >= 0 */
int xenv_run_status(char *out, size_t outlen, const char *const argv[],
		    int *status);

/*
 * The same for a command whose output, when it fails, says why: the lines
 * before its first with a word in it, and blanks at the start of a line,
 * take no room in out (the first wordless line that is not blank stays,
 * 80 bytes at most); a line of one short word ("2 0") is kept whole
 */
int xenv_run_said(char *out, size_t outlen, const char *const argv[],
		  int *status);

/*
 * xenv_run() of a command whose output only says why it failed (the lines
 * before its first with a word take no room): 0, or a sentence in err
 * naming the command and why ("'...' failed: FIRST LINE",
 * "was killed by signal N (NAME)", "failed with status N, saying
 * nothing", "killed: a signal stopped the run") and -EIO, -EINTR or the
 * -errno it could not run with.
 */
int xenv_run_or_fail(char err[XSK_ERRLEN], const char *const argv[]);

/*
 * What a command printed (out: at most size - 1 bytes, from xenv_run()),
 * cut in place to the line that says why: its first line with a word in
 * it, control bytes and bytes past ASCII shown as '?', "..." where the
 * buffer cut it.
 */
void xenv_first_line(char *out, size_t size);

/*
 * A test of the caller's whether to stop, asked when a wait is interrupted
 * (the caller's signal handlers installed without SA_RESTART, setting what
 * it reads): a set-up command that hangs then does not hold off the
 * caller's exit, and xenv_create() and xenv_run() end with -EINTR.  NULL:
 * none, the default.
 */
void xenv_stop_test(bool (*stopping)(void));

#endif /* XSK_ENV_H */
