/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer to a FILE *.
 *
 * The writer places commas, colons and (when indent > 0) newlines and
 * indentation itself; nesting is tracked on a fixed stack of
 * JSON_MAX_DEPTH.  Misuse (a value without a key in an object, a key
 * outside an object, unbalanced ends, too deep, a second top-level value)
 * sets the error flag and writes nothing more; json_finish() reports it.
 *
 * Strings are escaped: '"' and '\\' with a backslash, bytes below 0x20 as
 * \u00XX; well-formed UTF-8 passes through.  What is not UTF-8 (a stray
 * continuation byte, a bad lead byte 0xc0, 0xc1 or 0xf5..0xff, a missing
 * continuation byte, a sequence cut short by the string's end, an overlong
 * form, a surrogate, a code point above U+10FFFF) is written as \ufffd,
 * one for each maximal ill-formed part (Unicode's "U+FFFD substitution of
 * maximal subparts"), so the document is UTF-8 (RFC 8259) whatever the
 * bytes given.  Doubles: finite values as
 * %.17g (round-trips) or with a fixed number of decimals
 * (json_double_prec); NaN and infinities as null.  Numbers assume the "C"
 * locale.
 */
#ifndef JSON_H
#define JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	32

struct json {
	FILE *f;
	int indent;		/* spaces per level; 0: compact, one line */
	int depth;
	bool err;
	bool done;		/* the top-level value is complete */
	bool want_value;	/* a key was written, its value is next */
	bool is_obj[JSON_MAX_DEPTH];
	bool empty[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f, int indent);

void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);

void json_key(struct json *j, const char *key);

void json_string(struct json *j, const char *s);	/* NULL: null */
void json_u64(struct json *j, uint64_t v);
void json_s64(struct json *j, int64_t v);
void json_double(struct json *j, double v);
void json_double_prec(struct json *j, double v, int decimals);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* key + value in one call */
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_u64(struct json *j, const char *key, uint64_t v);
void json_kv_s64(struct json *j, const char *key, int64_t v);
void json_kv_double(struct json *j, const char *key, double v);
void json_kv_bool(struct json *j, const char *key, bool v);
/* v, or null where it is not known */
void json_kv_double_if(struct json *j, const char *key, bool known, double v);
void json_kv_u64_if(struct json *j, const char *key, bool known, uint64_t v);

/*
 * End of document: writes a newline; returns 0, or -EINVAL if the writer
 * was misused or the document is incomplete, -errno if the FILE failed
 * (-EIO where a write failed and its errno is gone).  stdout is not
 * flushed here: the tool's cli_finish() does it, and names the reason of
 * a failure (lib/base/cli.h).
 */
int json_finish(struct json *j);

#endif /* JSON_H */
