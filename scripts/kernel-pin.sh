#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-pin.sh - which kernel source the pipeline works on, and where its
# work tree and builds go.  Sourced by the kernel scripts (after they set
# $top); `kernel-pin.sh --file` prints the pin file's path (for
# the Makefile) and exits 1 with a message if there is none.
#
#   KERNEL=VERSION         the pin file KERNEL_PIN-VERSION (KERNEL=7.3:
#                          Debian's linux-source-7.3 from experimental);
#                          KERNEL=<the default pin's version> is the default
#   KERNEL_PIN_FILE=FILE   a pin file of your own (wins over KERNEL)
#   neither                KERNEL_PIN, the default pin (7.2)
#
# Sets KERNEL_PKG, KERNEL_PKG_VERSION and KERNEL_SUITE (from the pin file),
# KERNEL_PIN_FILE (its absolute path) and, so that two versions never
# share a tree or a build:
#
#   kernel_sfx    "" for the default pin, else "-" + the package's version
#                 (linux-source-7.3: "-7.3")
#   kernel_tree   kernel$kernel_sfx/, the work tree
#   kernel_out    build/kbuild$kernel_sfx, the test kernel's build
#   kernel_image  its bzImage
#
# Other per-version directories are named by kernel_dir NAME
# (build/NAME$kernel_sfx).
#
#   KERNEL_CONFIG_BASE=debian   the kernels are built from Debian's amd64
#                          config instead of tinyconfig
#                          (scripts/kernel-build.sh): every build and run
#                          directory above gets "-debian" after it
#                          (build/kbuild-debian, build/vm-debian, ...), the
#                          work tree stays the same
#   KERNEL_DEBUG=1         the kernels are debug kernels (the tree's
#                          kernel/configs/debug.config merged, then
#                          scripts/debug-vm.config: scripts/kernel-build.sh);
#                          every build and run directory gets "-debug"
#                          after it (build/kbuild-debug, build/vm-debug)

kernel_pin_find() {
	local def="$top/KERNEL_PIN" v have f
	if [ -n "${KERNEL_PIN_FILE:-}" ]; then
		[ -f "$KERNEL_PIN_FILE" ] || {
			echo "KERNEL_PIN_FILE=$KERNEL_PIN_FILE: no such file" >&2
			return 1
		}
		echo "$(cd "$(dirname "$KERNEL_PIN_FILE")" && pwd)/$(basename "$KERNEL_PIN_FILE")"
		return 0
	fi
	v=${KERNEL:-}
	if [ -z "$v" ] || [ "linux-source-$v" = "$(. "$def" && echo "$KERNEL_PKG")" ]; then
		echo "$def"
		return 0
	fi
	[ -f "$top/KERNEL_PIN-$v" ] && { echo "$top/KERNEL_PIN-$v"; return 0; }
	have="$(. "$def" && echo "${KERNEL_PKG#linux-source-}") (the default)"
	for f in "$top"/KERNEL_PIN-*; do
		[ -f "$f" ] && have+=", ${f##*/KERNEL_PIN-}"
	done
	echo "KERNEL=$v: no pin file KERNEL_PIN-$v (versions: $have)" >&2
	return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	top=$(cd "$(dirname "$0")/.." && pwd)
	[ "${1:-}" = "--file" ] || { echo "usage: $0 --file (or source it)" >&2; exit 2; }
	kernel_pin_find || exit 1
	exit 0
fi

KERNEL_PIN_FILE=$(kernel_pin_find) || exit 1
KERNEL_PKG="" KERNEL_PKG_VERSION="" KERNEL_SUITE=""
. "$KERNEL_PIN_FILE"
[ -n "$KERNEL_PKG" ] && [ -n "$KERNEL_PKG_VERSION" ] && [ -n "$KERNEL_SUITE" ] || {
	echo "$KERNEL_PIN_FILE: KERNEL_PKG, KERNEL_PKG_VERSION and KERNEL_SUITE must all be set" >&2
	exit 1
}
if [ "$KERNEL_PIN_FILE" = "$top/KERNEL_PIN" ]; then
	kernel_sfx=""
else
	kernel_sfx="-${KERNEL_PKG#linux-source-}"
fi
case "${KERNEL_CONFIG_BASE:-tiny}" in
tiny) kernel_bsfx="" ;;
debian) kernel_bsfx=-debian ;;
*) echo "KERNEL_CONFIG_BASE=$KERNEL_CONFIG_BASE: not a config base (tiny or debian)" >&2
   exit 1 ;;
esac
case "${KERNEL_DEBUG:-0}" in
0) ;;
1) kernel_bsfx+=-debug ;;
*) echo "KERNEL_DEBUG=$KERNEL_DEBUG: not 0 or 1" >&2
   exit 1 ;;
esac
kernel_dir() { echo "$top/build/$1$kernel_sfx$kernel_bsfx"; }
kernel_tree="$top/kernel$kernel_sfx"
kernel_out=$(kernel_dir kbuild)
kernel_image="$kernel_out/arch/x86/boot/bzImage"
export KERNEL_PIN_FILE
