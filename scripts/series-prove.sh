#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-prove.sh [OPTIONS] - show that each kernel patch of the series is
# needed: for every kernel commit of kernel/ after its tag baseline (the
# generated selftests and documentation commits left out), boot the test
# kernel of the tree before it and of the tree with it under QEMU (a pair
# of the NIC model the map names, igb by default: scripts/vm-run.sh
# --icount --nics) and run the tests the patch names in
# scripts/series-prove.map.  Each named test must fail before and pass
# after (a skip is neither; a test cut short by a kernel BUG, Oops or
# panic in the guest's console fails, with the splat's first line); a
# test named +TEST in the map must skip before (the patch gives the device
# what it needs: the skip names what it lacks) and pass after; the
# report has one line per patch:
#
#   1/4 igb: drop Rx frames ...: long_rx.dev.linear_prog_dropped fail
#       before (xsk_test.c:1898: Expected ... (40)), pass after
#
# A map line's fourth field names a config fragment (KERNEL_CONFIG_EXTRA of
# scripts/kernel-build.sh, relative to the project): the trees before and
# after that patch are built with it too, in a build directory of their
# own, and its tests run on those images (a bug that only a module shows:
# scripts/vnet-module.config).  The word "debug" there builds them as
# KERNEL_DEBUG=1 does (the tree's kernel/configs/debug.config: KASAN,
# lockdep, kmemleak), for a patch whose bug only a debug kernel reports.
#
# A test named xfail:TEST ends as XFAIL before (the suite met a known bug,
# the one the patch fixes, and named it) and passes after.
#
# MODEL "veth" runs the tests on the suite's own veth pairs in the guest
# (its nic.veth_* variants), without XSK_DEVS: a fix of veth itself.
#
# A test named TEST*N runs N times in each guest (the patch's other tests
# with it): a bug a run shows only sometimes, such as a race with the
# device.  It fails before when any run fails, and passes after only when
# every run passes; the report says "in K of N runs" before.
#
# A test named kmsg:TEST is judged by the kernel log as well: it passes
# before and after, and the guest's kernel log of the run (boot and
# tests, scripts/kmsg-check.sh) has a splat before the patch and none
# with it (a lockdep or KASAN report that no assertion sees).  A patch's
# tests run in one guest, so the log is the run's: with two kmsg: tests,
# a splat of either counts for both.
#
# A patch mapped to "no-change" changes no behaviour: its exact A/B
# (scripts/kernel-ab.sh on the images before and after it) is printed
# instead.
# A kernel patch missing from the map, or a test that passes before or
# fails after, is an error (exit 1; 2 for a bad option).
#
# Per patch N, its runs are in OUT/N-before.txt and OUT/N-after.txt.
#
# Options (make series-prove SERIES_PROVE_OPTS=...):
#   --kernel-dir DIR  the kernel work tree (default kernel/)
#   --map FILE        subject|tests map (default scripts/series-prove.map)
#   --out DIR         images, TAP and the report (default build/prove)
#   --no-ab           skip the exact A/B of "no-change" patches
#   --submission NAME only the patches of one submission (iwl-net,
#                     iwl-next, or a driver fix series such as vmxnet3),
#                     on the trees of kernel/ before and with each
#   --patch N         only the Nth kernel patch (of all, as the report
#                     numbers them), and only the trees before and with
#                     it built
# The trees are built one after the other into one build directory, so
# each build after the first is incremental.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
kdir=$kernel_tree map="$top/scripts/series-prove.map"
out=$(kernel_dir prove) ab=1 sub='' only=''

# shellcheck disable=SC2034  # read by lib/common.sh: bad options exit 2
die_status=2
. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/series.sh"

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel-dir|--map|--out|--submission|--patch)
		[ $# -ge 2 ] || die "$1 needs a value (see --help)" ;;&
	--kernel-dir) kdir=$2; shift 2 ;;
	--map) map=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--no-ab) ab=0; shift ;;
	--submission) sub=$2; shift 2 ;;
	--patch) want_whole "$2" "--patch '$2' is not a patch number"
		# decimal: 010 is ten, as the report numbers it
		only=$((10#$2)); shift 2
		[ "$only" -gt 0 ] || die "--patch: the patches are numbered from 1" ;;
	-h|--help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
# shellcheck disable=SC2034  # read by lib/common.sh: other errors exit 1
die_status=1

[ -e "$kdir/.git" ] || die "$kdir is not a kernel work tree (make kernel-tree)"
[ -f "$map" ] || die "no map $map"
suite="$top/build/selftests/xsk/xsk_test"
[ -x "$suite" ] || die "$suite missing (make selftests)"
git -C "$kdir" rev-parse -q --verify baseline >/dev/null ||
	die "$kdir has no tag baseline"

# The kernel commits, oldest first, without the generated ones
mapfile -t commits < <(kernel_commits "$kdir")
n=${#commits[@]}
[ "$n" -gt 0 ] || die "no kernel commits after baseline in $kdir"

# The patches judged, first..last (all, or one submission's)
first=1 last=$n
if [ -n "$sub" ]; then
	[ "$sub" != selftests ] ||
		die "the selftests submission has no kernel patch: its tests prove the others"
	span=$(submission_span "$sub")
	read -r first last <<< "$span"
	[ "$last" -le "$n" ] && [ "$first" -le "$last" ] ||
		die "$kdir does not have the patches of $sub ($first..$last of $n kernel commits)"
fi
if [ -n "$only" ]; then
	[ "$only" -ge "$first" ] && [ "$only" -le "$last" ] ||
		die "--patch $only: not one of the patches ${sub:+of $sub }($first..$last)"
	first=$only last=$only
fi

tests_of() {	# SUBJECT: the map's tests, or nothing
	awk -F'|' -v s="$1" '$0 !~ /^#/ && $1 == s { print $2; exit }' "$map"
}

model_of() {	# SUBJECT: the map's NIC model for its tests (default igb)
	awk -F'|' -v s="$1" '$0 !~ /^#/ && $1 == s { print ($3 ? $3 : "igb"); exit }' "$map"
}

frag_of() {	# SUBJECT: the map's config fragment for its tests, or nothing
	awk -F'|' -v s="$1" '$0 !~ /^#/ && $1 == s { print $4; exit }' "$map"
}
for c in "${commits[@]}"; do
	[ -n "$(tests_of "${c#* }")" ] || die "no line in $map for '${c#* }'"
	f=$(frag_of "${c#* }")
	[ -z "$f" ] || [ "$f" = debug ] || [ -f "$top/$f" ] ||
		die "$map: no config fragment $f (for '${c#* }')"
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
wt="$out/tree"
cleanup() {	# the work tree, also after an error or interrupt
	git -C "$kdir" worktree remove --force "$wt" >/dev/null 2>&1 || true
	# one a killed run left unregistered: a directory of $out alone
	rm -rf "$wt"
	git -C "$kdir" worktree prune
}
trap cleanup EXIT
cleanup
git -C "$kdir" worktree add -q --detach "$wt" baseline

# Images 0 (baseline) .. n, each built incrementally from the last
build() {	# INDEX COMMIT [FRAGMENT]: img-INDEX, or img-INDEX-NAME with FRAGMENT
	local kb=$out/kbuild img=$out/img-$1 extra='' debug=0
	git -C "$wt" checkout -q --detach "$2"
	if [ -n "${3:-}" ]; then
		kb=$out/kbuild-$(basename "$3" .config) img=$img-$(basename "$3" .config)
		if [ "$3" = debug ]; then debug=1; else extra=$top/$3; fi
	fi
	KERNEL_CONFIG_EXTRA=$extra KERNEL_DEBUG=$debug \
	"$top/scripts/kernel-build.sh" "$wt" "$kb" \
		>"$out/build-${img##*/img-}.log" 2>&1 ||
		die "building tree $1 ($2${3:+, $3}) failed, see $out/build-${img##*/img-}.log"
	# the image in its build directory when it has modules (vm-run.sh
	# loads them from there), else a copy
	if [ -d "$kb/modules" ]; then
		rm -rf "$img.d"
		mkdir -p "$img.d/arch/x86/boot"
		cp "$kb/arch/x86/boot/bzImage" "$img.d/arch/x86/boot/"
		cp -a "$kb/modules" "$img.d/"
		ln -sfn "$img.d/arch/x86/boot/bzImage" "$img"
	else
		cp "$kb/arch/x86/boot/bzImage" "$img"
	fi
}
before_of() {	# INDEX: the commit of the tree before patch INDEX
	if [ "$1" -gt 1 ]; then echo "${commits[$1-2]%% *}"; else echo baseline; fi
}
if [ -z "$only" ]; then
	build 0 baseline
	for i in $(seq 1 "$last"); do
		build "$i" "${commits[i-1]%% *}"
	done
elif [ -z "$(frag_of "${commits[only-1]#* }")" ]; then
	build $((only - 1)) "$(before_of "$only")"
	build "$only" "${commits[only-1]%% *}"
fi
# the trees before and after each patch whose map line names a fragment
for i in $(seq "$first" "$last"); do
	f=$(frag_of "${commits[i-1]#* }")
	[ -n "$f" ] || continue
	build $((i - 1)) "$(before_of "$i")" "$f"
	build "$i" "${commits[i-1]%% *}" "$f"
done

# The repeat count of a map test (TEST*N: N, else 1) and its name alone
reps_of() { case $1 in *\*[0-9]*) echo "${1##*\*}" ;; *) echo 1 ;; esac; }
name_of() { echo "${1%\**}"; }

run() {		# NAME IMAGE MODEL REPS TESTS...: TAP of the tests in kernel IMAGE, REPS times, in NAME.txt
	local name=$1 img=$2 model=$3 reps=$4 rargs=() t tmo=900 nics=$3
	shift 4
	# veth: the suite makes its pairs; the guest boots with the default NICs
	[ "$model" != veth ] || nics=igb
	for t in "$@"; do rargs+=(-r "$t"); done
	# a debug kernel boots and runs several times slower
	case $img in *-debug) tmo=3600 ;; esac
	tmo=$((tmo * reps))
	rm -rf "$out/vm-$name"
	"$top/scripts/vm-run.sh" --icount --timeout $tmo --kernel "$(readlink -f "$img")" \
		--nics "$nics" --log "$out/console-$name.log" --out "$out/vm-$name" -- \
		sh -c '. scripts/lib/vm-nics.sh; suite=$0 model=$1 reps=$2; shift 2
			if [ "$model" != veth ]; then
				set -- $(vm_nic_pair $model) "$@"
				XSK_DEVS="$1 $2" XSK_DEV_POLICY=$(vm_nic_policy $model)
				shift 2; export XSK_DEVS XSK_DEV_POLICY
			fi; st=0
			while [ $reps -gt 0 ]; do
				$suite "$@" || st=1; reps=$((reps - 1))
			done; exit $st' \
		"$suite" "$model" "$reps" "${rargs[@]}" 2>&1 | tr -d '\r' >"$out/$name.txt" || true
}

# The guest's kernel log (boot and tests) as scripts/vm-init.sh judged it
# after the run (scripts/kmsg-check.sh): clean, splat, or missing (not
# read, or the run did not get there)
kmsg_verdict() {	# FILE
	if grep -q '^vm-init: the kernel log is not clean' "$1"; then
		echo splat
	elif grep -q '^vm-init: the kernel log cannot be read' "$1"; then
		echo missing
	elif grep -q '^vm-init: exit status' "$1"; then
		echo clean
	else
		echo missing
	fi
}

# The first line of the first splat kmsg-check printed, without its stamp
kmsg_first() {	# FILE
	sed -n '/^kmsg-check: splat 1/,$p' "$1" | sed 1d |
		grep -v -m1 -e 'cut here' | sed 's/^ *//; s/^\[[^]]*\] *//'
}

verdict() {	# FILE TEST: ok, skip, xfail, fail (any run failed) or missing
	local line
	line=$(grep -E "^(ok|not ok) [0-9]+ $2( |$)" "$1" |
	       { grep -m1 '^not ok' || true; } )
	[ -n "$line" ] || line=$(grep -E "^(ok|not ok) [0-9]+ $2( |$)" "$1" | head -1)
	case "$line" in
	"")	# cut short: by the kernel (a splat in the console) or else
		if grep -qE "$splat" "$1"; then echo fail; else echo missing; fi ;;
	"not ok"*) echo fail ;;
	*"# SKIP"*) echo skip ;;
	*"# XFAIL"*) echo xfail ;;
	*) echo ok ;;
	esac
}

# The A/B report's pair headings, one line a point (xdp_compare wraps a
# long name's figures onto the next line) and each pair's count
ab_summary() {	# REPORT
	awk '/^== / { print "    " $0; next }
	     /^(XDP_|AF_XDP)/ {
		l = $0
		if (l ~ /:$/ && (getline nx) > 0) {
			sub(/^ +/, "", nx); sub(/ \[95%.*/, "", nx); l = l " " nx
		}
		print "    " l; next
	     }
	     / points compared: / { print "    " $0 }' "$1"
}

# what cuts a guest's run short (the console, in the run's TAP file)
splat='kernel BUG at|Oops:|Kernel panic|BUG: '

bad=0
report="$out/report.txt"
: >"$report"
for i in $(seq "$first" "$last"); do
	subj=${commits[i-1]#* }
	tests=$(tests_of "$subj")
	if [ "$tests" = no-change ]; then
		line="$i/$n $subj: changes no behaviour"
		if [ $ab -eq 1 ]; then
			# the images of the trees before and after it, built above
			"$top/scripts/kernel-ab.sh" --base-image "$out/img-$((i - 1))" \
				--series-image "$out/img-$i" \
				--out "$out/ab-$i" >"$out/ab-$i.log" 2>&1 ||
				{ say "the A/B of $i failed, see $out/ab-$i.log"; bad=1; }
			line+=", exact A/B (before -> after): $out/ab-$i/report.txt"
		fi
		echo "$line" | tee -a "$report"
		[ $ab -eq 1 ] && [ -f "$out/ab-$i/report.txt" ] &&
			ab_summary "$out/ab-$i/report.txt" | tee -a "$report"
		continue
	fi
	model=$(model_of "$subj")
	f=$(frag_of "$subj")
	sfx=${f:+-$(basename "$f" .config)}
	names=() reps=1
	for t in $tests; do
		r=$(reps_of "$t")
		[ "$r" -le "$reps" ] || reps=$r
		t=$(name_of "$t") t=${t#+} t=${t#xfail:}
		names+=("${t#kmsg:}")
	done
	run "$i-before" "$out/img-$((i - 1))$sfx" "$model" "$reps" "${names[@]}"
	run "$i-after" "$out/img-$i$sfx" "$model" "$reps" "${names[@]}"
	for t in $tests; do
		r=$(reps_of "$t") t=$(name_of "$t")
		# +TEST: the patch gives the device what TEST needs (it skips
		# before, naming what the device lacks) and TEST passes after
		want=fail
		case $t in +*) want=skip t=${t#+} ;; esac
		# xfail:TEST: the suite met the bug the patch fixes and named it
		case $t in xfail:*) want=xfail t=${t#xfail:} ;; esac
		log=0
		case $t in kmsg:*) log=1 t=${t#kmsg:} ;; esac
		before=$(verdict "$out/$i-before.txt" "$t")
		after=$(verdict "$out/$i-after.txt" "$t")
		# kmsg:TEST: it passes either way; the kernel log tells
		if [ $log -eq 1 ]; then
			kb=$(kmsg_verdict "$out/$i-before.txt")
			ka=$(kmsg_verdict "$out/$i-after.txt")
			if [ "$before" = ok ] && [ "$kb" = splat ]; then
				before=fail
			else
				before="$before, the kernel log $kb"
			fi
			[ "$ka" = clean ] || after="$after, the kernel log $ka"
		fi
		# the first failed expectation, else the first message
		how=$({ [ $log -eq 0 ] ||
			echo "the kernel log: $(kmsg_first "$out/$i-before.txt")"
			grep -E "^# xsk_test.c:[0-9]+:${t##*.}:Expected" "$out/$i-before.txt"
			grep -E "^# xsk_test.c:[0-9]+:${t##*.}:" "$out/$i-before.txt"
			grep -E "^ok [0-9]+ $t # SKIP" "$out/$i-before.txt" | sed 's/.*# SKIP/SKIP/'
			grep -E "^ok [0-9]+ $t # XFAIL" "$out/$i-before.txt" | sed 's/.*# XFAIL/XFAIL/'
			grep -E "$splat" "$out/$i-before.txt"; } |
		      head -1 | sed -E 's/^# (xsk_test.c:[0-9]+):[^:]*:/\1: /' | cut -c1-100 || true)
		runs=
		if [ "$r" -gt 1 ]; then
			k=$(grep -cE "^not ok [0-9]+ $t( |$)" "$out/$i-before.txt" || true)
			runs=" in $k of $r runs"
			k=$(grep -cE "^ok [0-9]+ $t( |$)" "$out/$i-after.txt" || true)
			# every run must have passed after (not one cut short)
			[ "$after" != ok ] || [ "$k" -eq "$r" ] || after="ok in $k of $r runs"
		fi
		if [ "$before" = "$want" ] && [ "$after" = ok ]; then
			echo "$i/$n $subj: $t $want before$runs (${how:-no message}), pass after${runs:+ (all $r)}" | tee -a "$report"
		else
			echo "$i/$n $subj: $t: before $before, after $after: NOT SHOWN" | tee -a "$report"
			bad=1
		fi
	done
done
say "$n kernel patches; report in $report"
exit $bad
