#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh [OPTIONS] -- COMMAND... - boot the test kernel under QEMU and run
# COMMAND in the guest, as root, in the project's directory; exit with its
# status.
#
# The guest's root is this machine's root, shared read-only over virtio-9p
# (as virtme-ng does); /tmp, /run and /var/tmp are tmpfs in the guest, and
# build/vm/out is shared read-write (the guest sees it as $VM_OUT).  Each
# NIC model of --nics gets a pair: two NICs, each behind its own
# pcie-root-port, on a QEMU hub of the pair's own, so what one sends the
# other receives (the models and their QEMU options: scripts/lib/vm-nics.sh).
# A kernel with modules gets its NIC drivers loaded from the modules its
# build installed (OUT/modules, OUT being where its bzImage was built).
# The guest finds each pair by its driver: $VM_NICS lists them,
# "MODEL:DUT,PEER ..." in the order of --nics, and $VM_IGB is igb's
# ("dut peer").  QEMU runs under TCG here (no KVM).  tinyconfig has no ACPI:
# the guest leaves with reboot(2), and QEMU's -no-reboot turns that into an
# exit.
#
# Options:
#   --kernel IMAGE    bzImage (default build/kbuild/arch/x86/boot/bzImage;
#                     build/kbuild-7.3/... for KERNEL=7.3, and build/vm-7.3
#                     for the two below)
#   --timeout SEC     kill a guest that has not finished (default 900)
#   --icount          -icount shift=0,sleep=off: the guest clock advances
#                     one ns per guest instruction
#   --nics "MODEL..."  the NIC pairs, by model: igb, virtio-net, vmxnet3
#                     (default igb)
#   --smp N           guest CPUs (default 1: without ACPI the guest finds
#                     its CPUs in the MP table, which lists one here)
#   --log FILE        the guest's console (default build/vm/console.log)
#   --plugin SPEC     load a TCG plugin: -plugin SPEC (FILE.so,ARG=VALUE,...;
#                     scripts/exact-cost.sh --funcs uses plugin/insn_window.c)
#   --out DIR         the directory shared read-write, $VM_OUT in the guest
#                     (default build/vm/out, emptied first; DIR must be new
#                     or empty)
#
# XSK_TIME_SCALE in the environment is the guest's too (the xsk suite's
# deadlines and timeouts are multiplied by it); unset, vm-init.sh sets 4
# on a debug kernel (one with lockdep: KERNEL_DEBUG=1's).  A kernel built
# with KASAN boots with no5lvl (4-level paging; the reason below).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
kernel=$kernel_image
timeout=900
icount=0
smp=1
plugin=()
nics=igb
log=$(kernel_dir vm)/console.log
out=$(kernel_dir vm)/out

# shellcheck disable=SC2034  # read by lib/common.sh
die_status=2
. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/vm-nics.sh"

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=${2:?--kernel needs a file}; shift 2 ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--icount) icount=1; shift ;;
	--nics) nics=${2?--nics needs a list of NIC models}; shift 2 ;;
	--smp) smp=${2:?--smp needs a count}; shift 2 ;;
	--plugin) plugin=(-plugin "${2:?--plugin needs FILE.so[,ARGS]}"); shift 2 ;;
	--log) log=${2:?--log needs a file}; shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
[ $# -gt 0 ] || die "no command to run in the guest (vm-run.sh [OPTIONS] -- COMMAND...)"
want_whole "$timeout" "--timeout '$timeout' is not a number of seconds"
case "$smp" in ''|*[!0-9]*|0) die "--smp '$smp' is not a CPU count" ;; esac
why=$(vm_nic_list_error "$nics") || die "$why"
read -r -a models <<< "$nics"
[ ${#models[@]} -le 4 ] || die "--nics: ${#models[@]} models, at most 4"
[ -f "$kernel" ] || die "no kernel image $kernel (make kernel)"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (make kernel-deps)"

if [ "$out" = "$(kernel_dir vm)/out" ]; then
	rm -rf "$out"
elif [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	die "--out $out is not empty"
fi
mkdir -p "$out" "$(dirname "$log")"
out=$(cd "$out" && pwd)
# The command, quoted for the guest's shell; XSK_TIME_SCALE goes with it
# (the xsk suite's deadlines and timeouts, times it)
: > "$out/cmd"
[ -z "${XSK_TIME_SCALE+set}" ] ||
	printf 'export XSK_TIME_SCALE=%q\n' "$XSK_TIME_SCALE" >> "$out/cmd"
printf '%q ' "$@" >> "$out/cmd"
echo >> "$out/cmd"

accel=(-accel tcg,thread=multi)
[ $icount -eq 1 ] && accel=(-accel tcg -icount shift=0,sleep=off)

# Pair p (0, 1, ...): NICs 2p+1 and 2p+2 on hub p
net=()
i=0
for p in "${!models[@]}"; do
	dev=$(vm_nic_device "${models[$p]}")
	for j in 1 2; do
		i=$((i + 1))
		net+=(-device "pcie-root-port,id=rp$i,bus=pcie.0,chassis=$i,slot=$i"
		      -netdev "hubport,id=hp$i,hubid=$p"
		      -device "$dev,bus=rp$i,netdev=hp$i,mac=52:54:00:12:3$((4 + p)):0$j")
	done
done

append="console=ttyS0 quiet panic=-1 oops=panic root=hostroot rootfstype=9p"
append+=" rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro"
append+=" init=$top/scripts/vm-init.sh vm_top=$top"
append+=" vm_nics=$(IFS=,; echo "${models[*]}")"
# A kernel built with modules (scripts/kernel-build.sh installs them next
# to its image, in OUT/modules): the guest loads the NIC drivers from there
kdir=$(cd "$(dirname "$kernel")" && pwd)
kdir=${kdir%/arch/x86/boot}
[ -d "$kdir/modules/lib/modules" ] && append+=" vm_modules=$kdir/modules"
# A KASAN kernel (KERNEL_DEBUG=1's) boots with 4-level paging: under 5-level
# paging (-cpu max has LA57) an interrupt while identify_cpu() rereads the
# boot CPU's features made KASAN take a direct-map address for a wild one
# (BUG: KASAN: wild-memory-access in do_raw_spin_lock, from handle_edge_irq,
# at 3 s of the boot; once in this project's debug boots, 2026-12-07; the
# same splat on 7.1-rc5 in "kasan: Fix false-positive wild-memory-access
# on x86 under 5-level paging", linux-kernel, 2026-06)
grep -qx CONFIG_KASAN=y "$kdir/.config" 2>/dev/null && append+=" no5lvl"

set +e
# --foreground: QEMU stays in this script's process group, where a signal
# to the group (a terminal's ^C, vm-check.sh's stop) reaches it
timeout --foreground --kill-after=10 "$timeout" qemu-system-x86_64 \
	-machine q35 "${accel[@]}" -cpu max -smp "$smp" -m 2G \
	-nographic -no-reboot -nodefaults -serial stdio \
	-kernel "$kernel" -append "$append" \
	-fsdev local,id=root,path=/,security_model=none,readonly=on \
	-device virtio-9p-pci,fsdev=root,mount_tag=hostroot \
	-fsdev local,id=out,path="$out",security_model=none \
	-device virtio-9p-pci,fsdev=out,mount_tag=vmout \
	"${net[@]}" "${plugin[@]}" </dev/null 2>&1 | tee "$log"
qrc=${PIPESTATUS[0]}
set -e

[ $qrc -eq 124 ] || [ $qrc -eq 137 ] &&
	{ tail -20 "$log" >&2; die "the guest did not finish in $timeout s (killed; console in $log)"; }
[ $qrc -eq 0 ] || { tail -20 "$log" >&2; die "qemu failed (exit $qrc; console in $log)"; }
[ -f "$out/status" ] || {
	tail -30 "$log" >&2
	die "the guest stopped without a status (kernel panic or init failure; console in $log)"
}
exit "$(cat "$out/status")"
