#!/bin/sh
# Installs every build and test dependency of vcap from Debian's archive.
#
# Idempotent: packages already present are left alone and the private
# v4l-utils prefix is unpacked only once.  Needs root on Debian 12.
set -eu

V4L_PREFIX=${VCAP_V4L_PREFIX:-/opt/vcap/v4l-utils-trixie}
CHECKPATCH_DIR=${VCAP_CHECKPATCH_DIR:-/opt/vcap/checkpatch}
STAMP=/var/lib/vcap-deps.stamp
DEPS_VERSION=9
CHROOTS=${VCAP_CHROOTS:-/var/cache/vcap/chroots}

log() { printf 'install-deps: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (apt-get install)"
[ -r /etc/debian_version ] || die "needs a Debian 12 (bookworm) system"

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$DEPS_VERSION" ] &&
   [ -x "$V4L_PREFIX/usr/bin/v4l2-compliance" ] &&
   [ -f "$CHECKPATCH_DIR/.source" ] &&
   dpkg -s gcc-multilib debootstrap >/dev/null 2>&1 &&
   [ -f "$CHROOTS/trixie/.vcap-chroot" ] &&
   ls /lib/modules/6.1*/build /lib/modules/6.12*[0-9]-amd64/build \
	/lib/modules/6.12*-rt-amd64/build >/dev/null 2>&1; then
	log "all dependencies present"
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
APT="apt-get -y -q -o Dpkg::Options::=--force-confold"

# bookworm-backports carries the 6.12 LTS kernel, generic and PREEMPT_RT;
# trixie is listed at priority 1 only so that its newer v4l-utils can be
# downloaded.
SRC=/etc/apt/sources.list.d/vcap.sources
if [ ! -f "$SRC" ]; then
	cat >"$SRC" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
	cat >/etc/apt/preferences.d/vcap-trixie <<'PREFS'
Package: *
Pin: release n=trixie
Pin-Priority: 1
PREFS
fi

log "updating package lists"
$APT update >/dev/null

log "installing build and test packages"
$APT install --no-install-recommends \
	build-essential cmake pkg-config git kmod cpio xz-utils zstd dkms man-db udev \
	ffmpeg gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-plugins-base \
	gcc-multilib qemu-system-x86 busybox-static v4l-utils sparse socat netpbm xauth \
	libsdl2-dev libdrm-dev libpng-dev xvfb gnuplot-nox v4l2loopback-source \
	debootstrap linux-image-amd64 linux-headers-amd64 >/dev/null

# Keep the 6.1 kernel when the metapackages move on to 6.12.
for p in $(dpkg-query -W -f '${Package}\n' 'linux-image-6.1*' 'linux-headers-6.1*' 2>/dev/null); do
	apt-mark manual "$p" >/dev/null
done

log "installing the 6.12 kernels (generic and PREEMPT_RT) from bookworm-backports"
$APT install --no-install-recommends -t bookworm-backports \
	linux-image-amd64 linux-headers-amd64 \
	linux-image-rt-amd64 linux-headers-rt-amd64 >/dev/null

ls -d /lib/modules/6.1*/build >/dev/null 2>&1 || die "6.1 kernel headers missing"
ls -d /lib/modules/6.12*[0-9]-amd64/build >/dev/null 2>&1 ||
	die "6.12 kernel headers missing"
ls -d /lib/modules/6.12*-rt-amd64/build >/dev/null 2>&1 ||
	die "6.12 PREEMPT_RT kernel headers missing"
ls /boot/vmlinuz-6.12*-rt-amd64 >/dev/null 2>&1 ||
	die "6.12 PREEMPT_RT kernel image missing from /boot"

if [ ! -x "$V4L_PREFIX/usr/bin/v4l2-compliance" ]; then
	log "unpacking v4l-utils 1.30 (trixie) into $V4L_PREFIX"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -q \
		v4l-utils/trixie libv4l-0t64/trixie libv4lconvert0t64/trixie \
		libv4l2rds0t64/trixie libc6/trixie libgcc-s1/trixie \
		libstdc++6/trixie libudev1/trixie libjpeg62-turbo/trixie \
		libcap2/trixie >/dev/null)
	mkdir -p "$V4L_PREFIX"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$V4L_PREFIX"
	done
	[ -x "$V4L_PREFIX/usr/bin/v4l2-compliance" ] ||
		die "v4l2-compliance 1.30 missing after unpack"
fi

# The newest kernels, 7.x from trixie-backports, with the compiler and C
# library their headers need: in a trixie chroot, as a DKMS user there
# builds.
sh "$(dirname "$0")/install-chroot.sh" trixie

# checkpatch.pl ships only inside the kernel source tarball: the newest
# one, in the trixie chroot.
tarball=$(ls "$CHROOTS"/trixie/usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
[ -f "$tarball" ] || die "no linux-source tarball in the trixie chroot"
top=$(basename "$tarball" .tar.xz)
if [ "$(cat "$CHECKPATCH_DIR/.source" 2>/dev/null)" != "$top" ]; then
	log "extracting checkpatch.pl from $top"
	rm -rf "$CHECKPATCH_DIR"
	mkdir -p "$CHECKPATCH_DIR"
	tar -xJf "$tarball" -C "$CHECKPATCH_DIR" --strip-components=1 \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch" "$top/.clang-format"
	[ -f "$CHECKPATCH_DIR/scripts/checkpatch.pl" ] || die "checkpatch.pl not extracted"
	echo "$top" >"$CHECKPATCH_DIR/.source"
fi

echo "$DEPS_VERSION" >"$STAMP"
log "done"
