#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-selftests.sh - run in the test guest (by `make vm-check`): the xsk
# kselftest suite on veth pairs, then its real-driver tests on each NIC
# pair of the guest ($VM_NICS, from scripts/vm-init.sh: "MODEL:DUT,PEER
# ..."), in zero-copy and copy mode as the device can (XSK_DEVS), each
# group as TAP on the console and in $VM_OUT (veth.tap, MODEL.tap), and a
# summary line per group at the end.
# The kernel log is judged after the boot and after each group
# (scripts/kmsg-check.sh: a WARNING, BUG, KASAN, lockdep or other splat
# fails the run, printed with the group that ran) and kept as
# $VM_OUT/GROUP.kmsg; on a kernel with kmemleak, a scan after the suite
# is judged the same way.  Exits non-zero when a test failed, the kernel
# log has a splat or cannot be read, or a model's pair is not whole.
# VM_VETH=0 leaves the veth group out, VM_MODELS=0 the NIC groups (a guest
# of vm-check.sh --split runs one or the other).  A test still running
# after VM_STALL_DUMP seconds (default 300) has its tasks dumped on the
# console (scripts/vm-stall-watch.sh).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
suite="$top/build/selftests/xsk/xsk_test"
out=${VM_OUT:-/tmp}
rc=0
summary=()

. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/vm-nics.sh"

[ -x "$suite" ] || die "$suite missing (make selftests)"
echo "vm-selftests: kernel $(uname -r)${XSK_TIME_SCALE:+, XSK_TIME_SCALE=$XSK_TIME_SCALE}"

# The kernel log since the last look (read and cleared), judged as NAME's
kcheck() {	# NAME [--boot]
	local name=$1
	shift
	if ! dmesg -c > "$out/$name.kmsg" 2>&1; then
		echo "vm-selftests: $name: the kernel log cannot be read: $(head -c 200 "$out/$name.kmsg")"
		rc=1
		return
	fi
	"$top/scripts/kmsg-check.sh" "$@" --name "$name" "$out/$name.kmsg" || {
		echo "vm-selftests: $name: the kernel log is not clean (above; all of it in $name.kmsg): FAIL"
		rc=1
	}
}

# A test still running after VM_STALL_DUMP seconds (default 300, the
# guest's clock) gets its tasks, stacks and packet counts on the console,
# and again every VM_STALL_DUMP while it runs (scripts/vm-stall-watch.sh,
# at a real-time priority where the guest has one): what a test that then
# times out was doing
rt=()
chrt -f 50 true 2>/dev/null && rt=(chrt -f 50)
run() {	# NAME ARGS...
	local name=$1 w
	shift
	echo "vm-selftests: $name: ${XSK_DEVS:+XSK_DEVS=\"$XSK_DEVS\" }${XSK_DEV_POLICY:+XSK_DEV_POLICY=\"$XSK_DEV_POLICY\" }xsk_test $*"
	: > "$out/$name.tap"
	"${rt[@]}" "$top/scripts/vm-stall-watch.sh" --every "${VM_STALL_DUMP:-300}" \
		"$out/$name.tap" &
	w=$!
	"$suite" "$@" 2>&1 | tee "$out/$name.tap"
	[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
	kill "$w" 2>/dev/null
	wait "$w" 2>/dev/null
	kcheck "$name"
	summary+=("$name: $(grep '^# Totals:' "$out/$name.tap" | tail -1 | sed 's/^# //')")
}

# A kernel with kmemleak (KERNEL_DEBUG=1): its scanning thread (nice 10)
# walks the objects inside an RCU read-side section; preempted there on
# the guest's one CPU while a test kept it busy, it held up an RCU grace
# period (an RCU stall report naming kmemleak after 26 s), and the test
# with it (virtio-net's app_killed_mid_run, past its timeout at 120 and
# 300 s; with the periodic scan off it passes).  The periodic scan is
# turned off; the scan after the suite (below) finds what it would have.
kl=/sys/kernel/debug/kmemleak
[ -e $kl ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
if [ -e $kl ]; then
	echo scan=off > $kl && echo "vm-selftests: kmemleak: periodic scan off (one scan after the suite)"
fi

kcheck boot --boot
[ "${VM_VETH:-1}" = 0 ] || run veth
if [ "${VM_MODELS:-1}" = 0 ]; then
	VM_NICS=
elif [ -z "${VM_NICS:-}" ]; then
	die "no NIC pair in the guest (VM_NICS is empty)"
fi
for pair in ${VM_NICS:-}; do
	model=${pair%%:*}
	IFS=, read -r -a devs <<< "${pair#*:}"
	if [ ${#devs[@]} -ne 2 ]; then
		echo "vm-selftests: $model: want two NICs, found: ${pair#*:}: FAIL"
		summary+=("$model: want two NICs, found: ${pair#*:}")
		rc=1
		continue
	fi
	# the nic fixture's veth variant is the veth group's (the harness
	# takes the first filter a test matches: -V before -f)
	XSK_DEVS="${devs[0]} ${devs[1]}" XSK_DEV_POLICY=$(vm_nic_policy "$model") \
		run "$model" -V veth_copy -f nic -v dev -v dev_copy -f zz_after
done

# A kernel with kmemleak: a scan after the suite, and what it reports is
# judged too
if [ -e $kl ]; then
	echo "vm-selftests: kmemleak: scanning"
	echo scan > $kl
	cat $kl > "$out/kmemleak.txt"
	"$top/scripts/kmsg-check.sh" --name "the suite (kmemleak scan)" "$out/kmemleak.txt" || {
		echo "vm-selftests: kmemleak reports leaks (above; all in kmemleak.txt): FAIL"
		rc=1
	}
	kcheck kmemleak
fi
for line in "${summary[@]}"; do
	echo "vm-selftests: $line"
done
exit $rc
