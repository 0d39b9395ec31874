#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# /init of every QEMU guest scripts/lab builds: mount, load the NIC's driver, bring eth0 up on the lab's address,
# then by /etc/lab/mode either run nicbench and hand the results back on the result disk (run, the lab's own
# guests) or give a root shell on the serial console (shell: the LAVA guest of scripts/lava-local, whose job
# runs nicbench through that shell). scripts/lab fills /etc/lab: mode, guest-ip and host-ip (10.211.0.2/1),
# modules (to insmod, in order), args (the run's nicbench arguments), netem and setup when asked for, and
# handback-console on a machine with no result disk.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs run /run
mount -t tmpfs tmp /tmp
mode=$(cat /etc/lab/mode 2>/dev/null || echo run)
guest_ip=$(cat /etc/lab/guest-ip)
host_ip=$(cat /etc/lab/host-ip)
# the lab waits for this line (the boot deadline); the LAVA guest's lines carry the name its prompt has
if [ "$mode" = shell ]; then
	tag=nicbench-guest
else
	tag=lab-guest
fi
echo "$tag: init reached at $(cut -d' ' -f1 /proc/uptime) s"
out=/tmp/out
mkdir -p $out
cut -d' ' -f1 /proc/uptime >$out/boot-uptime
while read -r m; do
	insmod "/lib/modules/$m.ko" || echo "$tag: insmod $m failed"
done </etc/lab/modules

# The run's end in every case: what the host reads back from the result disk, then power off.
hand_back() {
	cat /proc/interrupts >$out/interrupts-after.txt 2>&1
	dmesg >$out/dmesg.txt 2>&1
	cut -d' ' -f1 /proc/uptime >$out/alive
	if [ -f /etc/lab/handback-console ]; then
		# A machine without a disk the guest can write (the i.MX6's SABRE Lite): the tar, gzipped, as base64
		# lines between two markers on the console, which the host cuts out of its log. The kernel's own
		# messages are kept off the console meanwhile.
		echo 1 >/proc/sys/kernel/printk
		echo "$tag: result begin"
		tar -cf - -C $out . | gzip -c | base64
		echo "$tag: result end"
		# i.MX6 has no power-off: the reset through its watchdog (imx2_wdt) ends QEMU (-no-reboot)
		echo "$tag: rebooting"
		reboot -f
	fi
	disk=""
	for _ in $(seq 50); do
		[ -b /dev/vda ] && disk=/dev/vda && break
		sleep 0.1
	done
	if [ -n "$disk" ]; then
		tar -cf $disk -C $out . && sync
	else
		echo "$tag: no result disk (/dev/vda)"
	fi
	echo "$tag: powering off"
	poweroff -f
}

# LAVA matches the prompt (the job's boot prompts); the shell must own the console to be interactive.
console_shell() {
	export HOME=/root PS1="$tag# "
	mkdir -p /root
	while true; do
		setsid cttyhack sh -i
		echo "$tag: the shell ended; starting another"
	done
}

for _ in $(seq 100); do
	[ -e /sys/class/net/eth0 ] && break
	sleep 0.1
done
ip link set lo up
if [ ! -e /sys/class/net/eth0 ]; then
	echo "$tag: no eth0 after loading $(tr '\n' ' ' </etc/lab/modules)"
	[ "$mode" = shell ] && console_shell
	echo 5 >$out/rc
	hand_back
fi
ip addr add "$guest_ip/24" dev eth0
ip link set eth0 up
[ "$mode" = shell ] && console_shell

for _ in $(seq 100); do
	[ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
# For a hang (scripts/lab's hang_dump): the kernel's text symbols, the modules' among them, at 448 MiB of
# the result disk, which the results' tar never reaches; read back only from a guest that is stopped.
[ -b /dev/vda ] && grep ' [tT] ' /proc/kallsyms | dd of=/dev/vda bs=1M seek=448 conv=fsync 2>/dev/null
if [ -f /etc/lab/netem ]; then
	echo "$tag: tc qdisc add dev eth0 root netem $(cat /etc/lab/netem)"
	if ! eval "/sbin/tc qdisc add dev eth0 root netem $(cat /etc/lab/netem)"; then
		echo "$tag: tc could not add netem '$(cat /etc/lab/netem)' on eth0"
		echo 4 >$out/rc
		hand_back
	fi
	/sbin/tc qdisc show dev eth0 >$out/qdisc.txt 2>&1
fi
ping -c 1 -W 5 "$host_ip" >/dev/null 2>&1 || echo "$tag: warning: $host_ip does not answer ping"
if [ -f /etc/lab/setup ]; then
	echo "$tag: running the setup script"
	if ! sh /etc/lab/setup >$out/setup.log 2>&1; then
		cat $out/setup.log
		echo "$tag: the setup script failed"
		echo 5 >$out/rc
		hand_back
	fi
fi
nicbench knobs show -i eth0 --json >$out/knobs-before.json 2>$out/knobs-before.err
cat /proc/interrupts >$out/interrupts-before.txt 2>&1
eval "set -- $(cat /etc/lab/args)"
echo "$tag: nicbench run $* -i eth0 --peer $host_ip"
# shellcheck disable=SC3040 # busybox ash has pipefail: the run's exit code, not tee's
set -o pipefail
nicbench run "$@" -i eth0 --peer "$host_ip" 2>&1 | tee $out/nicbench.log
echo $? >$out/rc
echo "$tag: nicbench exited $(cat $out/rc)"
nicbench knobs show -i eth0 --json >$out/knobs-after.json 2>$out/knobs-after.err
hand_back
