// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed input to every tool, from a table (tests/bad_input.table): each
 * row an invocation, the exit status it must give and a fragment of the
 * message it must print (stdout and stderr together).  Also, for every
 * row: it ends within its time limit, and it leaves no network namespace
 * behind (one whose owner, the PID in its name, is gone; other runs'
 * namespaces may come and go meanwhile).  A few rows are valid inputs that must be taken (exit 0).
 *
 * The table's lines are "STATUS | FRAGMENT | COMMAND"; COMMAND is run by
 * sh from the project's top directory, with $BIN the tools' directory (the
 * BIN environment variable, or build/bin), stdin from /dev/null.  '#'
 * starts a comment line.  A FRAGMENT "json: PATH=VALUE ..." is no text:
 * the command's stdout (its stderr not) is JSON with VALUE at each PATH
 * (tests/out_check.h's paths; VALUE a number, true, false, or a string).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "out_check.h"

#define TABLE		"tests/bad_input.table"
#define ROW_TIMEOUT	60	/* seconds; the valid runs take a few */
#define MAX_ROWS	1024

struct row {
	int line;
	int status;
	char *fragment;
	char *command;
};

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int load(const char *path, struct row *rows, int *n)
{
	char buf[1024], *a, *b;
	int line = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f) {
		ksft_print_msg("%s: %s\n", path, strerror(errno));
		return -errno;
	}
	*n = 0;
	while (fgets(buf, sizeof(buf), f)) {
		struct row *r = &rows[*n];
		char *end;

		line++;
		a = trim(buf);
		if (!*a || *a == '#')
			continue;
		b = strstr(a, " | ");
		if (b)
			*b = '\0';
		r->status = strtol(a, &end, 10);
		a = b ? b + 3 : NULL;
		b = a ? strstr(a, " | ") : NULL;
		if (!b || *end || *n == MAX_ROWS) {
			ksft_print_msg("%s:%d: not STATUS | FRAGMENT | COMMAND%s\n",
				       path, line, *n == MAX_ROWS ? " (too many rows)" : "");
			fclose(f);
			return -EINVAL;
		}
		*b = '\0';
		r->line = line;
		r->fragment = strdup(trim(a));
		r->command = strdup(trim(b + 3));
		if (!r->fragment || !r->command) {
			fclose(f);
			return -ENOMEM;
		}
		(*n)++;
	}
	fclose(f);
	return 0;
}

/*
 * out holds what the fragment asks: the text, or for "json: PATH=VALUE
 * ..." a JSON document with those values; why not in why
 */
static bool has_fragment(const char *out, const char *fragment, char *why,
			 size_t len)
{
	char pairs[512], *save, *pv, *eq, *end;
	struct jr_value *doc;
	bool ok = true;

	if (strncmp(fragment, "json:", 5)) {
		snprintf(why, len, "wanted '%s' in: %.300s", fragment, out);
		return strstr(out, fragment);
	}
	doc = jt_parse(out, why, len);
	if (!doc)
		return false;
	snprintf(pairs, sizeof(pairs), "%s", fragment + 5);
	for (pv = strtok_r(pairs, " ", &save); pv && ok;
	     pv = strtok_r(NULL, " ", &save)) {
		const struct jr_value *v;
		double n;

		eq = strchr(pv, '=');
		if (!eq) {
			snprintf(why, len, "'%s' is not PATH=VALUE", pv);
			ok = false;
			break;
		}
		*eq++ = '\0';
		v = jt_at(doc, pv);
		n = strtod(eq, &end);
		if (!v)
			ok = false;
		else if (*eq && !*end)
			ok = jr_num(v) == n;
		else if (!strcmp(eq, "true") || !strcmp(eq, "false"))
			ok = jr_bool(v) == !strcmp(eq, "true");
		else
			ok = jr_str(v) && !strcmp(jr_str(v), eq);
		if (!ok)
			snprintf(why, len, "wanted %s = %s in: %.300s", pv, eq, out);
	}
	jr_free(doc);
	return ok;
}

int main(void)
{
	static struct row rows[MAX_ROWS];
	static char out[65536], before[4096], after[4096], why[1024];
	char cmd[256];
	int n, i, rc;

	ksft_print_header();
	if (geteuid()) {
		ksft_set_plan(1);
		ksft_test_result_skip("bad_input: needs root (the tools check options first, but some rows run)\n");
		ksft_finished();
	}
	if (!getenv("BIN"))
		setenv("BIN", "build/bin", 1);
	if (load(TABLE, rows, &n))
		ksft_exit_fail_msg("cannot read " TABLE "\n");
	ksft_set_plan(n);
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		bool ok, found;

		dead_owner_namespaces(before, sizeof(before));
		/* in the environment: the command's own quotes stay as written */
		setenv("ROW_COMMAND", r->command, 1);
		snprintf(cmd, sizeof(cmd),
			 "timeout -k 5 %d sh -c \"$ROW_COMMAND\" </dev/null 2>%s",
			 ROW_TIMEOUT,
			 strncmp(r->fragment, "json:", 5) ? "&1" : "/dev/null");
		rc = run_cmd(cmd, out, sizeof(out));
		dead_owner_namespaces(after, sizeof(after));
		found = has_fragment(out, r->fragment, why, sizeof(why));
		ok = rc == r->status && found && !strcmp(before, after);
		if (!ok) {
			ksft_print_msg("%s:%d: %s\n", TABLE, r->line, r->command);
			ksft_print_msg("  exit %d (want %d)%s%s\n", rc, r->status,
				       rc == 124 ? ": timed out" : "",
				       strcmp(before, after) ?
				       "; namespaces left behind" : "");
			if (!found)
				ksft_print_msg("  %s\n", why);
		}
		ksft_test_result(ok, "%s:%d %s\n", TABLE, r->line, r->command);
	}
	ksft_finished();
}
