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
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "cli.h"
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

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [OPTIONS] -- COMMAND [ARG...]\n"
		"Run COMMAND with the project's veth pair set up: veth0 in namespace\n"
		"$XDP_ENV_DUT_NS, veth1 in $XDP_ENV_PEER_NS (and veth2/veth3 with\n"
		"--redirect-pair).  Everything is removed when COMMAND ends.\n"
		"\n"
		"  --mtu=N            MTU of the veths (default 1500)\n"
		"  --queues=N         queues per veth (default 1)\n"
		"  --redirect-pair    add veth2 (dut) <-> veth3 (peer)\n"
		"  --peer-drop        the peer's XDP program drops what it gets\n"
		"  --no-peer-prog     no XDP program on the peer\n"
		"  --gro              GRO on at the dut's veths\n"
		"  -h, --help         this text\n"
		"\n"
		"Exported: XDP_ENV_DUT_NS, XDP_ENV_PEER_NS, XDP_ENV_DUT_IF, XDP_ENV_PEER_IF,\n"
		"XDP_ENV_DUT_MAC, XDP_ENV_PEER_MAC (and XDP_ENV_DUT2_IF, XDP_ENV_PEER2_IF).\n"
		"Exit status: COMMAND's (128 + the signal when a signal ended it), 1 when\n"
		"the pair could not be made, 2 on bad options, 128 + the signal when\n"
		"SIGINT, SIGTERM or SIGHUP came before COMMAND started.  COMMAND gets\n"
		"SIGTERM if xdp_env itself is killed; the next run of any of the\n"
		"project's tools removes the pair that was left.\n",
		prog);
}

static void export_mac(const char *name, const unsigned char *m)
{
	char buf[18];

	snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
	setenv(name, buf, 1);
}

int main(int argc, char **argv)
{
	enum { O_MTU = 256, O_QUEUES, O_REDIR, O_PEERDROP, O_NOPEER, O_GRO };
	static const struct option opts[] = {
		{ "mtu", required_argument, NULL, O_MTU },
		{ "queues", required_argument, NULL, O_QUEUES },
		{ "redirect-pair", no_argument, NULL, O_REDIR },
		{ "peer-drop", no_argument, NULL, O_PEERDROP },
		{ "no-peer-prog", no_argument, NULL, O_NOPEER },
		{ "gro", no_argument, NULL, O_GRO },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct sigaction sa = { .sa_handler = forward };
	struct xenv_opts eo = {};
	char err[XSK_ERRLEN];
	struct xsk_env *env;
	int c, st, ret = 1;
	pid_t parent;

	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case O_MTU:
			if (cli_u32("xdp_env", "--mtu", optarg, 68, 65535,
				    &eo.mtu))
				return 2;
			break;
		case O_QUEUES:
			if (cli_u32("xdp_env", "--queues", optarg, 1,
				    XSK_MAX_QUEUES, &eo.queues))
				return 2;
			break;
		case O_REDIR:
			eo.redirect_pair = true;
			break;
		case O_PEERDROP:
			eo.peer_drop = true;
			break;
		case O_NOPEER:
			eo.no_peer_prog = true;
			break;
		case O_GRO:
			eo.dut_gro = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "xdp_env: no command given (xdp_env [OPTIONS] -- COMMAND)\n");
		return 2;
	}
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
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "xdp_env: %s: %s\n", argv[optind],
			strerror(errno));
		_exit(127);
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
