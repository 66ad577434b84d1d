#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then builds and runs a C
# consumer against it twice: with find_package(tdls) -> tdls::tdls, and with
# pkg-config tdls.
# Usage: check_install.sh <build dir> <scratch dir>
set -euo pipefail
build=$1
scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix

cmake --install "$build" --prefix "$prefix" >"$scratch/install.log"

cmake -S "$here/consumer" -B "$scratch/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" >"$scratch/configure.log"
cmake --build "$scratch/cmake-build" >"$scratch/build.log"
LD_LIBRARY_PATH="$prefix/lib" "$scratch/cmake-build/consumer"

libdir=$(dirname "$(find "$prefix" -name 'libtdls.so' | head -1)")
export PKG_CONFIG_PATH=$libdir/pkgconfig
# shellcheck disable=SC2046
gcc -std=c99 "$here/consumer/consumer.c" -o "$scratch/consumer-pc" $(pkg-config --cflags --libs tdls) -lm
LD_LIBRARY_PATH="$libdir" "$scratch/consumer-pc"
echo "check_install: find_package and pkg-config consumers built and ran against $prefix"
