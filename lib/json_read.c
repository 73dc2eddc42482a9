// SPDX-License-Identifier: GPL-2.0
/*
 * Reading JSON (json_read.h) with jansson: a struct jr_value is a json_t
 * of the document.  A file is streamed to the parser through a callback
 * that counts its bytes, so that neither the whole text nor more than the
 * limit is ever read.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <jansson.h>

#include "json_read.h"

#define FLAGS	(JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | \
		 JSON_REJECT_DUPLICATES)

static const json_t *J(const struct jr_value *v)
{
	return (const json_t *)v;
}

/*
 * "LINE:COLUMN: what", or "out of memory"; the error's return value.
 * jansson fails to add a member or an item for want of memory without a
 * message (2.14): an error without one is that too.
 */
static int failed(const json_error_t *e, char *err, size_t errlen)
{
	if (json_error_code(e) == json_error_out_of_memory || !e->text[0]) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(err, errlen, "%d:%d: %s", e->line, e->column, e->text);
	return -EINVAL;
}

int jr_parse(const char *text, size_t len, struct jr_value **out, char *err,
	     size_t errlen)
{
	json_error_t e;
	json_t *j;

	j = json_loadb(text, len, FLAGS, &e);
	*out = (struct jr_value *)j;
	return j ? 0 : failed(&e, err, errlen);
}

struct source {
	FILE *f;
	size_t max, len;
	int err;		/* a read error's errno, or -EFBIG */
};

/* Up to buflen bytes, and one past the limit to see that it is passed */
static size_t read_some(void *buf, size_t buflen, void *data)
{
	struct source *s = data;
	size_t n;

	if (s->len > s->max)
		return 0;
	if (buflen > s->max - s->len + 1)
		buflen = s->max - s->len + 1;
	n = fread(buf, 1, buflen, s->f);
	if (!n && ferror(s->f))
		s->err = errno ?: EIO;
	s->len += n;
	return n;
}

/*
 * A FIFO that no one writes to would block open() for ever: open without
 * waiting, then read as usual (no writer: the end at once).  A regular
 * file over the limit is refused before a byte is read.
 */
static int open_input(const char *path, size_t max, FILE **f)
{
	struct stat st;
	int fd, fl;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) || fstat(fd, &st))
		goto fail;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (S_ISREG(st.st_mode) && (size_t)st.st_size > max) {
		close(fd);
		return -EFBIG;
	}
	*f = fdopen(fd, "r");
	if (*f)
		return 0;
fail:
	fl = -errno;
	close(fd);
	return fl;
}

int jr_parse_file(const char *path, size_t max, struct jr_value **out,
		  char *err, size_t errlen)
{
	struct source s = { .max = max };
	char msg[JR_ERRLEN];
	json_error_t e;
	json_t *j;
	int ret;

	*out = NULL;
	ret = open_input(path, max, &s.f);
	if (ret == -EFBIG) {
		snprintf(err, errlen, "%s: larger than the input limit of %zu bytes",
			 path, max);
		return ret;
	}
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	j = json_load_callback(read_some, &s, FLAGS, &e);
	/* the parser takes a short read for the end: say what ended it */
	if (!s.err && s.len > s.max)
		s.err = -EFBIG;
	fclose(s.f);
	if (s.err) {
		json_decref(j);
		if (s.err == -EFBIG) {
			snprintf(err, errlen, "%s: larger than the input limit of %zu bytes",
				 path, max);
			return -EFBIG;
		}
		snprintf(err, errlen, "%s: %s", path, strerror(s.err));
		return -s.err;
	}
	if (!j) {
		ret = failed(&e, msg, sizeof(msg));
		snprintf(err, errlen, "%s:%s%s", path, ret == -ENOMEM ? " " : "",
			 msg);
		return ret;
	}
	*out = (struct jr_value *)j;
	return 0;
}

void jr_free(struct jr_value *v)
{
	json_decref((json_t *)v);
}

enum jr_type jr_type(const struct jr_value *v)
{
	switch (json_typeof(J(v))) {
	case JSON_OBJECT:
		return JR_OBJECT;
	case JSON_ARRAY:
		return JR_ARRAY;
	case JSON_STRING:
		return JR_STRING;
	case JSON_INTEGER:
	case JSON_REAL:
		return JR_NUMBER;
	case JSON_TRUE:
	case JSON_FALSE:
		return JR_BOOL;
	default:
		return JR_NULL;
	}
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

const struct jr_value *jr_get(const struct jr_value *v, const char *key)
{
	return (const struct jr_value *)json_object_get(J(v), key);
}

size_t jr_len(const struct jr_value *v)
{
	return json_array_size(J(v));
}

const struct jr_value *jr_at(const struct jr_value *v, size_t i)
{
	return (const struct jr_value *)json_array_get(J(v), i);
}

const char *jr_str(const struct jr_value *v)
{
	return json_string_value(J(v));
}

double jr_num(const struct jr_value *v)
{
	return json_is_number(J(v)) ? json_number_value(J(v)) : NAN;
}

int jr_bool(const struct jr_value *v)
{
	return json_is_boolean(J(v)) ? json_is_true(J(v)) : -1;
}
