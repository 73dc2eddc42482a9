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

/* a sha256 in hex, its newline and the NUL, with room to see a longer line */
#define SWEEP_CFGHASH_LEN	80

/* What a result says beyond its points */
struct sweep_result_info {
	const char *started;	/* "2026-01-01T00:00:00Z" */
	bool interrupted;
	const char *run_lock;	/* cli_lock_state() */
	double ghz;
	char cfghash[SWEEP_CFGHASH_LEN];	/* sweep_config_hash() */
};

/*
 * The sha256 of the running kernel's config (/proc/config.gz, else
 * /boot/config-RELEASE), or "unknown": taken before the runs, by a
 * pipeline whose wait a stop ends (xenv_run()), so that a stop while it
 * runs is the run's stop, and the result says interrupted
 */
void sweep_config_hash(char out[SWEEP_CFGHASH_LEN]);

/* --out's length at most, and room for BASE (DIR/sweep-STAMP[-K]) */
#define SWEEP_OUT_MAX	300
#define SWEEP_BASE_LEN	(SWEEP_OUT_MAX + 32)

/*
 * A result begun now: started (ISO 8601, UTC), and BASE (DIR/sweep-STAMP,
 * or DIR/sweep-STAMP-K when another run took that name in the same second)
 * of SWEEP_BASE_LEN bytes.  The name is claimed by making its first file,
 * BASE.json or (ab) BASE-a.json, empty and exclusively (O_EXCL): two runs
 * never get one name.  The claim is held (flock) until the process ends;
 * an empty file of a claim's name in DIR, of this user, that no one holds,
 * older than 10 s, is the claim of a killed run and is removed first.  A
 * DIR gone meanwhile (removed empty by another run) is made again, once.  0, or -errno
 * (-ENAMETOOLONG for a DIR longer than SWEEP_OUT_MAX).
 */
int sweep_result_name(const char *dir, bool ab, char *started, size_t slen,
		      char base[SWEEP_BASE_LEN]);
int sweep_result_write(const char *path, const struct sweep_result_info *in,
		       const struct sweep_cfg *c, const struct sweep_point *pts,
		       unsigned int n);

#endif /* SWEEP_RESULT_H */
