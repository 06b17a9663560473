#!/bin/sh
# vcap-fw against a real QEMU: the board in a guest with no driver, over
# ivshmem-plain or ivshmem-doorbell.  The guest maps BAR2, requests modes,
# rings the firmware's doorbell, and checks the stamps of the frames; the
# firmware's statistics then show the guest's doorbells arrived.
set -u
vm=$1 kver=$2 fw=$3 guest=$4 mode=$5
dir=$(mktemp -d /tmp/vcap-fwvm.XXXXXX)
mem=/dev/shm/$(basename "$dir")
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid"
	rm -rf "$dir"
	rm -f "$mem"
}
trap cleanup EXIT

if [ "$mode" = doorbell ]; then
	set -- --socket "$dir/s"
	board="--ivshmem-doorbell $dir/s"
else
	set -- --shm "$mem" --ctl "$dir/s.ctl"
	board="--ivshmem-plain $mem"
fi
"$fw" serve "$@" --size 16M --realtime --pidfile "$dir/pid" >"$dir/log" 2>&1 &
pid=$!
for i in $(seq 50); do
	grep -q ready "$dir/log" && break
	sleep 0.1
done
grep -q ready "$dir/log" || { cat "$dir/log"; echo "vcap-fw did not start"; exit 1; }

# shellcheck disable=SC2086
"$vm" --kernel "$kver" --timeout 170 $board -- "$guest" "$mode" 40
status=$?
"$fw" ctl "$dir/s.ctl" stats >"$dir/stats" || status=1
cat "$dir/stats"
if [ "$mode" = doorbell ]; then
	rx=$(sed -n 's/^irq_received=//p' "$dir/stats")
	conn=$(sed -n 's/^peer_connects=//p' "$dir/stats")
	if [ "${conn:-0}" -lt 1 ] || [ "${rx:-0}" -lt 3 ]; then
		echo "FAIL: QEMU connected $conn times, firmware got $rx doorbells (want >= 3)"
		status=1
	fi
fi
refused=$(sed -n 's/^requests_refused=//p' "$dir/stats")
[ "${refused:-0}" -eq 1 ] || { echo "FAIL: $refused requests refused, want 1"; status=1; }
exit $status
