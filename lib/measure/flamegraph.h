/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flame graph, as an SVG file a browser opens, from folded stacks
 * ("root;child;leaf count" lines, as lib/measure/profile.c and the usual
 * stackcollapse scripts write them).  Root at the bottom, a frame's width
 * in proportion to its samples, children in name order, a <title> tooltip
 * on every frame (name, samples, share); colours by a hash of the name,
 * warm for kernel functions, green for BPF programs (bpf_prog_<tag>_<name>,
 * not functions such as bpf_prog_test_run_xdp), grey for tasks and
 * [user].  Frames narrower than 0.1% of the width are left out (their
 * samples stay in their parent's width).  No scripts.
 */
#ifndef FLAMEGRAPH_H
#define FLAMEGRAPH_H

#include "err.h"

/*
 * folded -> svg with title over it; 0, or -errno with a sentence in err
 * (ERR_LEN bytes)
 */
int flamegraph_svg(const char *folded, const char *svg, const char *title,
		   char err[ERR_LEN]);

#endif /* FLAMEGRAPH_H */
