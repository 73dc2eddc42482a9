/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text from a file, or a path from the command line, for a terminal: every
 * control byte, DEL and every byte above it written as \xNN, so that no
 * escape sequence reaches the terminal and every byte shows; a backslash
 * is written \\, so that the text "\x81" is not taken for an escaped byte.  The one
 * place this is done; what the tools print of a file's text goes through
 * it (their JSON does not: lib/base/json.c escapes strings its own way).
 *
 * What does not fit the room is cut in the middle, "head...tail": a long
 * path keeps its start and its file name, and the sentence it is part of
 * keeps what follows it (the reason).
 */
#ifndef ESC_H
#define ESC_H

#include <stddef.h>

#define ESC_LEN		1024	/* esc_text()'s room, the NUL included */
#define ESC_PATH	256	/* esc_path()'s: a path in a message */

struct esc {
	char s[ESC_LEN];
};

/* s escaped into buf of len bytes (at least 8), cut in the middle; buf */
char *esc_into(char *buf, size_t len, const char *s);

/* The same in a buffer of its own, for printf()'s arguments */
struct esc esc_text(const char *s);
struct esc esc_path(const char *path);

#endif /* ESC_H */
