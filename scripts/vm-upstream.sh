#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-upstream.sh [--model MODEL] UP_TREE NEW_TREE TEST_PROGS - run in the
# test guest (by scripts/upstream-check.sh): upstream's own tests, built on
# the host:
#
#   xdp      UP_TREE's tools/testing/selftests/drivers/net/xdp.py on the
#            pair of NIC model MODEL (default igb; scripts/lib/vm-nics.sh,
#            the guest's $VM_NICS): its first NIC is NETIF, the second is
#            moved into the network namespace "upeer" and is the REMOTE
#            (REMOTE_TYPE=netns), 192.0.2.1/24 and 192.0.2.2/24
#   xdp-new  the same from NEW_TREE (the tree with patches/xdp-py/), the
#            cases that series adds or changes only (its first patch
#            makes the multi-buffer cases skip on a device without rx-sg)
#   xsk      TEST_PROGS -t xsk (selftests/bpf's ns_xsk_skb, ns_xsk_drv,
#            on veth)
#
# An argument "-" leaves that part out.  Each writes its output to the
# console and to $VM_OUT/NAME.tap.  Exits non-zero when a test failed, or
# when the guest has no pair of MODEL.
set -uo pipefail

model=igb
if [ "${1:-}" = --model ]; then
	model=${2:?--model needs a NIC model}
	shift 2
fi
[ $# -eq 3 ] || { echo "usage: vm-upstream.sh [--model MODEL] UP_TREE NEW_TREE TEST_PROGS" >&2; exit 2; }
up=$1 new=$2 test_progs=$3
out=${VM_OUT:-/tmp}
rc=0
ns=upeer

. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/vm-nics.sh"

for t in "$up" "$new"; do
	[ "$t" = - ] && continue
	[ -f "$t/tools/testing/selftests/drivers/net/xdp.py" ] ||
		die "$t/tools/testing/selftests/drivers/net/xdp.py missing"
	[ -f "$t/tools/testing/selftests/net/lib/xdp_native.bpf.o" ] ||
		die "xdp_native.bpf.o not built in $t (scripts/upstream-check.sh builds it)"
done
[ "$test_progs" = - ] || [ -x "$test_progs" ] || die "no test_progs '$test_progs'"
pair=$(vm_nic_pair "$model") ||
	die "no $model pair in this guest (VM_NICS: ${VM_NICS:-none})"
read -r dut peer <<< "$pair"
echo "vm-upstream: kernel $(uname -r), $model: NETIF=$dut, REMOTE $peer in netns $ns"

ip netns add $ns || die "ip netns add $ns failed"
trap 'ip netns del $ns 2>/dev/null' EXIT
ip link set "$peer" netns $ns
ip addr add 192.0.2.1/24 dev "$dut"
ip link set "$dut" up
ip -n $ns addr add 192.0.2.2/24 dev "$peer"
ip -n $ns link set "$peer" up
ip -n $ns link set lo up
# A link comes up a few seconds after "up" under QEMU (igb's)
up() { ip link show dev "$dut" | grep -q 'state UP' &&
	ip -n $ns link show dev "$peer" | grep -q 'state UP'; }
for _ in $(seq 150); do
	up && break
	sleep 0.2
done
up || die "the link of $dut and $peer is not up after 30 s"

xdp_py() {	# NAME TREE ARGS...
	local name=$1 tree=$2
	shift 2
	echo "vm-upstream: $name: $tree: drivers/net/xdp.py $*"
	NETIF=$dut LOCAL_V4=192.0.2.1 REMOTE_V4=192.0.2.2 REMOTE_TYPE=netns \
		REMOTE_ARGS=$ns /usr/bin/python3 \
		"$tree/tools/testing/selftests/drivers/net/xdp.py" "$@" 2>&1 |
		tee "$out/$name.tap"
	[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
}

[ "$up" = - ] || xdp_py xdp "$up"
# The cases patches/xdp-py/ adds, and upstream's multi-buffer ones it
# changes
[ "$new" = - ] || xdp_py xdp-new "$new" -t '*pass_long*' \
	-t '*mtu_change*' -t '*redirect_sb*' -t '*redirect_mb*' \
	-t '*_mb' -t '*adjst*'

ip netns del $ns
trap - EXIT
# The peer comes back to this namespace when its namespace is gone, in the
# background: wait for it, then leave the pair as it was found
for _ in $(seq 100); do
	[ -e "/sys/class/net/$peer" ] && break
	sleep 0.1
done
ip addr flush dev "$dut"

if [ "$test_progs" != - ]; then
	echo "vm-upstream: xsk: test_progs -t xsk"
	(cd "$(dirname "$test_progs")" && ./test_progs -t xsk) 2>&1 |
		tee "$out/xsk.tap"
	[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
fi
exit $rc
