#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-selftests.sh - run in the test guest (by `make vm-check`): the xsk
# kselftest suite on veth pairs, then its real-driver tests on the igb pair
# in zero-copy mode (XSK_DEVS), each as TAP on the console and in $VM_OUT.
# The kernel log is judged after the boot and after each group
# (scripts/kmsg-check.sh: a WARNING, BUG, KASAN, lockdep or other splat
# fails the run, printed with the group that ran) and kept as
# $VM_OUT/GROUP.kmsg; on a kernel with kmemleak, a scan after the suite
# is judged the same way.  Exits non-zero when a test failed, the kernel
# log has a splat or cannot be read, or the igb pair is missing.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
suite="$top/build/selftests/xsk/xsk_test"
out=${VM_OUT:-/tmp}
rc=0

. "$top/scripts/lib/common.sh"

[ -x "$suite" ] || die "$suite missing (make selftests)"
echo "vm-selftests: kernel $(uname -r)"

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

run() {	# NAME ARGS...
	local name=$1
	shift
	echo "vm-selftests: $name: ${XSK_DEVS:+XSK_DEVS=\"$XSK_DEVS\" }xsk_test $*"
	"$suite" "$@" 2>&1 | tee "$out/$name.tap"
	[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
	kcheck "$name"
}

kcheck boot --boot
run veth
set -- $VM_IGB
[ $# -eq 2 ] || die "want two igb NICs, found: ${VM_IGB:-none}"
XSK_DEVS="$1 $2" run igb -f nic -v dev -v dev_copy -f zz_after

# A kernel with kmemleak (KERNEL_DEBUG=1): a scan after the suite, and
# what it reports is judged too
kl=/sys/kernel/debug/kmemleak
[ -e $kl ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
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
exit $rc
