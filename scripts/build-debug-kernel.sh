#!/bin/sh
# Builds (once) the debug kernel vcap's tests run on: the newest kernel
# source Debian ships (linux-source-X.Y in the trixie chroot that
# scripts/install-chroot.sh made), configured as allnoconfig plus
# tests/vm/debug-kernel.config (lockdep, KASAN, kmemleak, debug objects,
# DMA-API debugging, UBSAN bounds), and installs it into that chroot as
# kernel <version>-vcap-debug, where scripts/kernels.sh finds it.
#
# The build is cached in the chroot, keyed by the source package's version
# and the fragment: a second run with both unchanged does nothing.
# Usage: build-debug-kernel.sh [--cached] [SUITE]       (default trixie)
# With --cached it builds nothing and exits 0 when the build is cached.
set -eu

cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = --cached ]; then
	check=1
	shift
fi
suite=${1:-trixie}
CHROOTS=${VCAP_CHROOTS:-/var/cache/vcap/chroots}
root=$CHROOTS/$suite
fragment=$(pwd)/tests/vm/debug-kernel.config
jobs=${VCAP_KERNEL_JOBS:-$(nproc)}

log() { printf 'build-debug-kernel: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root"
[ -f "$root/.vcap-chroot" ] || die "no chroot in $root: run scripts/install-chroot.sh $suite"

tarball=$(ls "$root"/usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
[ -n "$tarball" ] || die "no linux-source tarball in $root/usr/src"
pkg=$(basename "$tarball" .tar.xz)
srcver=$(chroot "$root" dpkg-query -W -f '${Version}' "$pkg") ||
	die "$pkg is not installed in the chroot"
key=$(printf '%s\n' "$srcver" | cat - "$fragment" | sha256sum | cut -c1-16)
work=/usr/src/vcap-debug-$key
stamp=$root$work/.vcap-installed

if [ -f "$stamp" ]; then
	[ "$check" -eq 1 ] || log "cached: $(cat "$stamp") ($pkg $srcver, key $key)"
	exit 0
fi
[ "$check" -eq 0 ] || exit 1

# Older builds go: one debug kernel at a time.
for old in "$root"/usr/src/vcap-debug-*; do
	[ "$old" = "$root$work" ] || rm -rf "$old"
done

# In a private mount namespace with the chroot's own /proc (objtool
# reads its limits there).
in_chroot() {
	unshare --mount --propagation private sh -c '
		root=$1; shift
		mount -t proc proc "$root/proc" &&
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			LC_ALL=C.UTF-8 HOME=/root "$@"' sh "$root" "$@"
}

start=$(date +%s)
if [ ! -f "$root$work/src/Makefile" ]; then
	log "unpacking $pkg $srcver"
	rm -rf "$root$work"
	mkdir -p "$root$work/src"
	tar -xJf "$tarball" -C "$root$work/src" --strip-components=1 ||
		die "cannot unpack $tarball"
fi
cp "$fragment" "$root$work/debug.config"

log "configuring: allnoconfig + $(basename "$fragment")"
in_chroot make -s -C "$work/src" O="$work/out" \
	KCONFIG_ALLCONFIG="$work/debug.config" allnoconfig >/dev/null ||
	die "allnoconfig failed"

# Every line of the fragment must have survived: a symbol Kconfig
# dropped for a missing dependency is a debug check silently lost.
missing=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$fragment" | while read -r line; do
	grep -qxF "$line" "$root$work/out/.config" || echo "$line"
done)
[ -z "$missing" ] || die "not set in the configured kernel (a dependency is missing):
$missing"

log "building bzImage and modules with $jobs jobs"
in_chroot make -s -C "$work/src" O="$work/out" -j"$jobs" bzImage modules \
	>"$root$work/build.log" 2>&1 ||
	{ tail -n 40 "$root$work/build.log" >&2; die "kernel build failed"; }

rel=$(cat "$root$work/out/include/config/kernel.release")
case $rel in
*-vcap-debug) ;;
*) die "unexpected release '$rel'" ;;
esac
rm -rf "$root/lib/modules/$rel"
in_chroot make -s -C "$work/src" O="$work/out" INSTALL_MOD_STRIP=1 \
	DEPMOD=/sbin/depmod modules_install >/dev/null ||
	die "modules_install failed"
ln -sfn "$work/out" "$root/lib/modules/$rel/build"
cp "$root$work/out/arch/x86/boot/bzImage" "$root/boot/vmlinuz-$rel"
cp "$root$work/out/.config" "$root/boot/config-$rel"
cp "$root$work/out/System.map" "$root/boot/System.map-$rel"

# Only what an out-of-tree build needs stays: the objects go.
find "$root$work/out" -name '*.o' -delete
echo "$rel" >"$stamp"
log "built $rel ($pkg $srcver, key $key) in $(($(date +%s) - start)) s"
