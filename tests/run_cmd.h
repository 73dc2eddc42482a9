/* SPDX-License-Identifier: GPL-2.0 */
/* For tests that run the tools: a shell command's output and exit status */
#ifndef RUN_CMD_H
#define RUN_CMD_H

#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>

/* Write text to path (a tool's output saved for a checker): 0 or -errno */
static inline int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fputs(text, f) < 0 ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

/* Run cmd with sh; out gets (up to len - 1 bytes of) its stdout */
static inline int run_cmd(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");
	size_t n;
	int st;

	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * The project's namespaces (xsk-PID-START-PIDNS-N-{d,p}) of this pid
 * namespace whose owner, the PID in the name, is gone: what a killed run
 * left behind (a reused pid is not seen here; xenv_reap_stale() sees it).
 * Sorted, a line each.
 */
static inline void dead_owner_namespaces(char *buf, size_t len)
{
	if (run_cmd("ns=$(stat -L -c %i /proc/self/ns/pid); "
		    "for n in $(ip netns list 2>/dev/null | awk -v ns=$ns '{ split($1, f, \"-\"); if (f[1] == \"xsk\" && f[4] == ns) print $1 }'); do "
		    "p=${n#xsk-}; [ -d /proc/${p%%-*} ] || echo $n; done | sort",
		    buf, len) < 0)
		snprintf(buf, len, "?");
}

#endif /* RUN_CMD_H */
