// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>

#include "cli.h"
#include "esc.h"
#include "opts.h"

#define FIELD(cfg, o, type)	((type *)((char *)(cfg) + (o)->off))

enum { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

static int arg_kind(const struct opt *o)
{
	if (o->type == OPT_FLAG || (o->type == OPT_FUNC && !o->arg))
		return ARG_NONE;
	return o->type == OPT_PREFIX ? ARG_OPTIONAL : ARG_REQUIRED;
}

static bool is_option(const struct opt *o)
{
	return o->type != OPT_HEADING;
}

static void usage_hint(const struct opts_tool *t)
{
	fprintf(stderr, "Usage: %s %s\nTry '%s --help' for the options.\n",
		t->name, t->synopsis, t->name);
}

/* --name, or an abbreviation of one long name only (getopt_long()'s rule) */
static const struct opt *find_long(const struct opts_tool *t, const char *s,
				   size_t len)
{
	const struct opt *o, *found = NULL;
	int n = 0;

	for (o = t->opts; o->type != OPT_END; o++) {
		if (!is_option(o) || strncmp(o->name, s, len))
			continue;
		if (!o->name[len])
			return o;
		found = o;
		n++;
	}
	if (n <= 1)
		return found;
	fprintf(stderr, "%s: option '--%.*s' is ambiguous; possibilities:",
		t->name, (int)len, s);
	for (o = t->opts; o->type != OPT_END; o++)
		if (is_option(o) && !strncmp(o->name, s, len))
			fprintf(stderr, " '--%s'", o->name);
	fputc('\n', stderr);
	return (const struct opt *)-1;
}

static const struct opt *find_short(const struct opts_tool *t, char c)
{
	const struct opt *o;

	for (o = t->opts; o->type != OPT_END; o++)
		if (is_option(o) && o->letter == c)
			return o;
	return NULL;
}

static bool has_empty_value(const char *arg)
{
	size_t n = strlen(arg);

	return n && (arg[0] == ',' || arg[n - 1] == ',' || strstr(arg, ",,"));
}

static int list_value(const char *tool, const struct opt *o, const char *tok,
		      __u32 *v)
{
	__u64 n;

	if (o->parse) {
		if (!o->parse(tok, v))
			return 0;
		fprintf(stderr, "%s: --%s: '%s' is none of %s\n", tool, o->name,
			esc_text(tok).s, o->values);
		return -EINVAL;
	}
	if (!cli_parse_u64(tok, o->min, o->max, &n)) {
		*v = n;
		return 0;
	}
	fprintf(stderr, "%s: --%s: '%s' is not %s in %llu..%llu\n", tool,
		o->name, esc_text(tok).s, o->what, (unsigned long long)o->min,
		(unsigned long long)o->max);
	return -EINVAL;
}

/* strtok_r() would skip the empty values of "64," and "64,,1500" */
static int parse_list(const char *tool, const struct opt *o, const char *arg,
		      struct opts_list *l)
{
	char *dup, *tok, *save;
	unsigned int k;
	int ret = 0;

	if (has_empty_value(arg)) {
		fprintf(stderr, "%s: --%s: '%s' has an empty value\n", tool,
			o->name, esc_text(arg).s);
		return -EINVAL;
	}
	dup = strdup(arg);
	if (!dup)
		return -ENOMEM;
	l->n = 0;
	for (tok = strtok_r(dup, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		if (l->n == OPTS_LIST_MAX) {
			fprintf(stderr, "%s: --%s: more than %d values\n", tool,
				o->name, OPTS_LIST_MAX);
			ret = -EINVAL;
		} else if (list_value(tool, o, tok, &l->v[l->n])) {
			ret = -EINVAL;
		} else {
			for (k = 0; k < l->n && l->v[k] != l->v[l->n]; k++)
				;
			if (k < l->n) {
				fprintf(stderr, "%s: --%s: '%s' is given twice\n",
					tool, o->name, esc_text(tok).s);
				ret = -EINVAL;
			}
			l->n++;
		}
	}
	free(dup);
	if (!ret && !l->n) {
		fprintf(stderr, "%s: --%s: empty list\n", tool, o->name);
		ret = -EINVAL;
	}
	return ret;
}

static int parse_ifname(const char *tool, const struct opt *o,
			const char *arg)
{
	if (!*arg || strlen(arg) >= IF_NAMESIZE || strpbrk(arg, "/ \t\n:")) {
		fprintf(stderr, "%s: --%s: '%s' is not an interface name (1..%d characters, no '/', ':' or spaces)\n",
			tool, o->name, esc_text(arg).s, IF_NAMESIZE - 1);
		return -EINVAL;
	}
	if (!if_nametoindex(arg)) {
		fprintf(stderr, "%s: --%s: no interface '%s' in this network namespace\n",
			tool, o->name, esc_text(arg).s);
		return -EINVAL;
	}
	return 0;
}

/* The files go into a directory that is there already, and writable */
static int parse_prefix(const char *tool, const struct opt *o,
			const char *arg)
{
	char dir[512], opt[64], *slash;

	if (!*arg) {
		fprintf(stderr, "%s: --%s: empty prefix\n", tool, o->name);
		return -EINVAL;
	}
	if (strlen(arg) > OPTS_PREFIX_MAX) {
		fprintf(stderr, "%s: --%s: a prefix of %zu bytes is longer than %u\n",
			tool, o->name, strlen(arg), OPTS_PREFIX_MAX);
		return -EINVAL;
	}
	snprintf(dir, sizeof(dir), "%s", arg);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		snprintf(dir, sizeof(dir), "/");
	else
		*slash = '\0';
	snprintf(opt, sizeof(opt), "--%s", o->name);
	if (cli_check_out_dir(tool, opt, dir))
		return -EINVAL;
	if (access(dir, F_OK)) {
		fprintf(stderr, "%s: %s: '%s' is not a directory we can write to (%s)\n",
			tool, opt, esc_path(dir).s, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

static int parse_cpu(const char *tool, const char *opt, const struct opt *o,
		     const char *arg, int *cpu)
{
	__u32 v;

	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if ((o->flags & OPTS_UNPINNED) && !strcmp(arg, "-1")) {
		*cpu = -1;
		return 0;
	}
	/* the range said is the one taken: -1 too where it is */
	if ((o->flags & OPTS_UNPINNED) && (*arg == '-' || !*arg)) {
		fprintf(stderr, "%s: %s: '%s' is not -1 (unpinned) or a CPU in 0..%ld\n",
			tool, opt, esc_text(arg).s, n > 0 ? n - 1 : 0);
		return -EINVAL;
	}
	if (cli_cpu(tool, opt, arg, &v))
		return -EINVAL;
	*cpu = v;
	return 0;
}

static int set_value(const struct opts_tool *t, const struct opt *o,
		     void *cfg, const char *arg)
{
	const char *tool = t->name;
	char opt[64];
	__u32 v;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->type) {
	case OPT_FLAG:
		*FIELD(cfg, o, bool) = true;
		return 0;
	case OPT_U32:
		return cli_u32(tool, opt, arg, o->min, o->max,
			       FIELD(cfg, o, __u32));
	case OPT_U64:
		return cli_u64(tool, opt, arg, o->min, o->max,
			       FIELD(cfg, o, __u64));
	case OPT_DOUBLE:
		return cli_double(tool, opt, arg, o->dmin, o->dmax,
				  FIELD(cfg, o, double));
	case OPT_CPU:
		return parse_cpu(tool, opt, o, arg, FIELD(cfg, o, int));
	case OPT_IFNAME:
		if (parse_ifname(tool, o, arg))
			return -EINVAL;
		break;
	case OPT_OUTDIR:
		if (cli_check_out_dir(tool, opt, arg))
			return -EINVAL;
		break;
	case OPT_PREFIX:
		if (!arg)
			arg = o->def;
		else if (parse_prefix(tool, o, arg))
			return -EINVAL;
		break;
	case OPT_ENUM:
		if (o->parse(arg, &v)) {
			fprintf(stderr, "%s: %s: '%s' is none of %s\n", tool,
				opt, esc_text(arg).s, o->values);
			return -EINVAL;
		}
		*FIELD(cfg, o, __u32) = v;
		return 0;
	case OPT_LIST:
		return parse_list(tool, o, arg, FIELD(cfg, o, struct opts_list));
	case OPT_FUNC:
		return o->set(o, cfg, arg);
	default:
		break;
	}
	*FIELD(cfg, o, const char *) = arg;
	return 0;
}

/*
 * Note the option as given.  A list given twice is refused: the first
 * would be dropped without a word, while one list holds every value; so
 * is an OPTS_ONCE option (a command, a set of options).
 */
static int mark(const struct opts_tool *t, const struct opt *o,
		opts_given_t *given)
{
	long i = o - t->opts;

	if (i >= 64)
		return 0;
	if (o->type == OPT_LIST && (*given & (1ULL << i))) {
		fprintf(stderr, "%s: --%s given twice: give all its values in one list, separated by commas\n",
			t->name, o->name);
		return -EINVAL;
	}
	if ((o->flags & OPTS_ONCE) && (*given & (1ULL << i))) {
		fprintf(stderr, "%s: --%s given twice: it takes one value, and the first would be dropped\n",
			t->name, o->name);
		return -EINVAL;
	}
	*given |= 1ULL << i;
	return 0;
}

/* --name[=value]: the value, from the next word where it takes one */
static int long_option(const struct opts_tool *t, char **argv, int *i,
		       void *cfg, opts_given_t *given)
{
	const char *s = argv[*i] + 2, *eq = strchr(s, '=');
	const struct opt *o = find_long(t, s, eq ? (size_t)(eq - s) : strlen(s));
	const char *arg = eq ? eq + 1 : NULL;

	if (o == (const struct opt *)-1)
		return -EINVAL;
	if (!o) {
		fprintf(stderr, "%s: unrecognized option '%s'\n", t->name,
			esc_text(argv[*i]).s);
		return -EINVAL;
	}
	if (!strcmp(o->name, "help"))
		return 1;
	if (arg_kind(o) == ARG_NONE && arg) {
		fprintf(stderr, "%s: option '--%s' doesn't allow an argument\n",
			t->name, o->name);
		return -EINVAL;
	}
	if (arg_kind(o) == ARG_REQUIRED && !arg) {
		arg = argv[*i + 1];
		if (!arg) {
			fprintf(stderr, "%s: option '--%s' requires an argument\n",
				t->name, o->name);
			return -EINVAL;
		}
		(*i)++;
	}
	if (mark(t, o, given))
		return -EINVAL;
	return set_value(t, o, cfg, arg);
}

/* -abc, -d5, -d 5 */
static int short_options(const struct opts_tool *t, char **argv, int *i,
			 void *cfg, opts_given_t *given)
{
	const char *s = argv[*i] + 1;
	const struct opt *o;

	for (; *s; s++) {
		o = find_short(t, *s);
		if (!o) {
			fprintf(stderr, "%s: invalid option -- '%c'\n", t->name, *s);
			return -EINVAL;
		}
		if (!strcmp(o->name, "help"))
			return 1;
		if (mark(t, o, given))
			return -EINVAL;
		if (arg_kind(o) == ARG_NONE) {
			if (set_value(t, o, cfg, NULL))
				return -EINVAL;
			continue;
		}
		if (!s[1] && !argv[*i + 1]) {
			fprintf(stderr, "%s: option requires an argument -- '%c'\n",
				t->name, *s);
			return -EINVAL;
		}
		return set_value(t, o, cfg, s[1] ? s + 1 : argv[++(*i)]);
	}
	return 0;
}

int opts_parse(const struct opts_tool *t, int argc, char **argv, void *cfg,
	       opts_given_t *given)
{
	opts_given_t seen = 0;
	void *defaults = NULL;
	int i, n = 0, ret = 0;
	bool only_args = false;

	/*
	 * Every tool parses here first: a report written into a pipe whose
	 * reader left, or past ulimit -f, is a lost report (EPIPE, EFBIG:
	 * said, exit 1 by cli_finish() or cli_file_close()), not a death by
	 * SIGPIPE or SIGXFSZ.  What the tools exec for the user gets the
	 * defaults back (cli_exec_prep()).
	 */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	cli_std_fds_open();
	if (t->cfg_size)
		defaults = malloc(t->cfg_size);
	if (defaults)
		memcpy(defaults, cfg, t->cfg_size);
	for (i = 1; i < argc && ret >= 0; i++) {
		const char *a = argv[i];

		if (only_args || a[0] != '-' || !a[1]) {
			argv[1 + n++] = argv[i];
			only_args |= t->args_end_opts;
		} else if (!strcmp(a, "--")) {
			only_args = true;
		} else if (a[1] == '-') {
			ret = long_option(t, argv, &i, cfg, &seen);
		} else {
			ret = short_options(t, argv, &i, cfg, &seen);
		}
		if (ret > 0) {
			opts_help(t, defaults ? defaults : cfg, stdout);
			free(defaults);
			exit(cli_finish(t->name, 0));
		}
	}
	free(defaults);
	if (ret < 0) {
		usage_hint(t);
		return -EINVAL;
	}
	if (n && !t->args) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", t->name,
			esc_text(argv[1]).s);
		return -EINVAL;
	}
	if (given)
		*given = seen;
	return n;
}

bool opts_given(const struct opts_tool *t, opts_given_t given,
		const char *name)
{
	const struct opt *o;

	for (o = t->opts; o->type != OPT_END; o++)
		if (is_option(o) && !strcmp(o->name, name))
			return o - t->opts < 64 && (given >> (o - t->opts) & 1);
	return false;
}

#define HELP_WIDTH	79
#define HELP_INDENT	24

/* text from column col, words wrapped at HELP_WIDTH, indented after */
static void wrap(FILE *f, int col, const char *text)
{
	const char *w = text;
	bool first = true;

	while (*w) {
		size_t len = strcspn(w, " ");

		if (!first && col + 1 + (int)len > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)len, w);
		col += len;
		w += len;
		while (*w == ' ')
			w++;
		first = false;
	}
	fputc('\n', f);
}

static void list_default(const struct opts_list *l, char *buf, size_t len)
{
	size_t at = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = 0; k < l->n && at < len; k++)
		at += snprintf(buf + at, len - at, "%s%u", k ? "," : "",
			       l->v[k]);
}

/* "default: X" of a row, from the config's starting values; "" for none */
static void row_default(const struct opt *o, const void *cfg, char *buf,
			size_t len)
{
	const char *s;

	buf[0] = '\0';
	if (o->def) {
		snprintf(buf, len, "%s", o->def);
		return;
	}
	switch (o->type) {
	case OPT_U32:
		if (*FIELD(cfg, o, __u32))
			snprintf(buf, len, "%u", *FIELD(cfg, o, __u32));
		break;
	case OPT_U64:
		if (*FIELD(cfg, o, __u64))
			snprintf(buf, len, "%llu",
				 (unsigned long long)*FIELD(cfg, o, __u64));
		break;
	case OPT_DOUBLE:
		if (*FIELD(cfg, o, double))
			snprintf(buf, len, "%g", *FIELD(cfg, o, double));
		break;
	case OPT_CPU:
		if (*FIELD(cfg, o, int) >= 0)
			snprintf(buf, len, "%d", *FIELD(cfg, o, int));
		break;
	case OPT_STR:
	case OPT_IFNAME:
	case OPT_OUTDIR:
		s = *FIELD(cfg, o, const char *);
		if (s)
			snprintf(buf, len, "%s", s);
		break;
	case OPT_LIST:
		if (!o->parse)
			list_default(FIELD(cfg, o, struct opts_list), buf, len);
		break;
	default:
		break;
	}
}

static void help_row(const struct opt *o, const void *cfg, FILE *f)
{
	char left[64], def[128], text[1024];
	int n;

	n = snprintf(left, sizeof(left), "  %c%c%s--%s", o->letter ? '-' : ' ',
		     o->letter ? o->letter : ' ', o->letter ? ", " : "  ",
		     o->name);
	if (arg_kind(o) == ARG_REQUIRED)
		n += snprintf(left + n, sizeof(left) - n, "=%s", o->arg);
	else if (arg_kind(o) == ARG_OPTIONAL)
		n += snprintf(left + n, sizeof(left) - n, "[=%s]", o->arg);
	row_default(o, cfg, def, sizeof(def));
	snprintf(text, sizeof(text), "%s%s%s%s", o->help ? o->help : "",
		 *def ? " (default" : "",
		 *def ? (o->type == OPT_PREFIX ? " PREFIX " : ": ") : "", def);
	if (*def)
		strncat(text, ")", sizeof(text) - strlen(text) - 1);
	if (n <= HELP_INDENT - 2)
		n = fprintf(f, "%-*s", HELP_INDENT, left);
	else
		n = fprintf(f, "%s  ", left);
	wrap(f, n, text);
}

void opts_help(const struct opts_tool *t, const void *cfg, FILE *f)
{
	const struct opt *o;

	fprintf(f, "Usage: %s %s\n%s", t->name, t->synopsis, t->about);
	for (o = t->opts; o->type != OPT_END; o++) {
		if (o->flags & OPTS_HIDDEN)
			continue;
		if (o->type == OPT_HEADING)
			fprintf(f, "%s\n", o->help);
		else
			help_row(o, cfg, f);
	}
	if (t->notes)
		fprintf(f, "%s", t->notes);
}
