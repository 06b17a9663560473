#!/bin/sh
# Builds v4l2loopback, the comparison driver, from Debian's source package
# (v4l2loopback-source) against one kernel's headers, in the build tree.
#
# usage: build-v4l2loopback.sh KERNEL_RELEASE OUT_DIR
# Prints the path of v4l2loopback.ko; fails (with the compiler's last
# lines) where that source does not build for the kernel.
set -u
kver=$1
out=$(mkdir -p "$2" && cd "$2" && pwd) || exit 1
tarball=/usr/src/v4l2loopback.tar.bz2
kdir=/lib/modules/$kver/build

[ -f "$tarball" ] || {
	echo "build-v4l2loopback: $tarball missing: apt-get install v4l2loopback-source" >&2
	exit 1
}
[ -f "$kdir/Makefile" ] || {
	echo "build-v4l2loopback: no headers for $kver in $kdir" >&2
	exit 1
}
src=$out/src
if [ ! -f "$out/v4l2loopback.ko" ] || [ "$tarball" -nt "$out/v4l2loopback.ko" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	tar -xjf "$tarball" -C "$src" || exit 1
	mdir=$(dirname "$(find "$src" -name v4l2loopback.c | head -n 1)")
	[ -f "$mdir/v4l2loopback.c" ] || {
		echo "build-v4l2loopback: no v4l2loopback.c in $tarball" >&2
		exit 1
	}
	if ! make -C "$kdir" M="$mdir" modules >"$out/build.log" 2>&1; then
		echo "build-v4l2loopback: does not build for $kver:" >&2
		grep -m 5 -E 'error|Error' "$out/build.log" >&2
		exit 1
	fi
	cp "$mdir/v4l2loopback.ko" "$out/v4l2loopback.ko" || exit 1
fi
echo "$out/v4l2loopback.ko"
