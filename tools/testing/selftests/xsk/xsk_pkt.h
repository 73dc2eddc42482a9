/* SPDX-License-Identifier: GPL-2.0 */
/* kernel-patches: copy */
/*
 * Test frames: Ethernet + IPv4 + UDP from 198.18.0.2 to 198.18.0.1 (the
 * benchmarking range of RFC 2544).  The payload starts with a 32-bit
 * sequence number (host order) and goes on with a byte pattern that depends
 * on the offset alone, so that a receiver can check every byte and a
 * generator can make the next frame by rewriting the sequence number and
 * the UDP source port (the flow) only: the IP header (id 0) and the UDP
 * checksum (0) do not change with them.
 */
#ifndef XSK_PKT_H
#define XSK_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#define XSK_PKT_HDR_LEN		42	/* Ethernet 14 + IPv4 20 + UDP 8 */
#define XSK_PKT_MIN_LEN		(XSK_PKT_HDR_LEN + 4)
#define XSK_PKT_DST_PORT	9

struct xsk_pkt_info {
	__u32 seq;
	__u16 sport;
	__u16 dport;
	unsigned char dst[6];
	unsigned char src[6];
};

/* Write a frame of len bytes (>= XSK_PKT_MIN_LEN) into buf */
void xsk_pkt_build(void *buf, size_t len, const unsigned char dst[6],
		   const unsigned char src[6], __u16 flow, __u32 seq);

/*
 * Check a received frame: headers consistent with its length, payload
 * pattern intact.  Fills info; returns 0, or the offset + 1 of the first
 * wrong byte.
 */
size_t xsk_pkt_check(const void *buf, size_t len, struct xsk_pkt_info *info);

#endif /* XSK_PKT_H */
