#!/bin/sh
# The benchmark run inside the guest: every driver, every size, one JSON
# line per measurement appended to OUT/results.jsonl.
#
# usage: guest-bench.sh --out DIR --vbench PATH [--vcap-ko PATH]
#                       [--loopback-ko PATH] [--vcap-stream PATH]
#                       [--mem-bench PATH]
#                       [--seconds S] [--sizes "WxH ..."] [--formats "YUYV NV12"]
#                       [--modes "FOURCC:WxH ..."]  (default: sizes x formats)
#                       [--only "memcpy touch vivid vcap loopback vram
#                               crosscheck scale"]
#                       [--scale-boards "1 4 8 16"]
set -u

out=
vbench=
vcap_ko=
loop_ko=
vstream=
membench=
secs=3
sizes="640x480 1280x720 1920x1080 3840x2160"
formats="YUYV NV12"
modes=
only="memcpy touch vivid vcap loopback vram crosscheck scale"
scale_boards="1 4 8 16"
kver=$(uname -r)

while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--vbench) vbench=$2; shift 2 ;;
	--vcap-ko) vcap_ko=$2; shift 2 ;;
	--loopback-ko) loop_ko=$2; shift 2 ;;
	--vcap-stream) vstream=$2; shift 2 ;;
	--mem-bench) membench=$2; shift 2 ;;
	--seconds) secs=$2; shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--formats) formats=$2; shift 2 ;;
	--modes) modes=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--scale-boards) scale_boards=$2; shift 2 ;;
	*) echo "guest-bench: unknown option $1" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] && [ -x "$vbench" ] || {
	echo "guest-bench: needs --out DIR and --vbench PATH" >&2
	exit 2
}
if [ -z "$modes" ]; then
	for f in $formats; do
		for s in $sizes; do
			modes="$modes $f:$s"
		done
	done
fi
mkdir -p "$out/lat"
results=$out/results.jsonl
failures=0

log() { printf 'guest-bench: %s\n' "$*" >&2; }
want() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }

# emit TAGS JSON: prefix the object with the run's tags, append to results.
emit() {
	[ -n "$2" ] || return 0
	printf '%s\n' "$2" | sed "s|^{|{\"kernel\":\"$kver\",$1,|" >>"$results"
}

# jget KEY JSON: a number or string field of a flat JSON line.
jget() {
	printf '%s\n' "$2" | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"
}

# fcalc EXPR: floating point arithmetic.
fcalc() { awk "BEGIN { printf \"%.3f\", $1 }"; }

# bytes FOURCC WxH: the frame size in bytes.
bytes() {
	w=${2%x*}
	h=${2#*x}
	case $1 in
	NV12) echo $((w * h * 3 / 2)) ;;
	*) echo $((w * h * 2)) ;;
	esac
}

# node_of DRIVER [BUSPREFIX]: the first /dev/videoN whose driver matches.
node_of() {
	for d in /dev/video*; do
		[ -c "$d" ] || continue
		info=$(v4l2-ctl -d "$d" -D 2>/dev/null) || continue
		printf '%s\n' "$info" | grep -q "Driver name *: $1\$" || continue
		if [ -n "${2:-}" ]; then
			printf '%s\n' "$info" | grep -q "Bus info *: $2" || continue
		fi
		echo "$d"
		return 0
	done
	return 1
}

# transfer_of /dev/vcapN: "-dma" or "-copy", the board's sysfs transfer
# (how frames reach its V4L2 buffers); nothing if the driver does not say.
transfer_of() {
	[ -n "$1" ] || return 0
	t=$(cat "/sys/class/vcap/${1#/dev/}/transfer" 2>/dev/null) || return 0
	case $t in
	dma|copy) printf -- '-%s' "$t" ;;
	esac
}

# supports DEV FOURCC WxH: the device lists that format at that size.
supports() {
	v4l2-ctl -d "$1" --list-framesizes "$2" 2>/dev/null | grep -q "Size: .* $3\$" && return 0
	v4l2-ctl -d "$1" --list-formats 2>/dev/null | grep -q "'$2'" || return 1
	v4l2-ctl -d "$1" --list-framesizes "$2" 2>/dev/null | grep -q Stepwise
}

# sustained NAME TAGS TOP SETUP -- CAPTURE_ARGS...
# Runs the capture at rate TOP, then lower until a run has no drops; each
# run is emitted (try=N), the zero-drop one with sustained=1.  SETUP is a
# shell function run before each try with the rate as its argument (it may
# start a producer); it sets $extra to more capture options and may set
# $slack to the milliseconds of frames to queue (30; 0: the reader's
# default count, 4, which the driver raises to its minimum), and returns 2
# when the driver cannot run at that rate (the search ends there).  $fixup, if
# set, names a function that rewrites a run's JSON line (its drops).  The
# latencies of the last run are kept in OUT/lat/NAME.txt.
sustained() {
	name=$1 tags=$2 rate=$3 setup=$4
	shift 5
	tags="$tags,\"lat_file\":\"lat/$name.txt\""
	try=1
	retried=0
	failed_once=0
	while [ $try -le 5 ]; do
		extra=
		slack=30
		$setup "$rate"
		case $? in
		0) ;;
		2)
			log "$name: the driver cannot go below rate $rate: search ends"
			teardown_producer
			return 0 ;;
		*)
			log "$name: setup failed"
			teardown_producer
			failures=$((failures + 1))
			return 1 ;;
		esac
		lat=$out/lat/$name.txt
		# shellcheck disable=SC2086
		line=$("$vbench" capture "$@" $extra -B "$slack" -t "$secs" -L "$lat")
		rc=$?
		teardown_producer
		[ -n "$line" ] && [ -n "$fixup" ] && line=$($fixup "$line")
		if [ -z "$line" ]; then
			if [ $try -lt 5 ] && [ "${failed_once:-0}" = 0 ]; then
				failed_once=1
				try=$((try + 1))
				log "$name: capture failed (status $rc), once more"
				continue
			fi
			log "$name: capture failed (status $rc)"
			failures=$((failures + 1))
			return 1
		fi
		drops=$(jget drops "$line")
		fps=$(jget fps "$line")
		stalled=$(jget stalled "$line")
		if [ "$drops" = 0 ] && [ "$stalled" = 0 ]; then
			emit "$tags,\"try\":$try,\"sustained\":1" "$line"
			log "$name: $fps fps sustained (try $try)"
			return 0
		fi
		emit "$tags,\"try\":$try,\"sustained\":0" "$line"
		frames=$(jget frames "$line")
		try=$((try + 1))
		# One stall of the shared host loses a frame: rare drops are
		# retried once at the same rate before the rate is lowered.
		if [ $retried = 0 ] && [ "$stalled" = 0 ] &&
		   awk -v d="$drops" -v n="$frames" 'BEGIN { exit !(d <= 0.02 * (n + d)) }'; then
			retried=1
			log "$name: $fps fps with $drops drops at rate $rate, once more"
			continue
		fi
		retried=0
		log "$name: $fps fps with $drops drops at rate $rate, lowering"
		# Next: below both what was delivered and what was asked for;
		# a step of 7% when the drops were rare, 15% otherwise.
		set_fps=$(jget set_fps "$line")
		[ "$(jget req_fps "$line")" = -1 ] && set_fps=0
		rate=$(awk -v f="$fps" -v s="$set_fps" -v r="$rate" -v d="$drops" -v n="$frames" 'BEGIN {
			m = f
			if (s > 0 && s < m) m = s
			if (r > 0 && r < m) m = r
			k = (d <= 0.02 * (n + d)) ? 0.93 : 0.85
			printf "%.3f", m * k }')
	done
	log "$name: no zero-drop rate found"
	return 0
}

fixup=
producer_pid=
teardown_producer() {
	if [ -n "$producer_pid" ]; then
		kill -TERM "$producer_pid" 2>/dev/null
		wait "$producer_pid" 2>/dev/null
		producer_pid=
	fi
}

noop_setup() { extra="-r $1"; }
# A software board running free waits for the reader's buffers: it needs
# no slack against a clock, and has as many as v4l2-ctl gives it.
free_setup() { extra="-r $1"; slack=0; }

# --- memcpy bandwidth -------------------------------------------------
if want memcpy; then
	log "memcpy bandwidth"
	list=
	for m in $modes; do
		list="$list $(bytes "${m%%:*}" "${m#*:}")"
	done
	"$vbench" memcpy -t 1 $list | while read -r line; do
		emit "\"bench\":\"memcpy\"" "$line"
	done
fi

# --- vivid: HDMI input, CVT timings so that the rate is not capped ------
vivid_size=
vivid_fmt=
vivid_setup() {
	# CVT reduced blanking at the asked rate, within vivid's pixel clock
	# range; the first run falls back to the fastest rate that fits.
	r=$(awk "BEGIN { r = int($1 + 0.5); if (r < 1) r = 1; print r }")
	w=${vivid_size%x*} h=${vivid_size#*x}
	rates=$r
	[ "$try" = 1 ] && rates="$r 120 60 30"
	for q in $rates; do
		v4l2-ctl -d "$vivid_dev" --set-dv-bt-timings \
			"cvt,width=$w,height=$h,fps=$q,reduced-blanking=1" >/dev/null 2>&1 &&
			return 0
	done
	return 2
}
if want vivid; then
	log "vivid"
	if modprobe vivid n_devs=1 node_types=0x1 num_inputs=1 input_types=0x3 &&
	   vivid_dev=$(node_of vivid); then
		for m in $modes; do
			f=${m%%:*} s=${m#*:}
			vivid_size=$s vivid_fmt=$f
			sustained "vivid-$f-$s" "\"bench\":\"capture\",\"target\":\"vivid\",\"size\":\"$s\"" \
				240 vivid_setup -- -d "$vivid_dev" -f "$f" -s "$s" -i 0
		done
		want touch && emit "\"bench\":\"touch\",\"target\":\"vivid\"" \
			"$("$vbench" touch -d "$vivid_dev" -f YUYV -s 3840x2160)"
		want crosscheck && [ -x "$vstream" ] && {
			vivid_size=1280x720
			vivid_setup 60
			emit "\"bench\":\"crosscheck\",\"target\":\"vivid\"" \
				"$("$vstream" bench -d "$vivid_dev" --fmt YUYV --size 1280x720 -t "$secs" --json | tr -d ' ' | sed 's/"latency_ns":{[^}]*},//')"
		}
		rmmod vivid
	else
		log "vivid: not available"
		failures=$((failures + 1))
	fi
fi

# --- touch on anonymous memory, the reference --------------------------
if want touch; then
	emit "\"bench\":\"touch\",\"target\":\"anonymous\"" "$("$vbench" touch)"
	emit "\"bench\":\"touch\",\"target\":\"anonymous\"" "$("$vbench" touch -p)"
fi

# --- v4l2loopback, fed through its output node ---------------------------
loop_dev=
loop_fresh=
loop_fmt=
loop_size=
loop_setup() {
	rmmod v4l2loopback 2>/dev/null
	insmod "$loop_ko" devices=1 exclusive_caps=1 max_buffers=4 >&2 || return 1
	loop_dev=$(ls -d /sys/devices/virtual/video4linux/video* 2>/dev/null | head -n 1)
	loop_dev=/dev/${loop_dev##*/}
	[ -c "$loop_dev" ] || return 1
	ready=$out/feed.ready
	rm -f "$ready"
	fl=
	[ "$loop_fresh" = 1 ] && fl=-c
	"$vbench" feed -d "$loop_dev" -f "$loop_fmt" -s "$loop_size" -b 4 \
		-r "$1" $fl -t "$(fcalc "$secs + 30")" -R "$ready" -T "$out/feed.ts" \
		>"$out/feed.json" &
	producer_pid=$!
	n=0
	while [ ! -f "$ready" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	[ -f "$ready" ] || return 1
	extra="-d $loop_dev -k -M"
}
# v4l2loopback gives MMAP capture buffers no sequence number: the frames
# lost are those the producer queued within the reader's window (matched
# by timestamp, which the producer sets) that the reader did not get.
loop_fixup() {
	a=$(jget ts_first_us "$1")
	b=$(jget ts_last_us "$1")
	n=$(jget frames "$1")
	p=$(awk -v a="$a" -v b="$b" '$1 > a && $1 <= b { n++ } END { print n + 0 }' "$out/feed.ts")
	d=$((p - n))
	[ $d -lt 0 ] && d=0
	printf '%s\n' "$1" | sed "s/\"drops\":[0-9]*/\"drops\":$d,\"produced\":$p/"
}
if want loopback; then
	if [ -n "$loop_ko" ] && [ -f "$loop_ko" ]; then
		log "v4l2loopback"
		modprobe videodev
		fixup=loop_fixup
		for fresh in 1 0; do
			for m in $modes; do
				f=${m%%:*} s=${m#*:}
				loop_fresh=$fresh loop_fmt=$f loop_size=$s
				mode=bookkeeping
				[ "$fresh" = 1 ] && mode=fresh
				# 0: the producer as fast as it goes.
				sustained "v4l2loopback-$mode-$f-$s" "\"bench\":\"capture\",\"target\":\"v4l2loopback-$mode\",\"size\":\"$s\"" \
					0 loop_setup -- -f "$f" -s "$s"
				[ -s "$out/feed.json" ] && emit \
					"\"bench\":\"feed\",\"target\":\"v4l2loopback-$mode\",\"size\":\"$s\",\"fourcc\":\"$f\"" \
					"$(cat "$out/feed.json")"
			done
		done
		fixup=
		rmmod v4l2loopback 2>/dev/null
	else
		log "v4l2loopback: no module for $kver"
	fi
fi

# --- vcap: the software board and, when attached, the PCI board -----------
if want vcap || want vram; then
	if [ -n "$vcap_ko" ] && [ -f "$vcap_ko" ]; then
		for m in $(modinfo -F depends "$vcap_ko" | tr ',' ' '); do
			modprobe "$m"
		done
		if insmod "$vcap_ko" soft_boards=1 soft_vram_mb=64; then
			sleep 1
			done_boards=
			for d in /dev/video*; do
				v4l2-ctl -d "$d" -D 2>/dev/null | grep -q "Driver name *: vcap\$" || continue
				bus=$(v4l2-ctl -d "$d" -D | sed -n 's/.*Bus info *: //p')
				# The VRAM node of the same board: same parent device.
				vdir=$(readlink -f "/sys/class/video4linux/${d#/dev/}/device")
				vram=
				for c in /sys/class/vcap/vcap*; do
					[ -e "$c" ] || continue
					[ "$(readlink -f "$c/device")" = "$vdir" ] && vram=/dev/${c##*/}
				done
				# A PCI board is labelled by how its frames reach the
				# buffers: pci-dma (the board writes them) or pci-copy
				# (the driver copies them), so that both are measured
				# side by side; plain pci from a driver that does not say.
				case $bus in
				PCI:*) board=pci$(transfer_of "$vram") ;;
				*) board=soft ;;
				esac
				# One board of each label: a second DMA board is there
				# for the scale part only.
				case " $done_boards " in
				*" $board "*) continue ;;
				esac
				done_boards="$done_boards $board"
				log "vcap $board board: $d, VRAM node ${vram:-none}"
				for m in $modes; do
					f=${m%%:*} s=${m#*:}
					supports "$d" "$f" "$s" || {
						log "vcap $board: no $f $s"
						continue
					}
					want vcap && sustained "vcap-$board-$f-$s" \
						"\"bench\":\"capture\",\"target\":\"vcap-$board\",\"size\":\"$s\"" \
						0 noop_setup -- -d "$d" -f "$f" -s "$s"
					# The software board running free: the path's
					# own limit, past the mode table's top rate.
					if want vcap && [ -w "$vdir/free_run" ]; then
						echo 1 >"$vdir/free_run"
						sustained "vcap-$board-free-$f-$s" \
							"\"bench\":\"capture\",\"target\":\"vcap-$board-free\",\"size\":\"$s\"" \
							0 free_setup -- -d "$d" -f "$f" -s "$s"
						echo 0 >"$vdir/free_run"
					fi
					if want vram && [ -n "$vram" ]; then
						for rd in 0 1; do
							o=
							[ "$rd" = 1 ] && o=-r
							line=$("$vbench" vram -a -d "$vram" -V "$d" -f "$f" -s "$s" -t "$secs" $o) ||
								failures=$((failures + 1))
							emit "\"bench\":\"vram\",\"target\":\"vcap-$board\",\"size\":\"$s\"" "$line"
						done
					fi
				done
				if want touch; then
					pf=/sys/module/vcap/parameters/prefault_pages
					old=$(cat "$pf" 2>/dev/null)
					for n in 1 ${old:-16}; do
						[ -w "$pf" ] && echo "$n" >"$pf"
						for p in "" -p; do
							line=$("$vbench" touch -d "$d" -f YUYV -s 3840x2160 $p)
							emit "\"bench\":\"touch\",\"target\":\"vcap-$board\",\"prefault_pages\":$n" "$line"
						done
					done
					[ -w "$pf" ] && [ -n "$old" ] && echo "$old" >"$pf"
				fi
				if want crosscheck && [ -x "$vstream" ]; then
					emit "\"bench\":\"crosscheck\",\"target\":\"vcap-$board\"" \
						"$("$vstream" bench -d "$d" --fmt YUYV --size 1280x720 -t "$secs" --json | tr -d ' ' | sed 's/"latency_ns":{[^}]*},//')"
				fi
			done
			# The allocator's own first-touch benchmark, as a cross-check.
			if want touch && [ -x "$membench" ]; then
				"$membench" >"$out/mem-bench.txt" 2>&1 ||
					log "mem-bench failed (see mem-bench.txt)"
			fi
			rmmod vcap || failures=$((failures + 1))
		else
			log "vcap: insmod failed"
			failures=$((failures + 1))
		fi
	else
		log "vcap: no module for $kver"
		emit "\"bench\":\"note\",\"target\":\"vcap\"" '{"note":"vcap.ko not built for this kernel"}'
	fi
fi

# --- scale: many boards streaming at once ----------------------------------
# vcap.ko is loaded with N software boards, and every board's V4L2 node
# streams 1920x1080 YUYV at once, one vbench capture per node, first at
# 60 fps (every board offers it), then at the top rate the board offers.
# Per (N, rate) one line: the streams' frames and drops summed, the guest's
# busy time, and the kernel memory the streams took.
#
# Each board gets soft_vram_mb=16: 16 MiB less the 16 KiB control area
# holds four 1920x1080 YUYV slots (4 149 248 bytes each, page aligned; the
# board publishes a mode only with at least VCAP_MIN_SLOTS = 3 slots).
#
# The window: every capture is given the same absolute CLOCK_MONOTONIC
# window (vbench capture -S): it sets its device up at once, starts
# streaming scale_warm seconds before the window opens, and counts only
# the frames dequeued inside it.  The window opens scale_lead seconds
# after the captures are launched: time for N set-ups on a guest where
# nothing streams yet, then the warm-up.  The aggregate rate is the frames
# of all streams in the window over its length.  A capture whose first
# frame came after the window opened (or never, or that stalled) is
# counted as late: the line says how many, and the run counts as a failure,
# since its figures then cover fewer streams than N for part of the window.
#
# CPU: every capture reports the whole guest's busy time over the same
# window (CPU time up less /proc/stat's idle and iowait); their mean is the
# guest's busy time while all N streams run.  CPU per frame is that
# divided by the aggregate rate.
#
# Memory: /proc/meminfo with the module loaded and its boards idle, and
# its peak while the streams run.  The kernel memory a stream
# costs is the rise of VmallocUsed (vcap's frame buffers are vmalloc
# memory) plus Slab (videobuf2's and the driver's objects), over N.
# MemAvailable's fall is recorded too but not used: it also counts the N
# reader processes' own memory and page tables, and the page cache moves.
scale_warm() { fcalc "2 + 0.25 * $1"; }
scale_lead() { fcalc "2 + 0.5 * $1 + $(scale_warm "$1")"; }

# meminfo3: VmallocUsed, Slab and MemAvailable in kB, in one read.
meminfo3() {
	awk '$1 == "VmallocUsed:" { v = $2 } $1 == "Slab:" { s = $2 }
		$1 == "MemAvailable:" { a = $2 } END { print v, s, a }' /proc/meminfo
}

# vcap_nodes soft|pci: the vcap V4L2 nodes of that kind of board, in
# order, from sysfs (the driver bound to the node's parent: vcap-soft for
# the software boards, vcap for PCI), without opening any device.
vcap_nodes() {
	want_drv=vcap-soft
	[ "$1" = pci ] && want_drv=vcap
	for v in /sys/class/video4linux/video*; do
		[ -e "$v" ] || continue
		drv=$(readlink "$v/device/driver" 2>/dev/null) || continue
		[ "${drv##*/}" = "$want_drv" ] && echo "/dev/${v##*/}"
	done | sort -V
}

# node_transfer /dev/videoN: dma or copy, the sysfs transfer of the vcap
# board with the node's parent device; nothing if the driver does not say.
node_transfer() {
	p=$(readlink -f "/sys/class/video4linux/${1#/dev/}/device")
	for c in /sys/class/vcap/vcap*; do
		[ -e "$c" ] && [ "$(readlink -f "$c/device")" = "$p" ] || continue
		cat "$c/transfer" 2>/dev/null
		return 0
	done
}

# pci_nodes_of TRANSFER: the PCI boards' nodes with that transfer, in
# order (all of them for an empty TRANSFER).
pci_nodes_of() {
	for v in $(vcap_nodes pci); do
		[ -z "$1" ] || [ "$(node_transfer "$v")" = "$1" ] && echo "$v"
	done
}

# wait_nodes KIND N: until N nodes of that kind exist (10 s at most).
wait_nodes() {
	i=0
	while [ "$(vcap_nodes "$1" | wc -l)" -lt "$2" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(vcap_nodes "$1" | wc -l)" -ge "$2" ]
}

# scale_run BOARD RATE NODE...: all NODEs stream at once; one line emitted.
scale_run() {
	sb=$1 sr=$2
	shift 2
	sn=$#
	sdir=$out/scale
	mkdir -p "$sdir"
	warm=$(scale_warm "$sn")
	rate=$sr
	[ "$sr" = 0 ] && rate=top
	read -r v0 s0 a0 <<EOF
$(meminfo3)
EOF
	start=$(fcalc "$("$vbench" now) + $(scale_lead "$sn")")
	spids=
	i=0
	for d in "$@"; do
		"$vbench" capture -d "$d" -f YUYV -s 1920x1080 -r "$sr" \
			-S "$start" -t "$secs" -w "$warm" \
			>"$sdir/$sb-$sn-$sr-$i.json" 2>"$sdir/$sb-$sn-$sr-$i.err" &
		spids="$spids $!"
		i=$((i + 1))
	done
	# Memory sampled every 0.5 s until the streams end: the peak of
	# VmallocUsed and Slab, the low of MemAvailable.
	v1=$v0 s1=$s0 a1=$a0
	while :; do
		alive=0
		for p in $spids; do
			kill -0 "$p" 2>/dev/null && alive=$((alive + 1))
		done
		[ $alive -gt 0 ] || break
		read -r v s a <<EOF
$(meminfo3)
EOF
		[ "$v" -gt "$v1" ] && v1=$v
		[ "$s" -gt "$s1" ] && s1=$s
		[ "$a" -lt "$a1" ] && a1=$a
		sleep 0.5
	done
	for p in $spids; do wait "$p"; done
	ok=0 frames=0 fmin='' drops=0 stalled=0 late=0 busy=0 set='' wlen=$secs
	first_max='' i=0
	while [ $i -lt "$sn" ]; do
		line=$(cat "$sdir/$sb-$sn-$sr-$i.json" 2>/dev/null)
		i=$((i + 1))
		if [ -z "$line" ]; then
			late=$((late + 1))
			continue
		fi
		ok=$((ok + 1))
		frames=$((frames + $(jget frames "$line")))
		wlen=$(jget seconds "$line")
		f=$(jget fps "$line")
		if [ -z "$fmin" ] || awk -v a="$f" -v b="$fmin" 'BEGIN { exit !(a < b) }'; then
			fmin=$f
		fi
		drops=$((drops + $(jget drops "$line")))
		stalled=$((stalled + $(jget stalled "$line")))
		late=$((late + $(jget late "$line")))
		busy=$(fcalc "$busy + $(jget cpu_busy "$line")")
		set=$(jget set_fps "$line")
		ff=$(jget first_frame_s "$line")
		if [ -z "$first_max" ] || awk -v a="$ff" -v b="$first_max" 'BEGIN { exit !(a > b) }'; then
			first_max=$ff
		fi
	done
	if [ $ok -lt "$sn" ]; then
		log "scale $sb N=$sn rate $rate: $((sn - ok)) of $sn captures gave no figures (see $sdir/$sb-$sn-$sr-*.err)"
	fi
	[ $ok -gt 0 ] || { failures=$((failures + 1)); return 1; }
	if [ $late -gt 0 ]; then
		log "scale $sb N=$sn rate $rate: $late of $sn streams not streaming when the window opened (latest first frame ${first_max} s after it; see $sdir/$sb-$sn-$sr-*)"
		failures=$((failures + 1))
	fi
	ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
	busy=$(fcalc "$busy / $ok")
	line=$(awk -v n="$sn" -v ok="$ok" -v frames="$frames" -v w="$wlen" \
		-v fmin="$fmin" -v drops="$drops" -v stalled="$stalled" \
		-v late="$late" -v ff="$first_max" -v busy="$busy" \
		-v ncpu="$ncpu" -v set="$set" \
		-v dv="$((v1 - v0))" -v ds="$((s1 - s0))" -v da="$((a0 - a1))" 'BEGIN {
		fps = frames / w
		printf "{\"n\":%d,\"streams\":%d,\"late\":%d,\"in_window\":%d,", n, ok, late, n - late
		printf "\"first_frame_max_s\":%.3f,\"set_fps\":%s,", ff, set
		printf "\"window_s\":%.3f,\"frames\":%d,", w, frames
		printf "\"fps\":%.3f,\"fps_per_board\":%.3f,\"fps_min\":%.3f,", fps, fps / n, fmin
		printf "\"drops\":%d,\"stalled\":%d,", drops, stalled
		printf "\"cpu_busy\":%.3f,\"cpus\":%d,\"cpu_busy_pct\":%.1f,", busy, ncpu, 100 * busy / ncpu
		printf "\"cpu_ms_per_frame\":%.3f,", (fps > 0 ? 1000 * busy / fps : 0)
		printf "\"vmalloc_kb\":%d,\"slab_kb\":%d,\"avail_drop_kb\":%d,", dv, ds, da
		printf "\"kmem_mib_per_stream\":%.3f,\"avail_mib_per_stream\":%.3f}\n", (dv + ds) / 1024 / n, da / 1024 / n
	}')
	emit "\"bench\":\"scale\",\"target\":\"vcap-$sb\",\"board\":\"$sb\",\"rate\":\"$rate\"${scale_transfer:+,\"transfer\":\"$scale_transfer\"}" "$line"
	log "scale $sb N=$sn rate $rate: $(jget fps "$line") fps in all, $drops drops, $((sn - late)) of $sn streaming in the window, CPU $(jget cpu_busy_pct "$line")%, $(jget kmem_mib_per_stream "$line") MiB per stream"
}

# pci_boards_hold 1|0: keep the PCI boards (QEMU's ivshmem, 1af4:1110) from
# vcap's PCI driver, or give them back.  A board's index comes from a pool
# of VCAP_MAX_BOARDS (16) shared by both kinds: with the PCI boards bound,
# soft_boards=16 would get only 16 less their number.
pci_boards_hold() {
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor" 2>/dev/null):$(cat "$d/device" 2>/dev/null)" = 0x1af4:0x1110 ] || continue
		if [ "$1" = 1 ]; then
			echo none >"$d/driver_override"
		else
			echo >"$d/driver_override"
		fi
	done
}

if want scale; then
	if [ -n "$vcap_ko" ] && [ -f "$vcap_ko" ]; then
		log "scale"
		for m in $(modinfo -F depends "$vcap_ko" | tr ',' ' '); do
			modprobe "$m"
		done
		pci_boards_hold 1
		for n in $scale_boards; do
			if ! insmod "$vcap_ko" soft_boards="$n" soft_vram_mb=16; then
				log "scale: insmod with $n boards failed"
				failures=$((failures + 1))
				continue
			fi
			if wait_nodes soft "$n"; then
				sleep 1
				nodes=$(vcap_nodes soft | head -n "$n")
				for r in 60 0; do
					# shellcheck disable=SC2086
					scale_run soft "$r" $nodes
				done
			else
				log "scale: $n software boards did not all appear ($(vcap_nodes soft | wc -l)); the kernel said:"
				dmesg | grep vcap | tail -n 5 >&2
				failures=$((failures + 1))
			fi
			rmmod vcap || failures=$((failures + 1))
		done
		pci_boards_hold 0
		# The PCI boards the host attached (their firmware runs on the
		# host: the pixels are produced outside the guest's CPU figures).
		# Boards of one transfer only: the DMA boards where there are
		# any (the copy board beside them is for the capture rows).
		if insmod "$vcap_ko" soft_boards=0; then
			sleep 1
			scale_transfer=
			vcap_nodes pci | grep -q . && {
				scale_transfer=dma
				[ -n "$(pci_nodes_of dma)" ] ||
					scale_transfer=$(node_transfer "$(vcap_nodes pci | head -n 1)")
			}
			np=$(pci_nodes_of "$scale_transfer" | wc -l)
			if [ "$np" -gt 0 ]; then
				for n in 1 2; do
					[ "$n" -le "$np" ] || continue
					nodes=$(pci_nodes_of "$scale_transfer" | head -n "$n")
					for r in 60 0; do
						# shellcheck disable=SC2086
						scale_run pci "$r" $nodes
					done
				done
			fi
			[ "$np" -lt 2 ] && log "scale: $np PCI board(s)${scale_transfer:+ with $scale_transfer transfer}, not two"
			scale_transfer=
			rmmod vcap || failures=$((failures + 1))
		fi
	else
		log "scale: no vcap.ko for $kver"
	fi
fi

log "done, $failures failure(s)"
[ $failures -eq 0 ]
