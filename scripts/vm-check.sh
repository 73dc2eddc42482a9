#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-check.sh [--split] [--nics "MODEL..."] [VM-RUN OPTIONS...] - make
# vm-check: scripts/vm-selftests.sh in the test guest (scripts/vm-run.sh,
# whose options other than --nics, --log and --out pass through), on veth
# and on a pair of each NIC model of --nics.
#
# --split runs a guest per model instead of one for all, side by side (the
# veth group in the first guest only: VM_VETH=0 in the others), each with
# its console and output directory of its own, build/vm/console-MODEL.log
# and build/vm/out-MODEL/ (build/vm-debug/... for KERNEL_DEBUG=1, as
# vm-run.sh names them), and prints every guest's summary lines at the end.
# A debug kernel's run takes hours in one guest; on two host CPUs, guests
# side by side finish in about the time of the longest.  Under -icount a
# guest's clock counts its own instructions, so the guests' timeouts do
# not depend on each other.
#
# Exits non-zero when a guest did (a test failed, the kernel log was not
# clean, or the guest did not finish), 2 on bad options.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
# shellcheck disable=SC2034  # read by lib/common.sh
die_status=2
. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/vm-nics.sh"

split=0
nics=igb
opts=()
while [ $# -gt 0 ]; do
	case "$1" in
	--split) split=1; shift ;;
	--nics) nics=${2?--nics needs a list of NIC models}; shift 2 ;;
	--log|--out) die "$1: vm-check.sh names the consoles and output directories itself" ;;
	-h|--help) usage; exit 0 ;;
	*) opts+=("$1"); shift ;;
	esac
done
read -r -a models <<< "$nics"
[ ${#models[@]} -gt 0 ] || die "--nics: no NIC model (want some of: $(vm_nic_models))"
for m in "${models[@]}"; do
	vm_nic_known "$m" || die "--nics: unknown NIC model '$m' (want some of: $(vm_nic_models))"
done

if [ $split -eq 0 ]; then
	exec "$top/scripts/vm-run.sh" "${opts[@]}" --nics "$nics" -- \
		"$top/scripts/vm-selftests.sh"
fi

vm=$(kernel_dir vm)
pids=()
rc=0
for i in "${!models[@]}"; do
	m=${models[$i]}
	rm -rf "$vm/out-$m"
	mkdir -p "$vm"
	veth=1
	[ "$i" -eq 0 ] || veth=0
	say "guest $((i + 1)) of ${#models[@]}: $m$([ $veth = 1 ] && echo ' and veth'); console in $vm/console-$m.log"
	"$top/scripts/vm-run.sh" "${opts[@]}" --nics "$m" \
		--log "$vm/console-$m.log" --out "$vm/out-$m" -- \
		env VM_VETH=$veth "$top/scripts/vm-selftests.sh" >/dev/null 2>&1 &
	pids+=($!)
done
for i in "${!models[@]}"; do
	m=${models[$i]}
	if wait "${pids[$i]}"; then
		st=passed
	else
		st=FAILED
		rc=1
	fi
	grep -a '^vm-selftests: [a-z0-9-]*: \(Totals\|pass:\)' "$vm/console-$m.log" |
		sed "s/^/$m guest: /"
	grep -a 'FAIL\|did not finish\|not clean' "$vm/console-$m.log" | tail -5 |
		sed "s/^/$m guest: /"
	say "$m guest: $st (console $vm/console-$m.log, output $vm/out-$m)"
done
exit $rc
