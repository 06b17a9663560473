#!/bin/sh
# vcap's exported dma-bufs imported by another driver: v4l2-compliance
# streams vivid (videobuf2-vmalloc, which attaches and vmaps an imported
# dma-buf) from buffers that vcap exports.  Usage: expbuf-import.sh
# [V4L2-COMPLIANCE]; run with vcap loaded.
set -u
compliance=${1:-v4l2-compliance}
modprobe vivid n_devs=1 node_types=0x1 || exit 1

node_of() {
	for n in /sys/class/video4linux/video*; do
		if [ "$(cat "$n/name")" = "$1" ] || grep -qs "^$1" "$n/name"; then
			echo "/dev/${n##*/}"
			return 0
		fi
	done
	return 1
}
vcap=
for d in /dev/video*; do
	if v4l2-ctl -d "$d" --info 2>/dev/null | grep -q "Driver name *: vcap$"; then
		vcap=$d
		break
	fi
done
vivid=$(node_of vivid) || { echo "expbuf-import: no vivid node" >&2; exit 1; }
[ -n "$vcap" ] || { echo "expbuf-import: no vcap node" >&2; exit 1; }

out=$($compliance -d "$vivid" -e "$vcap" -s5 2>&1)
status=$?
echo "$out" | grep -E "test (MMAP|DMABUF)|Total"
rmmod vivid
# vivid's own failures (see tests/bed/vivid-baseline.sh) do not matter
# here: only the stream through vcap's buffers does.
echo "$out" | grep -q "test DMABUF.*: OK" || {
	echo "expbuf-import: streaming into vcap's dma-bufs failed (status $status)" >&2
	echo "$out" | grep -iE "fail|DMABUF" >&2
	exit 1
}
