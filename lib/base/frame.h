/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test frames every tool makes and takes: the lengths and the number
 * of flows the generator (lib/bench/trafficgen) and the receivers handle, which
 * the options (lib/base/opts.h) and the result readers check against.  Plain
 * numbers, so that the BPF programs can share them.
 */
#ifndef FRAME_H
#define FRAME_H

/*
 * Frame lengths without FCS: Ethernet + IPv4 + UDP headers and the 4-byte
 * sequence number (XSK_PKT_MIN_LEN), up to MTU 9000 plus the Ethernet header
 */
#define FRAME_MIN_SIZE		46
#define FRAME_MAX_SIZE		9014

/* Flows are UDP source ports: at most this many */
#define FRAME_MAX_FLOWS		4096

#endif /* FRAME_H */
