#!/usr/bin/env bash
# The main job: builds libtdls and tdls-demo, then solves batches of small
# systems through the C ABI (tdls_batched_gesv) on the CPU backend, against a
# LAPACKE loop in the same run; prints throughput, the ratio and the largest
# backward error. Extra arguments go to tdls-demo (see bench/capi_demo.cpp),
# e.g. scripts/demo.sh --sizes 4,16 --types d --mib 64.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target tdls-demo -j "$(nproc)"
cd build/release
exec ./bench/tdls-demo "$@"
