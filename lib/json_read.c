// SPDX-License-Identifier: GPL-2.0
/*
 * A small JSON reader (json_read.h): recursive descent over the whole text,
 * values built in place; a parse error records its byte offset, from which
 * the line and column are counted once, when the message is written.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

struct parser {
	const char *s;
	size_t len;
	size_t pos;
	int depth;
	int ret;		/* 0, or the first error */
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4)))
static int fail_at(struct parser *p, size_t at, const char *fmt, ...)
{
	unsigned int line = 1, col = 1;
	size_t i, n;
	va_list ap;

	if (p->ret)
		return p->ret;
	p->ret = -EINVAL;
	for (i = 0; i < at && i < p->len; i++) {
		if (p->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	if (!p->errlen)
		return p->ret;
	n = snprintf(p->err, p->errlen, "%u:%u: ", line, col);
	if (n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return p->ret;
}

static int nomem(struct parser *p)
{
	if (!p->ret) {
		p->ret = -ENOMEM;
		if (p->errlen)
			snprintf(p->err, p->errlen, "out of memory");
	}
	return p->ret;
}

/* What is at pos, for messages */
static int unexpected(struct parser *p, const char *wanted)
{
	unsigned char c;

	if (p->pos >= p->len)
		return fail_at(p, p->pos, "unexpected end of input, expected %s",
			       wanted);
	c = p->s[p->pos];
	if (c >= 0x20 && c < 0x7f)
		return fail_at(p, p->pos, "unexpected '%c', expected %s", c,
			       wanted);
	return fail_at(p, p->pos, "unexpected byte 0x%02x, expected %s", c,
		       wanted);
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) &&
	       p->s[p->pos])
		p->pos++;
}

static int literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n)) {
		size_t i;

		/* point at the first byte that differs, or at the end */
		for (i = 0; i < n && p->pos + i < p->len &&
			    p->s[p->pos + i] == word[i]; i++)
			;
		p->pos += i;
		return unexpected(p, word);
	}
	p->pos += n;
	return 0;
}

static int hex4(struct parser *p, unsigned int *v)
{
	unsigned int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c;

		if (p->pos >= p->len)
			return unexpected(p, "4 hex digits after \\u");
		c = p->s[p->pos];
		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*v |= c - 'A' + 10;
		else
			return unexpected(p, "4 hex digits after \\u");
		p->pos++;
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		o[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = 0xc0 | (cp >> 6);
		o[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = 0xe0 | (cp >> 12);
		o[1] = 0x80 | ((cp >> 6) & 0x3f);
		o[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | (cp >> 18);
	o[1] = 0x80 | ((cp >> 12) & 0x3f);
	o[2] = 0x80 | ((cp >> 6) & 0x3f);
	o[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* At the opening '"'; the unescaped string is never longer than the text */
static int string(struct parser *p, char **out, size_t *outlen)
{
	size_t start = p->pos, n = 0, cap;
	char *o;

	p->pos++;
	cap = p->len - p->pos + 1;
	o = malloc(cap);
	if (!o)
		return nomem(p);
	for (;;) {
		unsigned char c;

		if (p->pos >= p->len) {
			fail_at(p, p->pos,
				"unexpected end of input in a string (it starts at byte %zu)",
				start + 1);
			goto err;
		}
		c = p->s[p->pos];
		if (c == '"') {
			p->pos++;
			break;
		}
		if (c < 0x20) {
			fail_at(p, p->pos,
				"control character 0x%02x in a string (escape it)",
				c);
			goto err;
		}
		if (c != '\\') {
			o[n++] = c;
			p->pos++;
			continue;
		}
		p->pos++;
		if (p->pos >= p->len) {
			unexpected(p, "an escape after '\\'");
			goto err;
		}
		c = p->s[p->pos++];
		switch (c) {
		case '"':
		case '\\':
		case '/':
			o[n++] = c;
			break;
		case 'b':
			o[n++] = '\b';
			break;
		case 'f':
			o[n++] = '\f';
			break;
		case 'n':
			o[n++] = '\n';
			break;
		case 'r':
			o[n++] = '\r';
			break;
		case 't':
			o[n++] = '\t';
			break;
		case 'u': {
			size_t at = p->pos - 2;
			unsigned int cp, lo;

			if (hex4(p, &cp))
				goto err;
			if (cp >= 0xdc00 && cp <= 0xdfff) {
				fail_at(p, at, "lone low surrogate \\u%04x", cp);
				goto err;
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (p->len - p->pos < 2 || p->s[p->pos] != '\\' ||
				    p->s[p->pos + 1] != 'u') {
					fail_at(p, at,
						"high surrogate \\u%04x without a low one",
						cp);
					goto err;
				}
				p->pos += 2;
				if (hex4(p, &lo))
					goto err;
				if (lo < 0xdc00 || lo > 0xdfff) {
					fail_at(p, p->pos - 6,
						"\\u%04x is not a low surrogate", lo);
					goto err;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			/* 6 or 12 bytes of text give at most 4 bytes */
			n += put_utf8(o + n, cp);
			break;
		}
		default:
			p->pos--;
			unexpected(p, "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u");
			goto err;
		}
	}
	o[n] = '\0';
	*out = o;
	*outlen = n;
	return 0;
err:
	free(o);
	return p->ret;
}

static int number(struct parser *p, double *v)
{
	size_t start = p->pos;
	char buf[64], *end;

	if (p->pos < p->len && p->s[p->pos] == '-')
		p->pos++;
	if (p->pos < p->len && p->s[p->pos] == '0') {
		p->pos++;
	} else if (p->pos < p->len && p->s[p->pos] >= '1' &&
		   p->s[p->pos] <= '9') {
		while (p->pos < p->len && p->s[p->pos] >= '0' &&
		       p->s[p->pos] <= '9')
			p->pos++;
	} else {
		return unexpected(p, "a digit");
	}
	if (p->pos < p->len && p->s[p->pos] == '.') {
		p->pos++;
		if (p->pos >= p->len || p->s[p->pos] < '0' || p->s[p->pos] > '9')
			return unexpected(p, "a digit after '.'");
		while (p->pos < p->len && p->s[p->pos] >= '0' &&
		       p->s[p->pos] <= '9')
			p->pos++;
	}
	if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
		p->pos++;
		if (p->pos < p->len &&
		    (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
			p->pos++;
		if (p->pos >= p->len || p->s[p->pos] < '0' || p->s[p->pos] > '9')
			return unexpected(p, "a digit in the exponent");
		while (p->pos < p->len && p->s[p->pos] >= '0' &&
		       p->s[p->pos] <= '9')
			p->pos++;
	}
	if (p->pos - start >= sizeof(buf))
		return fail_at(p, start, "number too long");
	memcpy(buf, p->s + start, p->pos - start);
	buf[p->pos - start] = '\0';
	*v = strtod(buf, &end);
	return 0;
}

static void free_value(struct jr_value *v);
static int value(struct parser *p, struct jr_value *v);

/* Room for one more item (and key) in an array or object */
static int grow(struct parser *p, struct jr_value *v, size_t *cap, bool keys)
{
	size_t ncap = *cap ? *cap * 2 : 8;
	struct jr_value *items;
	char **k;

	if (v->len < *cap)
		return 0;
	items = realloc(v->items, ncap * sizeof(*items));
	if (!items)
		return nomem(p);
	v->items = items;
	if (keys) {
		k = realloc(v->keys, ncap * sizeof(*k));
		if (!k)
			return nomem(p);
		v->keys = k;
	}
	*cap = ncap;
	return 0;
}

/*
 * After an item of an array or object: 1 when a ',' says another follows,
 * 0 at the closing bracket, else the error
 */
static int next_item(struct parser *p, char close)
{
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ',') {
		p->pos++;
		return 1;
	}
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	return unexpected(p, close == ']' ? "',' or ']'" : "',' or '}'");
}

static int array(struct parser *p, struct jr_value *v)
{
	size_t cap = 0;
	int ret;

	v->type = JR_ARRAY;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ']') {
		p->pos++;
		return 0;
	}
	for (;;) {
		if (grow(p, v, &cap, false))
			return p->ret;
		memset(&v->items[v->len], 0, sizeof(v->items[0]));
		v->len++;
		if (value(p, &v->items[v->len - 1]))
			return p->ret;
		ret = next_item(p, ']');
		if (ret <= 0)
			return ret;
	}
}

static int object(struct parser *p, struct jr_value *v)
{
	size_t cap = 0, klen;
	char *key;
	int ret;

	v->type = JR_OBJECT;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == '}') {
		p->pos++;
		return 0;
	}
	for (;;) {
		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != '"')
			return unexpected(p, "a key (a string)");
		if (string(p, &key, &klen))
			return p->ret;
		if (grow(p, v, &cap, true)) {
			free(key);
			return p->ret;
		}
		v->keys[v->len] = key;
		memset(&v->items[v->len], 0, sizeof(v->items[0]));
		v->len++;
		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != ':')
			return unexpected(p, "':'");
		p->pos++;
		if (value(p, &v->items[v->len - 1]))
			return p->ret;
		ret = next_item(p, '}');
		if (ret <= 0)
			return ret;
	}
}

static int value(struct parser *p, struct jr_value *v)
{
	int ret;

	skip_ws(p);
	if (p->pos >= p->len)
		return unexpected(p, "a value");
	switch (p->s[p->pos]) {
	case '{':
	case '[':
		if (++p->depth > JR_MAX_DEPTH)
			return fail_at(p, p->pos, "nested deeper than %d",
				       JR_MAX_DEPTH);
		ret = p->s[p->pos] == '{' ? object(p, v) : array(p, v);
		p->depth--;
		return ret;
	case '"':
		v->type = JR_STRING;
		return string(p, &v->str, &v->len);
	case 't':
		v->type = JR_BOOL;
		v->b = true;
		return literal(p, "true");
	case 'f':
		v->type = JR_BOOL;
		return literal(p, "false");
	case 'n':
		v->type = JR_NULL;
		return literal(p, "null");
	default:
		v->type = JR_NUMBER;
		if (p->s[p->pos] == '-' ||
		    (p->s[p->pos] >= '0' && p->s[p->pos] <= '9'))
			return number(p, &v->num);
		return unexpected(p, "a value");
	}
}

int jr_parse(const char *text, size_t len, struct jr_value **out, char *err,
	     size_t errlen)
{
	struct parser p = { .s = text, .len = len, .err = err,
			    .errlen = errlen };
	struct jr_value *v;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	v = calloc(1, sizeof(*v));
	if (!v)
		return nomem(&p);
	if (!value(&p, v)) {
		skip_ws(&p);
		if (p.pos < p.len)
			unexpected(&p, "the end of input after the value");
	}
	if (p.ret) {
		jr_free(v);
		return p.ret;
	}
	*out = v;
	return 0;
}

int jr_parse_file(const char *path, struct jr_value **out, char *err,
		  size_t errlen)
{
	char msg[JR_ERRLEN], *text = NULL;
	size_t len = 0, cap = 0, n;
	int ret;
	FILE *f;

	*out = NULL;
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	for (;;) {
		if (cap - len < 65536) {
			char *t = realloc(text, cap + 65536);

			if (!t) {
				fclose(f);
				free(text);
				snprintf(err, errlen, "%s: out of memory", path);
				return -ENOMEM;
			}
			text = t;
			cap += 65536;
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		ret = -EIO;
		snprintf(err, errlen, "%s: read error", path);
		fclose(f);
		free(text);
		return ret;
	}
	fclose(f);
	ret = jr_parse(text, len, out, msg, sizeof(msg));
	free(text);
	if (ret)
		snprintf(err, errlen, "%s:%s", path, msg);
	return ret;
}

static void free_value(struct jr_value *v)
{
	size_t i;

	if (v->type == JR_STRING) {
		free(v->str);
		return;
	}
	if (v->type != JR_ARRAY && v->type != JR_OBJECT)
		return;
	for (i = 0; i < v->len; i++) {
		free_value(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
}

void jr_free(struct jr_value *v)
{
	if (!v)
		return;
	free_value(v);
	free(v);
}

const struct jr_value *jr_get(const struct jr_value *v, const char *key)
{
	size_t i;

	if (!v || v->type != JR_OBJECT)
		return NULL;
	for (i = 0; i < v->len; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

const char *jr_str(const struct jr_value *v)
{
	return v && v->type == JR_STRING ? v->str : NULL;
}

double jr_num(const struct jr_value *v)
{
	return v && v->type == JR_NUMBER ? v->num : NAN;
}

int jr_bool(const struct jr_value *v)
{
	return v && v->type == JR_BOOL ? v->b : -1;
}

const char *jr_type_name(enum jr_type t)
{
	static const char *const names[] = {
		[JR_NULL] = "null", [JR_BOOL] = "boolean",
		[JR_NUMBER] = "number", [JR_STRING] = "string",
		[JR_ARRAY] = "array", [JR_OBJECT] = "object",
	};

	return t <= JR_OBJECT ? names[t] : "?";
}
