# SPDX-License-Identifier: MIT
# CMake toolchain for big-endian MIPS32r2 boards without FPU (lantiq xrx200, MIPS 34Kc): soft float, static,
# against the musl sysroot that scripts/cross-build mips builds from Debian's sources
# (scripts/lib/mips-musl-sysroot.sh). Its compiler is NICBENCH_SYSROOT/../tools/mips-linux-musl-gcc.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR mips)

if(NOT NICBENCH_SYSROOT)
  set(NICBENCH_SYSROOT $ENV{NICBENCH_SYSROOT})
endif()
if(NOT NICBENCH_SYSROOT OR NOT EXISTS ${NICBENCH_SYSROOT}/usr/lib/libsoftfp.a)
  message(FATAL_ERROR "mips (soft float) needs the musl sysroot of scripts/cross-build mips "
                      "(-DNICBENCH_SYSROOT=build-mips/sysroot; now: '${NICBENCH_SYSROOT}')")
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES NICBENCH_SYSROOT)
get_filename_component(nb_mips_tools ${NICBENCH_SYSROOT}/../tools ABSOLUTE)
set(CMAKE_C_COMPILER ${nb_mips_tools}/mips-linux-musl-gcc)
set(CMAKE_AR /usr/bin/mips-linux-gnu-ar CACHE FILEPATH "")
set(CMAKE_RANLIB /usr/bin/mips-linux-gnu-ranlib CACHE FILEPATH "")
set(CMAKE_READELF /usr/bin/mips-linux-gnu-readelf CACHE FILEPATH "")
# the compiler's specs give musl's headers and libraries; find_* look in the sysroot only
set(CMAKE_FIND_ROOT_PATH ${NICBENCH_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${NICBENCH_SYSROOT})
set(ENV{PKG_CONFIG_LIBDIR} ${NICBENCH_SYSROOT}/usr/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# ctest runs the binary as the board's CPU would: a 24Kc has no FPU, so a float instruction is SIGILL
find_program(NICBENCH_QEMU qemu-mips-static)
if(NICBENCH_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${NICBENCH_QEMU} -cpu 24Kc)
endif()
