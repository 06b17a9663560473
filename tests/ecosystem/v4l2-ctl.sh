#!/bin/sh
# The v4l2-ctl recipes of docs/cookbook.md, run against a driver in the
# guest: list, set a format, capture to a file, change controls.
# Usage: v4l2-ctl.sh OUTDIR vcap KMOD | OUTDIR vivid
set -u
ECO_NAME=eco-v4l2-ctl
. "$(dirname "$0")/eco-lib.sh"
out=$1
shift
mkdir -p "$out" || eco_fail "cannot create $out"
eco_load "$@"
dev=$ECO_DEV
W=640 H=480 N=30

# List: the device, its formats and its controls.
v4l2-ctl --list-devices >"$out/list-devices.txt" 2>&1 ||
	eco_fail "--list-devices"
grep -q "$dev" "$out/list-devices.txt" ||
	eco_fail "--list-devices does not show $dev"
v4l2-ctl -d "$dev" --list-formats-ext >"$out/formats.txt" 2>&1 ||
	eco_fail "--list-formats-ext"
grep -q "'YUYV'" "$out/formats.txt" || eco_fail "no YUYV format listed"
grep -q "Size: Discrete ${W}x${H}\|Size: Stepwise" "$out/formats.txt" ||
	eco_fail "${W}x${H} not listed"
v4l2-ctl -d "$dev" --list-ctrls >"$out/ctrls.txt" 2>&1 ||
	eco_fail "--list-ctrls"
eco_log "$(grep -c '^[[:space:]]*\[[0-9]*\]' "$out/formats.txt") formats, $(grep -c '0x' "$out/ctrls.txt") controls"

# Set a format and read it back.
v4l2-ctl -d "$dev" --set-fmt-video=width=$W,height=$H,pixelformat=YUYV ||
	eco_fail "--set-fmt-video"
fmt=$(v4l2-ctl -d "$dev" --get-fmt-video)
echo "$fmt" | grep -q "Width/Height[[:space:]]*: $W/$H" ||
	eco_fail "format not applied: $fmt"
echo "$fmt" | grep -q "'YUYV'" || eco_fail "pixel format not applied: $fmt"
size=$(echo "$fmt" | sed -n 's/.*Size Image[[:space:]]*: //p')
[ "$size" -ge $((W * H * 2)) ] || eco_fail "sizeimage $size too small"

# Capture N frames to a file: exactly N whole frames.
rm -f "$out/capture.yuyv"
v4l2-ctl -d "$dev" --stream-mmap=4 --stream-count=$N \
	--stream-to="$out/capture.yuyv" 2>"$out/capture.log" ||
	eco_fail "--stream-mmap: $(tail -n 3 "$out/capture.log")"
bytes=$(stat -c %s "$out/capture.yuyv")
[ "$bytes" -eq $((N * size)) ] ||
	eco_fail "capture is $bytes bytes, expected $N x $size"
eco_log "captured $N frames of ${W}x${H} YUYV ($bytes bytes)"

# Change controls: flip horizontally and back, read each value back.
ctrl=horizontal_flip
grep -q "^[[:space:]]*$ctrl " "$out/ctrls.txt" || eco_fail "no $ctrl control"
for v in 1 0; do
	v4l2-ctl -d "$dev" --set-ctrl=$ctrl=$v || eco_fail "--set-ctrl=$ctrl=$v"
	got=$(v4l2-ctl -d "$dev" --get-ctrl=$ctrl | sed 's/.*: //')
	[ "$got" = "$v" ] || eco_fail "$ctrl reads $got after setting $v"
done
# Out of range values are refused.
if v4l2-ctl -d "$dev" --set-ctrl=$ctrl=7 2>/dev/null; then
	got=$(v4l2-ctl -d "$dev" --get-ctrl=$ctrl | sed 's/.*: //')
	[ "$got" != 7 ] || eco_fail "$ctrl accepted 7"
fi
eco_log "control $ctrl set and read back"
echo "$ECO_NAME: PASS"
