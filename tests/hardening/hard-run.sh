#!/bin/sh
# Guest side of the hardening tests: loads vcap.ko with parameters, runs
# the program, then unloads the driver and fails if that takes longer than
# 10 s (a hang, not a busy module, is what is being caught).
# Usage: hard-run.sh MODULE.ko "PARAMS" CMD...
set -u
ko=$1 params=$2
shift 2
[ -f "$ko" ] || { echo "hard-run: $ko not found" >&2; exit 1; }
modprobe -a videodev videobuf2-common videobuf2-v4l2 videobuf2-memops v4l2-dv-timings ||
	{ echo "hard-run: cannot load the media modules" >&2; exit 1; }
# shellcheck disable=SC2086 # one word per parameter
insmod "$ko" $params || { echo "hard-run: insmod $ko $params failed" >&2; exit 1; }
udevadm settle 2>/dev/null || sleep 1
"$@"
status=$?

# rmmod in the background: one stuck in the kernel cannot be killed, so
# watch /proc/modules rather than wait for it.
t0=$(date +%s%N)
(
	i=0
	until rmmod vcap 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -lt 20 ] || exit 1
		sleep 0.5
	done
) &
gone=0
i=0
while [ "$i" -lt 100 ]; do
	if ! grep -q '^vcap ' /proc/modules; then
		gone=1
		break
	fi
	sleep 0.1
	i=$((i + 1))
done
ms=$((($(date +%s%N) - t0) / 1000000))
if [ "$gone" -ne 1 ]; then
	echo "hard-run: vcap still loaded ${ms} ms after rmmod began (unload hangs or is refused)" >&2
	grep '^vcap ' /proc/modules >&2
	exit 1
fi
echo "hard-run: vcap unloaded in ${ms} ms"
exit "$status"
