#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-selftests.sh DIR OUTPUT [PROG...] - run a kselftest directory's
# run_tests (built in OUTPUT), then each kselftest-harness PROG; keep the TAP
# in OUTPUT/results.tap, and end with the totals of all as one line:
# "N passed, N failed, N skipped", and ", N xfail" when tests ended as
# XFAIL (a known bug, named in the TAP).  Exits non-zero when a test failed or
# errored, or a program did not report its totals (crash, timeout).
set -uo pipefail

. "$(dirname "$0")/lib/common.sh"

dir=$1
out=$2
shift 2
tap="$out/results.tap"
pass=0 fail=0 skip=0 xfail=0 rc=0

# totals FILE: add the last "# Totals:" line of a TAP file to the sums
totals() {
	local t n x
	t=$(grep -E '^(# )*# Totals: ' "$1" | tail -n 1)
	if [ -z "$t" ]; then
		say "$2 reported no totals (crashed or timed out)"
		fail=$((fail + 1))
		return
	fi
	n() { sed -n "s/.*[^a-z]$1:\([0-9]*\).*/\1/p" <<<"$t"; }
	pass=$((pass + $(n pass)))
	fail=$((fail + $(n fail) + $(n error)))
	skip=$((skip + $(n skip)))
	x=$(n xfail)
	xfail=$((xfail + ${x:-0}))
}

# The tools' tests start measuring tools: the suite is one measuring run
# (lib/base/cli.h), which waits for another at its start, and the tools run
# under its lock (they would wait for each other's, and time out)
lock=${XDP_COST_LOCK:-/run/xdp-cost.lock}
if [ -z "${XDP_COST_LOCK_FD:-}" ] && exec 9>>"$lock"; then
	if ! flock -n 9; then
		say "waiting for another measuring run to end ($lock)"
		flock 9
	fi
	export XDP_COST_LOCK_FD=9
	# the holder owns the record of runs beside it (lib/base/cli.c)
	: >"$lock.beside"
	trap 'rm -f "$lock.beside"' EXIT
fi

mkdir -p "$out"
: > "$tap"
make --no-print-directory -C "$dir" OUTPUT="$out" run_tests 2>&1 | tee "$tap.1"
[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
grep -q '^not ok ' "$tap.1" && rc=1
totals "$tap.1" "$dir"
cat "$tap.1" >> "$tap"

for prog in "$@"; do
	"$prog" 2>&1 | tee "$tap.1"
	[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
	totals "$tap.1" "$prog"
	cat "$tap.1" >> "$tap"
done
rm -f "$tap.1"

[ "$fail" -eq 0 ] && [ "$rc" -ne 0 ] && fail=1
echo "$pass passed, $fail failed, $skip skipped$([ "$xfail" -eq 0 ] || echo ", $xfail xfail")"
[ "$fail" -eq 0 ]
