#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# submission-kernel.sh NAME - build the test kernel of kernel/ as far as
# submission NAME (scripts/lib/series.sh: iwl-net, iwl-next or selftests)
# and print its image's path, for `make vm-check SUBMISSION=NAME`: the
# suite run on the tree a maintainer has after applying NAME and the
# submissions it depends on, in order.  kernel/ has the kernel commits of
# iwl-net, then of iwl-next, then the generated selftests commits, then the
# driver fix series (kernel-tree.sh); the tree is a work tree of kernel/ at
# the last kernel commit of NAME (build/sub-NAME; for selftests, which
# touch no kernel source, the baseline), built by scripts/kernel-build.sh
# into build/kbuild-sub-NAME.  For KERNEL=7.3 the same in kernel-7.3/ and
# build/*-7.3 (scripts/kernel-pin.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/series.sh"

case "${1:-}" in
-h|--help) usage; exit 0 ;;
"") die "which submission? ($submissions)" ;;
esac
name=$1
submission_prefix "$name" >/dev/null
tree=$kernel_tree
[ -d "$tree/.git" ] || die "no ${tree#"$top"/}/ work tree: run \`make kernel-tree\` first"

# The last kernel commit of the submission (the selftests: none, the
# baseline)
mapfile -t kcommits < <(kernel_commits "$tree" | cut -d' ' -f1)
at=baseline
if [ "$name" != selftests ]; then
	span=$(submission_span "$name")
	n=${span#* }
	[ "$n" -le "${#kcommits[@]}" ] ||
		die "${tree#"$top"/}/ has ${#kcommits[@]} kernel commits, not the $n of the submissions up to $name"
	at=${kcommits[n - 1]}
fi

wt=$(kernel_dir "sub-$name")
worktree_at "$tree" "$wt" "$at"
say "$name: ${tree#"$top"/}/ at $(git -C "$wt" log -1 --format='%h (%s)' "$at")"
kb=$(kernel_dir "kbuild-sub-$name")
"$top/scripts/kernel-build.sh" "$wt" "$kb" >&2
echo "$kb/arch/x86/boot/bzImage"
