#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-series-check.sh [--no-build] - check patches/ the way a maintainer
# would before taking it:
#
#   1. on a fresh copy of the baseline (a work tree of kernel/ at the
#      `baseline` tag, under build/series-check; for KERNEL=7.3,
#      kernel-7.3/ and build/*-7.3: scripts/kernel-pin.sh), `git am patches/*.patch`
#      applies every patch cleanly, and the result has the project's
#      selftests and kernel docs as they are (else patches/ is stale);
#   2. `scripts/checkpatch.pl --strict` passes on every patch with no error,
#      warning or check;
#   3. (unless --no-build) every prefix of the series builds: the test kernel
#      (scripts/kernel-build.sh, incremental, into build/kbuild-series) from
#      the first patch that touches what the kernel is built from (not only
#      tools/, Documentation/ or MAINTAINERS) on, and, when the patch touches
#      them, the selftests, against the tree's UAPI headers (make headers).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
tree=$kernel_tree
wt=$(kernel_dir series-check)
build=1
[ "${1:-}" = "--no-build" ] && build=0

# shellcheck disable=SC2034  # read by lib/common.sh
prog='series-check'
. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/series.sh"

[ -d "$tree/.git" ] || die "no kernel/ work tree: run \`make kernel-tree\` first"
shopt -s nullglob
series=("$top"/patches/*.patch)
shopt -u nullglob
[ ${#series[@]} -gt 0 ] || die "patches/ has no patches"

# 1. a fresh copy of the baseline
if [ -d "$wt/.git" ] || [ -f "$wt/.git" ]; then
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q -f --detach baseline
	git -C "$wt" clean -q -f -d -x
else
	rm -rf "$wt"
	git -C "$tree" worktree prune
	say "checking out the baseline into ${wt#$top/}"
	git -C "$tree" worktree add -q --detach "$wt" baseline
fi
git -C "$wt" am --quiet "${series[@]}" ||
	die "git am patches/*.patch does not apply on the baseline (see git -C $wt am --show-current-patch)"
say "git am: ${#series[@]} patches apply on the baseline"

# The series carries the project's selftests (as its last part has them:
# without the markers of scripts/kernel-selftests-parts.py) and kernel docs
# as they are now
full=$(mktemp -d)
trap 'rm -rf "$full"' EXIT
mapfile -t sfiles < <(git -C "$top" ls-files tools/testing/selftests/xsk)
"$top/scripts/kernel-selftests-parts.py" emit \
	--parts "$("$top/scripts/kernel-patches.sh" --parts)" \
	--upto "$("$top/scripts/kernel-patches.sh" --parts | sed 's/.*,//')" \
	"$top" "$full" "${sfiles[@]}"
stale=()
while IFS= read -r f; do
	if [ -e "$full/$f" ]; then
		cmp -s "$full/$f" "$wt/$f" || stale+=("$f")
	else
		cmp -s "$top/$f" "$wt/$f" || stale+=("$f")
	fi
done < <(git -C "$top" ls-files tools/testing/selftests/xsk Documentation/networking)
[ ${#stale[@]} -eq 0 ] ||
	die "patches/ is older than ${stale[*]}: run \`make patches\`"

# 2. checkpatch, from the baseline's own scripts.  A Fixes: tag names an
# upstream commit, which a packaged source tree (no history) cannot
# resolve: UNKNOWN_COMMIT_ID is the one check left out; the tag's form
# (12 digits, the subject in quotes) is still checked.
#
# FILE_PATH_CHANGES ("added file(s), does MAINTAINERS need updating?") is
# given for every new file of a patch that does not touch MAINTAINERS; the
# selftests add files in several patches under the directory their first
# one puts in MAINTAINERS.  It is left out, and checked here instead: every
# file the series adds is in an F: pattern of the resulting MAINTAINERS.
bad=0
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
done < <(git -C "$wt" diff --name-only --diff-filter=A baseline HEAD)
checkpatch_strict "$wt" UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "${series[@]}" ||
	bad=1
[ $bad -eq 0 ] || die "checkpatch --strict found problems"
say "checkpatch --strict: clean (${#series[@]} patches)"

[ $build -eq 1 ] || exit 0

# 3. every prefix builds
mapfile -t commits < <(git -C "$wt" rev-list --reverse baseline..HEAD)
i=0
kbuilt=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	git -C "$wt" checkout -q --detach "$c"
	say "[$i/${#commits[@]}] $(git -C "$wt" log -1 --format=%s)"
	files=$(git -C "$wt" diff --name-only "$c~1" "$c")
	# The kernel once the series first touches what it is built from
	if [ $kbuilt -eq 1 ] ||
	   echo "$files" | grep -q -v -e '^tools/' -e '^Documentation/' -e '^MAINTAINERS$'; then
		"$top/scripts/kernel-build.sh" "$wt" "$(kernel_dir kbuild-series)" ||
			die "the kernel does not build at patch $i"
		kbuilt=1
	fi
	if echo "$files" | grep -q '^tools/testing/selftests/xsk/'; then
		# against this tree's own UAPI headers, as in-tree selftests
		# are (make headers, out of the source tree: the kernel build
		# above needs it clean)
		o=$(kernel_dir series-selftests)
		h=$(kernel_dir series-headers)
		rm -rf "$o"
		mkdir -p "$o" "$h"
		make -s -C "$wt" O="$h" headers >"$o.log" 2>&1 || {
			tail -20 "$o.log" >&2
			die "make headers fails at patch $i"
		}
		make -s -C "$wt/tools/testing/selftests/xsk" OUTPUT="$o" \
			KHDR_INCLUDES="-isystem $h/usr/include" >"$o.log" 2>&1 || {
			tail -20 "$o.log" >&2
			die "the selftests do not build at patch $i"
		}
	fi
done
[ $kbuilt -eq 1 ] || say "no patch touches the kernel's own sources: no kernel build needed"
say "every prefix builds (${#commits[@]} patches)"
