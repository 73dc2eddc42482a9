/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sampling profile of the receiving CPU in measured windows only
 * (Documentation/profiles.rst).
 *
 * One perf event per online CPU (perf_event_open(2), pid -1): hardware
 * cycles when the machine has a PMU, else the software cpu-clock (an
 * hrtimer); kernel IPs and kernel callchains, user-mode samples as one
 * "[user]" frame.  Events are enabled at a window's start and disabled at
 * its end (rxq_bench_run() does both, given rxq_opts.prof); afterwards
 * prof_collect() takes the samples of the CPU that did the receive work
 * into a prof_data, which gathers the windows of one point: folded stacks
 * (task;root;...;leaf), and the leaf ("self") symbols of the samples in
 * the receive path (a callchain through net_rx_action or
 * napi_threaded_poll).  Symbols come from /proc/kallsyms, read after each
 * window (BPF programs are bpf_prog_<tag>_<name> there when
 * net.core.bpf_jit_kallsyms is 1: prof_open() sets it for the run if it
 * was 0, before any program is loaded, and prof_close() puts it back).
 */
#ifndef PROFILE_H
#define PROFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

#include "err.h"

#define PROF_FREQ_HZ	4000	/* samples per second and CPU */
#define PROF_TOP	10	/* symbols in the reports */

struct prof;
struct prof_data;

struct prof_sym {
	const char *name;	/* valid while the prof_data lives */
	__u64 samples;		/* as leaf, in the receive path */
	double share;		/* of the receive path's samples */
};

/*
 * Open the events (window_s: the longest window, to size the rings) and
 * make BPF programs visible in kallsyms.  Call before loading programs.
 */
int prof_open(struct prof **pp, double window_s, char err[ERR_LEN]);
void prof_close(struct prof *p);

const char *prof_event(const struct prof *p);	/* "cycles", "cpu-clock" */
unsigned int prof_freq(const struct prof *p);
/*
 * What limits this profile, in a sentence (symbols hidden by
 * kptr_restrict, bpf_jit_kallsyms set for the run, no PMU), or NULL
 */
const char *prof_note(const struct prof *p);

/* A window's start (empty the rings, enable) and end (disable) */
int prof_enable(struct prof *p);
int prof_disable(struct prof *p);

/*
 * The samples CPU cpu took since prof_enable() into d; every other CPU's
 * are dropped.  Returns the number of samples taken into d, or -errno.
 */
int prof_collect(struct prof *p, int cpu, struct prof_data *d);

/*
 * The same for n CPUs at once, CPU cpus[i]'s samples into ds[i] (two
 * entries may name one CPU: both get its samples); every other CPU's are
 * dropped.  Returns the samples taken, or -errno.
 */
#define PROF_MAX_COLLECT 4
int prof_collect_cpus(struct prof *p, int n, const int *cpus,
		      struct prof_data **ds);

/*
 * Leave out of the next collections the samples taken after mono_ns
 * (mono_ns(), CLOCK_MONOTONIC_RAW): a window whose end is known only
 * afterwards (xdpsock's counted runs end with the last frame that moved,
 * not with the wait for late ones after it).  0: keep them all.
 */
void prof_collect_until(struct prof *p, __u64 mono_ns);

struct prof_data *prof_data_new(void);
/*
 * A prof_data whose top counts all of its CPU's samples, not only the
 * receive path's (an application thread's CPU: xdpsock --profile); its
 * JSON says "scope": "cpu", and rx_samples there are all the samples
 */
struct prof_data *prof_data_new_cpu(void);
void prof_data_free(struct prof_data *d);

struct prof_counts {
	__u64 samples;		/* all, on the CPUs collected */
	__u64 rx_samples;	/* of them, in the receive path */
	__u64 lost;		/* the ring was full (PERF_RECORD_LOST) */
	__u64 windows;		/* prof_collect() calls */
	int cpu;		/* the last window's CPU */
};

void prof_data_counts(const struct prof_data *d, struct prof_counts *c);

/* The receive path's leaf symbols by samples, at most max; returns n */
int prof_data_top(const struct prof_data *d, struct prof_sym *top, int max);

/* "frame;frame;... count" lines, root first, sorted; returns 0 or -errno */
int prof_data_write_folded(const struct prof_data *d, const char *path);

/*
 * The reports, alike in every tool.  ns_per_pkt: the window's measured
 * cost, which each symbol's share divides (NAN: not measured).
 */
struct json;

/*
 * A header line and the top PROF_TOP symbols; every line but the first
 * starts with indent
 */
void prof_print(FILE *f, const struct prof *p, const struct prof_data *d,
		double ns_per_pkt, const char *indent);

/*
 * "profile": {event, frequency_hz, cpu, windows, samples, rx_samples,
 * lost, note, top: [{symbol, samples, share, ns_per_pkt}], folded, svg}
 * into the object being written
 */
void prof_json(struct json *j, const struct prof *p,
	       const struct prof_data *d, double ns_per_pkt,
	       const char *folded, const char *svg);
/* The same object under another key */
void prof_json_key(struct json *j, const char *key, const struct prof *p,
		   const struct prof_data *d, double ns_per_pkt,
		   const char *folded, const char *svg);

/*
 * PREFIX.folded and PREFIX.svg (a flame graph titled title); their paths
 * into folded and svg (len bytes each).  0, or -errno with err set.
 */
int prof_write_files(const struct prof_data *d, const char *prefix,
		     const char *title, char *folded, char *svg, size_t len,
		     char err[ERR_LEN]);

#endif /* PROFILE_H */
