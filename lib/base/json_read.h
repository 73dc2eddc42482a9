/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading JSON documents (RFC 8259): a thin layer over jansson that keeps
 * our callers' NULL-tolerant accessors and error format.
 *
 * Values are objects, arrays, strings, numbers (every number a double,
 * whatever its length: JSON_DECODE_INT_AS_REAL), true, false and null; any
 * value may be the document.  Refused with an error: malformed or truncated
 * input, a number too large for a double, an object with a duplicate key,
 * a string holding \u0000 (so that C string comparisons see every byte of
 * it), nesting deeper than jansson's JSON_PARSER_MAX_DEPTH (2048).
 *
 * Errors are written to the caller's buffer as "LINE:COLUMN: what" (from
 * jansson: 1-based, the column counts characters and points at the end of
 * the offending token); jr_parse_file() prefixes them with the file's path
 * ("PATH:LINE:COLUMN: what", or lib/base/input.h's "PATH: what" when it cannot
 * be read), the path and what jansson quotes of the text escaped for a
 * terminal (lib/base/esc.h).  No global state.
 */
#ifndef JSON_READ_H
#define JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#define JR_ERRLEN	1024	/* a shortened path (lib/base/esc.h) and the reason */
/* jr_parse_file()'s usual limit: a file larger than this is refused */
#define JR_MAX_INPUT	(64UL << 20)

enum jr_type {
	JR_NULL,
	JR_BOOL,
	JR_NUMBER,
	JR_STRING,
	JR_ARRAY,
	JR_OBJECT,
};

/* A value of a parsed document; it lives as long as the document */
struct jr_value;

/*
 * Parse len bytes of text; on success *out is the root (free it with
 * jr_free()) and 0 is returned; on error -EINVAL (malformed), -ENOMEM,
 * with a message in err.
 */
int jr_parse(const char *text, size_t len, struct jr_value **out, char *err,
	     size_t errlen);

/*
 * The same for a whole file of at most max bytes, read by lib/base/input.h:
 * checked while reading (a pipe or a device stops at the limit), a pipe's
 * data waited for at most INPUT_WAIT_S at a time.  -EFBIG beyond the
 * limit, -ETIMEDOUT when a pipe's data does not come, -EINVAL for an empty
 * file (a FIFO with no writer) as for malformed text, -errno when the file
 * cannot be read
 */
int jr_parse_file(const char *path, size_t max, struct jr_value **out,
		  char *err, size_t errlen);

void jr_free(struct jr_value *v);

/* The type of v; v must not be NULL */
enum jr_type jr_type(const struct jr_value *v);
const char *jr_type_name(enum jr_type t);

/* Member key of an object; NULL when v is not an object or has no key */
const struct jr_value *jr_get(const struct jr_value *v, const char *key);

/* Items of an array (0 when v is not one), item i (NULL past the end) */
size_t jr_len(const struct jr_value *v);
const struct jr_value *jr_at(const struct jr_value *v, size_t i);

/* The value when v is of that type, else NULL, NaN, or -1 */
const char *jr_str(const struct jr_value *v);
double jr_num(const struct jr_value *v);
int jr_bool(const struct jr_value *v);

#endif /* JSON_READ_H */
