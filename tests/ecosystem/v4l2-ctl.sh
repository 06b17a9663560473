#!/bin/sh
# The recipes of docs/cookbook.md, run as written against a driver in the
# guest: find the board, list what it captures, set the format and frame
# rate, capture to a file and look at a frame, change controls.
# Usage: v4l2-ctl.sh OUTDIR vcap KMOD | OUTDIR vivid
set -u
ECO_NAME=eco-v4l2-ctl
. "$(dirname "$0")/eco-lib.sh"
out=$1
shift
mkdir -p "$out" || eco_fail "cannot create $out"
eco_load "$@"
dev=$ECO_DEV
W=640 H=480 N=30 FPS=25

# Find the board.
v4l2-ctl --list-devices >"$out/list-devices.txt" 2>&1 ||
	eco_fail "--list-devices"
grep -q "$dev" "$out/list-devices.txt" ||
	eco_fail "--list-devices does not show $dev"
v4l2-ctl -d "$dev" --info >"$out/info.txt" 2>&1 || eco_fail "--info"
grep -q "Driver name *: $1" "$out/info.txt" || eco_fail "--info: driver is not $1"

# What it can capture.
v4l2-ctl -d "$dev" --list-formats-ext >"$out/formats.txt" 2>&1 ||
	eco_fail "--list-formats-ext"
grep -q "'YUYV'" "$out/formats.txt" || eco_fail "no YUYV format listed"
v4l2-ctl -d "$dev" --list-framesizes=YUYV >"$out/sizes.txt" 2>&1 ||
	eco_fail "--list-framesizes"
grep -q "Size: Discrete ${W}x${H}" "$out/sizes.txt" || eco_fail "${W}x${H} not listed"
v4l2-ctl -d "$dev" --list-frameintervals=width=$W,height=$H,pixelformat=YUYV \
	>"$out/intervals.txt" 2>&1 || eco_fail "--list-frameintervals"
grep -q "($FPS.000 fps)" "$out/intervals.txt" || eco_fail "$FPS fps not listed"
eco_log "$(grep -c '^[[:space:]]*\[[0-9]*\]' "$out/formats.txt") formats, $(grep -c 'Size:' "$out/sizes.txt") YUYV sizes, $(grep -c 'Interval:' "$out/intervals.txt") rates at ${W}x${H}"

# Set the format and the frame rate, read both back.
v4l2-ctl -d "$dev" --set-fmt-video=width=$W,height=$H,pixelformat=YUYV ||
	eco_fail "--set-fmt-video"
fmt=$(v4l2-ctl -d "$dev" --get-fmt-video)
echo "$fmt" | grep -q "Width/Height[[:space:]]*: $W/$H" ||
	eco_fail "format not applied: $fmt"
echo "$fmt" | grep -q "'YUYV'" || eco_fail "pixel format not applied: $fmt"
size=$(echo "$fmt" | sed -n 's/.*Size Image[[:space:]]*: //p')
[ "$size" -ge $((W * H * 2)) ] || eco_fail "sizeimage $size too small"
v4l2-ctl -d "$dev" --set-parm=$FPS >/dev/null || eco_fail "--set-parm"
parm=$(v4l2-ctl -d "$dev" --get-parm)
echo "$parm" | grep -q "Frames per second: $FPS.000" ||
	eco_fail "frame rate not applied: $parm"

# Capture N frames to a file: exactly N whole frames; one decodes to PNG.
rm -f "$out/capture.yuyv" "$out/frame.png"
v4l2-ctl -d "$dev" --stream-mmap --stream-count=$N \
	--stream-to="$out/capture.yuyv" >"$out/capture.log" 2>&1 ||
	eco_fail "--stream-mmap: $(tail -n 3 "$out/capture.log")"
bytes=$(stat -c %s "$out/capture.yuyv")
[ "$bytes" -eq $((N * size)) ] ||
	eco_fail "capture is $bytes bytes, expected $N x $size"
ffmpeg -hide_banner -nostdin -loglevel error -f rawvideo -pix_fmt yuyv422 \
	-video_size ${W}x${H} -i "$out/capture.yuyv" -frames:v 1 "$out/frame.png" ||
	eco_fail "ffmpeg cannot convert a frame"
[ -s "$out/frame.png" ] || eco_fail "no frame.png"
eco_log "captured $N frames of ${W}x${H} YUYV at $FPS fps ($bytes bytes), frame 0 as PNG"

# Controls: list them with their menus, set each and read it back.
v4l2-ctl -d "$dev" --list-ctrls-menus >"$out/ctrls.txt" 2>&1 ||
	eco_fail "--list-ctrls-menus"
get() { v4l2-ctl -d "$dev" --get-ctrl="$1" | sed 's/.*: //; s/ .*//'; }
for c in horizontal_flip vertical_flip test_pattern; do
	grep -q "^[[:space:]]*$c " "$out/ctrls.txt" || eco_fail "no $c control"
done
v4l2-ctl -d "$dev" --set-ctrl=test_pattern=0 || eco_fail "--set-ctrl=test_pattern=0"
[ "$(get test_pattern)" = 0 ] || eco_fail "test_pattern reads $(get test_pattern)"
v4l2-ctl -d "$dev" --set-ctrl=horizontal_flip=1,vertical_flip=1 ||
	eco_fail "--set-ctrl of two controls"
[ "$(get horizontal_flip)" = 1 ] && [ "$(get vertical_flip)" = 1 ] ||
	eco_fail "flips read $(get horizontal_flip)/$(get vertical_flip)"
v4l2-ctl -d "$dev" --set-ctrl=horizontal_flip=0 || eco_fail "--set-ctrl=horizontal_flip=0"
[ "$(get horizontal_flip)" = 0 ] || eco_fail "horizontal_flip did not clear"
# Out of range: refused or clamped, never stored as is.
v4l2-ctl -d "$dev" --set-ctrl=horizontal_flip=7 >/dev/null 2>&1
[ "$(get horizontal_flip)" != 7 ] || eco_fail "horizontal_flip stored 7"
max=$(sed -n 's/^[[:space:]]*test_pattern .*max=\([0-9]*\).*/\1/p' "$out/ctrls.txt")
v4l2-ctl -d "$dev" --set-ctrl=test_pattern=$((max + 1)) >/dev/null 2>&1
[ "$(get test_pattern)" -le "$max" ] || eco_fail "test_pattern went past $max"
eco_log "controls horizontal_flip, vertical_flip, test_pattern (0-$max) set and read back"
echo "$ECO_NAME: PASS"
