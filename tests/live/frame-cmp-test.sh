#!/bin/sh
# frame-cmp itself: a change inside a stamp band leaves a frame's hash
# and its PSNR alone, a change anywhere else (luma below the band,
# chroma) shows in both, and a partial frame is an error.
# Usage: frame-cmp-test.sh FRAME_CMP
set -u
cmp=$1
NAME=unit-frame-cmp
fail() { echo "$NAME: FAIL: $*" >&2; exit 1; }
command -v ffmpeg >/dev/null 2>&1 || fail "ffmpeg not found (scripts/install-deps.sh)"
tmp=$(mktemp -d /tmp/frame-cmp.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Two 320x240 YU12 frames: a stamp band of (240 / 32) & ~1 = 6 rows.
ffmpeg -nostdin -loglevel error -f lavfi -i testsrc2=size=320x240:rate=25 \
	-frames:v 2 -pix_fmt yuv420p -f rawvideo "$tmp/a.yu12" || fail "ffmpeg"
frame=$((320 * 240 * 3 / 2))
[ "$(stat -c %s "$tmp/a.yu12")" -eq $((2 * frame)) ] || fail "ffmpeg made no two frames"

# poke FILE OFFSET: one byte there inverted.
poke() {
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((255 - b)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
hash0() { "$cmp" hash YU12 320x240 "$1" | awk 'NR == 1 { print $2 }'; }
psnr0() { "$cmp" psnr YU12 320x240 "$tmp/a.yu12" "$1" | awk 'NR == 1 { print $2, $3 }'; }

ref=$(hash0 "$tmp/a.yu12")
[ -n "$ref" ] || fail "no hash"
[ "$("$cmp" hash YU12 320x240 "$tmp/a.yu12" | wc -l)" -eq 2 ] || fail "not one hash per frame"
[ "$(psnr0 "$tmp/a.yu12")" = "0 inf" ] || fail "a frame is not itself: $(psnr0 "$tmp/a.yu12")"

# Row 3 of the top band, row 236 of the bottom one: left out.
cp "$tmp/a.yu12" "$tmp/b.yu12"
poke "$tmp/b.yu12" $((3 * 320 + 100))
poke "$tmp/b.yu12" $((236 * 320 + 7))
[ "$(hash0 "$tmp/b.yu12")" = "$ref" ] || fail "a change in the stamp bands changed the hash"
[ "$(psnr0 "$tmp/b.yu12")" = "0 inf" ] || fail "a change in the stamp bands changed the PSNR"

# Row 6 (the first below the band), the last chroma byte: counted.
for off in $((6 * 320 + 100)) $((frame - 1)); do
	cp "$tmp/a.yu12" "$tmp/c.yu12"
	poke "$tmp/c.yu12" "$off"
	[ "$(hash0 "$tmp/c.yu12")" != "$ref" ] || fail "a change at byte $off left the hash alone"
	got=$(psnr0 "$tmp/c.yu12")
	case $got in
	"0 inf"|"1 "*) fail "a change at byte $off: nearest frame and PSNR '$got'" ;;
	esac
done

# A partial frame is an error.
head -c $((frame + 10)) "$tmp/a.yu12" >"$tmp/d.yu12"
"$cmp" hash YU12 320x240 "$tmp/d.yu12" >/dev/null 2>&1 && fail "a partial frame passed"
"$cmp" hash XXXX 320x240 "$tmp/a.yu12" >/dev/null 2>&1 && fail "an unknown format passed"
echo "$NAME: PASS"
