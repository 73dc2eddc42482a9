/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader: parses a whole document (RFC 8259) into a tree.
 *
 * Values are objects, arrays, strings, numbers (as double), true, false
 * and null.  Strings are unescaped, \uXXXX included (surrogate pairs are
 * joined; the result is UTF-8 and NUL-terminated; a string holding \u0000
 * keeps its full length in len).  Numbers follow the JSON grammar strictly
 * and are converted with strtod(), which assumes the "C" locale.  Nesting
 * deeper than JR_MAX_DEPTH is refused.  Object keys keep their order;
 * with duplicate keys, jr_get() finds the first.
 *
 * Errors (malformed or truncated input, I/O) are written to the caller's
 * buffer as "LINE:COLUMN: what" (1-based; the column counts bytes), and
 * jr_parse_file() prefixes them with the file's path ("PATH:LINE:COL:
 * what", or "PATH: strerror" when it cannot be read).  No global state.
 */
#ifndef JSON_READ_H
#define JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#define JR_MAX_DEPTH	64
#define JR_ERRLEN	256

enum jr_type {
	JR_NULL,
	JR_BOOL,
	JR_NUMBER,
	JR_STRING,
	JR_ARRAY,
	JR_OBJECT,
};

struct jr_value {
	enum jr_type type;
	bool b;			/* JR_BOOL */
	double num;		/* JR_NUMBER */
	char *str;		/* JR_STRING */
	size_t len;		/* JR_STRING: bytes; JR_ARRAY, JR_OBJECT: items */
	struct jr_value *items;	/* JR_ARRAY, JR_OBJECT: len values */
	char **keys;		/* JR_OBJECT: len keys, beside items */
};

/*
 * Parse len bytes of text; on success *out is the root (free it with
 * jr_free()) and 0 is returned; on error -EINVAL (malformed), -ENOMEM,
 * with a message in err.
 */
int jr_parse(const char *text, size_t len, struct jr_value **out, char *err,
	     size_t errlen);

/* The same for a whole file; -errno as well when it cannot be read */
int jr_parse_file(const char *path, struct jr_value **out, char *err,
		  size_t errlen);

void jr_free(struct jr_value *v);

/* Member key of an object; NULL when v is not an object or has no key */
const struct jr_value *jr_get(const struct jr_value *v, const char *key);

/* The value when v is of that type, else NULL, NaN, or -1 */
const char *jr_str(const struct jr_value *v);
double jr_num(const struct jr_value *v);
int jr_bool(const struct jr_value *v);

const char *jr_type_name(enum jr_type t);

#endif /* JSON_READ_H */
