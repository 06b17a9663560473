#!/bin/sh
# In the guest: vcap-view on the display through KMS, until the host has
# photographed the screen (the file OUTDIR/kms-done appears) or the time
# runs out.  Then SIGTERM: vcap-view must restore the CRTC and exit 0.
# On bochs it reports one copy of each frame, into the dumb buffer; on
# virtio-gpu none, the capture filling the buffers the display scans out.
#
# usage: vm-kms-guest.sh bochs|virtio VCAP_VIEW OUTDIR WAIT_S SOURCE [KO]
#                        [VIEW ARGS...]
set -u
device=$1
view=$2
out=$3
wait_s=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)

fail() {
	echo "FAIL: $*"
	vv_source_down
	exit 1
}

. "$here/vm-source.sh"
. "$here/vv-stats.sh"
case $device in
virtio) drm=virtio_gpu ;;
*) drm=bochs ;;
esac
modprobe $drm || fail "modprobe $drm"
vv_source_up "$@"
shift $?
i=0
while [ ! -e /dev/dri/card0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -e /dev/dri/card0 ] || fail "no /dev/dri/card0 from $drm"
echo "$level" >"$out/kms-level"

"$view" -o kms -d "$node" -v --stats "$@" >"$out/kms-view.out" &
pid=$!
touch "$out/kms-started"
i=0
while [ ! -e "$out/kms-done" ] && [ $i -lt "$wait_s" ]; do
	kill -0 $pid 2>/dev/null || break
	sleep 1
	i=$((i + 1))
done
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
vv_source_down
cat "$out/kms-view.out"
echo "vcap-view exited $rc"
[ -e "$out/kms-done" ] || fail "the host did not see the picture"
[ $rc -eq 0 ] || fail "vcap-view exited $rc"
if [ $device = virtio ]; then
	# The display scans out the buffer the capture wrote: no copy.
	grep -q '^vcap-view: kms: no copy: ' "$out/kms-view.out" ||
		fail "vcap-view did not take the zero-copy path"
	vv_check_stats "$out/kms-view.out" 0 \
		"v4l2-dmabuf held in the display's buffer, kms dma-buf scan-out (capture into the display's buffers), 0 copies"
else
	# The dumb buffer the display scans out holds the one copy.
	vv_check_stats "$out/kms-view.out" 1 \
		"v4l2-mmap held, kms dumb-buffer copy"
fi
echo "PASS: KMS output shown and restored"
