# Sourced by the guest tests that use vivid (POSIX sh).
#   vivid_one INPUT_TYPE
# loads vivid with one capture input of INPUT_TYPE (0x0 a webcam, 0x3
# HDMI) and sets dev to its capture node; on failure calls the caller's
# die.
vivid_one() {
	modprobe vivid n_devs=1 node_types=0x1 num_inputs=1 input_types="$1" ||
		die "cannot load vivid"
	dev=
	for d in /sys/class/video4linux/video*; do
		[ "$(cat "$d/name")" = "vivid-000-vid-cap" ] && dev=/dev/${d##*/}
	done
	[ -n "$dev" ] || die "vivid's capture node not found"
}

# And its HDMI input, driven through its controls:
#   menu_index CONTROL PATTERN
# prints the index of the first item of CONTROL's menu matching the
# extended regex PATTERN, from $vivid_controls: a file holding the output
# of "v4l2-ctl -d VIVID -L".
menu_index() {
	awk -v ctl="$1" -v pat="$2" '
		$1 == ctl { inside = 1; next }
		inside && /^[ \t]*[0-9]+: / {
			i = $1; sub(":", "", i); $1 = ""; sub(/^ /, "")
			if ($0 ~ pat) { print i; exit }
			next
		}
		inside { inside = 0 }' "$vivid_controls"
}
