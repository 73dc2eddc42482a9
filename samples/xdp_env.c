// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_env - run a command beside the project's veth pair.
 *
 * Makes the pair (two private network namespaces, as the tests and tools
 * do), exports its names in the environment, runs the command, and removes
 * everything when the command ends or on SIGINT/SIGTERM/SIGHUP.  For
 * scripts that run other tools (xdp-tools, tcpdump, ...) on the same pair.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "cli.h"
#include "err.h"
#include "esc.h"
#include "opts.h"
#include "xsk_env.h"

static volatile pid_t child;
static volatile sig_atomic_t stop_sig;

/*
 * Before the command runs, a signal is remembered and ends the setup;
 * after, it goes to the command, whose end ends us
 */
static void forward(int sig)
{
	stop_sig = sig;
	if (child > 0)
		kill(child, sig);
}

static bool stopping(void)
{
	return stop_sig;
}

#define ENV_ROW(t, n, f, a, h)	{ OPTS_ROW(t, n, 0, struct xenv_opts, f, a, h)
#define ABOUT \
	"Run COMMAND with the project's veth pair set up: veth0 in namespace\n" \
	"$XDP_ENV_DUT_NS, veth1 in $XDP_ENV_PEER_NS (and veth2/veth3 with\n" \
	"--redirect-pair).  Everything is removed when COMMAND ends.\n\n"
#define NOTES \
	"\nExported: XDP_ENV_DUT_NS, XDP_ENV_PEER_NS, XDP_ENV_DUT_IF, XDP_ENV_PEER_IF,\n" \
	"XDP_ENV_DUT_MAC, XDP_ENV_PEER_MAC (and XDP_ENV_DUT2_IF, XDP_ENV_PEER2_IF).\n" \
	"Exit status: COMMAND's (128 + the signal when a signal ended it; 127 not\n" \
	"found, 126 found but not run, as a shell), 1 when the pair could not be\n" \
	"made, 2 on bad options, 128 + the signal when\n" \
	"SIGINT, SIGTERM or SIGHUP came before COMMAND started.  COMMAND gets\n" \
	"SIGTERM if xdp_env itself is killed; the next run of any of the\n" \
	"project's tools removes the pair that was left.\n"

static const struct opt rows[] = {
	OPTS_MTU(struct xenv_opts, mtu, "MTU of the veths", "1500"),
	ENV_ROW(OPT_U32, "queues", queues, "N", "queues per veth"),
	  .min = 1, .max = XSK_MAX_QUEUES, .def = "1" },
	ENV_ROW(OPT_FLAG, "redirect-pair", redirect_pair, NULL,
		"add veth2 (dut) <-> veth3 (peer)") },
	ENV_ROW(OPT_FLAG, "peer-drop", peer_drop, NULL,
		"the peer's XDP program drops what it gets") },
	ENV_ROW(OPT_FLAG, "no-peer-prog", no_peer_prog, NULL,
		"no XDP program on the peer") },
	ENV_ROW(OPT_FLAG, "gro", dut_gro, NULL, "GRO on at the dut's veths") },
	OPTS_HELP_END
};

static const struct opts_tool tool =
	OPTS_TOOL("xdp_env", "[OPTIONS] -- COMMAND [ARG...]", rows, struct xenv_opts,
		  .about = ABOUT, .notes = NOTES, .args = true, .args_end_opts = true);

static void export_mac(const char *name, const unsigned char *m)
{
	char buf[18];

	snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
	setenv(name, buf, 1);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = forward };
	struct xenv_opts eo = {};
	char err[ERR_LEN];
	struct xsk_env *env;
	int nargs, st, e, ret = 1;
	pid_t parent;

	nargs = opts_parse(&tool, argc, argv, &eo, NULL);
	if (nargs < 0)
		return 2;
	if (!nargs) {
		fprintf(stderr, "xdp_env: no command given (xdp_env [OPTIONS] -- COMMAND)\n");
		return 2;
	}
	argv[1 + nargs] = NULL;
	if (eo.peer_drop && eo.no_peer_prog) {
		fprintf(stderr, "xdp_env: --peer-drop needs the peer's program: not with --no-peer-prog\n");
		return 2;
	}
	if (geteuid()) {
		fprintf(stderr, "xdp_env: needs root (network namespaces, XDP)\n");
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	xenv_stop_test(stopping);	/* a hung set-up command too */
	if (xenv_create(&env, &eo, err)) {
		if (stop_sig)
			fprintf(stderr, "xdp_env: interrupted before the command started (%s)\n",
				err);
		else
			fprintf(stderr, "xdp_env: %s\n", err);
		return stop_sig ? 128 + stop_sig : 1;
	}
	if (stop_sig) {
		fprintf(stderr, "xdp_env: interrupted before the command started\n");
		xenv_destroy(env);
		return 128 + stop_sig;
	}
	/* The command starts in the namespace we were started in */
	xenv_enter(env, -1);
	setenv("XDP_ENV_DUT_NS", env->ns[XENV_DUT], 1);
	setenv("XDP_ENV_PEER_NS", env->ns[XENV_PEER], 1);
	setenv("XDP_ENV_DUT_IF", env->ifname[XENV_DUT], 1);
	setenv("XDP_ENV_PEER_IF", env->ifname[XENV_PEER], 1);
	export_mac("XDP_ENV_DUT_MAC", env->mac[XENV_DUT]);
	export_mac("XDP_ENV_PEER_MAC", env->mac[XENV_PEER]);
	if (eo.redirect_pair) {
		setenv("XDP_ENV_DUT2_IF", env->ifname[XENV_DUT2], 1);
		setenv("XDP_ENV_PEER2_IF", env->ifname[XENV_PEER2], 1);
	}
	parent = getpid();
	child = fork();
	if (child < 0) {
		fprintf(stderr, "xdp_env: fork: %s\n", strerror(errno));
	} else if (!child) {
		/* Not an orphan using a pair that the next run removes */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(128 + SIGTERM);
		cli_exec_prep();
		execvp(argv[1], argv + 1);
		e = errno;
		fprintf(stderr, "xdp_env: '%s': %s\n", esc_text(argv[1]).s,
			strerror(e));
		/* as a shell: 127 not found, 126 found but not run */
		_exit(e == ENOENT ? 127 : 126);
	} else {
		if (stop_sig)	/* came between fork() and the assignment */
			kill(child, stop_sig);
		while (waitpid(child, &st, 0) < 0 && errno == EINTR)
			;
		ret = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	xenv_destroy(env);
	return ret;
}
