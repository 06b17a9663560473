#!/bin/sh
# The vcap demo: builds everything, starts the board's firmware playing the
# moving test pattern, boots a VM with the board attached, loads vcap.ko
# and runs the pipeline end to end.  Leaves in out/: a Y4M clip, what the
# viewer showed (PNG), the KMS display as the host saw it, and the
# benchmark figures.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
build=${VCAP_BUILD_DIR:-build}
out=$top/out

sh scripts/install-deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DVCAP_BUILD_KERNEL=ON -DVCAP_BUILD_VIEWER=ON >/dev/null
cmake --build "$build" -j "$(nproc)"

kver=${VCAP_KERNEL:-$(tests/vm/vcap-vm --kernel list | sort -V | tail -n 1)}
[ -n "$kver" ] || { echo "demo: no kernel installed" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out"/*

run=$(mktemp -d)
fw_pid=
cleanup() {
	[ -n "$fw_pid" ] && kill "$fw_pid" 2>/dev/null
	rm -rf "$run"
}
trap cleanup EXIT INT TERM

echo "demo: starting the board firmware (moving box, doorbell interrupts)"
"$build/firmware/vcap-fw" serve --socket "$run/board.sock" \
	--shm "$run/board.mem" --pattern box --serial DEMO0001 \
	--pidfile "$run/fw.pid" &
fw_pid=$!
i=0
while [ ! -s "$run/fw.pid" ]; do
	sleep 0.1
	i=$((i + 1))
	[ $i -lt 100 ] || { echo "demo: the firmware did not start" >&2; exit 1; }
done

# The host photographs the guest's KMS display while vcap-view runs.
(
	i=0
	while [ ! -e "$out/.kms-running" ] && [ $i -lt 1800 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	sleep 4
	[ -S "$run/monitor.sock" ] && printf 'screendump %s\n' "$out/kms-screen.ppm" |
		socat - "UNIX-CONNECT:$run/monitor.sock" >/dev/null 2>&1
	touch "$out/.kms-done"
) &

echo "demo: booting $kver with the board attached"
status=0
tests/vm/vcap-vm --kernel "$kver" --timeout 900 --mem 2G \
	--ivshmem-doorbell "$run/board.sock" --display "$run/monitor.sock" \
	--share "$out" -- sh "$top/scripts/demo-guest.sh" "$top/$build" "$out" ||
	status=$?

echo "demo: firmware statistics"
"$build/firmware/vcap-fw" ctl "$run/board.sock.ctl" stats || true
if [ -f "$out/kms-screen.ppm" ]; then
	pnmtopng "$out/kms-screen.ppm" >"$out/kms-screen.png" 2>/dev/null &&
		rm -f "$out/kms-screen.ppm"
fi
rm -f "$out/.kms-running" "$out/.kms-done"
echo
echo "demo: results in $out:"
ls -l "$out"
exit $status
