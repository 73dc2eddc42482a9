#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# driver-series-check.sh [--save DRIVER TREE] [DRIVER...] - check each
# driver fix series, patches/DRIVER/ (the list: driver_series in
# scripts/lib/series.sh; default all of them), the way a maintainer of
# that driver's tree takes it, on its own:
#   1. `git am patches/DRIVER/0*.patch` on a fresh work tree of kernel/'s
#      `baseline` tag (build/driver-series/DRIVER), without the igb series;
#   2. checkpatch --strict on each patch (the baseline's own script; but
#      UNKNOWN_COMMIT_ID: the baseline has no history);
#   3. every patch has a Fixes: tag naming a commit as "12-hex ("subject")".
# The build (W=1 on the files it touches) and the suite's verdict are those
# of the test kernel, which has the series on top (make kernel vm-check).
#
# --save DRIVER TREE: first write patches/DRIVER/ from TREE's commits after
# its `baseline` tag (git format-patch; the cover letter's subject and text
# from patches/DRIVER/cover-letter.in), then check it.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
kernel=$kernel_tree

. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/series.sh"

save_drv="" save_tree=""
case "${1:-}" in
--save)
	save_drv=${2:?--save needs a driver and a tree}
	save_tree=${3:?--save needs a driver and a tree}
	shift 3
	;;
-h|--help) usage; exit 0 ;;
-*) die "unknown option '$1' (see --help)" ;;
esac
drivers=("$@")
[ ${#drivers[@]} -gt 0 ] || read -r -a drivers <<< "$driver_series"
[ -z "$save_drv" ] || drivers=("$save_drv")
for d in "${drivers[@]}"; do
	case " $driver_series " in *" $d "*) ;;
	*) die "'$d' is not a driver series (scripts/lib/series.sh: $driver_series)" ;;
	esac
done
git -C "$kernel" rev-parse -q --verify baseline >/dev/null ||
	die "kernel/ has no tag baseline (make kernel-tree)"

if [ -n "$save_drv" ]; then
	git -C "$save_tree" rev-parse -q --verify baseline >/dev/null ||
		die "--save $save_tree: no tag baseline there"
	[ -f "$top/patches/$save_drv/cover-letter.in" ] ||
		die "patches/$save_drv/cover-letter.in is missing"
	series_write "$save_tree" "$top/patches/$save_drv" "PATCH net"
	say "patches/$save_drv/ written from $save_tree"
fi

for d in "${drivers[@]}"; do
	dir=$top/patches/$d
	wt=$top/build/driver-series/$d
	shopt -s nullglob
	series=("$dir"/0*.patch)
	shopt -u nullglob
	[ ${#series[@]} -gt 0 ] || die "patches/$d/ has no patches"

	# 1. git am on a fresh baseline
	series_am_alone "$kernel" "$wt" "patches/$d/0*.patch" "${series[@]}"
	if [ ${#series[@]} -eq 1 ]; then
		say "$d: git am: its patch applies on the baseline, on its own"
	else
		say "$d: git am: ${#series[@]} patches apply on the baseline, on their own"
	fi

	# 2. checkpatch (the baseline, a source package, has no history in
	# which a Fixes: tag's commit could be looked up: step 3 checks its
	# form instead); patches/DRIVER/checkpatch-ignore may name more
	# message types, one a line with its reason after a '#'
	ignore=UNKNOWN_COMMIT_ID
	if [ -f "$dir/checkpatch-ignore" ]; then
		while read -r t _; do
			case "$t" in ''|'#'*) ;; *) ignore+=",$t" ;; esac
		done < "$dir/checkpatch-ignore"
	fi
	checkpatch_strict "$wt" "$ignore" "${series[@]}" ||
		die "$d: checkpatch --strict found problems"
	extra=${ignore#UNKNOWN_COMMIT_ID} extra=${extra#,}
	say "$d: checkpatch --strict: clean${extra:+ (allowed: $extra, patches/$d/checkpatch-ignore)}"

	# 3. Fixes: tags
	for p in "${series[@]}"; do
		grep -Eq '^Fixes: [0-9a-f]{12} \(".+"\)$' "$p" ||
			die "$d: $(basename "$p"): no Fixes: tag of the form 12-hex (\"subject\")"
	done
	say "$d: each patch names the commit it fixes"
	git -C "$kernel" worktree remove --force "$wt"
done
