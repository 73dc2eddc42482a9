/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's side of the exact mode's per-function counts: mark a
 * measured window's start and end for the QEMU plugin
 * (plugin/insn_window.c, Documentation/exact_cost.rst).
 *
 * The marks are "xchg %rcx,%rcx" and "xchg %rdx,%rdx" with the window's
 * id in %rax: no-ops anywhere else, so they are always executed.  When
 * XDP_COST_WINDOW_DIR names a directory, icount_window_stop() also writes
 * the BPF symbols of /proc/kallsyms there as bpf-ID.syms (the programs of
 * that window, which are gone by the time the host folds the counts).  A
 * program loaded and unloaded inside the window (the generator's, each
 * run) is not there at its end: icount_window_note_prog() adds it when it
 * is loaded, or its instructions would go to the listed program below it.
 */
#ifndef ICOUNT_WINDOW_H
#define ICOUNT_WINDOW_H

#include <linux/types.h>

/* A new window's id (the pid, and a count within the process) */
__u64 icount_window_start(void);
void icount_window_stop(__u64 id);
/* Add a loaded program to the open window's symbols (no-op otherwise) */
void icount_window_note_prog(int prog_fd);

#endif /* ICOUNT_WINDOW_H */
