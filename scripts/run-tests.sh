#!/bin/sh
# Installs what is missing, builds the debug kernel and everything else,
# and runs the test suite (every label but bench, soak and baseline) over
# the kernel matrix of docs/testing.md.  Tests that find open defects
# (tests/known-failing) are named and left out.  Extra arguments go to
# ctest.
set -eu
cd "$(dirname "$0")/.."
build=${VCAP_BUILD_DIR:-build}
now() { date +%s; }

t0=$(now)
mkdir -p "$build"
rm -f "$build/chroot.rc"

# On a new machine the trixie chroot and the debug kernel built in it take
# longest, and need nothing of this system but debootstrap: they start
# first, beside the installation of this system's packages.  A debug
# kernel not yet built is built at the lowest priority, on the CPU time
# the build and the other kernels' tests leave idle; its own tests (label
# debugkernel) then run last.
sh scripts/install-deps.sh debootstrap
(
	rc=0
	sh scripts/install-deps.sh chroot || rc=$?
	echo "$rc" >"$build/chroot.rc"
	[ "$rc" -eq 0 ] || exit "$rc"
	sh scripts/build-debug-kernel.sh --cached && exit 0
	echo "run-tests: building the debug kernel (log in $build/debug-kernel.log)"
	exec nice -n 19 sh scripts/build-debug-kernel.sh
) >"$build/debug-kernel.log" 2>&1 &
kpid=$!
sh scripts/install-deps.sh host
t1=$(now)
echo "run-tests: this system's packages in $((t1 - t0)) s"
while [ ! -f "$build/chroot.rc" ]; do
	sleep 2
done
if [ "$(cat "$build/chroot.rc")" -ne 0 ]; then
	cat "$build/debug-kernel.log"
	echo "run-tests: the trixie chroot could not be made" >&2
	exit 1
fi
t1c=$(now)
echo "run-tests: the trixie chroot $((t1c - t1)) s after them"
if sh scripts/build-debug-kernel.sh --cached 2>/dev/null; then
	wait "$kpid" || true
	kpid=
fi

configure() {
	cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DVCAP_BUILD_KERNEL=ON -DVCAP_BUILD_VIEWER=ON >/dev/null
	cmake --build "$build" -j "$(nproc)"
}
configure
t2=$(now)
echo "run-tests: build in $((t2 - t1c)) s"

known=$(grep -v '^#' tests/known-failing | cut -f1 | paste -sd'|' -)
echo "run-tests: left out, open defects (tests/known-failing):"
grep -v '^#' tests/known-failing | sed 's/^/  /'
run_ctest() {
	ctest --test-dir "$build" ${known:+--exclude-regex "$known"} \
		-j "$(nproc)" --output-on-failure --no-tests=error "$@"
}

if [ -z "$kpid" ]; then
	run_ctest --label-exclude 'bench|soak|baseline' "$@"
	exit
fi

rc=0
run_ctest --label-exclude 'bench|soak|baseline|debugkernel' "$@" || rc=$?
t3=$(now)
echo "run-tests: the other kernels' tests in $((t3 - t2)) s"
if ! wait "$kpid"; then
	tail -n 40 "$build/debug-kernel.log"
	echo "run-tests: the debug kernel did not build" >&2
	exit 1
fi
t4=$(now)
tail -n 1 "$build/debug-kernel.log"
echo "run-tests: waited $((t4 - t3)) s more for the debug kernel"
configure
run_ctest -L debugkernel --label-exclude 'bench|soak|baseline' "$@" || rc=$?
echo "run-tests: the debug kernel's tests in $(($(now) - t4)) s"
exit "$rc"
