#!/bin/sh
# The kernels vcap is built and tested for, wherever they are installed:
# this system's own (/boot and /lib/modules), and those installed in the
# Debian chroots under $VCAP_CHROOTS (scripts/install-chroot.sh), whose
# headers need that release's compiler and C library.
#
#   kernels.sh list            one line per kernel: RELEASE ROOT KIND
#                              (ROOT is / or the chroot; KIND is std, rt
#                              or debug), oldest first
#   kernels.sh root RELEASE    the root that holds RELEASE
#   kernels.sh make RELEASE ARG...
#                              runs make with ARGs against RELEASE's kbuild
#                              tree, in its root: M= and every other path
#                              under the current directory are seen at the
#                              same place inside a chroot
set -eu

CHROOTS=${VCAP_CHROOTS:-/var/cache/vcap/chroots}

die() { printf 'kernels.sh: %s\n' "$*" >&2; exit 1; }

# The kbuild tree of RELEASE in ROOT, as a path in ROOT, or nothing.
kbuild_dir() {
	root=$1 rel=$2
	link=$root/lib/modules/$rel/build
	[ -L "$link" ] || [ -d "$link" ] || return 0
	if [ "$root" = / ]; then
		dir=$link
	else
		target=$(readlink "$link") || return 0
		case $target in
		/*) dir=$root$target ;;
		*) dir=$root/lib/modules/$rel/$target ;;
		esac
	fi
	[ -f "$dir/Makefile" ] && echo "$dir"
	return 0
}

kind_of() {
	root=$1 rel=$2
	case $rel in
	*-vcap-debug) echo debug; return ;;
	*-rt-*|*-rt) echo rt; return ;;
	esac
	dir=$(kbuild_dir "$root" "$rel")
	if [ -n "$dir" ] && grep -qx 'CONFIG_PREEMPT_RT=y' "$dir/.config" 2>/dev/null; then
		echo rt
	else
		echo std
	fi
}

list() {
	for root in / "$CHROOTS"/*/; do
		[ "$root" = / ] || root=${root%/}
		[ -d "$root/lib/modules" ] || continue
		[ "$root" = / ] || [ -f "$root/.vcap-chroot" ] || continue
		for d in "$root"/lib/modules/*; do
			rel=${d##*/}
			[ -f "$root/boot/vmlinuz-$rel" ] || continue
			[ -n "$(kbuild_dir "$root" "$rel")" ] || continue
			echo "$rel $root $(kind_of "$root" "$rel")"
		done
	done | awk '!seen[$1]++' | sort -V -k1,1
}

root_of() {
	r=$(list | awk -v rel="$1" '$1 == rel { print $2 }')
	[ -n "$r" ] || die "no kernel $1 (installed: $(list | awk '{ print $1 }' | tr '\n' ' '))"
	echo "$r"
}

run_make() {
	rel=$1
	shift
	root=$(root_of "$rel")
	if [ "$root" = / ]; then
		exec make -C "/lib/modules/$rel/build" "$@"
	fi
	# A private mount namespace: the current directory is bound at the
	# same path inside the chroot for this one command.
	here=$(pwd -P)
	exec unshare --mount --propagation private sh -c '
		root=$1 here=$2 rel=$3
		shift 3
		mkdir -p "$root$here" "$root/proc" &&
		mount --bind "$here" "$root$here" &&
		mount -t proc proc "$root/proc" &&
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			LC_ALL=C.UTF-8 HOME=/root sh -c "cd \"\$0\" && exec \"\$@\"" \
			"$here" make -C "/lib/modules/$rel/build" "$@"' \
		sh "$root" "$here" "$rel" "$@"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
list) list ;;
root) [ $# -eq 1 ] || die "usage: kernels.sh root RELEASE"; root_of "$1" ;;
make) [ $# -ge 1 ] || die "usage: kernels.sh make RELEASE ARG..."; run_make "$@" ;;
*) die "usage: kernels.sh list | root RELEASE | make RELEASE ARG..." ;;
esac
