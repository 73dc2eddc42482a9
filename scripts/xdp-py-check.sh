#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# xdp-py-check.sh [--save TREE] - check patches/xdp-py/, the second,
# separate series (new cases for upstream's drivers/net/xdp.py), the way a
# maintainer takes it, on its own:
#   1. `git am patches/xdp-py/0*.patch` on a fresh work tree of kernel/'s
#      `baseline` tag (build/upstream/ksft-new), without the main series;
#   2. checkpatch --strict on each patch (the baseline's own script);
#   3. its selftests build: headers_install, make -C
#      tools/testing/selftests/net/lib (the BPF objects, with clang), and
#      python3 -m py_compile of xdp.py.
# The tree is left in place: scripts/upstream-check.sh runs its cases.
#
# --save TREE: first write patches/xdp-py/ from TREE's commits after its
# `baseline` tag (git format-patch; the cover letter's subject and text
# from patches/xdp-py/cover-letter.in), then check them.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
dir=$top/patches/xdp-py
wt=$(kernel_dir upstream)/ksft-new
kernel=$kernel_tree

. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/series.sh"

save=""
case "${1:-}" in
--save) save=${2:?--save needs a tree}; shift 2 ;;
-h|--help) usage; exit 0 ;;
"") ;;
*) die "unknown argument '$1' (see --help)" ;;
esac
[ $# -eq 0 ] || die "unknown argument '$1' (see --help)"
git -C "$kernel" rev-parse -q --verify baseline >/dev/null ||
	die "kernel/ has no tag baseline (make kernel-tree)"
# the selftests build: rsync (headers_install), clang and llvm (the BPF
# objects of net/lib), libelf and zlib (bpftool's bootstrap there)
apt_install_missing rsync clang llvm libelf-dev zlib1g-dev

if [ -n "$save" ]; then
	git -C "$save" rev-parse -q --verify baseline >/dev/null ||
		die "--save $save: no tag baseline there"
	[ -f "$dir/cover-letter.in" ] || die "$dir/cover-letter.in is missing"
	series_write "$save" "$dir"
	say "patches/xdp-py/ written from $save ($(ls "$dir"/0*.patch | wc -l) patches)"
fi

shopt -s nullglob
series=("$dir"/0*.patch)
shopt -u nullglob
[ ${#series[@]} -gt 0 ] || die "patches/xdp-py/ has no patches"

# 1. git am on a fresh baseline
series_am_alone "$kernel" "$wt" "patches/xdp-py/0*.patch" "${series[@]}"
say "git am: ${#series[@]} patches apply on the baseline, on their own"

# 2. checkpatch
checkpatch_strict "$wt" "" "${series[@]}" ||
	die "checkpatch --strict found problems"
say "checkpatch --strict: clean (${#series[@]} patches)"

# 3. the selftests build
make -s -C "$wt" headers_install >"$wt/headers.log" 2>&1 ||
	die "make headers_install failed, see $wt/headers.log"
make -s -C "$wt/tools/testing/selftests/net/lib" \
	OUTPUT="$wt/tools/testing/selftests/net/lib" >"$wt/net-lib.log" 2>&1 ||
	{ tail -20 "$wt/net-lib.log" >&2; die "make -C tools/testing/selftests/net/lib failed"; }
[ -f "$wt/tools/testing/selftests/net/lib/xdp_native.bpf.o" ] ||
	die "xdp_native.bpf.o was not built"
python3 -m py_compile "$wt/tools/testing/selftests/drivers/net/xdp.py" ||
	die "xdp.py does not compile"
say "net/lib builds (xdp_native.bpf.o, xdp_helper), xdp.py compiles"
