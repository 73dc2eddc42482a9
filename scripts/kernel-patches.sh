#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-patches.sh - regenerate patches/ from kernel/:
#
#   1. the kernel work: every commit of kernel/ after the `baseline` tag,
#      except the ones this script generates (recognised by subject);
#   2. generated from the project's own files, so that the series alone adds
#      them to a kernel tree: the selftests (tools/testing/selftests/xsk/,
#      its TARGETS line, a MAINTAINERS entry) and the kernel documentation
#      (Documentation/networking/xsk_selftests.rst and its index entry);
#
# kernel/ is rebuilt as baseline + (1) + (2), then written out with
# `git format-patch --cover-letter --base=baseline --zero-commit`.  The cover
# letter takes its subject and text from patches/cover-letter.in and is
# saved as 0000-cover-letter.txt (not .patch: `git am patches/*.patch`
# would stop at a patch without a diff).  Then the series is checked
# (scripts/kernel-series-check.sh, without the bisect build).
set -Eeuo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree="$top/kernel"
out="$top/patches"

die() { echo "kernel-patches: $*" >&2; exit 1; }
k() { git -C "$tree" "$@"; }

[ -d "$tree/.git" ] && k rev-parse -q --verify baseline >/dev/null ||
	die "no kernel/ work tree: run \`make kernel-tree\` first"
[ -z "$(k status --porcelain --untracked-files=no)" ] ||
	die "kernel/ has uncommitted changes: commit them (they are the series) or stash them"
[ -f "$out/cover-letter.in" ] || die "patches/cover-letter.in is missing (subject and text of the cover letter)"

name=$(git -C "$top" config user.name) || die "set git user.name in the project"
email=$(git -C "$top" config user.email) || die "set git user.email in the project"
sob="Signed-off-by: $name <$email>"

subj_selftests="selftests: xsk: add an AF_XDP core and kselftest suite"
subj_docs="Documentation: networking: describe the AF_XDP selftests"
doc=Documentation/networking/xsk_selftests.rst

# Generated commits carry the date of the project's last commit of their
# files, so that regenerating an unchanged series changes nothing
gen_date() {
	local d
	d=$(git -C "$top" log -1 --format=%aI -- "$@")
	echo "${d:-2026-01-01T00:00:00Z}"
}

commit_generated() {	# SUBJECT DATE BODY-FILE PATHS...
	local subj=$1 date=$2 body=$3
	shift 3
	k add -f -- "$@"
	if k diff --cached --quiet; then
		return 0
	fi
	GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		k commit -q -F - <<-EOF
	$subj

	$(cat "$body")

	$sob
	EOF
}

orig=$(k rev-parse HEAD)
branch=$(k symbolic-ref --short -q HEAD || echo master)
mapfile -t work < <(k log --reverse --format='%H %s' baseline..HEAD |
		    grep -v -F -e " $subj_selftests" -e " $subj_docs" |
		    cut -d' ' -f1)

restore() {
	echo "kernel-patches: failed; kernel/ is back at $orig" >&2
	k cherry-pick --abort >/dev/null 2>&1 || true
	k checkout -q -f "$orig" && k checkout -q -B "$branch" "$orig"
}
trap restore ERR

k checkout -q --detach baseline
for c in "${work[@]}"; do
	# same author, date and parent as before: the same commit again
	GIT_COMMITTER_DATE=$(k log -1 --format=%cI "$c") \
	GIT_COMMITTER_NAME=$(k log -1 --format=%cn "$c") \
	GIT_COMMITTER_EMAIL=$(k log -1 --format=%ce "$c") \
		k cherry-pick --allow-empty "$c" >/dev/null
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 2a. the selftests
sdir=tools/testing/selftests/xsk
rm -rf "${tree:?}/$sdir"
mkdir -p "$tree/$sdir"
git -C "$top" ls-files -z -- "$sdir" | (cd "$top" && xargs -0 cp --parents -t "$tree")
mk="$tree/tools/testing/selftests/Makefile"
grep -q '^TARGETS += xsk$' "$mk" ||
	sed -i 's|^TARGETS += x86/bugs$|&\nTARGETS += xsk|' "$mk"
grep -q '^TARGETS += xsk$' "$mk" || die "no place for TARGETS += xsk in $mk"
maint="$tree/MAINTAINERS"
add_maint() {	# F:-line to add after an anchor line of the XDP SOCKETS entry
	grep -q -x -F "F:	$1" "$maint" && return 0
	sed -i "s|^F:	$2\$|&\nF:	$1|" "$maint"
	grep -q -x -F "F:	$1" "$maint" || die "no place for $1 in MAINTAINERS"
}
add_maint "$sdir/" "tools/testing/selftests/bpf/\*xsk\*"
cat > "$tmp/selftests" <<'EOF'
Add tools/testing/selftests/xsk, a kselftest suite for AF_XDP that runs on
a veth pair in network namespaces of its own, and the AF_XDP core it is
built on (UMEM, the four rings, binding in each XDP mode with fallback,
the XDP program that steers a queue to its socket).

The tests check what applications rely on, exactly: packet counts, payload
bytes, XDP_STATISTICS, errno values and the wakeup flags, in native copy,
generic and (where the driver has it) zero-copy mode, aligned and
unaligned chunks, need_wakeup on and off, several queues, and multi-buffer
frames with XDP_USE_SG (a 9014-byte frame is three descriptors, the first
two with XDP_PKT_CONTD).  A test that needs a feature the device lacks is
skipped and says why (veth has no zero-copy).  Each test makes its own
namespaces and removes them, also when killed.

The mb tests cover XDP multi-buffer at MTU 9000 on veth and on a NIC pair
(XSK_DEVS="DUT PEER"): 100000 frames each dropped, aborted and sent back
with XDP_TX with their memory returned,
XDP_PASS, XDP_TX and XDP_REDIRECT (out of the other interface and into a
veth) byte for byte, bpf_xdp_get_buff_len(), load/store_bytes and
adjust_tail across fragments, and the MTU and program rules with their
errno values and extack messages.

The programs are built with clang and bpftool from the system, and linked
with the system's libbpf, like samples built outside the tree.

Run with:
  make -C tools/testing/selftests TARGETS=xsk run_tests
EOF
commit_generated "$subj_selftests" "$(gen_date "$sdir")" "$tmp/selftests" \
	"$sdir" tools/testing/selftests/Makefile MAINTAINERS

# 2b. the kernel documentation
cp "$top/$doc" "$tree/$doc"
idx="$tree/Documentation/networking/index.rst"
grep -q '^   xsk_selftests$' "$idx" ||
	sed -i 's|^   af_xdp$|&\n   xsk_selftests|' "$idx"
grep -q '^   xsk_selftests$' "$idx" || die "no place for xsk_selftests in $idx"
add_maint "$doc" "Documentation/networking/af_xdp.rst"
cat > "$tmp/docs" <<'EOF'
Describe tools/testing/selftests/xsk: what it needs (config, tools), how
to run it on veth and on a real driver, what each group of tests asserts,
and how a driver developer adds a device to it.
EOF
commit_generated "$subj_docs" "$(gen_date "$doc")" "$tmp/docs" \
	"$doc" Documentation/networking/index.rst MAINTAINERS

trap - ERR
k checkout -q -B "$branch"

# 3. the series
n=$(k rev-list --count baseline..HEAD)
mkdir -p "$tmp/p"
k format-patch -q --zero-commit --cover-letter --base=baseline \
	-o "$tmp/p" baseline..HEAD
cover=("$tmp"/p/0000-cover-letter.patch)
subject=$(sed -n '1p' "$out/cover-letter.in")
last=$(ls "$tmp"/p/*.patch | tail -1)
python3 - "${cover[0]}" "$out/cover-letter.in" "$last" <<'EOF'
import re, sys
cover, src, last = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(src).read().split('\n')
subject, body = lines[0], '\n'.join(lines[1:]).strip('\n')
text = open(cover).read()
if '*** SUBJECT HERE ***' not in text or '*** BLURB HERE ***' not in text:
    sys.exit('kernel-patches: git format-patch cover letter has no placeholders')
text = text.replace('*** SUBJECT HERE ***', subject)
text = text.replace('*** BLURB HERE ***', body)
# The date of the last patch, not of the run: an unchanged series
# regenerates byte for byte
date = re.search(r'^Date: .*$', open(last).read(), re.M).group(0)
text = re.sub(r'^Date: .*$', date, text, count=1, flags=re.M)
open(cover, 'w').write(text)
EOF
mv "${cover[0]}" "$tmp/p/0000-cover-letter.txt"
[ -n "$subject" ] || die "patches/cover-letter.in: the first line (subject) is empty"

find "$out" -maxdepth 1 \( -name '*.patch' -o -name '0000-cover-letter.txt' \) -delete
cp "$tmp"/p/* "$out/"
echo "kernel-patches: patches/ has $n patches and a cover letter (\"$subject\")" >&2
k log --oneline baseline..HEAD >&2

"$top/scripts/kernel-series-check.sh" --no-build
