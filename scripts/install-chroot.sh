#!/bin/sh
# Makes (once) and updates a Debian chroot of a newer release, with that
# release's backported kernels, their headers and the compiler they were
# built with: what a DKMS user on that release builds vcap.ko with.  The
# kernels' versions are read from the archive's metapackages at run time.
#
# Usage: install-chroot.sh SUITE          (trixie)
# The chroot is $VCAP_CHROOTS/SUITE (default /var/cache/vcap/chroots).
# Needs root and debootstrap.
set -eu

suite=${1:?usage: install-chroot.sh SUITE}
CHROOTS=${VCAP_CHROOTS:-/var/cache/vcap/chroots}
root=$CHROOTS/$suite
logf=$CHROOTS/$suite.log
MIRROR=http://deb.debian.org/debian
STAMP_VERSION=1

log() { printf 'install-chroot: %s: %s\n' "$suite" "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root"
start=$(date +%s)
command -v debootstrap >/dev/null 2>&1 || die "debootstrap not installed"

# Everything run inside the chroot runs in a private mount namespace with
# its own /proc and /dev, so nothing stays mounted afterwards.
in_chroot() {
	unshare --mount --propagation private sh -c '
		root=$1; shift
		mount -t proc proc "$root/proc" &&
		mount --bind /dev "$root/dev" &&
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' \
		sh "$root" "$@"
}

if [ ! -f "$root/.vcap-debootstrap-done" ]; then
	log "debootstrap into $root"
	rm -rf "$root"
	mkdir -p "$root"
	debootstrap --variant=minbase "$suite" "$root" "$MIRROR" >"$logf" 2>&1 ||
		{ tail -n 20 "$logf" >&2; die "debootstrap failed"; }
	touch "$root/.vcap-debootstrap-done"
fi

cat >"$root/etc/apt/sources.list" <<EOF
deb $MIRROR $suite main
deb $MIRROR $suite-updates main
deb $MIRROR $suite-backports main
EOF
# No daemon starts inside the chroot.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"

APT="apt-get -y -q --no-install-recommends -o Dpkg::Options::=--force-confold"
log "updating package lists"
in_chroot $APT update >>"$logf" 2>&1 || die "apt-get update failed (see $logf)"

# The metapackages of the backports suite name the newest kernels; the
# kernel source of the same version builds the debug kernel.
log "installing the compiler, tools and the $suite-backports kernels"
in_chroot $APT install make gcc sparse dkms kmod xz-utils zstd bc bison flex \
	libelf-dev libssl-dev cpio rsync python3 perl >>"$logf" 2>&1 ||
	die "tool install failed (see $logf)"
in_chroot $APT install -t "$suite-backports" \
	linux-headers-amd64 linux-headers-rt-amd64 linux-source >>"$logf" 2>&1 ||
	die "kernel headers install failed (see $logf)"

# The images of the same releases, unpacked rather than installed: the
# VM boots them with an initramfs of its own, and no initramfs generator
# runs in the chroot.  Since 7.x linux-image-<release> only depends on
# linux-binary- (the image, in /usr/lib/modules/<release>), linux-modules-
# and linux-base- (modules.builtin, config, System.map) of the release.
for h in "$root"/usr/src/linux-headers-*-amd64; do
	rel=${h##*/linux-headers-}
	[ -f "$root/boot/vmlinuz-$rel" ] && [ -d "$root/lib/modules/$rel/kernel" ] && continue
	log "unpacking linux-image-$rel"
	in_chroot sh -c '
		rel=$1
		cd /var/cache/apt/archives || exit 1
		apt-get download -q linux-image-$rel >/dev/null 2>&1 || exit 1
		for p in linux-binary linux-modules linux-base; do
			apt-get download -q $p-$rel >/dev/null 2>&1
		done
		for p in linux-image linux-binary linux-modules linux-base; do
			for deb in $p-${rel}_*.deb; do
				[ -f "$deb" ] && { dpkg-deb -x "$deb" / || exit 1; }
			done
		done
		for f in vmlinuz config System.map; do
			[ -f /boot/$f-$rel ] || [ ! -f /usr/lib/modules/$rel/$f ] ||
				cp /usr/lib/modules/$rel/$f /boot/$f-$rel || exit 1
		done
		[ -f /boot/vmlinuz-$rel ] && depmod $rel' sh "$rel" ||
		die "cannot unpack the image of $rel"
done

n=$(ls -d "$root"/lib/modules/*/build 2>/dev/null | wc -l)
[ "$n" -ge 2 ] || die "expected a generic and an RT kernel in $root/lib/modules"
echo "$STAMP_VERSION" >"$root/.vcap-chroot"
for d in "$root"/lib/modules/*; do
	log "kernel ${d##*/}"
done
log "ready in $(($(date +%s) - start)) s"
