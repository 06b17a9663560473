#!/bin/sh
# In the guest: vcap-view on the bochs display through KMS, until the host
# has photographed the screen (the file OUTDIR/kms-done appears) or the
# time runs out.  Then SIGTERM: vcap-view must restore the CRTC, exit 0
# and report one copy of each frame, into the dumb buffer.
#
# usage: vm-kms-guest.sh VCAP_VIEW OUTDIR WAIT_S SOURCE [KO] [VIEW ARGS...]
set -u
view=$1
out=$2
wait_s=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)

fail() {
	echo "FAIL: $*"
	vv_source_down
	exit 1
}

. "$here/vm-source.sh"
. "$here/vv-stats.sh"
modprobe bochs || fail "modprobe bochs"
vv_source_up "$@"
shift $?
i=0
while [ ! -e /dev/dri/card0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -e /dev/dri/card0 ] || fail "no /dev/dri/card0 from bochs"
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
# The dumb buffer the display scans out holds the one copy.
vv_check_stats "$out/kms-view.out" 1 "v4l2-mmap held, kms dumb-buffer copy"
echo "PASS: KMS output shown and restored"
