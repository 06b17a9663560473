# Sourced by the viewer test scripts: checks what vcap-view --stats said.
#
# vv_check_stats FILE MAX PATH: FILE holds vcap-view's output; at least one
# frame was shown, at most MAX copies were made of any frame shown, and
# the path line holds PATH, and the latency line is there.  Calls fail
# (the caller's) on a mismatch.
#
# vv_check_latency FILE: the latency line has figures, at least one
# sample and a median under a second.

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
	grep '^vcap-view: stats: latency, buffer timestamp to shown: ' "$1" \
		>/dev/null || fail "--stats: no latency line"
	echo "ok: $shown frames shown, at most $most copies of each ($3)"
}

vv_check_latency() {
	lat=$(sed -n 's/^vcap-view: stats: latency, buffer timestamp to shown: //p' "$1")
	p50=$(echo "$lat" | sed -n 's/^p50 \([0-9]*\)\.[0-9]* .*(\([0-9]*\) frames)$/\1/p')
	[ -n "$p50" ] || fail "--stats: no latency figures: '$lat'"
	[ "$p50" -lt 1000 ] || fail "--stats: a median latency of $p50 ms"
	echo "ok: latency to shown $lat"
}
