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
