#!/bin/sh
# Runs a fault test in the VM against the PCI board: vcap-fw serves the
# board on the host (ivshmem-doorbell, MSI-X), the guest loads vcap.ko
# and runs the test, which sends firmware faults through a directory
# shared with the guest: it writes cmd.ID holding "vcap-fw ctl"
# arguments, this script's relay runs them and answers in out.ID (the
# output, then "status S").
# With FX_DMA=1 the board is given the guest's memory as well and writes
# the frames into the driver's buffers.
# Usage: faults.sh VCAP_VM KERNEL VCAP_FW KMOD TIMEOUT "PARAMS" -- CMD...
set -u
vm=$1 kver=$2 fw=$3 kmod=$4 timeout=$5 params=$6
shift 6
[ "${1:-}" = "--" ] && shift
here=$(cd "$(dirname "$0")" && pwd)
# The relay's directory, shared with the guest.
dir=$(mktemp -d /var/tmp/vcap-faults.XXXXXX) || exit 1
fwpid= relay=
cleanup() {
	[ -n "$relay" ] && kill "$relay" 2>/dev/null && wait "$relay" 2>/dev/null
	[ -n "$fwpid" ] && kill "$fwpid" 2>/dev/null && wait "$fwpid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
mkdir "$dir/rpc"

ram=
if [ "${FX_DMA:-0}" = 1 ]; then
	truncate -s 1G "$dir/ram" || exit 1
	ram="--guest-ram $dir/ram"
fi
# shellcheck disable=SC2086
"$fw" serve --socket "$dir/sock" --size 64M --ctl "$dir/ctl" $ram \
	--pidfile "$dir/pid" --serial FAULTS01 >"$dir/fw.log" 2>&1 &
fwpid=$!
i=0
until grep -q ready "$dir/fw.log" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 "$fwpid" 2>/dev/null; then
		cat "$dir/fw.log" >&2
		echo "faults: vcap-fw did not come up" >&2
		exit 1
	fi
	sleep 0.1
done

# The relay: one request at a time, in the order they appear.
(
	while :; do
		for req in "$dir"/rpc/cmd.*; do
			[ -e "$req" ] || continue
			id=${req##*/cmd.}
			# shellcheck disable=SC2046 # the words are the arguments
			"$fw" ctl "$dir/ctl" $(cat "$req") >"$dir/rpc/o.$id" 2>&1
			echo "status $?" >>"$dir/rpc/o.$id"
			echo "fw-ctl: $(cat "$req") -> $(tail -n 1 "$dir/rpc/o.$id")" >>"$dir/relay.log"
			rm -f "$req"
			mv "$dir/rpc/o.$id" "$dir/rpc/out.$id"
		done
		sleep 0.05
	done
) &
relay=$!

# no_timer_check: on a loaded host the emulated guest's IO-APIC timer
# check can fail and panic the boot.
# shellcheck disable=SC2086
"$vm" --kernel "$kver" --timeout "$timeout" --share "$dir/rpc" \
	--append no_timer_check --ivshmem-doorbell "$dir/sock" --mem 1G $ram -- \
	sh "$here/in-guest.sh" "$kmod" "$params" "$dir/rpc" "$@"
status=$?
echo "--- firmware commands"
cat "$dir/relay.log" 2>/dev/null
echo "--- firmware statistics"
"$fw" ctl "$dir/ctl" stats 2>&1 | tr '\n' ' '
echo
if ! kill -0 "$fwpid" 2>/dev/null; then
	echo "faults: vcap-fw died during the test" >&2
	cat "$dir/fw.log" >&2
	status=1
fi
exit $status
