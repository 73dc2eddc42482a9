#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-check.sh [--split [--guests "GUEST..."]] [--nics "MODEL..."]
#              [VM-RUN OPTIONS...] - make
# vm-check: scripts/vm-selftests.sh in the test guest (scripts/vm-run.sh,
# whose options other than --nics, --log and --out pass through), on veth
# and on a pair of each NIC model of --nics.
#
# --split runs a guest per model instead of one for all, and one more for
# the veth group (booted with the first model's pair, which it leaves
# alone: VM_MODELS=0; VM_VETH=0 in the others), side by side, each with
# its console and output directory of its own, build/vm/console-GUEST.log
# and build/vm/out-GUEST/ (GUEST: veth or the model; build/vm-debug/...
# for KERNEL_DEBUG=1, as vm-run.sh names them), and prints every guest's
# summary lines at the end.  --guests runs only those of them (veth and
# models of --nics; default all), the others' consoles and output left as
# they are: a debug run resumed a guest at a time.
# A debug kernel's run takes hours in one guest; side by side the guests
# finish sooner, each slower than alone (one host CPU per guest at most,
# and 2 GiB of memory each).  Under -icount a guest's clock counts its own
# instructions, so the tests' timeouts in one guest do not depend on the
# others; --timeout (vm-run.sh's) is the host's clock and does.  What
# vm-run.sh says of a guest (not finished, no status) is in
# build/vm/run-MODEL.err and printed when that guest failed; the guests
# are killed when this script is.
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
only=
only_set=0
opts=()
while [ $# -gt 0 ]; do
	case "$1" in
	--split) split=1; shift ;;
	--guests) [ $# -ge 2 ] || die "--guests needs a list of guests"
		only=$2 only_set=1; shift 2 ;;
	--nics) [ $# -ge 2 ] || die "--nics needs a list of NIC models"
		nics=$2; shift 2 ;;
	--log|--out) die "$1: vm-check.sh names the consoles and output directories itself" ;;
	-h|--help) usage; exit 0 ;;
	*) opts+=("$1"); shift ;;
	esac
done
why=$(vm_nic_list_error "$nics") || die "$why"
read -r -a models <<< "$nics"
# the guests: veth, then a model each (or those of --guests)
guests=(veth "${models[@]}")
if [ $only_set -eq 1 ]; then
	[ $split -eq 1 ] || die "--guests: only with --split"
	read -r -a want <<< "$only"
	[ ${#want[@]} -gt 0 ] || die "--guests: no guest"
	for i in "${!want[@]}"; do
		g=${want[$i]}
		case " ${guests[*]} " in
		*" $g "*) ;;
		*) die "--guests: no guest '$g' (the guests: ${guests[*]})" ;;
		esac
		case " ${want[*]:0:$i} " in
		*" $g "*) die "--guests '$only' names a guest twice" ;;
		esac
	done
	guests=("${want[@]}")
fi

if [ $split -eq 0 ]; then
	exec "$top/scripts/vm-run.sh" "${opts[@]}" --nics "$nics" -- \
		"$top/scripts/vm-selftests.sh"
fi

vm=$(kernel_dir vm)
mkdir -p "$vm"
pids=()
rc=0
# Each guest in a process group of its own (setsid), all of it killed
# should this script be
stop() {
	local p

	for p in "${pids[@]}"; do
		kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null
	done
}
trap 'stop; exit 1' INT TERM HUP
# what each guest boots with and runs
for i in "${!guests[@]}"; do
	g=${guests[$i]}
	if [ "$g" = veth ]; then
		nic=${models[0]} env=(VM_VETH=1 VM_MODELS=0)
	else
		nic=$g env=(VM_VETH=0)
	fi
	rm -rf "$vm/out-$g" "$vm/console-$g.log" "$vm/run-$g.err"
	say "guest $((i + 1)) of ${#guests[@]}: $g; console in $vm/console-$g.log"
	setsid -w "$top/scripts/vm-run.sh" "${opts[@]}" --nics "$nic" \
		--log "$vm/console-$g.log" --out "$vm/out-$g" -- \
		env "${env[@]}" "$top/scripts/vm-selftests.sh" \
		>/dev/null 2>"$vm/run-$g.err" </dev/null &
	pids+=($!)
done
for i in "${!guests[@]}"; do
	g=${guests[$i]}
	if wait "${pids[$i]}"; then
		st=passed
	else
		st=FAILED
		rc=1
	fi
	if [ -f "$vm/console-$g.log" ]; then
		grep -a '^vm-selftests: [a-z0-9-]*: \(Totals\|pass:\)' "$vm/console-$g.log" |
			sed "s/^/$g guest: /"
		grep -a 'FAIL\|not clean' "$vm/console-$g.log" | tail -5 |
			sed "s/^/$g guest: /"
	fi
	[ $st = passed ] || sed "s/^/$g guest: /" "$vm/run-$g.err" >&2
	say "$g guest: $st (console $vm/console-$g.log, output $vm/out-$g)"
done
trap - INT TERM HUP
exit $rc
