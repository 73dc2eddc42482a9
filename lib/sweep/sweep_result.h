/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep's result, schema xdp-sweep/1 (Documentation/sweep.schema.json),
 * as xdp_sweep writes it: sweep_result_write() writes a side's points.
 * It is read back in one place, lib/report/sweep_doc.h, which knows no sweep
 * machinery (xdp_compare links neither the AF_XDP core nor libbpf).
 */
#ifndef SWEEP_RESULT_H
#define SWEEP_RESULT_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep.h"
#include "sweep_doc.h"

/* What a result says beyond its points */
struct sweep_result_info {
	const char *started;	/* "2026-01-01T00:00:00Z" */
	bool interrupted;
	const char *run_lock;	/* cli_lock_state() */
	double ghz;
};

/* A result begun now: started (ISO 8601, UTC), BASE (DIR/sweep-STAMP) */
void sweep_result_name(const char *dir, char *started, size_t slen,
		       char *base, size_t blen);
int sweep_result_write(const char *path, const struct sweep_result_info *in,
		       const struct sweep_cfg *c, const struct sweep_point *pts,
		       unsigned int n);

#endif /* SWEEP_RESULT_H */
