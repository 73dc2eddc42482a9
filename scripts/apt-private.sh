# SPDX-License-Identifier: GPL-2.0
#
# apt-private.sh - sourced: apt_private DIR LINE makes DIR an apt state of
# its own (lists, cache) whose only source is LINE (a "deb ..." or
# "deb-src ..." line, built from scripts/apt-mirror.sh's URI), and sets the
# array apt_opts to the options that make apt-get and apt-cache use it and
# nothing of the machine's own apt configuration or package state.

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
