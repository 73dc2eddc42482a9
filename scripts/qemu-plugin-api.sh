#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-plugin-api.sh DIR - put the TCG plugin API header of the installed
# qemu-system-x86 (include/qemu/qemu-plugin.h, from Debian's qemu source
# package of exactly that version) in DIR/qemu/qemu-plugin.h and print DIR.
#
# The source package comes with apt-get source --download-only through a
# private deb-src list of the suite the binary came from (bookworm-backports
# here, scripts/kernel-deps.sh), on the mirror this machine's apt already
# uses (scripts/apt-mirror.sh), with its own apt state under DIR; the
# header is taken out of the .orig tarball after checking that no Debian
# patch touches it.  Fast (no apt call) when the header is there.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)

. "$top/scripts/lib/common.sh"

[ $# -eq 1 ] || die "usage: $0 DIR"
dir=$(mkdir -p "$1" && cd "$1" && pwd)
ver=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not installed (make kernel-deps)"
[ -n "$ver" ] || die "qemu-system-x86 is not installed (make kernel-deps)"
hdr="$dir/qemu/qemu-plugin.h"
stamp="$dir/.header-$ver"
if [ -f "$stamp" ] && [ -f "$hdr" ]; then
	echo "$dir"
	exit 0
fi

uri=$("$top/scripts/apt-mirror.sh") ||
	die "no Debian mirror in the machine's apt sources: cannot fetch qemu $ver's source"
. /etc/os-release
codename=${VERSION_CODENAME:-bookworm}
case "$ver" in
*bpo*) suite=$codename-backports ;;
*) suite=$codename ;;
esac

apt="$dir/apt"
mkdir -p "$apt/src"
. "$top/scripts/apt-private.sh"
apt_private "$apt" "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main"

if ! ls "$apt/src"/qemu_*.orig.tar.* >/dev/null 2>&1; then
	say "fetching the qemu $ver source package ($suite) from $uri"
	apt-get "${apt_opts[@]}" -q update >&2 ||
		die "apt-get update of the private $suite deb-src list failed"
	# apt checks each file against the Sources index before keeping it;
	# a mirror may lack the .dsc and .debian.tar of a backport (this one
	# does): the .orig is enough, see below
	(cd "$apt/src" && apt-get "${apt_opts[@]}" -q source --download-only \
		"qemu=$ver" >&2) ||
		say "not every file of qemu $ver's source package came; using the .orig"
fi
orig=$(ls "$apt/src"/qemu_*.orig.tar.* 2>/dev/null | head -1 || true)
[ -n "$orig" ] || die "the qemu $ver source package (its .orig tarball) is not on the mirror's $suite"
# Debian's patches must leave the plugin API as upstream has it
deb=$(ls "$apt/src"/qemu_*.debian.tar.* 2>/dev/null | head -1 || true)
if [ -n "$deb" ] && tar -xOf "$deb" --wildcards 'debian/patches/*' 2>/dev/null |
   grep -q '^+++ .*include/qemu/qemu-plugin.h'; then
	die "a Debian patch changes include/qemu/qemu-plugin.h: unpack with dpkg-source instead"
fi
rm -rf "$dir/x"
mkdir -p "$dir/x" "$dir/qemu"
tar -xf "$orig" -C "$dir/x" --wildcards '*/include/qemu/qemu-plugin.h' ||
	die "$orig has no include/qemu/qemu-plugin.h"
mv "$dir"/x/*/include/qemu/qemu-plugin.h "$hdr"
rm -rf "$dir/x"
grep -q QEMU_PLUGIN_VERSION "$hdr" || die "$hdr is not the plugin API header"
rm -f "$dir"/.header-*
touch "$stamp"
echo "$dir"
