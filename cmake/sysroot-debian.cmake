# SPDX-License-Identifier: MIT
# The part the sysroot toolchains share (armhf, mipsel, mips): Debian's cross gcc for NICBENCH_CROSS_TRIPLET and a
# sysroot of the target's Debian -dev packages that scripts/cross-build unpacked (NICBENCH_SYSROOT). Included by
# cmake/toolchain-TRIPLET.cmake after it has set CMAKE_SYSTEM_PROCESSOR, NICBENCH_CROSS_TRIPLET and NICBENCH_QEMU_NAME.
set(CMAKE_SYSTEM_NAME Linux)

if(NOT NICBENCH_SYSROOT)
  set(NICBENCH_SYSROOT $ENV{NICBENCH_SYSROOT})
endif()
if(NOT NICBENCH_SYSROOT OR NOT EXISTS ${NICBENCH_SYSROOT}/usr/include/${NICBENCH_CROSS_TRIPLET})
  message(FATAL_ERROR "${CMAKE_SYSTEM_PROCESSOR} needs a sysroot with Debian ${NICBENCH_CROSS_TRIPLET} -dev packages: "
                      "run scripts/cross-build, or pass -DNICBENCH_SYSROOT=DIR (now: '${NICBENCH_SYSROOT}')")
endif()
# Try-compiles run in their own project: hand the sysroot on to them.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES NICBENCH_SYSROOT)

set(CMAKE_C_COMPILER ${NICBENCH_CROSS_TRIPLET}-gcc)
set(CMAKE_SYSROOT ${NICBENCH_SYSROOT})
set(CMAKE_LIBRARY_ARCHITECTURE ${NICBENCH_CROSS_TRIPLET})
set(CMAKE_FIND_ROOT_PATH ${NICBENCH_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads only the sysroot's .pc files and prefixes their paths with the sysroot.
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${NICBENCH_SYSROOT})
set(ENV{PKG_CONFIG_LIBDIR} ${NICBENCH_SYSROOT}/usr/lib/${NICBENCH_CROSS_TRIPLET}/pkgconfig:${NICBENCH_SYSROOT}/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# Lets ctest and add_test() run target binaries on the build machine through qemu-user (qemu-user-static).
find_program(NICBENCH_QEMU ${NICBENCH_QEMU_NAME})
if(NICBENCH_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${NICBENCH_QEMU})
endif()
