#!/bin/sh
# The PCI board's HDMI input, its source played by vcap-fw on the host:
# the timings the driver queries follow each source the firmware is told
# to play (through the relay), no signal, unstable and out-of-range give
# their errors, hotplug follows the EDID, v4l2-ctl streams on across a
# link loss, and the board's scaler gives the size asked for.  Runs in the guest under faults.sh.
set -u
out=/tmp/fx-hdmi
fails=0
say() { echo "fx-hdmi: $*"; }
fail() { echo "fx-hdmi: FAIL: $*" >&2; fails=$((fails + 1)); }
mkdir -p "$out"

FW_TAG=hdmi
. "$(dirname "$0")/fw-relay.sh"

video=
for d in /sys/class/video4linux/video*; do
	case $(cat "$d/name" 2>/dev/null) in vcap*) video=/dev/${d##*/} ;; esac
done
[ -n "$video" ] || { echo "fx-hdmi: no vcap node" >&2; exit 1; }
c() { v4l2-ctl -d "$video" "$@"; }

# query_is WIDTH|ERROR-TEXT: within 3 s, the query says so.
query_is() {
	i=0
	while [ $i -lt 30 ]; do
		c --query-dv-timings >"$out/q.txt" 2>&1
		case $1 in
		[0-9]*) grep -q "Active width: $1\$" "$out/q.txt" && return 0 ;;
		*) grep -q "$1" "$out/q.txt" && return 0 ;;
		esac
		sleep 0.1
		i=$((i + 1))
	done
	sed 's/^/    /' "$out/q.txt" | head -n 3
	return 1
}

c -i 0 >/dev/null || fail "cannot select the HDMI input"
c --list-inputs | grep -q "HDMI" || fail "no HDMI input on the PCI board"
query_is 1920 || fail "the firmware's default source is not 1080p60"
for s in 720p60:1280 640x480p60:640 1080p50:1920; do
	fw source "${s%:*}" || fail "vcap-fw ctl source ${s%:*}"
	query_is "${s#*:}" || fail "source ${s%:*}: query does not say ${s#*:}"
done
fw source none || fail "vcap-fw ctl source none"
query_is "Link has been severed" || fail "source none: no ENOLINK"
c --list-inputs | grep -iq "no signal" || fail "source none: input not 'no signal'"
fw source unstable || fail "vcap-fw ctl source unstable"
query_is "No locks available" || fail "source unstable: no ENOLCK"
fw source out-of-range || fail "vcap-fw ctl source out-of-range"
query_is "out of range" || fail "source out-of-range: no ERANGE"
fw source 640x480p60 || fail "vcap-fw ctl source 640x480p60"
query_is 640 || fail "source 640x480p60 not back"
c --clear-edid || fail "clear-edid"
query_is "Link has been severed" || fail "no EDID: the link stays up"
c --set-edid=type=hdmi || fail "set-edid"
query_is 640 || fail "EDID back: the link does not return"

# v4l2-ctl streams on across a lost signal: it waits for new timings,
# sets them and goes on to its count.
c --set-dv-bt-timings query --set-fmt-video=pixelformat=YUYV >/dev/null ||
	fail "cannot set the timings"
c --stream-mmap --stream-poll --stream-count=240 --stream-to=/dev/null \
	>"$out/stream.out" 2>"$out/stream.err" &
pid=$!
sleep 2
fw source none || fail "vcap-fw ctl source none (streaming)"
sleep 2
fw source 640x480p60 || fail "vcap-fw ctl source back (streaming)"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 "$pid" 2>/dev/null; then
	kill "$pid"
	fail "v4l2-ctl still streaming 60 s after the signal came back"
fi
wait "$pid"
st=$?
found=$(grep -c "New timings found" "$out/stream.err")
say "v4l2-ctl across a lost signal: exit $st, timings found $found times"
[ "$st" -eq 0 ] || { tail -n 5 "$out/stream.err" >&2; fail "v4l2-ctl exited $st"; }
[ "$found" -ge 2 ] || fail "v4l2-ctl did not see the source change"

# The board's scaler: a 720p60 source captured at 640x480 (its picture
# letterboxed by the firmware), the timings left as the source sends them.
fw source 720p60 || fail "vcap-fw ctl source 720p60"
query_is 1280 || fail "source 720p60 not seen"
c --set-dv-bt-timings query >/dev/null || fail "cannot set the 720p60 timings"
c --set-fmt-video=width=640,height=480,pixelformat=YUYV >/dev/null ||
	fail "S_FMT 640x480 on the HDMI input"
c --get-fmt-video | grep -q 'Width/Height *: 640/480' ||
	fail "the HDMI input did not take 640x480: $(c --get-fmt-video | grep Width)"
c --get-dv-timings | grep -q 'Active width: 1280' ||
	fail "S_FMT changed the timings"
c --stream-mmap --stream-count=30 --stream-to="$out/scaled.yuv" \
	>/dev/null 2>"$out/scaled.err" || fail "streaming at 640x480 from 720p60"
size=$(stat -c %s "$out/scaled.yuv" 2>/dev/null || echo 0)
[ "$size" -eq $((30 * 640 * 480 * 2)) ] ||
	fail "30 scaled frames are $size bytes, want $((30 * 640 * 480 * 2))"
say "scaled: 30 frames of 640x480 from a 720p60 source"

[ $fails -eq 0 ] || { echo "fx-hdmi: $fails failures" >&2; exit 1; }
echo "fx-hdmi: PASS"
