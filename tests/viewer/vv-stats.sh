# Sourced by the viewer test scripts: checks what vcap-view --stats said.
#
# vv_check_stats FILE MAX PATH: FILE holds vcap-view's output; at least one
# frame was shown, at most MAX copies were made of any frame shown, and
# the path line holds PATH.  Calls fail (the caller's) on a mismatch.

vv_check_stats() {
	grep '^vcap-view: stats: ' "$1" >/dev/null ||
		fail "no --stats lines in the output"
	shown=$(sed -n 's/^vcap-view: stats: \([0-9]*\) frames shown.*/\1/p' "$1")
	most=$(sed -n 's/^vcap-view: stats: copies per frame shown: .*, at most \([0-9]*\)$/\1/p' "$1")
	[ -n "$shown" ] && [ "$shown" -gt 0 ] ||
		fail "--stats: no frame shown ('$shown')"
	[ -n "$most" ] || fail "--stats: no copy count"
	[ "$most" -le "$2" ] ||
		fail "--stats: $most copies of a frame, want at most $2"
	grep "^vcap-view: stats: path: .*$3" "$1" >/dev/null ||
		fail "--stats: the path is not '$3'"
	echo "ok: $shown frames shown, at most $most copies of each ($3)"
}
