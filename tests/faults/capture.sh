#!/bin/sh
# Nothing lost: vcap-stream capture to a Y4M file on the PCI board while
# (1) the firmware dies for 3 s mid-stream and comes back, and (2) the
# board is unbound mid-stream.  Each time the file must be a header and
# whole frames only, hold enough frames, and the tool must say what
# happened on stderr; afterwards a live verify proves the stream whole.
# Runs in the guest under faults.sh (FX_RPC reaches the firmware).
# Usage: capture.sh VCAP-STREAM
set -u
tool=$1
out=/tmp/fx-capture
fails=0
say() { echo "fx-capture: $*"; }
fail() { echo "fx-capture: FAIL: $*" >&2; fails=$((fails + 1)); }
mkdir -p "$out"

. "$(dirname "$0")/fw-relay.sh"

# y4m_check FILE: prints the number of whole frames; fails unless the
# file is a 4:2:2 header and whole frames only.
y4m_check() {
	python3 "$(dirname "$0")/../userspace/y4m-frames.py" "$1" 422
}

video=
for d in /sys/class/video4linux/video*; do
	case $(cat "$d/name" 2>/dev/null) in vcap*) video=/dev/${d##*/} ;; esac
done
[ -n "$video" ] || { echo "fx-capture: no vcap V4L2 node" >&2; exit 1; }
pci=$(ls /sys/bus/pci/drivers/vcap | grep '^0000:' | head -n 1)
[ -n "$pci" ] || { echo "fx-capture: no PCI board bound to vcap" >&2; exit 1; }
say "board $pci, V4L2 node $video"
mode="--fmt YUYV --size 640x480 --fps 30"

# finish PID LIMIT WHEN: wait for a capture at most LIMIT seconds; sets
# st (its status) and t (the seconds waited).
finish() {
	t=0
	while kill -0 "$1" 2>/dev/null && [ $t -lt "$2" ]; do
		sleep 1
		t=$((t + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		fail "capture still running $3"
		kill "$1"
	fi
	wait "$1"
	st=$?
}

# verify_stream WHAT: the stream is whole again (order, stamps, no drops).
# A host that stalls the guest for a frame period shows as a drop, so at
# 15 fps and one more attempt, each reported.
verify_stream() {
	for attempt in 1 2; do
		"$tool" verify -d "$video" --fmt YUYV --size 640x480 --fps 15 \
			-n 30 -q >"$out/verify.txt" 2>&1 && return 0
		say "$1, attempt $attempt: $(cat "$out/verify.txt")"
	done
	fail "$1: $(cat "$out/verify.txt")"
}

# 1. The firmware dies for 3 s while a 12 s capture runs.  The outage
# is as long as the tool's default wait for a frame, so it waits longer:
# a capture that is to ride out an outage must outwait it.
"$tool" capture -d "$video" $mode -t 12 --timeout 10000 -o "$out/die.y4m" \
	2>"$out/die.err" &
pid=$!
sleep 3
fw fault die 3000 || fail "the firmware did not take 'fault die 3000'"
finish $pid 40 "40 s into a 12 s capture"
n=$(y4m_check "$out/die.y4m") || { fail "firmware death: not a whole Y4M file"; n=0; }
say "firmware death: status $st, $n whole frames; stderr: $(tr '\n' '|' <"$out/die.err")"
# At 30 fps over 12 s less the outage (3 s, and the time to notice it and
# to come back) at least a third of the frames must be there.
[ "$n" -ge 120 ] || fail "firmware death: only $n frames in 12 s"
# What happened is said: the outage shows as dropped or bad frames.
grep -Eq '(^|[ ,])[1-9][0-9]* (dropped|bad)' "$out/die.err" ||
	fail "firmware death: the tool did not say frames were lost: $(cat "$out/die.err")"
# After the outage the stream is whole again.
verify_stream "after the firmware came back"

# 2. The board is unbound under a 60 s capture.
"$tool" capture -d "$video" $mode -t 60 -o "$out/unbind.y4m" 2>"$out/unbind.err" &
pid=$!
sleep 3
echo "$pci" >/sys/bus/pci/drivers/vcap/unbind || fail "unbind $pci"
finish $pid 20 "20 s after the board went away"
n=$(y4m_check "$out/unbind.y4m") || { fail "unbind: not a whole Y4M file"; n=0; }
say "unbind: status $st after ${t} s, $n whole frames; stderr: $(tr '\n' '|' <"$out/unbind.err")"
[ $st -eq 1 ] || fail "unbind: status $st, want 1"
[ "$n" -gt 0 ] || fail "unbind: no frame kept"
grep -Eq "$video.*(No such device|device error|Input/output error)" "$out/unbind.err" ||
	fail "unbind: the error does not name the device and the cause: $(cat "$out/unbind.err")"

echo "$pci" >/sys/bus/pci/drivers/vcap/bind || fail "rebind $pci"
t=0
until [ -e "$video" ] || [ $t -ge 50 ]; do sleep 0.2; t=$((t + 1)); done
verify_stream "after rebind"

[ $fails -eq 0 ] && say "ok" || say "$fails failures"
[ $fails -eq 0 ]
