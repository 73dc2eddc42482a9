#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# virtio-net-xdp-tx-zc.sh - run in the test guest, with a virtio-net pair:
# the reproduction of patches/virtio-net/0001 (virtio-net drops every
# XDP_TX frame of an AF_XDP zero-copy queue).
#
#   scripts/vm-run.sh --icount --nics virtio-net [--kernel IMAGE] -- \
#       bash tests/repro/virtio-net-xdp-tx-zc.sh
#
# The suite's nic.dev_zerocopy.xdp_tx_beside_zc_tx: a zero-copy socket on
# the dut's queue 0 sends 512 frames while the dut's program sends 512
# frames of another flow back with XDP_TX, and the peer counts both flows.
# Around it, the dut's tx0_xdp_tx and tx0_xdp_tx_drops (ethtool -S) and
# the peer's rx_packets, as deltas.  On 7.2.13: the test fails (0 of the
# 512 XDP_TX frames at the peer), 512 drops, the peer +512; with the fix:
# it passes, 0 drops, the peer +1024.  Results:
# Documentation/results/virtio-net-xdp-tx-zc.txt.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib/vm-nics.sh"
pair=$(vm_nic_pair virtio-net)
[ -n "$pair" ] || { echo "no virtio-net pair in VM_NICS='${VM_NICS:-}'" >&2; exit 2; }
read -r dut peer <<< "$pair"

stat() {	# NAME: the dut's ethtool -S counter NAME
	ethtool -S "$dut" | awk -v n="$1:" '$1 == n { print $2 }'
}
rx() { cat "/sys/class/net/$peer/statistics/rx_packets"; }

tx0=$(stat tx0_xdp_tx) drops0=$(stat tx0_xdp_tx_drops) rx0=$(rx)
XSK_DEVS="$dut $peer" XSK_DEV_POLICY=$(vm_nic_policy virtio-net) \
	"$top/build/selftests/xsk/xsk_test" -r nic.dev_zerocopy.xdp_tx_beside_zc_tx |
	grep -E '^(ok|not ok|# xsk_test)'
st=${PIPESTATUS[0]}
echo "dut tx0_xdp_tx +$(($(stat tx0_xdp_tx) - tx0))" \
     "tx0_xdp_tx_drops +$(($(stat tx0_xdp_tx_drops) - drops0));" \
     "peer rx_packets +$(($(rx) - rx0))"
exit "$st"
