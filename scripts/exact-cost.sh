#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exact-cost.sh [OPTIONS] SET... - boot a kernel under QEMU with -icount
# shift=0,sleep=off (the guest clock counts its instructions) and run the
# exact-cost sweep (scripts/vm-exact.sh) once per SET, all in one boot.
# Results go to OUT as NAME-veth.json, NAME-igb.json (and .txt, the tables).
#
# SET is NAME or "NAME [EXACT_VAR=VALUE...] XDP_SWEEP_OPTIONS" (e.g.
# "b --spin 11", or "k1 EXACT_RXDROP=0 --spin 2": the variables hold for
# that set only; values without spaces).
#
# Options:
#   --kernel IMAGE   bzImage (default build/kbuild/arch/x86/boot/bzImage;
#                    build/kbuild-7.3/... for KERNEL=7.3)
#   --out DIR        where the results go (default build/exact)
#   --timeout SEC    kill a guest that has not finished (default 1800)
#   --funcs          count guest instructions per guest function in each
#                    run's window with the QEMU plugin (plugin/insn_window.c;
#                    TCG runs slower with it, Documentation/exact_cost.rst):
#                    the results get points[].functions and the report each
#                    point's top functions (scripts/exact-funcs.py)
#   --cache          --funcs with the plugin's L1d/L1i model (modelled, not
#                    measured; slower still)
# EXACT_* variables pass on to the guest (see scripts/vm-exact.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
kernel=$kernel_image
out=$(kernel_dir exact)
timeout=1800
funcs=0 cache=0

# shellcheck disable=SC2034  # read by lib/common.sh
die_status=2
. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/vm-nics.sh"

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=${2:?--kernel needs a file}; shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--funcs) funcs=1; shift ;;
	--cache) funcs=1 cache=1; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || die "no SET to run (exact-cost.sh [OPTIONS] NAME|\"NAME OPTIONS\"...)"
[ -f "$kernel" ] || die "no kernel image $kernel"
[ -x "$top/build/bin/xdp_sweep" ] || die "$top/build/bin/xdp_sweep missing (make)"

# The guest's command: one vm-exact.sh per set, EXACT_* passed on
cmd=""
for v in $(compgen -e | grep '^EXACT_' || true); do
	cmd+="$v=$(printf '%q' "${!v}") "
done
cmd="export ${cmd:-EXACT_NONE=}; rc=0"
plugin=()
if [ $funcs -eq 1 ]; then
	so="$top/build/plugin/insn_window.so"
	[ -f "$so" ] || die "$so missing (make plugin)"
	plugin=(--plugin "$so,out=$out/insns.txt,cache=$([ $cache -eq 1 ] && echo on || echo off)")
	# the kernel's symbols once, each window's BPF programs at its end
	cmd+="; echo 1 > /proc/sys/net/core/bpf_jit_kallsyms"
	cmd+="; cat /proc/kallsyms > \$VM_OUT/kallsyms"
	cmd+="; mkdir -p \$VM_OUT/windows; export XDP_COST_WINDOW_DIR=\$VM_OUT/windows"
fi
names=()
pairs=${EXACT_PAIRS:-veth igb igb-paced}
for set in "$@"; do
	read -r name opts <<< "$set"
	case "$name" in ''|*/*|-*) die "set '$set': NAME must be a plain file name stem" ;; esac
	names+=("$name")
	vars=""
	while [[ "$opts" =~ ^(EXACT_[A-Z_]+=[^[:space:]]*)[[:space:]]*(.*)$ ]]; do
		vars+="${BASH_REMATCH[1]} "
		opts=${BASH_REMATCH[2]}
		case "${BASH_REMATCH[1]}" in
		EXACT_PAIRS=*) pairs+=" ${BASH_REMATCH[1]#EXACT_PAIRS=}" ;;
		esac
	done
	cmd+="; ${vars:+env $vars}scripts/vm-exact.sh $name $opts || rc=1"
done
cmd+="; exit \$rc"

# The NIC models the pairs name (MODEL, MODEL-paced; a set's EXACT_PAIRS
# is one word, its pairs joined by commas or one pair): the guest gets a
# pair of each, igb alone where they name none
models=""
for pair in $(echo "$pairs" | tr , ' '); do
	m=${pair%-paced}
	[ "$m" = veth ] && continue
	vm_nic_known "$m" ||
		die "EXACT_PAIRS: '$pair' is not veth, MODEL or MODEL-paced (MODEL one of: $(vm_nic_models))"
	case " $models " in *" $m "*) ;; *) models+=" $m" ;; esac
done
models=${models# }

mkdir -p "$out"
rm -rf "$out/vm" "$out/insns.txt"
start=$(date +%s)
set +e
"$top/scripts/vm-run.sh" --kernel "$kernel" --icount --timeout "$timeout" \
	--nics "${models:-igb}" "${plugin[@]}" --log "$out/console.log" --out "$out/vm" -- bash -c "$cmd" \
	> "$out/vm.log" 2>&1
rc=$?
set -e
for name in "${names[@]}"; do
	cp "$out/vm/$name"-*.json "$out/vm/$name"-*.txt "$out/" 2>/dev/null || true
done
say "$(basename "$kernel") ${names[*]}: $(( $(date +%s) - start )) s, results in $out (console: $out/console.log)"
if [ $rc -ne 0 ]; then
	grep -a 'vm-exact\|vm-run\|failed\|FAILED\|error' "$out/vm.log" | tail -20 >&2
	die "the exact-cost run failed (status $rc)"
fi
[ $funcs -eq 1 ] || exit 0
jsons=()
for name in "${names[@]}"; do
	for j in "$out/$name"-*.json; do
		[ -f "$j" ] && jsons+=("$j")
	done
done
[ ${#jsons[@]} -gt 0 ] || die "no results to fold the per-function counts into"
"$top/scripts/exact-funcs.py" fold --insns "$out/insns.txt" \
	--kallsyms "$out/vm/kallsyms" --windows "$out/vm/windows" "${jsons[@]}" \
	> "$out/functions.txt" || die "folding the per-function counts failed"
cat "$out/functions.txt"
