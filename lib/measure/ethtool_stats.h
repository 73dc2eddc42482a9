/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A driver's ethtool statistics (ethtool -S) and /proc/net/dev counters of
 * an interface in the calling thread's network namespace: the kernel's own
 * counts, to cross-check what the XDP programs count.
 */
#ifndef ETHTOOL_STATS_H
#define ETHTOOL_STATS_H

#include <stdint.h>
#include <linux/ethtool.h>

struct ethtool_stats_set {
	unsigned int n;
	char (*names)[ETH_GSTRING_LEN + 1];
	uint64_t *values;
};

/* Read all of ifname's statistics; free with ethtool_stats_free() */
int ethtool_stats_read(const char *ifname, struct ethtool_stats_set *set);
void ethtool_stats_free(struct ethtool_stats_set *set);

/*
 * Sum of the statistics whose name matches pattern, where '*' stands for
 * any digits (e.g. "rx_queue_*_xdp_packets").  Returns 0 if none match.
 */
uint64_t ethtool_stats_sum(const struct ethtool_stats_set *set,
			   const char *pattern);

/*
 * A counter by what it means, where drivers name it differently: namings
 * is a NULL-ended list of patterns (as ethtool_stats_sum()'s; a name's
 * leading blanks are not compared).  *sum is the sum of the statistics of
 * the first pattern the driver has; returns that pattern's index, or -1
 * (and *sum 0) when the driver has none of them.
 */
int ethtool_stats_sum_named(const struct ethtool_stats_set *set,
			    const char *const *namings, uint64_t *sum);

/*
 * Frames the XDP program ran on, per Rx queue: veth's rx_queue_N_,
 * virtio-net's rxN_ and vmxnet3's "xdp packets" (one a queue, under its
 * queue's heading).  igb keeps none.
 */
extern const char *const ethtool_xdp_packets_namings[];

/* How many of the statistics match pattern */
unsigned int ethtool_stats_count(const struct ethtool_stats_set *set,
				 const char *pattern);

/* Read ifname's statistics and sum those matching pattern; 0 on error */
uint64_t ethtool_stats_sum_of(const char *ifname, const char *pattern);

/*
 * Read ifname's statistics and sum the first of namings the driver has
 * (ethtool_stats_sum_named()): that naming's index, or -1 (and *sum 0)
 * when it has none or they cannot be read
 */
int ethtool_stats_sum_named_of(const char *ifname,
			       const char *const *namings, uint64_t *sum);

struct netdev_counters {
	uint64_t rx_packets, rx_bytes, rx_dropped;
	uint64_t tx_packets, tx_bytes, tx_dropped;
};

/* From /proc/thread-self/net/dev */
int netdev_counters_read(const char *ifname, struct netdev_counters *c);

#endif /* ETHTOOL_STATS_H */
