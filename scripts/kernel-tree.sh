#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-tree.sh - make kernel/, the patched kernel work tree: the pinned
# baseline source (KERNEL_PIN, or KERNEL_SRC=/path/to/linux) as the first
# commit of a git repository, tagged `baseline`, then the project's
# submissions applied with `git am` (patches/iwl-net/, patches/iwl-next/,
# patches/selftests/: scripts/lib/series.sh), and after them the driver fix
# series (patches/DRIVER/, each its own submission).  For another pin (KERNEL=7.3, scripts/kernel-pin.sh) the
# tree is kernel-7.3/ and everything below about kernel/ holds for it.
#
# Kernel work is done as commits in kernel/ and saved with `make patches`.
# An existing kernel/ is kept: if its commits after the baseline are the
# series already (same patch ids), nothing is done; if it has none, the
# series is applied; otherwise it is used as it is (work not yet saved with
# `make patches`), and a note says so: no work is ever overwritten.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)

. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/series.sh"

. "$top/scripts/kernel-pin.sh"
tree=$kernel_tree
k=${tree#$top/}/

"$top/scripts/kernel-deps.sh"

# The cover letters (0000-*) carry no diff: git am would stop on them
series=()
for s in $submissions; do
	mapfile -t -O "${#series[@]}" series < <(submission_patches "$s")
done
# then the driver fix series, each in patches/DRIVER/ (scripts/lib/series.sh)
for d in $driver_series; do
	mapfile -t -O "${#series[@]}" series < <(series_patches "$d")
done

# Patch ids of a list of patch files, or of the commits after the baseline
ids_of_files() {
	local p
	for p in "$@"; do git patch-id --stable < "$p" | cut -d' ' -f1; done
}

ids_of_tree() {
	local c
	for c in $(git -C "$tree" rev-list --reverse baseline..HEAD); do
		git -C "$tree" show "$c" | git patch-id --stable | cut -d' ' -f1
	done
}

apply_series() {
	[ ${#series[@]} -gt 0 ] || { say "patches/ is empty: $k is the baseline"; return 0; }
	say "applying ${#series[@]} patches with git am"
	git -C "$tree" am --quiet --whitespace=error-all "${series[@]}" || {
		git -C "$tree" am --abort 2>/dev/null || true
		die "git am of patches/ on the baseline failed ($k left at the baseline)"
	}
}

if [ -d "$tree/.git" ]; then
	git -C "$tree" rev-parse -q --verify baseline >/dev/null ||
		die "$k is a git tree without the \`baseline\` tag: not made by this script; move it away"
	have=$(git -C "$tree" rev-list --count baseline..HEAD)
	if [ "$have" -eq 0 ]; then
		apply_series
		exit 0
	fi
	if [ "$(ids_of_tree)" = "$(ids_of_files "${series[@]}")" ]; then
		say "$k has the series (${#series[@]} patches) on the baseline"
		exit 0
	fi
	say "note: $k has $have commits after the baseline that differ from patches/; using $k as it is (\`make patches\` saves them; remove $k to start again from patches/)"
	exit 0
fi
[ -e "$tree" ] && die "$k exists but is not a git tree: move it away"

if [ -n "${KERNEL_SRC:-}" ]; then
	src=$KERNEL_SRC
	[ -f "$src/Makefile" ] && [ -d "$src/net/xdp" ] ||
		die "KERNEL_SRC=$src is not a Linux source tree (no Makefile or net/xdp)"
	what="KERNEL_SRC $src"
else
	src=$("$top/scripts/kernel-source.sh" "$top/build/src") ||
		die "no baseline source; set KERNEL_SRC=/path/to/linux to use a tree of your own"
	what="$KERNEL_PKG $KERNEL_PKG_VERSION"
fi
version=$(make -s -C "$src" kernelversion 2>/dev/null) ||
	die "cannot read the kernel version of $src"

say "copying $what (Linux $version) into $k"
tmp="$tree.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
# Everything but a git directory and the framework files the project copies
tar -C "$src" --exclude=./.git --exclude='./.unpacked-*' -cf - . | tar -C "$tmp" -xf -

g() { git -C "$tmp" "$@"; }
g init -q -b master
g config user.name "$(git -C "$top" config user.name || echo xdp-cost)"
g config user.email "$(git -C "$top" config user.email || echo xdp-cost@localhost)"
# The baseline commit is the same everywhere for the same source (fixed
# identity and date), so the series' base-commit line means something
export GIT_AUTHOR_NAME="xdp-cost baseline" GIT_AUTHOR_EMAIL="baseline@xdp-cost.invalid"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
g config core.autocrlf false
g config gc.auto 0
# Debian's packaged .gitignore ends with "/*" (every top-level entry is
# ignored): add everything explicitly, and new files later with add -f
g add -A -f
g commit -q -m "Linux $version ($what)" -m "The pristine baseline of the series in patches/."
g tag -a baseline -m "$what"
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
mv "$tmp" "$tree"
apply_series
say "$k is Linux $version + $(git -C "$tree" rev-list --count baseline..HEAD) patches"
