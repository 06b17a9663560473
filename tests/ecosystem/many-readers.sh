#!/bin/sh
# Many readers of one board: one process streams through V4L2 while two
# others watch the same frames in VRAM through /dev/vcapN, all three at the
# board's full rate with no drops.
# Usage: many-readers.sh VCAP_STREAM WxH FPS SECONDS KMOD
set -u
ECO_NAME=eco-many-readers
. "$(dirname "$0")/eco-lib.sh"
vs=$1 size=$2 fps=$3 secs=$4 ko=$5
[ -x "$vs" ] || eco_fail "$vs not found"
eco_load vcap "$ko" soft_boards=1
vram=
for v in /sys/class/video4linux/${ECO_DEV#/dev/}/device/vcap/vcap*; do
	[ -e "$v" ] && vram=/dev/${v##*/}
done
[ -n "$vram" ] || eco_fail "no VRAM node beside $ECO_DEV"
out=/tmp/many-readers
mkdir -p "$out"

"$vs" bench -q -d "$ECO_DEV" --fmt YUYV --size "$size" --fps "$fps" \
	-t $((secs + 4)) --json >"$out/v4l2.json" 2>"$out/v4l2.err" &
v4l2=$!
# The VRAM readers join once the board streams the mode.
deadline=$(($(date +%s) + 60))
until "$vs" formats --vram "$vram" 2>/dev/null | grep -q "^active: .*$size"; do
	if ! kill -0 "$v4l2" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
		cat "$out/v4l2.err" >&2
		"$vs" formats --vram "$vram" >&2
		eco_fail "the board never streamed $size"
	fi
	sleep 0.2
done
"$vs" bench -q --vram "$vram" -t "$secs" --json >"$out/vram1.json" 2>"$out/vram1.err" &
r1=$!
"$vs" bench -q --vram "$vram" -t "$secs" --json >"$out/vram2.json" 2>"$out/vram2.err" &
r2=$!
status=0
for p in $v4l2 $r1 $r2; do
	wait "$p" || status=1
done
[ "$status" -eq 0 ] || { cat "$out"/*.err >&2; eco_fail "a reader failed"; }

# Full rate: at least 90% of the board's rate, no frame missed.
min=$((fps * 9 / 10))
for r in v4l2 vram1 vram2; do
	j=$(cat "$out/$r.json")
	num() { echo "$j" | sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }
	got=$(num fps) drops=$(num drops) torn=$(num torn) frames=$(num frames)
	[ -n "$got" ] || eco_fail "$r: no result: $j"
	eco_log "$r: $frames frames, $got fps, $drops dropped, $torn torn"
	[ "${got%.*}" -ge "$min" ] || eco_fail "$r: $got fps, below $min of $fps"
	[ "$drops" -eq 0 ] && [ "$torn" -eq 0 ] || eco_fail "$r: drops or torn frames"
done
echo "$ECO_NAME: PASS"
