#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-build.sh [TREE [OUT]] - build the test kernel of TREE (default
# kernel/) into OUT (default build/kbuild; for KERNEL=7.3, kernel-7.3/ and
# build/kbuild-7.3: scripts/kernel-pin.sh): x86_64 tinyconfig, plus the
# selftests' config (the tree's tools/testing/selftests/xsk/config, else
# the project's) and the VM's fragment (scripts/vm.config), and the file
# KERNEL_CONFIG_EXTRA names, if any.  Every option asked for must come out
# as asked, or the build stops naming it; an option the tree's Kconfig does
# not define at all (CONFIG_PROC_SYSCTL on 7.3) is named in a note.  When
# fragments ask for one option twice, the last one counts (as in
# merge_config.sh) and a note names the one overridden.
#
# KERNEL_DEBUG=1 merges the tree's kernel/configs/debug.config (KASAN,
# lockdep, kmemleak, UBSAN, DEBUG_NET, refcount trackers, ...) and then
# scripts/debug-vm.config after the fragments above (before
# KERNEL_CONFIG_EXTRA): a debug kernel in its own directory
# (build/kbuild-debug: scripts/kernel-pin.sh).
#
# KERNEL_CONFIG_BASE chooses what the fragments are merged over:
#   tiny    x86_64 tinyconfig (the default): the quick test kernel, built
#           for size (-Os, SLUB_TINY, few mitigations)
#   debian  Debian's own amd64 config of the pinned version (the package
#           linux-config-VERSION: scripts/kernel-config-debian.sh, or the
#           file KERNEL_CONFIG_DEBIAN names), the kernel users run, with
#           every "=m" turned off (no modules), then the fragments and
#           scripts/debian-vm.config (what the VM does not need: ACPI, EFI,
#           graphics, ...), and last Debian's own values of the options the
#           hot paths depend on (scripts/debian-keep.list: -O2, SLUB,
#           preemption, HZ, mitigations, BPF JIT, ...).  Each of those must
#           come out as Debian has it, or the build stops naming it; the
#           table is OUT/debian-keep.txt.  OUT defaults to
#           build/kbuild-debian (scripts/kernel-pin.sh).
#
# The C files the series (baseline..HEAD) touches are compiled again with
# W=1, and any warning there fails the build.  ccache is used when present
# (its own directory, paths relative to the project: incremental builds,
# and builds in another clone of the project, are fast), and the build's
# time stamp, user and host are fixed so that its hits survive.
#
# A config with CONFIG_MODULES=y (from a fragment: the tests' kernels have
# no modules otherwise) also builds its modules and installs them in
# OUT/modules; scripts/vm-run.sh has the guest load the NIC drivers from
# there (scripts/vnet-module.config makes virtio-net a module, as
# distributions build it).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-$(nproc)}

. "$top/scripts/lib/common.sh"

. "$top/scripts/kernel-pin.sh"
base=${KERNEL_CONFIG_BASE:-tiny}	# checked by kernel-pin.sh
tree=$(cd "${1:-$kernel_tree}" && pwd)
out=${2:-$kernel_out}

[ -f "$tree/Makefile" ] || die "$tree is not a kernel tree (make kernel-tree first)"
mkdir -p "$out"
out=$(cd "$out" && pwd)

frag_xsk="$tree/tools/testing/selftests/xsk/config"
[ -f "$frag_xsk" ] || frag_xsk="$top/tools/testing/selftests/xsk/config"
frags=("$frag_xsk" "$top/scripts/vm.config")
[ "$base" = tiny ] || frags+=("$top/scripts/debian-vm.config")
# KERNEL_DEBUG=1: the tree's debug.config (what netdev's CI runs its debug
# kernels with), then what this VM cannot bear of it, named with the reason
if [ "${KERNEL_DEBUG:-0}" = 1 ]; then
	[ -f "$tree/kernel/configs/debug.config" ] ||
		die "KERNEL_DEBUG=1: $tree has no kernel/configs/debug.config"
	frags+=("$tree/kernel/configs/debug.config" "$top/scripts/debug-vm.config")
fi
# KERNEL_CONFIG_EXTRA: one more fragment, last (e.g. scripts/o2.config)
if [ -n "${KERNEL_CONFIG_EXTRA:-}" ]; then
	[ -f "$KERNEL_CONFIG_EXTRA" ] || die "KERNEL_CONFIG_EXTRA: no such file: $KERNEL_CONFIG_EXTRA"
	frags+=("$(cd "$(dirname "$KERNEL_CONFIG_EXTRA")" && pwd)/$(basename "$KERNEL_CONFIG_EXTRA")")
fi
if [ "$base" = debian ]; then
	if [ -n "${KERNEL_CONFIG_DEBIAN:-}" ]; then
		[ -f "$KERNEL_CONFIG_DEBIAN" ] || die "KERNEL_CONFIG_DEBIAN: no such file: $KERNEL_CONFIG_DEBIAN"
		debconf=$(cd "$(dirname "$KERNEL_CONFIG_DEBIAN")" && pwd)/$(basename "$KERNEL_CONFIG_DEBIAN")
	else
		debconf=$("$top/scripts/kernel-config-debian.sh" "$top/build/debian-config") ||
			die "no Debian config (scripts/kernel-config-debian.sh failed)"
	fi
	grep -q '^CONFIG_X86_64=y' "$debconf" || die "$debconf is not an x86_64 kernel config"
	# the options the hot paths depend on, with Debian's values, last
	keep=() drop=()
	while read -r opt _; do
		case "$opt" in ''|'#'*) continue ;; -*) drop+=("${opt#-}"); continue ;; esac
		if [ "${opt%\*}" != "$opt" ]; then
			mapfile -t -O "${#keep[@]}" keep < <(grep -oE "^(# )?${opt%\*}[A-Za-z0-9_]*" "$debconf" |
				 sed 's/^# //' | sort -u)
		else
			keep+=("$opt")
		fi
	done < "$top/scripts/debian-keep.list"
	for opt in "${drop[@]}"; do
		for i in "${!keep[@]}"; do
			[ "${keep[$i]}" != "$opt" ] || unset "keep[$i]"
		done
	done
	keep=("${keep[@]}")
	for opt in "${keep[@]}"; do
		grep -E "^$opt=" "$debconf" || echo "# $opt is not set"
	done > "$out/debian-keep.config"
	frags+=("$out/debian-keep.config")
fi

export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=xdp-cost KBUILD_BUILD_HOST=vm
kmake=(make -s -C "$tree" O="$out" ARCH=x86_64 -j"$jobs")
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache-xdp-cost}
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
	# Paths under the project are hashed relative to it (the kernel's
	# -fmacro-prefix-map keeps them out of the objects): another clone
	# of the project hits the same cache entries
	export CCACHE_BASEDIR=$top
	kmake+=(CC="ccache gcc")
fi

# The config: rebuilt when a fragment or the tree's Kconfig changed
want="$out/.config.want"
{ echo "# base: $base"; [ "$base" = tiny ] || cat "$debconf"; cat "${frags[@]}"; } > "$want.new"
if ! cmp -s "$want.new" "$want" || [ ! -f "$out/.config" ] ||
   [ -n "$(find "$tree" -name 'Kconfig*' -newer "$out/.config" -print -quit)" ]; then
	if [ "$base" = tiny ]; then
		say "config: tinyconfig + ${frags[*]#$top/}"
		"${kmake[@]}" tinyconfig >/dev/null
	else
		say "config: Debian's ${debconf##*/}, no modules, + ${frags[*]#$top/}"
		sed -E 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/' "$debconf" > "$out/.config"
	fi
	KCONFIG_CONFIG="$out/.config" "$tree/scripts/kconfig/merge_config.sh" \
		-m -O "$out" "$out/.config" "${frags[@]}" >"$out/merge.log" 2>&1 ||
		die "merge_config failed, see $out/merge.log"
	"${kmake[@]}" olddefconfig >/dev/null
	bad=0
	# one line per option, the last one asked ("# CONFIG_X is not set"
	# as CONFIG_X=n); a note for each one asked differently before
	sed -nE 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1=n/p; /^CONFIG_[A-Za-z0-9_]+=/p' \
		"${frags[@]}" > "$out/asked.all"
	tac "$out/asked.all" | awk -F= '!seen[$1]++' | tac > "$out/asked"
	awk -F= 'NR == FNR { last[$1] = $0; next }
		 last[$1] != $0 && !noted[$0]++ { print $0 " asked, then " last[$1] }' \
		"$out/asked" "$out/asked.all" |
		sed -E 's/(CONFIG_[A-Za-z0-9_]+)=n( |$)/\1 off\2/g; s/^/kernel-build: note: /' >&2
	while IFS= read -r line; do
		opt=${line%%=*} val=${line#*=}
		got=$(grep -E "^$opt=|^# $opt is not set" "$out/.config" || true)
		if [ "$val" = n ]; then
			case "$got" in
			""|"# $opt is not set") ;;
			*) say "$opt off asked, config has: $got"
			   bad=1 ;;
			esac
			continue
		fi
		case "$got" in
		"$opt=$val") ;;
		"")	# an option the tree's Kconfig does not define (one
			# that a later kernel renamed or folded into another)
			if ! grep -rqE --include='Kconfig*' "^[[:space:]]*(menu)?config ${opt#CONFIG_}\$" "$tree"; then
				say "note: $opt=$val asked, but $(make -s -C "$tree" kernelversion) has no ${opt#CONFIG_}: left out"
			else
				say "$opt=$val asked, config has: nothing"
				bad=1
			fi ;;
		*) say "$opt=$val asked, config has: $got"
		   bad=1 ;;
		esac
	done < "$out/asked"
	[ $bad -eq 0 ] || die "the config does not have what the fragments ask (dependencies missing?)"
	if [ "$base" = debian ]; then
		# the hot paths' options against Debian's own values
		printf '%-44s %-24s %s\n' option Debian "this kernel" > "$out/debian-keep.txt"
		for opt in "${keep[@]}"; do
			d=$(grep -E "^$opt=" "$debconf" || true) d=${d#*=}
			g=$(grep -E "^$opt=" "$out/.config" || true) g=${g#*=}
			printf '%-44s %-24s %s\n' "$opt" "${d:-not set}" "${g:-not set}" >> "$out/debian-keep.txt"
			[ "$d" = "$g" ] || {
				say "$opt: Debian has ${d:-not set}, this config ${g:-not set}"
				bad=1
			}
		done
		[ $bad -eq 0 ] || die "the hot paths' options do not come out as Debian has them (scripts/debian-keep.list)"
		say "${#keep[@]} hot-path options as Debian has them (${out#$top/}/debian-keep.txt)"
	fi
	mv "$want.new" "$want"
fi
rm -f "$want.new"

# A config with modules (a fragment asking for CONFIG_MODULES=y and a
# driver =m) gets them built and installed under OUT/modules, where the
# guest loads them from (scripts/vm-run.sh)
targets=(bzImage)
if grep -q '^CONFIG_MODULES=y' "$out/.config"; then
	command -v depmod >/dev/null || die "the config has modules: depmod missing (make kernel-deps)"
	targets+=(modules)
fi

start=$(date +%s)
say "building $(make -s -C "$tree" kernelversion) in ${out#$top/} (-j$jobs${CCACHE_DIR:+, ccache})"
"${kmake[@]}" "${targets[@]}" 2>"$out/build.log" || {
	tail -30 "$out/build.log" >&2
	die "build failed, see $out/build.log"
}

# W=1 on the files the series touches (none if the tree is not git)
if git -C "$tree" rev-parse -q --verify baseline >/dev/null 2>&1; then
	objs=()
	while IFS= read -r f; do
		case "$f" in tools/*|Documentation/*|scripts/*) continue ;; esac
		[ -f "$tree/$f" ] || continue
		o=${f%.c}.o
		[ -f "$out/$o" ] && objs+=("$o")
	done < <(git -C "$tree" diff --name-only baseline HEAD -- '*.c')
	if [ ${#objs[@]} -gt 0 ]; then
		say "W=1 on ${objs[*]}"
		"${kmake[@]}" W=1 "${objs[@]}" 2>"$out/w1.log" ||
			die "W=1 build failed, see $out/w1.log"
		if grep -q 'warning:' "$out/w1.log"; then
			grep 'warning:' "$out/w1.log" >&2
			die "W=1 warnings in the files the series touches"
		fi
		# back to the normal flags for the image
		"${kmake[@]}" "${targets[@]}" 2>>"$out/build.log"
	fi
fi
rm -rf "$out/modules"
if [ ${#targets[@]} -gt 1 ]; then
	"${kmake[@]}" INSTALL_MOD_PATH="$out/modules" INSTALL_MOD_STRIP=1 \
		modules_install >>"$out/build.log" 2>&1 ||
		die "modules_install failed, see $out/build.log"
	say "modules: $(find "$out/modules" -name '*.ko*' | wc -l) in ${out#$top/}/modules"
fi
say "$out/arch/x86/boot/bzImage ($(( $(date +%s) - start )) s)"
