# Sourced by the guest scripts: brings up a capture source for vcap-view.
#
# vv_source_up SOURCE [KO]: sets $node (what vcap-view opens), $level (the
# bars' level: 191 for 75% bars, 255 for 100%) and $tolerance; returns
# how many arguments it used.
#   vivid          modprobe vivid; its capture node (75% bars)
#   vcap-soft KO   insmod KO soft_boards=1; its V4L2 node (100% bars)
#   vcap-vram KO   the same board, streamed by v4l2-ctl; its VRAM node
# vv_source_down: ends what vv_source_up started.

vv_find_node() {
	for d in /sys/class/video4linux/video*; do
		[ -f "$d/name" ] || continue
		case $(cat "$d/name") in
		$1) echo "/dev/${d##*/}"; return 0 ;;
		esac
	done
	return 1
}

vv_streamer=

vv_source_up() {
	case $1 in
	vivid)
		modprobe vivid n_devs=1 || fail "modprobe vivid"
		node=$(vv_find_node 'vivid-000-vid-cap') ||
			fail "no vivid capture node"
		level=191
		tolerance=12
		return 1
		;;
	vcap-soft|vcap-vram)
		[ $# -ge 2 ] || fail "$1 needs the path of vcap.ko"
		# insmod does not load what vcap.ko needs.
		modprobe -a videodev videobuf2-common videobuf2-v4l2 \
			videobuf2-memops v4l2-dv-timings || fail "modprobe videobuf2"
		insmod "$2" soft_boards=1 || fail "insmod $2 soft_boards=1"
		node=$(vv_find_node 'vcap*') || fail "no vcap V4L2 node"
		# Plain bars: the default moving box would cover some.
		v4l2-ctl -d "$node" -c test_pattern=0 ||
			fail "cannot select the bars pattern"
		level=255
		tolerance=6
		if [ "$1" = vcap-vram ]; then
			# The board fills VRAM while someone streams V4L2;
			# 10 fps leaves the emulated CPUs to the viewer.
			v4l2-ctl -d "$node" \
				--set-fmt-video=width=640,height=480,pixelformat=YUYV \
				--set-parm=10 --stream-mmap --stream-count=1000000 \
				>/dev/null 2>&1 &
			vv_streamer=$!
			node=$(ls /dev/vcap* 2>/dev/null | head -n 1)
			[ -c "$node" ] || fail "no /dev/vcapN node"
		fi
		return 2
		;;
	*)
		fail "unknown source '$1'" ;;
	esac
}

vv_source_down() {
	if [ -n "$vv_streamer" ]; then
		kill "$vv_streamer" 2>/dev/null
		wait "$vv_streamer" 2>/dev/null
		vv_streamer=
	fi
}
