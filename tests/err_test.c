// SPDX-License-Identifier: GPL-2.0
/*
 * lib/base/err.h: the errno's text once, by the one that saw it; a callee's
 * sentences nest whole in their callers' (no "%.240s" cut), also when
 * they are written into the caller's own buffer.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "err.h"

/* A sentence as long as the core writes (XSK_ERRLEN - 1 = 255 bytes) */
static void core_sentence(char *buf, char c)
{
	memset(buf, c, 255 - strlen(" (Device or resource busy)"));
	strcpy(buf + 255 - strlen(" (Device or resource busy)"),
	       " (Device or resource busy)");
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

TEST(reason_once)
{
	char err[ERR_LEN];

	EXPECT_EQ(-ENOENT, err_set(err, -ENOENT, "opening %s", "x.json"));
	EXPECT_STREQ("opening x.json (No such file or directory)", err);
	/* a note beside a success, no errno */
	EXPECT_EQ(0, err_set(err, 0, "went by %s", "AF_XDP"));
	EXPECT_STREQ("went by AF_XDP", err);
	/* a caller's context: the errno is not said again */
	err_set(err, -EBUSY, "bind to %s", "veth0");
	EXPECT_EQ(-EBUSY, err_wrap(err, -EBUSY, "generator: %s", err));
	EXPECT_STREQ("generator: bind to veth0 (Device or resource busy)", err);
	/* no buffer: only the return value */
	EXPECT_EQ(-EINVAL, err_set(NULL, -EINVAL, "x"));
	EXPECT_EQ(-EINVAL, err_wrap(NULL, -EINVAL, "x"));
}

/*
 * The deepest nesting there is: two core sentences side by side (the
 * generator's native and generic tries), wrapped by the generator, the
 * bench and the sweep's warm-up: every byte arrives
 */
TEST(nested_whole)
{
	char native[ERR_LEN], generic[ERR_LEN], err[ERR_LEN];
	char want[3 * ERR_LEN];

	core_sentence(native, 'n');
	core_sentence(generic, 'g');
	ASSERT_EQ(255U, strlen(native));
	err_wrap(err, -EBUSY, "AF_XDP multi-buffer socket on %s: native: %s; generic: %s",
		 "veth1", native, generic);
	err_wrap(err, -EBUSY, "generator: %s", err);
	err_wrap(err, -EBUSY, "warm-up: %s", err);
	snprintf(want, sizeof(want),
		 "warm-up: generator: AF_XDP multi-buffer socket on veth1: native: %s; generic: %s",
		 native, generic);
	EXPECT_STREQ(want, err);
	EXPECT_EQ(2, count(err, "(Device or resource busy)"));
	EXPECT_EQ(NULL, strstr(err, "..."));
}

/* Past ERR_LEN: cut, and it says so */
TEST(too_long_says_so)
{
	char big[2 * ERR_LEN], err[ERR_LEN];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	err_set(err, -EIO, "%s", big);
	EXPECT_EQ((size_t)ERR_LEN - 1, strlen(err));
	EXPECT_STREQ("...", err + ERR_LEN - 4);
}

TEST_HARNESS_MAIN
