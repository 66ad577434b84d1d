#!/usr/bin/env bash
# Builds and passes every test from a fresh clone: installs what is missing,
# builds the release tree (tests, GPU compile checks for nvcc sm_90 and hipcc
# gfx90a where installed, benchmarks) and runs ctest, then builds and runs the
# ThreadSanitizer build of the threaded tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
start=$(date +%s)
cmake --preset release
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"
cmake --preset tsan
cmake --build --preset tsan -j "$jobs"
ctest --preset tsan
echo "test.sh: all tests passed in $(( $(date +%s) - start )) s"
