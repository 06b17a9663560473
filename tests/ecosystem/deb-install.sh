#!/bin/sh
# The Debian packages, installed and removed for real: CPack builds
# vcap-dkms and vcap-tools, dpkg installs them into a disposable copy of a
# Debian system (an overlay over ROOT in a private mount namespace, entered
# with chroot), where vcap-dkms's postinst builds vcap.ko through DKMS for
# every kernel with headers in that system.  Checks every file's place, the
# library, the man pages, the modules and DKMS's state; then dpkg -r and -P,
# after which nothing of vcap may remain in the overlay's upper layer.
# ROOT is / (this system) by default, or the root directory of another
# Debian release, such as a chroot made by scripts/install-chroot.sh.
# There only vcap-dkms is installed: vcap-tools is built against this
# system's libraries, for this release only.
# Usage: deb-install.sh BUILD_DIR VERSION [ROOT]
set -u
fail() { echo "deb-install: FAIL: $*" >&2; exit 1; }
log() { echo "deb-install: $*"; }
[ $# -ge 2 ] && [ $# -le 3 ] || fail "usage: deb-install.sh BUILD_DIR VERSION [ROOT]"
build=$1 version=$2 lower=${3:-/}
[ -d "$lower" ] || fail "ROOT $lower is not a directory"
lower=$(cd "$lower" && pwd -P) || fail "ROOT $lower cannot be entered"
for f in etc/os-release var/lib/dpkg/status usr/bin/dpkg usr/bin/env; do
	[ -e "$lower/$f" ] || fail "ROOT $lower is not a Debian system: no /$f"
done
[ "$(sed -n 's/^ID=//p' "$lower/etc/os-release" | tr -d '"')" = debian ] ||
	fail "ROOT $lower is not a Debian system: $lower/etc/os-release has no ID=debian"
release=$(sed -n 's/^VERSION_CODENAME=//p' "$lower/etc/os-release" | tr -d '"')
[ -n "$release" ] || fail "$lower/etc/os-release has no VERSION_CODENAME"
[ "$(id -u)" -eq 0 ] || fail "needs root (mount namespace, overlay, chroot)"

if [ -z "${VCAP_DEB_PRIVATE:-}" ]; then
	exec env VCAP_DEB_PRIVATE=1 unshare --mount --propagation private \
		sh "$0" "$build" "$version" "$lower"
fi
log "Debian $release in $lower"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vcap-deb.XXXXXX")
root=$tmp/root
# The copy holds bind mounts of /dev and /dev/pts: everything is detached
# (lazily, should a package script have left a process behind) before
# anything is removed, and the removal never crosses into another file
# system, so that it can never reach the system's own /dev.
cleanup() {
	umount -R -l "$root" 2>/dev/null
	umount -l "$tmp" 2>/dev/null
	rm -rf --one-file-system "$tmp"
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

# --- a disposable copy of the system --------------------------------------
# Overlay over ROOT; the kernel's file systems are mounted inside the copy
# as on a booted system, since dkms, kmod and dpkg's scripts use them.  The
# host's /dev and /sys are read-only there: their devices work, but no file
# in them can be removed or created from inside; /dev/shm is the copy's own.
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$tmp/u,workdir=$tmp/w" "$root" ||
	fail "overlay over $lower"
{ mount -t proc proc "$root/proc" &&
	mount -t sysfs -o ro sysfs "$root/sys" &&
	mount --bind /dev "$root/dev" && mount -o remount,bind,ro "$root/dev" &&
	mount --bind /dev/pts "$root/dev/pts" &&
	mount -t tmpfs tmpfs "$root/dev/shm"; } ||
	fail "mounting /proc, /sys, /dev, /dev/pts and /dev/shm in the overlay over $lower"
mkdir -p "$root/run/vcap-debs"
mount --bind "$tmp/debs" "$root/run/vcap-debs"
in_root() { chroot "$root" /usr/bin/env -i \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

# The kernels with headers, seen from inside: their build links may be
# absolute, meaningful only within the system they belong to.
kernels=$(in_root sh -c 'for b in /lib/modules/*/build; do
	[ -f "$b/Makefile" ] || continue
	k=${b%/build}
	printf " %s" "${k##*/}"
done')
[ -n "$kernels" ] || fail "no kernel headers in /lib/modules of $release"

# This system gets both packages, another release vcap-dkms only.
pkgs=vcap-dkms debs=/run/vcap-debs/${dkms_deb##*/}
if [ "$lower" = / ]; then
	pkgs="vcap-tools vcap-dkms" debs="$debs /run/vcap-debs/${tools_deb##*/}"
fi

# --- install ---------------------------------------------------------------
# DKMS compiles with one job: the tests beside this one keep a CPU.
start=$(date +%s)
in_root parallel_jobs=1 dpkg -i $debs \
	>"$tmp/install.log" 2>&1 || { tail -n 40 "$tmp/install.log" >&2; fail "dpkg -i on $release"; }
log "dpkg -i of $pkgs on $release (DKMS builds for$kernels) in $(($(date +%s) - start))s"

dkmsdir=usr/src/vcap-$version
for f in dkms.conf Kbuild vcap-core.c vcap-board.c common/vcap-format.h \
	include/uapi/linux/vcap.h include/vcap/board.h; do
	[ -e "$root/$dkmsdir/$f" ] || fail "/$dkmsdir/$f not installed"
done
grep -q "^PACKAGE_VERSION=\"$version\"" "$root/$dkmsdir/dkms.conf" ||
	fail "dkms.conf does not carry version $version"
log "vcap-dkms: $(in_root dpkg -L vcap-dkms | grep -c .) paths"

if [ "$lower" = / ]; then
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
	for f in $prefix/bin/vcap-stream $prefix/bin/vcap-view $prefix/bin/vcap-fw \
		$lib/libvcap.so.0 $prefix/include/libvcap.h $lib/pkgconfig/libvcap.pc \
		lib/udev/rules.d/60-vcap.rules \
		$prefix/share/man/man1/vcap-stream.1.gz $prefix/share/man/man1/vcap-view.1.gz \
		$prefix/share/man/man1/vcap-fw.1.gz $prefix/share/man/man4/vcap.4.gz; do
		[ -e "$root/$f" ] || [ -L "$root/$f" ] || fail "/$f not installed"
	done
	in_root dpkg -L vcap-tools >"$tmp/tools.list" || fail "dpkg -L vcap-tools"
	log "vcap-tools: $(grep -c . "$tmp/tools.list") paths under /$prefix, library in /$lib"

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
fi

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
in_root dpkg -r $pkgs >"$tmp/remove.log" 2>&1 ||
	{ tail -n 20 "$tmp/remove.log" >&2; fail "dpkg -r"; }
[ -z "$(in_root dkms status -m vcap)" ] || fail "DKMS still knows vcap after dpkg -r"
in_root dpkg -P $pkgs >>"$tmp/remove.log" 2>&1 ||
	{ tail -n 20 "$tmp/remove.log" >&2; fail "dpkg -P"; }
for p in $pkgs; do
	in_root dpkg -s "$p" >/dev/null 2>&1 && fail "$p still known to dpkg"
done

# What the install left in the upper layer: only files that did not exist
# in ROOT before, or changed, are there.  Allowed: dpkg's and the system's
# own bookkeeping, the module indexes depmod rewrites (checked below), the
# signing key DKMS makes at its first build, and the empty directories of
# the FHS /usr/local hierarchy that a minimal system may lack (dpkg keeps
# those).  Another release installs vcap-dkms only and so leaves a subset
# of this.  Everything else is a leftover.
allowed='^/(var/lib/dpkg/|var/log/|var/cache/(man|debconf|ldconfig)/|etc/ld\.so\.cache$|var/lib/dkms/mok\.(key|pub)$|(usr/)?lib/modules/[^/]+/modules\.[a-z.]+$|run/vcap-debs$|root/\.cache/|usr/local/(include|share/man)$)'
left=$(cd "$tmp/u" && find . -mindepth 1 ! -type d | sed 's/^\.//' | grep -Ev "$allowed")
newdirs=$(cd "$tmp/u" && find . -mindepth 1 -type d | sed 's/^\.//' |
	while read -r d; do [ -e "$lower$d" ] || [ -L "$lower$d" ] || echo "$d"; done | grep -Ev "$allowed")
[ -z "$left$newdirs" ] || fail "left behind after dpkg -P:
$left
$newdirs"
# depmod ran again on removal: its indexes must not know vcap any more.
stale=$(cd "$tmp/u" && find . -path '*/modules/*/modules.*' -type f | xargs -r grep -l vcap)
[ -z "$stale" ] || fail "module indexes still name vcap: $stale"
# A kernel's own directory whose release names vcap (the debug kernel's)
# is in the upper layer for its rewritten indexes, not as a leftover.
vcap=$(cd "$tmp/u" && find . -name '*vcap*' | sed 's/^\.//' | grep -v '^/run/vcap-debs$' |
	while read -r f; do
		[ -d "$tmp/u$f" ] && [ -d "$lower$f" ] && continue
		echo "$f"
	done)
[ -z "$vcap" ] || fail "vcap files left behind: $vcap"
log "dpkg -r and -P left nothing behind on $release"
