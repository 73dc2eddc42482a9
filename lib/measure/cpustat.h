/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU times from /proc/stat, and a check for foreign load in a window.
 *
 * /proc/stat is in USER_HZ units (sysconf(_SC_CLK_TCK), 100 here) and,
 * without CONFIG_IRQ_TIME_ACCOUNTING, tick-sampled (HZ=250 here): a value
 * is right to within a few ticks per CPU, not to the ns.
 *
 * Foreign load: per CPU, over a window,
 *
 *   unexplained = busy - named threads - softirq outside our process
 *
 * busy = user + nice + system + irq + softirq from /proc/stat; the named
 * threads' time is exact (schedstat) and already contains the softirqs
 * that ran while they were current (no IRQ time accounting), so only the
 * exact softirq time that ran in other contexts (idle, ksoftirqd, other
 * processes; sirq all_ns - own_ns) is subtracted.  Threads pinned to one
 * CPU are charged to it; unpinned threads only to the sum over CPUs.  What
 * is left is other processes' work, hardirqs and the tick error of
 * /proc/stat.  Steal time is reported apart.
 */
#ifndef CPUSTAT_H
#define CPUSTAT_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#include "softirq_cost.h"

#define CPUSTAT_MAX_CPUS	64
#define LOAD_MAX_THREADS	16

/* ns */
struct cpu_times {
	__u64 user, nice, system, idle, iowait, irq, softirq, steal;
};

/*
 * Per-CPU lines of /proc/stat into t[0..ncpus-1] (by CPU number; CPUs not
 * listed, e.g. offline, are zeroed).  Returns 1 + the highest CPU number
 * seen (at most ncpus), or -errno.
 */
int cpustat_read(struct cpu_times *t, int ncpus);

/* user + nice + system + irq + softirq */
__u64 cpu_times_busy(const struct cpu_times *t);

struct load_thread {
	pid_t tid;
	int cpu;		/* the CPU it is pinned to, or -1 */
};

struct load_snap {
	__u64 t_ns;		/* CLOCK_MONOTONIC_RAW */
	int ncpus;
	int nthreads;
	struct cpu_times cpu[CPUSTAT_MAX_CPUS];
	struct sirq_cpu sirq[CPUSTAT_MAX_CPUS];
	__u64 thread_ns[LOAD_MAX_THREADS];
	bool children;		/* children_ns taken (load_snap_children()) */
	__u64 children_ns;	/* CPU time of the waited-for descendants */
};

/* One end of a window; sq may be NULL (no softirq is then subtracted) */
int load_snap_take(struct load_snap *s, struct sirq *sq,
		   const struct load_thread *th, int nth);

/*
 * And the CPU time of the process's descendants that have been waited for
 * (getrusage(RUSAGE_CHILDREN): utime + stime, whose sum is the exact
 * runtime, softirqs in their context included).  When both ends have it,
 * load_check() counts the difference as unpinned named time: for a tool
 * that runs a command and asks how much else ran beside it.  0 or -errno.
 */
int load_snap_children(struct load_snap *s);

struct load_cpu {
	double busy_ns;
	double threads_ns;	/* pinned named threads */
	double softirq_ns;	/* exact, outside our process */
	double unexplained_ns;	/* may be < 0: tick error */
	double steal_ns;
};

struct load_report {
	int ncpus;
	double window_ns;
	struct load_cpu cpu[CPUSTAT_MAX_CPUS];
	double unpinned_ns;	/* unpinned named threads, and children */
	double unexplained_ns;	/* sum over CPUs, minus unpinned_ns */
	double worst_frac;	/* largest unexplained / window that decided */
	int worst_cpu;		/* its CPU, or -1 for the sum */
	bool disturbed;
	double resolution;	/* /proc/stat's units over the window, as worst_frac */
};

/*
 * Window a..b (same threads, same order as given to load_snap_take()).
 * Disturbed when unexplained time exceeds max_frac of the window: on any
 * CPU when every named thread is pinned, else in the sum over CPUs.
 * worst_frac is kept within what the CPUs can give: 0..1 for one CPU,
 * 0..ncpus for the sum (the tick error may take the raw figure past
 * either end in a short window).  /proc/stat counts in units of
 * 1/USER_HZ (10 ms): r->resolution is one unit a CPU that decided, over
 * the window, and a window where it is above max_frac is too short to
 * judge (windows of 1 s and max_frac around 0.05 are sensible).  Returns
 * r->disturbed.
 */
bool load_check(const struct load_snap *a, const struct load_snap *b,
		const struct load_thread *th, int nth, double max_frac,
		struct load_report *r);

#endif /* CPUSTAT_H */
