#!/bin/sh
# Builds vcap.ko for one kernel with W=1 and sparse (C=2) in a scratch copy
# and fails on any compiler or sparse warning.
set -u
src=$1 kver=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sh "$src/cmake/stage-kmod.sh" "$src" "$dir"
out=$(cd "$dir" && sh "$src/scripts/kernels.sh" make "$kver" M="$dir" W=1 C=2 modules 2>&1)
rc=$?
bad=$(printf '%s\n' "$out" | grep -E 'warning:|error:')
if [ $rc -ne 0 ] || [ -n "$bad" ]; then
	printf '%s\n' "$out" | grep -vE '^make|^  (CC|LD|MODPOST|CHECK|BTF)' | head -n 60
	echo "kbuild-warnings: $kver: build status $rc, $(printf '%s\n' "$bad" | grep -c .) warnings" >&2
	exit 1
fi
echo "kbuild-warnings: $kver: W=1 and sparse clean"
