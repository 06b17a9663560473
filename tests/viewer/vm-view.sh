#!/bin/sh
# In the guest: vcap-view --frames 60 --snapshot under Xvfb against a
# capture device, with the snapshot's pixels checked against the 75%
# colour bars.
#
# usage: vm-view.sh VCAP_VIEW VV_IMGCHECK OUTDIR SOURCE [VIEW ARGS...]
#   SOURCE: vivid          modprobe vivid, its first capture node
#           vcap-soft KO    insmod KO soft_boards=1, its capture node
set -u
view=$1
check=$2
out=$3
source=$4
shift 4

fail() {
	echo "FAIL: $*"
	exit 1
}

# The capture node whose V4L2 name matches $1.
find_node() {
	for d in /sys/class/video4linux/video*; do
		[ -f "$d/name" ] || continue
		case $(cat "$d/name") in
		$1) echo "/dev/${d##*/}"; return 0 ;;
		esac
	done
	return 1
}

mkdir -p "$out" || fail "cannot create $out"
case $source in
vivid)
	modprobe vivid n_devs=1 || fail "modprobe vivid"
	node=$(find_node 'vivid-000-vid-cap') || fail "no vivid capture node"
	tolerance=12
	;;
vcap-soft)
	ko=$1
	shift
	insmod "$ko" soft_boards=1 || fail "insmod $ko soft_boards=1"
	node=$(find_node 'vcap*') || fail "no vcap capture node"
	tolerance=6
	;;
*)
	fail "unknown source '$source'" ;;
esac
udevadm settle 2>/dev/null
echo "source: $source at $node"

snap=$out/$source.png
rm -f "$snap"
start=$(date +%s)
xvfb-run -a -s "-screen 0 1024x768x24" \
	"$view" -d "$node" --frames 60 --snapshot "$snap" -v "$@"
rc=$?
echo "vcap-view exited $rc after $(($(date +%s) - start)) s"
[ $rc -eq 0 ] || fail "vcap-view exited $rc"
"$check" "$snap" --tolerance $tolerance --bars ||
	fail "the snapshot does not show the 75% colour bars"
echo "PASS: $snap shows the colour bars"
