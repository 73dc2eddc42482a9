#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# upstream-nobtf-tree.sh SRC DST - make DST, a copy of what xdp.py needs
# from the built selftests tree SRC (drivers/net, net/lib, the YNL library
# and its specs), with xdp_native.bpf.o built again without kernel BTF:
# the one extern of xdp_native.bpf.c, the kfunc bpf_xdp_pull_data(), is
# made a function that pulls nothing and returns 0.
#
# For a kernel without CONFIG_DEBUG_INFO_BTF (the project's test kernel):
# libbpf then has no kfunc to resolve.  The program pulls the headers into
# the linear part only so that it can read them when a driver puts them in
# a fragment (header split); a driver that keeps them in the first buffer,
# as igb does, runs the same program paths.  A deviation from upstream's
# test, stated wherever its results are.
set -euo pipefail

src=$(cd "${1:?usage: upstream-nobtf-tree.sh SRC DST}" && pwd)
dst=${2:?usage: upstream-nobtf-tree.sh SRC DST}
. "$(dirname "$0")/lib/common.sh"

lib=tools/testing/selftests/net/lib
[ -f "$src/$lib/xdp_native.bpf.o" ] || die "$src: net/lib is not built"
rm -rf "$dst"
for d in tools/testing/selftests/drivers/net tools/testing/selftests/net/lib \
	 tools/net/ynl Documentation/netlink/specs; do
	mkdir -p "$dst/$(dirname "$d")"
	cp -a "$src/$d" "$dst/$d"
done
cp -a "$src"/tools/testing/selftests/kselftest* "$dst/tools/testing/selftests/" 2>/dev/null || true

decl='extern int bpf_xdp_pull_data(struct xdp_md *xdp, __u32 len) __ksym __weak;'
grep -qF "$decl" "$src/$lib/xdp_native.bpf.c" ||
	die "xdp_native.bpf.c has no '$decl'"
sed "s|^extern int bpf_xdp_pull_data(struct xdp_md \*xdp, __u32 len) __ksym __weak;|static __always_inline int bpf_xdp_pull_data(struct xdp_md *xdp, __u32 len) { return 0; }|" \
	"$src/$lib/xdp_native.bpf.c" > "$dst/$lib/xdp_native.bpf.c"
sys_inc=$(clang -v -E - </dev/null 2>&1 |
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')
# bpf.mk's rule, from SRC's headers
# shellcheck disable=SC2086 # sys_inc is a list of options
clang -O2 -g --target=bpf -I"$src/tools/testing/selftests/bpf" \
	-I"$src/usr/include" -I"$src/$lib/tools/include" $sys_inc \
	-c "$dst/$lib/xdp_native.bpf.c" -o "$dst/$lib/xdp_native.bpf.o" ||
	die "clang: xdp_native.bpf.c"
if llvm-objdump -t "$dst/$lib/xdp_native.bpf.o" 2>/dev/null | grep -q 'bpf_xdp_pull_data'; then
	die "xdp_native.bpf.o still refers to bpf_xdp_pull_data"
fi
echo "upstream-nobtf-tree: $dst (xdp_native.bpf.o without the kfunc)"
