// SPDX-License-Identifier: GPL-2.0
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "ethtool_stats.h"

static int ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr = {};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

int ethtool_stats_read(const char *ifname, struct ethtool_stats_set *set)
{
	struct {
		struct ethtool_sset_info hdr;
		__u32 count;
	} sset = { .hdr = { .cmd = ETHTOOL_GSSET_INFO,
			    .sset_mask = 1ULL << ETH_SS_STATS } };
	struct ethtool_gstrings *strings = NULL;
	struct ethtool_stats *stats = NULL;
	unsigned int n, i;
	int fd, ret;

	memset(set, 0, sizeof(*set));
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = ethtool_ioctl(fd, ifname, &sset);
	if (ret)
		goto out;
	n = sset.hdr.sset_mask ? sset.count : 0;
	strings = calloc(1, sizeof(*strings) + n * ETH_GSTRING_LEN);
	stats = calloc(1, sizeof(*stats) + n * sizeof(__u64));
	set->names = calloc(n ?: 1, sizeof(*set->names));
	set->values = calloc(n ?: 1, sizeof(*set->values));
	if (!strings || !stats || !set->names || !set->values) {
		ret = -ENOMEM;
		goto out;
	}
	strings->cmd = ETHTOOL_GSTRINGS;
	strings->string_set = ETH_SS_STATS;
	strings->len = n;
	stats->cmd = ETHTOOL_GSTATS;
	stats->n_stats = n;
	if (n) {
		ret = ethtool_ioctl(fd, ifname, strings);
		if (!ret)
			ret = ethtool_ioctl(fd, ifname, stats);
		if (ret)
			goto out;
	}
	for (i = 0; i < n; i++) {
		snprintf(set->names[i], sizeof(set->names[i]), "%.*s",
			 ETH_GSTRING_LEN,
			 (char *)strings->data + i * ETH_GSTRING_LEN);
		set->values[i] = stats->data[i];
	}
	set->n = n;
out:
	free(strings);
	free(stats);
	close(fd);
	if (ret)
		ethtool_stats_free(set);
	return ret;
}

void ethtool_stats_free(struct ethtool_stats_set *set)
{
	free(set->names);
	free(set->values);
	memset(set, 0, sizeof(*set));
}

static int match(const char *pat, const char *s)
{
	while (*s == ' ')
		s++;
	for (; *pat; pat++) {
		if (*pat == '*') {
			if (!isdigit((unsigned char)*s))
				return 0;
			while (isdigit((unsigned char)*s))
				s++;
		} else if (*pat != *s++) {
			return 0;
		}
	}
	return !*s;
}

uint64_t ethtool_stats_sum(const struct ethtool_stats_set *set,
			   const char *pattern)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < set->n; i++)
		if (match(pattern, set->names[i]))
			sum += set->values[i];
	return sum;
}

const char *const ethtool_xdp_packets_namings[] = {
	"rx_queue_*_xdp_packets", "rx*_xdp_packets", "xdp packets", NULL,
};

int ethtool_stats_sum_named(const struct ethtool_stats_set *set,
			    const char *const *namings, uint64_t *sum)
{
	int i;

	for (i = 0; namings[i]; i++) {
		if (ethtool_stats_count(set, namings[i])) {
			*sum = ethtool_stats_sum(set, namings[i]);
			return i;
		}
	}
	*sum = 0;
	return -1;
}

unsigned int ethtool_stats_count(const struct ethtool_stats_set *set,
				 const char *pattern)
{
	unsigned int i, n = 0;

	for (i = 0; i < set->n; i++)
		n += match(pattern, set->names[i]);
	return n;
}

int netdev_counters_read(const char *ifname, struct netdev_counters *c)
{
	char line[512], name[IF_NAMESIZE + 1];
	unsigned long long v[16];
	int ret = -ENODEV;
	FILE *f;

	f = fopen("/proc/thread-self/net/dev", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = ' ';
		if (sscanf(line, "%16s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			   &v[6], &v[7], &v[8], &v[9], &v[10], &v[11]) != 13 ||
		    strcmp(name, ifname))
			continue;
		c->rx_bytes = v[0];
		c->rx_packets = v[1];
		c->rx_dropped = v[3];
		c->tx_bytes = v[8];
		c->tx_packets = v[9];
		c->tx_dropped = v[11];
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

uint64_t ethtool_stats_sum_of(const char *ifname, const char *pattern)
{
	struct ethtool_stats_set set;
	uint64_t sum;

	if (ethtool_stats_read(ifname, &set))
		return 0;
	sum = ethtool_stats_sum(&set, pattern);
	ethtool_stats_free(&set);
	return sum;
}

int ethtool_stats_sum_named_of(const char *ifname,
			       const char *const *namings, uint64_t *sum)
{
	struct ethtool_stats_set set;
	int i;

	*sum = 0;
	if (ethtool_stats_read(ifname, &set))
		return -1;
	i = ethtool_stats_sum_named(&set, namings, sum);
	ethtool_stats_free(&set);
	return i;
}
