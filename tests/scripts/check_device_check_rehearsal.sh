#!/usr/bin/env bash
# scripts/device-check --rehearse on this machine (no GPU), with a stand-in
# nvidia-smi playing an H200: the whole script within its budget, its
# configure step for real, build and GPU steps as stand-ins. Three runs:
#   pass     every step reported PASS, exit 0, the results file complete,
#            at most 7 files under $OUT, the total within 540 s;
#   budget   a 24 s budget and 6 s stand-ins: the steps that no longer fit
#            are NOT RUN, the verdict INCOMPLETE, exit 3 (negative control of
#            the budget);
#   failing  a memcheck finding: that step FAIL, racecheck still run, exit 1
#            (negative control of the parsing).
#   check_device_check_rehearsal.sh <source dir> <scratch dir>
set -euo pipefail
source_dir=$1
scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch/bin"
printf '#!/bin/sh\necho "NVIDIA H200, 9.0, 580.65.06"\n' >"$scratch/bin/nvidia-smi"
chmod +x "$scratch/bin/nvidia-smi"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
steps=(preflight configure build suite bench memcheck racecheck)

# rehearse <name> <expected exit> [VAR=value...]: sets out and results.
rehearse() {
  local name=$1 expected=$2 rc began
  shift 2
  out=$scratch/$name
  mkdir -p "$out"
  began=$(date +%s)
  set +e
  env "$@" PATH="$scratch/bin:$PATH" OUT="$out" DEVICE_CHECK_BUILD_DIR="$scratch/build" \
    bash "$source_dir/scripts/device-check" --rehearse >"$scratch/$name.log" 2>&1
  rc=$?
  set -e
  elapsed=$(( $(date +%s) - began ))
  results=$out/device-check.md
  echo "--- $name: exit $rc in $elapsed s"
  tail -n 12 "$scratch/$name.log"
  [[ $rc -eq $expected ]] || fail "$name: exit $rc, expected $expected"
  [[ -s "$results" ]] || { fail "$name: no results file $results"; return; }
  local files
  files=$(find "$out" -type f | wc -l)
  (( files <= 7 )) || fail "$name: $files files under OUT, at most 7 come back from the device machine"
  for step in "${steps[@]}"; do
    grep -Eq "^- \*\*$step\*\*: (PASS|FAIL|NOT RUN|NO GPU), [0-9]+ s\." "$results" || fail "$name: step $step not reported"
  done
  grep -q 'NVIDIA H200, 9.0' "$results" || fail "$name: the stand-in GPU is not in the results"
  grep -q 'CUDA_ARCHITECTURES=90' "$results" || fail "$name: the architecture was not taken from nvidia-smi"
}

rehearse pass 0
grep -q '^\*\*Device check: PASS\*\* in' "$results" || fail "pass: no PASS verdict"
(( elapsed <= 540 )) || fail "pass: $elapsed s, over the 540 s budget"
(( $(grep -c ': PASS, ' "$results") == ${#steps[@]} )) || fail "pass: not every step passed"

rehearse budget 3 DEVICE_CHECK_BUDGET_S=24 DEVICE_CHECK_STUB_SECONDS=6
grep -q '^\*\*Device check: INCOMPLETE\*\*' "$results" || fail "budget: no INCOMPLETE verdict"
grep -Eq '^- \*\*racecheck\*\*: NOT RUN, 0 s\. time budget spent' "$results" || fail "budget: racecheck was not cut"
(( elapsed <= 24 + 15 )) || fail "budget: $elapsed s for a 24 s budget"

rehearse failing 1 DEVICE_CHECK_STUB_FAIL=memcheck
grep -q '^\*\*Device check: FAIL\*\*' "$results" || fail "failing: no FAIL verdict"
grep -Eq '^- \*\*memcheck\*\*: FAIL, .*ERROR SUMMARY: 1 error' "$results" || fail "failing: memcheck's finding not reported"
grep -Eq '^- \*\*racecheck\*\*: PASS' "$results" || fail "failing: racecheck did not run after the failure"

echo "device-check rehearsal: $failures failure(s)"
[[ $failures -eq 0 ]]
