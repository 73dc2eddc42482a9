#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-init.sh - PID 1 of the test guest (scripts/vm-run.sh): mount what a
# read-only root needs, find the NIC pairs by their drivers ($VM_NICS),
# run the command vm-run.sh left in the shared output directory, judge the
# kernel log (scripts/kmsg-check.sh: a splat fails the run), write the exit
# status there, and leave with reboot(2) (QEMU -no-reboot then exits).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
top=$(sed -n 's/.*vm_top=\([^ ]*\).*/\1/p' /proc/cmdline)

# Writable /run, /tmp, /var/tmp, /root; the host's root stays reachable
# under /run/host, so a project inside one of them (a clone in /tmp) is
# bound back in place
mount -t tmpfs -o mode=755 tmpfs /run
mkdir -p /run/host /run/netns /run/lock
mount --rbind / /run/host
for d in /tmp /var/tmp /root; do
	mount -t tmpfs -o mode=1777 tmpfs "$d"
done
if [ ! -d "$top" ] && [ -d "/run/host$top" ]; then
	mkdir -p "$top"
	mount --bind "/run/host$top" "$top"
fi
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 vmout /mnt ||
	echo "vm-init: cannot mount the output share" >&2
export VM_OUT=/mnt

ip link set lo up

# The NIC pairs vm-run.sh wired (vm_nics=MODEL,...), each found by its
# driver, in PCI order: the first of a pair is the dut, the second the peer
. "$top/scripts/lib/vm-nics.sh"
VM_NICS=""
VM_IGB=""
# A kernel with modules: each NIC driver from the modules its build
# installed first (vm_modules=DIR; a built-in driver is a no-op for modprobe)
mods=$(sed -n 's/.*vm_modules=\([^ ]*\).*/\1/p' /proc/cmdline)
for m in $(sed -n 's/.*vm_nics=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' '); do
	drv=$(vm_nic_driver "$m") || continue
	[ -z "$mods" ] || modprobe -d "$mods" "$drv" ||
		echo "vm-init: cannot load $drv from $mods" >&2
	pair=$(for d in /sys/class/net/*; do
		[ "$(basename "$(readlink "$d/device/driver" 2>/dev/null)")" = "$drv" ] &&
			echo "$(readlink -f "$d/device") $(basename "$d")"
	done | sort | cut -d' ' -f2 | paste -sd,)
	VM_NICS="$VM_NICS $m:$pair"
	[ "$m" = igb ] && VM_IGB=$(echo "$pair" | tr , ' ')
done
export VM_NICS="${VM_NICS# }" VM_IGB

# A debug kernel (lockdep: KERNEL_DEBUG=1's debug.config) takes several
# times as long as the ones the xsk suite's deadlines were chosen on: they
# are multiplied by XSK_TIME_SCALE, 4 unless the command sets its own
# (vm-run.sh writes the host's into it)
if [ -e /proc/lockdep ] && ! grep -q '^export XSK_TIME_SCALE=' "$VM_OUT/cmd" 2>/dev/null; then
	export XSK_TIME_SCALE=4
fi

rc=1
if cd "$top" && [ -f "$VM_OUT/cmd" ]; then
	echo "vm-init: $(uname -r), $(nproc) CPUs, NICs: ${VM_NICS:-none}${XSK_TIME_SCALE:+, XSK_TIME_SCALE=$XSK_TIME_SCALE}; running: $(tr '\n' ' ' < "$VM_OUT/cmd")"
	bash "$VM_OUT/cmd"
	rc=$?
	# The kernel log is part of every guest run's verdict: what the
	# command left unread in it (all of it, unless it read it itself)
	if ! dmesg -c > "$VM_OUT/kmsg.log" 2>&1; then
		echo "vm-init: the kernel log cannot be read: the run fails"
		rc=1
	elif ! "$top/scripts/kmsg-check.sh" --name "the command" "$VM_OUT/kmsg.log"; then
		echo "vm-init: the kernel log is not clean (above; all of it in kmsg.log): the run fails"
		[ "$rc" -ne 0 ] || rc=1
	fi
else
	echo "vm-init: no command (project at '$top')" >&2
fi
echo "$rc" > "$VM_OUT/status"
sync
echo "vm-init: exit status $rc"
reboot -f 2>/dev/null
python3 -c 'import ctypes; ctypes.CDLL(None).reboot(0x01234567)'
