# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154  # prog, top: common.sh and the script
#
# series.sh - sourced (after common.sh) by the scripts that write a
# series and check it the way a maintainer takes it (kernel-patches.sh
# and kernel-series-check.sh for patches/, xdp-py-check.sh for
# patches/xdp-py/).
#
#   series_write TREE DIR [PREFIX [RANGE]]
#       DIR's patches and cover letter anew from TREE's commits of RANGE
#       (default baseline..HEAD; git format-patch --zero-commit
#       --base=baseline, which names the commits between the baseline and
#       RANGE's start as prerequisite patches): the
#       cover letter's subject is DIR/cover-letter.in's first line, its
#       text the rest, and its date the last patch's, so that an
#       unchanged series is written again byte for byte; the patches and
#       0000-cover-letter.txt of before are replaced.  PREFIX is the
#       subjects' ("PATCH net": the tree; default "PATCH").  Dies, DIR as
#       it was, when the subject is empty or git fails.
#
#   checkpatch_strict TREE IGNORE PATCH...
#       TREE's own scripts/checkpatch.pl --strict on each PATCH (run in
#       TREE, the baseline the series applies to), leaving out the message
#       types of the comma list IGNORE (may be empty); each patch's report
#       goes to stderr under "$prog: checkpatch --strict: NAME:".  Returns
#       1 when any patch had an error, warning or check, else 0.

#   worktree_at KERNEL WT COMMIT
#       WT, a work tree of KERNEL, checked out clean at COMMIT (detached):
#       the one there is reused when it can be (an unfinished git am or
#       cherry-pick in it aborted), else made anew
#
#   series_am_alone KERNEL WT WHAT PATCH...
#       WT anew at KERNEL's tag baseline (worktree_at), with the PATCHes
#       applied by git am, on their own; dies naming WHAT when they do not
#       apply, WT at the baseline.
#
#   subj_selftests, subj_docs
#       the subjects of the commits kernel-patches.sh generates: the
#       selftests' parts begin with subj_selftests, the documentation's
#       is subj_docs
#   kernel_commits TREE
#       "HASH SUBJECT" of TREE's commits after its tag baseline, oldest
#       first, without the generated ones: the kernel commits
#
#   submissions
#       the project's own series, each a submission in patches/NAME/, in
#       the order a kernel tree gets them (kernel-patches.sh writes them
#       from kernel/, kernel-series-check.sh checks each on its base):
#         iwl-net    the igb fixes: the kernel work's first commits, those
#                    with a Fixes: tag; on the baseline
#         iwl-next   the rest of the igb work; on the baseline with iwl-net
#         selftests  tools/testing/selftests/xsk and its documentation
#                    (kernel-patches.sh generates them), for net-next; on
#                    the baseline alone
#   submission_prefix NAME
#       its subjects' prefix, with the tree and the version
#   submission_deps NAME
#       the submissions NAME applies on top of, in order (may be none)
#   submission_patches NAME
#       its patch files, in order, without the cover letter (may be none)
#   series_patches NAME
#       the same for any directory patches/NAME/ (a driver series too),
#       without checking the name
#   submission_span NAME
#       "FIRST LAST": where the kernel commits of NAME (a submission or a
#       driver series) are among kernel_commits of a tree made from
#       patches/ (1-based; kernel-tree.sh applies the submissions, then the
#       driver series, in this file's order); FIRST > LAST for selftests
#
#   driver_series
#       the driver fix series, each its own submission in patches/DRIVER/
#       (git am-able on the baseline alone, subjects "DRIVER: ...", for
#       the net tree: "[PATCH net]"): the
#       test kernel (kernel/) has them after the submissions (kernel-tree.sh,
#       kernel-patches.sh); scripts/driver-series-check.sh checks each.

submissions="iwl-net iwl-next selftests"
series_version=3
# A netdev series has at most this many patches
series_max=15

submission_prefix() {
	case $1 in
	iwl-net|iwl-next) echo "PATCH $1 v$series_version" ;;
	selftests) echo "PATCH net-next v$series_version" ;;
	*) die "no submission $1 (submissions: $submissions)" ;;
	esac
}

submission_deps() {
	case $1 in
	iwl-next) echo iwl-net ;;
	iwl-net|selftests) ;;
	*) die "no submission $1 (submissions: $submissions)" ;;
	esac
}

series_patches() {
	local p

	for p in "$top/patches/$1"/0*.patch; do
		[ -e "$p" ] || continue
		case "$(basename "$p")" in 0000-*) ;; *) echo "$p" ;; esac
	done
}

submission_patches() {
	submission_prefix "$1" >/dev/null
	series_patches "$1"
}

subj_selftests="selftests: xsk: "
subj_docs="Documentation: networking: describe the AF_XDP selftests"

kernel_commits() {
	git -C "$1" log --reverse --format='%H %s' baseline..HEAD |
		grep -v -e "^[0-9a-f]* $subj_selftests" -e "^[0-9a-f]* $subj_docs\$"
}

submission_span() {
	local s at=0 cnt

	for s in $submissions $driver_series; do
		cnt=0
		[ "$s" = selftests ] || cnt=$(series_patches "$s" | wc -l)
		if [ "$s" = "$1" ]; then
			echo "$((at + 1)) $((at + cnt))"
			return 0
		fi
		at=$((at + cnt))
	done
	die "no submission $1 ($submissions $driver_series)"
}

driver_series="vmxnet3 virtio-net veth"

worktree_at() {
	local kernel=$1 wt=$2 at=$3

	if [ -e "$wt/.git" ]; then
		git -C "$wt" am --abort >/dev/null 2>&1 || true
		git -C "$wt" cherry-pick --abort >/dev/null 2>&1 || true
		if git -C "$wt" checkout -q -f --detach "$at" 2>/dev/null; then
			git -C "$wt" clean -q -f -d -x
			return 0
		fi
	fi
	git -C "$kernel" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
	git -C "$kernel" worktree prune
	mkdir -p "$(dirname "$wt")"
	git -C "$kernel" worktree add -q --detach "$wt" "$at"
}

series_am_alone() {
	local kernel=$1 wt=$2 what=$3

	shift 3
	worktree_at "$kernel" "$wt" baseline
	git -C "$wt" -c user.name="$prog" -c user.email="$prog@invalid" \
		am -q --whitespace=error-all "$@" || {
		git -C "$wt" am --abort 2>/dev/null || true
		die "git am $what does not apply on the baseline"
	}
}

series_write() {
	local tree=$1 dir=$2 prefix=${3:-PATCH} range=${4:-baseline..HEAD}
	local tmp last

	[ -n "$(sed -n 1p "$dir/cover-letter.in")" ] ||
		die "${dir#"$top"/}/cover-letter.in: the first line (subject) is empty"
	tmp=$(mktemp -d)
	if ! git -C "$tree" format-patch -q --zero-commit --cover-letter \
		--subject-prefix="$prefix" --base=baseline -o "$tmp" \
		"$range"; then
		rm -rf "$tmp"
		die "git format-patch $range failed in $tree"
	fi
	last=$(ls "$tmp"/*.patch | tail -1)
	if ! python3 - "$tmp/0000-cover-letter.patch" "$dir/cover-letter.in" \
		"$last" "$prog" <<'EOF'
import re, sys
cover, src, last, prog = sys.argv[1:5]
lines = open(src).read().split('\n')
subject, body = lines[0], '\n'.join(lines[1:]).strip('\n')
text = open(cover).read()
if '*** SUBJECT HERE ***' not in text or '*** BLURB HERE ***' not in text:
    sys.exit('%s: git format-patch cover letter has no placeholders' % prog)
text = text.replace('*** SUBJECT HERE ***', subject)
text = text.replace('*** BLURB HERE ***', body)
# The date of the last patch, not of the run
date = re.search(r'^Date: .*$', open(last).read(), re.M).group(0)
text = re.sub(r'^Date: .*$', date, text, count=1, flags=re.M)
open(cover, 'w').write(text)
EOF
	then
		rm -rf "$tmp"
		exit 1
	fi
	mv "$tmp/0000-cover-letter.patch" "$tmp/0000-cover-letter.txt"
	find "$dir" -maxdepth 1 \( -name '*.patch' -o -name '0000-cover-letter.txt' \) -delete
	cp "$tmp"/* "$dir/"
	rm -rf "$tmp"
}

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
