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

/* What a driver lists (NULL-ended), and what must come of it */
FIXTURE(named) {
	struct ethtool_stats_set set;
};

FIXTURE_VARIANT(named) {
	const char *const *names;	/* values: 1, 2, 3, ... */
	int naming;			/* the pattern found, or -1 */
	uint64_t sum;
};

/* veth: rx_queue_N_xdp_packets, one a queue; the other counters not */
FIXTURE_VARIANT_ADD(named, veth_per_queue) {
	.names = (const char *const []){
		"peer_ifindex", "rx_queue_0_xdp_packets", "rx_queue_0_xdp_drops",
		"rx_queue_1_xdp_packets", "tx_queue_0_xdp_xmit", NULL,
	},
	.naming = 0,
	.sum = 2 + 4,
};

/* virtio-net: rxN_xdp_packets (and rxN_xdp_drops beside it: not summed) */
FIXTURE_VARIANT_ADD(named, virtio_net_per_queue) {
	.names = (const char *const []){
		"rx_packets", "rx0_packets", "rx0_xdp_packets", "rx0_xdp_drops",
		"rx1_xdp_packets", "tx0_xdp_tx", NULL,
	},
	.naming = 1,
	.sum = 3 + 5,
};

/* vmxnet3: "     xdp packets" under each queue's heading, blanks first */
FIXTURE_VARIANT_ADD(named, vmxnet3_under_headings) {
	.names = (const char *const []){
		"Rx Queue#", "     xdp packets", "     xdp drops", "Rx Queue#",
		"     xdp packets", "  xdp xmit", NULL,
	},
	.naming = 2,
	.sum = 2 + 5,
};

/* igb keeps no XDP frame count: none found, not a count of 0 found */
FIXTURE_VARIANT_ADD(named, igb_has_none) {
	.names = (const char *const []){
		"rx_packets", "rx_queue_0_packets", "rx_queue_0_drops",
		"rx_queue_0_xdp_long_drops", "tx_queue_0_packets", NULL,
	},
	.naming = -1,
	.sum = 0,
};

/* A name that only starts like a naming is not it */
FIXTURE_VARIANT_ADD(named, no_prefix_match) {
	.names = (const char *const []){
		"rx_queue_0_xdp_packets_total", "rxq_xdp_packets",
		"rx_xdp_packets", "xdp packets dropped", NULL,
	},
	.naming = -1,
	.sum = 0,
};

/* The set of the variant's names, values 1, 2, 3, ... */
FIXTURE_SETUP(named)
{
	self->set = (struct ethtool_stats_set){ .names = names,
						.values = values };
	memset(names, 0, sizeof(names));
	for (; variant->names[self->set.n]; self->set.n++) {
		ASSERT_GT(MAX_STATS, (int)self->set.n);
		snprintf(names[self->set.n], sizeof(names[0]), "%s",
			 variant->names[self->set.n]);
		values[self->set.n] = self->set.n + 1;
	}
}

FIXTURE_TEARDOWN(named)
{
}

TEST_F(named, xdp_packets)
{
	uint64_t sum = 99;

	EXPECT_EQ(variant->naming,
		  ethtool_stats_sum_named(&self->set,
					  ethtool_xdp_packets_namings, &sum));
	EXPECT_EQ(variant->sum, sum);
}

TEST_HARNESS_MAIN
