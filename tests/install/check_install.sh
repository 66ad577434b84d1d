#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then builds and runs
# consumers against it: with find_package(tdls) a C program (tdls::tdls), a
# MAGMA program (tdls::magma and tdls::magma64) and, when the package has
# Fortran, a Fortran program (tdls::fortran); with pkg-config the C program
# (tdls) and the MAGMA program (tdls_magma, tdls_magma64).
# Usage: check_install.sh <build dir> <scratch dir> <fortran: ON or OFF>
set -euo pipefail
build=$1
scratch=$2
fortran=${3:-OFF}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix

cmake --install "$build" --prefix "$prefix" >"$scratch/install.log"

cmake -S "$here/consumer" -B "$scratch/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DTDLS_CONSUMER_FORTRAN="$fortran" >"$scratch/configure.log"
cmake --build "$scratch/cmake-build" >"$scratch/build.log"
consumers=(consumer consumer_magma consumer_magma64)
[[ $fortran == ON ]] && consumers+=(consumer_fortran)
for program in "${consumers[@]}"; do
  LD_LIBRARY_PATH="$prefix/lib" "$scratch/cmake-build/$program"
done

libdir=$(dirname "$(find "$prefix" -name 'libtdls.so' | head -1)")
export PKG_CONFIG_PATH=$libdir/pkgconfig
# shellcheck disable=SC2046
gcc -std=c99 "$here/consumer/consumer.c" -o "$scratch/consumer-pc" $(pkg-config --cflags --libs tdls) -lm
LD_LIBRARY_PATH="$libdir" "$scratch/consumer-pc"
for variant in tdls_magma tdls_magma64; do
  # shellcheck disable=SC2046
  gcc -std=c99 "$here/consumer/consumer_magma.c" -o "$scratch/$variant-pc" $(pkg-config --cflags --libs $variant)
  LD_LIBRARY_PATH="$libdir" "$scratch/$variant-pc"
done
echo "check_install: ${consumers[*]} (find_package) and the pkg-config consumers built and ran against $prefix"
