#!/bin/sh
# In the guest, under pipe.sh: captures the host's pipelines from the PCI
# board's HDMI input and follows the change from one to the other.  What
# it captures goes to OUTDIR (shared with the host), where pipe.sh judges
# it; here only what needs the device is checked: the timings each
# pipeline brings, and the capture ending at the change.
# Usage: pipe-guest.sh OUTDIR FRAME_CMP VCAP_STREAM  (FX_RPC: the host's
# rpc folder)
set -u
out=$1 cmp=$2 vs=$3
rpc=$FX_RPC
NAME=live-pipe
say() { echo "$NAME: guest: $*"; }
die() { echo "$NAME: guest: FAIL: $*" >&2; exit 1; }
tmp=/tmp/live
mkdir -p "$tmp"

video= board=
for d in /sys/class/video4linux/video*; do
	case $(cat "$d/name" 2>/dev/null) in
	vcap*) video=/dev/${d##*/} ;;
	esac
done
[ -n "$video" ] || die "no vcap node"
for b in /sys/class/vcap/vcap*; do
	[ -e "$b/stats/dropped" ] && board=$b
done
[ -n "$board" ] || die "no vcap board in /sys/class/vcap"
c() { v4l2-ctl -d "$video" "$@"; }
c -i 0 >/dev/null || die "cannot select the HDMI input"

# timings_are WxH FPS: within 20 s, the query says so.
timings_are() {
	end=$(($(date +%s) + 20))
	while [ "$(date +%s)" -lt $end ]; do
		c --query-dv-timings >"$tmp/q.txt" 2>&1
		w=$(sed -n 's/.*Active width: *//p' "$tmp/q.txt")
		h=$(sed -n 's/.*Active height: *//p' "$tmp/q.txt")
		f=$(sed -n 's/.*(\([0-9]*\)\.[0-9]* frames per second).*/\1/p' "$tmp/q.txt")
		[ "${w}x${h}" = "$1" ] && [ "$f" = "$2" ] && return 0
		sleep 0.2
	done
	sed 's/^/    /' "$tmp/q.txt" >&2
	return 1
}

# capture NAME FOURCC WxH COUNT FILE: v4l2-ctl at that format, each
# buffer's sequence and timestamp in OUTDIR/NAME.log, the frames in FILE;
# the driver's drops during it in OUTDIR/drops.txt.
capture() {
	name=$1 fourcc=$2 size=$3 count=$4 file=$5
	c --set-fmt-video=width="${size%x*}",height="${size#*x}",pixelformat="$fourcc" \
		>/dev/null || die "$name: S_FMT $fourcc $size"
	c --get-fmt-video >"$tmp/fmt.txt"
	grep -q "Width/Height *: ${size%x*}/${size#*x}" "$tmp/fmt.txt" ||
		die "$name: the format is not $size: $(grep Width "$tmp/fmt.txt")"
	bpl=$(sed -n 's/.*Bytes per Line *: *//p' "$tmp/fmt.txt")
	want=${size%x*}
	[ "$fourcc" = YUYV ] && want=$((want * 2))
	[ "$bpl" = "$want" ] || die "$name: bytes per line $bpl, want $want"
	d0=$(cat "$board/stats/dropped")
	c --stream-mmap=4 --stream-count="$count" --stream-to="$file" --verbose \
		>"$out/$name.log" 2>&1 || { tail -n 5 "$out/$name.log" >&2; die "$name: v4l2-ctl failed"; }
	d1=$(cat "$board/stats/dropped")
	echo "$name $((d1 - d0))" >>"$out/drops.txt"
	size_b=$(stat -c %s "$file")
	say "$name: $count frames of $fourcc $size, $size_b bytes, $((d1 - d0)) dropped by the driver"
}

# --- A: ffmpeg's 1080p25 clip ---------------------------------------------
timings_are 1920x1080 25 || die "the ffmpeg pipeline's timings are not 1920x1080 at 25 fps"
say "ffmpeg pipeline: $(grep -E 'Active (width|height)|Pixelclock' "$tmp/q.txt" | tr -s ' \t\n' ' ')"
c --set-dv-bt-timings query >/dev/null || die "cannot set the timings"
capture a-cap YU12 1920x1080 50 "$tmp/a.yu12"
# Hashed here: the frames stay in the guest.
"$cmp" hash YU12 1920x1080 "$tmp/a.yu12" >"$out/a-cap.hash" || die "hashing the capture"
rm -f "$tmp/a.yu12"
# The board's scaler: 640x360 from the 1080p source.
capture a-cap-640x360 YUYV 640x360 20 "$out/a-cap-640x360.yuyv"
c --get-dv-timings | grep -q 'Active width: 1920' ||
	die "S_FMT 640x360 changed the timings"

# --- the change: the ffmpeg pipeline ends, GStreamer's starts at 720p50 -----
c --set-fmt-video=width=1920,height=1080,pixelformat=YU12 >/dev/null ||
	die "S_FMT 1920x1080"
# The lost signal between the two pipelines is waited for.
"$vs" capture -d "$video" -t 60 --timeout 20000 --raw -o /dev/null -q \
	>"$out/change.out" 2>"$out/change.err" &
pid=$!
sleep 2
kill -0 "$pid" 2>/dev/null || { cat "$out/change.err" >&2; die "vcap-stream ended before the change"; }
: >"$rpc/want-b"
end=$(($(date +%s) + 30))
until [ -e "$rpc/done-b" ]; do
	[ "$(date +%s)" -lt $end ] || die "the host did not start the second pipeline"
	sleep 0.1
done
end=$(($(date +%s) + 30))
while kill -0 "$pid" 2>/dev/null && [ "$(date +%s)" -lt $end ]; do
	sleep 0.1
done
kill -0 "$pid" 2>/dev/null && { kill "$pid"; die "vcap-stream still capturing 30 s after the change"; }
wait "$pid"
st=$?
say "the change: vcap-stream capture exit $st: $(tail -n 2 "$out/change.err" | tr '\n' ' ')"
# Exit 3: the capture ended its file at a source change (a new size).
[ "$st" -eq 3 ] || { cat "$out/change.err" >&2; die "vcap-stream exit $st at the change, want 3"; }
timings_are 1280x720 50 || die "after the change the timings are not 1280x720 at 50 fps"
say "GStreamer pipeline: $(grep -E 'Active (width|height)|Pixelclock' "$tmp/q.txt" | tr -s ' \t\n' ' ')"
c --set-dv-bt-timings query >/dev/null || die "cannot set the new timings"

# --- B: GStreamer's 720p50 bars -------------------------------------------
capture b-cap YU12 1280x720 60 "$tmp/b.yu12"
"$cmp" hash YU12 1280x720 "$tmp/b.yu12" >"$out/b-cap.hash" || die "hashing the capture"
rm -f "$tmp/b.yu12"
capture b-cap-yuyv YUYV 1280x720 10 "$out/b-cap.yuyv"
say "done"
