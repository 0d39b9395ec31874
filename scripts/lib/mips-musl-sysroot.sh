# shellcheck shell=bash
# SPDX-License-Identifier: MIT
# A soft-float musl sysroot for big-endian MIPS32r2 (lantiq xrx200, a 34Kc without FPU), built from Debian
# 12's source packages with Debian's gcc-mips-linux-gnu (sourced by scripts/cross-build, not run).
#
# Debian's mips toolchain is hard-float: its libgcc.a's __adddf3 is one add.d (the routine exists only for
# MIPS16 code), and glibc is built hard-float. So:
#   libc       musl 1.2.3 (Debian's source, its patches applied), -msoft-float: musl's mips-sf variant;
#   soft float libsoftfp.a: glibc 2.36's soft-fp routines (__adddf3, __muldf3, __fixdfdi, ...; the
#              glibc-source package, LGPL with the linking exception) for MIPS32 (glibc's mips32 sfp-machine.h);
#   libgcc     Debian's libgcc.a without its 200 members that hold FPU instructions (the float routines, the
#              MIPS16 stubs, fixed-point/float conversions), and libatomic.a: both integer-only code, their
#              "hard float" ABI tags stripped so the link's result says soft float;
#   headers    the kernel's UAPI headers of linux-libc-dev-mips-cross;
#   libraries  jansson 2.14, libnl3 3.7.0, libpcap 1.10.3 (Debian's sources), static, built with the above.
# Not built: iperf3 (libiperf), libtraceevent, libtracefs: this machine's mirror answers 404 for their
# sources. nicbench then runs the board's iperf3 program (traffic_backend iperf3) and has no tracepoints.
# The compiler is build-mips/tools/mips-linux-musl-gcc: gcc with a specs file that points it at the sysroot.
#
# mips_musl_sysroot BUILD_DIR: leaves BUILD_DIR/sysroot and BUILD_DIR/tools; a stamp skips it next time.
# Needs private_apt, fetch_failed, say and debian_mirror_find from scripts/cross-build.
# shellcheck disable=SC2154  # debian_mirror and debian_mirror_error are set by debian_mirror_find

mips_musl_sources="musl jansson libnl3 libpcap"
mips_musl_debs="glibc-source linux-libc-dev-mips-cross"

# The FPU's instructions as objdump prints them: a 24Kc/34Kc without FPU traps on every one (SIGILL).
mips_fpu_insn_re='[[:space:]]((add|sub|mul|div|abs|neg|mov|sqrt|recip|rsqrt|madd|msub|nmadd|nmsub)\.(s|d|ps)|(cvt|round|trunc|ceil|floor)\.[a-z]+\.[a-z]+|c\.[a-z]+\.(s|d)|mtc1|mfc1|mthc1|mfhc1|lwc1|ldc1|swc1|sdc1|cfc1|ctc1|lwxc1|ldxc1|swxc1|sdxc1|luxc1|suxc1|bc1t|bc1f|bc1tl|bc1fl|movt|movf|movt\.[sd]|movf\.[sd]|movz\.[sd]|movn\.[sd])[[:space:]]'

# mips_fpu_insn_count FILE: how many FPU instructions FILE's code holds (an object, an archive, a binary).
mips_fpu_insn_count() {
	mips-linux-gnu-objdump -d "$1" 2>/dev/null | grep -cE "$mips_fpu_insn_re" || true
}

# Download the sources (deb-src, in a private apt's sources that are removed afterwards) and the two
# binary packages that carry glibc's soft-fp and the kernel headers.
_mips_musl_fetch() {
	local dir=$1 signed="signed-by=/usr/share/keyrings/debian-archive-keyring.gpg"

	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/src"
	: >"$dir/status"
	if ! debian_mirror_find; then
		say "fetching Debian 12 sources: $debian_mirror_error"
		exit 4
	fi
	{
		echo "deb [arch=amd64 $signed] $debian_mirror bookworm main"
		echo "deb-src [$signed] $debian_mirror bookworm main"
	} >"$dir/sources.list"
	private_apt "$dir" amd64 apt-get update -qq || fetch_failed "Debian 12 source lists"
	# shellcheck disable=SC2086
	(cd "$dir/src" && private_apt "$dir" amd64 apt-get source --download-only -qq $mips_musl_sources &&
		private_apt "$dir" amd64 apt-get download -qq $mips_musl_debs) ||
		fetch_failed "Debian 12 sources: $mips_musl_sources, $mips_musl_debs"
	# the deb-src line was for this download only
	rm -f "$dir/sources.list"
	rm -rf "$dir/lists"
}

_mips_musl_unpack() {
	local dir=$1 work=$2 p

	rm -rf "$work" && mkdir -p "$work/debs"
	for p in $mips_musl_sources; do
		# apt checked the .dsc against the signed index; dpkg-source's own signature check has no keyring here
		(cd "$work" && dpkg-source --no-check -x "$dir/src/${p}"_*.dsc >/dev/null) || { say "unpack $p"; exit 1; }
	done
	for p in $mips_musl_debs; do
		dpkg-deb -x "$dir/src/${p}"_*.deb "$work/debs"
	done
	tar -xJf "$work"/debs/usr/src/glibc/glibc-*.tar.xz -C "$work" --wildcards 'glibc-*/soft-fp/*' \
		'glibc-*/sysdeps/mips/mips32/sfp-machine.h' 'glibc-*/stdlib/longlong.h'
}

_mips_musl_libc() {
	local work=$1 sysroot=$2 jobs=$3

	say "musl (soft float) into $sysroot"
	(cd "$work"/musl-* && CC=mips-linux-gnu-gcc CFLAGS="-O2 -msoft-float -march=mips32r2" \
		./configure --prefix=/usr --target=mips-linux-musl --disable-shared >configure.log &&
		grep -q 'configured for mips variant: mips-sf' configure.log &&
		make -j"$jobs" AR=mips-linux-gnu-ar RANLIB=mips-linux-gnu-ranlib >make.log 2>&1 &&
		make install DESTDIR="$sysroot" AR=mips-linux-gnu-ar RANLIB=mips-linux-gnu-ranlib >>make.log 2>&1) ||
		{ say "musl build failed: $(echo "$work"/musl-*)/make.log"; exit 1; }
	# the kernel's UAPI headers beside musl's
	cp -r "$work"/debs/usr/mips-linux-gnu/include/. "$sysroot/usr/include/"
}

# libsoftfp.a: the soft-float routines gcc -msoft-float calls, from glibc's soft-fp.
_mips_musl_softfp() {
	local work=$1 sysroot=$2 out f
	local fns="add sub mul div"

	out=$work/softfp
	mkdir -p "$out"
	cp "$work"/glibc-*/sysdeps/mips/mips32/sfp-machine.h "$out/mips32-sfp-machine.h"
	cp "$work"/glibc-*/stdlib/longlong.h "$out/"
	cat >"$out/sfp-machine.h" <<-'EOF'
		/* Generated by scripts/lib/mips-musl-sysroot.sh: glibc's MIPS32 sfp-machine.h outside glibc. */
		#define __BYTE_ORDER __BYTE_ORDER__
		#define __LITTLE_ENDIAN __ORDER_LITTLE_ENDIAN__
		#define __BIG_ENDIAN __ORDER_BIG_ENDIAN__
		#define strong_alias(name, aliasname) extern __typeof (name) aliasname __attribute__ ((alias (#name)));
		#include "mips32-sfp-machine.h"
	EOF
	local srcs=""
	for m in sf df; do
		for f in $fns; do srcs="$srcs ${f}${m}3"; done
		srcs="$srcs neg${m}2 eq${m}2 ge${m}2 le${m}2 unord${m}2 fix${m}si fix${m}di fixuns${m}si fixuns${m}di"
		srcs="$srcs floatsi${m} floatdi${m} floatunsi${m} floatundi${m}"
	done
	srcs="$srcs extendsfdf2 truncdfsf2"
	for f in $srcs; do
		mips-linux-gnu-gcc -O2 -msoft-float -march=mips32r2 -ffreestanding -I"$out" -I"$(echo "$work"/glibc-*/soft-fp)" \
			-c "$(echo "$work"/glibc-*/soft-fp)/$f.c" -o "$out/$f.o" || { say "soft-fp $f.c failed"; exit 1; }
	done
	rm -f "$sysroot/usr/lib/libsoftfp.a"
	mips-linux-gnu-ar rcs "$sysroot/usr/lib/libsoftfp.a" "$out"/*.o
}

# libgcc-int.a and libatomic.a: Debian's, less every member with FPU code, ABI tags stripped.
_mips_musl_libgcc() {
	local work=$1 sysroot=$2 lib o dropped
	local gccdir
	gccdir=$(dirname "$(mips-linux-gnu-gcc -print-libgcc-file-name)")

	for lib in libgcc libatomic; do
		rm -rf "${work:?}/$lib" && mkdir -p "$work/$lib"
		(cd "$work/$lib" && mips-linux-gnu-ar x "$gccdir/$lib.a")
		dropped=0
		for o in "$work/$lib"/*.o; do
			if [ "$(mips_fpu_insn_count "$o")" != 0 ]; then
				rm -f "$o"
				dropped=$((dropped + 1))
			else
				mips-linux-gnu-objcopy --remove-section=.gnu.attributes --remove-section=.MIPS.abiflags "$o"
			fi
		done
		local name=$lib
		[ "$lib" = libgcc ] && name=libgcc-int
		rm -f "$sysroot/usr/lib/$name.a"
		mips-linux-gnu-ar rcs "$sysroot/usr/lib/$name.a" "$work/$lib"/*.o
		say "$name.a: Debian's $lib.a less $dropped members with FPU instructions"
	done
}

# The compiler: gcc with specs that swap glibc, its crt files and the hard-float libgcc for the sysroot's.
_mips_musl_compiler() {
	local sysroot=$1 tools=$2 gccinc

	gccinc=$(mips-linux-gnu-gcc -print-file-name=include)
	mkdir -p "$tools"
	cat >"$tools/musl.specs" <<-EOF
		%rename cpp_options old_cpp_options

		*cpp_options:
		-nostdinc -isystem $sysroot/usr/include -isystem $gccinc %(old_cpp_options)

		*cc1:
		%(cc1_cpu) -nostdinc -isystem $sysroot/usr/include -isystem $gccinc

		*link_libgcc:
		-L$sysroot/usr/lib

		*libgcc:
		-lsoftfp -lgcc-int -latomic

		*startfile:
		$sysroot/usr/lib/crt1.o $sysroot/usr/lib/crti.o

		*endfile:
		$sysroot/usr/lib/crtn.o

		*link:
		-nostdlib -static %{rdynamic:-export-dynamic}

	EOF
	cat >"$tools/mips-linux-musl-gcc" <<-EOF
		#!/bin/sh
		# gcc for big-endian MIPS32r2, soft float, static against the musl sysroot (scripts/lib/mips-musl-sysroot.sh)
		exec mips-linux-gnu-gcc -march=mips32r2 -msoft-float -static -specs "$tools/musl.specs" "\$@"
	EOF
	chmod +x "$tools/mips-linux-musl-gcc"
	local t
	for t in ar ranlib nm strip objdump readelf; do ln -sfn "/usr/bin/mips-linux-gnu-$t" "$tools/mips-linux-musl-$t"; done
}

# jansson, libnl3 and libpcap: static, installed into the sysroot with their .pc files.
_mips_musl_libraries() {
	local work=$1 sysroot=$2 tools=$3 jobs=$4 p
	local conf=(--host=mips-linux-musl --prefix=/usr --enable-static --disable-shared)
	local noregen=(ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true)

	# jansson's Debian source has no configure script: its CMake build
	say "jansson (static) into $sysroot"
	(cd "$work"/jansson-* && cmake -S . -B nb-build -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=mips \
		-DCMAKE_C_COMPILER="$tools/mips-linux-musl-gcc" -DCMAKE_AR=/usr/bin/mips-linux-gnu-ar \
		-DCMAKE_RANLIB=/usr/bin/mips-linux-gnu-ranlib -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
		-DCMAKE_INSTALL_LIBDIR=lib -DJANSSON_BUILD_SHARED_LIBS=OFF -DJANSSON_WITHOUT_TESTS=ON \
		-DJANSSON_EXAMPLES=OFF -DJANSSON_BUILD_DOCS=OFF >build.log 2>&1 &&
		cmake --build nb-build -j"$jobs" >>build.log 2>&1 &&
		DESTDIR="$sysroot" cmake --install nb-build >>build.log 2>&1) ||
		{ say "jansson build failed: $(echo "$work"/jansson-*)/build.log"; exit 1; }
	for p in libnl3 libpcap; do
		local extra=() targets=()
		case $p in
		libnl3) extra=(--disable-cli --disable-debug) ;;
		# its "all" links libpcap.so whatever --disable-shared says
		libpcap) targets=(libpcap.a libpcap.pc pcap-config) extra=(--disable-dbus --disable-rdma --disable-bluetooth --disable-usb --without-libnl
			--without-dag --without-septel --without-snf --without-turbocap --disable-remote) ;;
		esac
		say "$p (static) into $sysroot"
		# shellcheck disable=SC2086
		# Debian's patches leave Makefile.am newer than Makefile.in: the shipped autotools output is used as is
		(cd "$work"/$p-* && PATH="$tools:$PATH" CC=mips-linux-musl-gcc CFLAGS="-O2" \
			./configure "${conf[@]}" "${extra[@]}" >build.log 2>&1 &&
			PATH="$tools:$PATH" make -j"$jobs" "${noregen[@]}" "${targets[@]}" >>build.log 2>&1 &&
			PATH="$tools:$PATH" make install DESTDIR="$sysroot" "${noregen[@]}" >>build.log 2>&1) ||
			{ say "$p build failed: $(echo "$work"/$p-*)/build.log"; exit 1; }
	done
	# the .pc files name /usr: pkg-config prefixes them with the sysroot (cmake/toolchain-mips-linux-musl.cmake)
	rm -f "$sysroot"/usr/lib/*.la
}

mips_musl_sysroot() {
	local build=$1 sysroot=$1/sysroot tools=$1/tools work=$1/src stamp jobs
	jobs=$(nproc)
	stamp="musl-softfloat 1: $mips_musl_sources $mips_musl_debs"
	if [ "$(cat "$build/.sysroot-stamp" 2>/dev/null)" = "$stamp" ] && [ -x "$tools/mips-linux-musl-gcc" ]; then
		return 0
	fi
	rm -rf "$sysroot" "$tools"
	mkdir -p "$sysroot/usr/lib" "$sysroot/usr/include"
	say "fetching Debian 12 sources of $mips_musl_sources"
	_mips_musl_fetch "$build/apt-src"
	_mips_musl_unpack "$build/apt-src" "$work"
	_mips_musl_libc "$work" "$sysroot" "$jobs"
	_mips_musl_softfp "$work" "$sysroot"
	_mips_musl_libgcc "$work" "$sysroot"
	_mips_musl_compiler "$sysroot" "$tools"
	_mips_musl_libraries "$work" "$sysroot" "$tools" "$jobs"
	echo "$stamp" >"$build/.sysroot-stamp"
}
