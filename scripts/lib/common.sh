# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# common.sh - sourced by the scripts in scripts/ (never run): one way to
# fail, say what is going on, print --help and check an option's value.
#
#   . "$top/scripts/lib/common.sh"
#
# prog is the prefix of every message ("kernel-ab-test: ..."): the script's
# name without .sh unless the script set it before sourcing this file;
# die_status is die's exit status (1 unless the script set another, as
# vm-run.sh and exact-cost.sh do: 2).
#
#   die MSG...          "prog: MSG..." on stderr, exit $die_status
#   say MSG...          "prog: MSG..." on stderr: what the script is doing,
#                       or a problem it goes on after
#   usage               the script's header comment, from its 4th line to
#                       its `set -...` line, without the "# "
#   want_decimal VALUE MSG   die "MSG" unless VALUE is digits and dots
#   want_whole VALUE MSG     die "MSG" unless VALUE is digits
#   pkg_installed PKG        true when Debian package PKG is installed
#   apt_install_missing PKG...  apt-get install those of PKG... not
#                       installed (say which; die unless root); no apt call
#                       at all when every one is there
#   at_baseline TREE [--hint TEXT] CMD...  run CMD with the kernel work
#                       tree TREE checked out at its tag baseline, and back
#                       after (also when CMD or the script dies); die when
#                       TREE has no tag baseline or uncommitted changes
#                       ("commit them first", or TEXT); CMD's status
#
# An option's loop stays in the script (a case per option, so --help and
# the loop read side by side); "unknown argument" is said the same way by
# all: die "unknown argument '$1' (see --help)".

prog=${prog:-$(basename "$0" .sh)}
die_status=${die_status:-1}

die() { echo "$prog: $*" >&2; exit "$die_status"; }
say() { echo "$prog: $*" >&2; }
usage() { sed -n '4,/^set -[eu]/{/^set -[eu]/d;s/^# \{0,1\}//p}' "$0"; }

want_decimal() { case "$1" in ''|*[!0-9.]*) die "$2" ;; esac; }
want_whole() { case "$1" in ''|*[!0-9]*) die "$2" ;; esac; }

pkg_installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = \
	  "install ok installed" ]
}

apt_install_missing() {
	local p missing=()

	for p in "$@"; do
		pkg_installed "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	[ "$(id -u)" -eq 0 ] ||
		die "missing packages: ${missing[*]}; run as root or install them"
	say "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get -q update >&2 ||
		die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get -q install -y \
		--no-install-recommends "${missing[@]}" >&2 ||
		die "apt-get install ${missing[*]} failed"
}

at_baseline() {
	local k=$1 hint="commit them first" back st=0

	shift
	if [ "${1:-}" = --hint ]; then
		hint=$2
		shift 2
	fi
	git -C "$k" rev-parse -q --verify baseline >/dev/null ||
		die "$k has no tag baseline (make kernel-tree)"
	[ -z "$(git -C "$k" status --porcelain)" ] ||
		die "$k has uncommitted changes: $hint"
	back=$(git -C "$k" symbolic-ref -q --short HEAD || git -C "$k" rev-parse HEAD)
	git -C "$k" checkout -q baseline
	# shellcheck disable=SC2064	# the tree and the ref now, not at exit
	trap "git -C $(printf %q "$k") checkout -q $(printf %q "$back")" EXIT
	"$@" || st=$?
	git -C "$k" checkout -q "$back"
	trap - EXIT
	return "$st"
}
