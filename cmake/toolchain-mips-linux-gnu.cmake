# SPDX-License-Identifier: MIT
# CMake toolchain for big-endian MIPS32r2 boards (lantiq xrx200, MIPS 34Kc): Debian's gcc-mips-linux-gnu and a
# sysroot you build yourself, since Debian has no big-endian mips packages (docs/boards.md, "Big-endian MIPS").
# Usage: NICBENCH_SYSROOT=DIR scripts/cross-build mips
set(CMAKE_SYSTEM_PROCESSOR mips)
set(NICBENCH_CROSS_TRIPLET mips-linux-gnu)
set(NICBENCH_QEMU_NAME qemu-mips-static)
include(${CMAKE_CURRENT_LIST_DIR}/sysroot-debian.cmake)
# MIPS32 has no 64-bit atomic instructions: gcc calls libatomic for them (nicbench's trace counters, libcrypto's
# CRYPTO_atomic_*). libatomic.a sits in the cross gcc's own directory, where find_library() does not look inside a
# sysroot, so it is named on every link line and gcc finds it.
set(CMAKE_C_STANDARD_LIBRARIES "-latomic")
