#!/bin/sh
# Installs what is missing, builds everything and runs the test suite
# (every label but bench and soak) on every installed kernel.
set -eu
cd "$(dirname "$0")/.."
build=${VCAP_BUILD_DIR:-build}

sh scripts/install-deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)"
exec ctest --test-dir "$build" --label-exclude 'bench|soak' \
	-j "$(nproc)" --output-on-failure --no-tests=error "$@"
