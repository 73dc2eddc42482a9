/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors, the way every module of lib/ reports them: a function that can
 * fail returns 0 or a negative errno and, given an error buffer (ERR_LEN
 * bytes; NULL for none), writes one sentence there that names the step and
 * the value that was refused.
 *
 * The errno's text is said once, by the function that saw the errno:
 * err_set() ends its sentence with " (strerror(-ret))" whenever ret < 0,
 * so a caller never appends strerror() itself.  A caller that puts its
 * context around sentences its callees wrote (into err itself or into
 * buffers of their own) uses err_wrap(), which says no errno again; its
 * arguments may point into err.  A refusal of what was asked, whose
 * sentence says why, is written with err_wrap() too: "(Invalid argument)"
 * after it would add nothing.
 *
 * Nothing is cut: a sentence of the core (xsk_core.h) or of lib/ is a
 * step, a value or two and an errno, under 300 bytes, and ERR_LEN holds
 * three levels of context around two of them side by side (the deepest
 * nesting there is: tests/err_test.c); should a message ever not fit, it
 * ends in "..." rather than silently short.  ret >= 0 writes the sentence
 * without an errno (a note beside a success).
 *
 * ERR_LEN is the core's XSK_ERRLEN (lib/bench/trafficgen.c asserts it, the base
 * cannot see the core): a buffer of either size takes any sentence.
 */
#ifndef ERR_H
#define ERR_H

#define ERR_LEN		1024

int err_set(char err[ERR_LEN], int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int err_wrap(char err[ERR_LEN], int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* ERR_H */
