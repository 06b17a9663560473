#!/bin/sh
# Installs what is missing, builds the debug kernel and everything else,
# and runs the test suite (every label but bench, soak and baseline) over
# the kernel matrix of docs/testing.md.  Tests that find open defects
# (tests/known-failing) are named and left out.
set -eu
cd "$(dirname "$0")/.."
build=${VCAP_BUILD_DIR:-build}

t0=$(date +%s)
sh scripts/install-deps.sh
t1=$(date +%s)
# The debug kernel (lockdep, KASAN, kmemleak...), built once and cached.
sh scripts/build-debug-kernel.sh
t2=$(date +%s)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DVCAP_BUILD_KERNEL=ON -DVCAP_BUILD_VIEWER=ON >/dev/null
cmake --build "$build" -j "$(nproc)"
t3=$(date +%s)
echo "run-tests: install $((t1 - t0)) s, debug kernel $((t2 - t1)) s, build $((t3 - t2)) s"

known=$(grep -v '^#' tests/known-failing | cut -f1 | paste -sd'|' -)
echo "run-tests: left out, open defects (tests/known-failing):"
grep -v '^#' tests/known-failing | sed 's/^/  /'
exec ctest --test-dir "$build" --label-exclude 'bench|soak|baseline' \
	${known:+--exclude-regex "$known"} \
	-j "$(nproc)" --output-on-failure --no-tests=error "$@"
