#!/bin/sh
# The firmware as QEMU's ivshmem server: interrupts reach the guest.
# The host runs vcap-fw on a socket, the guest binds vcap.ko to the
# ivshmem-doorbell board, streams, and counts MSI-X frame interrupts; the
# firmware counts the doorbells the guest rang.
set -u
vm=$1 kver=$2 fw=$3 build=$4
run=$(mktemp -d)
fw_pid=
cleanup() {
	[ -n "$fw_pid" ] && kill "$fw_pid" 2>/dev/null && wait "$fw_pid" 2>/dev/null
	rm -rf "$run"
}
trap cleanup EXIT

"$fw" serve --socket "$run/board.sock" --size 16M --pidfile "$run/fw.pid" &
fw_pid=$!
i=0
while [ ! -s "$run/fw.pid" ]; do
	kill -0 "$fw_pid" 2>/dev/null || { echo "doorbell: vcap-fw exited" >&2; exit 1; }
	sleep 0.1
	i=$((i + 1))
	[ $i -lt 100 ] || { echo "doorbell: vcap-fw did not become ready" >&2; exit 1; }
done

"$vm" --kernel "$kver" --timeout 240 --ivshmem-doorbell "$run/board.sock" -- \
	sh "$(dirname "$0")/doorbell-guest.sh" "$build" || exit 1

stats=$("$fw" ctl "$run/board.sock.ctl" stats) || { echo "doorbell: no stats from vcap-fw" >&2; exit 1; }
printf '%s\n' "$stats" | sed 's/^/vcap-fw: /'
rings=$(printf '%s\n' "$stats" | sed -n 's/^irq_received=//p')
sent=$(printf '%s\n' "$stats" | sed -n 's/^irq_sent=//p')
if [ -z "$rings" ] || [ "$rings" -lt 1 ]; then
	echo "doorbell: the firmware saw no doorbell from the guest" >&2
	exit 1
fi
if [ -z "$sent" ] || [ "$sent" -lt 30 ]; then
	echo "doorbell: the firmware sent only '${sent}' interrupts" >&2
	exit 1
fi
echo "doorbell: the firmware received $rings doorbells and sent $sent interrupts"
