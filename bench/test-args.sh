#!/bin/sh
# Unit test of vbench's command line: bad input gives status 2 and a
# message; memcpy and touch on anonymous memory give their JSON line.
# usage: test-args.sh VBENCH
set -u
vb=$1
fail=0
expect() {
	want=$1 name=$2
	shift 2
	out=$("$@" 2>&1)
	got=$?
	if [ "$got" = "$want" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name: status $got, not $want: $out"
		fail=1
	fi
}
expect 2 "no command" "$vb"
expect 2 "unknown command" "$vb" bogus
expect 2 "capture without a device" "$vb" capture
expect 2 "capture with a bad size" "$vb" capture -d /dev/null -s 640y480
expect 2 "capture with a bad start time" "$vb" capture -d /dev/null -S 0
expect 2 "capture with a start time that is not a number" "$vb" capture -d /dev/null -S soon
expect 2 "capture with a negative slack" "$vb" capture -d /dev/null -B -5
expect 2 "now with an argument" "$vb" now 1
expect 2 "memcpy without a size" "$vb" memcpy
expect 2 "memcpy with a bad size" "$vb" memcpy 12abc
expect 2 "feed with too many buffers" "$vb" feed -d /dev/null -b 99
expect 2 "vram without a device" "$vb" vram
expect 1 "capture of a missing device" "$vb" capture -d /nonexistent/video0
expect 1 "capture of a device that is not V4L2" "$vb" capture -d /dev/null
expect 0 "help" "$vb" --help
line=$("$vb" memcpy -t 0.05 65536)
case $line in
*'"tool":"memcpy","bytes":65536,'*'"gbytes_per_s":'*) echo "ok - memcpy JSON" ;;
*) echo "not ok - memcpy JSON: $line"; fail=1 ;;
esac
# now: CLOCK_MONOTONIC in seconds, a number that does not go back.
a=$("$vb" now) b=$("$vb" now)
if awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && b >= a && a ~ /^[0-9]+\.[0-9]+$/) }'; then
	echo "ok - now"
else
	echo "not ok - now: '$a' then '$b'"
	fail=1
fi
line=$("$vb" touch -B 1048576 -n 3)
case $line in
*'"tool":"touch","driver":"anonymous","populate":0,"bytes":1048576,'*) echo "ok - touch JSON" ;;
*) echo "not ok - touch JSON: $line"; fail=1 ;;
esac
# run-bench.sh's own command line, which starts nothing when it is wrong.
rb=$(dirname "$0")/run-bench.sh
expect 1 "run-bench with an unknown option" sh "$rb" --bogus
case $(sh "$rb" --help) in
*--no-dma*guest-ram*) echo "ok - run-bench help: --no-dma and the guest's memory" ;;
*) echo "not ok - run-bench help does not describe --no-dma and --guest-ram"; fail=1 ;;
esac
exit $fail
