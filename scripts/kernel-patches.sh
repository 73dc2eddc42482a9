#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-patches.sh - regenerate the project's submissions in patches/
# (scripts/lib/series.sh: iwl-net, iwl-next, selftests) from kernel/:
#
#   1. the kernel work: every commit of kernel/ after the `baseline` tag,
#      except the ones this script generates (recognised by subject) and
#      the driver fix series; its author and sign-off become those of
#      whoever runs this (git config user.name and user.email), who posts
#      the series and signs it;
#   2. generated from the project's own files, so that the series alone adds
#      them to a kernel tree: the selftests (tools/testing/selftests/xsk/,
#      its TARGETS line, a MAINTAINERS entry), in the parts below, one
#      patch each, and the kernel documentation
#      (Documentation/networking/xsk_selftests.rst and its index entry);
#
# The selftests' files are the project's own, in one copy.  Markers in them
# (/* kernel-patches: PART */, # kernel-patches: PART) say which part adds
# each line; scripts/kernel-selftests-parts.py writes a part's files and
# lists the tests it adds, for its message (Documentation/kernel_pipeline.rst).
# Generated commits are those whose subject begins with "selftests: xsk: "
# and the documentation's; the kernel work has none of those.
#
# kernel/ is rebuilt as baseline + (1) + (2), then written out, one
# submission a directory, with `git format-patch --cover-letter
# --base=baseline --zero-commit`: patches/iwl-net/ the commits of (1) with
# a Fixes: tag, which must come first; patches/iwl-next/ the rest of (1),
# with the iwl-net patches as prerequisites; patches/selftests/ (2),
# written from a work tree of the baseline with (2) alone.  Each cover
# letter takes its subject and text from its directory's cover-letter.in
# and is saved as 0000-cover-letter.txt (not .patch: `git am
# patches/NAME/*.patch` would stop at a patch without a diff).  Then the
# submissions are checked (scripts/kernel-series-check.sh, without the
# bisect build).
set -Eeuo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)

# The selftests' parts, in the order of the series: name|subject
parts_tab=(
	"core|selftests: xsk: add an AF_XDP ring core"
	"prog|selftests: xsk: add the AF_XDP core's XDP program and ports"
	"env|selftests: xsk: add a test environment of veth pairs in namespaces"
	"copy|selftests: xsk: add the copy-mode tests on veth"
	"nic|selftests: xsk: add the driver tests, zero-copy on a NIC pair"
	"mb|selftests: xsk: add the XDP multi-buffer tests"
	"long|selftests: xsk: add the tests of frames longer than one Rx buffer"
)
part_names=$(printf '%s\n' "${parts_tab[@]}" | cut -d'|' -f1 | paste -sd,)
# --parts: their names, comma-separated (for kernel-series-check.sh)
if [ "${1:-}" = --parts ]; then
	echo "$part_names"
	exit 0
fi
. "$top/scripts/kernel-pin.sh"
tree=$kernel_tree
out="$top/patches"

. "$top/scripts/lib/common.sh"
. "$top/scripts/lib/series.sh"
k() { git -C "$tree" "$@"; }

[ -d "$tree/.git" ] && k rev-parse -q --verify baseline >/dev/null ||
	die "no kernel/ work tree: run \`make kernel-tree\` first"
[ -z "$(k status --porcelain --untracked-files=no)" ] ||
	die "kernel/ has uncommitted changes: commit them (they are the series) or stash them"
for s in $submissions; do
	[ -f "$out/$s/cover-letter.in" ] ||
		die "patches/$s/cover-letter.in is missing (subject and text of the cover letter)"
done

name=$(git -C "$top" config user.name) || die "set git user.name in the project"
email=$(git -C "$top" config user.email) || die "set git user.email in the project"
sob="Signed-off-by: $name <$email>"

# subj_selftests, the prefix of every part's subject, and subj_docs:
# scripts/lib/series.sh
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
		k commit -q --author="$name <$email>" -F - <<-EOF
	$subj

	$(cat "$body")

	$sob
	EOF
}

orig=$(k rev-parse HEAD)
branch=$(k symbolic-ref --short -q HEAD || echo master)
# the kernel commits but the driver fix series, which are applied again
# from patches/DRIVER/ at the end
not_work=()
for d in $driver_series; do
	not_work+=(-e "^[0-9a-f]* $d: ")
done
mapfile -t work < <(kernel_commits "$tree" | grep -v "${not_work[@]}" | cut -d' ' -f1)

restore() {
	say "failed; kernel/ is back at $orig"
	k cherry-pick --abort >/dev/null 2>&1 || true
	k checkout -q -f "$orig" && k checkout -q -B "$branch" "$orig"
}
trap restore ERR

k checkout -q --detach baseline
for c in "${work[@]}"; do
	# same dates and parent as before, and the poster as author with
	# their sign-off alone: the same commit again when nothing changed
	export GIT_COMMITTER_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
	GIT_COMMITTER_DATE=$(k log -1 --format=%cI "$c")
	GIT_COMMITTER_NAME=$(k log -1 --format=%cn "$c")
	GIT_COMMITTER_EMAIL=$(k log -1 --format=%ce "$c")
	k cherry-pick --allow-empty "$c" >/dev/null
	k log -1 --format=%B | grep -v '^Signed-off-by: ' | git stripspace |
		git interpret-trailers --trailer "$sob" |
		k commit -q --amend --allow-empty --author="$name <$email>" -F -
	unset GIT_COMMITTER_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 2a. the selftests, part by part (parts_tab above), each part's message
# (what it adds) in part_body; the tests it adds are listed after it
sdir=tools/testing/selftests/xsk

part_body() {	# PART: what the part adds, for its commit message
	case $1 in
	core) cat <<'EOF'
Start tools/testing/selftests/xsk, a kselftest suite for AF_XDP, with the
AF_XDP core it is built on: the UMEM, the four rings (cached producer and
consumer indices, the shared ones read only when the cached view runs
out), need_wakeup and its kicks, XDP_USE_SG packets over several
descriptors, aligned and unaligned chunks, XDP_STATISTICS, and binding in
each XDP mode with errors that name the step and the value refused.

The suite builds against the tree's own UAPI headers (KHDR_INCLUDES, after
`make headers`) and links with the system's libbpf, as the programs are
built with the system's clang and bpftool (next patch).  The test program,
xsk_test, has no tests yet; the next patches add them, each group with
what it needs.

Built with `make headers && make -C tools/testing/selftests/xsk` on the
tree with this patch (checkpatch --strict clean).
EOF
		;;
	prog) cat <<'EOF'
Add the XDP programs of the suite and the part of the AF_XDP core that
uses them: a port, an interface with our program attached in native or
generic mode and a socket per queue bound in the mode asked for, or the
first that works in best-effort order (zero-copy, native copy, generic),
with the mode verified with XDP_OPTIONS and bpf_xdp_query() rather than
assumed.  The programs: xsk_redirect (a queue's frames to its socket;
optionally one flow sent back with XDP_TX), xdp_pass and xdp_drop for the
peer, and xdp_mb / xdp_mb_linear for the multi-buffer tests, which drop,
abort, pass, send back, redirect or run the helpers across fragments
(xsk_prog_mb.h).

The programs are built with clang and bpftool from the system, against the
tree's UAPI headers.  No tests yet: the port needs an interface, which the
next patch provides.
EOF
		;;
	env) cat <<'EOF'
Add the test environment: a veth pair across two private network
namespaces, made per test and removed after it, also when the test is
killed (a signal handler sets a flag; the cleanup runs outside it), and
what an earlier killed run left is removed at start.  With
XSK_DEVS="DUT PEER" the environment takes two connected interfaces
instead (a NIC pair) and gives them back afterwards, for the driver tests
later in the series.

The first tests: bind arguments the kernel refuses, each with its errno
and a message that names it, and a last test that the suite left the
machine's links and namespaces as it found them.
EOF
		;;
	copy) cat <<'EOF'
Add the test frames (Ethernet, IPv4 and UDP with a sequence number and a
payload pattern checked byte for byte) and the tests on veth in native
copy and generic mode: exact RX (N frames, N descriptors, exact bytes),
unaligned chunks, need_wakeup on and off, each XDP_STATISTICS counter
provoked and counted exactly, the modes as the kernel reports them
(zero-copy refused on veth with EOPNOTSUPP and nothing left attached),
XDP_USE_SG at MTU 9000 (a 9014-byte frame is three descriptors, the first
two with XDP_PKT_CONTD; without XDP_USE_SG it is dropped and counted),
and one socket per queue on a multi-queue veth.
EOF
		;;
	nic) cat <<'EOF'
Add the tests of a driver's own AF_XDP paths: on veth in copy mode always,
and in zero-copy mode on a NIC pair when XSK_DEVS="DUT PEER" names two
connected interfaces (skipped, and saying why, when it does not).  Exact
RX and TX in batches a NIC's ring can take, completions (every address
once, only those submitted, nothing after), XDP_TX from the program beside
the socket's own TX on one Tx ring, fill-ring starvation and recovery,
MTU changes under a zero-copy socket, and an application killed (SIGKILL)
while it receives and sends with an XDP program staying attached, after
which ifdown/ifup and the detach must not hang and a new socket gets exact
batches both ways (the class of the 2026 igb fix that removed
napi_synchronize() from igb_down()); and reconfigurations while such an
application receives and sends: MTU cycled, program replaced, frags
program swapped for one without frags support, link flapped, Rx ring
resized, channel count changed (skipped where the driver has no such
operation), after which the application still gets a whole batch and its
frames still reach the peer; and the attach and bind path a hundred times
in a row, then exact batches both ways.
EOF
		;;
	mb) cat <<'EOF'
Add the XDP multi-buffer tests at MTU 9000, on veth and on XSK_DEVS: an
"xdp.frags" program's every action on 9014-byte frames (100000 frames
dropped, aborted and sent back with XDP_TX with their memory returned;
XDP_PASS, XDP_TX and XDP_REDIRECT out of the other interface and into a
veth, byte for byte), bpf_xdp_get_buff_len(), load/store_bytes and
adjust_tail across fragments, frames of the driver's largest MTU, and the
rules for programs without frags support and for MTU changes, with their
errno values and extack messages.
EOF
		;;
	long) cat <<'EOF'
Add the tests of frames longer than one Rx buffer where the program
cannot take them whole, on XSK_DEVS: a program without frags support, a
legacy-rx ring, and a zero-copy socket each receive frames over one
buffer from a peer at MTU 9000.  Such frames never reach the program, the
stack or the socket, whole or in parts, and are not counted as received;
the MTU changes that would allow them are refused.
EOF
		;;
	*) die "part_body: no message for part $1" ;;
	esac
}

mk="$tree/tools/testing/selftests/Makefile"
maint="$tree/MAINTAINERS"
add_maint() {	# F:-line to add after an anchor line of the XDP SOCKETS entry
	grep -q -x -F "F:	$1" "$maint" && return 0
	sed -i "s|^F:	$2\$|&\nF:	$1|" "$maint"
	grep -q -x -F "F:	$1" "$maint" || die "no place for $1 in MAINTAINERS"
}
mapfile -t sfiles < <(git -C "$top" ls-files -- "$sdir")
for entry in "${parts_tab[@]}"; do
	part=${entry%%|*}
	subj=${entry#*|}
	rm -rf "${tree:?}/$sdir"
	"$top/scripts/kernel-selftests-parts.py" emit --parts "$part_names" \
		--upto "$part" "$top" "$tree" "${sfiles[@]}" ||
		die "$part: the selftests' files could not be written"
	if [ "$part" = "${parts_tab[0]%%|*}" ]; then
		grep -q '^TARGETS += xsk$' "$mk" ||
			sed -i 's|^TARGETS += x86/bugs$|&\nTARGETS += xsk|' "$mk"
		grep -q '^TARGETS += xsk$' "$mk" || die "no place for TARGETS += xsk in $mk"
		add_maint "$sdir/" "tools/testing/selftests/bpf/\*xsk\*"
	fi
	{
		part_body "$part"
		"$top/scripts/kernel-selftests-parts.py" tests --parts "$part_names" \
			--part "$part" "$top/$sdir/xsk_test.c" > "$tmp/tests" ||
			die "$part: no test list"
		ntests=$(tail -1 "$tmp/tests")
		if [ "$ntests" -gt 0 ]; then
			echo
			echo "Tests added ($ntests, fixture.variant: tests):"
			sed '$d' "$tmp/tests"
		fi
	} > "$tmp/body"
	# the date of the project's last commit of the part's files
	commit_generated "$subj" "$(gen_date "$sdir")" "$tmp/body" \
		"$sdir" tools/testing/selftests/Makefile MAINTAINERS
done

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

# 3. the submissions: iwl-net, the work's commits with a Fixes: tag, all
# before the others; iwl-next, the rest of the work; the selftests and
# their documentation, from a work tree of the baseline with them alone
mapfile -t mine < <(k rev-list --reverse baseline..HEAD)
nwork=${#work[@]}
nnet=0
for ((i = 0; i < nwork; i++)); do
	k log -1 --format=%B "${mine[i]}" | grep -q '^Fixes: ' || continue
	[ "$nnet" -eq "$i" ] ||
		die "$(k log -1 --format=%s "${mine[i]}"): a fix (Fixes:) after a commit without one; the fixes (iwl-net) come first"
	nnet=$((i + 1))
done
[ "$nnet" -gt 0 ] && [ "$nnet" -lt "$nwork" ] ||
	die "the kernel work needs fixes (Fixes:) first and then the rest: $nnet of $nwork commits are fixes"
net_tip=${mine[nnet - 1]}
work_tip=${mine[nwork - 1]}
series_write "$tree" "$out/iwl-net" "$(submission_prefix iwl-net)" "baseline..$net_tip"
series_write "$tree" "$out/iwl-next" "$(submission_prefix iwl-next)" "$net_tip..$work_tip"
swt=$(kernel_dir selftests-submission)
worktree_at "$tree" "$swt" baseline
git -C "$swt" cherry-pick "$work_tip..$(k rev-parse HEAD)" >/dev/null ||
	die "the selftests do not apply on the baseline alone (see $swt)"
series_write "$swt" "$out/selftests" "$(submission_prefix selftests)"
git -C "$tree" worktree remove --force "$swt"
for s in $submissions; do
	say "patches/$s/ has $(submission_patches "$s" | wc -l) patches and a cover letter (\"$(sed -n 1p "$out/$s/cover-letter.in")\")"
done
k log --oneline baseline..HEAD >&2

# 4. the driver fix series on top, as kernel-tree.sh puts them
for d in $driver_series; do
	mapfile -t dp < <(series_patches "$d")
	set -- "${dp[@]}"
	[ $# -gt 0 ] || continue
	k am --quiet --whitespace=error-all "$@" || {
		k am --abort 2>/dev/null || true
		die "git am of patches/$d/ on top of the series failed"
	}
	say "kernel/ has patches/$d/ on top ($# patches)"
done

"$top/scripts/kernel-series-check.sh" --no-build
