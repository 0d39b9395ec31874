# SPDX-License-Identifier: MIT
# CMake toolchain for 64-bit Arm boards (RZ/G2L, RZ/G2UL, RZ/G3S) with Debian's cross gcc and arm64 multiarch -dev packages.
# Usage: cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake -DNICBENCH_STATIC=ON
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(NICBENCH_CROSS_TRIPLET aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${NICBENCH_CROSS_TRIPLET}-gcc)
# Debian's cross gcc already searches /usr/lib/aarch64-linux-gnu and /usr/include/aarch64-linux-gnu;
# the architecture tells find_library() to look there and never in the host's x86_64 directory.
set(CMAKE_LIBRARY_ARCHITECTURE ${NICBENCH_CROSS_TRIPLET})
# pkgconf's triplet wrapper reads only the arm64 .pc files.
set(PKG_CONFIG_EXECUTABLE /usr/bin/${NICBENCH_CROSS_TRIPLET}-pkg-config CACHE FILEPATH "pkg-config for ${NICBENCH_CROSS_TRIPLET}")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

# Lets ctest and add_test() run target binaries on the build machine through qemu-user.
find_program(NICBENCH_QEMU qemu-aarch64-static)
if(NICBENCH_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${NICBENCH_QEMU})
endif()
