#!/usr/bin/env bash
# Builds and passes every test from a fresh clone: installs what is missing,
# then four builds of the `ci` instance profile (kernels/instances.cmake),
# each with its ctest run, and the Python package:
#   ci       the release build: the library, both GPU plugins (nvcc sm_90,
#            hipcc gfx90a, where installed; each plugin's build timed on its
#            own first), the compile checks, every test and the benchmarks;
#   tsan     ThreadSanitizer: the library and the threaded tests;
#   asan     AddressSanitizer + UndefinedBehaviorSanitizer: the whole suite
#            (the static reference sweep narrowed to its extremes; the ci
#            stage sweeps every order);
#   fuzz     clang, ASan + UBSan: the libFuzzer harnesses, a bounded run each
#            (TDLS_FUZZ_SECONDS, default 30) from the committed corpus;
#   python   `pip install ./python` as a user does it (the `full` profile's
#            libtdls.so, no GPU plugin where no GPU is seen), then pytest
#            python/tests, which must run at least its floor of tests, none
#            skipped.
# Any sanitizer report, fuzzer finding or failed check fails the script.
# Each stage prints its build and test times and where its compile time went
# (scripts/build-times); docs/ci.md records them.
#   scripts/test.sh                 every stage
#   scripts/test.sh asan fuzz       the named stages only
# The `full` profile that users get is built by scripts/build-full.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
start=$(date +%s)
stages=("$@")
((${#stages[@]})) || stages=(ci tsan asan fuzz python)
for preset in "${stages[@]}"; do
  case "$preset" in
    ci | tsan | asan | fuzz | python) ;;
    *) echo "test.sh: unknown stage '$preset' (ci, tsan, asan, fuzz, python)" >&2; exit 2 ;;
  esac
done

stage() {
  local preset=$1 began built
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
  built=$(date +%s)
  scripts/build-times "build/$preset" 8 | sed "s/^/test.sh: $preset: /"
  ctest --preset "$preset" -j "$jobs"
  echo "test.sh: $preset passed in $(( $(date +%s) - began )) s" \
       "(build $(( built - began )) s, tests $(( $(date +%s) - built )) s)"
}
# The floor of python/tests: fewer passed tests means some were lost.
python_test_floor=175
python_stage() {
  local began built summary passed
  began=$(date +%s)
  python3 -m pip install -q --disable-pip-version-check numpy scipy pytest
  python3 -m pip install -q --disable-pip-version-check ./python
  built=$(date +%s)
  summary=$(mktemp)
  # From outside the tree: the installed package is what is tested.
  (cd /tmp && python3 -m pytest -q -p no:cacheprovider -rs "$OLDPWD/python/tests") | tee "$summary"
  passed=$(tail -n 1 "$summary" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0)
  if tail -n 1 "$summary" | grep -qE 'skipped|failed|error|deselected'; then
    echo "test.sh: python: tests skipped or failed: $(tail -n 1 "$summary")" >&2; exit 1
  fi
  if ((passed < python_test_floor)); then
    echo "test.sh: python: $passed tests passed, below the floor of $python_test_floor" >&2; exit 1
  fi
  rm -f "$summary"
  echo "test.sh: python passed in $(( $(date +%s) - began )) s" \
       "(install $(( built - began )) s, tests $(( $(date +%s) - built )) s)"
}
for preset in "${stages[@]}"; do
  if [[ $preset == python ]]; then python_stage; else stage "$preset"; fi
done
echo "test.sh: all tests passed in $(( $(date +%s) - start )) s (${stages[*]})"
