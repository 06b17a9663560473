#!/bin/sh
# Lays out vcap.ko's DKMS source tree: the kbuild layout of
# cmake/stage-kmod.sh (kernel/ at the top, common/ and include/ beside it),
# plus kernel/Makefile and kernel/dkms.conf with the package version
# written into it.  Usage: stage-dkms.sh SOURCE_DIR DEST_DIR VERSION
set -eu
[ $# -eq 3 ] || { echo "usage: stage-dkms.sh SOURCE_DIR DEST_DIR VERSION" >&2; exit 2; }
src=$1 dst=$2 version=$3

conf=$src/kernel/dkms.conf
[ -f "$conf" ] || { echo "stage-dkms: $conf not found" >&2; exit 1; }
grep -q '^PACKAGE_NAME="\{0,1\}vcap"\{0,1\}$' "$conf" ||
	{ echo "stage-dkms: $conf does not set PACKAGE_NAME=vcap" >&2; exit 1; }
case $dst in
''|/) echo "stage-dkms: refusing destination '$dst'" >&2; exit 1 ;;
esac

# Start clean, so a source file deleted from the tree leaves the package.
rm -rf "$dst"
sh "$src/cmake/stage-kmod.sh" "$src" "$dst"
[ ! -f "$src/kernel/Makefile" ] || cp -p "$src/kernel/Makefile" "$dst/"
sed "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$version\"/" "$conf" >"$dst/dkms.conf"
grep -q "^PACKAGE_VERSION=\"$version\"$" "$dst/dkms.conf" ||
	{ echo "stage-dkms: $conf has no PACKAGE_VERSION line" >&2; exit 1; }
