#!/bin/sh
# GStreamer's v4l2src streams from the driver to EOS, with MMAP buffers and
# with exported dma-bufs (io-mode=dmabuf), and delivers every buffer.
# Usage: gstreamer.sh N vcap KMOD | N vivid
set -u
ECO_NAME=eco-gstreamer
. "$(dirname "$0")/eco-lib.sh"
n=$1
shift
eco_load "$@"
export GST_REGISTRY=/tmp/gst-registry.bin

run() {
	mode=$1
	log=/tmp/gst-$mode.log
	start=$(date +%s)
	gst-launch-1.0 -v v4l2src device="$ECO_DEV" io-mode="$mode" \
		num-buffers="$n" ! videoconvert ! fakesink silent=false \
		>"$log" 2>&1 || { tail -n 20 "$log" >&2; eco_fail "io-mode=$mode failed"; }
	secs=$(($(date +%s) - start))
	grep -q "Got EOS from element" "$log" ||
		{ tail -n 20 "$log" >&2; eco_fail "io-mode=$mode: no EOS"; }
	got=$(grep -c "last-message = chain" "$log")
	[ "$got" -eq "$n" ] || eco_fail "io-mode=$mode: $got buffers, expected $n"
	caps=$(grep -m1 -o "v4l2src0.GstPad:src: caps = [^;]*" "$log" | sed 's/.*caps = //')
	eco_log "io-mode=$mode: $n buffers to EOS in ${secs}s ($caps)"
}

run mmap
# dmabuf needs VIDIOC_EXPBUF: vcap exports its buffers, so it must work.
run dmabuf
echo "$ECO_NAME: PASS"
