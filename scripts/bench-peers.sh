#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-peers.sh [--help] [RUNS] - compare the project's tools with
# xdp-tools on the same veth pair, same traffic, same run:
#
#   1. generators into one receiver (xdp-bench drop): xdp_trafficgen vs
#      xdp-trafficgen udp, 64 and 1500 B, rate as the receiver counts it;
#      and xdp_trafficgen against the live-frames limit (its --bare: a
#      program that only returns XDP_TX);
#   2. receivers on one generator (xdp_trafficgen): xdp_rxq_info -i vs
#      xdp-bench, for drop, tx, pass and redirect (devmap);
#   3. the cost measurement's own price (xdp_rxq_info with and without;
#      then xdp_cost_price, attaching and detaching them every 200 ms
#      beside one run, for 5 x SECS seconds);
#   4. AF_XDP rxdrop in native copy mode on one generator: xdpsock -i vs
#      xdp-bench xsk-drop -C copy -A native, spinning on the ring, in
#      poll() (-p) and busy-polling (-B), with the same batch, ring and
#      frame sizes on both sides;
#   5. the same in generic (skb) mode: xdpsock -S vs xdp-bench xsk-drop
#      -A skb (GRO on at veth0, which gives it the NAPI the generator's
#      frames need);
#   6. AF_XDP l2fwd, native copy, on one generator: xdpsock -l vs xdp-bench
#      xsk-tx, counted where the frames come back (the peer's program);
#   7. AF_XDP txonly, native copy: xdpsock -t vs xdp-trafficgen xsk-udp,
#      counted where the frames arrive (the peer's program);
#   8. the receiver's CPU per frame at fixed rates (the generator paced at
#      RATES frames/s): xdpsock vs xdp-bench xsk-drop, native copy,
#      spinning, in poll() and busy-polling; the receiving process's CPU
#      time (its threads' schedstat, read from outside alike for both) per
#      frame that reached veth0;
#   9. the same in generic (skb) mode.
#
# Parts 2, 4 and 5 also count what reached veth0 (its rx_queue_*_xdp_packets,
# every second, alike for both sides) and say which side was the limit: a
# receiver that took 97% of it or more kept up, and when both did, both
# rates are the kernel side's (the generator and the NAPI on CPU 0).  Every
# part gives each side's busy share of CPU 0 and CPU 1 over its runs
# (/proc/stat each second beside the run, the median of the seconds) and
# names the saturated ones.
#
# RUNS (default 5): alternating runs of each side (ours, peer, ours, ...).
# PARTS="2 4" runs only those parts (default: all); MODES="poll" runs
# only those of parts 4, 5, 8 and 9's receive modes (spin poll busy-poll;
# default all); RATES="500000 1000000" the rates of parts 8 and 9 (frames
# a second, 1000..10000000; default 500000 1000000 2000000); SECS=N makes a
# run N seconds (default 6, at least 3: the first and last second are
# dropped).
#
# Each run's figure is the median of the receiver's per-second rates
# (first and last second dropped).  Each run is made under xdp_load, which
# records the foreign load beside it (the CPU time neither the run's
# processes nor ksoftirqd used, lib/measure/cpustat.h, as the sweep checks it);
# a run with more than 5% of a CPU of it is disturbed and redone, at most
# twice (the sweep's SWEEP_MAX_RETRIES), then kept and flagged.  xdp_load
# also takes the round trip of a cache line between CPUs 0 and 1 before
# and after the run (lib/measure/line_rtt.h): where the host put the two vCPUs,
# which sets the price of every line the rings pass between them.  A run
# one of whose round trips is more than twice the other saw the host move
# a vCPU: disturbed as well; xdp_peers also gives the ratio per placement
# when a comparison's runs had more than one.  Per
# comparison xdp_peers reports both sides' exact command lines, every run
# with its load, the medians, the ratio ours / peer and the difference in
# ns per frame, each with a 95% bootstrap CI over the runs
# (Documentation/bench_peers.rst).  Every part lists the settings of both
# sides and says where they differ and why.
#
# Output: the report on stdout, and under results/ bench-peers-STAMP.txt
# (the same), .json (the bench-peers/1 JSON) and .records (the runs as
# recorded, lib/report/peers.h); the JSON file's path is the last line.  Exit
# status: 0 done, 1 a failure (said on stderr), 2 bad arguments.
#
# Debian 12's xdp-tools (1.3) does not load on current kernels; xdp-tools
# 1.6 from Debian unstable needs a newer glibc, so it runs in a debootstrap
# chroot under build/peers/sid (about a minute and 240 MB the first time),
# made from the mirror this machine's apt uses; debootstrap runs in a
# private mount namespace (unshare -m), so its /proc and /sys mounts never
# reach the machine's.  The chroot's /proc, /sys and /dev are bind-mounted
# inside the mount namespace `ip netns exec` makes, so nothing is mounted
# in the machine's own namespace, and libxdp finds no bpffs there to pin
# into.  The namespaces are xdp_env's, removed when the script ends, by
# any path (xdp_env removes them on SIGINT, SIGTERM and SIGHUP too).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
bin="$top/build/bin"
root="$top/build/peers/sid"
max_foreign=0.05	# as the sweep's load_check() (lib/bench/rxq_bench.c)
max_retries=2		# as the sweep's SWEEP_MAX_RETRIES (lib/sweep/sweep.h)
all_parts="1 2 3 4 5 6 7 8 9"
all_modes="spin poll busy-poll"
all_rates="500000 1000000 2000000"

. "$top/scripts/lib/common.sh"

# chroot NS SECS CMD...: an xdp-tools command, SIGINT after SECS; on CPU
# $cpu if set
chrooted() {
	local ns=$1 t=$2 pin=()
	shift 2
	[ -n "${cpu:-}" ] && pin=(taskset -c "$cpu")
	"${pin[@]}" ip netns exec "$ns" sh -c 'r=$1; t=$2; shift 2
		mount --bind /proc "$r/proc" && mount --rbind /sys "$r/sys" &&
		mount --rbind /dev "$r/dev" &&
		exec timeout -s INT "$t" chroot "$r" "$@"' sh "$root" "$t" "$@"
}
# how chrooted runs CMD..., for the report
chrooted_cmd() {
	local ns=$1 t=$2
	shift 2
	printf '%sip netns exec %s chroot %s (SIGINT after %s s) %s' \
		"${cpu:+taskset -c $cpu }" "$ns" "${root#"$top"/}" "$t" "$*"
}
# our generator's command line into tg[] (frames of $size bytes, if set)
tg_ours_cmd() {
	tg=("$bin/xdp_trafficgen" -i "$XDP_ENV_PEER_IF" --dst-mac "$XDP_ENV_DUT_MAC"
	    -d $((secs + 2)) ${size:+-s "$size"} ${rate:+--rate "$rate"})
}
tg_ours() {
	local tg
	tg_ours_cmd
	ip netns exec "$XDP_ENV_PEER_NS" "${tg[@]}" >/dev/null 2>&1
}
# the live-frames limit: our generator with a program that only returns
# XDP_TX (--bare: no rewrite, no count)
tg_bare() {
	local tg
	tg_ours_cmd
	ip netns exec "$XDP_ENV_PEER_NS" "${tg[@]}" --bare >/dev/null 2>&1
}
# xdp-trafficgen's -s counts the 4-byte FCS (its default, 66, is a 62-byte
# frame): -s SIZE + 4 is a frame of SIZE bytes, as ours
tg_theirs() {
	chrooted "$XDP_ENV_PEER_NS" $((secs + 2)) xdp-trafficgen udp \
		-m "$XDP_ENV_DUT_MAC" -s $((${size:-64} + 4)) "$XDP_ENV_PEER_IF" \
		>/dev/null 2>&1 || true
}
tg_theirs_cmd() {
	chrooted_cmd "$XDP_ENV_PEER_NS" $((secs + 2)) xdp-trafficgen udp \
		-m "$XDP_ENV_DUT_MAC" -s $((${size:-64} + 4)) "$XDP_ENV_PEER_IF"
}
# dev_count NS IF STAT WORD N [PROC]: an ethtool -S counter of IF (the sum
# of rx_queue_*_STAT) per second for N seconds: "WORD N pps" lines.  With
# PROC, the newest process of that name (waited for up to 5 s) is read
# beside it, its threads' CPU time (schedstat): "cpu X ns" lines, its CPU
# ns per frame of the counter in that second.
dev_count() {
	LC_ALL=C ip netns exec "$1" bash -c 'ifc=$1; stat=$2; word=$3; n=$4; proc=$5
		count() { ethtool -S "$ifc" | awk -v re="^rx_queue_[0-9]+_${stat}:\$" '\''$1 ~ re { s += $2 }
			END { printf "%.0f\n", s }'\''; }
		pid= i=0
		while [ -n "$proc" ] && [ -z "$pid" ] && [ $((i++)) -lt 50 ]; do
			pid=$(pgrep -n -x "$proc") || sleep 0.1
		done
		cpu() { [ -n "$pid" ] && cat /proc/"$pid"/task/*/schedstat 2>/dev/null |
			awk '\''{ s += $1 } END { printf "%.0f\n", s }'\''; }
		v0=$(count); c0=$(cpu); t0=$EPOCHREALTIME
		for ((i = 0; i < n; i++)); do
			sleep 1
			v=$(count); c=$(cpu); t=$EPOCHREALTIME
			awk -v d=$((v - v0)) -v t="$t" -v t0="$t0" -v w="$word" \
				'\''BEGIN { printf "%s %.0f pps\n", w, d / (t - t0) }'\''
			[ -n "$pid" ] && [ -n "$c" ] && [ $((v - v0)) -gt 0 ] &&
				awk -v c=$((c - c0)) -v d=$((v - v0)) \
					'\''BEGIN { printf "cpu %.1f ns\n", c / d }'\''
			v0=$v c0=$c t0=$t
		done' sh "$2" "$3" "$4" "$5" "${6:-}"
}
# busy_count N: CPU 0's and CPU 1's busy share (user, nice, system, irq,
# softirq of /proc/stat, as lib/measure/cpustat.h counts busy) each second
# for N seconds: "busy B0,B1" lines; /proc/stat's 10 ms units are 1% of a
# second
busy_count() {
	local n=$1 i a b
	snap() { awk '$1 == "cpu0" || $1 == "cpu1" { b = $2 + $3 + $4 + $7 + $8
		printf "%s %s ", b, b + $5 + $6 + $9 }' /proc/stat; }
	a=$(snap)
	for ((i = 0; i < n; i++)); do
		sleep 1
		b=$(snap)
		awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ")
			d0 = y[2] - x[2]; d1 = y[4] - x[4]
			printf "busy %.3f,%.3f\n", d0 ? (y[1] - x[1]) / d0 : 0,
				d1 ? (y[3] - x[3]) / d1 : 0 }'
		a=$b
	done
}
# Frames the peer's program dropped (what reached veth1), per second, for
# SECS seconds: "peer N pps" lines (parts 6 and 7 count there, on both
# sides alike)
peer_count() {
	dev_count "$XDP_ENV_PEER_NS" "$XDP_ENV_PEER_IF" xdp_drops peer "$1"
}
# What reached veth0 (its NAPI's frames), per second: "dev N pps" lines;
# with PROC, that process's CPU ns per frame too
dev_offered() {
	dev_count "$XDP_ENV_DUT_NS" "$XDP_ENV_DUT_IF" xdp_packets dev "$1" "${2:-}"
}

# One run's pair, in a process of its own under xdp_load (--pair):
#   gen SIDE [SIZE]: xdp-bench drop on the dut, generator SIDE (ours,
#     theirs, bare), frames of SIZE bytes (default 64)
#   rx CMD...: xdp_trafficgen from half a second before, CMD receives;
#     what reached veth0 counted beside it (dev_offered)
#   cpu RATE PROC CMD...: the same with the generator paced at RATE, and
#     the CPU per frame of the process PROC that CMD starts
#   fwd CMD...: the same, counted at the peer (peer_count)
#   tx CMD...: CMD sends, counted at the peer
# the receiver's output in $PEERS_TMP/out, the counts beside it in
# $PEERS_TMP/dev
pair() {
	local what=$1 g
	shift
	case $what in
	gen)
		size=${2:-}
		chrooted "$XDP_ENV_DUT_NS" $((secs + 1)) xdp-bench drop -i 1 \
			"$XDP_ENV_DUT_IF" >"$PEERS_TMP/out" 2>&1 &
		g=$!
		sleep 0.5
		busy_count "$secs" >"$PEERS_TMP/busy" 2>&1 &
		x=$!
		"tg_$1"
		wait $x $g || true ;;
	fwd|tx)
		[ "$what" = tx ] || { tg_ours & g=$!; sleep 0.5; }
		peer_count "$secs" >"$PEERS_TMP/out" 2>&1 &
		x=$!
		busy_count "$secs" >"$PEERS_TMP/busy" 2>&1 &
		y=$!
		"$@" >"$PEERS_TMP/cmd.out" 2>&1 || true
		wait $x $y ${g:-} || true ;;
	rx)
		tg_ours &
		g=$!
		sleep 0.5
		dev_offered "$secs" >"$PEERS_TMP/dev" 2>&1 &
		x=$!
		busy_count "$secs" >"$PEERS_TMP/busy" 2>&1 &
		y=$!
		"$@" >"$PEERS_TMP/out" 2>&1 || true
		wait $x $y $g || true ;;
	cpu)
		rate=$1
		tg_ours &
		g=$!
		sleep 0.5
		dev_offered "$secs" "$2" >"$PEERS_TMP/dev" 2>&1 &
		x=$!
		busy_count "$secs" >"$PEERS_TMP/busy" 2>&1 &
		y=$!
		"${@:3}" >"$PEERS_TMP/out" 2>&1 || true
		wait $x $y $g || true ;;
	price)
		# xdp_cost_price for $1 s beside xdp_rxq_info --no-cost, on CPU 1
		secs=$(($1 + 3))
		tg_ours &
		g=$!
		sleep 0.5
		ip netns exec "$XDP_ENV_DUT_NS" "$bin/xdp_rxq_info" \
			-i "$XDP_ENV_DUT_IF" -d "$secs" --warmup 0 --no-prog-cost \
			--no-cost >/dev/null 2>&1 &
		x=$!
		sleep 1
		taskset -c 1 ip netns exec "$XDP_ENV_DUT_NS" "$bin/xdp_cost_price" \
			-i "$XDP_ENV_DUT_IF" -d "$1" >"$PEERS_TMP/out" 2>&1 || true
		wait $x $g || true ;;
	esac
}

# --pair and --inside are the script's own steps, under xdp_env
case ${1:-} in --pair|--inside)
	[ -n "${XDP_ENV_DUT_NS:-}" ] || die "$1 is an inner step: run it without" ;;
esac
if [ "${1:-}" = "--pair" ]; then
	shift
	secs=$PEERS_SECS
	[ "${2:-}" = cpu=1 ] && { cpu=1; set -- "$1" "${@:3}"; }
	pair "$@"
	exit 0
fi

# The part that runs beside the pair (xdp_env exports its names)
if [ "${1:-}" = "--inside" ]; then
	runs=$2 secs=$3 rec=$4
	dut=$XDP_ENV_DUT_NS
	tg_ours_cmd
	PEERS_TMP=$(mktemp -d)
	export PEERS_TMP PEERS_SECS=$secs
	trap 'rm -rf "$PEERS_TMP"' EXIT
	# ^C reaches the run's tools too, which stop and exit cleanly: without
	# this the loop would go on to the next run
	trap 'exit 130' INT TERM HUP

	# is part $1 to be run?
	part() { [ -z "${PARTS:-}" ] || [[ " $PARTS " == *" $1 "* ]]; }
	r() { local IFS=$'\t'; echo "$*" >>"$rec"; }
	# median of the numbers on stdin, the first and the last (in their
	# order: the run's first and last second) dropped when there are 3 or more
	med() {
		awk '{ v[NR] = $1 } END { lo = NR > 2 ? 2 : 1; hi = NR > 2 ? NR - 1 : NR
			for (i = lo; i <= hi; i++) print v[i] }' | sort -g |
		awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2)
			if (NR) printf "%.0f\n", NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2 }'
	}
	bench_rx() { awk '(/^Summary/ || $1 ~ /->/) && $3 == "rx/s" && $2 > 0 { print $2 }' "$1" | med; }
	ours_rx() { awk '$1 == "XDP-RX" && $2 == "total" && $3 > 0 { print $3 }' "$1" | med; }
	# xdp-bench xsk-drop: "veth0:0   171328 rx/s"; xdpsock: "... rx N pps ..."
	xsk_rx() { awk '$1 ~ /:[0-9]+$/ && $3 == "rx/s" && $2 > 0 { print $2 }' "$1" | med; }
	# peer_count's lines
	peer_rx() { awk '$1 == "peer" && $3 == "pps" && $2 > 0 { print $2 }' "$1" | med; }
	# dev_offered's lines: the frames a second that reached veth0, and the
	# receiver's CPU ns per frame
	dev_rx() { awk '$1 == "dev" && $3 == "pps" && $2 > 0 { print $2 }' "$1" | med; }
	dev_cpu() { awk '$1 == "cpu" && $3 == "ns" && $2 > 0 { print $2 }' "$1" | med; }
	# busy_count's lines: each CPU's median busy share, "B0,B1"
	busy_med() {
		local c0 c1
		c0=$(awk '$1 == "busy" { split($2, b, ","); print b[1] * 1000 }' "$1" | med)
		c1=$(awk '$1 == "busy" { split($2, b, ","); print b[2] * 1000 }' "$1" | med)
		[ -n "$c0" ] && [ -n "$c1" ] &&
			awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.3f,%.3f\n", a / 1000, b / 1000 }'
	}
	xdpsock_rx() {
		awk '{ for (i = 1; i + 2 <= NF; i++)
			if ($i == "rx" && $(i + 2) == "pps" && $(i + 1) > 0) print $(i + 1) }' "$1" | med
	}
	# run SIDE PARSER PAIR...: one run of a side, redone while disturbed
	# (at most max_retries times); its record
	run() {
		local side=$1 parse=$2 try=0 rate foreign steal disturbed rtt0 rtt1 dev busy
		shift 2
		while :; do
			: >"$PEERS_TMP/dev"
			: >"$PEERS_TMP/busy"
			"$bin/xdp_load" --max-foreign "$max_foreign" \
				--record "$PEERS_TMP/load" -- "$0" --pair "$@" \
				2>"$PEERS_TMP/load.txt" || true
			rate=$("$parse" "$PEERS_TMP/out")
			dev=$(dev_rx "$PEERS_TMP/dev")
			busy=$(busy_med "$PEERS_TMP/busy")
			IFS=$'\t' read -r foreign steal disturbed _ rtt0 rtt1 _ <"$PEERS_TMP/load" ||
				die "no load record: $(cat "$PEERS_TMP/load.txt")"
			[ -n "$rate" ] || tail -n 3 "$PEERS_TMP/out" >&2
			echo "   $side: ${rate:-no figure} ${unit:-pps}${dev:+, $dev pps reached veth0}, foreign load $foreign of a CPU, CPUs busy ${busy:-?}, line round trip $rtt0 -> $rtt1 ns$([ "$disturbed" = 1 ] && echo ", disturbed")" >&2
			[ "$disturbed" = 1 ] && [ $try -lt $max_retries ] || break
			try=$((try + 1))
		done
		r run "$side" "${rate:--}" "$foreign" "$steal" "$disturbed" "$try" "${rtt0:--}" "${rtt1:--}" "${dev:--}" "${busy:--}"
	}

	part 1 && {
	echo "part 1: generators" >&2
	r part 1 "generators into xdp-bench drop (receiver-counted Mpps)"
	r setting receiver "xdp-bench drop -i 1 (native)" "the same"
	r setting "frame size" "64 B, then 1500 B (-s 64, -s 1500)" "64 B, then 1500 B (-s 68, -s 1504)" \
		"xdp-trafficgen's -s counts the 4-byte FCS"
	r setting flows "1 (default -f)" "1 (one source and destination port)"
	r setting method "BPF_PROG_RUN live frames, one call" "BPF_PROG_RUN live frames" \
		"xdp-trafficgen makes many shorter calls (trafficgen.rst)"
	r setting "CPU pinning" "sending thread on CPU 0 (default -c)" "not pinned, 1 thread (default -t)" \
		"xdp-trafficgen has no CPU option"
	r note "the limit rows: xdp_trafficgen against itself with --bare (a program that only returns XDP_TX, nothing counted: what live frames can do here); xdp-trafficgen's share of it is its ratio above divided by ours here"
	for size in 64 1500; do
		tg_ours_cmd
		r cmp "$size B" xdp_trafficgen "xdp-trafficgen udp"
		r cmd ours "ip netns exec $XDP_ENV_PEER_NS ${tg[*]}; receiver: $(chrooted_cmd "$dut" $((secs + 1)) xdp-bench drop -i 1 "$XDP_ENV_DUT_IF")"
		r cmd peer "$(tg_theirs_cmd); receiver: the same"
		for i in $(seq "$runs"); do
			run ours bench_rx gen ours "$size"
			run peer bench_rx gen theirs "$size"
		done
		r cmp "$size B, limit" xdp_trafficgen "xdp_trafficgen --bare"
		r cmd ours "ip netns exec $XDP_ENV_PEER_NS ${tg[*]}; receiver: the same"
		r cmd peer "ip netns exec $XDP_ENV_PEER_NS ${tg[*]} --bare; receiver: the same"
		for i in $(seq "$runs"); do
			run ours bench_rx gen ours "$size"
			run peer bench_rx gen bare "$size"
		done
	done
	size=
	tg_ours_cmd
	}

	part 2 && {
	echo "part 2: XDP receivers" >&2
	r part 2 "receivers on xdp_trafficgen, counting only (ns = 1e9 / rate: generator and receive path on CPU 0)"
	r setting generator "${tg[*]#"$bin"/}" "the same"
	r setting mode "native (default)" "native (default -m)"
	r setting "frame size" "64 B" "64 B"
	r setting counting "per-action counters, no cost tracepoints (--no-cost)" \
		"xdp-bench's own per-CPU counters" "each counts in its own XDP program"
	r setting interval "rates per second (default)" "-i 1"
	for act in drop tx pass redirect; do
		case $act in
		redirect) theirs=(redirect-map "$XDP_ENV_DUT_IF" "$XDP_ENV_DUT2_IF")
			  ours=(-a XDP_REDIRECT --redirect-to "$XDP_ENV_DUT2_IF") ;;
		*) theirs=("$act" "$XDP_ENV_DUT_IF"); ours=(-a "$act") ;;
		esac
		o=(ip netns exec "$dut" "$bin/xdp_rxq_info" -i "$XDP_ENV_DUT_IF"
		   "${ours[@]}" -d "$secs" --warmup 0 --no-prog-cost --no-cost)
		r cmp "$act" xdp_rxq_info xdp-bench
		r cmd ours "${o[*]}"
		r cmd peer "$(chrooted_cmd "$dut" "$secs" xdp-bench "${theirs[0]}" -i 1 "${theirs[@]:1}")"
		for i in $(seq "$runs"); do
			run ours ours_rx rx "${o[@]}"
			run peer bench_rx rx chrooted "$dut" "$secs" xdp-bench \
				"${theirs[0]}" -i 1 "${theirs[@]:1}"
		done
	done
	}

	part 3 && {
	echo "part 3: the cost measurement's price" >&2
	r part 3 "the cost measurement's own price: xdp_rxq_info drop with and without the softirq tracepoints"
	r setting generator "${tg[*]#"$bin"/}" "the same"
	r setting tracepoints "irq:softirq_entry/exit programs attached" "none (--no-cost)" \
		"the one thing measured: its price is ns_diff"
	r note "ours = with, peer = without; both are xdp_rxq_info"
	o=(ip netns exec "$dut" "$bin/xdp_rxq_info" -i "$XDP_ENV_DUT_IF" -d "$secs"
	   --warmup 0 --no-prog-cost)
	r cmp drop with without
	r cmd ours "${o[*]}"
	r cmd peer "${o[*]} --no-cost"
	for i in $(seq "$runs"); do
		run ours ours_rx rx "${o[@]}"
		run peer ours_rx rx "${o[@]}" --no-cost
	done
	# The same price interleaved finely in one run: xdp_cost_price
	# attaches and detaches the programs every 200 ms beside one
	# xdp_rxq_info --no-cost (lib/measure/softirq_cost.h, cost_method.rst)
	pt=$((secs * 5))
	"$bin/xdp_load" --max-foreign "$max_foreign" --record "$PEERS_TMP/load" \
		-- "$0" --pair price "$pt" 2>"$PEERS_TMP/load.txt" || true
	IFS=$'\t' read -r foreign _ disturbed _ <"$PEERS_TMP/load" || foreign=?
	price=$(awk '$1 == "price" { $1 = ""; print }' "$PEERS_TMP/out")
	[ -n "$price" ] || tail -n 3 "$PEERS_TMP/out" >&2
	r note "interleaved, xdp_cost_price -d $pt: ${price:-no figure}; foreign load $foreign$([ "${disturbed:-0}" = 1 ] && echo ", disturbed")"
	echo "   interleaved: ${price:-no figure}, foreign load $foreign of a CPU" >&2
	}

	# The AF_XDP settings parts 4-7 share: batch, rings, chunk
	xsk_settings() {
		r setting "CPU pinning" "app thread on CPU 1 (--app-cpu 1)" "CPU 1 (taskset -c 1)"
		r setting batch "64 (-b 64)" "64 (default -b)"
		r setting "RX ring" "2048 (--rx-size 2048)" "2048 (libxdp default)"
		r setting "fill ring" "4096 (--fill-size 4096)" "4096 (xdp-tools: 2 x default)" \
			"xdpsock's default is 2048: set to the peer's, which has no option"
		r setting "UMEM chunk" "4096 B (--frame-size 4096)" "4096 B (default -f)"
	}
	# xsk_cmp NAME OURS PEER PARSE-OURS PARSE-PEER PAIR: one comparison of
	# the caller's ours[] against theirs[] (in the chroot, on CPU 1), its
	# runs alternating, each a --pair PAIR
	xsk_cmp() {
		local name=$1 on=$2 pn=$3 po=$4 pp=$5 pair=$6 i
		r cmp "$name" "$on" "$pn"
		r cmd ours "${ours[*]}"
		r cmd peer "$(cpu=1 chrooted_cmd "$dut" "$secs" "${theirs[@]}")"
		for i in $(seq "$runs"); do
			run ours "$po" "$pair" "${ours[@]}"
			run peer "$pp" "$pair" cpu=1 chrooted "$dut" "$secs" "${theirs[@]}"
		done
	}
	# rxdrop PART MODE-TEXT OURS-MODE PEER-MODE: spinning, in poll() and
	# busy-polling, xdpsock OURS-MODE against xdp-bench xsk-drop PEER-MODE
	rxdrop() {
		local p=$1 what=$2 om=$3 pm=$4 mode o ours theirs common
		r part "$p" "AF_XDP rxdrop, $what, on xdp_trafficgen: xdpsock vs xdp-bench xsk-drop"
		r setting generator "${tg[*]#"$bin"/} (CPU 0; NAPI there)" "the same"
		r setting mode "$what ($om --copy)" "$what (-A $pm -C copy)"
		r setting "frame size" "64 B" "64 B"
		xsk_settings
		r setting "UMEM frames" "256 (rxdrop's default, in every mode here)" \
			"4096 (NUM_FRAMES, no option)" \
			"by design: fewer copy destinations stay in L2 (xdpsock.rst, UMEM frames)"
		r setting "poll() (-p)" "only after 20 us of empty RX ring (--poll-spin-us default)" \
			"before every batch (returns at once while frames wait)" \
			"by design: a sleeper's wake-up costs the NAPI CPU (xdpsock.rst, poll() and the spin)"
		r setting "hold" "5 us (--rx-hold-us default): after a turn that took less than a batch, the RX ring is looked at 5 us later" \
			"none: the ring is looked at again at once (in poll(), after the poll() syscall)" \
			"by design: a loop that takes each frame as it is published costs the NAPI's CPU the ring's lines (xdpsock.rst, The hold)"
		r setting "RX lines" "each whole line of a batch's descriptors stored into before it is read (default)" \
			"only read" \
			"by design: a line the NAPI's CPU finds in one cache costs it less (xdpsock.rst, Taking the lines for writing)"
		r setting need_wakeup "on (default)" "on (default)"
		r setting "cost tracepoints" "none (--no-cost)" "none" \
			"xdpsock's NET_RX cost measurement is off: part 3 prices it"
		[ "$pm" = native ] ||
			r setting "veth0 GRO" "on (ethtool -K)" "the same" \
				"generic XDP: veth0 needs a NAPI for the frames veth1 sends"
		r note "spin: the receive loop spins on the ring; poll: it waits in poll(); busy-poll: SO_PREFER_BUSY_POLL with SO_BUSY_POLL (-B on both)"
		r note "on veth an AF_XDP socket gets no NAPI id (veth sets no queue NAPI for xsk_bind()), so busy-poll polls nothing: the NAPI stays on CPU 0 (bench_peers.rst)"
		common=(--rxdrop "$om" --copy --app-cpu 1 -b 64 --rx-size 2048
			--fill-size 4096 --frame-size 4096 --no-cost -d "$secs")
		for mode in ${MODES:-$all_modes}; do
			# the same option on both sides
			case $mode in
			spin) o=() ;;
			poll) o=(-p) ;;
			busy-poll) o=(-B) ;;
			esac
			ours=(ip netns exec "$dut" "$bin/xdpsock" -i "$XDP_ENV_DUT_IF"
			      "${common[@]}" "${o[@]}")
			theirs=(xdp-bench xsk-drop -C copy -A "$pm" -i 1 "${o[@]}"
				"$XDP_ENV_DUT_IF")
			xsk_cmp "$mode" xdpsock "xdp-bench xsk-drop" xdpsock_rx xsk_rx rx
		done
	}

	# cpu_fig: the receiver's CPU ns per frame (dev_offered's, in dev)
	cpu_fig() { dev_cpu "$PEERS_TMP/dev"; }
	# cpu_part PART MODE-TEXT OURS-MODE PEER-MODE: at each of RATES, the
	# receiving process's CPU per frame, xdpsock OURS-MODE against xdp-bench
	# xsk-drop PEER-MODE, spinning, in poll() and busy-polling
	cpu_part() {
		local p=$1 what=$2 om=$3 pm=$4 mode o ox ours theirs common rate
		r part "$p" "AF_XDP rxdrop, $what, at fixed rates: the receiver's CPU ns per frame, xdpsock vs xdp-bench xsk-drop"
		r unit cpu-ns
		r setting generator "xdp_trafficgen --rate R (CPU 0; NAPI there)" "the same"
		r setting mode "$what ($om --copy)" "$what (-A $pm -C copy)"
		r setting "frame size" "64 B" "64 B"
		xsk_settings
		r setting "UMEM frames" "256 (rxdrop's default)" "4096 (NUM_FRAMES, no option)" \
			"by design (part 4)"
		r setting "poll() (-p)" "after 20 us of empty RX ring" "before every batch" \
			"by design (part 4)"
		r setting "hold" "5 us (--rx-hold-us default)" "none" "by design (part 4)"
		r setting "cost tracepoints" "none (--no-cost)" "none"
		[ "$pm" = native ] ||
			r setting "veth0 GRO" "on (ethtool -K)" "the same" \
				"generic XDP: veth0 needs a NAPI for the frames veth1 sends"
		r note "figure: the receiving process's CPU time (its threads' schedstat, read every second from outside, alike for both) per frame that reached veth0 that second; median of the seconds; less is better"
		r note "spinning and busy-polling loops never sleep: their figure is 1e9 / rate on both sides; poll() is where a loop's CPU per frame shows"
		r note "each run's last figure is the Mpps that reached veth0: the rate was met when it is the one asked"
		common=(--rxdrop "$om" --copy --app-cpu 1 -b 64 --rx-size 2048
			--fill-size 4096 --frame-size 4096 --no-cost -d "$secs")
		r note "poll, no spin: ours with --poll-spin-us 0 --rx-hold-us 0 (poll() whenever the ring is empty, no hold), the peer as in poll"
		for rate in ${RATES:-$all_rates}; do
			# poll() as xdpsock defaults it, and as the peer does it
			for mode in $(echo " ${MODES:-$all_modes} " | sed 's/ poll / poll poll-nospin /'); do
				ox=()
				case $mode in
				spin) o=() ;;
				poll) o=(-p) ;;
				poll-nospin) o=(-p) ox=(--poll-spin-us 0 --rx-hold-us 0) ;;
				busy-poll) o=(-B) ;;
				esac
				ours=(ip netns exec "$dut" "$bin/xdpsock" -i "$XDP_ENV_DUT_IF"
				      "${common[@]}" "${o[@]}" "${ox[@]}")
				theirs=(xdp-bench xsk-drop -C copy -A "$pm" -i 1 "${o[@]}"
					"$XDP_ENV_DUT_IF")
				r cmp "$mode $(awk -v r="$rate" 'BEGIN { printf "%g", r / 1e6 }')M" xdpsock "xdp-bench xsk-drop"
				r cmd ours "${ours[*]}; generator --rate $rate"
				r cmd peer "$(cpu=1 chrooted_cmd "$dut" "$secs" "${theirs[@]}"); generator --rate $rate"
				for i in $(seq "$runs"); do
					unit=ns run ours cpu_fig cpu "$rate" xdpsock "${ours[@]}"
					unit=ns run peer cpu_fig cpu cpu=1 "$rate" xdp-bench \
						chrooted "$dut" "$secs" "${theirs[@]}"
				done
			done
		done
	}

	part 4 && {
	echo "part 4: AF_XDP rxdrop" >&2
	rxdrop 4 "native XDP, copy" -N native
	}

	part 5 && {
	echo "part 5: AF_XDP rxdrop, generic" >&2
	gro() { ip netns exec "$dut" ethtool -K "$XDP_ENV_DUT_IF" gro "$1" >/dev/null; }
	gro on
	rxdrop 5 "generic XDP, copy" -S skb
	gro off
	}

	# Parts 6 and 7 count at the peer, whose program drops what it gets
	peer_note="counted at veth1: frames/s its XDP program dropped (rx_queue_*_xdp_drops, read every second), alike for both sides"

	part 6 && {
	echo "part 6: AF_XDP l2fwd" >&2
	r part 6 "AF_XDP l2fwd, native copy, on xdp_trafficgen: xdpsock -l vs xdp-bench xsk-tx, counted where the frames come back"
	r setting generator "${tg[*]#"$bin"/} (CPU 0; NAPI there)" "the same"
	r setting mode "native XDP, copy (-N --copy)" "native XDP, copy (-A native -C copy)"
	r setting "frame size" "64 B" "64 B"
	xsk_settings
	r setting "TX ring" "2048 (default)" "2048 (libxdp default)"
	r setting "UMEM frames" "256 (l2fwd's default, as rxdrop's)" "4096 (NUM_FRAMES, no option)" \
		"by design: fewer copy sources and destinations stay in L2 (xdpsock.rst, UMEM frames)"
	r setting "TX budget" "32 (the kernel's; l2fwd's default)" "32 (the kernel's; no option)"
	r setting "cost tracepoints" "none (--no-cost)" "none"
	r note "$peer_note"
	ours=(ip netns exec "$dut" "$bin/xdpsock" -i "$XDP_ENV_DUT_IF" -l -N --copy
	      --app-cpu 1 -b 64 --rx-size 2048 --fill-size 4096 --frame-size 4096
	      --no-cost -d "$secs")
	theirs=(xdp-bench xsk-tx -C copy -A native -i 1 "$XDP_ENV_DUT_IF")
	xsk_cmp l2fwd "xdpsock -l" "xdp-bench xsk-tx" peer_rx peer_rx fwd
	}

	part 7 && {
	echo "part 7: AF_XDP txonly" >&2
	r part 7 "AF_XDP txonly, native copy: xdpsock -t vs xdp-trafficgen xsk-udp, counted where the frames arrive"
	r setting mode "native XDP, copy (-N --copy)" "native XDP, copy (-A native -C copy)"
	r setting "frame size" "64 B (-s 64)" "64 B (-s 68)" "xdp-trafficgen's -s counts the 4-byte FCS"
	r setting "CPU pinning" "app thread on CPU 1 (--app-cpu 1)" "CPU 1 (taskset -c 1)"
	r setting batch "64 (-b 64)" "64 (default -b)"
	r setting "UMEM chunk" "4096 B (--frame-size 4096)" "4096 B (default -f)"
	r setting "UMEM frames" "4096 (fill + TX ring, defaults)" "4096 (no option)"
	r setting "TX budget" "2048, the TX ring's size (XDP_MAX_TX_SKB_BUDGET; default); one sendto() per 2048 frames" \
		"32 (the kernel's; no option); one sendto() per batch" \
		"by design: on veth the sendto(), not the frame, is what a sender saves (xdpsock.rst, TX budget)"
	r setting "destination MAC" "02:00:00:00:00:02 (-i: xsk_bench's fixed one)" "veth1's (-m)" \
		"veth1's program drops every frame, whatever its address"
	r setting "cost tracepoints" "none (--no-cost)" "none"
	r note "$peer_note"
	ours=(ip netns exec "$dut" "$bin/xdpsock" -i "$XDP_ENV_DUT_IF" -t -N --copy
	      --app-cpu 1 -b 64 -s 64 --frame-size 4096 --no-cost -d "$secs")
	theirs=(xdp-trafficgen xsk-udp -C copy -A native -i 1 -s 68
		-m "$XDP_ENV_PEER_MAC" "$XDP_ENV_DUT_IF")
	xsk_cmp txonly "xdpsock -t" "xdp-trafficgen xsk-udp" peer_rx peer_rx tx
	}

	part 8 && {
	echo "part 8: the receiver's CPU per frame at fixed rates, native" >&2
	cpu_part 8 "native XDP, copy" -N native
	}

	part 9 && {
	echo "part 9: the receiver's CPU per frame at fixed rates, generic" >&2
	gro() { ip netns exec "$dut" ethtool -K "$XDP_ENV_DUT_IF" gro "$1" >/dev/null; }
	gro on
	cpu_part 9 "generic XDP, copy" -S skb
	gro off
	}
	exit 0
fi

runs=5
secs=${SECS:-6}
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	-*) die_status=2 die "unknown argument '$1' (see --help)" ;;
	*) [ -z "${got_runs:-}" ] || die_status=2 die "one RUNS expected, also got '$1' (see --help)"
	   got_runs=1 runs=$1 ;;
	esac
	shift
done
case $runs in ''|*[!0-9]*|0*) die_status=2 die "RUNS: '$runs' is not a whole number in 1..100" ;; esac
[ "$runs" -le 100 ] || die_status=2 die "RUNS: '$runs' is not a whole number in 1..100"
case $secs in ''|*[!0-9]*|0*) die_status=2 die "SECS: '$secs' is not a whole number in 3..600" ;; esac
[ "$secs" -ge 3 ] && [ "$secs" -le 600 ] ||
	die_status=2 die "SECS: '$secs' is not a whole number in 3..600"
# shown W: W for a message, its control bytes as ^X (cat -v)
shown() { printf '%s' "$1" | cat -v; }
# words VAR: $VAR's words (split at spaces, tabs and newlines, never
# globbed), each once, back into VAR joined by one space and exported, so
# that the checks below and the parts' selection see the same words; a
# word given twice is refused
words() {
	local -a ws
	local w seen=" "
	set -f
	# shellcheck disable=SC2206 # splitting is the point, globbing is off
	ws=(${!1:-})
	set +f
	for w in "${ws[@]}"; do
		[[ "$seen" != *" $w "* ]] ||
			die_status=2 die "$1: '$(shown "$w")' is given twice"
		seen+="$w "
	done
	printf -v "$1" '%s' "${ws[*]}"
	export "${1?}"
}
# only_of VAR WHAT WHATS ALL: each word of $VAR is one of ALL, or exit 2
only_of() {
	local w
	words "$1"
	set -f
	for w in ${!1:-}; do
		[[ " $4 " == *" $w "* ]] ||
			die_status=2 die "$1: '$(shown "$w")' is not a $2 (the $3: $4)"
	done
	set +f
}
only_of PARTS part parts "$all_parts"
only_of MODES "receive mode" modes "$all_modes"
words RATES
set -f
for w in ${RATES:-}; do
	case $w in ''|*[!0-9]*|0*) die_status=2 die "RATES: '$(shown "$w")' is not a whole number in 1000..10000000" ;; esac
	[ "$w" -ge 1000 ] && [ "$w" -le 10000000 ] ||
		die_status=2 die "RATES: '$w' is not a whole number in 1000..10000000"
done
set +f
[ "$runs" -ge 3 ] || say "RUNS $runs: no confidence intervals (they need 3 runs a side)"

[ "$(id -u)" -eq 0 ] || die "needs root"
for t in xdp_env xdp_load xdp_peers xdp_trafficgen xdp_rxq_info xdpsock xdp_cost_price; do
	[ -x "$bin/$t" ] || die "no $bin/$t: build first (make)"
done
if [ ! -f "$root/.ready" ]; then
	command -v debootstrap >/dev/null ||
		DEBIAN_FRONTEND=noninteractive apt-get -q install -y debootstrap >&2
	mirror=$("$top/scripts/apt-mirror.sh") ||
		die "no Debian mirror in the machine's apt sources"
	rm -rf "$root"
	mkdir -p "$(dirname "$root")"
	say "debootstrap sid with xdp-tools into $root"
	# a partial root goes on any exit; its mounts died with the namespace
	trap 'rm -rf "$root"' EXIT
	unshare -m --propagation private debootstrap --variant=minbase \
		--include=xdp-tools,iproute2 sid "$root" "$mirror" \
		>"$root.log" 2>&1 || die "debootstrap failed, see $root.log"
	touch "$root/.ready"
	trap - EXIT
fi

mkdir -p "$top/results"
out="$top/results/bench-peers-$(date -u +%Y%m%d-%H%M%S)"
rec="$out.records"
: >"$rec"
{
	printf 'bench\tkernel\t%s\n' "$(uname -r)"
	printf 'bench\tcpu\t%s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) CPUs"
	printf 'bench\txdp_tools\t%s\n' "$(chroot "$root" dpkg-query -W -f='${Version}' xdp-tools)"
	printf 'bench\truns\t%s\n' "$runs"
	printf 'bench\tsecs\t%s\n' "$secs"
	printf 'bench\tmax_foreign\t%s\n' "$max_foreign"
	printf 'bench\tmax_retries\t%s\n' "$max_retries"
} >>"$rec"
# peer-drop: frames XDP_TX'd or redirected back end at the peer's XDP_DROP
# Our generator and receivers run side by side here by design: hold the run
# lock (lib/base/cli.h) for all of them, so they neither wait for each other nor
# run beside another measuring run of the machine
exec 9>>/run/xdp-cost.lock
flock -n 9 || { say "waiting for another measuring run to end"; flock 9; }
export XDP_COST_LOCK_FD=9
# the holder owns the record of runs beside it (lib/base/cli.c)
: >/run/xdp-cost.lock.beside
"$bin/xdp_env" --redirect-pair --peer-drop -- "$0" --inside "$runs" "$secs" "$rec" ||
	die "the runs failed (exit $?); what was recorded: $rec"
rm -f /run/xdp-cost.lock.beside
"$bin/xdp_peers" "$rec" | tee "$out.txt"
"$bin/xdp_peers" --json "$rec" >"$out.json"
echo "$out.json"
