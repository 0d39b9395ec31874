# SPDX-License-Identifier: MIT
# CMake toolchain for 32-bit Arm boards (TI AM335x with cpsw, i.MX6 with lan743x): Debian's
# gcc-arm-linux-gnueabihf (ARMv7, VFPv3-D16, Thumb-2: Debian armhf's baseline) and a sysroot of Debian 12 armhf
# -dev packages. Usage: scripts/cross-build armhf   (or cmake ... -DNICBENCH_SYSROOT=DIR -DNICBENCH_STATIC=ON)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(NICBENCH_CROSS_TRIPLET arm-linux-gnueabihf)
set(NICBENCH_QEMU_NAME qemu-arm-static)
include(${CMAKE_CURRENT_LIST_DIR}/sysroot-debian.cmake)
