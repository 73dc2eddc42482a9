// SPDX-License-Identifier: GPL-2.0
/* Text for a terminal: control bytes and bytes from DEL up as \xNN, \ as \\ (esc.h) */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "esc.h"

static const char cut[] = "...";

/* The columns byte c takes: a backslash is doubled, so \xNN is ours alone */
static size_t width(unsigned char c)
{
	return c < 0x20 || c >= 0x7f ? 4 : c == '\\' ? 2 : 1;
}

static char *put(char *p, unsigned char c)
{
	if (width(c) == 1) {
		*p = c;
		return p + 1;
	}
	if (c == '\\')
		return p + sprintf(p, "\\\\");
	return p + sprintf(p, "\\x%02x", c);
}

/*
 * s[0..*head) and s[*tail..n) in room columns: the head gets half, the
 * tail the rest; no \xNN is split
 */
static void cut_points(const unsigned char *s, size_t n, size_t room,
		       size_t *head, size_t *tail)
{
	size_t w = 0, h, t;

	for (h = 0; h < n && w + width(s[h]) <= room / 2; h++)
		w += width(s[h]);
	for (t = n; t > h && w + width(s[t - 1]) <= room; t--)
		w += width(s[t - 1]);
	*head = h;
	*tail = t;
}

char *esc_into(char *buf, size_t len, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), w = 0, head, tail, i;
	char *p = buf;

	for (i = 0; i < n; i++)
		w += width(u[i]);
	head = tail = n;
	if (w >= len)
		cut_points(u, n, len - sizeof(cut), &head, &tail);
	for (i = 0; i < head; i++)
		p = put(p, u[i]);
	if (head < tail) {
		memcpy(p, cut, sizeof(cut) - 1);
		p += sizeof(cut) - 1;
	}
	for (i = tail; i < n; i++)
		p = put(p, u[i]);
	*p = '\0';
	return buf;
}

struct esc esc_text(const char *s)
{
	struct esc e;

	esc_into(e.s, sizeof(e.s), s);
	return e;
}

struct esc esc_path(const char *path)
{
	struct esc e;

	esc_into(e.s, ESC_PATH, path);
	return e;
}
