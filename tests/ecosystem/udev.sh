#!/bin/sh
# The udev rule under a running udevd in the guest, with two software
# boards: /dev/vcapN in group video with mode 0660 like /dev/videoN, and
# each board's serial naming links to its own two nodes, which the tools
# open through the links; the links go with the boards and come back with
# them, on every reload.  Usage: udev.sh KMOD VCAP_STREAM [VCAP_VIEW]
set -u
ECO_NAME=eco-udev
here=$(dirname "$0")
. "$here/eco-lib.sh"
ko=$1 vs=$2 view=${3:-}
[ -x "$vs" ] || eco_fail "$vs not found"

# udevd and udevadm refuse to act in a chroot unless told it is meant.
export SYSTEMD_IGNORE_CHROOT=1
mkdir -p /run/udev /etc/udev/rules.d
cp "$here/../../packaging/udev/60-vcap.rules" /etc/udev/rules.d/ ||
	eco_fail "cannot install the rule"
/lib/systemd/systemd-udevd --daemon || eco_fail "systemd-udevd does not start"
eco_load vcap "$ko" soft_boards=2
udevadm settle -t 60 || eco_fail "udev did not settle"

access() {
	got=$(stat -L -c '%G %a' "$1") || eco_fail "$1 missing"
	[ "$got" = "video 660" ] || eco_fail "$1 is '$got', expected 'video 660'"
}

links() {
	boards=0 serials=
	for sys in /sys/class/vcap/vcap*; do
		[ -e "$sys" ] || continue
		vram=/dev/${sys##*/}
		serial=$(cat "$sys/serial") || eco_fail "$sys has no serial attribute"
		[ -n "$serial" ] || eco_fail "$sys/serial is empty"
		video=
		for v in "$sys"/device/video4linux/video*; do
			[ -e "$v" ] && video=/dev/${v##*/}
		done
		[ -n "$video" ] || eco_fail "no V4L2 node beside $vram"
		access "$vram"
		access "$video"
		l1=/dev/vcap/by-serial/$serial
		l2=/dev/v4l/by-id/vcap-$serial-video-index0
		[ "$(readlink -f "$l1")" = "$vram" ] ||
			eco_fail "$l1 -> '$(readlink -f "$l1")', expected $vram"
		[ "$(readlink -f "$l2")" = "$video" ] ||
			eco_fail "$l2 -> '$(readlink -f "$l2")', expected $video"
		"$vs" formats --vram "$l1" >/dev/null ||
			eco_fail "vcap-stream cannot read $l1"
		"$vs" formats -d "$l2" >/dev/null ||
			eco_fail "vcap-stream cannot read $l2"
		eco_log "board $serial: $l1 -> $vram, $l2 -> $video, both video 0660"
		boards=$((boards + 1))
		serials="$serials $serial"
	done
	[ "$boards" -eq 2 ] || eco_fail "$boards boards, expected 2"
	[ "$(echo $serials | tr ' ' '\n' | sort -u | wc -l)" -eq 2 ] ||
		eco_fail "serials not distinct:$serials"
}
links

# The driver registers the V4L2 node before the VRAM node, so udev may
# handle the V4L2 node's event before the serial can be read; the VRAM
# node's add event has the V4L2 node looked at again.  Play that order:
# the V4L2 links gone, then only the VRAM nodes' add events.
rm -f /dev/v4l/by-id/vcap-*
udevadm trigger --action=add --subsystem-match=vcap
udevadm settle -t 60 || eco_fail "udev did not settle"
links

# A program given a link opens the node the link names: the V4L2 link's
# name starts with "vcap", yet it is a V4L2 node.
if [ -n "$view" ]; then
	[ -x "$view" ] || eco_fail "$view not found"
	l2=$(ls /dev/v4l/by-id/vcap-*-video-index0 | head -n 1)
	SDL_VIDEODRIVER=offscreen "$view" -n 3 -t 60 "$l2" ||
		eco_fail "vcap-view cannot show $l2"
	eco_log "vcap-view showed $l2"
fi

# The links follow the boards: gone after unload, back after reload.  The
# V4L2 node appears before the VRAM node, so each load is a chance for the
# V4L2 link to be missed: load a few times.
for round in 1 2 3; do
	rmmod vcap || eco_fail "rmmod vcap"
	udevadm settle -t 60
	left=$(ls /dev/vcap/by-serial /dev/v4l/by-id 2>/dev/null | grep vcap)
	[ -z "$left" ] || eco_fail "links left after unload: $left"
	insmod "$ko" soft_boards=2 || eco_fail "insmod again"
	udevadm settle -t 60
	links
done
echo "$ECO_NAME: PASS"
