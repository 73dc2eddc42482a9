#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-stall-watch.sh [--every SEC] [--poll SEC] [--comm NAME] TAPFILE - in
# the test guest (scripts/vm-selftests.sh starts it beside each group):
# while the suite writes TAPFILE, a test that has been running for SEC
# seconds (default 300, the guest's clock: /proc/uptime) gets its tasks
# dumped, and again every SEC while it runs: each process named NAME
# (default xsk_test) with its state, wait channel and kernel stack, every
# task in D, the interfaces' packet counts in every network namespace,
# and the NET_RX/NET_TX softirq counts; each line starts with "# stall: "
# (a TAP comment), on stdout.
# A diagnostic, never a verdict: the harness's timeout fails the test;
# this says what it was doing meanwhile (slow: the counts move between two
# dumps; stalled: they do not).  It polls every --poll seconds (default
# 10) and ends when TAPFILE's "# Totals:" line comes or when killed.
# Run it at a real-time priority (chrt) on a guest whose CPU the test
# keeps busy.  Exits 2 on bad options.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC2034  # read by lib/common.sh
die_status=2
. "$top/scripts/lib/common.sh"

every=300
poll=10
comm=xsk_test
while [ $# -gt 0 ]; do
	case "$1" in
	--every) want_whole "${2:-}" "--every: '${2:-}' is not a number of seconds"
		every=$2; shift 2 ;;
	--poll) want_whole "${2:-}" "--poll: '${2:-}' is not a number of seconds"
		poll=$2; shift 2 ;;
	--comm) [ -n "${2:-}" ] || die "--comm needs a process name"
		comm=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || die "want one TAP file (vm-stall-watch.sh [OPTIONS] TAPFILE)"
tap=$1
every=$((10#$every)) poll=$((10#$poll))
[ "$every" -gt 0 ] || die "--every: '$every' is not a number of seconds"
[ "$poll" -gt 0 ] || die "--poll: '$poll' is not a number of seconds"

# the guest's clock in hundredths of a second
uptime_cs() {
	local up

	read -r up _ < /proc/uptime
	up=${up/./}
	echo $((10#$up))
}

dump() {	# TEST SECONDS
	local p ns cmd

	echo "$1: running for $2 s (guest clock)"
	for p in $(pgrep -x "$comm"); do
		# the command line, its first 80 characters
		cmd=$(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null)
		[ ${#cmd} -le 80 ] || cmd="${cmd:0:77}..."
		echo "task $p ($cmd): state $(awk '{print $3}' "/proc/$p/stat" 2>/dev/null) wchan $(cat "/proc/$p/wchan" 2>/dev/null)"
		cat "/proc/$p/stack" 2>/dev/null
	done
	for p in $(ps -eo pid=,stat= | awk '$2 ~ /^D/ {print $1}'); do
		echo "task $p ($(cat "/proc/$p/comm" 2>/dev/null)) in D"
		cat "/proc/$p/stack" 2>/dev/null
	done
	for ns in "" $(ls /run/netns 2>/dev/null); do
		echo "namespace ${ns:-of init}:"
		# "IF: rx P dropped D, tx P dropped D" (ip -s: the numbers
		# after RX: are bytes packets errors dropped missed mcast,
		# then TX's bytes packets errors dropped ...)
		ip ${ns:+-n "$ns"} -s -o link show 2>/dev/null | awk '{
			n = 0
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9]+$/ && seen)
					v[++n] = $i
				else if ($i == "RX:")
					seen = 1
			seen = 0
			printf "%s rx %s dropped %s, tx %s dropped %s\n",
			       $2, v[2], v[4], v[8], v[10]
		}'
	done
	grep -E 'NET_RX|NET_TX' /proc/softirqs
}

last=
since=$(uptime_cs)
next=$((every * 100))
while sleep "$poll"; do
	grep -q '^# Totals:' "$tap" 2>/dev/null && break
	cur=$(grep -a '^#  RUN ' "$tap" 2>/dev/null | tail -1)
	runs=$(grep -a -c '^#  RUN ' "$tap" 2>/dev/null)
	now=$(uptime_cs)
	if [ "${runs:-0}:$cur" != "$last" ]; then
		last=${runs:-0}:$cur
		since=$now
		next=$((every * 100))
		continue
	fi
	[ -n "$cur" ] && [ $((now - since)) -ge "$next" ] || continue
	cur=${cur#\#  RUN }
	cur=${cur#"${cur%%[! ]*}"}
	dump "${cur% ...}" $(((now - since) / 100)) | sed 's/^/# stall: /'
	next=$((next + every * 100))
done
exit 0
