#!/bin/sh
# Lays out the module sources for kbuild: kernel/ at the top, with common/
# and include/ beside it, as DKMS also lays them out.
set -eu
src=$1
dst=$2
mkdir -p "$dst/common" "$dst/include"
for f in "$src"/kernel/*.c "$src"/kernel/*.h "$src"/kernel/Kbuild; do
	[ -e "$f" ] && cp -p "$f" "$dst/"
done
cp -p "$src"/common/*.c "$src"/common/*.h "$dst/common/" 2>/dev/null || true
cp -pR "$src"/include/. "$dst/include/"
