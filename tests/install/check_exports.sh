#!/usr/bin/env bash
# libtdls.so exports the C ABI and nothing else, under its versioned SONAME.
# Usage: check_exports.sh <path to libtdls.so> <ABI major>
set -euo pipefail
library=$1
major=$2
fail() { echo "check_exports: $*" >&2; exit 1; }

soname=$(objdump -p "$library" | awk '$1 == "SONAME" {print $2}')
[[ $soname == "libtdls.so.$major" ]] || fail "SONAME is '$soname', expected libtdls.so.$major"

# Defined dynamic symbols, minus the version node of the version script.
mapfile -t symbols < <(nm -D --defined-only "$library" | awk '{print $3}' | sed 's/@.*//' | grep -v '^TDLS_0$')
(( ${#symbols[@]} > 0 )) || fail "no exported symbol at all"
stray=()
for symbol in "${symbols[@]}"; do
  [[ $symbol == tdls_* ]] || stray+=("$symbol")
done
(( ${#stray[@]} == 0 )) || fail "exports outside tdls_*: ${stray[*]}"

# Every function of the header is exported (the list is tdls.h's, not the library's).
header=$(dirname "$0")/../../include/tdls/tdls.h
mapfile -t declared < <(grep -oE 'TDLS_API [^(]*\(' "$header" | grep -oE 'tdls_[a-z_]+\($' | tr -d '(')
# 21: version, availability, 3 status and error texts, 6 handle calls, 3 gesv, 3 solve, getrf, getrs and
# their pointer-array forms.
(( ${#declared[@]} == 21 )) || fail "found ${#declared[@]} declarations (expected 21) in tdls.h"
# A lookup table, not `printf | grep -q`: under pipefail, grep -q leaving at
# its first match kills printf with SIGPIPE and the pipeline then fails at
# random (CI stop 29 failed this way on an exported symbol).
declare -A exported=()
for symbol in "${symbols[@]}"; do exported[$symbol]=1; done
for function in "${declared[@]}"; do
  [[ -n ${exported[$function]:-} ]] || fail "$function is declared but not exported"
done
echo "check_exports: ${#symbols[@]} symbols, all tdls_*; ${#declared[@]} declared functions exported; SONAME $soname"
