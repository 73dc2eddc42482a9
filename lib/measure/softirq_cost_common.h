/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the softirq programs (softirq_cost.bpf.c) and their userspace
 * (softirq_cost.c) share.
 */
#ifndef SOFTIRQ_COST_COMMON_H
#define SOFTIRQ_COST_COMMON_H

#include <linux/types.h>

/* Per CPU: the running softirq's start, and the CPU's ksoftirqd thread */
struct sirq_state {
	__u64 start;		/* bpf_ktime_get_ns() at entry; 0: none */
	__u32 ksoftirqd;	/* its tid, written by sirq_open() */
	__u32 pad;
};

#endif /* SOFTIRQ_COST_COMMON_H */
