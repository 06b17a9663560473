#!/bin/sh
# vcap-stream following an HDMI source through changes, against vivid's
# HDMI input: bench goes on across 1080p -> 720p, a lost signal and its
# return, counting each change and delivering frames of the new size; a
# Y4M capture waits out a lost signal, then ends its file on whole frames
# with status 3 when the size changes.  The changes come from vivid's
# controls, set from another process while the tool runs.
set -u
tool=$1
out=$2			# writable directory for the files
fails=0
say() { echo "vivid-source-change: $*"; }
fail() { echo "vivid-source-change: FAIL: $*" >&2; fails=$((fails + 1)); }
die() { echo "vivid-source-change: $*" >&2; exit 1; }

# One HDMI input (input type 3).
. "$(dirname "$0")/../harness/vivid-menu.sh"
vivid_one 0x3
mkdir -p "$out"
v4l2-ctl -d "$dev" -i 0 >/dev/null || die "cannot select input 0"
v4l2-ctl -d "$dev" -L >"$out/controls.txt" 2>&1 || die "v4l2-ctl -L failed"

vivid_controls=$out/controls.txt
selected=$(menu_index dv_timings_signal_mode "^Selected DV Timings")
nosignal=$(menu_index dv_timings_signal_mode "^No Signal")
# 25 Hz timings: vivid's generator thread, late at 60 Hz under emulation,
# can pass schedule_timeout() a negative wait, a kernel warning.
p1080=$(menu_index dv_timings "^1920x1080p25$")
p720=$(menu_index dv_timings "^1280x720p25$")
say "$dev: signal modes selected=$selected none=$nosignal; timings 1080p25=$p1080 720p25=$p720"
[ -n "$selected" ] && [ -n "$nosignal" ] && [ -n "$p1080" ] && [ -n "$p720" ] ||
	die "vivid's DV timings controls not found: $(cat "$out/controls.txt")"

ctl() { v4l2-ctl -d "$dev" -c "$1" || fail "v4l2-ctl -c $1"; }
# The source vivid's HDMI input reports: the selected timings.
ctl dv_timings_signal_mode=$selected
ctl dv_timings=$p1080

# wait_for FILE PATTERN SECONDS: until FILE has a line matching PATTERN.
wait_for() {
	t=0
	while ! grep -Eq "$2" "$1" 2>/dev/null; do
		[ $t -ge $(($3 * 5)) ] && return 1
		sleep 0.2
		t=$((t + 1))
	done
}

# bench follows: 1080p, then 720p, no signal, 720p again.  vivid under
# emulation drops frames; bench counts them, verify would stop at the
# first.
# It runs until stopped (SIGTERM), 4 s after the signal came back.
"$tool" bench -d "$dev" -t 120 --timeout 20000 >"$out/bench.txt" 2>"$out/bench.err" &
pid=$!
sleep 5
ctl dv_timings=$p720
wait_for "$out/bench.err" "source change 1:" 20 || fail "bench: no first change"
sleep 5
ctl dv_timings_signal_mode=$nosignal
wait_for "$out/bench.err" "source change 2:" 20 || fail "bench: no second change"
sleep 3
ctl dv_timings_signal_mode=$selected
wait_for "$out/bench.err" "source change 3:" 20 || fail "bench: no third change"
sleep 4
kill -TERM $pid
wait $pid
st=$?
say "bench: status $st"
sed 's/^/  /' "$out/bench.err" "$out/bench.txt"
[ $st -eq 0 ] || fail "bench exited $st"
rate='@ 25 fps'
grep -Eq "^bench: $dev: source change 1: YUYV 1920x1080 $rate -> YUYV 1280x720 $rate \(size\)$" \
	"$out/bench.err" || fail "bench: change 1 not 1080p -> 720p"
grep -q "^bench: $dev: source change 2: signal lost$" "$out/bench.err" ||
	fail "bench: change 2 not the signal lost"
grep -Eq "^bench: $dev: source change 3: signal back after [0-9.]+ s: YUYV 1280x720 $rate \(unchanged\)$" \
	"$out/bench.err" || fail "bench: change 3 not the signal back at 720p"
[ "$(grep -c "source change" "$out/bench.err")" -eq 3 ] || fail "bench: not three changes"
# Frames in each mode: before the change, after it, after the signal came back.
grep -Eq "^bench: segment 1: [1-9][0-9]* frames of YUYV 1920x1080 " "$out/bench.err" ||
	fail "bench: no 1080p frames before the change"
grep -Eq "^bench: segment 2: [1-9][0-9]* frames of YUYV 1280x720 " "$out/bench.err" ||
	fail "bench: no 720p frames after the change"
grep -Eq "^bench: segment 4: [1-9][0-9]* frames of YUYV 1280x720 " "$out/bench.err" ||
	fail "bench: no 720p frames after the signal came back"
grep -q "^bench: segment 3:" "$out/bench.err" && fail "bench: frames while without a signal"
# The time without a signal: about the three seconds it was gone.
ns=$(sed -n 's/^  source changes *3, no signal for \([0-9.]*\) s.*/\1/p' "$out/bench.txt")
[ -n "$ns" ] && awk -v s="$ns" 'BEGIN { exit !(s >= 2 && s < 20) }' ||
	fail "bench: no-signal time '$ns'"
grep -q "1280x720" "$out/bench.txt" || fail "bench: table not in the last mode"

# A lost signal at start: said clearly, then waited for.
ctl dv_timings_signal_mode=$nosignal
"$tool" bench -d "$dev" -t 3 --timeout 20000 >"$out/late.txt" 2>"$out/late.err" &
pid=$!
wait_for "$out/late.err" "no signal; waiting up to 20000 ms" 20 || fail "late: no 'no signal' line"
sleep 2
ctl dv_timings_signal_mode=$selected
wait $pid
st=$?
say "late source: status $st: $(cat "$out/late.err")"
[ $st -eq 0 ] && grep -q "signal: YUYV 1280x720" "$out/late.err" &&
	grep -q "YUYV 1280x720" "$out/late.txt" || fail "late source: $(cat "$out/late.err")"
# No source at all: the tool's timeout, status 1.
ctl dv_timings_signal_mode=$nosignal
"$tool" bench -d "$dev" -t 3 --timeout 2000 >/dev/null 2>"$out/none.err"
st=$?
[ $st -eq 1 ] && grep -q "no signal within 2000 ms" "$out/none.err" ||
	fail "no source: status $st: $(cat "$out/none.err")"
ctl dv_timings_signal_mode=$selected

# capture to Y4M: 720p; the signal goes and comes back in the same mode
# (the file goes on), then 1080p ends the file with status 3.
y4m=/tmp/source-change.y4m
"$tool" capture -d "$dev" -t 60 -n 100000 --timeout 20000 -o "$y4m" \
	2>"$out/capture.err" &
pid=$!
t=0
while [ ! -s "$y4m" ] && [ $t -lt 100 ]; do sleep 0.2; t=$((t + 1)); done
sleep 2
ctl dv_timings_signal_mode=$nosignal
wait_for "$out/capture.err" "source change 1:" 20 || fail "capture: no signal loss seen"
sleep 2
ctl dv_timings_signal_mode=$selected
wait_for "$out/capture.err" "source change 2:" 20 || fail "capture: no signal return seen"
sleep 2
ctl dv_timings=$p1080
t=0
while kill -0 $pid 2>/dev/null && [ $t -lt 30 ]; do sleep 1; t=$((t + 1)); done
if kill -0 $pid 2>/dev/null; then
	fail "capture still running 30 s after the size changed"
	kill $pid
fi
wait $pid
st=$?
say "capture: status $st"
sed 's/^/  /' "$out/capture.err"
[ $st -eq 3 ] || fail "capture across a size change: status $st, not 3"
hdr=$(head -n 1 "$y4m")
case $hdr in
"YUV4MPEG2 W1280 H720 "*) ;;
*) fail "capture: header '$hdr'" ;;
esac
n=$(python3 "$(dirname "$0")/y4m-frames.py" "$y4m") || fail "capture: not whole frames"
say "capture: $n whole frames"
grep -q "source change 1: signal lost" "$out/capture.err" &&
	grep -q "source change 2: signal back after" "$out/capture.err" ||
	fail "capture: the lost signal not reported"
grep -Eq "^vcap-stream capture: $dev: the source changed from YUYV 1280x720 $rate to YUYV 1920x1080 $rate; $y4m ends with ${n:-x} whole frames$" \
	"$out/capture.err" || fail "capture: no end message naming $n frames"
[ "${n:-0}" -gt 0 ] || fail "capture: no frames"
rm -f "$y4m"
rmmod vivid

[ $fails -eq 0 ] || die "$fails failures"
say "all passed"
