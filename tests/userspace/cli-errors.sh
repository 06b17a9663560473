#!/bin/sh
# vcap-stream's bad input from the command line: each case a one-line
# error naming the cause and the documented exit status.
set -u
tool=$1
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect STATUS PATTERN ARGS...
expect() {
	want=$1 pattern=$2
	shift 2
	"$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$got" -ne "$want" ] || ! grep -q -- "$pattern" "$tmp/err" ||
	   [ "$lines" -ne 1 ]; then
		echo "FAIL: vcap-stream $*: status $got (want $want), stderr:" >&2
		cat "$tmp/err" >&2
		fails=$((fails + 1))
	else
		echo "ok: vcap-stream $*: $(cat "$tmp/err")"
	fi
}

expect 2 "unknown command 'frobnicate'" frobnicate
expect 2 "unknown option '--nope'" verify -d /dev/video0 --nope
expect 2 "bad size 'big'" capture -d /dev/video0 -n 1 -o x --size big
expect 2 "no device" bench
# Not a capture device: a character device without V4L2, a file, a
# directory, nothing at all.
expect 1 "/dev/null: VIDIOC_QUERYCAP: not a V4L2 device" verify -d /dev/null
expect 1 "/dev/null: VCAP_IOC_QUERY: not a vcap VRAM node" verify --vram /dev/null
expect 1 "$tmp: open: Is a directory" bench -d "$tmp"
touch "$tmp/file"
expect 1 "$tmp/file: not a device node" capture -d "$tmp/file" -n 1 -o "$tmp/o"
expect 1 "/dev/nope: open: No such file or directory" formats -d /dev/nope
# Help goes to stdout with status 0.
for c in list formats capture verify bench; do
	if ! "$tool" $c --help | grep -q "Usage: vcap-stream $c"; then
		echo "FAIL: vcap-stream $c --help" >&2
		fails=$((fails + 1))
	fi
done
# -v names the node before anything opens it; a node that is not V4L2 has
# no driver, card or transfer to tell, and fails as without -v.
"$tool" bench -v -d /dev/null -t 1 >"$tmp/out" 2>"$tmp/err"
got=$?
if [ "$got" -ne 1 ] || [ "$(sed -n 1p "$tmp/err")" != "bench: node: /dev/null" ] ||
   ! sed -n 2p "$tmp/err" | grep -q "not a V4L2 device" ||
   [ "$(wc -l <"$tmp/err")" -ne 2 ]; then
	echo "FAIL: vcap-stream bench -v -d /dev/null: status $got, stderr:" >&2
	cat "$tmp/err" >&2
	fails=$((fails + 1))
else
	echo "ok: vcap-stream bench -v -d /dev/null: the node, then the error"
fi
"$tool" --help | grep -q "Commands:" || { echo "FAIL: --help" >&2; fails=$((fails + 1)); }
"$tool" >/dev/null 2>&1 && { echo "FAIL: no command exits 0" >&2; fails=$((fails + 1)); }
[ "$fails" -eq 0 ] || { echo "$fails failures" >&2; exit 1; }
echo "all cli error cases passed"
