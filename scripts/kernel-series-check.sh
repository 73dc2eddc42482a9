#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-series-check.sh [--no-build] [SUBMISSION...] - check the project's
# submissions (patches/iwl-net/, patches/iwl-next/, patches/selftests/:
# scripts/lib/series.sh; default all, in that order) the way a maintainer
# would before taking each:
#
#   1. on a fresh copy of its base (a work tree of kernel/ at the `baseline`
#      tag, under build/series-check, with the submissions it depends on
#      applied: iwl-next on iwl-net; for KERNEL=7.3, kernel-7.3/ and
#      build/*-7.3: scripts/kernel-pin.sh), `git am patches/NAME/0*.patch`
#      applies every patch cleanly; it has at most 15 patches, each with
#      its tree and version in the subject; the selftests submission has
#      the project's selftests and kernel docs as they are (else patches/
#      is stale), and every file it adds is in a MAINTAINERS F: entry;
#   2. `scripts/checkpatch.pl --strict` passes on every patch with no error,
#      warning or check;
#   3. (unless --no-build) every prefix of it builds: the test kernel
#      (scripts/kernel-build.sh, incremental, into build/kbuild-series) from
#      the first patch that touches what the kernel is built from (not only
#      tools/, Documentation/ or MAINTAINERS) on, with W=1 on the files the
#      patch touches, and, when the patch touches them, the selftests,
#      against the tree's UAPI headers (make headers).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
tree=$kernel_tree
wt=$(kernel_dir series-check)
build=1

# shellcheck disable=SC2034  # read by lib/common.sh
prog='series-check'
. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/series.sh"

case "${1:-}" in
--no-build) build=0; shift ;;
-h|--help) usage; exit 0 ;;
-*) die "unknown option '$1' (see --help)" ;;
esac

[ -d "$tree/.git" ] || die "no kernel/ work tree: run \`make kernel-tree\` first"

subs=("$@")
[ ${#subs[@]} -gt 0 ] || read -r -a subs <<< "$submissions"
for s in "${subs[@]}"; do
	submission_prefix "$s" >/dev/null
done

# The project's selftests (as the last part has them: without the markers
# of scripts/kernel-selftests-parts.py) and kernel docs as they are now
full=$(mktemp -d)
trap 'rm -rf "$full"' EXIT
mapfile -t sfiles < <(git -C "$top" ls-files tools/testing/selftests/xsk)
"$top/scripts/kernel-selftests-parts.py" emit \
	--parts "$("$top/scripts/kernel-patches.sh" --parts)" \
	--upto "$("$top/scripts/kernel-patches.sh" --parts | sed 's/.*,//')" \
	"$top" "$full" "${sfiles[@]}"

# git am of submission NAME's patches in $wt; WHAT names the base
am_submission() {	# NAME WHAT
	local n=$1 p
	local -a own

	mapfile -t own < <(submission_patches "$n")
	[ ${#own[@]} -gt 0 ] || die "patches/$n/ has no patches"
	git -C "$wt" am --quiet "${own[@]}" ||
		die "git am patches/$n/0*.patch does not apply on $2 (see git -C $wt am --show-current-patch)"
	for p in "${own[@]}"; do
		grep -q "^Subject: \[$(submission_prefix "$n") [0-9]*/[0-9]*\] " "$p" ||
			die "$(basename "$p"): its subject has not [$(submission_prefix "$n") N/M]"
	done
}

# Every file the submission adds (from BASE) is in an F: pattern of its
# MAINTAINERS
check_maintainers() {	# BASE
	local f pat covered bad=0
	local -a fpats

	mapfile -t fpats < <(sed -n 's/^F:	//p' "$wt/MAINTAINERS")
	while IFS= read -r f; do
		covered=0
		for pat in "${fpats[@]}"; do
			# shellcheck disable=SC2053  # the pattern is a glob on purpose
			if [[ $pat == */ && $f == "$pat"* ]] || [[ $f == $pat ]]; then
				covered=1
				break
			fi
		done
		[ $covered -eq 1 ] || {
			say "$f is added by the series but in no MAINTAINERS F: entry"
			bad=1
		}
	done < <(git -C "$wt" diff --name-only --diff-filter=A "$1" HEAD)
	return $bad
}

# The selftests and docs of the tree in $wt are the project's
check_stale() {
	local f
	local -a stale=()

	while IFS= read -r f; do
		if [ -e "$full/$f" ]; then
			cmp -s "$full/$f" "$wt/$f" || stale+=("$f")
		else
			cmp -s "$top/$f" "$wt/$f" || stale+=("$f")
		fi
	done < <(git -C "$top" ls-files tools/testing/selftests/xsk Documentation/networking)
	[ ${#stale[@]} -eq 0 ] ||
		die "patches/selftests/ is older than ${stale[*]}: run \`make patches\`"
}

# Every prefix from BASE builds
check_builds() {	# NAME BASE
	local n=$1 c files i=0 kbuilt=0 o h
	local -a commits

	mapfile -t commits < <(git -C "$wt" rev-list --reverse "$2..HEAD")
	for c in "${commits[@]}"; do
		i=$((i + 1))
		git -C "$wt" checkout -q --detach "$c"
		say "$n [$i/${#commits[@]}] $(git -C "$wt" log -1 --format=%s)"
		files=$(git -C "$wt" diff --name-only "$c~1" "$c")
		# The kernel once the series first touches what it is built from
		if [ $kbuilt -eq 1 ] ||
		   echo "$files" | grep -q -v -e '^tools/' -e '^Documentation/' -e '^MAINTAINERS$'; then
			"$top/scripts/kernel-build.sh" "$wt" "$(kernel_dir kbuild-series)" ||
				die "$n: the kernel does not build at patch $i"
			kbuilt=1
		fi
		if echo "$files" | grep -q '^tools/testing/selftests/xsk/'; then
			# against this tree's own UAPI headers, as in-tree
			# selftests are (make headers, out of the source tree:
			# the kernel build above needs it clean)
			o=$(kernel_dir series-selftests)
			h=$(kernel_dir series-headers)
			rm -rf "$o"
			mkdir -p "$o" "$h"
			make -s -C "$wt" O="$h" headers >"$o.log" 2>&1 || {
				tail -20 "$o.log" >&2
				die "$n: make headers fails at patch $i"
			}
			make -s -C "$wt/tools/testing/selftests/xsk" OUTPUT="$o" \
				KHDR_INCLUDES="-isystem $h/usr/include" >"$o.log" 2>&1 || {
				tail -20 "$o.log" >&2
				die "$n: the selftests do not build at patch $i"
			}
		fi
	done
	[ $kbuilt -eq 1 ] || say "$n: no patch touches the kernel's own sources: no kernel build needed"
	say "$n: every prefix builds (${#commits[@]} patches)"
}

# A Fixes: tag names an upstream commit, which a packaged source tree (no
# history) cannot resolve: UNKNOWN_COMMIT_ID is the one check left out; the
# tag's form (12 digits, the subject in quotes) is still checked.
#
# FILE_PATH_CHANGES ("added file(s), does MAINTAINERS need updating?") is
# given for every new file of a patch that does not touch MAINTAINERS; the
# selftests add files in several patches under the directory their first
# one puts in MAINTAINERS.  It is left out, and checked by
# check_maintainers() instead.
for s in "${subs[@]}"; do
	worktree_at "$tree" "$wt" baseline
	what="the baseline"
	for d in $(submission_deps "$s"); do
		am_submission "$d" "the baseline"
		what="the baseline with patches/$d/"
	done
	base=$(git -C "$wt" rev-parse HEAD)
	am_submission "$s" "$what"
	mapfile -t own < <(submission_patches "$s")
	[ ${#own[@]} -le "$series_max" ] ||
		die "patches/$s/ has ${#own[@]} patches: a netdev series has at most $series_max"
	say "$s: git am: ${#own[@]} patches apply on $what"
	[ "$s" != selftests ] || check_stale
	bad=0
	check_maintainers "$base" || bad=1
	checkpatch_strict "$wt" UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "${own[@]}" ||
		bad=1
	[ $bad -eq 0 ] || die "$s: checkpatch --strict found problems"
	say "$s: checkpatch --strict: clean (${#own[@]} patches)"
	[ $build -eq 0 ] || check_builds "$s" "$base"
done
