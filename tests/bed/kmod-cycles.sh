#!/bin/sh
# Loads and unloads a module N times in the guest; its dependencies are
# loaded once first.  Usage: kmod-cycles.sh MODULE.ko N [PARAM=VALUE...]
set -eu
ko=$1 n=$2
shift 2
[ -f "$ko" ] || { echo "kmod-cycles: $ko not found" >&2; exit 1; }
name=$(modinfo -F name "$ko")
deps=$(modinfo -F depends "$ko" | tr ',' ' ')
[ -z "$deps" ] || modprobe -a $deps
i=0
while [ "$i" -lt "$n" ]; do
	insmod "$ko" "$@" || { echo "kmod-cycles: insmod failed at cycle $i" >&2; exit 1; }
	rmmod "$name" || { echo "kmod-cycles: rmmod failed at cycle $i" >&2; exit 1; }
	i=$((i + 1))
done
if grep -q "^$name " /proc/modules; then
	echo "kmod-cycles: $name still loaded" >&2
	exit 1
fi
echo "kmod-cycles: $n load/unload cycles of $name"
