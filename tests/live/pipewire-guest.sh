#!/bin/sh
# PipeWire in the guest, on the PCI board's HDMI input (vcap-fw on the
# host plays it, under tests/faults/faults.sh; its source changes through
# the relay).  The guest has no systemd session, so what a desktop's
# session starts is started by hand: systemd-udevd (WirePlumber's V4L2
# monitor reads each node's udev properties), a D-Bus session bus,
# pipewire and wireplumber.  Checked: the board's /dev/videoN is a
# PipeWire node of media.class Video/Source and media.role Camera, and
# pipewiresrc reads frames from it at 640x480 YUYV, the size a browser
# asks for.  With "change": it reads on across a source change (720p50
# to 1080p50), the size it negotiated kept by the board's scaler, and
# again after a lost signal.
# Usage: pipewire-guest.sh [change]
set -u
NAME=live-pipewire
out=/tmp/pw
mkdir -p "$out"
say() { echo "$NAME: $*"; }
die() {
	echo "$NAME: FAIL: $*" >&2
	for f in pipewire wireplumber; do
		[ -s "$out/$f.log" ] && { echo "--- $f" >&2; tail -n 15 "$out/$f.log" >&2; }
	done
	exit 1
}

FW_TAG=pw
. "$(dirname "$0")/../faults/fw-relay.sh"

# A missing tool is a failure: scripts/install-deps.sh installs them.
for t in pipewire wireplumber pw-dump gst-launch-1.0 dbus-daemon; do
	command -v "$t" >/dev/null 2>&1 || die "$t not found (scripts/install-deps.sh)"
done
[ -x /lib/systemd/systemd-udevd ] || die "systemd-udevd not found"
export GST_REGISTRY=/tmp/gst-registry.bin
gst-inspect-1.0 pipewiresrc >/dev/null 2>&1 ||
	die "GStreamer's pipewiresrc missing (gstreamer1.0-pipewire)"

video=
for d in /sys/class/video4linux/video*; do
	case $(cat "$d/name" 2>/dev/null) in vcap*) video=/dev/${d##*/} ;; esac
done
[ -n "$video" ] || die "no vcap node"
c() { v4l2-ctl -d "$video" "$@"; }

# Under emulation each program started costs a good part of a second:
# the waits are by the clock.
# query_is WIDTH: within 20 s, the timings are that wide.
query_is() {
	end=$(($(date +%s) + 20))
	until c --query-dv-timings 2>/dev/null | grep -q "Active width: $1\$"; do
		[ "$(date +%s)" -lt $end ] || return 1
		sleep 0.1
	done
}

# The HDMI input, on a 720p50 source.  The input is the device's: it
# stays selected for PipeWire, which opens the node afterwards.
fw source 720p50 || die "vcap-fw ctl source 720p50"
c -i 0 >/dev/null || die "cannot select the HDMI input"
query_is 1280 || die "the 720p50 source is not seen"
c --set-dv-bt-timings query >/dev/null || die "cannot set the timings"

# --- the session a desktop would have ------------------------------------

# udevd and udevadm refuse to act in a chroot unless told it is meant.
export SYSTEMD_IGNORE_CHROOT=1
mkdir -p /run/udev
/lib/systemd/systemd-udevd --daemon || die "systemd-udevd does not start"
udevadm trigger --action=add --subsystem-match=video4linux
udevadm settle -t 60 || die "udev did not settle"
say "udev: $(udevadm info -q property -n "$video" | grep -E '^ID_V4L_(CAPABILITIES|PRODUCT)=' | tr '\n' ' ')"

export XDG_RUNTIME_DIR=/run/user/0
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
DBUS_SESSION_BUS_ADDRESS=$(dbus-daemon --session --fork --print-address) ||
	die "no D-Bus session bus"
export DBUS_SESSION_BUS_ADDRESS
pipewire >"$out/pipewire.log" 2>&1 &
pw=$!
end=$(($(date +%s) + 30))
until [ -S "$XDG_RUNTIME_DIR/pipewire-0" ]; do
	[ "$(date +%s)" -lt $end ] && kill -0 $pw 2>/dev/null || die "pipewire did not start"
	sleep 0.1
done
wireplumber >"$out/wireplumber.log" 2>&1 &
wp=$!

# node_of DEV: the id of the Video/Source node on DEV, with its role,
# from pw-dump's objects ("id" first in each, the properties after).
node_of() {
	pw-dump 2>/dev/null | awk -v dev="$1" '
		/^  {/ { id = ""; cls = ""; path = ""; role = "" }
		/^    "id": / && id == "" { id = $2; sub(",", "", id) }
		/"media.class": "Video\/Source"/ { cls = 1 }
		/"api.v4l2.path": / { p = $2; gsub(/[",]/, "", p); path = p }
		/"media.role": / { r = $2; gsub(/[",]/, "", r); role = r }
		/^  }/ && cls && path == dev { print id, (role == "" ? "-" : role); exit }'
}
end=$(($(date +%s) + 60))
node=
while [ -z "$node" ]; do
	node=$(node_of "$video")
	[ -n "$node" ] && break
	[ "$(date +%s)" -lt $end ] && kill -0 $wp 2>/dev/null ||
		{ pw-dump 2>&1 | grep -E '"(id|type|media\.[a-z]+|api\.v4l2\.[a-z.]+|node\.name|object\.path)"' |
			head -n 60 >&2; die "no PipeWire Video/Source node for $video after 60 s"; }
	sleep 0.5
done
id=${node% *} role=${node#* }
say "PipeWire node $id: $video, media.class Video/Source, media.role $role"
pw-dump 2>/dev/null | awk -v id="$id" '/^  {/ { n = 0 } /^    "id": / { n = ($2 == id ",") } n' |
	grep -E '"(node\.name|node\.description|media\.[a-z]+|api\.v4l2\.path|object\.path)"' |
	sed "s/^ */$NAME: node $id: /"
[ "$role" = Camera ] || die "the node's media.role is '$role', want Camera"

# --- frames through pipewiresrc --------------------------------------------

# The size a browser asks for: 640x480 YUYV.
GST_DEBUG=${LIVE_GST_DEBUG:-pipewiresrc:4} timeout 120 gst-launch-1.0 -v \
	pipewiresrc path="$id" num-buffers=30 ! \
	video/x-raw,format=YUY2,width=640,height=480 ! fakesink >"$out/gst-30.log" 2>&1
st=$?
[ -n "${LIVE_GST_DEBUG:-}" ] && grep -v "^0:00" "$out/gst-30.log" | tail -n 60 >&2 && grep "pipewire" "$out/gst-30.log" | tail -n 60 >&2
caps=$(grep -o 'pipewiresrc0.*caps = video/x-raw[^"]*' "$out/gst-30.log" | tail -n 1)
say "pipewiresrc num-buffers=30 at 640x480 YUYV: exit $st; ${caps#*caps = }"
[ "$st" -eq 0 ] || { tail -n 20 "$out/gst-30.log" >&2; die "pipewiresrc failed"; }
grep -q 'Got EOS' "$out/gst-30.log" || die "pipewiresrc did not reach the end of 30 buffers"

if [ "${1:-}" != change ]; then
	kill $wp $pw 2>/dev/null
	wait $wp $pw 2>/dev/null
	udevadm control --exit 2>/dev/null
	say PASS
	exit 0
fi

# At 640x480, a size of its own, across a source change and a lost
# signal: the buffers go on at 640x480.
stdbuf -oL timeout 150 gst-launch-1.0 -e -v pipewiresrc path="$id" ! \
	video/x-raw,format=YUY2,width=640,height=480 ! fakesink silent=false \
	>"$out/gst.log" 2>&1 &
gst=$!
buffers() { grep -c 'last-message = chain' "$out/gst.log"; }
# wait_buffers N SECONDS: until N buffers more than now have come.
wait_buffers() {
	want=$(($(buffers) + $1))
	end=$(($(date +%s) + $2))
	while [ "$(buffers)" -lt "$want" ]; do
		[ "$(date +%s)" -lt $end ] && kill -0 $gst 2>/dev/null || return 1
		sleep 0.2
	done
}
wait_buffers 30 60 || { tail -n 20 "$out/gst.log" >&2; die "no buffers at 640x480"; }
say "640x480: $(buffers) buffers from the 720p50 source"
fw source 1080p50 || die "vcap-fw ctl source 1080p50"
query_is 1920 || die "the 1080p50 source is not seen"
wait_buffers 30 60 || { tail -n 20 "$out/gst.log" >&2; die "no buffers after the change to 1080p50"; }
say "640x480: $(buffers) buffers, 30 of them after the change to 1080p50"
fw source none || die "vcap-fw ctl source none"
sleep 3
during=$(buffers)
fw source 1080p50 || die "vcap-fw ctl source 1080p50 (back)"
query_is 1920 || die "the source did not come back"
wait_buffers 30 60 || { tail -n 20 "$out/gst.log" >&2; die "no buffers after the signal came back"; }
say "640x480: $(buffers) buffers, 30 of them after the signal came back ($during when it returned)"
kill -INT $gst
wait $gst
st=$?
sizes=$(grep 'pipewiresrc0.*caps = video/x-raw' "$out/gst.log" |
	grep -o 'width=(int)[0-9]*, height=(int)[0-9]*' |
	sed 's/width=(int)//; s/, height=(int)/x/' | sort -u | tr '\n' ' ')
say "pipewiresrc at 640x480: exit $st, sizes negotiated: $sizes"
[ "$st" -eq 0 ] || { tail -n 20 "$out/gst.log" >&2; die "the pipeline did not end cleanly"; }
[ "$sizes" = "640x480 " ] || die "the negotiated size changed: $sizes"
c --get-fmt-video | grep -q 'Width/Height *: 640/480' ||
	die "the device's format is not 640x480 any more"

kill $wp $pw 2>/dev/null
wait $wp $pw 2>/dev/null
udevadm control --exit 2>/dev/null
say PASS
