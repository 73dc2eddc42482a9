# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# vm-nics.sh - sourced (never run): the NIC models the test guest can have,
# one table for the host (scripts/vm-run.sh wires them) and the guest
# (scripts/vm-init.sh finds each model's pair by its driver).  Only three of
# QEMU's x86 NIC models have a Linux driver with native XDP
# (Documentation/vm_nics.rst says which, and what each driver can do).
#
#   vm_nic_known MODEL      true when MODEL is in the table
#   vm_nic_driver MODEL     the guest driver's name (/sys/.../device/driver)
#   vm_nic_device MODEL     QEMU's -device line, without bus, netdev and mac
#   vm_nic_models           the models of the table, in its order
#   vm_nic_pair MODEL       in the guest: "DUT PEER", the guest's pair of
#                           MODEL from $VM_NICS (scripts/vm-init.sh);
#                           false, printing nothing, when it has none
#   vm_nic_policy MODEL     what its driver does where drivers may differ,
#                           for the suite (XSK_DEV_POLICY, xsk_test.c's
#                           struct dev_policy): a key not given is not
#                           checked; Documentation/vm_nics.rst has the
#                           reasons
#
# Why each line is as it is:
#   igb         the 82576; behind a pcie-root-port of its own, since igb
#               reserves bus numbers for its VFs.
#   virtio-net  iommu_platform=on: the driver's AF_XDP zero-copy needs the
#               DMA API (VIRTIO_F_ACCESS_PLATFORM; without it a bind falls
#               back to copy mode, a forced one gets EINVAL), and works
#               without a vIOMMU; queue_reset=on: the zero-copy bind resets
#               the ring (VIRTIO_F_RING_RESET; QEMU's default since 7.2,
#               said here so that no machine type turns it off);
#               mrg_rxbuf=on: mergeable buffers, without which the driver
#               runs no XDP at MTUs above 1500 ("big" mode) and has no
#               multi-buffer XDP; disable-legacy=on: the above are
#               virtio 1.0 features.  One queue pair (a hub port is one
#               queue): XDP_TX and redirects share the stack's queue, under
#               its lock.
#   vmxnet3     QEMU's model is device revision 1: no Rx data ring, no
#               switches that matter to XDP.

vm_nic_models() { echo "igb virtio-net vmxnet3"; }

vm_nic_known() { vm_nic_driver "$1" >/dev/null; }

# What is wrong with a --nics list ("MODEL ..."): none, an unknown model or
# one named twice; the sentence on stdout and status 1, or nothing and 0
vm_nic_list_error() {
	local m n=0

	for m in $1; do
		n=$((n + 1))
		vm_nic_known "$m" || {
			echo "--nics: unknown NIC model '$m' (want some of: $(vm_nic_models))"
			return 1
		}
	done
	[ $n -gt 0 ] || { echo "--nics: no NIC model (want some of: $(vm_nic_models))"; return 1; }
	[ "$(printf '%s\n' $1 | sort -u | wc -l)" -eq $n ] ||
		{ echo "--nics '$1' names a model twice"; return 1; }
}

vm_nic_pair() {
	for _p in ${VM_NICS:-}; do
		case "$_p" in "$1":?*,?*) echo "${_p#*:}" | tr , ' '; return 0 ;; esac
	done
	return 1
}

vm_nic_driver() {
	case "$1" in
	igb) echo igb ;;
	virtio-net) echo virtio_net ;;
	vmxnet3) echo vmxnet3 ;;
	*) return 1 ;;
	esac
}

vm_nic_device() {
	case "$1" in
	igb) echo igb ;;
	virtio-net) echo "virtio-net-pci,disable-legacy=on,iommu_platform=on,mrg_rxbuf=on,queue_reset=on" ;;
	vmxnet3) echo vmxnet3 ;;
	*) return 1 ;;
	esac
}

# igb: what the series does (Documentation/igb_xdp_mb.rst): 3 KiB Rx
# buffers in halves of 8 KiB pages, the last fragment grows, the MTU is
# held down by a program without frags support and by a bound zero-copy
# socket's buffer.  virtio-net (7.2.13): no fragment size to grow into; a
# program without frags support is refused above about 3506 bytes of MTU,
# but once attached it holds no MTU down (what no longer fits is dropped
# or linearized).  vmxnet3: no multi-buffer or zero-copy; an attached
# program holds the MTU down to what one Rx buffer takes, as the attach
# refuses a larger one (patches/vmxnet3/0002; nic.dev_copy.mtu_past_one_buffer).
# counters=reset would mark a driver whose counters go back at a device
# reset (vmxnet3 before patches/vmxnet3/0004): stats_kept_across_bind XFAILs.
vm_nic_policy() {
	case "$1" in
	igb)
		echo "frag_grow=yes,linear_errno=EINVAL,linear_msg=MTU too large for a program without multi-buffer (frags) support,linear_held=dut,rx_buf_truesize=4096,rx_bufs=3,zc_mtu=refused"
		;;
	virtio-net)
		echo "frag_grow=no,linear_errno=EINVAL,linear_msg=MTU too large to enable XDP without frags,linear_held=none"
		;;
	vmxnet3) echo "linear_held=dut" ;;
	*) return 1 ;;
	esac
}
