#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-ab.sh [OPTIONS] - the exact per-packet cost of a kernel change: build
# the baseline kernel and the patched one, run the exact-cost sweep on each
# under QEMU -icount (scripts/exact-cost.sh: veth pair, igb pair at full
# speed and paced, AF_XDP rxdrop; guest instructions per packet), and print
# the A/B report of B (patched) against
# A (baseline) in the reviewers' format, one line per path:
#
#   XDP_DROP igb native 64B 1 flow: +0.40% / +3.0 insns per packet [...]
#
# Options (make kernel-ab BASE=... SERIES=... TOLERANCE=...):
#   --base TREE      the baseline kernel tree (default: kernel/ at its tag
#                    baseline; kernel/ must have no uncommitted changes, it
#                    is checked out at the tag for the build and back after)
#   --series TREE    the patched tree (default: kernel/ as it is)
#   --kernel-dir DIR the work tree meant by kernel/ above (default kernel/)
#   --base-image IMG, --series-image IMG  bzImages built already: no build
#                    (both or neither; scripts/mutation-check.sh uses them)
#   --out DIR        results and the report (default build/kernel-ab)
#   --title TEXT     what the report's first line names B and A by
#                    (default: the trees, or the images)
#   --tolerance PCT  a change within PCT% of A is "no change" (default
#                    0.1, the spread measured here; Documentation/exact_cost.rst)
#   --funcs          per path, also the functions that moved (the QEMU
#                    plugin's per-function counts, scripts/exact-cost.sh
#                    --funcs): "XDP_DROP igb native 64B 1 flow: +35.02
#                    insns/pkt in the window (spread 0.40): igb_clean_rx_irq
#                    +30.10, ..."
#   --cache          --funcs, and the plugin's modelled L1d/L1i misses
#   --parallel       boot A and B at once (two host CPUs: the guests'
#                    instruction counts do not depend on the host's load)
#   --timeout SEC    kill a guest that has not finished (scripts/exact-cost.sh's
#                    --timeout, default 1800; a larger EXACT_* matrix, or a
#                    kernel slower under TCG, may need more)
# EXACT_* variables choose the matrix (scripts/vm-exact.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
base="" series="" out=$(kernel_dir kernel-ab) tolerance=0.1 kdir=$kernel_tree
base_image="" series_image="" funcs=() timeout=() title="" parallel=0

. "$top/scripts/lib/common.sh"

while [ $# -gt 0 ]; do
	case "$1" in
	--base) base=${2:?--base needs a tree}; shift 2 ;;
	--series) series=${2:?--series needs a tree}; shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--title) title=${2:?--title needs a text}; shift 2 ;;
	--kernel-dir) kdir=${2:?--kernel-dir needs a directory}; shift 2 ;;
	--base-image) base_image=${2:?--base-image needs a bzImage}; shift 2 ;;
	--series-image) series_image=${2:?--series-image needs a bzImage}; shift 2 ;;
	--tolerance) tolerance=${2:?--tolerance needs a percentage}; shift 2 ;;
	--funcs) funcs=(--funcs); shift ;;
	--cache) funcs=(--cache); shift ;;
	--parallel) parallel=1; shift ;;
	--timeout) want_whole "${2:-}" "--timeout '${2:-}' is not a number of seconds"
		   [ "$2" -gt 0 ] || die "--timeout '$2' is not a number of seconds"
		   timeout=(--timeout "$2"); shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
for t in "$base" "$series"; do
	[ -z "$t" ] || [ -f "$t/Makefile" ] ||
		die "'$t' is not a kernel tree (no Makefile)"
done
want_decimal "$tolerance" "--tolerance '$tolerance' is not a percentage"

build() {	# TREE OUT
	JOBS=${JOBS:-$(nproc)} "$top/scripts/kernel-build.sh" "$1" "$2" ||
		die "building $1 failed"
}

# The baseline of kernel/: the tag, built in kernel/ itself (so that ccache
# hits the objects of earlier builds: they are keyed by the source path)
build_tag() {	# OUT
	at_baseline "$kdir" --hint "commit them (or give --base)" build "$kdir" "$1"
}

if [ -n "$base_image$series_image" ] &&
   { [ -z "$base_image" ] || [ -z "$series_image" ]; }; then
	die "--base-image and --series-image go together"
fi
for i in "$base_image" "$series_image"; do
	[ -z "$i" ] || [ -f "$i" ] || die "no kernel image '$i'"
done

start=$(date +%s)
mkdir -p "$out"
if [ -n "$base_image" ]; then
	kernel_a=$base_image kernel_b=$series_image
	base=${base:-$base_image} series=${series:-$series_image}
elif [ -n "$base" ]; then
	img_a=$(kernel_dir kbuild-ab-base)
	build "$base" "$img_a"
else
	img_a=$(kernel_dir kbuild-base)
	build_tag "$img_a"
fi
if [ -n "$base_image" ]; then
	:
elif [ -n "$series" ]; then
	img_b=$(kernel_dir kbuild-ab-series)
	build "$series" "$img_b"
else
	img_b=$kernel_out
	build "$kdir" "$img_b"
fi
if [ -z "$base_image" ]; then
	kernel_a=$img_a/arch/x86/boot/bzImage kernel_b=$img_b/arch/x86/boot/bzImage
fi
built=$(date +%s)

# The pairs either side has a result of (EXACT_PAIRS): veth first, then
# each NIC model at full speed and paced
pairs() {
	local f

	for f in "$out"/a/a-*.json "$out"/b/b-*.json; do
		[ -f "$f" ] || continue
		f=${f##*/}
		f=${f#?-}
		echo "${f%.json}"
	done | sort -u |
		awk '$0 == "veth" { print; next } { rest[++n] = $0 }
		     END { for (i = 1; i <= n; i++) print rest[i] }'
}

rm -f "$out"/a-*.json "$out"/b-*.json
side() {	# NAME IMAGE
	"$top/scripts/exact-cost.sh" "${funcs[@]}" "${timeout[@]}" --kernel "$2" \
		--out "$out/$1" "$1" > "$out/$1-functions.txt"
}
if [ "$parallel" = 1 ]; then
	side a "$kernel_a" & pid_a=$!
	side b "$kernel_b" & pid_b=$!
	trap 'kill "$pid_a" "$pid_b" 2>/dev/null' EXIT
	st_a=0 st_b=0
	wait "$pid_a" || st_a=$?
	wait "$pid_b" || st_b=$?
	trap - EXIT
	[ "$st_a" -eq 0 ] || die "A's exact-cost run failed ($out/a/vm.log)"
	[ "$st_b" -eq 0 ] || die "B's exact-cost run failed ($out/b/vm.log)"
else
	side a "$kernel_a"
	side b "$kernel_b"
fi

{
	echo "Exact cost, ${title:-B (${series:-kernel/ HEAD}) against A (${base:-kernel/ tag baseline})}:"
	echo "guest instructions per packet under QEMU -icount shift=0 (TCG), NET_RX softirq"
	echo "time of the receive path; not cycles (Documentation/exact_cost.rst)"
	for pair in $(pairs); do
		echo
		case "$pair" in
		veth) echo "== veth pair ==" ;;
		*-paced) echo "== ${pair%-paced} pair, paced: one frame per NAPI poll, an added cost is additive ==" ;;
		*) echo "== $pair pair, full speed: batching included, not additive ==" ;;
		esac
		"$top/build/bin/xdp_compare" --tolerance "$tolerance" \
			"$out/a/a-$pair.json" "$out/b/b-$pair.json" ||
			die "comparing the $pair results failed"
		[ ${#funcs[@]} -eq 0 ] && continue
		echo
		echo "Per function: B against A, guest instructions per packet in each run's whole"
		echo "window (generator and tool included; mean of the runs), the functions that moved"
		echo "beyond the spread of their runs (QEMU plugin, Documentation/exact_cost.rst):"
		"$top/scripts/exact-funcs.py" ab "$out/a/a-$pair.json" "$out/b/b-$pair.json" ||
			die "comparing the $pair per-function counts failed"
	done
	if [ ${#funcs[@]} -gt 0 ]; then
		echo
		echo "Each point's top functions: $out/a-functions.txt (A), $out/b-functions.txt (B)"
	fi
} | tee "$out/report.txt"
say "builds $(( built - start )) s, exact-cost runs $(( $(date +%s) - built )) s; report in $out/report.txt"
