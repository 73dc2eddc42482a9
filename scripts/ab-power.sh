#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab-power.sh [OUT] - how small a change the interleaved A/B finds: XDP_DROP
# native 64 B against itself (no change) and with N inline multiply-adds
# more per frame (--b-spin N, about 1.3 ns each here), at the default
# settings and at more, shorter runs.  A benchmark for
# Documentation/compare.rst, not a test.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/results/ab-power}
mkdir -p "$out"
ab() {
	local t0=$SECONDS
	"$top/build/bin/xdp_sweep" --ab --actions XDP_DROP --modes native \
		--sizes 64 --no-plot --out "$out" "$@" 2>/dev/null |
		grep -A1 -E '^XDP_DROP native 64B' | tr -s ' \n' ' '
	echo "($((SECONDS - t0)) s)"
}
for n in 0 2 8 16 32; do
	printf 'repeat 5 x 1 s, B spins %2d more: ' "$n"
	ab --b-spin "$n"
done
for n in 0 2 4; do
	printf 'repeat 30 x 0.2 s, B spins %2d more: ' "$n"
	ab --b-spin "$n" --repeat 30 --duration 0.2 --warmup 0.05
done
