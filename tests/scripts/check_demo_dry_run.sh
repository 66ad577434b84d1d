#!/usr/bin/env bash
# scripts/demo.sh --dry-run picks the backend from the GPU tools it finds:
# stand-in nvidia-smi and rocminfo on PATH play an NVIDIA GPU (compute
# capability 9.0), an AMD GPU (gfx90a), and a machine whose tools answer
# "no GPU". Each case must name its backend and its plugin target, and the
# CPU-only case no GPU target at all (negative control of the matching).
#   check_demo_dry_run.sh <source dir> <scratch dir>
set -euo pipefail
source_dir=$1
scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch"
failures=0
# run_case <name> <nvidia-smi body> <rocminfo body> <pattern that must not match> <patterns that must>...
# (DEMO_EXTRA: more demo.sh options, e.g. --with-mkl, which must not reach tdls-bench)
run_case() {
  local name=$1 nvidia=$2 rocm=$3 must_not=$4 bin=$scratch/$1 out pattern
  shift 4
  mkdir -p "$bin"
  printf '#!/bin/sh\n%s\n' "$nvidia" >"$bin/nvidia-smi"
  printf '#!/bin/sh\n%s\n' "$rocm" >"$bin/rocminfo"
  chmod +x "$bin/nvidia-smi" "$bin/rocminfo"
  # shellcheck disable=SC2086 # DEMO_EXTRA is a list of words
  out=$(PATH="$bin:$PATH" bash "$source_dir/scripts/demo.sh" --dry-run ${DEMO_EXTRA:-} --sizes 4)
  printf '%s\n' "--- $name" "$out"
  for pattern in "$@" "tdls-bench --out build/demo/bench-results --sizes 4$"; do
    if ! grep -Eq -- "$pattern" <<<"$out"; then echo "FAIL $name: no line matches '$pattern'"; failures=$((failures + 1)); fi
  done
  if grep -Eq -- "$must_not" <<<"$out"; then echo "FAIL $name: a line matches '$must_not'"; failures=$((failures + 1)); fi
}
no_gpu='echo "No devices were found" >&2; exit 9'
run_case nvidia 'echo "9.0"' 'exit 1' 'tdls_hip|GPU_PLUGINS=OFF' \
  '^demo: CUDA GPU sm_90$' 'TDLS_BUILD_GPU_PLUGINS=ON .*TDLS_CUDA_ARCHITECTURES=90$' \
  '--target tdls-bench tdls_cuda tdls_device_suite$' 'tdls_device_suite --bench'
run_case amd "$no_gpu" 'echo "  Name:                    gfx90a"' 'tdls_cuda|GPU_PLUGINS=OFF' \
  '^demo: AMD GPU gfx90a$' 'TDLS_BUILD_GPU_PLUGINS=ON .*TDLS_HIP_ARCHITECTURES=gfx90a$' \
  '--target tdls-bench tdls_hip$'
run_case none "$no_gpu" 'echo "ROCk module is NOT loaded, possibly no GPU devices"' \
  'tdls_cuda|tdls_hip|--bench|GPU_PLUGINS=ON|pip install' \
  '^demo: CPU only \(no GPU found\)$' 'TDLS_BUILD_GPU_PLUGINS=OFF' '--target tdls-bench$'
# --with-mkl installs oneMKL first and is demo.sh's own option, not tdls-bench's.
DEMO_EXTRA=--with-mkl run_case mkl "$no_gpu" 'exit 1' 'with-mkl' \
  '^demo: would run: python3 -m pip install --quiet mkl$' '^demo: CPU only \(no GPU found\)$'
if ((failures)); then
  echo "check_demo_dry_run: $failures failures"
  exit 1
fi
echo "check_demo_dry_run: 4 cases passed"
