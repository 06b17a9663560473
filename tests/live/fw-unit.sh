#!/bin/sh
# vcap-fw@.service: systemd-analyze verify finds nothing wrong with the
# unit as installed, and its ExecStart, expanded as systemd expands it
# (%i, ${VAR} one word, $VAR split at spaces) with the example
# configuration and with one of a timing, a serial and a size, starts vcap-fw:
# it comes up, writes its pid file and answers on its control socket.
# Usage: fw-unit.sh UNIT CONF VCAP_FW
set -u
unit=$1 conf=$2 fw=$3
NAME=pkg-fw-unit
fail() { echo "$NAME: FAIL: $*" >&2; exit 1; }
say() { echo "$NAME: $*"; }

# On Debian systemd-analyze is systemd's: a missing one is a failure.
command -v systemd-analyze >/dev/null 2>&1 ||
	fail "systemd-analyze not found (install systemd: scripts/install-deps.sh)"
[ -f "$unit" ] || fail "$unit not found"
[ -x "$fw" ] || fail "$fw not found"
tmp=$(mktemp -d /tmp/vcap-fw-unit.XXXXXX) || exit 1
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# The installed path of vcap-fw may not exist on this machine: verify
# checks that ExecStart's program does, so point it at the build's.
installed=$(sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' "$unit")
[ -n "$installed" ] || fail "no ExecStart in $unit"
sed "s|^ExecStart=$installed |ExecStart=$fw |" "$unit" >"$tmp/vcap-fw@test.service"
# --man=no: the man page it names is the package's, not installed here.
systemd-analyze verify --man=no "$tmp/vcap-fw@test.service" >"$tmp/verify.out" 2>&1
st=$?
# Warnings about the unit (unknown keys, bad values) come with its name.
grep -F 'vcap-fw@test.service' "$tmp/verify.out" >&2
if [ $st -ne 0 ] || grep -qF 'vcap-fw@test.service' "$tmp/verify.out"; then
	cat "$tmp/verify.out" >&2
	fail "systemd-analyze verify: status $st"
fi
say "systemd-analyze verify: clean"

# start_unit CONF: ExecStart as systemd runs instance 'test' of it, the
# runtime folder /run/vcap/test moved into $tmp.
start_unit() {
	run=$tmp/run/test
	rm -rf "$tmp/run"
	mkdir -p "$run"
	cmd=$(sed -n 's/^ExecStart=//p' "$tmp/vcap-fw@test.service" |
		sed "s|/run/vcap/%i|$run|g; s|%i|test|g")
	# The unit's Environment=, then its EnvironmentFile, read as systemd
	# reads one: KEY=VALUE lines, the value the rest of the line.
	VCAP_SOURCE=pattern VCAP_OPTS=
	while IFS= read -r line; do
		case $line in
		'' | '#'* | ';'*) continue ;;
		VCAP_SOURCE=* | VCAP_OPTS=*) ;;
		*) fail "$1: unexpected line '$line'" ;;
		esac
		v=${line#*=}
		case $v in
		\"*\") v=${v#\"}; v=${v%\"} ;;
		esac
		eval "${line%%=*}=\$v"
	done <"$1"
	eval "set -- $cmd"
	say "ExecStart: $*"
	"$@" >"$tmp/fw.log" 2>&1 &
	pid=$!
	i=0
	until grep -q ready "$tmp/fw.log" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$pid" 2>/dev/null; then
			cat "$tmp/fw.log" >&2
			fail "vcap-fw did not come up with $1"
		fi
		sleep 0.1
	done
	[ "$(cat "$run/pid" 2>/dev/null)" = "$pid" ] ||
		fail "pid file $run/pid: '$(cat "$run/pid" 2>/dev/null)', want $pid"
	"$fw" ctl "$run/sock.ctl" stats >"$tmp/stats" 2>&1 ||
		{ cat "$tmp/stats" >&2; fail "no answer on $run/sock.ctl"; }
}
stop_unit() {
	kill "$pid"
	wait "$pid"
	st=$?
	pid=
	# SIGTERM is how systemd stops it: a clean exit.
	[ $st -eq 0 ] || { cat "$tmp/fw.log" >&2; fail "vcap-fw exited $st on SIGTERM"; }
}

start_unit "$conf"
say "the example configuration: $(grep -E '^(source|hdmi_source|vram_size)=' "$tmp/stats" | tr '\n' ' ')"
stop_unit

cat >"$tmp/test.conf" <<EOF
VCAP_SOURCE=720p60
VCAP_OPTS=--serial UNIT0001 --size 16M
EOF
start_unit "$tmp/test.conf"
say "a timing, a serial and a size: $(grep -E '^(source|hdmi_source|vram_size)=' "$tmp/stats" | tr '\n' ' ')"
grep -qx 'vram_size=16777216' "$tmp/stats" ||
	{ cat "$tmp/stats" >&2; fail "the size from VCAP_OPTS is not the board's"; }
grep -qx 'hdmi_source=720p60' "$tmp/stats" ||
	{ cat "$tmp/stats" >&2; fail "the source from VCAP_SOURCE is not the board's"; }
stop_unit
say PASS
