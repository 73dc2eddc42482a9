/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An xskb_result as JSON: the one writer of its keys, for xdpsock's report
 * and each run of the sweep's receive-stack rows (lib/sweep/sweep_result.c).
 * The keys go into the caller's open object (Documentation/xdpsock.rst,
 * "The JSON result", lists them).  o, the options in force, adds what was
 * asked beside what happened: placement's *_asked, the generator's rate,
 * "delivered" null for rxdrop; with NULL they are left out.
 * xdp_statistics is an AF_XDP socket's only.
 */
#ifndef XSKB_JSON_H
#define XSKB_JSON_H

#include "json.h"
#include "xsk_bench.h"

void xskb_result_json(struct json *j, const struct xskb_result *r,
		      const struct xskb_opts *o, double ghz);

#endif /* XSKB_JSON_H */
