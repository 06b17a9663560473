# Sourced by the guest tests that drive vivid's HDMI input through its
# controls (POSIX sh).
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
