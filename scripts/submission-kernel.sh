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

# The kernel commits (not the generated selftests and docs), oldest first
mapfile -t kcommits < <(git -C "$tree" log --reverse --format='%H %s' baseline..HEAD |
	grep -v -e '^[0-9a-f]* selftests: xsk: ' \
		-e '^[0-9a-f]* Documentation: networking: describe the AF_XDP selftests$' |
	cut -d' ' -f1)
n=0
for s in $submissions; do
	[ "$s" = selftests ] || n=$((n + $(submission_patches "$s" | wc -l)))
	[ "$s" = "$name" ] && break
done
[ "$n" -le "${#kcommits[@]}" ] ||
	die "${tree#"$top"/}/ has ${#kcommits[@]} kernel commits, not the $n of the submissions up to $name"
if [ "$name" = selftests ]; then
	at=baseline
else
	at=${kcommits[n - 1]}
fi

wt=$(kernel_dir "sub-$name")
if [ -e "$wt/.git" ]; then
	git -C "$wt" checkout -q -f --detach "$at"
else
	rm -rf "$wt"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" "$at"
fi
say "$name: ${tree#"$top"/}/ at $(git -C "$wt" log -1 --format='%h (%s)' "$at")"
kb=$(kernel_dir "kbuild-sub-$name")
"$top/scripts/kernel-build.sh" "$wt" "$kb" >&2
echo "$kb/arch/x86/boot/bzImage"
