#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-config-debian.sh DIR - Debian's own amd64 kernel configuration for
# the pinned kernel: unpack linux-config-VERSION (the same version as the
# pinned linux-source-VERSION, from the pin's suite) into DIR and print the
# path of its config.amd64_none_amd64 (the config of Debian's
# linux-image-amd64).  Fetched like the source (scripts/kernel-source.sh):
# through a private source list made from this machine's apt mirror and
# an apt state under DIR; the machine's own apt configuration is left as
# it is.  Used by scripts/kernel-build.sh (KERNEL_CONFIG_BASE=debian).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)

. "$top/scripts/lib/common.sh"

. "$top/scripts/kernel-pin.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -eq 1 ] || die "usage: $0 DIR (see --help)"
dir=$(mkdir -p "$1" && cd "$1" && pwd)
pkg=linux-config-${KERNEL_PKG#linux-source-}
flavour=config.amd64_none_amd64
config="$dir/$pkg-$KERNEL_PKG_VERSION.$flavour"
if [ -f "$config" ]; then
	echo "$config"
	exit 0
fi

. "$top/scripts/apt-private.sh"
apt_pin_deb "$dir" "$pkg" amd64 "set KERNEL_CONFIG_DEBIAN=/path/to/config instead" \
	"set KERNEL_CONFIG_DEBIAN=/path/to/config"
deb=$apt_deb

rm -rf "$dir/x"
dpkg-deb -x "$deb" "$dir/x"
xz=$dir/x/usr/src/$pkg/$flavour.xz
[ -f "$xz" ] || { rm -rf "$dir/x"; die "unexpected package layout: no ${xz#$dir/x/} in $pkg"; }
xz -dc "$xz" > "$config.tmp"
rm -rf "$dir/x"
mv "$config.tmp" "$config"
echo "$config"
