// SPDX-License-Identifier: GPL-2.0
/* Errors: one sentence, the errno's text once.  See err.h. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

static const char cut[] = "...";

/* Format into a buffer of our own first: the arguments may point into err */
static int err_vformat(char err[ERR_LEN], int ret, bool reason, const char *fmt,
		       va_list ap)
{
	char buf[ERR_LEN];
	int n;

	if (!err)
		return ret;
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0)
		n = snprintf(buf, sizeof(buf), "(unprintable message)");
	if (reason && ret < 0 && (size_t)n < sizeof(buf))
		n += snprintf(buf + n, sizeof(buf) - n, " (%s)", strerror(-ret));
	if ((size_t)n >= sizeof(buf))
		memcpy(buf + sizeof(buf) - sizeof(cut), cut, sizeof(cut));
	memcpy(err, buf, strlen(buf) + 1);
	return ret;
}

int err_set(char err[ERR_LEN], int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ret = err_vformat(err, ret, true, fmt, ap);
	va_end(ap);
	return ret;
}

int err_wrap(char err[ERR_LEN], int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ret = err_vformat(err, ret, false, fmt, ap);
	va_end(ap);
	return ret;
}
