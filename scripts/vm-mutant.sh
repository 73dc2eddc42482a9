#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-mutant.sh [--suite XSK_TEST] [--model MODEL] VETH_ARGS DEV_ARGS - run
# in the test guest by scripts/mutation-check.sh: the xsk suite with the
# xsk_test filter arguments VETH_ARGS on veth pairs, then with DEV_ARGS on
# the guest's pair of MODEL NICs (igb by default; $VM_NICS, XSK_DEVS and
# the model's XSK_DEV_POLICY, zero-copy where a test asks for it); "-"
# leaves a run out.  TAP goes to the console and to $VM_OUT/veth.tap and
# $VM_OUT/MODEL.tap; $VM_OUT/<run>.started is written before a run and
# $VM_OUT/<run>.done after it, so that a guest that died in a run is told
# from one that finished.  Exits 0 once both runs are done, whatever the
# tests said.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
suite="$top/build/selftests/xsk/xsk_test"
out=${VM_OUT:-/tmp}

. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/vm-nics.sh"

model=igb
while [ $# -gt 2 ]; do
	case "$1" in
	--suite) suite=${2:?--suite needs a file}; shift 2 ;;
	--model) model=${2:?--model needs a NIC model}; shift 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { echo "usage: $0 [--suite XSK_TEST] [--model MODEL] VETH_ARGS DEV_ARGS" >&2; exit 2; }
vm_nic_known "$model" || die "--model '$model' is not a NIC model (one of: $(vm_nic_models))"
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
read -r -a nics <<< "$(vm_nic_pair "$model")"
[ ${#nics[@]} -eq 2 ] || die "want two $model NICs, found: ${VM_NICS:-none}"
XSK_DEVS="${nics[0]} ${nics[1]}" XSK_DEV_POLICY=$(vm_nic_policy "$model") run "$model" "$2"
exit 0
