/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep's result, schema xdp-sweep/1 (Documentation/sweep.schema.json),
 * read: the one reader, of xdp_compare, xdp_sweep --ab and the tests
 * (lib/sweep/sweep_result.h writes it).  It needs no sweep machinery, no AF_XDP
 * socket and no BPF.
 *
 * sweep_doc_load() reads a file and checks what the readers rely on: the
 * header, env, the measurement options, and each row of points[] and
 * stacks[] (what names it, its runs' figures), refusing two rows with
 * one key.  Every number read is checked against its range (what
 * xdp_sweep's options take and a measurement gives: a size in 46..9014,
 * 46..1514 for a stack's row), and the message says it.  Its errors go
 * to stderr as "TOOL: PATH: not a valid sweep result: WHAT", the path and
 * the file's strings escaped (lib/base/esc.h), and it returns -errno.
 */
#ifndef SWEEP_DOC_H
#define SWEEP_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "json_read.h"

#define SWEEP_SCHEMA	"xdp-sweep/1"
#define SWEEP_VERSION	"0.2"
#define SWEEP_STACK_MAX_SIZE	1514	/* the receive stacks' largest frame */

/* A row of points[] or stacks[], and what two results' are matched by */
struct sweep_item {
	const struct jr_value *v;
	size_t index;		/* in points[] or stacks[] */
	char key[80];		/* "p XDP_DROP native 64 1", "s af_xdp - 64" */
};

struct sweep_doc {
	const char *tool;	/* who reads it: its messages' prefix */
	const char *path;
	struct jr_value *root;
	const char *version, *started;
	const char *release, *config, *cpu, *napi;
	const char *unit;	/* "ns", or "insns" under QEMU -icount */
	const char *driver;	/* of a NIC pair (options.devs); else NULL */
	const char *run_lock;	/* how it ran beside other runs; NULL: not said */
	bool interrupted;
	double ghz;
	const struct jr_value *opts;
	/* the points, then the stacks' rows */
	struct sweep_item *items;
	size_t nitems, npoints;
	struct sweep_item **sorted;	/* items by key */
};

/*
 * The measurement options (numbers in "options") that must match, and
 * those that only newer results have (NULL-terminated)
 */
extern const char *const sweep_match_opts[];
extern const char *const sweep_newer_opts[];

int sweep_doc_load(struct sweep_doc *d, const char *tool, const char *path,
		   size_t max_input);
void sweep_doc_free(struct sweep_doc *d);
/* d's row of that key, or NULL */
const struct sweep_item *sweep_doc_find(const struct sweep_doc *d,
					const char *key);
/* points[i] and stacks[i] (NULL past the end) */
const struct jr_value *sweep_doc_point(const struct sweep_doc *d, size_t i);
const struct jr_value *sweep_doc_stack(const struct sweep_doc *d, size_t i);

/* A receive stack's row, not an XDP action's */
bool sweep_row_is_stack(const struct jr_value *p);
/*
 * "XDP_TX native 64B 1 flow", "AF_XDP rxdrop native 64B" (field
 * app_ns_per_pkt: + " app"); driver (a NIC pair's) after the name
 */
void sweep_row_label(char *buf, size_t len, const struct jr_value *p,
		     const char *field, const char *driver);

#endif /* SWEEP_DOC_H */
