#!/bin/sh
# From the host: boot the guest with a bochs display, run vcap-view's KMS
# output in it, and photograph the screen with QEMU's screendump until
# it shows the colour bars.
#
# usage: vm-kms.sh [--virtio] VCAP_VM KERNEL OUTDIR VCAP_VIEW VV_IMGCHECK
#                  VV_MONITOR FRAME_WxH SOURCE [KO] [VIEW ARGS...]
#
# --virtio: a virtio-gpu display instead, on which the capture fills the
# buffers the display scans out: vcap-view must show every frame with
# no copy, and within 40 s.
set -u
device=bochs
guest_wait=200
vm_timeout=280
if [ "${1:-}" = --virtio ]; then
	device=virtio
	guest_wait=40
	vm_timeout=100
	shift
fi
vm=$1
kernel=$2
out=$3
view=$4
check=$5
monitor=$6
frame=$7
shift 7
here=$(cd "$(dirname "$0")" && pwd)

mkdir -p "$out" || exit 1
rm -f "$out/kms-started" "$out/kms-done" "$out/kms.ppm" "$out/kms-level"
sock=$(mktemp -u "${TMPDIR:-/tmp}/vv-mon.XXXXXX")

"$vm" --kernel "$kernel" --timeout $vm_timeout --share "$out" \
	--display "$sock" --display-device $device \
	-- sh "$here/vm-kms-guest.sh" $device "$view" "$out" $guest_wait "$@" &
vmpid=$!

seen=0
start=$(date +%s)
while kill -0 $vmpid 2>/dev/null; do
	sleep 2
	[ -e "$out/kms-started" ] || continue
	[ -S "$sock" ] || continue
	"$monitor" "$sock" "screendump $out/kms.ppm" || continue
	if "$check" "$out/kms.ppm" --fit "$frame" --tolerance 12 \
		--level "$(cat "$out/kms-level")" --bars >"$out/kms-check.txt"; then
		seen=1
		echo "screendump shows the bars after $(($(date +%s) - start)) s"
		touch "$out/kms-done"
		break
	fi
	[ $(($(date +%s) - start)) -lt $guest_wait ] || break
done
wait $vmpid
rc=$?
rm -f "$sock"
if [ $seen -ne 1 ]; then
	echo "FAIL: the guest's screen never showed the colour bars"
	cat "$out/kms-check.txt" 2>/dev/null
	exit 1
fi
[ $rc -eq 0 ] || { echo "FAIL: the guest side failed ($rc)"; exit 1; }
echo "PASS: KMS output checked by screendump"
