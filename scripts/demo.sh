#!/bin/sh
# The vcap demo: builds everything, starts the board's firmware playing the
# moving test pattern, boots a VM with the board attached, loads vcap.ko
# and runs the pipeline end to end.  The guest's memory is a file shared
# with the firmware, so the board writes each frame straight into the
# driver's buffers (DMA); VCAP_RAM_DIR is where that file goes (default
# /dev/shm).  Leaves in out/: a Y4M clip, what the
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
ram=
cleanup() {
	[ -n "$fw_pid" ] && kill "$fw_pid" 2>/dev/null
	[ -n "$ram" ] && rm -f "$ram"
	rm -rf "$run"
}
trap cleanup EXIT INT TERM

# The guest's memory, as a file the firmware maps too: the board's DMA.
mem=2G
if "$build/firmware/vcap-fw" serve --help 2>&1 | grep -q -- --guest-ram; then
	ram=$(mktemp "${VCAP_RAM_DIR:-/dev/shm}/vcap-demo-ram.XXXXXX")
	truncate -s "$mem" "$ram"
	echo "demo: starting the board firmware (moving box, doorbell interrupts, DMA)"
else
	echo "demo: this vcap-fw has no --guest-ram: the driver copies the frames"
	echo "demo: starting the board firmware (moving box, doorbell interrupts)"
fi
"$build/firmware/vcap-fw" serve --socket "$run/board.sock" \
	--shm "$run/board.mem" --pattern box --serial DEMO0001 \
	${ram:+--guest-ram "$ram"} --pidfile "$run/fw.pid" &
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
	# Until the screen shows more than one colour: the viewer's first
	# page flip comes a moment after it starts.  Then three seconds more,
	# so that the overlay's rates are measured over running frames.
	dump() {
		printf 'screendump %s\n' "$out/kms-screen.ppm" |
			socat - "UNIX-CONNECT:$run/monitor.sock" >/dev/null 2>&1
	}
	i=0
	while [ $i -lt 20 ] && [ -S "$run/monitor.sock" ]; do
		sleep 1
		dump
		colours=$(ppmhist -noheader "$out/kms-screen.ppm" 2>/dev/null | wc -l)
		if [ "$colours" -gt 1 ]; then
			sleep 3
			dump
			break
		fi
		i=$((i + 1))
	done
	touch "$out/.kms-done"
) &

# With a host display, QEMU shows the guest's screen in a window and the
# viewer runs longer there.
window= kms_frames=300
if [ -n "${DISPLAY:-}" ]; then
	if ! qemu-system-x86_64 -display help 2>/dev/null | grep -qx gtk; then
		echo "demo: installing QEMU's window front end (qemu-system-gui)"
		apt-get install -y -q --no-install-recommends qemu-system-gui >/dev/null
	fi
	window=--window kms_frames=900
	echo "demo: the guest's display opens in a window on $DISPLAY"
fi

echo "demo: booting $kver with the board attached"
status=0
tests/vm/vcap-vm --kernel "$kver" --timeout 900 --mem "$mem" \
	${ram:+--guest-ram "$ram"} \
	--ivshmem-doorbell "$run/board.sock" --display "$run/monitor.sock" \
	$window --share "$out" -- \
	sh "$top/scripts/demo-guest.sh" "$top/$build" "$out" "$kms_frames" ||
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
