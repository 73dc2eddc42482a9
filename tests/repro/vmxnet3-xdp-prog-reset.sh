#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmxnet3-xdp-prog-reset.sh - run in the test guest, with a vmxnet3 pair:
# the reproduction of patches/vmxnet3/0001 (vmxnet3 forgets its XDP
# program at a device reset), and the suite's tests that find it.
#
#   scripts/vm-run.sh --icount --nics vmxnet3 [--kernel IMAGE] -- \
#       bash tests/repro/vmxnet3-xdp-prog-reset.sh
#
# A copy-mode AF_XDP socket (xdpsock -N --copy) on the dut; the peer sends
# 7 frames, then 11 after an MTU cycle (1400, 1500), then 13 after a
# down/up.  Each step prints the dut's rx_packets, rx_dropped and
# rx_errors; then what the socket received, and how many XDP programs are
# left once xdpsock has exited (its program detached).  On 7.2.13: 7 of
# 31 received, 1 program left; with the fix: 31, and 0.  Results:
# Documentation/results/vmxnet3-xdp-prog-reset.txt.
set -u
pair=$(echo "${VM_NICS:-}" | tr ' ' '\n' | sed -n 's/^vmxnet3://p')
[ -n "$pair" ] || { echo "no vmxnet3 pair in VM_NICS='${VM_NICS:-}'" >&2; exit 2; }
dut=${pair%,*} peer=${pair#*,}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

send() {	# N: frames from the peer to the dut
	python3 - "$peer" "$(cat "/sys/class/net/$dut/address")" "$1" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
dst = bytes.fromhex(sys.argv[2].replace(':', ''))
for i in range(int(sys.argv[3])):
    s.send(dst + b'\x02\x00\x00\x00\x00\x09' + b'\x88\xb5' +
           i.to_bytes(4, 'big') + b'x' * 50)
    time.sleep(0.005)
PY
}
stats() {
	local d=/sys/class/net/$dut/statistics
	echo "rx $(cat $d/rx_packets) drop $(cat $d/rx_dropped) err $(cat $d/rx_errors)"
}

ip link set "$dut" up
ip link set "$peer" up
sleep 3
timeout 60 build/bin/xdpsock -i "$dut" --rxdrop -N --copy -d 24 > "$log" 2>&1 &
sleep 4
send 7; sleep 1; echo "before: $(stats)"
ip link set "$dut" mtu 1400; ip link set "$dut" mtu 1500; sleep 4
send 11; sleep 1; echo "after MTU cycle: $(stats)"
ip link set "$dut" down; ip link set "$dut" up; sleep 4
send 13; sleep 1; echo "after down/up: $(stats)"
wait
grep -E "received" "$log"
echo "xdp programs left after xdpsock's exit: $(bpftool prog show 2>/dev/null | grep -c ' xdp ')"

XSK_DEVS="$dut $peer" build/selftests/xsk/xsk_test \
	-r nic.dev_copy.mtu_cycled_under_traffic \
	-r nic.dev_copy.link_flapped_under_traffic \
	-r nic.dev_copy.ring_resized_under_traffic \
	-r nic.dev_copy.prog_replaced_under_traffic 2>&1 |
	grep -a "^ok\|^not ok\|xsk_test.c"
