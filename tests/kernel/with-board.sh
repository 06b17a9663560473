#!/bin/sh
# Runs a guest command with a PCI vcap board: starts vcap-fw on the host
# over a fresh memory file (ivshmem-plain, polled) or socket
# (ivshmem-doorbell, MSI-X), boots the VM with the board attached, and
# stops the firmware afterwards.  dma is the doorbell board given the
# guest's memory as well, so that it writes the frames into the driver's
# buffers.
# Usage: with-board.sh plain|doorbell|dma VCAP_FW VCAP_VM KERNEL TIMEOUT -- CMD...
# VCAP_GUEST_MEM sets the guest's memory (default 1G); VCAP_FW_ARGS adds
# arguments to vcap-fw serve.
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
mem=${VCAP_GUEST_MEM:-1G}
# shellcheck disable=SC2086
case $mode in
plain)
	"$fw" serve --shm "$dir/board" --size 64M --ctl "$dir/ctl" \
		--pidfile "$dir/pid" --serial PCI0001 --realtime ${VCAP_FW_ARGS:-} &
	fwpid=$!
	board="--ivshmem-plain $dir/board" ;;
doorbell)
	"$fw" serve --socket "$dir/sock" --size 64M --ctl "$dir/ctl" \
		--pidfile "$dir/pid" --serial PCI0001 --realtime ${VCAP_FW_ARGS:-} &
	fwpid=$!
	board="--ivshmem-doorbell $dir/sock" ;;
dma)
	truncate -s "$mem" "$dir/ram" || exit 1
	"$fw" serve --socket "$dir/sock" --size 64M --ctl "$dir/ctl" \
		--guest-ram "$dir/ram" --pidfile "$dir/pid" --serial PCI0001 \
		--realtime ${VCAP_FW_ARGS:-} &
	fwpid=$!
	board="--ivshmem-doorbell $dir/sock --guest-ram $dir/ram" ;;
*)
	echo "with-board: mode '$mode' is not plain, doorbell or dma" >&2
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
"$vm" --kernel "$kver" --timeout "$timeout" --mem "$mem" $board -- "$@"
