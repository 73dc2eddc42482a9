#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# release-ab.sh [OPTIONS] - what a kernel release cost XDP: the exact A/B
# (scripts/kernel-ab.sh) of two pinned upstream kernels, neither with the
# series: A and B are the work trees of two pins (kernel/ and kernel-7.3/,
# scripts/kernel-pin.sh) at their tag baseline, the Debian source as
# packaged.  Each tree is made when missing (scripts/kernel-tree.sh: the
# project's private apt source), checked out at the tag for its build and
# back after (it must have no uncommitted changes), and built with the same
# fragments by scripts/kernel-build.sh under its own pin (an option a tree
# does not define is named in a note there; with KERNEL_CONFIG_BASE=debian
# each version from its own Debian config, as users run it).  Then both
# boot under QEMU -icount and the report is kernel-ab.sh's: per path, B's
# guest instructions per packet against A's, and with --funcs the
# functions that moved.
#
# Options (make release-ab A=7.2 B=7.3 FUNCS=1 ...):
#   --a VERSION      A's pin: KERNEL=VERSION of scripts/kernel-pin.sh
#                    (default: the default pin's version, 7.2)
#   --b VERSION      B's pin (default 7.3)
#   --out DIR        results and the report (default
#                    build/release-ab-A-B, with -debian for the Debian config)
#   --tolerance PCT, --funcs, --cache, --parallel, --timeout SEC
#                    kernel-ab.sh's (the guest's limit here 3600 s unless
#                    given: five pairs)
#   --build-only     build both kernels, print their images, boot nothing
# EXACT_* variables choose the matrix (scripts/vm-exact.sh); the default
# here is every pair the VM has: EXACT_PAIRS="veth igb igb-paced
# virtio-net-paced vmxnet3-paced".  KERNEL and KERNEL_PIN_FILE are not
# read: the pins are --a and --b.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib/common.sh"
die_status=2	# bad usage, until the options are taken

def=$(. "$top/KERNEL_PIN" && echo "${KERNEL_PKG#linux-source-}")
va=$def vb=7.3 out="" build_only=0 kab=() timeout=(--timeout 3600)
while [ $# -gt 0 ]; do
	case "$1" in
	--a) va=${2:?--a needs a version}; shift 2 ;;
	--b) vb=${2:?--b needs a version}; shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--tolerance) want_decimal "${2:-}" "--tolerance '${2:-}' is not a percentage"
		     kab+=("$1" "$2"); shift 2 ;;
	--timeout) want_whole "${2:-}" "--timeout '${2:-}' is not a number of seconds"
		   [ "$2" -gt 0 ] || die "--timeout '$2' is not a number of seconds"
		   timeout=("$1" "$2"); shift 2 ;;
	--funcs|--cache|--parallel) kab+=("$1"); shift ;;
	--build-only) build_only=1; shift ;;
	-h|--help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
[ "$va" != "$vb" ] || die "--a and --b are both $va: nothing to compare"

# VERSION: the pin's work tree, its baseline build directory, its package,
# the build directories' suffix (KERNEL_CONFIG_BASE, KERNEL_DEBUG)
pin_of() {
	env -u KERNEL_PIN_FILE KERNEL="$1" bash -c '
		top=$1
		. "$top/scripts/kernel-pin.sh" || exit 1
		echo "$kernel_tree"
		kernel_dir kbuild-base
		echo "$KERNEL_PKG $KERNEL_PKG_VERSION"
		echo "$kernel_bsfx"' sh "$top"
}

# VERSION TREE OUT: the tree made if missing, built at its tag baseline
build_at_baseline() {
	if [ ! -d "$2/.git" ]; then
		say "$1: no work tree $2: making it (scripts/kernel-tree.sh)"
		env -u KERNEL_PIN_FILE KERNEL="$1" "$top/scripts/kernel-tree.sh" ||
			die "making the work tree of $1 failed"
	fi
	at_baseline "$2" env -u KERNEL_PIN_FILE KERNEL="$1" JOBS="${JOBS:-$(nproc)}" \
		"$top/scripts/kernel-build.sh" "$2" "$3" ||
		die "building $1 ($2 at baseline) failed"
}

mapfile -t pa < <(pin_of "$va")
mapfile -t pb < <(pin_of "$vb")
[ ${#pa[@]} -ge 3 ] || die "--a $va: no pin of that version"
[ ${#pb[@]} -ge 3 ] || die "--b $vb: no pin of that version"
die_status=1
sfx=${pa[3]:-}
out=${out:-$top/build/release-ab-$va-$vb$sfx}

start=$(date +%s)
build_at_baseline "$va" "${pa[0]}" "${pa[1]}"
build_at_baseline "$vb" "${pb[0]}" "${pb[1]}"
img_a=${pa[1]}/arch/x86/boot/bzImage img_b=${pb[1]}/arch/x86/boot/bzImage
say "A $va: $img_a ($(cat "${pa[1]}/include/config/kernel.release"))"
say "B $vb: $img_b ($(cat "${pb[1]}/include/config/kernel.release"))"
say "builds $(( $(date +%s) - start )) s"
[ "$build_only" = 0 ] || exit 0

mkdir -p "$out"
{
	echo "Release A/B: B = ${pb[2]} against A = ${pa[2]}, both as packaged"
	echo "(work trees at their tag baseline, no series), config base ${KERNEL_CONFIG_BASE:-tiny}${sfx:+ ($sfx)}"
	echo
} > "$out/release.txt"
cat "$out/release.txt"
EXACT_PAIRS=${EXACT_PAIRS:-veth igb igb-paced virtio-net-paced vmxnet3-paced} \
	"$top/scripts/kernel-ab.sh" --base-image "$img_a" --series-image "$img_b" \
	--title "B ($vb, ${pb[0]#"$top"/} at baseline) against A ($va, ${pa[0]#"$top"/} at baseline)" \
	--out "$out" "${timeout[@]}" "${kab[@]}"
cat "$out/release.txt" "$out/report.txt" > "$out/release-report.txt"
say "report: $out/release-report.txt"
