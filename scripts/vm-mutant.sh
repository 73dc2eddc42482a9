#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-mutant.sh [--suite XSK_TEST] VETH_ARGS IGB_ARGS - run in the test guest by
# scripts/mutation-check.sh: the xsk suite with the xsk_test filter
# arguments VETH_ARGS on veth pairs, then with IGB_ARGS on the igb pair
# (XSK_DEVS, zero-copy where a test asks for it); "-" leaves a run out.
# TAP goes to the console and to $VM_OUT/veth.tap and $VM_OUT/igb.tap;
# $VM_OUT/<run>.started is written before a run and $VM_OUT/<run>.done
# after it, so that a guest that died in a run is told from one that
# finished.  Exits 0 once both runs are done, whatever the tests said.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
suite="$top/build/selftests/xsk/xsk_test"
out=${VM_OUT:-/tmp}

. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/vm-nics.sh"

if [ "${1:-}" = --suite ]; then
	suite=${2:?--suite needs a file}
	shift 2
fi
[ $# -eq 2 ] || { echo "usage: $0 VETH_ARGS IGB_ARGS" >&2; exit 2; }
[ -x "$suite" ] || die "$suite missing (make selftests)"
echo "vm-mutant: kernel $(uname -r)"

run() {	# NAME ARGS (one string, split on blanks)
	local name=$1 args=$2
	[ "$args" = - ] && return 0
	: >"$out/$name.started"
	echo "vm-mutant: $name: ${XSK_DEVS:+XSK_DEVS=\"$XSK_DEVS\" }xsk_test $args"
	# shellcheck disable=SC2086
	"$suite" $args 2>&1 | tee "$out/$name.tap"
	: >"$out/$name.done"
}

run veth "$1"
set -- "$1" "$2" $VM_IGB
[ $# -eq 4 ] || die "want two igb NICs, found: ${VM_IGB:-none}"
XSK_DEVS="$3 $4" XSK_DEV_POLICY=$(vm_nic_policy igb) run igb "$2"
exit 0
