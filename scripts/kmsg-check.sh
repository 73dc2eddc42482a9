#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg-check.sh [OPTIONS] [LOG] - judge a kernel log: print every splat in
# it (its first line and the lines after it that belong to it, at most 40)
# and exit 1 when there is one.  LOG is a file (the output of dmesg, with
# or without its "[    1.234567] " stamps); without LOG, the running
# kernel's log (dmesg).  A splat is what a kernel prints when something
# is wrong whatever a test asserted:
#
#   WARNING: ...                 WARN_ON(), lockdep ("WARNING: possible
#                                circular locking dependency detected"),
#                                suspicious RCU usage
#   BUG: ..., kernel BUG at      KASAN ("BUG: KASAN: ..."), a bad page
#                                state, sleeping in atomic context
#   UBSAN: ...                   undefined behaviour
#   Oops, general protection fault, Kernel panic
#   INFO: task ... blocked for more than ... seconds   (a hung task)
#   rcu: INFO: ... detected stall(s), ... self-detected stall
#   unreferenced object 0x...    (kmemleak, after a scan)
#   ... stalled pool shutdown    (page_pool pages never returned)
#   ... NETDEV WATCHDOG: ...     a TX queue stopped past the driver's
#                                watchdog_timeo with its carrier on: a Tx
#                                stall (dev_watchdog() logs it with
#                                netdev_crit(), no WARNING, in 7.2)
#   refcount_t: ..., list_add corruption, list_del corruption
#   ------------[ cut here ]------------  (the line before most of them)
#
# Exit status: 0 no splat, 1 a splat (printed on stdout), 2 the log could
# not be read (or, with --boot, does not hold the kernel's first line, so
# that an unread log never passes as a clean one).
#
# Options:
#   --boot         the log must start at boot ("Linux version ...")
#   --name NAME    say NAME (the test group that ran) with each splat
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
die_status=2
. "$top/scripts/lib/common.sh"

boot=0 name=""
while [ $# -gt 0 ]; do
	case "$1" in
	--boot) boot=1; shift ;;
	--name) name=${2?--name needs a name}; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown argument '$1' (see --help)" ;;
	*) break ;;
	esac
done
[ $# -le 1 ] || die "one LOG at most (see --help)"

tmp=$(mktemp) || die "cannot make a temporary file"
trap 'rm -f "$tmp"' EXIT
if [ $# -eq 1 ]; then
	[ -f "$1" ] && [ -r "$1" ] || die "$1: not a readable file"
	cp -- "$1" "$tmp" || die "$1: cannot be read"
else
	dmesg > "$tmp" 2>/dev/null || die "dmesg failed: the kernel log cannot be read"
fi
if [ $boot -eq 1 ] && ! grep -q 'Linux version ' "$tmp"; then
	die "${1:-the kernel log} does not start at boot (no 'Linux version' line): not judged"
fi

awk -v name="$name" '
	function strip(s) {
		sub(/^<[0-9]+>/, "", s)
		sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
		return s
	}
	function starts(s) {
		return s ~ /^------------\[ cut here \]------------/ ||
		       s ~ /^WARNING: / || s ~ /^BUG: / ||
		       s ~ /^kernel BUG at / || s ~ /^UBSAN: / ||
		       s ~ /^Oops: / || s ~ /^Oops / ||
		       s ~ /^general protection fault/ ||
		       s ~ /^Kernel panic - / ||
		       s ~ /^INFO: task .* blocked for more than / ||
		       s ~ /^rcu: INFO: .*detected stall/ ||
		       s ~ /self-detected stall on CPU/ ||
		       s ~ /^unreferenced object 0x/ ||
		       s ~ /stalled pool shutdown/ ||
		       s ~ /NETDEV WATCHDOG: / ||
		       s ~ /^refcount_t: / ||
		       s ~ /^list_(add|del) corruption/
	}
	{
		s = strip($0)
		if (starts(s)) {
			if (!left) {
				n++
				printf "kmsg-check: splat %d%s:\n", n,
				       name != "" ? " during " name : ""
			}
			left = 40
		}
		if (left > 0) {
			print "  " $0
			left--
			# a splat ends with its end marker or a blank line
			if (s ~ /^---\[ end trace / || s == "")
				left = 0
		}
	}
	END { exit n > 0 }
' "$tmp"
