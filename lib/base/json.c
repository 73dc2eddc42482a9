// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "json.h"

void json_init(struct json *j, FILE *f, int indent)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->indent = indent > 0 ? indent : 0;
}

static void newline(struct json *j)
{
	if (j->indent)
		fprintf(j->f, "\n%*s", j->depth * j->indent, "");
}

/* Before any value: check where we are, write the separator */
static bool value_start(struct json *j)
{
	if (j->err)
		return false;
	if (j->done) {
		j->err = true;
		return false;
	}
	if (j->depth && j->is_obj[j->depth - 1]) {
		if (!j->want_value) {
			j->err = true;
			return false;
		}
		j->want_value = false;
		return true;
	}
	if (j->depth) {
		if (!j->empty[j->depth - 1])
			fputc(',', j->f);
		j->empty[j->depth - 1] = false;
		newline(j);
	}
	return true;
}

/* After a scalar or a closed container */
static void value_end(struct json *j)
{
	if (!j->depth)
		j->done = true;
}

/*
 * The length of the well-formed UTF-8 sequence at p (Unicode's table 3-7:
 * no overlong form, no surrogate, nothing above U+10FFFF), or 0 with *bad
 * the bytes of its maximal ill-formed part (at least 1), to be replaced by
 * one U+FFFD.  The string's NUL ends a truncated sequence.
 */
static size_t utf8_seq(const unsigned char *p, size_t *bad)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;	/* no overlong form */
		else if (p[0] == 0xed)
			hi = 0x9f;	/* no surrogate */
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		if (p[0] == 0xf0)
			lo = 0x90;	/* no overlong form */
		else if (p[0] == 0xf4)
			hi = 0x8f;	/* nothing above U+10FFFF */
	} else {
		*bad = 1;	/* a continuation byte, 0xc0, 0xc1, 0xf5.. */
		return 0;
	}
	for (i = 1; i < n; i++) {
		if (p[i] < lo || p[i] > hi) {
			*bad = i;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

static void put_string(struct json *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, bad;

	fputc('"', j->f);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(j->f, "\\%c", *p++);
		} else if (*p < 0x20) {
			fprintf(j->f, "\\u%04x", *p++);
		} else {
			n = utf8_seq(p, &bad);
			if (n) {
				fwrite(p, 1, n, j->f);
				p += n;
			} else {
				fputs("\\ufffd", j->f);
				p += bad;
			}
		}
	}
	fputc('"', j->f);
}

static void begin(struct json *j, bool obj)
{
	if (!value_start(j))
		return;
	if (j->depth >= JSON_MAX_DEPTH) {
		j->err = true;
		return;
	}
	fputc(obj ? '{' : '[', j->f);
	j->is_obj[j->depth] = obj;
	j->empty[j->depth] = true;
	j->depth++;
}

static void end(struct json *j, bool obj)
{
	if (j->err)
		return;
	if (!j->depth || j->is_obj[j->depth - 1] != obj || j->want_value) {
		j->err = true;
		return;
	}
	j->depth--;
	if (!j->empty[j->depth])
		newline(j);
	fputc(obj ? '}' : ']', j->f);
	value_end(j);
}

void json_begin_object(struct json *j)
{
	begin(j, true);
}

void json_end_object(struct json *j)
{
	end(j, true);
}

void json_begin_array(struct json *j)
{
	begin(j, false);
}

void json_end_array(struct json *j)
{
	end(j, false);
}

void json_key(struct json *j, const char *key)
{
	if (j->err)
		return;
	if (!j->depth || !j->is_obj[j->depth - 1] || j->want_value || !key) {
		j->err = true;
		return;
	}
	if (!j->empty[j->depth - 1])
		fputc(',', j->f);
	j->empty[j->depth - 1] = false;
	newline(j);
	put_string(j, key);
	fputs(j->indent ? ": " : ":", j->f);
	j->want_value = true;
}

void json_string(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	if (!value_start(j))
		return;
	put_string(j, s);
	value_end(j);
}

void json_u64(struct json *j, uint64_t v)
{
	if (!value_start(j))
		return;
	fprintf(j->f, "%" PRIu64, v);
	value_end(j);
}

void json_s64(struct json *j, int64_t v)
{
	if (!value_start(j))
		return;
	fprintf(j->f, "%" PRId64, v);
	value_end(j);
}

static void put_double(struct json *j, double v, int decimals)
{
	if (!value_start(j))
		return;
	if (!isfinite(v))
		fputs("null", j->f);
	else if (decimals < 0)
		fprintf(j->f, "%.17g", v);
	else
		fprintf(j->f, "%.*f", decimals, v);
	value_end(j);
}

void json_double(struct json *j, double v)
{
	put_double(j, v, -1);
}

void json_double_prec(struct json *j, double v, int decimals)
{
	put_double(j, v, decimals < 0 ? 0 : decimals);
}

void json_bool(struct json *j, bool v)
{
	if (!value_start(j))
		return;
	fputs(v ? "true" : "false", j->f);
	value_end(j);
}

void json_null(struct json *j)
{
	if (!value_start(j))
		return;
	fputs("null", j->f);
	value_end(j);
}

void json_kv_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_kv_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void json_kv_s64(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_s64(j, v);
}

void json_kv_double(struct json *j, const char *key, double v)
{
	json_key(j, key);
	json_double(j, v);
}

void json_kv_double_if(struct json *j, const char *key, bool known, double v)
{
	json_key(j, key);
	if (known)
		json_double(j, v);
	else
		json_null(j);
}

void json_kv_u64_if(struct json *j, const char *key, bool known, uint64_t v)
{
	json_key(j, key);
	if (known)
		json_u64(j, v);
	else
		json_null(j);
}

void json_kv_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

int json_finish(struct json *j)
{
	if (j->err || !j->done)
		return -EINVAL;
	errno = 0;
	fputc('\n', j->f);
	/* stdout is flushed by cli_finish(), which says why it failed */
	if ((j->f != stdout && fflush(j->f)) || ferror(j->f))
		return errno ? -errno : -EIO;
	return 0;
}
