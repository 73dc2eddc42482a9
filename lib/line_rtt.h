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
 * writes an odd number, B answers with the next even one, ROUNDS times;
 * blocks of rounds timed with CLOCK_MONOTONIC, the quickest block's time
 * per round trip returned (an interrupt or a preemption only lengthens a
 * block).  About ROUNDS x 0.1-0.5 us x LINE_RTT_BLOCKS.
 */
#ifndef LINE_RTT_H
#define LINE_RTT_H

#define LINE_RTT_ROUNDS		1000	/* round trips a block */
#define LINE_RTT_BLOCKS		5
#define LINE_RTT_TIMEOUT_MS	1000	/* B did not answer: the CPU is busy */

/*
 * The quickest block's ns per round trip between CPUs a and b into *ns.
 * The calling thread runs on a for the time and gets its CPU mask back.
 * 0, -EINVAL (a == b, or not an online CPU), -ETIMEDOUT (b stopped
 * answering for LINE_RTT_TIMEOUT_MS), or -errno of pinning or the thread.
 */
int line_rtt(int a, int b, unsigned int rounds, double *ns);

#endif
