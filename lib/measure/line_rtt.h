/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How far apart the host placed two CPUs: the round trip of one cache line
 * between them.  A guest's vCPUs move between host cores; on a multi-CCD
 * host a line that crosses dies takes several times as long as one that
 * stays in a core complex.  Every cross-CPU path (an AF_XDP ring between
 * the NAPI CPU and the application's) pays that latency per line, so a
 * benchmark's rate follows the placement: runs compared across a change
 * of placement compare two machines.  Measured before and after a run
 * (xdp_load), the figure tells whether the run had one placement and
 * which.
 *
 * The measurement: one thread on each CPU, one 64-byte-aligned word; A
 * writes an odd number, B answers with the next even one, ROUNDS times a
 * block; a block of warm-up, then LINE_RTT_BLOCKS blocks timed with
 * mono_ns() (lib/measure/measure.h), the quickest block's time per round trip returned (an
 * interrupt or a preemption only lengthens a block).  About ROUNDS x
 * (LINE_RTT_BLOCKS + 1) x 0.1-0.5 us.
 */
#ifndef LINE_RTT_H
#define LINE_RTT_H

#include <stdbool.h>
#include <linux/types.h>

#define LINE_RTT_ROUNDS		1000	/* round trips a block */
#define LINE_RTT_MAX_ROUNDS	1000000
#define LINE_RTT_BLOCKS		5
#define LINE_RTT_TIMEOUT_MS	1000	/* B did not answer: the CPU is busy */
/*
 * line_rtt_moved()'s max_change wherever the project judges placements
 * (xdp_load's default, the sweep's runs, xdp_peers' split, xdp_compare):
 * one round trip more than twice the other
 */
#define LINE_RTT_MOVED		1

/*
 * The quickest block's ns per round trip between CPUs a and b into *ns.
 * The calling thread runs on a for the time and gets its CPU mask back.
 * 0; -EINVAL: a == b, a CPU that is not online or not in the caller's
 * mask, rounds not in 1..LINE_RTT_MAX_ROUNDS; -ETIMEDOUT: B stopped
 * answering for LINE_RTT_TIMEOUT_MS; or -errno of pinning (either thread)
 * or of making the thread.  B is joined before the return: a CPU b that
 * never runs it (a real-time task spinning there) holds the call until B
 * runs once.
 */
int line_rtt(int a, int b, unsigned int rounds, double *ns);

/*
 * line_rtt() of LINE_RTT_ROUNDS a block, for a report: the ns, or NaN
 * when it could not be taken; then, with a tool, why is said on stderr
 * ("TOOL: line round trip CPU A-B WHEN: ...")
 */
double line_rtt_take(int a, int b, const char *tool, const char *when);

/* Is cpu one that line_rtt() can run on: in the caller's CPU mask */
bool line_rtt_cpu_ok(int cpu);

/*
 * A tool's option that names two CPUs for two threads (lib/base/opts.h's
 * OPT_LIST: n values in cpus): 0 when there are two and line_rtt_cpu_ok()
 * both; -EINVAL, said on stderr as "TOOL: --OPT takes two CPUs (FORM),
 * not N", for another number of them; -ENODEV for a CPU that is not ours,
 * said ("TOOL: --OPT: CPU N is not online or not one this process may run
 * on") only when say_unusable.
 */
int line_rtt_cpu_pair(const char *tool, const char *opt, const char *form,
		      const __u32 *cpus, unsigned int n, bool say_unusable);

/*
 * Did the host move a vCPU between two round trips: one more than
 * (1 + max_change) times the other.  False when either is NaN (not taken).
 */
bool line_rtt_moved(double before, double after, double max_change);

#endif
