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
if [ -f "$stamp" ]; then
	echo "$tree"
	exit 0
fi

uri=$("$top/scripts/apt-mirror.sh") || true
[ -n "$uri" ] || die "no Debian mirror in /etc/apt/sources.list{,.d}: cannot fetch $KERNEL_PKG; set KERNEL_SRC=/path/to/linux instead"

apt="$dir/apt"
. "$top/scripts/apt-private.sh"
apt_private "$apt" "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $KERNEL_SUITE main"

deb="$apt/${KERNEL_PKG}_${KERNEL_PKG_VERSION}_all.deb"
if [ ! -f "$deb" ]; then
	say "fetching $KERNEL_PKG $KERNEL_PKG_VERSION ($KERNEL_SUITE) from $uri"
	apt-get "${apt_opts[@]}" -q update >&2 ||
		die "apt-get update of the private $KERNEL_SUITE source list failed"
	have=$(apt-cache "${apt_opts[@]}" show "$KERNEL_PKG" 2>/dev/null |
	       awk '/^Version:/ { print $2 }' | tr '\n' ' ')
	(cd "$apt" && apt-get "${apt_opts[@]}" -q download \
		"$KERNEL_PKG=$KERNEL_PKG_VERSION" >&2) ||
		die "$KERNEL_PKG $KERNEL_PKG_VERSION is not on the mirror (it has: ${have:-none}); update ${KERNEL_PIN_FILE#$top/} or set KERNEL_SRC=/path/to/linux"
fi

say "unpacking $KERNEL_PKG $KERNEL_PKG_VERSION into $tree"
rm -rf "$tree" "$dir/x"
dpkg-deb -x "$deb" "$dir/x"
tar -xf "$dir/x/usr/src/$KERNEL_PKG.tar.xz" -C "$dir"
rm -rf "$dir/x"
[ -f "$tree/Makefile" ] || die "unexpected package layout: no $tree/Makefile"
touch "$stamp"
echo "$tree"
