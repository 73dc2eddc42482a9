#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-ab-test.sh [--kernel IMAGE] [--out DIR] [--tolerance PCT]
#                   [--same-tolerance PCT] - the
# proof that the exact-cost A/B is exact (make kernel-ab-test), in two boots
# of one kernel under QEMU -icount, on the veth pair and the igb pair,
# XDP_DROP, XDP_TX, XDP_PASS and XDP_REDIRECT native 64 B:
#
# 1. baseline against baseline: the sweep of boot 1 against the same sweep
#    in boot 2; every row must say "no change" (within --same-tolerance,
#    default 0.5%: between boots at this test's 20000 frames a run the
#    medians moved by up to 0.195% in the spread study and once by 0.308%,
#    veth XDP_REDIRECT, in a CI run),
#    but igb XDP_PASS, whose runs of 20000 frames step between levels
#    1.4% apart in some boots: it is shown, not judged.
# 2. an injected change of known size: the XDP program with N more spin
#    units per frame (xdp_sweep --spin; A has 1, so that the loop's set-up
#    is on both sides).  One unit's cost u is counted first, from 1000
#    units (B --spin 1001) on the veth pair's XDP_DROP; then N = 1, 10 and
#    100 must come out as +N*u insns per packet on every path of the veth
#    pair, within --tolerance PCT% of the path's figure (default 0.5%: at
#    20000 frames a CI run saw +10 units on XDP_TX come out 3.4 insns short
#    and +100 on XDP_REDIRECT 3.6 short, 0.40% and 0.38%; the 0.1% spread
#    holds at the 200000 frames of kernel-ab), or within the spread (max -
#    min) of A's runs plus that of B's on that path when that is larger,
#    and at least 0.5 insns.  On
#    the igb pair the figures are shown and N = 100 must be more than half
#    of +100*u: at full speed QEMU's igb batches frames differently when
#    the program is dearer, so its cost is not additive (exact_cost.rst).
#
# Prints the A/B reports and one line per check; ends with "N passed,
# N failed".  Exit status 0 when every check passed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kernel="$top/build/kbuild/arch/x86/boot/bzImage"
out="$top/build/kernel-ab-test"
tolerance=0.5
same_tolerance=0.5

die() { echo "kernel-ab-test: $*" >&2; exit 1; }
usage() { sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//p}' "$0"; }

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=${2:?--kernel needs a file}; shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--tolerance) tolerance=${2:?--tolerance needs a percentage}; shift 2 ;;
	--same-tolerance) same_tolerance=${2:?--same-tolerance needs a percentage}; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
[ -f "$kernel" ] || die "no kernel image $kernel (make kernel)"
case "$tolerance" in ''|*[!0-9.]*) die "--tolerance '$tolerance' is not a percentage" ;; esac
case "$same_tolerance" in ''|*[!0-9.]*) die "--same-tolerance '$same_tolerance' is not a percentage" ;; esac
compare="$top/build/bin/xdp_compare"
[ -x "$compare" ] || die "$compare missing (make)"

start=$(date +%s)
rm -rf "$out"
mkdir -p "$out"
# 20000 frames per run: the spread between boots is larger than at the
# 200000 of kernel-ab (exact_cost.rst), hence the test's own tolerance
export EXACT_COUNT=${EXACT_COUNT:-20000}
"$top/scripts/exact-cost.sh" --kernel "$kernel" --out "$out/boot1" \
	"a --spin 1" "k1 --spin 2 --repeat 3" "k10 --spin 11 --repeat 3" \
	"k100 --spin 101 --repeat 3" "cal --spin 1001 --repeat 3"
"$top/scripts/exact-cost.sh" --kernel "$kernel" --out "$out/boot2" \
	"a --spin 1"

pass=0 fail=0
check() {	# ok|fail|info WHAT
	if [ "$1" = info ]; then
		echo "info: $2"
	elif [ "$1" = ok ]; then
		pass=$((pass + 1)); echo "ok: $2"
	else
		fail=$((fail + 1)); echo "FAIL: $2"
	fi
}

for pair in veth igb; do
	a1="$out/boot1/a-$pair.json" a2="$out/boot2/a-$pair.json"
	echo
	echo "== $pair: baseline against baseline (boot 1 against boot 2) =="
	"$compare" --tolerance "$same_tolerance" "$a1" "$a2" | tee "$out/same-$pair.txt" ||
		die "xdp_compare failed on $a1 $a2"
	"$compare" --json --tolerance "$same_tolerance" "$a1" "$a2" > "$out/same-$pair.json"
	while read -r verdict what; do
		check "$verdict" "$what"
	done < <(python3 - "$out/same-$pair.json" "$pair" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for p in r["points"]:
    ok = p["within_tolerance"]
    # igb XDP_PASS at 20000 frames a run: runs step by ~36.5 insns/pkt in
    # some boots (exact_cost.rst); shown, not judged
    unstable = sys.argv[2] == "igb" and p["action"] == "XDP_PASS"
    print("info" if unstable else "ok" if ok else "fail",
          "%s %s: no change (%+.2f insns, %+.4f%%)" % (sys.argv[2], p["label"],
          p["delta_ns"], p["delta_pct"]))
PY
)
	for n in 1 10 100; do
		echo
		echo "== $pair: $n spin unit(s) more per frame =="
		"$compare" --force "$a1" "$out/boot1/k$n-$pair.json" |
			tee "$out/k$n-$pair.txt" | grep -v '^  \|^NOT ALIKE' || true
	done
	while read -r verdict what; do
		check "$verdict" "$what"
	done < <(python3 - "$out/boot1" "$pair" "$tolerance" <<'PY'
import json, statistics, sys
d, pair, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])

def load(name):
    r = json.load(open("%s/%s-%s.json" % (d, name, pair)))
    return {p["action"] + " " + p["mode"]:
            [x["ns_per_pkt"] for x in p["runs"] if x["ok"]]
            for p in r["points"]}

def med(name):
    return {k: statistics.median(v) for k, v in load(name).items()}

def spread(name):
    return {k: max(v) - min(v) for k, v in load(name).items()}

a, cal, a_spread = med("a"), med("cal"), spread("a")
# one unit's cost is the program's: counted where nothing else moves with
# it, on the veth pair's XDP_DROP (the same u holds on every path)
u = None
for name in ("a", "cal"):
    x = json.load(open("%s/%s-veth.json" % (d, name)))
    m = [statistics.median(y["ns_per_pkt"] for y in p["runs"] if y["ok"])
         for p in x["points"] if p["action"] == "XDP_DROP" and p["mode"] == "native"]
    u = m[0] if u is None else (m[0] - u) / 1000
for n in (1, 10, 100):
    k, k_spread = med("k%d" % n), spread("k%d" % n)
    for path in a:
        want, got = n * u, k[path] - a[path]
        # the medians of A and B each lie within their runs' spread
        room = max(tol / 100 * a[path], 0.5, a_spread[path] + k_spread[path])
        if pair == "igb":
            # Not additive at full speed on QEMU's igb (exact_cost.rst):
            # only that it is dearer is checked; the figure is shown
            ok = n < 100 or got > 0.5 * want
            what = "dearer (not checked for size on igb)" if n == 100 else "shown"
        else:
            ok = abs(got - want) <= room
            what = "allowed +-%.2f" % room
        print("info" if pair == "igb" and n < 100 else "ok" if ok else "fail",
              "%s %s: +%d unit(s) = %+.2f insns per packet, expected %+.2f "
              "(u = %.3f insns, %s)" % (pair, path, n, got, want, u, what))
PY
)
done
echo
echo "kernel-ab-test: $(( $(date +%s) - start )) s"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
