#!/bin/sh
# Guest side of the reliability tests: loads the driver under test, finds
# its nodes, runs the program with REL_VIDEO (the V4L2 capture node), for
# vcap REL_VRAM (/dev/vcapN), REL_KO and REL_PARAMS, REL_MODULE and
# REL_LOAD in its environment, then unloads the driver: one that cannot be
# unloaded fails the run.
#
# Usage: rel-dev.sh vivid -- PROGRAM [ARG...]
#        rel-dev.sh vcap MODULE.ko [PARAM=VALUE...] -- PROGRAM [ARG...]
set -u
target=${1:-}
shift
ko= params=
if [ "$target" = vcap ]; then
	ko=${1:-}
	shift
fi
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	params="$params $1"
	shift
done
[ $# -gt 1 ] || { echo "rel-dev: usage: rel-dev.sh vivid|vcap [MODULE.ko] [PARAMS] -- PROGRAM" >&2; exit 2; }
shift

# The driver of a V4L2 node, as QUERYCAP says.
driver_of() {
	v4l2-ctl -d "$1" -D 2>/dev/null | sed -n 's/^\s*Driver name\s*:\s*//p' | head -n 1
}

find_video() {
	for d in /dev/video*; do
		[ -c "$d" ] || continue
		[ "$(driver_of "$d")" = "$1" ] || continue
		v4l2-ctl -d "$d" -D 2>/dev/null | sed -n '/Device Caps/,$p' |
			grep -q 'Video Capture' && { echo "$d"; return 0; }
	done
	return 1
}

echo "rel-dev: loading $target" >/dev/kmsg
case $target in
vivid)
	modname=vivid
	# One capture node; the default inputs (webcam, TV, S-Video, HDMI).
	load="modprobe vivid n_devs=1 node_types=0x1"
	;;
vcap)
	[ -f "$ko" ] || { echo "rel-dev: $ko not found" >&2; exit 1; }
	modname=$(modinfo -F name "$ko")
	deps=$(modinfo -F depends "$ko" | tr ',' ' ')
	[ -z "$deps" ] || modprobe -a $deps || exit 1
	load="insmod $ko $params"
	;;
*)
	echo "rel-dev: unknown target '$target' (vivid or vcap)" >&2
	exit 2
	;;
esac

# shellcheck disable=SC2086 # one word per parameter
$load || { echo "rel-dev: '$load' failed" >&2; exit 1; }

REL_VIDEO= REL_VRAM=
i=0
while [ $i -lt 100 ]; do
	REL_VIDEO=$(find_video "$target") && break
	sleep 0.1
	i=$((i + 1))
done
[ -n "$REL_VIDEO" ] || { echo "rel-dev: no $target capture node appeared" >&2; exit 1; }
if [ "$target" = vcap ]; then
	for d in /dev/vcap*; do
		[ -c "$d" ] && { REL_VRAM=$d; break; }
	done
	[ -n "$REL_VRAM" ] || { echo "rel-dev: no /dev/vcapN node" >&2; exit 1; }
fi
# REL_LOAD loads the driver again the same way, for unload tests; for
# vcap, REL_KO and REL_PARAMS say the same to a program that loads it.
export REL_VIDEO REL_VRAM REL_MODULE=$modname REL_LOAD="$load"
export REL_KO="$ko" REL_PARAMS="$params"
echo "rel-dev: $target on $REL_VIDEO${REL_VRAM:+ and $REL_VRAM}"

# REL_CORE_DIR (a directory the host shares): a program killed by a
# signal leaves its core there, for gdb on the host.
if [ -n "${REL_CORE_DIR:-}" ]; then
	ulimit -c unlimited
	echo "$REL_CORE_DIR/core.%e.%p.%s" >/proc/sys/kernel/core_pattern
fi

"$@"
status=$?

# Everything is closed now: the module must go.
if grep -q "^$modname " /proc/modules; then
	rmmod "$modname" || { echo "rel-dev: rmmod $modname failed after the run" >&2; status=1; }
fi
exit $status
