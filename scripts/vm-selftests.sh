#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-selftests.sh - run in the test guest (by `make vm-check`): the xsk
# kselftest suite on veth pairs, then its real-driver tests on the igb pair
# in zero-copy mode (XSK_DEVS), each as TAP on the console and in $VM_OUT.
# Exits non-zero when a test failed, or when the igb pair is missing.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
suite="$top/build/selftests/xsk/xsk_test"
out=${VM_OUT:-/tmp}
rc=0

. "$top/scripts/lib/common.sh"

[ -x "$suite" ] || die "$suite missing (make selftests)"
echo "vm-selftests: kernel $(uname -r)"

run() {	# NAME ARGS...
	local name=$1
	shift
	echo "vm-selftests: $name: ${XSK_DEVS:+XSK_DEVS=\"$XSK_DEVS\" }xsk_test $*"
	"$suite" "$@" 2>&1 | tee "$out/$name.tap"
	[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
}

run veth
set -- $VM_IGB
[ $# -eq 2 ] || die "want two igb NICs, found: ${VM_IGB:-none}"
XSK_DEVS="$1 $2" run igb -f nic -v dev -v dev_copy -f zz_after
exit $rc
