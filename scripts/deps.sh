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

apt_install_missing "${pkgs[@]}"
