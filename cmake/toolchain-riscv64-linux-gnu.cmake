# SPDX-License-Identifier: MIT
# CMake toolchain for RISC-V boards (RZ/Five) with Debian's cross gcc and a riscv64 sysroot made from Debian packages.
# riscv64 is not a release architecture of Debian 12, so its -dev packages come from Debian 13 (trixie), unpacked
# into a sysroot by scripts/cross-build (NICBENCH_SYSROOT, default build-riscv64/sysroot); the glibc headers and
# libraries are the sysroot's too, so nothing of the bookworm cross libc is mixed in.
# Usage: scripts/cross-build riscv64   (or cmake ... -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-riscv64-linux-gnu.cmake
#        -DNICBENCH_SYSROOT=/path/to/sysroot -DNICBENCH_STATIC=ON)
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(NICBENCH_CROSS_TRIPLET riscv64-linux-gnu)

if(NOT NICBENCH_SYSROOT)
  set(NICBENCH_SYSROOT $ENV{NICBENCH_SYSROOT})
endif()
if(NOT NICBENCH_SYSROOT OR NOT EXISTS ${NICBENCH_SYSROOT}/usr/include/${NICBENCH_CROSS_TRIPLET})
  message(FATAL_ERROR "riscv64 needs a sysroot with Debian riscv64 -dev packages: run scripts/cross-build riscv64, "
                      "or pass -DNICBENCH_SYSROOT=DIR (now: '${NICBENCH_SYSROOT}')")
endif()
# Try-compiles run in their own project: hand the sysroot on to them.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES NICBENCH_SYSROOT)

set(CMAKE_C_COMPILER ${NICBENCH_CROSS_TRIPLET}-gcc)
# trixie's static libc.a carries R_RISCV_SET_ULEB128/SUB_ULEB128 relocations (binutils >= 2.41) and bookworm's
# ld 2.40 segfaults on them: scripts/cross-build puts trixie's ld (Debian binutils-riscv64-linux-gnu) behind a
# wrapper in NICBENCH_LINKER_DIR, and gcc -B picks that ld up.
if(NOT NICBENCH_LINKER_DIR)
  set(NICBENCH_LINKER_DIR $ENV{NICBENCH_LINKER_DIR})
endif()
if(NICBENCH_LINKER_DIR)
  list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES NICBENCH_LINKER_DIR)
  set(CMAKE_EXE_LINKER_FLAGS_INIT "-B${NICBENCH_LINKER_DIR}/")
endif()
set(CMAKE_SYSROOT ${NICBENCH_SYSROOT})
set(CMAKE_LIBRARY_ARCHITECTURE ${NICBENCH_CROSS_TRIPLET})
set(CMAKE_FIND_ROOT_PATH ${NICBENCH_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads only the sysroot's riscv64 .pc files and prefixes their paths with the sysroot.
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${NICBENCH_SYSROOT})
set(ENV{PKG_CONFIG_LIBDIR} ${NICBENCH_SYSROOT}/usr/lib/${NICBENCH_CROSS_TRIPLET}/pkgconfig:${NICBENCH_SYSROOT}/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

find_program(NICBENCH_QEMU qemu-riscv64-static)
if(NICBENCH_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${NICBENCH_QEMU})
endif()
