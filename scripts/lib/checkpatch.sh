# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# checkpatch.sh - sourced (after common.sh) by the scripts that check a
# series the way a maintainer takes it (kernel-series-check.sh for
# patches/, xdp-py-check.sh for patches/xdp-py/).
#
#   checkpatch_strict TREE IGNORE PATCH...
#       TREE's own scripts/checkpatch.pl --strict on each PATCH (run in
#       TREE, the baseline the series applies to), leaving out the message
#       types of the comma list IGNORE (may be empty); each patch's report
#       goes to stderr under "$prog: checkpatch --strict: NAME:".  Returns
#       1 when any patch had an error, warning or check, else 0.

checkpatch_strict() {
	local tree=$1 ignore=$2 p res bad=0
	local opts=(--strict --quiet --showfile)

	shift 2
	[ -n "$ignore" ] && opts+=(--ignore "$ignore")
	for p in "$@"; do
		# Debian's python3 (with python3-ply and python3-git) for
		# spdxcheck.py
		res=$(cd "$tree" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl "${opts[@]}" "$p" 2>&1) || true
		if [ -n "$res" ]; then
			say "checkpatch --strict: $(basename "$p"):"
			echo "$res" >&2
			bad=1
		fi
	done
	return $bad
}
