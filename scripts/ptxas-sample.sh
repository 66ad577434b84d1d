#!/bin/bash
# ptxas's report (registers, spills, stack frame) of a sample of the CUDA
# register kernels, each compiled alone for one architecture: minutes instead
# of scripts/build-full.sh's hour and a half. Needs a configured build
# directory (for its generated instance header).
#   scripts/ptxas-sample.sh [build-dir] [sm]     defaults: build/ci 90
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/ci}" && pwd)
sm=${2:-90}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for T in float double complex_float complex_double; do
  for N in 5 8 13 16 17 21 24 29 32; do
    for RM in false true; do
      src=$work/i.cu
      printf '#include <tdls/generated/instances.hpp>\n#include "kernels.cuh"\nusing namespace tdls::scalar_names;\nTDLS_GPU_INSTANTIATE(%s, %s, %s)\n' \
        "$T" "$N" "$RM" > "$src"
      out=$("$nvcc" -DTDLS_GPU_MAX_REGISTERS=255 -DTDLS_GPU_WARP_SIZE=32 -I"$root/src/backends/gpu" -I"$root/src" \
        -I"$root/kernels" -I"$root/kernels/gpu" -I"$build/kernels/generated/include" -I"$root/include" -O3 -DNDEBUG \
        "--generate-code=arch=compute_$sm,code=[sm_$sm]" --fmad=false -std=c++20 -Xptxas -v -x cu -c "$src" \
        -o "$work/i.o" 2>&1)
      line=$(echo "$out" | grep -A2 "Compiling entry" | grep -E "stack frame|Used" | tr '\n' ' ' | sed -E 's/ptxas info    : //g' || true)
      echo "$T $N row=$RM: ${line:-no kernel (no rows per thread fit the register budget)}"
    done
  done
done
