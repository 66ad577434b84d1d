#!/usr/bin/env bash
# Installs the Debian packages libtdls builds, tests and benchmarks with, those
# missing only (a no-op once they are there). See ../shared/notes/toolchain.md.
#   Catch2 2.13          tests
#   LAPACKE, OpenBLAS    test oracle and benchmark peer
#   Eigen 3.4            benchmark peer (fixed-size PartialPivLU)
#   oneTBB               CPU backend (runtime library)
#   hipcc, HIP runtime   HIP compile check and plugin
#   gfortran             Fortran module and example
#   ninja-build          the presets' generator (its log is what scripts/build-times reads)
#   pkg-config, binutils install and export checks (pkg-config tdls, nm, objdump)
#   clang, libclang-rt-14-dev  the libFuzzer harnesses (fuzz/), with ASan + UBSan
set -euo pipefail
packages=(cmake g++ make ninja-build catch2 liblapacke-dev libopenblas-dev libeigen3-dev libtbb-dev
          hipcc libamdhip64-dev rocm-device-libs gfortran pkg-config binutils clang libclang-rt-14-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
