#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# upstream-check.sh [--no-build] [--no-btf] [--nics "MODEL..."] [--no-suite]
# - upstream's own tests as the judge of the
# series: the baseline kernel (kernel/ at its tag) and the series kernel
# (kernel/ as it is), each built as the test kernel plus kernel BTF
# (scripts/upstream.config), each booted under QEMU with the two NICs of
# each model of --nics (default igb; scripts/lib/vm-nics.sh), one boot per
# model and kernel
# (--icount), running scripts/vm-upstream.sh:
#   - tools/testing/selftests/drivers/net/xdp.py of the pinned tree,
#     unchanged, on the model's pair (the peer in a network namespace);
#   - the cases patches/xdp-py/ adds to it (scripts/xdp-py-check.sh makes
#     that tree: git am on the baseline, checkpatch, build);
#   - selftests/bpf's test_progs -t xsk (ns_xsk_skb, ns_xsk_drv on veth),
#     built with its AF_XDP tests only (scripts/upstream-xsk-build.sh), in
#     the first model's boots only (it runs on veth);
# and, on the series kernel, the project's suite (scripts/vm-selftests.sh,
# on every model of --nics) for the coverage table.  Prints one line per case and kernel, and writes
# them to build/upstream/report.txt; the TAP of each part is under
# build/upstream/vm-{base,series}/.  Exits non-zero if a part could not
# run; the pass/fail of the cases is the report (the baseline is meant to
# fail the multi-buffer cases).
#
# --nics "MODEL..."  the NIC models, each booted on its own (make
#             upstream-check NICS=...); an unknown model is refused first
# --no-suite  leave out the boot of the project's suite
# --no-build  use the kernels and test builds there already
# --no-btf    the test kernels as they are, without BTF (ccache makes them
#             quick; the baseline is built in kernel/ at its tag, as
#             kernel-ab.sh does), and xdp.py's program built without its
#             kfunc (scripts/upstream-nobtf-tree.sh: a stated deviation)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-pin.sh"
out=$(kernel_dir upstream)
kernel=$kernel_tree
build=1
btf=1
suite=1
nics=igb

. "$top/scripts/lib/common.sh"

while [ $# -gt 0 ]; do
	case "$1" in
	--no-build) build=0; shift ;;
	--no-btf) btf=0; shift ;;
	--no-suite) suite=0; shift ;;
	--nics)
		[ $# -ge 2 ] || die "--nics needs a list of NIC models"
		nics=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
. "$top/scripts/lib/vm-nics.sh"
why=$(vm_nic_list_error "$nics") || die "$why"
read -r -a models <<< "$nics"
git -C "$kernel" rev-parse -q --verify baseline >/dev/null ||
	die "kernel/ has no tag baseline (make kernel-tree)"
# What upstream's tests and their builds need beyond make kernel-deps:
# pahole (kernel BTF), clang (BPF objects), socat, ethtool, bpftool (xdp.py
# and its lib), rsync (headers_install), python3-yaml (the YNL library)
"$top/scripts/kernel-deps.sh"
pkgs=(dwarves clang llvm socat ethtool bpftool iproute2 rsync python3-yaml
      libelf-dev zlib1g-dev)
apt_install_missing "${pkgs[@]}"

start=$(date +%s)
mkdir -p "$out"

# A work tree of kernel/ at the baseline, made once
tree_at_baseline() {	# DIR
	[ -f "$1/Makefile" ] && return 0
	git -C "$kernel" worktree prune
	git -C "$kernel" worktree add -q --detach "$1" baseline
}

# The baseline of kernel/, built in kernel/ itself (ccache hits the objects
# of earlier builds: they are keyed by the path under the project)
build_tag() {	# OUT
	at_baseline "$kernel" "$top/scripts/kernel-build.sh" "$kernel" "$1"
}

if [ $build -eq 1 ]; then
	if [ $btf -eq 1 ]; then
		export KERNEL_CONFIG_EXTRA=$top/scripts/upstream.config
		tree_at_baseline "$out/src-base"
		"$top/scripts/kernel-build.sh" "$out/src-base" "$out/kbuild-base"
		unset KERNEL_CONFIG_EXTRA
	else
		"$top/scripts/kernel-build.sh" "$kernel" "$(kernel_dir kbuild-up-series)"
		build_tag "$(kernel_dir kbuild-up-base)"
	fi
	[ $btf -eq 0 ] || KERNEL_CONFIG_EXTRA=$top/scripts/upstream.config \
		"$top/scripts/kernel-build.sh" "$kernel" "$out/kbuild-series"

	# The pristine selftests (xdp.py, net/lib, selftests/bpf)
	tree_at_baseline "$out/ksft-up"
	make -s -C "$out/ksft-up" headers_install >"$out/ksft-up.log" 2>&1 ||
		die "headers_install failed, see $out/ksft-up.log"
	make -s -C "$out/ksft-up/tools/testing/selftests/net/lib" \
		OUTPUT="$out/ksft-up/tools/testing/selftests/net/lib" >>"$out/ksft-up.log" 2>&1 ||
		die "make -C tools/testing/selftests/net/lib failed, see $out/ksft-up.log"
	"$top/scripts/upstream-xsk-build.sh" "$out/ksft-up" "$out/xsk"
	# The tree with patches/xdp-py/
	"$top/scripts/xdp-py-check.sh"
	if [ $btf -eq 0 ]; then
		"$top/scripts/upstream-nobtf-tree.sh" "$out/ksft-up" "$out/nobtf-up"
		"$top/scripts/upstream-nobtf-tree.sh" "$out/ksft-new" "$out/nobtf-new"
	fi
	make -s -C "$top" selftests
fi
built=$(date +%s)

img_base=$out/kbuild-base/arch/x86/boot/bzImage
img_series=$out/kbuild-series/arch/x86/boot/bzImage
# Without BTF, the build directories at the depth of the project's others
# (build/kbuild*), so that ccache's relative paths are theirs
if [ $btf -eq 0 ]; then
	img_base=$(kernel_dir kbuild-up-base)/arch/x86/boot/bzImage
	img_series=$(kernel_dir kbuild-up-series)/arch/x86/boot/bzImage
fi
t_up=$out/ksft-up t_new=$out/ksft-new
[ $btf -eq 1 ] || t_up=$out/nobtf-up t_new=$out/nobtf-new
for f in "$img_base" "$img_series" "$out/xsk/test_progs" \
	 "$t_new/tools/testing/selftests/net/lib/xdp_native.bpf.o"; do
	[ -e "$f" ] || die "$f missing (run without --no-build)"
done

# Per model, both kernels' boots at once (each guest has one vCPU)
boot() {	# NAME IMAGE MODELS COMMAND
	local name=$1 img=$2 nics=$3
	shift 3
	rm -rf "$out/vm-$name"
	mkdir -p "$out/vm-$name"
	"$top/scripts/vm-run.sh" --icount --timeout 3000 --kernel "$img" \
		--nics "$nics" --out "$out/vm-$name" --log "$out/console-$name.log" \
		-- bash -c "$*" >/dev/null 2>&1
	echo $? > "$out/vm-$name.rc"
}
xsk=$out/xsk/test_progs
for m in "${models[@]}"; do
	up="scripts/vm-upstream.sh --model $m $t_up $t_new $xsk"
	boot "$m-base" "$img_base" "$m" "$up" &
	boot "$m-series" "$img_series" "$m" "$up" &
	wait
	xsk=-		# test_progs -t xsk runs on veth: once
done
# The project's suite in a boot of its own (after xdp.py's namespace games
# and under load, in the same boot it lost its interfaces)
[ $suite -eq 0 ] || boot suite "$img_series" "$nics" scripts/vm-selftests.sh

# The report: one line per case, both kernels
report=$out/report.txt
{
	echo "upstream-check: $(git -C "$kernel" describe --tags --always baseline 2>/dev/null || echo baseline) against the series (kernel/ $(git -C "$kernel" rev-parse --short HEAD)),"
	if [ $btf -eq 1 ]; then
		echo "test kernels tinyconfig + xsk config + scripts/vm.config + scripts/upstream.config (BTF),"
	else
		echo "test kernels tinyconfig + xsk config + scripts/vm.config, no BTF: xdp_native.bpf.o"
		echo "without its kfunc bpf_xdp_pull_data() (scripts/upstream-nobtf-tree.sh),"
	fi
	echo "QEMU TCG --icount, the two NICs of one model on one hub: ${models[*]}"
	for m in "${models[@]}"; do
		for part in xdp xdp-new xsk; do
			[ -f "$out/vm-$m-base/$part.tap" ] ||
				[ -f "$out/vm-$m-series/$part.tap" ] || continue
			echo
			echo "== $part, $m =="
			python3 "$top/scripts/upstream-report.py" \
				"$out/vm-$m-base/$part.tap" "$out/vm-$m-series/$part.tap"
		done
	done
	if [ $suite -eq 1 ]; then
		echo
		echo "== the project's suite on the series kernel (scripts/vm-selftests.sh) =="
		for t in veth "${models[@]}"; do
			f=$out/vm-suite/$t.tap
			[ -f "$f" ] || { echo "  $t: not run"; continue; }
			echo "  $t: $(grep -c '^ok' "$f") ok ($(grep -c '^ok .*# SKIP' "$f") of them skips), $(grep -c '^not ok' "$f") not ok"
		done
	fi
	echo
	echo "upstream-check: builds $((built - start)) s, boots $(( $(date +%s) - built )) s (per model baseline and series at once)"
} | tee "$report"

xsk=1
for m in "${models[@]}"; do
	for name in "$m-base" "$m-series"; do
		for part in xdp xdp-new $([ $xsk -eq 1 ] && echo xsk); do
			[ -f "$out/vm-$name/$part.tap" ] ||
				die "$name: $part did not run (console in $out/console-$name.log)"
		done
	done
	xsk=0
done
