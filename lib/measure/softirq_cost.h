/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exact softirq CPU time per CPU, from BPF programs on the irq:softirq_entry
 * and irq:softirq_exit tracepoints (bpf_ktime_get_ns() at entry and exit).
 *
 * /proc/stat's softirq column is tick-sampled when the kernel has no
 * CONFIG_IRQ_TIME_ACCOUNTING; these counters are not.  Counters are
 * cumulative from sirq_open(); subtract two reads for a window.  Every
 * sirq_open() loads its own programs and maps, so readers are independent.
 */
#ifndef SOFTIRQ_COST_H
#define SOFTIRQ_COST_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#include "err.h"

struct sirq_cpu {
	__u64 net_rx_ns;	/* NET_RX_SOFTIRQ (3) */
	__u64 net_rx_count;
	__u64 net_tx_ns;	/* NET_TX_SOFTIRQ (2) */
	__u64 net_tx_count;
	__u64 all_ns;		/* every softirq vector */
	__u64 all_count;
	__u64 own_ns;		/* every vector, run while a thread of the
				 * opening process was current (and so also
				 * in that thread's schedstat time) */
	__u64 net_rx_foreign_ns;	/* NET_RX run in the context of another
					 * process (not idle, not ksoftirqd):
					 * another's traffic on this CPU */
	__u64 watch_ns;		/* every vector, run while the thread of
				 * sirq_watch() was current (so also in its
				 * schedstat time) */
};

struct sirq;

/*
 * Load and attach (bpf links; nothing pinned).  err: ERR_LEN bytes, a sentence
 * on failure.  Returns 0 or -errno.
 */
int sirq_open(struct sirq **s, char err[ERR_LEN]);

/*
 * Cumulative counters of CPUs 0..ncpus-1 (CPUs beyond the possible ones are
 * zeroed).  Returns the number of possible CPUs, or -errno.
 */
int sirq_read(struct sirq *s, struct sirq_cpu *cpus, int ncpus);

/* Count softirq time in thread tid as watch_ns from now on (0: stop) */
void sirq_watch(struct sirq *s, pid_t tid);

/*
 * Detach the programs (on false) or attach them again (on true; the start
 * times are cleared first, so a softirq cut in two is not counted): for
 * measuring what they cost.  The counters keep their values.  0 or -errno.
 */
int sirq_attach(struct sirq *s, bool on, char err[ERR_LEN]);

/* The two programs' ids, for checking what is loaded */
void sirq_prog_ids(const struct sirq *s, __u32 ids[2]);

/* Detach and unload; NULL is fine */
void sirq_close(struct sirq *s);

/*
 * One pair of programs shared by every user in the process (each pair costs
 * every softirq on the machine its run time): sirq_get() opens it on first
 * use, sirq_put() closes it after the last.
 */
int sirq_get(struct sirq **s, char err[ERR_LEN]);
void sirq_put(struct sirq *s);

#endif /* SOFTIRQ_COST_H */
