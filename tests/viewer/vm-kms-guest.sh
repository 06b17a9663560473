#!/bin/sh
# In the guest: vcap-view on the bochs display through KMS, until the host
# has photographed the screen (the file OUTDIR/kms-done appears) or the
# time runs out.  Then SIGTERM: vcap-view must restore the CRTC and exit 0.
#
# usage: vm-kms-guest.sh VCAP_VIEW OUTDIR WAIT_S SOURCE [VIEW ARGS...]
#   SOURCE: vivid, or vcap-soft KO
set -u
view=$1
out=$2
wait_s=$3
source=$4
shift 4

fail() {
	echo "FAIL: $*"
	exit 1
}

find_node() {
	for d in /sys/class/video4linux/video*; do
		[ -f "$d/name" ] || continue
		case $(cat "$d/name") in
		$1) echo "/dev/${d##*/}"; return 0 ;;
		esac
	done
	return 1
}

modprobe bochs || fail "modprobe bochs"
case $source in
vivid)
	modprobe vivid n_devs=1 || fail "modprobe vivid"
	node=$(find_node 'vivid-000-vid-cap') || fail "no vivid capture node"
	;;
vcap-soft)
	insmod "$1" soft_boards=1 || fail "insmod $1 soft_boards=1"
	shift
	node=$(find_node 'vcap*') || fail "no vcap capture node"
	;;
*)
	fail "unknown source '$source'" ;;
esac
i=0
while [ ! -e /dev/dri/card0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -e /dev/dri/card0 ] || fail "no /dev/dri/card0 from bochs"

"$view" -o kms -d "$node" -v "$@" &
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
echo "vcap-view exited $rc"
[ -e "$out/kms-done" ] || fail "the host did not see the picture"
[ $rc -eq 0 ] || fail "vcap-view exited $rc"
echo "PASS: KMS output shown and restored"
