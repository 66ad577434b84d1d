#!/usr/bin/env bash
# Negative control of the include-order builds (include_order.c): with
# __has_include's help switched off (TDLS_MAGMA_OWN_TYPES), tdls/magma.h
# before MAGMA's magma_v2.h is invalid C, so those builds can fail and their
# passing means something.
# Usage: check_magma_header.sh <C compiler> <source dir of tests/magma> <include dir>
set -euo pipefail
cc=$1 here=$2 include=$3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if "$cc" -std=c99 -pedantic -Werror -fsyntax-only -DTDLS_ORDER_OURS_FIRST -DTDLS_MAGMA_OWN_TYPES \
     -I"$include" -I"$here/fake_magma" "$here/include_order.c" 2> "$log"; then
  echo "check_magma_header: FAILED: tdls/magma.h's own types before magma_v2.h compiled" >&2
  exit 1
fi
grep -Eq "redefinition|conflicting types|redeclaration" "$log" ||
  { echo "check_magma_header: FAILED: not the expected error:" >&2; cat "$log" >&2; exit 1; }
echo "check_magma_header: own types before magma_v2.h refused, as expected: $(grep -Ec 'error' "$log") errors"
