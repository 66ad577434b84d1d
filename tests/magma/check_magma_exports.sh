#!/usr/bin/env bash
# libtdls_magma(64).so exports exactly MAGMA's 16 entry points (gesv_batched,
# gesv_batched_small, getrf_batched, getrs_batched in s, d, c, z), each under
# the version node of its width, under its SONAME: any other magma_* symbol
# would shadow libmagma's own, and a shared node would let a program of one
# width bind to the other's library.
# Usage: check_magma_exports.sh <library> <expected SONAME> <expected version node>
set -euo pipefail
library=$1
expected_soname=$2
node=$3
fail() { echo "check_magma_exports: $*" >&2; exit 1; }

soname=$(objdump -p "$library" | awk '$1 == "SONAME" {print $2}')
[[ $soname == "$expected_soname" ]] || fail "SONAME is '$soname', expected $expected_soname"

mapfile -t symbols < <(nm -D --defined-only "$library" | awk '{print $3}' | grep -v "^$node\$" | sort)
expected=()
for p in c d s z; do
  for routine in gesv_batched gesv_batched_small getrf_batched getrs_batched; do
    expected+=("magma_${p}${routine}@@$node")
  done
done
mapfile -t expected < <(printf '%s\n' "${expected[@]}" | sort)
[[ "${symbols[*]}" == "${expected[*]}" ]] || fail "exports '${symbols[*]}', expected '${expected[*]}'"
echo "check_magma_exports: $library exports ${#symbols[@]} symbols, all @@$node; SONAME $soname"
