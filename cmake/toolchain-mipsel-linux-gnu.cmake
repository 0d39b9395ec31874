# SPDX-License-Identifier: MIT
# CMake toolchain for little-endian MIPS32r2 boards: Debian's gcc-mipsel-linux-gnu and a sysroot of Debian 12
# mipsel -dev packages. Usage: scripts/cross-build mipsel   (or cmake ... -DNICBENCH_SYSROOT=DIR -DNICBENCH_STATIC=ON)
set(CMAKE_SYSTEM_PROCESSOR mipsel)
set(NICBENCH_CROSS_TRIPLET mipsel-linux-gnu)
set(NICBENCH_QEMU_NAME qemu-mipsel-static)
include(${CMAKE_CURRENT_LIST_DIR}/sysroot-debian.cmake)
# MIPS32 has no 64-bit atomic instructions: gcc calls libatomic for them (nicbench's trace counters, libcrypto's
# CRYPTO_atomic_*). libatomic.a sits in the cross gcc's own directory, where find_library() does not look inside a
# sysroot, so it is named on every link line and gcc finds it.
set(CMAKE_C_STANDARD_LIBRARIES "-latomic")
