#!/bin/sh
# vcap-stream against a vcap board in the guest: verify with the board's
# stamps over V4L2 (YUYV and NV12) and over the VRAM node while a V4L2
# stream keeps the board running, bench over both paths, and a Y4M
# capture from VRAM checked frame by frame.
# Usage: vcap-stream-vcap.sh VCAP.KO VCAP-STREAM OUTDIR [MODULE PARAMS]
# With no parameters the board is the PCI one the VM was booted with;
# soft_boards=1 gives the software board.
set -u
ko=$1 tool=$2 out=$3
params=${4:-}
fails=0
say() { echo "vcap-stream-vcap: $*"; }
fail() { echo "vcap-stream-vcap: FAIL: $*" >&2; fails=$((fails + 1)); }

[ -f "$ko" ] || { echo "vcap-stream-vcap: $ko not built" >&2; exit 1; }
modprobe -a videodev videobuf2-common videobuf2-v4l2 videobuf2-memops v4l2-dv-timings ||
	{ echo "vcap-stream-vcap: cannot load the media modules" >&2; exit 1; }
# shellcheck disable=SC2086
insmod "$ko" $params || { echo "vcap-stream-vcap: insmod failed" >&2; exit 1; }
mkdir -p "$out"
"$tool" list >"$out/list.txt" 2>&1
video=$(awk '$2 == "capture" && $3 == "vcap" { print $1; exit }' "$out/list.txt")
vram=$(awk '$2 == "vram" { print $1; exit }' "$out/list.txt")
[ -n "$video" ] && [ -n "$vram" ] ||
	{ echo "vcap-stream-vcap: nodes not listed: $(cat "$out/list.txt")" >&2; exit 1; }
say "nodes: $video $vram"
"$tool" formats -d "$video" >"$out/formats.txt" 2>&1 || fail "formats: $(cat "$out/formats.txt")"

# Over V4L2: stamps are checked by default on a vcap device.  16 buffers
# give a second of slack to a guest that a loaded host starves.
for fmt in YUYV NV12; do
	if "$tool" verify -d "$video" --fmt $fmt --size 640x480 --fps 15 -n 60 --buffers 16 \
		>"$out/verify-$fmt.txt" 2>&1; then
		grep -q "verify: OK: 60 frames.*stamps checked" "$out/verify-$fmt.txt" ||
			fail "verify $fmt: $(cat "$out/verify-$fmt.txt")"
		say "$(cat "$out/verify-$fmt.txt")"
	else
		fail "verify $fmt: $(cat "$out/verify-$fmt.txt")"
	fi
done

# bench_check FILE SOURCE: the figures hang together.  Drops are
# reported, not asserted: verify above is the zero-drop check, and a
# guest starved by a loaded host drops frames however good the path.
case $params in
*soft_boards=*) soft=1 ;;
*) soft=0 ;;
esac
bench_check() {
	python3 - "$1" "$2" "$soft" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
l = b["latency_ns"]
assert b["source"] == sys.argv[2] and b["driver"] == "vcap", b
assert b["frames"] >= 5 and b["reorders"] == 0 and b["errors"] == 0, b
assert abs(b["fps"] * b["seconds"] - b["frames"]) < 0.5, b
assert 0 < b["fps"] <= 15.5, b
# The software board stamps on the guest's monotonic clock, so does the
# driver for V4L2 buffers: every such frame gives a latency sample.  A
# PCI board's VRAM timestamps are the host's: none there.
if sys.argv[3] == "1" or b["source"] == "v4l2":
    assert l["samples"] == b["frames"] and l["ahead"] == 0, b
    assert l["p50"] <= l["p95"] <= l["p99"] <= l["max"], b
else:
    assert l["samples"] == 0, b
print("%s: %.2f fps, %d frames, %d drops, %d torn, latency p50 %.2f p99 %.2f ms, cpu/frame %.3f ms"
      % (sys.argv[2], b["fps"], b["frames"], b["drops"], b["torn"], l["p50"] / 1e6,
         l["p99"] / 1e6, b["cpu_ns_per_frame"] / 1e6))
PY
}

# Over VRAM: a V4L2 stream keeps the board producing meanwhile, at 5 fps:
# a VRAM reader must take each frame before the ring wraps (3 slots), and
# a guest starved by a loaded host needs that slack.  It runs until the
# VRAM checks are done and it is stopped (SIGTERM).
"$tool" bench -d "$video" --fmt YUYV --size 640x480 --fps 5 -t 120 --json \
	>"$out/bench-v4l2.json" 2>"$out/bench-v4l2.err" &
streamer=$!
i=0
until "$tool" formats --vram "$vram" 2>/dev/null | grep -q "^active: YUYV"; do
	i=$((i + 1))
	[ $i -lt 30 ] || { fail "the board never started"; break; }
	sleep 0.5
done
if "$tool" verify --vram "$vram" -n 40 >"$out/verify-vram.txt" 2>&1; then
	grep -q "verify: OK: 40 frames.*stamps checked" "$out/verify-vram.txt" ||
		fail "verify vram: $(cat "$out/verify-vram.txt")"
	say "$(cat "$out/verify-vram.txt")"
else
	fail "verify vram: $(cat "$out/verify-vram.txt")"
fi
if "$tool" bench --vram "$vram" -t 5 --json >"$out/bench-vram.json" 2>"$out/bench-vram.err"; then
	r=$(bench_check "$out/bench-vram.json" vram) && say "bench $r" ||
		fail "bench vram: $(cat "$out/bench-vram.json")"
else
	fail "bench vram: $(cat "$out/bench-vram.err")"
fi
if "$tool" capture --vram "$vram" -n 10 -o /tmp/vram.y4m 2>"$out/capture-vram.txt"; then
	n=$(python3 - /tmp/vram.y4m <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
hdr, _, rest = d.partition(b"\n")
assert hdr == b"YUV4MPEG2 W640 H480 F5:1 Ip A1:1 C422", hdr
size, n = 640 * 480 * 2, 0
while rest:
    assert rest[:6] == b"FRAME\n" and len(rest) >= 6 + size, n
    rest = rest[6 + size:]
    n += 1
print(n)
PY
) && [ "$n" -eq 10 ] || fail "capture vram: $n frames"
	say "$(cat "$out/capture-vram.txt")"
else
	fail "capture vram: $(cat "$out/capture-vram.txt")"
fi
kill -TERM $streamer
wait $streamer || fail "V4L2 bench: $(cat "$out/bench-v4l2.err")"
r=$(bench_check "$out/bench-v4l2.json" v4l2) && say "bench $r" ||
	fail "bench v4l2: $(cat "$out/bench-v4l2.json")"

i=0
until rmmod vcap 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 20 ] || { fail "rmmod vcap"; break; }
	sleep 0.5
done
[ $fails -eq 0 ] || { echo "vcap-stream-vcap: $fails failures" >&2; exit 1; }
say "all passed"
