#!/bin/sh
# Runs a guest command with a PCI vcap board: starts vcap-fw on the host
# over a fresh memory file (ivshmem-plain, polled) or socket
# (ivshmem-doorbell, MSI-X), boots the VM with the board attached, and
# stops the firmware afterwards.
# Usage: with-board.sh plain|doorbell VCAP_FW VCAP_VM KERNEL TIMEOUT -- CMD...
set -u
mode=$1 fw=$2 vm=$3 kver=$4 timeout=$5
shift 5
[ "${1:-}" = "--" ] && shift
dir=$(mktemp -d /dev/shm/vcap-test.XXXXXX) || exit 1
fwpid=
cleanup() {
	[ -n "$fwpid" ] && kill "$fwpid" 2>/dev/null && wait "$fwpid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
case $mode in
plain)
	"$fw" serve --shm "$dir/board" --size 64M --ctl "$dir/ctl" \
		--pidfile "$dir/pid" --serial PCI0001 --realtime &
	fwpid=$!
	board="--ivshmem-plain $dir/board" ;;
doorbell)
	"$fw" serve --socket "$dir/sock" --size 64M --ctl "$dir/ctl" \
		--pidfile "$dir/pid" --serial PCI0001 --realtime &
	fwpid=$!
	board="--ivshmem-doorbell $dir/sock" ;;
*)
	echo "with-board: mode '$mode' is neither plain nor doorbell" >&2
	exit 2 ;;
esac
i=0
until [ -s "$dir/pid" ]; do
	i=$((i + 1))
	if [ "$i" -gt 100 ] || ! kill -0 "$fwpid" 2>/dev/null; then
		echo "with-board: vcap-fw did not come up" >&2
		exit 1
	fi
	sleep 0.1
done
# shellcheck disable=SC2086
"$vm" --kernel "$kver" --timeout "$timeout" $board -- "$@"
