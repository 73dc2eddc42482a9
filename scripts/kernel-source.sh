#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-source.sh DIR - unpack the pinned kernel source into DIR/$KERNEL_PKG
# and print that path.  The pin is KERNEL_PIN, or the one KERNEL=VERSION or
# KERNEL_PIN_FILE chooses (scripts/kernel-pin.sh).
#
# The package comes from the pin's suite (KERNEL_SUITE: unstable for the
# default pin, experimental for 7.3) of the mirror this machine's apt is
# already configured with, through a private source list and apt state
# under DIR: the machine's own apt configuration is left as it is.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)

. "$top/scripts/lib/common.sh"

. "$top/scripts/kernel-pin.sh"

[ $# -eq 1 ] || die "usage: $0 DIR"
dir=$(mkdir -p "$1" && cd "$1" && pwd)
tree="$dir/$KERNEL_PKG"
stamp="$tree/.unpacked-$KERNEL_PKG_VERSION"
# make -j runs several targets that each want the source: one unpacks it,
# the others wait for it and find the stamp
exec 8>>"$dir/.$KERNEL_PKG.lock"
flock 8
if [ -f "$stamp" ]; then
	echo "$tree"
	exit 0
fi

. "$top/scripts/apt-private.sh"
apt_pin_deb "$dir" "$KERNEL_PKG" all "set KERNEL_SRC=/path/to/linux instead" \
	"update ${KERNEL_PIN_FILE#$top/} or set KERNEL_SRC=/path/to/linux"
deb=$apt_deb

say "unpacking $KERNEL_PKG $KERNEL_PKG_VERSION into $tree"
rm -rf "$tree" "$dir/x"
dpkg-deb -x "$deb" "$dir/x"
tar -xf "$dir/x/usr/src/$KERNEL_PKG.tar.xz" -C "$dir"
rm -rf "$dir/x"
[ -f "$tree/Makefile" ] || die "unexpected package layout: no $tree/Makefile"
touch "$stamp"
echo "$tree"
