// SPDX-License-Identifier: GPL-2.0
/*
 * Flame graphs from folded stacks.  See flamegraph.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "cli.h"
#include "flamegraph.h"
#include "err.h"
#include "esc.h"

#define FG_WIDTH	1200
#define FG_PAD		10
#define FG_ROW		16
#define FG_TOP		40	/* title and the total */
#define FG_FONT		12
#define FG_CHAR_W	7.0	/* about, at FG_FONT px */

struct node {
	char *name;
	__u64 count;
	struct node *child, *next;	/* children sorted by name */
};

static struct node *node_new(const char *name, size_t len)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->name = strndup(name, len);
	if (!n->name) {
		free(n);
		return NULL;
	}
	return n;
}

static void node_free(struct node *n)
{
	while (n) {
		struct node *next = n->next;

		node_free(n->child);
		free(n->name);
		free(n);
		n = next;
	}
}

static struct node *child_get(struct node *parent, const char *name,
			      size_t len)
{
	struct node **pp = &parent->child, *n;
	int c = 1;

	for (; *pp; pp = &(*pp)->next) {
		c = strncmp((*pp)->name, name, len);
		if (!c && (*pp)->name[len])
			c = 1;
		if (c >= 0)
			break;
	}
	if (*pp && !c)
		return *pp;
	n = node_new(name, len);
	if (!n)
		return NULL;
	n->next = *pp;
	*pp = n;
	return n;
}

/* One "a;b;c count" line into the tree; -EINVAL if it is not one */
static int add_line(struct node *root, char *line)
{
	char *sp = strrchr(line, ' '), *end, *f;
	struct node *n = root;
	__u64 count;

	if (!sp || sp == line)
		return -EINVAL;
	errno = 0;
	count = strtoull(sp + 1, &end, 10);
	if (errno || end == sp + 1 || (*end && *end != '\n'))
		return -EINVAL;
	*sp = '\0';
	root->count += count;
	for (f = line; f; ) {
		char *semi = strchr(f, ';');
		size_t len = semi ? (size_t)(semi - f) : strlen(f);

		n = child_get(n, f, len);
		if (!n)
			return -ENOMEM;
		n->count += count;
		f = semi ? semi + 1 : NULL;
	}
	return 0;
}

static int depth_of(const struct node *n)
{
	int d = 0, c;

	for (n = n->child; n; n = n->next) {
		c = depth_of(n);
		if (c > d)
			d = c;
	}
	return d + 1;
}

static void put_escaped(FILE *f, const char *s, size_t max)
{
	size_t i;

	for (i = 0; s[i] && i < max; i++) {
		switch (s[i]) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			/* control characters are not XML */
			fputc((unsigned char)s[i] < 0x20 ? '?' : s[i], f);
		}
	}
}

static unsigned int hash(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* A JIT image's kallsyms name: bpf_prog_<16 hex digits of tag>_<name> */
static bool is_bpf_prog(const char *name)
{
	int i;

	if (strncmp(name, "bpf_prog_", 9))
		return false;
	for (i = 9; i < 25; i++)
		if (!isxdigit((unsigned char)name[i]))
			return false;
	return name[25] == '_';
}

static void colour(const char *name, int depth, char *buf, size_t len)
{
	unsigned int h = hash(name);

	if (is_bpf_prog(name))
		snprintf(buf, len, "rgb(%u,%u,%u)", 60 + h % 40,
			 170 + (h >> 8) % 60, 60 + (h >> 16) % 40);
	else if (!depth || !strcmp(name, "[user]") ||
		 !strcmp(name, "[unknown]"))
		snprintf(buf, len, "rgb(%u,%u,%u)", 170 + h % 30,
			 170 + h % 30, 180 + h % 30);
	else
		snprintf(buf, len, "rgb(%u,%u,%u)", 205 + h % 50,
			 80 + (h >> 8) % 150, (h >> 16) % 55);
}

struct draw {
	FILE *f;
	__u64 total;
	double scale;		/* px per sample */
	int height;
	int depth;
};

static void draw(struct draw *d, const struct node *n, double x, int depth)
{
	double w = n->count * d->scale;
	int y = d->height - FG_PAD - (depth + 1) * FG_ROW;
	const struct node *c;
	char col[32];
	size_t chars;

	if (w < FG_WIDTH * 0.001)
		return;
	colour(n->name, depth, col, sizeof(col));
	fprintf(d->f, "<g><title>");
	put_escaped(d->f, n->name, 4096);
	fprintf(d->f, " (%llu samples, %.2f%%)</title>",
		(unsigned long long)n->count, 100.0 * n->count / d->total);
	fprintf(d->f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\" ry=\"2\"/>",
		x, y, w > 0.5 ? w - 0.5 : w, FG_ROW - 1, col);
	chars = (w - 6) / FG_CHAR_W;
	if (chars >= 3) {
		fprintf(d->f, "<text x=\"%.2f\" y=\"%d\">", x + 3,
			y + FG_ROW - 4);
		if (strlen(n->name) <= chars) {
			put_escaped(d->f, n->name, chars);
		} else {
			put_escaped(d->f, n->name, chars - 2);
			fputs("..", d->f);
		}
		fputs("</text>", d->f);
	}
	fputs("</g>\n", d->f);
	for (c = n->child; c; c = c->next) {
		draw(d, c, x, depth + 1);
		x += c->count * d->scale;
	}
}

int flamegraph_svg(const char *folded, const char *svg, const char *title,
		   char err[ERR_LEN])
{
	struct node root = { .name = "all" };
	struct draw d = {};
	char *line = NULL;
	size_t cap = 0;
	int ret = 0, ln = 0;
	const struct node *c;
	FILE *in, *out;
	double x;

	in = fopen(folded, "re");
	if (!in)
		return err_set(err, -errno, "%s", esc_path(folded).s);
	while (getline(&line, &cap, in) > 0) {
		ln++;
		if (line[0] == '\n')
			continue;
		ret = add_line(&root, line);
		if (ret) {
			err_set(err, ret, "%s:%d: not a folded stack (frames;... count)",
				 esc_path(folded).s, ln);
			break;
		}
	}
	free(line);
	fclose(in);
	if (ret)
		goto out;
	out = cli_open_out(svg);
	if (!out) {
		ret = err_set(err, -errno, "%s", esc_path(svg).s);
		goto out;
	}
	d.f = out;
	d.total = root.count;
	d.depth = root.child ? depth_of(&root) - 1 : 0;
	d.height = FG_TOP + d.depth * FG_ROW + 2 * FG_PAD;
	d.scale = root.count ? (FG_WIDTH - 2.0 * FG_PAD) / root.count : 0;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
		"<style>text { font-family: monospace; font-size: %dpx; fill: #000; } rect:hover { stroke: #000; stroke-width: 1; }</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f0\"/>\n"
		"<text x=\"%d\" y=\"20\" style=\"font-size: 15px\">",
		FG_WIDTH, d.height, FG_WIDTH, d.height, FG_FONT, FG_WIDTH,
		d.height, FG_PAD);
	put_escaped(out, title ? title : folded, 4096);
	fprintf(out, "</text>\n<text x=\"%d\" y=\"34\">%llu samples; width is the share of samples, root at the bottom; hover for a frame's figures</text>\n",
		FG_PAD, (unsigned long long)root.count);
	x = FG_PAD;
	for (c = root.child; c; c = c->next) {
		draw(&d, c, x, 0);
		x += c->count * d.scale;
	}
	fputs("</svg>\n", out);
	ret = cli_file_close(out);
	if (ret) {
		err_set(err, ret, "%s", esc_path(svg).s);
		unlink(svg);	/* cut short: ours, removed */
	}
out:
	node_free(root.child);
	return ret;
}
