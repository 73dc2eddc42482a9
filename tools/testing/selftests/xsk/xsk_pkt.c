// SPDX-License-Identifier: GPL-2.0
/* kernel-patches: copy */
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>

#include "xsk_pkt.h"

/* Depends on the offset only, so a generator may rewrite seq and port alone */
static __u8 pattern(size_t off)
{
	return (__u8)(off * 13 + (off >> 8));
}

/* Over an aligned copy: a frame's IPv4 header is at offset 14 */
static __u16 ip_csum(const struct iphdr *ip)
{
	enum { NW = sizeof(*ip) / 2 };
	__u16 w[NW];
	__u32 sum = 0;
	size_t i;

	memcpy(w, ip, sizeof(w));
	for (i = 0; i < NW; i++)
		sum += w[i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

/*
 * The headers are built and read in aligned structs and copied: in the
 * frame, the IPv4 header's words are not aligned (UBSan's -fsanitize=alignment)
 */
void xsk_pkt_build(void *buf, size_t len, const unsigned char dst[6],
		   const unsigned char src[6], __u16 flow, __u32 seq)
{
	__u8 *payload = (__u8 *)buf + XSK_PKT_HDR_LEN;
	size_t i, plen = len - XSK_PKT_HDR_LEN;
	struct ethhdr eth;
	struct udphdr udp;
	struct iphdr ip;

	memcpy(eth.h_dest, dst, ETH_ALEN);
	memcpy(eth.h_source, src, ETH_ALEN);
	eth.h_proto = htons(ETH_P_IP);

	memset(&ip, 0, sizeof(ip));
	ip.version = 4;
	ip.ihl = 5;
	ip.tot_len = htons(len - ETH_HLEN);
	ip.ttl = 64;
	ip.protocol = IPPROTO_UDP;
	ip.saddr = htonl(0xc6120002);	/* 198.18.0.2 */
	ip.daddr = htonl(0xc6120001);	/* 198.18.0.1 */
	ip.check = ip_csum(&ip);

	udp.source = htons(flow);
	udp.dest = htons(XSK_PKT_DST_PORT);
	udp.len = htons(len - ETH_HLEN - sizeof(ip));
	udp.check = 0;

	memcpy(buf, &eth, sizeof(eth));
	memcpy((__u8 *)buf + ETH_HLEN, &ip, sizeof(ip));
	memcpy((__u8 *)buf + ETH_HLEN + sizeof(ip), &udp, sizeof(udp));
	memcpy(payload, &seq, sizeof(seq));
	for (i = sizeof(seq); i < plen; i++)
		payload[i] = pattern(i);
}

size_t xsk_pkt_check(const void *buf, size_t len, struct xsk_pkt_info *info)
{
	const __u8 *payload = (const __u8 *)buf + XSK_PKT_HDR_LEN;
	struct ethhdr eth;
	struct udphdr udp;
	struct iphdr ip;
	size_t i, plen;

	if (len < XSK_PKT_MIN_LEN)
		return len + 1;
	memcpy(&eth, buf, sizeof(eth));
	memcpy(&ip, (const __u8 *)buf + ETH_HLEN, sizeof(ip));
	memcpy(&udp, (const __u8 *)buf + ETH_HLEN + sizeof(ip), sizeof(udp));
	if (eth.h_proto != htons(ETH_P_IP))
		return offsetof(struct ethhdr, h_proto) + 1;
	if (ntohs(ip.tot_len) != len - ETH_HLEN || ip_csum(&ip))
		return ETH_HLEN + 1;
	if (ntohs(udp.len) != len - ETH_HLEN - sizeof(ip))
		return ETH_HLEN + sizeof(ip) + 1;
	memcpy(&info->seq, payload, sizeof(info->seq));
	info->sport = ntohs(udp.source);
	info->dport = ntohs(udp.dest);
	memcpy(info->dst, eth.h_dest, ETH_ALEN);
	memcpy(info->src, eth.h_source, ETH_ALEN);
	plen = len - XSK_PKT_HDR_LEN;
	for (i = sizeof(info->seq); i < plen; i++)
		if (payload[i] != pattern(i))
			return XSK_PKT_HDR_LEN + i + 1;
	return 0;
}
