#!/bin/sh
# vcap-stream against vivid in the guest: list, formats, verify on
# sequence numbers (vivid draws no vcap stamps), a Y4M capture checked
# frame by frame, bench as JSON, and the bad inputs: an unsupported
# format, a full disk and a device that vanishes mid-stream.
set -u
tool=$1
out=$2			# writable directory for the files
fails=0
say() { echo "vivid-stream: $*"; }
fail() { echo "vivid-stream: FAIL: $*" >&2; fails=$((fails + 1)); }

modprobe vivid n_devs=1 node_types=0x1 num_inputs=1 input_types=0x0 ||
	{ echo "vivid-stream: cannot load vivid" >&2; exit 1; }
dev=
for d in /sys/class/video4linux/video*; do
	[ "$(cat "$d/name")" = "vivid-000-vid-cap" ] && dev=/dev/${d##*/}
done
[ -n "$dev" ] || { echo "vivid-stream: vivid's capture node not found" >&2; exit 1; }
mkdir -p "$out"
say "vivid capture node: $dev"

# y4m_frames FILE: prints the number of whole frames; fails unless the
# file is a header and whole frames only.
y4m_frames() {
	python3 "$(dirname "$0")/y4m-frames.py" "$1"
}

# list and formats name the device and its YUYV sizes.
"$tool" list >"$out/list.txt" 2>&1 || fail "list exited $?"
grep -q "^$dev .*capture .*vivid" "$out/list.txt" || fail "list: $(cat "$out/list.txt")"
"$tool" formats -d "$dev" >"$out/formats.txt" 2>&1 || fail "formats exited $?"
grep -q "YUYV" "$out/formats.txt" && grep -q "640x360" "$out/formats.txt" ||
	fail "formats: $(cat "$out/formats.txt")"

# verify: order and no drops through sequence numbers.  vivid numbers
# frames by the wall clock, so when the emulated guest loses the CPU for
# half a frame period (a loaded host) its sequence skips, and verify
# rightly reports a drop.  Up to three attempts at 5 fps, each reported.
# If every attempt sees such a gap, the run still must have found nothing
# but gaps (no step back, no bad frame) and named the frame in the form
# documented; it says loudly that drop-freedom was not shown this time.
ok=0 gaps=0
for attempt in 1 2 3; do
	if "$tool" verify -d "$dev" --fmt YUYV --size 320x180 --fps 5 -n 25 \
		--buffers 8 --no-stamps >"$out/verify.txt" 2>&1; then
		grep -q "verify: OK: 25 frames" "$out/verify.txt" &&
			grep -q "sequence numbers only" "$out/verify.txt" && ok=1
		say "$(cat "$out/verify.txt")"
		break
	fi
	say "verify attempt $attempt: $(cat "$out/verify.txt")"
	grep -Eq "^vcap-stream verify: FAIL: $dev: frame [0-9]+: dropped frames: sequence ([0-9]+) after [0-9]+ \([0-9]+ missing\)$" \
		"$out/verify.txt" && gaps=$((gaps + 1))
done
if [ $ok -eq 0 ]; then
	if [ $gaps -eq 3 ]; then
		say "WARNING: vivid skipped sequence numbers in every attempt (host load); order was checked, drop-freedom not shown"
	else
		fail "verify --no-stamps: $(cat "$out/verify.txt")"
	fi
fi
# Asked for stamps, vivid's frames must fail, naming frame 0.
if "$tool" verify -d "$dev" -n 5 --stamps >"$out/verify-stamps.txt" 2>&1; then
	fail "verify --stamps passed on vivid"
else
	grep -q "FAIL: $dev: frame 0: bad stamp" "$out/verify-stamps.txt" ||
		fail "verify --stamps: $(cat "$out/verify-stamps.txt")"
fi

# capture --y4m: a valid file, header then whole frames.  Written to
# the guest's tmpfs: the 9p share is too slow to keep up with vivid.
y4m=/tmp/vivid.y4m
if "$tool" capture -d "$dev" --fmt YUYV --size 640x360 --fps 30 -n 12 \
	-o "$y4m" --snapshot "$out/vivid.png" 2>"$out/capture.txt"; then
	hdr=$(head -n 1 "$y4m")
	[ "$hdr" = "YUV4MPEG2 W640 H360 F30:1 Ip A1:1 C422" ] ||
		fail "capture: header '$hdr'"
	n=$(y4m_frames "$y4m") && [ "$n" -eq 12 ] ||
		fail "capture: $n frames"
	head -c 8 "$out/vivid.png" | od -c | grep -q "P   N   G" ||
		fail "capture: snapshot is not a PNG"
	cp "$y4m" "$out/"
	say "$(cat "$out/capture.txt")"
else
	fail "capture: $(cat "$out/capture.txt")"
fi

# bench --json: frames counted over wall time, no drops.
if "$tool" bench -d "$dev" --fmt YUYV --size 320x180 --fps 30 -t 3 --json \
	>"$out/bench.json" 2>"$out/bench.err"; then
	python3 - "$out/bench.json" <<'PY' || fail "bench: $(cat "$out/bench.json")"
import json, sys
b = json.load(open(sys.argv[1]))
assert b["driver"] == "vivid" and b["source"] == "v4l2", b
l = b["latency_ns"]
assert b["frames"] >= 10, b
# Counted over wall time: frames / seconds, never above vivid's 30 fps.
assert abs(b["fps"] * b["seconds"] - b["frames"]) < 0.5, b
assert 0 < b["fps"] <= 31, b
# vivid under emulation can skip or even repeat a sequence number at
# 30 fps (its generator resynchronises on a late wake-up): reported, not
# asserted; verify above checks order at a rate it holds.
assert b["errors"] == 0 and b["torn"] == 0, b
# vivid stamps monotonic times: every frame is a sample or stamped ahead.
assert l["samples"] + l["ahead"] == b["frames"], b
assert l["samples"] == 0 or l["p50"] <= l["p95"] <= l["p99"] <= l["max"], b
assert b["cpu_ns_per_frame"] > 0, b
assert b["memcpy_ns_per_frame"] > 0, b
print("vivid-stream: bench: %.2f fps, %d frames, %d drops, latency samples %d "
      "(p99 %.2f ms), %d stamped ahead, cpu/frame %.3f ms"
      % (b["fps"], b["frames"], b["drops"], l["samples"], l["p99"] / 1e6,
         l["ahead"], b["cpu_ns_per_frame"] / 1e6))
PY
else
	fail "bench: $(cat "$out/bench.err")"
fi
"$tool" bench -d "$dev" -t 2 >"$out/bench.txt" 2>&1 &&
	grep -q "fps (wall time)" "$out/bench.txt" || fail "bench table: $(cat "$out/bench.txt")"

# DMABUF export: vivid offers VIDIOC_EXPBUF, so every buffer has a dma-buf.
"$tool" bench -d "$dev" --fmt YUYV --size 320x180 --fps 10 -n 5 --dmabuf --json \
	>"$out/bench-dmabuf.json" 2>&1 &&
	grep -q '"dmabuf": true' "$out/bench-dmabuf.json" ||
	fail "bench --dmabuf: $(cat "$out/bench-dmabuf.json")"
grep -q '"dmabuf": false' "$out/bench.json" || fail "bench without --dmabuf exported"

# An unsupported format: one line, status 1.
if "$tool" capture -d "$dev" --fmt MJPG -n 1 -o "$out/x.raw" 2>"$out/fmt.err"; then
	fail "capture MJPG succeeded"
else
	grep -q "format MJPG not supported" "$out/fmt.err" && [ "$(wc -l <"$out/fmt.err")" -eq 1 ] ||
		fail "unsupported format: $(cat "$out/fmt.err")"
fi

# A full disk: status 1, the file ends on a whole frame.
mkdir -p /mnt/small && mount -t tmpfs -o size=1m tmpfs /mnt/small
if "$tool" capture -d "$dev" --fmt YUYV --size 320x180 -n 100 -o /mnt/small/full.y4m \
	2>"$out/full.err"; then
	fail "capture to a full disk succeeded"
else
	grep -q "No space left on device" "$out/full.err" || fail "full disk: $(cat "$out/full.err")"
	n=$(y4m_frames /mnt/small/full.y4m) && [ "$n" -gt 0 ] ||
		fail "full disk: not a whole Y4M file ($n)"
	grep -q "kept with $n whole frames" "$out/full.err" ||
		fail "full disk: $(cat "$out/full.err") vs $n frames"
	say "full disk: $(head -n 1 "$out/full.err")"
fi
umount /mnt/small

# The device vanishes mid-stream: vivid unbound under a running capture.
"$tool" capture -d "$dev" --fmt YUYV --size 320x180 -t 60 -o /tmp/vanish.y4m \
	2>"$out/vanish.err" &
pid=$!
sleep 3
echo vivid.0 >/sys/bus/platform/drivers/vivid/unbind
t=0
while kill -0 $pid 2>/dev/null && [ $t -lt 20 ]; do sleep 1; t=$((t + 1)); done
if kill -0 $pid 2>/dev/null; then
	fail "capture still running 20 s after the device went away"
	kill $pid
fi
wait $pid
st=$?
if [ $st -ne 1 ]; then
	fail "vanished device: status $st: $(cat "$out/vanish.err")"
else
	n=$(y4m_frames /tmp/vanish.y4m) && [ "$n" -gt 0 ] ||
		fail "vanished device: not a whole Y4M file ($n)"
	[ "$(grep -vc '^capture:' "$out/vanish.err")" -eq 1 ] ||
		fail "vanished device: $(cat "$out/vanish.err")"
	say "vanished: $(grep -v '^capture:' "$out/vanish.err"); $n frames kept"
fi
echo vivid.0 >/sys/bus/platform/drivers/vivid/bind 2>/dev/null

# Nodes vcap-stream cannot read: a multiplanar-only capture node and an
# output node.  Each is refused up front with one line naming why.
rmmod vivid
if modprobe vivid n_devs=1 node_types=0x101 multiplanar=2; then
	for d in /sys/class/video4linux/video*; do
		case $(cat "$d/name") in
		vivid-000-vid-cap) mcap=/dev/${d##*/} ;;
		vivid-000-vid-out) vout=/dev/${d##*/} ;;
		esac
	done
	"$tool" verify -d "${mcap:-none}" -n 1 2>"$out/mplane.err"
	[ $? -eq 1 ] && grep -q "multiplanar capture (vivid) is not supported" "$out/mplane.err" ||
		fail "multiplanar node: $(cat "$out/mplane.err")"
	"$tool" capture -d "${vout:-none}" -n 1 -o /tmp/out.raw 2>"$out/output.err"
	[ $? -eq 1 ] && grep -q "not a video capture device" "$out/output.err" ||
		fail "output node: $(cat "$out/output.err")"
	say "refused: $(cat "$out/mplane.err") / $(cat "$out/output.err")"
	rmmod vivid
else
	fail "cannot load vivid with multiplanar=2"
fi

[ $fails -eq 0 ] || { echo "vivid-stream: $fails failures" >&2; exit 1; }
say "all passed"
