// SPDX-License-Identifier: GPL-2.0
/*
 * Exact softirq time per CPU, from the irq:softirq_entry and
 * irq:softirq_exit tracepoints.
 *
 * The programs attach as raw tracepoints (BPF_RAW_TRACEPOINT_OPEN, by name):
 * that needs no tracefs mount, gives a bpf_link, and costs less than a
 * perf-event tracepoint program (no trace record is built).  The argument is
 * the same one the tracepoint records: "unsigned int vec" (format: 8 bytes of
 * common header, then vec at offset 8), here args[0].
 *
 * Softirqs do not nest on a CPU, so one start time per CPU is enough.  A
 * softirq already running when the programs were attached has no start time
 * and is not counted.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "softirq_cost_common.h"

#define NET_TX_SOFTIRQ	2
#define NET_RX_SOFTIRQ	3

struct sirq_acc {
	__u64 net_rx_ns;
	__u64 net_rx_count;
	__u64 net_tx_ns;
	__u64 net_tx_count;
	__u64 all_ns;		/* every vector */
	__u64 all_count;
	__u64 own_ns;		/* every vector, in a thread of own_tgid */
	__u64 net_rx_foreign_ns; /* NET_RX in another process's context */
	__u64 watch_ns;		/* every vector, in thread watch_tid */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sirq_state);
} state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sirq_acc);
} acc SEC(".maps");

/* The process whose threads' CPU time already includes its softirqs */
const volatile __u32 own_tgid;
/* A thread whose CPU time is compared with, set and cleared at run time */
__u32 watch_tid;

SEC("raw_tp/softirq_entry")
int sirq_entry(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 key = 0;
	struct sirq_state *st = bpf_map_lookup_elem(&state, &key);

	(void)ctx;
	if (st)
		st->start = bpf_ktime_get_ns();
	return 0;
}

/*
 * NET_RX of our traffic runs in our own threads (softirqs at bh enable),
 * on an idle CPU's irq exit (pid 0), or in this CPU's ksoftirqd: anything
 * else was raised by another process's traffic on this CPU.  The ksoftirqd
 * tid is compared rather than its name: bpf_get_current_comm() on every
 * such softirq was a third of this program's time (results.rst, "The
 * cost measurement's price").
 */
SEC("raw_tp/softirq_exit")
int sirq_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 key = 0, vec = (__u32)ctx->args[0], tid;
	struct sirq_state *st = bpf_map_lookup_elem(&state, &key);
	struct sirq_acc *a = bpf_map_lookup_elem(&acc, &key);
	__u64 d, pid_tgid;

	if (!st || !a || !st->start)
		return 0;
	d = bpf_ktime_get_ns() - st->start;
	st->start = 0;
	pid_tgid = bpf_get_current_pid_tgid();
	tid = (__u32)pid_tgid;
	if (watch_tid && tid == watch_tid)
		a->watch_ns += d;
	a->all_ns += d;
	a->all_count++;
	if (vec == NET_RX_SOFTIRQ) {
		a->net_rx_ns += d;
		a->net_rx_count++;
	} else if (vec == NET_TX_SOFTIRQ) {
		a->net_tx_ns += d;
		a->net_tx_count++;
	}
	if (own_tgid && pid_tgid >> 32 == own_tgid)
		a->own_ns += d;
	else if (vec == NET_RX_SOFTIRQ && tid && tid != st->ksoftirqd)
		a->net_rx_foreign_ns += d;
	return 0;
}

char _license[] SEC("license") = "GPL";
