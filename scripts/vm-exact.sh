#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-exact.sh NAME [XDP_SWEEP_OPTIONS...] - run in the test guest under
# QEMU's -icount shift=0 (scripts/exact-cost.sh): the project's xdp_sweep in
# exact cost mode (--icount --count), on a veth pair and on the guest's NIC
# pairs, at full speed and paced, each result as $VM_OUT/NAME-PAIR.json
# (PAIR veth, MODEL or MODEL-paced: igb, igb-paced, virtio-net-paced, ...).
#
# What makes the counts repeat (Documentation/exact_cost.rst): one guest
# CPU, the generator and the receive path on it; counted runs (every frame
# sent is in the window, none lost); a warm-up run per point; and the NICs'
# interrupt throttling off (rx-usecs 0) where the driver has it (igb's
# default is adaptive), so that interrupts come when the frames do, not
# when a timer says; a driver without coalescing settings (ethtool -c
# fails) is left as it is, and said so.
#
# EXACT_PAIRS ("veth igb igb-paced" by default; blanks or commas between)
# chooses the pairs: veth,
# and any NIC model the guest has a pair of ($VM_NICS, scripts/vm-init.sh;
# scripts/exact-cost.sh boots the models that EXACT_PAIRS names), at full
# speed (MODEL) or paced (MODEL-paced): one frame per generator call and
# per NAPI poll (--rate EXACT_PACED_RATE, 1862 frames a second of guest
# time, and --count EXACT_PACED_COUNT, 10000), where an injected cost is
# additive (at full speed it is not: the batching into polls changes with
# it).  The pace leaves the guest idle between frames (a paced igb frame's
# work takes under 200 us of guest time, the period is 537 us) and is not a
# divisor of the tick (4 ms at HZ=250: 7.448 frames a tick), so that the
# tick lands at every phase of the frame's work in a run: at 2000 (8 frames
# a tick) and 20000 (busier than the pace) runs stepped between levels.
# EXACT_COUNT
# (200000), EXACT_REPEAT (5), EXACT_ACTIONS (XDP_DROP,XDP_TX,XDP_PASS,
# XDP_REDIRECT), EXACT_MODES (native) and EXACT_SIZES (64) the matrix.
# AF_XDP rxdrop rows (xdp_sweep --rxdrop) come with veth and the paced NIC
# pairs: EXACT_RXDROP_VETH (copy) and EXACT_RXDROP_DEV are their bind modes
# (EXACT_RXDROP_DEV's default: copy, and zerocopy where the dut's driver
# has xsk-zerocopy in its xdp_features, xdp_rxq_info --features),
# EXACT_RXDROP=0 leaves them out; they are paced, one frame per
# generator call at EXACT_RXDROP_RATE (1862, as above) frames a second of
# guest time, EXACT_PACED_COUNT frames a run: at full speed the generator
# fills the socket's ring before the application, on the same single CPU,
# runs; paced, the application has received each frame and waits in poll()
# again before the next one comes.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
sweep="$top/build/bin/xdp_sweep"
out=${VM_OUT:-/tmp}

. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/vm-nics.sh"

[ "${1:-}" = -h ] || [ "${1:-}" = --help ] &&
	{ usage; exit 0; }
[ $# -ge 1 ] || die "usage: vm-exact.sh NAME [XDP_SWEEP_OPTIONS...]"
name=$1
shift
case "$name" in ''|*/*|-*) die "NAME '$name' must be a plain file name stem" ;; esac
[ -x "$sweep" ] || die "$sweep missing (make)"

opts=(--icount --count "${EXACT_COUNT:-200000}" --repeat "${EXACT_REPEAT:-5}"
      --actions "${EXACT_ACTIONS:-XDP_DROP,XDP_TX,XDP_PASS,XDP_REDIRECT}"
      --modes "${EXACT_MODES:-native}" --sizes "${EXACT_SIZES:-64}"
      --no-plot --out "$out/sweeps")
mkdir -p "$out/sweeps" || die "cannot make $out/sweeps"

# Interrupt throttling off on a NIC whose driver has it (rx-usecs 0);
# true when it is off or the driver has no coalescing settings
no_coalescing() {
	local usecs

	usecs=$(ethtool -c "$1" 2>/dev/null | awk '$1 == "rx-usecs:" { print $2 }') || true
	if [ -z "$usecs" ] || [ "$usecs" = n/a ]; then
		say "$1: its driver has no interrupt coalescing settings (ethtool -c): left as it is"
		return 0
	fi
	[ "$usecs" = 0 ] || ethtool -C "$1" rx-usecs 0
}

rc=0
for pair in $(echo "${EXACT_PAIRS:-veth igb igb-paced}" | tr , ' '); do
	devs=()
	rxdrop=()
	paced=()
	case "$pair" in
	veth)
		[ "${EXACT_RXDROP:-1}" = 0 ] ||
			rxdrop=(--rxdrop "${EXACT_RXDROP_VETH:-copy}"
				--rxdrop-rate "${EXACT_RXDROP_RATE:-1862}"
				--rxdrop-count "${EXACT_PACED_COUNT:-10000}") ;;
	*)
		model=${pair%-paced}
		read -r -a nics <<< "$(vm_nic_pair "$model")"
		[ ${#nics[@]} -eq 2 ] ||
			die "EXACT_PAIRS: '$pair': this guest has no pair of $model NICs (it has: ${VM_NICS:-none}; a pair is veth, MODEL or MODEL-paced)"
		for d in "${nics[@]}"; do
			no_coalescing "$d" || die "$d: cannot turn interrupt throttling off"
		done
		devs=(--devs "${nics[0]},${nics[1]}")
		if [ "$pair" != "$model" ]; then
			paced=(--rate "${EXACT_PACED_RATE:-1862}"
			       --count "${EXACT_PACED_COUNT:-10000}")
			modes=${EXACT_RXDROP_DEV:-copy}
			if [ -z "${EXACT_RXDROP_DEV:-}" ]; then
				feats=$("$top/build/bin/xdp_rxq_info" --features -i "${nics[0]}") ||
					die "${nics[0]}: cannot ask its driver's xdp_features"
				case " ${feats%%;*} " in
				*" xsk-zerocopy "*) modes+=,zerocopy ;;
				*) say "${nics[0]}: no xsk-zerocopy in its driver's xdp_features: AF_XDP rxdrop in copy mode only" ;;
				esac
			fi
			[ "${EXACT_RXDROP:-1}" = 0 ] ||
				rxdrop=(--rxdrop "$modes"
					--rxdrop-rate "${EXACT_RXDROP_RATE:-1862}"
					--rxdrop-count "${EXACT_PACED_COUNT:-10000}")
		fi ;;
	esac
	echo "vm-exact: $name on $pair: xdp_sweep ${opts[*]} ${devs[*]} ${paced[*]} ${rxdrop[*]} $*"
	"$sweep" "${opts[@]}" "${devs[@]}" "${paced[@]}" "${rxdrop[@]}" "$@" \
		> "$out/$name-$pair.txt"
	st=$?
	cat "$out/$name-$pair.txt"
	json=$(tail -1 "$out/$name-$pair.txt")
	if [ $st -ne 0 ] || [ ! -f "$json" ]; then
		say "$name on $pair: xdp_sweep failed (status $st)"
		rc=1
		continue
	fi
	mv "$json" "$out/$name-$pair.json"
done
exit $rc
