#!/bin/sh
# The Debian packages, installed and removed for real: CPack builds
# vcap-dkms and vcap-tools, dpkg installs them into a disposable copy of
# this system (an overlay over / in a private mount namespace, entered with
# chroot), where vcap-dkms's postinst builds vcap.ko through DKMS for every
# kernel with headers.  Checks every file's place, the library, the man
# pages, the modules and DKMS's state; then dpkg -r and -P, after which
# nothing of vcap may remain in the overlay's upper layer.
# Usage: deb-install.sh BUILD_DIR VERSION
set -u
build=$1 version=$2
fail() { echo "deb-install: FAIL: $*" >&2; exit 1; }
log() { echo "deb-install: $*"; }
[ "$(id -u)" -eq 0 ] || fail "needs root (mount namespace, overlay, chroot)"

if [ -z "${VCAP_DEB_PRIVATE:-}" ]; then
	exec env VCAP_DEB_PRIVATE=1 unshare --mount --propagation private \
		sh "$0" "$build" "$version"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vcap-deb.XXXXXX")
root=$tmp/root
cleanup() {
	umount -R "$root" 2>/dev/null
	umount "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# --- build the packages, into a tmpfs that also holds the overlay ---------
mount -t tmpfs tmpfs "$tmp" && mkdir -p "$tmp/debs" "$tmp/u" "$tmp/w" "$root" ||
	fail "tmpfs"
out=$tmp/debs
(cd "$build" && cpack -G DEB -B "$out" >"$tmp/cpack.log" 2>&1) ||
	{ tail -n 30 "$tmp/cpack.log" >&2; fail "cpack"; }
dkms_deb=$out/vcap-dkms_${version}-1_all.deb
tools_deb=$(ls "$out"/vcap-tools_"${version}"-1_*.deb 2>/dev/null | head -n 1)
[ -f "$dkms_deb" ] || fail "no vcap-dkms package: $(ls "$out")"
[ -n "$tools_deb" ] || fail "no vcap-tools package: $(ls "$out")"
for deb in "$dkms_deb" "$tools_deb"; do
	log "$(dpkg-deb -f "$deb" Package Version Architecture Depends | tr '\n' ' ')"
done
rm -rf "$out/_CPack_Packages"

# --- a disposable copy of this system -------------------------------------
mount -t overlay overlay -o "lowerdir=/,upperdir=$tmp/u,workdir=$tmp/w" "$root" ||
	fail "overlay over /"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mkdir -p "$root/run/vcap-debs"
mount --bind "$tmp/debs" "$root/run/vcap-debs"
in_root() { chroot "$root" /usr/bin/env -i \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

kernels=
for b in "$root"/lib/modules/*/build; do
	[ -f "$b/Makefile" ] || continue
	k=${b%/build}
	kernels="$kernels ${k##*/}"
done
[ -n "$kernels" ] || fail "no kernel headers in /lib/modules"

# --- install ---------------------------------------------------------------
# DKMS compiles with one job: the tests beside this one keep a CPU.
start=$(date +%s)
in_root parallel_jobs=1 dpkg -i /run/vcap-debs/"${dkms_deb##*/}" /run/vcap-debs/"${tools_deb##*/}" \
	>"$tmp/install.log" 2>&1 || { tail -n 40 "$tmp/install.log" >&2; fail "dpkg -i"; }
log "dpkg -i of both packages (DKMS builds for$kernels) in $(($(date +%s) - start))s"

# The build's install prefix: /usr for Debian's layout, /usr/local by
# default.  The library sits in its lib/ or lib/<multiarch>/.
prefix=$(sed -n 's/^set(CPACK_PACKAGING_INSTALL_PREFIX "\(.*\)")$/\1/p' \
	"$build/CPackConfig.cmake")
prefix=${prefix#/}
[ -n "$prefix" ] || fail "no CPACK_PACKAGING_INSTALL_PREFIX in $build/CPackConfig.cmake"
lib=$(in_root dpkg -L vcap-tools | sed -n 's|^/\(.*\)/libvcap\.so\.0$|\1|p')
case $lib in
"$prefix"/lib|"$prefix"/lib/*-linux-gnu) ;;
*) fail "libvcap.so.0 is in '/$lib', not in /$prefix/lib" ;;
esac
dkmsdir=usr/src/vcap-$version
for f in $dkmsdir/dkms.conf $dkmsdir/Kbuild $dkmsdir/vcap-core.c $dkmsdir/vcap-board.c \
	$dkmsdir/common/vcap-format.h $dkmsdir/include/uapi/linux/vcap.h \
	$dkmsdir/include/vcap/board.h \
	$prefix/bin/vcap-stream $prefix/bin/vcap-view $prefix/bin/vcap-fw \
	$lib/libvcap.so.0 $prefix/include/libvcap.h $lib/pkgconfig/libvcap.pc \
	lib/udev/rules.d/60-vcap.rules \
	$prefix/share/man/man1/vcap-stream.1.gz $prefix/share/man/man1/vcap-view.1.gz \
	$prefix/share/man/man1/vcap-fw.1.gz $prefix/share/man/man4/vcap.4.gz; do
	[ -e "$root/$f" ] || [ -L "$root/$f" ] || fail "/$f not installed"
done
grep -q "^PACKAGE_VERSION=\"$version\"" "$root/$dkmsdir/dkms.conf" ||
	fail "dkms.conf does not carry version $version"
in_root dpkg -L vcap-tools >"$tmp/tools.list" || fail "dpkg -L vcap-tools"
log "vcap-tools: $(grep -c . "$tmp/tools.list") paths under /$prefix, library in /$lib; vcap-dkms: $(in_root dpkg -L vcap-dkms | grep -c .) paths"

# The tools run, the library links, pkg-config and man find what they need.
for t in vcap-stream vcap-view vcap-fw; do
	in_root "$t" --help >/dev/null 2>&1 || fail "$t --help does not run"
done
v=$(in_root pkg-config --modversion libvcap) || fail "pkg-config libvcap"
[ "$v" = "$version" ] || fail "pkg-config says libvcap $v"
in_root sh -c 'printf "#include <libvcap.h>\nint main(void){return 0;}\n" |
	cc -x c - -o /tmp/pc-user $(pkg-config --cflags --libs libvcap) &&
	/tmp/pc-user; status=$?; rm -f /tmp/pc-user; exit $status' ||
	fail "a program does not build and run against libvcap through pkg-config"
for p in 1:vcap-stream 1:vcap-view 1:vcap-fw 4:vcap; do
	in_root man -w "${p#*:}" 2>/dev/null | grep -q "man${p%%:*}/${p#*:}.${p%%:*}" ||
		fail "man ${p%%:*} ${p#*:} not found"
done

# DKMS built and installed the module for every kernel, and depmod knows it.
status=$(in_root dkms status -m vcap)
echo "$status" | sed 's/^/    /'
for k in $kernels; do
	echo "$status" | grep -q "^vcap/$version, $k, [^:]*: installed" ||
		fail "vcap not installed by DKMS for $k"
	f=$(in_root modinfo -k "$k" -F filename vcap) || fail "modinfo -k $k vcap"
	case $f in
	/lib/modules/$k/updates/dkms/vcap.ko*) ;;
	*) fail "modprobe would load $f on $k, not the DKMS module" ;;
	esac
done

# --- remove, then purge: nothing of vcap may remain ------------------------
in_root dpkg -r vcap-tools vcap-dkms >"$tmp/remove.log" 2>&1 ||
	{ tail -n 20 "$tmp/remove.log" >&2; fail "dpkg -r"; }
[ -z "$(in_root dkms status -m vcap)" ] || fail "DKMS still knows vcap after dpkg -r"
in_root dpkg -P vcap-tools vcap-dkms >>"$tmp/remove.log" 2>&1 ||
	{ tail -n 20 "$tmp/remove.log" >&2; fail "dpkg -P"; }
for p in vcap-tools vcap-dkms; do
	in_root dpkg -s "$p" >/dev/null 2>&1 && fail "$p still known to dpkg"
done

# What the install left in the upper layer: only files that did not exist
# before, or changed, are there.  Allowed: dpkg's and the system's own
# bookkeeping, and the empty directories of the FHS /usr/local hierarchy
# that a minimal system may lack (dpkg keeps those).  Everything else is a
# leftover.
allowed='^/(var/lib/dpkg/|var/log/|var/cache/(man|debconf|ldconfig)/|etc/ld\.so\.cache$|var/lib/dkms/mok\.(key|pub)$|(usr/)?lib/modules/[^/]+/modules\.[a-z.]+$|run/vcap-debs$|root/\.cache/|usr/local/(include|share/man)$)'
left=$(cd "$tmp/u" && find . -mindepth 1 ! -type d | sed 's/^\.//' | grep -Ev "$allowed")
newdirs=$(cd "$tmp/u" && find . -mindepth 1 -type d | sed 's/^\.//' |
	while read -r d; do [ -e "$d" ] || echo "$d"; done | grep -Ev "$allowed")
[ -z "$left$newdirs" ] || fail "left behind after dpkg -P:
$left
$newdirs"
# depmod ran again on removal: its indexes must not know vcap any more.
stale=$(cd "$tmp/u" && find . -path '*/modules/*/modules.*' -type f | xargs -r grep -l vcap)
[ -z "$stale" ] || fail "module indexes still name vcap: $stale"
vcap=$(cd "$tmp/u" && find . -name '*vcap*' | sed 's/^\.//' | grep -v '^/run/vcap-debs$')
[ -z "$vcap" ] || fail "vcap files left behind: $vcap"
log "dpkg -r and -P left nothing behind"
