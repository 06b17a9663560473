#!/bin/sh
# Installs every build and test dependency of vcap from Debian's archive.
#
# Usage: install-deps.sh [debootstrap|host|chroot]
#   debootstrap  the package lists and debootstrap, which the chroot needs
#   host         the packages of this system and the private v4l-utils
#   chroot       the trixie chroot with the newest kernels, and
#                checkpatch.pl from its kernel source
# Without an argument, all three in turn.  Once debootstrap is in, host
# and chroot may run at the same time: only host uses this system's dpkg.
#
# Idempotent: packages already present are left alone and the private
# v4l-utils prefix is unpacked only once.  Needs root on Debian 12.
set -eu

part=${1:-all}
case $part in
debootstrap | host | chroot | all) ;;
*) echo "usage: install-deps.sh [debootstrap|host|chroot]" >&2; exit 2 ;;
esac

V4L_PREFIX=${VCAP_V4L_PREFIX:-/opt/vcap/v4l-utils-trixie}
CHECKPATCH_DIR=${VCAP_CHECKPATCH_DIR:-/opt/vcap/checkpatch}
STAMP=/var/lib/vcap-deps.stamp
DEPS_VERSION=10
CHROOTS=${VCAP_CHROOTS:-/var/cache/vcap/chroots}

log() { printf 'install-deps: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (apt-get install)"
[ -r /etc/debian_version ] || die "needs a Debian 12 (bookworm) system"

host_present() {
	[ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$DEPS_VERSION" ] &&
	[ -x "$V4L_PREFIX/usr/bin/v4l2-compliance" ] &&
	dpkg -s gcc-multilib debootstrap fswebcam gstreamer1.0-pipewire libswscale-dev >/dev/null 2>&1 &&
	ls /lib/modules/6.1*/build /lib/modules/6.12*[0-9]-amd64/build \
		/lib/modules/6.12*-rt-amd64/build >/dev/null 2>&1
}

chroot_present() {
	[ -f "$CHROOTS/trixie/.vcap-chroot" ] && [ -f "$CHECKPATCH_DIR/.source" ]
}

export DEBIAN_FRONTEND=noninteractive
APT="apt-get -y -q -o Dpkg::Options::=--force-confold"

# bookworm-backports carries the 6.12 LTS kernel, generic and PREEMPT_RT;
# trixie is listed at priority 1 only so that its newer v4l-utils can be
# downloaded.
update_lists() {
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
}

install_debootstrap() {
	dpkg -s debootstrap >/dev/null 2>&1 && return
	update_lists
	log "installing debootstrap"
	$APT install --no-install-recommends debootstrap >/dev/null
}

install_host() {
	if host_present; then
		log "this system's packages present"
		return
	fi
	update_lists
	# The VM runner boots every kernel with an initramfs of its own:
	# Debian's, generated for each kernel installed, would go unused.
	export INITRD=No

	log "installing build and test packages"
	$APT install --no-install-recommends \
		build-essential cmake pkg-config git kmod cpio xz-utils zstd dkms man-db udev \
		ffmpeg fswebcam gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-plugins-base \
		gcc-multilib qemu-system-x86 busybox-static v4l-utils sparse socat netpbm xauth \
		libsdl2-dev libdrm-dev libpng-dev libturbojpeg0-dev libavutil-dev libswscale-dev \
		xvfb gnuplot-nox v4l2loopback-source \
		debootstrap linux-image-amd64 linux-headers-amd64 \
		systemd pipewire pipewire-bin wireplumber gstreamer1.0-pipewire >/dev/null

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
	echo "$DEPS_VERSION" >"$STAMP"
}

# The newest kernels, 7.x from trixie-backports, with the compiler and C
# library their headers need: in a trixie chroot, as a DKMS user there
# builds.
install_chroot() {
	if chroot_present; then
		log "the trixie chroot present"
		return
	fi
	command -v debootstrap >/dev/null 2>&1 ||
		die "debootstrap missing: run install-deps.sh debootstrap first"
	sh "$(dirname "$0")/install-chroot.sh" trixie

	# checkpatch.pl ships only inside the kernel source tarball: the
	# newest one, in the trixie chroot.
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
}

case $part in
debootstrap) install_debootstrap ;;
host) install_host ;;
chroot) install_chroot ;;
all) install_debootstrap && install_host && install_chroot ;;
esac
log "$part: done"
