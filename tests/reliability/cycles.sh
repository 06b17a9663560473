#!/bin/sh
# Leaks and unloads, run under rel-dev.sh:
#  1. N open/map/stream/close cycles (rel-cycle): VmallocUsed, Slab, every
#     slab cache's object count and the module's refcount come back to
#     where they were (tolerances below); no vcap buffer stays allocated;
#  2. rmmod with an fd open, and with only mappings held, is refused; after
#     the last close and munmap it succeeds;
#  3. LOADS times: load, stream, unload.
# Usage: cycles.sh REL-CYCLE N LOADS
set -u
bin=$1 n=$2 loads=$3
mod=$REL_MODULE
tmp=$(mktemp -d)
fail=0

say() { echo "cycles: $*"; }
bad() { echo "cycles: FAIL: $*" >&2; fail=1; }

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
refcnt() { cat "/sys/module/$mod/refcnt"; }
# Object counts per slab cache, sorted by name.
slabs() { awk 'NR > 2 { print $1, $2 }' /proc/slabinfo | sort >"$1"; }
# Freed objects go back to their caches; page cache and dentries go too.
settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
}
# Buffers of vcap's allocator still alive.
vcap_bufs() { grep -c vcap_mem_alloc /proc/vmallocinfo; }

# --- 1. cycles --------------------------------------------------------------
# Tolerances: a leak of one object per cycle grows a cache by N objects;
# work that is not the driver's (the 9p root, page tables, the shell's own
# forks) moves a cache by a few dozen objects and Slab by a few hundred
# kB at most, and VmallocUsed by the kernel stacks of exited tasks that
# are freed lazily (16 kB each).  vmap_area objects are freed lazily in
# batches (the kernel purges them past a threshold): vmalloc is judged by
# VmallocUsed and, for vcap, /proc/vmallocinfo instead.
obj_tol=$((n / 4 > 64 ? n / 4 : 64))
slab_tol_kb=512
vmalloc_tol_kb=128

"$bin" cycles 10 >/dev/null || { bad "warm-up cycles failed"; exit 1; }
settle
v0=$(meminfo VmallocUsed) s0=$(meminfo Slab) r0=$(refcnt)
slabs "$tmp/slab0"
"$bin" cycles "$n" || bad "cycles failed"
settle
v1=$(meminfo VmallocUsed) s1=$(meminfo Slab) r1=$(refcnt)
slabs "$tmp/slab1"

say "$n cycles: VmallocUsed $v0 -> $v1 kB, Slab $s0 -> $s1 kB, refcnt $r0 -> $r1"
[ "$r1" -eq "$r0" ] || bad "module refcount $r0 -> $r1"
[ $((v1 - v0)) -le $vmalloc_tol_kb ] ||
	bad "VmallocUsed grew by $((v1 - v0)) kB (tolerance $vmalloc_tol_kb)"
[ $((s1 - s0)) -le $slab_tol_kb ] ||
	bad "Slab grew by $((s1 - s0)) kB (tolerance $slab_tol_kb)"
join "$tmp/slab0" "$tmp/slab1" | awk '{ print $3 - $2, $1 }' |
	sort -rn >"$tmp/growth"
say "largest cache growth (objects): $(head -n 3 "$tmp/growth" | tr '\n' ' ')"
awk -v t="$obj_tol" '$1 > t && $2 != "vmap_area"' "$tmp/growth" >"$tmp/leaks"
[ -s "$tmp/leaks" ] &&
	bad "caches grew by more than $obj_tol objects: $(tr '\n' ' ' <"$tmp/leaks")"
if [ "$mod" = vcap ]; then
	left=$(vcap_bufs)
	[ "$left" -eq 0 ] || bad "$left vcap buffers allocated with every fd closed"
fi

# --- 2. rmmod while in use ----------------------------------------------------
hold() {
	rm -f "$tmp/ready"
	"$bin" "$1" "$tmp/ready" &
	pid=$!
	i=0
	while [ ! -e "$tmp/ready" ] && [ $i -lt 500 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	[ -e "$tmp/ready" ] || bad "rel-cycle $1 did not get ready"
}
release() {
	kill "$pid"
	wait "$pid"
}

hold hold-fd
if rmmod "$mod" 2>"$tmp/err"; then
	bad "rmmod $mod succeeded with an fd open"
	exit 1
fi
say "rmmod with an fd open refused: $(cat "$tmp/err")"
release

hold hold-map
if rmmod "$mod" 2>"$tmp/err"; then
	bad "rmmod $mod succeeded with only mappings held"
	exit 1
fi
say "rmmod with mappings held refused: $(cat "$tmp/err")"
release
rmmod "$mod" || bad "rmmod $mod failed after the last munmap"
if grep -q "^$mod " /proc/modules; then
	bad "$mod still loaded"
fi

# --- 3. load, stream, unload --------------------------------------------------
# A module file (vcap): rel-cycle loads and unloads it itself, as insmod
# and rmmod do, without starting three processes a round.  modprobe
# (vivid): a round in the shell.
if [ -n "${REL_KO:-}" ]; then
	"$bin" reload "$loads" || bad "load/stream/unload rounds failed"
	loads=0
fi
t0=$(date +%s)
i=0
while [ $i -lt "$loads" ]; do
	# shellcheck disable=SC2086 # one word per parameter
	$REL_LOAD || { bad "load $i failed"; break; }
	j=0
	while [ ! -c "$REL_VIDEO" ] && [ $j -lt 500 ]; do
		sleep 0.02
		j=$((j + 1))
	done
	"$bin" cycles 1 >/dev/null || { bad "streaming after load $i failed"; break; }
	rmmod "$mod" || { bad "unload $i failed"; break; }
	i=$((i + 1))
done
[ $i -eq 0 ] || say "$i load/stream/unload rounds in $(($(date +%s) - t0)) s"
[ "$mod" != vcap ] || [ "$(vcap_bufs)" -eq 0 ] || bad "vcap buffers alive after unload"

rm -rf "$tmp"
[ $fail -eq 0 ] && say "passed"
exit $fail
