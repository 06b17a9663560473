#!/bin/sh
# Bad input and bad guests for the VM runner: each case must end with a
# clear message and a non-zero status well inside its limit.
set -u
vm=$(dirname "$0")/vcap-vm
case=$1
kver=${2:-}
out=$(mktemp)
fake=$(mktemp -d)
trap 'rm -rf "$out" "$fake"' EXIT

# fake_qemu DEATHS: a QEMU whose guest dies while booting DEATHS times,
# then the real one.
fake_qemu() {
	cat >"$fake/qemu" <<EOF
#!/bin/sh
n=\$(cat "$fake/count" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$fake/count"
if [ "\$n" -lt $1 ]; then
	echo "Kernel panic - not syncing: selftest boot death" >&2
	exit 1
fi
exec qemu-system-x86_64 "\$@"
EOF
	chmod +x "$fake/qemu"
	echo "$fake/qemu"
}

# fake_qemu_hang: a QEMU whose first guest never starts (its CPUs held
# paused, the console silent), then the real one.
fake_qemu_hang() {
	cat >"$fake/qemu" <<EOF
#!/bin/sh
n=\$(cat "$fake/count" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$fake/count"
[ "\$n" -lt 1 ] && exec qemu-system-x86_64 -S "\$@"
exec qemu-system-x86_64 "\$@"
EOF
	chmod +x "$fake/qemu"
	echo "$fake/qemu"
}

expect() {	# expect STATUS MESSAGE-REGEX MAX-SECONDS -- runner args
	want=$1 msg=$2 max=$3
	shift 4
	start=$(date +%s)
	"$vm" "$@" >"$out" 2>&1
	got=$?
	took=$(($(date +%s) - start))
	if [ "$got" -ne "$want" ]; then
		echo "FAIL: exit status $got, want $want"; cat "$out"; exit 1
	fi
	if ! grep -Eq "$msg" "$out"; then
		echo "FAIL: no message matching '$msg'"; cat "$out"; exit 1
	fi
	if [ "$took" -gt "$max" ]; then
		echo "FAIL: took $took s, limit $max s"; exit 1
	fi
	echo "ok: $case: status $got in $took s: $(grep -E "$msg" "$out" | head -n 1)"
}

case $case in
no-kernel)
	expect 125 'no such kernel: 0\.0\.0-none \(installed: [0-9]' 5 -- \
		--kernel 0.0.0-none -- true ;;
no-qemu)
	VCAP_QEMU=/nonexistent/qemu-system-x86_64 expect 125 'QEMU not found' 5 -- \
		--kernel "$kver" -- true ;;
bad-option)
	expect 125 "unknown option '--frobnicate'" 5 -- --frobnicate ;;
no-command)
	expect 125 'no command given' 5 -- --kernel "$kver" ;;
status)
	expect 7 'from the guest' 60 -- --kernel "$kver" --timeout 60 -- \
		sh -c 'echo from the guest; exit 7' ;;
panic)
	expect 125 'the guest kernel panicked' 60 -- --kernel "$kver" --timeout 60 -- \
		sh -c 'echo c >/proc/sysrq-trigger; sleep 100' ;;
hang)
	expect 125 'timeout: the guest was still in its (boot|command) stage after 25 s' 40 -- \
		--kernel "$kver" --timeout 25 -- sleep 1000 ;;
warning)
	expect 125 'the guest kernel log has errors' 60 -- --kernel "$kver" --timeout 60 -- \
		sh -c 'echo "WARNING: CPU: 0 PID: 1 at selftest" >/dev/kmsg' ;;
debug-reports)
	# Each report of the debug kernel's checks fails a run; the DMA-API
	# debugging's own start-up lines do not.
	for line in "BUG: KASAN: slab-out-of-bounds in vcap_selftest+0x1/0x2" \
		"UBSAN: array-index-out-of-bounds in vcap-selftest.c:1:2" \
		"DMA-API: vcap 0000:00:04.0: device driver frees DMA memory with wrong function" \
		"ODEBUG: free active (active state 0) object: 0000 object type: timer_list" \
		"WARNING: possible circular locking dependency detected" \
		"BUG: sleeping function called from invalid context at selftest.c:1"; do
		expect 125 'the guest kernel log has errors' 60 -- --kernel "$kver" \
			--timeout 60 -- sh -c 'echo "$1" >/dev/kmsg' sh "$line" || exit 1
	done
	expect 0 'start-up lines pass' 60 -- --kernel "$kver" --timeout 60 -- sh -c \
		'echo "DMA-API: preallocated 65536 debug entries" >/dev/kmsg &&
		echo "start-up lines pass"' ;;
kmemleak)
	# A module that leaks one allocation when it loads.
	expect 125 'kmemleak reports leaks' 360 -- --kernel "$kver" --timeout 360 -- \
		insmod "$3" ;;
unload)
	# vcap held open by a process the command leaves behind.
	expect 125 'rmmod vcap failed after the command' 360 -- --kernel "$kver" \
		--timeout 360 -- sh -c 'modprobe -a videodev videobuf2-common \
			videobuf2-v4l2 videobuf2-memops v4l2-dv-timings &&
			insmod "$1" soft_boards=1 && sleep 1 &&
			{ sleep 100000 </dev/video0 & } && sleep 1' sh "$4" ;;
boot-retry)
	VCAP_QEMU=$(fake_qemu 1) expect 7 'died while booting.*booting again' 90 -- \
		--kernel "$kver" --timeout 90 -- sh -c 'exit 7'
	[ "$(cat "$fake/count")" -eq 2 ] ||
		{ echo "FAIL: QEMU started $(cat "$fake/count") times, want 2"; exit 1; } ;;
boot-hang-retry)
	VCAP_VM_BOOT_TIMEOUT=30 VCAP_QEMU=$(fake_qemu_hang) \
		expect 7 'did not boot within 30 s; booting again' 100 -- \
		--kernel "$kver" --timeout 90 -- sh -c 'exit 7'
	[ "$(cat "$fake/count")" -eq 2 ] ||
		{ echo "FAIL: QEMU started $(cat "$fake/count") times, want 2"; exit 1; } ;;
boot-dies-thrice)
	VCAP_QEMU=$(fake_qemu 3) expect 125 'the guest stopped before running the command' 30 -- \
		--kernel "$kver" --timeout 30 -- true
	[ "$(cat "$fake/count")" -eq 3 ] ||
		{ echo "FAIL: QEMU started $(cat "$fake/count") times, want 3"; exit 1; } ;;
*)
	echo "unknown case '$case'"; exit 2 ;;
esac
