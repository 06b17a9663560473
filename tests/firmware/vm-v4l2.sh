#!/bin/sh
# In the guest: vcap-fw with vivid's webcam as the camera on its HDMI
# input and a plain file as the board's memory, read by fw-v4l2-guest as
# a driver reads it.  The frames come in order at the camera's rate with
# its capture times, byte for byte the frame v4l2-ctl captures from
# vivid itself; the camera unplugged (vivid's Disconnect) is no signal,
# and the board finds it again when it is back.  vivid sends no MJPEG
# (unit-fw-jpeg covers it): YUYV at the HDMI timing's size goes through
# unconverted, which makes the byte-for-byte comparison possible.
#
# usage: vm-v4l2.sh VCAP_FW FW_V4L2_GUEST OUTDIR
set -u
fw=$1 guest=$2 out=$3
fails=0
say() { echo "vm-v4l2: $*"; }
fail() { echo "vm-v4l2: FAIL: $*"; fails=$((fails + 1)); }
die() { echo "vm-v4l2: $*"; [ -n "${pid:-}" ] && kill "$pid"; exit 1; }
W=640 H=480
pid=

# One webcam input (input type 0): discrete sizes and rates, YUYV and
# more, a static test pattern once its text is off.
. "$(dirname "$0")/../harness/vivid-menu.sh"
vivid_one 0x0
mkdir -p "$out" || die "cannot create $out"
v4l2-ctl -d "$dev" -c osd_text_mode=2 || die "cannot turn vivid's text off"

# vivid's own frames at 30 fps, a webcam's rate (vivid goes to 120).
fps=30
v4l2-ctl -d "$dev" --set-fmt-video=width=$W,height=$H,pixelformat=YUYV ||
	die "cannot set 640x480 YUYV"
v4l2-ctl -d "$dev" --set-parm=$fps >/dev/null || die "cannot set $fps fps"
v4l2-ctl -d "$dev" --stream-mmap --stream-count=4 --stream-to="$out/ref.yuv" ||
	die "v4l2-ctl cannot capture from vivid"
say "vivid $dev: 640x480 YUYV at $fps fps"

"$fw" --list-sources >"$out/sources.txt" 2>&1 || fail "--list-sources failed"
grep -q "v4l2:$dev  vivid (vivid, platform:vivid-000)" "$out/sources.txt" &&
	grep -q "YUYV" "$out/sources.txt" &&
	grep -q "640x480:.* $fps .*fps$" "$out/sources.txt" ||
	{ cat "$out/sources.txt"; fail "--list-sources does not list vivid's modes"; }

# A device that is not there, a mode vivid does not have: refused.
"$fw" serve --shm vcap-v4l2-bad --size 16M --source v4l2:/dev/video99 \
	>"$out/bad.log" 2>&1 && fail "a missing device was taken"
grep -q "/dev/video99.*No such file" "$out/bad.log" ||
	{ cat "$out/bad.log"; fail "no reason for the missing device"; }
"$fw" serve --shm vcap-v4l2-bad --size 16M --source "v4l2:$dev:800x600" \
	>"$out/bad.log" 2>&1 && fail "a mode vivid lacks was taken"
grep -q "has no mode 800x600" "$out/bad.log" ||
	{ cat "$out/bad.log"; fail "no reason for the missing mode"; }

# Memory and socket on tmpfs: the output folder is a 9p share.
mem=/dev/shm/vcap-v4l2-board
ctl=/dev/shm/vcap-v4l2.ctl
rm -f "$mem"
"$fw" serve --shm "$mem" --ctl "$ctl" --size 16M \
	--source "v4l2:$dev:${W}x$H@$fps:YUYV" >"$out/fw.log" 2>&1 &
pid=$!
for i in $(seq 100); do
	grep -q ready "$out/fw.log" && break
	sleep 0.1
done
grep -q ready "$out/fw.log" || { cat "$out/fw.log"; die "vcap-fw did not start"; }

"$fw" ctl "$ctl" stats >"$out/stats0" || fail "stats"
t0=$(date +%s.%N)
"$guest" stream "$mem" "$out/ref.yuv" $W $H "$fps" 4 || fail "stream"
"$fw" ctl "$ctl" stats >"$out/stats1" || fail "stats"
t1=$(date +%s.%N)
n0=$(sed -n 's/^v4l2_frames_in=//p' "$out/stats0")
n1=$(sed -n 's/^v4l2_frames_in=//p' "$out/stats1")
n=$((n1 - n0))
rate=$(echo "$n $t0 $t1" | awk '{ printf "%d", $1 / ($3 - $2) }')
say "the camera's frames into the board: $n, $rate a second"
# The reader keeps up with the camera; an emulated guest on a loaded
# host loses a few.
[ "$rate" -ge $((fps * 6 / 10)) ] && [ "$rate" -le $((fps * 11 / 10 + 1)) ] ||
	fail "$rate frames a second from a $fps fps camera"
grep -q "^v4l2_stream=${W}x$H rate=$fps/1 timing=640x480p60$" "$out/stats1" ||
	{ cat "$out/stats1"; fail "stream and timing"; }
grep -q "^v4l2_errors=0$" "$out/stats1" || { cat "$out/stats1"; fail "errors"; }

# Unplugged: no signal, the board running on; back, the frames resume.
# vivid stays disconnected while a file handle is open (fd 3 here), and
# comes back once the last one closes.
exec 3<"$dev" || die "cannot open $dev"
v4l2-ctl -d "$dev" -c disconnect=1 2>&1 || fail "cannot disconnect vivid"
"$guest" nosignal "$mem" || fail "nosignal"
sleep 1.5	# a retry to open it, at least
"$fw" ctl "$ctl" stats >"$out/stats2" || fail "stats after the unplug"
grep -q "^v4l2=waiting$" "$out/stats2" &&
	grep -q "^v4l2_last_error=.*No such device" "$out/stats2" ||
	{ cat "$out/stats2"; fail "the unplug is not named"; }
exec 3<&-
"$guest" back "$mem" || fail "back"
"$fw" ctl "$ctl" stats >"$out/stats3" || fail "stats after the return"
opens=$(sed -n 's/^v4l2_opens=//p' "$out/stats3")
[ "${opens:-0}" -ge 2 ] || { cat "$out/stats3"; fail "opened $opens times"; }

kill "$pid"
wait "$pid"
st=$?
pid=
[ $st -eq 0 ] || fail "vcap-fw exited with $st"
grep -q "v4l2:$dev: unplugged" "$out/fw.log" ||
	{ cat "$out/fw.log"; fail "the unplug is not logged"; }
[ $fails -eq 0 ] || exit 1
say "ok"
