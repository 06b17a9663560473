#!/bin/sh
# Runs the benchmarks: vcap (software and PCI board), vivid and v4l2loopback
# side by side, one VM run per kernel, then writes the JSON figures, the
# plots and the report.
#
# usage: bench/run-bench.sh [--build DIR] [--kernel RELEASE]... [--seconds S]
#                           [--quick] [--no-pci] [--no-dma] [--publish]
#   --build DIR     the CMake build directory (default: build)
#   --kernel REL    only this kernel (repeatable; default: every installed)
#   --seconds S     length of each measurement (default 2)
#   --quick         two sizes, YUYV only: checks the harness in minutes
#                   (default: YUYV at 640x480 to 3840x2160, NV12 at 1920x1080)
#   --no-pci        no PCI board (no firmware), the software board only
#   --no-dma        the PCI board without the guest's memory: its copy path only
#   --publish       copy the report and plots to docs/ (benchmarks.md, bench/)
#   --kmod-dir DIR  take vcap.ko from DIR/RELEASE/ (default: BUILD/kernel)
#   --only "LIST"   only these parts: memcpy touch vivid loopback vcap vram
#                   crosscheck scale (default: all)
# The PCI board runs its DMA path: the guest's memory is a file shared with
# the firmware (vcap-fw --guest-ram, vcap-vm --guest-ram), so the board
# writes each frame into the driver's buffers.  A second board beside it,
# whose firmware is not given that memory, runs the copy path in the same
# guest: their rows are labelled "DMA" and "copy".
# The scale part streams from many boards at once: the guest gets 2 GiB of
# memory for it, and a second DMA board (a third vcap-fw).
# VCAP_RAM_DIR: where the guest's memory file goes (default /dev/shm).
# Results: DIR/bench-results/ (bench.json, per-kernel results.jsonl and
# latencies, benchmarks.md, *.png).
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${VCAP_BUILD_DIR:-$repo/build}
kernels=
secs=2
quick=0
pci=1
dma=1
publish=0
kmod_dir=
only=

die() { printf 'run-bench: %s\n' "$*" >&2; exit 1; }
log() { printf 'run-bench: %s\n' "$*" >&2; }
# want PART: the run includes that part of the guest benchmark.
want() {
	[ -z "$only" ] && return 0
	case " $only " in *" $1 "*) return 0 ;; esac
	return 1
}

# start_fw LOG [SERIAL [GUEST_RAM]]: one board's firmware serving its own
# doorbell socket; sets sock and fw_pid.  Without SERIAL (or with an empty
# one) the firmware's own (VCAP-0001).  With GUEST_RAM the board writes
# into the guest's memory (DMA).  The firmware plays the board's own processor: it runs
# before the guest's CPUs on the host (--realtime, where allowed), or a
# loaded host makes it late, and a late board skips frame numbers.
start_fw() {
	sock=$(mktemp -u /tmp/vcap-bench-fw.XXXXXX)
	# shellcheck disable=SC2086
	"$fw" serve --realtime --socket "$sock" --pidfile "$sock.pid" ${2:+--serial "$2"} \
		${3:+--guest-ram "$3"} >"$1" 2>&1 &
	fw_pid=$!
	n=0
	while [ ! -S "$sock" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
	[ -S "$sock" ] && return 0
	kill "$fw_pid" 2>/dev/null
	wait "$fw_pid" 2>/dev/null
	return 1
}

# progress FILE: while the guest runs, a line every 30 s with how many
# measurements it has written to FILE and what the last one was.
progress() {
	seen=0
	while sleep 30; do
		n=$(wc -l <"$1" 2>/dev/null) || continue
		[ "$n" -gt "$seen" ] || continue
		seen=$n
		last=$(tail -n 1 "$1" | sed -n 's/.*"bench":"\([^"]*\)".*"target":"\([^"]*\)".*"size":"\([^"]*\)".*/\1 \2 \3/p')
		log "$k: $n measurements${last:+, the last: $last}"
	done
}

while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--kernel) kernels="$kernels $2"; shift 2 ;;
	--seconds) secs=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--no-pci) pci=0; shift ;;
	--no-dma) dma=0; shift ;;
	--publish) publish=1; shift ;;
	--kmod-dir) kmod_dir=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	-h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
build=$(cd "$build" 2>/dev/null && pwd) || die "no build directory: run cmake first"
[ -f "$build/CMakeCache.txt" ] || die "$build is not a CMake build directory"
if [ -z "$kernels" ]; then
	for d in /lib/modules/*/build; do
		[ -f "$d/Makefile" ] || continue
		k=${d%/build}
		kernels="$kernels ${k##*/}"
	done
fi
[ -n "$kernels" ] || die "no kernel with headers in /lib/modules: run scripts/install-deps.sh"
command -v gnuplot >/dev/null || die "gnuplot missing: run scripts/install-deps.sh"

log "building the measuring programs, the tools and the module"
targets="vbench vcap-stream vcap-fw mem-bench"
for k in $kernels; do targets="$targets vcap-ko-$k"; done
for t in $targets; do
	cmake --build "$build" --target "$t" -j "$(nproc)" >"$build/bench-build-$t.log" 2>&1 ||
		log "could not build $t (see $build/bench-build-$t.log)"
done
vbench=$build/bench/vbench
[ -x "$vbench" ] || die "vbench did not build"
vstream=$build/userspace/vcap-stream
fw=$build/firmware/vcap-fw

res=$build/bench-results
mkdir -p "$res"
# YUYV at every size; NV12, which every driver here offers too, at 1080p.
modes="YUYV:640x480 YUYV:1280x720 YUYV:1920x1080 YUYV:3840x2160 NV12:1920x1080"
[ $quick = 1 ] && modes="YUYV:640x480 YUYV:1920x1080"

status=0
for k in $kernels; do
	out=$res/$k
	rm -rf "$out"
	mkdir -p "$out"
	: >"$out/results.jsonl"
	log "$k: building v4l2loopback"
	loop_ko=$(sh "$here/build-v4l2loopback.sh" "$k" "$res/v4l2loopback/$k" 2>"$out/v4l2loopback-build.txt") ||
		loop_ko=
	if [ -z "$loop_ko" ]; then
		why=$(grep -m 1 'error' "$out/v4l2loopback-build.txt" | sed 's/.*error: //; s/["\\]//g')
		log "$k: v4l2loopback does not build: $why"
		printf '{"kernel":"%s","bench":"note","target":"v4l2loopback","note":"Debian v4l2loopback-source %s does not build for this kernel (%s), so it is not measured here"}\n' \
			"$k" "$(dpkg-query -W -f '${Version}' v4l2loopback-source 2>/dev/null)" "$why" >>"$out/results.jsonl"
	fi

	# 16 software boards streaming: 16 x 16 MiB of board memory and
	# 16 x 6 frame buffers of 4 MiB (the driver gives 6 at 1080p).
	guest_mem=1G
	want scale && guest_mem=2G

	vm_args=
	fw_pids=
	socks=
	ram=
	if [ $pci = 1 ] && [ -x "$fw" ] && [ $dma = 1 ] &&
	   ! "$fw" serve --help 2>&1 | grep -q -- --guest-ram; then
		log "$k: this vcap-fw has no --guest-ram: the PCI board runs its copy path only"
	elif [ $pci = 1 ] && [ -x "$fw" ] && [ $dma = 1 ]; then
		# The guest's memory, shared with the DMA boards' firmware.
		ram=$(mktemp "${VCAP_RAM_DIR:-/dev/shm}/vcap-bench-ram.XXXXXX") &&
			truncate -s "$guest_mem" "$ram" || {
			log "$k: no guest memory file: the PCI board runs its copy path only"
			[ -n "$ram" ] && rm -f "$ram"
			ram=
		}
		[ -n "$ram" ] && vm_args="--guest-ram $ram"
	fi
	if [ $pci = 1 ] && [ -x "$fw" ]; then
		# Boards: the first, then for the scale part only a second of
		# the same kind with its own serial; with the guest's memory
		# shared, both write into it (DMA), and one more, not given it,
		# runs the copy path beside them.
		nb=1
		want scale && nb=2
		b=1
		while [ $b -le $((nb + 1)) ]; do
			suffix=
			[ $b -gt 1 ] && suffix=-$b
			serial=
			[ $b -gt 1 ] && serial=VCAP-000$b
			board_ram=
			if [ $b -le $nb ]; then
				board_ram=$ram
			elif [ -z "$ram" ]; then
				break
			fi
			if start_fw "$out/firmware$suffix.log" "$serial" "$board_ram"; then
				vm_args="$vm_args --ivshmem-doorbell $sock"
				fw_pids="$fw_pids $fw_pid"
				socks="$socks $sock"
			else
				log "$k: firmware $b did not come up (see $out/firmware$suffix.log)"
			fi
			b=$((b + 1))
		done
	elif [ $pci = 1 ]; then
		log "$k: no vcap-fw: the PCI board is not measured"
	fi

	# A private copy: the build tree's module may be rebuilt meanwhile.
	kmod=${kmod_dir:-$build/kernel}/$k/vcap.ko
	if [ -f "$kmod" ]; then
		cp "$kmod" "$out/vcap.ko"
		kmod=$out/vcap.ko
		modinfo -F srcversion "$kmod" >"$out/vcap.srcversion" 2>/dev/null
	else
		log "$k: no vcap.ko"
		kmod=
	fi
	log "$k: running the guest (modes: $modes)"
	# shellcheck disable=SC2086
	# no_timer_check: on a loaded host the emulated timer can miss the
	# kernel's early IO-APIC check, which then panics at boot.
	# The guest script runs from a copy beside the results, in the shared
	# build directory.
	cp "$here/guest-bench.sh" "$res/guest-bench.sh"
	progress "$out/results.jsonl" &
	progress_pid=$!
	"$repo/tests/vm/vcap-vm" --kernel "$k" --timeout 1500 --share "$build" \
		--mem "$guest_mem" --append no_timer_check --log "$out/dmesg.txt" $vm_args -- \
		sh "$res/guest-bench.sh" --out "$out" --vbench "$vbench" \
		${kmod:+--vcap-ko "$kmod"} ${loop_ko:+--loopback-ko "$loop_ko"} \
		--vcap-stream "$vstream" --mem-bench "$build/tests/mem/mem-bench" \
		--seconds "$secs" \
		--modes "$modes" ${only:+--only "$only"} \
		>"$out/guest.log" 2>&1
	rc=$?
	kill "$progress_pid" 2>/dev/null
	wait "$progress_pid" 2>/dev/null
	b=1
	for sock in $socks; do
		suffix=
		[ $b -gt 1 ] && suffix=-$b
		"$fw" ctl "$sock.ctl" stats >"$out/firmware-stats$suffix.txt" 2>&1
		b=$((b + 1))
	done
	for p in $fw_pids; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	for sock in $socks; do
		rm -f "$sock" "$sock.pid" "$sock.ctl"
	done
	[ -n "$ram" ] && rm -f "$ram"
	grep 'guest-bench:' "$out/guest.log" >&2
	if [ $rc -ne 0 ]; then
		log "$k: guest run failed (status $rc); see $out/guest.log"
		tail -n 30 "$out/guest.log" >&2
		status=1
	fi
	{
		printf '{"kernel":"%s","bench":"machine",' "$k"
		printf '"host_cpu":"%s",' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
		printf '"host_cpus":%s,' "$(nproc)"
		printf '"qemu":"%s",' "$(qemu-system-x86_64 --version | head -n 1)"
		printf '"revision":"%s",' "${VCAP_REVISION:-$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
		printf '"guest_cpus":2,"guest_mem":"%s","accel":"tcg","date":"%s"}\n' "$guest_mem" "$(date -u +%Y-%m-%dT%H:%MZ)"
	} >>"$out/results.jsonl"
done

log "writing the report"
cmdline="bench/run-bench.sh --build $(basename "$build")"
[ $quick = 1 ] && cmdline="$cmdline --quick"
[ $pci = 0 ] && cmdline="$cmdline --no-pci"
[ $pci = 1 ] && [ $dma = 0 ] && cmdline="$cmdline --no-dma"
[ "$secs" != 2 ] && cmdline="$cmdline --seconds $secs"
cmdline="$cmdline --publish"
sh "$here/report.sh" "$res" "$kernels" "$here" "$cmdline" "$secs" || status=1
if [ $publish = 1 ]; then
	mkdir -p "$repo/docs/bench"
	cp "$res"/*.png "$repo/docs/bench/" &&
		cp "$res/benchmarks.md" "$repo/docs/benchmarks.md" &&
		log "published docs/benchmarks.md and docs/bench/*.png"
fi
log "figures: $res/bench.json; report: $res/benchmarks.md"
exit $status
