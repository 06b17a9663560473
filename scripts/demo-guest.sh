#!/bin/sh
# The guest half of scripts/demo.sh: load vcap.ko, find the board, and run
# bench, capture and the viewer against it.
set -eu
build=$1 out=$2 kms_frames=${3:-300}
kver=$(uname -r)
stream=$build/userspace/vcap-stream
view=$build/viewer/vcap-view

step() { printf '\n== %s\n' "$*"; }

step "loading vcap.ko on $kver"
ko=$build/kernel/$kver/vcap.ko
deps=$(modinfo -F depends "$ko" | tr ',' ' ')
[ -z "$deps" ] || modprobe -a $deps
insmod "$ko"
dmesg | grep -i vcap | tail -n 5

step "devices"
"$stream" list
video=$("$stream" list | awk '/vcap/ && /\/dev\/video/ { for (i = 1; i <= NF; i++) if ($i ~ /^\/dev\/video/) { print $i; exit } }')
vram=$(ls /dev/vcap* 2>/dev/null | head -n 1)
[ -n "$video" ] || { echo "demo: no vcap V4L2 node" >&2; exit 1; }
"$stream" formats -d "$video" | head -n 20

# -v: the node, its card and how frames reach its buffers: "dma" when
# the board writes them (the guest's memory shared with the firmware),
# "copy" when the driver copies them out of the board's VRAM.
step "bench over V4L2 ($video, 640x480 YUYV at 30 fps)"
"$stream" bench -d "$video" --fmt YUYV --size 640x480 --fps 30 -t 5 -q -v |
	tee "$out/bench-v4l2.txt"
"$stream" bench -d "$video" --fmt YUYV --size 640x480 --fps 30 -t 3 -q \
	--json >"$out/bench-v4l2.json"

if [ -n "$vram" ]; then
	# The VRAM node follows the mode the V4L2 node set: keep a V4L2
	# stream running while the preview path reads the board's memory.
	step "bench over VRAM ($vram), beside a V4L2 stream"
	"$stream" capture -d "$video" --fmt YUYV --size 640x480 --fps 30 -t 9 \
		-o /dev/null --raw -q &
	v4l2_pid=$!
	sleep 2
	"$stream" bench --vram "$vram" -t 5 -q | tee "$out/bench-vram.txt"
	wait "$v4l2_pid" || true
fi

step "capture: 60 frames to a Y4M clip, then verify the stamps"
"$stream" capture -d "$video" --fmt YUYV --size 640x480 --fps 15 -n 60 \
	-o "$out/clip.y4m" -q
# A host too busy to run the guest on time shows here as a drop: say so,
# and go on to the viewer.
verified=0
"$stream" verify -d "$video" --fmt YUYV --size 640x480 --fps 15 -n 60 -q ||
	verified=$?

step "vcap-view on the KMS display"
modprobe bochs 2>/dev/null || modprobe bochs-drm 2>/dev/null || true
touch "$out/.kms-running"
"$view" -d "$video" -f YUYV -s 640x480 -r 30 -o kms --frames "$kms_frames" --overlay -v \
	|| echo "demo: the KMS output failed" >&2
i=0
while [ ! -e "$out/.kms-done" ] && [ $i -lt 100 ]; do
	sleep 0.2
	i=$((i + 1))
done

step "vcap-view in an X window (Xvfb), snapshot of what it showed"
xvfb-run -a -s "-screen 0 1024x768x24" \
	"$view" -d "$video" -f YUYV -s 640x480 -r 30 --frames 30 \
	--snapshot "$out/viewer-snapshot.png"
if [ "$verified" -ne 0 ]; then
	echo "demo: done, but verify failed (see above)" >&2
	exit "$verified"
fi
echo "demo: done"
