# SPDX-License-Identifier: MIT
# What scripts/lava-local and scripts/lava-server share (sourced, not run): the QEMU board both hand to LAVA.
# shellcheck shell=bash

# lava_dispatcher_yaml: the dispatcher's settings: its address on the board's tap network (10.211.0.1/24).
lava_dispatcher_yaml() {
	printf 'dispatcher_ip: 10.211.0.1\n'
}

# lava_qemu_device TAP: the device dictionary (jinja2, over lava-server's qemu.jinja2) of the QEMU board: an
# e1000e on the tap TAP, TCG with both vCPUs in one thread, as scripts/lab runs the guest (docs/lab.md, "What
# the hang is").
lava_qemu_device() {
	cat <<EOF
{% extends 'qemu.jinja2' %}
{% set arch = 'amd64' %}
{% set no_kvm = True %}
{% set memory = 1024 %}
{% set model = 'model=e1000e' %}
{% set mac_addr = '52:54:00:4c:41:42' %}
{% set netdevice = 'tap,ifname=$1,script=no,downscript=no' %}
{% set extra_options = ['-machine q35', '-accel tcg,thread=single', '-cpu max', '-smp 2'] %}
EOF
}
