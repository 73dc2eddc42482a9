#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# apt-mirror.sh - print the first Debian archive URI of this machine's apt
# sources (deb822 or one-line), so that private source lists (unstable,
# backports) use the mirror the machine already uses.  Exits 1 if none.
set -euo pipefail

for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	 /etc/apt/sources.list.d/*.sources; do
	[ -r "$f" ] || continue
	case "$f" in
	*.sources) awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' "$f" ;;
	*) awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/ && $i !~ /=/) { print $i; break } }' "$f" ;;
	esac
done | grep -v -e security -e updates -e backports | grep -m 1 '/debian/\?$'
