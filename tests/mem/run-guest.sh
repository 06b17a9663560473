#!/bin/sh
# Guest side of the buffer tests: loads vcap.ko (its dependencies first)
# with the given parameters, runs the program, unloads vcap, and fails if
# a buffer of its allocator is still alive after that.
# Usage: run-guest.sh MODULE.ko [PARAM=VALUE...] -- PROGRAM [ARG...]
set -u
ko=$1
shift
params=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	params="$params $1"
	shift
done
[ $# -gt 1 ] || { echo "run-guest: no program" >&2; exit 2; }
shift
[ -f "$ko" ] || { echo "run-guest: $ko not found" >&2; exit 1; }

name=$(modinfo -F name "$ko")
deps=$(modinfo -F depends "$ko" | tr ',' ' ')
[ -z "$deps" ] || modprobe -a $deps || exit 1
# shellcheck disable=SC2086 # one word per parameter
insmod "$ko" $params || { echo "run-guest: insmod $ko failed" >&2; exit 1; }
# The V4L2 node appears once the board has probed.
i=0
while [ $i -lt 50 ] && ! grep -qs . /sys/class/video4linux/video*/name; do
	sleep 0.1
	i=$((i + 1))
done

"$@"
status=$?

rmmod "$name" || { echo "run-guest: rmmod $name failed" >&2; status=1; }
left=$(grep -c vcap_mem_alloc /proc/vmallocinfo)
if [ "$left" -ne 0 ]; then
	echo "run-guest: $left vcap buffers alive after unload" >&2
	status=1
fi
exit $status
