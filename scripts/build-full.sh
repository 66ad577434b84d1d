#!/usr/bin/env bash
# Builds what users get: the `full` instance profile (kernels/instances.cmake)
# with the release preset, GPU plugins included for the default architecture
# lists, each plugin timed on its own first, with ptxas reporting any spill or
# local memory of the CUDA plugin's kernels (any such report fails the script,
# after the tests: register kernels must keep their rows in registers); then
# prints where the compile time went (scripts/build-times) and runs the test
# suite against the full instance set. Long on 2 cores (docs/ci.md has the
# measured times): run it in the background before resolving an issue that
# changes kernel code.
#   scripts/build-full.sh                 build, check, test
#   scripts/build-full.sh --no-tests      build and check only
#   TDLS_BUILD_FULL_DIR=dir               build directory (default build/full), emptied
#                                         first: the times and ptxas's reports are a whole build's
set -euo pipefail
cd "$(dirname "$0")/.."
run_tests=1
if [[ "${1:-}" == --no-tests ]]; then run_tests=0; fi
dir=${TDLS_BUILD_FULL_DIR:-build/full}
jobs=$(nproc)
scripts/install-deps.sh
start=$(date +%s)
log=$dir/build-full.log
rm -rf "$dir"
mkdir -p "$dir"
cmake --preset release -B "$dir" "-DCMAKE_CUDA_FLAGS=-Xptxas=-warn-spills,-warn-lmem-usage"
for plugin in tdls_cuda tdls_hip; do
  # grep reads the whole list: with -q it would exit early and break the pipe.
  if cmake --build "$dir" --target help | grep -w "$plugin" >/dev/null; then
    t0=$(date +%s)
    cmake --build "$dir" -j "$jobs" --target "$plugin" 2>&1 | tee -a "$log"
    echo "build-full: $plugin built in $(( $(date +%s) - t0 )) s"
  fi
done
cmake --build "$dir" -j "$jobs" 2>&1 | tee -a "$log"
echo "build-full: everything built in $(( $(date +%s) - start )) s"
scripts/build-times "$dir" 12 | sed 's/^/build-full: /'
# ptxas says "Registers are spilled to local memory" / "Local memory used";
# the tests still run, and the script fails at the end.
spills=0
if grep -Ei 'ptxas.*(spill|local memory)' "$log"; then
  spills=1
  echo "build-full: kernels spill or use local memory (above)" >&2
else
  echo "build-full: no ptxas report of spills or local memory"
fi

if ((run_tests)); then
  t0=$(date +%s)
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure
  echo "build-full: tests passed in $(( $(date +%s) - t0 )) s"
fi
echo "build-full: done in $(( $(date +%s) - start )) s"
if ((spills)); then
  echo "build-full: FAILED: register spills or local memory in the CUDA plugin (above)" >&2
  exit 1
fi
