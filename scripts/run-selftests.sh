#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-selftests.sh DIR OUTPUT - run a kselftest directory's run_tests with
# its build in OUTPUT, keep the TAP in OUTPUT/results.tap, and end with the
# totals as one line: "N passed, N failed, N skipped".  Exits non-zero when
# a test failed, errored, or the suite did not report its totals.
set -uo pipefail

dir=$1
out=$2
tap="$out/results.tap"

mkdir -p "$out"
make --no-print-directory -C "$dir" OUTPUT="$out" run_tests 2>&1 | tee "$tap"
rc=${PIPESTATUS[0]}

totals=$(grep -E '^(# )*# Totals: ' "$tap" | tail -n 1)
if [ -z "$totals" ]; then
	echo "run-selftests: $dir reported no totals (crashed or timed out); TAP in $tap" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
num() { sed -n "s/.*[^a-z]$1:\([0-9]*\).*/\1/p" <<<"$totals"; }
pass=$(num pass)
fail=$(( $(num fail) + $(num error) ))
skip=$(num skip)
grep -q '^not ok ' "$tap" && [ "$fail" -eq 0 ] && fail=1
echo "$pass passed, $fail failed, $skip skipped"
[ "$rc" -eq 0 ] && [ "$fail" -eq 0 ]
