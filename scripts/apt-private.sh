# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# apt-private.sh - sourced: apt_private DIR LINE makes DIR an apt state of
# its own (lists, cache) whose only source is LINE (a "deb ..." or
# "deb-src ..." line, built from scripts/apt-mirror.sh's URI), and sets the
# array apt_opts to the options that make apt-get and apt-cache use it and
# nothing of the machine's own apt configuration or package state.
#
# apt_pin_deb DIR PKG ARCH NOMIRROR MISSING - the .deb of PKG at the pin's
# version (KERNEL_PKG_VERSION) from the pin's suite (KERNEL_SUITE), through
# such a state in DIR/apt made from this machine's mirror
# (scripts/apt-mirror.sh), downloaded unless it is there already; sets
# apt_deb to its path.  NOMIRROR ends the message when the machine has no
# Debian mirror, MISSING the one when the mirror has no such version (what
# to set instead).  Needs top, die and say (scripts/lib/common.sh).

apt_private() {
	local dir=$1 line=$2

	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	echo "$line" > "$dir/sources.list"
	apt_opts=(-o "Dir::Etc::SourceList=$dir/sources.list"
		  -o "Dir::Etc::SourceParts=/dev/null"
		  -o "Dir::State::Lists=$dir/lists"
		  -o "Dir::Cache=$dir/cache"
		  -o "Dir::State::status=/dev/null"
		  -o "APT::Sandbox::User=root")
}

apt_pin_deb() {
	local dir=$1 pkg=$2 arch=$3 nomirror=$4 missing=$5 uri have

	uri=$("$top/scripts/apt-mirror.sh") || true
	[ -n "$uri" ] || die "no Debian mirror in /etc/apt/sources.list{,.d}: cannot fetch $pkg; $nomirror"
	apt_private "$dir/apt" "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $KERNEL_SUITE main"
	apt_deb="$dir/apt/${pkg}_${KERNEL_PKG_VERSION}_$arch.deb"
	[ -f "$apt_deb" ] && return 0
	say "fetching $pkg $KERNEL_PKG_VERSION ($KERNEL_SUITE) from $uri"
	apt-get "${apt_opts[@]}" -q update >&2 ||
		die "apt-get update of the private $KERNEL_SUITE source list failed"
	have=$(apt-cache "${apt_opts[@]}" show "$pkg" 2>/dev/null |
	       awk '/^Version:/ { print $2 }' | tr '\n' ' ')
	(cd "$dir/apt" && apt-get "${apt_opts[@]}" -q download \
		"$pkg=$KERNEL_PKG_VERSION" >&2) ||
		die "$pkg $KERNEL_PKG_VERSION is not on the mirror (it has: ${have:-none}); $missing"
}
