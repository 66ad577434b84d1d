#!/usr/bin/env bash
# The main job: builds the benchmark and solves batches of small systems with
# the cooperative LU-pp solver on the CPU (every core), against a LAPACKE loop
# in the same run; prints throughput, the ratio and the largest backward error.
# Extra arguments go to the benchmark (see bench/coop_lupp_cpu.cpp).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target tdls-coop-bench -j "$(nproc)"
cd build/release
exec ./bench/tdls-coop-bench "$@"
