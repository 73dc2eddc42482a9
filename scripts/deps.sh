#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install with apt what the build and the tests need, when missing.
# Fast (no apt call at all) when everything is there.
set -euo pipefail

. "$(dirname "$0")/lib/common.sh"

pkgs=(make gcc clang llvm pkg-config libbpf-dev libelf-dev zlib1g-dev
      libjansson-dev
      bpftool iproute2 ethtool xz-utils ca-certificates gnuplot-nox
      python3 python3-jsonschema)

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] ||
	die "missing packages: ${missing[*]}; run as root or install them"
say "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get -q update >&2
apt-get -q install -y --no-install-recommends "${missing[@]}" >&2
