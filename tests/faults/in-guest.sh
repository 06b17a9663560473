#!/bin/sh
# In the guest: load vcap.ko with PARAMS, run the test with FX_RPC and
# FX_KMOD set, and unload it (the test may have reloaded it itself).
# Usage: in-guest.sh KMOD "PARAMS" RPC-DIR CMD...
set -u
kmod=$1 params=$2 rpc=$3
shift 3
modprobe -a videodev videobuf2-common videobuf2-v4l2 videobuf2-memops v4l2-dv-timings ||
	{ echo "in-guest: cannot load the media modules" >&2; exit 1; }
# shellcheck disable=SC2086 # one word per parameter
insmod "$kmod" $params || { echo "in-guest: insmod $kmod failed" >&2; exit 1; }
udevadm settle 2>/dev/null || sleep 1
FX_RPC=$rpc FX_KMOD=$kmod FX_PARAMS=$params "$@"
status=$?
echo "--- vcap lines in the kernel log: $(dmesg | grep -c vcap), the last 30 (and any x86/PAT line):"
dmesg | grep -E "vcap|PAT" | tail -n 30
if grep -q '^vcap ' /proc/modules; then
	i=0
	until rmmod vcap 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 20 ] || { echo "in-guest: rmmod vcap failed" >&2; exit 1; }
		sleep 0.5
	done
fi
exit $status
