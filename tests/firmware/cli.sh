#!/bin/sh
# vcap-fw from the command line: bad options fail with a message naming the
# problem; a board in the background answers its control socket, reports
# faults in stats, and exits cleanly on SIGTERM.
set -u
fw=$1
dir=$(mktemp -d /tmp/vcap-fwcli.XXXXXX)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
fails=0

# expect STATUS PATTERN -- ARGS: exit status and a stderr line matching.
expect() {
	want=$1 pat=$2
	shift 3
	"$fw" "$@" >"$dir/out" 2>"$dir/err"
	got=$?
	if [ "$got" -ne "$want" ] || ! grep -q -- "$pat" "$dir/err" "$dir/out"; then
		echo "not ok: vcap-fw $*: status $got (want $want), output:"
		cat "$dir/err" "$dir/out"
		fails=$((fails + 1))
	else
		echo "ok: vcap-fw $* -> $got: $(head -n1 "$dir/err")"
	fi
}

printf 'YUV4MPEG2 W64 H48 C420jpeg\nFRAME\nabc' >"$dir/trunc.y4m"

expect 2 "Usage" --
expect 2 "unknown command 'flash'" -- flash
expect 2 "bad --size '12Q'" -- serve --size 12Q --shm "$dir/m"
expect 1 "must be a power of two" -- serve --size 3M --shm "$dir/m"
expect 1 "must be a power of two" -- serve --size 4K --shm "$dir/m"
expect 2 "unknown --pattern 'plaid'" -- serve --pattern plaid --shm "$dir/m"
expect 2 "bad --start 'YUYV640x480'" -- serve --start YUYV640x480 --shm "$dir/m"
expect 1 "refused: size not offered" -- serve --start YUYV:641x480@30 --shm "$dir/m"
expect 1 "refused: interval not offered" -- serve --start YUYV:640x480@7 --shm "$dir/m"
expect 1 "no board memory" -- serve
expect 1 "No such file or directory" -- serve --source y4m:"$dir/none.y4m" --shm "$dir/m"
expect 1 "frame 0 is truncated" -- serve --source y4m:"$dir/trunc.y4m" --shm "$dir/m"
expect 1 "bad source 'webcam'" -- serve --source webcam --shm "$dir/m"
expect 1 "pipe .*none.fifo: No such file or directory" -- serve --source pipe:"$dir/none.fifo" --shm "$dir/m"
expect 1 "none unstable out-of-range" -- serve --source 1080i60 --shm "$dir/m"
expect 1 "cannot create board memory" -- serve --shm /nonexistent/dir/m
expect 1 "cannot listen on" -- serve --socket /nonexistent/dir/s
expect 2 "unexpected argument 'extra'" -- serve --shm "$dir/m" extra
expect 1 "cannot connect" -- ctl "$dir/nobody" stats
expect 1 "cannot open guest RAM .*must exist" -- serve --shm "$dir/m" --guest-ram "$dir/noram"
: >"$dir/ram0"
expect 1 "guest RAM .*0 bytes" -- serve --shm "$dir/m" --guest-ram "$dir/ram0"
expect 2 "bad --guest-machine 'isapc': pc or q35" -- serve --shm "$dir/m" --guest-ram "$dir/ram0" --guest-machine isapc
expect 2 "--guest-machine without --guest-ram" -- serve --shm "$dir/m" --guest-machine q35

# A board in the background, as the VM tests run it, with DMA.
truncate -s 64M "$dir/ram"
"$fw" serve --socket "$dir/s" --shm vcap-cli-$$ --size 16M \
	--pidfile "$dir/pid" --start GREY:320x240@60 --source 720p60 \
	--guest-ram "$dir/ram" --guest-machine q35 >"$dir/log" 2>&1 &
pid=$!
for i in $(seq 50); do
	grep -q "ready" "$dir/log" 2>/dev/null && break
	sleep 0.1
done
if ! grep -q "ready" "$dir/log" || [ "$(cat "$dir/pid")" != "$pid" ] ||
   [ ! -S "$dir/s" ] || [ ! -f /dev/shm/vcap-cli-$$ ]; then
	echo "not ok: board did not come up"; cat "$dir/log"; fails=$((fails + 1))
fi
expect 0 "state=streaming" -- ctl "$dir/s.ctl" stats
expect 0 "irq_received=0" -- ctl "$dir/s.ctl" stats
expect 0 "hdmi_source=720p60" -- ctl "$dir/s.ctl" stats
expect 0 "link=no-signal" -- ctl "$dir/s.ctl" stats
expect 1 "bad source 'bogus': an HDMI source is one of .*1080p60" -- ctl "$dir/s.ctl" source bogus
expect 0 "hdmi_source=out-of-range" -- ctl "$dir/s.ctl" source out-of-range
expect 0 "hotplug=low" -- ctl "$dir/s.ctl" source 1080p60
# A live stream through a FIFO: the HDMI source follows it.
mkfifo "$dir/fifo"
expect 0 "hdmi_source=none" -- ctl "$dir/s.ctl" source pipe:"$dir/fifo"
{ printf 'YUV4MPEG2 W64 H48 F30:1\nFRAME\n'; head -c 4608 /dev/zero; } >"$dir/fifo"
sleep 0.2
expect 0 "pipe_frames_in=1" -- ctl "$dir/s.ctl" stats
expect 0 "pipe_stream=64x48 rate=30/1 timing=640x480p60" -- ctl "$dir/s.ctl" stats
printf 'garbage\n' >"$dir/fifo"
sleep 0.2
expect 0 "pipe_last_error=not a Y4M stream" -- ctl "$dir/s.ctl" stats
expect 0 "hdmi_source=1080p60" -- ctl "$dir/s.ctl" source pattern
expect 1 "unknown pattern 'plaid'" -- ctl "$dir/s.ctl" pattern plaid
expect 1 "bad fault command" -- ctl "$dir/s.ctl" fault melt
expect 0 "guest_ram=67108864 q35" -- ctl "$dir/s.ctl" stats
expect 0 "dma=stopped" -- ctl "$dir/s.ctl" stats
expect 0 "ok" -- ctl "$dir/s.ctl" fault comp replay every 10
expect 1 "bad fault command" -- ctl "$dir/s.ctl" fault comp melt
expect 0 "ok" -- ctl "$dir/s.ctl" fault drop 7
expect 0 "ok" -- ctl "$dir/s.ctl" pattern checkerboard
sleep 0.5
expect 0 "frames_dropped=7" -- ctl "$dir/s.ctl" stats
expect 0 "pattern=checkerboard" -- ctl "$dir/s.ctl" stats
kill -TERM "$pid"
wait "$pid"
status=$?
pid=
if [ "$status" -ne 0 ] || [ -e "$dir/s" ] || [ -e "$dir/s.ctl" ] ||
   [ -e "$dir/pid" ]; then
	echo "not ok: SIGTERM: status $status, leftovers: $(ls "$dir")"
	fails=$((fails + 1))
else
	echo "ok: clean exit on SIGTERM"
fi
rm -f /dev/shm/vcap-cli-$$
echo "$fails failures"
[ "$fails" -eq 0 ]
