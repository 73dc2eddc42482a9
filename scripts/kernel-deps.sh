#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-deps.sh - install with apt what building and booting the test
# kernel needs, when missing: the kernel's build tools, git, ccache, kmod
# (depmod and modprobe, for a test kernel with modules), and QEMU >= 8 (its
# igb model).  Debian 12 has QEMU 7.2, so qemu-system-x86
# comes from bookworm-backports, through a private source list made from
# the mirror this machine's apt already uses; /etc/apt is left as it is.
# Fast (no apt call at all) when everything is there.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
qemu_min=8

. "$top/scripts/lib/common.sh"

pkgs=(git make gcc flex bison bc libssl-dev libelf-dev cpio ccache libglib2.0-dev
      python3 python3-ply python3-git perl xz-utils jq kmod)

qemu_major() {
	qemu-system-x86_64 --version 2>/dev/null |
		sed -n 's/^QEMU emulator version \([0-9]*\)\..*/\1/p'
}

missing=()
for p in "${pkgs[@]}"; do
	pkg_installed "$p" || missing+=("$p")
done
v=$(qemu_major || true)
need_qemu=0
[ -n "$v" ] && [ "$v" -ge $qemu_min ] || need_qemu=1

[ ${#missing[@]} -eq 0 ] && [ $need_qemu -eq 0 ] && exit 0
[ $need_qemu -eq 1 ] && missing_all=("${missing[@]}" "qemu-system-x86>=$qemu_min") ||
	missing_all=("${missing[@]}")
[ "$(id -u)" -eq 0 ] || die "missing: ${missing_all[*]}; run as root"

export DEBIAN_FRONTEND=noninteractive
apt_install_missing "${missing[@]}"
[ $need_qemu -eq 1 ] || exit 0

uri=$("$top/scripts/apt-mirror.sh") ||
	die "no Debian mirror in the machine's apt sources: install qemu-system-x86 >= $qemu_min yourself"
. /etc/os-release
suite="${VERSION_CODENAME:-bookworm}-backports"

# The machine's own sources plus backports, in a private parts directory
parts="$top/build/apt-backports"
mkdir -p "$parts"
rm -f "$parts"/*
for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -r "$f" ] && cp "$f" "$parts/"
done
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" \
	> "$parts/zz-project-backports.list"
opts=(-o "Dir::Etc::SourceParts=$parts")

say "installing qemu-system-x86 from $suite ($uri)"
apt-get "${opts[@]}" -q update >&2 ||
	die "apt-get update with $suite failed"
apt-get "${opts[@]}" -q install -y --no-install-recommends -t "$suite" \
	qemu-system-x86 >&2 ||
	die "could not install qemu-system-x86 from $suite"
v=$(qemu_major || true)
[ -n "$v" ] && [ "$v" -ge $qemu_min ] ||
	die "qemu-system-x86_64 is version ${v:-none}, need >= $qemu_min (igb model)"
