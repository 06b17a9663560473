#!/bin/sh
# Headless runs of vcap-view against its built-in colour bars: the PNG
# snapshot (read back from the renderer) must show the bars; bad input
# must end with one line naming the cause and a non-zero status.
#
# usage: headless.sh VCAP_VIEW VV_IMGCHECK CASE
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vv-stats.sh"
view=$1
check=$2
case_=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vv-headless.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

fail() {
	echo "FAIL: $*"
	exit 1
}

# run_ok ARGS...: vcap-view must succeed.
run_ok() {
	timeout 60 "$view" "$@" >out 2>err
	rc=$?
	cat out err
	[ $rc -eq 0 ] || fail "vcap-view $* exited $rc"
}

# run_bad WORD ARGS...: vcap-view must fail with one line holding WORD.
run_bad() {
	word=$1
	shift
	start=$(date +%s)
	timeout 60 "$view" "$@" >out 2>err
	rc=$?
	took=$(($(date +%s) - start))
	cat out err
	[ $rc -ne 0 ] || fail "vcap-view $* succeeded"
	[ $rc -ne 124 ] || fail "vcap-view $* hung"
	[ "$(wc -l <err)" -eq 1 ] || fail "want one line on stderr, got $(wc -l <err)"
	grep -q "^vcap-view: .*$word" err || fail "the error does not name '$word'"
	echo "ok: exit $rc after ${took}s"
}

offscreen() {
	SDL_VIDEODRIVER=offscreen "$@"
}

case $case_ in
fmt-*)
	fmt=${case_#fmt-}
	tol=0
	case $fmt in YUYV|UYVY|NV12|YUV420) tol=3 ;; esac
	SDL_VIDEODRIVER=offscreen run_ok -d test:bars -f "$fmt" -s 320x240 \
		--frames 10 --snapshot snap.png --stats
	# The upload is the one copy; GREY has no SDL texture format, so
	# the viewer converts it first.
	copies=1
	[ "$fmt" = GREY ] && copies=2
	vv_check_stats out $copies "test picture read in place, .*sdl upload"
	vv_check_latency out
	if [ "$fmt" = GREY ]; then
		# The grey bars carry each colour bar's green level.
		set -- 20,144=bfbfbf 60,144=bfbfbf 100,144=bfbfbf \
			140,144=bfbfbf 180,144=000000 220,144=000000 \
			260,144=000000 300,144=000000
	else
		set -- --bars
	fi
	"$check" snap.png --size 320x240 --tolerance $tol "$@" ||
		fail "the snapshot does not show the bars"
	;;
overlay)
	# The overlay is in the snapshot: the read-back is what was drawn.
	SDL_VIDEODRIVER=offscreen run_ok -d test:bars --overlay --frames 10 \
		--snapshot snap.png
	"$check" snap.png --size 640x480 --tolerance 3 --bars '2,2<100' \
		'500,2=0000bf' || fail "no overlay in the snapshot"
	;;
xvfb-fullscreen)
	# A 16:9 source fullscreen on a 4:3 screen: letterboxed, aspect kept.
	# Software rendering: Mesa's GLX on Xvfb, with no window manager,
	# does not follow the window to its fullscreen size.
	SDL_RENDER_DRIVER=software xvfb-run -a -s "-screen 0 1024x768x24" "$view" -d test:bars \
		-f RGB24 -s 320x180 --fullscreen --frames 20 \
		--snapshot snap.png >out 2>err
	rc=$?
	cat out err
	[ $rc -eq 0 ] || fail "vcap-view under Xvfb exited $rc"
	"$check" snap.png --size 1024x768 --rect 0,96,1024,576 --bars \
		'512,40=000000' '512,730=000000' ||
		fail "the fullscreen picture is not letterboxed bars"
	;;
xvfb)
	# An X server and SDL's default (OpenGL) renderer, as on a desktop.
	xvfb-run -a -s "-screen 0 1024x768x24" "$view" -d test:bars \
		-f YUYV --frames 20 --snapshot snap.png --stats >out 2>err
	rc=$?
	cat out err
	[ $rc -eq 0 ] || fail "vcap-view under Xvfb exited $rc"
	vv_check_stats out 1 "sdl upload (YUY2 texture"
	"$check" snap.png --size 640x480 --tolerance 3 --bars ||
		fail "the snapshot does not show the bars"
	;;
signal)
	# The signal goes for 1.5 s, longer than -t: NO SIGNAL, not a stall;
	# then the bars again, at a new size, until the frame count.  The
	# window takes the new size: the snapshot is the rendered window.
	offscreen run_ok -d test:bars,lose=10,back=1500,back_size=320x180 \
		--frames 40 -t 1 --signal-timeout 20 -v --stats \
		--snapshot snap.png
	grep -q "source change 1: signal lost$" out ||
		fail "no 'signal lost' line"
	grep -q "source change 2: signal back after .* -> YUYV 320x180 @ 30 fps (size)$" out ||
		fail "no 'signal back' line at 320x180"
	since=$(sed -n 's/^vcap-view: stats: signal lost 1 times, resumed 1 times, [0-9.]* s without a signal, \([0-9]*\) frames shown since the signal last came$/\1/p' out)
	# Frames before the loss (some may be skipped) and after it.
	[ -n "$since" ] && [ "$since" -gt 0 ] && [ "$since" -lt 40 ] ||
		fail "--stats does not count one loss, one return, frames after"
	vv_check_stats out 1 "test picture read in place, .*sdl upload"
	"$check" snap.png --size 320x180 --tolerance 3 --bars ||
		fail "the snapshot does not show the bars at 320x180"
	;;
no-signal-card)
	# No signal at all: the window stays, on the NO SIGNAL card, until
	# it is told to quit; the snapshot is the card, centred on black.
	SDL_VIDEODRIVER=offscreen timeout -s TERM 2 "$view" \
		-d test:bars,lose=0 --snapshot snap.png -v --stats >out 2>err
	rc=$?
	cat out err
	[ $rc -eq 124 ] || fail "vcap-view ended by itself ($rc) without a signal"
	grep -q "no signal; waiting for one for as long as it takes" out ||
		fail "no 'waiting' line"
	grep -Eq "^vcap-view: stats: signal lost 0 times, resumed 0 times, [0-9.]+ s without a signal, 0 frames" out ||
		fail "--stats: the wait not counted"
	# The card's box at its top left, the screen's corners black.
	"$check" snap.png --size 640x480 --tolerance 3 '236,214=202830' \
		'10,10<8' '630,470<8' || fail "the snapshot is not the card"
	;;
no-signal-timeout)
	offscreen run_bad "no signal for" -d test:bars,lose=0 --frames 5 \
		--signal-timeout 1 ;;
no-device)
	offscreen run_bad /dev/nonexistent-video0 -d /dev/nonexistent-video0 ;;
not-capture)
	offscreen run_bad /dev/null -d /dev/null ;;
bad-format)
	offscreen run_bad MJPG -d test:bars -f MJPG ;;
bad-source-mode)
	# A size the source cannot produce in a 4:2:2 format (odd width).
	offscreen run_bad test:bars -d test:bars -f YUYV -s 321x240 ;;
no-display)
	SDL_VIDEODRIVER=nosuchdriver DISPLAY= run_bad "no display" \
		-d test:bars --frames 5 ;;
stall)
	offscreen run_bad stalled -d test:bars,stall=3 --frames 10 \
		--timeout 1 ;;
no-kms)
	run_bad /dev/null -d test:bars -o kms --card /dev/null ;;
*)
	fail "unknown case $case_" ;;
esac
echo "PASS: $case_"
