/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For tests that read what a tool wrote: its JSON through the project's
 * reader (lib/base/json_read.h), by value, so that a change of indentation,
 * spacing or key order does not fail a test and a wrong value does; a
 * schema check of a JSON file; a line of its text by its words, so that
 * the width of a column does not matter.
 *
 * A path is keys and array indices: "points[0].profile.top[2].symbol",
 * "[1].size" (the document an array), "" (the value itself).  A key is
 * any run of characters other than '.', '[' and ']'.
 *
 * Mind kselftest_harness.h: "EXPECT_EQ(a, b) TH_LOG(...)" is two
 * statements, so the body of a for or an if that holds one needs braces
 * (without, TH_LOG runs after the loop, with its last index).
 */
#ifndef OUT_CHECK_H
#define OUT_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "run_cmd.h"

/* The value at path in v; NULL when v or a step is missing or malformed */
static inline const struct jr_value *jt_at(const struct jr_value *v,
					   const char *path)
{
	char key[128];
	size_t n;

	while (v && *path) {
		if (*path == '.') {
			path++;
		} else if (*path == '[') {
			char *end;
			unsigned long i = strtoul(path + 1, &end, 10);

			if (end == path + 1 || *end != ']')
				return NULL;
			v = jr_at(v, i);
			path = end + 1;
		} else {
			n = strcspn(path, ".[]");
			if (!n || n >= sizeof(key))
				return NULL;
			memcpy(key, path, n);
			key[n] = '\0';
			v = jr_get(v, key);
			path += n;
		}
	}
	return v;
}

/* The number at path; NaN when there is none (no comparison holds) */
static inline double jt_num(const struct jr_value *v, const char *path)
{
	v = jt_at(v, path);
	return v ? jr_num(v) : NAN;
}

/* The string at path; NULL when there is none */
static inline const char *jt_str(const struct jr_value *v, const char *path)
{
	v = jt_at(v, path);
	return v ? jr_str(v) : NULL;
}

/* The string at path, or "(none)" (for EXPECT_STREQ and messages) */
static inline const char *jt_strz(const struct jr_value *v, const char *path)
{
	return jt_str(v, path) ?: "(none)";
}

/* 1 true, 0 false, -1 no boolean there */
static inline int jt_bool(const struct jr_value *v, const char *path)
{
	v = jt_at(v, path);
	return v ? jr_bool(v) : -1;
}

/* The items of the array at path; 0 when there is none */
static inline size_t jt_len(const struct jr_value *v, const char *path)
{
	return jr_len(jt_at(v, path));
}

/* There is a value of type t at path */
static inline bool jt_is(const struct jr_value *v, const char *path,
			 enum jr_type t)
{
	v = jt_at(v, path);
	return v && jr_type(v) == t;
}

/* There is a null at path (not: nothing there) */
static inline bool jt_null(const struct jr_value *v, const char *path)
{
	return jt_is(v, path, JR_NULL);
}

/* The first item of the array at path whose member key is the string s */
static inline const struct jr_value *jt_find(const struct jr_value *v,
					     const char *path, const char *key,
					     const char *s)
{
	const struct jr_value *a = jt_at(v, path);
	size_t i;

	for (i = 0; i < jr_len(a); i++) {
		const char *got = jr_str(jr_get(jr_at(a, i), key));

		if (got && !strcmp(got, s))
			return jr_at(a, i);
	}
	return NULL;
}

/*
 * In a kselftest_harness test: got within eps of want (NaN never is);
 * both printed as they are when not
 */
#define EXPECT_CLOSE(want, got, eps)					\
	do {								\
		double __w = (want), __g = (got);			\
									\
		EXPECT_GE((double)(eps), fabs(__w - __g))		\
			TH_LOG("%s: %.17g, want %.17g", #got, __g, __w); \
	} while (0)

/* text parsed (a tool's stdout): the root, or NULL and why in err */
static inline struct jr_value *jt_parse(const char *text, char *err,
					size_t len)
{
	struct jr_value *v = NULL;

	if (jr_parse(text, strlen(text), &v, err, len))
		return NULL;
	return v;
}

/* The same for a file */
static inline struct jr_value *jt_parse_file(const char *path, char *err,
					     size_t len)
{
	struct jr_value *v = NULL;

	if (jr_parse_file(path, JR_MAX_INPUT, &v, err, len))
		return NULL;
	return v;
}

/*
 * The value at dpath of the JSON file doc, less its member at cut (a path
 * in that value, NULL for none), against the part at spath of the JSON
 * schema file schema ("" the whole schema): 0 valid, 1 not, -1 the check
 * could not run; the validator's words in msg.  The validator is
 * python3-jsonschema (make deps): the project has no validator of its
 * own, and this is the one place the tests call it.
 */
static inline int jt_schema_check(const char *doc, const char *dpath,
				  const char *cut, const char *schema,
				  const char *spath, char *msg, size_t len)
{
	char cmd[2048];
	int rc;

	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 - '%s' '%s' '%s' '%s' '%s' <<'EOF' 2>&1\n"
		 "import json, re, sys, jsonschema\n"
		 "def at(v, p):\n"
		 "    for k in re.findall(r'[^.\\[\\]]+', p):\n"
		 "        v = v[int(k)] if isinstance(v, list) else v[k]\n"
		 "    return v\n"
		 "doc, dpath, cut, schema, spath = sys.argv[1:6]\n"
		 "v = at(json.load(open(doc)), dpath)\n"
		 "if cut:\n"
		 "    k = re.findall(r'[^.\\[\\]]+', cut)\n"
		 "    p = at(v, '.'.join(k[:-1]))\n"
		 "    del p[int(k[-1]) if isinstance(p, list) else k[-1]]\n"
		 "try:\n"
		 "    jsonschema.validate(v, at(json.load(open(schema)), spath))\n"
		 "except jsonschema.ValidationError as e:\n"
		 "    print('not valid:', e.message)\n"
		 "    sys.exit(1)\n"
		 "print('valid')\n"
		 "EOF", doc, dpath, cut ?: "", schema, spath);
	rc = run_cmd(cmd, msg, len);
	return rc == 0 || rc == 1 ? rc : -1;
}

/*
 * A line of text whose first words are those of want (words: split at
 * blanks, so that the columns' widths do not matter)
 */
static inline bool has_words(const char *text, const char *want)
{
	char line[512], w[256], *save1, *save2, *a, *b;
	const char *p = text, *nl;

	for (; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p), p);
		snprintf(w, sizeof(w), "%s", want);
		a = strtok_r(line, " \t", &save1);
		b = strtok_r(w, " \t", &save2);
		while (a && b && !strcmp(a, b)) {
			a = strtok_r(NULL, " \t", &save1);
			b = strtok_r(NULL, " \t", &save2);
		}
		if (!b)
			return true;
		if (!*nl)
			break;
	}
	return false;
}

#endif /* OUT_CHECK_H */
