#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs compat-ioctls as an x86-64 program and as i386 ones, each on a
# freshly loaded vcap.ko, and fails unless every run passes and every i386
# transcript is the x86-64 one.
# Usage: compat-guest.sh WITH-VCAP.sh MODULE.ko "PARAMS" OUTDIR PROG64 PROG32...
set -u
[ $# -ge 6 ] || {
	echo "usage: $0 WITH-VCAP.sh KO PARAMS OUTDIR PROG64 PROG32..." >&2
	exit 2
}
with=$1 ko=$2 params=$3 dir=$4
shift 4
mkdir -p "$dir" || exit 1
status=0

# The ELF class byte: 2 for a 64-bit program, 1 for a 32-bit one.
elf_class() {
	od -An -tu1 -j4 -N1 "$1" | tr -d ' '
}

# run PROG CLASS: its transcript goes to OUTDIR/PROG's name.txt.
run() {
	prog=$1 class=$2 out=$dir/$(basename "$1").txt
	rm -f "$out" "$out.diff"
	if [ "$(elf_class "$prog")" != "$class" ]; then
		echo "compat32: $prog is not of ELF class $class" >&2
		status=1
		return
	fi
	sh "$with" "$ko" "$params" "$prog" >"$out"
	rc=$?
	echo "compat32: $(basename "$prog") exited $rc, $(wc -l <"$out") lines"
	if [ "$rc" -ne 0 ]; then
		grep -E '^(UNEXPECTED|FATAL)' "$out"
		status=1
	fi
}

ref=$dir/$(basename "$1").txt
run "$1" 2
shift
for prog in "$@"; do
	run "$prog" 1
	out=$dir/$(basename "$prog").txt
	if [ -s "$ref" ] && [ -s "$out" ] &&
	   diff -u "$ref" "$out" >"$out.diff"; then
		echo "compat32: $(basename "$prog"): the transcript is identical"
	else
		echo "compat32: $(basename "$prog"): the transcripts differ" \
			"(- 64-bit, + 32-bit):"
		cat "$out.diff" 2>/dev/null
		status=1
	fi
done
[ "$status" -ne 0 ] || cat "$ref"
exit "$status"
