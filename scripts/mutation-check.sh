#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutation-check.sh [OPTIONS] - how strong the suite is, measured: re-introduce
# known driver bugs one at a time and see that a test fails.  Each mutant is
# a small patch in tests/mutants/NAME.patch against kernel/ (the series
# applied), with a header before its first "diff --git" line:
#
#   Family: the bug family it mirrors
#   Mirrors: the upstream fix it mirrors (commit, subject), or "none, family only"
#   Veth: xsk_test filter arguments for the run on veth pairs, or -
#   Dev: xsk_test filter arguments for the run on the NIC pair, or -
#   Model: the NIC pair's model (scripts/lib/vm-nics.sh; igb when not
#         given): the driver the mutant is in
#   Cost: ab (a cost bug: the exact A/B against the unmutated kernel too)
#   Qemu: not catchable: WHY (a bug no test can catch on QEMU's model:
#         listed, not run unless --all; Documentation/mutation_check.rst)
#   Kernel: debug: WHY (only a debug kernel's log can catch it, e.g. a
#         sleeping allocation in NAPI that DEBUG_ATOMIC_SLEEP reports:
#         listed, not run unless KERNEL_DEBUG=1 or --all)
#
# A splat in the guest's kernel log (scripts/kmsg-check.sh on the log
# vm-init.sh keeps) catches a mutant too ("kernel-log: FIRST LINE"), and
# the unmutated kernel's log must be clean.
#
# For each mutant: git apply in kernel/, an incremental build (build/kbuild,
# so that ccache hits), the tree restored at once, the image booted under
# QEMU (-icount, a pair of the mutant's NIC model, scripts/vm-mutant.sh)
# running the suite with the mutant's filters; for "Cost: ab", scripts/kernel-ab.sh's comparison
# of its image against the unmutated one.  One line per mutant:
#
#   tx-comp-overcount: caught by igb:nic.dev_zerocopy.completions_exact
#   need-wakeup-rx-clear: SURVIVED
#
# and last "mutants: N caught, M survived" (and ", K not catchable in QEMU"
# for those not run).  A test that fails, or during
# which the guest died (panic, timeout), catches the mutant; so does an
# A/B with a point dearer.  The results are also in OUT/results.json and
# OUT/results.tap; per mutant, OUT/NAME/ has the build log, console, TAP.
# kernel/ is restored after every mutant and at exit (also on error or
# interrupt), and build/kbuild is rebuilt from the restored tree at the end.
#
# Options (make mutation-check MUTANTS=a,b MUTATION_OPTS=...):
#   --mutants A,B   only these (names without .patch; default: all)
#   --out DIR       results (default build/mutants)
#   --ref           first run the unmutated kernel with every mutant's
#                   filters: each of those tests must pass there
#   --no-ab         leave out the exact A/B of cost mutants
#   --all           run the mutants marked not catchable in QEMU as well
#   --timeout SEC   per guest (default 900)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
kdir=$kernel_tree mdir="$top/tests/mutants" out=$(kernel_dir mutants)
only="" ref=0 ab=1 timeout=900 all=0

. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/vm-nics.sh"

while [ $# -gt 0 ]; do
	case "$1" in
	--mutants) only=${2?--mutants needs names}; shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--ref) ref=1; shift ;;
	--no-ab) ab=0; shift ;;
	--all) all=1; shift ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done

[ -d "$kdir/.git" ] || die "$kdir is not a kernel work tree (make kernel-tree)"
[ -z "$(git -C "$kdir" status --porcelain --untracked-files=no)" ] ||
	die "kernel/ has uncommitted changes: commit them first (mutants are applied to it)"
suite="$top/build/selftests/xsk/xsk_test"
[ -x "$suite" ] || die "$suite missing (make selftests)"

# The mutants, in name order, or those of --mutants
names=()
if [ -n "$only" ]; then
	IFS=, read -r -a names <<<"$only"
	for n in "${names[@]}"; do
		[ -f "$mdir/$n.patch" ] || die "no mutant $n (tests/mutants/$n.patch)"
	done
else
	for p in "$mdir"/*.patch; do
		[ -f "$p" ] && names+=("$(basename "$p" .patch)")
	done
fi
[ ${#names[@]} -gt 0 ] || die "no mutants in $mdir"

field() {	# PATCH FIELD: the header field's value (before the diff)
	sed -n "/^diff --git/q;s/^$2: *//p" "$1" | head -1
}
model_of() {	# PATCH: its Model:, igb when it has none
	local m

	m=$(field "$1" Model)
	echo "${m:-igb}"
}
for n in "${names[@]}"; do
	p="$mdir/$n.patch"
	for f in Family Mirrors Veth Dev; do
		[ -n "$(field "$p" $f)" ] || die "$n: no '$f:' line in its header"
	done
	vm_nic_known "$(model_of "$p")" ||
		die "$n: 'Model: $(model_of "$p")' is not a NIC model (one of: $(vm_nic_models))"
	git -C "$kdir" apply --check "$p" 2>/dev/null ||
		die "$n does not apply to kernel/ (git -C kernel apply --check $p)"
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
# The suite as it is now: a build of it meanwhile does not change the run
cp "$suite" "$out/xsk_test"
touched=()
restore() {	# kernel/ as it was: the files the applied mutant touched
	if [ ${#touched[@]} -gt 0 ]; then
		git -C "$kdir" checkout -q -- "${touched[@]}"
		touched=()
	fi
}
on_exit() {
	local rc=$?
	restore
	[ -z "$(git -C "$kdir" status --porcelain --untracked-files=no)" ] ||
		say "kernel/ still differs from its HEAD: check it"
	exit $rc
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

build() {	# LOG: build kernel/ as it is into build/kbuild
	"$top/scripts/kernel-build.sh" "$kdir" "$kernel_out" >"$1" 2>&1
}

say "${#names[@]} mutants; the unmutated kernel first"
start=$(date +%s)
build "$out/build-ref.log" || die "building the unmutated kernel failed, see $out/build-ref.log"
cp "$kernel_image" "$out/img-ref"

boot() {	# IMAGE DIR VETH DEV MODEL: the suite in the guest, into DIR
	rm -rf "$2/vm"
	"$top/scripts/vm-run.sh" --icount --timeout "$timeout" --kernel "$1" \
		--nics "$5" --log "$2/console.log" --out "$2/vm" -- \
		scripts/vm-mutant.sh --suite "$out/xsk_test" --model "$5" "$3" "$4" \
		>/dev/null 2>"$2/vm-run.err" || true
}

# The tests a run caught the mutant with, one per line (RUN:TEST), and
# the test the guest died in, if it did
caught_in() {	# DIR RUN
	local tap="$1/vm/$2.tap" t
	[ -f "$1/vm/$2.started" ] || return 0
	[ -f "$tap" ] && grep -E '^not ok [0-9]+ ' "$tap" |
		sed -E "s/^not ok [0-9]+ ([^ ]+).*/$2:\1/"
	if [ ! -f "$1/vm/$2.done" ]; then
		t=$(grep -E '^#  RUN ' "$tap" 2>/dev/null | tail -1 |
		    sed -E 's/^#  RUN +([^ ]+).*/\1/')
		echo "$2:${t:-start} (guest died: $(died_how "$1"))"
	fi
}

# "kernel-log: FIRST LINE" when the run's kernel log has a splat
log_caught() {	# DIR
	local l="$1/vm/kmsg.log" first
	[ -f "$l" ] || return 0
	first=$("$top/scripts/kmsg-check.sh" "$l" | grep -m1 -vE '^kmsg-check:|cut here' |
		sed -E 's/^ *(<[0-9]+>)?(\[ *[0-9.]+\] )?//; s/,/;/g')
	[ -z "$first" ] || echo "kernel-log: $first"
}

died_how() {	# DIR: panic, timeout or stopped
	if grep -q 'Kernel panic' "$1/console.log" 2>/dev/null; then
		echo panic
	elif grep -q 'did not finish' "$1/vm-run.err" 2>/dev/null; then
		echo timeout
	else
		echo stopped
	fi
}

# The unmutated kernel must pass what the mutants' runs run
if [ $ref -eq 1 ]; then
	rd="$out/ref"
	mkdir -p "$rd"
	# one boot per model: the veth filters go with the first
	models=()
	for n in "${names[@]}"; do
		m=$(model_of "$mdir/$n.patch")
		case " ${models[*]} " in *" $m "*) ;; *) models+=("$m") ;; esac
	done
	veth_all=""
	for n in "${names[@]}"; do
		v=$(field "$mdir/$n.patch" Veth)
		[ "$v" = - ] || veth_all+=" $v"
	done
	for m in "${models[@]}"; do
		dev_all=""
		for n in "${names[@]}"; do
			[ "$(model_of "$mdir/$n.patch")" = "$m" ] || continue
			i=$(field "$mdir/$n.patch" Dev)
			[ "$i" = - ] || dev_all+=" $i"
		done
		say "unmutated kernel, every $m mutant's tests"
		mkdir -p "$rd/$m"
		boot "$out/img-ref" "$rd/$m" "${veth_all:--}" "${dev_all:--}" "$m"
		veth_all=""
		bad=$( { caught_in "$rd/$m" veth; caught_in "$rd/$m" "$m"; log_caught "$rd/$m"; } | tr '\n' ' ')
		[ -z "$bad" ] || die "the unmutated kernel fails: $bad(see $rd/$m): fix that first"
	done
fi

# NAME, caught|survived|uncatchable, by, seconds: joined by the unit
# separator, which (unlike a tab) IFS does not merge when "by" is empty
us=$'\x1f'
results=()
n_caught=0 n_survived=0 n_uncatchable=0
for n in "${names[@]}"; do
	p="$mdir/$n.patch" d="$out/$n"
	why=$(field "$p" Qemu)
	case "$(field "$p" Kernel)" in
	debug*) [ "${KERNEL_DEBUG:-0}" = 1 ] ||
		why="needs a debug kernel (KERNEL_DEBUG=1): $(field "$p" Kernel | sed 's/^debug: *//')" ;;
	esac
	if [ -n "$why" ] && [ $all -eq 0 ]; then
		echo "$n: not run: ${why#not catchable: } (--all runs it)"
		results+=("$n${us}uncatchable${us}$why${us}0")
		n_uncatchable=$((n_uncatchable + 1))
		continue
	fi
	rm -rf "$d"
	mkdir -p "$d"
	mapfile -t touched < <(git -C "$kdir" apply --numstat "$p" | cut -f3)
	git -C "$kdir" apply "$p"
	t0=$(date +%s)
	if ! build "$d/build.log"; then
		restore
		die "$n: the mutated kernel does not build, see $d/build.log"
	fi
	cp "$kernel_image" "$d/img"
	restore
	veth=$(field "$p" Veth) dev=$(field "$p" Dev) model=$(model_of "$p")
	boot "$d/img" "$d" "$veth" "$dev" "$model"
	by=$( { caught_in "$d" veth; caught_in "$d" "$model"; log_caught "$d"; } |
	     paste -sd, - | sed 's/,/, /g')
	if [ "$(field "$p" Cost)" = ab ] && [ $ab -eq 1 ]; then
		"$top/scripts/kernel-ab.sh" --base-image "$out/img-ref" \
			--series-image "$d/img" --out "$d/ab" >"$d/ab.log" 2>&1 || true
		dear=$(sed -nE 's/^([0-9]+) points compared: ([0-9]+) dearer.*/\2 of \1/p' \
			"$d/ab/report.txt" 2>/dev/null |
		       awk '{ s += $1; t += $3 } END { if (t) print s " of " t }' || true)
		[ -f "$d/ab/report.txt" ] ||
			say "$n: the A/B failed, see $d/ab.log"
		case "$dear" in
		""|"0 of "*) ;;
		*) by+="${by:+, }kernel-ab ($dear points dearer)" ;;
		esac
	fi
	secs=$(( $(date +%s) - t0 ))
	# the first failed expectation, for the record
	cat "$d"/vm/*.tap 2>/dev/null | grep -m1 -E '^# xsk_test\.c:[0-9]+:[^:]+:Expected' |
		sed 's/^# //' >"$d/why.txt" || true
	if [ -n "$by" ]; then
		echo "$n: caught by $by"
		results+=("$n${us}caught${us}$by${us}$secs")
		n_caught=$((n_caught + 1))
	else
		echo "$n: SURVIVED"
		results+=("$n${us}survived${us}${us}$secs")
		n_survived=$((n_survived + 1))
	fi
done

say "rebuilding ${kernel_out#$top/} from the restored tree"
build "$out/build-end.log" || say "the rebuild failed, see $out/build-end.log"

total=$(( $(date +%s) - start ))
{
	echo "TAP version 13"
	echo "1..${#results[@]}"
	i=0
	for r in "${results[@]}"; do
		IFS=$us read -r name verdict by secs <<<"$r"
		i=$((i + 1))
		if [ "$verdict" = caught ]; then
			echo "ok $i $name # caught by $by"
		elif [ "$verdict" = uncatchable ]; then
			echo "ok $i $name # SKIP $by"
		else
			echo "not ok $i $name # SURVIVED"
		fi
	done
} >"$out/results.tap"
for r in "${results[@]}"; do
	IFS=$us read -r name verdict by secs <<<"$r"
	p="$mdir/$name.patch"
	jq -n --arg name "$name" --arg verdict "$verdict" --arg by "$by" \
		--arg family "$(field "$p" Family)" --arg mirrors "$(field "$p" Mirrors)" \
		--arg why "$(cat "$out/$name/why.txt" 2>/dev/null)" --argjson secs "$secs" \
		'{name: $name, family: $family, mirrors: $mirrors, verdict: $verdict,
		  caught_by: ($by | if . == "" then [] else split(", ") end),
		  first_failure: $why, seconds: $secs}'
done | jq -s --argjson total "$total" --argjson caught $n_caught \
	--argjson survived $n_survived --argjson uncatchable $n_uncatchable \
	'{mutants: ., caught: $caught, survived: $survived,
	  not_catchable_in_qemu: $uncatchable, seconds: $total}' >"$out/results.json"
# The table of Documentation/mutation_check.rst (results/mutation-check.txt)
jq -r '.mutants[] | "\(.name)\n    family:    \(.family)\n    mirrors:   \(.mirrors)\n    " +
	(if .verdict == "caught" then "caught by: \(.caught_by | join(", "))"
	 elif .verdict == "uncatchable" then "not run: \(.caught_by | join(", "))" else "SURVIVED" end) +
	(if (.first_failure // "") != "" then "\n    first:     \(.first_failure)" else "" end) +
	"\n    time:      \(.seconds) s\n"' "$out/results.json" >"$out/table.txt"
summary="mutants: $n_caught caught, $n_survived survived"
[ $n_uncatchable -eq 0 ] || summary+=", $n_uncatchable not catchable in QEMU (not run)"
printf '%s; make mutation-check took %d min %d s\n' "$summary" \
	$((total / 60)) $((total % 60)) >>"$out/table.txt"
say "$total s; results in $out/results.json, results.tap and table.txt"
echo "$summary"
[ $n_survived -eq 0 ]
