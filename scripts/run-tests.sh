#!/bin/sh
# Installs what is missing, builds the debug kernel and everything else,
# and runs the test suite (every label but bench, soak and baseline) over
# the kernel matrix of docs/testing.md.  Tests that find open defects
# (tests/known-failing) are named and left out.
#
# A debug kernel not yet built is built at the lowest priority while the
# other kernels' tests run, on the CPU time they leave idle; its own tests
# (label debugkernel) then run last.  Extra arguments go to ctest.
set -eu
cd "$(dirname "$0")/.."
build=${VCAP_BUILD_DIR:-build}
now() { date +%s; }

t0=$(now)
sh scripts/install-deps.sh
t1=$(now)
echo "run-tests: dependencies in $((t1 - t0)) s"

kpid=
mkdir -p "$build"
if ! sh scripts/build-debug-kernel.sh --cached; then
	echo "run-tests: building the debug kernel beside the tests ($build/debug-kernel.log)"
	nice -n 19 sh scripts/build-debug-kernel.sh >"$build/debug-kernel.log" 2>&1 &
	kpid=$!
fi

configure() {
	cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DVCAP_BUILD_KERNEL=ON -DVCAP_BUILD_VIEWER=ON >/dev/null
	cmake --build "$build" -j "$(nproc)"
}
configure
t2=$(now)
echo "run-tests: build in $((t2 - t1)) s"

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
