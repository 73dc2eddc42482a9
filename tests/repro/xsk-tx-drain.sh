#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# xsk-tx-drain.sh BIN [ROUNDS] - run in the test guest, with a virtio-net
# pair: finding 8 of Documentation/results/debug-kernel-vm-check.txt, copy
# mode's link_flapped_under_traffic leaving TX descriptors uncompleted on
# a debug kernel.  BIN is a stress build of the suite (100 steps, the
# application unpaced), made on the host:
#
#   mkdir -p build/xsk-stress	# a new directory: the knobs are not
#				# the objects' prerequisites
#   make -C tools/testing/selftests/xsk OUTPUT=$PWD/build/xsk-stress \
#       KHDR_INCLUDES="-isystem $PWD/build/khdr/usr/include" \
#       USERCFLAGS="-DRECONF_STEPS=100 -DRECONF_PACED=false -DRECONF_TIMEOUT=1800"
#   scripts/vm-run.sh --kernel build/kbuild-debug/arch/x86/boot/bzImage \
#       --nics virtio-net --timeout 9000 -- \
#       bash tests/repro/xsk-tx-drain.sh build/xsk-stress/xsk_test 5
#
# Each round runs nic.dev_copy.link_flapped_under_traffic once.  Kprobe
# events record every refusal of the copy-mode TX path: a non-zero return
# of xsk_cq_reserve_locked() (the completion ring full),
# __dev_direct_xmit() (NETDEV_TX_BUSY 16: the queue stopped; NET_XMIT_DROP
# 1: the link down) and __xsk_generic_xmit() (-EAGAIN -11 also when a
# kick has sent its TX budget, 32 frames; -EBUSY -16 after a drop).
# After each round: the counts of each, the dut's BQL inflight (bytes the
# driver holds) and tx0_tx_timeouts; a failing round's TAP and the
# trace's last 40 lines (all of it in $VM_OUT/traceN).  In debug guests
# with the suite's old fixed 20 s drain, 9 of 9 rounds failed, every kick
# of the drain sending 32 frames (EAGAIN from the budget, no BUSY, no full
# ring): slow, not stalled; with the drain that ends on a stall, the
# rounds pass (Documentation/results/debug-kernel-vm-check.txt).  Exit
# status: 0 every round passed and the kernel log is clean, 1 not, 2 a
# setup error.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib/vm-nics.sh"
bin=${1:?usage: xsk-tx-drain.sh BIN [ROUNDS]} rounds=${2:-5}
[ -x "$bin" ] || { echo "$bin: not an executable" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS '$rounds': not a count of 1 or more" >&2; exit 2; }
out=${VM_OUT:-/tmp}
pair=$(vm_nic_pair virtio-net)
[ -n "$pair" ] || { echo "no virtio-net pair in VM_NICS='${VM_NICS:-}'" >&2; exit 2; }
read -r dut peer <<< "$pair"
XSK_DEV_POLICY=$(vm_nic_policy virtio-net)
export XSK_DEVS="$dut $peer" XSK_DEV_POLICY

# a debug kernel: kmemleak's periodic scan off (it stalls a one-CPU guest)
if [ -e /sys/kernel/debug/kmemleak ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null; then
	echo scan=off > /sys/kernel/debug/kmemleak 2>/dev/null
fi
T=/sys/kernel/tracing
mountpoint -q "$T" || mount -t tracefs none "$T" || { echo "no tracefs" >&2; exit 2; }
probes="cqres:xsk_cq_reserve_locked dxmit:__dev_direct_xmit gxmit:__xsk_generic_xmit"
unprobe() {	# our events only, whichever of them were made
	local p

	for p in $probes; do
		[ -d "$T/events/kprobes/${p%%:*}" ] || continue
		echo 0 > "$T/events/kprobes/${p%%:*}/enable"
		echo "-:${p%%:*}" >> "$T/kprobe_events"
	done
}
trap unprobe EXIT
for p in $probes; do
	if ! { echo "r:${p%%:*} ${p#*:} ret=\$retval:s32" >> "$T/kprobe_events" &&
	       echo 'ret != 0' > "$T/events/kprobes/${p%%:*}/filter" &&
	       echo 1 > "$T/events/kprobes/${p%%:*}/enable"; }; then
		echo "kprobe event on ${p#*:} refused" >&2
		exit 2
	fi
done
echo 8192 > "$T/buffer_size_kb"

bql=/sys/class/net/$dut/queues/tx-0/byte_queue_limits/inflight
failed=0
for i in $(seq 1 "$rounds"); do
	echo > "$T/trace"
	"$bin" -r nic.dev_copy.link_flapped_under_traffic > "$out/round$i.tap" 2>&1
	st=$?
	printf 'round %d: %s;' "$i" "$([ $st -eq 0 ] && echo pass || echo FAIL)"
	for p in $probes; do
		printf ' %s %s' "${p#*:}" "$(grep -c " ${p%%:*}: " "$T/trace")"
	done
	echo "; inflight $(cat "$bql"); $(ethtool -S "$dut" | awk '$1 == "tx0_tx_timeouts:" { print "tx_timeouts " $2 }')"
	grep -E "frames in all|outstanding|never|no completion" "$out/round$i.tap"
	if [ $st -ne 0 ]; then
		failed=$((failed + 1))
		cat "$out/round$i.tap"
		cp "$T/trace" "$out/trace$i"
		grep -v '^#' "$T/trace" | tail -n 40
	fi
done
if "$top/scripts/kmsg-check.sh"; then
	echo "kernel log clean"
else
	failed=$((failed + 1))
fi
echo "$failed of $rounds rounds failed (or the log)"
[ "$failed" -eq 0 ]
