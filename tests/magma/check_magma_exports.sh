#!/usr/bin/env bash
# libtdls_magma(64).so exports exactly MAGMA's four entry points, under its
# SONAME: any other magma_* symbol would shadow libmagma's own.
# Usage: check_magma_exports.sh <library> <expected SONAME>
set -euo pipefail
library=$1
expected_soname=$2
fail() { echo "check_magma_exports: $*" >&2; exit 1; }

soname=$(objdump -p "$library" | awk '$1 == "SONAME" {print $2}')
[[ $soname == "$expected_soname" ]] || fail "SONAME is '$soname', expected $expected_soname"

mapfile -t symbols < <(nm -D --defined-only "$library" | awk '{print $3}' | sed 's/@.*//' |
                       grep -v '^TDLS_MAGMA_0$' | sort)
expected=(magma_cgesv_batched_small magma_dgesv_batched_small magma_sgesv_batched_small magma_zgesv_batched_small)
[[ "${symbols[*]}" == "${expected[*]}" ]] || fail "exports '${symbols[*]}', expected '${expected[*]}'"
echo "check_magma_exports: $library exports ${symbols[*]}; SONAME $soname"
