#!/bin/sh
# Live video from host pipelines into the guest, end to end.  vcap-fw
# plays a FIFO on the PCI board's HDMI input (DMA into the guest's
# buffers); on the host an ffmpeg pipeline loops a 1080p25 testsrc2 clip
# into the FIFO, then a GStreamer videotestsrc pipeline at 1280x720 50 fps
# takes its place.  The guest (pipe-guest.sh) captures each and follows
# the change; here the captures are judged against what was sent:
#   - order: every 1080p frame is one of the clip's, bit for bit outside
#     the stamp bands, the clip's frames in their order; the V4L2
#     sequence has no gap the driver's drop counter does not account for;
#   - rate: the buffers' timestamps say 25 and 50 fps, and the clip moves
#     on at the board's rate;
#   - pixels: the 720p frames are GStreamer's picture bit for bit; the
#     board's conversions (I420 to YUYV at 720p, and scaled to 640x360
#     from 1080p) are within a PSNR of ffmpeg's own;
#   - the source change: the guest's capture ends at the change and the
#     new timings are 1280x720.
# Usage: pipe.sh VCAP_VM KERNEL VCAP_FW KMOD TIMEOUT FRAME_CMP VCAP_STREAM OUTDIR
set -u
vm=$1 kver=$2 fw=$3 kmod=$4 timeout=$5 cmp=$6 vs=$7 out=$8
here=$(cd "$(dirname "$0")" && pwd)
NAME=live-pipe
# The PSNR floors of the board's conversions against ffmpeg's (luma and
# chroma, stamp bands left out); measured: 34 dB for I420 to YUYV (the
# two upsample chroma differently), 31.7 dB for 1080p to 640x360.
PSNR_CONVERT=${LIVE_PSNR_CONVERT:-30}
PSNR_SCALE=${LIVE_PSNR_SCALE:-28}
RATE_TOL=${LIVE_RATE_TOL:-3}	# percent

say() { echo "$NAME: $*"; }
fails=0
fail() { echo "$NAME: FAIL: $*" >&2; fails=$((fails + 1)); }
die() { echo "$NAME: FAIL: $*" >&2; exit 1; }

# A missing tool is a failure: scripts/install-deps.sh installs them.
for t in ffmpeg gst-launch-1.0 gst-inspect-1.0; do
	command -v "$t" >/dev/null 2>&1 ||
		die "$t not found (scripts/install-deps.sh)"
done
for e in videotestsrc y4menc; do
	gst-inspect-1.0 "$e" >/dev/null 2>&1 ||
		die "GStreamer element $e missing (scripts/install-deps.sh)"
done

dir=$(mktemp -d /var/tmp/vcap-live.XXXXXX) || exit 1
fwpid= writer=
stop_writer() {
	[ -n "$writer" ] || return 0
	kill "$writer" 2>/dev/null
	wait "$writer" 2>/dev/null
	writer=
}
cleanup() {
	stop_writer
	[ -n "$fwpid" ] && kill "$fwpid" 2>/dev/null && wait "$fwpid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
rm -rf "$out"
mkdir -p "$out/rpc" || exit 1

# --- the sources, made once -------------------------------------------

# A: two seconds of testsrc2 at 1080p25, looped by the pipeline: longer
# than any run of frames the guest misses, so that the loop's frame
# numbers say which way the clip went.
ffmpeg -nostdin -loglevel error -f lavfi -i testsrc2=size=1920x1080:rate=25 \
	-frames:v 50 -pix_fmt yuv420p "$dir/a.y4m" || die "ffmpeg: the 1080p clip"
ffmpeg -nostdin -loglevel error -i "$dir/a.y4m" -f rawvideo - |
	"$cmp" hash YU12 1920x1080 /dev/stdin >"$out/a-src.hash" ||
	die "the clip's hashes"
[ "$(wc -l <"$out/a-src.hash")" -eq 50 ] || die "the clip is not 50 frames"
# What ffmpeg makes of it at 640x360 YUYV, for the board's scaler.
ffmpeg -nostdin -loglevel error -i "$dir/a.y4m" -vf scale=640:360 \
	-pix_fmt yuyv422 -f rawvideo "$out/a-ref-640x360.yuyv" ||
	die "ffmpeg: the scaled reference"
# B: GStreamer's colour sweep at 1280x720 (no noise in it, unlike its
# SMPTE bars), one frame: every frame is it.
bcaps=video/x-raw,format=I420,width=1280,height=720,framerate=50/1
gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=colors ! "$bcaps" ! \
	y4menc ! filesink location="$dir/b.y4m" >/dev/null ||
	die "GStreamer: the 720p reference"
ffmpeg -nostdin -loglevel error -i "$dir/b.y4m" -f rawvideo - |
	"$cmp" hash YU12 1280x720 /dev/stdin >"$out/b-src.hash" ||
	die "the 720p reference's hash"
ffmpeg -nostdin -loglevel error -i "$dir/b.y4m" -pix_fmt yuyv422 \
	-f rawvideo "$out/b-ref.yuyv" || die "ffmpeg: the 720p YUYV reference"

# --- the board, its FIFO and the first pipeline -------------------------

mkfifo "$dir/in" || exit 1
truncate -s 1G "$dir/ram" || exit 1
"$fw" serve --socket "$dir/sock" --size 64M --source "pipe:$dir/in" \
	--guest-ram "$dir/ram" --serial LIVE0001 >"$out/fw.log" 2>&1 &
fwpid=$!
i=0
until grep -q ready "$out/fw.log" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 "$fwpid" 2>/dev/null; then
		cat "$out/fw.log" >&2
		die "vcap-fw did not come up"
	fi
	sleep 0.1
done

writer_a() {
	ffmpeg -nostdin -loglevel error -re -stream_loop -1 -i "$dir/a.y4m" \
		-f yuv4mpegpipe -pix_fmt yuv420p - >"$dir/in" 2>>"$out/writer.log" &
	writer=$!
}
writer_b() {
	gst-launch-1.0 -q videotestsrc is-live=true pattern=colors ! "$bcaps" ! \
		y4menc ! filesink location="$dir/in" >>"$out/writer.log" 2>&1 &
	writer=$!
}
writer_a

# --- the guest ------------------------------------------------------------

# The guest asks for the second pipeline with rpc/want-b; it is running
# when rpc/done-b appears.
"$vm" --kernel "$kver" --timeout "$timeout" --share "$out" \
	--ivshmem-doorbell "$dir/sock" --mem 1G --guest-ram "$dir/ram" -- \
	sh "$here/../faults/in-guest.sh" "$kmod" "" "$out/rpc" \
	sh "$here/pipe-guest.sh" "$out" "$cmp" "$vs" &
vmpid=$!
while kill -0 "$vmpid" 2>/dev/null; do
	if [ -e "$out/rpc/want-b" ] && [ ! -e "$out/rpc/done-b" ]; then
		stop_writer
		writer_b
		say "host: the ffmpeg pipeline stopped, GStreamer's started"
		: >"$out/rpc/done-b"
	fi
	sleep 0.1
done
wait "$vmpid"
status=$?
stop_writer
"$fw" ctl "$dir/sock.ctl" stats >"$out/fw-stats.txt" 2>&1
say "vcap-fw: $(grep -E '^pipe_' "$out/fw-stats.txt" | tr '\n' ' ')"
kill -0 "$fwpid" 2>/dev/null || { cat "$out/fw.log" >&2; fail "vcap-fw died"; }
[ "$status" -eq 0 ] || fail "the guest's side failed (status $status)"

# --- judge ----------------------------------------------------------------

# judge_stream NAME LOG FPS DROPPED: the V4L2 sequence and timestamps of
# a v4l2-ctl --verbose capture; gaps against the driver's drop count, the
# rate against FPS.
judge_stream() {
	name=$1 log=$2 fps=$3 dropped=$4
	[ -s "$log" ] || { fail "$name: no capture log"; return; }
	set -- $(awk -v fps="$fps" -v tol="$RATE_TOL" '
		/seq:/ {
			for (i = 1; i <= NF; i++) {
				if ($i == "seq:") s = $(i + 1)
				if ($i == "ts:") t = $(i + 1)
			}
			n++
			if (n > 1 && s != ls + 1) gaps += s - ls - 1
			if (n > 1 && s <= ls) back++
			if (n == 1) { s0 = s; t0 = t }
			ls = s; lt = t
		}
		END {
			rate = (lt > t0) ? (ls - s0) / (lt - t0) : 0
			ok = (rate >= fps * (1 - tol / 100) && rate <= fps * (1 + tol / 100))
			printf "%d %d %d %.3f %d\n", n, gaps + 0, back + 0, rate, ok
		}' "$log")
	n=$1 gaps=$2 back=$3 rate=$4 rate_ok=$5
	say "$name: $n buffers, sequence gaps $gaps (driver dropped $dropped), $rate fps from the timestamps (want $fps +-$RATE_TOL%)"
	[ "$n" -ge 20 ] || fail "$name: $n buffers"
	[ "$back" -eq 0 ] || fail "$name: the sequence went backwards $back times"
	[ "$gaps" -le "$dropped" ] ||
		fail "$name: $gaps frames missing from the sequence, the driver counted $dropped"
	[ "$rate_ok" -eq 1 ] || fail "$name: $rate fps, want $fps"
}

drops() { sed -n "s/^$1 //p" "$out/drops.txt" 2>/dev/null | head -n 1; }

# A: every frame one of the clip's, in the clip's order, at the clip's
# rate.  The guest misses board frames (the driver counts them, and the
# sequence shows them), and on a busy host the pipe delivers frames in
# bursts, which the board shows as it does any live source: the newest
# at each of its frames, so a frame twice or one skipped.  But the clip
# never goes back, and over the capture it moves on as many frames as
# the sequence does: the source's 25 fps.
if [ -s "$out/a-cap.hash" ]; then
	set -- $(awk 'FILENAME == ARGV[1] { idx[$2] = $1; n++; next }
		FILENAME == ARGV[2] {
			for (i = 1; i <= NF; i++) if ($i == "seq:") seq[m++] = $(i + 1)
			next
		}
		{
			if (!($2 in idx)) { bad++; next }
			i = idx[$2]; s = seq[$1]; k++
			if (k > 1) {
				d = (i - li) % n
				if (d < 0) d += n
				if (d > n / 2) back++
				else { clip += d; sq += s - ls }
				if (d == s - ls) step++
			}
			li = i; ls = s
		}
		END {
			printf "%d %d %d %d %d %d %.3f\n", k, bad + 0, back + 0, step + 0,
				clip, sq, sq ? clip / sq : 0
		}' \
		"$out/a-src.hash" "$out/a-cap.log" "$out/a-cap.hash")
	k=$1 bad=$2 back=$3 step=$4 clip=$5 sq=$6 ratio=$7
	say "1080p25 from ffmpeg: $k frames the clip's bit for bit, $bad not; $back steps back; $step in step with the sequence; the clip moved $clip frames while the sequence moved $sq ($ratio)"
	[ "$bad" -eq 0 ] || fail "1080p25: $bad captured frames are none of the clip's"
	[ "$k" -ge 20 ] || fail "1080p25: $k frames matched"
	[ "$back" -eq 0 ] || fail "1080p25: the clip went back $back times"
	awk -v r="$ratio" 'BEGIN { exit !(r >= 0.9 && r <= 1.1) }' ||
		fail "1080p25: the clip moved $clip frames in $sq of the board's: not the board's 25 fps"
else
	fail "1080p25: no hashes of the capture"
fi
judge_stream 1080p25 "$out/a-cap.log" 25 "$(drops a-cap)"

# B: every frame GStreamer's picture.
if [ -s "$out/b-cap.hash" ]; then
	want=$(awk '{ print $2 }' "$out/b-src.hash")
	k=$(wc -l <"$out/b-cap.hash")
	bad=$(awk -v w="$want" '$2 != w' "$out/b-cap.hash" | wc -l)
	say "720p50 from GStreamer: $((k - bad)) of $k frames its picture bit for bit"
	[ "$bad" -eq 0 ] || fail "720p50: $bad frames differ from GStreamer's"
	[ "$k" -ge 20 ] || fail "720p50: $k frames"
else
	fail "720p50: no hashes of the capture"
fi
judge_stream 720p50 "$out/b-cap.log" 50 "$(drops b-cap)"

# The board's conversions against ffmpeg's.
psnr_judge() {	# NAME FOURCC SIZE REF CAP FLOOR
	if ! "$cmp" psnr "$2" "$3" "$4" "$5" >"$out/$1.psnr"; then
		fail "$1: cannot compare"
		return
	fi
	set -- "$1" "$6" $(awk '{ n++; if ($3 == "inf") v = 999; else v = $3 + 0
		if (n == 1 || v < m) m = v; s += v } END { printf "%d %.2f %.2f\n", n, m, s / n }' \
		"$out/$1.psnr")
	say "$1: $3 frames, PSNR min $4 dB, mean $5 dB (floor $2)"
	[ "$3" -ge 5 ] || fail "$1: $3 frames"
	awk -v m="$4" -v f="$2" 'BEGIN { exit !(m >= f) }' ||
		fail "$1: PSNR $4 dB, below $2"
}
psnr_judge convert-720p-yuyv YUYV 1280x720 "$out/b-ref.yuyv" \
	"$out/b-cap.yuyv" "$PSNR_CONVERT"
psnr_judge scale-1080p-640x360 YUYV 640x360 "$out/a-ref-640x360.yuyv" \
	"$out/a-cap-640x360.yuyv" "$PSNR_SCALE"

[ $fails -eq 0 ] || { echo "$NAME: $fails failures" >&2; exit 1; }
echo "$NAME: PASS"
