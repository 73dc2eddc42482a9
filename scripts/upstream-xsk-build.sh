#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# upstream-xsk-build.sh TREE OUT - build selftests/bpf's test_progs of
# the kernel tree TREE with its AF_XDP tests only (prog_tests/xsk.c:
# ns_xsk_skb, ns_xsk_drv, the cases of prog_tests/test_xsk.c), into OUT.
#
# The tree's own Makefile builds test_progs from every prog_tests/*.c and
# every progs/*.c, which needs a newer clang than Debian 12's (14) and a
# vmlinux.h from the kernel's BTF; the AF_XDP tests need neither: their
# one BPF object (progs/xsk_xdp_progs.c) includes UAPI headers only.  So
# this builds what test_progs is made of (test_progs.c and its helpers,
# the tree's libbpf, the skeleton made by bpftool gen skeleton) with a
# tests.h that lists those two tests, as the Makefile's own rule would
# write it for that one file.  TREE must have usr/include
# (make headers_install) and the libbpf that net/lib's build makes.
set -euo pipefail

tree=$(cd "${1:?usage: upstream-xsk-build.sh TREE OUT}" && pwd)
out=${2:?usage: upstream-xsk-build.sh TREE OUT}
. "$(dirname "$0")/lib/common.sh"

bpf=$tree/tools/testing/selftests/bpf
lib=$tree/tools/testing/selftests/net/lib/tools
[ -f "$bpf/prog_tests/xsk.c" ] || die "$bpf/prog_tests/xsk.c missing"
[ -f "$lib/build/libbpf/libbpf.a" ] ||
	die "no libbpf in $lib (make -C tools/testing/selftests/net/lib first)"
[ -f "$tree/usr/include/linux/if_xdp.h" ] ||
	die "no $tree/usr/include (make headers_install first)"
for t in clang gcc bpftool; do
	command -v $t >/dev/null || die "$t missing"
done
mkdir -p "$out/prog_tests"
out=$(cd "$out" && pwd)

# The include orders of the Makefile's BPF_CFLAGS and COMMON_CFLAGS
bpf_inc=(-I"$lib/include" -I"$bpf" -I"$tree/tools/include/uapi"
	 -I"$tree/tools/include" -I"$tree/usr/include")
inc=(-I"$bpf" -I"$lib/include" -I"$out/prog_tests" -I"$tree/tools/lib" -I"$tree/tools/include"
     -I"$tree/tools/arch/x86/include" -I"$tree/tools/include/uapi" -I"$out")
sys_inc=$(clang -v -E - </dev/null 2>&1 |
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')

# shellcheck disable=SC2086 # sys_inc is a list of options
clang -O2 -g --target=bpfel -mcpu=v3 -D__TARGET_ARCH_x86 -std=gnu11 \
	-fno-strict-aliasing -Wno-compare-distinct-pointer-types \
	"${bpf_inc[@]}" $sys_inc \
	-c "$bpf/progs/xsk_xdp_progs.c" -o "$out/xsk_xdp_progs.bpf.o" ||
	die "clang: progs/xsk_xdp_progs.c"
bpftool gen skeleton "$out/xsk_xdp_progs.bpf.o" name xsk_xdp_progs \
	> "$out/xsk_xdp_progs.skel.h" || die "bpftool gen skeleton failed"

# test_progs registers a signing key at start-up (add_key(2), type
# "asymmetric", for the signed-program tests) and stops if the kernel
# cannot take it; the test kernel has no CONFIG_KEYS, and the AF_XDP tests
# do not use the key: no certificate, and syscall() wrapped so that this
# one call, and no other, succeeds without the kernel
printf 'unsigned char test_progs_verification_cert[] = { 0 };\nunsigned int test_progs_verification_cert_len;\n' \
	> "$out/verification_cert.h"
cat > "$out/add_key_shim.c" <<'SHIM'
#include <stdarg.h>
#include <sys/syscall.h>

long __real_syscall(long nr, ...);

long __wrap_syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	int i;

	if (nr == SYS_add_key)
		return 0;
	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
SHIM

# tests.h as the Makefile writes it, for prog_tests/xsk.c alone
sed -n -E 's/^void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\).*/DEFINE_TEST(\2)/p' \
	"$bpf/prog_tests/xsk.c" > "$out/prog_tests/tests.h"
[ -s "$out/prog_tests/tests.h" ] || die "no tests in prog_tests/xsk.c"

srcs=(test_progs.c cgroup_helpers.c trace_helpers.c network_helpers.c
      testing_helpers.c btf_helpers.c cap_helpers.c unpriv_helpers.c
      netlink_helpers.c jit_disasm_helpers.c io_helpers.c xsk.c
      json_writer.c prog_tests/xsk.c prog_tests/test_xsk.c)
gcc -g -O2 -Wall -Wno-unused -D_GNU_SOURCE "${inc[@]}" \
	"${srcs[@]/#/$bpf/}" "$tree/tools/lib/find_bit.c" "$out/add_key_shim.c" \
	-Wl,--wrap=syscall \
	"$lib/build/libbpf/libbpf.a" -lelf -lz -lrt -lpthread \
	-o "$out/test_progs" 2>"$out/build.log" || {
	grep -E 'error|undefined' "$out/build.log" | head -30 >&2
	die "gcc failed, see $out/build.log"
}
echo "upstream-xsk-build: $out/test_progs ($(cat "$out/prog_tests/tests.h" | tr '\n' ' '))"
