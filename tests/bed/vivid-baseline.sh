#!/bin/sh
# vivid under the v4l2-compliance that matches this kernel: proves the
# tooling works in the guest and records the result as this kernel's
# baseline (what tool/kernel skew looks like on the reference driver).
set -u
out=$1
here=$(dirname "$0")
modprobe vivid n_devs=1 node_types=0x1 input_types=0x81 || exit 1
dev=
for d in /sys/class/video4linux/video*; do
	[ "$(cat "$d/name")" = "vivid-000-vid-cap" ] && dev=/dev/${d##*/}
done
[ -n "$dev" ] || { echo "vivid-baseline: vivid's capture node not found" >&2; exit 1; }
"$here/../vm/v4l2-compliance" -d "$dev" >"$out" 2>&1
summary=$(grep -E '^Total for vivid device' "$out")
if [ -z "$summary" ]; then
	echo "vivid-baseline: v4l2-compliance did not complete:" >&2
	tail -n 20 "$out" >&2
	exit 1
fi
echo "vivid-baseline: $(uname -r): $summary"
grep -E '^\s*(fail|warn):' "$out" | sort | uniq -c | sed 's/^/    /'
succeeded=$(printf '%s\n' "$summary" | sed -n 's/.*Succeeded: \([0-9]*\).*/\1/p')
[ "${succeeded:-0}" -gt 20 ] || { echo "vivid-baseline: too few tests succeeded" >&2; exit 1; }
