/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An injected cost of known size for XDP programs: n iterations of an
 * inline multiply-add on a value the compiler cannot fold, so that a
 * measurement can be checked against a change of n iterations.  n comes
 * from read-only data, a constant when the verifier runs: it walks every
 * iteration, hence the cap, and with n == 0 the loop is dead code.  The
 * caller must use the result (e.g. count it when it is 1), or the compiler
 * removes the loop.
 */
#ifndef XSK_SPIN_H
#define XSK_SPIN_H

#include <linux/types.h>

#define XSK_SPIN_MAX	4096

#ifdef __bpf__
static __always_inline __u64 xsk_spin(__u32 n, __u64 acc)
{
	__u32 i;

	for (i = 0; i < n && i < XSK_SPIN_MAX; i++)
		acc = acc * 31 + i;
	return acc;
}
#endif /* __bpf__ */

#endif /* XSK_SPIN_H */
