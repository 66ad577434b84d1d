#!/usr/bin/env bash
# The main job, on the best backend this machine has: builds libtdls (the full
# instance profile) and tdls-bench, then solves batches of small systems
# through the C ABI on the CPU backend and, in the same run, with the peers a
# user would otherwise pick (a LAPACKE/OpenBLAS ?gesv loop, Eigen fixed-size
# PartialPivLU, cuBLAS batched where a GPU is present). Prints systems/s,
# GFLOP/s, the ratio to each peer and the fraction of this machine's roofline;
# checks every answer; writes tdls-bench.csv and tdls-bench.svg into
# build/demo/bench-results/. The default sweep takes under a minute.
#
# Where an NVIDIA GPU is found (nvidia-smi), the CUDA plugin is built for its
# architecture and tdls_device_suite --bench then times tdls on the GPU
# against cuBLAS (device memory, answers checked). Where an AMD GPU is found
# (rocminfo), the HIP plugin is built for it. Where there is none, nothing
# GPU-related is built.
#
#   scripts/demo.sh                   # the default sweep
#   scripts/demo.sh --sizes 4,16 --types d --mib 64   # arguments go to tdls-bench (bench/README.md)
#   scripts/demo.sh --full            # the sweep behind bench/results/
#   scripts/demo.sh --with-mkl        # first pip-installs oneMKL, which tdls-bench then times as a peer
#   scripts/demo.sh --dry-run         # what would be built and run here, nothing done
set -euo pipefail
cd "$(dirname "$0")/.."
dry_run=0
with_mkl=0
bench_args=()
for argument in "$@"; do
  case "$argument" in
    --dry-run) dry_run=1 ;;
    --with-mkl) with_mkl=1 ;;
    *) bench_args+=("$argument") ;;
  esac
done
# oneMKL from PyPI: tdls-bench finds libmkl_rt.so.3 in the Python prefix's lib/.
mkl_install=(python3 -m pip install --quiet mkl)

# ---- which GPU is here ------------------------------------------------------
# CUDA images put nvcc in /usr/local/cuda/bin, not always on PATH.
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then export PATH=/usr/local/cuda/bin:$PATH; fi
cuda_arch=""
hip_arch=""
if command -v nvidia-smi >/dev/null 2>&1; then
  # "9.0" -> 90: CMake's CUDA_ARCHITECTURES spelling. No answer: no usable GPU.
  capability=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' ' || true)
  if [[ "$capability" =~ ^[0-9]+\.[0-9]+$ ]]; then cuda_arch=${capability/./}; fi
fi
if [[ -z "$cuda_arch" ]] && command -v rocminfo >/dev/null 2>&1; then
  hip_arch=$(rocminfo 2>/dev/null | grep -o -m 1 'gfx[0-9a-f]\+' || true)
fi

configure=(cmake --preset release -B build/demo -DTDLS_BUILD_TESTS=OFF -DTDLS_BUILD_EXAMPLES=OFF
           -DTDLS_BUILD_FORTRAN=OFF -DTDLS_GPU_COMPILE_CHECKS=OFF)
targets=(tdls-bench)
gpu_bench=()
if [[ -n "$cuda_arch" ]]; then
  backend="CUDA GPU sm_$cuda_arch"
  configure+=(-DTDLS_BUILD_GPU_PLUGINS=ON -DTDLS_BUILD_DEVICE_SUITE=ON "-DTDLS_CUDA_ARCHITECTURES=$cuda_arch")
  targets+=(tdls_cuda tdls_device_suite)
  gpu_bench=(./build/demo/tests/device/tdls_device_suite --bench --out build/demo/bench-results/gpu.md)
elif [[ -n "$hip_arch" ]]; then
  backend="AMD GPU $hip_arch"
  configure+=(-DTDLS_BUILD_GPU_PLUGINS=ON -DTDLS_BUILD_DEVICE_SUITE=OFF "-DTDLS_HIP_ARCHITECTURES=$hip_arch")
  targets+=(tdls_hip)
else
  backend="CPU only (no GPU found)"
  configure+=(-DTDLS_BUILD_GPU_PLUGINS=OFF -DTDLS_BUILD_DEVICE_SUITE=OFF)
fi
build=(cmake --build build/demo -j "$(nproc)" --target "${targets[@]}")
cpu_bench=(./build/demo/bench/tdls-bench --out build/demo/bench-results "${bench_args[@]}")

echo "demo: $backend"
if ((dry_run)); then
  echo "demo: would run: scripts/install-deps.sh"
  if ((with_mkl)); then echo "demo: would run: ${mkl_install[*]}"; fi
  echo "demo: would run: ${configure[*]}"
  echo "demo: would run: ${build[*]}"
  echo "demo: would run: ${cpu_bench[*]}"
  if ((${#gpu_bench[@]})); then echo "demo: would run: ${gpu_bench[*]}"; fi
  exit 0
fi
scripts/install-deps.sh
if ((with_mkl)); then "${mkl_install[@]}"; fi
"${configure[@]}" >/dev/null
"${build[@]}"
if ((${#gpu_bench[@]} == 0)); then exec "${cpu_bench[@]}"; fi
"${cpu_bench[@]}"
mkdir -p build/demo/bench-results
exec "${gpu_bench[@]}"
