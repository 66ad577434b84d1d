#!/usr/bin/env bash
# Builds and passes every test from a fresh clone: installs what is missing,
# then four builds, each with its ctest run:
#   release  the library, the GPU plugins and compile checks (nvcc sm_90,
#            hipcc gfx90a, where installed; each plugin's build is timed on
#            its own first), every test and the benchmarks;
#   tsan     ThreadSanitizer: the library and the threaded tests;
#   asan     AddressSanitizer + UndefinedBehaviorSanitizer: the whole suite;
#   fuzz     clang, ASan + UBSan: the libFuzzer harnesses, a bounded run each
#            (TDLS_FUZZ_SECONDS, default 60) from the committed corpus.
# Any sanitizer report, fuzzer finding or failed check fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
start=$(date +%s)
stage() {
  local preset=$1 began
  began=$(date +%s)
  cmake --preset "$preset"
  local plugin t0
  for plugin in tdls_cuda tdls_hip; do
    # grep reads the whole list: with -q it would exit early and break the pipe.
    if cmake --build --preset "$preset" --target help | grep -w "$plugin" >/dev/null; then
      t0=$(date +%s)
      cmake --build --preset "$preset" -j "$jobs" --target "$plugin"
      echo "test.sh: $plugin built in $(( $(date +%s) - t0 )) s"
    fi
  done
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
  echo "test.sh: $preset passed in $(( $(date +%s) - began )) s"
}
stage release
stage tsan
stage asan
stage fuzz
echo "test.sh: all tests passed in $(( $(date +%s) - start )) s"
