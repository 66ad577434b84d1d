#!/usr/bin/env bash
# A width mismatch between a program and libtdls_magma(64) fails at link or
# load time, never at run time: tdls/magma.h binds the program's references
# to the version node of its magma_int_t width.
#   1. compiled for ILP64, linked against libtdls_magma (LP64): link fails;
#      the reverse likewise;
#   2. compiled and linked right: runs and solves (the positive control);
#   3. run against the other width's library under the right file name (a
#      misplaced file on LD_LIBRARY_PATH): the loader refuses it with
#      "version `TDLS_MAGMA_ILP64' not found" (and LP64 the reverse).
# Usage: check_magma_width.sh <C compiler> <source dir of tests/magma> <include dir>
#        <dir of libtdls.so> <dir of libtdls_magma*.so> <SOVERSION> [<sanitizers of the build>]
set -euo pipefail
cc=$1 here=$2 include=$3 tdls_dir=$4 magma_dir=$5 soversion=$6
sanitize=()
# A sanitized build's libraries need the sanitizer runtimes in the program.
[[ -n ${7:-} ]] && sanitize=(-fsanitize="$7" -fno-sanitize-recover=all)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "check_magma_width: FAILED: $*" >&2; exit 1; }
checks=0

for width in lp64 ilp64; do
  if [[ $width == ilp64 ]]; then
    flags=(-DMAGMA_ILP64) right=tdls_magma64 wrong=tdls_magma node=TDLS_MAGMA_ILP64
  else
    flags=() right=tdls_magma wrong=tdls_magma64 node=TDLS_MAGMA_LP64
  fi
  "$cc" -std=c99 -pedantic -Werror "${sanitize[@]}" "${flags[@]}" -I"$include" -c "$here/width_consumer.c" -o "$scratch/$width.o"

  # 1. Linked against the other width: the linker refuses.
  if "$cc" "${sanitize[@]}" "$scratch/$width.o" -L"$magma_dir" -L"$tdls_dir" -l$wrong -ltdls -o "$scratch/$width-wrong" \
       2> "$scratch/link.log"; then
    fail "$width program linked against lib$wrong"
  fi
  grep -q "magma_dgesv_batched@$node" "$scratch/link.log" || fail "link error does not name $node: $(cat "$scratch/link.log")"
  checks=$((checks + 1))

  # 2. Right: links, loads and solves.
  "$cc" "${sanitize[@]}" "$scratch/$width.o" -L"$magma_dir" -L"$tdls_dir" -l$right -ltdls -o "$scratch/$width-right"
  LD_LIBRARY_PATH="$magma_dir:$tdls_dir" "$scratch/$width-right" || fail "$width program against lib$right"
  checks=$((checks + 1))

  # 3. The other width's library under the right name: the loader refuses.
  mkdir -p "$scratch/misplaced-$width"
  cp "$magma_dir/lib$wrong.so.$soversion" "$scratch/misplaced-$width/lib$right.so.$soversion"
  if LD_LIBRARY_PATH="$scratch/misplaced-$width:$magma_dir:$tdls_dir" "$scratch/$width-right" \
       > "$scratch/run.log" 2>&1; then
    fail "$width program ran against lib$wrong: $(cat "$scratch/run.log")"
  fi
  grep -q "version \`$node' not found" "$scratch/run.log" || fail "load error: $(cat "$scratch/run.log")"
  echo "check_magma_width: $width: $(head -c 200 "$scratch/run.log")"
  checks=$((checks + 1))
done
[[ $checks == 6 ]] || fail "$checks of 6 checks ran"
echo "check_magma_width: 6 of 6 checks passed"
