#!/bin/sh
# Guest half of doorbell.sh.
set -eu
build=$1
ko=$build/kernel/$(uname -r)/vcap.ko
deps=$(modinfo -F depends "$ko" | tr ',' ' ')
[ -z "$deps" ] || modprobe -a $deps
insmod "$ko"
dev=
for d in /sys/class/video4linux/video*; do
	[ -e "$d" ] || continue
	if [ "$(cat "$d/name" 2>/dev/null)" != "" ] &&
	   v4l2-ctl -d "/dev/${d##*/}" --info 2>/dev/null | grep -q 'Driver name *: vcap'; then
		dev=/dev/${d##*/}
	fi
done
[ -n "$dev" ] || { echo "doorbell: no vcap capture node" >&2; dmesg | tail -n 20 >&2; exit 1; }
vcap=$(ls -d /sys/class/vcap/vcap* | head -n 1)
irq0=$(cat "$vcap/stats/interrupts")
v4l2-ctl -d "$dev" --set-fmt-video=width=320,height=240,pixelformat=YUYV \
	--stream-mmap --stream-count=30 --stream-to=/dev/null
irq1=$(cat "$vcap/stats/interrupts")
delivered=$(cat "$vcap/stats/delivered")
msix=$(grep -c 'PCI-MSIX.*vcap\|vcap.*MSI' /proc/interrupts || true)
echo "doorbell: $((irq1 - irq0)) interrupts while streaming 30 frames, $delivered delivered, $msix MSI-X lines"
grep vcap /proc/interrupts || true
[ "$((irq1 - irq0))" -ge 30 ] || { echo "doorbell: too few interrupts" >&2; exit 1; }
[ "$delivered" -ge 30 ] || { echo "doorbell: too few frames delivered" >&2; exit 1; }
