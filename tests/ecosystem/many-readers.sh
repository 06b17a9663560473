#!/bin/sh
# Many readers of one board: one process streams through V4L2 while
# others watch the same frames in VRAM through /dev/vcapN: a vcap-stream
# reader and, when the viewer is built, four vcap-view windows (SDL's
# offscreen driver).  Every one at the board's full rate, none missing a
# frame, and every viewer showing the board's slots themselves: one copy
# per frame, the display's upload.
# Usage: many-readers.sh VCAP_STREAM WxH FPS SECONDS KMOD [VCAP_VIEW]
set -u
ECO_NAME=eco-many-readers
. "$(dirname "$0")/eco-lib.sh"
vs=$1 size=$2 fps=$3 secs=$4 ko=$5 view=${6:-}
viewers=4
[ -x "$vs" ] || eco_fail "$vs not found"
[ -z "$view" ] || [ -x "$view" ] || eco_fail "$view not found"
eco_load vcap "$ko" soft_boards=1
vram=
for v in /sys/class/video4linux/${ECO_DEV#/dev/}/device/vcap/vcap*; do
	[ -e "$v" ] && vram=/dev/${v##*/}
done
[ -n "$vram" ] || eco_fail "no VRAM node beside $ECO_DEV"
out=/tmp/many-readers
mkdir -p "$out"

# The V4L2 capture streams until every VRAM reader is done (a viewer may
# take seconds to start on a loaded host), then stops on SIGTERM and
# reports; 120 s bounds it should the script die first.
"$vs" bench -q -d "$ECO_DEV" --fmt YUYV --size "$size" --fps "$fps" \
	-t 120 --json >"$out/v4l2.json" 2>"$out/v4l2.err" &
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
"$vs" bench -q --vram "$vram" -t "$secs" --json >"$out/vram.json" 2>"$out/vram.err" &
pids=$!
# Each viewer shows secs seconds' worth of frames; the time it took from
# its first frame (-v: "N frames shown in S s") says whether it kept up.
frames=$((secs * fps))
i=0
while [ -n "$view" ] && [ $i -lt $viewers ]; do
	i=$((i + 1))
	SDL_VIDEODRIVER=offscreen "$view" -d "$vram" -n "$frames" -t 5 -v \
		--stats >"$out/view$i.out" 2>"$out/view$i.err" &
	pids="$pids $!"
done
status=0
for p in $pids; do
	wait "$p" || status=1
done
if ! kill -0 "$v4l2" 2>/dev/null; then
	cat "$out/v4l2.err" >&2
	eco_fail "the V4L2 capture ended before its readers"
fi
kill -TERM "$v4l2"
wait "$v4l2" || status=1
[ "$status" -eq 0 ] || { cat "$out"/*.err >&2; eco_fail "a reader failed"; }

# Full rate: at least 90% of the board's rate, no frame missed.
min=$((fps * 9 / 10))
for r in v4l2 vram; do
	j=$(cat "$out/$r.json")
	num() { echo "$j" | sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }
	got=$(num fps) drops=$(num drops) torn=$(num torn) n=$(num frames)
	[ -n "$got" ] || eco_fail "$r: no result: $j"
	eco_log "$r: $n frames, $got fps, $drops dropped, $torn torn"
	[ "${got%.*}" -ge "$min" ] || eco_fail "$r: $got fps, below $min of $fps"
	[ "$drops" -eq 0 ] && [ "$torn" -eq 0 ] || eco_fail "$r: drops or torn frames"
done

# A viewer at full rate shows the frames in about the time the board took
# to make them: none dropped, none torn, and at most one in twenty
# replaced by a newer one before it was drawn, as the rate may fall a
# tenth short (two emulated CPUs serve six readers here).
i=0
while [ -n "$view" ] && [ $i -lt $viewers ]; do
	i=$((i + 1))
	stats=$(cat "$out/view$i.out" "$out/view$i.err" | grep -E 'stats:|shown in' |
		tr '\n' ' ')
	ms=$(echo "$stats" | sed -n 's/.*frames shown in \([0-9]*\)\.\([0-9]*\) s.*/\1\20/p')
	shown=$(echo "$stats" | sed -n 's/.* \([0-9]*\) frames shown.*/\1/p')
	skipped=$(echo "$stats" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
	dropped=$(echo "$stats" | sed -n 's/.* \([0-9]*\) dropped.*/\1/p')
	torn=$(echo "$stats" | sed -n 's/.* \([0-9]*\) torn.*/\1/p')
	copies=$(echo "$stats" | sed -n 's/.*copies per frame shown: [0-9.]*, at most \([0-9]*\).*/\1/p')
	[ -n "$shown" ] && [ -n "$skipped" ] && [ -n "$dropped" ] &&
		[ -n "$torn" ] && [ -n "$copies" ] && [ -n "$ms" ] ||
		eco_fail "viewer $i: no stats: $stats"
	rate=$((shown * 1000 / (ms > 0 ? ms : 1)))
	eco_log "viewer $i: $shown frames shown in $ms ms ($rate fps), $skipped skipped, $dropped dropped, $torn torn, at most $copies copies per frame"
	[ "$shown" -eq "$frames" ] || eco_fail "viewer $i: $shown frames shown, want $frames"
	[ "$rate" -ge "$min" ] || eco_fail "viewer $i: $rate fps, below $min of $fps"
	[ "$dropped" -eq 0 ] && [ "$torn" -eq 0 ] ||
		eco_fail "viewer $i: frames dropped or torn"
	[ "$skipped" -le $((frames / 20)) ] ||
		eco_fail "viewer $i: $skipped frames skipped"
	[ "$copies" -le 1 ] || eco_fail "viewer $i: $copies copies of a frame"
done
echo "$ECO_NAME: PASS"
