#!/bin/sh
# Loads vcap.ko with parameters, runs a command, and unloads the module;
# fails if any step fails.  Usage: with-vcap.sh MODULE.ko "PARAMS" CMD...
set -u
ko=$1 params=$2
shift 2
[ -f "$ko" ] || { echo "with-vcap: $ko not found" >&2; exit 1; }
modprobe -a videodev videobuf2-common videobuf2-v4l2 videobuf2-memops v4l2-dv-timings ||
	{ echo "with-vcap: cannot load the media modules" >&2; exit 1; }
# shellcheck disable=SC2086
insmod "$ko" $params || { echo "with-vcap: insmod $ko $params failed" >&2; exit 1; }
udevadm settle 2>/dev/null || sleep 1
"$@"
status=$?
i=0
until rmmod vcap 2>/dev/null; do
	i=$((i + 1))
	[ "$i" -lt 20 ] || { echo "with-vcap: rmmod vcap failed" >&2; exit 1; }
	sleep 0.5
done
exit "$status"
