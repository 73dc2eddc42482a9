#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-peers.sh [RUNS] - compare the project's tools with xdp-tools on the
# same veth pair, same traffic, same run:
#
#   1. generators into one receiver (xdp-bench drop): xdp_trafficgen vs
#      xdp-trafficgen udp, rate as the receiver counts it;
#   2. receivers on one generator (xdp_trafficgen): xdp_rxq_info -i vs
#      xdp-bench, for drop, tx, pass and redirect (devmap);
#   3. the cost measurement's own price (xdp_rxq_info with and without);
#   4. AF_XDP rxdrop in native copy mode on one generator: xdpsock -i vs
#      xdp-bench xsk-drop -C copy -A native, spinning on the ring and,
#      when xdpsock has a poll mode, in poll() (-p) as well; the ratio.
#
# PARTS="2 4" runs only those parts (default: all).
#
# Debian 12's xdp-tools (1.3) does not load on current kernels; xdp-tools
# 1.6 from Debian unstable needs a newer glibc, so it runs in a debootstrap
# chroot under build/peers/sid (about a minute and 240 MB the first time),
# made from the mirror this machine's apt uses.  The chroot's /proc, /sys and
# /dev are bind-mounted inside the mount namespace `ip netns exec` makes, so
# nothing is mounted in the machine's own namespace, and libxdp finds no
# bpffs there to pin into.
#
# Each figure is the median of the receiver's per-second rates (first and
# last second dropped), over RUNS (default 3) alternating runs of each side.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
bin="$top/build/bin"
root="$top/build/peers/sid"
runs=${1:-3}
secs=6

. "$top/scripts/lib/common.sh"

[ "$(id -u)" -eq 0 ] || die "needs root"
[ -x "$bin/xdp_env" ] || die "build first (make)"
if [ ! -f "$root/.ready" ]; then
	command -v debootstrap >/dev/null ||
		DEBIAN_FRONTEND=noninteractive apt-get -q install -y debootstrap >&2
	mirror=$("$top/scripts/apt-mirror.sh") ||
		die "no Debian mirror in the machine's apt sources"
	rm -rf "$root"
	mkdir -p "$(dirname "$root")"
	say "debootstrap sid with xdp-tools into $root"
	debootstrap --variant=minbase --include=xdp-tools,iproute2 sid \
		"$root" "$mirror" >"$root.log" 2>&1 ||
		die "debootstrap failed, see $root.log"
	touch "$root/.ready"
fi

# The part that runs beside the pair (xdp_env exports its names)
if [ "${1:-}" = "--inside" ]; then
	shift
	runs=$1
	dut=$XDP_ENV_DUT_NS peer=$XDP_ENV_PEER_NS
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT

	# is part $1 to be run?
	part() { [ -z "${PARTS:-}" ] || [[ " $PARTS " == *" $1 "* ]]; }
	# chroot NS SECS CMD...: an xdp-tools command, SIGINT after SECS;
	# on CPU $cpu if set
	chrooted() {
		local ns=$1 t=$2 pin=()
		shift 2
		[ -n "${cpu:-}" ] && pin=(taskset -c "$cpu")
		"${pin[@]}" ip netns exec "$ns" sh -c 'r=$1; t=$2; shift 2
			mount --bind /proc "$r/proc" && mount --rbind /sys "$r/sys" &&
			mount --rbind /dev "$r/dev" &&
			exec timeout -s INT "$t" chroot "$r" "$@"' sh "$root" "$t" "$@"
	}
	# median of the numbers on stdin, first and last dropped
	med() {
		sort -g | awk '{ v[NR] = $1 } END {
			if (NR > 2) { lo = 2; hi = NR - 1 } else { lo = 1; hi = NR }
			n = hi - lo + 1; m = lo + int((n - 1) / 2)
			printf "%.0f\n", n % 2 ? v[m] : (v[m] + v[m + 1]) / 2 }'
	}
	# median of the runs (all of them)
	median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
	bench_rx() { awk '(/^Summary/ || $1 ~ /->/) && $3 == "rx/s" && $2 > 0 { print $2 }' "$1" | med; }
	ours_rx() { awk '$1 == "XDP-RX" && $2 == "total" && $3 > 0 { print $3 }' "$1" | med; }
	# xdp-bench xsk-drop: "veth0:0   171328 rx/s"; xdpsock: "... rx N pps ..."
	xsk_rx() { awk '$1 ~ /:[0-9]+$/ && $3 == "rx/s" && $2 > 0 { print $2 }' "$1" | med; }
	xdpsock_rx() {
		awk '{ for (i = 1; i + 2 <= NF; i++)
			if ($i == "rx" && $(i + 2) == "pps" && $(i + 1) > 0) print $(i + 1) }' "$1" | med
	}
	tg_ours() {
		ip netns exec "$peer" "$bin/xdp_trafficgen" -i "$XDP_ENV_PEER_IF" \
			--dst-mac "$XDP_ENV_DUT_MAC" -d $((secs + 2)) >/dev/null 2>&1
	}
	# CMD... while xdp_trafficgen sends, from half a second before
	on_traffic() {
		local g
		tg_ours &
		g=$!
		sleep 0.5
		"$@" || true
		wait $g || true
	}
	tg_theirs() {
		chrooted "$peer" $((secs + 2)) xdp-trafficgen udp \
			-m "$XDP_ENV_DUT_MAC" "$XDP_ENV_PEER_IF" >/dev/null 2>&1 || true
	}

	part 1 && {
	echo "1. generators into xdp-bench drop (receiver-counted Mpps)"
	a=() b=()
	for i in $(seq "$runs"); do
		for side in ours theirs; do
			chrooted "$dut" $((secs + 1)) xdp-bench drop -i 1 \
				"$XDP_ENV_DUT_IF" >"$tmp/rx" 2>&1 &
			sleep 0.5
			"tg_$side"
			wait || true
			r=$(bench_rx "$tmp/rx")
			[ "$side" = ours ] && a+=("$r") || b+=("$r")
			echo "   run $i $side: $r pps" >&2
		done
	done
	ma=$(median "${a[@]}")
	mb=$(median "${b[@]}")
	awk -v a="$ma" -v b="$mb" 'BEGIN { printf "   xdp_trafficgen %.3f Mpps, xdp-trafficgen %.3f Mpps, ratio %.2f\n", a / 1e6, b / 1e6, b ? a / b : 0 }'
	}

	part 2 && {
	echo "2. receivers on xdp_trafficgen, counting only (xdp_rxq_info --no-cost)"
	echo "   (Mpps; ns = 1e9 / rate: the generator's and the receive path's time on CPU 0)"
	for act in drop tx pass redirect; do
		a=() b=()
		case $act in
		redirect) theirs=(redirect-map "$XDP_ENV_DUT_IF" "$XDP_ENV_DUT2_IF")
			  ours=(-a XDP_REDIRECT --redirect-to "$XDP_ENV_DUT2_IF") ;;
		*) theirs=("$act" "$XDP_ENV_DUT_IF"); ours=(-a "$act") ;;
		esac
		for i in $(seq "$runs"); do
			on_traffic ip netns exec "$dut" "$bin/xdp_rxq_info" -i "$XDP_ENV_DUT_IF" \
				"${ours[@]}" -d "$secs" --warmup 0 --no-prog-cost --no-cost \
				>"$tmp/ours" 2>&1
			a+=("$(ours_rx "$tmp/ours")")
			on_traffic chrooted "$dut" "$secs" xdp-bench "${theirs[0]}" -i 1 \
				"${theirs[@]:1}" >"$tmp/theirs" 2>&1
			b+=("$(bench_rx "$tmp/theirs")")
			echo "   $act run $i: ours ${a[-1]} pps, xdp-bench ${b[-1]} pps" >&2
		done
		ma=$(median "${a[@]}")
		mb=$(median "${b[@]}")
		awk -v t="$act" -v a="$ma" -v b="$mb" 'BEGIN {
			printf "   %-8s xdp_rxq_info %.3f Mpps (%.1f ns), xdp-bench %.3f Mpps (%.1f ns): %+.1f ns\n",
			t, a / 1e6, a ? 1e9 / a : 0, b / 1e6, b ? 1e9 / b : 0,
			(a && b) ? 1e9 / a - 1e9 / b : 0 }'
	done
	}

	part 3 && {
	echo "3. the cost measurement's own price: xdp_rxq_info drop with and without"
	a=() b=()
	for i in $(seq "$runs"); do
		for side in with without; do
			on_traffic ip netns exec "$dut" "$bin/xdp_rxq_info" -i "$XDP_ENV_DUT_IF" \
				-d "$secs" --warmup 0 --no-prog-cost \
				$([ $side = without ] && echo --no-cost) \
				>"$tmp/ours" 2>&1
			r=$(ours_rx "$tmp/ours")
			[ $side = with ] && a+=("$r") || b+=("$r")
			echo "   run $i $side tracepoints: $r pps" >&2
		done
	done
	ma=$(median "${a[@]}")
	mb=$(median "${b[@]}")
	awk -v a="$ma" -v b="$mb" 'BEGIN {
		printf "   with %.3f Mpps, without %.3f Mpps: %+.1f ns per frame\n",
		a / 1e6, b / 1e6, (a && b) ? 1e9 / a - 1e9 / b : 0 }'
	}

	part 4 && {
	echo "4. AF_XDP rxdrop, native copy, on xdp_trafficgen: xdpsock vs xdp-bench xsk-drop"
	echo "   (Mpps; both receive on CPU 1, the generator and the NAPI run on CPU 0;"
	echo "   spin: the receive loop spins on the ring; poll: it waits in poll())"
	help=$("$bin/xdpsock" --help 2>&1 || true)
	modes=spin
	if grep -qE -- '(^|[[:space:],])--poll([[:space:],=]|$)' <<<"$help"; then
		modes+=" poll" ours_poll=--poll
	elif grep -qE -- '^[[:space:]]*-p,' <<<"$help"; then
		modes+=" poll" ours_poll=-p
	else
		echo "   xdpsock has no poll mode (none in its --help): poll mode not compared"
	fi
	for mode in $modes; do
		a=() b=() o=() t=()
		[ "$mode" = poll ] && o=("$ours_poll") t=(-p)
		for i in $(seq "$runs"); do
			on_traffic ip netns exec "$dut" "$bin/xdpsock" -i "$XDP_ENV_DUT_IF" \
				--rxdrop -N --copy --app-cpu 1 -d "$secs" "${o[@]}" \
				>"$tmp/ours" 2>&1
			ra=$(xdpsock_rx "$tmp/ours")
			cpu=1 on_traffic chrooted "$dut" "$secs" xdp-bench xsk-drop -C copy \
				-A native -i 1 "${t[@]}" "$XDP_ENV_DUT_IF" \
				>"$tmp/theirs" 2>&1
			rb=$(xsk_rx "$tmp/theirs")
			echo "   $mode run $i: xdpsock ${ra:-no rate} pps, xdp-bench ${rb:-no rate} pps" >&2
			[ -n "$ra" ] && a+=("$ra") || tail -n 3 "$tmp/ours" >&2
			[ -n "$rb" ] && b+=("$rb") || tail -n 3 "$tmp/theirs" >&2
		done
		if [ ${#a[@]} -eq 0 ] || [ ${#b[@]} -eq 0 ]; then
			echo "   $mode: no comparison, a receiver gave no rate (above)"
			continue
		fi
		ma=$(median "${a[@]}")
		mb=$(median "${b[@]}")
		awk -v t="$mode" -v a="$ma" -v b="$mb" 'BEGIN {
			printf "   %-9s xdpsock %.3f Mpps, xdp-bench xsk-drop %.3f Mpps: ratio %.2f\n",
			t, a / 1e6, b / 1e6, b ? a / b : 0 }'
	done
	}
	exit 0
fi

echo "bench-peers: $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-),"\
     "xdp-tools $(chroot "$root" dpkg-query -W -f='${Version}' xdp-tools), $runs runs of ${secs} s"
# peer-drop: frames XDP_TX'd or redirected back end at the peer's XDP_DROP
# Our generator and receivers run side by side here by design: hold the run
# lock (lib/cli.h) for all of them, so they neither wait for each other nor
# run beside another measuring run of the machine
exec 9>>/run/xdp-cost.lock
flock -n 9 || { say "waiting for another measuring run to end"; flock 9; }
export XDP_COST_LOCK_FD=9
exec "$bin/xdp_env" --redirect-pair --peer-drop -- "$0" --inside "$runs"
