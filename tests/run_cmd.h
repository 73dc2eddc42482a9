/* SPDX-License-Identifier: GPL-2.0 */
/* For tests that run the tools: a shell command's output and exit status */
#ifndef RUN_CMD_H
#define RUN_CMD_H

#include <stdio.h>
#include <sys/wait.h>

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

#endif /* RUN_CMD_H */
