// SPDX-License-Identifier: GPL-2.0
/*
 * An xskb_result as JSON, the one writer of its keys (lib/bench/xskb_json.h)
 */
#include <linux/types.h>

#include "json.h"
#include "xskb_json.h"
#include "ethtool_stats.h"

/* loop: the app loop's busy/idle split (xsk_bench.h, struct xskb_loop) */
static void loop_json(struct json *j, const struct xskb_result *r, double ghz)
{
	const struct xskb_loop *l = &r->loop;
	struct xskb_loop_fig f;

	xskb_loop_figures(l, ghz, &f);
	json_key(j, "loop");
	json_begin_object(j);
	json_kv_u64(j, "iterations", l->iterations);
	json_kv_u64(j, "busy_iterations", l->busy_iterations);
	json_kv_double(j, "busy_iteration_share", f.busy_iter_share);
	json_kv_u64(j, "busy_tsc_cycles", l->busy_tsc);
	json_kv_u64(j, "idle_tsc_cycles", l->idle_tsc);
	json_kv_double_if(j, "busy_share", f.split, f.busy_share);
	json_kv_u64(j, "frames", l->frames);
	json_kv_u64(j, "batches", l->batches);
	json_kv_double_if(j, "frames_per_batch", l->batches,
			  f.frames_per_batch);
	json_kv_double_if(j, "processing_ns_per_pkt", f.per_pkt,
			  f.busy_ns_per_pkt);
	json_kv_double_if(j, "total_ns_per_pkt", f.per_pkt, f.total_ns_per_pkt);
	json_kv_double_if(j, "processing_tsc_cycles_per_pkt", f.per_pkt,
			  f.busy_cycles_per_pkt);
	json_kv_double_if(j, "total_tsc_cycles_per_pkt", f.per_pkt,
			  f.total_cycles_per_pkt);
	json_kv_u64(j, "syscalls", l->syscalls);
	json_kv_double_if(j, "syscalls_per_pkt", l->frames,
			  f.syscalls_per_pkt);
	json_end_object(j);
}

/* accounting: every frame in one bucket (xsk_bench.h, struct xskb_acct) */
static void accounting_json(struct json *j, const struct xskb_result *r)
{
	const struct xskb_acct *a = &r->acct;

	json_key(j, "accounting");
	if (!a->rx_known && !a->tx_known) {
		json_null(j);
		return;
	}
	json_begin_object(j);
	json_kv_bool(j, "balanced", xskb_acct_balanced(a));
	json_key(j, "rx");
	if (a->rx_known) {
		json_begin_object(j);
		json_kv_u64(j, "sent", a->rx_sent);
		json_kv_u64(j, "received", a->received);
		json_kv_u64(j, "lost_peer_xmit_errors", a->lost_peer_xmit_errors);
		json_kv_u64(j, "lost_dut_veth_drops", a->lost_dut_veth_drops);
		json_kv_u64(j, "socket_fill_ring_empty", a->sock_fill_ring_empty);
		json_kv_u64(j, "socket_rx_dropped_other",
			    a->sock_rx_dropped_other);
		json_kv_u64(j, "socket_rx_ring_full", a->sock_rx_ring_full);
		json_kv_u64(j, "socket_rx_invalid_descs", a->sock_rx_invalid);
		json_kv_u64(j, "left_on_rx_ring", a->rx_ring_left);
		json_kv_s64(j, "unaccounted", a->rx_unaccounted);
		json_kv_u64(j, "veth0_rx_queue_drops", a->veth0_rx_drops);
		json_kv_bool(j, "veth_counts_socket_drops",
			     a->veth_counts_socket);
		json_end_object(j);
	} else {
		json_null(j);
	}
	json_key(j, "tx");
	if (a->tx_known) {
		json_begin_object(j);
		json_kv_u64(j, "queued", a->tx_queued);
		json_kv_u64(j, "delivered", a->delivered);
		json_kv_u64(j, "tx_invalid_descs", a->tx_invalid);
		json_kv_u64(j, "not_completed", a->tx_not_completed);
		json_kv_u64(j, "lost_dut_tx_drops", a->lost_dut_tx_drops);
		json_kv_u64(j, "lost_peer_rx_drops", a->lost_peer_rx_drops);
		json_kv_s64(j, "unaccounted", a->tx_unaccounted);
		json_end_object(j);
	} else {
		json_null(j);
	}
	json_end_object(j);
}

/* "delivered" and "peer": what the own pair's peer counted */
static void peer_json(struct json *j, const struct xskb_opts *o,
		      const struct xskb_result *r)
{
	json_key(j, "delivered");
	if (!r->peer_known || (o && o->kind == XSKB_RXDROP)) {
		json_null(j);
		return;
	}
	json_u64(j, r->peer.packets);
	json_key(j, "peer");
	json_begin_object(j);
	json_kv_u64(j, "packets", r->peer.packets);
	json_kv_u64(j, "bytes", r->peer.bytes);
	json_kv_u64(j, "mac_ok", r->peer.mac_ok);
	json_kv_u64(j, "mac_bad", r->peer.mac_bad);
	json_kv_u64(j, "len_bad", r->peer.len_bad);
	json_kv_u64(j, "payload_ok", r->peer.payload_ok);
	json_kv_u64(j, "payload_bad", r->peer.payload_bad);
	json_kv_u64(j, "seq_sum", r->peer.seq_sum);
	json_end_object(j);
}

/* The socket's XDP_STATISTICS in the window */
static void xdp_statistics_json(struct json *j, const struct xskb_result *r)
{
	json_key(j, "xdp_statistics");
	json_begin_object(j);
	json_kv_u64(j, "rx_dropped", r->d.st.rx_dropped);
	json_kv_u64(j, "rx_invalid_descs", r->d.st.rx_invalid_descs);
	json_kv_u64(j, "tx_invalid_descs", r->d.st.tx_invalid_descs);
	json_kv_u64(j, "rx_ring_full", r->d.st.rx_ring_full);
	json_kv_u64(j, "rx_fill_ring_empty_descs",
		    r->d.st.rx_fill_ring_empty_descs);
	json_kv_u64(j, "tx_ring_empty_descs", r->d.st.tx_ring_empty_descs);
	json_end_object(j);
}

static void placement_json(struct json *j, const struct xskb_result *r,
			   const struct xskb_opts *o)
{
	json_key(j, "placement");
	json_begin_object(j);
	if (o)
		json_kv_s64(j, "app_cpu_asked", o->app_cpu);
	json_kv_s64(j, "app_cpu", r->app_cpu);
	if (o)
		json_kv_s64(j, "gen_cpu_asked", r->gen_ran ? o->gen_cpu : -1);
	json_kv_s64(j, "gen_cpu", r->gen_cpu);
	json_kv_s64(j, "net_rx_cpu", r->net_rx_cpu);
	json_end_object(j);
}

static void generator_json(struct json *j, const struct xskb_result *r,
			   const struct xskb_opts *o)
{
	json_key(j, "generator");
	if (!r->gen_ran) {
		json_null(j);
		return;
	}
	json_begin_object(j);
	json_kv_string(j, "method", r->gen_method);
	json_kv_u64(j, "sent", r->gen_sent);
	json_kv_u64(j, "cpu_ns", r->gen_cpu_ns);
	if (o)
		json_kv_u64(j, "rate_pps", o->rate_pps);
	json_end_object(j);
}

/* --latency's quantiles, in ns; null when not asked or no frame came */
static void latency_json(struct json *j, const struct xskb_result *r,
			 const struct xskb_opts *o)
{
	const struct xskb_latency *l = &r->lat;

	json_key(j, "latency");
	if (!l->known) {
		json_null(j);
		return;
	}
	json_begin_object(j);
	json_kv_string(j, "clock", "CLOCK_MONOTONIC");
	json_kv_u64(j, "frames", l->frames);
	json_kv_u64(j, "negative", l->negative);
	json_kv_u64(j, "min_ns", l->min);
	json_kv_u64(j, "p50_ns", l->p50);
	json_kv_u64(j, "p90_ns", l->p90);
	json_kv_u64(j, "p99_ns", l->p99);
	json_kv_u64(j, "p999_ns", l->p999);
	json_kv_u64(j, "max_ns", l->max);
	if (o)
		json_kv_u64(j, "rx_delay_ns", o->rx_delay_ns);
	json_end_object(j);
}

void xskb_result_json(struct json *j, const struct xskb_result *r,
		      const struct xskb_opts *o, double ghz)
{
	json_kv_double(j, "duration_s", r->duration_ns / 1e9);
	json_kv_u64(j, "packets", r->packets);
	json_kv_string(j, "counted_at", r->counted_at);
	json_kv_double(j, "pps", r->pps);
	json_kv_u64(j, "rx_packets", r->d.rx_packets);
	json_kv_u64(j, "tx_packets", r->d.tx_packets);
	json_kv_u64(j, "tx_completed", r->d.tx_completed);
	json_kv_u64(j, "socket_drops", r->drops);
	json_kv_u64(j, "lost_peer_xmit_errors", r->acct.lost_peer_xmit_errors);
	json_kv_u64(j, "lost_dut_veth_drops", r->acct.lost_dut_veth_drops);
	json_kv_u64_if(j, "driver_xdp_packets", r->drv_xdp_naming >= 0,
		       r->drv_xdp_packets);
	json_kv_string(j, "driver_xdp_counter", r->drv_xdp_naming < 0 ? "none" :
		       ethtool_xdp_packets_namings[r->drv_xdp_naming]);
	accounting_json(j, r);
	peer_json(j, o, r);
	json_kv_u64(j, "rx_bytes", r->rx_bytes);
	json_kv_u64(j, "rx_bad", r->rx_bad);
	json_kv_u64(j, "app_cpu_ns", r->app_cpu_ns);
	json_kv_u64(j, "app_softirq_ns", r->app_softirq_ns);
	json_kv_bool(j, "disturbed", r->disturbed);
	json_kv_double(j, "app_ns_per_pkt", r->app_ns_per_pkt);
	json_kv_double(j, "app_tsc_cycles_per_pkt", r->app_ns_per_pkt * ghz);
	json_kv_u64(j, "net_rx_ns", r->net_rx_ns);
	json_kv_u64(j, "net_rx_softirqs", r->net_rx_softirqs);
	json_kv_double_if(j, "net_rx_ns_per_pkt", r->net_rx_known,
			  r->net_rx_ns_per_pkt);
	json_kv_u64(j, "tx_kicks", r->tx_kicks);
	json_kv_u64(j, "rx_kicks", r->rx_kicks);
	json_kv_u64(j, "rx_line_stores", r->rx_line_stores);
	loop_json(j, r, ghz);
	placement_json(j, r, o);
	generator_json(j, r, o);
	latency_json(j, r, o);
	if (r->af_xdp)
		xdp_statistics_json(j, r);
}
