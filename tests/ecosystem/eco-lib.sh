# Shared by the guest-side ecosystem tests (sourced, POSIX sh): loads a
# capture driver and finds its V4L2 capture node.
#
#   eco_load vcap KMOD [PARAM=VALUE...]   vcap.ko with one software board
#   eco_load vivid                        vivid, a capture node on its webcam input
# Sets ECO_DEV to the node (/dev/videoN) of that driver.

eco_fail() {
	echo "$ECO_NAME: FAIL: $*" >&2
	exit 1
}

eco_log() {
	echo "$ECO_NAME: $*"
}

# The first V4L2 capture node whose QUERYCAP driver name is $1.
eco_find_node() {
	for d in /dev/video*; do
		[ -c "$d" ] || continue
		name=$(v4l2-ctl -d "$d" -D 2>/dev/null |
			sed -n 's/^[[:space:]]*Driver name[[:space:]]*: //p' |
			head -n 1)
		if [ "$name" = "$1" ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

eco_load() {
	drv=$1
	shift
	case $drv in
	vcap)
		ko=$1
		shift
		[ -f "$ko" ] || eco_fail "$ko not found"
		# A build tree that stopped building the module keeps its old
		# vcap.ko: name it, or its old defects look like new ones.
		newer=$(find "$(dirname "$0")/../../kernel" -name '*.[ch]' \
			-newer "$ko" 2>/dev/null | head -n 1)
		[ -z "$newer" ] ||
			eco_log "warning: $ko is older than $newer: a stale build?"
		deps=$(modinfo -F depends "$ko" | tr ',' ' ')
		[ -z "$deps" ] || modprobe -a $deps || eco_fail "modprobe $deps"
		[ $# -gt 0 ] || set -- soft_boards=1
		insmod "$ko" "$@" || eco_fail "insmod $ko $*"
		;;
	vivid)
		modprobe vivid n_devs=1 node_types=0x1 ||
			eco_fail "modprobe vivid"
		;;
	*)
		eco_fail "unknown driver '$drv'"
		;;
	esac
	ECO_DEV=$(eco_find_node "$drv") || eco_fail "no $drv capture node"
	eco_log "$drv capture node $ECO_DEV on $(uname -r)"
}
