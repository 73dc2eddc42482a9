#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmxnet3-xdp-mtu.sh - run in the test guest, with a vmxnet3 pair: the
# reproduction of patches/vmxnet3/0002 (vmxnet3 takes an MTU under an
# attached XDP program that it refuses to attach a program at).
#
#   scripts/vm-run.sh --icount --nics vmxnet3 [--kernel IMAGE] -- \
#       bash tests/repro/vmxnet3-xdp-mtu.sh
#
# A copy-mode AF_XDP socket (xdpsock -N) attaches its program on the dut
# at MTU 1500; then "ip link set mtu 9000" on the dut (and the peer), and
# the peer sends 20 frames of 8000 bytes.  Prints whether the MTU was
# taken, the dut's rx_packets and rx_errors deltas, what the socket got;
# then the suite's nic.dev_copy.mtu_past_one_buffer.  On 7.2.13: taken,
# none of the 20 frames received; with the fix: refused ("MTU 9000 too
# large for XDP").  Results: Documentation/results/vmxnet3-xdp-mtu.txt.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib/vm-nics.sh"
pair=$(vm_nic_pair vmxnet3) ||
	{ echo "no vmxnet3 pair in VM_NICS='${VM_NICS:-}'" >&2; exit 2; }
read -r dut peer <<< "$pair"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

stat() { cat "/sys/class/net/$dut/statistics/$1"; }
ip link set "$dut" up
ip link set "$peer" up
"$top/build/bin/xdpsock" -i "$dut" --rxdrop -N -d 12 >"$log" 2>&1 &
app=$!
sleep 4
if ip link set dev "$dut" mtu 9000 2>&1; then
	echo "dut: MTU 9000 taken under the attached program"
else
	echo "dut: MTU 9000 refused"
fi
ip link set dev "$peer" mtu 9000
sleep 3
rx=$(stat rx_packets) err=$(stat rx_errors)
python3 - "$peer" "$(cat "/sys/class/net/$dut/address")" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
dst = bytes.fromhex(sys.argv[2].replace(':', ''))
for i in range(20):
    s.send(dst + b'\x02\x00\x00\x00\x00\x09' + b'\x88\xb5' +
           i.to_bytes(4, 'big') + b'x' * (8000 - 18))
    time.sleep(0.01)
PY
sleep 1
echo "20 frames of 8000 bytes: dut rx_packets +$(($(stat rx_packets) - rx)), rx_errors +$(($(stat rx_errors) - err)), MTU now $(cat /sys/class/net/$dut/mtu)"
wait $app
grep -E "received|driver XDP" "$log"
ip link set dev "$peer" mtu 1500
ip link set dev "$dut" mtu 1500 2>/dev/null
XSK_DEVS="$dut $peer" XSK_DEV_POLICY=$(vm_nic_policy vmxnet3) \
	"$top/build/selftests/xsk/xsk_test" -r nic.dev_copy.mtu_past_one_buffer |
	grep -E '^(ok|not ok|# xsk_test)'
