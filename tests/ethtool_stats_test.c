// SPDX-License-Identifier: GPL-2.0
/*
 * lib/measure/ethtool_stats.h: a counter found by what it means, whatever
 * the driver calls it.  The names are the drivers' own (Linux 7.2.13's
 * veth, virtio_net, vmxnet3 and igb, as ethtool -S lists them); the sum is
 * over every queue of the first naming the driver has, and a driver
 * without one says so (-1) instead of reading as a zero count.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ethtool_stats.h"

#define MAX_STATS	16

static char names[MAX_STATS][ETH_GSTRING_LEN + 1];
static uint64_t values[MAX_STATS];

/* A set of n statistics: names[i] = list[i], values[i] = i + 1 */
static struct ethtool_stats_set make_set(const char *const *list)
{
	struct ethtool_stats_set set = { .names = names, .values = values };

	memset(names, 0, sizeof(names));
	for (set.n = 0; list[set.n] && set.n < MAX_STATS; set.n++) {
		snprintf(names[set.n], sizeof(names[set.n]), "%s", list[set.n]);
		values[set.n] = set.n + 1;
	}
	return set;
}

/* veth: rx_queue_N_xdp_packets, one a queue; the other counters not */
TEST(veth_per_queue)
{
	static const char *const l[] = {
		"peer_ifindex", "rx_queue_0_xdp_packets", "rx_queue_0_xdp_drops",
		"rx_queue_1_xdp_packets", "tx_queue_0_xdp_xmit", NULL,
	};
	struct ethtool_stats_set set = make_set(l);
	uint64_t sum = 99;

	EXPECT_EQ(0, ethtool_stats_sum_named(&set, ethtool_xdp_packets_namings,
					     &sum));
	EXPECT_EQ(2ULL + 4ULL, sum);
}

/* virtio-net: rxN_xdp_packets (and rxN_xdp_drops beside it: not summed) */
TEST(virtio_net_per_queue)
{
	static const char *const l[] = {
		"rx_packets", "rx0_packets", "rx0_xdp_packets", "rx0_xdp_drops",
		"rx1_xdp_packets", "tx0_xdp_tx", NULL,
	};
	struct ethtool_stats_set set = make_set(l);
	uint64_t sum = 99;

	EXPECT_EQ(1, ethtool_stats_sum_named(&set, ethtool_xdp_packets_namings,
					     &sum));
	EXPECT_EQ(3ULL + 5ULL, sum);
}

/* vmxnet3: "     xdp packets" under each queue's heading, blanks first */
TEST(vmxnet3_under_headings)
{
	static const char *const l[] = {
		"Rx Queue#", "     xdp packets", "     xdp drops", "Rx Queue#",
		"     xdp packets", "  xdp xmit", NULL,
	};
	struct ethtool_stats_set set = make_set(l);
	uint64_t sum = 99;

	EXPECT_EQ(2, ethtool_stats_sum_named(&set, ethtool_xdp_packets_namings,
					     &sum));
	EXPECT_EQ(2ULL + 5ULL, sum);
}

/* igb keeps no XDP frame count: none found, not a count of 0 found */
TEST(igb_has_none)
{
	static const char *const l[] = {
		"rx_packets", "rx_queue_0_packets", "rx_queue_0_drops",
		"rx_queue_0_xdp_long_drops", "tx_queue_0_packets", NULL,
	};
	struct ethtool_stats_set set = make_set(l);
	uint64_t sum = 99;

	EXPECT_EQ(-1, ethtool_stats_sum_named(&set, ethtool_xdp_packets_namings,
					      &sum));
	EXPECT_EQ(0ULL, sum);
}

/* A name that only starts like a naming is not it */
TEST(no_prefix_match)
{
	static const char *const l[] = {
		"rx_queue_0_xdp_packets_total", "rxq_xdp_packets", "rx_xdp_packets",
		"xdp packets dropped", NULL,
	};
	struct ethtool_stats_set set = make_set(l);
	uint64_t sum = 99;

	EXPECT_EQ(-1, ethtool_stats_sum_named(&set, ethtool_xdp_packets_namings,
					      &sum));
}

TEST_HARNESS_MAIN
