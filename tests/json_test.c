// SPDX-License-Identifier: GPL-2.0
/*
 * lib/base/json: strings that are not UTF-8 come out as \ufffd, one for
 * each maximal ill-formed part, and well-formed UTF-8 passes through
 * unchanged; the exact bytes written for each case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "json.h"

/* s as one compact JSON string value, in buf (malloc'd) */
static int render(const char *s, char **buf)
{
	struct json j;
	size_t len;
	FILE *f = open_memstream(buf, &len);
	int ret;

	if (!f)
		return -1;
	json_init(&j, f, 0);
	json_string(&j, s);
	ret = json_finish(&j);
	fclose(f);
	return ret;
}

static const struct {
	const char *in, *out;
} cases[] = {
	/* well-formed: passes through */
	{ "plain", "\"plain\"\n" },
	{ "caf\xc3\xa9", "\"caf\xc3\xa9\"\n" },			/* U+00E9 */
	{ "\xe2\x82\xac", "\"\xe2\x82\xac\"\n" },		/* U+20AC */
	{ "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"\n" },	/* U+1F600 */
	{ "\xed\x9f\xbf", "\"\xed\x9f\xbf\"\n" },		/* U+D7FF */
	{ "\xee\x80\x80", "\"\xee\x80\x80\"\n" },		/* U+E000 */
	{ "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"\n" },	/* U+10FFFF */
	{ "\x7f", "\"\x7f\"\n" },
	/* bad lead bytes */
	{ "bad \xff title", "\"bad \\ufffd title\"\n" },
	{ "\xfe\xff", "\"\\ufffd\\ufffd\"\n" },
	{ "\xc0\xaf", "\"\\ufffd\\ufffd\"\n" },		/* overlong '/' */
	{ "\xc1\xbf", "\"\\ufffd\\ufffd\"\n" },
	{ "\xf5\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"\n" },
	/* a stray continuation byte */
	{ "a\x80z", "\"a\\ufffdz\"\n" },
	/* a bad continuation: the lead replaced, the next byte kept */
	{ "\xc3(", "\"\\ufffd(\"\n" },
	{ "\xe2\x82(", "\"\\ufffd(\"\n" },
	{ "\xf0\x9f\x98(", "\"\\ufffd(\"\n" },
	{ "\xe2\x82\"", "\"\\ufffd\\\"\"\n" },
	/* overlong forms of three and four bytes */
	{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"\n" },
	{ "\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"\n" },
	/* surrogates, U+D800 and U+DFFF */
	{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"\n" },
	{ "\xed\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\"\n" },
	/* above U+10FFFF: U+110000 */
	{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"\n" },
	/* cut short by the string's end */
	{ "x\xc3", "\"x\\ufffd\"\n" },
	{ "x\xe2\x82", "\"x\\ufffd\"\n" },
	{ "x\xf0\x9f\x98", "\"x\\ufffd\"\n" },
	/* escapes still apply next to the replacements */
	{ "\xff\n\xff", "\"\\ufffd\\u000a\\ufffd\"\n" },
};

TEST(strings_are_utf8)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;

		ASSERT_EQ(0, render(cases[i].in, &buf));
		if (strcmp(buf, cases[i].out))
			TH_LOG("case %zu: got %s, want %s", i, buf,
			       cases[i].out);
		EXPECT_STREQ(cases[i].out, buf);
		free(buf);
	}
}

/* Keys go through the same escaping */
TEST(keys_are_utf8)
{
	char *buf = NULL;
	struct json j;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_NE(NULL, f);
	json_init(&j, f, 0);
	json_begin_object(&j);
	json_kv_string(&j, "k\xff", "v\xc3\xa9");
	json_end_object(&j);
	ASSERT_EQ(0, json_finish(&j));
	fclose(f);
	EXPECT_STREQ("{\"k\\ufffd\":\"v\xc3\xa9\"}\n", buf);
	free(buf);
}

TEST_HARNESS_MAIN
