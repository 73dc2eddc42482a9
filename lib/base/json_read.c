// SPDX-License-Identifier: GPL-2.0
/*
 * Reading JSON (json_read.h) with jansson: a struct jr_value is a json_t
 * of the document.  A file is streamed to the parser from lib/base/input.h,
 * which counts its bytes and bounds the wait for a pipe's, so that neither
 * the whole text nor more than the limit is ever read.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "err.h"
#include "esc.h"
#include "input.h"
#include "json_read.h"

#define FLAGS	(JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | \
		 JSON_REJECT_DUPLICATES)

/*
 * jansson 2.14 does not survive every failed allocation: a 10 MB string
 * under ulimit -v 20000 ends in SIGSEGV inside its lexer.  Its allocations
 * go through this one, which ends the program instead, with a message and
 * exit status 1 (atexit handlers run: the tools' lock and files go).
 */
static const char *reading;	/* the file being read, escaped; NULL: text */

static void *alloc_or_exit(size_t n)
{
	void *p = malloc(n);

	if (!p && n) {
		fprintf(stderr, "%s: %s%sout of memory reading JSON (%zu bytes more)\n",
			program_invocation_short_name, reading ?: "",
			reading ? ": " : "", n);
		exit(1);
	}
	return p;
}

static void use_alloc(void)
{
	static bool done;

	if (!done)
		json_set_alloc_funcs(alloc_or_exit, free);
	done = true;
}

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

	use_alloc();
	j = json_loadb(text, len, FLAGS, &e);
	*out = (struct jr_value *)j;
	return j ? 0 : failed(&e, err, errlen);
}

static size_t read_some(void *buf, size_t buflen, void *data)
{
	return fread(buf, 1, buflen, data);
}

int jr_parse_file(const char *path, size_t max, struct jr_value **out,
		  char *err, size_t errlen)
{
	char msg[ERR_LEN], text[JR_ERRLEN], shown[ERR_LEN / 2];
	struct input in;
	json_error_t e;
	json_t *j;
	int ret;

	*out = NULL;
	ret = input_open(&in, path, max, INPUT_WAIT_S, msg);
	if (ret)
		goto out;
	use_alloc();
	reading = in.path;
	j = json_load_callback(read_some, in.f, FLAGS, &e);
	reading = NULL;
	/* the parser takes a short read for the end: what ended it first */
	ret = input_close(&in, msg);
	if (ret) {
		json_decref(j);
		goto out;
	}
	if (j) {
		*out = (struct jr_value *)j;
		return 0;
	}
	if (!in.len) {
		ret = err_wrap(msg, -EINVAL, "%s: empty, not a JSON document",
			       in.path);
		goto out;
	}
	ret = failed(&e, text, sizeof(text));
	err_wrap(msg, ret, "%s:%s%s", in.path, ret == -ENOMEM ? " " : "",
		 esc_into(shown, sizeof(shown), text));
out:
	snprintf(err, errlen, "%s", msg);
	return ret;
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
