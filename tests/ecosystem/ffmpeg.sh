#!/bin/sh
# ffmpeg records from the driver's V4L2 node through its v4l2 input, and
# ffprobe checks the file: frame count, size, format.
# Usage: ffmpeg.sh OUTDIR WxH FRAMES vcap KMOD | OUTDIR WxH FRAMES vivid
set -u
ECO_NAME=eco-ffmpeg
. "$(dirname "$0")/eco-lib.sh"
out=$1 size=$2 n=$3
shift 3
mkdir -p "$out" || eco_fail "cannot create $out"
eco_load "$@"
w=${size%x*} h=${size#*x}
file=$out/ffmpeg-$size.mkv
rm -f "$file"

start=$(date +%s)
ffmpeg -hide_banner -nostdin -loglevel error -f v4l2 -input_format yuyv422 \
	-video_size "$size" -i "$ECO_DEV" -frames:v "$n" "$file" ||
	eco_fail "ffmpeg failed"
secs=$(($(date +%s) - start))

probe=$(ffprobe -v error -count_frames -select_streams v:0 \
	-show_entries stream=codec_name,width,height,pix_fmt,nb_read_frames \
	-of default=noprint_wrappers=1 "$file") || eco_fail "ffprobe failed"
get() { echo "$probe" | sed -n "s/^$1=//p"; }
[ "$(get width)" = "$w" ] && [ "$(get height)" = "$h" ] ||
	eco_fail "file is $(get width)x$(get height), expected $size"
[ "$(get nb_read_frames)" = "$n" ] ||
	eco_fail "file has $(get nb_read_frames) frames, expected $n"
[ "$(get pix_fmt)" = yuyv422 ] || [ "$(get pix_fmt)" = yuv422p ] ||
	eco_fail "pixel format $(get pix_fmt)"
eco_log "$n frames of $size in ${secs}s: $(echo "$probe" | tr '\n' ' ')"
echo "$ECO_NAME: PASS"
