#!/bin/sh
# modinfo over a built vcap.ko: built for the right kernel, every module
# parameter of the source shown with a description, and a PCI alias that
# resolves the vcap board's modalias to vcap, so that the module loads by
# itself when a board appears.
# Usage: modinfo.sh VCAP_KO KERNEL_RELEASE SOURCE_DIR
set -u
ko=$1 kver=$2 src=$3
fail() { echo "modinfo: FAIL: $*" >&2; exit 1; }
[ -f "$ko" ] || fail "$ko not found (build vcap-ko-$kver)"

magic=$(modinfo -F vermagic "$ko")
case $magic in
"$kver "*) ;;
*) fail "vermagic '$magic' is not for $kver" ;;
esac
[ "$(modinfo -F name "$ko")" = vcap ] || fail "module name is not vcap"
[ -n "$(modinfo -F description "$ko")" ] || fail "no description"
[ "$(modinfo -F license "$ko")" = GPL ] || fail "license is not GPL"

# Every parameter: modinfo prints "name:description (type)".
params=$(modinfo -F parm "$ko")
[ -n "$params" ] || fail "no parameters"
echo "$params" | while IFS= read -r line; do
	name=${line%%:*}
	desc=$(echo "${line#*:}" | sed 's/ *([a-z]*)$//')
	[ -n "$desc" ] && [ "$desc" != "${line#*:}" ] ||
		{ echo "modinfo: FAIL: parameter $name has no description: '$line'" >&2; exit 1; }
done || exit 1
# ... and every module_param*() of the source is among them.
for p in $(cat "$src"/kernel/*.c | tr -d '\n\t' |
	grep -o 'module_param[a-z_]*([a-z_0-9]*' | sed 's/.*(//' | sort -u); do
	echo "$params" | grep -q "^$p:" || fail "parameter $p of the source is not shown"
done
echo "modinfo: $(echo "$params" | wc -l) parameters, each described:"
echo "$params" | sed 's/^/    /'

# The board as QEMU's ivshmem presents it: 1af4:1110, subsystem
# 1af4:1100, class 0x0500 (RAM memory).
alias=pci:v00001AF4d00001110sv00001AF4sd00001100bc05sc00i00
modinfo -F alias "$ko" | grep -q '^pci:v00001AF4d00001110' ||
	fail "no PCI alias for 1af4:1110: $(modinfo -F alias "$ko")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lib/modules/$kver/extra"
cp "$ko" "$tmp/lib/modules/$kver/extra/"
touch "$tmp/lib/modules/$kver/modules.order" "$tmp/lib/modules/$kver/modules.builtin" \
	"$tmp/lib/modules/$kver/modules.builtin.modinfo"
depmod -b "$tmp" "$kver" || fail "depmod"
got=$(modprobe -d "$tmp" -S "$kver" -R "$alias" 2>&1)
[ "$got" = vcap ] || fail "modalias $alias resolves to '$got', not vcap"
echo "modinfo: $alias -> $got ($kver)"
