#!/usr/bin/env bash
# The main job: builds libtdls and tdls-bench, then solves batches of small
# systems through the C ABI on the CPU backend and, in the same run, with the
# peers a user would otherwise pick (a LAPACKE/OpenBLAS ?gesv loop, Eigen
# fixed-size PartialPivLU, cuBLAS batched where a GPU is present). Prints
# systems/s, GFLOP/s, the ratio to each peer and the fraction of this
# machine's roofline; checks every answer; writes tdls-bench.csv and
# tdls-bench.svg into build/release/bench-results/. The default sweep takes
# under a minute; extra arguments go to tdls-bench (bench/README.md), e.g.
#   scripts/demo.sh --sizes 4,16 --types d --mib 64
#   scripts/demo.sh --full            # the sweep behind bench/results/
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target tdls-bench -j "$(nproc)"
exec ./build/release/bench/tdls-bench --out build/release/bench-results "$@"
