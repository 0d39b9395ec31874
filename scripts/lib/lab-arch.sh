# shellcheck shell=bash
# SPDX-License-Identifier: MIT
# scripts/lab's foreign guests (sourced by scripts/lab): arm64, armhf and riscv64 on QEMU's virt machine, mipsel on
# malta, all under TCG, with Debian's kernel and busybox-static of that architecture and the static nicbench that
# scripts/cross-build makes for the boards.

# --arch NAME -> Debian's architecture, qemu's binary, scripts/cross-build's name (build-NAME), the serial console,
# the ELF machine readelf names and Debian's kernel flavour where it is not the architecture's name.
declare -A arch_debarchs=([x86_64]=amd64 [arm64]=arm64 [armhf]=armhf [mipsel]=mipsel [riscv64]=riscv64)
declare -A arch_qemus=([x86_64]=qemu-system-x86_64 [arm64]=qemu-system-aarch64 [armhf]=qemu-system-arm
	[mipsel]=qemu-system-mipsel [riscv64]=qemu-system-riscv64)
declare -A arch_cross=([x86_64]=x86_64 [arm64]=aarch64 [armhf]=armhf [mipsel]=mipsel [riscv64]=riscv64)
declare -A arch_consoles=([arm64]=ttyAMA0 [armhf]=ttyAMA0 [mipsel]=ttyS0 [riscv64]=ttyS0)
# readelf says "MIPS R3000" for either endianness: arch_static_binary checks the byte order too (all little).
declare -A arch_elf=([x86_64]="X86-64" [arm64]="AArch64" [armhf]="ARM" [mipsel]="MIPS" [riscv64]="RISC-V")
declare -A arch_kflavours=([armhf]=armmp [mipsel]=4kc-malta)
# A TCG boot of Debian's generic kernel: seconds until /init (measured: docs/lab.md), with room for a slow host.
virt_boot_deadline=${NB_LAB_VIRT_BOOT_DEADLINE:-300}

# arch_check: validates --arch (and what it allows with it) once the options are read; sets debarch.
arch_check() {
	case "$arch" in
	aarch64) arch=arm64 ;;
	amd64) arch=x86_64 ;;
	esac
	case "$arch" in
	arm | armv7) arch=armhf ;;
	esac
	[ -n "${arch_debarchs[$arch]:-}" ] || die 2 "--arch '$arch': x86_64, arm64, armhf, mipsel or riscv64"
	debarch=${arch_debarchs[$arch]}
	# the default kernel: 6.1, or 6.12 where Debian 12 has none (riscv64)
	if [ -z "$kernel" ]; then
		kernel=6.1
		[ "$arch" = riscv64 ] && kernel=6.12
	fi
	[ "$arch" = x86_64 ] && return 0
	case "$accel_req" in
	kvm) die 2 "--arch $arch: no KVM for a foreign architecture; the guest runs under TCG (--accel tcg or auto)" ;;
	*) accel_req=tcg ;;
	esac
	[ -z "$netem" ] || die 2 "--netem needs --arch x86_64: the guest runs this host's tc (an x86_64 binary)"
	local bin
	for bin in "${guest_bins[@]}"; do
		arch_static_binary "$bin" || die 2 "--guest-bin $bin: $arch_binary_error"
	done
}

# arch_static_binary FILE: FILE is a static ELF executable of the guest's architecture (its libraries could not be
# taken from this x86_64 host). Sets arch_binary_error when not.
arch_static_binary() {
	local machine
	machine=$(readelf -hW "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p')
	if [ -z "$machine" ]; then
		arch_binary_error="not an ELF file"
	elif [[ "$machine" != *"${arch_elf[$arch]}"* ]]; then
		arch_binary_error="built for $machine, the guest is $arch (${arch_elf[$arch]})"
	elif ! readelf -hW "$1" 2>/dev/null | grep -q '^ *Data:.*little endian'; then
		arch_binary_error="big-endian, the $arch guest is little-endian"
	elif readelf -lW "$1" 2>/dev/null | grep -q INTERP; then
		arch_binary_error="dynamically linked; an $arch guest takes static binaries only (scripts/cross-build ${arch_cross[$arch]})"
	else
		return 0
	fi
	return 1
}

# arch_kernel_check K: the kernels Debian has for the guest's architecture.
arch_kernel_check() {
	[ "$arch" = x86_64 ] && return 0
	case "$arch:$1" in
	arm64:6.1 | arm64:6.12 | arm64:backports | armhf:6.1 | armhf:6.12 | armhf:backports | mipsel:6.1) ;;
	riscv64:6.12 | riscv64:backports) ;;
	mipsel:*) die 2 "--arch mipsel --kernel $1: Debian 12 is the last release with mipsel (6.1); Debian 13 dropped it" ;;
	riscv64:6.1) die 2 "--arch riscv64 --kernel 6.1: Debian 12 has no riscv64 kernel (riscv64 is a release architecture from Debian 13: use 6.12 or backports)" ;;
	arm64:* | armhf:*) die 2 "--arch $arch --kernel $1: an $arch guest boots Debian's kernels only (6.1, 6.12 or backports: its busybox comes from the same release)" ;;
	*) die 2 "--arch $arch --kernel $1: an $arch guest boots Debian's kernels only (6.12 or backports: its busybox comes from the same release)" ;;
	esac
}

# arch_guest_nicbench: the guest's nicbench. x86_64: the host's build (lab_nicbench). Otherwise the static binary
# a board gets: build-ARCH/nicbench from scripts/cross-build (or $NB_LAB_GUEST_NICBENCH), rebuilt when a source is
# newer. Sets guest_nicbench_bin.
arch_guest_nicbench() {
	if [ "$arch" = x86_64 ]; then
		guest_nicbench_bin=$nicbench_bin
		return 0
	fi
	local cross=${arch_cross[$arch]}
	if [ -n "${NB_LAB_GUEST_NICBENCH:-}" ]; then
		guest_nicbench_bin=$NB_LAB_GUEST_NICBENCH
	else
		guest_nicbench_bin=$top/build-$cross/nicbench
		if [ ! -x "$guest_nicbench_bin" ] ||
			[ -n "$(find "$top/src" "$top/CMakeLists.txt" -newer "$guest_nicbench_bin" -print -quit)" ]; then
			say "building the guest's static nicbench: scripts/cross-build $cross"
			local log
			log=$(mktemp /tmp/nb-lab-cross.XXXXXX)
			"$top/scripts/cross-build" "$cross" >"$log" 2>&1 ||
				{ tail -n 20 "$log" >&2; rm -f "$log"; die 4 "scripts/cross-build $cross failed"; }
			rm -f "$log"
		fi
	fi
	[ -x "$guest_nicbench_bin" ] || die 4 "no nicbench binary for the $arch guest at $guest_nicbench_bin"
	arch_static_binary "$guest_nicbench_bin" || die 4 "$guest_nicbench_bin: $arch_binary_error"
}

# arch_busybox: the guest's busybox: this host's (x86_64) or the one fetched beside the kernel.
arch_busybox() {
	if [ "$arch" = x86_64 ] || [ -z "${kdir:-}" ]; then
		command -v busybox
	else
		local f
		for f in "$kdir"/bin/busybox "$kdir"/usr/bin/busybox; do
			[ -x "$f" ] && { echo "$f"; return 0; }
		done
		return 1
	fi
}

# boot_virt: boot() for the foreign guests: QEMU's virt machine (arm64, armhf, riscv64; the NIC and the result
# disk on PCIe) or malta (mipsel; on its PCI bus), under TCG. Waits up to $virt_boot_deadline s for /init (a TCG
# boot of a foreign ISA is slower than boot()'s x86 deadline).
boot_virt() {
	local machine
	case "$arch" in
	# cortex-a72: no pointer authentication to emulate (-cpu max spends much of its TCG time on it); GICv3 with
	# its ITS gives the NIC MSI-X.
	arm64) machine=(-machine virt,gic-version=3 -cpu cortex-a72) ;;
	# cortex-a15: an ARMv7-A core that the armmp kernel runs on and virt's GICv2 serves. highmem=off: the armmp
	# kernel has no LPAE, so the PCIe window above 4 GiB would be out of its reach. GICv2's v2m frame gives MSI-X.
	armhf) machine=(-machine virt,highmem=off -cpu cortex-a15) ;;
	# 34Kf: the MIPS32r2 34K core of the lantiq xrx200 (QEMU has it with an FPU only); --cpus 2 gives its two VPEs,
	# which the 4kc-malta kernel runs as SMP (MIPS MT), as the board does.
	mipsel) machine=(-machine malta -cpu 34Kf) ;;
	# -bios default: Debian's OpenSBI (package opensbi), which qemu-system-misc links to.
	riscv64) machine=(-machine virt -cpu rv64 -bios default) ;;
	esac
	if [ "$nic" = fec ]; then
		boot_sabrelite
		return
	fi
	: >"$work/console.log"
	truncate -s 0 "$work/result.img"
	truncate -s 512M "$work/result.img"
	local netdev_opts="" device_opts=""
	if [ "$nic" = virtio-net ] && [ "$cpus" -gt 1 ]; then
		netdev_opts=",queues=$cpus"
		device_opts=",mq=on,vectors=$((2 * cpus + 2))"
	fi
	boot_start=$(date +%s.%N)
	ip netns exec "$ns" "${arch_qemus[$arch]}" "${machine[@]}" -accel tcg -smp "$cpus" -m "$mem" \
		-kernel "$kernel_image" -initrd "$work/initramfs.cpio" \
		-append "console=${arch_consoles[$arch]} quiet loglevel=4 panic=-1 net.ifnames=0 mitigations=off $hang_append" \
		-netdev "tap,id=n0,ifname=$tap,script=no,downscript=no$netdev_opts" \
		-device "${nic_devices[$nic]},netdev=n0,mac=52:54:00:4c:41:42$device_opts" \
		-drive "file=$work/result.img,format=raw,if=none,id=result" -device virtio-blk-pci,drive=result \
		-display none -monitor "unix:$work/monitor.sock,server=on,wait=off" -serial "file:$work/console.log" -no-reboot \
		</dev/null >"$work/qemu.log" 2>&1 &
	qemu_pid=$!
	disown "$qemu_pid"
	boot_wait tcg "$virt_boot_deadline"
}

# --- armhf --nic fec: QEMU's SABRE Lite (i.MX6Q) ----------------------------------------------------------------
# The i.MX6's FEC sits on the SoC, not on a bus virt could plug it into, so --nic fec boots QEMU's i.MX6Q board
# instead: Cortex-A9, 1 to 4 cores, the FEC with the SMSC PHY QEMU models at address 6 (100 Mbit/s), Debian's
# armmp kernel with its imx6q-sabrelite.dtb. fec receives into a page_pool (from 6.0) and lists the pool's
# counters with its ethtool -S ones (rx_pp_*, from 6.2 with CONFIG_PAGE_POOL_STATS, which Debian's armmp has).
# The board has no disk QEMU can give it here (no PCIe link, no SD slot it attaches), so the guest hands its
# results back on the console (guest-init.sh's handback-console) and ends with a reset through its watchdog.

# The modules fec needs that nothing names as a dependency: the GPIO and OCOTP (the MAC address's nvmem cell)
# suppliers its device waits for, the anatop regulators, the PHY's driver, and imx2_wdt for the reset that ends
# the guest.
sabrelite_modules=(imx2_wdt gpio_mxc nvmem_imx_ocotp anatop_regulator smsc)

# sabrelite_dtb: the board's device tree from the kernel package.
sabrelite_dtb() {
	find "$kdir" -name imx6q-sabrelite.dtb 2>/dev/null | head -n 1
}

# boot_sabrelite: boot_virt() for --nic fec. The first UART is not wired (serial null): Linux's console is
# UART2, ttymxc1.
boot_sabrelite() {
	local dtb
	dtb=$(sabrelite_dtb)
	[ -n "$dtb" ] || die 4 "--nic fec: kernel $kernel_label has no imx6q-sabrelite.dtb"
	: >"$work/console.log"
	boot_start=$(date +%s.%N)
	ip netns exec "$ns" qemu-system-arm -machine sabrelite -accel tcg -smp "$cpus" -m "$mem" \
		-kernel "$kernel_image" -dtb "$dtb" -initrd "$work/initramfs.cpio" \
		-append "console=ttymxc1 quiet loglevel=4 panic=-1 net.ifnames=0 mitigations=off $hang_append" \
		-nic "tap,ifname=$tap,script=no,downscript=no,mac=52:54:00:4c:41:42" \
		-display none -monitor "unix:$work/monitor.sock,server=on,wait=off" \
		-serial null -serial "file:$work/console.log" -no-reboot \
		</dev/null >"$work/qemu.log" 2>&1 &
	qemu_pid=$!
	disown "$qemu_pid"
	boot_wait tcg "$virt_boot_deadline"
}

# console_result: the tar a console hand-back left between its markers, into $work/result.img (whatever the
# guest printed around it left out). 0 when there was one.
console_result() {
	grep -q '^lab-guest: result end' "$work/console.log" || return 1
	tr -d '\r' <"$work/console.log" |
		sed -n '/^lab-guest: result begin$/,/^lab-guest: result end$/{/^[A-Za-z0-9+\/=]*$/p}' |
		base64 -d | gzip -dc >"$work/result.img"
}
